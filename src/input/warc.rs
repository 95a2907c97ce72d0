//! Streaming reader of WARC files (`.warc`, `.warc.gz`): the HTML `response` records, one at a
//! time, without ever holding more than one record in memory.
//!
//! What it yields, in file order:
//! - [`Item::Page`]: a `response` record whose HTTP payload has an HTML content type
//!   (`text/html`, `application/xhtml+xml`): its `WARC-Record-ID`, `WARC-Target-URI`, the HTTP
//!   `Content-Type` charset and the HTTP body;
//! - [`Item::Bad`]: a record that cannot be read (truncated or corrupt gzip member, a
//!   `Content-Length` that does not end at the record's `\r\n\r\n`, a header over
//!   [`MAX_HEADER_BYTES`], a payload that is not HTTP, a record over the size limit), with what
//!   is known of it and how many bytes of the file reading skipped with it; reading goes on
//!   after it;
//! - [`Item::Junk`]: bytes between records that are not a record (nothing but blank lines is
//!   not reported).
//!
//! Other records (`request`, `metadata`, `warcinfo`, non-HTML responses) are skipped and
//! counted in [`WarcReader::skipped`]. Every byte of the file is in a page, a skipped record, a
//! bad record's span or a junk span: nothing is lost without an item saying so.
//!
//! Resynchronisation: after a bad record or junk the reader scans for the next version line
//! (`WARC/1.0`, `WARC/1.1`: `WARC/`, digits, `.`, digits, the line's end) wherever it is, also
//! in the middle of a line (a record cut mid-line is followed by the next record's version line
//! on the same line). A header line that ends in a version line is a cut record. In a plain
//! seekable file the reader checks that a record's `Content-Length` ends at its `\r\n\r\n`
//! *before* reading the block (one positioned read), so a wrong length costs no re-reading and
//! the records a too-long length swallows are all read; holes of sparse files are skipped
//! without reading them. In a gzip file, or on a stream (a pipe, standard input), the block is
//! read first and, when its length proves wrong, its bytes are scanned again from memory
//! (budgeted, see `WarcReader::may_rescan`); a block that was not kept (over the size limit)
//! or past the budget is dropped, and the bad record's span says how much.
//!
//! Gzip: each member is decoded on its own (the WARC standard puts one record per member), so
//! a corrupt or truncated member is reported and reading resumes at the next member: the
//! reader goes back to the start of the broken member and scans for the next gzip header (on
//! a stream, the last 4 MiB of compressed input are kept for that). A file that is one gzip
//! member holding all records is read too. A member that decodes to more than
//! [`Limits::max_input_bytes`] without a record in it is dropped (decompression bombs).
//!
//! Bounds: a WARC header block is at most [`MAX_HEADER_BYTES`], an HTTP header block at most
//! [`MAX_HTTP_HEADER_BYTES`] (any number of header lines within it), a record block and a
//! decoded body at most [`Limits::max_input_bytes`]; nothing else is buffered.
//!
//! HTTP: the status line and headers are parsed by `httparse`; `Transfer-Encoding: chunked` is
//! undone when the body is well-formed chunks, `Content-Encoding: gzip|deflate|br|zstd` always
//! (a `gzip` or `zstd` body without its magic bytes, or any body that does not decode but
//! starts with `<`, was stored decoded and is taken as it is).
//!
//! [`Input::open`] opens a path once and tells a WARC file from a page by its first bytes
//! (FIFOs and `<(…)` process substitutions included); [`Input::from_reader`] does the same for
//! standard input.
//!
//! Why the record framing is ours and not the `fastwarc` or `warc` crate's: neither reads on
//! after a corrupt gzip member (measured in `docs/warc.md`).
//!
//! Complexity: O(file size) time; memory O(largest record) (bounded by
//! [`Limits::max_input_bytes`]; a larger record is skipped without being buffered).

use std::fs::File;
use std::io::{self, BufRead, Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};

use flate2::bufread::GzDecoder;

use crate::Limits;

/// The first three bytes of a gzip member (magic and the deflate method).
const GZIP_HEADER: [u8; 3] = [0x1f, 0x8b, 0x08];

/// The first four bytes of a zstd frame.
const ZSTD_MAGIC: [u8; 4] = [0x28, 0xb5, 0x2f, 0xfd];

/// Most bytes of a WARC record header (version line, named fields, blank line); a longer one is
/// a bad record ([`WarcError::HeaderTooLong`]).
pub const MAX_HEADER_BYTES: usize = 64 << 10;

/// Most bytes of an HTTP response header (status line, header lines, blank line), as browsers
/// accept (Chromium: 256 KiB); any number of header lines fits in it.
pub const MAX_HTTP_HEADER_BYTES: usize = 256 << 10;

/// Bytes read from the file at a time.
const CHUNK: usize = 256 << 10;

/// Decoded bytes a gzip file is read in at a time.
const DECODED_CHUNK: usize = 64 << 10;

/// Bytes a stream or gzip file may always scan again after wrong `Content-Length`s, however
/// short it is.
const RESCAN_MIN_BUDGET: u64 = 1 << 20;

/// Compressed bytes of the current gzip member kept on a stream (which cannot seek), so that a
/// broken member can be scanned again from its start.
const MEMBER_KEEP: usize = 4 << 20;

/// Longest version line looked at: `WARC/`, two numbers of up to 4 digits, spaces, `\r\n`.
const VERSION_LOOKAHEAD: usize = 32;

/// Whether `path` names a WARC file: by extension (`.warc`, `.warc.gz`) or, for other
/// names, by its first bytes (`WARC/`, plain or inside gzip). Opens the file: for inputs that
/// can be read only once (a FIFO), use [`Input::open`].
pub fn is_warc(path: &Path) -> bool {
    if named_warc(path) {
        return true;
    }
    let Ok(mut f) = File::open(path) else {
        return false;
    };
    let mut head = [0u8; 512];
    let n = read_up_to(&mut f, &mut head).unwrap_or(0);
    starts_warc(&head[..n])
}

/// Whether the name ends in `.warc` or `.warc.gz` (any case).
fn named_warc(path: &Path) -> bool {
    let name = path.to_string_lossy().to_ascii_lowercase();
    name.ends_with(".warc") || name.ends_with(".warc.gz")
}

/// Whether the first bytes of a file are a WARC version line, plain or gzipped.
fn starts_warc(head: &[u8]) -> bool {
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

/// An input opened once: the bytes of a regular file, or of a FIFO, a process substitution or
/// standard input (whose first bytes, read to tell what it is, are kept in front).
pub struct InputStream(StreamKind);

enum StreamKind {
    File(File),
    Other(io::Chain<io::Cursor<Vec<u8>>, Box<dyn Read + Send>>),
}

impl Read for InputStream {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        match &mut self.0 {
            StreamKind::File(f) => f.read(buf),
            StreamKind::Other(r) => r.read(buf),
        }
    }
}

/// A page opened by [`Input::open`] and not read yet: [`PageSource::read`] reads it (in a
/// worker thread, say) within the size limit.
pub struct PageSource {
    stream: InputStream,
    path: PathBuf,
    /// Bytes of a regular file (`None` for a stream).
    size: Option<u64>,
}

impl PageSource {
    /// The file's size in bytes (compressed size of a gzipped page), `None` for a stream.
    pub fn size(&self) -> Option<u64> {
        self.size
    }

    /// Reads the page as [`crate::input::read_page`] does (gunzipping it when its name ends in
    /// `.gz` or it starts with the gzip magic bytes), at most `limits.max_input_bytes`.
    pub fn read(self, limits: &Limits) -> crate::Result<Vec<u8>> {
        let named_gz = self
            .path
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("gz"));
        if let (StreamKind::File(f), Some(len)) = (&self.stream.0, self.size) {
            if let Some(declared) = crate::input::gzip_declared_over_limit(f, len, named_gz, limits)
            {
                return Err(crate::Error::TooLarge {
                    what: self.path.display().to_string(),
                    size: declared,
                    limit: limits.max_input_bytes,
                });
            }
        }
        crate::input::read_from(self.stream, &self.path, named_gz, self.size, limits)
    }
}

/// What an input holds, told from its first bytes when it is opened ([`Input::open`]).
pub enum Input {
    /// A WARC file (named `.warc`, `.warc.gz`, or starting with `WARC/`, plain or gzipped).
    Warc(Box<WarcReader<InputStream>>),
    /// Anything else: a page.
    Page(PageSource),
}

impl Input {
    /// Opens `path` once and tells whether it is a WARC file by its name or first bytes, without
    /// losing them: a FIFO or a process substitution (`<(cat page.html)`) is read once, from its
    /// first byte. A regular file is read by a seekable reader; anything else forward only.
    pub fn open(path: &Path, limits: &Limits) -> crate::Result<Input> {
        let io = |source| crate::Error::Io {
            path: path.to_owned(),
            source,
        };
        let mut file = File::open(path).map_err(io)?;
        let meta = file.metadata().map_err(io)?;
        if meta.is_file() {
            let mut head = [0u8; 512];
            let n = read_up_to(&mut file, &mut head).map_err(io)?;
            file.seek(SeekFrom::Start(0)).map_err(io)?;
            let stream = InputStream(StreamKind::File(file));
            if named_warc(path) || starts_warc(&head[..n]) {
                let caps = file_caps(Some(meta.len()));
                return WarcReader::with_caps(stream, caps, 0, limits)
                    .map(|r| Input::Warc(Box::new(r)))
                    .map_err(io);
            }
            return Ok(Input::Page(PageSource {
                stream,
                path: path.to_owned(),
                size: Some(meta.len()),
            }));
        }
        Self::sniff(Box::new(file), path, named_warc(path), limits)
    }

