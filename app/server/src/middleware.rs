//! What every request passes through, outermost first: a request id, the
//! access log, security headers (with a fresh CSP nonce per response), the
//! same-origin check for state changes, and the session.

use crate::AppState;
use aivet_domain::{msg, Lang, Msg};
use aivet_web::context::ORG_SWITCH_MAX;
use aivet_web::ssr::{RequestCtx, LANG_COOKIE, SESSION_COOKIE};
use axum::body::Body;
use axum::extract::{ConnectInfo, MatchedPath, State};
use axum::http::{header, HeaderMap, HeaderValue, Method, Request, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use rand::RngCore;
use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::time::Instant;

/// The id of a request, shown to users with errors and written to every log line.
#[derive(Clone, Debug)]
pub struct RequestId(pub String);

/// The nonce that this response's inline scripts carry.
#[derive(Clone, Debug)]
pub struct CspNonce(pub String);

fn random_hex(bytes: usize) -> String {
    let mut b = vec![0u8; bytes];
    rand::rngs::OsRng.fill_bytes(&mut b);
    hex::encode(b)
}

/// Gives the request an id and logs it when done: method, route pattern
/// (never the raw path, which may carry a link token), status, duration.
pub async fn request_id_and_log(mut req: Request<Body>, next: Next) -> Response {
    let id = random_hex(8);
    req.extensions_mut().insert(RequestId(id.clone()));
    let method = req.method().clone();
    let route = req
        .extensions()
        .get::<MatchedPath>()
        .map(|m| m.as_str().to_owned())
        .unwrap_or_else(|| "(fallback)".into());
    let started = Instant::now();
    let mut res = next.run(req).await;
    let status = res.status().as_u16();
    let ms = started.elapsed().as_secs_f64() * 1000.0;
    if status >= 500 {
        tracing::warn!(request_id = %id, %method, route = %route, status, ms, "request");
    } else {
        tracing::info!(request_id = %id, %method, route = %route, status, ms, "request");
    }
    if let Ok(v) = HeaderValue::from_str(&id) {
        res.headers_mut().insert("x-request-id", v);
    }
    res
}

/// Security headers on every response, including errors and static files.
pub async fn security_headers(
    State(state): State<AppState>,
    mut req: Request<Body>,
    next: Next,
) -> Response {
    let nonce = random_hex(16);
    req.extensions_mut().insert(CspNonce(nonce.clone()));
    let mut res = next.run(req).await;
    let h = res.headers_mut();
    let csp = format!(
        "default-src 'self'; script-src 'self' 'nonce-{nonce}' 'wasm-unsafe-eval'; style-src 'self'; img-src 'self' data:; \
         connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
    );
    h.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_str(&csp).expect("ascii"),
    );
    h.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    // The vendor's answer page sets its own, stricter policy.
    h.entry(header::REFERRER_POLICY)
        .or_insert(HeaderValue::from_static("same-origin"));
    h.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    h.insert(
        "cross-origin-opener-policy",
        HeaderValue::from_static("same-origin"),
    );
    h.insert(
        "permissions-policy",
        HeaderValue::from_static("camera=(), microphone=(), geolocation=(), payment=()"),
    );
    if state.config.is_https() {
        h.insert(
            header::STRICT_TRANSPORT_SECURITY,
            HeaderValue::from_static("max-age=31536000; includeSubDomains"),
        );
    }
    // Pages and API answers may carry personal data: never cache them.
    // Static files set their own policy.
    if !h.contains_key(header::CACHE_CONTROL) {
        h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    }
    res
}

/// The routes that take documents: the vendor's answer page, a request's
/// attachments and an OSV file. They read their bodies themselves, within
/// `AIVET_MAX_UPLOAD_BYTES` (see [`crate::upload`]), so that a refused
/// document does not lose what was typed with it.
pub fn is_upload(path: &str) -> bool {
    path.starts_with("/answer/")
        || (path.starts_with("/requests/") && path.ends_with("/attachments"))
        || path == "/settings/advisories/upload"
}

/// Refuses bodies over `AIVET_MAX_BODY_BYTES`: at once when the length is
/// declared, and otherwise once that much has been read (the handler's
/// answer is then replaced by the refusal).
pub async fn body_limit(State(state): State<AppState>, req: Request<Body>, next: Next) -> Response {
    if is_upload(req.uri().path()) {
        return next.run(req).await;
    }
    let max = state.config.max_body_bytes;
    let declared = req
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    if declared.is_some_and(|n| n > max as u64) {
        return too_large(req.headers(), max, &state.config.base_url);
    }
    let headers = req.headers().clone();
    let (req, cut) = crate::upload::capped(req, max, crate::upload::Cut::Fails);
    let res = next.run(req).await;
    if cut.load(std::sync::atomic::Ordering::SeqCst) {
        return too_large(&headers, max, &state.config.base_url);
    }
    res
}

