//! Persistence for aivet. All SQL of the application lives in this crate.
//!
//! [`Store`] is the one interface; [`sqlite::SqliteStore`] and
//! [`postgres::PgStore`] implement it. The queries both databases share are
//! written once (`shared.rs`, compiled once per backend); what differs (connection
//! settings, migrations, how a transaction learns its tenant) lives in each
//! backend's own file.
//!
//! Tenancy by construction: every function that touches an organisation's data
//! takes a [`Tenant`], and a `Tenant` can only be obtained from
//! [`Store::tenant_for`], which checks the membership. Every tenant query binds
//! `org_id`; on PostgreSQL row-level security checks it a second time.

use aivet_domain::{
    Email, InviteId, Lang, MailId, MembershipId, OrgId, OrgName, PersonName, Role, Slug, UserId,
    Zone,
};
use async_trait::async_trait;
use chrono::{DateTime, Utc};
use std::sync::Arc;

pub mod advisory;
pub mod clearance;
pub mod follow_ups;
pub mod incident;
pub mod inventory;
pub mod jobs;
mod kept;
pub mod postgres;
pub mod questions;
pub mod report;
pub mod sqlite;
#[cfg(feature = "testing")]
pub mod testing;
pub mod transfer;
mod ts;

pub use ts::{OptTs, Ts};

#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The record does not exist, or belongs to another organisation (the two are
    /// indistinguishable by design).
    #[error("not found")]
    NotFound,
    #[error("an account with this email exists")]
    EmailTaken,
    #[error("already a member")]
    AlreadyMember,
    #[error("the organisation would have no owner left")]
    LastOwner,
    /// Another record of the organisation already has this name.
    #[error("name taken")]
    NameTaken,
    /// Other records depend on this one (their names).
    #[error("in use by {0:?}")]
    InUse(Vec<String>),
    /// The organisation being imported is in this database already.
    #[error("the organisation is in this database already")]
    OrgExists,
    /// These fields name records the organisation does not have.
    #[error("unknown references: {0:?}")]
    UnknownRefs(Vec<&'static str>),
    #[error("database: {0}")]
    Database(#[from] sqlx::Error),
    #[error("migration: {0}")]
    Migrate(#[from] sqlx::migrate::MigrateError),
    /// A per-record limit was reached (e.g. files per request).
    #[error("limit reached")]
    TooMany,
    /// The request was submitted and is closed for changes.
    #[error("closed")]
    Closed,
    #[error("configuration: {0}")]
    Config(String),
}

pub type Result<T, E = StoreError> = std::result::Result<T, E>;

/// Proof that a user is a member of an organisation, with the role they have
/// there and the organisation's time zone (every rule about "today" needs
/// it). Only the store creates it, from a membership it has just read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tenant {
    org_id: OrgId,
    user_id: UserId,
    membership_id: MembershipId,
    role: Role,
    zone: Zone,
}

impl Tenant {
    pub(crate) fn new(
        org_id: OrgId,
        user_id: UserId,
        membership_id: MembershipId,
        role: Role,
        zone: Zone,
    ) -> Tenant {
        Tenant {
            org_id,
            user_id,
            membership_id,
            role,
            zone,
        }
    }
    /// The organisation's time zone.
    pub fn zone(&self) -> Zone {
        self.zone
    }
    pub fn org_id(&self) -> OrgId {
        self.org_id
    }
    pub fn user_id(&self) -> UserId {
        self.user_id
    }
    pub fn membership_id(&self) -> MembershipId {
        self.membership_id
    }
    pub fn role(&self) -> Role {
        self.role
    }
}

#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow)]
pub struct User {
    #[sqlx(try_from = "uuid::Uuid")]
    pub id: UserId,
    pub email: String,
    pub name: String,
    #[sqlx(try_from = "String")]
    pub lang: Lang,
    #[sqlx(try_from = "Ts")]
    pub created_at: DateTime<Utc>,
}

/// The data needed to check a password.
#[derive(Clone, Debug, sqlx::FromRow)]
pub struct Credentials {
    #[sqlx(try_from = "uuid::Uuid")]
    pub user_id: UserId,
    pub password_hash: String,
}

#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow)]
pub struct Org {
    #[sqlx(try_from = "uuid::Uuid")]
    pub id: OrgId,
    pub slug: String,
    pub name: String,
    #[sqlx(try_from = "Ts")]
    pub created_at: DateTime<Utc>,
    #[sqlx(try_from = "String")]
    pub time_zone: Zone,
}

/// One organisation a user belongs to, for the organisation switcher.
#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow)]
pub struct OrgMembership {
    #[sqlx(try_from = "uuid::Uuid")]
    pub org_id: OrgId,
    pub slug: String,
    pub name: String,
    #[sqlx(try_from = "String")]
    pub role: Role,
}

/// See [`Store::org_menu`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct OrgMenu {
    /// More memberships than the menu's limit: `orgs` is empty.
    pub many: bool,
    pub orgs: Vec<OrgMembership>,
    pub current: Option<OrgMembership>,
}

