//! Writes laid-out pages as a tagged PDF (PDF/UA-1): text as real text
//! (each face embedded once as a subset, with a ToUnicode map so that the
//! text can be searched, copied and read aloud), rules and fills as layout
//! artifacts, page headers, footers and repeated table headers as
//! pagination artifacts, the structure tree from the layout, an outline of
//! the headings, and XMP metadata.
//!
//! The content streams are written here directly (a few operators per
//! piece of text) and compressed on every core while the next pages are
//! written; pdf-writer writes the objects around them. Nothing here
//! interprets text: what is drawn is glyph ids.

use crate::layout::{
    Doc, Heading, Item, Kind, Node, Tag, BOTTOM, LEFT, PAGE_H, PAGE_W, RIGHT, TOP,
};
use crate::text::{Face, Fonts, Style};
use pdf_writer::types::{FontFlags, StructRole, SystemInfo, TableHeaderScope, UnicodeCmap};
use pdf_writer::{Filter, Finish, Name, Pdf, Rect, Ref, Str, TextStr};
use std::io::Write;

/// What the document says about itself.
pub struct Meta {
    pub title: String,
    pub lang: String,
    pub author: String,
    pub creator: String,
    /// Left of every page's header (the organisation).
    pub header: String,
    /// Left of every footer ("Generated on …").
    pub generated: String,
    /// "Page", before "x / y".
    pub page: String,
    pub created: chrono::DateTime<chrono::Utc>,
}

const HEADER: Style = Style::new(Face::Regular, 7.0, 80);
const FACES: [Face; 3] = [Face::Regular, Face::Bold, Face::Mono];
/// The names of the faces in each page's resources.
const FONT_NAMES: [&[u8]; 3] = [b"F0", b"F1", b"F2"];
/// How hard the content streams are compressed (zlib's scale of 1 to 9).
const DEFLATE_LEVEL: u32 = 6;

/// The glyphs of one face that the document uses, numbered as in its
/// subset (0 is `.notdef`), and the text each stands for.
struct FontUse {
    /// The subset's glyph id of each glyph of the font; 0 while unused.
    new_id: Vec<u16>,
    /// The font's glyph ids in the order of the subset's (0 first).
    order: Vec<u16>,
    /// What each glyph of the subset shows (for ToUnicode); empty where
    /// it is not known.
    text: Vec<String>,
}

impl FontUse {
    fn new(glyphs: u16) -> Self {
        FontUse {
            new_id: vec![0; glyphs as usize + 1],
            order: vec![0],
            text: vec![String::new()],
        }
    }

    /// The subset's id of glyph `old`, which shows `text`. `false` in the
    /// second place when the glyph already stands for another text (the
    /// piece then needs its text spelled out).
    fn id(&mut self, old: u16, text: &str) -> (u16, bool) {
        let slot = old as usize;
        if slot >= self.new_id.len() {
            return (0, false);
        }
        let mut n = self.new_id[slot];
        if n == 0 && old != 0 {
            n = self.order.len() as u16;
            self.order.push(old);
            self.new_id[slot] = n;
            self.text.push(String::new());
        }
        if old == 0 {
            return (0, false);
        }
        let known = &mut self.text[n as usize];
        if known.is_empty() {
            known.push_str(text);
            (n, true)
        } else {
            (n, known == text)
        }
    }

    /// Like `id` for a glyph drawn from the character map.
    fn id_of_char(&mut self, old: u16, c: char) -> u16 {
        let slot = old as usize;
        let n = self.new_id[slot];
        if n != 0 {
            return n;
        }
        let mut buf = [0u8; 4];
        self.id(old, c.encode_utf8(&mut buf)).0
    }
}

/// Which artifact or structure the content being written belongs to.
#[derive(Clone, Copy, PartialEq)]
enum Marked {
    None,
    Node(usize),
    /// A piece with its text spelled out: never continued.
    Spelled,
    Artifact(&'static [u8]),
}

/// One page's content stream, as it is written.
struct Content<'a> {
    buf: Vec<u8>,
    fonts: &'a Fonts,
    uses: &'a mut [FontUse; 3],
    font: Option<(Face, u32)>,
    fill: Option<u8>,
    marked: Marked,
    /// The structure node of each marked-content id of the page.
    mcids: Vec<usize>,
    /// Whether a glyph the fonts lack was drawn.
    notdef: bool,
}

