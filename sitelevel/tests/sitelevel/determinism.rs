//! Labels do not depend on the rayon thread count.

use sitelevel::{hash_pages_par, SimpleTree, SiteCounter, SiteLevel, SiteLevelOptions};

use crate::common::word;

fn pages() -> Vec<SimpleTree> {
    (0..24)
        .map(|k| {
            let nav = if k % 3 == 0 { "<li>Sale</li>" } else { "" };
            SimpleTree::from_markup(&format!(
                "<html><body><ul><li>Home</li>{nav}<li>News</li></ul>\
                 <div><h1>{}</h1><p>{} {}</p><p>Posted 2024-0{}-1{}</p></div>\
                 <footer>About us</footer></body></html>",
                word(k),
                word(k * 7),
                word(k % 5),
                k % 9,
                k % 4
            ))
        })
        .collect()
}

fn run(threads: usize, pages: &[SimpleTree]) -> (Vec<u64>, Vec<Vec<bool>>) {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap();
    pool.install(|| {
        let opts = SiteLevelOptions::default();
        let hashes = hash_pages_par(pages, &opts.hash);
        let counter = SiteCounter::from_pages_par("par", &hashes);
        let set = counter.finish(opts.theta, opts.min_pages).unwrap();
        let mut site = SiteLevel::new(opts);
        for h in hashes {
            site.add_page_hashes(h);
        }
        assert_eq!(site.finish().unwrap(), &set);
        (set.to_sorted_vec(), site.labels_par(pages).unwrap())
    })
}

#[test]
fn one_and_two_threads_agree() {
    let pages = pages();
    let (set1, labels1) = run(1, &pages);
    let (set2, labels2) = run(2, &pages);
    assert!(!set1.is_empty());
    assert_eq!(set1, set2);
    assert_eq!(labels1, labels2);
    // And both agree with the plain sequential API.
    let mut site = SiteLevel::new(SiteLevelOptions::default());
    for p in &pages {
        site.add_page(p);
    }
    site.finish().unwrap();
    for (k, p) in pages.iter().enumerate() {
        assert_eq!(site.labels_of(k, p).unwrap(), labels1[k]);
    }
    // Some template, some content on every page.
    for l in &labels1 {
        assert!(l.iter().any(|&x| x) && l.iter().any(|&x| !x));
    }
}

#[test]
fn merge_order_does_not_matter() {
    let pages = pages();
    let hashes = hash_pages_par(&pages, &Default::default());
    let mut a = SiteCounter::new("a");
    let mut b = SiteCounter::new("b");
    let mut all = SiteCounter::new("all");
    for (k, h) in hashes.iter().enumerate() {
        if k % 2 == 0 {
            a.add_page(h)
        } else {
            b.add_page(h)
        }
        all.add_page(h);
    }
    let mut ab = a.clone();
    ab.merge(b.clone());
    let mut ba = b;
    ba.merge(a);
    let s = |c: &SiteCounter| c.finish(0.1, 5).unwrap().to_sorted_vec();
    assert_eq!(s(&ab), s(&all));
    assert_eq!(s(&ba), s(&all));
    assert_eq!(ab.pages(), 24);
}
