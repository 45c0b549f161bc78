//! Server functions and the data they exchange with the pages.
//!
//! Each one reads the request context (who is asking, in which organisation),
//! calls one service and maps its errors. State-changing ones answer with a
//! redirect, so that the browser shows the new state by loading the page again.
//! All of them are POSTs and pass the same-origin check of the server.

mod inventory;
mod questions;
pub use inventory::*;
pub use questions::*;

use crate::error::AppError;
use aivet_domain::{InviteId, Lang, MembershipId, OrgId, Role};
use chrono::{DateTime, Utc};
use leptos::prelude::*;
use serde::{Deserialize, Serialize};

#[cfg(feature = "ssr")]
use crate::ssr::{auth, ctx, done, service_error};

/// What every page needs to know about the request; computed on the server
/// before rendering.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PageCtx {
    pub lang: Lang,
    pub user: Option<UserView>,
    pub org: Option<OrgView>,
    /// The user's organisations for the header's switcher; empty when there
    /// are more than [`ORG_SWITCH_MAX`] (the header links to a search then).
    pub orgs: Vec<OrgView>,
    /// More organisations than [`ORG_SWITCH_MAX`]: `orgs` is empty.
    pub org_many: bool,
}

#[cfg(feature = "ssr")]
impl From<aivet_store::OrgMembership> for OrgView {
    fn from(o: aivet_store::OrgMembership) -> OrgView {
        OrgView {
            id: o.org_id,
            name: o.name,
            slug: o.slug,
            role: o.role,
        }
    }
}

