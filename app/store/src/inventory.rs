//! What the store keeps of the inventory, and the interface to it. The SQL is
//! in `inventory_sql.rs`, shared by both databases like `shared.rs`.

use crate::{AuditEvent, OptTs, OptUuid, Result, Tenant, Ts};
use aivet_domain::inventory::{
    AuthorityNotifier, ClassMarks, ContactDraft, ContactRole, Deployment, FindingDraft,
    FindingStatus, FindingTopic, ItemName, ServiceDraft, ServiceStatus, VendorDraft, VendorRole,
};
use aivet_domain::{ContactId, DataClassId, Lang, MembershipId, SearchText, ServiceId, VendorId};
use async_trait::async_trait;
use chrono::{DateTime, NaiveDate, Utc};

#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow)]
pub struct DataClass {
    #[sqlx(try_from = "uuid::Uuid")]
    pub id: DataClassId,
    pub name: String,
    pub personal: bool,
    pub needs_clearance: bool,
    #[sqlx(try_from = "OptTs")]
    pub archived_at: Option<DateTime<Utc>>,
    /// How many services receive data of this class.
    pub services: i64,
}

/// A vendor as the list shows it.
#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow)]
pub struct VendorRow {
    #[sqlx(try_from = "uuid::Uuid")]
    pub id: VendorId,
    pub name: String,
    #[sqlx(try_from = "String")]
    pub role: VendorRole,
    pub website: Option<String>,
    /// Services that name the vendor in any role.
    pub services: i64,
    pub primary_contact: Option<String>,
    #[sqlx(try_from = "Ts")]
    pub updated_at: DateTime<Utc>,
    #[sqlx(try_from = "OptTs")]
    pub archived_at: Option<DateTime<Utc>>,
}

#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow)]
pub struct Vendor {
    #[sqlx(try_from = "uuid::Uuid")]
    pub id: VendorId,
    pub name: String,
    pub website: Option<String>,
    #[sqlx(try_from = "String")]
    pub role: VendorRole,
    pub dpa_url: Option<String>,
    pub privacy_url: Option<String>,
    pub subprocessors_url: Option<String>,
    pub status_url: Option<String>,
    pub trust_url: Option<String>,
    pub notes: Option<String>,
    #[sqlx(try_from = "Ts")]
    pub created_at: DateTime<Utc>,
    #[sqlx(try_from = "Ts")]
    pub updated_at: DateTime<Utc>,
    #[sqlx(try_from = "OptTs")]
    pub archived_at: Option<DateTime<Utc>>,
}

#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow)]
pub struct Contact {
    #[sqlx(try_from = "uuid::Uuid")]
    pub id: ContactId,
    #[sqlx(try_from = "uuid::Uuid")]
    pub vendor_id: VendorId,
    pub name: String,
    pub email: String,
    #[sqlx(try_from = "String")]
    pub lang: Lang,
    #[sqlx(try_from = "String")]
    pub role: ContactRole,
    pub is_primary: bool,
}

/// A service named by another record, for "used by" lists.
#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow)]
pub struct ServiceRef {
    #[sqlx(try_from = "uuid::Uuid")]
    pub id: ServiceId,
    pub name: String,
}

/// A vendor's id and name, for selects.
#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow)]
pub struct VendorName {
    #[sqlx(try_from = "uuid::Uuid")]
    pub id: VendorId,
    pub name: String,
}

/// The names a service's page shows for the ids on its record.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ServiceNames {
    /// The vendors it names in any role, archived ones too.
    pub vendors: Vec<VendorName>,
    pub owner: Option<String>,
    /// The classes it receives, in the order of `ServiceDetail::data_classes`.
    pub data_classes: Vec<String>,
}

impl ServiceNames {
    pub fn vendor(&self, id: VendorId) -> Option<&str> {
        self.vendors
            .iter()
            .find(|v| v.id == id)
            .map(|v| v.name.as_str())
    }
}

