//! `pagelevel eval`: WCXB word-F1 of the extracted text against a manifest's gold texts; with
//! `--template`, the paper's template F1 for text, anchor text and links; with `--ari`, the
//! adjusted Rand index of the segmentation against L3S-GN1's annotated blocks.

use crate::pipeline_args::ManifestArgs;
use std::collections::{BTreeMap, HashMap};
use std::path::PathBuf;

use pagelevel::eval::metrics::{word_prf, Prf};
use pagelevel::eval::{
    evaluate_annotated, predicted_template, template_counts, truth_from_gold, AnnotatedScores,
    BothVariants, Confusion, TemplateCounts,
};
use pagelevel::input::manifest::{Entry, Manifest};
use pagelevel::pipeline::{analyze, Analysis};
use pagelevel::site::{group_manifest, run_site, Outcome, RunOptions};
use pagelevel::{Limits, Page};
use rayon::prelude::*;

use crate::pipeline_args::PipelineArgs;

/// Arguments of `pagelevel eval`.
#[derive(clap::Args)]
#[command(after_help = "\
Tables (markdown on stdout):
  always      WCXB word-F1 of the extracted text (variant from --variant), mean and median.
  --template  template P/R/F1 (positive class: template) over words of text, words of anchor
              text (inside <a href>) and links (<a href> with visible words), for Basic and
              Smooth computed in one run. \"mean\" = mean of per-page values, \"micro\" = from
              counts summed over pages. Truths: \"gold\" = visible text aligned with the gold
              text (block units whose word trigrams mostly occur in it are content);
              \"sitelevel\" = SiteLevel labels of the manifest's sites (sites with too few pages
              are skipped); \"annotation\" = L3S-GN1 x-nc-sel spans (1-3 content), on the
              annotated copies, when entries have an `annotated` field.
  --ari       on entries with an `annotated` field (L3S-GN1): adjusted Rand index of Basic,
              Basic+Merge, Smooth and Smooth+Merge segments against the annotation classes, items = words.
See docs/eval.md for the exact definitions.")]
pub struct Args {
    #[command(flatten)]
    data: ManifestArgs,
    /// Write per-page scores as JSON Lines to this file.
    #[arg(long)]
    pages: Option<PathBuf>,
    /// Also print template P/R/F1 for text, anchor text and links (Basic and Smooth).
    #[arg(long)]
    template: bool,
    /// Also print the adjusted Rand index of the segments on annotated pages (L3S-GN1).
    #[arg(long)]
    ari: bool,
    #[command(flatten)]
    pipeline: PipelineArgs,
}

/// Template confusion per variant: [Basic, Smooth].
type PerVariant = [TemplateCounts; 2];

/// One page's result.
struct Scored {
    entry: Entry,
    prf: Prf,
    error: Option<String>,
    /// Truth from the gold text.
    gold: Option<PerVariant>,
    /// Truth from SiteLevel labels.
    sitelevel: Option<PerVariant>,
    /// Scores on the annotated copy.
    annotated: Option<AnnotatedScores>,
}

/// What one page yields before word-F1 is filed.
#[derive(Default)]
struct Extra {
    gold: Option<PerVariant>,
    sitelevel: Option<PerVariant>,
    annotated: Option<AnnotatedScores>,
}

/// The `annotated` field of each manifest line, by id (the library's `Entry` does not read it).
fn annotated_paths(path: &std::path::Path) -> anyhow::Result<HashMap<String, String>> {
    let mut out = HashMap::new();
    for line in std::fs::read_to_string(path)?.lines() {
        if line.trim().is_empty() {
            continue;
        }
        let v: serde_json::Value = serde_json::from_str(line)?;
        if let (Some(id), Some(a)) = (v["id"].as_str(), v["annotated"].as_str()) {
            out.insert(id.to_owned(), a.to_owned());
        }
    }
    Ok(out)
}

/// SiteLevel labels of every page of every site SiteLevel can label, by manifest `html` path.
fn sitelevel_labels(m: &Manifest, limits: &Limits) -> (HashMap<String, Vec<bool>>, usize) {
    let options = RunOptions {
        limits: *limits,
        ..RunOptions::default()
    };
    let mut labels = HashMap::new();
    let mut skipped = 0;
    for group in group_manifest(m) {
        run_site(
            &group,
            &options,
            |_, _, l| l.to_vec(),
            |p, o| match o {
                Outcome::Labelled(l) => {
                    labels.insert(p.path.clone(), l);
                }
                Outcome::Skipped(_) | Outcome::Failed(_) => skipped += 1,
            },
        );
    }
    (labels, skipped)
}

