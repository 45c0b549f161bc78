// The inventory's queries, shared by SQLite and PostgreSQL like `shared.rs`
// (included after it, so its helpers and imports are in scope here).

use crate::inventory::{
    Contact, Dashboard, DataClass, Finding, ImportVendor, InventoryCounts, InventoryStore, Page, Service, ServiceDetail,
    ServiceNames, ServicePage, ServiceQuery, ServiceRef, ServiceRow, ServiceSort, Vendor, VendorName, VendorQuery, VendorRow,
    VendorSort,
    LIST_SEPARATOR,
};
use aivet_domain::inventory::{default_data_classes, ClassMarks, ContactDraft, FindingDraft, ItemName, ServiceDraft, VendorDraft};
use aivet_domain::{ContactId, DataClassId, ServiceId, VendorId};

/// A `LIKE` pattern that matches `text` anywhere, with the wildcards in it
/// escaped: `%`, `_` and `\` are searched for as they are.
fn like_pattern(text: Option<&aivet_domain::SearchText>) -> Option<String> {
    text.map(|s| {
        let escaped = s.as_str().to_lowercase().replace('\\', "\\\\").replace('%', "\\%").replace('_', "\\_");
        format!("%{escaped}%")
    })
}

fn url(u: &Option<aivet_domain::inventory::WebUrl>) -> Option<&str> {
    u.as_ref().map(|u| u.as_str())
}

fn name_taken(e: sqlx::Error) -> StoreError {
    if unique_violation(&e) {
        StoreError::NameTaken
    } else {
        e.into()
    }
}

async fn insert_default_data_classes(tx: &mut Tx, org: OrgId, lang: Lang) -> Result<()> {
    for (position, (name, personal)) in default_data_classes(lang).into_iter().enumerate() {
        sqlx::query(
            "INSERT INTO data_classes (id, org_id, name, name_key, personal, needs_clearance, position)
             VALUES ($1, $2, $3, $4, $5, $6, $7)",
        )
        .bind(Uuid::new_v4())
        .bind(org.0)
        .bind(name)
        .bind(name.to_lowercase())
        .bind(personal)
        .bind(aivet_domain::clearance::default_needs_clearance(position, personal))
        .bind(position as i32)
        .execute(&mut **tx)
        .await?;
    }
    Ok(())
}

/// Archives (or restores) one record of `table`; a record archived before
/// keeps its first archiving time.
async fn set_archived(
    tx: &mut Tx,
    table: &'static str,
    org: OrgId,
    id: Uuid,
    archived: bool,
    now: DateTime<Utc>,
) -> Result<u64> {
    let r = sqlx::query(&format!(
        "UPDATE {table} SET archived_at = CASE WHEN $3 THEN COALESCE(archived_at, $4) ELSE NULL END, updated_at = $4
         WHERE org_id = $1 AND id = $2"
    ))
    .bind(org.0)
    .bind(id)
    .bind(archived)
    .bind(Ts::from(now))
    .execute(&mut **tx)
    .await?;
    Ok(r.rows_affected())
}

async fn vendor_exists(tx: &mut Tx, org: OrgId, id: VendorId) -> Result<bool> {
    let (n,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM vendors WHERE org_id = $1 AND id = $2")
        .bind(org.0)
        .bind(id.0)
        .fetch_one(&mut **tx)
        .await?;
    Ok(n == 1)
}

/// Every id a service draft refers to must be the organisation's own.
async fn check_service_refs(tx: &mut Tx, org: OrgId, d: &ServiceDraft) -> Result<()> {
    let mut missing = Vec::new();
    let vendors = [
        ("vendor_id", Some(d.vendor_id)),
        ("integrator_id", d.integrator_id),
        ("model_provider_id", d.model_provider_id),
        ("inference_host_id", d.inference_host_id),
    ];
    for (field, id) in vendors {
        if let Some(id) = id {
            if !vendor_exists(tx, org, id).await? {
                missing.push(field);
            }
        }
    }
    if let Some(owner) = d.owner_id {
        let (n,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM memberships WHERE org_id = $1 AND id = $2")
            .bind(org.0)
            .bind(owner.0)
            .fetch_one(&mut **tx)
            .await?;
        if n == 0 {
            missing.push("owner_id");
        }
    }
    for dc in &d.data_classes {
        let (n,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM data_classes WHERE org_id = $1 AND id = $2")
            .bind(org.0)
            .bind(dc.0)
            .fetch_one(&mut **tx)
            .await?;
        if n == 0 {
            missing.push("data_classes");
            break;
        }
    }
    if missing.is_empty() {
        Ok(())
    } else {
        Err(StoreError::UnknownRefs(missing))
    }
}

async fn insert_vendor(tx: &mut Tx, org: OrgId, id: VendorId, d: &VendorDraft, now: DateTime<Utc>) -> Result<()> {
    sqlx::query(
        "INSERT INTO vendors (id, org_id, name, name_key, website, role, dpa_url, privacy_url, subprocessors_url,
                              status_url, trust_url, notes, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $13)",
    )
    .bind(id.0)
    .bind(org.0)
    .bind(d.name.as_str())
    .bind(d.name.key())
    .bind(url(&d.website))
    .bind(d.role.as_str())
    .bind(url(&d.dpa_url))
    .bind(url(&d.privacy_url))
    .bind(url(&d.subprocessors_url))
    .bind(url(&d.status_url))
    .bind(url(&d.trust_url))
    .bind(d.notes.as_deref())
    .bind(Ts::from(now))
    .execute(&mut **tx)
    .await
    .map_err(name_taken)?;
    Ok(())
}

async fn write_service_data_classes(tx: &mut Tx, org: OrgId, id: ServiceId, d: &ServiceDraft) -> Result<()> {
    sqlx::query("DELETE FROM service_data_classes WHERE org_id = $1 AND service_id = $2")
        .bind(org.0)
        .bind(id.0)
        .execute(&mut **tx)
        .await?;
    for dc in &d.data_classes {
        sqlx::query("INSERT INTO service_data_classes (org_id, service_id, data_class_id) VALUES ($1, $2, $3)")
            .bind(org.0)
            .bind(id.0)
            .bind(dc.0)
            .execute(&mut **tx)
            .await?;
    }
    refresh_personal(tx, org, Personal::Service(id)).await?;
    refresh_clearance(tx, org, Figures::Service(id)).await
}

/// Which services' `personal` mark to recompute.
enum Personal {
    Service(ServiceId),
    /// Every service that receives this class.
    Receiving(DataClassId),
}

/// Recomputes the `personal` mark. One statement per case, so that each
/// can use its index (a shared `$2 IS NULL OR id = $2` cannot).
async fn refresh_personal(tx: &mut Tx, org: OrgId, which: Personal) -> Result<()> {
    let (filter, id) = match which {
        Personal::Service(s) => ("id = $2", s.0),
        Personal::Receiving(c) => (
            "id IN (SELECT d.service_id FROM service_data_classes d WHERE d.org_id = $1 AND d.data_class_id = $2)",
            c.0,
        ),
    };
    sqlx::query(&format!("UPDATE services SET personal = {PERSONAL} WHERE org_id = $1 AND {filter}"))
        .bind(org.0)
        .bind(id)
        .execute(&mut **tx)
        .await?;
    Ok(())
}

type Args<'q> = <Db as sqlx::Database>::Arguments<'q>;

/// Binds the organisation ($1), the service id ($2), the draft ($3–$19) and
/// the time of the change ($20), for both the insert and the update.
fn bind_service<'q>(
    q: sqlx::query::Query<'q, Db, Args<'q>>,
    org: OrgId,
    id: ServiceId,
    d: &'q ServiceDraft,
    now: DateTime<Utc>,
) -> sqlx::query::Query<'q, Db, Args<'q>> {
    q.bind(org.0)
        .bind(id.0)
        .bind(d.name.as_str())
        .bind(d.name.key())
        .bind(d.purpose.as_deref())
        .bind(d.vendor_id.0)
        .bind(d.integrator_id.map(|v| v.0))
        .bind(d.model_provider_id.map(|v| v.0))
        .bind(d.inference_host_id.map(|v| v.0))
        .bind(d.model.as_deref())
        .bind(d.engine.as_deref())
        .bind(d.deployment.as_str())
        .bind(d.owner_id.map(|m| m.0))
        .bind(d.status.as_str())
        .bind(d.dpa_signed_on)
        .bind(url(&d.dpa_url))
        .bind(d.notice_hours)
        .bind(d.notice_channel.as_deref())
        .bind(d.authority_notifier.as_str())
        .bind(Ts::from(now))
        .bind(d.engine_kind.map(|e| e.as_str()))
        .bind(d.engine_version.as_deref())
        .bind(d.engine_source.map(|e| e.as_str()))
}

/// The service's advisory hits are to be matched again (see
/// `write_hits`, which clears the mark, and `orgs_to_rematch`).
async fn mark_hits_stale(tx: &mut Tx, org: OrgId, id: ServiceId) -> Result<()> {
    sqlx::query("UPDATE services SET hits_stale = true WHERE org_id = $1 AND id = $2")
        .bind(org.0)
        .bind(id.0)
        .execute(&mut **tx)
        .await?;
    Ok(())
}

async fn insert_service(tx: &mut Tx, org: OrgId, d: &ServiceDraft, now: DateTime<Utc>) -> Result<ServiceId> {
    check_service_refs(tx, org, d).await?;
    let id = ServiceId(Uuid::new_v4());
    bind_service(
        sqlx::query(
            "INSERT INTO services (org_id, id, name, name_key, purpose, vendor_id, integrator_id, model_provider_id,
                                   inference_host_id, model, engine, deployment, owner_id, status, dpa_signed_on,
                                   dpa_url, notice_hours, notice_channel, authority_notifier, created_at, updated_at,
                                   engine_kind, engine_version, engine_source, engine_parsed, hits_stale)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $20,
                     $21, $22, $23, true, $21 IS NOT NULL)",
        ),
        org,
        id,
        d,
        now,
    )
    .execute(&mut **tx)
    .await
    .map_err(name_taken)?;
    write_service_data_classes(tx, org, id, d).await?;
    Ok(id)
}

