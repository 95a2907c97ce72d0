"""Calls per second of pagelevel.extract vs trafilatura.extract vs Resiliparse's
extract_plain_text, in one Python process, on the pages of a manifest (wcxb-dev by default).

    python bench/python_speed.py [--manifest ../shared/data/wcxb-dev/manifest.jsonl] [--limit N]

Every extractor gets the raw bytes and decodes them itself, as bench/quality.py runs them:
``pagelevel.extract(raw)``, ``trafilatura.extract(raw)`` (library defaults),
``extract_plain_text(bytes_to_str(raw, detect_encoding(raw)), main_content=True)``. Pages
are read and gunzipped before timing; one untimed call per extractor comes first (trafilatura
imports parts lazily), then each runs over all pages once. A last row runs pagelevel.extract from 2 Python threads (the GIL is released while Rust
works). Peers are optional: a missing one is reported and left out.
"""

from __future__ import annotations

import argparse
import gzip
import json
import statistics
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Callable


def load(manifest: Path, limit: int | None) -> list[bytes]:
    root = manifest.parent.parent
    pages = []
    for line in manifest.read_text().splitlines():
        if not line.strip():
            continue
        entry = json.loads(line)
        raw = (root / entry["html"]).read_bytes()
        pages.append(gzip.decompress(raw) if raw[:2] == b"\x1f\x8b" else raw)
        if limit and len(pages) >= limit:
            break
    return pages


def extractors() -> dict[str, Callable[[bytes], str]]:
    out: dict[str, Callable[[bytes], str]] = {}
    import pagelevel

    out["pagelevel.extract"] = lambda raw: pagelevel.extract(raw)
    try:
        import trafilatura

        out["trafilatura.extract"] = lambda raw: trafilatura.extract(raw) or ""
    except ImportError as e:
        print(f"skipping trafilatura: {e}", file=sys.stderr)
    try:
        from resiliparse.extract.html2text import extract_plain_text
        from resiliparse.parse.encoding import bytes_to_str, detect_encoding

        out["resiliparse extract_plain_text"] = lambda raw: extract_plain_text(
            bytes_to_str(raw, detect_encoding(raw)), main_content=True
        ) or ""
    except ImportError as e:
        print(f"skipping resiliparse: {e}", file=sys.stderr)
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--manifest", type=Path, default=Path("../shared/data/wcxb-dev/manifest.jsonl"))
    ap.add_argument("--limit", type=int, default=None, help="only the first N pages")
    args = ap.parse_args()
    if not args.manifest.is_file():
        print(f"no manifest at {args.manifest}", file=sys.stderr)
        return 2
    pages = load(args.manifest, args.limit)
    mb = sum(map(len, pages)) / 1e6
    print(f"{len(pages)} pages, {mb:.1f} MB of HTML, one Python {sys.version.split()[0]} process\n")
    print("| extractor | pages | total s | calls/s | median ms/page | MB/s |")
    print("|---|---:|---:|---:|---:|---:|")
    rows = list(extractors().items())
    import pagelevel

    rows.append(("pagelevel.extract, 2 threads", pagelevel.extract))
    for name, f in rows:
        f(pages[0])
        times = []
        start = time.perf_counter()
        if "2 threads" in name:
            with ThreadPoolExecutor(2) as pool:
                list(pool.map(f, pages))
        else:
            for raw in pages:
                t = time.perf_counter()
                f(raw)
                times.append(time.perf_counter() - t)
        total = time.perf_counter() - start
        median = f"{statistics.median(times) * 1e3:.1f}" if times else "–"
        print(f"| {name} | {len(pages)} | {total:.1f} | {len(pages) / total:.1f} | {median} | {mb / total:.2f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
