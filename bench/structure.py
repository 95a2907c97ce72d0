#!/usr/bin/env python3
"""Structure score of Markdown extractions against wcxb-dev's ``gold_markdown``:
``pagelevel extract --format markdown``, trafilatura's and rs-trafilatura's Markdown, in the
same run.

    python bench/structure.py [--data ../shared/data] [--bin target/release/pagelevel]
                              [--jobs 2] [--no-trafilatura] [--no-rs-trafilatura]
                              [--rust-peers-bin BIN] [--pages-out FILE] [--md-out DIR]
                              [--bounds]

Needs trafilatura (``bench/requirements.txt``), a release build of pagelevel and one of
``bench/rust-peers`` (``cargo build --release --manifest-path bench/rust-peers/Cargo.toml``).
Pages go to pagelevel as one WARC of ``response`` records (the page's original bytes, its
manifest URL as the target URI), so each page is read with its URL in one process; the
``==> PATH URI RECORD-ID <==`` separator lines of the Markdown output name the pages.
trafilatura gets the same bytes: ``trafilatura.extract(html, url=URL, output_format="markdown")``
(its defaults otherwise). rs-trafilatura 0.2.2 gets the page's file and URL through
``rust-peers --system rs-trafilatura --format markdown`` (``Options { output_markdown: true,
url, ..Default }``, text = ``content_markdown``; its own decoding).

The score, exactly
    1. Both Markdown texts are read line by line. A fenced code block (a line starting with
       ```` ``` ```` or ``~~~`` after optional indentation and ``>`` quote markers, to the next
       such line or the end) is kind *code*, every line inside it. Outside code blocks, after
       stripping indentation and ``>`` quote markers: a line starting with 1–6 ``#`` and a space
       is a *heading*; a line starting with ``-``, ``*`` or ``+`` and a space, or digits then
       ``.`` or ``)`` and a space, is a *list item*, and so is every indented line after it
       (its continuation lines and paragraphs, blank lines between them) up to the next line
       that is not indented; a line starting with ``|`` is a row of *table cells*. Everything else (paragraphs) is not structure.
    2. Inline markup is removed before counting words: images ``![alt](src)`` count nothing,
       links ``[text](url)`` count their text, backslash escapes are their character.
    3. The words of a line are its lower-cased ``\\w+`` runs with ``_`` taken as a separator
       (so ``_emphasis_`` and ``\\_`` do not change the words): Python's Unicode ``\\w``.
    4. A page's structure is one multiset of (kind, word) pairs: the four kinds pooled, a word
       counting only in its own kind (a heading's words do not match a list item's).
    5. Per page F1 = 2·|P ∩ G| / (|P| + |G|) over the multisets (∩ takes the smaller count);
       an extraction with no structure scores 0 on a page whose gold has some.
    6. The score is the mean F1 over the pages whose gold has structure (a non-empty G); per
       kind, the same with the multisets of that kind alone, over the pages whose gold has it.
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
import uuid
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
KINDS = ("heading", "item", "cell", "code")
WORD = re.compile(r"[^\W_]+")
FENCE = re.compile(r"^(?:\s*>)*\s*(```|~~~)")
QUOTE = re.compile(r"^(?:\s*>)+")
HEADING = re.compile(r"^#{1,6}(?:\s|$)")
ITEM = re.compile(r"^(?:[-*+]|\d{1,9}[.)])(?:\s|$)")
IMAGE = re.compile(r"!\[([^\]]*)\]\([^)]*\)")
LINK = re.compile(r"\[([^\]]*)\]\([^)]*\)")
ESCAPE = re.compile(r"\\(.)")


def words(line: str) -> list[str]:
    line = IMAGE.sub(" ", line)
    line = LINK.sub(r"\1", line)
    line = ESCAPE.sub(r"\1", line)
    return WORD.findall(line.lower())


def classify(md: str | None):
    """Yields ``(kind, line, continued)`` per line of a Markdown text, as step 1 of the module
    docs reads it: ``kind`` is ``heading``, ``item``, ``cell``, ``code`` or ``None`` (prose);
    ``continued`` marks an item's indented continuation line. Every line inside a code fence
    is yielded (blank ones too); fence lines and other blank lines are not."""
    fence = None
    in_item = False
    for raw in (md or "").splitlines():
        m = FENCE.match(raw)
        if fence is not None:
            if m and m.group(1) == fence:
                fence = None
            else:
                yield "code", raw, False
            continue
        if m:
            fence = m.group(1)
            in_item = False
            continue
        indented = raw[:1] in (" ", "\t")
        line = QUOTE.sub("", raw).strip()
        if not line:
            continue
        if HEADING.match(line):
            kind, in_item = "heading", False
        elif ITEM.match(line):
            kind, in_item = "item", True
        elif line.startswith("|"):
            kind, in_item = "cell", False
        elif in_item and indented:
            yield "item", line, True
            continue
        else:
            kind, in_item = None, False
        yield kind, line, False


def structure(md: str | None) -> Counter:
    """The (kind, word) multiset of a Markdown text (steps 1–4 of the module docs)."""
    out: Counter = Counter()
    for kind, line, _ in classify(md):
        if kind is not None:
            out.update((kind, w) for w in words(line))
    return out


def f1(p: Counter, g: Counter) -> float:
    tp, tg = sum(p.values()), sum(g.values())
    if tp + tg == 0:
        return 1.0
    return 2 * sum((p & g).values()) / (tp + tg)


def of_kind(c: Counter, kind: str) -> Counter:
    return Counter({k: v for k, v in c.items() if k[0] == kind})


def load_pages(data: Path) -> list[dict]:
    pages = []
    for line in (data / "wcxb-dev" / "manifest.jsonl").read_text().splitlines():
        if not line.strip():
            continue
        e = json.loads(line)
        if not e.get("gold_markdown"):
            continue
        raw = (data / e["html"]).read_bytes()
        html = gzip.decompress(raw) if raw[:2] == b"\x1f\x8b" else raw
        gold = (data / e["gold_markdown"]).read_text(encoding="utf-8")
        pages.append({"id": e["id"], "url": e.get("url"), "html": html, "gold": gold,
                      "file": str((data / e["html"]).resolve())})
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


def run_pagelevel(binary: Path, pages: list[dict], jobs: int,
                  extra: list[str]) -> tuple[list[str], float]:
    """pagelevel's Markdown per page (in order) and the wall time of the run."""
    ids = [str(uuid.uuid5(uuid.NAMESPACE_URL, f"page:{i}")) for i in range(len(pages))]
    with tempfile.TemporaryDirectory() as tmp:
        warc = Path(tmp) / "pages.warc.gz"
        with open(warc, "wb") as f:
            for p, rid in zip(pages, ids):
                f.write(warc_record(p["url"], rid, p["html"]))
        t0 = time.perf_counter()
        out = subprocess.run([str(binary), "-j", str(jobs), "extract", "--format", "markdown",
                              *extra, str(warc)], capture_output=True, text=True)
        wall = time.perf_counter() - t0
    wanted = set(ids)
    sep = re.compile(r"^==> .* <urn:uuid:([0-9a-f-]{36})> <==$")
    by_id: dict[str, list[str]] = {}
    cur = None
    for line in out.stdout.split("\n"):
        m = sep.match(line)
        if m and m.group(1) in wanted:
            cur = by_id.setdefault(m.group(1), [])
            continue
        if cur is not None:
            cur.append(line)
    if len(by_id) < len(pages):
        print(f"pagelevel answered {len(by_id)} of {len(pages)} pages: {out.stderr[-500:]}",
              file=sys.stderr)
    return ["\n".join(by_id.get(rid, [])) for rid in ids], wall


