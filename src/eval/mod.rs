//! Evaluation measures beyond word-F1 (`pagelevel eval --template --ari`):
//!
//! - the paper's **template precision, recall and F1** over three kinds of items: words of visible
//!   text, words of anchor text (text inside `<a href>`), and links (`<a href>` elements)
//!   ([`template_counts`]);
//! - the **adjusted Rand index** (Hubert–Arabie) of a partition against a labelling
//!   ([`Contingency`]), used on L3S-GN1 to compare the segmentation with the annotated blocks
//!   ([`segmentation_ari`]);
//! - the **ground truths** these need: template flags aligned with a gold main text
//!   ([`truth_from_gold`]), the `x-nc-selN` classes of L3S-GN1's annotated copies
//!   ([`span_classes`]); SiteLevel labels come from [`crate::site::run_site`] as they are.
//!
//! Everything is counted in **words** (the same `\w+` tokens as [`crate::text::words`]): a text
//! node weighs its word count, and nodes without words do not count at all.

pub mod metrics;
pub mod run;
pub mod speed;

use std::collections::{HashMap, HashSet};

use crate::dom::{Dom, Kind, Tag, NONE};
use crate::eval::metrics::Prf;
use crate::features::{self, PageFeatures};
use crate::model::Model;
use crate::pipeline::Options;
use crate::segment::{segment, Segmentation, Variant};
use crate::text::{count_words, words};
use crate::Page;

// ---------------------------------------------------------------------------------------------
// Adjusted Rand index

/// A weighted contingency table of (class, cluster) pairs: `n_ij` = total weight of the items
/// of class i put in cluster j.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Contingency {
    cells: HashMap<(u32, u32), u64>,
}

/// C(n, 2) as f64, computed in u128 (exact in f64 below n ≈ 1.3·10⁸).
fn pairs(n: u64) -> f64 {
    let n = u128::from(n);
    (n * n.saturating_sub(1) / 2) as f64
}

impl Contingency {
    /// An empty table.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds `weight` items of class `class` in cluster `cluster` (weight 0 adds nothing).
    pub fn add(&mut self, class: u32, cluster: u32, weight: u64) {
        if weight > 0 {
            *self.cells.entry((class, cluster)).or_insert(0) += weight;
        }
    }

    /// Total weight n.
    pub fn total(&self) -> u64 {
        self.cells.values().sum()
    }

    /// Number of distinct clusters.
    pub fn clusters(&self) -> usize {
        self.cells.keys().map(|k| k.1).collect::<HashSet<_>>().len()
    }

    /// The adjusted Rand index (Hubert & Arabie 1985) of the clusters against the classes:
    ///
    /// ARI = (Σᵢⱼ C(nᵢⱼ,2) − E) / (½(Σᵢ C(aᵢ,2) + Σⱼ C(bⱼ,2)) − E),  E = Σᵢ C(aᵢ,2)·Σⱼ C(bⱼ,2) / C(n,2)
    ///
    /// with aᵢ the row (class) sums and bⱼ the column (cluster) sums. A weighted item counts as
    /// that many identical items.
    ///
    /// # Returns
    /// A value ≤ 1: 1 for identical partitions, about 0 for a random one (exactly 0 when one side
    /// is a single block and the other is not), possibly negative. When the denominator is 0 —
    /// fewer than 2 items, or both sides all in one block, or both all singletons, i.e. the two
    /// partitions are the same trivial one — it returns 1 (as scikit-learn does).
    ///
    /// # Complexity
    /// O(cells) time and O(classes + clusters) space.
    pub fn ari(&self) -> f64 {
        let mut rows: HashMap<u32, u64> = HashMap::new();
        let mut cols: HashMap<u32, u64> = HashMap::new();
        let mut index = 0.0;
        for (&(i, j), &w) in &self.cells {
            *rows.entry(i).or_insert(0) += w;
            *cols.entry(j).or_insert(0) += w;
            index += pairs(w);
        }
        let n: u64 = rows.values().sum();
        let sum_a: f64 = rows.values().map(|&a| pairs(a)).sum();
        let sum_b: f64 = cols.values().map(|&b| pairs(b)).sum();
        let all = pairs(n);
        if all == 0.0 {
            return 1.0;
        }
        let expected = sum_a * sum_b / all;
        let max = 0.5 * (sum_a + sum_b);
        let denom = max - expected;
        if denom.abs() < 1e-9 * all.max(1.0) {
            return 1.0;
        }
        (index - expected) / denom
    }
}