#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow)]
pub struct Member {
    #[sqlx(try_from = "uuid::Uuid")]
    pub id: MembershipId,
    #[sqlx(try_from = "uuid::Uuid")]
    pub user_id: UserId,
    pub name: String,
    pub email: String,
    #[sqlx(try_from = "String")]
    pub role: Role,
    #[sqlx(try_from = "Ts")]
    pub created_at: DateTime<Utc>,
}

#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow)]
pub struct Invite {
    #[sqlx(try_from = "uuid::Uuid")]
    pub id: InviteId,
    #[sqlx(try_from = "uuid::Uuid")]
    pub org_id: OrgId,
    pub email: String,
    #[sqlx(try_from = "String")]
    pub role: Role,
    #[sqlx(try_from = "Ts")]
    pub created_at: DateTime<Utc>,
    #[sqlx(try_from = "Ts")]
    pub expires_at: DateTime<Utc>,
    #[sqlx(try_from = "OptTs")]
    pub accepted_at: Option<DateTime<Utc>>,
    #[sqlx(try_from = "OptTs")]
    pub revoked_at: Option<DateTime<Utc>>,
}

/// An invitation as its link shows it: still open, with the organisation's name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OpenInvite {
    pub invite: Invite,
    pub org_name: String,
}

/// See [`Store::session_view`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SessionView {
    pub session: SessionRecord,
    pub tenant: Option<Tenant>,
    pub menu: Option<OrgMenu>,
}

/// A session with its user (read together: every request needs both).
#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow)]
pub struct SessionRecord {
    #[sqlx(try_from = "uuid::Uuid")]
    pub user_id: UserId,
    #[sqlx(try_from = "OptUuid")]
    pub org_id: Option<OrgId>,
    #[sqlx(try_from = "Ts", rename = "session_created_at")]
    pub created_at: DateTime<Utc>,
    #[sqlx(try_from = "Ts")]
    pub last_seen_at: DateTime<Utc>,
    #[sqlx(try_from = "Ts")]
    pub expires_at: DateTime<Utc>,
    #[sqlx(flatten)]
    pub user: User,
}

#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow)]
pub struct AuditEntry {
    #[sqlx(try_from = "Ts")]
    pub at: DateTime<Utc>,
    pub actor_label: String,
    pub action: String,
    pub detail: String,
}

/// A mail rendered and ready to queue.
#[derive(Clone, Debug)]
pub struct NewMail {
    pub id: MailId,
    /// The organisation the mail belongs to; `None` for a person's own mails.
    pub org_id: Option<OrgId>,
    pub kind: &'static str,
    pub recipient: String,
    pub subject: String,
    /// The complete RFC 5322 message, as it goes over the wire.
    pub message: Vec<u8>,
    pub message_id: String,
    pub created_at: DateTime<Utc>,
    /// After this, a mail that still fails is given up as failed.
    pub give_up_at: DateTime<Utc>,
}

pub use aivet_domain::mail::MailStatus;

/// What became of one claimed mail.
#[derive(Clone, Debug)]
pub enum MailOutcome {
    Sent {
        id: MailId,
        at: DateTime<Utc>,
    },
    Retry {
        id: MailId,
        next_attempt_at: DateTime<Utc>,
        error: String,
    },
    Failed {
        id: MailId,
        error: String,
    },
}

/// A mail as the settings page lists it.
#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow)]
pub struct MailRecord {
    #[sqlx(try_from = "uuid::Uuid")]
    pub id: MailId,
    pub kind: String,
    pub recipient: String,
    pub subject: String,
    pub message_id: String,
    #[sqlx(try_from = "String")]
    pub status: MailStatus,
    pub attempts: i32,
    #[sqlx(try_from = "Ts")]
    pub created_at: DateTime<Utc>,
    #[sqlx(try_from = "Ts")]
    pub next_attempt_at: DateTime<Utc>,
    #[sqlx(try_from = "OptTs")]
    pub sent_at: Option<DateTime<Utc>>,
    pub last_error: Option<String>,
}

