// The queries of engine advisories, shared by SQLite and PostgreSQL like
// `shared.rs` (included after it).

use crate::advisory::{AdvisoryCounts, AdvisoryStore, EngineInput, HitRow, StoredAdvisory};

/// Services exposed to an advisory, and those whose exposure is unknown,
/// as one row (`$1` the organisation): a pass over the services, whose
/// flags [`ThisStore::write_hits`] keeps with their hits.
const ADVISORY_COUNTS: &str = "SELECT COALESCE(SUM(CASE WHEN s.advisory_affected THEN 1 ELSE 0 END), 0) AS affected,
        COALESCE(SUM(CASE WHEN s.advisory_unknown THEN 1 ELSE 0 END), 0) AS exposure_unknown
 FROM services s WHERE s.org_id = $1 AND s.archived_at IS NULL AND s.status <> 'retired'";

/// How many services in use advisories hit, inside `tx`.
async fn advisory_counts_in(tx: &mut Tx, org: OrgId) -> Result<AdvisoryCounts> {
    let (affected, unknown): (i64, i64) = sqlx::query_as(ADVISORY_COUNTS).bind(org.0).fetch_one(&mut **tx).await?;
    Ok(AdvisoryCounts { affected, unknown })
}

async fn service_hits_in(tx: &mut Tx, org: OrgId, service: ServiceId) -> Result<Vec<HitRow>> {
    let (n,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM services WHERE org_id = $1 AND id = $2")
        .bind(org.0)
        .bind(service.0)
        .fetch_one(&mut **tx)
        .await?;
    if n == 0 {
        return Err(StoreError::NotFound);
    }
    let rows = sqlx::query_as::<_, HitRow>(
        "SELECT service_id, advisory_id, exposure, fixed FROM advisory_hits
         WHERE org_id = $1 AND service_id = $2 ORDER BY exposure, advisory_id",
    )
    .bind(org.0)
    .bind(service.0)
    .fetch_all(&mut **tx)
    .await?;
    Ok(rows)
}

#[async_trait::async_trait]
impl AdvisoryStore for ThisStore {
    async fn carry_over_engines(&self, org: OrgId) -> Result<u64> {
        let mut tx = self.write(Scope::Org(org, None)).await?;
        let rows: Vec<(Uuid, Option<String>)> = sqlx::query_as(
            "SELECT id, engine FROM services WHERE org_id = $1 AND NOT engine_parsed",
        )
        .bind(org.0)
        .fetch_all(&mut *tx)
        .await?;
        let mut filled = 0;
        for (id, text) in rows {
            let parsed = text.as_deref().and_then(aivet_domain::advisory::parse_engine);
            let (kind, version) = match &parsed {
                Some((k, v)) => (Some(k.as_str()), v.as_deref()),
                None => (None, None),
            };
            sqlx::query(
                "UPDATE services SET engine_parsed = true,
                     engine_kind = COALESCE(engine_kind, $3), engine_version = COALESCE(engine_version, $4)
                 WHERE org_id = $1 AND id = $2",
            )
            .bind(org.0)
            .bind(id)
            .bind(kind)
            .bind(version)
            .execute(&mut *tx)
            .await?;
            filled += u64::from(parsed.is_some());
        }
        tx.commit().await?;
        Ok(filled)
    }

    async fn engine_inputs(&self, org: OrgId, only: Option<ServiceId>) -> Result<Vec<EngineInput>> {
        let mut tx = self.read(Scope::Org(org, None)).await?;
        let rows = sqlx::query_as::<_, EngineInput>(
            "SELECT id AS service_id, engine_kind, engine_version FROM services
             WHERE org_id = $1 AND archived_at IS NULL AND engine_kind IS NOT NULL AND ($2 IS NULL OR id = $2)",
        )
        .bind(org.0)
        .bind(only.map(|s| s.0))
        .fetch_all(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(rows)
    }

    async fn org_advisories(&self, org: OrgId) -> Result<Vec<StoredAdvisory>> {
        let mut tx = self.read(Scope::Org(org, None)).await?;
        let rows = sqlx::query_as::<_, StoredAdvisory>(
            "SELECT id, osv, imported_by, imported_at FROM advisories WHERE org_id = $1 ORDER BY id",
        )
        .bind(org.0)
        .fetch_all(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(rows)
    }

    async fn import_advisories(&self, t: &Tenant, records: &[(String, String)], event: AuditEvent, now: DateTime<Utc>) -> Result<()> {
        let org = t.org_id();
        let mut tx = self.write(Scope::Tenant(t)).await?;
        let actor = user_name(&mut tx, t.user_id()).await?;
        for (id, osv) in records {
            sqlx::query(
                "INSERT INTO advisories (org_id, id, osv, imported_by, imported_at) VALUES ($1, $2, $3, $4, $5)
                 ON CONFLICT (org_id, id) DO UPDATE SET osv = excluded.osv, imported_by = excluded.imported_by,
                     imported_at = excluded.imported_at",
            )
            .bind(org.0)
            .bind(id)
            .bind(osv)
            .bind(&actor)
            .bind(Ts::from(now))
            .execute(&mut *tx)
            .await?;
        }
        insert_audit(&mut tx, org, Some(t.user_id()), &event, now).await?;
        tx.commit().await?;
        Ok(())
    }

    async fn write_hits(&self, org: OrgId, only: Option<ServiceId>, hits: &[HitRow], catalogue: &str) -> Result<()> {
        let mut tx = self.write(Scope::Org(org, None)).await?;
        sqlx::query("DELETE FROM advisory_hits WHERE org_id = $1 AND ($2 IS NULL OR service_id = $2)")
            .bind(org.0)
            .bind(only.map(|s| s.0))
            .execute(&mut *tx)
            .await?;
        // Many rows per statement: thousands of hits are written at once.
        for chunk in statement_chunks(hits) {
            // `WHERE true` keeps SQLite from reading `ON CONFLICT` as a join's `ON`.
            let sql = many_params(format!(
                "INSERT INTO advisory_hits (org_id, service_id, advisory_id, exposure, fixed)
                 SELECT $1, column1, column2, column3, column4 FROM {} WHERE true
                 ON CONFLICT (org_id, service_id, advisory_id) DO NOTHING",
                rows_table(chunk.len(), 4, 2)
            ));
            let q = sqlx::query(&sql).persistent(chunk_cached(chunk.len())).bind(org.0);
            bind_rows!(q, chunk, |h| h.service_id.0, h.advisory_id.as_str(), h.exposure.as_str(), h.fixed.as_deref())
                .execute(&mut *tx)
                .await?;
        }
        // The services' flags follow their hits (what the dashboard counts).
        sqlx::query(
            "UPDATE services SET hits_stale = false,
                 advisory_affected = EXISTS (SELECT 1 FROM advisory_hits h
                     WHERE h.org_id = services.org_id AND h.service_id = services.id AND h.exposure = 'affected'),
                 advisory_unknown = EXISTS (SELECT 1 FROM advisory_hits h
                     WHERE h.org_id = services.org_id AND h.service_id = services.id AND h.exposure = 'unknown')
             WHERE org_id = $1 AND ($2 IS NULL OR id = $2)",
        )
            .bind(org.0)
            .bind(only.map(|s| s.0))
            .execute(&mut *tx)
            .await?;
        if only.is_none() {
            sqlx::query("UPDATE orgs SET advisories_matched = $2 WHERE id = $1")
                .bind(org.0)
                .bind(catalogue)
                .execute(&mut *tx)
                .await?;
        }
        tx.commit().await?;
        Ok(())
    }

    async fn service_hits(&self, t: &Tenant, service: ServiceId) -> Result<Vec<HitRow>> {
        let mut tx = self.read(Scope::Tenant(t)).await?;
        let r = service_hits_in(&mut tx, t.org_id(), service).await?;
        tx.commit().await?;
        Ok(r)
    }

    async fn advisory_counts(&self, t: &Tenant) -> Result<AdvisoryCounts> {
        let mut tx = self.read(Scope::Tenant(t)).await?;
        let n = advisory_counts_in(&mut tx, t.org_id()).await?;
        tx.commit().await?;
        Ok(n)
    }

    async fn orgs_to_rematch(&self, catalogue: &str) -> Result<Vec<OrgId>> {
        let mut tx = self.read(Scope::System).await?;
        let rows: Vec<(Uuid,)> = sqlx::query_as(
            "SELECT id FROM orgs WHERE advisories_matched IS NULL OR advisories_matched <> $1
                OR EXISTS (SELECT 1 FROM services s WHERE s.org_id = orgs.id AND s.hits_stale)",
        )
        .bind(catalogue)
        .fetch_all(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(rows.into_iter().map(|(u,)| OrgId(u)).collect())
    }
}
