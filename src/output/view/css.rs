//! Style sheets and `style` attributes in the view: the page's CSS token for token, except that
//! every load it could make is neutralised.
//!
//! CSS loads through `url()` tokens and functions, `src()`, `@import` and the image functions
//! whose strings are URLs (`image-set()` and kin). The walk reads CSS with `cssparser` (the
//! tokenizer of Servo, which decodes escapes as browsers do, so `u\72l(` is seen as `url(`) and
//! copies every token's source text, replacing a load with `none` (an invalid value, so the
//! browser drops that declaration) and `@import` with `@x-import` (an unknown at-rule, ignored
//! up to its `;`). Kept: `url(#id)` (references inside the document), `data:` URLs (contained
//! in the file), and with `allow_remote` absolute `http(s)` URLs.

use cssparser::{ParseError, Parser, ParserInput, SourcePosition, Token};

use super::urls::{clean_url, scheme};

/// Blocks nested deeper than this make the whole style sheet or attribute go: the walk recurses
/// once per block, and no real style sheet comes near it.
pub(crate) const MAX_CSS_DEPTH: usize = 100;

/// Functions other than `url()` and `src()` whose string arguments are URLs (CSS Images 4 and
/// vendor forms). Lowercase, sorted.
const IMAGE_FUNCTIONS: &[&str] = &[
    "-moz-element",
    "-moz-image-rect",
    "-webkit-cross-fade",
    "-webkit-image-set",
    "cross-fade",
    "element",
    "image",
    "image-set",
    "paint",
];

/// The CSS with every load neutralised (see the module documentation).
///
/// # Returns
/// `None` when blocks nest deeper than [`MAX_CSS_DEPTH`]. The output is the input wherever no
/// load was found, byte for byte.
///
/// # Complexity
/// O(length) time; recursion depth at most [`MAX_CSS_DEPTH`].
pub(crate) fn clean_css(css: &str, allow_remote: bool) -> Option<String> {
    let mut input = ParserInput::new(css);
    let mut parser = Parser::new(&mut input);
    let mut out = String::with_capacity(css.len());
    let mut walk = Walk {
        allow_remote,
        replaced: 0,
    };
    walk.block(&mut parser, &mut out, 0, false).ok()?;
    Some(out)
}

/// `css` for a `<style>` element: [`clean_css`], written so that it means the same whether
/// a parser reads the element as raw text (HTML) or as markup (SVG, MathML: if the browser's
/// tree differs from the rewriter's): every `<` as the CSS escape `\3c ` (the same character in
/// strings, URLs and identifiers; inert in comments), so that no tag can start, and every `&`
/// before a letter, digit or `#` as `\26 `, so that no character reference decodes into, say,
/// `url(`. A CDO (`<!--`) goes first: CSS ignores it, and its escape would break the rule after
/// it.
pub(crate) fn clean_style_sheet(css: &str, allow_remote: bool) -> String {
    let Some(clean) = clean_css(css, allow_remote) else {
        return String::new();
    };
    if !clean.contains(['<', '&']) {
        return clean;
    }
    let mut out = String::with_capacity(clean.len() + 16);
    let mut chars = clean.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '<' => out.push_str("\\3c "),
            '&' if chars
                .peek()
                .is_some_and(|n| n.is_ascii_alphanumeric() || *n == '#') =>
            {
                out.push_str("\\26 ")
            }
            _ => out.push(c),
        }
    }
    out
}

/// Whether a URL found in CSS may stay: a fragment reference, a `data:` URL, or, with
/// `allow_remote`, an absolute `http(s)` one. Read as the URL parser reads it (see
/// [`clean_url`]).
pub(crate) fn css_url_ok(raw: &str, allow_remote: bool) -> bool {
    let u = clean_url(raw);
    if u.starts_with('#') {
        return true;
    }
    match scheme(&u).as_deref() {
        Some("data") => true,
        Some("http" | "https") => allow_remote,
        _ => false,
    }
}

