//! `POST /settings/advisories/upload`: an OSV file chosen in Settings →
//! Engine advisories, imported as the pasted text is (all records or none).
//! A refused file comes back as the Settings page with the file's text in
//! the paste field and the messages next to it (each refused record
//! named), so that nothing chosen is lost and the text can be mended there.

use crate::upload::{self, Problem};
use crate::{middleware, AppState};
use aivet_domain::Msg;
use aivet_services::ServiceError;
use aivet_web::error::AppError;
use aivet_web::ssr::RequestCtx;
use axum::body::Body;
use axum::extract::State;
use axum::http::{header, Request, StatusCode};
use axum::response::{IntoResponse, Response};
use leptos::server_fn::ServerFn;
use std::sync::Arc;

/// The form field of the paste form, which shows a refused file's text.
const PASTE_FIELD: &str = "osv";

pub async fn upload(State(state): State<AppState>, req: Request<Body>) -> Response {
    let Some(rc) = req.extensions().get::<Arc<RequestCtx>>().cloned() else {
        return middleware::internal_error("-", Default::default());
    };
    let Some(auth) = rc.auth.as_ref() else {
        return (StatusCode::FOUND, [(header::LOCATION, "/login")]).into_response();
    };
    let (parts, body) = req.into_parts();
    let form = upload::read_form(
        Request::from_parts(parts.clone(), body),
        crate::portal::upload_limits(&state),
    )
    .await;
    let refused = |msg: Msg| ServiceError::Invalid(vec![(PASTE_FIELD, msg)]);
    let (text, result) = match (form.problem, form.file) {
        (Some(Problem::FileTooLarge(_) | Problem::RequestTooLarge(_)), _) => {
            (String::new(), Err(refused(Msg::ErrFileTooLarge)))
        }
        (Some(_), _) => (String::new(), Err(refused(Msg::ErrFormUnreadable))),
        (None, None) => (String::new(), Err(refused(Msg::ErrFileEmpty))),
        (None, Some(file)) => match String::from_utf8(file.bytes) {
            Err(_) => (String::new(), Err(refused(Msg::ErrOsvNotJson))),
            Ok(text) => {
                let r = rc
                    .services
                    .import_advisories(auth, &text, rc.lang)
                    .await
                    .map(|_| ());
                (text, r)
            }
        },
    };
    let e = match result {
        Ok(()) => {
            return (
                StatusCode::SEE_OTHER,
                [(header::LOCATION, "/settings#advisories")],
            )
                .into_response()
        }
        Err(e) => e,
    };
    let status = match &e {
        ServiceError::Forbidden => StatusCode::FORBIDDEN,
        ServiceError::Blocked(..) => StatusCode::CONFLICT,
        ServiceError::Internal(cause) => {
            tracing::error!(request_id = %rc.request_id, error = %cause, "importing an OSV file failed");
            return middleware::internal_error(&rc.request_id, rc.lang);
        }
        _ => StatusCode::UNPROCESSABLE_ENTITY,
    };
    let mut error = AppError::new(e.msg());
    match &e {
        ServiceError::Invalid(fields) => {
            error.fields = fields.iter().map(|(f, m)| ((*f).to_owned(), *m)).collect();
        }
        ServiceError::Blocked(_, names) => {
            error.args = vec![("names".to_owned(), names.join(", "))];
        }
        _ => {}
    }
    crate::routes::refused_page(
        &state,
        &parts,
        aivet_web::api::ImportAdvisories::url().to_owned(),
        vec![(PASTE_FIELD.to_owned(), text)],
        error,
        status,
    )
    .await
}
