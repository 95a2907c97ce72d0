//! Hosts and sites of links, as a browser reads them: the WHATWG URL Standard through the `url`
//! crate (IDNA to ASCII, IPv4 and IPv6 hosts, `\\` read as `/`, userinfo), and the public
//! suffix list for a host's registrable domain. Links are only compared by site; a page's own
//! URL is also read for the path convention of forum threads ([`names_thread`]).

use std::borrow::Cow;

use url::{Host, Url};

/// The lowercase ASCII host of an absolute `http(s)` URL or a protocol-relative `//` one, as the
/// WHATWG URL parser gives it (a trailing dot dropped; an IPv6 host without brackets), else `None`.
///
/// Complexity: O(len). An authority that is plain ASCII (letters, digits, `-`, `.`, an optional
/// port) and does not end in a number is its own host lowercased, so it skips the full parser;
/// anything else (IDNA, IP addresses, userinfo, percent-escapes, backslashes) goes through it.
pub fn host(url: &str) -> Option<String> {
    host_cow(url).map(Cow::into_owned)
}

/// [`host`], borrowed from `url` when the authority is plain ASCII and already lowercase (most
/// links), so that judging a link allocates nothing.
fn host_cow(url: &str) -> Option<Cow<'_, str>> {
    // The URL parser strips leading and trailing C0 controls and spaces.
    let url = url.trim_matches(|c: char| c <= ' ');
    let (web_scheme, rest) = match url.split_once(':') {
        Some((scheme, rest)) if !scheme.contains(['/', '\\', '?', '#']) => (
            scheme.eq_ignore_ascii_case("http") || scheme.eq_ignore_ascii_case("https"),
            rest,
        ),
        _ => (false, url),
    };
    let relative = !web_scheme && rest.len() == url.len();
    let slashes = rest
        .bytes()
        .take_while(|&b| b == b'/' || b == b'\\')
        .count();
    // A relative link names a host only with two slashes; `http:` does with any number.
    if !(web_scheme && slashes >= 1 || relative && slashes >= 2) {
        return None;
    }
    if let Some(h) = plain_host(&rest[slashes..]) {
        return Some(if h.bytes().any(|b| b.is_ascii_uppercase()) {
            Cow::Owned(h.to_ascii_lowercase())
        } else {
            Cow::Borrowed(h)
        });
    }
    let parsed = if relative {
        Url::parse(&format!("http:{url}"))
    } else {
        Url::parse(url)
    };
    match parsed.ok()?.host()? {
        Host::Domain(d) => {
            let d = d.trim_end_matches('.');
            (!d.is_empty()).then(|| Cow::Owned(d.to_owned()))
        }
        Host::Ipv4(a) => Some(Cow::Owned(a.to_string())),
        Host::Ipv6(a) => Some(Cow::Owned(a.to_string())),
    }
}

/// The host of `authority…` when the URL parser would return it lowercased and unchanged: ASCII
/// letters, digits, `-` and `.` only, no empty or punycode label, a last label that is not a
/// number (else it is an IPv4 address), then nothing or a port, then the path. Not lowercased.
fn plain_host(after_slashes: &str) -> Option<&str> {
    let end = after_slashes
        .find(['/', '\\', '?', '#'])
        .unwrap_or(after_slashes.len());
    let authority = &after_slashes[..end];
    let (name, port) = match authority.split_once(':') {
        Some((n, p)) => (n, Some(p)),
        None => (authority, None),
    };
    if port.is_some_and(|p| !p.bytes().all(|b| b.is_ascii_digit())) {
        return None;
    }
    let name = name.strip_suffix('.').unwrap_or(name);
    if name.is_empty()
        || !name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'.')
    {
        return None;
    }
    let mut labels = name.split('.');
    if labels
        .clone()
        .any(|l| l.is_empty() || l.len() >= 4 && l.as_bytes()[..4].eq_ignore_ascii_case(b"xn--"))
    {
        return None;
    }
    let last = labels.next_back()?;
    let numeric = last.bytes().all(|b| b.is_ascii_digit())
        || last.len() >= 2 && last.as_bytes()[..2].eq_ignore_ascii_case(b"0x");
    (!numeric).then_some(name)
}

/// The registrable domain (eTLD+1 from the public suffix list) of a host, or the host itself
/// when it has none (an IP address, `localhost`).
pub(crate) fn registrable_domain(host: &str) -> String {
    registrable(host).to_owned()
}

