//! Which rules run ([`RuleSet`]) and their limits ([`RuleOptions`]), every default documented.

/// One rule of [`Rule::ALL`], named as `--without-rule` takes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Rule {
    /// A forum thread's replies marked up as its opening post stay (runs with `comments`).
    ForumReplies,
    /// A page that declares itself a discussion (schema.org) keeps its comment regions (runs
    /// with `comments`).
    DeclaredDiscussion,
    /// A page whose URL names a forum thread by its engine's convention keeps its comment
    /// regions (runs with `comments`).
    ThreadUrl,
    /// On a page that names itself a thread (schema.org or URL) or names its posts as forum
    /// engines do, its posts (the largest group of markup twins) are all kept when the model
    /// kept less than half of their words.
    ThreadPosts,
    /// The page's own main element is kept when the model kept almost nothing.
    MainStart,
    /// A page the model kept almost nothing of, and no paragraph, is a listing: its largest
    /// list outside the chrome is kept (not on a page declaring a product).
    Listing,
    /// The few dropped items of a list whose markup twins were mostly kept are kept too.
    TwinItems,
    /// The headings of a mostly kept list's kept items are kept too.
    ItemHeadings,
    /// The links and buttons repeated verbatim across a list's items (its controls) leave.
    ItemLabels,
    /// A list or table the model dropped with the main content's text before and after it is
    /// kept.
    FlowLists,
    /// Comment threads under an article leave.
    Comments,
    /// Share bars, skip and screen-reader text, search and account controls leave.
    InlineChrome,
    /// Photo galleries leave.
    Galleries,
    /// The complementary landmark (`<aside>`) leaves.
    Asides,
    /// The page's own header and footer leave (not the one holding the title).
    PageHeaderFooter,
    /// Lists of related links leave.
    RelatedLinks,
    /// A product page's customer reviews leave.
    Reviews,
    /// On a page that declares an article, blocks of nearly all link text leave.
    LinkLists,
    /// On a page that declares an article, lists whose items each carry their own date and
    /// link (a feed of other stories) leave.
    DatedTeasers,
    /// Figure captions (`<figcaption>`) leave when the article outweighs them.
    FigureCaptions,
    /// What precedes the page's main start (and its title) leaves.
    BeforeMain,
    /// A page whose few kept words are all chrome has no main content.
    OnlyChrome,
    /// The second copy of a repeated passage leaves.
    Repeats,
    /// With nothing kept, boilerpipe's content blocks outside the chrome are kept.
    BlocksFallback,
    /// With still nothing, the least template-like text that is not chrome is kept.
    LowestFallback,
}

impl Rule {
    /// Every rule, in the order the rules run.
    pub const ALL: [Rule; 25] = [
        Rule::ForumReplies,
        Rule::DeclaredDiscussion,
        Rule::ThreadUrl,
        Rule::ThreadPosts,
        Rule::MainStart,
        Rule::Listing,
        Rule::TwinItems,
        Rule::ItemHeadings,
        Rule::ItemLabels,
        Rule::FlowLists,
        Rule::Comments,
        Rule::InlineChrome,
        Rule::Galleries,
        Rule::Asides,
        Rule::PageHeaderFooter,
        Rule::RelatedLinks,
        Rule::Reviews,
        Rule::LinkLists,
        Rule::DatedTeasers,
        Rule::FigureCaptions,
        Rule::BeforeMain,
        Rule::OnlyChrome,
        Rule::Repeats,
        Rule::BlocksFallback,
        Rule::LowestFallback,
    ];

