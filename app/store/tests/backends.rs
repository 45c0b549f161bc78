//! Rules that belong to one database: SQLite's settings (D1), PostgreSQL's
//! row-level security (T5) and pooled connections (T6), and that both
//! migration trees stay in step (D3).

use aivet_domain::{Email, Lang, OrgName, PersonName, Role, Slug};
use aivet_store::postgres::PgStore;
use aivet_store::sqlite::SqliteStore;
use aivet_store::testing::TestDb;
use aivet_store::{NewUser, Store};
use chrono::{Duration, Utc};
use std::collections::BTreeSet;

fn user(email: &str) -> NewUser {
    NewUser {
        email: Email::parse(email).unwrap(),
        name: PersonName::parse("X").unwrap(),
        password_hash: "h".into(),
        lang: Lang::En,
    }
}

#[test]
fn migration_trees_have_the_same_versions() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../migrations");
    let versions = |dir: &str| -> BTreeSet<String> {
        std::fs::read_dir(root.join(dir))
            .unwrap()
            .map(|e| {
                e.unwrap()
                    .file_name()
                    .to_string_lossy()
                    .split('_')
                    .next()
                    .unwrap()
                    .to_owned()
            })
            .collect()
    };
    let (s, p) = (versions("sqlite"), versions("postgres"));
    assert!(!s.is_empty());
    assert_eq!(
        s, p,
        "migrations/sqlite and migrations/postgres must have the same versions"
    );
}

#[tokio::test]
async fn sqlite_runs_with_safe_settings() {
    let db = TestDb::sqlite();
    let store = SqliteStore::open(db.url()).await.unwrap();
    let p = store.pragmas().await.unwrap();
    assert_eq!(p.journal_mode, "wal");
    assert_eq!(p.synchronous, 2, "FULL");
    assert_eq!(p.foreign_keys, 1);
    assert!(p.busy_timeout >= 1000);
}

async fn two_orgs(store: &PgStore) -> (aivet_store::Tenant, aivet_store::Tenant) {
    let now = Utc::now();
    let (_, a) = store
        .sign_up(
            user("a@example.com"),
            &OrgName::parse("A").unwrap(),
            &Slug::from_name("A"),
            now,
        )
        .await
        .unwrap();
    let (_, b) = store
        .sign_up(
            user("b@example.com"),
            &OrgName::parse("B").unwrap(),
            &Slug::from_name("B"),
            now,
        )
        .await
        .unwrap();
    for (t, h) in [(&a, "ha"), (&b, "hb")] {
        store
            .create_invite(
                t,
                &Email::parse(&format!("{h}@example.com")).unwrap(),
                Role::Viewer,
                h.as_bytes(),
                now,
                now + Duration::days(1),
                None,
            )
            .await
            .unwrap();
    }
    (a, b)
}

const TENANT_TABLES: &[&str] = &[
    "memberships",
    "invites",
    "audit_log",
    "data_classes",
    "vendors",
    "vendor_contacts",
    "services",
    "service_data_classes",
    "findings",
    "question_sets",
    "question_sends",
    "question_requests",
    "question_request_services",
    "question_items",
    "question_events",
    "attachments",
    "follow_ups",
    "clearances",
    "incidents",
    "incident_vendors",
    "incident_services",
    "incident_data_classes",
    "incident_entries",
    "advisories",
    "advisory_hits",
    "org_changes",
];

