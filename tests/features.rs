//! Node features on small pages worked out by hand, and on every page of l3s-gn1 and sites.

use crate::common;

use pagelevel::dom::Kind;
use pagelevel::features::scoring_root;
use pagelevel::features::{self, f, FeatureOptions, Rows, COUNT, NAMES};
use pagelevel::segment::{scored_mask, DEFAULT_MIN_AREA};
use pagelevel::{Limits, Page, Spans};

fn page(html: &str, url: Option<&str>) -> (Page, features::PageFeatures) {
    let p = Page::from_bytes(
        html.as_bytes(),
        &pagelevel::PageOptions {
            url,
            ..Default::default()
        },
    )
    .unwrap();
    let pf = features::compute(&p.dom, url, &FeatureOptions::default());
    (p, pf)
}

fn find(p: &Page, id: &str) -> usize {
    (0..p.dom.len())
        .find(|&i| p.dom.attr(i, "id") == Some(id))
        .unwrap_or_else(|| panic!("no #{id}"))
}

#[test]
fn names_and_docs_line_up() {
    assert_eq!(NAMES.len(), COUNT);
    assert_eq!(NAMES[f::NUM_WORDS], "num_words");
    assert_eq!(NAMES[f::BLOCK_CONTENT_SHARE], "block_content_share");
    for d in features::DOCS {
        assert!(!d.contains('\n') && d.ends_with('.'), "{d}");
    }
}

#[test]
fn link_features_by_hand() {
    let html = r#"<html><head><title>Tidal mill rebuilt in Wendle Bay</title></head><body>
        <ul id=nav><li><a href="/news">Local news</a></li><li><a href="https://other.org/x">Other site</a></li>
        <li><a href="https://www.example.com/y">Same site</a></li><li><a href="mailto:a@b">Mail</a></li></ul>
        <p id=story>The tidal mill in Wendle Bay was rebuilt. It turns again! See <a href="/more">more photos</a></p>
        </body></html>"#;
    let (p, pf) = page(html, Some("https://news.example.com/a"));
    let nav = pf.matrix.row(find(&p, "nav"));
    // 4 links, 7 words, all of them linked.
    assert_eq!(nav[f::NUM_WORDS], 7.0);
    assert_eq!(nav[f::LINK_DENSITY], 1.0);
    assert_eq!(nav[f::ANCHOR_TEXT_SHARE], 1.0);
    assert!((nav[f::LINKS_PER_WORD] - 4.0 / 7.0).abs() < 1e-6);
    assert!((nav[f::ANCHOR_SIZE] - 7.0 / 4.0).abs() < 1e-6);
    // mailto is not judged; of the 3 web links, /news and www.example.com stay on example.com.
    assert!((nav[f::INTRA_SITE_LINKS] - 2.0 / 3.0).abs() < 1e-6);
    let story = pf.matrix.row(find(&p, "story"));
    // "The tidal mill in Wendle Bay was rebuilt It turns again See more photos": 14 words, 2 linked.
    assert_eq!(story[f::NUM_WORDS], 14.0);
    assert!((story[f::LINK_DENSITY] - 2.0 / 14.0).abs() < 1e-6);
    // Title words without stop words: tidal mill rebuilt wendle bay (in is a stop word): 5 of 5.
    assert_eq!(story[f::TITLE_OVERLAP], 1.0);
    assert_eq!(nav[f::TITLE_OVERLAP], 0.0);
    // Sentences: "rebuilt." and "again!" end two; the rest counts as none: 14 / 2.
    assert!((story[f::AVG_SENTENCE_LENGTH] - 7.0).abs() < 1e-6);
    // Capitalised: The Wendle Bay It See.
    assert!((story[f::CAPITALIZED_SHARE] - 5.0 / 14.0).abs() < 1e-6);
}

