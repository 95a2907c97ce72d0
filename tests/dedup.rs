//! Near-duplicate detection by shingling: hand-worked sketches, the pair index against brute
//! force, the same article in two templates, and the `pagelevel dedup` command.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use pagelevel::dedup::{
    self, duplicate_pairs, is_duplicate, matches, shingle_hash, shingles, sketch, Pair, Sketch,
    MIN_MATCHES, SKETCH_SIZE,
};
use pagelevel::dom::visibility;
use pagelevel::output::text::render_text;
use pagelevel::pipeline::{analyze, Options};
use pagelevel::Page;

/// A deterministic "text" of `n` words drawn from a 2,000-word vocabulary (seeded LCG), so
/// that different seeds give unrelated texts with realistic repeats.
fn words(seed: u64, n: usize) -> Vec<String> {
    let mut s = seed
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    (0..n)
        .map(|_| {
            s = s
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            format!("w{}", (s >> 33) % 2000)
        })
        .collect()
}

fn text(seed: u64, n: usize) -> String {
    words(seed, n).join(" ")
}

#[test]
fn six_words_are_one_shingle() {
    let t = "The quick brown Fox, jumps over!";
    assert_eq!(shingles(t).len(), 1);
    let s = sketch(t);
    assert_eq!(
        s.hashes(),
        [shingle_hash(&[
            "the", "quick", "brown", "fox", "jumps", "over"
        ])]
    );
    // Seven words: two shingles.
    assert_eq!(shingles("a b c d e f g").len(), 2);
    // Repeated shingles count once: "a a a a a a a" has one distinct shingle.
    assert_eq!(shingles("a a a a a a a a").len(), 1);
}

#[test]
fn short_and_empty_texts() {
    // Fewer than 6 words: one shingle of all of them; empty: empty sketch.
    assert_eq!(sketch("one two three").len(), 1);
    assert!(sketch("").is_empty());
    assert!(sketch(" — , ").is_empty());
    // Identical short texts share their one hash but are not duplicates (need 4).
    let a = sketch("one two three");
    assert_eq!(matches(&a, &a), 1);
    assert!(!is_duplicate(&a, &a));
    // Two empty extractions are not duplicates either.
    assert!(!is_duplicate(&Sketch::default(), &Sketch::default()));
}

#[test]
fn sketch_is_the_smallest_distinct_hashes() {
    let t = text(1, 300);
    let all = shingles(&t);
    assert!(all.len() > SKETCH_SIZE);
    assert_eq!(sketch(&t).hashes(), &all[..SKETCH_SIZE]);
    // Case and punctuation do not matter.
    let shouted = t.to_uppercase().replace(' ', ", ");
    assert_eq!(sketch(&shouted), sketch(&t));
}

#[test]
fn one_word_in_a_hundred_is_a_duplicate() {
    for seed in 0..20 {
        let mut w = words(seed, 100);
        let a = w.join(" ");
        w[50] = "changed".into();
        let b = w.join(" ");
        // 6 of the 95 shingles change: resemblance 89/101 ≈ 0.88.
        let r = dedup::resemblance(&shingles(&a), &shingles(&b)).unwrap();
        assert!(r > 0.85, "seed {seed}: r = {r}");
        let m = matches(&sketch(&a), &sketch(&b));
        assert!(m >= MIN_MATCHES, "seed {seed}: {m} matches");
        assert!(is_duplicate(&sketch(&a), &sketch(&b)));
    }
}

#[test]
fn unrelated_texts_are_not_duplicates() {
    for seed in 0..20 {
        let (a, b) = (sketch(&text(seed, 400)), sketch(&text(seed + 1000, 400)));
        assert_eq!(matches(&a, &b), 0, "seed {seed}");
        assert!(!is_duplicate(&a, &b));
    }
}

/// Brute force over all pairs, for checking the index.
fn brute(sketches: &[Sketch]) -> Vec<Pair> {
    let mut out = Vec::new();
    for a in 0..sketches.len() {
        for b in a + 1..sketches.len() {
            let m = matches(&sketches[a], &sketches[b]);
            if m >= MIN_MATCHES {
                out.push(Pair { a, b, matches: m });
            }
        }
    }
    out
}

#[test]
fn pair_index_equals_brute_force() {
    // Families of near-copies: page i is a copy of base i % 7 with (i / 7) words replaced.
    let sketches: Vec<Sketch> = (0..70u64)
        .map(|i| {
            let mut w = words(i % 7, 200);
            for k in 0..(i / 7) as usize * 2 {
                w[(k * 37) % 200] = format!("x{i}_{k}");
            }
            sketch(&w.join(" "))
        })
        .collect();
    let got = duplicate_pairs(&sketches);
    assert_eq!(got, brute(&sketches));
    assert!(got.len() > 40, "{} pairs", got.len());
    assert!(got.windows(2).all(|p| (p[0].a, p[0].b) < (p[1].a, p[1].b)));
}