/// The state of one walk: the setting, and how many loads were replaced so far (a function
/// whose arguments had a replacement is replaced whole).
struct Walk {
    allow_remote: bool,
    replaced: usize,
}

impl Walk {
    /// Copies the tokens of the current block to `out` up to its end, neutralising loads;
    /// `strings_are_urls` inside image functions.
    fn block<'i>(
        &mut self,
        p: &mut Parser<'i, '_>,
        out: &mut String,
        depth: usize,
        strings_are_urls: bool,
    ) -> Result<(), ParseError<'i, ()>> {
        if depth > MAX_CSS_DEPTH {
            return Err(p.new_custom_error(()));
        }
        // Strings in an `@import` prelude are URLs, up to its `;` or block.
        let mut import = false;
        loop {
            let start = p.position();
            let Ok(token) = p.next_including_whitespace_and_comments() else {
                return Ok(());
            };
            let token = token.clone();
            match token {
                Token::UnquotedUrl(u) => {
                    if css_url_ok(&u, self.allow_remote) {
                        out.push_str(p.slice_from(start));
                    } else {
                        self.replace(out);
                    }
                }
                Token::BadUrl(_) => self.replace(out),
                Token::QuotedString(s) if strings_are_urls || import => {
                    if css_url_ok(&s, self.allow_remote) {
                        out.push_str(p.slice_from(start));
                    } else {
                        self.replace(out);
                    }
                }
                Token::AtKeyword(name) if name.eq_ignore_ascii_case("import") => {
                    import = true;
                    if self.allow_remote {
                        out.push_str(p.slice_from(start));
                    } else {
                        self.replaced += 1;
                        out.push_str("@x-import");
                    }
                }
                Token::Semicolon => {
                    import = false;
                    out.push(';');
                }
                // `<!--` and `-->` are whitespace to CSS at the top level and garbage elsewhere.
                Token::CDO | Token::CDC => out.push(' '),
                Token::Function(name) => {
                    let lname = name.to_ascii_lowercase();
                    if lname == "url" || lname == "src" {
                        let arg = p.parse_nested_block(|n| Ok(only_string(n)))?;
                        if arg.is_some_and(|s| css_url_ok(&s, self.allow_remote)) {
                            out.push_str(p.slice_from(start));
                        } else {
                            self.replace(out);
                        }
                    } else if IMAGE_FUNCTIONS.binary_search(&lname.as_str()).is_ok()
                        || (strings_are_urls && matches!(lname.as_str(), "var" | "env" | "attr"))
                    {
                        // Strings inside are URLs; a substituted value cannot be checked.
                        let opening = p.slice_from(start).to_owned();
                        let before = self.replaced;
                        let mut inner = String::new();
                        let ok =
                            self.allow_remote && !matches!(lname.as_str(), "var" | "env" | "attr");
                        let inner_end = p.parse_nested_block(|n| {
                            self.block(n, &mut inner, depth + 1, true)?;
                            Ok(n.position())
                        })?;
                        if ok && self.replaced == before {
                            out.push_str(&opening);
                            out.push_str(&inner);
                            out.push_str(p.slice(inner_end..p.position()));
                        } else {
                            self.replace(out);
                        }
                    } else {
                        out.push_str(p.slice_from(start));
                        self.nested(p, out, depth, strings_are_urls)?;
                    }
                }
                Token::CurlyBracketBlock => {
                    import = false;
                    out.push('{');
                    self.nested(p, out, depth, strings_are_urls)?;
                }
                Token::ParenthesisBlock | Token::SquareBracketBlock => {
                    out.push_str(p.slice_from(start));
                    self.nested(p, out, depth, strings_are_urls)?;
                }
                _ => out.push_str(p.slice_from(start)),
            }
        }
    }

    /// Walks the block just opened, then copies its closing bracket (absent at the end of input).
    fn nested<'i>(
        &mut self,
        p: &mut Parser<'i, '_>,
        out: &mut String,
        depth: usize,
        strings_are_urls: bool,
    ) -> Result<(), ParseError<'i, ()>> {
        let inner_end: SourcePosition = p.parse_nested_block(|n| {
            self.block(n, out, depth + 1, strings_are_urls)?;
            Ok(n.position())
        })?;
        out.push_str(p.slice(inner_end..p.position()));
        Ok(())
    }

    /// Writes `none` in place of a load.
    fn replace(&mut self, out: &mut String) {
        self.replaced += 1;
        out.push_str("none");
    }
}

