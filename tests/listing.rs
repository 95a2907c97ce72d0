//! The `listing` rule on real pages (its hand-worked cases are rows of `rule_table.rs`): a
//! listing whose items the model dropped gets them back from its largest group of markup twins.

use crate::common;

use pagelevel::features::{self, FeatureOptions};
use pagelevel::pipeline::Options;
use pagelevel::rules::{Rule, RuleSet};
use pagelevel::Page;

#[test]
fn real_trail_listing_keeps_its_trails() {
    // GHORBA's trail list (WCXB 4627): a title, a 20-word intro and twenty trails (name,
    // difficulty, length, steward) in repeated cards. With every node judged template but the
    // title heading and the intro (its boilerpipe main region), as the model trained without
    // listings judges it (leave one set out), the rule brings the trails back and leaves the
    // menus out; switched off, the answer is the title and the intro alone.
    let Some(data) = common::data_or_skip("real_trail_listing_keeps_its_trails") else {
        return;
    };
    let bytes = common::gunzip(&data.join("wcxb-dev/html/4627.html.gz"));
    let page = Page::from_bytes(&bytes, &pagelevel::PageOptions::default()).unwrap();
    let pf = features::compute(&page.dom, None, &FeatureOptions::default());
    let kept: Vec<std::ops::Range<usize>> = [pf.title_heading, pf.main_region]
        .into_iter()
        .flatten()
        .map(|i| i..page.dom.node(i).end as usize)
        .collect();
    assert_eq!(kept.len(), 2, "4627 has a title heading and a main region");
    let judged = |_: &pagelevel::dom::Dom, i: usize| !kept.iter().any(|r| r.contains(&i));
    let text = common::main_text_judged(&bytes, &Options::default(), judged);
    assert!(text.contains("dedicated to advocating for"), "{text}");
    assert!(
        text.contains("Anthills MTB") && text.contains("Lake Houston Wilderness Park"),
        "{text}"
    );
    assert!(text.contains("Trail Steward"), "{text}");
    assert!(
        !text.contains("Sugar Land Classic") && !text.contains("Member Login"),
        "{text}"
    );
    let off = Options {
        rules: RuleSet::ALL.without(Rule::Listing),
        ..Options::default()
    };
    let text = common::main_text_judged(&bytes, &off, judged);
    assert!(text.contains("dedicated to advocating for"), "{text}");
    assert!(!text.contains("Anthills MTB"), "{text}");
}
