//! Decisions over the page's text blocks after scoring: Web2Text-style Viterbi decoding and
//! Viveros-Jiménez's tree filter.
//!
//! Both act on boilerpipe's atomic text blocks ([`crate::features::blocks`]) in document order and only
//! change which *text* is template; the node scores and segments stay as scoring and smoothing
//! left them.
//!
//! - **Viterbi** (after Vogels, Ganea, Eickhoff, "Web2Text", ECIR 2018): block k has a
//!   templateness p_k (the word-weighted mean score of its text nodes). Its label costs
//!   0 as content and logit(t) − logit(p_k) as template (t the template threshold, so without
//!   pairwise costs a block is template exactly when p_k ≥ t, as in the node-level decision);
//!   every change of label between consecutive blocks costs λ. The labelling of least total
//!   cost is found exactly by dynamic programming. A single switch penalty λ stands for
//!   Web2Text's learned pairwise potentials: isolated blocks whose evidence is weaker than
//!   2λ take their neighbours' label.
//! - **Tree filter** (after Viveros-Jiménez, Sanchez-Perez, Gelbukh, Sidorov, "Improving the
//!   boilerpipe algorithm for boilerplate removal", MCPR 2017): the content blocks' words are
//!   summed up the DOM tree; the *main node* is the deepest node holding at least a share σ
//!   (> ½) of all content words (and, ours, at least two content blocks: one long paragraph is
//!   not the article). Content blocks outside the main node's subtree with fewer
//!   than `keep_words` words are dropped (made template): isolated snippets far from the main
//!   content (a teaser in a sidebar, a caption in the footer) go, long passages stay. Our
//!   addition: when the page's title is kept ([`title_anchor`]) and comes before the main
//!   node, the blocks from the title to the main node in document order stay too, so a
//!   headline, byline and dateline above the article body are not dropped with the sidebars.
//!   Also ours: code blocks (`<pre>`, `<code>`, `<xmp>`) inside the main node are kept
//!   ([`keep_code`]): a long listing is short lines of symbols, which every text feature
//!   reads as template, and it is the content of a documentation page.
//!
//! The tree filter, anchored so, is the default decoding (`Variant::TreeFilter`): out of fold
//! (`docs/quality.md`, "The title-anchored tree filter") it is above Smooth on five sets and
//! level on l3s-gn1.
//! Without the anchor it dropped news pages' headlines (l3s-gn1 −0.010 with the 2026-11-24
//! model). Viterbi is not: it gains on news pages and loses forums and listings.

use crate::dom::{Dom, Kind, NONE};
use crate::features::blocks::Blocks;
use crate::features::PageFeatures;

/// Default switch penalty λ of the Viterbi decoding (in nats).
pub const DEFAULT_SWITCH_PENALTY: f64 = 1.0;
/// Default share σ of content words the tree filter's main node must hold.
pub const DEFAULT_TREE_SHARE: f32 = 0.75;
/// Default size (words) from which a content block outside the main node is kept anyway.
pub const DEFAULT_TREE_KEEP_WORDS: u32 = 40;
/// Whether text node `t` is kept as content: scored (`y` not NaN) and not `template`.
fn kept(y: &[f32], template: &[bool], t: usize) -> bool {
    !template[t] && !y[t].is_nan()
}

/// Whether some text node of `h`'s subtree is [`kept`]. O(size of the subtree).
fn has_kept_text(dom: &Dom, y: &[f32], template: &[bool], h: usize) -> bool {
    (h..dom.node(h).end as usize).any(|t| dom.node(t).kind == Kind::Text && kept(y, template, t))
}

/// Scores are clamped to [ε, 1 − ε] before the logit so that 0 and 1 stay finite.
const EPS: f64 = 1e-3;

