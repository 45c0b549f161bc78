//! Starting the application for a test and talking to it.

use aivet_server::config::Config;
use aivet_server::Application;
use aivet_services::{FixedClock, Limits, Services};
use aivet_store::testing::{Backend, TestDb};
use chrono::{TimeZone, Utc};
use reqwest::header::{HeaderMap, HeaderValue};
use reqwest::{Client, Response};
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Arc;

pub use aivet_store::testing::Backend as Db;

pub struct TestApp {
    pub base: String,
    pub clock: Arc<FixedClock>,
    pub services: Services,
    pub db: TestDb,
    pub data_dir: PathBuf,
    server: tokio::task::JoinHandle<()>,
    /// The outbox worker, for tests that run with `manual_mail`.
    pub worker: aivet_mail::Worker,
    /// The job worker: tests run jobs by hand ([`TestApp::run_jobs`])
    /// after moving the clock.
    pub jobs: aivet_services::jobs::JobWorker,
}

impl Drop for TestApp {
    fn drop(&mut self) {
        self.server.abort();
        let _ = std::fs::remove_dir_all(&self.data_dir);
    }
}

pub fn repo_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

#[derive(Default)]
pub struct Options {
    pub limits: Limits,
    pub base_url: Option<String>,
    /// Send mail through this SMTP server instead of the data folder.
    pub smtp_url: Option<String>,
    /// Keep the background mail worker off; the test drives `worker` by hand.
    pub manual_mail: bool,
    /// Further settings, as `AIVET_*` environment variables.
    pub env: Vec<(&'static str, String)>,
}

impl TestApp {
    /// The app on a fresh database of the given kind; `None` when that kind
    /// is not available here (PostgreSQL not configured and not required).
    pub async fn spawn(backend: Backend) -> Option<TestApp> {
        Self::spawn_with(backend, Options::default()).await
    }

    pub async fn spawn_with(backend: Backend, options: Options) -> Option<TestApp> {
        let db = TestDb::new(backend).await?;
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = listener.local_addr().unwrap().port();
        let base = options
            .base_url
            .clone()
            .unwrap_or_else(|| format!("http://127.0.0.1:{port}"));
        let data_dir =
            std::env::temp_dir().join(format!("aivet-it-{}", uuid::Uuid::new_v4().simple()));
        let site_root = std::env::var("AIVET_SITE_ROOT")
            .map(PathBuf::from)
            .unwrap_or_else(|_| repo_root().join("target/site"));
        let mut env: HashMap<String, String> = HashMap::new();
        env.insert("AIVET_LISTEN".into(), format!("127.0.0.1:{port}"));
        env.insert("AIVET_BASE_URL".into(), base.clone());
        env.insert("AIVET_DATA_DIR".into(), data_dir.display().to_string());
        env.insert("AIVET_DATABASE_URL".into(), db.url().to_owned());
        if let Some(admin) = db.admin_url() {
            env.insert("AIVET_DATABASE_ADMIN_URL".into(), admin.to_owned());
        }
        env.insert(
            "AIVET_SESSION_SECRET".into(),
            "test-secret-test-secret-test-secret-0123".into(),
        );
        env.insert("AIVET_SITE_ROOT".into(), site_root.display().to_string());
        if let Some(smtp) = &options.smtp_url {
            env.insert("AIVET_SMTP_URL".into(), smtp.clone());
        }
        if options.manual_mail {
            env.insert("AIVET_MAIL_WORKER".into(), "off".into());
        }
        env.insert("AIVET_MAIL_FROM".into(), "aivet <aivet@aivet.test>".into());
        env.insert("AIVET_JOB_WORKER".into(), "off".into());
        for (k, v) in &options.env {
            env.insert((*k).to_owned(), v.clone());
        }
        let mut config = Config::from_sources(&env, &data_dir).expect("test configuration");
        // Beside the test executable there is none: cargo built this one.
        config.pdf_worker = env!("CARGO_BIN_EXE_aivet-pdf").into();
        let clock = Arc::new(FixedClock::new(
            Utc.with_ymd_and_hms(2026, 11, 30, 9, 0, 0).unwrap(),
        ));
        let app = Application::build_on(config, listener, clock.clone(), options.limits)
            .await
            .expect("application starts");
        let services = app.services().clone();
        let worker = app.mail_worker();
        let jobs = app.job_worker();
        let server = tokio::spawn(async move {
            let _ = app.run_until_stopped().await;
        });
        let test_app = TestApp {
            base: format!("http://127.0.0.1:{port}"),
            clock,
            services,
            db,
            data_dir,
            server,
            worker,
            jobs,
        };
        test_app.await_ready(&base).await;
        Some(test_app)
    }

