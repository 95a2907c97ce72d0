//! Which nodes a reader sees. One top-down pass, O(n).

use super::tag::Tag;
use super::tree::{Dom, Kind};

/// Per node, whether a reader sees it.
///
/// `visible[i]` is false when node `i` renders nothing: it is or lies inside script, style,
/// head, template and the other never-rendered elements ([`Tag::is_invisible`]) or MathML's
/// `<math>` (its tokens linearise into symbol soup, not words), or an element
/// with the `hidden` attribute, `aria-hidden="true"`, an inline `display:none` /
/// `visibility:hidden`, a CSS framework's hide class (`class_hides`: `hide`, `d-none`…),
/// a `<dialog>` without `open`, a `popover`, or a modal (`aria-modal="true"`): the browser's
/// first render shows none until a script opens it. Tab panels (`role=tabpanel`) are shown
/// however they are hidden: the tabs not selected are one click away and belong to the page's content (documentation's code samples per language); so
/// are the collapsed panels of accordions and other disclosure controls, and the segments React's
/// streaming renderer sends hidden for a script to move into place (`disclosure_panels`).
/// Comments and doctypes are never visible.
///
/// `<noscript>` content is hidden, as for a reader with JavaScript, unless the rest of the
/// page shows fewer than [`NOSCRIPT_FALLBACK_WORDS`] words and the noscript content adds at
/// least [`NOSCRIPT_MIN_WORDS`]: then the page is one that serves its content to readers
/// without JavaScript only. A shorter noscript text is a notice ("enable JavaScript"), not
/// content, and stays hidden.
///
/// An element hidden by an attribute that holds most of the page's words outside links is shown
/// anyway ([`REVEAL_SHARE`]): a script reveals it a moment after the first render (hidden menus
/// are link lists, so they do not count against it). The same holds
/// within the main landmark when it shows almost none of its own words (`reveal_in_main`).
///
/// # Complexity
/// O(n + attributes) plus a word count of the page's text; one more pass when a fallback
/// applies.
pub fn visibility(dom: &Dom) -> Vec<bool> {
    let panels = disclosure_panels(dom);
    let mut vis = visibility_with(dom, false, &panels);
    if let Some(revealed) = reveal_bulk(dom, &vis, &panels) {
        vis = revealed;
    } else if let Some(revealed) = reveal_in_main(dom, &vis, &panels) {
        vis = revealed;
    }
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
    let with = visibility_with(dom, true, &panels);
    if words(&with, usize::MAX) >= seen + NOSCRIPT_MIN_WORDS {
        with
    } else {
        vis
    }
}

/// An element hidden by an attribute or inline style whose subtree holds more than this share of
/// the page's renderable words outside links is shown (see [`visibility`])...
pub const REVEAL_SHARE: f64 = 0.5;

/// ...when the first render shows at most this share of them.
pub(crate) const REVEAL_VISIBLE_SHARE: f64 = 0.25;

/// The visibility with the page's bulk revealed, when an attribute hides most of the page.
///
/// Pages hide their whole content until a script shows it (anti-flicker wrappers with
/// `display:none`; consent dialogs that set `aria-hidden` on everything behind them): a reader
/// sees that content a moment later. So when the first render shows at most
/// [`REVEAL_VISIBLE_SHARE`] of the words that are not inside never-rendered tags or links, an
/// element that hides more than [`REVEAL_SHARE`] of them is shown, unless it is a dialog or a
/// modal (consent centres list hundreds of vendors; they are overlays, never the page). Returns
/// `None` when nothing is revealed (the usual case).
///
/// # Complexity
/// O(n) plus a word count of the hidden text and of the visible text until it outweighs that;
/// the whole page's text is counted again only when the visible words fall below the share.
fn reveal_bulk(dom: &Dom, vis: &[bool], panels: &[bool]) -> Option<Vec<bool>> {
    reveal_within(dom, vis, panels, 0)
}

