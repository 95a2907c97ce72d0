#!/usr/bin/env python3
"""Metadata quality of ``pagelevel extract --with-metadata`` beside trafilatura's
``extract_metadata``, in the same run, on wcxb-dev and the readability set.

    python bench/metadata.py [--data ../shared/data] [--bin target/release/pagelevel]
                             [--sets wcxb-dev,readability] [--jobs 2] [--pages-out FILE]

Needs trafilatura (``bench/requirements.txt``; ``bash bench/run.sh`` makes a venv with it) and
a release build of pagelevel. Pages go to pagelevel as one WARC of ``response`` records (the
page's original bytes, its manifest URL as the target URI when it has one), so each page is read
with its URL in one process; trafilatura gets the same bytes and ``default_url=`` the same URL.

Scores, per set (only pages whose gold has the field count; a missing answer scores 0)
    title    word-F1 of the title against the gold title: bags of lower-cased ``\\w+`` tokens
             (Python's Unicode ``\\w``), F1 of their multiset overlap, mean over pages.
    author   share of pages whose normalised author and gold author match: one contains the
             other. Normalised: lower-cased, accents dropped, everything but letters and digits
             made a space, spaces collapsed.
    date     share of pages whose date is the gold date's day (first ten characters,
             ``YYYY-MM-DD``).
    excerpt  (readability) word-F1 of the description against the gold ``excerpt``.
wcxb-dev gold: the manifest's ``gold_title``, ``gold_author``, ``gold_date``. readability gold:
``readability/metadata/<id>.json`` (``title``, ``byline`` as author, ``excerpt``,
``publishedTime`` as date).
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import re
import subprocess
import sys
import tempfile
import time
import unicodedata
import uuid
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
WORD = re.compile(r"\w+")


def words(s: str | None) -> Counter:
    return Counter(WORD.findall((s or "").lower()))


def word_f1(pred: str | None, gold: str | None) -> float:
    p, g = words(pred), words(gold)
    if not p or not g:
        return float(not p and not g)
    common = sum((p & g).values())
    if common == 0:
        return 0.0
    prec, rec = common / sum(p.values()), common / sum(g.values())
    return 2 * prec * rec / (prec + rec)


def norm_name(s: str | None) -> str:
    s = unicodedata.normalize("NFKD", (s or "").lower())
    s = "".join(c for c in s if not unicodedata.combining(c))
    return " ".join(re.sub(r"[^\w]|_", " ", s).split())


def author_match(pred: str | None, gold: str | None) -> float:
    p, g = norm_name(pred), norm_name(gold)
    return float(bool(p) and bool(g) and (p in g or g in p))


def date_match(pred: str | None, gold: str | None) -> float:
    return float(bool(pred) and bool(gold) and pred[:10] == gold[:10])


def load_pages(data: Path, name: str) -> list[dict]:
    pages = []
    for line in (data / name / "manifest.jsonl").read_text().splitlines():
        if not line.strip():
            continue
        e = json.loads(line)
        gold: dict = {}
        if name == "readability":
            m = json.loads((data / name / "metadata" / f"{e['id']}.json").read_text())
            gold = {"title": m.get("title"), "author": m.get("byline"),
                    "excerpt": m.get("excerpt"), "date": m.get("publishedTime")}
        else:
            gold = {"title": e.get("gold_title"), "author": e.get("gold_author"),
                    "date": e.get("gold_date")}
        raw = (data / e["html"]).read_bytes()
        html = gzip.decompress(raw) if raw[:2] == b"\x1f\x8b" else raw
        pages.append({"id": e["id"], "url": e.get("url"), "html": html,
                      "gold": {k: v for k, v in gold.items() if v}})
    return pages


def warc_record(url: str | None, rid: str, html: bytes) -> bytes:
    http = (b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: "
            + str(len(html)).encode() + b"\r\n\r\n" + html)
    head = ("WARC/1.1\r\nWARC-Type: response\r\n"
            f"WARC-Record-ID: <urn:uuid:{rid}>\r\n"
            + (f"WARC-Target-URI: {url}\r\n" if url else "")
            + "WARC-Date: 2026-01-01T00:00:00Z\r\n"
            "Content-Type: application/http; msgtype=response\r\n"
            f"Content-Length: {len(http)}\r\n\r\n").encode()
    return gzip.compress(head + http + b"\r\n\r\n", mtime=0, compresslevel=1)


def run_pagelevel(binary: Path, pages: list[dict], jobs: int) -> tuple[list[dict], float]:
    """pagelevel's metadata per page (in order) and the wall time of the run."""
    ids = [str(uuid.uuid5(uuid.NAMESPACE_URL, f"page:{i}")) for i in range(len(pages))]
    with tempfile.TemporaryDirectory() as tmp:
        warc = Path(tmp) / "pages.warc.gz"
        with open(warc, "wb") as f:
            for p, rid in zip(pages, ids):
                f.write(warc_record(p["url"], rid, p["html"]))
        t0 = time.perf_counter()
        out = subprocess.run([str(binary), "-j", str(jobs), "extract", "--with-metadata", str(warc)],
                             capture_output=True, text=True)
        wall = time.perf_counter() - t0
    by_id = {}
    for line in out.stdout.split("\n"):
        if line.startswith("{"):
            o = json.loads(line)
            by_id[o.get("warc_record_id", "").strip("<>").removeprefix("urn:uuid:")] = o
    if len(by_id) < len(pages):
        print(f"pagelevel answered {len(by_id)} of {len(pages)} pages: {out.stderr[-500:]}",
              file=sys.stderr)
    return [by_id.get(rid, {}) for rid in ids], wall


