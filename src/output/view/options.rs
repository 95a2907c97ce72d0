//! The view's settings and its error.

use crate::model::threshold::DEFAULT_THRESHOLD;
use crate::segment::Variant;

/// Settings of [`render`](super::render), one line each.
#[derive(Debug, Clone)]
pub struct ViewOptions {
    /// The page's name in the legend (usually the path given on the command line).
    pub label: String,
    /// The variant the analysis ran with, shown in the legend.
    pub variant: Variant,
    /// The template threshold the analysis ran with: the shade measures the distance from it.
    pub threshold: f32,
    /// Also draw each segment's estimated box (`layout.rects`, what the classifier saw) as a
    /// dashed, labelled, absolutely positioned layer.
    pub boxes_overlay: bool,
    /// Keep the page's own `<style>` sheets, `style` attributes and (with `allow_remote`)
    /// `<link rel=stylesheet>`, their loads neutralised.
    pub page_styles: bool,
    /// Let the page load `http(s)` images, media, style sheets and fonts (never scripts, frames
    /// or anything that navigates). Off by default: the file then shows only what it contains
    /// and renders the same anywhere.
    pub allow_remote: bool,
}

impl Default for ViewOptions {
    fn default() -> Self {
        ViewOptions {
            label: String::new(),
            variant: Variant::TreeFilter,
            threshold: DEFAULT_THRESHOLD,
            boxes_overlay: false,
            page_styles: true,
            allow_remote: false,
        }
    }
}

/// Why [`render`](super::render) failed.
#[derive(Debug, thiserror::Error)]
pub enum ViewError {
    /// The HTML rewriter stopped (its message). It does not, as configured, on any input.
    #[error("view: rewriting the page failed: {0}")]
    Rewrite(String),
}
