//! `pagelevel dedup`: near-duplicate pages by the paper's shingling ([`pagelevel::dedup`]) over
//! one of three texts of each page: all its visible text, the SiteLevel baseline text or the
//! PageLevel main text. Prints one JSON line per duplicate pair (or per page with `--sketches`),
//! or with `--evaluate` measures the three texts on pairs whose gold texts say whether they are
//! duplicates (the paper's Table 2).
//!
//! Every page's text and sketch is computed in parallel and gathered in input order, and pairs
//! are sorted, so the output is the same for any `-j`.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context};
use pagelevel::config::Deadline;
use pagelevel::dedup::{self, Sketch, Truth};
use pagelevel::dom::visibility;
use pagelevel::input::manifest::Manifest;
use pagelevel::model::Model;
use pagelevel::output::text::render_text;
use pagelevel::pipeline::{analyze_within, Options};
use pagelevel::site::{self, Outcome, RunOptions, SiteGroup, SitePage};
use pagelevel::{Limits, Page};
use rayon::prelude::*;

use crate::extract::line;
use crate::pipeline_args::PipelineArgs;

/// Which text of a page is shingled.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// All visible text of the page.
    Full,
    /// The SiteLevel baseline: visible text outside the site's templates (needs sites: a manifest,
    /// a site folder, or WARC records grouped by the registrable domain of their URI).
    Sitelevel,
    /// The PageLevel main text (what `pagelevel extract` prints).
    Pagelevel,
}

/// All modes, in table order.
const MODES: [Mode; 3] = [Mode::Full, Mode::Sitelevel, Mode::Pagelevel];

/// Arguments of `pagelevel dedup`.
#[derive(clap::Args)]
pub struct Args {
    /// HTML pages (.html or .html.gz) and WARC files (.warc, .warc.gz: their HTML responses);
    /// instead, give --manifest or --site-dir.
    #[arg(conflicts_with_all = ["manifest", "site_dir"], required_unless_present_any = ["manifest", "site_dir"])]
    pages: Vec<PathBuf>,
    /// Which text is shingled: all visible text, the SiteLevel text or the PageLevel main text.
    #[arg(long, value_enum, default_value_t = Mode::Pagelevel)]
    mode: Mode,
    /// Manifest(s) in the ../shared/data format; pages are grouped by site within each manifest.
    #[arg(long, value_name = "M", num_args = 1.., conflicts_with = "site_dir")]
    manifest: Vec<PathBuf>,
    /// Folder the manifests' paths are relative to (default: found next to each manifest).
    #[arg(long, value_name = "DIR", requires = "manifest")]
    root: Option<PathBuf>,
    /// A folder holding one folder of pages per site (instead of --manifest or PAGE...).
    #[arg(long, value_name = "DIR")]
    site_dir: Option<PathBuf>,
    /// The pages' URL (for the intra-site link feature), for PAGE... only.
    #[arg(long)]
    url: Option<String>,
    /// Print one line per page with its sketch, {"path", "words", "sketch"}, instead of pairs.
    #[arg(long, conflicts_with = "evaluate")]
    sketches: bool,
    /// Measure all three modes on pairs labelled by the manifests' gold texts; print a table.
    #[arg(long, requires = "manifest")]
    evaluate: bool,
    /// With --evaluate: cross-site pairs drawn at random (seeded) as further non-duplicates.
    #[arg(long, default_value_t = 2000, requires = "evaluate")]
    sample: usize,
    #[command(flatten)]
    pipeline: PipelineArgs,
    #[command(flatten)]
    timeout: crate::pipeline_args::TimeoutArg,
}

/// The pages to compare, in output order, and the sites they form (indices into `pages`).
struct Inputs {
    pages: Vec<SitePage>,
    /// Sites, each with its pages in input order; `None` for plain files.
    sites: Option<Vec<(String, Vec<usize>)>>,
    /// Per page: the place of its record (or junk span) when it comes from a WARC file (`file`).
    offsets: Vec<Option<pagelevel::input::warc::Place>>,
}

