//! Markdown and HTML that keep structure (`src/output/render.rs`): each construct on a page
//! written here, links and images with `--links`/`--images`, and wcxb-dev 0497, the page laid
//! out in tables, on the real data.

use crate::common;

use pagelevel::dom::{parse, visibility};
use pagelevel::output::render::{best_candidate, render_with, Format, RenderOptions};
use pagelevel::Limits;

/// `html` rendered with every visible node kept.
fn md_with(html: &str, format: Format, opts: &RenderOptions<'_>) -> String {
    let dom = parse(html, &Limits::default()).unwrap();
    let vis = visibility(&dom);
    render_with(&dom, &vis, &vec![true; dom.len()], format, opts)
}

fn md(html: &str) -> String {
    md_with(html, Format::Markdown, &RenderOptions::default())
}

#[test]
fn headings_keep_their_levels_and_stay_on_one_line() {
    assert_eq!(
        md("<h1>Top</h1><h3><div>Third</div> <span>level</span></h3><p>Body</p>"),
        "# Top\n\n### Third level\n\nBody"
    );
}

#[test]
fn a_data_table_is_a_pipe_table() {
    let html = "<table><tr><th>Name</th><th>Size</th></tr>\
        <tr><td><p>alpha</p></td><td>1</td></tr><tr><td>beta</td><td>2</td></tr></table>";
    assert_eq!(
        md(html),
        "| Name | Size |\n| --- | --- |\n| alpha | 1 |\n| beta | 2 |"
    );
    let html = "<table><tr><th>a</th><th>b</th></tr><tr><td>1</td><td>2</td></tr></table>";
    let h = md_with(html, Format::Html, &RenderOptions::default());
    assert!(h.contains("<table>") && h.contains("<th>a</th>"), "{h}");
}

#[test]
fn layout_tables_render_as_their_content() {
    // A page laid out in a table: nested tables, the article in one cell.
    let html = "<table><tr><td><table><tr><td>Menu</td><td>Links</td></tr></table></td></tr>\
        <tr><td><h1>Story</h1><p>First paragraph.</p><p>Second paragraph.</p></td></tr></table>";
    let out = md(html);
    assert!(!out.contains('|'), "{out}");
    assert!(
        out.contains("# Story\n\nFirst paragraph.\n\nSecond paragraph."),
        "{out}"
    );
    // role=presentation, and one cell a row.
    let out = md("<table role=presentation><tr><td>a</td><td>b</td></tr></table>");
    assert_eq!(out, "a\n\nb");
    assert_eq!(
        md("<table><tr><td>x</td></tr><tr><td>y</td></tr></table>"),
        "x\n\ny"
    );
    // A cell holding a page's content, without nested tables.
    let cell: String = (0..5).map(|k| format!("<p>Paragraph {k}.</p>")).collect();
    let out = md(&format!(
        "<table><tr><td>side</td><td>{cell}</td></tr><tr><td>a</td><td>b</td></tr></table>"
    ));
    assert!(!out.contains('|'), "{out}");
}

#[test]
fn nested_lists_are_indented_by_their_markers() {
    let html = "<ul><li><p>One</p><ul><li>one-a</li><li>one-b</li></ul></li>\
        <li>Two<ol><li>first</li><li>second</li></ol></li></ul>";
    assert_eq!(
        md(html),
        "- One\n\n  - one-a\n  - one-b\n- Two\n  1. first\n  2. second"
    );
}

#[test]
fn code_blocks_carry_their_language() {
    assert_eq!(
        md("<pre><code class=\"language-rust\">fn main() {\n    x();\n}</code></pre>"),
        "```rust\nfn main() {\n    x();\n}\n```"
    );
    assert_eq!(
        md("<pre class=\"lang-py prettyprint\">print(1)</pre>"),
        "```py\nprint(1)\n```"
    );
    assert_eq!(md("<pre>plain</pre>"), "```\nplain\n```");
    // No fence-breaking language from a hostile class.
    assert_eq!(md("<pre class=\"language-a`b\">z</pre>"), "```\nz\n```");
}