const TOO_LARGE_PAGE: &str = include_str!("../../../templates/errors/too_large.html");

/// The refusal of a body over `limit` bytes, in the request's language and
/// in the form the client expects: the browser bundle gets its usual JSON
/// error, a form posted by the browser itself a page with the message and a
/// way back, anything else plain text.
pub fn too_large(headers: &HeaderMap, limit: usize, base_url: &str) -> Response {
    let lang = header_lang(headers);
    let size = aivet_domain::attachments::size_text(limit, lang);
    let text = msg!(lang, Msg::ErrTooLarge, limit = &size);
    let accept = headers
        .get(header::ACCEPT)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    if accept.contains("application/json") {
        let mut e = aivet_web::error::AppError::new(Msg::ErrTooLarge);
        e.args = vec![("limit".to_owned(), size)];
        e.shown = Some(Box::new(aivet_web::error::Shown {
            text,
            field_texts: Vec::new(),
        }));
        return (StatusCode::PAYLOAD_TOO_LARGE, axum::Json(e)).into_response();
    }
    if !accept.contains("text/html") {
        return (StatusCode::PAYLOAD_TOO_LARGE, text).into_response();
    }
    let back = headers
        .get(header::REFERER)
        .and_then(|v| v.to_str().ok())
        .and_then(|r| r.strip_prefix(base_url))
        .filter(|p| p.starts_with('/') && !p.starts_with("//"));
    static ENV: std::sync::OnceLock<minijinja::Environment<'static>> = std::sync::OnceLock::new();
    let env = ENV.get_or_init(|| {
        let mut env = minijinja::Environment::new();
        env.set_undefined_behavior(minijinja::UndefinedBehavior::Strict);
        env.add_template("too_large.html", TOO_LARGE_PAGE)
            .expect("the page template parses");
        env
    });
    let html = env
        .get_template("too_large.html")
        .and_then(|t| {
            t.render(minijinja::context! {
                lang => lang.code(),
                title => Msg::TooLargeTitle.text(lang),
                message => text,
                back => back,
                back_text => Msg::BackToForm.text(lang),
            })
        })
        .expect("the page renders with its context");
    (
        StatusCode::PAYLOAD_TOO_LARGE,
        [(header::CONTENT_TYPE, "text/html; charset=utf-8")],
        html,
    )
        .into_response()
}

/// Refuses state-changing requests that a browser says come from another
/// site (CSRF). Non-browser clients must send an `Origin` matching the base URL.
pub async fn same_origin(
    State(state): State<AppState>,
    req: Request<Body>,
    next: Next,
) -> Response {
    if matches!(*req.method(), Method::GET | Method::HEAD | Method::OPTIONS) {
        return next.run(req).await;
    }
    if is_same_origin(req.headers(), &state.config.base_url) {
        next.run(req).await
    } else {
        let lang = header_lang(req.headers());
        (StatusCode::FORBIDDEN, Msg::ErrRequestRejected.text(lang)).into_response()
    }
}

pub fn is_same_origin(headers: &HeaderMap, base_url: &str) -> bool {
    let fetch_site = headers.get("sec-fetch-site").and_then(|v| v.to_str().ok());
    let origin = headers.get(header::ORIGIN).and_then(|v| v.to_str().ok());
    match (fetch_site, origin) {
        (Some("same-origin"), _) => true,
        (Some(_), _) => false,
        (None, Some(o)) => o == base_url,
        (None, None) => false,
    }
}

pub fn cookie<'a>(headers: &'a HeaderMap, name: &str) -> Option<&'a str> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(k, _)| *k == name)
        .map(|(_, v)| v)
}

fn header_lang(headers: &HeaderMap) -> Lang {
    cookie(headers, LANG_COOKIE)
        .and_then(|c| c.parse().ok())
        .unwrap_or_else(|| {
            Lang::negotiate(
                headers
                    .get(header::ACCEPT_LANGUAGE)
                    .and_then(|v| v.to_str().ok())
                    .unwrap_or(""),
            )
        })
}