    /// Waits until the server answers its health check (it is bound before
    /// the task starts, so this is immediate; never a sleep).
    async fn await_ready(&self, _origin: &str) {
        let c = Client::new();
        for _ in 0..1000 {
            if let Ok(r) = c.get(self.url("/health")).send().await {
                if r.status().is_success() {
                    return;
                }
            }
            tokio::task::yield_now().await;
        }
        panic!("the server did not become ready");
    }

    /// Schedules the recurring jobs and runs every job due at the clock's
    /// time, as the server's job worker would.
    pub async fn run_jobs(&self) -> aivet_services::jobs::JobPass {
        self.jobs.round().await.expect("jobs run")
    }

    pub fn url(&self, path: &str) -> String {
        format!("{}{}", self.base, path)
    }

    /// A browser-like client with its own cookie jar, sending the app's
    /// Origin (as browsers do on POST), not following redirects.
    pub fn client(&self) -> Client {
        self.client_with_origin(&self.base)
    }

    pub fn client_with_origin(&self, origin: &str) -> Client {
        let mut h = HeaderMap::new();
        h.insert("origin", HeaderValue::from_str(origin).unwrap());
        Client::builder()
            .cookie_store(true)
            .default_headers(h)
            .redirect(reqwest::redirect::Policy::none())
            // A response that never comes fails its test instead of stalling
            // the whole suite (no request here takes more than a second).
            .timeout(std::time::Duration::from_secs(60))
            .build()
            .unwrap()
    }

    /// Calls a server function as the browser bundle does (form-encoded POST).
    pub async fn call(&self, c: &Client, name: &str, form: &[(&str, &str)]) -> Response {
        c.post(self.url(&format!("/api/{name}")))
            .form(form)
            .send()
            .await
            .unwrap()
    }

    /// Signs up a new owner with a new organisation; returns the signed-in client.
    pub async fn sign_up(&self, email: &str, org: &str) -> Client {
        let c = self.client();
        let r = self
            .call(
                &c,
                "sign_up",
                &[
                    ("email", email),
                    ("password", PASSWORD),
                    ("name", &name_of(email)),
                    ("org_name", org),
                ],
            )
            .await;
        assert!(accepted(&r), "sign up {email}: {}", r.status());
        c
    }

    /// Invites `email` into the owner's organisation and signs them up through the link.
    pub async fn invite_and_join(&self, owner: &Client, email: &str, role: &str) -> Client {
        let r = self
            .call(owner, "create_invite", &[("email", email), ("role", role)])
            .await;
        assert_eq!(r.status(), 200, "create invite");
        let link = r.json::<serde_json::Value>().await.unwrap()["link"]
            .as_str()
            .unwrap()
            .to_owned();
        let token = link.rsplit('/').next().unwrap().to_owned();
        let c = self.client();
        let r = self
            .call(
                &c,
                "sign_up_with_invite",
                &[
                    ("token", &token),
                    ("name", &name_of(email)),
                    ("password", PASSWORD),
                ],
            )
            .await;
        assert!(accepted(&r), "join: {}", r.status());
        c
    }

