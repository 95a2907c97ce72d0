//! How well each text mode finds near-duplicates (the paper's Table 2): candidate pairs of
//! manifest pages, labelled duplicate or not by the resemblance of their gold texts, and per
//! mode how many each mode's sketches get right.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::{Path, PathBuf};

use rayon::prelude::*;

use crate::dedup::texts::{Inputs, Mode, Texts, MODES};
use crate::dedup::{self as dd, Sketch, Truth};
use crate::error::chain;
use crate::{Error, Result};

/// Why a pair is a candidate, in the order a pair is classed when several apply.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Kind {
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
    /// The kind's name in the tables.
    pub fn name(self) -> &'static str {
        match self {
            Kind::SameSite => "same site",
            Kind::SameQuery => "same query (chaos)",
            Kind::GoldOverlap => "other, gold overlap ≥ 0.1",
            Kind::Random => "random cross-site sample",
        }
    }
}

/// Seed of the random cross-site sample (the paper's year).
pub const SAMPLE_SEED: u64 = 2007;

/// Judged pairs of one class and how many each mode (in [`MODES`] order) got right.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Cell {
    /// Pairs.
    pub pairs: usize,
    /// Per mode, pairs it classes as the gold texts do.
    pub right: [usize; 3],
}

/// A judged pair: its pages' ids, kind, gold resemblance, and its sketches' matching hashes
/// per mode (in [`MODES`] order).
#[derive(Debug, Clone, PartialEq)]
pub struct JudgedPair {
    /// The first page's id.
    pub a: String,
    /// The second page's id.
    pub b: String,
    /// Why it is a candidate.
    pub kind: Kind,
    /// The resemblance of the gold texts.
    pub gold_r: f64,
    /// Matching sketch hashes (of [`dd::SKETCH_SIZE`]) per mode.
    pub matches: [usize; 3],
}

/// The measurement of the three modes.
#[derive(Debug, Clone, Default)]
pub struct Evaluation {
    /// Pages whose text failed in some mode, with the messages (in input order).
    pub errors: Vec<(usize, Vec<String>)>,
    /// Notes on sites SiteLevel could not label in full.
    pub notes: Vec<String>,
    /// Ids of pages with gold text whose full text holds too little of it.
    pub off_page: Vec<String>,
    /// Candidate pairs.
    pub candidates: usize,
    /// Pairs dropped: ambiguous resemblance, or a page not judged.
    pub ambiguous: usize,
    /// Totals: [non-duplicates, duplicates].
    pub total: [Cell; 2],
    /// Per kind and truth (duplicate or not), in that order.
    pub by_kind: BTreeMap<(Kind, bool), Cell>,
    /// The duplicate pairs.
    pub duplicates: Vec<JudgedPair>,
    /// Per mode, the non-duplicates it flagged.
    pub false_positives: [Vec<JudgedPair>; 3],
}

impl Evaluation {
    /// Pairs judged (duplicates and non-duplicates).
    pub fn judged(&self) -> usize {
        self.total[0].pairs + self.total[1].pairs
    }

    /// `path: message` per error of [`Evaluation::errors`], in order, the message without a
    /// leading path (`inputs` are the pages evaluated).
    pub fn error_lines(&self, inputs: &Inputs) -> Vec<String> {
        let mut out = Vec::new();
        for (i, errors) in &self.errors {
            let path = &inputs.pages[*i].path;
            for e in errors {
                out.push(format!("{path}: {}", crate::error::strip_path(path, e)));
            }
        }
        out
    }
}

