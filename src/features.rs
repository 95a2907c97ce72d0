//! Per-node features: the PageLevel paper's most discriminative ones plus boilerpipe's
//! shallow-text features, for every node in one bottom-up pass.
//!
//! [`compute`] runs the stages a node's features depend on (visibility, geometry, blocks and
//! the block classifier), then one top-down pass (inside-a-link flags), one scan over the
//! visible text, one bottom-up pass that sums the counts into every ancestor, and one pass that
//! writes the feature rows. Everything is O(n + text length), with no per-node allocation.

use crate::blocks::{self, BlockClassifier, Blocks};
use crate::dom::{visibility, Dom, Kind, Tag, NONE};
use crate::geometry::{self, Layout, LayoutOptions, Rect};
use crate::text::is_word_char;
use crate::url;
use rustc_hash::FxHashMap;

/// A table of named columns: a module of index constants, their count, names and one-line docs,
/// from one list (the feature rows here, the stacked features in [`crate::stack`]).
macro_rules! columns {
    (
        #[doc = $mod_doc:literal] mod $module:ident;
        #[doc = $count_doc:literal] $count:ident;
        #[doc = $names_doc:literal] $names:ident;
        #[doc = $docs_doc:literal] $docs:ident;
        $($konst:ident = $name:literal : $doc:literal,)*
    ) => {
        #[doc = $mod_doc]
        pub mod $module {
            #[allow(non_camel_case_types, clippy::upper_case_acronyms, dead_code)]
            #[repr(usize)]
            enum Index { $($konst,)* }
            $(#[doc = $doc] pub const $konst: usize = Index::$konst as usize;)*
        }
        #[doc = $count_doc]
        pub const $count: usize = [$($name,)*].len();
        #[doc = $names_doc]
        pub const $names: [&str; $count] = [$($name,)*];
        #[doc = $docs_doc]
        pub const $docs: [&str; $count] = [$($doc,)*];
    };
}
pub(crate) use columns;

columns! {
    /// Feature indices into a row of [`FeatureMatrix`].
    mod f;
    /// Number of features per node.
    COUNT;
    /// Feature names, as printed by `pagelevel features`.
    NAMES;
    /// One line per feature: what it computes, its range and its empty case.
    DOCS;
    MARGIN_LEFT = "margin_left": "Box's left edge / page width: closeness to the left margin, 0..1.",
    MARGIN_RIGHT = "margin_right": "Gap between the box's right edge and the page's / page width, 0..1.",
    MARGIN_TOP = "margin_top": "Box's top edge / page height: closeness to the top, 0..1.",
    MARGIN_BOTTOM = "margin_bottom": "Gap between the box's bottom and the page's / page height, 0..1.",
    CENTER_DISTANCE = "center_distance": "Distance of the box centre from the page centre, each axis normalised by the page size, 0..~0.71.",
    AREA = "area": "Box area in px² (0 for hidden nodes).",
    AREA_FRACTION = "area_fraction": "Box area / page area, 0..1.",
    LINKS_PER_WORD = "links_per_word": "Links (`<a href>`) in the subtree per visible word; 0 with no words.",
    ANCHOR_TEXT_SHARE = "anchor_text_share": "Share of the subtree's visible characters inside links, 0..1; 0 with no text.",
    ANCHOR_SIZE = "anchor_size": "Average words per link in the subtree; 0 with no links.",
    INTRA_SITE_LINKS = "intra_site_links": "Share of the subtree's web links that stay on the page's registrable domain (relative links do; with no URL only relative ones count), 0..1; 0 with no links.",
    CHARS_PER_BYTE = "chars_per_byte": "Visible non-space characters per byte of the subtree's HTML, 0..~1.",
    TITLE_OVERLAP = "title_overlap": "Share of the `<title>`'s distinct words (stop words removed) that occur in the subtree, 0..1; 0 without a title.",
    NUM_WORDS = "num_words": "Visible words in the subtree (boilerpipe numWords).",
    LINK_DENSITY = "link_density": "Words inside links / words, 0..1 (boilerpipe linkDensity); 0 with no words.",
    TEXT_DENSITY = "text_density": "Kohlschütter's text density: words per 80-column wrapped line over the subtree's blocks (last partial line excluded when a block wraps); 0 with no words.",
    AVG_WORD_LENGTH = "avg_word_length": "Mean word length in characters; 0 with no words.",
    AVG_SENTENCE_LENGTH = "avg_sentence_length": "Words per sentence (., ! or ? ends one; text without an end counts as one); 0 with no words.",
    CAPITALIZED_SHARE = "capitalized_share": "Share of words starting with an upper-case letter, 0..1; 0 with no words.",
    IS_LEAF_BLOCK = "is_leaf_block": "1 when the node is the element of one of boilerpipe's atomic text blocks, else 0.",
    PREV_NUM_WORDS = "prev_num_words": "Leaf blocks: words of the previous block; 0 otherwise or at the start.",
    PREV_LINK_DENSITY = "prev_link_density": "Leaf blocks: link density of the previous block; 0 otherwise.",
    PREV_TEXT_DENSITY = "prev_text_density": "Leaf blocks: text density of the previous block; 0 otherwise.",
    NEXT_NUM_WORDS = "next_num_words": "Leaf blocks: words of the next block; 0 otherwise or at the end.",
    NEXT_LINK_DENSITY = "next_link_density": "Leaf blocks: link density of the next block; 0 otherwise.",
    NEXT_TEXT_DENSITY = "next_text_density": "Leaf blocks: text density of the next block; 0 otherwise.",
    BLOCK_CONTENT_SHARE = "block_content_share": "Share of the subtree's words in blocks the boilerpipe classifier calls content, 0..1; 0 with no words.",
    CLS_NAV = "cls_nav": "1 when the node's tag, role, id or class names navigation (nav, menu, breadcrumb, toolbar), else 0.",
    CLS_HEADER = "cls_header": "1 when tag/role/id/class names a page header (header, masthead, banner, topbar), else 0.",
    CLS_FOOTER = "cls_footer": "1 when tag/role/id/class names a footer (footer, copyright, colophon, contentinfo), else 0.",
    CLS_SIDEBAR = "cls_sidebar": "1 when tag/role/id/class names a sidebar (aside, sidebar, rail, widget, complementary), else 0.",
    CLS_COMMENT = "cls_comment": "1 when id/class names comments (comment, reply, discussion, disqus, respond), else 0.",
    CLS_SHARE = "cls_share": "1 when id/class names sharing (share, social, facebook, twitter, follow), else 0.",
    CLS_RELATED = "cls_related": "1 when id/class names related or promoted links (related, recommend, popular, trending, teaser, promo, more), else 0.",
    CLS_AD = "cls_ad": "1 when id/class names ads (ad, ads, advert, sponsor, dfp, gpt, doubleclick), else 0.",
    CLS_POPUP = "cls_popup": "1 when id/class names overlays (cookie, consent, gdpr, popup, modal, newsletter, subscribe, signup), else 0.",
    CLS_CONTENT = "cls_content": "1 when tag/role/id/class names main content (main, article, content, post, entry, story, body, text), else 0.",
    CLS_META = "cls_meta": "1 when id/class names metadata (author, byline, date, meta, tags, category, caption), else 0.",
    CLS_TITLE = "cls_title": "1 when id/class names a title (title, headline, heading), else 0.",
    CLS_HIDDEN = "cls_hidden": "1 when id/class names screen-reader or skip text (skip, sr-only, visually-hidden, screen-reader), else 0.",
    CLS_PAGER = "cls_pager": "1 when id/class names pagination (pagination, pager, paging, next, prev), else 0.",
    CLS_ACCOUNT = "cls_account": "1 when id/class names search or account controls (search, login, signin, account, cart, basket), else 0.",
    CLS_PRODUCT = "cls_product": "1 when id/class names product or listing items (price, product, item, card, listing, offer), else 0.",
    CLS_FORUM = "cls_forum": "1 when id/class names forum posts (message, thread, postbody, avatar, signature, quote, bbcode), else 0.",
    IN_NAV = "in_nav": "1 when the node or an ancestor has cls_nav, else 0.",
    IN_HEADER = "in_header": "1 when the node or an ancestor has cls_header, else 0.",
    IN_FOOTER = "in_footer": "1 when the node or an ancestor has cls_footer, else 0.",
    IN_SIDEBAR = "in_sidebar": "1 when the node or an ancestor has cls_sidebar, else 0.",
    IN_COMMENT = "in_comment": "1 when the node or an ancestor has cls_comment, else 0.",
    IN_SHARE = "in_share": "1 when the node or an ancestor has cls_share, else 0.",
    IN_RELATED = "in_related": "1 when the node or an ancestor has cls_related, else 0.",
    IN_AD = "in_ad": "1 when the node or an ancestor has cls_ad, else 0.",
    IN_POPUP = "in_popup": "1 when the node or an ancestor has cls_popup, else 0.",
    IN_CONTENT = "in_content": "1 when the node or an ancestor has cls_content, else 0.",
    IN_META = "in_meta": "1 when the node or an ancestor has cls_meta, else 0.",
    IN_FORUM = "in_forum": "1 when the node or an ancestor has cls_forum, else 0.",
    IN_PRODUCT = "in_product": "1 when the node or an ancestor has cls_product, else 0.",
    IN_LANDMARK_MAIN = "in_landmark_main": "1 inside a `<main>` or `<article>` element or role=main/article, else 0.",
    DOC_POSITION = "doc_position": "Words before the node's first word / page words, 0..1 (position in document order); 0 on a page without words.",
    TEXT_SHARE = "text_share": "The subtree's words / the page's words, 0..1; 0 on a page without words.",
    DEPTH = "depth": "Depth below the document root, in elements.",
    SIBLING_RUN = "sibling_run": "Longest run of consecutive same-tag element siblings among the node's children (lists, grids), 0 with no element children.",
    SAME_TAG_SIBLINGS = "same_tag_siblings": "Element siblings sharing the node's tag (including itself), 1 for an only child.",
    STOP_WORD_SHARE = "stop_word_share": "Share of the subtree's words that are common function words (the, and, of, …), 0..1; 0 with no words.",
    PUNCTUATION_DENSITY = "punctuation_density": "Sentence punctuation (. , ; : ! ?) per word, 0 with no words.",
    HEADING_WORD_SHARE = "heading_word_share": "Share of the subtree's words inside h1–h6, 0..1; 0 with no words.",
    PARAGRAPHS_PER_100_WORDS = "paragraphs_per_100_words": "`<p>` elements in the subtree per 100 words; 0 with no words.",
    LIST_ITEM_WORD_SHARE = "list_item_word_share": "Share of the subtree's words inside `<li>`, 0..1; 0 with no words.",
    IMAGES_PER_100_WORDS = "images_per_100_words": "Visible <img> elements in the subtree per 100 words (images when no words: the count itself).",
    FORM_CONTROLS = "form_controls": "Form controls (input, button, select, textarea) in the subtree, log-scaled by the model.",
    PARENT_WORD_SHARE = "parent_word_share": "The subtree's words / its parent's words, 0..1; 0 when the parent has no words.",
    PARENT_LINK_DENSITY = "parent_link_density": "The parent's link density (words in links / words), 0..1; 0 with no words or no parent.",
    PAGE_WORDS = "page_words": "Visible words of the whole page (the same on every node: lets trees condition on the page).",
    PAGE_LINK_DENSITY = "page_link_density": "The whole page's link density, 0..1 (link-heavy listings and hubs against articles).",
    PAGE_LIST_ITEM_SHARE = "page_list_item_share": "Share of the page's words inside `<li>`, 0..1.",
    PAGE_PARAGRAPHS_PER_100_WORDS = "page_paragraphs_per_100_words": "`<p>` elements of the page per 100 page words; 0 on a page without words.",
    PAGE_WORDS_OUTSIDE_COMMENTS = "page_words_outside_comments": "Content-block words of the page outside comment regions (in_comment), the same on every node: an article's body beside its comment thread, next to nothing on a forum whose posts are its comments.",
    PARAGRAPH_WORD_SHARE = "paragraph_word_share": "Context: the subtree's words inside `<p>` / the page's words inside `<p>`, 0..1; 0 when the page has none.",
    LARGEST_SIBLING_SHARE = "largest_sibling_share": "Context: the subtree's words / the most words of any element child of its parent (itself included), 0..1; 0 with no words.",
    BESIDE_CONTENT_SHARE = "beside_content_share": "Context: words of boilerpipe content blocks under the parent but outside the node / the page's content-block words, 0..1; 0 when the page has none.",
    IN_MAIN_REGION = "in_main_region": "Context: 1 for the main region (the deepest node holding at least 2/3 of the page's content-block words) and its descendants, else 0.",
    ABOVE_MAIN_REGION = "above_main_region": "Context: 1 for the proper ancestors of the main region, else 0.",
    MAIN_REGION_SHARE = "main_region_share": "Context: the main region's words / the page's words (the same on every node), 0..1; 0 without a main region.",
    TITLE_HEADING_RELATION = "title_heading_relation": "Context: 1 for the title heading (the visible h1–h3 sharing the most distinct words with `<title>`; h1 before h2 before h3, then document order, on ties) and its descendants, 2 for its proper ancestors, else 0; −1 on a page without one.",
}

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
    pub fn from_data(mut data: Vec<f32>) -> Self {
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
pub const ALL_COUNT: usize = f::PAGE_WORDS_OUTSIDE_COMMENTS + 1;

/// Counts summed over a node's subtree (visible text only).
#[derive(Debug, Clone, Copy, Default)]
pub struct Counts {
    /// Words.
    pub words: u32,
    /// Words inside links.
    pub linked_words: u32,
    /// Non-space characters.
    pub chars: u32,
    /// Non-space characters inside links.
    pub linked_chars: u32,
    /// `<a href>` elements.
    pub links: u32,
    /// Links judged intra-site.
    pub intra_links: u32,
    /// Links that could be judged (web links).
    pub judged_links: u32,
    /// Words starting upper-case.
    pub capitalized: u32,
    /// Characters in words.
    pub word_chars: u32,
    /// Sentence ends.
    pub sentences: u32,
    /// Bit k set when title word k occurs (up to 64 title words).
    pub title_mask: u64,
    /// Common function words.
    pub stop_words: u32,
    /// Sentence punctuation marks.
    pub punctuation: u32,
    /// Words inside h1–h6.
    pub heading_words: u32,
    /// Words inside li.
    pub list_words: u32,
    /// Words inside p.
    pub paragraph_words: u32,
    /// `<p>` elements.
    pub paragraphs: u32,
    /// Visible `<img>` elements.
    pub images: u32,
    /// Form controls.
    pub controls: u32,
}

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
    /// Per node, the class-name groups of the node and its ancestors as bits (the `in_*`
    /// features; [`group_bit`] of a `cls_*` column, [`COMMENT_GROUP_BIT`],
    /// [`INLINE_CHROME_BITS`], and the decoding-only [`GALLERY_GROUP_BIT`],
    /// [`RELATED_GROUP_BIT`], [`ASIDE_LANDMARK_BIT`], [`PAGE_LANDMARK_BIT`] and
    /// [`NAV_LANDMARK_BIT`]).
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
    // Rows are numbered first, so the matrix is allocated (and zeroed) once, at its size.
    let mut row_of = vec![NONE; n];
    let mut rows_used = 0u32;
    for (i, r) in row_of.iter_mut().enumerate() {
        if has_row(i) {
            *r = rows_used;
            rows_used += 1;
        }
    }
    let mut data = vec![0.0f32; rows_used as usize * COUNT];
    for i in 0..n {
        if row_of[i] == NONE {
            continue;
        }
        let start = row_of[i] as usize * COUNT;
        // A fixed-size row: its constant column indices are checked at compile time.
        let row: &mut [f32; COUNT] = (&mut data[start..start + COUNT])
            .try_into()
            .expect("a row is COUNT long");
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

/// Per-node subtree counts: a top-down pass for "inside a link", a scan of each visible text
/// node, and a bottom-up pass summing into parents.
///
/// # Complexity
/// O(n + t).
fn count(dom: &Dom, visible: &[bool], title: &TitleWords, site: Option<&str>) -> Vec<Counts> {
    let n = dom.len();
    let mut in_link = vec![false; n];
    // Bit 0: inside a heading; bit 1: inside a list item; bit 2: inside a paragraph.
    let mut inside = vec![0u8; n];
    let mut counts = vec![Counts::default(); n];
    for i in 1..n {
        let node = dom.node(i);
        let p = node.parent as usize;
        let is_link = node.kind == Kind::Element && node.tag == Tag::A && !node.foreign;
        in_link[i] = in_link[p] || is_link;
        inside[i] = inside[p]
            | (node.kind == Kind::Element && node.tag.is_heading()) as u8
            | (((node.kind == Kind::Element && node.tag == Tag::LI) as u8) << 1)
            | (((node.kind == Kind::Element && node.tag == Tag::P && !node.foreign) as u8) << 2);
        if !visible[i] {
            continue;
        }
        if node.kind == Kind::Element && !node.foreign {
            let c = &mut counts[i];
            match node.tag {
                Tag::P => c.paragraphs = 1,
                Tag::IMG => c.images = 1,
                Tag::INPUT | Tag::BUTTON | Tag::SELECT | Tag::TEXTAREA => c.controls = 1,
                _ => {}
            }
        }
        match node.kind {
            Kind::Element if is_link => {
                if let Some(href) = dom.attr(i, "href") {
                    let c = &mut counts[i];
                    c.links = 1;
                    if let Some(intra) = url::is_intra_site(href, site) {
                        c.judged_links = 1;
                        c.intra_links = intra as u32;
                    }
                }
            }
            Kind::Text => {
                let c = &mut counts[i];
                scan_text(dom.text(i), title, c);
                if in_link[i] {
                    c.linked_words = c.words;
                    c.linked_chars = c.chars;
                }
                if inside[i] & 1 != 0 {
                    c.heading_words = c.words;
                }
                if inside[i] & 2 != 0 {
                    c.list_words = c.words;
                }
                if inside[i] & 4 != 0 {
                    c.paragraph_words = c.words;
                }
            }
            _ => {}
        }
    }
    for i in (1..n).rev() {
        let p = dom.node(i).parent as usize;
        let c = counts[i];
        let pc = &mut counts[p];
        pc.words += c.words;
        pc.linked_words += c.linked_words;
        pc.chars += c.chars;
        pc.linked_chars += c.linked_chars;
        pc.links += c.links;
        pc.intra_links += c.intra_links;
        pc.judged_links += c.judged_links;
        pc.capitalized += c.capitalized;
        pc.word_chars += c.word_chars;
        pc.sentences += c.sentences;
        pc.title_mask |= c.title_mask;
        pc.stop_words += c.stop_words;
        pc.punctuation += c.punctuation;
        pc.heading_words += c.heading_words;
        pc.list_words += c.list_words;
        pc.paragraph_words += c.paragraph_words;
        pc.paragraphs += c.paragraphs;
        pc.images += c.images;
        pc.controls += c.controls;
    }
    counts
}

/// One pass over a text: words, characters, capitals, sentence ends and title words. ASCII
/// bytes are classified by table ([`ASCII_CLASS`]); other characters are decoded. O(len).
fn scan_text(s: &str, title: &TitleWords, c: &mut Counts) {
    let b = s.as_bytes();
    let mut i = 0;
    let mut in_word = false;
    let mut word_len = 0u32;
    let mut h = FNV_OFFSET;
    while i < b.len() {
        let (ch, len) = crate::text::char_at(s, i);
        i += len;
        let class = if len == 1 {
            ASCII_CLASS[ch as usize]
        } else {
            class_of(ch)
        };
        let is_w = class & WORD != 0;
        if is_w {
            if !in_word {
                c.words += 1;
                c.capitalized += ch.is_uppercase() as u32;
                word_len = 0;
                h = FNV_OFFSET;
            }
            word_len += 1;
            h = fold_lower(h, ch);
            // The rest of an ASCII word at once: letters, digits and `_` are neither space nor
            // punctuation, so only the length, the hash and the characters change.
            let mut k = i;
            while k < b.len() && b[k] < 0x80 && ASCII_CLASS[b[k] as usize] & WORD != 0 {
                h = (h ^ b[k].to_ascii_lowercase() as u64).wrapping_mul(FNV_PRIME);
                k += 1;
            }
            word_len += (k - i) as u32;
            c.chars += (k - i) as u32;
            i = k;
        } else if in_word {
            c.word_chars += word_len;
            c.title_mask |= title.bit(h);
            c.stop_words += is_stop_word(word_len, h) as u32;
        }
        c.sentences += (class & SENTENCE_END != 0 && in_word) as u32;
        c.punctuation += (class & PUNCTUATION != 0) as u32;
        c.chars += (class & SPACE == 0) as u32;
        in_word = is_w;
    }
    if in_word {
        c.word_chars += word_len;
        c.title_mask |= title.bit(h);
        c.stop_words += is_stop_word(word_len, h) as u32;
    }
}

/// Character classes of [`scan_text`], as bits.
const WORD: u8 = 1;
const SPACE: u8 = 2;
const PUNCTUATION: u8 = 4;
const SENTENCE_END: u8 = 8;

/// The classes of one character: a word character, white space, punctuation
/// (`. , ; : ! ?` and CJK `。，、`) and sentence ends (`. ! ?` and CJK `。！？`).
fn class_of(ch: char) -> u8 {
    let mut k = 0;
    if is_word_char(ch) {
        k |= WORD;
    }
    if ch.is_whitespace() {
        k |= SPACE;
    }
    if matches!(ch, '.' | ',' | ';' | ':' | '!' | '?' | '。' | '，' | '、') {
        k |= PUNCTUATION;
    }
    if matches!(ch, '.' | '!' | '?' | '。' | '！' | '？') {
        k |= SENTENCE_END;
    }
    k
}

/// [`class_of`] for the ASCII range.
static ASCII_CLASS: [u8; 128] = {
    let mut t = [0u8; 128];
    let mut c = 0;
    while c < 128 {
        let b = c as u8;
        let mut k = 0;
        if b.is_ascii_alphanumeric() || b == b'_' {
            k |= WORD;
        }
        if matches!(b, b' ' | 0x09..=0x0d) {
            k |= SPACE;
        }
        if matches!(b, b'.' | b',' | b';' | b':' | b'!' | b'?') {
            k |= PUNCTUATION;
        }
        if matches!(b, b'.' | b'!' | b'?') {
            k |= SENTENCE_END;
        }
        t[c] = k;
        c += 1;
    }
    t
};

/// Whether a word of `chars` characters whose lowercase hash is `h` is one of
/// [`STOP_WORDS`]: longer words are not, the others look up an open-addressed table of the
/// stop words' hashes. O(1): per word of running text, where a binary search cost ~6 steps.
#[inline]
fn is_stop_word(chars: u32, h: u64) -> bool {
    if chars as usize > STOP_WORD_MAX_CHARS {
        return false;
    }
    let table = stop_table();
    let mut k = h as usize & (STOP_SLOTS - 1);
    // Slots hold hashes, 0 when empty (no stop word hashes to 0: checked when built).
    while table[k] != 0 {
        if table[k] == h {
            return true;
        }
        k = (k + 1) & (STOP_SLOTS - 1);
    }
    false
}

/// Slots of the stop-word table: a power of two, at most a quarter full.
const STOP_SLOTS: usize = 256;

/// The longest stop word, in characters.
const STOP_WORD_MAX_CHARS: usize = {
    let mut max = 0;
    let mut k = 0;
    while k < STOP_WORDS.len() {
        if STOP_WORDS[k].len() > max {
            max = STOP_WORDS[k].len();
        }
        k += 1;
    }
    max
};

/// The stop words' lowercase hashes by linear probing from their low bits.
fn stop_table() -> &'static [u64; STOP_SLOTS] {
    static TABLE: std::sync::OnceLock<[u64; STOP_SLOTS]> = std::sync::OnceLock::new();
    TABLE.get_or_init(|| {
        assert!(STOP_WORDS.len() * 4 <= STOP_SLOTS && STOP_WORDS.iter().all(|w| w.is_ascii()));
        let mut table = [0u64; STOP_SLOTS];
        for w in STOP_WORDS {
            let h = w.chars().fold(FNV_OFFSET, fold_lower);
            assert_ne!(h, 0, "a stop word hashes to the empty slot");
            let mut k = h as usize & (STOP_SLOTS - 1);
            while table[k] != 0 && table[k] != h {
                k = (k + 1) & (STOP_SLOTS - 1);
            }
            table[k] = h;
        }
        table
    })
}

const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
const FNV_PRIME: u64 = 0x0100_0000_01b3;

/// FNV-1a over the lowercase form of `ch`: words hash the same whatever their case.
#[inline]
fn fold_lower(mut h: u64, ch: char) -> u64 {
    let mut push = |c: char| {
        let mut buf = [0u8; 4];
        for &b in c.encode_utf8(&mut buf).as_bytes() {
            h = (h ^ b as u64).wrapping_mul(FNV_PRIME);
        }
    };
    if ch.is_ascii() {
        push(ch.to_ascii_lowercase());
    } else {
        ch.to_lowercase().for_each(&mut push);
    }
    h
}

/// Number of class-name groups (`cls_*` features).
const CLS_GROUPS: usize = f::CLS_FORUM - f::CLS_NAV + 1;
/// The groups with an `in_*` feature, in `in_*` column order (indices into the groups).
const INHERITED_GROUPS: [usize; 13] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 16, 15];

/// The class-group bit of a `cls_*` column (`f::CLS_NAV` ..= `f::CLS_FORUM`).
pub const fn group_bit(cls_column: usize) -> u32 {
    1 << (cls_column - f::CLS_NAV)
}

/// The class-group bit of comment regions (`cls_comment`).
pub const COMMENT_GROUP_BIT: u32 = group_bit(f::CLS_COMMENT);

/// The class-group bits of inline chrome: share bars, screen-reader and skip text, search and
/// account controls (`cls_share`, `cls_hidden`, `cls_account`).
pub const INLINE_CHROME_BITS: u32 =
    group_bit(f::CLS_SHARE) | group_bit(f::CLS_HIDDEN) | group_bit(f::CLS_ACCOUNT);

/// Name groups: the `cls_*` columns' groups, then the groups only decoding reads (no feature
/// column, so the model does not see them): photo galleries and related links.
const NAME_GROUPS: usize = CLS_GROUPS + 2;

/// The group bit of photo galleries and slide shows named `gallery` (decoding only: their
/// captions are not the article's text, see [`crate::rules`]).
pub const GALLERY_GROUP_BIT: u32 = 1 << CLS_GROUPS;

/// The group bit of related-link lists named `related`, `recommend`, `trending`, `popular`,
/// `outbrain` or `taboola` (decoding only: the lists under an article that point elsewhere;
/// `cls_related` also counts `more`, `teaser` and `promo`, which name a collapsed article's
/// rest or its lead on too many pages to leave out).
pub const RELATED_GROUP_BIT: u32 = 1 << (CLS_GROUPS + 1);

/// The bit of HTML's complementary landmark, an `<aside>` or `role=complementary` element, by
/// its tag or role alone (decoding only, see [`crate::rules`]; `cls_sidebar` also counts
/// names such as `sidebar` and `widget`, which hold content on too many pages).
pub const ASIDE_LANDMARK_BIT: u32 = 1 << (CLS_GROUPS + 2);

/// The bit of the page's own banner and content-info landmarks: a `<header>` or `<footer>`
/// outside every `<article>`, `<main>` and `<section>` (inside one it is that section's, as in
/// HTML's landmark mapping), or a `role=banner` or `role=contentinfo` element (decoding only, see
/// [`crate::rules`]).
pub const PAGE_LANDMARK_BIT: u32 = 1 << (CLS_GROUPS + 3);

/// The bit of HTML's navigation landmark by tag or role alone: `<nav>`, `role=navigation`,
/// `role=menu`, `role=menubar` (decoding only: the page's chrome of the all-template fallback,
/// with the other two landmark bits).
pub const NAV_LANDMARK_BIT: u32 = 1 << (CLS_GROUPS + 4);

/// The page's chrome landmarks: navigation, asides, and the page's own header and footer.
pub const CHROME_LANDMARK_BITS: u32 = NAV_LANDMARK_BIT | ASIDE_LANDMARK_BIT | PAGE_LANDMARK_BIT;

/// Marks `<article>`, `<main>` and `<section>` and, inherited, their subtrees (for
/// [`PAGE_LANDMARK_BIT`]); no region.
const SECTIONING_BIT: u32 = 1 << (CLS_GROUPS + 5);

/// The groups that `<html>` and `<body>` classes contribute: content, product and forum
/// name the page's type there, not a region.
const PAGE_TYPE_GROUPS: u32 = (1 << 9) | (1 << 15) | (1 << 16);

/// Name prefixes per group, in `cls_*` column order, then the decoding-only groups. A token of
/// an id or class matches a prefix when it starts with it; prefixes of up to three letters must
/// match a whole token (or the token plus `s`), so `ad` matches `ad`/`ads` but not `address`.
const GROUP_PREFIXES: [&[&str]; NAME_GROUPS] = [
    &["nav", "menu", "breadcrumb", "toolbar", "topnav", "subnav"],
    &["header", "masthead", "banner", "topbar", "branding"],
    &["footer", "copyright", "colophon", "contentinfo", "bottom"],
    &[
        "sidebar",
        "aside",
        "rail",
        "widget",
        "complementary",
        "sidebox",
    ],
    &[
        "comment",
        "reply",
        "replies",
        "discussion",
        "disqus",
        "respond",
    ],
    &[
        "share", "sharing", "social", "facebook", "twitter", "follow",
    ],
    &[
        "related",
        "recommend",
        "popular",
        "trending",
        "teaser",
        "promo",
        "more",
        "readmore",
    ],
    &[
        "ad",
        "ads",
        "advert",
        "sponsor",
        "dfp",
        "gpt",
        "doubleclick",
        "adsense",
        "taboola",
        "outbrain",
    ],
    &[
        "cookie",
        "consent",
        "gdpr",
        "popup",
        "modal",
        "newsletter",
        "subscribe",
        "signup",
        "overlay",
    ],
    &[
        "main", "article", "content", "post", "entry", "story", "body", "text", "prose",
    ],
    &[
        "author",
        "byline",
        "date",
        "meta",
        "tags",
        "category",
        "caption",
        "timestamp",
    ],
    &["title", "headline", "heading"],
    &[
        "skip",
        "sronly",
        "visuallyhidden",
        "screenreader",
        "offscreen",
    ],
    &["pagination", "pager", "paging", "next", "prev"],
    &[
        "search", "login", "signin", "account", "cart", "basket", "checkout",
    ],
    &[
        "price", "product", "item", "card", "listing", "offer", "sku",
    ],
    &[
        "message",
        "thread",
        "postbody",
        "avatar",
        "signature",
        "quote",
        "bbcode",
        "forum",
    ],
    &["gallery"],
    &[
        "related",
        "recommend",
        "trending",
        "popular",
        "outbrain",
        "taboola",
    ],
];

/// What [`class_groups`] finds, per node and for the page.
struct ClassGroups {
    /// Class-name group bits of the node's own tag, role, id and class.
    own: Vec<u32>,
    /// The bits of the node and its ancestors.
    inherited: Vec<u32>,
    /// Whether the node lies in a main/article landmark.
    in_main: Vec<bool>,
    /// The first main landmark ([`PageFeatures::main_landmark`]).
    main_landmark: Option<usize>,
}

/// Per node: its class-name group bits (own tag, role, id and class; of the id and class of
/// `<html>` and `<body>` only [`PAGE_TYPE_GROUPS`]), the bits of it and its ancestors, and
/// whether it lies in a main/article landmark; and the page's first main landmark. One
/// top-down pass.
///
/// # Complexity
/// O(n + total length of the distinct id and class values).
fn class_groups(dom: &Dom) -> ClassGroups {
    let n = dom.len();
    let mut own = vec![0u32; n];
    let mut inherited = vec![0u32; n];
    let mut in_main = vec![false; n];
    let mut main_landmark = None;
    // Short keys from one page: a fast hash (a page crafted to collide is bounded by the
    // page time limit, as any slow page is).
    let mut memo: FxHashMap<&str, u32> = FxHashMap::default();
    for i in 1..n {
        let node = dom.node(i);
        let p = node.parent as usize;
        if node.kind != Kind::Element {
            inherited[i] = inherited[p];
            in_main[i] = in_main[p];
            continue;
        }
        let mut bits = 0u32;
        let mut main = matches!(node.tag, Tag::MAIN | Tag::ARTICLE);
        let mut main_role = false;
        // A header or footer inside an article, main or section is that section's own.
        let page_landmark = match inherited[p] & SECTIONING_BIT {
            0 => PAGE_LANDMARK_BIT,
            _ => 0,
        };
        match node.tag {
            Tag::NAV => bits |= (1 << 0) | NAV_LANDMARK_BIT,
            Tag::HEADER => bits |= (1 << 1) | page_landmark,
            Tag::FOOTER => bits |= (1 << 2) | page_landmark,
            Tag::ASIDE => bits |= (1 << 3) | ASIDE_LANDMARK_BIT,
            Tag::MAIN | Tag::ARTICLE => bits |= (1 << 9) | SECTIONING_BIT,
            Tag::SECTION => bits |= SECTIONING_BIT,
            _ => {}
        }
        // Themes list page-wide settings on <html> and <body> (has-sidebar, header-fixed,
        // comment-placeholder): there only the page-type groups (single-post, product,
        // forum) are taken, as the others would mark every node of the page.
        let mask = if matches!(node.tag, Tag::HTML | Tag::BODY) {
            PAGE_TYPE_GROUPS
        } else {
            u32::MAX
        };
        for (k, v) in dom.attrs(i) {
            match k {
                "id" | "class" => {
                    // Class strings repeat across a page: match each distinct one once.
                    bits |= *memo.entry(v).or_insert_with(|| name_groups(v)) & mask;
                }
                "role" => {
                    let v = v.trim();
                    main_role = v.eq_ignore_ascii_case("main");
                    main |= main_role || v.eq_ignore_ascii_case("article");
                    bits |= landmark_role_bits(v);
                    bits |= name_groups(match v {
                        "navigation" | "menubar" | "menu" => "nav",
                        "banner" => "header",
                        "contentinfo" => "footer",
                        "complementary" => "aside",
                        "main" | "article" => "main",
                        "dialog" | "alertdialog" => "modal",
                        "search" => "search",
                        _ => "",
                    });
                }
                _ => {}
            }
        }
        own[i] = bits;
        inherited[i] = inherited[p] | bits;
        in_main[i] = in_main[p] || main;
        if main_landmark.is_none() && (node.tag == Tag::MAIN || main_role) {
            main_landmark = Some(i);
        }
    }
    ClassGroups {
        own,
        inherited,
        in_main,
        main_landmark,
    }
}

/// The decoding-only landmark bit of a (trimmed) `role` value, any case.
fn landmark_role_bits(role: &str) -> u32 {
    const ROLES: [(&str, u32); 6] = [
        ("navigation", NAV_LANDMARK_BIT),
        ("menu", NAV_LANDMARK_BIT),
        ("menubar", NAV_LANDMARK_BIT),
        ("complementary", ASIDE_LANDMARK_BIT),
        ("banner", PAGE_LANDMARK_BIT),
        ("contentinfo", PAGE_LANDMARK_BIT),
    ];
    ROLES
        .iter()
        .find(|(r, _)| role.eq_ignore_ascii_case(r))
        .map_or(0, |&(_, bit)| bit)
}

/// The group bits of an id or class value: split into lowercase alphanumeric tokens
/// (camelCase splits too) and match each against [`GROUP_PREFIXES`].
///
/// # Complexity
/// O(length of the value): tokens go through a stack buffer, and each token is compared
/// only with the prefixes sharing its first letter.
fn name_groups(value: &str) -> u32 {
    /// Longest prefix in [`GROUP_PREFIXES`] is shorter than this; longer tokens keep their
    /// first bytes and their true length.
    const KEEP: usize = 24;
    let by_letter = prefixes_by_letter();
    let mut bits = 0u32;
    let mut buf = [0u8; KEEP];
    let mut len = 0usize;
    // The token before, for names split in two (`sr-only`, `visually-hidden`, `screen-reader`).
    let mut prev = [0u8; 8];
    let mut prev_len = 0usize;
    let mut flush = |buf: &[u8; KEEP], len: &mut usize| {
        if *len > 0 {
            let t = &buf[..(*len).min(KEEP)];
            let p = &prev[..prev_len];
            if matches!(
                (p, t),
                (b"sr", b"only") | (b"visually", b"hidden") | (b"screen", b"reader")
            ) {
                bits |= group_bit(f::CLS_HIDDEN);
            }
            // A longer token can start no pair.
            prev_len = if t.len() <= prev.len() { t.len() } else { 0 };
            prev[..prev_len].copy_from_slice(&t[..prev_len]);
            // Prefixes are a few bytes: an inline byte loop, not a call to `memcmp`.
            let starts = |p: &[u8]| t.len() >= p.len() && t.iter().zip(p).all(|(a, b)| a == b);
            for &(p, g) in &by_letter[(t[0] as usize) & 0x7f] {
                let p = p.as_bytes();
                let hit = if p.len() <= 3 {
                    (*len == p.len() || *len == p.len() + 1 && t[p.len()] == b's') && starts(p)
                } else {
                    // `commented` and `commentary` describe an article, not its comments.
                    starts(p) && !(p == b"comment" && (t == b"commented" || t == b"commentary"))
                };
                if hit {
                    bits |= 1 << g;
                }
            }
            *len = 0;
        }
    };
    let mut prev_lower = false;
    for &b in value.as_bytes() {
        if b.is_ascii_alphanumeric() {
            if b.is_ascii_uppercase() && prev_lower {
                flush(&buf, &mut len);
            }
            prev_lower = b.is_ascii_lowercase();
            if len < KEEP {
                buf[len] = b.to_ascii_lowercase();
            }
            len += 1;
        } else {
            prev_lower = false;
            flush(&buf, &mut len);
        }
    }
    flush(&buf, &mut len);
    bits
}

/// [`GROUP_PREFIXES`] indexed by the prefix's first byte: (prefix, group).
fn prefixes_by_letter() -> &'static [Vec<(&'static str, u8)>] {
    static TABLE: std::sync::OnceLock<Vec<Vec<(&'static str, u8)>>> = std::sync::OnceLock::new();
    TABLE.get_or_init(|| {
        let mut t = vec![Vec::new(); 128];
        for (g, prefixes) in GROUP_PREFIXES.iter().enumerate() {
            for p in prefixes.iter() {
                t[p.as_bytes()[0] as usize].push((*p, g as u8));
            }
        }
        t
    })
}

/// Whether node `i` is big enough to be scored: a visible element of at least `min_area`
/// px² (the scored tree keeps those whose parent is scored too, see [`crate::segment::scored_mask`]). O(1).
pub fn is_scorable(dom: &Dom, visible: &[bool], rects: &[Rect], min_area: f32, i: usize) -> bool {
    dom.node(i).kind == Kind::Element && visible[i] && rects[i].area() >= min_area
}

/// The root of the scored tree: the body, else the first element, else the document. O(n).
pub fn scoring_root(dom: &Dom) -> usize {
    dom.body()
        .or_else(|| (0..dom.len()).find(|&i| dom.node(i).kind == Kind::Element))
        .unwrap_or(0)
}

#[cfg(test)]
mod name_tests {
    use super::*;

    #[test]
    fn class_names_by_hand() {
        let g = |v| name_groups(v);
        assert_eq!(g("site-footer"), 1 << 2);
        assert_eq!(g("mainNav"), (1 << 9) | 1);
        assert_eq!(g("ads"), 1 << 7);
        assert_eq!(g("address shadow"), 0);
        assert_eq!(g("CommentList"), 1 << 4);
        assert_eq!(g("commented commentary"), 0);
        assert_eq!(g("comments-area"), 1 << 4);
        assert_eq!(
            g("a-really-long-token-that-starts-with-sidebarxxxxxxxx sidebarLeft"),
            1 << 3
        );
        assert_eq!(g(""), 0);
        // Screen-reader names split in two: Bootstrap's and WordPress's.
        let hidden = group_bit(f::CLS_HIDDEN);
        assert_eq!(g("sr-only"), hidden);
        assert_eq!(g("visually-hidden-focusable"), hidden);
        assert_eq!(g("screen-reader-text"), hidden | 1 << 9);
        assert_eq!(g("srOnly"), hidden);
        assert_eq!(g("sr-x-only"), 0);
        assert_eq!(g("only-sr reader-screen"), 0);
        // Galleries: a decoding-only bit above every cls_* column's.
        assert_eq!(GALLERY_GROUP_BIT, 1 << CLS_GROUPS);
        assert_eq!(g("full-gallery photoGallery"), GALLERY_GROUP_BIT);
        assert_eq!(
            g("gallery-item card"),
            GALLERY_GROUP_BIT | group_bit(f::CLS_PRODUCT)
        );
        assert_eq!(g("galleon"), 0);
        // Related links: the next decoding-only bit, beside cls_related's.
        let related = group_bit(f::CLS_RELATED);
        assert_eq!(RELATED_GROUP_BIT, 1 << (CLS_GROUPS + 1));
        assert_eq!(g("related-links"), RELATED_GROUP_BIT | related);
        assert_eq!(g("mostPopular"), RELATED_GROUP_BIT | related);
        assert_eq!(g("OUTBRAIN"), RELATED_GROUP_BIT | group_bit(f::CLS_AD));
        assert_eq!(g("read-more-content"), related | (1 << 9));
        assert_eq!(g("relatedness"), RELATED_GROUP_BIT | related);
    }
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

/// English and a few other languages' most common function words, dropped from the title.
const STOP_WORDS: &[&str] = &[
    "a", "an", "and", "are", "as", "at", "be", "by", "for", "from", "has", "he", "in", "is", "it",
    "its", "of", "on", "or", "that", "the", "to", "was", "were", "will", "with", "this", "you",
    "your", "we", "our", "not", "but", "have", "how", "what", "who", "why", "new", "vs", "de",
    "la", "le", "les", "des", "du", "et", "el", "los", "las", "y", "en", "der", "die", "das",
    "und", "il", "di", "e",
];

/// The title's distinct non-stop words as hashes of their lowercase form, at most 64.
struct TitleWords {
    hashes: Vec<u64>,
    len: u32,
}

impl TitleWords {
    fn new(title: &str) -> TitleWords {
        let mut hashes: Vec<u64> = Vec::new();
        for w in crate::text::words(title) {
            let lower = w.to_lowercase();
            if STOP_WORDS.contains(&lower.as_str()) || hashes.len() == 64 {
                continue;
            }
            let h = w.chars().fold(FNV_OFFSET, fold_lower);
            if !hashes.contains(&h) {
                hashes.push(h);
            }
        }
        let len = hashes.len() as u32;
        TitleWords { hashes, len }
    }

    /// The mask bit of the title word with hash `h`, or 0.
    #[inline]
    fn bit(&self, h: u64) -> u64 {
        // Titles have a handful of words: a linear scan beats hashing into a table.
        match self.hashes.iter().position(|&t| t == h) {
            Some(k) => 1u64 << k,
            None => 0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ascii_class_table_is_class_of() {
        for b in 0u8..128 {
            assert_eq!(ASCII_CLASS[b as usize], class_of(b as char), "byte {b}");
        }
    }

    #[test]
    fn stop_words_by_table() {
        let hash = |w: &str| w.chars().fold(FNV_OFFSET, fold_lower);
        for w in STOP_WORDS {
            let upper = w.to_uppercase();
            assert!(is_stop_word(w.len() as u32, hash(w)), "{w}");
            assert!(is_stop_word(upper.len() as u32, hash(&upper)), "{upper}");
        }
        for w in [
            "then", "thee", "ther", "a1", "x", "ands", "nation", "the_", "éte", "über",
        ] {
            let chars = w.chars().count() as u32;
            assert!(!is_stop_word(chars, hash(w)), "{w}");
        }
        assert_eq!(STOP_WORD_MAX_CHARS, 4);
        // Every word of a real sentence agrees with a plain lookup in the list.
        let text = "The mill on the Wendle was rebuilt and it turns again, with what power we have";
        for w in text
            .split(|c: char| !c.is_alphanumeric())
            .filter(|w| !w.is_empty())
        {
            let lower = w.to_lowercase();
            assert_eq!(
                is_stop_word(w.chars().count() as u32, hash(w)),
                STOP_WORDS.contains(&lower.as_str()),
                "{w}"
            );
        }
    }

    #[test]
    fn scan_counts_by_hand() {
        let t = TitleWords::new("The Quick Fox");
        assert_eq!(t.len, 2);
        let mut c = Counts::default();
        scan_text("A quick brown FOX. Jumps! over", &t, &mut c);
        assert_eq!(c.words, 6);
        assert_eq!(c.capitalized, 3);
        assert_eq!(c.sentences, 2);
        assert_eq!(c.word_chars, 1 + 5 + 5 + 3 + 5 + 4);
        assert_eq!(c.title_mask.count_ones(), 2);
        assert_eq!(c.chars, 25);

        // Non-ASCII: CJK punctuation, a no-break space, an accented capital.
        let mut c = Counts::default();
        scan_text("Ça va。好！\u{a0}x", &t, &mut c);
        assert_eq!(c.words, 4);
        assert_eq!(c.capitalized, 1);
        assert_eq!(c.sentences, 2);
        assert_eq!(c.punctuation, 1);
        assert_eq!(c.word_chars, 2 + 2 + 1 + 1);
        assert_eq!(c.chars, 8);
    }
}
