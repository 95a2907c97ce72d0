//! The 85% rule: an internal node just above and just below 85% of its bytes in template nodes.

use sitelevel::{
    explain_page, hash_page, HashOptions, LabelOptions, SimpleTree, SiteCounter, TemplateSet, Why,
};

use crate::common::word;

/// doc > wrapper > [nav > "Menu" (nav_bytes), article > "<unique>" (art_bytes)]; only the text
/// nodes carry bytes, so the wrapper's share is nav_bytes / (nav_bytes + art_bytes).
fn page(k: usize, nav_bytes: u64, art_bytes: u64) -> SimpleTree {
    let mut b = SimpleTree::builder();
    b.open("div").own_bytes(0);
    b.open("nav")
        .own_bytes(0)
        .text("Menu")
        .own_bytes(nav_bytes)
        .close();
    b.open("article")
        .own_bytes(0)
        .text(&word(k))
        .own_bytes(art_bytes)
        .close();
    b.close();
    b.finish()
}

fn labels(pages: &[SimpleTree], options: &LabelOptions) -> Vec<Vec<Why>> {
    let opts = HashOptions::default();
    let hashes: Vec<Vec<u64>> = pages.iter().map(|p| hash_page(p, &opts)).collect();
    let mut c = SiteCounter::new("share");
    hashes.iter().for_each(|h| c.add_page(h));
    let set: TemplateSet = c.finish(0.1, 5).unwrap();
    pages
        .iter()
        .zip(&hashes)
        .map(|(p, h)| explain_page(p, h, &set, options))
        .collect()
}

#[test]
fn exactly_85_percent_is_not_template() {
    let pages: Vec<_> = (0..5).map(|k| page(k, 85, 15)).collect();
    for why in labels(&pages, &LabelOptions::default()) {
        // doc, wrapper, nav, "Menu", article, text
        assert_eq!(
            why,
            [
                Why::Content,
                Why::Content,
                Why::Hash,
                Why::Hash,
                Why::Content,
                Why::Content
            ]
        );
    }
}

#[test]
fn just_above_85_percent_is_template_by_share() {
    let pages: Vec<_> = (0..5).map(|k| page(k, 86, 14)).collect();
    for why in labels(&pages, &LabelOptions::default()) {
        assert_eq!(
            why,
            [
                Why::Share,
                Why::Share,
                Why::Hash,
                Why::Hash,
                Why::Content,
                Why::Content
            ]
        );
    }
}

#[test]
fn just_below_85_percent_is_content() {
    let pages: Vec<_> = (0..5).map(|k| page(k, 84, 16)).collect();
    for why in labels(&pages, &LabelOptions::default()) {
        assert_eq!(why[1], Why::Content);
    }
    // The threshold is configurable: at 80% the same pages are template by share.
    let lower = LabelOptions {
        min_template_share: 0.80,
    };
    for why in labels(&pages, &lower) {
        assert_eq!(why[1], Why::Share);
    }
}

#[test]
fn share_does_not_compound_up_the_tree() {
    // doc > outer > [inner > [nav "Menu" 86, article 14], aside 5 bytes]:
    // inner is 86/100 template (Share); outer counts only by-hash bytes: 86/105 = 81.9% (Content).
    // Had inner passed up its whole 100 bytes, outer would be 100/105 = 95% template.
    let pages: Vec<_> = (0..5)
        .map(|k| {
            let mut b = SimpleTree::builder();
            b.open("section").own_bytes(0);
            b.open("div").own_bytes(0);
            b.open("nav")
                .own_bytes(0)
                .text("Menu")
                .own_bytes(86)
                .close();
            b.open("article")
                .own_bytes(0)
                .text(&word(k))
                .own_bytes(14)
                .close();
            b.close();
            b.open("aside")
                .own_bytes(0)
                .text(&word(k + 100))
                .own_bytes(5)
                .close();
            b.close();
            b.finish()
        })
        .collect();
    for why in labels(&pages, &LabelOptions::default()) {
        assert_eq!(why[1], Why::Content, "outer section");
        assert_eq!(why[2], Why::Share, "inner div");
    }
}

#[test]
fn tag_bytes_count_too() {
    // Default own bytes from the builder: <nav></nav> = 11, "Menu" = 4, <p></p> = 7.
    // wrapper <div></div> = 11. Template = 15; total = 11 + 15 + 7 + text.
    // Text "qa" (2): 15/35 → content. The wrapper's own tags weigh in.
    let pages: Vec<_> = (0..5)
        .map(|k| {
            let mut b = SimpleTree::builder();
            b.open("div")
                .open("nav")
                .text("Menu")
                .close()
                .open("p")
                .text(&word(k))
                .close();
            b.finish()
        })
        .collect();
    for why in labels(&pages, &LabelOptions::default()) {
        assert_eq!(why[1], Why::Content);
        assert_eq!(why[2], Why::Hash);
    }
}
