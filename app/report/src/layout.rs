//! The pages of the report: one pass down the prepared report, placing
//! headings, label/value rows, tables and the answers on A4 pages, with
//! the structure (headings, paragraphs, tables) that the PDF's tags carry.
//!
//! Nothing here draws: a page is a list of positioned items, written out
//! by `write.rs` once the number of pages (for "page x / y") and each
//! heading's page (for the table of contents) are known.

use crate::text::{self, Face, Fonts, Line, Style};
use crate::view::{Row, Table, View};

const MM: f32 = 72.0 / 25.4;
pub const PAGE_W: f32 = 210.0 * MM;
pub const PAGE_H: f32 = 297.0 * MM;
pub const LEFT: f32 = 16.0 * MM;
pub const RIGHT: f32 = PAGE_W - 16.0 * MM;
pub const TOP: f32 = 18.0 * MM;
pub const BOTTOM: f32 = PAGE_H - 20.0 * MM;
const WIDTH: f32 = RIGHT - LEFT;

const BODY: Style = Style::new(Face::Regular, 8.5, 0);
const BOLD: Style = Style::new(Face::Bold, 8.5, 0);
const LABEL: Style = Style::new(Face::Regular, 8.5, 60);
const NOTE: Style = Style::new(Face::Regular, 7.5, 70);
const QUIET: Style = Style::new(Face::Regular, 8.5, 80);
const MONO: Style = Style::new(Face::Mono, 7.5, 0);
/// Heading sizes by level, and the space above and below them (in ems).
const HEADINGS: [(f32, f32, f32); 4] = [
    (14.0, 0.0, 0.9),
    (11.5, 1.4, 0.7),
    (9.5, 1.1, 0.6),
    (8.5, 0.9, 0.5),
];
/// Space between blocks (1.2 em of the body text).
const GAP: f32 = 1.2 * 8.5;
/// The label column of label/value rows.
const LABEL_W: f32 = 55.0 * MM;

/// Where a text belongs in the document's structure.
#[derive(Clone, Copy, Debug)]
pub enum Tag {
    /// Content of this structure node.
    Node(usize),
    /// Not content (a repeated table header).
    Artifact,
}

#[derive(Debug)]
pub enum Item {
    /// A piece of text; `y` is its baseline.
    Text {
        x: f32,
        y: f32,
        text: String,
        style: Style,
        rtl: bool,
        tag: Tag,
    },
    /// The page of a heading, right-aligned at `x` (the table of contents).
    PageOf {
        x: f32,
        y: f32,
        style: Style,
        heading: usize,
        tag: Tag,
    },
    Fill {
        x: f32,
        y: f32,
        w: f32,
        h: f32,
        gray: u8,
    },
    Rule {
        from: (f32, f32),
        to: (f32, f32),
        width: f32,
        gray: u8,
        dotted: bool,
    },
}

#[derive(Default, Debug)]
pub struct Page {
    pub items: Vec<Item>,
}

/// The structure the tags carry.
#[derive(Debug, Clone)]
pub enum Kind {
    Document,
    P,
    H(u16, String),
    Table,
    Tr,
    Th,
    Td,
    Toc,
    Toci,
}

#[derive(Debug)]
pub struct Node {
    pub kind: Kind,
    pub children: Vec<usize>,
}

#[derive(Debug)]
pub struct Heading {
    pub level: usize,
    /// "2.14 Chat assistant", as printed.
    pub text: String,
    pub page: usize,
    pub y: f32,
}

pub struct Doc {
    pub pages: Vec<Page>,
    /// Node 0 is the document.
    pub nodes: Vec<Node>,
    pub headings: Vec<Heading>,
}

/// A table's column: where it starts and how wide it is.
#[derive(Clone, Copy)]
struct Col {
    x: f32,
    w: f32,
}

/// How wide a column is.
#[derive(Clone, Copy)]
enum W {
    Fr(f32),
    Pct(f32),
}

use W::{Fr, Pct};

