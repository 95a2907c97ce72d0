//! The inputs of a batch in order: HTML files, standard input (`-`) and the records of WARC
//! files, each opened once when its turn comes and told apart by its first bytes
//! ([`warc::Input::open`]), WARC files streamed record by record.

use std::path::{Path, PathBuf};

use crate::input::walk::Input;
use crate::input::warc;
use crate::{Error, Limits};

/// Where a page came from: an HTML file, or a record of a WARC file.
#[derive(Debug, Clone, Copy)]
pub enum Origin<'a> {
    /// An HTML file (`-` for standard input).
    File(&'a Path),
    /// A WARC record (`record_id` empty for a bad record whose header was not read).
    Record {
        /// The WARC file.
        path: &'a Path,
        /// `WARC-Record-ID`.
        record_id: &'a str,
        /// `WARC-Target-URI`.
        uri: Option<&'a str>,
    },
}

impl Origin<'_> {
    /// The file the page came from (the WARC file for a record).
    pub fn path(&self) -> &Path {
        match self {
            Origin::File(p) | Origin::Record { path: p, .. } => p,
        }
    }

    /// The JSON fields naming the page: `path`, and for records `warc_record_id` and `url`.
    pub fn fields(&self) -> serde_json::Map<String, serde_json::Value> {
        let mut m = serde_json::Map::new();
        m.insert("path".into(), self.path().to_string_lossy().into());
        if let Origin::Record { record_id, uri, .. } = self {
            m.insert("warc_record_id".into(), (*record_id).into());
            m.insert("url".into(), (*uri).into());
        }
        m
    }

    /// A one-line name for the page: the path, and for a record its URI (`-` without) and id.
    pub fn name(&self) -> String {
        match self {
            Origin::File(path) => path.display().to_string(),
            Origin::Record {
                path,
                record_id,
                uri,
            } => format!("{} {} {}", path.display(), uri.unwrap_or("-"), record_id),
        }
    }
}

/// One input of [`Jobs`]: a page opened and not read yet, a WARC record (a page, a bad record
/// or junk between records), or an input that cannot be opened.
pub enum Job<'a> {
    /// A page file or standard input, read by [`warc::PageSource::read`].
    Page(&'a Input, warc::PageSource),
    /// An item of the WARC file of the input.
    Record(&'a Input, warc::Item),
    /// The input could not be opened (or was a problem when listed).
    Failed(&'a Input, Error),
}

impl<'a> Job<'a> {
    /// The input the job came from (the WARC file for a record).
    pub fn input(&self) -> &'a Input {
        match self {
            Job::Page(i, _) | Job::Record(i, _) | Job::Failed(i, _) => i,
        }
    }
}

/// Whether `path` is `-`, standard input.
pub fn is_stdin(path: &Path) -> bool {
    path.as_os_str() == "-"
}

/// Checks that standard input (`-`) is among `paths` at most once (it can be read only once).
/// O(paths).
///
/// # Errors
/// [`Error::Invalid`] when `-` is given more than once.
pub fn check_stdin(paths: &[PathBuf]) -> Result<(), Error> {
    if paths.iter().filter(|p| is_stdin(p)).count() > 1 {
        return Err(Error::Invalid(
            "`-` (standard input) may be given once".into(),
        ));
    }
    Ok(())
}

/// The inputs in order, each opened once when its turn comes, with its size in bytes for a
/// batch's window (a file's from its metadata, a record's body, 0 for a failure; `None` for a
/// stream of unknown size). Opening is O(1) per input; a WARC file is read one record at a
/// time (memory one record).
pub struct Jobs<'a, F> {
    inputs: std::slice::Iter<'a, Input>,
    /// The WARC file being read.
    warc: Option<(&'a Input, Box<warc::WarcReader<warc::InputStream>>)>,
    limits: Limits,
    warc_done: F,
}

impl<'a, F: FnMut(&Path, u64)> Jobs<'a, F> {
    /// The inputs `inputs` (`-` is standard input; see [`crate::input::walk`]), read within
    /// `limits`; `warc_done(path, skipped)` is called when a WARC file has been read to its
    /// end, with the number of records it skipped (not HTML responses).
    pub fn new(inputs: &'a [Input], limits: Limits, warc_done: F) -> Self {
        Jobs {
            inputs: inputs.iter(),
            warc: None,
            limits,
            warc_done,
        }
    }
}

impl<'a, F: FnMut(&Path, u64)> Iterator for Jobs<'a, F> {
    type Item = (Job<'a>, Option<u64>);

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            if let Some((input, reader)) = &mut self.warc {
                let input: &'a Input = input;
                if let Some(item) = reader.next() {
                    let size = match &item {
                        warc::Item::Page(p) => p.body.len() as u64,
                        warc::Item::Bad(_) | warc::Item::Junk(_) => 0,
                    };
                    return Some((Job::Record(input, item), Some(size)));
                }
                (self.warc_done)(&input.path, reader.skipped());
                self.warc = None;
            }
            let input: &'a Input = self.inputs.next()?;
            if let Some(e) = input.error() {
                return Some((Job::Failed(input, e), Some(0)));
            }
            let path = &input.path;
            let opened = if is_stdin(path) {
                warc::Input::from_reader(std::io::stdin(), "-", &self.limits)
            } else {
                warc::Input::open(path, &self.limits)
            };
            match opened {
                Ok(warc::Input::Page(source)) => {
                    let size = source.size();
                    return Some((Job::Page(input, source), size));
                }
                Ok(warc::Input::Warc(reader)) => self.warc = Some((input, reader)),
                Err(e) => return Some((Job::Failed(input, e), Some(0))),
            }
        }
    }
}
