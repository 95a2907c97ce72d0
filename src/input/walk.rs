//! The inputs of a run from what the user named: page and WARC files as given, folders walked
//! (recursively, in sorted order) for their pages, and input lists (one path a line, optionally
//! `PATH<TAB>URL`). Each input keeps its name relative to the argument it came from, which is
//! what an output folder mirrors.

use std::path::{Path, PathBuf};

use crate::{Error, Result};

/// One input of a run: a page, a WARC file or standard input (`-`), or a problem found while
/// listing (a folder without pages, a bad line of a list), reported as that input's failure.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Input {
    /// The file to open (`-` for standard input).
    pub path: PathBuf,
    /// The page's URL, from an input list's `PATH<TAB>URL` line.
    pub url: Option<String>,
    /// The path relative to the folder it was found in, or the file's name when it was named
    /// itself (`stdin` for `-`): the name of its output in an output folder.
    pub name: PathBuf,
    /// The file's size in bytes when it was listed (`None` for a stream or a problem).
    pub size: Option<u64>,
    /// Why this input cannot be read, found while listing.
    pub problem: Option<String>,
}

impl Input {
    /// A file named by itself (or `-`), without a URL.
    pub fn file(path: &Path) -> Input {
        // `-` is standard input (`jobs` imports this file, so its `is_stdin` is not used here).
        let name = if path.as_os_str() == "-" {
            PathBuf::from("stdin")
        } else {
            path.file_name()
                .map_or_else(|| path.to_path_buf(), PathBuf::from)
        };
        Input {
            path: path.to_path_buf(),
            url: None,
            name,
            size: std::fs::metadata(path).ok().map(|m| m.len()),
            problem: None,
        }
    }

    /// A problem at `path`, reported as its input's failure.
    fn problem(path: &Path, problem: String) -> Input {
        Input {
            path: path.to_path_buf(),
            url: None,
            name: PathBuf::new(),
            size: None,
            problem: Some(problem),
        }
    }

    /// The error of an input with a problem.
    pub fn error(&self) -> Option<Error> {
        self.problem.clone().map(Error::Invalid)
    }
}

/// The file names a folder walk takes, with `.gz` after each (any case).
pub const PAGE_EXTENSIONS: [&str; 4] = ["html", "htm", "xhtml", "warc"];

/// Whether a walk takes the file `name`: `.html`, `.htm`, `.xhtml`, `.warc`, or one of them
/// with `.gz` after (any case).
pub fn is_page_name(name: &Path) -> bool {
    let name = name.to_string_lossy().to_ascii_lowercase();
    let name = name.strip_suffix(".gz").unwrap_or(&name);
    PAGE_EXTENSIONS.iter().any(|e| {
        name.len() > e.len() + 1 && name.ends_with(e) && name[..name.len() - e.len()].ends_with('.')
    })
}

/// The inputs that `args` name, in order: a file (or `-`) as itself, whatever its name, and a
/// folder as the pages under it ([`walk`]). A path that does not exist stays an input and fails
/// when it is opened.
pub fn expand(args: &[PathBuf]) -> Vec<Input> {
    let mut out = Vec::new();
    for a in args {
        expand_one(a, None, &mut out);
    }
    out
}

fn expand_one(path: &Path, url: Option<&str>, out: &mut Vec<Input>) {
    if path.is_dir() {
        let from = out.len();
        walk(path, out);
        if let Some(url) = url {
            for i in &mut out[from..] {
                i.url = Some(url.to_string());
            }
        }
    } else {
        let mut i = Input::file(path);
        i.url = url.map(str::to_string);
        out.push(i);
    }
}

/// Appends the pages under the folder `root` ([`is_page_name`]), each named by its path
/// relative to `root`, in sorted order (entries of a folder by name, byte order, a subfolder's
/// pages where its name sorts: `find | sort`); a folder that cannot be read is a problem input
/// of its own, and so is `root` when it holds no page. Symbolic links to files are followed;
/// to folders, not (no cycles).
///
/// # Complexity
/// O(n log n) for n entries under `root`; one `stat` per entry.
pub fn walk(root: &Path, out: &mut Vec<Input>) {
    let from = out.len();
    walk_dir(root, root, out);
    if out.len() == from {
        let kinds = PAGE_EXTENSIONS.map(|e| format!(".{e}")).join(", ");
        out.push(Input::problem(
            root,
            format!("no pages in the folder ({kinds} and the same with .gz)"),
        ));
    }
}

fn walk_dir(root: &Path, dir: &Path, out: &mut Vec<Input>) {
    let entries = std::fs::read_dir(dir).and_then(|rd| rd.collect::<std::io::Result<Vec<_>>>());
    let mut entries = match entries {
        Ok(v) => v,
        Err(e) => {
            out.push(Input::problem(dir, format!("cannot read folder: {e}")));
            return;
        }
    };
    entries.sort_by_key(|e| e.file_name());
    for e in entries {
        let path = e.path();
        let Ok(kind) = e.file_type() else { continue };
        if kind.is_dir() {
            walk_dir(root, &path, out);
            continue;
        }
        if !is_page_name(Path::new(&e.file_name())) {
            continue;
        }
        // A link is followed to a file only.
        let meta = if kind.is_symlink() {
            std::fs::metadata(&path).ok().filter(|m| m.is_file())
        } else {
            e.metadata().ok()
        };
        let Some(meta) = meta else { continue };
        let name = path.strip_prefix(root).unwrap_or(&path).to_path_buf();
        out.push(Input {
            path,
            url: None,
            name,
            size: Some(meta.len()),
            problem: None,
        });
    }
}

