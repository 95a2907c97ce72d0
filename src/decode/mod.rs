//! Bytes to UTF-8 text: the first stage of the pipeline.
//!
//! [`decode`] picks one encoding per page, in this order:
//!
//! 1. a byte order mark (UTF-8, UTF-16LE, UTF-16BE) wins over everything, then UTF-16 without
//!    a BOM, recognised by its zero bytes ([`utf16_without_bom`]);
//! 2. a charset handed in by the caller (HTTP `Content-Type`, WARC headers);
//! 3. a `<meta charset>`, `<meta http-equiv="Content-Type" content="…charset=…">` or
//!    `<?xml … encoding="…"?>` found by [`prescan`];
//! 4. detection with `chardetng`.
//!
//! Declarations lie in real data, so two overrides apply to steps 2 and 3 (see
//! [`decode`] for the exact rules): a declared legacy charset yields to UTF-8 when the bytes
//! are valid UTF-8 with non-ASCII in them, and a declared UTF-8 on bytes that are mostly not
//! UTF-8 falls through to detection. Invalid bytes become U+FFFD; nothing here panics.

pub mod sniff;

use std::borrow::Cow;

use chardetng::{EncodingDetector, Iso2022JpDetection, Utf8Detection};
use encoding_rs::{Encoding, REPLACEMENT, UTF_16BE, UTF_16LE, UTF_8, WINDOWS_1252, X_USER_DEFINED};

/// How far [`prescan`] looks for a charset declaration, in bytes.
///
/// WHATWG scans 1024 bytes, which is enough for pages written to the spec, but real pages put
/// `<meta charset>` after kilobytes of inline scripts, styles, comments and `<link>` tags: in
/// our data about 280 of 1,911 pages declare after 1 KiB, 13 after 16 KiB and some after
/// 260 KiB (WCXB pages with inlined CSS). Scanning stops earlier at the first `<body` tag: a declaration after it is
/// not in the head and is more likely quoted content than the page's own.
pub const PRESCAN_BYTES: usize = 512 << 10;

/// Undeclared invalid UTF-8 is still read as UTF-8 when there are at least this many valid
/// multi-byte UTF-8 characters per invalid sequence (declared UTF-8 needs only more valid than
/// invalid, see [`decode`]).
///
/// Reading such bytes as UTF-8 loses each invalid sequence to U+FFFD, while reading them in a
/// legacy charset garbles every valid multi-byte character, so UTF-8 wins when valid ones
/// clearly outnumber invalid ones. Legacy text (windows-1252, ISO-8859-x, GBK …) forms valid
/// multi-byte UTF-8 only by chance and so scores near 0 (nymag-2005-bear-1: 6 valid, 64
/// invalid); UTF-8 pages with a few stray Latin-1 bytes score far above (latimes-2017-boxer-1:
/// 70 valid, 2 invalid; latimes-2017-storm-2: 5 valid, 2 invalid; chaos xiaomi-9: 52 to 1).
pub(crate) const UTF8_VALID_PER_INVALID: usize = 2;

/// Which rule decided the encoding of a page.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum CharsetSource {
    /// A byte order mark at the start of the bytes.
    Bom,
    /// The charset handed in by the caller (HTTP or WARC headers).
    Transport,
    /// A `<meta>` or `<?xml?>` declaration in the page.
    Meta,
    /// Detection from the bytes: chardetng, or the bytes being valid UTF-8 — also when a
    /// declaration was overridden because the bytes contradicted it.
    Detected,
}

/// A page decoded to UTF-8.
#[derive(Debug, Clone)]
pub struct Decoded {
    /// The page's text; invalid input bytes are replaced by U+FFFD, NUL bytes are kept.
    pub text: String,
    /// The encoding the bytes were decoded with.
    pub encoding: &'static Encoding,
    /// Which rule chose `encoding`.
    pub source: CharsetSource,
    /// Whether some bytes were invalid in `encoding` and replaced by U+FFFD.
    pub had_errors: bool,
}

