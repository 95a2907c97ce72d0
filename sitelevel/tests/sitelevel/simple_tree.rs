//! SimpleTree: preorder numbering, links, bytes.

use sitelevel::{NodeView, PageTree, SimpleTree};

/// Checks the PageTree contract on `t`: parent < child, contiguous subtrees, links agree.
fn check_contract(t: &SimpleTree) {
    assert_eq!(t.parent(0), None);
    for i in 0..t.len() {
        let end = t.subtree_end(i);
        assert!(end > i && end <= t.len());
        let mut c = t.first_child(i);
        let mut expect = i + 1;
        while let Some(k) = c {
            assert_eq!(k, expect, "children of {i} tile its subtree");
            assert_eq!(t.parent(k), Some(i));
            expect = t.subtree_end(k);
            c = t.next_sibling(k);
        }
        assert_eq!(expect, end);
    }
}

#[test]
fn markup_parses_in_preorder() {
    let m = "<!doctype html><html><body class=\"x\"><p>a<br>b</p><img src=a.png/><!-- c --></body></html>";
    let t = SimpleTree::from_markup(m);
    check_contract(&t);
    let kinds: Vec<NodeView> = (0..t.len()).map(|i| t.node(i)).collect();
    assert_eq!(
        kinds,
        [
            NodeView::Other,
            NodeView::Other,
            NodeView::Element("html"),
            NodeView::Element("body"),
            NodeView::Element("p"),
            NodeView::Text("a"),
            NodeView::Element("br"),
            NodeView::Text("b"),
            NodeView::Element("img"),
            NodeView::Other,
        ]
    );
    assert_eq!(t.attr(3, "class"), Some("x"));
    assert_eq!(t.attr(8, "src"), Some("a.png"));
    assert_eq!(t.attr(8, "alt"), None);
    // Own bytes add up to the markup's length.
    let total: u64 = (0..t.len()).map(|i| t.own_bytes(i)).sum();
    assert_eq!(total, m.len() as u64);
    assert_eq!(t.own_bytes(4), 7); // <p></p>
}

#[test]
fn builder_links_and_default_bytes() {
    let mut b = SimpleTree::builder();
    b.open("UL").attr("id", "n");
    b.open("li").text("a").close();
    b.open("li").text("b").close();
    b.close();
    b.text("tail");
    let t = b.finish();
    check_contract(&t);
    assert_eq!(t.node(1), NodeView::Element("ul"));
    assert_eq!(t.own_bytes(1), 9 + 7); // <ul></ul> + ` id="n"`
    assert_eq!(t.next_sibling(2), Some(4));
    assert_eq!(t.next_sibling(1), Some(6));
    assert_eq!(t.subtree_end(1), 6);
}

#[test]
fn unclosed_and_stray_tags() {
    let t = SimpleTree::from_markup("<div><p>x</span></div><b>y");
    check_contract(&t);
    // </div> closes the open <p> too; the stray </span> is ignored; <b> stays open to the end.
    assert_eq!(t.parent(4), Some(0));
    assert_eq!(t.node(4), NodeView::Element("b"));
}
