//! Per-node features: the PageLevel paper's most discriminative ones plus boilerpipe's
//! shallow-text features, for every node in one bottom-up pass.
//!
//! [`compute`] runs the stages a node's features depend on (visibility, geometry, blocks and
//! the block classifier), then one top-down pass (inside-a-link flags), one scan over the
//! visible text, one bottom-up pass that sums the counts into every ancestor, and one pass that
//! writes the feature rows. Everything is O(n + text length), with no per-node allocation.

pub mod blocks;
pub mod bylines;
pub mod columns;
pub mod counts;
pub mod markup;
pub mod names;
pub mod repeats;
pub mod vocabulary;

use crate::dom::{visibility, Dom, Kind, Tag, NONE};
use crate::geometry::{self, Layout, LayoutOptions, Rect};
use crate::url;
use blocks::{BlockClassifier, Blocks};

pub(crate) use columns::columns;
pub use columns::{f, COUNT, DOCS, NAMES};
pub use counts::Counts;
use counts::{count, TitleWords};
use names::{class_groups, ClassGroups, CLS_GROUPS, COMMENT_GROUP_BIT, INHERITED_GROUPS};
use names::{ASIDE_LANDMARK_BIT, GALLERY_GROUP_BIT, NAV_LANDMARK_BIT, PAGE_LANDMARK_BIT};
use names::{RELATED_GROUP_BIT, REVIEW_GROUP_BIT};

/// Feature rows, row-major (`COUNT` values a row), stored for elements only: only elements are
/// scored, and the other nodes (text, comments) read as a row of zeros.
#[derive(Debug, Clone, Default)]
pub struct FeatureMatrix {
    data: Vec<f32>,
    /// Per node, its row in `data`, or [`NONE`] for a node without one.
    row_of: Vec<u32>,
}

/// The row of a node that has none.
static ZERO_ROW: [f32; COUNT] = [0.0; COUNT];

impl FeatureMatrix {
    /// A matrix from rows of [`COUNT`] values laid end to end, one per node (a partial last
    /// row is dropped).
    pub(crate) fn from_data(mut data: Vec<f32>) -> Self {
        data.truncate(data.len() / COUNT * COUNT);
        let row_of = (0..(data.len() / COUNT) as u32).collect();
        FeatureMatrix { data, row_of }
    }

    /// The features of node `i` (zeros for a node that is not an element).
    pub fn row(&self, i: usize) -> &[f32] {
        match self.row_of[i] {
            NONE => &ZERO_ROW,
            r => &self.data[r as usize * COUNT..(r as usize + 1) * COUNT],
        }
    }

    /// Whether node `i` has a row of its own (see [`Rows`]).
    pub fn has_row(&self, i: usize) -> bool {
        self.row_of[i] != NONE
    }

    /// Number of nodes.
    pub fn len(&self) -> usize {
        self.row_of.len()
    }

    /// Whether there are no nodes.
    pub fn is_empty(&self) -> bool {
        self.row_of.is_empty()
    }
}

/// Number of the paper's features (the first columns); the rest are pagelevel's additions.
pub const PAPER_COUNT: usize = f::BLOCK_CONTENT_SHARE + 1;
/// Number of features before the context columns (the feature set `all`); the columns from
/// here on ([`f::PARAGRAPH_WORD_SHARE`] …) describe where a node sits on its page.
pub(crate) const ALL_COUNT: usize = f::PAGE_WORDS_OUTSIDE_COMMENTS + 1;

/// The page-type columns and the [`names::declared`] bit each reads.
const DECLARED_COLUMNS: [(usize, u8); 4] = [
    (f::PAGE_DECLARES_ARTICLE, names::declared::ARTICLE),
    (f::PAGE_DECLARES_PRODUCT, names::declared::PRODUCT),
    (f::PAGE_DECLARES_DISCUSSION, names::declared::DISCUSSION),
    (f::PAGE_DECLARES_LIST, names::declared::LIST),
];

