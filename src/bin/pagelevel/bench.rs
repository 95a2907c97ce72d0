//! `pagelevel bench`: times the stages on a manifest's pages, one thread, pages in memory.

use crate::pipeline_args::ManifestArgs;
use std::path::PathBuf;
use std::time::Instant;

use pagelevel::segment::score_nodes;
use pagelevel::{decode, dom, input};

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

/// The clock a stage is timed with.
#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Clock {
    /// CPU time of the timing thread (`CLOCK_THREAD_CPUTIME_ID`).
    Cpu,
    /// Elapsed wall-clock time.
    Wall,
}

impl Clock {
    /// Seconds on this clock since an arbitrary origin.
    fn now(self, origin: Instant) -> f64 {
        match self {
            #[cfg(unix)]
            Clock::Cpu => {
                let mut t = libc::timespec {
                    tv_sec: 0,
                    tv_nsec: 0,
                };
                // SAFETY: `t` is a valid, writable timespec; the clock id is a constant.
                let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) };
                if rc == 0 {
                    return t.tv_sec as f64 + t.tv_nsec as f64 * 1e-9;
                }
                origin.elapsed().as_secs_f64()
            }
            _ => origin.elapsed().as_secs_f64(),
        }
    }
}

/// One timed stage: per-page seconds.
struct Stage {
    name: &'static str,
    secs: Vec<f64>,
}

pub fn run(args: Args) -> anyhow::Result<usize> {
    let m = args.data.load()?;
    let limits = args.limits.limits();
    let mut pages = Vec::new();
    for e in &m.entries {
        pages.push((input::read_page(&m.html_path(e), &limits)?, e.url.clone()));
    }
    let total_bytes: usize = pages.iter().map(|p| p.0.len()).sum();
    let model = &crate::pipeline_args::load_model(args.model.as_deref())?;
    let popts = pagelevel::pipeline::Options::default();
    let learned = pagelevel::pipeline::Options {
        segment: pagelevel::segment::SegmentOptions {
            learned_threshold: true,
            ..popts.segment
        },
        ..popts.clone()
    };
    // The pipeline's own parse (no spans, see `pagelevel::Spans`); the spanned one is timed
    // beside it, as `segment` and `view` run it.
    let none = pagelevel::config::Deadline::none();
    // The feature stage as the pipeline runs it (rows only for the nodes it scores).
    let page_features = |dom: &dom::Dom, u: Option<&str>| {
        pagelevel::pipeline::page_features(dom, u, &popts, &none).expect("no deadline to pass")
    };
    type Work<'a> = Box<dyn Fn(&[u8], Option<&str>) + 'a>;
    let mut work: Vec<(&'static str, Work)> = vec![(
        "decode",
        Box::new(|b, u| {
            std::hint::black_box(decode::decode_for_url(b, None, u));
        }),
    )];
    if args.rcdom {
        work.push((
            "decode + html5ever→rcdom",
            Box::new(|b, u| {
                let d = decode::decode_for_url(b, None, u);
                std::hint::black_box(dom::reference::parse_rcdom_only(&d.text));
            }),
        ));
    }
    work.push((
        "decode + parse (arena, no spans)",
        Box::new(|b, u| {
            let d = decode::decode_for_url(b, None, u);
            std::hint::black_box(dom::parse_plain_within(&d.text, &limits, &none).ok());
        }),
    ));
    work.push((
        "decode + parse (arena, spans)",
        Box::new(|b, u| {
            let d = decode::decode_for_url(b, None, u);
            std::hint::black_box(dom::parse(&d.text, &limits).ok());
        }),
    ));
    work.push((
        "parse + geometry + features",
        Box::new(|b, u| {
            let d = decode::decode_for_url(b, None, u);
            if let Ok(dom) = dom::parse_plain_within(&d.text, &limits, &none) {
                std::hint::black_box(page_features(&dom, u));
            }
        }),
    ));
    work.push((
        "parse + features + classifier scores",
        Box::new(|b, u| {
            let d = decode::decode_for_url(b, None, u);
            if let Ok(dom) = dom::parse_plain_within(&d.text, &limits, &none) {
                let pf = page_features(&dom, u);
                std::hint::black_box(score_nodes(&dom, &pf, model, popts.segment.min_area));
            }
        }),
    ));
    // The whole pipeline with `opts`, from the bytes to the main text.
    let whole = |opts: pagelevel::pipeline::Options| -> Work {
        Box::new(move |b, u| {
            let page_opts = pagelevel::PageOptions {
                url: u,
                limits,
                ..Default::default()
            };
            if let Ok(page) = pagelevel::Page::from_bytes(b, &page_opts) {
                std::hint::black_box(pagelevel::pipeline::analyze(page, model, &opts).main_text());
            }
        })
    };
    work.push(("whole pipeline (parse → text)", whole(popts.clone())));
    // With a threshold part in the model, the pipeline that uses it is timed beside.
    if model.threshold.is_some() {
        work.push(("whole pipeline, learned threshold", whole(learned)));
    }
    // Stages run back to back on each page, so drift in the machine's speed hits all alike.
    let mut secs = vec![vec![f64::INFINITY; pages.len()]; work.len()];
    let origin = Instant::now();
    for _ in 0..args.rounds.max(1) {
        for (k, (bytes, url)) in pages.iter().enumerate() {
            for (s, (_, w)) in work.iter().enumerate() {
                let t = args.clock.now(origin);
                w(bytes, url.as_deref());
                secs[s][k] = secs[s][k].min(args.clock.now(origin) - t);
            }
        }
    }
    let stages: Vec<Stage> = work
        .iter()
        .zip(secs)
        .map(|((name, _), secs)| Stage { name, secs })
        .collect();
    println!(
        "{} pages, {:.1} MB, one thread, best of {} round(s) per page, {} time\n",
        pages.len(),
        total_bytes as f64 / 1e6,
        args.rounds.max(1),
        match args.clock {
            Clock::Cpu => "thread CPU",
            Clock::Wall => "wall-clock",
        }
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
