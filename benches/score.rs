//! Criterion bench of the classifier's scoring stage alone: the embedded model's
//! `score_all` over the scored nodes of real wcxb-dev pages (features computed once,
//! outside the timing). Skips with a message when `../shared/data` is absent.
//!
//!     cargo bench --bench score

use std::path::Path;

use criterion::{criterion_group, criterion_main, Criterion};
use pagelevel::dom::Kind;
use pagelevel::features::{self, FeatureOptions, PageFeatures};
use pagelevel::model::Model;
use pagelevel::Page;

/// Pages timed (the first ones of the manifest): enough for a stable mean, quick to prepare.
const PAGES: usize = 60;

fn pages() -> Vec<(PageFeatures, Vec<bool>)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/data");
    let Ok(manifest) = std::fs::read_to_string(root.join("wcxb-dev/manifest.jsonl")) else {
        eprintln!("score bench: ../shared/data/wcxb-dev is absent, nothing to time");
        return Vec::new();
    };
    manifest
        .lines()
        .take(PAGES)
        .filter_map(|line| {
            let v: serde_json::Value = serde_json::from_str(line).ok()?;
            let path = root.join(v["html"].as_str()?);
            let page = Page::from_path(
                &path,
                &pagelevel::PageOptions {
                    url: v["url"].as_str(),
                    ..Default::default()
                },
            )
            .ok()?;
            let pf = features::compute(&page.dom, page.url.as_deref(), &FeatureOptions::default());
            // The segment stage's mask: visible elements of 2,000 px² or more.
            let dom = &page.dom;
            let scored = (0..dom.len())
                .map(|i| {
                    dom.node(i).kind == Kind::Element
                        && pf.visible[i]
                        && pf.layout.rects[i].area() >= 2000.0
                })
                .collect();
            Some((pf, scored))
        })
        .collect()
}

fn score(c: &mut Criterion) {
    let pages = pages();
    if pages.is_empty() {
        return;
    }
    let model = Model::embedded();
    let nodes: usize = pages
        .iter()
        .map(|(_, s)| s.iter().filter(|&&b| b).count())
        .sum();
    eprintln!("score bench: {} pages, {nodes} scored nodes", pages.len());
    c.bench_function("score_all/wcxb-dev", |b| {
        b.iter(|| {
            let mut sum = 0f32;
            for (pf, scored) in &pages {
                let x = model.score_all(&pf.matrix, scored);
                sum += x.iter().filter(|v| !v.is_nan()).sum::<f32>();
            }
            sum
        })
    });
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20);
    targets = score
}
criterion_main!(benches);
