// The queries of data clearance, shared by SQLite and PostgreSQL like
// `shared.rs` (included after it).

use crate::clearance::{
    CitableAnswer, CitableFinding, ClearanceCounts, ClearanceOverview, ClearancePolicy, ClearanceRow, ClearanceService,
    ClearanceStore, PolicyClass, ServiceClearance,
};
use aivet_domain::clearance::{evidence_to_json, Cite, ClearanceDraft};

const CLEARANCE_COLUMNS: &str =
    "SELECT k.service_id, k.data_class_id, k.clearance, k.condition, k.expires_on, k.evidence, k.decided_by, k.decided_at
     FROM clearances k";

const POLICY_CLASS_COLUMNS: &str = "SELECT c.id, c.name, c.personal, c.needs_clearance, c.archived_at FROM data_classes c";

const CLEARANCE_SERVICE_COLUMNS: &str =
    "SELECT s.id, s.name, s.purpose, s.status, s.assessment, s.archived_at, s.suspended_since FROM services s";

/// What the figures of a service need, without joins: received classes
/// that may not go in whatever the day (`clearance_gap`), protected ones
/// nobody decided (`clearance_open`), and the earliest last day of a
/// received class's decision (`clearance_until`). The SQL form of
/// `aivet_domain::clearance::verdict` for many services at once
/// (a decision made before an open incident was linked is suspended:
/// `suspended_since`, kept by `refresh_suspension`); the store
/// stories compare it with the rule on every combination. Refreshed by
/// [`refresh_clearance`] on every change it depends on.
const CLEARANCE_FIGURES: &str = "clearance_gap = (SELECT COUNT(*) FROM service_data_classes d
        JOIN data_classes c ON c.org_id = d.org_id AND c.id = d.data_class_id
        LEFT JOIN clearances k ON k.org_id = d.org_id AND k.service_id = d.service_id AND k.data_class_id = d.data_class_id
      WHERE d.org_id = services.org_id AND d.service_id = services.id
        AND (k.clearance = 'not_allowed'
             OR (c.needs_clearance AND (k.clearance IS NULL OR services.assessment NOT IN ('cleared', 'cleared_with_conditions')
                 OR k.decided_at <= services.suspended_since)))),
    clearance_open = (SELECT COUNT(*) FROM service_data_classes d
        JOIN data_classes c ON c.org_id = d.org_id AND c.id = d.data_class_id
        LEFT JOIN clearances k ON k.org_id = d.org_id AND k.service_id = d.service_id AND k.data_class_id = d.data_class_id
      WHERE d.org_id = services.org_id AND d.service_id = services.id AND c.needs_clearance AND k.clearance IS NULL),
    clearance_until = (SELECT MIN(k.expires_on) FROM clearances k
        JOIN service_data_classes d ON d.org_id = k.org_id AND d.service_id = k.service_id AND d.data_class_id = k.data_class_id
      WHERE k.org_id = services.org_id AND k.service_id = services.id)";

/// Which services' clearance figures a change touches.
#[derive(Clone, Copy)]
enum Figures {
    Service(ServiceId),
    /// Those receiving a data class whose policy changed.
    Receiving(DataClassId),
}

async fn refresh_clearance(tx: &mut Tx, org: OrgId, which: Figures) -> Result<()> {
    let (filter, id) = match which {
        Figures::Service(s) => ("id = $2", s.0),
        Figures::Receiving(c) => (
            "id IN (SELECT d.service_id FROM service_data_classes d WHERE d.org_id = $1 AND d.data_class_id = $2)",
            c.0,
        ),
    };
    sqlx::query(&format!("UPDATE services SET {CLEARANCE_FIGURES} WHERE org_id = $1 AND {filter}"))
        .bind(org.0)
        .bind(id)
        .execute(&mut **tx)
        .await?;
    Ok(())
}

/// Services (`services s`) in use or on trial, not archived, that receive
/// a class they may not on `today`. The date is formatted from a
/// `NaiveDate`, so the literal can only ever be `'YYYY-MM-DD'`.
fn conflict_exists(today: NaiveDate) -> String {
    format!(
        "(s.archived_at IS NULL AND s.status <> 'retired' AND (s.clearance_gap > 0 OR s.clearance_until < '{}'))",
        today.format("%Y-%m-%d")
    )
}

