//! Bytes to text (`pagelevel::decode`) and reading pages (`pagelevel::input`): hand-checked
//! cases, then every page of `../shared/data` when it is present.

use crate::common;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use encoding_rs::{
    Encoding, ISO_8859_2, ISO_8859_7, SHIFT_JIS, UTF_16BE, UTF_16LE, UTF_8, WINDOWS_1251,
    WINDOWS_1252,
};
use pagelevel::decode::{
    decode, decode_for_url, prescan, utf16_without_bom, CharsetSource, Decoded,
};
use pagelevel::input::{read_bytes, read_page};
use pagelevel::{Error, Limits};

/// Asserts encoding and source of a decoding, naming the case on failure.
fn check(d: &Decoded, encoding: &'static Encoding, source: CharsetSource, case: &str) {
    assert_eq!(
        (d.encoding.name(), d.source),
        (encoding.name(), source),
        "{case}: text {:?}",
        d.text
    );
}

// ---------------------------------------------------------------------------------------
// Declarations and detection
// ---------------------------------------------------------------------------------------

#[test]
fn cp1252_with_meta() {
    // 0x93/0x94 are windows-1252 curly double quotes, 0x80 the euro sign, 0xE9 'é'.
    let bytes = b"<html><head><meta charset=\"windows-1252\"></head><body><p>\x93Caf\xe9\x94 costs \x805</p>";
    let d = decode(bytes, None);
    check(&d, WINDOWS_1252, CharsetSource::Meta, "cp1252 meta");
    assert!(
        d.text.contains("<p>\u{201C}Café\u{201D} costs €5</p>"),
        "{}",
        d.text
    );
    assert!(!d.had_errors);
    // ISO-8859-1 is windows-1252 to WHATWG and encoding_rs: same result.
    let latin1 = [&b"<meta charset=ISO-8859-1>"[..], &bytes[50..]].concat();
    let d = decode(&latin1, None);
    check(&d, WINDOWS_1252, CharsetSource::Meta, "latin1 meta");
    assert!(
        d.text.contains("\u{201C}Café\u{201D} costs €5"),
        "{}",
        d.text
    );
}

#[test]
fn cp1252_without_meta_is_detected() {
    let bytes = b"<html><body><p>The committee said the \x93new\x94 budget, about \x80300 million, \
was \x93not enough\x94 for the caf\xe9s and the r\xe9sum\xe9 service. It\x92s final.</p></body></html>";
    let d = decode(bytes, None);
    check(
        &d,
        WINDOWS_1252,
        CharsetSource::Detected,
        "cp1252 undeclared",
    );
    assert!(d
        .text
        .contains("the \u{201C}new\u{201D} budget, about €300 million"));
    assert!(d
        .text
        .contains("cafés and the résumé service. It\u{2019}s final."));
    assert!(!d.had_errors);
}

#[test]
fn utf8_bom_wins_over_meta() {
    let bytes = b"\xEF\xBB\xBF<meta charset=iso-8859-1><p>caf\xC3\xA9</p>";
    let d = decode(bytes, Some("windows-1251"));
    check(&d, UTF_8, CharsetSource::Bom, "utf-8 bom");
    assert_eq!(
        d.text, "<meta charset=iso-8859-1><p>café</p>",
        "BOM is dropped"
    );
}

#[test]
fn utf16_boms() {
    let text = "<meta charset=utf-8><p>café €</p>";
    let le: Vec<u8> = [0xFF, 0xFE]
        .into_iter()
        .chain(text.encode_utf16().flat_map(u16::to_le_bytes))
        .collect();
    let be: Vec<u8> = [0xFE, 0xFF]
        .into_iter()
        .chain(text.encode_utf16().flat_map(u16::to_be_bytes))
        .collect();
    let d = decode(&le, None);
    check(&d, UTF_16LE, CharsetSource::Bom, "utf-16le bom");
    assert_eq!(d.text, text);
    let d = decode(&be, Some("iso-8859-1"));
    check(&d, UTF_16BE, CharsetSource::Bom, "utf-16be bom");
    assert_eq!(d.text, text);
}