const LAYOUT: &[u8] = b"/Artifact<</Type/Layout>>BDC\n";
const PAGINATION: &[u8] = b"/Artifact<</Type/Pagination>>BDC\n";
const PAGE_HEADER: &[u8] = b"/Artifact<</Type/Pagination/Subtype/Header>>BDC\n";
const PAGE_FOOTER: &[u8] = b"/Artifact<</Type/Pagination/Subtype/Footer>>BDC\n";

impl Content<'_> {
    /// A number with at most two decimals, and a space.
    fn num(&mut self, v: f32) {
        let mut n = (v as f64 * 100.0).round() as i64;
        if n < 0 {
            self.buf.push(b'-');
            n = -n;
        }
        let (int, frac) = (n / 100, n % 100);
        let _ = write!(self.buf, "{int}");
        if frac != 0 {
            self.buf.push(b'.');
            self.buf.push(b'0' + (frac / 10) as u8);
            if frac % 10 != 0 {
                self.buf.push(b'0' + (frac % 10) as u8);
            }
        }
        self.buf.push(b' ');
    }

    fn op(&mut self, op: &[u8]) {
        self.buf.extend_from_slice(op);
        self.buf.push(b'\n');
    }

    fn end_marked(&mut self) {
        if self.marked != Marked::None {
            self.op(b"EMC");
            self.marked = Marked::None;
        }
    }

    fn artifact(&mut self, kind: &'static [u8]) {
        if self.marked != Marked::Artifact(kind) {
            self.end_marked();
            self.buf.extend_from_slice(kind);
            self.marked = Marked::Artifact(kind);
        }
    }

    /// Opens the marked content of structure node `node`, with the text
    /// spelled out (`/ActualText`) when given.
    fn tagged(&mut self, node: usize, spelled: Option<&str>) {
        if spelled.is_none() && self.marked == Marked::Node(node) {
            return;
        }
        self.end_marked();
        let mcid = self.mcids.len();
        self.mcids.push(node);
        let _ = write!(self.buf, "/Span<</MCID {mcid}");
        if let Some(text) = spelled {
            self.buf.extend_from_slice(b"/ActualText");
            text_string(&mut self.buf, text);
            self.marked = Marked::Spelled;
        } else {
            self.marked = Marked::Node(node);
        }
        self.op(b">>BDC");
    }

    fn fill_gray(&mut self, gray: u8) {
        if self.fill != Some(gray) {
            let g = (gray as f32 / 255.0 * 1000.0).round() / 1000.0;
            let _ = writeln!(self.buf, "{g} g");
            self.fill = Some(gray);
        }
    }

    fn set_font(&mut self, style: Style) {
        let key = (style.face, style.size.to_bits());
        if self.font != Some(key) {
            self.buf.push(b'/');
            self.buf.extend_from_slice(FONT_NAMES[style.face as usize]);
            self.buf.push(b' ');
            self.num(style.size);
            self.op(b"Tf");
            self.font = Some(key);
        }
    }

    /// Draws a text with its baseline's start at (`x`, `y`) in the
    /// layout's coordinates (from the top left). Opens its marked content
    /// first (`mark`), once it knows whether the text must be spelled out.
    fn text(&mut self, x: f32, y: f32, text: &str, style: Style, rtl: bool, mark: Mark) {
        if text.is_empty() {
            return;
        }
        let face = style.face;
        let simple = !rtl && self.fonts.is_simple(text, face);
        if simple {
            match mark {
                Mark::Node(n) => self.tagged(n, None),
                Mark::Artifact(kind) => self.artifact(kind),
            }
            self.fill_gray(style.gray);
            self.op(b"BT");
            self.set_font(style);
            self.num(x);
            self.num(PAGE_H - y);
            self.op(b"Td");
            let uses = &mut self.uses[face as usize];
            let mut s = Vec::with_capacity(2 * text.len());
            for c in text.chars() {
                let old = self.fonts.simple_glyph(c, face).unwrap_or(0);
                if old == 0 {
                    self.notdef = true;
                }
                let id = uses.id_of_char(old, c);
                s.extend_from_slice(&id.to_be_bytes());
            }
            literal(&mut self.buf, &s);
            self.op(b" Tj");
            self.op(b"ET");
            return;
        }
        let glyphs = self.fonts.shaped(text, face, rtl);
        // Each glyph of the subset stands for one text; where one does not
        // (or stands for nothing), the piece carries its text as well.
        let mut ids = Vec::with_capacity(glyphs.len());
        // (Right-to-left glyphs come in visual order, as readers expect of
        // glyphs mapped one by one.)
        let mut plain = true;
        for g in glyphs.iter() {
            if g.id == 0 {
                self.notdef = true;
            }
            let (id, agrees) = self.uses[face as usize].id(g.id, &text[g.text.clone()]);
            plain &= agrees;
            ids.push(id);
        }
        match mark {
            Mark::Node(n) => self.tagged(n, (!plain).then_some(text)),
            // Artifacts are not read: the header's organisation name is
            // text like any other, but needs no spelling out.
            Mark::Artifact(kind) => self.artifact(kind),
        }
        self.fill_gray(style.gray);
        self.op(b"BT");
        self.set_font(style);
        let size = style.size;
        let base_y = PAGE_H - y;
        let moved = glyphs.iter().any(|g| g.dx != 0.0 || g.dy != 0.0);
        if moved {
            // Marks placed by the shaper: each glyph where it belongs.
            let mut pen = x;
            for (g, id) in glyphs.iter().zip(&ids) {
                self.op(b"1 0 0 1");
                self.buf.pop();
                self.buf.push(b' ');
                self.num(pen + g.dx * size);
                self.num(base_y + g.dy * size);
                self.op(b"Tm");
                literal(&mut self.buf, &id.to_be_bytes());
                self.op(b" Tj");
                pen += g.advance * size;
            }
        } else {
            // One string; where the shaper moved the pen otherwise than the
            // font's own advance, an adjustment between glyphs.
            self.num(x);
            self.num(base_y);
            self.op(b"Td");
            self.buf.push(b'[');
            let mut run: Vec<u8> = Vec::new();
            for (g, id) in glyphs.iter().zip(&ids) {
                run.extend_from_slice(&id.to_be_bytes());
                let own = self.fonts.advance(face, g.id);
                let adjust = (own - g.advance) * 1000.0;
                if adjust.abs() > 0.5 {
                    literal(&mut self.buf, &run);
                    run.clear();
                    let _ = write!(self.buf, "{}", adjust.round() as i32);
                }
            }
            if !run.is_empty() {
                literal(&mut self.buf, &run);
            }
            self.op(b"]TJ");
        }
        self.op(b"ET");
    }

    fn rect(&mut self, x: f32, y: f32, w: f32, h: f32, gray: u8) {
        self.artifact(LAYOUT);
        self.fill_gray(gray);
        self.num(x);
        self.num(PAGE_H - y - h);
        self.num(w);
        self.num(h);
        self.op(b"re f");
    }
}

