"""The Spark examples in local mode on a WARC written here, checked against the CLI.

Skips (with the reason) when pyspark is not installed or no Java runtime is found.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import EXAMPLES, ROOT, site_pages

SPARK = ROOT / "examples" / "spark"
sys.path.insert(0, str(SPARK))

pytest.importorskip("pyspark", reason="pyspark is not installed (pip install pyspark)")
if shutil.which("java") is None and not os.environ.get("JAVA_HOME"):
    pytest.skip("no Java runtime (java on PATH or JAVA_HOME) for Spark", allow_module_level=True)

import warc_reader  # noqa: E402


def spark_job(script: str, *args: str, master: str | None = "local[2]") -> subprocess.CompletedProcess:
    env = dict(os.environ, PYSPARK_PYTHON=sys.executable, PYSPARK_DRIVER_PYTHON=sys.executable)
    if master is None:
        # As spark-submit gives it: the job's --master is unset.
        env["PYSPARK_SUBMIT_ARGS"] = "--master local[1] pyspark-shell"
    flags = ["--master", master] if master else []
    return subprocess.run(
        [sys.executable, str(SPARK / script), *flags, *args],
        env=env, capture_output=True, text=True, timeout=600,
    )


def run_job(script: str, *args: str) -> list[dict]:
    out = Path(args[0])
    done = spark_job(script, *args)
    assert done.returncode == 0, done.stderr[-3000:]
    rows = []
    for part in sorted(out.glob("part-*")):
        rows += [json.loads(line) for line in part.read_text().splitlines() if line.strip()]
    return rows


@pytest.fixture(scope="module")
def warcs(tmp_path_factory):
    """Two WARC files: a news site of 6 pages in one, the example pages (another site, too
    small for SiteLevel), a non-HTML response and a request record in the other."""
    d = tmp_path_factory.mktemp("warc")
    pages = {}
    with open(d / "a.warc.gz", "wb") as f:
        for url, html in site_pages(6):
            warc_reader.write_response(f, url, html.encode())
            pages[url] = html.encode()
    with open(d / "b.warc.gz", "wb") as f:
        for p in EXAMPLES:
            url = f"https://shop.example.org/{p.stem}"
            warc_reader.write_response(f, url, p.read_bytes())
            pages[url] = p.read_bytes()
        warc_reader.write_response(f, "https://shop.example.org/logo.png", b"\x89PNG", "image/png")
        f.write(__import__("gzip").compress(
            b"WARC/1.1\r\nWARC-Type: request\r\nWARC-Target-URI: https://shop.example.org/\r\n"
            b"Content-Length: 4\r\n\r\nGET \r\n\r\n"))
    return d, pages


def test_the_reader_reads_back_what_was_written(warcs):
    d, pages = warcs
    got = {}
    for name in ("a.warc.gz", "b.warc.gz"):
        got.update({url: html for url, _, html in warc_reader.html_records(str(d / name))})
    assert got == pages


def test_extract_job_matches_the_cli(warcs, cli, tmp_path):
    d, pages = warcs
    # A rerun into the same folder: --overwrite replaces what an earlier run left.
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "part-99999").write_text('{"url": "stale"}\n')
    warcs = (str(d / "a.warc.gz"), str(d / "b.warc.gz"))
    rows = run_job("extract_job.py", str(tmp_path / "out"), *warcs, "--overwrite")
    assert sorted(r["url"] for r in rows) == sorted(pages)
    for r in rows:
        assert r["record_id"].startswith("<urn:uuid:")
        page = tmp_path / "page.html"
        page.write_bytes(pages[r["url"]])
        (expected,) = cli("extract", "--url", r["url"], str(page))
        assert r["text"] == expected["text"], r["url"]


def test_sitelevel_job_matches_the_cli(warcs, cli, tmp_path):
    d, pages = warcs
    rows = run_job("sitelevel_job.py", str(tmp_path / "out"), str(d / "a.warc.gz"), str(d / "b.warc.gz"))
    by_url = {r["url"]: r for r in rows}
    assert set(by_url) == set(pages)
    news = sorted(u for u in pages if "news.example.com" in u)
    site_dir = tmp_path / "sites" / "example.com"
    site_dir.mkdir(parents=True)
    for k, url in enumerate(news):
        (site_dir / f"p{k}.html").write_bytes(pages[url])
    expected = cli("sitelevel", "--site-dir", str(tmp_path / "sites"))
    assert [by_url[u]["labels"] for u in news] == [line["labels"] for line in expected]
    assert all(by_url[u]["site"] == "example.com" and by_url[u]["sitelevel"] for u in news)
    # The shop's pages, too few for SiteLevel, get PageLevel's labels, as the CLI's fallback.
    shop = [u for u in pages if "shop.example.org" in u]
    assert shop
    for u in shop:
        assert by_url[u]["site"] == "example.org"
        assert by_url[u]["sitelevel"] is False
        page = tmp_path / "shop" / (u.rsplit("/", 1)[1] + ".html")
        page.parent.mkdir(exist_ok=True)
        page.write_bytes(pages[u])
        list_file = tmp_path / "shop.list"
        list_file.write_text(f"{page}\t{u}\n")
        (line,) = cli("sitelevel", "--input-list", str(list_file))
        assert (line["sitelevel"], line["labels"]) == (False, by_url[u]["labels"]), u


def refusal(script: str, out: Path) -> str:
    return f"{script}: error: {out} already exists (give --overwrite to replace it)"


@pytest.mark.parametrize("script", ["extract_job.py", "sitelevel_job.py"])
def test_an_existing_output_folder_is_refused_before_spark_starts(warcs, tmp_path, script):
    d, _ = warcs
    out = tmp_path / "out"
    out.mkdir()
    (out / "part-00000").write_text("earlier\n")
    done = spark_job(script, str(out), str(d / "a.warc.gz"))
    assert done.returncode == 2
    assert done.stderr.splitlines() == [refusal(script, out)]
    assert (out / "part-00000").read_text() == "earlier\n"
    # The same for a file: URI.
    done = spark_job(script, out.as_uri(), str(d / "a.warc.gz"))
    assert done.returncode == 2 and "already exists" in done.stderr


def test_an_existing_output_folder_is_refused_by_the_writer_under_spark_submit(warcs, tmp_path):
    # The master comes from spark-submit, so the plain path may be on HDFS: Spark starts, its
    # writer refuses the folder before any record is read, and the error is still one line.
    d, _ = warcs
    out = tmp_path / "out"
    out.mkdir()
    (out / "part-00000").write_text("earlier\n")
    done = spark_job("extract_job.py", str(out), str(d / "a.warc.gz"), master=None)
    assert done.returncode == 2, done.stderr[-3000:]
    assert refusal("extract_job.py", out) in done.stderr.splitlines()
    assert "Traceback" not in done.stderr and "\tat org.apache" not in done.stderr
    assert (out / "part-00000").read_text() == "earlier\n"
