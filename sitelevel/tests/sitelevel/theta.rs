//! The θ boundary: max(2, ⌈θ·N⌉) pages, computed exactly.

use sitelevel::{hash_page, min_pages_for, HashOptions, SimpleTree, SiteCounter, SiteError};

use crate::common::word;

/// N pages: each has a unique paragraph; "Shared two" is on pages 0–1, "Shared three" on 0–2,
/// "Single" on page 0 only. Returns the counter and the hash of each special paragraph.
fn site(n: usize) -> (SiteCounter, [u64; 3]) {
    let opts = HashOptions::default();
    let mut c = SiteCounter::new(format!("site-{n}"));
    let mut special = [0; 3];
    for k in 0..n {
        let mut m = format!("<body><p>{}</p>", word(k));
        if k < 2 {
            m += "<p>Shared two</p>";
        }
        if k < 3 {
            m += "<p>Shared three</p>";
        }
        if k == 0 {
            m += "<p>Single</p>";
        }
        let t = SimpleTree::from_markup(&m);
        let h = hash_page(&t, &opts);
        if k == 0 {
            // nodes: doc, body, p, text, p(two), text, p(three), text, p(single), text
            special = [h[4], h[6], h[8]];
        }
        c.add_page(&h);
    }
    (c, special)
}

#[test]
fn twenty_pages_need_two() {
    let (c, [two, three, single]) = site(20);
    assert_eq!(c.count(two), 2);
    assert_eq!(c.count(single), 1);
    let set = c.finish(0.1, 5).unwrap();
    assert_eq!(set.threshold(), 2);
    assert!(set.contains(two));
    assert!(set.contains(three));
    assert!(!set.contains(single));
}

#[test]
fn thirty_pages_need_three() {
    let (c, [two, three, single]) = site(30);
    let set = c.finish(0.1, 5).unwrap();
    assert_eq!(set.threshold(), 3);
    assert!(!set.contains(two));
    assert!(set.contains(three));
    assert!(!set.contains(single));
}

#[test]
fn five_pages_still_need_two() {
    let (c, [two, _, single]) = site(5);
    let set = c.finish(0.1, 5).unwrap();
    assert_eq!(set.threshold(), 2);
    assert!(set.contains(two));
    assert!(!set.contains(single));
}

#[test]
fn below_min_pages_is_an_error() {
    let (c, _) = site(4);
    let err = c.finish(0.1, 5).unwrap_err();
    assert_eq!(
        err,
        SiteError::TooFewPages {
            site: "site-4".into(),
            pages: 4,
            min: 5
        }
    );
    assert_eq!(
        err.to_string(),
        "site \"site-4\" has 4 distinct pages; SiteLevel needs at least 5"
    );
}

#[test]
fn exact_integer_threshold() {
    assert_eq!(min_pages_for(20, 0.1).unwrap(), 2);
    assert_eq!(min_pages_for(30, 0.1).unwrap(), 3); // float ceil(0.1 * 30.0) is 4
    assert_eq!(min_pages_for(21, 0.1).unwrap(), 3);
    assert_eq!(min_pages_for(5, 0.1).unwrap(), 2);
    assert_eq!(min_pages_for(100, 0.07).unwrap(), 7); // 0.07 * 100.0 is 7.000000000000001
    assert_eq!(min_pages_for(10, 0.3).unwrap(), 3);
    assert_eq!(min_pages_for(7, 1.0).unwrap(), 7);
    assert_eq!(min_pages_for(1_000_000, 0.1).unwrap(), 100_000);
    for bad in [0.0, -0.1, 1.5, f64::NAN] {
        assert!(matches!(
            min_pages_for(10, bad),
            Err(SiteError::InvalidTheta { .. })
        ));
    }
}
