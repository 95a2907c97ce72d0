//! A byte-level HTML tokenizer over decoded text, following the WHATWG tokenizer states.
//!
//! It reads the whole page from one `&str` and hands out one token at a time. Text and
//! attribute values are scanned with `memchr`; a run that holds no character reference, carriage
//! return or NUL is handed out as a range of the source (no copy), anything else is decoded into
//! a buffer reused from token to token. Raw text (`<style>`, `<xmp>`, `<iframe>`, …), RCDATA
//! (`<title>`, `<textarea>`) and script data are skipped to their appropriate end tag as the
//! tokenizer states define them, the script data escape states included; the tree builder picks
//! the state after each start tag ([`Tokenizer::set_raw`]), as the spec's tree construction does.
//!
//! # Complexity
//! Linear in the input: each byte is looked at a bounded number of times (a character reference
//! reads at most 32 bytes past its `&` whatever follows; duplicate attribute names are found with
//! a hash set once a tag has more than a few).

use html5ever::data::{C1_REPLACEMENTS, NAMED_ENTITIES};
use rustc_hash::{FxHashMap, FxHashSet};

/// What the tokenizer reads after a start tag, chosen by the tree builder.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Raw {
    /// `<title>`, `<textarea>`: character references decoded, up to the end tag.
    Escapable,
    /// `<style>`, `<xmp>`, `<iframe>`, `<noembed>`, `<noframes>`: up to the end tag.
    Text,
    /// `<script>`: up to the end tag, outside `<!--`-escaped `<script>` blocks.
    Script,
    /// `<plaintext>`: the rest of the input.
    Plain,
}

/// One token. Its text, name and attributes are read through the tokenizer until the next call.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Token {
    /// Character data; [`Tokenizer::text`].
    Text,
    /// A U+0000 in the data state (the tree builder drops it or makes it U+FFFD).
    Null,
    /// A start tag: [`Tokenizer::name`], [`Tokenizer::attrs`], [`Tokenizer::self_closing`].
    Start,
    /// An end tag: [`Tokenizer::name`].
    End,
    /// A comment (or bogus comment) whose text is this many UTF-8 bytes long.
    Comment(u32),
    /// A doctype; [`Tokenizer::doctype`].
    Doctype,
    /// The end of the input.
    Eof,
}

/// A doctype token's parts, as the quirks-mode check reads them.
#[derive(Debug, Default, Clone)]
pub(crate) struct Doctype {
    pub name: Option<String>,
    pub public_id: Option<String>,
    pub system_id: Option<String>,
    pub force_quirks: bool,
}

/// An attribute of the current tag: byte ranges of its (lowercased) name and decoded value in
/// [`Tokenizer::attr_buf`].
#[derive(Debug, Clone, Copy)]
pub(crate) struct Attr {
    pub name: (u32, u32),
    pub value: (u32, u32),
}

/// What a `<` opened.
enum Markup {
    Token(Token),
    /// Nothing to hand out (`</>`, an empty CDATA section, a tag cut off by the end).
    Skipped,
    /// No markup: the `<` is text.
    Text,
}

/// Where the current text lives.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum TextAt {
    /// `src[start..end]`.
    Source(usize, usize),
    /// The whole of `text_buf`.
    Buffer,
}

pub(crate) struct Tokenizer<'a> {
    s: &'a str,
    b: &'a [u8],
    pos: usize,
    raw: Option<Raw>,
    /// The last start tag's name, for the appropriate end tag of raw text.
    last_start: String,
    text_at: TextAt,
    text_buf: String,
    name_buf: String,
    /// The current tag name is `s[name_src.0..name_src.1]` (already lowercase) unless `name_in_buf`.
    name_src: (usize, usize),
    name_in_buf: bool,
    pub(crate) self_closing: bool,
    pub(crate) attrs: Vec<Attr>,
    pub(crate) attr_buf: String,
    seen: FxHashSet<(u32, u32)>,
    pub(crate) doctype: Doctype,
    /// Byte range of the last token in the source.
    pub(crate) span: (usize, usize),
    /// Inside a CDATA section: where its text ends and where the input goes on after `]]>`.
    /// Its text is handed out in runs split at NUL, which is a [`Token::Null`] as in the data
    /// state (html5ever's tokenizer emits it as a null character token there too).
    cdata: Option<(usize, usize)>,
}

fn is_ws(c: u8) -> bool {
    matches!(c, b' ' | b'\t' | b'\n' | b'\r' | b'\x0c')
}

