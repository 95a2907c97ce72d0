//! SiteLevel(θ) over real pages: the [`sitelevel`] crate's [`PageTree`] for [`Dom`], grouping
//! pages by site, and a two-pass streaming run per site.
//!
//! A run over one site ([`run_site`]) never holds more than a window of DOMs at once:
//! 1. **Count.** Parse and hash the pages in parallel (rayon, a window at a time), then add the
//!    hashes to the site's counter *in page order*, dropping each DOM and hash vector.
//! 2. **Label.** Compute I⁺_θ, parse each page again, label it and hand the result on, again
//!    in page order.
//!
//! Memory is therefore bounded by the site's hash counts plus one window of pages, and the
//! output is the same for any number of threads.
//!
//! Sites come from a manifest ([`group_manifest`]: its `site` key, else the registrable domain of
//! the page URL, else the folder of the page) or from a folder of folders ([`group_site_dir`]).
//!
//! [`report`] turns a run's outcomes into JSON lines, per-site statistics and the gold table.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use rayon::prelude::*;
use sitelevel::{hash_page, NodeView, PageTree, SiteLevel, SiteLevelOptions};

use crate::dom::{visibility, Dom, Kind};
use crate::eval::metrics::{prf_of_bags, Bag, Prf};
use crate::input::manifest::{Entry, Manifest};
use crate::output::text::render_text;
use crate::{Error, Limits, Page, Result};

pub mod report;

/// A [`Dom`] seen as a SiteLevel [`PageTree`]. Own bytes are computed once when it is built
/// (one O(n) pass over [`Dom::subtree_bytes`]).
#[derive(Debug, Clone)]
pub struct SiteTree<'a> {
    dom: &'a Dom,
    own: Vec<u64>,
}

impl<'a> SiteTree<'a> {
    /// Wraps `dom`; own bytes of node i are its subtree bytes minus its children's.
    ///
    /// # Complexity
    /// O(n) time and 8 bytes per node.
    pub fn new(dom: &'a Dom) -> Self {
        let sub = dom.subtree_bytes();
        let mut own: Vec<u64> = sub.iter().map(|&b| u64::from(b)).collect();
        for (i, &b) in sub.iter().enumerate().skip(1) {
            if let Some(p) = dom.parent(i) {
                own[p] = own[p].saturating_sub(u64::from(b));
            }
        }
        SiteTree { dom, own }
    }

    /// The wrapped DOM.
    pub fn dom(&self) -> &'a Dom {
        self.dom
    }
}

impl PageTree for SiteTree<'_> {
    fn len(&self) -> usize {
        self.dom.len()
    }
    fn parent(&self, i: usize) -> Option<usize> {
        self.dom.parent(i)
    }
    fn first_child(&self, i: usize) -> Option<usize> {
        let c = self.dom.node(i).first_child;
        (c != crate::dom::NONE).then_some(c as usize)
    }
    fn next_sibling(&self, i: usize) -> Option<usize> {
        let c = self.dom.node(i).next_sibling;
        (c != crate::dom::NONE).then_some(c as usize)
    }
    fn subtree_end(&self, i: usize) -> usize {
        self.dom.node(i).end as usize
    }
    fn node(&self, i: usize) -> NodeView<'_> {
        match self.dom.node(i).kind {
            Kind::Element => NodeView::Element(self.dom.tag_name(i)),
            Kind::Text => NodeView::Text(self.dom.text(i)),
            _ => NodeView::Other,
        }
    }
    fn attr(&self, i: usize, name: &str) -> Option<&str> {
        self.dom.attr(i, name)
    }
    fn own_bytes(&self, i: usize) -> u64 {
        self.own[i]
    }
}

/// One page to label.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SitePage {
    /// The HTML path exactly as written in the manifest (or relative to the site folder).
    pub path: String,
    /// Page id (the manifest's `id`, or the file name without extensions).
    pub id: String,
    /// Where to read it.
    pub file: PathBuf,
    /// The page URL, when known (helps charset detection).
    pub url: Option<String>,
    /// Gold main text, when known.
    pub gold: Option<PathBuf>,
}

/// The pages of one site, in input order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SiteGroup {
    /// The site key.
    pub name: String,
    /// Its pages.
    pub pages: Vec<SitePage>,
}

/// A Wayback Machine capture URL (`…archive.org/web/<timestamp>/<original>`) gives its original
/// URL; any other URL is returned as is.
pub fn unwrap_wayback(url: &str) -> String {
    let is_archive =
        crate::url::host(url).is_some_and(|h| h == "archive.org" || h.ends_with(".archive.org"));
    if is_archive {
        if let Some(k) = url.find("/web/") {
            if let Some((_, rest)) = url[k + 5..].split_once('/') {
                return match rest.split_once(":/") {
                    Some((scheme, r)) if !scheme.contains('/') => {
                        format!("{scheme}://{}", r.trim_start_matches('/'))
                    }
                    _ => format!("http://{rest}"),
                };
            }
        }
    }
    url.to_owned()
}

