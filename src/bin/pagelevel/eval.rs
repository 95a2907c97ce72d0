//! `pagelevel eval`: WCXB word-F1 of the extracted text against a manifest's gold texts; with
//! `--template`, the paper's template F1 for text, anchor text and links; with `--ari`, the
//! adjusted Rand index of the segmentation against L3S-GN1's annotated blocks.

use std::collections::HashMap;
use std::path::PathBuf;

use pagelevel::eval::run::{
    annotated_paths, ari_rows, gold_rule, score_manifest, template_rows, word_rows, Extras,
    PageLine, Scored,
};
use pagelevel::site::manifest_labels;

use crate::pipeline_args::{ManifestArgs, PipelineArgs};

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
        manifest_labels(&m, &limits)
    } else {
        (HashMap::new(), 0)
    };
    let extras = Extras {
        template: args.template,
        site_labels: &site_labels,
        annotated: &annotated,
    };
    let bar = crate::batch::progress(m.entries.iter().filter(|e| e.gold.is_some()).count());
    let scored = score_manifest(&m, &model, &opts, &limits, extras, &|k| bar.inc(k));
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
    for r in word_rows(scored) {
        println!(
            "| {} | {} | {:.3} | {:.3} | {:.3} | {:.3} |",
            r.group, r.pages, r.precision, r.recall, r.f1, r.median_f1
        );
    }
}

fn template_table(scored: &[Scored], no_sitelevel: bool, site_skipped: usize) {
    println!("\nTemplate P/R/F1 (positive class: template). mean = mean over pages of per-page values; micro = from counts summed over pages.\n");
    println!("| truth | variant | items | pages | template share | P mean | R mean | F1 mean | P micro | R micro | F1 micro |");
    println!("|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|");
    for r in template_rows(scored) {
        let (mean, micro) = (r.mean, r.micro);
        println!(
            "| {} | {} | {} | {} | {:.3} | {:.3} | {:.3} | {:.3} | {:.3} | {:.3} | {:.3} |",
            r.truth,
            r.variant,
            r.items,
            r.pages,
            r.share,
            mean.precision,
            mean.recall,
            mean.f1,
            micro.precision,
            micro.recall,
            micro.f1
        );
    }
    if no_sitelevel {
        println!("\nsitelevel: no site of this manifest could be labelled ({site_skipped} pages in sites too small or failing).");
    } else if site_skipped > 0 {
        println!(
            "\nsitelevel: {site_skipped} pages not labelled (site too small or page failing)."
        );
    }
    if let Some((n, rule)) = gold_rule(scored) {
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
    let pages = scored.iter().filter(|s| s.annotated.is_some()).count();
    println!("\nAdjusted Rand index of the segments against the annotation classes (x-nc-sel0..5; items = words), {pages} annotated pages.\n");
    println!("| segmentation | pages | ARI mean | ARI median | clusters per page (mean) |");
    println!("|---|---:|---:|---:|---:|");
    for r in ari_rows(scored) {
        println!(
            "| {} | {} | {:.3} | {:.3} | {:.1} |",
            r.name, r.pages, r.mean, r.median, r.clusters
        );
    }
}

fn write_pages(path: &std::path::Path, scored: &[Scored]) -> anyhow::Result<()> {
    let mut out = Vec::new();
    for s in scored {
        out.extend(serde_json::to_vec(&PageLine::of(s))?);
        out.push(b'\n');
    }
    std::fs::write(path, out)?;
    Ok(())
}