    pub async fn sign_in(&self, c: &Client, email: &str, password: &str) -> Response {
        self.call(c, "sign_in", &[("email", email), ("password", password)])
            .await
    }

    /// A new client signed in as `email` (after the clock has moved past
    /// a session's lifetime).
    pub async fn signed_in(&self, email: &str) -> Client {
        let c = self.client();
        let r = self.sign_in(&c, email, PASSWORD).await;
        assert!(accepted(&r), "sign in {email}: {}", r.status());
        c
    }

    /// How many sessions the database holds.
    pub async fn session_count(&self) -> i64 {
        let q = "SELECT count(*) FROM sessions";
        let (n,): (i64,) = match self.db.backend {
            Db::Sqlite => sqlx::query_as(q).fetch_one(&self.raw_sqlite().await).await,
            Db::Postgres => {
                let pool = sqlx::PgPool::connect(self.db.url()).await.unwrap();
                sqlx::query_as(q).fetch_one(&pool).await
            }
        }
        .unwrap();
        n
    }

    /// What the settings page shows the signed-in member, as JSON.
    pub async fn settings(&self, c: &Client) -> serde_json::Value {
        self.call(c, "settings_data", &[])
            .await
            .json()
            .await
            .unwrap()
    }

    pub async fn get_text(&self, c: &Client, path: &str) -> (u16, String) {
        let r = c.get(self.url(path)).send().await.unwrap();
        let s = r.status().as_u16();
        (s, r.text().await.unwrap())
    }

    /// A direct connection to the test database (as its owner on PostgreSQL).
    pub async fn raw_sqlite(&self) -> sqlx::SqlitePool {
        sqlx::SqlitePool::connect(self.db.url()).await.unwrap()
    }

