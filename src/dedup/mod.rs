//! Near-duplicate pages by shingling (PageLevel, WWW 2007, section 5.3, after Broder 1997).
//!
//! A text becomes a [`Sketch`] in four steps:
//! 1. **Tokens.** The words of [`crate::text::words`] (maximal runs of Unicode alphanumerics and
//!    `_`), lowercased.
//! 2. **Shingles.** Every run of [`SHINGLE_WORDS`] consecutive tokens.
//! 3. **Hashes.** Each shingle's 64-bit XXH64 ([`shingle_hash`]) with the fixed seed [`SEED`]:
//!    the tokens joined by single spaces, so a hash can be recomputed by hand.
//! 4. **Sketch.** The [`SKETCH_SIZE`] smallest *distinct* hashes (a bottom-k sketch).
//!
//! Two sketches **match** in [`matches`](fn@matches) hashes: the number of hash values present in both
//! (`|S(A) ∩ S(B)|`, set intersection of the two sketches). Pages are near-duplicates
//! ([`is_duplicate`]) when at least [`MIN_MATCHES`] of their hashes match.
//!
//! Why the plain intersection: it is what "4 of the 8 match" says. Broder's unbiased estimator of
//! the resemblance counts only the hashes of `bottom_k(S(A) ∪ S(B))` found in both; the plain
//! intersection is never smaller (it also counts a common hash that a third, smaller hash of the
//! other page pushed out of the union's bottom k), so it errs towards calling pages duplicates.
//! With k = 8 and the threshold at 4 the difference is rarely a whole hash.
//!
//! **Short texts.** A text with fewer than [`SHINGLE_WORDS`] tokens (but at least one) is one
//! shingle made of all its tokens, so its sketch holds one hash; an empty text has an empty
//! sketch. Since a duplicate needs [`MIN_MATCHES`] common hashes, a text with fewer than
//! `SHINGLE_WORDS + MIN_MATCHES - 1` = 9 tokens (fewer than 4 shingles) is never anyone's
//! duplicate: too little text to call two pages the same, and two pages whose extraction came
//! out empty are not duplicates of each other.
//!
//! Over many pages, [`duplicate_pairs`] finds the pairs through an index from hash value to the
//! pages holding it, so pages sharing no hash are never compared; [`clusters`] joins the pairs
//! into clusters of near-duplicates (connected components) and picks the pages to keep.

pub mod clusters;
pub mod evaluate;
pub mod lines;
pub mod texts;

use std::collections::HashMap;

use twox_hash::XxHash64;

/// Tokens per shingle (the paper's 6-word shingles).
pub const SHINGLE_WORDS: usize = 6;

/// Hashes kept per sketch: the smallest distinct shingle hashes (the paper keeps 8).
pub const SKETCH_SIZE: usize = 8;

/// Common hashes that make two sketches near-duplicates (the paper's "at least 4 of the 8").
pub const MIN_MATCHES: usize = 4;

/// Seed of the XXH64 shingle hash; fixed so that sketches are comparable across runs and
/// machines (the bytes of `"PageLevl"`).
pub const SEED: u64 = u64::from_be_bytes(*b"PageLevl");

/// The bottom-k sketch of a text: its at most [`SKETCH_SIZE`] smallest distinct shingle hashes,
/// in increasing order.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct Sketch {
    hashes: Vec<u64>,
}

impl Sketch {
    /// The sketch of a set of shingle hashes (any order, repeats allowed): the
    /// [`SKETCH_SIZE`] smallest distinct ones.
    ///
    /// # Complexity
    /// O(m·k) time for m hashes and k = [`SKETCH_SIZE`], O(k) space.
    pub fn from_hashes(hashes: impl IntoIterator<Item = u64>) -> Sketch {
        let mut kept: Vec<u64> = Vec::with_capacity(SKETCH_SIZE);
        for h in hashes {
            if kept.len() == SKETCH_SIZE && h >= kept[SKETCH_SIZE - 1] {
                continue;
            }
            if let Err(pos) = kept.binary_search(&h) {
                if kept.len() == SKETCH_SIZE {
                    kept.pop();
                }
                kept.insert(pos, h);
            }
        }
        Sketch { hashes: kept }
    }

    /// The hashes, distinct and in increasing order; fewer than [`SKETCH_SIZE`] when the text
    /// has fewer distinct shingles, none for an empty text.
    pub fn hashes(&self) -> &[u64] {
        &self.hashes
    }

    /// Number of hashes (0 to [`SKETCH_SIZE`]).
    pub fn len(&self) -> usize {
        self.hashes.len()
    }

    /// Whether the text had no tokens at all.
    pub fn is_empty(&self) -> bool {
        self.hashes.is_empty()
    }