#[test]
fn parent_and_page_features_by_hand() {
    let html = r#"<html><body>
        <div id=wrap><p id=lead>One two three four five six</p><ul><li><a href="/a">Seven eight</a></li></ul></div>
        <p id=other>Nine ten</p></body></html>"#;
    let (p, pf) = page(html, None);
    let lead = pf.matrix.row(find(&p, "lead"));
    let wrap = pf.matrix.row(find(&p, "wrap"));
    // The page: 10 words, 2 of them linked and inside <li>, 2 <p> elements.
    for row in [lead, wrap] {
        assert_eq!(row[f::PAGE_WORDS], 10.0);
        assert!((row[f::PAGE_LINK_DENSITY] - 0.2).abs() < 1e-6);
        assert!((row[f::PAGE_LIST_ITEM_SHARE] - 0.2).abs() < 1e-6);
        assert!((row[f::PAGE_PARAGRAPHS_PER_100_WORDS] - 20.0).abs() < 1e-4);
    }
    // lead holds 6 of wrap's 8 words; wrap's link density is 2/8.
    assert!((lead[f::PARENT_WORD_SHARE] - 0.75).abs() < 1e-6);
    assert!((lead[f::PARENT_LINK_DENSITY] - 0.25).abs() < 1e-6);
    // wrap holds 8 of the body's 10 words.
    assert!((wrap[f::PARENT_WORD_SHARE] - 0.8).abs() < 1e-6);
    assert!((wrap[f::PARENT_LINK_DENSITY] - 0.2).abs() < 1e-6);
}

#[test]
fn declared_page_types_by_hand() {
    // JSON-LD names a Product (in an array of types) and OpenGraph an article; microdata a
    // QAPage; nothing names a list. Every row carries the page's bits.
    let html = r#"<html><head><meta property="og:type" content="article">
        <script type="application/ld+json">{"@type": ["Product", "Thing"], "name": "Saw"}</script>
        </head><body itemscope itemtype="https://schema.org/QAPage">
        <p id=q>Which saw first</p><p id=a>The cheap one</p></body></html>"#;
    let (p, pf) = page(html, None);
    assert!(pf.declares_discussion);
    for id in ["q", "a"] {
        let row = pf.matrix.row(find(&p, id));
        assert_eq!(row[f::PAGE_DECLARES_ARTICLE], 1.0);
        assert_eq!(row[f::PAGE_DECLARES_PRODUCT], 1.0);
        assert_eq!(row[f::PAGE_DECLARES_DISCUSSION], 1.0);
        assert_eq!(row[f::PAGE_DECLARES_LIST], 0.0);
    }
    // A page that declares nothing: every bit 0; a JSON-LD type in a script of another type
    // (plain JavaScript) and an og:type of website count for nothing.
    let html = r#"<html><head><meta property="og:type" content="website">
        <script>var t = {"@type": "Product"};</script></head><body><p id=q>Plain page</p></body></html>"#;
    let (p, pf) = page(html, None);
    assert!(!pf.declares_discussion);
    let row = pf.matrix.row(find(&p, "q"));
    for col in [
        f::PAGE_DECLARES_ARTICLE,
        f::PAGE_DECLARES_PRODUCT,
        f::PAGE_DECLARES_DISCUSSION,
        f::PAGE_DECLARES_LIST,
    ] {
        assert_eq!(row[col], 0.0);
    }
}

#[test]
fn geometry_features_by_hand() {
    let html = "<body><div id=a style='width:640px'>left</div><div id=b>below</div></body>";
    let (p, pf) = page(html, None);
    let a = find(&p, "a");
    let r = pf.layout.rects[a];
    let row = pf.matrix.row(a);
    let page = pf.layout.page;
    assert!((row[f::MARGIN_LEFT] - r.x / page.w).abs() < 1e-6);
    assert!((row[f::MARGIN_RIGHT] - (page.w - r.x - r.w) / page.w).abs() < 1e-6);
    assert!((row[f::AREA] - r.w * r.h).abs() < 1e-3);
    assert!((row[f::AREA_FRACTION] - r.w * r.h / (page.w * page.h)).abs() < 1e-6);
    // A box in the top-left corner is far from the centre; the page box is at it.
    let html_row = pf.matrix.row(1);
    assert!(html_row[f::CENTER_DISTANCE] < 1e-6);
    assert!(row[f::CENTER_DISTANCE] > 0.2);
}