/// [`registrable_domain`], borrowed from `host`.
fn registrable(host: &str) -> &str {
    if host.parse::<std::net::IpAddr>().is_ok() {
        return host;
    }
    psl::domain_str(host).unwrap_or(host)
}

/// The registrable domain of a URL, when it has a host.
pub fn site_of(url: &str) -> Option<String> {
    host(url).map(|h| registrable_domain(&h))
}

/// Whether a link stays on the site `site` (a registrable domain). Relative links do; links
/// with a non-web scheme (`mailto:`, `javascript:`) do not count as either and give `None`.
pub(crate) fn is_intra_site(href: &str, site: Option<&str>) -> Option<bool> {
    let href = href.trim();
    if let Some(h) = host_cow(href) {
        return site.map(|s| registrable(&h) == s);
    }
    let scheme_end = href.find(':');
    let first_sep = href.find(['/', '?', '#']);
    match (scheme_end, first_sep) {
        // `mailto:x`, `javascript:…`: a scheme before any path separator.
        (Some(c), None) => (c == 0).then_some(true),
        (Some(c), Some(s)) if c < s => None,
        _ => Some(true),
    }
}

/// Whether `v`, with every space and control character removed and case aside, starts with
/// one of `schemes` (each lowercase, with its colon): how a browser reads a link's scheme
/// (`j a v a s c r i p t :` runs too). Reads at most the first 11 such characters. O(1).
pub(crate) fn has_scheme(v: &str, schemes: &[&str]) -> bool {
    let mut squeezed = [0u8; 11];
    let mut n = 0;
    for c in v.chars().filter(|c| !(c.is_whitespace() || c.is_control())) {
        if n == squeezed.len() || !c.is_ascii() {
            break;
        }
        squeezed[n] = c.to_ascii_lowercase() as u8;
        n += 1;
    }
    schemes
        .iter()
        .any(|s| squeezed[..n].starts_with(s.as_bytes()))
}

/// Whether a link runs a script instead of leading anywhere (`javascript:`, `vbscript:`): such
/// an anchor is a button, not a link to another page (Readability turns it into its text).
pub fn runs_script(href: &str) -> bool {
    has_scheme(href, &["javascript:", "vbscript:"])
}

/// Path segments that forum engines put before a thread's id: XenForo `threads`, Discourse `t`,
/// Invision `topic`, Reddit and Lemmy-style `comments`, Stack Exchange `questions`, and kin.
const THREAD_SEGMENTS: [&str; 6] = ["threads", "thread", "t", "topic", "questions", "comments"];

/// Script names of the classic forum engines' thread views (phpBB, vBulletin, TripAdvisor-style
/// `ShowTopic-…`), matched as a segment's start, ASCII case-insensitively.
const THREAD_SCRIPTS: [&str; 3] = ["showthread", "viewtopic", "showtopic"];

/// Whether an absolute `http(s)` URL names one forum thread by its engine's path convention: a
/// segment `threads`, `thread`, `t`, `topic`, `questions` or `comments` followed by a later
/// segment holding a digit (the thread's id: `/threads/title.691400/`, `/t/slug/1234`,
/// `/r/sub/comments/1rku5x9/…`; a topic index such as `/topic/technology` has none), or a
/// segment starting with `showthread`, `viewtopic` or `showtopic`, ASCII case-insensitively.
/// The query and fragment are not read.
///
/// Complexity: O(len), no allocation.
pub fn names_thread(url: &str) -> bool {
    let Some(mut segments) = path_segments(url) else {
        return false;
    };
    while let Some(seg) = segments.next() {
        let starts = |p: &str| seg.len() >= p.len() && seg[..p.len()].eq_ignore_ascii_case(p);
        if THREAD_SCRIPTS.iter().any(|p| starts(p)) {
            return true;
        }
        if THREAD_SEGMENTS.iter().any(|t| seg.eq_ignore_ascii_case(t)) {
            return segments.any(|s| s.bytes().any(|b| b.is_ascii_digit()));
        }
    }
    false
}

/// The non-empty path segments of an absolute `http(s)` URL (the authority, query and fragment
/// left out), `None` for anything else. O(len), no allocation.
fn path_segments(url: &str) -> Option<impl Iterator<Item = &str>> {
    let (scheme, rest) = url.trim().split_once("://")?;
    if !(scheme.eq_ignore_ascii_case("http") || scheme.eq_ignore_ascii_case("https")) {
        return None;
    }
    let rest = rest.split(['?', '#']).next().unwrap_or("");
    // The authority is the first segment.
    Some(rest.split('/').skip(1).filter(|s| !s.is_empty()))
}