/// The visibility with the bulk of the main landmark revealed, when an attribute hides it.
///
/// [`reveal_bulk`]'s test, scoped to the page's first visible `<main>` or `role=main` element:
/// when it shows at most [`REVEAL_VISIBLE_SHARE`] of its renderable words, an element inside it
/// that hides more than [`REVEAL_SHARE`] of them is shown (not a dialog or modal). Scripts that
/// gate the content (anti-flicker, password or region lock-downs) hide it inside a page whose
/// header and menus stay visible, so the page-wide share is not reached. `None` when nothing is
/// revealed.
///
/// # Complexity
/// O(n) to find the landmark, then [`reveal_within`]'s cost on its subtree.
fn reveal_in_main(dom: &Dom, vis: &[bool], panels: &[bool]) -> Option<Vec<bool>> {
    let main = (1..dom.len()).find(|&i| vis[i] && is_main_landmark(dom, i))?;
    reveal_within(dom, vis, panels, main)
}

/// The share test of [`reveal_bulk`] on the subtree of `root` (the document for the whole page):
/// when the subtree shows at most [`REVEAL_VISIBLE_SHARE`] of its renderable words, each element
/// in it that hides more than [`REVEAL_SHARE`] of them, and is no overlay, is shown.
///
/// # Complexity
/// O(size of the subtree) plus a word count of its hidden text and of its shown text until
/// that outweighs it; its whole text is counted again only when the shown words fall below the
/// share.
fn reveal_within(dom: &Dom, vis: &[bool], panels: &[bool], root: usize) -> Option<Vec<bool>> {
    let len = dom.subtree_end(root) - root;
    // Local index k is node root + k. Text that some attribute could hide but no tag does; the
    // hidden words first: most subtrees hide none, and their shown words are then not counted.
    // Link text is left out: hidden mega-menus are link lists, and what a script shows is the
    // page's prose, so the shares are of the words a reader reads, not of link labels.
    let mut renderable = vec![true; len];
    let mut hidden = 0u64;
    for k in 1..len {
        let i = root + k;
        let node = dom.node(i);
        let p = node.parent as usize - root;
        renderable[k] = renderable[p]
            && match node.kind {
                Kind::Element => !renders_no_text(node.tag, node.foreign) && node.tag != Tag::A,
                Kind::Text => true,
                _ => false,
            };
        if node.kind == Kind::Text && renderable[k] && !vis[i] {
            hidden += crate::text::count_words(dom.text(i)) as u64;
        }
    }
    if hidden == 0 {
        return None;
    }
    // visible > share * (visible + hidden), i.e. 3 * visible > hidden for the share 1/4: most
    // subtrees show that within their first texts, so the count stops early.
    let mut shown = 0u64;
    for (k, &r) in renderable.iter().enumerate().skip(1) {
        let i = root + k;
        if r && vis[i] && dom.node(i).kind == Kind::Text {
            shown += crate::text::count_words(dom.text(i)) as u64;
            if shown as f64 * (1.0 - REVEAL_VISIBLE_SHARE) > REVEAL_VISIBLE_SHARE * hidden as f64 {
                return None;
            }
        }
    }
    // Words under each node (the rare subtree that shows little).
    let mut under = vec![0u32; len];
    for k in 1..len {
        let i = root + k;
        if renderable[k] && dom.node(i).kind == Kind::Text {
            under[k] = crate::text::count_words(dom.text(i)) as u32;
        }
    }
    for k in (1..len).rev() {
        let p = dom.node(root + k).parent as usize - root;
        under[p] += under[k];
    }
    let total = f64::from(under[0]);
    let mut reveal = if panels.is_empty() {
        vec![false; dom.len()]
    } else {
        panels.to_vec()
    };
    let mut any = false;
    for k in 1..len {
        let i = root + k;
        if renderable[k]
            && !vis[i]
            && dom.node(i).kind == Kind::Element
            && f64::from(under[k]) > REVEAL_SHARE * total
            && !is_overlay(dom, i)
        {
            reveal[i] = true;
            any = true;
        }
    }
    any.then(|| visibility_with(dom, false, &reveal))
}

/// Whether element `i` is a main landmark: `<main>` or `role="main"`.
fn is_main_landmark(dom: &Dom, i: usize) -> bool {
    let node = dom.node(i);
    node.kind == Kind::Element
        && !node.foreign
        && (node.tag == Tag::MAIN
            || dom
                .attr(i, "role")
                .is_some_and(|r| r.trim().eq_ignore_ascii_case("main")))
}

