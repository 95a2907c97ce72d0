//! Training the PageLevel classifier from SiteLevel labels (the paper's section 5.1).
//!
//! For every site with enough pages in the given manifests, SiteLevel(θ) labels each node
//! template or not; each scored node (visible, in `<body>`, estimated area ≥ 2,000 px²) gives
//! one sample: its transformed feature row and its label. Sites are split for validation by a
//! hash of their name, so a site is never in both training and validation. The area-bucket
//! edges are the quartiles of the training samples' areas. Everything is deterministic.

use std::path::PathBuf;

use crate::classify::{auc, bucket_of, fit_bucket, sigmoid, transform, BucketModel, Model};
use crate::features::{self, f, FeatureOptions, COUNT, NAMES};
use crate::manifest::Manifest;
use crate::segment::DEFAULT_MIN_AREA;
use crate::site::{group_manifest, run_site, Outcome, RunOptions};
use crate::{Error, Result};

/// Most samples kept from one page (every k-th scored node), so large pages do not dominate.
pub const MAX_SAMPLES_PER_PAGE: usize = 400;
/// L2 regularisation strength given to smartcore.
pub const ALPHA: f64 = 1.0;
/// One site in this many goes to validation.
pub const VALIDATION_EVERY: u64 = 4;

/// Settings of a training run.
#[derive(Debug, Clone)]
pub struct TrainOptions {
    /// Manifests whose sites provide labelled pages.
    pub manifests: Vec<PathBuf>,
    /// SiteLevel and limits settings.
    pub run: RunOptions,
}

/// One labelled sample.
#[derive(Debug, Clone)]
pub struct Sample {
    /// Site key (for the split).
    pub site: String,
    /// Estimated area in px².
    pub area: f64,
    /// Transformed feature row.
    pub x: Vec<f64>,
    /// SiteLevel label: true = template.
    pub template: bool,
}

/// Per-bucket validation figures.
#[derive(Debug, Clone)]
pub struct BucketReport {
    /// Bucket index.
    pub bucket: usize,
    /// Area range `[lo, hi)` in px².
    pub range: (f64, f64),
    /// Training samples before balancing, and their template share.
    pub train: (usize, f64),
    /// Validation samples and their template share.
    pub val: (usize, f64),
    /// Validation accuracy at 0.5.
    pub accuracy: f64,
    /// Validation ROC AUC.
    pub auc: f64,
}

/// Collects samples from every site of the manifests that SiteLevel can label.
///
/// # Errors
/// A manifest that cannot be read. Pages that fail and sites with too few pages are skipped
/// (reported on stderr).
pub fn collect(opts: &TrainOptions) -> Result<Vec<Sample>> {
    let mut samples = Vec::new();
    let fopts = FeatureOptions::default();
    for path in &opts.manifests {
        let m = Manifest::load(path, None)?;
        for group in group_manifest(&m) {
            if group.pages.len() < opts.run.sitelevel.min_pages {
                continue;
            }
            let site = group.name.clone();
            run_site(
                &group,
                &opts.run,
                |_, page, labels| page_samples(page, labels, &fopts),
                |p, outcome| match outcome {
                    Outcome::Labelled(rows) => {
                        samples.extend(rows.into_iter().map(|(area, x, template)| Sample {
                            site: site.clone(),
                            area,
                            x,
                            template,
                        }))
                    }
                    Outcome::Failed(e) => eprintln!("train: {}: {e}", p.path),
                    Outcome::Skipped(_) => {}
                },
            );
        }
    }
    Ok(samples)
}

/// The samples of one labelled page: (area, transformed row, label) per scored node.
fn page_samples(
    page: &crate::Page,
    labels: &[bool],
    fopts: &FeatureOptions,
) -> Vec<(f64, Vec<f64>, bool)> {
    let dom = &page.dom;
    let pf = features::compute(dom, page.url.as_deref(), fopts);
    let Some(body) = dom.body() else {
        return Vec::new();
    };
    let end = dom.node(body).end as usize;
    let nodes: Vec<usize> = (body..end)
        .filter(|&i| {
            dom.node(i).kind == crate::dom::Kind::Element
                && pf.visible[i]
                && pf.layout.rects[i].area() >= DEFAULT_MIN_AREA
        })
        .collect();
    // Training label: more than half of the node's visible words are in template-labelled
    // text. SiteLevel's own element labels use an 85%-of-bytes rule that marks <html> and
    // <body> template on pages heavy with navigation and scripts; as targets those would teach
    // the classifier that the smoothing root is template, and monotone smoothing would then
    // take every node with it.
    let n = dom.len();
    let mut words = vec![(0u32, 0u32); n];
    for i in (1..n).rev() {
        if dom.node(i).kind == crate::dom::Kind::Text && pf.visible[i] {
            let w = crate::text::count_words(dom.text(i)) as u32;
            words[i] = (w, if labels[i] { w } else { 0 });
        }
        let p = dom.node(i).parent as usize;
        words[p].0 += words[i].0;
        words[p].1 += words[i].1;
    }
    let label = |i: usize| {
        let (w, t) = words[i];
        if w == 0 {
            labels[i]
        } else {
            2 * t > w
        }
    };
    let step = nodes.len().div_ceil(MAX_SAMPLES_PER_PAGE).max(1);
    nodes
        .iter()
        .step_by(step)
        .map(|&i| {
            let row = pf.matrix.row(i);
            let x = (0..COUNT).map(|k| transform(k, row[k])).collect();
            (row[f::AREA] as f64, x, label(i))
        })
        .collect()
}

