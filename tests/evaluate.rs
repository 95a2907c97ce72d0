//! The evaluation measures of `pagelevel eval --template --ari`: ARI by hand, template counts on a
//! page written here, the L3S-GN1 span classes, Basic+Merge clusters, real annotated pages and
//! the command itself.

use std::path::PathBuf;
use std::process::Command;

use pagelevel::dom::{parse, visibility, Dom, Kind};
use pagelevel::eval::{
    adjusted_rand_index, evaluate_annotated, merged_clusters, segmentation_ari, span_classes,
    template_counts, truth_from_gold, Confusion, Contingency,
};
use pagelevel::input::manifest::shared_data;
use pagelevel::model::Model;
use pagelevel::pipeline::Options;
use pagelevel::segment::{Segment, Segmentation};
use pagelevel::{Limits, Page};

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-12
}

fn dom_of(html: &str) -> Dom {
    parse(html, &Limits::default()).unwrap()
}

/// The first text node whose text, trimmed, is `t`.
fn text_node(dom: &Dom, t: &str) -> usize {
    (0..dom.len())
        .find(|&i| dom.node(i).kind == Kind::Text && dom.text(i).trim() == t)
        .unwrap_or_else(|| panic!("no text node {t:?}"))
}

/// The first element with attribute `name` = `value`.
fn element(dom: &Dom, name: &str, value: &str) -> usize {
    (0..dom.len())
        .find(|&i| dom.attr(i, name) == Some(value))
        .unwrap_or_else(|| panic!("no element with {name}={value:?}"))
}

fn mark_subtree(dom: &Dom, flags: &mut [bool], i: usize) {
    for f in &mut flags[i..dom.node(i).end as usize] {
        *f = true;
    }
}

// ---- ARI ------------------------------------------------------------------------------------

#[test]
fn ari_identical_partitions_is_one() {
    assert!(close(
        adjusted_rand_index(&[0, 0, 1, 1, 2], &[0, 0, 1, 1, 2]),
        1.0
    ));
    // Cluster names do not matter.
    assert!(close(
        adjusted_rand_index(&[0, 0, 1, 1, 2], &[7, 7, 3, 3, 9]),
        1.0
    ));
    // Degenerate but identical: both one block, both all singletons, a single item.
    assert!(close(adjusted_rand_index(&[1, 1, 1], &[4, 4, 4]), 1.0));
    assert!(close(adjusted_rand_index(&[0, 1, 2], &[5, 6, 7]), 1.0));
    assert!(close(adjusted_rand_index(&[0], &[3]), 1.0));
}

#[test]
fn ari_hand_worked() {
    // classes {0,0,1,1}, clusters {0,0,1,2}: Σ C(nij,2) = 1; Σ C(ai,2) = 2; Σ C(bj,2) = 1;
    // C(4,2) = 6; E = 2·1/6 = 1/3; max = 3/2; ARI = (1 − 1/3)/(3/2 − 1/3) = 4/7.
    assert!(close(
        adjusted_rand_index(&[0, 0, 1, 1], &[0, 0, 1, 2]),
        4.0 / 7.0
    ));
    // classes {0,0,0,1,1,1}, clusters {0,0,1,1,2,2}: Σ C(nij,2) = 1+1 = 2; Σ C(ai,2) = 3+3 = 6;
    // Σ C(bj,2) = 3; C(6,2) = 15; E = 18/15 = 1.2; max = 4.5; ARI = 0.8/3.3 = 8/33.
    let a = adjusted_rand_index(&[0, 0, 0, 1, 1, 1], &[0, 0, 1, 1, 2, 2]);
    assert!(close(a, 8.0 / 33.0), "{a}");
    // Symmetric in its two arguments.
    assert!(close(
        adjusted_rand_index(&[0, 0, 1, 1, 2, 2], &[0, 0, 0, 1, 1, 1]),
        8.0 / 33.0
    ));
    // Worse than chance: each cluster splits both classes evenly.
    // classes {0,0,1,1}, clusters {0,1,0,1}: index 0, E = 2·2/6 = 2/3, max 2 → −1/2.
    assert!(close(
        adjusted_rand_index(&[0, 0, 1, 1], &[0, 1, 0, 1]),
        -0.5
    ));
}

