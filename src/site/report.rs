//! What a SiteLevel run over many sites reports besides its labels (`pagelevel sitelevel`): the
//! JSON line of each page whatever became of it ([`page_out`], [`outcome_line`]; for a page of a
//! site too small for SiteLevel, its PageLevel text or labels, [`Fallback`]), a line of
//! statistics per site ([`site_line`]), the table of gold checks per site ([`GoldTable`]) and
//! the WARC site runs that came apart ([`SiteRuns`]).

use std::collections::HashSet;
use std::fmt;

use super::{
    check_gold_file, extract_line, json_line, labels_line, text_line, GoldCheck, GoldTotals,
    Outcome, SitePage, SiteSummary,
};
use crate::config::Deadline;
use crate::dom::Kind;
use crate::input::warc::Place;
use crate::model::Model;
use crate::pipeline::{analyze_within, Analysis, Options};
use crate::{Limits, Page};

/// What each labelled page is turned into.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct LineOptions {
    /// The text outside templates ([`extract_line`]) instead of the labels ([`labels_line`]).
    pub extract: bool,
    /// The pages come from WARC records: their record id and URL go into the line.
    pub warc: bool,
    /// Check each page against its gold text, when it has one.
    pub gold: bool,
}

/// What is computed per labelled page: its JSON line, and its gold check when asked for (or
/// why the gold text could not be read).
#[derive(Debug, Clone)]
pub struct PageOut {
    /// The JSON line, newline included.
    pub line: Vec<u8>,
    /// The gold check, when asked for and the page has a gold file.
    pub gold: Option<Result<GoldCheck, String>>,
}

/// The [`PageOut`] of a labelled page of site `site` (a job for [`super::run_site_with`]).
///
/// # Complexity
/// O(n + text) for n nodes, plus reading the gold file.
pub fn page_out(
    p: &SitePage,
    site: &str,
    page: &Page,
    labels: &[bool],
    options: &LineOptions,
) -> PageOut {
    let dom = &page.dom;
    let line = if options.extract {
        extract_line(p, site, dom, labels, options.warc)
    } else {
        labels_line(p, site, dom, labels, options.warc, true)
    };
    let gold = if options.gold {
        p.gold.as_ref().map(|g| check_gold_file(dom, labels, g))
    } else {
        None
    };
    PageOut { line, gold }
}

/// The JSON line of page `p` of site `site` for its [`Outcome`], and the warning to print
/// (without the program's name): a gold file that could not be read, or why the page failed.
/// A labelled page's gold check is added to `gold`.
///
/// A failed page's line is `{"path", "page", "site", "error"}` and a skipped one's
/// `{"path", "page", "site", "skipped"}`; the error message leaves out the page's path when it
/// starts with it (the line names the page once).
pub fn outcome_line(
    p: &SitePage,
    site: &str,
    outcome: Outcome<PageOut>,
    gold: &mut GoldTotals,
) -> (Vec<u8>, Option<String>) {
    match outcome {
        Outcome::Labelled(o) => {
            let warning = match o.gold {
                Some(Ok(c)) => {
                    gold.add(&c);
                    None
                }
                Some(Err(m)) => Some(m),
                None => None,
            };
            (o.line, warning)
        }
        Outcome::Failed(m) => {
            let m = crate::error::strip_path(&p.path, &m);
            let line = json_line(
                &serde_json::json!({"path": p.path, "page": p.id, "site": site, "error": m}),
            );
            (line, Some(format!("{}: {m}", p.path)))
        }
        Outcome::Skipped(m) => (
            json_line(
                &serde_json::json!({"path": p.path, "page": p.id, "site": site, "skipped": m}),
            ),
            None,
        ),
    }
}

/// PageLevel's verdict on an analysed page as SiteLevel-style labels (`true` = template): a
/// text node is template when the main text leaves it out, an element when none of the text
/// under it is in the main text. The text outside these templates
/// ([`super::extract_text`]) is the page's main text.
///
/// # Complexity
/// O(n) for n nodes: one backward pass (a node's descendants follow it in the arena).
pub fn pagelevel_labels(a: &Analysis) -> Vec<bool> {
    let dom = &a.page.dom;
    let mut kept: Vec<bool> = (0..dom.len())
        .map(|i| dom.node(i).kind == Kind::Text && a.keep[i] && a.features.visible[i])
        .collect();
    for i in (1..dom.len()).rev() {
        if kept[i] {
            if let Some(p) = dom.parent(i) {
                kept[p] = true;
            }
        }
    }
    kept.into_iter().map(|k| !k).collect()
}

/// The PageLevel pipeline that gives the pages of a site too small for SiteLevel their text
/// (what `pagelevel extract` prints) or labels ([`pagelevel_labels`]), marked
/// `"sitelevel": false`, instead of nothing.
#[derive(Debug, Clone, Copy)]
pub struct Fallback<'a> {
    /// The classifier.
    pub model: &'a Model,
    /// The pipeline's options.
    pub options: &'a Options,
    /// Per-page limits, the time limit included (it runs from the read to the line).
    pub limits: Limits,
}

