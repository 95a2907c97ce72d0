//! Is this input HTML at all? WHATWG MIME sniffing (<https://mimesniff.spec.whatwg.org/>),
//! the rules a browser applies to a resource of unknown type, read as a question about a page
//! handed to us as HTML: what a browser would sniff as HTML or as text is parsed; what it would
//! sniff as a binary format (an image, a PDF, an archive, a font, audio or video) or as
//! `application/octet-stream` (binary data bytes in the first 1445 bytes) is not HTML, and that
//! input alone fails with [`crate::Error::NotHtml`].

/// Bytes of the resource header the rules look at (WHATWG: 1445).
pub const HEADER_BYTES: usize = 1445;

/// The HTML signatures of "identifying a resource with an unknown MIME type", after leading
/// whitespace, ASCII case-insensitive; all but `<!--` must be followed by a space or `>`.
const HTML_PATTERNS: &[&[u8]] = &[
    b"<!DOCTYPE HTML",
    b"<HTML",
    b"<HEAD",
    b"<SCRIPT",
    b"<IFRAME",
    b"<H1",
    b"<DIV",
    b"<FONT",
    b"<TABLE",
    b"<A",
    b"<STYLE",
    b"<TITLE",
    b"<B",
    b"<BODY",
    b"<BR",
    b"<P",
];

/// Exact signatures of binary formats (the spec's image, audio/video, font and archive tables,
/// PDF and PostScript), with what each is. `?` in a pattern matches any byte. A short signature
/// of printable letters (`BM`, `ID3`, `OTTO`…) could start a text page too, so it counts only
/// with a binary data byte in the header ([`is_weak`]).
const BINARY_SIGNATURES: &[(&[u8], &str)] = &[
    (b"%PDF-", "a PDF document"),
    (b"%!PS-Adobe-", "a PostScript document"),
    (b"GIF87a", "a GIF image"),
    (b"GIF89a", "a GIF image"),
    (b"\x89PNG\r\n\x1a\n", "a PNG image"),
    (b"\xff\xd8\xff", "a JPEG image"),
    (b"BM", "a BMP image"),
    (b"RIFF????WEBPVP", "a WebP image"),
    (b"\x00\x00\x01\x00", "an icon"),
    (b"\x00\x00\x02\x00", "a cursor"),
    (b"\x1a\x45\xdf\xa3", "a WebM or Matroska file"),
    (b".snd", "an audio file"),
    (b"FORM????AIFF", "an audio file"),
    (b"ID3", "an MP3 file"),
    (b"OggS\x00", "an Ogg file"),
    (b"MThd\x00\x00\x00\x06", "a MIDI file"),
    (b"RIFF????AVI ", "an AVI video"),
    (b"RIFF????WAVE", "a WAVE audio file"),
    (b"????ftyp", "an MP4 file"),
    (b"wOFF", "a WOFF font"),
    (b"wOF2", "a WOFF2 font"),
    (b"\x00\x01\x00\x00", "a TrueType font"),
    (b"OTTO", "an OpenType font"),
    (b"ttcf", "a TrueType collection"),
    (b"\x1f\x8b\x08", "a gzip archive"),
    (b"PK\x03\x04", "a ZIP archive"),
    (b"Rar!\x1a\x07\x00", "a RAR archive"),
    (b"Rar!\x1a\x07\x01\x00", "a RAR archive"),
    (b"7z\xbc\xaf\x27\x1c", "a 7-Zip archive"),
    (b"\x28\xb5\x2f\xfd", "a Zstandard archive"),
    (b"\xfd7zXZ\x00", "an XZ archive"),
    (b"BZh", "a bzip2 archive"),
    (b"\x7fELF", "an executable"),
    (b"MZ", "an executable"),
];

