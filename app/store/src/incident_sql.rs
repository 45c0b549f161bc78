// The queries of vendor incidents, shared by SQLite and PostgreSQL like
// `shared.rs` (included after it).

use crate::incident::{
    AlertTarget, EntryRow, IncidentChoices, IncidentDetail, IncidentFilter, IncidentRow, IncidentStore, LinkedService,
    Named, PendingClock, RegisterRow,
};
use aivet_domain::incident::{Art33Draft, Art34Draft, Entry, IncidentDraft, IncidentState, Times};
use aivet_domain::IncidentId;

const INCIDENT_COLUMNS: &str = "SELECT i.id, i.title, i.description, i.source_links, i.exposure_start, i.exposure_end,
        i.vendor_aware_at, i.vendor_fixed_at, i.vendor_notified_at, i.vendor_notified_how, i.disclosed_at, i.we_aware_at,
        i.affected, i.affected_evidence, i.personal_data, i.risk, i.state, i.art33_decision, i.art33_rationale,
        i.art33_notified_at, i.art33_authority, i.art33_reference, i.art33_delay_reason, i.art33_decided_by,
        i.art33_decided_at, i.art34_decision, i.art34_rationale, i.art34_informed_on, i.art34_decided_by,
        i.art34_decided_at, i.created_by, i.created_at, i.updated_at, i.closed_at
     FROM incidents i";

async fn incident_row(tx: &mut Tx, org: OrgId, id: IncidentId) -> Result<IncidentRow> {
    sqlx::query_as::<_, IncidentRow>(&format!("{INCIDENT_COLUMNS} WHERE i.org_id = $1 AND i.id = $2"))
        .bind(org.0)
        .bind(id.0)
        .fetch_optional(&mut **tx)
        .await?
        .ok_or(StoreError::NotFound)
}

async fn insert_entry(tx: &mut Tx, org: OrgId, id: IncidentId, entry: &Entry, actor: &str, now: DateTime<Utc>) -> Result<()> {
    let (kind, detail) = entry.to_stored();
    sqlx::query(
        "INSERT INTO incident_entries (id, org_id, incident_id, seq, kind, detail, actor, at)
         VALUES ($1, $2, $3, (SELECT COALESCE(MAX(seq), 0) + 1 FROM incident_entries WHERE org_id = $2 AND incident_id = $3),
                 $4, $5, $6, $7)",
    )
    .bind(Uuid::new_v4())
    .bind(org.0)
    .bind(id.0)
    .bind(kind)
    .bind(detail)
    .bind(actor)
    .bind(Ts::from(now))
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// Whether every id is one of the organisation's rows in `table`.
async fn all_known(tx: &mut Tx, org: OrgId, table: &str, ids: &[Uuid]) -> Result<bool> {
    for id in ids {
        let (n,): (i64,) = sqlx::query_as(&format!("SELECT COUNT(*) FROM {table} WHERE org_id = $1 AND id = $2"))
            .bind(org.0)
            .bind(*id)
            .fetch_one(&mut **tx)
            .await?;
        if n == 0 {
            return Ok(false);
        }
    }
    Ok(true)
}

async fn check_incident_refs(tx: &mut Tx, org: OrgId, d: &IncidentDraft) -> Result<()> {
    let mut missing = Vec::new();
    if !all_known(tx, org, "vendors", &d.vendors.iter().map(|v| v.0).collect::<Vec<_>>()).await? {
        missing.push("vendors");
    }
    if !all_known(tx, org, "services", &d.services.iter().map(|v| v.0).collect::<Vec<_>>()).await? {
        missing.push("services");
    }
    if !all_known(tx, org, "data_classes", &d.data_classes.iter().map(|v| v.0).collect::<Vec<_>>()).await? {
        missing.push("data_classes");
    }
    if missing.is_empty() {
        Ok(())
    } else {
        Err(StoreError::UnknownRefs(missing))
    }
}

/// The latest link of an open incident that may affect the service, as an
/// assignment for `UPDATE services SET … WHERE …`.
const SUSPENDED_SINCE: &str = "suspended_since = (SELECT MAX(l.linked_at) FROM incident_services l
     JOIN incidents i ON i.org_id = l.org_id AND i.id = l.incident_id
   WHERE l.org_id = services.org_id AND l.service_id = services.id AND i.state = 'open' AND i.affected <> 'no')";