/// Whether a site goes to validation (a stable hash of its name).
pub fn is_validation(site: &str) -> bool {
    let h = site
        .bytes()
        .fold(0xcbf2_9ce4_8422_2325u64, |h, b| (h ^ b as u64).wrapping_mul(0x0100_0000_01b3));
    h % VALIDATION_EVERY == 0
}

/// Quartile edges of the samples' areas.
pub fn quartile_edges(samples: &[Sample]) -> Vec<f64> {
    let mut a: Vec<f64> = samples.iter().map(|s| s.area).collect();
    a.sort_by(f64::total_cmp);
    if a.is_empty() {
        return vec![1e4, 1e5, 1e6];
    }
    (1..4).map(|q| a[(a.len() * q / 4).min(a.len() - 1)]).collect()
}

/// Fits one regression per bucket on `train` with the given edges.
fn fit_all(train: &[&Sample], edges: &[f64]) -> Result<Vec<BucketModel>> {
    (0..=edges.len())
        .map(|b| {
            let rows: Vec<&&Sample> =
                train.iter().filter(|s| bucket_of(edges, s.area) == b).collect();
            let x: Vec<Vec<f64>> = rows.iter().map(|s| s.x.clone()).collect();
            let y: Vec<bool> = rows.iter().map(|s| s.template).collect();
            fit_bucket(&x, &y, ALPHA, 0x5eed + b as u64)
                .map_err(|e| Error::Model(format!("bucket {b}: {e}")))
        })
        .collect()
}

fn predict(b: &BucketModel, x: &[f64]) -> f64 {
    let z: f64 = (0..COUNT).map(|k| b.coef[k] * (x[k] - b.mean[k]) / b.std[k]).sum();
    sigmoid(z + b.intercept)
}

/// Trains on the training sites, validates on the held-out ones, then refits on all sites.
/// Returns the final model (with the validation figures recorded per bucket) and the report.
///
/// # Errors
/// [`Error::Model`] when there are no samples or a bucket lacks a class.
pub fn train(samples: &[Sample], provenance: String) -> Result<(Model, Vec<BucketReport>)> {
    if samples.is_empty() {
        return Err(Error::Model("no labelled samples".into()));
    }
    let (val, tr): (Vec<&Sample>, Vec<&Sample>) =
        samples.iter().partition(|s| is_validation(&s.site));
    let tr_owned: Vec<Sample> = tr.iter().map(|s| (*s).clone()).collect();
    let edges = quartile_edges(&tr_owned);
    let split_models = fit_all(&tr, &edges)?;
    let mut report = Vec::new();
    for (b, m) in split_models.iter().enumerate() {
        let in_b = |s: &&&Sample| bucket_of(&edges, s.area) == b;
        let vs: Vec<&&Sample> = val.iter().filter(in_b).collect();
        let ts: Vec<&&Sample> = tr.iter().filter(in_b).collect();
        let scores: Vec<f64> = vs.iter().map(|s| predict(m, &s.x)).collect();
        let ys: Vec<bool> = vs.iter().map(|s| s.template).collect();
        let correct = scores.iter().zip(&ys).filter(|(p, y)| (**p >= 0.5) == **y).count();
        let share = |v: &[&&Sample]| {
            v.iter().filter(|s| s.template).count() as f64 / v.len().max(1) as f64
        };
        report.push(BucketReport {
            bucket: b,
            range: (
                if b == 0 { 0.0 } else { edges[b - 1] },
                edges.get(b).copied().unwrap_or(f64::INFINITY),
            ),
            train: (ts.len(), share(&ts)),
            val: (vs.len(), share(&vs)),
            accuracy: correct as f64 / vs.len().max(1) as f64,
            auc: auc(&scores, &ys),
        });
    }
    let all: Vec<&Sample> = samples.iter().collect();
    let mut buckets = fit_all(&all, &edges)?;
    for (b, r) in buckets.iter_mut().zip(&report) {
        b.val_accuracy = Some(round4(r.accuracy));
        b.val_auc = Some(round4(r.auc));
    }
    let model = Model {
        format: crate::classify::FORMAT.into(),
        version: crate::classify::VERSION,
        features: NAMES.iter().map(|s| s.to_string()).collect(),
        bucket_edges: edges,
        buckets,
        provenance,
    };
    Ok((model, report))
}

fn round4(v: f64) -> f64 {
    (v * 1e4).round() / 1e4
}
