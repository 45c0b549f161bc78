//! The compliance report as PDF, laid out by our own small engine.
//!
//! The caller gives the report prepared for one reader (every text already
//! in the reader's language, every date already written for people, see
//! `aivet_domain::report::view`) as JSON. The layout (`layout.rs`) reads
//! that JSON as data and places its texts on A4 pages; no text is ever
//! interpreted, so names full of `#`, `$`, `[` or `\` print as they were
//! typed. `write.rs` writes the pages as a tagged PDF (PDF/UA-1). Fonts
//! are compiled into the binary (see `fonts/README.md` for their
//! licences).
//!
//! A report of 500 services (about 1,100 pages) takes well under a second
//! and a few tens of megabytes; callers still run it away from the server
//! (`aivet-pdf`), a few at a time.

mod layout;
mod text;
mod view;
mod write;

/// Why a document could not be made.
#[derive(Debug, thiserror::Error)]
pub enum RenderError {
    /// The layout failed (a fault of ours, never of the data's content).
    #[error("layout: {0}")]
    Layout(String),
}

/// The PDF of a prepared report (`data`: its JSON), created at `created`
/// (the PDF's creation date). Tagged, PDF/UA-1, A4; title and language
/// come from the data.
pub fn pdf(data: Vec<u8>, created: chrono::DateTime<chrono::Utc>) -> Result<Vec<u8>, RenderError> {
    let result = render(data, created);
    text::forget_shaped();
    result
}

fn render(data: Vec<u8>, created: chrono::DateTime<chrono::Utc>) -> Result<Vec<u8>, RenderError> {
    let fonts = text::fonts();
    let (doc, meta) = prepare(&data, created, fonts)?;
    drop(data);
    Ok(write::pdf(doc, fonts, &meta))
}

/// The pages of the report and what the document says about itself. The
/// prepared report is dropped once laid out: the pages hold their own
/// texts.
fn prepare(
    data: &[u8],
    created: chrono::DateTime<chrono::Utc>,
    fonts: &text::Fonts,
) -> Result<(layout::Doc, write::Meta), RenderError> {
    let view: view::View =
        serde_json::from_slice(data).map_err(|e| RenderError::Layout(e.to_string()))?;
    let doc = layout::layout(&view, fonts);
    let cell = |rows: &[view::Row], i: usize| rows.get(i).map_or("", |r| r[1].as_str()).to_owned();
    let meta = write::Meta {
        header: text::visible(&cell(&view.cover, 0)).into_owned(),
        author: text::visible(&cell(&view.cover, 4)).into_owned(),
        creator: format!("aivet {}", env!("CARGO_PKG_VERSION")),
        page: view.labels.page.clone(),
        title: view.title,
        lang: view.lang,
        generated: view.generated,
        created,
    };
    Ok((doc, meta))
}
