//! Bylines and datelines by class name, for the metadata: which elements' `class` names a
//! byline or a dateline, and which carry `itemprop`. Marked in the pass that already reads
//! every element's attributes (`names::class_groups`, each distinct class value
//! looked at once), so the metadata need not look at every element's attributes again.

/// [`PageFeatures::marks`](super::PageFeatures::marks) bit: the `class` names a byline
/// ([`class_kinds`]).
pub const BYLINE_CLASS: u8 = 1;
/// Mark bit: the `class` names a dateline.
pub const DATE_CLASS: u8 = 2;
/// Mark bit: the element has an `itemprop` attribute (microdata).
pub const ITEMPROP: u8 = 4;

/// What a `class` token of the page's byline holds (lower-cased, as a substring:
/// `author-name`, `c-byline__author`, `authorDateBlock_authorName__N6j3Y`; a forum's first
/// `username` is its thread's author).
pub const BYLINE_CLASS_WORDS: &[&str] = &["byline", "author", "posted-by", "postedby", "username"];

/// What a byline-like class token holding it is not: the author's picture, biography, links
/// and the comments' authors.
pub const NOT_BYLINE_CLASS_WORDS: &[&str] = &[
    "avatar",
    "bio",
    "image",
    "img",
    "photo",
    "pic",
    "desc",
    "about",
    "social",
    "follow",
    "more",
    "comment",
    "reply",
    "authority",
    "box",
    "card",
    "list",
    "description",
    "info-",
    // The author's job title beside the name (`author-role`, `byline__job-title`).
    "jobtitle",
    "job-title",
    "job_title",
    "role",
    "position",
];

/// What a `class` token of a dateline holds (lower-cased, as a substring).
pub const DATE_CLASS_WORDS: &[&str] = &["date", "publish", "posted", "timestamp"];

/// What a date-like class token holding it is not.
pub const NOT_DATE_CLASS_WORDS: &[&str] = &["update", "candidate", "mandate", "validate", "picker"];

/// Per pair of bytes (first · 256 + second), which class words start with it: bit 1 a byline
/// word ([`BYLINE_CLASS_WORDS`]), bit 2 a dateline word, either case; exact pairs
/// leave far fewer places to compare words at than a table per byte (`ta`, `bo`, `pa`).
static CLASS_PAIRS: [u8; 65536] = first_pairs(
    DATE_CLASS_WORDS,
    2,
    first_pairs(BYLINE_CLASS_WORDS, 1, [0; 65536]),
);

/// `table` with `bit` set at the first two bytes of each of `words` (all longer than 1), in
/// either case.
const fn first_pairs(words: &[&str], bit: u8, mut table: [u8; 65536]) -> [u8; 65536] {
    let mut i = 0;
    while i < words.len() {
        let (a, b) = (words[i].as_bytes()[0], words[i].as_bytes()[1]);
        let (a0, a1) = (
            a.to_ascii_lowercase() as usize,
            a.to_ascii_uppercase() as usize,
        );
        let (b0, b1) = (
            b.to_ascii_lowercase() as usize,
            b.to_ascii_uppercase() as usize,
        );
        table[a0 << 8 | b0] |= bit;
        table[a0 << 8 | b1] |= bit;
        table[a1 << 8 | b0] |= bit;
        table[a1 << 8 | b1] |= bit;
        i += 1;
    }
    table
}

/// Whether a `class` attribute names a byline and whether it names a dateline, asked only for
/// the kinds wanted: a token holding one of [`BYLINE_CLASS_WORDS`] and none of
/// [`NOT_BYLINE_CLASS_WORDS`] (`author-avatar`, `author-bio`), likewise
/// [`DATE_CLASS_WORDS`] and [`NOT_DATE_CLASS_WORDS`].
///
/// # Complexity
/// One scan of `class`: a table look-up per byte pair (`CLASS_PAIRS`), the
/// words compared only where one may start, and a token's bounds and its `NOT_` words only where one matched;
/// O(len · w) in the worst case, w the words; no allocation.
pub fn class_kinds(class: &str, byline: bool, date: bool) -> (bool, bool) {
    let want = u8::from(byline) | u8::from(date) << 1;
    let b = class.as_bytes();
    let mut found = 0u8;
    for k in 0..b.len().saturating_sub(1) {
        let m = CLASS_PAIRS[(b[k] as usize) << 8 | b[k + 1] as usize] & want & !found;
        if m == 0 {
            continue;
        }
        for (bit, words, not) in [
            (1, BYLINE_CLASS_WORDS, NOT_BYLINE_CLASS_WORDS),
            (2, DATE_CLASS_WORDS, NOT_DATE_CLASS_WORDS),
        ] {
            if m & bit == 0 || !starts_any(&b[k..], words) {
                continue;
            }
            // Words hold no whitespace: the match lies in the token around `k`.
            let start = b[..k]
                .iter()
                .rposition(u8::is_ascii_whitespace)
                .map_or(0, |p| p + 1);
            let end = b[k..]
                .iter()
                .position(u8::is_ascii_whitespace)
                .map_or(b.len(), |p| k + p);
            if !holds_any(&b[start..end], not) {
                found |= bit;
            }
        }
        if found == want {
            break;
        }
    }
    (found & 1 != 0, found & 2 != 0)
}

/// Whether `t` starts with one of `words` (lower-case ASCII), ASCII case ignored.
pub fn starts_any(t: &[u8], words: &[&str]) -> bool {
    words.iter().any(|w| {
        let w = w.as_bytes();
        t.len() >= w.len() && t[..w.len()].eq_ignore_ascii_case(w)
    })
}

/// Whether `t` contains one of `words` (lower-case ASCII, non-empty), ASCII case ignored.
///
/// # Complexity
/// O(len · w), w the number of words.
pub fn holds_any(t: &[u8], words: &[&str]) -> bool {
    (0..t.len()).any(|k| starts_any(&t[k..], words))
}
