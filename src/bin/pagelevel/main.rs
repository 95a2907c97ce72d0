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

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};

/// Finds the template of web pages (navigation, headers, footers, ads, link lists), segments
/// them and extracts their main content.
#[derive(Parser)]
#[command(name = "pagelevel", version, about, long_about = None, arg_required_else_help = true)]
struct Cli {
    /// Worker threads (0 = one per core). Output is identical for any count. Also taken after
    /// the command, by every command but `view`.
    #[arg(short = 'j', long = "jobs", default_value_t = 0)]
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

/// `-j`, taken by every command that reads many inputs (not `view`, which takes one page).
fn jobs_arg() -> clap::Arg {
    clap::Arg::new("jobs")
        .short('j')
        .long("jobs")
        .value_name("N")
        .value_parser(clap::value_parser!(usize))
        .help("Worker threads (0 = one per core). Output is identical for any count")
}

/// The command line: [`Cli`] with `-j` on each command but `view`.
fn command() -> clap::Command {
    let mut cmd = Cli::command();
    let names: Vec<String> = cmd
        .get_subcommands()
        .map(|c| c.get_name().to_string())
        .filter(|n| n != "view")
        .collect();
    for name in names {
        cmd = cmd.mut_subcommand(name, |c| c.arg(jobs_arg()));
    }
    cmd
}

fn main() -> std::process::ExitCode {
    let matches = command().get_matches();
    let mut cli = match Cli::from_arg_matches(&matches) {
        Ok(cli) => cli,
        Err(e) => e.exit(),
    };
    // `-j` after the command wins over `-j` before it.
    if let Some(&n) = matches
        .subcommand()
        // `try_`: `view` has no `-j` (clap's `get_one` panics on an unknown id).
        .and_then(|(_, m)| m.try_get_one::<usize>("jobs").ok().flatten())
    {
        cli.jobs = n;
    }
    if matches!(cli.command, Some(Command::View(_))) && cli.jobs != 0 {
        eprintln!("pagelevel: view reads one page: -j does not apply");
        return std::process::ExitCode::from(2);
    }
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
