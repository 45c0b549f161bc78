//! The PostgreSQL store, for deployments with several server processes.
//!
//! The application connects as a role that neither owns the tables nor bypasses
//! row-level security. Migrations run with a separate owner connection
//! (`AIVET_DATABASE_ADMIN_URL`), which also grants the app role exactly what it
//! needs. Each transaction tells PostgreSQL its tenant with
//! `set_config(…, true)` (transaction-local, bound parameters), so a pooled
//! connection never carries a tenant into the next transaction.

// `Result`, `Scope` and `StoreError` are also used by shared.rs.
use crate::{Result, Scope, StoreError};
use sqlx::postgres::{PgConnectOptions, PgPool, PgPoolOptions};
use sqlx::{ConnectOptions, Connection};
use std::str::FromStr;
use std::time::Duration;

type Db = sqlx::Postgres;
type ThisStore = PgStore;

pub static MIGRATOR: sqlx::migrate::Migrator = sqlx::migrate!("../../migrations/postgres");

/// Privileges of the app role per table. Tables not listed get nothing.
pub const GRANTS: &[(&str, &str)] = &[
    ("users", "SELECT, INSERT, UPDATE"),
    ("orgs", "SELECT, INSERT, UPDATE"),
    ("memberships", "SELECT, INSERT, UPDATE, DELETE"),
    ("invites", "SELECT, INSERT, UPDATE"),
    ("sessions", "SELECT, INSERT, UPDATE, DELETE"),
    ("audit_log", "SELECT, INSERT"),
    ("outbox", "SELECT, INSERT, UPDATE"),
    ("password_resets", "SELECT, INSERT, UPDATE"),
    ("data_classes", "SELECT, INSERT, UPDATE, DELETE"),
    ("vendors", "SELECT, INSERT, UPDATE, DELETE"),
    ("vendor_contacts", "SELECT, INSERT, UPDATE, DELETE"),
    ("services", "SELECT, INSERT, UPDATE, DELETE"),
    ("service_data_classes", "SELECT, INSERT, DELETE"),
    ("findings", "SELECT, INSERT, UPDATE, DELETE"),
    ("question_sets", "SELECT, INSERT"),
    ("question_sends", "SELECT, INSERT"),
    ("question_requests", "SELECT, INSERT, UPDATE"),
    ("question_request_services", "SELECT, INSERT"),
    ("question_items", "SELECT, INSERT, UPDATE"),
    ("question_events", "SELECT, INSERT"),
    ("attachments", "SELECT, INSERT"),
    ("jobs", "SELECT, INSERT, UPDATE"),
    ("follow_ups", "SELECT, INSERT, UPDATE"),
    ("clearances", "SELECT, INSERT, UPDATE, DELETE"),
    ("incidents", "SELECT, INSERT, UPDATE"),
    ("incident_vendors", "SELECT, INSERT, DELETE"),
    ("incident_services", "SELECT, INSERT, DELETE"),
    ("incident_data_classes", "SELECT, INSERT, DELETE"),
    // The incident's timeline is append-only.
    ("incident_entries", "SELECT, INSERT"),
    ("advisories", "SELECT, INSERT, UPDATE"),
    ("advisory_hits", "SELECT, INSERT, DELETE"),
    // Raised by triggers (migration 0018), read by the dashboard.
    ("org_changes", "SELECT, INSERT, UPDATE"),
    ("_sqlx_migrations", "SELECT"),
];

#[derive(Clone)]
pub struct PgStore {
    pool: PgPool,
    /// The dashboards last counted (see [`crate::kept`]).
    kept: std::sync::Arc<crate::kept::KeptDashboards>,
}

impl PgStore {
    /// Whether a page's read is one statement with its lists as JSON: not
    /// here, where rows come over the connection in batches, and where the
    /// row policies need the tenant's scope set in the transaction before
    /// a tenant's rows are read.
    const LISTS_AS_JSON: bool = false;
    const BACKEND: &'static str = "postgres";
    /// PostgreSQL numbers its parameters `$N` (see [`many_params`]).
    const ANONYMOUS_PARAMS: bool = false;
    /// Concurrent workers pass over rows another worker is claiming, instead
    /// of waiting for them and then finding them taken.
    const SKIP_LOCKED: &'static str = "FOR UPDATE SKIP LOCKED";

    /// Connects as the app role. With `admin_url`, first migrates the schema as
    /// its owner and grants the app role its privileges.
    pub async fn open(url: &str, admin_url: Option<&str>) -> Result<PgStore> {
        Self::open_with(url, admin_url, 16).await
    }