/// The site of a page URL: its registrable domain (public suffix list), looking through Wayback
/// Machine captures; `None` for a URL without a web host.
pub fn site_of_url(url: &str) -> Option<String> {
    crate::url::site_of(&unwrap_wayback(url))
}

/// The site a manifest entry belongs to: its `site` key if non-empty; else the registrable
/// domain (public suffix list) of its URL, looking through Wayback Machine captures; else the
/// folder its HTML path is in (`"."` for none).
pub fn site_key(entry: &Entry) -> String {
    if let Some(s) = entry
        .site
        .as_deref()
        .map(str::trim)
        .filter(|s| !s.is_empty())
    {
        return s.to_owned();
    }
    if let Some(d) = entry.url.as_deref().and_then(site_of_url) {
        return d;
    }
    match Path::new(&entry.html).parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_string_lossy().into_owned(),
        _ => ".".to_owned(),
    }
}

/// Groups `(key, item)` pairs by key: keys in order of their first item, items in input order.
/// O(n) expected (one hash look-up per item).
pub fn group_in_order<T>(items: impl IntoIterator<Item = (String, T)>) -> Vec<(String, Vec<T>)> {
    let mut groups: Vec<(String, Vec<T>)> = Vec::new();
    let mut index = std::collections::HashMap::new();
    for (key, item) in items {
        let g = *index.entry(key.clone()).or_insert_with(|| {
            groups.push((key, Vec::new()));
            groups.len() - 1
        });
        groups[g].1.push(item);
    }
    groups
}

/// Groups a manifest's pages by [`site_key`]; sites in order of their first page, pages in
/// manifest order.
pub fn group_manifest(manifest: &Manifest) -> Vec<SiteGroup> {
    let pages = manifest.entries.iter().map(|e| {
        let page = SitePage {
            path: e.html.clone(),
            id: e.id.clone(),
            file: manifest.html_path(e),
            url: e.url.clone(),
            gold: manifest.gold_path(e),
        };
        (site_key(e), page)
    });
    group_in_order(pages)
        .into_iter()
        .map(|(name, pages)| SiteGroup { name, pages })
        .collect()
}

/// Whether a file name looks like a page: `.html`, `.htm`, `.xhtml`, optionally `.gz`.
fn is_page_name(name: &str) -> bool {
    let n = name.to_ascii_lowercase();
    let n = n.strip_suffix(".gz").unwrap_or(&n);
    n.ends_with(".html") || n.ends_with(".htm") || n.ends_with(".xhtml")
}

/// The id of a page file: its name without the page extensions.
fn page_id(name: &str) -> String {
    let n = name.strip_suffix(".gz").unwrap_or(name);
    match n.rfind('.') {
        Some(k) if k > 0 => n[..k].to_owned(),
        _ => n.to_owned(),
    }
}

fn sorted_dir(dir: &Path) -> Result<Vec<(String, PathBuf, bool)>> {
    let io = |source| Error::Io {
        path: dir.to_path_buf(),
        source,
    };
    let mut out = Vec::new();
    for ent in std::fs::read_dir(dir).map_err(io)? {
        let ent = ent.map_err(io)?;
        let path = ent.path();
        let is_dir = path.is_dir();
        out.push((ent.file_name().to_string_lossy().into_owned(), path, is_dir));
    }
    out.sort();
    Ok(out)
}

/// Groups a folder of sites: each subfolder of `dir` is one site (named after the subfolder)
/// holding its pages (`.html`, `.htm`, `.xhtml`, optionally gzipped) directly; pages lying in
/// `dir` itself form one more site named after `dir`. Sites and pages are sorted by name, and a
/// page's path is written relative to `dir`.
///
/// # Errors
/// [`Error::Io`] if a folder cannot be listed.
pub fn group_site_dir(dir: &Path) -> Result<Vec<SiteGroup>> {
    let mut groups = Vec::new();
    let mut loose = Vec::new();
    let page = |rel: String, name: &str, file: PathBuf| SitePage {
        path: rel,
        id: page_id(name),
        file,
        url: None,
        gold: None,
    };
    for (name, path, is_dir) in sorted_dir(dir)? {
        if is_dir {
            let pages: Vec<SitePage> = sorted_dir(&path)?
                .into_iter()
                .filter(|(n, _, d)| !d && is_page_name(n))
                .map(|(n, p, _)| page(format!("{name}/{n}"), &n, p))
                .collect();
            if !pages.is_empty() {
                groups.push(SiteGroup { name, pages });
            }
        } else if is_page_name(&name) {
            loose.push(page(name.clone(), &name, path));
        }
    }
    if !loose.is_empty() {
        let name = dir
            .canonicalize()
            .ok()
            .and_then(|d| d.file_name().map(|n| n.to_string_lossy().into_owned()))
            .unwrap_or_else(|| ".".to_owned());
        groups.push(SiteGroup { name, pages: loose });
    }
    Ok(groups)
}