/// The columns read from the page's URL, in [`url::PathShape`]'s order below (thread, dated,
/// slug words, depth); each −1 without a URL.
pub const URL_COLUMNS: [usize; 4] = [
    f::PAGE_URL_THREAD,
    f::PAGE_URL_DATED,
    f::PAGE_URL_SLUG_WORDS,
    f::PAGE_URL_DEPTH,
];

/// Settings of the feature stage.
#[derive(Debug, Clone, Default)]
pub struct FeatureOptions {
    /// The flow-layout settings.
    pub layout: LayoutOptions,
}

/// Everything the later stages need about one page.
#[derive(Debug, Clone)]
pub struct PageFeatures {
    /// Per-node visibility.
    pub visible: Vec<bool>,
    /// Estimated (or overridden) boxes.
    pub layout: Layout,
    /// boilerpipe's atomic text blocks.
    pub blocks: Blocks,
    /// The block classifier's decision per block (true = content).
    pub block_content: Vec<bool>,
    /// Per node, the class-name groups of the node and its ancestors as bits: the `in_*`
    /// features' groups and the decoding-only ones the rules read (see [`names`]).
    pub groups_in: Vec<u32>,
    /// Per-node subtree counts.
    pub counts: Vec<Counts>,
    /// Per-node HTML bytes of the subtree.
    pub subtree_bytes: Vec<u32>,
    /// Number of distinct title words (the denominator of the title overlap).
    pub title_words: u32,
    /// The title heading: the visible h1–h3 sharing the most distinct words with `<title>`
    /// (see the `title_heading_relation` column); `None` on a page without one.
    pub title_heading: Option<usize>,
    /// The first `<main>` element or element whose `role` is `main` (HTML's main landmark);
    /// `None` on a page without one.
    pub main_landmark: Option<usize>,
    /// Where the main content starts by the page's own account: its skip link's target, else
    /// its main landmark ([`markup::main_start`]); `None` on a page without either.
    pub main_start: Option<usize>,
    /// The nodes of the main content the main start points to ([`markup::main_extent`]): its
    /// subtree, or, for an empty marker, the `<main>` it precedes or opens; empty without one.
    pub main_extent: std::ops::Range<usize>,
    /// The main region: the deepest node holding at least 2/3 of the page's boilerpipe
    /// content-block words (the `in_main_region` column); `None` on a page without content
    /// blocks.
    pub main_region: Option<usize>,
    /// The page's skip links to its main content ([`markup::skip_links`]), each as the range of
    /// nodes of the link and its subtree: chrome by WCAG's account, never main text.
    pub skip_links: Vec<(u32, u32)>,
    /// Whether the page declares itself a discussion, a forum thread or a question with its
    /// answers, by schema.org type (microdata `itemtype` or JSON-LD: [`names::declared_types`]):
    /// its comment regions are then its content.
    pub declares_discussion: bool,
    /// Whether the page declares itself a product (schema.org Product and its kin, OpenGraph
    /// `og:type` product) and not an article: a shop's page, whose customer reviews are not its
    /// content (a review article or a blog marking up the products it discusses declares an
    /// article too).
    pub declares_product: bool,
    /// Whether the page declares itself an article (schema.org Article, NewsArticle,
    /// BlogPosting and kin; OpenGraph `og:type` article): its content is prose.
    pub declares_article: bool,
    /// Whether the page declares itself a list of things (schema.org ItemList, CollectionPage,
    /// SearchResultsPage, …): its items are its content, whatever `og:type` a CMS writes.
    pub declares_list: bool,
    /// Whether the page's URL names a forum thread by its engine's path convention
    /// ([`url::names_thread`]); not a model column, read by the `thread-url` rule.
    pub thread_url: bool,
    /// Per node, its markup key ([`markup::markup_keys`]): elements sharing one are twins.
    pub keys: Vec<u64>,
    /// Per node, what its attributes tell the metadata ([`bylines`] bits: a byline or
    /// dateline class, an `itemprop`); 0 for other nodes.
    pub marks: Vec<u8>,
    /// The feature rows.
    pub matrix: FeatureMatrix,
}

