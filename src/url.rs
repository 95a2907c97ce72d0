//! The little URL handling the features need: a link's host and registrable domain, without
//! a full URL parser (links are only compared by site).

/// The lowercase host of an absolute `http(s)://` or protocol-relative `//` URL, else `None`.
pub fn host(url: &str) -> Option<String> {
    let url = url.trim();
    let rest = if let Some(r) = url.strip_prefix("//") {
        r
    } else {
        let (scheme, r) = url.split_once("://")?;
        if !scheme.eq_ignore_ascii_case("http") && !scheme.eq_ignore_ascii_case("https") {
            return None;
        }
        r
    };
    let authority = rest.split(['/', '?', '#']).next().unwrap_or("");
    let hostport = authority.rsplit('@').next().unwrap_or("");
    let host = match hostport.strip_prefix('[') {
        Some(v6) => v6.split(']').next().unwrap_or(""),
        None => hostport.split(':').next().unwrap_or(""),
    };
    let host = host.trim_end_matches('.').to_ascii_lowercase();
    (!host.is_empty()).then_some(host)
}

/// The registrable domain (eTLD+1 from the public suffix list) of a host, or the host itself
/// when it has none (an IP address, `localhost`).
pub fn registrable_domain(host: &str) -> String {
    psl::domain_str(host).unwrap_or(host).to_owned()
}

/// The registrable domain of a URL, when it has a host.
pub fn site_of(url: &str) -> Option<String> {
    host(url).map(|h| registrable_domain(&h))
}

/// Whether a link stays on the site `site` (a registrable domain). Relative links do; links
/// with a non-web scheme (`mailto:`, `javascript:`) do not count as either and give `None`.
pub fn is_intra_site(href: &str, site: Option<&str>) -> Option<bool> {
    let href = href.trim();
    if let Some(h) = host(href) {
        return site.map(|s| registrable_domain(&h) == s);
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

#[cfg(test)]
mod tests {
    use super::*;

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
