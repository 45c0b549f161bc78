// The queries SQLite and PostgreSQL share, written once. This file is included
// by `sqlite.rs` and `postgres.rs`, each of which first defines `Db` (the sqlx
// database), `ThisStore` (its store type) and the inherent helpers used here:
// `read` / `write` (begin a transaction with its tenant scope) and `rescope`.
// Placeholders are `$n`, which both databases accept.

use crate::MailOutcome;
use crate::{
    AuditEntry, AuditEvent, ClaimedMail, Credentials, Invite, MailRecord, Member, NewMail, NewUser, OpenInvite, Org,
    OrgMembership, OrgMenu, SessionRecord, SessionView, Store, Tenant, Ts, User,
};
use aivet_domain::{Email, InviteId, Lang, MailId, MembershipId, OrgId, OrgName, Role, Slug, UserId, Zone};
use chrono::{DateTime, Utc};
use sqlx::Transaction;
use uuid::Uuid;

type Tx = Transaction<'static, Db>;

/// Reads what a statement returned as JSON text instead of rows (SQLite's
/// lists, see `LISTS_AS_JSON`, and the dashboard's clocks on both): ids as
/// hex or hyphenated, times as RFC 3339 text; `what` names the read in an
/// error.
struct JsonRead(&'static str);

impl JsonRead {
    fn error(&self, e: impl std::fmt::Display) -> StoreError {
        StoreError::Config(format!("{} read as JSON: {e}", self.0))
    }

    fn parse<T: serde::de::DeserializeOwned>(&self, json: &str) -> Result<T> {
        serde_json::from_str(json).map_err(|e| self.error(e))
    }

    fn id(&self, hex: &str) -> Result<Uuid> {
        Uuid::try_parse(hex).map_err(|e| self.error(e))
    }

    /// An id that may be missing: `""` for none.
    fn opt_id(&self, hex: &str) -> Result<Option<Uuid>> {
        if hex.is_empty() {
            Ok(None)
        } else {
            self.id(hex).map(Some)
        }
    }

    fn time(&self, text: &str) -> Result<DateTime<Utc>> {
        Ok(DateTime::parse_from_rfc3339(text).map_err(|e| self.error(e))?.with_timezone(&Utc))
    }

    fn opt_time(&self, text: Option<&str>) -> Result<Option<DateTime<Utc>>> {
        text.map(|t| self.time(t)).transpose()
    }
}

fn unique_violation(e: &sqlx::Error) -> bool {
    matches!(e, sqlx::Error::Database(d) if d.is_unique_violation())
}

async fn insert_user(tx: &mut Tx, user: &NewUser, now: DateTime<Utc>) -> Result<User> {
    let id = Uuid::new_v4();
    let res = sqlx::query(
        "INSERT INTO users (id, email, name, password_hash, lang, created_at, password_changed_at)
         VALUES ($1, $2, $3, $4, $5, $6, $6)",
    )
    .bind(id)
    .bind(user.email.as_str())
    .bind(user.name.as_str())
    .bind(&user.password_hash)
    .bind(user.lang.code())
    .bind(Ts::from(now))
    .execute(&mut **tx)
    .await;
    match res {
        Err(e) if unique_violation(&e) => return Err(StoreError::EmailTaken),
        r => r?,
    };
    Ok(User {
        id: UserId(id),
        email: user.email.as_str().to_owned(),
        name: user.name.as_str().to_owned(),
        lang: user.lang,
        created_at: Ts::from(now).0,
    })
}

/// Inserts an organisation under the first free slug of `base`, `base-2`, …,
/// with the default data classes named in `lang`.
async fn insert_org(tx: &mut Tx, id: OrgId, name: &OrgName, base: &Slug, lang: Lang, now: DateTime<Utc>) -> Result<()> {
    for n in 1u32.. {
        let slug = if n == 1 { base.clone() } else { base.with_suffix(n) };
        let inserted: Option<(Uuid,)> = sqlx::query_as(
            "INSERT INTO orgs (id, slug, name, created_at, time_zone) VALUES ($1, $2, $3, $4, $5)
             ON CONFLICT (slug) DO NOTHING RETURNING id",
        )
        .bind(id.0)
        .bind(slug.as_str())
        .bind(name.as_str())
        .bind(Ts::from(now))
        .bind(Zone::default_for(lang).name())
        .fetch_optional(&mut **tx)
        .await?;
        if inserted.is_some() {
            return insert_default_data_classes(tx, id, lang).await;
        }
        if n > 10_000 {
            break;
        }
    }
    Err(StoreError::Config("no free organisation slug".into()))
}

async fn insert_membership(tx: &mut Tx, org: OrgId, user: UserId, role: Role, now: DateTime<Utc>) -> Result<Tenant> {
    let id = Uuid::new_v4();
    let res = sqlx::query("INSERT INTO memberships (id, org_id, user_id, role, created_at) VALUES ($1, $2, $3, $4, $5)")
        .bind(id)
        .bind(org.0)
        .bind(user.0)
        .bind(role.as_str())
        .bind(Ts::from(now))
        .execute(&mut **tx)
        .await;
    match res {
        Err(e) if unique_violation(&e) => Err(StoreError::AlreadyMember),
        Err(e) => Err(e.into()),
        Ok(_) => Ok(Tenant::new(org, user, MembershipId(id), role, org_zone(tx, org).await?)),
    }
}

/// The organisation's members by name, inside `tx`.
async fn members_in(tx: &mut Tx, org: OrgId) -> Result<Vec<Member>> {
    Ok(sqlx::query_as::<_, Member>(&format!("{MEMBER_COLUMNS} WHERE m.org_id = $1 ORDER BY u.name, u.email"))
        .bind(org.0)
        .fetch_all(&mut **tx)
        .await?)
}

async fn org_zone(tx: &mut Tx, org: OrgId) -> Result<Zone> {
    let (zone,): (String,) = sqlx::query_as("SELECT time_zone FROM orgs WHERE id = $1").bind(org.0).fetch_one(&mut **tx).await?;
    Zone::try_from(zone).map_err(StoreError::Config)
}

/// `$from, $from+1, …`: `n` parameters.
fn param_list(n: usize, from: usize) -> String {
    (from..from + n).map(|i| format!("${i}")).collect::<Vec<_>>().join(", ")
}

/// The text of a statement with many parameters, written with `$N` as
/// both databases read it, in the form the database parses and binds
/// fastest. On SQLite (see [`ThisStore::ANONYMOUS_PARAMS`]) parameters
/// that stand in the text in their order, each once, become anonymous `?`
/// (the driver binds those in order), others `?N`, which SQLite reads as
/// the number N. In a profile of the reminder sweep the lookups of `$N`
/// by name were 13 % of the process's CPU samples (BENCHMARKS.md,
/// 2026-12-07 morning). Text between single quotes is left alone.
fn many_params(sql: String) -> String {
    if !ThisStore::ANONYMOUS_PARAMS {
        return sql;
    }
    // The parameters in the order of the text: where each starts and ends,
    // and its number.
    let bytes = sql.as_bytes();
    let mut params = Vec::new();
    let (mut i, mut quoted) = (0, false);
    while i < bytes.len() {
        match bytes[i] {
            b'\'' => quoted = !quoted,
            b'$' if !quoted => {
                let end = (i + 1..bytes.len()).find(|&j| !bytes[j].is_ascii_digit()).unwrap_or(bytes.len());
                if end > i + 1 {
                    params.push((i, end, &sql[i + 1..end]));
                    i = end;
                    continue;
                }
            }
            _ => {}
        }
        i += 1;
    }
    let in_order = params.iter().enumerate().all(|(k, (_, _, n))| n.parse::<usize>().ok() == Some(k + 1));
    let mut out = String::with_capacity(sql.len());
    let mut from = 0;
    for (start, end, n) in &params {
        out.push_str(&sql[from..*start]);
        out.push('?');
        if !in_order {
            out.push_str(n);
        }
        from = *end;
    }
    out.push_str(&sql[from..]);
    out
}

/// The rows `sql` selects for some ids of the organisation: `sql` binds
/// the organisation as `$1` and has `IN ({ids})` where the ids go (as the
/// backend takes them, see [`ids_in`]). An id given twice counts once,
/// as it would in one statement, even when its two places fall into
/// different chunks.
async fn fetch_for_ids<T>(tx: &mut Tx, sql: &str, org: OrgId, ids: &[Uuid]) -> Result<Vec<T>>
where
    T: for<'r> sqlx::FromRow<'r, <Db as sqlx::Database>::Row> + Send + Unpin,
{
    debug_assert!(sql.contains("IN ({ids})"), "{sql}");
    let mut seen = std::collections::HashSet::with_capacity(ids.len());
    let ids: Vec<Uuid> = ids.iter().copied().filter(|id| seen.insert(*id)).collect();
    let mut rows = Vec::new();
    for chunk in statement_chunks(&ids) {
        let sql = many_params(sql.replace("IN ({ids})", &ids_in(chunk.len(), 2)));
        let q = sqlx::query_as::<Db, T>(&sql).persistent(chunk_cached(chunk.len())).bind(org.0);
        rows.extend(bind_ids!(q, chunk).fetch_all(&mut **tx).await?);
    }
    Ok(rows)
}

async fn insert_audit(tx: &mut Tx, org: OrgId, actor: Option<UserId>, event: &AuditEvent, now: DateTime<Utc>) -> Result<()> {
    insert_audits(tx, org, actor, std::slice::from_ref(event), now).await
}

/// Audit entries by one actor at one time, many rows per statement.
async fn insert_audits(tx: &mut Tx, org: OrgId, actor: Option<UserId>, events: &[AuditEvent], now: DateTime<Utc>) -> Result<()> {
    let rows: Vec<(Uuid, String, String)> = events
        .iter()
        .map(|event| {
            let (action, detail) = crate::audit_columns(event);
            (Uuid::new_v4(), action, detail)
        })
        .collect();
    for chunk in statement_chunks(&rows) {
        let sql = many_params(format!(
            "INSERT INTO audit_log (id, org_id, at, actor_user_id, actor_label, action, detail)
             SELECT column1, $1, $2, $3, COALESCE((SELECT email FROM users WHERE id = $3), 'system'), column2, column3
             FROM {}",
            rows_table(chunk.len(), 3, 4)
        ));
        let q = sqlx::query(&sql).persistent(chunk_cached(chunk.len())).bind(org.0).bind(Ts::from(now)).bind(actor.map(|a| a.0));
        bind_rows!(q, chunk, |r| r.0, r.1.as_str(), r.2.as_str()).execute(&mut **tx).await?;
    }
    Ok(())
}

async fn insert_mail(tx: &mut Tx, mail: &NewMail) -> Result<()> {
    insert_mails(tx, &[mail]).await
}

/// Mails to queue, many rows per statement.
async fn insert_mails(tx: &mut Tx, mails: &[&NewMail]) -> Result<()> {
    for chunk in statement_chunks(mails) {
        let sql = many_params(format!(
            "INSERT INTO outbox (id, org_id, kind, recipient, subject, message, message_id, status, attempts,
                                 created_at, next_attempt_at, give_up_at)
             SELECT column1, column2, column3, column4, column5, column6, column7, 'queued', 0,
                    column8, column8, column9
             FROM {}",
            rows_table(chunk.len(), 9, 1)
        ));
        let q = sqlx::query(&sql).persistent(chunk_cached(chunk.len()));
        bind_rows!(
            q,
            chunk,
            |m| m.id.0,
            m.org_id.map(|o| o.0),
            m.kind,
            m.recipient.as_str(),
            m.subject.as_str(),
            m.message.as_slice(),
            m.message_id.as_str(),
            Ts::from(m.created_at),
            Ts::from(m.give_up_at),
        )
        .execute(&mut **tx)
        .await?;
    }
    Ok(())
}

