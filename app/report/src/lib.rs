//! The compliance report as PDF, laid out by an embedded Typst engine.
//!
//! The caller gives the report prepared for one reader (every text already
//! in the reader's language, every date already written for people, see
//! `aivet_domain::report::view`) as JSON. The layout (`report.typ`) reads
//! that JSON as data: no user text ever becomes Typst markup, so names full
//! of `#`, `$`, `[` or `\` print as they were typed. Fonts are compiled into
//! the binary (see `fonts/README.md` for their licences).
//!
//! Rendering is CPU work of a few hundred milliseconds: callers run it on a
//! blocking thread, a few at a time. Typst memoises layout work in a global
//! cache; it is emptied after every document, so that a server that made
//! one report does not keep its memory.

use std::sync::OnceLock;
use typst::diag::{FileError, FileResult, SourceDiagnostic};
use typst::foundations::{Bytes, Datetime, Duration, Smart};
use typst::syntax::{FileId, RootedPath, Source, VirtualPath, VirtualRoot};
use typst::text::{Font, FontBook};
use typst::utils::LazyHash;
use typst::{Library, LibraryExt, World};
use typst_layout::PagedDocument;

/// The layout of the report.
const TEMPLATE: &str = include_str!("report.typ");

const FONTS: [&[u8]; 4] = [
    include_bytes!("../fonts/DejaVuSans.ttf"),
    include_bytes!("../fonts/DejaVuSans-Bold.ttf"),
    include_bytes!("../fonts/DejaVuSans-Oblique.ttf"),
    include_bytes!("../fonts/DejaVuSansMono.ttf"),
];

/// Why a document could not be made.
#[derive(Debug, thiserror::Error)]
pub enum RenderError {
    /// The layout failed (a fault of ours, never of the data's content).
    #[error("layout: {0}")]
    Layout(String),
    #[error("PDF export: {0}")]
    Export(String),
}

fn messages(diags: &[SourceDiagnostic]) -> String {
    diags
        .iter()
        .map(|d| d.message.to_string())
        .collect::<Vec<_>>()
        .join("; ")
}

struct Shared {
    library: LazyHash<Library>,
    book: LazyHash<FontBook>,
    fonts: Vec<Font>,
}

fn shared() -> &'static Shared {
    static SHARED: OnceLock<Shared> = OnceLock::new();
    SHARED.get_or_init(|| {
        let fonts: Vec<Font> = FONTS
            .iter()
            .flat_map(|data| Font::iter(Bytes::new(*data)))
            .collect();
        Shared {
            library: LazyHash::new(Library::builder().build()),
            book: LazyHash::new(FontBook::from_fonts(&fonts)),
            fonts,
        }
    })
}

fn file_id(path: &str) -> FileId {
    RootedPath::new(
        VirtualRoot::Project,
        VirtualPath::new(path).expect("a valid virtual path"),
    )
    .intern()
}

/// One document's world: the layout, its data, the fonts. Nothing else
/// can be read: no files, no packages, no clock.
struct ReportWorld {
    main: Source,
    data_id: FileId,
    data: Bytes,
}

impl World for ReportWorld {
    fn library(&self) -> &LazyHash<Library> {
        &shared().library
    }
    fn book(&self) -> &LazyHash<FontBook> {
        &shared().book
    }
    fn main(&self) -> FileId {
        self.main.id()
    }
    fn source(&self, id: FileId) -> FileResult<Source> {
        if id == self.main.id() {
            Ok(self.main.clone())
        } else {
            Err(FileError::AccessDenied)
        }
    }
    fn file(&self, id: FileId) -> FileResult<Bytes> {
        if id == self.data_id {
            Ok(self.data.clone())
        } else {
            Err(FileError::AccessDenied)
        }
    }
    fn font(&self, index: usize) -> Option<Font> {
        shared().fonts.get(index).cloned()
    }
    fn today(&self, _offset: Option<Duration>) -> Option<Datetime> {
        None
    }
}

/// The PDF of a prepared report (`data`: its JSON), created at `created`
/// (the PDF's creation date). Tagged, PDF/UA-1, A4; title and language
/// come from the data.
pub fn pdf(data: Vec<u8>, created: chrono::DateTime<chrono::Utc>) -> Result<Vec<u8>, RenderError> {
    let result = render(data, created);
    // Typst's memo cache holds on to everything the layout computed.
    typst::comemo::evict(0);
    result
}

/// Control characters (but line breaks and tabs) have no glyph: they are
/// shown as U+FFFD, so that a stray one is visible and the PDF stays valid.
fn visible(value: &mut serde_json::Value) {
    let hidden = |c: char| c.is_control() && c != '\n' && c != '\t';
    match value {
        serde_json::Value::String(s) if s.chars().any(hidden) => {
            *s = s
                .chars()
                .map(|c| if hidden(c) { '\u{fffd}' } else { c })
                .collect();
        }
        serde_json::Value::Array(items) => items.iter_mut().for_each(visible),
        serde_json::Value::Object(map) => map.values_mut().for_each(visible),
        _ => {}
    }
}

fn render(data: Vec<u8>, created: chrono::DateTime<chrono::Utc>) -> Result<Vec<u8>, RenderError> {
    use chrono::{Datelike, Timelike};
    let mut value: serde_json::Value =
        serde_json::from_slice(&data).map_err(|e| RenderError::Layout(e.to_string()))?;
    visible(&mut value);
    let world = ReportWorld {
        main: Source::new(file_id("/report.typ"), TEMPLATE.to_owned()),
        data_id: file_id("/data.json"),
        data: Bytes::new(value.to_string().into_bytes()),
    };
    let document: PagedDocument = typst::compile(&world)
        .output
        .map_err(|e| RenderError::Layout(messages(&e)))?;
    let timestamp = Datetime::from_ymd_hms(
        created.year(),
        created.month() as u8,
        created.day() as u8,
        created.hour() as u8,
        created.minute() as u8,
        created.second() as u8,
    )
    .map(typst_pdf::Timestamp::new_utc);
    let options = |standards: &[typst_pdf::PdfStandard]| {
        Ok(typst_pdf::PdfOptions {
            ident: Smart::Auto,
            creator: Smart::Custom(Some(format!("aivet {}", env!("CARGO_PKG_VERSION")))),
            timestamp,
            standards: typst_pdf::PdfStandards::new(standards)
                .map_err(|e| RenderError::Export(format!("{e:?}")))?,
            tagged: true,
            ..Default::default()
        })
    };
    // PDF/UA-1 refuses a document with a character no embedded font has (a
    // name in a script the fonts lack): that one is written tagged, but
    // without the PDF/UA-1 claim, rather than not at all.
    match typst_pdf::pdf(&document, &options(&[typst_pdf::PdfStandard::Ua_1])?) {
        Ok(pdf) => Ok(pdf),
        Err(_) => {
            typst_pdf::pdf(&document, &options(&[])?).map_err(|e| RenderError::Export(messages(&e)))
        }
    }
}