impl Inputs {
    /// `warc_record_id` and `url` of a WARC record's output line.
    fn warc_fields(
        &self,
        i: usize,
        prefix: &str,
        m: &mut serde_json::Map<String, serde_json::Value>,
    ) {
        if self.offsets.get(i).copied().flatten().is_some() {
            let p = &self.pages[i];
            m.insert(format!("{prefix}warc_record_id"), p.id.clone().into());
            m.insert(format!("{prefix}url"), p.url.clone().into());
        }
    }
}

fn inputs(args: &Args) -> anyhow::Result<Inputs> {
    if let Some(dir) = &args.site_dir {
        let groups = site::group_site_dir(dir)?;
        let mut pages = Vec::new();
        let mut sites = Vec::new();
        for g in groups {
            let start = pages.len();
            pages.extend(g.pages);
            sites.push((g.name, (start..pages.len()).collect()));
        }
        let offsets = vec![None; pages.len()];
        return Ok(Inputs {
            pages,
            sites: Some(sites),
            offsets,
        });
    }
    if !args.manifest.is_empty() {
        let mut pages = Vec::new();
        let mut sites: Vec<(String, Vec<usize>)> = Vec::new();
        for path in &args.manifest {
            let m = Manifest::load(path, args.root.as_deref())?;
            let mut index: HashMap<String, usize> = HashMap::new();
            for e in &m.entries {
                let key = site::site_key(e);
                let g = *index.entry(key.clone()).or_insert_with(|| {
                    sites.push((format!("{}:{key}", path.display()), Vec::new()));
                    sites.len() - 1
                });
                sites[g].1.push(pages.len());
                pages.push(SitePage {
                    path: e.html.clone(),
                    id: e.id.clone(),
                    file: m.html_path(e),
                    url: e.url.clone(),
                    gold: m.gold_path(e),
                });
            }
        }
        let offsets = vec![None; pages.len()];
        return Ok(Inputs {
            pages,
            sites: Some(sites),
            offsets,
        });
    }
    let mut pages = Vec::new();
    let mut offsets = Vec::new();
    for p in &args.pages {
        let path = p.to_string_lossy().into_owned();
        if !pagelevel::input::warc::is_warc(p) {
            pages.push(SitePage {
                path: path.clone(),
                id: path,
                file: p.clone(),
                url: args.url.clone(),
                gold: None,
            });
            offsets.push(None);
            continue;
        }
        // One pass lists the records (id, URI, offset); each is read again when its text is
        // made, so memory holds no page bodies.
        let reader = pagelevel::input::warc::WarcReader::open(p, &Limits::default())
            .with_context(|| format!("{}: cannot read", p.display()))?;
        for item in reader {
            let place = item.place();
            let (id, url) = match item {
                pagelevel::input::warc::Item::Page(w) => (w.record_id, w.uri),
                pagelevel::input::warc::Item::Bad(b) => (b.record_id.unwrap_or_default(), b.uri),
                pagelevel::input::warc::Item::Junk(_) => (String::new(), None),
            };
            pages.push(SitePage {
                path: path.clone(),
                id,
                file: p.clone(),
                url,
                gold: None,
            });
            offsets.push(Some(place));
        }
    }
    // WARC records (and pages given one --url) have URIs: their sites are registrable domains,
    // gathered from anywhere in the input as `sitelevel --warc` does. Files without a URL have
    // none, and SiteLevel mode refuses them.
    let sites = pages.iter().all(|p| p.url.is_some()).then(|| {
        site::group_in_order(pages.iter().enumerate().map(|(i, p)| {
            let name = p.url.as_deref().and_then(site::site_of_url);
            (name.unwrap_or_else(|| ".".to_owned()), i)
        }))
    });
    Ok(Inputs {
        pages,
        sites,
        offsets,
    })
}

/// Everything needed to compute a page's text in any mode.
struct Ctx {
    model: Model,
    opts: Options,
    limits: Limits,
}

