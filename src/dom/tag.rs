//! Interned tag names: a `Tag` is an index into a fixed table of HTML element names, so the
//! pipeline's stages can `match` on tags without string compares. Names outside the table are
//! interned per document (see [`crate::dom::Dom::tag_name`]).

/// An interned element name. Values below [`Tag::FIRST_CUSTOM`] index the static table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Tag(pub u16);

macro_rules! tags {
    ($($konst:ident = $name:literal,)*) => {
        #[allow(non_camel_case_types, clippy::upper_case_acronyms, dead_code)]
        #[repr(u16)]
        enum Index { $($konst,)* }
        #[allow(missing_docs)]
        impl Tag {
            $(pub const $konst: Tag = Tag(Index::$konst as u16);)*
        }
        /// Names of the static tags, indexed by `Tag.0`.
        pub(crate) static NAMES: &[&str] = &[$($name,)*];
        /// Looks a lowercase local name up in the static table.
        pub(crate) fn lookup(name: &str) -> Option<Tag> {
            match name {
                $($name if !$name.is_empty() => Some(Tag::$konst),)*
                _ => None,
            }
        }
    };
}

tags! {
    NONE = "",
    A = "a", ABBR = "abbr", ADDRESS = "address", AREA = "area", ARTICLE = "article",
    ASIDE = "aside", AUDIO = "audio", B = "b", BASE = "base", BDI = "bdi", BDO = "bdo",
    BLOCKQUOTE = "blockquote", BODY = "body", BR = "br", BUTTON = "button", CANVAS = "canvas",
    CAPTION = "caption", CENTER = "center", CITE = "cite", CODE = "code", COL = "col",
    COLGROUP = "colgroup", DATA = "data", DATALIST = "datalist", DD = "dd", DEL = "del",
    DETAILS = "details", DFN = "dfn", DIALOG = "dialog", DIR = "dir", DIV = "div", DL = "dl",
    DT = "dt", EM = "em", EMBED = "embed", FIELDSET = "fieldset", FIGCAPTION = "figcaption",
    FIGURE = "figure", FONT = "font", FOOTER = "footer", FORM = "form", FRAME = "frame",
    FRAMESET = "frameset", H1 = "h1", H2 = "h2", H3 = "h3", H4 = "h4", H5 = "h5", H6 = "h6",
    HEAD = "head", HEADER = "header", HGROUP = "hgroup", HR = "hr", HTML = "html", I = "i",
    IFRAME = "iframe", IMG = "img", INPUT = "input", INS = "ins", KBD = "kbd", LABEL = "label",
    LEGEND = "legend", LI = "li", LINK = "link", MAIN = "main", MAP = "map", MARK = "mark",
    MARQUEE = "marquee", MATH = "math", MENU = "menu", META = "meta", METER = "meter", NAV = "nav",
    NOBR = "nobr", NOEMBED = "noembed", NOFRAMES = "noframes", NOSCRIPT = "noscript",
    OBJECT = "object", OL = "ol", OPTGROUP = "optgroup", OPTION = "option", OUTPUT = "output",
    P = "p", PARAM = "param", PICTURE = "picture", PRE = "pre", PROGRESS = "progress", Q = "q",
    RP = "rp", RT = "rt", RUBY = "ruby", S = "s", SAMP = "samp", SCRIPT = "script",
    SEARCH = "search", SECTION = "section", SELECT = "select", SLOT = "slot", SMALL = "small",
    SOURCE = "source", SPAN = "span", STRIKE = "strike", STRONG = "strong", STYLE = "style",
    SUB = "sub", SUMMARY = "summary", SUP = "sup", SVG = "svg", TABLE = "table", TBODY = "tbody",
    TD = "td", TEMPLATE = "template", TEXTAREA = "textarea", TFOOT = "tfoot", TH = "th",
    THEAD = "thead", TIME = "time", TITLE = "title", TR = "tr", TRACK = "track", TT = "tt",
    U = "u", UL = "ul", VAR = "var", VIDEO = "video", WBR = "wbr", XMP = "xmp",
}