/// What the input is when it is not HTML or text, as a phrase for the error ("a PDF
/// document", "binary data"); `None` for anything a browser would render as HTML or text.
///
/// In order: a BOM (UTF-8, UTF-16) or UTF-16 without one ([`crate::decode::utf16_without_bom`])
/// is text; an HTML signature after leading whitespace is HTML; a binary signature is that
/// format (a short printable one only beside binary bytes); a binary data byte (0x00–0x08, 0x0B, 0x0E–0x1A, 0x1C–0x1F) in the first
/// [`HEADER_BYTES`] is binary data; anything else is text.
///
/// # Complexity
/// O(1): at most [`HEADER_BYTES`] bytes are read.
pub fn binary_kind(bytes: &[u8]) -> Option<&'static str> {
    let header = &bytes[..bytes.len().min(HEADER_BYTES)];
    if header.starts_with(b"\xef\xbb\xbf")
        || header.starts_with(b"\xfe\xff")
        || header.starts_with(b"\xff\xfe")
        || crate::decode::utf16_without_bom(header).is_some()
    {
        return None;
    }
    let start = header
        .iter()
        .position(|b| !matches!(b, b'\t' | b'\n' | b'\x0c' | b'\r' | b' '))
        .unwrap_or(header.len());
    if is_html_signature(&header[start..]) {
        return None;
    }
    let binary_bytes = header
        .iter()
        .any(|&b| matches!(b, 0x00..=0x08 | 0x0b | 0x0e..=0x1a | 0x1c..=0x1f));
    if let Some((_, kind)) = BINARY_SIGNATURES
        .iter()
        .find(|(sig, _)| matches_signature(header, sig) && (binary_bytes || !is_weak(sig)))
    {
        return Some(kind);
    }
    binary_bytes.then_some("binary data")
}

/// Whether `rest` starts with one of [`HTML_PATTERNS`] and a tag-terminating byte, or `<!--`
/// or `<?xml`.
fn is_html_signature(rest: &[u8]) -> bool {
    if rest.starts_with(b"<!--") || rest.starts_with(b"<?xml") {
        return true;
    }
    HTML_PATTERNS.iter().any(|p| {
        rest.len() > p.len()
            && rest[..p.len()].eq_ignore_ascii_case(p)
            && matches!(rest[p.len()], b' ' | b'>')
    })
}

/// Whether `header` starts with `sig`, `?` in `sig` matching any byte.
fn matches_signature(header: &[u8], sig: &[u8]) -> bool {
    header.len() >= sig.len() && header.iter().zip(sig).all(|(&b, &s)| s == b'?' || b == s)
}

/// Whether `sig` is short and printable, so that text can start with it.
fn is_weak(sig: &[u8]) -> bool {
    sig.len() <= 4 && sig.iter().all(|b| b.is_ascii_graphic())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn html_and_text_pass() {
        for page in [
            &b"<!doctype html><p>x"[..],
            b"  \n<HTML lang=en>",
            b"<p>hello</p>",
            b"plain text, no markup",
            b"",
            b"\xef\xbb\xbf<p>\x01</p>",
            b"<!-- \x00 -->",
            "Grüße".as_bytes(),
            b"\xe9t\xe9 en fran\xe7ais",
        ] {
            assert_eq!(binary_kind(page), None, "{page:?}");
        }
    }

    #[test]
    fn binary_formats_fail() {
        assert_eq!(binary_kind(b"%PDF-1.7\n%\xe2\xe3"), Some("a PDF document"));
        assert_eq!(binary_kind(b"\x89PNG\r\n\x1a\n\0\0"), Some("a PNG image"));
        assert_eq!(binary_kind(b"RIFF\x10\0\0\0WEBPVP8 "), Some("a WebP image"));
        assert_eq!(binary_kind(b"\0\0\0\x18ftypmp42"), Some("an MP4 file"));
        assert_eq!(binary_kind(b"PK\x03\x04\x14\0"), Some("a ZIP archive"));
        assert_eq!(binary_kind(b"text\x00\x01\x02"), Some("binary data"));
        // An HTML signature first wins over binary bytes, as in a browser.
        assert_eq!(binary_kind(b"<p>a</p>\x00\x01\x02"), None);
        // A control byte past the header does not count.
        let mut late = vec![b'a'; HEADER_BYTES];
        late.push(0);
        assert_eq!(binary_kind(&late), None);
    }

    #[test]
    fn short_printable_signatures_need_binary_bytes() {
        assert_eq!(binary_kind(b"BMW unveils a car"), None);
        assert_eq!(binary_kind(b"BM\x36\x00\x0c\x00"), Some("a BMP image"));
        assert_eq!(binary_kind(b"ID3 tags explained"), None);
        assert_eq!(binary_kind(b"ftyp"), None);
    }
}
