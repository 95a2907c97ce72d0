//! Atomic text blocks and boilerpipe's shallow-text block classifier, the leaf signal of the
//! pipeline (Kohlschütter, Fankhauser, Nejdl, "Boilerplate Detection using Shallow Text
//! Features", WSDM 2010).
//!
//! A block is a run of visible text that no element boundary interrupts, except the boundaries
//! of `<a>` and of the inline formatting elements listed in [`is_inline`] (as boilerpipe's
//! `TA_INLINE_NO_WHITESPACE` / `TA_ANCHOR_TEXT` tag actions, plus the other HTML phrasing
//! elements). Any other element start or end — block elements, `<br>`, `<img>`, `<li>`,
//! `<td>`, `<script>`, unknown and foreign (SVG/MathML) elements — ends the current block.
//! Text nodes holding only whitespace never start a block.
//!
//! Inline elements join text without adding whitespace (`<b>Hel</b>lo` is one word), as a
//! browser renders it. Words are the `\w+` tokens of [`crate::text`]; a word that spans two
//! text nodes belongs to the node where it starts (for [`Blocks::words_of`], link counting and
//! [`content_share`]).
//!
//! [`BlockClassifier`] is boilerpipe's `NumWordsRulesClassifier` (the paper's Algorithm 2):
//! a C4.8 tree over the link density and word count of the previous, current and next block.

use crate::dom::{Dom, Kind, Tag, NONE};
use crate::text::{ascii_word_run, char_at, is_ascii_word_byte, is_word_char};

/// Column at which block text is wrapped for [`Block::text_density`] (the paper's 80).
pub(crate) const WRAP_COLUMNS: i64 = 80;

/// Inline elements whose boundaries do not end a block: `<a>` and the phrasing/formatting
/// elements `abbr acronym b bdi bdo big cite code data del dfn em font i ins kbd label mark
/// nobr q s samp small span strike strong sub sup time tt u var wbr`. boilerpipe's default
/// tag-action map keeps `a b i u em strong span font strike sup sub code tt var abbr acronym`;
/// the rest are added because browsers render them inline too. `acronym` and `big` are not in
/// the static tag table and are matched by name in [`splits_block`].
pub fn is_inline(tag: Tag) -> bool {
    matches!(
        tag,
        Tag::A
            | Tag::ABBR
            | Tag::B
            | Tag::BDI
            | Tag::BDO
            | Tag::CITE
            | Tag::CODE
            | Tag::DATA
            | Tag::DEL
            | Tag::DFN
            | Tag::EM
            | Tag::FONT
            | Tag::I
            | Tag::INS
            | Tag::KBD
            | Tag::LABEL
            | Tag::MARK
            | Tag::NOBR
            | Tag::Q
            | Tag::S
            | Tag::SAMP
            | Tag::SMALL
            | Tag::SPAN
            | Tag::STRIKE
            | Tag::STRONG
            | Tag::SUB
            | Tag::SUP
            | Tag::TIME
            | Tag::TT
            | Tag::U
            | Tag::VAR
            | Tag::WBR
    )
}

/// Whether entering or leaving element `i` ends the current block: every element except the
/// HTML (non-foreign) ones of [`is_inline`].
///
/// # Complexity
/// O(1); a string compare only for per-document custom tags.
pub fn splits_block(dom: &Dom, i: usize) -> bool {
    let node = dom.node(i);
    if node.kind != Kind::Element {
        return false;
    }
    if node.foreign {
        return true;
    }
    if node.tag.0 >= Tag::FIRST_CUSTOM {
        return !matches!(dom.tag_name(i), "acronym" | "big");
    }
    !is_inline(node.tag)
}

/// One atomic text block with boilerpipe's shallow text features.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Block {
    /// First text node of the block (preorder index).
    pub first_node: u32,
    /// Last text node of the block (preorder index); whitespace-only nodes are never last.
    pub last_node: u32,
    /// Nearest common ancestor element of the block's text nodes.
    pub element: u32,
    /// Number of `\w+` words.
    pub num_words: u32,
    /// Words that start inside an `<a>` element.
    pub linked_words: u32,
    /// Words in the full 80-column lines (boilerpipe's `numWordsInWrappedLines`).
    pub num_words_in_wrapped_lines: u32,
    /// Full 80-column lines (boilerpipe's `numWrappedLines`, at least 1 for a real block).
    pub num_wrapped_lines: u32,
    /// Sentences: runs of words closed by `.`, `!`, `?` (or CJK `。！？`) followed by
    /// whitespace or the block end, plus a final unterminated run.
    pub num_sentences: u32,
    /// Words whose first character is uppercase.
    pub capitalized_words: u32,
    /// Sum of word lengths in characters.
    pub word_chars: u32,
}