#[test]
fn chars_per_byte_counts_script_bytes() {
    let plain = "<body><p id=p>abcdefghij</p></body>";
    let scripted = "<body><p id=p>abcdefghij<script>var x = 'a long script that is not visible';</script></p></body>";
    let (p1, f1) = page(plain, None);
    let (p2, f2) = page(scripted, None);
    let a = f1.matrix.row(find(&p1, "p"))[f::CHARS_PER_BYTE];
    let b = f2.matrix.row(find(&p2, "p"))[f::CHARS_PER_BYTE];
    // <p id="p">abcdefghij</p>, as the byte estimate counts it, is 24 bytes with 10 visible
    // characters.
    assert!((a - 10.0 / 24.0).abs() < 1e-6, "{a}");
    assert!(b < a / 2.0, "{b} vs {a}");
}

#[test]
fn leaf_blocks_carry_neighbours() {
    let html =
        "<body><p id=a>one two three</p><p id=b>four <a href=x>five</a></p><p id=c>six</p></body>";
    let (p, pf) = page(html, None);
    let b = pf.matrix.row(find(&p, "b"));
    assert_eq!(b[f::IS_LEAF_BLOCK], 1.0);
    assert_eq!(b[f::PREV_NUM_WORDS], 3.0);
    assert_eq!(b[f::NEXT_NUM_WORDS], 1.0);
    assert_eq!(b[f::PREV_LINK_DENSITY], 0.0);
    let a = pf.matrix.row(find(&p, "a"));
    assert_eq!(a[f::PREV_NUM_WORDS], 0.0);
    assert!((a[f::NEXT_LINK_DENSITY] - 0.5).abs() < 1e-6);
}

#[test]
fn million_deep_page_features() {
    // Heavy: a 1,000,000-deep page.
    let _machine = common::heavy();
    let depth = 1_000_000;
    let mut html = String::with_capacity(depth * 6 + 16);
    html.push_str("<body>");
    for _ in 0..depth {
        html.push_str("<span>");
    }
    html.push_str("deep words here");
    let (_, pf) = page(&html, None);
    assert_eq!(pf.matrix.row(1)[f::NUM_WORDS], 3.0);
}

#[test]
fn only_elements_have_feature_rows() {
    let (p, pf) = page(
        "<body><div id=d>some words<!-- note --></div><p id=q>more words</p></body>",
        None,
    );
    assert_eq!(pf.matrix.len(), p.dom.len());
    let d = find(&p, "d");
    assert_eq!(pf.matrix.row(d)[f::NUM_WORDS], 2.0);
    assert_eq!(pf.matrix.row(find(&p, "q"))[f::NUM_WORDS], 2.0);
    // The div's text and comment children read as rows of zeros.
    let kids: Vec<usize> = (0..p.dom.len())
        .filter(|&i| p.dom.node(i).parent as usize == d)
        .collect();
    assert_eq!(kids.len(), 2);
    for k in kids {
        assert_eq!(pf.matrix.row(k), &[0.0; COUNT][..]);
    }
}

