from collections.abc import Sequence
from typing import Literal, TypedDict, final, overload

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

FORMATS: list[str]

class PageLevelError(ValueError):
    """A page could not be read or analysed, or SiteLevel could not label a site."""

class _Box(TypedDict):
    x: float
    y: float
    w: float
    h: float

class _Segment(TypedDict):
    id: int
    path: str
    tag: str
    span: list[int] | None
    box: _Box
    score: float
    template: bool
    words: int
    parent: int | None

class _Label(TypedDict):
    path: str
    template: bool

class _PageLabels(TypedDict):
    url: str | None
    labels: list[_Label]

class _Metadata(TypedDict, total=False):
    """A page's metadata; a field the page does not give is absent (never an empty string)."""

    title: str
    author: str
    date: str
    date_modified: str
    language: str
    description: str
    site_name: str
    url: str
    image: str
    categories: list[str]
    tags: list[str]
    type: str

class _ExtractWithMetadata(_Metadata, total=False):
    """`extract(..., with_metadata=True)`: the content in `text`, and the metadata fields."""

    text: str

@overload
def extract(
    html: bytes | str,
    url: str | None = None,
    format: Literal["text", "json", "markdown", "html"] | str = "text",
    timeout_ms: int = 10000,
    without_rules: Sequence[str] | None = None,
    parser: Literal["fast", "html5ever"] | str = "fast",
    with_metadata: Literal[False] = False,
) -> str: ...
@overload
def extract(
    html: bytes | str,
    url: str | None = None,
    format: Literal["text", "json", "markdown", "html"] | str = "text",
    timeout_ms: int = 10000,
    without_rules: Sequence[str] | None = None,
    parser: Literal["fast", "html5ever"] | str = "fast",
    *,
    with_metadata: Literal[True],
) -> _ExtractWithMetadata:
    """The page's main content: "text" (one block per line), "json" ({"url", "text"}),
    "markdown" (headings, lists, tables, code blocks) or "html" (minimal clean HTML).
    `without_rules` switches off rules that run after the model (names as `rules()` gives
    them; ValueError for another name). `parser` picks the fast parser (the default) or
    html5ever, its reference, which builds the same tree (ValueError for another name).
    With `with_metadata=True`, a dict: `text` and the page's metadata fields (as
    `metadata()` gives them).

    Bytes are decoded like the CLI does (BOM, <meta>, detection; gzip is unpacked); a str is
    taken as already decoded. Raises ValueError for an unknown format, PageLevelError when
    the page cannot be read, is not HTML, or takes over `timeout_ms` (0 = no limit).
    Ctrl-C interrupts the call.
    """

def metadata(html: bytes | str, url: str | None = None, timeout_ms: int = 10000) -> _Metadata:
    """The page's title (its own headline), author, date and date_modified (YYYY-MM-DD),
    language (BCP 47), description, site_name, url (canonical), image, categories, tags and
    type; absent fields are left out. PageLevelError as for `extract`."""

def segment(
    html: bytes | str,
    url: str | None = None,
    timeout_ms: int = 10000,
    parser: Literal["fast", "html5ever"] | str = "html5ever",
) -> list[_Segment]:
    """The page's segments, as in the "segments" of `pagelevel segment`; PageLevelError past
    `timeout_ms` (0 = no limit). `parser` as for `extract`, but html5ever by default: the
    segments' source spans of the fast parser differ on some pages."""

def rules() -> list[tuple[str, str]]:
    """The rules that run after the model, in order, as (name, description) pairs."""

def site(url: str) -> str | None:
    """The registrable domain of a URL (public suffix list), as `pagelevel sitelevel` groups
    pages; None when the URL has no http(s) host."""

@final
class SiteLevel:
    """SiteLevel(θ): subtrees occurring on at least max(2, ⌈θ·N⌉) of a site's N pages are template."""

    def __new__(cls, theta: float = 0.1) -> SiteLevel: ...
    def add(
        self,
        url: str | None,
        html: bytes | str,
        timeout_ms: int = 10000,
        parser: Literal["fast", "html5ever"] | str = "fast",
    ) -> int:
        """Adds a page of the site; returns its index. Raises PageLevelError if it cannot be
        read or takes over `timeout_ms` (0 = no limit). `parser` as for `extract`."""
    def labels(self) -> list[_PageLabels]:
        """Per page in the order added, the template label of every element and text node
        (the lines of `pagelevel sitelevel`). Raises PageLevelError when the site has too few
        distinct pages."""
    def texts(self) -> list[str]:
        """Per page in the order added, its visible text outside templates
        (`pagelevel sitelevel --extract`)."""
    def __len__(self) -> int: ...
