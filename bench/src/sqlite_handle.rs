//! A measurement for a decision, not of a page (`--sqlite-handle-only`).
//!
//! On SQLite most of a page's time goes to handing statements to the
//! connection's own thread and rows back (BENCHMARKS.md, 2026-12-06
//! night). This reads what every page reads first, in the same shape (a
//! transaction of four statements: the session with its user, the
//! membership, the menu's count and its list), two ways on the same pool:
//! through sqlx, and on the caller's thread through the pooled
//! connection's raw handle (`SqliteConnection::lock_handle`, one hand-over)
//! with rusqlite. The statements are written here, not taken from the
//! store: only the mechanism is compared.

use aivet_domain::{Email, Lang, OrgName, PersonName, Slug};
use aivet_store::sqlite::SqliteStore;
use aivet_store::testing::{Backend, TestDb};
use aivet_store::{NewUser, Store};
use sqlx::SqlitePool;
use std::time::{Duration, Instant};

const SESSION: &str = "SELECT s.user_id, s.org_id, u.email, u.name, u.lang FROM sessions s JOIN users u ON u.id = s.user_id WHERE s.id_hash = ?1";
const MEMBERSHIP: &str = "SELECT m.id, m.role, o.time_zone FROM memberships m JOIN orgs o ON o.id = m.org_id WHERE m.user_id = ?1 AND m.org_id = ?2";
const COUNT: &str =
    "SELECT COUNT(*) FROM (SELECT 1 FROM memberships WHERE user_id = ?1 LIMIT 26) AS m";
const ORGS: &str = "SELECT o.id, o.slug, o.name, m.role FROM memberships m JOIN orgs o ON o.id = m.org_id WHERE m.user_id = ?1 ORDER BY o.name, o.slug";
/// The same four reads as one statement: what is more than one row comes
/// back as JSON text, so one statement and one row cross to the caller.
const ONE_STATEMENT: &str = "SELECT s.user_id, s.org_id, u.email, u.name, u.lang,
    (SELECT json_group_array(json_array(hex(m.id), m.role, o.time_zone)) FROM memberships m JOIN orgs o ON o.id = m.org_id
       WHERE m.user_id = s.user_id AND m.org_id = s.org_id),
    (SELECT COUNT(*) FROM (SELECT 1 FROM memberships WHERE user_id = s.user_id LIMIT 26)),
    (SELECT json_group_array(json_array(hex(o.id), o.slug, o.name, m.role) ORDER BY o.name, o.slug)
       FROM memberships m JOIN orgs o ON o.id = m.org_id WHERE m.user_id = s.user_id)
  FROM sessions s JOIN users u ON u.id = s.user_id WHERE s.id_hash = ?1";
const HASH: &[u8] = b"bench-session-hash-0123456789abcdef";

type Session = (Vec<u8>, Option<Vec<u8>>, String, String, String);
type Membership = (Vec<u8>, String, String);
type OrgRow = (Vec<u8>, String, String, String);

/// The four statements through sqlx; how many rows they read.
async fn with_sqlx(pool: &SqlitePool) -> usize {
    let mut tx = pool.begin().await.expect("begin");
    let s: Session = sqlx::query_as(SESSION)
        .bind(HASH)
        .fetch_one(&mut *tx)
        .await
        .expect("session");
    let org = s.1.clone().expect("an organisation");
    let m: Vec<Membership> = sqlx::query_as(MEMBERSHIP)
        .bind(&s.0)
        .bind(&org)
        .fetch_all(&mut *tx)
        .await
        .expect("membership");
    let (n,): (i64,) = sqlx::query_as(COUNT)
        .bind(&s.0)
        .fetch_one(&mut *tx)
        .await
        .expect("count");
    let orgs: Vec<OrgRow> = sqlx::query_as(ORGS)
        .bind(&s.0)
        .fetch_all(&mut *tx)
        .await
        .expect("orgs");
    tx.commit().await.expect("commit");
    1 + m.len() + n as usize + orgs.len()
}

/// The same reads in one statement through sqlx, without a transaction
/// (one statement reads one snapshot).
async fn with_one_statement(pool: &SqlitePool) -> usize {
    type Row = (
        Vec<u8>,
        Option<Vec<u8>>,
        String,
        String,
        String,
        String,
        i64,
        String,
    );
    let r: Row = sqlx::query_as(ONE_STATEMENT)
        .bind(HASH)
        .fetch_one(pool)
        .await
        .expect("one statement");
    let m: Vec<(String, String, String)> = serde_json::from_str(&r.5).expect("membership");
    let orgs: Vec<(String, String, String, String)> = serde_json::from_str(&r.7).expect("orgs");
    1 + m.len() + r.6 as usize + orgs.len()
}

