//! Atomic text blocks, their shallow text features, boilerpipe's NumWords + LinkDensity
//! classifier and content shares: hand-worked cases, a 1,000,000-deep page, then every page
//! of L3S-GN1 scored against its gold text when `../shared/data` is present.

use crate::common;

use std::collections::HashMap;
use std::time::Instant;

use pagelevel::dom::{self, Dom, Kind, Tag, NONE};
use pagelevel::features::blocks::{
    content_share, neighbours, segment, Block, BlockClassifier, Blocks,
};
use pagelevel::Limits;
use rayon::prelude::*;

fn page(html: &str) -> (Dom, Vec<bool>, Blocks) {
    let dom = dom::parse(html, &Limits::default()).unwrap();
    let vis = dom::visibility(&dom);
    let blocks = segment(&dom, &vis);
    (dom, vis, blocks)
}

/// The text of every block, in order.
fn texts(dom: &Dom, vis: &[bool], blocks: &Blocks) -> Vec<String> {
    (0..blocks.blocks.len())
        .map(|b| {
            let mut s = String::new();
            blocks.text_into(dom, vis, b, &mut s);
            s
        })
        .collect()
}

fn first_element(dom: &Dom, name: &str) -> usize {
    (0..dom.len()).find(|&i| dom.tag_name(i) == name).unwrap()
}

// ---------------------------------------------------------------------------------------
// Segmentation
// ---------------------------------------------------------------------------------------

#[test]
fn anchors_and_inline_elements_stay_in_the_block() {
    let (dom, vis, b) = page("<p>Hello <a href=x>world</a> and <b>more</b></p><p>next</p>");
    assert_eq!(texts(&dom, &vis, &b), ["Hello world and more", "next"]);
    let first = &b.blocks[0];
    // Hello, world, and, more: four \w+ words, one of them inside <a>.
    assert_eq!((first.num_words, first.linked_words), (4, 1));
    assert_eq!(first.link_density(), 0.25);
    assert_eq!(first.element as usize, first_element(&dom, "p"));
    assert_eq!(dom.text(first.first_node as usize), "Hello ");
    assert_eq!(dom.text(first.last_node as usize), "more");
    assert_eq!(b.blocks[1].num_words, 1);
    // Every text node maps to its block; elements map to none.
    for i in 0..dom.len() {
        match dom.node(i).kind {
            Kind::Text => assert_ne!(b.block_of[i], NONE, "{}", dom.path(i)),
            _ => assert_eq!(b.block_of[i], NONE, "{}", dom.path(i)),
        }
    }
    let summed: u32 = b.words_of.iter().sum();
    assert_eq!(summed, 5);
}

#[test]
fn element_boundaries_split_blocks() {
    let cases: &[(&str, &[&str])] = &[
        ("<div>a<br>b</div>", &["a", "b"]),
        ("<ul><li>x</li><li>y</li></ul>", &["x", "y"]),
        ("<p>a<img src=i.png>b</p>", &["a", "b"]),
        ("<table><tr><td>a</td><td>b</td></tr></table>", &["a", "b"]),
        ("<div>a<div>b</div>c</div>", &["a", "b", "c"]),
        ("<p>a <span>b <em>c</em></span> d</p>", &["a b c d"]),
        ("<p>x<svg><text>y</text></svg>z</p>", &["x", "y", "z"]),
        (
            "<p>one<my-widget>two</my-widget>three</p>",
            &["one", "two", "three"],
        ),
        ("<p>one<big>two</big>three</p>", &["onetwothree"]),
    ];
    for (html, want) in cases {
        let (dom, vis, b) = page(html);
        assert_eq!(texts(&dom, &vis, &b), *want, "{html}");
    }
}

#[test]
fn invisible_and_blank_text_makes_no_block() {
    // Sixty visible words keep <noscript> hidden (it is shown only on otherwise empty pages).
    let long = vec!["a"; 60].join(" ");
    let html = "<body>\n  <p>LONG</p>\n<script>var x = 'not a block';</script>\n<style>p { color: red }</style>\
                <div hidden>hidden</div><span style='display:none'>gone</span><noscript>ns</noscript>\
                <div>   \n\t </div><p>b</p>\n</body>"
        .replace("LONG", &long);
    let (dom, vis, b) = page(&html);
    assert_eq!(texts(&dom, &vis, &b), [long.as_str(), "b"]);
    // Punctuation alone is a block (boilerpipe keeps non-word tokens), with no words.
    let (dom, vis, b) = page("<p>a</p><p> | </p><p>b</p>");
    assert_eq!(texts(&dom, &vis, &b), ["a", " | ", "b"]);
    assert_eq!(b.blocks[1].num_words, 0);
    assert_eq!(b.blocks[1].text_density(), 0.0);
    assert_eq!(b.blocks[1].avg_sentence_len(), 0.0);
}

