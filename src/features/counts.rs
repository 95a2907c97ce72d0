//! Counts summed over each node's subtree: words, characters, links, sentences, stop words,
//! title words, in one scan of the visible text and one bottom-up pass; and the tokenizer they
//! share (character classes, a hashed stop-word table).

use super::vocabulary::STOP_WORDS;
use crate::dom::{Dom, Kind, Tag};
use crate::text::is_word_char;
use crate::url;

/// Counts summed over a node's subtree (visible text only).
#[derive(Debug, Clone, Copy, Default)]
pub struct Counts {
    /// Words.
    pub words: u32,
    /// Words inside links.
    pub linked_words: u32,
    /// Non-space characters.
    pub chars: u32,
    /// Non-space characters inside links.
    pub linked_chars: u32,
    /// `<a href>` elements.
    pub links: u32,
    /// Links judged intra-site.
    pub intra_links: u32,
    /// Links that could be judged (web links).
    pub judged_links: u32,
    /// Words starting upper-case.
    pub capitalized: u32,
    /// Characters in words.
    pub word_chars: u32,
    /// Sentence ends.
    pub sentences: u32,
    /// Bit k set when title word k occurs (up to 64 title words).
    pub title_mask: u64,
    /// Common function words.
    pub stop_words: u32,
    /// Sentence punctuation marks.
    pub punctuation: u32,
    /// Words inside h1–h6.
    pub heading_words: u32,
    /// Words inside li.
    pub list_words: u32,
    /// Words inside p.
    pub paragraph_words: u32,
    /// `<p>` elements.
    pub paragraphs: u32,
    /// Visible `<img>` elements.
    pub images: u32,
    /// Form controls.
    pub controls: u32,
}

/// Per-node subtree counts: a top-down pass for "inside a link", a scan of each visible text
/// node, and a bottom-up pass summing into parents.
///
/// # Complexity
/// O(n + t).
pub(super) fn count(
    dom: &Dom,
    visible: &[bool],
    title: &TitleWords,
    site: Option<&str>,
) -> Vec<Counts> {
    let n = dom.len();
    let mut in_link = vec![false; n];
    // Bit 0: inside a heading; bit 1: inside a list item; bit 2: inside a paragraph.
    let mut inside = vec![0u8; n];
    let mut counts = vec![Counts::default(); n];
    for i in 1..n {
        let node = dom.node(i);
        let p = node.parent as usize;
        let is_link = node.kind == Kind::Element && node.tag == Tag::A && !node.foreign;
        in_link[i] = in_link[p] || is_link;
        inside[i] = inside[p]
            | (node.kind == Kind::Element && node.tag.is_heading()) as u8
            | (((node.kind == Kind::Element && node.tag == Tag::LI) as u8) << 1)
            | (((node.kind == Kind::Element && node.tag == Tag::P && !node.foreign) as u8) << 2);
        if !visible[i] {
            continue;
        }
        if node.kind == Kind::Element && !node.foreign {
            let c = &mut counts[i];
            match node.tag {
                Tag::P => c.paragraphs = 1,
                Tag::IMG => c.images = 1,
                Tag::INPUT | Tag::BUTTON | Tag::SELECT | Tag::TEXTAREA => c.controls = 1,
                _ => {}
            }
        }
        match node.kind {
            Kind::Element if is_link => {
                if let Some(href) = dom.attr(i, "href") {
                    let c = &mut counts[i];
                    c.links = 1;
                    if let Some(intra) = url::is_intra_site(href, site) {
                        c.judged_links = 1;
                        c.intra_links = intra as u32;
                    }
                }
            }
            Kind::Text => {
                let c = &mut counts[i];
                scan_text(dom.text(i), title, c);
                if in_link[i] {
                    c.linked_words = c.words;
                    c.linked_chars = c.chars;
                }
                if inside[i] & 1 != 0 {
                    c.heading_words = c.words;
                }
                if inside[i] & 2 != 0 {
                    c.list_words = c.words;
                }
                if inside[i] & 4 != 0 {
                    c.paragraph_words = c.words;
                }
            }
            _ => {}
        }
    }
    for i in (1..n).rev() {
        let p = dom.node(i).parent as usize;
        let c = counts[i];
        let pc = &mut counts[p];
        pc.words += c.words;
        pc.linked_words += c.linked_words;
        pc.chars += c.chars;
        pc.linked_chars += c.linked_chars;
        pc.links += c.links;
        pc.intra_links += c.intra_links;
        pc.judged_links += c.judged_links;
        pc.capitalized += c.capitalized;
        pc.word_chars += c.word_chars;
        pc.sentences += c.sentences;
        pc.title_mask |= c.title_mask;
        pc.stop_words += c.stop_words;
        pc.punctuation += c.punctuation;
        pc.heading_words += c.heading_words;
        pc.list_words += c.list_words;
        pc.paragraph_words += c.paragraph_words;
        pc.paragraphs += c.paragraphs;
        pc.images += c.images;
        pc.controls += c.controls;
    }
    counts
}

