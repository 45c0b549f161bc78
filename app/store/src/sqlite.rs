//! The embedded SQLite store: one file, WAL journal (checkpointed every
//! 10,000 pages), synchronous=FULL, foreign keys on, a busy timeout so
//! concurrent writers wait instead of failing.
//! Writes take the lock up front (`BEGIN IMMEDIATE`), so a transaction never
//! fails half-way when it turns from reading to writing.

// `Result`, `Scope` and `StoreError` are also used by shared.rs.
use crate::{Result, Scope, StoreError};
use sqlx::sqlite::{
    SqliteConnectOptions, SqliteJournalMode, SqlitePool, SqlitePoolOptions, SqliteSynchronous,
};
use std::str::FromStr;
use std::time::Duration;

type Db = sqlx::Sqlite;
type ThisStore = SqliteStore;

pub static MIGRATOR: sqlx::migrate::Migrator = sqlx::migrate!("../../migrations/sqlite");

#[derive(Clone)]
pub struct SqliteStore {
    pool: SqlitePool,
    /// The dashboards last counted (see [`crate::kept`]).
    kept: std::sync::Arc<crate::kept::KeptDashboards>,
}

/// The connection settings as SQLite reports them (shared/SECURITY.md D1).
#[derive(Debug, PartialEq, Eq)]
pub struct Pragmas {
    pub journal_mode: String,
    pub synchronous: i64,
    pub foreign_keys: i64,
    pub busy_timeout: i64,
}

impl SqliteStore {
    /// Writes a consistent copy of the database to `path` (which must not
    /// exist) with `VACUUM INTO`: one read transaction, so writers go on
    /// meanwhile and the copy is the database as of its start.
    pub async fn backup_into(&self, path: &str) -> Result<()> {
        let mut conn = self.pool.acquire().await?;
        sqlx::query("VACUUM INTO $1")
            .bind(path)
            .execute(&mut *conn)
            .await?;
        Ok(())
    }

    /// Whether a page's read is one statement, its lists as one JSON text
    /// each, instead of a transaction of statements returning rows.
    /// SQLite's driver hands each statement and each row over to and from
    /// its connection's thread, which costs more than the queries
    /// (BENCHMARKS.md, 2026-12-04): one row of JSON crosses once, and the
    /// session's reads took 0.07 ms as one statement against 0.27–0.29 ms
    /// as a transaction of four (2026-12-07). SQLite has no row policies to
    /// scope a transaction to, and one statement reads one snapshot.
    const LISTS_AS_JSON: bool = true;
    const BACKEND: &'static str = "sqlite";
    /// SQLite finds a parameter written `$N` by its name, in a list it
    /// walks from the start, once when it parses the statement and once
    /// more when the driver asks each parameter's name to bind it: twice
    /// quadratic in a multi-row statement's hundreds of parameters. See
    /// [`many_params`].
    const ANONYMOUS_PARAMS: bool = true;
    /// SQLite has one writer at a time; claims never collide.
    const SKIP_LOCKED: &'static str = "";

    /// Opens (creating if needed) the database file and runs the migrations.
    pub async fn open(url: &str) -> Result<SqliteStore> {
        let options = SqliteConnectOptions::from_str(url)?
            .create_if_missing(true)
            .journal_mode(SqliteJournalMode::Wal)
            .synchronous(SqliteSynchronous::Full)
            .foreign_keys(true)
            .busy_timeout(Duration::from_secs(10))
            // The committing connection copies the WAL back into the
            // database (and syncs it) once the WAL holds this many pages:
            // 40 MB instead of SQLite's 4 MB. Pages that many transactions
            // change in a row (the jobs, the outbox's indexes) are copied
            // once instead of every few transactions; 5,000 reminders took
            // about a tenth less time (BENCHMARKS.md, 2026-12-07 morning).
            // The WAL file keeps the size it reached.
            .pragma("wal_autocheckpoint", "10000");
        let pool = SqlitePoolOptions::new()
            .max_connections(8)
            .min_connections(1)
            .connect_with(options)
            .await?;
        MIGRATOR.run(&pool).await?;
        let store = SqliteStore {
            pool,
            kept: Default::default(),
        };
        let p = store.pragmas().await?;
        if p.journal_mode != "wal"
            || p.synchronous != 2
            || p.foreign_keys != 1
            || p.busy_timeout <= 0
        {
            return Err(StoreError::Config(format!(
                "SQLite settings not in effect: {p:?}"
            )));
        }
        Ok(store)
    }

    pub fn pool(&self) -> &SqlitePool {
        &self.pool
    }

