from collections.abc import Iterable, Sequence
from typing import Generic, Literal, TypedDict, TypeVar, Union, final, overload
from typing_extensions import Required

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

FORMATS: list[str]
VARIANTS: list[str]

# What every call takes as a page: bytes are decoded as the CLI decodes files (BOM, <meta>,
# detection; gzip is unpacked); a str is taken as already decoded.
_Html = Union[bytes, bytearray, memoryview, str]
_Format = Literal["text", "json", "markdown", "html"]
_Variant = Literal["basic", "smooth", "viterbi", "smooth-viterbi", "tree-filter", "smooth-viterbi-tree"]
_Parser = Literal["fast", "html5ever"]

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

class _PageLabels(TypedDict, total=False):
    """A page's labels; `error` in their place for a page PageLevel could not analyse."""

    url: Required[str | None]
    sitelevel: Required[bool]
    labels: list[_Label]
    error: str

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
    html: _Html,
    url: str | None = None,
    *,
    format: _Format | str = "text",
    variant: _Variant | str = "tree-filter",
    keep_comments: bool = False,
    with_metadata: Literal[False] = False,
    include_links: bool = False,
    include_images: bool = False,
    timeout_ms: int = 10000,
    without_rules: Sequence[str] | None = None,
    parser: _Parser | str = "fast",
) -> str: ...
@overload
def extract(
    html: _Html,
    url: str | None = None,
    *,
    format: _Format | str = "text",
    variant: _Variant | str = "tree-filter",
    keep_comments: bool = False,
    with_metadata: Literal[True],
    include_links: bool = False,
    include_images: bool = False,
    timeout_ms: int = 10000,
    without_rules: Sequence[str] | None = None,
    parser: _Parser | str = "fast",
) -> _ExtractWithMetadata:
    """The page's main content: "text" (one block per line), "json" ({"url", "text"}),
    "markdown" (headings, lists, tables, code blocks) or "html" (minimal clean HTML).
    The options after `url` are keyword-only and named as `pagelevel extract`'s flags:
    `variant` (one of VARIANTS), `keep_comments` (comment threads under an article stay),
    `without_rules` (rules that run after the model switched off, names as `rules()` gives
    them), `parser` (the fast parser, the default, or html5ever, its reference, which builds
    the same tree). With `with_metadata=True`, a dict: `text` and the page's metadata fields
    (as `metadata()` gives them). `include_links` and `include_images` keep links (absolute
    against `url`) and images in "markdown" and "html", as `--links` and `--images` do.

    Bytes are decoded like the CLI does (BOM, <meta>, detection; gzip is unpacked); a str is
    taken as already decoded. Raises ValueError for an unknown format, variant, rule or
    parser, TypeError for an html of another type, PageLevelError when the page cannot be
    read, is not HTML, or takes over `timeout_ms` (0 = no limit). Ctrl-C interrupts the call.
    """

def metadata(html: _Html, url: str | None = None, timeout_ms: int = 10000) -> _Metadata:
    """The page's title (its own headline), author, date and date_modified (YYYY-MM-DD),
    language (BCP 47), description, site_name, url (canonical), image, categories, tags and
    type; absent fields are left out. PageLevelError as for `extract`."""

def segment(
    html: _Html,
    url: str | None = None,
    timeout_ms: int = 10000,
    parser: _Parser | str = "fast",
) -> list[_Segment]:
    """The page's segments, as in the "segments" of `pagelevel segment`; PageLevelError past
    `timeout_ms` (0 = no limit). `parser` as for `extract` (both give the same source
    spans)."""

def rules() -> list[tuple[str, str]]:
    """The rules that run after the model, in order, as (name, description) pairs."""

def site(url: str) -> str | None:
    """The registrable domain of a URL (public suffix list), as `pagelevel sitelevel` groups
    pages; None when the URL has no http(s) host."""

