//! The library's simple entry point, `pagelevel::extract`, on pages given as files.
//!
//!     cargo run --example extract -- [--format text|markdown|html] [--with-metadata] [--url URL] PAGE...
//!
//! Prints each page's main content (with `--with-metadata`, its metadata first as one JSON
//! line); a page that fails is reported on stderr and the others go on.

use std::io::Write;

use pagelevel::{extract, ExtractOptions, OutputFormat};

fn main() {
    let mut opts = ExtractOptions::default();
    let mut pages = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--format" => {
                let name = args.next().unwrap_or_default();
                opts.format = OutputFormat::from_name(&name).unwrap_or_else(|| {
                    eprintln!("unknown format {name:?}: text, markdown or html");
                    std::process::exit(2)
                });
            }
            "--with-metadata" => opts.with_metadata = true,
            "--url" => opts.url = args.next(),
            _ => pages.push(arg),
        }
    }
    if pages.is_empty() {
        eprintln!(
            "usage: extract [--format text|markdown|html] [--with-metadata] [--url URL] PAGE..."
        );
        std::process::exit(2);
    }
    let mut failed = false;
    for path in &pages {
        // The bytes as the file holds them: extract gunzips and decodes them itself.
        let result = std::fs::read(path)
            .map_err(|e| e.to_string())
            .and_then(|bytes| extract(&bytes, &opts).map_err(|e| e.to_string()));
        match result {
            Ok(page) => {
                let mut out = format!("==> {path} <==\n");
                if let Some(meta) = page.metadata {
                    out += &format!("{}\n", serde_json::Value::Object(meta.to_json()));
                }
                out += &format!("{}\n", page.text.trim_end());
                // A closed pipe (`| head`) ends the run quietly.
                if std::io::stdout().write_all(out.as_bytes()).is_err() {
                    return;
                }
            }
            Err(e) => {
                eprintln!("{path}: {e}");
                failed = true;
            }
        }
    }
    std::process::exit(i32::from(failed));
}
