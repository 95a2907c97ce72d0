//! Stacking: the stacked features on a tree and a page worked out by hand, a stacked model's
//! file part and its scores.

use pagelevel::features::{self, FeatureOptions};
use pagelevel::model::math::sigmoid;
use pagelevel::model::stack::{features as stacked, s, Stage2, Tree, STACK_COUNT, STACK_NAMES};
use pagelevel::model::stack::{IN_COMMENTS, IN_MAIN_START};
use pagelevel::model::{Model, VERSION, VERSION_WITHOUT_THRESHOLD};
use pagelevel::segment::{scored_mask, DEFAULT_MIN_AREA};
use pagelevel::Page;
use smoothing::NO_PARENT;

const EPS: f32 = 1e-5;

fn close(got: f32, want: f32, what: &str) {
    assert!((got - want).abs() < EPS, "{what}: got {got}, want {want}");
}

/// One column of every node, in tree order.
fn column(z: &[f32], k: usize) -> Vec<f32> {
    z.chunks_exact(STACK_COUNT).map(|r| r[k]).collect()
}

fn check(z: &[f32], k: usize, want: &[f32]) {
    let got = column(z, k);
    assert_eq!(got.len(), want.len());
    for (i, (&g, &w)) in got.iter().zip(want).enumerate() {
        close(g, w, &format!("{} of node {i}", STACK_NAMES[k]));
    }
}

/// root (12 words) → A (6) → A1 (4), A2 (2); root → B (3), C (2). Own words: root 1, A 0,
/// A1 4, A2 2, B 3, C 2. Scores: root .4, A .2, A1 .1, A2 .3, B .9, C .7. The root is the
/// page's main start (so every node lies in it); A2 and C lie in comment regions.
fn hand_tree() -> (Tree, Vec<f32>) {
    let (c, m) = (IN_COMMENTS, IN_MAIN_START);
    let tree = Tree {
        nodes: (0..6).collect(),
        parent: vec![NO_PARENT, 0, 1, 1, 0, 0],
        words: vec![12, 6, 4, 2, 3, 2],
        regions: vec![m, m, m, m | c, m, m | c],
        // A1 and A2 are twins, as are B and C; the root and A are alone.
        keys: vec![0, 7, 5, 5, 9, 9],
    };
    (tree, vec![0.4, 0.2, 0.1, 0.3, 0.9, 0.7])
}

#[test]
fn stacked_features_of_a_hand_worked_tree() {
    let (tree, sc) = hand_tree();
    let z = stacked(&tree, &sc);
    assert_eq!(z.len(), 6 * STACK_COUNT);
    check(&z, s::SCORE, &sc);
    check(&z, s::PARENT, &[0.4, 0.4, 0.2, 0.2, 0.4, 0.4]);
    check(&z, s::PATH_MIN, &[0.4, 0.4, 0.2, 0.2, 0.4, 0.4]);
    check(&z, s::PATH_MAX, &[0.4, 0.4, 0.4, 0.4, 0.4, 0.4]);
    // Σ own·s: A = 0 + .4 + .6 = 1.0 over 6 words; root = .4 + 1.0 + 2.7 + 1.4 = 5.5 over 12.
    check(
        &z,
        s::SUBTREE_MEAN,
        &[5.5 / 12.0, 1.0 / 6.0, 0.1, 0.3, 0.9, 0.7],
    );
    check(&z, s::SUBTREE_MIN, &[0.1, 0.1, 0.1, 0.3, 0.9, 0.7]);
    // Only B and C score ≥ 0.5: 5 of the root's 12 words.
    check(
        &z,
        s::SUBTREE_TEMPLATE_SHARE,
        &[5.0 / 12.0, 0.0, 0.0, 0.0, 1.0, 1.0],
    );
    // Root's children hold 6 + 3 + 2 words with Σ own·s 1.0 + 2.7 + 1.4 = 5.1; A's children
    // 4 + 2 with .4 + .6.
    check(
        &z,
        s::SIBLING_MEAN,
        &[0.4, 4.1 / 5.0, 0.6 / 2.0, 0.4 / 4.0, 2.4 / 8.0, 3.7 / 9.0],
    );
    check(&z, s::PAGE_MEAN, &[5.5 / 12.0; 6]);
    // Scores in order: A1 .1 (4 words), A .2 (0), A2 .3 (2), root .4 (1), C .7 (2), B .9 (3).
    check(
        &z,
        s::LOWER_WORD_SHARE,
        &[
            6.0 / 12.0,
            4.0 / 12.0,
            0.0,
            4.0 / 12.0,
            9.0 / 12.0,
            7.0 / 12.0,
        ],
    );
    // Net content words own·(1 − 2s): root .2, A 0, A1 3.2, A2 .8, B −2.4, C −.8; subtree
    // sums A 4.0, A1 3.2, root 1.0: A is the main block.
    check(&z, s::MAIN_RELATION, &[2.0, 1.0, 1.0, 1.0, 0.0, 0.0]);
    check(&z, s::MAIN_STEPS, &[1.0, 0.0, 1.0, 1.0, 2.0, 2.0]);
    // C follows A with B's 3 words between; B is next to A.
    check(
        &z,
        s::MAIN_WORD_DISTANCE,
        &[0.0, 0.0, 0.0, 0.0, 0.0, 3.0 / 12.0],
    );
    check(&z, s::MAIN_SHARE, &[0.5; 6]);
    // Kept (s < 0.5): root 1, A 0, A1 4, A2 2 own words; A2 lies in comments.
    check(&z, s::KEPT_OUTSIDE_COMMENTS, &[5.0; 6]);
    check(&z, s::MAIN_START_KEPT_SHARE, &[7.0 / 12.0; 6]);
    check(&z, s::TWIN_MEAN, &[-1.0, -1.0, 0.3, 0.1, 0.7, 0.9]);
    check(&z, s::TWINS, &[0.0, 0.0, 1.0, 1.0, 1.0, 1.0]);
}