impl Tag {
    /// First value used for names interned per document.
    pub const FIRST_CUSTOM: u16 = 0x8000;

    /// The static name, or `None` for a per-document custom tag.
    pub(crate) fn static_name(self) -> Option<&'static str> {
        NAMES.get(self.0 as usize).copied()
    }

    /// Elements whose content is never visible text (script, style, noscript, template, …).
    pub fn is_invisible(self) -> bool {
        matches!(
            self,
            Tag::SCRIPT
                | Tag::STYLE
                | Tag::NOSCRIPT
                | Tag::TEMPLATE
                | Tag::HEAD
                | Tag::TITLE
                | Tag::META
                | Tag::LINK
                | Tag::BASE
                | Tag::NOEMBED
                | Tag::NOFRAMES
                | Tag::PARAM
                | Tag::SOURCE
                | Tag::TRACK
                | Tag::DATALIST
                | Tag::OPTION
                | Tag::OPTGROUP
                | Tag::SELECT
                | Tag::TEXTAREA
        )
    }

    /// Block-level in the default CSS of HTML: starts a new line box and stacks vertically.
    pub fn is_block(self) -> bool {
        matches!(
            self,
            Tag::ADDRESS
                | Tag::ARTICLE
                | Tag::ASIDE
                | Tag::BLOCKQUOTE
                | Tag::BODY
                | Tag::CAPTION
                | Tag::CENTER
                | Tag::DD
                | Tag::DETAILS
                | Tag::DIALOG
                | Tag::DIR
                | Tag::DIV
                | Tag::DL
                | Tag::DT
                | Tag::FIELDSET
                | Tag::FIGCAPTION
                | Tag::FIGURE
                | Tag::FOOTER
                | Tag::FORM
                | Tag::FRAMESET
                | Tag::H1
                | Tag::H2
                | Tag::H3
                | Tag::H4
                | Tag::H5
                | Tag::H6
                | Tag::HEADER
                | Tag::HGROUP
                | Tag::HR
                | Tag::HTML
                | Tag::LEGEND
                | Tag::LI
                | Tag::MAIN
                | Tag::MENU
                | Tag::NAV
                | Tag::OL
                | Tag::P
                | Tag::PRE
                | Tag::SEARCH
                | Tag::SECTION
                | Tag::SUMMARY
                | Tag::TABLE
                | Tag::TBODY
                | Tag::TD
                | Tag::TFOOT
                | Tag::TH
                | Tag::THEAD
                | Tag::TR
                | Tag::UL
                | Tag::XMP
                | Tag::BR
        )
    }

    /// Code blocks and inline code: `<pre>`, `<code>`, `<xmp>`.
    pub(crate) fn is_code(self) -> bool {
        matches!(self, Tag::PRE | Tag::CODE | Tag::XMP)
    }

    /// Heading elements h1–h6.
    pub(crate) fn is_heading(self) -> bool {
        matches!(
            self,
            Tag::H1 | Tag::H2 | Tag::H3 | Tag::H4 | Tag::H5 | Tag::H6
        )
    }

    /// Replaced elements that take a box from width/height (images, media, frames).
    pub(crate) fn is_replaced(self) -> bool {
        matches!(
            self,
            Tag::IMG
                | Tag::IFRAME
                | Tag::VIDEO
                | Tag::CANVAS
                | Tag::EMBED
                | Tag::OBJECT
                | Tag::SVG
                | Tag::AUDIO
                | Tag::INPUT
                | Tag::BUTTON
                | Tag::SELECT
                | Tag::TEXTAREA
                | Tag::FRAME
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_round_trips() {
        for (i, name) in NAMES.iter().enumerate().skip(1) {
            assert_eq!(lookup(name), Some(Tag(i as u16)), "{name}");
        }
        assert_eq!(Tag::DIV.static_name(), Some("div"));
        assert_eq!(lookup("my-widget"), None);
    }
}
