//! Fresh databases for tests: a temporary SQLite file, or a new PostgreSQL
//! database (created by the owner role, used through the app role) that is
//! dropped when the test ends, even when it panics.
//!
//! PostgreSQL tests need `AIVET_TEST_PG_ADMIN_URL` (an owner role with
//! CREATEDB, connected to any database) and `AIVET_TEST_PG_APP_URL` (the app
//! role, without a database name); `scripts/pg.sh` sets both up. Without them
//! PostgreSQL tests are skipped with a note, unless `AIVET_TEST_REQUIRE_PG=1`
//! (as in CI), which makes their absence a failure.

use std::path::PathBuf;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    Postgres,
}

pub struct TestDb {
    pub backend: Backend,
    url: String,
    admin_url: Option<String>,
    cleanup: Cleanup,
}

enum Cleanup {
    Dir(PathBuf),
    PgDatabase {
        server_admin_url: String,
        name: String,
    },
}

fn random_suffix() -> String {
    uuid::Uuid::new_v4().simple().to_string()[..12].to_owned()
}

impl TestDb {
    /// A database of the given kind, or `None` when PostgreSQL is not set up
    /// (and not required).
    pub async fn new(backend: Backend) -> Option<TestDb> {
        match backend {
            Backend::Sqlite => Some(Self::sqlite()),
            Backend::Postgres => Self::postgres().await,
        }
    }

    pub fn sqlite() -> TestDb {
        let dir = std::env::temp_dir().join(format!("aivet-test-{}", random_suffix()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        let url = format!("sqlite://{}/aivet.db", dir.display());
        TestDb {
            backend: Backend::Sqlite,
            url,
            admin_url: None,
            cleanup: Cleanup::Dir(dir),
        }
    }

    pub async fn postgres() -> Option<TestDb> {
        let (Ok(admin), Ok(app)) = (
            std::env::var("AIVET_TEST_PG_ADMIN_URL"),
            std::env::var("AIVET_TEST_PG_APP_URL"),
        ) else {
            if std::env::var("AIVET_TEST_REQUIRE_PG").as_deref() == Ok("1") {
                panic!("AIVET_TEST_REQUIRE_PG=1 but AIVET_TEST_PG_ADMIN_URL / AIVET_TEST_PG_APP_URL are not set (run scripts/pg.sh)");
            }
            eprintln!("note: PostgreSQL not configured; skipping (set it up with scripts/pg.sh)");
            return None;
        };
        let name = format!("aivet_t_{}", random_suffix());
        let mut conn = sqlx::postgres::PgConnection::connect(&admin)
            .await
            .expect("connect as the PostgreSQL test admin");
        sqlx::query(&format!("CREATE DATABASE {name}"))
            .execute(&mut conn)
            .await
            .expect("create test database");
        let _ = sqlx::Connection::close(conn).await;
        let with_db = |base: &str| {
            let mut u = url::Url::parse(base).expect("PostgreSQL URL");
            u.set_path(&format!("/{name}"));
            u.to_string()
        };
        Some(TestDb {
            backend: Backend::Postgres,
            url: with_db(&app),
            admin_url: Some(with_db(&admin)),
            cleanup: Cleanup::PgDatabase {
                server_admin_url: admin,
                name,
            },
        })
    }

    /// The URL the application connects with (the app role on PostgreSQL).
    pub fn url(&self) -> &str {
        &self.url
    }

    /// The schema owner's URL (PostgreSQL only).
    pub fn admin_url(&self) -> Option<&str> {
        self.admin_url.as_deref()
    }
}

use sqlx::Connection;

impl Drop for TestDb {
    fn drop(&mut self) {
        match &self.cleanup {
            Cleanup::Dir(dir) => {
                let _ = std::fs::remove_dir_all(dir);
            }
            Cleanup::PgDatabase {
                server_admin_url,
                name,
            } => {
                let (url, name) = (server_admin_url.clone(), name.clone());
                // Drop may run inside an async runtime: use a thread of its own.
                let _ = std::thread::spawn(move || {
                    let rt = tokio::runtime::Builder::new_current_thread()
                        .enable_all()
                        .build()
                        .expect("runtime");
                    rt.block_on(async move {
                        if let Ok(mut c) = sqlx::postgres::PgConnection::connect(&url).await {
                            let _ = sqlx::query(&format!(
                                "DROP DATABASE IF EXISTS {name} WITH (FORCE)"
                            ))
                            .execute(&mut c)
                            .await;
                        }
                    });
                })
                .join();
            }
        }
    }
}