/// Groups pages given by path: a file is one page, a folder is walked recursively for its pages
/// (`.html`, `.htm`, `.xhtml`, optionally gzipped; names sorted byte-wise, so the order is
/// stable). A page's site is the folder it is in, written as reached (`crawl/example.com` for
/// `crawl/example.com/a.html`, `.` for a bare file name): crawls stored one folder per host
/// group as the WARC records of one host do. Sites come in the order of their first page, each
/// with its pages in input order; a page's `path` is the file's path as given or as reached.
///
/// # Errors
/// [`Error::Io`] if a folder cannot be listed. A path that is not there is a page like any
/// other, whose read fails alone.
///
/// # Complexity
/// O(files) plus one `stat` per path and one listing per folder.
pub fn group_paths(paths: &[PathBuf]) -> Result<Vec<SiteGroup>> {
    let files = page_files(paths)?;
    Ok(group_files(files.into_iter().map(|f| (f, None))))
}

/// The page files of `paths` as [`group_paths`] reaches them: a file as itself, a folder
/// walked.
///
/// # Errors
/// [`Error::Io`] if a folder cannot be listed.
pub fn page_files(paths: &[PathBuf]) -> Result<Vec<PathBuf>> {
    let mut files = Vec::new();
    for path in paths {
        // Anything but a folder is a page: one that cannot be read fails alone when loaded.
        if path.is_dir() {
            walk_pages(path, &mut files)?;
        } else {
            files.push(path.clone());
        }
    }
    Ok(files)
}

/// Groups page files, each with its URL when known (an input list's `PATH<TAB>URL`), as
/// [`group_paths`] groups the files it reaches: a page's site is the folder it is in; sites in
/// the order of their first page, each with its pages in input order.
///
/// # Complexity
/// O(files).
pub fn group_files(files: impl IntoIterator<Item = (PathBuf, Option<String>)>) -> Vec<SiteGroup> {
    let pages = files.into_iter().map(|(file, url)| {
        let site = match file.parent() {
            Some(d) if !d.as_os_str().is_empty() => d.to_string_lossy().into_owned(),
            _ => ".".to_owned(),
        };
        let name = file
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let page = SitePage {
            path: file.to_string_lossy().into_owned(),
            id: page_id(&name),
            file,
            url,
            gold: None,
        };
        (site, page)
    });
    group_in_order(pages)
        .into_iter()
        .map(|(name, pages)| SiteGroup { name, pages })
        .collect()
}

/// Appends the pages under `dir` ([`is_page_name`]), depth first, names sorted.
fn walk_pages(dir: &Path, out: &mut Vec<PathBuf>) -> Result<()> {
    for (name, path, is_dir) in sorted_dir(dir)? {
        if is_dir {
            walk_pages(&path, out)?;
        } else if is_page_name(&name) {
            out.push(path);
        }
    }
    Ok(())
}

/// Settings of a run, one line each.
#[derive(Debug, Clone)]
pub struct RunOptions {
    /// θ, minimum pages, hash and label options.
    pub sitelevel: SiteLevelOptions,
    /// Per-page resource limits.
    pub limits: Limits,
    /// Pages parsed at a time (in parallel); bounds memory. Default [`DEFAULT_WINDOW`].
    pub window: usize,
    /// The parser that reads each page.
    pub parser: crate::dom::Parser,
}

/// Default for [`RunOptions::window`]: enough to keep a few cores busy.
pub const DEFAULT_WINDOW: usize = 32;

impl Default for RunOptions {
    fn default() -> Self {
        RunOptions {
            sitelevel: SiteLevelOptions::default(),
            limits: Limits::default(),
            window: DEFAULT_WINDOW,
            parser: crate::dom::Parser::default(),
        }
    }
}

/// What became of one page.
#[derive(Debug)]
pub enum Outcome<T> {
    /// Labelled; the value the caller's job computed from the page and its labels.
    Labelled(T),
    /// Could not be read or parsed (the message says why); the run went on.
    Failed(String),
    /// Not labelled because the whole site was refused (too few pages); the message says why.
    Skipped(String),
}

/// Node and word counts of labelled pages.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PageStats {
    /// Elements and text nodes holding more than whitespace.
    pub nodes: u64,
    /// Those labelled template.
    pub template_nodes: u64,
    /// Words of visible text.
    pub words: u64,
    /// Words of visible text inside template nodes.
    pub template_words: u64,
}

add_assign_fields!(PageStats: nodes, template_nodes, words, template_words);

/// The outcome of one site.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SiteSummary {
    /// Site key.
    pub name: String,
    /// Pages given.
    pub pages: usize,
    /// Pages labelled.
    pub labelled: usize,
    /// Pages that failed to read or parse.
    pub failed: usize,
    /// Distinct pages counted for θ (identical pages count once).
    pub distinct_pages: usize,
    /// Size of I⁺_θ.
    pub template_hashes: usize,
    /// Why the site was not labelled (too few pages), if it was not.
    pub skipped: Option<String>,
    /// Totals over the labelled pages.
    pub stats: PageStats,
}

