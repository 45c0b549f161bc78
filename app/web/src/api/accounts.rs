//! Server functions of accounts: signing up, in and out, the language,
//! organisations of a user, passwords, and joining through an invitation.

use crate::context::OrgView;
use crate::error::AppError;
use aivet_domain::{Lang, OrgId, Role};
use leptos::prelude::*;
use serde::{Deserialize, Serialize};

#[cfg(feature = "ssr")]
use crate::ssr::{auth, ctx, done, service_error};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct InvitationView {
    pub org_name: String,
    pub email: String,
    pub role: Role,
}

#[server(endpoint = "sign_up")]
pub async fn sign_up(
    email: String,
    password: String,
    name: String,
    org_name: String,
) -> Result<(), AppError> {
    let c = ctx()?;
    let (token, _) = c
        .services
        .sign_up(&email, &password, &name, &org_name, c.lang)
        .await
        .map_err(service_error)?;
    c.set_session_cookie(&token);
    done("/")
}

/// Signs in, then goes to `next` (the page that asked for it) when that
/// is a page of this site, else to the dashboard.
#[server(endpoint = "sign_in")]
pub async fn sign_in(
    email: String,
    password: String,
    #[server(default)] next: String,
) -> Result<(), AppError> {
    let c = ctx()?;
    let device = c.device_cookie();
    let (token, auth, device) = c
        .services
        .sign_in(&email, &password, &c.client, device.as_deref())
        .await
        .map_err(service_error)?;
    c.set_session_cookie(&token);
    c.set_device_cookie(&device);
    c.set_lang_cookie(auth.user.lang);
    done(&crate::address::local_path(&next).unwrap_or_else(|| "/".to_owned()))
}

#[server(endpoint = "sign_out")]
pub async fn sign_out() -> Result<(), AppError> {
    let c = ctx()?;
    if let Some(a) = &c.auth {
        c.services.sign_out(a).await.map_err(service_error)?;
    }
    c.clear_session_cookie();
    done("/login")
}

/// Switches the language; remembered for the user, or in a cookie before sign-in.
#[server(endpoint = "set_language")]
pub async fn set_language(lang: String) -> Result<(), AppError> {
    let c = ctx()?;
    let lang: Lang = lang.parse().map_err(|_| {
        service_error(aivet_services::ServiceError::Invalid(vec![(
            "lang",
            aivet_domain::Msg::ErrChoiceInvalid,
        )]))
    })?;
    if let Some(a) = &c.auth {
        c.services
            .set_language(a, lang)
            .await
            .map_err(service_error)?;
    }
    c.set_lang_cookie(lang);
    c.back()
}

#[server(endpoint = "switch_org")]
pub async fn switch_org(org_id: String) -> Result<(), AppError> {
    let c = ctx()?;
    let a = auth(&c)?;
    let org: OrgId = org_id
        .parse()
        .map_err(|_| service_error(aivet_services::ServiceError::NotFound))?;
    c.services.switch_org(a, org).await.map_err(service_error)?;
    done("/")
}

/// The user's organisations whose name contains `q` (at most 50), for the
/// page that finds one among many.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct OrgListView {
    pub rows: Vec<OrgView>,
    pub total: i64,
    pub current: Option<OrgId>,
}

#[server(endpoint = "my_org_list")]
pub async fn my_org_list(#[server(default)] q: String) -> Result<OrgListView, AppError> {
    let c = ctx()?;
    let a = auth(&c)?;
    let text = super::search_text(&q)?;
    let (rows, total) = c
        .services
        .my_orgs_matching(a, text.as_ref(), 50)
        .await
        .map_err(service_error)?;
    Ok(OrgListView {
        rows: rows.into_iter().map(OrgView::from).collect(),
        total,
        current: a.tenant.as_ref().map(|t| t.org_id()),
    })
}

#[server(endpoint = "create_org")]
pub async fn create_org(org_name: String) -> Result<(), AppError> {
    let c = ctx()?;
    let a = auth(&c)?;
    c.services
        .create_org(a, &org_name)
        .await
        .map_err(service_error)?;
    done("/")
}

#[server(endpoint = "change_password")]
pub async fn change_password(
    current_password: String,
    new_password: String,
) -> Result<(), AppError> {
    let c = ctx()?;
    let a = auth(&c)?;
    c.services
        .change_password(a, &current_password, &new_password)
        .await
        .map_err(service_error)?;
    done("/account?changed=1")
}

/// What an invitation link shows; `None` for every link that cannot be used.
#[server(endpoint = "invite_info")]
pub async fn invite_info(token: String) -> Result<Option<InvitationView>, AppError> {
    let c = ctx()?;
    let open = c
        .services
        .open_invite(&token)
        .await
        .map_err(service_error)?;
    Ok(open.map(|o| InvitationView {
        org_name: o.org_name,
        email: o.invite.email,
        role: o.invite.role,
    }))
}

#[server(endpoint = "accept_invite")]
pub async fn accept_invite(token: String) -> Result<(), AppError> {
    let c = ctx()?;
    let a = auth(&c)?;
    c.services
        .accept_invite(a, &token)
        .await
        .map_err(service_error)?;
    done("/")
}

#[server(endpoint = "sign_up_with_invite")]
pub async fn sign_up_with_invite(
    token: String,
    name: String,
    password: String,
) -> Result<(), AppError> {
    let c = ctx()?;
    let (session, _) = c
        .services
        .sign_up_with_invite(&token, &name, &password, c.lang)
        .await
        .map_err(service_error)?;
    c.set_session_cookie(&session);
    done("/")
}

/// Sends a reset link when the address has an account; answers the same either way.
#[server(endpoint = "request_password_reset")]
pub async fn request_password_reset(email: String) -> Result<(), AppError> {
    let c = ctx()?;
    c.services
        .request_password_reset(&email, &c.client, c.lang)
        .await
        .map_err(service_error)?;
    done("/forgot-password?sent=1")
}

/// Whether a reset link can still be used; opening it changes nothing.
#[server(endpoint = "password_reset_info")]
pub async fn password_reset_info(token: String) -> Result<bool, AppError> {
    let c = ctx()?;
    c.services
        .password_reset_open(&token)
        .await
        .map_err(service_error)
}

#[server(endpoint = "reset_password")]
pub async fn reset_password(token: String, password: String) -> Result<(), AppError> {
    let c = ctx()?;
    let (session, _, device) = c
        .services
        .reset_password(&token, &password)
        .await
        .map_err(service_error)?;
    c.set_session_cookie(&session);
    c.set_device_cookie(&device);
    done("/")
}