#[test]
fn utf16_without_bom_is_recognised_by_its_zero_bytes() {
    // Declares UTF-8 and has non-ASCII (one CJK character per 4 units) past the markup.
    let text = "<meta charset=utf-8><title>Ünïcode</title><p>café € 中文 text</p>";
    let le: Vec<u8> = text.encode_utf16().flat_map(u16::to_le_bytes).collect();
    let be: Vec<u8> = text.encode_utf16().flat_map(u16::to_be_bytes).collect();
    let d = decode(&le, None);
    check(&d, UTF_16LE, CharsetSource::Detected, "utf-16le, no bom");
    assert_eq!(d.text, text);
    let d = decode(&be, Some("windows-1252"));
    check(
        &d,
        UTF_16BE,
        CharsetSource::Detected,
        "utf-16be over a lying header",
    );
    assert_eq!(d.text, text);
    let d = decode(&le, Some("utf-16le"));
    check(
        &d,
        UTF_16LE,
        CharsetSource::Transport,
        "utf-16le, header agrees",
    );
    // Too short to tell (under 16 code units), and ASCII with a few NULs: not UTF-16.
    assert_eq!(utf16_without_bom(&le[..30]), None);
    let mut nuls = b"<p>some text</p>".repeat(8);
    for i in (0..nuls.len()).step_by(17) {
        nuls[i] = 0;
    }
    assert_eq!(utf16_without_bom(&nuls), None);
    assert_eq!(decode(&nuls, None).encoding, UTF_8);
}

#[test]
fn meta_latin1_but_bytes_are_utf8() {
    let bytes = "<meta charset=\"iso-8859-1\"><p>café</p>".as_bytes();
    let d = decode(bytes, None);
    check(&d, UTF_8, CharsetSource::Detected, "latin-1 liar");
    assert!(d.text.contains("<p>café</p>"));
    // The same lie in a transport header is overridden the same way.
    let d = decode("<p>café</p>".as_bytes(), Some("windows-1252"));
    check(&d, UTF_8, CharsetSource::Detected, "transport latin-1 liar");
    // Pure ASCII keeps the declaration: nothing contradicts it.
    let d = decode(b"<meta charset=\"iso-8859-1\"><p>cafe</p>", None);
    check(&d, WINDOWS_1252, CharsetSource::Meta, "ascii latin-1");
}

#[test]
fn meta_utf8_but_bytes_are_cp1252() {
    let bytes = b"<meta charset=\"utf-8\"><p>Le caf\xe9 de la gare a ferm\xe9 ses portes. \
\x93C\x92est la fin\x94, dit le g\xe9rant.</p>";
    let d = decode(bytes, None);
    check(&d, WINDOWS_1252, CharsetSource::Detected, "utf-8 liar");
    assert!(d
        .text
        .contains("Le café de la gare a fermé ses portes. \u{201C}C\u{2019}est la fin\u{201D}, dit le gérant."));
    assert!(!d.had_errors);
}

#[test]
fn utf8_with_few_stray_bytes_stays_utf8() {
    // Many valid UTF-8 characters and one Latin-1 NBSP (0xA0), like latimes-2017-boxer-1.
    let mut bytes = "<meta charset=utf-8><p>“Quote” — it’s “here”."
        .as_bytes()
        .to_vec();
    bytes.extend_from_slice(b"U.S.\xa0Senate</p>");
    let d = decode(&bytes, None);
    check(&d, UTF_8, CharsetSource::Meta, "mostly utf-8");
    assert!(d.had_errors);
    assert!(
        d.text.ends_with("it’s “here”.U.S.\u{FFFD}Senate</p>"),
        "{}",
        d.text
    );
}