/// One article (about 300 words of paragraphs) inside a page whose template has `links` link
/// items in a navigation bar, a sidebar and a footer, all named after `site`.
fn page(site: &str, links: usize) -> String {
    let article: String = (0..6)
        .map(|p| format!("<p>{}.</p>\n", text(500 + p, 50)))
        .collect();
    let list = |name: &str| -> String {
        (0..links)
            .map(|k| {
                format!("<li><a href=\"/{site}/{name}/{k}\">{site} {name} section {k}</a></li>")
            })
            .collect()
    };
    format!(
        "<!doctype html><html><head><title>{site}</title></head><body>\
         <div id=header><a href=\"/\">{site} home</a><ul class=nav>{}</ul></div>\
         <div id=main><h1>The story of the week</h1>\n{article}</div>\
         <div id=sidebar><h3>More from {site}</h3><ul>{}</ul></div>\
         <div id=footer><ul>{}</ul><p>Copyright {site} media group, all rights reserved.</p></div>\
         </body></html>",
        list("nav"),
        list("more"),
        list("legal"),
    )
}

fn parse(html: &str) -> Page {
    Page::from_bytes(html.as_bytes(), &pagelevel::PageOptions::default()).expect("parse")
}

fn full_text(p: &Page) -> String {
    render_text(&p.dom, &visibility(&p.dom), &vec![true; p.dom.len()])
}

fn main_text(p: Page) -> String {
    analyze(p, pagelevel::model::Model::embedded(), &Options::default()).main_text()
}

#[test]
fn same_article_in_two_templates() {
    // Small templates (5 links per list): the article dominates, so both modes see duplicates.
    let (a, b) = (parse(&page("alpha", 5)), parse(&page("beta", 5)));
    let full = matches(&sketch(&full_text(&a)), &sketch(&full_text(&b)));
    let main = matches(&sketch(&main_text(a)), &sketch(&main_text(b)));
    eprintln!("small templates: full {full}/8, pagelevel {main}/8");
    assert!(full >= MIN_MATCHES, "full {full}");
    assert!(main >= MIN_MATCHES, "pagelevel {main}");

    // Heavy templates (60 links per list, ~900 template words against ~300 article words):
    // the full text is mostly template and its sketch mostly template shingles, so the full
    // mode misses the duplicate. Measured: the embedded model keeps these synthetic link lists
    // (plain vertical <ul>s with no styling, unlike the real pages it was trained on), so the
    // PageLevel text misses it too here; it is asserted to be no worse than the full text.
    let (a, b) = (parse(&page("alpha", 60)), parse(&page("beta", 60)));
    let full = matches(&sketch(&full_text(&a)), &sketch(&full_text(&b)));
    let main = matches(&sketch(&main_text(a)), &sketch(&main_text(b)));
    eprintln!("heavy templates: full {full}/8, pagelevel {main}/8");
    assert!(full < MIN_MATCHES, "full {full}");
    assert!(main >= full, "pagelevel {main} < full {full}");
}

/// A temporary folder removed on drop.
struct TempDir(PathBuf);

