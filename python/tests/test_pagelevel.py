"""The Python API against hand-made pages and against the CLI on the bundled example pages."""

from __future__ import annotations

import gc
import gzip
import json
import os
import shutil
import subprocess
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

import pagelevel
from conftest import EXAMPLES, site_pages


def test_extract_keeps_the_article_and_drops_header_menu_and_footer():
    url, html = site_pages(2)[1]
    text = pagelevel.extract(html, url)
    assert text.splitlines()[0] == "Story number b"
    assert "Second paragraph of story b." in text
    for template in ("Daily Example", "Home", "Sport", "Copyright"):
        assert template not in text


def test_bytes_str_and_gzip_give_the_same_text():
    url, html = site_pages(1)[0]
    text = pagelevel.extract(html, url)
    assert pagelevel.extract(html.encode(), url) == text
    assert pagelevel.extract(gzip.compress(html.encode()), url) == text


def test_a_str_is_taken_as_decoded_and_bytes_are_decoded():
    # The str's <meta> names windows-1251, but a str is already text: it keeps its characters;
    # the same page as windows-1251 bytes decodes to the same text through its <meta>.
    html = '<html><head><meta charset="windows-1251"></head><body><p>Привет, мир. Zürich</p></body></html>'
    assert pagelevel.extract(html) == "Привет, мир. Zürich"
    assert pagelevel.extract(html.encode("cp1251", "replace")) == "Привет, мир. Z?rich"


def test_json_format_is_the_text_with_the_url():
    url, html = site_pages(1)[0]
    row = json.loads(pagelevel.extract(html, url, format="json"))
    assert row == {"url": url, "text": pagelevel.extract(html, url)}
    assert json.loads(pagelevel.extract(html, format="json"))["url"] is None


@pytest.mark.skipif(not EXAMPLES, reason="data/examples is missing")
def test_markdown_and_html_match_the_cli(cli_path):
    url = "https://www.example.com/page"
    for fmt in ("markdown", "html"):
        for page in EXAMPLES:
            out = subprocess.run(
                [cli_path, "extract", "--format", fmt, "--url", url, str(page)],
                check=True,
                capture_output=True,
                text=True,
            ).stdout
            # One page: its output alone, without a `==> NAME <==` line.
            assert not out.startswith("==>")
            body = out
            got = pagelevel.extract(page.read_bytes(), url, format=fmt)
            assert got.strip() and got.rstrip("\n") == body.rstrip("\n"), (fmt, page.name)
    assert {"markdown", "html"} <= set(pagelevel.FORMATS)


def test_unknown_format_and_bad_types_raise():
    with pytest.raises(ValueError, match='unknown format "pdf"; expected one of: text, json, markdown, html'):
        pagelevel.extract("<p>x</p>", format="pdf")
    with pytest.raises(TypeError, match="bytes, bytearray, memoryview or str, not int"):
        pagelevel.extract(42)  # type: ignore[arg-type]


def test_unreadable_page_raises_pagelevel_error():
    with pytest.raises(pagelevel.PageLevelError, match="corrupt or truncated gzip") as e:
        pagelevel.extract(b"\x1f\x8b\x08\x00not gzip at all", url="https://x.example/p")
    assert isinstance(e.value, ValueError)
    assert "https://x.example/p" in str(e.value)


def test_segments_of_the_hand_made_page():
    url, html = site_pages(1)[0]
    segs = pagelevel.segment(html, url)
    by_tag = {s["tag"]: s for s in segs}
    assert segs[0]["path"] == "/html/body" and segs[0]["parent"] is None
    assert not by_tag["body"]["template"]
    assert by_tag["header"]["template"] and by_tag["footer"]["template"]
    for s in segs:
        start, end = s["span"]
        assert html.encode()[start:end].decode().startswith("<" + s["tag"])
        assert set(s["box"]) == {"x", "y", "w", "h"} and 0.0 <= s["score"] <= 1.0
    # The header sits above the article text, the footer below it.
    assert by_tag["header"]["box"]["y"] < by_tag["footer"]["box"]["y"]