/// One pass over a text: words, characters, capitals, sentence ends and title words. ASCII
/// bytes are classified by table ([`ASCII_CLASS`]); other characters are decoded. O(len).
fn scan_text(s: &str, title: &TitleWords, c: &mut Counts) {
    let b = s.as_bytes();
    let mut i = 0;
    let mut in_word = false;
    let mut word_len = 0u32;
    let mut h = FNV_OFFSET;
    while i < b.len() {
        let (ch, len) = crate::text::char_at(s, i);
        i += len;
        let class = if len == 1 {
            ASCII_CLASS[ch as usize]
        } else {
            class_of(ch)
        };
        let is_w = class & WORD != 0;
        if is_w {
            if !in_word {
                c.words += 1;
                c.capitalized += ch.is_uppercase() as u32;
                word_len = 0;
                h = FNV_OFFSET;
            }
            word_len += 1;
            h = fold_lower(h, ch);
            // The rest of an ASCII word at once: letters, digits and `_` are neither space nor
            // punctuation, so only the length, the hash and the characters change.
            let mut k = i;
            while k < b.len() && b[k] < 0x80 && ASCII_CLASS[b[k] as usize] & WORD != 0 {
                h = (h ^ b[k].to_ascii_lowercase() as u64).wrapping_mul(FNV_PRIME);
                k += 1;
            }
            word_len += (k - i) as u32;
            c.chars += (k - i) as u32;
            i = k;
        } else if in_word {
            c.word_chars += word_len;
            c.title_mask |= title.bit(h);
            c.stop_words += is_stop_word(word_len, h) as u32;
        }
        c.sentences += (class & SENTENCE_END != 0 && in_word) as u32;
        c.punctuation += (class & PUNCTUATION != 0) as u32;
        c.chars += (class & SPACE == 0) as u32;
        in_word = is_w;
    }
    if in_word {
        c.word_chars += word_len;
        c.title_mask |= title.bit(h);
        c.stop_words += is_stop_word(word_len, h) as u32;
    }
}

/// Character classes of [`scan_text`], as bits.
const WORD: u8 = 1;
const SPACE: u8 = 2;
const PUNCTUATION: u8 = 4;
const SENTENCE_END: u8 = 8;

/// The classes of one character: a word character, white space, punctuation
/// (`. , ; : ! ?` and CJK `。，、`) and sentence ends (`. ! ?` and CJK `。！？`).
fn class_of(ch: char) -> u8 {
    let mut k = 0;
    if is_word_char(ch) {
        k |= WORD;
    }
    if ch.is_whitespace() {
        k |= SPACE;
    }
    if matches!(ch, '.' | ',' | ';' | ':' | '!' | '?' | '。' | '，' | '、') {
        k |= PUNCTUATION;
    }
    if crate::text::is_sentence_end(ch) {
        k |= SENTENCE_END;
    }
    k
}

/// [`class_of`] for the ASCII range.
static ASCII_CLASS: [u8; 128] = {
    let mut t = [0u8; 128];
    let mut c = 0;
    while c < 128 {
        let b = c as u8;
        let mut k = 0;
        if b.is_ascii_alphanumeric() || b == b'_' {
            k |= WORD;
        }
        if matches!(b, b' ' | 0x09..=0x0d) {
            k |= SPACE;
        }
        if matches!(b, b'.' | b',' | b';' | b':' | b'!' | b'?') {
            k |= PUNCTUATION;
        }
        if matches!(b, b'.' | b'!' | b'?') {
            k |= SENTENCE_END;
        }
        t[c] = k;
        c += 1;
    }
    t
};

/// Whether a word of `chars` characters whose lowercase hash is `h` is one of
/// [`STOP_WORDS`]: longer words are not, the others look up an open-addressed table of the
/// stop words' hashes. O(1): per word of running text, where a binary search cost ~6 steps.
#[inline]
fn is_stop_word(chars: u32, h: u64) -> bool {
    if chars as usize > STOP_WORD_MAX_CHARS {
        return false;
    }
    let table = stop_table();
    let mut k = h as usize & (STOP_SLOTS - 1);
    // Slots hold hashes, 0 when empty (no stop word hashes to 0: checked when built).
    while table[k] != 0 {
        if table[k] == h {
            return true;
        }
        k = (k + 1) & (STOP_SLOTS - 1);
    }
    false
}

/// Slots of the stop-word table: a power of two, at most a quarter full.
const STOP_SLOTS: usize = 256;

/// The longest stop word, in characters.
const STOP_WORD_MAX_CHARS: usize = {
    let mut max = 0;
    let mut k = 0;
    while k < STOP_WORDS.len() {
        if STOP_WORDS[k].len() > max {
            max = STOP_WORDS[k].len();
        }
        k += 1;
    }
    max
};

