//! `pagelevel bench`: times the stages on a manifest's pages, one thread, pages in memory.

use crate::pipeline_args::ManifestArgs;
use std::path::PathBuf;

use pagelevel::eval::speed::{self, Clock, SpeedOptions};
use pagelevel::input;

/// Arguments of `pagelevel bench`.
#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    data: ManifestArgs,
    /// Also time html5ever into markup5ever_rcdom (the reference DOM).
    #[arg(long)]
    rcdom: bool,
    /// A model JSON file instead of the embedded one.
    #[arg(long)]
    model: Option<PathBuf>,
    /// Timing rounds over all pages; each page's best (least) time over rounds is kept.
    #[arg(long, default_value_t = 1)]
    rounds: usize,
    /// What a stage's time is: the thread's CPU time (unaffected by other processes taking
    /// turns on the core; Linux and other Unix) or wall-clock time.
    #[arg(long, value_enum, default_value_t = Clock::Cpu)]
    clock: Clock,
    #[command(flatten)]
    limits: crate::pipeline_args::LimitArgs,
}

pub fn run(args: Args) -> anyhow::Result<usize> {
    // Both parsers are timed side by side; the option picks nothing here.
    args.limits
        .default_parser_only("bench (it times both parsers)")?;
    let m = args.data.load()?;
    let limits = args.limits.limits();
    let mut pages = Vec::new();
    for e in &m.entries {
        pages.push((input::read_page(&m.html_path(e), &limits)?, e.url.clone()));
    }
    let model = &crate::pipeline_args::load_model(args.model.as_deref())?;
    let options = SpeedOptions {
        rcdom: args.rcdom,
        rounds: args.rounds,
        clock: args.clock,
        limits,
    };
    let t = speed::time_stages(&pages, model, &options);
    println!(
        "{} pages, {:.1} MB, one thread, best of {} round(s) per page, {} time\n",
        t.pages,
        t.bytes as f64 / 1e6,
        t.rounds,
        t.clock.describe()
    );
    println!("| stage | median ms/page | mean ms/page | pages/s | MB/s |");
    println!("|---|---:|---:|---:|---:|");
    for s in &t.stages {
        println!(
            "| {} | {:.2} | {:.2} | {:.0} | {:.1} |",
            s.name, s.median_ms, s.mean_ms, s.pages_per_s, s.mb_per_s
        );
    }
    Ok(0)
}