/// Recomputes `suspended_since` of these services (the latest link of an
/// open incident that may affect them: a decision holds only when made
/// after every such incident) and their clearance figures.
async fn refresh_suspension(tx: &mut Tx, org: OrgId, services: &[ServiceId]) -> Result<()> {
    for s in services {
        sqlx::query(&format!("UPDATE services SET {SUSPENDED_SINCE} WHERE org_id = $1 AND id = $2"))
        .bind(org.0)
        .bind(s.0)
        .execute(&mut **tx)
        .await?;
        refresh_clearance(tx, org, Figures::Service(*s)).await?;
    }
    Ok(())
}

async fn linked_services(tx: &mut Tx, org: OrgId, id: IncidentId) -> Result<Vec<LinkedService>> {
    Ok(sqlx::query_as::<_, LinkedService>(
        "SELECT s.id, s.name, s.vendor_id, s.notice_hours, l.linked_at FROM incident_services l
           JOIN services s ON s.org_id = l.org_id AND s.id = l.service_id
         WHERE l.org_id = $1 AND l.incident_id = $2 ORDER BY s.name_key, s.id",
    )
    .bind(org.0)
    .bind(id.0)
    .fetch_all(&mut **tx)
    .await?)
}

async fn named_links(tx: &mut Tx, org: OrgId, id: IncidentId, link: &str, table: &str, column: &str) -> Result<Vec<Named>> {
    Ok(sqlx::query_as::<_, Named>(&format!(
        "SELECT x.id, x.name FROM {link} l JOIN {table} x ON x.org_id = l.org_id AND x.id = l.{column}
         WHERE l.org_id = $1 AND l.incident_id = $2 ORDER BY x.name_key, x.id"
    ))
    .bind(org.0)
    .bind(id.0)
    .fetch_all(&mut **tx)
    .await?)
}

/// Writes the links of an incident to vendors, services and classes.
/// New service links get the timeline entry, the service's timeline entry
/// and its incident follow-up; removed ones are noted too. Returns every
/// service whose suspension may have changed.
async fn write_incident_links(
    tx: &mut Tx,
    org: OrgId,
    id: IncidentId,
    d: &IncidentDraft,
    follow_up_on: NaiveDate,
    actor: &str,
    now: DateTime<Utc>,
) -> Result<Vec<ServiceId>> {
    for (link, column, ids) in [
        ("incident_vendors", "vendor_id", d.vendors.iter().map(|v| v.0).collect::<Vec<_>>()),
        ("incident_data_classes", "data_class_id", d.data_classes.iter().map(|v| v.0).collect()),
    ] {
        sqlx::query(&format!("DELETE FROM {link} WHERE org_id = $1 AND incident_id = $2"))
            .bind(org.0)
            .bind(id.0)
            .execute(&mut **tx)
            .await?;
        for x in ids {
            sqlx::query(&format!("INSERT INTO {link} (org_id, incident_id, {column}) VALUES ($1, $2, $3)"))
                .bind(org.0)
                .bind(id.0)
                .bind(x)
                .execute(&mut **tx)
                .await?;
        }
    }
    let before = linked_services(tx, org, id).await?;
    let mut touched: Vec<ServiceId> = Vec::new();
    for old in &before {
        if !d.services.contains(&old.id) {
            sqlx::query("DELETE FROM incident_services WHERE org_id = $1 AND incident_id = $2 AND service_id = $3")
                .bind(org.0)
                .bind(id.0)
                .bind(old.id.0)
                .execute(&mut **tx)
                .await?;
            insert_entry(tx, org, id, &Entry::ServiceUnlinked { service: old.name.clone() }, actor, now).await?;
            touched.push(old.id);
        }
    }
    for s in &d.services {
        if before.iter().any(|b| b.id == *s) {
            touched.push(*s);
            continue;
        }
        sqlx::query("INSERT INTO incident_services (org_id, incident_id, service_id, linked_at) VALUES ($1, $2, $3, $4)")
            .bind(org.0)
            .bind(id.0)
            .bind(s.0)
            .bind(Ts::from(now))
            .execute(&mut **tx)
            .await?;
        let (name,): (String,) = sqlx::query_as("SELECT name FROM services WHERE org_id = $1 AND id = $2")
            .bind(org.0)
            .bind(s.0)
            .fetch_one(&mut **tx)
            .await?;
        insert_entry(tx, org, id, &Entry::ServiceLinked { service: name }, actor, now).await?;
        insert_event(tx, org, *s, None, &Event::IncidentLinked { title: d.title.clone() }, actor, now).await?;
        open_follow_up(tx, org, *s, None, FollowUpReason::Incident, follow_up_on, now).await?;
        touched.push(*s);
    }
    Ok(touched)
}