fn columns(widths: &[W], n: usize) -> Vec<Col> {
    let widths: Vec<W> = if widths.len() == n {
        widths.to_vec()
    } else {
        vec![Fr(1.0); n]
    };
    let fixed: f32 = widths
        .iter()
        .map(|w| {
            if let Pct(p) = w {
                p / 100.0 * WIDTH
            } else {
                0.0
            }
        })
        .sum();
    let frs: f32 = widths
        .iter()
        .map(|w| if let Fr(f) = w { *f } else { 0.0 })
        .sum();
    let per_fr = if frs > 0.0 {
        (WIDTH - fixed).max(0.0) / frs
    } else {
        0.0
    };
    let mut x = LEFT;
    widths
        .iter()
        .map(|w| {
            let w = match w {
                Fr(f) => f * per_fr,
                Pct(p) => p / 100.0 * WIDTH,
            };
            let col = Col { x, w };
            x += w;
            col
        })
        .collect()
}

const CELL_X: f32 = 3.5;
const CELL_Y: f32 = 3.0;
const TABLE_GRAY: u8 = 190;

/// A table header, kept to be repeated on the pages the table runs over.
struct Header {
    cols: Vec<Col>,
    cells: Vec<Vec<Line>>,
    height: f32,
}

struct Flow<'f> {
    fonts: &'f Fonts,
    pages: Vec<Page>,
    y: f32,
    nodes: Vec<Node>,
    headings: Vec<Heading>,
    numbers: [usize; 4],
    /// The left bar of an answer block: its x and where it started on
    /// this page.
    bar: Option<(f32, f32)>,
    /// The header of the table being laid out.
    header: Option<Header>,
    /// The vertical rules of the table being laid out, and where they
    /// start on this page: drawn once per page, not per row.
    grid: Option<(Vec<f32>, f32)>,
    /// The headings placed last, with nothing after them yet: they go
    /// with what follows them to the next page.
    fresh: Option<Fresh>,
}

/// Headings at the foot of what is laid out so far.
struct Fresh {
    page: usize,
    /// Where their items start on the page, and their top.
    items_from: usize,
    top: f32,
    /// Their entries in `Flow::headings`.
    headings: Vec<usize>,
}

impl<'f> Flow<'f> {
    fn new(fonts: &'f Fonts) -> Self {
        Flow {
            fonts,
            pages: vec![Page::default()],
            y: TOP,
            nodes: vec![Node {
                kind: Kind::Document,
                children: Vec::new(),
            }],
            headings: Vec::new(),
            numbers: [0; 4],
            bar: None,
            header: None,
            grid: None,
            fresh: None,
        }
    }

    fn page(&mut self) -> &mut Page {
        self.pages.last_mut().expect("a page")
    }

    fn push(&mut self, item: Item) {
        self.fresh = None;
        self.page().items.push(item);
    }

    fn node(&mut self, parent: usize, kind: Kind) -> usize {
        let id = self.nodes.len();
        self.nodes.push(Node {
            kind,
            children: Vec::new(),
        });
        self.nodes[parent].children.push(id);
        id
    }

    fn at_top(&self) -> bool {
        self.y <= TOP + 0.01
    }

    fn new_page(&mut self) {
        if let Some((x, top)) = self.bar {
            let y = self.y;
            self.bar_rule(x, top, y);
        }
        self.close_grid();
        if let Some((_, top)) = self.grid.as_mut() {
            *top = TOP;
        }
        self.pages.push(Page::default());
        self.y = TOP;
        if let Some((x, _)) = self.bar {
            self.bar = Some((x, TOP));
        }
        if let Some(header) = self.header.take() {
            self.header_row(&header, None);
            self.header = Some(header);
        }
    }

    /// Starts a new page unless `h` points fit on this one.
    fn ensure(&mut self, h: f32) {
        if self.y + h > BOTTOM && !self.at_top() {
            self.break_page();
        }
    }

    /// Starts a new page for what comes next, taking the headings just
    /// placed along (unless they head the page already).
    fn break_page(&mut self) {
        let last = self.pages.len() - 1;
        let fresh = self
            .fresh
            .take()
            .filter(|f| f.page == last && f.top > TOP + 0.01);
        let end = self.y;
        self.new_page();
        let Some(mut f) = fresh else {
            return;
        };
        let moved = self.pages[f.page].items.split_off(f.items_from);
        let dy = TOP - f.top;
        let page = self.pages.len() - 1;
        let items_from = self.page().items.len();
        for mut item in moved {
            if let Item::Text { y, .. } | Item::PageOf { y, .. } = &mut item {
                *y += dy;
            }
            self.push(item);
        }
        for h in &f.headings {
            self.headings[*h].page = page;
            self.headings[*h].y += dy;
        }
        self.y = TOP + (end - f.top);
        f.page = page;
        f.items_from = items_from;
        f.top = TOP;
        self.fresh = Some(f);
    }

