//! Manifests in the `../shared/data` format: one JSON object per line naming a page, its site
//! and optionally its gold main text. Paths inside are relative to a data root, which is by
//! default the manifest's own folder if the paths resolve there, else its parent.

use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::{Error, Result};

/// The manifest of each set of a data folder in the shared layout, `<data>/<set>/manifest.jsonl`.
pub fn set_manifests(data: &Path, sets: &[String]) -> Vec<PathBuf> {
    sets.iter()
        .map(|s| data.join(s).join("manifest.jsonl"))
        .collect()
}

/// One line of a manifest.
#[derive(Debug, Clone, Deserialize)]
pub struct Entry {
    /// Page id, unique within the set.
    pub id: String,
    /// Set name (`wcxb-dev`, `sites`, …).
    #[serde(default)]
    pub set: Option<String>,
    /// The page's URL, when known.
    #[serde(default)]
    pub url: Option<String>,
    /// Site key: registrable domain or an explicit key.
    #[serde(default)]
    pub site: Option<String>,
    /// The HTML path exactly as written in the manifest.
    pub html: String,
    /// Gold main-text path as written, if any.
    #[serde(default)]
    pub gold: Option<String>,
    /// Page type (article, forum, listing, …).
    #[serde(default, rename = "type")]
    pub page_type: Option<String>,
}

/// A manifest with its entries and the root its paths resolve against.
#[derive(Debug, Clone)]
pub struct Manifest {
    /// The folder that the `html` and `gold` paths are relative to.
    pub root: PathBuf,
    /// The entries in file order.
    pub entries: Vec<Entry>,
}

impl Manifest {
    /// Reads a manifest. With `root == None` the root is the manifest's folder if the first
    /// entry's `html` exists there, else the folder above it.
    pub fn load(path: &Path, root: Option<&Path>) -> Result<Manifest> {
        let text = std::fs::read_to_string(path).map_err(|source| Error::Io {
            path: path.to_path_buf(),
            source,
        })?;
        let mut entries = Vec::new();
        for (n, line) in text.lines().enumerate() {
            if line.trim().is_empty() {
                continue;
            }
            let e: Entry = serde_json::from_str(line).map_err(|e| Error::Manifest {
                path: path.to_path_buf(),
                line: n + 1,
                message: e.to_string(),
            })?;
            entries.push(e);
        }
        let root = match root {
            Some(r) => r.to_path_buf(),
            None => {
                let dir = path.parent().unwrap_or(Path::new(".")).to_path_buf();
                let here = entries.first().is_none_or(|e| dir.join(&e.html).exists());
                if here {
                    dir
                } else {
                    dir.parent().map_or(dir.clone(), Path::to_path_buf)
                }
            }
        };
        Ok(Manifest { root, entries })
    }

    /// Absolute path of an entry's HTML.
    pub fn html_path(&self, e: &Entry) -> PathBuf {
        self.root.join(&e.html)
    }

    /// Absolute path of an entry's gold text, if it has one.
    pub fn gold_path(&self, e: &Entry) -> Option<PathBuf> {
        e.gold.as_ref().map(|g| self.root.join(g))
    }
}

/// The shared data folder `../shared/data` next to the workspace, if present (for tests,
/// benches and examples).
pub fn shared_data() -> Option<PathBuf> {
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    let p = here.join("../shared/data");
    p.join("README.md").exists().then_some(p)
}