@pytest.mark.skipif(not EXAMPLES, reason="data/examples is missing")
def test_extract_and_segment_match_the_cli_on_the_example_pages(cli, tmp_path):
    url = "https://www.example.com/page"
    extracted = cli("extract", "--url", url, *map(str, EXAMPLES))
    segmented = cli("segment", "--url", url, *map(str, EXAMPLES))
    for page, ext, seg in zip(EXAMPLES, extracted, segmented):
        html = page.read_bytes()
        assert pagelevel.extract(html, url) == ext["text"], page.name
        assert ext["text"].strip()
        assert pagelevel.segment(html, url) == seg["segments"], page.name


def test_sitelevel_labels_header_menu_and_footer_as_template():
    run = pagelevel.SiteLevel(theta=0.5)
    pages = site_pages(6)
    assert [run.add(u, h) for u, h in pages] == list(range(6))
    assert len(run) == 6
    labels = run.labels()
    assert [row["url"] for row in labels] == [u for u, _ in pages]
    template = {l["path"] for l in labels[3]["labels"] if l["template"]}
    assert "/html/body/header[1]/nav[1]" in template
    assert "/html/body/footer[1]/p[1]/text()[1]" in template
    assert not any(p.startswith("/html/body/main") for p in template)
    texts = run.texts()
    assert texts[3].startswith("Story number d\n")
    assert "Home" not in texts[3] and "Copyright" not in texts[3]


def test_sitelevel_matches_the_cli(cli, tmp_path):
    site = tmp_path / "news.example.com"
    site.mkdir()
    run = pagelevel.SiteLevel()
    for k, (u, h) in enumerate(site_pages(7)):
        (site / f"p{k}.html").write_text(h)
        run.add(u, h)
    lines = cli("sitelevel", "--site-dir", str(tmp_path))
    texts = cli("sitelevel", "--site-dir", str(tmp_path), "--extract")
    assert [r["labels"] for r in run.labels()] == [line["labels"] for line in lines]
    assert run.texts() == [line["text"] for line in texts]


def test_sitelevel_errors():
    with pytest.raises(ValueError, match=r"theta must be in \(0, 1\], got 0"):
        pagelevel.SiteLevel(0)
    run = pagelevel.SiteLevel(fallback=False)
    for u, h in site_pages(3):
        run.add(u, h)
    for call in (run.labels, run.texts, lambda: run.sitelevel):
        with pytest.raises(pagelevel.PageLevelError, match="has 3 distinct pages; SiteLevel needs at least 5"):
            call()
    with pytest.raises(pagelevel.PageLevelError):
        run.add(None, b"\x1f\x8b\x08\x00broken")
    assert len(run) == 3


def test_a_site_too_small_for_sitelevel_gets_pagelevel_text_as_the_cli_gives_it(cli, tmp_path):
    # 3 pages, fewer than the 5 SiteLevel needs: PageLevel's text and labels, sitelevel False.
    site = tmp_path / "news.example.com"
    site.mkdir()
    run = pagelevel.SiteLevel()
    # No URLs: the CLI's pages in a folder have none (a URL feeds the link features).
    pages = [h for _, h in site_pages(3)]
    for k, h in enumerate(pages):
        (site / f"p{k}.html").write_text(h)
        run.add(None, h)
    assert run.sitelevel is False
    texts = run.texts()
    assert texts == [pagelevel.extract(h) for h in pages]
    assert texts[1].startswith("Story number b\n") and "Copyright" not in texts[1]
    labels = run.labels()
    assert [row["sitelevel"] for row in labels] == [False] * 3
    lines = cli("sitelevel", "--site-dir", str(tmp_path), "--extract")
    assert [(line["sitelevel"], line["text"]) for line in lines] == [(False, t) for t in texts]
    lines = cli("sitelevel", "--site-dir", str(tmp_path))
    assert [line["labels"] for line in lines] == [row["labels"] for row in labels]
    # Two more pages make the site big enough: SiteLevel's labels and texts, sitelevel True.
    for _, h in site_pages(5)[3:]:
        run.add(None, h)
    assert run.sitelevel is True
    assert [row["sitelevel"] for row in run.labels()] == [True] * 5
    assert "Home" not in run.texts()[4]


