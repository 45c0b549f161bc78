// Loading an organisation's export, shared by SQLite and PostgreSQL like
// `shared.rs` (included after it and the areas whose helpers it uses).

use crate::transfer::{Imported, OrgImport, TransferStore};
use std::collections::HashMap;

/// Ids that sort in the order they are made (a random prefix, then a
/// counter): rows the export lists in order, and that the database orders
/// by time and then id, keep their order when several share a time.
struct OrderedIds {
    prefix: [u8; 8],
    next: u64,
}

impl OrderedIds {
    fn new() -> OrderedIds {
        let mut prefix = [0u8; 8];
        prefix.copy_from_slice(&Uuid::new_v4().as_bytes()[..8]);
        OrderedIds { prefix, next: 0 }
    }
    fn next(&mut self) -> Uuid {
        let mut bytes = [0u8; 16];
        bytes[..8].copy_from_slice(&self.prefix);
        bytes[8..].copy_from_slice(&self.next.to_be_bytes());
        self.next += 1;
        Uuid::from_bytes(bytes)
    }
}

fn opt_ts(t: Option<DateTime<Utc>>) -> Option<Ts> {
    t.map(Ts::from)
}

#[async_trait::async_trait]
impl TransferStore for ThisStore {
    async fn import_org(&self, import: &OrgImport, event: AuditEvent, now: DateTime<Utc>) -> Result<Imported> {
        let d = &import.data;
        let o = &d.organisation;
        let org = o.id;
        let org_id = org.0;
        let mut ids = OrderedIds::new();
        let mut tx = self.write(Scope::Org(org, None)).await?;

        // The organisation, unless its slug or the organisation itself is here.
        let p = &o.follow_up_policy;
        let inserted: Option<(Uuid,)> = sqlx::query_as(
            "INSERT INTO orgs (id, slug, name, created_at, time_zone, reminders, max_reminders, review_days,
                               reassess_months, expiry_notice_days, policy_reviewed_at, policy_reviewed_by)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
             ON CONFLICT DO NOTHING RETURNING id",
        )
        .bind(org_id)
        .bind(&o.slug)
        .bind(&o.name)
        .bind(Ts::from(o.created_at))
        .bind(o.time_zone.name())
        .bind(p.reminders)
        .bind(i32::from(p.max_reminders))
        .bind(i32::from(p.review_days))
        .bind(i32::from(p.reassess_months))
        .bind(i32::from(p.expiry_notice_days))
        .bind(opt_ts(o.policy_reviewed_at))
        .bind(o.policy_reviewed_by.as_deref())
        .fetch_optional(&mut *tx)
        .await?;
        if inserted.is_none() {
            let here: Option<(Uuid,)> = sqlx::query_as("SELECT id FROM orgs WHERE id = $1")
                .bind(org_id)
                .fetch_optional(&mut *tx)
                .await?;
            return Err(if here.is_some() { StoreError::OrgExists } else { StoreError::NameTaken });
        }

        // Members: an account per email, made where there is none.
        let mut memberships: HashMap<String, Uuid> = HashMap::new();
        let mut users: HashMap<String, Uuid> = HashMap::new();
        let (mut new_accounts, mut existing_accounts) = (Vec::new(), Vec::new());
        for m in &o.members {
            let email = m.email.to_lowercase();
            let found: Option<(Uuid,)> = sqlx::query_as("SELECT id FROM users WHERE email = $1")
                .bind(&email)
                .fetch_optional(&mut *tx)
                .await?;
            let user = match found {
                Some((id,)) => {
                    existing_accounts.push(email.clone());
                    id
                }
                None => {
                    let id = Uuid::new_v4();
                    sqlx::query(
                        "INSERT INTO users (id, email, name, password_hash, lang, created_at, password_changed_at)
                         VALUES ($1, $2, $3, $4, $5, $6, $6)",
                    )
                    .bind(id)
                    .bind(&email)
                    .bind(&m.name)
                    .bind(&import.locked_password)
                    .bind(m.lang.code())
                    .bind(Ts::from(now))
                    .execute(&mut *tx)
                    .await?;
                    new_accounts.push(email.clone());
                    id
                }
            };
            let membership = Uuid::new_v4();
            sqlx::query("INSERT INTO memberships (id, org_id, user_id, role, created_at) VALUES ($1, $2, $3, $4, $5)")
                .bind(membership)
                .bind(org_id)
                .bind(user)
                .bind(m.role.as_str())
                .bind(Ts::from(m.joined_at))
                .execute(&mut *tx)
                .await?;
            memberships.insert(email.clone(), membership);
            users.insert(email, user);
        }
        let set = &o.question_set;
        if set.version > 0 {
            let items = serde_json::to_string(&set.items).map_err(|e| StoreError::Config(e.to_string()))?;
            sqlx::query("INSERT INTO question_sets (org_id, version, items, created_at, created_by) VALUES ($1, $2, $3, $4, $5)")
                .bind(org_id)
                .bind(set.version)
                .bind(items)
                .bind(Ts::from(now))
                .bind("import")
                .execute(&mut *tx)
                .await?;
        }