    fn space(&mut self, dy: f32) {
        if !self.at_top() {
            self.y += dy;
        }
    }

    fn lines(&self, spans: &[(&str, Style)], width: f32, hanging: f32) -> Vec<Line> {
        self.fonts.lines(spans, width, hanging)
    }

    /// Places lines at `x`, starting new pages as needed.
    fn place(&mut self, lines: &[Line], x: f32, tag: Tag) {
        for line in lines {
            self.ensure(line.height);
            let top = self.y;
            self.draw_line(line, x, top, tag);
            self.y += line.height;
        }
    }

    fn draw_line(&mut self, line: &Line, x: f32, top: f32, tag: Tag) {
        for piece in &line.pieces {
            self.push(Item::Text {
                x: x + line.indent + piece.x,
                y: top + line.baseline,
                text: piece.text.clone(),
                style: piece.style,
                rtl: piece.rtl,
                tag,
            });
        }
    }

    fn paragraph(&mut self, parent: usize, spans: &[(&str, Style)], x: f32, width: f32) {
        let lines = self.lines(spans, width, 0.0);
        let p = self.node(parent, Kind::P);
        self.place(&lines, x, Tag::Node(p));
    }

    /// A heading and the table under it, kept together: the heading goes
    /// to the next page with the table's header and first row.
    fn section(&mut self, level: usize, title: &str, t: &Table, widths: &[W]) {
        let keep = self.table_start(t, widths);
        self.heading_keeping(level, title, keep);
        self.table(t, widths);
    }

    /// The height a table needs at least where it starts: its header and
    /// its first row (or four lines of it), or its "none" line.
    fn table_start(&self, t: &Table, widths: &[W]) -> f32 {
        let line = BODY.size * text::LINE_EM;
        let Some(first) = t.rows.first() else {
            return line;
        };
        let cols = columns(widths, t.head.len());
        let tallest = |cells: Vec<Vec<Line>>| {
            cells.iter().map(|l| text::height(l)).fold(0.0, f32::max) + 2.0 * CELL_Y
        };
        let head = tallest(
            t.head
                .iter()
                .zip(&cols)
                .map(|(h, c)| self.lines(&[(h, BOLD)], c.w - 2.0 * CELL_X, 0.0))
                .collect(),
        );
        head + tallest(self.body_cells(first, &cols)).min(4.0 * line)
    }

    fn heading(&mut self, level: usize, title: &str) {
        self.heading_keeping(level, title, 0.0);
    }

    /// A heading with room for at least `keep` points (and a few lines)
    /// under it on its page.
    fn heading_keeping(&mut self, level: usize, title: &str, keep: f32) {
        let (size, above, below) = HEADINGS[level - 1];
        if level == 1 {
            if !self.at_top() {
                self.new_page();
            }
        } else {
            self.space(above * size);
        }
        self.numbers[level - 1] += 1;
        for n in &mut self.numbers[level..] {
            *n = 0;
        }
        let number = self.numbers[..level]
            .iter()
            .map(|n| n.to_string())
            .collect::<Vec<_>>()
            .join(".");
        let text = format!("{number} {}", text::visible(title));
        let style = Style::new(Face::Bold, size, 0);
        let lines = self.lines(&[(&text, style)], WIDTH, 0.0);
        // Not alone at the bottom of a page: with room for a few lines (and
        // for the heading that follows a chapter's or a service's).
        let after = if level <= 2 { 8.0 } else { 4.0 };
        let after = (after * BODY.size * text::LINE_EM).max(keep);
        self.ensure(text::height(&lines) + below * size + after);
        let page = self.pages.len() - 1;
        let chain = self.fresh.take().filter(|f| f.page == page);
        let (items_from, top) = (self.page().items.len(), self.y);
        self.headings.push(Heading {
            level,
            text: text.clone(),
            page,
            y: self.y,
        });
        let h = self.node(0, Kind::H(level as u16, text.clone()));
        self.place(&lines, LEFT, Tag::Node(h));
        self.y += below * size;
        let index = self.headings.len() - 1;
        self.fresh = Some(match chain {
            Some(mut f) => {
                f.headings.push(index);
                f
            }
            None => Fresh {
                page,
                items_from,
                top,
                headings: vec![index],
            },
        });
    }

