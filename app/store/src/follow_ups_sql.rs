// The queries of follow-ups, shared by SQLite and PostgreSQL like
// `shared.rs` (included after it).

use crate::follow_ups::{
    BoardData, CalendarFeed, DigestCandidate, DigestTarget, FollowUpCounts, FollowUpQuery, FollowUpRow, FollowUpStore, MyFollowUpSettings,
};
use aivet_domain::follow_ups::Policy;
use chrono::NaiveDate;
use aivet_domain::FollowUpId;

const FOLLOW_UP_COLUMNS: &str = "SELECT f.id, f.service_id, s.name AS service_name, s.vendor_id, v.name AS vendor_name,
        s.owner_id, u.name AS owner_name, f.request_id, r.recipient_email, f.reason, f.status, f.due_on, f.note,
        f.sequence, f.updated_at";

/// The same columns as one JSON array per follow-up (SQLite, ids as hex),
/// for `json_group_array`: see [`ThisStore::LISTS_AS_JSON`].
const FOLLOW_UP_JSON: &str = "json_array(hex(f.id), hex(f.service_id), s.name, hex(s.vendor_id), v.name,
        hex(s.owner_id), u.name, hex(f.request_id), r.recipient_email, f.reason, f.status, f.due_on, f.note,
        f.sequence, f.updated_at)";

const FOLLOW_UP_FROM: &str = "FROM follow_ups f
    JOIN services s ON s.org_id = f.org_id AND s.id = f.service_id
    JOIN vendors v ON v.org_id = s.org_id AND v.id = s.vendor_id
    LEFT JOIN memberships m ON m.org_id = s.org_id AND m.id = s.owner_id
    LEFT JOIN users u ON u.id = m.user_id
    LEFT JOIN question_requests r ON r.org_id = f.org_id AND r.id = f.request_id";

/// The board's order: by day, service (its name key, kept on the
/// follow-up) and reason, so that items of one day and service stand in
/// the same order on every view; the id separates what looks the same.
/// The index `follow_ups_due` has these columns, so no list is sorted.
const FOLLOW_UP_ORDER: &str = "f.due_on, f.service_key, f.reason, f.id";

/// Sets `follow_ups.service_key` from the service's name key, for
/// `UPDATE follow_ups SET … WHERE …`.
const SERVICE_KEY: &str = "service_key = (SELECT s.name_key FROM services s
    WHERE s.org_id = follow_ups.org_id AND s.id = follow_ups.service_id)";

/// The board's filter: $1 organisation, $2 owner, $3 vendor, $4 reason.
const FOLLOW_UP_FILTER: &str = "f.org_id = $1 AND f.status = 'open' AND s.archived_at IS NULL
    AND ($2 IS NULL OR s.owner_id = $2) AND ($3 IS NULL OR s.vendor_id = $3) AND ($4 IS NULL OR f.reason = $4)";

/// Which follow-ups a change closes.
#[derive(Clone, Copy)]
enum Of {
    Request(RequestId),
    Service(ServiceId),
}

