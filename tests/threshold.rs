//! The learned page-level threshold: page summaries and tree fitting on hand-worked cases,
//! the model file's optional threshold part, and the pipeline on small pages written here.

use pagelevel::dom::Kind;
use pagelevel::features::{self, FeatureOptions};
use pagelevel::model::threshold::{
    fit, FitParams, Node, PageSummary, ThresholdModel, TrainPage, SUMMARIES, SUMMARY_NAMES,
    THRESHOLD_VERSION,
};
use pagelevel::model::{Model, VERSION, VERSION_THRESHOLD, VERSION_WITHOUT_THRESHOLD};
use pagelevel::pipeline::{analyze, Options};
use pagelevel::Page;

fn page(html: &str) -> Page {
    Page::from_bytes(html.as_bytes(), &pagelevel::PageOptions::default()).expect("parse")
}

fn tree(nodes: Vec<Node>) -> ThresholdModel {
    ThresholdModel {
        version: THRESHOLD_VERSION,
        features: SUMMARY_NAMES.iter().map(|s| s.to_string()).collect(),
        grid: vec![0.3, 0.5, 0.7],
        nodes,
        provenance: String::new(),
    }
}

fn train_page(x0: f32, f1: [f64; 3]) -> TrainPage {
    let mut x = [0.0; SUMMARIES];
    x[0] = x0;
    TrainPage {
        x,
        f1: f1.to_vec(),
        weight: 1.0,
    }
}

const EPS: f32 = 1e-6;

#[test]
fn summaries_of_a_hand_worked_page() {
    // Two text nodes: 4 words inside <main> (y = 0.2) and 2 linked words in a nav (y = 0.8).
    let p = page(
        "<html><body><main><p>one two three four</p></main>\
         <nav><a href=\"/x\">five six</a></nav></body></html>",
    );
    let pf = features::compute(&p.dom, None, &FeatureOptions::default());
    let mut y = vec![f32::NAN; p.dom.len()];
    let mut seen = 0;
    for (i, yi) in y.iter_mut().enumerate() {
        if p.dom.node(i).kind == Kind::Text {
            match p.dom.text(i).trim() {
                "one two three four" => *yi = 0.2,
                "five six" => *yi = 0.8,
                _ => continue,
            }
            seen += 1;
        }
    }
    assert_eq!(seen, 2);
    let s = PageSummary::of(&p.dom, &pf, &y);
    // Kept at 0.5: 4 of 6 words; none in [0.3, 0.7); mean y = (4·0.2 + 2·0.8) / 6 = 0.4.
    assert!((s.content_share - 4.0 / 6.0).abs() < EPS, "{s:?}");
    assert_eq!(s.ambiguous_share, 0.0);
    assert!((s.mean_y - 0.4).abs() < EPS, "{s:?}");
    assert!((s.log_words - 7f32.ln()).abs() < EPS, "{s:?}");
    assert!((s.link_density - 2.0 / 6.0).abs() < EPS, "{s:?}");
    assert!((s.log_blocks - 3f32.ln()).abs() < EPS, "{s:?}");
    // Only the <main> paragraph is named main content and lies in a landmark.
    assert!((s.in_content_share - 4.0 / 6.0).abs() < EPS, "{s:?}");
    assert!((s.in_main_share - 4.0 / 6.0).abs() < EPS, "{s:?}");
    assert!((0.0..=1.0).contains(&s.block_content_share));

    // Moving the nav's score into the grid's range makes its words ambiguous, not kept.
    for yi in y.iter_mut().filter(|yi| **yi == 0.8) {
        *yi = 0.6;
    }
    let s = PageSummary::of(&p.dom, &pf, &y);
    assert!((s.ambiguous_share - 2.0 / 6.0).abs() < EPS, "{s:?}");
    assert!((s.content_share - 4.0 / 6.0).abs() < EPS, "{s:?}");

    // No scored words: shares 0, mean 0.5.
    let none = vec![f32::NAN; p.dom.len()];
    let s = PageSummary::of(&p.dom, &pf, &none);
    assert_eq!(
        (s.content_share, s.ambiguous_share, s.mean_y),
        (0.0, 0.0, 0.5)
    );
}

#[test]
fn the_block_content_share_is_the_pages() {
    // A page of one long paragraph: boilerpipe calls its block content, so the page's share is
    // above 0 (the document node has no feature row of its own to read it from).
    let words = "word ".repeat(80);
    let p = page(&format!("<html><body><p>{words}.</p></body></html>"));
    let pf = features::compute(&p.dom, None, &FeatureOptions::default());
    let share =
        pagelevel::features::blocks::content_share(&p.dom, &pf.blocks, &pf.block_content)[0];
    assert!(share > 0.5, "{share}");
    let s = PageSummary::of(&p.dom, &pf, &vec![f32::NAN; p.dom.len()]);
    assert!((s.block_content_share - share).abs() < EPS, "{s:?}");
}

