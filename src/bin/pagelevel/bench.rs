//! `pagelevel bench`: times the stages on a manifest's pages, one thread, pages in memory.

use std::path::PathBuf;
use std::time::Instant;

use pagelevel::features::{self, FeatureOptions};
use pagelevel::manifest::Manifest;
use pagelevel::{decode, dom, input, Limits};

/// Arguments of `pagelevel bench`.
#[derive(clap::Args)]
pub struct Args {
    /// Manifest of the pages to time (e.g. ../shared/data/wcxb-dev/manifest.jsonl).
    #[arg(long)]
    manifest: PathBuf,
    /// Folder the manifest's paths are relative to (default: found next to the manifest).
    #[arg(long)]
    root: Option<PathBuf>,
    /// Also time html5ever into markup5ever_rcdom (the reference DOM).
    #[arg(long)]
    rcdom: bool,
    /// Timing rounds over all pages; each page's median over rounds is kept.
    #[arg(long, default_value_t = 1)]
    rounds: usize,
}

/// One timed stage: per-page seconds.
struct Stage {
    name: &'static str,
    secs: Vec<f64>,
}

pub fn run(args: Args) -> anyhow::Result<usize> {
    let m = Manifest::load(&args.manifest, args.root.as_deref())?;
    let limits = Limits::default();
    let mut pages = Vec::new();
    for e in &m.entries {
        pages.push((input::read_page(&m.html_path(e), &limits)?, e.url.clone()));
    }
    let total_bytes: usize = pages.iter().map(|p| p.0.len()).sum();
    let opts = FeatureOptions::default();
    let mut stages: Vec<Stage> = Vec::new();
    let mut time = |name: &'static str, work: &dyn Fn(&[u8], Option<&str>)| {
        let mut secs = vec![f64::INFINITY; pages.len()];
        for _ in 0..args.rounds.max(1) {
            for (k, (bytes, url)) in pages.iter().enumerate() {
                let t = Instant::now();
                work(bytes, url.as_deref());
                secs[k] = secs[k].min(t.elapsed().as_secs_f64());
            }
        }
        stages.push(Stage { name, secs });
    };
    time("decode", &|b, u| {
        std::hint::black_box(decode::decode_for_url(b, None, u));
    });
    if args.rcdom {
        time("decode + html5ever→rcdom", &|b, u| {
            let d = decode::decode_for_url(b, None, u);
            std::hint::black_box(dom::reference::parse_rcdom_only(&d.text));
        });
    }
    time("decode + parse (arena, no spans)", &|b, u| {
        let d = decode::decode_for_url(b, None, u);
        std::hint::black_box(dom::sink::parse_unchunked(&d.text, &limits).ok());
    });
    time("decode + parse (arena, spans)", &|b, u| {
        let d = decode::decode_for_url(b, None, u);
        std::hint::black_box(dom::parse(&d.text, &limits).ok());
    });
    time("parse + geometry + features", &|b, u| {
        let d = decode::decode_for_url(b, None, u);
        if let Ok(dom) = dom::parse(&d.text, &limits) {
            std::hint::black_box(features::compute(&dom, u, &opts));
        }
    });
    let model = pagelevel::classify::Model::embedded();
    let popts = pagelevel::pipeline::Options::default();
    time("whole pipeline (parse → text)", &|b, u| {
        let page = pagelevel::Page::from_bytes(b, u, None, &limits);
        if let Ok(page) = page {
            std::hint::black_box(pagelevel::pipeline::analyze(page, model, &popts).main_text());
        }
    });
    println!(
        "{} pages, {:.1} MB, one thread, best of {} round(s) per page\n",
        pages.len(),
        total_bytes as f64 / 1e6,
        args.rounds.max(1)
    );
    println!("| stage | median ms/page | mean ms/page | pages/s | MB/s |");
    println!("|---|---:|---:|---:|---:|");
    for s in &stages {
        let mut v = s.secs.clone();
        v.sort_by(f64::total_cmp);
        let median = v[v.len() / 2] * 1e3;
        let total: f64 = v.iter().sum();
        println!(
            "| {} | {:.2} | {:.2} | {:.0} | {:.1} |",
            s.name,
            median,
            total * 1e3 / v.len() as f64,
            v.len() as f64 / total,
            total_bytes as f64 / 1e6 / total
        );
    }
    Ok(0)
}
