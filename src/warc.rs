//! Streaming reader of WARC files (`.warc`, `.warc.gz`): the HTML `response` records, one at a
//! time, without ever holding more than one record in memory.
//!
//! What it yields, per record in file order:
//! - [`Item::Page`]: a `response` record whose HTTP payload has an HTML content type
//!   (`text/html`, `application/xhtml+xml`): its `WARC-Record-ID`, `WARC-Target-URI`, the HTTP
//!   `Content-Type` charset and the HTTP body;
//! - [`Item::Bad`]: a record that cannot be read (truncated or corrupt gzip member, a
//!   `Content-Length` that does not end at the record's `\r\n\r\n`, a payload that is not HTTP,
//!   a record over the size limit), with what is known of it; reading goes on after it.
//!
//! Other records (`request`, `metadata`, `warcinfo`, non-HTML responses) are skipped and
//! counted in [`WarcReader::skipped`].
//!
//! Gzip: each member is decoded on its own (the WARC standard puts one record per member), so
//! a corrupt or truncated member is reported and reading resumes at the next member: the
//! reader seeks back to the start of the broken member and scans for the next gzip header.
//! A file that is one gzip member holding all records is read too. A record whose block runs
//! past the end of its member is reported as a wrong `Content-Length`.
//!
//! Plain files: after a record whose `Content-Length` does not end at its `\r\n\r\n` (or runs
//! past the file's end), the reader goes back to the start of that record's block and scans for
//! the next version line, so the records a too-long length swallowed are read (budgeted: see
//! `WarcReader::rescan_from`).
//!
//! HTTP: the status line and headers are parsed by `httparse`; `Transfer-Encoding: chunked` is
//! undone when the body is well-formed chunks, `Content-Encoding: gzip|deflate` always.
//!
//! Why the record framing is ours and not the `fastwarc` or `warc` crate's: neither reads on
//! after a corrupt gzip member (measured in `docs/warc.md`).
//!
//! Complexity: O(file size) time; memory O(largest record) (bounded by
//! [`Limits::max_input_bytes`]; a larger record is skipped without being buffered).

use std::fs::File;
use std::io::{self, BufRead, BufReader, Read, Seek, SeekFrom};
use std::path::Path;

use flate2::bufread::GzDecoder;

use crate::Limits;

/// The first three bytes of a gzip member (magic and the deflate method).
const GZIP_HEADER: [u8; 3] = [0x1f, 0x8b, 0x08];

/// Whether `path` names a WARC file: by extension (`.warc`, `.warc.gz`) or, for other
/// names, by its first bytes (`WARC/`, plain or inside gzip).
pub fn is_warc(path: &Path) -> bool {
    let name = path.to_string_lossy().to_ascii_lowercase();
    if name.ends_with(".warc") || name.ends_with(".warc.gz") {
        return true;
    }
    let Ok(mut f) = File::open(path) else {
        return false;
    };
    let mut head = [0u8; 512];
    let n = read_up_to(&mut f, &mut head).unwrap_or(0);
    let head = &head[..n];
    if head.starts_with(b"WARC/") {
        return true;
    }
    if head.starts_with(&GZIP_HEADER[..2]) {
        let mut d = GzDecoder::new(head);
        let mut out = [0u8; 5];
        return read_up_to(&mut d, &mut out).is_ok_and(|n| &out[..n] == b"WARC/");
    }
    false
}

