#!/usr/bin/env python3
"""Main-content extraction quality (WCXB word-F1) of pagelevel and its peers.

Run it through ``bash bench/run.sh [ARGS]``: that script makes ``bench/.venv``, installs
``bench/requirements.txt`` into it (the peers) and runs this file with ARGS.

Data
    Sets wcxb-dev, l3s-gn1, readability, cleaneval-dev, sites, chaos; manifests at
    ``DATA/<set>/manifest.jsonl`` (DATA = ``../shared/data`` next to the repo, or ``--data``);
    the ``html`` and ``gold`` paths in a manifest are relative to DATA. Only pages with gold
    are scored. Pages are gzip-compressed original bytes (legacy charsets and lying
    ``<meta charset>`` kept on purpose); gold texts are UTF-8.

Peers and their input (each gets its most natural input; ``--decode-all`` instead gives every
peer the same decoded str, to measure how much decoding matters)
    trafilatura 2.3.1   ``trafilatura.extract(raw_bytes)`` with the library defaults, as the
                        WCXB paper runs it (include_comments=True, include_tables=True,
                        favor_precision=False, favor_recall=False, no url); trafilatura
                        decodes the bytes itself.
    Readability         readability-lxml ``Document(raw_bytes).summary()`` (readability decodes
                        bytes itself: declared charset first, chardet otherwise); the
                        summary HTML's visible text is read with lxml, one line per block
                        element (script/style/noscript/template skipped), because
                        ``text_content()`` glues "a</p><p>b" into one word "ab".
    boilerpipe          boilerpy3 ``ArticleExtractor().get_content(str)``; str-only API, so the
                        bytes are decoded with Resiliparse's ``detect_encoding`` +
                        ``bytes_to_str`` (byte-order mark, then a content-based detector, then
                        the declared charset; undecodable bytes replaced). boilerpy3 keeps
                        only text inside <body>…</body>, so a page with no <body> tag (65 in
                        l3s-gn1, 21 in cleaneval-dev, 10 in sites) is first re-serialised by
                        lxml, which implies the body as Java boilerpipe's NekoHTML does
                        (``--boilerpipe-raw`` turns that off). When boilerpy3's parser raises
                        (unbalanced end tags: "pop from empty list" and the like, a bug of the
                        port), the page is run again with ``raise_on_failure=False`` and the
                        partial text is scored (status ``recovered`` in the CSV; with
                        ``--boilerpipe-raw`` such a page is an error scored 0).
    jusText             ``justext.justext(raw_bytes, stoplist)`` with the stoplist of the
                        manifest's ``lang`` (ISO 639-1 prefix → jusText's language name) when
                        jusText has one, English otherwise; jusText decodes bytes itself
                        (declared charset, else UTF-8); text = non-boilerplate paragraphs, one
                        per line.
    Resiliparse 2.0.1   ``extract_plain_text(str, main_content=True)``; the str is made with
                        ``detect_encoding`` + ``bytes_to_str`` (its own recommended path).
    rs-trafilatura 0.2.2
                        (Rust) ``rs_trafilatura::extract_bytes(raw_bytes)`` with the default
                        ``Options`` (include_comments=false, include_tables=true, neither
                        favor_precision nor favor_recall, no url), text = ``content_text``; the
                        crate decodes the bytes itself (its README's call for unknown encodings:
                        first ``<meta charset>``/http-equiv charset in the first 1024 bytes,
                        else UTF-8, lossy). Its page-type classifier was trained on WCXB's dev
                        split, so its wcxb-dev figure is marked in-sample (``IN_SAMPLE``).
    dom_smoothie 0.19.0 (Rust) ``Readability::new(str, None, Some(Config::default()))`` then
                        ``parse()``, text = the article's ``text_content`` (TextMode::Raw, i.e.
                        readability.js's textContent). str-only API and no decoder of its own,
                        so the bytes are decoded with encoding_rs: byte-order mark, else the
                        first ``<meta>`` charset in the first 1024 bytes (WHATWG prescan,
                        simplified), else UTF-8 (lossy).

    The Python peers run in worker processes (``--jobs``, default 1); a page that raises or
    takes longer than ``--timeout`` seconds scores 0 and is counted (column ``status``). The
    Rust peers run in ``bench/rust-peers`` (a standalone Cargo project that ``bench/run.sh``
    builds; ``--rust-peers-bin``), one process per set: ``rust-peers --system NAME -j JOBS
    --timeout-ms TIMEOUT --time --manifest M``, ``pagelevel extract``'s JSON lines; a panic is
    caught per page and, like an ``Err`` or a page over the timeout, scores 0 (a "nothing found"
    answer, rs-trafilatura ``NoContent`` or dom_smoothie ``GrabFailed``, is an empty text, as
    trafilatura's ``None`` is). ``--decode-all`` does not change the Rust peers' input.

pagelevel
    ``<binary> extract --manifest M [ARGS]`` when ``extract --help`` mentions ``--manifest``,
    otherwise ``<binary> extract [ARGS] FILE...`` with the absolute ``.html.gz`` paths. The binary
    prints one JSON object per page: ``{"path": <the argument as given>, "text": ...,
    "error"?: ...}``; an ``error`` (or a page missing from the output) scores 0. ARGS come from
    ``--pagelevel-args "..."`` (one run) or ``--pagelevel-run "LABEL=ARGS"`` (repeatable, e.g.
    ``--pagelevel-run "Basic=--variant basic" --pagelevel-run "Smooth=--variant smooth"``, rows
    "pagelevel (Basic)", "pagelevel (Smooth)"). A missing binary or one without ``extract`` is
    skipped with a note.

    The embedded model is trained on these sets' gold, so those rows are in-sample. The honest
    rows are out of fold: ``--pagelevel-oof "Smooth=oof.jsonl"`` reads the per-page P/R/F1
    that ``pagelevel train --cv --dry-run --pages oof.jsonl`` wrote (each page extracted by a
    model that never saw its site). pagelevel's metric is this one: on every gold page of the
    six sets, this script's score of ``extract``'s text equals ``eval``'s own to 1e-9 (extract
    given the manifest's URL, as eval and train are). The peers get no URL; without it,
    pagelevel's in-sample set means move by at most 0.0011.

Metric (WCXB word-F1)
    tokens = ``re.findall(r"\\w+", text.lower())``; bag-of-words overlap (Counter ∩);
    P = overlap/|pred|, R = overlap/|gold|, F1 = 2PR/(P+R); both empty → P=R=F1=1, exactly one
    empty → 0. Mean and median over pages; for wcxb-dev also per page ``type``.

Speed (``--speed``, on by default; ``--no-speed`` skips it)
    pages per CPU-second (user+sys time of the timed process, robust to other load; wall-clock
    rate shown too) on one core (the process pins itself to CPU 0), sequential, wcxb-dev pages
    loaded into memory first, timing only the extraction calls (for Resiliparse, detect_encoding +
    bytes_to_str + extract_plain_text; for trafilatura, extract on the bytes). ``--speed-peers``
    adds the other peers. For rs-trafilatura and dom_smoothie the binary times itself:
    ``taskset -c 0 rust-peers --time -j 1`` sums each page's extraction call (decoding included;
    reading and gunzipping not; no warm-up) on that thread's CPU clock and on the wall clock.
    pagelevel: its own ``bench --manifest`` output, and the wall time of ``taskset -c 0
    <binary> -j 1 extract`` over all wcxb-dev pages (one process, reading the .gz files
    included; its CPU time from getrusage of the child).

Output
    ``bench/out/<set>/<system>.csv``: one row per page (id, type, lang, status, seconds, P, R,
    F1, token counts). ``bench/out/results.md``: the Markdown tables that are also printed.
    ``--write-docs`` replaces the block between ``<!-- bench:begin -->`` and
    ``<!-- bench:end -->`` in docs/quality.md (or appends it), keeping the rest of the file.
    ``--reuse`` loads a peer's per-page CSVs from bench/out instead of running it again when
    they exist for every selected set (pagelevel is always run). The report marks a figure
    ``(in-sample)`` where ``IN_SAMPLE`` says the system was trained or tuned on that set.
"""