/// Whether text node or element `i` is one the labels are reported for: elements, and text
/// nodes holding more than whitespace.
pub fn is_reported(dom: &Dom, i: usize) -> bool {
    match dom.node(i).kind {
        Kind::Element => true,
        Kind::Text => !dom.text(i).trim().is_empty(),
        _ => false,
    }
}

/// `keep[i]`: whether node i's text counts as outside the templates. Text nodes are kept when
/// they are not labelled template; every other node is kept, so that [`render_text`] walks into
/// it (its label matters for training, not for which text is shown).
///
/// A text node inside a by-hash template subtree is always labelled template itself (equal
/// subtrees have equal parts). A text node under an element that is template only by the 85%
/// share rule keeps its own label: that text occurs on too few pages to be site template, and
/// closing the share rule downwards would drop whole articles whenever navigation outweighs
/// them in bytes (measured in `docs/sitelevel.md`: `<html>` itself is template by share on many
/// news pages).
pub fn outside_templates(dom: &Dom, labels: &[bool]) -> Vec<bool> {
    (0..dom.len())
        .map(|i| dom.node(i).kind != Kind::Text || !labels[i])
        .collect()
}

/// The SiteLevel baseline text: the visible text of the text nodes not labelled template
/// ([`outside_templates`]), in document order, one block per line ([`render_text`]).
pub fn extract_text(dom: &Dom, labels: &[bool]) -> String {
    render_text(dom, &visibility(dom), &outside_templates(dom, labels))
}

/// Node and word counts of one labelled page. A word is template when its text node is labelled
/// template (see [`outside_templates`]).
pub fn page_stats(dom: &Dom, labels: &[bool]) -> PageStats {
    let vis = visibility(dom);
    let keep = outside_templates(dom, labels);
    let mut s = PageStats::default();
    for i in 0..dom.len() {
        if is_reported(dom, i) {
            s.nodes += 1;
            s.template_nodes += u64::from(labels[i]);
        }
        if vis[i] && dom.node(i).kind == Kind::Text {
            let w = crate::text::count_words(dom.text(i)) as u64;
            s.words += w;
            if !keep[i] {
                s.template_words += w;
            }
        }
    }
    s
}

/// Calls `f(i, path)` for every reported node ([`is_reported`]) in document order, with its path
/// in the format of [`Dom::path`] (`/html/body/div[2]/p[1]/text()[1]`; `html`, `head`, `body`
/// without index), abbreviated past [`crate::dom::PATH_MAX_STEPS`] steps
/// ([`Dom::for_each_short_path`]), so the cost is O(n + output) whatever the depth.
pub fn for_each_reported(dom: &Dom, f: impl FnMut(usize, &str)) {
    dom.for_each_short_path(|i| is_reported(dom, i), f);
}

/// Word-level agreement of a page's labels with its gold main text, from bags (multisets) of
/// lowercase words ([`crate::eval::metrics::Bag`]): G the gold text, A the page's visible text, T the
/// visible text inside template nodes and K = A − T the text kept.
///
/// Bags do not say *where* a word occurs, so "gold words inside template text" can be counted
/// two ways, both reported:
/// - `gold_in_template` = |G ∩ T| (the plain definition). It overcounts: "the" in the footer
///   matches a gold "the" even when the kept article holds every gold "the".
/// - `gold_lost` = Σ_w max(0, min(G_w, A_w) − K_w): gold occurrences on the page that the kept
///   text cannot account for, so must lie in template text. This is what template removal loses
///   (it equals the recall loss of [`extract_text`] over the words present on the page).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct GoldCheck {
    /// Words of the gold text, |G|.
    pub gold_words: u64,
    /// Gold words found anywhere in the visible text, |G ∩ A|.
    pub gold_on_page: u64,
    /// |G ∩ T|: gold words also found in template text (overcounts, see above).
    pub gold_in_template: u64,
    /// Gold words that only template text holds (see above): should be near 0.
    pub gold_lost: u64,
    /// Visible words that are not gold, |A| − |A ∩ G|.
    pub other_words: u64,
    /// Of those, the ones in template text: |T| − `gold_lost`.
    pub other_in_template: u64,
    /// Word precision, recall and F1 of [`extract_text`] against the gold text.
    pub prf: Prf,
}

/// Gold-check totals over pages (one site's, or all): counts summed, the per-page precision,
/// recall and F1 summed too (divide by `pages` for their means).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct GoldTotals {
    /// Pages added.
    pub pages: usize,
    /// Σ [`GoldCheck::gold_words`].
    pub gold_words: u64,
    /// Σ [`GoldCheck::gold_on_page`].
    pub gold_on_page: u64,
    /// Σ [`GoldCheck::gold_in_template`].
    pub gold_in_template: u64,
    /// Σ [`GoldCheck::gold_lost`].
    pub gold_lost: u64,
    /// Σ [`GoldCheck::other_words`].
    pub other_words: u64,
    /// Σ [`GoldCheck::other_in_template`].
    pub other_in_template: u64,
    /// Σ F1.
    pub f1: f64,
    /// Σ precision.
    pub precision: f64,
    /// Σ recall.
    pub recall: f64,
}

