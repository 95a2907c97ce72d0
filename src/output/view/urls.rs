//! The view's URL policy: which link targets stay and which URLs may load, read as the
//! URL and HTML standards read attribute values.

/// Whether `c` is HTML whitespace (space, tab, LF, FF, CR).
pub(crate) fn is_html_space(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\n' | '\x0c' | '\r')
}

/// The URL a browser reads from an attribute value: C0 controls and spaces trimmed at both
/// ends, tabs and newlines removed everywhere (the URL standard's first steps).
pub fn clean_url(v: &str) -> String {
    v.trim_matches(|c: char| c <= ' ')
        .chars()
        .filter(|c| !matches!(c, '\t' | '\n' | '\r'))
        .collect()
}

/// The scheme of URL `u` (after [`clean_url`]), lowercased, when it has one: a letter, then
/// letters, digits, `+`, `-` or `.`, then `:`.
pub fn scheme(u: &str) -> Option<String> {
    let colon = u.find(':')?;
    let s = &u[..colon];
    let mut chars = s.chars();
    let valid = chars.next()?.is_ascii_alphabetic()
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'));
    valid.then(|| s.to_ascii_lowercase())
}

/// Whether a URL, with every space and control character removed and lowercased, starts with
/// a scheme that runs or embeds code (`javascript:`, `vbscript:`, `data:`): a second check,
/// beside the scheme allow-lists, that needs no URL parsing to be right.
pub(crate) fn scriptish_url(v: &str) -> bool {
    crate::url::has_scheme(v, &["javascript:", "vbscript:", "data:"])
}

/// A link target that may stay: relative, or `http(s)`, `mailto` or `tel`.
pub(crate) fn nav_url(v: &str) -> Option<String> {
    let u = clean_url(v);
    if scriptish_url(&u) {
        return None;
    }
    match scheme(&u).as_deref() {
        None | Some("http" | "https" | "mailto" | "tel") => Some(u),
        Some(_) => None,
    }
}

/// A URL the page loads, if it may: only with `allow_remote`, and only `http(s)` (a
/// scheme-relative one gets `https:`; a relative one would read local files next to the view).
pub(crate) fn load_url(v: &str, allow_remote: bool) -> Option<String> {
    if !allow_remote {
        return None;
    }
    let u = clean_url(v);
    let b = u.as_bytes();
    if b.len() >= 2 && matches!(b[0], b'/' | b'\\') && matches!(b[1], b'/' | b'\\') {
        return Some(format!("https:{u}"));
    }
    match scheme(&u).as_deref() {
        Some("http" | "https") => Some(u),
        _ => None,
    }
}

/// A `srcset` with only the candidates whose URL may load (see [`load_url`]), `None` if none
/// may. Candidates are split as the HTML standard splits them: a URL runs to whitespace (less
/// trailing commas), its descriptors to a comma outside parentheses.
pub(crate) fn clean_srcset(v: &str, allow_remote: bool) -> Option<String> {
    if !allow_remote {
        return None;
    }
    let mut out = String::new();
    let mut rest = v;
    loop {
        rest = rest.trim_start_matches(|c| is_html_space(c) || c == ',');
        if rest.is_empty() {
            break;
        }
        let end = rest.find(is_html_space).unwrap_or(rest.len());
        let (mut url, after) = rest.split_at(end);
        rest = after;
        let mut descriptors = "";
        if url.ends_with(',') {
            url = url.trim_end_matches(',');
        } else {
            let mut depth = 0usize;
            let mut cut = rest.len();
            for (i, c) in rest.char_indices() {
                match c {
                    '(' => depth += 1,
                    ')' => depth = depth.saturating_sub(1),
                    ',' if depth == 0 => {
                        cut = i;
                        break;
                    }
                    _ => {}
                }
            }
            descriptors = rest[..cut].trim_matches(is_html_space);
            rest = &rest[cut..];
        }
        // A browser drops a candidate whose descriptors do not parse; so does the view, which
        // keeps commas and parentheses of odd descriptors out of its output.
        if !descriptors.split(is_html_space).all(is_srcset_descriptor) {
            continue;
        }
        if let Some(u) = load_url(url, allow_remote) {
            if !out.is_empty() {
                out.push_str(", ");
            }
            out.push_str(&u);
            if !descriptors.is_empty() {
                out.push(' ');
                out.push_str(descriptors);
            }
        }
    }
    (!out.is_empty()).then_some(out)
}

/// Whether `d` is a srcset descriptor a browser accepts: a number and `w`, `x` or `h` (`1.5x`,
/// `640w`); the empty token of no descriptor too.
pub(crate) fn is_srcset_descriptor(d: &str) -> bool {
    let Some(number) = d.strip_suffix(['w', 'x', 'h']) else {
        return d.is_empty();
    };
    number
        .parse::<f64>()
        .is_ok_and(|n| n.is_finite() && n >= 0.0)
}