impl Ctx {
    /// A page from its WARC record (at `offset`) or its file.
    fn load(
        &self,
        p: &SitePage,
        offset: Option<pagelevel::input::warc::Place>,
        deadline: &Deadline,
    ) -> pagelevel::Result<Page> {
        match offset {
            Some(o) => o.page(&p.file, &self.limits),
            None => Page::from_path(
                &p.file,
                &pagelevel::PageOptions {
                    url: p.url.as_deref(),
                    limits: self.limits,
                    deadline: Some(deadline),
                    ..Default::default()
                },
            ),
        }
    }

    /// The full text and, if asked, the PageLevel text, from one parse.
    fn texts(
        &self,
        p: &SitePage,
        offset: Option<pagelevel::input::warc::Place>,
        pagelevel: bool,
    ) -> anyhow::Result<(String, Option<String>)> {
        let deadline = self.limits.deadline();
        let page = self.load(p, offset, &deadline)?;
        let full = full_text(&page);
        let main = if pagelevel {
            Some(analyze_within(page, &self.model, &self.opts, &deadline)?.main_text())
        } else {
            None
        };
        deadline.check("output")?;
        Ok((full, main))
    }
}

/// All visible text of a page, in document order.
fn full_text(page: &Page) -> String {
    let dom = &page.dom;
    render_text(dom, &visibility(dom), &vec![true; dom.len()])
}

type Text = Result<String, String>;

/// The SiteLevel text of every page (input order). A page of a site SiteLevel refuses (fewer
/// distinct pages than its minimum) gets its full text: with no other pages there is no site
/// template to remove, and a note goes to stderr.
fn sitelevel_texts(ctx: &Ctx, inputs: &Inputs) -> anyhow::Result<Vec<Text>> {
    let Some(sites) = &inputs.sites else {
        bail!(
            "--mode sitelevel needs the pages' sites: give --manifest M, --site-dir DIR or WARC \
             files (pages given as files without --url have no site)"
        );
    };
    let options = RunOptions::default();
    let bar = crate::batch::progress(inputs.pages.len());
    let per_site: Vec<Vec<(usize, Text)>> = sites
        .par_iter()
        .map(|(name, idx)| {
            let group = SiteGroup {
                name: name.clone(),
                pages: idx.iter().map(|&i| inputs.pages[i].clone()).collect(),
            };
            let mut out: Vec<(usize, Text)> = Vec::with_capacity(idx.len());
            let mut skipped = Vec::new();
            let mut k = 0;
            site::run_site_with(
                &group,
                &options,
                |k, p| ctx.load(p, inputs.offsets[idx[k]], &ctx.limits.deadline()),
                |_, page, labels| site::extract_text(&page.dom, labels),
                |_, outcome| {
                    let i = idx[k];
                    k += 1;
                    bar.inc(1);
                    match outcome {
                        Outcome::Labelled(t) => out.push((i, Ok(t))),
                        Outcome::Failed(m) => out.push((i, Err(m))),
                        Outcome::Skipped(_) => skipped.push(i),
                    }
                },
            );
            if !skipped.is_empty() {
                let all = skipped.len() == idx.len();
                eprintln!(
                    "pagelevel: site {name}: {} of {} page(s) not labelled by SiteLevel{}; using their full text",
                    skipped.len(),
                    idx.len(),
                    if all { " (too few pages)" } else { "" }
                );
                for i in skipped {
                    let t = ctx
                        .texts(&inputs.pages[i], inputs.offsets[i], false)
                        .map(|(full, _)| full)
                        .map_err(|e| format!("{e:#}"));
                    out.push((i, t));
                }
            }
            out
        })
        .collect();
    bar.finish_and_clear();
    let mut texts: Vec<Option<Text>> = vec![None; inputs.pages.len()];
    for (i, t) in per_site.into_iter().flatten() {
        texts[i] = Some(t);
    }
    Ok(texts
        .into_iter()
        .map(|t| t.unwrap_or_else(|| Err("page not reached by its site's run".into())))
        .collect())
}

