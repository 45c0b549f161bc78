//! What the store keeps of vendor incidents (the register, the links to
//! vendors, services and data classes, the append-only timeline, the
//! Art. 33 and Art. 34 decisions) and the interface to it. The SQL is in
//! `incident_sql.rs`.
//!
//! Linking an open incident that may affect a service (affected "yes" or
//! "not known yet") sets the service's `suspended_since`, which the
//! clearance rule and figures read: decisions for protected classes made
//! before then no longer hold. The Art. 33 alerts are jobs scheduled in
//! the transaction that records or moves "we became aware".

use crate::questions::{OptChoice, Person};
use crate::{AuditEvent, OptTs, Result, Tenant, Ts};
use aivet_domain::incident::{
    Affected, Art33Choice, Art33Draft, Art33Record, Art34Choice, Art34Draft, Art34Record, Entry,
    IncidentDraft, IncidentState, Risk,
};
use aivet_domain::{DataClassId, IncidentId, OrgId, ServiceId, VendorId};
use async_trait::async_trait;
use chrono::{DateTime, NaiveDate, Utc};

/// An incident whose 72-hour clock runs (or ran out) without a decision,
/// as the dashboard shows it: personal data may be involved and no
/// Art. 33 decision is recorded, so its clock follows from when we became
/// aware alone.
#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow)]
pub struct PendingClock {
    #[sqlx(try_from = "uuid::Uuid")]
    pub id: IncidentId,
    pub title: String,
    #[sqlx(try_from = "Ts")]
    pub we_aware_at: DateTime<Utc>,
}

/// An incident as stored.
#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow)]
pub struct IncidentRow {
    #[sqlx(try_from = "uuid::Uuid")]
    pub id: IncidentId,
    pub title: String,
    pub description: Option<String>,
    /// The source addresses as JSON.
    pub source_links: String,
    #[sqlx(try_from = "OptTs")]
    pub exposure_start: Option<DateTime<Utc>>,
    #[sqlx(try_from = "OptTs")]
    pub exposure_end: Option<DateTime<Utc>>,
    #[sqlx(try_from = "OptTs")]
    pub vendor_aware_at: Option<DateTime<Utc>>,
    #[sqlx(try_from = "OptTs")]
    pub vendor_fixed_at: Option<DateTime<Utc>>,
    #[sqlx(try_from = "OptTs")]
    pub vendor_notified_at: Option<DateTime<Utc>>,
    pub vendor_notified_how: Option<String>,
    #[sqlx(try_from = "OptTs")]
    pub disclosed_at: Option<DateTime<Utc>>,
    #[sqlx(try_from = "Ts")]
    pub we_aware_at: DateTime<Utc>,
    #[sqlx(try_from = "String")]
    pub affected: Affected,
    pub affected_evidence: Option<String>,
    pub personal_data: bool,
    #[sqlx(try_from = "String")]
    pub risk: Risk,
    #[sqlx(try_from = "String")]
    pub state: IncidentState,
    #[sqlx(try_from = "OptChoice")]
    pub art33_decision: Option<Art33Choice>,
    pub art33_rationale: Option<String>,
    #[sqlx(try_from = "OptTs")]
    pub art33_notified_at: Option<DateTime<Utc>>,
    pub art33_authority: Option<String>,
    pub art33_reference: Option<String>,
    pub art33_delay_reason: Option<String>,
    pub art33_decided_by: Option<String>,
    #[sqlx(try_from = "OptTs")]
    pub art33_decided_at: Option<DateTime<Utc>>,
    #[sqlx(try_from = "OptChoice")]
    pub art34_decision: Option<Art34Choice>,
    pub art34_rationale: Option<String>,
    pub art34_informed_on: Option<NaiveDate>,
    pub art34_decided_by: Option<String>,
    #[sqlx(try_from = "OptTs")]
    pub art34_decided_at: Option<DateTime<Utc>>,
    pub created_by: String,
    #[sqlx(try_from = "Ts")]
    pub created_at: DateTime<Utc>,
    #[sqlx(try_from = "Ts")]
    pub updated_at: DateTime<Utc>,
    #[sqlx(try_from = "OptTs")]
    pub closed_at: Option<DateTime<Utc>>,
}

impl IncidentRow {
    /// The recorded Art. 33 decision, as the clock needs it.
    pub fn art33(&self) -> Option<aivet_domain::incident::Art33Decided> {
        Some(aivet_domain::incident::Art33Decided {
            decision: self.art33_decision?,
            decided_at: self.art33_decided_at?,
            notified_at: self.art33_notified_at,
        })
    }

    /// The recorded Art. 33 decision with its reasons.
    pub fn art33_record(&self) -> Option<Art33Record> {
        Some(Art33Record {
            decision: self.art33_decision?,
            rationale: self.art33_rationale.clone().unwrap_or_default(),
            notified_at: self.art33_notified_at,
            authority: self.art33_authority.clone(),
            reference: self.art33_reference.clone(),
            delay_reason: self.art33_delay_reason.clone(),
            decided_by: self.art33_decided_by.clone().unwrap_or_default(),
            decided_at: self.art33_decided_at.unwrap_or(self.updated_at),
        })
    }

    /// The recorded Art. 34 decision with its reasons.
    pub fn art34_record(&self) -> Option<Art34Record> {
        Some(Art34Record {
            decision: self.art34_decision?,
            rationale: self.art34_rationale.clone().unwrap_or_default(),
            informed_on: self.art34_informed_on,
            decided_by: self.art34_decided_by.clone().unwrap_or_default(),
            decided_at: self.art34_decided_at.unwrap_or(self.updated_at),
        })
    }

    pub fn source_links(&self) -> Vec<String> {
        serde_json::from_str(&self.source_links).unwrap_or_default()
    }
}

