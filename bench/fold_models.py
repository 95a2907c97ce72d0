#!/usr/bin/env python3
"""Out-of-fold scores of a rule or decoding change in seconds: keep the fold models, rerun eval.

    python3 bench/fold_models.py folds  --scheme site --oof OOF.jsonl --out DIR
    python3 bench/fold_models.py train  --scheme set|site --out DIR [--folds-from DIR0] [--train-args "..."]
    python3 bench/fold_models.py score  --scheme set|site --out DIR --tag TAG [-- EVAL ARGS]
    python3 bench/fold_models.py diff   --out DIR TAG_A TAG_B
    python3 bench/fold_models.py compare A.jsonl B.jsonl [...]

`pagelevel train --cv` retrains every fold model for each run (12 to 15 minutes on 2 cores).
The rules and the decoding do not change training, so their variants can share the fold models:

- `folds` (by site only) writes, from the `--pages` file of a `train --cv --dry-run` run (each
  record names its set, id and fold), one data folder per fold holding the other folds' pages
  (`DIR/train-K/<set>/manifest.jsonl`, the pages linked, not copied) and the held-out
  manifests `DIR/held-K-<set>.jsonl`;
- `train` trains the fold models once: leave one set out, `pagelevel train --sets <the other
  five>`; by site, `pagelevel train --data DIR/train-K`. About 2 minutes a model. A variant
  of the training (another seed, a prototype binary) trains by site on the folds of an earlier
  folder with `--folds-from DIR0`, which links DIR0's fold data and held-out manifests into DIR;
- `score` scores each held-out page with its fold's model through `pagelevel eval --model M
  --pages F` (add `--without-rule R`, `--variant V`, … after `--`), writes the per-page file
  `DIR/TAG.jsonl` and prints each set's mean word-F1 and wcxb-dev's per type;
- `diff` lists the pages whose F1 differs between two tags;
- `compare` prints the set means and wcxb-dev's per type of several per-page files side by
  side (two fold-model folders' variants, say), each after the first with its change.

With the same binary and seed, `score` reproduces `train --cv [--cv-by set]`'s per-page scores
exactly. A change to the features or the training needs `train` again.
"""
import argparse
import collections
import json
import os
import statistics
import subprocess
import sys

SETS = ["wcxb-dev", "l3s-gn1", "readability", "cleaneval-dev", "sites", "chaos"]
# The order `pagelevel train` loads the sets in by default, as `train --cv` does: rows are
# subsampled in load order, so another order trains another model.
TRAIN_ORDER = ["sites", "wcxb-dev", "l3s-gn1", "chaos", "readability", "cleaneval-dev"]


def folds(args) -> None:
    fold = {}
    for line in open(args.oof, encoding="utf-8"):
        r = json.loads(line)
        fold[(r["set"], r["id"])] = r["fold"]
    if not fold:
        sys.exit(f"{args.oof}: no records")
    ks = sorted(set(fold.values()))
    for k in ks:
        for s in SETS:
            src = os.path.join(os.path.abspath(args.data), s)
            dst = os.path.join(args.out, f"train-{k}", s)
            os.makedirs(dst, exist_ok=True)
            for name in os.listdir(src):
                link = os.path.join(dst, name)
                if name != "manifest.jsonl" and not os.path.lexists(link):
                    os.symlink(os.path.join(src, name), link)
            train, held = [], []
            for line in open(os.path.join(src, "manifest.jsonl"), encoding="utf-8"):
                if line.strip():
                    r = json.loads(line)
                    (held if fold.get((s, r["id"])) == k else train).append(line.rstrip("\n") + "\n")
            with open(os.path.join(dst, "manifest.jsonl"), "w", encoding="utf-8") as f:
                f.writelines(train)
            with open(os.path.join(args.out, f"held-{k}-{s}.jsonl"), "w", encoding="utf-8") as f:
                f.writelines(held)
    print(f"{len(ks)} folds in {args.out}")


def fold_jobs(args):
    """(set, model path, manifest, --root or None) per held-out part."""
    if args.scheme == "set":
        return [
            (s, os.path.join(args.out, f"m-{s}.json"), os.path.join(args.data, s, "manifest.jsonl"), None)
            for s in SETS
        ]
    jobs = []
    for name in sorted(os.listdir(args.out)):
        if name.startswith("held-") and name.endswith(".jsonl"):
            _, k, set_name = name[: -len(".jsonl")].split("-", 2)
            if os.path.getsize(os.path.join(args.out, name)):
                model = os.path.join(args.out, f"m-{k}.json")
                jobs.append((set_name, model, os.path.join(args.out, name), args.data))
    if not jobs:
        sys.exit(f"{args.out}: no held-out manifests; run `folds` first")
    return jobs


def link_folds(src: str, out: str) -> None:
    """Links the fold data and held-out manifests of folder `src` into `out` (kept if there)."""
    names = [n for n in sorted(os.listdir(src)) if n.startswith("train-") or n.startswith("held-")]
    if not names:
        sys.exit(f"{src}: no fold folders; run `folds` there first")
    for n in names:
        link = os.path.join(out, n)
        if not os.path.lexists(link):
            os.symlink(os.path.abspath(os.path.join(src, n)), link)