    fn bar_rule(&mut self, x: f32, from: f32, to: f32) {
        if to > from {
            self.push(Item::Rule {
                from: (x, from),
                to: (x, to),
                width: 1.2,
                gray: 170,
                dotted: false,
            });
        }
    }

    /// Label/value rows, a line each: the value beside its label, wrapped
    /// lines under the value.
    fn facts(&mut self, rows: &[Row]) {
        for [label, value] in rows {
            let labels = self.lines(&[(label, LABEL)], LABEL_W - 8.0, 0.0);
            let values = self.lines(&[(value, BODY)], WIDTH - LABEL_W - 8.0, 0.0);
            let p = self.node(0, Kind::P);
            let cells = [
                (LEFT + 4.0, labels, Tag::Node(p)),
                (LEFT + LABEL_W + 4.0, values, Tag::Node(p)),
            ];
            self.row(&cells, 3.5, 200);
        }
    }

    /// One row of cells (x, lines, tag), `inset` above and below, with a
    /// rule below (a table's vertical rules are its grid's). A row taller than
    /// what is left of the page goes to the next page, or, if it is
    /// taller than a page, is split between lines.
    fn row(&mut self, cells: &[(f32, Vec<Line>, Tag)], inset: f32, gray: u8) {
        let h = cells
            .iter()
            .map(|(_, l, _)| text::height(l))
            .fold(0.0, f32::max)
            + 2.0 * inset;
        if self.y + h > BOTTOM && !self.at_top() && self.header_h() + h <= BOTTOM - TOP {
            self.break_page();
        }
        let mut top = self.y;
        let mut y = top + inset;
        let slots = cells.iter().map(|(_, l, _)| l.len()).max().unwrap_or(0);
        for i in 0..slots {
            let slot = cells
                .iter()
                .filter_map(|(_, l, _)| l.get(i).map(|l| l.height))
                .fold(0.0, f32::max);
            if y + slot + inset > BOTTOM && y > top + inset + 0.01 {
                self.row_rule(y + inset, gray);
                self.y = y + inset;
                self.new_page();
                top = self.y;
                y = top + inset;
            }
            for (x, lines, tag) in cells {
                if let Some(line) = lines.get(i) {
                    self.draw_line(line, *x, y, *tag);
                }
            }
            y += slot;
        }
        self.row_rule(y + inset, gray);
        self.y = y + inset;
    }

    fn row_rule(&mut self, y: f32, gray: u8) {
        self.push(Item::Rule {
            from: (LEFT, y),
            to: (RIGHT, y),
            width: 0.4,
            gray,
            dotted: false,
        });
    }

    /// Draws the table's vertical rules from where they started on this
    /// page down to here.
    fn close_grid(&mut self) {
        if let Some((xs, top)) = self.grid.take() {
            let y = self.y;
            if y > top {
                for x in &xs {
                    self.push(Item::Rule {
                        from: (*x, top),
                        to: (*x, y),
                        width: 0.4,
                        gray: TABLE_GRAY,
                        dotted: false,
                    });
                }
            }
            self.grid = Some((xs, top));
        }
    }

    fn header_h(&self) -> f32 {
        self.header.as_ref().map_or(0.0, |h| h.height)
    }

    /// A table's header row; tagged when it is the first (`tags`), an
    /// artifact where it is repeated.
    fn header_row(&mut self, header: &Header, tags: Option<&[usize]>) {
        let top = self.y;
        self.push(Item::Fill {
            x: LEFT,
            y: top,
            w: WIDTH,
            h: header.height,
            gray: 235,
        });
        self.push(Item::Rule {
            from: (LEFT, top),
            to: (RIGHT, top),
            width: 0.4,
            gray: TABLE_GRAY,
            dotted: false,
        });
        for (i, (col, lines)) in header.cols.iter().zip(&header.cells).enumerate() {
            let tag = tags.map_or(Tag::Artifact, |t| Tag::Node(t[i]));
            let mut y = top + CELL_Y;
            for line in lines {
                self.draw_line(line, col.x + CELL_X, y, tag);
                y += line.height;
            }
        }
        self.row_rule(top + header.height, TABLE_GRAY);
        self.y = top + header.height;
    }

