//! What the store keeps of data clearance (the organisation's policy, one
//! decision per service and data class) and the interface to it. The SQL is
//! in `clearance_sql.rs`.
//!
//! The standing of a class is the domain's rule
//! (`aivet_domain::clearance::verdict`), applied by the services to the
//! rows read here. Counting conflicts over thousands of services uses the
//! clearance figures each service keeps (`CLEARANCE_FIGURES` and
//! `conflict_exists` in `clearance_sql.rs`), which mirror the rule; the
//! store stories check that both agree on every combination.

use crate::{AuditEvent, OptTs, Result, Tenant, Ts};
use aivet_domain::clearance::{Clearance, ClearanceDraft};
use aivet_domain::inventory::{FindingStatus, FindingTopic, ServiceStatus};
use aivet_domain::questions::{Assessment, Review};
use aivet_domain::{DataClassId, RequestId, ServiceId};
use async_trait::async_trait;
use chrono::{DateTime, NaiveDate, Utc};

/// A decision as stored.
#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow)]
pub struct ClearanceRow {
    #[sqlx(try_from = "uuid::Uuid")]
    pub service_id: ServiceId,
    #[sqlx(try_from = "uuid::Uuid")]
    pub data_class_id: DataClassId,
    #[sqlx(try_from = "String")]
    pub clearance: Clearance,
    pub condition: Option<String>,
    pub expires_on: Option<NaiveDate>,
    /// The cited evidence as JSON (`aivet_domain::clearance::evidence_from_json`).
    pub evidence: String,
    pub decided_by: String,
    #[sqlx(try_from = "Ts")]
    pub decided_at: DateTime<Utc>,
}

/// A data class with its policy.
#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow)]
pub struct PolicyClass {
    #[sqlx(try_from = "uuid::Uuid")]
    pub id: DataClassId,
    pub name: String,
    pub personal: bool,
    pub needs_clearance: bool,
    #[sqlx(try_from = "OptTs")]
    pub archived_at: Option<DateTime<Utc>>,
}

/// A service as the clearance views need it.
#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow)]
pub struct ClearanceService {
    #[sqlx(try_from = "uuid::Uuid")]
    pub id: ServiceId,
    pub name: String,
    pub purpose: Option<String>,
    #[sqlx(try_from = "String")]
    pub status: ServiceStatus,
    #[sqlx(try_from = "String")]
    pub assessment: Assessment,
    #[sqlx(try_from = "OptTs")]
    pub archived_at: Option<DateTime<Utc>>,
    /// When the latest open incident affecting the service was linked.
    #[sqlx(try_from = "OptTs")]
    pub suspended_since: Option<DateTime<Utc>>,
}

/// A finding a decision can cite.
#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow)]
pub struct CitableFinding {
    #[sqlx(try_from = "String")]
    pub topic: FindingTopic,
    #[sqlx(try_from = "String")]
    pub status: FindingStatus,
    pub summary: Option<String>,
}

/// A reviewed answer a decision can cite.
#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow)]
pub struct CitableAnswer {
    #[sqlx(try_from = "uuid::Uuid")]
    pub request_id: RequestId,
    pub position: i32,
    pub question: String,
    #[sqlx(try_from = "String")]
    pub review: Review,
    #[sqlx(try_from = "Ts")]
    pub sent_at: DateTime<Utc>,
}

/// One service's clearance matrix: every class of the organisation (the
/// archived ones only while the service receives them), what it receives,
/// the decisions, and what a decision could cite.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ServiceClearance {
    pub service: ClearanceService,
    pub classes: Vec<PolicyClass>,
    pub receives: Vec<DataClassId>,
    pub decisions: Vec<ClearanceRow>,
    pub findings: Vec<CitableFinding>,
    pub answers: Vec<CitableAnswer>,
}

/// Everything the "which data where" page needs: the services in use or
/// on trial, the classes, what each receives and the decisions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClearanceOverview {
    pub services: Vec<ClearanceService>,
    pub classes: Vec<PolicyClass>,
    pub receives: Vec<(ServiceId, DataClassId)>,
    pub decisions: Vec<ClearanceRow>,
}

/// The policy as Settings shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClearancePolicy {
    pub classes: Vec<PolicyClass>,
    pub reviewed: Option<(DateTime<Utc>, String)>,
}

/// The dashboard's figures of step 4.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ClearanceCounts {
    /// Services in use or on trial that receive a class they may not.
    pub conflicts: i64,
    /// Received protected classes without any decision.
    pub undecided: i64,
    pub policy_reviewed: bool,
}

#[async_trait]
#[allow(clippy::too_many_arguments)]
pub trait ClearanceStore: Send + Sync {
    /// `NotFound` for a service of another organisation.
    async fn service_clearance(&self, t: &Tenant, service: ServiceId) -> Result<ServiceClearance>;
    /// Records the decision for one class (replacing an earlier one), its
    /// timeline entry and audit entry, and the service's "decision
    /// expires" follow-up. `NotFound` for a service or class of another
    /// organisation; `Closed` for an archived service; `UnknownRefs` when
    /// the evidence cites what the service does not have.
    async fn decide_clearance(
        &self,
        t: &Tenant,
        service: ServiceId,
        class: DataClassId,
        draft: &ClearanceDraft,
        event: AuditEvent,
        now: DateTime<Utc>,
    ) -> Result<()>;
    async fn clearance_overview(&self, t: &Tenant) -> Result<ClearanceOverview>;
    async fn clearance_policy(&self, t: &Tenant) -> Result<ClearancePolicy>;
    /// Marks the policy as checked by the member.
    async fn review_clearance_policy(
        &self,
        t: &Tenant,
        event: AuditEvent,
        now: DateTime<Utc>,
    ) -> Result<()>;
    async fn clearance_counts(&self, t: &Tenant, today: NaiveDate) -> Result<ClearanceCounts>;
}