#[test]
fn words_span_inline_boundaries_and_belong_to_their_first_node() {
    let (dom, vis, b) = page("<p><b>Hel</b>lo wor<i>ld</i> <a href=x>li</a>nk</p>");
    assert_eq!(b.blocks.len(), 1);
    let blk = &b.blocks[0];
    // "Hello", "world", "link": "link" starts inside <a>, so it is linked.
    assert_eq!((blk.num_words, blk.linked_words), (3, 1));
    assert_eq!(blk.capitalized_words, 1);
    assert_eq!(blk.word_chars, 14);
    let per_node: Vec<(String, u32)> = (0..dom.len())
        .filter(|&i| vis[i] && dom.node(i).kind == Kind::Text)
        .map(|i| (dom.text(i).to_string(), b.words_of[i]))
        .collect();
    let want = [
        ("Hel", 1),
        ("lo wor", 1),
        ("ld", 0),
        (" ", 0),
        ("li", 1),
        ("nk", 0),
    ];
    let want: Vec<(String, u32)> = want.iter().map(|(s, k)| (s.to_string(), *k)).collect();
    assert_eq!(per_node, want);
    // A blank text node between words separates them.
    let (_, _, b) = page("<p><b>one</b> <b>two</b></p>");
    assert_eq!(b.blocks[0].num_words, 2);
}

#[test]
fn block_element_is_the_nearest_common_ancestor() {
    let (dom, _, b) = page("<div><p>a <b>b</b> <i>c</i></p></div>");
    assert_eq!(b.blocks[0].element as usize, first_element(&dom, "p"));
    let (dom, _, b) = page("<p><b>x <i>y</i></b></p>");
    assert_eq!(b.blocks[0].element as usize, first_element(&dom, "b"));
    let (dom, _, b) = page("<p><b>only</b></p>");
    assert_eq!(b.blocks[0].element as usize, first_element(&dom, "b"));
}

#[test]
fn sentences_words_and_capitals() {
    let (_, _, b) = page("<p>One two. Three four! Five 3.5 six</p>");
    let blk = &b.blocks[0];
    // One two Three four Five 3 5 six; "3.5" is no sentence end (no space after the dot).
    assert_eq!(blk.num_words, 8);
    assert_eq!(blk.num_sentences, 3);
    assert!((blk.avg_sentence_len() - 8.0 / 3.0).abs() < 1e-12);
    assert_eq!(blk.capitalized_words, 3);
    assert_eq!(blk.capitalized_ratio(), 3.0 / 8.0);
    // 3+3+5+4+4+1+1+3 characters.
    assert_eq!(blk.avg_word_len(), 24.0 / 8.0);
    let (_, _, b) = page("<p>Ends with a stop.\"</p><p>No stop</p>");
    assert_eq!(b.blocks[0].num_sentences, 1);
    assert_eq!(b.blocks[1].num_sentences, 1);
    assert_eq!(Block::EMPTY.avg_word_len(), 0.0);
    assert_eq!(Block::EMPTY.capitalized_ratio(), 0.0);
    assert_eq!(Block::EMPTY.link_density(), 0.0);
}

// ---------------------------------------------------------------------------------------
// Text density
// ---------------------------------------------------------------------------------------

fn density_of(text: &str) -> (u32, u32, f64) {
    let (_, _, b) = page(&format!("<p>{text}</p>"));
    assert_eq!(b.blocks.len(), 1, "{text}");
    let blk = &b.blocks[0];
    (
        blk.num_words_in_wrapped_lines,
        blk.num_wrapped_lines,
        blk.text_density(),
    )
}