/// Everything a service's page reads, from one snapshot: the record, the
/// names on it, its open incidents, its clearance, its advisory hits and
/// its questions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ServicePage {
    pub detail: ServiceDetail,
    pub names: ServiceNames,
    pub incidents: Vec<(aivet_domain::IncidentId, String)>,
    pub clearance: crate::clearance::ServiceClearance,
    pub hits: Vec<crate::advisory::HitRow>,
    pub assessment: crate::questions::AssessmentState,
    pub requests: Vec<crate::questions::RequestRow>,
    pub events: Vec<crate::questions::QuestionEvent>,
}

/// A service as the list shows it.
#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow)]
pub struct ServiceRow {
    #[sqlx(try_from = "uuid::Uuid")]
    pub id: ServiceId,
    pub name: String,
    #[sqlx(try_from = "uuid::Uuid")]
    pub vendor_id: VendorId,
    pub vendor_name: String,
    pub integrator_name: Option<String>,
    #[sqlx(try_from = "String")]
    pub status: ServiceStatus,
    #[sqlx(try_from = "String")]
    pub deployment: Deployment,
    pub owner_name: Option<String>,
    /// Names of the data classes, separated by U+001F.
    pub data_classes: Option<String>,
    pub personal: bool,
    /// Findings whose status is not "unknown" (of three).
    pub known_findings: i32,
    #[sqlx(try_from = "Ts")]
    pub updated_at: DateTime<Utc>,
    #[sqlx(try_from = "OptTs")]
    pub archived_at: Option<DateTime<Utc>>,
}

impl ServiceRow {
    pub fn data_class_names(&self) -> Vec<String> {
        let mut names: Vec<String> = self
            .data_classes
            .as_deref()
            .unwrap_or("")
            .split(crate::inventory::LIST_SEPARATOR)
            .filter(|s| !s.is_empty())
            .map(str::to_owned)
            .collect();
        names.sort();
        names
    }
}

/// Separates names inside one aggregated column (no name can contain it:
/// names refuse control characters).
pub const LIST_SEPARATOR: &str = "\u{1f}";

#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow)]
pub struct Service {
    #[sqlx(try_from = "uuid::Uuid")]
    pub id: ServiceId,
    pub name: String,
    pub purpose: Option<String>,
    #[sqlx(try_from = "uuid::Uuid")]
    pub vendor_id: VendorId,
    #[sqlx(try_from = "OptUuid")]
    pub integrator_id: Option<VendorId>,
    #[sqlx(try_from = "OptUuid")]
    pub model_provider_id: Option<VendorId>,
    #[sqlx(try_from = "OptUuid")]
    pub inference_host_id: Option<VendorId>,
    pub model: Option<String>,
    pub engine: Option<String>,
    #[sqlx(try_from = "String")]
    pub deployment: Deployment,
    #[sqlx(try_from = "OptUuid")]
    pub owner_id: Option<MembershipId>,
    #[sqlx(try_from = "String")]
    pub status: ServiceStatus,
    pub dpa_signed_on: Option<NaiveDate>,
    pub dpa_url: Option<String>,
    pub notice_hours: Option<i32>,
    pub notice_channel: Option<String>,
    #[sqlx(try_from = "String")]
    pub authority_notifier: AuthorityNotifier,
    #[sqlx(try_from = "Ts")]
    pub created_at: DateTime<Utc>,
    #[sqlx(try_from = "Ts")]
    pub updated_at: DateTime<Utc>,
    #[sqlx(try_from = "OptTs")]
    pub archived_at: Option<DateTime<Utc>>,
    #[sqlx(try_from = "crate::questions::OptChoice")]
    pub engine_kind: Option<aivet_domain::advisory::Engine>,
    pub engine_version: Option<String>,
    #[sqlx(try_from = "crate::questions::OptChoice")]
    pub engine_source: Option<aivet_domain::advisory::VersionSource>,
}

#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow)]
pub struct Finding {
    #[sqlx(try_from = "String")]
    pub topic: FindingTopic,
    #[sqlx(try_from = "String")]
    pub status: FindingStatus,
    pub summary: Option<String>,
    pub source_url: Option<String>,
    pub checked_on: Option<NaiveDate>,
    #[sqlx(try_from = "Ts")]
    pub updated_at: DateTime<Utc>,
}

/// A service with everything its page shows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ServiceDetail {
    pub service: Service,
    pub data_classes: Vec<DataClassId>,
    /// One per topic that has been written down; missing topics are unknown.
    pub findings: Vec<Finding>,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ServiceSort {
    #[default]
    Name,
    Vendor,
    Status,
    Updated,
}

