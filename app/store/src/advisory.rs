//! What the store keeps of engine advisories: the OSV records an
//! organisation imported (the shipped ones live in the domain crate), and
//! which of its services an advisory hits. Matching is the domain's
//! (`aivet_domain::advisory::match_services`), run by the services when an
//! advisory is imported or an engine changes; the hits are kept so that
//! pages only read them. The SQL is in `advisory_sql.rs`.

use crate::{AuditEvent, Result, Tenant, Ts};
use aivet_domain::advisory::Engine;
use aivet_domain::{OrgId, ServiceId};
use async_trait::async_trait;
use chrono::{DateTime, Utc};

/// A service's engine, as matching needs it.
#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow)]
pub struct EngineInput {
    #[sqlx(try_from = "uuid::Uuid")]
    pub service_id: ServiceId,
    #[sqlx(try_from = "crate::questions::OptChoice")]
    pub engine_kind: Option<Engine>,
    pub engine_version: Option<String>,
}

/// An advisory that hits a service: "affected" (with the fixed version,
/// if known) or "unknown" (the version cannot be compared).
#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow)]
pub struct HitRow {
    #[sqlx(try_from = "uuid::Uuid")]
    pub service_id: ServiceId,
    pub advisory_id: String,
    pub exposure: String,
    pub fixed: Option<String>,
}

/// An imported OSV record.
#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow)]
pub struct StoredAdvisory {
    pub id: String,
    pub osv: String,
    pub imported_by: String,
    #[sqlx(try_from = "Ts")]
    pub imported_at: DateTime<Utc>,
}

/// Services in use or on trial hit by an advisory.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AdvisoryCounts {
    pub affected: i64,
    pub unknown: i64,
}

#[async_trait]
pub trait AdvisoryStore: Send + Sync {
    /// Reads the free-text engine of services not read yet into the
    /// structured columns with the domain's parser
    /// (`aivet_domain::advisory::parse_engine`); every row is read once.
    /// Returns how many were filled in.
    async fn carry_over_engines(&self, org: OrgId) -> Result<u64>;
    /// The engines of the organisation's services that are not archived
    /// (`only`: of that one service).
    async fn engine_inputs(&self, org: OrgId, only: Option<ServiceId>) -> Result<Vec<EngineInput>>;
    async fn org_advisories(&self, org: OrgId) -> Result<Vec<StoredAdvisory>>;
    /// Adds (or replaces, by id) OSV records, all or none.
    async fn import_advisories(
        &self,
        t: &Tenant,
        records: &[(String, String)],
        event: AuditEvent,
        now: DateTime<Utc>,
    ) -> Result<()>;
    /// Replaces the organisation's hits (`only`: those of one service);
    /// `catalogue` names the shipped catalogue a whole match used.
    async fn write_hits(
        &self,
        org: OrgId,
        only: Option<ServiceId>,
        hits: &[HitRow],
        catalogue: &str,
    ) -> Result<()>;
    /// `NotFound` for a service of another organisation.
    async fn service_hits(&self, t: &Tenant, service: ServiceId) -> Result<Vec<HitRow>>;
    async fn advisory_counts(&self, t: &Tenant) -> Result<AdvisoryCounts>;
    /// Organisations whose hits were computed with another shipped
    /// catalogue (or never), or with a service saved since and not matched
    /// again (the process ended in between): the sweep matches them again.
    async fn orgs_to_rematch(&self, catalogue: &str) -> Result<Vec<OrgId>>;
}