/// The ARI of `clusters` against `classes`, one item each (see [`Contingency::ari`]).
///
/// # Panics
/// If the slices differ in length.
pub fn adjusted_rand_index(classes: &[u32], clusters: &[u32]) -> f64 {
    assert_eq!(classes.len(), clusters.len(), "one cluster per item");
    let mut t = Contingency::new();
    for (&c, &k) in classes.iter().zip(clusters) {
        t.add(c, k, 1);
    }
    t.ari()
}

// ---------------------------------------------------------------------------------------------
// Template precision / recall / F1

/// Counts of a binary decision where the positive class is *template*.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Confusion {
    /// Template, predicted template.
    pub tp: u64,
    /// Content, predicted template.
    pub fp: u64,
    /// Template, predicted content.
    pub fn_: u64,
    /// Content, predicted content.
    pub tn: u64,
}

impl Confusion {
    /// Adds `w` items of truth `truth` predicted `predicted` (true = template).
    pub fn add(&mut self, truth: bool, predicted: bool, w: u64) {
        match (truth, predicted) {
            (true, true) => self.tp += w,
            (false, true) => self.fp += w,
            (true, false) => self.fn_ += w,
            (false, false) => self.tn += w,
        }
    }

    /// All items counted.
    pub fn total(&self) -> u64 {
        self.tp + self.fp + self.fn_ + self.tn
    }

    /// Precision, recall and F1 of the template class. Edge cases as in
    /// [`crate::eval::metrics::prf_of_bags`]: nothing template in truth and nothing predicted → all 1;
    /// exactly one of the two empty → all 0.
    pub fn prf(&self) -> Prf {
        let truth = self.tp + self.fn_;
        let pred = self.tp + self.fp;
        let all = |v| Prf {
            precision: v,
            recall: v,
            f1: v,
        };
        match (pred == 0, truth == 0) {
            (true, true) => return all(1.0),
            (true, false) | (false, true) => return all(0.0),
            _ => {}
        }
        let precision = self.tp as f64 / pred as f64;
        let recall = self.tp as f64 / truth as f64;
        let f1 = if self.tp == 0 {
            0.0
        } else {
            2.0 * precision * recall / (precision + recall)
        };
        Prf {
            precision,
            recall,
            f1,
        }
    }
}

add_assign_fields!(Confusion: tp, fp, fn_, tn);

/// Template confusion over the paper's three kinds of items.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct TemplateCounts {
    /// Words of visible text.
    pub text: Confusion,
    /// Words of visible text inside an `<a href>`.
    pub anchor: Confusion,
    /// Visible `<a href>` elements with at least one visible word.
    pub links: Confusion,
}

add_assign_fields!(TemplateCounts: text, anchor, links);

fn is_link(dom: &Dom, i: usize) -> bool {
    let node = dom.node(i);
    node.kind == Kind::Element
        && node.tag == Tag::A
        && !node.foreign
        && dom.attr(i, "href").is_some()
}

