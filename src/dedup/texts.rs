//! The pages `pagelevel dedup` compares and the text of each in one of three modes: all visible
//! text, the SiteLevel baseline text or the PageLevel main text. Every page's text is computed in
//! parallel and gathered in input order, so the result is the same for any thread count.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use rayon::prelude::*;

use crate::config::Deadline;
use crate::dom::visibility;
use crate::error::chain;
use crate::input::manifest::Manifest;
use crate::input::walk::Input;
use crate::input::warc::{self, Place};
use crate::model::Model;
use crate::output::text::render_text;
use crate::pipeline::{analyze_within, Options};
use crate::site::{self, Outcome, RunOptions, SiteGroup, SitePage};
use crate::{Error, Limits, Page, Result};

/// Which text of a page is shingled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum Mode {
    /// All visible text of the page.
    Full,
    /// The SiteLevel baseline: visible text outside the site's templates (needs sites: a manifest,
    /// a site folder, or WARC records grouped by the registrable domain of their URI).
    Sitelevel,
    /// The PageLevel main text (what `pagelevel extract` prints).
    Pagelevel,
}

/// All modes, in table order.
pub const MODES: [Mode; 3] = [Mode::Full, Mode::Sitelevel, Mode::Pagelevel];

/// Where the pages come from.
#[derive(Debug, Clone, Copy)]
pub enum Source<'a> {
    /// A folder holding one folder of pages per site.
    SiteDir(&'a Path),
    /// Manifests in the shared data's format, their paths relative to `root` (default: found
    /// next to each manifest); pages are grouped by site within each manifest.
    Manifests {
        /// The manifests.
        paths: &'a [PathBuf],
        /// The folder their paths are relative to.
        root: Option<&'a Path>,
    },
    /// HTML files and WARC files (their records), as [`crate::input::walk`] lists them (folders
    /// walked, input lists read); an input with a `problem` is the caller's to report and is
    /// left out here.
    Files {
        /// The files.
        inputs: &'a [Input],
        /// The URL of the HTML files without one of their own ([`Input::url`]).
        url: Option<&'a str>,
    },
}

/// Sites by name, each with its pages (indices into [`Inputs::pages`]) in input order.
pub type Sites = Vec<(String, Vec<usize>)>;

/// The pages to compare, in output order, and the sites they form (indices into `pages`).
#[derive(Debug, Clone)]
pub struct Inputs {
    /// The pages.
    pub pages: Vec<SitePage>,
    /// Sites, each with its pages in input order; `None` for files without URLs.
    pub sites: Option<Sites>,
    /// Per page: the place of its record (or junk span) when it comes from a WARC file (`file`).
    pub offsets: Vec<Option<Place>>,
}

impl Inputs {
    /// Lists the pages of `source`; a WARC file is read once for its records' ids, URIs and
    /// places (each record is read again when its text is made, so memory holds no bodies).
    ///
    /// # Errors
    /// When a manifest, site folder or WARC file cannot be read.
    pub fn load(source: Source) -> Result<Inputs> {
        let (pages, sites) = match source {
            Source::SiteDir(dir) => {
                let mut pages = Vec::new();
                let mut sites = Vec::new();
                for g in site::group_site_dir(dir)? {
                    let start = pages.len();
                    pages.extend(g.pages);
                    sites.push((g.name, (start..pages.len()).collect()));
                }
                (pages, sites)
            }
            Source::Manifests { paths, root } => manifest_pages(paths, root)?,
            Source::Files { inputs, url } => return files(inputs, url),
        };
        let offsets = vec![None; pages.len()];
        Ok(Inputs {
            pages,
            sites: Some(sites),
            offsets,
        })
    }

    /// Whether page `i` is a WARC record (its output line names the record and its URI).
    pub fn is_record(&self, i: usize) -> bool {
        self.offsets.get(i).copied().flatten().is_some()
    }
}

/// The manifests' pages, and their sites (one group per site key within each manifest).
fn manifest_pages(paths: &[PathBuf], root: Option<&Path>) -> Result<(Vec<SitePage>, Sites)> {
    let mut pages = Vec::new();
    let mut sites: Sites = Vec::new();
    for path in paths {
        let m = Manifest::load(path, root)?;
        let mut index: HashMap<String, usize> = HashMap::new();
        for e in &m.entries {
            let key = site::site_key(e);
            let g = *index.entry(key.clone()).or_insert_with(|| {
                sites.push((format!("{}:{key}", path.display()), Vec::new()));
                sites.len() - 1
            });
            sites[g].1.push(pages.len());
            pages.push(SitePage {
                path: e.html.clone(),
                id: e.id.clone(),
                file: m.html_path(e),
                url: e.url.clone(),
                gold: m.gold_path(e),
            });
        }
    }
    Ok((pages, sites))
}