/// How many services name each vendor in any role: one pass over the
/// organisation's services (`$1`), not one per vendor.
const VENDOR_USE: &str = "SELECT r.vendor_id, COUNT(DISTINCT r.service_id) AS services FROM (
        SELECT vendor_id, id AS service_id FROM services WHERE org_id = $1
        UNION ALL SELECT integrator_id, id FROM services WHERE org_id = $1 AND integrator_id IS NOT NULL
        UNION ALL SELECT model_provider_id, id FROM services WHERE org_id = $1 AND model_provider_id IS NOT NULL
        UNION ALL SELECT inference_host_id, id FROM services WHERE org_id = $1 AND inference_host_id IS NOT NULL
    ) r GROUP BY r.vendor_id";

const SERVICE_REFERENCES: &str =
    "(s.vendor_id = $2 OR s.integrator_id = $2 OR s.model_provider_id = $2 OR s.inference_host_id = $2)";

async fn services_naming_vendor(tx: &mut Tx, org: OrgId, vendor: VendorId) -> Result<Vec<ServiceRef>> {
    Ok(sqlx::query_as::<_, ServiceRef>(&format!(
        "SELECT s.id, s.name FROM services s WHERE s.org_id = $1 AND {SERVICE_REFERENCES} ORDER BY s.name_key"
    ))
    .bind(org.0)
    .bind(vendor.0)
    .fetch_all(&mut **tx)
    .await?)
}

/// The list's filters on `services s`, with only the filters in use:
/// neither SQLite's planner nor PostgreSQL's cached generic plan can use an
/// index through a `$n IS NULL OR …`. The arguments stay bound at fixed places
/// (`$1` the organisation, `$2`–`$6` the filters); a filter not in use is
/// bound as NULL and not named. Joins nothing, so that counting reads no
/// other table (the vendor's name is searched through EXISTS).
fn service_where(q: &ServiceQuery, text: bool) -> String {
    let mut w = String::from("s.org_id = $1");
    if text {
        w.push_str(
            " AND (s.name_key LIKE $2 ESCAPE '\\'
               OR EXISTS (SELECT 1 FROM vendors sv WHERE sv.org_id = s.org_id AND sv.id = s.vendor_id
                          AND sv.name_key LIKE $2 ESCAPE '\\')
               OR lower(coalesce(s.purpose, '')) LIKE $2 ESCAPE '\\' OR lower(coalesce(s.model, '')) LIKE $2 ESCAPE '\\')",
        );
    }
    if q.vendor.is_some() {
        w.push_str(
            " AND (s.vendor_id = $3 OR s.integrator_id = $3 OR s.model_provider_id = $3 OR s.inference_host_id = $3)",
        );
    }
    if q.status.is_some() {
        w.push_str(" AND s.status = $4");
    }
    if q.data_class.is_some() {
        w.push_str(
            " AND EXISTS (SELECT 1 FROM service_data_classes d
                          WHERE d.org_id = s.org_id AND d.service_id = s.id AND d.data_class_id = $5)",
        );
    }
    if q.owner.is_some() {
        w.push_str(" AND s.owner_id = $6");
    }
    if let Some(today) = q.conflicts_on {
        w.push_str(" AND ");
        w.push_str(&conflict_exists(today));
    }
    if !q.archived {
        w.push_str(" AND s.archived_at IS NULL");
    }
    w
}

/// A service's count of findings that are not "unknown", as an assignment
/// for `UPDATE services SET … WHERE …`.
const KNOWN_FINDINGS: &str = "known_findings = (SELECT COUNT(*) FROM findings f
     WHERE f.org_id = services.org_id AND f.service_id = services.id AND f.status <> 'unknown')";

/// Whether the service in the UPDATE receives a personal data class.
/// A scalar subquery rather than EXISTS: PostgreSQL may run an EXISTS as
/// one hashed scan of the whole organisation's classes, and did on
/// statistics from when the organisation was small, which made each
/// service saved during a large import read every other one (16 ms at
/// 5,000 services instead of 0.3 ms).
const PERSONAL: &str = "COALESCE((SELECT true FROM service_data_classes d
    JOIN data_classes c ON c.org_id = d.org_id AND c.id = d.data_class_id
    WHERE d.org_id = services.org_id AND d.service_id = services.id AND c.personal LIMIT 1), false)";

/// The inventory's totals beside its counts by status, as one row
/// (`$1` the organisation): vendors, and findings with a known status.
const INVENTORY_TOTALS: &str = "SELECT (SELECT COUNT(*) FROM vendors v WHERE v.org_id = $1 AND v.archived_at IS NULL) AS vendors,
        (SELECT COUNT(*) FROM findings f WHERE f.org_id = $1 AND f.status <> 'unknown') AS known_findings";

/// The inventory's counts by status: one pass over the active services
/// (`$1` the organisation), a row per status.
const INVENTORY_BY_STATUS: &str = "SELECT status, COUNT(*) AS services, COALESCE(SUM(CASE WHEN personal THEN 1 ELSE 0 END), 0) AS personal,
        COALESCE(SUM(CASE WHEN known_findings < 3 THEN 1 ELSE 0 END), 0) AS open_findings,
        COALESCE(SUM(CASE WHEN assessment <> 'not_asked' THEN 1 ELSE 0 END), 0) AS asked_any,
        COALESCE(SUM(CASE WHEN assessment = 'asked' THEN 1 ELSE 0 END), 0) AS awaiting,
        COALESCE(SUM(CASE WHEN assessment = 'answered' THEN 1 ELSE 0 END), 0) AS to_review
 FROM services WHERE org_id = $1 AND archived_at IS NULL GROUP BY status";