/// Template confusion of one page.
///
/// # Arguments
/// - `visible`: per node, whether it renders ([`crate::dom::visibility`]).
/// - `truth`: per node, the true template flag; read on visible text nodes only.
/// - `predicted`: per node, the predicted template flag; read on visible text nodes and links.
///
/// # Items
/// - text: each visible text node counts its words with its own truth and prediction;
/// - anchor text: the same, for text nodes with an `<a href>` ancestor;
/// - links: each visible `<a href>` element with at least one visible word counts once; its
///   truth is the majority truth of its words (a tie counts as template), its prediction is the
///   element's own flag. Links without visible words (image links) have no derivable truth
///   here and are not counted.
///
/// # Panics
/// If a slice is shorter than the number of nodes.
///
/// # Complexity
/// O(n) for the words plus the total size of the links' subtrees (O(n) unless links nest).
pub fn template_counts(
    dom: &Dom,
    visible: &[bool],
    truth: &[bool],
    predicted: &[bool],
) -> TemplateCounts {
    let n = dom.len();
    let mut c = TemplateCounts::default();
    let mut in_link = vec![false; n];
    let mut nwords = vec![0u64; n];
    for i in 1..n {
        let p = dom.node(i).parent as usize;
        in_link[i] = in_link[p] || is_link(dom, i);
        if visible[i] && dom.node(i).kind == Kind::Text {
            let w = count_words(dom.text(i)) as u64;
            nwords[i] = w;
            c.text.add(truth[i], predicted[i], w);
            if in_link[i] {
                c.anchor.add(truth[i], predicted[i], w);
            }
        }
    }
    for a in 1..n {
        if !visible[a] || !is_link(dom, a) {
            continue;
        }
        let (mut tw, mut cw) = (0u64, 0u64);
        for i in a + 1..dom.node(a).end as usize {
            if truth[i] {
                tw += nwords[i];
            } else {
                cw += nwords[i];
            }
        }
        if tw + cw > 0 {
            c.links.add(tw >= cw, predicted[a], 1);
        }
    }
    c
}

// ---------------------------------------------------------------------------------------------
// Ground truth from a gold main text

/// Word n-gram length used to align text with gold ([`truth_from_gold`]).
pub const GOLD_NGRAM: usize = 3;
/// Share of a unit's n-grams that must occur in the gold text for the unit to be content.
pub const GOLD_MATCH_SHARE: f64 = 0.5;

/// The text unit of each visible text node: its nearest block-level ancestor
/// ([`Tag::is_block`], table cells included), `NONE` for other nodes.
fn text_units(dom: &Dom, visible: &[bool]) -> Vec<u32> {
    let n = dom.len();
    let mut block = vec![NONE; n];
    for i in 1..n {
        let node = dom.node(i);
        let p = node.parent as usize;
        block[i] = if node.kind == Kind::Element && !node.foreign && node.tag.is_block() {
            i as u32
        } else {
            block[p]
        };
    }
    (0..n)
        .map(|i| {
            if visible[i] && dom.node(i).kind == Kind::Text {
                // Text straight under the document (no block at all) forms unit 0.
                if block[i] == NONE {
                    0
                } else {
                    block[i]
                }
            } else {
                NONE
            }
        })
        .collect()
}

/// Gold-text n-grams (n = 1, 2, [`GOLD_NGRAM`]) over interned lowercase words.
struct GoldGrams {
    vocab: HashMap<String, u32>,
    bigrams: HashSet<(u32, u32)>,
    trigrams: HashSet<(u32, u32, u32)>,
}

impl GoldGrams {
    fn of(gold: &str) -> GoldGrams {
        let lower = gold.to_lowercase();
        let mut vocab = HashMap::new();
        let ids: Vec<u32> = words(&lower)
            .map(|w| {
                let k = vocab.len() as u32;
                *vocab.entry(w.to_owned()).or_insert(k)
            })
            .collect();
        GoldGrams {
            vocab,
            bigrams: ids.windows(2).map(|w| (w[0], w[1])).collect(),
            trigrams: ids.windows(3).map(|w| (w[0], w[1], w[2])).collect(),
        }
    }