#[test]
fn text_density_wraps_at_80_columns() {
    // 40 words "abcd", 199 characters. A line of k such words is 5k - 1 columns: 16 words
    // fill 79, the 17th would make 84 > 80 and starts line 2. Lines: 16 + 16 + 8. The last,
    // partial line is left out: ρ = 32 words / 2 lines = 16.
    let text = vec!["abcd"; 40].join(" ");
    assert_eq!(text.len(), 199);
    assert_eq!(density_of(&text), (32, 2, 16.0));

    // One line only: ρ is all words over one line.
    assert_eq!(density_of("a b c"), (3, 1, 3.0));

    // Exactly 80 columns still fits: 15 × "abcd" (74) + " abcde" = 80. "x" wraps (82):
    // one full line of 16 words, the partial line "x" is dropped.
    let fits = format!("{} abcde x", vec!["abcd"; 15].join(" "));
    assert_eq!(density_of(&fits), (16, 1, 16.0));
    // 81 columns does not: "abcdef" starts line 2, so line 1 holds 15 words.
    let over = format!("{} abcdef x", vec!["abcd"; 15].join(" "));
    assert_eq!(density_of(&over), (15, 1, 15.0));

    // boilerpipe's quirk: a first word longer than 80 columns "wraps" an empty line, and
    // TextBlock.initDensities then counts the block as one line holding all its words.
    let long = "w".repeat(100);
    assert_eq!(density_of(&long), (1, 1, 1.0));
    // Punctuation does not take columns (boilerpipe counts only word tokens).
    let punct = vec!["abcd"; 16].join(" -- ");
    assert_eq!(density_of(&punct), (16, 1, 16.0));
}

// ---------------------------------------------------------------------------------------
// Classifier
// ---------------------------------------------------------------------------------------

fn blk(words: u32, linked: u32) -> Block {
    Block {
        num_words: words,
        linked_words: linked,
        ..Block::EMPTY
    }
}

/// prev, curr, next → is curr content?
fn decide(prev: Block, curr: Block, next: Block) -> bool {
    BlockClassifier.is_content(&prev, &curr, &next)
}

#[test]
fn classifier_leaves() {
    // curr.ld = 2/3 > 0.333333 → boilerplate.
    assert!(!decide(blk(50, 0), blk(3, 2), blk(50, 0)));
    // curr.ld 0 ≤ .333333, prev.ld 0 ≤ .555556, curr 10 ≤ 16, next 5 ≤ 15, prev 3 ≤ 4
    // → boilerplate.
    assert!(!decide(blk(3, 0), blk(10, 0), blk(5, 0)));
    // … prev 8 > 4 → content.
    assert!(decide(blk(8, 0), blk(10, 0), blk(5, 0)));
    // … curr 10 ≤ 16, next 30 > 15 → content.
    assert!(decide(blk(0, 0), blk(10, 0), blk(30, 0)));
    // … curr 30 > 16 → content.
    assert!(decide(blk(0, 0), blk(30, 0), blk(0, 0)));
    // curr.ld ≤ .333333, prev.ld 1 > .555556, curr 10 ≤ 40, next 5 ≤ 17 → boilerplate.
    assert!(!decide(blk(4, 4), blk(10, 0), blk(5, 0)));
    // … next 30 > 17 → content.
    assert!(decide(blk(4, 4), blk(10, 0), blk(30, 0)));
    // … curr 60 > 40 → content.
    assert!(decide(blk(4, 4), blk(60, 0), blk(0, 0)));
}

#[test]
fn classifier_thresholds_are_inclusive() {
    let m = 1_000_000;
    // curr.ld exactly 0.333333 passes (≤); curr 10^6 > 16 → content.
    assert!(decide(blk(0, 0), blk(m, 333_333), blk(0, 0)));
    // curr.ld 0.333334 > 0.333333 → boilerplate.
    assert!(!decide(blk(0, 0), blk(m, 333_334), blk(0, 0)));
    // 1/3 is above 0.333333 → boilerplate.
    assert!(!decide(blk(0, 0), blk(30, 10), blk(0, 0)));

    // prev.ld exactly 0.555556 (≤): curr 10 ≤ 16, next 16 > 15 → content.
    assert!(decide(blk(m, 555_556), blk(10, 0), blk(16, 0)));
    // prev.ld 0.555557 (>): curr 10 ≤ 40, next 16 ≤ 17 → boilerplate.
    assert!(!decide(blk(m, 555_557), blk(10, 0), blk(16, 0)));

    // prev.ld 0, next 0 ≤ 15, prev 0 ≤ 4: curr 16 ≤ 16 → boilerplate; curr 17 > 16 → content.
    assert!(!decide(blk(0, 0), blk(16, 0), blk(0, 0)));
    assert!(decide(blk(0, 0), blk(17, 0), blk(0, 0)));

    // prev 0 words, curr 5 ≤ 16: next 15 ≤ 15 → (prev 0 ≤ 4) boilerplate; next 16 → content.
    assert!(!decide(blk(0, 0), blk(5, 0), blk(15, 0)));
    assert!(decide(blk(0, 0), blk(5, 0), blk(16, 0)));

    // curr 5 ≤ 16, next 0 ≤ 15: prev 4 ≤ 4 → boilerplate; prev 5 > 4 → content.
    assert!(!decide(blk(4, 0), blk(5, 0), blk(0, 0)));
    assert!(decide(blk(5, 0), blk(5, 0), blk(0, 0)));

    // prev.ld 1 > .555556, next 0 ≤ 17: curr 40 ≤ 40 → boilerplate; curr 41 → content.
    assert!(!decide(blk(2, 2), blk(40, 0), blk(0, 0)));
    assert!(decide(blk(2, 2), blk(41, 0), blk(0, 0)));

    // prev.ld 1 > .555556, curr 10 ≤ 40: next 17 ≤ 17 → boilerplate; next 18 → content.
    assert!(!decide(blk(2, 2), blk(10, 0), blk(17, 0)));
    assert!(decide(blk(2, 2), blk(10, 0), blk(18, 0)));
}