/// Declared UTF-8 with as many stray bytes as valid characters is still UTF-8, as a browser
/// reads it: before, 2 valid characters against 2 invalid bytes went to detection and "Grüße"
/// became "GrÃ¼ÃŸe".
#[test]
fn declared_utf8_with_some_invalid_bytes_is_not_mojibake() {
    let mut bytes = "<meta charset=utf-8><p>Grüße".as_bytes().to_vec();
    bytes.extend_from_slice(b" aus K\xf6ln \xa0</p>");
    let d = decode(&bytes, None);
    check(
        &d,
        UTF_8,
        CharsetSource::Meta,
        "declared utf-8, 2 valid, 2 invalid",
    );
    assert!(d.had_errors);
    assert!(
        d.text.contains("Grüße aus K\u{FFFD}ln \u{FFFD}</p>"),
        "{}",
        d.text
    );
    // Undeclared, the same bytes are too broken to be sure of UTF-8: detection decides.
    let undeclared = decode(&bytes["<meta charset=utf-8>".len()..], None);
    assert_eq!(undeclared.source, CharsetSource::Detected);
}

#[test]
fn utf8_truncated_at_end_stays_utf8() {
    // "café" then the first two bytes of '€' (E2 82 AC): the page was cut off.
    let d = decode(b"<meta charset=utf-8><p>caf\xC3\xA9 \xE2\x82", None);
    check(&d, UTF_8, CharsetSource::Meta, "truncated");
    assert!(d.had_errors);
    assert_eq!(d.text, "<meta charset=utf-8><p>café \u{FFFD}");
}

#[test]
fn transport_beats_meta() {
    // 0xE1 is 'α' in ISO-8859-7 and 'á' in windows-1252.
    let bytes = b"<meta charset=windows-1252><p>\xe1\xe2\xe3</p>";
    let d = decode(bytes, Some("ISO-8859-7"));
    check(&d, ISO_8859_7, CharsetSource::Transport, "transport label");
    assert!(d.text.contains("<p>αβγ</p>"));
    let d = decode(bytes, Some("text/html; charset=\"iso-8859-7\""));
    check(
        &d,
        ISO_8859_7,
        CharsetSource::Transport,
        "transport content-type",
    );
    // An unknown transport label is ignored, the meta decides.
    let d = decode(bytes, Some("no-such-charset"));
    check(&d, WINDOWS_1252, CharsetSource::Meta, "unknown transport");
    assert!(d.text.contains("<p>áâã</p>"));
    // The replacement encoding (iso-2022-kr) would turn the page into one U+FFFD: ignored.
    let d = decode(bytes, Some("iso-2022-kr"));
    check(
        &d,
        WINDOWS_1252,
        CharsetSource::Meta,
        "replacement transport",
    );
}

#[test]
fn meta_http_equiv_forms() {
    // "Привет" in windows-1251.
    let body = b"<body><p>\xcf\xf0\xe8\xe2\xe5\xf2</p>";
    let heads: [&[u8]; 4] = [
        b"<meta http-equiv=\"Content-Type\" content=\"text/html; charset=windows-1251\">",
        b"<META CONTENT='text/html;charset=Windows-1251' HTTP-EQUIV='content-type'>",
        b"<meta/http-equiv=content-type content=\"text/html; charset = 'cp1251'\">",
        b"<meta name=x content=\"charset=koi8-r\"><meta http-equiv=content-type content=\"charset=windows-1251\">",
    ];
    for head in heads {
        let bytes = [head, &body[..]].concat();
        let d = decode(&bytes, None);
        check(
            &d,
            WINDOWS_1251,
            CharsetSource::Meta,
            &String::from_utf8_lossy(head),
        );
        assert!(d.text.contains("<p>Привет</p>"), "{}", d.text);
    }
    // `content` without `http-equiv` declares nothing.
    assert_eq!(
        prescan(b"<meta content=\"text/html; charset=windows-1251\">"),
        None
    );
}

