//! The JSON lines of `pagelevel dedup`: one per duplicate pair, one per page with its sketch
//! (`--sketches`), one per cluster of near-duplicates (`--clusters`) or one per page to keep
//! (`--keep-first`), each naming its pages (by path, and for WARC records by record id and
//! URI); and, but for the filters, one per page that failed.

use serde_json::{Map, Value};

use crate::dedup::clusters::{clusters, keep_first};
use crate::dedup::texts::{Inputs, ModeSketches};
use crate::dedup::{duplicate_pairs, Sketch};
use crate::error::strip_path;

/// What `dedup` prints.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Report {
    /// One line per near-duplicate pair, `{"a", "b", "matches"}`.
    #[default]
    Pairs,
    /// One line per page, `{"path", "words", "sketch"}`.
    Sketches,
    /// One line per cluster of two pages or more, `{"cluster", "size", "members"}`: the members
    /// (`{"path"}`, and `warc_record_id`, `url` for WARC records) in input order, the first
    /// being the one to keep.
    Clusters,
    /// One line per page to keep, `{"path", "duplicates"}` (and `warc_record_id`, `url`): the
    /// first page of each cluster, with the number of pages of its cluster dropped, and every
    /// page with no duplicate (`"duplicates": 0`), in input order.
    KeepFirst,
}

/// What `dedup` prints for one mode's sketches.
#[derive(Debug, Clone, Default)]
pub struct Lines {
    /// The output lines, in order: with [`Report::Pairs`] and [`Report::Sketches`] per page in
    /// input order its error line (with `Sketches` its sketch), then the pairs in
    /// [`duplicate_pairs`]' order; with the filters, only their lines (errors go to
    /// [`Lines::errors`] alone, so that the output lists pages to keep and nothing else).
    pub lines: Vec<Value>,
    /// The sketches' notes ([`ModeSketches::notes`]).
    pub notes: Vec<String>,
    /// `path: message` per failed page, in input order (the message without a leading path).
    pub errors: Vec<String>,
}

/// `warc_record_id` and `url` (each after `prefix`) of page `i` when it is a WARC record.
fn warc_fields(inputs: &Inputs, i: usize, prefix: &str, m: &mut Map<String, Value>) {
    if inputs.is_record(i) {
        let p = &inputs.pages[i];
        m.insert(format!("{prefix}warc_record_id"), p.id.clone().into());
        m.insert(format!("{prefix}url"), p.url.clone().into());
    }
}

/// `{"path", ("warc_record_id", "url")}` of page `i`.
fn page_object(inputs: &Inputs, i: usize) -> Map<String, Value> {
    let mut o = Map::new();
    o.insert("path".into(), inputs.pages[i].path.clone().into());
    warc_fields(inputs, i, "", &mut o);
    o
}

/// The lines of `report` for `sketches` (one per page of `inputs`, in order). A failed page
/// has an empty sketch, which matches nothing: it is in no pair and no cluster, and is not
/// kept either.
///
/// # Complexity
/// That of [`duplicate_pairs`] (O(N·k + Σ_h m_h² + P log P) for N pages, k hashes per sketch,
/// m_h pages holding hash h and P pairs sharing a hash), plus O(N + P·α(N)) for the clusters
/// ([`clusters`]); memory O(N·k + P). The texts are gone already: only the sketches are held.
pub fn lines(inputs: &Inputs, sketches: ModeSketches, report: Report) -> Lines {
    let ModeSketches { sketches, notes } = sketches;
    let mut out = Lines {
        notes,
        ..Lines::default()
    };
    let filter = matches!(report, Report::Clusters | Report::KeepFirst);
    for (i, (p, s)) in inputs.pages.iter().zip(&sketches).enumerate() {
        if s.is_ok() && report != Report::Sketches {
            continue;
        }
        let mut o = page_object(inputs, i);
        match s {
            Err(m) => {
                let m = strip_path(&p.path, m);
                out.errors.push(format!("{}: {m}", p.path));
                if filter {
                    continue;
                }
                o.insert("error".into(), m.into());
            }
            Ok(s) => {
                o.insert("words".into(), s.words.into());
                o.insert("sketch".into(), s.sketch.hex().into());
            }
        }
        out.lines.push(o.into());
    }
    if report == Report::Sketches {
        return out;
    }
    let failed: Vec<bool> = sketches.iter().map(Result::is_err).collect();
    let all: Vec<Sketch> = sketches
        .into_iter()
        .map(|s| s.map(|s| s.sketch).unwrap_or_default())
        .collect();
    let pairs = duplicate_pairs(&all);
    let n = all.len();
    drop(all);
    match report {
        Report::Pairs | Report::Sketches => {
            for pair in pairs {
                let mut o = Map::new();
                o.insert("a".into(), inputs.pages[pair.a].path.clone().into());
                warc_fields(inputs, pair.a, "a_", &mut o);
                o.insert("b".into(), inputs.pages[pair.b].path.clone().into());
                warc_fields(inputs, pair.b, "b_", &mut o);
                o.insert("matches".into(), pair.matches.into());
                out.lines.push(o.into());
            }
        }
        Report::Clusters => {
            for (k, c) in clusters(n, &pairs).into_iter().enumerate() {
                let mut o = Map::new();
                o.insert("cluster".into(), (k + 1).into());
                o.insert("size".into(), c.len().into());
                let members: Vec<Value> =
                    c.iter().map(|&i| page_object(inputs, i).into()).collect();
                o.insert("members".into(), members.into());
                out.lines.push(o.into());
            }
        }
        Report::KeepFirst => {
            for (i, keep) in keep_first(n, &pairs).into_iter().enumerate() {
                if let (Some(dropped), false) = (keep, failed[i]) {
                    let mut o = page_object(inputs, i);
                    o.insert("duplicates".into(), dropped.into());
                    out.lines.push(o.into());
                }
            }
        }
    }
    out
}