    /// Whether a unit with these words (lowercase) aligns with the gold text.
    fn matches(&self, unit: &[String]) -> bool {
        // A word missing from the gold vocabulary breaks every n-gram it is in.
        let ids: Vec<u32> = unit
            .iter()
            .map(|w| self.vocab.get(w).copied().unwrap_or(NONE))
            .collect();
        match ids.len() {
            0 => false,
            1 => ids[0] != NONE,
            2 => self.bigrams.contains(&(ids[0], ids[1])),
            _ => {
                let grams = ids.len() - 2;
                let hits = ids
                    .windows(3)
                    .filter(|w| self.trigrams.contains(&(w[0], w[1], w[2])))
                    .count();
                hits as f64 >= GOLD_MATCH_SHARE * grams as f64
            }
        }
    }
}

/// True template flags of a page's visible text nodes, aligned with its gold main text.
///
/// # Rule
/// Visible text is cut into *units*: the text nodes sharing the nearest block-level ancestor
/// ([`Tag::is_block`]), their words joined in document order (so a paragraph with inline links
/// and emphasis is one unit; each list item, cell and heading is its own unit). A unit is
/// **content** when its word sequence aligns with the gold text:
/// - 3 or more words: at least [`GOLD_MATCH_SHARE`] of its word trigrams occur in the gold text;
/// - 2 words: the bigram occurs in the gold text;
/// - 1 word: the word occurs in the gold text.
///
/// Every other unit is **template**, and each text node takes its unit's flag.
///
/// # Weaknesses
/// - Short units of common words ("Home", "More news") count as content whenever the gold text
///   happens to contain them; repeated fragments of the article (its headline in a breadcrumb
///   or a "most read" box, a teaser) count as content too. Both bias the truth towards content.
/// - A unit mixing content with boilerplate (a byline glued to a share bar in one `<div>`) gets
///   one flag for both.
/// - Gold texts that were edited (L3S-GN1's `?` for curly quotes, CleanEval's normalisation)
///   break n-grams only where a word itself changed; punctuation does not count.
///
/// Returns one flag per node; only visible text nodes carry meaning (others are `false`).
///
/// # Complexity
/// O(n + text + gold) expected time (hash sets of the gold's n-grams).
pub fn truth_from_gold(dom: &Dom, visible: &[bool], gold: &str) -> Vec<bool> {
    let n = dom.len();
    let unit = text_units(dom, visible);
    let grams = GoldGrams::of(gold);
    let mut unit_words: HashMap<u32, Vec<String>> = HashMap::new();
    for (i, &u) in unit.iter().enumerate() {
        if u != NONE {
            let lower = dom.text(i).to_lowercase();
            unit_words
                .entry(u)
                .or_default()
                .extend(words(&lower).map(str::to_owned));
        }
    }
    let content: HashMap<u32, bool> = unit_words
        .iter()
        .map(|(&u, w)| (u, grams.matches(w)))
        .collect();
    (0..n)
        .map(|i| unit[i] != NONE && !content.get(&unit[i]).copied().unwrap_or(false))
        .collect()
}

// ---------------------------------------------------------------------------------------------
// L3S-GN1 annotation spans

/// The `N` of a `class="… x-nc-selN …"` attribute value, if it has one.
fn sel_class(class: &str) -> Option<u8> {
    class
        .split_ascii_whitespace()
        .find_map(|t| t.strip_prefix("x-nc-sel")?.parse::<u8>().ok())
}

/// Per node, the L3S-GN1 annotation class: the `N` of the nearest element, itself or an
/// ancestor, whose class list holds `x-nc-selN`; 0 when there is none (0 also means "not
/// content" in the annotation). 1 headline, 2 full text, 3 supplemental, 4 user comments,
/// 5 related content.
///
/// # Complexity
/// O(n) (one top-down pass).
pub fn span_classes(dom: &Dom) -> Vec<u8> {
    let n = dom.len();
    let mut cls = vec![0u8; n];
    for i in 1..n {
        let own = if dom.node(i).kind == Kind::Element {
            dom.attr(i, "class").and_then(sel_class)
        } else {
            None
        };
        cls[i] = own.unwrap_or(cls[dom.node(i).parent as usize]);
    }
    cls
}

/// Whether an annotation class is main content, as in the L3S-GN1 gold texts: 1, 2 or 3.
pub fn is_gold_class(class: u8) -> bool {
    matches!(class, 1..=3)
}

