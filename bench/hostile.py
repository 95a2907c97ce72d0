#!/usr/bin/env python3
"""Every hostile-input case of docs/robustness.md through the CLI, as a user runs it.

Generates each input in a scratch folder, runs the command under `/usr/bin/time` and prints a
Markdown table: input | command | result | time | peak RSS. The result is the exit status and
what the command reported (the error, or the size of the output).

    python3 bench/hostile.py [--bin target/release/pagelevel] [--dir /tmp/hostile] [--no-batch]
                             [--python VENV/bin/python]

Needs /usr/bin/time (GNU), and for two WARC rows the `brotli` and `zstd` programs (the rows
are skipped without them). `--no-batch` skips the -j 2 batch of 64 pages of 20 MB (1.3 GB of
scratch files). Not run by CI: timings need a quiet machine.
"""

import argparse
import gzip
import io
import json
import os
import random
import shutil
import subprocess
import sys
import zlib

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def write(path, data):
    with open(path, "wb") as f:
        f.write(data)
    return path


def article(title, word, n=40):
    body = "".join(
        f"<p>{word} paragraph {i} tells a long story about {word} and other things.</p>"
        for i in range(n)
    )
    return (
        f"<!doctype html><html><head><title>{title}</title></head><body>"
        f"<nav><a href='/'>Home</a> <a href='/a'>About</a></nav>"
        f"<article><h1>{title}</h1>{body}</article></body></html>"
    )


def warc_record(uri, rid, block, length=None, headers=""):
    """A WARC response record; `length` may lie about the block's size."""
    head = (
        "WARC/1.0\r\nWARC-Type: response\r\n"
        f"WARC-Record-ID: <urn:uuid:{rid}>\r\nWARC-Target-URI: {uri}\r\n"
        "Content-Type: application/http; msgtype=response\r\n"
        f"Content-Length: {len(block) if length is None else length}\r\n{headers}\r\n"
    ).encode()
    return head + block + b"\r\n\r\n"


def http(body, headers="Content-Type: text/html; charset=utf-8\r\n"):
    return f"HTTP/1.1 200 OK\r\n{headers}\r\n".encode() + body


def uuid(i):
    return f"00000000-0000-0000-0000-{i:012d}"


def gzip_stream(path, total, chunk=b"a" * (1 << 20)):
    """A .gz of `total` bytes of `chunk` repeated, written in one streaming pass."""
    c = zlib.compressobj(9, zlib.DEFLATED, 31)
    with open(path, "wb") as f:
        left = total
        while left > 0:
            piece = chunk[: min(left, len(chunk))]
            f.write(c.compress(piece))
            left -= len(piece)
        f.write(c.flush())
    return path


