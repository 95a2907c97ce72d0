"""pagelevel: page-level template detection, segmentation and main-content extraction.

The work is done in Rust (the ``pagelevel`` crate); each call releases the GIL while it runs,
so a thread pool over pages uses several cores.

    import pagelevel
    text = pagelevel.extract(html_bytes, url="https://example.com/a")
    segments = pagelevel.segment(html_bytes)
    meta = pagelevel.metadata(html_bytes, url="https://example.com/a")  # title, author, date…
"""

from ._pagelevel import (
    FORMATS,
    PageLevelError,
    SiteLevel,
    extract,
    metadata,
    rules,
    segment,
    site,
)

__all__ = [
    "FORMATS",
    "PageLevelError",
    "SiteLevel",
    "extract",
    "metadata",
    "rules",
    "segment",
    "site",
]