#[test]
fn fit_splits_where_two_groups_want_different_thresholds() {
    // Grid 0.3/0.5/0.7. Pages with x0 = 0.1, 0.2 do best at 0.3, pages with x0 = 0.8, 0.9
    // at 0.7; together 0.5 is best (sums 1.4, 1.6, 1.4: mean 0.8). Split at the midpoint
    // 0.5 of 0.2 and 0.8: mean 0.9, a gain of 0.1. The other summaries are constant.
    let pages = vec![
        train_page(0.1, [0.9, 0.8, 0.5]),
        train_page(0.2, [0.9, 0.8, 0.5]),
        train_page(0.8, [0.5, 0.8, 0.9]),
        train_page(0.9, [0.5, 0.8, 0.9]),
    ];
    let grid = [0.3, 0.5, 0.7];
    let params = FitParams {
        depth: 2,
        min_pages: 2,
        min_gain: 0.001,
    };
    let t = fit(&pages, &grid, &params, String::new()).unwrap();
    assert_eq!(
        t.nodes,
        vec![
            Node::Split {
                feature: 0,
                value: 0.5,
                left: 1,
                right: 2
            },
            Node::Leaf { threshold: 0.3 },
            Node::Leaf { threshold: 0.7 },
        ]
    );
    t.check().unwrap();
    let at = |content_share| PageSummary {
        content_share,
        ..PageSummary::default()
    };
    assert_eq!(t.choose(&at(0.3)), 0.3);
    assert_eq!(t.choose(&at(0.6)), 0.7);

    // A leaf of fewer than min_pages pages is not allowed: no split.
    let strict = FitParams {
        min_pages: 3,
        ..params
    };
    let t = fit(&pages, &grid, &strict, String::new()).unwrap();
    assert_eq!(t.nodes, vec![Node::Leaf { threshold: 0.5 }]);
    // A gain below min_gain: no split.
    let greedy = FitParams {
        min_gain: 0.2,
        ..params
    };
    let t = fit(&pages, &grid, &greedy, String::new()).unwrap();
    assert_eq!(t.nodes, vec![Node::Leaf { threshold: 0.5 }]);
    // Depth 0 is one leaf.
    let flat = FitParams { depth: 0, ..params };
    assert_eq!(
        fit(&pages, &grid, &flat, String::new())
            .unwrap()
            .nodes
            .len(),
        1
    );
}

#[test]
fn fit_weighs_pages_and_breaks_ties_towards_the_default() {
    let grid = [0.3, 0.5, 0.7];
    let params = FitParams {
        depth: 0,
        ..FitParams::default()
    };
    // Every threshold equally good: the default 0.5.
    let flat = vec![train_page(0.0, [0.7, 0.7, 0.7])];
    let t = fit(&flat, &grid, &params, String::new()).unwrap();
    assert_eq!(t.nodes, vec![Node::Leaf { threshold: 0.5 }]);
    // 0.3 and 0.7 tie above 0.5: equally far from it, the lower wins.
    let two = vec![train_page(0.0, [0.9, 0.7, 0.9])];
    let t = fit(&two, &grid, &params, String::new()).unwrap();
    assert_eq!(t.nodes, vec![Node::Leaf { threshold: 0.3 }]);
    // One page wanting 0.7 with weight 3 outweighs one wanting 0.3 (sums 1.2, 1.6, 2.0).
    let mut heavy = train_page(0.0, [0.0, 0.3, 0.6]);
    heavy.weight = 3.0;
    let t = fit(
        &[train_page(0.0, [1.2, 0.7, 0.2]), heavy],
        &grid,
        &params,
        String::new(),
    )
    .unwrap();
    assert_eq!(t.nodes, vec![Node::Leaf { threshold: 0.7 }]);
    // Bad input is an error, not a panic.
    assert!(fit(&[], &grid, &params, String::new()).is_err());
    assert!(fit(
        &[train_page(0.0, [0.1, 0.2, 0.3])],
        &[0.5],
        &params,
        String::new()
    )
    .is_err());
}

#[test]
fn check_rejects_bad_trees() {
    let leaf = Node::Leaf { threshold: 0.5 };
    assert!(tree(vec![leaf.clone()]).check().is_ok());
    assert!(tree(vec![]).check().is_err());
    // A child before its parent would allow a cycle.
    let cyc = Node::Split {
        feature: 0,
        value: 0.5,
        left: 0,
        right: 1,
    };
    assert!(tree(vec![cyc, leaf.clone()]).check().is_err());
    let out_of_range = Node::Split {
        feature: 0,
        value: 0.5,
        left: 1,
        right: 5,
    };
    assert!(tree(vec![out_of_range, leaf.clone()]).check().is_err());
    let bad_feature = Node::Split {
        feature: SUMMARIES,
        value: 0.5,
        left: 1,
        right: 2,
    };
    assert!(tree(vec![bad_feature, leaf.clone(), leaf.clone()])
        .check()
        .is_err());
    assert!(tree(vec![Node::Leaf { threshold: 1.5 }]).check().is_err());
    assert!(tree(vec![Node::Leaf {
        threshold: f32::NAN
    }])
    .check()
    .is_err());
    let mut old = tree(vec![leaf.clone()]);
    old.version = THRESHOLD_VERSION + 1;
    assert!(old.check().is_err());
    let mut renamed = tree(vec![leaf]);
    renamed.features[0] = "something_else".into();
    assert!(renamed.check().is_err());
}