/// The client's address: the peer, or — only when the peer is a trusted
/// proxy — the last address in X-Forwarded-For that is not a trusted proxy.
pub fn client_ip(peer: IpAddr, headers: &HeaderMap, trusted: &[IpAddr]) -> IpAddr {
    if !trusted.contains(&peer) {
        return peer;
    }
    let forwarded = headers
        .get_all("x-forwarded-for")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .filter_map(|s| s.trim().parse::<IpAddr>().ok())
        .collect::<Vec<_>>();
    forwarded
        .into_iter()
        .rev()
        .find(|ip| !trusted.contains(ip))
        .unwrap_or(peer)
}

/// Resolves the session cookie and the language, and puts the request
/// context where pages and server functions find it. Fails closed: if the
/// session cannot be checked, the request gets a plain 500, never data.
pub async fn session(
    State(state): State<AppState>,
    mut req: Request<Body>,
    next: Next,
) -> Response {
    let request_id = req
        .extensions()
        .get::<RequestId>()
        .map(|r| r.0.clone())
        .unwrap_or_default();
    let peer = req
        .extensions()
        .get::<ConnectInfo<SocketAddr>>()
        .map(|c| c.0.ip())
        .unwrap_or(IpAddr::from([127, 0, 0, 1]));
    let client = client_ip(peer, req.headers(), &state.config.trusted_proxies).to_string();
    // A GET is almost always a page, and every page shows the header's
    // organisation menu: it is read with the session, in one transaction.
    // (The few other GETs, the CSV and calendar files, read two more
    // small rows; a refused form post that renders its page again reads
    // the menu on its own, see `RequestCtx::page_ctx`.)
    let menu_limit = (req.method() == Method::GET).then_some(ORG_SWITCH_MAX);
    let (auth, menu) = match cookie(req.headers(), SESSION_COOKIE) {
        None => (None, None),
        Some(token) => match state
            .services
            .authenticate_with_menu(token, menu_limit)
            .await
        {
            Ok(Some((auth, menu))) => (Some(auth), menu),
            Ok(None) => (None, None),
            Err(e) => {
                tracing::error!(request_id = %request_id, error = %e, "session check failed");
                return internal_error(&request_id, header_lang(req.headers()));
            }
        },
    };
    let lang = auth
        .as_ref()
        .map(|a| a.user.lang)
        .unwrap_or_else(|| header_lang(req.headers()));
    req.extensions_mut().insert(Arc::new(RequestCtx {
        services: state.services.clone(),
        auth,
        menu,
        lang,
        client,
        request_id,
        base_url: state.config.base_url.clone(),
        secure_cookies: state.config.is_https(),
    }));
    next.run(req).await
}

/// The plain answer to a failure of ours: a message and the request id.
pub fn internal_error(request_id: &str, lang: Lang) -> Response {
    (
        StatusCode::INTERNAL_SERVER_ERROR,
        msg!(lang, Msg::ErrGeneric, id = request_id),
    )
        .into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn forwarded_for_only_from_trusted_proxies() {
        let mut h = HeaderMap::new();
        h.insert(
            "x-forwarded-for",
            HeaderValue::from_static("6.6.6.6, 10.0.0.7"),
        );
        let proxy: IpAddr = "10.0.0.1".parse().unwrap();
        let peer: IpAddr = "192.0.2.9".parse().unwrap();
        assert_eq!(client_ip(peer, &h, &[proxy]), peer);
        assert_eq!(
            client_ip(proxy, &h, &[proxy]),
            "10.0.0.7".parse::<IpAddr>().unwrap()
        );
    }

    #[test]
    fn same_origin_rules() {
        let base = "https://aivet.example";
        let mut h = HeaderMap::new();
        assert!(!is_same_origin(&h, base));
        h.insert(
            header::ORIGIN,
            HeaderValue::from_static("https://aivet.example"),
        );
        assert!(is_same_origin(&h, base));
        h.insert("sec-fetch-site", HeaderValue::from_static("cross-site"));
        assert!(!is_same_origin(&h, base));
        h.insert("sec-fetch-site", HeaderValue::from_static("same-origin"));
        h.insert(
            header::ORIGIN,
            HeaderValue::from_static("https://evil.example"),
        );
        assert!(
            is_same_origin(&h, base),
            "the browser's word for same-origin wins"
        );
        let mut h = HeaderMap::new();
        h.insert(
            header::ORIGIN,
            HeaderValue::from_static("https://evil.example"),
        );
        assert!(!is_same_origin(&h, base));
    }

    #[test]
    fn cookies_by_name() {
        let mut h = HeaderMap::new();
        h.insert(
            header::COOKIE,
            HeaderValue::from_static("a=1; aivet_session=abc; b=2"),
        );
        assert_eq!(cookie(&h, "aivet_session"), Some("abc"));
        assert_eq!(cookie(&h, "c"), None);
    }
}