/// The least-cost labelling of a chain: `unary[k] = [cost as content, cost as template]`,
/// `pair[a][b]` the cost of label `a` followed by label `b` (0 = content, 1 = template).
/// Returns per position whether it is template; ties go to content.
///
/// # Complexity
/// O(n·4) time and O(n) space for n positions (two states, four transitions each).
pub fn viterbi(unary: &[[f64; 2]], pair: &[[f64; 2]; 2]) -> Vec<bool> {
    let n = unary.len();
    if n == 0 {
        return Vec::new();
    }
    // back[k][s]: best previous label when position k has label s.
    let mut back = vec![[0u8; 2]; n];
    let mut cost = unary[0];
    for k in 1..n {
        let mut next = [0.0; 2];
        for s in 0..2 {
            let (c0, c1) = (cost[0] + pair[0][s], cost[1] + pair[1][s]);
            let (best, from) = if c1 < c0 { (c1, 1) } else { (c0, 0) };
            next[s] = best + unary[k][s];
            back[k][s] = from;
        }
        cost = next;
    }
    let mut labels = vec![false; n];
    let mut s = usize::from(cost[1] < cost[0]);
    for k in (0..n).rev() {
        labels[k] = s == 1;
        s = back[k][s] as usize;
    }
    labels
}

/// logit(p) with p clamped to [ε, 1 − ε].
fn logit(p: f64) -> f64 {
    let p = p.clamp(EPS, 1.0 - EPS);
    (p / (1.0 - p)).ln()
}

/// The text nodes of block `b` (visible, holding words or not).
fn block_nodes<'a>(blocks: &'a Blocks, b: usize) -> impl Iterator<Item = usize> + 'a {
    let block = &blocks.blocks[b];
    let (first, last) = (block.first_node as usize, block.last_node as usize);
    (first..=last).filter(move |&t| blocks.block_of[t] == b as u32)
}

/// Per block, its templateness: the mean of `y` over its text nodes weighted by their words
/// (unweighted when none has words); `None` when no text node has a score (outside `<body>`).
///
/// # Complexity
/// O(nodes spanned by the blocks).
pub(crate) fn block_scores(blocks: &Blocks, y: &[f32]) -> Vec<Option<f64>> {
    (0..blocks.blocks.len())
        .map(|b| {
            let (mut sw, mut s, mut n, mut plain) = (0.0, 0.0, 0, 0.0);
            for t in block_nodes(blocks, b) {
                if y[t].is_nan() {
                    continue;
                }
                let w = blocks.words_of[t] as f64;
                sw += w;
                s += w * y[t] as f64;
                n += 1;
                plain += y[t] as f64;
            }
            match (n, sw > 0.0) {
                (0, _) => None,
                (_, true) => Some(s / sw),
                (_, false) => Some(plain / n as f64),
            }
        })
        .collect()
}

/// Relabels the text of every scored block by the Viterbi decoding of the block sequence
/// (scores `y`, threshold `threshold`, switch penalty `lambda`), writing the decision into
/// `template` for the block's text nodes. Blocks without a score are left alone and do not
/// break the chain.
///
/// # Complexity
/// O(n) for n nodes: one pass over the blocks' nodes and the O(blocks·4) decoding.
pub(crate) fn decode_blocks(
    blocks: &Blocks,
    y: &[f32],
    threshold: f32,
    lambda: f64,
    template: &mut [bool],
) {
    let scores = block_scores(blocks, y);
    let scored: Vec<usize> = (0..scores.len()).filter(|&b| scores[b].is_some()).collect();
    let bias = logit(threshold as f64);
    let unary: Vec<[f64; 2]> = scored
        .iter()
        .map(|&b| [0.0, bias - logit(scores[b].unwrap_or(0.0))])
        .collect();
    let labels = viterbi(&unary, &[[0.0, lambda], [lambda, 0.0]]);
    for (&b, &l) in scored.iter().zip(&labels) {
        for t in block_nodes(blocks, b) {
            template[t] = l;
        }
    }
}

