//! [`SiteLevel`]: the whole pipeline for one site behind one small stateful type.

use std::collections::HashMap;

use rayon::prelude::*;

use crate::count::{IdBuild, SiteCounter, TemplateSet, DEFAULT_MIN_PAGES, DEFAULT_THETA};
use crate::error::SiteError;
use crate::hash::{hash_page, HashOptions, NO_CONTRIBUTION};
use crate::label::{explain_page, LabelOptions, Why};
use crate::tree::PageTree;

/// Settings of a [`SiteLevel`] run, one line each.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(default)]
pub struct SiteLevelOptions {
    /// θ: a subtree is template if it occurs on at least max(2, ⌈θ·N⌉) of N pages. Default 0.10.
    pub theta: f64,
    /// Sites with fewer distinct pages than this are refused ([`SiteError::TooFewPages`]). Default 5.
    pub min_pages: usize,
    /// What the subtree hashes ignore. Default [`HashOptions::default`].
    pub hash: HashOptions,
    /// How hashes become labels (the 85% share rule). Default [`LabelOptions::default`].
    pub label: LabelOptions,
    /// Count pages whose whole canonical form equals an earlier page's only once (they get the
    /// earlier page's labels). Default `true`: otherwise θ·N copies of one page are all-template.
    pub dedupe_identical_pages: bool,
    /// Keep each page's hash vector (8 bytes per node) so [`SiteLevel::labels_of`] need not
    /// re-hash. Default `false`: memory stays bounded by the site's hash counts.
    pub keep_hashes: bool,
}

impl Default for SiteLevelOptions {
    fn default() -> Self {
        SiteLevelOptions {
            theta: DEFAULT_THETA,
            min_pages: DEFAULT_MIN_PAGES,
            hash: HashOptions::default(),
            label: LabelOptions::default(),
            dedupe_identical_pages: true,
            keep_hashes: false,
        }
    }
}

impl SiteLevelOptions {
    /// The defaults with θ = `theta`.
    pub fn with_theta(theta: f64) -> Self {
        SiteLevelOptions {
            theta,
            ..Self::default()
        }
    }
}

#[derive(Debug, Clone)]
struct PageInfo {
    nodes: usize,
    duplicate_of: Option<usize>,
}

/// SiteLevel(θ) over one site: add every page, [`finish`](Self::finish), then ask for labels.
///
/// Two passes keep memory bounded by the site's hash counts: pass one parses each page,
/// [`add_page`](Self::add_page)s it and drops the DOM; pass two parses each page again and calls
/// [`labels_of`](Self::labels_of) (or [`labels`](Self::labels) for any page of the site). With
/// `keep_hashes` the second pass skips re-hashing. Results do not depend on rayon's thread count.
///
/// ```
/// use sitelevel::{SimpleTree, SiteLevel, SiteLevelOptions};
/// let pages: Vec<SimpleTree> = (0..5)
///     .map(|k| SimpleTree::from_markup(&format!(
///         "<body><div>Menu</div><p>Article {}</p></body>", "x".repeat(k + 1))))
///     .collect();
/// let mut site = SiteLevel::new(SiteLevelOptions::default()).site("example.com");
/// for p in &pages {
///     site.add_page(p);
/// }
/// site.finish()?;
/// let labels = site.labels_of(0, &pages[0])?;
/// // document, body, div, "Menu", p, "Article x"
/// assert_eq!(labels, [false, false, true, true, false, false]);
/// # Ok::<(), sitelevel::SiteError>(())
/// ```
#[derive(Debug, Clone)]
pub struct SiteLevel {
    options: SiteLevelOptions,
    counter: SiteCounter,
    pages: Vec<PageInfo>,
    roots: HashMap<u64, usize, IdBuild>,
    kept: Vec<Vec<u64>>,
    templates: Option<TemplateSet>,
}

impl SiteLevel {
    /// A run with these options and no pages.
    pub fn new(options: SiteLevelOptions) -> Self {
        SiteLevel {
            options,
            counter: SiteCounter::new(""),
            pages: Vec::new(),
            roots: HashMap::default(),
            kept: Vec::new(),
            templates: None,
        }
    }

    /// Names the site (for error messages).
    pub fn site(mut self, name: impl Into<String>) -> Self {
        let mut counter = SiteCounter::new(name);
        counter.merge(std::mem::take(&mut self.counter));
        self.counter = counter;
        self
    }

    /// The options of this run.
    pub fn options(&self) -> &SiteLevelOptions {
        &self.options
    }

    /// Hashes `tree` and counts it; returns its page index (0, 1, 2, … in the order added).
    /// Adding a page after [`finish`](Self::finish) discards the template set.
    ///
    /// # Complexity
    /// O(n log n) for n nodes (hashing is O(n), per-page deduplication sorts).
    pub fn add_page<T: PageTree + ?Sized>(&mut self, tree: &T) -> usize {
        let hashes = hash_page(tree, &self.options.hash);
        self.add_page_hashes(hashes)
    }

