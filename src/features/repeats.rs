//! Repeated passages: the later copies of a multi-block passage, which the `repeats` rule drops
//! from the main text and the `in_repeat` feature marks.
//!
//! Pages often carry one passage twice: a desktop and a mobile copy of a section, or the
//! cloned slides of a carousel, of which a browser shows one. Both copies score alike, so
//! both are kept, and the main text says everything twice. [`drop_repeats`] keeps the first
//! copy: an element whose kept words, in order, equal those of an earlier element outside it
//! loses its text, when both are passages: at least `min_words` (the rules' `min_repeat_words`) words in at least two of
//! boilerpipe's text blocks, and no preformatted text (code samples repeat on purpose). A
//! paragraph repeated on its own is one block and stays, as do repeats inside one element
//! (its own text is never compared with itself) and copies inside a tab panel
//! (`role=tabpanel`: each tab is a view the reader picks, and documentation repeats its
//! set-up steps in every language's tab).
//!
//! Candidates are found without reading the text: an element's key hashes the shape of its
//! kept text nodes in order (words and trimmed length of each, from counts the pipeline has),
//! and only a key seen before makes the two copies' words be compared.

use crate::dom::{is_tab_panel_role, Dom, Kind, Tag, NONE};
use crate::features::blocks::Blocks;
use rustc_hash::FxHashMap;

/// Words a repeated passage has at least (the `repeats` rule's default `min_repeat_words`).
pub const MIN_REPEAT_WORDS: u32 = 10;

/// Base of the polynomial sequence hash (odd, so powers stay invertible mod 2⁶⁴).
const BASE: u64 = 0x100_0000_01b3;

/// A subtree's kept text: a hash of its text nodes' shapes in order, its word count, its
/// first and last text block and how many blocks it spans, and whether it holds
/// preformatted text.
#[derive(Clone, Copy)]
struct Summary {
    hash: u64,
    /// BASE^(text nodes), to append another sequence after this one.
    power: u64,
    /// Bytes of its kept text nodes, trimmed: what comparing it reads.
    bytes: u64,
    words: u32,
    first_block: u32,
    last_block: u32,
    blocks: u32,
    pre: bool,
}

const EMPTY: Summary = Summary {
    hash: 0,
    power: 1,
    bytes: 0,
    words: 0,
    first_block: NONE,
    last_block: NONE,
    blocks: 0,
    pre: false,
};

impl Summary {
    /// One kept text node: `words` starting in it, `len` bytes once trimmed, in `block`.
    fn text(words: u32, len: usize, block: u32) -> Summary {
        // A multiply-xorshift mix, so shapes are not a linear function of the counts.
        let mut x = ((words as u64) << 32 | len as u64).wrapping_add(0x9e37_79b9_7f4a_7c15);
        x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        Summary {
            hash: x ^ (x >> 31),
            power: BASE,
            bytes: len as u64,
            words,
            first_block: block,
            last_block: block,
            blocks: (block != NONE) as u32,
            pre: false,
        }
    }

    /// `self` followed by `next`: the hashes concatenate as sequences; blocks shared across
    /// the seam count once.
    fn then(self, next: Summary) -> Summary {
        if next.power == 1 {
            return Summary {
                pre: self.pre || next.pre,
                ..self
            };
        }
        if self.power == 1 {
            return Summary {
                pre: self.pre || next.pre,
                ..next
            };
        }
        let shared = (self.last_block == next.first_block && next.first_block != NONE) as u32;
        Summary {
            hash: self.hash.wrapping_mul(next.power).wrapping_add(next.hash),
            power: self.power.wrapping_mul(next.power),
            bytes: self.bytes + next.bytes,
            words: self.words + next.words,
            first_block: if self.first_block != NONE {
                self.first_block
            } else {
                next.first_block
            },
            last_block: if next.last_block != NONE {
                next.last_block
            } else {
                self.last_block
            },
            blocks: self.blocks + next.blocks - shared,
            pre: self.pre || next.pre,
        }
    }
}

/// Whether byte `b` belongs to a word: ASCII letters, digits and `_`, and every byte of a
/// non-ASCII character (copies repeat their bytes exactly, so nothing finer is needed; symbols
/// such as ★ count, so "★★★★" and "★★★★½" tell two hotels apart).
#[inline]
fn is_word_byte(b: u8) -> bool {
    b >= 0x80 || b.is_ascii_alphanumeric() || b == b'_'
}

/// The words of the kept, visible text nodes of `range`, in order (words split by markup
/// count as two).
fn words_in<'a>(
    dom: &'a Dom,
    visible: &'a [bool],
    keep: &'a [bool],
    range: std::ops::Range<usize>,
) -> impl Iterator<Item = &'a [u8]> + 'a {
    range
        .filter(move |&j| dom.node(j).kind == Kind::Text && visible[j] && keep[j])
        .flat_map(move |j| {
            dom.text(j)
                .as_bytes()
                .split(|&b| !is_word_byte(b))
                .filter(|w| !w.is_empty())
        })
}

/// Whether node `i` or an ancestor is a tab panel. `memo` (0 unknown, 1 no, 2 yes; sized on
/// first use) keeps every answer on the path walked, so all calls together are O(n).
fn in_tab_panel(dom: &Dom, i: usize, memo: &mut Vec<u8>) -> bool {
    if memo.is_empty() {
        memo.resize(dom.len(), 0);
    }
    let mut path = Vec::new();
    let mut j = i;
    let answer = loop {
        if memo[j] != 0 {
            break memo[j];
        }
        let node = dom.node(j);
        let own = node.kind == Kind::Element && dom.attr(j, "role").is_some_and(is_tab_panel_role);
        if own {
            break 2;
        }
        path.push(j);
        match dom.parent(j) {
            Some(p) => j = p,
            None => break 1,
        }
    };
    for k in path {
        memo[k] = answer;
    }
    answer == 2
}

