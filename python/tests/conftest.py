"""Shared fixtures: the repository's example pages and the `pagelevel` CLI to compare with."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from site_pages import site_pages  # noqa: F401 (the tests import it from here)

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
def cli_path() -> str:
    """The path of the `pagelevel` CLI (skips when there is none)."""
    exe = _find_cli()
    if exe is None:
        pytest.skip("no pagelevel binary (build it with `cargo build` or set PAGELEVEL_BIN)")
    return exe


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