/// The `query` field of each manifest line (for chaos), in entry order.
fn queries(path: &Path) -> Result<Vec<Option<String>>> {
    let text = std::fs::read_to_string(path).map_err(|source| Error::Io {
        path: path.to_owned(),
        source,
    })?;
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let v: serde_json::Value =
                serde_json::from_str(l).map_err(|e| Error::Invalid(e.to_string()))?;
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

/// Pairs of `idx` in order, each added as `kind`.
fn all_pairs(idx: &[usize], kind: Kind, add: &mut impl FnMut(usize, usize, Kind)) {
    for (x, &a) in idx.iter().enumerate() {
        for &b in &idx[x + 1..] {
            add(a, b, kind);
        }
    }
}

/// Measures the three modes on the manifests' pages (`inputs` loaded from `manifests`):
/// candidate pairs are same-site pairs, same-query pairs, pairs whose gold texts overlap (an
/// index from shingle to page) and `sample` seeded random cross-site pairs; a pair is judged
/// when both gold texts are long enough and mostly on their pages. `progress` is told of each
/// page done, twice per page (all texts, then SiteLevel's).
///
/// # Errors
/// When a manifest cannot be read again, or its lines and entries disagree.
///
/// # Complexity
/// One parse and analysis per page, SiteLevel per site, and for the gold overlap the pairs
/// sharing a shingle: O(Σ pages per shingle²).
pub fn evaluate(
    ctx: &Texts,
    inputs: &Inputs,
    manifests: &[PathBuf],
    sample: usize,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<Evaluation> {
    let n = inputs.pages.len();
    let sites = inputs
        .sites
        .as_ref()
        .ok_or_else(|| Error::Invalid("dedup evaluation needs manifests".into()))?;
    let mut site_of = vec![0usize; n];
    for (s, (_, idx)) in sites.iter().enumerate() {
        for &i in idx {
            site_of[i] = s;
        }
    }
    let mut query: Vec<Option<String>> = Vec::with_capacity(n);
    for (k, m) in manifests.iter().enumerate() {
        let q = queries(m)?;
        query.extend(q.into_iter().map(|q| q.map(|q| format!("{k}:{q}"))));
    }
    if query.len() != n {
        return Err(Error::Invalid("manifest lines and entries disagree".into()));
    }

    // Gold texts → exact shingle sets and word counts.
    let gold: Vec<Option<(Vec<u64>, usize)>> = inputs
        .pages
        .par_iter()
        .map(|p| {
            let text = std::fs::read_to_string(p.gold.as_ref()?).ok()?;
            Some((dd::shingles(&text), crate::text::count_words(&text)))
        })
        .collect();
    // Sketches of every page in the full and PageLevel modes, and how much of its gold its
    // full text holds.
    let fp: Vec<std::result::Result<(Sketch, Sketch, f64), String>> = inputs
        .pages
        .par_iter()
        .zip(&gold)
        .map(|(p, g)| {
            // Evaluation reads manifests only (no WARC records).
            let r = ctx
                .page(p, None, true)
                .map(|(f, m)| {
                    let cov = g
                        .as_ref()
                        .map_or(0.0, |(g, _)| dd::coverage(g, &dd::shingles(&f)));
                    (dd::sketch(&f), dd::sketch(m.as_deref().unwrap_or("")), cov)
                })
                .map_err(|e| chain(&e));
            progress(1);
            r
        })
        .collect();
    let site_texts = ctx.all(inputs, Mode::Sitelevel, progress)?;
    let st: Vec<std::result::Result<Sketch, String>> = site_texts
        .texts
        .par_iter()
        .map(|t| t.as_ref().map(|t| dd::sketch(t)).map_err(Clone::clone))
        .collect();
    let mut out = Evaluation {
        notes: site_texts.notes,
        ..Evaluation::default()
    };
    for i in 0..n {
        let errors: Vec<String> = [fp[i].as_ref().err(), st[i].as_ref().err()]
            .into_iter()
            .flatten()
            .cloned()
            .collect();
        if !errors.is_empty() {
            out.errors.push((i, errors));
        }
    }
    out.off_page = (0..n)
        .filter(|&i| {
            gold[i].is_some() && fp[i].as_ref().is_ok_and(|s| s.2 < dd::TRUTH_MIN_COVERAGE)
        })
        .map(|i| inputs.pages[i].id.clone())
        .collect();
    let judged = |i: usize| {
        let ok = fp[i].as_ref().is_ok_and(|s| s.2 >= dd::TRUTH_MIN_COVERAGE) && st[i].is_ok();
        gold[i]
            .as_ref()
            .filter(|(_, w)| ok && *w >= dd::TRUTH_MIN_WORDS)
    };

    // Candidate pairs, each with the first kind that applies.
    let mut cand: BTreeMap<(usize, usize), Kind> = BTreeMap::new();
    let mut add = |a: usize, b: usize, k: Kind| {
        let key = (a.min(b), a.max(b));
        let e = cand.entry(key).or_insert(k);
        *e = (*e).min(k);
    };
    for (_, idx) in sites {
        all_pairs(idx, Kind::SameSite, &mut add);
    }
    let mut by_query: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
    for (i, q) in query.iter().enumerate() {
        if let Some(q) = q {
            by_query.entry(q).or_default().push(i);
        }
    }
    for idx in by_query.values() {
        all_pairs(idx, Kind::SameQuery, &mut add);
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
            c as f64 / (la + lb - c) as f64 >= dd::TRUTH_DISTINCT
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
    while drawn.len() < sample && tries < sample * 20 && n > 1 {
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
    out.candidates = cand.len();

    // Ground truth.
    let mut pairs: Vec<((usize, usize), Kind, Truth, f64)> = Vec::new();
    for (&(a, b), &k) in &cand {
        let (Some((sa, _)), Some((sb, _))) = (judged(a), judged(b)) else {
            out.ambiguous += 1;
            continue;
        };
        let r = dd::resemblance(sa, sb);
        match dd::truth_of(r) {
            Truth::Ambiguous => out.ambiguous += 1,
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

    // Tally: per kind, per truth, per mode (right answers).
    for &((a, b), kind, t, gold_r) in &pairs {
        let dup = t == Truth::Duplicate;
        let m = MODES.map(|mode| {
            let (sa, sb) = (sketch_of(mode, a), sketch_of(mode, b));
            dd::matches(
                sa.expect("judged pages have sketches"),
                sb.expect("judged pages have sketches"),
            )
        });
        let pair = JudgedPair {
            a: inputs.pages[a].id.clone(),
            b: inputs.pages[b].id.clone(),
            kind,
            gold_r,
            matches: m,
        };
        let cell = out.by_kind.entry((kind, dup)).or_default();
        cell.pairs += 1;
        out.total[usize::from(dup)].pairs += 1;
        for (x, &mx) in m.iter().enumerate() {
            let said = mx >= dd::MIN_MATCHES;
            if said == dup {
                cell.right[x] += 1;
                out.total[usize::from(dup)].right[x] += 1;
            } else if !dup {
                out.false_positives[x].push(pair.clone());
            }
        }
        if dup {
            out.duplicates.push(pair);
        }
    }
    Ok(out)
}