fn read_up_to(r: &mut impl Read, buf: &mut [u8]) -> io::Result<usize> {
    let mut n = 0;
    while n < buf.len() {
        match r.read(&mut buf[n..]) {
            Ok(0) => break,
            Ok(k) => n += k,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(n)
}

/// Reads the HTML record at `offset` of the WARC file `path` (a [`WarcPage::offset`] or
/// [`BadRecord::offset`] of an earlier pass) and parses it within `limits` (its time limit
/// included); a bad record fails again with its error. Opens the file once per call.
pub fn page_at(path: &Path, offset: u64, limits: &Limits) -> crate::Result<crate::Page> {
    let io = |source| crate::Error::Io {
        path: path.to_owned(),
        source,
    };
    let mut reader = WarcReader::open_at(path, offset, limits).map_err(io)?;
    match reader.next() {
        Some(Item::Page(w)) => crate::Page::from_bytes_within(
            &w.body,
            w.uri.as_deref(),
            w.charset.as_deref(),
            limits,
            &limits.deadline(),
        ),
        Some(Item::Bad(b)) => Err(crate::Error::Warc {
            path: path.to_owned(),
            offset,
            source: b.error,
        }),
        None => Err(io(io::Error::other(format!(
            "no record at offset {offset}"
        )))),
    }
}

/// Why a record could not be read.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum WarcError {
    /// The gzip member holding the record is corrupt or ends early.
    #[error("corrupt or truncated gzip member: {0}")]
    Gzip(String),
    /// The file ends inside the record.
    #[error("file ends inside the record ({read} of {declared} bytes)")]
    Truncated { declared: u64, read: u64 },
    /// The record's block does not end where its `Content-Length` says.
    #[error("wrong Content-Length {declared}: {detail}")]
    ContentLength { declared: u64, detail: String },
    /// The record header is malformed.
    #[error("bad WARC header: {0}")]
    Header(String),
    /// A `response` record whose payload is not an HTTP response.
    #[error("response payload is not HTTP: {0}")]
    NotHttp(String),
    /// The HTTP body's `Content-Encoding` cannot be undone.
    #[error("{0}")]
    ContentEncoding(String),
    /// The record is larger than the limit.
    #[error("record of {size} bytes is over the limit of {limit} bytes")]
    TooLarge { size: u64, limit: u64 },
    /// The file could not be read.
    #[error("cannot read: {0}")]
    Io(#[from] io::Error),
}

/// An HTML `response` record.
#[derive(Debug, Clone)]
pub struct WarcPage {
    /// `WARC-Record-ID`, as written (usually `<urn:uuid:…>`).
    pub record_id: String,
    /// `WARC-Target-URI`.
    pub uri: Option<String>,
    /// The `charset` parameter of the HTTP `Content-Type`.
    pub charset: Option<String>,
    /// The HTTP body (de-chunked, content encoding undone).
    pub body: Vec<u8>,
    /// Where the record starts in the file (compressed offset of its member for `.gz`).
    pub offset: u64,
}

/// A record that could not be read.
#[derive(Debug)]
pub struct BadRecord {
    /// `WARC-Record-ID`, when the header was read.
    pub record_id: Option<String>,
    /// `WARC-Target-URI`, when the header was read.
    pub uri: Option<String>,
    /// Where the record (or the broken gzip member) starts in the file.
    pub offset: u64,
    /// What is wrong.
    pub error: WarcError,
}

/// One item of a WARC file.
#[derive(Debug)]
pub enum Item {
    /// An HTML response.
    Page(WarcPage),
    /// A record reported and skipped.
    Bad(BadRecord),
}

/// Bytes in file order, decoding gzip member by member; a member's end reads as end of
/// input until [`Source::next_member`] moves on.
struct Source<R: BufRead + Seek> {
    /// The decoder of the current member (gzip files), or `None` after its end or an error.
    decoder: Option<GzDecoder<R>>,
    /// The raw reader while no member is being decoded (and always, for plain files).
    raw: Option<R>,
    gzip: bool,
    /// File offset of the current member's first byte.
    member_start: u64,
}

impl<R: BufRead + Seek> Source<R> {
    fn reader(&mut self) -> &mut R {
        match (&mut self.decoder, &mut self.raw) {
            (Some(d), _) => d.get_mut(),
            (None, Some(r)) => r,
            (None, None) => unreachable!("Source holds a decoder or a raw reader"),
        }
    }

    fn take_raw(&mut self) -> R {
        match (self.decoder.take(), self.raw.take()) {
            (Some(d), _) => d.into_inner(),
            (None, Some(r)) => r,
            (None, None) => unreachable!("Source holds a decoder or a raw reader"),
        }
    }

    /// Starts decoding the member at the current position; `false` at end of file.
    fn next_member(&mut self) -> io::Result<bool> {
        if !self.gzip {
            return Ok(false);
        }
        let mut raw = self.take_raw();
        let at_end = raw.fill_buf().map(<[u8]>::is_empty);
        self.member_start = raw.stream_position()?;
        match at_end {
            Ok(false) => {
                self.decoder = Some(GzDecoder::new(raw));
                Ok(true)
            }
            Ok(true) => {
                self.raw = Some(raw);
                Ok(false)
            }
            Err(e) => {
                self.raw = Some(raw);
                Err(e)
            }
        }
    }

    /// After an error inside the member that started at `member_start`: scans from the
    /// byte after that start to the next gzip header and starts decoding there.
    fn recover(&mut self) -> io::Result<bool> {
        let mut raw = self.take_raw();
        raw.seek(SeekFrom::Start(self.member_start + 1))?;
        // Bytes of the header matched so far; a header may straddle two buffers.
        let mut matched = 0usize;
        loop {
            let buf = raw.fill_buf()?;
            if buf.is_empty() {
                self.raw = Some(raw);
                return Ok(false);
            }
            let mut found = None;
            for (k, &b) in buf.iter().enumerate() {
                matched = if b == GZIP_HEADER[matched] {
                    matched + 1
                } else {
                    usize::from(b == GZIP_HEADER[0])
                };
                if matched == GZIP_HEADER.len() {
                    found = Some(k);
                    break;
                }
            }
            let len = buf.len();
            match found {
                Some(k) => {
                    raw.consume(k + 1);
                    let pos = raw.stream_position()?;
                    raw.seek(SeekFrom::Start(pos - GZIP_HEADER.len() as u64))?;
                    break;
                }
                None => raw.consume(len),
            }
        }
        self.raw = Some(raw);
        self.next_member()
    }
}

impl<R: BufRead + Seek> Read for Source<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        match &mut self.decoder {
            Some(d) => d.read(buf),
            None if self.gzip => Ok(0),
            None => self.reader().read(buf),
        }
    }
}