/// The dashboard's figures that are counts over the active services, in
/// one pass (`$1` the organisation), a row per status:
/// [`INVENTORY_BY_STATUS`]'s columns, then those of the clearance counts
/// and the advisory counts (which the dashboard adds up without retired
/// services, as their own reads count them) and the asked services
/// without an open follow-up. The index `services_dashboard` holds every
/// column of `services` it reads, so the pass reads no table row.
fn dashboard_by_status_sql(today: NaiveDate) -> String {
    // `COUNT(*) FILTER (WHERE …)` instead of `SUM(CASE WHEN … THEN 1 ELSE 0
    // END)`: a row that does not match skips the aggregate's step. On the
    // bench's 500 services the pass takes 0.15–0.26 ms instead of
    // 0.40–0.57 ms on SQLite (BENCHMARKS.md, 2026-12-07 morning).
    format!(
        "SELECT status, COUNT(*) AS services, COUNT(*) FILTER (WHERE personal) AS personal,
            COUNT(*) FILTER (WHERE known_findings < 3) AS open_findings,
            COUNT(*) FILTER (WHERE assessment <> 'not_asked') AS asked_any,
            COUNT(*) FILTER (WHERE assessment = 'asked') AS awaiting,
            COUNT(*) FILTER (WHERE assessment = 'answered') AS to_review,
            COUNT(*) FILTER (WHERE {}) AS conflicts,
            COALESCE(SUM(clearance_open), 0) AS undecided,
            COUNT(*) FILTER (WHERE advisory_affected) AS affected,
            COUNT(*) FILTER (WHERE advisory_unknown) AS exposure_unknown,
            COUNT(*) FILTER (WHERE assessment <> 'not_asked' AND NOT EXISTS (SELECT 1 FROM follow_ups f
                WHERE f.org_id = s.org_id AND f.service_id = s.id AND f.status = 'open')) AS asked_without
         FROM services s WHERE s.org_id = $1 AND s.archived_at IS NULL GROUP BY status",
        clearance_conflict_sql(today)
    )
}

/// The organisation's number of changes to what its dashboard counts (`$1`
/// the organisation; see [`crate::kept`]).
const ORG_CHANGES: &str = "COALESCE((SELECT n FROM org_changes WHERE org_id = $1), 0)";

/// The dashboard's one-row figures (`$1` the organisation, `$2` today):
/// vendors, known findings, overdue follow-ups, and whether the data
/// class policy was reviewed.
const DASHBOARD_TOTALS: &str = "SELECT (SELECT COUNT(*) FROM vendors v WHERE v.org_id = $1 AND v.archived_at IS NULL) AS vendors,
        (SELECT COUNT(*) FROM findings f WHERE f.org_id = $1 AND f.status <> 'unknown') AS known_findings,
        (SELECT COUNT(*) FROM follow_ups f JOIN services s ON s.org_id = f.org_id AND s.id = f.service_id
          WHERE f.org_id = $1 AND f.status = 'open' AND f.due_on < $2 AND s.archived_at IS NULL) AS overdue,
        (SELECT policy_reviewed_at IS NOT NULL FROM orgs WHERE id = $1) AS policy_reviewed";

/// The dashboard's one statement (`$1` the organisation, `$2` today), with
/// the number of changes it was counted at. SQLite: one row, the rows by
/// status and the clocks as JSON. PostgreSQL: a row per service status,
/// each with the one-row figures and the clocks as JSON (one row with only
/// those when there are no services).
fn dashboard_sql(today: NaiveDate) -> String {
    let by_status = dashboard_by_status_sql(today);
    if ThisStore::LISTS_AS_JSON {
        format!(
            "SELECT t.*, {ORG_CHANGES},
                (SELECT json_group_array(json_array(g.status, g.services, g.personal, g.open_findings, g.asked_any,
                    g.awaiting, g.to_review, g.conflicts, g.undecided, g.affected, g.exposure_unknown, g.asked_without))
                 FROM ({by_status}) AS g),
                (SELECT json_group_array(json_array(hex(i.id), i.title, i.we_aware_at) ORDER BY {PENDING_CLOCKS_ORDER})
                 FROM incidents i WHERE {PENDING_CLOCKS})
             FROM ({DASHBOARD_TOTALS}) AS t"
        )
    } else {
        format!(
            "SELECT t.*, g.* FROM (SELECT tt.*, {ORG_CHANGES} AS changes,
                    (SELECT COALESCE(json_agg(json_build_array(i.id, i.title, i.we_aware_at) ORDER BY {PENDING_CLOCKS_ORDER}), '[]')::text
                     FROM incidents i WHERE {PENDING_CLOCKS}) AS clocks
                 FROM ({DASHBOARD_TOTALS}) AS tt) AS t
             LEFT JOIN ({by_status}) AS g ON 1 = 1"
        )
    }
}

/// A row of [`dashboard_by_status_sql`].
type StatusFigures = (String, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64);

/// The dashboard's row on PostgreSQL: the one-row figures and the clocks
/// (as JSON), and the figures of one service status (none without services).
#[derive(sqlx::FromRow)]
struct DashboardRow {
    vendors: i64,
    known_findings: i64,
    overdue: i64,
    policy_reviewed: bool,
    changes: i64,
    clocks: String,
    status: Option<String>,
    services: Option<i64>,
    personal: Option<i64>,
    open_findings: Option<i64>,
    asked_any: Option<i64>,
    awaiting: Option<i64>,
    to_review: Option<i64>,
    conflicts: Option<i64>,
    undecided: Option<i64>,
    affected: Option<i64>,
    exposure_unknown: Option<i64>,
    asked_without: Option<i64>,
}

/// The dashboard's clocks, read as a JSON list of `[id, title, we became
/// aware]`.
fn pending_clocks_from_json(clocks: &str) -> Result<Vec<PendingClock>> {
    let json = JsonRead("the dashboard's clocks");
    let clocks: Vec<(String, String, String)> = json.parse(clocks)?;
    clocks
        .into_iter()
        .map(|(id, title, aware)| Ok(PendingClock { id: IncidentId(json.id(&id)?), title, we_aware_at: json.time(&aware)? }))
        .collect()
}

/// The dashboard of its one-row figures (vendors, known findings, overdue
/// follow-ups, policy reviewed), its rows by status and its clocks.
fn dashboard_from(
    (vendors, known_findings, overdue, policy_reviewed): (i64, i64, i64, bool),
    rows: impl IntoIterator<Item = StatusFigures>,
    clocks: Vec<PendingClock>,
) -> Dashboard {
    let mut clearance = ClearanceCounts { conflicts: 0, undecided: 0, policy_reviewed };
    let mut advisories = AdvisoryCounts { affected: 0, unknown: 0 };
    let mut asked_without = 0;
    let mut by_status = Vec::new();
    for (status, count, personal, open, asked_any, awaiting, to_review, conflicts, undecided, affected, unknown, without) in rows {
        // Retired services no longer receive data nor run an engine.
        if status != "retired" {
            clearance.conflicts += conflicts;
            clearance.undecided += undecided;
            advisories.affected += affected;
            advisories.unknown += unknown;
        }
        asked_without += without;
        by_status.push((status, count, personal, open, asked_any, awaiting, to_review));
    }
    Dashboard {
        inventory: inventory_counts_from(vendors, known_findings, by_status),
        follow_ups: FollowUpCounts { overdue, asked_without },
        clearance,
        clocks,
        advisories,
    }
}

/// A row of [`INVENTORY_BY_STATUS`].
type ByStatus = (String, i64, i64, i64, i64, i64, i64);

/// The dashboard's figures of the inventory, inside `tx`.
async fn inventory_counts_in(tx: &mut Tx, org: OrgId) -> Result<InventoryCounts> {
    let (vendors, known_findings): (i64, i64) = sqlx::query_as(INVENTORY_TOTALS).bind(org.0).fetch_one(&mut **tx).await?;
    let by_status: Vec<ByStatus> = sqlx::query_as(INVENTORY_BY_STATUS).bind(org.0).fetch_all(&mut **tx).await?;
    Ok(inventory_counts_from(vendors, known_findings, by_status))
}