/// What the service list shows: filters, order, page.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ServiceQuery {
    /// Words in the name, purpose, model or vendor name.
    pub text: Option<SearchText>,
    /// The vendor in any role (vendor, integrator, model provider, host).
    pub vendor: Option<VendorId>,
    pub status: Option<ServiceStatus>,
    pub data_class: Option<DataClassId>,
    pub owner: Option<MembershipId>,
    /// Only services that receive a class they may not on this day.
    pub conflicts_on: Option<NaiveDate>,
    pub archived: bool,
    pub sort: ServiceSort,
    pub offset: i64,
    pub limit: i64,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum VendorSort {
    #[default]
    Name,
    Updated,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct VendorQuery {
    pub text: Option<SearchText>,
    pub role: Option<VendorRole>,
    pub archived: bool,
    pub sort: VendorSort,
}

/// One page of a list and how many rows match in all.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Page<T> {
    pub rows: Vec<T>,
    pub total: i64,
}

/// What the dashboard shows, as of one moment.
#[derive(Clone, Debug)]
pub struct Dashboard {
    pub inventory: InventoryCounts,
    pub follow_ups: crate::follow_ups::FollowUpCounts,
    pub clearance: crate::clearance::ClearanceCounts,
    /// Incidents whose 72-hour clock runs without a decision.
    pub clocks: Vec<crate::incident::PendingClock>,
    pub advisories: crate::advisory::AdvisoryCounts,
}

/// The dashboard's figures (archived records do not count).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct InventoryCounts {
    pub in_use: i64,
    pub trial: i64,
    pub retired: i64,
    pub vendors: i64,
    /// Services in use or on trial that receive a personal data class.
    pub personal: i64,
    /// Services in use or on trial with at least one topic still unknown.
    pub open_findings: i64,
    /// Findings written down with a status other than unknown.
    pub known_findings: i64,
    /// Services in use or on trial whose vendors have been asked (in any
    /// state after "not asked").
    pub asked_any: i64,
    /// … still waiting for an answer.
    pub awaiting_answer: i64,
    /// … answered, and the answers not yet decided on.
    pub to_review: i64,
}

/// A vendor the import creates because no vendor of that name exists yet.
#[derive(Clone, Debug)]
pub struct ImportVendor {
    pub id: VendorId,
    pub draft: VendorDraft,
}

#[async_trait]
#[allow(clippy::too_many_arguments)]
pub trait InventoryStore: Send + Sync {
    // --- data classes ---
    async fn data_classes(&self, t: &Tenant) -> Result<Vec<DataClass>>;
    async fn create_data_class(
        &self,
        t: &Tenant,
        name: &ItemName,
        marks: ClassMarks,
        event: AuditEvent,
        now: DateTime<Utc>,
    ) -> Result<DataClassId>;
    async fn update_data_class(
        &self,
        t: &Tenant,
        id: DataClassId,
        name: &ItemName,
        marks: ClassMarks,
        archived: bool,
        event: AuditEvent,
        now: DateTime<Utc>,
    ) -> Result<()>;
    /// Refuses with `InUse` while services receive the class.
    async fn delete_data_class(
        &self,
        t: &Tenant,
        id: DataClassId,
        event: AuditEvent,
        now: DateTime<Utc>,
    ) -> Result<()>;