    /// The rule's name (`--without-rule NAME`, Python's `without_rules=`).
    pub fn name(self) -> &'static str {
        match self {
            Rule::ForumReplies => "forum-replies",
            Rule::DeclaredDiscussion => "declared-discussion",
            Rule::ThreadUrl => "thread-url",
            Rule::ThreadPosts => "thread-posts",
            Rule::MainStart => "main-start",
            Rule::Listing => "listing",
            Rule::TwinItems => "twin-items",
            Rule::ItemHeadings => "item-headings",
            Rule::ItemLabels => "item-labels",
            Rule::FlowLists => "flow-lists",
            Rule::Comments => "comments",
            Rule::InlineChrome => "inline-chrome",
            Rule::Galleries => "galleries",
            Rule::Asides => "asides",
            Rule::PageHeaderFooter => "page-header-footer",
            Rule::RelatedLinks => "related-links",
            Rule::Reviews => "reviews",
            Rule::LinkLists => "link-lists",
            Rule::DatedTeasers => "dated-teasers",
            Rule::FigureCaptions => "figure-captions",
            Rule::BeforeMain => "before-main",
            Rule::OnlyChrome => "only-chrome",
            Rule::Repeats => "repeats",
            Rule::BlocksFallback => "blocks-fallback",
            Rule::LowestFallback => "lowest-fallback",
        }
    }

    /// What the rule does, in one line.
    pub fn description(self) -> &'static str {
        match self {
            Rule::ForumReplies => {
                "a forum thread's replies marked up as its opening post stay (runs with comments)"
            }
            Rule::DeclaredDiscussion => {
                "a page declaring itself a forum thread or Q&A (schema.org) keeps its comments (runs with comments)"
            }
            Rule::ThreadUrl => {
                "a page whose URL names a forum thread (/threads/, /t/, /comments/, viewtopic…) keeps its comments (runs with comments)"
            }
            Rule::ThreadPosts => {
                "a page declaring or named a thread (schema.org, URL), or whose posts are named as a forum's, keeps the posts the model mostly dropped"
            }
            Rule::MainStart => {
                "the page's own main element (skip-link target, else <main>; the <main> an empty target precedes or opens; else the main region by content blocks) is kept when the model kept almost nothing"
            }
            Rule::Listing => {
                "a page the model kept almost nothing of and no paragraph of (not declaring a product) keeps its largest list outside the chrome"
            }
            Rule::TwinItems => {
                "the few dropped items of a list whose markup twins were mostly kept are kept"
            }
            Rule::ItemHeadings => {
                "the headings (h1-h6) of the kept items of a mostly kept list are kept"
            }
            Rule::ItemLabels => {
                "the short link and button texts repeated in half a list's items (Reply, Add to cart) leave"
            }
            Rule::FlowLists => {
                "a list or table in the page's main element with kept text before and after it is kept, but a list of headline links"
            }
            Rule::Comments => {
                "comment threads under an article leave (named so, or after an empty jump target named so)"
            }
            Rule::InlineChrome => {
                "share bars, skip and screen-reader text, search and account controls leave, but not a region holding the title, the main start or most of the page"
            }
            Rule::Galleries => "photo galleries' captions leave",
            Rule::Asides => "the complementary landmark (<aside>, role=complementary) leaves",
            Rule::PageHeaderFooter => {
                "the page's own header and footer landmarks leave, but the one holding the title"
            }
            Rule::RelatedLinks => "lists of related links leave",
            Rule::Reviews => {
                "a page declaring a product and no article (schema.org, og:type) loses its customer reviews"
            }
            Rule::LinkLists => {
                "a page declaring an article (schema.org, og:type) loses its blocks of nearly all link text"
            }
            Rule::DatedTeasers => {
                "a page declaring an article (schema.org, og:type) and no list loses its lists whose items each carry a date (<time>, or a date standing alone as text) and a link (other stories)"
            }
            Rule::FigureCaptions => {
                "figure captions (<figcaption>) leave when the page's other kept text outweighs them"
            }
            Rule::BeforeMain => "what precedes the page's main start and its title heading leaves",
            Rule::OnlyChrome => {
                "a page whose few kept words all lie in its chrome landmarks or its skip links has no main content"
            }
            Rule::Repeats => "the second copy of a repeated passage leaves",
            Rule::BlocksFallback => {
                "when nothing is kept, boilerpipe's content blocks outside the chrome are kept"
            }
            Rule::LowestFallback => {
                "when that is nothing too, the least template-like text that is not chrome is kept"
            }
        }
    }

    /// The rule named `name`, if any.
    pub fn from_name(name: &str) -> Option<Rule> {
        Rule::ALL.into_iter().find(|r| r.name() == name)
    }

    pub(super) fn bit(self) -> u32 {
        1 << self as u32
    }
}

impl std::fmt::Display for Rule {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// Which rules run: a set of [`Rule`]s, all of them by default.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct RuleSet(u32);

impl RuleSet {
    /// Every rule.
    pub const ALL: RuleSet = RuleSet((1 << Rule::ALL.len()) - 1);
    /// No rule: the model's keep-mask alone.
    pub const NONE: RuleSet = RuleSet(0);

    /// Whether `rule` runs.
    pub fn contains(self, rule: Rule) -> bool {
        self.0 & rule.bit() != 0
    }

    /// This set without `rule`.
    #[must_use]
    pub fn without(self, rule: Rule) -> RuleSet {
        RuleSet(self.0 & !rule.bit())
    }

    /// This set without each of `rules`. O(rules).
    #[must_use]
    pub fn without_all(self, rules: impl IntoIterator<Item = Rule>) -> RuleSet {
        rules.into_iter().fold(self, RuleSet::without)
    }