impl<'a> Tokenizer<'a> {
    pub(crate) fn new(s: &'a str) -> Tokenizer<'a> {
        // Only the stream's first character can be a byte order mark.
        let pos = if s.starts_with('\u{feff}') { 3 } else { 0 };
        Tokenizer {
            s,
            b: s.as_bytes(),
            pos,
            raw: None,
            last_start: String::new(),
            text_at: TextAt::Source(0, 0),
            text_buf: String::new(),
            name_buf: String::new(),
            name_src: (0, 0),
            name_in_buf: false,
            self_closing: false,
            attrs: Vec::new(),
            attr_buf: String::new(),
            seen: FxHashSet::default(),
            doctype: Doctype::default(),
            span: (0, 0),
            cdata: None,
        }
    }

    /// Bytes read so far.
    pub(crate) fn pos(&self) -> usize {
        self.pos
    }

    /// Switches to a raw state for the content of the start tag just read.
    pub(crate) fn set_raw(&mut self, raw: Raw) {
        self.raw = Some(raw);
    }

    /// The current text token.
    pub(crate) fn text(&self) -> &str {
        match self.text_at {
            TextAt::Source(a, b) => &self.s[a..b],
            TextAt::Buffer => &self.text_buf,
        }
    }

    /// The current tag's name, lowercase.
    pub(crate) fn name(&self) -> &str {
        if self.name_in_buf {
            &self.name_buf
        } else {
            &self.s[self.name_src.0..self.name_src.1]
        }
    }

    /// The name and value of attribute `a` of the current tag.
    pub(crate) fn attr(&self, a: Attr) -> (&str, &str) {
        (
            &self.attr_buf[a.name.0 as usize..a.name.1 as usize],
            &self.attr_buf[a.value.0 as usize..a.value.1 as usize],
        )
    }

    /// The next token. `foreign`: the adjusted current node is not an HTML element, which is
    /// the only place `<![CDATA[` opens a CDATA section.
    pub(crate) fn next(&mut self, foreign: bool) -> Token {
        if let Some(raw) = self.raw.take() {
            if let Some(t) = self.raw_text(raw) {
                return t;
            }
        }
        if let Some(t) = self.cdata_text() {
            return t;
        }
        loop {
            let start = self.pos;
            if start >= self.b.len() {
                self.span = (start, start);
                return Token::Eof;
            }
            match self.b[start] {
                b'<' => match self.markup(foreign) {
                    Markup::Token(t) => return t,
                    Markup::Skipped => {}
                    // Not markup: `<` is text, and the run goes on.
                    Markup::Text => {
                        if self.data_text(start) {
                            return Token::Text;
                        }
                    }
                },
                0 => {
                    self.pos += 1;
                    self.span = (start, start + 1);
                    return Token::Null;
                }
                _ => {
                    if self.data_text(start) {
                        return Token::Text;
                    }
                }
            }
        }
    }

    /// Reads character data from `start` (a `<` that opens no markup counts as text) up to the
    /// next tag, NUL or the end; returns whether it read any.
    fn data_text(&mut self, start: usize) -> bool {
        let b = self.b;
        let mut at = start;
        // The run is a source range until a reference, CR or a skipped `</>` needs a copy.
        let mut copied = false;
        let mut plain_from = start;
        loop {
            let next = memchr::memchr3(b'<', b'&', 0, &b[at..]).map_or(b.len(), |k| at + k);
            // Bytes up to `next` are plain except for CR.
            let stop = next;
            if next >= b.len() || b[next] == 0 {
                at = stop;
                break;
            }
            if b[next] == b'<' {
                if next == start {
                    // The caller found no markup here: the `<` is text.
                    at = next + 1;
                    continue;
                }
                if self.opens_markup(next) {
                    at = next;
                    break;
                }
                at = next + 1;
                continue;
            }
            // A character reference.
            if !copied {
                self.text_buf.clear();
                copied = true;
            }
            push_normalized(&mut self.text_buf, &self.s[plain_from..next]);
            let (end, decoded) = char_ref(self.s, next + 1, false);
            match decoded {
                Some(d) => self.text_buf.push_str(d.as_str()),
                None => self.text_buf.push('&'),
            }
            at = end;
            plain_from = end;
        }
        self.pos = at;
        self.span = (start, at);
        if at == start {
            return false;
        }
        if copied {
            push_normalized(&mut self.text_buf, &self.s[plain_from..at]);
            self.text_at = TextAt::Buffer;
        } else if memchr::memchr(b'\r', &b[start..at]).is_some() {
            self.text_buf.clear();
            push_normalized(&mut self.text_buf, &self.s[start..at]);
            self.text_at = TextAt::Buffer;
        } else {
            self.text_at = TextAt::Source(start, at);
        }
        true
    }

    /// Whether the `<` at `at` opens a tag, end tag, comment, doctype or bogus comment
    /// (`</>`, which the tokenizer drops, counts: it ends the text run).
    fn opens_markup(&self, at: usize) -> bool {
        match self.b.get(at + 1) {
            Some(c) if c.is_ascii_alphabetic() => true,
            Some(b'!' | b'?' | b'/') => true,
            _ => false,
        }
    }

    /// Reads the markup at a `<`.
    fn markup(&mut self, foreign: bool) -> Markup {
        let start = self.pos;
        let b = self.b;
        let tag = |t: &mut Self, end_tag| match t.tag(start, end_tag) {
            Some(tok) => Markup::Token(tok),
            // The input ends inside the tag: the spec drops it.
            None => Markup::Skipped,
        };
        match b.get(start + 1) {
            Some(c) if c.is_ascii_alphabetic() => tag(self, false),
            Some(b'/') => match b.get(start + 2) {
                Some(c) if c.is_ascii_alphabetic() => tag(self, true),
                Some(b'>') => {
                    // `</>` is dropped whole.
                    self.pos = start + 3;
                    Markup::Skipped
                }
                None => Markup::Text,
                Some(_) => Markup::Token(self.bogus_comment(start, start + 2)),
            },
            Some(b'!') => self.declaration(start, foreign),
            Some(b'?') => Markup::Token(self.bogus_comment(start, start + 1)),
            _ => Markup::Text,
        }
    }

    /// A bogus comment whose text runs from `from` to the next `>`.
    fn bogus_comment(&mut self, start: usize, from: usize) -> Token {
        let end = memchr::memchr(b'>', &self.b[from..]).map_or(self.b.len(), |k| from + k);
        self.pos = (end + 1).min(self.b.len());
        self.span = (start, self.pos);
        Token::Comment(normalized_len(&self.b[from..end]))
    }

    /// `<!`: a comment, a doctype, a CDATA section (in foreign content) or a bogus comment.
    fn declaration(&mut self, start: usize, foreign: bool) -> Markup {
        let b = self.b;
        let rest = &b[start + 2..];
        if rest.starts_with(b"--") {
            return Markup::Token(self.comment(start));
        }
        if rest.len() >= 7 && rest[..7].eq_ignore_ascii_case(b"doctype") {
            return Markup::Token(self.doctype(start, start + 9));
        }
        if rest.starts_with(b"[CDATA[") && foreign {
            let from = start + 9;
            let end = memchr::memmem::find(&b[from..], b"]]>").map_or(b.len(), |k| from + k);
            self.pos = from;
            self.cdata = Some((end, (end + 3).min(b.len())));
            return match self.cdata_text() {
                Some(t) => Markup::Token(t),
                None => Markup::Skipped,
            };
        }
        Markup::Token(self.bogus_comment(start, start + 2))
    }

    /// The next run of the open CDATA section: text up to a NUL or the section's end, or the
    /// NUL; `None` (and the section closed) once it is read.
    fn cdata_text(&mut self) -> Option<Token> {
        let (end, after) = self.cdata?;
        let start = self.pos;
        if start >= end {
            self.cdata = None;
            self.pos = after;
            return None;
        }
        if self.b[start] == 0 {
            self.pos = start + 1;
            self.span = (start, start + 1);
            return Some(Token::Null);
        }
        let stop = memchr::memchr(0, &self.b[start..end]).map_or(end, |k| start + k);
        self.text_buf.clear();
        push_normalized(&mut self.text_buf, &self.s[start..stop]);
        self.text_at = TextAt::Buffer;
        self.pos = stop;
        self.span = (start, stop);
        if stop == end {
            self.cdata = None;
            self.pos = after;
            self.span = (start, after);
        }
        Some(Token::Text)
    }

    /// `<!--`: the comment ends at the first `-->` or `--!>`; `<!-->` and `<!--->` are empty.
    fn comment(&mut self, start: usize) -> Token {
        let b = self.b;
        let from = start + 4;
        let rest = &b[from..];
        if rest.first() == Some(&b'>') {
            self.pos = from + 1;
            self.span = (start, self.pos);
            return Token::Comment(0);
        }
        if rest.starts_with(b"->") {
            self.pos = from + 2;
            self.span = (start, self.pos);
            return Token::Comment(0);
        }
        let mut at = from;
        while let Some(k) = memchr::memmem::find(&b[at..], b"--") {
            let p = at + k;
            match b.get(p + 2) {
                Some(b'>') => {
                    self.pos = p + 3;
                    self.span = (start, self.pos);
                    return Token::Comment(normalized_len(&b[from..p]));
                }
                Some(b'!') if b.get(p + 3) == Some(&b'>') => {
                    self.pos = p + 4;
                    self.span = (start, self.pos);
                    return Token::Comment(normalized_len(&b[from..p]));
                }
                _ => at = p + 1,
            }
        }
        // Unterminated: the comment runs to the end, without the dashes that could have begun
        // its end, or a final `--!` (the comment end bang state emits without it).
        let mut end = b.len();
        if b[from..].ends_with(b"--!") {
            end -= 3;
        } else {
            let dashes = b[from..].iter().rev().take_while(|&&c| c == b'-').count();
            end -= dashes.min(2);
        }
        self.pos = b.len();
        self.span = (start, self.pos);
        Token::Comment(normalized_len(&b[from..end]))
    }

    /// `<!DOCTYPE`: name, public and system identifiers, up to `>`.
    fn doctype(&mut self, start: usize, from: usize) -> Token {
        let b = self.b;
        let mut d = Doctype::default();
        let mut at = from;
        let skip_ws = |at: &mut usize| {
            while *at < b.len() && is_ws(b[*at]) {
                *at += 1;
            }
        };
        let done = |t: &mut Tokenizer, at: usize, d: Doctype| {
            t.pos = at.min(b.len());
            t.span = (start, t.pos);
            t.doctype = d;
            Token::Doctype
        };
        skip_ws(&mut at);
        if at >= b.len() {
            d.force_quirks = true;
            return done(self, at, d);
        }
        if b[at] == b'>' {
            d.force_quirks = true;
            return done(self, at + 1, d);
        }
        let name_end = b[at..]
            .iter()
            .position(|&c| is_ws(c) || c == b'>')
            .map_or(b.len(), |k| at + k);
        let mut name = self.s[at..name_end].to_ascii_lowercase();
        if name.contains('\0') {
            name = name.replace('\0', "\u{fffd}");
        }
        d.name = Some(name);
        at = name_end;
        skip_ws(&mut at);
        if at >= b.len() {
            d.force_quirks = true;
            return done(self, at, d);
        }
        if b[at] == b'>' {
            return done(self, at + 1, d);
        }
        let kw = &b[at..(at + 6).min(b.len())];
        let public = kw.eq_ignore_ascii_case(b"public");
        let system = kw.eq_ignore_ascii_case(b"system");
        // Everything else makes a bogus doctype, skipped to its `>`.
        let bogus = |t: &mut Tokenizer, at: usize, mut d: Doctype, quirks: bool| {
            d.force_quirks |= quirks;
            let end = memchr::memchr(b'>', &b[at..]).map_or(b.len(), |k| at + k + 1);
            done(t, end, d)
        };
        if !public && !system {
            return bogus(self, at, d, true);
        }
        at += 6;
        skip_ws(&mut at);
        // A quoted identifier: `Err(Some(part))` when `>` or the end cuts it short (force
        // quirks, and the `>` ends the doctype), `Err(None)` when no quote opens it.
        let quoted = |t: &Tokenizer, at: &mut usize| -> Result<String, Option<String>> {
            let q = match b.get(*at) {
                Some(&q @ (b'"' | b'\'')) => q,
                _ => return Err(None),
            };
            let from = *at + 1;
            let end = b[from..]
                .iter()
                .position(|&c| c == q || c == b'>')
                .map_or(b.len(), |k| from + k);
            let id = t.s[from..end].replace('\0', "\u{fffd}");
            if b.get(end) == Some(&q) {
                *at = end + 1;
                Ok(id)
            } else {
                *at = end;
                Err(Some(id))
            }
        };
        let mut ids = 0;
        loop {
            let is_public = public && ids == 0;
            let (id, cut) = match quoted(self, &mut at) {
                Ok(id) => (id, false),
                Err(Some(id)) => (id, true),
                Err(None) => return bogus(self, at, d, true),
            };
            if is_public {
                d.public_id = Some(id);
            } else {
                d.system_id = Some(id);
            }
            if cut {
                d.force_quirks = true;
                return done(self, (at + 1).min(b.len()), d);
            }
            ids += 1;
            skip_ws(&mut at);
            if at >= b.len() {
                d.force_quirks = true;
                return done(self, at, d);
            }
            if b[at] == b'>' {
                return done(self, at + 1, d);
            }
            if !(public && ids == 1) {
                break;
            }
        }
        bogus(self, at, d, false)
    }

    /// A start or end tag at `start` (`<` then a letter, or `</` then a letter). `None` when
    /// the input ends inside it: the spec drops such a tag.
    fn tag(&mut self, start: usize, end_tag: bool) -> Option<Token> {
        let b = self.b;
        let from = start + if end_tag { 2 } else { 1 };
        let name_end = b[from..]
            .iter()
            .position(|&c| is_ws(c) || c == b'/' || c == b'>')
            .map_or(b.len(), |k| from + k);
        let raw_name = &b[from..name_end];
        if raw_name
            .iter()
            .any(|&c| c.is_ascii_uppercase() || c == 0 || c == b'\r')
        {
            self.name_buf.clear();
            push_lower(&mut self.name_buf, &self.s[from..name_end]);
            self.name_in_buf = true;
        } else {
            self.name_src = (from, name_end);
            self.name_in_buf = false;
        }
        self.attrs.clear();
        self.attr_buf.clear();
        self.seen.clear();
        self.self_closing = false;
        let mut at = name_end;
        // Before attribute name.
        loop {
            while at < b.len() && is_ws(b[at]) {
                at += 1;
            }
            if at >= b.len() {
                self.pos = b.len();
                return None;
            }
            match b[at] {
                b'>' => {
                    at += 1;
                    break;
                }
                b'/' => {
                    // Self-closing start tag state.
                    at += 1;
                    if b.get(at) == Some(&b'>') {
                        self.self_closing = true;
                        at += 1;
                        break;
                    }
                    continue;
                }
                _ => {}
            }
            // Attribute name: the first character may be `=`.
            let n0 = at;
            at += 1;
            while at < b.len() && !is_ws(b[at]) && !matches!(b[at], b'/' | b'>' | b'=') {
                at += 1;
            }
            let n1 = at;
            // After attribute name.
            while at < b.len() && is_ws(b[at]) {
                at += 1;
            }
            let mut value = None;
            if b.get(at) == Some(&b'=') {
                at += 1;
                while at < b.len() && is_ws(b[at]) {
                    at += 1;
                }
                match b.get(at) {
                    None => {
                        self.pos = b.len();
                        return None;
                    }
                    Some(&q @ (b'"' | b'\'')) => {
                        let v0 = at + 1;
                        let Some(k) = memchr::memchr(q, &b[v0..]) else {
                            self.pos = b.len();
                            return None;
                        };
                        value = Some((v0, v0 + k));
                        at = v0 + k + 1;
                        // After attribute value (quoted): anything but space, `/`, `>` starts
                        // the next attribute at once.
                    }
                    Some(b'>') => value = Some((at, at)),
                    Some(_) => {
                        let v0 = at;
                        while at < b.len() && !is_ws(b[at]) && b[at] != b'>' {
                            at += 1;
                        }
                        value = Some((v0, at));
                    }
                }
            }
            if !end_tag {
                self.add_attr((n0, n1), value);
            }
        }
        self.pos = at;
        self.span = (start, at);
        if end_tag {
            Some(Token::End)
        } else {
            self.last_start.clear();
            let name = if self.name_in_buf {
                &self.name_buf
            } else {
                &self.s[self.name_src.0..self.name_src.1]
            };
            self.last_start.push_str(name);
            Some(Token::Start)
        }
    }

    /// Adds an attribute unless its name is already on the tag (the first one wins).
    fn add_attr(&mut self, name: (usize, usize), value: Option<(usize, usize)>) {
        let a0 = self.attr_buf.len();
        push_lower(&mut self.attr_buf, &self.s[name.0..name.1]);
        let a1 = self.attr_buf.len();
        let new = &self.attr_buf[a0..a1];
        let dup = if self.attrs.len() < 8 {
            self.attrs
                .iter()
                .any(|a| &self.attr_buf[a.name.0 as usize..a.name.1 as usize] == new)
        } else {
            if self.seen.is_empty() {
                for a in &self.attrs {
                    self.seen.insert(hash_str(
                        &self.attr_buf[a.name.0 as usize..a.name.1 as usize],
                    ));
                }
            }
            let h = hash_str(new);
            // A hash hit is confirmed by comparing names (collisions are rare, and then the
            // scan costs one pass).
            self.seen.contains(&h)
                && self
                    .attrs
                    .iter()
                    .any(|a| &self.attr_buf[a.name.0 as usize..a.name.1 as usize] == new)
        };
        if dup {
            self.attr_buf.truncate(a0);
            return;
        }
        if self.attrs.len() >= 8 {
            let h = hash_str(&self.attr_buf[a0..a1]);
            self.seen.insert(h);
        }
        let v0 = self.attr_buf.len();
        if let Some((v_start, v_end)) = value {
            let raw = &self.s[v_start..v_end];
            if memchr::memchr3(b'&', b'\r', 0, raw.as_bytes()).is_none() {
                self.attr_buf.push_str(raw);
            } else {
                decode_attr(&mut self.attr_buf, self.s, v_start, v_end);
            }
        }
        let v1 = self.attr_buf.len();
        self.attrs.push(Attr {
            name: (a0 as u32, a1 as u32),
            value: (v0 as u32, v1 as u32),
        });
    }

    /// The content of a raw-text element up to its appropriate end tag, as one text token (or
    /// `None` when it is empty: the end tag comes next).
    fn raw_text(&mut self, raw: Raw) -> Option<Token> {
        let start = self.pos;
        let b = self.b;
        let end = match raw {
            Raw::Plain => b.len(),
            Raw::Escapable | Raw::Text => self.find_end_tag(start),
            Raw::Script => self.script_end(start),
        };
        self.pos = end;
        self.span = (start, end);
        if end == start {
            return None;
        }
        let s = &self.s[start..end];
        let needs = match raw {
            Raw::Escapable => memchr::memchr3(b'&', b'\r', 0, s.as_bytes()).is_some(),
            _ => memchr::memchr2(b'\r', 0, s.as_bytes()).is_some(),
        };
        if !needs {
            self.text_at = TextAt::Source(start, end);
            return Some(Token::Text);
        }
        self.text_buf.clear();
        if raw == Raw::Escapable {
            let mut plain = start;
            let mut at = start;
            while let Some(k) = memchr::memchr(b'&', &b[at..end]) {
                let amp = at + k;
                push_raw_normalized(&mut self.text_buf, &self.s[plain..amp]);
                let (next, decoded) = char_ref(&self.s[..end], amp + 1, false);
                match decoded {
                    Some(d) => self.text_buf.push_str(d.as_str()),
                    None => self.text_buf.push('&'),
                }
                at = next;
                plain = next;
            }
            push_raw_normalized(&mut self.text_buf, &self.s[plain..end]);
        } else {
            push_raw_normalized(&mut self.text_buf, s);
        }
        self.text_at = TextAt::Buffer;
        Some(Token::Text)
    }

    /// Whether `</` + the last start tag's name + space, `/` or `>` is at `at`.
    fn end_tag_at(&self, at: usize) -> bool {
        let b = self.b;
        let name = self.last_start.as_bytes();
        let k = at + 2 + name.len();
        b.len() > k
            && b[at + 1] == b'/'
            && b[at + 2..k].eq_ignore_ascii_case(name)
            && (is_ws(b[k]) || b[k] == b'/' || b[k] == b'>')
    }

    /// Start of the appropriate end tag from `from` on, or the end of the input.
    fn find_end_tag(&self, from: usize) -> usize {
        let b = self.b;
        let mut at = from;
        while let Some(k) = memchr::memchr(b'<', &b[at..]) {
            let p = at + k;
            if self.end_tag_at(p) {
                return p;
            }
            at = p + 1;
        }
        b.len()
    }

    /// Start of the end tag that ends script data from `from` on, following the script data,
    /// escaped and double-escaped states (`<!--` then `<script>` hides a `</script>`).
    fn script_end(&self, from: usize) -> usize {
        #[derive(PartialEq)]
        enum S {
            Data,
            Escaped,
            Double,
        }
        let b = self.b;
        let mut state = S::Data;
        let mut at = from;
        // Dashes just read in the escaped states (0, 1, or 2 meaning "--").
        let mut dashes = 0;
        while at < b.len() {
            match state {
                S::Data => {
                    let Some(k) = memchr::memchr(b'<', &b[at..]) else {
                        return b.len();
                    };
                    let p = at + k;
                    if self.end_tag_at(p) {
                        return p;
                    }
                    if b[p + 1..].starts_with(b"!--") {
                        state = S::Escaped;
                        // `<!--` leaves the tokenizer in the escaped dash dash state.
                        dashes = 2;
                        at = p + 4;
                    } else {
                        at = p + 1;
                    }
                }
                S::Escaped | S::Double => {
                    let c = b[at];
                    match c {
                        b'-' => {
                            dashes = (dashes + 1).min(2);
                            at += 1;
                        }
                        b'>' if dashes == 2 => {
                            state = S::Data;
                            dashes = 0;
                            at += 1;
                        }
                        b'<' => {
                            dashes = 0;
                            if state == S::Escaped {
                                if self.end_tag_at(at) {
                                    return at;
                                }
                                if script_word(b, at + 1) {
                                    state = S::Double;
                                    at += 7;
                                    continue;
                                }
                            } else if b.get(at + 1) == Some(&b'/') && script_word(b, at + 2) {
                                state = S::Escaped;
                                at += 8;
                                continue;
                            }
                            at += 1;
                        }
                        _ => {
                            dashes = 0;
                            // Skip to the next byte that can change the state.
                            at += 1;
                            let skip = memchr::memchr3(b'-', b'<', b'>', &b[at..])
                                .map_or(b.len() - at, |k| k);
                            at += skip;
                        }
                    }
                }
            }
        }
        b.len()
    }
}

/// Whether `script` (any case) then space, `/` or `>` is at `at`: the double-escape switch.
fn script_word(b: &[u8], at: usize) -> bool {
    b.len() > at + 6
        && b[at..at + 6].eq_ignore_ascii_case(b"script")
        && (is_ws(b[at + 6]) || b[at + 6] == b'/' || b[at + 6] == b'>')
}

fn hash_str(s: &str) -> (u32, u32) {
    use std::hash::{Hash, Hasher};
    let mut h = rustc_hash::FxHasher::default();
    s.hash(&mut h);
    let v = h.finish();
    (v as u32, (v >> 32) as u32)
}

/// Appends `s` lowercased (ASCII), with NUL as U+FFFD and CR as LF (a CR LF pair as one LF).
fn push_lower(out: &mut String, s: &str) {
    if !s
        .bytes()
        .any(|c| c.is_ascii_uppercase() || c == 0 || c == b'\r')
    {
        out.push_str(s);
        return;
    }
    let start = out.len();
    push_raw_normalized(out, s);
    // SAFETY-free: lowercase ASCII in place keeps UTF-8 valid.
    let tail = out.split_off(start);
    out.push_str(&tail.to_ascii_lowercase());
}

/// Appends text, CR LF and lone CR as LF (the input stream's preprocessing); NUL is kept
/// (the data state hands it to the tree builder as its own token).
fn push_normalized(out: &mut String, s: &str) {
    if memchr::memchr(b'\r', s.as_bytes()).is_none() {
        out.push_str(s);
        return;
    }
    let mut rest = s;
    while let Some(k) = rest.find('\r') {
        out.push_str(&rest[..k]);
        out.push('\n');
        rest = &rest[k + 1..];
        if rest.starts_with('\n') {
            rest = &rest[1..];
        }
    }
    out.push_str(rest);
}

/// Like [`push_normalized`], and NUL as U+FFFD (raw text, RCDATA, attribute values).
fn push_raw_normalized(out: &mut String, s: &str) {
    if memchr::memchr(0, s.as_bytes()).is_none() {
        push_normalized(out, s);
        return;
    }
    push_normalized(out, &s.replace('\0', "\u{fffd}"));
}

/// UTF-8 length of comment text after preprocessing: a CR LF pair counts one byte, a NUL three.
fn normalized_len(b: &[u8]) -> u32 {
    let mut n = b.len();
    for k in memchr::memchr_iter(b'\r', b) {
        if b.get(k + 1) == Some(&b'\n') {
            n -= 1;
        }
    }
    n += 2 * memchr::memchr_iter(0, b).count();
    n.min(u32::MAX as usize) as u32
}

/// Decodes an attribute value `s[from..to]`: references (with the attribute rule for a
/// reference not ended by `;`), CR LF, NUL.
fn decode_attr(out: &mut String, s: &str, from: usize, to: usize) {
    let b = s.as_bytes();
    let mut plain = from;
    let mut at = from;
    while let Some(k) = memchr::memchr(b'&', &b[at..to]) {
        let amp = at + k;
        push_raw_normalized(out, &s[plain..amp]);
        let (next, decoded) = char_ref(&s[..to], amp + 1, true);
        match decoded {
            Some(d) => out.push_str(d.as_str()),
            None => out.push('&'),
        }
        at = next;
        plain = next;
    }
    push_raw_normalized(out, &s[plain..to]);
}

/// Up to two characters a reference decodes to.
pub(crate) struct Decoded {
    buf: [u8; 8],
    len: u8,
}

impl Decoded {
    fn new(chars: &[char]) -> Decoded {
        let mut d = Decoded {
            buf: [0; 8],
            len: 0,
        };
        for c in chars {
            let n = c.encode_utf8(&mut d.buf[d.len as usize..]).len();
            d.len += n as u8;
        }
        d
    }