#[test]
fn meta_quoting_comments_and_position() {
    // Single quotes, upper case; "日本" in Shift_JIS.
    let d = decode(b"<META CHARSET='Shift_JIS'><p>\x93\xfa\x96\x7b</p>", None);
    check(&d, SHIFT_JIS, CharsetSource::Meta, "single quotes");
    assert!(d.text.contains("<p>日本</p>"));
    // A fake meta inside a comment (and one inside an attribute value) is skipped.
    let bytes = b"<!-- old: <meta charset=\"koi8-r\"> --><div title='<meta charset=koi8-r>'>\
<meta charset=\"windows-1252\"><p>\xe9</p>";
    let d = decode(bytes, None);
    check(&d, WINDOWS_1252, CharsetSource::Meta, "after comment");
    assert!(d.text.contains("<p>é</p>"));
    // "<!-->" is a complete comment, as in the spec.
    assert_eq!(
        prescan(b"<!--><meta charset=koi8-r>").map(|e| e.name()),
        Some("KOI8-R")
    );
    // Attributes in any order; the first charset of the tag counts, later duplicates do not.
    assert_eq!(
        prescan(b"<meta name=v charset=iso-8859-2 charset=koi8-r>"),
        Some(ISO_8859_2)
    );
    // Far past the spec's 1024 bytes (after a big inline style) is still found...
    let mut late = b"<html><head><style>".to_vec();
    late.extend(vec![b'x'; 100_000]);
    late.extend_from_slice(b"</style><meta charset=iso-8859-2></head><body>");
    assert_eq!(prescan(&late), Some(ISO_8859_2));
    // ...but not after <body>.
    assert_eq!(
        prescan(b"<head></head><body><meta charset=iso-8859-2>"),
        None
    );
}

#[test]
fn meta_special_labels_and_xml() {
    // WHATWG: a UTF-16 declared in the page means UTF-8, x-user-defined means windows-1252.
    assert_eq!(prescan(b"<meta charset=utf-16le>"), Some(UTF_8));
    assert_eq!(prescan(b"<meta charset=\"UTF-16\">"), Some(UTF_8));
    assert_eq!(
        prescan(b"<meta charset=x-user-defined>"),
        Some(WINDOWS_1252)
    );
    assert_eq!(
        prescan(b"<meta charset=nonsense><meta charset=koi8-u>").map(|e| e.name()),
        Some("KOI8-U")
    );
    let xml = b"<?xml version=\"1.0\" encoding='ISO-8859-2'?>\n<html><p>\xb1</p>";
    let d = decode(xml, None);
    check(&d, ISO_8859_2, CharsetSource::Meta, "xml declaration");
    assert!(d.text.contains("<p>ą</p>"));
}

#[test]
fn nul_bytes_are_kept() {
    let d = decode(b"<p>a\0b</p>", None);
    check(&d, UTF_8, CharsetSource::Detected, "nul");
    assert_eq!(d.text, "<p>a\u{0}b</p>");
    assert!(!d.had_errors);
    let d = decode(b"<meta charset=windows-1252><p>\0\xe9\0</p>", None);
    assert_eq!(d.text, "<meta charset=windows-1252><p>\u{0}é\u{0}</p>");
}

#[test]
fn empty_input() {
    let d = decode(b"", None);
    check(&d, UTF_8, CharsetSource::Detected, "empty");
    assert_eq!(d.text, "");
    assert!(!d.had_errors);
    assert_eq!(decode(b"", Some("koi8-r")).text, "");
}

#[test]
fn tld_helps_detection() {
    // Undeclared KOI8-R Russian: with the .ru TLD chardetng must not fall for windows-1252.
    let (bytes, _, _) =
        encoding_rs::KOI8_R.encode("<p>Москва — столица России, крупнейший город страны.</p>");
    let d = decode_for_url(&bytes, None, Some("http://www.example.ru/news"));
    assert_eq!(d.source, CharsetSource::Detected);
    assert!(
        d.text.contains("Москва"),
        "{} {}",
        d.encoding.name(),
        d.text
    );
}

