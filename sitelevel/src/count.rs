//! Counting subtree hashes across a site's pages: I⁺_θ, the hashes on at least θ of the pages.

use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};

use rayon::prelude::*;

use crate::error::SiteError;
use crate::hash::has_text;

/// Default θ: a subtree is template if it occurs on at least 10% of the site's pages.
pub const DEFAULT_THETA: f64 = 0.10;
/// Default minimum number of (distinct) pages a site needs before SiteLevel labels it.
pub const DEFAULT_MIN_PAGES: usize = 5;
/// A hash must occur on at least this many pages, whatever θ, to be template.
pub const MIN_SHARED_PAGES: usize = 2;
/// θ is rounded to the nearest multiple of `1 / THETA_SCALE` for the exact threshold.
pub const THETA_SCALE: u64 = 1_000_000;

/// Hasher for keys that are already uniform 64-bit hashes: passes them through.
#[derive(Default, Clone, Copy)]
pub struct IdHasher(u64);

impl Hasher for IdHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }
    fn write_u64(&mut self, v: u64) {
        self.0 = v;
    }
}

/// Deterministic build hasher for maps and sets keyed by node hashes.
pub type IdBuild = BuildHasherDefault<IdHasher>;

/// The number of pages a hash must occur on, in a site of `pages` pages, to be in I⁺_θ:
/// `max(2, ⌈θ·N⌉)`, computed exactly in integers as `⌈θ_µ·N / 10⁶⌉` where
/// `θ_µ = round(θ·10⁶)`. So θ = 0.1 gives 2 of 20 pages and 3 of 30 (a float `ceil(0.1*30.0)`
/// would give 4).
///
/// # Errors
/// [`SiteError::InvalidTheta`] unless `0 < θ ≤ 1`.
pub fn min_pages_for(pages: usize, theta: f64) -> Result<usize, SiteError> {
    if !(theta > 0.0 && theta <= 1.0) {
        return Err(SiteError::InvalidTheta { theta });
    }
    let micro = (theta * THETA_SCALE as f64).round() as u128;
    let need = (micro * pages as u128).div_ceil(u128::from(THETA_SCALE));
    Ok((need as usize).max(MIN_SHARED_PAGES))
}

/// Accumulates, for one site, the number of distinct pages each subtree hash occurs on.
///
/// Stream pages through it (hash a page, [`add_page`](Self::add_page), drop the DOM), then
/// [`finish`](Self::finish) to get the [`TemplateSet`]; label in a second pass. Counters built
/// over disjoint sets of pages (in parallel, say) [`merge`](Self::merge) into exactly the counter
/// built sequentially, whatever the order.
///
/// Hashes of text-free subtrees ([`has_text`] false) are not counted; see [`crate::label`].
///
/// # Complexity
/// Memory O(D) for D distinct counted hashes over the site (about 16–32 bytes each).
#[derive(Debug, Clone, Default)]
pub struct SiteCounter {
    site: String,
    pages: usize,
    counts: HashMap<u64, u32, IdBuild>,
    scratch: Vec<u64>,
}

impl SiteCounter {
    /// An empty counter for the site named `site` (used in error messages only).
    pub fn new(site: impl Into<String>) -> Self {
        SiteCounter {
            site: site.into(),
            ..Self::default()
        }
    }

    /// The site's name as given to [`new`](Self::new).
    pub fn site(&self) -> &str {
        &self.site
    }

    /// Counts one page from its node hashes ([`crate::hash_page`]). Each hash counts once per
    /// page however often it occurs on it (sorted and deduplicated first).
    ///
    /// # Complexity
    /// O(n log n) time for n nodes; O(n) scratch space, reused across calls.
    pub fn add_page(&mut self, hashes: &[u64]) {
        self.scratch.clear();
        self.scratch
            .extend(hashes.iter().copied().filter(|&h| has_text(h)));
        self.scratch.sort_unstable();
        self.scratch.dedup();
        for &h in &self.scratch {
            *self.counts.entry(h).or_insert(0) += 1;
        }
        self.pages += 1;
        if self.scratch.capacity() > 1 << 20 {
            self.scratch = Vec::new();
        }
    }