async fn clearance_service(tx: &mut Tx, org: OrgId, service: ServiceId) -> Result<ClearanceService> {
    sqlx::query_as::<_, ClearanceService>(&format!("{CLEARANCE_SERVICE_COLUMNS} WHERE s.org_id = $1 AND s.id = $2"))
        .bind(org.0)
        .bind(service.0)
        .fetch_optional(&mut **tx)
        .await?
        .ok_or(StoreError::NotFound)
}

async fn policy_classes(tx: &mut Tx, org: OrgId) -> Result<Vec<PolicyClass>> {
    Ok(sqlx::query_as::<_, PolicyClass>(&format!(
        "{POLICY_CLASS_COLUMNS} WHERE c.org_id = $1 ORDER BY c.position, c.name_key"
    ))
    .bind(org.0)
    .fetch_all(&mut **tx)
    .await?)
}

/// Opens (or moves, or closes) the service's "decision expires" follow-up:
/// due some days before the earliest last day of its decisions.
async fn expiry_follow_up(tx: &mut Tx, org: OrgId, service: ServiceId, now: DateTime<Utc>) -> Result<()> {
    let (earliest,): (Option<NaiveDate>,) =
        sqlx::query_as("SELECT MIN(expires_on) FROM clearances WHERE org_id = $1 AND service_id = $2")
            .bind(org.0)
            .bind(service.0)
            .fetch_one(&mut **tx)
            .await?;
    match earliest {
        Some(last_day) => {
            let policy = policy_in(tx, org).await?;
            let due = aivet_domain::follow_ups::expiry_follow_up_due(last_day, &policy);
            open_follow_up(tx, org, service, None, FollowUpReason::DecisionExpiry, due, now).await
        }
        None => close_follow_ups(tx, org, Of::Service(service), FollowUpReason::DecisionExpiry, FollowUpStatus::Cancelled, "", now)
            .await
            .map(|_| ()),
    }
}

/// Whether every cited finding and answer is the service's.
async fn cites_are_the_services(tx: &mut Tx, org: OrgId, service: ServiceId, cites: &[Cite]) -> Result<bool> {
    for cite in cites {
        let (n,): (i64,) = match cite {
            Cite::Finding(topic) => {
                sqlx::query_as("SELECT COUNT(*) FROM findings WHERE org_id = $1 AND service_id = $2 AND topic = $3")
                    .bind(org.0)
                    .bind(service.0)
                    .bind(topic.as_str())
                    .fetch_one(&mut **tx)
                    .await?
            }
            Cite::Answer { request, position } => {
                sqlx::query_as(
                    "SELECT COUNT(*) FROM question_items i
                       JOIN question_requests r ON r.org_id = i.org_id AND r.id = i.request_id
                     WHERE i.org_id = $1 AND r.service_id = $2 AND i.request_id = $3 AND i.position = $4",
                )
                .bind(org.0)
                .bind(service.0)
                .bind(request.0)
                .bind(*position)
                .fetch_one(&mut **tx)
                .await?
            }
        };
        if n == 0 {
            return Ok(false);
        }
    }
    Ok(true)
}

/// Whether a service `s` is in conflict on `today`: a class it receives
/// without the clearance it needs, or a decision that has expired.
fn clearance_conflict_sql(today: NaiveDate) -> String {
    format!("s.clearance_gap > 0 OR s.clearance_until < '{}'", today.format("%Y-%m-%d"))
}

/// The clearance counts as one row (`$1` the organisation): one pass over
/// the active services (an index covers it).
fn clearance_counts_sql(today: NaiveDate) -> String {
    format!(
        "SELECT COALESCE(SUM(CASE WHEN {} THEN 1 ELSE 0 END), 0) AS conflicts,
                COALESCE(SUM(s.clearance_open), 0) AS undecided,
                (SELECT policy_reviewed_at IS NOT NULL FROM orgs WHERE id = $1) AS policy_reviewed
         FROM services s WHERE s.org_id = $1 AND s.archived_at IS NULL AND s.status <> 'retired'",
        clearance_conflict_sql(today)
    )
}