const MAIL_COLUMNS: &str = "SELECT id, kind, recipient, subject, message_id, status, attempts, created_at,
            next_attempt_at, sent_at, last_error FROM outbox";

const MEMBER_COLUMNS: &str = "SELECT m.id, m.user_id, u.name, u.email, m.role, m.created_at
     FROM memberships m JOIN users u ON u.id = m.user_id";
const INVITE_COLUMNS: &str =
    "SELECT id, org_id, email, role, created_at, expires_at, accepted_at, revoked_at FROM invites";

async fn member(tx: &mut Tx, t: &Tenant, id: MembershipId) -> Result<Member> {
    sqlx::query_as::<_, Member>(&format!("{MEMBER_COLUMNS} WHERE m.org_id = $1 AND m.id = $2"))
        .bind(t.org_id().0)
        .bind(id.0)
        .fetch_optional(&mut **tx)
        .await?
        .ok_or(StoreError::NotFound)
}

async fn owner_count(tx: &mut Tx, org: OrgId) -> Result<i64> {
    let (n,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM memberships WHERE org_id = $1 AND role = 'owner'")
        .bind(org.0)
        .fetch_one(&mut **tx)
        .await?;
    Ok(n)
}

async fn open_invite_in(tx: &mut Tx, token_hash: &[u8], now: DateTime<Utc>) -> Result<Option<Invite>> {
    Ok(sqlx::query_as::<_, Invite>(&format!(
        "{INVITE_COLUMNS} WHERE token_hash = $1 AND accepted_at IS NULL AND revoked_at IS NULL AND expires_at > $2"
    ))
    .bind(token_hash)
    .bind(Ts::from(now))
    .fetch_optional(&mut **tx)
    .await?)
}

/// Marks the invitation used and makes `user` a member, inside `tx`.
async fn use_invite(tx: &mut Tx, invite: &Invite, user: UserId, now: DateTime<Utc>) -> Result<Tenant> {
    ThisStore::rescope(tx, Scope::Org(invite.org_id, Some(user))).await?;
    let tenant = insert_membership(tx, invite.org_id, user, invite.role, now).await?;
    let updated = sqlx::query(
        "UPDATE invites SET accepted_at = $1, accepted_by = $2
         WHERE org_id = $3 AND id = $4 AND accepted_at IS NULL AND revoked_at IS NULL",
    )
    .bind(Ts::from(now))
    .bind(user.0)
    .bind(invite.org_id.0)
    .bind(invite.id.0)
    .execute(&mut **tx)
    .await?;
    if updated.rows_affected() != 1 {
        return Err(StoreError::NotFound);
    }
    insert_audit(tx, invite.org_id, Some(user), &AuditEvent::MemberJoined { role: invite.role }, now)
        .await?;
    Ok(tenant)
}

/// A user's memberships with their organisations, as `OrgMembership` rows;
/// `m` is the membership, `o` the organisation.
const MY_ORGS: &str = "SELECT o.id AS org_id, o.slug, o.name, m.role FROM memberships m JOIN orgs o ON o.id = m.org_id";

/// Every organisation the user belongs to, by name.
async fn all_orgs_of(tx: &mut Tx, user: UserId) -> Result<Vec<OrgMembership>> {
    Ok(sqlx::query_as::<_, OrgMembership>(&format!("{MY_ORGS} WHERE m.user_id = $1 ORDER BY o.name, o.slug"))
    .bind(user.0)
    .fetch_all(&mut **tx)
    .await?)
}

/// A session with its user, by the hash of its cookie.
const SESSION_WITH_USER: &str = "SELECT s.user_id, s.org_id, s.created_at AS session_created_at, s.last_seen_at, s.expires_at,
        u.id, u.email, u.name, u.lang, u.created_at
 FROM sessions s JOIN users u ON u.id = s.user_id WHERE s.id_hash = $1";

/// [`SESSION_WITH_USER`] with the session's tenant and the header's
/// organisation menu, in one statement, where
/// [`ThisStore::LISTS_AS_JSON`]: the tenant as a JSON array
/// (membership id as hex, role, time zone, the organisation's slug and
/// name), and with `$2` (the menu's limit + 1) at most that many of the
/// user's organisations as a JSON list in the menu's order ([`MY_ORGS`]'s
/// columns, ids as hex); more than the limit means a long menu.
const SESSION_VIEW_ONE: &str = "SELECT s.user_id, s.org_id, s.created_at AS session_created_at, s.last_seen_at, s.expires_at,
        u.id, u.email, u.name, u.lang, u.created_at,
        (SELECT json_array(hex(m.id), m.role, o.time_zone, o.slug, o.name) FROM memberships m JOIN orgs o ON o.id = m.org_id
          WHERE m.user_id = s.user_id AND m.org_id = s.org_id) AS tenant,
        CASE WHEN $2 IS NOT NULL THEN
          (SELECT json_group_array(json_array(hex(mo.org_id), mo.slug, mo.name, mo.role) ORDER BY mo.name, mo.slug)
            FROM (SELECT o.id AS org_id, o.slug, o.name, m.role FROM memberships m JOIN orgs o ON o.id = m.org_id
                  WHERE m.user_id = s.user_id ORDER BY o.name, o.slug LIMIT $2) AS mo)
        END AS menu
 FROM sessions s JOIN users u ON u.id = s.user_id WHERE s.id_hash = $1";

/// A row of [`SESSION_VIEW_ONE`].
#[derive(sqlx::FromRow)]
struct SessionViewRow {
    #[sqlx(flatten)]
    session: SessionRecord,
    tenant: Option<String>,
    menu: Option<String>,
}

/// The session view of a [`SESSION_VIEW_ONE`] row; the menu only with the
/// session's tenant, as [`Store::session_view`] reads it otherwise.
fn session_view_from(row: SessionViewRow, menu_limit: Option<i64>) -> Result<SessionView> {
    let json_read = JsonRead("a session");
    let SessionViewRow { session, tenant, menu } = row;
    let user = session.user.id;
    let mut current = None;
    let tenant = match (session.org_id, tenant) {
        (Some(org), Some(json)) => {
            let (membership, role, zone, slug, name): (String, String, String, String, String) = json_read.parse(&json)?;
            let role = Role::try_from(role).map_err(StoreError::Config)?;
            let zone = Zone::try_from(zone).map_err(StoreError::Config)?;
            current = Some(OrgMembership { org_id: org, slug, name, role });
            Some(Tenant::new(org, user, MembershipId(json_read.id(&membership)?), role, zone))
        }
        _ => None,
    };
    let menu = match (menu_limit, menu, &tenant) {
        (Some(limit), Some(json), Some(_)) => {
            let rows: Vec<(String, String, String, String)> = json_read.parse(&json)?;
            let many = rows.len() as i64 > limit;
            let orgs = if many {
                Vec::new()
            } else {
                rows.into_iter()
                    .map(|(org, slug, name, role)| {
                        let role = Role::try_from(role).map_err(StoreError::Config)?;
                        Ok(OrgMembership { org_id: OrgId(json_read.id(&org)?), slug, name, role })
                    })
                    .collect::<Result<Vec<_>>>()?
            };
            Some(OrgMenu { many, orgs, current })
        }
        _ => None,
    };
    Ok(SessionView { session, tenant, menu })
}

/// The user's membership in `org` as a tenant context, in a transaction
/// scoped to that organisation; `None` when there is none.
async fn tenant_in(tx: &mut Tx, user: UserId, org: OrgId) -> Result<Option<Tenant>> {
    let row: Option<(Uuid, String, String)> = sqlx::query_as(
        "SELECT m.id, m.role, o.time_zone FROM memberships m JOIN orgs o ON o.id = m.org_id
         WHERE m.user_id = $1 AND m.org_id = $2",
    )
    .bind(user.0)
    .bind(org.0)
    .fetch_optional(&mut **tx)
    .await?;
    row.map(|(id, role, zone)| {
        let role = Role::try_from(role).map_err(StoreError::Config)?;
        let zone = Zone::try_from(zone).map_err(StoreError::Config)?;
        Ok(Tenant::new(org, user, MembershipId(id), role, zone))
    })
    .transpose()
}

/// See [`Store::org_menu`]; in a transaction scoped to `current` (or to the
/// user without one).
async fn org_menu_in(tx: &mut Tx, user: UserId, current: Option<OrgId>, limit: i64) -> Result<OrgMenu> {
    // Counting stops past the limit: the integrator's page does not pay
    // for each of their thousand memberships.
    let (count,): (i64,) =
        sqlx::query_as("SELECT COUNT(*) FROM (SELECT 1 FROM memberships WHERE user_id = $1 LIMIT $2) AS m")
            .bind(user.0)
            .bind(limit + 1)
            .fetch_one(&mut **tx)
            .await?;
    let mut menu = OrgMenu { many: count > limit, ..OrgMenu::default() };
    if !menu.many {
        menu.orgs = all_orgs_of(tx, user).await?;
        menu.current = menu.orgs.iter().find(|o| Some(o.org_id) == current).cloned();
    } else if let Some(org) = current {
        menu.current = sqlx::query_as::<_, OrgMembership>(&format!("{MY_ORGS} WHERE m.user_id = $1 AND m.org_id = $2"))
            .bind(user.0)
            .bind(org.0)
            .fetch_optional(&mut **tx)
            .await?;
    }
    Ok(menu)
}

#[async_trait::async_trait]
#[allow(clippy::too_many_arguments)]
impl Store for ThisStore {
    fn backend(&self) -> &'static str {
        Self::BACKEND
    }

    async fn ping(&self) -> Result<()> {
        sqlx::query("SELECT 1").execute(&self.pool).await?;
        Ok(())
    }

    async fn sign_up(&self, user: NewUser, org: &OrgName, slug_base: &Slug, now: DateTime<Utc>) -> Result<(User, Tenant)> {
        let org_id = OrgId(Uuid::new_v4());
        let mut tx = self.write(Scope::None).await?;
        let created = insert_user(&mut tx, &user, now).await?;
        Self::rescope(&mut tx, Scope::Org(org_id, Some(created.id))).await?;
        insert_org(&mut tx, org_id, org, slug_base, user.lang, now).await?;
        let tenant = insert_membership(&mut tx, org_id, created.id, Role::Owner, now).await?;
        insert_audit(&mut tx, org_id, Some(created.id), &AuditEvent::SignedUp { role: Role::Owner }, now).await?;
        tx.commit().await?;
        Ok((created, tenant))
    }

    async fn credentials(&self, email: &Email) -> Result<Option<Credentials>> {
        Ok(sqlx::query_as::<_, Credentials>("SELECT id AS user_id, password_hash FROM users WHERE email = $1")
            .bind(email.as_str())
            .fetch_optional(&self.pool)
            .await?)
    }

    async fn user(&self, id: UserId) -> Result<User> {
        sqlx::query_as::<_, User>("SELECT id, email, name, lang, created_at FROM users WHERE id = $1")
            .bind(id.0)
            .fetch_optional(&self.pool)
            .await?
            .ok_or(StoreError::NotFound)
    }

    async fn password_hash(&self, id: UserId) -> Result<String> {
        let row: Option<(String,)> = sqlx::query_as("SELECT password_hash FROM users WHERE id = $1")
            .bind(id.0)
            .fetch_optional(&self.pool)
            .await?;
        row.map(|r| r.0).ok_or(StoreError::NotFound)
    }

    async fn set_password_hash(&self, id: UserId, hash: &str, now: DateTime<Utc>) -> Result<()> {
        sqlx::query("UPDATE users SET password_hash = $1, password_changed_at = $2 WHERE id = $3")
            .bind(hash)
            .bind(Ts::from(now))
            .bind(id.0)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    async fn set_user_lang(&self, id: UserId, lang: Lang) -> Result<()> {
        sqlx::query("UPDATE users SET lang = $1 WHERE id = $2").bind(lang.code()).bind(id.0).execute(&self.pool).await?;
        Ok(())
    }

    async fn create_session(&self, id_hash: &[u8], user: UserId, org: Option<OrgId>, now: DateTime<Utc>, expires_at: DateTime<Utc>) -> Result<()> {
        sqlx::query(
            "INSERT INTO sessions (id_hash, user_id, org_id, created_at, last_seen_at, expires_at)
             VALUES ($1, $2, $3, $4, $4, $5)",
        )
        .bind(id_hash)
        .bind(user.0)
        .bind(org.map(|o| o.0))
        .bind(Ts::from(now))
        .bind(Ts::from(expires_at))
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    async fn session_view(&self, id_hash: &[u8], menu_limit: Option<i64>) -> Result<Option<SessionView>> {
        if ThisStore::LISTS_AS_JSON {
            let row = sqlx::query_as::<_, SessionViewRow>(SESSION_VIEW_ONE)
                .bind(id_hash)
                .bind(menu_limit.map(|limit| limit + 1))
                .fetch_optional(&self.pool)
                .await?;
            return row.map(|row| session_view_from(row, menu_limit)).transpose();
        }
        // Sessions and users are outside the tenant policies, so the
        // transaction starts unscoped and takes the session's organisation
        // as its scope once the session is known: one transaction for what
        // used to be three (session, membership, menu).
        let mut tx = self.pool.begin().await?;
        let Some(session) =
            sqlx::query_as::<_, SessionRecord>(SESSION_WITH_USER).bind(id_hash).fetch_optional(&mut *tx).await?
        else {
            tx.commit().await?;
            return Ok(None);
        };
        let user = session.user.id;
        let mut tenant = None;
        if let Some(org) = session.org_id {
            Self::rescope(&mut tx, Scope::Org(org, Some(user))).await?;
            tenant = tenant_in(&mut tx, user, org).await?;
        }
        // Only with the session's tenant: its scope is the one in force.
        let menu = match (menu_limit, &tenant) {
            (Some(limit), Some(t)) => Some(org_menu_in(&mut tx, user, Some(t.org_id()), limit).await?),
            _ => None,
        };
        tx.commit().await?;
        Ok(Some(SessionView { session, tenant, menu }))
    }

    async fn touch_session(&self, id_hash: &[u8], now: DateTime<Utc>) -> Result<()> {
        sqlx::query("UPDATE sessions SET last_seen_at = $1 WHERE id_hash = $2")
            .bind(Ts::from(now))
            .bind(id_hash)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    async fn set_session_org(&self, id_hash: &[u8], org: OrgId) -> Result<()> {
        sqlx::query("UPDATE sessions SET org_id = $1 WHERE id_hash = $2").bind(org.0).bind(id_hash).execute(&self.pool).await?;
        Ok(())
    }

    async fn delete_session(&self, id_hash: &[u8]) -> Result<()> {
        sqlx::query("DELETE FROM sessions WHERE id_hash = $1").bind(id_hash).execute(&self.pool).await?;
        Ok(())
    }

    async fn delete_other_sessions(&self, user: UserId, keep: &[u8]) -> Result<u64> {
        let r = sqlx::query("DELETE FROM sessions WHERE user_id = $1 AND id_hash <> $2")
            .bind(user.0)
            .bind(keep)
            .execute(&self.pool)
            .await?;
        Ok(r.rows_affected())
    }

    async fn delete_expired_sessions(&self, now: DateTime<Utc>) -> Result<u64> {
        let r = sqlx::query("DELETE FROM sessions WHERE expires_at <= $1").bind(Ts::from(now)).execute(&self.pool).await?;
        Ok(r.rows_affected())
    }

    async fn tenant_for(&self, user: UserId, org: OrgId) -> Result<Tenant> {
        // In the organisation's scope the `orgs` row policy admits the one
        // row by its id; the membership is what the query checks.
        let mut tx = self.read(Scope::Org(org, Some(user))).await?;
        let tenant = tenant_in(&mut tx, user, org).await?;
        tx.commit().await?;
        tenant.ok_or(StoreError::NotFound)
    }

    async fn first_tenant(&self, user: UserId) -> Result<Option<Tenant>> {
        let mut tx = self.read(Scope::User(user)).await?;
        let row: Option<(Uuid, Uuid, String, String)> = sqlx::query_as(
            "SELECT m.id, m.org_id, m.role, o.time_zone FROM memberships m JOIN orgs o ON o.id = m.org_id
             WHERE m.user_id = $1 ORDER BY o.name, o.slug LIMIT 1",
        )
        .bind(user.0)
        .fetch_optional(&mut *tx)
        .await?;
        tx.commit().await?;
        row.map(|(id, org, role, zone)| {
            let role = Role::try_from(role).map_err(StoreError::Config)?;
            let zone = Zone::try_from(zone).map_err(StoreError::Config)?;
            Ok(Tenant::new(OrgId(org), user, MembershipId(id), role, zone))
        })
        .transpose()
    }

    async fn orgs_of_user(&self, user: UserId) -> Result<Vec<OrgMembership>> {
        let mut tx = self.read(Scope::User(user)).await?;
        let rows = all_orgs_of(&mut tx, user).await?;
        tx.commit().await?;
        Ok(rows)
    }

    async fn orgs_of_user_matching(
        &self,
        user: UserId,
        text: Option<&aivet_domain::SearchText>,
        limit: i64,
    ) -> Result<(Vec<OrgMembership>, i64)> {
        let pattern = like_pattern(text).unwrap_or_else(|| "%".to_owned());
        let mut tx = self.read(Scope::User(user)).await?;
        let (total,): (i64,) = sqlx::query_as(
            "SELECT COUNT(*) FROM memberships m JOIN orgs o ON o.id = m.org_id
             WHERE m.user_id = $1 AND lower(o.name) LIKE $2 ESCAPE '\\'",
        )
        .bind(user.0)
        .bind(&pattern)
        .fetch_one(&mut *tx)
        .await?;
        let rows = sqlx::query_as::<_, OrgMembership>(&format!(
            "{MY_ORGS} WHERE m.user_id = $1 AND lower(o.name) LIKE $2 ESCAPE '\\' ORDER BY o.name, o.slug LIMIT $3"
        ))
        .bind(user.0)
        .bind(&pattern)
        .bind(limit)
        .fetch_all(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok((rows, total))
    }

    async fn org_menu(&self, user: UserId, current: Option<&Tenant>, limit: i64) -> Result<OrgMenu> {
        // In the tenant's scope the `orgs` row policy admits the current
        // organisation by its id; in the user's scope it would check the
        // user's every membership for that one row (1 ms for 1,000 of them).
        let scope = current.map(Scope::Tenant).unwrap_or(Scope::User(user));
        let mut tx = self.read(scope).await?;
        let menu = org_menu_in(&mut tx, user, current.map(|t| t.org_id()), limit).await?;
        tx.commit().await?;
        Ok(menu)
    }

    async fn create_org(&self, user: UserId, name: &OrgName, slug_base: &Slug, now: DateTime<Utc>) -> Result<Tenant> {
        let org_id = OrgId(Uuid::new_v4());
        let mut tx = self.write(Scope::Org(org_id, Some(user))).await?;
        let (lang,): (String,) = sqlx::query_as("SELECT lang FROM users WHERE id = $1").bind(user.0).fetch_one(&mut *tx).await?;
        let lang = Lang::try_from(lang).map_err(StoreError::Config)?;
        insert_org(&mut tx, org_id, name, slug_base, lang, now).await?;
        let tenant = insert_membership(&mut tx, org_id, user, Role::Owner, now).await?;
        insert_audit(&mut tx, org_id, Some(user), &AuditEvent::OrgCreated { name: name.to_string() }, now).await?;
        tx.commit().await?;
        Ok(tenant)
    }

    async fn org(&self, t: &Tenant) -> Result<Org> {
        let mut tx = self.read(Scope::Tenant(t)).await?;
        let org = sqlx::query_as::<_, Org>("SELECT id, slug, name, created_at, time_zone FROM orgs WHERE id = $1")
            .bind(t.org_id().0)
            .fetch_optional(&mut *tx)
            .await?
            .ok_or(StoreError::NotFound)?;
        tx.commit().await?;
        Ok(org)
    }

    async fn owner_of_slug(&self, slug: &str) -> Result<(User, Tenant)> {
        let mut tx = self.read(Scope::OrgSlug(slug)).await?;
        let org: Option<(Uuid,)> = sqlx::query_as("SELECT id FROM orgs WHERE slug = $1")
            .bind(slug)
            .fetch_optional(&mut *tx)
            .await?;
        tx.commit().await?;
        let org = OrgId(org.ok_or(StoreError::NotFound)?.0);
        let mut tx = self.read(Scope::Org(org, None)).await?;
        let owner: Option<(Uuid,)> = sqlx::query_as(
            "SELECT user_id FROM memberships WHERE org_id = $1 AND role = 'owner' ORDER BY created_at, id LIMIT 1",
        )
        .bind(org.0)
        .fetch_optional(&mut *tx)
        .await?;
        tx.commit().await?;
        let user = UserId(owner.ok_or(StoreError::NotFound)?.0);
        let tenant = self.tenant_for(user, org).await?;
        Ok((self.user(user).await?, tenant))
    }

    async fn retire_org(&self, user: UserId, org: OrgId, suffix: &str, now: DateTime<Utc>) -> Result<()> {
        let mut tx = self.write(Scope::Org(org, Some(user))).await?;
        let r = sqlx::query("UPDATE orgs SET slug = slug || $2, name = name || $3 WHERE id = $1")
            .bind(org.0)
            .bind(format!("-{suffix}"))
            .bind(format!(" ({suffix})"))
            .execute(&mut *tx)
            .await?;
        if r.rows_affected() != 1 {
            return Err(StoreError::NotFound);
        }
        sqlx::query("UPDATE services SET owner_id = NULL WHERE org_id = $1")
            .bind(org.0)
            .execute(&mut *tx)
            .await?;
        sqlx::query("DELETE FROM memberships WHERE org_id = $1 AND user_id = $2")
            .bind(org.0)
            .bind(user.0)
            .execute(&mut *tx)
            .await?;
        insert_audit(&mut tx, org, Some(user), &AuditEvent::OrgRetired { suffix: suffix.to_owned() }, now).await?;
        tx.commit().await?;
        Ok(())
    }

    async fn set_time_zone(&self, t: &Tenant, zone: Zone, event: AuditEvent, now: DateTime<Utc>) -> Result<()> {
        let mut tx = self.write(Scope::Tenant(t)).await?;
        let changed = sqlx::query("UPDATE orgs SET time_zone = $1 WHERE id = $2")
            .bind(zone.name())
            .bind(t.org_id().0)
            .execute(&mut *tx)
            .await?;
        if changed.rows_affected() != 1 {
            return Err(StoreError::NotFound);
        }
        insert_audit(&mut tx, t.org_id(), Some(t.user_id()), &event, now).await?;
        tx.commit().await?;
        Ok(())
    }

    async fn members(&self, t: &Tenant) -> Result<Vec<Member>> {
        let mut tx = self.read(Scope::Tenant(t)).await?;
        let rows = members_in(&mut tx, t.org_id()).await?;
        tx.commit().await?;
        Ok(rows)
    }

    async fn remove_member(&self, t: &Tenant, id: MembershipId, event: AuditEvent, now: DateTime<Utc>) -> Result<Member> {
        let mut tx = self.write(Scope::Tenant(t)).await?;
        let m = member(&mut tx, t, id).await?;
        if m.role == Role::Owner && owner_count(&mut tx, t.org_id()).await? <= 1 {
            return Err(StoreError::LastOwner);
        }
        // The services they looked after keep going, without an owner.
        sqlx::query("UPDATE services SET owner_id = NULL WHERE org_id = $1 AND owner_id = $2")
            .bind(t.org_id().0)
            .bind(id.0)
            .execute(&mut *tx)
            .await?;
        sqlx::query("DELETE FROM memberships WHERE org_id = $1 AND id = $2")
            .bind(t.org_id().0)
            .bind(id.0)
            .execute(&mut *tx)
            .await?;
        insert_audit(&mut tx, t.org_id(), Some(t.user_id()), &event, now).await?;
        tx.commit().await?;
        Ok(m)
    }

    async fn set_member_role(&self, t: &Tenant, id: MembershipId, role: Role, event: AuditEvent, now: DateTime<Utc>) -> Result<Member> {
        let mut tx = self.write(Scope::Tenant(t)).await?;
        let mut m = member(&mut tx, t, id).await?;
        if m.role == Role::Owner && role != Role::Owner && owner_count(&mut tx, t.org_id()).await? <= 1 {
            return Err(StoreError::LastOwner);
        }
        sqlx::query("UPDATE memberships SET role = $1 WHERE org_id = $2 AND id = $3")
            .bind(role.as_str())
            .bind(t.org_id().0)
            .bind(id.0)
            .execute(&mut *tx)
            .await?;
        insert_audit(&mut tx, t.org_id(), Some(t.user_id()), &event, now).await?;
        tx.commit().await?;
        m.role = role;
        Ok(m)
    }

    async fn create_invite(
        &self,
        t: &Tenant,
        email: &Email,
        role: Role,
        token_hash: &[u8],
        now: DateTime<Utc>,
        expires_at: DateTime<Utc>,
        mail: Option<NewMail>,
    ) -> Result<Invite> {
        let id = Uuid::new_v4();
        let mut tx = self.write(Scope::Tenant(t)).await?;
        let already: Option<(Uuid,)> = sqlx::query_as(
            "SELECT m.id FROM memberships m JOIN users u ON u.id = m.user_id WHERE m.org_id = $1 AND u.email = $2",
        )
        .bind(t.org_id().0)
        .bind(email.as_str())
        .fetch_optional(&mut *tx)
        .await?;
        if already.is_some() {
            return Err(StoreError::AlreadyMember);
        }
        sqlx::query(
            "INSERT INTO invites (id, org_id, email, role, token_hash, created_by, created_at, expires_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
        )
        .bind(id)
        .bind(t.org_id().0)
        .bind(email.as_str())
        .bind(role.as_str())
        .bind(token_hash)
        .bind(t.user_id().0)
        .bind(Ts::from(now))
        .bind(Ts::from(expires_at))
        .execute(&mut *tx)
        .await?;
        insert_audit(&mut tx, t.org_id(), Some(t.user_id()), &AuditEvent::InviteCreated { email: email.to_string(), role }, now).await?;
        if let Some(mail) = &mail {
            insert_mail(&mut tx, mail).await?;
        }
        let invite = sqlx::query_as::<_, Invite>(&format!("{INVITE_COLUMNS} WHERE org_id = $1 AND id = $2"))
            .bind(t.org_id().0)
            .bind(id)
            .fetch_one(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(invite)
    }

    async fn pending_invites(&self, t: &Tenant, now: DateTime<Utc>) -> Result<Vec<Invite>> {
        let mut tx = self.read(Scope::Tenant(t)).await?;
        let rows = sqlx::query_as::<_, Invite>(&format!(
            "{INVITE_COLUMNS} WHERE org_id = $1 AND accepted_at IS NULL AND revoked_at IS NULL AND expires_at > $2
             ORDER BY created_at DESC"
        ))
        .bind(t.org_id().0)
        .bind(Ts::from(now))
        .fetch_all(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(rows)
    }

    async fn revoke_invite(&self, t: &Tenant, id: InviteId, now: DateTime<Utc>) -> Result<Invite> {
        let mut tx = self.write(Scope::Tenant(t)).await?;
        let updated = sqlx::query(
            "UPDATE invites SET revoked_at = $1 WHERE org_id = $2 AND id = $3 AND accepted_at IS NULL AND revoked_at IS NULL",
        )
        .bind(Ts::from(now))
        .bind(t.org_id().0)
        .bind(id.0)
        .execute(&mut *tx)
        .await?;
        if updated.rows_affected() != 1 {
            return Err(StoreError::NotFound);
        }
        let invite = sqlx::query_as::<_, Invite>(&format!("{INVITE_COLUMNS} WHERE org_id = $1 AND id = $2"))
            .bind(t.org_id().0)
            .bind(id.0)
            .fetch_one(&mut *tx)
            .await?;
        insert_audit(&mut tx, t.org_id(), Some(t.user_id()), &AuditEvent::InviteRevoked { email: invite.email.clone() }, now).await?;
        tx.commit().await?;
        Ok(invite)
    }

    async fn open_invite(&self, token_hash: &[u8], now: DateTime<Utc>) -> Result<Option<OpenInvite>> {
        let mut tx = self.read(Scope::InviteToken(token_hash)).await?;
        let Some(invite) = open_invite_in(&mut tx, token_hash, now).await? else {
            return Ok(None);
        };
        Self::rescope(&mut tx, Scope::Org(invite.org_id, None)).await?;
        let (org_name,): (String,) = sqlx::query_as("SELECT name FROM orgs WHERE id = $1")
            .bind(invite.org_id.0)
            .fetch_one(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(Some(OpenInvite { invite, org_name }))
    }

    async fn accept_invite(&self, token_hash: &[u8], user: UserId, now: DateTime<Utc>) -> Result<Tenant> {
        let mut tx = self.write(Scope::InviteToken(token_hash)).await?;
        let invite = open_invite_in(&mut tx, token_hash, now).await?.ok_or(StoreError::NotFound)?;
        let tenant = use_invite(&mut tx, &invite, user, now).await?;
        tx.commit().await?;
        Ok(tenant)
    }

    async fn sign_up_with_invite(&self, token_hash: &[u8], user: NewUser, now: DateTime<Utc>) -> Result<(User, Tenant)> {
        let mut tx = self.write(Scope::InviteToken(token_hash)).await?;
        let invite = open_invite_in(&mut tx, token_hash, now).await?.ok_or(StoreError::NotFound)?;
        let created = insert_user(&mut tx, &user, now).await?;
        let tenant = use_invite(&mut tx, &invite, created.id, now).await?;
        tx.commit().await?;
        Ok((created, tenant))
    }

    async fn create_password_reset(&self, user: UserId, token_hash: &[u8], now: DateTime<Utc>, expires_at: DateTime<Utc>, mail: NewMail) -> Result<()> {
        let mut tx = self.write(Scope::System).await?;
        sqlx::query("INSERT INTO password_resets (token_hash, user_id, created_at, expires_at) VALUES ($1, $2, $3, $4)")
            .bind(token_hash)
            .bind(user.0)
            .bind(Ts::from(now))
            .bind(Ts::from(expires_at))
            .execute(&mut *tx)
            .await?;
        insert_mail(&mut tx, &NewMail { org_id: None, ..mail }).await?;
        tx.commit().await?;
        Ok(())
    }

    async fn password_reset_user(&self, token_hash: &[u8], now: DateTime<Utc>) -> Result<Option<UserId>> {
        let row: Option<(Uuid,)> =
            sqlx::query_as("SELECT user_id FROM password_resets WHERE token_hash = $1 AND used_at IS NULL AND expires_at > $2")
                .bind(token_hash)
                .bind(Ts::from(now))
                .fetch_optional(&self.pool)
                .await?;
        Ok(row.map(|r| UserId(r.0)))
    }

    async fn reset_password(&self, token_hash: &[u8], password_hash: &str, now: DateTime<Utc>) -> Result<UserId> {
        let mut tx = self.write(Scope::None).await?;
        let row: Option<(Uuid,)> = sqlx::query_as(
            "UPDATE password_resets SET used_at = $1 WHERE token_hash = $2 AND used_at IS NULL AND expires_at > $1 RETURNING user_id",
        )
        .bind(Ts::from(now))
        .bind(token_hash)
        .fetch_optional(&mut *tx)
        .await?;
        let user = row.map(|r| UserId(r.0)).ok_or(StoreError::NotFound)?;
        sqlx::query("UPDATE users SET password_hash = $1, password_changed_at = $2 WHERE id = $3")
            .bind(password_hash)
            .bind(Ts::from(now))
            .bind(user.0)
            .execute(&mut *tx)
            .await?;
        sqlx::query("DELETE FROM sessions WHERE user_id = $1").bind(user.0).execute(&mut *tx).await?;
        // Any other open reset link of the user dies with this one.
        sqlx::query("UPDATE password_resets SET used_at = $1 WHERE user_id = $2 AND used_at IS NULL")
            .bind(Ts::from(now))
            .bind(user.0)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(user)
    }

    async fn enqueue_mail(&self, t: &Tenant, mail: NewMail) -> Result<()> {
        let mut tx = self.write(Scope::Tenant(t)).await?;
        insert_mail(&mut tx, &NewMail { org_id: Some(t.org_id()), ..mail.clone() }).await?;
        let event = AuditEvent::MailQueued { kind: mail.kind.to_owned(), to: mail.recipient.clone() };
        insert_audit(&mut tx, t.org_id(), Some(t.user_id()), &event, mail.created_at).await?;
        tx.commit().await?;
        Ok(())
    }

    async fn enqueue_account_mail(&self, mail: NewMail) -> Result<()> {
        let mut tx = self.write(Scope::System).await?;
        insert_mail(&mut tx, &NewMail { org_id: None, ..mail }).await?;
        tx.commit().await?;
        Ok(())
    }

    async fn claim_mails(&self, owner: &str, now: DateTime<Utc>, lease_until: DateTime<Utc>, limit: i64) -> Result<Vec<ClaimedMail>> {
        // The due condition stands in the outer WHERE as well: when two
        // workers pick the same row, PostgreSQL re-checks it against the row
        // the first one just claimed, and the second one skips it.
        const DUE: &str = "((status IN ('queued', 'retrying') AND next_attempt_at <= $3)
                            OR (status = 'sending' AND lease_expires_at <= $3))";
        let mut tx = self.write(Scope::System).await?;
        let rows = sqlx::query_as::<_, ClaimedMail>(&format!(
            "UPDATE outbox SET status = 'sending', lease_owner = $1, lease_expires_at = $2, attempts = attempts + 1
             WHERE id IN (SELECT id FROM outbox WHERE {DUE} ORDER BY next_attempt_at LIMIT $4 {lock}) AND {DUE}
             RETURNING id, recipient, message, message_id, attempts, give_up_at",
            lock = ThisStore::SKIP_LOCKED
        ))
        .bind(owner)
        .bind(Ts::from(lease_until))
        .bind(Ts::from(now))
        .bind(limit)
        .fetch_all(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(rows)
    }

    async fn mark_mail_sent(&self, id: MailId, owner: &str, now: DateTime<Utc>) -> Result<bool> {
        Ok(self.record_mail_outcomes(owner, &[MailOutcome::Sent { id, at: now }]).await? == 1)
    }

    async fn mark_mail_retry(&self, id: MailId, owner: &str, next_attempt_at: DateTime<Utc>, error: &str) -> Result<bool> {
        let outcome = MailOutcome::Retry { id, next_attempt_at, error: error.to_owned() };
        Ok(self.record_mail_outcomes(owner, &[outcome]).await? == 1)
    }

    async fn mark_mail_failed(&self, id: MailId, owner: &str, error: &str) -> Result<bool> {
        Ok(self.record_mail_outcomes(owner, &[MailOutcome::Failed { id, error: error.to_owned() }]).await? == 1)
    }

    async fn record_mail_outcomes(&self, owner: &str, outcomes: &[MailOutcome]) -> Result<usize> {
        let mut tx = self.write(Scope::System).await?;
        let mut recorded = 0;
        for o in outcomes {
            let q = match o {
                MailOutcome::Sent { id, at } => sqlx::query(
                    "UPDATE outbox SET status = 'sent', sent_at = $1, last_error = NULL, lease_owner = NULL, lease_expires_at = NULL
                     WHERE id = $2 AND status = 'sending' AND lease_owner = $3",
                )
                .bind(Ts::from(*at))
                .bind(id.0),
                MailOutcome::Retry { id, next_attempt_at, error } => sqlx::query(
                    "UPDATE outbox SET status = 'retrying', next_attempt_at = $1, last_error = $2, lease_owner = NULL, lease_expires_at = NULL
                     WHERE id = $3 AND status = 'sending' AND lease_owner = $4",
                )
                .bind(Ts::from(*next_attempt_at))
                .bind(error.as_str())
                .bind(id.0),
                MailOutcome::Failed { id, error } => sqlx::query(
                    "UPDATE outbox SET status = 'failed', last_error = $1, lease_owner = NULL, lease_expires_at = NULL
                     WHERE id = $2 AND status = 'sending' AND lease_owner = $3",
                )
                .bind(error.as_str())
                .bind(id.0),
            };
            recorded += q.bind(owner).execute(&mut *tx).await?.rows_affected() as usize;
        }
        tx.commit().await?;
        Ok(recorded)
    }

    async fn next_mail_due(&self) -> Result<Option<DateTime<Utc>>> {
        let mut tx = self.read(Scope::System).await?;
        let row: Option<(Ts,)> = sqlx::query_as(
            "SELECT min(t) FROM (SELECT next_attempt_at AS t FROM outbox WHERE status IN ('queued', 'retrying')
                                 UNION ALL SELECT lease_expires_at FROM outbox WHERE status = 'sending') AS due
             HAVING min(t) IS NOT NULL",
        )
        .fetch_optional(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(row.map(|r| r.0 .0))
    }

    async fn org_mails(&self, t: &Tenant, limit: i64) -> Result<Vec<MailRecord>> {
        let mut tx = self.read(Scope::Tenant(t)).await?;
        let rows = sqlx::query_as::<_, MailRecord>(&format!("{MAIL_COLUMNS} WHERE org_id = $1 ORDER BY created_at DESC, id LIMIT $2"))
            .bind(t.org_id().0)
            .bind(limit)
            .fetch_all(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(rows)
    }

    async fn retry_mail(&self, t: &Tenant, id: MailId, now: DateTime<Utc>) -> Result<()> {
        let mut tx = self.write(Scope::Tenant(t)).await?;
        let r = sqlx::query(
            "UPDATE outbox SET status = 'queued', next_attempt_at = $1, give_up_at = CASE WHEN give_up_at < $1 THEN $2 ELSE give_up_at END
             WHERE org_id = $3 AND id = $4 AND status = 'failed' AND length(message) > 0",
        )
        .bind(Ts::from(now))
        .bind(Ts::from(now + chrono::Duration::days(1)))
        .bind(t.org_id().0)
        .bind(id.0)
        .execute(&mut *tx)
        .await?;
        if r.rows_affected() != 1 {
            return Err(StoreError::NotFound);
        }
        insert_audit(&mut tx, t.org_id(), Some(t.user_id()), &AuditEvent::MailRetried { mail: id }, now).await?;
        tx.commit().await?;
        Ok(())
    }

    async fn audit(&self, t: &Tenant, event: AuditEvent, now: DateTime<Utc>) -> Result<()> {
        let mut tx = self.write(Scope::Tenant(t)).await?;
        insert_audit(&mut tx, t.org_id(), Some(t.user_id()), &event, now).await?;
        tx.commit().await?;
        Ok(())
    }

    async fn audit_entries(&self, t: &Tenant, limit: i64) -> Result<Vec<AuditEntry>> {
        let mut tx = self.read(Scope::Tenant(t)).await?;
        let rows = sqlx::query_as::<_, AuditEntry>(
            "SELECT at, actor_label, action, detail FROM audit_log WHERE org_id = $1 ORDER BY at DESC, id LIMIT $2",
        )
        .bind(t.org_id().0)
        .bind(limit)
        .fetch_all(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(rows)
    }
}

/// The ways of writing many rows or reading many ids in one call
/// (`statement_chunks`, `ids_in`, `rows_table`, `bind_rows!`), on either
/// side of a chunk's size: every row arrives whole, once.
#[cfg(test)]
mod many_rows {
    use super::*;
    use crate::inventory::InventoryStore;
    use aivet_domain::inventory::{ServiceForm, VendorForm};
    use aivet_domain::jobs::Job;
    use aivet_domain::{PersonName, RequestId, ServiceId};
    use chrono::TimeZone;

    async fn count(tx: &mut Tx, table: &str, org: OrgId) -> i64 {
        let (n,): (i64,) = sqlx::query_as(&format!("SELECT COUNT(*) FROM {table} WHERE org_id = $1"))
            .bind(org.0)
            .fetch_one(&mut **tx)
            .await
            .unwrap();
        n
    }

    #[tokio::test]
    async fn every_row_of_a_call_is_written_and_read_once() {
        let Some(db) = crate::testing::TestDb::new(TEST_BACKEND).await else {
            return;
        };
        let store = open_for_tests(&db).await;
        let now = Utc.with_ymd_and_hms(2026, 12, 7, 9, 0, 0).unwrap();
        let user = NewUser {
            email: Email::parse("many@example.com").unwrap(),
            name: PersonName::parse("Many Rows").unwrap(),
            password_hash: "x".into(),
            lang: Lang::En,
        };
        let name = OrgName::parse("Many Rows AS").unwrap();
        let (_, t) = store.sign_up(user, &name, &Slug::from_name("Many Rows AS"), now).await.unwrap();
        let org = t.org_id();
        let vendor_form = VendorForm { name: "Vendor".into(), role: "application".into(), ..Default::default() };
        let vendor = store.create_vendor(&t, &vendor_form.parse().unwrap(), AuditEvent::SignedIn, now).await.unwrap();
        let service_form = ServiceForm { name: "Service".into(), vendor_id: vendor.to_string(), ..Default::default() };
        let service = store.create_service(&t, &service_form.parse().unwrap(), AuditEvent::SignedIn, now).await.unwrap();

        let mut written = 0;
        // Both sides of the backend's chunk size, and more than two chunks.
        let c = ROWS_PER_STATEMENT;
        for n in [0, 1, c - 1, c, c + 1, 2 * c + 50] {
            let mut tx = store.write(Scope::Org(org, None)).await.unwrap();
            let (audits, events, mails) =
                (count(&mut tx, "audit_log", org).await, count(&mut tx, "question_events", org).await, count(&mut tx, "outbox", org).await);

            let audit: Vec<AuditEvent> = (0..n).map(|_| AuditEvent::SignedIn).collect();
            insert_audits(&mut tx, org, None, &audit, now).await.unwrap();
            assert_eq!(count(&mut tx, "audit_log", org).await, audits + n as i64, "audits of {n}");

            let event = Event::NoAnswer { to: "vendor@example.com".into(), reminders: 4 };
            let timeline: Vec<(ServiceId, Option<RequestId>, &Event)> = (0..n).map(|_| (service, None, &event)).collect();
            insert_events(&mut tx, org, &timeline, "Many Rows", now).await.unwrap();
            assert_eq!(count(&mut tx, "question_events", org).await, events + n as i64, "events of {n}");

            let new: Vec<NewMail> = (0..n)
                .map(|i| NewMail {
                    id: MailId(Uuid::new_v4()),
                    org_id: Some(org),
                    kind: "reminder",
                    recipient: format!("r{n}-{i}@example.com"),
                    subject: format!("Subject {n}-{i}"),
                    message: format!("message {n}-{i}").into_bytes(),
                    message_id: format!("<{n}-{i}@example.com>"),
                    created_at: now,
                    give_up_at: now + chrono::Duration::days(2),
                })
                .collect();
            insert_mails(&mut tx, &new.iter().collect::<Vec<_>>()).await.unwrap();
            assert_eq!(count(&mut tx, "outbox", org).await, mails + n as i64, "mails of {n}");
            // Read back by id, with one id given twice and one unknown.
            let mut ids: Vec<Uuid> = new.iter().map(|m| m.id.0).collect();
            ids.extend(ids.first().copied());
            ids.push(Uuid::new_v4());
            let mut back: Vec<(Uuid, String, String, Vec<u8>, String)> = fetch_for_ids(
                &mut tx,
                "SELECT id, recipient, subject, message, status FROM outbox WHERE org_id = $1 AND id IN ({ids})",
                org,
                &ids,
            )
            .await
            .unwrap();
            back.sort_by_key(|r| r.1.clone());
            let mut expected: Vec<(Uuid, String, String, Vec<u8>, String)> = new
                .iter()
                .map(|m| (m.id.0, m.recipient.clone(), m.subject.clone(), m.message.clone(), "queued".into()))
                .collect();
            expected.sort_by_key(|r| r.1.clone());
            assert_eq!(back, expected, "mails of {n} read back");

            let jobs: Vec<NewJob> = (0..n)
                .map(|i| NewJob {
                    job: Job::DeadlinePassed { request: RequestId(Uuid::from_u128((written + i) as u128)) },
                    org_id: Some(org),
                    run_at: now,
                })
                .collect();
            assert_eq!(insert_jobs(&mut tx, &jobs, now).await.unwrap(), n as u64, "jobs of {n}");
            assert_eq!(insert_jobs(&mut tx, &jobs, now).await.unwrap(), 0, "jobs of {n} again");
            tx.commit().await.unwrap();
            written += n;
        }
        let mut tx = store.write(Scope::Org(org, None)).await.unwrap();
        assert_eq!(count(&mut tx, "jobs", org).await, written as i64);
    }
}