def make_inputs(d, batch, python):
    """Writes every input; returns the cases as (input, command, shell?)."""
    j = lambda *p: os.path.join(d, *p)  # noqa: E731
    ex = os.path.join(ROOT, "data", "examples", "news-article.html")
    cases = []

    # Crashes.
    write(j("nonascii-attr.html"), b"<p a\xc3\xa9>hello</p>")
    cases.append(("`<p a\\xc3\\xa9>hello</p>`", "view nonascii-attr.html -o out.html"))
    write(j("random-10mb.bin"), random.Random(1).randbytes(10_000_000))
    cases.append(("10 MB of random bytes", "view random-10mb.bin -o out.html"))
    write(j("random-10mb-p.html"), b"<p>" + random.Random(1).randbytes(10_000_000))
    cases.append(("10 MB of random bytes after `<p>`", "view random-10mb-p.html -o out.html"))
    os.makedirs(j("site-href", "s.example"), exist_ok=True)
    for i in range(6):
        page = article(f"Page {i}", f"w{i}").replace(
            "href='/a'", f"href='/a?abc\u00e9={i}&utm_source=x'"
        )
        write(j("site-href", "s.example", f"p{i}.html"), page.encode())
    cases.append(("6 pages linking `?abcé=1`", "sitelevel --hash-href --site-dir site-href"))
    gzip_stream(j("bomb.warc.gz"), 3 << 30)
    cases.append(
        ("`.warc.gz` member inflating to 3 GiB without a newline (3 MB)", "extract bomb.warc.gz")
    )
    with open(j("sparse-8g.warc"), "wb") as f:
        f.truncate(8 << 30)
        f.seek(8 << 30)
        f.write(warc_record("http://after.example/", uuid(1), http(article("After", "after").encode())))
    cases.append(("8 GiB sparse `.warc`, then one record", "extract sparse-8g.warc"))

    # Hangs and time limits.
    attrs = lambda n: ("<p " + " ".join(f"a{i}=1" for i in range(n)) + ">x</p>").encode()  # noqa: E731
    write(j("attrs-200k.html"), attrs(200_000))
    cases.append(("one tag, 200,000 attributes (2 MB)", "extract --timeout-ms 1000 attrs-200k.html"))
    write(j("attrs-10m.html"), attrs(10_000_000))
    cases.append(("one tag, 10,000,000 attributes (119 MB)", "extract --timeout-ms 1000 attrs-10m.html"))
    cases.append(
        (
            "the same, size limit raised",
            "extract --timeout-ms 1000 --max-input-bytes 200000000 attrs-10m.html",
        )
    )
    deep = ("<div>" * 1_000_000 + "deep").encode()
    write(j("deep-1m.html"), deep)
    cases.append(("1,000,000-deep `<div>` (5 MB)", "extract deep-1m.html"))
    cases.append(("the same", "features deep-1m.html"))
    cases.append(("the same", "dedup deep-1m.html " + ex))
    os.makedirs(j("site-deep", "d.example"), exist_ok=True)
    for i in range(5):
        # Letters, not digits: SiteLevel reads digit runs as one, and these pages must differ.
        name = "abcde"[i]
        write(j("site-deep", "d.example", f"p{i}.html"), article(f"Page {name}", f"word{name}").encode())
    shutil.copy(j("deep-1m.html"), j("site-deep", "d.example", "p5.html"))
    cases.append(("the same, with 5 pages of its site", "sitelevel --site-dir site-deep"))
    if python:
        call = 'import pagelevel; pagelevel.extract(open("deep-1m.html", "rb").read())'
        cases.append(("the same", f"sh:{python} -c {sh_quote(call)}"))
        cases.append(("the same, Ctrl-C after 1 s", f"sh:timeout -s INT 1 {python} -c {sh_quote(call)}"))
    span = ("<span>" * 1_000_000 + "deep").encode()
    write(j("deep-1m-span.html"), span)
    cases.append(("1,000,000-deep `<span>` (6 MB)", "features deep-1m-span.html"))
    cases.append((f"a FIFO (`<(cat news-article.html)`)", f"extract <(cat {ex})"))

    # Memory.
    html = "<html><body><p>" + "".join(f"<b id=b{i}>" for i in range(1000)) + "</p>"
    html += "<p>x</p>" * 290_000
    write(j("misnested.html"), html.encode())
    cases.append(("misnested formatting (1,000 `<b>`s, 290,000 `<p>`s; 2.3 MB)", "extract misnested.html"))
    write(j("lists-12k.html"), "".join(f"<ul><li>item {i} " for i in range(12_000)).encode())
    # The basic variant keeps every item, so the whole list goes through the Markdown writer.
    cases.append(
        ("12,000 nested `<ul><li>` (0.2 MB)", "extract --variant basic --format markdown lists-12k.html")
    )
    gzip_stream(j("bomb.html.gz"), 1 << 30, b"<p>bomb</p>" * 95_000)
    cases.append(("`.html.gz` inflating to 1 GiB (1 MB)", "extract bomb.html.gz"))

    # The view.
    hostile = sorted(
        f for f in os.listdir(os.path.join(ROOT, "fuzz", "corpus", "view")) if f.startswith("hostile-")
    )
    os.makedirs(j("views"), exist_ok=True)
    cmd = " && ".join(
        f"$PL view {os.path.join(ROOT, 'fuzz', 'corpus', 'view', f)} -o views/{f}" for f in hostile
    )
    cases.append((f"the {len(hostile)} pages of the hostile corpus", "sh:" + cmd))

    # Nothing lost silently.
    a, b, c, e = (http(article(t, t.lower()).encode()) for t in ("Alpha", "Bravo", "Charlie", "Echo"))
    cut = warc_record("http://b.example/", uuid(2), b)[:60]
    junk = random.Random(2).randbytes(5000).replace(b"WARC/", b"xxxx/")
    huge = warc_record("http://huge.example/", uuid(3), http(b"<p>huge</p>"), length=4 << 30)
    write(
        j("broken.warc"),
        warc_record("http://a.example/", uuid(1), a)
        + cut
        + warc_record("http://c.example/", uuid(4), c)
        + junk
        + warc_record("http://e.example/", uuid(5), e)
        + huge
        + warc_record("http://f.example/", uuid(6), http(article("Foxtrot", "foxtrot").encode())),
    )
    cases.append(
        ("plain `.warc`: a record cut mid-line, 5,000 random bytes, a 4 GiB claim", "extract broken.warc")
    )
    recs = [
        warc_record(
            "http://gz.example/",
            uuid(7),
            http(article("Gzip", "decoded").encode(), "Content-Type: text/html\r\nContent-Encoding: gzip\r\n"),
        ),
        warc_record(
            "http://many.example/",
            uuid(8),
            http(
                article("Headers", "headers").encode(),
                "Content-Type: text/html\r\n" + "".join(f"Set-Cookie: c{i}=1\r\n" for i in range(300)),
            ),
        ),
    ]
    for tool, enc in (("brotli", "br"), ("zstd", "zstd")):
        if shutil.which(tool):
            body = subprocess.run(
                [tool, "-c"], input=article(tool, tool).encode(), capture_output=True, check=True
            ).stdout
            recs.append(
                warc_record(
                    f"http://{tool}.example/",
                    uuid(9 if tool == "brotli" else 10),
                    http(body, f"Content-Type: text/html\r\nContent-Encoding: {enc}\r\n"),
                )
            )
    write(j("encodings.warc"), b"".join(recs))
    cases.append(
        (
            "WARC: `Content-Encoding: gzip` on a decoded body, 300 headers, br, zstd",
            "extract encodings.warc",
        )
    )
    write(
        j("utf8-invalid.html"),
        "<meta charset=utf-8><p>Grüße aus Köln, schöne Grüße.</p>".encode() + b"<p>\xff\xfe bad</p>",
    )
    cases.append(("declared UTF-8, two invalid bytes", "extract utf8-invalid.html"))
    cases.append(("10 MB of random bytes", "extract random-10mb.bin"))
    write(j("doc.pdf"), b"%PDF-1.7\n" + random.Random(3).randbytes(2000))
    cases.append(("a PDF", "extract doc.pdf"))
    sites = [
        "https://192.168.0.1/x",
        "http://a.example.com\\@evil.com/",
        "http://b\u00fccher.de/a",
        "http://xn--bcher-kva.de/b",
    ]
    write(
        j("hosts.warc"),
        b"".join(
            warc_record(u, uuid(20 + i), http(article(f"H{i}", f"h{i}").encode()))
            for i, u in enumerate(sites)
        ),
    )
    cases.append(("WARC: an IP host, `\\@`, `bücher.de` and `xn--bcher-kva.de`", "sitelevel --warc hosts.warc"))
    os.makedirs(j("a-dir"), exist_ok=True)
    cases.append(("a directory", "extract a-dir"))

    if batch:
        os.makedirs(j("batch"), exist_ok=True)
        words = " ".join(f"word{i % 977}" for i in range(1000))
        para = f"<p>{words}</p>\n"
        page = ("<html><body>" + para * (20_000_000 // len(para) + 1))[:20_000_000].encode()
        for i in range(64):
            p = j("batch", f"p{i:02}.html")
            if i == 0:
                write(p, page)
            else:
                os.link(j("batch", "p00.html"), p)
        cases.append(("64 pages of 20 MB of text", "extract -j 2 batch/*.html"))
    return cases


def summarise(rc, out, err):
    """The exit status and one line of what the command said."""
    lines = [l for l in out.splitlines() if l.strip()]
    errors, records, ok, texts = [], 0, 0, []
    for l in lines:
        try:
            o = json.loads(l)
        except ValueError:
            continue
        records += 1
        if "error" in o:
            errors.append(o["error"])
        else:
            ok += 1
            if isinstance(o.get("text"), str):
                texts.append(" ".join(o["text"].split()[:4]))
    e = [l for l in err.splitlines() if l.strip() and not l.startswith("\t")]
    parts = [f"exit {rc}"]
    views = sum(" -> " in x for x in e)
    if records:
        parts.append(f"{records} lines ({ok} ok)")
        if texts and len(texts) <= 4:
            parts.append("text: " + " / ".join(f"“{t}”" for t in texts))
    elif views > 1:
        parts.append(f"{views} views written")
        e = [x for x in e if " -> " not in x]
    elif out:
        parts.append(f"{len(out.encode())} bytes out")
    seen = []
    for m in errors + [x for x in e if "error" in x.lower() or "pagelevel:" in x or "skip" in x.lower()]:
        m = m.replace("pagelevel: ", "")
        if m not in seen:
            seen.append(m)
    if seen:
        shown = "; ".join(x[:150] for x in seen[:3])
        parts.append(shown + (f" (+{len(seen) - 3} more)" if len(seen) > 3 else ""))
    elif e:
        parts.append(e[-1][:150])
    return ", ".join(parts).replace("|", "\\|")


def run(bin_, d, cmd):
    sh = cmd[3:] if cmd.startswith("sh:") else f'"$PL" {cmd}'
    timing = os.path.join(d, "time.txt")
    full = f"/usr/bin/time -f '%e %M' -o {timing} bash -c {sh_quote(sh)}"
    p = subprocess.run(
        full, shell=True, cwd=d, capture_output=True, env={**os.environ, "PL": bin_}, executable="/bin/bash"
    )
    t = open(timing).read().split()
    secs, kib = float(t[-2]), int(t[-1])
    return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace"), secs, kib


def sh_quote(s):
    return "'" + s.replace("'", "'\\''") + "'"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bin", default=os.path.join(ROOT, "target", "release", "pagelevel"))
    ap.add_argument("--dir", default="/tmp/pagelevel-hostile")
    ap.add_argument("--no-batch", action="store_true")
    ap.add_argument("--python", help="a Python with pagelevel installed, for the Python rows")
    args = ap.parse_args()
    bin_ = os.path.abspath(args.bin)
    shutil.rmtree(args.dir, ignore_errors=True)
    os.makedirs(args.dir)
    cases = make_inputs(args.dir, not args.no_batch, args.python)
    print("| input | command | result | time | peak RSS |")
    print("|---|---|---|---:|---:|")
    for what, cmd in cases:
        rc, out, err, secs, kib = run(bin_, args.dir, cmd)
        if cmd.startswith("sh:$PL view"):
            shown = "`pagelevel view` each page `-o views/…`"
        elif cmd.startswith("sh:"):
            shown = "`" + cmd[3:].replace(args.python or "", "python") + "`"
        else:
            shown = f"`pagelevel {cmd}`"
        shown = shown.replace(ROOT + "/", "")
        shown = shown.replace("|", "\\|")
        print(
            f"| {what} | {shown} | {summarise(rc, out, err)} | {secs:.2f} s | {kib / 1024:.0f} MiB |",
            flush=True,
        )
    shutil.rmtree(args.dir, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