    /// Adds `other`'s pages and counts to this one (keeps this counter's site name).
    /// The result does not depend on the order of merges.
    ///
    /// # Complexity
    /// O(D_other) expected time.
    pub fn merge(&mut self, mut other: SiteCounter) {
        if other.counts.len() > self.counts.len() {
            std::mem::swap(&mut self.counts, &mut other.counts);
        }
        self.pages += other.pages;
        for (h, c) in other.counts {
            *self.counts.entry(h).or_insert(0) += c;
        }
    }

    /// Counts many pages in parallel with rayon (fold per thread, then merge); the result is the
    /// same as adding them one by one, for any thread count.
    ///
    /// # Complexity
    /// O(Σ n log n) work.
    pub fn from_pages_par(site: impl Into<String>, pages: &[Vec<u64>]) -> Self {
        let mut counter = pages
            .par_iter()
            .fold(SiteCounter::default, |mut c, p| {
                c.add_page(p);
                c
            })
            .reduce(SiteCounter::default, |mut a, b| {
                a.merge(b);
                a
            });
        counter.site = site.into();
        counter.scratch = Vec::new();
        counter
    }

    /// Number of pages added.
    pub fn pages(&self) -> usize {
        self.pages
    }

    /// Number of distinct counted hashes.
    pub fn distinct_hashes(&self) -> usize {
        self.counts.len()
    }

    /// On how many pages `hash` occurs (0 for text-free or unseen hashes).
    pub fn count(&self, hash: u64) -> u32 {
        self.counts.get(&hash).copied().unwrap_or(0)
    }

    /// I⁺_θ: the hashes occurring on at least [`min_pages_for`]`(N, θ)` of the N pages.
    ///
    /// # Errors
    /// [`SiteError::TooFewPages`] if N < `min_pages`; [`SiteError::InvalidTheta`] unless
    /// `0 < θ ≤ 1`.
    ///
    /// # Complexity
    /// O(D) time; the set holds only the template hashes.
    pub fn finish(&self, theta: f64, min_pages: usize) -> Result<TemplateSet, SiteError> {
        let threshold = min_pages_for(self.pages, theta)?;
        if self.pages < min_pages {
            return Err(SiteError::TooFewPages {
                site: self.site.clone(),
                pages: self.pages,
                min: min_pages,
            });
        }
        let hashes = self
            .counts
            .iter()
            .filter(|&(_, &c)| c as usize >= threshold)
            .map(|(&h, _)| h)
            .collect();
        Ok(TemplateSet {
            hashes,
            pages: self.pages,
            threshold,
        })
    }
}

/// I⁺_θ of one site: the subtree hashes that occur on enough of its pages to be template.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TemplateSet {
    hashes: HashSet<u64, IdBuild>,
    pages: usize,
    threshold: usize,
}

impl TemplateSet {
    /// Builds a set directly (for tests, or sets computed elsewhere).
    pub fn from_hashes(
        hashes: impl IntoIterator<Item = u64>,
        pages: usize,
        threshold: usize,
    ) -> Self {
        TemplateSet {
            hashes: hashes.into_iter().collect(),
            pages,
            threshold,
        }
    }

    /// Whether `hash` is template.
    #[inline]
    pub fn contains(&self, hash: u64) -> bool {
        self.hashes.contains(&hash)
    }

    /// Number of template hashes.
    pub fn len(&self) -> usize {
        self.hashes.len()
    }

    /// Whether no hash is template.
    pub fn is_empty(&self) -> bool {
        self.hashes.is_empty()
    }

    /// Number of pages N the set was computed from.
    pub fn pages(&self) -> usize {
        self.pages
    }

    /// Pages a hash had to occur on: `max(2, ⌈θ·N⌉)`.
    pub fn threshold(&self) -> usize {
        self.threshold
    }

    /// The template hashes in increasing order.
    pub fn to_sorted_vec(&self) -> Vec<u64> {
        let mut v: Vec<u64> = self.hashes.iter().copied().collect();
        v.sort_unstable();
        v
    }
}