#[test]
fn quotes_emphasis_and_line_breaks() {
    assert_eq!(
        md("<blockquote><p>Said <em>this</em> and <b>that</b></p></blockquote>"),
        "> Said *this* and **that**"
    );
    assert_eq!(
        md("<p>one<br>two<br></p><p>three</p>"),
        "one\\\ntwo\n\nthree"
    );
    let h = md_with(
        "<p>a <strong>b</strong> <i>c</i></p>",
        Format::Html,
        &RenderOptions::default(),
    );
    assert_eq!(h, "<p>a <strong>b</strong> <em>c</em></p>\n");
}

#[test]
fn links_are_absolute_against_the_page_url() {
    let opts = RenderOptions {
        links: true,
        images: false,
        base: Some("https://example.org/blog/post.html"),
    };
    let html = "<p>See <a href=\"../docs/a b.html\">the <em>docs</em></a>, \
        <a href=\"//cdn.example.net/x\">cdn</a>, <a href=\"javascript:go()\">no link</a> \
        and <a href=\"#top\">top</a>.</p>";
    assert_eq!(
        md_with(html, Format::Markdown, &opts),
        "See [the *docs*](https://example.org/docs/a%20b.html), \
         [cdn](https://cdn.example.net/x), no link and \
         [top](https://example.org/blog/post.html#top)."
    );
    let h = md_with(
        "<p><a href=\"/q?a=1&amp;b=2\">q</a></p>",
        Format::Html,
        &opts,
    );
    assert_eq!(
        h,
        "<p><a href=\"https://example.org/q?a=1&amp;b=2\">q</a></p>\n"
    );
    // Without --links a link is its text.
    assert_eq!(md(html), "See the *docs*, cdn, no link and top.");
}

#[test]
fn srcset_gives_its_best_candidate() {
    assert_eq!(
        best_candidate("small.jpg 480w, big.jpg 1080w, mid.jpg 800w"),
        Some("big.jpg")
    );
    assert_eq!(best_candidate("a.png, b.png 2x, c.png 1.5x"), Some("b.png"));
    // Commas inside a URL, and a width beating any density.
    assert_eq!(
        best_candidate("https://i.example/w_100,h_50/x.jpg 100w, y.jpg 3x"),
        Some("https://i.example/w_100,h_50/x.jpg")
    );
    assert_eq!(best_candidate("  , "), None);
}

#[test]
fn images_take_srcset_and_lazy_sources() {
    let opts = RenderOptions {
        links: true,
        images: true,
        base: Some("https://example.org/a/"),
    };
    let html = "<article><p>Intro text of the story.</p>\
        <figure><img src=\"data:image/gif;base64,R0\" data-src=\"/img/lazy.jpg\" alt=\"Lazy\">\
        <figcaption>A caption</figcaption></figure>\
        <p>Inline <img srcset=\"s.jpg 1x, l.jpg 2x\" src=\"s.jpg\" alt=\"[x]\"> picture \
        <a href=\"/full\"><img data-lazy-src=\"t.jpg\" alt=\"\"></a>.</p></article>";
    assert_eq!(
        md_with(html, Format::Markdown, &opts),
        "Intro text of the story.\n\n![Lazy](https://example.org/img/lazy.jpg)\n\nA caption\n\n\
         Inline ![\\[x\\]](https://example.org/a/l.jpg) picture \
         [![](https://example.org/a/t.jpg)](https://example.org/full)."
    );
    let h = md_with(html, Format::Html, &opts);
    assert!(
        h.contains("<img src=\"https://example.org/a/l.jpg\" alt=\"[x]\">"),
        "{h}"
    );
    // Without --images, none.
    assert!(!md(html).contains("!["));
    // An image whose nearest text is not kept is not kept.
    let dom = parse(
        "<div><p>kept words</p></div><div><img src=a.jpg><p>dropped words</p></div>",
        &Limits::default(),
    )
    .unwrap();
    let vis = visibility(&dom);
    let keep: Vec<bool> = (0..dom.len())
        .map(|i| dom.text(i) != "dropped words")
        .collect();
    let out = render_with(&dom, &vis, &keep, Format::Markdown, &opts);
    assert_eq!(out, "kept words");
}