#[test]
fn ari_all_in_one_cluster_is_zero() {
    assert!(close(
        adjusted_rand_index(&[0, 0, 1, 1, 2], &[0, 0, 0, 0, 0]),
        0.0
    ));
    assert!(close(
        adjusted_rand_index(&[0, 0, 0, 0, 0], &[0, 1, 1, 2, 2]),
        0.0
    ));
}

#[test]
fn ari_weights_are_repeated_items() {
    let mut t = Contingency::new();
    t.add(0, 0, 2);
    t.add(1, 1, 1);
    t.add(1, 2, 1);
    t.add(5, 9, 0); // weight 0 adds nothing
    assert_eq!(t.total(), 4);
    assert_eq!(t.clusters(), 3);
    assert!(close(t.ari(), 4.0 / 7.0));
}

// ---- template counts and the gold-alignment truth --------------------------------------------

const PAGE: &str = "<html><body>\
    <div id=nav><ul><li><a href=\"/\">Home page</a></li><li><a href=\"/news\">World news</a></li></ul></div>\
    <div id=main><h1>Otters hold hands</h1><p>Sea otters hold hands while they sleep so that they do \
    not drift apart, says <a href=\"/x\">the marine biologist</a> today.</p></div>\
    <div id=foot>Copyright 2026 Example Corp</div><script>var hidden = 'not counted at all';</script>\
    </body></html>";

const GOLD: &str = "Otters hold hands\nSea otters hold hands while they sleep so that they do not \
    drift apart, says the marine biologist today.";

#[test]
fn gold_alignment_marks_units() {
    let dom = dom_of(PAGE);
    let vis = visibility(&dom);
    let truth = truth_from_gold(&dom, &vis, GOLD);
    for t in ["Home page", "World news", "Copyright 2026 Example Corp"] {
        assert!(truth[text_node(&dom, t)], "{t} should be template");
    }
    // The link inside the paragraph takes the paragraph's flag (one unit).
    for t in ["Otters hold hands", "the marine biologist", "today."] {
        assert!(!truth[text_node(&dom, t)], "{t} should be content");
    }
    // Known weakness, kept on purpose: a short unit whose words occur in the gold is content.
    let dom2 = dom_of("<ul><li><a href=/>Otters</a></li></ul><p>Otters swim.</p>");
    let v2 = visibility(&dom2);
    assert!(!truth_from_gold(&dom2, &v2, "Otters swim.")[text_node(&dom2, "Otters")]);
}

#[test]
fn template_counts_by_hand() {
    let dom = dom_of(PAGE);
    let vis = visibility(&dom);
    let truth = truth_from_gold(&dom, &vis, GOLD);
    // Predicted: the navigation (right) and the in-text link (wrong); the footer is missed.
    let mut pred = vec![false; dom.len()];
    mark_subtree(&dom, &mut pred, element(&dom, "id", "nav"));
    mark_subtree(&dom, &mut pred, element(&dom, "href", "/x"));
    let c = template_counts(&dom, &vis, &truth, &pred);
    // Words: nav 2+2 (template, predicted), link 3 (content, predicted), footer 4 (template,
    // missed), content not predicted: 3 (h1) + 15 + 1 (paragraph around the link).
    assert_eq!(
        c.text,
        Confusion {
            tp: 4,
            fp: 3,
            fn_: 4,
            tn: 19
        }
    );
    let p = c.text.prf();
    assert!(close(p.precision, 4.0 / 7.0) && close(p.recall, 0.5) && close(p.f1, 8.0 / 15.0));
    assert_eq!(
        c.anchor,
        Confusion {
            tp: 4,
            fp: 3,
            fn_: 0,
            tn: 0
        }
    );
    assert_eq!(
        c.links,
        Confusion {
            tp: 2,
            fp: 1,
            fn_: 0,
            tn: 0
        }
    );
    assert!(close(c.links.prf().precision, 2.0 / 3.0) && close(c.links.prf().recall, 1.0));
    // Nothing template on either side: all 1; one side empty: all 0.
    assert_eq!(
        Confusion {
            tn: 5,
            ..Confusion::default()
        }
        .prf()
        .f1,
        1.0
    );
    assert_eq!(
        Confusion {
            fp: 1,
            tn: 5,
            ..Confusion::default()
        }
        .prf()
        .f1,
        0.0
    );
}