/// Which elements get a feature row; the others read as a row of zeros.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Rows {
    /// Every element.
    All,
    /// The elements segmentation can score with this `min_area` (see
    /// [`crate::segment::scored_mask`]): the body (or the first element without one) and the
    /// visible elements of at least `min_area` px². The pipeline reads no other row, and
    /// about half a page's elements are smaller, so their rows are not worth filling.
    Scorable(f32),
}

/// Computes every element's features.
///
/// # Complexity
/// O(n + t) time for n nodes and t bytes of text; O(n) space (one row of `COUNT` floats and
/// one [`Counts`] per node).
pub fn compute(dom: &Dom, url: Option<&str>, opts: &FeatureOptions) -> PageFeatures {
    let visible = visibility(dom);
    let layout = geometry::layout(dom, &visible, &opts.layout);
    compute_with_layout(dom, url, visible, layout, Rows::All)
}

/// Like [`compute`] within `deadline`, checked after visibility, layout and the features (the
/// error names the stage that ran over), with `boxes` (browser-rendered, keyed by node path, see
/// [`geometry::apply_boxes`]) over the estimated boxes when given: the `features` command's
/// stage.
///
/// # Complexity
/// That of [`compute`], plus O(n) for the boxes.
pub fn compute_within(
    dom: &Dom,
    url: Option<&str>,
    opts: &FeatureOptions,
    boxes: Option<&std::collections::HashMap<String, Rect>>,
    deadline: &crate::config::Deadline,
) -> crate::Result<PageFeatures> {
    let visible = visibility(dom);
    deadline.check("visibility")?;
    let mut layout = geometry::layout(dom, &visible, &opts.layout);
    deadline.check("layout")?;
    if let Some(b) = boxes {
        geometry::apply_boxes(dom, &mut layout, b);
    }
    let pf = compute_with_layout(dom, url, visible, layout, Rows::All);
    deadline.check("features")?;
    Ok(pf)
}

