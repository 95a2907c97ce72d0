//! Per-node features: the PageLevel paper's most discriminative ones plus boilerpipe's
//! shallow-text features, for every node in one bottom-up pass.
//!
//! [`compute`] runs the stages a node's features depend on (visibility, geometry, blocks and
//! the block classifier), then one top-down pass (inside-a-link flags), one scan over the
//! visible text, one bottom-up pass that sums the counts into every ancestor, and one pass that
//! writes the feature rows. Everything is O(n + text length), with no per-node allocation.

use crate::blocks::{self, BlockClassifier, Blocks};
use crate::dom::{visibility, Dom, Kind, Tag, NONE};
use crate::geometry::{self, Layout, LayoutOptions};
use crate::text::is_word_char;
use crate::url;

macro_rules! features {
    ($($konst:ident = $name:literal : $doc:literal,)*) => {
        /// Feature indices into a row of [`FeatureMatrix`].
        pub mod f {
            #[allow(non_camel_case_types, clippy::upper_case_acronyms, dead_code)]
            #[repr(usize)]
            enum Index { $($konst,)* }
            $(#[doc = $doc] pub const $konst: usize = Index::$konst as usize;)*
        }
        /// Number of features per node.
        pub const COUNT: usize = [$($name,)*].len();
        /// Feature names, as printed by `pagelevel features`.
        pub const NAMES: [&str; COUNT] = [$($name,)*];
        /// One line per feature: what it computes, its range and its empty case.
        pub const DOCS: [&str; COUNT] = [$($doc,)*];
    };
}

features! {
    MARGIN_LEFT = "margin_left": "Box's left edge / page width: closeness to the left margin, 0..1.",
    MARGIN_RIGHT = "margin_right": "Gap between the box's right edge and the page's / page width, 0..1.",
    MARGIN_TOP = "margin_top": "Box's top edge / page height: closeness to the top, 0..1.",
    MARGIN_BOTTOM = "margin_bottom": "Gap between the box's bottom and the page's / page height, 0..1.",
    CENTER_DISTANCE = "center_distance": "Distance of the box centre from the page centre, each axis normalised by the page size, 0..~0.71.",
    AREA = "area": "Box area in px² (0 for hidden nodes).",
    AREA_FRACTION = "area_fraction": "Box area / page area, 0..1.",
    LINKS_PER_WORD = "links_per_word": "Links (<a href>) in the subtree per visible word; 0 with no words.",
    ANCHOR_TEXT_SHARE = "anchor_text_share": "Share of the subtree's visible characters inside links, 0..1; 0 with no text.",
    ANCHOR_SIZE = "anchor_size": "Average words per link in the subtree; 0 with no links.",
    INTRA_SITE_LINKS = "intra_site_links": "Share of the subtree's web links that stay on the page's registrable domain (relative links do; with no URL only relative ones count), 0..1; 0 with no links.",
    CHARS_PER_BYTE = "chars_per_byte": "Visible non-space characters per byte of the subtree's HTML, 0..~1.",
    TITLE_OVERLAP = "title_overlap": "Share of the <title>'s distinct words (stop words removed) that occur in the subtree, 0..1; 0 without a title.",
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
}

/// Feature rows for all nodes, row-major (`COUNT` values per node).
#[derive(Debug, Clone, Default)]
pub struct FeatureMatrix {
    data: Vec<f32>,
}

impl FeatureMatrix {
    /// The features of node `i`.
    pub fn row(&self, i: usize) -> &[f32] {
        &self.data[i * COUNT..(i + 1) * COUNT]
    }

    /// Number of rows (nodes).
    pub fn len(&self) -> usize {
        self.data.len() / COUNT
    }

    /// Whether there are no rows.
    pub fn is_empty(&self) -> bool {
        self.data.is_empty()
    }
}

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
    /// Per-node subtree counts.
    pub counts: Vec<Counts>,
    /// Per-node HTML bytes of the subtree.
    pub subtree_bytes: Vec<u32>,
    /// Number of distinct title words (the denominator of the title overlap).
    pub title_words: u32,
    /// The feature rows.
    pub matrix: FeatureMatrix,
}

/// Computes every node's features.
///
/// # Complexity
/// O(n + t) time for n nodes and t bytes of text; O(n) space (one row of `COUNT` floats and
/// one [`Counts`] per node).
pub fn compute(dom: &Dom, url: Option<&str>, opts: &FeatureOptions) -> PageFeatures {
    let visible = visibility(dom);
    let layout = geometry::layout(dom, &visible, &opts.layout);
    compute_with_layout(dom, url, visible, layout)
}

/// Like [`compute`], with boxes computed or read elsewhere (see [`geometry::apply_boxes`]).
pub fn compute_with_layout(
    dom: &Dom,
    url: Option<&str>,
    visible: Vec<bool>,
    layout: Layout,
) -> PageFeatures {
    let n = dom.len();
    let blocks = blocks::segment(dom, &visible);
    let block_content = BlockClassifier.classify(&blocks.blocks);
    let share = blocks::content_share(dom, &blocks, &block_content);
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

    let page = layout.page;
    let (pw, ph) = (page.w.max(1.0), page.h.max(1.0));
    let page_area = pw * ph;
    let mut data = vec![0f32; n * COUNT];
    for i in 0..n {
        let row = &mut data[i * COUNT..(i + 1) * COUNT];
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
    }
    PageFeatures {
        visible,
        layout,
        blocks,
        block_content,
        counts,
        subtree_bytes,
        title_words: title.len,
        matrix: FeatureMatrix { data },
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
    let mut counts = vec![Counts::default(); n];
    for i in 1..n {
        let node = dom.node(i);
        let p = node.parent as usize;
        let is_link = node.kind == Kind::Element && node.tag == Tag::A && !node.foreign;
        in_link[i] = in_link[p] || is_link;
        if !visible[i] {
            continue;
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
    }
    counts
}

/// One pass over a text: words, characters, capitals, sentence ends and title words.
fn scan_text(s: &str, title: &TitleWords, c: &mut Counts) {
    let mut in_word = false;
    let mut word_len = 0u32;
    let mut h = FNV_OFFSET;
    for ch in s.chars() {
        let is_w = is_word_char(ch);
        if is_w {
            if !in_word {
                c.words += 1;
                c.capitalized += ch.is_uppercase() as u32;
                word_len = 0;
                h = FNV_OFFSET;
            }
            word_len += 1;
            h = fold_lower(h, ch);
        } else if in_word {
            c.word_chars += word_len;
            c.title_mask |= title.bit(h);
        }
        if matches!(ch, '.' | '!' | '?' | '。' | '！' | '？') && in_word {
            c.sentences += 1;
        }
        c.chars += !ch.is_whitespace() as u32;
        in_word = is_w;
    }
    if in_word {
        c.word_chars += word_len;
        c.title_mask |= title.bit(h);
    }
}

const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;

/// FNV-1a over the lowercase form of `ch`: words hash the same whatever their case.
#[inline]
fn fold_lower(mut h: u64, ch: char) -> u64 {
    let mut push = |c: char| {
        let mut buf = [0u8; 4];
        for &b in c.encode_utf8(&mut buf).as_bytes() {
            h = (h ^ b as u64).wrapping_mul(0x0100_0000_01b3);
        }
    };
    if ch.is_ascii() {
        push(ch.to_ascii_lowercase());
    } else {
        ch.to_lowercase().for_each(&mut push);
    }
    h
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
    }
}
