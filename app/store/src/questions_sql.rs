// The queries of the questions sent to vendors, shared by SQLite and
// PostgreSQL like `shared.rs` (included after it).

use crate::questions::{
    AssessmentState, AttachmentInfo, Item, NewAttachment, NewRequest, PortalView, QuestionEvent, QuestionStore, RequestDetail, RequestRow,
    SendOutcome,
};
use aivet_domain::follow_ups::{FollowUpReason, FollowUpStatus};
use aivet_domain::questions::{AnswerDraft, AnsweredVia, Assessment, DecisionDraft, QuestionSet, ReviewDraft};
use aivet_domain::timeline::Event;
use aivet_domain::{AttachmentId, RequestId};

const REQUEST_COLUMNS: &str = "SELECT r.id, r.service_id, r.vendor_name, r.recipient_name, r.recipient_email, r.lang,
        r.deadline, r.set_version, r.previous_id, r.expires_at, r.revoked_at, r.mail_id, r.sent_by, r.sent_at, r.status, r.saved_at,
        r.submitted_at, r.responder_name, r.responder_role, r.responder_email, r.answered_via, r.received_on,
        r.received_source, r.reminders, r.reminders_sent, r.no_answer_at, o.status AS mail_status, o.last_error AS mail_error,
        (SELECT COUNT(*) FROM question_items i WHERE i.org_id = r.org_id AND i.request_id = r.id
             AND (i.review IS NULL OR i.review <> 'satisfactory')) AS open_items,
        (SELECT COUNT(*) FROM question_items i WHERE i.org_id = r.org_id AND i.request_id = r.id) AS items
    FROM question_requests r LEFT JOIN outbox o ON o.org_id = r.org_id AND o.id = r.mail_id";

const ITEM_COLUMNS: &str = "SELECT position, code, question, why, earlier_answer, earlier_note, answer, review, review_note,
        reviewed_by, reviewed_at FROM question_items";

async fn request_row(tx: &mut Tx, org: OrgId, id: RequestId) -> Result<RequestRow> {
    sqlx::query_as::<_, RequestRow>(&format!("{REQUEST_COLUMNS} WHERE r.org_id = $1 AND r.id = $2"))
        .bind(org.0)
        .bind(id.0)
        .fetch_optional(&mut **tx)
        .await?
        .ok_or(StoreError::NotFound)
}

async fn items_of(tx: &mut Tx, org: OrgId, id: RequestId) -> Result<Vec<Item>> {
    Ok(sqlx::query_as::<_, Item>(&format!("{ITEM_COLUMNS} WHERE org_id = $1 AND request_id = $2 ORDER BY position"))
        .bind(org.0)
        .bind(id.0)
        .fetch_all(&mut **tx)
        .await?)
}

const ATTACHMENT_COLUMNS: &str = "SELECT id, filename, media_type, CAST(size AS BIGINT) AS size, uploaded_at, uploaded_by FROM attachments";

async fn attachments_of(tx: &mut Tx, org: OrgId, id: RequestId) -> Result<Vec<AttachmentInfo>> {
    Ok(sqlx::query_as::<_, AttachmentInfo>(&format!(
        "{ATTACHMENT_COLUMNS} WHERE org_id = $1 AND request_id = $2 ORDER BY uploaded_at, id"
    ))
    .bind(org.0)
    .bind(id.0)
    .fetch_all(&mut **tx)
    .await?)
}