from __future__ import annotations

import argparse
import csv
import datetime as _dt
import gzip
import json
import multiprocessing as mp
import os
import re
import resource
import shlex
import statistics
import subprocess
import sys
import time
from collections import Counter
from multiprocessing.connection import wait as mp_wait
from pathlib import Path

BENCH = Path(__file__).resolve().parent
REPO = BENCH.parent
SETS = ["wcxb-dev", "l3s-gn1", "readability", "cleaneval-dev", "sites", "chaos"]
WCXB_TYPES = ["article", "service", "forum", "listing", "product", "collection", "documentation"]
PEERS = ["trafilatura", "readability", "boilerpipe", "justext", "resiliparse"]
# Rust peers, run by bench/rust-peers's binary: system name → its --system value.
RUST_PEERS = {"rs-trafilatura": "rs-trafilatura", "dom_smoothie": "dom-smoothie"}
ALL_PEERS = PEERS + list(RUST_PEERS)
PEER_LABEL = {
    "trafilatura": "trafilatura",
    "readability": "Readability",
    "boilerpipe": "boilerpipe",
    "justext": "jusText",
    "resiliparse": "Resiliparse",
    "rs-trafilatura": "rs-trafilatura",
    "dom_smoothie": "dom_smoothie",
}
# Reference means given with the task, per peer and set.
REFERENCE = {
    "trafilatura": {"wcxb-dev": 0.811, "l3s-gn1": 0.889, "readability": 0.932,
                    "cleaneval-dev": 0.767, "sites": 0.951, "chaos": 0.939},
    "readability": {"wcxb-dev": 0.695, "l3s-gn1": 0.919, "readability": 0.964,
                    "cleaneval-dev": 0.841, "sites": 0.935, "chaos": 0.937},
    "justext": {"wcxb-dev": 0.695, "l3s-gn1": 0.801, "readability": 0.552,
                "cleaneval-dev": 0.832, "sites": 0.885, "chaos": 0.874},
    "resiliparse": {"wcxb-dev": 0.783, "l3s-gn1": 0.817, "readability": 0.924,
                    "cleaneval-dev": 0.869, "sites": 0.895, "chaos": 0.887},
    "rs-trafilatura": {"wcxb-dev": 0.842, "l3s-gn1": 0.789, "cleaneval-dev": 0.687,
                       "sites": 0.877},
    "dom_smoothie": {"wcxb-dev": 0.765, "l3s-gn1": 0.929, "cleaneval-dev": 0.879,
                     "sites": 0.940},
}
# Sets a system was trained or tuned on (its figure there is in-sample), per system label.
IN_SAMPLE = {"rs-trafilatura": {"wcxb-dev"}}
IN_SAMPLE_WHY = {
    "rs-trafilatura": "its page-type classifier was trained on WCXB's dev split",
}
BEGIN, END = "<!-- bench:begin -->", "<!-- bench:end -->"

# ---------------------------------------------------------------------------------------------
# metric

_WORD = re.compile(r"\w+")


def tokens(text: str) -> list[str]:
    return _WORD.findall((text or "").lower())


def word_prf(pred: str, gold: str) -> tuple[float, float, float, int, int]:
    """WCXB word-F1: bag-of-words overlap of \\w+ tokens (lower-cased)."""
    p_tok, g_tok = tokens(pred), tokens(gold)
    if not p_tok and not g_tok:
        return 1.0, 1.0, 1.0, 0, 0
    if not p_tok or not g_tok:
        return 0.0, 0.0, 0.0, len(p_tok), len(g_tok)
    overlap = sum((Counter(p_tok) & Counter(g_tok)).values())
    p, r = overlap / len(p_tok), overlap / len(g_tok)
    f1 = 0.0 if overlap == 0 else 2 * p * r / (p + r)
    return p, r, f1, len(p_tok), len(g_tok)


# ---------------------------------------------------------------------------------------------
# data


def load_pages(data: Path, name: str) -> list[dict]:
    manifest = data / name / "manifest.jsonl"
    pages = []
    with open(manifest, encoding="utf-8") as f:
        for line in f:
            if not line.strip():
                continue
            rec = json.loads(line)
            if not rec.get("gold"):
                continue
            rec["html_abs"] = str((data / rec["html"]).resolve())
            rec["gold_text"] = (data / rec["gold"]).read_text(encoding="utf-8")
            pages.append(rec)
    return pages


def read_html(path: str) -> bytes:
    with gzip.open(path, "rb") as f:
        return f.read()


# ---------------------------------------------------------------------------------------------
# peers (imported lazily inside the worker processes)

_JUSTEXT_LANG = {
    "af": "Afrikaans", "sq": "Albanian", "ar": "Arabic", "an": "Aragonese", "hy": "Armenian",
    "ast": "Asturian", "az": "Azerbaijani", "eu": "Basque", "be": "Belarusian", "bn": "Bengali",
    "bs": "Bosnian", "br": "Breton", "bg": "Bulgarian", "ca": "Catalan", "hr": "Croatian",
    "cs": "Czech", "da": "Danish", "nl": "Dutch", "en": "English", "eo": "Esperanto",
    "et": "Estonian", "fi": "Finnish", "fr": "French", "gl": "Galician", "ka": "Georgian",
    "de": "German", "el": "Greek", "gu": "Gujarati", "ht": "Haitian", "he": "Hebrew",
    "hi": "Hindi", "hu": "Hungarian", "is": "Icelandic", "io": "Ido", "ig": "Igbo",
    "id": "Indonesian", "ga": "Irish", "it": "Italian", "jv": "Javanese", "kn": "Kannada",
    "kk": "Kazakh", "ko": "Korean", "ku": "Kurdish", "ky": "Kyrgyz", "la": "Latin",
    "lv": "Latvian", "lt": "Lithuanian", "lb": "Luxembourgish", "mk": "Macedonian",
    "ms": "Malay", "ml": "Malayalam", "mr": "Marathi", "mn": "Mongolian", "ne": "Nepali",
    "nb": "Norwegian_Bokmal", "no": "Norwegian_Bokmal", "nn": "Norwegian_Nynorsk",
    "oc": "Occitan", "fa": "Persian", "pl": "Polish", "pt": "Portuguese", "ro": "Romanian",
    "ru": "Russian", "sr": "Serbian", "sk": "Slovak", "sl": "Slovenian", "es": "Spanish",
    "sw": "Swahili", "sv": "Swedish", "tl": "Tagalog", "tg": "Tajik", "ta": "Tamil",
    "tt": "Tatar", "te": "Telugu", "th": "Thai", "tr": "Turkish", "uk": "Ukrainian",
    "ur": "Urdu", "uz": "Uzbek", "vi": "Vietnamese", "cy": "Welsh", "yo": "Yoruba",
}

