//! Stage timings (`pagelevel bench`): each stage of the pipeline timed on pages held in memory,
//! one thread, each page's best time over rounds, summarised per stage ([`time_stages`]).
//!
//! The stages run back to back on each page, so drift in the machine's speed hits all alike.

use std::time::Instant;

use crate::config::{Deadline, Limits};
use crate::dom::{self, Dom, Parser};
use crate::model::Model;
use crate::pipeline::{self, Options};
use crate::segment::{score_nodes, SegmentOptions};
use crate::{decode, Page, PageOptions};

/// The clock a stage is timed with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum Clock {
    /// CPU time of the timing thread (`CLOCK_THREAD_CPUTIME_ID`).
    Cpu,
    /// Elapsed wall-clock time.
    Wall,
}

impl Clock {
    /// Seconds on this clock since an arbitrary origin: the thread's CPU time on Unix for
    /// [`Clock::Cpu`] (wall time since `origin` where that clock is missing), else the wall
    /// time since `origin`.
    pub fn now(self, origin: Instant) -> f64 {
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

    /// What the clock measures, in words: "thread CPU" or "wall-clock".
    pub fn describe(self) -> &'static str {
        match self {
            Clock::Cpu => "thread CPU",
            Clock::Wall => "wall-clock",
        }
    }
}

/// Settings of [`time_stages`].
#[derive(Debug, Clone, Copy)]
pub struct SpeedOptions {
    /// Also time html5ever into markup5ever_rcdom (the reference DOM).
    pub rcdom: bool,
    /// Timing rounds over all pages (at least one is run); each page keeps its best time.
    pub rounds: usize,
    /// The clock the stages are timed with.
    pub clock: Clock,
    /// Per-page resource limits of the parse.
    pub limits: Limits,
}

/// One timed stage, summarised over the pages.
#[derive(Debug, Clone, PartialEq)]
pub struct StageTime {
    /// What the stage runs, e.g. "decode + parse (arena, spans)".
    pub name: &'static str,
    /// Median over pages of the best time, in milliseconds (NaN without pages).
    pub median_ms: f64,
    /// Mean over pages of the best time, in milliseconds.
    pub mean_ms: f64,
    /// Pages per second: pages / Σ best times.
    pub pages_per_s: f64,
    /// Megabytes (10⁶ bytes) of input per second: all pages' bytes / Σ best times.
    pub mb_per_s: f64,
}

/// The timings of every stage on a set of pages.
#[derive(Debug, Clone, PartialEq)]
pub struct SpeedTable {
    /// Pages timed.
    pub pages: usize,
    /// Their total size in bytes.
    pub bytes: usize,
    /// Rounds run (at least 1).
    pub rounds: usize,
    /// The clock used.
    pub clock: Clock,
    /// One row per stage, in the order they ran.
    pub stages: Vec<StageTime>,
}

type Work<'a> = Box<dyn Fn(&[u8], Option<&str>) + 'a>;

