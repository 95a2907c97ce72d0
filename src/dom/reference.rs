//! The reference DOM: html5ever into markup5ever_rcdom, converted to the arena.
//!
//! rcdom is meant for tests (its README says so). The production path is [`super::parse`];
//! tests check that both give the same tree, node for node.

use html5ever::tendril::TendrilSink as _;
use markup5ever_rcdom::{Handle, NodeData, RcDom};

use super::tree::{attrs_source_bytes, keep_attr, parse_opts, Builder, Dom, Kind, NONE};
use super::Tag;

/// Parses with html5ever into rcdom, then converts (no source spans).
pub fn parse_rcdom(html: &str) -> Dom {
    let dom = html5ever::parse_document(RcDom::default(), parse_opts()).one(html);
    from_rcdom(&dom, html.len())
}

/// Parses into rcdom only (for timing the reference parse).
pub fn parse_rcdom_only(html: &str) -> RcDom {
    html5ever::parse_document(RcDom::default(), parse_opts()).one(html)
}

/// Converts an rcdom tree into the arena with an explicit stack (no recursion).
pub(crate) fn from_rcdom(dom: &RcDom, source_len: usize) -> Dom {
    let mut out = Builder::default();
    let mut stack: Vec<(Handle, u32)> = vec![(dom.document.clone(), NONE)];
    while let Some((h, parent)) = stack.pop() {
        let id = match &h.data {
            NodeData::Document => out.push(Kind::Document, Tag::NONE, parent, ""),
            NodeData::Doctype { .. } => out.push(Kind::Doctype, Tag::NONE, parent, ""),
            NodeData::Text { contents } => {
                out.push(Kind::Text, Tag::NONE, parent, &contents.borrow())
            }
            NodeData::Comment { contents } => out.push(Kind::Comment, Tag::NONE, parent, contents),
            NodeData::ProcessingInstruction { contents, .. } => {
                out.push(Kind::Comment, Tag::NONE, parent, contents)
            }
            NodeData::Element { name, attrs, .. } => {
                let tag = out.intern(&name.local);
                let id = out.push(Kind::Element, tag, parent, "");
                out.node_mut(id).foreign = name.ns != html5ever::ns!(html);
                let all =
                    attrs_source_bytes(attrs.borrow().iter().map(|a| (&*a.name.local, &*a.value)));
                out.set_markup_bytes(id, all);
                for a in attrs.borrow().iter() {
                    if keep_attr(&a.name.local) && a.name.ns.is_empty() {
                        out.push_attr(&a.name.local, &a.value);
                    }
                }
                id
            }
        };
        let children = h.children.borrow();
        for c in children.iter().rev() {
            stack.push((c.clone(), id));
        }
    }
    out.finish(source_len)
}