_BLOCK_TAGS = frozenset(
    "address article aside blockquote body br dd details dialog div dl dt fieldset figcaption "
    "figure footer form h1 h2 h3 h4 h5 h6 header hgroup hr html li main nav ol p pre section "
    "summary table tbody td tfoot th thead tr ul caption".split()
)
_SKIP_TAGS = frozenset(["script", "style", "noscript", "template", "head", "title"])


def html_visible_text(html: str) -> str:
    """Visible text of an HTML fragment via lxml, block elements on their own lines."""
    import lxml.etree
    import lxml.html

    if not html or not html.strip():
        return ""
    root = lxml.html.fromstring(html)
    out: list[str] = []

    def walk(el):
        tag = el.tag if isinstance(el.tag, str) else None
        if tag is None:  # comment / processing instruction: only its tail is text
            if el.tail:
                out.append(el.tail)
            return
        tag = tag.lower()
        if tag in _SKIP_TAGS:
            if el.tail:
                out.append(el.tail)
            return
        block = tag in _BLOCK_TAGS
        if block:
            out.append("\n")
        elif tag == "td" or tag == "th":
            out.append("\t")
        if el.text:
            out.append(el.text)
        for child in el:
            walk(child)
        if block:
            out.append("\n")
        if el.tail:
            out.append(el.tail)

    walk(root)
    text = "".join(out)
    lines = [re.sub(r"[ \t\r\f\v\xa0]+", " ", ln).strip() for ln in text.split("\n")]
    return "\n".join(ln for ln in lines if ln)


_BODY_TAG = re.compile(r"<body[\s>/]", re.I)


def decode_str(raw: bytes) -> str:
    from resiliparse.parse.encoding import bytes_to_str, detect_encoding

    return bytes_to_str(raw, detect_encoding(raw))


class Recovered(str):
    """Text a peer produced after an internal error (kept, with a note for the CSV)."""

    def __new__(cls, text: str, note: str):
        obj = super().__new__(cls, text)
        obj.note = note
        return obj


class PeerRunner:
    """Lives in a worker process; each extractor is imported on first use."""

    def __init__(self, decode_all: bool = False, boilerpipe_raw: bool = False):
        self.decode_all = decode_all
        self.boilerpipe_raw = boilerpipe_raw
        self._mods: dict = {}

    def _input(self, raw: bytes):
        return decode_str(raw) if self.decode_all else raw

    def run(self, peer: str, raw: bytes, lang: str | None) -> str:
        return getattr(self, "_" + peer)(raw, lang)

    def _trafilatura(self, raw, lang):
        import trafilatura

        return trafilatura.extract(self._input(raw)) or ""

    def _readability(self, raw, lang):
        from readability import Document

        return html_visible_text(Document(self._input(raw)).summary())

    def _boilerpipe(self, raw, lang):
        from boilerpy3 import extractors

        if "boilerpipe" not in self._mods:
            self._mods["boilerpipe"] = extractors.ArticleExtractor()
            self._mods["boilerpipe-lenient"] = extractors.ArticleExtractor(raise_on_failure=False)
        html = decode_str(raw)
        if not self.boilerpipe_raw and not _BODY_TAG.search(html):
            # boilerpy3 keeps only text inside <body>…</body>; Java boilerpipe's NekoHTML
            # implies the body. Let lxml imply it (html5-style) for pages without the tag.
            import lxml.html

            html = lxml.html.tostring(lxml.html.document_fromstring(html), encoding="unicode")
        try:
            return self._mods["boilerpipe"].get_content(html) or ""
        except Exception as e:  # noqa: BLE001
            if self.boilerpipe_raw:
                raise
            # boilerpy3's SAX-style parser trips over unbalanced end tags ("pop from empty
            # list", "'NoneType' object has no attribute 'lower'"): a port bug Java
            # boilerpipe does not have. Take what it parsed, and say so in the CSV.
            text = self._mods["boilerpipe-lenient"].get_content(html) or ""
            cause = e.__cause__ or e.__context__ or e
            return Recovered(text, f"recovered after {type(cause).__name__}: {cause}"[:200])

    def _justext(self, raw, lang):
        import justext

        name = _JUSTEXT_LANG.get((lang or "en").lower().replace("_", "-").split("-")[0])
        stoplists = self._mods.setdefault("justext_lists", set(justext.get_stoplists()))
        if name not in stoplists:
            name = "English"
        key = "justext:" + name
        if key not in self._mods:
            self._mods[key] = justext.get_stoplist(name)
        paragraphs = justext.justext(self._input(raw), self._mods[key])
        return "\n".join(p.text for p in paragraphs if not p.is_boilerplate)

    def _resiliparse(self, raw, lang):
        from resiliparse.extract.html2text import extract_plain_text

        return extract_plain_text(decode_str(raw), main_content=True) or ""


def _quiet():
    """Peers print warnings (boilerpy3: "SAX input contains nested A elements") and log
    tracebacks; keep the worker's stdout/stderr out of the report."""
    import logging

    logging.disable(logging.CRITICAL)
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)
    os.dup2(devnull, 2)
    sys.stdout = open(os.devnull, "w")
    sys.stderr = open(os.devnull, "w")


def _worker(conn, opts: dict):
    _quiet()
    runner = PeerRunner(**opts)
    while True:
        msg = conn.recv()
        if msg is None:
            return
        peer, path, lang = msg
        t0 = time.perf_counter()
        try:
            raw = read_html(path)
            t0 = time.perf_counter()
            text = runner.run(peer, raw, lang)
            secs = time.perf_counter() - t0
            if isinstance(text, Recovered):
                conn.send(("recovered", (str(text), text.note), secs))
            else:
                conn.send(("ok", str(text), secs))
        except Exception as e:  # noqa: BLE001 - any failure of a peer scores the page 0
            conn.send(("error", f"{type(e).__name__}: {e}"[:300], time.perf_counter() - t0))