impl Block {
    /// The empty block boilerpipe puts before the first and after the last block
    /// (`TextBlock.EMPTY_START`): no nodes, no words, link density 0.
    pub const EMPTY: Block = Block {
        first_node: NONE,
        last_node: NONE,
        element: NONE,
        num_words: 0,
        linked_words: 0,
        num_words_in_wrapped_lines: 0,
        num_wrapped_lines: 1,
        num_sentences: 0,
        capitalized_words: 0,
        word_chars: 0,
    };

    /// Linked words / words, in [0, 1]; 0 when the block has no words.
    pub fn link_density(&self) -> f64 {
        ratio(self.linked_words, self.num_words)
    }

    /// Kohlschütter's text density ρ: words per full 80-column line, the last partial line
    /// left out when there is more than one line; ≥ 0, 0 when the block has no words.
    pub fn text_density(&self) -> f64 {
        ratio(self.num_words_in_wrapped_lines, self.num_wrapped_lines)
    }

    /// Mean word length in characters, ≥ 0; 0 when the block has no words.
    pub fn avg_word_len(&self) -> f64 {
        ratio(self.word_chars, self.num_words)
    }

    /// Words per sentence, ≥ 0; 0 when the block has no sentence (no words).
    pub fn avg_sentence_len(&self) -> f64 {
        ratio(self.num_words, self.num_sentences)
    }

    /// Capitalised words / words, in [0, 1]; 0 when the block has no words.
    pub fn capitalized_ratio(&self) -> f64 {
        ratio(self.capitalized_words, self.num_words)
    }
}

fn ratio(a: u32, b: u32) -> f64 {
    if b == 0 {
        0.0
    } else {
        a as f64 / b as f64
    }
}

/// The blocks of a page and the map from nodes to them.
#[derive(Debug, Clone, Default)]
pub struct Blocks {
    /// The blocks in document order.
    pub blocks: Vec<Block>,
    /// Per node: the block its text belongs to, `NONE` for elements, invisible and
    /// whitespace-only text, and other nodes.
    pub block_of: Vec<u32>,
    /// Per node: the words that start in this text node (0 for every other node); summed over
    /// a block's nodes it is the block's `num_words`.
    pub words_of: Vec<u32>,
}

impl Blocks {
    /// Appends the text of block `b` to `out`: its visible text nodes from first to last,
    /// whitespace-only ones included, concatenated as the browser shows them.
    ///
    /// # Complexity
    /// O(nodes and text in the block's range).
    pub fn text_into(&self, dom: &Dom, visible: &[bool], b: usize, out: &mut String) {
        let block = &self.blocks[b];
        let (first, last) = (block.first_node as usize, block.last_node as usize);
        for (t, &seen) in visible.iter().enumerate().take(last + 1).skip(first) {
            if seen && dom.node(t).kind == Kind::Text {
                out.push_str(dom.text(t));
            }
        }
    }
}

/// Running features of the block being built.
struct Acc {
    block: Block,
    in_word: bool,
    word_len: u32,
    /// Line length so far, boilerpipe's `currentLineLength` (starts at -1: no leading space).
    line_len: i64,
    wrapped_lines: u32,
    words_in_line: u32,
    words_since_stop: u32,
    pending_stop: bool,
}

impl Acc {
    fn start(first: u32, element: u32) -> Acc {
        Acc {
            block: Block {
                first_node: first,
                last_node: first,
                element,
                num_words: 0,
                linked_words: 0,
                num_words_in_wrapped_lines: 0,
                num_wrapped_lines: 0,
                num_sentences: 0,
                capitalized_words: 0,
                word_chars: 0,
            },
            in_word: false,
            word_len: 0,
            line_len: -1,
            wrapped_lines: 0,
            words_in_line: 0,
            words_since_stop: 0,
            pending_stop: false,
        }
    }

    /// Feeds one text node; returns the number of words that start in it.
    fn feed(&mut self, text: &str, linked: bool) -> u32 {
        let mut started = 0;
        let b = text.as_bytes();
        let mut i = 0;
        while i < b.len() {
            let (c, len) = char_at(text, i);
            i += len;
            let w = if len == 1 {
                is_ascii_word_byte(c as u8)
            } else {
                is_word_char(c)
            };
            if w {
                if !self.in_word {
                    self.in_word = true;
                    self.word_len = 0;
                    started += 1;
                    self.block.capitalized_words += c.is_uppercase() as u32;
                    self.words_since_stop += 1;
                    self.pending_stop = false;
                }
                // The rest of an ASCII word at once: only its length changes.
                let run = ascii_word_run(b, i);
                self.word_len += 1 + run as u32;
                i += run;
            } else {
                self.gap(c);
            }
        }
        self.block.num_words += started;
        if linked {
            self.block.linked_words += started;
        }
        started
    }