/// Decodes a page's bytes to UTF-8 text; `transport_charset` is a charset label from HTTP or
/// WARC headers (a whole `Content-Type` value such as `text/html; charset=utf-8` works too).
///
/// Rules, first match wins:
///
/// 1. A BOM decides (`source = Bom`); without one, bytes that [`utf16_without_bom`]
///    recognises are UTF-16 (`source = Detected`, or `Transport` when the transport charset
///    says the same) whatever they declare.
/// 2. The transport charset, if `encoding_rs` knows the label (`source = Transport`).
/// 3. A declaration found by [`prescan`] (`source = Meta`).
/// 4. Otherwise UTF-8 if the bytes are (mostly, see below) UTF-8, else chardetng's guess
///    (`source = Detected`).
///
/// Overrides for steps 2 and 3, because declarations lie:
///
/// - a declared charset other than UTF-8 or UTF-16 yields to UTF-8 (`source = Detected`)
///   when the bytes are valid UTF-8 and contain non-ASCII: legacy text is practically never
///   valid UTF-8 by chance;
/// - a declared UTF-8 stands on invalid UTF-8, as in a browser, with U+FFFD for the invalid
///   bytes and `had_errors` set, unless the bytes are mostly invalid: more invalid sequences
///   than valid multi-byte characters, a legacy page that lies. Those fall through to step 4.
///
/// The labels `replacement` (e.g. `iso-2022-kr`, which would turn the page into a single
/// U+FFFD) are ignored. A declared UTF-16 in the page means UTF-8 and `x-user-defined`
/// means windows-1252, as WHATWG prescribes for `<meta>`.
///
/// # Complexity
///
/// For valid UTF-8 input, one validation pass plus one copy (and a prescan of at most
/// [`PRESCAN_BYTES`]); for other input a constant number of linear passes.
pub fn decode(bytes: &[u8], transport_charset: Option<&str>) -> Decoded {
    decode_for_url(bytes, transport_charset, None)
}

/// Like [`decode`], and gives chardetng the top-level domain of `url` (e.g. `.ru`, `.jp`),
/// which makes its guess for undeclared legacy pages much better.
pub fn decode_for_url(bytes: &[u8], transport_charset: Option<&str>, url: Option<&str>) -> Decoded {
    if let Some((encoding, bom_len)) = Encoding::for_bom(bytes) {
        let (text, had_errors) = encoding.decode_without_bom_handling(&bytes[bom_len..]);
        return Decoded {
            text: text.into_owned(),
            encoding,
            source: CharsetSource::Bom,
            had_errors,
        };
    }
    if let Some(encoding) = utf16_without_bom(bytes) {
        let source = if transport_charset.and_then(transport_encoding) == Some(encoding) {
            CharsetSource::Transport
        } else {
            CharsetSource::Detected
        };
        return decode_with(bytes, encoding, source);
    }
    let declared = transport_charset
        .and_then(transport_encoding)
        .map(|e| (e, CharsetSource::Transport))
        .or_else(|| prescan(bytes).map(|e| (e, CharsetSource::Meta)));
    match declared {
        Some((encoding, source)) if encoding == UTF_8 => match try_utf8(bytes) {
            Ok(text) => Decoded {
                text,
                encoding,
                source,
                had_errors: false,
            },
            // Browsers decode declared UTF-8 as UTF-8 with U+FFFD; only mostly invalid bytes
            // (a legacy page that lies) go to detection.
            Err(lossy) if !mostly_invalid_utf8(bytes) => Decoded {
                text: lossy,
                encoding,
                source,
                had_errors: true,
            },
            Err(_) => detect(bytes, url),
        },
        Some((encoding, source)) if encoding == UTF_16LE || encoding == UTF_16BE => {
            decode_with(bytes, encoding, source)
        }
        Some((encoding, source)) => {
            // Pure ASCII decodes the same in every ASCII-compatible charset, but must still go
            // through `encoding`: ISO-2022-JP is 7-bit.
            let ascii = Encoding::ascii_valid_up_to(bytes);
            if ascii == bytes.len() {
                return decode_with(bytes, encoding, source);
            }
            // Truly legacy pages stop this check at their first non-UTF-8 byte; only the
            // (rare) liars pay a second validation while decoding.
            if ascii + Encoding::utf8_valid_up_to(&bytes[ascii..]) < bytes.len() {
                return decode_with(bytes, encoding, source);
            }
            decode_with(bytes, UTF_8, CharsetSource::Detected)
        }
        None => match try_utf8(bytes) {
            Ok(text) => Decoded {
                text,
                encoding: UTF_8,
                source: CharsetSource::Detected,
                had_errors: false,
            },
            Err(lossy) if mostly_utf8(bytes) => Decoded {
                text: lossy,
                encoding: UTF_8,
                source: CharsetSource::Detected,
                had_errors: true,
            },
            Err(_) => detect(bytes, url),
        },
    }
}