/// A mail a worker has claimed and now owns until its lease runs out.
#[derive(Clone, Debug, sqlx::FromRow)]
pub struct ClaimedMail {
    #[sqlx(try_from = "uuid::Uuid")]
    pub id: MailId,
    pub recipient: String,
    pub message: Vec<u8>,
    pub message_id: String,
    pub attempts: i32,
    #[sqlx(try_from = "Ts")]
    pub give_up_at: DateTime<Utc>,
}

/// A nullable UUID column, decoded into an optional typed id.
#[derive(Clone, Copy, Debug, sqlx::Type)]
#[sqlx(transparent)]
pub struct OptUuid(pub Option<uuid::Uuid>);
impl<T: From<uuid::Uuid>> From<OptUuid> for Option<T> {
    fn from(u: OptUuid) -> Self {
        u.0.map(T::from)
    }
}

/// A new account as the sign-up form gives it, with the password already hashed.
#[derive(Clone, Debug)]
pub struct NewUser {
    pub email: Email,
    pub name: PersonName,
    pub password_hash: String,
    pub lang: Lang,
}

/// What the audit log records (see [`aivet_domain::audit`]).
pub use aivet_domain::Audit as AuditEvent;

impl AuditEntry {
    /// The entry as it was recorded; `None` for entries written before the
    /// log was typed (their `action` and `detail` are free text).
    pub fn event(&self) -> Option<AuditEvent> {
        AuditEvent::from_stored(&self.action, &self.detail)
    }
}

/// An audit event as stored: its action code and its fields as JSON.
pub(crate) fn audit_columns(event: &AuditEvent) -> (String, String) {
    let mut value = serde_json::to_value(event).unwrap_or_default();
    let action = value
        .get("action")
        .and_then(|a| a.as_str())
        .unwrap_or_default()
        .to_owned();
    let detail = value
        .get_mut("detail")
        .map(serde_json::Value::take)
        .unwrap_or(serde_json::Value::Null);
    (action, detail.to_string())
}

