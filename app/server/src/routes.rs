//! The router: every route of the application in one place. Pages come from
//! the leptos route list, server functions from their registry; the plain
//! routes are listed in [`PLAIN_ROUTES`], which the cross-tenant test uses.

use crate::middleware::{self, CspNonce};
use crate::AppState;
use aivet_web::forms::{self, Refused};
use aivet_web::ssr::RequestCtx;
use axum::body::Body;
use axum::extract::State;
use axum::http::{header, HeaderValue, Request, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use leptos::prelude::provide_context;
use leptos_axum::LeptosRoutes;
use std::sync::Arc;
use tower::ServiceBuilder;
use tower_http::catch_panic::CatchPanicLayer;
use tower_http::services::{ServeDir, ServeFile};
use tower_http::set_header::SetResponseHeaderLayer;

/// The routes that are neither pages nor server functions, as (method, path).
pub const PLAIN_ROUTES: &[(&str, &str)] = &[
    ("GET", "/health"),
    ("GET", "/pkg/{*file}"),
    ("GET", "/favicon.svg"),
    ("GET", "/favicon.ico"),
    ("GET", "/robots.txt"),
    ("GET", "/services/export.csv"),
    ("GET", "/incidents/export.csv"),
    ("GET", "/services/import-template.csv"),
    ("GET", "/answer/{token}"),
    ("POST", "/answer/{token}"),
    ("GET", "/attachments/{id}"),
    ("POST", "/requests/{id}/attachments"),
    ("POST", crate::reports::DOWNLOAD),
    ("POST", "/settings/advisories/upload"),
    ("GET", "/calendar/{token}"),
    ("GET", "/follow-ups/{id}/calendar.ics"),
];

/// Every route the server answers, as (method, path): pages, server
/// functions and plain routes. The cross-tenant test walks this list, so a new
/// route cannot escape it.
pub fn inventory() -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = page_routes()
        .iter()
        .map(|r| ("GET".to_owned(), r.path().to_owned()))
        .collect();
    out.extend(
        leptos::server_fn::axum::server_fn_paths()
            .map(|(path, method)| (method.to_string(), path.to_owned())),
    );
    out.extend(
        PLAIN_ROUTES
            .iter()
            .map(|(m, p)| ((*m).to_owned(), (*p).to_owned())),
    );
    out.sort();
    out.dedup();
    out
}

/// The page routes, generated once per process. Generating them renders the
/// app with resource loading suppressed through a process-wide flag in
/// leptos_server: a page whose resource starts loading at that moment waits
/// forever (leptos-rs/leptos#4773). Once per process, before the first
/// router exists, nothing can be rendering yet — also when tests or the
/// benchmark start several servers in one process.
fn page_routes() -> Vec<leptos_axum::AxumRouteListing> {
    static ROUTES: std::sync::OnceLock<Vec<leptos_axum::AxumRouteListing>> =
        std::sync::OnceLock::new();
    ROUTES
        .get_or_init(|| leptos_axum::generate_route_list(aivet_web::App))
        .clone()
}

/// The prefix under which server functions are mounted.
pub const API_PREFIX: &str = "/api";

pub fn router(state: AppState) -> Router {
    router_with(state, Router::new())
}

/// The router with `extra` routes behind the same middleware (the benchmark
/// adds its in-memory ceiling route this way).
pub fn router_with(state: AppState, extra: Router<AppState>) -> Router {
    let page_routes = page_routes();
    // Everything that may show or change data reads the session first.
    let dynamic = extra
        .route("/health", get(health))
        .route("/services/export.csv", get(export_csv))
        .route("/incidents/export.csv", get(export_incidents))
        .route("/services/import-template.csv", get(import_template))
        .route("/attachments/{id}", get(crate::attachments::download))
        .route("/calendar/{token}", get(crate::calendar::feed))
        .route(
            "/follow-ups/{id}/calendar.ics",
            get(crate::calendar::follow_up),
        )
        .route(
            "/requests/{id}/attachments",
            post(crate::attachments::upload),
        )
        .route(crate::reports::DOWNLOAD, post(crate::reports::download))
        .route(
            "/settings/advisories/upload",
            post(crate::advisory_upload::upload),
        )
        .route(
            "/answer/{token}",
            get(crate::portal::show).post(crate::portal::save),
        )
        .route(&format!("{API_PREFIX}/{{*fn_name}}"), post(server_fn))
        .leptos_routes_with_handler(page_routes, get(page))
        .fallback(page)
        .layer(axum::middleware::from_fn_with_state(
            state.clone(),
            middleware::session,
        ));
    dynamic
        .merge(static_files(&state))
        .layer(
            ServiceBuilder::new()
                // The body limits are ours (`middleware::body_limit`, and
                // `upload` for documents), not the extractors' 2 MB default.
                .layer(axum::extract::DefaultBodyLimit::disable())
                .layer(axum::middleware::from_fn(middleware::request_id_and_log))
                .layer(CatchPanicLayer::custom(|_| {
                    (
                        StatusCode::INTERNAL_SERVER_ERROR,
                        // The panic handler sees no request: say it in every language.
                        aivet_domain::Lang::ALL
                            .map(|l| aivet_domain::Msg::ErrUnexpected.text(l))
                            .join("\n"),
                    )
                        .into_response()
                }))
                .layer(axum::middleware::from_fn_with_state(
                    state.clone(),
                    middleware::security_headers,
                ))
                .layer(axum::middleware::from_fn_with_state(
                    state.clone(),
                    middleware::body_limit,
                ))
                .layer(axum::middleware::from_fn_with_state(
                    state.clone(),
                    middleware::same_origin,
                )),
        )
        .with_state(state)
}