def test_site_is_the_registrable_domain():
    assert pagelevel.site("https://www.bbc.co.uk/news/1") == "bbc.co.uk"
    assert pagelevel.site("https://web.archive.org/web/2020/https://a.b.example.com/x") == "example.com"
    assert pagelevel.site("mailto:someone@example.com") is None


def test_threads_give_the_same_results():
    pages = site_pages(8)
    expected = [pagelevel.extract(h, u) for u, h in pages]
    with ThreadPoolExecutor(4) as pool:
        got = list(pool.map(lambda p: pagelevel.extract(p[1], p[0]), pages))
    assert got == expected


@pytest.mark.parametrize("call", ["extract", "extract_many"])
def test_the_gil_is_released_while_rust_works(call):
    # A Python thread ticks while the main thread runs one long extract (or a batch of two).
    # Were the GIL held for the whole call, the ticker would stop for the call's whole length.
    import threading
    import time

    rows = "".join(f"<tr><td><a href='/p{k}'>link {k}</a></td><td>cell text {k}</td></tr>" for k in range(20000))
    html = f"<html><body><table>{rows}</table><p>{'words ' * 2000}</p></body></html>"
    ticks: list[float] = []
    done = threading.Event()

    def ticker():
        while not done.is_set():
            ticks.append(time.perf_counter())

    t = threading.Thread(target=ticker)
    t.start()
    time.sleep(0.05)
    start = time.perf_counter()
    # No time limit: a loaded machine running a debug build may take over the default 10 s.
    if call == "extract":
        pagelevel.extract(html, timeout_ms=0)
    else:
        pagelevel.Extractor(timeout_ms=0).extract_many([html], threads=1)
    end = time.perf_counter()
    done.set()
    t.join()
    inside = [x for x in ticks if start <= x <= end]
    gaps = [b - a for a, b in zip([start, *inside], [*inside, end])]
    assert end - start > 0.05, "the page is too small to tell"
    assert max(gaps) < 0.5 * (end - start), (max(gaps), end - start)


# Nested divs cost html5ever O(depth) each (it walks its whole stack looking for a <p>): 200,000
# of them take minutes unless stopped. The fast parser is linear on them; these tests pick
# html5ever.
DEEP_DIVS = b"<div>" * 200_000


def test_timeout_ms_stops_a_slow_page_in_every_call():
    import time

    for call in (
        lambda: pagelevel.extract(DEEP_DIVS, timeout_ms=300, parser="html5ever"),
        lambda: pagelevel.segment(DEEP_DIVS, timeout_ms=300, parser="html5ever"),
        lambda: pagelevel.SiteLevel().add(
            "https://a.example/x", DEEP_DIVS, timeout_ms=300, parser="html5ever"
        ),
    ):
        start = time.monotonic()
        with pytest.raises(pagelevel.PageLevelError, match="time limit of 300 ms"):
            call()
        assert time.monotonic() - start < 30


def test_ctrl_c_interrupts_a_long_call():
    import _thread
    import threading
    import time

    def interrupt():
        time.sleep(0.5)
        _thread.interrupt_main()  # what Ctrl-C does: SIGINT delivered to the main thread

    # A suite started in the background (`cmd &`) inherits SIGINT ignored, and then
    # interrupt_main does nothing: Python's own handler is what a user's Ctrl-C reaches.
    import signal

    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        threading.Thread(target=interrupt).start()
        start = time.monotonic()
        # The time limit only bounds a missed interrupt (a failure, not a hang of the suite).
        with pytest.raises(KeyboardInterrupt):
            pagelevel.extract(DEEP_DIVS, timeout_ms=120_000, parser="html5ever")
        assert time.monotonic() - start < 10
    finally:
        signal.signal(signal.SIGINT, previous)
    # The module works on after an interrupted call.
    assert "hello" in pagelevel.extract(b"<p>hello</p>")


def test_a_forked_child_extracts():
    import signal

    if not hasattr(os, "fork"):
        pytest.skip("no fork on this platform")
    # The parent's helper thread exists now; a forked child has the slot but not the thread,
    # and must start its own instead of waiting on one that is not there.
    assert "hello" in pagelevel.extract(b"<p>hello</p>")
    pid = os.fork()
    if pid == 0:
        signal.alarm(30)  # a hang ends the child, failing the test instead of the suite
        ok = False
        try:
            ok = "child" in pagelevel.extract(b"<p>child</p>")
        finally:
            os._exit(0 if ok else 1)
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0
    assert "parent" in pagelevel.extract(b"<p>parent</p>")