/// Per node, whether it is a disclosure panel or the wrapper just around one: an element whose
/// `id` a control with `aria-expanded` names in `aria-controls` (accordions, "more details"
/// sections), or the parent of one (frameworks hide a wrapper around the panel). Like a tab
/// panel, a collapsed panel is one click away and holds what the page says (a product's
/// description and specifications), so it is shown however it is hidden; dialogs and modals
/// stay hidden.
///
/// Also marked: React's streamed segments. A server-rendered React page (React 18's streaming
/// renderer, as in Next.js) sends each part that was not ready at first as
/// `<div hidden id="S:…">` at the end of the body, with a `<template id="B:…">` or
/// `<template id="P:…">` placeholder where it belongs; an inline script moves it there at once.
/// So when the page has such a placeholder, a hidden `S:` element is shown (in place: the
/// order of the page's text is not restored). Empty when the page has neither (most pages).
///
/// # Complexity
/// O(n + attributes), plus a hash set of the controlled ids when there are any.
fn disclosure_panels(dom: &Dom) -> Vec<bool> {
    let mut ids: std::collections::HashSet<&str> = std::collections::HashSet::new();
    let mut placeholders = false;
    for i in 1..dom.len() {
        let node = dom.node(i);
        if node.kind != Kind::Element {
            continue;
        }
        if node.tag == Tag::TEMPLATE && !node.foreign {
            placeholders |= dom.attr(i, "id").is_some_and(is_stream_placeholder);
            continue;
        }
        let (mut controls, mut expands) = (None, false);
        for (k, v) in dom.attrs(i) {
            match k {
                "aria-controls" => controls = Some(v),
                "aria-expanded" => expands = true,
                _ => {}
            }
        }
        if let (Some(c), true) = (controls, expands) {
            ids.extend(c.split_ascii_whitespace());
        }
    }
    if ids.is_empty() && !placeholders {
        return Vec::new();
    }
    let dialog_role = |r: &str| {
        let r = r.trim();
        r.eq_ignore_ascii_case("dialog") || r.eq_ignore_ascii_case("alertdialog")
    };
    let mut panels = vec![false; dom.len()];
    for i in 1..dom.len() {
        let node = dom.node(i);
        if node.kind != Kind::Element || node.foreign {
            continue;
        }
        let Some(id) = dom.attr(i, "id") else {
            continue;
        };
        if placeholders && id.starts_with("S:") && dom.attr(i, "hidden").is_some() {
            panels[i] = true;
        } else if ids.contains(id.trim())
            && !is_overlay(dom, i)
            && !dom.attr(i, "role").is_some_and(dialog_role)
        {
            panels[i] = true;
            panels[node.parent as usize] = true;
        }
    }
    panels[0] = false;
    panels
}

/// Whether a `<template>` id is a React streaming placeholder: `B:` (a boundary) or `P:` (a
/// pending segment) and a hexadecimal or decimal number.
fn is_stream_placeholder(id: &str) -> bool {
    let rest = id.strip_prefix("B:").or_else(|| id.strip_prefix("P:"));
    rest.is_some_and(|r| !r.is_empty() && r.bytes().all(|b| b.is_ascii_alphanumeric()))
}

/// Whether element `i` is an overlay a script opens, never the page itself: a `<dialog>`, a
/// `popover` or an `aria-modal="true"` element.
fn is_overlay(dom: &Dom, i: usize) -> bool {
    (dom.node(i).tag == Tag::DIALOG && !dom.node(i).foreign)
        || dom.attr(i, "popover").is_some()
        || dom
            .attr(i, "aria-modal")
            .is_some_and(|v| v.trim().eq_ignore_ascii_case("true"))
}

/// Below this many visible words, `<noscript>` content is shown (see [`visibility`]).
pub const NOSCRIPT_FALLBACK_WORDS: usize = 50;

/// Fewest words `<noscript>` content must add to be shown: a notice is a sentence or two.
pub const NOSCRIPT_MIN_WORDS: usize = 30;