/// Clears `keep` on the text nodes of every repeated passage after its first copy (see the
/// module). `visible` and `keep` are per node; `blocks` gives each text node's block and
/// words. Returns how many elements were dropped.
///
/// # Complexity
/// O(n) for the keys: one bottom-up pass builds each element's summary from its children's,
/// one pass in document order checks each element against the passages that ended before
/// it (a hash map; an element is compared only with elements outside it, because it is
/// checked on entry and recorded on exit). Comparing words happens on equal keys only and
/// reads the two subtrees; all comparisons of a page together may read at most twice its
/// nodes and kept text, after which no more are made (and no more copies dropped), so the
/// whole stays O(n + text) on any page.
pub fn drop_repeats(
    dom: &Dom,
    visible: &[bool],
    blocks: &Blocks,
    min_words: u32,
    keep: &mut [bool],
) -> usize {
    let n = dom.len();
    if n == 0 {
        return 0;
    }
    // The keep flags as given: copies are compared on these, whatever was dropped since.
    let given = keep.to_vec();
    let mut sum = vec![EMPTY; n];
    let mut kept_bytes = 0u64;
    // Bottom-up in reverse document order: when node i comes, its subtree is done, so its
    // summary is final and is put in front of its parent's (later siblings came first).
    for i in (0..n).rev() {
        let node = dom.node(i);
        if !visible[i] {
            continue;
        }
        let s = match node.kind {
            Kind::Text if given[i] => {
                let words = blocks.words_of[i];
                let len = crate::text::trim(dom.text(i)).len();
                if len == 0 {
                    continue;
                }
                kept_bytes += len as u64;
                Summary::text(words, len, blocks.block_of[i])
            }
            Kind::Element => {
                let s = sum[i];
                let code = node.tag.is_code() || node.tag == Tag::TEXTAREA;
                Summary {
                    pre: s.pre || (code && s.words > 0),
                    ..s
                }
            }
            _ => continue,
        };
        sum[i] = s;
        if s.power != 1 && node.parent != NONE {
            let p = node.parent as usize;
            sum[p] = s.then(sum[p]);
        }
    }
    // Passages that ended: key → the first element with it.
    let mut seen: FxHashMap<(u64, u32), usize> = FxHashMap::default();
    // Nodes and bytes comparisons may still read.
    let mut budget = 2 * (n as u64 + kept_bytes);
    // Per node, whether it is inside a tab panel: 0 unknown, 1 no, 2 yes (filled on demand).
    let mut tab: Vec<u8> = Vec::new();
    // Candidate elements entered and not yet left: (subtree end, element).
    let mut open: Vec<(usize, usize)> = Vec::new();
    let mut dropped = 0;
    let mut i = 0;
    while i < n {
        while let Some(&(end, e)) = open.last() {
            if end > i {
                break;
            }
            open.pop();
            seen.entry((sum[e].hash, sum[e].words)).or_insert(e);
        }
        let node = dom.node(i);
        let end = dom.subtree_end(i);
        let s = sum[i];
        if node.kind != Kind::Element || s.words < min_words || s.blocks < 2 || s.pre {
            i += 1;
            continue;
        }
        if let Some(&a) = seen.get(&(s.hash, s.words)) {
            let a_end = dom.subtree_end(a);
            let cost = (a_end - a + end - i) as u64 + sum[a].bytes + s.bytes;
            if cost <= budget {
                budget -= cost;
                let same = words_in(dom, visible, &given, a..a_end).eq(words_in(
                    dom,
                    visible,
                    &given,
                    i..end,
                ));
                if same && !in_tab_panel(dom, i, &mut tab) {
                    (i..end)
                        .filter(|&j| dom.node(j).kind == Kind::Text)
                        .for_each(|j| keep[j] = false);
                    dropped += 1;
                    i = end;
                    continue;
                }
            }
        }
        open.push((end, i));
        i += 1;
    }
    dropped
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_concatenate_as_sequences() {
        let (a, b, c) = (
            Summary::text(2, 7, 3),
            Summary::text(1, 1, 3),
            Summary::text(2, 3, 4),
        );
        let left = a.then(b).then(c);
        let right = a.then(b.then(c));
        assert_eq!((left.hash, left.words), (right.hash, right.words));
        assert_ne!(left.hash, c.then(b).then(a).hash);
        // Empty summaries are identities.
        assert_eq!(EMPTY.then(a).then(EMPTY).hash, a.hash);
    }

    #[test]
    fn blocks_shared_across_a_seam_count_once() {
        let s = Summary::text(2, 3, 3)
            .then(Summary::text(1, 1, 3))
            .then(Summary::text(2, 3, 4))
            .then(EMPTY);
        assert_eq!(
            (s.words, s.blocks, s.first_block, s.last_block),
            (5, 2, 3, 4)
        );
    }

    #[test]
    fn words_split_on_ascii_punctuation_and_keep_non_ascii() {
        let w: Vec<&[u8]> = "one, two:three café 東京!"
            .as_bytes()
            .split(|&b| !is_word_byte(b))
            .filter(|w| !w.is_empty())
            .collect();
        let s: Vec<&str> = w.iter().map(|w| std::str::from_utf8(w).unwrap()).collect();
        assert_eq!(s, ["one", "two", "three", "café", "東京"]);
    }
}