// ---- L3S-GN1 spans and segment partitions ----------------------------------------------------

#[test]
fn span_classes_nearest_ancestor() {
    let html = "<body><span class=\"x-nc-sel0\">Menu <a href=/>Home</a></span>\
        <span class=\"x-nc-sel1\"><h1>Title</h1></span>\
        <span class=\"lead x-nc-sel2\">Body <b>text</b> <span class=\"x-nc-sel5\">related</span> more</span>\
        loose <span class=x-nc-selx>bad</span></body>";
    let dom = dom_of(html);
    let cls = span_classes(&dom);
    for (t, c) in [
        ("Menu", 0),
        ("Home", 0),
        ("Title", 1),
        ("Body", 2),
        ("text", 2),
        ("related", 5),
        ("more", 2),
        ("loose", 0),
        ("bad", 0),
    ] {
        assert_eq!(cls[text_node(&dom, t)], c, "{t}");
    }
}

#[test]
fn basic_merge_joins_adjacent_same_flag_segments() {
    let dom = dom_of(
        "<body><div id=a><a href=/1>One</a></div><div id=b><a href=/2>Two</a></div>\
         <p>Story text here</p><div id=c>Foot</div></body>",
    );
    let vis = visibility(&dom);
    let n = dom.len();
    let body = dom.body().unwrap();
    // Hand segmentation: body content (0); the three divs template segments 1, 2, 3.
    let mut segment_of = vec![u32::MAX; n];
    for s in &mut segment_of[body..n] {
        *s = 0;
    }
    let starts = [
        element(&dom, "id", "a"),
        element(&dom, "id", "b"),
        element(&dom, "id", "c"),
    ];
    for (k, &i) in starts.iter().enumerate() {
        for s in &mut segment_of[i..dom.node(i).end as usize] {
            *s = k as u32 + 1;
        }
    }
    let seg_entry = |node, template| Segment {
        node,
        score: 0.0,
        template,
        words: 0,
        parent: None,
    };
    let seg = Segmentation {
        x: vec![0.0; n],
        y: vec![0.0; n],
        template: segment_of
            .iter()
            .map(|&s| s != 0 && s != u32::MAX)
            .collect(),
        segments: vec![
            seg_entry(body, false),
            seg_entry(starts[0], true),
            seg_entry(starts[1], true),
            seg_entry(starts[2], true),
        ],
        segment_of: segment_of.clone(),
        scored: vec![true; n],
        threshold: 0.5,
        main: None,
    };
    let merged = merged_clusters(&dom, &vis, &seg);
    let at = |c: &[u32], t| c[text_node(&dom, t)];
    assert_eq!(at(&merged, "One"), 1);
    assert_eq!(at(&merged, "Two"), 1, "adjacent template segments merge");
    assert_eq!(at(&merged, "Story text here"), 0);
    assert_eq!(at(&merged, "Foot"), 3, "the content segment lies between");
    // Classes: links and footer 0, story 2. Items are words: One, Two, Story×3, Foot.
    let mut classes = vec![0u8; n];
    classes[text_node(&dom, "Story text here")] = 2;
    // Basic: clusters {One} {Two} {Story×3} {Foot}: index 3, Σa 6, Σb 3, E 1.2, max 4.5 → 6/11.
    assert!(close(
        segmentation_ari(&dom, &vis, &classes, &segment_of),
        6.0 / 11.0
    ));
    // Merged: {One,Two} {Story×3} {Foot}: index 4, Σb 4, E 1.6, max 5 → 12/17.
    assert!(close(
        segmentation_ari(&dom, &vis, &classes, &merged),
        12.0 / 17.0
    ));
}

// ---- real pages -------------------------------------------------------------------------------

/// Mean ARI on the first 8 annotated L3S-GN1 pages, measured on 2026-11-23 (embedded boosted
/// model, word weights): Smooth 0.303, Smooth+Merge 0.732. Word weights cut the content into
/// score levels (0.513 with the paper's node weights and the older LR model); merging
/// neighbours of equal flag joins them again. The floors leave room for model changes; falling
/// below one means the segmentation got clearly worse.
const SMOOTH_FLOOR: f64 = 0.20;
const SMOOTH_MERGE_FLOOR: f64 = 0.60;