#[test]
fn stacked_features_of_a_page_without_words_and_a_deep_chain() {
    // One wordless node: its own score wherever a mean or a neighbour is asked for.
    let tree = Tree {
        nodes: vec![0],
        parent: vec![NO_PARENT],
        words: vec![0],
        regions: vec![],
        keys: vec![],
    };
    let z = stacked(&tree, &[0.7]);
    for k in [
        s::SCORE,
        s::PARENT,
        s::SUBTREE_MEAN,
        s::SIBLING_MEAN,
        s::PAGE_MEAN,
    ] {
        close(z[k], 0.7, STACK_NAMES[k]);
    }
    close(z[s::LOWER_WORD_SHARE], 0.0, "lower share");
    close(z[s::MAIN_SHARE], 0.0, "main share");
    // No main start: the share is −1; no words kept anywhere.
    close(z[s::MAIN_START_KEPT_SHARE], -1.0, "main start kept share");
    close(z[s::KEPT_OUTSIDE_COMMENTS], 0.0, "kept outside comments");
    // A chain of 1,000,000 nodes (no recursion), each with one word of its own: the leaf is
    // the only content (net +1; each ancestor adds −0.8), so it is the main block, and the
    // root is 999,999 steps from it.
    let n = 1_000_000;
    let tree = Tree {
        nodes: (0..n as u32).collect(),
        parent: std::iter::once(NO_PARENT).chain(0..n - 1).collect(),
        words: (0..n as u32).map(|i| n as u32 - i).collect(),
        regions: vec![],
        keys: vec![],
    };
    let sc: Vec<f32> = (0..n).map(|i| if i + 1 == n { 0.0 } else { 0.9 }).collect();
    let z = stacked(&tree, &sc);
    close(z[s::MAIN_STEPS], (n - 1) as f32, "root steps");
    close(z[(n - 1) * STACK_COUNT + s::MAIN_RELATION], 1.0, "leaf");
    close(z[s::SUBTREE_MIN], 0.0, "root subtree min");
    close(z[s::MAIN_SHARE], 1.0 / n as f32, "main share");
    // Ties go to the first in document order: with every score 0.5 every net is 0, and the
    // root is the main block.
    let z = stacked(&tree, &vec![0.5; n]);
    close(z[s::MAIN_STEPS], 0.0, "root steps on ties");
    close(
        z[(n - 1) * STACK_COUNT + s::MAIN_STEPS],
        (n - 1) as f32,
        "leaf steps on ties",
    );
}

fn page(html: &str) -> Page {
    Page::from_bytes(html.as_bytes(), &pagelevel::PageOptions::default()).expect("parse")
}

const PAGE: &str = "<html><body><main><p>one two three four five six seven eight</p>\
     <p>nine ten eleven twelve</p></main>\
     <div><p>thirteen fourteen fifteen</p></div></body></html>";

/// The compact node of the element with tag `tag` (the k-th of them).
fn find(p: &Page, tree: &Tree, tag: &str, k: usize) -> usize {
    let i = (0..p.dom.len())
        .filter(|&i| {
            p.dom.node(i).kind == pagelevel::dom::Kind::Element && p.dom.tag_name(i) == tag
        })
        .nth(k)
        .unwrap_or_else(|| panic!("no {tag} #{k}"));
    tree.nodes
        .iter()
        .position(|&n| n as usize == i)
        .unwrap_or_else(|| panic!("{tag} #{k} is not scored"))
}

