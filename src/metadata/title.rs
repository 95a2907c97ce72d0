//! A page's title without the site's name that `<title>` and `og:title` often carry.

/// What sits between an article's title and the site's name (`Title | Site`, `Site - Title`).
const SEPARATORS: &[&str] = &[
    " | ", " - ", " – ", " — ", " :: ", " · ", " » ", " « ", " • ", " ~ ", " // ",
];

/// Letters and digits only, lower-cased: how titles, headings and site names are compared.
pub(super) fn squash(s: &str) -> String {
    s.chars()
        .filter(|c| c.is_alphanumeric())
        .flat_map(char::to_lowercase)
        .collect()
}

/// `title` (whitespace collapsed) without the parts that name the site.
///
/// The title is cut at separators (` | `, ` - `, ` – `, ` — `, ` :: `, ` · `, ` » `, …); a
/// part at either end is dropped when it is one of `sites` (the declared site names and the
/// domain's first label, compared by their letters and digits: `Scratch Culinary` is
/// `scratchculinary.com`'s), or when it contains one and is at
/// most four words. When `heading` (the page's title heading) is one of the parts, that part is
/// the title. Otherwise, with no part named, a last part after ` | ` of at most four words is
/// taken for the site's name (the pipe is the common site separator; a dash is too often
/// part of a headline to cut at). Never returns an empty title when `title` has a word.
///
/// # Complexity
/// O(len × separators).
pub fn strip_site(title: &str, sites: &[String], heading: Option<&str>) -> String {
    let title = title.split_whitespace().collect::<Vec<_>>().join(" ");
    // Cut points: (start, end) of each separator occurrence, in order.
    let mut cuts: Vec<(usize, usize)> = Vec::new();
    for sep in SEPARATORS {
        let mut from = 0;
        while let Some(k) = title[from..].find(sep) {
            cuts.push((from + k, from + k + sep.len()));
            from += k + sep.len();
        }
    }
    if cuts.is_empty() {
        return title;
    }
    cuts.sort_unstable();
    cuts.dedup_by(|b, a| b.0 < a.1);
    let mut parts: Vec<(usize, usize)> = Vec::new();
    let mut start = 0;
    for &(a, b) in &cuts {
        parts.push((start, a));
        start = b;
    }
    parts.push((start, title.len()));
    let text = |p: (usize, usize)| title[p.0..p.1].trim();
    if let Some(h) = heading.map(squash).filter(|h| !h.is_empty()) {
        if let Some(&p) = parts.iter().find(|&&p| squash(text(p)) == h) {
            return text(p).to_owned();
        }
    }
    let keys: Vec<String> = sites
        .iter()
        .map(|s| squash(s))
        .filter(|s| !s.is_empty())
        .collect();
    let is_site = |p: (usize, usize)| {
        let t = text(p);
        let k = squash(t);
        !k.is_empty()
            && keys.iter().any(|s| {
                *s == k
                    || s.contains(&k) && k.len() * 2 >= s.len()
                    || k.contains(s.as_str()) && t.split_whitespace().count() <= 4
            })
    };
    let (mut lo, mut hi) = (0, parts.len());
    let mut named = false;
    while hi - lo > 1 && is_site(parts[hi - 1]) {
        hi -= 1;
        named = true;
    }
    while hi - lo > 1 && is_site(parts[lo]) {
        lo += 1;
        named = true;
    }
    if !named && hi - lo > 1 {
        let last = parts[hi - 1];
        let before = &title[..last.0];
        if before.trim_end().ends_with('|') && text(last).split_whitespace().count() <= 4 {
            hi -= 1;
        }
    }
    let kept = title[parts[lo].0..parts[hi - 1].1].trim();
    if kept.is_empty() {
        title
    } else {
        kept.to_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strips_the_site_name() {
        let sites = vec!["The Daily Planet".to_owned(), "dailyplanet".to_owned()];
        let s = |t: &str, h: Option<&str>| strip_site(t, &sites, h);
        assert_eq!(
            s("Storm hits coast | The Daily Planet", None),
            "Storm hits coast"
        );
        assert_eq!(
            s("Daily Planet - Storm hits coast", None),
            "Storm hits coast"
        );
        assert_eq!(
            s("Storm hits coast – News – The Daily Planet", None),
            "Storm hits coast – News"
        );
        assert_eq!(
            s("Storm hits coast | Weather | Metropolis News", None),
            "Storm hits coast | Weather"
        );
        assert_eq!(
            s("Ask me - anything you like", None),
            "Ask me - anything you like"
        );
        assert_eq!(
            s("Foo - Storm hits coast - Bar", Some("Storm hits coast")),
            "Storm hits coast"
        );
        assert_eq!(s("The Daily Planet", None), "The Daily Planet");
    }
}
