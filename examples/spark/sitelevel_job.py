"""PySpark job: SiteLevel(θ) template labels for the HTML records of some WARC files, per site.

    spark-submit --master 'local[2]' examples/spark/sitelevel_job.py OUT_DIR a.warc.gz ...

Records are keyed by their URL's registrable domain (``pagelevel.site``: public suffix list),
grouped with ``groupByKey``, and each site's pages (sorted by URL, so the result does not
depend on partitioning) go through one ``pagelevel.SiteLevel``. Writes one JSON line per page:
``{"site", "url", "sitelevel", "labels": [{"path", "template"}, …]}`` (with ``--extract``:
``{"site", "url", "sitelevel", "text"}``, the text outside templates), or ``{"site", "url",
"error"}`` for a page that cannot be read. The pages of a site with too few distinct pages for
SiteLevel get PageLevel's labels or main text with ``"sitelevel": false``, as ``pagelevel
sitelevel`` gives them. A site's pages are held in one executor's memory while it is labelled.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Iterable, Iterator
from urllib.parse import urlparse

HERE = os.path.dirname(os.path.abspath(__file__))


def output_exists(path: str, master: str | None) -> bool:
    """Whether the output folder exists, when it can be told before Spark starts: a ``file:``
    URI, or a plain path with a ``local[...]`` master (on a cluster a plain path may be on HDFS:
    Spark's writer checks those when the job starts, before any record is read)."""
    url = urlparse(path)
    if url.scheme == "file":
        return os.path.exists(url.path)
    return url.scheme == "" and (master or "").startswith("local") and os.path.exists(path)


def write_lines(spark, lines, path: str, overwrite: bool) -> bool:
    """Writes an RDD of strings as text part files under ``path`` with Spark's writer,
    ``mode("overwrite")`` replacing an existing folder; without ``overwrite``, False (nothing
    written) when the folder exists."""
    from pyspark.errors import AnalysisException

    frame = spark.createDataFrame(lines.map(lambda line: (line,)), "value string")
    try:
        frame.write.mode("overwrite" if overwrite else "errorifexists").text(path)
    except AnalysisException as e:
        if overwrite or "already exists" not in str(e).lower():
            raise
        return False
    return True


def exists_error(prog: str, path: str) -> int:
    """The one-line error for an existing output folder; the exit status 2, as argparse's."""
    print(f"{prog}: error: {path} already exists (give --overwrite to replace it)", file=sys.stderr)
    return 2


def site_records(paths: Iterable[str]) -> Iterator[tuple[str, tuple[str, bytes]]]:
    """(site, (url, html)) for every HTML record with a URL in the partition's WARC files."""
    import pagelevel
    import warc_reader

    for path in paths:
        for url, _, html in warc_reader.html_records(path):
            if url:
                yield pagelevel.site(url) or url, (url, html)


def label_site(
    site: str, pages: Iterable[tuple[str, bytes]], theta: float, extract: bool
) -> Iterator[str]:
    """JSON lines for the pages of one site."""
    import pagelevel

    run = pagelevel.SiteLevel(theta)
    added: list[str] = []
    for url, html in sorted(pages):
        try:
            run.add(url, html)
            added.append(url)
        except pagelevel.PageLevelError as e:
            yield json.dumps({"site": site, "url": url, "error": str(e)}, ensure_ascii=False)
    try:
        out = run.texts() if extract else run.labels()
        by_sitelevel = run.sitelevel
    except pagelevel.PageLevelError as e:
        # texts() stops at the first page PageLevel could not analyse (labels() says it per page).
        for url in added:
            yield json.dumps({"site": site, "url": url, "error": str(e)}, ensure_ascii=False)
        return
    for url, value in zip(added, out):
        row = {"site": site, "url": url, "sitelevel": by_sitelevel}
        if extract:
            row["text"] = value
        elif "error" in value:
            row["error"] = value["error"]
        else:
            row["labels"] = value["labels"]
        yield json.dumps(row, ensure_ascii=False)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("output", help="output folder (JSON Lines part files), new unless --overwrite")
    ap.add_argument("warcs", nargs="+", help="WARC files (.warc or .warc.gz) readable by every executor")
    ap.add_argument("--theta", type=float, default=0.1, help="SiteLevel θ (default 0.1)")
    ap.add_argument("--extract", action="store_true", help="write the text outside templates instead of labels")
    ap.add_argument("--overwrite", action="store_true", help="replace the output folder if it exists")
    ap.add_argument("--master", default=None, help="Spark master when not given by spark-submit")
    args = ap.parse_args(argv)
    if not args.overwrite and output_exists(args.output, args.master):
        return exists_error(ap.prog, args.output)

    from pyspark.sql import SparkSession

    builder = SparkSession.builder.appName("pagelevel-sitelevel")
    if args.master:
        builder = builder.master(args.master)
    spark = builder.getOrCreate()
    sc = spark.sparkContext
    sc.addPyFile(os.path.join(HERE, "warc_reader.py"))
    paths = [os.path.abspath(p) for p in args.warcs]
    theta, extract = args.theta, args.extract
    lines = (
        sc.parallelize(paths, len(paths))
        .mapPartitions(site_records)
        .groupByKey()
        .flatMap(lambda kv: label_site(kv[0], kv[1], theta, extract))
    )
    written = write_lines(spark, lines, args.output, args.overwrite)
    spark.stop()
    return 0 if written else exists_error(ap.prog, args.output)


if __name__ == "__main__":
    sys.exit(main())
