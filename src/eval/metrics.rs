//! Extraction quality as the WCXB benchmark measures it: bag-of-words precision, recall and F1
//! over lowercase `\w+` tokens, plus the word bags the SiteLevel checks are built from.

use std::collections::HashMap;

use unicode_properties::{GeneralCategoryGroup, UnicodeGeneralCategory};

/// Whether `c` is a word character of Python's `re` `\w` on str (what WCXB's scorer runs):
/// `_` or a letter or number by general category. Narrower than [`crate::text::is_word_char`],
/// whose `is_alphanumeric` also takes Other_Alphabetic marks (Devanagari vowel signs) and
/// circled letters (`ⓘ`), which split or end a token for the scorer.
#[inline]
pub fn is_metric_word_char(c: char) -> bool {
    if c.is_ascii() {
        return c.is_ascii_alphanumeric() || c == '_';
    }
    matches!(
        c.general_category_group(),
        GeneralCategoryGroup::Letter | GeneralCategoryGroup::Number
    )
}

/// The metric's tokens of `s` (already lowercased), in order: maximal runs of
/// [`is_metric_word_char`]. O(len).
pub fn metric_words(s: &str) -> impl Iterator<Item = &str> {
    s.split(|c: char| !is_metric_word_char(c))
        .filter(|w| !w.is_empty())
}

/// Word-level precision, recall and F1 of a predicted text against a gold text, each in [0, 1].
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Prf {
    /// Shared words / predicted words.
    pub precision: f64,
    /// Shared words / gold words.
    pub recall: f64,
    /// Harmonic mean of precision and recall (0 when both are 0).
    pub f1: f64,
}

/// A multiset of lowercase words: each word with how often it occurs.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Bag {
    counts: HashMap<String, u32>,
    total: u64,
}

impl Bag {
    /// The words of `text` (lowercased first, then split into `\w+` runs, as WCXB's
    /// `re.findall(r'\w+', text.lower())`).
    pub fn of(text: &str) -> Bag {
        let mut bag = Bag::default();
        bag.add(text);
        bag
    }

    /// Adds the words of `text`.
    pub fn add(&mut self, text: &str) {
        let lower = text.to_lowercase();
        for w in metric_words(&lower) {
            self.total += 1;
            match self.counts.get_mut(w) {
                Some(c) => *c += 1,
                None => {
                    self.counts.insert(w.to_owned(), 1);
                }
            }
        }
    }

    /// Number of words, repeats included.
    pub fn total(&self) -> u64 {
        self.total
    }

    /// Whether the bag holds no word.
    pub fn is_empty(&self) -> bool {
        self.total == 0
    }

    /// How often `word` (lowercase) occurs.
    pub fn count(&self, word: &str) -> u32 {
        self.counts.get(word).copied().unwrap_or(0)
    }

    /// Each distinct word with its count, in no particular order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, u32)> + '_ {
        self.counts.iter().map(|(w, &c)| (w.as_str(), c))
    }

    /// Size of the multiset intersection: Σ over words of min(count here, count there).
    ///
    /// # Complexity
    /// O(distinct words of the smaller bag).
    pub fn overlap(&self, other: &Bag) -> u64 {
        let (small, large) = if self.counts.len() <= other.counts.len() {
            (self, other)
        } else {
            (other, self)
        };
        small
            .counts
            .iter()
            .map(|(w, &c)| u64::from(c.min(large.count(w))))
            .sum()
    }
}

/// WCXB word-F1 of `predicted` against `gold`.
///
/// Tokens are the lowercase `\w+` runs ([`Bag::of`]); overlap counts each word as often as it
/// occurs in both texts (multiset intersection); precision = overlap / predicted words, recall =
/// overlap / gold words.
///
/// Edge cases, as in WCXB's `evaluate.py`:
/// - gold and prediction both without words: precision = recall = F1 = 1 (nothing to find,
///   nothing wrongly found);
/// - gold without words, prediction with some: all 0;
/// - prediction without words, gold with some: all 0;
/// - no shared word: all 0.
///
/// # Complexity
/// O(p + g) for texts of p and g bytes.
pub fn word_prf(predicted: &str, gold: &str) -> Prf {
    prf_of_bags(&Bag::of(predicted), &Bag::of(gold))
}

/// [`word_prf`] on bags already built.
pub fn prf_of_bags(predicted: &Bag, gold: &Bag) -> Prf {
    let all = |v| Prf {
        precision: v,
        recall: v,
        f1: v,
    };
    match (predicted.is_empty(), gold.is_empty()) {
        (true, true) => return all(1.0),
        (_, true) | (true, _) => return all(0.0),
        _ => {}
    }
    let overlap = predicted.overlap(gold) as f64;
    let precision = overlap / predicted.total() as f64;
    let recall = overlap / gold.total() as f64;
    let f1 = if precision + recall > 0.0 {
        2.0 * precision * recall / (precision + recall)
    } else {
        0.0
    };
    Prf {
        precision,
        recall,
        f1,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-12
    }

    #[test]
    fn tokens_are_pythons_word_runs() {
        // ह ि न ् द ी: the vowel signs and virama are marks (Mc/Mn), which Python's `\w` leaves
        // out, so "हिन्दी" is three tokens; ⓘ is a symbol (So) though Rust calls it alphabetic;
        // Ⅻ (Nl), ½ and ² (No) are numbers; `_` joins.
        let got: Vec<&str> = metric_words("ⓘ हिन्दी word_1 ⅻ ½ x²").collect();
        assert_eq!(got, ["ह", "न", "द", "word_1", "ⅻ", "½", "x²"]);
        assert_eq!(Bag::of("Ⓘ Info").total(), 1);
    }

    #[test]
    fn hand_worked() {
        // predicted: the(2) cat sat on mat = 6 words; gold: the(2) cat sat = 4 words.
        // overlap = min(2,2) + 1 + 1 = 4; P = 4/6, R = 4/4, F1 = 2·(2/3)·1/(5/3) = 0.8.
        let p = word_prf("The cat sat on the mat.", "the CAT, sat the");
        assert!(close(p.precision, 4.0 / 6.0));
        assert!(close(p.recall, 1.0));
        assert!(close(p.f1, 0.8));
        // Repeats count only as often as they are in both: "a a a" vs "a b" → overlap 1,
        // P = 1/3, R = 1/2, F1 = 2·(1/6)/(5/6) = 0.4.
        let p = word_prf("a a a", "a b");
        assert!(close(p.precision, 1.0 / 3.0) && close(p.recall, 0.5) && close(p.f1, 0.4));
    }

    #[test]
    fn edge_cases() {
        assert_eq!(word_prf("", "").f1, 1.0);
        assert_eq!(word_prf(" ... ", "!!").recall, 1.0);
        let p = word_prf("words", "");
        assert_eq!((p.precision, p.recall, p.f1), (0.0, 0.0, 0.0));
        assert_eq!(word_prf("", "words").f1, 0.0);
        assert_eq!(word_prf("x y", "z").f1, 0.0);
        assert_eq!(word_prf("Same words_1 2", "same WORDS_1 2").f1, 1.0);
    }

    #[test]
    fn bags() {
        let a = Bag::of("Über über ÜBER straße 42");
        assert_eq!(a.total(), 5);
        assert_eq!(a.count("über"), 3);
        assert_eq!(a.overlap(&Bag::of("über x 42 42")), 2);
    }
}