    /// The hashes as 16-digit lowercase hex strings, in order (how `dedup --sketches` prints
    /// them). O(k).
    pub fn hex(&self) -> Vec<String> {
        self.hashes.iter().map(|h| format!("{h:016x}")).collect()
    }
}

/// The XXH64 (seed [`SEED`]) of tokens joined by single spaces: the hash of one shingle.
/// Tokens are expected lowercased already.
pub fn shingle_hash<S: AsRef<str>>(tokens: &[S]) -> u64 {
    let mut buf = String::new();
    join_into(&mut buf, tokens);
    XxHash64::oneshot(SEED, buf.as_bytes())
}

fn join_into<S: AsRef<str>>(buf: &mut String, tokens: &[S]) {
    buf.clear();
    for (i, t) in tokens.iter().enumerate() {
        if i > 0 {
            buf.push(' ');
        }
        buf.push_str(t.as_ref());
    }
}

/// The lowercase tokens of a text ([`crate::text::words`], lowercased).
pub fn tokens(text: &str) -> Vec<String> {
    crate::text::words(text).map(str::to_lowercase).collect()
}

/// Calls `f` with the hash of every shingle of `text`, in text order (repeats included): one per
/// window of [`SHINGLE_WORDS`] tokens, or a single one over all tokens when there are fewer.
fn for_each_shingle(text: &str, mut f: impl FnMut(u64)) {
    let toks = tokens(text);
    if toks.is_empty() {
        return;
    }
    let w = SHINGLE_WORDS.min(toks.len());
    let mut buf = String::new();
    for win in toks.windows(w) {
        join_into(&mut buf, win);
        f(XxHash64::oneshot(SEED, buf.as_bytes()));
    }
}

/// All distinct shingle hashes of `text`, in increasing order (the full set a [`Sketch`]
/// samples; used for exact resemblance).
///
/// # Complexity
/// O(t + s log s) time for t bytes and s shingles, O(t + s) space.
pub fn shingles(text: &str) -> Vec<u64> {
    let mut out = Vec::new();
    for_each_shingle(text, |h| out.push(h));
    out.sort_unstable();
    out.dedup();
    out
}

/// The sketch of a text (see the [module docs](self)).
///
/// # Complexity
/// O(t + s·k) time for t bytes, s shingles and k = [`SKETCH_SIZE`]; O(t) space for the tokens.
pub fn sketch(text: &str) -> Sketch {
    let mut hashes = Vec::new();
    for_each_shingle(text, |h| hashes.push(h));
    Sketch::from_hashes(hashes)
}

/// Number of hash values present in both sketches, `|S(A) ∩ S(B)|`, from 0 to [`SKETCH_SIZE`].
///
/// # Complexity
/// O(k): one merge of two sorted lists.
pub fn matches(a: &Sketch, b: &Sketch) -> usize {
    sorted_common(&a.hashes, &b.hashes)
}

/// Whether two sketches are near-duplicates: at least [`MIN_MATCHES`] common hashes.
pub fn is_duplicate(a: &Sketch, b: &Sketch) -> bool {
    matches(a, b) >= MIN_MATCHES
}

/// Common elements of two sorted lists without repeats.
fn sorted_common(a: &[u64], b: &[u64]) -> usize {
    let (mut i, mut j, mut n) = (0, 0, 0);
    while i < a.len() && j < b.len() {
        match a[i].cmp(&b[j]) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => {
                n += 1;
                i += 1;
                j += 1;
            }
        }
    }
    n
}

/// Exact resemblance (Jaccard) of two sets of shingle hashes given as sorted lists without
/// repeats (from [`shingles`]): `|A ∩ B| / |A ∪ B|`; `None` when both are empty.
///
/// # Complexity
/// O(|A| + |B|).
pub fn resemblance(a: &[u64], b: &[u64]) -> Option<f64> {
    let common = sorted_common(a, b);
    let union = a.len() + b.len() - common;
    (union > 0).then(|| common as f64 / union as f64)
}

/// Two pages (indices into the input) and their common hashes, `a < b`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Pair {
    /// The earlier page.
    pub a: usize,
    /// The later page.
    pub b: usize,
    /// Common hashes ([`matches`](fn@matches)).
    pub matches: usize,
}