/// The text of every page in `mode` (input order).
fn texts(ctx: &Ctx, inputs: &Inputs, mode: Mode) -> anyhow::Result<Vec<Text>> {
    if mode == Mode::Sitelevel {
        return sitelevel_texts(ctx, inputs);
    }
    let bar = crate::batch::progress(inputs.pages.len());
    let out = inputs
        .pages
        .par_iter()
        .zip(&inputs.offsets)
        .map(|(p, &offset)| {
            let r = ctx.texts(p, offset, mode == Mode::Pagelevel);
            bar.inc(1);
            match r {
                Ok((full, main)) => Ok(main.unwrap_or(full)),
                Err(e) => Err(format!("{e:#}")),
            }
        })
        .collect();
    bar.finish_and_clear();
    Ok(out)
}

fn hex(s: &Sketch) -> Vec<String> {
    s.hashes().iter().map(|h| format!("{h:016x}")).collect()
}

pub fn run(args: Args) -> anyhow::Result<usize> {
    let ctx = Ctx {
        model: args.pipeline.model()?,
        opts: args.pipeline.options(),
        limits: args.timeout.with(args.pipeline.limits.limits()),
    };
    let inputs = inputs(&args)?;
    if args.evaluate {
        return evaluate(&args, &ctx, &inputs);
    }
    let texts = texts(&ctx, &inputs, args.mode)?;
    let sketches: Vec<Option<Sketch>> = texts
        .par_iter()
        .map(|t| t.as_ref().ok().map(|t| dedup::sketch(t)))
        .collect();
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let mut failed = 0;
    for (i, (p, t)) in inputs.pages.iter().zip(&texts).enumerate() {
        if let Err(m) = t {
            failed += 1;
            let m = crate::pipeline_args::strip_path(&p.path, m);
            eprintln!("pagelevel: {}: {m}", p.path);
            let mut o = serde_json::Map::new();
            o.insert("path".into(), p.path.clone().into());
            inputs.warc_fields(i, "", &mut o);
            o.insert("error".into(), m.into());
            out.write_all(&line(&o.into())?)?;
        } else if args.sketches {
            let words = t.as_deref().map(pagelevel::text::count_words).unwrap_or(0);
            let s = sketches[i].clone().unwrap_or_default();
            let mut o = serde_json::Map::new();
            o.insert("path".into(), p.path.clone().into());
            inputs.warc_fields(i, "", &mut o);
            o.insert("words".into(), words.into());
            o.insert("sketch".into(), hex(&s).into());
            out.write_all(&line(&o.into())?)?;
        }
    }
    if !args.sketches {
        // Failed pages get an empty sketch, which matches nothing.
        let all: Vec<Sketch> = sketches
            .into_iter()
            .map(Option::unwrap_or_default)
            .collect();
        for pair in dedup::duplicate_pairs(&all) {
            let mut o = serde_json::Map::new();
            o.insert("a".into(), inputs.pages[pair.a].path.clone().into());
            inputs.warc_fields(pair.a, "a_", &mut o);
            o.insert("b".into(), inputs.pages[pair.b].path.clone().into());
            inputs.warc_fields(pair.b, "b_", &mut o);
            o.insert("matches".into(), pair.matches.into());
            out.write_all(&line(&o.into())?)?;
        }
    }
    out.flush()?;
    Ok(failed)
}

/// Why a pair is a candidate, in the order a pair is classed when several apply.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Kind {
    /// Same manifest and site: shared template, usually different articles.
    SameSite,
    /// Same `query` field (chaos): same topic on different sites.
    SameQuery,
    /// Any other pair whose gold texts share enough shingles (found by an index).
    GoldOverlap,
    /// A seeded random pair of pages from different sites.
    Random,
}

impl Kind {
    fn name(self) -> &'static str {
        match self {
            Kind::SameSite => "same site",
            Kind::SameQuery => "same query (chaos)",
            Kind::GoldOverlap => "other, gold overlap ≥ 0.1",
            Kind::Random => "random cross-site sample",
        }
    }
}