def trafilatura_one(args: tuple[bytes, str | None]) -> dict:
    from trafilatura.metadata import extract_metadata
    html, url = args
    try:
        d = extract_metadata(html, default_url=url)
    except Exception as e:  # a page trafilatura cannot read scores 0
        return {"error": repr(e)}
    if d is None:
        return {}
    return {"title": d.title, "author": d.author, "date": d.date, "description": d.description}


def run_trafilatura(pages: list[dict], jobs: int) -> tuple[list[dict], float]:
    t0 = time.perf_counter()
    with ProcessPoolExecutor(max_workers=jobs) as ex:
        got = list(ex.map(trafilatura_one, [(p["html"], p["url"]) for p in pages], chunksize=8))
    return got, time.perf_counter() - t0


FIELDS = {
    "wcxb-dev": [("title", "title", word_f1), ("author", "author", author_match),
                 ("date", "date", date_match)],
    "readability": [("title", "title", word_f1), ("byline", "author", author_match),
                    ("excerpt", "excerpt", word_f1), ("date", "date", date_match)],
}


def score(pages: list[dict], preds: list[dict], name: str) -> dict:
    out = {}
    for label, gold_key, fn in FIELDS[name]:
        pred_key = "description" if gold_key == "excerpt" else gold_key
        vals = [fn(pr.get(pred_key), p["gold"][gold_key])
                for p, pr in zip(pages, preds) if gold_key in p["gold"]]
        out[label] = (sum(vals) / len(vals) if vals else float("nan"), len(vals))
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", type=Path, default=REPO.parent / "shared" / "data")
    ap.add_argument("--bin", type=Path, default=Path(os.environ.get(
        "PAGELEVEL_BIN", REPO / "target" / "release" / "pagelevel")))
    ap.add_argument("--sets", default="wcxb-dev,readability")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--no-trafilatura", action="store_true", help="pagelevel alone")
    ap.add_argument("--pages-out", type=Path, help="per-page answers and gold as JSON Lines")
    a = ap.parse_args()
    rows = []
    dump = open(a.pages_out, "w") if a.pages_out else None
    for name in a.sets.split(","):
        pages = load_pages(a.data, name)
        pl, pl_wall = run_pagelevel(a.bin, pages, a.jobs)
        peers = [("pagelevel", pl, pl_wall)]
        if not a.no_trafilatura:
            tr, tr_wall = run_trafilatura(pages, a.jobs)
            peers.append(("trafilatura 2.3.1", tr, tr_wall))
        for label, preds, wall in peers:
            rows.append((name, label, score(pages, preds, name), wall))
        if dump:
            for k, p in enumerate(pages):
                rec = {"set": name, "id": p["id"], "url": p["url"], "gold": p["gold"]}
                for label, preds, _ in peers:
                    rec[label.split()[0]] = {f: preds[k].get(f) for f in
                                             ("title", "author", "date", "date_modified", "description")}
                dump.write(json.dumps(rec, ensure_ascii=False) + "\n")
    for name in dict.fromkeys(r[0] for r in rows):
        labels = [f[0] for f in FIELDS[name]]
        first = next(r for r in rows if r[0] == name)[2]
        print(f"\n{name}: " + ", ".join(f"{l} on {first[l][1]} pages" for l in labels))
        print("| extractor | " + " | ".join(labels) + " | wall s |")
        print("|---|" + "---:|" * (len(labels) + 1))
        for n, label, s, wall in rows:
            if n == name:
                print(f"| {label} | " + " | ".join(f"{s[l][0]:.3f}" for l in labels)
                      + f" | {wall:.1f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