/// Decodes all of `bytes` (no BOM handling) with `encoding`.
/// Bytes looked at by [`utf16_without_bom`].
pub const UTF16_SNIFF_BYTES: usize = 1024;

/// UTF-16LE or UTF-16BE for bytes that start like UTF-16 without a byte order mark: in the
/// first [`UTF16_SNIFF_BYTES`], at least 16 code units, half of them with a zero high byte
/// (markup is ASCII, U+0000..U+007F) and at most one in 16 with a zero low byte.
///
/// No ASCII-compatible page has zero bytes at every other position, and WHATWG's
/// sniffing does not look for this (its UTF-16 comes from BOMs and HTTP), so such pages would
/// otherwise be read as UTF-8 with a NUL after every character: all markup turned into text.
///
/// # Complexity
/// O(1): at most [`UTF16_SNIFF_BYTES`] bytes.
pub fn utf16_without_bom(bytes: &[u8]) -> Option<&'static Encoding> {
    let head = &bytes[..bytes.len().min(UTF16_SNIFF_BYTES)];
    let units = head.len() / 2;
    if units < 16 {
        return None;
    }
    let (mut zero_first, mut zero_second) = (0, 0);
    for pair in head.chunks_exact(2) {
        zero_first += (pair[0] == 0) as usize;
        zero_second += (pair[1] == 0) as usize;
    }
    let utf16 =
        |zero_high: usize, zero_low: usize| 2 * zero_high >= units && 16 * zero_low <= units;
    if utf16(zero_second, zero_first) {
        Some(UTF_16LE)
    } else if utf16(zero_first, zero_second) {
        Some(UTF_16BE)
    } else {
        None
    }
}

fn decode_with(bytes: &[u8], encoding: &'static Encoding, source: CharsetSource) -> Decoded {
    let (text, had_errors) = encoding.decode_without_bom_handling(bytes);
    Decoded {
        text: text.into_owned(),
        encoding,
        source,
        had_errors,
    }
}

/// Valid UTF-8 as `Ok`, else the lossy decoding as `Err`; one validation pass either way.
fn try_utf8(bytes: &[u8]) -> Result<String, String> {
    match UTF_8.decode_without_bom_handling(bytes) {
        (Cow::Borrowed(text), _) => Ok(text.to_owned()),
        (Cow::Owned(text), false) => Ok(text),
        (Cow::Owned(text), true) => Err(text),
    }
}

/// Whether invalid UTF-8 is still best read as UTF-8: the only error is a truncated
/// character at the end, or valid multi-byte characters outnumber invalid sequences by
/// [`UTF8_VALID_PER_INVALID`] to one.
fn mostly_utf8(bytes: &[u8]) -> bool {
    let (valid_multibyte, invalid) = utf8_counts(bytes);
    invalid == 0 || valid_multibyte >= invalid.saturating_mul(UTF8_VALID_PER_INVALID)
}