#[test]
fn arbitrary_bytes_never_panic() {
    // Random bytes, with and without declarations and BOMs.
    let mut rng = pagelevel::fuzzing::Xorshift(0x9E37_79B9_7F4A_7C15);
    let mut next = || rng.next_u64();
    let prefixes: [&[u8]; 5] = [
        b"",
        b"<meta charset=utf-8>",
        b"<meta charset=",
        b"\xEF\xBB",
        b"\xFF\xFE",
    ];
    for round in 0..2000 {
        let len = (next() % 300) as usize;
        let mut bytes = prefixes[round % prefixes.len()].to_vec();
        bytes.extend((0..len).map(|_| {
            let r = next();
            // Bias to markup-ish bytes so that the prescan sees tags and quotes.
            *b"<>!-=\"'/ mta"
                .get((r % 24) as usize)
                .unwrap_or(&((r >> 8) as u8))
        }));
        let d = decode(&bytes, if round % 7 == 0 { Some("utf-8") } else { None });
        assert!(
            d.had_errors
                || !d.text.contains('\u{FFFD}')
                || bytes.windows(3).any(|w| w == b"\xEF\xBF\xBD")
        );
    }
}

// ---------------------------------------------------------------------------------------
// Reading files
// ---------------------------------------------------------------------------------------

/// A temporary file removed on drop.
struct TempFile(PathBuf);

