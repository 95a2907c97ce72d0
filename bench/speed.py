"""pagelevel.extract against Resiliparse's extract_plain_text, side by side in one Python
process pinned to one core, alternating systems over several rounds.

    python bench/speed.py [--manifest ../shared/data/wcxb-dev/manifest.jsonl] [--all]
                          [--rounds 5] [--cpu N] [--limit N]

By default the pages are wcxb-dev's earlier 542 (ids not in ``excluded_ids.txt`` beside the
manifest); ``--all`` takes every page. Every system gets the raw bytes and decodes them
itself: ``pagelevel.extract(raw)`` (the fast parser, the default), the same with
``parser="html5ever"``, and Resiliparse as its documentation recommends,
``extract_plain_text(bytes_to_str(raw, detect_encoding(raw)), main_content=True)``. Pages
are read and gunzipped before timing; each system makes one untimed call first. In every
round each system runs over all pages once, the order of systems reversed every other round;
a round's time is wall time on the pinned core, and beside it the process's CPU time (all its
threads: pagelevel works on a thread of its own while the caller waits, so thread time would
miss it), which other processes on the machine do not inflate. The table gives the median
round (pages/s, MB/s, ms/page by wall time, CPU ms/page) and pagelevel's ratio to Resiliparse
per round (median, min, max), by wall time and by CPU time. A second
table, with the process free to use two cores, times ``pagelevel.extract`` from one and from
two Python threads (the GIL is released while Rust works).
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import statistics
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Callable


def load(manifest: Path, every: bool, limit: int | None) -> list[bytes]:
    root = manifest.parent.parent
    excluded_file = manifest.parent / "excluded_ids.txt"
    excluded = set()
    if not every and excluded_file.is_file():
        excluded = set(excluded_file.read_text().split())
    pages = []
    for line in manifest.read_text().splitlines():
        if not line.strip():
            continue
        entry = json.loads(line)
        if entry.get("id") in excluded:
            continue
        raw = (root / entry["html"]).read_bytes()
        pages.append(gzip.decompress(raw) if raw[:2] == b"\x1f\x8b" else raw)
        if limit and len(pages) >= limit:
            break
    return pages


def systems() -> dict[str, Callable[[bytes], str]]:
    import pagelevel

    out: dict[str, Callable[[bytes], str]] = {
        "pagelevel.extract (fast parser)": lambda raw: pagelevel.extract(raw),
        "pagelevel.extract (html5ever)": lambda raw: pagelevel.extract(raw, parser="html5ever"),
    }
    try:
        from resiliparse.extract.html2text import extract_plain_text
        from resiliparse.parse.encoding import bytes_to_str, detect_encoding

        out["resiliparse extract_plain_text"] = lambda raw: extract_plain_text(
            bytes_to_str(raw, detect_encoding(raw)), main_content=True
        )
    except ImportError as e:
        print(f"skipping resiliparse: {e}", file=sys.stderr)
    return out


def one_round(f: Callable[[bytes], str], pages: list[bytes]) -> tuple[float, float]:
    """(wall seconds, process CPU seconds) of one pass over `pages`."""
    start, cpu = time.perf_counter(), time.process_time()
    for raw in pages:
        f(raw)
    return time.perf_counter() - start, time.process_time() - cpu


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--manifest", type=Path, default=Path("../shared/data/wcxb-dev/manifest.jsonl"))
    ap.add_argument("--all", action="store_true", help="every page, not only the earlier subset")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--cpu", type=int, default=None, help="the core to pin to (default: the last)")
    ap.add_argument("--limit", type=int, default=None, help="only the first N pages")
    args = ap.parse_args()
    if not args.manifest.is_file():
        print(f"no manifest at {args.manifest}", file=sys.stderr)
        return 2
    pages = load(args.manifest, args.all, args.limit)
    mb = sum(map(len, pages)) / 1e6
    cores = sorted(os.sched_getaffinity(0))
    cpu = args.cpu if args.cpu is not None else cores[-1]
    os.sched_setaffinity(0, {cpu})
    print(
        f"{len(pages)} pages, {mb:.1f} MB of HTML, one Python {sys.version.split()[0]} process "
        f"pinned to core {cpu}, {args.rounds} rounds\n"
    )
    runs = systems()
    for f in runs.values():
        f(pages[0])
    times: dict[str, list[tuple[float, float]]] = {name: [] for name in runs}
    order = list(runs)
    for r in range(args.rounds):
        for name in order if r % 2 == 0 else reversed(order):
            times[name].append(one_round(runs[name], pages))
    print("| system | pages/s | MB/s | ms/page | CPU ms/page | rounds (wall s) |")
    print("|---|---:|---:|---:|---:|---|")
    for name, ts in times.items():
        t = statistics.median(w for w, _ in ts)
        c = statistics.median(c for _, c in ts)
        rounds = " ".join(f"{w:.2f}" for w, _ in ts)
        print(
            f"| {name} | {len(pages) / t:.0f} | {mb / t:.2f} | {t / len(pages) * 1e3:.2f} "
            f"| {c / len(pages) * 1e3:.2f} | {rounds} |"
        )
    base = "resiliparse extract_plain_text"
    if base in times:
        print("\nratio of pages/s to Resiliparse, per round (median; min–max):")
        for name, ts in times.items():
            if name == base:
                continue
            for k, what in [(0, "wall"), (1, "CPU")]:
                ratios = [b[k] / t[k] for t, b in zip(ts, times[base])]
                print(
                    f"- {name}, by {what} time: {statistics.median(ratios):.2f} "
                    f"({min(ratios):.2f}–{max(ratios):.2f})"
                )

    # Threads: the process may use two cores again.
    os.sched_setaffinity(0, set(cores))
    if len(cores) < 2:
        return 0
    import pagelevel

    print(f"\npagelevel.extract from Python threads, cores {cores[:2]}:\n")
    print("| threads | pages/s | MB/s | speed-up |")
    print("|---:|---:|---:|---:|")
    one = None
    for n in (1, 2):
        ts = []
        for _ in range(max(1, args.rounds // 2)):
            start = time.perf_counter()
            with ThreadPoolExecutor(n) as pool:
                list(pool.map(pagelevel.extract, pages))
            ts.append(time.perf_counter() - start)
        t = statistics.median(ts)
        one = one or t
        print(f"| {n} | {len(pages) / t:.0f} | {mb / t:.2f} | {one / t:.2f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