    /// This set with `rule`.
    #[must_use]
    pub fn with(self, rule: Rule) -> RuleSet {
        RuleSet(self.0 | rule.bit())
    }

    /// The rules in the set, in the order they run.
    pub fn iter(self) -> impl Iterator<Item = Rule> {
        Rule::ALL.into_iter().filter(move |&r| self.contains(r))
    }
}

impl Default for RuleSet {
    fn default() -> Self {
        RuleSet::ALL
    }
}

/// The rules' limits, each with its default (`RuleOptions::default()`).
#[derive(Debug, Clone, PartialEq)]
pub struct RuleOptions {
    /// `comments` … `related-links`, `figure-captions`, `only-chrome`: kept words outside a
    /// region that make the page an article the region belongs to (default 100).
    pub min_article_words: u32,
    /// `forum-replies`: elements in comment regions marked up as the opening post that make
    /// them a thread's replies (default 2).
    pub min_reply_twins: usize,
    /// `forum-replies`: kept words of a main-content element whose markup a reply may share, a
    /// post rather than a label (default 20).
    pub min_post_words: u32,
    /// `thread-posts`: share of the page's words outside links, as a fraction, that its
    /// largest group of markup twins holds at least to be the thread's posts (default 1/2).
    pub min_posts_share: (u32, u32),
    /// `before-main`: kept words from the main start on that make the page's own account
    /// trusted; with fewer (an empty `<main>` filled by script) nothing is dropped (default 20).
    pub min_main_words: u32,
    /// `main-start`: kept words on the page under which the model is taken to have lost the
    /// main content, fewer than two short paragraphs (default 200).
    pub recover_below_page_words: u32,
    /// `main-start`: share of the main element's words, as a fraction, under which the model is
    /// taken to have lost that element (default 1/5).
    pub recover_below_share: (u32, u32),
    /// `listing`: words outside links a kept text node holds at most for the page to have no
    /// paragraph, about one sentence (default 20).
    pub listing_max_paragraph_words: u32,
    /// `listing`: mean words per item a list holds at least, a teaser's or a card's rather
    /// than a menu's (default 5).
    pub listing_min_item_words: u32,
    /// `listing`: share of the page's words, as a fraction, the list holds at least (default
    /// 1/3).
    pub listing_min_share: (u32, u32),
    /// `repeats`: kept words a repeated passage has at least (default 10).
    pub min_repeat_words: u32,
    /// `link-lists`: links a link list holds at least (default 3).
    pub min_list_links: u32,
    /// `link-lists`: words a link list holds at least (default 15).
    pub min_list_words: u32,
    /// `link-lists`: share of a link list's words inside links, as a fraction, at least
    /// (default 9/10).
    pub min_list_link_share: (u32, u32),
    /// `item-labels`: words an item label has at most (default 4).
    pub max_label_words: u32,
    /// `item-labels`: share of a group's items, as a fraction, a label recurs in at least
    /// (default 1/2).
    pub min_label_share: (u32, u32),
    /// `flow-lists`: words a list or table holds at least, more than a date line or a pair of
    /// labels (default 15).
    pub flow_list_min_words: u32,
    /// `flow-lists`: kept words of the main content before the list or table, and after it, at least:
    /// a sentence each way (default 20).
    pub flow_list_context_words: u32,
}

impl Default for RuleOptions {
    fn default() -> Self {
        RuleOptions {
            min_article_words: 100,
            min_reply_twins: 2,
            min_post_words: crate::features::markup::MIN_POST_WORDS,
            min_posts_share: (1, 2),
            min_main_words: 20,
            recover_below_page_words: 200,
            recover_below_share: (1, 5),
            listing_max_paragraph_words: 20,
            listing_min_item_words: 5,
            listing_min_share: (1, 3),
            min_repeat_words: crate::features::repeats::MIN_REPEAT_WORDS,
            min_list_links: 3,
            min_list_words: 15,
            min_list_link_share: (9, 10),
            max_label_words: 4,
            min_label_share: (1, 2),
            flow_list_min_words: 15,
            flow_list_context_words: 20,
        }
    }
}

/// `--without-rule NAME` takes the names of [`Rule::name`], with [`Rule::description`] as help:
/// the command line and Python read one list.
#[cfg(feature = "cli")]
impl clap::ValueEnum for Rule {
    fn value_variants<'a>() -> &'a [Self] {
        &Rule::ALL
    }

    fn to_possible_value(&self) -> Option<clap::builder::PossibleValue> {
        Some(clap::builder::PossibleValue::new(self.name()).help(self.description()))
    }
}
