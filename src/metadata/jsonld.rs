//! schema.org JSON-LD (`<script type="application/ld+json">`): the page's main entity and the
//! site that publishes it, read from `@graph`s, arrays and `@id` references.

use rustc_hash::FxHashMap;
use serde_json::{Map, Value};

use super::vocabulary::{ARTICLE_TYPES, SITE_TYPES};

/// Most JSON objects looked at over all of a page's scripts: a page's entities are a few dozen.
const MAX_OBJECTS: usize = 10_000;

/// Most names read from one `author` value.
const MAX_AUTHORS: usize = 10;

/// What a page's JSON-LD says, each field from its best entity (see [`read`]).
#[derive(Debug, Default)]
pub(super) struct Fields {
    pub title: Option<String>,
    pub authors: Vec<String>,
    pub date: Option<String>,
    pub modified: Option<String>,
    pub description: Option<String>,
    pub site_name: Option<String>,
    pub url: Option<String>,
    pub image: Option<String>,
    pub language: Option<String>,
    pub sections: Vec<String>,
    pub keywords: Vec<String>,
    /// The main entity's first `@type`, lower-cased.
    pub kind: Option<String>,
}

/// The lower-cased types of an object (`@type` a string or an array; a `schema:` or URL prefix
/// dropped).
fn types(o: &Map<String, Value>) -> Vec<String> {
    let one = |v: &Value| {
        v.as_str().map(|s| {
            let s = s.rsplit(['/', ':']).next().unwrap_or(s);
            s.to_ascii_lowercase()
        })
    };
    match o.get("@type") {
        Some(Value::Array(a)) => a.iter().filter_map(one).collect(),
        Some(v) => one(v).into_iter().collect(),
        None => Vec::new(),
    }
}

/// How much an object looks like the page's main entity: 0 an article-like type, 1 another
/// page or thing (`WebPage`, `Product`, …), `None` for the site, people, breadcrumbs, images
/// and the like, which describe something else.
fn rank(types: &[String]) -> Option<u8> {
    if types.iter().any(|t| ARTICLE_TYPES.contains(&t.as_str())) {
        return Some(0);
    }
    let other = |t: &str| {
        SITE_TYPES.contains(&t)
            || matches!(
                t,
                "person"
                    | "breadcrumblist"
                    | "listitem"
                    | "imageobject"
                    | "videoobject"
                    | "searchaction"
                    | "readaction"
                    | "entrypoint"
                    | "place"
                    | "postaladdress"
                    | "contactpoint"
                    | "sitenavigationelement"
                    | "wpheader"
                    | "wpfooter"
                    | "wpsidebar"
                    | "comment"
                    | "answer"
                    | "offer"
                    | "aggregateoffer"
                    | "aggregaterating"
                    | "rating"
                    | "brand"
                    | "thing"
            )
    };
    (!types.is_empty() && !types.iter().all(|t| other(t))).then_some(1)
}

/// A string value, or the first string of an array, trimmed; `None` when empty.
fn text(v: Option<&Value>) -> Option<String> {
    let s = match v? {
        Value::String(s) => s.as_str(),
        Value::Array(a) => a.iter().find_map(Value::as_str)?,
        Value::Number(n) => return Some(n.to_string()),
        _ => return None,
    };
    let s = s.split_whitespace().collect::<Vec<_>>().join(" ");
    (!s.is_empty()).then_some(s)
}

/// Strings of a value that may be a string (comma-separated when `split`), or an array of them.
fn list(v: Option<&Value>, split: bool) -> Vec<String> {
    let mut out = Vec::new();
    let mut push = |s: &str| {
        let parts: Vec<&str> = if split {
            s.split(',').collect()
        } else {
            vec![s]
        };
        for p in parts {
            let p = p.trim();
            if !p.is_empty() && !out.iter().any(|o: &String| o == p) {
                out.push(p.to_owned());
            }
        }
    };
    match v {
        Some(Value::String(s)) => push(s),
        Some(Value::Array(a)) => a.iter().filter_map(Value::as_str).for_each(&mut push),
        _ => {}
    }
    out
}