/// Where a text belongs: to a structure node, or to an artifact.
#[derive(Clone, Copy)]
enum Mark {
    Node(usize),
    Artifact(&'static [u8]),
}

/// A PDF literal string of raw bytes (the glyph ids): only the
/// parentheses, the backslash and the carriage return are escaped.
fn literal(buf: &mut Vec<u8>, bytes: &[u8]) {
    buf.push(b'(');
    for &b in bytes {
        match b {
            b'(' | b')' | b'\\' => {
                buf.push(b'\\');
                buf.push(b);
            }
            b'\r' => buf.extend_from_slice(b"\\r"),
            _ => buf.push(b),
        }
    }
    buf.push(b')');
}

/// A PDF text string (UTF-16BE with its byte order mark), in hex.
fn text_string(buf: &mut Vec<u8>, text: &str) {
    buf.extend_from_slice(b"<FEFF");
    for unit in text.encode_utf16() {
        let _ = write!(buf, "{unit:04X}");
    }
    buf.push(b'>');
}

/// A page's rules, drawn at its end as one path per kind of line (a
/// table's grid is hundreds of lines a page).
#[derive(Default)]
struct Rules {
    paths: Vec<(RuleKind, Vec<Segment>)>,
}

/// A rule's width (its bits), grey and whether it is dotted.
type RuleKind = (u32, u8, bool);
/// From (x, y) to (x, y).
type Segment = (f32, f32, f32, f32);

impl Rules {
    fn add(&mut self, key: RuleKind, from: (f32, f32), to: (f32, f32)) {
        let i = match self.paths.iter().position(|(k, _)| *k == key) {
            Some(i) => i,
            None => {
                self.paths.push((key, Vec::new()));
                self.paths.len() - 1
            }
        };
        self.paths[i].1.push((from.0, from.1, to.0, to.1));
    }

