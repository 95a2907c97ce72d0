//! The crate's error type. Messages carry the numbers (sizes, limits) and, where known, the path.

use std::path::PathBuf;

/// Everything that can go wrong while reading, decoding or analysing one page.
///
/// One page's error never stops a batch: the binary reports it for that input and goes on.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The file could not be read.
    #[error("{path}: cannot read")]
    Io {
        /// The file.
        path: PathBuf,
        /// What the system said.
        #[source]
        source: std::io::Error,
    },
    /// The input (after gzip decompression) is larger than `Limits::max_input_bytes`.
    #[error("{what}: input is over the limit of {limit} bytes (at least {size} bytes)")]
    TooLarge {
        /// The input (a path, a URL, `<html>`).
        what: String,
        /// Its size in bytes, at least (reading stops at the limit).
        size: u64,
        /// The limit in bytes.
        limit: u64,
    },
    /// A `.gz` input is corrupt or truncated.
    #[error("{path}: corrupt or truncated gzip after {decompressed} bytes")]
    Gzip {
        /// The file.
        path: PathBuf,
        /// Bytes decompressed before the error.
        decompressed: u64,
        /// What the decompressor said.
        #[source]
        source: std::io::Error,
    },
    /// A WARC record could not be read.
    #[error("{path}: WARC record at offset {offset}: {source}")]
    Warc {
        /// The WARC file.
        path: PathBuf,
        /// The record's offset in the file.
        offset: u64,
        /// What was wrong with the record.
        #[source]
        source: WarcError,
    },
    /// A WARC record of a batch's input could not be read (its file is named beside it).
    #[error("WARC record at offset {offset}{}", skipped_bytes(*.len))]
    BadRecord {
        /// The record's offset in the file.
        offset: u64,
        /// Bytes skipped with it, when known ([`crate::input::warc::BadRecord::len`]).
        len: Option<u64>,
        /// What was wrong with the record.
        #[source]
        source: WarcError,
    },
    /// The parsed document has more nodes than `Limits::max_nodes`.
    #[error("document has more than {limit} nodes (limit)")]
    TooManyNodes {
        /// The limit.
        limit: usize,
    },
    /// The page took longer than `Limits::timeout_ms` (checked between stages and inside the parse).
    #[error("page took over the time limit of {limit_ms} ms (stopped in {stage})")]
    Timeout {
        /// The limit in milliseconds.
        limit_ms: u64,
        /// The stage that found the deadline passed.
        stage: &'static str,
    },
    /// The caller cancelled the page (a cancel flag on its [`crate::config::Deadline`]).
    #[error("cancelled (stopped in {stage})")]
    Cancelled {
        /// The stage that found the cancel flag set.
        stage: &'static str,
    },
    /// The input is not HTML: its first bytes are a binary format's signature, or binary
    /// control bytes (WHATWG MIME sniffing), e.g. an image, a PDF or random bytes.
    #[error("not HTML: {kind}")]
    NotHtml {
        /// What the bytes are (`a PDF document`, `binary data`, …).
        kind: &'static str,
    },
    /// A boxes file (browser-rendered geometry) could not be read or parsed.
    #[error("boxes file {path}: {message}")]
    Boxes {
        /// The boxes file.
        path: PathBuf,
        /// What was wrong.
        message: String,
    },
    /// A manifest line could not be parsed.
    #[error("{path}:{line}: bad manifest line: {message}")]
    Manifest {
        /// The manifest.
        path: PathBuf,
        /// The line number, from 1.
        line: usize,
        /// What was wrong.
        message: String,
    },
    /// The embedded or a given model could not be loaded.
    #[error("model: {0}")]
    Model(String),
    /// A request the input cannot meet (e.g. SiteLevel texts of pages without sites).
    #[error("{0}")]
    Invalid(String),
}

