//! The whole PageLevel pipeline for one page: features → classifier → smoothing → text.

use crate::bypass::{drop_bypassed, main_start, recover_main};
use crate::classify::Model;
use crate::comments::{
    drop_regions, keep_replies, only_chrome, Regions, ASIDE_LANDMARK_BIT, COMMENT_GROUP_BIT,
    GALLERY_GROUP_BIT, INLINE_CHROME_BITS, PAGE_LANDMARK_BIT, RELATED_GROUP_BIT,
};
use crate::config::Deadline;
use crate::extract::render_text;
use crate::features::{self, FeatureOptions, PageFeatures, CHROME_LANDMARK_BITS};
use crate::render::{render, Format};
use crate::repeats::drop_repeats;
use crate::segment::{segment, SegmentOptions, Segmentation};
use crate::{Limits, Page, Result};

/// Settings of the pipeline.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// Feature-stage settings (layout).
    pub features: FeatureOptions,
    /// Scoring and smoothing settings.
    pub segment: SegmentOptions,
    /// Keep the second copy of a repeated passage in the main text (see [`crate::repeats`]).
    pub keep_repeats: bool,
    /// Keep comment threads under an article in the main text (see [`crate::comments`]).
    pub keep_comments: bool,
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
    /// Whether the main text keeps second copies of repeated passages ([`Options::keep_repeats`]).
    pub keep_repeats: bool,
    /// Whether the main text keeps comment threads under an article ([`Options::keep_comments`]).
    pub keep_comments: bool,
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
    deadline.check("extract")?;
    Ok(Analysis {
        page,
        features: pf,
        segmentation: seg,
        keep_repeats: opts.keep_repeats,
        keep_comments: opts.keep_comments,
    })
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
    let page = Page::from_bytes_within(bytes, url, charset, limits, &deadline)?;
    analyze_within(page, model, opts, &deadline)
}

impl Analysis {
    /// The segments as `pagelevel segment` prints them (and Python's `segment` returns): per
    /// segment its `id`, `path` (abbreviated past [`crate::dom::PATH_MAX_STEPS`] steps), `tag`,
    /// source `span` (null when unknown), estimated `box`, smoothed `score`, `template` flag,
    /// `words` and enclosing segment `parent`. O(n + segments).
    pub fn segments_json(&self) -> serde_json::Value {
        let dom = &self.page.dom;
        let segments = &self.segmentation.segments;
        let roots: Vec<usize> = segments.iter().map(|s| s.node).collect();
        let paths = dom.short_paths_of(&roots);
        let rows = segments
            .iter()
            .zip(paths)
            .enumerate()
            .map(|(k, (s, path))| {
                let node = dom.node(s.node);
                let r = self.features.layout.rects[s.node];
                let span = node
                    .span
                    .is_known()
                    .then_some([node.span.start, node.span.end]);
                serde_json::json!({
                    "id": k,
                    "path": path,
                    "tag": dom.tag_name(s.node),
                    "span": span,
                    "box": {"x": r.x, "y": r.y, "w": r.w, "h": r.h},
                    "score": (s.score as f64 * 1e4).round() / 1e4,
                    "template": s.template,
                    "words": s.words,
                    "parent": s.parent,
                })
            })
            .collect();
        serde_json::Value::Array(rows)
    }

    /// Per node, whether its text is main content: inside `<body>` and not template.
    pub fn content_mask(&self) -> Vec<bool> {
        let seg = &self.segmentation;
        (0..self.page.dom.len())
            .map(|i| !seg.template[i] && !seg.y[i].is_nan())
            .collect()
    }

    /// The main text: visible non-template text in document order, one block per line.
    ///
    /// When every word of the page is judged template, the least template-like text is
    /// returned instead (the visible text whose smoothed score is the page's lowest), less
    /// the page's chrome (links, navigation and asides, the page's own header and footer): most
    /// pages have some main content, and a page whose least template-like text is all chrome
    /// (a script-rendered shell) has none, so its answer is empty; so is that of a page whose
    /// kept text is fewer than 100 words, all in its chrome landmarks
    /// ([`crate::comments::only_chrome`]). boilerpipe's content blocks
    /// are the last resort, for a page whose text lies outside `<body>`.
    /// Unless [`Analysis::keep_repeats`] is set, a repeated passage is said once
    /// ([`crate::repeats`]); unless [`Analysis::keep_comments`] is, the comment thread under an
    /// article is left out (not a forum thread's replies, [`crate::comments::keep_replies`]),
    /// and so are the inline chrome, photo galleries, asides, the page's own header and footer
    /// and related-link lists around it ([`crate::comments`]). What precedes the start of the
    /// main content by the page's own account (a skip link's target, else `<main>`), above the
    /// title heading, is left out too, and that element's text is kept when the page keeps
    /// almost nothing and little of it ([`crate::bypass`]).
    pub fn main_text(&self) -> String {
        self.main_keep().1
    }

