//! `pagelevel`: the command-line tool. Each subcommand lives in its own module and calls the
//! library's stages; none reimplements them.

mod batch;
mod bench;
mod dedup;
mod eval;
mod extract;
mod features;
mod label;
mod pages;
mod pipeline_args;
mod segment;
mod sitelevel;
mod train;
mod view;

use clap::{Parser, Subcommand};

/// Finds the template of web pages (navigation, headers, footers, ads, link lists), segments
/// them and extracts their main content.
#[derive(Parser)]
#[command(name = "pagelevel", version, about, long_about = None, arg_required_else_help = true)]
struct Cli {
    /// Worker threads (0 = one per core). Output is identical for any count.
    #[arg(short = 'j', long = "jobs", global = true, default_value_t = 0)]
    jobs: usize,
    /// List the rules that run after the model, in order (each can be switched off with
    /// `--without-rule NAME`), and exit.
    #[arg(long, exclusive = true)]
    rules: bool,
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Print per-element geometry, features and block-classifier content share as JSON Lines.
    Features(features::Args),
    /// Segment pages: one JSON object per page with its segments (path, span, box, score, template flag, words).
    Segment(segment::Args),
    /// Extract main text: one JSON object per page, {"path", "text", "error"?}.
    Extract(extract::Args),
    /// Evaluate extraction against a manifest's gold texts (WCXB word-F1, mean and median, per page type).
    Eval(eval::Args),
    /// Train the node classifier (boosted trees, or the paper's per-area-bucket regressions) on gold-aligned and SiteLevel labels and write the model JSON.
    Train(train::Args),
    /// Write the gold-alignment labels of a manifest's pages as JSON Lines, one line per scored node (content share and label).
    Label(label::Args),
    /// Time parse, geometry and features on a manifest's pages (one thread) and print a table.
    Bench(bench::Args),
    /// SiteLevel(θ) template labels from the pages of each site (or, with --extract, the text outside templates) as JSON Lines.
    Sitelevel(sitelevel::Args),
    /// Find near-duplicate pages by 6-word shingles (8 smallest hashes, 4 matching) over full, SiteLevel or PageLevel text, as JSON Lines.
    Dedup(dedup::Args),
    /// Write one page as a self-contained HTML file with each segment outlined and shaded by templateness, and a legend (no JavaScript).
    View(view::Args),
}

fn main() -> std::process::ExitCode {
    let cli = Cli::parse();
    let Some(command) = cli.command else {
        // clap asks for a command unless `--rules` is given.
        for r in pagelevel::rules::Rule::ALL {
            println!("{:<20} {}", r.name(), r.description());
        }
        return std::process::ExitCode::SUCCESS;
    };
    if let Err(e) = batch::threads(cli.jobs) {
        eprintln!("pagelevel: {e:#}");
        return std::process::ExitCode::from(2);
    }
    let result = match command {
        Command::Features(args) => features::run(args),
        Command::Bench(args) => bench::run(args),
        Command::Segment(args) => segment::run(args),
        Command::Extract(args) => extract::run(args),
        Command::Train(args) => train::run(args),
        Command::Label(args) => label::run(args),
        Command::Eval(args) => eval::run(args),
        Command::Sitelevel(args) => sitelevel::run(args),
        Command::Dedup(args) => dedup::run(args),
        Command::View(args) => view::run(args),
    };
    match result {
        Ok(0) => std::process::ExitCode::SUCCESS,
        Ok(failed) => {
            eprintln!("pagelevel: {failed} input(s) failed");
            std::process::ExitCode::from(1)
        }
        Err(e) => {
            eprintln!("pagelevel: {e:#}");
            std::process::ExitCode::from(2)
        }
    }
}
