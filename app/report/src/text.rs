//! Text: the embedded fonts, how wide a text is, where lines break, and
//! the glyphs that draw it.
//!
//! Latin, Greek and Cyrillic text (nearly all of a report) is measured and
//! drawn from the font's own tables, a lookup per character. Any other
//! text (Hebrew, Arabic, emoji, combining marks, invisible characters) is
//! shaped by rustybuzz, and right-to-left runs are put in visual order
//! (Unicode bidirectional algorithm) within their line.

use std::cell::RefCell;
use std::collections::HashMap;
use std::ops::Range;
use std::rc::Rc;
use std::sync::OnceLock;
use unicode_segmentation::UnicodeSegmentation;

/// The faces the report uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Face {
    Regular = 0,
    Bold = 1,
    Mono = 2,
}

/// How a piece of text looks: its face, its size in points, its grey
/// (0 black … 255 white).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Style {
    pub face: Face,
    pub size: f32,
    pub gray: u8,
}

impl Style {
    pub const fn new(face: Face, size: f32, gray: u8) -> Self {
        Style { face, size, gray }
    }
}

/// A line's height and where its baseline lies below its top, in ems of
/// its largest text: cap height plus a leading of 0.55 em.
pub const LINE_EM: f32 = 1.28;
pub const BASELINE_EM: f32 = 0.73;

const FONT_DATA: [&[u8]; 3] = [
    include_bytes!("../fonts/DejaVuSans.ttf"),
    include_bytes!("../fonts/DejaVuSans-Bold.ttf"),
    include_bytes!("../fonts/DejaVuSansMono.ttf"),
];

/// Characters below this one are looked up directly (unless marked).
const SIMPLE_BELOW: usize = 0x590;
const NOT_SIMPLE: u16 = u16::MAX;

struct FontFace {
    /// The font file, as embedded (subset) in the PDF.
    data: &'static [u8],
    shaper: rustybuzz::Face<'static>,
    /// Glyph and advance (in ems) of each character below `SIMPLE_BELOW`;
    /// `NOT_SIMPLE` for controls and combining marks.
    simple: Vec<(u16, f32)>,
}

pub struct Fonts {
    faces: [FontFace; 3],
}

fn font_face(data: &'static [u8]) -> FontFace {
    let shaper = rustybuzz::Face::from_slice(data, 0).expect("an embedded font");
    let upem = shaper.units_per_em() as f32;
    let simple = (0..SIMPLE_BELOW)
        .map(|code| {
            let c = char::from_u32(code as u32).unwrap_or('\0');
            if c == '\n' || c == '\r' {
                // Only ever at a line's end, where it is not drawn.
                return (0, 0.0);
            }
            if c.is_control() || (0x300..0x370).contains(&code) {
                return (NOT_SIMPLE, 0.0);
            }
            let glyph = shaper.glyph_index(c).map_or(0, |g| g.0);
            let advance = shaper
                .glyph_hor_advance(rustybuzz::ttf_parser::GlyphId(glyph))
                .unwrap_or(0) as f32
                / upem;
            (glyph, advance)
        })
        .collect();
    FontFace {
        data,
        shaper,
        simple,
    }
}

/// The fonts, parsed once per process.
pub fn fonts() -> &'static Fonts {
    static FONTS: OnceLock<Fonts> = OnceLock::new();
    FONTS.get_or_init(|| Fonts {
        faces: FONT_DATA.map(font_face),
    })
}

/// A glyph as shaped: its id in the font, how far it moves the pen and
/// how far it is moved from where the pen stands (in ems), and the bytes
/// of the text it shows.
#[derive(Clone, Debug)]
pub struct Glyph {
    pub id: u16,
    pub advance: f32,
    pub dx: f32,
    pub dy: f32,
    pub text: Range<usize>,
}

/// Glyphs, shared between the lines that show the same text.
pub type Glyphs = Rc<Vec<Glyph>>;

