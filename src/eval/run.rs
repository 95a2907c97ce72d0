//! `pagelevel eval` over a manifest: each page with gold text scored in parallel (word-F1 of
//! its main text; with `template`, the paper's template counts against the gold text and
//! SiteLevel's labels; on L3S-GN1's annotated copies, template counts and the segments'
//! ARI), and the tables made from the scores.

use std::collections::{BTreeMap, HashMap};
use std::path::Path;

use rayon::prelude::*;
use serde::Serialize;

use crate::error::chain;
use crate::eval::metrics::{word_prf, Prf};
use crate::eval::{
    evaluate_annotated, predicted_template, template_counts, truth_from_gold, AnnotatedScores,
    BothVariants, Confusion, TemplateCounts,
};
use crate::input::manifest::{Entry, Manifest};
use crate::model::Model;
use crate::pipeline::{analyze, Analysis, Options};
use crate::{Error, Limits, Page, Result};

/// Template confusion per variant: [Basic, Smooth].
pub type PerVariant = [TemplateCounts; 2];

/// One page's result.
#[derive(Debug, Clone)]
pub struct Scored {
    /// The manifest entry.
    pub entry: Entry,
    /// Word P/R/F1 of the main text against the gold text (0 when the page failed).
    pub prf: Prf,
    /// Why the page failed (the error and its causes).
    pub error: Option<String>,
    /// Template counts with the truth from the gold text.
    pub gold: Option<PerVariant>,
    /// Template counts with the truth from SiteLevel labels.
    pub sitelevel: Option<PerVariant>,
    /// Scores on the annotated copy.
    pub annotated: Option<AnnotatedScores>,
}

/// What to score beside word-F1.
#[derive(Debug, Clone, Copy)]
pub struct Extras<'a> {
    /// Template counts of Basic and Smooth against the gold text and `site_labels`.
    pub template: bool,
    /// SiteLevel labels per node by manifest `html` path ([`crate::site`] makes them).
    pub site_labels: &'a HashMap<String, Vec<bool>>,
    /// Annotated copies by entry id, relative to the manifest's root.
    pub annotated: &'a HashMap<String, String>,
}

/// The `annotated` field of each manifest line, by id (the manifest's `Entry` does not read it).
///
/// # Errors
/// When the manifest cannot be read or a line is not JSON.
pub fn annotated_paths(path: &Path) -> Result<HashMap<String, String>> {
    let text = std::fs::read_to_string(path).map_err(|source| Error::Io {
        path: path.to_owned(),
        source,
    })?;
    let mut out = HashMap::new();
    for line in text.lines() {
        if line.trim().is_empty() {
            continue;
        }
        let v: serde_json::Value =
            serde_json::from_str(line).map_err(|e| Error::Invalid(e.to_string()))?;
        if let (Some(id), Some(a)) = (v["id"].as_str(), v["annotated"].as_str()) {
            out.insert(id.to_owned(), a.to_owned());
        }
    }
    Ok(out)
}

/// Scores every entry of `m` with gold text, in manifest order; `progress` is told of each page
/// done. A page that fails scores 0 with its error.
///
/// # Complexity
/// Per page one parse and analysis (two segmentations with `template`), and one more of its
/// annotated copy when it has one.
pub fn score_manifest(
    m: &Manifest,
    model: &Model,
    opts: &Options,
    limits: &Limits,
    extras: Extras,
    progress: &(dyn Fn(u64) + Sync),
) -> Vec<Scored> {
    let with_gold: Vec<&Entry> = m.entries.iter().filter(|e| e.gold.is_some()).collect();
    with_gold
        .par_iter()
        .map(|e| {
            let r = score_page(m, e, model, opts, limits, extras);
            progress(1);
            let mut s = Scored {
                entry: (*e).clone(),
                prf: Prf::default(),
                error: None,
                gold: None,
                sitelevel: None,
                annotated: None,
            };
            match r {
                Ok((prf, x)) => {
                    s.prf = prf;
                    s.gold = x.gold;
                    s.sitelevel = x.sitelevel;
                    s.annotated = x.annotated;
                }
                Err(err) => s.error = Some(err),
            }
            s
        })
        .collect()
}

/// What one page yields beside word-F1.
#[derive(Default)]
struct Extra {
    gold: Option<PerVariant>,
    sitelevel: Option<PerVariant>,
    annotated: Option<AnnotatedScores>,
}