def test_calls_reuse_one_helper_thread():
    tasks = Path("/proc/self/task")
    if not tasks.is_dir():
        pytest.skip("no /proc/self/task to count threads by")

    def helpers() -> int:
        names = []
        for t in tasks.iterdir():
            try:
                names.append((t / "comm").read_text().strip())
            except FileNotFoundError:  # a thread that ended meanwhile
                pass
        return names.count("pagelevel_call")

    # A call from the main thread runs on the helper thread, which stays for the next call.
    pagelevel.extract(b"<p>first</p>")
    assert helpers() == 1
    for _ in range(20):
        pagelevel.extract(b"<p>again</p>")
    assert helpers() == 1


def test_binary_input_is_not_html():
    with pytest.raises(pagelevel.PageLevelError, match="not HTML: a PDF document"):
        pagelevel.extract(b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")


def test_rules_are_listed_and_switched_off_like_the_cli(cli_path, tmp_path):
    names = [name for name, _ in pagelevel.rules()]
    listed = subprocess.run([cli_path, "--rules"], capture_output=True, check=True, text=True)
    assert names == [line.split()[0] for line in listed.stdout.splitlines()]
    para = "The river town rebuilt its old stone bridge this summer, and the engineers who led the work explained how they matched the original lime mortar, why the arches needed new foundations, and what the town plans to do with the toll house that stood empty for forty years. "
    comment = "I grew up next to that bridge and walked across it every morning on my way to school, so it is wonderful to see the arches restored with so much care and patience by the whole crew. "
    page = (
        "<!doctype html><html><head><title>The bridge is back</title></head><body>"
        f"<article><h1>The bridge is back</h1><p>{para}</p><p>{para}</p><p>{para}</p></article>"
        f'<div class="comments"><div class="comment"><p>{comment}</p></div>'
        f'<div class="comment"><p>{comment}</p></div></div></body></html>'
    )
    assert "I grew up" not in pagelevel.extract(page)
    # The model itself now drops this thread (comment regions are among its features): the
    # switch is checked by Python and the CLI agreeing on the text without the rule.
    kept = pagelevel.extract(page, without_rules=["comments"])
    assert "The bridge is back" in kept
    path = tmp_path / "bridge.html"
    path.write_text(page)
    out = subprocess.run(
        [cli_path, "extract", "--format", "text", "--without-rule", "comments", str(path)],
        capture_output=True,
        check=True,
        text=True,
    )
    # One page: no `==> path <==` line.
    assert out.stdout.strip() == kept.strip()
    with pytest.raises(ValueError, match="unknown rule"):
        pagelevel.extract(page, without_rules=["no-such-rule"])


META_PAGE = """<html lang="en-gb"><head>
<title>Harbour wall rebuilt | The Coast Gazette</title>
<meta property="og:site_name" content="The Coast Gazette">
<meta name="author" content="admin">
<meta name="description" content="Masons matched the old lime mortar.">
<script type="application/ld+json">{"@graph": [
  {"@type": "NewsArticle", "headline": "Harbour wall rebuilt",
   "author": [{"@type": "Person", "name": "Ann Mason"}],
   "datePublished": "2024-03-05T09:00:00+01:00", "keywords": ["harbour", "masonry"]}]}
</script></head><body><article><h1>Harbour wall rebuilt</h1>
<p>The harbour wall was rebuilt in granite after the winter storms, and the masons explained
why the old lime mortar had to be matched stone by stone.</p></article></body></html>"""


def test_metadata_reads_the_declared_fields():
    meta = pagelevel.metadata(META_PAGE, url="https://coastgazette.example/news/harbour")
    assert meta == {
        "title": "Harbour wall rebuilt",
        "author": "Ann Mason",
        "date": "2024-03-05",
        "language": "en-GB",
        "description": "Masons matched the old lime mortar.",
        "site_name": "The Coast Gazette",
        "url": "https://coastgazette.example/news/harbour",
        "tags": ["harbour", "masonry"],
        "type": "article",
    }
    # Nothing declared: only what is there, no empty strings.
    assert pagelevel.metadata("<p>x</p>") == {}


def test_extract_with_metadata_is_the_text_and_the_fields():
    url = "https://coastgazette.example/news/harbour"
    got = pagelevel.extract(META_PAGE, url, format="markdown", with_metadata=True)
    assert got.pop("text") == pagelevel.extract(META_PAGE, url, format="markdown")
    assert got == pagelevel.metadata(META_PAGE, url)


def test_metadata_matches_the_cli(cli, tmp_path):
    page = tmp_path / "page.html"
    page.write_text(META_PAGE)
    url = "https://coastgazette.example/news/harbour"
    (line,) = cli("extract", "--with-metadata", "--url", url, str(page))
    fields = {k: v for k, v in line.items() if k not in ("path", "text")}
    assert fields == pagelevel.metadata(META_PAGE, url)


# The Extractor object and the keyword-only options (issue 35).

OPTION_SETS = [
    {},
    {"format": "markdown", "with_metadata": True},
    {"format": "json"},
    {"format": "html", "variant": "basic", "keep_comments": True},
    {"variant": "smooth-viterbi", "without_rules": ["repeats", "asides"], "parser": "html5ever"},
]


@pytest.mark.skipif(not EXAMPLES, reason="data/examples is missing")
@pytest.mark.parametrize("options", OPTION_SETS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()) or "defaults")
def test_an_extractor_gives_what_extract_gives_on_the_example_pages(options):
    url = "https://www.example.com/page"
    extractor = pagelevel.Extractor(**options)
    for page in EXAMPLES:
        html = page.read_bytes()
        want = pagelevel.extract(html, url, **options)
        assert want, page.name
        assert extractor.extract(html, url) == want, page.name
        assert extractor.extract(html) == pagelevel.extract(html, **options), page.name
        # The same extractor keeps giving the same results (nothing carries over between pages).
        assert extractor.extract(html, url) == want, page.name


