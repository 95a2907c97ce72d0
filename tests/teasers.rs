//! The `dated-teasers` rule on a real page (its hand-worked cases are in `rule_table.rs`): an
//! article's feeds of other stories, each card with its own `<time>`, leave.

use crate::common;

use pagelevel::pipeline::Options;
use pagelevel::rules::{Rule, RuleSet};

fn text(bytes: &[u8], rules: RuleSet) -> String {
    let opts = pagelevel::ExtractOptions {
        pipeline: Options {
            rules,
            ..Options::default()
        },
        ..Default::default()
    };
    pagelevel::extract(bytes, &opts).unwrap().text
}

#[test]
fn real_article_loses_its_dated_feed() {
    // Digital Spy's story on the Power Rangers (chaos ranger-7, a NewsArticle): under it a
    // "Latest News" feed of cards, each a linked headline, a `<time>` ("29 March 2017") and a
    // summary, which the embedded model keeps. The rule drops the cards and keeps the story;
    // switched off, the cards' dates are back.
    let Some(data) = common::data_or_skip("real_article_loses_its_dated_feed") else {
        return;
    };
    let bytes = common::gunzip(&data.join("chaos/html/ranger-7.html.gz"));
    let on = text(&bytes, RuleSet::ALL);
    assert!(
        on.contains("in that suit you are a superhero"),
        "the story stays: {on}"
    );
    assert!(!on.contains("29 March 2017"), "{on}");
    let off = text(&bytes, RuleSet::ALL.without(Rule::DatedTeasers));
    assert!(off.contains("in that suit you are a superhero"), "{off}");
    assert!(off.matches("29 March 2017").count() >= 5, "{off}");
}