    pub async fn open_with(
        url: &str,
        admin_url: Option<&str>,
        max_connections: u32,
    ) -> Result<PgStore> {
        let options = PgConnectOptions::from_str(url)?;
        if let Some(admin) = admin_url {
            migrate(admin, options.get_username()).await?;
        }
        let pool = PgPoolOptions::new()
            .max_connections(max_connections)
            .acquire_timeout(Duration::from_secs(10))
            .connect_with(options)
            .await?;
        let store = PgStore {
            pool,
            kept: Default::default(),
        };
        store.check_role().await?;
        // Without an admin connection the schema must already be current.
        let applied: Option<(i64,)> =
            sqlx::query_as("SELECT max(version) FROM _sqlx_migrations WHERE success")
                .fetch_optional(&store.pool)
                .await
                .ok()
                .flatten();
        let latest = MIGRATOR.iter().map(|m| m.version).max().unwrap_or(0);
        if applied.map(|a| a.0) != Some(latest) {
            return Err(StoreError::Config(format!(
                "the PostgreSQL schema is not at version {latest}: run `aivet migrate` with AIVET_DATABASE_ADMIN_URL set"
            )));
        }
        Ok(store)
    }

    pub fn pool(&self) -> &PgPool {
        &self.pool
    }

    /// Refuses roles for which row-level security would not apply.
    async fn check_role(&self) -> Result<()> {
        let (superuser, bypass): (bool, bool) = sqlx::query_as(
            "SELECT rolsuper, rolbypassrls FROM pg_roles WHERE rolname = current_user",
        )
        .fetch_one(&self.pool)
        .await?;
        if superuser || bypass {
            return Err(StoreError::Config(
                "AIVET_DATABASE_URL connects as a superuser or a role with BYPASSRLS; row-level security would not \
                 apply. Connect as an ordinary role (see README, \"Running on PostgreSQL\")."
                    .into(),
            ));
        }
        Ok(())
    }