    fn table(&mut self, t: &Table, widths: &[W]) {
        if t.rows.is_empty() {
            self.paragraph(0, &[(&t.empty, QUIET)], LEFT, WIDTH);
            self.y += GAP / 2.0;
            return;
        }
        let cols = columns(widths, t.head.len());
        let cells: Vec<Vec<Line>> = t
            .head
            .iter()
            .zip(&cols)
            .map(|(h, c)| self.lines(&[(h, BOLD)], c.w - 2.0 * CELL_X, 0.0))
            .collect();
        let height = cells.iter().map(|l| text::height(l)).fold(0.0, f32::max) + 2.0 * CELL_Y;
        let header = Header {
            cols: cols.clone(),
            cells,
            height,
        };
        let table = self.node(0, Kind::Table);
        let tr = self.node(table, Kind::Tr);
        let ths: Vec<usize> = (0..cols.len()).map(|_| self.node(tr, Kind::Th)).collect();
        // The header with at least the first row, or a few lines of it.
        let first = self.body_cells(&t.rows[0], &cols);
        let first_h = first.iter().map(|l| text::height(l)).fold(0.0, f32::max) + 2.0 * CELL_Y;
        self.ensure(height + first_h.min(4.0 * BODY.size * text::LINE_EM));
        self.grid = Some((verticals(&cols), self.y));
        self.header_row(&header, Some(&ths));
        self.header = Some(header);
        let mut next = Some(first);
        for (i, _) in t.rows.iter().enumerate() {
            let lines = next
                .take()
                .unwrap_or_else(|| self.body_cells(&t.rows[i], &cols));
            let tr = self.node(table, Kind::Tr);
            let cells: Vec<(f32, Vec<Line>, Tag)> = lines
                .into_iter()
                .zip(&cols)
                .map(|(l, c)| (c.x + CELL_X, l, Tag::Node(self.node(tr, Kind::Td))))
                .collect();
            self.row(&cells, CELL_Y, TABLE_GRAY);
        }
        self.close_grid();
        self.grid = None;
        self.header = None;
        self.y += GAP / 2.0;
    }

    fn body_cells(&self, row: &[String], cols: &[Col]) -> Vec<Vec<Line>> {
        cols.iter()
            .enumerate()
            .map(|(i, c)| {
                let value = row.get(i).map_or("", String::as_str);
                self.lines(&[(value, BODY)], c.w - 2.0 * CELL_X, 0.0)
            })
            .collect()
    }

    fn quiet(&mut self, text: &str) {
        self.paragraph(0, &[(text, QUIET)], LEFT, WIDTH);
        self.y += GAP / 2.0;
    }
}

fn verticals(cols: &[Col]) -> Vec<f32> {
    let mut xs: Vec<f32> = cols.iter().map(|c| c.x).collect();
    xs.push(RIGHT);
    xs
}

/// The titles of the table of contents (levels 1 and 2), in the order the
/// headings come.
fn contents(v: &View) -> Vec<(usize, String)> {
    let l = &v.labels;
    let mut out = vec![(1, l.summary.clone())];
    for s in [
        &l.by_status,
        &l.by_assessment,
        &l.open_requests,
        &l.overdue,
        &l.no_answer,
        &l.open_incidents,
        &l.advisories,
    ] {
        out.push((2, s.clone()));
    }
    out.push((1, l.services.clone()));
    out.extend(v.services.iter().map(|s| (2, s.name.clone())));
    out.push((1, l.incidents.clone()));
    out.extend(v.incidents.iter().map(|i| (2, i.title.clone())));
    out.push((1, l.vendors.clone()));
    out.push((1, l.appendix.clone()));
    for s in [&l.mails, &l.answers, &l.audit] {
        out.push((2, s.clone()));
    }
    // Numbered as the headings will be.
    let mut numbers = [0usize; 2];
    out.into_iter()
        .map(|(level, title)| {
            numbers[level - 1] += 1;
            if level == 1 {
                numbers[1] = 0;
            }
            let number = numbers[..level]
                .iter()
                .map(|n| n.to_string())
                .collect::<Vec<_>>()
                .join(".");
            (level, format!("{number} {}", text::visible(&title)))
        })
        .collect()
}