impl TempDir {
    fn new(name: &str) -> TempDir {
        let d = std::env::temp_dir().join(format!("pagelevel-dedup-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        TempDir(d)
    }
    fn write(&self, name: &str, body: &[u8]) -> PathBuf {
        let p = self.0.join(name);
        std::fs::write(&p, body).unwrap();
        p
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn pagelevel(args: &[&str], files: &[&Path]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_pagelevel"))
        .args(args)
        .args(files)
        .output()
        .expect("run pagelevel")
}

fn lines(o: &Output) -> Vec<serde_json::Value> {
    String::from_utf8_lossy(&o.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("JSON line"))
        .collect()
}

/// Pages: 0 and 2 the same article in two templates, 1 another article, 3 the first article
/// with one word changed.
fn fixture(d: &TempDir) -> Vec<PathBuf> {
    let other = page("gamma", 5).replace("w", "v");
    let mut edited = page("delta", 5);
    let k = edited.find("<p>").unwrap() + 3;
    edited.insert_str(k, "Edited ");
    vec![
        d.write("a.html", page("alpha", 5).as_bytes()),
        d.write("b.html", other.as_bytes()),
        d.write("c.html", page("beta", 5).as_bytes()),
        d.write("d.html", edited.as_bytes()),
    ]
}

#[test]
fn cli_prints_duplicate_pairs() {
    let d = TempDir::new("pairs");
    let files = fixture(&d);
    let refs: Vec<&Path> = files.iter().map(PathBuf::as_path).collect();
    for mode in ["full", "pagelevel"] {
        let o = pagelevel(&["dedup", "--mode", mode], &refs);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let pairs: Vec<(String, String)> = lines(&o)
            .iter()
            .map(|v| {
                assert!(v["matches"].as_u64().unwrap() >= MIN_MATCHES as u64);
                let name = |k: &str| {
                    Path::new(v[k].as_str().unwrap())
                        .file_name()
                        .unwrap()
                        .to_string_lossy()
                        .into_owned()
                };
                (name("a"), name("b"))
            })
            .collect();
        let want = [
            ("a.html", "c.html"),
            ("a.html", "d.html"),
            ("c.html", "d.html"),
        ];
        let want: Vec<(String, String)> = want
            .iter()
            .map(|(a, b)| (a.to_string(), b.to_string()))
            .collect();
        assert_eq!(pairs, want, "mode {mode}");
    }
}

#[test]
fn cli_sketches_one_line_per_page() {
    let d = TempDir::new("sketches");
    let files = fixture(&d);
    let refs: Vec<&Path> = files.iter().map(PathBuf::as_path).collect();
    let o = pagelevel(&["dedup", "--mode", "full", "--sketches"], &refs);
    assert!(o.status.success());
    let v = lines(&o);
    assert_eq!(v.len(), 4);
    for (line, f) in v.iter().zip(&files) {
        assert_eq!(line["path"], f.to_string_lossy().as_ref());
        assert_eq!(line["sketch"].as_array().unwrap().len(), SKETCH_SIZE);
        assert!(line["words"].as_u64().unwrap() > 300);
    }
}

#[test]
fn cli_output_is_identical_for_any_thread_count() {
    let d = TempDir::new("threads");
    let mut files = Vec::new();
    for i in 0..24 {
        let html =
            page(&format!("site{}", i % 5), 3 + i % 4).replace("w1", &format!("w1x{}", i % 3));
        files.push(d.write(&format!("p{i:02}.html"), html.as_bytes()));
    }
    let refs: Vec<&Path> = files.iter().map(PathBuf::as_path).collect();
    let one = pagelevel(&["-j", "1", "dedup", "--mode", "pagelevel"], &refs);
    let two = pagelevel(&["-j", "2", "dedup", "--mode", "pagelevel"], &refs);
    let four = pagelevel(&["-j", "4", "dedup", "--mode", "pagelevel"], &refs);
    assert!(one.status.success());
    assert!(!one.stdout.is_empty());
    assert_eq!(one.stdout, two.stdout);
    assert_eq!(one.stdout, four.stdout);
}

#[test]
fn cli_bad_page_is_reported_and_the_run_goes_on() {
    let d = TempDir::new("bad");
    let mut files = fixture(&d);
    files.insert(1, d.write("broken.html.gz", b"\x1f\x8b not gzip at all"));
    files.push(d.0.join("missing.html"));
    let refs: Vec<&Path> = files.iter().map(PathBuf::as_path).collect();
    let o = pagelevel(&["dedup", "--mode", "full"], &refs);
    assert_eq!(
        o.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let v = lines(&o);
    let errors: Vec<&serde_json::Value> = v.iter().filter(|l| l.get("error").is_some()).collect();
    assert_eq!(errors.len(), 2);
    assert!(errors[0]["path"]
        .as_str()
        .unwrap()
        .ends_with("broken.html.gz"));
    assert!(errors[1]["path"]
        .as_str()
        .unwrap()
        .ends_with("missing.html"));
    // The good pages still give their three pairs.
    assert_eq!(v.iter().filter(|l| l.get("matches").is_some()).count(), 3);
    assert!(String::from_utf8_lossy(&o.stderr).contains("2 input(s) failed"));
}

#[test]
fn cli_sitelevel_needs_sites() {
    let d = TempDir::new("sitelevel");
    let files = fixture(&d);
    let refs: Vec<&Path> = files.iter().map(PathBuf::as_path).collect();
    let o = pagelevel(&["dedup", "--mode", "sitelevel"], &refs);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("--manifest") && err.contains("--site-dir"),
        "{err}"
    );

    // With --site-dir: one site of 6 pages (4 fixture pages + 2 more), SiteLevel labels it.
    let site = d.0.join("sites/one");
    std::fs::create_dir_all(&site).unwrap();
    for (i, f) in files.iter().enumerate() {
        std::fs::copy(f, site.join(format!("{i}.html"))).unwrap();
    }
    for i in 4..6 {
        std::fs::write(
            site.join(format!("{i}.html")),
            page("alpha", 5).replace("w3", &format!("z{i}")),
        )
        .unwrap();
    }
    let o = pagelevel(
        &["dedup", "--mode", "sitelevel", "--site-dir"],
        &[&d.0.join("sites")],
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(!lines(&o).is_empty());
}

/// `latimes-2017-trump-4` and `-5` share a canonical URL: both HTML files hold the same
/// article (House Freedom Caucus), but the gold text of `-4` is another article (Assange). So
/// the pages are duplicates although their gold texts are not; the evaluation drops pages whose
/// gold text is not on the page for that reason (`docs/dedup.md`).
#[test]
fn latimes_same_canonical_url_is_a_duplicate_with_a_wrong_gold() {
    let Some(data) = common::data_or_skip("latimes_same_canonical_url") else {
        return;
    };
    let m = common::manifest(&data, "sites");
    let text = |id: &str| {
        let e = m.entries.iter().find(|e| e.id == id).expect(id);
        let p = Page::from_path(
            &m.html_path(e),
            &pagelevel::PageOptions {
                url: e.url.as_deref(),
                ..Default::default()
            },
        )
        .unwrap();
        let gold = std::fs::read_to_string(m.gold_path(e).unwrap()).unwrap();
        (full_text(&p), main_text(p), gold)
    };
    let (fa, ma, ga) = text("latimes-2017-trump-4");
    let (fb, mb, gb) = text("latimes-2017-trump-5");
    let r = dedup::resemblance(&shingles(&ga), &shingles(&gb)).unwrap();
    let (full, main) = (
        matches(&sketch(&fa), &sketch(&fb)),
        matches(&sketch(&ma), &sketch(&mb)),
    );
    eprintln!("gold r = {r:.2}, full {full}/8, pagelevel {main}/8");
    assert!(r < dedup::TRUTH_DISTINCT);
    assert!(dedup::coverage(&shingles(&ga), &shingles(&fa)) < dedup::TRUTH_MIN_COVERAGE);
    assert!(dedup::coverage(&shingles(&gb), &shingles(&fb)) >= dedup::TRUTH_MIN_COVERAGE);
    assert!(full >= MIN_MATCHES);
    assert!(main >= MIN_MATCHES);
}

#[test]
fn cli_input_list_is_read_as_extract_reads_it() {
    // Runs the binary over several pages: not beside a timed test.
    let _machine = common::heavy();
    let d = TempDir::new("list");
    let files = fixture(&d);
    let refs: Vec<&Path> = files.iter().map(PathBuf::as_path).collect();
    let listed: String = files.iter().map(|f| format!("{}\n", f.display())).collect();
    let list = d.write("list.txt", listed.as_bytes());
    // The same pages given by path and in a list: the same output, pairs and clusters.
    for report in [&[][..], &["--clusters"][..]] {
        let args = [&["dedup", "--mode", "full"][..], report].concat();
        let by_path = pagelevel(&args, &refs);
        let by_list = pagelevel(&[&args[..], &["--input-list"]].concat(), &[&list]);
        assert!(by_path.status.success() && by_list.status.success());
        assert!(!by_path.stdout.is_empty());
        assert_eq!(by_list.stdout, by_path.stdout, "{report:?}");
    }
    // A list's URLs are the pages' own: every page has one, so the pages have sites.
    let with_urls: String = files
        .iter()
        .enumerate()
        .map(|(k, f)| format!("{}\thttps://news.example.com/{k}\n", f.display()))
        .collect();
    let urls = d.write("urls.txt", with_urls.as_bytes());
    let o = pagelevel(&["dedup", "--mode", "sitelevel", "--input-list"], &[&urls]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    // A missing file and a bad line are reported each as its input's failure; the run goes on.
    let bad = format!(
        "{}\n\tno-path\n{listed}",
        d.0.join("missing.html").display()
    );
    let bad = d.write("bad.txt", bad.as_bytes());
    let o = pagelevel(&["dedup", "--mode", "full", "--input-list"], &[&bad]);
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("bad.txt: line 2: expected PATH or PATH<TAB>URL"),
        "{err}"
    );
    let v = lines(&o);
    let errors: Vec<&serde_json::Value> = v.iter().filter(|l| l.get("error").is_some()).collect();
    assert_eq!(errors.len(), 1, "{v:?}");
    assert!(errors[0]["path"]
        .as_str()
        .unwrap()
        .ends_with("missing.html"));
    assert_eq!(v.iter().filter(|l| l.get("matches").is_some()).count(), 3);
}