thread_local! {
    /// Shaped complex texts, by face, direction and text: names repeat
    /// throughout a report.
    static SHAPED: RefCell<HashMap<(Face, bool, String), Glyphs>> = RefCell::new(HashMap::new());
}

/// Forgets the shaped texts (after a document, so that a worker that makes
/// several keeps no memory of them).
pub fn forget_shaped() {
    SHAPED.with(|s| *s.borrow_mut() = HashMap::new());
}

/// Control characters (but line breaks) have no glyph: they are shown as
/// U+FFFD, so that a stray one is visible and the PDF stays valid. A tab
/// is a space.
pub fn visible(s: &str) -> std::borrow::Cow<'_, str> {
    let hidden = |c: char| c.is_control() && c != '\n';
    if !s.chars().any(hidden) {
        return s.into();
    }
    s.chars()
        .map(|c| match c {
            '\t' => ' ',
            c if hidden(c) => '\u{fffd}',
            c => c,
        })
        .collect::<String>()
        .into()
}

fn is_rtl_char(c: char) -> bool {
    matches!(c as u32, 0x0590..=0x08FF | 0xFB1D..=0xFDFF | 0xFE70..=0xFEFF | 0x10800..=0x10FFF | 0x1E800..=0x1EFFF)
}

impl Fonts {
    /// The font file of a face.
    pub fn data(&self, face: Face) -> &'static [u8] {
        self.faces[face as usize].data
    }

    /// The font's own tables, for the PDF's font descriptor.
    pub fn face(&self, face: Face) -> &rustybuzz::ttf_parser::Face<'static> {
        &self.faces[face as usize].shaper
    }

    /// How far a glyph moves the pen when nothing is shaped, in ems.
    pub fn advance(&self, face: Face, glyph: u16) -> f32 {
        let f = &self.faces[face as usize].shaper;
        f.glyph_hor_advance(rustybuzz::ttf_parser::GlyphId(glyph))
            .unwrap_or(0) as f32
            / f.units_per_em() as f32
    }

    /// The glyph of each character of a text that needs no shaping (most
    /// of a report): `None` if one of its characters does.
    pub fn simple_glyph(&self, c: char, face: Face) -> Option<u16> {
        let code = c as usize;
        let table = &self.faces[face as usize].simple;
        (code < SIMPLE_BELOW && table[code].0 != NOT_SIMPLE).then(|| table[code].0)
    }

    /// Whether a text can be drawn glyph by glyph from the character map.
    pub fn is_simple(&self, text: &str, face: Face) -> bool {
        text.chars().all(|c| self.simple_glyph(c, face).is_some())
    }

    /// The width of a text in points.
    pub fn width(&self, text: &str, style: Style) -> f32 {
        let table = &self.faces[style.face as usize].simple;
        let mut em = 0.0;
        for c in text.chars() {
            let code = c as usize;
            if code >= SIMPLE_BELOW || table[code].0 == NOT_SIMPLE {
                return self.shaped_width(text, style);
            }
            em += table[code].1;
        }
        em * style.size
    }

    fn shaped_width(&self, text: &str, style: Style) -> f32 {
        let rtl = text.chars().any(is_rtl_char);
        self.shaped(text, style.face, rtl)
            .iter()
            .map(glyph_advance)
            .sum::<f32>()
            * style.size
    }

    /// The glyphs that draw a text that needs shaping (one direction,
    /// already in visual order when `rtl`), each mapped to the
    /// characters it shows.
    pub fn shaped(&self, text: &str, face: Face, rtl: bool) -> Glyphs {
        let key = (face, rtl, text.to_owned());
        if let Some(hit) = SHAPED.with(|s| s.borrow().get(&key).cloned()) {
            return hit;
        }
        let shaped = Rc::new(self.shape(text, face, rtl));
        SHAPED.with(|s| s.borrow_mut().insert(key, shaped.clone()));
        shaped
    }

    fn shape(&self, text: &str, face: Face, rtl: bool) -> Vec<Glyph> {
        let shaper = &self.faces[face as usize].shaper;
        let upem = shaper.units_per_em() as f32;
        let mut buffer = rustybuzz::UnicodeBuffer::new();
        buffer.push_str(text);
        buffer.guess_segment_properties();
        buffer.set_direction(if rtl {
            rustybuzz::Direction::RightToLeft
        } else {
            rustybuzz::Direction::LeftToRight
        });
        let output = rustybuzz::shape(shaper, &[], buffer);
        let infos = output.glyph_infos();
        let positions = output.glyph_positions();
        // Each glyph shows the characters from its cluster to the next
        // cluster in text order.
        let mut starts: Vec<usize> = infos.iter().map(|i| i.cluster as usize).collect();
        starts.sort_unstable();
        starts.dedup();
        let end_of = |start: usize| -> usize {
            match starts.binary_search(&start) {
                Ok(i) => starts.get(i + 1).copied().unwrap_or(text.len()),
                Err(_) => text.len(),
            }
        };
        infos
            .iter()
            .zip(positions)
            .map(|(info, pos)| {
                let start = info.cluster as usize;
                Glyph {
                    id: info.glyph_id as u16,
                    advance: pos.x_advance as f32 / upem,
                    dx: pos.x_offset as f32 / upem,
                    dy: pos.y_offset as f32 / upem,
                    text: range(start, end_of(start)),
                }
            })
            .collect()
    }

    /// Breaks a paragraph of styled spans into lines of at most `width`
    /// points; lines after the first are `hanging` points narrower (they
    /// start that much further right). A word longer than a line is
    /// broken between its characters. Line breaks in the text are kept.
    pub fn lines(&self, spans: &[(&str, Style)], width: f32, hanging: f32) -> Vec<Line> {
        let mut text = String::new();
        let mut bounds = Vec::with_capacity(spans.len());
        for (s, style) in spans {
            let start = text.len();
            text.push_str(&visible(s));
            bounds.push((start..text.len(), *style));
        }
        let size = spans.iter().map(|(_, s)| s.size).fold(0.0, f32::max);
        let mut breaker = Breaker {
            fonts: self,
            text: &text,
            bounds: &bounds,
            lines: Vec::new(),
            start: 0,
            end: 0,
            used: 0.0,
            avail: width,
            rest: (width - hanging).max(1.0),
            hanging,
            size,
        };
        let mut from = 0;
        for (at, kind) in unicode_linebreak::linebreaks(&text) {
            breaker.word(from, at);
            from = at;
            if kind == unicode_linebreak::BreakOpportunity::Mandatory && at < text.len() {
                breaker.finish_line();
            }
        }
        breaker.finish_line();
        breaker.lines
    }
}