pub fn run(args: Args) -> anyhow::Result<usize> {
    let m = args.data.load()?;
    let model = args.pipeline.model()?;
    let opts = args.pipeline.options();
    let limits = args.pipeline.limits.limits();
    let annotated = if args.ari || args.template {
        annotated_paths(&args.data.manifest)?
    } else {
        HashMap::new()
    };
    if args.ari && annotated.is_empty() {
        anyhow::bail!(
            "--ari needs entries with an `annotated` field (L3S-GN1); {} has none",
            args.data.manifest.display()
        );
    }
    let (site_labels, site_skipped) = if args.template {
        sitelevel_labels(&m, &limits)
    } else {
        (HashMap::new(), 0)
    };
    let with_gold: Vec<&Entry> = m.entries.iter().filter(|e| e.gold.is_some()).collect();
    let bar = crate::batch::progress(with_gold.len());
    let scored: Vec<Scored> = with_gold
        .par_iter()
        .map(|e| {
            let gold = m.gold_path(e).map(std::fs::read_to_string).transpose();
            let r = (|| -> anyhow::Result<(Prf, Extra)> {
                let gold = gold?.unwrap_or_default();
                let page = Page::from_path(
                    &m.html_path(e),
                    &pagelevel::PageOptions {
                        url: e.url.as_deref(),
                        limits,
                        ..Default::default()
                    },
                )?;
                let mut extra = Extra::default();
                let analysis = if args.template {
                    let both = BothVariants::compute(&page, &model, &opts);
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
                    if let Some(l) = site_labels.get(&e.html) {
                        // Same bytes, same parser: the node indices agree.
                        anyhow::ensure!(
                            l.len() == dom.len(),
                            "SiteLevel labels do not fit the page"
                        );
                        extra.sitelevel = Some(counts(l));
                    }
                    let seg = both.get(opts.segment.variant).clone();
                    Analysis::new(page, both.features, seg, &opts)
                } else {
                    analyze(page, &model, &opts)
                };
                if let Some(a) = annotated.get(&e.id) {
                    let apage = Page::from_path(
                        &m.root.join(a),
                        &pagelevel::PageOptions {
                            url: e.url.as_deref(),
                            limits,
                            ..Default::default()
                        },
                    )?;
                    extra.annotated = Some(evaluate_annotated(&apage, Some(&gold), &model, &opts));
                }
                Ok((word_prf(&analysis.main_text(), &gold), extra))
            })();
            bar.inc(1);
            match r {
                Ok((prf, x)) => Scored {
                    entry: (*e).clone(),
                    prf,
                    error: None,
                    gold: x.gold,
                    sitelevel: x.sitelevel,
                    annotated: x.annotated,
                },
                Err(err) => Scored {
                    entry: (*e).clone(),
                    prf: Prf::default(),
                    error: Some(format!("{err:#}")),
                    gold: None,
                    sitelevel: None,
                    annotated: None,
                },
            }
        })
        .collect();
    bar.finish_and_clear();
    if let Some(p) = &args.pages {
        write_pages(p, &scored)?;
    }
    let failed = scored.iter().filter(|s| s.error.is_some()).count();
    println!(
        "{}: {} pages with gold, {} failed (scored 0); variant {:?}\n",
        args.data.manifest.display(),
        scored.len(),
        failed,
        opts.segment.variant
    );
    word_table(&scored);
    if args.template {
        template_table(&scored, site_labels.is_empty(), site_skipped);
    }
    if args.ari {
        ari_table(&scored);
    }
    Ok(failed)
}

fn word_table(scored: &[Scored]) {
    println!("| group | pages | P mean | R mean | F1 mean | F1 median |");
    println!("|---|---:|---:|---:|---:|---:|");
    let mut groups: BTreeMap<String, Vec<Prf>> = BTreeMap::new();
    for s in scored {
        groups.entry("all".into()).or_default().push(s.prf);
        if let Some(t) = &s.entry.page_type {
            groups.entry(format!("type: {t}")).or_default().push(s.prf);
        }
    }
    for (g, v) in &groups {
        let mean = |f: fn(&Prf) -> f64| v.iter().map(f).sum::<f64>() / v.len().max(1) as f64;
        let mut f1: Vec<f64> = v.iter().map(|p| p.f1).collect();
        f1.sort_by(f64::total_cmp);
        let median = if f1.is_empty() { 0.0 } else { f1[f1.len() / 2] };
        println!(
            "| {g} | {} | {:.3} | {:.3} | {:.3} | {:.3} |",
            v.len(),
            mean(|p| p.precision),
            mean(|p| p.recall),
            mean(|p| p.f1),
            median
        );
    }
}

const VARIANTS: [(&str, usize); 2] = [("Basic", 0), ("Smooth", 1)];
/// Picks one kind of item out of a page's counts.
type Item = fn(&TemplateCounts) -> Confusion;
const ITEMS: [(&str, Item); 3] = [
    ("text words", |t| t.text),
    ("anchor words", |t| t.anchor),
    ("links", |t| t.links),
];

