//! The `dated-teasers` rule on a real page (its hand-worked cases are in `rule_table.rs`): an
//! article's feeds of other stories, each card with its own date, leave.

use crate::common;

use pagelevel::rules::Rule;

/// The main text of a shared page with every rule, and without `dated-teasers`.
fn on_and_off(test: &str, path: &str) -> Option<(String, String)> {
    common::on_and_off(test, path, None, Rule::DatedTeasers)
}

#[test]
fn real_article_loses_its_dated_feed() {
    // Digital Spy's story on the Power Rangers (chaos ranger-7, a NewsArticle): under it a
    // "Latest News" feed of cards, each a linked headline, a `<time>` ("29 March 2017") and a
    // summary, which the embedded model keeps. The rule drops the cards and keeps the story;
    // switched off, the cards' dates are back.
    let Some((on, off)) = on_and_off(
        "real_article_loses_its_dated_feed",
        "chaos/html/ranger-7.html.gz",
    ) else {
        return;
    };
    assert!(
        on.contains("in that suit you are a superhero"),
        "the story stays: {on}"
    );
    assert!(!on.contains("29 March 2017"), "{on}");
    assert!(off.contains("in that suit you are a superhero"), "{off}");
    assert!(off.matches("29 March 2017").count() >= 5, "{off}");
}

#[test]
fn an_older_feed_dated_in_text_leaves_too() {
    // Phys.org in 2017 (chaos reef-2, og:type article): under the story, "Related Stories",
    // cards of a linked headline, a date written as text in its own `<small>` ("March 15,
    // 2017") and a summary, no `<time>`. The embedded model keeps two of them; the rule drops
    // them and keeps the story (with its own date line).
    let Some((on, off)) = on_and_off(
        "an_older_feed_dated_in_text_leaves_too",
        "chaos/html/reef-2.html.gz",
    ) else {
        return;
    };
    assert!(
        on.contains("3-D mapping techniques") && on.contains("March 29, 2017"),
        "the story stays: {on}"
    );
    assert!(!on.contains("Coral researchers are remobilising"), "{on}");
    assert!(off.contains("3-D mapping techniques"), "{off}");
    assert!(off.contains("Coral researchers are remobilising"), "{off}");
    assert!(off.matches("March 15, 2017").count() >= 2, "{off}");
}

#[test]
fn a_feed_dated_by_datelines_leaves() {
    // CNN in 2013 (sites cnn-2013-france-2, og:type article): under the Bardot story, "CNN
    // Recommends" cards of a summary under a dateline with its time, zone and weekday
    // ("updated 4:58 PM EST, Fri January 4, 2013", nine words). The embedded model keeps them;
    // the rule drops them and keeps the story with its own dateline.
    let Some((on, off)) = on_and_off(
        "a_feed_dated_by_datelines_leaves",
        "sites/cnn/cnn-2013-france-2.html.gz",
    ) else {
        return;
    };
    assert!(
        on.contains("two elephants") && on.contains("updated 3:49 PM EST, Fri January 4, 2013"),
        "the story stays: {on}"
    );
    assert!(!on.contains("Kevin-Prince Boateng"), "{on}");
    assert!(!on.contains("updated 4:58 PM EST"), "{on}");
    assert!(off.contains("Kevin-Prince Boateng"), "{off}");
    assert!(off.matches("updated ").count() >= 10, "{off}");
}