/// What a page's URL path says about the page, for the model's URL columns.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct PathShape {
    /// Non-empty path segments.
    pub depth: u32,
    /// Runs of ASCII letters in the wordiest segment (its extension not counted).
    pub slug_words: u32,
    /// Whether the path holds a date: a year segment (1990–2099) followed by a month segment
    /// (1–12), or a segment starting `YYYY-MM-DD` or `YYYYMMDD` with a plausible month and day.
    pub dated: bool,
}

/// The [`PathShape`] of an absolute `http(s)` URL, `None` for anything else. The query and
/// fragment are not read.
///
/// Complexity: O(len), no allocation.
pub fn path_shape(url: &str) -> Option<PathShape> {
    let segments = path_segments(url)?;
    let year = |s: &str| s.len() == 4 && s.parse::<u32>().is_ok_and(|y| (1990..2100).contains(&y));
    let month = |s: &str| s.len() <= 2 && s.parse::<u32>().is_ok_and(|m| (1..=12).contains(&m));
    let day = |s: &str| s.parse::<u32>().is_ok_and(|d| (1..=31).contains(&d));
    let ymd = |s: &str| {
        let b = s.as_bytes();
        let digits =
            |r: std::ops::Range<usize>| b.get(r).is_some_and(|d| d.iter().all(u8::is_ascii_digit));
        (b.len() >= 10
            && digits(0..4)
            && b[4] == b'-'
            && digits(5..7)
            && b[7] == b'-'
            && digits(8..10)
            && year(&s[0..4])
            && month(&s[5..7])
            && day(&s[8..10]))
            || (b.len() >= 8
                && digits(0..8)
                && !digits(8..9)
                && year(&s[0..4])
                && month(&s[4..6])
                && day(&s[6..8]))
    };
    let mut shape = PathShape::default();
    let mut prev_year = false;
    for seg in segments {
        shape.depth += 1;
        shape.dated |= prev_year && month(seg) || ymd(seg);
        prev_year = year(seg);
        let stem = seg.rsplit_once('.').map_or(seg, |(stem, _)| stem);
        let words = stem
            .split(|c: char| !c.is_ascii_alphabetic())
            .filter(|w| !w.is_empty())
            .count() as u32;
        shape.slug_words = shape.slug_words.max(words);
    }
    Some(shape)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn script_links_are_read_as_browsers_read_schemes() {
        for yes in [
            "javascript:",
            "javascript:void(0)",
            " JavaScript:x",
            "java\tscript:x",
            "\u{1}vbscript:x",
        ] {
            assert!(runs_script(yes), "{yes:?}");
        }
        for no in [
            "/javascript:",
            "#",
            "https://example.org/javascript:",
            "javascrip",
            "data:text/html,x",
            "jаvascript:x",
        ] {
            assert!(!runs_script(no), "{no:?}");
        }
        assert!(has_scheme("DATA:x", &["data:"]));
    }

    #[test]
    fn path_shapes() {
        let shape = |u| path_shape(u).unwrap();
        let a = shape("https://example.com/2025/09/04/top-nutrition-trends-for-fall/?x=1");
        assert_eq!((a.depth, a.slug_words, a.dated), (4, 5, true));
        let b = shape("https://shop.example.com/collections/mens-shoes");
        assert_eq!((b.depth, b.slug_words, b.dated), (2, 2, false));
        assert_eq!(shape("https://example.com/"), PathShape::default());
        assert!(shape("http://x.org/news/2017-03-27-reef-dies.html").dated);
        assert!(shape("http://x.org/a/20170327/story.html").dated);
        assert!(!shape("http://x.org/a/20171327/story.html").dated);
        assert!(!shape("http://x.org/product/2024/13/x").dated);
        assert!(!shape("http://x.org/sku/123456789").dated);
        assert_eq!(shape("http://x.org/article3322353.ece").slug_words, 1);
        assert_eq!(path_shape("/relative/path"), None);
        assert_eq!(path_shape("mailto:a@b.c"), None);
    }

    #[test]
    fn thread_urls_by_engine_convention() {
        for url in [
            "https://www.spigotmc.org/threads/best-hosts-2025-updated.691400/",
            "https://forum.example.org/t/some-question/1234",
            "https://old.reddit.com/r/science/comments/1rku5x9/fully_functional/",
            "https://math.stackexchange.com/questions/12345/why",
            "http://example.com/forum/showthread.php?t=99",
            "http://example.com/viewtopic.php?f=2&t=3",
            "https://www.tripadvisor.com/ShowTopic-g1-i5-k15-Tips.html",
            "HTTPS://EXAMPLE.COM/Topic/12345-title/",
        ] {
            assert!(names_thread(url), "{url}");
        }
        for url in [
            "https://example.com/topic/technology",
            "https://example.com/threads/",
            "https://example.com/2024/01/12/comments-on-the-budget",
            "https://example.com/blog/post/2024/hello",
            "https://threads.example.com/12345",
            "https://example.com/comments?id=5",
            "ftp://example.com/threads/1",
            "/threads/1",
            "",
        ] {
            assert!(!names_thread(url), "{url}");
        }
    }

    #[test]
    fn hosts_and_sites() {
        assert_eq!(
            host("https://User@News.BBC.co.uk:443/a?b").as_deref(),
            Some("news.bbc.co.uk")
        );
        assert_eq!(
            host("//cdn.example.com/x").as_deref(),
            Some("cdn.example.com")
        );
        assert_eq!(host("/relative"), None);
        assert_eq!(host("mailto:a@b.c"), None);
        assert_eq!(
            site_of("http://news.bbc.co.uk/x").as_deref(),
            Some("bbc.co.uk")
        );
        assert_eq!(registrable_domain("localhost"), "localhost");
    }

    /// Hosts as a browser reads them: IP addresses are their own site, a backslash ends the
    /// authority of a web URL, and an internationalised name is the same site as its punycode.
    #[test]
    fn hosts_as_the_url_standard_reads_them() {
        assert_eq!(
            site_of("https://192.168.0.1/x").as_deref(),
            Some("192.168.0.1")
        );
        assert_eq!(site_of("http://0x7f.1/").as_deref(), Some("127.0.0.1"));
        assert_eq!(site_of("http://[::1]:8080/").as_deref(), Some("::1"));
        assert_eq!(
            site_of("http://a.example.com\\@evil.com/").as_deref(),
            Some("example.com")
        );
        assert_eq!(
            site_of("http://user@evil.com@a.example.com/").as_deref(),
            Some("example.com")
        );
        assert_eq!(
            site_of("http://bücher.de/").as_deref(),
            Some("xn--bcher-kva.de")
        );
        assert_eq!(
            site_of("http://xn--bcher-kva.de/").as_deref(),
            Some("xn--bcher-kva.de")
        );
        assert_eq!(
            site_of("HTTP://WWW.Example.COM./").as_deref(),
            Some("example.com")
        );
        assert_eq!(
            host("\\\\cdn.example.com/x").as_deref(),
            Some("cdn.example.com")
        );
        assert_eq!(host("https:cdn.example.com"), None);
        assert_eq!(
            host("http://%65xample.com/").as_deref(),
            Some("example.com")
        );
        assert_eq!(host("http://exa mple.com/"), None);
    }

    /// The fast path gives what the URL parser gives, on every shape it takes.
    #[test]
    fn plain_hosts_match_the_parser() {
        for u in [
            "http://a.b-c.example.org/x",
            "https://EXAMPLE.com:8080?q",
            "//news.example.co.uk#f",
            "http://a1.b2.c3/",
            "http://example.com./",
        ] {
            let parsed = Url::parse(&if u.starts_with("//") {
                format!("http:{u}")
            } else {
                u.to_owned()
            })
            .unwrap();
            let via_parser = parsed.host_str().unwrap().trim_end_matches('.').to_owned();
            assert_eq!(host(u), Some(via_parser), "{u}");
        }
    }

    #[test]
    fn intra_site_links() {
        let s = Some("bbc.co.uk");
        assert_eq!(is_intra_site("/news", s), Some(true));
        assert_eq!(is_intra_site("page.html", s), Some(true));
        assert_eq!(is_intra_site("https://www.bbc.co.uk/sport", s), Some(true));
        assert_eq!(is_intra_site("https://twitter.com/bbc", s), Some(false));
        assert_eq!(is_intra_site("mailto:x@bbc.co.uk", s), None);
        assert_eq!(is_intra_site("javascript:void(0)", s), None);
        assert_eq!(is_intra_site("https://twitter.com/bbc", None), None);
    }
}
