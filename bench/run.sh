#!/usr/bin/env bash
# Quality/speed benchmark of pagelevel against its peers.
# Makes bench/.venv (once), installs bench/requirements.txt into it, runs bench/quality.py.
# Usage: bash bench/run.sh [quality.py args]   (bash bench/run.sh --help for the options)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
venv="$here/.venv"
py="${PYTHON:-python3}"
if [ ! -x "$venv/bin/python" ]; then
    "$py" -m venv "$venv"
fi
stamp="$venv/.requirements.sha"
want="$(sha256sum "$here/requirements.txt" | cut -d' ' -f1)"
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
    # pip 23.x trips over lxml[html_clean] extras pulled in twice; a current pip does not
    "$venv/bin/python" -m pip install -q --upgrade pip >&2
    "$venv/bin/python" -m pip install -q -r "$here/requirements.txt" >&2
    echo "$want" > "$stamp"
fi
cd "$here/.."
exec "$venv/bin/python" "$here/quality.py" "$@"
