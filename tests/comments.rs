//! Comment threads, inline chrome and photo galleries under an article
//! (`pagelevel::rules::comments`): hand-worked pages where the thread, the chrome or the gallery
//! leaves the main text and where it stays (a forum thread, a short article, text that is not
//! kept, names that only look like comments, a gallery named on `<body>`), the boundary of 100
//! words, a 1,000,000-deep page, real pages, and the pipeline's default against
//! `keep_comments`; and forum replies marked up as the opening post, which stay.

use crate::common::{self, assert_holds, assert_lacks};

use pagelevel::dom::{Dom, Kind};
use pagelevel::features::names::{
    ASIDE_LANDMARK_BIT, COMMENT_GROUP_BIT, GALLERY_GROUP_BIT, INLINE_CHROME_BITS,
    PAGE_LANDMARK_BIT, RELATED_GROUP_BIT,
};
use pagelevel::features::{self, FeatureOptions, PageFeatures};
use pagelevel::model::Model;
use pagelevel::output::text::render_text;
use pagelevel::pipeline::{analyze, Options};
use pagelevel::rules::comments::{drop_regions, keep_replies, only_chrome, Pass};
use pagelevel::rules::Context;
use pagelevel::rules::{Rule, RuleOptions, RuleSet};
use pagelevel::Page;

