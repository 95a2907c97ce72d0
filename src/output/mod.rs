//! The outputs of an analysis: the main text ([`text`]), the main content as Markdown or HTML
//! ([`render`](mod@render)), the segments as JSON ([`segments`]), and the inert view of the segmentation
//! ([`view`]).

pub mod features;
pub mod render;
pub mod segments;
pub mod text;
pub mod view;

use crate::pipeline::Analysis;
use render::{render, render_with, Format, RenderOptions};
use text::render_text;

impl Analysis {
    /// The main text: the visible text the model and the rules keep ([`Analysis::keep`]), in
    /// document order, one block per line. See [`crate::rules`] for what the rules drop and
    /// keep (comment threads, chrome, repeated passages, and the fallbacks of a page where
    /// the model keeps nothing). O(n + text).
    pub fn main_text(&self) -> String {
        render_text(&self.page.dom, &self.features.visible, &self.keep)
    }

    /// The main content (the nodes [`Analysis::main_text`] keeps) as Markdown or minimal
    /// HTML, see [`crate::output::render`](mod@crate::output::render).
    pub fn main_rendered(&self, format: Format) -> String {
        render(&self.page.dom, &self.features.visible, &self.keep, format)
    }

    /// [`Analysis::main_rendered`] with links and images as `links` and `images` say, their
    /// URLs absolute against the page's URL ([`crate::Page::url`]).
    pub fn main_rendered_with(&self, format: Format, links: bool, images: bool) -> String {
        let opts = RenderOptions {
            links,
            images,
            base: self.page.url.as_deref(),
        };
        render_with(
            &self.page.dom,
            &self.features.visible,
            &self.keep,
            format,
            &opts,
        )
    }
}
