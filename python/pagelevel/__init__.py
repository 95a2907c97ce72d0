"""pagelevel: page-level template detection, segmentation and main-content extraction.

The work is done in Rust (the ``pagelevel`` crate); each call releases the GIL while it runs,
so a thread pool over pages uses several cores.

    import pagelevel
    text = pagelevel.extract(html_bytes, url="https://example.com/a")
    page = pagelevel.extract(html_bytes, format="markdown", with_metadata=True)  # {"text", "title", …}
    segments = pagelevel.segment(html_bytes)
    meta = pagelevel.metadata(html_bytes, url="https://example.com/a")  # title, author, date…

    extractor = pagelevel.Extractor(format="markdown", keep_comments=True)  # options read once
    texts = extractor.extract_many([(html, url) for html, url in pages], threads=4)
"""

from ._pagelevel import (
    FORMATS,
    VARIANTS,
    Extractor,
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
    "VARIANTS",
    "Extractor",
    "PageLevelError",
    "SiteLevel",
    "extract",
    "metadata",
    "rules",
    "segment",
    "site",
]
