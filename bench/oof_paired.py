#!/usr/bin/env python3
"""Paired out-of-fold comparison of decoding variants.

    python3 bench/oof_paired.py OOF.jsonl BASE VARIANT...

OOF.jsonl is written by `pagelevel train --cv --dry-run --cv-variants ... --pages OOF.jsonl`
(every line carries `f1_by_variant`). Per set (and per wcxb-dev page type) it prints how many
pages each VARIANT scores higher / lower than BASE, the mean difference of word-F1 and a 95%
bootstrap interval of that mean (1,000 resamples of the pages, seed 1). The variants share
the fold models, so the differences are decoding effects alone.
"""
import collections
import json
import random
import sys


def main() -> None:
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    path, base, variants = sys.argv[1], sys.argv[2], sys.argv[3:]
    rows = [json.loads(line) for line in open(path, encoding="utf-8")]
    print("| variant | set | pages | better | worse | mean Δ | 95% interval |")
    print("|---|---|---:|---:|---:|---:|---|")
    for v in variants:
        rng = random.Random(1)
        groups = collections.defaultdict(list)
        for r in rows:
            d = r["f1_by_variant"][v] - r["f1_by_variant"][base]
            groups[r["set"]].append(d)
            if r["set"] == "wcxb-dev" and r.get("type"):
                groups["wcxb-dev: " + r["type"]].append(d)
        for g, ds in sorted(groups.items()):
            n = len(ds)
            means = sorted(sum(rng.choice(ds) for _ in range(n)) / n for _ in range(1000))
            better = sum(d > 1e-9 for d in ds)
            worse = sum(d < -1e-9 for d in ds)
            print(
                f"| {v} | {g} | {n} | {better} | {worse} | {sum(ds) / n:+.4f} "
                f"| [{means[25]:+.4f}, {means[974]:+.4f}] |"
            )


if __name__ == "__main__":
    main()
