//! One page through the first stages: read → decode → parse.

use std::path::Path;

use crate::config::Deadline;
use crate::decode::{decode_for_url, CharsetSource};
use crate::dom::{self, Dom};
use crate::{input, Limits, Result};

/// A decoded and parsed page.
#[derive(Debug, Clone)]
pub struct Page {
    /// The decoded source (with an unterminated `<title>` closed, see
    /// [`dom::close_unterminated_title`]); node spans, when kept, are byte offsets into it.
    pub html: String,
    /// The DOM arena.
    pub dom: Dom,
    /// The page's URL, when known (used by intra-site link features).
    pub url: Option<String>,
    /// The encoding the bytes were decoded with.
    pub encoding: &'static str,
    /// What decided the encoding.
    pub charset_source: CharsetSource,
}

/// Whether the parse records each node's byte span in the decoded source.
///
/// Spans cost about a tenth of the parse (html5ever is fed one tag at a time to learn where
/// each ends); nothing but span output needs them: features, scores and text are the same
/// either way.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Spans {
    /// Every [`dom::Span`] unknown: the faster parse (extract, train, eval, dedup).
    #[default]
    Skip,
    /// Byte spans for every node that has a tag in the source (`segment`, `view`).
    Keep,
}

/// How a page is read: everything but its bytes. `PageOptions::default()` is a page with no
/// URL and no transport charset, the default [`Limits`], no deadline and no source spans.
#[derive(Debug, Clone, Default)]
pub struct PageOptions<'a> {
    /// The page's URL, when known (intra-site link features; a charset hint from the domain).
    pub url: Option<&'a str>,
    /// The transport's charset label (HTTP `Content-Type`, a WARC record's), when there is one.
    pub charset: Option<&'a str>,
    /// Size, node and time limits. The time limit applies through `deadline`.
    pub limits: Limits,
    /// Stops the read with [`crate::Error::Timeout`] once it passes; `None`: no deadline.
    pub deadline: Option<&'a Deadline>,
    /// Whether the parse records source spans.
    pub spans: Spans,
    /// Which parser builds the arena ([`dom::Parser::Fast`] by default; its source spans are
    /// not yet html5ever's on every page, see `docs/parser.md`).
    pub parser: dom::Parser,
}

impl<'a> PageOptions<'a> {
    /// The default options with the page's URL.
    pub fn url(url: Option<&'a str>) -> PageOptions<'a> {
        PageOptions {
            url,
            ..PageOptions::default()
        }
    }
}

impl Page {
    /// Decodes and parses raw bytes. Bytes over `opts.limits.max_input_bytes` are
    /// [`crate::Error::TooLarge`]; bytes a browser would not render as HTML or text (an image, a
    /// PDF, binary data: [`crate::decode::sniff::binary_kind`]) are [`crate::Error::NotHtml`];
    /// a parse over `opts.limits.max_nodes` nodes is [`crate::Error::TooManyNodes`].
    pub fn from_bytes(bytes: &[u8], opts: &PageOptions) -> Result<Page> {
        let none = Deadline::none();
        let deadline = opts.deadline.unwrap_or(&none);
        let (url, limits) = (opts.url, &opts.limits);
        if bytes.len() as u64 > limits.max_input_bytes {
            return Err(crate::Error::TooLarge {
                what: url.unwrap_or("page").to_string(),
                size: bytes.len() as u64,
                limit: limits.max_input_bytes,
            });
        }
        if let Some(kind) = crate::decode::sniff::binary_kind(bytes) {
            return Err(crate::Error::NotHtml { kind });
        }
        let mut decoded = decode_for_url(bytes, opts.charset, url);
        dom::close_unterminated_title(&mut decoded.text);
        deadline.check("decode")?;
        let dom = match opts.spans {
            Spans::Skip => opts
                .parser
                .parse_plain_within(&decoded.text, limits, deadline)?,
            Spans::Keep => opts.parser.parse_within(&decoded.text, limits, deadline)?,
        };
        Ok(Page {
            html: decoded.text,
            dom,
            url: url.map(str::to_owned),
            encoding: decoded.encoding.name(),
            charset_source: decoded.source,
        })
    }

    /// Reads a `.html` or `.html.gz` file ([`crate::input::read_page`]) and parses it as
    /// [`Page::from_bytes`] does; `opts.charset` is not read (a file has no transport).
    pub fn from_path(path: &Path, opts: &PageOptions) -> Result<Page> {
        let bytes = input::read_page(path, &opts.limits)?;
        if let Some(deadline) = opts.deadline {
            deadline.check("read")?;
        }
        Page::from_bytes(
            &bytes,
            &PageOptions {
                charset: None,
                ..opts.clone()
            },
        )
    }
}