impl TempFile {
    fn new(suffix: &str, contents: &[u8]) -> TempFile {
        static COUNTER: AtomicUsize = AtomicUsize::new(0);
        let n = COUNTER.fetch_add(1, Ordering::Relaxed);
        let name = format!("pagelevel-decode-{}-{n}{suffix}", std::process::id());
        let path = std::env::temp_dir().join(name);
        std::fs::write(&path, contents).unwrap();
        TempFile(path)
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    enc.write_all(bytes).unwrap();
    enc.finish().unwrap()
}

fn limits(max_input_bytes: u64) -> Limits {
    Limits {
        max_input_bytes,
        ..Limits::default()
    }
}

fn page(n: usize) -> Vec<u8> {
    let mut page = b"<html><body>".to_vec();
    for i in 0..n {
        page.extend_from_slice(format!("<p>paragraph {i} caf\u{e9}</p>\n").as_bytes());
    }
    page
}

#[test]
fn gz_round_trip() {
    let html = page(2000);
    let gz = gzip(&html);
    // By extension, by magic bytes alone, and two concatenated members.
    let by_ext = TempFile::new(".html.gz", &gz);
    let by_magic = TempFile::new(".html", &gz);
    let two = TempFile::new(".gz", &[gz.clone(), gzip(b"<p>end</p>")].concat());
    let plain = TempFile::new(".html", &html);
    let lim = Limits::default();
    assert_eq!(read_page(&by_ext.0, &lim).unwrap(), html);
    assert_eq!(read_page(&by_magic.0, &lim).unwrap(), html);
    assert_eq!(
        read_page(&two.0, &lim).unwrap(),
        [&html[..], b"<p>end</p>"].concat()
    );
    assert_eq!(read_page(&plain.0, &lim).unwrap(), html);
    assert_eq!(read_bytes(&gz, "mem", &lim).unwrap(), html);
    assert_eq!(read_bytes(&html, "mem", &lim).unwrap(), html);
    let empty = TempFile::new(".html", b"");
    assert_eq!(read_page(&empty.0, &lim).unwrap(), b"");
}

#[test]
fn truncated_gzip_is_gzip_error() {
    let html = page(5000);
    let gz = gzip(&html);
    let cut = TempFile::new(".html.gz", &gz[..gz.len() / 2]);
    match read_page(&cut.0, &Limits::default()) {
        Err(Error::Gzip {
            path, decompressed, ..
        }) => {
            assert_eq!(path, cut.0);
            // Half the compressed stream holds a good part of the page.
            assert!(
                decompressed > 0 && decompressed < html.len() as u64,
                "{decompressed}"
            );
        }
        other => panic!("expected Error::Gzip, got {other:?}"),
    }
    // Garbage after the magic bytes, and a .gz file that is not gzip at all.
    let garbage = TempFile::new(".html", b"\x1f\x8bthis is not deflate");
    assert!(matches!(
        read_page(&garbage.0, &Limits::default()),
        Err(Error::Gzip {
            decompressed: 0,
            ..
        })
    ));
    let not_gz = TempFile::new(".gz", b"<html>plain</html>");
    assert!(matches!(
        read_page(&not_gz.0, &Limits::default()),
        Err(Error::Gzip { .. })
    ));
    assert!(matches!(
        read_bytes(&gz[..gz.len() / 2], "record 7", &Limits::default()),
        Err(Error::Gzip { .. })
    ));
}

#[test]
fn missing_file_is_io_error() {
    let path = std::env::temp_dir().join(format!(
        "pagelevel-decode-missing-{}.html",
        std::process::id()
    ));
    match read_page(&path, &Limits::default()) {
        Err(Error::Io { path: p, .. }) => assert_eq!(p, path),
        other => panic!("expected Error::Io, got {other:?}"),
    }
}

#[test]
fn size_limit() {
    let html = page(1000);
    let n = html.len() as u64;
    let plain = TempFile::new(".html", &html);
    let gz = TempFile::new(".html.gz", &gzip(&html));
    // Exactly at the limit is fine, one byte under it is not.
    assert_eq!(read_page(&plain.0, &limits(n)).unwrap().len() as u64, n);
    assert_eq!(read_page(&gz.0, &limits(n)).unwrap().len() as u64, n);
    match read_page(&plain.0, &limits(n - 1)) {
        Err(Error::TooLarge { size, limit, .. }) => assert_eq!((size, limit), (n, n - 1)),
        other => panic!("expected Error::TooLarge, got {other:?}"),
    }
    // For gzip the limit applies to the decompressed size: the gzip trailer declares it, so the
    // page is refused before anything is inflated.
    match read_page(&gz.0, &limits(1000)) {
        Err(Error::TooLarge { size, limit, .. }) => assert_eq!((size, limit), (n, 1000)),
        other => panic!("expected Error::TooLarge, got {other:?}"),
    }
    assert!(matches!(
        read_bytes(&gzip(&html), "mem", &limits(10)),
        Err(Error::TooLarge { size, .. }) if size == n
    ));
    // Without a believable trailer (cut off), reading stops at limit + 1 while inflating.
    let mut no_trailer = gzip(&html);
    let len = no_trailer.len();
    no_trailer[len - 4..].copy_from_slice(&u32::MAX.to_le_bytes());
    let cut = TempFile::new(".html.gz", &no_trailer);
    match read_page(&cut.0, &limits(1000)) {
        Err(Error::TooLarge { size, limit, .. }) => assert_eq!((size, limit), (1001, 1000)),
        other => panic!("expected Error::TooLarge, got {other:?}"),
    }
    assert!(matches!(
        read_bytes(&html, "mem", &limits(10)),
        Err(Error::TooLarge { .. })
    ));
    // A gzip bomb: 64 MiB of zeros, refused by its trailer before inflating.
    let bomb = gzip(&vec![0u8; 64 << 20]);
    let bomb_file = TempFile::new(".gz", &bomb);
    assert!(
        matches!(read_page(&bomb_file.0, &limits(1 << 20)), Err(Error::TooLarge { size, .. }) if size == 64 << 20)
    );
}

// ---------------------------------------------------------------------------------------
// Real pages
// ---------------------------------------------------------------------------------------

/// `../shared/data` next to the crate, or `None` (with a message) when it is absent.
fn data_dir() -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/data");
    if dir.is_dir() {
        Some(dir)
    } else {
        eprintln!("skipping: {} is absent", dir.display());
        None
    }
}