/// A text cut where its script changes (characters common to all
/// scripts, such as spaces and digits, stay with the text before them).
fn by_script(text: &str) -> Vec<&str> {
    use unicode_script::{Script, UnicodeScript};
    let mut out = Vec::new();
    let mut start = 0;
    let mut current: Option<Script> = None;
    for (i, c) in text.char_indices() {
        let script = c.script();
        if matches!(script, Script::Common | Script::Inherited | Script::Unknown) {
            continue;
        }
        match current {
            Some(s) if s != script => {
                out.push(&text[start..i]);
                start = i;
                current = Some(script);
            }
            None => current = Some(script),
            _ => {}
        }
    }
    out.push(&text[start..]);
    out
}

fn range(start: usize, end: usize) -> Range<usize> {
    start..end.max(start)
}

fn glyph_advance(g: &Glyph) -> f32 {
    g.advance
}

/// A piece of a line in one style and direction, at `x` from the line's
/// start.
#[derive(Clone, Debug)]
pub struct Piece {
    pub x: f32,
    pub text: String,
    pub style: Style,
    pub rtl: bool,
}

#[derive(Clone, Debug)]
pub struct Line {
    /// How far the line starts right of the paragraph (its hanging indent).
    pub indent: f32,
    pub pieces: Vec<Piece>,
    /// The line's height and its baseline below its top, in points.
    pub height: f32,
    pub baseline: f32,
}