/// Times the stages on `pages` (bytes and URL each), one thread: decode; optionally
/// decode + html5ever→rcdom; decode + parse with html5ever and with the fast parser, each
/// without and with spans; parse + geometry + features; + classifier scores; the whole
/// pipeline to the main text with either parser, and with the default parser and the page's
/// metadata ([`crate::metadata`]) after it; and, when `model` has a threshold part, the
/// whole pipeline with the learned threshold. Every stage runs on a page before the next
/// page, so the parsers are timed interleaved.
///
/// # Complexity
/// `rounds` runs of every stage on every page (each stage linear or near-linear in the page),
/// plus O(p log p) per stage for the median over p pages; memory O(stages · p).
pub fn time_stages(
    pages: &[(Vec<u8>, Option<String>)],
    model: &Model,
    options: &SpeedOptions,
) -> SpeedTable {
    let limits = options.limits;
    let total_bytes: usize = pages.iter().map(|p| p.0.len()).sum();
    let popts = Options::default();
    let learned = Options {
        segment: SegmentOptions {
            learned_threshold: true,
            ..popts.segment
        },
        ..popts.clone()
    };
    // The pipeline's own parse (no spans, see `crate::Spans`); the spanned one is timed
    // beside it, as `segment` and `view` run it.
    let none = Deadline::none();
    // The feature stage as the pipeline runs it (rows only for the nodes it scores).
    let page_features = |dom: &Dom, u: Option<&str>| {
        pipeline::page_features(dom, u, &popts, &none).expect("no deadline to pass")
    };
    let mut work: Vec<(&'static str, Work)> = vec![(
        "decode",
        Box::new(|b, u| {
            std::hint::black_box(decode::decode_for_url(b, None, u));
        }),
    )];
    if options.rcdom {
        work.push((
            "decode + html5ever→rcdom",
            Box::new(|b, u| {
                let d = decode::decode_for_url(b, None, u);
                std::hint::black_box(dom::reference::parse_rcdom_only(&d.text));
            }),
        ));
    }
    // Both parsers, each without and with spans, on the same decoded text.
    for (name, parser, spans) in [
        (
            "decode + parse html5ever (no spans)",
            Parser::Html5ever,
            false,
        ),
        ("decode + parse html5ever (spans)", Parser::Html5ever, true),
        ("decode + parse fast (no spans)", Parser::Fast, false),
        ("decode + parse fast (spans)", Parser::Fast, true),
    ] {
        work.push((
            name,
            Box::new(move |b, u| {
                let d = decode::decode_for_url(b, None, u);
                let dom = if spans {
                    parser.parse_within(&d.text, &limits, &Deadline::none())
                } else {
                    parser.parse_plain_within(&d.text, &limits, &Deadline::none())
                };
                std::hint::black_box(dom.ok());
            }),
        ));
    }
    work.push((
        "parse + geometry + features",
        Box::new(|b, u| {
            let d = decode::decode_for_url(b, None, u);
            if let Ok(dom) = popts.parser.parse_plain_within(&d.text, &limits, &none) {
                std::hint::black_box(page_features(&dom, u));
            }
        }),
    ));
    work.push((
        "parse + features + classifier scores",
        Box::new(|b, u| {
            let d = decode::decode_for_url(b, None, u);
            if let Ok(dom) = popts.parser.parse_plain_within(&d.text, &limits, &none) {
                let pf = page_features(&dom, u);
                std::hint::black_box(score_nodes(&dom, &pf, model, popts.segment.min_area));
            }
        }),
    ));
    // The whole pipeline with `opts`, and the page's metadata after it when `metadata`.
    let whole = |opts: Options, metadata: bool| -> Work {
        Box::new(move |b, u| {
            let page_opts = PageOptions {
                url: u,
                limits,
                parser: opts.parser,
                ..Default::default()
            };
            if let Ok(page) = Page::from_bytes(b, &page_opts) {
                let a = pipeline::analyze(page, model, &opts);
                std::hint::black_box((a.main_text(), metadata.then(|| a.metadata())));
            }
        })
    };
    for (name, parser) in [
        (
            "whole pipeline, html5ever (parse → text)",
            Parser::Html5ever,
        ),
        ("whole pipeline, fast parser (parse → text)", Parser::Fast),
    ] {
        let opts = Options {
            parser,
            ..popts.clone()
        };
        work.push((name, whole(opts, false)));
    }
    // The default pipeline with the page's metadata read after (`extract --with-metadata`).
    work.push(("whole pipeline + metadata", whole(popts.clone(), true)));
    // With a threshold part in the model, the pipeline that uses it is timed beside.
    if model.threshold.is_some() {
        work.push(("whole pipeline, learned threshold", whole(learned, false)));
    }
    let rounds = options.rounds.max(1);
    let clock = options.clock;
    let mut secs = vec![vec![f64::INFINITY; pages.len()]; work.len()];
    let origin = Instant::now();
    for _ in 0..rounds {
        for (k, (bytes, url)) in pages.iter().enumerate() {
            for (s, (_, w)) in work.iter().enumerate() {
                let t = clock.now(origin);
                w(bytes, url.as_deref());
                secs[s][k] = secs[s][k].min(clock.now(origin) - t);
            }
        }
    }
    let stages = work
        .iter()
        .zip(secs)
        .map(|((name, _), mut v)| {
            v.sort_by(f64::total_cmp);
            let total: f64 = v.iter().sum();
            StageTime {
                name,
                median_ms: v.get(v.len() / 2).map_or(f64::NAN, |m| m * 1e3),
                mean_ms: total * 1e3 / v.len() as f64,
                pages_per_s: v.len() as f64 / total,
                mb_per_s: total_bytes as f64 / 1e6 / total,
            }
        })
        .collect();
    SpeedTable {
        pages: pages.len(),
        bytes: total_bytes,
        rounds,
        clock,
        stages,
    }
}