/// Valid multi-byte characters and invalid sequences in `bytes`, a character cut off by the end
/// of the input not counted (the page was truncated). O(len).
fn utf8_counts(bytes: &[u8]) -> (usize, usize) {
    let mut invalid = 0usize;
    let mut valid_multibyte = 0usize;
    let mut rest = bytes;
    loop {
        let up_to = Encoding::utf8_valid_up_to(rest);
        // Lead bytes of multi-byte characters in the valid part.
        valid_multibyte += rest[..up_to].iter().filter(|&&b| b >= 0xC0).count();
        rest = &rest[up_to..];
        if rest.is_empty() {
            break;
        }
        match std::str::from_utf8(rest) {
            Ok(_) => unreachable!("utf8_valid_up_to stopped before valid UTF-8"),
            // A character cut off by the end of the input: the page was truncated.
            Err(e) if e.error_len().is_none() => break,
            Err(e) => {
                invalid += 1;
                rest = &rest[e.error_len().unwrap_or(1)..];
            }
        }
    }
    (valid_multibyte, invalid)
}

/// Whether a page that declares UTF-8 is mostly not UTF-8: its invalid sequences (a truncated
/// character at the very end not counted) outnumber its valid multi-byte characters.
fn mostly_invalid_utf8(bytes: &[u8]) -> bool {
    let (valid_multibyte, invalid) = utf8_counts(bytes);
    invalid > valid_multibyte
}

/// Decodes with the encoding chardetng guesses (UTF-8 allowed).
fn detect(bytes: &[u8], url: Option<&str>) -> Decoded {
    let mut detector = EncodingDetector::new(Iso2022JpDetection::Deny);
    detector.feed(bytes, true);
    let tld = url.and_then(tld_of);
    let encoding = detector.guess(tld.as_deref().map(str::as_bytes), Utf8Detection::Allow);
    decode_with(bytes, encoding, CharsetSource::Detected)
}

/// The top-level domain of a URL's host, lowercase ASCII, if it looks like one.
fn tld_of(url: &str) -> Option<String> {
    let after_scheme = url.split_once("://").map_or(url, |(_, rest)| rest);
    let authority = after_scheme.split(['/', '?', '#']).next()?;
    let host_port = authority
        .rsplit_once('@')
        .map_or(authority, |(_, host)| host);
    if host_port.starts_with('[') {
        return None; // IPv6 literal
    }
    let host = host_port.split(':').next()?.trim_end_matches('.');
    let tld = host.rsplit('.').next()?;
    let ok = !tld.is_empty()
        && tld.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
        && !tld.bytes().all(|b| b.is_ascii_digit());
    ok.then(|| tld.to_ascii_lowercase())
}

/// The encoding for a transport label: a bare label or a `Content-Type` value with `charset=`.
fn transport_encoding(label: &str) -> Option<&'static Encoding> {
    let encoding = Encoding::for_label(label.as_bytes())
        .or_else(|| charset_from_content(label.as_bytes()).and_then(Encoding::for_label))?;
    (encoding != REPLACEMENT).then_some(encoding)
}

/// The encoding declared in the first [`PRESCAN_BYTES`] of a page by `<meta charset>`,
/// `<meta http-equiv="Content-Type" content="…; charset=…">` or, failing that, an
/// `<?xml … encoding="…"?>` declaration at the very start.
///
/// Follows the WHATWG "prescan a byte stream to determine its encoding" algorithm: comments
/// and other tags (with their attributes) are skipped, attribute names and values are
/// case-insensitive, values may be double-, single- or unquoted, and the first valid
/// declaration wins. Differences: it scans [`PRESCAN_BYTES`] instead of 1024 and stops at
/// `<body`, and ignores the `replacement` encoding. UTF-16 means UTF-8 and `x-user-defined`
/// means windows-1252.
pub fn prescan(bytes: &[u8]) -> Option<&'static Encoding> {
    let head = &bytes[..bytes.len().min(PRESCAN_BYTES)];
    let found = prescan_meta(head).or_else(|| xml_encoding(head))?;
    Some(if found == UTF_16LE || found == UTF_16BE {
        UTF_8
    } else if found == X_USER_DEFINED {
        WINDOWS_1252
    } else {
        found
    })
    .filter(|&e| e != REPLACEMENT)
}

/// Whether `b` is HTML whitespace as the prescan sees it.
fn is_space(b: u8) -> bool {
    matches!(b, b'\t' | b'\n' | 0x0C | b'\r' | b' ')
}

