//! The binary's commands: help, output contracts, per-input errors and determinism.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Command;

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_pagelevel"))
}

fn examples() -> Vec<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("data/examples");
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "html"))
        .collect();
    v.sort();
    v
}

/// Runs `pagelevel ARGS --data DATA --out OUT` (ARGS holds `train` and its options).
fn run_train(args: &[&str], data: &Path, out: &Path) -> std::process::Output {
    bin()
        .args(args)
        .arg("--data")
        .arg(data)
        .arg("--out")
        .arg(out)
        .output()
        .unwrap()
}

/// As [`run_train`], asserting success; returns the model file's text.
fn train_model(args: &[&str], data: &Path, out: &Path) -> String {
    let o = run_train(args, data, out);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    std::fs::read_to_string(out).unwrap()
}

fn lines(out: &[u8]) -> Vec<serde_json::Value> {
    String::from_utf8_lossy(out)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn every_command_has_help() {
    for cmd in [
        "features",
        "segment",
        "extract",
        "eval",
        "train",
        "sitelevel",
        "dedup",
        "view",
        "bench",
        "label",
    ] {
        let out = bin().args([cmd, "--help"]).output().unwrap();
        assert!(out.status.success(), "{cmd} --help failed");
        assert!(
            String::from_utf8_lossy(&out.stdout).contains("Usage"),
            "{cmd}"
        );
    }
}

#[test]
fn extract_contract_on_the_example_pages() {
    let pages = examples();
    assert_eq!(pages.len(), 3);
    let out = bin().arg("extract").args(&pages).output().unwrap();
    assert!(out.status.success());
    let v = lines(&out.stdout);
    assert_eq!(v.len(), 3);
    for (line, page) in v.iter().zip(&pages) {
        assert_eq!(line["path"], page.to_string_lossy().as_ref());
        assert!(line.get("error").is_none());
    }
    let news = v
        .iter()
        .find(|l| l["path"].as_str().unwrap().contains("news"))
        .unwrap();
    let text = news["text"].as_str().unwrap();
    // The article's own sentences are kept, one block per line.
    assert!(
        text.contains("the tidal mill that last turned its wheel in 1824"),
        "{text}"
    );
    assert!(text.lines().count() >= 5, "{text}");
    // The windows-1252 forum page decodes: its en dash and apostrophes survive.
    let forum = v
        .iter()
        .find(|l| l["path"].as_str().unwrap().contains("forum"))
        .unwrap();
    assert!(forum["text"].as_str().unwrap().contains("lovely"));
}

/// The bundled example pages keep what a reader came for: the title, byline and section heads
/// of the article, every post of the thread with its author, and every product's name and price
/// on the listing; and they lose the related links, filters and footers around them.
#[test]
fn the_bundled_examples_keep_titles_item_names_and_prices() {
    let pages = examples();
    let out = bin().arg("extract").args(&pages).output().unwrap();
    assert!(out.status.success());
    let v = lines(&out.stdout);
    let text_of = |name: &str| -> &str {
        let line = v
            .iter()
            .find(|l| l["path"].as_str().unwrap().contains(name));
        line.unwrap()["text"].as_str().unwrap()
    };
    // The expectations live beside the pages, so that bench/stability.py reads the same ones.
    let expected: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(
            PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("data/examples/expected.json"),
        )
        .unwrap(),
    )
    .unwrap();
    let cases = expected["pages"].as_object().unwrap();
    assert_eq!(cases.len(), pages.len(), "one entry per bundled page");
    fn strings(v: &serde_json::Value) -> Vec<&str> {
        v.as_array()
            .unwrap()
            .iter()
            .map(|s| s.as_str().unwrap())
            .collect()
    }
    for (name, case) in cases {
        let text = text_of(name);
        let (kept, dropped) = (strings(&case["kept"]), strings(&case["dropped"]));
        assert!(!kept.is_empty() && !dropped.is_empty());
        for k in kept {
            assert!(text.contains(k), "{name} lost {k:?}:\n{text}");
        }
        for d in dropped {
            assert!(!text.contains(d), "{name} kept {d:?}:\n{text}");
        }
    }
}

#[test]
fn a_failing_page_is_reported_and_the_batch_goes_on() {
    let pages = examples();
    let out = bin()
        .arg("extract")
        .arg("no-such-page.html")
        .arg(&pages[0])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let v = lines(&out.stdout);
    assert_eq!(v.len(), 2);
    // The line's path names the page; its error does not repeat it.
    assert_eq!(v[0]["path"], "no-such-page.html");
    assert!(v[0]["error"].as_str().unwrap().starts_with("cannot read"));
    assert!(!v[1]["text"].as_str().unwrap().is_empty());
}