    async fn begin(&self, scope: Scope<'_>) -> Result<sqlx::Transaction<'static, Db>> {
        let mut tx = self.pool.begin().await?;
        Self::rescope(&mut tx, scope).await?;
        Ok(tx)
    }

    async fn read(&self, scope: Scope<'_>) -> Result<sqlx::Transaction<'static, Db>> {
        self.begin(scope).await
    }

    async fn write(&self, scope: Scope<'_>) -> Result<sqlx::Transaction<'static, Db>> {
        self.begin(scope).await
    }

    async fn rescope(tx: &mut sqlx::Transaction<'static, Db>, scope: Scope<'_>) -> Result<()> {
        let (org, user, invite, request, system) = match scope {
            Scope::None | Scope::OrgSlug(_) | Scope::CalendarToken(_) => {
                (None, None, None, None, false)
            }
            Scope::User(u) => (None, Some(u.0), None, None, false),
            Scope::Org(o, u) => (Some(o.0), u.map(|u| u.0), None, None, false),
            Scope::Tenant(t) => (Some(t.org_id().0), Some(t.user_id().0), None, None, false),
            Scope::InviteToken(h) => (None, None, Some(hex_encode(h)), None, false),
            Scope::RequestToken(h) => (None, None, None, Some(hex_encode(h)), false),
            Scope::System => (None, None, None, None, true),
        };
        let slug = match scope {
            Scope::OrgSlug(s) => s,
            _ => "",
        };
        let calendar = match scope {
            Scope::CalendarToken(h) => hex_encode(h),
            _ => String::new(),
        };
        sqlx::query(
            "SELECT set_config('aivet.org_id', $1, true), set_config('aivet.user_id', $2, true),
                    set_config('aivet.invite_token', $3, true), set_config('aivet.system', $4, true),
                    set_config('aivet.request_token', $5, true), set_config('aivet.org_slug', $6, true),
                    set_config('aivet.calendar_token', $7, true)",
        )
        .bind(org.map(|o| o.to_string()).unwrap_or_default())
        .bind(user.map(|u| u.to_string()).unwrap_or_default())
        .bind(invite.unwrap_or_default())
        .bind(if system { "on" } else { "" })
        .bind(request.unwrap_or_default())
        .bind(slug)
        .bind(calendar)
        .execute(&mut **tx)
        .await?;
        Ok(())
    }
}

fn hex_encode(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The advisory lock that serialises the grants of servers starting together
/// ("aivetgrt" in ASCII; sqlx's migrator uses a lock of its own).
const GRANTS_LOCK: i64 = 0x6169_7665_7467_7274;

/// Runs the migrations as the schema owner and grants `app_role` its privileges.
pub async fn migrate(admin_url: &str, app_role: &str) -> Result<()> {
    let mut conn = PgConnectOptions::from_str(admin_url)?.connect().await?;
    MIGRATOR.run(&mut conn).await?;
    let role = quote_ident(app_role);
    let mut tx = conn.begin().await?;
    // Servers starting together each run this; without the lock their grants
    // update the same catalogue rows at once and one of them fails with
    // "tuple concurrently updated". The lock ends with the transaction.
    sqlx::query("SELECT pg_advisory_xact_lock($1)")
        .bind(GRANTS_LOCK)
        .execute(&mut *tx)
        .await?;
    sqlx::query(&format!("GRANT USAGE ON SCHEMA public TO {role}"))
        .execute(&mut *tx)
        .await?;
    sqlx::query(&format!(
        "REVOKE ALL ON ALL TABLES IN SCHEMA public FROM {role}"
    ))
    .execute(&mut *tx)
    .await?;
    for (table, privileges) in GRANTS {
        sqlx::query(&format!(
            "GRANT {privileges} ON {} TO {role}",
            quote_ident(table)
        ))
        .execute(&mut *tx)
        .await?;
    }
    tx.commit().await?;
    Ok(())
}

fn quote_ident(s: &str) -> String {
    format!("\"{}\"", s.replace('"', "\"\""))
}

// How statements take many ids or rows (see `shared.rs`). Here as arrays,
// one parameter per column however many rows there are: one statement text,
// prepared once per connection, where lists of `$N` would be parsed and
// planned again for every number of rows.

/// Rows one statement writes, or ids one statement reads, at most. The
/// text does not depend on it; it bounds the message a connection sends,
/// and so the write buffer each pooled connection keeps at the size of its
/// largest message (a rematch writes tens of thousands of hits, a sweep
/// thousands of mails).
const ROWS_PER_STATEMENT: usize = 1_000;

/// The parts of a list that go into one statement each.
fn statement_chunks<T>(items: &[T]) -> std::slice::Chunks<'_, T> {
    items.chunks(ROWS_PER_STATEMENT)
}

/// `= ANY(…)`: the ids as one array, parameter `from`.
fn ids_in(_n: usize, from: usize) -> String {
    format!("= ANY(${from})")
}

/// Rows of `cols` columns as a table whose columns are `column1`,
/// `column2`, …: one array per column, from parameter `from` on.
fn rows_table(_rows: usize, cols: usize, from: usize) -> String {
    let names: Vec<String> = (1..=cols).map(|c| format!("column{c}")).collect();
    format!(
        "UNNEST({}) AS r({})",
        param_list(cols, from),
        names.join(", ")
    )
}

/// Whether a statement of a chunk of `n` stays in the statement cache:
/// always, as its text does not depend on `n`.
fn chunk_cached(_n: usize) -> bool {
    true
}

/// Binds a chunk of ids for [`ids_in`]: one array.
macro_rules! bind_ids {
    ($q:expr, $ids:expr) => {
        $q.bind($ids)
    };
}

/// Binds a chunk of rows for [`rows_table`], column by column: `|r| a, b,
/// …` are the values of row `r`, each collected into its column's array.
macro_rules! bind_rows {
    ($q:expr, $rows:expr, |$r:ident| $($v:expr),+ $(,)?) => {{
        let q = $q;
        $(let q = q.bind($rows.iter().map(|#[allow(unused_variables)] $r| $v).collect::<Vec<_>>());)+
        q
    }};
}

#[cfg(test)]
const TEST_BACKEND: crate::testing::Backend = crate::testing::Backend::Postgres;

#[cfg(test)]
async fn open_for_tests(db: &crate::testing::TestDb) -> ThisStore {
    PgStore::open(db.url(), db.admin_url()).await.unwrap()
}

include!("shared.rs");
include!("inventory_sql.rs");
include!("questions_sql.rs");
include!("jobs_sql.rs");
include!("follow_ups_sql.rs");
include!("report_sql.rs");
include!("clearance_sql.rs");
include!("incident_sql.rs");
include!("advisory_sql.rs");
include!("transfer_sql.rs");

/// The role name in an app connection URL.
pub fn app_role(url: &str) -> Result<String> {
    Ok(PgConnectOptions::from_str(url)?.get_username().to_owned())
}