/// Lays out the whole report.
pub fn layout(v: &View, fonts: &Fonts) -> Doc {
    let mut f = Flow::new(fonts);
    let l = &v.labels;

    // Cover.
    let org = v.cover.first().map_or("", |r| r[1].as_str());
    let title = f.lines(&[(&v.title, Style::new(Face::Bold, 20.0, 0))], WIDTH, 0.0);
    let h = f.node(0, Kind::H(1, v.title.clone()));
    f.y += 12.0 * MM;
    f.place(&title, LEFT, Tag::Node(h));
    f.y += 4.0 * MM;
    f.paragraph(0, &[(org, Style::new(Face::Regular, 13.0, 0))], LEFT, WIDTH);
    f.y += 6.0 * MM;
    f.facts(&v.cover);
    f.y += 6.0 * MM;
    hash_box(&mut f, v);
    f.y += 8.0 * MM;
    table_of_contents(&mut f, v);

    // Summary.
    f.heading(1, &l.summary);
    f.facts(&v.summary.figures);
    let s = &v.summary;
    f.section(2, &l.by_status, &s.by_status, &[Fr(1.0), Pct(25.0)]);
    f.section(2, &l.by_assessment, &s.by_assessment, &[Fr(1.0), Pct(25.0)]);
    f.section(2, &l.open_requests, &s.open_requests, &[]);
    f.section(2, &l.overdue, &s.overdue, &[]);
    f.section(2, &l.no_answer, &s.no_answer, &[]);
    f.section(
        2,
        &l.open_incidents,
        &s.open_incidents,
        &[Pct(28.0), Pct(18.0), Fr(1.0)],
    );
    f.section(
        2,
        &l.advisories,
        &s.advisory_hits,
        &[Pct(20.0), Fr(1.0), Pct(16.0), Pct(22.0)],
    );

    // Services.
    f.heading(1, &l.services);
    for s in &v.services {
        f.heading(2, &s.name);
        f.heading(3, &l.facts);
        f.facts(&s.facts);
        f.section(3, &l.supply_chain, &s.supply_chain, &[]);
        f.section(
            3,
            &l.findings,
            &s.findings,
            &[Pct(16.0), Pct(14.0), Fr(1.0), Pct(24.0), Pct(12.0)],
        );
        f.heading(3, &l.questions);
        if s.requests.is_empty() {
            f.quiet(&l.none);
        }
        for r in &s.requests {
            f.heading(4, &r.title);
            f.facts(&r.facts);
            for i in &r.items {
                answer_block(&mut f, v, i);
            }
            if !r.attachments.rows.is_empty() {
                f.space(GAP / 2.0);
                f.paragraph(0, &[(&l.attachments, BOLD)], LEFT, WIDTH);
                f.table(
                    &r.attachments,
                    &[Fr(1.0), Pct(18.0), Pct(12.0), Pct(17.0), Pct(17.0)],
                );
            }
        }
        f.heading(3, &l.decision);
        f.facts(&s.decision);
        f.section(
            3,
            &l.clearance,
            &s.clearance,
            &[Pct(20.0), Fr(1.0), Pct(22.0), Pct(12.0), Pct(18.0)],
        );
        f.section(
            3,
            &l.linked_incidents,
            &s.incidents,
            &[Fr(1.0), Pct(15.0), Pct(20.0)],
        );
        f.section(3, &l.advisories, &s.advisories, &[Fr(1.0), Pct(28.0)]);
        f.section(
            3,
            &l.follow_ups,
            &s.follow_ups,
            &[
                Pct(15.0),
                Pct(12.0),
                Pct(13.0),
                Pct(14.0),
                Fr(1.0),
                Pct(16.0),
            ],
        );
        f.section(
            3,
            &l.timeline,
            &s.timeline,
            &[Pct(17.0), Pct(20.0), Fr(1.0)],
        );
    }

    // Incidents.
    f.heading(1, &l.incidents);
    f.paragraph(0, &[(&l.incidents_lead, LABEL)], LEFT, WIDTH);
    f.y += GAP / 2.0;
    if v.incidents.is_empty() {
        f.quiet(&l.none);
    }
    for i in &v.incidents {
        f.heading(2, &i.title);
        f.facts(&i.facts);
        f.heading(3, &l.art33);
        f.facts(&i.art33);
        f.heading(3, &l.art34);
        f.facts(&i.art34);
        f.section(
            3,
            &l.incident_timeline,
            &i.timeline,
            &[Pct(17.0), Pct(20.0), Fr(1.0)],
        );
    }

    // Vendors.
    f.section(
        1,
        &l.vendors,
        &v.vendors,
        &[Pct(20.0), Pct(17.0), Fr(1.0), Fr(1.0)],
    );

    // Appendix.
    f.heading(1, &l.appendix);
    f.section(
        2,
        &l.mails,
        &v.mails,
        &[
            Pct(13.0),
            Pct(13.0),
            Pct(18.0),
            Fr(1.0),
            Pct(22.0),
            Pct(10.0),
        ],
    );
    f.section(2, &l.answers, &v.answers, &[]);
    f.section(2, &l.audit, &v.audit, &[Pct(17.0), Pct(20.0), Fr(1.0)]);

    Doc {
        pages: f.pages,
        nodes: f.nodes,
        headings: f.headings,
    }
}