    // --- vendors and contacts ---
    async fn vendors(&self, t: &Tenant, q: &VendorQuery) -> Result<Vec<VendorRow>>;
    /// The names of the vendors that are not archived, for selects and filters.
    async fn vendor_names(&self, t: &Tenant) -> Result<Vec<VendorName>>;
    async fn vendor(&self, t: &Tenant, id: VendorId) -> Result<Vendor>;
    async fn contacts(&self, t: &Tenant, vendor: VendorId) -> Result<Vec<Contact>>;
    /// Services that name the vendor in any role.
    async fn services_of_vendor(&self, t: &Tenant, vendor: VendorId) -> Result<Vec<ServiceRef>>;
    async fn create_vendor(
        &self,
        t: &Tenant,
        draft: &VendorDraft,
        event: AuditEvent,
        now: DateTime<Utc>,
    ) -> Result<VendorId>;
    async fn update_vendor(
        &self,
        t: &Tenant,
        id: VendorId,
        draft: &VendorDraft,
        event: AuditEvent,
        now: DateTime<Utc>,
    ) -> Result<()>;
    async fn set_vendor_archived(
        &self,
        t: &Tenant,
        id: VendorId,
        archived: bool,
        event: AuditEvent,
        now: DateTime<Utc>,
    ) -> Result<()>;
    /// Refuses with `InUse` (naming the services) while services refer to it.
    async fn delete_vendor(
        &self,
        t: &Tenant,
        id: VendorId,
        event: AuditEvent,
        now: DateTime<Utc>,
    ) -> Result<()>;
    /// Adds a contact; a primary one takes the mark from the others.
    async fn add_contact(
        &self,
        t: &Tenant,
        vendor: VendorId,
        draft: &ContactDraft,
        event: AuditEvent,
        now: DateTime<Utc>,
    ) -> Result<ContactId>;
    /// Makes a contact the vendor's primary one and returns its vendor.
    async fn set_primary_contact(
        &self,
        t: &Tenant,
        id: ContactId,
        event: AuditEvent,
        now: DateTime<Utc>,
    ) -> Result<VendorId>;
    /// Removes a contact and returns its vendor.
    async fn remove_contact(
        &self,
        t: &Tenant,
        id: ContactId,
        event: AuditEvent,
        now: DateTime<Utc>,
    ) -> Result<VendorId>;

    // --- services and findings ---
    async fn services(&self, t: &Tenant, q: &ServiceQuery) -> Result<Page<ServiceRow>>;
    async fn service(&self, t: &Tenant, id: ServiceId) -> Result<ServiceDetail>;
    /// Everything a service's page reads, in one read transaction.
    async fn service_page(&self, t: &Tenant, id: ServiceId) -> Result<ServicePage>;
    /// Every service of the organisation with its data classes and findings,
    /// in three queries (for the export), ordered by name.
    async fn service_details(&self, t: &Tenant) -> Result<Vec<ServiceDetail>>;
    /// The name keys (`ItemName::key`) of every service, archived ones too:
    /// what a new service's name must not be.
    async fn service_name_keys(&self, t: &Tenant) -> Result<Vec<String>>;
    async fn create_service(
        &self,
        t: &Tenant,
        draft: &ServiceDraft,
        event: AuditEvent,
        now: DateTime<Utc>,
    ) -> Result<ServiceId>;
    async fn update_service(
        &self,
        t: &Tenant,
        id: ServiceId,
        draft: &ServiceDraft,
        event: AuditEvent,
        now: DateTime<Utc>,
    ) -> Result<()>;
    async fn set_service_archived(
        &self,
        t: &Tenant,
        id: ServiceId,
        archived: bool,
        event: AuditEvent,
        now: DateTime<Utc>,
    ) -> Result<()>;
    async fn delete_service(
        &self,
        t: &Tenant,
        id: ServiceId,
        event: AuditEvent,
        now: DateTime<Utc>,
    ) -> Result<()>;
    async fn save_finding(
        &self,
        t: &Tenant,
        service: ServiceId,
        draft: &FindingDraft,
        event: AuditEvent,
        now: DateTime<Utc>,
    ) -> Result<()>;
    async fn inventory_counts(&self, t: &Tenant) -> Result<InventoryCounts>;
    /// Everything the dashboard counts, read at once (one consistent
    /// view): one statement on SQLite, and one statement in a transaction
    /// scoped to the tenant on PostgreSQL. Its counts over the services are
    /// one pass.
    async fn dashboard(&self, t: &Tenant, today: NaiveDate) -> Result<Dashboard>;
    /// Creates the vendors and services of an import in one transaction: all
    /// of them, or (on any error) none.
    /// New vendors and services in one transaction, with their audit
    /// entries (the import's, or a vendor's and a service's).
    async fn import_services(
        &self,
        t: &Tenant,
        vendors: &[ImportVendor],
        services: &[ServiceDraft],
        events: &[AuditEvent],
        now: DateTime<Utc>,
    ) -> Result<Vec<ServiceId>>;
}