fn inventory_counts_from(vendors: i64, known_findings: i64, by_status: impl IntoIterator<Item = ByStatus>) -> InventoryCounts {
    let mut n = InventoryCounts {
        vendors,
        known_findings,
        ..Default::default()
    };
    for (status, count, personal, open, asked_any, awaiting, to_review) in by_status {
        match status.as_str() {
            "in_use" => n.in_use = count,
            "trial" => n.trial = count,
            _ => n.retired = count,
        }
        // Retired services no longer receive data nor need answers.
        if status != "retired" {
            n.personal += personal;
            n.open_findings += open;
            n.asked_any += asked_any;
            n.awaiting_answer += awaiting;
            n.to_review += to_review;
        }
    }
    n
}

/// The organisation's vendors in use, by name, inside `tx`.
async fn vendor_names_in(tx: &mut Tx, org: OrgId) -> Result<Vec<VendorName>> {
    Ok(sqlx::query_as::<_, VendorName>(
        "SELECT id, name FROM vendors WHERE org_id = $1 AND archived_at IS NULL ORDER BY name_key, id",
    )
    .bind(org.0)
    .fetch_all(&mut **tx)
    .await?)
}

async fn service_in(tx: &mut Tx, org: OrgId, id: ServiceId) -> Result<ServiceDetail> {
    let service = sqlx::query_as::<_, Service>(
        "SELECT id, name, purpose, vendor_id, integrator_id, model_provider_id, inference_host_id, model, engine,
                deployment, owner_id, status, dpa_signed_on, dpa_url, notice_hours, notice_channel,
                authority_notifier, created_at, updated_at, archived_at, engine_kind, engine_version, engine_source
         FROM services WHERE org_id = $1 AND id = $2",
    )
    .bind(org.0)
    .bind(id.0)
    .fetch_optional(&mut **tx)
    .await?
    .ok_or(StoreError::NotFound)?;
    let classes: Vec<(Uuid,)> = sqlx::query_as(
        "SELECT d.data_class_id FROM service_data_classes d
           JOIN data_classes c ON c.org_id = d.org_id AND c.id = d.data_class_id
         WHERE d.org_id = $1 AND d.service_id = $2 ORDER BY c.position, c.name_key",
    )
    .bind(org.0)
    .bind(id.0)
    .fetch_all(&mut **tx)
    .await?;
    let findings = sqlx::query_as::<_, Finding>(
        "SELECT topic, status, summary, source_url, checked_on, updated_at FROM findings
         WHERE org_id = $1 AND service_id = $2",
    )
    .bind(org.0)
    .bind(id.0)
    .fetch_all(&mut **tx)
    .await?;
    Ok(ServiceDetail {
        service,
        data_classes: classes.into_iter().map(|(u,)| DataClassId(u)).collect(),
        findings,
    })
}

/// The names on a service's record: its vendors in every role (archived
/// ones too: the record still names them), its owner, and its classes in
/// the record's order, from `classes` (the clearance's, which lists every
/// class the service receives, archived ones too).
async fn service_names_in(
    tx: &mut Tx,
    org: OrgId,
    d: &ServiceDetail,
    classes: &[crate::clearance::PolicyClass],
) -> Result<ServiceNames> {
    let s = &d.service;
    let vendors = sqlx::query_as::<_, VendorName>(
        "SELECT id, name FROM vendors WHERE org_id = $1 AND id IN ($2, $3, $4, $5)",
    )
    .bind(org.0)
    .bind(s.vendor_id.0)
    .bind(s.integrator_id.map(|v| v.0))
    .bind(s.model_provider_id.map(|v| v.0))
    .bind(s.inference_host_id.map(|v| v.0))
    .fetch_all(&mut **tx)
    .await?;
    let owner = match s.owner_id {
        Some(m) => sqlx::query_scalar::<_, String>(
            "SELECT u.name FROM memberships m JOIN users u ON u.id = m.user_id WHERE m.org_id = $1 AND m.id = $2",
        )
        .bind(org.0)
        .bind(m.0)
        .fetch_optional(&mut **tx)
        .await?,
        None => None,
    };
    let data_classes = d
        .data_classes
        .iter()
        .filter_map(|c| classes.iter().find(|k| k.id == *c).map(|k| k.name.clone()))
        .collect();
    Ok(ServiceNames { vendors, owner, data_classes })
}