/// Every pair of pages whose sketches share at least `min_matches` hashes (`min_matches` ≥ 1),
/// sorted by `(a, b)`, so the result depends only on the input order.
///
/// Pages are indexed by hash value; only pages that share a hash are ever paired, so N pages of
/// distinct texts cost O(N·k) rather than the N²/2 comparisons of all pairs.
///
/// # Complexity
/// With N sketches of at most k hashes and m_h the number of pages holding hash h:
/// O(N·k + Σ_h m_h² + P log P) time and O(N·k + P) space, P being the number of pairs sharing at
/// least one hash. The worst case (every page holding the same hashes) is O(N²·k), but then every
/// pair is in the output anyway.
pub fn pairs_with(sketches: &[Sketch], min_matches: usize) -> Vec<Pair> {
    let min_matches = min_matches.max(1);
    let mut index: HashMap<u64, Vec<usize>> = HashMap::new();
    for (i, s) in sketches.iter().enumerate() {
        for &h in &s.hashes {
            index.entry(h).or_default().push(i);
        }
    }
    let mut counts: HashMap<(usize, usize), usize> = HashMap::new();
    for pages in index.values().filter(|p| p.len() > 1) {
        // Pages are pushed in increasing order, and a sketch holds each hash once.
        for (x, &a) in pages.iter().enumerate() {
            for &b in &pages[x + 1..] {
                *counts.entry((a, b)).or_insert(0) += 1;
            }
        }
    }
    let mut out: Vec<Pair> = counts
        .into_iter()
        .filter(|&(_, n)| n >= min_matches)
        .map(|((a, b), matches)| Pair { a, b, matches })
        .collect();
    out.sort_unstable();
    out
}

/// Every near-duplicate pair ([`is_duplicate`]) among `sketches`, sorted by `(a, b)`; see
/// [`pairs_with`] for the cost.
pub fn duplicate_pairs(sketches: &[Sketch]) -> Vec<Pair> {
    pairs_with(sketches, MIN_MATCHES)
}

/// Bucket of a pair by the exact resemblance of its gold texts (ground truth for measuring).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Truth {
    /// Resemblance at least [`TRUTH_DUPLICATE`].
    Duplicate,
    /// Resemblance below [`TRUTH_DISTINCT`].
    Distinct,
    /// In between, or a gold text too short: not used.
    Ambiguous,
}

/// Gold resemblance from which a pair is a true duplicate: half the shingles shared, the
/// resemblance at which "4 of 8 sketch hashes match" is expected to hold.
pub const TRUTH_DUPLICATE: f64 = 0.5;

/// Gold resemblance under which a pair is a true non-duplicate (clearly different texts).
pub const TRUTH_DISTINCT: f64 = 0.1;

/// Tokens each gold text needs for its pair to be judged at all (shorter gold texts, e.g. empty
/// ones, say nothing about the page).
pub const TRUTH_MIN_WORDS: usize = 25;

/// Share of a gold text's shingles that its page's full visible text holds, from below which the
/// gold text is taken not to describe the page (a wrong gold file) and the page is not judged.
pub const TRUTH_MIN_COVERAGE: f64 = 0.5;

/// Share of the shingles of `gold` (sorted, distinct) found in `page` (sorted, distinct):
/// `|G ∩ P| / |G|`; 0 for an empty `gold`.
///
/// # Complexity
/// O(|G| + |P|).
pub fn coverage(gold: &[u64], page: &[u64]) -> f64 {
    if gold.is_empty() {
        return 0.0;
    }
    sorted_common(gold, page) as f64 / gold.len() as f64
}

/// The ground truth of a pair from its two gold texts: their exact shingle resemblance
/// ([`resemblance`] of [`shingles`]) against [`TRUTH_DUPLICATE`] and [`TRUTH_DISTINCT`];
/// [`Truth::Ambiguous`] if either has fewer than [`TRUTH_MIN_WORDS`] tokens.
pub fn truth(gold_a: &str, gold_b: &str) -> Truth {
    if crate::text::count_words(gold_a) < TRUTH_MIN_WORDS
        || crate::text::count_words(gold_b) < TRUTH_MIN_WORDS
    {
        return Truth::Ambiguous;
    }
    truth_of(resemblance(&shingles(gold_a), &shingles(gold_b)))
}

/// [`truth`] for a resemblance already computed.
pub fn truth_of(r: Option<f64>) -> Truth {
    match r {
        Some(r) if r >= TRUTH_DUPLICATE => Truth::Duplicate,
        Some(r) if r < TRUTH_DISTINCT => Truth::Distinct,
        _ => Truth::Ambiguous,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bottom_k_keeps_smallest_distinct() {
        let s = Sketch::from_hashes([9, 3, 3, 12, 1, 7, 7, 20, 15, 2, 30, 4]);
        assert_eq!(s.hashes(), [1, 2, 3, 4, 7, 9, 12, 15]);
    }

    #[test]
    fn short_text_is_one_shingle() {
        assert_eq!(
            sketch("Hello, World").hashes(),
            [shingle_hash(&["hello", "world"])]
        );
        assert!(sketch("  ,; ").is_empty());
    }
}