/// Like [`compute`], with boxes computed or read elsewhere (see [`geometry::apply_boxes`]).
pub fn compute_with_layout(
    dom: &Dom,
    url: Option<&str>,
    visible: Vec<bool>,
    layout: Layout,
    rows: Rows,
) -> PageFeatures {
    let n = dom.len();
    let blocks = blocks::segment(dom, &visible);
    let block_content = BlockClassifier.classify(&blocks.blocks);
    let (share, content_words) = blocks::content_share_and_words(dom, &blocks, &block_content);
    let title = TitleWords::new(dom.title().unwrap_or(""));
    let site = url.and_then(url::site_of);
    // The URL columns: −1 each without a URL (a page read from a file).
    let url_columns = match url.and_then(url::path_shape) {
        Some(shape) => [
            f32::from(u8::from(url.is_some_and(url::names_thread))),
            f32::from(u8::from(shape.dated)),
            shape.slug_words as f32,
            shape.depth as f32,
        ],
        None => [-1.0; 4],
    };
    let counts = count(dom, &visible, &title, site.as_deref());
    let subtree_bytes = dom.subtree_bytes();

    // Blocks attributed to their element, summed bottom-up: a node's wrapped-line totals.
    let mut wrapped = vec![(0u32, 0u32); n];
    let mut first_block = vec![NONE; n];
    let mut last_block = vec![NONE; n];
    for (k, b) in blocks.blocks.iter().enumerate() {
        let e = b.element as usize;
        wrapped[e].0 += b.num_words_in_wrapped_lines;
        wrapped[e].1 += b.num_wrapped_lines;
        if first_block[e] == NONE {
            first_block[e] = k as u32;
        }
        last_block[e] = k as u32;
    }
    for i in (1..n).rev() {
        let p = dom.node(i).parent as usize;
        wrapped[p].0 += wrapped[i].0;
        wrapped[p].1 += wrapped[i].1;
    }

    let ClassGroups {
        own: cls,
        inherited: cls_in,
        in_main,
        main_landmark,
        declared,
        marks,
    } = class_groups(dom);
    // Content words under the topmost comment-region nodes, each counted once.
    let comment_words: u32 = (1..n)
        .filter(|&i| {
            let p = dom.node(i).parent as usize;
            cls_in[i] & COMMENT_GROUP_BIT != 0 && cls_in[p] & COMMENT_GROUP_BIT == 0
        })
        .map(|i| content_words[i])
        .sum();
    let outside_comments = content_words[0].saturating_sub(comment_words) as f32;
    let runs = sibling_runs(dom);
    let ctx = Context::new(dom, &counts, &content_words);
    let keys = markup::markup_keys(dom);
    let signals = markup::Signals::new(
        dom,
        &visible,
        &counts,
        &blocks,
        &keys,
        ctx.main,
        main_landmark,
    );
    // Words before each node in document order: a running total over text nodes.
    let mut words_before = vec![0u32; n];
    let mut seen = 0u32;
    for i in 0..n {
        words_before[i] = seen;
        if dom.node(i).kind == Kind::Text {
            seen += counts[i].words;
        }
    }
    let page = layout.page;
    let (pw, ph) = (page.w.max(1.0), page.h.max(1.0));
    let page_area = pw * ph;
    // Only elements are scored or written out: other nodes get no row (they read as zeros).
    let root = scoring_root(dom);
    let has_row = |i: usize| match rows {
        Rows::All => dom.node(i).kind == Kind::Element,
        Rows::Scorable(min_area) => {
            i == root && dom.node(i).kind == Kind::Element
                || is_scorable(dom, &visible, &layout.rects, min_area, i)
        }
    };
    // Rows are numbered first, so the matrix is allocated once, at its size.
    let mut row_of = vec![NONE; n];
    let mut rows_used = 0u32;
    for (i, r) in row_of.iter_mut().enumerate() {
        if has_row(i) {
            *r = rows_used;
            rows_used += 1;
        }
    }
    let mut data = Vec::with_capacity(rows_used as usize * COUNT);
    for i in 0..n {
        if row_of[i] == NONE {
            continue;
        }
        // Rows are appended in node order, which is row order: each row is zeroed as it is
        // written, not the whole matrix first in a separate pass over memory.
        let start = data.len();
        data.extend_from_slice(&ZERO_ROW);
        // A fixed-size row: its constant column indices are checked at compile time (the
        // tail is the COUNT values just pushed, so the conversion always succeeds).
        let Ok(row) = <&mut [f32; COUNT]>::try_from(&mut data[start..]) else {
            continue;
        };
        let r = layout.rects[i];
        let c = &counts[i];
        row[f::MARGIN_LEFT] = clamp01(r.x / pw);
        row[f::MARGIN_RIGHT] = clamp01((pw - r.x - r.w) / pw);
        row[f::MARGIN_TOP] = clamp01(r.y / ph);
        row[f::MARGIN_BOTTOM] = clamp01((ph - r.y - r.h) / ph);
        let (cx, cy) = r.center();
        row[f::CENTER_DISTANCE] = ((cx / pw - 0.5).powi(2) + (cy / ph - 0.5).powi(2)).sqrt();
        row[f::AREA] = r.area();
        row[f::AREA_FRACTION] = clamp01(r.area() / page_area);
        let words = c.words as f32;
        row[f::LINKS_PER_WORD] = ratio(c.links as f32, words);
        row[f::ANCHOR_TEXT_SHARE] = ratio(c.linked_chars as f32, c.chars as f32);
        row[f::ANCHOR_SIZE] = ratio(c.linked_words as f32, c.links as f32);
        row[f::INTRA_SITE_LINKS] = ratio(c.intra_links as f32, c.judged_links as f32);
        row[f::CHARS_PER_BYTE] = ratio(c.chars as f32, subtree_bytes[i] as f32);
        row[f::TITLE_OVERLAP] = ratio(c.title_mask.count_ones() as f32, title.len as f32);
        row[f::NUM_WORDS] = words;
        row[f::LINK_DENSITY] = ratio(c.linked_words as f32, words);
        row[f::TEXT_DENSITY] = if wrapped[i].1 > 0 {
            wrapped[i].0 as f32 / wrapped[i].1 as f32
        } else {
            // Inside one block (a link in a paragraph): its words fit the block's lines.
            words
        };
        row[f::AVG_WORD_LENGTH] = ratio(c.word_chars as f32, words);
        row[f::AVG_SENTENCE_LENGTH] = if c.words == 0 {
            0.0
        } else {
            words / c.sentences.max(1) as f32
        };
        row[f::CAPITALIZED_SHARE] = ratio(c.capitalized as f32, words);
        if first_block[i] != NONE {
            row[f::IS_LEAF_BLOCK] = 1.0;
            let (fb, lb) = (first_block[i] as usize, last_block[i] as usize);
            if let Some(p) = fb.checked_sub(1).map(|k| &blocks.blocks[k]) {
                row[f::PREV_NUM_WORDS] = p.num_words as f32;
                row[f::PREV_LINK_DENSITY] = p.link_density() as f32;
                row[f::PREV_TEXT_DENSITY] = p.text_density() as f32;
            }
            if let Some(nx) = blocks.blocks.get(lb + 1) {
                row[f::NEXT_NUM_WORDS] = nx.num_words as f32;
                row[f::NEXT_LINK_DENSITY] = nx.link_density() as f32;
                row[f::NEXT_TEXT_DENSITY] = nx.text_density() as f32;
            }
        }
        row[f::BLOCK_CONTENT_SHARE] = share[i];
        let groups = cls[i];
        let inherited = cls_in[i];
        for g in 0..CLS_GROUPS {
            row[f::CLS_NAV + g] = ((groups >> g) & 1) as f32;
        }
        for (k, g) in INHERITED_GROUPS.iter().enumerate() {
            row[f::IN_NAV + k] = ((inherited >> g) & 1) as f32;
        }
        row[f::IN_LANDMARK_MAIN] = in_main[i] as u8 as f32;
        let page_words = counts[0].words as f32;
        row[f::DOC_POSITION] = ratio(words_before[i] as f32, page_words);
        row[f::TEXT_SHARE] = ratio(words, page_words);
        row[f::DEPTH] = dom.node(i).depth as f32;
        row[f::SIBLING_RUN] = runs[i].0 as f32;
        row[f::SAME_TAG_SIBLINGS] = runs[i].1 as f32;
        row[f::STOP_WORD_SHARE] = ratio(c.stop_words as f32, words);
        row[f::PUNCTUATION_DENSITY] = ratio(c.punctuation as f32, words);
        row[f::HEADING_WORD_SHARE] = ratio(c.heading_words as f32, words);
        row[f::PARAGRAPHS_PER_100_WORDS] = ratio(100.0 * c.paragraphs as f32, words);
        row[f::LIST_ITEM_WORD_SHARE] = ratio(c.list_words as f32, words);
        row[f::IMAGES_PER_100_WORDS] = if c.words == 0 {
            c.images as f32
        } else {
            100.0 * c.images as f32 / words
        };
        row[f::FORM_CONTROLS] = c.controls as f32;
        if i > 0 {
            let pc = &counts[dom.node(i).parent as usize];
            row[f::PARENT_WORD_SHARE] = ratio(words, pc.words as f32);
            row[f::PARENT_LINK_DENSITY] = ratio(pc.linked_words as f32, pc.words as f32);
        }
        let whole = &counts[0];
        row[f::PAGE_WORDS] = page_words;
        row[f::PAGE_LINK_DENSITY] = ratio(whole.linked_words as f32, page_words);
        row[f::PAGE_LIST_ITEM_SHARE] = ratio(whole.list_words as f32, page_words);
        row[f::PAGE_PARAGRAPHS_PER_100_WORDS] = ratio(100.0 * whole.paragraphs as f32, page_words);
        row[f::PAGE_WORDS_OUTSIDE_COMMENTS] = outside_comments;
        ctx.write(dom, &counts, &content_words, i, row);
        let bit = |b: u32| (inherited & b != 0) as u8 as f32;
        row[f::IN_GALLERY] = bit(GALLERY_GROUP_BIT);
        row[f::IN_RELATED_LIST] = bit(RELATED_GROUP_BIT);
        row[f::IN_REVIEW] = bit(REVIEW_GROUP_BIT);
        row[f::IN_ASIDE_LANDMARK] = bit(ASIDE_LANDMARK_BIT);
        row[f::IN_PAGE_LANDMARK] = bit(PAGE_LANDMARK_BIT);
        row[f::IN_NAV_LANDMARK] = bit(NAV_LANDMARK_BIT);
        row[f::MAIN_START_RELATION] = signals.main_start_relation(dom, i);
        row[f::MAIN_TWIN] = signals.twin[i] as u8 as f32;
        row[f::MAIN_TWINS] = signals.twins as f32;
        row[f::REPEAT_SHARE] = ratio(signals.repeat_words[i] as f32, words);
        for (col, bit) in DECLARED_COLUMNS {
            row[col] = f32::from(u8::from(declared & bit != 0));
        }
        for (col, v) in URL_COLUMNS.into_iter().zip(url_columns) {
            row[col] = v;
        }
    }
    PageFeatures {
        visible,
        layout,
        blocks,
        block_content,
        groups_in: cls_in,
        counts,
        subtree_bytes,
        title_words: title.len,
        title_heading: ctx.heading,
        main_landmark,
        main_start: signals.main_start,
        // Read by the rules only, so computed here rather than among the columns' signals.
        main_extent: signals
            .main_start
            .map_or(0..0, |s| markup::main_extent(dom, s, main_landmark)),
        main_region: ctx.main,
        skip_links: signals.skip_links,
        declares_discussion: declared & names::declared::DISCUSSION != 0,
        declares_product: declared & (names::declared::PRODUCT | names::declared::ARTICLE)
            == names::declared::PRODUCT,
        declares_article: declared & names::declared::ARTICLE != 0,
        declares_list: declared & names::declared::LIST != 0,
        thread_url: url.is_some_and(url::names_thread),
        keys,
        marks,
        matrix: FeatureMatrix { data, row_of },
    }
}