@pytest.mark.skipif(not EXAMPLES, reason="data/examples is missing")
def test_an_extractor_segments_and_reads_metadata_like_the_module_functions():
    url = "https://www.example.com/page"
    extractor = pagelevel.Extractor()
    for page in EXAMPLES:
        html = page.read_bytes()
        assert extractor.metadata(html, url) == pagelevel.metadata(html, url), page.name
        # parser=None: the fast parser, as the module's segment() and the CLI.
        assert extractor.segment(html, url) == pagelevel.segment(html, url), page.name
    fast = pagelevel.Extractor(parser="fast")
    html = EXAMPLES[0].read_bytes()
    assert fast.segment(html) == pagelevel.segment(html, parser="fast")


@pytest.mark.skipif(not EXAMPLES, reason="data/examples is missing")
def test_variant_and_keep_comments_match_the_cli(cli):
    url = "https://www.example.com/page"
    lines = cli("extract", "--url", url, "--variant", "basic", "--keep-comments", *map(str, EXAMPLES))
    extractor = pagelevel.Extractor(variant="basic", keep_comments=True)
    for page, line in zip(EXAMPLES, lines):
        html = page.read_bytes()
        assert pagelevel.extract(html, url, variant="basic", keep_comments=True) == line["text"], page.name
        assert extractor.extract(html, url) == line["text"], page.name
    # The variant reaches the pipeline: Basic keeps other text than the default on some page.
    assert any(
        pagelevel.extract(p.read_bytes(), url, variant="basic") != pagelevel.extract(p.read_bytes(), url)
        for p in EXAMPLES
    )


def many_pages() -> list:
    """Pages in every accepted form: bare html (bytes, str, bytearray, memoryview) and pairs."""
    pages: list = []
    for k, (url, html) in enumerate(site_pages(6)):
        form = [html.encode(), html, bytearray(html.encode()), memoryview(html.encode())][k % 4]
        pages.append((form, url) if k % 2 else form)
    pages += [(p.read_bytes(), "https://www.example.com/page") for p in EXAMPLES]
    return pages