/// `o` itself, or the object its `@id` names when `o` is a bare reference (`{"@id": …}`).
fn resolve<'a>(
    o: &'a Map<String, Value>,
    ids: &FxHashMap<&'a str, &'a Map<String, Value>>,
) -> &'a Map<String, Value> {
    match o.get("@id").and_then(Value::as_str) {
        Some(id) if o.len() == 1 => ids.get(id).copied().unwrap_or(o),
        _ => o,
    }
}

/// The names an `author` (or `creator`) value gives: strings, objects with a `name`
/// (`Person`, `Organization`), `@id` references to such objects, or an array of these.
fn names<'a>(v: &'a Value, ids: &FxHashMap<&'a str, &'a Map<String, Value>>) -> Vec<String> {
    let items: Vec<&Value> = match v {
        Value::Array(a) => a.iter().take(MAX_AUTHORS).collect(),
        v => vec![v],
    };
    items
        .into_iter()
        .filter_map(|item| match item {
            Value::String(s) => Some(s.trim().to_owned()),
            Value::Object(o) => {
                let o = resolve(o, ids);
                // A name may itself be given as an array or with given/family names.
                text(o.get("name")).or_else(|| {
                    let given = text(o.get("givenName"))?;
                    Some(match text(o.get("familyName")) {
                        Some(f) => format!("{given} {f}"),
                        None => given,
                    })
                })
            }
            _ => None,
        })
        .filter(|s| !s.is_empty())
        .collect()
}

/// The URL of an `image` value: a string, an `ImageObject` (`url`, `contentUrl`) or an array.
fn image(v: Option<&Value>, ids: &FxHashMap<&str, &Map<String, Value>>) -> Option<String> {
    let first = match v? {
        Value::Array(a) => a.first()?,
        v => v,
    };
    match first {
        Value::String(s) => Some(s.trim().to_owned()).filter(|s| !s.is_empty()),
        Value::Object(o) => {
            let o = resolve(o, ids);
            text(o.get("url")).or_else(|| text(o.get("contentUrl")))
        }
        _ => None,
    }
}

/// An entity that may be the page's: its [`rank`], document order, object and types.
type Ranked<'a> = (u8, usize, &'a Map<String, Value>, Vec<String>);

