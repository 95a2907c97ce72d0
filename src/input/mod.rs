//! Reading pages: plain or gzip-compressed files and buffers, within [`Limits::max_input_bytes`].

pub mod jobs;
pub mod manifest;
pub mod walk;
pub mod warc;

use std::fs::File;
use std::io::{self, BufRead, BufReader, Read};
use std::path::{Path, PathBuf};

use flate2::bufread::MultiGzDecoder;

use crate::{Error, Limits, Result};

/// The first two bytes of every gzip member.
const GZIP_MAGIC: [u8; 2] = [0x1f, 0x8b];

/// Reads the page at `path`, decompressing it when its name ends in `.gz` or it starts with
/// the gzip magic bytes; more than `limits.max_input_bytes` (after decompression) is
/// [`Error::TooLarge`], and reading stops one byte past the limit.
pub fn read_page(path: &Path, limits: &Limits) -> Result<Vec<u8>> {
    let io_err = |source| Error::Io {
        path: path.to_path_buf(),
        source,
    };
    let file = File::open(path).map_err(io_err)?;
    let file_len = file.metadata().map_err(io_err)?.len();
    let named_gz = path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("gz"));
    if let Some(declared) = gzip_declared_over_limit(&file, file_len, named_gz, limits) {
        return Err(too_large(path.display().to_string(), declared, limits));
    }
    read_from(file, path, named_gz, Some(file_len), limits)
}

/// The size a gzip file's trailer declares when it shows the page is over the limit, so that
/// the page is refused before anything is inflated; `None` when the file is not gzip (by name or
/// magic bytes), cannot be read at an offset, or its trailer says nothing
/// (a claim deflate could not make). The file's cursor does not move.
pub fn gzip_declared_over_limit(
    file: &File,
    file_len: u64,
    named_gz: bool,
    limits: &Limits,
) -> Option<u64> {
    let declared = gzip_trailer_size(file, file_len, named_gz)?;
    trailer_over_limit(declared, file_len, limits).then_some(declared)
}

/// Like [`read_page`] for a reader opened already (`reader` is read once, from where it is):
/// `named_gz` when the name ends in `.gz`, `size` the file's size when known (a size over the
/// limit of an uncompressed page fails before reading).
pub fn read_from<R: Read>(
    reader: R,
    path: &Path,
    named_gz: bool,
    size: Option<u64>,
    limits: &Limits,
) -> Result<Vec<u8>> {
    let io_err = |source| Error::Io {
        path: path.to_path_buf(),
        source,
    };
    let mut reader = BufReader::with_capacity(64 << 10, TrackedRead::new(reader));
    let magic = reader.fill_buf().map_err(io_err)?.starts_with(&GZIP_MAGIC);
    if magic || named_gz {
        // Typical HTML compresses 4-8x; the guess only sizes the first allocation.
        let guess = size.map_or(1 << 20, |s| s.saturating_mul(6));
        read_gz(reader, path, guess, limits)
    } else {
        if let Some(len) = size.filter(|&s| s > limits.max_input_bytes) {
            return Err(too_large(path.display().to_string(), len, limits));
        }
        read_limited(
            reader,
            path.display().to_string(),
            size.unwrap_or(1 << 20),
            limits,
        )
        .map_err(|e| e.unwrap_or_else(|(source, _)| io_err(source)))
    }
}

/// Like [`read_page`] for a stream (standard input, a pipe): gunzips it when it starts with
/// the gzip magic bytes; `what` names the input in errors. Reads at most one byte past the limit.
pub fn read_stream<R: Read>(reader: R, what: &str, limits: &Limits) -> Result<Vec<u8>> {
    let path = Path::new(what);
    let io_err = |source| Error::Io {
        path: path.to_path_buf(),
        source,
    };
    let mut reader = BufReader::with_capacity(64 << 10, TrackedRead::new(reader));
    if reader.fill_buf().map_err(io_err)?.starts_with(&GZIP_MAGIC) {
        read_gz(reader, path, 1 << 20, limits)
    } else {
        read_limited(reader, what.to_string(), 1 << 20, limits)
            .map_err(|e| e.unwrap_or_else(|(source, _)| io_err(source)))
    }
}

/// Like [`read_page`] for bytes already in memory (e.g. a WARC record): gunzips them when
/// they start with the gzip magic bytes; `what` names the input in errors.
pub fn read_bytes(bytes: &[u8], what: &str, limits: &Limits) -> Result<Vec<u8>> {
    if bytes.starts_with(&GZIP_MAGIC) {
        let isize = bytes
            .len()
            .checked_sub(4)
            .filter(|_| bytes.len() >= GZIP_MIN_LEN)
            .map(|k| isize_field(&bytes[k..]));
        if let Some(size) = isize.filter(|&n| trailer_over_limit(n, bytes.len() as u64, limits)) {
            return Err(too_large(what.to_string(), size, limits));
        }
        let guess = (bytes.len() as u64).saturating_mul(6);
        read_gz(
            BufReader::new(TrackedRead::new(bytes)),
            Path::new(what),
            guess,
            limits,
        )
    } else if bytes.len() as u64 > limits.max_input_bytes {
        Err(too_large(what.to_string(), bytes.len() as u64, limits))
    } else {
        Ok(bytes.to_vec())
    }
}