#[test]
fn l3s_annotated_pages() {
    let Some(data) = shared_data() else {
        eprintln!("skipped: ../shared/data is absent");
        return;
    };
    let manifest = std::fs::read_to_string(data.join("l3s-gn1/manifest.jsonl")).unwrap();
    let model = Model::embedded();
    let opts = Options::default();
    let (mut smooth, mut merged) = (Vec::new(), Vec::new());
    for line in manifest.lines().take(8) {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        let path = data.join(v["annotated"].as_str().unwrap());
        let gold = std::fs::read_to_string(data.join(v["gold"].as_str().unwrap())).unwrap();
        let page = Page::from_path(
            &path,
            &pagelevel::PageOptions {
                url: v["url"].as_str(),
                ..Default::default()
            },
        )
        .unwrap();
        let s = evaluate_annotated(&page, Some(&gold), model, &opts);
        for a in [s.basic, s.basic_merge, s.smooth, s.smooth_merge] {
            assert!((-1.0..=1.0).contains(&a), "{}: ARI {a}", path.display());
        }
        assert!(
            s.clusters[1] <= s.clusters[0] && s.clusters[3] <= s.clusters[2],
            "merging never adds clusters"
        );
        // The gold text is the annotated spans' text: the alignment rule agrees on most words.
        let r = s.gold_rule.unwrap();
        assert!(
            (r.tp + r.tn) as f64 >= 0.8 * r.total() as f64,
            "{}: {r:?}",
            path.display()
        );
        smooth.push(s.smooth);
        merged.push(s.smooth_merge);
    }
    let mean = smooth.iter().sum::<f64>() / smooth.len() as f64;
    let mean_merged = merged.iter().sum::<f64>() / merged.len() as f64;
    eprintln!("mean ARI on 8 annotated pages: Smooth {mean:.3}, Smooth+Merge {mean_merged:.3}");
    assert!(
        mean >= SMOOTH_FLOOR,
        "mean Smooth ARI {mean:.3} < {SMOOTH_FLOOR}"
    );
    assert!(
        mean_merged >= SMOOTH_MERGE_FLOOR,
        "mean Smooth+Merge ARI {mean_merged:.3} < {SMOOTH_MERGE_FLOOR}"
    );
}

// ---- the command ------------------------------------------------------------------------------

fn temp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("pagelevel-evaluate-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

#[test]
fn eval_command_prints_template_and_ari_tables() {
    let dir = temp_dir("cli");
    let annotated = PAGE
        .replace("<div id=nav>", "<div id=nav><span class=x-nc-sel0>")
        .replace("</ul></div>", "</ul></span></div>")
        .replace("<div id=main>", "<div id=main><span class=x-nc-sel2>")
        .replace("</p></div>", "</p></span></div>");
    std::fs::write(dir.join("p1.html"), PAGE).unwrap();
    std::fs::write(dir.join("p1.ann.html"), annotated).unwrap();
    std::fs::write(dir.join("p1.txt"), GOLD).unwrap();
    std::fs::write(
        dir.join("manifest.jsonl"),
        "{\"id\": \"p1\", \"html\": \"p1.html\", \"gold\": \"p1.txt\", \"annotated\": \"p1.ann.html\"}\n",
    )
    .unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_pagelevel"))
        .args(["eval", "--template", "--ari", "-j", "1", "--manifest"])
        .arg(dir.join("manifest.jsonl"))
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    for row in [
        "| all | 1 |",
        "| gold | Basic | text words | 1 |",
        "| gold | Smooth | links | 1 |",
        "| annotation | Smooth | anchor words | 1 |",
        "| Basic | 1 |",
        "| Basic+Merge | 1 |",
        "| Smooth | 1 |",
        "Gold-alignment rule checked",
    ] {
        assert!(stdout.contains(row), "missing {row:?} in\n{stdout}");
    }
    // --ari without annotated copies is a usage error (exit 2), not a silent empty table.
    std::fs::write(
        dir.join("plain.jsonl"),
        "{\"id\": \"p1\", \"html\": \"p1.html\", \"gold\": \"p1.txt\"}\n",
    )
    .unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_pagelevel"))
        .args(["eval", "--ari", "--manifest"])
        .arg(dir.join("plain.jsonl"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("annotated"));
    let _ = std::fs::remove_dir_all(&dir);
}