/// The same on the caller's thread, on a pooled connection's raw handle.
async fn with_handle(pool: &SqlitePool) -> usize {
    let mut conn = pool.acquire().await.expect("acquire");
    let mut locked = conn.lock_handle().await.expect("lock the handle");
    let raw = locked.as_raw_handle();
    // SAFETY: `locked` keeps the connection's thread away from the handle
    // until it drops, after `c`; `from_handle` does not close the handle.
    let c = unsafe { rusqlite::Connection::from_handle(raw.as_ptr()) }.expect("wrap the handle");
    let read = || -> rusqlite::Result<usize> {
        c.execute_batch("BEGIN")?;
        let s: Session = c.prepare(SESSION)?.query_row([HASH], |r| {
            Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?))
        })?;
        let org = s.1.clone().expect("an organisation");
        let m: Vec<Membership> = c
            .prepare(MEMBERSHIP)?
            .query_map(rusqlite::params![s.0, org], |r| {
                Ok((r.get(0)?, r.get(1)?, r.get(2)?))
            })?
            .collect::<rusqlite::Result<_>>()?;
        let n: i64 = c.prepare(COUNT)?.query_row([&s.0], |r| r.get(0))?;
        let orgs: Vec<OrgRow> = c
            .prepare(ORGS)?
            .query_map([&s.0], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))?
            .collect::<rusqlite::Result<_>>()?;
        c.execute_batch("COMMIT")?;
        Ok(1 + m.len() + n as usize + orgs.len())
    };
    let rows = read().expect("read");
    drop(c);
    drop(locked);
    rows
}

#[derive(Clone, Copy)]
enum Way {
    Sqlx,
    OneStatement,
    Handle,
}

impl Way {
    async fn run(self, pool: &SqlitePool) -> usize {
        match self {
            Way::Sqlx => with_sqlx(pool).await,
            Way::OneStatement => with_one_statement(pool).await,
            Way::Handle => with_handle(pool).await,
        }
    }
}

pub async fn all(quick: bool) {
    let db = TestDb::new(Backend::Sqlite).await.expect("a SQLite file");
    let store = SqliteStore::open(db.url()).await.expect("open");
    let now = chrono::Utc::now();
    let (user, t) = store
        .sign_up(
            NewUser {
                email: Email::parse("handle@example.com").unwrap(),
                name: PersonName::parse("Handle").unwrap(),
                password_hash: "not used".into(),
                lang: Lang::En,
            },
            &OrgName::parse("Handle").unwrap(),
            &Slug::from_name("Handle"),
            now,
        )
        .await
        .expect("sign up");
    store
        .create_session(
            HASH,
            user.id,
            Some(t.org_id()),
            now,
            now + chrono::Duration::days(1),
        )
        .await
        .expect("session");
    let pool = store.pool().clone();
    assert_eq!(
        with_sqlx(&pool).await,
        with_handle(&pool).await,
        "both read the same"
    );
    assert_eq!(
        with_sqlx(&pool).await,
        with_one_statement(&pool).await,
        "one statement reads the same"
    );
    println!("\n## SQLite: a page's first reads through sqlx and on the caller's thread (one organisation, four statements in a transaction)\n");
    println!("| way | one at a time, mean of 2,000 | 16 tasks at once: transactions/s |");
    println!("|---|---|---|");
    let secs = if quick { 1.0 } else { 5.0 };
    for round in 0..2 {
        for (name, way) in [
            ("sqlx (the connection's thread)", Way::Sqlx),
            ("sqlx, one statement with JSON", Way::OneStatement),
            ("raw handle, rusqlite (the caller's thread)", Way::Handle),
        ] {
            let t0 = Instant::now();
            for _ in 0..2000 {
                way.run(&pool).await;
            }
            let one = t0.elapsed().as_secs_f64() * 1000.0 / 2000.0;
            let end = Instant::now() + Duration::from_secs_f64(secs);
            let tasks: Vec<_> = (0..16)
                .map(|_| {
                    let pool = pool.clone();
                    tokio::spawn(async move {
                        let mut n = 0u64;
                        while Instant::now() < end {
                            way.run(&pool).await;
                            n += 1;
                        }
                        n
                    })
                })
                .collect();
            let mut total = 0;
            for task in tasks {
                total += task.await.expect("task");
            }
            println!(
                "| {name}, round {} | {one:.3} ms | {:.0} |",
                round + 1,
                total as f64 / secs
            );
        }
    }
}