#[async_trait]
#[allow(clippy::too_many_arguments)]
pub trait Store:
    inventory::InventoryStore
    + questions::QuestionStore
    + jobs::JobStore
    + follow_ups::FollowUpStore
    + report::ReportStore
    + clearance::ClearanceStore
    + incident::IncidentStore
    + advisory::AdvisoryStore
    + transfer::TransferStore
    + Send
    + Sync
    + 'static
{
    /// Which database this is ("sqlite" or "postgres"), for health and logs.
    fn backend(&self) -> &'static str;
    /// A cheap round trip, for the health check.
    async fn ping(&self) -> Result<()>;

    // --- accounts (no tenant) ---

    /// Creates a user, a new organisation (with a unique slug derived from
    /// `slug_base`) and the user's owner membership, in one transaction.
    async fn sign_up(
        &self,
        user: NewUser,
        org: &OrgName,
        slug_base: &Slug,
        now: DateTime<Utc>,
    ) -> Result<(User, Tenant)>;
    async fn credentials(&self, email: &Email) -> Result<Option<Credentials>>;
    async fn user(&self, id: UserId) -> Result<User>;
    async fn password_hash(&self, id: UserId) -> Result<String>;
    async fn set_password_hash(&self, id: UserId, hash: &str, now: DateTime<Utc>) -> Result<()>;
    async fn set_user_lang(&self, id: UserId, lang: Lang) -> Result<()>;

    // --- sessions (no tenant; keyed by the hash of the session id) ---

    async fn create_session(
        &self,
        id_hash: &[u8],
        user: UserId,
        org: Option<OrgId>,
        now: DateTime<Utc>,
        expires_at: DateTime<Utc>,
    ) -> Result<()>;
    /// The session with its user and, read in the same transaction, the
    /// user's membership in the session's organisation (`tenant`, `None`
    /// without one) and, given a `menu_limit` and a tenant, the header's
    /// organisation menu (as [`Store::org_menu`] for that tenant). What a
    /// page request needs before anything else, in one transaction.
    async fn session_view(
        &self,
        id_hash: &[u8],
        menu_limit: Option<i64>,
    ) -> Result<Option<SessionView>>;
    async fn touch_session(&self, id_hash: &[u8], now: DateTime<Utc>) -> Result<()>;
    async fn set_session_org(&self, id_hash: &[u8], org: OrgId) -> Result<()>;
    async fn delete_session(&self, id_hash: &[u8]) -> Result<()>;
    /// Ends all of a user's sessions but `keep` (after a password change).
    async fn delete_other_sessions(&self, user: UserId, keep: &[u8]) -> Result<u64>;
    async fn delete_expired_sessions(&self, now: DateTime<Utc>) -> Result<u64>;

    // --- organisations and membership ---

    /// The user's membership in `org`, as a tenant context; `NotFound` when
    /// there is none (whether or not the organisation exists).
    async fn tenant_for(&self, user: UserId, org: OrgId) -> Result<Tenant>;
    /// The user's first organisation by name, where a new session starts
    /// (`None` for a user without any).
    async fn first_tenant(&self, user: UserId) -> Result<Option<Tenant>>;
    async fn orgs_of_user(&self, user: UserId) -> Result<Vec<OrgMembership>>;
    /// At most `limit` of the user's organisations whose name contains
    /// `text` (all without one), by name, and how many match.
    async fn orgs_of_user_matching(
        &self,
        user: UserId,
        text: Option<&aivet_domain::SearchText>,
        limit: i64,
    ) -> Result<(Vec<OrgMembership>, i64)>;
    /// The header's organisation menu: whether the user belongs to more
    /// than `limit` organisations, all of them by name when not (none
    /// otherwise: the header then links to a search), and the
    /// membership in `current` (the session's tenant, whose scope then
    /// applies). Reads no organisation beyond those.
    async fn org_menu(&self, user: UserId, current: Option<&Tenant>, limit: i64)
        -> Result<OrgMenu>;
    async fn create_org(
        &self,
        user: UserId,
        name: &OrgName,
        slug_base: &Slug,
        now: DateTime<Utc>,
    ) -> Result<Tenant>;
    async fn org(&self, t: &Tenant) -> Result<Org>;
    /// The organisation with this slug, as its first owner's tenant (for
    /// the commands that work on the database without a session).
    /// `NotFound` when there is none.
    async fn owner_of_slug(&self, slug: &str) -> Result<(User, Tenant)>;
    /// Takes an organisation out of use without deleting it (its audit log
    /// is append-only): its slug and name get `suffix`, and the user's
    /// membership ends. For `aivet demo`, which starts each demo afresh.
    async fn retire_org(
        &self,
        user: UserId,
        org: OrgId,
        suffix: &str,
        now: DateTime<Utc>,
    ) -> Result<()>;
    /// Sets the organisation's time zone (with an audit entry).
    async fn set_time_zone(
        &self,
        t: &Tenant,
        zone: Zone,
        event: AuditEvent,
        now: DateTime<Utc>,
    ) -> Result<()>;
    async fn members(&self, t: &Tenant) -> Result<Vec<Member>>;
    async fn remove_member(
        &self,
        t: &Tenant,
        id: MembershipId,
        event: AuditEvent,
        now: DateTime<Utc>,
    ) -> Result<Member>;
    async fn set_member_role(
        &self,
        t: &Tenant,
        id: MembershipId,
        role: Role,
        event: AuditEvent,
        now: DateTime<Utc>,
    ) -> Result<Member>;

    // --- invitations ---

    async fn create_invite(
        &self,
        t: &Tenant,
        email: &Email,
        role: Role,
        token_hash: &[u8],
        now: DateTime<Utc>,
        expires_at: DateTime<Utc>,
        mail: Option<NewMail>,
    ) -> Result<Invite>;
    async fn pending_invites(&self, t: &Tenant, now: DateTime<Utc>) -> Result<Vec<Invite>>;
    async fn revoke_invite(&self, t: &Tenant, id: InviteId, now: DateTime<Utc>) -> Result<Invite>;
    /// The invitation behind a link, if it is still open (not used, revoked or expired).
    async fn open_invite(
        &self,
        token_hash: &[u8],
        now: DateTime<Utc>,
    ) -> Result<Option<OpenInvite>>;
    /// Uses up an open invitation for an existing user and makes them a member.
    async fn accept_invite(
        &self,
        token_hash: &[u8],
        user: UserId,
        now: DateTime<Utc>,
    ) -> Result<Tenant>;
    /// Creates the invited person's account and accepts the invitation, in one transaction.
    async fn sign_up_with_invite(
        &self,
        token_hash: &[u8],
        user: NewUser,
        now: DateTime<Utc>,
    ) -> Result<(User, Tenant)>;

    // --- password resets (no tenant) ---

    /// Stores a reset link for the user and queues its mail, in one transaction.
    async fn create_password_reset(
        &self,
        user: UserId,
        token_hash: &[u8],
        now: DateTime<Utc>,
        expires_at: DateTime<Utc>,
        mail: NewMail,
    ) -> Result<()>;
    /// The user behind an unused, unexpired reset link.
    async fn password_reset_user(
        &self,
        token_hash: &[u8],
        now: DateTime<Utc>,
    ) -> Result<Option<UserId>>;
    /// Uses up the link, sets the new password hash and ends every session of
    /// the user, in one transaction. `NotFound` for a dead link.
    async fn reset_password(
        &self,
        token_hash: &[u8],
        password_hash: &str,
        now: DateTime<Utc>,
    ) -> Result<UserId>;

    // --- outbox ---

    /// Queues a mail of the tenant's organisation (with an audit entry).
    async fn enqueue_mail(&self, t: &Tenant, mail: NewMail) -> Result<()>;
    /// Queues a person's own mail (no organisation).
    async fn enqueue_account_mail(&self, mail: NewMail) -> Result<()>;
    /// Claims up to `limit` due mails (queued or retrying and due, or sending
    /// with an expired lease) for `owner` until `lease_until`.
    async fn claim_mails(
        &self,
        owner: &str,
        now: DateTime<Utc>,
        lease_until: DateTime<Utc>,
        limit: i64,
    ) -> Result<Vec<ClaimedMail>>;
    /// Marks a claimed mail sent. False if the lease was lost meanwhile.
    async fn mark_mail_sent(&self, id: MailId, owner: &str, now: DateTime<Utc>) -> Result<bool>;
    /// Puts a claimed mail back for another attempt at `next_attempt_at`.
    async fn mark_mail_retry(
        &self,
        id: MailId,
        owner: &str,
        next_attempt_at: DateTime<Utc>,
        error: &str,
    ) -> Result<bool>;
    /// Gives a claimed mail up.
    async fn mark_mail_failed(&self, id: MailId, owner: &str, error: &str) -> Result<bool>;
    /// Records the outcomes of a batch of claimed mails in one transaction
    /// (one commit instead of one per mail); returns how many were still
    /// leased to `owner`.
    async fn record_mail_outcomes(&self, owner: &str, outcomes: &[MailOutcome]) -> Result<usize>;
    /// When the next queued or retrying mail is due, if any.
    async fn next_mail_due(&self) -> Result<Option<DateTime<Utc>>>;
    /// The organisation's most recent mails.
    async fn org_mails(&self, t: &Tenant, limit: i64) -> Result<Vec<MailRecord>>;
    /// Queues a failed mail of the organisation again, due at once.
    async fn retry_mail(&self, t: &Tenant, id: MailId, now: DateTime<Utc>) -> Result<()>;

    // --- audit log ---

    async fn audit(&self, t: &Tenant, event: AuditEvent, now: DateTime<Utc>) -> Result<()>;
    async fn audit_entries(&self, t: &Tenant, limit: i64) -> Result<Vec<AuditEntry>>;
}

