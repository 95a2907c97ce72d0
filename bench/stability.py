#!/usr/bin/env python3
"""How stable the trained model's verdict on small plain pages is: retrains with several seeds
and checks each model on the pages whose text the tests pin down.

    python3 bench/stability.py [--bin target/release/pagelevel] [--seeds 184571885,1,2] \
        [--train-args "--depth 4 --trees 75"] [--keep DIR] [--models M.json ...]

Per seed, `pagelevel train --seed S` (plus `--train-args`) writes a model, which then extracts:
- the bundled examples (`data/examples/*.html`): every string of `data/examples/expected.json`
  kept or dropped as it says (the test `the_bundled_examples_keep_titles_item_names_and_prices`);
- the Python tests' made-up site page (`python/tests/site_pages.py`, page 1), with its URL and
  without: headline first, both paragraphs kept, header, menu and footer dropped (the test
  `test_extract_keeps_the_article_and_drops_header_menu_and_footer`).

Prints one line per model and probe, and a summary: how many models pass every probe. A model
whose verdict on these pages turns on the seed passes the tests by luck. `--models` checks given
model files instead of training. Each training takes 3 to 7 minutes on 2 cores.
"""
import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "python" / "tests"))
from site_pages import site_pages  # noqa: E402

DEFAULT_SEED = 184571885  # `pagelevel train --seed`'s default


def extract(binary, model, paths, url=None):
    args = [binary, "extract", "--model", model] + (["--url", url] if url else []) + paths
    out = subprocess.run(args, capture_output=True, text=True, check=True).stdout
    return [json.loads(line) for line in out.splitlines()]


def example_failures(binary, model, expected):
    paths = [str(ROOT / "data/examples" / f"{name}.html") for name in expected]
    failures = []
    for (name, case), line in zip(expected.items(), extract(binary, model, paths)):
        text = line.get("text", "")
        failures += [f"{name} lost {k!r}" for k in case["kept"] if k not in text]
        failures += [f"{name} kept {d!r}" for d in case["dropped"] if d in text]
    return failures


def site_page_failures(binary, model, page, url):
    failures = []
    for given in (url, None):
        text = extract(binary, model, [str(page)], given)[0].get("text", "")
        where = "with URL" if given else "without URL"
        if text.splitlines()[:1] != ["Story number b"]:
            failures.append(f"site page {where}: headline not first")
        if "Second paragraph of story b." not in text:
            failures.append(f"site page {where}: lost the second paragraph")
        failures += [
            f"site page {where}: kept {t!r}"
            for t in ("Daily Example", "Home", "Sport", "Copyright")
            if t in text
        ]
    return failures


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--bin", default=str(ROOT / "target/release/pagelevel"))
    ap.add_argument("--data", default=str(ROOT.parent / "shared/data"))
    ap.add_argument("--seeds", default=f"{DEFAULT_SEED},1,2")
    ap.add_argument("--train-args", default="", help="more `pagelevel train` options")
    ap.add_argument("--jobs", default="2")
    ap.add_argument("--keep", help="folder to keep the trained models in")
    ap.add_argument("--models", nargs="*", help="check these model files instead of training")
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        models = a.models or []
        if not models:
            folder = Path(a.keep or tmp)
            folder.mkdir(parents=True, exist_ok=True)
            for seed in a.seeds.split(","):
                model = str(folder / f"model-seed{seed}.json")
                args = [a.bin, "-j", a.jobs, "train", "--data", a.data, "--seed", seed, "--out", model]
                subprocess.run(args + a.train_args.split(), check=True, capture_output=True)
                models.append(model)
        # Read and written once for all the models.
        expected = json.loads((ROOT / "data/examples/expected.json").read_text())["pages"]
        url, html = site_pages(2)[1]
        page = Path(tmp) / "site-page.html"
        page.write_text(html)
        passing = 0
        for model in models:
            failures = example_failures(a.bin, model, expected)
            failures += site_page_failures(a.bin, model, page, url)
            passing += not failures
            print(f"{model}: {'pass' if not failures else '; '.join(failures)}")
        print(f"{passing} of {len(models)} models pass every probe")


if __name__ == "__main__":
    main()
