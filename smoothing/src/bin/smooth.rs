//! `smooth`: smooths trees read as JSON Lines on stdin with the fast solver.
//!
//! Each input line is `{"parent": [...], "x": [...], "w": [...], "gamma": [...]}` with
//! `parent = -1` for the root. Each output line is
//! `{"y": [...], "cost": number, "segments": [node indices]}`, or `{"error": "..."}`
//! when the line cannot be parsed or the tree is rejected; the run goes on, and the
//! exit status is 1 if any line failed. Blank lines are skipped.

use std::io::{self, BufRead, BufWriter, Write};
use std::process::ExitCode;

use serde::Serialize;
use smoothing::jsonl::smooth_line;

/// One result line.
#[derive(Serialize)]
struct Output<'a> {
    y: &'a [f64],
    cost: f64,
    segments: &'a [usize],
}

/// An error line.
#[derive(Serialize)]
struct ErrorLine<'a> {
    error: &'a str,
}

fn main() -> ExitCode {
    match run() {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(e) => {
            eprintln!("smooth: {e}");
            ExitCode::from(2)
        }
    }
}

/// Processes every line; returns whether all lines succeeded.
fn run() -> io::Result<bool> {
    let stdin = io::stdin().lock();
    let mut out = BufWriter::new(io::stdout().lock());
    let mut all_ok = true;
    for (number, line) in stdin.lines().enumerate() {
        let line = line?;
        if line.trim().is_empty() {
            continue;
        }
        match smooth_line(&line) {
            Ok(s) => {
                let o = Output {
                    y: &s.y,
                    cost: s.cost,
                    segments: &s.segment_roots,
                };
                serde_json::to_writer(&mut out, &o)?;
            }
            Err(e) => {
                all_ok = false;
                let msg = format!("line {}: {e}", number + 1);
                serde_json::to_writer(&mut out, &ErrorLine { error: &msg })?;
            }
        }
        out.write_all(b"\n")?;
    }
    out.flush()?;
    Ok(all_ok)
}