async fn schedule_alerts(tx: &mut Tx, org: OrgId, id: IncidentId, aware: DateTime<Utc>, alerts: &[(u8, DateTime<Utc>)], now: DateTime<Utc>) -> Result<()> {
    for (hours, at) in alerts {
        let job = crate::jobs::NewJob {
            job: aivet_domain::jobs::Job::Art33Alert { incident: id, hours: *hours, aware: Ts::from(aware).0 },
            org_id: Some(org),
            run_at: *at,
        };
        insert_job(tx, &job, now).await?;
    }
    Ok(())
}

/// Binds $1 id, $2 organisation and $3..$17 the recorded facts, in the
/// order both the insert and the update of an incident name them.
fn bind_facts<'q>(
    q: sqlx::query::Query<'q, Db, <Db as sqlx::Database>::Arguments<'q>>,
    id: IncidentId,
    org: OrgId,
    d: &'q IncidentDraft,
) -> sqlx::query::Query<'q, Db, <Db as sqlx::Database>::Arguments<'q>> {
    let tm = d.times;
    q.bind(id.0)
        .bind(org.0)
        .bind(&d.title)
        .bind(d.description.as_deref())
        .bind(links_json(d))
        .bind(tm.exposure_start.map(Ts::from))
        .bind(tm.exposure_end.map(Ts::from))
        .bind(tm.vendor_aware_at.map(Ts::from))
        .bind(tm.vendor_fixed_at.map(Ts::from))
        .bind(tm.vendor_notified_at.map(Ts::from))
        .bind(d.vendor_notified_how.as_deref())
        .bind(tm.disclosed_at.map(Ts::from))
        .bind(Ts::from(d.we_aware_at))
        .bind(d.affected.as_str())
        .bind(d.affected_evidence.as_deref())
        .bind(d.personal_data)
        .bind(d.risk.as_str())
}

fn links_json(d: &IncidentDraft) -> String {
    serde_json::to_string(&d.source_links.iter().map(|u| u.as_str()).collect::<Vec<_>>()).unwrap_or_else(|_| "[]".into())
}

/// The incident's facts as its form shows them.
fn draft_of(r: &IncidentRow, vendors: Vec<VendorId>, services: Vec<ServiceId>, classes: Vec<DataClassId>) -> IncidentDraft {
    IncidentDraft {
        title: r.title.clone(),
        description: r.description.clone(),
        source_links: r.source_links().iter().filter_map(|l| aivet_domain::inventory::WebUrl::parse(l).ok().flatten()).collect(),
        vendors,
        services,
        data_classes: classes,
        times: Times {
            exposure_start: r.exposure_start,
            exposure_end: r.exposure_end,
            vendor_aware_at: r.vendor_aware_at,
            vendor_fixed_at: r.vendor_fixed_at,
            vendor_notified_at: r.vendor_notified_at,
            disclosed_at: r.disclosed_at,
        },
        vendor_notified_how: r.vendor_notified_how.clone(),
        we_aware_at: r.we_aware_at,
        affected: r.affected,
        affected_evidence: r.affected_evidence.clone(),
        personal_data: r.personal_data,
        risk: r.risk,
    }
}