def train(args) -> None:
    os.makedirs(args.out, exist_ok=True)
    if args.folds_from:
        if args.scheme != "site":
            sys.exit("--folds-from is for --scheme site (leave one set out needs no fold data)")
        link_folds(args.folds_from, args.out)
    extra = args.train_args.split()
    if args.scheme == "set":
        runs = [(s, ["--data", args.data, "--sets", ",".join(t for t in TRAIN_ORDER if t != s)]) for s in SETS]
    else:
        ks = sorted({n.split("-")[1] for n in os.listdir(args.out) if n.startswith("train-")})
        if not ks:
            sys.exit(f"{args.out}: no fold folders; run `folds` first")
        runs = [(k, ["--data", os.path.join(args.out, f"train-{k}")]) for k in ks]
    for name, data in runs:
        out = os.path.join(args.out, f"m-{name}.json")
        cmd = [args.bin, "-j", str(args.jobs), "train", *data, "--out", out, *extra]
        print(" ".join(cmd), flush=True)
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)


def group_means(rows) -> dict:
    """(mean F1, pages) per set and per wcxb-dev page type ("wcxb-dev: <type>") of per-page rows."""
    by = collections.defaultdict(list)
    for r in rows:
        by[r["set"]].append(r["f1"])
        if r["set"] == "wcxb-dev" and r.get("type"):
            by["wcxb-dev: " + r["type"]].append(r["f1"])
    return {k: (statistics.mean(v), len(v)) for k, v in by.items()}


def groups(means: dict) -> list:
    """The groups of `group_means` in table order: the sets as SETS lists them, then the types."""
    return [s for s in SETS if s in means] + sorted(k for k in means if k.startswith("wcxb-dev: "))


def score(args) -> None:
    rows = []
    for set_name, model, manifest, root in fold_jobs(args):
        if not os.path.exists(model):
            sys.exit(f"{model}: no such model; run `train` first")
        pages = os.path.join(args.out, f".{args.tag}.part.jsonl")
        cmd = [args.bin, "eval", "-j", str(args.jobs), "--model", model, "--manifest", manifest, "--pages", pages]
        if root:
            cmd += ["--root", root]
        subprocess.run(cmd + args.eval_args, check=True, stdout=subprocess.DEVNULL)
        for line in open(pages, encoding="utf-8"):
            r = json.loads(line)
            r["set"] = set_name
            rows.append(r)
        os.remove(pages)
    with open(os.path.join(args.out, f"{args.tag}.jsonl"), "w", encoding="utf-8") as f:
        for r in rows:
            f.write(json.dumps(r) + "\n")
    means = group_means(rows)
    print("| set | pages | mean F1 |\n|---|---:|---:|")
    for g in groups(means):
        print(f"| {g} | {means[g][1]} | {means[g][0]:.4f} |")


def diff(args) -> None:
    def load(tag):
        path = os.path.join(args.out, f"{tag}.jsonl")
        return {(r["set"], r["id"]): r for r in map(json.loads, open(path, encoding="utf-8"))}

    a, b = load(args.tags[0]), load(args.tags[1])
    changed = sorted((b[k]["f1"] - a[k]["f1"], k) for k in a if k in b and abs(b[k]["f1"] - a[k]["f1"]) > 1e-9)
    for d, (s, i) in changed:
        print(f"{s} {i} {a[(s, i)].get('type') or ''} {a[(s, i)]['f1']:.3f} -> {b[(s, i)]['f1']:.3f} ({d:+.3f})")
    print(f"{len(changed)} pages differ")


def compare(args) -> None:
    runs = [group_means(map(json.loads, open(p, encoding="utf-8"))) for p in args.tags]
    print("| group | pages | " + " | ".join(args.tags) + " |")
    print("|---|---:|" + "---:|" * len(runs))
    for k in groups(runs[0]):
        base = runs[0][k][0]
        cells = [f"{base:.4f}"]
        for r in runs[1:]:
            cells.append(f"{r[k][0]:.4f} ({r[k][0] - base:+.4f})" if k in r else "–")
        print(f"| {k} | {runs[0][k][1]} | " + " | ".join(cells) + " |")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("command", choices=["folds", "train", "score", "diff", "compare"])
    p.add_argument("tags", nargs="*", help="diff: two tags; compare: per-page files")
    p.add_argument("--scheme", choices=["set", "site"], default="set")
    p.add_argument("--out", help="folder of fold data, models and per-page files")
    p.add_argument("--folds-from", help="train by site: link this folder's fold data into --out")
    p.add_argument("--oof", help="folds: the --pages file of a by-site `train --cv --dry-run`")
    p.add_argument("--bin", default="target/release/pagelevel")
    p.add_argument("--data", default="../shared/data")
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--train-args", default="", help="train: more `pagelevel train` options")
    p.add_argument("--tag", help="score: name of this variant's per-page file")
    argv = sys.argv[1:]
    eval_args = argv[argv.index("--") + 1 :] if "--" in argv else []
    args = p.parse_intermixed_args(argv[: argv.index("--")] if "--" in argv else argv)
    args.eval_args = eval_args
    if args.command != "compare" and not args.out:
        p.error(f"{args.command} needs --out")
    if args.command == "compare" and len(args.tags) < 2:
        p.error("compare needs two or more per-page files")
    if args.command == "folds" and not args.oof:
        p.error("folds needs --oof")
    if args.command == "score" and not args.tag:
        p.error("score needs --tag")
    if args.command == "diff" and len(args.tags) != 2:
        p.error("diff needs two tags")
    {"folds": folds, "train": train, "score": score, "diff": diff, "compare": compare}[args.command](args)


if __name__ == "__main__":
    main()
