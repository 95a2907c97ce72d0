//! Pages sharing a header and footer: exactly the shared nodes are template.

use sitelevel::{
    explain_page, hash_page, HashOptions, LabelOptions, NodeView, PageTree, SimpleTree,
    SiteCounter, Why,
};

use crate::common::assert_labels;

const FRUITS: [&str; 5] = ["Apples", "Pears", "Plums", "Figs", "Kiwis"];

fn page(k: usize, sep: &str) -> String {
    let title = FRUITS[k];
    let body = [
        "Red and crisp, picked in autumn.",
        "Soft and sweet.",
        "Dark purple stone fruit.",
        "Dried or fresh, both fine.",
        "Fuzzy brown skin, green inside.",
    ][k];
    format!(
        "<html>{sep}<head><title>{title}</title></head>{sep}<body>{sep}\
         <div id=\"header\"><h1>Acme Corp</h1>{sep}<ul><li>Home</li>{sep}<li>Products</li></ul></div>{sep}\
         <div id=\"content\"><h2>{title}</h2>{sep}<p>{body}</p></div>{sep}\
         <div id=\"footer\"><p>Copyright Acme<br></p></div>{sep}</body>{sep}</html>"
    )
}

fn site(sep: &str) -> (Vec<SimpleTree>, Vec<Vec<u64>>, sitelevel::TemplateSet) {
    let trees: Vec<SimpleTree> = (0..5)
        .map(|k| SimpleTree::from_markup(&page(k, sep)))
        .collect();
    let opts = HashOptions::default();
    let hashes: Vec<Vec<u64>> = trees.iter().map(|t| hash_page(t, &opts)).collect();
    let mut c = SiteCounter::new("acme");
    for h in &hashes {
        c.add_page(h);
    }
    let set = c.finish(0.1, 5).unwrap();
    assert_eq!(set.threshold(), 2);
    (trees, hashes, set)
}

#[test]
fn shared_header_and_footer_are_exactly_the_template() {
    let (trees, hashes, set) = site("");
    for (t, h) in trees.iter().zip(&hashes) {
        let title = match t.node(4) {
            NodeView::Text(s) => format!("{s:?}"),
            _ => panic!("node 4 should be the title text"),
        };
        let expected = [
            ("#other", false),
            ("html", false),
            ("head", false),
            ("title", false),
            (title.as_str(), false),
            ("body", false),
            ("div", true), // header
            ("h1", true),
            ("\"Acme Corp\"", true),
            ("ul", true),
            ("li", true),
            ("\"Home\"", true),
            ("li", true),
            ("\"Products\"", true),
            ("div", false), // content
            ("h2", false),
            (title.as_str(), false),
            ("p", false),
            ("", false),   // body text, description checked below
            ("div", true), // footer
            ("p", true),
            ("\"Copyright Acme\"", true),
            ("br", true),
        ];
        let why = explain_page(t, h, &set, &LabelOptions::default());
        let got: Vec<bool> = why.iter().map(|w| w.is_template()).collect();
        let mut exp = expected.to_vec();
        let d18 = crate::common::describe(t, 18);
        exp[18].0 = &d18;
        assert_labels(t, &got, &exp);
        // Why: the header and footer by hash, nothing by share.
        assert_eq!(why[6], Why::Hash);
        assert_eq!(why[19], Why::Hash);
        assert!(!why.contains(&Why::Share));
        // The <br> itself is text-free: never counted, so it inherits from the footer's <p>.
        assert_eq!(why[22], Why::Inherited);
    }
}

#[test]
fn whitespace_nodes_inherit_their_parent_label() {
    let (plain, plain_hashes, plain_set) = site("");
    let (spaced, spaced_hashes, spaced_set) = site("\n  ");
    // Whitespace-only text does not change any hash of the canonical form.
    assert_eq!(plain_set.to_sorted_vec(), spaced_set.to_sorted_vec());
    for k in 0..5 {
        let p = explain_page(
            &plain[k],
            &plain_hashes[k],
            &plain_set,
            &LabelOptions::default(),
        );
        let s = explain_page(
            &spaced[k],
            &spaced_hashes[k],
            &spaced_set,
            &LabelOptions::default(),
        );
        let t = &spaced[k];
        let mut j = 0;
        for i in 0..t.len() {
            match t.node(i) {
                NodeView::Text(x) if x.trim().is_empty() => {
                    let parent = t.parent(i).unwrap();
                    assert_eq!(
                        s[i].is_template(),
                        s[parent].is_template(),
                        "page {k} node {i}"
                    );
                }
                _ => {
                    assert_eq!(s[i], p[j], "page {k}: node {i} vs unspaced node {j}");
                    j += 1;
                }
            }
        }
        assert_eq!(j, plain[k].len());
        // At least one whitespace node sits in the (template) header and one in the body.
        assert!(s.contains(&Why::Inherited));
    }
}
