#!/usr/bin/env python3
"""Mean word-F1 per set and per wcxb-dev page type of out-of-fold runs, as a Markdown table.

    python3 bench/oof_table.py LABEL=RUN.jsonl[,RUN.jsonl...] ...

Each argument is one row. Several files after one label (runs with other `train --seed`
values, say) give the mean of their per-set means, so a row can average out the boosting
seed's noise. Files are `train --cv --dry-run --pages` or `bench/same_folds.py eval` output.
"""
import collections
import json
import sys

SETS = ["wcxb-dev", "l3s-gn1", "readability", "cleaneval-dev", "sites", "chaos"]
TYPES = ["article", "service", "forum", "listing", "product", "collection", "documentation"]


def means(path: str) -> dict:
    groups = collections.defaultdict(list)
    for line in open(path, encoding="utf-8"):
        r = json.loads(line)
        s = r.get("set") or r["html"].split("/")[0]
        groups[s].append(r["f1"])
        if s == "wcxb-dev" and r.get("type"):
            groups[r["type"]].append(r["f1"])
    return {k: sum(v) / len(v) for k, v in groups.items()}


def main() -> None:
    if len(sys.argv) < 2 or any("=" not in a for a in sys.argv[1:]):
        sys.exit(__doc__)
    cols = SETS + TYPES
    print("| run | " + " | ".join(cols) + " |")
    print("|---|" + "---:|" * len(cols))
    for arg in sys.argv[1:]:
        label, files = arg.split("=", 1)
        runs = [means(f) for f in files.split(",")]
        row = [sum(r.get(c, float("nan")) for r in runs) / len(runs) for c in cols]
        print(f"| {label} | " + " | ".join(f"{v:.4f}" for v in row) + " |")


if __name__ == "__main__":
    main()
