//! Server-side glue between axum and the pages: the per-request context the
//! server provides, and the helpers server functions use to read it, set
//! cookies, redirect and report errors.

use crate::context::{OrgView, PageCtx, UserView, ORG_SWITCH_MAX};
use crate::error::AppError;
use aivet_domain::{Fmt, Lang, Msg, Zone};
use aivet_services::{Auth, ServiceError, Services, SessionToken};
use aivet_store::OrgMenu;
use http::header::{HeaderValue, REFERER, SET_COOKIE};
use http::StatusCode;
use leptos::prelude::*;
use leptos_axum::ResponseOptions;
use std::sync::Arc;

pub const SESSION_COOKIE: &str = "aivet_session";
pub const LANG_COOKIE: &str = "aivet_lang";
/// Marks a browser that signed in to an account (see `aivet_services::accounts`).
pub const DEVICE_COOKIE: &str = "aivet_device";

/// Everything a page or server function may know about its request. Built by
/// the server's middleware; the organisation comes from the session, never
/// from the request's parameters. Provided as an `Arc` (read many times
/// per page, never changed).
pub struct RequestCtx {
    pub services: Services,
    pub auth: Option<Auth>,
    /// The header's organisation menu when it was read with the session
    /// (page requests); `page_ctx` reads it otherwise.
    pub menu: Option<OrgMenu>,
    pub lang: Lang,
    /// The client's network address (the peer, or the proxy's header when the
    /// peer is a configured proxy), for rate limits.
    pub client: String,
    pub request_id: String,
    /// The configured public base URL, without a trailing slash. Links are
    /// built from it, never from the Host header.
    pub base_url: String,
    pub secure_cookies: bool,
}

impl RequestCtx {
    /// The time zone of the request's organisation (the language's
    /// default when signed out or outside an organisation).
    pub fn zone(&self) -> Zone {
        self.auth
            .as_ref()
            .and_then(|a| a.tenant.as_ref())
            .map(|t| t.zone())
            .unwrap_or_else(|| Zone::default_for(self.lang))
    }

    /// How this request writes dates and times.
    pub fn fmt(&self) -> Fmt {
        Fmt::new(self.lang, self.zone())
    }

    pub fn link(&self, path: &str) -> String {
        format!("{}{}", self.base_url, path)
    }

    fn cookie_attrs(&self) -> &'static str {
        if self.secure_cookies {
            "; Path=/; HttpOnly; SameSite=Lax; Secure"
        } else {
            "; Path=/; HttpOnly; SameSite=Lax"
        }
    }

    fn add_cookie(&self, cookie: String) {
        if let (Some(res), Ok(v)) = (
            use_context::<ResponseOptions>(),
            HeaderValue::from_str(&cookie),
        ) {
            res.append_header(SET_COOKIE, v);
        }
    }

    pub fn set_session_cookie(&self, token: &SessionToken) {
        self.add_cookie(format!(
            "{SESSION_COOKIE}={}{}",
            token.0,
            self.cookie_attrs()
        ));
    }

    pub fn clear_session_cookie(&self) {
        self.add_cookie(format!(
            "{SESSION_COOKIE}=; Max-Age=0{}",
            self.cookie_attrs()
        ));
    }

    /// Kept a year, renewed at each sign-in.
    pub fn set_device_cookie(&self, device: &aivet_services::DeviceToken) {
        self.add_cookie(format!(
            "{DEVICE_COOKIE}={}; Max-Age=31536000{}",
            device.0,
            self.cookie_attrs()
        ));
    }

    /// The device cookie the request came with.
    pub fn device_cookie(&self) -> Option<String> {
        let parts = use_context::<http::request::Parts>()?;
        parts
            .headers
            .get_all(http::header::COOKIE)
            .iter()
            .filter_map(|v| v.to_str().ok())
            .flat_map(|v| v.split(';'))
            .filter_map(|pair| pair.trim().split_once('='))
            .find(|(k, _)| *k == DEVICE_COOKIE)
            .map(|(_, v)| v.to_owned())
    }

    pub fn set_lang_cookie(&self, lang: Lang) {
        self.add_cookie(format!(
            "{LANG_COOKIE}={}; Max-Age=31536000{}",
            lang.code(),
            self.cookie_attrs()
        ));
    }

    /// Redirects to the page the request came from (same origin only).
    pub fn back(&self) -> Result<(), AppError> {
        let referer = use_context::<http::request::Parts>().and_then(|p| {
            p.headers
                .get(REFERER)
                .and_then(|v| v.to_str().ok())
                .map(str::to_owned)
        });
        let target = referer
            .as_deref()
            .and_then(|r| r.strip_prefix(&self.base_url))
            .filter(|p| p.starts_with('/') && !p.starts_with("//"))
            .unwrap_or("/")
            .to_owned();
        done(&target)
    }

    /// The context every page needs, from the session.
    pub async fn page_ctx(&self) -> Result<PageCtx, ServiceError> {
        let Some(auth) = &self.auth else {
            return Ok(PageCtx {
                lang: self.lang,
                zone: self.zone(),
                user: None,
                org: None,
                orgs: Vec::new(),
                org_many: false,
            });
        };
        let menu = match &self.menu {
            Some(menu) => menu.clone(),
            None => self.services.org_menu(auth, ORG_SWITCH_MAX).await?,
        };
        Ok(PageCtx {
            lang: self.lang,
            zone: self.zone(),
            user: Some(UserView {
                name: auth.user.name.clone(),
                email: auth.user.email.clone(),
            }),
            org: menu.current.map(OrgView::from),
            orgs: menu.orgs.into_iter().map(OrgView::from).collect(),
            org_many: menu.many,
        })
    }
}