impl GoldTotals {
    /// Adds one page's check.
    pub fn add(&mut self, g: &GoldCheck) {
        self.merge(&GoldTotals {
            pages: 1,
            gold_words: g.gold_words,
            gold_on_page: g.gold_on_page,
            gold_in_template: g.gold_in_template,
            gold_lost: g.gold_lost,
            other_words: g.other_words,
            other_in_template: g.other_in_template,
            f1: g.prf.f1,
            precision: g.prf.precision,
            recall: g.prf.recall,
        });
    }

    /// Adds another set of totals.
    pub fn merge(&mut self, o: &GoldTotals) {
        self.pages += o.pages;
        self.gold_words += o.gold_words;
        self.gold_on_page += o.gold_on_page;
        self.gold_in_template += o.gold_in_template;
        self.gold_lost += o.gold_lost;
        self.other_words += o.other_words;
        self.other_in_template += o.other_in_template;
        self.f1 += o.f1;
        self.precision += o.precision;
        self.recall += o.recall;
    }
}

/// Compares a labelled page with its gold main text.
///
/// # Complexity
/// O(n + text) for n nodes.
pub fn check_gold(dom: &Dom, labels: &[bool], gold: &str) -> GoldCheck {
    let vis = visibility(dom);
    let keep = outside_templates(dom, labels);
    let mut all = Bag::default();
    let mut template = Bag::default();
    let mut kept = Bag::default();
    for i in 0..dom.len() {
        if vis[i] && dom.node(i).kind == Kind::Text {
            let t = dom.text(i);
            all.add(t);
            if keep[i] {
                kept.add(t);
            } else {
                template.add(t);
            }
        }
    }
    let gold_bag = Bag::of(gold);
    let gold_lost: u64 = gold_bag
        .iter()
        .map(|(w, g)| u64::from(g.min(all.count(w)).saturating_sub(kept.count(w))))
        .sum();
    let extracted = Bag::of(&render_text(dom, &vis, &keep));
    GoldCheck {
        gold_words: gold_bag.total(),
        gold_on_page: all.overlap(&gold_bag),
        gold_in_template: template.overlap(&gold_bag),
        gold_lost,
        other_words: all.total() - all.overlap(&gold_bag),
        other_in_template: template.total() - gold_lost,
        prf: prf_of_bags(&extracted, &gold_bag),
    }
}

/// Reads and parses one page from its file with `parser` within `limits`, its time limit
/// included, for hashing or labelling (the DOM lives only inside that call). O(page) plus the
/// parse.
pub fn load(page: &SitePage, limits: &Limits, parser: crate::dom::Parser) -> Result<Page> {
    Page::from_path(
        &page.file,
        &crate::PageOptions {
            url: page.url.as_deref(),
            limits: *limits,
            deadline: Some(&limits.deadline()),
            parser,
            ..Default::default()
        },
    )
}

/// SiteLevel's node labels of every page of every site of `m` it can label, by manifest
/// `html` path, and how many pages it could not (sites too small, pages failing).
///
/// # Complexity
/// [`run_site`] per site: two parses per page.
pub fn manifest_labels(m: &Manifest, limits: &Limits) -> (HashMap<String, Vec<bool>>, usize) {
    let options = RunOptions {
        limits: *limits,
        ..RunOptions::default()
    };
    let mut labels = HashMap::new();
    let mut skipped = 0;
    for group in group_manifest(m) {
        run_site(
            &group,
            &options,
            |_, _, l| l.to_vec(),
            |p, o| match o {
                Outcome::Labelled(l) => {
                    labels.insert(p.path.clone(), l);
                }
                Outcome::Skipped(_) | Outcome::Failed(_) => skipped += 1,
            },
        );
    }
    (labels, skipped)
}

/// Runs SiteLevel over one site in two streaming passes (see the [module docs](self)).
///
/// `job` runs in parallel on each labelled page with its parsed page and labels (one bool per
/// node, `true` = template); `sink` receives every page's [`Outcome`] in page order, on the
/// calling thread. A page that fails to load is [`Outcome::Failed`] and the rest go on; a site
/// with fewer than `min_pages` distinct loadable pages gets [`Outcome::Skipped`] for each page.
///
/// # Complexity
/// Each page is parsed twice; time O(total nodes), memory O(distinct hashes of the site + one
/// window of pages).
pub fn run_site<T, F, S>(group: &SiteGroup, options: &RunOptions, job: F, sink: S) -> SiteSummary
where
    T: Send,
    F: Fn(&SitePage, &Page, &[bool]) -> T + Sync,
    S: FnMut(&SitePage, Outcome<T>),
{
    run_site_with(
        group,
        options,
        |_, p| load(p, &options.limits, options.parser),
        job,
        sink,
    )
}

