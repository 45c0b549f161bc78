//! Documents attached to a request, on the members' side: download, and
//! upload of the original mail or document. Plain routes with a plain HTML
//! form, so they work without JavaScript; they pass the same session,
//! same-origin and tenant checks as everything else.

use crate::upload::{self, Problem};
use crate::{middleware, AppState};
use aivet_domain::{AttachmentId, Msg, RequestId};
use aivet_services::ServiceError;
use aivet_web::ssr::RequestCtx;
use axum::body::Body;
use axum::extract::{Path, State};
use axum::http::{header, Request, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Extension;
use std::sync::Arc;

fn not_found(rc: &RequestCtx) -> Response {
    (StatusCode::NOT_FOUND, Msg::ErrNotFound.text(rc.lang)).into_response()
}

fn to_login() -> Response {
    (StatusCode::FOUND, [(header::LOCATION, "/login")]).into_response()
}

/// `filename*` per RFC 5987, with an ASCII fallback.
fn disposition(filename: &str) -> String {
    let ascii: String = filename
        .chars()
        .map(|c| {
            if c.is_ascii_graphic() || c == ' ' {
                c
            } else {
                '_'
            }
        })
        .filter(|c| !matches!(c, '"' | '\\' | ';'))
        .collect();
    let encoded: String = filename
        .bytes()
        .map(|b| {
            if b.is_ascii_alphanumeric() || b"-._~".contains(&b) {
                (b as char).to_string()
            } else {
                format!("%{b:02X}")
            }
        })
        .collect();
    format!("attachment; filename=\"{ascii}\"; filename*=UTF-8''{encoded}")
}

/// `GET /attachments/{id}`: always a download, never shown inline.
pub async fn download(
    Path(id): Path<String>,
    Extension(rc): Extension<Arc<RequestCtx>>,
    uri: axum::http::Uri,
) -> Response {
    let Some(auth) = rc.auth.as_ref() else {
        return crate::routes::to_sign_in(&uri);
    };
    let Ok(id) = id.parse::<uuid::Uuid>() else {
        return not_found(&rc);
    };
    match rc.services.attachment(auth, AttachmentId(id)).await {
        Ok((info, data)) => (
            [
                (header::CONTENT_TYPE, info.media_type.clone()),
                (header::CONTENT_DISPOSITION, disposition(&info.filename)),
            ],
            data,
        )
            .into_response(),
        Err(ServiceError::Internal(e)) => {
            tracing::error!(request_id = %rc.request_id, error = %e, "reading an attachment failed");
            middleware::internal_error(&rc.request_id, rc.lang)
        }
        Err(_) => not_found(&rc),
    }
}

/// `POST /requests/{id}/attachments`: a member attaches a file, then goes
/// back to the request (with the problem named, if any: a file over the
/// limit by its name, which the address carries with our signature, so
/// that a link cannot put other words on the page).
pub async fn upload(
    Path(id): Path<String>,
    State(state): State<AppState>,
    Extension(rc): Extension<Arc<RequestCtx>>,
    req: Request<Body>,
) -> Response {
    let Some(auth) = rc.auth.as_ref() else {
        return to_login();
    };
    let Ok(id) = id.parse::<uuid::Uuid>() else {
        return not_found(&rc);
    };
    let id = RequestId(id);
    // The request first: a foreign id is "not found" whatever was posted.
    if let Err(e) = rc.services.request_detail(auth, id).await {
        return match e {
            ServiceError::Internal(e) => {
                tracing::error!(request_id = %rc.request_id, error = %e, "reading a request failed");
                middleware::internal_error(&rc.request_id, rc.lang)
            }
            _ => not_found(&rc),
        };
    }
    let back_with = |q: String| {
        (
            StatusCode::SEE_OTHER,
            [(
                header::LOCATION,
                format!("/requests/{}{q}#attachments", id.0),
            )],
        )
            .into_response()
    };
    let back = |problem: Option<Msg>| {
        back_with(
            problem
                .map(|m| format!("?upload_error={}", m.key()))
                .unwrap_or_default(),
        )
    };
    let form = upload::read_form(req, crate::portal::upload_limits(&state)).await;
    let file = match (form.problem, form.file) {
        (Some(Problem::FileTooLarge(name) | Problem::RequestTooLarge(Some(name))), _) => {
            let name = aivet_domain::attachments::clean_filename(&name);
            let sig = aivet_web::pages::upload_refusal_signature(&rc.services.key, id, &name);
            let mut q = url::form_urlencoded::Serializer::new(String::new());
            q.append_pair("upload_error", Msg::ErrFileTooLargeNamed.key())
                .append_pair("upload_file", &name)
                .append_pair("upload_sig", &sig);
            return back_with(format!("?{}", q.finish()));
        }
        (Some(Problem::RequestTooLarge(None)), _) => return back(Some(Msg::ErrFileTooLarge)),
        (Some(Problem::Unreadable | Problem::NotText(_)), _) => {
            return back(Some(Msg::ErrFormUnreadable))
        }
        (None, Some(file)) => file,
        (None, None) => return back(Some(Msg::ErrFileEmpty)),
    };
    match rc
        .services
        .attach_file(auth, id, &file.name, file.bytes)
        .await
    {
        Ok(_) => back(None),
        Err(ServiceError::Invalid(errors)) => back(errors.first().map(|(_, m)| *m)),
        Err(ServiceError::Forbidden) => {
            (StatusCode::FORBIDDEN, Msg::ErrForbidden.text(rc.lang)).into_response()
        }
        Err(ServiceError::Internal(e)) => {
            tracing::error!(request_id = %rc.request_id, error = %e, "attaching a file failed");
            middleware::internal_error(&rc.request_id, rc.lang)
        }
        Err(_) => not_found(&rc),
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn content_disposition_is_safe_for_any_name() {
        assert_eq!(
            super::disposition("Svar \"endelig\"; ÆØÅ.pdf"),
            "attachment; filename=\"Svar endelig ___.pdf\"; filename*=UTF-8''Svar%20%22endelig%22%3B%20%C3%86%C3%98%C3%85.pdf"
        );
    }
}