async fn insert_attachment(tx: &mut Tx, org: OrgId, id: RequestId, file: &NewAttachment, now: DateTime<Utc>) -> Result<AttachmentInfo> {
    let (count,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM attachments WHERE org_id = $1 AND request_id = $2")
        .bind(org.0)
        .bind(id.0)
        .fetch_one(&mut **tx)
        .await?;
    if count >= aivet_domain::attachments::MAX_PER_REQUEST {
        return Err(StoreError::TooMany);
    }
    let info = AttachmentInfo {
        id: AttachmentId(Uuid::new_v4()),
        filename: file.filename.clone(),
        media_type: file.media_type.clone(),
        size: file.data.len() as i64,
        uploaded_at: Ts::from(now).0,
        uploaded_by: file.by.clone(),
    };
    sqlx::query(
        "INSERT INTO attachments (id, org_id, request_id, filename, media_type, size, data, uploaded_at, uploaded_by)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
    )
    .bind(info.id.0)
    .bind(org.0)
    .bind(id.0)
    .bind(&info.filename)
    .bind(&info.media_type)
    .bind(info.size as i32)
    .bind(&file.data)
    .bind(Ts::from(now))
    .bind(&info.uploaded_by)
    .execute(&mut **tx)
    .await?;
    Ok(info)
}

/// The services a request asks about, its own first, with their names.
async fn covered(tx: &mut Tx, org: OrgId, id: RequestId) -> Result<Vec<(ServiceId, String)>> {
    let rows: Vec<(Uuid, String)> = sqlx::query_as(
        "SELECT s.id, s.name FROM question_request_services c
         JOIN services s ON s.org_id = c.org_id AND s.id = c.service_id
         WHERE c.org_id = $1 AND c.request_id = $2 ORDER BY c.position",
    )
    .bind(org.0)
    .bind(id.0)
    .fetch_all(&mut **tx)
    .await?;
    Ok(rows.into_iter().map(|(i, n)| (ServiceId(i), n)).collect())
}

fn joined(services: &[(ServiceId, String)]) -> String {
    services.iter().map(|(_, n)| n.as_str()).collect::<Vec<_>>().join(", ")
}

/// An event of a request, on the timeline of every service it asks about.
#[allow(clippy::too_many_arguments)]
async fn request_event(
    tx: &mut Tx,
    org: OrgId,
    id: RequestId,
    event: &Event,
    actor: &str,
    now: DateTime<Utc>,
) -> Result<()> {
    request_events(tx, org, &[(id, event.clone())], actor, now).await
}

/// Events of many requests, one each, each on the timeline of every
/// service its request asks about: a few statements for all. A request
/// given twice keeps its last event only.
async fn request_events(tx: &mut Tx, org: OrgId, entries: &[(RequestId, Event)], actor: &str, now: DateTime<Utc>) -> Result<()> {
    let by_request: std::collections::HashMap<Uuid, &Event> = entries.iter().map(|(r, e)| (r.0, e)).collect();
    let keys: Vec<Uuid> = entries.iter().map(|(r, _)| r.0).collect();
    let covered = covered_by(tx, org, &keys).await?;
    let events: Vec<(ServiceId, Option<RequestId>, &Event)> = covered
        .iter()
        .map(|(request, service, _)| (ServiceId(*service), Some(RequestId(*request)), by_request[request]))
        .collect();
    insert_events(tx, org, &events, actor, now).await
}

/// Sets the assessment state of every service a request asks about.
async fn set_assessments(tx: &mut Tx, org: OrgId, id: RequestId, state: Assessment, now: DateTime<Utc>) -> Result<()> {
    for (service, _) in covered(tx, org, id).await? {
        set_assessment(tx, org, service, state, now).await?;
    }
    Ok(())
}

/// The display name of a member, for the timeline.
async fn user_name(tx: &mut Tx, user: UserId) -> Result<String> {
    let (name,): (String,) = sqlx::query_as("SELECT name FROM users WHERE id = $1").bind(user.0).fetch_one(&mut **tx).await?;
    Ok(name)
}

#[allow(clippy::too_many_arguments)]
async fn insert_event(
    tx: &mut Tx,
    org: OrgId,
    service: ServiceId,
    request: Option<RequestId>,
    event: &Event,
    actor: &str,
    now: DateTime<Utc>,
) -> Result<()> {
    insert_events(tx, org, &[(service, request, event)], actor, now).await
}

/// Timeline entries by one actor at one time, many rows per statement.
async fn insert_events(
    tx: &mut Tx,
    org: OrgId,
    events: &[(ServiceId, Option<RequestId>, &Event)],
    actor: &str,
    now: DateTime<Utc>,
) -> Result<()> {
    let rows: Vec<(Uuid, Uuid, Option<Uuid>, String, String)> = events
        .iter()
        .map(|(service, request, event)| {
            let (kind, detail) = event.to_stored();
            (Uuid::new_v4(), service.0, request.map(|r| r.0), kind, detail)
        })
        .collect();
    for chunk in statement_chunks(&rows) {
        let sql = many_params(format!(
            "INSERT INTO question_events (id, org_id, service_id, request_id, at, kind, actor, detail)
             SELECT column1, $1, column2, column3, $2, column4, $3, column5 FROM {}",
            rows_table(chunk.len(), 5, 4)
        ));
        let q = sqlx::query(&sql).persistent(chunk_cached(chunk.len())).bind(org.0).bind(Ts::from(now)).bind(actor);
        bind_rows!(q, chunk, |r| r.0, r.1, r.2, r.3.as_str(), r.4.as_str()).execute(&mut **tx).await?;
    }
    Ok(())
}

/// Sets a service's assessment state (and touches it).
async fn set_assessment(tx: &mut Tx, org: OrgId, service: ServiceId, state: Assessment, now: DateTime<Utc>) -> Result<()> {
    sqlx::query("UPDATE services SET assessment = $3, updated_at = $4 WHERE org_id = $1 AND id = $2")
        .bind(org.0)
        .bind(service.0)
        .bind(state.as_str())
        .bind(Ts::from(now))
        .execute(&mut **tx)
        .await?;
    refresh_clearance(tx, org, Figures::Service(service)).await?;
    Ok(())
}

/// Writes answers and, for a submission, closes the request and marks the
/// service answered.
async fn write_answers(
    tx: &mut Tx,
    org: OrgId,
    request: &RequestRow,
    answers: &AnswerDraft,
    submit: bool,
    via: AnsweredVia,
    now: DateTime<Utc>,
) -> Result<()> {
    for (position, answer) in answers.answers.iter().enumerate() {
        sqlx::query("UPDATE question_items SET answer = $4 WHERE org_id = $1 AND request_id = $2 AND position = $3")
            .bind(org.0)
            .bind(request.id.0)
            .bind(position as i32)
            .bind(answer.as_deref())
            .execute(&mut **tx)
            .await?;
    }
    let status = if submit { "submitted" } else { "draft" };
    let r = sqlx::query(
        "UPDATE question_requests SET status = $3, saved_at = $4,
             submitted_at = CASE WHEN $5 THEN $4 ELSE submitted_at END,
             responder_name = $6, responder_role = $7, responder_email = $8,
             answered_via = CASE WHEN $5 THEN $9 ELSE answered_via END,
             received_on = $10, received_source = $11
         WHERE org_id = $1 AND id = $2 AND status <> 'submitted'",
    )
    .bind(org.0)
    .bind(request.id.0)
    .bind(status)
    .bind(Ts::from(now))
    .bind(submit)
    .bind(answers.name.as_deref())
    .bind(answers.role.as_deref())
    .bind(answers.email.as_ref().map(|e| e.as_str()))
    .bind(via.as_str())
    .bind(answers.received_on)
    .bind(answers.source.as_deref())
    .execute(&mut **tx)
    .await?;
    if r.rows_affected() != 1 {
        return Err(StoreError::Closed);
    }
    if submit {
        set_assessments(tx, org, request.id, Assessment::Answered, now).await?;
        // The answer is in: now it is ours to review.
        close_follow_ups(tx, org, Of::Request(request.id), FollowUpReason::AnswerDue, FollowUpStatus::Done, "", now).await?;
        let today = org_zone(tx, org).await?.today(now);
        let policy = policy_in(tx, org).await?;
        let due = aivet_domain::follow_ups::review_due(today, &policy);
        open_follow_up(tx, org, request.service_id, Some(request.id), FollowUpReason::ReviewDue, due, now).await?;
    }
    Ok(())
}

/// What every reminder of an organisation needs: its name, time zone and
/// follow-up policy, inside `tx` (read once for a batch of reminders).
struct ReminderOrg {
    name: String,
    zone: aivet_domain::Zone,
    policy: Policy,
}

async fn reminder_org_in(tx: &mut Tx, org: OrgId) -> Result<ReminderOrg> {
    let (name, zone): (String, String) =
        sqlx::query_as("SELECT name, time_zone FROM orgs WHERE id = $1").bind(org.0).fetch_one(&mut **tx).await?;
    let zone = aivet_domain::Zone::try_from(zone).map_err(StoreError::Config)?;
    let policy = policy_in(tx, org).await?;
    Ok(ReminderOrg { name, zone, policy })
}

/// What reminders about some requests need, inside `tx`, in the order of
/// `ids`: a few statements for all of them (`None`: the request is gone).
async fn reminder_targets_in(
    tx: &mut Tx,
    org: OrgId,
    o: &ReminderOrg,
    ids: &[RequestId],
) -> Result<Vec<Option<crate::questions::ReminderTarget>>> {
    use std::collections::HashMap;
    let keys: Vec<Uuid> = ids.iter().map(|r| r.0).collect();
    let mut requests = waiting_requests(tx, org, ids).await?;
    let mut services: HashMap<Uuid, Vec<String>> = HashMap::new();
    for (request, _, name) in covered_by(tx, org, &keys).await? {
        services.entry(request).or_default().push(name);
    }
    let mut open: HashMap<Uuid, Vec<(usize, String)>> = HashMap::new();
    let questions: Vec<(Uuid, i32, String)> = fetch_for_ids(
        tx,
        "SELECT request_id, position, question FROM question_items
         WHERE org_id = $1 AND request_id IN ({ids}) AND answer IS NULL ORDER BY request_id, position",
        org,
        &keys,
    )
    .await?;
    for (request, position, question) in questions {
        open.entry(request).or_default().push((position as usize + 1, question));
    }
    Ok(ids
        .iter()
        .map(|id| {
            let request = requests.remove(id)?;
            Some(crate::questions::ReminderTarget {
                org_id: org,
                request,
                org_name: o.name.clone(),
                zone: o.zone,
                policy: o.policy,
                services: services.get(&id.0).cloned().unwrap_or_default(),
                open_questions: open.get(&id.0).cloned().unwrap_or_default(),
            })
        })
        .collect())
}

/// What the jobs about waiting requests need of some requests of the
/// organisation, by id (those that exist).
async fn waiting_requests(
    tx: &mut Tx,
    org: OrgId,
    ids: &[RequestId],
) -> Result<std::collections::HashMap<RequestId, crate::questions::WaitingRequest>> {
    let keys: Vec<Uuid> = ids.iter().map(|r| r.0).collect();
    let rows: Vec<crate::questions::WaitingRequest> = fetch_for_ids(
        tx,
        "SELECT id, recipient_name, recipient_email, lang, deadline, status, revoked_at, no_answer_at, reminders,
                reminders_sent, token_sealed
         FROM question_requests WHERE org_id = $1 AND id IN ({ids})",
        org,
        &keys,
    )
    .await?;
    Ok(rows.into_iter().map(|r| (r.id, r)).collect())
}

/// The services some requests ask about, as (request, service, name), each
/// request's own first.
async fn covered_by(tx: &mut Tx, org: OrgId, requests: &[Uuid]) -> Result<Vec<(Uuid, Uuid, String)>> {
    fetch_for_ids(
        tx,
        "SELECT c.request_id, s.id, s.name FROM question_request_services c
         JOIN services s ON s.org_id = c.org_id AND s.id = c.service_id
         WHERE c.org_id = $1 AND c.request_id IN ({ids}) ORDER BY c.request_id, c.position",
        org,
        requests,
    )
    .await
}

/// Queues a reminder's mail for a waiting request, counts it and notes it
/// on the timeline; false (nothing written) when it no longer waits.
async fn add_reminder(tx: &mut Tx, org: OrgId, id: RequestId, mail: &NewMail, actor: Option<UserId>, now: DateTime<Utc>) -> Result<bool> {
    Ok(add_reminders(tx, org, &[(id, mail)], actor, now).await?[0])
}

/// [`add_reminder`] for many reminders, a few statements for all: for each,
/// whether it went (a request that no longer waits gets none). Two
/// reminders of one request both go, numbered one after the other.
async fn add_reminders(
    tx: &mut Tx,
    org: OrgId,
    reminders: &[(RequestId, &NewMail)],
    actor: Option<UserId>,
    now: DateTime<Utc>,
) -> Result<Vec<bool>> {
    use std::collections::{BTreeMap, HashMap};
    let ids: Vec<RequestId> = reminders.iter().map(|(r, _)| *r).collect();
    let requests = waiting_requests(tx, org, &ids).await?;
    // Reminders per request in this call, for the numbers and the counts.
    let mut added: HashMap<RequestId, i32> = HashMap::new();
    let (mut went, mut mails, mut sent) = (Vec::new(), Vec::new(), Vec::new());
    for (id, mail) in reminders {
        match requests.get(id).filter(|r| r.waiting()) {
            Some(r) => {
                let k = added.entry(*id).or_default();
                *k += 1;
                went.push(true);
                mails.push(*mail);
                sent.push((*id, r.recipient_email.clone(), r.reminders_sent + *k));
            }
            None => went.push(false),
        }
    }
    if sent.is_empty() {
        return Ok(went);
    }
    insert_mails(tx, &mails).await?;
    // One statement per increment (nearly always all 1).
    let mut by_increment: BTreeMap<i32, Vec<Uuid>> = BTreeMap::new();
    for (id, k) in &added {
        by_increment.entry(*k).or_default().push(id.0);
    }
    for (k, ids) in by_increment {
        for chunk in statement_chunks(&ids) {
            let sql = many_params(format!(
                "UPDATE question_requests SET reminders_sent = reminders_sent + $2 WHERE org_id = $1 AND id {}",
                ids_in(chunk.len(), 3)
            ));
            let q = sqlx::query(&sql).persistent(chunk_cached(chunk.len())).bind(org.0).bind(k);
            bind_ids!(q, chunk).execute(&mut **tx).await?;
        }
    }
    let who = match actor {
        Some(u) => user_name(tx, u).await?,
        None => String::new(),
    };
    let keys: Vec<Uuid> = added.keys().map(|r| r.0).collect();
    let mut services: HashMap<Uuid, Vec<Uuid>> = HashMap::new();
    for (request, service, _) in covered_by(tx, org, &keys).await? {
        services.entry(request).or_default().push(service);
    }
    let entries: Vec<(RequestId, Event)> =
        sent.iter().map(|(id, to, number)| (*id, Event::ReminderSent { to: to.clone(), number: *number })).collect();
    let events: Vec<(ServiceId, Option<RequestId>, &Event)> = entries
        .iter()
        .flat_map(|(id, e)| services.get(&id.0).into_iter().flatten().map(move |s| (ServiceId(*s), Some(*id), e)))
        .collect();
    insert_events(tx, org, &events, &who, now).await?;
    let audits: Vec<AuditEvent> =
        sent.iter().map(|(request, _, number)| AuditEvent::Reminded { request: *request, number: *number }).collect();
    insert_audits(tx, org, actor, &audits, now).await?;
    Ok(went)
}

async fn open_request_by_token(tx: &mut Tx, token_hash: &[u8], now: DateTime<Utc>) -> Result<Option<(OrgId, RequestId)>> {
    let row: Option<(Uuid, Uuid)> = sqlx::query_as(
        "SELECT org_id, id FROM question_requests WHERE token_hash = $1 AND revoked_at IS NULL AND expires_at > $2",
    )
    .bind(token_hash)
    .bind(Ts::from(now))
    .fetch_optional(&mut **tx)
    .await?;
    Ok(row.map(|(o, r)| (OrgId(o), RequestId(r))))
}

async fn portal_view(tx: &mut Tx, org: OrgId, id: RequestId) -> Result<PortalView> {
    let request = request_row(tx, org, id).await?;
    let (org_name, zone): (String, String) =
        sqlx::query_as("SELECT name, time_zone FROM orgs WHERE id = $1").bind(org.0).fetch_one(&mut **tx).await?;
    let zone = aivet_domain::Zone::try_from(zone).map_err(StoreError::Config)?;
    let services = covered(tx, org, id).await?.into_iter().map(|(_, n)| n).collect();
    let items = items_of(tx, org, id).await?;
    let attachments = attachments_of(tx, org, id).await?;
    Ok(PortalView { org_name, zone, services, request, items, attachments })
}

async fn service_requests_in(tx: &mut Tx, org: OrgId, service: ServiceId) -> Result<Vec<RequestRow>> {
    let rows = sqlx::query_as::<_, RequestRow>(&format!(
        "{REQUEST_COLUMNS} WHERE r.org_id = $1 AND EXISTS (SELECT 1 FROM question_request_services c
             WHERE c.org_id = r.org_id AND c.request_id = r.id AND c.service_id = $2)
         ORDER BY r.sent_at DESC, r.id"
    ))
    .bind(org.0)
    .bind(service.0)
    .fetch_all(&mut **tx)
    .await?;
    Ok(rows)
}