/// Like [`run_site`], with the pages read by `load(k, page)` (`k` = the page's index in the
/// group) instead of from their files: the records of a WARC file, say. `load` is called twice
/// per page (once per pass).
pub fn run_site_with<T, L, F, S>(
    group: &SiteGroup,
    options: &RunOptions,
    load: L,
    job: F,
    mut sink: S,
) -> SiteSummary
where
    T: Send,
    L: Fn(usize, &SitePage) -> Result<Page> + Sync,
    F: Fn(&SitePage, &Page, &[bool]) -> T + Sync,
    S: FnMut(&SitePage, Outcome<T>),
{
    let window = options.window.max(1);
    let opts = &options.sitelevel;
    let mut site = SiteLevel::new(opts.clone()).site(group.name.clone());
    // Per page: its index in `site`, or why it failed.
    let mut index: Vec<std::result::Result<usize, String>> = Vec::with_capacity(group.pages.len());
    for (c, chunk) in group.pages.chunks(window).enumerate() {
        let hashed: Vec<Result<Vec<u64>>> = chunk
            .par_iter()
            .enumerate()
            .map(|(k, p)| {
                let page = load(c * window + k, p)?;
                Ok(hash_page(&SiteTree::new(&page.dom), &opts.hash))
            })
            .collect();
        for h in hashed {
            index.push(match h {
                Ok(h) => Ok(site.add_page_hashes(h)),
                Err(e) => Err(e.to_string()),
            });
        }
    }
    let mut summary = SiteSummary {
        name: group.name.clone(),
        pages: group.pages.len(),
        failed: index.iter().filter(|r| r.is_err()).count(),
        distinct_pages: site.distinct_pages(),
        ..SiteSummary::default()
    };
    match site.finish() {
        Ok(set) => summary.template_hashes = set.len(),
        Err(e) => {
            let why = e.to_string();
            for (p, r) in group.pages.iter().zip(&index) {
                match r {
                    Ok(_) => sink(p, Outcome::Skipped(why.clone())),
                    Err(m) => sink(p, Outcome::Failed(m.clone())),
                }
            }
            summary.skipped = Some(why);
            return summary;
        }
    }
    let site = &site;
    for (c, (chunk, idx)) in group
        .pages
        .chunks(window)
        .zip(index.chunks(window))
        .enumerate()
    {
        // (outcome, whether it is a failure first seen in this pass)
        let done: Vec<(Outcome<(PageStats, T)>, bool)> = chunk
            .par_iter()
            .zip(idx)
            .enumerate()
            .map(|(n, (p, r))| {
                let k = match r {
                    Ok(k) => *k,
                    Err(m) => return (Outcome::Failed(m.clone()), false),
                };
                let page = match load(c * window + n, p) {
                    Ok(page) => page,
                    Err(e) => return (Outcome::Failed(e.to_string()), true),
                };
                match site.labels_of(k, &SiteTree::new(&page.dom)) {
                    Ok(labels) => {
                        let stats = page_stats(&page.dom, &labels);
                        (Outcome::Labelled((stats, job(p, &page, &labels))), false)
                    }
                    Err(e) => (Outcome::Failed(e.to_string()), true),
                }
            })
            .collect();
        for (p, (o, new_failure)) in chunk.iter().zip(done) {
            summary.failed += usize::from(new_failure);
            match o {
                Outcome::Labelled((stats, t)) => {
                    summary.labelled += 1;
                    summary.stats += stats;
                    sink(p, Outcome::Labelled(t));
                }
                Outcome::Failed(m) => sink(p, Outcome::Failed(m)),
                Outcome::Skipped(m) => sink(p, Outcome::Skipped(m)),
            }
        }
    }
    summary
}

/// The records of one site in a WARC file (all of them, or one run of consecutive ones): its
/// pages and, per page, the record's place ([`WarcSite::load`] reads it again there; a bad
/// record fails again with its error, a junk span with its own).
#[derive(Debug)]
pub struct WarcSite {
    /// The site and its pages (`path` the WARC file as given, `id` the record id).
    pub group: SiteGroup,
    /// Per page, where its record is.
    pub places: Vec<crate::input::warc::Place>,
}

impl WarcSite {
    /// Reads and parses page `k` of the site from its record with `parser` within `limits`:
    /// the `load` of [`run_site_with`]. Opens the file once per call.
    pub fn load(
        &self,
        k: usize,
        page: &SitePage,
        limits: &Limits,
        parser: crate::dom::Parser,
    ) -> Result<Page> {
        self.places[k].page(&page.file, limits, parser)
    }
}