    fn as_str(&self) -> &str {
        std::str::from_utf8(&self.buf[..self.len as usize]).unwrap_or("")
    }
}

/// html5ever's named-reference table (every name and every prefix of one) indexed by a fast
/// hash, built once per process: its own map hashes with SipHash, which cost more than the
/// rest of decoding a reference.
fn named_entities() -> &'static FxHashMap<&'static str, (u32, u32)> {
    static MAP: std::sync::OnceLock<FxHashMap<&'static str, (u32, u32)>> =
        std::sync::OnceLock::new();
    MAP.get_or_init(|| NAMED_ENTITIES.entries().map(|(&k, &v)| (k, v)).collect())
}

/// The character reference after a `&` at `at - 1`: where the input goes on, and what it
/// decodes to (`None`: the `&` is literal and the input goes on at `at`).
///
/// Named references take the longest name in the table that the input starts with (the table
/// holds every prefix of a name, so the walk stops as soon as no name can continue; the whole
/// run of name bytes is tried first, as most references are well formed); in an
/// attribute, a match not ended by `;` and followed by `=` or an alphanumeric stays literal.
/// Numeric references map as the spec says (C1 controls through the windows-1252 table; zero,
/// surrogates and values past U+10FFFF to U+FFFD).
///
/// # Complexity
/// O(1): at most 33 bytes of a name and the digits of a number are read.
fn char_ref(s: &str, at: usize, in_attr: bool) -> (usize, Option<Decoded>) {
    let b = s.as_bytes();
    match b.get(at) {
        Some(b'#') => numeric_ref(b, at + 1).map_or((at, None), |(end, d)| (end, Some(d))),
        Some(c) if c.is_ascii_alphanumeric() => {
            let mut best: Option<(usize, (u32, u32))> = None;
            // The whole run (alphanumerics and an ending `;`) is the longest name the walk
            // below could reach: one lookup instead of one per byte for a well-formed reference.
            let mut run = at;
            while run < b.len() && run - at < 40 && b[run].is_ascii_alphanumeric() {
                run += 1;
            }
            if run < b.len() && run - at < 40 && b[run] == b';' {
                run += 1;
            }
            if let Some(&m) = named_entities().get(&s[at..run]) {
                if m.0 != 0 {
                    best = Some((run, m));
                }
            }
            // In an attribute a shorter match is followed by a name byte and so stays literal
            // (below), and every name without `;` also has one with it: the run decides.
            if best.is_none() && !in_attr {
                let mut end = at;
                while end < b.len() && end - at < 40 {
                    let c = b[end];
                    if !(c.is_ascii_alphanumeric() || c == b';') {
                        break;
                    }
                    end += 1;
                    match named_entities().get(&s[at..end]) {
                        Some(&m) => {
                            if m.0 != 0 {
                                best = Some((end, m));
                            }
                        }
                        None => break,
                    }
                    if c == b';' {
                        break;
                    }
                }
            }
            let Some((end, (c1, c2))) = best else {
                return (at, None);
            };
            if b[end - 1] != b';'
                && in_attr
                && b.get(end)
                    .is_some_and(|&c| c == b'=' || c.is_ascii_alphanumeric())
            {
                return (at, None);
            }
            let first = char::from_u32(c1).unwrap_or('\u{fffd}');
            let d = match char::from_u32(c2) {
                Some(second) if c2 != 0 => Decoded::new(&[first, second]),
                _ => Decoded::new(&[first]),
            };
            (end, Some(d))
        }
        _ => (at, None),
    }
}

/// `&#…`: decimal or `x`/`X` hex digits and an optional `;`; `None` without digits.
fn numeric_ref(b: &[u8], at: usize) -> Option<(usize, Decoded)> {
    let (hex, mut end) = match b.get(at) {
        Some(b'x' | b'X') => (true, at + 1),
        _ => (false, at),
    };
    let digits_from = end;
    let mut n: u32 = 0;
    let mut too_big = false;
    while let Some(&c) = b.get(end) {
        let d = if hex {
            (c as char).to_digit(16)
        } else {
            (c as char).to_digit(10)
        };
        let Some(d) = d else { break };
        n = n
            .checked_mul(if hex { 16 } else { 10 })
            .and_then(|v| v.checked_add(d))
            .unwrap_or_else(|| {
                too_big = true;
                0
            });
        if too_big {
            n = 0x110000;
        }
        end += 1;
    }
    if end == digits_from {
        return None;
    }
    if b.get(end) == Some(&b';') {
        end += 1;
    }
    let c = match n {
        _ if too_big || n > 0x10FFFF => '\u{fffd}',
        0 | 0xD800..=0xDFFF => '\u{fffd}',
        0x80..=0x9F => C1_REPLACEMENTS[(n - 0x80) as usize]
            .unwrap_or_else(|| char::from_u32(n).unwrap_or('\u{fffd}')),
        _ => char::from_u32(n).unwrap_or('\u{fffd}'),
    };
    Some((end, Decoded::new(&[c])))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The table walk alone, as `char_ref` did it before trying the whole run first.
    fn walk_only(s: &str, at: usize) -> Option<(usize, (u32, u32))> {
        let b = s.as_bytes();
        let (mut best, mut end) = (None, at);
        while end < b.len() && end - at < 40 {
            let c = b[end];
            if !(c.is_ascii_alphanumeric() || c == b';') {
                break;
            }
            end += 1;
            match NAMED_ENTITIES.get(&s[at..end]) {
                Some(&m) if m.0 != 0 => best = Some((end, m)),
                Some(_) => {}
                None => break,
            }
            if c == b';' {
                break;
            }
        }
        best
    }

    #[test]
    fn named_references_match_the_table_walk() {
        // Every name and prefix in the table, followed by what can end or extend a reference.
        let mut checked = 0;
        for name in NAMED_ENTITIES.keys() {
            for tail in ["", ";", "x", "x;", "=", " ", "1;", ";;", "amp;", "ltx"] {
                let s = format!("&{name}{tail}");
                for in_attr in [false, true] {
                    let (end, got) = char_ref(&s, 1, in_attr);
                    let want = walk_only(&s, 1).filter(|&(e, _)| {
                        let b = s.as_bytes();
                        !(b[e - 1] != b';'
                            && in_attr
                            && b.get(e)
                                .is_some_and(|&c| c == b'=' || c.is_ascii_alphanumeric()))
                    });
                    match want {
                        Some((e, (c1, c2))) => {
                            let d = got.unwrap_or_else(|| panic!("{s:?}: no match"));
                            let mut chars = vec![char::from_u32(c1).unwrap()];
                            chars.extend(char::from_u32(c2).filter(|_| c2 != 0));
                            assert_eq!(
                                (end, d.as_str()),
                                (e, Decoded::new(&chars).as_str()),
                                "{s:?}"
                            );
                        }
                        None => assert!(got.is_none() && end == 1, "{s:?}"),
                    }
                    checked += 1;
                }
            }
        }
        assert!(checked > 40_000, "{checked}");
        // What lets an attribute skip the walk: a name without `;` also exists with it.
        for (name, &(c1, _)) in NAMED_ENTITIES.entries() {
            if c1 != 0 && !name.ends_with(';') {
                let with = NAMED_ENTITIES.get(&format!("{name};")[..]);
                assert!(with.is_some_and(|m| m.0 == c1), "{name}");
            }
        }
    }

    fn tokens(s: &str) -> Vec<String> {
        let mut t = Tokenizer::new(s);
        let mut out = Vec::new();
        loop {
            let tok = t.next(false);
            let shown = match tok {
                Token::Eof => break,
                Token::Text => format!("text {:?}", t.text()),
                Token::Null => "null".into(),
                Token::Start => {
                    let attrs: Vec<String> = t
                        .attrs
                        .iter()
                        .map(|&a| {
                            let (k, v) = t.attr(a);
                            format!("{k}={v}")
                        })
                        .collect();
                    if matches!(t.name(), "script" | "style" | "title") {
                        t.set_raw(match t.name() {
                            "script" => Raw::Script,
                            "title" => Raw::Escapable,
                            _ => Raw::Text,
                        });
                    }
                    format!("<{} {}>", t.name(), attrs.join(" "))
                }
                Token::End => format!("</{}>", t.name()),
                Token::Comment(n) => format!("comment {n}"),
                Token::Doctype => format!("doctype {:?}", t.doctype.name),
            };
            out.push(shown);
        }
        out
    }

    #[test]
    fn tags_attributes_and_references() {
        assert_eq!(
            tokens(
                "<P Class=\"a&amp;b\" id=x ID=y data-q='&notit;'>a &lt; b&notin; &#x41;&#128;</p>"
            ),
            [
                "<p class=a&b id=x data-q=&notit;>",
                "text \"a < b∉ A€\"",
                "</p>"
            ]
        );
        // In an attribute, a reference without `;` before `=` or a letter stays literal.
        assert_eq!(
            tokens("<a href='?a=1&copy=2&copy;x'>&copy=</a>"),
            ["<a href=?a=1&copy=2©x>", "text \"©=\"", "</a>"]
        );
    }

    #[test]
    fn raw_text_script_escapes_and_comments() {
        assert_eq!(
            tokens("<script><!-- <script>x</script> --></script><p>"),
            [
                "<script >",
                "text \"<!-- <script>x</script> -->\"",
                "</script>",
                "<p >"
            ]
        );
        assert_eq!(
            tokens("<title>a &amp; <b></title ><!--x--><!---->< b</>c<?pi>"),
            [
                "<title >",
                "text \"a & <b>\"",
                "</title>",
                "comment 1",
                "comment 0",
                "text \"< b\"",
                "text \"c\"",
                "comment 3"
            ]
        );
        assert_eq!(
            tokens("a\r\nb\rc<!-- x"),
            ["text \"a\\nb\\nc\"", "comment 2"]
        );
        assert_eq!(tokens("<div a='x"), Vec::<String>::new());
        assert_eq!(tokens("<!DOCTYPE html>"), ["doctype Some(\"html\")"]);
    }
}