async fn question_events_in(tx: &mut Tx, org: OrgId, service: ServiceId) -> Result<Vec<QuestionEvent>> {
    // The mails' deliveries come from the outbox, not from events.
    let rows = sqlx::query_as::<_, crate::questions::EventRow>(
        "SELECT at, request_id, kind, actor, detail FROM question_events WHERE org_id = $1 AND service_id = $2
         UNION ALL
         SELECT o.sent_at AS at, r.id AS request_id, 'delivered' AS kind, '' AS actor, r.recipient_email AS detail
         FROM question_request_services c
         JOIN question_requests r ON r.org_id = c.org_id AND r.id = c.request_id
         JOIN outbox o ON o.org_id = r.org_id AND o.id = r.mail_id
         WHERE c.org_id = $1 AND c.service_id = $2 AND o.sent_at IS NOT NULL
         ORDER BY at DESC",
    )
    .bind(org.0)
    .bind(service.0)
    .fetch_all(&mut **tx)
    .await?;
    Ok(rows.into_iter().map(QuestionEvent::from).collect())
}

async fn assessment_in(tx: &mut Tx, org: OrgId, service: ServiceId) -> Result<AssessmentState> {
    let row = sqlx::query_as::<_, AssessmentState>(
        "SELECT assessment, assessment_note,
                (SELECT MIN(f.due_on) FROM follow_ups f WHERE f.org_id = s.org_id AND f.service_id = s.id AND f.status = 'open')
                    AS follow_up_on
         FROM services s WHERE org_id = $1 AND id = $2",
    )
    .bind(org.0)
    .bind(service.0)
    .fetch_optional(&mut **tx)
    .await?
    .ok_or(StoreError::NotFound)?;
    Ok(row)
}

