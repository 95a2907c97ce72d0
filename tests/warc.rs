//! WARC input and output formats through the binary: the test writes its own WARC files (plain
//! and gzip, with broken records among good ones) and checks every record's outcome.

use crate::common;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;

use flate2::write::GzEncoder;
use flate2::Compression;

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_pagelevel"))
}

fn lines(out: &[u8]) -> Vec<serde_json::Value> {
    String::from_utf8_lossy(out)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// A fresh folder for this test's files.
fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("warc-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A WARC record whose header says `Content-Length: length`.
fn record_with_length(kind: &str, id: &str, uri: &str, block: &[u8], length: usize) -> Vec<u8> {
    let mut r = format!(
        "WARC/1.1\r\nWARC-Type: {kind}\r\nWARC-Record-ID: <urn:uuid:{id}>\r\n\
         WARC-Date: 2024-01-01T00:00:00Z\r\nWARC-Target-URI: {uri}\r\n\
         Content-Type: application/http; msgtype=response\r\nContent-Length: {length}\r\n\r\n"
    )
    .into_bytes();
    r.extend_from_slice(block);
    r.extend_from_slice(b"\r\n\r\n");
    r
}

fn record(kind: &str, id: &str, uri: &str, block: &[u8]) -> Vec<u8> {
    record_with_length(kind, id, uri, block, block.len())
}

fn http(headers: &str, body: &[u8]) -> Vec<u8> {
    let mut h = format!("HTTP/1.1 200 OK\r\n{headers}\r\n").into_bytes();
    h.extend_from_slice(body);
    h
}

fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut e = GzEncoder::new(Vec::new(), Compression::default());
    e.write_all(bytes).unwrap();
    e.finish().unwrap()
}

/// An HTML response record.
fn html_response(id: &str, uri: &str, html: &str) -> Vec<u8> {
    html_record(id, uri, html.as_bytes())
}

/// An HTML response record of raw page bytes (any charset; `id` a UUID).
pub(crate) fn html_record(id: &str, uri: &str, html: &[u8]) -> Vec<u8> {
    record(
        "response",
        id,
        uri,
        &http("Content-Type: text/html\r\n", html),
    )
}

/// Writes `records` as a .warc.gz file, one gzip member per record.
pub(crate) fn write_gzip_warc(path: &Path, records: &[Vec<u8>]) {
    std::fs::write(
        path,
        records.iter().flat_map(|r| gzip(r)).collect::<Vec<u8>>(),
    )
    .unwrap();
}

/// A page with enough text that its article is main content.
fn article(title: &str, word: &str) -> String {
    let para: String = (0..40).map(|k| format!("{word}{k} ")).collect();
    format!(
        "<!doctype html><html><head><title>{title}</title></head><body>\
         <nav><a href=/a>Home</a> <a href=/b>About</a> <a href=/c>Contact</a></nav>\
         <article><h1>{title}</h1><p>{para}</p><p>{para}</p></article>\
         <footer><a href=/privacy>Privacy</a></footer></body></html>"
    )
}

struct Parts {
    /// Each record's bytes, in file order.
    records: Vec<Vec<u8>>,
    /// The HTML of the good pages, with their URI.
    pages: Vec<(String, Vec<u8>, Option<&'static str>)>,
}

/// The records of the robustness tests: good pages between every kind of bad record and
/// records that are skipped.
fn parts() -> Parts {
    let a = article("Alpha report", "alpha").into_bytes();
    let b = article("Bravo report", "bravo").into_bytes();
    // windows-1252 bytes, declared only by the HTTP header.
    let mut c = article("Caf\u{e9} report", "charlie").into_bytes();
    let c_text = String::from_utf8(c.clone()).unwrap();
    c = encoding_latin1(&c_text);
    let d = article("Delta report", "delta").into_bytes();
    let mut chunked = Vec::new();
    for piece in d.chunks(100) {
        chunked.extend_from_slice(format!("{:x}\r\n", piece.len()).as_bytes());
        chunked.extend_from_slice(piece);
        chunked.extend_from_slice(b"\r\n");
    }
    chunked.extend_from_slice(b"0\r\n\r\n");
    let e = article("Echo report", "echo").into_bytes();
    let html = "Content-Type: text/html; charset=utf-8\r\n";
    let records = vec![
        record(
            "warcinfo",
            "00000000-0000-0000-0000-000000000000",
            "",
            b"software: test\r\n",
        ),
        record(
            "request",
            "00000000-0000-0000-0000-000000000001",
            "http://a.example/",
            b"GET / HTTP/1.1\r\n\r\n",
        ),
        record(
            "response",
            "00000000-0000-0000-0000-00000000000a",
            "http://a.example/",
            &http(html, &a),
        ),
        // index 3: truncated (gzip) or good (plain) record
        record(
            "response",
            "00000000-0000-0000-0000-00000000000b",
            "http://b.example/",
            &http(html, &b),
        ),
        // index 4: Content-Length 10 bytes short
        {
            let block = http(html, &a);
            record_with_length(
                "response",
                "00000000-0000-0000-0000-0000000000c1",
                "http://bad.example/",
                &block,
                block.len() - 10,
            )
        },
        record(
            "response",
            "00000000-0000-0000-0000-0000000000c2",
            "http://notttp.example/",
            b"<html><p>no status line</p></html>",
        ),
        record(
            "response",
            "00000000-0000-0000-0000-0000000000c3",
            "http://img.example/x.png",
            &http("Content-Type: image/png\r\n", b"\x89PNG"),
        ),
        record(
            "response",
            "00000000-0000-0000-0000-00000000000c",
            "http://c.example/caf",
            &http("Content-Type: text/html; charset=windows-1252\r\n", &c),
        ),
        record(
            "response",
            "00000000-0000-0000-0000-00000000000d",
            "http://d.example/",
            &http(
                "Content-Type: text/html\r\nTransfer-Encoding: chunked\r\n",
                &chunked,
            ),
        ),
        record(
            "response",
            "00000000-0000-0000-0000-00000000000e",
            "http://e.example/",
            &http(
                "Content-Type: text/html\r\nContent-Encoding: gzip\r\n",
                &gzip(&e),
            ),
        ),
    ];
    let pages = vec![
        ("a".into(), a, Some("http://a.example/")),
        ("b".into(), b, Some("http://b.example/")),
        ("c".into(), c, Some("http://c.example/caf")),
        ("d".into(), d, Some("http://d.example/")),
        ("e".into(), e, Some("http://e.example/")),
    ];
    Parts { records, pages }
}

fn encoding_latin1(s: &str) -> Vec<u8> {
    s.chars()
        .map(|c| u8::try_from(u32::from(c)).unwrap())
        .collect()
}

fn id(v: &serde_json::Value) -> String {
    v["warc_record_id"].as_str().unwrap_or("").to_string()
}

fn extract(args: &[&Path]) -> (std::process::Output, Vec<serde_json::Value>) {
    let out = bin().arg("extract").args(args).output().unwrap();
    let v = lines(&out.stdout);
    (out, v)
}

#[test]
fn gzip_warc_reports_bad_records_and_reads_on() {
    let dir = scratch("gz");
    let p = parts();
    let mut file = Vec::new();
    for (k, r) in p.records.iter().enumerate() {
        let member = gzip(r);
        if k == 3 {
            // A member cut in the middle: its record is lost, the next member is read.
            file.extend_from_slice(&member[..member.len() / 2]);
        } else {
            file.extend_from_slice(&member);
        }
    }
    // A Content-Length 50 bytes too long: the member ends first; the next member is read.
    let block = http("Content-Type: text/html\r\n", &p.pages[0].1);
    let long = record_with_length(
        "response",
        "00000000-0000-0000-0000-0000000000c4",
        "http://long.example/",
        &block,
        block.len() + 50,
    );
    file.extend_from_slice(&gzip(&long));
    let f = record(
        "response",
        "00000000-0000-0000-0000-00000000000f",
        "http://f.example/",
        &block,
    );
    file.extend_from_slice(&gzip(&f));
    let path = dir.join("t.warc.gz");
    std::fs::write(&path, &file).unwrap();
    let (out, v) = extract(&[&path]);
    assert!(!out.status.success(), "bad records set the exit status");
    // The truncated member's record is reported whether or not its header was decoded.
    let got: Vec<(String, bool)> = v
        .iter()
        .enumerate()
        .map(|(k, x)| {
            (
                if k == 1 { String::new() } else { id(x) },
                x.get("error").is_some(),
            )
        })
        .collect();
    let want: Vec<(String, bool)> = [
        ("a", false),
        ("", true),
        ("c1", true),
        ("c2", true),
        ("c", false),
        ("d", false),
        ("e", false),
        ("c4", true),
        ("f", false),
    ]
    .iter()
    .map(|(s, b)| {
        (
            if s.is_empty() {
                String::new()
            } else {
                format!("<urn:uuid:00000000-0000-0000-0000-{s:0>12}>")
            },
            *b,
        )
    })
    .collect();
    assert_eq!(got, want, "{}", String::from_utf8_lossy(&out.stdout));
    let err = |k: usize| v[k]["error"].as_str().unwrap().to_string();
    assert!(err(1).contains("gzip"), "{}", err(1));
    assert!(err(2).contains("Content-Length"), "{}", err(2));
    assert!(err(3).contains("not HTTP"), "{}", err(3));
    assert!(err(7).contains("member ends"), "{}", err(7));
    assert_eq!(v[4]["url"], "http://c.example/caf");
    assert!(
        v[4]["text"].as_str().unwrap().contains("Caf\u{e9} report"),
        "the HTTP charset decodes the page"
    );
    assert!(
        v[5]["text"].as_str().unwrap().contains("delta39"),
        "chunked body read"
    );
    assert!(
        v[6]["text"].as_str().unwrap().contains("echo39"),
        "gzip content-encoding undone"
    );
    for x in &v {
        assert_eq!(x["path"], path.to_string_lossy().as_ref());
    }
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("3 records skipped"), "{stderr}");
}

#[test]
fn plain_warc_resyncs_after_a_wrong_content_length() {
    let dir = scratch("plain");
    let p = parts();
    let file: Vec<u8> = p.records.concat();
    let path = dir.join("t.warc");
    std::fs::write(&path, &file).unwrap();
    let (out, v) = extract(&[&path]);
    assert!(!out.status.success());
    let got: Vec<(String, bool)> = v
        .iter()
        .map(|x| (id(x), x.get("error").is_some()))
        .collect();
    let want: Vec<(String, bool)> = [
        ("a", false),
        ("b", false),
        ("c1", true),
        ("c2", true),
        ("c", false),
        ("d", false),
        ("e", false),
    ]
    .iter()
    .map(|(s, b)| (format!("<urn:uuid:00000000-0000-0000-0000-{s:0>12}>"), *b))
    .collect();
    assert_eq!(got, want, "{}", String::from_utf8_lossy(&out.stdout));

    // A file cut inside its last record: the records before it are all read.
    let cut = dir.join("cut.warc");
    let keep = p.records[..3].concat().len() + p.records[3].len() / 2;
    std::fs::write(&cut, &file[..keep]).unwrap();
    let (_, v) = extract(&[&cut]);
    assert_eq!(v.len(), 2);
    assert!(v[0].get("error").is_none());
    assert!(
        v[1]["error"].as_str().unwrap().contains("ends inside"),
        "{}",
        v[1]
    );
}

#[test]
fn plain_warc_reads_the_records_a_too_long_content_length_swallows() {
    let dir = scratch("plain-long");
    let html = "Content-Type: text/html\r\n";
    let good = |k: &str, word: &str| {
        record(
            "response",
            &format!("00000000-0000-0000-0000-{k:0>12}"),
            &format!("http://{word}.example/"),
            &http(html, article(word, word).as_bytes()),
        )
    };
    let long = |extra: usize| {
        let block = http(html, article("Long", "long").as_bytes());
        record_with_length(
            "response",
            "00000000-0000-0000-0000-0000000000ff",
            "http://long.example/",
            &block,
            block.len() + extra,
        )
    };
    // 300 bytes too long ends inside the next record; 10 MB too long runs past the file's end.
    for extra in [300, 10 << 20] {
        let file = [
            good("a", "alpha"),
            long(extra),
            good("b", "bravo"),
            good("c", "charlie"),
        ]
        .concat();
        let path = dir.join(format!("long{extra}.warc"));
        std::fs::write(&path, &file).unwrap();
        let (out, v) = extract(&[&path]);
        assert!(!out.status.success());
        let got: Vec<(String, bool)> = v
            .iter()
            .map(|x| (id(x), x.get("error").is_some()))
            .collect();
        let want: Vec<(String, bool)> = [("a", false), ("ff", true), ("b", false), ("c", false)]
            .iter()
            .map(|(s, b)| (format!("<urn:uuid:00000000-0000-0000-0000-{s:0>12}>"), *b))
            .collect();
        assert_eq!(
            got,
            want,
            "{extra}: {}",
            String::from_utf8_lossy(&out.stdout)
        );
        let text = v[2]["text"].as_str().unwrap();
        assert!(text.contains("bravo0 bravo1"), "{text}");
    }
}

#[test]
fn warc_record_extracts_like_its_html_with_url() {
    let dir = scratch("same");
    let p = parts();
    let path = dir.join("t.warc.gz");
    let file: Vec<u8> = p.records.iter().flat_map(|r| gzip(r)).collect();
    std::fs::write(&path, &file).unwrap();
    let (_, from_warc) = extract(&[&path]);
    let good: Vec<&serde_json::Value> = from_warc
        .iter()
        .filter(|x| x.get("error").is_none())
        .collect();
    assert_eq!(good.len(), p.pages.len());
    for ((name, html, url), w) in p.pages.iter().zip(&good) {
        let page = dir.join(format!("{name}.html"));
        std::fs::write(&page, html).unwrap();
        let mut cmd = bin();
        cmd.arg("extract").arg(&page);
        if let Some(u) = url {
            cmd.args(["--url", u]);
        }
        let out = cmd.output().unwrap();
        let v = lines(&out.stdout);
        if *name == "c" {
            // Without the HTTP header the windows-1252 page is decoded by detection.
            assert!(w["text"].as_str().unwrap().contains("Caf\u{e9}"));
            continue;
        }
        assert_eq!(v[0]["text"], w["text"], "{name}");
        assert_eq!(w["url"], url.unwrap());
    }
    // Output is the same on 1 and 2 threads.
    let one = bin()
        .args(["extract", "-j", "1"])
        .arg(&path)
        .output()
        .unwrap();
    let two = bin()
        .args(["extract", "-j", "2"])
        .arg(&path)
        .output()
        .unwrap();
    assert_eq!(one.stdout, two.stdout);
}

#[test]
fn segment_and_dedup_read_warc() {
    let dir = scratch("seg");
    let p = parts();
    let path = dir.join("t.warc");
    std::fs::write(&path, p.records[..4].concat()).unwrap();
    let out = bin().arg("segment").arg(&path).output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v = lines(&out.stdout);
    assert_eq!(v.len(), 2);
    assert_eq!(v[1]["url"], "http://b.example/");
    assert!(!v[1]["segments"].as_array().unwrap().is_empty());

    // dedup: the same article at two URIs is one pair, as between the pages as files.
    let html = "Content-Type: text/html\r\n";
    let a = article("Alpha report", "alpha");
    let b = article("Bravo report", "bravo");
    let recs = [
        record(
            "response",
            "00000000-0000-0000-0000-000000000001",
            "http://x.example/1",
            &http(html, a.as_bytes()),
        ),
        record(
            "response",
            "00000000-0000-0000-0000-000000000002",
            "http://x.example/2",
            &http(html, b.as_bytes()),
        ),
        record(
            "response",
            "00000000-0000-0000-0000-000000000003",
            "http://y.example/3",
            &http(html, a.as_bytes()),
        ),
    ];
    let warc = dir.join("dup.warc.gz");
    write_gzip_warc(&warc, &recs);
    let out = bin().arg("dedup").arg(&warc).output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let pairs = lines(&out.stdout);
    assert_eq!(pairs.len(), 1, "{pairs:?}");
    assert_eq!(
        pairs[0]["a_warc_record_id"],
        "<urn:uuid:00000000-0000-0000-0000-000000000001>"
    );
    assert_eq!(
        pairs[0]["b_warc_record_id"],
        "<urn:uuid:00000000-0000-0000-0000-000000000003>"
    );
    assert_eq!(pairs[0]["b_url"], "http://y.example/3");
    let (fa, fb, fc) = (dir.join("1.html"), dir.join("2.html"), dir.join("3.html"));
    std::fs::write(&fa, &a).unwrap();
    std::fs::write(&fb, &b).unwrap();
    std::fs::write(&fc, &a).unwrap();
    let out = bin().arg("dedup").args([&fa, &fb, &fc]).output().unwrap();
    let files = lines(&out.stdout);
    assert_eq!(files.len(), 1);
    assert_eq!(files[0]["matches"], pairs[0]["matches"]);
}

/// A page whose main content has the structures Markdown keeps.
const STRUCTURED: &str = "<!doctype html><html><body><main>\
<h1>Install guide</h1>\
<p>This guide explains how to install the tool on a fresh machine, step by step, with the commands you need and what each one does for you.</p>\
<h2>Steps &amp; checks</h2>\
<ul><li>Download the archive from the release page of the project<ul><li>Check its checksum against the published list</li></ul></li>\
<li>Unpack it into a folder of your choice on the disk</li></ul>\
<ol><li>Run the installer as an ordinary user</li><li>Restart the shell so the path is read again</li></ol>\
<table><tr><th>Option</th><th>Meaning</th></tr><tr><td>--fast</td><td>Skip the slow checks entirely</td></tr></table>\
<pre><code>cargo install tool\n  tool --version</code></pre>\
<p>After these steps the tool is ready to use, and the remaining chapters describe its many options in detail.</p>\
</main></body></html>";

fn render(format: &str, page: &Path) -> String {
    let out = bin()
        .args(["extract", "--format", format])
        .arg(page)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn every_format_on_a_structured_page() {
    let dir = scratch("formats");
    let page = dir.join("guide.html");
    std::fs::write(&page, STRUCTURED).unwrap();
    // One page: no `==> NAME <==` line before it.
    let md = render("markdown", &page);
    assert!(!md.starts_with("==>"), "{md}");
    for want in [
        "# Install guide\n",
        "## Steps \\& checks\n",
        "- Download the archive from the release page of the project\n  - Check its checksum against the published list\n- Unpack it",
        "1. Run the installer as an ordinary user\n2. Restart the shell",
        "| Option | Meaning |\n| --- | --- |\n| --fast | Skip the slow checks entirely |\n",
        "```\ncargo install tool\n  tool --version\n```\n",
    ] {
        assert!(md.contains(want), "missing {want:?} in:\n{md}");
    }

    let html = render("html", &page);
    assert!(!html.starts_with("==>"), "{html}");
    assert!(
        html.contains("<pre>cargo install tool\n  tool --version</pre>"),
        "code block kept verbatim:\n{html}"
    );
    // Block tags sit on lines of their own; the structure is what counts.
    let flat = html.replace('\n', "");
    for want in [
        "<h1>Install guide</h1>",
        "<h2>Steps &amp; checks</h2>",
        "<ul><li>Download the archive from the release page of the project<ul><li>Check its checksum \
         against the published list</li></ul></li><li>Unpack it",
        "<ol><li>Run the installer as an ordinary user</li><li>Restart the shell",
        "<tr><th>Option</th><th>Meaning</th></tr><tr><td>--fast</td><td>Skip the slow checks entirely</td></tr>",
    ] {
        assert!(flat.contains(want), "missing {want:?} in:\n{html}");
    }

    let text = render("text", &page);
    assert!(!text.starts_with("==>"), "{text}");
    assert!(text.starts_with("Install guide\n"), "{text}");
    assert!(!text.contains('#') && !text.contains('<'), "{text}");

    let jsonl = render("jsonl", &page);
    let v = lines(jsonl.as_bytes());
    assert_eq!(v.len(), 1);
    assert_eq!(v[0]["text"].as_str().unwrap().trim_end(), text.trim_end());
}

/// A letter for `n` (mod 26). Letters, not digits: SiteLevel hashes every digit run alike.
fn letter(n: usize) -> char {
    char::from(b'a' + (n % 26) as u8)
}

/// A page of `site` with the site's navigation and footer around article `k`.
fn site_page(site: &str, k: usize) -> String {
    let words: String = (0..30)
        .map(|w| format!("{site}{}{} ", letter(k), letter(w)))
        .collect();
    format!(
        "<html><body><nav><a href=/>{site} home</a> <a href=/news>{site} news</a></nav>\
         <article><h1>Story {k} of {site}</h1><p>{words}</p></article>\
         <footer>{site} footer, all rights reserved</footer></body></html>"
    )
}

#[test]
fn sitelevel_groups_warc_records_by_site_like_a_site_folder() {
    let dir = scratch("sitelevel");
    let sites = ["alpha", "bravo"];
    let mut records = Vec::new();
    for (s, site) in sites.iter().enumerate() {
        std::fs::create_dir_all(dir.join("sites").join(site)).unwrap();
        for k in 0..6 {
            let html = site_page(site, k);
            std::fs::write(dir.join(format!("sites/{site}/p{k}.html")), &html).unwrap();
            let uri = format!("https://www.{site}.example/p{k}");
            let id = format!("00000000-0000-0000-0000-0000000{s}{k:04}");
            records.push(html_response(&id, &uri, &html));
            if s == 0 && k == 2 {
                // A bad record inside the first site's run.
                records.push(record(
                    "response",
                    "00000000-0000-0000-0000-00000000bad0",
                    &uri,
                    b"not http",
                ));
            }
        }
    }
    let warc = dir.join("sites.warc.gz");
    write_gzip_warc(&warc, &records);

    let out = bin()
        .args(["sitelevel", "--extract", "--warc"])
        .arg(&warc)
        .output()
        .unwrap();
    assert!(!out.status.success(), "the bad record sets the exit status");
    let from_warc = lines(&out.stdout);
    assert_eq!(
        from_warc.len(),
        13,
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    assert!(
        from_warc[3]["error"].as_str().unwrap().contains("not HTTP"),
        "{}",
        from_warc[3]
    );
    let good: Vec<&serde_json::Value> = from_warc
        .iter()
        .filter(|v| v.get("error").is_none())
        .collect();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("site alpha.example: 7 pages"), "{stderr}");
    assert!(stderr.contains("site bravo.example: 6 pages"), "{stderr}");

    let out = bin()
        .args(["sitelevel", "--extract", "--site-dir"])
        .arg(dir.join("sites"))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let from_dir = lines(&out.stdout);
    assert_eq!(from_dir.len(), 12);
    for (w, d) in good.iter().zip(&from_dir) {
        assert_eq!(w["text"], d["text"]);
        let text = w["text"].as_str().unwrap();
        // The article's 30 words stay; navigation and footer are template.
        assert_eq!(text.split_whitespace().count(), 30, "{text}");
        assert!(!text.contains("footer") && !text.contains("home"), "{text}");
    }
    assert_eq!(good[0]["url"], "https://www.alpha.example/p0");
    assert_eq!(
        good[0]["warc_record_id"],
        "<urn:uuid:00000000-0000-0000-0000-000000000000>"
    );
    assert_eq!(
        good[11]["warc_record_id"],
        "<urn:uuid:00000000-0000-0000-0000-000000010005>"
    );

    // Labels mode over the plain file gives the same labels.
    let plain = dir.join("sites.warc");
    std::fs::write(&plain, records.concat()).unwrap();
    let gz = bin()
        .args(["sitelevel", "--warc"])
        .arg(&warc)
        .output()
        .unwrap();
    let pl = bin()
        .args(["sitelevel", "--warc"])
        .arg(&plain)
        .output()
        .unwrap();
    let strip = |o: &[u8]| -> Vec<serde_json::Value> {
        lines(o)
            .into_iter()
            .map(|mut v| {
                v.as_object_mut().unwrap().remove("path");
                v.as_object_mut().unwrap().remove("error");
                v
            })
            .collect()
    };
    assert_eq!(strip(&gz.stdout), strip(&pl.stdout));
}

#[test]
fn sitelevel_gathers_a_site_from_interleaved_records() {
    // Crawl order: the two sites' records alternate, as in a Common Crawl file.
    let dir = scratch("interleaved");
    let sites = ["alpha", "bravo"];
    let mut records = Vec::new();
    for k in 0..6 {
        for (s, site) in sites.iter().enumerate() {
            std::fs::create_dir_all(dir.join("sites").join(site)).unwrap();
            let html = site_page(site, k);
            std::fs::write(dir.join(format!("sites/{site}/p{k}.html")), &html).unwrap();
            let id = format!("00000000-0000-0000-0000-0000000{s}{k:04}");
            records.push(html_response(
                &id,
                &format!("https://www.{site}.example/p{k}"),
                &html,
            ));
        }
    }
    let warc = dir.join("interleaved.warc.gz");
    write_gzip_warc(&warc, &records);

    let out = bin()
        .args(["sitelevel", "--extract", "--warc"])
        .arg(&warc)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(stderr.contains("site alpha.example: 6 pages"), "{stderr}");
    assert!(stderr.contains("site bravo.example: 6 pages"), "{stderr}");
    let from_warc = lines(&out.stdout);
    // Sites in the order of their first record, each in file order.
    let urls: Vec<&str> = from_warc
        .iter()
        .map(|v| v["url"].as_str().unwrap())
        .collect();
    assert_eq!(urls[0], "https://www.alpha.example/p0");
    assert_eq!(urls[5], "https://www.alpha.example/p5");
    assert_eq!(urls[6], "https://www.bravo.example/p0");
    let out = bin()
        .args(["sitelevel", "--extract", "--site-dir"])
        .arg(dir.join("sites"))
        .output()
        .unwrap();
    let from_dir = lines(&out.stdout);
    assert_eq!(from_warc.len(), 12);
    assert_eq!(from_dir.len(), 12);
    for (w, d) in from_warc.iter().zip(&from_dir) {
        assert_eq!(w["text"], d["text"]);
    }

    // Taken as runs of consecutive records, every run is one page: too few to label, so each
    // gets its PageLevel text, in file order.
    let out = bin()
        .args(["sitelevel", "--extract", "--contiguous", "--warc"])
        .arg(&warc)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert_eq!(
        stderr
            .matches("1 page(s), SiteLevel needs at least 5: PageLevel text")
            .count(),
        12,
        "{stderr}"
    );
    assert!(stderr.contains("10 site run(s) came after"), "{stderr}");
    let runs = lines(&out.stdout);
    assert_eq!(runs.len(), 12);
    for (k, v) in runs.iter().enumerate() {
        assert_eq!(v["sitelevel"], false, "{v}");
        let site = ["alpha", "bravo"][k % 2];
        assert_eq!(v["url"], format!("https://www.{site}.example/p{}", k / 2));
        assert!(v["text"]
            .as_str()
            .unwrap()
            .contains(&format!("Story {} of {site}", k / 2)));
    }
    let out = bin()
        .args([
            "sitelevel",
            "--extract",
            "--contiguous",
            "--no-fallback",
            "--warc",
        ])
        .arg(&warc)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(stderr.matches("skipped, no labels").count(), 12, "{stderr}");
}

#[test]
fn dedup_sitelevel_mode_reads_sites_from_warc_uris() {
    // Two sites whose pages share a long template around short, different stories: their full
    // texts look alike, their SiteLevel texts (template removed) do not.
    let dir = scratch("dedup-sitelevel");
    let template: String = (0..120)
        .map(|w| format!("menu{}{} ", letter(w / 26), letter(w)))
        .collect();
    let mut records = Vec::new();
    for k in 0..6 {
        for (s, site) in ["alpha", "bravo"].iter().enumerate() {
            let story: String = (0..12)
                .map(|w| format!("{site}{}{} ", letter(k), letter(w)))
                .collect();
            let html = format!(
                "<html><body><nav>{site} {template}</nav><article><p>{story}</p></article>\
                 <footer>{template} {site}</footer></body></html>"
            );
            records.push(html_response(
                &format!("00000000-0000-0000-0000-0000000{s}{k:04}"),
                &format!("https://www.{site}.example/p{k}"),
                &html,
            ));
        }
    }
    let warc = dir.join("sites.warc.gz");
    write_gzip_warc(&warc, &records);
    let run = |mode: &str| {
        let out = bin()
            .args(["dedup", "--mode", mode])
            .arg(&warc)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{mode}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        // Both sites are labelled (not left with their full text for too few pages).
        assert!(!String::from_utf8_lossy(&out.stderr).contains("not labelled"));
        lines(&out.stdout)
    };
    let full = run("full");
    assert!(full.len() >= 15, "template-heavy pages pair up: {full:?}");
    let site = run("sitelevel");
    assert!(site.is_empty(), "{site:?}");

    // Files without a URL have no site.
    let f = dir.join("page.html");
    std::fs::write(&f, "<p>one</p>").unwrap();
    let out = bin()
        .args(["dedup", "--mode", "sitelevel"])
        .arg(&f)
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("needs the pages' sites"));
}

#[test]
fn markdown_table_cells_stay_on_one_line() {
    let dir = scratch("cells");
    let page = dir.join("notes.html");
    std::fs::write(
        &page,
        "<html><body><main><h1>Release notes for the tool</h1><p>This release brings many changes \
         that the team worked on for months, listed in the table below with details.</p>\
         <table><tr><th>Change</th><th>Notes</th></tr><tr><td><p>Faster parser</p><p>Second \
         paragraph in the cell</p></td><td>It is <b>twice</b> as fast | now</td></tr></table>\
         <p>More text follows after the table so that the article stays the main content of the \
         page.</p></main></body></html>",
    )
    .unwrap();
    let md = render("markdown", &page);
    let want = "| Change | Notes |\n| --- | --- |\n\
                | Faster parser Second paragraph in the cell | It is **twice** as fast \\| now |\n";
    assert!(md.contains(want), "{md}");
}

/// Runs `cmd` (stdin from `stdin` when given, stdout to a file) and returns its output lines,
/// stderr, whether it succeeded, its peak resident memory in KiB (`wait4`'s `ru_maxrss`) and
/// what the test binary held when it forked, in KiB.
///
/// Linux folds the memory a process leaves at `exec` into its `ru_maxrss`. `spawn` would
/// `vfork`, leaving the test binary's own peak, which is the peak of every test in it (one
/// binary for all modules); a plain `fork` (a `pre_exec` hook) leaves a copy of what the test
/// binary holds now, freed memory returned first (`malloc_trim`). The test that checks the
/// figure holds [`common::timed`], so that no heavy test holds memory meanwhile; light tests
/// still may, so the caller reads the peak against that copy ([`peak_within`]).
// The child is reaped by `wait4`, which `Child::wait` cannot stand in for (no rusage).
#[allow(clippy::zombie_processes)]
fn run_measured(
    cmd: &mut Command,
    stdin: Option<&Path>,
    dir: &Path,
) -> (Vec<serde_json::Value>, String, bool, u64, u64) {
    let (out_path, err_path) = (dir.join("stdout"), dir.join("stderr"));
    cmd.stdout(std::fs::File::create(&out_path).unwrap())
        .stderr(std::fs::File::create(&err_path).unwrap());
    if let Some(p) = stdin {
        cmd.stdin(std::fs::File::open(p).unwrap());
    }
    use std::os::unix::process::CommandExt;
    // SAFETY: the hook does nothing; it only makes `spawn` fork instead of vfork.
    unsafe {
        cmd.pre_exec(|| Ok(()));
    }
    #[cfg(target_env = "gnu")]
    // SAFETY: returns free heap memory to the system; no pointer is passed.
    unsafe {
        libc::malloc_trim(0);
    }
    let held_kib = resident_kib();
    let child = cmd.spawn().unwrap();
    let mut status = 0;
    // SAFETY: an all-zero rusage is valid; wait4 fills it for our own child.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let pid = libc::pid_t::try_from(child.id()).unwrap();
    // SAFETY: waits for the child spawned above, with valid pointers to locals.
    let r = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    assert_eq!(r, pid);
    let ok = libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0;
    let v = lines(&std::fs::read(&out_path).unwrap());
    let err = std::fs::read_to_string(&err_path).unwrap();
    (v, err, ok, usage.ru_maxrss as u64, held_kib)
}

/// This process's resident memory in KiB (`VmRSS` of `/proc/self/status`; 0 where unreadable).
fn resident_kib() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            let line = s.lines().find(|l| l.starts_with("VmRSS:"))?;
            line.split_whitespace().nth(1)?.parse().ok()
        })
        .unwrap_or(0)
}

