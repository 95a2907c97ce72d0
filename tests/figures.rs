//! Figure captions (`pagelevel::rules::figures`): a story's `<figcaption>`s leave when the rest
//! of the kept text outweighs them (and holds 100 words), a gallery's stay, 1,000,000-deep
//! pages, and a real page through the pipeline.

use crate::common;

use pagelevel::dom::Kind;
use pagelevel::features::{self, FeatureOptions};
use pagelevel::output::text::render_text;
use pagelevel::rules::figures::drop_captions;
use pagelevel::rules::{Context, Rule, RuleOptions};
use pagelevel::Page;

/// `n` distinct words `w0 w1 …`.
fn words(prefix: &str, n: usize) -> String {
    (0..n)
        .map(|k| format!("{prefix}{k}"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The page's visible text after `drop_captions` with every text node kept (every node scored,
/// the default limits), and how many text nodes it cleared.
fn captioned(html: &str) -> (String, usize) {
    let page = Page::from_bytes(html.as_bytes(), &pagelevel::PageOptions::default()).unwrap();
    let dom = &page.dom;
    let pf = features::compute(dom, None, &FeatureOptions::default());
    let mut keep = vec![true; dom.len()];
    let (y, opts) = (vec![0.0; dom.len()], RuleOptions::default());
    let cleared = drop_captions(&Context::new(dom, &pf, &y, &opts), &mut keep);
    assert!((0..dom.len()).all(|i| keep[i] || dom.node(i).kind == Kind::Text));
    (render_text(dom, &pf.visible, &keep), cleared)
}

/// A story of `prose` words (`p0 …`) with `photos` figures, each an image and a caption of
/// `caption` words (`c{k}x0 …`, one `<figcaption>` with a `<b>` credit inside: two text nodes).
fn story(prose: usize, photos: usize, caption: usize) -> String {
    let figures: String = (0..photos)
        .map(|k| {
            format!(
                "<figure><img src=/p{k}.jpg><figcaption>{} <b>AP</b></figcaption></figure>",
                words(&format!("c{k}x"), caption - 1)
            )
        })
        .collect();
    format!(
        "<body><article><h1>Reef</h1><p>{}</p>{figures}</article></body>",
        words("p", prose)
    )
}

#[test]
fn a_storys_captions_leave() {
    // 1 + 120 words of story, two captions of 10 words: 121 ≥ 20 and ≥ 100, both leave (two
    // text nodes each).
    let (text, cleared) = captioned(&story(120, 2, 10));
    assert_eq!(cleared, 4, "{text}");
    assert!(!text.contains("c0x0") && !text.contains("c1x8"), "{text}");
    assert!(!text.contains("AP"), "{text}");
    assert!(text.contains("p119") && text.contains("Reef"), "{text}");
    // 1 + 98 words: 99 < 100, the captions stay.
    let (text, cleared) = captioned(&story(98, 2, 10));
    assert_eq!(cleared, 0, "{text}");
    assert!(text.contains("c0x0"), "{text}");
}

#[test]
fn a_gallerys_captions_stay() {
    // 1 + 100 words of text, twelve captions of 10 words (120): the captions outweigh it and
    // are the page's content. With eleven (110 > 101 as well) they stay; with nine (90 ≤ 101)
    // they leave.
    for (photos, stays) in [(12, true), (11, true), (9, false)] {
        let (text, cleared) = captioned(&story(100, photos, 10));
        assert_eq!(cleared == 0, stays, "{photos}: {text}");
        assert_eq!(text.contains("c0x0"), stays, "{photos}: {text}");
    }
    // A page without a caption: nothing.
    assert_eq!(captioned(&story(120, 0, 10)).1, 0);
}

#[test]
fn million_deep_caption_leaves() {
    // Heavy: 1,000,000-deep pages.
    let _machine = common::heavy();
    let depth = 1_000_000;
    let mut html = format!("<body><p>{}</p><figure><figcaption>", words("p", 120));
    html.push_str(&"<span>".repeat(depth));
    html.push_str(&words("c", 10));
    let (text, cleared) = captioned(&html);
    assert_eq!(cleared, 1);
    assert!(text.contains("p119") && !text.contains("c9"), "{text}");
}

#[test]
fn real_storys_photo_captions_leave() {
    // Phys.org's AP story on the Great Barrier Reef (chaos global-warming-7): five photos, each
    // with a `<figcaption>` of some 60 words ("In this October 2016 photo provided by ARC
    // Center of Excellence …"), which the embedded model keeps. The rule drops them and keeps
    // the story; switched off, the captions are back.
    let Some((on, off)) = common::on_and_off(
        "real_storys_photo_captions_leave",
        "chaos/html/global-warming-7.html.gz",
        Some("https://phys.org/news/2017-03-great-barrier-reef-recover.html"),
        Rule::FigureCaptions,
    ) else {
        return;
    };
    let story = "We don't have any tools to climate-proof corals";
    assert!(on.contains(story) && off.contains(story), "{on}");
    assert!(!on.contains("photo provided by ARC Center"), "{on}");
    assert!(
        off.matches("photo provided by ARC Center").count() >= 3,
        "{off}"
    );
}
