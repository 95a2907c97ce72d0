//! The feature table: every column's index, name and one-line doc, from one list.

/// A table of named columns: a module of index constants, their count, names and one-line docs,
/// from one list (the feature rows here, the stacked features in [`crate::model::stack`]).
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
    /// Feature indices into a row of [`FeatureMatrix`](super::FeatureMatrix).
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
    IN_GALLERY = "in_gallery": "Markup: 1 when the node or an ancestor is named a photo gallery or slide show (`gallery`), else 0.",
    IN_RELATED_LIST = "in_related_list": "Markup: 1 when the node or an ancestor is named a related-link list (related, recommend, trending, popular, outbrain, taboola), else 0.",
    IN_REVIEW = "in_review": "Markup: 1 when the node or an ancestor is named a review or testimonial, or is schema.org microdata `itemprop=review`, else 0.",
    IN_ASIDE_LANDMARK = "in_aside_landmark": "Markup: 1 inside HTML's complementary landmark (`<aside>`, role=complementary) by tag or role alone, else 0.",
    IN_PAGE_LANDMARK = "in_page_landmark": "Markup: 1 inside the page's own banner or content-info landmark (a `<header>` or `<footer>` outside every article, main and section; role=banner, role=contentinfo), else 0.",
    IN_NAV_LANDMARK = "in_nav_landmark": "Markup: 1 inside HTML's navigation landmark (`<nav>`, role=navigation, menu, menubar) by tag or role alone, else 0.",
    MAIN_START_RELATION = "main_start_relation": "Markup: relation to the page's own main start (the target of its skip link to the main content, WCAG 2.4.1, else its `<main>`): 1 inside, 2 a proper ancestor, 3 before it, 4 after it; 0 on a page without one.",
    MAIN_TWIN = "main_twin": "Markup: 1 inside a twin of a main-region post (an element outside the main region, not holding it, whose tag and class, its parent's and its grandparent's equal those of the region or a region element of at least 20 words: a reply beside a forum's opening post), else 0.",
    MAIN_TWINS = "main_twins": "Markup: the page's twins of main-region posts (see main_twin; the same on every node).",
    REPEAT_SHARE = "repeat_share": "Markup: share of the subtree's words in later copies of a repeated passage (at least 10 words over two or more text blocks whose text equals an earlier element's, as the `repeats` rule finds them on the whole page), 0..1; 0 with no words.",
    PAGE_DECLARES_ARTICLE = "page_declares_article": "Markup: 1 when the page declares itself an article (schema.org Article, NewsArticle, BlogPosting and kin, in microdata `itemtype` or JSON-LD; OpenGraph `og:type` article), else 0 (the same on every node).",
    PAGE_DECLARES_PRODUCT = "page_declares_product": "Markup: 1 when the page declares a product (schema.org Product, ProductGroup; `og:type` product), else 0 (the same on every node).",
    PAGE_DECLARES_DISCUSSION = "page_declares_discussion": "Markup: 1 when the page declares itself a discussion (schema.org DiscussionForumPosting, QAPage), else 0 (the same on every node).",
    PAGE_DECLARES_LIST = "page_declares_list": "Markup: 1 when the page declares a list of things (schema.org ItemList, CollectionPage, SearchResultsPage, OfferCatalog), else 0 (the same on every node).",
    PAGE_URL_THREAD = "page_url_thread": "URL: 1 when the page's URL names a forum thread by its engine's path convention (`url::names_thread`), 0 when it does not, −1 without a URL (the same on every node).",
    PAGE_URL_DATED = "page_url_dated": "URL: 1 when the URL's path holds a publication date (`/2024/01/12/`, `/2024/01/`, `2024-01-12`, `20240112`: `url::path_shape`), 0 when not, −1 without a URL (the same on every node).",
    PAGE_URL_SLUG_WORDS = "page_url_slug_words": "URL: words of the path's wordiest segment (runs of letters; an article's slug has many, a category or product code few), −1 without a URL (the same on every node).",
    PAGE_URL_DEPTH = "page_url_depth": "URL: non-empty segments of the URL's path (0 for the site's home page), −1 without a URL (the same on every node).",
}