/// One page's scores, or its error message.
fn score_page(
    m: &Manifest,
    e: &Entry,
    model: &Model,
    opts: &Options,
    limits: &Limits,
    extras: Extras,
) -> std::result::Result<(Prf, Extra), String> {
    let gold = m.gold_path(e).map(std::fs::read_to_string).transpose();
    let gold = gold.map_err(|e| chain(&e))?.unwrap_or_default();
    let load = |path: &Path| {
        Page::from_path(
            path,
            &crate::PageOptions {
                url: e.url.as_deref(),
                limits: *limits,
                parser: opts.parser,
                ..Default::default()
            },
        )
        .map_err(|e| chain(&e))
    };
    let page = load(&m.html_path(e))?;
    let mut extra = Extra::default();
    let analysis = if extras.template {
        let both = BothVariants::compute(&page, model, opts);
        let dom = &page.dom;
        let vis = &both.features.visible;
        let preds = [
            predicted_template(&both.basic),
            predicted_template(&both.smooth),
        ];
        let counts = |truth: &[bool]| {
            preds
                .each_ref()
                .map(|p| template_counts(dom, vis, truth, p))
        };
        extra.gold = Some(counts(&truth_from_gold(dom, vis, &gold)));
        if let Some(l) = extras.site_labels.get(&e.html) {
            // Same bytes, same parser: the node indices agree.
            if l.len() != dom.len() {
                return Err("SiteLevel labels do not fit the page".into());
            }
            extra.sitelevel = Some(counts(l));
        }
        let seg = both.get(opts.segment.variant).clone();
        Analysis::new(page, both.features, seg, opts)
    } else {
        analyze(page, model, opts)
    };
    if let Some(a) = extras.annotated.get(&e.id) {
        let apage = load(&m.root.join(a))?;
        extra.annotated = Some(evaluate_annotated(&apage, Some(&gold), model, opts));
    }
    Ok((word_prf(&analysis.main_text(), &gold), extra))
}

/// A row of the word-F1 table: all pages, or those of one page type.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct WordRow {
    /// `all` or `type: <page type>`.
    pub group: String,
    /// Pages.
    pub pages: usize,
    /// Mean precision.
    pub precision: f64,
    /// Mean recall.
    pub recall: f64,
    /// Mean F1.
    pub f1: f64,
    /// Median F1 (the upper one of an even count).
    pub median_f1: f64,
}

/// The word-F1 table, by group name. O(p log p).
pub fn word_rows(scored: &[Scored]) -> Vec<WordRow> {
    let mut groups: BTreeMap<String, Vec<Prf>> = BTreeMap::new();
    for s in scored {
        groups.entry("all".into()).or_default().push(s.prf);
        if let Some(t) = &s.entry.page_type {
            groups.entry(format!("type: {t}")).or_default().push(s.prf);
        }
    }
    groups
        .into_iter()
        .map(|(group, v)| {
            let mean = |f: fn(&Prf) -> f64| v.iter().map(f).sum::<f64>() / v.len().max(1) as f64;
            let mut f1: Vec<f64> = v.iter().map(|p| p.f1).collect();
            f1.sort_by(f64::total_cmp);
            WordRow {
                pages: v.len(),
                precision: mean(|p| p.precision),
                recall: mean(|p| p.recall),
                f1: mean(|p| p.f1),
                median_f1: if f1.is_empty() { 0.0 } else { f1[f1.len() / 2] },
                group,
            }
        })
        .collect()
}

/// A row of the template table.
#[derive(Debug, Clone, PartialEq)]
pub struct TemplateRow {
    /// The truth: `gold`, `sitelevel` or `annotation`.
    pub truth: &'static str,
    /// `Basic` or `Smooth`.
    pub variant: &'static str,
    /// `text words`, `anchor words` or `links`.
    pub items: &'static str,
    /// Pages with this truth.
    pub pages: usize,
    /// Share of the items that are template.
    pub share: f64,
    /// Means over pages of per-page values.
    pub mean: Prf,
    /// From counts summed over pages.
    pub micro: Prf,
}

/// Picks one kind of item out of a page's counts.
type Item = fn(&TemplateCounts) -> Confusion;

/// The template table: per truth with pages, per variant, per kind of item. O(pages).
pub fn template_rows(scored: &[Scored]) -> Vec<TemplateRow> {
    const VARIANTS: [(&str, usize); 2] = [("Basic", 0), ("Smooth", 1)];
    const ITEMS: [(&str, Item); 3] = [
        ("text words", |t| t.text),
        ("anchor words", |t| t.anchor),
        ("links", |t| t.links),
    ];
    type Pick = fn(&Scored) -> Option<PerVariant>;
    let truths: [(&str, Pick); 3] = [
        ("gold", |s| s.gold),
        ("sitelevel", |s| s.sitelevel),
        ("annotation", |s| s.annotated.map(|a| a.template)),
    ];
    let mut out = Vec::new();
    for (truth, pick) in truths {
        let pages: Vec<PerVariant> = scored.iter().filter_map(pick).collect();
        if pages.is_empty() {
            continue;
        }
        for (variant, v) in VARIANTS {
            for (items, item) in ITEMS {
                let per: Vec<Confusion> = pages.iter().map(|p| item(&p[v])).collect();
                let mut sum = Confusion::default();
                per.iter().for_each(|c| sum += *c);
                let prfs: Vec<Prf> = per.iter().map(Confusion::prf).collect();
                let mean = |f: fn(&Prf) -> f64| prfs.iter().map(f).sum::<f64>() / prfs.len() as f64;
                out.push(TemplateRow {
                    truth,
                    variant,
                    items,
                    pages: pages.len(),
                    share: (sum.tp + sum.fn_) as f64 / sum.total().max(1) as f64,
                    mean: Prf {
                        precision: mean(|p| p.precision),
                        recall: mean(|p| p.recall),
                        f1: mean(|p| p.f1),
                    },
                    micro: sum.prf(),
                });
            }
        }
    }
    out
}