async fn current_draft(tx: &mut Tx, org: OrgId, id: IncidentId) -> Result<(IncidentRow, IncidentDraft)> {
    let row = incident_row(tx, org, id).await?;
    let ids = |rows: Vec<Named>| -> Vec<Uuid> {
        let mut v: Vec<Uuid> = rows.into_iter().map(|n| n.id).collect();
        v.sort();
        v
    };
    let vendors = ids(named_links(tx, org, id, "incident_vendors", "vendors", "vendor_id").await?);
    let classes = ids(named_links(tx, org, id, "incident_data_classes", "data_classes", "data_class_id").await?);
    let mut services: Vec<ServiceId> = linked_services(tx, org, id).await?.into_iter().map(|s| s.id).collect();
    services.sort();
    let draft = draft_of(
        &row,
        vendors.into_iter().map(VendorId).collect(),
        services,
        classes.into_iter().map(DataClassId).collect(),
    );
    Ok((row, draft))
}

/// The incidents `i` of the organisation `$1` whose 72-hour clock runs
/// (or ran out) without a decision, and their order: soonest deadline
/// first.
const PENDING_CLOCKS: &str = "i.org_id = $1 AND i.state = 'open' AND i.personal_data AND i.art33_decision IS NULL";
const PENDING_CLOCKS_ORDER: &str = "i.we_aware_at, i.id";

/// The incidents whose 72-hour clock runs (or ran out) without a
/// decision, inside `tx`.
async fn pending_clocks_in(tx: &mut Tx, org: OrgId) -> Result<Vec<IncidentRow>> {
    let rows = sqlx::query_as::<_, IncidentRow>(&format!(
        "{INCIDENT_COLUMNS} WHERE {PENDING_CLOCKS} ORDER BY {PENDING_CLOCKS_ORDER}"
    ))
    .bind(org.0)
    .fetch_all(&mut **tx)
    .await?;
    Ok(rows)
}

async fn service_incidents_in(tx: &mut Tx, org: OrgId, service: ServiceId) -> Result<Vec<(IncidentId, String)>> {
    let rows: Vec<(Uuid, String)> = sqlx::query_as(
        "SELECT i.id, i.title FROM incident_services l JOIN incidents i ON i.org_id = l.org_id AND i.id = l.incident_id
         WHERE l.org_id = $1 AND l.service_id = $2 AND i.state = 'open' AND i.affected <> 'no'
         ORDER BY i.we_aware_at, i.id",
    )
    .bind(org.0)
    .bind(service.0)
    .fetch_all(&mut **tx)
    .await?;
    Ok(rows.into_iter().map(|(id, title)| (IncidentId(id), title)).collect())
}