/// (set, id, path of the `.html.gz`) of every page in every manifest, sets sorted.
fn manifest_pages(dir: &Path) -> Vec<(String, String, PathBuf)> {
    let mut manifests: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path().join("manifest.jsonl"))
        .filter(|p| p.is_file())
        .collect();
    manifests.sort();
    let mut pages = Vec::new();
    for manifest in manifests {
        for line in std::fs::read_to_string(&manifest).unwrap().lines() {
            let v: serde_json::Value = serde_json::from_str(line).unwrap();
            let html = v["html"].as_str().unwrap();
            if html.ends_with(".html.gz") {
                let set = v["set"].as_str().unwrap().to_string();
                pages.push((set, v["id"].as_str().unwrap().to_string(), dir.join(html)));
            }
        }
    }
    pages
}

/// Typical UTF-8-read-as-Latin-1 mojibake.
fn has_mojibake(text: &str) -> bool {
    ["Ã©", "â€™", "Ã¨", "Ã¶"].iter().any(|m| text.contains(m))
}

/// The decoding without the two override rules: BOM, then `<meta>`, then chardetng.
fn naive(bytes: &[u8]) -> String {
    if let Some((enc, len)) = Encoding::for_bom(bytes) {
        return enc
            .decode_without_bom_handling(&bytes[len..])
            .0
            .into_owned();
    }
    let enc = prescan(bytes).unwrap_or_else(|| {
        let mut det = chardetng::EncodingDetector::new(chardetng::Iso2022JpDetection::Deny);
        det.feed(bytes, true);
        det.guess(None, chardetng::Utf8Detection::Allow)
    });
    enc.decode_without_bom_handling(bytes).0.into_owned()
}

#[test]
fn real_pages() {
    // Heavy: every page of the data sets.
    let _machine = common::heavy();
    let Some(dir) = data_dir() else { return };
    let pages = manifest_pages(&dir);
    assert!(pages.len() > 1000, "{} pages", pages.len());
    let lim = Limits::default();
    // set -> (pages, mojibake before overrides, after, errors, per-source counts)
    let mut stats: std::collections::BTreeMap<String, [usize; 8]> = Default::default();
    let mut mojibake_ids = Vec::new();
    for (set, id, path) in &pages {
        let bytes = read_page(path, &lim).unwrap_or_else(|e| panic!("{e}"));
        let d = decode(&bytes, None);
        let s = stats.entry(set.clone()).or_default();
        s[0] += 1;
        s[1] += has_mojibake(&naive(&bytes)) as usize;
        if has_mojibake(&d.text) {
            s[2] += 1;
            mojibake_ids.push(format!("{set}/{id}"));
        }
        s[3] += d.had_errors as usize;
        s[4 + d.source as usize] += 1;
    }
    eprintln!("set            pages  mojibake-before  mojibake-after  had_errors  bom/transport/meta/detected");
    for (set, s) in &stats {
        eprintln!(
            "{set:<14} {:>5}  {:>15}  {:>14}  {:>10}  {}/{}/{}/{}",
            s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7]
        );
    }
    eprintln!("pages with mojibake after decoding: {mojibake_ids:?}");
    for (set, s) in &stats {
        // The rest are pages that are themselves double-encoded on the site; a few per set.
        assert!(
            s[2] <= 3 + s[0] / 100,
            "{set}: {} of {} pages with mojibake",
            s[2],
            s[0]
        );
    }
}