def trafilatura_one(args: tuple[bytes, str | None]) -> str:
    import trafilatura
    html, url = args
    try:
        return trafilatura.extract(html, url=url, output_format="markdown") or ""
    except Exception:  # a page trafilatura cannot read scores 0
        return ""


def run_trafilatura(pages: list[dict], jobs: int) -> tuple[list[str], float]:
    t0 = time.perf_counter()
    with ProcessPoolExecutor(max_workers=jobs) as ex:
        got = list(ex.map(trafilatura_one, [(p["html"], p["url"]) for p in pages], chunksize=8))
    return got, time.perf_counter() - t0


def run_rs_trafilatura(binary: Path, pages: list[dict], jobs: int) -> tuple[list[str], float]:
    """rs-trafilatura's Markdown per page (in order) through bench/rust-peers, and the wall time
    of the run. The pages go in a manifest of absolute paths (rust-peers joins them as given)."""
    with tempfile.TemporaryDirectory() as tmp:
        manifest = Path(tmp) / "set" / "manifest.jsonl"
        manifest.parent.mkdir()
        manifest.write_text("".join(json.dumps({"html": p["file"], "url": p["url"]}) + "\n"
                                    for p in pages))
        t0 = time.perf_counter()
        out = subprocess.run([str(binary), "--system", "rs-trafilatura", "--format", "markdown",
                              "-j", str(jobs), "--manifest", str(manifest)],
                             capture_output=True, text=True)
        wall = time.perf_counter() - t0
    by_path = {}
    for line in out.stdout.split("\n"):
        if line.strip():
            r = json.loads(line)
            by_path[r["path"]] = r.get("text") or ""
    if len(by_path) < len(pages):
        print(f"rust-peers answered {len(by_path)} of {len(pages)} pages: {out.stderr[-500:]}",
              file=sys.stderr)
    return [by_path.get(p["file"], "") for p in pages], wall