impl Error {
    /// A short name for the kind of error, for counting failures by kind (a batch's summary):
    /// `cannot read`, `too large`, `gzip`, `WARC record`, `too many nodes`, `time limit`,
    /// `cancelled`, `not HTML`, `boxes`, `manifest`, `model`, `invalid input`.
    pub fn kind(&self) -> &'static str {
        match self {
            Error::Io { .. } => "cannot read",
            Error::TooLarge { .. } => "too large",
            Error::Gzip { .. } => "gzip",
            Error::Warc { .. } | Error::BadRecord { .. } => "WARC record",
            Error::TooManyNodes { .. } => "too many nodes",
            Error::Timeout { .. } => "time limit",
            Error::Cancelled { .. } => "cancelled",
            Error::NotHtml { .. } => "not HTML",
            Error::Boxes { .. } => "boxes",
            Error::Manifest { .. } => "manifest",
            Error::Model(_) => "model",
            Error::Invalid(_) => "invalid input",
        }
    }
}

/// An error and its sources, each after `: ` (what `anyhow`'s `{:#}` prints), for messages
/// kept per page.
pub fn chain(e: &dyn std::error::Error) -> String {
    let mut out = e.to_string();
    let mut next = e.source();
    while let Some(s) = next {
        out.push_str(": ");
        out.push_str(&s.to_string());
        next = s.source();
    }
    out
}

/// `message` without a leading `path: ` (a library error that names its file, shown beside a
/// path the output prints already); `message` itself when it does not start so. O(len(path)).
pub fn strip_path<'a>(path: &str, message: &'a str) -> &'a str {
    message
        .strip_prefix(path)
        .and_then(|rest| rest.strip_prefix(": "))
        .unwrap_or(message)
}

/// ` (N bytes skipped)` when `len` is known, else nothing.
fn skipped_bytes(len: Option<u64>) -> String {
    len.map(|n| format!(" ({n} bytes skipped)"))
        .unwrap_or_default()
}

/// Shorthand for results of this crate.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// Why a record could not be read.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum WarcError {
    /// The gzip member holding the record is corrupt or ends early.
    #[error("corrupt or truncated gzip member: {0}")]
    Gzip(String),
    /// A gzip member decodes to more than the size limit without a record in it.
    #[error("gzip member decodes to more than {limit} bytes without a WARC record")]
    MemberTooLarge {
        /// The size limit in bytes.
        limit: u64,
    },
    /// The file ends inside the record.
    #[error("file ends inside the record ({read} of {declared} bytes)")]
    Truncated {
        /// The record's `Content-Length`.
        declared: u64,
        /// The bytes of its block the file holds.
        read: u64,
    },
    /// The record's block does not end where its `Content-Length` says.
    #[error("wrong Content-Length {declared}: {detail}")]
    ContentLength {
        /// The record's `Content-Length`.
        declared: u64,
        /// What follows the block instead of the record's end.
        detail: String,
    },
    /// The record header is malformed (or the record is cut: the next one starts inside it).
    #[error("bad WARC header: {0}")]
    Header(String),
    /// The record header does not end within [`MAX_HEADER_BYTES`](crate::input::warc::MAX_HEADER_BYTES).
    #[error("WARC header over {limit} bytes")]
    HeaderTooLong {
        /// The limit in bytes.
        limit: usize,
    },
    /// A `response` record whose payload is not an HTTP response.
    #[error("response payload is not HTTP: {0}")]
    NotHttp(String),
    /// The HTTP header does not end within [`MAX_HTTP_HEADER_BYTES`](crate::input::warc::MAX_HTTP_HEADER_BYTES).
    #[error("HTTP header over {limit} bytes")]
    HttpHeaderTooLong {
        /// The limit in bytes.
        limit: usize,
    },
    /// The HTTP body's `Content-Encoding` cannot be undone.
    #[error("{0}")]
    ContentEncoding(String),
    /// The record is larger than the limit.
    #[error("record of {size} bytes is over the limit of {limit} bytes")]
    TooLarge {
        /// The record's size in bytes (at least).
        size: u64,
        /// The limit in bytes.
        limit: u64,
    },
    /// Bytes between records that are not a record ([`Item::Junk`](crate::input::warc::Item::Junk)).
    #[error("{len} bytes that are not a WARC record, skipped to the next version line")]
    Junk {
        /// How many bytes were skipped.
        len: u64,
    },
    /// The file could not be read.
    #[error("cannot read: {0}")]
    Io(#[from] std::io::Error),
}