/// HTML files and WARC records; their sites when every page has a URL.
fn files(inputs: &[Input], url: Option<&str>) -> Result<Inputs> {
    let mut pages = Vec::new();
    let mut offsets = Vec::new();
    for input in inputs.iter().filter(|i| i.problem.is_none()) {
        let p = &input.path;
        let path = p.to_string_lossy().into_owned();
        if !warc::is_warc(p) {
            pages.push(SitePage {
                path: path.clone(),
                id: path,
                file: p.clone(),
                url: input.url.as_deref().or(url).map(str::to_owned),
                gold: None,
            });
            offsets.push(None);
            continue;
        }
        let reader = warc::WarcReader::open(p, &Limits::default()).map_err(|source| Error::Io {
            path: p.clone(),
            source,
        })?;
        for item in reader {
            let place = item.place();
            let (id, url) = match item {
                warc::Item::Page(w) => (w.record_id, w.uri),
                warc::Item::Bad(b) => (b.record_id.unwrap_or_default(), b.uri),
                warc::Item::Junk(_) => (String::new(), None),
            };
            pages.push(SitePage {
                path: path.clone(),
                id,
                file: p.clone(),
                url,
                gold: None,
            });
            offsets.push(Some(place));
        }
    }
    // WARC records (and pages given one URL) have URIs: their sites are registrable domains,
    // gathered from anywhere in the input as `sitelevel --warc` does. Files without a URL have
    // none, and SiteLevel mode refuses them.
    let sites = pages.iter().all(|p| p.url.is_some()).then(|| {
        site::group_in_order(pages.iter().enumerate().map(|(i, p)| {
            let name = p.url.as_deref().and_then(site::site_of_url);
            (name.unwrap_or_else(|| ".".to_owned()), i)
        }))
    });
    Ok(Inputs {
        pages,
        sites,
        offsets,
    })
}

/// Everything needed to compute a page's text in any mode.
#[derive(Debug)]
pub struct Texts {
    /// The model of the PageLevel text.
    pub model: Model,
    /// The pipeline's options.
    pub opts: Options,
    /// Limits per page (and its deadline).
    pub limits: Limits,
}

/// A page's text, or why it has none (the error and its causes).
pub type Text = std::result::Result<String, String>;

/// Per page in input order, a value made from its text (or why it has none), and the notes on
/// sites SiteLevel could not label.
type PerPage<T> = (Vec<std::result::Result<T, String>>, Vec<String>);

/// A page's sketch and the number of words of its text.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PageSketch {
    /// Words of the text ([`crate::text::count_words`]).
    pub words: usize,
    /// Its sketch ([`super::sketch`]).
    pub sketch: super::Sketch,
}

/// Every page's sketch in one mode, and notes on sites SiteLevel could not label in full.
#[derive(Debug, Clone, Default)]
pub struct ModeSketches {
    /// Per page, in input order: its sketch, or why it has none.
    pub sketches: Vec<std::result::Result<PageSketch, String>>,
    /// One line per site some of whose pages fell back to their full text.
    pub notes: Vec<String>,
}

/// Every page's text in one mode, and notes on sites SiteLevel could not label in full.
#[derive(Debug, Clone, Default)]
pub struct ModeTexts {
    /// Per page, in input order.
    pub texts: Vec<Text>,
    /// One line per site some of whose pages fell back to their full text.
    pub notes: Vec<String>,
}

impl Texts {
    /// A page from its WARC record (at `offset`) or its file.
    fn load(&self, p: &SitePage, offset: Option<Place>, deadline: &Deadline) -> Result<Page> {
        match offset {
            Some(o) => o.page(&p.file, &self.limits, self.opts.parser),
            None => Page::from_path(
                &p.file,
                &crate::PageOptions {
                    url: p.url.as_deref(),
                    limits: self.limits,
                    deadline: Some(deadline),
                    parser: self.opts.parser,
                    ..Default::default()
                },
            ),
        }
    }

    /// The full text of a page and, if `pagelevel`, its PageLevel text, from one parse.
    ///
    /// # Errors
    /// When the page cannot be read or parsed, or runs over the deadline.
    pub fn page(
        &self,
        p: &SitePage,
        offset: Option<Place>,
        pagelevel: bool,
    ) -> Result<(String, Option<String>)> {
        let deadline = self.limits.deadline();
        let page = self.load(p, offset, &deadline)?;
        let full = full_text(&page);
        let main = if pagelevel {
            Some(analyze_within(page, &self.model, &self.opts, &deadline)?.main_text())
        } else {
            None
        };
        deadline.check("output")?;
        Ok((full, main))
    }

    /// The text of every page in `mode`, in input order; `progress` is told of each page done.
    ///
    /// # Errors
    /// [`Error::Invalid`] for SiteLevel texts of pages without sites.
    pub fn all(
        &self,
        inputs: &Inputs,
        mode: Mode,
        progress: &(dyn Fn(u64) + Sync),
    ) -> Result<ModeTexts> {
        let (texts, notes) = self.map(inputs, mode, progress, &|t| t)?;
        Ok(ModeTexts { texts, notes })
    }