/// A service an incident affects, with what its contract says about
/// incident notification.
#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow)]
pub struct LinkedService {
    #[sqlx(try_from = "uuid::Uuid")]
    pub id: ServiceId,
    pub name: String,
    #[sqlx(try_from = "uuid::Uuid")]
    pub vendor_id: VendorId,
    pub notice_hours: Option<i32>,
    #[sqlx(try_from = "Ts")]
    pub linked_at: DateTime<Utc>,
}

/// A named thing an incident refers to (vendor, data class).
#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow)]
pub struct Named {
    pub id: uuid::Uuid,
    pub name: String,
}

/// One timeline entry as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EntryRow {
    pub entry: Entry,
    pub actor: String,
    pub at: DateTime<Utc>,
}

/// Everything the incident's page shows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IncidentDetail {
    pub incident: IncidentRow,
    pub vendors: Vec<Named>,
    pub services: Vec<LinkedService>,
    pub data_classes: Vec<Named>,
    pub entries: Vec<EntryRow>,
}

/// What the incident form offers: the organisation's vendors, services
/// (with their vendor and the classes they receive) and data classes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IncidentChoices {
    pub vendors: Vec<Named>,
    pub services: Vec<(Named, VendorId)>,
    pub data_classes: Vec<Named>,
    /// (service, data class) pairs: what each service receives.
    pub receives: Vec<(ServiceId, DataClassId)>,
}

/// The register's filter.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct IncidentFilter {
    pub state: Option<IncidentState>,
    pub vendor: Option<VendorId>,
    /// The year we became aware, in the organisation's zone: the
    /// instants it starts and ends.
    pub year: Option<(DateTime<Utc>, DateTime<Utc>)>,
}

/// One incident in the register.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RegisterRow {
    pub incident: IncidentRow,
    pub vendors: Vec<String>,
    pub services: Vec<String>,
}

/// Who is alerted about an incident's clock.
#[derive(Clone, Debug)]
pub struct AlertTarget {
    pub incident: IncidentRow,
    pub org_name: String,
    pub zone: aivet_domain::Zone,
    pub owners: Vec<Person>,
}

#[async_trait]
#[allow(clippy::too_many_arguments)]
pub trait IncidentStore: Send + Sync {
    /// Records an incident, its links, its first timeline entry, the
    /// affected services' suspension, timeline entry and follow-up, and
    /// the Art. 33 alerts (`alerts`: hours and when). `UnknownRefs` for
    /// vendors, services or classes the organisation does not have.
    async fn record_incident(
        &self,
        t: &Tenant,
        draft: &IncidentDraft,
        alerts: &[(u8, DateTime<Utc>)],
        follow_up_on: NaiveDate,
        event: AuditEvent,
        now: DateTime<Utc>,
    ) -> Result<IncidentId>;
    /// Changes an incident: entries for what changed (and for a moved
    /// "we became aware", with its own audit entry and new alerts).
    async fn update_incident(
        &self,
        t: &Tenant,
        id: IncidentId,
        draft: &IncidentDraft,
        alerts: &[(u8, DateTime<Utc>)],
        follow_up_on: NaiveDate,
        now: DateTime<Utc>,
    ) -> Result<()>;
    async fn incident(&self, t: &Tenant, id: IncidentId) -> Result<IncidentDetail>;
    /// The incident as its form edits it.
    async fn incident_draft(
        &self,
        t: &Tenant,
        id: IncidentId,
    ) -> Result<(IncidentRow, IncidentDraft)>;
    async fn incident_choices(&self, t: &Tenant) -> Result<IncidentChoices>;
    async fn incident_register(
        &self,
        t: &Tenant,
        filter: &IncidentFilter,
    ) -> Result<Vec<RegisterRow>>;
    /// The open incidents whose Art. 33 clock may be running (personal
    /// data, no decision yet), for the dashboard.
    async fn pending_clocks(&self, t: &Tenant) -> Result<Vec<IncidentRow>>;
    async fn decide_art33(
        &self,
        t: &Tenant,
        id: IncidentId,
        draft: &Art33Draft,
        late: bool,
        now: DateTime<Utc>,
    ) -> Result<()>;
    async fn decide_art34(
        &self,
        t: &Tenant,
        id: IncidentId,
        draft: &Art34Draft,
        now: DateTime<Utc>,
    ) -> Result<()>;
    async fn add_incident_note(
        &self,
        t: &Tenant,
        id: IncidentId,
        text: &str,
        now: DateTime<Utc>,
    ) -> Result<()>;
    /// Closes (or reopens) an incident: the services' suspensions and
    /// incident follow-ups follow.
    async fn set_incident_state(
        &self,
        t: &Tenant,
        id: IncidentId,
        state: IncidentState,
        alerts: &[(u8, DateTime<Utc>)],
        now: DateTime<Utc>,
    ) -> Result<()>;
    /// The open incidents that affect a service (for its page).
    async fn service_incidents(
        &self,
        t: &Tenant,
        service: ServiceId,
    ) -> Result<Vec<(IncidentId, String)>>;

    // --- jobs (no tenant) ---

    /// The incident and the organisation's owners; `None` when it is gone.
    async fn alert_target(&self, org: OrgId, id: IncidentId) -> Result<Option<AlertTarget>>;
    /// Queues the alert mails, notes them on the timeline and finishes the
    /// job, in one transaction. False when the lease was lost.
    async fn finish_alert(
        &self,
        lease: &crate::jobs::JobLease,
        org: OrgId,
        id: IncidentId,
        hours: u8,
        mails: &[crate::NewMail],
        now: DateTime<Utc>,
    ) -> Result<bool>;
}