/// The inputs of the input list at `list`: one path a line, or `PATH<TAB>URL`; blank lines are
/// skipped, a line ending in `\r` is read without it, a folder is walked ([`expand`]). A bad
/// line (an empty path, an empty URL, more than one tab) is a problem input naming the list
/// and the line. Relative paths are relative to the current folder.
///
/// # Errors
/// [`Error::Io`] when the list cannot be read.
pub fn read_list(list: &Path) -> Result<Vec<Input>> {
    let text = std::fs::read(list).map_err(|source| Error::Io {
        path: list.to_path_buf(),
        source,
    })?;
    let text = String::from_utf8_lossy(&text);
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.strip_suffix('\r').unwrap_or(line);
        if line.trim().is_empty() {
            continue;
        }
        let mut fields = line.split('\t');
        let path = fields.next().unwrap_or("");
        let url = fields.next();
        let bad = if path.trim().is_empty() {
            Some("no path before the tab")
        } else if url.is_some_and(|u| u.trim().is_empty()) {
            Some("no URL after the tab")
        } else if fields.next().is_some() {
            Some("more than one tab")
        } else {
            None
        };
        if let Some(why) = bad {
            out.push(Input::problem(
                list,
                format!(
                    "line {}: expected PATH or PATH<TAB>URL ({why}): {line:?}",
                    n + 1
                ),
            ));
            continue;
        }
        expand_one(Path::new(path), url.map(str::trim), &mut out);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("pagelevel-walk-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    #[test]
    fn page_names() {
        for yes in [
            "a.html",
            "A.HTM",
            "x.xhtml.gz",
            "c.warc",
            "c.warc.gz",
            "b.Html.GZ",
        ] {
            assert!(is_page_name(Path::new(yes)), "{yes}");
        }
        for no in [
            "a.txt",
            "html",
            ".gz",
            "a.gz",
            "a.phtml",
            "warc",
            "a.html.bz2",
        ] {
            assert!(!is_page_name(Path::new(no)), "{no}");
        }
    }

    #[test]
    fn walks_in_sorted_path_order() {
        let d = scratch("sorted");
        for f in [
            "b.html",
            "a.htm",
            "z/c.html.gz",
            "m/x.warc",
            "m/skip.txt",
            "m/n/y.xhtml",
        ] {
            let p = d.join(f);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(p, "x").unwrap();
        }
        let names: Vec<String> = expand(std::slice::from_ref(&d))
            .iter()
            .map(|i| i.name.to_string_lossy().into_owned())
            .collect();
        assert_eq!(
            names,
            ["a.htm", "b.html", "m/n/y.xhtml", "m/x.warc", "z/c.html.gz"]
        );
        std::fs::remove_dir_all(&d).ok();
    }

    #[test]
    fn an_empty_folder_is_a_problem_and_a_missing_path_stays_a_file() {
        let d = scratch("empty");
        let v = expand(&[d.clone(), d.join("missing.html")]);
        assert_eq!(v.len(), 2);
        assert!(v[0].problem.as_deref().unwrap().starts_with("no pages"));
        assert_eq!(v[1].name, PathBuf::from("missing.html"));
        assert!(v[1].problem.is_none() && v[1].size.is_none());
        std::fs::remove_dir_all(&d).ok();
    }

    #[test]
    fn lists_take_urls_skip_blank_lines_and_report_bad_ones() {
        let d = scratch("list");
        let list = d.join("list.txt");
        std::fs::write(
            &list,
            "a.html\thttps://x.test/a\r\n\n  \nb.html\n\thttps://x.test/\nc.html\t\nd.html\tu\tv\n",
        )
        .unwrap();
        let v = read_list(&list).unwrap();
        assert_eq!(v.len(), 5);
        assert_eq!(v[0].path, PathBuf::from("a.html"));
        assert_eq!(v[0].url.as_deref(), Some("https://x.test/a"));
        assert_eq!(v[1].url, None);
        let problems: Vec<&str> = v[2..]
            .iter()
            .map(|i| i.problem.as_deref().unwrap())
            .collect();
        assert!(problems[0].starts_with("line 5: ") && problems[0].contains("no path"));
        assert!(problems[1].starts_with("line 6: ") && problems[1].contains("no URL"));
        assert!(problems[2].starts_with("line 7: ") && problems[2].contains("more than one tab"));
        assert!(matches!(read_list(&d.join("nope")), Err(Error::Io { .. })));
        std::fs::remove_dir_all(&d).ok();
    }
}