    /// The main content (the nodes [`Analysis::main_text`] keeps) as Markdown or minimal
    /// HTML, see [`crate::render`].
    pub fn main_rendered(&self, format: Format) -> String {
        let keep = self.main_keep().0;
        render(&self.page.dom, &self.features.visible, &keep, format)
    }

    /// The keep flags of the main content (elements always kept) and its text.
    fn main_keep(&self) -> (Vec<bool>, String) {
        let dom = &self.page.dom;
        let mut mask = self.content_mask();
        let f = &self.features;
        let passes = [
            (COMMENT_GROUP_BIT, None),
            (INLINE_CHROME_BITS, None),
            (GALLERY_GROUP_BIT, None),
            (ASIDE_LANDMARK_BIT, None),
            // A page-level header that holds the title heading is the article's own.
            (PAGE_LANDMARK_BIT, f.title_heading),
            (RELATED_GROUP_BIT, None),
        ];
        // A forum thread's replies are content: then, as with `keep_comments`, the comment
        // threads' pass (the first) is skipped.
        let regions = Regions::new(dom, &f.groups_in);
        let y = &self.segmentation.y;
        let scored = |i: usize| !y[i].is_nan();
        let thread = !self.keep_comments
            && self.segmentation.main.is_some_and(|main| {
                keep_replies(
                    dom, &f.visible, &f.counts, &regions, scored, main, &mut mask,
                )
            });
        // The start of the main content by the page's own account: its element stands in for a
        // model that kept almost nothing; what precedes it is chrome.
        let start = main_start(dom, f.main_landmark);
        if let Some(start) = start {
            recover_main(dom, &f.visible, &f.counts, scored, start, &mut mask);
        }
        let passes = &passes[(self.keep_comments || thread) as usize..];
        drop_regions(dom, &f.visible, &f.counts, &regions, passes, &mut mask);
        if let Some(start) = start {
            drop_bypassed(
                dom,
                &f.visible,
                &f.counts,
                start,
                f.title_heading,
                &mut mask,
            );
        }
        // A script shell's few kept words are its chrome's: it has no main content.
        if only_chrome(dom, &f.visible, &f.counts, &regions, &mask) {
            return (vec![false; dom.len()], String::new());
        }
        let (keep, text) = self.render_kept(|i| mask[i]);
        if crate::text::has_words(&text) {
            return (keep, text);
        }
        let y = &self.segmentation.y;
        let visible = &self.features.visible;
        let lowest = (0..dom.len())
            .filter(|&i| {
                dom.node(i).kind == crate::dom::Kind::Text
                    && visible[i]
                    && !y[i].is_nan()
                    && self.features.counts[i].words > 0
            })
            .map(|i| y[i])
            .fold(f32::INFINITY, f32::min);
        if lowest.is_finite() {
            // Chrome is never the main content: a page of only chrome has none (JS shells).
            let chrome = page_chrome(dom, &self.features.groups_in);
            return self.render_kept(|i| y[i] <= lowest && !chrome[i]);
        }
        let blocks = &self.features.blocks;
        self.render_kept(|i| {
            let b = blocks.block_of[i];
            b != crate::dom::NONE && self.features.block_content[b as usize]
        })
    }

    /// The visible text of the text nodes for which `keep` holds (elements are walked into).
    fn render_kept(&self, keep: impl Fn(usize) -> bool) -> (Vec<bool>, String) {
        let dom = &self.page.dom;
        let mut keep: Vec<bool> = (0..dom.len())
            .map(|i| dom.node(i).kind != crate::dom::Kind::Text || keep(i))
            .collect();
        if !self.keep_repeats {
            let visible = &self.features.visible;
            drop_repeats(dom, visible, &self.features.blocks, &mut keep);
        }
        let text = render_text(dom, &self.features.visible, &keep);
        (keep, text)
    }
}

/// Per node, whether it lies in the page's chrome: inside a link, or inside a navigation,
/// complementary, or the page's own banner or content-info landmark (`nav`, `aside`, a `header`
/// or `footer` outside every `article`, `main` and `section`, or the matching roles: the
/// landmark bits of `groups_in`, the class groups of a node and its ancestors). One top-down
/// pass, O(n).
fn page_chrome(dom: &crate::dom::Dom, groups_in: &[u32]) -> Vec<bool> {
    let n = dom.len();
    let mut chrome = vec![false; n];
    for i in 1..n {
        let node = dom.node(i);
        chrome[i] = chrome[node.parent as usize]
            || groups_in[i] & CHROME_LANDMARK_BITS != 0
            || node.kind == crate::dom::Kind::Element
                && node.tag == crate::dom::Tag::A
                && dom.attr(i, "href").is_some();
    }
    chrome
}