/// Reads the HTML `response` records of a WARC file one at a time; see the [module docs](self).
pub struct WarcReader<R: BufRead + Seek> {
    input: BufReader<Source<R>>,
    limits: Limits,
    /// Records skipped because they are not HTML responses.
    skipped: u64,
    /// Uncompressed bytes consumed (the record offset of plain files).
    consumed: u64,
    /// Bytes read again after wrong lengths (plain files; see `rescan_from`).
    rescanned: u64,
    done: bool,
}

/// Bytes a plain file may always re-read after wrong `Content-Length`s, however short it is.
const RESCAN_MIN_BUDGET: u64 = 1 << 20;

impl WarcReader<BufReader<File>> {
    /// Opens a WARC file; gzip is recognised by its magic bytes.
    pub fn open(path: &Path, limits: &Limits) -> io::Result<Self> {
        let file = BufReader::with_capacity(256 << 10, File::open(path)?);
        Self::new(file, limits)
    }
}

impl WarcReader<BufReader<File>> {
    /// Opens a WARC file at `offset`, a record's [`WarcPage::offset`] (or [`BadRecord::offset`]):
    /// its first item is that record.
    pub fn open_at(path: &Path, offset: u64, limits: &Limits) -> io::Result<Self> {
        let mut file = BufReader::with_capacity(64 << 10, File::open(path)?);
        let gzip = file.fill_buf()?.starts_with(&GZIP_HEADER[..2]);
        file.seek(SeekFrom::Start(offset))?;
        let mut reader = Self::with_gzip(file, gzip, limits)?;
        reader.consumed = offset;
        Ok(reader)
    }
}

impl<R: BufRead + Seek> WarcReader<R> {
    /// Reads WARC records from `raw` (plain or gzip, told by the first bytes).
    pub fn new(mut raw: R, limits: &Limits) -> io::Result<Self> {
        let gzip = raw.fill_buf()?.starts_with(&GZIP_HEADER[..2]);
        Self::with_gzip(raw, gzip, limits)
    }

    fn with_gzip(raw: R, gzip: bool, limits: &Limits) -> io::Result<Self> {
        let mut source = Source {
            decoder: None,
            raw: Some(raw),
            gzip,
            member_start: 0,
        };
        source.next_member()?;
        Ok(WarcReader {
            input: BufReader::with_capacity(64 << 10, source),
            limits: *limits,
            skipped: 0,
            consumed: 0,
            rescanned: 0,
            done: false,
        })
    }

    /// Records skipped so far because they are not HTML `response` records.
    pub fn skipped(&self) -> u64 {
        self.skipped
    }

    /// Reads a line (with its `\n`) into `line`; at the end of a gzip member moves to the next
    /// one. `Ok(false)` at end of file.
    fn line(&mut self, line: &mut Vec<u8>) -> io::Result<bool> {
        line.clear();
        loop {
            let n = self.input.read_until(b'\n', line)?;
            self.consumed += n as u64;
            if line.ends_with(b"\n") {
                return Ok(true);
            }
            if n == 0 && !line.is_empty() {
                return Ok(true);
            }
            if n == 0 && !self.input.get_mut().next_member()? {
                return Ok(!line.is_empty());
            }
        }
    }

