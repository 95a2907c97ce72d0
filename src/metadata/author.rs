//! Author names: cleaning a byline into names, and rejecting what is not a person.

use super::vocabulary::{BYLINE_PREFIXES, JOB_TITLE_WORDS, NOT_PERSONS};
use crate::date;

/// Most names kept from one value (a byline listing a dozen contributors keeps the first ones).
const MAX_NAMES: usize = 5;

/// Longest name taken, in words: longer ones are sentences, not names (degrees after a comma
/// are cut first).
const MAX_NAME_WORDS: usize = 6;

/// `raw` as a person's name or several joined by `"; "`, or `None` when no part is a person.
///
/// Cleaning: whitespace collapsed; a leading `By`, `Written by`, `Author:` (and their French,
/// German, Spanish, Italian, Dutch forms) dropped; what follows a separator (`|`, `•`, `·`, a
/// line break, ` on `/` - ` before a date) cut; names split at `,`/`;`/` and `/`&` when each
/// side is a name. Rejected as not a person: anything with `@`, `://`, `www.`, or a digit-only
/// or date value, a generic role (`admin`, `staff`, `editor`, … [`NOT_PERSONS`]), a name equal
/// to the site's (`site`, compared without case, spaces or punctuation), or more than
/// six words (`MAX_NAME_WORDS`).
///
/// # Complexity
/// O(len of `raw`).
pub fn clean(raw: &str, site: &[&str]) -> Option<String> {
    let raw = date::cut(raw, 400);
    let mut names: Vec<String> = Vec::new();
    // A line break, bar or bullet ends the byline; what follows is a date or a role.
    // A line holding only `By` or `Written by` introduces the next one.
    let first = raw
        .split(['|', '•', '·', '\n', '\r', '\t'])
        .map(collapse)
        .find(|p| !strip_prefix(p).is_empty())?;
    let mut s = strip_prefix(&first);
    // "Jane Doe on September 4, 2025" / "Jane Doe - 4 Sep 2025": the date is not the name.
    for sep in [" on ", " - ", " – ", " — ", ", "] {
        if let Some(k) = s.find(sep) {
            if date::parse(&s[k..]).is_some() {
                s = &s[..k];
            }
        }
    }
    for part in split_names(s) {
        let part = strip_prefix(part)
            .trim_matches(|c: char| !c.is_alphanumeric() && c != '.' && c != ')')
            .trim();
        if let Some(name) = person(part, site) {
            if !names.iter().any(|n| n.eq_ignore_ascii_case(&name)) {
                names.push(name);
            }
        }
        if names.len() == MAX_NAMES {
            break;
        }
    }
    (!names.is_empty()).then(|| names.join("; "))
}

/// `s` with runs of whitespace made one space.
fn collapse(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// `s` without a leading byline word (`By`, `Written by`, `Author:`…).
fn strip_prefix(s: &str) -> &str {
    let mut s = s.trim();
    loop {
        let before = s.len();
        for p in BYLINE_PREFIXES {
            if s.len() >= p.len()
                && s.is_char_boundary(p.len())
                && s[..p.len()].eq_ignore_ascii_case(p)
            {
                let rest = &s[p.len()..];
                // A prefix is a whole word: "Byron" keeps its "By".
                if rest.is_empty()
                    || rest.starts_with(|c: char| c.is_whitespace() || c == ':')
                    || p.ends_with(':')
                {
                    s = rest.trim_start_matches([':', ' ']).trim();
                }
            }
        }
        if s.len() == before {
            return s;
        }
    }
}

/// The parts of a byline naming several people: split at `;`, ` and `, ` & `, ` und `, ` et `,
/// and at commas unless what follows a comma is a degree (`Jane Doe, MD`); a job title after a
/// comma (`Jane Doe, Staff Writer`, [`is_job_title`]) and what follows it are dropped.
fn split_names(s: &str) -> Vec<&str> {
    // "Jane Doe (with John Roe and Ann Poe)" is one credit line: kept whole.
    if s.contains('(') {
        return vec![s];
    }
    let mut parts = Vec::new();
    for a in s.split(';') {
        let mut rest = a;
        'outer: loop {
            for sep in [" and ", " & ", " und ", " et "] {
                if let Some(k) = find_ci(rest, sep) {
                    parts.push(&rest[..k]);
                    rest = &rest[k + sep.len()..];
                    continue 'outer;
                }
            }
            break;
        }
        parts.push(rest);
    }
    let mut out = Vec::new();
    for p in parts {
        let p = before_role(p);
        let pieces: Vec<&str> = p.split(',').map(str::trim).collect();
        // A comma between names (each two words or more) separates people; before a short
        // all-caps or one-word piece it introduces a degree or title, kept with the name.
        if pieces.len() > 1 && pieces.iter().all(|q| q.split_whitespace().count() >= 2) {
            out.extend(pieces);
        } else if pieces.len() > 1 && pieces[1..].iter().all(|q| is_degree(q)) {
            out.push(p.trim());
        } else {
            out.push(pieces[0]);
        }
    }
    out
}