    /// A non-word character: ends the current word, confirms or opens a sentence end.
    fn gap(&mut self, c: char) {
        if self.in_word {
            self.end_word();
        }
        if self.pending_stop && c.is_whitespace() {
            self.block.num_sentences += 1;
            self.words_since_stop = 0;
            self.pending_stop = false;
        }
        if crate::text::is_sentence_end(c) && self.words_since_stop > 0 {
            self.pending_stop = true;
        }
    }

    /// Line wrapping exactly as boilerpipe's `BoilerpipeHTMLContentHandler.flushBlock`.
    fn end_word(&mut self) {
        self.in_word = false;
        let len = self.word_len;
        self.block.word_chars += len;
        self.words_in_line += 1;
        self.line_len += len as i64 + 1;
        if self.line_len > WRAP_COLUMNS {
            self.wrapped_lines += 1;
            self.line_len = len as i64;
            self.words_in_line = 1;
        }
    }

    fn finish(mut self) -> Block {
        if self.in_word {
            self.end_word();
        }
        let b = &mut self.block;
        if self.words_since_stop > 0 {
            b.num_sentences += 1;
        }
        let (mut in_lines, mut lines) = if self.wrapped_lines == 0 {
            (b.num_words, 1)
        } else {
            (b.num_words - self.words_in_line, self.wrapped_lines)
        };
        // TextBlock.initDensities: a block whose full lines hold no word (one word longer
        // than 80 columns) counts as one line holding all its words.
        if in_lines == 0 {
            in_lines = b.num_words;
            lines = 1;
        }
        b.num_words_in_wrapped_lines = in_lines;
        b.num_wrapped_lines = lines;
        self.block
    }
}

/// Splits the visible text of a page into atomic blocks (see the module docs for the rules)
/// and computes each block's features.
///
/// # Arguments
/// `visible` is [`crate::dom::visibility`] of `dom`; invisible text is skipped, but invisible
/// elements still end blocks unless they are inline.
///
/// # Complexity
/// One document-order pass: O(n + text length) time; O(n) space for `block_of` and
/// `words_of`. Finding the block's common ancestor climbs each element at most once.
pub fn segment(dom: &Dom, visible: &[bool]) -> Blocks {
    let n = dom.len();
    let mut blocks = Vec::new();
    let mut block_of = vec![NONE; n];
    let mut words_of = vec![0u32; n];
    let mut acc: Option<Acc> = None;
    // A splitting element started since the last text node.
    let mut split = false;
    // One past the last node inside the current `<a>`.
    let mut link_end = 0u32;
    for i in 0..n {
        let node = dom.node(i);
        match node.kind {
            Kind::Element => {
                if node.tag == Tag::A && !node.foreign {
                    link_end = link_end.max(node.end);
                }
                split |= splits_block(dom, i);
            }
            Kind::Text if visible.get(i).copied().unwrap_or(false) => {
                let text = dom.text(i);
                if text.chars().all(char::is_whitespace) {
                    // No block of its own; inside one it is a space between words.
                    if let Some(a) = acc.as_mut() {
                        a.gap(' ');
                    }
                    continue;
                }
                if let Some(a) = acc.as_mut() {
                    if !split {
                        // Elements left since the previous text node are the ancestors of
                        // that node whose subtree ends before this one; each is left once.
                        let mut up = dom.node(a.block.last_node as usize).parent;
                        while up != NONE && (dom.node(up as usize).end as usize) <= i {
                            if splits_block(dom, up as usize) {
                                split = true;
                                break;
                            }
                            up = dom.node(up as usize).parent;
                        }
                        if !split && up != NONE {
                            // `up` is the common ancestor of both texts; the block's is the
                            // higher of it and the one so far (both are ancestors of the
                            // previous text, so the smaller index).
                            a.block.element = a.block.element.min(up);
                        }
                    }
                }
                if split {
                    if let Some(a) = acc.take() {
                        blocks.push(a.finish());
                    }
                    split = false;
                }
                let a = acc.get_or_insert_with(|| Acc::start(i as u32, node.parent));
                a.block.last_node = i as u32;
                block_of[i] = blocks.len() as u32;
                words_of[i] = a.feed(text, (i as u32) < link_end);
            }
            _ => {}
        }
    }
    if let Some(a) = acc {
        blocks.push(a.finish());
    }
    Blocks {
        blocks,
        block_of,
        words_of,
    }
}