/// A model file that is missing or is not a model stops the run with its path in the message.
#[test]
fn a_bad_model_file_is_named_in_the_error() {
    let page = &examples()[0];
    let bad = std::env::temp_dir().join(format!("pagelevel-bad-model-{}.json", std::process::id()));
    std::fs::write(&bad, "{}").unwrap();
    for (model, says) in [
        ("no-such-model.json", "cannot read"),
        (bad.to_str().unwrap(), "format"),
    ] {
        let out = bin()
            .args(["extract", "--model", model])
            .arg(page)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2));
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(model) && err.contains(says), "{err}");
        assert!(out.stdout.is_empty());
    }
    std::fs::remove_file(&bad).ok();
}

#[test]
fn dash_reads_one_page_from_stdin_plain_or_gzipped() {
    use std::io::Write;
    let page = &examples()[0];
    let bytes = std::fs::read(page).unwrap();
    let from_file = lines(&bin().arg("extract").arg(page).output().unwrap().stdout);
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    gz.write_all(&bytes).unwrap();
    for input in [bytes.clone(), gz.finish().unwrap()] {
        let mut child = bin()
            .args(["extract", "-"])
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        child.stdin.take().unwrap().write_all(&input).unwrap();
        let out = child.wait_with_output().unwrap();
        assert!(out.status.success());
        let v = lines(&out.stdout);
        assert_eq!(v.len(), 1);
        assert_eq!(v[0]["path"], "-");
        assert_eq!(v[0]["text"], from_file[0]["text"]);
    }
    // Standard input can be read once only.
    let out = bin().args(["extract", "-", "-"]).output().unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("standard input"));
}

