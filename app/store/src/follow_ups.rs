//! What the store keeps of follow-ups and the organisation's follow-up
//! policy, and the interface to them. The SQL is in `follow_ups_sql.rs`.
//!
//! Follow-ups are opened and closed by the changes that cause them, in
//! their transactions (a request sent opens "answer due"; its answers
//! close it and open "review due"; a decision closes that and, when the
//! service is cleared, opens "assess again"); members move them to
//! another date or mark them done by hand.

use crate::{AuditEvent, OptUuid, Result, Tenant, Ts};
use aivet_domain::follow_ups::{FollowUpReason, FollowUpStatus, Policy};
use aivet_domain::{FollowUpId, MembershipId, RequestId, ServiceId, VendorId};
use async_trait::async_trait;
use chrono::{DateTime, NaiveDate, Utc};

/// A follow-up as the board and the calendar show it.
#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow)]
pub struct FollowUpRow {
    #[sqlx(try_from = "uuid::Uuid")]
    pub id: FollowUpId,
    #[sqlx(try_from = "uuid::Uuid")]
    pub service_id: ServiceId,
    pub service_name: String,
    #[sqlx(try_from = "uuid::Uuid")]
    pub vendor_id: VendorId,
    pub vendor_name: String,
    #[sqlx(try_from = "OptUuid")]
    pub owner_id: Option<MembershipId>,
    pub owner_name: Option<String>,
    #[sqlx(try_from = "OptUuid")]
    pub request_id: Option<RequestId>,
    /// Whom the request went to.
    pub recipient_email: Option<String>,
    #[sqlx(try_from = "String")]
    pub reason: FollowUpReason,
    #[sqlx(try_from = "String")]
    pub status: FollowUpStatus,
    pub due_on: NaiveDate,
    pub note: Option<String>,
    /// Grows with every change of the date (the calendar's SEQUENCE).
    pub sequence: i32,
    #[sqlx(try_from = "Ts")]
    pub updated_at: DateTime<Utc>,
}

/// Which follow-ups a list shows.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FollowUpQuery {
    /// Only those of services this member looks after.
    pub owner: Option<MembershipId>,
    pub vendor: Option<VendorId>,
    pub reason: Option<FollowUpReason>,
    /// At most this many, the earliest due first (all when `None`).
    pub limit: Option<u32>,
}

/// A member who wants a digest, and their organisation's zone.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DigestCandidate {
    pub org_id: aivet_domain::OrgId,
    pub membership: MembershipId,
    pub digest: aivet_domain::follow_ups::Digest,
    pub zone: aivet_domain::Zone,
}

/// What a member's digest lists, and to whom it goes.
#[derive(Clone, Debug)]
pub struct DigestTarget {
    pub email: String,
    pub name: String,
    pub lang: aivet_domain::Lang,
    pub org_name: String,
    pub zone: aivet_domain::Zone,
    pub digest: aivet_domain::follow_ups::Digest,
    /// Their open follow-ups due by the digest's horizon, by date.
    pub items: Vec<FollowUpRow>,
}

/// What the board shows, read in one transaction: a page of the filter's
/// follow-ups, how many it finds, the filters' choices (vendors, members)
/// and the member's own settings.
#[derive(Clone, Debug)]
pub struct BoardData {
    pub rows: Vec<FollowUpRow>,
    /// All the filter finds (counted only when the page is full).
    pub total: u64,
    pub vendors: Vec<crate::inventory::VendorName>,
    pub members: Vec<crate::Member>,
    pub mine: MyFollowUpSettings,
}

/// A member's own follow-up settings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MyFollowUpSettings {
    pub digest: aivet_domain::follow_ups::Digest,
    /// Whether the calendar feed is on, and its link's version.
    pub calendar: bool,
    pub calendar_version: i32,
}

/// A member's calendar feed.
#[derive(Clone, Debug)]
pub struct CalendarFeed {
    pub org_name: String,
    /// The member's language.
    pub lang: aivet_domain::Lang,
    pub rows: Vec<FollowUpRow>,
}

/// The dashboard's figures of follow-ups.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FollowUpCounts {
    /// Open follow-ups due before today.
    pub overdue: i64,
    /// Services asked (or assessed) that have no open follow-up.
    pub asked_without: i64,
}

#[async_trait]
#[allow(clippy::too_many_arguments)]
pub trait FollowUpStore {
    /// The organisation's open follow-ups, by due date.
    async fn follow_ups(&self, t: &Tenant, q: &FollowUpQuery) -> Result<Vec<FollowUpRow>>;
    /// How many open follow-ups the query finds without its limit.
    async fn count_follow_ups(&self, t: &Tenant, q: &FollowUpQuery) -> Result<u64>;
    /// The board's page ([`FollowUpStore::follow_ups`] and, when the page
    /// is full, [`FollowUpStore::count_follow_ups`]) with its filters'
    /// choices and the member's settings, in one transaction.
    async fn follow_up_board(&self, t: &Tenant, q: &FollowUpQuery) -> Result<BoardData>;
    /// One follow-up, open or not.
    async fn follow_up(&self, t: &Tenant, id: FollowUpId) -> Result<FollowUpRow>;
    /// Moves an open follow-up to another date, with an optional note.
    async fn move_follow_up(
        &self,
        t: &Tenant,
        id: FollowUpId,
        due_on: NaiveDate,
        note: Option<&str>,
        event: AuditEvent,
        now: DateTime<Utc>,
    ) -> Result<()>;
    /// Marks an open follow-up done by hand.
    async fn finish_follow_up(
        &self,
        t: &Tenant,
        id: FollowUpId,
        event: AuditEvent,
        now: DateTime<Utc>,
    ) -> Result<()>;
    async fn follow_up_policy(&self, t: &Tenant) -> Result<Policy>;
    async fn set_follow_up_policy(
        &self,
        t: &Tenant,
        policy: &Policy,
        event: AuditEvent,
        now: DateTime<Utc>,
    ) -> Result<()>;
    async fn follow_up_counts(&self, t: &Tenant, today: NaiveDate) -> Result<FollowUpCounts>;

    /// The open follow-ups that are "theirs" for a member: of the services
    /// they look after, and for an owner also those no one looks after.
    async fn my_follow_ups(&self, t: &Tenant, until: Option<NaiveDate>)
        -> Result<Vec<FollowUpRow>>;
    async fn my_follow_up_settings(&self, t: &Tenant) -> Result<MyFollowUpSettings>;
    async fn set_digest(&self, t: &Tenant, digest: aivet_domain::follow_ups::Digest) -> Result<()>;
    /// Turns the member's calendar feed on with the link that hashes to
    /// `token_hash` (version `version`), or off (`None`).
    async fn set_calendar(
        &self,
        t: &Tenant,
        token_hash: Option<&[u8]>,
        version: i32,
        event: AuditEvent,
        now: DateTime<Utc>,
    ) -> Result<()>;
    /// What the calendar feed behind a link shows: the member's open
    /// follow-ups (as [`FollowUpStore::my_follow_ups`]), their language and
    /// their organisation's name; `None` for a wrong, old or switched-off
    /// link.
    async fn calendar_feed(&self, token_hash: &[u8]) -> Result<Option<CalendarFeed>>;

    // --- for the job worker ---

    /// Every member who wants a digest, with their organisation's zone.
    async fn digest_candidates(&self) -> Result<Vec<DigestCandidate>>;
    /// What a member's digest on `day` lists; `None` when the member is gone.
    async fn digest_target(
        &self,
        org: aivet_domain::OrgId,
        membership: MembershipId,
        day: NaiveDate,
    ) -> Result<Option<DigestTarget>>;
}