#[test]
fn the_tree_of_a_page_and_its_stacked_features() {
    let p = page(PAGE);
    let pf = features::compute(&p.dom, None, &FeatureOptions::default());
    let (root, scored) = scored_mask(&p.dom, &pf, DEFAULT_MIN_AREA);
    let tree = Tree::from_scored(&p.dom, &pf, &scored);
    assert_eq!(tree.nodes[0] as usize, root);
    assert_eq!(p.dom.tag_name(root), "body");
    let (main, p1, p2, div, p3) = (
        find(&p, &tree, "main", 0),
        find(&p, &tree, "p", 0),
        find(&p, &tree, "p", 1),
        find(&p, &tree, "div", 0),
        find(&p, &tree, "p", 2),
    );
    // Block boxes span the viewport, so all six elements are scored, in document order.
    assert_eq!(tree.len(), 6);
    assert_eq!((main, p1, p2, div, p3), (1, 2, 3, 4, 5));
    assert_eq!(tree.parent, vec![NO_PARENT, 0, 1, 1, 0, 4]);
    assert_eq!(tree.words, vec![15, 12, 8, 4, 3, 3]);
    // The div's paragraph scores .8, everything else .2: the main block is <main> (net
    // 12·0.6 = 7.2 against the root's 7.2 − 3·0.6 = 5.4), the div is 1 step from the root and
    // 2 from main, with no words between.
    let sc = vec![0.2, 0.2, 0.2, 0.2, 0.2, 0.8];
    let z = stacked(&tree, &sc);
    check(&z, s::MAIN_RELATION, &[2.0, 1.0, 1.0, 1.0, 0.0, 0.0]);
    check(&z, s::MAIN_STEPS, &[1.0, 0.0, 1.0, 1.0, 2.0, 3.0]);
    check(
        &z,
        s::SUBTREE_MEAN,
        &[(12.0 * 0.2 + 3.0 * 0.8) / 15.0, 0.2, 0.2, 0.2, 0.8, 0.8],
    );
    check(
        &z,
        s::SUBTREE_TEMPLATE_SHARE,
        &[0.2, 0.0, 0.0, 0.0, 1.0, 1.0],
    );
    check(&z, s::LOWER_WORD_SHARE, &[0.0, 0.0, 0.0, 0.0, 0.0, 0.8]);
    check(&z, s::SIBLING_MEAN, &[0.2, 0.8, 0.2, 0.2, 0.2, 0.2]);
}

/// The embedded model with a second stage of one stump on `s1_parent` at 0.5 (left −2,
/// right +2).
fn stacked_model() -> Model {
    let mut m = Model::embedded().clone();
    let mut s2 = Stage2 {
        features: vec!["num_words".into(), "s1_parent".into()],
        forest: serde_json::from_str(
            r#"{"depth":1,"base":0.0,"feature":[1],"threshold":[0.5],"leaf":[-2.0,2.0]}"#,
        )
        .unwrap(),
        columns: Vec::new(),
    };
    s2.resolve().unwrap();
    m.stage2 = Some(s2);
    m.version = VERSION;
    m
}

#[test]
fn a_stacked_model_scores_from_the_first_stage_around_the_node() {
    let m = stacked_model();
    let p = page(PAGE);
    let pf = features::compute(&p.dom, None, &FeatureOptions::default());
    let (_, scored) = scored_mask(&p.dom, &pf, DEFAULT_MIN_AREA);
    let tree = Tree::from_scored(&p.dom, &pf, &scored);
    // The stump reads the first stage's score of the parent, not the embedded model's final one.
    let first = Model::embedded().score_all(&pf.matrix, &scored);
    let second = m.score_page(&pf, &scored, &tree);
    let mut seen = 0;
    for i in 0..p.dom.len() {
        if !scored[i] {
            assert!(second[i].is_nan());
            continue;
        }
        let parent = match p.dom.tag_name(i) {
            "body" => i,
            _ => p.dom.node(i).parent as usize,
        };
        let want = sigmoid(if first[parent] > 0.5 { 2.0 } else { -2.0 }) as f32;
        assert_eq!(second[i], want, "node {i}");
        seen += 1;
    }
    assert_eq!(seen, 6);
    // Written and read back, it scores the same; a file that claims an older version with a
    // second stage is refused, and so is an unknown stage-2 feature.
    let json = serde_json::to_string(&m).unwrap();
    let back = Model::from_json(&json).unwrap();
    let bits = |v: Vec<f32>| v.into_iter().map(f32::to_bits).collect::<Vec<u32>>();
    assert_eq!(bits(back.score_page(&pf, &scored, &tree)), bits(second));
    let mut old: serde_json::Value = serde_json::from_str(&json).unwrap();
    old["version"] = 3.into();
    let err = Model::from_json(&old.to_string()).unwrap_err().to_string();
    assert!(err.contains("version 4"), "{err}");
    let mut bad: serde_json::Value = serde_json::from_str(&json).unwrap();
    bad["stage2"]["features"][1] = "s1_nothing".into();
    assert!(Model::from_json(&bad.to_string()).is_err());
    // A one-stage file of the old version still loads and has no second stage.
    let mut one: serde_json::Value = serde_json::from_str(&json).unwrap();
    one.as_object_mut().unwrap().remove("stage2");
    one["version"] = VERSION_WITHOUT_THRESHOLD.into();
    assert!(Model::from_json(&one.to_string()).unwrap().stage2.is_none());
}