#[async_trait::async_trait]
#[allow(clippy::too_many_arguments)]
impl InventoryStore for ThisStore {
    async fn data_classes(&self, t: &Tenant) -> Result<Vec<DataClass>> {
        let mut tx = self.read(Scope::Tenant(t)).await?;
        let rows = sqlx::query_as::<_, DataClass>(
            "SELECT c.id, c.name, c.personal, c.needs_clearance, c.archived_at,
                    (SELECT COUNT(*) FROM service_data_classes d WHERE d.org_id = c.org_id AND d.data_class_id = c.id) AS services
             FROM data_classes c WHERE c.org_id = $1 ORDER BY c.position, c.name_key",
        )
        .bind(t.org_id().0)
        .fetch_all(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(rows)
    }

    async fn create_data_class(&self, t: &Tenant, name: &ItemName, marks: ClassMarks, event: AuditEvent, now: DateTime<Utc>) -> Result<DataClassId> {
        let mut tx = self.write(Scope::Tenant(t)).await?;
        let id = DataClassId(Uuid::new_v4());
        sqlx::query(
            "INSERT INTO data_classes (id, org_id, name, name_key, personal, needs_clearance, position)
             VALUES ($1, $2, $3, $4, $5, $6, (SELECT COALESCE(MAX(position), 0) + 1 FROM data_classes WHERE org_id = $2))",
        )
        .bind(id.0)
        .bind(t.org_id().0)
        .bind(name.as_str())
        .bind(name.key())
        .bind(marks.personal)
        .bind(marks.needs_clearance)
        .execute(&mut *tx)
        .await
        .map_err(name_taken)?;
        insert_audit(&mut tx, t.org_id(), Some(t.user_id()), &event, now).await?;
        tx.commit().await?;
        Ok(id)
    }

    async fn update_data_class(&self, t: &Tenant, id: DataClassId, name: &ItemName, marks: ClassMarks, archived: bool, event: AuditEvent, now: DateTime<Utc>) -> Result<()> {
        let mut tx = self.write(Scope::Tenant(t)).await?;
        let r = sqlx::query(
            "UPDATE data_classes SET name = $3, name_key = $4, personal = $5,
                    archived_at = CASE WHEN $6 THEN COALESCE(archived_at, $7) ELSE NULL END, needs_clearance = $8
             WHERE org_id = $1 AND id = $2",
        )
        .bind(t.org_id().0)
        .bind(id.0)
        .bind(name.as_str())
        .bind(name.key())
        .bind(marks.personal)
        .bind(archived)
        .bind(Ts::from(now))
        .bind(marks.needs_clearance)
        .execute(&mut *tx)
        .await
        .map_err(name_taken)?;
        if r.rows_affected() != 1 {
            return Err(StoreError::NotFound);
        }
        refresh_personal(&mut tx, t.org_id(), Personal::Receiving(id)).await?;
        refresh_clearance(&mut tx, t.org_id(), Figures::Receiving(id)).await?;
        insert_audit(&mut tx, t.org_id(), Some(t.user_id()), &event, now).await?;
        tx.commit().await?;
        Ok(())
    }

    async fn delete_data_class(&self, t: &Tenant, id: DataClassId, event: AuditEvent, now: DateTime<Utc>) -> Result<()> {
        let mut tx = self.write(Scope::Tenant(t)).await?;
        let users = sqlx::query_as::<_, ServiceRef>(
            "SELECT s.id, s.name FROM services s JOIN service_data_classes d ON d.org_id = s.org_id AND d.service_id = s.id
             WHERE s.org_id = $1 AND d.data_class_id = $2 ORDER BY s.name_key",
        )
        .bind(t.org_id().0)
        .bind(id.0)
        .fetch_all(&mut *tx)
        .await?;
        if !users.is_empty() {
            return Err(StoreError::InUse(users.into_iter().map(|s| s.name).collect()));
        }
        let r = sqlx::query("DELETE FROM data_classes WHERE org_id = $1 AND id = $2")
            .bind(t.org_id().0)
            .bind(id.0)
            .execute(&mut *tx)
            .await?;
        if r.rows_affected() != 1 {
            return Err(StoreError::NotFound);
        }
        insert_audit(&mut tx, t.org_id(), Some(t.user_id()), &event, now).await?;
        tx.commit().await?;
        Ok(())
    }

    async fn vendors(&self, t: &Tenant, q: &VendorQuery) -> Result<Vec<VendorRow>> {
        let order = match q.sort {
            VendorSort::Name => "v.name_key, v.id",
            VendorSort::Updated => "v.updated_at DESC, v.id",
        };
        let mut tx = self.read(Scope::Tenant(t)).await?;
        let rows = sqlx::query_as::<_, VendorRow>(&format!(
            "SELECT v.id, v.name, v.role, v.website, v.updated_at, v.archived_at,
                    COALESCE(n.services, 0) AS services,
                    (SELECT c.email FROM vendor_contacts c WHERE c.org_id = v.org_id AND c.vendor_id = v.id
                     ORDER BY c.is_primary DESC, c.created_at LIMIT 1) AS primary_contact
             FROM vendors v
             LEFT JOIN ({VENDOR_USE}) n ON n.vendor_id = v.id
             WHERE v.org_id = $1 AND ($2 IS NULL OR v.name_key LIKE $2 ESCAPE '\\')
               AND ($3 IS NULL OR v.role = $3) AND ($4 OR v.archived_at IS NULL)
             ORDER BY {order}"
        ))
        .bind(t.org_id().0)
        .bind(like_pattern(q.text.as_ref()))
        .bind(q.role.map(|r| r.as_str()))
        .bind(q.archived)
        .fetch_all(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(rows)
    }

    async fn vendor_names(&self, t: &Tenant) -> Result<Vec<VendorName>> {
        let mut tx = self.read(Scope::Tenant(t)).await?;
        let rows = vendor_names_in(&mut tx, t.org_id()).await?;
        tx.commit().await?;
        Ok(rows)
    }

    async fn service_name_keys(&self, t: &Tenant) -> Result<Vec<String>> {
        let mut tx = self.read(Scope::Tenant(t)).await?;
        let keys = sqlx::query_scalar::<_, String>("SELECT name_key FROM services WHERE org_id = $1")
            .bind(t.org_id().0)
            .fetch_all(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(keys)
    }

    async fn vendor(&self, t: &Tenant, id: VendorId) -> Result<Vendor> {
        let mut tx = self.read(Scope::Tenant(t)).await?;
        let v = sqlx::query_as::<_, Vendor>(
            "SELECT id, name, website, role, dpa_url, privacy_url, subprocessors_url, status_url, trust_url, notes,
                    created_at, updated_at, archived_at
             FROM vendors WHERE org_id = $1 AND id = $2",
        )
        .bind(t.org_id().0)
        .bind(id.0)
        .fetch_optional(&mut *tx)
        .await?;
        tx.commit().await?;
        v.ok_or(StoreError::NotFound)
    }

    async fn contacts(&self, t: &Tenant, vendor: VendorId) -> Result<Vec<Contact>> {
        let mut tx = self.read(Scope::Tenant(t)).await?;
        let rows = sqlx::query_as::<_, Contact>(
            "SELECT id, vendor_id, name, email, lang, role, is_primary FROM vendor_contacts
             WHERE org_id = $1 AND vendor_id = $2 ORDER BY is_primary DESC, created_at, id",
        )
        .bind(t.org_id().0)
        .bind(vendor.0)
        .fetch_all(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(rows)
    }

    async fn services_of_vendor(&self, t: &Tenant, vendor: VendorId) -> Result<Vec<ServiceRef>> {
        let mut tx = self.read(Scope::Tenant(t)).await?;
        let rows = services_naming_vendor(&mut tx, t.org_id(), vendor).await?;
        tx.commit().await?;
        Ok(rows)
    }

    async fn create_vendor(&self, t: &Tenant, draft: &VendorDraft, event: AuditEvent, now: DateTime<Utc>) -> Result<VendorId> {
        let mut tx = self.write(Scope::Tenant(t)).await?;
        let id = VendorId(Uuid::new_v4());
        insert_vendor(&mut tx, t.org_id(), id, draft, now).await?;
        insert_audit(&mut tx, t.org_id(), Some(t.user_id()), &event, now).await?;
        tx.commit().await?;
        Ok(id)
    }

    async fn update_vendor(&self, t: &Tenant, id: VendorId, d: &VendorDraft, event: AuditEvent, now: DateTime<Utc>) -> Result<()> {
        let mut tx = self.write(Scope::Tenant(t)).await?;
        let r = sqlx::query(
            "UPDATE vendors SET name = $3, name_key = $4, website = $5, role = $6, dpa_url = $7, privacy_url = $8,
                    subprocessors_url = $9, status_url = $10, trust_url = $11, notes = $12, updated_at = $13
             WHERE org_id = $1 AND id = $2",
        )
        .bind(t.org_id().0)
        .bind(id.0)
        .bind(d.name.as_str())
        .bind(d.name.key())
        .bind(url(&d.website))
        .bind(d.role.as_str())
        .bind(url(&d.dpa_url))
        .bind(url(&d.privacy_url))
        .bind(url(&d.subprocessors_url))
        .bind(url(&d.status_url))
        .bind(url(&d.trust_url))
        .bind(d.notes.as_deref())
        .bind(Ts::from(now))
        .execute(&mut *tx)
        .await
        .map_err(name_taken)?;
        if r.rows_affected() != 1 {
            return Err(StoreError::NotFound);
        }
        insert_audit(&mut tx, t.org_id(), Some(t.user_id()), &event, now).await?;
        tx.commit().await?;
        Ok(())
    }

    async fn set_vendor_archived(&self, t: &Tenant, id: VendorId, archived: bool, event: AuditEvent, now: DateTime<Utc>) -> Result<()> {
        let mut tx = self.write(Scope::Tenant(t)).await?;
        if set_archived(&mut tx, "vendors", t.org_id(), id.0, archived, now).await? != 1 {
            return Err(StoreError::NotFound);
        }
        insert_audit(&mut tx, t.org_id(), Some(t.user_id()), &event, now).await?;
        tx.commit().await?;
        Ok(())
    }

    async fn delete_vendor(&self, t: &Tenant, id: VendorId, event: AuditEvent, now: DateTime<Utc>) -> Result<()> {
        let mut tx = self.write(Scope::Tenant(t)).await?;
        if !vendor_exists(&mut tx, t.org_id(), id).await? {
            return Err(StoreError::NotFound);
        }
        let users = services_naming_vendor(&mut tx, t.org_id(), id).await?;
        if !users.is_empty() {
            return Err(StoreError::InUse(users.into_iter().map(|s| s.name).collect()));
        }
        sqlx::query("DELETE FROM vendors WHERE org_id = $1 AND id = $2")
            .bind(t.org_id().0)
            .bind(id.0)
            .execute(&mut *tx)
            .await?;
        insert_audit(&mut tx, t.org_id(), Some(t.user_id()), &event, now).await?;
        tx.commit().await?;
        Ok(())
    }

    async fn add_contact(&self, t: &Tenant, vendor: VendorId, d: &ContactDraft, event: AuditEvent, now: DateTime<Utc>) -> Result<ContactId> {
        let mut tx = self.write(Scope::Tenant(t)).await?;
        if !vendor_exists(&mut tx, t.org_id(), vendor).await? {
            return Err(StoreError::NotFound);
        }
        let (existing,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM vendor_contacts WHERE org_id = $1 AND vendor_id = $2")
            .bind(t.org_id().0)
            .bind(vendor.0)
            .fetch_one(&mut *tx)
            .await?;
        // The first contact is the primary one; a new primary one takes the mark.
        let primary = d.primary || existing == 0;
        if primary {
            sqlx::query("UPDATE vendor_contacts SET is_primary = $3 WHERE org_id = $1 AND vendor_id = $2")
                .bind(t.org_id().0)
                .bind(vendor.0)
                .bind(false)
                .execute(&mut *tx)
                .await?;
        }
        let id = ContactId(Uuid::new_v4());
        sqlx::query(
            "INSERT INTO vendor_contacts (id, org_id, vendor_id, name, email, lang, role, is_primary, created_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
        )
        .bind(id.0)
        .bind(t.org_id().0)
        .bind(vendor.0)
        .bind(d.name.as_str())
        .bind(d.email.as_str())
        .bind(d.lang.code())
        .bind(d.role.as_str())
        .bind(primary)
        .bind(Ts::from(now))
        .execute(&mut *tx)
        .await?;
        sqlx::query("UPDATE vendors SET updated_at = $3 WHERE org_id = $1 AND id = $2")
            .bind(t.org_id().0)
            .bind(vendor.0)
            .bind(Ts::from(now))
            .execute(&mut *tx)
            .await?;
        insert_audit(&mut tx, t.org_id(), Some(t.user_id()), &event, now).await?;
        tx.commit().await?;
        Ok(id)
    }

    async fn set_primary_contact(&self, t: &Tenant, id: ContactId, event: AuditEvent, now: DateTime<Utc>) -> Result<VendorId> {
        let mut tx = self.write(Scope::Tenant(t)).await?;
        let row: Option<(Uuid,)> = sqlx::query_as("SELECT vendor_id FROM vendor_contacts WHERE org_id = $1 AND id = $2")
            .bind(t.org_id().0)
            .bind(id.0)
            .fetch_optional(&mut *tx)
            .await?;
        let (vendor,) = row.ok_or(StoreError::NotFound)?;
        sqlx::query("UPDATE vendor_contacts SET is_primary = (id = $3) WHERE org_id = $1 AND vendor_id = $2")
            .bind(t.org_id().0)
            .bind(vendor)
            .bind(id.0)
            .execute(&mut *tx)
            .await?;
        insert_audit(&mut tx, t.org_id(), Some(t.user_id()), &event, now).await?;
        tx.commit().await?;
        Ok(VendorId(vendor))
    }

    async fn remove_contact(&self, t: &Tenant, id: ContactId, event: AuditEvent, now: DateTime<Utc>) -> Result<VendorId> {
        let mut tx = self.write(Scope::Tenant(t)).await?;
        let row: Option<(Uuid, bool)> =
            sqlx::query_as("SELECT vendor_id, is_primary FROM vendor_contacts WHERE org_id = $1 AND id = $2")
                .bind(t.org_id().0)
                .bind(id.0)
                .fetch_optional(&mut *tx)
                .await?;
        let (vendor, was_primary) = row.ok_or(StoreError::NotFound)?;
        sqlx::query("DELETE FROM vendor_contacts WHERE org_id = $1 AND id = $2")
            .bind(t.org_id().0)
            .bind(id.0)
            .execute(&mut *tx)
            .await?;
        if was_primary {
            // The longest-standing remaining contact becomes the primary one.
            sqlx::query(
                "UPDATE vendor_contacts SET is_primary = $3 WHERE org_id = $1 AND id =
                   (SELECT id FROM vendor_contacts WHERE org_id = $1 AND vendor_id = $2 ORDER BY created_at, id LIMIT 1)",
            )
            .bind(t.org_id().0)
            .bind(vendor)
            .bind(true)
            .execute(&mut *tx)
            .await?;
        }
        insert_audit(&mut tx, t.org_id(), Some(t.user_id()), &event, now).await?;
        tx.commit().await?;
        Ok(VendorId(vendor))
    }

    async fn services(&self, t: &Tenant, q: &ServiceQuery) -> Result<Page<ServiceRow>> {
        let order = match q.sort {
            ServiceSort::Name => "s.name_key, s.id",
            ServiceSort::Vendor => "v.name_key, s.name_key, s.id",
            ServiceSort::Status => "s.status, s.name_key, s.id",
            ServiceSort::Updated => "s.updated_at DESC, s.id",
        };
        // Only the vendor order needs the vendor's row to pick the page.
        let (vendor_join, vendor_on) = match q.sort {
            ServiceSort::Vendor => ("CROSS JOIN vendors v", "AND v.org_id = s.org_id AND v.id = s.vendor_id"),
            _ => ("", ""),
        };
        let pattern = like_pattern(q.text.as_ref());
        let filters = service_where(q, pattern.is_some());
        let mut tx = self.read(Scope::Tenant(t)).await?;
        let (total,): (i64,) = sqlx::query_as(&format!("SELECT COUNT(*) FROM services s WHERE {filters}"))
            .bind(t.org_id().0)
            .bind(pattern.as_deref())
            .bind(q.vendor.map(|v| v.0))
            .bind(q.status.map(|s| s.as_str()))
            .bind(q.data_class.map(|d| d.0))
            .bind(q.owner.map(|o| o.0))
            .fetch_one(&mut *tx)
            .await?;
        // The page's ids first (sorted and cut by the indexes), then the
        // columns that cost something, for those rows only. CROSS JOIN makes
        // SQLite start from the page (it would otherwise walk every service
        // in name order and look each up in the page).
        let rows = sqlx::query_as::<_, ServiceRow>(&format!(
            "SELECT s.id, s.name, s.vendor_id, v.name AS vendor_name, i.name AS integrator_name, s.status,
                    s.deployment, u.name AS owner_name,
                    (SELECT string_agg(c.name, $7) FROM service_data_classes d
                       JOIN data_classes c ON c.org_id = d.org_id AND c.id = d.data_class_id
                     WHERE d.org_id = s.org_id AND d.service_id = s.id) AS data_classes,
                    s.personal, s.known_findings, s.updated_at, s.archived_at
             FROM (SELECT s.id AS page_id FROM services s {vendor_join}
                   WHERE {filters} {vendor_on} ORDER BY {order} LIMIT $8 OFFSET $9) p
             CROSS JOIN services s
             JOIN vendors v ON v.org_id = s.org_id AND v.id = s.vendor_id
             LEFT JOIN vendors i ON i.org_id = s.org_id AND i.id = s.integrator_id
             LEFT JOIN memberships m ON m.org_id = s.org_id AND m.id = s.owner_id
             LEFT JOIN users u ON u.id = m.user_id
             WHERE s.org_id = $1 AND s.id = p.page_id
             ORDER BY {order}"
        ))
        .bind(t.org_id().0)
        .bind(pattern.as_deref())
        .bind(q.vendor.map(|v| v.0))
        .bind(q.status.map(|s| s.as_str()))
        .bind(q.data_class.map(|d| d.0))
        .bind(q.owner.map(|o| o.0))
        .bind(LIST_SEPARATOR)
        .bind(q.limit)
        .bind(q.offset)
        .fetch_all(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(Page { rows, total })
    }

    async fn service(&self, t: &Tenant, id: ServiceId) -> Result<ServiceDetail> {
        let mut tx = self.read(Scope::Tenant(t)).await?;
        let detail = service_in(&mut tx, t.org_id(), id).await?;
        tx.commit().await?;
        Ok(detail)
    }

    async fn service_page(&self, t: &Tenant, id: ServiceId) -> Result<ServicePage> {
        let org = t.org_id();
        let mut tx = self.read(Scope::Tenant(t)).await?;
        let detail = service_in(&mut tx, org, id).await?;
        let clearance = service_clearance_in(&mut tx, org, id).await?;
        let names = service_names_in(&mut tx, org, &detail, &clearance.classes).await?;
        let page = ServicePage {
            names,
            incidents: service_incidents_in(&mut tx, org, id).await?,
            clearance,
            hits: service_hits_in(&mut tx, org, id).await?,
            assessment: assessment_in(&mut tx, org, id).await?,
            requests: service_requests_in(&mut tx, org, id).await?,
            events: question_events_in(&mut tx, org, id).await?,
            detail,
        };
        tx.commit().await?;
        Ok(page)
    }

    async fn service_details(&self, t: &Tenant) -> Result<Vec<ServiceDetail>> {
        let mut tx = self.read(Scope::Tenant(t)).await?;
        let services = sqlx::query_as::<_, Service>(
            "SELECT id, name, purpose, vendor_id, integrator_id, model_provider_id, inference_host_id, model, engine,
                    deployment, owner_id, status, dpa_signed_on, dpa_url, notice_hours, notice_channel,
                    authority_notifier, created_at, updated_at, archived_at, engine_kind, engine_version, engine_source
             FROM services WHERE org_id = $1 ORDER BY name_key, id",
        )
        .bind(t.org_id().0)
        .fetch_all(&mut *tx)
        .await?;
        let classes: Vec<(Uuid, Uuid)> = sqlx::query_as(
            "SELECT d.service_id, d.data_class_id FROM service_data_classes d
               JOIN data_classes c ON c.org_id = d.org_id AND c.id = d.data_class_id
             WHERE d.org_id = $1 ORDER BY c.position, c.name_key",
        )
        .bind(t.org_id().0)
        .fetch_all(&mut *tx)
        .await?;
        #[derive(sqlx::FromRow)]
        struct Row {
            service_id: Uuid,
            #[sqlx(flatten)]
            finding: Finding,
        }
        let findings = sqlx::query_as::<_, Row>(
            "SELECT service_id, topic, status, summary, source_url, checked_on, updated_at FROM findings WHERE org_id = $1",
        )
        .bind(t.org_id().0)
        .fetch_all(&mut *tx)
        .await?;
        tx.commit().await?;
        let mut by_id: std::collections::HashMap<Uuid, ServiceDetail> = std::collections::HashMap::new();
        let order: Vec<Uuid> = services.iter().map(|s| s.id.0).collect();
        for service in services {
            by_id.insert(service.id.0, ServiceDetail { service, data_classes: Vec::new(), findings: Vec::new() });
        }
        for (service, class) in classes {
            if let Some(d) = by_id.get_mut(&service) {
                d.data_classes.push(DataClassId(class));
            }
        }
        for row in findings {
            if let Some(d) = by_id.get_mut(&row.service_id) {
                d.findings.push(row.finding);
            }
        }
        Ok(order.into_iter().filter_map(|id| by_id.remove(&id)).collect())
    }

    async fn create_service(&self, t: &Tenant, draft: &ServiceDraft, event: AuditEvent, now: DateTime<Utc>) -> Result<ServiceId> {
        let mut tx = self.write(Scope::Tenant(t)).await?;
        let id = insert_service(&mut tx, t.org_id(), draft, now).await?;
        insert_audit(&mut tx, t.org_id(), Some(t.user_id()), &event, now).await?;
        tx.commit().await?;
        Ok(id)
    }

    async fn update_service(&self, t: &Tenant, id: ServiceId, d: &ServiceDraft, event: AuditEvent, now: DateTime<Utc>) -> Result<()> {
        let mut tx = self.write(Scope::Tenant(t)).await?;
        check_service_refs(&mut tx, t.org_id(), d).await?;
        let r = bind_service(
            sqlx::query(
                "UPDATE services SET name = $3, name_key = $4, purpose = $5, vendor_id = $6, integrator_id = $7,
                        model_provider_id = $8, inference_host_id = $9, model = $10, engine = $11, deployment = $12,
                        owner_id = $13, status = $14, dpa_signed_on = $15, dpa_url = $16, notice_hours = $17,
                        notice_channel = $18, authority_notifier = $19, updated_at = $20, engine_kind = $21,
                        engine_version = $22, engine_source = $23, engine_parsed = true, hits_stale = true
                 WHERE org_id = $1 AND id = $2",
            ),
            t.org_id(),
            id,
            d,
            now,
        )
        .execute(&mut *tx)
        .await
        .map_err(name_taken)?;
        if r.rows_affected() != 1 {
            return Err(StoreError::NotFound);
        }
        sqlx::query(&format!("UPDATE follow_ups SET {SERVICE_KEY} WHERE org_id = $1 AND service_id = $2"))
            .bind(t.org_id().0)
            .bind(id.0)
            .execute(&mut *tx)
            .await?;
        write_service_data_classes(&mut tx, t.org_id(), id, d).await?;
        insert_audit(&mut tx, t.org_id(), Some(t.user_id()), &event, now).await?;
        tx.commit().await?;
        Ok(())
    }

    async fn set_service_archived(&self, t: &Tenant, id: ServiceId, archived: bool, event: AuditEvent, now: DateTime<Utc>) -> Result<()> {
        let mut tx = self.write(Scope::Tenant(t)).await?;
        if set_archived(&mut tx, "services", t.org_id(), id.0, archived, now).await? != 1 {
            return Err(StoreError::NotFound);
        }
        mark_hits_stale(&mut tx, t.org_id(), id).await?;
        insert_audit(&mut tx, t.org_id(), Some(t.user_id()), &event, now).await?;
        tx.commit().await?;
        Ok(())
    }

    async fn delete_service(&self, t: &Tenant, id: ServiceId, event: AuditEvent, now: DateTime<Utc>) -> Result<()> {
        let mut tx = self.write(Scope::Tenant(t)).await?;
        let r = sqlx::query("DELETE FROM services WHERE org_id = $1 AND id = $2")
            .bind(t.org_id().0)
            .bind(id.0)
            .execute(&mut *tx)
            .await?;
        if r.rows_affected() != 1 {
            return Err(StoreError::NotFound);
        }
        insert_audit(&mut tx, t.org_id(), Some(t.user_id()), &event, now).await?;
        tx.commit().await?;
        Ok(())
    }

    async fn save_finding(&self, t: &Tenant, service: ServiceId, d: &FindingDraft, event: AuditEvent, now: DateTime<Utc>) -> Result<()> {
        let mut tx = self.write(Scope::Tenant(t)).await?;
        let r = sqlx::query("UPDATE services SET updated_at = $3 WHERE org_id = $1 AND id = $2")
            .bind(t.org_id().0)
            .bind(service.0)
            .bind(Ts::from(now))
            .execute(&mut *tx)
            .await?;
        if r.rows_affected() != 1 {
            return Err(StoreError::NotFound);
        }
        sqlx::query(
            "INSERT INTO findings (id, org_id, service_id, topic, status, summary, source_url, checked_on, updated_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
             ON CONFLICT (org_id, service_id, topic) DO UPDATE SET status = excluded.status,
                 summary = excluded.summary, source_url = excluded.source_url, checked_on = excluded.checked_on,
                 updated_at = excluded.updated_at",
        )
        .bind(Uuid::new_v4())
        .bind(t.org_id().0)
        .bind(service.0)
        .bind(d.topic.as_str())
        .bind(d.status.as_str())
        .bind(d.summary.as_deref())
        .bind(url(&d.source_url))
        .bind(d.checked_on)
        .bind(Ts::from(now))
        .execute(&mut *tx)
        .await?;
        sqlx::query(&format!("UPDATE services SET {KNOWN_FINDINGS} WHERE org_id = $1 AND id = $2"))
        .bind(t.org_id().0)
        .bind(service.0)
        .execute(&mut *tx)
        .await?;
        insert_audit(&mut tx, t.org_id(), Some(t.user_id()), &event, now).await?;
        tx.commit().await?;
        Ok(())
    }

    async fn inventory_counts(&self, t: &Tenant) -> Result<InventoryCounts> {
        let mut tx = self.read(Scope::Tenant(t)).await?;
        let n = inventory_counts_in(&mut tx, t.org_id()).await?;
        tx.commit().await?;
        Ok(n)
    }

    async fn dashboard(&self, t: &Tenant, today: NaiveDate) -> Result<Dashboard> {
        let org = t.org_id();
        let changes_sql = format!("SELECT {ORG_CHANGES}");
        if ThisStore::LISTS_AS_JSON {
            // Unchanged since it was last counted for today: the kept one.
            let changes: i64 = sqlx::query_scalar(&changes_sql).bind(org.0).fetch_one(&self.pool).await?;
            if let Some(d) = self.kept.get(org, changes, today) {
                return Ok(d);
            }
            // One statement and one row. SQLite has no row policies to
            // scope a transaction to, and one statement reads one snapshot,
            // with the number of changes it was counted at.
            let (vendors, known, overdue, reviewed, changes, rows, clocks): (i64, i64, i64, bool, i64, String, String) =
                sqlx::query_as(&dashboard_sql(today))
                .bind(org.0)
                .bind(today)
                .fetch_one(&self.pool)
                .await?;
            let rows: Vec<StatusFigures> = JsonRead("the dashboard").parse(&rows)?;
            let clocks = pending_clocks_from_json(&clocks)?;
            let d = dashboard_from((vendors, known, overdue, reviewed), rows, clocks);
            self.kept.keep(org, changes, today, &d);
            return Ok(d);
        }
        // PostgreSQL: the number of changes and, when it is not the kept
        // dashboard's, the one statement, in the tenant's scope (each
        // statement is a round trip, and costs more than these queries).
        let mut tx = self.read(Scope::Tenant(t)).await?;
        let changes: i64 = sqlx::query_scalar(&changes_sql).bind(org.0).fetch_one(&mut *tx).await?;
        if let Some(d) = self.kept.get(org, changes, today) {
            tx.commit().await?;
            return Ok(d);
        }
        let rows: Vec<DashboardRow> = sqlx::query_as(&dashboard_sql(today))
        .bind(org.0)
        .bind(today)
        .fetch_all(&mut *tx)
        .await?;
        tx.commit().await?;
        let first = rows.first().ok_or(StoreError::NotFound)?;
        let totals = (first.vendors, first.known_findings, first.overdue, first.policy_reviewed);
        let changes = first.changes;
        let clocks = pending_clocks_from_json(&first.clocks)?;
        let rows: Vec<StatusFigures> = rows
            .into_iter()
            .filter_map(|r| {
                Some((
                    r.status?,
                    r.services?,
                    r.personal?,
                    r.open_findings?,
                    r.asked_any?,
                    r.awaiting?,
                    r.to_review?,
                    r.conflicts?,
                    r.undecided?,
                    r.affected?,
                    r.exposure_unknown?,
                    r.asked_without?,
                ))
            })
            .collect();
        let d = dashboard_from(totals, rows, clocks);
        self.kept.keep(org, changes, today, &d);
        Ok(d)
    }

    async fn import_services(&self, t: &Tenant, vendors: &[ImportVendor], services: &[ServiceDraft], events: &[AuditEvent], now: DateTime<Utc>) -> Result<Vec<ServiceId>> {
        let mut tx = self.write(Scope::Tenant(t)).await?;
        for v in vendors {
            insert_vendor(&mut tx, t.org_id(), v.id, &v.draft, now).await?;
        }
        let mut ids = Vec::with_capacity(services.len());
        for s in services {
            ids.push(insert_service(&mut tx, t.org_id(), s, now).await?);
        }
        for event in events {
            insert_audit(&mut tx, t.org_id(), Some(t.user_id()), event, now).await?;
        }
        tx.commit().await?;
        Ok(ids)
    }
}

/// The dashboard kept per organisation (see [`crate::kept`]) is right only
/// if every table its statement reads raises the organisation's number of
/// changes on every write.
#[cfg(test)]
mod kept_dashboard {
    use super::*;
    use chrono::TimeZone;
    use std::collections::BTreeSet;

    /// The tables named after `FROM` or `JOIN` in `sql`.
    fn tables_read(sql: &str) -> BTreeSet<String> {
        let words: Vec<&str> = sql.split(|c: char| c.is_whitespace() || "(),".contains(c)).filter(|w| !w.is_empty()).collect();
        words
            .windows(2)
            .filter(|w| w[0].eq_ignore_ascii_case("from") || w[0].eq_ignore_ascii_case("join"))
            .map(|w| w[1].to_owned())
            .filter(|t| !t.eq_ignore_ascii_case("select"))
            .collect()
    }

    #[tokio::test]
    async fn every_table_the_dashboard_reads_raises_the_number_of_changes() {
        let Some(db) = crate::testing::TestDb::new(TEST_BACKEND).await else {
            return;
        };
        let store = open_for_tests(&db).await;
        let today = NaiveDate::from_ymd_opt(2026, 12, 7).unwrap();
        // Besides the number itself.
        let read: BTreeSet<String> = tables_read(&dashboard_sql(today)).into_iter().filter(|t| t != "org_changes").collect();
        let expected = ["services", "follow_ups", "vendors", "findings", "incidents", "orgs"];
        assert_eq!(read, expected.iter().map(|t| t.to_string()).collect::<BTreeSet<_>>(), "the dashboard reads other tables now: give them triggers (migration 0018) and list them here");

        // The triggers that raise the number, by table and event.
        let triggers: Vec<(String, String)> = if ThisStore::LISTS_AS_JSON {
            sqlx::query_as(
                "SELECT tbl_name, upper(substr(name, length(tbl_name) + 10)) FROM sqlite_master
                 WHERE type = 'trigger' AND sql LIKE '%INSERT INTO org_changes%'",
            )
            .fetch_all(&store.pool)
            .await
            .unwrap()
        } else {
            sqlx::query_as(
                "SELECT event_object_table::text, event_manipulation::text FROM information_schema.triggers
                 WHERE action_statement LIKE '%aivet_org_changed%'",
            )
            .fetch_all(&store.pool)
            .await
            .unwrap()
        };
        let triggers: BTreeSet<(String, String)> = triggers.into_iter().collect();
        for table in expected {
            // An organisation's own row is only ever updated while it has a
            // dashboard; its services, follow-ups and the rest come and go.
            let events: &[&str] = if table == "orgs" { &["UPDATE"] } else { &["INSERT", "UPDATE", "DELETE"] };
            for event in events {
                assert!(triggers.contains(&(table.to_owned(), event.to_string())), "no trigger on {event} of {table}: {triggers:?}");
            }
        }

        // And the number rises: a write that changes nothing a person sees
        // still counts as a change, and the dashboard counted after it is
        // kept at the new number.
        let now = Utc.with_ymd_and_hms(2026, 12, 7, 9, 0, 0).unwrap();
        let user = NewUser {
            email: Email::parse("kept@example.com").unwrap(),
            name: aivet_domain::PersonName::parse("Kept").unwrap(),
            password_hash: "x".into(),
            lang: Lang::En,
        };
        let (_, t) = store.sign_up(user, &OrgName::parse("Kept AS").unwrap(), &Slug::from_name("Kept AS"), now).await.unwrap();
        let org = t.org_id();
        // In the organisation's scope: PostgreSQL's row policy shows no
        // other organisation's number (which would read as 0).
        let changes = || async {
            let mut tx = store.read(Scope::Org(org, None)).await.unwrap();
            let n: i64 = sqlx::query_scalar(&format!("SELECT {ORG_CHANGES}")).bind(org.0).fetch_one(&mut *tx).await.unwrap();
            tx.commit().await.unwrap();
            n
        };
        let before = changes().await;
        store.dashboard(&t, today).await.unwrap();
        assert!(store.kept.get(org, before, today).is_some(), "counted and kept");
        let mut tx = store.write(Scope::Org(org, None)).await.unwrap();
        sqlx::query("UPDATE orgs SET name = name WHERE id = $1").bind(org.0).execute(&mut *tx).await.unwrap();
        tx.commit().await.unwrap();
        let after = changes().await;
        assert!(after > before, "{before} → {after}");
        assert!(store.kept.get(org, after, today).is_none());
        store.dashboard(&t, today).await.unwrap();
        assert!(store.kept.get(org, after, today).is_some(), "counted again and kept");
    }
}