#[async_trait::async_trait]
#[allow(clippy::too_many_arguments)]
impl QuestionStore for ThisStore {
    async fn reminder_target_of(&self, t: &Tenant, request: RequestId) -> Result<crate::questions::ReminderTarget> {
        let mut tx = self.read(Scope::Tenant(t)).await?;
        let o = reminder_org_in(&mut tx, t.org_id()).await?;
        let target = reminder_targets_in(&mut tx, t.org_id(), &o, &[request]).await?.pop().flatten().ok_or(StoreError::NotFound)?;
        tx.commit().await?;
        Ok(target)
    }

    async fn remind_now(&self, t: &Tenant, request: RequestId, mail: NewMail, now: DateTime<Utc>) -> Result<()> {
        let mut tx = self.write(Scope::Tenant(t)).await?;
        if !add_reminder(&mut tx, t.org_id(), request, &mail, Some(t.user_id()), now).await? {
            return Err(StoreError::Closed);
        }
        tx.commit().await?;
        Ok(())
    }

    async fn set_request_reminders(&self, t: &Tenant, request: RequestId, on: bool, event: AuditEvent, now: DateTime<Utc>) -> Result<()> {
        let org = t.org_id();
        let mut tx = self.write(Scope::Tenant(t)).await?;
        request_row(&mut tx, org, request).await?;
        sqlx::query("UPDATE question_requests SET reminders = $3 WHERE org_id = $1 AND id = $2")
            .bind(org.0)
            .bind(request.0)
            .bind(on)
            .execute(&mut *tx)
            .await?;
        insert_audit(&mut tx, org, Some(t.user_id()), &event, now).await?;
        tx.commit().await?;
        Ok(())
    }