/// The dashboard's figures of clearance, inside `tx`.
async fn clearance_counts_in(tx: &mut Tx, org: OrgId, today: NaiveDate) -> Result<ClearanceCounts> {
    let (conflicts, undecided, reviewed): (i64, i64, bool) =
        sqlx::query_as(&clearance_counts_sql(today)).bind(org.0).fetch_one(&mut **tx).await?;
    Ok(ClearanceCounts { conflicts, undecided, policy_reviewed: reviewed })
}

/// "Which data where" in one statement and one row (SQLite, see
/// [`ThisStore::LISTS_AS_JSON`]; no row policies to scope, one snapshot):
/// the services in use, the classes, which service receives which class
/// and the decisions, each list as JSON. On the bench's 500 services × 10
/// classes these are about 2,760 rows, each of which would otherwise
/// cross from the connection's thread on its own.
async fn clearance_overview_in_one_statement(pool: &sqlx::Pool<Db>, org: OrgId) -> Result<ClearanceOverview> {
    type ServiceJson = (String, String, Option<String>, String, String, Option<String>, Option<String>);
    type ClassJson = (String, String, bool, bool, Option<String>);
    type DecisionJson = (String, String, String, Option<String>, Option<String>, String, String, String);
    let (services, classes, receives, decisions): (String, String, String, String) = sqlx::query_as(
        "SELECT
           (SELECT json_group_array(json_array(hex(s.id), s.name, s.purpose, s.status, s.assessment, s.archived_at,
                s.suspended_since) ORDER BY s.name_key, s.id)
            FROM services s WHERE s.org_id = $1 AND s.archived_at IS NULL AND s.status <> 'retired'),
           (SELECT json_group_array(json_array(hex(c.id), c.name, json(CASE WHEN c.personal THEN 'true' ELSE 'false' END),
                json(CASE WHEN c.needs_clearance THEN 'true' ELSE 'false' END), c.archived_at) ORDER BY c.position, c.name_key)
            FROM data_classes c WHERE c.org_id = $1),
           (SELECT json_group_array(json_array(hex(service_id), hex(data_class_id)))
            FROM service_data_classes WHERE org_id = $1),
           (SELECT json_group_array(json_array(hex(k.service_id), hex(k.data_class_id), k.clearance, k.condition,
                k.expires_on, k.evidence, k.decided_by, k.decided_at))
            FROM clearances k WHERE k.org_id = $1)",
    )
    .bind(org.0)
    .fetch_one(pool)
    .await?;
    let json = JsonRead("the clearance overview");
    let services: Vec<ServiceJson> = json.parse(&services)?;
    let classes: Vec<ClassJson> = json.parse(&classes)?;
    let receives: Vec<(String, String)> = json.parse(&receives)?;
    let decisions: Vec<DecisionJson> = json.parse(&decisions)?;
    let choice = |e: String| StoreError::Config(e);
    Ok(ClearanceOverview {
        services: services
            .into_iter()
            .map(|(id, name, purpose, status, assessment, archived_at, suspended_since)| {
                Ok(ClearanceService {
                    id: ServiceId(json.id(&id)?),
                    name,
                    purpose,
                    status: status.try_into().map_err(choice)?,
                    assessment: assessment.try_into().map_err(choice)?,
                    archived_at: json.opt_time(archived_at.as_deref())?,
                    suspended_since: json.opt_time(suspended_since.as_deref())?,
                })
            })
            .collect::<Result<_>>()?,
        classes: classes
            .into_iter()
            .map(|(id, name, personal, needs_clearance, archived_at)| {
                Ok(PolicyClass {
                    id: DataClassId(json.id(&id)?),
                    name,
                    personal,
                    needs_clearance,
                    archived_at: json.opt_time(archived_at.as_deref())?,
                })
            })
            .collect::<Result<_>>()?,
        receives: receives
            .into_iter()
            .map(|(s, c)| Ok((ServiceId(json.id(&s)?), DataClassId(json.id(&c)?))))
            .collect::<Result<_>>()?,
        decisions: decisions
            .into_iter()
            .map(|(service, class, clearance, condition, expires_on, evidence, decided_by, decided_at)| {
                Ok(ClearanceRow {
                    service_id: ServiceId(json.id(&service)?),
                    data_class_id: DataClassId(json.id(&class)?),
                    clearance: clearance.try_into().map_err(choice)?,
                    condition,
                    expires_on: expires_on.map(|d| d.parse().map_err(|e| json.error(e))).transpose()?,
                    evidence,
                    decided_by,
                    decided_at: json.time(&decided_at)?,
                })
            })
            .collect::<Result<_>>()?,
    })
}