    /// Reads up to `n` bytes of the current member into `out`; stops early at the member's
    /// (or file's) end.
    fn block(&mut self, n: u64, out: &mut Vec<u8>) -> io::Result<u64> {
        let got = (&mut self.input).take(n).read_to_end(out)? as u64;
        self.consumed += got;
        Ok(got)
    }

    /// Skips `n` bytes of the current member; returns how many there were.
    fn skip(&mut self, n: u64) -> io::Result<u64> {
        let got = io::copy(&mut (&mut self.input).take(n), &mut io::sink())?;
        self.consumed += got;
        Ok(got)
    }

    /// Plain files, after a record whose `Content-Length` is wrong: goes back to the start of
    /// its block, so that the scan for the next version line finds the records a too-long
    /// length swallowed (a too-short one is found either way). Progress is kept: the record's
    /// version line and header lie before `pos`. Re-reading is budgeted (as many bytes again
    /// as the file has given so far, at least [`RESCAN_MIN_BUDGET`]), so that a file of
    /// records that all claim to run to its end is read in linear time, not quadratic; past
    /// the budget, `false` and nothing is re-read.
    fn rescan_from(&mut self, pos: u64) -> bool {
        let back = self.consumed.saturating_sub(pos);
        if self.rescanned + back > self.consumed.max(RESCAN_MIN_BUDGET) {
            return false;
        }
        self.rescanned += back;
        let buffered = self.input.buffer().len();
        self.input.consume(buffered);
        match self.input.get_mut().reader().seek(SeekFrom::Start(pos)) {
            Ok(_) => self.consumed = pos,
            Err(_) => self.done = true,
        }
        true
    }

    /// Drops what is buffered of a broken member and resumes at the next one.
    fn recover(&mut self) {
        let buffered = self.input.buffer().len();
        self.input.consume(buffered);
        match self.input.get_mut().recover() {
            Ok(true) => {}
            Ok(false) | Err(_) => self.done = true,
        }
    }

    /// The next HTML page or bad record; `None` at end of file.
    fn next_item(&mut self) -> Option<Item> {
        let mut line = Vec::new();
        loop {
            if self.done {
                return None;
            }
            // Find the version line, skipping blank lines and stray bytes. The record starts
            // where its version line does: in its gzip member, or at the plain offset before it.
            let before = self.consumed;
            let read = self.line(&mut line);
            let start = if self.input.get_ref().gzip {
                self.input.get_ref().member_start
            } else {
                before
            };
            match read {
                Ok(false) => {
                    self.done = true;
                    return None;
                }
                Ok(true) if line.starts_with(b"WARC/") => {}
                Ok(true) => continue,
                Err(e) => return Some(self.gzip_failure(start, None, None, e)),
            }
            match self.record(start, &mut line) {
                Ok(Some(item)) => return Some(item),
                Ok(None) => self.skipped += 1,
                Err(item) => return Some(self.after_bad(item)),
            }
        }
    }

    /// After a bad record in a gzip file: the rest of its member is dropped (one record per
    /// member), and when the member itself is broken that is what the record reports.
    fn after_bad(&mut self, item: Item) -> Item {
        let Item::Bad(b) = item else { return item };
        if !self.input.get_ref().gzip || self.done || matches!(b.error, WarcError::Gzip(_)) {
            return Item::Bad(b);
        }
        if self.input.get_ref().decoder.is_none() {
            // The record ended exactly at its member's end, which is already behind us.
            return Item::Bad(b);
        }
        match io::copy(&mut self.input, &mut io::sink()) {
            Ok(_) => {
                if self.input.get_mut().next_member().is_err() {
                    self.done = true;
                }
                Item::Bad(b)
            }
            Err(e) => self.gzip_failure(b.offset, b.record_id, b.uri, e),
        }
    }

    fn gzip_failure(
        &mut self,
        offset: u64,
        record_id: Option<String>,
        uri: Option<String>,
        e: io::Error,
    ) -> Item {
        let gzip = self.input.get_ref().gzip;
        let offset = if gzip {
            self.input.get_ref().member_start
        } else {
            offset
        };
        if gzip {
            self.recover();
        } else {
            self.done = true;
        }
        let error = if gzip {
            WarcError::Gzip(e.to_string())
        } else {
            WarcError::Io(e)
        };
        Item::Bad(BadRecord {
            record_id,
            uri,
            offset,
            error,
        })
    }