    /// Like [`Input::open`] for a stream read once (standard input); `name` names it in errors.
    pub fn from_reader(
        reader: impl Read + Send + 'static,
        name: &str,
        limits: &Limits,
    ) -> crate::Result<Input> {
        Self::sniff(Box::new(reader), Path::new(name), false, limits)
    }

    fn sniff(
        mut reader: Box<dyn Read + Send>,
        path: &Path,
        named: bool,
        limits: &Limits,
    ) -> crate::Result<Input> {
        let io = |source| crate::Error::Io {
            path: path.to_owned(),
            source,
        };
        let mut head = vec![0u8; 512];
        let n = read_up_to(&mut reader, &mut head).map_err(io)?;
        head.truncate(n);
        let warc = named || starts_warc(&head);
        let stream = InputStream(StreamKind::Other(io::Cursor::new(head).chain(reader)));
        if warc {
            return WarcReader::with_caps(stream, Caps::none(), 0, limits)
                .map(|r| Input::Warc(Box::new(r)))
                .map_err(io);
        }
        Ok(Input::Page(PageSource {
            stream,
            path: path.to_owned(),
            size: None,
        }))
    }
}

/// Reads the HTML record at `offset` of the WARC file `path` (a [`WarcPage::offset`] or
/// [`BadRecord::offset`] of an earlier pass) and parses it with `parser` within `limits` (its
/// time limit included); a bad record fails again with its error. Junk before the record (in
/// its gzip member) is passed over. Opens the file once per call.
pub fn page_at(
    path: &Path,
    offset: u64,
    limits: &Limits,
    parser: crate::Parser,
) -> crate::Result<crate::Page> {
    let io = |source| crate::Error::Io {
        path: path.to_owned(),
        source,
    };
    let reader = WarcReader::open_at(path, offset, limits).map_err(io)?;
    for item in reader {
        match item {
            Item::Page(w) => {
                return crate::Page::from_bytes(
                    &w.body,
                    &crate::PageOptions {
                        url: w.uri.as_deref(),
                        charset: w.charset.as_deref(),
                        limits: *limits,
                        deadline: Some(&limits.deadline()),
                        parser,
                        ..Default::default()
                    },
                )
            }
            Item::Bad(b) => {
                return Err(crate::Error::Warc {
                    path: path.to_owned(),
                    offset,
                    source: b.error,
                })
            }
            Item::Junk(_) => {}
        }
    }
    Err(io(io::Error::other(format!(
        "no record at offset {offset}"
    ))))
}

/// Where an item of an earlier pass is, to make its page again with [`Place::page`] (callers
/// that list a file's records first and read each later).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Place {
    /// The item's offset.
    pub offset: u64,
    /// A junk span's length (`None` for a record).
    pub junk: Option<u64>,
}

impl Place {
    /// The page of the record at this place ([`page_at`]), or the error of the bad record or
    /// the junk span that is there.
    pub fn page(
        &self,
        path: &Path,
        limits: &Limits,
        parser: crate::Parser,
    ) -> crate::Result<crate::Page> {
        match self.junk {
            Some(len) => Err(crate::Error::Warc {
                path: path.to_owned(),
                offset: self.offset,
                source: WarcError::Junk { len },
            }),
            None => page_at(path, self.offset, limits, parser),
        }
    }
}

impl Item {
    /// Where this item is, to read it again.
    pub fn place(&self) -> Place {
        match self {
            Item::Page(p) => Place {
                offset: p.offset,
                junk: None,
            },
            Item::Bad(b) => Place {
                offset: b.offset,
                junk: None,
            },
            Item::Junk(j) => Place {
                offset: j.offset,
                junk: Some(j.len),
            },
        }
    }
}

pub use crate::error::WarcError;

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
    /// Bytes of the file from `offset` to where reading resumed: the record and whatever was
    /// skipped after it up to the next record (or the file's end). `None` in a gzip file when
    /// reading resumed inside the same member (a member holding several records).
    pub len: Option<u64>,
    /// What is wrong.
    pub error: WarcError,
}

/// Bytes between records that are not a record, skipped.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Junk {
    /// Where they start in the file (in a gzip file: the offset of the member they start in).
    pub offset: u64,
    /// How many bytes (decompressed bytes, in a gzip file).
    pub len: u64,
}

impl std::fmt::Display for Junk {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} bytes at offset {} are not a WARC record: skipped to the next version line",
            self.len, self.offset
        )
    }
}

impl std::error::Error for Junk {}

/// One item of a WARC file.
#[derive(Debug)]
pub enum Item {
    /// An HTML response.
    Page(WarcPage),
    /// A record reported and skipped.
    Bad(BadRecord),
    /// Bytes that are not a record, reported and skipped.
    Junk(Junk),
}

/// See [`Caps::data_after`].
type DataAfter<R> = fn(&mut R, u64) -> io::Result<Option<u64>>;

/// What the reader may do with its input besides reading it, fixed when the reader is built.
struct Caps<R> {
    /// Moves to a file offset (files; `None` for streams).
    seek: Option<fn(&mut R, u64) -> io::Result<()>>,
    /// Sparse files: moves to the first byte of data at or after an offset and returns it
    /// (`None`: only a hole follows). Called with nothing buffered.
    data_after: Option<DataAfter<R>>,
    /// The file's length, when known.
    len: Option<u64>,
}

impl<R> Clone for Caps<R> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<R> Copy for Caps<R> {}

impl<R> Caps<R> {
    fn none() -> Self {
        Caps {
            seek: None,
            data_after: None,
            len: None,
        }
    }
}

fn seek_any<R: Seek>(r: &mut R, pos: u64) -> io::Result<()> {
    r.seek(SeekFrom::Start(pos)).map(drop)
}

/// The capabilities of a regular file `InputStream` of `len` bytes.
fn file_caps(len: Option<u64>) -> Caps<InputStream> {
    fn seek(s: &mut InputStream, pos: u64) -> io::Result<()> {
        match &mut s.0 {
            StreamKind::File(f) => seek_any(f, pos),
            StreamKind::Other(_) => Err(io::ErrorKind::Unsupported.into()),
        }
    }
    fn data_after(s: &mut InputStream, pos: u64) -> io::Result<Option<u64>> {
        match &mut s.0 {
            StreamKind::File(f) => file_data_after(f, pos),
            StreamKind::Other(_) => Ok(Some(pos)),
        }
    }
    Caps {
        seek: Some(seek),
        data_after: Some(data_after),
        len,
    }
}

/// `lseek(SEEK_DATA)`: the first offset at or after `pos` that holds data, moving the file
/// there; `None` when only a hole follows. Where the system cannot tell, `pos` itself.
#[cfg(any(target_os = "linux", target_os = "android", target_os = "freebsd"))]
fn file_data_after(f: &mut File, pos: u64) -> io::Result<Option<u64>> {
    use std::os::fd::AsRawFd;
    let Ok(at) = libc::off_t::try_from(pos) else {
        return Ok(Some(pos));
    };
    // SAFETY: lseek on a file descriptor the `File` owns, with no pointer arguments.
    let r = unsafe { libc::lseek(f.as_raw_fd(), at, libc::SEEK_DATA) };
    if r >= 0 {
        return Ok(Some(r as u64));
    }
    let e = io::Error::last_os_error();
    if e.raw_os_error() == Some(libc::ENXIO) {
        return Ok(None);
    }
    // Not supported here: stay where we were and read on.
    f.seek(SeekFrom::Start(pos))?;
    Ok(Some(pos))
}

#[cfg(not(any(target_os = "linux", target_os = "android", target_os = "freebsd")))]
fn file_data_after(_: &mut File, pos: u64) -> io::Result<Option<u64>> {
    Ok(Some(pos))
}

/// The compressed bytes of a gzip file, buffered (the gzip decoder reads from it); on a stream
/// it keeps the current member's bytes (up to [`MEMBER_KEEP`]) so that `seek_to` can go back
/// to the member's start.
struct RawBuf<R> {
    inner: R,
    caps: Caps<R>,
    buf: Vec<u8>,
    lo: usize,
    hi: usize,
    /// File offset of `buf[0]`.
    base: u64,
    /// File offset of the current member's start (kept in `buf` on a stream).
    mark: u64,
    /// Reading `inner` failed (an I/O error, not corrupt data).
    failed: bool,
}

impl<R: Read> RawBuf<R> {
    fn pos(&self) -> u64 {
        self.base + self.lo as u64
    }