#[test]
fn every_page_of_l3s_and_sites() {
    // Heavy: every page of two data sets.
    let _machine = common::heavy();
    let Some(data) = common::data_or_skip("every_page_of_l3s_and_sites") else {
        return;
    };
    let limits = Limits::default();
    let mut pages = 0;
    for set in ["l3s-gn1", "sites"] {
        let m = common::manifest(&data, set);
        for e in &m.entries {
            let p = Page::from_path(
                &m.html_path(e),
                &pagelevel::PageOptions {
                    url: e.url.as_deref(),
                    limits,
                    ..Default::default()
                },
            )
            .unwrap_or_else(|err| panic!("{}: {err}", e.html));
            let pf = features::compute(&p.dom, e.url.as_deref(), &FeatureOptions::default());
            assert_eq!(pf.matrix.len(), p.dom.len());
            for i in 0..p.dom.len() {
                for (k, v) in pf.matrix.row(i).iter().enumerate() {
                    // Every feature is at least 0 but the title heading's and the URL's, −1
                    // without one.
                    let minus_one = [
                        f::TITLE_HEADING_RELATION,
                        f::PAGE_URL_THREAD,
                        f::PAGE_URL_DATED,
                        f::PAGE_URL_SLUG_WORDS,
                        f::PAGE_URL_DEPTH,
                    ];
                    let low = match minus_one.contains(&k) {
                        true => -1.0,
                        false => 0.0,
                    };
                    assert!(
                        v.is_finite() && *v >= low,
                        "{}: {} {}={v}",
                        e.html,
                        p.dom.path(i),
                        NAMES[k]
                    );
                }
            }
            // The pipeline's rows: the same values, only where segmentation scores.
            let visible = pagelevel::dom::visibility(&p.dom);
            let layout = pagelevel::geometry::layout(&p.dom, &visible, &Default::default());
            let rows = Rows::Scorable(DEFAULT_MIN_AREA);
            let part =
                features::compute_with_layout(&p.dom, e.url.as_deref(), visible, layout, rows);
            let root = scoring_root(&p.dom);
            for i in 0..p.dom.len() {
                let expect = p.dom.node(i).kind == Kind::Element
                    && (i == root
                        || pf.visible[i] && pf.layout.rects[i].area() >= DEFAULT_MIN_AREA);
                assert_eq!(
                    part.matrix.has_row(i),
                    expect,
                    "{}: {}",
                    e.html,
                    p.dom.path(i)
                );
                if expect {
                    assert_eq!(part.matrix.row(i), pf.matrix.row(i));
                }
            }
            let (_, scored) = scored_mask(&p.dom, &part, DEFAULT_MIN_AREA);
            assert!((0..p.dom.len()).all(|i| !scored[i] || part.matrix.has_row(i)));
            pages += 1;
        }
    }
    assert_eq!(pages, 621 + 360);
}

#[test]
fn scorable_rows_skip_small_and_hidden_elements() {
    let html = r#"<body><div id=big><p id=text>A paragraph long enough to be a few lines of text
        in the estimated layout, so that its box is well over two thousand square pixels.</p>
        <span id=small>x</span><div id=hidden style="display:none">hidden words</div></div></body>"#;
    let p = Page::from_bytes(html.as_bytes(), &pagelevel::PageOptions::default()).unwrap();
    let visible = pagelevel::dom::visibility(&p.dom);
    let layout = pagelevel::geometry::layout(&p.dom, &visible, &Default::default());
    let rows = Rows::Scorable(DEFAULT_MIN_AREA);
    let pf = features::compute_with_layout(&p.dom, None, visible, layout, rows);
    let body = p.dom.body().unwrap();
    for (id, has) in [
        ("big", true),
        ("text", true),
        ("small", false),
        ("hidden", false),
    ] {
        assert_eq!(pf.matrix.has_row(find(&p, id)), has, "#{id}");
    }
    assert!(pf.matrix.has_row(body));
    // Without a row a node reads as zeros; its counts are still there for its ancestors.
    assert_eq!(pf.matrix.row(find(&p, "small")), &[0.0; COUNT][..]);
    assert_eq!(pf.counts[find(&p, "small")].words, 1);
}

#[test]
fn spans_change_nothing_but_spans() {
    // Heavy: every page of the data sets.
    let _machine = common::heavy();
    let Some(data) = common::data_or_skip("spans_change_nothing_but_spans") else {
        return;
    };

    use pagelevel::pipeline::{analyze, Options};
    let (limits, model) = (Limits::default(), pagelevel::model::Model::embedded());
    let mut pages = 0;
    for set in ["wcxb-dev", "readability"] {
        let m = common::manifest(&data, set);
        for e in m.entries.iter().step_by(17) {
            let parse = |spans| {
                let p = Page::from_path(
                    &m.html_path(e),
                    &pagelevel::PageOptions {
                        url: e.url.as_deref(),
                        limits,
                        spans,
                        ..Default::default()
                    },
                )
                .unwrap();
                analyze(p, model, &Options::default())
            };
            let (plain, spanned) = (parse(Spans::Skip), parse(Spans::Keep));
            let (a, b) = (&plain.features.matrix, &spanned.features.matrix);
            for i in 0..plain.page.dom.len() {
                assert_eq!(a.row(i), b.row(i), "{}: {}", e.html, plain.page.dom.path(i));
            }
            let mut same_y = plain.segmentation.y.iter().zip(&spanned.segmentation.y);
            assert!(
                same_y.all(|(x, y)| x.to_bits() == y.to_bits()),
                "{}",
                e.html
            );
            assert_eq!(plain.main_text(), spanned.main_text(), "{}", e.html);
            // Only the spanned parse knows where the body is in the source.
            let body = |d: &pagelevel::dom::Dom| (0..d.len()).find(|&i| d.tag_name(i) == "body");
            let b = body(&spanned.page.dom).unwrap();
            assert!(spanned.page.dom.node(b).span.is_known(), "{}", e.html);
            assert!(!plain.page.dom.node(b).span.is_known(), "{}", e.html);
            pages += 1;
        }
    }
    assert!(pages >= 35, "only {pages} pages");
}

