//! `pagelevel dedup --clusters` and `--keep-first`: near-duplicates joined into clusters
//! through their pairs (a chain A~B~C is one cluster even when A and C are not duplicates),
//! and the pages to keep; hand-worked pages, WARC records, and the `chaos` set.

use crate::common;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use pagelevel::dedup::{matches, sketch, MIN_MATCHES};

fn bin(args: &[&str], files: &[&Path]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_pagelevel"))
        .args(args)
        .args(files)
        .output()
        .expect("run pagelevel")
}

fn lines(o: &Output) -> Vec<serde_json::Value> {
    String::from_utf8_lossy(&o.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("JSON line"))
        .collect()
}

/// A fresh folder for this test's files.
fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("dedup-clusters-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// `n` words of a seeded stream over a 5,000-word vocabulary, joined by spaces.
fn words(seed: u64, n: usize) -> String {
    let mut s = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    (0..n)
        .map(|_| {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            format!("v{}", s % 5000)
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// Three texts A, B, C with A~B and B~C but A and C sharing no hash, and D unrelated: A and C
/// are two unrelated 100-word texts and B is both one after the other, so B's 8 smallest hashes
/// are A's smallest and C's smallest. Seeds are tried until B's sketch is half A's and half C's.
fn chain() -> [String; 4] {
    for seed in 0..1000u64 {
        let (a, c) = (words(2 * seed, 100), words(2 * seed + 1, 100));
        let b = format!("{a} {c}");
        let (sa, sb, sc) = (sketch(&a), sketch(&b), sketch(&c));
        if matches(&sa, &sb) >= MIN_MATCHES
            && matches(&sb, &sc) >= MIN_MATCHES
            && matches(&sa, &sc) == 0
        {
            return [a, b, c, words(10_000 + seed, 150)];
        }
    }
    panic!("no seed gives a chain");
}

/// `text` as a page; B's two halves go into two paragraphs.
fn page(text: &str) -> String {
    let paras: String = text
        .split(" v")
        .collect::<Vec<_>>()
        .chunks(100)
        .map(|c| format!("<p>{}</p>", c.join(" v")))
        .collect();
    format!("<html><body>{paras}</body></html>")
}

/// Writes A, B, C, D as `a.html` … `d.html`.
fn write_chain(dir: &Path) -> Vec<PathBuf> {
    chain()
        .iter()
        .zip(["a", "b", "c", "d"])
        .map(|(t, n)| {
            let p = dir.join(format!("{n}.html"));
            std::fs::write(&p, page(t)).unwrap();
            p
        })
        .collect()
}

fn name(v: &serde_json::Value) -> String {
    Path::new(v["path"].as_str().unwrap())
        .file_name()
        .unwrap()
        .to_string_lossy()
        .into_owned()
}

#[test]
fn a_chain_of_pairs_is_one_cluster_and_keep_first_keeps_its_first_page() {
    let dir = scratch("chain");
    let files = write_chain(&dir);
    let refs: Vec<&Path> = files.iter().map(PathBuf::as_path).collect();
    // The pairs: A~B and B~C, not A~C.
    let o = bin(&["dedup", "--mode", "full"], &refs);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let pairs: Vec<(String, String)> = lines(&o)
        .iter()
        .map(|v| {
            let n = |k: &str| {
                v[k].as_str()
                    .unwrap()
                    .rsplit('/')
                    .next()
                    .unwrap()
                    .to_owned()
            };
            (n("a"), n("b"))
        })
        .collect();
    assert_eq!(
        pairs,
        [
            ("a.html".to_owned(), "b.html".to_owned()),
            ("b.html".to_owned(), "c.html".to_owned())
        ]
    );

    let o = bin(&["dedup", "--mode", "full", "--clusters"], &refs);
    assert!(o.status.success());
    let c = lines(&o);
    assert_eq!(c.len(), 1, "{c:?}");
    assert_eq!(c[0]["cluster"], 1);
    assert_eq!(c[0]["size"], 3);
    let members: Vec<String> = c[0]["members"]
        .as_array()
        .unwrap()
        .iter()
        .map(name)
        .collect();
    assert_eq!(members, ["a.html", "b.html", "c.html"]);

    let o = bin(&["dedup", "--mode", "full", "--keep-first"], &refs);
    assert!(o.status.success());
    let keep = lines(&o);
    let kept: Vec<(String, u64)> = keep
        .iter()
        .map(|v| (name(v), v["duplicates"].as_u64().unwrap()))
        .collect();
    assert_eq!(kept, [("a.html".to_owned(), 2), ("d.html".to_owned(), 0)]);

    // Another input order: the cluster lists its pages in that order and keeps its first.
    let order: Vec<&Path> = [3, 2, 0, 1].iter().map(|&i| refs[i]).collect();
    let o = bin(&["dedup", "--mode", "full", "--clusters"], &order);
    let members: Vec<String> = lines(&o)[0]["members"]
        .as_array()
        .unwrap()
        .iter()
        .map(name)
        .collect();
    assert_eq!(members, ["c.html", "a.html", "b.html"]);
    let o = bin(&["dedup", "--mode", "full", "--keep-first"], &order);
    let kept: Vec<String> = lines(&o).iter().map(name).collect();
    assert_eq!(kept, ["d.html", "c.html"]);

    // The PageLevel text (the default mode) keeps these paragraphs: the same answer.
    let o = bin(&["-j", "1", "dedup", "--keep-first"], &refs);
    let kept: Vec<String> = lines(&o).iter().map(name).collect();
    assert_eq!(kept, ["a.html", "d.html"]);
    let two = bin(&["-j", "2", "dedup", "--keep-first"], &refs);
    assert_eq!(o.stdout, two.stdout);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn failed_pages_are_reported_on_stderr_and_never_kept() {
    let dir = scratch("failed");
    let mut files = write_chain(&dir);
    files.insert(1, dir.join("missing.html"));
    let broken = dir.join("broken.html.gz");
    std::fs::write(&broken, b"\x1f\x8b not gzip").unwrap();
    files.push(broken);
    let refs: Vec<&Path> = files.iter().map(PathBuf::as_path).collect();
    for flag in ["--keep-first", "--clusters"] {
        let o = bin(&["dedup", "--mode", "full", flag], &refs);
        assert_eq!(o.status.code(), Some(1), "{flag}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(
            err.contains("missing.html") && err.contains("broken.html.gz"),
            "{err}"
        );
        assert!(err.contains("2 input(s) failed"), "{err}");
        let out = lines(&o);
        assert!(
            out.iter().all(|v| v.get("error").is_none()),
            "{flag}: {out:?}"
        );
        if flag == "--keep-first" {
            let kept: Vec<String> = out.iter().map(name).collect();
            assert_eq!(kept, ["a.html", "d.html"]);
        } else {
            assert_eq!(out.len(), 1);
            assert_eq!(out[0]["size"], 3);
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn keep_first_over_a_warc_names_the_records() {
    let dir = scratch("warc");
    let [a, b, c, d] = chain();
    let records: Vec<Vec<u8>> = [&a, &b, &c, &d]
        .iter()
        .enumerate()
        .map(|(k, t)| {
            crate::warc::html_record(
                &format!("00000000-0000-0000-0000-00000000000{k}"),
                &format!("https://example.org/{k}"),
                page(t).as_bytes(),
            )
        })
        .collect();
    let warc = dir.join("crawl.warc.gz");
    crate::warc::write_gzip_warc(&warc, &records);
    let o = bin(&["dedup", "--mode", "full", "--keep-first"], &[&warc]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let kept = lines(&o);
    let urls: Vec<&str> = kept.iter().map(|v| v["url"].as_str().unwrap()).collect();
    assert_eq!(urls, ["https://example.org/0", "https://example.org/3"]);
    assert_eq!(
        kept[0]["warc_record_id"],
        "<urn:uuid:00000000-0000-0000-0000-000000000000>"
    );
    let o = bin(&["dedup", "--mode", "full", "--clusters"], &[&warc]);
    let c = lines(&o);
    let urls: Vec<&str> = c[0]["members"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["url"].as_str().unwrap())
        .collect();
    assert_eq!(
        urls,
        [
            "https://example.org/0",
            "https://example.org/1",
            "https://example.org/2"
        ]
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// The clusters of the pairs' graph, worked out in the test from the pair lines (by path).
fn components(pairs: &[serde_json::Value]) -> Vec<BTreeSet<String>> {
    let mut sets: Vec<BTreeSet<String>> = Vec::new();
    for p in pairs {
        let (a, b) = (p["a"].as_str().unwrap(), p["b"].as_str().unwrap());
        let mut joined: BTreeSet<String> = [a.to_owned(), b.to_owned()].into();
        sets.retain(|s| {
            if s.contains(a) || s.contains(b) {
                joined.extend(s.iter().cloned());
                false
            } else {
                true
            }
        });
        sets.push(joined);
    }
    sets.sort();
    sets
}

#[test]
fn chaos_clusters_agree_with_the_pairs_and_the_warc_with_the_files() {
    let _machine = common::heavy();
    let Some(data) = common::data_or_skip("chaos_clusters_agree_with_the_pairs") else {
        return;
    };
    let m = common::manifest(&data, "chaos");
    let files: Vec<PathBuf> = m.entries.iter().map(|e| m.html_path(e)).collect();
    let refs: Vec<&Path> = files.iter().map(PathBuf::as_path).collect();
    let pairs = lines(&bin(&["dedup"], &refs));
    let o = bin(&["dedup", "--clusters"], &refs);
    assert!(o.status.success());
    let clusters = lines(&o);
    let mut got: Vec<BTreeSet<String>> = clusters
        .iter()
        .map(|c| {
            c["members"]
                .as_array()
                .unwrap()
                .iter()
                .map(|m| m["path"].as_str().unwrap().to_owned())
                .collect()
        })
        .collect();
    got.sort();
    assert_eq!(got, components(&pairs));
    // The same story on two sites of the query "space" (docs/dedup.md).
    assert!(
        got.iter()
            .any(|c| c.iter().any(|p| p.ends_with("space-2.html.gz"))
                && c.iter().any(|p| p.ends_with("space-8.html.gz"))),
        "{got:?}"
    );
    let keep = lines(&bin(&["dedup", "--keep-first"], &refs));
    let in_clusters: usize = got.iter().map(BTreeSet::len).sum();
    assert_eq!(keep.len(), files.len() - in_clusters + got.len());
    eprintln!(
        "chaos: {} pages, {} pairs, {} clusters holding {} pages, {} kept",
        files.len(),
        pairs.len(),
        got.len(),
        in_clusters,
        keep.len()
    );

    // The same pages as WARC records: the same pages kept, named by record.
    let records: Vec<Vec<u8>> = m
        .entries
        .iter()
        .enumerate()
        .map(|(k, e)| {
            // A neutral URI: a real one would feed the charset guess and the link features, which
            // the files, read without a URL, do not get.
            crate::warc::html_record(
                &format!("00000000-0000-0000-0000-{k:012}"),
                &format!("https://x.example/{k}"),
                &common::gunzip(&m.html_path(e)),
            )
        })
        .collect();
    let dir = scratch("chaos");
    let warc = dir.join("chaos.warc.gz");
    crate::warc::write_gzip_warc(&warc, &records);
    let o = bin(&["dedup", "--mode", "full", "--keep-first"], &[&warc]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let keep = lines(&bin(&["dedup", "--mode", "full", "--keep-first"], &refs));
    let from_warc: Vec<String> = lines(&o)
        .iter()
        .map(|v| v["warc_record_id"].as_str().unwrap().to_owned())
        .collect();
    let from_files: Vec<String> = keep
        .iter()
        .map(|v| {
            let p = v["path"].as_str().unwrap();
            let k = files.iter().position(|f| f.to_string_lossy() == p).unwrap();
            format!("<urn:uuid:00000000-0000-0000-0000-{k:012}>")
        })
        .collect();
    assert_eq!(from_warc, from_files);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn sites_full_text_clusters_are_the_components_of_the_pairs() {
    // Full text on the `sites` set: same-site pages whose template outweighs the article pair
    // up, and chain into clusters of up to ten pages.
    let _machine = common::heavy();
    let Some(data) = common::data_or_skip("sites_full_text_clusters") else {
        return;
    };
    let m = data.join("sites/manifest.jsonl");
    let run = |flag: &[&str]| {
        let mut args = vec!["dedup", "--mode", "full"];
        args.extend(flag);
        args.push("--manifest");
        let o = bin(&args, &[&m]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        lines(&o)
    };
    let pairs = run(&[]);
    let clusters = run(&["--clusters"]);
    let mut got: Vec<BTreeSet<String>> = clusters
        .iter()
        .map(|c| {
            let members = c["members"].as_array().unwrap();
            assert_eq!(c["size"].as_u64().unwrap() as usize, members.len());
            members
                .iter()
                .map(|m| m["path"].as_str().unwrap().to_owned())
                .collect()
        })
        .collect();
    got.sort();
    assert_eq!(got, components(&pairs));
    let biggest = got.iter().map(BTreeSet::len).max().unwrap_or(0);
    let keep = run(&["--keep-first"]);
    let in_clusters: usize = got.iter().map(BTreeSet::len).sum();
    assert_eq!(keep.len(), 360 - in_clusters + got.len());
    eprintln!(
        "sites, full text: {} pairs, {} clusters (largest {biggest}) holding {in_clusters} pages, {} kept",
        pairs.len(),
        got.len(),
        keep.len()
    );
    assert!(biggest >= 3, "no chain of pairs: {got:?}");
}
