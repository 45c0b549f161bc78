//! The report's downloads: a plain form posts the chosen format, language
//! and services to `POST /reports/download` (a POST because every download
//! is recorded in the audit log); the answer is the file. The PDF engine
//! (`aivet-report`, run as the `aivet-pdf` worker) is plugged into
//! the use case here.

use crate::middleware;
use aivet_domain::report::{ReportFormat, Scope};
use aivet_domain::{Lang, Msg, ServiceId};
use aivet_services::report::{Download, PdfEngine};
use aivet_services::ServiceError;
use aivet_web::ssr::RequestCtx;
use axum::body::{Body, Bytes};
use axum::extract::State;
use axum::http::{header, Request, StatusCode};
use axum::response::{IntoResponse, Response};
use std::sync::Arc;

/// The PDF engine in a process of its own: the `aivet-pdf` executable
/// beside `aivet` (`src/bin/aivet-pdf.rs`). A report of 500 services needs
/// about 50 MB while it is made, and the allocator keeps part of that
/// after the document (BENCHMARKS.md, 2026-12-05); a process that ends
/// gives all of it back, and a document that needs more memory than the
/// machine has ends that process, not the server. Nor is the engine's
/// code in the server's executable, whose pages would otherwise be
/// resident in every server (BENCHMARKS.md, 2026-12-03).
pub struct WorkerPdf {
    /// The `aivet-pdf` executable.
    pub exe: std::path::PathBuf,
}

impl PdfEngine for WorkerPdf {
    fn render(
        &self,
        view_json: Vec<u8>,
        created: chrono::DateTime<chrono::Utc>,
    ) -> Result<Vec<u8>, String> {
        use std::io::Write;
        use std::process::{Command, Stdio};
        let mut child = Command::new(&self.exe)
            .arg(created.to_rfc3339())
            .arg(env!("CARGO_PKG_VERSION"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| {
                format!(
                    "cannot start the PDF worker {} (it is installed beside aivet): {e}",
                    self.exe.display()
                )
            })?;
        // The worker reads all of its input before it writes: a thread
        // writes it while this one waits for the answer.
        let mut stdin = child.stdin.take().expect("stdin is piped");
        let writer = std::thread::spawn(move || stdin.write_all(&view_json));
        let out = child
            .wait_with_output()
            .map_err(|e| format!("the PDF worker: {e}"))?;
        let written = writer
            .join()
            .map_err(|_| "the PDF worker's input".to_owned())?;
        // Another version at the worker's path: an upgrade replaced the
        // executables under this running server, whose report data the
        // new layout may not read.
        if out.status.code() == Some(OTHER_VERSION) {
            return Err(format!(
                "the PDF worker {} is another version of aivet than this server ({}): restart the server after an upgrade",
                self.exe.display(),
                env!("CARGO_PKG_VERSION")
            ));
        }
        if !out.status.success() {
            let why = String::from_utf8_lossy(&out.stderr);
            return Err(format!(
                "the PDF worker ended with {}: {}",
                out.status,
                why.trim()
            ));
        }
        written.map_err(|e| format!("the PDF worker's input: {e}"))?;
        Ok(out.stdout)
    }
}

/// The PDF worker's file name, beside the `aivet` executable. It is called
/// as `aivet-pdf TIME VERSION`: the report's JSON on standard input; as
/// arguments the PDF's creation time (RFC 3339) and the version of aivet
/// that asks; the PDF on standard output.
pub const PDF_WORKER: &str = "aivet-pdf";

/// The worker's exit code when it is not the version the server is.
pub const OTHER_VERSION: i32 = 3;

/// Where the download form posts.
pub use aivet_web::pages::reports::DOWNLOAD;

/// What the download form asks for.
#[derive(Debug, PartialEq, Eq)]
pub struct DownloadForm {
    pub format: ReportFormat,
    pub lang: Lang,
    pub scope: Scope,
}

/// Reads the form: `format`, `lang`, `scope` (`all` or `selection`) and
/// one `service` per chosen service. `None` for a form that is not ours.
pub fn parse_form(body: &[u8]) -> Option<DownloadForm> {
    let (mut format, mut lang, mut all, mut services) = (None, None, true, Vec::new());
    for (k, v) in url::form_urlencoded::parse(body) {
        match k.as_ref() {
            "format" => format = v.parse::<ReportFormat>().ok(),
            "lang" => lang = v.parse::<Lang>().ok(),
            "scope" => all = v != "selection",
            // An id that does not parse is as unknown as one that does
            // not exist (the nil id names no service).
            "service" => services.push(v.parse().unwrap_or(ServiceId(uuid::Uuid::nil()))),
            _ => {}
        }
    }
    Some(DownloadForm {
        format: format?,
        lang: lang?,
        scope: if all {
            Scope::All
        } else {
            Scope::Selection(services)
        },
    })
}

/// A download: `Content-Disposition: attachment`, never shown inline.
pub fn file_response(d: Download) -> Response {
    (
        [
            (header::CONTENT_TYPE, d.media_type.to_owned()),
            (
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"{}\"", d.filename),
            ),
            (header::CACHE_CONTROL, "no-store".to_owned()),
            (header::HeaderName::from_static("x-report-sha256"), d.sha256),
        ],
        d.body,
    )
        .into_response()
}

