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

impl Page {
    /// Decodes and parses raw bytes. `charset` is a transport-level label (HTTP, WARC).
    /// Size and node limits apply, not the time limit (see [`Page::from_bytes_within`]).
    pub fn from_bytes(
        bytes: &[u8],
        url: Option<&str>,
        charset: Option<&str>,
        limits: &Limits,
    ) -> Result<Page> {
        Page::from_bytes_within(bytes, url, charset, limits, &Deadline::none())
    }

    /// Like [`Page::from_bytes`], stopping with [`crate::Error::Timeout`] once `deadline`
    /// passes; bytes over `limits.max_input_bytes` are [`crate::Error::TooLarge`].
    pub fn from_bytes_within(
        bytes: &[u8],
        url: Option<&str>,
        charset: Option<&str>,
        limits: &Limits,
        deadline: &Deadline,
    ) -> Result<Page> {
        Page::from_bytes_with(bytes, url, charset, limits, deadline, Spans::Skip)
    }

    /// Like [`Page::from_bytes_within`], with source spans when `spans` is [`Spans::Keep`].
    /// Bytes a browser would not render as HTML or text (an image, a PDF, binary data:
    /// [`crate::decode::sniff::binary_kind`]) are [`crate::Error::NotHtml`].
    pub fn from_bytes_with(
        bytes: &[u8],
        url: Option<&str>,
        charset: Option<&str>,
        limits: &Limits,
        deadline: &Deadline,
        spans: Spans,
    ) -> Result<Page> {
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
        let mut decoded = decode_for_url(bytes, charset, url);
        dom::close_unterminated_title(&mut decoded.text);
        deadline.check("decode")?;
        let dom = match spans {
            Spans::Skip => dom::parse_plain_within(&decoded.text, limits, deadline)?,
            Spans::Keep => dom::parse_within(&decoded.text, limits, deadline)?,
        };
        Ok(Page {
            html: decoded.text,
            dom,
            url: url.map(str::to_owned),
            encoding: decoded.encoding.name(),
            charset_source: decoded.source,
        })
    }

    /// Reads a `.html` or `.html.gz` file and parses it, without the time limit.
    pub fn from_path(path: &Path, url: Option<&str>, limits: &Limits) -> Result<Page> {
        Page::from_path_within(path, url, limits, &Deadline::none())
    }

    /// Like [`Page::from_path`], stopping with [`crate::Error::Timeout`] once `deadline` passes.
    pub fn from_path_within(
        path: &Path,
        url: Option<&str>,
        limits: &Limits,
        deadline: &Deadline,
    ) -> Result<Page> {
        Page::from_path_with(path, url, limits, deadline, Spans::Skip)
    }

    /// Like [`Page::from_path_within`], with source spans when `spans` is [`Spans::Keep`].
    pub fn from_path_with(
        path: &Path,
        url: Option<&str>,
        limits: &Limits,
        deadline: &Deadline,
        spans: Spans,
    ) -> Result<Page> {
        let bytes = input::read_page(path, limits)?;
        deadline.check("read")?;
        Page::from_bytes_with(&bytes, url, None, limits, deadline, spans)
    }
}
