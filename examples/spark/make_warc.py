"""Writes the pages of a manifest (../shared/data format) into one gzipped WARC of `response`
records, to try the Spark jobs on real pages:

    python examples/spark/make_warc.py ../shared/data/wcxb-dev/manifest.jsonl /tmp/wcxb-dev.warc.gz

Records carry the manifest's URL (or ``https://<site>/<id>`` when it has none) and the page's
original bytes, ungzipped.
"""

from __future__ import annotations

import gzip
import json
import sys
from pathlib import Path

import warc_reader


def main(manifest: str, out: str, limit: int | None = None) -> int:
    root = Path(manifest).parent.parent
    n = 0
    with open(out, "wb") as f:
        for line in Path(manifest).read_text().splitlines():
            if not line.strip():
                continue
            e = json.loads(line)
            raw = (root / e["html"]).read_bytes()
            html = gzip.decompress(raw) if raw[:2] == b"\x1f\x8b" else raw
            warc_reader.write_response(f, e.get("url") or f"https://{e['site']}/{e['id']}", html)
            n += 1
            if limit and n >= limit:
                break
    print(f"{n} records written to {out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    if len(sys.argv) not in (3, 4):
        sys.exit(__doc__)
    sys.exit(main(sys.argv[1], sys.argv[2], int(sys.argv[3]) if len(sys.argv) == 4 else None))