/// `p` up to the comma before its first job title after the name: "Jane Doe, Local Affairs
/// Reporter, The Gazette" names one person, her role and her paper, not three authors.
fn before_role(p: &str) -> &str {
    let mut at = 0;
    for piece in p.split(',') {
        if at > 0 && is_job_title(piece) {
            return &p[..at - 1];
        }
        at += piece.len() + 1;
    }
    p
}

/// A job title (`Local Affairs Reporter`, `Senior Editor at the Gazette`): a word of it is one
/// of [`JOB_TITLE_WORDS`].
fn is_job_title(s: &str) -> bool {
    s.split(|c: char| !c.is_alphanumeric() && c != '-')
        .any(|w| JOB_TITLE_WORDS.iter().any(|j| w.eq_ignore_ascii_case(j)))
}

/// A degree or post-nominal (`MD`, `PhD`, `MS`, `RD`): short and mostly capitals.
fn is_degree(s: &str) -> bool {
    let letters = s.chars().filter(|c| c.is_alphabetic()).count();
    let caps = s.chars().filter(|c| c.is_uppercase()).count();
    (1..=6).contains(&letters) && caps * 2 >= letters && !s.contains(' ')
}

/// Byte offset of `pat` in `s`, ASCII case ignored.
fn find_ci(s: &str, pat: &str) -> Option<usize> {
    let (b, p) = (s.as_bytes(), pat.as_bytes());
    (0..=b.len().checked_sub(p.len())?)
        .find(|&k| b[k..k + p.len()].eq_ignore_ascii_case(p) && s.is_char_boundary(k))
}

/// `s` when it reads as a person's name.
fn person(s: &str, site: &[&str]) -> Option<String> {
    let s = s.trim();
    let words = s.split_whitespace().count();
    if words == 0 || words > MAX_NAME_WORDS || s.chars().count() > 80 {
        return None;
    }
    let lower = s.to_lowercase();
    if lower.contains('@')
        || lower.contains("://")
        || lower.starts_with("www.")
        || lower.contains(".com")
        || !s.chars().any(char::is_alphabetic)
        || s.chars().filter(|c| c.is_ascii_digit()).count() > 2
        || date::parse(s).is_some()
        || looks_dated(s)
    {
        return None;
    }
    let key = squash(&lower);
    if key.is_empty() || NOT_PERSONS.iter().any(|w| squash(w) == key) {
        return None;
    }
    if site.iter().any(|n| {
        let n = squash(&n.to_lowercase());
        !n.is_empty() && (n == key || n.contains(&key) && key.len() * 2 >= n.len())
    }) {
        return None;
    }
    Some(s.to_owned())
}

/// A month name beside a number (`September 4`): a date cut at its comma, not a name.
fn looks_dated(s: &str) -> bool {
    let words: Vec<&str> = s
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect();
    words.iter().any(|w| date::month_of(w).is_some())
        && words.iter().any(|w| w.bytes().all(|b| b.is_ascii_digit()))
}

/// Letters and digits only: how names and site names are compared.
fn squash(s: &str) -> String {
    s.chars().filter(|c| c.is_alphanumeric()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cleans_bylines_into_names() {
        let c = |s: &str| clean(s, &["The Daily Planet", "dailyplanet.com"]);
        assert_eq!(c("By Jane Doe").as_deref(), Some("Jane Doe"));
        assert_eq!(
            c("  Written by\n Jane   Doe | 4 Sep 2025").as_deref(),
            Some("Jane Doe")
        );
        assert_eq!(
            c("Jane Doe on September 4, 2025").as_deref(),
            Some("Jane Doe")
        );
        assert_eq!(
            c("By Jane Doe and John Roe").as_deref(),
            Some("Jane Doe; John Roe")
        );
        assert_eq!(
            c("Dylan Bailey, MS, RD, FAND").as_deref(),
            Some("Dylan Bailey, MS, RD, FAND")
        );
        assert_eq!(c("Byron Smith").as_deref(), Some("Byron Smith"));
        assert_eq!(
            c("By Maren Ellison, Local Affairs Reporter").as_deref(),
            Some("Maren Ellison")
        );
        assert_eq!(
            c("Jane Doe, Senior Editor, and John Roe, Staff Writer").as_deref(),
            Some("Jane Doe; John Roe")
        );
        assert_eq!(
            c("Jane Doe, MD, Columnist").as_deref(),
            Some("Jane Doe, MD")
        );
        assert_eq!(
            c("Jane Doe, John Roe").as_deref(),
            Some("Jane Doe; John Roe")
        );
    }

    #[test]
    fn rejects_what_is_not_a_person() {
        let c = |s: &str| clean(s, &["The Daily Planet", "dailyplanet.com"]);
        for bad in [
            "admin",
            "By Admin",
            "Editorial Staff",
            "https://www.facebook.com/janedoe",
            "jane@example.com",
            "The Daily Planet",
            "DailyPlanet.com",
            "2025-09-04",
            "September 4, 2025",
            "This is a whole sentence that says far too much to be a name",
        ] {
            assert_eq!(c(bad), None, "{bad}");
        }
    }
}
