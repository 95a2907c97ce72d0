#!/usr/bin/env python3
"""Can a model learn, per page, whether the annotators wrote a kind of structure at all?

    python bench/structure.py --no-trafilatura --no-rs-trafilatura --md-out DIR
    python bench/structure_kinds.py --md-dir DIR/pagelevel [--data ../shared/data]

``structure.py --bounds`` shows that pagelevel's structure score would pass 0.75 if every kind
(headings, list items, table cells, code) the page's gold has none of were dropped: most of
the distance is pages whose annotators wrote the page's lists, headings or code as plain lines.
This script asks whether that choice can be predicted. Per kind, over the pages where
pagelevel's Markdown has that kind, a gradient-boosted classifier (scikit-learn, 100 trees of
depth 3) learns from the Markdown's shape (lines and words per kind, links, paragraphs) and
the page's WCXB type (taken from the manifest: more than pagelevel knows at run time) whether
the gold has the kind; out of fold over 5 groups of sites, the kind is dropped from the pages
predicted below a threshold, and the structure score is reported per threshold. Needs
scikit-learn (``pip install scikit-learn``; not in ``requirements.txt``).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from collections import Counter
from pathlib import Path

import structure as S

TYPES = ["article", "forum", "product", "listing", "collection", "documentation", "service"]


def line_kinds(md: str) -> Counter:
    """Lines per kind of a Markdown text, as ``structure.py`` reads it; prose and the
    continuation lines of items count as ``para``."""
    return Counter(kind if kind and not continued else "para"
                   for kind, _, continued in S.classify(md))


def main() -> int:
    import numpy as np
    from sklearn.ensemble import GradientBoostingClassifier
    from sklearn.model_selection import GroupKFold

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", type=Path, default=S.REPO.parent / "shared" / "data")
    ap.add_argument("--md-dir", type=Path, required=True, help="structure.py --md-out DIR/pagelevel")
    a = ap.parse_args()
    meta = {}
    for line in (a.data / "wcxb-dev" / "manifest.jsonl").read_text().splitlines():
        if line.strip():
            e = json.loads(line)
            meta[e["id"]] = e
    pages = []
    for p in S.load_pages(a.data):
        gold = S.structure(p["gold"])
        if gold:
            f = a.md_dir / f"{p['id']}.md"
            md = f.read_text(encoding="utf-8") if f.exists() else ""
            pages.append((p["id"], md, S.structure(md), gold))
    base = statistics.mean(S.f1(s, g) for _, _, s, g in pages)
    print(f"{len(pages)} pages with structure; structure F1 {base:.4f}")
    print("| kind | pages with it in ours | gold has it | " +
          " | ".join(f"drop below {t}" for t in (0.2, 0.3, 0.4, 0.5)) + " |")
    print("|---|---:|---:|" + "---:|" * 4)
    for kind in S.KINDS:
        X, y, groups, ids = [], [], [], []
        for pid, md, s, g in pages:
            words = sum(S.of_kind(s, kind).values())
            if words == 0:
                continue
            lc = line_kinds(md)
            total = len(S.WORD.findall(md.lower()))
            t = meta[pid].get("type")
            X.append([words, words / max(1, total), total, lc[kind], words / max(1, lc[kind]),
                      lc["para"], lc["heading"], lc["item"], lc["code"], lc["cell"],
                      md.count("](")] + [int(t == x) for x in TYPES])
            y.append(int(any(k == kind for k, _ in g)))
            groups.append(meta[pid]["site"])
            ids.append(pid)
        X, y = np.array(X, float), np.array(y)
        pred = np.zeros(len(y))
        for tr, te in GroupKFold(5).split(X, y, groups):
            m = GradientBoostingClassifier(n_estimators=100, max_depth=3, random_state=0)
            pred[te] = m.fit(X[tr], y[tr]).predict_proba(X[te])[:, 1]
        p_of = dict(zip(ids, pred))
        cells = []
        for thr in (0.2, 0.3, 0.4, 0.5):
            vals = []
            for pid, _, s, g in pages:
                if p_of.get(pid, 1.0) < thr:
                    s = Counter({kw: c for kw, c in s.items() if kw[0] != kind})
                vals.append(S.f1(s, g))
            dropped = sum(1 for v in pred if v < thr)
            cells.append(f"{statistics.mean(vals) - base:+.4f} ({dropped} pages)")
        print(f"| {kind} | {len(y)} | {int(y.sum())} | " + " | ".join(cells) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