    async fn question_set(&self, t: &Tenant) -> Result<QuestionSet> {
        let mut tx = self.read(Scope::Tenant(t)).await?;
        let row: Option<(i32, String)> = sqlx::query_as(
            "SELECT version, items FROM question_sets WHERE org_id = $1 ORDER BY version DESC LIMIT 1",
        )
        .bind(t.org_id().0)
        .fetch_optional(&mut *tx)
        .await?;
        tx.commit().await?;
        match row {
            None => Ok(QuestionSet::standard()),
            Some((version, items)) => Ok(QuestionSet {
                version,
                items: serde_json::from_str(&items)
                    .map_err(|e| StoreError::Database(sqlx::Error::Decode(Box::new(e))))?,
            }),
        }
    }

    async fn save_question_set(&self, t: &Tenant, set: &QuestionSet, event: AuditEvent, now: DateTime<Utc>) -> Result<()> {
        let mut tx = self.write(Scope::Tenant(t)).await?;
        let items = serde_json::to_string(&set.items).map_err(|e| StoreError::Database(sqlx::Error::Encode(Box::new(e))))?;
        let actor = user_name(&mut tx, t.user_id()).await?;
        let r = sqlx::query(
            "INSERT INTO question_sets (org_id, version, items, created_at, created_by) VALUES ($1, $2, $3, $4, $5)
             ON CONFLICT DO NOTHING",
        )
        .bind(t.org_id().0)
        .bind(set.version)
        .bind(items)
        .bind(Ts::from(now))
        .bind(actor)
        .execute(&mut *tx)
        .await?;
        if r.rows_affected() != 1 {
            return Err(StoreError::Closed);
        }
        insert_audit(&mut tx, t.org_id(), Some(t.user_id()), &event, now).await?;
        tx.commit().await?;
        Ok(())
    }

