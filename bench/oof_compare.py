#!/usr/bin/env python3
"""Paired out-of-fold comparison of two training runs.

    python3 bench/oof_compare.py BASE.jsonl[,BASE2.jsonl...] OTHER.jsonl[,OTHER2.jsonl...]

Both files are written by `pagelevel train --cv --dry-run --pages FILE` (one line per page with
its word-F1 `f1`). Pages are paired by their `html` path. Several files to a side (runs with
other `train --seed` values) give each page the mean of its F1 over them, so the comparison is
of the seeds' means. Per set (and per wcxb-dev page type)
it prints the two means, how many pages OTHER scores higher / lower than BASE, the mean
difference and a 95% bootstrap interval of it (1,000 resamples of the pages, seed 1). Unlike
`oof_paired.py` the runs have different fold models, so retraining noise is part of the
difference (see docs/quality.md on how much of a difference is real).
"""
import collections
import json
import random
import sys


def load(paths):
    """Each page's record from the first file, its `f1` the mean over all files."""
    runs = [
        {r["html"]: r for r in map(json.loads, open(p, encoding="utf-8"))}
        for p in paths.split(",")
    ]
    pages = {}
    for key, r in runs[0].items():
        if all(key in run for run in runs):
            pages[key] = dict(r, f1=sum(run[key]["f1"] for run in runs) / len(runs))
    return pages


def main() -> None:
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    base, other = load(sys.argv[1]), load(sys.argv[2])
    groups = collections.defaultdict(list)
    for key, b in base.items():
        o = other.get(key)
        if o is None:
            continue
        pair = (b["f1"], o["f1"])
        groups[b["set"]].append(pair)
        if b["set"] == "wcxb-dev" and b.get("type"):
            groups["wcxb-dev: " + b["type"]].append(pair)
    print("| set | pages | base | other | better | worse | mean Δ | 95% interval |")
    print("|---|---:|---:|---:|---:|---:|---:|---|")
    rng = random.Random(1)
    for g, pairs in sorted(groups.items()):
        n = len(pairs)
        ds = [o - b for b, o in pairs]
        means = sorted(sum(rng.choice(ds) for _ in range(n)) / n for _ in range(1000))
        print(
            f"| {g} | {n} | {sum(b for b, _ in pairs) / n:.4f} | {sum(o for _, o in pairs) / n:.4f} "
            f"| {sum(d > 1e-9 for d in ds)} | {sum(d < -1e-9 for d in ds)} | {sum(ds) / n:+.4f} "
            f"| [{means[25]:+.4f}, {means[974]:+.4f}] |"
        )


if __name__ == "__main__":
    main()
