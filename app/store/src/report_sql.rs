// The report's reads, shared by SQLite and PostgreSQL like `shared.rs`.

use crate::report::{AssessmentRow, EventRecord, FollowUpRecord, IncidentEntryRecord, IncidentRecords, MemberRow, ReportRows, ReportStore};

#[async_trait::async_trait]
impl ReportStore for ThisStore {
    async fn report_rows(&self, t: &Tenant) -> Result<ReportRows> {
        let org_id = t.org_id().0;
        let mut tx = self.read(Scope::Tenant(t)).await?;
        let org = sqlx::query_as::<_, Org>("SELECT id, slug, name, created_at, time_zone FROM orgs WHERE id = $1")
            .bind(org_id)
            .fetch_optional(&mut *tx)
            .await?
            .ok_or(StoreError::NotFound)?;
        let members = sqlx::query_as::<_, MemberRow>(
            "SELECT m.id, u.name, u.email, m.role, u.lang, m.created_at
             FROM memberships m JOIN users u ON u.id = m.user_id WHERE m.org_id = $1 ORDER BY u.name, u.email",
        )
        .bind(org_id)
        .fetch_all(&mut *tx)
        .await?;
        let policy = policy_in(&mut tx, t.org_id()).await?;
        let set: Option<(i32, String)> =
            sqlx::query_as("SELECT version, items FROM question_sets WHERE org_id = $1 ORDER BY version DESC LIMIT 1")
                .bind(org_id)
                .fetch_optional(&mut *tx)
                .await?;
        let question_set = match set {
            None => QuestionSet::standard(),
            Some((version, items)) => QuestionSet {
                version,
                items: serde_json::from_str(&items).map_err(|e| StoreError::Database(sqlx::Error::Decode(Box::new(e))))?,
            },
        };
        let data_classes = sqlx::query_as::<_, crate::inventory::DataClass>(
            "SELECT c.id, c.name, c.personal, c.needs_clearance, c.archived_at,
                    (SELECT COUNT(*) FROM service_data_classes d WHERE d.org_id = c.org_id AND d.data_class_id = c.id) AS services
             FROM data_classes c WHERE c.org_id = $1 ORDER BY c.position, c.name_key",
        )
        .bind(org_id)
        .fetch_all(&mut *tx)
        .await?;
        let vendors = sqlx::query_as::<_, crate::inventory::Vendor>(
            "SELECT id, name, website, role, dpa_url, privacy_url, subprocessors_url, status_url, trust_url, notes,
                    created_at, updated_at, archived_at
             FROM vendors WHERE org_id = $1 ORDER BY name_key, id",
        )
        .bind(org_id)
        .fetch_all(&mut *tx)
        .await?;
        let contacts = sqlx::query_as::<_, crate::inventory::Contact>(
            "SELECT id, vendor_id, name, email, lang, role, is_primary FROM vendor_contacts
             WHERE org_id = $1 ORDER BY vendor_id, is_primary DESC, name, id",
        )
        .bind(org_id)
        .fetch_all(&mut *tx)
        .await?;
        let services = sqlx::query_as::<_, crate::inventory::Service>(
            "SELECT id, name, purpose, vendor_id, integrator_id, model_provider_id, inference_host_id, model, engine,
                    deployment, owner_id, status, dpa_signed_on, dpa_url, notice_hours, notice_channel,
                    authority_notifier, created_at, updated_at, archived_at, engine_kind, engine_version, engine_source
             FROM services WHERE org_id = $1 ORDER BY name_key, id",
        )
        .bind(org_id)
        .fetch_all(&mut *tx)
        .await?;
        let classes: Vec<(Uuid, Uuid)> = sqlx::query_as(
            "SELECT d.service_id, d.data_class_id FROM service_data_classes d
               JOIN data_classes c ON c.org_id = d.org_id AND c.id = d.data_class_id
             WHERE d.org_id = $1 ORDER BY c.position, c.name_key",
        )
        .bind(org_id)
        .fetch_all(&mut *tx)
        .await?;
        #[derive(sqlx::FromRow)]
        struct FindingRow {
            service_id: Uuid,
            #[sqlx(flatten)]
            finding: crate::inventory::Finding,
        }
        let findings = sqlx::query_as::<_, FindingRow>(
            "SELECT service_id, topic, status, summary, source_url, checked_on, updated_at FROM findings
             WHERE org_id = $1 ORDER BY service_id, topic",
        )
        .bind(org_id)
        .fetch_all(&mut *tx)
        .await?;
        let assessments = sqlx::query_as::<_, AssessmentRow>(
            "SELECT id AS service_id, assessment, assessment_note FROM services WHERE org_id = $1",
        )
        .bind(org_id)
        .fetch_all(&mut *tx)
        .await?;
        let requests = sqlx::query_as::<_, RequestRow>(&format!("{REQUEST_COLUMNS} WHERE r.org_id = $1 ORDER BY r.sent_at, r.id"))
            .bind(org_id)
            .fetch_all(&mut *tx)
            .await?;
        let request_services: Vec<(Uuid, Uuid)> = sqlx::query_as(
            "SELECT request_id, service_id FROM question_request_services WHERE org_id = $1 ORDER BY request_id, position",
        )
        .bind(org_id)
        .fetch_all(&mut *tx)
        .await?;
        let request_message_ids: Vec<(Uuid, String)> = sqlx::query_as(
            "SELECT r.id, o.message_id FROM question_requests r JOIN outbox o ON o.org_id = r.org_id AND o.id = r.mail_id
             WHERE r.org_id = $1",
        )
        .bind(org_id)
        .fetch_all(&mut *tx)
        .await?;
        #[derive(sqlx::FromRow)]
        struct ItemRow {
            request_id: Uuid,
            #[sqlx(flatten)]
            item: Item,
        }
        let items = sqlx::query_as::<_, ItemRow>(
            "SELECT request_id, position, code, question, why, earlier_answer, earlier_note, answer, review, review_note, reviewed_by, reviewed_at
             FROM question_items WHERE org_id = $1 ORDER BY request_id, position",
        )
        .bind(org_id)
        .fetch_all(&mut *tx)
        .await?;
        #[derive(sqlx::FromRow)]
        struct AttachmentRow {
            request_id: Uuid,
            #[sqlx(flatten)]
            info: AttachmentInfo,
        }
        let attachments = sqlx::query_as::<_, AttachmentRow>(
            "SELECT request_id, id, filename, media_type, CAST(size AS BIGINT) AS size, uploaded_at, uploaded_by
             FROM attachments WHERE org_id = $1 ORDER BY uploaded_at, id",
        )
        .bind(org_id)
        .fetch_all(&mut *tx)
        .await?;
        let events = sqlx::query_as::<_, EventRecord>(
            "SELECT at, service_id, request_id, kind, actor, detail FROM question_events WHERE org_id = $1 ORDER BY at, id",
        )
        .bind(org_id)
        .fetch_all(&mut *tx)
        .await?;
        let follow_ups = sqlx::query_as::<_, FollowUpRecord>(
            "SELECT id, service_id, request_id, reason, status, due_on, note, sequence, created_at, closed_at, closed_by
             FROM follow_ups WHERE org_id = $1 ORDER BY due_on, created_at, id",
        )
        .bind(org_id)
        .fetch_all(&mut *tx)
        .await?;
        let mails = sqlx::query_as::<_, MailRecord>(&format!(
            "{MAIL_COLUMNS} WHERE org_id = $1 AND kind IN ('questions', 'reminder') ORDER BY created_at, id"
        ))
        .bind(org_id)
        .fetch_all(&mut *tx)
        .await?;
        let audit = sqlx::query_as::<_, AuditEntry>(
            "SELECT at, actor_label, action, detail FROM audit_log WHERE org_id = $1 ORDER BY at, id",
        )
        .bind(org_id)
        .fetch_all(&mut *tx)
        .await?;
        let clearances = sqlx::query_as::<_, crate::clearance::ClearanceRow>(&format!(
            "{CLEARANCE_COLUMNS} WHERE k.org_id = $1 ORDER BY k.service_id, k.data_class_id"
        ))
        .bind(org_id)
        .fetch_all(&mut *tx)
        .await?;
        let incidents = sqlx::query_as::<_, crate::incident::IncidentRow>(&format!(
            "{INCIDENT_COLUMNS} WHERE i.org_id = $1 ORDER BY i.we_aware_at, i.id"
        ))
        .bind(org_id)
        .fetch_all(&mut *tx)
        .await?;
        let incident_links = |link: &str, table: &str, column: &str, order: &str| {
            format!(
                "SELECT l.incident_id, l.{column} FROM {link} l JOIN {table} x ON x.org_id = l.org_id AND x.id = l.{column}
                 WHERE l.org_id = $1 ORDER BY l.incident_id, {order}, x.id"
            )
        };
        let incident_vendors: Vec<(Uuid, Uuid)> =
            sqlx::query_as(&incident_links("incident_vendors", "vendors", "vendor_id", "x.name_key"))
                .bind(org_id)
                .fetch_all(&mut *tx)
                .await?;
        let incident_services: Vec<(Uuid, Uuid, Ts)> = sqlx::query_as(
            "SELECT l.incident_id, l.service_id, l.linked_at FROM incident_services l
               JOIN services x ON x.org_id = l.org_id AND x.id = l.service_id
             WHERE l.org_id = $1 ORDER BY l.incident_id, x.name_key, x.id",
        )
        .bind(org_id)
        .fetch_all(&mut *tx)
        .await?;
        let incident_data_classes: Vec<(Uuid, Uuid)> = sqlx::query_as(&incident_links(
            "incident_data_classes",
            "data_classes",
            "data_class_id",
            "x.position, x.name_key",
        ))
        .bind(org_id)
        .fetch_all(&mut *tx)
        .await?;
        let incident_entries = sqlx::query_as::<_, IncidentEntryRecord>(
            "SELECT incident_id, kind, detail, actor, at FROM incident_entries WHERE org_id = $1
             ORDER BY incident_id, seq, id",
        )
        .bind(org_id)
        .fetch_all(&mut *tx)
        .await?;
        let policy_reviewed: Option<(Ts, String)> = sqlx::query_as(
            "SELECT policy_reviewed_at, policy_reviewed_by FROM orgs
             WHERE id = $1 AND policy_reviewed_at IS NOT NULL AND policy_reviewed_by IS NOT NULL",
        )
        .bind(org_id)
        .fetch_optional(&mut *tx)
        .await?;
        let advisories = sqlx::query_as::<_, crate::advisory::StoredAdvisory>(
            "SELECT id, osv, imported_by, imported_at FROM advisories WHERE org_id = $1 ORDER BY id",
        )
        .bind(org_id)
        .fetch_all(&mut *tx)
        .await?;
        let advisory_hits = sqlx::query_as::<_, crate::advisory::HitRow>(
            "SELECT service_id, advisory_id, exposure, fixed FROM advisory_hits WHERE org_id = $1
             ORDER BY service_id, advisory_id",
        )
        .bind(org_id)
        .fetch_all(&mut *tx)
        .await?;
        tx.commit().await?;

        let mut details: std::collections::HashMap<Uuid, crate::inventory::ServiceDetail> = std::collections::HashMap::new();
        let order: Vec<Uuid> = services.iter().map(|s| s.id.0).collect();
        for service in services {
            details.insert(
                service.id.0,
                crate::inventory::ServiceDetail { service, data_classes: Vec::new(), findings: Vec::new() },
            );
        }
        for (service, class) in classes {
            if let Some(d) = details.get_mut(&service) {
                d.data_classes.push(DataClassId(class));
            }
        }
        for row in findings {
            if let Some(d) = details.get_mut(&row.service_id) {
                d.findings.push(row.finding);
            }
        }
        Ok(ReportRows {
            policy_reviewed: policy_reviewed.map(|(at, by)| (at.0, by)),
            advisories,
            advisory_hits,
            clearances,
            incidents: IncidentRecords {
                rows: incidents,
                vendors: incident_vendors.into_iter().map(|(i, v)| (IncidentId(i), VendorId(v))).collect(),
                services: incident_services.into_iter().map(|(i, s, at)| (IncidentId(i), (ServiceId(s), at.0))).collect(),
                data_classes: incident_data_classes.into_iter().map(|(i, c)| (IncidentId(i), DataClassId(c))).collect(),
                entries: incident_entries,
            },
            org,
            members,
            policy,
            question_set,
            data_classes,
            vendors,
            contacts,
            services: order.into_iter().filter_map(|id| details.remove(&id)).collect(),
            assessments,
            requests,
            request_services: request_services.into_iter().map(|(r, s)| (RequestId(r), ServiceId(s))).collect(),
            request_message_ids: request_message_ids.into_iter().map(|(r, m)| (RequestId(r), m)).collect(),
            items: items.into_iter().map(|i| (RequestId(i.request_id), i.item)).collect(),
            attachments: attachments.into_iter().map(|a| (RequestId(a.request_id), a.info)).collect(),
            events,
            follow_ups,
            mails,
            audit,
        })
    }

    async fn report_exports(&self, t: &Tenant, limit: i64) -> Result<Vec<AuditEntry>> {
        let mut tx = self.read(Scope::Tenant(t)).await?;
        let rows = sqlx::query_as::<_, AuditEntry>(
            "SELECT at, actor_label, action, detail FROM audit_log WHERE org_id = $1 AND action = 'report.exported'
             ORDER BY at DESC, id LIMIT $2",
        )
        .bind(t.org_id().0)
        .bind(limit)
        .fetch_all(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(rows)
    }
}