/// What the context columns need beyond the node's own counts: each node's largest element
/// sibling, and the page's main region.
struct Context {
    /// Per node, the most words of any element child (0 without element children).
    largest_child: Vec<u32>,
    /// The main region: the deepest node holding at least 2/3 of the page's content-block
    /// words, found by descending from the document into the child that holds them (at most
    /// one child can); `None` on a page without content blocks.
    main: Option<usize>,
    /// The title heading: the visible h1–h3 whose subtree holds the most distinct `<title>`
    /// words (at least one); h1 before h2 before h3, then the first in document order.
    heading: Option<usize>,
}

impl Context {
    /// # Complexity
    /// O(n): one pass over the nodes (largest children, the title heading), and one descent.
    fn new(dom: &Dom, counts: &[Counts], content_words: &[u32]) -> Context {
        let n = dom.len();
        let mut largest_child = vec![0u32; n];
        // The title heading in the same pass: (overlap, −level) is maximised, the first node
        // winning ties (the document, node 0, is never a heading).
        let mut heading = None;
        let mut best = (0u32, i32::MIN);
        for (i, c) in counts.iter().enumerate().skip(1) {
            let node = dom.node(i);
            if node.kind != Kind::Element {
                continue;
            }
            let p = node.parent as usize;
            largest_child[p] = largest_child[p].max(c.words);
            let level = match node.tag {
                Tag::H1 => 1,
                Tag::H2 => 2,
                Tag::H3 => 3,
                _ => continue,
            };
            let key = (c.title_mask.count_ones(), -level);
            if key.0 > 0 && key > best {
                best = key;
                heading = Some(i);
            }
        }
        let total = content_words.first().copied().unwrap_or(0) as u64;
        let mut main = None;
        if total > 0 {
            let mut cur = 0;
            // 3·m ≥ 2·total: at most one child can hold two thirds, so the descent is unique.
            while let Some(c) = dom.children(cur).find(|&c| {
                dom.node(c).kind == Kind::Element && 3 * content_words[c] as u64 >= 2 * total
            }) {
                cur = c;
            }
            main = Some(cur);
        }
        Context {
            largest_child,
            main,
            heading,
        }
    }