        // The inventory.
        let inv = &d.inventory;
        for (position, c) in inv.data_classes.iter().enumerate() {
            sqlx::query(
                "INSERT INTO data_classes (id, org_id, name, name_key, personal, needs_clearance, position, archived_at)
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
            )
            .bind(c.id.0)
            .bind(org_id)
            .bind(&c.name)
            .bind(c.name.to_lowercase())
            .bind(c.personal)
            .bind(c.needs_clearance)
            .bind(position as i32)
            .bind(opt_ts(c.archived_at))
            .execute(&mut *tx)
            .await?;
        }
        for v in &inv.vendors {
            sqlx::query(
                "INSERT INTO vendors (id, org_id, name, name_key, website, role, dpa_url, privacy_url, subprocessors_url,
                                      status_url, trust_url, notes, created_at, updated_at, archived_at)
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)",
            )
            .bind(v.id.0)
            .bind(org_id)
            .bind(&v.name)
            .bind(v.name.to_lowercase())
            .bind(v.website.as_deref())
            .bind(v.role.as_str())
            .bind(v.dpa_url.as_deref())
            .bind(v.privacy_url.as_deref())
            .bind(v.subprocessors_url.as_deref())
            .bind(v.status_url.as_deref())
            .bind(v.trust_url.as_deref())
            .bind(v.notes.as_deref())
            .bind(Ts::from(v.created_at))
            .bind(Ts::from(v.updated_at))
            .bind(opt_ts(v.archived_at))
            .execute(&mut *tx)
            .await?;
            for c in &v.contacts {
                sqlx::query(
                    "INSERT INTO vendor_contacts (id, org_id, vendor_id, name, email, lang, role, is_primary, created_at)
                     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
                )
                .bind(ids.next())
                .bind(org_id)
                .bind(v.id.0)
                .bind(&c.name)
                .bind(&c.email)
                .bind(c.lang.code())
                .bind(c.role.as_str())
                .bind(c.primary)
                .bind(Ts::from(v.created_at))
                .execute(&mut *tx)
                .await?;
            }
        }
        for s in &inv.services {
            let owner = match &s.owner {
                Some(email) => Some(
                    *memberships.get(&email.to_lowercase()).ok_or(StoreError::UnknownRefs(vec!["owner"]))?,
                ),
                None => None,
            };
            sqlx::query(
                "INSERT INTO services (id, org_id, name, name_key, purpose, vendor_id, integrator_id, model_provider_id,
                                       inference_host_id, model, engine, deployment, owner_id, status, dpa_signed_on,
                                       dpa_url, notice_hours, notice_channel, authority_notifier, created_at, updated_at,
                                       archived_at, assessment, assessment_note, engine_kind, engine_version,
                                       engine_source, engine_parsed)
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21,
                         $22, $23, $24, $25, $26, $27, $28)",
            )
            .bind(s.id.0)
            .bind(org_id)
            .bind(&s.name)
            .bind(s.name.to_lowercase())
            .bind(s.purpose.as_deref())
            .bind(s.vendor.0)
            .bind(s.integrator.map(|v| v.0))
            .bind(s.model_provider.map(|v| v.0))
            .bind(s.inference_host.map(|v| v.0))
            .bind(s.model.as_deref())
            .bind(s.engine.as_deref())
            .bind(s.deployment.as_str())
            .bind(owner)
            .bind(s.status.as_str())
            .bind(s.dpa_signed_on)
            .bind(s.dpa_url.as_deref())
            .bind(s.notice_hours)
            .bind(s.notice_channel.as_deref())
            .bind(s.authority_notifier.as_str())
            .bind(Ts::from(s.created_at))
            .bind(Ts::from(s.updated_at))
            .bind(opt_ts(s.archived_at))
            .bind(s.assessment.as_str())
            .bind(s.assessment_note.as_deref())
            .bind(s.engine_kind.map(|e| e.as_str()))
            .bind(s.engine_version.as_deref())
            .bind(s.engine_source.map(|e| e.as_str()))
            .bind(true)
            .execute(&mut *tx)
            .await?;
            for c in &s.data_classes {
                sqlx::query("INSERT INTO service_data_classes (org_id, service_id, data_class_id) VALUES ($1, $2, $3)")
                    .bind(org_id)
                    .bind(s.id.0)
                    .bind(c.0)
                    .execute(&mut *tx)
                    .await?;
            }
            for f in &s.findings {
                sqlx::query(
                    "INSERT INTO findings (id, org_id, service_id, topic, status, summary, source_url, checked_on, updated_at)
                     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
                )
                .bind(ids.next())
                .bind(org_id)
                .bind(s.id.0)
                .bind(f.topic.as_str())
                .bind(f.status.as_str())
                .bind(f.summary.as_deref())
                .bind(f.source_url.as_deref())
                .bind(f.checked_on)
                .bind(Ts::from(f.updated_at))
                .execute(&mut *tx)
                .await?;
            }
            for k in &s.clearances {
                let evidence = serde_json::to_string(&k.evidence).map_err(|e| StoreError::Config(e.to_string()))?;
                sqlx::query(
                    "INSERT INTO clearances (org_id, service_id, data_class_id, clearance, condition, expires_on, evidence,
                                             decided_by, decided_at)
                     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
                )
                .bind(org_id)
                .bind(s.id.0)
                .bind(k.data_class.0)
                .bind(k.clearance.as_str())
                .bind(k.condition.as_deref())
                .bind(k.expires_on)
                .bind(evidence)
                .bind(&k.decided_by)
                .bind(Ts::from(k.decided_at))
                .execute(&mut *tx)
                .await?;
            }
        }

        // The mails to vendors: their bodies are not in the export, so a
        // mail not sent before the move is never sent from here.
        let mut mail_ids: HashMap<&str, Uuid> = HashMap::new();
        for m in &d.mail_trail {
            let id = ids.next();
            let (status, error) = match m.status {
                aivet_domain::mail::MailStatus::Sent => ("sent", None),
                _ => ("failed", Some(NOT_SENT_BEFORE_MOVE)),
            };
            sqlx::query(
                "INSERT INTO outbox (id, org_id, kind, recipient, subject, message, message_id, status, attempts,
                                     created_at, next_attempt_at, give_up_at, sent_at, last_error)
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 0, $9, $9, $9, $10, $11)",
            )
            .bind(id)
            .bind(org_id)
            .bind(&m.kind)
            .bind(&m.recipient)
            .bind(&m.subject)
            .bind(Vec::<u8>::new())
            .bind(&m.message_id)
            .bind(status)
            .bind(Ts::from(m.created_at))
            .bind(opt_ts(m.sent_at))
            .bind(error)
            .execute(&mut *tx)
            .await?;
            mail_ids.insert(m.message_id.as_str(), id);
        }

        // Questions, answers, attachments and the services' timelines.
        for r in &d.questions.requests {
            let link = import.links.get(&r.id).ok_or(StoreError::UnknownRefs(vec!["link"]))?;
            let first = r.services.first().ok_or(StoreError::UnknownRefs(vec!["services"]))?;
            let send_key = format!("import:{}", r.id);
            sqlx::query("INSERT INTO question_sends (org_id, send_key) VALUES ($1, $2)")
                .bind(org_id)
                .bind(&send_key)
                .execute(&mut *tx)
                .await?;
            sqlx::query(
                "INSERT INTO question_requests (id, org_id, service_id, send_key, vendor_name, recipient_name,
                     recipient_email, lang, deadline, set_version, previous_id, token_hash, expires_at, revoked_at,
                     mail_id, sent_by, sent_at, status, saved_at, submitted_at, responder_name, responder_role,
                     responder_email, answered_via, received_on, received_source, reminders, reminders_sent,
                     no_answer_at, token_sealed)
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20,
                         $21, $22, $23, $24, $25, $26, $27, $28, $29, $30)",
            )
            .bind(r.id.0)
            .bind(org_id)
            .bind(first.0)
            .bind(&send_key)
            .bind(&r.vendor_name)
            .bind(&r.recipient_name)
            .bind(&r.recipient_email)
            .bind(r.lang.code())
            .bind(r.deadline)
            .bind(r.set_version)
            .bind(r.previous.map(|p| p.0))
            .bind(&link.token_hash)
            .bind(Ts::from(link.expires_at))
            .bind(opt_ts(r.revoked_at))
            .bind(r.message_id.as_deref().and_then(|m| mail_ids.get(m)).copied())
            .bind(&r.sent_by)
            .bind(Ts::from(r.sent_at))
            .bind(r.status.as_str())
            .bind(opt_ts(r.saved_at))
            .bind(opt_ts(r.submitted_at))
            .bind(r.responder_name.as_deref())
            .bind(r.responder_role.as_deref())
            .bind(r.responder_email.as_deref())
            .bind(r.answered_via.map(|a| a.as_str()))
            .bind(r.received_on)
            .bind(r.received_source.as_deref())
            .bind(r.reminders)
            .bind(r.reminders_sent)
            .bind(opt_ts(r.no_answer_at))
            .bind(&link.token_sealed)
            .execute(&mut *tx)
            .await?;
            for (position, s) in r.services.iter().enumerate() {
                sqlx::query(
                    "INSERT INTO question_request_services (org_id, request_id, service_id, position) VALUES ($1, $2, $3, $4)",
                )
                .bind(org_id)
                .bind(r.id.0)
                .bind(s.0)
                .bind(position as i32)
                .execute(&mut *tx)
                .await?;
            }
            for i in &r.items {
                sqlx::query(
                    "INSERT INTO question_items (org_id, request_id, position, code, question, why, earlier_answer,
                                                 earlier_note, answer, review, review_note, reviewed_by, reviewed_at)
                     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)",
                )
                .bind(org_id)
                .bind(r.id.0)
                .bind(i.position)
                .bind(&i.code)
                .bind(&i.question)
                .bind(&i.why)
                .bind(i.earlier_answer.as_deref())
                .bind(i.earlier_note.as_deref())
                .bind(i.answer.as_deref())
                .bind(i.review.map(|v| v.as_str()))
                .bind(i.review_note.as_deref())
                .bind(i.reviewed_by.as_deref())
                .bind(opt_ts(i.reviewed_at))
                .execute(&mut *tx)
                .await?;
            }
            for a in &r.attachments {
                let data = import.files.get(&a.id).ok_or(StoreError::UnknownRefs(vec!["files"]))?;
                sqlx::query(
                    "INSERT INTO attachments (id, org_id, request_id, filename, media_type, size, data, uploaded_at, uploaded_by)
                     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
                )
                .bind(a.id.0)
                .bind(org_id)
                .bind(r.id.0)
                .bind(&a.filename)
                .bind(&a.media_type)
                .bind(data.len() as i32)
                .bind(data)
                .bind(Ts::from(a.uploaded_at))
                .bind(&a.uploaded_by)
                .execute(&mut *tx)
                .await?;
            }
        }
        for e in &d.questions.timeline {
            sqlx::query(
                "INSERT INTO question_events (id, org_id, service_id, request_id, at, kind, actor, detail)
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
            )
            .bind(ids.next())
            .bind(org_id)
            .bind(e.service.0)
            .bind(e.request.map(|r| r.0))
            .bind(Ts::from(e.at))
            .bind(&e.kind)
            .bind(&e.actor)
            .bind(&e.detail)
            .execute(&mut *tx)
            .await?;
        }
        for f in &d.follow_ups {
            sqlx::query(
                "INSERT INTO follow_ups (id, org_id, service_id, request_id, reason, status, due_on, note, sequence,
                                         created_at, updated_at, closed_at, closed_by, service_key)
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13,
                         (SELECT name_key FROM services WHERE org_id = $2 AND id = $3))",
            )
            .bind(f.id.0)
            .bind(org_id)
            .bind(f.service.0)
            .bind(f.request.map(|r| r.0))
            .bind(f.reason.as_str())
            .bind(f.status.as_str())
            .bind(f.due_on)
            .bind(f.note.as_deref())
            .bind(f.moved)
            .bind(Ts::from(f.created_at))
            .bind(Ts::from(f.closed_at.unwrap_or(f.created_at)))
            .bind(opt_ts(f.closed_at))
            .bind(f.closed_by.as_deref())
            .execute(&mut *tx)
            .await?;
        }

        // The incident register.
        for i in &d.incidents {
            let source_links = serde_json::to_string(&i.source_links).map_err(|e| StoreError::Config(e.to_string()))?;
            let (a33, a34) = (i.art33.as_ref(), i.art34.as_ref());
            sqlx::query(
                "INSERT INTO incidents (id, org_id, title, description, source_links, exposure_start, exposure_end,
                     vendor_aware_at, vendor_fixed_at, vendor_notified_at, vendor_notified_how, disclosed_at, we_aware_at,
                     affected, affected_evidence, personal_data, risk, state, art33_decision, art33_rationale,
                     art33_notified_at, art33_authority, art33_reference, art33_delay_reason, art33_decided_by,
                     art33_decided_at, art34_decision, art34_rationale, art34_informed_on, art34_decided_by,
                     art34_decided_at, created_by, created_at, updated_at, closed_at)
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20,
                         $21, $22, $23, $24, $25, $26, $27, $28, $29, $30, $31, $32, $33, $34, $35)",
            )
            .bind(i.id.0)
            .bind(org_id)
            .bind(&i.title)
            .bind(i.description.as_deref())
            .bind(source_links)
            .bind(opt_ts(i.exposure_start))
            .bind(opt_ts(i.exposure_end))
            .bind(opt_ts(i.vendor_aware_at))
            .bind(opt_ts(i.vendor_fixed_at))
            .bind(opt_ts(i.vendor_notified_at))
            .bind(i.vendor_notified_how.as_deref())
            .bind(opt_ts(i.disclosed_at))
            .bind(Ts::from(i.we_aware_at))
            .bind(i.affected.as_str())
            .bind(i.affected_evidence.as_deref())
            .bind(i.personal_data)
            .bind(i.risk.as_str())
            .bind(i.state.as_str())
            .bind(a33.map(|a| a.decision.as_str()))
            .bind(a33.map(|a| a.rationale.as_str()))
            .bind(opt_ts(a33.and_then(|a| a.notified_at)))
            .bind(a33.and_then(|a| a.authority.as_deref()))
            .bind(a33.and_then(|a| a.reference.as_deref()))
            .bind(a33.and_then(|a| a.delay_reason.as_deref()))
            .bind(a33.map(|a| a.decided_by.as_str()))
            .bind(opt_ts(a33.map(|a| a.decided_at)))
            .bind(a34.map(|a| a.decision.as_str()))
            .bind(a34.map(|a| a.rationale.as_str()))
            .bind(a34.and_then(|a| a.informed_on))
            .bind(a34.map(|a| a.decided_by.as_str()))
            .bind(opt_ts(a34.map(|a| a.decided_at)))
            .bind(&i.created_by)
            .bind(Ts::from(i.created_at))
            .bind(Ts::from(i.updated_at))
            .bind(opt_ts(i.closed_at))
            .execute(&mut *tx)
            .await?;
            for v in &i.vendors {
                sqlx::query("INSERT INTO incident_vendors (org_id, incident_id, vendor_id) VALUES ($1, $2, $3)")
                    .bind(org_id)
                    .bind(i.id.0)
                    .bind(v.0)
                    .execute(&mut *tx)
                    .await?;
            }
            for (n, s) in i.services.iter().enumerate() {
                // A file written before links had times: linked when recorded.
                let linked_at = i.linked_at.get(n).copied().unwrap_or(i.created_at);
                sqlx::query("INSERT INTO incident_services (org_id, incident_id, service_id, linked_at) VALUES ($1, $2, $3, $4)")
                    .bind(org_id)
                    .bind(i.id.0)
                    .bind(s.0)
                    .bind(Ts::from(linked_at))
                    .execute(&mut *tx)
                    .await?;
            }
            for c in &i.data_classes {
                sqlx::query("INSERT INTO incident_data_classes (org_id, incident_id, data_class_id) VALUES ($1, $2, $3)")
                    .bind(org_id)
                    .bind(i.id.0)
                    .bind(c.0)
                    .execute(&mut *tx)
                    .await?;
            }
            for (seq, e) in i.timeline.iter().enumerate() {
                sqlx::query(
                    "INSERT INTO incident_entries (id, org_id, incident_id, seq, kind, detail, actor, at)
                     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
                )
                .bind(ids.next())
                .bind(org_id)
                .bind(i.id.0)
                .bind(seq as i64)
                .bind(&e.kind)
                .bind(&e.detail)
                .bind(&e.actor)
                .bind(Ts::from(e.at))
                .execute(&mut *tx)
                .await?;
            }
        }
        for a in &d.advisories {
            sqlx::query("INSERT INTO advisories (org_id, id, osv, imported_by, imported_at) VALUES ($1, $2, $3, $4, $5)")
                .bind(org_id)
                .bind(&a.id)
                .bind(&a.osv)
                .bind(&a.imported_by)
                .bind(Ts::from(a.imported_at))
                .execute(&mut *tx)
                .await?;
        }

        // The audit log as it was, then the import itself.
        for a in &d.audit {
            sqlx::query(
                "INSERT INTO audit_log (id, org_id, at, actor_user_id, actor_label, action, detail)
                 VALUES ($1, $2, $3, $4, $5, $6, $7)",
            )
            .bind(ids.next())
            .bind(org_id)
            .bind(Ts::from(a.at))
            .bind(users.get(&a.actor.to_lowercase()).copied())
            .bind(&a.actor)
            .bind(&a.action)
            .bind(&a.detail)
            .execute(&mut *tx)
            .await?;
        }
        insert_audit(&mut tx, org, None, &event, now).await?;
        for l in &import.later {
            insert_job(&mut tx, &NewJob { job: l.job.clone(), org_id: Some(org), run_at: l.run_at }, now).await?;
        }

        // What each service keeps for counting (the figures that follow
        // from the rows above).
        for update in [
            format!("UPDATE services SET personal = {PERSONAL} WHERE org_id = $1"),
            format!("UPDATE services SET {KNOWN_FINDINGS} WHERE org_id = $1"),
            "UPDATE services SET follow_up_on = (SELECT MIN(f.due_on) FROM follow_ups f
                 WHERE f.org_id = services.org_id AND f.service_id = services.id AND f.status = 'open'
                   AND f.reason = 'answer_due')
             WHERE org_id = $1"
                .to_owned(),
            format!("UPDATE services SET {SUSPENDED_SINCE} WHERE org_id = $1"),
            format!("UPDATE services SET {CLEARANCE_FIGURES} WHERE org_id = $1"),
        ] {
            sqlx::query(&update).bind(org_id).execute(&mut *tx).await?;
        }
        tx.commit().await?;
        Ok(Imported { org, new_accounts, existing_accounts })
    }
}

/// Why an imported mail is shown as not sent.
const NOT_SENT_BEFORE_MOVE: &str = "not sent before the organisation was moved; its text is not in the export";