/// Visibility with `<noscript>` shown or not; elements marked in `reveal` ignore the attributes
/// and styles that would hide them.
fn visibility_with(dom: &Dom, show_noscript: bool, reveal: &[bool]) -> Vec<bool> {
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
                Kind::Element if reveal.get(i) == Some(&true) => {
                    !renders_no_text(node.tag, node.foreign)
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

/// Whether an element renders no words: the never-rendered HTML elements, and MathML's
/// `<math>`, whose tokens read as symbol soup once linearised (`x = − b ± b 2 − 4 a c 2 a`).
fn renders_no_text(tag: Tag, foreign: bool) -> bool {
    if foreign {
        tag == Tag::MATH
    } else {
        tag.is_invisible()
    }
}

/// Whether element `i` hides itself and its subtree.
pub(crate) fn hidden_element(dom: &Dom, i: usize, tag: Tag) -> bool {
    if renders_no_text(tag, dom.node(i).foreign) {
        return true;
    }
    let dialog = tag == Tag::DIALOG && !dom.node(i).foreign;
    // One pass over the attributes; a tab panel is never hidden, whatever else it says.
    let (mut open, mut hides) = (false, false);
    for (k, v) in dom.attrs(i) {
        match k {
            // Tab panels not selected are one click away and belong to what the page says.
            "role" if is_tab_panel_role(v) => return false,
            // A popover shows only when a script or a button opens it.
            "hidden" | "popover" => hides = true,
            "open" => open = true,
            "aria-modal" | "aria-hidden" if !hides => hides = v.trim().eq_ignore_ascii_case("true"),
            "style" if !hides => hides = style_hides(v),
            "class" if !hides => hides = class_hides(v),
            _ => {}
        }
    }
    hides || (dialog && !open)
}

/// Whether a class list hides its element by a CSS framework's utility class (Bootstrap's
/// `d-none`, `hidden`, `hide`, `invisible`; Tailwind's `hidden`, `invisible`; Foundation's
/// `hide`; Bulma's `is-hidden`, `is-invisible`; UIkit's `uk-hidden`), unless another class
/// shows it at some screen width (`md:block`, `d-lg-flex`, `visible-md`, `show-for-large`).
pub(crate) fn class_hides(class: &str) -> bool {
    // Most class lists name none of them: three substring scans instead of a token walk.
    if !(class.contains("hid") || class.contains("d-none") || class.contains("invisible")) {
        return false;
    }
    let mut hides = false;
    for c in class.split_ascii_whitespace() {
        match c {
            "hidden" | "hide" | "d-none" | "invisible" | "is-hidden" | "is-invisible"
            | "uk-hidden" => hides = true,
            _ if c.contains(':')
                || c.starts_with("d-")
                || c.starts_with("visible")
                || c.starts_with("show")
                || c.starts_with("is-block")
                || c.starts_with("is-flex")
                || c.starts_with("is-inline") =>
            {
                return false
            }
            _ => {}
        }
    }
    hides
}

/// Whether a `role` value names a tab panel (any spacing and case).
pub fn is_tab_panel_role(role: &str) -> bool {
    role.trim().eq_ignore_ascii_case("tabpanel")
}

/// Inline style `display:none` or `visibility:hidden` (any spacing and case).
pub(crate) fn style_hides(style: &str) -> bool {
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

    /// The visible texts of a page, trimmed, empty ones left out, joined by `|`.
    fn text(html: &str) -> String {
        let dom = crate::dom::parse(html, &crate::Limits::default()).unwrap();
        let vis = visibility(&dom);
        (0..dom.len())
            .filter(|&i| vis[i] && dom.node(i).kind == Kind::Text)
            .map(|i| dom.text(i).trim().to_string())
            .filter(|t| !t.is_empty())
            .collect::<Vec<_>>()
            .join("|")
    }

    #[test]
    fn hidden_subtrees() {
        // 60 words in the first paragraph keep the noscript fallback off.
        let long = "a ".repeat(60);
        let html = "<body><p>A</p><div hidden><p>b</p></div><div style='DISPLAY : none !important'>c</div>\
                    <span aria-hidden=true>d</span><dialog>d2</dialog><dialog open>g0</dialog><div popover=auto>d4</div>\
                    <div role=dialog aria-modal=true>d3</div><script>e</script><noscript>f</noscript><div role=tabpanel hidden style=display:none>t</div><p>g</p>\
                    <iframe>document.write('x')</iframe></body>"
            .replace("<p>A</p>", &format!("<p>{long}</p>"));
        let dom = crate::dom::parse(&html, &crate::Limits::default()).unwrap();
        let vis = visibility(&dom);
        let seen: String = (0..dom.len())
            .filter(|&i| vis[i] && dom.node(i).kind == Kind::Text)
            .map(|i| dom.text(i))
            .collect();
        assert_eq!(seen.replace(' ', ""), format!("{}g0tg", "a".repeat(60)));
    }

    #[test]
    fn framework_hide_classes_hide_unless_a_breakpoint_shows_them() {
        let long = "a ".repeat(60);
        let html = format!(
            "<body><p>{long}</p><dl class='info hide'><dt>sku_thumb:</dt><dd>x1</dd></dl>\
             <div class=d-none>x2</div><span class='is-hidden'>x3</span><p class=invisible>x4</p>\
             <div class='hidden md:block'>shown1</div><div class='d-none d-lg-flex'>shown2</div>\
             <div class=hidden-xs>shown3</div><div class='hider hides'>shown4</div></body>"
        );
        assert_eq!(
            text(&html).replace(&long.trim().to_string(), "L"),
            "L|shown1|shown2|shown3|shown4"
        );
        assert!(class_hides(" hide  "));
        assert!(!class_hides("hidden sm:flex"));
        assert!(!class_hides(""));
    }

    #[test]
    fn noscript_shown_only_when_the_page_is_otherwise_empty() {
        let words = "word ".repeat(60);
        // A normal page: the "enable JavaScript" notice stays hidden.
        let normal =
            format!("<body><p>{words}</p><noscript><p>Enable JavaScript</p></noscript></body>");
        assert!(!text(&normal).contains("Enable"));
        // A page that serves its posts only without JavaScript: noscript content is shown.
        let forum = format!(
            "<body><div id=app></div><noscript><div class=post>{words}</div></noscript></body>"
        );
        assert!(text(&forum).starts_with("word word"));
        // An app shell's notice, shorter than NOSCRIPT_MIN_WORDS, is not content.
        let shell = "<body><div id=app></div><noscript>You need to enable JavaScript to run \
                     this app.</noscript></body>";
        assert_eq!(text(shell), "");
    }

    #[test]
    fn the_bulk_of_a_page_hidden_by_an_attribute_is_revealed() {
        // A consent banner aria-hides the page behind it: the first render shows 3 of the 15
        // words outside never-rendered tags (≤ 0.25) and `main` holds 12 (> 0.5), so it is
        // shown; the menu inside it (2 of 15) keeps its display:none; script text never counts.
        let consent = "<body><div role=region>We use cookies</div>\
                       <main aria-hidden=true><p>one two three four five six seven eight</p>\
                       <ul style=display:none><li>menu item</li></ul><p>nine ten</p>\
                       <script>var x = 'a b c d e f g h i j k l m n o p'</script></main></body>";
        assert_eq!(
            text(consent),
            "We use cookies|one two three four five six seven eight|nine ten"
        );
        // With 4 words shown (4 of 16 = 0.25 is still revealed) and 5 (5 of 17 > 0.25) not.
        let shown =
            |banner: &str| text(&consent.replace("We use cookies", banner)).contains("nine ten");
        assert!(shown("We use cookies here"));
        assert!(!shown("We use cookies right here"));
        // Hidden elements holding half the words or less keep their attribute, even when the
        // first render shows only 1 word of 7.
        let menu = "<body><p>one</p><nav hidden>a b c</nav><div hidden>d e f</div></body>";
        assert_eq!(text(menu), "one");
        // A modal never is the page, however many words it lists.
        let modal = "<body><p>one</p><div role=dialog aria-modal=true>a b c d e f g h</div></body>";
        assert_eq!(text(modal), "one");
        // Nor does a popover (an app-install card), nor one a button controls.
        let popover = "<body><p>one</p><i-card popover id=c>a b c d e f g h</i-card>\
                       <button aria-expanded=false aria-controls=c>Install</button></body>";
        assert_eq!(text(popover), "one|Install");
        // Link labels do not count: the first render shows 1 of the 7 words outside links and
        // the hidden product block holds 6 of them (> 0.5, though only 6 of all 13 words), so
        // it is shown; the hidden menu of links stays hidden.
        let menus = "<body><p>Shop</p><div hidden><a href=/a>bath</a> <a href=/b>beauty</a> \
                     <a href=/c>food</a> <a href=/d>herbs</a> <a href=/e>pets</a> \
                     <a href=/f>sports</a></div><div style=display:none><h1>Almond thins</h1>\
                     <p>low fat no salt</p></div></body>";
        assert_eq!(text(menus), "Shop|Almond thins|low fat no salt");
        // An anti-flicker wrapper around the whole body.
        let wrapper =
            "<body><div style='display: none'><h1>Title here</h1><p>x y z</p></div></body>";
        assert_eq!(text(wrapper), "Title here|x y z");
    }

    #[test]
    fn math_renders_no_words() {
        // MathML's tokens are hidden, with any markup inside them; SVG text is not.
        let html = "<body><p>When <math><mi>a</mi><mo>≠</mo><mrow><mn>0</mn></mrow></math>, two roots</p>\
                    <svg><text>Label</text></svg><p>Solve <math display=block><mi>q</mi></math></p></body>";
        assert_eq!(text(html), "When|, two roots|Label|Solve");
    }

    #[test]
    fn disclosure_panels_are_shown() {
        let words = "word ".repeat(60);
        // A collapsed accordion: the panel (named by the button's aria-controls) and the
        // wrapper a framework hides around it are shown; a hidden panel no control names, a
        // control without aria-expanded, and a controlled dialog stay hidden.
        let html = format!(
            "<body><p>{words}</p>\
             <button aria-expanded=false aria-controls='p1 p2'>Specs</button>\
             <div style='display:none'><div id=p1>Height 39 cm</div></div>\
             <div id=p2 hidden>Weight 16 kg</div>\
             <div id=p3 hidden>Orphan</div>\
             <button aria-controls=p4>Menu</button><div id=p4 hidden>Menu items</div>\
             <button aria-expanded=false aria-controls=d>Sign in</button>\
             <div id=d role=dialog hidden>Sign in form</div></body>"
        );
        let seen = text(&html);
        assert!(
            seen.ends_with("Specs|Height 39 cm|Weight 16 kg|Menu|Sign in"),
            "{seen}"
        );
        // The grandparent of a panel keeps its own hiding.
        let deep = format!(
            "<body><p>{words}</p><button aria-expanded=true aria-controls=q>Q</button>\
             <div hidden><div><div id=q>Answer</div></div></div></body>"
        );
        assert!(!text(&deep).contains("Answer"));
    }

    #[test]
    fn react_streamed_segments_are_shown() {
        let words = "word ".repeat(60);
        // React's streaming renderer: a placeholder template where the content belongs, the
        // content hidden at the end of the body, a script that moves it.
        let html = format!(
            "<body><p>{words}</p><div><template id=\"P:1f\"></template></div>\
             <div hidden id=\"S:1f\"><p>Product details</p></div>\
             <script>$RS(\"S:1f\",\"P:1f\")</script><div hidden id=\"other\">Stays</div></body>"
        );
        assert!(text(&html).ends_with("|Product details"), "{}", text(&html));
        // Without a placeholder, an `S:` id is an ordinary id and `hidden` hides it.
        let plain = format!("<body><p>{words}</p><div hidden id=\"S:1f\">Hidden</div></body>");
        assert!(!text(&plain).contains("Hidden"));
        assert!(is_stream_placeholder("B:0") && is_stream_placeholder("P:2e"));
        assert!(!is_stream_placeholder("B:") && !is_stream_placeholder("P:x-y"));
    }

    #[test]
    fn hidden_bulk_of_the_main_landmark_is_revealed() {
        let menu = "menu ".repeat(300);
        let story = "story ".repeat(100);
        // The page shows its menus (300 words against 100 hidden: the page-wide test fails),
        // but its main landmark shows nothing of its own: the gated content is revealed.
        let gated = format!(
            "<body><nav><p>{menu}</p></nav><main><h1>T</h1><div style='display:none'>\
             <p>{story}</p></div><div hidden>Password form</div></main></body>"
        );
        let seen = text(&gated);
        assert!(
            seen.contains("story") && !seen.contains("Password"),
            "{seen}"
        );
        // A main landmark that shows most of its words keeps its hidden parts hidden.
        let open = format!(
            "<body><nav><p>{menu}</p></nav><div role=main><p>{story}</p>\
             <div style='display:none'><p>{}</p></div></div></body>",
            "extra ".repeat(150)
        );
        assert!(!text(&open).contains("extra"));
    }
}