/// Up to this many organisations the header lists them all.
pub const ORG_SWITCH_MAX: i64 = 25;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct UserView {
    pub name: String,
    pub email: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct OrgView {
    pub id: OrgId,
    pub name: String,
    pub slug: String,
    pub role: Role,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MemberView {
    pub id: MembershipId,
    pub name: String,
    pub email: String,
    pub role: Role,
    pub since: DateTime<Utc>,
    pub is_me: bool,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct InviteView {
    pub id: InviteId,
    pub email: String,
    pub role: Role,
    pub expires_at: DateTime<Utc>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct AuditView {
    pub at: DateTime<Utc>,
    pub actor: String,
    pub action: String,
    pub detail: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SettingsView {
    pub org: OrgView,
    pub members: Vec<MemberView>,
    pub invites: Vec<InviteView>,
    pub audit: Vec<AuditView>,
    pub mail: MailView,
}

/// The mail section of the settings: how mail leaves, and recent mails.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MailView {
    pub transport: String,
    pub from: String,
    pub to_folder: bool,
    pub mails: Vec<MailRow>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MailRow {
    pub id: aivet_domain::MailId,
    pub kind: String,
    pub recipient: String,
    pub subject: String,
    pub message_id: String,
    /// queued, sending, sent, retrying or failed.
    pub status: String,
    pub attempts: i32,
    pub created_at: DateTime<Utc>,
    pub next_attempt_at: DateTime<Utc>,
    pub sent_at: Option<DateTime<Utc>>,
    pub last_error: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct InvitationView {
    pub org_name: String,
    pub email: String,
    pub role: Role,
}

/// A created invitation and its link, shown once.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CreatedInvite {
    pub email: String,
    /// What the page says about it, in the page's language.
    pub message: String,
    pub link: String,
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

#[server(endpoint = "sign_in")]
pub async fn sign_in(email: String, password: String) -> Result<(), AppError> {
    let c = ctx()?;
    let (token, auth) = c
        .services
        .sign_in(&email, &password, &c.client)
        .await
        .map_err(service_error)?;
    c.set_session_cookie(&token);
    c.set_lang_cookie(auth.user.lang);
    done("/")
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
            aivet_domain::Msg::ErrFormInvalid,
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
    let (rows, total) = c
        .services
        .my_orgs_matching(a, &q, 50)
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

#[server(endpoint = "settings_data")]
pub async fn settings_data() -> Result<SettingsView, AppError> {
    let c = ctx()?;
    let a = auth(&c)?;
    let t = a.tenant().map_err(service_error)?;
    let s = &c.services;
    let org = s.store.org(t).await.map_err(|e| service_error(e.into()))?;
    let members = s.members(a).await.map_err(service_error)?;
    let invites = s.pending_invites(a).await.map_err(service_error)?;
    let audit = s
        .store
        .audit_entries(t, 50)
        .await
        .map_err(|e| service_error(e.into()))?;
    let mails = s.mails(a).await.map_err(service_error)?;
    Ok(SettingsView {
        org: OrgView {
            id: org.id,
            name: org.name,
            slug: org.slug,
            role: t.role(),
        },
        members: members
            .into_iter()
            .map(|m| MemberView {
                is_me: m.id == t.membership_id(),
                id: m.id,
                name: m.name,
                email: m.email,
                role: m.role,
                since: m.created_at,
            })
            .collect(),
        invites: invites
            .into_iter()
            .map(|i| InviteView {
                id: i.id,
                email: i.email,
                role: i.role,
                expires_at: i.expires_at,
            })
            .collect(),
        audit: audit
            .into_iter()
            .map(|e| AuditView {
                at: e.at,
                actor: e.actor_label,
                action: e.action,
                detail: e.detail,
            })
            .collect(),
        mail: MailView {
            to_folder: s.mail.transport.starts_with("folder"),
            transport: s.mail.transport.clone(),
            from: s.mail.mailer.from_address(),
            mails: mails
                .into_iter()
                .map(|m| MailRow {
                    id: m.id,
                    kind: m.kind,
                    recipient: m.recipient,
                    subject: m.subject,
                    message_id: m.message_id,
                    status: m.status.as_str().to_owned(),
                    attempts: m.attempts,
                    created_at: m.created_at,
                    next_attempt_at: m.next_attempt_at,
                    sent_at: m.sent_at,
                    last_error: m.last_error,
                })
                .collect(),
        },
    })
}

#[server(endpoint = "send_test_mail")]
pub async fn send_test_mail() -> Result<(), AppError> {
    let c = ctx()?;
    let a = auth(&c)?;
    c.services.send_test_mail(a).await.map_err(service_error)?;
    done("/settings?test_mail=1")
}

#[server(endpoint = "retry_mail")]
pub async fn retry_mail(mail_id: String) -> Result<(), AppError> {
    let c = ctx()?;
    let a = auth(&c)?;
    let id: aivet_domain::MailId = mail_id
        .parse()
        .map_err(|_| service_error(aivet_services::ServiceError::NotFound))?;
    c.services.retry_mail(a, id).await.map_err(service_error)?;
    done("/settings")
}

#[server(endpoint = "create_invite")]
pub async fn create_invite(email: String, role: String) -> Result<CreatedInvite, AppError> {
    let c = ctx()?;
    let a = auth(&c)?;
    let created = c
        .services
        .create_invite(a, &email, &role)
        .await
        .map_err(service_error)?;
    Ok(CreatedInvite {
        message: aivet_domain::Msg::InviteCreated.fill(c.lang, &[("email", &created.invite.email)]),
        email: created.invite.email,
        link: aivet_services::members::invite_link(&c.base_url, &created.token),
    })
}

#[server(endpoint = "revoke_invite")]
pub async fn revoke_invite(invite_id: String) -> Result<(), AppError> {
    let c = ctx()?;
    let a = auth(&c)?;
    let id: InviteId = invite_id
        .parse()
        .map_err(|_| service_error(aivet_services::ServiceError::NotFound))?;
    c.services
        .revoke_invite(a, id)
        .await
        .map_err(service_error)?;
    done("/settings")
}

#[server(endpoint = "remove_member")]
pub async fn remove_member(membership_id: String) -> Result<(), AppError> {
    let c = ctx()?;
    let a = auth(&c)?;
    let id: MembershipId = membership_id
        .parse()
        .map_err(|_| service_error(aivet_services::ServiceError::NotFound))?;
    c.services
        .remove_member(a, id)
        .await
        .map_err(service_error)?;
    done("/settings")
}

#[server(endpoint = "set_member_role")]
pub async fn set_member_role(membership_id: String, role: String) -> Result<(), AppError> {
    let c = ctx()?;
    let a = auth(&c)?;
    let id: MembershipId = membership_id
        .parse()
        .map_err(|_| service_error(aivet_services::ServiceError::NotFound))?;
    let role: Role = role
        .parse()
        .map_err(|m| service_error(aivet_services::ServiceError::Invalid(vec![("role", m)])))?;
    c.services
        .set_member_role(a, id, role)
        .await
        .map_err(service_error)?;
    done("/settings")
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
    let (session, _) = c
        .services
        .reset_password(&token, &password)
        .await
        .map_err(service_error)?;
    c.set_session_cookie(&session);
    done("/")
}