fn template_table(scored: &[Scored], no_sitelevel: bool, site_skipped: usize) {
    println!("\nTemplate P/R/F1 (positive class: template). mean = mean over pages of per-page values; micro = from counts summed over pages.\n");
    println!("| truth | variant | items | pages | template share | P mean | R mean | F1 mean | P micro | R micro | F1 micro |");
    println!("|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|");
    type Pick = fn(&Scored) -> Option<PerVariant>;
    let truths: [(&str, Pick); 3] = [
        ("gold", |s| s.gold),
        ("sitelevel", |s| s.sitelevel),
        ("annotation", |s| s.annotated.map(|a| a.template)),
    ];
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
                let micro = sum.prf();
                let share = (sum.tp + sum.fn_) as f64 / sum.total().max(1) as f64;
                println!(
                    "| {truth} | {variant} | {items} | {} | {share:.3} | {:.3} | {:.3} | {:.3} | {:.3} | {:.3} | {:.3} |",
                    pages.len(),
                    mean(|p| p.precision),
                    mean(|p| p.recall),
                    mean(|p| p.f1),
                    micro.precision,
                    micro.recall,
                    micro.f1
                );
            }
        }
    }
    if no_sitelevel {
        println!("\nsitelevel: no site of this manifest could be labelled ({site_skipped} pages in sites too small or failing).");
    } else if site_skipped > 0 {
        println!(
            "\nsitelevel: {site_skipped} pages not labelled (site too small or page failing)."
        );
    }
    let mut rule = Confusion::default();
    let mut n = 0;
    for s in scored {
        if let Some(c) = s.annotated.and_then(|a| a.gold_rule) {
            rule += c;
            n += 1;
        }
    }
    if n > 0 {
        let p = rule.prf();
        println!(
            "\nGold-alignment rule checked against the annotation on {n} annotated pages (words, template positive): \
             P {:.3}, R {:.3}, F1 {:.3}, accuracy {:.3}.",
            p.precision,
            p.recall,
            p.f1,
            (rule.tp + rule.tn) as f64 / rule.total().max(1) as f64
        );
    }
}

fn ari_table(scored: &[Scored]) {
    let pages: Vec<AnnotatedScores> = scored.iter().filter_map(|s| s.annotated).collect();
    println!("\nAdjusted Rand index of the segments against the annotation classes (x-nc-sel0..5; items = words), {} annotated pages.\n", pages.len());
    println!("| segmentation | pages | ARI mean | ARI median | clusters per page (mean) |");
    println!("|---|---:|---:|---:|---:|");
    type Row = (&'static str, fn(&AnnotatedScores) -> f64, usize);
    let rows: [Row; 4] = [
        ("Basic", |a| a.basic, 0),
        ("Basic+Merge", |a| a.basic_merge, 1),
        ("Smooth", |a| a.smooth, 2),
        ("Smooth+Merge", |a| a.smooth_merge, 3),
    ];
    for (name, f, k) in rows {
        let mut v: Vec<f64> = pages.iter().map(f).collect();
        v.sort_by(f64::total_cmp);
        let n = v.len().max(1) as f64;
        let median = if v.is_empty() { 0.0 } else { v[v.len() / 2] };
        let clusters = pages.iter().map(|a| a.clusters[k] as f64).sum::<f64>() / n;
        println!(
            "| {name} | {} | {:.3} | {median:.3} | {clusters:.1} |",
            v.len(),
            v.iter().sum::<f64>() / n
        );
    }
}

fn write_pages(path: &std::path::Path, scored: &[Scored]) -> anyhow::Result<()> {
    let f1s = |t: &PerVariant| {
        let row = |c: &TemplateCounts| [c.text.prf().f1, c.anchor.prf().f1, c.links.prf().f1];
        serde_json::json!({"basic": row(&t[0]), "smooth": row(&t[1])})
    };
    let mut out = Vec::new();
    for s in scored {
        let mut v = serde_json::json!({
            "id": s.entry.id, "html": s.entry.html, "type": s.entry.page_type,
            "precision": s.prf.precision, "recall": s.prf.recall, "f1": s.prf.f1,
        });
        // Template F1 per truth: [text words, anchor words, links] for Basic and Smooth.
        if let Some(t) = &s.gold {
            v["template_f1_gold"] = f1s(t);
        }
        if let Some(t) = &s.sitelevel {
            v["template_f1_sitelevel"] = f1s(t);
        }
        if let Some(a) = &s.annotated {
            v["template_f1_annotation"] = f1s(&a.template);
            v["ari"] = serde_json::json!({
                "basic": a.basic, "basic_merge": a.basic_merge, "smooth": a.smooth,
                "smooth_merge": a.smooth_merge,
            });
        }
        if let Some(e) = &s.error {
            v["error"] = e.clone().into();
        }
        out.extend(serde_json::to_vec(&v)?);
        out.push(b'\n');
    }
    std::fs::write(path, out)?;
    Ok(())
}