    fn seek_to(&mut self, pos: u64) -> io::Result<()> {
        if pos >= self.base && pos <= self.base + self.hi as u64 {
            self.lo = (pos - self.base) as usize;
            return Ok(());
        }
        let seek = self.caps.seek.ok_or_else(|| {
            io::Error::new(io::ErrorKind::Unsupported, "cannot go back in a stream")
        })?;
        seek(&mut self.inner, pos)?;
        self.base = pos;
        self.lo = 0;
        self.hi = 0;
        Ok(())
    }
}

impl<R: Read> Read for RawBuf<R> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        let buf = self.fill_buf()?;
        let n = buf.len().min(out.len());
        out[..n].copy_from_slice(&buf[..n]);
        self.consume(n);
        Ok(n)
    }
}

impl<R: Read> BufRead for RawBuf<R> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        if self.lo == self.hi {
            // Keep the current member's bytes on a stream while they are few enough.
            let keep = self.caps.seek.is_none()
                && self.mark >= self.base
                && self.pos().saturating_sub(self.mark) <= MEMBER_KEEP as u64;
            let from = if keep {
                (self.mark - self.base) as usize
            } else {
                self.lo
            };
            if from > 0 {
                self.buf.copy_within(from..self.hi, 0);
                self.base += from as u64;
                self.lo -= from;
                self.hi -= from;
            }
            if self.buf.len() < self.hi + CHUNK {
                self.buf.resize(self.hi + CHUNK, 0);
            }
            let n = loop {
                match self.inner.read(&mut self.buf[self.hi..]) {
                    Ok(n) => break n,
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                    Err(e) => {
                        self.failed = true;
                        return Err(e);
                    }
                }
            };
            self.hi += n;
        }
        Ok(&self.buf[self.lo..self.hi])
    }

    fn consume(&mut self, n: usize) {
        self.lo = (self.lo + n).min(self.hi);
    }
}

/// Where the decoded bytes come from: the file itself, or gzip members decoded one at a time.
enum Src<R> {
    Plain {
        inner: R,
        caps: Caps<R>,
    },
    Gzip {
        /// The decoder of the current member, or `None` after its end or an error.
        decoder: Option<Box<GzDecoder<RawBuf<R>>>>,
        /// The compressed bytes while no member is being decoded.
        raw: Option<RawBuf<R>>,
    },
}

impl<R: Read> Src<R> {
    fn raw(&mut self) -> Option<&mut RawBuf<R>> {
        match self {
            Src::Plain { .. } => None,
            Src::Gzip { decoder, raw } => match (decoder, raw) {
                (Some(d), _) => Some(d.get_mut()),
                (None, r) => r.as_mut(),
            },
        }
    }

    fn take_raw(&mut self) -> Option<RawBuf<R>> {
        match self {
            Src::Plain { .. } => None,
            Src::Gzip { decoder, raw } => match decoder.take() {
                Some(d) => Some(d.into_inner()),
                None => raw.take(),
            },
        }
    }
}

impl<R: Read> Read for Src<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        match self {
            Src::Plain { inner, .. } => inner.read(buf),
            Src::Gzip {
                decoder: Some(d), ..
            } => d.read(buf),
            Src::Gzip { decoder: None, .. } => Ok(0),
        }
    }
}

/// The decoded bytes in file order, buffered; a gzip member's end reads as the end of input
/// until [`Stream::next_member`] moves on.
struct Stream<R> {
    src: Src<R>,
    buf: Vec<u8>,
    lo: usize,
    hi: usize,
    /// Position of `buf[lo]` in the decoded bytes: the file offset for a plain file.
    pos: u64,
    /// File offset of the current gzip member (0 for a plain file).
    member_start: u64,
}

impl<R: Read> Stream<R> {
    fn gzip(&self) -> bool {
        matches!(self.src, Src::Gzip { .. })
    }

    fn caps(&self) -> Option<Caps<R>> {
        match &self.src {
            Src::Plain { caps, .. } => Some(*caps),
            Src::Gzip { .. } => None,
        }
    }

    /// A plain file the reader can seek in.
    fn seekable(&self) -> bool {
        self.caps().is_some_and(|c| c.seek.is_some())
    }

    fn buffered(&self) -> &[u8] {
        &self.buf[self.lo..self.hi]
    }

