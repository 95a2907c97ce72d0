//! Words as every stage counts them: maximal runs of Unicode alphanumerics (and `_`), the same
//! tokens as the WCXB metric's lowercase `\w+`.

/// Whether `c` belongs to a word (`\w` in Unicode regex terms, without the combining marks).
#[inline]
pub fn is_word_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// Whether `c` ends a sentence: `.`, `!`, `?` and the CJK full stops `。`, `！`, `？` (what
/// boilerpipe's sentence count, the `sentences` count and the rules read as a sentence's end).
#[inline]
pub fn is_sentence_end(c: char) -> bool {
    matches!(c, '.' | '!' | '?' | '。' | '！' | '？')
}

/// The words of `s`, in order.
pub fn words(s: &str) -> impl Iterator<Item = &str> {
    s.split(|c: char| !is_word_char(c))
        .filter(|w| !w.is_empty())
}

/// Number of words in `s`, without allocating. ASCII bytes are classified by table, other
/// characters decoded one at a time: O(len).
pub fn count_words(s: &str) -> usize {
    let b = s.as_bytes();
    let (mut n, mut inside, mut i) = (0, false, 0);
    while i < b.len() {
        let (c, len) = char_at(s, i);
        i += len;
        let w = if len == 1 {
            ASCII_WORD[c as usize]
        } else {
            is_word_char(c)
        };
        n += (w && !inside) as usize;
        inside = w;
        if w {
            // The rest of an ASCII word at once.
            i += ascii_word_run(b, i);
        }
    }
    n
}

/// The character that starts at byte `i` of `s` and its length in bytes; ASCII without
/// decoding. `i` must be a char boundary below `s.len()` (loops that step over whole
/// characters and ASCII runs only ever stop on one).
#[inline]
pub(crate) fn char_at(s: &str, i: usize) -> (char, usize) {
    let b = s.as_bytes()[i];
    if b < 0x80 {
        (b as char, 1)
    } else {
        let c = s[i..].chars().next().unwrap_or(char::REPLACEMENT_CHARACTER);
        (c, c.len_utf8())
    }
}

/// Length in bytes of the run of ASCII word characters that starts at byte `i` of `b`.
#[inline]
pub(crate) fn ascii_word_run(b: &[u8], i: usize) -> usize {
    b[i..]
        .iter()
        .take_while(|&&x| is_ascii_word_byte(x))
        .count()
}

/// Whether byte `b` is an ASCII word character (`false` for every non-ASCII byte).
#[inline]
pub(crate) fn is_ascii_word_byte(b: u8) -> bool {
    b < 0x80 && ASCII_WORD[b as usize]
}

/// Whether `s` holds a word (`count_words(s) > 0`), stopping at the first word character.
pub(crate) fn has_words(s: &str) -> bool {
    s.bytes().any(|b| b < 0x80 && ASCII_WORD[b as usize])
        || (!s.is_ascii() && s.chars().any(is_word_char))
}

/// `s.trim()`, with the ASCII whitespace at either end skipped a byte at a time (most
/// text nodes start and end with indentation); other characters go through `str::trim`.
/// O(whitespace at the ends).
pub(crate) fn trim(s: &str) -> &str {
    // U+0009–U+000D and U+0020: the ASCII part of Unicode's White_Space, as `char::is_whitespace`.
    let ws = |b: u8| b == b' ' || (b'\t'..=b'\r').contains(&b);
    let b = s.as_bytes();
    let (mut i, mut j) = (0, b.len());
    while i < j && ws(b[i]) {
        i += 1;
    }
    while j > i && ws(b[j - 1]) {
        j -= 1;
    }
    // Both cuts fall before or after an ASCII byte, so on character boundaries.
    let t = &s[i..j];
    if t.as_bytes().first().is_some_and(|&c| c >= 0x80)
        || t.as_bytes().last().is_some_and(|&c| c >= 0x80)
    {
        t.trim()
    } else {
        t
    }
}

/// `is_word_char` for the ASCII range.
static ASCII_WORD: [bool; 128] = {
    let mut t = [false; 128];
    let mut c = 0;
    while c < 128 {
        t[c] = (c as u8).is_ascii_alphanumeric() || c == b'_' as usize;
        c += 1;
    }
    t
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_match_backslash_w() {
        assert_eq!(
            words("Hello, wörld_1 — 42!").collect::<Vec<_>>(),
            ["Hello", "wörld_1", "42"]
        );
        assert_eq!(count_words("Hello, wörld_1 — 42!"), 3);
        assert_eq!(count_words(""), 0);
        assert_eq!(count_words("日本語 テキスト"), 2);
        assert_eq!(count_words("a\u{e9}b c\u{2014}d_é"), 3);
        for s in ["", " — ", "日本語", "…x", "-_-", "\u{2014}\u{e9}", "!?"] {
            assert_eq!(has_words(s), count_words(s) > 0, "{s:?}");
        }
    }

    #[test]
    fn count_words_agrees_with_words_on_every_ascii_byte() {
        let all: String = (0u8..128).map(char::from).chain("éß—…٣".chars()).collect();
        for (i, _) in all.char_indices() {
            let s = &all[i..];
            assert_eq!(count_words(s), words(s).count(), "{s:?}");
        }
    }

    #[test]
    fn trim_agrees_with_str_trim() {
        let parts = [
            "", " ", "\t\n", "\u{a0}", "\u{3000}", "\u{85}", "x", "é", " a b ", "\u{b}", "\u{1c}",
        ];
        for a in parts {
            for b in parts {
                for c in parts {
                    let s = format!("{a}{b}{c}");
                    assert_eq!(trim(&s), s.trim(), "{s:?}");
                }
            }
        }
    }
}