@pytest.mark.parametrize("threads", [1, 4])
@pytest.mark.parametrize("options", [{}, {"format": "markdown", "with_metadata": True}], ids=["text", "markdown+metadata"])
def test_extract_many_is_a_loop_of_extract_in_input_order(threads, options):
    extractor = pagelevel.Extractor(**options)
    pages = many_pages()
    want = [extractor.extract(*p) if isinstance(p, tuple) else extractor.extract(p) for p in pages]
    assert len(set(map(str, want))) == len(want), "the pages should differ, or order is not tested"
    got = extractor.extract_many(pages, threads=threads)
    assert got == want
    # Any iterable: a generator is read once, in order.
    assert extractor.extract_many((p for p in pages), threads=threads) == want
    assert extractor.extract_many([], threads=threads) == []


def test_extract_many_returns_a_failed_page_as_its_error_in_place():
    extractor = pagelevel.Extractor(timeout_ms=300, parser="html5ever")
    url, html = site_pages(1)[0]
    pages = [
        (html, url),
        (b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n", "https://x.example/a.pdf"),
        b"\x1f\x8b\x08\x00not gzip at all",
        DEEP_DIVS,
        html,
    ]
    got = extractor.extract_many(pages, threads=2)
    assert got[0] == got[4] == pagelevel.extract(html, url)
    for k, pattern in [(1, "https://x.example/a.pdf: not HTML: a PDF document"), (2, "corrupt or truncated gzip"), (3, "time limit of 300 ms")]:
        assert isinstance(got[k], pagelevel.PageLevelError), (k, got[k])
        assert pattern in str(got[k]), (k, str(got[k]))
        # The same error extract() raises for that page.
        page = pages[k]
        with pytest.raises(pagelevel.PageLevelError) as raised:
            extractor.extract(*page) if isinstance(page, tuple) else extractor.extract(page)
        assert str(raised.value).split(" (stopped in")[0] == str(got[k]).split(" (stopped in")[0]


def pool_threads() -> int:
    """Threads of this process named as extract_many's pool names its threads."""
    n = 0
    for task in Path("/proc/self/task").iterdir():
        try:
            n += (task / "comm").read_text().startswith("pagelevel-")
        except OSError:  # the thread ended meanwhile
            pass
    return n


def settled_pool_threads() -> int:
    """pool_threads() once it stops changing (a dropped pool's threads end on their own)."""
    gc.collect()
    last = pool_threads()
    for _ in range(50):
        time.sleep(0.1)
        now = pool_threads()
        if now == last:
            return now
        last = now
    return last


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="needs /proc (Linux)")
def test_extract_many_keeps_its_pool_for_the_next_call_with_as_many_threads():
    before = settled_pool_threads()
    extractor = pagelevel.Extractor()
    pages = [h for _, h in site_pages(4)]
    first = extractor.extract_many(pages, threads=3)
    assert pool_threads() == before + 3
    for _ in range(3):
        assert extractor.extract_many(pages, threads=3) == first
        assert pool_threads() == before + 3
    # Another count replaces the pool; the old one's threads end.
    assert extractor.extract_many(pages, threads=2) == first
    assert settled_pool_threads() == before + 2
    del extractor
    assert settled_pool_threads() == before


def test_extract_many_raises_for_items_that_are_no_page():
    extractor = pagelevel.Extractor()
    with pytest.raises(TypeError, match="bytes, bytearray, memoryview or str, not int"):
        extractor.extract_many([b"<p>x</p>", 42])  # type: ignore[list-item]
    with pytest.raises(TypeError, match="an html or an \\(html, url\\) pair, not a tuple of 3"):
        extractor.extract_many([(b"<p>x</p>", None, None)])  # type: ignore[list-item]
    with pytest.raises(TypeError):
        extractor.extract_many(42)  # type: ignore[arg-type]


def test_bytearray_and_memoryview_are_read_as_bytes_everywhere():
    url, html = site_pages(1)[0]
    raw = html.encode()
    text = pagelevel.extract(raw, url)
    extractor = pagelevel.Extractor()
    for form in (bytearray(raw), memoryview(raw), memoryview(b"xx" + raw)[2:], bytearray(gzip.compress(raw))):
        assert pagelevel.extract(form, url) == text
        assert extractor.extract(form, url) == text
        assert pagelevel.metadata(form, url) == pagelevel.metadata(raw, url)
        assert pagelevel.segment(form, url) == pagelevel.segment(raw, url)
        assert extractor.segment(form, url) == pagelevel.segment(raw, url)
    run = pagelevel.SiteLevel()
    assert run.add(url, memoryview(raw)) == 0 and run.add(url, bytearray(raw)) == 1


