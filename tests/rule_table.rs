//! Each rule of `Rule::ALL` alone on a small page written here: the whole pipeline (embedded
//! model) with the model's verdict replaced by the page's own `aria-judged` marks, run once with no
//! rule and once with the row's rule, and the difference worked out by hand.
//!
//! A node's score `y` is the `aria-judged` of the nearest element holding it (0 without one), and
//! it is template when `y ≥ 0.5`: `<div aria-judged=1>` is text the model dropped. (The DOM keeps
//! only the attributes the pipeline reads, `aria-*` among them; nothing reads this one.) `forum-replies`,
//! `declared-discussion` and `thread-url` run only with `comments`, so their rows compare `{comments}` with
//! `{comments, RULE}`; the two fallbacks act only when nothing is kept, so their pages are all
//! template.

use std::collections::BTreeSet;

use pagelevel::dom::{Dom, NONE};
use pagelevel::model::Model;
use pagelevel::pipeline::{analyze, Analysis, Options};
use pagelevel::rules::{Rule, RuleSet};
use pagelevel::Page;

/// `n` distinct words `w0 w1 …`.
fn words(prefix: &str, n: usize) -> String {
    (0..n)
        .map(|k| format!("{prefix}{k}"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The `aria-judged` of node `i` or of its nearest ancestor holding one, else 0.
fn judged_y(dom: &Dom, i: usize) -> f32 {
    let mut at = i as u32;
    while at != NONE {
        if let Some(y) = dom.attr(at as usize, "aria-judged") {
            return y.parse().unwrap();
        }
        at = dom.node(at as usize).parent;
    }
    0.0
}

/// The pipeline's main text of `html` (at `url`, when given) under `rules`, every scored node's score its
/// [`judged_y`] (template at 0.5 and above), and the tree filter's main node the element with
/// `id=main_id` when given.
fn main_text(html: &str, rules: RuleSet, main_id: Option<&str>, url: Option<&str>) -> String {
    let opts = Options {
        rules,
        ..Options::default()
    };
    let page_opts = pagelevel::PageOptions {
        url,
        ..Default::default()
    };
    let page = Page::from_bytes(html.as_bytes(), &page_opts).unwrap();
    let mut a = analyze(page, Model::embedded(), &opts);
    let dom = &a.page.dom;
    let seg = &mut a.segmentation;
    for i in 0..dom.len() {
        if !seg.y[i].is_nan() {
            seg.y[i] = judged_y(dom, i);
            seg.template[i] = seg.y[i] >= 0.5;
        }
    }
    if let Some(id) = main_id {
        seg.main = Some(
            (0..dom.len())
                .find(|&i| dom.attr(i, "id") == Some(id))
                .unwrap(),
        );
    }
    Analysis::new(a.page, a.features, a.segmentation, &opts).main_text()
}

/// One rule on one page.
struct Row {
    rule: Rule,
    /// The rules it runs beside (both runs have them): `{comments}` for `forum-replies`.
    with: RuleSet,
    html: String,
    /// The element standing for the tree filter's main node, by `id`.
    main_id: Option<&'static str>,
    /// The page's URL.
    url: Option<&'static str>,
    /// Whether the main text is empty without the rule, and with it.
    empty: (bool, bool),
    /// Phrases and how often each occurs in the main text without the rule, and with it.
    counts: &'static [(&'static str, usize, usize)],
}

/// A sentence of 15 words, repeated by the `repeats` row.
const SENTENCE: &str = "The watch that started it all is back in its next form, a decade later.";

/// JSON-LD declaring a news article.
const NEWS_ARTICLE: &str = r#"<script type=application/ld+json>{"@context":"https://schema.org","@type":"NewsArticle"}</script>"#;

/// Four other stories' headlines, for the boxes and feeds under an article.
const HEADLINES: [&str; 4] = [
    "Beckham is back in the news",
    "Stewart reveals his morning routine",
    "Vikander trains for the next role",
    "Reynolds explains the film's ending",
];

/// An article of `prose` under a title, in a page whose head holds `head`, followed by a "More
/// from Film" box of four linked headlines (27 words, 25 in links, 5 links).
fn link_list_page(prose: &str, head: &str) -> String {
    let stories: String = HEADLINES
        .iter()
        .enumerate()
        .map(|(k, t)| format!("<div class=story><a href=/film/s{k}>{t}</a></div>"))
        .collect();
    format!(
        "<head>{head}</head><body><article><h1>Mill reopens on Monday</h1><p>{prose}</p>\
         <div class=feed><span>More from</span> <a href=/film>Film</a>{stories}</div>\
         </article></body>"
    )
}

/// An article of `prose` under a title, in a page whose head holds `head`, followed by a
/// "Latest" feed of four cards (`div.card`: a linked headline, a `<time>` when `dated`, a
/// one-line summary; 11 or 12 words each, 46 in all).
fn dated_feed_page(prose: &str, head: &str, dated: bool) -> String {
    let cards: String = HEADLINES
    .iter()
    .enumerate()
    .map(|(k, t)| {
        let time = if dated {
            format!("<time datetime=2017-03-2{k}>2{k} March</time>")
        } else {
            format!("<span>2{k} March</span>")
        };
        format!("<div class=card><a href=/film/s{k}>{t}</a> {time}<p>Read what happened next.</p></div>")
    })
    .collect();
    format!(
        "<head>{head}</head><body><article><h1>Mill reopens on Monday</h1><p>{prose}</p></article>\
         <div class=feed><h2>Latest</h2>{cards}</div></body>"
    )
}

/// A listing under a title and `intro`, in a page whose head holds `head`: a menu in `<nav>`
/// and four trails (`li.trail > h3 > a + p`, 8 words each) the model dropped.
fn listing_page(intro: &str, head: &str) -> String {
    let trails: String = [
        "Anthills loop",
        "Burroughs park",
        "Carl barton",
        "Cypress creek",
    ]
    .iter()
    .enumerate()
    .map(|(k, t)| {
        format!(
            "<li class=trail><h3><a href=/trails/{k}>{t}</a></h3>\
                 <p>Difficulty: beginner, length {} miles.</p></li>",
            k + 3
        )
    })
    .collect();
    format!(
        "<head>{head}</head><body><nav aria-judged=1><a href=/>Home</a> <a href=/map>Map</a></nav>\
         <h1>Trails</h1><p>{intro}</p><ul aria-judged=0.9>{trails}</ul></body>"
    )
}

fn rows() -> Vec<Row> {
    let row = |rule, html: String, empty, counts| Row {
        rule,
        with: RuleSet::NONE,
        html,
        main_id: None,
        url: None,
        empty,
        counts,
    };
    vec![
        // A thread page: the opening post (30 words, ≥ 20) in `div.message > div.message-main >
        // div.message-body`, three replies with that markup in a comment region (`replies`),
        // which the model dropped. The thread node is the main node: the replies are the
        // opening post's twins (3 ≥ 2 in comment regions) and come back.
        Row {
            with: RuleSet::NONE.with(Rule::Comments),
            main_id: Some("thread"),
            ..row(
                Rule::ForumReplies,
                {
                    let post = |text: String| {
                        format!(
                            "<div class=message><div class=message-main><div class=message-body>\
                             <p>{text}</p></div></div></div>"
                        )
                    };
                    let replies: String = (0..3)
                        .map(|k| post(format!("reply{k} says {}", words(&format!("r{k}x"), 12))))
                        .collect();
                    format!(
                        "<body><div id=thread><h1>Which saw first</h1>{}\
                         <div class=replies aria-judged=1>{replies}</div></div></body>",
                        post(words("op", 30)),
                    )
                },
                (false, false),
                &[
                    ("op29", 1, 1),
                    ("reply0 says", 0, 1),
                    ("reply2 says r2x0", 0, 1),
                ],
            )
        },
        // A forum thread that says so in JSON-LD: the opening post (120 words, ≥ 100 outside
        // the comment region) would let `comments` drop the replies, but the page's type,
        // DiscussionForumPosting, makes the replies its content: they stay.
        Row {
            with: RuleSet::NONE.with(Rule::Comments),
            ..row(
                Rule::DeclaredDiscussion,
                format!(
                    "<head><script type=application/ld+json>{{\"@context\":\"https://schema.org\",\
                     \"@type\":\"DiscussionForumPosting\",\"headline\":\"Which saw first\"}}\
                     </script></head><body><h1>Which saw first</h1><p>{}</p>\
                     <div class=comments><p>reply0 says buy the cheap one first</p>\
                     <p>reply1 says a Japanese pull saw</p></div></body>",
                    words("op", 120)
                ),
                (false, false),
                &[
                    ("op119", 1, 1),
                    ("reply0 says", 0, 1),
                    ("reply1 says", 0, 1),
                ],
            )
        },
        // The same thread without a declared type, at a URL of XenForo's thread convention
        // (`/threads/slug.id/`): the replies are its content again.
        Row {
            with: RuleSet::NONE.with(Rule::Comments),
            url: Some("https://forum.example.org/threads/which-saw-first.691400/"),
            ..row(
                Rule::ThreadUrl,
                format!(
                    "<body><h1>Which saw first</h1><p>{}</p>\
                     <div class=comments><p>reply0 says buy the cheap one first</p>\
                     <p>reply1 says a Japanese pull saw</p></div></body>",
                    words("op", 120)
                ),
                (false, false),
                &[
                    ("op119", 1, 1),
                    ("reply0 says", 0, 1),
                    ("reply1 says", 0, 1),
                ],
            )
        },
        // A thread at XenForo's URL convention whose four posts (`article.message >
        // div.message-body > p`, 14 words each, 56 of the page's 59 words outside links) the
        // model dropped but the opening post's first line: 2 of the posts' 56 words kept, fewer
        // than half, so every post comes back. The menu's links are no post and stay out.
        Row {
            url: Some("https://forum.example.org/threads/which-saw-first.691400/"),
            ..row(
                Rule::ThreadPosts,
                {
                    let posts: String = (0..4)
                        .map(|k| {
                            let first = if k == 0 { " aria-judged=0" } else { "" };
                            format!(
                                "<article class=message><div class=message-body>\
                                 <p{first}>post{k} says</p><p>{}</p></div></article>",
                                words(&format!("p{k}x"), 12)
                            )
                        })
                        .collect();
                    format!(
                        "<body><nav aria-judged=1><a href=/>Forum home</a> \
                         <a href=/whats-new>What is new</a></nav>\
                         <h1>Which saw first</h1><div class=thread aria-judged=1>{posts}</div>\
                         </body>"
                    )
                },
                (false, false),
                &[
                    ("post0 says", 1, 1),
                    ("p0x11", 0, 1),
                    ("post3 says", 0, 1),
                    ("Forum home", 0, 0),
                ],
            )
        },
        // The model kept a 2-word banner and none of the 40 words in <main>: 2 < 200 words on
        // the page, 0 < 1/5 of <main>'s, so <main> comes back.
        row(
            Rule::MainStart,
            format!(
                "<body><header><p>Harbour news</p></header><main aria-judged=0.9><h2>Tide tables</h2>\
                 <p>{}</p></main></body>",
                words("m", 38)
            ),
            (false, false),
            &[("Harbour news", 1, 1), ("Tide tables", 0, 1), ("m37", 0, 1)],
        ),
        // A listing: a title and a 6-word intro kept (7 words, under 200, no paragraph over 20),
        // four trails `li.trail > h3 > a + p` (8 words each, ≥ 5) that the model dropped, 32 of
        // the page's 41 words (≥ 1/3): the list is the page's content and comes back. The menu
        // in `<nav>` (2 words) is chrome and stays out.
        row(
            Rule::Listing,
            listing_page("Local trails we build and ride.", ""),
            (false, false),
            &[("Local trails", 1, 1), ("Anthills loop", 0, 1), ("3 miles", 0, 1), ("Home", 0, 0)],
        ),
        // A grid of three products, each `li.product > h2.name + p.price` in `ul.grid`: the
        // model dropped the last price, but kept the other two prices (2 of 3 twins, ≥ 2/3):
        // it comes back. The names were all kept, so nothing else changes.
        row(
            Rule::TwinItems,
            "<body><h1>Hand planes</h1><ul class=grid>\
             <li class=product><h2 class=name>Smoothing plane</h2><p class=price>£11.00</p></li>\
             <li class=product><h2 class=name>Block plane</h2><p class=price>£12.00</p></li>\
             <li class=product><h2 class=name>Jack plane</h2>\
             <p class=price aria-judged=1>£13.00</p></li></ul></body>"
                .to_string(),
            (false, false),
            &[("£11.00", 1, 1), ("£13.00", 0, 1), ("Jack plane", 1, 1)],
        ),
        // The same grid with linked names the model dropped in every item (`h2 > a`), their
        // descriptions and prices kept: each item keeps 6 of its 8 or 9 words (≥ half), so all
        // three are kept (3 of 3 ≥ 2/3) and their headings come back. The heading outside the
        // items ("More from the shop") stays out.
        row(
            Rule::ItemHeadings,
            {
                let item = |name: &str, price: &str| {
                    format!(
                        "<li class=product><h2 aria-judged=0.9><a href=/p>{name}</a></h2>\
                         <p>Cast iron body lapped sole</p><p class=price>{price}</p></li>"
                    )
                };
                format!(
                    "<body><h1>Hand planes</h1><ul class=grid>{}{}{}</ul>\
                     <h2 aria-judged=0.9>More from the shop</h2></body>",
                    item("Smoothing plane", "£11.00"),
                    item("Block plane", "£12.00"),
                    item("Jack plane no. 5", "£13.00")
                )
            },
            (false, false),
            &[
                ("Smoothing plane", 0, 1),
                ("Jack plane no. 5", 0, 1),
                ("£13.00", 1, 1),
                ("More from the shop", 0, 0),
            ],
        ),
        // Four posts of one template, each with a "Reply" button and a "Report post" link
        // (4 of 4 items ≥ half and ≥ 3): both labels leave from every post. The poster's name is
        // a link in two posts only (2 < 3), and "42" holds no letter: both stay.
        row(
            Rule::ItemLabels,
            {
                let post = |who: &str, text: &str| {
                    format!(
                        "<div class=post><p class=by><a href=/u>{who}</a></p><p>{text}</p>\
                         <p class=tools><button>Reply</button> <a href=/r>Report post</a> \
                         <a href=/v>42</a></p></div>"
                    )
                };
                format!(
                    "<body><h1>Which plane first</h1><div class=thread>{}{}{}{}</div></body>",
                    post("ann", "Start with a block plane for end grain"),
                    post("ann", "A jack plane does most of the work"),
                    post("bo", "Buy a used smoothing plane and tune it"),
                    post("cy", "Sharpening matters more than the plane")
                )
            },
            (false, false),
            &[
                ("Reply", 4, 0),
                ("Report post", 4, 0),
                ("ann", 2, 2),
                ("42", 4, 4),
                ("Start with a block plane", 1, 1),
            ],
        ),
        // A recipe in `<main>`: 20 words of method, four ingredients the model dropped (5
        // words each, 20 ≥ 15), 20 words of method. With kept text on both sides the list is the
        // recipe's: it comes back. The menu before `<main>` and a list of four linked headlines
        // between the method's paragraphs (other stories: every item a link of 5 or more words)
        // stay out.
        row(
            Rule::FlowLists,
            {
                let items: String = ["flour", "butter", "sugar", "eggs"]
                    .iter()
                    .map(|t| format!("<li>two cups of {t} sifted</li>"))
                    .collect();
                let stories: String = HEADLINES
                    .iter()
                    .enumerate()
                    .map(|(k, t)| format!("<li><a href=/film/s{k}>{t}</a></li>"))
                    .collect();
                format!(
                    "<body><nav aria-judged=1><a href=/>Home</a></nav><main><h1>Plain sponge</h1>\
                     <p>{}</p><ul aria-judged=0.8>{items}</ul><p>{}</p>\
                     <ul aria-judged=0.8>{stories}</ul><p>{}</p></main></body>",
                    words("m", 20),
                    words("n", 20),
                    words("o", 20)
                )
            },
            (false, false),
            &[
                ("two cups of flour sifted", 0, 1),
                ("two cups of eggs sifted", 0, 1),
                ("Beckham is back in the news", 0, 0),
                ("Home", 0, 0),
                ("m19", 1, 1),
            ],
        ),
        // 4 + 116 words outside the thread (≥ 100): the thread leaves, the article stays.
        row(
            Rule::Comments,
            format!(
                "<body><article><h1>{}</h1><p>{}</p></article>\
                 <div id=comments><h3>Two replies</h3><ol class=commentlist>\
                 <li><p>First reader says the mill was louder before</p></li>\
                 <li><p>Second reader remembers the flood</p></li></ol></div></body>",
                words("t", 4),
                words("a", 116)
            ),
            (false, false),
            &[
                ("a115", 1, 1),
                ("Two replies", 1, 0),
                ("First reader", 1, 0),
                ("Second reader", 1, 0),
            ],
        ),
        // A search box, a share bar and a skip link around 121 words of article.
        row(
            Rule::InlineChrome,
            format!(
                "<body><form class=site-search><input><button>Search the archive</button></form>\
                 <article><h1>Mill reopens</h1><div class=share-buttons><a href=/fb>Share on \
                 Facebook</a> <a href=/x>Post it</a></div><p>{} report</p><a class=skip-link \
                 href=#c>Jump to comments</a></article></body>",
                words("a", 118)
            ),
            (false, false),
            &[
                ("Mill reopens", 1, 1),
                ("a117 report", 1, 1),
                ("Search the archive", 1, 0),
                ("Share on Facebook", 1, 0),
                ("Jump to comments", 1, 0),
            ],
        ),
        // A three-slide gallery in a 120-word article: its captions leave.
        row(
            Rule::Galleries,
            format!(
                "<body><article><h1>Harbour opens</h1><p>{} report</p>\
                 <div class=photoGallery><ul class=legends><li><h2>1/3 Crowds arrive</h2>\
                 <p>Thousands walked the new quay.</p></li><li><h2>2/3 Ships dock</h2><p>The \
                 first ferry tied up at noon.</p></li></ul></div></article></body>",
                words("a", 117)
            ),
            (false, false),
            &[
                ("a116 report", 1, 1),
                ("Crowds arrive", 1, 0),
                ("Thousands walked", 1, 0),
                ("Ships dock", 1, 0),
            ],
        ),
        // A fact box in an <aside> and a role=complementary sidebar beside 120 words.
        row(
            Rule::Asides,
            format!(
                "<body><article><h1>Tide tables</h1><p>{} report</p><aside><p>Fact box: high \
                 water at six</p></aside></article><div role=complementary><p>Live: ferry \
                 delayed</p></div></body>",
                words("a", 117)
            ),
            (false, false),
            &[
                ("a116 report", 1, 1),
                ("Fact box", 1, 0),
                ("ferry delayed", 1, 0),
            ],
        ),
        // The site's banner and footers leave; the header holding the title heading (the h1
        // sharing <title>'s words) and the article's own footer stay.
        row(
            Rule::PageHeaderFooter,
            format!(
                "<html><head><title>Harbour reopens after storm</title></head><body>\
                 <header><p>Site banner text</p></header>\
                 <header class=story-head><h1>Harbour reopens after storm</h1><p>By a reporter\
                 </p></header><article><p>{} report</p><footer><p>Filed under harbour</p>\
                 </footer></article><footer><p>Copyright owner</p></footer>\
                 <div role=contentinfo><p>Contact desk</p></div></body></html>",
                words("a", 149)
            ),
            (false, false),
            &[
                ("Harbour reopens after storm", 1, 1),
                ("By a reporter", 1, 1),
                ("a148 report", 1, 1),
                ("Filed under harbour", 1, 1),
                ("Site banner text", 1, 0),
                ("Copyright owner", 1, 0),
                ("Contact desk", 1, 0),
            ],
        ),
        // A "Related stories" list and a most-popular box leave a 100-word article; its
        // collapsed rest (`read-more-content`, not a related-links name) stays.
        row(
            Rule::RelatedLinks,
            format!(
                "<body><article><h1>Mill reopens on Monday</h1><p>{}</p>\
                 <div class=read-more-content><p>The rest of the report</p></div>\
                 <div class=related-stories><h3>Related stories</h3><ul><li><a href=/a>Bakery \
                 closes</a></li><li><a href=/b>Dam repaired</a></li></ul></div>\
                 <div class=mostPopular><a href=/c>Top ten mills</a></div></article></body>",
                words("a", 100)
            ),
            (false, false),
            &[
                ("a99", 1, 1),
                ("The rest of the report", 1, 1),
                ("Related stories", 1, 0),
                ("Bakery closes", 1, 0),
                ("Top ten mills", 1, 0),
            ],
        ),
        // A news article (JSON-LD NewsArticle) with a "More from" box of four linked
        // headlines: 25 of its 27 words in links (≥ 9/10), 5 links (≥ 3); the article's 124
        // words of prose outside links outweigh it and are ≥ 100, so the box leaves.
        row(
            Rule::LinkLists,
            link_list_page(&words("a", 120), NEWS_ARTICLE),
            (false, false),
            &[
                ("Mill reopens on Monday", 1, 1),
                ("a119", 1, 1),
                ("More from", 1, 0),
                ("Beckham", 1, 0),
                ("Stewart", 1, 0),
            ],
        ),
        // A news article (JSON-LD NewsArticle) with a "Latest" feed of four cards, each a
        // linked headline, a `<time>` and a summary (4 of 4 dated and linked, ≥ 2/3); the
        // article's 125 kept words outweigh the cards' 46 and are ≥ 100, so the cards leave
        // (the feed's heading is no card: it stays).
        row(
            Rule::DatedTeasers,
            dated_feed_page(&words("a", 120), NEWS_ARTICLE, true),
            (false, false),
            &[
                ("Mill reopens on Monday", 1, 1),
                ("a119", 1, 1),
                ("Latest", 1, 1),
                ("Beckham", 1, 0),
                ("Reynolds", 1, 0),
                ("Read what happened next", 4, 0),
            ],
        ),
        // A story of 1 + 120 words with a photo and its caption (9 words, two text nodes): 121
        // ≥ 9 and ≥ 100, the caption leaves; the story stays.
        row(
            Rule::FigureCaptions,
            format!(
                "<body><article><h1>Reef</h1><p>{}</p><figure><img src=/reef.jpg>\
                 <figcaption>Divers on Saxon Reef off Cairns, March 2017 <b>AP</b></figcaption>\
                 </figure></article></body>",
                words("s", 120)
            ),
            (false, false),
            &[("Divers on Saxon Reef", 1, 0), ("AP", 1, 0), ("s119", 1, 1)],
        ),
        // A skip link to #content, with a menu line before the target: 31 words kept from the
        // target on (≥ 20), so the link and the menu leave.
        row(
            Rule::BeforeMain,
            format!(
                "<body><div class=top><a href=#content>Skip to content</a><p>Menu: weather, \
                 sport, letters</p></div><div id=content><h2>Tide tables</h2><p>{}</p></div>\
                 </body>",
                words("c", 29)
            ),
            (false, false),
            &[
                ("Tide tables", 1, 1),
                ("c28", 1, 1),
                ("Skip to content", 1, 0),
                ("Menu: weather", 1, 0),
            ],
        ),
        // A script shell: its 14 words are all in its header, navigation and footer.
        row(
            Rule::OnlyChrome,
            "<body><header><a href=/>Shop</a> <a href=/login>Sign in</a></header>\
             <nav><a href=/c>Browse by category</a></nav><div id=root></div>\
             <footer><p>Help centre, returns and refunds, report infringement</p></footer></body>"
                .to_owned(),
            (false, true),
            &[
                ("Sign in", 1, 0),
                ("Browse by category", 1, 0),
                ("Help centre", 1, 0),
            ],
        ),
        // A shop's product page (JSON-LD Product, no Article): 4 + 116 words of description
        // (≥ 100) outside the customer reviews, which leave; the description stays.
        row(
            Rule::Reviews,
            format!(
                "<head><script type=application/ld+json>{{\"@context\":\"https://schema.org\",\
                 \"@type\":\"Product\",\"name\":\"Jack plane\"}}</script></head><body>\
                 <h1>{}</h1><p>{}</p><div class=customer-reviews><h3>Two reviews</h3>\
                 <p>First buyer says the sole came flat</p><p>Second buyer wants a finer \
                 mouth</p></div></body>",
                words("t", 4),
                words("d", 116)
            ),
            (false, false),
            &[
                ("d115", 1, 1),
                ("Two reviews", 1, 0),
                ("First buyer", 1, 0),
                ("Second buyer", 1, 0),
            ],
        ),
        // A responsive copy of a section (heading and 15-word sentence, ≥ 10 words): the second
        // copy leaves, the first and what follows stay.
        row(
            Rule::Repeats,
            format!(
                "<body><div class=desktop><h2>Classic II</h2><p>{SENTENCE}</p></div>\
                 <div class=mobile><h2>Classic II</h2><p>{SENTENCE}</p></div>\
                 <p>After the two copies.</p></body>"
            ),
            (false, false),
            &[
                ("Classic II", 2, 1),
                (SENTENCE, 2, 1),
                ("After the two copies.", 1, 1),
            ],
        ),
        // Everything judged template: boilerpipe's content block (a long paragraph without
        // links) is kept, the link list is not.
        row(
            Rule::BlocksFallback,
            format!(
                "<body aria-judged=1><ul><li><a href=/a>Home</a></li><li><a href=/b>Weather</a></li>\
                 <li><a href=/c>Sport</a></li></ul><p>The harbour reopened on Monday after the \
                 storm, and {}.</p></body>",
                words("b", 60)
            ),
            (true, false),
            &[
                ("The harbour reopened on Monday", 0, 1),
                ("b59", 0, 1),
                ("Weather", 0, 0),
            ],
        ),
        // Everything judged template: the least template-like text (y = 0.6) that is not
        // chrome is kept, not the text at 0.9, nor the link at 0.6 (a link is chrome).
        row(
            Rule::LowestFallback,
            "<body aria-judged=0.9><nav><a href=/a>Home page</a></nav><p>Cookie notice here</p>\
             <div aria-judged=0.6><p>Story the model doubted</p><a href=/more>Read more</a></div>\
             </body>"
                .to_owned(),
            (true, false),
            &[
                ("Story the model doubted", 0, 1),
                ("Cookie notice here", 0, 0),
                ("Home page", 0, 0),
                ("Read more", 0, 0),
            ],
        ),
    ]
}

/// The table's row of `rule`.
fn row_of(rule: Rule) -> Row {
    rows().into_iter().find(|r| r.rule == rule).unwrap()
}

#[test]
fn each_rule_alone_changes_its_page() {
    // Every row is checked before the test fails, so that one run names every row that is off.
    let mut failures = Vec::new();
    for row in rows() {
        let name = row.rule.name();
        let without = main_text(&row.html, row.with, row.main_id, row.url);
        let with = main_text(&row.html, row.with.with(row.rule), row.main_id, row.url);
        let mut wrong = Vec::new();
        let empty = (without.is_empty(), with.is_empty());
        if empty != row.empty {
            wrong.push(format!(
                "empty without, with: {empty:?}, expected {:?}",
                row.empty
            ));
        }
        for &(phrase, n_without, n_with) in row.counts {
            let got = (
                without.matches(phrase).count(),
                with.matches(phrase).count(),
            );
            if got != (n_without, n_with) {
                wrong.push(format!(
                    "{phrase:?} without, with: {got:?}, expected {:?}",
                    (n_without, n_with)
                ));
            }
        }
        // A row that cannot fail is no row: the rule must change the text.
        if without == with {
            wrong.push("the rule changes nothing".to_owned());
        }
        if !wrong.is_empty() {
            failures.push(format!(
                "{name}: {}\n--- without:\n{without}\n--- with:\n{with}",
                wrong.join("; ")
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn every_row_says_what_its_rule_changes() {
    for row in rows() {
        let changes = row.empty.0 != row.empty.1 || row.counts.iter().any(|&(_, a, b)| a != b);
        assert!(changes, "{}: the row expects no difference", row.rule);
    }
}

#[test]
fn the_table_has_one_row_per_rule() {
    let table: Vec<Rule> = rows().iter().map(|r| r.rule).collect();
    let unique: BTreeSet<&str> = table.iter().map(|r| r.name()).collect();
    assert_eq!(unique.len(), table.len(), "a rule has two rows: {table:?}");
    for rule in Rule::ALL {
        assert!(table.contains(&rule), "{rule} has no row");
    }
    assert_eq!(table.len(), Rule::ALL.len());
}

#[test]
fn the_content_blocks_come_before_the_lowest_text() {
    // A thread the model wholly doubted: two posts, each a content block (long, no links),
    // judged 0.7 and 0.9. The lowest text alone is the first post; the blocks are both.
    let html = format!(
        "<body aria-judged=1><nav><a href=/a>Home</a> <a href=/b>Forums</a></nav>\
         <div aria-judged=0.7><p>First post: {}.</p></div>\
         <div aria-judged=0.9><p>Second post: {}.</p></div></body>",
        words("a", 40),
        words("b", 40)
    );
    let lowest = main_text(&html, RuleSet::NONE.with(Rule::LowestFallback), None, None);
    assert!(
        lowest.contains("First post") && !lowest.contains("Second post"),
        "{lowest}"
    );
    let both = RuleSet::NONE
        .with(Rule::LowestFallback)
        .with(Rule::BlocksFallback);
    let text = main_text(&html, both, None, None);
    assert!(
        text.contains("First post: a0") && text.contains("b39."),
        "{text}"
    );
    assert!(!text.contains("Forums"), "{text}");
}

#[test]
fn reviews_stay_on_a_page_that_declares_an_article() {
    // The reviews row's page: its reviews leave as a Product, and stay when the page declares
    // an Article too (a review article marks up the products it discusses) or nothing.
    let row = row_of(Rule::Reviews);
    let reviews = RuleSet::NONE.with(Rule::Reviews);
    let text = |html: &str| main_text(html, reviews, None, None);
    assert!(!text(&row.html).contains("First buyer"));
    let article = row
        .html
        .replace(r#""@type":"Product""#, r#""@type":["Product","Article"]"#);
    assert_ne!(article, row.html);
    assert!(text(&article).contains("First buyer"), "{}", text(&article));
    let undeclared = row.html.replace(r#""@type":"Product","#, "");
    assert_ne!(undeclared, row.html);
    assert!(text(&undeclared).contains("First buyer"));
}

#[test]
fn thread_posts_need_a_thread_and_a_lost_thread() {
    // The thread-posts row's page: its posts come back at the thread URL, and at a URL of no
    // thread convention too, as they are named as a forum engine names posts (`message` in
    // `div.thread`). Named neutrally (`box` in `div.list`) at that URL, or when the model kept
    // most of the posts (the opening post's first line dropped, the rest kept), the rule leaves
    // the model's choice alone.
    let row = row_of(Rule::ThreadPosts);
    let posts = RuleSet::NONE.with(Rule::ThreadPosts);
    let text = |html: &str, url| main_text(html, posts, None, Some(url));
    assert!(text(&row.html, row.url.unwrap()).contains("post3 says"));
    let article_url = "https://forum.example.org/news/which-saw-first";
    assert!(text(&row.html, article_url).contains("post3 says"));
    let neutral = row
        .html
        .replace("message", "box")
        .replace("class=thread", "class=list");
    assert!(!neutral.contains("message") && !neutral.contains("thread"));
    assert!(text(&neutral, row.url.unwrap()).contains("post3 says"));
    assert!(!text(&neutral, article_url).contains("post3 says"));
    let mostly_kept = row
        .html
        .replace("<p aria-judged=0>post0", "<p aria-judged=1>post0")
        .replace("class=thread aria-judged=1", "class=thread");
    assert_ne!(mostly_kept, row.html);
    let kept = text(&mostly_kept, row.url.unwrap());
    assert!(
        kept.contains("post3 says") && !kept.contains("post0 says"),
        "{kept}"
    );
}

#[test]
fn posts_named_as_a_forum_s_make_the_page_a_thread() {
    // A thread at a URL of no convention and no schema.org type: a 100-word opening text and
    // four posts of 40 words (160 of the page's 263 words) in a comment region (`div.comments`),
    // each an `article.message`, which the model dropped. `thread-posts` restores them by their
    // names, and the page is then a thread: `comments` spares them. `comments` alone drops
    // them; named neutrally (`article.box`), they are no thread's posts.
    let posts: String = (0..4)
        .map(|k| {
            format!(
                "<article class=message><div class=message-body><p>post{k} says</p><p>{}</p>\
                 </div></article>",
                words(&format!("p{k}x"), 38)
            )
        })
        .collect();
    let html = format!(
        "<body><nav aria-judged=1><a href=/>Forum home</a></nav><h1>Which saw first</h1>\
         <div aria-judged=0><p>{}</p></div><div class=comments aria-judged=1>{posts}</div></body>",
        words("a", 100)
    );
    let url = Some("https://forum.example.org/news/which-saw-first");
    let both = RuleSet::NONE.with(Rule::ThreadPosts).with(Rule::Comments);
    let text = main_text(&html, both, None, url);
    assert!(
        text.contains("post3 says") && text.contains("a99"),
        "{text}"
    );
    let comments = main_text(&html, RuleSet::NONE.with(Rule::Comments), None, url);
    assert!(!comments.contains("post0 says") && comments.contains("a99"));
    let neutral = html.replace("message", "box");
    assert!(!main_text(&neutral, both, None, url).contains("post3 says"));
}

#[test]
fn link_lists_leave_only_an_article_that_outweighs_them() {
    // The link-lists row's page: its box leaves. It stays on a page that declares no article,
    // when the prose outside links is under 100 words (60) or under the boxes' words, and a
    // table of contents (links into the page) stays beside a box that leaves.
    let lists = RuleSet::NONE.with(Rule::LinkLists);
    let text = |html: &str| main_text(html, lists, None, None);
    let row = row_of(Rule::LinkLists);
    assert!(!text(&row.html).contains("Beckham"));
    assert!(text(&link_list_page(&words("a", 120), "")).contains("Beckham"));
    assert!(text(&link_list_page(&words("a", 60), NEWS_ARTICLE)).contains("Beckham"));
    // Five boxes (135 words) outweigh the 124 words of prose.
    let feed =
        &row.html[row.html.find("<div class=feed>").unwrap()..row.html.find("</article>").unwrap()];
    let five = row.html.replace(feed, &feed.repeat(5));
    assert!(text(&five).contains("Beckham"));
    // 18 words, all in 3 links: a link list but for its targets.
    let toc = "<ul class=toc><li><a href=#a>Tides and the old harbour wall</a></li>\
               <li><a href=#b>Weirs built along the river</a></li>\
               <li><a href=#c>Wheels and millstones of the old town</a></li></ul>";
    let with_toc = row.html.replace("<h1>", &format!("{toc}<h1>"));
    assert_ne!(with_toc, row.html);
    let kept = text(&with_toc);
    assert!(
        kept.contains("Wheels and millstones") && !kept.contains("Beckham"),
        "{kept}"
    );
    let toc_out = text(&with_toc.replace("href=#", "href=/guide#"));
    assert!(!toc_out.contains("Wheels and millstones"), "{toc_out}");
}

#[test]
fn dated_teasers_leave_only_an_article_that_outweighs_them() {
    // The dated-teasers row's page: its cards leave, and so they do when their dates are text
    // with a year standing alone (`<span>20 March 2017</span>`, not in the card's own text).
    // They stay when the page declares no article, or a list too (a section front that
    // OpenGraph calls an article and schema.org a CollectionPage), when the cards carry no date
    // (`20 March`: no year, no `<time>`), when the article's prose is under 100 words (60), and
    // when the dated items are the page (a live blog: twelve cards, 138 words, outweigh the
    // other 125).
    let teasers = RuleSet::NONE.with(Rule::DatedTeasers);
    let text = |html: &str| main_text(html, teasers, None, None);
    let prose = words("a", 120);
    assert!(!text(&row_of(Rule::DatedTeasers).html).contains("Beckham"));
    assert!(text(&dated_feed_page(&prose, "", true)).contains("Beckham"));
    // A section front whose CMS says `og:type` article while schema.org says it is a list.
    let og = r#"<meta property="og:type" content="article">"#;
    let front =
        format!(r#"{og}<script type=application/ld+json>{{"@type":"CollectionPage"}}</script>"#);
    assert!(!text(&dated_feed_page(&prose, og, true)).contains("Beckham"));
    assert!(text(&dated_feed_page(&prose, &front, true)).contains("Beckham"));
    let undated = dated_feed_page(&prose, NEWS_ARTICLE, false);
    assert!(text(&undated).contains("Beckham"));
    let text_dates = undated.replace(" March</span>", " March 2017</span>");
    assert_ne!(text_dates, undated);
    let out = text(&text_dates);
    assert!(
        !out.contains("Beckham") && out.contains("Mill reopens"),
        "{out}"
    );
    // A dateline with its time, zone and weekday stands alone too (nine words); a sentence
    // holding a date (twelve words) does not.
    let datelines = undated.replace("<span>2", "<span>updated 4:58 PM EST, Fri 2");
    let datelines = datelines.replace(" March</span>", " March 2017</span>");
    assert!(datelines.contains("<span>updated 4:58 PM EST, Fri 20 March 2017</span>"));
    let out = text(&datelines);
    assert!(
        !out.contains("Beckham") && out.contains("Mill reopens"),
        "{out}"
    );
    let sentences = text_dates.replace("<span>", "<span>the mill said it would reopen soon on ");
    assert!(sentences.contains("<span>the mill said it would reopen soon on 20 March 2017</span>"));
    assert!(text(&sentences).contains("Beckham"));
    // A date in the card's own text, beside its link, does not stand alone: no date.
    let inline_dates = text_dates
        .replace("<span>", "")
        .replace(" 2017</span>", " 2017");
    assert!(!inline_dates.contains("<span>"));
    assert!(text(&inline_dates).contains("Beckham"));
    assert!(text(&dated_feed_page(&words("a", 60), NEWS_ARTICLE, true)).contains("Beckham"));
    let page = dated_feed_page(&prose, NEWS_ARTICLE, true);
    let start = page.find("<div class=card>").unwrap();
    let cards = &page[start..page.rfind("</div></body>").unwrap()];
    let live = page.replace(cards, &cards.repeat(3));
    assert!(text(&live).contains("Beckham"));
}

#[test]
fn a_listing_is_a_page_without_a_story_or_a_product() {
    // The listing row's page: its trails come back. They stay out when the model kept a
    // paragraph (a 26-word story: the page is an article, the list its teasers), when the
    // page declares a product (its lists are other products), and when the list is chrome
    // (in `<nav>`).
    let listing = RuleSet::NONE.with(Rule::Listing);
    let text = |html: &str| main_text(html, listing, None, None);
    assert!(text(&listing_page("Local trails.", "")).contains("Anthills loop"));
    let story = "The club rebuilt the creek crossing this spring with help from forty volunteers, \
                 and the park reopened the loop to riders on the first dry weekend in May.";
    let out = text(&listing_page(story, ""));
    assert!(
        out.contains("forty volunteers") && !out.contains("Anthills"),
        "{out}"
    );
    let product = r#"<script type=application/ld+json>{"@context":"https://schema.org","@type":"Product"}</script>"#;
    let out = text(&listing_page("Local trails.", product));
    assert!(!out.contains("Anthills"), "{out}");
    // A kept paragraph in the page's own footer or an aside is chrome by HTML's landmarks, no
    // story: the trails still come back.
    for landmark in ["footer", "aside"] {
        let page = listing_page("Local trails.", "").replace(
            "</ul></body>",
            &format!("</ul><{landmark} aria-judged=0.1><p>{story}</p></{landmark}></body>"),
        );
        let out = text(&page);
        assert!(out.contains("Anthills loop"), "{landmark}: {out}");
    }
    let in_nav = listing_page("Local trails.", "")
        .replace("<ul aria-judged=0.9>", "<nav><ul aria-judged=0.9>")
        .replace("</ul>", "</ul></nav>");
    let out = text(&in_nav);
    assert!(
        out.contains("Local trails") && !out.contains("Anthills"),
        "{out}"
    );
}
