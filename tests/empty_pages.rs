//! Pages with no main content: a script-rendered shell whose only text is its chrome (links,
//! navigation, header, footer) and an "enable JavaScript" notice get an empty main text, while
//! a page judged all template whose least template-like text is not chrome keeps that text.

use crate::common;

use pagelevel::model::Model;
use pagelevel::pipeline::{analyze, Analysis, Options};
use pagelevel::Page;

fn analysis(html: &str) -> Analysis {
    let page = Page::from_bytes(html.as_bytes(), &pagelevel::PageOptions::default()).unwrap();
    analyze(page, Model::embedded(), &Options::default())
}

/// The analysis with a threshold of 0: every scored node is template, so the fallback decides.
fn all_template_analysis(html: &str) -> Analysis {
    let page = Page::from_bytes(html.as_bytes(), &pagelevel::PageOptions::default()).unwrap();
    let mut opts = Options::default();
    opts.segment.threshold = 0.0;
    opts.segment.learned_threshold = false;
    let a = analyze(page, Model::embedded(), &opts);
    assert!(all_template(&a));
    a
}

/// Whether every visible word is judged template (so the fallback decides).
fn all_template(a: &Analysis) -> bool {
    !a.content_mask().iter().enumerate().any(|(i, &c)| {
        c && a.features.visible[i]
            && a.page.dom.node(i).kind == pagelevel::dom::Kind::Text
            && !a.page.dom.text(i).trim().is_empty()
    })
}

const SHELL: &str = "<html><head><title>Shop</title></head><body>\
    <header><nav><a href=/>Home</a> <a href=/women>Women</a> <a href=/men>Men</a> \
    <a href=/sale>Sale</a> <a href=/cart>Cart</a></nav></header>\
    <div id=root></div>\
    <footer><h2>About us</h2><a href=/help>Help</a> <a href=/jobs>Careers</a> \
    <h2>Follow us</h2><a href=https://example.org/shop>Instagram</a></footer>\
    <noscript>You need to enable JavaScript to run this app.</noscript></body></html>";

#[test]
fn a_shell_of_chrome_and_a_noscript_notice_has_no_main_text() {
    let a = analysis(SHELL);
    assert!(all_template(&a), "the shell's chrome is judged template");
    assert_eq!(a.main_text(), "");
    // The notice is hidden: it is shorter than a page served without JavaScript.
    assert!(!a.page.dom.nodes().iter().enumerate().any(|(i, n)| {
        a.features.visible[i]
            && n.kind == pagelevel::dom::Kind::Text
            && a.page.dom.text(i).contains("enable JavaScript")
    }));
}

#[test]
fn an_all_template_page_keeps_its_least_template_like_text_outside_chrome() {
    // The same shell with a line of text outside the chrome: when everything is judged
    // template, that line is the answer; the chrome still is not.
    let html = SHELL.replace(
        "<div id=root></div>",
        "<div id=root><span>Free returns on every order</span></div>",
    );
    assert_eq!(
        all_template_analysis(&html).main_text().trim(),
        "Free returns on every order"
    );
    // Without it, the least template-like text is the footer's: chrome, so nothing.
    assert_eq!(all_template_analysis(SHELL).main_text(), "");
    // With the default threshold the line is content outright.
    assert_eq!(
        analysis(&html).main_text().trim(),
        "Free returns on every order"
    );
}

#[test]
fn a_script_link_is_no_chrome_to_the_fallback() {
    // Mozilla's js-link-replacement case: the page's whole text sits in one `javascript:` link,
    // which leads nowhere; when everything is judged template, that text is the answer.
    let html = "<html><body><a href=\"javascript:\"><p>abc</p><p>def</p> ghi</a></body></html>";
    let text = all_template_analysis(html).main_text();
    let words: Vec<&str> = text.split_whitespace().collect();
    assert_eq!(words, ["abc", "def", "ghi"], "{text:?}");
    // A link that leads somewhere is chrome: nothing.
    let nav = html.replace("javascript:", "/elsewhere");
    assert_eq!(all_template_analysis(&nav).main_text(), "");
    // However the scheme is written (case, spaces and controls inside it).
    let spaced = html.replace("javascript:", " JavaScript\t:void(0)");
    assert_eq!(
        all_template_analysis(&spaced)
            .main_text()
            .split_whitespace()
            .count(),
        3
    );
}

#[test]
fn script_rendered_shells_on_real_pages_have_no_main_text() {
    // WCXB 4868 (a home page whose content a script renders) and 4577 (an app shell with only
    // a noscript notice): their gold main text is empty.
    let Some(data) = common::data_or_skip("script_rendered_shells_on_real_pages_have_no_main_text")
    else {
        return;
    };
    for id in ["4868", "4577"] {
        let gold = std::fs::read_to_string(data.join(format!("wcxb-dev/gold/{id}.txt"))).unwrap();
        assert_eq!(gold.trim(), "", "{id}: gold is empty");
        let path = data.join(format!("wcxb-dev/html/{id}.html.gz"));
        let page = Page::from_path(&path, &pagelevel::PageOptions::default()).unwrap();
        let a = analyze(page, Model::embedded(), &Options::default());
        assert_eq!(a.main_text(), "", "{id}");
    }
}

#[test]
fn an_articles_own_header_is_not_chrome() {
    // A header inside an article is the article's (its title), not the page's banner.
    let html = SHELL.replace(
        "<div id=root></div>",
        "<article><header><h1>Winter opening hours of the reading room</h1></header></article>",
    );
    let main = all_template_analysis(&html).main_text();
    assert_eq!(main.trim(), "Winter opening hours of the reading room");
    // The same heading in the page's own header is chrome.
    let banner = SHELL.replace(
        "<div id=root></div>",
        "<header><h1>Winter opening hours of the reading room</h1></header>",
    );
    assert_eq!(all_template_analysis(&banner).main_text(), "");
}
