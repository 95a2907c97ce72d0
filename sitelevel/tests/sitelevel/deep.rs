//! A 1,000,000-deep chain hashes, counts and labels without recursion.

use sitelevel::{hash_page, label_page, PageTree, SimpleTree, SiteCounter};

const DEPTH: usize = 1_000_000;

fn chain(leaf: &str) -> SimpleTree {
    let mut b = SimpleTree::builder();
    for _ in 0..DEPTH {
        b.open("div");
    }
    b.text(leaf);
    for _ in 0..DEPTH {
        b.close();
    }
    b.finish()
}

#[test]
fn million_deep_chain() {
    let deep = chain("bottom");
    assert_eq!(deep.len(), DEPTH + 2);
    assert_eq!(deep.subtree_end(1), DEPTH + 2);
    let opts = sitelevel::HashOptions::default();
    let h = hash_page(&deep, &opts);
    assert_eq!(h.len(), DEPTH + 2);
    // Every level is a different subtree.
    let mut sorted = h.clone();
    sorted.sort_unstable();
    sorted.dedup();
    assert_eq!(sorted.len(), DEPTH + 2);

    // Two copies of the chain plus three small pages: every node of the chain is on 2 of 5 pages.
    let mut c = SiteCounter::new("deep");
    c.add_page(&h);
    c.add_page(&h);
    for k in 0..3 {
        let small = SimpleTree::from_markup(&format!("<p>{}</p>", crate::common::word(k)));
        c.add_page(&hash_page(&small, &opts));
    }
    let set = c.finish(0.1, 5).unwrap();
    let labels = label_page(&deep, &h, &set);
    assert!(labels.iter().all(|&l| l));

    // A different leaf: nothing is shared, so the chain is content (the 85% rule walks the
    // whole chain bottom-up too).
    let other = chain("top");
    let ho = hash_page(&other, &opts);
    let labels = label_page(&other, &ho, &set);
    assert!(labels.iter().all(|&l| !l));
}