/// Whether `bytes[at..]` starts with `prefix`, ASCII case-insensitively.
fn starts_with_ci(bytes: &[u8], at: usize, prefix: &[u8]) -> bool {
    bytes
        .get(at..at + prefix.len())
        .is_some_and(|s| s.eq_ignore_ascii_case(prefix))
}

/// The `<meta>` part of the WHATWG prescan over `b`.
fn prescan_meta(b: &[u8]) -> Option<&'static Encoding> {
    let mut pos = 0;
    while pos < b.len() {
        if b[pos] != b'<' {
            // Jump to the next tag start; memchr-like speed via the slice search.
            pos += b[pos..].iter().position(|&c| c == b'<')?;
            continue;
        }
        if b[pos..].starts_with(b"<!--") {
            // The '>' of the first "-->" whose dashes may overlap "<!--" (so "<!-->" ends).
            let mut end = pos + 2;
            loop {
                end += b[end..].iter().position(|&c| c == b'>')?;
                if b[end - 2..end] == *b"--" {
                    break;
                }
                end += 1;
            }
            pos = end + 1;
        } else if starts_with_ci(b, pos, b"<meta")
            && b.get(pos + 5).is_some_and(|&c| is_space(c) || c == b'/')
        {
            pos += 6;
            if let Some(encoding) = meta_encoding(b, &mut pos) {
                return Some(encoding);
            }
        } else if b.get(pos + 1).is_some_and(u8::is_ascii_alphabetic)
            || (b.get(pos + 1) == Some(&b'/')
                && b.get(pos + 2).is_some_and(u8::is_ascii_alphabetic))
        {
            let name_start = pos + 1;
            pos += b[pos..]
                .iter()
                .position(|&c| is_space(c) || c == b'>')
                .unwrap_or(b.len() - pos);
            if b[name_start..pos].eq_ignore_ascii_case(b"body") {
                return None;
            }
            while get_attribute(b, &mut pos).is_some() {}
        } else if matches!(b.get(pos + 1), Some(b'!' | b'/' | b'?')) {
            pos += b[pos..].iter().position(|&c| c == b'>')? + 1;
        } else {
            pos += 1;
        }
    }
    None
}

/// The attributes of one `<meta>` tag (`pos` just after `<meta` and one more byte), as in
/// the WHATWG prescan: a charset from `charset`, or from `content` with `http-equiv`.
fn meta_encoding(b: &[u8], pos: &mut usize) -> Option<&'static Encoding> {
    let mut seen: Vec<Vec<u8>> = Vec::new();
    let mut got_pragma = false;
    let mut need_pragma: Option<bool> = None;
    let mut charset: Option<Option<&'static Encoding>> = None;
    while let Some((name, value)) = get_attribute(b, pos) {
        if seen.contains(&name) {
            continue;
        }
        match name.as_slice() {
            b"http-equiv" => got_pragma |= value == b"content-type",
            b"content" if charset.is_none() => {
                if let Some(label) = charset_from_content(&value) {
                    charset = Some(Encoding::for_label(label));
                    need_pragma = Some(true);
                }
            }
            b"charset" => {
                charset = Some(Encoding::for_label(&value));
                need_pragma = Some(false);
            }
            _ => {}
        }
        seen.push(name);
    }
    match need_pragma? {
        true if !got_pragma => None,
        _ => charset?,
    }
}