#[tokio::test]
async fn postgres_row_level_security_is_a_second_wall() {
    let Some(db) = TestDb::postgres().await else {
        return;
    };
    let store = PgStore::open(db.url(), db.admin_url()).await.unwrap();
    let (a, b) = two_orgs(&store).await;
    let pool = store.pool();

    // The app role neither owns the tables nor bypasses RLS; every tenant
    // table has RLS enabled and forced.
    let (is_super, bypass): (bool, bool) =
        sqlx::query_as("SELECT rolsuper, rolbypassrls FROM pg_roles WHERE rolname = current_user")
            .fetch_one(pool)
            .await
            .unwrap();
    assert!(!is_super && !bypass);
    // Every table with an org_id column is a tenant table (a new table
    // cannot be forgotten here).
    let with_org: Vec<(String,)> = sqlx::query_as(
        "SELECT table_name::text FROM information_schema.columns
         WHERE column_name = 'org_id' AND table_schema = 'public' ORDER BY 1",
    )
    .fetch_all(pool)
    .await
    .unwrap();
    for (table,) in &with_org {
        assert!(
            TENANT_TABLES.contains(&table.as_str())
                || ["outbox", "sessions", "jobs"].contains(&table.as_str()),
            "{table} has an org_id but is not in TENANT_TABLES"
        );
    }
    for table in TENANT_TABLES.iter().chain(&["orgs", "outbox", "jobs"]) {
        let (owner_is_me, enabled, forced): (bool, bool, bool) = sqlx::query_as(
            "SELECT pg_get_userbyid(relowner) = current_user, relrowsecurity, relforcerowsecurity FROM pg_class WHERE relname = $1",
        )
        .bind(table)
        .fetch_one(pool)
        .await
        .unwrap();
        assert!(
            !owner_is_me && enabled && forced,
            "{table}: owner={owner_is_me} enabled={enabled} forced={forced}"
        );
    }

    // Without a context: no rows at all (not all rows).
    for table in TENANT_TABLES.iter().chain(&["orgs"]) {
        let (n,): (i64,) = sqlx::query_as(&format!("SELECT count(*) FROM {table}"))
            .fetch_one(pool)
            .await
            .unwrap();
        assert_eq!(n, 0, "{table} without context");
    }

    // With A's context: only A's rows, B's rows cannot be changed, and
    // writing a row for B fails.
    let mut tx = pool.begin().await.unwrap();
    sqlx::query("SELECT set_config('aivet.org_id', $1, true)")
        .bind(a.org_id().to_string())
        .execute(&mut *tx)
        .await
        .unwrap();
    for table in TENANT_TABLES {
        let (foreign,): (i64,) =
            sqlx::query_as(&format!("SELECT count(*) FROM {table} WHERE org_id <> $1"))
                .bind(a.org_id().0)
                .fetch_one(&mut *tx)
                .await
                .unwrap();
        assert_eq!(foreign, 0, "{table} shows foreign rows");
    }
    let changed = sqlx::query("UPDATE invites SET email = 'x@example.com' WHERE org_id = $1")
        .bind(b.org_id().0)
        .execute(&mut *tx)
        .await
        .unwrap();
    assert_eq!(changed.rows_affected(), 0);
    let deleted = sqlx::query("DELETE FROM memberships WHERE org_id = $1")
        .bind(b.org_id().0)
        .execute(&mut *tx)
        .await
        .unwrap();
    assert_eq!(deleted.rows_affected(), 0);
    let insert = sqlx::query("INSERT INTO memberships (id, org_id, user_id, role, created_at) VALUES ($1, $2, $3, 'owner', now())")
        .bind(uuid::Uuid::new_v4())
        .bind(b.org_id().0)
        .bind(a.user_id().0)
        .execute(&mut *tx)
        .await;
    assert!(insert
        .unwrap_err()
        .to_string()
        .contains("row-level security"));
    drop(tx);
    assert_eq!(store.members(&b).await.unwrap().len(), 1);
    assert_eq!(
        store.pending_invites(&b, Utc::now()).await.unwrap()[0].email,
        "hb@example.com"
    );
}

#[tokio::test]
async fn postgres_pooled_connections_do_not_carry_a_tenant() {
    let Some(db) = TestDb::postgres().await else {
        return;
    };
    PgStore::open(db.url(), db.admin_url()).await.unwrap();
    let store = PgStore::open_with(db.url(), None, 2).await.unwrap();
    let (a, b) = two_orgs(&store).await;
    let mut tasks = Vec::new();
    for i in 0..40u32 {
        let store = store.clone();
        let (t, other) = if i % 2 == 0 {
            (a.clone(), b.clone())
        } else {
            (b.clone(), a.clone())
        };
        tasks.push(tokio::spawn(async move {
            // A raw transaction that sets a tenant and then rolls back or commits…
            let mut tx = store.pool().begin().await.unwrap();
            sqlx::query("SELECT set_config('aivet.org_id', $1, true)")
                .bind(t.org_id().to_string())
                .execute(&mut *tx)
                .await
                .unwrap();
            if i % 3 == 0 {
                tx.rollback().await.unwrap();
            } else {
                tx.commit().await.unwrap();
            }
            // …leaves nothing behind for the next user of the connection.
            let (n,): (i64,) = sqlx::query_as("SELECT count(*) FROM invites")
                .fetch_one(store.pool())
                .await
                .unwrap();
            assert_eq!(n, 0, "a pooled connection kept a tenant");
            let members = store.members(&t).await.unwrap();
            assert!(members.iter().all(|m| m.user_id == t.user_id()));
            let invites = store.pending_invites(&t, Utc::now()).await.unwrap();
            assert!(invites
                .iter()
                .all(|inv| inv.org_id == t.org_id() && inv.org_id != other.org_id()));
        }));
    }
    for task in tasks {
        task.await.unwrap();
    }
}

#[tokio::test]
async fn postgres_refuses_an_unmigrated_schema() {
    let Some(db) = TestDb::postgres().await else {
        return;
    };
    let e = PgStore::open(db.url(), None)
        .await
        .err()
        .expect("unmigrated schema refused");
    assert!(e.to_string().contains("aivet migrate"), "{e}");
    let store = PgStore::open(db.url(), db.admin_url()).await.unwrap();
    assert_eq!(store.backend(), "postgres");
}

/// Several servers starting at once each migrate the same database: they must
/// all come up (the grants after the migrations used to race and fail one of
/// them with "tuple concurrently updated").
#[tokio::test]
async fn postgres_servers_starting_together_all_migrate() {
    let Some(db) = TestDb::postgres().await else {
        return;
    };
    let (url, admin) = (db.url().to_owned(), db.admin_url().unwrap().to_owned());
    PgStore::open(&url, Some(&admin)).await.unwrap();
    let start = || PgStore::open_with(&url, Some(&admin), 1);
    for round in 0..5 {
        let started = tokio::join!(start(), start(), start(), start(), start(), start());
        let started = [
            started.0, started.1, started.2, started.3, started.4, started.5,
        ];
        for (i, result) in started.into_iter().enumerate() {
            if let Err(e) = result {
                panic!("round {round}: server {i} did not start: {e}");
            }
        }
    }
}
