//! Words as every stage counts them: maximal runs of Unicode alphanumerics (and `_`), the same
//! tokens as the WCXB metric's lowercase `\w+`.

/// Whether `c` belongs to a word (`\w` in Unicode regex terms, without the combining marks).
#[inline]
pub fn is_word_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// The words of `s`, in order.
pub fn words(s: &str) -> impl Iterator<Item = &str> {
    s.split(|c: char| !is_word_char(c))
        .filter(|w| !w.is_empty())
}

/// Number of words in `s`, without allocating.
pub fn count_words(s: &str) -> usize {
    let mut n = 0;
    let mut inside = false;
    for c in s.chars() {
        let w = is_word_char(c);
        n += (w && !inside) as usize;
        inside = w;
    }
    n
}

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
    }
}