    /// Counts a page hashed elsewhere with [`hash_page`] (or [`crate::hash_pages_par`]) using
    /// this run's `options().hash`; returns its page index. Add pages in a fixed order for
    /// deterministic page indices and duplicate detection.
    pub fn add_page_hashes(&mut self, hashes: Vec<u64>) -> usize {
        self.templates = None;
        let index = self.pages.len();
        let root = hashes.first().copied().unwrap_or(NO_CONTRIBUTION);
        let mut duplicate_of = None;
        if self.options.dedupe_identical_pages && root != NO_CONTRIBUTION {
            duplicate_of = self.roots.get(&root).copied();
            if duplicate_of.is_none() {
                self.roots.insert(root, index);
            }
        }
        if duplicate_of.is_none() {
            self.counter.add_page(&hashes);
        }
        self.pages.push(PageInfo {
            nodes: hashes.len(),
            duplicate_of,
        });
        self.kept.push(if self.options.keep_hashes {
            hashes
        } else {
            Vec::new()
        });
        index
    }

    /// Pages added (duplicates included).
    pub fn pages(&self) -> usize {
        self.pages.len()
    }

    /// Distinct pages counted (N for θ).
    pub fn distinct_pages(&self) -> usize {
        self.counter.pages()
    }

    /// If page `page` was a duplicate, the index of the earlier page it repeats.
    pub fn duplicate_of(&self, page: usize) -> Option<usize> {
        self.pages.get(page).and_then(|p| p.duplicate_of)
    }

    /// The counter (for diagnostics: how many pages a hash occurs on).
    pub fn counter(&self) -> &SiteCounter {
        &self.counter
    }

    /// Computes I⁺_θ from the pages added so far.
    ///
    /// # Errors
    /// [`SiteError::TooFewPages`] if fewer than `min_pages` distinct pages were added,
    /// [`SiteError::InvalidTheta`] if θ is not in (0, 1].
    ///
    /// # Complexity
    /// O(D) for D distinct counted hashes.
    pub fn finish(&mut self) -> Result<&TemplateSet, SiteError> {
        let set = self
            .counter
            .finish(self.options.theta, self.options.min_pages)?;
        Ok(self.templates.insert(set))
    }

    /// The template set, if [`finish`](Self::finish) succeeded since the last page was added.
    pub fn templates(&self) -> Option<&TemplateSet> {
        self.templates.as_ref()
    }

    /// Labels of any page of the site (added or not): `result[i]` is whether node `i` is
    /// template. Re-hashes the page.
    ///
    /// # Errors
    /// [`SiteError::NotFinished`] before [`finish`](Self::finish).
    ///
    /// # Complexity
    /// O(n) for n nodes.
    pub fn labels<T: PageTree + ?Sized>(&self, tree: &T) -> Result<Vec<bool>, SiteError> {
        Ok(to_bools(self.explain(tree)?))
    }

    /// [`labels`](Self::labels) with the rule behind each label.
    ///
    /// # Errors
    /// As [`labels`](Self::labels).
    pub fn explain<T: PageTree + ?Sized>(&self, tree: &T) -> Result<Vec<Why>, SiteError> {
        let set = self.templates.as_ref().ok_or(SiteError::NotFinished)?;
        let hashes = hash_page(tree, &self.options.hash);
        Ok(explain_page(tree, &hashes, set, &self.options.label))
    }

    /// Labels of added page `page`, whose tree is `tree` (the same page re-parsed). Uses the kept
    /// hashes when `keep_hashes` is on, else re-hashes.
    ///
    /// # Errors
    /// [`SiteError::NotFinished`] before [`finish`](Self::finish), [`SiteError::UnknownPage`],
    /// [`SiteError::PageMismatch`] if `tree` has a different number of nodes than when added.
    ///
    /// # Complexity
    /// O(n) for n nodes.
    pub fn labels_of<T: PageTree + ?Sized>(
        &self,
        page: usize,
        tree: &T,
    ) -> Result<Vec<bool>, SiteError> {
        let set = self.templates.as_ref().ok_or(SiteError::NotFinished)?;
        let info = self.pages.get(page).ok_or(SiteError::UnknownPage {
            page,
            pages: self.pages.len(),
        })?;
        if info.nodes != tree.len() {
            return Err(SiteError::PageMismatch {
                page,
                expected: info.nodes,
                got: tree.len(),
            });
        }
        let why = match self
            .kept
            .get(page)
            .filter(|h| h.len() == info.nodes && !h.is_empty())
        {
            Some(hashes) => explain_page(tree, hashes, set, &self.options.label),
            None => {
                let hashes = hash_page(tree, &self.options.hash);
                explain_page(tree, &hashes, set, &self.options.label)
            }
        };
        Ok(to_bools(why))
    }

    /// [`labels`](Self::labels) of many pages in parallel with rayon; identical output for any
    /// thread count.
    ///
    /// # Errors
    /// [`SiteError::NotFinished`] before [`finish`](Self::finish).
    pub fn labels_par<T: PageTree + Sync>(&self, trees: &[T]) -> Result<Vec<Vec<bool>>, SiteError> {
        if self.templates.is_none() {
            return Err(SiteError::NotFinished);
        }
        trees.par_iter().map(|t| self.labels(t)).collect()
    }
}

fn to_bools(why: Vec<Why>) -> Vec<bool> {
    why.into_iter().map(Why::is_template).collect()
}