#[test]
fn known_liars_decode_right() {
    let Some(dir) = data_dir() else { return };
    let lim = Limits::default();
    let load = |rel: &str| decode(&read_page(&dir.join(rel), &lim).unwrap(), None);

    // Declares ISO-8859-1; valid UTF-8 whose only non-ASCII is two literal U+FFFD.
    let d = load("sites/bbc/bbc-2005-apple-1.html.gz");
    check(&d, UTF_8, CharsetSource::Detected, "bbc-2005-apple-1");
    assert!(!d.text.contains("ï¿½") && !d.had_errors);
    // Declares ISO-8859-1, is UTF-8 (l3s-gn1, per the data README).
    for id in [
        "01ccc7c5-a1d1-46e1-a5f7-43310df16575",
        "02841370-c748-4afe-93c7-1c40436f37b6",
    ] {
        let d = load(&format!("l3s-gn1/original/{id}.html.gz"));
        check(&d, UTF_8, CharsetSource::Detected, id);
        assert!(!has_mojibake(&d.text) && !d.text.contains("â€"), "{id}");
    }
    // Declares gb2312, is UTF-8.
    let d = load("readability/html/qq.html.gz");
    check(&d, UTF_8, CharsetSource::Detected, "qq");
    assert!(!d.had_errors);
    // WCXB 0327 declares ISO-8859-1, is UTF-8.
    let d = load("wcxb-dev/html/0327.html.gz");
    check(&d, UTF_8, CharsetSource::Detected, "wcxb 0327");

    // Declare UTF-8, are UTF-8 with two stray Latin-1 NBSPs (0xA0) each: they stay UTF-8,
    // the curly quotes survive and only the stray bytes become U+FFFD.
    let d = load("sites/latimes/latimes-2017-boxer-1.html.gz");
    check(&d, UTF_8, CharsetSource::Meta, "latimes-2017-boxer-1");
    assert!(d.text.contains("U.S.\u{FFFD}Senate, Barbara Boxer"));
    assert_eq!(d.text.matches('\u{FFFD}').count(), 2);
    assert_eq!(d.text.matches('\u{2019}').count(), 34, "curly apostrophes");
    assert!(!d.text.contains("â€"));
    let d = load("sites/latimes/latimes-2017-storm-2.html.gz");
    check(&d, UTF_8, CharsetSource::Meta, "latimes-2017-storm-2");
    assert_eq!(d.text.matches('\u{FFFD}').count(), 2);
    assert_eq!(d.text.matches('\u{A0}').count(), 5, "UTF-8 NBSPs");
    let d = load("chaos/html/xiaomi-9.html.gz");
    check(&d, UTF_8, CharsetSource::Meta, "xiaomi-9");
    assert_eq!(d.text.matches('\u{FFFD}').count(), 1);
    assert!(d.text.contains("स्ट"), "Devanagari survives");

    // Declares ISO-8859-1 and really is windows-1252 (not valid UTF-8): the meta decides.
    let d = load("sites/nymag/nymag-2005-bear-1.html.gz");
    check(&d, WINDOWS_1252, CharsetSource::Meta, "nymag-2005-bear-1");
}

/// Decoding speed per set (wcxb-dev: modern UTF-8 pages; the older sets need detection):
/// `cargo test --release --test tests decode::decode_speed -- --ignored --nocapture`.
#[test]
#[ignore]
fn decode_speed() {
    let Some(dir) = data_dir() else { return };
    let lim = Limits::default();
    let mut sets: std::collections::BTreeMap<String, Vec<Vec<u8>>> = Default::default();
    for (set, _, path) in manifest_pages(&dir) {
        sets.entry(set)
            .or_default()
            .push(read_page(&path, &lim).unwrap());
    }
    for (set, pages) in &sets {
        let bytes: usize = pages.iter().map(Vec::len).sum();
        let rounds = 5;
        let start = Instant::now();
        let mut out = 0;
        for _ in 0..rounds {
            for page in pages {
                out += decode(page, None).text.len();
            }
        }
        let secs = start.elapsed().as_secs_f64();
        eprintln!(
            "decode {set:<14} {:>4} pages {:>6.1} MB {:>6.0} MB/s ({out} bytes out)",
            pages.len(),
            bytes as f64 / 1e6,
            (bytes * rounds) as f64 / 1e6 / secs
        );
    }
}

#[test]
fn empty_gz_file() {
    let empty = TempFile::new(".html.gz", b"");
    // An empty file is not a gzip stream (it lacks the 10-byte header).
    assert!(matches!(
        read_page(&empty.0, &Limits::default()),
        Err(Error::Gzip {
            decompressed: 0,
            ..
        })
    ));
}
