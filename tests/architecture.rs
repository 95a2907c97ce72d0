//! The library's layering (docs/architecture.md): each stage imports only the helpers and the
//! stages before it, and no file imports one that imports it back.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// Helpers every stage may use; they use only each other.
const HELPERS: &[&str] = &["config", "date", "error", "text", "url"];

/// The stages in order: a module may import the helpers and the modules of earlier rows (and of
/// its own row), never a later one.
const STAGES: &[&[&str]] = &[
    &["input"],
    &["decode"],
    &["dom"],
    &["page"],
    &["geometry"],
    &["features"],
    &["model"],
    &["segment"],
    &["rules"],
    &["pipeline"],
    &["output", "metadata", "extract"],
    &["batch"],
    &["eval"],
    &["site", "dedup"],
    &["train"],
    &["fuzzing"],
];

/// Every library file under `src/` (not the binary) by its module path (`model::stack`;
/// `model` for `model/mod.rs`), with its text before any `#[cfg(test)]` and without `//`
/// comments.
fn files() -> BTreeMap<String, String> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut out = BTreeMap::new();
    let mut stack = vec![src.clone()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            let rel = path
                .strip_prefix(&src)
                .unwrap()
                .to_string_lossy()
                .into_owned();
            if rel == "bin" {
                continue;
            }
            if path.is_dir() {
                stack.push(path);
                continue;
            }
            if path.extension().is_none_or(|e| e != "rs") || rel == "lib.rs" {
                continue;
            }
            let mut parts: Vec<&str> = rel.trim_end_matches(".rs").split('/').collect();
            if parts.last() == Some(&"mod") {
                parts.pop();
            }
            let text = std::fs::read_to_string(&path).unwrap();
            let code = text.split("#[cfg(test)]").next().unwrap();
            let code: String = code
                .lines()
                .map(|l| l.split("//").next().unwrap())
                .collect::<Vec<_>>()
                .join("\n");
            out.insert(parts.join("::"), code);
        }
    }
    out
}

/// The longest module path in `files` that `path` starts with.
fn resolve<'a>(files: &'a BTreeMap<String, String>, path: &[&str]) -> Option<&'a str> {
    (1..=path.len())
        .rev()
        .find_map(|k| files.get_key_value(&path[..k].join("::")))
        .map(|(m, _)| m.as_str())
}

/// Per file, the other files it names: `crate::a::b`, `super::x`, `self::x`, the heads of
/// `crate::{a, b::c}`, and its own child modules by name (`child::item`).
fn imports(files: &BTreeMap<String, String>) -> BTreeMap<&str, BTreeSet<&str>> {
    let mut edges: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
    for (m, code) in files {
        let here: Vec<&str> = m.split("::").collect();
        let e = edges.entry(m.as_str()).or_default();
        for prefix in ["crate::", "super::", "self::"] {
            for (k, _) in code.match_indices(prefix) {
                let before = code[..k].chars().next_back();
                if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':') {
                    continue;
                }
                let base: Vec<&str> = match prefix {
                    "crate::" => vec![],
                    "super::" => here[..here.len() - 1].to_vec(),
                    _ => here.clone(),
                };
                let rest = &code[k + prefix.len()..];
                let heads: Vec<&str> = if let Some(group) = rest.strip_prefix('{') {
                    let group = &group[..group.find('}').unwrap_or(group.len())];
                    group.split(',').map(str::trim).collect()
                } else {
                    let end = rest
                        .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'))
                        .unwrap_or(rest.len());
                    vec![&rest[..end]]
                };
                for head in heads {
                    let mut path = base.clone();
                    path.extend(head.split("::").filter(|s| !s.is_empty()));
                    if let Some(other) = resolve(files, &path).filter(|o| o != m) {
                        e.insert(other);
                    }
                }
            }
        }
        // A child module named without a prefix: `use child::Item;`, `child::f()`.
        for child in files.keys() {
            let Some(name) = child.strip_prefix(&format!("{m}::")) else {
                continue;
            };
            if name.contains("::") {
                continue;
            }
            let needle = format!("{name}::");
            let named = code.match_indices(&needle).any(|(k, _)| {
                let before = code[..k].chars().next_back();
                before.is_none_or(|c| !(c.is_alphanumeric() || c == '_' || c == ':'))
            });
            if named {
                e.insert(child.as_str());
            }
        }
    }
    edges
}

/// The stage row of a top-level module; helpers are row 0, stages from 1.
fn row(module: &str) -> Option<usize> {
    if HELPERS.contains(&module) {
        return Some(0);
    }
    STAGES
        .iter()
        .position(|r| r.contains(&module))
        .map(|k| k + 1)
}

#[test]
fn every_module_is_placed_and_imports_only_earlier_stages() {
    let files = files();
    let edges = imports(&files);
    let top = |m: &str| m.split("::").next().unwrap().to_owned();
    let unplaced: BTreeSet<String> = files
        .keys()
        .map(|m| top(m))
        .filter(|m| row(m).is_none())
        .collect();
    assert!(unplaced.is_empty(), "modules in no stage: {unplaced:?}");
    let mut wrong = Vec::new();
    for (&from, to) in &edges {
        let a = row(&top(from)).unwrap();
        for &other in to {
            let b = row(&top(other)).unwrap();
            // Helpers use only helpers; a stage uses helpers and stages up to its own row.
            if (a == 0 && b != 0) || b > a {
                wrong.push(format!("{from} -> {other}"));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "imports of later stages:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn no_file_imports_one_that_imports_it_back() {
    let files = files();
    let edges = imports(&files);
    // A file is in a cycle when it reaches itself; report each such file's path back.
    let mut cycles = Vec::new();
    for &start in edges.keys() {
        let mut seen = BTreeSet::new();
        let mut stack: Vec<(&str, Vec<&str>)> = vec![(start, vec![start])];
        while let Some((m, path)) = stack.pop() {
            for &next in &edges[m] {
                if next == start {
                    cycles.push(format!("{} -> {start}", path.join(" -> ")));
                } else if seen.insert(next) {
                    let mut p = path.clone();
                    p.push(next);
                    stack.push((next, p));
                }
            }
        }
    }
    assert!(cycles.is_empty(), "import cycles:\n{}", cycles.join("\n"));
}

#[test]
fn the_checker_sees_imports() {
    // The checks above are only as good as their reading of imports: known edges must be there.
    let files = files();
    let edges = imports(&files);
    let has = |a: &str, b: &str| edges[a].contains(b);
    assert!(has("pipeline", "rules"), "{:?}", edges["pipeline"]);
    assert!(has("rules", "features"), "{:?}", edges["rules"]);
    assert!(has("rules", "rules::comments"), "{:?}", edges["rules"]);
    assert!(
        has("rules::bypass", "rules::context"),
        "{:?}",
        edges["rules::bypass"]
    );
    assert!(has("rules::comments", "features::names"));
    assert!(has("features::markup", "features::vocabulary"));
    assert!(has("model", "model::boost"), "{:?}", edges["model"]);
    assert!(has("segment", "model::threshold"), "{:?}", edges["segment"]);
    assert!(!has("dom", "pipeline"));
    // And a made-up cycle and a made-up late import are caught.
    let mut fake = files.clone();
    fake.get_mut("dom::tree")
        .unwrap()
        .push_str("\nuse crate::pipeline::Analysis;\n");
    let fake_edges = imports(&fake);
    assert!(fake_edges["dom::tree"].contains("pipeline"));
    assert!(row("dom").unwrap() < row("pipeline").unwrap());
}
