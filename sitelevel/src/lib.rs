//! SiteLevel(θ): template labels for the nodes of a site's pages, from the subtrees those pages
//! share (the SiteLevel baseline of Chakrabarti, Kumar and Punera, *Page-level template
//! detection via isotonic smoothing*, WWW 2007).
//!
//! A subtree that occurs on at least θ of a site's pages (and on at least two) is template;
//! so is a node whose HTML is more than 85% inside such subtrees. The crate reads pages through
//! the [`PageTree`] trait, so it depends on no HTML parser: implement the trait for your DOM, or
//! use the owned [`SimpleTree`].
//!
//! The pieces, in pipeline order:
//! - [`hash_page`] / [`hash_pages_par`]: one 64-bit hash per node of its subtree's canonical
//!   form ([`HashOptions`]: tag names and whitespace-collapsed text, digits masked, by default).
//! - [`SiteCounter`]: on how many distinct pages each hash occurs; mergeable, streamable;
//!   [`SiteCounter::finish`] gives the [`TemplateSet`] I⁺_θ ([`min_pages_for`] is the exact
//!   threshold).
//! - [`label_page`] / [`explain_page`]: per-node labels (see [`label`] for the rules, including
//!   how text-free nodes and duplicate pages are handled).
//! - [`SiteLevel`]: all of the above for one site behind `add_page`, `finish`, `labels`.
//!
//! # Example
//! ```
//! use sitelevel::{hash_page, label_page, SimpleTree, SiteCounter, HashOptions};
//!
//! let pages: Vec<SimpleTree> = ["Cats", "Dogs", "Owls", "Bats", "Rats"]
//!     .iter()
//!     .map(|a| SimpleTree::from_markup(&format!(
//!         "<body><nav>Home About</nav><main>All about {a}</main><footer>(c) 2024</footer></body>")))
//!     .collect();
//!
//! // Pass 1: hash and count every page (the DOM could be dropped right after).
//! let opts = HashOptions::default();
//! let mut counter = SiteCounter::new("zoo.example");
//! for p in &pages {
//!     counter.add_page(&hash_page(p, &opts));
//! }
//! let templates = counter.finish(0.10, 5)?; // θ = 10%, at least 5 pages
//!
//! // Pass 2: label.
//! let labels = label_page(&pages[0], &hash_page(&pages[0], &opts), &templates);
//! // document, body, nav, "Home About", main, "All about Cats", footer, "(c) 2024"
//! assert_eq!(labels, [false, false, true, true, false, false, true, true]);
//! # Ok::<(), sitelevel::SiteError>(())
//! ```
#![deny(missing_docs)]
#![forbid(unsafe_code)]

mod count;
mod error;
mod hash;
pub mod label;
mod site;
mod tree;

pub use count::{
    min_pages_for, IdBuild, IdHasher, SiteCounter, TemplateSet, DEFAULT_MIN_PAGES, DEFAULT_THETA,
    MIN_SHARED_PAGES, THETA_SCALE,
};
pub use error::SiteError;
pub use hash::{
    has_text, hash_page, hash_page_into, hash_pages_par, is_tracking_param, HashOptions, HrefQuery,
    HASH_SEED, NO_CONTRIBUTION,
};
pub use label::{
    explain_page, label_page, label_page_with, LabelOptions, Why, DEFAULT_MIN_TEMPLATE_SHARE,
};
pub use site::{SiteLevel, SiteLevelOptions};
pub use tree::{NodeView, PageTree, SimpleTree, SimpleTreeBuilder};
