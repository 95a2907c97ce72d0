//! The SiteLevel convenience type: duplicates, errors, kept hashes.

use sitelevel::{SimpleTree, SiteError, SiteLevel, SiteLevelOptions};

use crate::common::word;

fn page(k: usize) -> SimpleTree {
    SimpleTree::from_markup(&format!(
        "<body><nav>Home News</nav><main>{} {} {}</main></body>",
        word(k),
        word(k + 50),
        word(k + 99)
    ))
}

#[test]
fn duplicates_count_once_and_share_labels() {
    let pages: Vec<SimpleTree> = (0..5).map(page).collect();
    let mut site = SiteLevel::new(SiteLevelOptions::default()).site("dup");
    for p in &pages {
        site.add_page(p);
    }
    assert_eq!(site.add_page(&pages[0]), 5);
    assert_eq!(site.add_page(&pages[0]), 6);
    assert_eq!(site.pages(), 7);
    assert_eq!(site.distinct_pages(), 5);
    assert_eq!(site.duplicate_of(6), Some(0));
    assert_eq!(site.duplicate_of(1), None);
    site.finish().unwrap();
    // doc, body, nav, "Home News", main, text
    let expect = [false, false, true, true, false, false];
    assert_eq!(site.labels_of(0, &pages[0]).unwrap(), expect);
    assert_eq!(site.labels_of(6, &pages[0]).unwrap(), expect);

    // Without deduplication three copies of page 0 make all of it template.
    let opts = SiteLevelOptions {
        dedupe_identical_pages: false,
        ..Default::default()
    };
    let mut raw = SiteLevel::new(opts);
    for p in pages.iter().chain([&pages[0], &pages[0]]) {
        raw.add_page(p);
    }
    assert_eq!(raw.distinct_pages(), 7);
    raw.finish().unwrap();
    assert!(raw.labels(&pages[0]).unwrap().iter().all(|&l| l));
    assert_eq!(raw.labels(&pages[1]).unwrap(), expect);
}

#[test]
fn errors() {
    let pages: Vec<SimpleTree> = (0..5).map(page).collect();
    let mut site = SiteLevel::new(SiteLevelOptions::default()).site("tiny");
    assert_eq!(site.labels(&pages[0]), Err(SiteError::NotFinished));
    for p in &pages[..4] {
        site.add_page(p);
    }
    site.add_page(&pages[0]); // a duplicate is not a fifth page
    let err = site.finish().unwrap_err();
    assert_eq!(
        err,
        SiteError::TooFewPages {
            site: "tiny".into(),
            pages: 4,
            min: 5
        }
    );
    site.add_page(&pages[4]);
    site.finish().unwrap();
    assert_eq!(
        site.labels_of(9, &pages[0]),
        Err(SiteError::UnknownPage { page: 9, pages: 6 })
    );
    let other = SimpleTree::from_markup("<p>x</p>");
    assert_eq!(
        site.labels_of(0, &other),
        Err(SiteError::PageMismatch {
            page: 0,
            expected: 6,
            got: 3
        })
    );
    // Adding a page invalidates the template set.
    site.add_page(&other);
    assert_eq!(site.labels(&pages[0]), Err(SiteError::NotFinished));
    let bad = SiteLevelOptions::with_theta(0.0);
    let mut s = SiteLevel::new(bad);
    pages.iter().for_each(|p| {
        s.add_page(p);
    });
    assert!(matches!(s.finish(), Err(SiteError::InvalidTheta { .. })));
}

#[test]
fn kept_hashes_give_the_same_labels() {
    let pages: Vec<SimpleTree> = (0..6).map(page).collect();
    let mut plain = SiteLevel::new(SiteLevelOptions::default());
    let mut kept = SiteLevel::new(SiteLevelOptions {
        keep_hashes: true,
        ..Default::default()
    });
    for p in &pages {
        plain.add_page(p);
        kept.add_page(p);
    }
    plain.finish().unwrap();
    kept.finish().unwrap();
    for (k, p) in pages.iter().enumerate() {
        assert_eq!(
            plain.labels_of(k, p).unwrap(),
            kept.labels_of(k, p).unwrap()
        );
        assert_eq!(plain.labels(p).unwrap(), kept.labels_of(k, p).unwrap());
    }
}
