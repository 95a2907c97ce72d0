"""A small pure-Python WARC 1.0/1.1 reader and writer for the Spark examples.

The wheel does not expose a WARC reader yet, so the jobs read WARC files here: plain or
gzip-compressed (one gzip member per record, or the whole file in one member), records in
order. ``warcio`` (pip) does the same and more; this file keeps the examples free of extra
dependencies. Reading is streaming: one record in memory at a time.
"""

from __future__ import annotations

import gzip
import io
import uuid
from dataclasses import dataclass
from typing import BinaryIO, Iterator


@dataclass
class Record:
    """One WARC record: its headers (names as written) and its block (payload) bytes."""

    headers: dict[str, str]
    block: bytes

    @property
    def type(self) -> str:
        return self.header("WARC-Type") or ""

    @property
    def url(self) -> str | None:
        return self.header("WARC-Target-URI")

    def header(self, name: str) -> str | None:
        lower = name.lower()
        for k, v in self.headers.items():
            if k.lower() == lower:
                return v
        return None

    def http_body(self) -> tuple[dict[str, str], bytes]:
        """Splits a `response` record's block into HTTP headers and body (chunked bodies are
        not de-chunked: crawlers store them de-chunked)."""
        head, sep, body = self.block.partition(b"\r\n\r\n")
        if not sep:
            head, sep, body = self.block.partition(b"\n\n")
        if not sep:
            return {}, self.block
        headers: dict[str, str] = {}
        for line in head.decode("latin-1").splitlines()[1:]:
            name, colon, value = line.partition(":")
            if colon:
                headers[name.strip().lower()] = value.strip()
        return headers, body


def _open(path: str) -> BinaryIO:
    f = open(path, "rb")
    magic = f.read(2)
    f.seek(0)
    if magic == b"\x1f\x8b":
        # GzipFile reads concatenated members, so per-record gzip works too.
        return gzip.GzipFile(fileobj=f)  # type: ignore[return-value]
    return f


def read_records(path: str) -> Iterator[Record]:
    """The records of the WARC file at ``path``, in order. A truncated last record ends the
    iteration with ValueError naming the file and byte offset."""
    with _open(path) as f:
        stream = io.BufferedReader(f) if not isinstance(f, io.BufferedReader) else f
        while True:
            line = stream.readline()
            if not line:
                return
            if not line.strip():
                continue
            if not line.startswith(b"WARC/"):
                raise ValueError(f"{path}: expected a WARC/ version line, got {line[:40]!r}")
            headers: dict[str, str] = {}
            while True:
                h = stream.readline()
                if not h:
                    raise ValueError(f"{path}: truncated record headers")
                if h in (b"\r\n", b"\n"):
                    break
                name, _, value = h.decode("utf-8", "replace").partition(":")
                headers[name.strip()] = value.strip()
            length = int(next((v for k, v in headers.items() if k.lower() == "content-length"), "0"))
            block = stream.read(length)
            if len(block) != length:
                raise ValueError(f"{path}: truncated record block ({len(block)} of {length} bytes)")
            yield Record(headers, block)


def write_response(out: BinaryIO, url: str, html: bytes, content_type: str = "text/html") -> None:
    """Appends one gzip-compressed `response` record (HTTP 200 with ``html``) to ``out``."""
    http = (
        b"HTTP/1.1 200 OK\r\nContent-Type: " + content_type.encode() + b"\r\n"
        b"Content-Length: " + str(len(html)).encode() + b"\r\n\r\n" + html
    )
    head = (
        "WARC/1.1\r\n"
        "WARC-Type: response\r\n"
        f"WARC-Record-ID: <urn:uuid:{uuid.uuid5(uuid.NAMESPACE_URL, url)}>\r\n"
        f"WARC-Target-URI: {url}\r\n"
        "WARC-Date: 2026-01-01T00:00:00Z\r\n"
        "Content-Type: application/http; msgtype=response\r\n"
        f"Content-Length: {len(http)}\r\n\r\n"
    ).encode()
    out.write(gzip.compress(head + http + b"\r\n\r\n", mtime=0))


def html_records(path: str) -> Iterator[tuple[str | None, str | None, bytes]]:
    """(url, record id, HTML body) of every HTML `response` record of the file."""
    for rec in read_records(path):
        if rec.type != "response":
            continue
        headers, body = rec.http_body()
        if "html" not in headers.get("content-type", "text/html").lower():
            continue
        yield rec.url, rec.header("WARC-Record-ID"), body