/// The blocks before and after block `k` (`None` at either end of the page).
///
/// # Complexity
/// O(1).
pub fn neighbours(blocks: &[Block], k: usize) -> (Option<&Block>, Option<&Block>) {
    let prev = k.checked_sub(1).and_then(|p| blocks.get(p));
    let next = k.checked_add(1).and_then(|q| blocks.get(q));
    (prev, next)
}

/// boilerpipe's `NumWordsRulesClassifier` (Algorithm 2 of the paper), thresholds checked
/// against `de.l3s.boilerpipe.filters.english.NumWordsRulesClassifier`:
///
/// ```text
/// curr.linkDensity <= 0.333333
/// | prev.linkDensity <= 0.555556
/// | | curr.numWords <= 16
/// | | | next.numWords <= 15
/// | | | | prev.numWords <= 4: BOILERPLATE
/// | | | | prev.numWords > 4: CONTENT
/// | | | next.numWords > 15: CONTENT
/// | | curr.numWords > 16: CONTENT
/// | prev.linkDensity > 0.555556
/// | | curr.numWords <= 40
/// | | | next.numWords <= 17: BOILERPLATE
/// | | | next.numWords > 17: CONTENT
/// | | curr.numWords > 40: CONTENT
/// curr.linkDensity > 0.333333: BOILERPLATE
/// ```
///
/// `numWords` is the block's total word count (`TextBlock.getNumWords()`), not the words in
/// wrapped lines. The first block's previous and the last block's next block are
/// [`Block::EMPTY`] (boilerpipe's `TextBlock.EMPTY_START`: 0 words, link density 0).
/// Densities are compared in `f64` (boilerpipe uses `float`); the two differ only for ratios
/// within ~1e-7 of a threshold.
#[derive(Debug, Clone, Copy, Default)]
pub struct BlockClassifier;

impl BlockClassifier {
    /// Largest link density of a content block.
    pub(crate) const CURR_MAX_LINK_DENSITY: f64 = 0.333333;
    /// Largest link density of a previous block that does not make the current one suspect.
    pub(crate) const PREV_MAX_LINK_DENSITY: f64 = 0.555556;

    /// Whether `curr` is content given its neighbours (the tree above).
    ///
    /// # Complexity
    /// O(1).
    pub fn is_content(&self, prev: &Block, curr: &Block, next: &Block) -> bool {
        if curr.link_density() <= Self::CURR_MAX_LINK_DENSITY {
            if prev.link_density() <= Self::PREV_MAX_LINK_DENSITY {
                if curr.num_words <= 16 {
                    if next.num_words <= 15 {
                        prev.num_words > 4
                    } else {
                        true
                    }
                } else {
                    true
                }
            } else if curr.num_words <= 40 {
                next.num_words > 17
            } else {
                true
            }
        } else {
            false
        }
    }

    /// Labels every block: `true` = content, `false` = boilerplate.
    ///
    /// # Complexity
    /// O(blocks) time and one `Vec<bool>`.
    pub fn classify(&self, blocks: &[Block]) -> Vec<bool> {
        (0..blocks.len())
            .map(|k| {
                let (prev, next) = neighbours(blocks, k);
                self.is_content(
                    prev.unwrap_or(&Block::EMPTY),
                    &blocks[k],
                    next.unwrap_or(&Block::EMPTY),
                )
            })
            .collect()
    }
}

/// Per node: the fraction of the visible words under it (its own words for a text node) that
/// lie in content blocks, in [0, 1]; 0 when it has no words. `content[b]` labels block `b`.
///
/// # Complexity
/// One bottom-up pass: O(n) time, two `u32` and one `f32` vector of n.
pub fn content_share(dom: &Dom, blocks: &Blocks, content: &[bool]) -> Vec<f32> {
    content_share_and_words(dom, blocks, content).0
}

/// [`content_share`], and per node the words of its subtree in content blocks (the
/// numerator of the share). O(n).
pub(crate) fn content_share_and_words(
    dom: &Dom,
    blocks: &Blocks,
    content: &[bool],
) -> (Vec<f32>, Vec<u32>) {
    let n = dom.len();
    let mut total = vec![0u32; n];
    let mut good = vec![0u32; n];
    for t in 0..n.min(blocks.words_of.len()) {
        let b = blocks.block_of[t];
        if b != NONE {
            total[t] = blocks.words_of[t];
            if content.get(b as usize).copied().unwrap_or(false) {
                good[t] = blocks.words_of[t];
            }
        }
    }
    let mut share = vec![0f32; n];
    for i in (0..n).rev() {
        // Every descendant has a larger index, so node i's sums are final here.
        if total[i] > 0 {
            share[i] = good[i] as f32 / total[i] as f32;
        }
        let p = dom.node(i).parent;
        if p != NONE {
            total[p as usize] += total[i];
            good[p as usize] += good[i];
        }
    }
    (share, good)
}