/// `n` distinct words `w0 w1 …`.
fn words(prefix: &str, n: usize) -> String {
    (0..n)
        .map(|k| format!("{prefix}{k}"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Runs `f` on the parsed `bytes`, their features, the rules' context (every node scored, the
/// default limits) and keep flags: every node kept but the text nodes for which `kept` fails.
fn on_page<R>(
    bytes: &[u8],
    kept: impl Fn(&Dom, &PageFeatures, usize) -> bool,
    f: impl FnOnce(&Dom, &PageFeatures, &Context, Vec<bool>) -> R,
) -> R {
    let page = Page::from_bytes(bytes, &pagelevel::PageOptions::default()).unwrap();
    let dom = &page.dom;
    let pf = features::compute(dom, None, &FeatureOptions::default());
    let keep = (0..dom.len())
        .map(|i| dom.node(i).kind != Kind::Text || kept(dom, &pf, i))
        .collect();
    let (y, opts) = (vec![0.0f32; dom.len()], RuleOptions::default());
    let cx = Context::new(dom, &pf, &y, &opts);
    f(dom, &pf, &cx, keep)
}

/// Whether text node `i` is kept when the text nodes containing `unkept` are not.
fn not_containing(unkept: &str) -> impl Fn(&Dom, &PageFeatures, usize) -> bool + '_ {
    move |dom, _, i| unkept.is_empty() || !dom.text(i).contains(unkept)
}

/// The page's visible text after `drop_regions` over the regions of `bits`, starting from
/// every text node kept but those containing `unkept`, and whether any kept text was dropped.
fn dropped_bits(html: &str, unkept: &str, bits: u32) -> (String, bool) {
    on_page(
        html.as_bytes(),
        not_containing(unkept),
        |dom, pf, cx, mut keep| {
            let cleared = drop_regions(cx, &[Pass::new(bits)], &mut keep);
            (render_text(dom, &pf.visible, &keep), cleared > 0)
        },
    )
}

/// [`dropped_bits`] on the shared page `path` with every visible text kept: asserts that the
/// pass dropped something, that the text still holds each of `kept` and none of `gone`. Skips
/// (with `test`'s message) without the data.
fn assert_shared_drops(test: &str, path: &str, bits: u32, kept: &[&str], gone: &[&str]) {
    let Some(bytes) = common::shared_page(test, path) else {
        return;
    };
    let (text, did) = dropped_bits(&String::from_utf8_lossy(&bytes), "", bits);
    assert!(did, "{path}: nothing dropped");
    assert_holds(&text, kept);
    assert_lacks(&text, gone);
}

/// [`dropped_bits`] over the comment regions or, with `chrome`, the inline chrome.
fn dropped_in(html: &str, unkept: &str, chrome: bool) -> (String, bool) {
    let bits = if chrome {
        INLINE_CHROME_BITS
    } else {
        COMMENT_GROUP_BIT
    };
    dropped_bits(html, unkept, bits)
}

/// [`dropped_in`] over the comment regions.
fn dropped(html: &str, unkept: &str) -> (String, bool) {
    dropped_in(html, unkept, false)
}

/// An article of `n` words with a search box, a share bar and a skip link in it.
fn article_with_chrome(n: usize) -> String {
    format!(
        "<body><form class=site-search><input><button>Search the archive</button></form>\
         <article><h1>Mill reopens</h1><div class=share-buttons><a href=/fb>Share on Facebook</a>\
         <a href=/x>Post it</a></div><p>{} report</p><a class=skip-link href=#c>Jump to \
         comments</a></article></body>",
        words("a", n - 3),
    )
}

#[test]
fn inline_chrome_leaves_an_article() {
    // Mill reopens + 118 words + report: 121 kept outside the chrome.
    let (text, did) = dropped_in(&article_with_chrome(121), "", true);
    assert!(did);
    assert!(
        text.contains("Mill reopens") && text.contains("a117 report"),
        "{text}"
    );
    assert_lacks(
        &text,
        &[
            "Search the archive",
            "Share on Facebook",
            "Post it",
            "Jump to comments",
        ],
    );
    // A short page keeps it: 99 words outside.
    let (text, did) = dropped_in(&article_with_chrome(99), "", true);
    assert!(!did);
    assert!(text.contains("Share on Facebook"), "{text}");
}

#[test]
fn a_region_outweighing_the_page_is_not_a_control() {
    // A shop's results sit in a wrapper named as a search control: 150 words in it, 120 outside
    // (a 4-word heading and 116 words of intro), and a 3-word search box.
    let html = format!(
        "<body><form class=site-search><button>Search the shop</button></form>\
         <div class=intro><h2>{}</h2><p>{}</p></div>\
         <div id=search-page-wrapper><ul><li>{}</li><li>{}</li></ul></div></body>",
        words("t", 4),
        words("a", 116),
        words("b", 75),
        words("c", 75),
    );
    let run = |spare_outweighing: bool| {
        on_page(
            html.as_bytes(),
            not_containing(""),
            |dom, pf, cx, mut keep| {
                let pass = Pass {
                    spare_outweighing,
                    ..Pass::new(INLINE_CHROME_BITS)
                };
                drop_regions(cx, &[pass], &mut keep);
                render_text(dom, &pf.visible, &keep)
            },
        )
    };
    // 150 > 120: the wrapper is content; the 3-word box is still a control.
    let text = run(true);
    assert!(text.contains("b0 ") && text.contains("c74"), "{text}");
    assert!(text.contains("a115"), "{text}");
    assert_lacks(&text, &["Search the shop"]);
    // Without the outweighing test the wrapper leaves with the box.
    let text = run(false);
    assert_lacks(&text, &["b0 ", "c74", "Search the shop"]);
    assert!(text.contains("a115"), "{text}");
}

/// An article of `n` words, then a thread of two comments in `<ol class=commentlist>`.
fn article_with_thread(n: usize) -> String {
    format!(
        "<html><body><article><h1>{}</h1><p>{}</p></article>\
         <div id=comments><h3>Two replies</h3><ol class=commentlist>\
         <li><p>First reader says the mill was louder before</p></li>\
         <li><p>Second reader remembers the flood of the old mill</p></li></ol></div>\
         </body></html>",
        words("t", 4),
        words("a", n - 4),
    )
}

#[test]
fn a_thread_under_an_article_leaves() {
    // 4 title words + 116 paragraph words = 120 outside the comment region.
    let (text, did) = dropped(&article_with_thread(120), "");
    assert!(did);
    assert!(text.contains("a115") && text.contains("t3"), "{text}");
    assert!(
        !text.contains("reader") && !text.contains("Two replies"),
        "{text}"
    );
}

/// An article of `n` words, then a comment section that starts at an empty jump target
/// (`marker`) and runs on unwrapped in the article's own container, as older CMSs print it.
fn article_with_marked_thread(n: usize, marker: &str) -> String {
    format!(
        "<html><body><div><h1>{}</h1><p>{}</p>{marker}<b>Comments are closed</b><br>\
         <b>Stephen B</b><br>First reader says the mill was louder before<hr>\
         <b>Lina</b><br>Second reader remembers the flood of the old mill<hr></div>\
         <p>Copyright notice</p></body></html>",
        words("t", 4),
        words("a", n - 4),
    )
}

#[test]
fn an_empty_jump_target_starts_the_comment_section() {
    for marker in [
        "<a name=commentSection></a>",
        "<a name=\"comments\"> </a>",
        "<span id=comments></span>",
    ] {
        let (text, did) = dropped(&article_with_marked_thread(120, marker), "");
        assert!(did, "{marker}");
        assert!(
            text.contains("a115") && text.contains("t3"),
            "{marker}: {text}"
        );
        assert_lacks(&text, &["reader", "Stephen B", "Comments are closed"]);
        // The section ends with its container.
        assert!(text.contains("Copyright notice"), "{marker}: {text}");
    }
    // Not a marker: a target with text, a `name` on no link, an id naming no comments, a
    // class: the thread stays.
    for marker in [
        "<a name=comments>Comments</a>",
        "<span name=comments></span>",
        "<a id=top></a>",
        "<span class=comments></span>",
    ] {
        let (text, did) = dropped(&article_with_marked_thread(120, marker), "");
        assert!(!did, "{marker}");
        assert!(text.contains("Second reader"), "{marker}: {text}");
    }
}

#[test]
fn real_news_story_loses_the_comments_after_its_jump_target() {
    // ctv.ca, 2008 (L3S-GN1): readers' comments follow `<a name="commentSection"></a>` as
    // bare `<b>` names and text in the story's cell; the gold leaves them out.
    assert_shared_drops(
        "real_news_story_loses_the_comments_after_its_jump_target",
        "l3s-gn1/original/79bc594a-ae6d-4549-833a-cd74270619a2.html.gz",
        COMMENT_GROUP_BIT,
        &[
            "The economy dominated a working dinner between the premiers",
            "Bloc Quebecois Leader Gilles Duceppe said Friday",
        ],
        &[
            "McGuinty stop spending my money",
            "Agreed, that debt is a drain",
        ],
    );
}

#[test]
fn a_highlighted_code_comment_is_not_a_thread() {
    // highlight.js names a code comment `hljs-comment`: the listing's comments stay with its
    // code. A code block inside a real thread still goes with the thread.
    let html = format!(
        "<body><article><h1>Undo a commit</h1><p>{}</p><pre><code class=language-bash>\
         <span class=hljs-comment># keep the changes staged</span>\n git reset --soft HEAD~1\
         </code></pre></article><div class=comments><p>Reader asks about</p>\
         <pre><code>git revert HEAD</code></pre></div></body>",
        words("a", 120),
    );
    let (text, did) = dropped(&html, "");
    assert!(did);
    assert!(
        text.contains("# keep the changes staged") && text.contains("git reset --soft"),
        "{text}"
    );
    assert!(
        !text.contains("Reader asks") && !text.contains("git revert"),
        "{text}"
    );
}

#[test]
fn the_boundary_is_100_kept_words_outside() {
    assert_eq!(RuleOptions::default().min_article_words, 100);
    let (text, did) = dropped(&article_with_thread(99), "");
    assert!(!did);
    assert!(text.contains("First reader"), "{text}");
    let (text, did) = dropped(&article_with_thread(100), "");
    assert!(did);
    assert!(!text.contains("First reader"), "{text}");
}

#[test]
fn words_not_kept_do_not_make_an_article() {
    // 200 words of navigation judged template, 20 kept outside: the thread stays.
    let html = format!(
        "<body><nav><p>{}</p></nav><h1>{}</h1><section class=comments><p>{}</p></section></body>",
        words("navword", 200),
        words("t", 20),
        words("reply", 30),
    );
    let (text, did) = dropped(&html, "navword");
    assert!(!did);
    assert!(text.contains("reply29"), "{text}");
}

#[test]
fn a_forum_thread_keeps_its_posts() {
    // Every post, the opening one too, is in a comment region: nothing outside is an article.
    let posts: String = (0..5)
        .map(|k| {
            format!(
                "<div class=comment><p>{}</p></div>",
                words(&format!("p{k}x"), 80)
            )
        })
        .collect();
    let html = format!("<body><h1>Which saw first</h1>{posts}</body>");
    let (text, did) = dropped(&html, "");
    assert!(!did);
    assert!(text.contains("p0x79") && text.contains("p4x79"), "{text}");
}

#[test]
fn commented_and_commentary_are_not_comment_regions() {
    let html = format!(
        "<body><p>{}</p><ul class=most-commented><li>{}</li></ul><div class=commentary>{}</div></body>",
        words("a", 150),
        words("popular", 10),
        words("analysis", 10),
    );
    let (text, did) = dropped(&html, "");
    assert!(!did, "the page has no comment region");
    assert!(
        text.contains("popular9") && text.contains("analysis9"),
        "{text}"
    );
}

#[test]
fn million_deep_comment_region() {
    // Heavy: 1,000,000-deep pages.
    let _machine = common::heavy();
    let depth = 1_000_000;
    let mut html = format!("<body><p>{}</p><div class=comments>", words("a", 120));
    html.reserve(depth * 6 + 16);
    for _ in 0..depth {
        html.push_str("<span>");
    }
    html.push_str("deep reply here");
    let (text, did) = dropped(&html, "");
    assert!(did);
    assert!(text.contains("a119") && !text.contains("deep reply"));
    // Forum replies, with a million nested classed spans under the opening post's thread.
    let mut html = thread_page(30, 3, "message-main");
    let at = html.find("<div class=replies>").unwrap();
    html.insert_str(at, &"<span class=s>".repeat(depth));
    let (thread, text) = replies_kept(&html);
    assert!(thread);
    assert!(text.contains("reply2 says"), "{text}");
}

/// The pipeline's main text of `html` with every node judged content (so the rule, not the
/// model, decides), with or without the `comments` rule (`keep_comments` switches it off).
fn main_text_all_content(html: &str, keep_comments: bool) -> String {
    let rules = if keep_comments {
        RuleSet::ALL.without(Rule::Comments)
    } else {
        RuleSet::ALL
    };
    let opts = Options {
        rules,
        ..Options::default()
    };
    common::main_text_judged(html.as_bytes(), &opts, |_, _| false)
}

#[test]
fn pipeline_drops_the_thread_unless_keep_comments() {
    let html = article_with_thread(150);
    let default = main_text_all_content(&html, false);
    let kept = main_text_all_content(&html, true);
    assert!(
        default.contains("a145") && !default.contains("First reader"),
        "{default}"
    );
    assert!(
        kept.contains("a145") && kept.contains("Second reader"),
        "{kept}"
    );
}

#[test]
fn real_blog_post_loses_its_thread_and_keeps_its_body() {
    // wptavern.com (Readability's `wordpress` case): a 13-comment thread under the post,
    // which the gold leaves out. With every visible text kept, the rule drops the thread only.
    assert_shared_drops(
        "real_blog_post_loses_its_thread_and_keeps_its_body",
        "readability/html/wordpress.html.gz",
        COMMENT_GROUP_BIT,
        &[
            "Stack Overflow published its analysis of 2017 hiring trends",
            "For two years running, Stack Overflow survey respondents",
        ],
        &[
            "One nuance of over saturation number",
            "Why doesn’t WordPress have some kind of certification system",
        ],
    );
}

#[test]
fn pipeline_drops_inline_chrome_with_or_without_keep_comments() {
    let html = article_with_chrome(150);
    for keep_comments in [false, true] {
        let text = main_text_all_content(&html, keep_comments);
        assert!(text.contains("a146"), "{text}");
        assert!(!text.contains("Share on Facebook") && !text.contains("Search the archive"));
    }
}

/// An article of `n` words with a photo gallery of three captioned slides in it, the page's
/// `<body>` carrying `body_class`.
fn article_with_gallery(n: usize, body_class: &str) -> String {
    format!(
        "<body class='{body_class}'><article><h1>Harbour opens</h1><p>{} report</p>\
         <div class=photoGallery><ul class=legends><li><h2>1/3 Crowds arrive</h2><p>Thousands \
         walked the new quay on Sunday morning.</p></li><li><h2>2/3 Ships dock</h2><p>The first \
         ferry tied up at noon.</p></li><li><h2>3/3 Night falls</h2><p>Lights came on along the \
         pier.</p></li></ul></div></article></body>",
        words("a", n - 3),
    )
}

#[test]
fn a_gallery_in_an_article_leaves_it() {
    // Harbour opens + 117 words + report = 120 kept outside the gallery (camelCase
    // `photoGallery` names it); its captions go, the article stays.
    let (text, did) = dropped_bits(&article_with_gallery(120, ""), "", GALLERY_GROUP_BIT);
    assert!(did);
    assert!(
        text.contains("Harbour opens") && text.contains("a116 report"),
        "{text}"
    );
    assert_lacks(
        &text,
        &[
            "Crowds arrive",
            "Thousands walked",
            "ferry",
            "Lights came on",
        ],
    );
    // 99 words outside: the gallery may be the page's content, it stays.
    let (text, did) = dropped_bits(&article_with_gallery(99, ""), "", GALLERY_GROUP_BIT);
    assert!(!did && text.contains("Lights came on"), "{text}");
    // `<body class=inline-gallery>` names the page, not a region: the same 120-word page loses
    // the gallery alone.
    let (text, did) = dropped_bits(
        &article_with_gallery(120, "article inline-gallery"),
        "",
        GALLERY_GROUP_BIT,
    );
    assert!(did && text.contains("a116 report") && !text.contains("Ships dock"));
    // A gallery is none of the other groups: the comment and chrome passes leave it.
    for chrome in [false, true] {
        let (text, did) = dropped_in(&article_with_gallery(120, ""), "", chrome);
        assert!(!did && text.contains("Ships dock"));
    }
}

#[test]
fn pipeline_drops_a_gallery_with_or_without_keep_comments() {
    let html = article_with_gallery(150, "");
    for keep_comments in [false, true] {
        let text = main_text_all_content(&html, keep_comments);
        assert!(text.contains("a146 report"), "{text}");
        assert!(
            !text.contains("Crowds arrive") && !text.contains("Night falls"),
            "{text}"
        );
    }
}

#[test]
fn real_article_loses_its_slide_show_captions() {
    // independent.co.uk (Readability's `bug-1255978`): a 50-slide "Business news in pictures"
    // gallery (div.full-gallery > ul.legends) inside the article, under
    // `<body class="… inline-gallery …">`. The embedded model keeps the captions (1,307 words
    // against a 753-word gold); the rule leaves the article's text alone.
    let Some(bytes) = common::shared_page(
        "real_article_loses_its_slide_show_captions",
        "readability/html/bug-1255978.html.gz",
    ) else {
        return;
    };
    let page = Page::from_bytes(&bytes, &pagelevel::PageOptions::default()).unwrap();
    let text = analyze(page, Model::embedded(), &Options::default()).main_text();
    assert!(!text.contains("United goin down"), "{text}");
    assert!(!text.contains("Star Wars boosts economy"));
    assert!(
        text.contains("Most people go to hotels for the pleasure of sleeping"),
        "{text}"
    );
}

/// An article of `n` words with a pull quote in an `<aside>`, then a sidebar marked
/// `role=complementary` and one only named `sidebar`.
fn article_with_asides(n: usize) -> String {
    format!(
        "<body><article><h1>Tide tables</h1><p>{} report</p><aside><p>Fact box: high water \
         at six</p></aside></article><div role=complementary><p>Live: ferry delayed</p></div>\
         <div class=sidebar><p>Widget weather sunny</p></div></body>",
        words("a", n - 3),
    )
}

#[test]
fn asides_leave_an_article_by_tag_or_role_not_by_name() {
    // Tide tables + 117 words + report + the named sidebar's 3 = 123 kept outside the
    // landmarks.
    let (text, did) = dropped_bits(&article_with_asides(120), "", ASIDE_LANDMARK_BIT);
    assert!(did);
    assert!(text.contains("a116 report"), "{text}");
    assert!(
        !text.contains("Fact box") && !text.contains("ferry delayed"),
        "{text}"
    );
    // A class name alone is the sidebar group, not the landmark: it stays.
    assert!(text.contains("Widget weather"), "{text}");
    // 2 + 93 + 1 + 3 = 99 words outside: the asides stay.
    let (text, did) = dropped_bits(&article_with_asides(96), "", ASIDE_LANDMARK_BIT);
    assert!(!did && text.contains("ferry delayed"), "{text}");
    // The pipeline drops them with or without keep_comments.
    for keep_comments in [false, true] {
        let text = main_text_all_content(&article_with_asides(150), keep_comments);
        assert!(
            text.contains("a146 report") && !text.contains("Fact box"),
            "{text}"
        );
    }
}

#[test]
fn real_article_loses_its_live_feed_aside() {
    // liberation.fr (Readability's `liberation-1`): a live news feed in `<aside id=sidebar
    // role=complementary>` beside a short AFP story. With every visible text kept, the landmark
    // pass drops the feed and leaves the story.
    assert_shared_drops(
        "real_article_loses_its_live_feed_aside",
        "readability/html/liberation-1.html.gz",
        ASIDE_LANDMARK_BIT,
        &["Un troisième Français a été tué"],
        &["Un artiste arrêté pour avoir coloré un geyser"],
    );
}

/// A page with a site banner, a page-level header holding the headline, an article of `n` words
/// with its own footer, the page's footer and a `role=contentinfo` block.
fn page_with_landmarks(n: usize) -> String {
    format!(
        "<html><head><title>Harbour reopens after storm</title></head><body>\
         <header><p>Site banner text</p></header>\
         <header class=story-head><h1>Harbour reopens after storm</h1><p>By a reporter</p></header>\
         <article><p>{} report</p><footer><p>Filed under harbour</p></footer></article>\
         <footer><p>Copyright owner</p></footer><div role=contentinfo><p>Contact desk</p></div>\
         </body></html>",
        words("a", n - 1),
    )
}

#[test]
fn the_page_header_and_footer_leave_an_article_but_its_headline_stays() {
    // Without a spared node every page-level landmark goes, the headline's header too; the
    // article's own footer (inside <article>) stays.
    let (text, did) = dropped_bits(&page_with_landmarks(150), "", PAGE_LANDMARK_BIT);
    assert!(did);
    assert!(
        text.contains("a148 report") && text.contains("Filed under harbour"),
        "{text}"
    );
    assert_lacks(
        &text,
        &[
            "Site banner",
            "Harbour reopens",
            "Copyright owner",
            "Contact desk",
        ],
    );
    // The pipeline spares the header holding the title heading (the h1 sharing <title>'s words).
    for keep_comments in [false, true] {
        let text = main_text_all_content(&page_with_landmarks(150), keep_comments);
        assert!(text.contains("Harbour reopens after storm") && text.contains("By a reporter"));
        assert!(text.contains("a148 report") && text.contains("Filed under harbour"));
        assert_lacks(&text, &["Site banner", "Copyright owner", "Contact desk"]);
    }
}

/// A thread page: the opening post (`op_words` words) in `<div id=thread>`, then `replies`
/// replies in a comment region (`<div class=replies>`). Posts are marked up `div.message >
/// div.message-main > div.message-body`; `reply_markup` replaces the replies' `message-main`.
fn thread_page(op_words: usize, replies: usize, reply_markup: &str) -> String {
    let post = |main: &str, text: String| {
        format!(
            "<div class=message><div class={main}><div class=message-body><p>{text}</p>\
             </div></div></div>"
        )
    };
    let body: String = (0..replies)
        .map(|k| {
            post(
                reply_markup,
                format!("reply{k} says {}", words(&format!("r{k}x"), 12)),
            )
        })
        .collect();
    format!(
        "<body><div id=thread><h1>Which saw first</h1>{}<div class=replies>{body}</div></div>\
         </body>",
        post("message-main", words("op", op_words)),
    )
}

/// [`keep_replies`] on `bytes` with the first element for which `is_main` holds as main node
/// and the text nodes for which `kept` holds kept: whether it found a thread, and the text
/// before and after.
fn replies_on(
    bytes: &[u8],
    kept: impl Fn(&Dom, &PageFeatures, usize) -> bool,
    is_main: impl Fn(&Dom, usize) -> bool,
) -> (bool, String, String) {
    on_page(bytes, kept, |dom, pf, cx, mut keep| {
        let main = (0..dom.len()).find(|&i| is_main(dom, i)).unwrap();
        let before = render_text(dom, &pf.visible, &keep);
        let thread = keep_replies(cx, main, &mut keep);
        (thread, before, render_text(dom, &pf.visible, &keep))
    })
}

/// [`replies_on`] `html` with the thread node (`id=thread`) as main node, every text kept but
/// the replies' (`reply…`): whether it found a thread, and the text it keeps.
fn replies_kept(html: &str) -> (bool, String) {
    let (thread, _, after) = replies_on(
        html.as_bytes(),
        |dom, _, i| !dom.text(i).starts_with("reply"),
        |dom, i| dom.attr(i, "id") == Some("thread"),
    );
    (thread, after)
}

#[test]
fn replies_marked_up_as_the_opening_post_are_kept() {
    // The opening post's message-body (30 words ≥ 20) has the replies' markup over three
    // levels (message-body, message-main, message), and three replies sit in the comment region.
    let (thread, text) = replies_kept(&thread_page(30, 3, "message-main"));
    assert!(thread);
    assert!(text.contains("op29") && text.contains("reply0 says") && text.contains("r2x11"));
}

#[test]
fn replies_need_the_markup_the_length_and_two_twins() {
    // A grandparent class apart (a blog's comment markup beside its article's): no twins.
    let (thread, text) = replies_kept(&thread_page(30, 3, "comment-main"));
    assert!(!thread);
    assert!(!text.contains("reply0"), "{text}");
    // An opening post of 19 words is below MIN_POST_WORDS: its markup may be a label's.
    let (thread, _) = replies_kept(&thread_page(19, 3, "message-main"));
    assert!(!thread);
    // One reply is not a thread (MIN_REPLY_TWINS = 2); two are.
    assert!(!replies_kept(&thread_page(30, 1, "message-main")).0);
    assert!(replies_kept(&thread_page(30, 2, "message-main")).0);
}

#[test]
fn a_page_without_comment_regions_has_no_thread() {
    let html = thread_page(30, 3, "message-main").replace("class=replies", "class=more");
    let (thread, text) = replies_kept(&html);
    assert!(!thread);
    assert!(!text.contains("reply0"), "{text}");
}

#[test]
fn real_forum_thread_keeps_its_replies() {
    // woodworkingtalk.com (WCXB 4317), a XenForo thread: the opening post sits outside the
    // comment regions (`js-replyNewMessageContainer`), each reply's `bbWrapper` inside one,
    // with the opening post's markup. With the text outside comment regions kept and the
    // thread's container as main node (as the tree filter finds it out of fold), the replies
    // come back; a blog's thread does not (wptavern, whose comments are marked up apart).
    let Some(data) = common::data_or_skip("real_forum_thread_keeps_its_replies") else {
        return;
    };
    let run = |path: &str, main_class: &str| {
        replies_on(
            &common::gunzip(&data.join(path)),
            |_, pf, i| pf.groups_in[i] & COMMENT_GROUP_BIT == 0,
            |dom, i| {
                dom.attr(i, "class")
                    .is_some_and(|c| c.starts_with(main_class))
            },
        )
    };
    let (thread, before, after) = run(
        "wcxb-dev/html/4317.html.gz",
        "california-thread-body-container",
    );
    assert!(thread);
    let reply = "It would be a definite plus if you can get a decent table saw";
    assert!(!before.contains(reply));
    assert!(after.contains("New here and keen to get into the woodworking hobby"));
    assert!(after.contains(reply) && after.contains("Cribbage board!"));
    let (thread, _, after) = run("readability/html/wordpress.html.gz", "entry-content");
    assert!(!thread);
    assert!(!after.contains("One nuance of over saturation number"));
}

#[test]
fn related_links_leave_an_article_but_its_rest_stays() {
    // 4 + 96 words of article, then a collapsed rest named `read-more-content` (its words
    // count: `more` is not a related-links name) and a "Related stories" list.
    let html = |n: usize| {
        format!(
            "<body><article><h1>Mill reopens on Monday</h1><p>{}</p>\
             <div class=read-more-content><p>The rest of the report</p></div>\
             <div class=related-stories><h3>Related stories</h3><ul><li><a href=/a>Bakery \
             closes</a></li><li><a href=/b>Dam repaired</a></li></ul></div>\
             <div class=mostPopular><a href=/c>Top ten mills</a></div></article></body>",
            words("a", n),
        )
    };
    let (text, did) = dropped_bits(&html(91), "", RELATED_GROUP_BIT);
    assert!(did);
    assert!(
        text.contains("a90") && text.contains("The rest of the report"),
        "{text}"
    );
    assert_lacks(
        &text,
        &["Related stories", "Bakery closes", "Top ten mills"],
    );
    // 4 + 90 + 5 = 99 words outside: too short to be an article the list belongs to.
    let (text, did) = dropped_bits(&html(90), "", RELATED_GROUP_BIT);
    assert!(!did);
    assert!(text.contains("Bakery closes"), "{text}");
    // The pipeline runs the pass, with or without keep_comments.
    for keep_comments in [false, true] {
        let text = main_text_all_content(&html(150), keep_comments);
        assert!(
            text.contains("a149") && !text.contains("Dam repaired"),
            "{text}"
        );
    }
}

/// [`only_chrome`] on `html` with every text node kept but those containing `unkept`.
fn chrome_only(html: &str, unkept: &str) -> bool {
    on_page(html.as_bytes(), not_containing(unkept), |_, _, cx, keep| {
        only_chrome(cx, &keep)
    })
}

#[test]
fn a_script_shell_of_chrome_has_no_main_content() {
    // A shop's product page rendered by script: the HTML holds its header, a navigation
    // landmark and its footer, 14 words in all.
    let shell = "<body><header><a href=/>Shop</a> <a href=/login>Sign in</a></header>\
                 <nav><a href=/c>Browse by category</a></nav><div id=root></div>\
                 <footer><p>Help centre, returns and refunds, report infringement</p></footer>\
                 </body>";
    assert!(chrome_only(shell, ""));
    assert_eq!(main_text_all_content(shell, false), "");
    // One word of its own outside the landmarks makes it a page with content.
    let own = shell.replace("<div id=root></div>", "<p>Sold</p>");
    assert!(!chrome_only(&own, ""));
    assert!(main_text_all_content(&own, false).contains("Sold"));
    // As many words as an article (MIN_ARTICLE_WORDS) inside a landmark: an unclosed header
    // around a story.
    let story = format!(
        "<body><header><h1>Flood</h1><p>{}</p></body>",
        words("s", 99)
    );
    assert!(chrome_only(&story.replace("s98", ""), ""));
    assert!(!chrome_only(&story, ""));
    // Nothing kept is not chrome (the all-template fallback decides then).
    assert!(!chrome_only("<body><footer>Help</footer></body>", "Help"));
}

#[test]
fn a_shell_whose_only_text_is_its_skip_link_has_no_main_content() {
    // A shop's collection page rendered by script: a WCAG skip link to `#MainContent`, an empty
    // main element, and a footer; the skip link is chrome by its own account.
    let shell = "<body><a href=\"#MainContent\" class=\"skip-to-content-link visually-hidden\">\
                 Skip to content</a><main id=MainContent></main>\
                 <footer><p>Returns</p></footer></body>";
    assert!(chrome_only(shell, ""));
    assert_eq!(main_text_all_content(shell, false), "");
    // A link to the same place whose text is not a skip text is the page's own.
    let own = shell.replace("Skip to content", "Winter jackets");
    assert!(!chrome_only(&own, ""));
    assert!(main_text_all_content(&own, false).contains("Winter jackets"));
    // A skip link whose target the page lacks is still a skip link, and still chrome.
    assert!(chrome_only(&shell.replace("id=MainContent", ""), ""));
}
