//! The library's layering (docs/architecture.md): no module imports one that imports it back.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// The top-level module of each library file under `src/` (not the binary), with its text
/// before any `#[cfg(test)]` and without `//` comments.
fn modules() -> BTreeMap<String, String> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut out: BTreeMap<String, String> = BTreeMap::new();
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
            let module = rel
                .split('/')
                .next()
                .unwrap()
                .trim_end_matches(".rs")
                .to_owned();
            let text = std::fs::read_to_string(&path).unwrap();
            let code = text.split("#[cfg(test)]").next().unwrap();
            let code: String = code
                .lines()
                .map(|l| l.split("//").next().unwrap())
                .collect::<Vec<_>>()
                .join("\n");
            out.entry(module).or_default().push_str(&code);
        }
    }
    out
}

/// Per module, the other modules it names as `crate::NAME`.
fn imports(modules: &BTreeMap<String, String>) -> BTreeMap<&str, BTreeSet<&str>> {
    let mut edges: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
    for (m, code) in modules {
        let e = edges.entry(m.as_str()).or_default();
        // `crate::a::b` and the heads of `crate::{a::x, b}`.
        for (k, _) in code.match_indices("crate::") {
            let rest = &code[k + "crate::".len()..];
            let names: Vec<&str> = if let Some(group) = rest.strip_prefix('{') {
                let group = &group[..group.find('}').unwrap_or(group.len())];
                group
                    .split(',')
                    .map(|p| p.trim().split("::").next().unwrap_or(""))
                    .collect()
            } else {
                vec![rest
                    .split(|c: char| !(c.is_alphanumeric() || c == '_'))
                    .next()
                    .unwrap_or("")]
            };
            for name in names {
                if let Some((other, _)) = modules.get_key_value(name) {
                    if other != m {
                        e.insert(other.as_str());
                    }
                }
            }
        }
    }
    edges
}

#[test]
fn no_module_imports_one_that_imports_it_back() {
    let modules = modules();
    assert!(modules.contains_key("rules") && modules.contains_key("pipeline"));
    let edges = imports(&modules);
    // A module is in a cycle when it reaches itself; report each such module's path back.
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
    // The check above is only as good as its reading of imports: known edges must be there.
    let modules = modules();
    let edges = imports(&modules);
    assert!(
        edges["pipeline"].contains("rules"),
        "{:?}",
        edges["pipeline"]
    );
    assert!(edges["rules"].contains("features"), "{:?}", edges["rules"]);
    assert!(
        edges["segment"].contains("threshold"),
        "{:?}",
        edges["segment"]
    );
    assert!(!edges["dom"].contains("pipeline"));
}
