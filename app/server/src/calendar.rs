//! Follow-ups for calendars: one follow-up as an `.ics` file (signed in),
//! and a member's feed behind its secret link (no session: calendar apps
//! fetch it). A wrong, rotated or switched-off link gets the same 404 as
//! any unknown address.

use crate::middleware;
use aivet_web::ssr::RequestCtx;
use axum::body::Body;
use axum::extract::Path;
use axum::http::{header, Request, StatusCode};
use axum::response::{IntoResponse, Response};
use std::sync::Arc;

fn ics(filename: &str, body: String) -> Response {
    (
        [
            (
                header::CONTENT_TYPE,
                "text/calendar; charset=utf-8".to_owned(),
            ),
            (
                header::CONTENT_DISPOSITION,
                format!("inline; filename=\"{filename}\""),
            ),
        ],
        body,
    )
        .into_response()
}

fn not_found(rc: &RequestCtx) -> Response {
    (
        StatusCode::NOT_FOUND,
        aivet_domain::Msg::ErrNotFound.text(rc.lang),
    )
        .into_response()
}

/// `GET /calendar/{token}` (the token with `.ics`)
pub async fn feed(Path(file): Path<String>, req: Request<Body>) -> Response {
    let Some(rc) = req.extensions().get::<Arc<RequestCtx>>().cloned() else {
        return middleware::internal_error("-", Default::default());
    };
    let Some(token) = file.strip_suffix(".ics") else {
        return not_found(&rc);
    };
    match rc.services.calendar_feed(token).await {
        Ok(Some(body)) => ics("aivet.ics", body),
        Ok(None) => not_found(&rc),
        Err(e) => {
            tracing::error!(request_id = %rc.request_id, error = ?e, "calendar feed failed");
            middleware::internal_error(&rc.request_id, rc.lang)
        }
    }
}

/// `GET /follow-ups/{id}/calendar.ics`; signed out, to the sign-in page
/// and back here.
pub async fn follow_up(Path(id): Path<String>, req: Request<Body>) -> Response {
    let Some(rc) = req.extensions().get::<Arc<RequestCtx>>().cloned() else {
        return middleware::internal_error("-", Default::default());
    };
    let Some(auth) = rc.auth.as_ref() else {
        return crate::routes::to_sign_in(req.uri());
    };
    let Ok(id) = id.parse() else {
        return not_found(&rc);
    };
    match rc.services.follow_up_ics(auth, id).await {
        Ok(body) => ics("aivet-follow-up.ics", body),
        Err(aivet_services::ServiceError::Internal(e)) => {
            tracing::error!(request_id = %rc.request_id, error = %e, "calendar file failed");
            middleware::internal_error(&rc.request_id, rc.lang)
        }
        Err(_) => not_found(&rc),
    }
}