// ---------------------------------------------------------------------------------------------
// Segmentations as partitions

/// Cluster per node of the *Basic+Merge* segmentation: the segments of `seg` (the paper merges
/// the Basic variant's; Smooth+Merge merges Smooth's), with adjacent segments of equal template
/// flag merged.
///
/// Two segments are *adjacent* when a word of one directly follows a word of the other among
/// the visible words of the page in document order; merging is transitive (union–find), so a
/// run of template link boxes that Basic cuts into one segment each becomes one cluster, and a
/// segment interrupted by a nested one of the other flag stays one cluster.
///
/// Returns the cluster index per node (`NONE` where `seg.segment_of` is `NONE`); a cluster's
/// index is the smallest segment index it holds.
///
/// # Complexity
/// O(n α(n)).
pub fn merged_clusters(dom: &Dom, visible: &[bool], seg: &Segmentation) -> Vec<u32> {
    let m = seg.segments.len();
    let mut up: Vec<u32> = (0..m as u32).collect();
    fn find(up: &mut [u32], mut x: u32) -> u32 {
        while up[x as usize] != x {
            up[x as usize] = up[up[x as usize] as usize];
            x = up[x as usize];
        }
        x
    }
    let mut prev = NONE;
    for (i, &s) in seg.segment_of.iter().enumerate() {
        if s == NONE
            || !visible[i]
            || dom.node(i).kind != Kind::Text
            || count_words(dom.text(i)) == 0
        {
            continue;
        }
        if prev != NONE
            && prev != s
            && seg.segments[prev as usize].template == seg.segments[s as usize].template
        {
            let (a, b) = (find(&mut up, prev), find(&mut up, s));
            // Keep the smaller index as the root, so cluster ids are stable.
            let (lo, hi) = (a.min(b), a.max(b));
            up[hi as usize] = lo;
        }
        prev = s;
    }
    seg.segment_of
        .iter()
        .map(|&s| if s == NONE { NONE } else { find(&mut up, s) })
        .collect()
}

/// The ARI of a partition of a page's words (`cluster_of`, per node; `NONE` is one more
/// cluster) against the annotation classes (`classes`, per node).
///
/// Items are the words of visible text nodes: a text node is counted as many times as it has
/// words, so long paragraphs weigh more than link labels, and whitespace-only nodes not at all.
pub fn segmentation_ari(dom: &Dom, visible: &[bool], classes: &[u8], cluster_of: &[u32]) -> f64 {
    word_contingency(dom, visible, classes, cluster_of).ari()
}

/// The contingency table of annotation classes against clusters, each visible text node
/// weighted by its words (the items of [`segmentation_ari`]).
fn word_contingency(
    dom: &Dom,
    visible: &[bool],
    classes: &[u8],
    cluster_of: &[u32],
) -> Contingency {
    let mut t = Contingency::new();
    for i in 0..dom.len() {
        if visible[i] && dom.node(i).kind == Kind::Text {
            t.add(
                u32::from(classes[i]),
                cluster_of[i],
                count_words(dom.text(i)) as u64,
            );
        }
    }
    t
}

// ---------------------------------------------------------------------------------------------
// Whole pages

/// The page's features and both variants' segmentations, computed once.
#[derive(Debug, Clone)]
pub struct BothVariants {
    /// Features of the page.
    pub features: PageFeatures,
    /// Basic (classifier only).
    pub basic: Segmentation,
    /// `opts`' variant when it is neither Basic nor Smooth (a block-level revision of one).
    pub other: Option<Segmentation>,
    /// Smooth (classifier plus isotonic smoothing).
    pub smooth: Segmentation,
}

