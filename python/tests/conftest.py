"""Shared fixtures: the repository's example pages and the `pagelevel` CLI to compare with."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted((ROOT / "data" / "examples").glob("*.html"))


def _find_cli() -> str | None:
    env = os.environ.get("PAGELEVEL_BIN")
    if env:
        return env
    # The newest build: an old binary of the other profile may predate the source.
    built = [ROOT / "target" / p / "pagelevel" for p in ("release", "debug")]
    built = [p for p in built if p.is_file()]
    if built:
        return str(max(built, key=lambda p: p.stat().st_mtime))
    return shutil.which("pagelevel")


@pytest.fixture(scope="session")
def cli():
    """Runs the CLI with some arguments and returns its JSON lines as objects."""
    exe = _find_cli()
    if exe is None:
        pytest.skip("no pagelevel binary (build it with `cargo build` or set PAGELEVEL_BIN)")

    def run(*args: str) -> list[dict]:
        out = subprocess.run([exe, *args], check=True, capture_output=True, text=True).stdout
        return [json.loads(line) for line in out.splitlines() if line.strip()]

    return run


def site_pages(n: int) -> list[tuple[str, str]]:
    """n pages of one made-up site: the same header, menu and footer around a different article."""
    pages = []
    for k in range(n):
        # Letters, not digits: SiteLevel hashes every digit run as one `0`.
        tag = "".join(chr(ord("a") + int(d)) for d in str(k))
        words = " ".join(f"word{tag}q{chr(ord('a') + j % 26)}" for j in range(60))
        html = f"""<!doctype html><html><head><title>Story {tag}</title></head><body>
<header><h1>The Daily Example</h1><nav><ul><li><a href="/">Home</a></li>
<li><a href="/world">World</a></li><li><a href="/sport">Sport</a></li></ul></nav></header>
<main><article><h2>Story number {tag}</h2><p>{words}.</p><p>Second paragraph of story {tag}.</p></article></main>
<footer><p>Copyright The Daily Example. All rights reserved.</p></footer></body></html>"""
        pages.append((f"https://news.example.com/story/{k}", html))
    return pages