/// `POST /reports/download`. A refused form (nothing chosen) comes back
/// as the Reports page with its message and what was chosen; the bundle's
/// post gets the message as text.
pub async fn download(State(state): State<crate::AppState>, req: Request<Body>) -> Response {
    let Some(rc) = req.extensions().get::<Arc<RequestCtx>>().cloned() else {
        return middleware::internal_error("-", Default::default());
    };
    let (parts, body) = req.into_parts();
    let Ok(body): Result<Bytes, _> = axum::body::to_bytes(body, usize::MAX).await else {
        return (StatusCode::BAD_REQUEST, Msg::ErrFormOutdated.text(rc.lang)).into_response();
    };
    let Some(auth) = rc.auth.as_ref() else {
        return (StatusCode::FOUND, [(header::LOCATION, "/login")]).into_response();
    };
    let Some(form) = parse_form(&body) else {
        return (StatusCode::BAD_REQUEST, Msg::ErrFormInvalid.text(rc.lang)).into_response();
    };
    let s = &rc.services;
    let result = match form.format {
        ReportFormat::Pdf => {
            s.report_pdf(auth, &form.scope, form.lang, state.pdf.clone())
                .await
        }
        ReportFormat::ServicesCsv => s.report_services_csv(auth, &form.scope, form.lang).await,
        ReportFormat::AnswersCsv => s.report_answers_csv(auth, &form.scope, form.lang).await,
        ReportFormat::Json => s.report_json(auth).await,
    };
    match result {
        Ok(d) => file_response(d),
        Err(ServiceError::Internal(e)) => {
            tracing::error!(request_id = %rc.request_id, error = %e, "report failed");
            middleware::internal_error(&rc.request_id, rc.lang)
        }
        Err(ServiceError::Invalid(fields)) if crate::routes::is_plain_form_post(&parts) => {
            let mut error = aivet_web::error::AppError::new(
                fields.first().map_or(Msg::ErrFormInvalid, |(_, m)| *m),
            );
            error.fields = fields.iter().map(|(f, m)| ((*f).to_owned(), *m)).collect();
            let posted = url::form_urlencoded::parse(&body).into_owned().collect();
            crate::routes::refused_page(
                &state,
                &parts,
                DOWNLOAD.to_owned(),
                posted,
                error,
                StatusCode::UNPROCESSABLE_ENTITY,
            )
            .await
        }
        Err(ServiceError::Invalid(fields)) => (
            StatusCode::UNPROCESSABLE_ENTITY,
            fields
                .first()
                .map_or(Msg::ErrFormInvalid, |(_, m)| *m)
                .text(rc.lang),
        )
            .into_response(),
        Err(e) => (StatusCode::NOT_FOUND, e.msg().text(rc.lang)).into_response(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_form_names_format_language_and_services() {
        let id = uuid::Uuid::new_v4();
        let f = parse_form(format!("format=pdf&lang=de&scope=selection&service={id}").as_bytes())
            .unwrap();
        assert_eq!(f.format, ReportFormat::Pdf);
        assert_eq!(f.lang, Lang::De);
        assert_eq!(f.scope, Scope::Selection(vec![ServiceId(id)]));
        let all = parse_form(b"format=json&lang=nb&scope=all&service=x").unwrap();
        assert_eq!(all.scope, Scope::All);
        let bad = parse_form(b"format=pdf&lang=en&scope=selection&service=x").unwrap();
        assert_eq!(
            bad.scope,
            Scope::Selection(vec![ServiceId(uuid::Uuid::nil())])
        );
        assert_eq!(parse_form(b"format=docx&lang=en"), None);
    }
}
