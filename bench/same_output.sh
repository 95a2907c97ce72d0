#!/usr/bin/env bash
# Output identity: runs two pagelevel binaries over every page of every shared set and says,
# per set and command, whether their outputs are byte-identical (a restructuring must keep them).
#
# Usage: bash bench/same_output.sh BASE_BIN NEW_BIN [OUT_DIR]
#   e.g. git stash; cargo build --release; cp target/release/pagelevel /tmp/pl-base; git stash pop
#        cargo build --release; bash bench/same_output.sh /tmp/pl-base target/release/pagelevel
# Commands compared: extract in its four formats, segment, and sitelevel --extract on the sites
# set. Exit status 1 when any output differs; the differing files are kept in OUT_DIR.
set -euo pipefail
base=$1
new=$2
out=${3:-/tmp/pagelevel-same-output}
data="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/../shared/data"
[ -d "$data" ] || { echo "no shared data at $data" >&2; exit 2; }
rm -rf "$out"
mkdir -p "$out/base" "$out/new"
status=0
compare() { # NAME, then the arguments after the binary
    local name=$1
    shift
    "$base" "$@" >"$out/base/$name" 2>"$out/base/$name.err" || true
    "$new" "$@" >"$out/new/$name" 2>"$out/new/$name.err" || true
    if cmp -s "$out/base/$name" "$out/new/$name"; then
        printf '%-40s identical (%s lines)\n' "$name" "$(wc -l <"$out/new/$name")"
        rm -f "$out/base/$name" "$out/new/$name"
    else
        printf '%-40s DIFFERS\n' "$name"
        status=1
    fi
}
for m in "$data"/*/manifest.jsonl; do
    set=$(basename "$(dirname "$m")")
    mapfile -t pages < <(python3 -c '
import json, sys
root = sys.argv[2]
for line in open(sys.argv[1]):
    print(root + "/" + json.loads(line)["html"])' "$m" "$data")
    [ ${#pages[@]} -gt 0 ] || continue
    for f in jsonl text markdown html; do
        compare "$set.extract.$f" -j 2 extract --timeout-ms 0 --format "$f" "${pages[@]}"
    done
    compare "$set.segment" -j 2 segment --timeout-ms 0 "${pages[@]}"
done
compare "sites.sitelevel-extract" -j 2 sitelevel --manifest "$data/sites/manifest.jsonl" --extract
exit $status