#[async_trait::async_trait]
#[allow(clippy::too_many_arguments)]
impl IncidentStore for ThisStore {
    async fn record_incident(
        &self,
        t: &Tenant,
        d: &IncidentDraft,
        alerts: &[(u8, DateTime<Utc>)],
        follow_up_on: NaiveDate,
        mut event: AuditEvent,
        now: DateTime<Utc>,
    ) -> Result<IncidentId> {
        let org = t.org_id();
        let mut tx = self.write(Scope::Tenant(t)).await?;
        check_incident_refs(&mut tx, org, d).await?;
        let actor = user_name(&mut tx, t.user_id()).await?;
        let id = IncidentId(Uuid::new_v4());
        let q = sqlx::query(
            "INSERT INTO incidents (id, org_id, title, description, source_links, exposure_start, exposure_end,
                 vendor_aware_at, vendor_fixed_at, vendor_notified_at, vendor_notified_how, disclosed_at, we_aware_at,
                 affected, affected_evidence, personal_data, risk, state, created_by, created_at, updated_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, 'open', $18, $19, $19)",
        );
        bind_facts(q, id, org, d)
        .bind(&actor)
        .bind(Ts::from(now))
        .execute(&mut *tx)
        .await?;
        insert_entry(&mut tx, org, id, &Entry::Recorded { title: d.title.clone() }, &actor, now).await?;
        let touched = write_incident_links(&mut tx, org, id, d, follow_up_on, &actor, now).await?;
        refresh_suspension(&mut tx, org, &touched).await?;
        if d.personal_data {
            schedule_alerts(&mut tx, org, id, d.we_aware_at, alerts, now).await?;
        }
        if let AuditEvent::IncidentRecorded { incident, .. } = &mut event {
            *incident = id;
        }
        insert_audit(&mut tx, org, Some(t.user_id()), &event, now).await?;
        tx.commit().await?;
        Ok(id)
    }

    async fn update_incident(
        &self,
        t: &Tenant,
        id: IncidentId,
        d: &IncidentDraft,
        alerts: &[(u8, DateTime<Utc>)],
        follow_up_on: NaiveDate,
        now: DateTime<Utc>,
    ) -> Result<()> {
        let org = t.org_id();
        let mut tx = self.write(Scope::Tenant(t)).await?;
        let (row, old) = current_draft(&mut tx, org, id).await?;
        check_incident_refs(&mut tx, org, d).await?;
        let actor = user_name(&mut tx, t.user_id()).await?;
        let mut fields = aivet_domain::incident::changed_fields(&old, d);
        if fields.is_empty() {
            return Ok(());
        }
        let q = sqlx::query(
            "UPDATE incidents SET title = $3, description = $4, source_links = $5, exposure_start = $6, exposure_end = $7,
                 vendor_aware_at = $8, vendor_fixed_at = $9, vendor_notified_at = $10, vendor_notified_how = $11,
                 disclosed_at = $12, we_aware_at = $13, affected = $14, affected_evidence = $15, personal_data = $16,
                 risk = $17, updated_at = $18
             WHERE id = $1 AND org_id = $2",
        );
        bind_facts(q, id, org, d)
        .bind(Ts::from(now))
        .execute(&mut *tx)
        .await?;
        let moved = old.we_aware_at != d.we_aware_at;
        if moved {
            fields.retain(|f| f != "we_aware_at");
            insert_entry(&mut tx, org, id, &Entry::AwareMoved { from: old.we_aware_at, to: d.we_aware_at }, &actor, now).await?;
            let event = AuditEvent::IncidentAwareMoved { incident: id, title: d.title.clone(), from: old.we_aware_at, to: d.we_aware_at };
            insert_audit(&mut tx, org, Some(t.user_id()), &event, now).await?;
        }
        fields.retain(|f| f != "services");
        if !fields.is_empty() {
            insert_entry(&mut tx, org, id, &Entry::Changed { fields: fields.clone() }, &actor, now).await?;
            let event = AuditEvent::IncidentUpdated { incident: id, title: d.title.clone(), fields };
            insert_audit(&mut tx, org, Some(t.user_id()), &event, now).await?;
        }
        let touched = write_incident_links(&mut tx, org, id, d, follow_up_on, &actor, now).await?;
        let mut all: Vec<ServiceId> = touched;
        for s in &old.services {
            if !all.contains(s) {
                all.push(*s);
            }
        }
        refresh_suspension(&mut tx, org, &all).await?;
        // Alerts follow the (perhaps moved) awareness; stale ones find
        // their awareness gone and do nothing.
        if d.personal_data && row.state == IncidentState::Open && row.art33_decision.is_none() {
            schedule_alerts(&mut tx, org, id, d.we_aware_at, alerts, now).await?;
        }
        tx.commit().await?;
        Ok(())
    }

    async fn incident(&self, t: &Tenant, id: IncidentId) -> Result<IncidentDetail> {
        let org = t.org_id();
        let mut tx = self.read(Scope::Tenant(t)).await?;
        let incident = incident_row(&mut tx, org, id).await?;
        let vendors = named_links(&mut tx, org, id, "incident_vendors", "vendors", "vendor_id").await?;
        let data_classes = named_links(&mut tx, org, id, "incident_data_classes", "data_classes", "data_class_id").await?;
        let services = linked_services(&mut tx, org, id).await?;
        let entries = sqlx::query_as::<_, (String, String, String, Ts)>(
            "SELECT kind, detail, actor, at FROM incident_entries WHERE org_id = $1 AND incident_id = $2 ORDER BY seq, id",
        )
        .bind(org.0)
        .bind(id.0)
        .fetch_all(&mut *tx)
        .await?
        .into_iter()
        .map(|(kind, detail, actor, at)| EntryRow { entry: Entry::from_stored(&kind, &detail), actor, at: at.0 })
        .collect();
        tx.commit().await?;
        Ok(IncidentDetail { incident, vendors, services, data_classes, entries })
    }

    async fn incident_draft(&self, t: &Tenant, id: IncidentId) -> Result<(IncidentRow, IncidentDraft)> {
        let mut tx = self.read(Scope::Tenant(t)).await?;
        let out = current_draft(&mut tx, t.org_id(), id).await?;
        tx.commit().await?;
        Ok(out)
    }

    async fn incident_choices(&self, t: &Tenant) -> Result<IncidentChoices> {
        let org = t.org_id();
        let mut tx = self.read(Scope::Tenant(t)).await?;
        let vendors = sqlx::query_as::<_, Named>(
            "SELECT id, name FROM vendors WHERE org_id = $1 AND archived_at IS NULL ORDER BY name_key, id",
        )
        .bind(org.0)
        .fetch_all(&mut *tx)
        .await?;
        let services = sqlx::query_as::<_, (Uuid, String, Uuid)>(
            "SELECT id, name, vendor_id FROM services WHERE org_id = $1 AND archived_at IS NULL ORDER BY name_key, id",
        )
        .bind(org.0)
        .fetch_all(&mut *tx)
        .await?
        .into_iter()
        .map(|(id, name, v)| (Named { id, name }, VendorId(v)))
        .collect();
        let data_classes = sqlx::query_as::<_, Named>(
            "SELECT id, name FROM data_classes WHERE org_id = $1 AND archived_at IS NULL ORDER BY position, name_key",
        )
        .bind(org.0)
        .fetch_all(&mut *tx)
        .await?;
        let receives = sqlx::query_as::<_, (Uuid, Uuid)>("SELECT service_id, data_class_id FROM service_data_classes WHERE org_id = $1")
            .bind(org.0)
            .fetch_all(&mut *tx)
            .await?
            .into_iter()
            .map(|(s, c)| (ServiceId(s), DataClassId(c)))
            .collect();
        tx.commit().await?;
        Ok(IncidentChoices { vendors, services, data_classes, receives })
    }

    async fn incident_register(&self, t: &Tenant, f: &IncidentFilter) -> Result<Vec<RegisterRow>> {
        let org = t.org_id();
        let mut tx = self.read(Scope::Tenant(t)).await?;
        let (from, to) = match f.year {
            Some((a, b)) => (Some(Ts::from(a)), Some(Ts::from(b))),
            None => (None, None),
        };
        let rows = sqlx::query_as::<_, IncidentRow>(&format!(
            "{INCIDENT_COLUMNS} WHERE i.org_id = $1 AND ($2 IS NULL OR i.state = $2)
               AND ($3 IS NULL OR i.id IN (SELECT v.incident_id FROM incident_vendors v WHERE v.org_id = $1 AND v.vendor_id = $3)
                    OR i.id IN (SELECT l.incident_id FROM incident_services l JOIN services s ON s.org_id = l.org_id AND s.id = l.service_id
                                WHERE l.org_id = $1 AND s.vendor_id = $3))
               AND ($4 IS NULL OR i.we_aware_at >= $4) AND ($5 IS NULL OR i.we_aware_at < $5)
             ORDER BY i.we_aware_at DESC, i.id"
        ))
        .bind(org.0)
        .bind(f.state.map(|s| s.as_str()))
        .bind(f.vendor.map(|v| v.0))
        .bind(from)
        .bind(to)
        .fetch_all(&mut *tx)
        .await?;
        let vendor_names = sqlx::query_as::<_, (Uuid, String)>(
            "SELECT l.incident_id, x.name FROM incident_vendors l JOIN vendors x ON x.org_id = l.org_id AND x.id = l.vendor_id
             WHERE l.org_id = $1 ORDER BY x.name_key",
        )
        .bind(org.0)
        .fetch_all(&mut *tx)
        .await?;
        let service_names = sqlx::query_as::<_, (Uuid, String)>(
            "SELECT l.incident_id, s.name FROM incident_services l JOIN services s ON s.org_id = l.org_id AND s.id = l.service_id
             WHERE l.org_id = $1 ORDER BY s.name_key",
        )
        .bind(org.0)
        .fetch_all(&mut *tx)
        .await?;
        tx.commit().await?;
        let names = |all: &[(Uuid, String)], id: IncidentId| -> Vec<String> {
            all.iter().filter(|(i, _)| *i == id.0).map(|(_, n)| n.clone()).collect()
        };
        Ok(rows
            .into_iter()
            .map(|incident| RegisterRow {
                vendors: names(&vendor_names, incident.id),
                services: names(&service_names, incident.id),
                incident,
            })
            .collect())
    }

    async fn pending_clocks(&self, t: &Tenant) -> Result<Vec<IncidentRow>> {
        let mut tx = self.read(Scope::Tenant(t)).await?;
        let rows = pending_clocks_in(&mut tx, t.org_id()).await?;
        tx.commit().await?;
        Ok(rows)
    }

    async fn decide_art33(&self, t: &Tenant, id: IncidentId, d: &Art33Draft, late: bool, now: DateTime<Utc>) -> Result<()> {
        let org = t.org_id();
        let mut tx = self.write(Scope::Tenant(t)).await?;
        let row = incident_row(&mut tx, org, id).await?;
        let actor = user_name(&mut tx, t.user_id()).await?;
        sqlx::query(
            "UPDATE incidents SET art33_decision = $3, art33_rationale = $4, art33_notified_at = $5, art33_authority = $6,
                 art33_reference = $7, art33_delay_reason = $8, art33_decided_by = $9, art33_decided_at = $10, updated_at = $10
             WHERE org_id = $1 AND id = $2",
        )
        .bind(org.0)
        .bind(id.0)
        .bind(d.decision.as_str())
        .bind(&d.rationale)
        .bind(d.notified_at.map(Ts::from))
        .bind(d.authority.as_deref())
        .bind(d.reference.as_deref())
        .bind(d.delay_reason.as_deref())
        .bind(&actor)
        .bind(Ts::from(now))
        .execute(&mut *tx)
        .await?;
        let entry = Entry::Art33Decided { decision: d.decision, notified_at: d.notified_at, late };
        insert_entry(&mut tx, org, id, &entry, &actor, now).await?;
        let event = AuditEvent::Art33Decided { incident: id, title: row.title, decision: d.decision };
        insert_audit(&mut tx, org, Some(t.user_id()), &event, now).await?;
        tx.commit().await?;
        Ok(())
    }

    async fn decide_art34(&self, t: &Tenant, id: IncidentId, d: &Art34Draft, now: DateTime<Utc>) -> Result<()> {
        let org = t.org_id();
        let mut tx = self.write(Scope::Tenant(t)).await?;
        let row = incident_row(&mut tx, org, id).await?;
        let actor = user_name(&mut tx, t.user_id()).await?;
        sqlx::query(
            "UPDATE incidents SET art34_decision = $3, art34_rationale = $4, art34_informed_on = $5, art34_decided_by = $6,
                 art34_decided_at = $7, updated_at = $7
             WHERE org_id = $1 AND id = $2",
        )
        .bind(org.0)
        .bind(id.0)
        .bind(d.decision.as_str())
        .bind(&d.rationale)
        .bind(d.informed_on)
        .bind(&actor)
        .bind(Ts::from(now))
        .execute(&mut *tx)
        .await?;
        insert_entry(&mut tx, org, id, &Entry::Art34Decided { decision: d.decision, informed_on: d.informed_on }, &actor, now).await?;
        let event = AuditEvent::Art34Decided { incident: id, title: row.title, decision: d.decision };
        insert_audit(&mut tx, org, Some(t.user_id()), &event, now).await?;
        tx.commit().await?;
        Ok(())
    }

    async fn add_incident_note(&self, t: &Tenant, id: IncidentId, text: &str, now: DateTime<Utc>) -> Result<()> {
        let org = t.org_id();
        let mut tx = self.write(Scope::Tenant(t)).await?;
        incident_row(&mut tx, org, id).await?;
        let actor = user_name(&mut tx, t.user_id()).await?;
        insert_entry(&mut tx, org, id, &Entry::Note { text: text.to_owned() }, &actor, now).await?;
        tx.commit().await?;
        Ok(())
    }

    async fn set_incident_state(
        &self,
        t: &Tenant,
        id: IncidentId,
        state: IncidentState,
        alerts: &[(u8, DateTime<Utc>)],
        now: DateTime<Utc>,
    ) -> Result<()> {
        let org = t.org_id();
        let mut tx = self.write(Scope::Tenant(t)).await?;
        let row = incident_row(&mut tx, org, id).await?;
        if row.state == state {
            return Ok(());
        }
        let actor = user_name(&mut tx, t.user_id()).await?;
        let closed_at = (state == IncidentState::Closed).then(|| Ts::from(now));
        sqlx::query("UPDATE incidents SET state = $3, closed_at = $4, updated_at = $5 WHERE org_id = $1 AND id = $2")
            .bind(org.0)
            .bind(id.0)
            .bind(state.as_str())
            .bind(closed_at)
            .bind(Ts::from(now))
            .execute(&mut *tx)
            .await?;
        let services: Vec<ServiceId> = linked_services(&mut tx, org, id).await?.into_iter().map(|s| s.id).collect();
        refresh_suspension(&mut tx, org, &services).await?;
        let (entry, event) = match state {
            IncidentState::Closed => {
                for s in &services {
                    close_follow_ups(&mut tx, org, Of::Service(*s), FollowUpReason::Incident, FollowUpStatus::Done, &actor, now).await?;
                }
                (Entry::Closed, AuditEvent::IncidentClosed { incident: id, title: row.title.clone() })
            }
            IncidentState::Open => {
                if row.personal_data && row.art33_decision.is_none() {
                    schedule_alerts(&mut tx, org, id, row.we_aware_at, alerts, now).await?;
                }
                (Entry::Reopened, AuditEvent::IncidentReopened { incident: id, title: row.title.clone() })
            }
        };
        insert_entry(&mut tx, org, id, &entry, &actor, now).await?;
        insert_audit(&mut tx, org, Some(t.user_id()), &event, now).await?;
        tx.commit().await?;
        Ok(())
    }

    async fn service_incidents(&self, t: &Tenant, service: ServiceId) -> Result<Vec<(IncidentId, String)>> {
        let mut tx = self.read(Scope::Tenant(t)).await?;
        let r = service_incidents_in(&mut tx, t.org_id(), service).await?;
        tx.commit().await?;
        Ok(r)
    }

    async fn alert_target(&self, org: OrgId, id: IncidentId) -> Result<Option<AlertTarget>> {
        let mut tx = self.read(Scope::Org(org, None)).await?;
        let incident = match incident_row(&mut tx, org, id).await {
            Ok(r) => r,
            Err(StoreError::NotFound) => return Ok(None),
            Err(e) => return Err(e),
        };
        let (org_name, zone): (String, String) =
            sqlx::query_as("SELECT name, time_zone FROM orgs WHERE id = $1").bind(org.0).fetch_one(&mut *tx).await?;
        let zone = aivet_domain::Zone::try_from(zone).map_err(StoreError::Config)?;
        let owners: Vec<(String, String, String)> = sqlx::query_as(
            "SELECT u.email, u.name, u.lang FROM memberships m JOIN users u ON u.id = m.user_id
             WHERE m.org_id = $1 AND m.role = 'owner' ORDER BY u.email",
        )
        .bind(org.0)
        .fetch_all(&mut *tx)
        .await?;
        let owners = owners
            .into_iter()
            .map(|(email, name, lang)| Ok(crate::questions::Person { email, name, lang: Lang::try_from(lang).map_err(StoreError::Config)? }))
            .collect::<Result<Vec<_>>>()?;
        tx.commit().await?;
        Ok(Some(AlertTarget { incident, org_name, zone, owners }))
    }

    async fn finish_alert(
        &self,
        lease: &crate::jobs::JobLease,
        org: OrgId,
        id: IncidentId,
        hours: u8,
        mails: &[crate::NewMail],
        now: DateTime<Utc>,
    ) -> Result<bool> {
        let mut tx = self.write(Scope::Org(org, None)).await?;
        for mail in mails {
            insert_mail(&mut tx, mail).await?;
        }
        if !mails.is_empty() {
            insert_entry(&mut tx, org, id, &Entry::AlertSent { hours, to: mails.len() }, "aivet", now).await?;
        }
        if !finish_job_in(&mut tx, lease, now).await? {
            return Ok(false);
        }
        tx.commit().await?;
        Ok(true)
    }
}