#[test]
fn classify_uses_empty_blocks_at_the_ends() {
    let c = BlockClassifier;
    assert!(c.classify(&[]).is_empty());
    // Alone, 10 words: prev EMPTY (ld 0, 0 words), next EMPTY (0 ≤ 15), prev 0 ≤ 4 → boilerplate.
    assert_eq!(c.classify(&[blk(10, 0)]), [false]);
    // Alone, 20 words > 16 → content.
    assert_eq!(c.classify(&[blk(20, 0)]), [true]);
    // [nav 2/2, 30 words, 6 words]:
    //  0: ld 1 > .333333 → boilerplate.
    //  1: prev.ld 1 > .555556, 30 ≤ 40, next 6 ≤ 17 → boilerplate.
    //  2: prev.ld 0, 6 ≤ 16, next EMPTY 0 ≤ 15, prev 30 > 4 → content.
    let blocks = [blk(2, 2), blk(30, 0), blk(6, 0)];
    assert_eq!(c.classify(&blocks), [false, false, true]);
    let (p, n) = neighbours(&blocks, 0);
    assert_eq!((p, n.map(|b| b.num_words)), (None, Some(30)));
    let (p, n) = neighbours(&blocks, 2);
    assert_eq!((p.map(|b| b.num_words), n), (Some(30), None));
}

// ---------------------------------------------------------------------------------------
// Content share
// ---------------------------------------------------------------------------------------

#[test]
fn content_share_by_hand() {
    let long = vec!["word"; 41].join(" ");
    let html = format!(
        "<body><div><ul><li><a href=/>Home</a></li><li><a href=/n>News</a></li></ul>\
         <p>{long}</p><p>Short tail of six words here</p></div></body>"
    );
    let (dom, _, b) = page(&html);
    let c = BlockClassifier.classify(&b.blocks);
    // Home (1/1 linked) and News: ld 1 → boilerplate. 41 words: prev.ld 1 > .555556,
    // 41 > 40 → content. Tail: prev.ld 0, 6 ≤ 16, next EMPTY, prev 41 > 4 → content.
    assert_eq!(c, [false, false, true, true]);
    let share = content_share(&dom, &b, &c);
    let li = first_element(&dom, "li");
    let ul = first_element(&dom, "ul");
    let p = first_element(&dom, "p");
    let div = first_element(&dom, "div");
    assert_eq!(share[li], 0.0);
    assert_eq!(share[ul], 0.0);
    assert_eq!(share[p], 1.0);
    assert_eq!(share[p + 1], 1.0, "its text node");
    // 41 + 6 content words of 1 + 1 + 41 + 6.
    assert_eq!(share[div], 47.0 / 49.0);
    assert_eq!(share[first_element(&dom, "body")], 47.0 / 49.0);
    assert_eq!(share[0], 47.0 / 49.0);
    // No words: 0.
    assert_eq!(share[first_element(&dom, "head")], 0.0);
}

// ---------------------------------------------------------------------------------------
// Deep pages
// ---------------------------------------------------------------------------------------

/// document > div > `depth` nested `tag` elements > "deep words here", then " tail" in the div.
fn deep(depth: usize, tag: Tag) -> Dom {
    let mut parts: Vec<(Kind, Tag, u32, &str)> = Vec::with_capacity(depth + 4);
    parts.push((Kind::Document, Tag::NONE, NONE, ""));
    parts.push((Kind::Element, Tag::DIV, 0, ""));
    for k in 0..depth {
        parts.push((Kind::Element, tag, (k + 1) as u32, ""));
    }
    parts.push((Kind::Text, Tag::NONE, (depth + 1) as u32, "deep words here"));
    parts.push((Kind::Text, Tag::NONE, 1, " tail"));
    Dom::from_parts(&parts)
}