/// The stop words' lowercase hashes by linear probing from their low bits.
fn stop_table() -> &'static [u64; STOP_SLOTS] {
    static TABLE: std::sync::OnceLock<[u64; STOP_SLOTS]> = std::sync::OnceLock::new();
    TABLE.get_or_init(|| {
        assert!(STOP_WORDS.len() * 4 <= STOP_SLOTS && STOP_WORDS.iter().all(|w| w.is_ascii()));
        let mut table = [0u64; STOP_SLOTS];
        for w in STOP_WORDS {
            let h = w.chars().fold(FNV_OFFSET, fold_lower);
            assert_ne!(h, 0, "a stop word hashes to the empty slot");
            let mut k = h as usize & (STOP_SLOTS - 1);
            while table[k] != 0 && table[k] != h {
                k = (k + 1) & (STOP_SLOTS - 1);
            }
            table[k] = h;
        }
        table
    })
}

const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
const FNV_PRIME: u64 = 0x0100_0000_01b3;

/// FNV-1a over the lowercase form of `ch`: words hash the same whatever their case.
#[inline]
fn fold_lower(mut h: u64, ch: char) -> u64 {
    let mut push = |c: char| {
        let mut buf = [0u8; 4];
        for &b in c.encode_utf8(&mut buf).as_bytes() {
            h = (h ^ b as u64).wrapping_mul(FNV_PRIME);
        }
    };
    if ch.is_ascii() {
        push(ch.to_ascii_lowercase());
    } else {
        ch.to_lowercase().for_each(&mut push);
    }
    h
}

/// The title's distinct non-stop words as hashes of their lowercase form, at most 64.
pub(super) struct TitleWords {
    hashes: Vec<u64>,
    pub(super) len: u32,
}

impl TitleWords {
    pub(super) fn new(title: &str) -> TitleWords {
        let mut hashes: Vec<u64> = Vec::new();
        for w in crate::text::words(title) {
            let lower = w.to_lowercase();
            if STOP_WORDS.contains(&lower.as_str()) || hashes.len() == 64 {
                continue;
            }
            let h = w.chars().fold(FNV_OFFSET, fold_lower);
            if !hashes.contains(&h) {
                hashes.push(h);
            }
        }
        let len = hashes.len() as u32;
        TitleWords { hashes, len }
    }

    /// The mask bit of the title word with hash `h`, or 0.
    #[inline]
    fn bit(&self, h: u64) -> u64 {
        // Titles have a handful of words: a linear scan beats hashing into a table.
        match self.hashes.iter().position(|&t| t == h) {
            Some(k) => 1u64 << k,
            None => 0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ascii_class_table_is_class_of() {
        for b in 0u8..128 {
            assert_eq!(ASCII_CLASS[b as usize], class_of(b as char), "byte {b}");
        }
    }

    #[test]
    fn stop_words_by_table() {
        let hash = |w: &str| w.chars().fold(FNV_OFFSET, fold_lower);
        for w in STOP_WORDS {
            let upper = w.to_uppercase();
            assert!(is_stop_word(w.len() as u32, hash(w)), "{w}");
            assert!(is_stop_word(upper.len() as u32, hash(&upper)), "{upper}");
        }
        for w in [
            "then", "thee", "ther", "a1", "x", "ands", "nation", "the_", "éte", "über",
        ] {
            let chars = w.chars().count() as u32;
            assert!(!is_stop_word(chars, hash(w)), "{w}");
        }
        assert_eq!(STOP_WORD_MAX_CHARS, 4);
        // Every word of a real sentence agrees with a plain lookup in the list.
        let text = "The mill on the Wendle was rebuilt and it turns again, with what power we have";
        for w in text
            .split(|c: char| !c.is_alphanumeric())
            .filter(|w| !w.is_empty())
        {
            let lower = w.to_lowercase();
            assert_eq!(
                is_stop_word(w.chars().count() as u32, hash(w)),
                STOP_WORDS.contains(&lower.as_str()),
                "{w}"
            );
        }
    }

    #[test]
    fn scan_counts_by_hand() {
        let t = TitleWords::new("The Quick Fox");
        assert_eq!(t.len, 2);
        let mut c = Counts::default();
        scan_text("A quick brown FOX. Jumps! over", &t, &mut c);
        assert_eq!(c.words, 6);
        assert_eq!(c.capitalized, 3);
        assert_eq!(c.sentences, 2);
        assert_eq!(c.word_chars, 1 + 5 + 5 + 3 + 5 + 4);
        assert_eq!(c.title_mask.count_ones(), 2);
        assert_eq!(c.chars, 25);

        // Non-ASCII: CJK punctuation, a no-break space, an accented capital.
        let mut c = Counts::default();
        scan_text("Ça va。好！\u{a0}x", &t, &mut c);
        assert_eq!(c.words, 4);
        assert_eq!(c.capitalized, 1);
        assert_eq!(c.sentences, 2);
        assert_eq!(c.punctuation, 1);
        assert_eq!(c.word_chars, 2 + 2 + 1 + 1);
        assert_eq!(c.chars, 8);
    }
}