#[test]
fn model_files_with_and_without_the_threshold_part_load() {
    // The embedded model predates the threshold part (or lacks it) and still loads.
    let embedded = Model::embedded().clone();
    let json = serde_json::to_string(&embedded).unwrap();
    let back = Model::from_json(&json).unwrap();
    assert!(back.threshold.is_none());
    assert!(back.version <= VERSION);
    assert!(!json.contains("\"threshold\":{"));

    let mut with = embedded.clone();
    // At least version 3; the embedded model may be newer (a second stage needs 4).
    with.version = embedded.version.max(VERSION_THRESHOLD);
    with.threshold = Some(tree(vec![Node::Leaf { threshold: 0.4 }]));
    let back = Model::from_json(&serde_json::to_string(&with).unwrap()).unwrap();
    assert_eq!(back.threshold, with.threshold);

    // A broken threshold part is a model error.
    with.threshold = Some(tree(vec![Node::Leaf { threshold: 2.0 }]));
    assert!(Model::from_json(&serde_json::to_string(&with).unwrap()).is_err());
    // The threshold part came with version 3, the second stage with 4.
    assert_eq!(VERSION_WITHOUT_THRESHOLD + 1, VERSION_THRESHOLD);
    assert_eq!(VERSION_THRESHOLD + 1, VERSION);
}

/// A page of `n` paragraphs of prose under <article>, with a nav of links and a footer.
fn article(n: usize) -> String {
    let para = "<p>The committee met on Tuesday to discuss the new budget, and after a long \
                debate the members agreed to fund the library for another year.</p>";
    format!(
        "<html><head><title>Budget</title></head><body>\
         <nav><ul><li><a href=\"/\">Home</a></li><li><a href=\"/news\">News</a></li>\
         <li><a href=\"/sport\">Sport</a></li></ul></nav>\
         <article><h1>Budget agreed</h1>{}</article>\
         <footer><a href=\"/about\">About us</a> <a href=\"/legal\">Legal</a></footer>\
         </body></html>",
        para.repeat(n)
    )
}

#[test]
fn the_pipeline_applies_the_learned_threshold_per_page() {
    // A tree on log_words: short pages (ln(1 + words) < 4, under 54 words) get 0.3, longer
    // ones 0.7. article(1) has about 30 words, article(8) about 180.
    let mut model = Model::embedded().clone();
    model.threshold = Some(tree(vec![
        Node::Split {
            feature: 3,
            value: 4.0,
            left: 1,
            right: 2,
        },
        Node::Leaf { threshold: 0.3 },
        Node::Leaf { threshold: 0.7 },
    ]));
    // Smooth: every node's flag is its y against the threshold (the default tree filter then
    // revises text nodes' flags, which the flag check below would not allow).
    let learned = Options {
        segment: pagelevel::segment::SegmentOptions {
            learned_threshold: true,
            variant: pagelevel::segment::Variant::Smooth,
            ..Default::default()
        },
        ..Options::default()
    };
    for (n, want) in [(1, 0.3f32), (8, 0.7)] {
        let a = analyze(page(&article(n)), &model, &learned);
        assert_eq!(a.segmentation.threshold, want, "article({n})");
        // The same page at that fixed threshold gives the same flags and text.
        let mut fixed = Options::default();
        fixed.segment.variant = pagelevel::segment::Variant::Smooth;
        fixed.segment.threshold = want;
        let b = analyze(page(&article(n)), &model, &fixed);
        assert_eq!(a.segmentation.template, b.segmentation.template);
        assert_eq!(a.main_text(), b.main_text());
        for (i, &y) in a.segmentation.y.iter().enumerate() {
            if !y.is_nan() {
                assert_eq!(a.segmentation.template[i], y >= want, "node {i}");
            }
        }
        assert!(a.main_text().contains("Budget agreed"), "article({n})");
    }
    // Without the flag, or without a threshold part, the fixed threshold applies.
    let a = analyze(page(&article(8)), &model, &Options::default());
    assert_eq!(a.segmentation.threshold, 0.5);
    let a = analyze(page(&article(8)), Model::embedded(), &learned);
    assert_eq!(a.segmentation.threshold, 0.5);
}