    /// Reads the record whose version line is in `line`: `Ok(None)` when it is skipped.
    fn record(&mut self, start: u64, line: &mut Vec<u8>) -> Result<Option<Item>, Item> {
        let mut warc_type = None;
        let mut record_id = None;
        let mut uri = None;
        let mut length = None;
        loop {
            match self.line(line) {
                Ok(true) => {}
                Ok(false) => {
                    self.done = true;
                    return Err(bad(
                        start,
                        record_id,
                        uri,
                        WarcError::Header("file ends inside the header".into()),
                    ));
                }
                Err(e) => return Err(self.gzip_failure(start, record_id, uri, e)),
            }
            let text = String::from_utf8_lossy(line);
            let text = text.trim_end_matches(['\r', '\n']);
            if text.is_empty() {
                break;
            }
            let Some((name, value)) = text.split_once(':') else {
                continue;
            };
            let value = value.trim().to_string();
            match name.trim().to_ascii_lowercase().as_str() {
                "warc-type" => warc_type = Some(value),
                "warc-record-id" => record_id = Some(value),
                "warc-target-uri" => uri = Some(value.trim_matches(['<', '>']).to_string()),
                "content-length" => length = Some(value),
                _ => {}
            }
        }
        // Plain files: where a record with a wrong length is scanned again from.
        let block_start = self.consumed;
        let Some(Ok(declared)) = length.as_deref().map(str::parse::<u64>) else {
            return Err(bad(
                start,
                record_id,
                uri,
                WarcError::Header(format!("no valid Content-Length ({length:?})")),
            ));
        };
        let wanted = warc_type.as_deref() == Some("response");
        let too_large = declared > self.limits.max_input_bytes;
        let mut block = Vec::new();
        let read = if wanted && !too_large {
            block.reserve(declared.min(64 << 20) as usize);
            self.block(declared, &mut block)
        } else {
            self.skip(declared)
        };
        let read = match read {
            Ok(n) => n,
            Err(e) => return Err(self.gzip_failure(start, record_id, uri, e)),
        };
        if read < declared {
            let gzip = self.input.get_ref().gzip;
            // A whole gzip member that ends early has a wrong length (a cut file fails the
            // member's checksum instead); `after_bad` moves on to the next member.
            let error = if gzip {
                WarcError::ContentLength {
                    declared,
                    detail: format!("the record's gzip member ends after {read} bytes"),
                }
            } else {
                if !self.rescan_from(block_start) {
                    self.done = true;
                }
                WarcError::Truncated { declared, read }
            };
            return Err(bad(start, record_id, uri, error));
        }
        // The block must be followed by the record's `\r\n\r\n` (or the member's end).
        let mut trailer = Vec::with_capacity(4);
        match self.block(4, &mut trailer) {
            Ok(_) if trailer == b"\r\n\r\n" || trailer.is_empty() => {}
            Ok(_) => {
                if !self.input.get_ref().gzip {
                    // Past the budget the scan goes on after the block, as for a short length.
                    self.rescan_from(block_start);
                }
                return Err(bad(
                    start,
                    record_id,
                    uri,
                    WarcError::ContentLength {
                        declared,
                        detail: format!(
                            "the block is followed by {:?}, not \\r\\n\\r\\n",
                            String::from_utf8_lossy(&trailer)
                        ),
                    },
                ));
            }
            Err(e) => return Err(self.gzip_failure(start, record_id, uri, e)),
        }
        if !wanted {
            return Ok(None);
        }
        if too_large {
            let limit = self.limits.max_input_bytes;
            let error = WarcError::TooLarge {
                size: declared,
                limit,
            };
            return Err(bad(start, record_id, uri, error));
        }
        let http = match parse_http(&block) {
            Ok(h) => h,
            Err(msg) => return Err(bad(start, record_id, uri, WarcError::NotHttp(msg))),
        };
        if !http.html {
            return Ok(None);
        }
        let mut body = block.split_off(http.body_start);
        if http.chunked {
            body = dechunk(&body).unwrap_or(body);
        }
        if let Some(enc) = &http.encoding {
            body = match decode_content(&body, enc, self.limits.max_input_bytes) {
                Ok(b) => b,
                Err(msg) => {
                    return Err(bad(start, record_id, uri, WarcError::ContentEncoding(msg)))
                }
            };
        }
        Ok(Some(Item::Page(WarcPage {
            record_id: record_id.unwrap_or_default(),
            uri,
            charset: http.charset,
            body,
            offset: start,
        })))
    }
}