#[test]
fn context_features_by_hand() {
    let html = r#"<html><body><div id=top><a href="/">Home</a> <a href="/x">News</a></div>
        <div id=main><div id=art><h1 id=h>A headline here</h1><p id=p1>One two three four five six seven eight nine ten eleven twelve, thirteen fourteen fifteen. Sixteen seventeen eighteen nineteen twenty.</p><p id=p2>More words here in the second paragraph of this article, which is long enough to count as content text.</p></div>
        <div id=rail><a href="/a">Link one</a> <a href="/b">Link two</a></div></div></body></html>"#;
    let (p, pf) = page(html, None);
    let row = |id: &str| pf.matrix.row(find(&p, id));
    // Words: top 2 (linked), h1 3, p1 20, p2 19, rail 4 (linked): 48. The premise: boilerpipe's
    // classifier calls the heading and both paragraphs content and the link lines template.
    assert_eq!(row("art")[f::NUM_WORDS], 42.0);
    assert_eq!(row("art")[f::BLOCK_CONTENT_SHARE], 1.0);
    assert_eq!(row("rail")[f::BLOCK_CONTENT_SHARE], 0.0);
    assert_eq!(row("top")[f::BLOCK_CONTENT_SHARE], 0.0);
    // The main region: main holds all 42 content words, art too, p1 only 20 < 2/3 · 42.
    for id in ["art", "h", "p1", "p2"] {
        assert_eq!(row(id)[f::IN_MAIN_REGION], 1.0, "{id}");
        assert_eq!(row(id)[f::ABOVE_MAIN_REGION], 0.0, "{id}");
    }
    assert_eq!(row("main")[f::ABOVE_MAIN_REGION], 1.0);
    assert_eq!(
        pf.matrix.row(p.dom.body().unwrap())[f::ABOVE_MAIN_REGION],
        1.0
    );
    for id in ["main", "rail", "top"] {
        assert_eq!(row(id)[f::IN_MAIN_REGION], 0.0, "{id}");
    }
    for id in ["rail", "top"] {
        assert_eq!(row(id)[f::ABOVE_MAIN_REGION], 0.0, "{id}");
    }
    // Every node: the main region's 42 of the page's 48 words.
    for id in ["top", "rail", "p1"] {
        assert!((row(id)[f::MAIN_REGION_SHARE] - 42.0 / 48.0).abs() < 1e-6);
    }
    // Paragraph words: 39 on the page, 20 in p1, 39 in art, none in the rail.
    assert!((row("p1")[f::PARAGRAPH_WORD_SHARE] - 20.0 / 39.0).abs() < 1e-6);
    assert_eq!(row("art")[f::PARAGRAPH_WORD_SHARE], 1.0);
    assert_eq!(row("rail")[f::PARAGRAPH_WORD_SHARE], 0.0);
    // Largest sibling: h1 3 / p1 20; p2 19 / 20; p1 is the largest; rail 4 / art 42.
    assert!((row("h")[f::LARGEST_SIBLING_SHARE] - 3.0 / 20.0).abs() < 1e-6);
    assert!((row("p2")[f::LARGEST_SIBLING_SHARE] - 19.0 / 20.0).abs() < 1e-6);
    assert_eq!(row("p1")[f::LARGEST_SIBLING_SHARE], 1.0);
    assert!((row("rail")[f::LARGEST_SIBLING_SHARE] - 4.0 / 42.0).abs() < 1e-6);
    // Content words beside the node under its parent, over the page's 42: all of them beside
    // the rail, 42 − 20 beside p1, none beside art (the rail has none).
    assert_eq!(row("rail")[f::BESIDE_CONTENT_SHARE], 1.0);
    assert!((row("p1")[f::BESIDE_CONTENT_SHARE] - 22.0 / 42.0).abs() < 1e-6);
    assert_eq!(row("art")[f::BESIDE_CONTENT_SHARE], 0.0);
}

