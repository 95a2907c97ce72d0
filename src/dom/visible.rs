//! Which nodes a reader sees. One top-down pass, O(n).

use super::{Dom, Kind, Tag};

/// `visible[i]` is false when node `i` renders nothing: it is or lies inside script, style,
/// head, template and the other never-rendered elements ([`Tag::is_invisible`]), or an element
/// with the `hidden` attribute, `aria-hidden="true"`, or an inline `display:none` /
/// `visibility:hidden`; comments and doctypes are never visible.
pub fn visibility(dom: &Dom) -> Vec<bool> {
    let n = dom.len();
    let mut vis = vec![true; n];
    for i in 1..n {
        let node = dom.node(i);
        let p = node.parent as usize;
        vis[i] = vis[p]
            && match node.kind {
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
    for (k, v) in dom.attrs(i) {
        match k {
            "hidden" => return true,
            "aria-hidden" if v.trim().eq_ignore_ascii_case("true") => return true,
            "style" if style_hides(v) => return true,
            _ => {}
        }
    }
    false
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
        let html = "<body><p>a</p><div hidden><p>b</p></div><div style='DISPLAY : none !important'>c</div>\
                    <span aria-hidden=true>d</span><script>e</script><noscript>f</noscript><p>g</p>\
                    <iframe>document.write('x')</iframe></body>";
        let dom = crate::dom::parse(html, &crate::Limits::default()).unwrap();
        let vis = visibility(&dom);
        let seen: String = (0..dom.len())
            .filter(|&i| vis[i] && dom.node(i).kind == Kind::Text)
            .map(|i| dom.text(i))
            .collect();
        assert_eq!(seen, "ag");
    }
}