/// The browser bundle, the icons and robots.txt: the same for everyone, so
/// they are served without looking up the session (a page load asks for
/// several of them), but with the security headers of every response.
fn static_files(state: &AppState) -> Router<AppState> {
    let site_root = &state.config.site_root;
    let cache = || {
        SetResponseHeaderLayer::if_not_present(
            header::CACHE_CONTROL,
            HeaderValue::from_static("no-cache"),
        )
    };
    let file = |name: &str| {
        ServiceBuilder::new()
            .layer(cache())
            .service(ServeFile::new(site_root.join(name)))
    };
    Router::new()
        .nest_service(
            "/pkg",
            ServiceBuilder::new()
                .layer(cache())
                .service(ServeDir::new(site_root.join("pkg")).precompressed_gzip()),
        )
        .route_service("/favicon.svg", file("favicon.svg"))
        .route_service("/favicon.ico", file("favicon.ico"))
        .route_service("/robots.txt", file("robots.txt"))
}

fn request_ctx(req: &Request<Body>) -> Option<Arc<RequestCtx>> {
    req.extensions().get::<Arc<RequestCtx>>().cloned()
}

/// Renders a page completely on the server.
async fn page(State(state): State<AppState>, req: Request<Body>) -> Response {
    render(&state, req, None).await
}

/// Renders a page; with `refused`, the page a refused plain form post came
/// from, showing the form's messages and what was typed (see `aivet_web::forms`).
async fn render(state: &AppState, req: Request<Body>, refused: Option<Refused>) -> Response {
    let Some(rc) = request_ctx(&req) else {
        return middleware::internal_error("-", Default::default());
    };
    let page_ctx = match rc.page_ctx().await {
        Ok(pc) => pc,
        Err(e) => {
            tracing::error!(request_id = %rc.request_id, error = %e, "page context failed");
            return middleware::internal_error(&rc.request_id, rc.lang);
        }
    };
    let nonce = req
        .extensions()
        .get::<CspNonce>()
        .map(|n| n.0.clone())
        .unwrap_or_default();
    let options = state.leptos.clone();
    let handler = leptos_axum::render_app_async_with_context(
        move || {
            provide_context(rc.clone());
            provide_context(page_ctx.clone());
            provide_context(leptos::nonce::Nonce::from_value(nonce.clone()));
            if let Some(r) = refused.clone() {
                provide_context(r);
            }
        },
        move || aivet_web::shell(options.clone()),
    );
    let mut res = handler(req).await;
    // A page that redirects (signed out: to the sign-in page) answers 302
    // whatever the client's Accept header says, and whatever status the
    // page's data set on the way (401 for "sign in first").
    if res.headers().contains_key(header::LOCATION) && !res.status().is_redirection() {
        *res.status_mut() = StatusCode::FOUND;
        *res.body_mut() = Body::empty();
    }
    res
}

/// A plain form post (the browser's own, without the bundle) asks for HTML.
pub(crate) fn is_plain_form_post(parts: &http::request::Parts) -> bool {
    parts
        .headers
        .get(header::ACCEPT)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.contains("text/html"))
}