class Pool:
    """Worker processes with a per-task timeout: a worker past its deadline is killed and
    replaced, and its page is reported as a timeout."""

    def __init__(self, jobs: int, opts: dict):
        self.ctx = mp.get_context("fork")
        self.jobs = max(1, jobs)
        self.opts = opts
        self.workers = [self._spawn() for _ in range(self.jobs)]

    def _spawn(self):
        parent, child = self.ctx.Pipe()
        proc = self.ctx.Process(target=_worker, args=(child, self.opts), daemon=True)
        proc.start()
        child.close()
        return {"proc": proc, "conn": parent, "task": None, "deadline": None}

    def map(self, peer: str, pages: list[dict], timeout: float, progress=None):
        results: list = [None] * len(pages)
        todo = list(range(len(pages)))[::-1]
        busy = 0
        done = 0
        while todo or busy:
            for w in self.workers:
                if w["task"] is None and todo:
                    i = todo.pop()
                    w["task"], w["deadline"] = i, time.monotonic() + timeout
                    w["conn"].send((peer, pages[i]["html_abs"], pages[i].get("lang")))
                    busy += 1
            conns = [w["conn"] for w in self.workers if w["task"] is not None]
            now = time.monotonic()
            nearest = min(w["deadline"] for w in self.workers if w["task"] is not None)
            ready = mp_wait(conns, timeout=max(0.0, nearest - now))
            for k, w in enumerate(self.workers):
                if w["task"] is None:
                    continue
                if w["conn"] in ready:
                    try:
                        results[w["task"]] = w["conn"].recv()
                    except EOFError:  # the worker died (e.g. a segfault in a C extension)
                        results[w["task"]] = ("error", "worker died", 0.0)
                        self._replace(k)
                        w = self.workers[k]
                elif time.monotonic() >= w["deadline"]:
                    results[w["task"]] = ("timeout", f"> {timeout:g} s", timeout)
                    self._replace(k)
                    w = self.workers[k]
                else:
                    continue
                w["task"] = None
                busy -= 1
                done += 1
                if progress:
                    progress(done, len(pages))
        return results

    def _replace(self, k: int):
        w = self.workers[k]
        w["proc"].kill()
        w["proc"].join()
        w["conn"].close()
        self.workers[k] = self._spawn()

    def close(self):
        for w in self.workers:
            try:
                w["conn"].send(None)
            except OSError:
                pass
        for w in self.workers:
            w["proc"].join(timeout=5)
            if w["proc"].is_alive():
                w["proc"].kill()


# ---------------------------------------------------------------------------------------------
# pagelevel


def pagelevel_mode(binary: Path) -> str | None:
    """'manifest' or 'files' when the binary has an `extract` subcommand, else None."""
    if not binary.is_file() or not os.access(binary, os.X_OK):
        return None
    try:
        out = subprocess.run(
            [str(binary), "extract", "--help"], capture_output=True, text=True, timeout=60
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    if out.returncode != 0:
        return None
    return "manifest" if "--manifest" in out.stdout else "files"


def run_pagelevel(binary: Path, mode: str, data: Path, name: str, pages: list[dict],
                  extra: list[str], timeout: float, jobs: int | None = None,
                  pin: bool = False) -> tuple[dict, float, str]:
    """Runs `extract` over one set; returns ({page index: (status, text, secs)}, wall, stderr)."""
    cmd = [str(binary)]
    if jobs is not None:
        cmd += ["-j", str(jobs)]
    cmd += ["extract"]
    if mode == "manifest":
        cmd += ["--manifest", str(data / name / "manifest.jsonl")] + extra
    else:
        cmd += extra + [p["html_abs"] for p in pages]
    if pin and sys.platform.startswith("linux"):
        cmd = ["taskset", "-c", "0"] + cmd
    t0 = time.perf_counter()
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout,
                              cwd=str(data))
        stdout, stderr = proc.stdout, proc.stderr
    except subprocess.TimeoutExpired as e:
        stdout = e.stdout.decode() if isinstance(e.stdout, bytes) else (e.stdout or "")
        stderr = f"timed out after {timeout:g} s"
    wall = time.perf_counter() - t0
    return parse_extract_lines(stdout, data, pages), wall, stderr


def parse_extract_lines(stdout: str, data: Path, pages: list[dict]) -> dict:
    """{page index: (status, text or message, secs)} from `extract`'s JSON lines: an `error`
    is status "error" ("timeout" when the message starts with "timeout"); `seconds` is read
    when present (bench/rust-peers with --time), else 0."""
    # Map every spelling of a page's path the binary may echo back to its index.
    keys: dict[str, int] = {}
    for i, p in enumerate(pages):
        for k in (p["html_abs"], p["html"], os.path.relpath(p["html_abs"], data),
                  str(data / p["html"]), p["id"]):
            keys.setdefault(k, i)
    got: dict[int, tuple] = {}
    # JSON Lines end at "\n" only: str.splitlines() would also cut at U+0085, U+2028 and U+2029,
    # which JSON strings may hold unescaped.
    for line in stdout.split("\n"):
        line = line.strip()
        if not line.startswith("{"):
            continue
        try:
            obj = json.loads(line)
        except json.JSONDecodeError:
            continue
        path = str(obj.get("path", ""))
        i = keys.get(path)
        if i is None:
            i = keys.get(os.path.normpath(os.path.join(str(data), path)))
        if i is None:
            i = next((j for j, p in enumerate(pages) if path.endswith(p["html"])), None)
        if i is None:
            continue
        secs = float(obj.get("seconds") or 0.0)
        if obj.get("error"):
            err = str(obj["error"])
            got[i] = ("timeout" if err.startswith("timeout") else "error", err[:300], secs)
        else:
            got[i] = ("ok", obj.get("text") or "", secs)
    return got


def rust_peers_bin_default() -> Path:
    """bench/rust-peers's binary: $RUST_PEERS_BIN, else under $CARGO_TARGET_DIR or the
    project's own target folder."""
    if os.environ.get("RUST_PEERS_BIN"):
        return Path(os.environ["RUST_PEERS_BIN"])
    target = os.environ.get("CARGO_TARGET_DIR") or str(BENCH / "rust-peers" / "target")
    return Path(target) / "release" / "rust-peers"


def run_rust_peer(binary: Path, peer: str, data: Path, name: str, pages: list[dict],
                  jobs: int, timeout: float) -> tuple[list, float, str]:
    """Runs bench/rust-peers over one set's manifest; returns (results in page order, wall,
    stderr). A page missing from the output is an error."""
    cmd = [str(binary), "--system", RUST_PEERS[peer], "-j", str(max(1, jobs)),
           "--timeout-ms", str(int(timeout * 1000)), "--time",
           "--manifest", str(data / name / "manifest.jsonl")]
    t0 = time.perf_counter()
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, cwd=str(data),
                              timeout=max(600.0, 2.0 * timeout * len(pages)))
        stdout, stderr = proc.stdout, proc.stderr
    except subprocess.TimeoutExpired as e:
        stdout = e.stdout.decode() if isinstance(e.stdout, bytes) else (e.stdout or "")
        stderr = "timed out"
    got = parse_extract_lines(stdout, data, pages)
    results = [got.get(i, ("error", "missing from output", 0.0)) for i in range(len(pages))]
    return results, time.perf_counter() - t0, stderr


# ---------------------------------------------------------------------------------------------
# scoring and tables