impl BothVariants {
    /// Runs features once and segmentation twice (Basic and Smooth) with `opts`' other settings.
    pub fn compute(page: &Page, model: &Model, opts: &Options) -> BothVariants {
        let pf = features::compute(&page.dom, page.url.as_deref(), &opts.features);
        let mut o = opts.segment;
        o.variant = Variant::Basic;
        let basic = segment(&page.dom, &pf, model, &o);
        o.variant = Variant::Smooth;
        let smooth = segment(&page.dom, &pf, model, &o);
        let other = (!matches!(opts.segment.variant, Variant::Basic | Variant::Smooth))
            .then(|| segment(&page.dom, &pf, model, &opts.segment));
        BothVariants {
            features: pf,
            basic,
            smooth,
            other,
        }
    }

    /// The segmentation of `variant` (Smooth's for a third variant not computed).
    pub fn get(&self, variant: Variant) -> &Segmentation {
        match (variant, &self.other) {
            (Variant::Basic, _) => &self.basic,
            (Variant::Smooth, _) | (_, None) => &self.smooth,
            (_, Some(other)) => other,
        }
    }
}

/// Predicted template flags per node as the extractor sees them: template, or outside the
/// smoothing tree (no score; such text is not extracted either, see
/// [`crate::pipeline::Analysis::content_mask`]).
pub fn predicted_template(seg: &Segmentation) -> Vec<bool> {
    seg.template
        .iter()
        .zip(&seg.y)
        .map(|(&t, y)| t || y.is_nan())
        .collect()
}

/// Scores of one annotated L3S-GN1 page.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct AnnotatedScores {
    /// ARI of the Basic segments.
    pub basic: f64,
    /// ARI of the Basic segments with adjacent same-flag segments merged ([`merged_clusters`]).
    pub basic_merge: f64,
    /// ARI of the Smooth segments.
    pub smooth: f64,
    /// ARI of the Smooth segments with adjacent same-flag segments merged: the regions a user
    /// gets by joining neighbouring segments of equal flag, whatever their score levels.
    pub smooth_merge: f64,
    /// Clusters (segments holding words) of Basic, Basic+Merge, Smooth and Smooth+Merge.
    pub clusters: [usize; 4],
    /// Template confusion with the annotation as truth (classes 1–3 content, the rest
    /// template), for Basic and Smooth.
    pub template: [TemplateCounts; 2],
    /// How [`truth_from_gold`] with the gold text agrees with the annotation, in words
    /// (positive class template; truth = annotation, "prediction" = the gold-alignment rule).
    pub gold_rule: Option<Confusion>,
}

/// Runs both variants on an annotated L3S-GN1 page and scores them against its spans.
pub fn evaluate_annotated(
    page: &Page,
    gold: Option<&str>,
    model: &Model,
    opts: &Options,
) -> AnnotatedScores {
    let dom = &page.dom;
    let both = BothVariants::compute(page, model, opts);
    let vis = &both.features.visible;
    let classes = span_classes(dom);
    let merged = merged_clusters(dom, vis, &both.basic);
    let table = |cluster_of: &[u32]| word_contingency(dom, vis, &classes, cluster_of);
    let tb = table(&both.basic.segment_of);
    let tm = table(&merged);
    let ts = table(&both.smooth.segment_of);
    let tsm = table(&merged_clusters(dom, vis, &both.smooth));
    let truth: Vec<bool> = classes.iter().map(|&c| !is_gold_class(c)).collect();
    let counts = |seg: &Segmentation| template_counts(dom, vis, &truth, &predicted_template(seg));
    let gold_rule = gold.map(|g| {
        let rule = truth_from_gold(dom, vis, g);
        let mut c = Confusion::default();
        for i in 0..dom.len() {
            if vis[i] && dom.node(i).kind == Kind::Text {
                c.add(truth[i], rule[i], count_words(dom.text(i)) as u64);
            }
        }
        c
    });
    AnnotatedScores {
        basic: tb.ari(),
        basic_merge: tm.ari(),
        smooth: ts.ari(),
        smooth_merge: tsm.ari(),
        clusters: [tb.clusters(), tm.clusters(), ts.clusters(), tsm.clusters()],
        template: [counts(&both.basic), counts(&both.smooth)],
        gold_rule,
    }
}
