#!/usr/bin/env python3
"""The rule-ablation table of docs/quality.md from `train --cv --cv-rules-ablation` output.

    pagelevel train --cv --cv-by set --cv-rules-ablation --dry-run > loso.txt
    python3 bench/ablation_table.py --noise 0.002 loso.txt [loso-seed2.txt ...]

Reads the table "with each rule switched off" that train prints (several files: runs with other
`--seed` values, whose per-set means are averaged) and prints, per rule, what it adds on each set
(all rules − without it; positive: the rule helps) and a verdict: a rule is kept when it reads a
web standard or a general page property (GENERIC below) and helps on some set by more than the
noise without hurting any by more; a rule that reads class names is kept only while it still
helps by more than the noise on some set and hurts none (it is a candidate for the model to learn
instead); a fallback is kept when it hurts no set by more than the noise.
"""
import argparse
import collections
import sys

SETS = ["wcxb-dev", "l3s-gn1", "readability", "cleaneval-dev", "sites", "chaos"]

# What each rule reads: a web standard (WCAG 2.4.1 bypass blocks, HTML/ARIA landmarks and
# sectioning), a general page property, a fallback, or class names.
READS = {
    "forum-replies": "class names (comment regions) and markup twins",
    "declared-discussion": "schema.org page type (DiscussionForumPosting, QAPage)",
    "thread-url": "forum engines' thread URL conventions",
    "thread-posts": "schema.org page type, thread URL conventions or forum post class names, repeated markup (posts)",
    "main-start": "WCAG skip link, HTML <main>, else the content blocks' main region",
    "listing": "repeated markup (a listing's items), schema.org page type (Product)",
    "twin-items": "repeated markup (a list's items)",
    "item-headings": "HTML headings of repeated items",
    "item-labels": "repeated markup and text (links and buttons in every item)",
    "flow-lists": "HTML <main> or WCAG skip link, HTML lists and tables, description lists of sentences, link text (headline lists)",
    "comments": "class names (comment regions)",
    "inline-chrome": "class names (share, skip, search)",
    "galleries": "class names (gallery)",
    "asides": "HTML <aside>, ARIA complementary",
    "page-header-footer": "HTML sectioning, ARIA banner/contentinfo",
    "related-links": "class names (related)",
    "reviews": "schema.org page type (Product, not Article), class names (review)",
    "link-lists": "schema.org/OpenGraph page type (Article), link density",
    "dated-teasers": "schema.org/OpenGraph page type (Article, no list), HTML <time> or a date standing alone as text, repeated markup",
    "figure-captions": "HTML <figure>/<figcaption>",
    "before-main": "WCAG skip link, HTML <main>",
    "only-chrome": "HTML/ARIA landmarks, WCAG skip links",
    "repeats": "repeated text (page property)",
    "lowest-fallback": "fallback when nothing is kept",
    "blocks-fallback": "fallback when nothing is kept",
}
GENERIC = {
    "declared-discussion", "thread-posts", "main-start", "listing", "twin-items", "item-headings", "item-labels", "asides", "page-header-footer", "before-main", "only-chrome",
    "repeats", "link-lists", "dated-teasers", "flow-lists", "figure-captions",
}
FALLBACK = {"lowest-fallback", "blocks-fallback"}


def read(path: str) -> dict:
    """{rule or 'all rules': {set: mean}} from the ablation table of one train output."""
    lines = open(path, encoding="utf-8").read().splitlines()
    start = next(i for i, l in enumerate(lines) if "with each rule switched off" in l)
    head = next(l for l in lines[start:] if l.startswith("| set |"))
    cols = [c.strip() for c in head.strip("|").split("|")][2:]
    out = collections.defaultdict(dict)
    for l in lines[lines.index(head) + 2:]:
        if not l.startswith("|"):
            break
        cells = [c.strip() for c in l.strip("|").split("|")]
        for c, v in zip(cols, cells[2:]):
            out[c.removeprefix("without ")][cells[0]] = float(v)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--noise", type=float, required=True, help="retraining noise per set mean")
    ap.add_argument("runs", nargs="+")
    a = ap.parse_args()
    runs = [read(p) for p in a.runs]
    mean = lambda r, s: sum(x[r][s] for x in runs) / len(runs)
    sets = [s for s in SETS if s in runs[0]["all rules"]]
    print("| rule | reads | " + " | ".join(sets) + " | verdict |")
    print("|---|---|" + "---:|" * len(sets) + "---|")
    for rule in [r for r in runs[0] if r != "all rules"]:
        gain = [mean("all rules", s) - mean(rule, s) for s in sets]
        helps = max(gain) > a.noise
        hurts = min(gain) < -a.noise
        if rule in FALLBACK:
            verdict = "keep (fallback, hurts no set)" if not hurts else "remove (hurts a set)"
        elif hurts:
            verdict = "remove (hurts a set)"
        elif not helps:
            verdict = "remove (no gain beyond noise)"
        elif rule in GENERIC:
            verdict = "keep (general, helps)"
        else:
            verdict = "keep while it helps (class names: for the model to learn)"
        cells = " | ".join(f"{g:+.4f}" for g in gain)
        print(f"| {rule} | {READS.get(rule, '?')} | {cells} | {verdict} |", flush=True)


if __name__ == "__main__":
    sys.exit(main())
