//! The `dated-teasers` rule on a real page (its hand-worked cases are in `rule_table.rs`): an
//! article's feeds of other stories, each card with its own date, leave.

use crate::common;

use pagelevel::rules::Rule;

/// The main text of a shared page with every rule, and without `dated-teasers`: asserts that
/// with the rule the text holds each of `kept` and none of `gone`, and without it each phrase
/// of `back` at least as often as its count. Skips (with `test`'s message) without the data.
fn assert_feed_leaves(
    test: &str,
    path: &str,
    kept: &[&str],
    gone: &[&str],
    back: &[(&str, usize)],
) {
    let Some((on, off)) = common::on_and_off(test, path, None, Rule::DatedTeasers) else {
        return;
    };
    common::assert_holds(&on, kept);
    common::assert_lacks(&on, gone);
    for &(b, count) in back {
        assert!(off.matches(b).count() >= count, "{b} ×{count}: {off}");
    }
}

#[test]
fn real_article_loses_its_dated_feed() {
    // Digital Spy's story on the Power Rangers (chaos ranger-7, a NewsArticle): under it a
    // "Latest News" feed of cards, each a linked headline, a `<time>` ("29 March 2017") and a
    // summary, which the embedded model keeps. The rule drops the cards and keeps the story;
    // switched off, the cards' dates are back.
    assert_feed_leaves(
        "real_article_loses_its_dated_feed",
        "chaos/html/ranger-7.html.gz",
        &["in that suit you are a superhero"],
        &["29 March 2017"],
        &[
            ("in that suit you are a superhero", 1),
            ("29 March 2017", 5),
        ],
    );
}

#[test]
fn an_older_feed_dated_in_text_leaves_too() {
    // Phys.org in 2017 (chaos reef-2, og:type article): under the story, "Related Stories",
    // cards of a linked headline, a date written as text in its own `<small>` ("March 15,
    // 2017") and a summary, no `<time>`. The embedded model keeps two of them; the rule drops
    // them and keeps the story (with its own date line).
    assert_feed_leaves(
        "an_older_feed_dated_in_text_leaves_too",
        "chaos/html/reef-2.html.gz",
        &["3-D mapping techniques", "March 29, 2017"],
        &["Coral researchers are remobilising"],
        &[
            ("3-D mapping techniques", 1),
            ("Coral researchers are remobilising", 1),
            ("March 15, 2017", 2),
        ],
    );
}

#[test]
fn a_feed_dated_by_datelines_leaves() {
    // CNN in 2013 (sites cnn-2013-france-2, og:type article): under the Bardot story, "CNN
    // Recommends" cards of a summary under a dateline with its time, zone and weekday
    // ("updated 4:58 PM EST, Fri January 4, 2013", nine words). The embedded model keeps them;
    // the rule drops them and keeps the story with its own dateline.
    assert_feed_leaves(
        "a_feed_dated_by_datelines_leaves",
        "sites/cnn/cnn-2013-france-2.html.gz",
        &["two elephants", "updated 3:49 PM EST, Fri January 4, 2013"],
        &["Kevin-Prince Boateng", "updated 4:58 PM EST"],
        &[("Kevin-Prince Boateng", 1), ("updated ", 10)],
    );
}