    /// Writes node `i`'s context columns. O(1).
    fn write(
        &self,
        dom: &Dom,
        counts: &[Counts],
        content_words: &[u32],
        i: usize,
        row: &mut [f32; COUNT],
    ) {
        let whole = &counts[0];
        let words = counts[i].words as f32;
        row[f::PARAGRAPH_WORD_SHARE] = ratio(
            counts[i].paragraph_words as f32,
            whole.paragraph_words as f32,
        );
        let p = dom.node(i).parent;
        let largest = if p == NONE {
            counts[i].words
        } else {
            self.largest_child[p as usize]
        };
        row[f::LARGEST_SIBLING_SHARE] = ratio(words, largest as f32);
        if p != NONE {
            let beside = content_words[p as usize] - content_words[i];
            row[f::BESIDE_CONTENT_SHARE] = ratio(beside as f32, content_words[0] as f32);
        }
        if let Some(m) = self.main {
            let end = dom.node(m).end as usize;
            row[f::IN_MAIN_REGION] = (m <= i && i < end) as u8 as f32;
            row[f::ABOVE_MAIN_REGION] = (i < m && m < dom.node(i).end as usize) as u8 as f32;
            row[f::MAIN_REGION_SHARE] = ratio(counts[m].words as f32, whole.words as f32);
        }
        if let Some(h) = self.heading {
            let (h_end, i_end) = (dom.node(h).end as usize, dom.node(i).end as usize);
            row[f::TITLE_HEADING_RELATION] = if h <= i && i < h_end {
                1.0
            } else if i < h && h < i_end {
                2.0
            } else {
                0.0
            };
        } else {
            row[f::TITLE_HEADING_RELATION] = -1.0;
        }
    }
}

