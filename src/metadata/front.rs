//! The metadata above the main content in Markdown and HTML (`extract --with-metadata`): a
//! front-matter block, then the title as the first heading.

use super::title::squash;
use super::Metadata;
use crate::output::render::Format;

/// `body` (the main content rendered in `format`) preceded by `meta`'s front matter and, when
/// the content does not already open with a heading reading the same as the title, the title as
/// a level-1 heading.
///
/// Markdown: a YAML block between `---` lines, one `key: value` per present field, strings and
/// lists in JSON's notation (which YAML reads as they are), dates bare. HTML: a `<head>` with
/// `<title>` and one `<meta name=… content=…>` per field (one per item for lists).
///
/// # Complexity
/// O(len of `body` + metadata).
pub fn with_front_matter(meta: &Metadata, body: &str, format: Format) -> String {
    let fields = meta.to_json();
    let mut out = String::new();
    match format {
        Format::Markdown => {
            out.push_str("---\n");
            for (k, v) in &fields {
                let v = match v {
                    serde_json::Value::String(s) if k.starts_with("date") => s.clone(),
                    v => v.to_string(),
                };
                out.push_str(&format!("{k}: {v}\n"));
            }
            out.push_str("---\n\n");
        }
        Format::Html => {
            out.push_str("<head>\n");
            if let Some(t) = &meta.title {
                out.push_str(&format!("<title>{}</title>\n", escape_html(t)));
            }
            for (k, v) in &fields {
                let values: Vec<&str> = match v {
                    serde_json::Value::Array(a) => a.iter().filter_map(|x| x.as_str()).collect(),
                    serde_json::Value::String(s) => vec![s.as_str()],
                    _ => continue,
                };
                for v in values {
                    out.push_str(&format!(
                        "<meta name=\"{k}\" content=\"{}\">\n",
                        escape_html(v).replace('"', "&quot;")
                    ));
                }
            }
            out.push_str("</head>\n");
        }
    }
    if let Some(t) = meta
        .title
        .as_deref()
        .filter(|t| !opens_with(body, t, format))
    {
        match format {
            Format::Markdown => {
                out.push_str("# ");
                for c in t.chars() {
                    if matches!(
                        c,
                        '\\' | '`' | '*' | '_' | '[' | ']' | '<' | '>' | '&' | '|' | '#'
                    ) {
                        out.push('\\');
                    }
                    out.push(c);
                }
                out.push_str("\n\n");
            }
            Format::Html => out.push_str(&format!("<h1>{}</h1>\n", escape_html(t))),
        }
    }
    out.push_str(body);
    if !out.ends_with('\n') {
        out.push('\n');
    }
    out
}

fn escape_html(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// Whether `body` opens with a heading whose letters and digits are the title's.
fn opens_with(body: &str, title: &str, format: Format) -> bool {
    let first = body.trim_start().lines().next().unwrap_or("");
    let heading = match format {
        Format::Markdown => first
            .starts_with('#')
            .then(|| first.trim_start_matches('#').to_owned()),
        Format::Html => {
            let b = first.as_bytes();
            (b.len() > 4 && b[0] == b'<' && b[1] == b'h' && (b'1'..=b'6').contains(&b[2])).then(
                || {
                    first
                        .replace("&amp;", "&")
                        .replace("&lt;", "<")
                        .replace("&gt;", ">")
                        .get(4..)
                        .unwrap_or("")
                        .trim_end_matches('>')
                        .to_owned()
                },
            )
        }
    };
    heading.is_some_and(|h| {
        let h = squash(
            &h.replace("</h1", "")
                .replace("</h2", "")
                .replace("</h3", ""),
        );
        !h.is_empty() && h == squash(title)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn meta() -> Metadata {
        Metadata {
            title: Some("Storm & coast".into()),
            author: Some("Jane Doe".into()),
            date: Some("2025-09-04".into()),
            tags: vec!["a".into(), "b \"c\"".into()],
            ..Metadata::default()
        }
    }

    #[test]
    fn markdown_front_matter_then_the_title() {
        let out = with_front_matter(&meta(), "Some text.", Format::Markdown);
        assert_eq!(
            out,
            "---\ntitle: \"Storm & coast\"\nauthor: \"Jane Doe\"\ndate: 2025-09-04\n\
             tags: [\"a\",\"b \\\"c\\\"\"]\n---\n\n# Storm \\& coast\n\nSome text.\n"
        );
        // A body that opens with the title keeps it once.
        let out = with_front_matter(&meta(), "# Storm \\& coast\n\nText.", Format::Markdown);
        assert!(
            out.ends_with("---\n\n# Storm \\& coast\n\nText.\n"),
            "{out}"
        );
    }

    #[test]
    fn html_head_then_the_title() {
        let out = with_front_matter(&meta(), "<p>Text.</p>\n", Format::Html);
        assert_eq!(
            out,
            "<head>\n<title>Storm &amp; coast</title>\n\
             <meta name=\"title\" content=\"Storm &amp; coast\">\n\
             <meta name=\"author\" content=\"Jane Doe\">\n\
             <meta name=\"date\" content=\"2025-09-04\">\n\
             <meta name=\"tags\" content=\"a\">\n\
             <meta name=\"tags\" content=\"b &quot;c&quot;\">\n</head>\n\
             <h1>Storm &amp; coast</h1>\n<p>Text.</p>\n"
        );
        let out = with_front_matter(
            &meta(),
            "<h1>Storm &amp; coast</h1>\n<p>T</p>\n",
            Format::Html,
        );
        assert_eq!(out.matches("<h1>").count(), 1, "{out}");
    }
}