    /// The sketch of every page's text in `mode` (and its word count), in input order: each
    /// text is dropped as soon as it is sketched, so memory holds the sketches, never all the
    /// texts (a streaming pass over a WARC file's records); `progress` is told of each page.
    ///
    /// # Errors
    /// [`Error::Invalid`] for SiteLevel texts of pages without sites.
    ///
    /// # Complexity
    /// One read and parse per page (two for SiteLevel) plus O(words) for its sketch; memory
    /// O(N·k) for N pages and k = [`super::SKETCH_SIZE`], plus the pages in flight.
    pub fn sketches(
        &self,
        inputs: &Inputs,
        mode: Mode,
        progress: &(dyn Fn(u64) + Sync),
    ) -> Result<ModeSketches> {
        let (sketches, notes) = self.map(inputs, mode, progress, &|t| PageSketch {
            words: crate::text::count_words(&t),
            sketch: super::sketch(&t),
        })?;
        Ok(ModeSketches { sketches, notes })
    }

    /// `f` of the text of every page in `mode`, in input order (each text is handed to `f` on
    /// the thread that made it and dropped there), and the notes on sites SiteLevel could not
    /// label.
    fn map<T: Send>(
        &self,
        inputs: &Inputs,
        mode: Mode,
        progress: &(dyn Fn(u64) + Sync),
        f: &(dyn Fn(String) -> T + Sync),
    ) -> Result<PerPage<T>> {
        if mode == Mode::Sitelevel {
            return self.sitelevel(inputs, progress, f);
        }
        let values = inputs
            .pages
            .par_iter()
            .zip(&inputs.offsets)
            .map(|(p, &offset)| {
                let r = self.page(p, offset, mode == Mode::Pagelevel);
                progress(1);
                match r {
                    Ok((full, main)) => Ok(f(main.unwrap_or(full))),
                    Err(e) => Err(chain(&e)),
                }
            })
            .collect();
        Ok((values, Vec::new()))
    }

    /// `f` of the SiteLevel text of every page (input order). A page of a site SiteLevel refuses
    /// (fewer distinct pages than its minimum) gets its full text: with no other pages there
    /// is no site template to remove; a note says so.
    fn sitelevel<T: Send>(
        &self,
        inputs: &Inputs,
        progress: &(dyn Fn(u64) + Sync),
        f: &(dyn Fn(String) -> T + Sync),
    ) -> Result<PerPage<T>> {
        let Some(sites) = &inputs.sites else {
            return Err(Error::Invalid(
                "--mode sitelevel needs the pages' sites: give --manifest M, --site-dir DIR or \
                 WARC files (pages given as files without --url have no site)"
                    .into(),
            ));
        };
        let options = RunOptions::default();
        type PerSite<T> = (Vec<(usize, std::result::Result<T, String>)>, Option<String>);
        let per_site: Vec<PerSite<T>> = sites
            .par_iter()
            .map(|(name, idx)| {
                let group = SiteGroup {
                    name: name.clone(),
                    pages: idx.iter().map(|&i| inputs.pages[i].clone()).collect(),
                };
                let mut out: Vec<(usize, std::result::Result<T, String>)> =
                    Vec::with_capacity(idx.len());
                let mut skipped = Vec::new();
                let mut k = 0;
                site::run_site_with(
                    &group,
                    &options,
                    |k, p| self.load(p, inputs.offsets[idx[k]], &self.limits.deadline()),
                    |_, page, labels| f(site::extract_text(&page.dom, labels)),
                    |_, outcome| {
                        let i = idx[k];
                        k += 1;
                        progress(1);
                        match outcome {
                            Outcome::Labelled(t) => out.push((i, Ok(t))),
                            Outcome::Failed(m) => out.push((i, Err(m))),
                            Outcome::Skipped(_) => skipped.push(i),
                        }
                    },
                );
                let mut note = None;
                if !skipped.is_empty() {
                    let all = skipped.len() == idx.len();
                    note = Some(format!(
                        "site {name}: {} of {} page(s) not labelled by SiteLevel{}; using their full text",
                        skipped.len(),
                        idx.len(),
                        if all { " (too few pages)" } else { "" }
                    ));
                    for i in skipped {
                        let t = self
                            .page(&inputs.pages[i], inputs.offsets[i], false)
                            .map(|(full, _)| f(full))
                            .map_err(|e| chain(&e));
                        out.push((i, t));
                    }
                }
                (out, note)
            })
            .collect();
        let mut values: Vec<Option<std::result::Result<T, String>>> =
            (0..inputs.pages.len()).map(|_| None).collect();
        let mut notes = Vec::new();
        for (out, note) in per_site {
            notes.extend(note);
            for (i, t) in out {
                values[i] = Some(t);
            }
        }
        let values = values
            .into_iter()
            .map(|t| t.unwrap_or_else(|| Err("page not reached by its site's run".into())))
            .collect();
        Ok((values, notes))
    }
}

/// All visible text of a page, in document order.
pub fn full_text(page: &Page) -> String {
    let dom = &page.dom;
    render_text(dom, &visibility(dom), &vec![true; dom.len()])
}