def slug(label: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", label.lower()).strip("-")


CSV_FIELDS = ["id", "type", "lang", "status", "seconds", "precision", "recall", "f1",
              "pred_tokens", "gold_tokens", "detail"]


def score_rows(pages: list[dict], results: list) -> list[dict]:
    rows = []
    for p, res in zip(pages, results):
        status, payload, secs = res if res else ("error", "no output", 0.0)
        if status == "recovered":
            payload, detail = payload
            pr, rc, f1, npred, ngold = word_prf(payload, p["gold_text"])
        elif status == "ok":
            pr, rc, f1, npred, ngold = word_prf(payload, p["gold_text"])
            detail = ""
        else:
            pr = rc = f1 = 0.0
            npred, ngold = 0, len(tokens(p["gold_text"]))
            detail = payload
        rows.append({
            "id": p["id"], "type": p.get("type") or "", "lang": p.get("lang") or "",
            "status": status, "seconds": f"{secs:.4f}", "precision": f"{pr:.6f}",
            "recall": f"{rc:.6f}", "f1": f"{f1:.6f}", "pred_tokens": npred,
            "gold_tokens": ngold, "detail": detail,
        })
    return rows


def oof_rows(pages: list[dict], scored: dict) -> tuple[list[dict], int]:
    """CSV rows for a set from ``train --cv --dry-run --pages`` lines keyed by ``html``.

    The per-page P/R/F1 are pagelevel's own (``src/eval/metrics.rs``: the same tokens and bag
    overlap as ``word_prf`` here). A page with gold that the file lacks (pagelevel could not
    read it) scores 0, as a peer's error does; returns the rows and that count."""
    rows, missing = [], 0
    for p in pages:
        rec = scored.get(p["html"])
        base = {"id": p["id"], "type": p.get("type") or "", "lang": p.get("lang") or "",
                "seconds": "", "pred_tokens": "", "gold_tokens": len(tokens(p["gold_text"]))}
        if rec is None:
            missing += 1
            rows.append({**base, "status": "error", "precision": "0", "recall": "0",
                         "f1": "0", "detail": "missing from the out-of-fold file"})
            continue
        rows.append({**base, "status": "ok", "precision": f"{rec['precision']:.6f}",
                     "recall": f"{rec['recall']:.6f}", "f1": f"{rec['f1']:.6f}", "detail": ""})
    return rows, missing


def write_csv(path: Path, rows: list[dict]):
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", newline="", encoding="utf-8") as f:
        w = csv.DictWriter(f, fieldnames=CSV_FIELDS)
        w.writeheader()
        w.writerows(rows)


def read_csv(path: Path) -> list[dict]:
    with open(path, newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def save_texts(out: Path, label: str, name: str, pages: list[dict], results: list):
    d = out / "text" / slug(label) / name
    d.mkdir(parents=True, exist_ok=True)
    for p, res in zip(pages, results):
        if res and res[0] in ("ok", "recovered"):
            text = res[1] if res[0] == "ok" else res[1][0]
            (d / f"{p['id']}.txt").write_text(text, encoding="utf-8")


def summarize(rows: list[dict]) -> dict:
    f1 = [float(r["f1"]) for r in rows]
    return {
        "n": len(rows),
        "mean": statistics.fmean(f1) if f1 else float("nan"),
        "median": statistics.median(f1) if f1 else float("nan"),
        "p": statistics.fmean(float(r["precision"]) for r in rows) if rows else float("nan"),
        "r": statistics.fmean(float(r["recall"]) for r in rows) if rows else float("nan"),
        "errors": sum(r["status"] == "error" for r in rows),
        "timeouts": sum(r["status"] == "timeout" for r in rows),
        "recovered": sum(r["status"] == "recovered" for r in rows),
    }


def md_table(header: list[str], rows: list[list[str]], left: tuple[int, ...] = (0,)) -> str:
    lines = ["| " + " | ".join(header) + " |",
             "|" + "|".join("---" if i in left else "---:" for i in range(len(header))) + "|"]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    return "\n".join(lines)


def build_report(scores: dict, sets: list[str], systems: list[str], speed_md: str,
                 notes: list[str]) -> str:
    """scores[(system, set)] = list of per-page CSV rows."""
    parts = []
    header = ["system"] + [f"{s} (n={next((len(scores[(x, s)]) for x in systems if (x, s) in scores), 0)})"
                           for s in sets] + ["mean of sets"]
    body = []
    for sysname in systems:
        cells, vals = [], []
        for s in sets:
            rows = scores.get((sysname, s))
            if rows is None:
                cells.append("–")
                continue
            sm = summarize(rows)
            vals.append(sm["mean"])
            flag = ""
            if sm["errors"] or sm["timeouts"]:
                flag = f" ({sm['errors']}e/{sm['timeouts']}t)"
            if sm["recovered"]:
                flag += f" [{sm['recovered']}r]"
            if s in IN_SAMPLE.get(sysname, ()):
                flag += " (in-sample)"
            cells.append(f"{sm['mean']:.3f}{flag}")
        mean_sets = f"{statistics.fmean(vals):.3f}" if len(vals) == len(sets) else "–"
        body.append([sysname] + cells + [mean_sets])
    parts.append("Mean word-F1 per set (`(Ne/Nt)`: pages that raised / timed out, scored 0; "
                 "`[Nr]`: pages where boilerpy3's parser raised and its partial text was "
                 "scored; `(in-sample)`: the system was trained or tuned on that set):\n\n"
                 + md_table(header, body))
    for x in systems:
        if IN_SAMPLE.get(x, set()) & set(sets):
            notes = notes + [f"{x}: in-sample on {', '.join(sorted(IN_SAMPLE[x] & set(sets)))} "
                             f"({IN_SAMPLE_WHY.get(x, 'trained or tuned there')}); its mean of "
                             "sets includes that figure"]

    body = []
    for sysname in systems:
        cells = []
        for s in sets:
            rows = scores.get((sysname, s))
            if rows is None:
                cells.append("–")
                continue
            sm = summarize(rows)
            cells.append(f"{sm['median']:.3f} / {sm['p']:.3f} / {sm['r']:.3f}")
        body.append([sysname] + cells)
    parts.append("Median F1 / mean precision / mean recall:\n\n"
                 + md_table(["system"] + sets, body))

    if "wcxb-dev" in sets:
        any_rows = next((scores[(x, "wcxb-dev")] for x in systems if (x, "wcxb-dev") in scores), [])
        counts = Counter(r["type"] for r in any_rows)
        types = [t for t in WCXB_TYPES if counts.get(t)] + sorted(
            t for t in counts if t not in WCXB_TYPES)
        body = []
        for sysname in systems:
            rows = scores.get((sysname, "wcxb-dev"))
            if rows is None:
                continue
            cells = []
            for t in types:
                sub = [r for r in rows if r["type"] == t]
                cells.append(f"{summarize(sub)['mean']:.3f}")
            name = sysname + (" (in-sample)" if "wcxb-dev" in IN_SAMPLE.get(sysname, ()) else "")
            body.append([name] + cells + [f"{summarize(rows)['mean']:.3f}"])
        parts.append("wcxb-dev mean word-F1 per page type:\n\n"
                     + md_table(["system"] + [f"{t} (n={counts[t]})" for t in types] + ["all"],
                                body))

    # a column per peer with reference means that ran; a row per set with any reference
    ref_peers = [p for p in REFERENCE if any((PEER_LABEL[p], s) in scores for s in sets)]
    ref_rows = []
    for s in sets:
        if not any(s in REFERENCE[p] for p in ref_peers):
            continue
        cells = []
        for peer in ref_peers:
            ref = REFERENCE[peer].get(s)
            rows = scores.get((PEER_LABEL[peer], s))
            m = summarize(rows)["mean"] if rows is not None else None
            if ref is None:
                cells.append("–" if m is None else f"{m:.3f} / –")
            elif m is None:
                cells.append(f"– / {ref:.3f}")
            else:
                cells.append(f"{m:.3f} / {ref:.3f} ({m - ref:+.3f})")
        ref_rows.append([s] + cells)
    if ref_rows:
        parts.append("Measured / reference mean F1 (difference):\n\n"
                     + md_table(["set"] + [PEER_LABEL[p] for p in ref_peers], ref_rows))
    if speed_md:
        parts.append(speed_md)
    if notes:
        parts.append("Notes:\n\n" + "\n".join(f"- {n}" for n in notes))
    return "\n\n".join(parts) + "\n"


# ---------------------------------------------------------------------------------------------
# speed


def measure_speed(data: Path, peers: list[str], binary: Path | None, mode: str | None,
                  pl_runs: list[tuple[str, list[str]]], rounds: int,
                  rust_bin: Path | None = None) -> str:
    pages = load_pages(data, "wcxb-dev")
    raws = [read_html(p["html_abs"]) for p in pages]
    mb = sum(map(len, raws)) / 1e6
    try:
        os.sched_setaffinity(0, {0})
        pinned = "pinned to CPU 0"
    except (AttributeError, OSError):
        pinned = "not pinned"
    runner = PeerRunner()
    rows = []

    def row(label, cpu, wall, what):
        n = len(pages)
        return [label, f"{n / cpu:.1f}", f"{1000 * cpu / n:.1f}", f"{mb / cpu:.2f}",
                f"{n / wall:.1f}", what]

    for peer in peers:
        if peer in RUST_PEERS:
            best = None
            for _ in range(rounds):
                t = time_rust_peer(rust_bin, peer, data)
                if t and (best is None or t["cpu_s"] < best["cpu_s"]):
                    best = t
            if best is None:
                continue
            rows.append(row(PEER_LABEL[peer], best["cpu_s"], best["wall_s"],
                            "in-process calls (decoding included), timed by `rust-peers --time "
                            "-j 1` per page with the thread's CPU clock; reading and gunzipping "
                            f"not timed ({best['errors']} failed)"))
            print(f"  speed {PEER_LABEL[peer]}: {len(pages) / best['cpu_s']:.1f} pages/CPU-s",
                  file=sys.stderr)
            continue
        # warm-up: imports, stoplists, caches
        for raw, p in zip(raws[:3], pages[:3]):
            try:
                runner.run(peer, raw, p.get("lang"))
            except Exception:  # noqa: BLE001
                pass
        best_cpu = best_wall = None
        for _ in range(rounds):
            cpu = wall = 0.0
            fails = 0
            for raw, p in zip(raws, pages):
                c0, t0 = time.process_time(), time.perf_counter()
                try:
                    runner.run(peer, raw, p.get("lang"))
                except Exception:  # noqa: BLE001
                    fails += 1
                cpu += time.process_time() - c0
                wall += time.perf_counter() - t0
            best_cpu = cpu if best_cpu is None else min(best_cpu, cpu)
            best_wall = wall if best_wall is None else min(best_wall, wall)
        rows.append(row(PEER_LABEL[peer], best_cpu, best_wall,
                        f"in-process calls on pre-loaded bytes ({fails} raised)"))
        print(f"  speed {PEER_LABEL[peer]}: {len(pages) / best_cpu:.1f} pages/CPU-s", file=sys.stderr)
    extra_md = ""
    if binary is not None and mode is not None:
        for label, extra in pl_runs:
            best_cpu = best_wall = None
            for _ in range(rounds):
                before = resource.getrusage(resource.RUSAGE_CHILDREN)
                _, wall, _ = run_pagelevel(binary, mode, data, "wcxb-dev", pages, extra,
                                           timeout=3600, jobs=1, pin=True)
                after = resource.getrusage(resource.RUSAGE_CHILDREN)
                cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
                best_cpu = cpu if best_cpu is None else min(best_cpu, cpu)
                best_wall = wall if best_wall is None else min(best_wall, wall)
            rows.append(row(label, best_cpu, best_wall,
                            "`taskset -c 0 pagelevel -j 1 extract` over all pages, one process; "
                            "reading and gunzipping the files and process start included"))
    if binary is not None and binary.is_file():
        try:
            out = subprocess.run(
                ["taskset", "-c", "0", str(binary), "-j", "1", "bench", "--manifest",
                 str(data / "wcxb-dev" / "manifest.jsonl")],
                capture_output=True, text=True, timeout=1800)
            if out.returncode == 0 and out.stdout.strip():
                extra_md = ("`pagelevel bench --manifest wcxb-dev` (stage timings, one thread, "
                            "CPU 0):\n\n```\n" + out.stdout.strip() + "\n```")
        except (OSError, subprocess.TimeoutExpired):
            pass
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    md = (f"Speed on wcxb-dev ({len(pages)} pages, {mb:.1f} MB of HTML), one core ({pinned}), "
          f"sequential, best of {rounds} round(s). Rates are per CPU-second of the timed process "
          f"(user+sys), which other jobs on the machine barely change; `wall pages/s` is "
          f"elapsed time, which they do (load average at the end {load:.1f} on "
          f"{os.cpu_count()} cores):\n\n"
          + md_table(["system", "pages/CPU-s", "CPU ms/page", "MB/CPU-s", "wall pages/s",
                      "what is timed"], rows, left=(0, 5)))
    if extra_md:
        md += "\n\n" + extra_md
    return md


def time_rust_peer(binary: Path, peer: str, data: Path) -> dict | None:
    """One `taskset -c 0 rust-peers --time -j 1` run over wcxb-dev: its stderr's sums of the
    per-page extraction call's thread CPU and wall seconds, and the failed pages."""
    cmd = [str(binary), "--system", RUST_PEERS[peer], "-j", "1", "--timeout-ms", "0", "--time",
           "--manifest", str(data / "wcxb-dev" / "manifest.jsonl")]
    if sys.platform.startswith("linux"):
        cmd = ["taskset", "-c", "0"] + cmd
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=3600)
    except (OSError, subprocess.TimeoutExpired) as e:
        print(f"  speed {PEER_LABEL[peer]} failed: {e}", file=sys.stderr)
        return None
    lines = [ln for ln in proc.stderr.splitlines() if ln.startswith("{")]
    if proc.returncode != 0 or not lines:
        print(f"  speed {PEER_LABEL[peer]} failed: {proc.stderr.strip()[:300]}", file=sys.stderr)
        return None
    t = json.loads(lines[-1])
    t["errors"] = sum(1 for ln in proc.stdout.split("\n")
                      if ln.startswith("{") and json.loads(ln).get("error"))
    return t


# ---------------------------------------------------------------------------------------------
# docs


def write_docs(path: Path, block: str):
    text = path.read_text(encoding="utf-8") if path.exists() else "# Quality\n"
    new_block = f"{BEGIN}\n{block.rstrip()}\n{END}"
    if BEGIN in text and END in text and text.index(BEGIN) < text.index(END):
        a, b = text.index(BEGIN), text.index(END) + len(END)
        text = text[:a] + new_block + text[b:]
    else:
        text = text.rstrip("\n") + "\n\n" + new_block + "\n"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


# ---------------------------------------------------------------------------------------------


def main(argv=None):
    ap = argparse.ArgumentParser(
        description="WCXB word-F1 of pagelevel and its peers (trafilatura, Readability, "
                    "boilerpipe, jusText, Resiliparse, rs-trafilatura, dom_smoothie) on the "
                    "shared data sets, and speed.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="Examples:\n"
               "  bash bench/run.sh                              # everything\n"
               "  bash bench/run.sh --systems peers --jobs 2     # peers only\n"
               "  bash bench/run.sh --reuse --pagelevel-run 'Basic=--variant basic' \\\n"
               "      --pagelevel-run 'Smooth=--variant smooth' --write-docs\n")
    ap.add_argument("--data", type=Path, default=REPO.parent / "shared" / "data",
                    help="data folder holding <set>/manifest.jsonl (default: ../shared/data)")
    ap.add_argument("--sets", default=",".join(SETS), help="comma-separated sets (default: all)")
    ap.add_argument("--systems", default="all",
                    help="comma-separated: all, peers, pagelevel, or peer names "
                         f"({', '.join(ALL_PEERS)})")
    ap.add_argument("--binary", type=Path,
                    default=Path(os.environ.get("PAGELEVEL_BIN", REPO.parent / "target" / "release" / "pagelevel")),
                    help="pagelevel binary (default: $PAGELEVEL_BIN or ../target/release/pagelevel)")
    ap.add_argument("--rust-peers-bin", type=Path, default=rust_peers_bin_default(),
                    help="bench/rust-peers binary, built by run.sh (default: $RUST_PEERS_BIN, "
                         "else $CARGO_TARGET_DIR/release/rust-peers, else "
                         "bench/rust-peers/target/release/rust-peers)")
    ap.add_argument("--pagelevel-args", default=None,
                    help='extra flags for one pagelevel run, e.g. "--variant smooth"')
    ap.add_argument("--pagelevel-run", action="append", default=[], metavar="LABEL=ARGS",
                    help='a labelled pagelevel run, row "pagelevel (LABEL)"; repeatable')
    ap.add_argument("--pagelevel-oof", action="append", default=[], metavar="LABEL=FILE",
                    help="rows \"pagelevel (LABEL, out of fold)\" from the per-page scores of "
                         "`pagelevel train --cv --dry-run --pages FILE`; repeatable")
    ap.add_argument("--jobs", type=int, default=1,
                    help="peer worker processes, or the Rust peers' threads (default 1)")
    ap.add_argument("--timeout", type=float, default=60.0,
                    help="per-page timeout in seconds for a peer (default 60)")
    ap.add_argument("--decode-all", action="store_true",
                    help="give every peer the same Resiliparse-decoded str instead of bytes")
    ap.add_argument("--boilerpipe-raw", action="store_true",
                    help="feed boilerpy3 pages without a <body> tag as they are (it then "
                         "extracts nothing from them) instead of letting lxml imply the body")
    ap.add_argument("--reuse", action="store_true",
                    help="load a peer's CSVs from the output folder instead of running it, "
                         "when present for all selected sets")
    ap.add_argument("--out", type=Path, default=BENCH / "out", help="output folder (bench/out)")
    ap.add_argument("--save-text", action="store_true",
                    help="also write every extracted text to OUT/text/<system>/<set>/<id>.txt")
    ap.add_argument("--no-speed", dest="speed", action="store_false", help="skip the speed runs")
    ap.add_argument("--speed-peers", default="trafilatura,resiliparse",
                    help="peers timed for speed (default trafilatura,resiliparse; "
                         "rs-trafilatura and dom_smoothie may be added)")
    ap.add_argument("--speed-rounds", type=int, default=1,
                    help="timing rounds per peer, the fastest kept (default 1)")
    ap.add_argument("--write-docs", action="store_true",
                    help="write the tables into docs/quality.md between the bench markers")
    ap.add_argument("--docs", type=Path, default=REPO / "docs" / "quality.md")
    ap.add_argument("--date", default=_dt.date.today().isoformat(),
                    help="date in the docs heading (default today)")
    args = ap.parse_args(argv)

    # pagelevel runs with the data folder as its working directory: a relative path would break.
    args.binary = args.binary.resolve()
    sets = [s for s in args.sets.split(",") if s]
    for s in sets:
        if not (args.data / s / "manifest.jsonl").is_file():
            ap.error(f"no manifest for set {s!r} under {args.data}")
    want = {x.strip() for x in args.systems.split(",") if x.strip()}
    peers = [p for p in ALL_PEERS if want & {"all", "peers", p}]
    unknown = want - {"all", "peers", "pagelevel"} - set(ALL_PEERS)
    if unknown:
        ap.error(f"unknown systems: {', '.join(sorted(unknown))}")
    want_pl = bool(want & {"all", "pagelevel"}) or bool(args.pagelevel_run) or args.pagelevel_args is not None

    pl_runs: list[tuple[str, list[str]]] = []
    for spec in args.pagelevel_run:
        label, _, rest = spec.partition("=")
        pl_runs.append((f"pagelevel ({label.strip()})", shlex.split(rest)))
    if args.pagelevel_args is not None:
        pl_runs.append(("pagelevel", shlex.split(args.pagelevel_args)))
    if want_pl and not pl_runs:
        pl_runs.append(("pagelevel", []))

    notes: list[str] = []
    args.rust_peers_bin = args.rust_peers_bin.resolve()
    rust_ok = args.rust_peers_bin.is_file() and os.access(args.rust_peers_bin, os.X_OK)
    mode = None
    if want_pl:
        mode = pagelevel_mode(args.binary)
        if mode is None:
            msg = (f"pagelevel rows skipped: {args.binary} is missing or has no `extract` "
                   "subcommand yet")
            print("NOTE: " + msg, file=sys.stderr)
            notes.append(msg)
            pl_runs = []

    data = args.data.resolve()
    out = args.out
    pages_by_set = {s: load_pages(data, s) for s in sets}
    scores: dict = {}
    systems: list[str] = []

    # pagelevel first: it is quick
    def record(label: str, s: str, pages: list[dict], results: list, seconds: float,
               missing: int | None = None) -> dict:
        """Scores one system's results on set s, writes its CSV (and texts), prints its mean
        (with the pages missing from its output when `missing` is given, else its timeouts)."""
        rows = score_rows(pages, results)
        write_csv(out / s / f"{slug(label)}.csv", rows)
        if args.save_text:
            save_texts(out, label, s, pages, results)
        scores[(label, s)] = rows
        sm = summarize(rows)
        last = f"{sm['timeouts']} timeouts" if missing is None else f"{missing} missing"
        print(f"{label:24s} {s:14s} F1 {sm['mean']:.3f}  ({seconds:.1f} s, "
              f"{sm['errors']} errors, {last})", file=sys.stderr, flush=True)
        return sm

    for label, extra in pl_runs:
        systems.append(label)
        for s in sets:
            pages = pages_by_set[s]
            got, wall, stderr = run_pagelevel(args.binary, mode, data, s, pages, extra,
                                              timeout=max(600.0, 10.0 * len(pages)))
            results = [got.get(i, ("error", "missing from output", 0.0)) for i in range(len(pages))]
            missing = sum(1 for i in range(len(pages)) if i not in got)
            record(label, s, pages, results, wall, missing)
            if missing == len(pages):
                print("  stderr: " + stderr.strip()[:500], file=sys.stderr)
                first = next((ln for ln in stderr.splitlines() if ln.strip()), "no stderr")
                notes.append(f"{label} printed nothing usable on {s} (scored 0): {first[:200]}")

    for spec in args.pagelevel_oof:
        label, _, path = spec.partition("=")
        label = f"pagelevel ({label.strip()}, out of fold)"
        if not path:
            ap.error(f"--pagelevel-oof wants LABEL=FILE, got {spec!r}")
        with open(path, encoding="utf-8") as f:
            scored = {r["html"]: r for r in map(json.loads, filter(str.strip, f))}
        systems.append(label)
        for s in sets:
            rows, missing = oof_rows(pages_by_set[s], scored)
            write_csv(out / s / f"{slug(label)}.csv", rows)
            scores[(label, s)] = rows
            print(f"{label:24s} {s:14s} F1 {summarize(rows)['mean']:.3f}  ({missing} missing)",
                  file=sys.stderr)
        notes.append(f"{label}: per-page scores from `{path}`, written by `pagelevel train --cv "
                     "--dry-run --pages` (with `--cv-by set`: each set extracted by a model "
                     "trained on the other sets; otherwise each page by a model trained on the "
                     "other folds' sites; pages get the manifest's URL, which the peers do not)")

    pool = None
    try:
        for peer in peers:
            label = PEER_LABEL[peer]
            systems.append(label)
            csvs = {s: out / s / f"{slug(label)}.csv" for s in sets}
            if args.reuse and all(c.is_file() for c in csvs.values()):
                for s in sets:
                    scores[(label, s)] = read_csv(csvs[s])
                print(f"{label:24s} reused {out}/*/{slug(label)}.csv", file=sys.stderr)
                continue
            if peer in RUST_PEERS and not rust_ok:
                systems.remove(label)
                msg = (f"{label} skipped: no binary at {args.rust_peers_bin} (bench/run.sh "
                       "builds bench/rust-peers with cargo)")
                print("NOTE: " + msg, file=sys.stderr)
                notes.append(msg)
                continue
            if peer in RUST_PEERS:
                for s in sets:
                    pages = pages_by_set[s]
                    results, wall, stderr = run_rust_peer(args.rust_peers_bin, peer, data, s,
                                                          pages, args.jobs, args.timeout)
                    sm = record(label, s, pages, results, wall)
                    if sm["errors"] == len(pages):
                        first = next((ln for ln in stderr.splitlines() if ln.strip()), "no stderr")
                        notes.append(f"{label} printed nothing usable on {s} (scored 0): "
                                     f"{first[:200]}")
                continue
            if pool is None:
                pool = Pool(args.jobs, {"decode_all": args.decode_all,
                                        "boilerpipe_raw": args.boilerpipe_raw})
            for s in sets:
                pages = pages_by_set[s]
                t0 = time.perf_counter()

                def progress(done, total, _l=label, _s=s):
                    if done % 100 == 0 or done == total:
                        print(f"  {_l} {_s}: {done}/{total}", file=sys.stderr, flush=True)

                results = pool.map(peer, pages, args.timeout, progress)
                record(label, s, pages, results, time.perf_counter() - t0)
    finally:
        if pool is not None:
            pool.close()

    speed_md = ""
    if args.speed:
        speed_peers = [p for p in args.speed_peers.split(",") if p]
        bad = [p for p in speed_peers if p not in ALL_PEERS]
        if bad:
            ap.error(f"unknown speed peers: {', '.join(bad)}")
        print("speed runs (one core) ...", file=sys.stderr)
        # pagelevel is timed beside the peers even when its quality rows come from an
        # out-of-fold file: the default extract, one process, one core.
        speed_runs = pl_runs or [("pagelevel", [])]
        speed_mode = mode or pagelevel_mode(args.binary)
        if not rust_ok and any(p in RUST_PEERS for p in speed_peers):
            notes.append(f"speed of {', '.join(p for p in speed_peers if p in RUST_PEERS)} "
                         f"not measured: no binary at {args.rust_peers_bin}")
            speed_peers = [p for p in speed_peers if p not in RUST_PEERS]
        speed_md = measure_speed(data, speed_peers, args.binary, speed_mode,
                                 speed_runs, args.speed_rounds, args.rust_peers_bin)

    if args.boilerpipe_raw:
        notes.append("--boilerpipe-raw: boilerpy3 got pages without <body> unchanged and its "
                     "parser errors score 0")
    if args.decode_all:
        notes.append("--decode-all: every peer got the Resiliparse-decoded str instead of bytes")
    report = build_report(scores, sets, systems, speed_md, notes)
    out.mkdir(parents=True, exist_ok=True)
    (out / "results.md").write_text(report, encoding="utf-8")
    print(report)

    if args.write_docs:
        cmd = "bash bench/run.sh " + " ".join(shlex.quote(a) for a in (argv if argv is not None else sys.argv[1:]))
        versions = peer_versions()
        block = (f"## Benchmark run {args.date}\n\n"
                 f"Command: `{cmd.strip()}`\n\n"
                 f"Peers: {versions}. Metric: WCXB word-F1 (bag of lower-cased `\\w+` tokens), "
                 f"mean over pages with gold. Generated by `bench/quality.py` (see its docstring "
                 f"for each peer's input and options); do not edit by hand.\n\n" + report)
        write_docs(args.docs, block)
        print(f"wrote {args.docs}", file=sys.stderr)


def peer_versions() -> str:
    from importlib.metadata import PackageNotFoundError, version

    parts = []
    for dist in ["trafilatura", "readability-lxml", "boilerpy3", "justext", "resiliparse", "lxml"]:
        try:
            parts.append(f"{dist} {version(dist)}")
        except PackageNotFoundError:
            parts.append(f"{dist} (not installed)")
    # the Rust peers' versions are the ones bench/rust-peers/Cargo.lock pins
    lock = BENCH / "rust-peers" / "Cargo.lock"
    if lock.is_file():
        pinned = dict(re.findall(r'name = "([^"]+)"\nversion = "([^"]+)"', lock.read_text()))
        parts += [f"{c} {pinned[c]} (Rust)" for c in ("rs-trafilatura", "dom_smoothie")
                  if c in pinned]
    return ", ".join(parts)


if __name__ == "__main__":
    main()