pub fn height(lines: &[Line]) -> f32 {
    lines.iter().map(|l| l.height).sum()
}

struct Breaker<'a> {
    fonts: &'a Fonts,
    text: &'a str,
    bounds: &'a [(Range<usize>, Style)],
    lines: Vec<Line>,
    /// The current line's text range and width.
    start: usize,
    end: usize,
    used: f32,
    /// The width of the current line and of the lines after the first.
    avail: f32,
    rest: f32,
    hanging: f32,
    size: f32,
}

impl Breaker<'_> {
    fn width(&self, from: usize, to: usize) -> f32 {
        let mut w = 0.0;
        for (r, style) in self.bounds {
            let a = r.start.max(from);
            let b = r.end.min(to);
            if a < b {
                w += self.fonts.width(&self.text[a..b], *style);
            }
        }
        w
    }

    fn word(&mut self, from: usize, to: usize) {
        let word = &self.text[from..to];
        let trimmed = from + word.trim_end().len();
        let visible = self.width(from, trimmed);
        if self.end > self.start && self.used + visible > self.avail {
            self.finish_line();
        }
        if visible > self.avail {
            // Longer than a whole line: as many characters as fit per line.
            for (i, g) in self.text[from..trimmed].grapheme_indices(true) {
                let g_from = from + i;
                let w = self.width(g_from, g_from + g.len());
                if self.end > self.start && self.used + w > self.avail {
                    self.finish_line();
                }
                if self.end == self.start {
                    self.start = g_from;
                }
                self.end = g_from + g.len();
                self.used += w;
            }
            self.end = to;
            self.used += self.width(trimmed, to);
            return;
        }
        if self.end == self.start {
            self.start = from;
        }
        self.end = to;
        self.used += self.width(from, to);
    }

    fn finish_line(&mut self) {
        let first = self.lines.is_empty();
        let text = &self.text[self.start..self.end];
        let end = self.start + text.trim_end().len();
        let mut pieces = Vec::new();
        let mut x = 0.0;
        for (r, style) in self.bounds {
            let a = r.start.max(self.start);
            let b = r.end.min(end);
            if a >= b {
                continue;
            }
            let part = &self.text[a..b];
            if part.chars().any(is_rtl_char) {
                let info =
                    unicode_bidi::ParagraphBidiInfo::new(part, Some(unicode_bidi::Level::ltr()));
                let (levels, runs) = info.visual_runs(0..part.len());
                for run in runs {
                    let rtl = levels[run.start].is_rtl();
                    // A font shapes one script at a time; within a
                    // right-to-left run the scripts go right to left too.
                    let mut scripts = by_script(&part[run.clone()]);
                    if rtl {
                        scripts.reverse();
                    }
                    for sub in scripts {
                        let w = if rtl {
                            self.fonts.shaped_width(sub, *style)
                        } else {
                            self.fonts.width(sub, *style)
                        };
                        pieces.push(Piece {
                            x,
                            text: sub.to_owned(),
                            style: *style,
                            rtl,
                        });
                        x += w;
                    }
                }
            } else {
                pieces.push(Piece {
                    x,
                    text: part.to_owned(),
                    style: *style,
                    rtl: false,
                });
                x += self.fonts.width(part, *style);
            }
        }
        self.lines.push(Line {
            indent: if first { 0.0 } else { self.hanging },
            pieces,
            height: self.size * LINE_EM,
            baseline: self.size * BASELINE_EM,
        });
        self.start = self.end;
        self.used = 0.0;
        self.avail = self.rest;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const BODY: Style = Style::new(Face::Regular, 8.5, 0);

    fn joined(lines: &[Line]) -> String {
        lines
            .iter()
            .flat_map(|l| l.pieces.iter().map(|p| p.text.as_str()))
            .collect()
    }

    #[test]
    fn words_wrap_and_a_word_longer_than_a_line_is_broken_between_letters() {
        let f = fonts();
        let long = "Donaudampfschifffahrtsgesellschaftskapitänswitwenrentenversicherungsanstalt";
        let text = format!("Ein {long} und noch ein paar Wörter dahinter");
        let lines = f.lines(&[(&text, BODY)], 80.0, 0.0);
        assert!(lines.len() > 4, "{lines:?}");
        for line in &lines {
            let width: f32 = line.pieces.iter().map(|p| f.width(&p.text, p.style)).sum();
            assert!(width <= 80.01, "{width} > 80 in {line:?}");
        }
        // Nothing lost, nothing added but the breaks.
        let squeezed = |s: &str| s.split_whitespace().collect::<String>();
        assert_eq!(squeezed(&joined(&lines)), squeezed(&text));
        assert!(joined(&lines).contains("Ein"));
    }

    #[test]
    fn line_breaks_in_the_text_are_kept_and_lines_after_the_first_hang() {
        let f = fonts();
        let lines = f.lines(&[("one\ntwo\n\nfour", BODY)], 400.0, 20.0);
        let texts: Vec<String> = lines
            .iter()
            .map(|l| l.pieces.iter().map(|p| p.text.as_str()).collect())
            .collect();
        assert_eq!(texts, ["one", "two", "", "four"]);
        assert_eq!(lines[0].indent, 0.0);
        assert!(lines[1..].iter().all(|l| l.indent == 20.0));
    }

    #[test]
    fn right_to_left_text_is_in_visual_order_and_each_script_is_shaped_apart() {
        let f = fonts();
        let lines = f.lines(&[("abc שלום עולם مرحبا def", BODY)], 400.0, 0.0);
        assert_eq!(lines.len(), 1);
        let pieces: Vec<(&str, bool)> = lines[0]
            .pieces
            .iter()
            .map(|p| (p.text.as_str(), p.rtl))
            .collect();
        // Left to right on the page: the Latin start, then the right-to-left
        // run read from its end (Arabic, then Hebrew), then the Latin end.
        assert_eq!(pieces.len(), 4, "{pieces:?}");
        assert_eq!(pieces[0], ("abc ", false));
        assert!(pieces[1].0.contains("مرحبا") && pieces[1].1, "{pieces:?}");
        assert!(
            pieces[2].0.contains("שלום עולם") && pieces[2].1,
            "{pieces:?}"
        );
        assert!(pieces[3].0.contains("def") && !pieces[3].1, "{pieces:?}");
        // Each piece starts where the one left of it ends.
        let p = &lines[0].pieces;
        for w in p.windows(2) {
            let end = w[0].x + f.width(&w[0].text, w[0].style);
            assert!((w[1].x - end).abs() < 0.5, "{w:?}");
        }
        // Arabic letters are joined: shaped, they take their connected
        // forms, not the isolated ones the character map gives.
        let shaped = f.shaped("مرحبا", Face::Regular, true);
        let isolated: Vec<u32> = "مرحبا"
            .chars()
            .rev()
            .map(|c| f.faces[0].shaper.glyph_index(c).unwrap().0 as u32)
            .collect();
        let drawn: Vec<u32> = shaped.iter().map(|g| g.id as u32).collect();
        assert_eq!(drawn.len(), 5);
        assert!(drawn.iter().all(|g| *g != 0));
        assert_ne!(drawn, isolated);
    }

    #[test]
    fn control_characters_show_as_replacement_and_tabs_as_spaces() {
        assert_eq!(visible("a\tb\u{7}c\nd"), "a b\u{fffd}c\nd");
        assert!(matches!(visible("plain"), std::borrow::Cow::Borrowed(_)));
    }
}
