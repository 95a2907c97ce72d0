//! What every rule reads of a page: its tree, visibility, counts, regions, the model's scores
//! and the rules' limits, gathered once per page.

use super::options::RuleOptions;
use crate::dom::{Dom, Kind};
use crate::features::names::{comment_marker, CHROME_LANDMARK_BITS, COMMENT_GROUP_BIT};
use crate::features::{Counts, PageFeatures};
use std::ops::Range;

/// The page's regions: per node, the class-name groups of the node and its ancestors
/// (`groups_in`), except that code lies in the regions of its nearest ancestor outside code:
/// names inside `<pre>`, `<code>` and `<xmp>` are a syntax highlighter's (`hljs-comment`), not
/// regions; and a comment section that starts at its jump target ([`comment_marker`]:
/// `<a name="comments"></a>`) and runs on in the marker's container is a comment region too.
/// Every rule of this module reads them.
pub struct Regions {
    /// Per node, its regions' group bits.
    pub groups: Vec<u32>,
    /// The groups the page has (below the root): a rule for a group the page lacks costs nothing.
    pub present: u32,
}

impl Regions {
    /// The regions of `dom` from its `groups_in`, and comment regions after a comment
    /// section's jump target ([`comment_marker`]): the marker's later siblings and their
    /// subtrees. O(n): one top-down pass.
    pub fn new(dom: &Dom, groups_in: &[u32]) -> Regions {
        let n = dom.len();
        let mut in_code = vec![false; n];
        let mut groups = groups_in.to_vec();
        let mut present = 0u32;
        // Per node: a comment marker was among its children so far.
        let mut marked = vec![false; n];
        for i in 1..n {
            let node = dom.node(i);
            let p = node.parent as usize;
            in_code[i] = in_code[p] || node.kind == Kind::Element && node.tag.is_code();
            if in_code[i] {
                groups[i] = groups[p];
            } else {
                // A parent's bits reach its subtree: `groups_in` is inherited, and so is this.
                groups[i] |= groups[p] & COMMENT_GROUP_BIT;
                if marked[p] {
                    groups[i] |= COMMENT_GROUP_BIT;
                }
                if comment_marker(dom, i) {
                    marked[p] = true;
                }
            }
            present |= groups[i];
        }
        Regions { groups, present }
    }
}

/// A page as the rules read it. Built once per page ([`Context::new`], O(n) for the regions);
/// every pass takes it and the keep-mask.
pub struct Context<'a> {
    /// The page's tree.
    pub dom: &'a Dom,
    /// Per node, whether it is rendered.
    pub visible: &'a [bool],
    /// Per node, its text counts (words, characters).
    pub counts: &'a [Counts],
    /// Per node, its markup key ([`PageFeatures::keys`]).
    pub keys: &'a [u64],
    /// The page's regions.
    pub regions: Regions,
    /// Per node, the model's smoothed templateness; NaN outside the scored tree (`<body>`).
    pub y: &'a [f32],
    /// The page's skip links to its main content, as node ranges ([`PageFeatures::skip_links`]).
    pub skip_links: &'a [(u32, u32)],
    /// The rules' limits.
    pub opts: &'a RuleOptions,
}

impl<'a> Context<'a> {
    /// The context of a page: its tree, its features' visibility, counts, markup keys and
    /// class-name groups per node, the model's scores `y`, and the limits. O(n).
    pub fn new(
        dom: &'a Dom,
        f: &'a PageFeatures,
        y: &'a [f32],
        opts: &'a RuleOptions,
    ) -> Context<'a> {
        Context {
            dom,
            visible: &f.visible,
            counts: &f.counts,
            keys: &f.keys,
            regions: Regions::new(dom, &f.groups_in),
            y,
            skip_links: &f.skip_links,
            opts,
        }
    }

    /// Whether an article outweighs the regions it would lose: `inside` kept words in them (at
    /// least one), `outside` the article's kept words, at least as many and at least
    /// [`RuleOptions::min_article_words`](super::RuleOptions::min_article_words). O(1).
    pub(crate) fn outweighs(&self, outside: u64, inside: u64) -> bool {
        inside > 0 && outside >= inside.max(u64::from(self.opts.min_article_words))
    }

    /// Clears `keep` on the text of the disjoint node ranges `regions` when the page's other
    /// kept words [`outweigh`](Context::outweighs) theirs (an article and what it would lose:
    /// its feeds, its figures' captions); returns how many kept visible text nodes it cleared.
    /// O(n + the regions' nodes).
    pub(crate) fn clear_under_article(&self, keep: &mut [bool], regions: &[Range<usize>]) -> usize {
        let inside: u64 = regions
            .iter()
            .map(|r| self.kept_words(keep, r.clone()))
            .sum();
        let all = self.kept_words(keep, 0..self.dom.len());
        if !self.outweighs(all - inside, inside) {
            return 0;
        }
        regions
            .iter()
            .map(|r| self.clear_text(keep, r.clone()))
            .sum()
    }

    /// Whether node `i` lies in the scored tree (the model gave it a score).
    pub fn scored(&self, i: usize) -> bool {
        !self.y[i].is_nan()
    }

    /// Whether node `i` lies in a chrome landmark (HTML's `<nav>`, `<aside>`, the page's own
    /// `<header>` and `<footer>`, and their ARIA roles: [`CHROME_LANDMARK_BITS`]). O(1).
    pub(crate) fn in_chrome(&self, i: usize) -> bool {
        self.regions.groups[i] & CHROME_LANDMARK_BITS != 0
    }

    /// Whether node `i` is a visible text node.
    pub(crate) fn is_visible_text(&self, i: usize) -> bool {
        self.dom.node(i).kind == Kind::Text && self.visible[i]
    }

    /// The words of the visible text nodes among `nodes` that `keep` holds. O(|nodes|).
    pub(crate) fn kept_words(&self, keep: &[bool], nodes: impl Iterator<Item = usize>) -> u64 {
        nodes
            .filter(|&i| self.is_visible_text(i) && keep[i])
            .map(|i| self.counts[i].words as u64)
            .sum()
    }

    /// Per node, the words of the visible text nodes in its subtree that `keep` holds. O(n):
    /// one bottom-up pass.
    pub(crate) fn kept_words_below(&self, keep: &[bool]) -> Vec<u32> {
        let n = self.dom.len();
        let mut words = vec![0u32; n];
        for i in (1..n).rev() {
            if self.is_visible_text(i) && keep[i] {
                words[i] += self.counts[i].words;
            }
            if let Some(p) = self.dom.parent(i) {
                words[p] += words[i];
            }
        }
        words
    }

    /// Sets `keep` on the scored visible text nodes among `nodes`; returns how many it set.
    /// O(|nodes|).
    pub(crate) fn keep_text(&self, keep: &mut [bool], nodes: impl Iterator<Item = usize>) -> usize {
        let mut set = 0;
        for i in nodes.filter(|&i| self.is_visible_text(i) && self.scored(i)) {
            set += !keep[i] as usize;
            keep[i] = true;
        }
        set
    }

    /// Clears `keep` on the text nodes among `nodes`; returns how many kept visible ones it
    /// cleared. O(|nodes|).
    pub(crate) fn clear_text(
        &self,
        keep: &mut [bool],
        nodes: impl Iterator<Item = usize>,
    ) -> usize {
        let mut cleared = 0;
        for i in nodes.filter(|&i| self.dom.node(i).kind == Kind::Text) {
            cleared += (self.visible[i] && keep[i]) as usize;
            keep[i] = false;
        }
        cleared
    }
}
