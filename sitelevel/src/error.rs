//! The crate's error type. Messages carry the numbers.

/// Everything that can go wrong while computing SiteLevel labels.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum SiteError {
    /// The site has fewer (distinct) pages than the configured minimum, so "occurs on θ of the
    /// pages" means little.
    #[error("site {site:?} has {pages} distinct pages; SiteLevel needs at least {min}")]
    TooFewPages {
        /// The site's name as given by the caller (may be empty).
        site: String,
        /// Distinct pages seen.
        pages: usize,
        /// The configured minimum.
        min: usize,
    },
    /// θ is not in (0, 1].
    #[error("theta must be in (0, 1], got {theta}")]
    InvalidTheta {
        /// The θ given.
        theta: f64,
    },
    /// Labels were asked for before [`crate::SiteLevel::finish`] succeeded (or after pages were
    /// added since).
    #[error("labels need SiteLevel::finish() after the last page is added")]
    NotFinished,
    /// A page index that was never returned by `add_page`.
    #[error("no page {page}: {pages} pages were added")]
    UnknownPage {
        /// The index asked for.
        page: usize,
        /// Pages added.
        pages: usize,
    },
    /// The tree given for a page is not the one whose hashes were kept.
    #[error("page {page} had {expected} nodes when added, the tree given has {got}")]
    PageMismatch {
        /// The page index.
        page: usize,
        /// Nodes when the page was added.
        expected: usize,
        /// Nodes of the tree given now.
        got: usize,
    },
}