/// The node the tree filter's main node must hold: the page's title heading
/// ([`PageFeatures::title_heading`]) when some of its text is kept, else the kept visible text
/// node sharing the most distinct `<title>` words, at least two and at least half of them (the
/// first in document order on ties; headlines of older pages are often a `<b>` or a table
/// cell, not an h1–h3). `None` when neither exists. Kept: scored (`y` not NaN), not
/// `template`.
///
/// # Complexity
/// O(n): one pass over the text nodes (title words are a per-node bitmask count).
pub fn title_anchor(dom: &Dom, pf: &PageFeatures, y: &[f32], template: &[bool]) -> Option<usize> {
    if let Some(h) = pf.title_heading {
        if has_kept_text(dom, y, template, h) {
            return Some(h);
        }
    }
    let need = pf.title_words.div_ceil(2).max(2);
    let mut best: Option<(u32, usize)> = None;
    for t in (0..dom.len())
        .filter(|&t| dom.node(t).kind == Kind::Text && pf.visible[t] && kept(y, template, t))
    {
        let k = pf.counts[t].title_mask.count_ones();
        if k >= need && best.is_none_or(|(b, _)| k > b) {
            best = Some((k, t));
        }
    }
    best.map(|(_, t)| t)
}

/// Viveros-Jiménez's tree filter (see the [module docs](self)): a block is content when most
/// of its words are in scored text nodes (`y` not NaN) that `template` does not flag; the main
/// node is the deepest node holding `share` of the content words and at least two content
/// blocks (any node holding the share on a page of one content block); content blocks outside the
/// main node with fewer than `keep_words` words become template (their text nodes flagged).
/// `share` is clamped to [0.51, 1] so that the nodes holding it form one chain from the root.
/// With an `anchor` node (the page's title, [`title_anchor`]) that has kept text and starts
/// before the main node, blocks whose element lies from the anchor to the main node in
/// document order are kept as if inside it.
/// Returns the main node, `None` when the page has no content words.
///
/// # Complexity
/// O(n) for n nodes: block words summed bottom-up in reverse preorder, no recursion.
pub fn tree_filter(
    dom: &Dom,
    blocks: &Blocks,
    y: &[f32],
    share: f32,
    keep_words: u32,
    anchor: Option<usize>,
    template: &mut [bool],
) -> Option<usize> {
    let n = dom.len();
    let content: Vec<bool> = (0..blocks.blocks.len())
        .map(|b| {
            let (mut kept_words, mut all) = (0u32, 0u32);
            for t in block_nodes(blocks, b) {
                all += blocks.words_of[t];
                if kept(y, template, t) {
                    kept_words += blocks.words_of[t];
                }
            }
            all > 0 && 2 * kept_words > all
        })
        .collect();
    // Per node, the content words and content blocks of its subtree.
    let mut words = vec![0u64; n];
    let mut count = vec![0u32; n];
    for (b, block) in blocks.blocks.iter().enumerate() {
        if content[b] && block.element != NONE {
            words[block.element as usize] += block.num_words as u64;
            count[block.element as usize] += 1;
        }
    }
    for i in (1..n).rev() {
        if let Some(p) = dom.parent(i) {
            words[p] += words[i];
            count[p] += count[i];
        }
    }
    let total: u64 = (0..n)
        .filter(|&i| dom.parent(i).is_none())
        .map(|i| words[i])
        .sum();
    if total == 0 {
        return None;
    }
    let need = share.clamp(0.51, 1.0) as f64 * total as f64;
    // Nodes holding more than half the words lie on one root path; in preorder the deepest
    // of them has the largest index. The main node is a container: one long paragraph holding
    // the share alone would cut the short paragraphs around it from their own article.
    let holds = |i: usize| words[i] as f64 >= need;
    let main = (0..n)
        .rev()
        .find(|&i| holds(i) && count[i] >= 2)
        .or_else(|| (0..n).rev().find(|&i| holds(i)))?;
    // Blocks from a kept title down to the main node (headline, byline, dateline, lead) stay.
    let lead = anchor.filter(|&h| h < main && has_kept_text(dom, y, template, h));
    let end = dom.node(main).end as usize;
    for (b, block) in blocks.blocks.iter().enumerate() {
        let e = block.element as usize;
        let inside = block.element != NONE
            && ((main..end).contains(&e) || lead.is_some_and(|h| (h..main).contains(&e)));
        if content[b] && !inside && block.num_words < keep_words {
            for t in block_nodes(blocks, b) {
                if dom.node(t).kind == Kind::Text {
                    template[t] = true;
                }
            }
        }
    }
    Some(main)
}