fn ratio(a: f32, b: f32) -> f32 {
    if b > 0.0 {
        a / b
    } else {
        0.0
    }
}

fn clamp01(v: f32) -> f32 {
    if v.is_finite() {
        v.clamp(0.0, 1.0)
    } else {
        0.0
    }
}

/// Whether node `i` is big enough to be scored: a visible element of at least `min_area`
/// px² (the scored tree keeps those whose parent is scored too, see [`crate::segment::scored_mask`]). O(1).
pub(crate) fn is_scorable(
    dom: &Dom,
    visible: &[bool],
    rects: &[Rect],
    min_area: f32,
    i: usize,
) -> bool {
    dom.node(i).kind == Kind::Element && visible[i] && rects[i].area() >= min_area
}

/// The root of the scored tree: the body, else the first element, else the document. O(n).
pub fn scoring_root(dom: &Dom) -> usize {
    dom.body()
        .or_else(|| (0..dom.len()).find(|&i| dom.node(i).kind == Kind::Element))
        .unwrap_or(0)
}

/// Per node: the longest run of consecutive same-tag element children, and the number of
/// element siblings (itself included) with its tag. Two passes over each child list.
///
/// # Complexity
/// O(n) with a stamp array over tags (no hashing, no per-node allocation).
fn sibling_runs(dom: &Dom) -> Vec<(u32, u32)> {
    let n = dom.len();
    let mut out = vec![(0u32, 1u32); n];
    let slots = crate::dom::tag::NAMES.len() + 1;
    let mut stamp = vec![(u32::MAX, 0u32); slots];
    let slot = |t: Tag| (t.0 as usize).min(slots - 1);
    for i in 0..n {
        if dom.node(i).first_child == NONE {
            continue;
        }
        let (mut best, mut run, mut last) = (0u32, 0u32, None);
        for c in dom.children(i) {
            let node = dom.node(c);
            if node.kind != Kind::Element {
                continue;
            }
            run = if last == Some(node.tag) { run + 1 } else { 1 };
            last = Some(node.tag);
            best = best.max(run);
            let s = &mut stamp[slot(node.tag)];
            if s.0 != i as u32 {
                *s = (i as u32, 0);
            }
            s.1 += 1;
        }
        out[i].0 = best;
        for c in dom.children(i) {
            let node = dom.node(c);
            if node.kind == Kind::Element {
                out[c].1 = stamp[slot(node.tag)].1;
            }
        }
    }
    out
}
