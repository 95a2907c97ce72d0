//! Which nodes a reader sees. One top-down pass, O(n).

use super::{Dom, Kind, Tag};

/// Per node, whether a reader sees it.
///
/// `visible[i]` is false when node `i` renders nothing: it is or lies inside script, style,
/// head, template and the other never-rendered elements ([`Tag::is_invisible`]), or an element
/// with the `hidden` attribute, `aria-hidden="true"`, or an inline `display:none` /
/// `visibility:hidden`, a `<dialog>` without `open`, or a modal (`aria-modal="true"`): the
/// browser's first render shows neither until a script opens it. Comments and doctypes are
/// never visible.
///
/// `<noscript>` content is hidden, as for a reader with JavaScript, unless the rest of the
/// page shows fewer than [`NOSCRIPT_FALLBACK_WORDS`] words and the noscript content has more:
/// then the page is one that serves its content to readers without JavaScript only.
///
/// # Complexity
/// O(n), plus one more pass and a word count of the text when the fallback is considered.
pub fn visibility(dom: &Dom) -> Vec<bool> {
    let vis = visibility_with(dom, false);
    // Counting stops at the threshold: most pages pass it within their first few texts.
    let words = |vis: &[bool], cap: usize| -> usize {
        let mut total = 0;
        for (i, &v) in vis.iter().enumerate() {
            if v && dom.node(i).kind == Kind::Text {
                total += crate::text::count_words(dom.text(i));
                if total >= cap {
                    break;
                }
            }
        }
        total
    };
    let seen = words(&vis, NOSCRIPT_FALLBACK_WORDS);
    if seen >= NOSCRIPT_FALLBACK_WORDS || !dom.nodes().iter().any(|n| n.tag == Tag::NOSCRIPT) {
        return vis;
    }
    let with = visibility_with(dom, true);
    if words(&with, usize::MAX) > seen {
        with
    } else {
        vis
    }
}

/// Below this many visible words, `<noscript>` content is shown (see [`visibility`]).
pub const NOSCRIPT_FALLBACK_WORDS: usize = 50;

fn visibility_with(dom: &Dom, show_noscript: bool) -> Vec<bool> {
    let n = dom.len();
    let mut vis = vec![true; n];
    for i in 1..n {
        let node = dom.node(i);
        let p = node.parent as usize;
        vis[i] = vis[p]
            && match node.kind {
                Kind::Element if show_noscript && node.tag == Tag::NOSCRIPT => {
                    !hidden_element(dom, i, Tag::SPAN)
                }
                Kind::Element => !hidden_element(dom, i, node.tag),
                // Fallback text of replaced elements is never rendered (iframe contents are
                // raw text: often script source).
                Kind::Text => !matches!(
                    dom.node(p).tag,
                    Tag::IFRAME | Tag::CANVAS | Tag::VIDEO | Tag::AUDIO | Tag::NOEMBED
                ),
                _ => false,
            };
    }
    vis
}

/// Whether element `i` hides itself and its subtree.
pub fn hidden_element(dom: &Dom, i: usize, tag: Tag) -> bool {
    if tag.is_invisible() && !dom.node(i).foreign {
        return true;
    }
    let dialog = tag == Tag::DIALOG && !dom.node(i).foreign;
    let mut open = false;
    for (k, v) in dom.attrs(i) {
        match k {
            "hidden" => return true,
            "open" => open = true,
            "aria-modal" if v.trim().eq_ignore_ascii_case("true") => return true,
            "aria-hidden" if v.trim().eq_ignore_ascii_case("true") => return true,
            "style" if style_hides(v) => return true,
            _ => {}
        }
    }
    dialog && !open
}

/// Inline style `display:none` or `visibility:hidden` (any spacing and case).
pub fn style_hides(style: &str) -> bool {
    style.split(';').any(|decl| {
        let Some((prop, val)) = decl.split_once(':') else {
            return false;
        };
        let (prop, val) = (prop.trim(), val.trim());
        let val = val.trim_end_matches("!important").trim();
        (prop.eq_ignore_ascii_case("display") && val.eq_ignore_ascii_case("none"))
            || (prop.eq_ignore_ascii_case("visibility") && val.eq_ignore_ascii_case("hidden"))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hidden_subtrees() {
        // 60 words in the first paragraph keep the noscript fallback off.
        let long = "a ".repeat(60);
        let html = "<body><p>A</p><div hidden><p>b</p></div><div style='DISPLAY : none !important'>c</div>\
                    <span aria-hidden=true>d</span><dialog>d2</dialog><dialog open>g0</dialog>\
                    <div role=dialog aria-modal=true>d3</div><script>e</script><noscript>f</noscript><p>g</p>\
                    <iframe>document.write('x')</iframe></body>"
            .replace("<p>A</p>", &format!("<p>{long}</p>"));
        let dom = crate::dom::parse(&html, &crate::Limits::default()).unwrap();
        let vis = visibility(&dom);
        let seen: String = (0..dom.len())
            .filter(|&i| vis[i] && dom.node(i).kind == Kind::Text)
            .map(|i| dom.text(i))
            .collect();
        assert_eq!(seen.replace(' ', ""), format!("{}g0g", "a".repeat(60)));
    }

    #[test]
    fn noscript_shown_only_when_the_page_is_otherwise_empty() {
        let words = "word ".repeat(60);
        let text = |html: &str| {
            let dom = crate::dom::parse(html, &crate::Limits::default()).unwrap();
            let vis = visibility(&dom);
            (0..dom.len())
                .filter(|&i| vis[i] && dom.node(i).kind == Kind::Text)
                .map(|i| dom.text(i).trim().to_string())
                .collect::<Vec<_>>()
                .join("|")
        };
        // A normal page: the "enable JavaScript" notice stays hidden.
        let normal =
            format!("<body><p>{words}</p><noscript><p>Enable JavaScript</p></noscript></body>");
        assert!(!text(&normal).contains("Enable"));
        // A page that serves its posts only without JavaScript: noscript content is shown.
        let forum = format!(
            "<body><div id=app></div><noscript><div class=post>{words}</div></noscript></body>"
        );
        assert!(text(&forum).starts_with("word word"));
    }
}
