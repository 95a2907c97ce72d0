//! Node labels from gold text: align the page's words with the gold main text, in order.
//!
//! The page's visible words (lowercase `\w+` tokens, document order) and the gold text's words
//! are aligned by a patience diff (the `similar` crate): unique words anchor the alignment
//! and Myers' algorithm fills the gaps, so repeated phrases ("Read more", a headline repeated
//! in a teaser) align with the occurrence in the right place rather than the first one, and
//! small edits cost only the edited words. A page word is *aligned* when the diff keeps it.
//! A node's content share is the fraction of its visible words that are aligned.

use std::collections::HashMap;
use std::time::Duration;

use similar::{capture_diff_slices_deadline, Algorithm, DiffOp};

use crate::dom::{Dom, Kind};
use crate::text::words;

/// Longest time one page's diff may take before falling back to a coarser alignment. A guard
/// against pathological inputs only: the slowest page of the shared data sets takes under
/// 0.1 s even on a loaded machine, and a wall-clock limit a page could reach would make
/// training depend on the machine's load.
pub const DEADLINE: Duration = Duration::from_secs(10);

/// The alignment of one page with its gold text.
#[derive(Debug, Clone)]
pub struct Alignment {
    /// Per node: visible words in its subtree.
    pub words: Vec<u32>,
    /// Per node: aligned words in its subtree.
    pub aligned: Vec<u32>,
    /// Gold words.
    pub gold_words: u32,
}

impl Alignment {
    /// Fraction of node `i`'s words that are aligned with gold, or `None` without words.
    pub fn share(&self, i: usize) -> Option<f32> {
        (self.words[i] > 0).then(|| self.aligned[i] as f32 / self.words[i] as f32)
    }
}

/// Aligns the visible text of `dom` with `gold`.
///
/// # Complexity
/// O(n + t) to tokenise, plus the diff: O((P + G)·D) for P page words, G gold words and D
/// differing words in the worst case, bounded by [`DEADLINE`].
pub fn align(dom: &Dom, visible: &[bool], gold: &str) -> Alignment {
    let n = dom.len();
    let mut ids: HashMap<String, u32> = HashMap::new();
    let mut intern = |w: &str| {
        let w = w.to_lowercase();
        let k = ids.len() as u32;
        *ids.entry(w).or_insert(k)
    };
    let mut page: Vec<u32> = Vec::new();
    let mut owner: Vec<u32> = Vec::new();
    let mut words_of = vec![0u32; n];
    for i in 0..n {
        if dom.node(i).kind == Kind::Text && visible[i] {
            for w in words(dom.text(i)) {
                page.push(intern(w));
                owner.push(i as u32);
                words_of[i] += 1;
            }
        }
    }
    let gold_ids: Vec<u32> = words(gold).map(&mut intern).collect();
    let mut aligned_of = vec![0u32; n];
    let ops = capture_diff_slices_deadline(
        Algorithm::Patience,
        &page,
        &gold_ids,
        Some(std::time::Instant::now() + DEADLINE),
    );
    for op in ops {
        if let DiffOp::Equal { old_index, len, .. } = op {
            for &o in &owner[old_index..old_index + len] {
                aligned_of[o as usize] += 1;
            }
        }
    }
    for i in (1..n).rev() {
        let p = dom.node(i).parent as usize;
        words_of[p] += words_of[i];
        aligned_of[p] += aligned_of[i];
    }
    Alignment {
        words: words_of,
        aligned: aligned_of,
        gold_words: gold_ids.len() as u32,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dom::{parse, visibility};

    fn shares(html: &str, gold: &str) -> Vec<(String, Option<f32>)> {
        let dom = parse(html, &crate::Limits::default()).unwrap();
        let a = align(&dom, &visibility(&dom), gold);
        (0..dom.len())
            .filter(|&i| dom.attr(i, "id").is_some())
            .map(|i| (dom.attr(i, "id").unwrap().to_string(), a.share(i)))
            .collect()
    }

    #[test]
    fn repeated_phrase_aligns_in_place() {
        // "Read more" occurs in the nav teaser and at the end of the article; gold has it once,
        // after the article's words, so only the article's copy aligns.
        let html = "<body><div id=nav>Home Read more</div><div id=art>Storm hits coast. Read more</div></body>";
        let s = shares(html, "Storm hits coast. Read more");
        assert_eq!(s[0], ("nav".into(), Some(0.0)));
        assert_eq!(s[1], ("art".into(), Some(1.0)));
    }

    #[test]
    fn small_edits_cost_only_the_edit() {
        let html =
            "<body><p id=p>the quick brown fox jumps over the lazy dog</p><p id=q>menu</p></body>";
        // Gold has one word changed: 8 of 9 page words align.
        let s = shares(html, "the quick brown cat jumps over the lazy dog");
        assert_eq!(s[0].1, Some(8.0 / 9.0));
        assert_eq!(s[1].1, Some(0.0));
    }

    #[test]
    fn case_and_punctuation_are_ignored_and_hidden_text_is_not_counted() {
        let html = "<body><h1 id=h>BIG News!</h1><p id=p style='display:none'>big news</p></body>";
        let s = shares(html, "big news");
        assert_eq!(s[0].1, Some(1.0));
        assert_eq!(s[1].1, None);
    }
}