    async fn send_requests(
        &self,
        t: &Tenant,
        services: &[ServiceId],
        send_key: &str,
        requests: Vec<NewRequest>,
        event: AuditEvent,
        now: DateTime<Utc>,
    ) -> Result<SendOutcome> {
        let org = t.org_id();
        let mut tx = self.write(Scope::Tenant(t)).await?;
        let fresh = sqlx::query("INSERT INTO question_sends (org_id, send_key) VALUES ($1, $2) ON CONFLICT DO NOTHING")
            .bind(org.0)
            .bind(send_key)
            .execute(&mut *tx)
            .await?
            .rows_affected()
            == 1;
        if !fresh {
            let ids: Vec<(Uuid,)> =
                sqlx::query_as("SELECT id FROM question_requests WHERE org_id = $1 AND send_key = $2 ORDER BY sent_at, id")
                    .bind(org.0)
                    .bind(send_key)
                    .fetch_all(&mut *tx)
                    .await?;
            tx.commit().await?;
            return Ok(SendOutcome { requests: ids.into_iter().map(|(i,)| RequestId(i)).collect(), repeated: true });
        }
        let Some(&service) = services.first() else {
            return Err(StoreError::NotFound);
        };
        for s in services {
            // Asking starts the assessment again.
            close_follow_ups(&mut tx, org, Of::Service(*s), FollowUpReason::Reassessment, FollowUpStatus::Done, "", now).await?;
            let r = sqlx::query(
                "UPDATE services SET follow_up_on = $3, assessment = 'asked', updated_at = $4 WHERE org_id = $1 AND id = $2",
            )
            .bind(org.0)
            .bind(s.0)
            .bind(requests.iter().map(|r| r.deadline).max())
            .bind(Ts::from(now))
            .execute(&mut *tx)
            .await?;
            if r.rows_affected() != 1 {
                return Err(StoreError::NotFound);
            }
            refresh_clearance(&mut tx, org, Figures::Service(*s)).await?;
        }
        let actor = user_name(&mut tx, t.user_id()).await?;
        let mut ids = Vec::with_capacity(requests.len());
        for req in &requests {
            if let Some(prev) = req.previous {
                // Asking again is only for a request of the same service.
                let (n,): (i64,) = sqlx::query_as(
                    "SELECT COUNT(*) FROM question_requests WHERE org_id = $1 AND id = $2 AND service_id = $3",
                )
                .bind(org.0)
                .bind(prev.0)
                .bind(service.0)
                .fetch_one(&mut *tx)
                .await?;
                if n != 1 {
                    return Err(StoreError::NotFound);
                }
            }
            insert_mail(&mut tx, &NewMail { org_id: Some(org), ..req.mail.clone() }).await?;
            sqlx::query(
                "INSERT INTO question_requests (id, org_id, service_id, send_key, vendor_name, recipient_name,
                     recipient_email, lang, deadline, previous_id, token_hash, expires_at, mail_id, sent_by, sent_at, status,
                     set_version, token_sealed, sent_by_member)
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, 'sent', $16, $17, $18)",
            )
            .bind(req.id.0)
            .bind(org.0)
            .bind(service.0)
            .bind(send_key)
            .bind(&req.vendor_name)
            .bind(&req.recipient_name)
            .bind(&req.recipient_email)
            .bind(req.lang.code())
            .bind(req.deadline)
            .bind(req.previous.map(|p| p.0))
            .bind(&req.token_hash)
            .bind(Ts::from(req.expires_at))
            .bind(req.mail.id.0)
            .bind(&actor)
            .bind(Ts::from(now))
            .bind(req.set_version)
            .bind(&req.token_sealed)
            .bind(t.membership_id().0)
            .execute(&mut *tx)
            .await?;
            for (position, s) in services.iter().enumerate() {
                sqlx::query(
                    "INSERT INTO question_request_services (org_id, request_id, service_id, position) VALUES ($1, $2, $3, $4)",
                )
                .bind(org.0)
                .bind(req.id.0)
                .bind(s.0)
                .bind(position as i32)
                .execute(&mut *tx)
                .await?;
            }
            for (position, item) in req.items.iter().enumerate() {
                sqlx::query(
                    "INSERT INTO question_items (org_id, request_id, position, code, question, why, earlier_answer, earlier_note)
                     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
                )
                .bind(org.0)
                .bind(req.id.0)
                .bind(position as i32)
                .bind(&item.code)
                .bind(&item.question)
                .bind(&item.why)
                .bind(item.earlier_answer.as_deref())
                .bind(item.earlier_note.as_deref())
                .execute(&mut *tx)
                .await?;
            }
            let (to_name, to_email, questions) = (req.recipient_name.clone(), req.recipient_email.clone(), req.items.len());
            let entry = if req.previous.is_some() {
                Event::AskedAgain { to_name, to_email, questions }
            } else {
                Event::Sent { to_name, to_email, questions }
            };
            request_event(&mut tx, org, req.id, &entry, &actor, now).await?;
            insert_later(&mut tx, t, &req.later, now).await?;
            open_follow_up(&mut tx, org, service, Some(req.id), FollowUpReason::AnswerDue, req.deadline, now).await?;
            ids.push(req.id);
        }
        insert_audit(&mut tx, org, Some(t.user_id()), &event, now).await?;
        tx.commit().await?;
        Ok(SendOutcome { requests: ids, repeated: false })
    }

    async fn service_requests(&self, t: &Tenant, service: ServiceId) -> Result<Vec<RequestRow>> {
        let mut tx = self.read(Scope::Tenant(t)).await?;
        let r = service_requests_in(&mut tx, t.org_id(), service).await?;
        tx.commit().await?;
        Ok(r)
    }

    async fn request(&self, t: &Tenant, id: RequestId) -> Result<RequestDetail> {
        let mut tx = self.read(Scope::Tenant(t)).await?;
        let request = request_row(&mut tx, t.org_id(), id).await?;
        let services = covered(&mut tx, t.org_id(), id).await?;
        let items = items_of(&mut tx, t.org_id(), id).await?;
        let attachments = attachments_of(&mut tx, t.org_id(), id).await?;
        tx.commit().await?;
        Ok(RequestDetail { request, service_name: joined(&services), services, items, attachments })
    }

    async fn question_events(&self, t: &Tenant, service: ServiceId) -> Result<Vec<QuestionEvent>> {
        let mut tx = self.read(Scope::Tenant(t)).await?;
        let r = question_events_in(&mut tx, t.org_id(), service).await?;
        tx.commit().await?;
        Ok(r)
    }

    async fn assessment(&self, t: &Tenant, service: ServiceId) -> Result<AssessmentState> {
        let mut tx = self.read(Scope::Tenant(t)).await?;
        let r = assessment_in(&mut tx, t.org_id(), service).await?;
        tx.commit().await?;
        Ok(r)
    }

    async fn portal_request(&self, token_hash: &[u8], now: DateTime<Utc>) -> Result<Option<PortalView>> {
        let mut tx = self.read(Scope::RequestToken(token_hash)).await?;
        let Some((org, id)) = open_request_by_token(&mut tx, token_hash, now).await? else {
            return Ok(None);
        };
        Self::rescope(&mut tx, Scope::Org(org, None)).await?;
        let view = portal_view(&mut tx, org, id).await?;
        tx.commit().await?;
        Ok(Some(view))
    }

    async fn portal_save(&self, token_hash: &[u8], answers: &AnswerDraft, submit: bool, now: DateTime<Utc>) -> Result<PortalView> {
        let mut tx = self.write(Scope::RequestToken(token_hash)).await?;
        let (org, id) = open_request_by_token(&mut tx, token_hash, now).await?.ok_or(StoreError::NotFound)?;
        Self::rescope(&mut tx, Scope::Org(org, None)).await?;
        let request = request_row(&mut tx, org, id).await?;
        write_answers(&mut tx, org, &request, answers, submit, AnsweredVia::Portal, now).await?;
        let actor = answers.name.clone().unwrap_or_else(|| request.recipient_name.clone());
        let vendor = request.vendor_name.clone();
        let entry = if submit { Event::Submitted { vendor } } else { Event::DraftSaved { vendor } };
        request_event(&mut tx, org, id, &entry, &actor, now).await?;
        if submit {
            let event = AuditEvent::Answered { request: id, by: answers.email.as_ref().map(|e| e.as_str().to_owned()) };
            insert_audit(&mut tx, org, None, &event, now).await?;
            // The business hears of it by mail, once.
            let notice = crate::jobs::NewJob { job: aivet_domain::jobs::Job::AnswersArrived { request: id }, org_id: Some(org), run_at: now };
            insert_job(&mut tx, &notice, now).await?;
        }
        let view = portal_view(&mut tx, org, id).await?;
        tx.commit().await?;
        Ok(view)
    }

    async fn enter_answers(&self, t: &Tenant, id: RequestId, answers: &AnswerDraft, event: AuditEvent, now: DateTime<Utc>) -> Result<()> {
        let org = t.org_id();
        let mut tx = self.write(Scope::Tenant(t)).await?;
        let request = request_row(&mut tx, org, id).await?;
        write_answers(&mut tx, org, &request, answers, true, AnsweredVia::Manual, now).await?;
        let actor = user_name(&mut tx, t.user_id()).await?;
        let entry = Event::Entered { source: answers.source.clone() };
        request_event(&mut tx, org, id, &entry, &actor, now).await?;
        insert_audit(&mut tx, org, Some(t.user_id()), &event, now).await?;
        tx.commit().await?;
        Ok(())
    }

    async fn review_item(&self, t: &Tenant, id: RequestId, position: i32, review: &ReviewDraft, event: AuditEvent, now: DateTime<Utc>) -> Result<()> {
        let org = t.org_id();
        let mut tx = self.write(Scope::Tenant(t)).await?;
        request_row(&mut tx, org, id).await?;
        let actor = user_name(&mut tx, t.user_id()).await?;
        let r = sqlx::query(
            "UPDATE question_items SET review = $4, review_note = $5, reviewed_by = $6, reviewed_at = $7
             WHERE org_id = $1 AND request_id = $2 AND position = $3",
        )
        .bind(org.0)
        .bind(id.0)
        .bind(position)
        .bind(review.review.as_str())
        .bind(review.note.as_deref())
        .bind(&actor)
        .bind(Ts::from(now))
        .execute(&mut *tx)
        .await?;
        if r.rows_affected() != 1 {
            return Err(StoreError::NotFound);
        }
        let entry = Event::Reviewed { question: position + 1, review: review.review };
        request_event(&mut tx, org, id, &entry, &actor, now).await?;
        let (unreviewed,): (i64,) =
            sqlx::query_as("SELECT COUNT(*) FROM question_items WHERE org_id = $1 AND request_id = $2 AND review IS NULL")
                .bind(org.0)
                .bind(id.0)
                .fetch_one(&mut *tx)
                .await?;
        if unreviewed == 0 {
            close_follow_ups(&mut tx, org, Of::Request(id), FollowUpReason::ReviewDue, FollowUpStatus::Done, &actor, now).await?;
        }
        insert_audit(&mut tx, org, Some(t.user_id()), &event, now).await?;
        tx.commit().await?;
        Ok(())
    }

    async fn decide(&self, t: &Tenant, service: ServiceId, decision: &DecisionDraft, event: AuditEvent, now: DateTime<Utc>) -> Result<()> {
        let org = t.org_id();
        let mut tx = self.write(Scope::Tenant(t)).await?;
        let r = sqlx::query(
            "UPDATE services SET assessment = $3, assessment_note = $4, updated_at = $5 WHERE org_id = $1 AND id = $2",
        )
        .bind(org.0)
        .bind(service.0)
        .bind(decision.decision.as_str())
        .bind(decision.note.as_deref())
        .bind(Ts::from(now))
        .execute(&mut *tx)
        .await?;
        if r.rows_affected() != 1 {
            return Err(StoreError::NotFound);
        }
        refresh_clearance(&mut tx, org, Figures::Service(service)).await?;
        let actor = user_name(&mut tx, t.user_id()).await?;
        insert_event(&mut tx, org, service, None, &Event::Decided { decision: decision.decision }, &actor, now).await?;
        // Decided: nothing left to review; the decision is looked at again later.
        close_follow_ups(&mut tx, org, Of::Service(service), FollowUpReason::ReviewDue, FollowUpStatus::Done, &actor, now).await?;
        let policy = policy_in(&mut tx, org).await?;
        let due = aivet_domain::follow_ups::reassessment_due(t.zone().today(now), &policy);
        open_follow_up(&mut tx, org, service, None, FollowUpReason::Reassessment, due, now).await?;
        insert_audit(&mut tx, org, Some(t.user_id()), &event, now).await?;
        tx.commit().await?;
        Ok(())
    }

    async fn portal_attach(&self, token_hash: &[u8], file: &NewAttachment, now: DateTime<Utc>) -> Result<AttachmentInfo> {
        let mut tx = self.write(Scope::RequestToken(token_hash)).await?;
        let (org, id) = open_request_by_token(&mut tx, token_hash, now).await?.ok_or(StoreError::NotFound)?;
        Self::rescope(&mut tx, Scope::Org(org, None)).await?;
        let request = request_row(&mut tx, org, id).await?;
        if request.status == aivet_domain::questions::RequestStatus::Submitted {
            return Err(StoreError::Closed);
        }
        let info = insert_attachment(&mut tx, org, id, file, now).await?;
        let event = AuditEvent::FileAttached { request: id, file: info.filename.clone(), by_vendor: true };
        insert_audit(&mut tx, org, None, &event, now).await?;
        tx.commit().await?;
        Ok(info)
    }

    async fn attach(&self, t: &Tenant, id: RequestId, file: &NewAttachment, event: AuditEvent, now: DateTime<Utc>) -> Result<AttachmentInfo> {
        let org = t.org_id();
        let mut tx = self.write(Scope::Tenant(t)).await?;
        request_row(&mut tx, org, id).await?;
        let info = insert_attachment(&mut tx, org, id, file, now).await?;
        insert_audit(&mut tx, org, Some(t.user_id()), &event, now).await?;
        tx.commit().await?;
        Ok(info)
    }

    async fn attachment(&self, t: &Tenant, id: AttachmentId) -> Result<(AttachmentInfo, Vec<u8>)> {
        let mut tx = self.read(Scope::Tenant(t)).await?;
        let info = sqlx::query_as::<_, AttachmentInfo>(&format!("{ATTACHMENT_COLUMNS} WHERE org_id = $1 AND id = $2"))
            .bind(t.org_id().0)
            .bind(id.0)
            .fetch_optional(&mut *tx)
            .await?
            .ok_or(StoreError::NotFound)?;
        let (data,): (Vec<u8>,) = sqlx::query_as("SELECT data FROM attachments WHERE org_id = $1 AND id = $2")
            .bind(t.org_id().0)
            .bind(id.0)
            .fetch_one(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok((info, data))
    }

    async fn revoke_request(&self, t: &Tenant, id: RequestId, event: AuditEvent, now: DateTime<Utc>) -> Result<()> {
        let org = t.org_id();
        let mut tx = self.write(Scope::Tenant(t)).await?;
        let request = request_row(&mut tx, org, id).await?;
        sqlx::query("UPDATE question_requests SET revoked_at = COALESCE(revoked_at, $3) WHERE org_id = $1 AND id = $2")
            .bind(org.0)
            .bind(id.0)
            .bind(Ts::from(now))
            .execute(&mut *tx)
            .await?;
        let actor = user_name(&mut tx, t.user_id()).await?;
        request_event(&mut tx, org, id, &Event::LinkRevoked { to: request.recipient_email.clone() }, &actor, now).await?;
        close_follow_ups(&mut tx, org, Of::Request(id), FollowUpReason::AnswerDue, FollowUpStatus::Cancelled, &actor, now).await?;
        insert_audit(&mut tx, org, Some(t.user_id()), &event, now).await?;
        tx.commit().await?;
        Ok(())
    }

    async fn reopen_request(&self, t: &Tenant, id: RequestId, until: DateTime<Utc>, event: AuditEvent, now: DateTime<Utc>) -> Result<()> {
        let org = t.org_id();
        let mut tx = self.write(Scope::Tenant(t)).await?;
        let request = request_row(&mut tx, org, id).await?;
        let r = sqlx::query(
            "UPDATE question_requests SET status = 'draft', revoked_at = NULL, submitted_at = NULL,
                 expires_at = CASE WHEN expires_at > $3 THEN expires_at ELSE $3 END
             WHERE org_id = $1 AND id = $2 AND status = 'submitted'",
        )
        .bind(org.0)
        .bind(id.0)
        .bind(Ts::from(until))
        .execute(&mut *tx)
        .await?;
        if r.rows_affected() != 1 {
            return Err(StoreError::Closed);
        }
        set_assessments(&mut tx, org, id, Assessment::Asked, now).await?;
        let actor = user_name(&mut tx, t.user_id()).await?;
        request_event(&mut tx, org, id, &Event::Reopened { to: request.recipient_email.clone() }, &actor, now).await?;
        // The vendor is to answer again, by the link's new end.
        close_follow_ups(&mut tx, org, Of::Request(id), FollowUpReason::ReviewDue, FollowUpStatus::Cancelled, &actor, now).await?;
        open_follow_up(&mut tx, org, request.service_id, Some(id), FollowUpReason::AnswerDue, t.zone().today(until), now).await?;
        insert_audit(&mut tx, org, Some(t.user_id()), &event, now).await?;
        tx.commit().await?;
        Ok(())
    }
}
