#!/usr/bin/env python3
"""Out-of-fold scores of a changed build with the fold models of an earlier run.

    python3 bench/same_folds.py train OOF.jsonl WORK [--binary B] [--data D] [-- TRAIN ARGS]
    python3 bench/same_folds.py eval WORK OUT.jsonl [--binary B] [--data D] [-- EVAL ARGS]

`train --cv` retrains its five fold models, and a changed training set moves every tree: the
retraining noise (see docs/quality.md) hides small effects. For a change that does not need
retraining to be judged (decoding, visibility, text rendering), this script keeps the models
fixed. `train` reads the folds from a `train --cv --pages` file (its `fold` field) and, for each
fold k, writes WORK/data-k (every set's manifest without fold k's pages, the page folders linked)
and trains WORK/model-k.json on it with `pagelevel train --data WORK/data-k`; it also writes
WORK/fold-k.jsonl, fold k's pages. `eval` extracts each fold's pages with its model (`pagelevel
eval --model WORK/model-k.json`) and writes the per-page scores of all folds to OUT.jsonl, with
`set` and `fold` added so `bench/oof_compare.py` reads it. With the binary that trained the
models, the scores equal the `--pages` file's: the models are those of `train --cv`.
Five trainings take about 4 minutes on 2 cores; an evaluation of the 1,911 pages, seconds.
"""
import argparse
import json
import os
import subprocess
import sys

SETS = ["sites", "wcxb-dev", "l3s-gn1", "chaos", "readability", "cleaneval-dev"]
FOLDS = 5


def train(args: argparse.Namespace) -> None:
    fold = {}
    for line in open(args.oof, encoding="utf-8"):
        r = json.loads(line)
        fold[(r["set"], r["id"])] = r["fold"]
    data = os.path.abspath(args.data)
    os.makedirs(args.work, exist_ok=True)
    for k in range(FOLDS):
        root = os.path.join(args.work, f"data-{k}")
        with open(os.path.join(args.work, f"fold-{k}.jsonl"), "w", encoding="utf-8") as held:
            for s in SETS:
                os.makedirs(os.path.join(root, s), exist_ok=True)
                for entry in os.listdir(os.path.join(data, s)):
                    link = os.path.join(root, s, entry)
                    if entry != "manifest.jsonl" and not os.path.lexists(link):
                        os.symlink(os.path.join(data, s, entry), link)
                with open(os.path.join(root, s, "manifest.jsonl"), "w", encoding="utf-8") as out:
                    for line in open(os.path.join(data, s, "manifest.jsonl"), encoding="utf-8"):
                        e = json.loads(line)
                        if (s, e["id"]) not in fold:
                            sys.exit(f"{s}/{e['id']} is not in {args.oof}: rerun train --cv --pages")
                        (held if fold[(s, e["id"])] == k else out).write(line)
        model = os.path.join(args.work, f"model-{k}.json")
        print(f"fold {k}: training {model}", file=sys.stderr)
        subprocess.run([args.binary, "train", "--data", root, "--out", model, *args.extra],
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def evaluate(args: argparse.Namespace) -> None:
    with open(args.out, "w", encoding="utf-8") as out:
        for k in range(FOLDS):
            pages = os.path.join(args.work, f"pages-{k}.jsonl")
            subprocess.run([args.binary, "eval", "--manifest",
                            os.path.join(args.work, f"fold-{k}.jsonl"), "--root", args.data,
                            "--model", os.path.join(args.work, f"model-{k}.json"),
                            "--pages", pages, *args.extra],
                           check=True, stdout=subprocess.DEVNULL)
            for line in open(pages, encoding="utf-8"):
                r = json.loads(line)
                r["set"], r["fold"] = r["html"].split("/")[0], k
                out.write(json.dumps(r) + "\n")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    t = sub.add_parser("train")
    t.add_argument("oof")
    t.add_argument("work")
    e = sub.add_parser("eval")
    e.add_argument("work")
    e.add_argument("out")
    for p in (t, e):
        p.add_argument("--binary", default="target/release/pagelevel")
        p.add_argument("--data", default="../shared/data")
    # Everything after `--` goes to `pagelevel train` or `pagelevel eval` (`-- --seed 7` with a
    # `train --cv --seed 7` run's file rebuilds that seed's fold models), wherever the options
    # stand before it (argparse alone rejects `-- ARGS` after an option that follows the
    # positionals).
    argv = sys.argv[1:]
    cut = argv.index("--") if "--" in argv else len(argv)
    args = ap.parse_args(argv[:cut])
    args.extra = argv[cut + 1:]
    (train if args.cmd == "train" else evaluate)(args)


if __name__ == "__main__":
    main()