/// Parses the JSON-LD scripts' texts (invalid ones skipped) and reads the main entity's fields.
///
/// Every object of every script is visited without recursion (`@graph`, arrays, nested
/// values), at most [`MAX_OBJECTS`]; each field comes from the first object (in document
/// order) of the best [`rank`] that has it, so an `Article`'s `headline` wins over a
/// `WebPage`'s `name`. The site's name is the first `WebSite`'s, else the main entity's
/// `publisher`, else the first `Organization`'s.
///
/// # Complexity
/// O(total JSON size): serde_json's parse (nesting over 128 levels is an error, not a stack
/// overflow) and one visit per value.
pub(super) fn read(scripts: &[String]) -> Fields {
    let docs: Vec<Value> = scripts
        .iter()
        .filter_map(|s| {
            // Raw line breaks and tabs inside strings are common and invalid JSON; a space
            // means the same everywhere in the text.
            let mut t = s.trim();
            // Comment and CDATA wrappers some CMSs put around the JSON.
            for (open, close) in [
                ("<!--", "-->"),
                ("//<![CDATA[", "//]]>"),
                ("<![CDATA[", "]]>"),
            ] {
                t = t.trim_start_matches(open).trim_end_matches(close).trim();
            }
            // Copied only when it holds a control character to blank.
            let cleaned: std::borrow::Cow<str> = if t.contains(char::is_control) {
                t.chars()
                    .map(|c| if c.is_control() { ' ' } else { c })
                    .collect()
            } else {
                t.into()
            };
            serde_json::from_str(&cleaned).ok()
        })
        .collect();
    let mut objects: Vec<&Map<String, Value>> = Vec::new();
    let mut stack: Vec<&Value> = docs.iter().rev().collect();
    let mut seen = 0usize;
    while let Some(v) = stack.pop() {
        seen += 1;
        if seen > MAX_OBJECTS {
            break;
        }
        match v {
            Value::Object(o) => {
                objects.push(o);
                // Children in reverse so that they come off the stack in document order.
                stack.extend(o.values().rev().filter(|c| c.is_object() || c.is_array()));
            }
            Value::Array(a) => stack.extend(a.iter().rev()),
            _ => {}
        }
    }
    let mut ids: FxHashMap<&str, &Map<String, Value>> = FxHashMap::default();
    for o in &objects {
        if let Some(id) = o.get("@id").and_then(Value::as_str) {
            if o.len() > 1 {
                ids.entry(id).or_insert(o);
            }
        }
    }
    let mut ranked: Vec<Ranked> = objects
        .iter()
        .enumerate()
        .filter_map(|(k, o)| {
            let t = types(o);
            rank(&t).map(|r| (r, k, *o, t))
        })
        .collect();
    ranked.sort_by_key(|&(r, k, _, _)| (r, k));
    let first = |key: &str| ranked.iter().find_map(|(_, _, o, _)| text(o.get(key)));
    let mut f = Fields {
        title: first("headline").or_else(|| first("name")),
        date: first("datePublished").or_else(|| first("dateCreated")),
        modified: first("dateModified"),
        description: first("description"),
        url: first("url").or_else(|| first("mainEntityOfPage").filter(|u| u.contains("://"))),
        language: first("inLanguage"),
        kind: ranked.first().and_then(|(_, _, _, t)| t.first().cloned()),
        ..Fields::default()
    };
    for (_, _, o, _) in &ranked {
        if f.authors.is_empty() {
            if let Some(a) = o.get("author").or_else(|| o.get("creator")) {
                f.authors = names(a, &ids);
            }
        }
        if f.image.is_none() {
            f.image = image(o.get("image").or_else(|| o.get("thumbnailUrl")), &ids);
        }
        if f.sections.is_empty() {
            f.sections = list(o.get("articleSection"), false);
        }
        if f.keywords.is_empty() {
            f.keywords = list(o.get("keywords"), true);
        }
    }
    let site_of = |t: &str| {
        objects
            .iter()
            .find(|o| types(o).iter().any(|x| x == t))
            .and_then(|o| text(o.get("name")))
    };
    let publisher = ranked
        .iter()
        .find_map(|(_, _, o, _)| match o.get("publisher")? {
            Value::Object(p) => text(resolve(p, &ids).get("name")),
            Value::String(s) => Some(s.clone()),
            _ => None,
        });
    f.site_name = site_of("website")
        .or(publisher)
        .or_else(|| site_of("organization"))
        .or_else(|| site_of("newsmediaorganization"));
    f
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_a_graph_with_references() {
        let ld = r##"{"@context":"https://schema.org","@graph":[
            {"@type":"WebSite","@id":"https://ex.com/#website","name":"Example News"},
            {"@type":"WebPage","@id":"https://ex.com/a/#webpage","name":"A story - Example News"},
            {"@type":["Article","NewsArticle"],"headline":"A story",
             "author":{"@id":"https://ex.com/#/person/1"},
             "datePublished":"2025-09-04T08:00:00+00:00","keywords":"storms, coast",
             "image":{"@type":"ImageObject","url":"https://ex.com/a.jpg"}},
            {"@type":"Person","@id":"https://ex.com/#/person/1","name":"Jane Doe"}]}"##;
        let f = read(&[ld.to_owned()]);
        assert_eq!(f.title.as_deref(), Some("A story"));
        assert_eq!(f.authors, vec!["Jane Doe"]);
        assert_eq!(f.date.as_deref(), Some("2025-09-04T08:00:00+00:00"));
        assert_eq!(f.site_name.as_deref(), Some("Example News"));
        assert_eq!(f.keywords, vec!["storms", "coast"]);
        assert_eq!(f.image.as_deref(), Some("https://ex.com/a.jpg"));
        assert_eq!(f.kind.as_deref(), Some("article"));
    }

    #[test]
    fn survives_bad_and_deep_json() {
        let deep = "[".repeat(100_000) + &"]".repeat(100_000);
        let f = read(&[deep, "{not json".to_owned(), String::new()]);
        assert!(f.title.is_none() && f.authors.is_empty());
        // A raw line break inside a string is read as a space.
        let f = read(&["{\"@type\":\"BlogPosting\",\"headline\":\"Two\nlines\"}".to_owned()]);
        assert_eq!(f.title.as_deref(), Some("Two lines"));
    }
}
