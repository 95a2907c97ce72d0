#!/usr/bin/env bash
# Quality/speed benchmark of pagelevel against its peers.
# Makes bench/.venv (once), installs bench/requirements.txt into it, builds bench/rust-peers
# (the Rust peers; when selected and cargo is there) and runs bench/quality.py.
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
# The Rust peers (rs-trafilatura, dom_smoothie) are a standalone Cargo project: build it when
# --systems or --speed-peers names them (the default --systems all does), unless cargo is absent
# or $RUST_PEERS_BIN already names a binary.
systems=all speed_peers=
prev=
for a in "$@"; do
    case "$prev" in --systems) systems="$a" ;; --speed-peers) speed_peers="$a" ;; esac
    case "$a" in --systems=*) systems="${a#*=}" ;; --speed-peers=*) speed_peers="${a#*=}" ;; -h|--help) systems= ;; esac
    prev="$a"
done
if [ -z "${RUST_PEERS_BIN:-}" ] && [[ ",$systems,$speed_peers," =~ ,(all|peers|rs-trafilatura|dom_smoothie), ]]; then
    manifest="$here/rust-peers/Cargo.toml"
    if command -v cargo >/dev/null 2>&1; then
        if cargo build -q --release --manifest-path "$manifest" >&2; then
            target="$(cargo metadata -q --format-version 1 --no-deps --manifest-path "$manifest" |
                "$venv/bin/python" -c 'import json,sys; print(json.load(sys.stdin)["target_directory"])')"
            export RUST_PEERS_BIN="$target/release/rust-peers"
        else
            echo "NOTE: building bench/rust-peers failed: rs-trafilatura and dom_smoothie are skipped" >&2
        fi
    else
        echo "NOTE: cargo not found: rs-trafilatura and dom_smoothie are skipped unless" \
            "\$RUST_PEERS_BIN points at a built bench/rust-peers binary" >&2
    fi
fi
exec "$venv/bin/python" "$here/quality.py" "$@"