/// The `query` field of each manifest line (for chaos), in entry order.
fn queries(path: &Path) -> anyhow::Result<Vec<Option<String>>> {
    let text = std::fs::read_to_string(path).with_context(|| path.display().to_string())?;
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l)?;
            Ok(v.get("query").and_then(|q| q.as_str()).map(str::to_owned))
        })
        .collect()
}

/// SplitMix64: a tiny seeded generator, so the sample is the same everywhere.
fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// Seed of the random cross-site sample (the paper's year).
const SAMPLE_SEED: u64 = 2007;

/// Measures the three modes on gold-labelled pairs; prints Markdown tables on stdout.
fn evaluate(args: &Args, ctx: &Ctx, inputs: &Inputs) -> anyhow::Result<usize> {
    let n = inputs.pages.len();
    let sites = inputs.sites.as_ref().expect("manifests give sites");
    let mut site_of = vec![0usize; n];
    for (s, (_, idx)) in sites.iter().enumerate() {
        for &i in idx {
            site_of[i] = s;
        }
    }
    let mut query: Vec<Option<String>> = Vec::with_capacity(n);
    for (k, m) in args.manifest.iter().enumerate() {
        let q = queries(m)?;
        query.extend(q.into_iter().map(|q| q.map(|q| format!("{k}:{q}"))));
    }
    anyhow::ensure!(query.len() == n, "manifest lines and entries disagree");

    // Gold texts → exact shingle sets and word counts.
    let gold: Vec<Option<(Vec<u64>, usize)>> = inputs
        .pages
        .par_iter()
        .map(|p| {
            let text = std::fs::read_to_string(p.gold.as_ref()?).ok()?;
            Some((dedup::shingles(&text), pagelevel::text::count_words(&text)))
        })
        .collect();
    // Texts and sketches of every page in all modes, and how much of its gold its full text holds.
    let bar = crate::batch::progress(n);
    let fp: Vec<Result<(Sketch, Sketch, f64), String>> = inputs
        .pages
        .par_iter()
        .zip(&gold)
        .map(|(p, g)| {
            let r = ctx
                // --evaluate reads manifests only (no WARC records).
                .texts(p, None, true)
                .map(|(f, m)| {
                    let cov = g
                        .as_ref()
                        .map_or(0.0, |(g, _)| dedup::coverage(g, &dedup::shingles(&f)));
                    (
                        dedup::sketch(&f),
                        dedup::sketch(m.as_deref().unwrap_or("")),
                        cov,
                    )
                })
                .map_err(|e| format!("{e:#}"));
            bar.inc(1);
            r
        })
        .collect();
    bar.finish_and_clear();
    let st: Vec<Result<Sketch, String>> = sitelevel_texts(ctx, inputs)?
        .par_iter()
        .map(|t| t.as_ref().map(|t| dedup::sketch(t)).map_err(Clone::clone))
        .collect();
    let mut failed = 0;
    for (i, p) in inputs.pages.iter().enumerate() {
        let errors = [fp[i].as_ref().err(), st[i].as_ref().err()];
        failed += usize::from(errors.iter().any(Option::is_some));
        for e in errors.into_iter().flatten() {
            let e = crate::pipeline_args::strip_path(&p.path, e);
            eprintln!("pagelevel: {}: {e}", p.path);
        }
    }
    let off_page: Vec<&str> = (0..n)
        .filter(|&i| {
            gold[i].is_some()
                && fp[i]
                    .as_ref()
                    .is_ok_and(|s| s.2 < dedup::TRUTH_MIN_COVERAGE)
        })
        .map(|i| inputs.pages[i].id.as_str())
        .collect();
    let judged = |i: usize| {
        let ok = fp[i]
            .as_ref()
            .is_ok_and(|s| s.2 >= dedup::TRUTH_MIN_COVERAGE)
            && st[i].is_ok();
        gold[i]
            .as_ref()
            .filter(|(_, w)| ok && *w >= dedup::TRUTH_MIN_WORDS)
    };

    // Candidate pairs, each with the first kind that applies.
    let mut cand: BTreeMap<(usize, usize), Kind> = BTreeMap::new();
    let mut add = |a: usize, b: usize, k: Kind| {
        let key = (a.min(b), a.max(b));
        let e = cand.entry(key).or_insert(k);
        *e = (*e).min(k);
    };
    for (_, idx) in sites {
        for (x, &a) in idx.iter().enumerate() {
            for &b in &idx[x + 1..] {
                add(a, b, Kind::SameSite);
            }
        }
    }
    let mut by_query: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
    for (i, q) in query.iter().enumerate() {
        if let Some(q) = q {
            by_query.entry(q).or_default().push(i);
        }
    }
    for idx in by_query.values() {
        for (x, &a) in idx.iter().enumerate() {
            for &b in &idx[x + 1..] {
                add(a, b, Kind::SameQuery);
            }
        }
    }
    let mut index: HashMap<u64, Vec<usize>> = HashMap::new();
    for i in 0..n {
        if let Some((sh, _)) = judged(i) {
            for &h in sh {
                index.entry(h).or_default().push(i);
            }
        }
    }
    let mut common: HashMap<(usize, usize), usize> = HashMap::new();
    for pages in index.values() {
        for (x, &a) in pages.iter().enumerate() {
            for &b in &pages[x + 1..] {
                *common.entry((a, b)).or_insert(0) += 1;
            }
        }
    }
    let mut overlap: Vec<(usize, usize)> = common
        .into_iter()
        .filter(|&((a, b), c)| {
            let (la, lb) = (
                gold[a].as_ref().unwrap().0.len(),
                gold[b].as_ref().unwrap().0.len(),
            );
            c as f64 / (la + lb - c) as f64 >= dedup::TRUTH_DISTINCT
        })
        .map(|(k, _)| k)
        .collect();
    overlap.sort_unstable();
    for (a, b) in overlap {
        add(a, b, Kind::GoldOverlap);
    }
    let mut state = SAMPLE_SEED;
    let mut drawn = BTreeSet::new();
    let mut tries = 0;
    while drawn.len() < args.sample && tries < args.sample * 20 && n > 1 {
        tries += 1;
        let a = (splitmix(&mut state) % n as u64) as usize;
        let b = (splitmix(&mut state) % n as u64) as usize;
        if a != b && site_of[a] != site_of[b] {
            drawn.insert((a.min(b), a.max(b)));
        }
    }
    for (a, b) in drawn {
        add(a, b, Kind::Random);
    }

    // Ground truth.
    let mut pairs: Vec<((usize, usize), Kind, Truth, f64)> = Vec::new();
    let mut ambiguous = 0;
    for (&(a, b), &k) in &cand {
        let (Some((sa, _)), Some((sb, _))) = (judged(a), judged(b)) else {
            ambiguous += 1;
            continue;
        };
        let r = dedup::resemblance(sa, sb);
        match dedup::truth_of(r) {
            Truth::Ambiguous => ambiguous += 1,
            t => pairs.push(((a, b), k, t, r.unwrap_or(0.0))),
        }
    }

    let sketch_of = |mode: Mode, i: usize| -> Option<&Sketch> {
        match mode {
            Mode::Full => fp[i].as_ref().ok().map(|s| &s.0),
            Mode::Pagelevel => fp[i].as_ref().ok().map(|s| &s.1),
            Mode::Sitelevel => st[i].as_ref().ok(),
        }
    };

    // Tally: per kind, per truth, per mode (right answers), plus pairs with a failed page.
    #[derive(Default, Clone, Copy)]
    struct Cell {
        pairs: usize,
        right: [usize; 3],
    }
    let mut table: BTreeMap<(Kind, bool), Cell> = BTreeMap::new();
    let mut total: [Cell; 2] = [Cell::default(); 2];
    let mut dup_rows = Vec::new();
    let mut false_pos: [Vec<String>; 3] = Default::default();
    for &((a, b), k, t, r) in &pairs {
        let dup = t == Truth::Duplicate;
        let m: Option<Vec<usize>> = MODES
            .iter()
            .map(|&mode| Some(dedup::matches(sketch_of(mode, a)?, sketch_of(mode, b)?)))
            .collect();
        let m = m.expect("judged pages have sketches");
        let cell = table.entry((k, dup)).or_default();
        cell.pairs += 1;
        total[usize::from(dup)].pairs += 1;
        for (x, &mx) in m.iter().enumerate() {
            let said = mx >= dedup::MIN_MATCHES;
            if said == dup {
                cell.right[x] += 1;
                total[usize::from(dup)].right[x] += 1;
            } else if !dup {
                false_pos[x].push(format!(
                    "{} ~ {} ({}, gold r = {r:.2}, {mx}/8)",
                    inputs.pages[a].id,
                    inputs.pages[b].id,
                    k.name()
                ));
            }
        }
        if dup {
            dup_rows.push(format!(
                "| {} | {} | {} | {r:.2} | {} | {} | {} |",
                inputs.pages[a].id,
                inputs.pages[b].id,
                k.name(),
                m[0],
                m[1],
                m[2]
            ));
        }
    }

    let names: Vec<String> = args
        .manifest
        .iter()
        .map(|m| m.display().to_string())
        .collect();
    println!("Manifests: {}", names.join(", "));
    println!(
        "Ground truth: exact 6-word shingle resemblance r of the gold texts; duplicate when r ≥ {}, \
         non-duplicate when r < {}, dropped otherwise or when a gold text has fewer than {} words.",
        dedup::TRUTH_DUPLICATE,
        dedup::TRUTH_DISTINCT,
        dedup::TRUTH_MIN_WORDS
    );
    println!(
        "Pages judged only when their gold text has at least {} words and at least {:.0}% of its shingles \
         occur in the page's full text; {} page(s) failed; gold not on the page ({}): {}.",
        dedup::TRUTH_MIN_WORDS,
        dedup::TRUTH_MIN_COVERAGE * 100.0,
        failed,
        off_page.len(),
        off_page.join(", ")
    );
    println!(
        "Candidates: {} pairs; judged {}; dropped {ambiguous} (ambiguous resemblance, or a page not judged).\n",
        cand.len(),
        pairs.len()
    );
    println!("| pairs | count | full text | SiteLevel | PageLevel |");
    println!("|---|---:|---:|---:|---:|");
    let row = |label: &str, c: &Cell| {
        println!(
            "| {label} | {} | {} | {} | {} |",
            c.pairs, c.right[0], c.right[1], c.right[2]
        );
    };
    row("**duplicates** (found)", &total[1]);
    row("**non-duplicates** (not flagged)", &total[0]);
    println!("\nBy kind of pair:\n");
    println!("| kind | truth | count | full text | SiteLevel | PageLevel |");
    println!("|---|---|---:|---:|---:|---:|");
    for ((k, dup), c) in &table {
        println!(
            "| {} | {} | {} | {} | {} | {} |",
            k.name(),
            if *dup { "duplicate" } else { "non-duplicate" },
            c.pairs,
            c.right[0],
            c.right[1],
            c.right[2]
        );
    }
    println!("\nDuplicate pairs (matching hashes of 8 per mode):\n");
    println!("| a | b | kind | gold r | full | SiteLevel | PageLevel |");
    println!("|---|---|---|---:|---:|---:|---:|");
    for r in &dup_rows {
        println!("{r}");
    }
    for (x, mode) in MODES.iter().enumerate() {
        let fpx = &false_pos[x];
        println!(
            "\nNon-duplicates flagged by {mode:?} ({}){}",
            fpx.len(),
            if fpx.is_empty() { "" } else { ":" }
        );
        for s in fpx.iter().take(15) {
            println!("- {s}");
        }
        if fpx.len() > 15 {
            println!("- … and {} more", fpx.len() - 15);
        }
    }
    Ok(failed)
}