    pub async fn pragmas(&self) -> Result<Pragmas> {
        let mut c = self.pool.acquire().await?;
        let journal_mode: (String,) = sqlx::query_as("PRAGMA journal_mode")
            .fetch_one(&mut *c)
            .await?;
        let synchronous: (i64,) = sqlx::query_as("PRAGMA synchronous")
            .fetch_one(&mut *c)
            .await?;
        let foreign_keys: (i64,) = sqlx::query_as("PRAGMA foreign_keys")
            .fetch_one(&mut *c)
            .await?;
        let busy_timeout: (i64,) = sqlx::query_as("PRAGMA busy_timeout")
            .fetch_one(&mut *c)
            .await?;
        Ok(Pragmas {
            journal_mode: journal_mode.0.to_lowercase(),
            synchronous: synchronous.0,
            foreign_keys: foreign_keys.0,
            busy_timeout: busy_timeout.0,
        })
    }

    async fn read(&self, _scope: Scope<'_>) -> Result<sqlx::Transaction<'static, Db>> {
        Ok(self.pool.begin().await?)
    }

    async fn write(&self, _scope: Scope<'_>) -> Result<sqlx::Transaction<'static, Db>> {
        Ok(self.pool.begin_with("BEGIN IMMEDIATE").await?)
    }

    async fn rescope(_tx: &mut sqlx::Transaction<'static, Db>, _scope: Scope<'_>) -> Result<()> {
        Ok(())
    }
}

// How statements take many ids or rows (see `shared.rs`). Here as lists
// of parameters, a chunk of at most [`ROWS_PER_STATEMENT`] per statement.

/// Rows one statement writes, or ids one statement reads, at most: well
/// within SQLite's limit on parameters.
const ROWS_PER_STATEMENT: usize = 100;

/// The parts of a list that go into one statement each.
fn statement_chunks<T>(items: &[T]) -> std::slice::Chunks<'_, T> {
    items.chunks(ROWS_PER_STATEMENT)
}

/// `IN (…)`: `n` ids from parameter `from` on.
fn ids_in(n: usize, from: usize) -> String {
    format!("IN ({})", param_list(n, from))
}

/// `rows` rows of `cols` parameters each, from parameter `from` on, as a
/// table whose columns are `column1`, `column2`, ….
fn rows_table(rows: usize, cols: usize, from: usize) -> String {
    let values: Vec<String> = (0..rows)
        .map(|r| format!("({})", param_list(cols, from + r * cols)))
        .collect();
    format!("(VALUES {})", values.join(", "))
}

/// Whether a statement of a chunk of `n` stays in the driver's statement
/// cache: its text depends on how many rows it has, so only one row (the
/// common case) or a full chunk of [`ROWS_PER_STATEMENT`] (what a large
/// batch is made of); otherwise every batch size would take a place there.
fn chunk_cached(n: usize) -> bool {
    n == 1 || n == ROWS_PER_STATEMENT
}

/// Binds a chunk of ids for [`ids_in`]: one parameter each.
macro_rules! bind_ids {
    ($q:expr, $ids:expr) => {{
        let mut q = $q;
        for id in $ids {
            q = q.bind(*id);
        }
        q
    }};
}

/// Binds a chunk of rows for [`rows_table`], row by row: `|r| a, b, …` are
/// the values of row `r`.
macro_rules! bind_rows {
    ($q:expr, $rows:expr, |$r:ident| $($v:expr),+ $(,)?) => {{
        let mut q = $q;
        for $r in $rows {
            $(q = q.bind($v);)+
        }
        q
    }};
}

#[cfg(test)]
const TEST_BACKEND: crate::testing::Backend = crate::testing::Backend::Sqlite;

#[cfg(test)]
async fn open_for_tests(db: &crate::testing::TestDb) -> ThisStore {
    SqliteStore::open(db.url()).await.unwrap()
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

#[cfg(test)]
mod tests {
    use super::many_params;

    #[test]
    fn parameters_in_order_become_anonymous_and_others_numbered() {
        assert_eq!(
            many_params("UPDATE t SET a = $1 WHERE b = $2 AND id IN ($3, $4)".into()),
            "UPDATE t SET a = ? WHERE b = ? AND id IN (?, ?)"
        );
        // A parameter used twice, or out of order: SQLite takes ?N as the
        // number N, as the driver binds it.
        assert_eq!(
            many_params("INSERT INTO t VALUES ($1, $2, $2), ($3, $4, $4)".into()),
            "INSERT INTO t VALUES (?1, ?2, ?2), (?3, ?4, ?4)"
        );
        assert_eq!(
            many_params("UPDATE t SET a = $2 WHERE org = $1 AND id IN ($3, $10)".into()),
            "UPDATE t SET a = ?2 WHERE org = ?1 AND id IN (?3, ?10)"
        );
        // Quoted text and a lone `$` stay as they are.
        assert_eq!(
            many_params(
                "SELECT '$1 it''s $2', json_extract(x, '$.a') FROM t WHERE a = $1 AND b = $".into()
            ),
            "SELECT '$1 it''s $2', json_extract(x, '$.a') FROM t WHERE a = ? AND b = $"
        );
    }
}