def test_options_after_url_are_keyword_only():
    url, html = site_pages(1)[0]
    with pytest.raises(TypeError, match="positional"):
        pagelevel.extract(html, url, "markdown")  # type: ignore[misc]
    with pytest.raises(TypeError, match="positional"):
        pagelevel.Extractor("markdown")  # type: ignore[misc]
    assert pagelevel.extract(html, url, format="markdown").startswith("## Story number a\n")


def test_bad_options_raise_when_the_extractor_is_made():
    with pytest.raises(ValueError, match='unknown variant "smoothed"; expected one of: basic, smooth, viterbi, smooth-viterbi, tree-filter, smooth-viterbi-tree'):
        pagelevel.Extractor(variant="smoothed")
    with pytest.raises(ValueError, match='unknown variant "smoothed"'):
        pagelevel.extract("<p>x</p>", variant="smoothed")
    with pytest.raises(ValueError, match='unknown format "pdf"'):
        pagelevel.Extractor(format="pdf")
    with pytest.raises(ValueError, match="unknown rule"):
        pagelevel.Extractor(without_rules=["no-such-rule"])
    with pytest.raises(ValueError, match="unknown parser"):
        pagelevel.Extractor(parser="lxml")
    with pytest.raises(TypeError):
        pagelevel.Extractor(no_such_option=True)  # type: ignore[call-overload]
    assert pagelevel.VARIANTS == ["basic", "smooth", "viterbi", "smooth-viterbi", "tree-filter", "smooth-viterbi-tree"]
    assert repr(pagelevel.Extractor(format="markdown", without_rules=["repeats"])) == (
        "Extractor(format='markdown', variant='tree-filter', keep_comments=False, "
        "with_metadata=False, include_links=False, include_images=False, timeout_ms=10000, "
        "without_rules=['repeats'], parser=None)"
    )


def test_ctrl_c_interrupts_extract_many():
    import _thread
    import signal
    import threading
    import time

    def interrupt():
        time.sleep(0.5)
        _thread.interrupt_main()

    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        threading.Thread(target=interrupt).start()
        start = time.monotonic()
        with pytest.raises(KeyboardInterrupt):
            pagelevel.Extractor(timeout_ms=120_000, parser="html5ever").extract_many(
                [DEEP_DIVS] * 4, threads=2
            )
        assert time.monotonic() - start < 10
    finally:
        signal.signal(signal.SIGINT, previous)
    assert pagelevel.Extractor().extract_many([b"<p>hello</p>"]) == ["hello"]


def test_include_links_and_images_match_the_cli(cli_path, tmp_path):
    page = (
        b"<html><body><article><h1>Title</h1><p>Read <a href='/next'>the next part</a> "
        b"of this long story, which goes on.</p><p><img alt='a map' src='x.png' "
        b"srcset='s.png 100w, l.png 800w'> More words follow the picture here.</p>"
        b"</article></body></html>"
    )
    url = "https://example.org/story/1"
    plain = pagelevel.extract(page, url, format="markdown")
    both = pagelevel.extract(page, url, format="markdown", include_links=True, include_images=True)
    assert "(https://example.org/next)" not in plain and "![a map]" not in plain
    assert "[the next part](https://example.org/next)" in both, both
    assert "![a map](https://example.org/story/l.png)" in both, both
    # The text format has neither.
    assert pagelevel.extract(page, url, include_links=True, include_images=True) == pagelevel.extract(page, url)
    extractor = pagelevel.Extractor(format="markdown", include_links=True, include_images=True)
    assert extractor.extract(page, url) == both
    assert "include_links=True" in repr(extractor)
    path = tmp_path / "p.html"
    path.write_bytes(page)
    import subprocess

    args = ["extract", "--format", "markdown", "--links", "--images", "--url", url, str(path)]
    out = subprocess.run([cli_path, *args], check=True, capture_output=True, text=True).stdout
    assert out.strip() == both.strip()
