//! The integration tests, one binary (as ripgrep's `tests/tests.rs`): a module per stage or
//! rule, each the file of its name beside this one, and `common` for their shared helpers.
//!
//! All modules run in one process, their tests in parallel threads: a test that measures time
//! takes [`common::timed`] first, one that runs over a whole data set [`common::heavy`] (see
//! there).

mod common;

mod adversarial;
mod architecture;
mod batch;
mod blocks;
mod bypass;
mod cli;
mod comments;
mod decode;
mod dedup;
mod dedup_clusters;
mod dom;
mod empty_pages;
mod evaluate;
mod extract;
mod features;
mod figures;
mod fuzz_regressions;
mod geometry;
mod listing;
mod markdown;
mod metadata;
mod parser;
mod repeats;
mod rule_table;
mod sitelevel;
mod stack;
mod teasers;
mod threshold;
mod view;
mod warc;