/// `page_words_outside_comments`: content-block words outside the comment region, counted once
/// however deep the comment classes nest; the same on every row.
#[test]
fn words_outside_comments_by_hand() {
    let article = "<p>One two three four five six seven eight nine ten eleven twelve, thirteen \
                   fourteen fifteen. Sixteen seventeen eighteen nineteen twenty.</p>";
    let comment = "<p>More words here in the second paragraph of this page, which is long \
                   enough to count as content text.</p>";
    let reply = "<p>A reply that says something else again, and it is long enough to count as \
                 content.</p>";
    let html = format!(
        "<html><body><div id=art><h1 id=h>A headline here</h1>{article}</div>\
         <div id=thread class=comments><div class=comment id=c1>{comment}</div>\
         <div class=comment-reply id=c2>{reply}</div></div></body></html>"
    );
    let (p, pf) = page(&html, None);
    let row = |id: &str| pf.matrix.row(find(&p, id));
    // Premise: boilerpipe calls the heading, the paragraph and both comments content (3 + 20 +
    // 19 + 16 = 58 words), and the comment groups mark the thread and its posts.
    assert_eq!(row("art")[f::BLOCK_CONTENT_SHARE], 1.0);
    assert_eq!(row("thread")[f::BLOCK_CONTENT_SHARE], 1.0);
    assert_eq!(row("c2")[f::IN_COMMENT], 1.0);
    // The thread's 35 words are subtracted once, not again for its nested posts.
    for id in ["art", "h", "thread", "c1"] {
        assert_eq!(row(id)[f::PAGE_WORDS_OUTSIDE_COMMENTS], 23.0, "{id}");
    }
    // A page without comment classes: every content word is outside.
    let plain = html
        .replace("comment-reply", "entry")
        .replace("comments", "posts")
        .replace("comment", "entry");
    let (p, pf) = page(&plain, None);
    assert_eq!(
        pf.matrix.row(find(&p, "art"))[f::PAGE_WORDS_OUTSIDE_COMMENTS],
        58.0
    );
}

#[test]
fn main_region_stops_where_no_child_holds_two_thirds() {
    // Two columns of prose of 34 words each, both content blocks: neither holds 2/3 of the 68,
    // so the main region is their parent. A page of links alone has no content blocks and no
    // main region.
    let prose =
        "Rivers carry sand and silt down to the sea, and twice a day the tides return some \
        of it to the shore, where the dunes grow slowly over many years of wind and weather.";
    let html = format!("<body><div id=cols><div id=a><p>{prose}</p></div><div id=b><p>{prose}</p></div></div></body>");
    let (p, pf) = page(&html, None);
    let row = |id: &str| pf.matrix.row(find(&p, id));
    assert_eq!(row("cols")[f::BLOCK_CONTENT_SHARE], 1.0);
    assert_eq!(row("cols")[f::IN_MAIN_REGION], 1.0);
    assert_eq!(row("cols")[f::ABOVE_MAIN_REGION], 0.0);
    assert_eq!(row("a")[f::IN_MAIN_REGION], 1.0);
    assert_eq!(row("a")[f::LARGEST_SIBLING_SHARE], 1.0);
    assert!((row("a")[f::BESIDE_CONTENT_SHARE] - 0.5).abs() < 1e-6);
    assert!((row("b")[f::PARAGRAPH_WORD_SHARE] - 0.5).abs() < 1e-6);
    let (p, pf) = page(
        r#"<body><ul id=l><li><a href="/a">One</a></li><li><a href="/b">Two</a></li></ul></body>"#,
        None,
    );
    let l = pf.matrix.row(find(&p, "l"));
    assert_eq!(l[f::BLOCK_CONTENT_SHARE], 0.0);
    assert_eq!(l[f::IN_MAIN_REGION], 0.0);
    assert_eq!(l[f::ABOVE_MAIN_REGION], 0.0);
    assert_eq!(l[f::MAIN_REGION_SHARE], 0.0);
    assert_eq!(l[f::PARAGRAPH_WORD_SHARE], 0.0);
}