#[test]
fn the_text_format_has_no_links_or_images() {
    let dir = std::env::temp_dir().join(format!("pagelevel-markdown-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let page = dir.join("p.html");
    let body: String = (0..6)
        .map(|k| format!("<p>Paragraph {k} of the article, with <a href=\"/l{k}\">a link</a> and words enough to be content.</p>"))
        .collect();
    std::fs::write(&page, format!("<html><body><article><h1>Head</h1>{body}<img src=/i.png alt=pic></article></body></html>")).unwrap();
    let run = |args: &[&str]| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_pagelevel"))
            .arg("extract")
            .args(args)
            .arg(&page)
            .output()
            .unwrap();
        assert!(out.status.success());
        String::from_utf8(out.stdout).unwrap()
    };
    let text = run(&[
        "--format",
        "text",
        "--links",
        "--images",
        "--url",
        "https://e.org/",
    ]);
    assert_eq!(text, run(&["--format", "text"]));
    assert!(!text.contains("](") && !text.contains("https://e.org"));
    let md = run(&[
        "--format",
        "markdown",
        "--links",
        "--images",
        "--url",
        "https://e.org/",
    ]);
    assert!(md.contains("[a link](https://e.org/l0)"), "{md}");
}

/// wcxb-dev 0497, laid out in nested tables, is no Markdown table holding the article.
#[test]
fn wcxb_0497_is_not_one_table_cell() {
    let Some(data) = common::data_or_skip("wcxb_0497_is_not_one_table_cell") else {
        return;
    };
    let bytes = common::gunzip(&data.join("wcxb-dev/html/0497.html.gz"));
    let page = pagelevel::Page::from_bytes(&bytes, &pagelevel::PageOptions::default()).unwrap();
    let a = pagelevel::analyze(
        page,
        pagelevel::Model::embedded(),
        &pagelevel::Options::default(),
    );
    let out = a.main_rendered(Format::Markdown);
    assert!(!out.lines().any(|l| l.starts_with('|')), "{out}");
    assert!(out.starts_with("# Survival Guide to SysV Init"), "{out}");
    assert!(out.contains("\n## Overview\n"), "{out}");
}

#[test]
fn a_break_in_a_code_block_is_a_new_line_without_a_backslash() {
    assert_eq!(
        md("<pre><code>ls -l<br>cd /tmp</code></pre>"),
        "```\nls -l\ncd /tmp\n```"
    );
    // Outside code a break stays a hard break.
    assert_eq!(md("<p>one<br>two</p>"), "one\\\ntwo");
}

#[test]
fn a_fence_in_the_code_does_not_close_the_block() {
    let out = md("<pre>Query:\n```tasks\nnot done\n```</pre><p>After.</p>");
    assert_eq!(out, "````\nQuery:\n```tasks\nnot done\n```\n````\n\nAfter.");
    // A pre inside a pre is inside the same fence.
    assert_eq!(md("<pre>a\n<pre>b</pre></pre>"), "```\na\nb\n```");
}

#[test]
fn emphasis_around_blocks_renders_as_its_content() {
    // `**` cannot span paragraphs; the bold inside the paragraph still renders.
    assert_eq!(
        md("<strong><div><p>Virtual <b>Classroom</b></p></div></strong><p>Fully online</p>"),
        "Virtual **Classroom**\n\nFully online"
    );
    assert_eq!(md("<p><em>in line</em></p>"), "*in line*");
    // A line break is no block: the emphasis stays.
    assert_eq!(
        md("<li><b>Keep it.<br></b>Then</li>"),
        "- **Keep it.**\\\n  Then"
    );
}

#[test]
fn inline_code_fences_outlast_the_backticks_inside() {
    // CommonMark: a span's fence is a run of backticks that no run inside matches; content that
    // starts or ends with a backtick gets a space inside each end (stripped by the reader).
    assert_eq!(
        md("<p>Use <code>a`b</code>, <code>``x</code> and <code>plain</code>.</p>"),
        "Use ``a`b``, ``` ``x ``` and `plain`."
    );
    // Highlighted code: the fence counts runs across the span's pieces; nested code is one span.
    assert_eq!(
        md("<p><code><span>x</span><code>`y`</code></code></p>"),
        "`` x`y` ``"
    );
    // HTML keeps its tags, nested ones included.
    let h = md_with(
        "<p><code>a`b<code>c</code></code></p>",
        Format::Html,
        &RenderOptions::default(),
    );
    assert!(h.contains("<code>a`b<code>c</code></code>"), "{h}");
}

#[test]
fn a_break_before_a_block_leaves_no_backslash() {
    // A hard break at the end of a block is no line break: its `\` would stay literal.
    assert_eq!(
        md("<div>Intro<br><ul><li>one</li><li>two</li></ul></div><p>After.</p>"),
        "Intro\n- one\n- two\n\nAfter."
    );
    assert_eq!(
        md("<ul><li>Item<br><ul><li>nested</li></ul></li><li>b<br></li><li>c</li></ul>"),
        "- Item\n  - nested\n- b\n- c"
    );
    assert_eq!(md("<div>Title<br><h2>Next</h2></div>"), "Title\n\n## Next");
    // Between inline text it stays, also before emphasis and links.
    assert_eq!(
        md("<p>one<br>two<br><em>three</em></p>"),
        "one\\\ntwo\\\n*three*"
    );
}

#[test]
fn a_break_before_the_first_text_of_inline_markup_still_breaks() {
    // wcxb-dev 0148: `2025<strong><br>TRAVEL:</strong>` ran the two lines together.
    let html = "<p>By 2025<strong><br>TRAVEL: </strong>soon</p><p><br>Next</p>\
        <div>x<span><br></span></div><h2><br>Head</h2>";
    assert_eq!(
        md(html),
        "By 2025\\\n**TRAVEL:** soon\n\nNext\n\nx\n\n## Head"
    );
    let h = md_with(html, Format::Html, &RenderOptions::default());
    assert!(
        h.starts_with("<p>By 2025<strong><br>\nTRAVEL:</strong> soon</p>"),
        "{h}"
    );
    // A `<br>` whose parents start with a block lands in no block of its own: it is dropped.
    assert!(
        h.contains("\n\n<p>Next</p>\n\nx<br>\n\n<h2>Head</h2>"),
        "{h}"
    );
}

#[test]
fn inline_code_fences_count_only_rendered_backticks() {
    // Hidden text is not written, so its backticks do not lengthen the fence.
    assert_eq!(
        md("<p><code>a<span style=\"display:none\">``</span>b</code></p>"),
        "`ab`"
    );
    // A run split across highlighter spans is one run in the output.
    assert_eq!(md("<p><code>a`<span>`</span>b</code></p>"), "```a``b```");
    assert_eq!(
        md("<pre>x\n``<span>`</span>\ny</pre>"),
        "````\nx\n```\ny\n````"
    );
    // Touching spans stay two spans.
    assert_eq!(
        md("<p><code>a</code><code>b</code> and <code>`</code><code>c</code></p>"),
        "`a` `b` and `` ` `` `c`"
    );
}

#[test]
fn text_at_a_line_start_is_no_block_start() {
    assert_eq!(
        md("<p>- not a list</p><p>+ plus</p><p>-</p>"),
        "\\- not a list\n\n\\+ plus\n\n\\-"
    );
    // A numbered paragraph stays: Markdown reads an item showing the same number and text.
    assert_eq!(md("<p>2024. A year</p><p>3) x</p>"), "2024. A year\n\n3) x");
    // Only what Markdown would read as a block start is escaped.
    assert_eq!(
        md("<p>-5 degrees, +3, 1.5 m, 2.</p><p>--</p><p>==</p>"),
        "-5 degrees, +3, 1.5 m, 2.\n\n--\n\n=="
    );
    assert_eq!(
        md("<p>---</p><p>- - -</p><p>~~~ fence</p><p># hash</p><p>&gt; quote</p>"),
        "\\---\n\n\\- - -\n\n\\~\\~\\~ fence\n\n\\# hash\n\n\\> quote"
    );
    // The line is checked as written: text split across nodes, and after a list marker.
    assert_eq!(
        md("<p>a<br><span>1</span>. split</p><ul><li>- dash</li><li>+</li></ul>"),
        "a\\\n1\\. split\n\n- \\- dash\n- \\+"
    );
    // Headings, table cells and code blocks are no paragraph lines.
    assert_eq!(
        md("<h2>1. Intro</h2><table><tr><th>- a</th><th>1. b</th></tr>\
            <tr><td>x</td><td>y</td></tr></table><pre>- a\n1. b\n---</pre>"),
        "## 1. Intro\n\n| - a | 1. b |\n| --- | --- |\n| x | y |\n\n```\n- a\n1. b\n---\n```"
    );
}

#[test]
fn a_hard_break_is_followed_by_no_block_start() {
    // After `\` the line continues the paragraph: a list numbered 1, a bullet, a setext
    // underline or a one-column table's delimiter row would end it (and the `\` would be
    // literal); a list numbered otherwise cannot interrupt a paragraph.
    assert_eq!(
        md("<p>Steps<br>1. one<br>2. two<br>- dash<br>+</p>"),
        "Steps\\\n1\\. one\\\n2. two\\\n\\- dash\\\n+"
    );
    // An underline is a whole line: one ending in the next break's `\` is none.
    assert_eq!(
        md("<p>a<br>===</p><p>b<br>--</p><p>c<br>:--</p><p>d<br>===<br>e</p>"),
        "a\\\n\\===\n\nb\\\n\\--\n\nc\\\n\\:--\n\nd\\\n===\\\ne"
    );
    assert_eq!(md("<ul><li>a<br>+ b</li></ul>"), "- a\\\n  \\+ b");
}

#[test]
fn a_pipe_in_code_in_a_table_cell_is_escaped() {
    let html = "<table><tr><th>op</th><th>x</th></tr>\
        <tr><td><code>a|b</code></td><td>c|d</td></tr></table>";
    assert_eq!(md(html), "| op | x |\n| --- | --- |\n| `a\\|b` | c\\|d |");
    // Outside a table `|` in code is literal.
    assert_eq!(md("<p><code>a|b</code></p>"), "`a|b`");
}

#[test]
fn a_break_in_inline_code_closes_and_reopens_the_span() {
    assert_eq!(md("<p><code>ls<br>cd /tmp</code></p>"), "`ls`\\\n`cd /tmp`");
    // Each part is padded on its own; the fence counts the whole span.
    assert_eq!(
        md("<p><code>`a<br><br>b``</code> end</p>"),
        "``` `a ```\\\n``` b`` ``` end"
    );
    // In a table cell a break is a space: the span stays one.
    assert_eq!(
        md("<table><tr><th>c</th><th>d</th></tr><tr><td><code>a<br>b</code></td><td>e</td></tr></table>"),
        "| c | d |\n| --- | --- |\n| `a b` | e |"
    );
}

#[test]
fn tildes_and_pipes_in_link_urls_read_back_as_text() {
    // GFM reads `~~x~~` (and `~x~`) as strikethrough; a `|` in a URL ends a table cell.
    assert_eq!(md("<p>~~old~~ ~5 min</p>"), "\\~\\~old\\~\\~ \\~5 min");
    let opts = RenderOptions {
        links: true,
        ..RenderOptions::default()
    };
    let html = "<table><tr><th>a</th><th>b</th></tr><tr><td><a href='https://x.org/?q=a|b'>q</a>\
                </td><td>2</td></tr></table>";
    assert_eq!(
        md_with(html, Format::Markdown, &opts),
        "| a | b |\n| --- | --- |\n| [q](https://x.org/?q=a%7Cb) | 2 |"
    );
}