fn hash_box(f: &mut Flow, v: &View) {
    let inner = WIDTH - 16.0;
    let head = f.lines(&[("SHA-256", BOLD)], inner, 0.0);
    let hash = f.lines(&[(&v.hash, MONO)], inner, 0.0);
    let note = f.lines(&[(&v.hash_note, NOTE)], inner, 0.0);
    let h = text::height(&head) + text::height(&hash) + 2.0 + text::height(&note) + 16.0;
    f.ensure(h);
    let top = f.y;
    f.push(Item::Fill {
        x: LEFT,
        y: top,
        w: WIDTH,
        h,
        gray: 245,
    });
    f.y += 8.0;
    let p = f.node(0, Kind::P);
    f.place(&head, LEFT + 8.0, Tag::Node(p));
    f.place(&hash, LEFT + 8.0, Tag::Node(p));
    f.y += 2.0;
    let p = f.node(0, Kind::P);
    f.place(&note, LEFT + 8.0, Tag::Node(p));
    f.y = top + h;
}

/// The table of contents: level-1 entries in bold, level 2 indented, the
/// page numbers right-aligned behind dotted leaders.
fn table_of_contents(f: &mut Flow, v: &View) {
    let title = f.lines(
        &[(&v.labels.contents, Style::new(Face::Bold, 14.0, 0))],
        WIDTH,
        0.0,
    );
    f.ensure(text::height(&title) + 40.0);
    let h = f.node(0, Kind::H(1, v.labels.contents.clone()));
    f.place(&title, LEFT, Tag::Node(h));
    f.y += 0.6 * 14.0;
    let toc = f.node(0, Kind::Toc);
    const NUMBER_W: f32 = 28.0;
    for (k, (level, text)) in contents(v).into_iter().enumerate() {
        let (style, indent) = if level == 1 {
            (BOLD, 0.0)
        } else {
            (BODY, 12.0)
        };
        if level == 1 {
            f.space(4.0);
        }
        let lines = f.lines(&[(&text, style)], WIDTH - indent - NUMBER_W - 6.0, 0.0);
        let item = f.node(toc, Kind::Toci);
        f.place(&lines, LEFT + indent, Tag::Node(item));
        let last = lines.last();
        let end = last.map_or(0.0, |l| {
            l.pieces
                .last()
                .map_or(0.0, |p| p.x + f.fonts.width(&p.text, p.style))
        });
        let baseline = f.y - last.map_or(0.0, |l| l.height - l.baseline);
        f.push(Item::Rule {
            from: (LEFT + indent + end + 4.0, baseline),
            to: (RIGHT - NUMBER_W + 2.0, baseline),
            width: 0.6,
            gray: 150,
            dotted: true,
        });
        f.push(Item::PageOf {
            x: RIGHT,
            y: baseline,
            style,
            heading: k,
            tag: Tag::Node(item),
        });
        f.y += 1.0;
    }
}

/// A question with its answer and review, behind a grey bar.
fn answer_block(f: &mut Flow, v: &View, i: &crate::view::Item) {
    let l = &v.labels;
    let x = LEFT + 6.0;
    let w = WIDTH - 6.0;
    f.space(0.8 * BODY.size);
    let question = format!("{}. {}", i.number, i.question);
    let q = f.lines(&[(&question, BOLD)], w, 0.0);
    f.ensure(text::height(&q) + 2.0 * BODY.size * text::LINE_EM);
    f.bar = Some((LEFT, f.y));
    let p = f.node(0, Kind::P);
    f.place(&q, x, Tag::Node(p));
    let why = format!("{}: {}", l.why, i.why);
    f.paragraph(0, &[(&why, NOTE)], x, w);
    if !i.earlier_answer.is_empty() {
        let earlier = format!("{}: {}", l.earlier_answer, i.earlier_answer);
        f.paragraph(0, &[(&earlier, NOTE)], x, w);
    }
    f.y += 2.0;
    let answer = format!("{}: ", l.answer);
    f.paragraph(0, &[(&answer, LABEL), (&i.answer, BODY)], x, w);
    let review = format!("{}: ", l.review);
    f.paragraph(0, &[(&review, LABEL), (&i.review, BODY)], x, w);
    if let Some((bx, top)) = f.bar.take() {
        let y = f.y;
        f.bar_rule(bx, top, y);
    }
    f.y += 0.6 * BODY.size;
}