/// Whether a child's peak (`peak_kib`, [`run_measured`]) keeps within `bound_kib`: a peak at
/// the copy of the test binary it forked from (`held_kib`, plus 16 MiB the fork and `exec`
/// touch) is that copy's, not the child's, and passes too.
fn peak_within(peak_kib: u64, held_kib: u64, bound_kib: u64) -> bool {
    peak_kib < bound_kib.max(held_kib + (16 << 10))
}

/// A good HTML response record with id `…{k}` at `http://{word}.example/`.
fn good(k: &str, word: &str) -> Vec<u8> {
    record(
        "response",
        &format!("00000000-0000-0000-0000-{k:0>12}"),
        &format!("http://{word}.example/"),
        &http(
            "Content-Type: text/html\r\n",
            article(word, word).as_bytes(),
        ),
    )
}

fn uuid(k: &str) -> String {
    if k.is_empty() {
        return String::new();
    }
    format!("<urn:uuid:00000000-0000-0000-0000-{k:0>12}>")
}

#[test]
fn plain_warc_loses_nothing_after_a_cut_record_junk_or_a_4_gib_claim() {
    let dir = scratch("hostile-plain");
    let html = "Content-Type: text/html\r\n";
    // A record cut inside a header line, then the next record on the same line.
    let cut = good("b", "bravo");
    let cut = &cut[..60];
    // 5,000 bytes of noise (no version line in them).
    let junk = pagelevel::fuzzing::Xorshift(88172645463325252).bytes(5000);
    let huge = record_with_length(
        "response",
        "00000000-0000-0000-0000-0000000000a4",
        "http://huge.example/",
        &http(html, b"<p>huge</p>"),
        4 << 30,
    );
    let block = http(html, article("Long", "long").as_bytes());
    let long = record_with_length(
        "response",
        "00000000-0000-0000-0000-0000000000ff",
        "http://long.example/",
        &block,
        block.len() + 300,
    );
    let file = [
        good("a", "alpha"),
        cut.to_vec(),
        good("c", "charlie"),
        junk,
        good("d", "delta"),
        huge,
        long,
        good("e", "echo"),
        good("f", "foxtrot"),
    ]
    .concat();
    let path = dir.join("hostile.warc");
    std::fs::write(&path, &file).unwrap();
    let (out, v) = extract(&[&path]);
    assert!(!out.status.success());
    let got: Vec<(String, bool)> = v
        .iter()
        .map(|x| (id(x), x.get("error").is_some()))
        .collect();
    let want: Vec<(String, bool)> = [
        ("a", false),
        ("", true),
        ("c", false),
        ("", true),
        ("d", false),
        ("a4", true),
        ("ff", true),
        ("e", false),
        ("f", false),
    ]
    .iter()
    .map(|(k, bad)| (uuid(k), *bad))
    .collect();
    assert_eq!(got, want, "{}", String::from_utf8_lossy(&out.stdout));
    let err = |k: usize| v[k]["error"].as_str().unwrap().to_string();
    assert!(err(1).contains("record cut"), "{}", err(1));
    assert!(err(3).contains("5000 bytes"), "{}", err(3));
    assert!(err(5).contains("file ends inside"), "{}", err(5));
    assert!(err(6).contains("wrong Content-Length"), "{}", err(6));
    assert!(v[8]["text"].as_str().unwrap().contains("foxtrot39"));

    // The same file on standard input (a stream, read forward only): the 4 GiB block is over
    // the size limit, so it is not kept to be scanned again; the records it swallowed are
    // lost, and its error line says how many bytes went with it.
    let mut cmd = bin();
    cmd.args(["extract", "-"]);
    let (v, _, ok, _, _) = run_measured(&mut cmd, Some(&path), &dir);
    assert!(!ok);
    let got: Vec<(String, bool)> = v
        .iter()
        .map(|x| (id(x), x.get("error").is_some()))
        .collect();
    assert_eq!(got, want[..6].to_vec());
    let huge_at = v[5]["error"].as_str().unwrap();
    let offset: usize = huge_at
        .split("offset ")
        .nth(1)
        .and_then(|s| s.split(' ').next())
        .unwrap()
        .parse()
        .unwrap();
    assert!(
        huge_at.contains(&format!("({} bytes skipped)", file.len() - offset)),
        "{huge_at}"
    );
}