#[test]
fn title_heading_features_by_hand() {
    // The title shares "river" and "delta" with the h1 (2 words) and "river" with the h2 (1):
    // the h1 is the title heading, main its ancestor, the rest unrelated.
    let html = r#"<html><head><title>River delta news</title></head><body>
        <div id=nav><a href="/">Home page</a></div>
        <div id=main><h2 id=h2>River notes</h2><h1 id=h>The river <b id=b>delta</b></h1><p id=intro>Silt builds the land slowly.</p></div>
        <div id=side>Four words right here</div></body></html>"#;
    let (p, pf) = page(html, None);
    let rel = |id: &str| pf.matrix.row(find(&p, id))[f::TITLE_HEADING_RELATION];
    assert_eq!(rel("h"), 1.0);
    assert_eq!(rel("b"), 1.0);
    assert_eq!(rel("main"), 2.0);
    assert_eq!(
        pf.matrix.row(p.dom.body().unwrap())[f::TITLE_HEADING_RELATION],
        2.0
    );
    for id in ["nav", "h2", "intro", "side"] {
        assert_eq!(rel(id), 0.0, "{id}");
    }
    // Equal overlap: an h1 wins over an h2 before it; no heading shares a title word: −1
    // everywhere (a paragraph that does is no heading).
    let (p, pf) = page(
        r#"<title>Delta</title><body><h2 id=a>Delta</h2><h1 id=b>Delta</h1></body>"#,
        None,
    );
    assert_eq!(pf.matrix.row(find(&p, "b"))[f::TITLE_HEADING_RELATION], 1.0);
    assert_eq!(pf.matrix.row(find(&p, "a"))[f::TITLE_HEADING_RELATION], 0.0);
    let (p, pf) = page(
        r#"<title>Delta</title><body><h1 id=a>Other</h1><p id=p>Delta</p></body>"#,
        None,
    );
    assert_eq!(
        pf.matrix.row(find(&p, "a"))[f::TITLE_HEADING_RELATION],
        -1.0
    );
    assert_eq!(
        pf.matrix.row(find(&p, "p"))[f::TITLE_HEADING_RELATION],
        -1.0
    );
}

#[test]
fn class_groups_inherit_from_regions_not_from_html_and_body() {
    // A theme's page-wide body classes (has-sidebar, comment-placeholder, site-header-fixed)
    // say nothing about a region, a real sidebar and comment list do; single-post names the
    // page's type and is kept.
    let html = r#"<html class="nav-open"><body class="single-post has-sidebar comment-placeholder site-header-fixed">
        <div id="story"><p id="prose">Words of the story itself, long enough to be a block.</p></div>
        <div class="sidebar"><p id="side">Side words.</p></div>
        <ol id="comments" class="comment-list"><li><p id="said">A reader's comment.</p></li></ol>
        </body></html>"#;
    let (p, pf) = page(html, None);
    let row = |id: &str| pf.matrix.row(find(&p, id)).to_vec();
    let body = pf.matrix.row(p.dom.body().unwrap());
    for g in [f::CLS_NAV, f::CLS_HEADER, f::CLS_SIDEBAR, f::CLS_COMMENT] {
        assert_eq!(body[g], 0.0, "{}", NAMES[g]);
    }
    for g in [f::IN_NAV, f::IN_HEADER, f::IN_SIDEBAR, f::IN_COMMENT] {
        assert_eq!(row("prose")[g], 0.0, "{}", NAMES[g]);
    }
    assert_eq!(body[f::CLS_CONTENT], 1.0);
    assert_eq!(row("prose")[f::IN_CONTENT], 1.0);
    assert_eq!(row("side")[f::IN_SIDEBAR], 1.0);
    assert_eq!(row("side")[f::IN_COMMENT], 0.0);
    assert_eq!(row("comments")[f::CLS_COMMENT], 1.0);
    assert_eq!(row("said")[f::IN_COMMENT], 1.0);
    assert_eq!(row("said")[f::IN_SIDEBAR], 0.0);
}