    /// Runs one statement directly on the test database, past the app (as
    /// the schema owner on PostgreSQL): for tests that break the database
    /// on purpose.
    pub async fn exec_raw(&self, sql: &str) {
        use sqlx::Connection;
        match self.db.admin_url() {
            Some(admin) => {
                let mut c = sqlx::PgConnection::connect(admin).await.unwrap();
                sqlx::query(sql).execute(&mut c).await.unwrap();
            }
            None => {
                let pool = self.raw_sqlite().await;
                sqlx::query(sql).execute(&pool).await.unwrap();
            }
        }
    }
}

pub trait ClockExt {
    fn now_for_tests(&self) -> chrono::DateTime<Utc>;
}
impl ClockExt for Arc<FixedClock> {
    fn now_for_tests(&self) -> chrono::DateTime<Utc> {
        aivet_services::Clock::now(self.as_ref())
    }
}

/// A server function call that did its work: 2xx, or the redirect a
/// state-changing one answers with.
pub fn accepted(r: &Response) -> bool {
    r.status().is_success() || r.status().is_redirection()
}

/// The id of the member or invitation with this email in a settings list.
pub fn id_by_email(list: &serde_json::Value, email: &str) -> String {
    list.as_array()
        .unwrap()
        .iter()
        .find(|m| m["email"] == email)
        .unwrap_or_else(|| panic!("{email} not in {list}"))["id"]
        .as_str()
        .unwrap()
        .to_owned()
}

pub const PASSWORD: &str = "correct horse battery staple";

pub fn name_of(email: &str) -> String {
    let local = email.split('@').next().unwrap();
    let mut c = local.chars();
    c.next()
        .map(|f| f.to_uppercase().collect::<String>() + c.as_str())
        .unwrap_or_default()
}

/// Runs a test body against both databases.
#[macro_export]
macro_rules! on_both {
    ($($name:ident),* $(,)?) => {
        mod sqlite {
            $(#[tokio::test] async fn $name() { super::$name($crate::helpers::Db::Sqlite).await })*
        }
        mod postgres {
            $(#[tokio::test] async fn $name() { super::$name($crate::helpers::Db::Postgres).await })*
        }
    };
}

pub fn set_cookies(r: &Response) -> Vec<String> {
    r.headers()
        .get_all("set-cookie")
        .iter()
        .map(|v| v.to_str().unwrap().to_owned())
        .collect()
}

/// The text of the mails in the outbox folder that contain `marker`,
/// waiting until there are at least `n`.
pub async fn mails_with(app: &TestApp, marker: &str, n: usize) -> Vec<String> {
    let dir = app.data_dir.join("outbox");
    // The mail worker writes them; on a loaded machine (the whole suite
    // at once) that can take a while, so the bound is time, not turns.
    let until = std::time::Instant::now() + std::time::Duration::from_secs(30);
    while std::time::Instant::now() < until {
        let found: Vec<String> = std::fs::read_dir(&dir)
            .into_iter()
            .flatten()
            .flatten()
            .filter_map(|e| {
                let data = std::fs::read(e.path()).ok()?;
                let m = mailparse::parse_mail(&data).ok()?;
                let text = m.subparts.first()?.get_body().ok()?;
                text.contains(marker).then_some(text)
            })
            .collect();
        if found.len() >= n {
            return found;
        }
        tokio::task::yield_now().await;
    }
    panic!("fewer than {n} mails with {marker}");
}

/// The link tokens after `marker` (e.g. "/answer/") in the mails written to
/// the outbox folder, waiting until there are at least `n`.
pub async fn tokens_in_outbox(app: &TestApp, marker: &str, n: usize) -> Vec<String> {
    let dir = app.data_dir.join("outbox");
    // The mail worker writes them; on a loaded machine (the whole suite
    // at once) that can take a while, so the bound is time, not turns.
    let until = std::time::Instant::now() + std::time::Duration::from_secs(30);
    while std::time::Instant::now() < until {
        let mut found = Vec::new();
        for entry in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
            let data = std::fs::read(entry.path()).unwrap_or_default();
            let text = mailparse::parse_mail(&data)
                .ok()
                .and_then(|m| m.subparts.first().and_then(|p| p.get_body().ok()))
                .unwrap_or_default();
            let mut rest = text.as_str();
            while let Some(pos) = rest.find(marker) {
                let t = &rest[pos + marker.len()..];
                if t.len() >= 43 {
                    let token = t[..43].to_owned();
                    if !found.contains(&token) {
                        found.push(token);
                    }
                }
                rest = &rest[pos + marker.len()..];
            }
        }
        if found.len() >= n {
            return found;
        }
        tokio::task::yield_now().await;
    }
    panic!("fewer than {n} mails with {marker} in the outbox folder");
}

/// The real `aivet` binary as a separate process, on its own port, data
/// folder and SQLite database; for what only a process shows (a kill in
/// the middle of a send, its resident memory). Killed when dropped.
pub struct BinaryServer {
    pub base: String,
    pub data_dir: PathBuf,
    port: u16,
    db: Arc<TestDb>,
}

impl BinaryServer {
    pub fn new(name: &str) -> BinaryServer {
        Self::on(name, Arc::new(TestDb::sqlite()))
    }

    /// A process on `db`, which other processes may share (several
    /// servers on one PostgreSQL).
    pub fn on(name: &str, db: Arc<TestDb>) -> BinaryServer {
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        BinaryServer {
            base: format!("http://127.0.0.1:{port}"),
            data_dir: std::env::temp_dir()
                .join(format!("aivet-{name}-{}", uuid::Uuid::new_v4().simple())),
            port,
            db,
        }
    }

    pub fn db_url(&self) -> &str {
        self.db.url()
    }

    pub fn db(&self) -> &TestDb {
        &self.db
    }

    /// Runs a command of the binary (`aivet demo`, …) on this server's
    /// database and folder, and waits for it.
    pub async fn command(&self, args: &[&str]) -> std::process::Output {
        tokio::process::Command::new(env!("CARGO_BIN_EXE_aivet"))
            .args(args)
            .env("AIVET_DATA_DIR", &self.data_dir)
            .env("AIVET_DATABASE_URL", self.db.url())
            .envs(
                self.db
                    .admin_url()
                    .map(|a| ("AIVET_DATABASE_ADMIN_URL", a.to_owned())),
            )
            .env(
                "AIVET_SESSION_SECRET",
                "process-test-secret-process-test-0123",
            )
            .env("AIVET_MAIL_FROM", "aivet@aivet.test")
            .env("AIVET_LOG", "warn")
            .output()
            .await
            .expect("the aivet binary runs")
    }

    /// Starts the binary with these settings on top of the usual ones;
    /// returns once it says it is running. The same `BinaryServer` may be
    /// started again (after a kill) on the same database and folder.
    pub async fn start(&self, env: &[(&str, &str)]) -> tokio::process::Child {
        use tokio::io::AsyncBufReadExt;
        let mut child = tokio::process::Command::new(env!("CARGO_BIN_EXE_aivet"))
            .arg("serve")
            .env("AIVET_LISTEN", format!("127.0.0.1:{}", self.port))
            .env("AIVET_BASE_URL", &self.base)
            .env("AIVET_DATA_DIR", &self.data_dir)
            .env("AIVET_DATABASE_URL", self.db.url())
            .envs(
                self.db
                    .admin_url()
                    .map(|a| ("AIVET_DATABASE_ADMIN_URL", a.to_owned())),
            )
            .env(
                "AIVET_SESSION_SECRET",
                "process-test-secret-process-test-0123",
            )
            .env("AIVET_MAIL_FROM", "aivet@aivet.test")
            .env("AIVET_LOG", "warn")
            .envs(env.iter().copied())
            .stdout(std::process::Stdio::piped())
            .kill_on_drop(true)
            .spawn()
            .expect("the aivet binary starts");
        let mut lines = tokio::io::BufReader::new(child.stdout.take().unwrap()).lines();
        while let Some(line) = lines.next_line().await.unwrap() {
            if line.contains("aivet is running") {
                break;
            }
        }
        child
    }
}

impl Drop for BinaryServer {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.data_dir);
    }
}