/// Groups the records of the WARC file `path` by site (the registrable domain of the target
/// URI, `.` without one) and hands each site to `site_run`, stopping at its first error.
///
/// With `contiguous`, a site is a run of consecutive records, handed over as soon as it ends:
/// one streaming pass, memory one run's record metadata. Otherwise one pass lists every record
/// (id, URI, offset: about 200 bytes each, never the bodies) and the sites follow in the order of
/// their first record, each with its records in file order. A bad record joins the site of its
/// URI, or without one the site of the record before it, so its error line stays near its place.
///
/// # Errors
/// [`Error::Io`] when the file cannot be opened, or `site_run`'s error.
///
/// # Complexity
/// One pass over the file; O(records) memory without `contiguous`.
pub fn warc_sites<E: From<Error>>(
    path: &Path,
    limits: &Limits,
    contiguous: bool,
    mut site_run: impl FnMut(WarcSite) -> std::result::Result<(), E>,
) -> std::result::Result<(), E> {
    use crate::input::warc::{Item, WarcReader};
    let reader = WarcReader::open(path, limits).map_err(|source| Error::Io {
        path: path.to_owned(),
        source,
    })?;
    let shown = path.to_string_lossy().into_owned();
    let site_of = |uri: Option<&str>| uri.and_then(site_of_url);
    let site_page = |id: String, url: Option<String>| SitePage {
        path: shown.clone(),
        id,
        file: path.to_owned(),
        url,
        gold: None,
    };
    let mut runs: Vec<WarcSite> = Vec::new();
    let mut index: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    // The run of the record before (where a bad record without a URI goes).
    let mut prev: Option<usize> = None;
    for item in reader {
        let record = item.place();
        let (site, page) = match item {
            Item::Page(p) => {
                let site = site_of(p.uri.as_deref()).unwrap_or_else(|| ".".to_owned());
                (Some(site), site_page(p.record_id, p.uri))
            }
            Item::Bad(b) => {
                // In contiguous mode a bad record stays in the run it is in (file order).
                let site = if contiguous {
                    None
                } else {
                    site_of(b.uri.as_deref())
                };
                (site, site_page(b.record_id.unwrap_or_default(), b.uri))
            }
            // Junk stays where it is, as a bad record without a URI does.
            Item::Junk(_) => (None, site_page(String::new(), None)),
        };
        let k = match (&site, prev) {
            (None, Some(l)) => l,
            (Some(s), Some(l)) if runs[l].group.name == *s => l,
            (Some(s), _) if !contiguous && index.contains_key(s) => index[s],
            _ => {
                if contiguous {
                    if let Some(r) = runs.pop() {
                        site_run(r)?;
                    }
                }
                let name = site.unwrap_or_else(|| ".".to_owned());
                if !contiguous {
                    index.insert(name.clone(), runs.len());
                }
                runs.push(WarcSite {
                    group: SiteGroup {
                        name,
                        pages: Vec::new(),
                    },
                    places: Vec::new(),
                });
                runs.len() - 1
            }
        };
        runs[k].group.pages.push(page);
        runs[k].places.push(record);
        prev = Some(k);
    }
    for r in runs {
        site_run(r)?;
    }
    Ok(())
}

/// The fields a WARC record's line carries besides `path` and `page` (= the record id).
#[derive(serde::Serialize)]
struct WarcFields<'a> {
    warc_record_id: &'a str,
    url: Option<&'a str>,
}

impl<'a> WarcFields<'a> {
    /// `p`'s record fields when its pages are WARC records.
    fn of(p: &'a SitePage, warc: bool) -> Option<Self> {
        warc.then(|| WarcFields {
            warc_record_id: &p.id,
            url: p.url.as_deref(),
        })
    }
}

/// `value` as one JSON line.
pub(crate) fn json_line(value: &impl serde::Serialize) -> Vec<u8> {
    let mut v = serde_json::to_vec(value).unwrap_or_default();
    v.push(b'\n');
    v
}

/// A page's labels as one JSON line: `{"path", "page", ("warc_record_id", "url" when `warc`),
/// "site", "sitelevel", "labels": [{"path", "template"}]}`, a label per reported node
/// ([`for_each_reported`]). `sitelevel` says whether the labels are SiteLevel's (`false`: the
/// site was too small and they are PageLevel's, [`report::pagelevel_labels`]). O(n) for n nodes.
pub fn labels_line(
    p: &SitePage,
    site: &str,
    dom: &Dom,
    labels: &[bool],
    warc: bool,
    sitelevel: bool,
) -> Vec<u8> {
    #[derive(serde::Serialize)]
    struct Label<'a> {
        path: &'a str,
        template: bool,
    }
    #[derive(serde::Serialize)]
    struct Labels<'a> {
        path: &'a str,
        page: &'a str,
        #[serde(flatten)]
        warc: Option<WarcFields<'a>>,
        site: &'a str,
        sitelevel: bool,
        labels: Vec<Label<'a>>,
    }
    let mut paths = Vec::new();
    for_each_reported(dom, |i, path| paths.push((i, path.to_owned())));
    let labels = paths
        .iter()
        .map(|(i, path)| Label {
            path,
            template: labels[*i],
        })
        .collect();
    json_line(&Labels {
        path: &p.path,
        page: &p.id,
        warc: WarcFields::of(p, warc),
        site,
        sitelevel,
        labels,
    })
}