    fn draw(self, c: &mut Content) {
        for ((width, gray, dotted), lines) in self.paths {
            c.artifact(LAYOUT);
            c.op(b"q");
            c.num(f32::from_bits(width));
            c.op(b"w");
            let _ = writeln!(
                c.buf,
                "{} G",
                (gray as f32 / 255.0 * 1000.0).round() / 1000.0
            );
            if dotted {
                c.op(b"[0.6 2.4] 0 d");
            }
            for (x0, y0, x1, y1) in lines {
                c.num(x0);
                c.num(PAGE_H - y0);
                c.op(b"m");
                c.num(x1);
                c.num(PAGE_H - y1);
                c.op(b"l");
            }
            c.op(b"S");
            c.op(b"Q");
        }
    }
}

/// The content stream of one page, with the structure node of each of its
/// marked-content ids.
#[allow(clippy::too_many_arguments)]
fn page_content(
    items: Vec<Item>,
    index: usize,
    total: usize,
    listed: &[usize],
    fonts: &Fonts,
    uses: &mut [FontUse; 3],
    meta: &Meta,
    notdef: &mut bool,
) -> (Vec<u8>, Vec<usize>) {
    let mut c = Content {
        buf: Vec::with_capacity(16 * 1024),
        fonts,
        uses,
        font: None,
        fill: None,
        marked: Marked::None,
        mcids: Vec::new(),
        notdef: false,
    };
    let mut rules = Rules::default();
    for item in items {
        match item {
            Item::Text {
                x,
                y,
                text,
                style,
                rtl,
                tag,
            } => {
                let mark = match tag {
                    Tag::Node(n) => Mark::Node(n),
                    Tag::Artifact => Mark::Artifact(PAGINATION),
                };
                c.text(x, y, &text, style, rtl, mark);
            }
            Item::PageOf {
                x,
                y,
                style,
                heading,
                tag,
            } => {
                let number = listed.get(heading).map_or(String::new(), |n| n.to_string());
                let w = fonts.width(&number, style);
                let mark = match tag {
                    Tag::Node(n) => Mark::Node(n),
                    Tag::Artifact => Mark::Artifact(PAGINATION),
                };
                c.text(x - w, y, &number, style, false, mark);
            }
            Item::Fill { x, y, w, h, gray } => c.rect(x, y, w, h, gray),
            Item::Rule {
                from,
                to,
                width,
                gray,
                dotted,
            } => rules.add((width.to_bits(), gray, dotted), from, to),
        }
    }
    rules.draw(&mut c);
    // Header (from the second page) and footer.
    if index > 0 {
        let y = TOP - 14.0;
        c.text(
            LEFT,
            y,
            &meta.header,
            HEADER,
            false,
            Mark::Artifact(PAGE_HEADER),
        );
        let w = fonts.width(&meta.title, HEADER);
        c.text(
            RIGHT - w,
            y,
            &meta.title,
            HEADER,
            false,
            Mark::Artifact(PAGE_HEADER),
        );
    }
    let y = BOTTOM + 26.0;
    c.text(
        LEFT,
        y,
        &meta.generated,
        HEADER,
        false,
        Mark::Artifact(PAGE_FOOTER),
    );
    let number = format!("{} {} / {}", meta.page, index + 1, total);
    let w = fonts.width(&number, HEADER);
    c.text(
        RIGHT - w,
        y,
        &number,
        HEADER,
        false,
        Mark::Artifact(PAGE_FOOTER),
    );
    c.end_marked();
    *notdef |= c.notdef;
    (c.buf, c.mcids)
}

fn deflate(data: &[u8]) -> Vec<u8> {
    let mut e = flate2::write::ZlibEncoder::new(
        Vec::with_capacity(data.len() / 3),
        flate2::Compression::new(DEFLATE_LEVEL),
    );
    e.write_all(data).expect("writing to memory");
    e.finish().expect("writing to memory")
}

/// Object numbers, handed out in order.
struct Refs(i32);

impl Refs {
    fn next(&mut self) -> Ref {
        self.0 += 1;
        Ref::new(self.0)
    }
}

/// The PDF of the laid-out document. It claims PDF/UA-1 unless a text
/// had a character none of the fonts has (drawn as `.notdef`, which the
/// standard does not allow).
pub fn pdf(doc: Doc, fonts: &Fonts, meta: &Meta) -> Vec<u8> {
    let Doc {
        pages,
        nodes,
        headings,
    } = doc;
    let total = pages.len();
    // The table of contents gives the page of each heading of levels 1
    // and 2.
    let listed: Vec<usize> = headings
        .iter()
        .filter(|h| h.level <= 2)
        .map(|h| h.page + 1)
        .collect();
    let mut uses = FACES.map(|f| FontUse::new(fonts.face(f).number_of_glyphs()));
    let mut notdef = false;
    // The structure node of each marked-content id, per page.
    let mut page_mcids: Vec<Vec<usize>> = Vec::with_capacity(total);

    // The pages' content, compressed by the other cores while this one
    // writes the next pages, then by this one too.
    let mut streams: Vec<Vec<u8>> = vec![Vec::new(); total];
    let (todo, jobs) = std::sync::mpsc::channel::<(usize, Vec<u8>)>();
    let jobs = std::sync::Mutex::new(jobs);
    let (done, results) = std::sync::mpsc::channel::<(usize, Vec<u8>)>();
    let work = |done: std::sync::mpsc::Sender<(usize, Vec<u8>)>| loop {
        let job = jobs.lock().expect("a job queue").recv();
        match job {
            Ok((i, raw)) => {
                let _ = done.send((i, deflate(&raw)));
            }
            Err(_) => break,
        }
    };
    std::thread::scope(|scope| {
        let helpers = std::thread::available_parallelism()
            .map_or(1, |n| n.get())
            .saturating_sub(1)
            .max(1);
        for _ in 0..helpers {
            let done = done.clone();
            let work = &work;
            scope.spawn(move || work(done));
        }
        for (index, page) in pages.into_iter().enumerate() {
            let (raw, mcids) = page_content(
                page.items,
                index,
                total,
                &listed,
                fonts,
                &mut uses,
                meta,
                &mut notdef,
            );
            page_mcids.push(mcids);
            let _ = todo.send((index, raw));
        }
        drop(todo);
        work(done);
        for (i, stream) in results.iter() {
            streams[i] = stream;
        }
    });

    let mut refs = Refs(0);
    let catalog = refs.next();
    let page_tree = refs.next();
    let struct_root = refs.next();
    let outline_root = refs.next();
    let metadata = refs.next();
    let info = refs.next();
    let resources = refs.next();
    let font_refs = FACES.map(|_| refs.next());
    let page_refs: Vec<Ref> = (0..total).map(|_| refs.next()).collect();
    let content_refs: Vec<Ref> = (0..total).map(|_| refs.next()).collect();
    let node_refs: Vec<Ref> = (0..nodes.len()).map(|_| refs.next()).collect();

    let mut pdf = Pdf::new();
    pdf.set_version(1, 7);

    // Pages.
    pdf.pages(page_tree)
        .kids(page_refs.iter().copied())
        .count(total as i32);
    for (i, stream) in streams.into_iter().enumerate() {
        let mut page = pdf.page(page_refs[i]);
        page.parent(page_tree)
            .media_box(Rect::new(0.0, 0.0, PAGE_W, PAGE_H))
            .contents(content_refs[i])
            .struct_parents(i as i32)
            .tab_order(pdf_writer::types::TabOrder::StructureOrder);
        page.insert(Name(b"Resources")).primitive(resources);
        page.finish();
        pdf.stream(content_refs[i], &stream)
            .filter(Filter::FlateDecode);
    }
    {
        let mut res = pdf.indirect(resources).dict();
        let mut font_dict = res.insert(Name(b"Font")).dict();
        for (i, r) in font_refs.iter().enumerate() {
            font_dict.pair(Name(FONT_NAMES[i]), *r);
        }
    }

    // Fonts, as subsets.
    for (i, face) in FACES.iter().enumerate() {
        write_font(&mut pdf, &mut refs, font_refs[i], *face, fonts, &uses[i]);
    }

    // The structure tree.
    write_structure(
        &mut pdf,
        struct_root,
        &nodes,
        &node_refs,
        &page_refs,
        &page_mcids,
        &meta.lang,
    );

    // The outline.
    write_outline(&mut pdf, &mut refs, outline_root, &headings, &page_refs);

    // Metadata.
    let ua = !notdef;
    let xmp = xmp(meta, ua);
    pdf.metadata(metadata, xmp.as_bytes());
    let created = date(meta.created);
    pdf.document_info(info)
        .title(TextStr(&meta.title))
        .author(TextStr(&meta.author))
        .creator(TextStr(&meta.creator))
        .producer(TextStr(&meta.creator))
        .creation_date(created)
        .modified_date(created);
    {
        let mut cat = pdf.catalog(catalog);
        cat.pages(page_tree)
            .outlines(outline_root)
            .page_mode(pdf_writer::types::PageMode::UseOutlines)
            .lang(TextStr(&meta.lang))
            .metadata(metadata);
        cat.insert(Name(b"StructTreeRoot")).primitive(struct_root);
        cat.mark_info().marked(true);
        cat.viewer_preferences().display_doc_title(true);
    }
    let id = file_id(meta, total);
    pdf.set_file_id((id.clone(), id));
    pdf.finish()
}

fn date(t: chrono::DateTime<chrono::Utc>) -> pdf_writer::Date {
    use chrono::{Datelike, Timelike};
    pdf_writer::Date::new(t.year() as u16)
        .month(t.month() as u8)
        .day(t.day() as u8)
        .hour(t.hour() as u8)
        .minute(t.minute() as u8)
        .second(t.second() as u8)
        .utc_offset_hour(0)
        .utc_offset_minute(0)
}

/// The file's identifier: the same for the same report made at the same
/// time (the PDF is otherwise byte for byte the same too).
fn file_id(meta: &Meta, pages: usize) -> Vec<u8> {
    use std::hash::{Hash, Hasher};
    let mut out = Vec::with_capacity(16);
    for salt in [0u8, 1] {
        let mut h = std::collections::hash_map::DefaultHasher::new();
        (salt, &meta.title, &meta.author, &meta.header, pages).hash(&mut h);
        meta.created.timestamp().hash(&mut h);
        out.extend_from_slice(&Hasher::finish(&h).to_be_bytes());
    }
    out
}

fn xmp(meta: &Meta, ua: bool) -> String {
    use chrono::{Datelike, Timelike};
    use xmp_writer::{DateTime, LangId, Timezone, XmpWriter};
    let t = meta.created;
    let when = DateTime::new(
        t.year() as u16,
        t.month() as u8,
        t.day() as u8,
        t.hour() as u8,
        t.minute() as u8,
        t.second() as u8,
        Timezone::Utc,
    );
    let mut x = XmpWriter::new();
    x.title([(Some(LangId("x-default")), meta.title.as_str())]);
    x.creator([meta.author.as_str()]);
    x.language([LangId(meta.lang.as_str())]);
    x.format("application/pdf");
    x.create_date(when);
    x.modify_date(when);
    x.creator_tool(&meta.creator);
    x.producer(&meta.creator);
    if ua {
        x.pdfua_part(1);
    }
    x.finish(None)
}

/// A subset of a face with what a reader needs to show and read it: a
/// CID font (Identity-H, the subset's glyph ids as CIDs), its widths and
/// descriptor, and a ToUnicode map.
fn write_font(pdf: &mut Pdf, refs: &mut Refs, id: Ref, face: Face, fonts: &Fonts, used: &FontUse) {
    let cid = refs.next();
    let descriptor = refs.next();
    let cmap_ref = refs.next();
    let file = refs.next();
    let f = fonts.face(face);
    let upem = f.units_per_em() as f32;
    let to_pdf = |v: f32| v / upem * 1000.0;

    let remapper = subsetter::GlyphRemapper::new_from_glyphs(&used.order);
    let subset = subsetter::subset(fonts.data(face), 0, &remapper).expect("an embedded font");
    // A subset's name starts with six capitals that tell its glyphs apart.
    let tag: String = {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        used.order.hash(&mut h);
        let mut n = Hasher::finish(&h);
        (0..6)
            .map(|_| {
                let c = (b'A' + (n % 26) as u8) as char;
                n /= 26;
                c
            })
            .collect()
    };
    let family = f
        .names()
        .into_iter()
        .find(|n| n.name_id == rustybuzz::ttf_parser::name_id::POST_SCRIPT_NAME && n.is_unicode())
        .and_then(|n| n.to_string())
        .unwrap_or_else(|| format!("aivet{}", face as u8));
    let name = format!("{tag}+{family}");

    pdf.type0_font(id)
        .base_font(Name(name.as_bytes()))
        .encoding_predefined(Name(b"Identity-H"))
        .descendant_font(cid)
        .to_unicode(cmap_ref);

    let system_info = SystemInfo {
        registry: Str(b"Adobe"),
        ordering: Str(b"Identity"),
        supplement: 0,
    };
    {
        let mut c = pdf.cid_font(cid);
        c.subtype(pdf_writer::types::CidFontType::Type2)
            .base_font(Name(name.as_bytes()))
            .system_info(system_info)
            .font_descriptor(descriptor)
            .default_width(0.0)
            .cid_to_gid_map_predefined(Name(b"Identity"));
        let mut widths = c.widths();
        for (new, old) in used.order.iter().enumerate() {
            let w = to_pdf(fonts.advance(face, *old) * upem);
            if w != 0.0 {
                widths.same(new as u16, new as u16, w);
            }
        }
    }

    let bbox = f.global_bounding_box();
    let mut flags = FontFlags::SYMBOLIC;
    if face == Face::Mono {
        flags |= FontFlags::FIXED_PITCH;
    }
    let cap = f.capital_height().unwrap_or(f.ascender()) as f32;
    pdf.font_descriptor(descriptor)
        .name(Name(name.as_bytes()))
        .flags(flags)
        .bbox(Rect::new(
            to_pdf(bbox.x_min as f32),
            to_pdf(bbox.y_min as f32),
            to_pdf(bbox.x_max as f32),
            to_pdf(bbox.y_max as f32),
        ))
        .italic_angle(f.italic_angle())
        .ascent(to_pdf(f.ascender() as f32))
        .descent(to_pdf(f.descender() as f32))
        .cap_height(to_pdf(cap))
        .stem_v(if face == Face::Bold { 120.0 } else { 80.0 })
        .font_file2(file);

    let data = deflate(&subset);
    pdf.stream(file, &data)
        .filter(Filter::FlateDecode)
        .pair(Name(b"Length1"), subset.len() as i32);

    let mut cmap = UnicodeCmap::new(Name(b"Custom"), system_info);
    for (new, text) in used.text.iter().enumerate().skip(1) {
        if !text.is_empty() {
            cmap.pair_with_multiple(new as u16, text.chars());
        }
    }
    let cmap = deflate(&cmap.finish());
    pdf.cmap(cmap_ref, &cmap).filter(Filter::FlateDecode);
}

fn role(kind: &Kind) -> StructRole {
    match kind {
        Kind::Document => StructRole::Document,
        Kind::P => StructRole::P,
        Kind::H(1, _) => StructRole::H1,
        Kind::H(2, _) => StructRole::H2,
        Kind::H(3, _) => StructRole::H3,
        Kind::H(4, _) => StructRole::H4,
        Kind::H(5, _) => StructRole::H5,
        Kind::H(_, _) => StructRole::H6,
        Kind::Table => StructRole::Table,
        Kind::Tr => StructRole::TR,
        Kind::Th => StructRole::TH,
        Kind::Td => StructRole::TD,
        Kind::Toc => StructRole::TOC,
        Kind::Toci => StructRole::TOCI,
    }
}

/// The structure tree: an element per node with content (node 0 is the
/// document), each with its children and its marked content in order,
/// and the parent tree that leads from each page's marked content back
/// to its element.
fn write_structure(
    pdf: &mut Pdf,
    root: Ref,
    nodes: &[Node],
    node_refs: &[Ref],
    page_refs: &[Ref],
    page_mcids: &[Vec<usize>],
    lang: &str,
) {
    // The marked content of each node: (page, mcid).
    let mut content: Vec<Vec<(usize, i32)>> = vec![Vec::new(); nodes.len()];
    for (page, mcids) in page_mcids.iter().enumerate() {
        for (mcid, node) in mcids.iter().enumerate() {
            content[*node].push((page, mcid as i32));
        }
    }
    // A node is written if it, or one of its children, has content.
    // Children come after their parent.
    let mut alive = vec![false; nodes.len()];
    for i in (0..nodes.len()).rev() {
        alive[i] = !content[i].is_empty() || nodes[i].children.iter().any(|c| alive[*c]);
    }
    let mut parent = vec![root; nodes.len()];
    for (i, n) in nodes.iter().enumerate() {
        for c in &n.children {
            parent[*c] = node_refs[i];
        }
    }
    {
        let mut tree = pdf.indirect(root).dict();
        tree.pair(Name(b"Type"), Name(b"StructTreeRoot"));
        tree.pair(Name(b"K"), node_refs[0]);
        tree.pair(Name(b"ParentTreeNextKey"), page_mcids.len() as i32);
        let mut parents = tree.insert(Name(b"ParentTree")).dict();
        let mut nums = parents.insert(Name(b"Nums")).array();
        for (page, mcids) in page_mcids.iter().enumerate() {
            nums.item(page as i32);
            nums.push()
                .array()
                .items(mcids.iter().map(|n| node_refs[*n]));
        }
    }
    for (i, node) in nodes.iter().enumerate() {
        if !alive[i] {
            continue;
        }
        let mut elem = pdf.struct_element(node_refs[i]);
        elem.kind(role(&node.kind)).parent(parent[i]);
        if i == 0 {
            elem.lang(TextStr(lang));
        }
        if let Kind::H(_, title) = &node.kind {
            elem.title(TextStr(title));
        }
        let home = content[i].first().map(|(p, _)| *p);
        if let Some(p) = home {
            elem.page(page_refs[p]);
        }
        if let Kind::Th = node.kind {
            elem.attributes()
                .push()
                .table()
                .scope(TableHeaderScope::Column);
        }
        let mut kids = elem.children();
        for c in node.children.iter().filter(|c| alive[**c]) {
            kids.struct_element(node_refs[*c]);
        }
        for (page, mcid) in &content[i] {
            if Some(*page) == home {
                kids.marked_content_id(*mcid);
            } else {
                kids.marked_content_ref()
                    .marked_content_id(*mcid)
                    .page(page_refs[*page]);
            }
        }
    }
}

/// The PDF's outline: the chapters (closed) and their sections.
fn write_outline(pdf: &mut Pdf, refs: &mut Refs, root: Ref, headings: &[Heading], pages: &[Ref]) {
    struct Entry<'h> {
        id: Ref,
        heading: &'h Heading,
        children: Vec<(Ref, &'h Heading)>,
    }
    let mut chapters: Vec<Entry> = Vec::new();
    for h in headings.iter().filter(|h| h.level <= 2) {
        let id = refs.next();
        match (h.level, chapters.last_mut()) {
            (2, Some(chapter)) => chapter.children.push((id, h)),
            _ => chapters.push(Entry {
                id,
                heading: h,
                children: Vec::new(),
            }),
        }
    }
    let mut outline = pdf.outline(root);
    if let (Some(first), Some(last)) = (chapters.first(), chapters.last()) {
        outline.first(first.id).last(last.id);
    }
    outline.count(chapters.len() as i32);
    outline.finish();
    let item = |pdf: &mut Pdf,
                id: Ref,
                h: &Heading,
                parent: Ref,
                prev: Option<Ref>,
                next: Option<Ref>,
                children: &[(Ref, &Heading)]| {
        let mut it = pdf.outline_item(id);
        it.title(TextStr(&h.text)).parent(parent);
        if let Some(p) = prev {
            it.prev(p);
        }
        if let Some(n) = next {
            it.next(n);
        }
        if let (Some(f), Some(l)) = (children.first(), children.last()) {
            it.first(f.0).last(l.0).count(-(children.len() as i32));
        }
        it.dest().page(pages[h.page]).xyz(LEFT, PAGE_H - h.y, None);
    };
    for (k, c) in chapters.iter().enumerate() {
        let prev = k.checked_sub(1).map(|p| chapters[p].id);
        let next = chapters.get(k + 1).map(|n| n.id);
        item(pdf, c.id, c.heading, root, prev, next, &c.children);
        for (j, (id, h)) in c.children.iter().enumerate() {
            let prev = j.checked_sub(1).map(|p| c.children[p].0);
            let next = c.children.get(j + 1).map(|n| n.0);
            item(pdf, *id, h, c.id, prev, next, &[]);
        }
    }
}