#[cfg(test)]
mod tests {
    use super::*;
    use aivet_domain::report::{example, example_with_services};
    use aivet_domain::report_view::view;
    use aivet_domain::Lang;

    fn laid_out(report: &aivet_domain::report::Report) -> Doc {
        let json = serde_json::to_vec(&view(report, Lang::En)).unwrap();
        let v: View = serde_json::from_slice(&json).unwrap();
        layout(&v, crate::text::fonts())
    }

    fn texts(page: &Page) -> impl Iterator<Item = (f32, f32, &str, Style, Tag)> {
        page.items.iter().filter_map(|i| match i {
            Item::Text {
                x,
                y,
                text,
                style,
                tag,
                ..
            } => Some((*x, *y, text.as_str(), *style, *tag)),
            _ => None,
        })
    }

    #[test]
    fn every_text_stays_within_the_margins_even_an_answer_longer_than_a_page() {
        // One text of about 6,000 words, in every field: rows, table cells
        // and answers taller than a page are split between their lines.
        let huge = "Lorem ipsum dolor sit amet ".repeat(1_500);
        let doc = laid_out(&example("Org", &huge));
        assert!(doc.pages.len() > 40, "{} pages", doc.pages.len());
        let fonts = crate::text::fonts();
        for (n, page) in doc.pages.iter().enumerate() {
            for (x, y, text, style, _) in texts(page) {
                let right = x + fonts.width(text, style);
                // The top of the line's box (its baseline lies
                // BASELINE_EM below it) and its baseline within the page.
                let line_top = y - crate::text::BASELINE_EM * style.size;
                assert!(
                    line_top >= TOP - 0.01 && y <= BOTTOM + 0.01,
                    "page {n}: {text:?} at y = {y}"
                );
                assert!(
                    x >= LEFT - 0.01 && right <= RIGHT + 0.01,
                    "page {n}: {text:?} from {x} to {right}"
                );
            }
        }
    }

    #[test]
    fn a_table_that_runs_over_pages_repeats_its_header_there_as_an_artifact() {
        let doc = laid_out(&example_with_services(60));
        let repeated: Vec<&Page> = doc
            .pages
            .iter()
            .filter(|p| texts(p).any(|(.., tag)| matches!(tag, Tag::Artifact)))
            .collect();
        assert!(!repeated.is_empty());
        // On each such page the repeated header comes first, at the top.
        for page in repeated {
            let (_, y, _, _, tag) = texts(page).next().unwrap();
            assert!(matches!(tag, Tag::Artifact));
            assert!(y < TOP + 20.0);
        }
        // The header is tagged once, where the table starts: every TH has
        // its text.
        let ths = doc
            .nodes
            .iter()
            .enumerate()
            .filter(|(_, n)| matches!(n.kind, Kind::Th))
            .map(|(i, _)| i)
            .collect::<Vec<_>>();
        assert!(!ths.is_empty());
        for th in ths {
            assert!(doc
                .pages
                .iter()
                .any(|p| texts(p).any(|(.., tag)| matches!(tag, Tag::Node(n) if n == th))));
        }
    }

    #[test]
    fn a_heading_is_not_left_alone_at_the_foot_of_a_page() {
        let doc = laid_out(&example_with_services(60));
        for h in &doc.headings {
            assert!(
                h.y + 40.0 <= BOTTOM,
                "{:?} starts {} pt above the foot of page {}",
                h.text,
                BOTTOM - h.y,
                h.page
            );
        }
        // Something follows each heading on its page: a heading whose
        // table does not fit goes to the next page with it.
        for h in &doc.headings {
            let page = &doc.pages[h.page];
            let below =
                texts(page).any(|(_, y, text, ..)| y > h.y + 20.0 && !h.text.contains(text));
            assert!(below, "{:?} is the last thing on page {}", h.text, h.page);
        }
        // Chapters start on a page of their own.
        for h in doc.headings.iter().filter(|h| h.level == 1) {
            assert!((h.y - TOP).abs() < 0.01, "{:?}", h.text);
        }
    }
}