/// The one string argument of a function (`url("…")`), if that is all it holds (whitespace
/// and comments aside).
fn only_string(p: &mut Parser<'_, '_>) -> Option<String> {
    let mut found = None;
    let mut others = false;
    while let Ok(t) = p.next_including_whitespace_and_comments() {
        match t {
            Token::WhiteSpace(_) | Token::Comment(_) => {}
            Token::QuotedString(s) if found.is_none() => found = Some(s.to_string()),
            _ => others = true,
        }
    }
    if others {
        None
    } else {
        found
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn image_functions_are_sorted() {
        assert!(IMAGE_FUNCTIONS.windows(2).all(|w| w[0] < w[1]));
    }

    #[test]
    fn loads_go_and_the_rest_stays() {
        let css = "a{color:red;background:url(http://x/a.png) no-repeat}/* c */b{x:1}";
        assert_eq!(
            clean_css(css, false).unwrap(),
            "a{color:red;background:none no-repeat}/* c */b{x:1}"
        );
        assert_eq!(clean_css(css, true).unwrap(), css);
        for bad in [
            "a{b:url('http://x')}",
            "a{b:URL( \"//x\" )}",
            "a{b:u\\72l(http://x)}",
            "a{b:\\75 rl(http://x)}",
            "a{b:url(x.png)}",
            "a{b:url(javascript:alert(1))}",
            "a{b:image-set('http://x' 1x)}",
            "a{b:-webkit-image-set(url(http://x) 1x)}",
            "a{b:src('http://x')}",
            "a{b:url(var(--u))}",
        ] {
            let out = clean_css(bad, false).unwrap();
            assert!(
                !out.contains("x)") && !out.contains("'http"),
                "{bad} -> {out}"
            );
            assert!(out.contains("none"), "{bad} -> {out}");
        }
        assert_eq!(
            clean_css("@import 'http://x/a.css';a{}", false).unwrap(),
            "@x-import none;a{}"
        );
        assert_eq!(
            clean_css("@\\69mport url(http://x);", false).unwrap(),
            "@x-import none;"
        );
        // With remote loads allowed, only http(s) goes out.
        assert_eq!(
            clean_css("@import 'file:///etc/passwd';", true).unwrap(),
            "@import none;"
        );
        assert_eq!(
            clean_css("a{b:image-set('x.png' 1x)}", true).unwrap(),
            "a{b:none}"
        );
        // In-document references and data: URLs stay.
        for keep in [
            "a{fill:url(#g)}",
            "a{b:url(\"data:image/png;base64,AAAA\")}",
        ] {
            assert_eq!(clean_css(keep, false).unwrap(), keep);
        }
    }

    #[test]
    fn deep_nesting_is_refused_without_overflow() {
        let css = "(".repeat(100_000);
        assert!(clean_css(&css, false).is_none());
        assert_eq!(clean_style_sheet(&css, false), "");
        let ok = "(".repeat(50);
        assert_eq!(clean_css(&ok, false).unwrap(), ok);
    }

    #[test]
    fn no_reference_survives_in_a_sheet() {
        let out = clean_style_sheet("a{b:u&#x72;l(x)} a &amp; b & c{content:'&lt;'}", false);
        assert_eq!(
            out,
            "a{b:u\\26 #x72;l(x)} a \\26 amp; b & c{content:'\\26 lt;'}"
        );
    }

    #[test]
    fn no_lt_survives_in_a_sheet() {
        let out = clean_style_sheet("<!-- a{content:'</style><img>'} -->", false);
        assert!(!out.contains('<'), "{out}");
        assert!(out.contains("a{content:'\\3c /style>\\3c img>'}"), "{out}");
    }
}