    /// Reads more bytes after the buffered ones; `0` at the end (of the member).
    fn refill(&mut self) -> io::Result<usize> {
        if self.lo > 0 {
            self.buf.copy_within(self.lo..self.hi, 0);
            self.hi -= self.lo;
            self.lo = 0;
        }
        let chunk = if self.gzip() { DECODED_CHUNK } else { CHUNK };
        if self.buf.len() < self.hi + chunk {
            self.buf.resize(self.hi + chunk, 0);
        }
        loop {
            match self.src.read(&mut self.buf[self.hi..]) {
                Ok(n) => {
                    self.hi += n;
                    return Ok(n);
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
    }

    /// At least `n` buffered bytes, or all that is left of the member (or file).
    fn ensure(&mut self, n: usize) -> io::Result<&[u8]> {
        while self.hi - self.lo < n {
            if self.refill()? == 0 {
                break;
            }
        }
        Ok(self.buffered())
    }

    fn fill(&mut self) -> io::Result<&[u8]> {
        if self.lo == self.hi {
            self.refill()?;
        }
        Ok(self.buffered())
    }

    fn consume(&mut self, n: usize) {
        let n = n.min(self.hi - self.lo);
        self.lo += n;
        self.pos += n as u64;
    }

    /// Puts `bytes` back in front of the buffered ones (they were the last consumed).
    fn unread(&mut self, bytes: &[u8]) {
        if bytes.is_empty() {
            return;
        }
        let mut buf = Vec::with_capacity(bytes.len() + self.hi - self.lo + DECODED_CHUNK);
        buf.extend_from_slice(bytes);
        buf.extend_from_slice(self.buffered());
        self.hi = buf.len();
        self.lo = 0;
        self.buf = buf;
        self.pos -= bytes.len() as u64;
    }

    /// Starts decoding the gzip member at the current position; `false` at the end of the file
    /// (and always for a plain file).
    fn next_member(&mut self) -> io::Result<bool> {
        let Some(mut raw) = self.src.take_raw() else {
            return Ok(false);
        };
        self.lo = 0;
        self.hi = 0;
        let at_end = raw.fill_buf().map(<[u8]>::is_empty);
        self.member_start = raw.pos();
        raw.mark = self.member_start;
        let started = match at_end {
            Ok(false) => {
                self.src = Src::Gzip {
                    decoder: Some(Box::new(GzDecoder::new(raw))),
                    raw: None,
                };
                true
            }
            Ok(true) | Err(_) => {
                self.src = Src::Gzip {
                    decoder: None,
                    raw: Some(raw),
                };
                false
            }
        };
        at_end.map(|_| started)
    }

    /// After an error inside the current gzip member: scans from the byte after its start (or,
    /// on a stream whose member outgrew what is kept, from where the decoder stopped) to the
    /// next gzip header and starts decoding there; `false` at the end of the file.
    fn recover(&mut self) -> io::Result<bool> {
        self.lo = 0;
        self.hi = 0;
        let start = self.member_start;
        let Some(mut raw) = self.src.take_raw() else {
            return Ok(false);
        };
        let back = raw.seek_to(start + 1);
        self.src = Src::Gzip {
            decoder: None,
            raw: Some(raw),
        };
        let raw = self.src.raw().expect("a gzip source");
        if back.is_err() && raw.pos() <= start {
            raw.consume(1);
        }
        // Bytes of the header matched so far; a header may straddle two buffers.
        let mut matched = 0usize;
        loop {
            let buf = raw.fill_buf()?;
            if buf.is_empty() {
                self.member_start = raw.pos();
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
                    let at = raw.pos() - GZIP_HEADER.len() as u64;
                    raw.seek_to(at)?;
                    break;
                }
                None => raw.consume(len),
            }
        }
        self.next_member()
    }

    /// Plain seekable file: moves to `pos`.
    fn seek_to(&mut self, pos: u64) -> io::Result<()> {
        let first = self.pos - self.lo as u64;
        if pos >= first && pos <= self.pos + (self.hi - self.lo) as u64 {
            self.lo = (pos - first) as usize;
            self.pos = pos;
            return Ok(());
        }
        let Src::Plain { inner, caps } = &mut self.src else {
            return Err(io::ErrorKind::Unsupported.into());
        };
        let seek = caps.seek.ok_or(io::ErrorKind::Unsupported)?;
        seek(inner, pos)?;
        self.lo = 0;
        self.hi = 0;
        self.pos = pos;
        Ok(())
    }

    /// Plain seekable file: up to 4 bytes at `pos` (fewer at the file's end), without moving.
    fn peek_at(&mut self, pos: u64) -> io::Result<Vec<u8>> {
        let end = self.pos + (self.hi - self.lo) as u64;
        if pos >= self.pos && pos + 4 <= end {
            let k = self.lo + (pos - self.pos) as usize;
            return Ok(self.buf[k..k + 4].to_vec());
        }
        let Src::Plain { inner, caps } = &mut self.src else {
            return Err(io::ErrorKind::Unsupported.into());
        };
        let seek = caps.seek.ok_or(io::ErrorKind::Unsupported)?;
        seek(inner, pos)?;
        let mut out = [0u8; 4];
        let n = read_up_to(inner, &mut out);
        // The file's position is the end of what is buffered.
        seek(inner, end)?;
        Ok(out[..n?].to_vec())
    }

    /// Plain sparse file, nothing buffered: moves past a hole at the current position and
    /// returns its length.
    fn skip_hole(&mut self) -> io::Result<u64> {
        if self.lo != self.hi {
            return Ok(0);
        }
        let Src::Plain { inner, caps } = &mut self.src else {
            return Ok(0);
        };
        let Some(data_after) = caps.data_after else {
            return Ok(0);
        };
        let to = match data_after(inner, self.pos)? {
            Some(d) => d,
            None => {
                let len = caps.len.unwrap_or(self.pos).max(self.pos);
                if let Some(seek) = caps.seek {
                    seek(inner, len)?;
                }
                len
            }
        };
        let hole = to.saturating_sub(self.pos);
        self.pos = self.pos.max(to);
        Ok(hole)
    }

    /// Reads `n` bytes into `out`; stops early at the member's (or file's) end.
    fn read_block(&mut self, n: u64, out: &mut Vec<u8>) -> io::Result<u64> {
        let from_buf = (self.hi - self.lo).min(usize::try_from(n).unwrap_or(usize::MAX));
        out.extend_from_slice(&self.buf[self.lo..self.lo + from_buf]);
        self.consume(from_buf);
        let rest = n - from_buf as u64;
        let got = if rest > 0 {
            (&mut self.src).take(rest).read_to_end(out)? as u64
        } else {
            0
        };
        self.pos += got;
        Ok(from_buf as u64 + got)
    }

    /// Skips `n` bytes (seeking in a plain seekable file); returns how many there were.
    fn skip(&mut self, n: u64) -> io::Result<u64> {
        if let Some(caps) = self.caps().filter(|c| c.seek.is_some()) {
            if let Some(len) = caps.len {
                let n = n.min(len.saturating_sub(self.pos));
                self.seek_to(self.pos + n)?;
                return Ok(n);
            }
        }
        let from_buf = (self.hi - self.lo).min(usize::try_from(n).unwrap_or(usize::MAX));
        self.consume(from_buf);
        let rest = n - from_buf as u64;
        let got = io::copy(&mut (&mut self.src).take(rest), &mut io::sink())?;
        self.pos += got;
        Ok(from_buf as u64 + got)
    }

    /// Reads a line (with its `\n`) into `line`, at most `max` bytes: stops there and returns
    /// `Line::TooLong`. Does not go past the member's end.
    fn line(&mut self, line: &mut Vec<u8>, max: usize) -> io::Result<Line> {
        line.clear();
        loop {
            let buf = self.fill()?;
            if buf.is_empty() {
                return Ok(Line::End);
            }
            let (take, done) = match memchr::memchr(b'\n', buf) {
                Some(i) => (i + 1, true),
                None => (buf.len(), false),
            };
            let room = max - line.len();
            if take > room {
                line.extend_from_slice(&buf[..room]);
                self.consume(room);
                return Ok(Line::TooLong);
            }
            line.extend_from_slice(&buf[..take]);
            self.consume(take);
            if done {
                return Ok(Line::Full);
            }
        }
    }
}

/// How [`Stream::line`] ended.
enum Line {
    Full,
    TooLong,
    /// The member or file ended first.
    End,
}

/// The length of the version line at the start of `b` (`WARC/`, 1–4 digits, `.`, 1–4 digits,
/// spaces or tabs, optional `\r`, `\n`), or `None`.
fn version_line_len(b: &[u8]) -> Option<usize> {
    let rest = b.strip_prefix(b"WARC/")?;
    let digits = |s: &[u8]| s.iter().take(5).take_while(|c| c.is_ascii_digit()).count();
    let major = digits(rest);
    if !(1..=4).contains(&major) || rest.get(major) != Some(&b'.') {
        return None;
    }
    let rest = &rest[major + 1..];
    let minor = digits(rest);
    if !(1..=4).contains(&minor) {
        return None;
    }
    let mut k = minor;
    while matches!(rest.get(k), Some(b' ' | b'\t')) && k < minor + 8 {
        k += 1;
    }
    if rest.get(k) == Some(&b'\r') {
        k += 1;
    }
    (rest.get(k) == Some(&b'\n')).then_some(5 + major + 1 + k + 1)
}

/// Where a version line that ends `line` starts in it (a record cut mid-line and the next
/// record's version line after it), or `None`.
fn version_line_inside(line: &[u8]) -> Option<usize> {
    let k = memchr::memmem::rfind(line, b"WARC/")?;
    (version_line_len(&line[k..]) == Some(line.len() - k)).then_some(k)
}

/// What a scan for the next version line passed over.
struct Scan {
    /// Where the passed-over bytes start: the file offset (plain) or their member's (gzip).
    start: u64,
    /// How many bytes (decoded) were passed over.
    len: u64,
    /// Whether any of them is not white space.
    junk: bool,
    /// Whether a version line follows (else the file ended).
    found: bool,
}

/// Why a scan stopped before a version line or the end.
enum ScanStop {
    /// Reading or decoding failed.
    Io(io::Error),
    /// The current gzip member decoded to more than the limit without a record.
    Bomb,
}

impl From<io::Error> for ScanStop {
    fn from(e: io::Error) -> Self {
        ScanStop::Io(e)
    }
}

/// Reads the HTML `response` records of a WARC file one at a time; see the [module docs](self).
pub struct WarcReader<R> {
    input: Stream<R>,
    limits: Limits,
    /// Records skipped because they are not HTML responses.
    skipped: u64,
    /// Bytes scanned again after wrong lengths (gzip files and streams; see `may_rescan`).
    rescanned: u64,
    /// An item found while finishing the one before.
    pending: Option<Item>,
    done: bool,
}

impl WarcReader<File> {
    /// Opens a WARC file; gzip is recognised by its magic bytes.
    pub fn open(path: &Path, limits: &Limits) -> io::Result<Self> {
        Self::open_at(path, 0, limits)
    }

    /// Opens a WARC file at `offset`, a record's [`WarcPage::offset`] (or [`BadRecord::offset`]):
    /// its first item is that record.
    pub fn open_at(path: &Path, offset: u64, limits: &Limits) -> io::Result<Self> {
        let mut file = File::open(path)?;
        let meta = file.metadata()?;
        if !meta.is_file() {
            if offset > 0 {
                return Err(io::Error::new(
                    io::ErrorKind::Unsupported,
                    "not a regular file: cannot start at an offset",
                ));
            }
            return Self::with_caps(file, Caps::none(), 0, limits);
        }
        let mut head = [0u8; 2];
        let n = read_up_to(&mut file, &mut head)?;
        let gzip = head[..n] == GZIP_HEADER[..2];
        file.seek(SeekFrom::Start(offset))?;
        let caps = Caps {
            seek: Some(seek_any::<File>),
            data_after: Some(file_data_after),
            len: Some(meta.len()),
        };
        Self::build(file, caps, offset, Some(gzip), limits)
    }
}

impl<R: Read + Seek> WarcReader<R> {
    /// Reads WARC records from `raw` (plain or gzip, told by the first bytes), from its
    /// current position; offsets are positions in `raw`.
    pub fn new(mut raw: R, limits: &Limits) -> io::Result<Self> {
        let at = raw.stream_position()?;
        let len = raw.seek(SeekFrom::End(0))?;
        raw.seek(SeekFrom::Start(at))?;
        let caps = Caps {
            seek: Some(seek_any::<R>),
            data_after: None,
            len: Some(len),
        };
        Self::with_caps(raw, caps, at, limits)
    }
}

impl<R: Read> WarcReader<R> {
    /// Reads WARC records from a stream that cannot seek (a pipe): after a wrong
    /// `Content-Length` whose block was not kept in memory, the records it swallowed are lost
    /// (the bad record's span says so) rather than read again.
    pub fn from_stream(raw: R, limits: &Limits) -> io::Result<Self> {
        Self::with_caps(raw, Caps::none(), 0, limits)
    }

    fn with_caps(raw: R, caps: Caps<R>, at: u64, limits: &Limits) -> io::Result<Self> {
        Self::build(raw, caps, at, None, limits)
    }

    /// `gzip`: whether the file is gzip, when told already (else from the first bytes).
    fn build(
        raw: R,
        caps: Caps<R>,
        at: u64,
        gzip: Option<bool>,
        limits: &Limits,
    ) -> io::Result<Self> {
        let mut raw = RawBuf {
            inner: raw,
            caps,
            buf: Vec::new(),
            lo: 0,
            hi: 0,
            base: at,
            mark: at,
            failed: false,
        };
        let gzip = match gzip {
            Some(g) => g,
            None => {
                let head = raw.fill_buf()?;
                if head.len() < 2 {
                    // A pipe may give its bytes one at a time.
                    let mut two = head.to_vec();
                    raw.consume(two.len());
                    while two.len() < 2 {
                        let more = raw.fill_buf()?;
                        if more.is_empty() {
                            break;
                        }
                        two.push(more[0]);
                        raw.consume(1);
                    }
                    raw.seek_to(at)?;
                    two == GZIP_HEADER[..2]
                } else {
                    head.starts_with(&GZIP_HEADER[..2])
                }
            }
        };
        let mut input = if gzip {
            Stream {
                src: Src::Gzip {
                    decoder: None,
                    raw: Some(raw),
                },
                buf: Vec::new(),
                lo: 0,
                hi: 0,
                pos: 0,
                member_start: at,
            }
        } else {
            // What is buffered already is the start of the decoded bytes.
            let pos = raw.pos();
            let buf = raw.buf[raw.lo..raw.hi].to_vec();
            Stream {
                hi: buf.len(),
                buf,
                lo: 0,
                src: Src::Plain {
                    inner: raw.inner,
                    caps: raw.caps,
                },
                pos,
                member_start: 0,
            }
        };
        input.next_member()?;
        Ok(WarcReader {
            input,
            limits: *limits,
            skipped: 0,
            rescanned: 0,
            pending: None,
            done: false,
        })
    }

    /// Records skipped so far because they are not HTML `response` records.
    pub fn skipped(&self) -> u64 {
        self.skipped
    }

    /// Where the next byte is in the file (plain) or the offset of its member (gzip).
    fn here(&self) -> u64 {
        if self.input.gzip() {
            self.input.member_start
        } else {
            self.input.pos
        }
    }

    /// Whether `n` bytes may be scanned again (from memory) after a wrong length: as many bytes
    /// again as the file has given so far, at least [`RESCAN_MIN_BUDGET`], so that a file of
    /// records that all claim to run far past their end is read in linear time.
    fn may_rescan(&mut self, n: u64) -> bool {
        if self.rescanned + n > self.input.pos.max(RESCAN_MIN_BUDGET) {
            return false;
        }
        self.rescanned += n;
        true
    }

    /// Moves to the next version line (not consuming it), over blank lines and junk, from
    /// member to member; a plain file's holes are skipped without reading them.
    fn scan(&mut self) -> Result<Scan, ScanStop> {
        let mut scan = Scan {
            start: self.here(),
            len: 0,
            junk: false,
            found: false,
        };
        // Bytes passed over in the current gzip member (records before them do not count).
        let mut in_member = 0u64;
        loop {
            if self.input.lo == self.input.hi {
                let hole = self.input.skip_hole()?;
                if hole > 0 {
                    scan.len += hole;
                    scan.junk = true;
                }
            }
            if self.input.gzip() && in_member > self.limits.max_input_bytes {
                return Err(ScanStop::Bomb);
            }
            let buf = self.input.fill()?;
            if buf.is_empty() {
                if self.input.next_member()? {
                    in_member = 0;
                    if scan.len == 0 {
                        scan.start = self.here();
                    }
                    continue;
                }
                return Ok(scan);
            }
            let k = memchr::memchr(b'W', buf).unwrap_or(buf.len());
            if k > 0 {
                scan.junk |= !buf[..k].iter().all(u8::is_ascii_whitespace);
                scan.len += k as u64;
                in_member += k as u64;
                self.input.consume(k);
                continue;
            }
            let head = self.input.ensure(VERSION_LOOKAHEAD)?;
            if version_line_len(head).is_some() {
                scan.found = true;
                return Ok(scan);
            }
            scan.junk = true;
            scan.len += 1;
            in_member += 1;
            self.input.consume(1);
        }
    }

    /// The next HTML page, bad record or junk; `None` at end of file.
    fn next_item(&mut self) -> Option<Item> {
        if let Some(item) = self.pending.take() {
            return Some(item);
        }
        loop {
            if self.done {
                return None;
            }
            let scan = match self.scan() {
                Ok(s) => s,
                Err(stop) => return Some(self.stopped(stop, None, None)),
            };
            if scan.junk {
                return Some(Item::Junk(Junk {
                    offset: scan.start,
                    len: scan.len,
                }));
            }
            if !scan.found {
                self.done = true;
                return None;
            }
            let start = self.here();
            match self.record(start) {
                Ok(Some(item)) => return Some(item),
                Ok(None) => self.skipped += 1,
                Err(Failure::Bad(b)) => return Some(self.finish_bad(b)),
                Err(Failure::Stop(stop, record_id, uri)) => {
                    return Some(self.stopped(stop, record_id, uri))
                }
            }
        }
    }

    /// A bad record, with its span: scans on to the next version line (the bytes passed over
    /// are the bad record's) and measures the span up to it.
    fn finish_bad(&mut self, mut b: BadRecord) -> Item {
        match self.scan() {
            Ok(scan) => {
                b.len = if !self.input.gzip() {
                    Some(self.input.pos.saturating_sub(b.offset))
                } else if !scan.found {
                    let end = self.input.src.raw().map_or(b.offset, |r| r.pos());
                    Some(end.saturating_sub(b.offset))
                } else if self.input.member_start != b.offset {
                    Some(self.input.member_start - b.offset)
                } else {
                    None
                };
                if !scan.found {
                    self.done = true;
                }
            }
            // The record's own gzip member is broken (or a bomb): that is what it reports.
            Err(stop) if self.input.gzip() && self.input.member_start == b.offset => {
                return self.stopped(stop, b.record_id, b.uri)
            }
            Err(stop) => self.pending = Some(self.stopped(stop, None, None)),
        }
        Item::Bad(b)
    }

    /// Reading or decoding failed, or a gzip member is a bomb: a bad record at the member's
    /// start (gzip; reading resumes at the next member) or the end of a plain file.
    fn stopped(&mut self, stop: ScanStop, record_id: Option<String>, uri: Option<String>) -> Item {
        let gzip = self.input.gzip();
        let offset = self.here();
        let raw_failed = self.input.src.raw().is_some_and(|r| r.failed);
        let error = match stop {
            ScanStop::Io(e) if !gzip || raw_failed => {
                self.done = true;
                return Item::Bad(BadRecord {
                    record_id,
                    uri,
                    offset,
                    len: None,
                    error: WarcError::Io(e),
                });
            }
            ScanStop::Io(e) => WarcError::Gzip(e.to_string()),
            ScanStop::Bomb => WarcError::MemberTooLarge {
                limit: self.limits.max_input_bytes,
            },
        };
        let more = self.input.recover();
        if !matches!(more, Ok(true)) {
            self.done = true;
        }
        Item::Bad(BadRecord {
            record_id,
            uri,
            offset,
            len: Some(self.input.member_start.saturating_sub(offset)),
            error,
        })
    }

    /// Reads the record whose version line is next: `Ok(None)` when it is skipped.
    fn record(&mut self, start: u64) -> Result<Option<Item>, Failure> {
        let mut line = Vec::new();
        let mut budget = MAX_HEADER_BYTES;
        let mut warc_type = None;
        let mut record_id = None;
        let mut uri = None;
        let mut length = None;
        let mut first = true;
        loop {
            let read = self.input.line(&mut line, budget);
            let bad = |record_id, uri, error| {
                Failure::Bad(BadRecord {
                    record_id,
                    uri,
                    offset: start,
                    len: None,
                    error,
                })
            };
            match read {
                Ok(Line::Full) => {}
                Ok(Line::TooLong) => {
                    let error = WarcError::HeaderTooLong {
                        limit: MAX_HEADER_BYTES,
                    };
                    return Err(bad(record_id, uri, error));
                }
                Ok(Line::End) => {
                    let error = WarcError::Header(
                        if self.input.gzip() {
                            "the gzip member ends inside the header"
                        } else {
                            "file ends inside the header"
                        }
                        .into(),
                    );
                    return Err(bad(record_id, uri, error));
                }
                Err(e) => return Err(Failure::Stop(ScanStop::Io(e), record_id, uri)),
            }
            budget -= line.len();
            if std::mem::take(&mut first) {
                continue;
            }
            if let Some(k) = version_line_inside(&line) {
                // The next record starts inside this line: this one is cut.
                self.input.unread(&line[k..]);
                let error = WarcError::Header(
                    "record cut: the next record's version line is inside its header".into(),
                );
                return Err(bad(record_id, uri, error));
            }
            let text = String::from_utf8_lossy(&line);
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
        let bad = |record_id, uri, error| {
            Failure::Bad(BadRecord {
                record_id,
                uri,
                offset: start,
                len: None,
                error,
            })
        };
        let Some(Ok(declared)) = length.as_deref().map(str::parse::<u64>) else {
            let error = WarcError::Header(format!("no valid Content-Length ({length:?})"));
            return Err(bad(record_id, uri, error));
        };
        let wanted = warc_type.as_deref() == Some("response");
        let too_large = declared > self.limits.max_input_bytes;
        let block = if self.input.seekable() {
            self.block_seekable(declared, wanted && !too_large)
        } else {
            self.block_streamed(declared, wanted && !too_large)
        };
        let mut block = match block {
            Ok(Ok(b)) => b,
            Ok(Err(error)) => return Err(bad(record_id, uri, error)),
            Err(e) => return Err(Failure::Stop(ScanStop::Io(e), record_id, uri)),
        };
        if !wanted {
            return Ok(None);
        }
        if too_large {
            let limit = self.limits.max_input_bytes;
            let error = WarcError::TooLarge {
                size: declared,
                limit,
            };
            return Err(bad(record_id, uri, error));
        }
        let http = match parse_http(&block) {
            Ok(h) => h,
            Err(e) => return Err(bad(record_id, uri, e)),
        };
        if !http.html {
            return Ok(None);
        }
        let mut body = block.split_off(http.body_start);
        drop(block);
        if http.chunked {
            body = dechunk(&body).unwrap_or(body);
        }
        if let Some(enc) = &http.encoding {
            body = match decode_content(body, enc, self.limits.max_input_bytes) {
                Ok(b) => b,
                Err(msg) => return Err(bad(record_id, uri, WarcError::ContentEncoding(msg))),
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

    /// A plain seekable file: checks that the block ends at its `\r\n\r\n` (one positioned
    /// read) before reading it (`keep`) or seeking past it. A wrong length leaves the reader at
    /// the block's start, where the scan for the next version line goes on.
    fn block_seekable(
        &mut self,
        declared: u64,
        keep: bool,
    ) -> io::Result<Result<Vec<u8>, WarcError>> {
        let block_start = self.input.pos;
        let len = self.input.caps().and_then(|c| c.len).unwrap_or(u64::MAX);
        let end = block_start.checked_add(declared).filter(|&e| e <= len);
        let Some(end) = end else {
            let read = len.saturating_sub(block_start);
            return Ok(Err(WarcError::Truncated { declared, read }));
        };
        let trailer = self.input.peek_at(end)?;
        if trailer != b"\r\n\r\n" && !trailer.is_empty() {
            return Ok(Err(wrong_trailer(declared, &trailer, "")));
        }
        let mut block = Vec::new();
        if keep {
            block.reserve_exact(usize::try_from(declared).unwrap_or(0));
            let read = self.input.read_block(declared, &mut block)?;
            if read < declared {
                // The file shrank under us.
                return Ok(Err(WarcError::Truncated { declared, read }));
            }
        } else {
            self.input.seek_to(end)?;
        }
        self.input.skip(trailer.len() as u64)?;
        Ok(Ok(block))
    }

    /// A gzip file or a stream: reads the block (keeping it in memory when it is wanted, or on
    /// a stream when it is within the size limit, so that a wrong length can be scanned
    /// again) and checks what follows it.
    fn block_streamed(
        &mut self,
        declared: u64,
        wanted: bool,
    ) -> io::Result<Result<Vec<u8>, WarcError>> {
        let gzip = self.input.gzip();
        let keep = wanted || (!gzip && declared <= self.limits.max_input_bytes);
        let mut block = Vec::new();
        let read = if keep {
            block.reserve(usize::try_from(declared.min(64 << 20)).unwrap_or(0));
            self.input.read_block(declared, &mut block)?
        } else {
            self.input.skip(declared)?
        };
        if read < declared {
            let note = self.rescan(&block, &[], keep, read);
            let error = if gzip {
                WarcError::ContentLength {
                    declared,
                    detail: format!("the record's gzip member ends after {read} bytes{note}"),
                }
            } else {
                WarcError::Truncated { declared, read }
            };
            return Ok(Err(error));
        }
        let mut trailer = Vec::with_capacity(4);
        self.input.read_block(4, &mut trailer)?;
        if trailer != b"\r\n\r\n" && !trailer.is_empty() {
            let note = self.rescan(&block, &trailer, keep, read);
            return Ok(Err(wrong_trailer(declared, &trailer, &note)));
        }
        Ok(Ok(block))
    }

    /// After a wrong length on a gzip file or a stream: puts the block (when kept and within
    /// the budget) and the bytes read after it back, so the scan for the next version line
    /// goes through them. Returns a note for the error when the block is dropped.
    fn rescan(&mut self, block: &[u8], after: &[u8], kept: bool, read: u64) -> String {
        let again = kept && self.may_rescan(block.len() as u64);
        let mut back = Vec::with_capacity(after.len() + if again { block.len() } else { 0 });
        if again {
            back.extend_from_slice(block);
        }
        back.extend_from_slice(after);
        self.input.unread(&back);
        if again || read == 0 {
            String::new()
        } else {
            format!("; its {read} bytes are not scanned again for records")
        }
    }
}

/// The error for a block followed by `trailer` instead of `\r\n\r\n`.
fn wrong_trailer(declared: u64, trailer: &[u8], note: &str) -> WarcError {
    WarcError::ContentLength {
        declared,
        detail: format!(
            "the block is followed by {:?}, not \\r\\n\\r\\n{note}",
            String::from_utf8_lossy(trailer)
        ),
    }
}

/// How reading a record failed.
enum Failure {
    /// The record is bad; reading goes on after it.
    Bad(BadRecord),
    /// Reading or decoding failed (with what the header gave).
    Stop(ScanStop, Option<String>, Option<String>),
}

impl<R: Read> Iterator for WarcReader<R> {
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

/// Parses an HTTP response's status line and headers with `httparse` (bare `\n` line ends,
/// spaces before the colon and folded lines are accepted, as servers send them), within
/// [`MAX_HTTP_HEADER_BYTES`] and with any number of header lines. A response without
/// `Content-Type` counts as HTML (browsers sniff; the HTML parser copes).
fn parse_http(block: &[u8]) -> Result<Http, WarcError> {
    let head = &block[..block.len().min(MAX_HTTP_HEADER_BYTES)];
    let mut slots = 128;
    loop {
        let mut headers = vec![httparse::EMPTY_HEADER; slots];
        let mut response = httparse::Response::new(&mut headers);
        let status = httparse::ParserConfig::default()
            .allow_spaces_after_header_name_in_responses(true)
            .allow_obsolete_multiline_headers_in_responses(true)
            .allow_multiple_spaces_in_response_status_delimiters(true)
            .parse_response(&mut response, head);
        match status {
            Ok(httparse::Status::Complete(n)) => return Ok(http_of(&response, n)),
            Ok(httparse::Status::Partial) if block.len() > head.len() => {
                return Err(WarcError::HttpHeaderTooLong {
                    limit: MAX_HTTP_HEADER_BYTES,
                })
            }
            Ok(httparse::Status::Partial) => {
                return Err(WarcError::NotHttp("the HTTP header does not end".into()))
            }
            Err(httparse::Error::TooManyHeaders) => {
                // Every header takes a line: this many slots always suffice.
                let lines = memchr::memchr_iter(b'\n', head).count() + 1;
                if lines <= slots {
                    return Err(WarcError::NotHttp("too many HTTP headers".into()));
                }
                slots = lines;
            }
            Err(e) => {
                let start = String::from_utf8_lossy(&block[..block.len().min(20)]).into_owned();
                return Err(WarcError::NotHttp(format!("{e} (starts with {start:?})")));
            }
        }
    }
}

fn http_of(response: &httparse::Response, body_start: usize) -> Http {
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
    Http {
        body_start,
        html,
        charset,
        chunked,
        encoding,
    }
}

/// Undoes a `Content-Encoding` (a list such as `gzip, br` is undone last first), at most
/// `limit` bytes of output: `gzip|x-gzip`, `deflate` (zlib-wrapped or raw), `br`, `zstd`.
/// A gzip or zstd body without its magic bytes, or a body that does not decode but starts with
/// `<` (after white space or a BOM), was stored decoded and is returned as it is.
fn decode_content(body: Vec<u8>, encoding: &str, limit: u64) -> Result<Vec<u8>, String> {
    let mut body = body;
    for enc in encoding.split(',').map(str::trim).rev() {
        body = decode_one(body, enc, limit)?;
    }
    Ok(body)
}

fn decode_one(body: Vec<u8>, encoding: &str, limit: u64) -> Result<Vec<u8>, String> {
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
    let b = &body[..];
    let result = match encoding {
        "" | "identity" => return Ok(body),
        "gzip" | "x-gzip" if !b.starts_with(&GZIP_HEADER[..2]) => return Ok(body),
        "gzip" | "x-gzip" => all(MultiGzDecoder::new(b), limit),
        "deflate" => {
            all(ZlibDecoder::new(b), limit).or_else(|_| all(DeflateDecoder::new(b), limit))
        }
        "br" => all(brotli_decompressor::Decompressor::new(b, 4096), limit),
        "zstd" if !b.starts_with(&ZSTD_MAGIC) => return Ok(body),
        "zstd" => ruzstd::decoding::StreamingDecoder::new(b)
            .map_err(io::Error::other)
            .and_then(|d| all(d, limit)),
        other => return Err(format!("unsupported Content-Encoding {other:?}")),
    };
    match result {
        Ok(out) => Ok(out),
        Err(_) if looks_like_markup(b) => Ok(body),
        Err(e) => Err(format!("Content-Encoding {encoding}: {e}")),
    }
}

/// Whether `b` starts with `<` after white space and a UTF-8 BOM: HTML stored decoded.
fn looks_like_markup(b: &[u8]) -> bool {
    let b = b.strip_prefix(b"\xef\xbb\xbf").unwrap_or(b);
    b.iter().find(|c| !c.is_ascii_whitespace()) == Some(&b'<')
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
    use std::io::Write;

    /// A record whose header says `Content-Length: length`.
    fn record_len(kind: &str, id: &str, block: &[u8], length: u64) -> Vec<u8> {
        let mut r = format!(
            "WARC/1.1\r\nWARC-Type: {kind}\r\nWARC-Record-ID: <urn:uuid:{id}>\r\n             WARC-Target-URI: http://{id}.example/\r\nContent-Length: {length}\r\n\r\n"
        )
        .into_bytes();
        r.extend_from_slice(block);
        r.extend_from_slice(b"\r\n\r\n");
        r
    }

    fn page(id: &str) -> Vec<u8> {
        let block = format!("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n<p>{id}</p>");
        record_len("response", id, block.as_bytes(), block.len() as u64)
    }

    fn gzip(bytes: &[u8]) -> Vec<u8> {
        let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        e.write_all(bytes).unwrap();
        e.finish().unwrap()
    }

    /// What an item is, in a line: `page ID`, `bad ID @OFFSET+LEN: ERROR`, `junk @OFFSET+LEN`.
    fn show(item: &Item) -> String {
        let id = |s: &str| {
            s.trim_start_matches("<urn:uuid:")
                .trim_end_matches('>')
                .to_string()
        };
        match item {
            Item::Page(p) => format!("page {}", id(&p.record_id)),
            Item::Bad(b) => {
                let kind = match &b.error {
                    WarcError::Truncated { .. } => "truncated",
                    WarcError::ContentLength { .. } => "length",
                    WarcError::Header(_) => "header",
                    WarcError::HeaderTooLong { .. } => "header-too-long",
                    WarcError::TooLarge { .. } => "too-large",
                    WarcError::MemberTooLarge { .. } => "member-too-large",
                    WarcError::Gzip(_) => "gzip",
                    e => return format!("bad {e}"),
                };
                let len = b.len.map_or("?".into(), |n| n.to_string());
                let rid = b.record_id.as_deref().map(|r| id(r) + " ");
                let rid = rid.unwrap_or_default();
                format!("bad {rid}@{}+{len}: {kind}", b.offset)
            }
            Item::Junk(j) => format!("junk @{}+{}", j.offset, j.len),
        }
    }

    fn seekable(file: &[u8], limits: &Limits) -> Vec<String> {
        let r = WarcReader::new(io::Cursor::new(file), limits).unwrap();
        r.map(|i| show(&i)).collect()
    }

    fn streamed(file: &[u8], limits: &Limits) -> Vec<String> {
        // One byte at a time at first, as a pipe may give them.
        struct Trickle<'a>(&'a [u8], usize);
        impl Read for Trickle<'_> {
            fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
                let n = buf
                    .len()
                    .min(self.0.len())
                    .min(if self.1 < 3 { 1 } else { 1 << 16 });
                self.1 += 1;
                buf[..n].copy_from_slice(&self.0[..n]);
                self.0 = &self.0[n..];
                Ok(n)
            }
        }
        let r = WarcReader::from_stream(Trickle(file, 0), limits).unwrap();
        r.map(|i| show(&i)).collect()
    }

    #[test]
    fn version_lines() {
        for ok in [
            "WARC/1.0\r\n",
            "WARC/1.1\n",
            "WARC/0.17 \r\n",
            "WARC/10.2\t\r\nX",
        ] {
            assert!(version_line_len(ok.as_bytes()).is_some(), "{ok:?}");
        }
        assert_eq!(version_line_len(b"WARC/1.0\r\nWARC-Type"), Some(10));
        for bad in [
            "WARC/1.0",
            "WARC/1\r\n",
            "WARC/a.b\n",
            "WARC/12345.0\n",
            "WARC-Type: x\n",
        ] {
            assert_eq!(version_line_len(bad.as_bytes()), None, "{bad:?}");
        }
        assert_eq!(
            version_line_inside(b"WARC-Type: respWARC/1.1\r\n"),
            Some(15)
        );
        assert_eq!(version_line_inside(b"WARC/1.1\r\n"), Some(0));
        assert_eq!(version_line_inside(b"X-Note: WARC/1.1 is fine\r\n"), None);
    }

    #[test]
    fn a_record_cut_mid_line_loses_nothing_after_it() {
        // The second record is cut inside its header line; the third follows on the same line.
        let a = page("a");
        let b = page("b");
        let cut = b.iter().position(|&c| c == b'r').unwrap() + 20;
        let c = page("c");
        let file = [&a[..], &b[..cut], &c[..], &page("d")[..]].concat();
        let start_b = a.len();
        let start_c = start_b + cut;
        let want = vec![
            "page a".to_string(),
            format!("bad @{start_b}+{cut}: header"),
            "page c".into(),
            "page d".into(),
        ];
        assert_eq!(seekable(&file, &Limits::default()), want);
        assert_eq!(streamed(&file, &Limits::default()), want);
        // Cut at a line's end: the next version line is a whole line of the header.
        let cut = b.windows(2).position(|w| w == b"\r\n").unwrap() + 2;
        let file = [&a[..], &b[..cut + 10], b"\r\n", &c[..]].concat();
        let want = vec![
            "page a".to_string(),
            format!("bad @{start_b}+{}: header", cut + 12),
            "page c".into(),
        ];
        assert_eq!(seekable(&file, &Limits::default()), want);
        assert_eq!(start_c - start_b, start_c - a.len());
    }

    #[test]
    fn junk_between_records_is_reported_and_skipped() {
        // 5,000 random bytes between two records, none of them a version line.
        let junk = crate::fuzzing::Xorshift(0x2545_f491_4f6c_dd1d).bytes(5000);
        let a = page("a");
        let file = [
            &a[..],
            &junk[..],
            &page("b")[..],
            b"\r\n\r\n",
            &page("c")[..],
        ]
        .concat();
        let want = vec![
            "page a".to_string(),
            format!("junk @{}+5000", a.len()),
            "page b".into(),
            "page c".into(),
        ];
        assert_eq!(seekable(&file, &Limits::default()), want);
        assert_eq!(streamed(&file, &Limits::default()), want);
        // Junk at the start and at the end of the file.
        let file = [&junk[..100], &page("a")[..], &junk[..7]].concat();
        let want = vec![
            "junk @0+100".to_string(),
            "page a".into(),
            format!("junk @{}+7", 100 + a.len()),
        ];
        assert_eq!(seekable(&file, &Limits::default()), want);
        assert_eq!(streamed(&file, &Limits::default()), want);
    }

    #[test]
    fn a_too_long_record_after_one_claiming_4_gib() {
        let a = page("a");
        let block = b"HTTP/1.1 200 OK\r\n\r\n<p>huge</p>";
        let huge = record_len("response", "huge", block, 4 << 30);
        let block = b"HTTP/1.1 200 OK\r\n\r\n<p>long</p>";
        let long = record_len("response", "long", block, block.len() as u64 + 300);
        let (b, c) = (page("b"), page("c"));
        let file = [&a[..], &huge[..], &long[..], &b[..], &c[..]].concat();
        let at_huge = a.len();
        let at_long = at_huge + huge.len();
        let want = vec![
            "page a".to_string(),
            format!("bad huge @{at_huge}+{}: truncated", huge.len()),
            format!("bad long @{at_long}+{}: length", long.len()),
            "page b".into(),
            "page c".into(),
        ];
        assert_eq!(seekable(&file, &Limits::default()), want);
        // On a stream the 4 GiB block (over the limit) is not kept: the rest of the file went
        // with it, and the bad record's span says so.
        let want = vec![
            "page a".to_string(),
            format!("bad huge @{at_huge}+{}: truncated", file.len() - at_huge),
        ];
        assert_eq!(streamed(&file, &Limits::default()), want);
        // Within the limit the block is kept and scanned again: nothing is lost.
        let small = record_len("response", "huge", block, 1 << 20);
        let file = [&a[..], &small[..], &long[..], &b[..], &c[..]].concat();
        let at_long = at_huge + small.len();
        let want = vec![
            "page a".to_string(),
            format!("bad huge @{at_huge}+{}: truncated", small.len()),
            format!("bad long @{at_long}+{}: length", long.len()),
            "page b".into(),
            "page c".into(),
        ];
        assert_eq!(seekable(&file, &Limits::default()), want);
        assert_eq!(streamed(&file, &Limits::default()), want);
    }

    #[test]
    fn wrong_lengths_cost_no_rereading_and_streams_are_budgeted() {
        // 2,000 records that all claim to run 10 MB past the end. A seekable file checks each
        // length before reading: every record is reported with its own span. A stream reads
        // each block to the end of the file and scans it again from memory, within a budget;
        // past it, the rest goes with one record whose span reaches the end.
        let mut file = Vec::new();
        for k in 0..2000 {
            file.extend_from_slice(
                format!(
                    "WARC/1.1\r\nWARC-Type: response\r\nWARC-Record-ID: <urn:uuid:{k}>\r\n                     Content-Length: 10000000\r\n\r\nHTTP/1.1 200 OK\r\n\r\n<p>{k}</p>\r\n\r\n"
                )
                .as_bytes(),
            );
        }
        let items = seekable(&file, &Limits::default());
        assert_eq!(items.len(), 2000);
        assert!(items.iter().all(|i| i.ends_with("truncated")), "{items:?}");
        let started = std::time::Instant::now();
        let reader = WarcReader::from_stream(&file[..], &Limits::default()).unwrap();
        let items: Vec<Item> = reader.collect();
        assert!(started.elapsed().as_secs() < 10);
        assert!(
            items.len() >= 2 && items.len() < 100,
            "{} items",
            items.len()
        );
        let Some(Item::Bad(last)) = items.last() else {
            panic!("{:?}", items.last())
        };
        assert_eq!(last.offset + last.len.unwrap(), file.len() as u64);
        let Item::Bad(b) = &items[items.len() - 1] else {
            unreachable!()
        };
        let WarcError::Truncated { .. } = b.error else {
            panic!("{:?}", b.error)
        };
    }

    #[test]
    fn header_lines_are_bounded() {
        // A header line of 1 MB: the record is bad after 64 KiB, and the next one is read.
        let mut long = b"WARC/1.1\r\nWARC-Type: response\r\nX-Long: ".to_vec();
        long.resize(1 << 20, b'x');
        long.extend_from_slice(b"\r\n\r\n");
        let file = [&long[..], &page("b")[..]].concat();
        let want = vec![
            format!("bad @0+{}: header-too-long", long.len()),
            "page b".to_string(),
        ];
        assert_eq!(seekable(&file, &Limits::default()), want);
        assert_eq!(streamed(&file, &Limits::default()), want);
    }

    /// A gzip member of `prefix` then `n` zero bytes (no newline), written as it is made.
    fn bomb(prefix: &[u8], n: usize) -> Vec<u8> {
        let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        e.write_all(prefix).unwrap();
        let zeros = vec![0u8; 1 << 20];
        for _ in 0..n >> 20 {
            e.write_all(&zeros).unwrap();
        }
        e.finish().unwrap()
    }

    #[test]
    fn a_gzip_member_inflating_to_300_mb_without_a_newline_is_dropped() {
        let good = gzip(&page("b"));
        for prefix in [&b""[..], b"WARC/1.0\r\nWARC-Type: response\r\nX: "] {
            let member = bomb(prefix, 300 << 20);
            let file = [&gzip(&page("a"))[..], &member[..], &good[..]].concat();
            let at = gzip(&page("a")).len();
            let want = vec![
                "page a".to_string(),
                format!("bad @{at}+{}: member-too-large", member.len()),
                "page b".into(),
            ];
            let small = Limits {
                max_input_bytes: 1 << 20,
                ..Limits::default()
            };
            assert_eq!(seekable(&file, &small), want);
            assert_eq!(streamed(&file, &small), want);
            // With the default limit (256 MiB) too, in bounded memory.
            assert_eq!(seekable(&file, &Limits::default()), want);
        }
    }

    #[test]
    fn one_gzip_member_holding_more_than_the_limit_is_read_whole() {
        // 100 records in one member, 19 KB decoded, under a 2 KiB limit: records are not junk.
        let all: Vec<u8> = (0..100).flat_map(|k| page(&format!("p{k}"))).collect();
        assert!(all.len() > 5 * 2048);
        let limits = Limits {
            max_input_bytes: 2048,
            ..Limits::default()
        };
        let want: Vec<String> = (0..100).map(|k| format!("page p{k}")).collect();
        assert_eq!(seekable(&gzip(&all), &limits), want);
        assert_eq!(streamed(&gzip(&all), &limits), want);
    }

    #[test]
    fn a_sparse_8_gib_file_is_read_past_its_hole() {
        let dir = std::env::temp_dir().join(format!("pagelevel-sparse-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("sparse.warc");
        let a = page("a");
        {
            let mut f = File::create(&path).unwrap();
            f.write_all(&a).unwrap();
            f.set_len(8 << 30).unwrap();
            f.seek(SeekFrom::End(0)).unwrap();
            f.write_all(&page("b")).unwrap();
        }
        let started = std::time::Instant::now();
        let items: Vec<String> = WarcReader::open(&path, &Limits::default())
            .unwrap()
            .map(|i| show(&i))
            .collect();
        let secs = started.elapsed().as_secs_f64();
        std::fs::remove_dir_all(&dir).unwrap();
        let hole = (8u64 << 30) - a.len() as u64;
        assert_eq!(
            items,
            vec![
                "page a".to_string(),
                format!("junk @{}+{hole}", a.len()),
                "page b".into()
            ]
        );
        assert!(secs < 5.0, "{secs} s");
    }

    #[test]
    fn input_open_tells_warc_from_page_and_reads_once() {
        let dir = std::env::temp_dir().join(format!("pagelevel-input-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let warc = dir.join("crawl.bin");
        std::fs::write(&warc, gzip(&page("a"))).unwrap();
        let html = dir.join("page.html");
        std::fs::write(&html, b"<p>hello</p>").unwrap();
        let Ok(Input::Warc(r)) = Input::open(&warc, &Limits::default()) else {
            panic!("not WARC")
        };
        assert_eq!(r.map(|i| show(&i)).collect::<Vec<_>>(), ["page a"]);
        let Ok(Input::Page(p)) = Input::open(&html, &Limits::default()) else {
            panic!("not a page")
        };
        assert_eq!(p.size(), Some(12));
        assert_eq!(p.read(&Limits::default()).unwrap(), b"<p>hello</p>");
        std::fs::remove_dir_all(&dir).unwrap();
        // A stream: the sniffed bytes are read once, in front of the rest.
        let long: Vec<u8> = b"<p>".iter().chain(&[b'x'; 2000]).copied().collect();
        let Ok(Input::Page(p)) =
            Input::from_reader(io::Cursor::new(long.clone()), "-", &Limits::default())
        else {
            panic!("not a page")
        };
        assert_eq!(p.size(), None);
        assert_eq!(p.read(&Limits::default()).unwrap(), long);
        let file = [page("a"), page("b")].concat();
        let Ok(Input::Warc(r)) = Input::from_reader(io::Cursor::new(file), "-", &Limits::default())
        else {
            panic!("not WARC")
        };
        assert_eq!(
            r.map(|i| show(&i)).collect::<Vec<_>>(),
            ["page a", "page b"]
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
    fn any_number_of_http_headers_within_the_size_bound() {
        let mut head = b"HTTP/1.1 200 OK\r\n".to_vec();
        for k in 0..3000 {
            head.extend_from_slice(format!("Set-Cookie: c{k}=v\r\n").as_bytes());
        }
        head.extend_from_slice(b"Content-Type: text/html; charset=utf-8\r\n\r\n<p>");
        let h = parse_http(&head).unwrap();
        assert_eq!(h.charset.as_deref(), Some("utf-8"));
        assert_eq!(h.body_start, head.len() - 3);
        // A header block over 256 KiB is a bad record.
        let mut huge = b"HTTP/1.1 200 OK\r\nX-Big: ".to_vec();
        huge.resize(MAX_HTTP_HEADER_BYTES + 10, b'a');
        huge.extend_from_slice(b"\r\n\r\n<p>");
        assert!(matches!(
            parse_http(&huge),
            Err(WarcError::HttpHeaderTooLong { .. })
        ));
    }

    /// An article of `brotli0 … brotli39` twice, compressed by `brotli -q 11`.
    const BROTLI: &[u8] = include_bytes!("../../tests/data/article.br");

    #[test]
    fn content_encodings() {
        let gz = gzip(b"<p>hello</p>");
        let decode = |b: &[u8], enc, limit| decode_content(b.to_vec(), enc, limit);
        assert_eq!(decode(&gz, "gzip", 100).unwrap(), b"<p>hello</p>");
        assert!(decode(&gz, "gzip", 5).is_err(), "over the limit");
        let mut z = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::fast());
        z.write_all(b"<p>zlib</p>").unwrap();
        assert_eq!(
            decode(&z.finish().unwrap(), "deflate", 100).unwrap(),
            b"<p>zlib</p>"
        );
        // Stored decoded although the header says gzip (or zstd, or br): taken as it is.
        assert_eq!(
            decode(b"<p>plain</p>", "gzip", 100).unwrap(),
            b"<p>plain</p>"
        );
        assert_eq!(
            decode(b"<p>plain</p>", "zstd", 100).unwrap(),
            b"<p>plain</p>"
        );
        assert_eq!(
            decode(b" <p>plain</p>", "br", 100).unwrap(),
            b" <p>plain</p>"
        );
        assert!(decode(b"x", "br", 100).is_err());
        assert!(decode(b"x", "compress", 100).is_err());
        let br = decode(BROTLI, "br", 1 << 20).unwrap();
        let text = String::from_utf8(br).unwrap();
        assert!(
            text.contains("brotli0 brotli1") && text.ends_with("</html>"),
            "{text}"
        );
        assert!(decode(BROTLI, "br", 100).is_err(), "over the limit");
        let zst = ruzstd::encoding::compress_to_vec(
            &b"<p>zstd zstd zstd</p>"[..],
            ruzstd::encoding::CompressionLevel::Fastest,
        );
        assert_eq!(decode(&zst, "zstd", 100).unwrap(), b"<p>zstd zstd zstd</p>");
        assert!(decode(&zst, "zstd", 5).is_err(), "over the limit");
        // A list is undone last first.
        assert_eq!(
            decode(&gzip(&zst), "zstd, gzip", 100).unwrap(),
            b"<p>zstd zstd zstd</p>"
        );
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