/// Opens a follow-up, closing (as no longer needed) an open one of the
/// same reason for the same request or service first: one open item per
/// reason and thing.
async fn open_follow_up(
    tx: &mut Tx,
    org: OrgId,
    service: ServiceId,
    request: Option<RequestId>,
    reason: FollowUpReason,
    due_on: NaiveDate,
    now: DateTime<Utc>,
) -> Result<()> {
    let of = match request {
        Some(r) => Of::Request(r),
        None => Of::Service(service),
    };
    close_follow_ups(tx, org, of, reason, FollowUpStatus::Cancelled, "", now).await?;
    sqlx::query(
        "INSERT INTO follow_ups (id, org_id, service_id, request_id, reason, status, due_on, created_at, updated_at, service_key)
         VALUES ($1, $2, $3, $4, $5, 'open', $6, $7, $7, (SELECT name_key FROM services WHERE org_id = $2 AND id = $3))",
    )
    .bind(Uuid::new_v4())
    .bind(org.0)
    .bind(service.0)
    .bind(request.map(|r| r.0))
    .bind(reason.as_str())
    .bind(due_on)
    .bind(Ts::from(now))
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// Closes the open follow-ups of a reason for a request or service.
async fn close_follow_ups(
    tx: &mut Tx,
    org: OrgId,
    of: Of,
    reason: FollowUpReason,
    status: FollowUpStatus,
    by: &str,
    now: DateTime<Utc>,
) -> Result<u64> {
    let (column, id) = match of {
        Of::Request(r) => ("request_id", r.0),
        Of::Service(s) => ("service_id", s.0),
    };
    let r = sqlx::query(&format!(
        "UPDATE follow_ups SET status = $1, closed_at = $2, closed_by = $3, updated_at = $2, sequence = sequence + 1
         WHERE org_id = $4 AND {column} = $5 AND reason = $6 AND status = 'open'"
    ))
    .bind(status.as_str())
    .bind(Ts::from(now))
    .bind(by)
    .bind(org.0)
    .bind(id)
    .bind(reason.as_str())
    .execute(&mut **tx)
    .await?;
    Ok(r.rows_affected())
}

/// The organisation's follow-up policy, inside `tx`.
async fn policy_in(tx: &mut Tx, org: OrgId) -> Result<Policy> {
    let (reminders, max, review, months, notice): (bool, i32, i32, i32, i32) =
        sqlx::query_as("SELECT reminders, max_reminders, review_days, reassess_months, expiry_notice_days FROM orgs WHERE id = $1")
            .bind(org.0)
            .fetch_one(&mut **tx)
            .await?;
    Ok(Policy {
        reminders,
        max_reminders: max.clamp(0, i32::from(aivet_domain::follow_ups::MAX_REMINDERS)) as u8,
        review_days: review.clamp(1, 365) as u16,
        reassess_months: months.clamp(1, 120) as u16,
        expiry_notice_days: notice.clamp(1, 365) as u16,
    })
}

/// The open follow-ups that are a member's: of the services they look
/// after, and for an owner also those no one looks after; due by `until`.
async fn follow_ups_of(
    tx: &mut Tx,
    org: OrgId,
    membership: MembershipId,
    owner: bool,
    until: Option<NaiveDate>,
) -> Result<Vec<FollowUpRow>> {
    const MINE: &str = "WHERE f.org_id = $1 AND f.status = 'open' AND s.archived_at IS NULL
           AND (s.owner_id = $2 OR ($3 AND s.owner_id IS NULL)) AND ($4 IS NULL OR f.due_on <= $4)";
    if ThisStore::LISTS_AS_JSON {
        let json: String = sqlx::query_scalar(&format!(
            "SELECT json_group_array({FOLLOW_UP_JSON} ORDER BY {FOLLOW_UP_ORDER}) {FOLLOW_UP_FROM} {MINE}"
        ))
        .bind(org.0)
        .bind(membership.0)
        .bind(owner)
        .bind(until)
        .fetch_one(&mut **tx)
        .await?;
        return follow_ups_from_json(&json);
    }
    Ok(sqlx::query_as::<_, FollowUpRow>(&format!(
        "{FOLLOW_UP_COLUMNS} {FOLLOW_UP_FROM} {MINE} ORDER BY {FOLLOW_UP_ORDER}"
    ))
    .bind(org.0)
    .bind(membership.0)
    .bind(owner)
    .bind(until)
    .fetch_all(&mut **tx)
    .await?)
}

/// One follow-up of [`FOLLOW_UP_JSON`]: its columns in order, ids as hex
/// ("" for none), dates and times as text.
type FollowUpJson = (
    String,
    String,
    String,
    String,
    String,
    String,
    Option<String>,
    String,
    Option<String>,
    String,
    String,
    String,
    Option<String>,
    i32,
    String,
);

/// The follow-ups of one `json_group_array` of [`FOLLOW_UP_JSON`].
fn follow_ups_from_json(text: &str) -> Result<Vec<FollowUpRow>> {
    let json = JsonRead("a follow-up");
    let rows: Vec<FollowUpJson> = json.parse(text)?;
    rows.into_iter()
        .map(|(fid, service, service_name, vendor, vendor_name, owner, owner_name, request, recipient, reason, status, due_on, note, sequence, updated_at)| {
            Ok(FollowUpRow {
                id: FollowUpId(json.id(&fid)?),
                service_id: ServiceId(json.id(&service)?),
                service_name,
                vendor_id: VendorId(json.id(&vendor)?),
                vendor_name,
                owner_id: json.opt_id(&owner)?.map(MembershipId),
                owner_name,
                request_id: json.opt_id(&request)?.map(RequestId),
                recipient_email: recipient,
                reason: FollowUpReason::try_from(reason).map_err(StoreError::Config)?,
                status: FollowUpStatus::try_from(status).map_err(StoreError::Config)?,
                due_on: due_on.parse().map_err(|e| json.error(e))?,
                note,
                sequence,
                updated_at: json.time(&updated_at)?,
            })
        })
        .collect()
}

async fn follow_up_in(tx: &mut Tx, org: OrgId, id: FollowUpId) -> Result<FollowUpRow> {
    sqlx::query_as::<_, FollowUpRow>(&format!("{FOLLOW_UP_COLUMNS} {FOLLOW_UP_FROM} WHERE f.org_id = $1 AND f.id = $2"))
        .bind(org.0)
        .bind(id.0)
        .fetch_optional(&mut **tx)
        .await?
        .ok_or(StoreError::NotFound)
}

/// The follow-up counts as one row (`$1` the organisation, `$2` today).
const FOLLOW_UP_COUNTS: &str = "SELECT
   (SELECT COUNT(*) FROM follow_ups f JOIN services s ON s.org_id = f.org_id AND s.id = f.service_id
     WHERE f.org_id = $1 AND f.status = 'open' AND f.due_on < $2 AND s.archived_at IS NULL) AS overdue,
   (SELECT COUNT(*) FROM services s WHERE s.org_id = $1 AND s.archived_at IS NULL AND s.assessment <> 'not_asked'
     AND NOT EXISTS (SELECT 1 FROM follow_ups f WHERE f.org_id = s.org_id AND f.service_id = s.id AND f.status = 'open'))
     AS asked_without";

/// The dashboard's figures of follow-ups, inside `tx`.
async fn follow_up_counts_in(tx: &mut Tx, org: OrgId, today: NaiveDate) -> Result<FollowUpCounts> {
    let (overdue, asked_without): (i64, i64) =
        sqlx::query_as(FOLLOW_UP_COUNTS).bind(org.0).bind(today).fetch_one(&mut **tx).await?;
    Ok(FollowUpCounts { overdue, asked_without })
}

/// The board's rows: the filter's open follow-ups in the board's order, at
/// most `q.limit`.
async fn board_rows_in(tx: &mut Tx, org: OrgId, q: &FollowUpQuery) -> Result<Vec<FollowUpRow>> {
    Ok(sqlx::query_as::<_, FollowUpRow>(&format!(
        "{FOLLOW_UP_COLUMNS} {FOLLOW_UP_FROM} WHERE {FOLLOW_UP_FILTER}
         ORDER BY {FOLLOW_UP_ORDER} LIMIT $5"
    ))
    .bind(org.0)
    .bind(q.owner.map(|o| o.0))
    .bind(q.vendor.map(|v| v.0))
    .bind(q.reason.map(|r| r.as_str()))
    .bind(q.limit.map_or(i64::MAX, i64::from))
    .fetch_all(&mut **tx)
    .await?)
}

/// How many open follow-ups the filter finds, without the limit.
async fn board_count_in(tx: &mut Tx, org: OrgId, q: &FollowUpQuery) -> Result<u64> {
    let n: i64 = sqlx::query_scalar(&format!(
        "SELECT COUNT(*) FROM follow_ups f JOIN services s ON s.org_id = f.org_id AND s.id = f.service_id
         WHERE {FOLLOW_UP_FILTER}"
    ))
    .bind(org.0)
    .bind(q.owner.map(|o| o.0))
    .bind(q.vendor.map(|v| v.0))
    .bind(q.reason.map(|r| r.as_str()))
    .fetch_one(&mut **tx)
    .await?;
    Ok(n as u64)
}

/// The member's own digest choice and calendar feed state, inside `tx`.
async fn my_settings_in(tx: &mut Tx, t: &Tenant) -> Result<MyFollowUpSettings> {
    let (digest, hash, version): (String, Option<Vec<u8>>, i32) = sqlx::query_as(
        "SELECT digest, calendar_token_hash, calendar_version FROM memberships WHERE org_id = $1 AND id = $2",
    )
    .bind(t.org_id().0)
    .bind(t.membership_id().0)
    .fetch_optional(&mut **tx)
    .await?
    .ok_or(StoreError::NotFound)?;
    Ok(MyFollowUpSettings {
        digest: aivet_domain::follow_ups::Digest::try_from(digest).map_err(StoreError::Config)?,
        calendar: hash.is_some(),
        calendar_version: version,
    })
}

/// The board in one statement and one row (SQLite, see
/// [`ThisStore::LISTS_AS_JSON`]; it has no row policies to scope a
/// transaction to, and one statement reads one snapshot): the rows, the
/// vendors and the members as JSON, the count of all the filter finds
/// (which costs no more than the rows when the page is not full), and the
/// member's own settings.
async fn board_in_one_statement(pool: &sqlx::Pool<Db>, t: &Tenant, q: &FollowUpQuery) -> Result<BoardData> {
    let (rows, total, vendors, members, digest, calendar, version): (String, i64, String, String, String, bool, i32) =
        sqlx::query_as(&format!(
            "SELECT
               (SELECT json_group_array(json(b.item) ORDER BY b.due_on, b.service_key, b.reason, b.id)
                FROM (SELECT {FOLLOW_UP_JSON} AS item, f.due_on, f.service_key, f.reason, f.id {FOLLOW_UP_FROM}
                      WHERE {FOLLOW_UP_FILTER} ORDER BY {FOLLOW_UP_ORDER} LIMIT $5) AS b),
               (SELECT COUNT(*) FROM follow_ups f JOIN services s ON s.org_id = f.org_id AND s.id = f.service_id
                WHERE {FOLLOW_UP_FILTER}),
               (SELECT json_group_array(json_array(hex(id), name) ORDER BY name_key, id)
                FROM vendors WHERE org_id = $1 AND archived_at IS NULL),
               (SELECT json_group_array(json_array(hex(m.id), hex(m.user_id), u.name, u.email, m.role, m.created_at)
                  ORDER BY u.name, u.email)
                FROM memberships m JOIN users u ON u.id = m.user_id WHERE m.org_id = $1),
               me.digest, me.calendar_token_hash IS NOT NULL, me.calendar_version
             FROM memberships me WHERE me.org_id = $1 AND me.id = $6"
        ))
        .bind(t.org_id().0)
        .bind(q.owner.map(|o| o.0))
        .bind(q.vendor.map(|v| v.0))
        .bind(q.reason.map(|r| r.as_str()))
        .bind(q.limit.map_or(i64::MAX, i64::from))
        .bind(t.membership_id().0)
        .fetch_optional(pool)
        .await?
        .ok_or(StoreError::NotFound)?;
    let json = JsonRead("the board");
    let vendors: Vec<(String, String)> = json.parse(&vendors)?;
    let members: Vec<(String, String, String, String, String, String)> = json.parse(&members)?;
    Ok(BoardData {
        rows: follow_ups_from_json(&rows)?,
        total: total as u64,
        vendors: vendors
            .into_iter()
            .map(|(v, name)| Ok(crate::inventory::VendorName { id: VendorId(json.id(&v)?), name }))
            .collect::<Result<_>>()?,
        members: members
            .into_iter()
            .map(|(m, user, name, email, role, created_at)| {
                Ok(crate::Member {
                    id: MembershipId(json.id(&m)?),
                    user_id: UserId(json.id(&user)?),
                    name,
                    email,
                    role: Role::try_from(role).map_err(StoreError::Config)?,
                    created_at: json.time(&created_at)?,
                })
            })
            .collect::<Result<_>>()?,
        mine: MyFollowUpSettings {
            digest: aivet_domain::follow_ups::Digest::try_from(digest).map_err(StoreError::Config)?,
            calendar,
            calendar_version: version,
        },
    })
}

#[async_trait::async_trait]
#[allow(clippy::too_many_arguments)]
impl FollowUpStore for ThisStore {
    async fn follow_ups(&self, t: &Tenant, q: &FollowUpQuery) -> Result<Vec<FollowUpRow>> {
        let mut tx = self.read(Scope::Tenant(t)).await?;
        let rows = board_rows_in(&mut tx, t.org_id(), q).await?;
        tx.commit().await?;
        Ok(rows)
    }

    async fn count_follow_ups(&self, t: &Tenant, q: &FollowUpQuery) -> Result<u64> {
        let mut tx = self.read(Scope::Tenant(t)).await?;
        let n = board_count_in(&mut tx, t.org_id(), q).await?;
        tx.commit().await?;
        Ok(n)
    }

    async fn follow_up_board(&self, t: &Tenant, q: &FollowUpQuery) -> Result<BoardData> {
        if ThisStore::LISTS_AS_JSON {
            return board_in_one_statement(&self.pool, t, q).await;
        }
        let mut tx = self.read(Scope::Tenant(t)).await?;
        let rows = board_rows_in(&mut tx, t.org_id(), q).await?;
        let total = match q.limit {
            Some(limit) if rows.len() >= limit as usize => board_count_in(&mut tx, t.org_id(), q).await?,
            _ => rows.len() as u64,
        };
        let vendors = vendor_names_in(&mut tx, t.org_id()).await?;
        let members = members_in(&mut tx, t.org_id()).await?;
        let mine = my_settings_in(&mut tx, t).await?;
        tx.commit().await?;
        Ok(BoardData { rows, total, vendors, members, mine })
    }

    async fn follow_up(&self, t: &Tenant, id: FollowUpId) -> Result<FollowUpRow> {
        let mut tx = self.read(Scope::Tenant(t)).await?;
        let row = follow_up_in(&mut tx, t.org_id(), id).await?;
        tx.commit().await?;
        Ok(row)
    }

    async fn move_follow_up(&self, t: &Tenant, id: FollowUpId, due_on: NaiveDate, note: Option<&str>, event: AuditEvent, now: DateTime<Utc>) -> Result<()> {
        let org = t.org_id();
        let mut tx = self.write(Scope::Tenant(t)).await?;
        let f = follow_up_in(&mut tx, org, id).await?;
        if f.status != FollowUpStatus::Open {
            return Err(StoreError::Closed);
        }
        sqlx::query(
            "UPDATE follow_ups SET due_on = $3, note = COALESCE($4, note), sequence = sequence + 1, updated_at = $5
             WHERE org_id = $1 AND id = $2",
        )
        .bind(org.0)
        .bind(id.0)
        .bind(due_on)
        .bind(note)
        .bind(Ts::from(now))
        .execute(&mut *tx)
        .await?;
        let actor = user_name(&mut tx, t.user_id()).await?;
        let entry = Event::FollowUpMoved { reason: f.reason, due_on, note: note.map(str::to_owned) };
        insert_event(&mut tx, org, f.service_id, f.request_id, &entry, &actor, now).await?;
        insert_audit(&mut tx, org, Some(t.user_id()), &event, now).await?;
        tx.commit().await?;
        Ok(())
    }

    async fn finish_follow_up(&self, t: &Tenant, id: FollowUpId, event: AuditEvent, now: DateTime<Utc>) -> Result<()> {
        let org = t.org_id();
        let mut tx = self.write(Scope::Tenant(t)).await?;
        let f = follow_up_in(&mut tx, org, id).await?;
        if f.status != FollowUpStatus::Open {
            return Err(StoreError::Closed);
        }
        let actor = user_name(&mut tx, t.user_id()).await?;
        sqlx::query(
            "UPDATE follow_ups SET status = 'done', closed_at = $3, closed_by = $4, updated_at = $3, sequence = sequence + 1
             WHERE org_id = $1 AND id = $2",
        )
        .bind(org.0)
        .bind(id.0)
        .bind(Ts::from(now))
        .bind(&actor)
        .execute(&mut *tx)
        .await?;
        insert_event(&mut tx, org, f.service_id, f.request_id, &Event::FollowUpDone { reason: f.reason }, &actor, now).await?;
        insert_audit(&mut tx, org, Some(t.user_id()), &event, now).await?;
        tx.commit().await?;
        Ok(())
    }

    async fn follow_up_policy(&self, t: &Tenant) -> Result<Policy> {
        let mut tx = self.read(Scope::Tenant(t)).await?;
        let p = policy_in(&mut tx, t.org_id()).await?;
        tx.commit().await?;
        Ok(p)
    }

    async fn set_follow_up_policy(&self, t: &Tenant, p: &Policy, event: AuditEvent, now: DateTime<Utc>) -> Result<()> {
        let mut tx = self.write(Scope::Tenant(t)).await?;
        sqlx::query(
            "UPDATE orgs SET reminders = $2, max_reminders = $3, review_days = $4, reassess_months = $5,
                             expiry_notice_days = $6 WHERE id = $1",
        )
        .bind(t.org_id().0)
        .bind(p.reminders)
        .bind(i32::from(p.max_reminders))
        .bind(i32::from(p.review_days))
        .bind(i32::from(p.reassess_months))
        .bind(i32::from(p.expiry_notice_days))
        .execute(&mut *tx)
        .await?;
        insert_audit(&mut tx, t.org_id(), Some(t.user_id()), &event, now).await?;
        tx.commit().await?;
        Ok(())
    }

    async fn follow_up_counts(&self, t: &Tenant, today: NaiveDate) -> Result<FollowUpCounts> {
        let mut tx = self.read(Scope::Tenant(t)).await?;
        let n = follow_up_counts_in(&mut tx, t.org_id(), today).await?;
        tx.commit().await?;
        Ok(n)
    }

    async fn my_follow_ups(&self, t: &Tenant, until: Option<NaiveDate>) -> Result<Vec<FollowUpRow>> {
        let mut tx = self.read(Scope::Tenant(t)).await?;
        let rows = follow_ups_of(&mut tx, t.org_id(), t.membership_id(), t.role() == Role::Owner, until).await?;
        tx.commit().await?;
        Ok(rows)
    }

    async fn my_follow_up_settings(&self, t: &Tenant) -> Result<MyFollowUpSettings> {
        let mut tx = self.read(Scope::Tenant(t)).await?;
        let mine = my_settings_in(&mut tx, t).await?;
        tx.commit().await?;
        Ok(mine)
    }

    async fn set_digest(&self, t: &Tenant, digest: aivet_domain::follow_ups::Digest) -> Result<()> {
        let mut tx = self.write(Scope::Tenant(t)).await?;
        sqlx::query("UPDATE memberships SET digest = $3 WHERE org_id = $1 AND id = $2")
            .bind(t.org_id().0)
            .bind(t.membership_id().0)
            .bind(digest.as_str())
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(())
    }

    async fn set_calendar(&self, t: &Tenant, token_hash: Option<&[u8]>, version: i32, event: AuditEvent, now: DateTime<Utc>) -> Result<()> {
        let mut tx = self.write(Scope::Tenant(t)).await?;
        sqlx::query("UPDATE memberships SET calendar_token_hash = $3, calendar_version = $4 WHERE org_id = $1 AND id = $2")
            .bind(t.org_id().0)
            .bind(t.membership_id().0)
            .bind(token_hash)
            .bind(version)
            .execute(&mut *tx)
            .await?;
        insert_audit(&mut tx, t.org_id(), Some(t.user_id()), &event, now).await?;
        tx.commit().await?;
        Ok(())
    }

    async fn calendar_feed(&self, token_hash: &[u8]) -> Result<Option<CalendarFeed>> {
        let mut tx = self.read(Scope::CalendarToken(token_hash)).await?;
        let row: Option<(Uuid, Uuid, Uuid, String)> = sqlx::query_as(
            "SELECT id, org_id, user_id, role FROM memberships WHERE calendar_token_hash = $1",
        )
        .bind(token_hash)
        .fetch_optional(&mut *tx)
        .await?;
        let Some((id, org, user, role)) = row else {
            tx.commit().await?;
            return Ok(None);
        };
        let (org, role) = (OrgId(org), Role::try_from(role).map_err(StoreError::Config)?);
        // The rest in the same transaction, scoped to the member's
        // organisation from here on.
        Self::rescope(&mut tx, Scope::Org(org, Some(UserId(user)))).await?;
        let (org_name, lang): (String, String) = sqlx::query_as(
            "SELECT o.name, u.lang FROM orgs o, users u WHERE o.id = $1 AND u.id = $2",
        )
        .bind(org.0)
        .bind(user)
        .fetch_one(&mut *tx)
        .await?;
        let rows = follow_ups_of(&mut tx, org, MembershipId(id), role == Role::Owner, None).await?;
        tx.commit().await?;
        let lang = aivet_domain::Lang::try_from(lang).map_err(StoreError::Config)?;
        Ok(Some(CalendarFeed { org_name, lang, rows }))
    }

    async fn digest_candidates(&self) -> Result<Vec<DigestCandidate>> {
        let mut tx = self.read(Scope::System).await?;
        let rows: Vec<(Uuid, Uuid, String, String)> = sqlx::query_as(
            "SELECT m.org_id, m.id, m.digest, o.time_zone FROM memberships m JOIN orgs o ON o.id = m.org_id
             WHERE m.digest <> 'off' ORDER BY m.org_id, m.id",
        )
        .fetch_all(&mut *tx)
        .await?;
        tx.commit().await?;
        rows.into_iter()
            .map(|(org, id, digest, zone)| {
                Ok(DigestCandidate {
                    org_id: OrgId(org),
                    membership: MembershipId(id),
                    digest: aivet_domain::follow_ups::Digest::try_from(digest).map_err(StoreError::Config)?,
                    zone: Zone::try_from(zone).map_err(StoreError::Config)?,
                })
            })
            .collect()
    }

    async fn digest_target(&self, org: OrgId, membership: MembershipId, day: NaiveDate) -> Result<Option<DigestTarget>> {
        let mut tx = self.read(Scope::Org(org, None)).await?;
        let row: Option<(String, String, String, String, String, String, String)> = sqlx::query_as(
            "SELECT u.email, u.name, u.lang, m.role, m.digest, o.name, o.time_zone
             FROM memberships m JOIN users u ON u.id = m.user_id JOIN orgs o ON o.id = m.org_id
             WHERE m.org_id = $1 AND m.id = $2",
        )
        .bind(org.0)
        .bind(membership.0)
        .fetch_optional(&mut *tx)
        .await?;
        let Some((email, name, lang, role, digest, org_name, zone)) = row else {
            tx.commit().await?;
            return Ok(None);
        };
        let digest = aivet_domain::follow_ups::Digest::try_from(digest).map_err(StoreError::Config)?;
        let owner = Role::try_from(role).map_err(StoreError::Config)? == Role::Owner;
        let items = follow_ups_of(&mut tx, org, membership, owner, Some(digest.horizon(day))).await?;
        tx.commit().await?;
        Ok(Some(DigestTarget {
            email,
            name,
            lang: Lang::try_from(lang).map_err(StoreError::Config)?,
            org_name,
            zone: Zone::try_from(zone).map_err(StoreError::Config)?,
            digest,
            items,
        }))
    }
}