pub type DynStore = Arc<dyn Store>;

/// Opens the database named by `url` (`sqlite:` or `postgres:`), running the
/// migrations first where `migrate_url` allows (see each backend).
pub async fn open(url: &str, admin_url: Option<&str>) -> Result<DynStore> {
    if url.starts_with("sqlite:") {
        Ok(Arc::new(sqlite::SqliteStore::open(url).await?))
    } else if url.starts_with("postgres:") || url.starts_with("postgresql:") {
        Ok(Arc::new(postgres::PgStore::open(url, admin_url).await?))
    } else {
        Err(StoreError::Config(format!(
            "AIVET_DATABASE_URL must start with sqlite: or postgres:, got {:?}",
            url.split(':').next().unwrap_or("")
        )))
    }
}

/// What a transaction may see on PostgreSQL (row-level security). SQLite relies
/// on the `org_id` filters of the queries alone.
#[derive(Clone, Copy)]
pub(crate) enum Scope<'a> {
    /// No tenant data at all.
    None,
    /// The user's own memberships across organisations.
    User(UserId),
    /// One organisation, for system steps that have no membership yet
    /// (creating an organisation, accepting an invitation).
    Org(OrgId, Option<UserId>),
    /// A member's view of their organisation.
    Tenant(&'a Tenant),
    /// The one invitation whose link hashes to these bytes.
    InviteToken(&'a [u8]),
    /// The one question request whose answer link hashes to these bytes.
    RequestToken(&'a [u8]),
    /// The one organisation with this slug (its row only).
    OrgSlug(&'a str),
    /// The one membership whose calendar feed link hashes to these bytes.
    CalendarToken(&'a [u8]),
    /// Work across organisations by the system itself (the mail worker).
    System,
}
