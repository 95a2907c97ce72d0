"""PySpark job: the main text of every HTML response record of some WARC files, as JSON Lines.

    spark-submit --master 'local[2]' examples/spark/extract_job.py OUT_DIR a.warc.gz b.warc.gz

One task per WARC file; each task streams its file's records through ``pagelevel.extract``
inside ``mapPartitions`` and writes one line per record:
``{"url", "record_id", "text"}`` or, when the page cannot be read, ``{"url", "record_id",
"error"}`` (the job goes on). WARC files are read by ``warc_reader.py`` next to this file
(shipped to the executors with ``addPyFile``), since the wheel has no WARC reader yet.
Prints the number of records and records/s of the Spark action on stderr.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
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


def extract_partition(paths: Iterable[str]) -> Iterator[str]:
    """JSON lines for every HTML record of the WARC files of one partition."""
    import pagelevel
    import warc_reader

    for path in paths:
        for url, record_id, html in warc_reader.html_records(path):
            row: dict[str, object] = {"url": url, "record_id": record_id}
            try:
                row["text"] = pagelevel.extract(html, url=url)
            except pagelevel.PageLevelError as e:
                row["error"] = str(e)
            yield json.dumps(row, ensure_ascii=False)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("output", help="output folder (JSON Lines part files), new unless --overwrite")
    ap.add_argument("warcs", nargs="+", help="WARC files (.warc or .warc.gz) readable by every executor")
    ap.add_argument("--overwrite", action="store_true", help="replace the output folder if it exists")
    ap.add_argument("--master", default=None, help="Spark master when not given by spark-submit")
    args = ap.parse_args(argv)
    if not args.overwrite and output_exists(args.output, args.master):
        return exists_error(ap.prog, args.output)

    from pyspark.sql import SparkSession

    builder = SparkSession.builder.appName("pagelevel-extract")
    if args.master:
        builder = builder.master(args.master)
    spark = builder.getOrCreate()
    sc = spark.sparkContext
    sc.addPyFile(os.path.join(HERE, "warc_reader.py"))
    paths = [os.path.abspath(p) for p in args.warcs]
    start = time.perf_counter()
    lines = sc.parallelize(paths, len(paths)).mapPartitions(extract_partition)
    if not write_lines(spark, lines, args.output, args.overwrite):
        spark.stop()
        return exists_error(ap.prog, args.output)
    elapsed = time.perf_counter() - start
    records = sc.textFile(args.output).count()
    print(
        f"extract_job: {records} records in {elapsed:.2f} s ({records / elapsed:.1f} records/s)",
        file=sys.stderr,
    )
    spark.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