impl Fallback<'_> {
    /// The line of page `p` of site `site` (read from its WARC record at `place`, or from its
    /// file): `{"path", "page", …, "site", "sitelevel": false, "text" | "labels"}` as
    /// [`LineOptions::extract`] asks; or the error, as a message.
    ///
    /// # Complexity
    /// One read, parse and pipeline run: O(page) for the pipeline's linear stages.
    pub fn line(
        &self,
        p: &SitePage,
        place: Option<Place>,
        site: &str,
        options: &LineOptions,
    ) -> Result<Vec<u8>, String> {
        let deadline = self.limits.deadline();
        let read = match place {
            Some(place) => place.page(&p.file, &self.limits, self.options.parser),
            None => Page::from_path(
                &p.file,
                &crate::PageOptions {
                    url: p.url.as_deref(),
                    limits: self.limits,
                    deadline: Some(&deadline),
                    parser: self.options.parser,
                    ..Default::default()
                },
            ),
        };
        let a = read
            .map_err(|e| crate::error::chain(&e))
            .and_then(|page| self.analyze(page, &deadline))?;
        Ok(if options.extract {
            text_line(p, site, &a.main_text(), options.warc, false)
        } else {
            labels_line(
                p,
                site,
                &a.page.dom,
                &pagelevel_labels(&a),
                options.warc,
                false,
            )
        })
    }

    /// The PageLevel analysis of a page already read (the Python binding keeps its pages
    /// parsed): its main text is [`Analysis::main_text`], its labels [`pagelevel_labels`]; or
    /// the error with its causes, as a message.
    ///
    /// # Complexity
    /// One pipeline run: O(page) for the pipeline's linear stages.
    pub fn analyze(&self, page: Page, deadline: &Deadline) -> Result<Analysis, String> {
        analyze_within(page, self.model, self.options, deadline)
            .map_err(|e| crate::error::chain(&e))
    }
}

/// 100·a/b, 0 when b is 0.
fn pct(a: u64, b: u64) -> f64 {
    if b == 0 {
        0.0
    } else {
        100.0 * a as f64 / b as f64
    }
}

/// One line of statistics of a site (no newline): its pages (labelled, failed, distinct),
/// nodes and template nodes, the template share of its words and the size of I⁺_θ; or why it
/// was skipped.
pub fn site_line(summary: &SiteSummary) -> String {
    let s = &summary.stats;
    match &summary.skipped {
        Some(why) => format!(
            "site {}: skipped, no labels: {why} ({} pages given, {} failed)",
            summary.name, summary.pages, summary.failed
        ),
        None => format!(
            "site {}: {} pages ({} labelled, {} failed, {} distinct), {} nodes, {} template ({:.1}%), \
             template share of the text {:.1}% of {} words, {} template hashes",
            summary.name,
            summary.pages,
            summary.labelled,
            summary.failed,
            summary.distinct_pages,
            s.nodes,
            s.template_nodes,
            pct(s.template_nodes, s.nodes),
            pct(s.template_words, s.words),
            s.words,
            summary.template_hashes
        ),
    }
}

/// Gold checks per site and over all sites. Its [`Display`](fmt::Display) is a fixed-width
/// table, a header, a row per site in the order added and an `all` row, each line ending in a
/// newline: pages, template nodes, the shares of gold words on the page, in template text and
/// lost, the share of other words in template text, and the mean F1, precision and recall.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct GoldTable {
    /// Per site: name, template nodes, gold totals.
    pub rows: Vec<(String, u64, GoldTotals)>,
    /// The totals over all sites.
    pub all: GoldTotals,
}

impl GoldTable {
    /// Adds a site's row: its name and template nodes from `summary`, and its gold totals.
    pub fn add(&mut self, summary: &SiteSummary, gold: GoldTotals) {
        self.all.merge(&gold);
        let row = (summary.name.clone(), summary.stats.template_nodes, gold);
        self.rows.push(row);
    }
}

impl fmt::Display for GoldTable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "{:<14} {:>5} {:>9} {:>8} {:>9} {:>9} {:>10} {:>6} {:>6} {:>6}",
            "site",
            "pages",
            "tmpl-nodes",
            "gold-on",
            "gold∩T",
            "gold-lost",
            "other-in-T",
            "F1",
            "P",
            "R"
        )?;
        let row = |f: &mut fmt::Formatter<'_>, name: &str, nodes: u64, t: &GoldTotals| {
            let n = t.pages.max(1) as f64;
            writeln!(
                f,
                "{:<14} {:>5} {:>9} {:>7.1}% {:>8.2}% {:>8.2}% {:>9.1}% {:>6.3} {:>6.3} {:>6.3}",
                name,
                t.pages,
                nodes,
                pct(t.gold_on_page, t.gold_words),
                pct(t.gold_in_template, t.gold_words),
                pct(t.gold_lost, t.gold_words),
                pct(t.other_in_template, t.other_words),
                t.f1 / n,
                t.precision / n,
                t.recall / n
            )
        };
        for (name, nodes, t) in &self.rows {
            row(f, name, *nodes, t)?;
        }
        let total_template: u64 = self.rows.iter().map(|r| r.1).sum();
        row(f, "all", total_template, &self.all)
    }
}

/// The site runs of WARC files, counting the runs of a site that came back after other
/// sites' records (such a run is labelled apart from the site's earlier records).
#[derive(Debug, Clone, Default)]
pub struct SiteRuns {
    seen: HashSet<String>,
    /// Runs of a site seen before.
    pub split: usize,
}

impl SiteRuns {
    /// Notes a run of site `name`. O(|name|).
    pub fn add(&mut self, name: &str) {
        if !self.seen.insert(name.to_owned()) {
            self.split += 1;
        }
    }

    /// The warning to print (without the program's name) when some site came apart.
    pub fn warning(&self) -> Option<String> {
        (self.split > 0).then(|| {
            format!(
                "{} site run(s) came after other sites' records and were labelled apart from the \
                 site's earlier records (group a WARC's records by host for one run per site)",
                self.split
            )
        })
    }
}