def score(golds: list[Counter], preds: list[Counter]) -> dict:
    out = {}
    for kind in ("all", *KINDS):
        vals = []
        for g, p in zip(golds, preds):
            if kind != "all":
                g, p = of_kind(g, kind), of_kind(p, kind)
            if g:
                vals.append(f1(p, g))
        out[kind] = (sum(vals) / len(vals) if vals else float("nan"), len(vals))
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", type=Path, default=REPO.parent / "shared" / "data")
    ap.add_argument("--bin", type=Path, default=Path(os.environ.get(
        "PAGELEVEL_BIN", REPO / "target" / "release" / "pagelevel")))
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--no-trafilatura", action="store_true", help="leave trafilatura out")
    ap.add_argument("--no-rs-trafilatura", action="store_true", help="leave rs-trafilatura out")
    ap.add_argument("--rust-peers-bin", type=Path, default=Path(os.environ.get(
        "RUST_PEERS_BIN", REPO / "bench" / "rust-peers" / "target" / "release" / "rust-peers")))
    ap.add_argument("--extract-args", default="", help="more pagelevel extract flags")
    ap.add_argument("--pages-out", type=Path, help="per-page F1 as JSON Lines")
    ap.add_argument("--md-out", type=Path, help="write each system's Markdown to DIR/SYSTEM/ID.md")
    ap.add_argument("--bounds", action="store_true",
                    help="also score each system with every kind its page's gold lacks dropped")
    a = ap.parse_args()
    pages = load_pages(a.data)
    golds = [structure(p["gold"]) for p in pages]
    pl, pl_wall = run_pagelevel(a.bin, pages, a.jobs, a.extract_args.split())
    peers = [("pagelevel", pl, pl_wall)]
    if not a.no_trafilatura:
        tr, tr_wall = run_trafilatura(pages, a.jobs)
        peers.append(("trafilatura 2.3.1", tr, tr_wall))
    if not a.no_rs_trafilatura:
        rs, rs_wall = run_rs_trafilatura(a.rust_peers_bin, pages, a.jobs)
        peers.append(("rs-trafilatura 0.2.2", rs, rs_wall))
    rows = []
    per_page = {}
    for label, mds, wall in peers:
        preds = [structure(md) for md in mds]
        rows.append((label, score(golds, preds), wall))
        per_page[label] = [f1(p, g) if g else None for p, g in zip(preds, golds)]
        if a.md_out:
            d = a.md_out / label.split()[0]
            d.mkdir(parents=True, exist_ok=True)
            for p, md in zip(pages, mds):
                (d / f"{p['id']}.md").write_text(md, encoding="utf-8")
    if a.pages_out:
        with open(a.pages_out, "w") as f:
            for k, p in enumerate(pages):
                f.write(json.dumps({"id": p["id"], **{l.split()[0]: v[k] for l, v in
                                                      per_page.items()}}) + "\n")
    n = rows[0][1]["all"][1]
    print(f"wcxb-dev, {len(pages)} pages with gold_markdown, {n} with structure")
    print("| system | structure F1 | " + " | ".join(f"{k} (n)" for k in KINDS) + " | wall |")
    print("|---|---|" + "---|" * len(KINDS) + "---|")
    for label, s, wall in rows:
        cells = " | ".join(f"{s[k][0]:.3f} ({s[k][1]})" for k in KINDS)
        print(f"| {label} | {s['all'][0]:.3f} | {cells} | {wall:.1f} s |")
    if a.bounds:
        print("\nWith every kind the page's gold has none of dropped from the system's structure "
              "(an oracle of the annotators' choice, per page, to write a kind at all):")
        for label, mds, _ in peers:
            vals = [f1(dropped_kinds(structure(md), g), g) for md, g in zip(mds, golds) if g]
            print(f"- {label}: {sum(vals) / len(vals):.3f}")
    return 0


def dropped_kinds(pred: Counter, gold: Counter) -> Counter:
    """``pred`` without the kinds ``gold`` has none of (the bound of ``--bounds``)."""
    kinds = {k for k, _ in gold}
    return Counter({kw: c for kw, c in pred.items() if kw[0] in kinds})


if __name__ == "__main__":
    sys.exit(main())
