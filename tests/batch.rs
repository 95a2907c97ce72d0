//! Batch input and output of the page commands: folders walked in sorted order, input lists
//! with URLs, `--output-dir` files equal to each page's standard output, `--skip-existing`,
//! the `==> NAME <==` line only for several pages, and the help and `view` refusals that go
//! with them. Each test builds its folders from the bundled `data/examples` pages.

use crate::common;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use flate2::write::GzEncoder;
use flate2::Compression;

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_pagelevel"))
}

fn example(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("data/examples")
        .join(name)
}

fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("batch-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn put(path: &Path, bytes: &[u8]) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, bytes).unwrap();
}

fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut e = GzEncoder::new(Vec::new(), Compression::default());
    e.write_all(bytes).unwrap();
    e.finish().unwrap()
}

fn run(args: &[&str], paths: &[&Path]) -> Output {
    bin().args(args).args(paths).output().unwrap()
}

fn ok(o: &Output) -> String {
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8(o.stdout.clone()).unwrap()
}

fn lines(s: &str) -> Vec<serde_json::Value> {
    s.lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// A folder of the three example pages, nested and in several spellings, with files a walk
/// skips: `news.html`, `b/forum.htm`, `b/a/listing.html.gz`, `b/z.xhtml` (the news page again),
/// `notes.txt` and `b/image.png`.
fn site(name: &str) -> PathBuf {
    let dir = scratch(name).join("site");
    let read = |n: &str| std::fs::read(example(n)).unwrap();
    put(&dir.join("news.html"), &read("news-article.html"));
    put(&dir.join("b/forum.htm"), &read("forum-thread.html"));
    put(
        &dir.join("b/a/listing.html.gz"),
        &gzip(&read("product-listing.html")),
    );
    put(&dir.join("b/z.xhtml"), &read("news-article.html"));
    put(&dir.join("notes.txt"), b"not a page");
    put(&dir.join("b/image.png"), b"\x89PNG\r\n\x1a\n");
    dir
}

/// The walk's order: entries by name, a subfolder's pages where its name sorts.
const WALK: [&str; 4] = [
    "b/a/listing.html.gz",
    "b/forum.htm",
    "b/z.xhtml",
    "news.html",
];

/// A plain WARC file of two HTML responses (the news and forum pages).
fn warc(path: &Path) {
    let mut out = Vec::new();
    for (id, uri, page) in [
        (
            "11111111-aaaa",
            "https://news.example.org/mill",
            "news-article.html",
        ),
        (
            "22222222-bbbb",
            "https://forum.example.org/t/1",
            "forum-thread.html",
        ),
    ] {
        let html = std::fs::read(example(page)).unwrap();
        let mut block = b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n".to_vec();
        block.extend_from_slice(&html);
        out.extend_from_slice(
            format!(
                "WARC/1.1\r\nWARC-Type: response\r\nWARC-Record-ID: <urn:uuid:{id}>\r\n\
                 WARC-Date: 2024-01-01T00:00:00Z\r\nWARC-Target-URI: {uri}\r\n\
                 Content-Type: application/http; msgtype=response\r\nContent-Length: {}\r\n\r\n",
                block.len()
            )
            .as_bytes(),
        );
        out.extend_from_slice(&block);
        out.extend_from_slice(b"\r\n\r\n");
    }
    put(path, &out);
}

#[test]
fn a_folder_is_walked_recursively_in_sorted_order() {
    // Runs the pipeline or the binary over several pages: not beside a timed test.
    let _machine = common::heavy();
    let dir = site("walk");
    for cmd in ["extract", "segment"] {
        let v = lines(&ok(&run(&[cmd], &[&dir])));
        let paths: Vec<String> = v
            .iter()
            .map(|l| l["path"].as_str().unwrap().into())
            .collect();
        let want: Vec<String> = WALK
            .iter()
            .map(|n| dir.join(n).to_string_lossy().into_owned())
            .collect();
        assert_eq!(paths, want, "{cmd}");
        assert!(v.iter().all(|l| l.get("error").is_none()), "{cmd}: {v:?}");
    }
    // The gzipped listing is read like the plain one.
    let v = lines(&ok(&run(&["extract"], &[&dir])));
    assert!(v[0]["text"].as_str().unwrap().contains("Bench p"));
    // `features` walks too: its rows name each page, in the same order.
    let out = ok(&run(&["features"], &[&dir]));
    let mut names: Vec<String> = Vec::new();
    for l in lines(&out) {
        let name = l["page"]
            .as_str()
            .or(l["path"].as_str())
            .unwrap_or("")
            .to_string();
        if names.last() != Some(&name) {
            names.push(name);
        }
    }
    assert_eq!(names.len(), 4, "{names:?}");
}

#[test]
fn output_is_the_same_for_any_thread_count() {
    // Runs the pipeline or the binary over several pages: not beside a timed test.
    let _machine = common::heavy();
    let dir = site("threads");
    let one = ok(&run(&["-j", "1", "extract", "--format", "text"], &[&dir]));
    let two = ok(&run(&["extract", "-j", "2", "--format", "text"], &[&dir]));
    assert_eq!(one, two);
    let out1 = dir.parent().unwrap().join("out1");
    let out2 = dir.parent().unwrap().join("out2");
    ok(&run(
        &["extract", "-j", "1", "--output-dir"],
        &[&out1, &dir],
    ));
    ok(&run(
        &["extract", "-j", "2", "--output-dir"],
        &[&out2, &dir],
    ));
    for n in WALK {
        let f = Path::new(n).with_extension("").with_extension("json");
        assert_eq!(
            std::fs::read(out1.join(&f)).unwrap(),
            std::fs::read(out2.join(&f)).unwrap(),
            "{n}"
        );
    }
}

#[test]
fn one_page_has_no_name_line_and_several_have_one_each() {
    let news = example("news-article.html");
    let forum = example("forum-thread.html");
    for format in ["text", "markdown", "html"] {
        let one = ok(&run(&["extract", "--format", format], &[&news]));
        assert!(!one.contains("==>"), "{format}: {one}");
        assert!(one.contains("tidal mill"), "{format}");
        let two = ok(&run(&["extract", "--format", format], &[&news, &forum]));
        let heads: Vec<&str> = two.lines().filter(|l| l.starts_with("==> ")).collect();
        assert_eq!(
            heads,
            [
                format!("==> {} <==", news.display()),
                format!("==> {} <==", forum.display())
            ],
            "{format}"
        );
        // The first page's part is the one page's output.
        let first = two
            .split("==> ")
            .nth(1)
            .unwrap()
            .split_once('\n')
            .unwrap()
            .1;
        assert_eq!(first, one, "{format}");
    }
}

#[test]
fn an_input_list_takes_paths_urls_folders_and_reports_bad_lines() {
    // Runs the pipeline or the binary over several pages: not beside a timed test.
    let _machine = common::heavy();
    let dir = site("list");
    let news = dir.join("news.html");
    let forum = dir.join("b/forum.htm");
    let list = dir.parent().unwrap().join("list.txt");
    let url = "https://news.example.org/2026/mill";
    std::fs::write(
        &list,
        format!(
            "{}\t{url}\r\n\n{}\n\tno-path\n{}\n",
            news.display(),
            forum.display(),
            dir.join("b/a").display()
        ),
    )
    .unwrap();
    let o = run(&["extract", "--with-metadata", "--input-list"], &[&list]);
    assert_eq!(o.status.code(), Some(1), "a bad line fails the run");
    let v = lines(&String::from_utf8(o.stdout).unwrap());
    assert_eq!(v.len(), 4, "{v:?}");
    assert_eq!(v[0]["path"], news.to_string_lossy().as_ref());
    // The list's URL is the page's own: its metadata says so, and the output is that of --url.
    assert_eq!(v[0]["url"], url);
    let alone = lines(&ok(&run(
        &["extract", "--with-metadata", "--url", url],
        &[&news],
    )));
    assert_eq!(v[0], alone[0]);
    assert_eq!(v[1]["path"], forum.to_string_lossy().as_ref());
    assert!(v[1].get("url").is_none(), "no URL given for it: {}", v[1]);
    // The bad line is reported under the list's name with its line number, and the run goes on.
    assert_eq!(v[2]["path"], list.to_string_lossy().as_ref());
    let e = v[2]["error"].as_str().unwrap();
    assert!(
        e.starts_with("line 4: expected PATH or PATH<TAB>URL"),
        "{e}"
    );
    // A folder in the list is walked.
    assert_eq!(
        v[3]["path"],
        dir.join("b/a/listing.html.gz").to_string_lossy().as_ref()
    );
    // A list that cannot be read stops the run with its name.
    let o = run(&["extract", "--input-list"], &[&dir.join("missing.txt")]);
    assert_eq!(o.status.code(), Some(2));
    let e = String::from_utf8_lossy(&o.stderr);
    assert!(
        e.contains("--input-list") && e.contains("missing.txt: cannot read"),
        "{e}"
    );
}

#[test]
fn output_dir_files_hold_each_pages_standard_output() {
    // Runs the pipeline or the binary over several pages: not beside a timed test.
    let _machine = common::heavy();
    let dir = site("outdir");
    for (format, ext) in [
        ("jsonl", "json"),
        ("text", "txt"),
        ("markdown", "md"),
        ("html", "html"),
    ] {
        let out = dir.parent().unwrap().join(format!("out-{format}"));
        let o = run(
            &["extract", "--format", format, "--output-dir"],
            &[&out, &dir],
        );
        assert!(ok(&o).is_empty(), "nothing on standard output");
        let stderr = String::from_utf8_lossy(&o.stderr);
        assert!(
            stderr.contains("4 pages in") && stderr.contains("4 written"),
            "{stderr}"
        );
        let mut files: Vec<String> = Vec::new();
        let mut stack = vec![out.clone()];
        while let Some(d) = stack.pop() {
            for e in std::fs::read_dir(d).unwrap() {
                let p = e.unwrap().path();
                if p.is_dir() {
                    stack.push(p);
                } else {
                    files.push(p.strip_prefix(&out).unwrap().to_string_lossy().into_owned());
                }
            }
        }
        files.sort();
        let want: Vec<String> = {
            let mut w: Vec<String> = WALK
                .iter()
                .map(|n| {
                    let n = n.strip_suffix(".gz").unwrap_or(n);
                    let stem = &n[..n.rfind('.').unwrap()];
                    format!("{stem}.{ext}")
                })
                .collect();
            w.sort();
            w
        };
        assert_eq!(
            files, want,
            "{format}: no temporary files left, one file per page"
        );
        for n in WALK {
            let page = dir.join(n);
            let alone = ok(&run(&["extract", "--format", format], &[&page]));
            let n = n.strip_suffix(".gz").unwrap_or(n);
            let file = out.join(format!("{}.{ext}", &n[..n.rfind('.').unwrap()]));
            assert_eq!(
                std::fs::read_to_string(&file).unwrap(),
                alone,
                "{format} {n}"
            );
        }
    }
    // segment and features write .json and .jsonl files.
    let out = dir.parent().unwrap().join("out-segment");
    ok(&run(&["segment", "--output-dir"], &[&out, &dir]));
    let seg = std::fs::read_to_string(out.join("news.json")).unwrap();
    assert_eq!(seg, ok(&run(&["segment"], &[&dir.join("news.html")])));
    let out = dir.parent().unwrap().join("out-features");
    ok(&run(&["features", "--output-dir"], &[&out, &dir]));
    assert!(out.join("b/forum.jsonl").is_file());
}

#[test]
fn skip_existing_leaves_existing_files_alone_and_writes_the_rest() {
    // Runs the pipeline or the binary over several pages: not beside a timed test.
    let _machine = common::heavy();
    let dir = site("skip");
    let out = dir.parent().unwrap().join("out");
    put(&out.join("b/forum.txt"), b"kept from an earlier run\n");
    let o = run(
        &[
            "extract",
            "--format",
            "text",
            "--skip-existing",
            "--output-dir",
        ],
        &[&out, &dir],
    );
    ok(&o);
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(stderr.contains("3 written, 1 skipped"), "{stderr}");
    assert_eq!(
        std::fs::read_to_string(out.join("b/forum.txt")).unwrap(),
        "kept from an earlier run\n"
    );
    assert!(std::fs::read_to_string(out.join("news.txt"))
        .unwrap()
        .contains("tidal mill"));
    // Without it, the file is written again.
    ok(&run(
        &["extract", "--format", "text", "--output-dir"],
        &[&out, &dir],
    ));
    assert!(std::fs::read_to_string(out.join("b/forum.txt"))
        .unwrap()
        .contains("lovely"));
}

#[test]
fn warc_records_are_named_by_record_id_in_a_folder_named_after_the_warc() {
    let dir = scratch("warc");
    let crawl = dir.join("in/crawl.warc");
    warc(&crawl);
    let out = dir.join("out");
    ok(&run(
        &["extract", "--format", "text", "--output-dir"],
        &[&out, &dir.join("in")],
    ));
    let news = std::fs::read_to_string(out.join("crawl/11111111-aaaa.txt")).unwrap();
    assert!(news.contains("tidal mill"), "{news}");
    assert!(out.join("crawl/22222222-bbbb.txt").is_file());
    // On standard output the records of one WARC are several pages: each is named.
    let text = ok(&run(&["extract", "--format", "text"], &[&crawl]));
    assert_eq!(text.matches("==> ").count(), 2, "{text}");
}

#[test]
fn missing_paths_and_empty_folders_fail_alone_and_a_file_is_no_output_dir() {
    let dir = site("errors");
    let empty = dir.parent().unwrap().join("empty");
    std::fs::create_dir_all(&empty).unwrap();
    let missing = dir.parent().unwrap().join("no-such-folder");
    let o = run(&["extract"], &[&missing, &empty, &dir.join("news.html")]);
    assert_eq!(o.status.code(), Some(1));
    let v = lines(&String::from_utf8(o.stdout).unwrap());
    assert_eq!(v.len(), 3);
    assert!(
        v[0]["error"].as_str().unwrap().contains("cannot read"),
        "{}",
        v[0]
    );
    assert!(
        v[1]["error"]
            .as_str()
            .unwrap()
            .starts_with("no pages in the folder"),
        "{}",
        v[1]
    );
    assert!(v[2].get("error").is_none());
    // With an output folder, failures are counted by kind in the summary.
    let out = dir.parent().unwrap().join("out");
    let o = run(&["extract", "--output-dir"], &[&out, &missing, &dir]);
    assert_eq!(o.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(
        stderr.contains("5 pages in") && stderr.contains("4 written, 1 failed (1 cannot read)"),
        "{stderr}"
    );
    // An output folder that is a file stops the run before any page.
    let file = dir.join("news.html");
    let o = run(&["extract", "--output-dir"], &[&file, &dir]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("is not a folder"));
    assert!(o.stdout.is_empty());
}

#[test]
fn help_has_no_rustdoc_links_and_puts_model_options_under_a_heading() {
    let commands = [
        "",
        "features",
        "segment",
        "extract",
        "eval",
        "train",
        "label",
        "bench",
        "sitelevel",
        "dedup",
        "view",
    ];
    for cmd in commands {
        for flag in ["-h", "--help"] {
            let o = bin()
                .args([cmd, flag].iter().filter(|a| !a.is_empty()))
                .output()
                .unwrap();
            let help = ok(&o);
            assert!(
                !help.contains("[`"),
                "{cmd} {flag}: rustdoc link in\n{help}"
            );
        }
    }
    for cmd in ["extract", "segment", "dedup"] {
        let long = ok(&bin().args([cmd, "--help"]).output().unwrap());
        let short = ok(&bin().args([cmd, "-h"]).output().unwrap());
        let heading = long.find("Model and decoding:").expect("the heading");
        assert!(long[heading..].contains("--switch-penalty"), "{cmd}");
        assert!(!short.contains("--switch-penalty"), "{cmd}: -h is short");
        assert!(short.contains("--variant"), "{cmd}");
        assert!(short.contains("-j, --jobs"), "{cmd}");
    }
    let view = ok(&bin().args(["view", "--help"]).output().unwrap());
    assert!(
        !view.contains("--jobs"),
        "view takes one page: no -j\n{view}"
    );
    let o = bin()
        .args(["view", "-j", "2"])
        .arg(example("news-article.html"))
        .args(["-o", "/dev/null"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn view_refuses_a_warc_file() {
    let dir = scratch("view-warc");
    // By its name, and by its first bytes under a page's name.
    let named = dir.join("crawl.warc.gz");
    std::fs::write(&named, gzip(b"anything")).unwrap();
    let inside = dir.join("crawl.html");
    warc(&inside);
    for page in [&named, &inside] {
        let out = dir.join("view.html");
        let o = bin()
            .arg("view")
            .arg(page)
            .arg("-o")
            .arg(&out)
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(2), "{}", page.display());
        let e = String::from_utf8_lossy(&o.stderr);
        assert!(
            e.contains("a WARC file") && e.contains("one HTML page"),
            "{e}"
        );
        assert!(!out.exists());
    }
}