/// The gold-alignment rule checked against the annotation: annotated pages and their summed
/// word confusion (template positive); `None` without annotated pages.
pub fn gold_rule(scored: &[Scored]) -> Option<(usize, Confusion)> {
    let mut rule = Confusion::default();
    let mut n = 0;
    for s in scored {
        if let Some(c) = s.annotated.and_then(|a| a.gold_rule) {
            rule += c;
            n += 1;
        }
    }
    (n > 0).then_some((n, rule))
}

/// A row of the ARI table: one segmentation of the annotated pages.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AriRow {
    /// `Basic`, `Basic+Merge`, `Smooth` or `Smooth+Merge`.
    pub name: &'static str,
    /// Annotated pages.
    pub pages: usize,
    /// Mean ARI.
    pub mean: f64,
    /// Median ARI (the upper one of an even count).
    pub median: f64,
    /// Mean segments per page.
    pub clusters: f64,
}

/// The ARI table over the annotated pages. O(p log p).
pub fn ari_rows(scored: &[Scored]) -> Vec<AriRow> {
    let pages: Vec<AnnotatedScores> = scored.iter().filter_map(|s| s.annotated).collect();
    type Row = (&'static str, fn(&AnnotatedScores) -> f64, usize);
    let rows: [Row; 4] = [
        ("Basic", |a| a.basic, 0),
        ("Basic+Merge", |a| a.basic_merge, 1),
        ("Smooth", |a| a.smooth, 2),
        ("Smooth+Merge", |a| a.smooth_merge, 3),
    ];
    rows.into_iter()
        .map(|(name, f, k)| {
            let mut v: Vec<f64> = pages.iter().map(f).collect();
            v.sort_by(f64::total_cmp);
            let n = v.len().max(1) as f64;
            AriRow {
                name,
                pages: v.len(),
                mean: v.iter().sum::<f64>() / n,
                median: if v.is_empty() { 0.0 } else { v[v.len() / 2] },
                clusters: pages.iter().map(|a| a.clusters[k] as f64).sum::<f64>() / n,
            }
        })
        .collect()
}

/// Template F1 per variant: [text words, anchor words, links].
#[derive(Debug, Clone, Serialize)]
pub struct VariantF1 {
    /// Basic's.
    pub basic: [f64; 3],
    /// Smooth's.
    pub smooth: [f64; 3],
}

impl VariantF1 {
    fn of(t: &PerVariant) -> VariantF1 {
        let row = |c: &TemplateCounts| [c.text.prf().f1, c.anchor.prf().f1, c.links.prf().f1];
        VariantF1 {
            basic: row(&t[0]),
            smooth: row(&t[1]),
        }
    }
}

/// The segments' ARI on an annotated page.
#[derive(Debug, Clone, Serialize)]
pub struct Ari {
    /// Basic.
    pub basic: f64,
    /// Basic+Merge.
    pub basic_merge: f64,
    /// Smooth.
    pub smooth: f64,
    /// Smooth+Merge.
    pub smooth_merge: f64,
}

/// One page's line of `eval --pages`.
#[derive(Debug, Clone, Serialize)]
pub struct PageLine {
    /// The manifest id.
    pub id: String,
    /// The page's path in the manifest.
    pub html: String,
    /// The page type.
    #[serde(rename = "type")]
    pub page_type: Option<String>,
    /// Word precision.
    pub precision: f64,
    /// Word recall.
    pub recall: f64,
    /// Word-F1.
    pub f1: f64,
    /// Template F1 against the gold text.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub template_f1_gold: Option<VariantF1>,
    /// Template F1 against SiteLevel's labels.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub template_f1_sitelevel: Option<VariantF1>,
    /// Template F1 against the annotation.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub template_f1_annotation: Option<VariantF1>,
    /// The segments' ARI against the annotation.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ari: Option<Ari>,
    /// Why the page failed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

impl PageLine {
    /// The line of a scored page.
    pub fn of(s: &Scored) -> PageLine {
        PageLine {
            id: s.entry.id.clone(),
            html: s.entry.html.clone(),
            page_type: s.entry.page_type.clone(),
            precision: s.prf.precision,
            recall: s.prf.recall,
            f1: s.prf.f1,
            template_f1_gold: s.gold.as_ref().map(VariantF1::of),
            template_f1_sitelevel: s.sitelevel.as_ref().map(VariantF1::of),
            template_f1_annotation: s.annotated.as_ref().map(|a| VariantF1::of(&a.template)),
            ari: s.annotated.as_ref().map(|a| Ari {
                basic: a.basic,
                basic_merge: a.basic_merge,
                smooth: a.smooth,
                smooth_merge: a.smooth_merge,
            }),
            error: s.error.clone(),
        }
    }
}