/// The WHATWG "get an attribute" step: the next attribute's lowercased name and value, or
/// `None` at the end of the tag (`pos` then points at the `>`) or of the input.
fn get_attribute(b: &[u8], pos: &mut usize) -> Option<(Vec<u8>, Vec<u8>)> {
    while *pos < b.len() && (is_space(b[*pos]) || b[*pos] == b'/') {
        *pos += 1;
    }
    if *b.get(*pos)? == b'>' {
        return None;
    }
    let mut name = Vec::new();
    let mut value = Vec::new();
    // Name.
    loop {
        let c = *b.get(*pos)?;
        if c == b'=' && !name.is_empty() {
            *pos += 1;
            break;
        } else if is_space(c) {
            while b.get(*pos).is_some_and(|&c| is_space(c)) {
                *pos += 1;
            }
            if *b.get(*pos)? != b'=' {
                return Some((name, value));
            }
            *pos += 1;
            break;
        } else if c == b'/' || c == b'>' {
            return Some((name, value));
        }
        name.push(c.to_ascii_lowercase());
        *pos += 1;
    }
    // Value.
    while b.get(*pos).is_some_and(|&c| is_space(c)) {
        *pos += 1;
    }
    let c = *b.get(*pos)?;
    if c == b'"' || c == b'\'' {
        *pos += 1;
        loop {
            let d = *b.get(*pos)?;
            *pos += 1;
            if d == c {
                return Some((name, value));
            }
            value.push(d.to_ascii_lowercase());
        }
    }
    if c == b'>' {
        return Some((name, value));
    }
    loop {
        let d = *b.get(*pos)?;
        if is_space(d) || d == b'>' {
            return Some((name, value));
        }
        value.push(d.to_ascii_lowercase());
        *pos += 1;
    }
}

/// WHATWG "extract a character encoding from a meta element": the label after `charset=`
/// in a `content` value such as `text/html; charset="utf-8"`.
fn charset_from_content(s: &[u8]) -> Option<&[u8]> {
    let mut pos = 0;
    loop {
        let found = s[pos..]
            .windows(7)
            .position(|w| w.eq_ignore_ascii_case(b"charset"))?;
        pos += found + 7;
        while s.get(pos).is_some_and(|&c| is_space(c)) {
            pos += 1;
        }
        if s.get(pos) == Some(&b'=') {
            pos += 1;
            break;
        }
    }
    while s.get(pos).is_some_and(|&c| is_space(c)) {
        pos += 1;
    }
    match *s.get(pos)? {
        q @ (b'"' | b'\'') => {
            let len = s[pos + 1..].iter().position(|&c| c == q)?;
            Some(&s[pos + 1..pos + 1 + len])
        }
        _ => {
            let len = s[pos..]
                .iter()
                .position(|&c| is_space(c) || c == b';')
                .unwrap_or(s.len() - pos);
            Some(&s[pos..pos + len])
        }
    }
}

/// WHATWG "get an XML encoding": the `encoding` of an `<?xml … ?>` declaration at offset 0.
fn xml_encoding(b: &[u8]) -> Option<&'static Encoding> {
    if !b.starts_with(b"<?xml") {
        return None;
    }
    let decl = &b[..b.iter().position(|&c| c == b'>')?];
    let mut pos = decl.windows(8).position(|w| w == b"encoding")? + 8;
    while decl.get(pos).is_some_and(|&c| c <= b' ') {
        pos += 1;
    }
    if decl.get(pos) != Some(&b'=') {
        return None;
    }
    pos += 1;
    while decl.get(pos).is_some_and(|&c| c <= b' ') {
        pos += 1;
    }
    let q = *decl.get(pos)?;
    if q != b'"' && q != b'\'' {
        return None;
    }
    let len = decl[pos + 1..].iter().position(|&c| c == q)?;
    Encoding::for_label(&decl[pos + 1..pos + 1 + len])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tld() {
        assert_eq!(tld_of("https://www.Example.RU/x").as_deref(), Some("ru"));
        assert_eq!(tld_of("http://user@host.jp:8080?q").as_deref(), Some("jp"));
        assert_eq!(tld_of("http://10.0.0.1/"), None);
        assert_eq!(tld_of("http://[::1]/"), None);
    }

    #[test]
    fn content_charset() {
        assert_eq!(
            charset_from_content(b"text/html; charset = 'koi8-r'"),
            Some(&b"koi8-r"[..])
        );
        assert_eq!(
            charset_from_content(b"text/html;charset=utf-8;x"),
            Some(&b"utf-8"[..])
        );
        assert_eq!(
            charset_from_content(b"charsetx; charset=\"unterminated"),
            None
        );
        assert_eq!(charset_from_content(b"text/html"), None);
    }
}