#[test]
fn a_page_over_a_limit_fails_alone() {
    // Timed: the example pages must finish within a 1 s limit.
    let _machine = common::timed();
    let dir = std::env::temp_dir().join(format!("pagelevel-limits-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let write = |name: &str, html: String| {
        let p = dir.join(name);
        std::fs::write(&p, html).unwrap();
        p
    };
    let big = write("big.html", "<p>".to_string() + &"word ".repeat(400_000));
    let many = write("many.html", "<p>x</p>".repeat(2_000));
    // Nested divs cost html5ever O(depth) each (it walks its whole stack of open elements
    // looking for a <p>): hours, unless stopped. The time-limit runs pick html5ever.
    let deep = write("deep.html", "<div>".repeat(200_000));
    let ex = examples();
    // The size limits, with no time limit: what stops a page does not depend on the machine.
    // The time limit, alone (the deep page is under the default size limits).
    let runs: [(&[&PathBuf], &[&str], &[&str]); 2] = [
        (
            &[&ex[0], &big, &ex[1], &many, &ex[2]],
            &[
                "--max-input-bytes",
                "1500000",
                "--max-nodes",
                "3000",
                "--timeout-ms",
                "0",
            ],
            &[
                "",
                "over the limit of 1500000 bytes",
                "",
                "more than 3000 nodes",
                "",
            ],
        ),
        (
            &[&ex[0], &deep, &ex[1]],
            &["--timeout-ms", "1000", "--parser", "html5ever"],
            &["", "time limit of 1000 ms (stopped in parse)", ""],
        ),
    ];
    for cmd in ["extract", "segment"] {
        for (pages, flags, expected) in &runs {
            let out = bin().arg(cmd).args(*pages).args(*flags).output().unwrap();
            assert_eq!(out.status.code(), Some(1), "{cmd} {flags:?}");
            let failed = expected.iter().filter(|e| !e.is_empty()).count();
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert!(
                stderr.contains(&format!("{failed} input(s) failed")),
                "{stderr}"
            );
            let v = lines(&out.stdout);
            assert_eq!(
                v.len(),
                pages.len(),
                "{cmd}: one line per page, in input order"
            );
            for ((line, page), want) in v.iter().zip(*pages).zip(*expected) {
                let error = line["error"].as_str().unwrap_or("");
                if want.is_empty() {
                    assert_eq!(error, "", "{cmd}: {}", page.display());
                    assert!(!line["path"].as_str().unwrap().is_empty());
                } else {
                    assert!(error.contains(want), "{cmd}: {}: {error}", page.display());
                }
            }
        }
        // Under the default size limits the big and many-node pages pass.
        let out = bin()
            .arg(cmd)
            .args([&big, &many])
            .args(["--timeout-ms", "0"])
            .output()
            .unwrap();
        assert!(out.status.success(), "{cmd}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn output_is_identical_for_any_thread_count() {
    let pages = examples();
    let run = |j: &str, cmd: &str| {
        bin()
            .args(["-j", j, cmd])
            .args(&pages)
            .output()
            .unwrap()
            .stdout
    };
    for cmd in ["extract", "segment", "features"] {
        assert_eq!(run("1", cmd), run("2", cmd), "{cmd}");
    }
}

#[test]
fn segments_nest_and_point_into_the_page() {
    let page = &PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("data/examples/news-article.html");
    let out = bin().arg("segment").arg(page).output().unwrap();
    let v = lines(&out.stdout);
    let segs = v[0]["segments"].as_array().unwrap();
    assert!(!segs.is_empty());
    assert!(segs[0]["parent"].is_null());
    let html = std::fs::read_to_string(page).unwrap();
    for (k, s) in segs.iter().enumerate() {
        if let Some(p) = s["parent"].as_u64() {
            assert!((p as usize) < k, "parents come first");
        }
        let score = s["score"].as_f64().unwrap();
        assert!((0.0..=1.0).contains(&score));
        assert_eq!(s["template"].as_bool().unwrap(), score >= 0.5);
        if let Some(span) = s["span"].as_array() {
            let (a, b) = (
                span[0].as_u64().unwrap() as usize,
                span[1].as_u64().unwrap() as usize,
            );
            assert!(html[a..b].starts_with('<'));
        }
    }
}

#[test]
fn variants_and_flags_are_accepted() {
    let page = &examples()[0];
    for args in [
        vec!["--variant", "basic"],
        vec!["--variant", "smooth", "--c", "0.1", "--penalty", "constant"],
        vec!["--threshold", "0.7", "--min-area", "500"],
    ] {
        let out = bin().arg("extract").args(&args).arg(page).output().unwrap();
        assert!(out.status.success(), "{args:?}");
    }
    // The block-level variants run; the tree filter only drops content, so it never extracts
    // more words than smooth on the same page.
    let words = |args: &[&str]| {
        let out = bin().arg("extract").args(args).arg(page).output().unwrap();
        assert!(out.status.success(), "{args:?}");
        String::from_utf8_lossy(&out.stdout)
            .split_whitespace()
            .count()
    };
    let smooth = words(&["--variant", "smooth"]);
    assert!(smooth > 0);
    assert!(words(&["--variant", "tree-filter", "--tree-keep-words", "5"]) <= smooth);
    for v in ["viterbi", "smooth-viterbi", "smooth-viterbi-tree"] {
        assert!(
            words(&["--variant", v, "--switch-penalty", "0.5"]) > 0,
            "{v}"
        );
    }
    let bad = bin()
        .args(["extract", "--variant", "nope"])
        .arg(page)
        .output()
        .unwrap();
    assert_eq!(bad.status.code(), Some(2));
}

#[test]
fn train_lr_is_deterministic() {
    // Heavy: trains on the data sets.
    let _machine = common::heavy();
    let Some(data) = common::data_or_skip("train_lr_is_deterministic") else {
        return;
    };
    let dir = std::env::temp_dir().join(format!("pagelevel-train-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let args = ["train", "--classifier", "lr", "--sets", "cleaneval-dev"];
    let train = |name: &str| train_model(&args, &data, &dir.join(name));
    let a = train("a.json");
    let b = train("b.json");
    assert_eq!(a, b);
    let m = pagelevel::model::Model::from_json(&a).unwrap();
    assert_eq!(m.buckets.len(), 4);
    assert!(m.boost.is_none());
    std::fs::remove_dir_all(&dir).ok();
}

/// `train --cv --cv-by set` leaves one set out: every scored page's fold is its set's place in
/// `--sets`, the table says so, and the threshold model (cross-fitted by site) is refused.
#[test]
fn train_cv_leaves_one_set_out() {
    // Heavy: trains on two data sets.
    let _machine = common::heavy();
    let Some(data) = common::data_or_skip("train_cv_leaves_one_set_out") else {
        return;
    };
    let dir = std::env::temp_dir().join(format!("pagelevel-loso-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let pages = dir.join("pages.jsonl");
    let small = [
        "train",
        "--sets",
        "cleaneval-dev,readability",
        "--trees",
        "4",
        "--stage2-trees",
        "4",
        "--max-samples",
        "30",
        "--cv",
        "--cv-by",
        "set",
        "--dry-run",
    ];
    let mut args = small.to_vec();
    args.extend(["--pages", pages.to_str().unwrap()]);
    // A rule alone and a group switched off together, each one column.
    args.extend(["--cv-without-rule", "comments,comments+galleries"]);
    let o = run_train(&args, &data, &dir.join("unused.json"));
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert!(stdout.contains("(leave one set out;"));
    let head = stdout
        .lines()
        .find(|l| l.starts_with("| set") && l.contains("all rules"))
        .expect("the ablation table");
    assert!(
        head.ends_with("| all rules | without comments | without comments+galleries |"),
        "{head}"
    );
    let scored = lines(&std::fs::read(&pages).unwrap());
    let mut per_set = std::collections::BTreeMap::new();
    for p in &scored {
        let want = match p["set"].as_str().unwrap() {
            "cleaneval-dev" => 0,
            "readability" => 1,
            other => panic!("a page of {other}"),
        };
        assert_eq!(p["fold"], want, "{p}");
        *per_set.entry(want).or_insert(0) += 1;
    }
    assert_eq!(per_set.len(), 2, "both sets scored: {per_set:?}");
    let mut unknown = small.to_vec();
    unknown.extend(["--cv-without-rule", "comments+no-such-rule"]);
    let o = run_train(&unknown, &data, &dir.join("unused.json"));
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("no rule \"no-such-rule\""));
    let mut refused = small.to_vec();
    refused.push("--threshold-model");
    let o = run_train(&refused, &data, &dir.join("unused.json"));
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("cross-fitted by site"));
    std::fs::remove_dir_all(&dir).ok();
}

/// `--features context` trains on the context columns too, `--without-features` leaves the
/// named ones out (and a name that is no feature is an error), and the model loads.
#[test]
fn train_context_features_without_some() {
    // Heavy: trains on the data sets.
    let _machine = common::heavy();
    let Some(data) = common::data_or_skip("train_context_features_without_some") else {
        return;
    };
    let out = std::env::temp_dir().join(format!("pagelevel-ctx-{}.json", std::process::id()));
    let train = |without: &str| {
        let args = [
            "train",
            "--sets",
            "cleaneval-dev",
            "--trees",
            "3",
            "--depth",
            "2",
        ];
        let tail = ["--features", "context", "--without-features", without];
        run_train(&[&args[..], &tail[..]].concat(), &data, &out)
    };
    let status = train("in_main_region,num_words");
    assert!(
        status.status.success(),
        "{}",
        String::from_utf8_lossy(&status.stderr)
    );
    let json = std::fs::read_to_string(&out).unwrap();
    std::fs::remove_file(&out).ok();
    let m = pagelevel::model::Model::from_json(&json).unwrap();
    let names = pagelevel::features::NAMES;
    assert_eq!(m.features.len(), names.len() - 2);
    assert!(m.features.iter().any(|n| n == "main_region_share"));
    assert!(!m
        .features
        .iter()
        .any(|n| n == "in_main_region" || n == "num_words"));
    assert!(m
        .provenance
        .ends_with("--without-features in_main_region,num_words"));
    let bad = train("no_such_feature");
    assert!(!bad.status.success());
    assert!(String::from_utf8_lossy(&bad.stderr).contains("no feature named no_such_feature"));
}

/// `pagelevel train` with its defaults, run on two threads, rebuilds the embedded model byte
/// for byte.
#[test]
fn train_reproduces_the_embedded_model() {
    // Heavy: trains on every data set, two threads.
    let _machine = common::heavy();
    let Some(data) = common::data_or_skip("train_reproduces_the_embedded_model") else {
        return;
    };
    let out = std::env::temp_dir().join(format!("pagelevel-model-{}.json", std::process::id()));
    let trained = train_model(&["-j", "2", "train"], &data, &out);
    std::fs::remove_file(&out).ok();
    let embedded = pagelevel::model::EMBEDDED_JSON;
    assert!(
        trained == embedded,
        "retrained model differs from data/model.json ({} vs {} bytes); retrain with `pagelevel train`",
        trained.len(),
        embedded.len()
    );
    assert!(pagelevel::model::Model::embedded().boost.is_some());
}

#[test]
fn label_writes_content_shares_per_node() {
    // The nav's and the footer's "read more" must not take the gold's one, which belongs to
    // the last paragraph: the alignment keeps document order.
    let dir = std::env::temp_dir().join(format!("pagelevel-label-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("p.html"),
        "<html><body><div id=nav><a href=/>Home</a> <a href=/a>Read more</a></div>\
         <div id=main><h1>Tidal mill rebuilt</h1><p>Volunteers rebuilt the tidal mill over two \
         summers and it grinds flour again.</p><p>Read more about the mill</p></div>\
         <div id=foot>Read more news</div></body></html>",
    )
    .unwrap();
    std::fs::write(
        dir.join("p.txt"),
        "Tidal mill rebuilt\nVolunteers rebuilt the tidal mill over two summers and it grinds \
         flour again.\nRead more about the mill\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("manifest.jsonl"),
        "{\"id\": \"p\", \"html\": \"p.html\", \"gold\": \"p.txt\"}\n\
         {\"id\": \"q\", \"html\": \"missing.html\", \"gold\": \"p.txt\"}\n\
         {\"id\": \"r\", \"html\": \"p.html\"}\n",
    )
    .unwrap();
    let run = |jobs: &str| {
        bin()
            .args(["label", "-j", jobs, "--manifest"])
            .arg(dir.join("manifest.jsonl"))
            .output()
            .unwrap()
    };
    let out = run("1");
    assert_eq!(out.status.code(), Some(1), "the missing page fails");
    assert_eq!(
        out.stdout,
        run("2").stdout,
        "identical for any thread count"
    );
    let v = lines(&out.stdout);
    let node = |path: &str| {
        v.iter()
            .find(|l| l["path"] == path)
            .unwrap_or_else(|| panic!("{path} not labelled: {v:?}"))
    };
    // 3 nav words, 21 main words (3 + 13 + 5), 3 footer words.
    let body = node("/html/body");
    assert_eq!(
        (body["words"].as_u64(), body["aligned"].as_u64()),
        (Some(27), Some(21))
    );
    assert_eq!(body["share"].as_f64(), Some(0.7778));
    let nav = node("/html/body/div[1]");
    assert_eq!(
        (nav["words"].as_u64(), nav["aligned"].as_u64()),
        (Some(3), Some(0))
    );
    assert_eq!(nav["template"], true);
    let main = node("/html/body/div[2]");
    assert_eq!(
        (main["words"].as_u64(), main["aligned"].as_u64()),
        (Some(21), Some(21))
    );
    assert_eq!(
        (main["share"].as_f64(), &main["template"]),
        (Some(1.0), &serde_json::json!(false))
    );
    assert_eq!(node("/html/body/div[2]/p[2]")["aligned"].as_u64(), Some(5));
    assert_eq!(node("/html/body/div[3]")["aligned"].as_u64(), Some(0));
    // The failing page gives one error line; the page without gold gives none.
    let errors: Vec<_> = v.iter().filter(|l| l.get("error").is_some()).collect();
    assert_eq!(errors.len(), 1);
    assert_eq!(errors[0]["id"], "q");
    assert!(v.iter().all(|l| l["id"] != "r"));
    // --features adds every feature by name.
    let out = bin()
        .args(["label", "--features", "--manifest"])
        .arg(dir.join("manifest.jsonl"))
        .output()
        .unwrap();
    let first = &lines(&out.stdout)[0];
    assert_eq!(
        first["features"].as_object().unwrap().len(),
        pagelevel::features::NAMES.len()
    );
}

#[test]
fn threshold_model_flag_needs_a_threshold_part_and_uses_it() {
    // On this page 0.1 and 0.9 extract different text (checked; nearer thresholds can agree
    // when the model's scores leave a gap), so the leaf's value shows.
    let page = &examples()
        .into_iter()
        .find(|p| p.ends_with("product-listing.html"))
        .unwrap();
    // The embedded model has no threshold part: a clear error, not a silent fallback.
    let out = bin()
        .args(["extract", "--threshold-model"])
        .arg(page)
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("no threshold part"));
    // A model whose tree is one leaf at 0.9 extracts what --threshold 0.9 does.
    let mut model = pagelevel::model::Model::embedded().clone();
    model.version = pagelevel::model::VERSION;
    model.threshold = Some(pagelevel::model::threshold::ThresholdModel {
        version: pagelevel::model::threshold::THRESHOLD_VERSION,
        features: pagelevel::model::threshold::SUMMARY_NAMES
            .iter()
            .map(|s| s.to_string())
            .collect(),
        grid: vec![0.9],
        nodes: vec![pagelevel::model::threshold::Node::Leaf { threshold: 0.9 }],
        provenance: String::new(),
    });
    let path = std::env::temp_dir().join(format!(
        "pagelevel-threshold-model-{}.json",
        std::process::id()
    ));
    std::fs::write(&path, serde_json::to_string(&model).unwrap()).unwrap();
    let run = |args: &[&str]| {
        let out = bin().arg("extract").args(args).arg(page).output().unwrap();
        assert!(out.status.success(), "{args:?}");
        out.stdout
    };
    let p = path.to_str().unwrap();
    let learned = run(&["--model", p, "--threshold-model"]);
    assert_eq!(learned, run(&["--threshold", "0.9"]));
    assert_ne!(learned, run(&["--threshold", "0.1"]));
    std::fs::remove_file(&path).ok();
}

/// `train --stages 2` writes a stacked model (version 4, a second stage reading the stacked
/// features) that is byte-identical for one and two threads, and the pipeline's output with it
/// is the same for any thread count.
#[test]
fn train_stacked_is_deterministic() {
    // Heavy: trains on the data sets.
    let _machine = common::heavy();
    let Some(data) = common::data_or_skip("train_stacked_is_deterministic") else {
        return;
    };
    let dir = std::env::temp_dir().join(format!("pagelevel-stacked-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let train = |threads: &str, name: &str| {
        let out = dir.join(name);
        let args = [
            "-j",
            threads,
            "train",
            "--sets",
            "cleaneval-dev",
            "--trees",
            "4",
            "--depth",
            "3",
            "--stages",
            "2",
            "--stage2-trees",
            "4",
            "--stage2-depth",
            "3",
        ];
        (train_model(&args, &data, &out), out)
    };
    let (a, path) = train("1", "a.json");
    let (b, _) = train("2", "b.json");
    assert_eq!(a, b);
    let m = pagelevel::model::Model::from_json(&a).unwrap();
    assert_eq!(m.version, pagelevel::model::VERSION);
    let s2 = m.stage2.as_ref().expect("a second stage");
    assert_eq!(s2.forest.trees(), 4);
    assert!(s2.features.iter().any(|n| n == "s1_parent"));
    assert!(m.provenance.contains("--stages 2 --stage2-trees 4"));
    let pages = examples();
    let extract = |threads: &str| {
        let o = bin()
            .args(["-j", threads, "extract", "--model"])
            .arg(&path)
            .args(&pages)
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        o.stdout
    };
    let one = extract("1");
    assert!(!one.is_empty());
    assert_eq!(one, extract("2"));
    std::fs::remove_dir_all(&dir).ok();
}

/// A folder of hostile inputs for the tests below, made once per test.
fn hostile_dir(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("pagelevel-{test}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Random bytes and a PDF are not HTML: each fails alone with a message, the pages beside them
/// are extracted, and an error names its path once (it used to say `DIR: DIR: cannot read`).
#[test]
fn binary_input_and_unreadable_paths_fail_alone_with_one_path() {
    let dir = hostile_dir("binary");
    let pdf = dir.join("paper.pdf");
    std::fs::write(
        &pdf,
        b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<< /Type /Catalog >>",
    )
    .unwrap();
    let noise = dir.join("noise.html");
    let mut x: u32 = 12345;
    let bytes: Vec<u8> = (0..5_000)
        .map(|_| {
            x = x.wrapping_mul(1_103_515_245).wrapping_add(12345);
            (x >> 16) as u8
        })
        .collect();
    std::fs::write(&noise, bytes).unwrap();
    let sub = dir.join("a-folder");
    std::fs::create_dir_all(&sub).unwrap();
    let ex = examples();
    let out = bin()
        .arg("extract")
        .args([&ex[0], &pdf, &noise, &sub, &ex[1]])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let v = lines(&out.stdout);
    assert_eq!(v.len(), 5);
    assert!(v[0]["error"].is_null() && !v[0]["text"].as_str().unwrap().is_empty());
    assert_eq!(v[1]["error"], "not HTML: a PDF document");
    assert_eq!(v[2]["error"], "not HTML: binary data");
    // A folder is walked; one without pages is reported (it used to be read as a page).
    let folder_error = v[3]["error"].as_str().unwrap();
    assert!(
        folder_error.starts_with("no pages in the folder") && !folder_error.contains("a-folder"),
        "{folder_error}"
    );
    assert!(v[4]["error"].is_null() && !v[4]["text"].as_str().unwrap().is_empty());
    // The text formats report failures on stderr, one line each, naming the path once.
    let out = bin()
        .args(["extract", "--format", "text"])
        .args([&ex[0], &sub, &pdf])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    let dir_line = stderr.lines().find(|l| l.contains("a-folder")).unwrap();
    assert_eq!(dir_line.matches("a-folder").count(), 1, "{dir_line}");
    assert!(
        stderr.contains("paper.pdf: not HTML: a PDF document"),
        "{stderr}"
    );
    std::fs::remove_dir_all(&dir).ok();
}

/// `features` on a page 200,000 deep: the paths are abbreviated, so the output stays linear
/// (it grew with depth squared), and `--timeout-ms` applies.
#[test]
fn features_output_is_linear_on_deep_pages_and_has_a_time_limit() {
    // Timed: a 1 s limit, and the run within 60 s.
    let _machine = common::timed();
    let dir = hostile_dir("features-deep");
    let page = dir.join("deep.html");
    let html = "<span>".repeat(200_000) + "words";
    std::fs::write(&page, &html).unwrap();
    let out = bin()
        .args(["features", "--timeout-ms", "0"])
        .arg(&page)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(text.lines().count(), 200_000 + 3);
    let longest = text.lines().map(str::len).max().unwrap();
    assert!(longest < 3_000, "{longest}");
    // Nested divs are quadratic in html5ever: the time limit stops them, for this page alone.
    let divs = dir.join("divs.html");
    std::fs::write(&divs, "<div>".repeat(200_000)).unwrap();
    let start = std::time::Instant::now();
    let out = bin()
        .args(["features", "--timeout-ms", "1000", "--parser", "html5ever"])
        .arg(&divs)
        .arg(examples()[0].as_path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("time limit of 1000 ms"));
    assert!(!out.stdout.is_empty(), "the example page's rows");
    assert!(start.elapsed() < std::time::Duration::from_secs(60));
    std::fs::remove_dir_all(&dir).ok();
}

/// `dedup` and `sitelevel` take `--timeout-ms`: a page the parser would take minutes over
/// fails alone.
#[test]
fn dedup_and_sitelevel_have_a_time_limit() {
    // Timed: the example pages must finish within a 1 s limit.
    let _machine = common::timed();
    let dir = hostile_dir("dedup-timeout");
    let divs = dir.join("divs.html");
    // Quadratic in html5ever, which each run picks: each <div> walks the whole stack.
    std::fs::write(&divs, "<div>".repeat(200_000)).unwrap();
    let ex = examples();
    let out = bin()
        .args(["dedup", "--timeout-ms", "1000", "--parser", "html5ever"])
        .args([&divs, &ex[0], &ex[1]])
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("time limit of 1000 ms"), "{stderr}");
    // sitelevel over a folder holding the deep page and copies of an example.
    let site = dir.join("site");
    std::fs::create_dir_all(&site).unwrap();
    std::fs::copy(&divs, site.join("a-deep.html")).unwrap();
    for k in 0..4 {
        let html = String::from_utf8_lossy(&std::fs::read(&ex[0]).unwrap()).into_owned();
        std::fs::write(
            site.join(format!("p{k}.html")),
            html.replace("<body", &format!("<body data-k={k}")),
        )
        .unwrap();
    }
    let mut manifest = String::new();
    for name in ["a-deep.html", "p0.html", "p1.html", "p2.html", "p3.html"] {
        manifest.push_str(&format!(
            "{{\"id\": \"{name}\", \"site\": \"s\", \"html\": \"site/{name}\"}}\n"
        ));
    }
    std::fs::write(dir.join("manifest.jsonl"), manifest).unwrap();
    let out = bin()
        .args([
            "sitelevel",
            "--timeout-ms",
            "1000",
            "--parser",
            "html5ever",
            "--min-pages",
            "2",
            "--manifest",
        ])
        .arg(dir.join("manifest.jsonl"))
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("time limit of 1000 ms"), "{stderr}");
    let v = lines(&out.stdout);
    assert!(v
        .iter()
        .any(|l| l["path"] == "site/a-deep.html" && l["error"].is_string()));
    assert!(v
        .iter()
        .any(|l| l["path"] == "site/p0.html" && l["error"].is_null()));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn rules_are_listed_and_each_can_be_switched_off() {
    let out = bin().arg("--rules").output().unwrap();
    assert!(out.status.success());
    let listed = String::from_utf8(out.stdout).unwrap();
    let names: Vec<&str> = listed
        .lines()
        .filter_map(|l| l.split_whitespace().next())
        .collect();
    let want: Vec<&str> = pagelevel::rules::Rule::ALL
        .iter()
        .map(|r| r.name())
        .collect();
    assert_eq!(names, want);
    // An article of 3 × 47 words with an aside inside it and a comment thread after it: the
    // `comments` and `asides` rules drop those (the article keeps over 100 words outside
    // them), and each comes back when its rule is off.
    let para = "The river town rebuilt its old stone bridge this summer, and the engineers who led the work explained how they matched the original lime mortar, why the arches needed new foundations, and what the town plans to do with the toll house that stood empty for forty years. ";
    let comment = "I grew up next to that bridge and walked across it every morning on my way to school, so it is wonderful to see the arches restored with so much care and patience by the whole crew. ";
    let page = format!(
        "<!doctype html><html><head><title>The bridge is back</title></head><body>\
         <nav><a href=\"/\">Home</a> <a href=\"/news\">News</a></nav>\
         <article><h1>The bridge is back</h1><p>{para}</p><p>{para}</p><p>{para}</p>\
         <aside><p>Related reading: how lime mortar is made in the old way, and why it lasts \
         for centuries in wet climates.</p></aside></article>\
         <div class=\"comments\"><h2>Comments</h2><div class=\"comment\"><p>{comment}</p></div>\
         <div class=\"comment\"><p>{comment}</p></div></div>\
         <footer><p>Copyright the town paper.</p></footer></body></html>"
    );
    let dir = std::env::temp_dir().join(format!("pagelevel-rules-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("bridge.html");
    std::fs::write(&path, page).unwrap();
    let text = |args: &[&str]| {
        let out = bin().arg("extract").args(args).arg(&path).output().unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        lines(&out.stdout)[0]["text"].as_str().unwrap().to_owned()
    };
    let all = text(&[]);
    assert!(all.contains("lime mortar, why the arches"), "{all}");
    assert!(!all.contains("I grew up"), "{all}");
    assert!(!all.contains("Related reading"), "{all}");
    // The model itself now drops this thread (it sees the comment regions as features), so
    // switching the rule off keeps the thread out; the switch still reaches the pipeline.
    let without_comments = text(&["--without-rule", "comments"]);
    assert!(!without_comments.contains("Related reading"));
    assert_eq!(text(&["--keep-comments"]), without_comments);
    let without_asides = text(&["--without-rule", "asides"]);
    assert!(
        without_asides.contains("Related reading"),
        "{without_asides}"
    );
    assert!(!without_asides.contains("I grew up"));
    let both = text(&["--without-rule", "asides", "--without-rule", "comments"]);
    assert!(both.contains("Related reading"), "{both}");
    let bad = bin()
        .args(["extract", "--without-rule", "no-such-rule"])
        .arg(&path)
        .output()
        .unwrap();
    assert_eq!(bad.status.code(), Some(2));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_fast_parser_gives_the_same_output_on_every_page_command() {
    let pages = examples();
    for cmd in ["extract", "segment", "features"] {
        let out = |parser: &str| {
            let o = bin()
                .arg(cmd)
                .args(["--parser", parser])
                .args(&pages)
                .output()
                .unwrap();
            assert!(o.status.success(), "{cmd} --parser {parser}");
            o.stdout
        };
        assert_eq!(out("fast"), out("html5ever"), "{cmd}");
    }
    let view = |parser: &str, out: &Path| {
        let o = bin()
            .args(["view", "--parser", parser])
            .arg(&pages[0])
            .arg("-o")
            .arg(out)
            .output()
            .unwrap();
        assert!(o.status.success(), "view --parser {parser}");
        std::fs::read(out).unwrap()
    };
    let dir = std::env::temp_dir().join(format!("pagelevel-parser-view-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    assert_eq!(
        view("fast", &dir.join("fast.html")),
        view("html5ever", &dir.join("html5ever.html"))
    );
    let _ = std::fs::remove_dir_all(&dir);
    // The site and duplicate commands read their pages with either parser, to the same output.
    let dir = hostile_dir("parser-site");
    for k in 0..5 {
        let html = String::from_utf8_lossy(&std::fs::read(&pages[k % pages.len()]).unwrap())
            .replace("<body", &format!("<body data-k={k}"));
        std::fs::write(dir.join(format!("p{k}.html")), html).unwrap();
    }
    for (cmd, args) in [
        ("dedup", &["--mode", "pagelevel", "--sketches"][..]),
        ("sitelevel", &["--extract", "--site-dir"][..]),
    ] {
        let out = |parser: &str| {
            let mut c = bin();
            c.arg(cmd).args(["--parser", parser]).args(args);
            if cmd == "dedup" {
                c.args(&pages);
            } else {
                c.arg(&dir);
            }
            let o = c.output().unwrap();
            assert!(
                o.status.success(),
                "{cmd} --parser {parser}: {}",
                String::from_utf8_lossy(&o.stderr)
            );
            o.stdout
        };
        let fast = out("fast");
        assert!(!fast.is_empty(), "{cmd}");
        assert_eq!(fast, out("html5ever"), "{cmd}");
    }
    std::fs::remove_dir_all(&dir).ok();
}