/// The tenant of the organisation `email` signed up with.
pub async fn tenant_of(app: &TestApp, email: &str) -> aivet_store::Tenant {
    let store = &app.services.store;
    let user = store
        .credentials(&aivet_domain::Email::parse(email).unwrap())
        .await
        .unwrap()
        .expect("the account exists");
    store
        .first_tenant(user.user_id)
        .await
        .unwrap()
        .expect("a member")
}

/// Gives the organisation a job that failed, as a run that could not
/// finish it leaves it (a deadline's job, given up). Returns its id.
pub async fn failed_job(app: &TestApp, owner_email: &str) -> String {
    use aivet_domain::jobs::Job;
    use aivet_store::jobs::{JobSetback, NewJob};
    let store = &app.services.store;
    let t = tenant_of(app, owner_email).await;
    let now = app.clock.now_for_tests();
    let job = Job::DeadlinePassed {
        request: aivet_domain::RequestId(uuid::Uuid::new_v4()),
    };
    let key = job.key(now);
    let _ = store
        .schedule_job(
            NewJob {
                job,
                org_id: Some(t.org_id()),
                run_at: now,
            },
            now,
        )
        .await
        .unwrap();
    let id = store.job_by_key(&key).await.unwrap().unwrap().id;
    // Nothing else is due at this moment: the claim takes just this job.
    let claimed = store
        .claim_jobs("test", now, now + chrono::Duration::minutes(1), 100)
        .await
        .unwrap();
    assert_eq!(claimed.len(), 1, "only the job made due now");
    assert_eq!(claimed[0].lease.id, id);
    store
        .set_back_job(
            &claimed[0].lease,
            JobSetback::Fail {
                error: "the database was not reachable".into(),
            },
        )
        .await
        .unwrap();
    id.to_string()
}
