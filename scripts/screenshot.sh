#!/usr/bin/env bash
# Screenshot an HTML file (e.g. the output of `pagelevel view`) with headless Chromium.
#
#   scripts/screenshot.sh IN.html OUT.png [WIDTH,HEIGHT]
#
# Installs Debian's `chromium` with apt when it is missing (needs root). The window is 1280
# wide, the width pagelevel's layout estimate assumes; the default height is 2000. The
# profile is a fresh temporary directory, removed afterwards, and networking extras are off,
# so two runs on the same file give the same picture.
set -euo pipefail

if [ $# -lt 2 ] || [ $# -gt 3 ]; then
    echo "usage: $0 IN.html OUT.png [WIDTH,HEIGHT]" >&2
    exit 2
fi
in=$1
out=$2
size=${3:-1280,2000}
if [ ! -f "$in" ]; then
    echo "$0: $in: no such file" >&2
    exit 1
fi

browser=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$browser" ]; then
    echo "$0: chromium not found; installing the Debian package" >&2
    if [ "$(id -u)" -eq 0 ]; then sudo=; else sudo=sudo; fi
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq chromium >/dev/null
    browser=$(command -v chromium)
fi

abs_in=$(cd "$(dirname "$in")" && pwd)/$(basename "$in")
abs_out=$(cd "$(dirname "$out")" && pwd)/$(basename "$out")
profile=$(mktemp -d)
trap 'rm -rf "$profile"' EXIT

"$browser" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync \
    --hide-scrollbars --user-data-dir="$profile" \
    --screenshot="$abs_out" --window-size="$size" "file://$abs_in" 2>"$profile/stderr.log" || {
    cat "$profile/stderr.log" >&2
    exit 1
}
if [ ! -s "$abs_out" ]; then
    echo "$0: chromium wrote no screenshot" >&2
    cat "$profile/stderr.log" >&2
    exit 1
fi
echo "$abs_out"