async fn service_clearance_in(tx: &mut Tx, org: OrgId, service: ServiceId) -> Result<ServiceClearance> {
    let s = clearance_service(tx, org, service).await?;
    let receives: Vec<DataClassId> =
        sqlx::query_as::<_, (Uuid,)>("SELECT data_class_id FROM service_data_classes WHERE org_id = $1 AND service_id = $2")
            .bind(org.0)
            .bind(service.0)
            .fetch_all(&mut **tx)
            .await?
            .into_iter()
            .map(|(u,)| DataClassId(u))
            .collect();
    let classes = policy_classes(tx, org)
        .await?
        .into_iter()
        .filter(|c| c.archived_at.is_none() || receives.contains(&c.id))
        .collect();
    let decisions = sqlx::query_as::<_, ClearanceRow>(&format!("{CLEARANCE_COLUMNS} WHERE k.org_id = $1 AND k.service_id = $2"))
        .bind(org.0)
        .bind(service.0)
        .fetch_all(&mut **tx)
        .await?;
    let findings = sqlx::query_as::<_, CitableFinding>(
        "SELECT topic, status, summary FROM findings WHERE org_id = $1 AND service_id = $2 AND status <> 'unknown' ORDER BY topic",
    )
    .bind(org.0)
    .bind(service.0)
    .fetch_all(&mut **tx)
    .await?;
    let answers = sqlx::query_as::<_, CitableAnswer>(
        "SELECT i.request_id, i.position, i.question, i.review, r.sent_at FROM question_items i
           JOIN question_requests r ON r.org_id = i.org_id AND r.id = i.request_id
         WHERE i.org_id = $1 AND r.service_id = $2 AND i.review IS NOT NULL
         ORDER BY r.sent_at DESC, i.position",
    )
    .bind(org.0)
    .bind(service.0)
    .fetch_all(&mut **tx)
    .await?;
    Ok(ServiceClearance { service: s, classes, receives, decisions, findings, answers })
}

#[async_trait::async_trait]
#[allow(clippy::too_many_arguments)]
impl ClearanceStore for ThisStore {
    async fn service_clearance(&self, t: &Tenant, service: ServiceId) -> Result<ServiceClearance> {
        let mut tx = self.read(Scope::Tenant(t)).await?;
        let r = service_clearance_in(&mut tx, t.org_id(), service).await?;
        tx.commit().await?;
        Ok(r)
    }

    async fn decide_clearance(
        &self,
        t: &Tenant,
        service: ServiceId,
        class: DataClassId,
        draft: &ClearanceDraft,
        mut event: AuditEvent,
        now: DateTime<Utc>,
    ) -> Result<()> {
        let org = t.org_id();
        let mut tx = self.write(Scope::Tenant(t)).await?;
        let s = clearance_service(&mut tx, org, service).await?;
        if s.archived_at.is_some() {
            return Err(StoreError::Closed);
        }
        let class_name: Option<(String,)> = sqlx::query_as("SELECT name FROM data_classes WHERE org_id = $1 AND id = $2")
            .bind(org.0)
            .bind(class.0)
            .fetch_optional(&mut *tx)
            .await?;
        let Some((class_name,)) = class_name else {
            return Err(StoreError::NotFound);
        };
        if !cites_are_the_services(&mut tx, org, service, &draft.evidence).await? {
            return Err(StoreError::UnknownRefs(vec!["evidence"]));
        }
        let actor = user_name(&mut tx, t.user_id()).await?;
        sqlx::query(
            "INSERT INTO clearances (org_id, service_id, data_class_id, clearance, condition, expires_on, evidence, decided_by, decided_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
             ON CONFLICT (org_id, service_id, data_class_id) DO UPDATE SET clearance = excluded.clearance,
                 condition = excluded.condition, expires_on = excluded.expires_on, evidence = excluded.evidence,
                 decided_by = excluded.decided_by, decided_at = excluded.decided_at",
        )
        .bind(org.0)
        .bind(service.0)
        .bind(class.0)
        .bind(draft.clearance.as_str())
        .bind(draft.condition.as_deref())
        .bind(draft.expires_on)
        .bind(evidence_to_json(&draft.evidence))
        .bind(&actor)
        .bind(Ts::from(now))
        .execute(&mut *tx)
        .await?;
        // The audit entry names the class as it was called then.
        if let AuditEvent::ClearanceDecided { class, .. } = &mut event {
            class.clone_from(&class_name);
        }
        let entry = Event::ClearanceDecided {
            class: class_name,
            clearance: draft.clearance,
            condition: draft.condition.clone(),
            expires_on: draft.expires_on,
        };
        insert_event(&mut tx, org, service, None, &entry, &actor, now).await?;
        refresh_clearance(&mut tx, org, Figures::Service(service)).await?;
        expiry_follow_up(&mut tx, org, service, now).await?;
        insert_audit(&mut tx, org, Some(t.user_id()), &event, now).await?;
        tx.commit().await?;
        Ok(())
    }