/// Keeps the code blocks of the main node: the visible text of every visible `<pre>`, `<code>`
/// or `<xmp>` element in `main`'s subtree, when scored (`y` not NaN), is un-flagged in
/// `template`. Run after [`tree_filter`], on the main node it returns.
///
/// # Complexity
/// O(size of `main`'s subtree): one preorder walk that skips each code block's subtree.
pub fn keep_code(dom: &Dom, visible: &[bool], y: &[f32], main: usize, template: &mut [bool]) {
    let end = dom.node(main).end as usize;
    let mut i = main;
    while i < end {
        let node = dom.node(i);
        let code = node.kind == Kind::Element && visible[i] && node.tag.is_code();
        if !code {
            i += 1;
            continue;
        }
        let e = node.end as usize;
        for t in i..e {
            if dom.node(t).kind == Kind::Text && visible[t] && !y[t].is_nan() {
                template[t] = false;
            }
        }
        i = e;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Unary costs [0, −d] for evidence d = logit(p) − logit(t) in favour of template.
    fn chain(d: &[f64]) -> Vec<[f64; 2]> {
        d.iter().map(|&d| [0.0, -d]).collect()
    }

    fn switch(l: f64) -> [[f64; 2]; 2] {
        [[0.0, l], [l, 0.0]]
    }

    #[test]
    fn no_switch_penalty_is_the_pointwise_decision() {
        let d = [2.0, -1.0, 0.5, -0.2, 3.0];
        assert_eq!(
            viterbi(&chain(&d), &switch(0.0)),
            vec![true, false, true, false, true]
        );
    }

    #[test]
    fn switch_penalty_flips_an_isolated_block() {
        // Labels C C T C C by evidence; block 2 has template evidence 1.5.
        // Keeping it template costs −1.5 + 2λ; flipping it to content costs 0.
        // λ = 0.5: −1.5 + 1 = −0.5 < 0, kept. λ = 1: −1.5 + 2 = 0.5 > 0, flipped.
        let d = [-2.0, -3.0, 1.5, -2.5, -1.0];
        assert_eq!(
            viterbi(&chain(&d), &switch(0.5)),
            vec![false, false, true, false, false]
        );
        assert_eq!(viterbi(&chain(&d), &switch(1.0)), vec![false; 5]);
    }

    #[test]
    fn worked_five_block_optimum() {
        // d = [3, 1, −0.5, −0.4, 2], λ = 0.8. Candidates (cost = −Σ_T d + λ·switches):
        //   T T C C T: −3 −1 −2 + 1.6 = −4.4
        //   T T T T T: −3 −1 +0.5 +0.4 −2 = −5.1
        //   T T C C C: −4 + 0.8 = −3.2
        //   T C C C T: −3 −2 + 1.6 = −3.4
        //   T T T C T: −5.5 + 1.6 = −3.9,  T T C T T: −5.6 + 1.6 = −4.0
        // (starting with C or a third switch only loses), so all template (−5.1) is optimal;
        // with λ = 0.4 the dip is cut out: T T C C T costs −6 + 0.8 = −5.2 < −5.1.
        let d = [3.0, 1.0, -0.5, -0.4, 2.0];
        assert_eq!(viterbi(&chain(&d), &switch(0.8)), vec![true; 5]);
        assert_eq!(
            viterbi(&chain(&d), &switch(0.4)),
            vec![true, true, false, false, true]
        );
    }

    #[test]
    fn asymmetric_transitions_and_edges() {
        // Entering template is free, leaving it costs 5: once template, stay template unless
        // the content evidence after it exceeds 5.
        let pair = [[0.0, 0.0], [5.0, 0.0]];
        let d = [-1.0, 2.0, -3.0, -1.0];
        // C T T T: 1·0 … cost = −2 +3 +1 = 2; C T C C: −2 + 5 = 3; C C C C: 0.
        assert_eq!(viterbi(&chain(&d), &pair), vec![false; 4]);
        assert_eq!(viterbi(&[], &pair), Vec::<bool>::new());
        assert_eq!(viterbi(&chain(&[0.7]), &pair), vec![true]);
        // A tie (d = 0) goes to content.
        assert_eq!(viterbi(&chain(&[0.0]), &pair), vec![false]);
    }

    #[test]
    fn logit_threshold_matches_the_pointwise_rule() {
        let t = 0.3;
        for p in [0.1f64, 0.29, 0.31, 0.9] {
            let d = logit(p) - logit(t);
            assert_eq!(viterbi(&chain(&[d]), &switch(0.0))[0], p >= t, "p = {p}");
        }
    }

    use crate::dom::{parse, visibility};
    use crate::features::blocks::segment as blocks_of;
    use crate::Limits;

    fn words(k: usize) -> String {
        vec!["word"; k].join(" ")
    }

    /// The page, its blocks, and per `id`, the text node inside the element with that id.
    fn page(html: &str) -> (Dom, Blocks, Vec<(String, usize)>) {
        let dom = parse(html, &Limits::default()).unwrap();
        let blocks = blocks_of(&dom, &visibility(&dom));
        let texts = (0..dom.len())
            .filter(|&t| dom.node(t).kind == Kind::Text)
            .filter_map(|t| {
                let id = dom.attr(dom.parent(t)?, "id")?;
                Some((id.to_string(), t))
            })
            .collect();
        (dom, blocks, texts)
    }

    fn text_of(texts: &[(String, usize)], id: &str) -> usize {
        texts.iter().find(|(i, _)| i == id).unwrap().1
    }

    /// Runs the tree filter (σ = 0.75, 10 words, every score 0) on `template`; the main node's
    /// id and the flags of the text inside the elements `ids`.
    fn filtered<'a>(
        (dom, blocks, texts): &'a (Dom, Blocks, Vec<(String, usize)>),
        anchor: Option<usize>,
        template: &mut [bool],
        ids: &[&str],
    ) -> (Option<&'a str>, Vec<bool>) {
        let y = vec![0.0f32; dom.len()];
        let main = tree_filter(dom, blocks, &y, 0.75, 10, anchor, template);
        let flags = ids.iter().map(|id| template[text_of(texts, id)]).collect();
        (main.and_then(|m| dom.attr(m, "id")), flags)
    }

    #[test]
    fn viterbi_on_a_page_flips_an_isolated_paragraph() {
        let html: String = (0..5)
            .map(|k| format!("<p id=p{k}>{}</p>", words(3)))
            .collect();
        let (dom, blocks, texts) = page(&format!("<body>{html}</body>"));
        assert_eq!(blocks.blocks.len(), 5);
        let mut y = vec![f32::NAN; dom.len()];
        for (k, p) in [0.1, 0.2, 0.7, 0.1, 0.2].into_iter().enumerate() {
            y[text_of(&texts, &format!("p{k}"))] = p;
        }
        // Block 2's evidence: logit(0.7) − logit(0.5) = 0.847 nats; it stays template while
        // 2λ < 0.847.
        let decide = |lambda: f64| {
            let mut template = vec![false; dom.len()];
            decode_blocks(&blocks, &y, 0.5, lambda, &mut template);
            (0..5)
                .map(|k| template[text_of(&texts, &format!("p{k}"))])
                .collect::<Vec<_>>()
        };
        assert_eq!(decide(0.3), vec![false, false, true, false, false]);
        assert_eq!(decide(0.5), vec![false; 5]);
    }

    #[test]
    fn tree_filter_drops_short_content_outside_the_main_node() {
        // Content words: side teaser 5, side passage 12, main 30 + 30, footer 3 = 80.
        // σ = 0.75 needs 60: div#main holds exactly 60, its paragraphs 30 each, so it is the
        // main node. Outside it, blocks under 10 words go (teaser, footer), the passage stays.
        let html = format!(
            "<body><div id=side><p id=teaser>{}</p><p id=passage>{}</p></div>\
             <div id=main><p id=a>{}</p><p id=b>{}</p></div><div id=foot><p id=f>{}</p></div></body>",
            words(5),
            words(12),
            words(30),
            words(30),
            words(3)
        );
        let (dom, blocks, texts) = page(&html);
        let y = vec![0.0f32; dom.len()];
        let mut template = vec![false; dom.len()];
        let main = tree_filter(&dom, &blocks, &y, 0.75, 10, None, &mut template);
        assert_eq!(main.and_then(|m| dom.attr(m, "id")), Some("main"));
        let flags: Vec<bool> = ["teaser", "passage", "a", "b", "f"]
            .iter()
            .map(|id| template[text_of(&texts, id)])
            .collect();
        assert_eq!(flags, vec![true, false, false, false, true]);

        // With paragraph a already template, content is 5 + 12 + 30 + 3 = 50 and σ needs 37.5:
        // only <body> holds it, every block is inside, nothing more is dropped.
        let mut template = vec![false; dom.len()];
        template[text_of(&texts, "a")] = true;
        let main = tree_filter(&dom, &blocks, &y, 0.75, 10, None, &mut template);
        assert_eq!(main, dom.body());
        let flags: Vec<bool> = ["teaser", "passage", "a", "b", "f"]
            .iter()
            .map(|id| template[text_of(&texts, id)])
            .collect();
        assert_eq!(flags, vec![false, false, true, false, false]);

        // No content at all: no main node, nothing changes.
        let mut all = vec![true; dom.len()];
        assert_eq!(
            tree_filter(&dom, &blocks, &y, 0.75, 10, None, &mut all),
            None
        );
        assert!(all.iter().all(|&t| t));
    }

    #[test]
    fn one_long_paragraph_is_not_the_main_node() {
        // Content words: title 2, long 60, short 5, side 3 = 70; σ = 0.75 needs 52.5. The long
        // paragraph holds it alone but is one block: the main node is the article around it,
        // so the article's short paragraph stays and only the sidebar's snippet goes.
        let html = format!(
            "<body><article id=art><h2 id=t>{}</h2><p id=long>{}</p><p id=short>{}</p></article>\
             <div id=side><p id=x>{}</p></div></body>",
            words(2),
            words(60),
            words(5),
            words(3)
        );
        let p = page(&html);
        let (main, flags) = filtered(
            &p,
            None,
            &mut vec![false; p.0.len()],
            &["t", "long", "short", "x"],
        );
        assert_eq!(main, Some("art"));
        assert_eq!(flags, vec![false, false, false, true]);
        // A page of one content block: that block's element is the main node.
        let p = page(&format!("<body><p id=only>{}</p></body>", words(20)));
        let (main, _) = filtered(&p, None, &mut vec![false; p.0.len()], &[]);
        assert_eq!(main, Some("only"));
    }

    #[test]
    fn a_kept_title_keeps_the_blocks_down_to_the_main_node() {
        // Content words: teaser 5, title 2, byline 3, main 30 + 30, footer 3 = 73; σ = 0.75
        // needs 54.75, which div#main (60) holds. Alone, the filter drops every block under 10
        // words outside it. Anchored at the kept h1, the title and the byline (between the h1
        // and div#main in document order) stay; the teaser before the title and the footer
        // after the main node still go.
        let html = format!(
            "<body><div id=side><p id=teaser>{}</p></div>\
             <div id=top><div id=head><h1 id=title>{}</h1><p id=byline>{}</p></div>\
             <div id=main><p id=a>{}</p><p id=b>{}</p></div></div><div id=foot><p id=f>{}</p></div></body>",
            words(5),
            words(2),
            words(3),
            words(30),
            words(30),
            words(3)
        );
        let p = page(&html);
        let (dom, _, texts) = &p;
        let h1 = dom.parent(text_of(texts, "title")).unwrap();
        let ids = ["teaser", "title", "byline", "a", "b", "f"];
        let run =
            |anchor: Option<usize>, template: &mut Vec<bool>| filtered(&p, anchor, template, &ids);
        let (main, flags) = run(None, &mut vec![false; dom.len()]);
        assert_eq!(main, Some("main"));
        assert_eq!(flags, vec![true, true, true, false, false, true]);
        let (main, flags) = run(Some(h1), &mut vec![false; dom.len()]);
        assert_eq!(main, Some("main"));
        assert_eq!(flags, vec![true, false, false, false, false, true]);
        // A title judged template anchors nothing.
        let mut template = vec![false; dom.len()];
        template[text_of(texts, "title")] = true;
        let (main, flags) = run(Some(h1), &mut template);
        assert_eq!(main, Some("main"));
        assert_eq!(flags, vec![true, true, true, false, false, true]);
        // An anchor inside or after the main node changes nothing.
        let a = dom.parent(text_of(texts, "a")).unwrap();
        let f = dom.parent(text_of(texts, "f")).unwrap();
        for anchor in [a, f] {
            let (_, flags) = run(Some(anchor), &mut vec![false; dom.len()]);
            assert_eq!(flags, vec![true, true, true, false, false, true]);
        }
    }

    #[test]
    fn the_title_anchor_is_the_title_heading_or_the_text_sharing_the_title() {
        use crate::features::{compute, FeatureOptions};
        let at = |html: &str, template_first: bool| {
            let dom = parse(html, &Limits::default()).unwrap();
            let pf = compute(&dom, None, &FeatureOptions::default());
            let y = vec![0.0f32; dom.len()];
            let mut template = vec![false; dom.len()];
            if template_first {
                let t = (0..dom.len())
                    .find(|&t| dom.node(t).kind == Kind::Text && pf.visible[t])
                    .unwrap();
                template[t] = true;
            }
            title_anchor(&dom, &pf, &y, &template).map(|a| (dom.node(a).kind, a, dom))
        };
        let body = "<p>Other words about nothing in particular at all here.</p>";
        // An h2 sharing the title's words is the title heading: the anchor is the element.
        let (kind, a, dom) = at(
            &format!("<title>Big storm hits coast</title><h2>Big storm hits the coast</h2>{body}"),
            false,
        )
        .unwrap();
        assert_eq!(
            (kind, dom.node(a).tag),
            (Kind::Element, crate::dom::Tag::H2)
        );
        // Without a heading, the text node with the most title words (here all 4 of 4).
        let (kind, a, dom) = at(
            &format!("<title>Big storm hits coast</title><b>Big storm hits coast</b>{body}"),
            false,
        )
        .unwrap();
        assert_eq!(kind, Kind::Text);
        assert_eq!(dom.text(a).trim(), "Big storm hits coast");
        // Fewer than half the title's words, or the only candidate judged template: none.
        assert!(at(
            &format!("<title>Big storm hits coast</title><b>Storm news</b>{body}"),
            false
        )
        .is_none());
        assert!(at(
            &format!("<title>Big storm hits coast</title><b>Big storm hits coast</b>{body}"),
            true
        )
        .is_none());
    }

    #[test]
    fn code_blocks_of_the_main_node_are_kept() {
        // Content words: main 30 + 30, side 5 = 65; σ = 0.75 needs 48.75, div#main holds 60.
        // The classifier flagged both listings and the hidden one; only the visible code
        // inside div#main comes back (the pre, the inline code of paragraph b), the sidebar's
        // pre and the display:none pre stay template.
        let html = format!(
            "<body><div id=main><p id=a>{}</p><pre id=code>fn main() {{}}</pre><p>{}              <code id=inline>x += 1</code></p><pre id=hidden style=display:none>ls -l</pre></div>             <div id=side><p id=s>{}</p><pre id=sidecode>$ make</pre></div></body>",
            words(30),
            words(30),
            words(5)
        );
        let (dom, blocks, texts) = page(&html);
        let ids = ["code", "inline", "hidden", "sidecode", "a"];
        let mut template = vec![false; dom.len()];
        for id in &ids[..4] {
            template[text_of(&texts, id)] = true;
        }
        let y = vec![0.0f32; dom.len()];
        let main = tree_filter(&dom, &blocks, &y, 0.75, 10, None, &mut template).unwrap();
        assert_eq!(dom.attr(main, "id"), Some("main"));
        keep_code(&dom, &visibility(&dom), &y, main, &mut template);
        let flags: Vec<bool> = ids.iter().map(|id| template[text_of(&texts, id)]).collect();
        assert_eq!(flags, vec![false, false, true, true, false]);
        // Text outside the body (y NaN) is never made content.
        let mut template = vec![true; dom.len()];
        keep_code(
            &dom,
            &visibility(&dom),
            &vec![f32::NAN; dom.len()],
            main,
            &mut template,
        );
        assert!(template.iter().all(|&t| t));
    }

    #[test]
    fn viterbi_then_tree_filter_composes() {
        // Blocks in order: teaser 5 words (p 0.2), a 30 (0.1), x 3 (0.7), b 30 (0.1), foot 3 (0.2).
        let html = format!(
            "<body><div id=side><p id=teaser>{}</p></div><div id=main><p id=a>{}</p>\
             <p id=x>{}</p><p id=b>{}</p></div><div id=foot><p id=f>{}</p></div></body>",
            words(5),
            words(30),
            words(3),
            words(30),
            words(3)
        );
        let (dom, blocks, texts) = page(&html);
        let ids = ["teaser", "a", "x", "b", "f"];
        let mut y = vec![f32::NAN; dom.len()];
        for (id, p) in ids.iter().zip([0.2, 0.1, 0.7, 0.1, 0.2]) {
            y[text_of(&texts, id)] = p;
        }
        let pointwise = || {
            let mut t = vec![false; dom.len()];
            t[text_of(&texts, "x")] = true;
            t
        };
        let flags = |t: &[bool]| {
            ids.iter()
                .map(|id| t[text_of(&texts, id)])
                .collect::<Vec<_>>()
        };
        // Tree filter alone: content 5 + 30 + 30 + 3 = 68, σ = 0.75 needs 51, div#main holds
        // 60; teaser and foot (< 10 words) outside it go, x stays template.
        let mut alone = pointwise();
        tree_filter(&dom, &blocks, &y, 0.75, 10, None, &mut alone);
        assert_eq!(flags(&alone), vec![true, false, true, false, true]);
        // Viterbi first (λ = 0.5 > logit(0.7)/2 = 0.42) makes x content; the filter then sees
        // 71 content words (needs 53.25, div#main holds 63) and drops the same two blocks.
        let mut both = pointwise();
        decode_blocks(&blocks, &y, 0.5, 0.5, &mut both);
        assert_eq!(flags(&both), vec![false; 5]);
        let main = tree_filter(&dom, &blocks, &y, 0.75, 10, None, &mut both);
        assert_eq!(main.and_then(|m| dom.attr(m, "id")), Some("main"));
        assert_eq!(flags(&both), vec![true, false, false, false, true]);
    }
}