#[test]
fn a_fifo_page_or_warc_is_read_once_from_its_first_byte() {
    let dir = scratch("fifo");
    // The page's title and first paragraph lie in its first 512 bytes.
    let page = article("Opening words", "first");
    assert!(page.find("first0").unwrap() < 512);
    let warc = [good("a", "alpha"), good("b", "bravo")]
        .iter()
        .flat_map(|r| gzip(r))
        .collect::<Vec<u8>>();
    for (name, bytes) in [("page", page.as_bytes().to_vec()), ("warc", warc)] {
        let fifo = dir.join(name);
        let made = Command::new("mkfifo").arg(&fifo).status().unwrap();
        assert!(made.success());
        let writer = {
            let fifo = fifo.clone();
            std::thread::spawn(move || {
                let mut f = std::fs::OpenOptions::new().write(true).open(fifo).unwrap();
                // In small pieces, as a pipe may deliver them.
                for piece in bytes.chunks(100) {
                    f.write_all(piece).unwrap();
                    f.flush().unwrap();
                }
            })
        };
        let out = bin().arg("extract").arg(&fifo).output().unwrap();
        writer.join().unwrap();
        assert!(
            out.status.success(),
            "{name}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let v = lines(&out.stdout);
        if name == "page" {
            assert_eq!(v.len(), 1);
            let text = v[0]["text"].as_str().unwrap();
            assert!(text.starts_with("Opening words\nfirst0 first1"), "{text}");
            assert!(text.ends_with("first39"), "{text}");
        } else {
            let ids: Vec<String> = v.iter().map(id).collect();
            assert_eq!(ids, [uuid("a"), uuid("b")]);
            assert!(v[1]["text"].as_str().unwrap().contains("bravo39"));
        }
    }
}

#[test]
fn a_sparse_8_gib_warc_and_a_gzip_bomb_end_quickly_in_bounded_memory() {
    // Timed: the sparse file must be read within 20 s.
    let _machine = common::timed();
    let dir = scratch("sparse");
    let path = dir.join("sparse.warc");
    let a = good("a", "alpha");
    {
        let mut f = std::fs::File::create(&path).unwrap();
        f.write_all(&a).unwrap();
        f.set_len(8 << 30).unwrap();
        use std::io::Seek;
        f.seek(std::io::SeekFrom::End(0)).unwrap();
        f.write_all(&good("b", "bravo")).unwrap();
    }
    let started = std::time::Instant::now();
    let mut cmd = bin();
    cmd.arg("extract").arg(&path);
    let (v, _, ok, rss_kib, held_kib) = run_measured(&mut cmd, None, &dir);
    let secs = started.elapsed().as_secs_f64();
    std::fs::remove_file(&path).unwrap();
    assert!(!ok, "the hole is reported");
    let got: Vec<(String, bool)> = v
        .iter()
        .map(|x| (id(x), x.get("error").is_some()))
        .collect();
    assert_eq!(
        got,
        [
            (uuid("a"), false),
            (String::new(), true),
            (uuid("b"), false)
        ]
    );
    let hole = (8u64 << 30) - a.len() as u64;
    assert!(v[1]["error"]
        .as_str()
        .unwrap()
        .contains(&format!("{hole} bytes")));
    assert!(secs < 20.0, "{secs} s");
    assert!(
        peak_within(rss_kib, held_kib, 300 << 10),
        "{rss_kib} KiB (the test binary held {held_kib} KiB)"
    );

    // A gzip member that inflates to 300 MB of zeros with no newline, between two good ones.
    let bomb = {
        let mut e = GzEncoder::new(Vec::new(), Compression::fast());
        e.write_all(b"WARC/1.1\r\nWARC-Type: response\r\nX-Endless: ")
            .unwrap();
        let zeros = vec![0u8; 1 << 20];
        for _ in 0..300 {
            e.write_all(&zeros).unwrap();
        }
        e.finish().unwrap()
    };
    let file = [gzip(&good("a", "alpha")), bomb, gzip(&good("b", "bravo"))].concat();
    let path = dir.join("bomb.warc.gz");
    std::fs::write(&path, &file).unwrap();
    let mut cmd = bin();
    cmd.arg("extract").arg(&path);
    let (v, _, ok, rss_kib, held_kib) = run_measured(&mut cmd, None, &dir);
    assert!(!ok);
    let got: Vec<(String, bool)> = v
        .iter()
        .map(|x| (id(x), x.get("error").is_some()))
        .collect();
    assert_eq!(
        got,
        [
            (uuid("a"), false),
            (String::new(), true),
            (uuid("b"), false)
        ]
    );
    let err = v[1]["error"].as_str().unwrap();
    assert!(err.contains("gzip member decodes to more than"), "{err}");
    assert!(
        peak_within(rss_kib, held_kib, 300 << 10),
        "{rss_kib} KiB (the test binary held {held_kib} KiB)"
    );
}

#[test]
fn content_encodings_and_many_headers_through_extract() {
    let dir = scratch("encodings");
    // Written by `brotli -q 11` from an article of brotli0 … brotli39, twice.
    let br =
        std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/article.br")).unwrap();
    let zstd = ruzstd::encoding::compress_to_vec(
        article("Zstd report", "zstd").as_bytes(),
        ruzstd::encoding::CompressionLevel::Fastest,
    );
    let mut cookies = String::new();
    for k in 0..1000 {
        cookies.push_str(&format!("Set-Cookie: c{k}=v; Path=/\r\n"));
    }
    let html = "Content-Type: text/html\r\n";
    let records = [
        record(
            "response",
            "00000000-0000-0000-0000-00000000000a",
            "http://br.example/",
            &http(&format!("{html}Content-Encoding: br\r\n"), &br),
        ),
        record(
            "response",
            "00000000-0000-0000-0000-00000000000b",
            "http://zstd.example/",
            &http(&format!("{html}Content-Encoding: zstd\r\n"), &zstd),
        ),
        // Declared gzip, stored decoded.
        record(
            "response",
            "00000000-0000-0000-0000-00000000000c",
            "http://decoded.example/",
            &http(
                &format!("{html}Content-Encoding: gzip\r\n"),
                article("Decoded report", "decoded").as_bytes(),
            ),
        ),
        record(
            "response",
            "00000000-0000-0000-0000-00000000000d",
            "http://cookies.example/",
            &http(
                &format!("{html}{cookies}"),
                article("Cookie report", "cookie").as_bytes(),
            ),
        ),
    ];
    let path = dir.join("enc.warc.gz");
    write_gzip_warc(&path, &records);
    let (out, v) = extract(&[&path]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    let texts: Vec<&str> = v.iter().map(|x| x["text"].as_str().unwrap()).collect();
    assert_eq!(texts.len(), 4);
    for (text, word) in texts.iter().zip(["brotli", "zstd", "decoded", "cookie"]) {
        assert!(text.contains(&format!("{word}0 {word}1")), "{word}: {text}");
        assert!(text.contains(&format!("{word}39")), "{word}: {text}");
    }
}

#[test]
fn a_peak_is_read_against_the_copy_the_child_forked_from() {
    // Worked by hand (KiB): under the bound passes; over it fails unless it is the test
    // binary's copy (316 MiB held, 310 MiB peak: within 316 + 16).
    assert!(peak_within(200 << 10, 50 << 10, 300 << 10));
    assert!(!peak_within(400 << 10, 50 << 10, 300 << 10));
    assert!(peak_within(310 << 10, 316 << 10, 300 << 10));
    assert!(!peak_within(340 << 10, 316 << 10, 300 << 10));
}