/// The page a form was posted from: the path and query of a same-origin
/// `Referer`. Without one (a browser that sends none), the dashboard, or the
/// sign-in page when signed out.
fn referring_page(parts: &http::request::Parts, rc: &RequestCtx) -> String {
    parts
        .headers
        .get(header::REFERER)
        .and_then(|v| v.to_str().ok())
        .and_then(|r| r.strip_prefix(&rc.base_url))
        .filter(|p| p.starts_with('/') && !p.starts_with("//") && !p.starts_with(API_PREFIX))
        .map(|p| p.split('#').next().unwrap_or(p).to_owned())
        .unwrap_or_else(|| if rc.auth.is_some() { "/" } else { "/login" }.to_owned())
}

/// The answer to a refused plain form post: the page it came from, rendered
/// again with the form's messages next to its fields and what was typed in
/// them, with the refusal's status. (A redirect to the page would lose what
/// was typed, or put it into the address.) When the page no longer has that
/// form, it shows the messages on top.
pub(crate) async fn refused_page(
    state: &AppState,
    parts: &http::request::Parts,
    action: String,
    fields: Vec<(String, String)>,
    error: aivet_web::error::AppError,
    status: StatusCode,
) -> Response {
    let Some(rc) = parts.extensions.get::<Arc<RequestCtx>>().cloned() else {
        return middleware::internal_error("-", Default::default());
    };
    let get = |refused: Refused| {
        let mut req = Request::new(Body::empty());
        *req.uri_mut() = referring_page(parts, &rc)
            .parse()
            .unwrap_or_else(|_| axum::http::Uri::from_static("/"));
        *req.headers_mut() = parts.headers.clone();
        req.headers_mut().remove(header::CONTENT_TYPE);
        req.headers_mut().remove(header::CONTENT_LENGTH);
        *req.extensions_mut() = parts.extensions.clone();
        render(state, req, Some(refused))
    };
    let refused = Refused::new(action, fields, error);
    let mut res = get(refused.clone()).await;
    if !refused.shown.load(std::sync::atomic::Ordering::Relaxed) && res.status().is_success() {
        res = get(Refused {
            on_top: true,
            ..refused
        })
        .await;
    }
    if res.status().is_success() {
        *res.status_mut() = status;
    }
    res
}

/// Runs a server function. Its form is read strictly first: text that is
/// not UTF-8, a missing field or one of the wrong kind is refused with the
/// field named before the function runs. A refused plain form post gets
/// its page again (see [`refused_page`]); the bundle's gets the error as JSON.
async fn server_fn(State(state): State<AppState>, req: Request<Body>) -> Response {
    let rc = request_ctx(&req);
    let lang = rc.as_ref().map(|r| r.lang).unwrap_or_default();
    let (parts, body) = req.into_parts();
    // (A body over the limit is cut off here and answered by
    // `middleware::body_limit`.)
    let Ok(body) = axum::body::to_bytes(body, usize::MAX).await else {
        return (
            StatusCode::BAD_REQUEST,
            aivet_domain::Msg::ErrFormOutdated.text(lang),
        )
            .into_response();
    };
    let plain = is_plain_form_post(&parts);
    let form = forms::decode_urlencoded(&body);
    if let Some(error) = forms::refusal(parts.uri.path(), &body, &form) {
        let status = StatusCode::UNPROCESSABLE_ENTITY;
        if plain {
            return refused_page(
                &state,
                &parts,
                parts.uri.path().to_owned(),
                form.fields,
                error,
                status,
            )
            .await;
        }
        return (
            status,
            [(header::CONTENT_TYPE, "application/json")],
            error.to_json(lang),
        )
            .into_response();
    }
    let slot = forms::ErrorSlot::default();
    let res = leptos_axum::handle_server_fns_with_context(
        {
            let slot = slot.clone();
            move || {
                if let Some(rc) = rc.clone() {
                    provide_context(rc);
                }
                provide_context(slot.clone());
            }
        },
        Request::from_parts(parts.clone(), Body::from(body)),
    )
    .await
    .into_response();
    if res.status() == StatusCode::BAD_REQUEST && res.headers().get(header::CONTENT_TYPE).is_none()
    {
        // An unknown server function: answer like any unknown address.
        return (
            StatusCode::NOT_FOUND,
            aivet_domain::Msg::ErrNotFound.text(lang),
        )
            .into_response();
    }
    match slot.take() {
        Some(error) if plain => {
            let status = if res.status().is_client_error() || res.status().is_server_error() {
                res.status()
            } else {
                StatusCode::UNPROCESSABLE_ENTITY
            };
            let mut page = refused_page(
                &state,
                &parts,
                parts.uri.path().to_owned(),
                form.fields,
                error,
                status,
            )
            .await;
            for cookie in res.headers().get_all(header::SET_COOKIE) {
                page.headers_mut()
                    .append(header::SET_COOKIE, cookie.clone());
            }
            page
        }
        _ => res,
    }
}