/// The ISIZE of a gzip file's trailer (its last member's size mod 2^32), read at offsets so the
/// cursor stays; `None` for a file that is not gzip, shorter than a header and trailer, or not
/// readable at an offset (a pipe; any file off Unix).
fn gzip_trailer_size(file: &File, file_len: u64, named_gz: bool) -> Option<u64> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileExt;
        if file_len < GZIP_MIN_LEN as u64 || !file.metadata().ok()?.is_file() {
            return None;
        }
        let mut magic = [0u8; 2];
        file.read_exact_at(&mut magic, 0).ok()?;
        if magic != GZIP_MAGIC && !named_gz {
            return None;
        }
        let mut tail = [0u8; 4];
        file.read_exact_at(&mut tail, file_len - 4).ok()?;
        Some(isize_field(&tail))
    }
    #[cfg(not(unix))]
    {
        let _ = (file, file_len, named_gz);
        None
    }
}

/// The shortest gzip member: a 10-byte header and an 8-byte trailer.
const GZIP_MIN_LEN: usize = 18;

/// The ISIZE field (little-endian u32) at the start of `tail`, a gzip member's last 4 bytes.
fn isize_field(tail: &[u8]) -> u64 {
    u64::from(u32::from_le_bytes([tail[0], tail[1], tail[2], tail[3]]))
}

/// Whether a gzip trailer's ISIZE `declared` for a file of `compressed` bytes shows the page is
/// over the limit. ISIZE is the size mod 2^32, so it only tells for limits under 4 GiB; and
/// deflate expands at most 1032 times, so a larger claim is no trailer (a truncated file) and is
/// left to the decompressor, which then reports the corrupt data.
fn trailer_over_limit(declared: u64, compressed: u64, limits: &Limits) -> bool {
    declared > limits.max_input_bytes
        && limits.max_input_bytes < 1 << 32
        && declared <= compressed.saturating_mul(1032)
}

/// Decompresses all gzip members from `reader`, up to the limit.
fn read_gz<R: Read>(
    reader: BufReader<TrackedRead<R>>,
    path: &Path,
    size_guess: u64,
    limits: &Limits,
) -> Result<Vec<u8>> {
    let mut decoder = MultiGzDecoder::new(reader);
    let what = path.display().to_string();
    let result = read_limited(&mut decoder, what, size_guess, limits);
    result.map_err(|e| match e {
        Ok(limit_err) => limit_err,
        // The file itself failed to read: that is an I/O error, not a gzip one.
        Err((source, _)) if decoder.get_ref().get_ref().failed => Error::Io {
            path: path.to_path_buf(),
            source,
        },
        Err((source, decompressed)) => Error::Gzip {
            path: PathBuf::from(path),
            decompressed,
            source,
        },
    })
}

/// Reads at most `limit + 1` bytes; over the limit is `Ok(Error::TooLarge)` in the error,
/// a read error comes with the number of bytes read before it.
fn read_limited<R: Read>(
    reader: R,
    what: String,
    size_guess: u64,
    limits: &Limits,
) -> std::result::Result<Vec<u8>, LimitedErr> {
    let limit = limits.max_input_bytes;
    let cap = size_guess.min(limit.saturating_add(1)).min(1 << 30);
    let mut buf = Vec::with_capacity(usize::try_from(cap).unwrap_or(0));
    let mut taken = reader.take(limit.saturating_add(1));
    if let Err(e) = taken.read_to_end(&mut buf) {
        return Err(Err((e, buf.len() as u64)));
    }
    if buf.len() as u64 > limit {
        return Err(Ok(too_large(what, buf.len() as u64, limits)));
    }
    Ok(buf)
}

/// What [`read_limited`] fails with: the size error, or an I/O error and the bytes read.
type LimitedErr = std::result::Result<Error, (io::Error, u64)>;

/// The error for an input of at least `size` bytes.
fn too_large(what: String, size: u64, limits: &Limits) -> Error {
    Error::TooLarge {
        what,
        size,
        limit: limits.max_input_bytes,
    }
}

/// A reader that remembers whether the underlying read ever failed, so that a failing
/// file is told apart from corrupt gzip data inside the decoder.
struct TrackedRead<R> {
    inner: R,
    failed: bool,
}

impl<R> TrackedRead<R> {
    fn new(inner: R) -> Self {
        TrackedRead {
            inner,
            failed: false,
        }
    }
}

impl<R: Read> Read for TrackedRead<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let result = self.inner.read(buf);
        self.failed |= result
            .as_ref()
            .is_err_and(|e| e.kind() != io::ErrorKind::Interrupted);
        result
    }
}