@final
class SiteLevel:
    """SiteLevel(θ): subtrees occurring on at least max(2, ⌈θ·N⌉) of a site's N pages are template.

    A site with too few distinct pages for SiteLevel gets PageLevel's labels and texts instead
    (`sitelevel` is then False), as `pagelevel sitelevel` gives them; with `fallback=False`,
    `labels` and `texts` raise PageLevelError for it."""

    def __new__(cls, theta: float = 0.1, *, fallback: bool = True) -> SiteLevel: ...
    def add(
        self,
        url: str | None,
        html: _Html,
        timeout_ms: int = 10000,
        parser: _Parser | str = "fast",
    ) -> int:
        """Adds a page of the site; returns its index. Raises PageLevelError if it cannot be
        read or takes over `timeout_ms` (0 = no limit). `parser` as for `extract`."""
    @property
    def sitelevel(self) -> bool:
        """Whether the labels and texts are SiteLevel's: False when the site has too few
        distinct pages and they are PageLevel's (the CLI's "sitelevel" field). Raises
        PageLevelError when SiteLevel refuses the site and there is no fallback."""
    def labels(self) -> list[_PageLabels]:
        """Per page in the order added, the template label of every element and text node
        (the lines of `pagelevel sitelevel`), with "sitelevel"; "error" instead of "labels"
        for a page PageLevel could not analyse. Raises PageLevelError when the site has too
        few distinct pages and there is no fallback."""
    def texts(self) -> list[str]:
        """Per page in the order added, its visible text outside templates
        (`pagelevel sitelevel --extract`): PageLevel's main text when `sitelevel` is False.
        Raises PageLevelError for the first page PageLevel could not analyse."""
    def __len__(self) -> int: ...

# What an Extractor's `extract` returns: a str, or a dict with `with_metadata=True`.
_Out = TypeVar("_Out", str, _ExtractWithMetadata)

@final
class Extractor(Generic[_Out]):
    """`extract`'s options, read and checked once, for many pages: `extract`, `metadata`,
    `segment` one page at a time, `extract_many` on a pool of threads without the GIL.
    ValueError and TypeError as for `extract()`, raised here."""

    @overload
    def __new__(
        cls,
        *,
        format: _Format | str = "text",
        variant: _Variant | str = "tree-filter",
        keep_comments: bool = False,
        with_metadata: Literal[False] = False,
        include_links: bool = False,
        include_images: bool = False,
        timeout_ms: int = 10000,
        without_rules: Sequence[str] | None = None,
        parser: _Parser | str | None = None,
    ) -> Extractor[str]: ...
    @overload
    def __new__(
        cls,
        *,
        format: _Format | str = "text",
        variant: _Variant | str = "tree-filter",
        keep_comments: bool = False,
        with_metadata: Literal[True],
        include_links: bool = False,
        include_images: bool = False,
        timeout_ms: int = 10000,
        without_rules: Sequence[str] | None = None,
        parser: _Parser | str | None = None,
    ) -> Extractor[_ExtractWithMetadata]:
        """Options as `extract()`'s; `parser=None` is the fast parser, as the CLI without
        `--parser`."""
    def extract(self, html: _Html, url: str | None = None) -> _Out:
        """As `extract(html, url, **options)`."""
    def metadata(self, html: _Html, url: str | None = None) -> _Metadata:
        """As `metadata(html, url)`, under this extractor's options."""
    def segment(self, html: _Html, url: str | None = None) -> list[_Segment]:
        """As `segment(html, url)`, under this extractor's options."""
    def extract_many(
        self, pages: Iterable[_Html | tuple[_Html, str | None]], threads: int = 0
    ) -> list[_Out | PageLevelError]:
        """`extract` over many pages, each an html or an (html, url) pair, on `threads`
        threads (0 = one per core) without the GIL. A list in input order: per page what
        `extract` returns or, when the page failed, the PageLevelError it would raise (not
        raised: the other pages' results stay). Equal for any `threads`. All pages are read
        in first; TypeError for an item of another type."""
    def __repr__(self) -> str: ...
