//! Parses every page of every shared set with html5ever and with the fast parser, and counts
//! the pages whose arenas are identical (and, with `--text`, whose main text is).
//!
//!     cargo run --release --example parser_diff [-- --text] [--spans] [--show N] [SET...]
//!
//! `--spans` also compares the source spans of the spanned parses (`segment`, `view`).
//!
//! Reads `../shared/data` (or `$PAGELEVEL_DATA`); prints one line per set and the first
//! difference of up to N pages (default 5).

use std::path::PathBuf;

use pagelevel::config::Deadline;
use pagelevel::dom::compare::{first_difference, first_span_difference};
use pagelevel::dom::{close_unterminated_title, Parser};
use pagelevel::input::manifest::Manifest;
use pagelevel::Limits;

const SETS: &[&str] = &[
    "wcxb-dev",
    "l3s-gn1",
    "readability",
    "cleaneval-dev",
    "sites",
    "chaos",
];

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let text = args.iter().any(|a| a == "--text");
    let spans = args.iter().any(|a| a == "--spans");
    let show = args
        .iter()
        .position(|a| a == "--show")
        .and_then(|k| args.get(k + 1))
        .and_then(|v| v.parse().ok())
        .unwrap_or(5usize);
    let named: Vec<&str> = args
        .iter()
        .filter(|a| !a.starts_with("--") && a.parse::<usize>().is_err())
        .map(String::as_str)
        .collect();
    let data = std::env::var("PAGELEVEL_DATA")
        .map(PathBuf::from)
        .unwrap_or_else(|_| PathBuf::from("../shared/data"));
    let model = pagelevel::model::Model::embedded();
    let limits = Limits::default();
    let none = Deadline::none();
    let (mut all, mut all_same, mut all_text) = (0, 0, 0);
    let mut shown = 0;
    for set in SETS
        .iter()
        .filter(|s| named.is_empty() || named.contains(s))
    {
        let path = data.join(set).join("manifest.jsonl");
        let Ok(m) = Manifest::load(&path, None) else {
            eprintln!("{set}: no manifest at {}", path.display());
            continue;
        };
        let (mut pages, mut same, mut same_text) = (0, 0, 0);
        for e in &m.entries {
            let Ok(bytes) = pagelevel::input::read_page(&m.html_path(e), &limits) else {
                continue;
            };
            pages += 1;
            let mut decoded = pagelevel::decode::decode_for_url(&bytes, None, e.url.as_deref());
            close_unterminated_title(&mut decoded.text);
            let html = &decoded.text;
            let a = Parser::Html5ever.parse_plain_within(html, &limits, &none);
            let b = Parser::Fast.parse_plain_within(html, &limits, &none);
            let diff = match (&a, &b) {
                (Ok(a), Ok(b)) => first_difference(a, b),
                (Err(x), Err(y)) if x.to_string() == y.to_string() => None,
                (x, y) => Some(format!("results {:?} vs {:?}", x.is_ok(), y.is_ok())),
            };
            let diff = diff.or_else(|| {
                if !spans {
                    return None;
                }
                let a = Parser::Html5ever.parse_within(html, &limits, &none).ok()?;
                let b = Parser::Fast.parse_within(html, &limits, &none).ok()?;
                first_span_difference(&a, &b)
            });
            match diff {
                None => same += 1,
                Some(d) if shown < show => {
                    shown += 1;
                    println!("  {set}/{}: {d}", e.id);
                }
                Some(_) => {}
            }
            if text {
                let main = |parser| {
                    let opts = pagelevel::pipeline::Options {
                        parser,
                        ..Default::default()
                    };
                    pagelevel::pipeline::run_bytes(
                        &bytes,
                        e.url.as_deref(),
                        None,
                        &limits,
                        model,
                        &opts,
                    )
                    .ok()
                    .map(|a| a.main_text())
                };
                let (x, y) = (main(Parser::Html5ever), main(Parser::Fast));
                if x == y {
                    same_text += 1;
                } else if shown < show {
                    shown += 1;
                    println!("  {set}/{}: main text differs", e.id);
                }
            }
        }
        let pct = |k: usize| 100.0 * k as f64 / pages.max(1) as f64;
        if text {
            println!(
                "{set}: {pages} pages, trees identical {same} ({:.2}%), main text identical {same_text} ({:.2}%)",
                pct(same),
                pct(same_text)
            );
        } else {
            println!(
                "{set}: {pages} pages, trees identical {same} ({:.2}%)",
                pct(same)
            );
        }
        all += pages;
        all_same += same;
        all_text += same_text;
    }
    let pct = |k: usize| 100.0 * k as f64 / all.max(1) as f64;
    if text {
        println!(
            "all: {all} pages, trees identical {all_same} ({:.2}%), main text identical {all_text} ({:.2}%)",
            pct(all_same),
            pct(all_text)
        );
    } else {
        println!(
            "all: {all} pages, trees identical {all_same} ({:.2}%)",
            pct(all_same)
        );
    }
}