/// The markup columns on a page worked out by hand: landmark and name bits, the relation to
/// the skip link's target, a reply marked up as the opening post, and a repeated passage.
#[test]
fn markup_features_by_hand() {
    let op = "word ".repeat(200);
    let para = "a passage of twelve words that the page prints twice over here";
    let html = format!(
        r##"<html><head><title>Thread</title></head><body id=body>
        <a href="#content" id=skip>Skip to main content</a>
        <header id=hd><p>Site banner text</p></header>
        <nav id=nv><a href="/">Home</a></nav>
        <div id=content>
          <div class=thread id=thread>
            <div class=post id=op><div class=body id=opbody>{op}</div></div>
            <div class=post id=r1><div class=body id=r1body>a short reply of eight words here</div></div>
          </div>
          <div id=rep1><p>{para}</p><p>{para}</p></div>
          <div id=rep2><p>{para}</p><p>{para}</p></div>
        </div>
        <aside id=as><p>Aside text</p></aside>
        <div class=gallery id=gal><p>Caption</p></div>
        <ul class=related-links id=rel><li><a href="/x">Other story</a></li></ul>
        <div itemprop="review" id=rv><p>Five stars</p></div>
        <footer id=ft><p>Footer text</p></footer>
        </body></html>"##
    );
    let (p, pf) = page(&html, None);
    let row = |id: &str| pf.matrix.row(find(&p, id));
    assert_eq!(pf.main_start, Some(find(&p, "content")));
    assert_eq!(row("content")[f::MAIN_START_RELATION], 1.0);
    assert_eq!(row("thread")[f::MAIN_START_RELATION], 1.0);
    assert_eq!(row("body")[f::MAIN_START_RELATION], 2.0);
    assert_eq!(row("hd")[f::MAIN_START_RELATION], 3.0);
    assert_eq!(row("ft")[f::MAIN_START_RELATION], 4.0);
    for (id, column) in [
        ("hd", f::IN_PAGE_LANDMARK),
        ("ft", f::IN_PAGE_LANDMARK),
        ("nv", f::IN_NAV_LANDMARK),
        ("as", f::IN_ASIDE_LANDMARK),
        ("gal", f::IN_GALLERY),
        ("rel", f::IN_RELATED_LIST),
        ("rv", f::IN_REVIEW),
    ] {
        assert_eq!(row(id)[column], 1.0, "{id} {}", NAMES[column]);
        assert_eq!(row("content")[column], 0.0, "content {}", NAMES[column]);
    }
    // The main region is the opening post's body (it holds over 2/3 of the content words); the
    // reply's body shares its markup key (div.body in div.post in div.thread): one twin.
    assert_eq!(row("opbody")[f::IN_MAIN_REGION], 1.0);
    assert_eq!(row("r1body")[f::MAIN_TWIN], 1.0);
    assert_eq!(row("opbody")[f::MAIN_TWIN], 0.0);
    assert_eq!(row("r1")[f::MAIN_TWIN], 0.0);
    assert_eq!(row("body")[f::MAIN_TWINS], 1.0);
    // The second copy of the two-paragraph passage is a repeat, the first is not; the
    // content element holds 24 of them among its 200 + 7 + 48 words.
    assert_eq!(row("rep2")[f::REPEAT_SHARE], 1.0);
    assert_eq!(row("rep1")[f::REPEAT_SHARE], 0.0);
    let content = row("content");
    assert!((content[f::REPEAT_SHARE] - 24.0 / content[f::NUM_WORDS]).abs() < 1e-6);
}