/// A page's text as one JSON line: `{"path", "page", ("warc_record_id", "url" when `warc`),
/// "site", "sitelevel", "text"}`; `sitelevel` says whether the text is SiteLevel's (`false`:
/// PageLevel's main text, the site being too small for SiteLevel). O(text).
pub fn text_line(p: &SitePage, site: &str, text: &str, warc: bool, sitelevel: bool) -> Vec<u8> {
    #[derive(serde::Serialize)]
    struct Extract<'a> {
        path: &'a str,
        page: &'a str,
        #[serde(flatten)]
        warc: Option<WarcFields<'a>>,
        site: &'a str,
        sitelevel: bool,
        text: &'a str,
    }
    json_line(&Extract {
        path: &p.path,
        page: &p.id,
        warc: WarcFields::of(p, warc),
        site,
        sitelevel,
        text,
    })
}

/// A labelled page's text outside templates ([`extract_text`]) as one JSON line ([`text_line`]
/// with `"sitelevel": true`). O(n + text).
pub fn extract_line(p: &SitePage, site: &str, dom: &Dom, labels: &[bool], warc: bool) -> Vec<u8> {
    text_line(p, site, &extract_text(dom, labels), warc, true)
}

/// [`check_gold`] against the gold text in the file `gold`, or why it cannot be read.
pub fn check_gold_file(
    dom: &Dom,
    labels: &[bool],
    gold: &Path,
) -> std::result::Result<GoldCheck, String> {
    std::fs::read_to_string(gold)
        .map(|text| check_gold(dom, labels, &text))
        .map_err(|e| format!("{}: cannot read gold: {e}", gold.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_count_same_tag_siblings() {
        let html = "<body><div><div>a</div><div>b</div></div><div><p>x</p>t<p>y</p></div></body>";
        let dom = crate::dom::parse(html, &Limits::default()).unwrap();
        let mut paths = Vec::new();
        for_each_reported(&dom, |_, p| paths.push(p.to_owned()));
        let body: Vec<&str> = paths
            .iter()
            .map(|s| s.as_str())
            .filter(|p| p.starts_with("/html/body/"))
            .collect();
        assert_eq!(
            body,
            [
                "/html/body/div[1]",
                "/html/body/div[1]/div[1]",
                "/html/body/div[1]/div[1]/text()[1]",
                "/html/body/div[1]/div[2]",
                "/html/body/div[1]/div[2]/text()[1]",
                "/html/body/div[2]",
                "/html/body/div[2]/p[1]",
                "/html/body/div[2]/p[1]/text()[1]",
                "/html/body/div[2]/text()[1]",
                "/html/body/div[2]/p[2]",
                "/html/body/div[2]/p[2]/text()[1]",
            ]
        );
    }

    #[test]
    fn paths_match_dom_path() {
        let html = "<!doctype html><html><head><title>t</title></head><body><!--c--><div><p>a</p>\
                    <p>b<br>c</p></div><div><ul><li>x</li><li>y</li></ul></div><svg><title>s</title></svg></body></html>";
        let dom = crate::dom::parse(html, &Limits::default()).unwrap();
        let mut seen = 0;
        for_each_reported(&dom, |i, path| {
            assert_eq!(path, dom.path(i), "node {i}");
            seen += 1;
        });
        assert_eq!(
            seen,
            (0..dom.len()).filter(|&i| is_reported(&dom, i)).count()
        );
    }

    #[test]
    fn own_bytes_sum_to_subtree() {
        let html = "<html><body><div id=a><p>hello <b>world</b></p></div><table><td>x</table></body></html>";
        let dom = crate::dom::parse(html, &Limits::default()).unwrap();
        let t = SiteTree::new(&dom);
        let sub = dom.subtree_bytes();
        for (i, &b) in sub.iter().enumerate() {
            let end = dom.node(i).end as usize;
            let sum: u64 = (i..end).map(|k| t.own_bytes(k)).sum();
            assert!(sum <= u64::from(b), "node {i}");
        }
        assert_eq!(
            t.own_bytes(0) + (1..dom.len()).map(|k| t.own_bytes(k)).sum::<u64>(),
            u64::from(sub[0])
        );
    }

    #[test]
    fn wayback_and_site_keys() {
        assert_eq!(
            unwrap_wayback("http://web.archive.org/web/20050101000000/http://www.forbes.com/x"),
            "http://www.forbes.com/x"
        );
        assert_eq!(
            unwrap_wayback("https://web.archive.org/web/2005id_/news.bbc.co.uk/a"),
            "http://news.bbc.co.uk/a"
        );
        let e = |site: Option<&str>, url: Option<&str>| Entry {
            id: "x".into(),
            set: None,
            url: url.map(Into::into),
            site: site.map(Into::into),
            html: "sites/cnn/x.html".into(),
            gold: None,
            page_type: None,
        };
        assert_eq!(site_key(&e(Some("cnn"), None)), "cnn");
        assert_eq!(
            site_key(&e(None, Some("http://news.bbc.co.uk/a"))),
            "bbc.co.uk"
        );
        assert_eq!(site_key(&e(None, None)), "sites/cnn");
    }
}