/// Signed out: to the sign-in page, which comes back to `uri` afterwards.
pub fn to_sign_in(uri: &axum::http::Uri) -> Response {
    let back_to = uri.path_and_query().map(|p| p.as_str()).unwrap_or("/");
    let to = aivet_web::address::sign_in_address(back_to);
    (StatusCode::FOUND, [(header::LOCATION, to)]).into_response()
}

async fn health(State(state): State<AppState>) -> Response {
    let db_ok = state.services.store.ping().await.is_ok();
    let body = serde_json::json!({
        "status": if db_ok { "ok" } else { "degraded" },
        "version": env!("CARGO_PKG_VERSION"),
        "database": if db_ok { "ok" } else { "unreachable" },
        "backend": state.services.store.backend(),
    });
    let status = if db_ok {
        StatusCode::OK
    } else {
        StatusCode::SERVICE_UNAVAILABLE
    };
    (status, Json(body)).into_response()
}

/// A CSV file download.
fn csv_download(filename: &str, body: String) -> Response {
    (
        [
            (header::CONTENT_TYPE, "text/csv; charset=utf-8".to_owned()),
            (
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"{filename}\""),
            ),
        ],
        body,
    )
        .into_response()
}

/// The organisation's services as CSV; `?bom=1` for Excel in the reader's
/// language.
async fn export_csv(req: Request<Body>) -> Response {
    let Some(rc) = request_ctx(&req) else {
        return middleware::internal_error("-", Default::default());
    };
    let Some(auth) = rc.auth.as_ref() else {
        return to_sign_in(req.uri());
    };
    let bom = req
        .uri()
        .query()
        .is_some_and(|q| q.split('&').any(|p| p == "bom=1"));
    match rc.services.export_csv(auth, bom.then_some(rc.lang)).await {
        Ok(csv) => {
            let date = rc.services.clock.now().format("%Y-%m-%d");
            csv_download(&format!("aivet-services-{date}.csv"), csv)
        }
        Err(aivet_services::ServiceError::Internal(e)) => {
            tracing::error!(request_id = %rc.request_id, error = %e, "export failed");
            middleware::internal_error(&rc.request_id, rc.lang)
        }
        Err(e) => (StatusCode::NOT_FOUND, e.msg().text(rc.lang)).into_response(),
    }
}

/// The incident register as CSV, filtered as the page was (`state`,
/// `vendor`, `year`); `bom=1` for Excel in the reader's language.
async fn export_incidents(req: Request<Body>) -> Response {
    let Some(rc) = request_ctx(&req) else {
        return middleware::internal_error("-", Default::default());
    };
    let Some(auth) = rc.auth.as_ref() else {
        return to_sign_in(req.uri());
    };
    let query: Vec<(String, String)> =
        url::form_urlencoded::parse(req.uri().query().unwrap_or("").as_bytes())
            .into_owned()
            .collect();
    let get = |k: &str| {
        query
            .iter()
            .find(|(n, _)| n == k)
            .map(|(_, v)| v.clone())
            .unwrap_or_default()
    };
    let filter = aivet_web::api::RegisterFilter {
        state: get("state"),
        vendor: get("vendor"),
        year: get("year"),
    };
    let not_found = || {
        (
            StatusCode::NOT_FOUND,
            aivet_domain::Msg::ErrNotFound.text(rc.lang),
        )
            .into_response()
    };
    let Ok(q) = aivet_web::api::register_query(&filter) else {
        return not_found();
    };
    match rc
        .services
        .incidents_csv(auth, &q, rc.lang, get("bom") == "1")
        .await
    {
        Ok(csv) => {
            let date = rc.services.clock.now().format("%Y-%m-%d");
            csv_download(&format!("aivet-incidents-{date}.csv"), csv)
        }
        Err(aivet_services::ServiceError::Internal(e)) => {
            tracing::error!(request_id = %rc.request_id, error = %e, "export failed");
            middleware::internal_error(&rc.request_id, rc.lang)
        }
        Err(e) => (StatusCode::NOT_FOUND, e.msg().text(rc.lang)).into_response(),
    }
}

async fn import_template() -> Response {
    csv_download(
        "aivet-import-template.csv",
        aivet_services::inventory_csv::template(),
    )
}