fn bad(offset: u64, record_id: Option<String>, uri: Option<String>, error: WarcError) -> Item {
    Item::Bad(BadRecord {
        record_id,
        uri,
        offset,
        error,
    })
}

impl<R: BufRead + Seek> Iterator for WarcReader<R> {
    type Item = Item;

    fn next(&mut self) -> Option<Item> {
        self.next_item()
    }
}

/// What the HTTP header of a response says.
#[derive(Debug, PartialEq)]
struct Http {
    body_start: usize,
    html: bool,
    charset: Option<String>,
    chunked: bool,
    /// `Content-Encoding` (lower case) when it is not `identity`.
    encoding: Option<String>,
}

/// Most header lines an HTTP response may have (more is reported as a bad record).
const MAX_HTTP_HEADERS: usize = 256;

/// Parses an HTTP response's status line and headers with `httparse` (bare `\n` line ends,
/// spaces before the colon and folded lines are accepted, as servers send them). A response
/// without `Content-Type` counts as HTML (browsers sniff; the HTML parser copes).
fn parse_http(block: &[u8]) -> Result<Http, String> {
    let mut headers = vec![httparse::EMPTY_HEADER; MAX_HTTP_HEADERS];
    let mut response = httparse::Response::new(&mut headers);
    let status = httparse::ParserConfig::default()
        .allow_spaces_after_header_name_in_responses(true)
        .allow_obsolete_multiline_headers_in_responses(true)
        .allow_multiple_spaces_in_response_status_delimiters(true)
        .parse_response(&mut response, block);
    let body_start = match status {
        Ok(httparse::Status::Complete(n)) => n,
        Ok(httparse::Status::Partial) => return Err("the HTTP header does not end".into()),
        Err(e) => {
            let head = String::from_utf8_lossy(&block[..block.len().min(20)]).into_owned();
            return Err(format!("{e} (starts with {head:?})"));
        }
    };
    let value = |name: &str| {
        response
            .headers
            .iter()
            .find(|h| h.name.eq_ignore_ascii_case(name))
            .map(|h| String::from_utf8_lossy(h.value).trim().to_ascii_lowercase())
    };
    let chunked = value("transfer-encoding").is_some_and(|v| v.contains("chunked"));
    let encoding = value("content-encoding").filter(|v| !v.is_empty() && v != "identity");
    let (html, charset) = match value("content-type") {
        None => (true, None),
        Some(ct) => {
            let mut parts = ct.split(';');
            let mime = parts.next().unwrap_or("").trim();
            let charset = parts.find_map(|p| {
                let (k, v) = p.split_once('=')?;
                (k.trim() == "charset").then(|| v.trim().trim_matches(['"', '\'']).to_string())
            });
            (
                mime == "text/html" || mime == "application/xhtml+xml",
                charset,
            )
        }
    };
    Ok(Http {
        body_start,
        html,
        charset,
        chunked,
        encoding,
    })
}

/// Undoes `Content-Encoding: gzip|x-gzip|deflate` (zlib-wrapped or raw deflate), at most
/// `limit` bytes of output; other encodings (br, zstd) are an error.
fn decode_content(body: &[u8], encoding: &str, limit: u64) -> Result<Vec<u8>, String> {
    use flate2::read::{DeflateDecoder, MultiGzDecoder, ZlibDecoder};
    fn all(r: impl Read, limit: u64) -> io::Result<Vec<u8>> {
        let mut out = Vec::new();
        r.take(limit.saturating_add(1)).read_to_end(&mut out)?;
        if out.len() as u64 > limit {
            return Err(io::Error::other(format!(
                "decoded body over the limit of {limit} bytes"
            )));
        }
        Ok(out)
    }
    let result = match encoding {
        "gzip" | "x-gzip" => all(MultiGzDecoder::new(body), limit),
        "deflate" => {
            all(ZlibDecoder::new(body), limit).or_else(|_| all(DeflateDecoder::new(body), limit))
        }
        other => return Err(format!("unsupported Content-Encoding {other:?}")),
    };
    result.map_err(|e| format!("Content-Encoding {encoding}: {e}"))
}