    async fn clearance_overview(&self, t: &Tenant) -> Result<ClearanceOverview> {
        let org = t.org_id();
        if ThisStore::LISTS_AS_JSON {
            return clearance_overview_in_one_statement(&self.pool, org).await;
        }
        let mut tx = self.read(Scope::Tenant(t)).await?;
        let services = sqlx::query_as::<_, ClearanceService>(&format!(
            "{CLEARANCE_SERVICE_COLUMNS} WHERE s.org_id = $1 AND s.archived_at IS NULL AND s.status <> 'retired'
             ORDER BY s.name_key, s.id"
        ))
        .bind(org.0)
        .fetch_all(&mut *tx)
        .await?;
        let classes = policy_classes(&mut tx, org).await?;
        let receives = sqlx::query_as::<_, (Uuid, Uuid)>(
            "SELECT service_id, data_class_id FROM service_data_classes WHERE org_id = $1",
        )
        .bind(org.0)
        .fetch_all(&mut *tx)
        .await?
        .into_iter()
        .map(|(s, c)| (ServiceId(s), DataClassId(c)))
        .collect();
        let decisions = sqlx::query_as::<_, ClearanceRow>(&format!("{CLEARANCE_COLUMNS} WHERE k.org_id = $1"))
            .bind(org.0)
            .fetch_all(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(ClearanceOverview { services, classes, receives, decisions })
    }

    async fn clearance_policy(&self, t: &Tenant) -> Result<ClearancePolicy> {
        let org = t.org_id();
        let mut tx = self.read(Scope::Tenant(t)).await?;
        let classes = policy_classes(&mut tx, org).await?;
        let reviewed: Option<(Ts, Option<String>)> = sqlx::query_as(
            "SELECT policy_reviewed_at, policy_reviewed_by FROM orgs WHERE id = $1 AND policy_reviewed_at IS NOT NULL",
        )
        .bind(org.0)
        .fetch_optional(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(ClearancePolicy { classes, reviewed: reviewed.map(|(at, name)| (at.0, name.unwrap_or_default())) })
    }

    async fn review_clearance_policy(&self, t: &Tenant, event: AuditEvent, now: DateTime<Utc>) -> Result<()> {
        let org = t.org_id();
        let mut tx = self.write(Scope::Tenant(t)).await?;
        let actor = user_name(&mut tx, t.user_id()).await?;
        sqlx::query("UPDATE orgs SET policy_reviewed_at = $2, policy_reviewed_by = $3 WHERE id = $1")
            .bind(org.0)
            .bind(Ts::from(now))
            .bind(actor)
            .execute(&mut *tx)
            .await?;
        insert_audit(&mut tx, org, Some(t.user_id()), &event, now).await?;
        tx.commit().await?;
        Ok(())
    }

    async fn clearance_counts(&self, t: &Tenant, today: NaiveDate) -> Result<ClearanceCounts> {
        let mut tx = self.read(Scope::Tenant(t)).await?;
        let n = clearance_counts_in(&mut tx, t.org_id(), today).await?;
        tx.commit().await?;
        Ok(n)
    }
}