/// The request context; its absence is a server bug.
pub fn ctx() -> Result<Arc<RequestCtx>, AppError> {
    use_context::<Arc<RequestCtx>>().ok_or_else(|| AppError::new(Msg::ErrGeneric))
}

/// The signed-in user, or a "please sign in" error.
pub fn auth(c: &RequestCtx) -> Result<&Auth, AppError> {
    c.auth
        .as_ref()
        .ok_or_else(|| service_error(ServiceError::Unauthenticated))
}

/// Ends a state-changing server function with a redirect to `path`.
pub fn done(path: &str) -> Result<(), AppError> {
    leptos_axum::redirect(path);
    Ok(())
}

/// Maps a service error to what the user sees, with the matching HTTP status.
/// Our own failures are logged with their cause and the request id; the user
/// gets only the id.
pub fn service_error(e: ServiceError) -> AppError {
    let status = match &e {
        ServiceError::NotFound => StatusCode::NOT_FOUND,
        ServiceError::Unauthenticated => StatusCode::UNAUTHORIZED,
        ServiceError::Forbidden => StatusCode::FORBIDDEN,
        ServiceError::Invalid(_) | ServiceError::InvalidAt(_) | ServiceError::Refused(_) => {
            StatusCode::UNPROCESSABLE_ENTITY
        }
        ServiceError::Blocked(..) => StatusCode::CONFLICT,
        ServiceError::BadCredentials => StatusCode::UNAUTHORIZED,
        ServiceError::RateLimited(_) => StatusCode::TOO_MANY_REQUESTS,
        ServiceError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
    };
    set_error_status(status);
    let mut err = AppError::new(e.msg());
    if let ServiceError::Invalid(fields) = &e {
        err.fields = fields.iter().map(|(f, m)| ((*f).to_owned(), *m)).collect();
    }
    if let ServiceError::InvalidAt(fields) = &e {
        err.fields = fields.clone();
    }
    if let ServiceError::Blocked(_, names) = &e {
        err.args = vec![("names".to_owned(), names.join(", "))];
    }
    if let ServiceError::Internal(cause) = &e {
        let request_id = use_context::<Arc<RequestCtx>>()
            .map(|c| c.request_id.clone())
            .unwrap_or_default();
        tracing::error!(request_id = %request_id, error = %cause, "request failed");
        err.request_id = Some(request_id);
    }
    err
}

/// Sets the response status of an error. (A plain form post gets its page
/// again with this status: see `forms`.)
pub fn set_error_status(status: StatusCode) {
    if let Some(res) = use_context::<ResponseOptions>() {
        res.set_status(status);
    }
}