#[test]
fn million_deep_pages() {
    const DEPTH: usize = 1_000_000;
    // Inline all the way down: one block whose common ancestor is the div.
    let dom = deep(DEPTH, Tag::SPAN);
    let vis = dom::visibility(&dom);
    let b = segment(&dom, &vis);
    assert_eq!(b.blocks.len(), 1);
    assert_eq!((b.blocks[0].num_words, b.blocks[0].element), (4, 1));
    let c = BlockClassifier.classify(&b.blocks);
    let share = content_share(&dom, &b, &c);
    assert_eq!(share.len(), dom.len());
    // Block elements all the way down: leaving them splits.
    let dom = deep(DEPTH, Tag::DIV);
    let vis = dom::visibility(&dom);
    let b = segment(&dom, &vis);
    assert_eq!(b.blocks.len(), 2);
    assert_eq!(b.blocks[0].element as usize, DEPTH + 1);
}

// ---------------------------------------------------------------------------------------
// Real pages: L3S-GN1 against its gold text
// ---------------------------------------------------------------------------------------

/// Lowercase `\w+` tokens with their counts.
fn bag(text: &str) -> HashMap<String, u32> {
    let mut m = HashMap::new();
    for w in pagelevel::text::words(text) {
        *m.entry(w.to_lowercase()).or_insert(0) += 1;
    }
    m
}

/// Bag-of-words (multiset) F1 of `pred` against `gold`; 1 when both are empty.
fn word_f1(pred: &str, gold: &str) -> f64 {
    let (p, g) = (bag(pred), bag(gold));
    let np: u32 = p.values().sum();
    let ng: u32 = g.values().sum();
    if np == 0 && ng == 0 {
        return 1.0;
    }
    let overlap: u32 = p
        .iter()
        .map(|(w, &k)| k.min(g.get(w).copied().unwrap_or(0)))
        .sum();
    if overlap == 0 {
        return 0.0;
    }
    let (prec, rec) = (overlap as f64 / np as f64, overlap as f64 / ng as f64);
    2.0 * prec * rec / (prec + rec)
}

#[test]
fn word_f1_by_hand() {
    // pred {a, a, b}, gold {a, c}: overlap 1, P 1/3, R 1/2, F1 = 2·(1/6)/(5/6) = 0.4.
    assert!((word_f1("A a b", "a c") - 0.4).abs() < 1e-12);
    assert_eq!(word_f1("", ""), 1.0);
    assert_eq!(word_f1("x", ""), 0.0);
}

/// Mean word F1 of the classifier on L3S-GN1 as measured (0.8996 over 621 pages) minus a
/// margin of 0.02.
const L3S_GN1_F1_FLOOR: f64 = 0.88;

#[test]
fn l3s_gn1_word_f1() {
    // Heavy: a data set on every core.
    let _machine = common::heavy();
    let Some(data) = common::data_or_skip("l3s_gn1_word_f1") else {
        return;
    };
    if !data.join("l3s-gn1/manifest.jsonl").exists() {
        eprintln!("l3s_gn1_word_f1: skipped: l3s-gn1 is absent");
        return;
    }
    let start = Instant::now();
    let m = common::manifest(&data, "l3s-gn1");
    let scores: Vec<f64> = m
        .entries
        .par_iter()
        .filter(|e| e.gold.is_some())
        .map(|e| {
            let path = m.html_path(e);
            let bytes = if path.extension().is_some_and(|x| x == "gz") {
                common::gunzip(&path)
            } else {
                std::fs::read(&path).unwrap()
            };
            let html = pagelevel::decode::decode(&bytes, None).text;
            let dom = dom::parse(&html, &Limits::default()).unwrap();
            let vis = dom::visibility(&dom);
            let blocks = segment(&dom, &vis);
            let content = BlockClassifier.classify(&blocks.blocks);
            let mut text = String::new();
            for (b, &keep) in content.iter().enumerate() {
                if keep {
                    blocks.text_into(&dom, &vis, b, &mut text);
                    text.push('\n');
                }
            }
            let gold_path = m.root.join(e.gold.as_ref().unwrap());
            let gold = String::from_utf8_lossy(&std::fs::read(&gold_path).unwrap()).into_owned();
            word_f1(&text, &gold)
        })
        .collect();
    assert!(!scores.is_empty());
    let mean = scores.iter().sum::<f64>() / scores.len() as f64;
    println!(
        "l3s-gn1: {} pages, mean word F1 {mean:.4} ({:.1?})",
        scores.len(),
        start.elapsed()
    );
    assert!(mean > L3S_GN1_F1_FLOOR, "mean word F1 {mean:.4}");
}