/// Decodes a `Transfer-Encoding: chunked` body; `None` when it is not well-formed (crawlers
/// often store the body de-chunked but keep the header).
fn dechunk(body: &[u8]) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(body.len());
    let mut pos = 0;
    loop {
        let nl = memchr::memchr(b'\n', &body[pos..])?;
        let size_line = std::str::from_utf8(&body[pos..pos + nl]).ok()?;
        let size_hex = size_line.split(';').next()?.trim();
        let size = usize::from_str_radix(size_hex, 16).ok()?;
        pos += nl + 1;
        if size == 0 {
            return Some(out);
        }
        out.extend_from_slice(body.get(pos..pos.checked_add(size)?)?);
        pos += size;
        if body[pos..].starts_with(b"\r\n") {
            pos += 2;
        } else if body[pos..].starts_with(b"\n") {
            pos += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rereading_after_wrong_lengths_is_budgeted() {
        // 2,000 records that all claim to run 10 MB past the end: without a budget each would
        // re-read the rest of the file (quadratic); with it, rescans stop after about 1 MiB.
        let mut file = Vec::new();
        for k in 0..2000 {
            file.extend_from_slice(
                format!(
                    "WARC/1.1\r\nWARC-Type: response\r\nWARC-Record-ID: <urn:uuid:{k}>\r\n\
                     Content-Length: 10000000\r\n\r\nHTTP/1.1 200 OK\r\n\r\n<p>{k}</p>\r\n\r\n"
                )
                .as_bytes(),
            );
        }
        let reader = WarcReader::new(io::Cursor::new(&file[..]), &Limits::default()).unwrap();
        let items: Vec<Item> = reader.collect();
        assert!(
            items.len() >= 2 && items.len() < 20,
            "{} items",
            items.len()
        );
        for item in &items {
            let Item::Bad(b) = item else {
                panic!("{item:?}")
            };
            assert!(
                matches!(b.error, WarcError::Truncated { .. }),
                "{:?}",
                b.error
            );
        }
        // Re-read bytes stay within the budget (plus the last rescan's).
        let total: u64 = items
            .iter()
            .map(|i| match i {
                Item::Bad(b) => file.len() as u64 - b.offset,
                Item::Page(_) => 0,
            })
            .sum();
        assert!(
            total <= 2 * (RESCAN_MIN_BUDGET + file.len() as u64),
            "{total}"
        );
    }

    #[test]
    fn http_header_and_charset() {
        let h = parse_http(
            b"HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=\"ISO-8859-1\"\r\n\r\n<p>",
        )
        .unwrap();
        // 17 (status line) + 47 (Content-Type line) + 2 (blank line).
        assert_eq!(h.body_start, 66);
        assert!(h.html);
        assert_eq!(h.charset.as_deref(), Some("iso-8859-1"));
        let h = parse_http(b"HTTP/1.0 200 OK\nContent-Type: image/png\n\nPNG").unwrap();
        assert!(!h.html);
        assert!(parse_http(b"<html>").is_err());
        assert!(parse_http(b"HTTP/1.1 200 OK\r\nX: y").is_err());
    }

    #[test]
    fn content_encodings() {
        use std::io::Write;
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        gz.write_all(b"<p>hello</p>").unwrap();
        let gz = gz.finish().unwrap();
        assert_eq!(decode_content(&gz, "gzip", 100).unwrap(), b"<p>hello</p>");
        assert!(decode_content(&gz, "gzip", 5).is_err(), "over the limit");
        let mut z = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::fast());
        z.write_all(b"<p>zlib</p>").unwrap();
        assert_eq!(
            decode_content(&z.finish().unwrap(), "deflate", 100).unwrap(),
            b"<p>zlib</p>"
        );
        assert!(decode_content(b"<p>plain</p>", "gzip", 100).is_err());
        assert!(decode_content(b"x", "br", 100).is_err());
        let h = parse_http(b"HTTP/1.1 200 OK\r\nContent-Encoding: GZIP\r\n\r\n").unwrap();
        assert_eq!(h.encoding.as_deref(), Some("gzip"));
    }

    #[test]
    fn chunked_bodies() {
        assert_eq!(
            dechunk(b"4\r\nWiki\r\n5;x=1\r\npedia\r\n0\r\n\r\n").as_deref(),
            Some(&b"Wikipedia"[..])
        );
        assert_eq!(dechunk(b"<html>"), None);
    }
}
