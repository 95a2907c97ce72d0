//! The JSON lines of `pagelevel dedup`: one per page that failed, one per page with its sketch
//! (`--sketches`), or one per duplicate pair, each naming its pages (by path, and for WARC
//! records by record id and URI).

use rayon::prelude::*;
use serde_json::{Map, Value};

use crate::dedup::texts::{Inputs, ModeTexts};
use crate::dedup::{duplicate_pairs, sketch, Sketch};
use crate::error::strip_path;
use crate::text::count_words;

/// What `dedup` prints for one mode's texts.
#[derive(Debug, Clone, Default)]
pub struct Lines {
    /// The output lines, in order: per page in input order its error (or with `sketches` its
    /// sketch), then without `sketches` the duplicate pairs in [`duplicate_pairs`]' order.
    pub lines: Vec<Value>,
    /// The texts' notes ([`ModeTexts::notes`]).
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

/// The lines for `texts` (one per page of `inputs`, in order), and their notes: every text's
/// [`sketch`] is computed in parallel; a failed page gets `{"path", "error"}` (and an empty sketch, which
/// matches nothing); with `sketches` every other page gets `{"path", "words", "sketch"}`,
/// without it the pairs of [`duplicate_pairs`] give `{"a", "b", "matches"}`.
///
/// # Complexity
/// O(total words) for the sketches, plus that of [`duplicate_pairs`] without `sketches`.
pub fn lines(inputs: &Inputs, texts: ModeTexts, sketches: bool) -> Lines {
    let ModeTexts { texts, notes } = texts;
    let all: Vec<Option<Sketch>> = texts
        .par_iter()
        .map(|t| t.as_ref().ok().map(|t| sketch(t)))
        .collect();
    let mut out = Lines {
        notes,
        ..Lines::default()
    };
    for (i, (p, t)) in inputs.pages.iter().zip(&texts).enumerate() {
        if t.is_ok() && !sketches {
            continue;
        }
        let mut o = Map::new();
        o.insert("path".into(), p.path.clone().into());
        warc_fields(inputs, i, "", &mut o);
        if let Err(m) = t {
            let m = strip_path(&p.path, m);
            out.errors.push(format!("{}: {m}", p.path));
            o.insert("error".into(), m.into());
        } else {
            let words = t.as_deref().map(count_words).unwrap_or(0);
            let s = all[i].clone().unwrap_or_default();
            o.insert("words".into(), words.into());
            o.insert("sketch".into(), s.hex().into());
        }
        out.lines.push(o.into());
    }
    if !sketches {
        let all: Vec<Sketch> = all.into_iter().map(Option::unwrap_or_default).collect();
        for pair in duplicate_pairs(&all) {
            let mut o = Map::new();
            o.insert("a".into(), inputs.pages[pair.a].path.clone().into());
            warc_fields(inputs, pair.a, "a_", &mut o);
            o.insert("b".into(), inputs.pages[pair.b].path.clone().into());
            warc_fields(inputs, pair.b, "b_", &mut o);
            o.insert("matches".into(), pair.matches.into());
            out.lines.push(o.into());
        }
    }
    out
}
