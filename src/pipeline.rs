//! The analysis of one page: features → model → smoothing → rules, into an [`Analysis`];
//! [`crate::output`] writes it out.

use crate::config::Deadline;
use crate::features::{self, FeatureOptions, PageFeatures};
use crate::model::Model;
use crate::rules::{RuleOptions, RuleSet};
use crate::segment::{segment, SegmentOptions, Segmentation};
use crate::{Limits, Page, Result};

/// Settings of the pipeline.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// Feature-stage settings (layout).
    pub features: FeatureOptions,
    /// Scoring and smoothing settings.
    pub segment: SegmentOptions,
    /// The rules that run after the model ([`crate::rules`]): all by default.
    pub rules: RuleSet,
    /// The rules' limits.
    pub rule_options: RuleOptions,
    /// Which parser [`run_bytes`] parses with.
    pub parser: crate::dom::Parser,
}

/// A page with its features and segmentation.
#[derive(Debug, Clone)]
pub struct Analysis {
    /// The parsed page.
    pub page: Page,
    /// Its features (boxes, blocks, counts, rows).
    pub features: PageFeatures,
    /// Its scores, segments and template flags.
    pub segmentation: Segmentation,
    /// Per node, whether it belongs to the main content: the model's keep-mask after the rules
    /// ([`crate::rules::main_keep`]); every element is set, so that a kept text node's
    /// ancestors are.
    pub keep: Vec<bool>,
}

/// Runs features, classifier and smoothing on a parsed page.
pub fn analyze(page: Page, model: &Model, opts: &Options) -> Analysis {
    match analyze_within(page, model, opts, &Deadline::none()) {
        Ok(a) => a,
        // The deadline is the only thing that stops an analysis.
        Err(e) => unreachable!("analysis without a deadline failed: {e}"),
    }
}

/// Like [`analyze`], and [`Error::Timeout`](crate::Error::Timeout) when `deadline` passes
/// before a stage starts. Every stage after the parse is linear or near-linear in the nodes
/// (at most [`Limits::max_nodes`]), so checks between stages bound the overrun by the
/// longest stage.
pub fn analyze_within(
    page: Page,
    model: &Model,
    opts: &Options,
    deadline: &Deadline,
) -> Result<Analysis> {
    let dom = &page.dom;
    let pf = page_features(dom, page.url.as_deref(), opts, deadline)?;
    deadline.check("segment")?;
    let seg = segment(dom, &pf, model, &opts.segment);
    deadline.check("rules")?;
    Ok(Analysis::new(page, pf, seg, opts))
}

/// The pipeline's feature stage: visibility, layout, then feature rows only where `segment`
/// reads them ([`features::Rows::Scorable`]); `deadline` is checked before each step.
///
/// # Complexity
/// That of [`features::compute`].
pub fn page_features(
    dom: &crate::dom::Dom,
    url: Option<&str>,
    opts: &Options,
    deadline: &Deadline,
) -> Result<PageFeatures> {
    deadline.check("visibility")?;
    let visible = crate::dom::visibility(dom);
    deadline.check("layout")?;
    let layout = crate::geometry::layout(dom, &visible, &opts.features.layout);
    deadline.check("features")?;
    let rows = features::Rows::Scorable(opts.segment.min_area);
    Ok(features::compute_with_layout(
        dom, url, visible, layout, rows,
    ))
}

/// The whole pipeline on one page's bytes, within `limits`: decode, parse, features,
/// classifier, smoothing. `charset` is a transport label (HTTP, WARC); the time limit runs
/// from this call. What the CLI's page commands and the fuzz target run.
pub fn run_bytes(
    bytes: &[u8],
    url: Option<&str>,
    charset: Option<&str>,
    limits: &Limits,
    model: &Model,
    opts: &Options,
) -> Result<Analysis> {
    let deadline = limits.deadline();
    let page = Page::from_bytes(
        bytes,
        &crate::PageOptions {
            url,
            charset,
            limits: *limits,
            deadline: Some(&deadline),
            parser: opts.parser,
            ..Default::default()
        },
    )?;
    analyze_within(page, model, opts, &deadline)
}

impl Analysis {
    /// Puts `segmentation` (another variant's, or another threshold's) in place of the page's
    /// and runs the rules of `opts` over it again, so that [`Analysis::keep`] follows. O(n).
    pub fn set_segmentation(&mut self, segmentation: Segmentation, opts: &Options) {
        let (dom, f) = (&self.page.dom, &self.features);
        self.keep = crate::rules::main_keep(dom, f, &segmentation, opts.rules, &opts.rule_options);
        self.segmentation = segmentation;
    }

    /// The analysis of `page` from its features and segmentation: runs the rules of `opts`
    /// over the model's keep-mask. O(n).
    pub fn new(
        page: Page,
        features: PageFeatures,
        segmentation: Segmentation,
        opts: &Options,
    ) -> Analysis {
        let keep = crate::rules::main_keep(
            &page.dom,
            &features,
            &segmentation,
            opts.rules,
            &opts.rule_options,
        );
        Analysis {
            page,
            features,
            segmentation,
            keep,
        }
    }

    /// Per node, whether the model keeps its text: inside `<body>` and not template (before the
    /// rules, see [`crate::rules::model_mask`]).
    pub fn content_mask(&self) -> Vec<bool> {
        crate::rules::model_mask(&self.segmentation)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::RuleSet;

    #[test]
    fn keep_follows_a_new_segmentation() {
        let para = "The harbour wall was rebuilt in granite after the winter storms, and the \
                    masons explained why the old lime mortar had to be matched stone by stone.";
        let html = format!(
            "<html><body><nav><a href=/>Home</a> <a href=/news>News</a></nav>\
             <article><h1>Harbour wall</h1><p>{para}</p><p>{para}</p></article></body></html>"
        );
        let page = Page::from_bytes(html.as_bytes(), &crate::PageOptions::default()).unwrap();
        // No rules: what is kept is the model's mask alone, so all-template keeps nothing.
        let opts = Options {
            rules: RuleSet::NONE,
            ..Options::default()
        };
        let mut a = analyze(page, Model::embedded(), &opts);
        assert!(a.main_text().contains("granite"), "{}", a.main_text());
        let mut all_template = a.segmentation.clone();
        all_template.template.iter_mut().for_each(|t| *t = true);
        a.set_segmentation(all_template, &opts);
        assert_eq!(a.main_text(), "");
    }
}
