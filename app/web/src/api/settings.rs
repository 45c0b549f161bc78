//! Server functions of an organisation's settings: members and their
//! roles, invitations, the audit log and the mail outbox.

use crate::context::OrgView;
use crate::error::AppError;
use aivet_domain::follow_ups::Policy;
use aivet_domain::jobs::JobStatus;
use aivet_domain::mail::MailStatus;
use aivet_domain::{msg, InviteId, JobId, MembershipId, Role, Zone};
use chrono::{DateTime, Utc};
use leptos::prelude::*;
use serde::{Deserialize, Serialize};

#[cfg(feature = "ssr")]
use crate::ssr::{auth, ctx, done, service_error};

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
    /// The stored action code (`vendor.created`).
    pub action: String,
    /// What happened, in the page's language (an entry written before the
    /// log was typed: its code and text as stored).
    pub text: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SettingsView {
    pub org: OrgView,
    /// Jobs that failed or wait for another attempt (owners only; empty
    /// for everyone else).
    pub jobs: Vec<JobRow>,
    /// How the organisation follows up (reminders, review and re-assessment).
    pub policy: Policy,
    /// The organisation's time zone, and those an owner can choose.
    pub zone: Zone,
    pub zones: Vec<Zone>,
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

/// A job that failed or waits for another attempt.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct JobRow {
    pub id: JobId,
    pub kind: String,
    /// What the job does, in the page's language.
    pub what: String,
    pub status: JobStatus,
    pub attempts: i32,
    pub run_at: DateTime<Utc>,
    pub last_error: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MailRow {
    pub id: aivet_domain::MailId,
    pub kind: String,
    pub recipient: String,
    pub subject: String,
    pub message_id: String,
    pub status: MailStatus,
    pub attempts: i32,
    pub created_at: DateTime<Utc>,
    pub next_attempt_at: DateTime<Utc>,
    pub sent_at: Option<DateTime<Utc>>,
    pub last_error: Option<String>,
}

/// A created invitation and its link, shown once.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CreatedInvite {
    pub email: String,
    /// What the page says about it, in the page's language.
    pub message: String,
    pub link: String,
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
    let jobs = if t.role().can_manage_members() {
        s.job_problems(a).await.map_err(service_error)?
    } else {
        Vec::new()
    };
    let policy = s.follow_up_policy(a).await.map_err(service_error)?;
    Ok(SettingsView {
        policy,
        jobs: jobs
            .into_iter()
            .map(|j| JobRow {
                id: j.id,
                what: j
                    .job()
                    .map(|job| job.label().text(c.lang).to_owned())
                    .unwrap_or_else(|| j.kind.clone()),
                kind: j.kind,
                status: j.status,
                attempts: j.attempts,
                run_at: j.run_at,
                last_error: j.last_error,
            })
            .collect(),
        zone: org.time_zone,
        zones: Zone::choices(),
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
                text: match e.event() {
                    Some(event) => event.describe(c.lang),
                    None => format!("{} {}", e.action, e.detail),
                },
                actor: e.actor_label,
                action: e.action,
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
                    status: m.status,
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
        message: msg!(
            c.lang,
            aivet_domain::Msg::InviteCreated,
            email = &created.invite.email
        ),
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

#[server(endpoint = "set_time_zone")]
pub async fn set_time_zone(time_zone: String) -> Result<(), AppError> {
    let c = ctx()?;
    let a = auth(&c)?;
    c.services
        .set_time_zone(a, &time_zone)
        .await
        .map_err(service_error)?;
    done("/settings?saved=time_zone")
}

#[server(endpoint = "retry_job")]
pub async fn retry_job(job_id: String) -> Result<(), AppError> {
    let c = ctx()?;
    let a = auth(&c)?;
    let id: JobId = super::parse_id(&job_id)?;
    c.services.retry_job(a, id).await.map_err(service_error)?;
    done("/settings#jobs-title")
}
