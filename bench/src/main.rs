//! `aivet-bench`: the figures of BENCHMARKS.md, measured in one run so that
//! ratios compare like with like on a shared, noisy machine.
//!
//!   cargo run --release -p aivet-bench            full run
//!   cargo run --release -p aivet-bench -- --quick smoke run (CI), same figures, short
//!   … -- --store-only                            only the store timings per N (no load)
//!
//! 1. Pages: requests/s and latency of the signed-in dashboard and settings
//!    page, next to a ceiling — the same server answering the same bytes
//!    from memory behind the same middleware — and their ratio; then p50/p99
//!    at a fixed rate of half the measured maximum.
//!    The same for the inventory at N = 50, 500 and 5,000 services in one
//!    organisation: dashboard, service list (first page of 50, by name and
//!    by last change) and a service's page. All of it on SQLite and on
//!    PostgreSQL.
//!    Then an integrator's database: O = 1,000 organisations of 50 services
//!    (AIVET_BENCH_ORGS), seen by a member of one organisation and by the
//!    integrator, a member of all of them.
//! 2. Mail: mails/s from enqueue to accepted by a local SMTP sink, state
//!    updates included, on SQLite (and PostgreSQL when configured as for the tests).
//! 3. The release binary: start-up to first 200 on a migrated database, RSS
//!    idle, peak RSS under 64 connections.
//! 4. Client: wasm, JS and CSS as served, raw and gzip.

use aivet_server::config::Config;
use aivet_server::Application;
use aivet_services::{Limits, SystemClock};
use aivet_store::testing::{Backend, TestDb};
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};

mod advisories;
mod clearance;
mod follow_ups;
mod report;
mod seed;
mod sqlite_handle;

const PASSWORD: &str = "benchmark passphrase 1";

struct Load {
    rps: f64,
    p50: Duration,
    p99: Duration,
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    sorted[((sorted.len() as f64 - 1.0) * p).round() as usize]
}

/// `conns` clients in a loop for `secs`; with `rate`, each paces itself so the
/// total is that many requests per second, the clients' starts spread over
/// one interval so that requests arrive evenly rather than `conns` at once.
async fn load(
    client: &reqwest::Client,
    url: &str,
    conns: usize,
    secs: f64,
    rate: Option<f64>,
) -> Load {
    let deadline = Instant::now() + Duration::from_secs_f64(secs);
    let mut tasks = Vec::new();
    let start = Instant::now();
    for k in 0..conns {
        let (client, url) = (client.clone(), url.to_owned());
        let interval = rate.map(|r| Duration::from_secs_f64(conns as f64 / r));
        tasks.push(tokio::spawn(async move {
            let mut lat = Vec::new();
            let mut next = start + interval.map_or(Duration::ZERO, |i| i * k as u32 / conns as u32);
            while Instant::now() < deadline {
                if let Some(i) = interval {
                    tokio::time::sleep_until(next.into()).await;
                    next += i;
                }
                let t = Instant::now();
                let r = client
                    .get(&url)
                    .header("accept", "text/html")
                    .send()
                    .await
                    .expect("request");
                assert!(r.status().is_success(), "{url}: {}", r.status());
                let _ = r.bytes().await.expect("body");
                lat.push(t.elapsed());
            }
            lat
        }));
    }
    let started = Instant::now();
    let mut all = Vec::new();
    for t in tasks {
        all.extend(t.await.unwrap());
    }
    let elapsed = started.elapsed().as_secs_f64();
    all.sort();
    Load {
        rps: all.len() as f64 / elapsed,
        p50: percentile(&all, 0.5),
        p99: percentile(&all, 0.99),
    }
}

fn ms(d: Duration) -> String {
    format!("{:.2} ms", d.as_secs_f64() * 1000.0)
}

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn env_for(
    db: &TestDb,
    port: u16,
    data: &std::path::Path,
    smtp: Option<&str>,
) -> HashMap<String, String> {
    let mut env = HashMap::new();
    env.insert("AIVET_LISTEN".into(), format!("127.0.0.1:{port}"));
    env.insert("AIVET_DATA_DIR".into(), data.display().to_string());
    env.insert("AIVET_DATABASE_URL".into(), db.url().to_owned());
    if let Some(a) = db.admin_url() {
        env.insert("AIVET_DATABASE_ADMIN_URL".into(), a.to_owned());
    }
    env.insert(
        "AIVET_SESSION_SECRET".into(),
        "bench-secret-bench-secret-bench-secret-01".into(),
    );
    env.insert(
        "AIVET_SITE_ROOT".into(),
        repo().join("target/site").display().to_string(),
    );
    env.insert("AIVET_MAIL_FROM".into(), "aivet@aivet.test".into());
    env.insert("AIVET_LOG".into(), "warn".into());
    if let Some(s) = smtp {
        env.insert("AIVET_SMTP_URL".into(), s.to_owned());
    }
    env
}

async fn signed_in(base: &str) -> reqwest::Client {
    signed_in_as(base, "bench@example.com", "Bench AS").await
}

async fn signed_in_as(base: &str, email: &str, org: &str) -> reqwest::Client {
    let c = reqwest::Client::builder()
        .cookie_store(true)
        .redirect(reqwest::redirect::Policy::none())
        // A page that never finishes fails the run instead of stalling it.
        .timeout(Duration::from_secs(30))
        .build()
        .unwrap();
    let r = c
        .post(format!("{base}/api/sign_up"))
        .header("origin", base)
        .form(&[
            ("email", email),
            ("password", PASSWORD),
            ("name", "Bench"),
            ("org_name", org),
        ])
        .send()
        .await
        .unwrap();
    assert!(r.status().is_success() || r.status().is_redirection());
    c
}

/// A running server to measure pages on, with the ceiling route.
struct Bench {
    base: String,
    services: aivet_services::Services,
    captured: Arc<std::sync::Mutex<HashMap<String, Vec<u8>>>>,
    data: PathBuf,
    secs: f64,
    // Kept alive for the run (a PostgreSQL database is dropped with it).
    _db: TestDb,
}

impl Drop for Bench {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.data);
    }
}

async fn bench_server(backend: Backend, quick: bool) -> Option<Bench> {
    bench_server_on(backend, quick, Arc::new(SystemClock), &[]).await
}

/// A bench server on this clock, with these settings added.
async fn bench_server_on(
    backend: Backend,
    quick: bool,
    clock: Arc<dyn aivet_services::Clock>,
    extra: &[(&str, &str)],
) -> Option<Bench> {
    let db = TestDb::new(backend).await?;
    let data = std::env::temp_dir().join(format!("aivet-bench-{}", uuid::Uuid::new_v4().simple()));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let base = format!("http://127.0.0.1:{port}");
    let mut env = env_for(&db, port, &data, None);
    env.extend(extra.iter().map(|(k, v)| (k.to_string(), v.to_string())));
    let config = Config::from_sources(&env, &data).unwrap();
    // The ceiling: the bytes each page answered, served from memory.
    let captured: Arc<std::sync::Mutex<HashMap<String, Vec<u8>>>> = Arc::default();
    let cap = captured.clone();
    let ceiling = axum::Router::new().route(
        "/__ceiling/{page}",
        axum::routing::get(
            move |axum::extract::Path(page): axum::extract::Path<String>| {
                let bytes = cap.lock().unwrap().get(&page).cloned().unwrap_or_default();
                async move { ([("content-type", "text/html; charset=utf-8")], bytes) }
            },
        ),
    );
    // The answer-link limiter still runs on every request, with a window
    // short enough that it never refuses the load generator.
    let limits = Limits {
        answer_links_per_client: aivet_services::RateLimiter::new(
            usize::MAX,
            chrono::Duration::seconds(1),
        ),
        ..Limits::default()
    };
    let app = Application::build_with_routes(config, listener, clock, limits, ceiling)
        .await
        .unwrap();
    let services = app.services().clone();
    tokio::spawn(app.run_until_stopped());
    Some(Bench {
        base,
        services,
        captured,
        data,
        secs: if quick { 0.5 } else { 5.0 },
        _db: db,
    })
}

/// After seeding: PostgreSQL's statistics as autovacuum leaves them about a
/// minute after a bulk insert in a running deployment. Measured without
/// this, the first size's queries ran on plans for empty tables.
async fn settle(b: &Bench) {
    use sqlx::Connection;
    if let Some(url) = b._db.admin_url() {
        let mut c = sqlx::PgConnection::connect(url).await.unwrap();
        sqlx::query("ANALYZE").execute(&mut c).await.unwrap();
    }
}

fn table_header() {
    println!("| page | req/s | p50 | p99 | ceiling req/s | ratio | p50 / p99 at half max |");
    println!("|---|---|---|---|---|---|---|");
}

/// The tenant of the (only or first) organisation of the user `email`.
async fn tenant_of(services: &aivet_services::Services, email: &str) -> aivet_store::Tenant {
    let user = services
        .store
        .credentials(&aivet_domain::Email::parse(email).unwrap())
        .await
        .unwrap()
        .unwrap()
        .user_id;
    let org_id = services.store.orgs_of_user(user).await.unwrap()[0].org_id;
    services.store.tenant_for(user, org_id).await.unwrap()
}

/// A signed-in member's `Auth` in their organisation `t`, for calling the
/// services directly.
async fn auth_of(
    services: &aivet_services::Services,
    email: &str,
    t: &aivet_store::Tenant,
) -> aivet_services::Auth {
    let (_, auth, _) = services
        .sign_in(email, PASSWORD, "bench", None)
        .await
        .unwrap();
    aivet_services::Auth {
        tenant: Some(t.clone()),
        ..auth
    }
}

/// The id of the first service in the list, for the service page.
async fn first_service_path(c: &reqwest::Client, base: &str) -> String {
    let list: serde_json::Value = c
        .post(format!("{base}/api/service_list"))
        .header("origin", base)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    format!("/services/{}", list["rows"][0]["id"].as_str().unwrap())
}

/// Dashboard, service list (by name, by last change) and a service's page.
async fn inventory_pages(b: &Bench, c: &reqwest::Client, label: &str) -> String {
    let detail = first_service_path(c, &b.base).await;
    for (name, path) in [
        ("dashboard", "/".to_owned()),
        ("service list", "/services".to_owned()),
        (
            "service list by last change",
            "/services?sort=updated".to_owned(),
        ),
        ("service page", detail.clone()),
    ] {
        measure(c, b, &format!("{name} {label}"), &path).await;
    }
    detail
}

/// The session cookie of a fresh sign-in, for a load generator that is not
/// this program.
async fn session_cookie(base: &str, email: &str) -> String {
    let r = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap()
        .post(format!("{base}/api/sign_in"))
        .header("origin", base)
        .form(&[("email", email), ("password", PASSWORD)])
        .send()
        .await
        .unwrap();
    r.headers()
        .get_all("set-cookie")
        .iter()
        .filter_map(|v| v.to_str().ok()?.split(';').next().map(str::to_owned))
        .collect::<Vec<_>>()
        .join("; ")
}

/// The same page measured by Debian's wrk (2 threads, 16 connections), a
/// load generator outside this process, as a check on the figures above.
async fn wrk(b: &Bench, cookie: &str, name: &str, path: &str) {
    let out = tokio::process::Command::new("wrk")
        .args(["-t2", "-c16", "--latency", "-H", "Accept: text/html"])
        .arg(format!("-d{}s", b.secs.max(1.0)))
        .arg("-H")
        .arg(format!("Cookie: {cookie}"))
        .arg(format!("{}{path}", b.base))
        .output()
        .await;
    let Ok(out) = out else {
        println!("| {name} | wrk is not installed (./dev bench installs it) | | |");
        return;
    };
    let text = String::from_utf8_lossy(&out.stdout);
    let field = |prefix: &str| {
        text.lines()
            .map(str::trim)
            .find_map(|l| l.strip_prefix(prefix))
            .map(|v| v.trim().to_owned())
            .unwrap_or_else(|| "?".into())
    };
    let errors = text.contains("Non-2xx") || text.contains("Socket errors");
    println!(
        "| {name} | {} | {} | {} |{}",
        field("Requests/sec:"),
        field("50%"),
        field("99%"),
        if errors {
            " errors: see wrk's output"
        } else {
            ""
        }
    );
}

async fn pages(quick: bool, backend: Backend) {
    let Some(b) = bench_server(backend, quick).await else {
        println!("(not configured: eval \"$(scripts/pg.sh env)\")");
        return;
    };
    let c = signed_in(&b.base).await;
    if !store_only() {
        table_header();
        for (name, path) in [("dashboard", "/"), ("settings", "/settings")] {
            measure(&c, &b, name, path).await;
        }
    }
    // AIVET_BENCH_SIZES=5000 (comma-separated) measures only those sizes.
    let sizes: Vec<usize> = match std::env::var("AIVET_BENCH_SIZES") {
        Ok(v) => v.split(',').filter_map(|n| n.trim().parse().ok()).collect(),
        Err(_) if quick && backend == Backend::Postgres => vec![50],
        Err(_) if quick => vec![50, 500],
        Err(_) => vec![50, 500, 5000],
    };
    for n in sizes {
        let email = format!("n{n}@example.com");
        let c = signed_in_as(&b.base, &email, &format!("Inventory {n}")).await;
        let tenant = tenant_of(&b.services, &email).await;
        let t = Instant::now();
        let ids = seed::inventory(&b.services.store, &tenant, n, true).await;
        if n == 500 {
            dashboard_extras(&b, &email, &tenant, &ids).await;
        }
        settle(&b).await;
        println!(
            "\n### N = {n} services (seeded in {:.1} s)\n",
            t.elapsed().as_secs_f64()
        );
        store_timings(&b.services.store, &tenant).await;
        if store_only() {
            continue;
        }
        table_header();
        let detail = inventory_pages(&b, &c, &n.to_string()).await;
        if backend == Backend::Sqlite && n >= 500 {
            let cookie = session_cookie(&b.base, &email).await;
            println!("\nThe same with wrk:\n");
            println!("| page | req/s | p50 | p99 |");
            println!("|---|---|---|---|");
            for (name, path) in [("dashboard", "/"), ("service list", "/services")] {
                wrk(&b, &cookie, &format!("{name} {n}"), path).await;
            }
            println!();
        }
        if n == 500 {
            // The vendor's answer page does not grow with N: once is enough.
            let token = answer_token(&c, &b.base, &detail, &b.data).await;
            let vendor = reqwest::Client::builder()
                .timeout(Duration::from_secs(30))
                .build()
                .unwrap();
            measure(
                &vendor,
                &b,
                "vendor answer page",
                &format!("/answer/{token}"),
            )
            .await;
        }
    }
}

/// What a dashboard shows beyond the inventory, for the organisation of
/// N = 500 (the dashboard's target is "with countdowns and advisory
/// flags"): the bench's 100 engine advisories matched against its services,
/// and three open incidents with personal data whose Art. 33 clocks run.
async fn dashboard_extras(
    b: &Bench,
    email: &str,
    t: &aivet_store::Tenant,
    ids: &[aivet_domain::ServiceId],
) {
    let osv: Vec<(String, String)> = advisories::texts()
        .into_iter()
        .enumerate()
        .map(|(i, json)| (format!("BENCH-{i:03}"), json))
        .collect();
    b.services
        .store
        .import_advisories(
            t,
            &osv,
            aivet_store::AuditEvent::AdvisoriesImported { ids: vec![] },
            chrono::Utc::now(),
        )
        .await
        .expect("seed advisories");
    let hits = b
        .services
        .rematch_advisories(t.org_id())
        .await
        .expect("match advisories");
    assert!(hits > 0, "the bench's advisories match some services");
    let auth = auth_of(&b.services, email, t).await;
    for (i, hours) in [5, 30, 60].into_iter().enumerate() {
        let aware = chrono::Utc::now() - chrono::Duration::hours(hours);
        let form = aivet_domain::incident::IncidentForm {
            title: format!("Prompts shown to other customers ({i})"),
            description: "The vendor's inference engine served cached prompts across tenants."
                .into(),
            services: vec![ids[i * 7].to_string()],
            we_aware_at: aware.format("%Y-%m-%dT%H:%M").to_string(),
            affected: "unknown".into(),
            personal_data: "true".into(),
            risk: "risk".into(),
            ..Default::default()
        };
        b.services
            .record_incident(&auth, &form)
            .await
            .expect("seed incident");
    }
    let d = b
        .services
        .store
        .dashboard(t, chrono::Utc::now().date_naive())
        .await
        .expect("dashboard");
    assert_eq!(
        d.clocks.len(),
        3,
        "the incidents' clocks are on the dashboard"
    );
    assert!(d.advisories.affected + d.advisories.unknown > 0);
}

/// An integrator's database: `o` organisations of `n` services each, all
/// created by one person (a member of every one of them), plus a client's
/// own organisation of the same size whose member belongs to it alone.
async fn many_orgs(quick: bool, backend: Backend, o: usize, n: usize) {
    let Some(b) = bench_server(backend, quick).await else {
        println!("(not configured: eval \"$(scripts/pg.sh env)\")");
        return;
    };
    let store = &b.services.store;
    let t = Instant::now();
    let integrator = signed_in_as(&b.base, "integrator@example.com", "Client 0000").await;
    let first = tenant_of(&b.services, "integrator@example.com").await;
    seed::inventory(store, &first, n, true).await;
    let user = first.user_id();
    for i in 1..o {
        let name = aivet_domain::OrgName::parse(&format!("Client {i:04}")).unwrap();
        let tenant = store
            .create_org(
                user,
                &name,
                &aivet_domain::Slug::from_name(name.as_str()),
                chrono::Utc::now(),
            )
            .await
            .unwrap();
        seed::inventory(store, &tenant, n, i % 4 == 0).await;
    }
    let client = signed_in_as(&b.base, "client@example.com", "Client alone").await;
    let own = tenant_of(&b.services, "client@example.com").await;
    seed::inventory(store, &own, n, true).await;
    settle(&b).await;
    println!(
        "{} organisations × {n} services ({} services; seeded in {:.0} s)\n",
        o + 1,
        (o + 1) * n,
        t.elapsed().as_secs_f64()
    );
    store_timings(store, &own).await;
    // The header's organisation menu, read on every page: as the
    // integrator's pages read it, and the earlier way (the first 25 by name
    // and a count of all that match an empty search).
    let mut line = Vec::new();
    for (name, integrator) in [("member of one", false), ("integrator", true)] {
        let current = if integrator { &first } else { &own };
        let u = current.user_id();
        let start = Instant::now();
        for _ in 0..50 {
            store.org_menu(u, Some(current), 25).await.unwrap();
        }
        line.push(format!(
            "{name} {:.2} ms",
            start.elapsed().as_secs_f64() * 1000.0 / 50.0
        ));
        let start = Instant::now();
        for _ in 0..50 {
            store.orgs_of_user_matching(u, None, 25).await.unwrap();
        }
        line.push(format!(
            "{name}, earlier way {:.2} ms",
            start.elapsed().as_secs_f64() * 1000.0 / 50.0
        ));
    }
    println!("Organisation menu: {}\n", line.join(", "));
    if store_only() {
        return;
    }
    table_header();
    inventory_pages(&b, &client, "(member of one)").await;
    inventory_pages(&b, &integrator, &format!("(member of {o})")).await;
}

/// Sends the questions about the service at `service_path` to a new
/// contact of its vendor and returns the answer link's token from the mail
/// written to the outbox folder.
async fn answer_token(
    c: &reqwest::Client,
    base: &str,
    service_path: &str,
    data: &std::path::Path,
) -> String {
    let service = service_path.trim_start_matches("/services/");
    let call = |name: &str, form: Vec<(&str, String)>| {
        c.post(format!("{base}/api/{name}"))
            .header("origin", base)
            .form(&form)
            .send()
    };
    let detail: serde_json::Value = call("service_detail", vec![("service_id", service.into())])
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let vendor = detail["vendor"]["id"].as_str().unwrap().to_owned();
    call(
        "add_contact",
        vec![
            ("vendor_id", vendor.clone()),
            ("contact[name]", "Bench Contact".into()),
            ("contact[email]", "bench@vendor.example".into()),
            ("contact[lang]", "en".into()),
            ("contact[role]", "security".into()),
        ],
    )
    .await
    .unwrap();
    let v: serde_json::Value = call("vendor_detail", vec![("vendor_id", vendor)])
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let contact = v["contacts"][0]["id"].as_str().unwrap().to_owned();
    let r = call(
        "send_questions",
        vec![
            ("service_id", service.into()),
            ("form[send_key]", uuid::Uuid::new_v4().simple().to_string()),
            ("form[contacts][0]", contact),
            (
                "form[deadline]",
                (chrono::Utc::now().date_naive() + chrono::Duration::days(14)).to_string(),
            ),
        ],
    )
    .await
    .unwrap();
    assert!(
        r.status().is_success() || r.status().is_redirection(),
        "send: {}",
        r.status()
    );
    let outbox = data.join("outbox");
    for _ in 0..10_000 {
        for entry in std::fs::read_dir(&outbox).into_iter().flatten().flatten() {
            let data = std::fs::read(entry.path()).unwrap_or_default();
            let text = mailparse::parse_mail(&data)
                .ok()
                .and_then(|m| m.subparts.first().and_then(|p| p.get_body().ok()))
                .unwrap_or_default();
            if let Some(pos) = text.find("/answer/") {
                return text[pos + 8..pos + 8 + 43].to_owned();
            }
        }
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    panic!("no answer link in {}", outbox.display());
}

/// Direct timings of the store calls behind the pages ([`mean_ms`], one
/// connection at a time), to tell query cost from rendering cost.
async fn store_timings(store: &aivet_store::DynStore, t: &aivet_store::Tenant) {
    use aivet_store::inventory::ServiceQuery;
    let q = ServiceQuery {
        limit: 50,
        ..ServiceQuery::default()
    };
    let first = store.services(t, &q).await.unwrap().rows[0].id;
    let mut line = Vec::new();
    macro_rules! time {
        ($name:expr, $call:expr) => {{
            line.push(format!("{} {:.2} ms", $name, mean_ms(|| $call).await));
        }};
    }
    time!("counts", store.inventory_counts(t));
    // Everything the dashboard reads, in its one transaction: kept, as
    // nothing changed since it was last counted, and counted, each call
    // for another day.
    let today = chrono::Utc::now().date_naive();
    time!("dashboard", store.dashboard(t, today));
    let day = std::sync::atomic::AtomicI64::new(0);
    time!(
        "dashboard counted",
        store.dashboard(
            t,
            today
                + chrono::Duration::days(
                    1 + day.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
                )
        )
    );
    time!("list", store.services(t, &q));
    let by_change = ServiceQuery {
        sort: aivet_store::inventory::ServiceSort::Updated,
        ..q.clone()
    };
    time!("list by last change", store.services(t, &by_change));
    let trial = ServiceQuery {
        status: Some(aivet_domain::inventory::ServiceStatus::Trial),
        ..q.clone()
    };
    time!("list of trials", store.services(t, &trial));
    let search = ServiceQuery {
        text: aivet_domain::SearchText::parse("number 4").unwrap(),
        ..q.clone()
    };
    time!("list by a word", store.services(t, &search));
    time!("service", store.service(t, first));
    time!("vendor names", store.vendor_names(t));
    time!("questions", store.service_requests(t, first));
    println!("Store calls: {}\n", line.join(", "));
}

/// The mean time of `f()` over 50 calls, in ms, after 5 to warm up: what
/// a page's own calls cost without HTTP and rendering.
pub async fn mean_ms<T, E: std::fmt::Debug, Fut>(f: impl Fn() -> Fut) -> f64
where
    Fut: std::future::Future<Output = Result<T, E>>,
{
    for _ in 0..5 {
        f().await.unwrap();
    }
    let start = Instant::now();
    for _ in 0..50 {
        f().await.unwrap();
    }
    start.elapsed().as_secs_f64() * 1000.0 / 50.0
}

/// One page next to its ceiling: the same bytes from memory, same middleware.
async fn measure(c: &reqwest::Client, b: &Bench, name: &str, path: &str) {
    let (base, secs) = (&b.base, b.secs);
    let key: String = name
        .chars()
        .map(|ch| if ch.is_ascii_alphanumeric() { ch } else { '-' })
        .collect();
    let body = c
        .get(format!("{base}{path}"))
        .send()
        .await
        .unwrap()
        .bytes()
        .await
        .unwrap()
        .to_vec();
    b.captured.lock().unwrap().insert(key.clone(), body.clone());
    let page = load(c, &format!("{base}{path}"), 16, secs, None).await;
    let ceil = load(c, &format!("{base}/__ceiling/{key}"), 16, secs, None).await;
    let half = load(c, &format!("{base}{path}"), 16, secs, Some(page.rps / 2.0)).await;
    println!(
        "| {name} ({:.1} KB) | {:.0} | {} | {} | {:.0} | {:.2} | {} / {} |",
        body.len() as f64 / 1024.0,
        page.rps,
        ms(page.p50),
        ms(page.p99),
        ceil.rps,
        page.rps / ceil.rps,
        ms(half.p50),
        ms(half.p99)
    );
}

/// An SMTP server that accepts everything, as fast as it can.
async fn fast_sink() -> (String, Arc<std::sync::atomic::AtomicUsize>) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("smtp://127.0.0.1:{}", listener.local_addr().unwrap().port());
    let count: Arc<std::sync::atomic::AtomicUsize> = Arc::default();
    let c = count.clone();
    tokio::spawn(async move {
        loop {
            let (s, _) = listener.accept().await.unwrap();
            let _ = s.set_nodelay(true);
            let c = c.clone();
            tokio::spawn(async move {
                let (r, mut w) = s.into_split();
                let mut r = BufReader::new(r);
                w.write_all(b"220 ok\r\n").await?;
                let mut line = String::new();
                loop {
                    line.clear();
                    if r.read_line(&mut line).await? == 0 {
                        return Ok::<_, std::io::Error>(());
                    }
                    let u = line.trim_end().to_ascii_uppercase();
                    if u.starts_with("EHLO") {
                        w.write_all(b"250-sink\r\n250 8BITMIME\r\n").await?;
                    } else if u == "DATA" {
                        w.write_all(b"354 go\r\n").await?;
                        loop {
                            line.clear();
                            if r.read_line(&mut line).await? == 0 {
                                return Ok(());
                            }
                            if line == ".\r\n" {
                                break;
                            }
                        }
                        c.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        w.write_all(b"250 queued\r\n").await?;
                    } else if u == "QUIT" {
                        w.write_all(b"221 bye\r\n").await?;
                        return Ok(());
                    } else {
                        w.write_all(b"250 ok\r\n").await?;
                    }
                }
            });
        }
    });
    (url, count)
}

async fn mail(backend: Backend, n: usize) -> Option<f64> {
    let db = TestDb::new(backend).await?;
    let data = std::env::temp_dir().join(format!("aivet-bench-{}", uuid::Uuid::new_v4().simple()));
    let (smtp, count) = fast_sink().await;
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let mut env = env_for(&db, port, &data, Some(&smtp));
    env.insert("AIVET_MAIL_WORKER".into(), "off".into());
    let config = Config::from_sources(&env, &data).unwrap();
    let app = Application::build_on(config, listener, Arc::new(SystemClock), Limits::default())
        .await
        .unwrap();
    let s = app.services().clone();
    let worker = app.mail_worker();
    tokio::spawn(app.run_until_stopped());
    signed_in(&format!("http://127.0.0.1:{port}")).await;
    let user = s
        .store
        .credentials(&aivet_domain::Email::parse("bench@example.com").unwrap())
        .await
        .unwrap()
        .unwrap()
        .user_id;
    let tenant = s
        .store
        .tenant_for(user, s.store.orgs_of_user(user).await.unwrap()[0].org_id)
        .await
        .unwrap();
    let started = Instant::now();
    for i in 0..n {
        let to = aivet_mail::Recipient {
            name: None,
            email: format!("r{i}@example.com"),
            lang: aivet_domain::Lang::En,
        };
        let m = s
            .mail
            .mailer
            .compose(
                &to,
                None,
                None,
                &aivet_mail::TestMail {
                    org_name: "Bench AS".into(),
                    sender: "Bench".into(),
                },
                chrono::Utc::now(),
            )
            .unwrap();
        s.store.enqueue_mail(&tenant, m).await.unwrap();
    }
    let pass = worker.pass().await.unwrap();
    let elapsed = started.elapsed().as_secs_f64();
    assert_eq!(
        (pass.sent, count.load(std::sync::atomic::Ordering::Relaxed)),
        (n, n)
    );
    let _ = std::fs::remove_dir_all(data);
    Some(n as f64 / elapsed)
}

/// How much of app/server/link-order.txt the release executable still
/// has: names that are gone (the code changed since `./dev link-order`)
/// are left where the linker puts them, scattered again.
fn link_order(bin: &std::path::Path) {
    let list =
        std::fs::read_to_string(repo().join("app/server/link-order.txt")).unwrap_or_default();
    let listed: std::collections::HashSet<&str> = list
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
        .collect();
    let Ok(nm) = std::process::Command::new("nm")
        .arg("--defined-only")
        .arg(bin)
        .output()
    else {
        println!("| names of app/server/link-order.txt in the release executable | (nm missing) |");
        return;
    };
    let found = String::from_utf8_lossy(&nm.stdout)
        .lines()
        .filter_map(|l| l.split_whitespace().nth(2))
        .filter(|name| listed.contains(name))
        .collect::<std::collections::HashSet<_>>()
        .len();
    println!(
        "| names of app/server/link-order.txt in the release executable (`./dev link-order` renews them) | {found} of {} |",
        listed.len()
    );
}

fn rss_kb(pid: u32, field: &str) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .unwrap_or_default()
        .lines()
        .find(|l| l.starts_with(field))
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|v| v.parse().ok())
        .unwrap_or(0)
}

async fn process(quick: bool) {
    let target = std::env::var("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|_| repo().join("target"));
    let bin = target.join("release/aivet");
    if !bin.exists() {
        println!(
            "(release binary {} missing: build it with ./dev release)",
            bin.display()
        );
        return;
    }
    let db = TestDb::sqlite();
    let data = std::env::temp_dir().join(format!("aivet-bench-{}", uuid::Uuid::new_v4().simple()));
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let base = format!("http://127.0.0.1:{port}");
    let spawn = || {
        tokio::process::Command::new(&bin)
            .envs(env_for(&db, port, &data, None))
            .stdout(std::process::Stdio::null())
            .kill_on_drop(true)
            .spawn()
            .unwrap()
    };
    let plain = reqwest::Client::new();
    let first_200 = |client: reqwest::Client, base: String| async move {
        let t = Instant::now();
        while t.elapsed() < Duration::from_secs(20) {
            if let Ok(r) = client.get(format!("{base}/health")).send().await {
                if r.status().is_success() {
                    return t.elapsed();
                }
            }
            tokio::task::yield_now().await;
        }
        panic!("the release binary did not answer within 20 s");
    };
    // The demo organisation, for the reports below (migrates the database).
    let demo = std::process::Command::new(&bin)
        .args(["demo", "--lang", "de"])
        .envs(env_for(&db, port, &data, None))
        .output()
        .unwrap();
    assert!(demo.status.success(), "aivet demo failed");
    let said = String::from_utf8(demo.stdout).unwrap();
    let line = |key: &str| {
        said.lines()
            .find_map(|l| l.strip_prefix(key))
            .unwrap()
            .to_owned()
    };
    let (demo_email, demo_password) = (line("email: "), line("password: "));
    // A first start (start-up is measured on the second).
    let mut p = spawn();
    first_200(plain.clone(), base.clone()).await;
    p.kill().await.unwrap();
    let t = Instant::now();
    let mut p = spawn();
    first_200(plain.clone(), base.clone()).await;
    let startup = t.elapsed();
    let pid = p.id().unwrap();
    let c = signed_in(&base).await;
    let _ = c.get(format!("{base}/")).send().await;
    let idle = rss_kb(pid, "VmRSS:");
    let (anon, file) = (rss_kb(pid, "RssAnon:"), rss_kb(pid, "RssFile:"));
    let l = load(
        &c,
        &format!("{base}/"),
        64,
        if quick { 1.0 } else { 5.0 },
        None,
    )
    .await;
    let peak = rss_kb(pid, "VmHWM:");
    // Each sign-up and sign-in hashes with 19 MiB: what a burst of them
    // costs, and whether that memory goes back afterwards. (Sign-ins are
    // limited per account, hence one account each.)
    let at_once = if quick { 4 } else { 16 };
    // Resets the peak (VmHWM) to the current RSS, so the next reads the burst's.
    let _ = std::fs::write(format!("/proc/{pid}/clear_refs"), "5");
    let t = Instant::now();
    let burst = |sign_up: bool| {
        let tasks: Vec<_> = (0..at_once)
            .map(|i| {
                let (base, plain) = (base.clone(), plain.clone());
                tokio::spawn(async move {
                    let email = format!("burst{i}@example.com");
                    if sign_up {
                        signed_in_as(&base, &email, "Burst").await;
                        return true;
                    }
                    let r = plain
                        .post(format!("{base}/api/sign_in"))
                        .header("origin", &base)
                        .form(&[("email", email.as_str()), ("password", PASSWORD)])
                        .send()
                        .await
                        .unwrap();
                    r.status().is_success() || r.status().is_redirection()
                })
            })
            .collect();
        async move {
            for task in tasks {
                assert!(task.await.unwrap(), "a sign-in failed");
            }
        }
    };
    burst(true).await;
    burst(false).await;
    let burst_time = t.elapsed();
    tokio::time::sleep(Duration::from_millis(500)).await;
    let (after_burst, burst_peak) = (rss_kb(pid, "VmRSS:"), rss_kb(pid, "VmHWM:"));
    println!(
        "| start-up to first 200 (migrated SQLite) | {} |",
        ms(startup)
    );
    println!(
        "| RSS idle after start and one page | {:.1} MB |",
        idle as f64 / 1024.0
    );
    // Anonymous memory is the process's own; file-backed pages are the
    // executable mapped from disk (clean, shared, reclaimable).
    println!(
        "| … of which anonymous / file-backed | {:.1} MB / {:.1} MB |",
        anon as f64 / 1024.0,
        file as f64 / 1024.0
    );
    println!(
        "| peak RSS, 64 connections on the dashboard ({:.0} req/s) | {:.1} MB |",
        l.rps,
        peak as f64 / 1024.0
    );
    println!(
        "| {at_once} sign-ups, then their {at_once} sign-ins, all at once ({}): peak / RSS afterwards | {:.1} MB / {:.1} MB |",
        ms(burst_time),
        burst_peak as f64 / 1024.0,
        after_burst as f64 / 1024.0
    );
    // Three PDFs of the demo organisation through the server: what they
    // cost the server's own memory (the documents are laid out by
    // `aivet-pdf` processes).
    let d = signed_in_with(&base, &demo_email, &demo_password).await;
    let before_reports = rss_kb(pid, "VmRSS:");
    let _ = std::fs::write(format!("/proc/{pid}/clear_refs"), "5");
    let t = Instant::now();
    for _ in 0..3 {
        demo_pdf(&d, &base).await;
    }
    let reports_time = t.elapsed() / 3;
    let (after_reports, reports_peak) = (rss_kb(pid, "VmRSS:"), rss_kb(pid, "VmHWM:"));
    println!(
        "| 3 PDFs of the demo ({} each): server RSS before / peak / afterwards | {:.1} MB / {:.1} MB / {:.1} MB |",
        ms(reports_time),
        before_reports as f64 / 1024.0,
        reports_peak as f64 / 1024.0,
        after_reports as f64 / 1024.0
    );
    p.kill().await.unwrap();
    // What #19's target names: a fresh server that has made one report,
    // then idle. Separate from the figures above, which follow a load and
    // a burst of sign-ins.
    let mut p = spawn();
    first_200(plain.clone(), base.clone()).await;
    let pid = p.id().unwrap();
    let d = signed_in_with(&base, &demo_email, &demo_password).await;
    let _ = d
        .get(format!("{base}/"))
        .send()
        .await
        .unwrap()
        .bytes()
        .await;
    let one_page = (rss_kb(pid, "RssAnon:"), rss_kb(pid, "RssFile:"));
    demo_pdf(&d, &base).await;
    tokio::time::sleep(Duration::from_millis(500)).await;
    let one_pdf = (rss_kb(pid, "RssAnon:"), rss_kb(pid, "RssFile:"));
    let mb = |(a, f): (u64, u64)| {
        format!(
            "{:.1} MB ({:.1} / {:.1})",
            (a + f) as f64 / 1024.0,
            a as f64 / 1024.0,
            f as f64 / 1024.0
        )
    };
    println!(
        "| fresh server, demo owner signed in, one dashboard / then one PDF and idle (anonymous / file-backed) | {} / {} |",
        mb(one_page),
        mb(one_pdf)
    );
    p.kill().await.unwrap();
    link_order(&bin);
    report::pdfs(&bin.with_file_name("aivet-pdf"), quick);
    let _ = std::fs::remove_dir_all(data);
}

/// A client signed in with an existing account's password.
async fn signed_in_with(base: &str, email: &str, password: &str) -> reqwest::Client {
    let c = reqwest::Client::builder()
        .cookie_store(true)
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap();
    let r = c
        .post(format!("{base}/api/sign_in"))
        .header("origin", base)
        .form(&[("email", email), ("password", password)])
        .send()
        .await
        .unwrap();
    assert!(r.status().is_success() || r.status().is_redirection());
    c
}

/// The German PDF of every service of the signed-in organisation, made
/// through the server.
async fn demo_pdf(c: &reqwest::Client, base: &str) {
    let r = c
        .post(format!("{base}/reports/download"))
        .header("origin", base)
        .form(&[("format", "pdf"), ("lang", "de"), ("scope", "all")])
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 200, "the demo's PDF");
    assert!(r.bytes().await.unwrap().starts_with(b"%PDF-"));
}

fn client_sizes() {
    println!("| file | raw | gzip -9 |");
    println!("|---|---|---|");
    for f in ["aivet_bg.wasm", "aivet.js", "aivet.css"] {
        let p = repo().join("target/site/pkg").join(f);
        let Ok(bytes) = std::fs::read(&p) else {
            println!("| {f} | missing (./dev release) | |");
            continue;
        };
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
        std::io::Write::write_all(&mut gz, &bytes).unwrap();
        let gz = gz.finish().unwrap();
        println!(
            "| {f} | {:.1} KB | {:.1} KB |",
            bytes.len() as f64 / 1024.0,
            gz.len() as f64 / 1024.0
        );
    }
}

/// `--store-only`: the store timings per N, no load (to compare query changes).
fn store_only() -> bool {
    std::env::args().any(|a| a == "--store-only")
}

#[tokio::main]
async fn main() {
    let quick = std::env::args().any(|a| a == "--quick");
    println!(
        "# aivet benchmark{}\n",
        if quick { " (quick smoke run)" } else { "" }
    );
    // --sqlite-handle-only: a page's first reads through sqlx and on the raw handle.
    if std::env::args().any(|a| a == "--sqlite-handle-only") {
        sqlite_handle::all(quick).await;
        return;
    }
    // --advisories-only: engine advisory matching, nothing else.
    if std::env::args().any(|a| a == "--advisories-only") {
        advisories::all(quick).await;
        return;
    }
    // --follow-ups-only: the board, the feed and the reminder sweep.
    if std::env::args().any(|a| a == "--follow-ups-only") {
        follow_ups::all(quick).await;
        return;
    }
    // --clearance-only: the data-clearance pages, nothing else.
    if std::env::args().any(|a| a == "--clearance-only") {
        clearance::all(quick).await;
        return;
    }
    // --binary-only: start-up, memory and the browser bundle, nothing else.
    if !std::env::args().any(|a| a == "--binary-only") {
        everything_but_the_binary(quick).await;
    }
    if std::env::args().any(|a| a == "--pages-only") || store_only() {
        return;
    }
    println!("\n## Release binary\n");
    println!("| figure | value |");
    println!("|---|---|");
    process(quick).await;
    println!("\n## Browser bundle as served\n");
    client_sizes();
}

/// Pages, organisations, store calls and mail.
async fn everything_but_the_binary(quick: bool) {
    println!("## Pages (SQLite, 16 connections)\n");
    pages(quick, Backend::Sqlite).await;
    println!("\n## Pages (PostgreSQL, 16 connections)\n");
    pages(quick, Backend::Postgres).await;
    // An integrator's PostgreSQL: O organisations on one database.
    let o: usize = std::env::var("AIVET_BENCH_ORGS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(if quick { 20 } else { 1000 });
    for (name, backend) in [
        ("SQLite", Backend::Sqlite),
        ("PostgreSQL", Backend::Postgres),
    ] {
        // AIVET_BENCH_ORGS=0 leaves the section out.
        if o == 0 {
            break;
        }
        println!("\n## O = {o} organisations ({name}, 16 connections)\n");
        many_orgs(quick, backend, o, 50).await;
    }
    if std::env::args().any(|a| a == "--pages-only") || store_only() {
        return;
    }
    follow_ups::all(quick).await;
    clearance::all(quick).await;
    advisories::all(quick).await;
    println!("\n## Mail throughput (enqueue → accepted by a local SMTP sink, state updated)\n");
    println!("| database | mails/s |");
    println!("|---|---|");
    let n = if quick { 200 } else { 2000 };
    for (name, backend) in [
        ("SQLite", Backend::Sqlite),
        ("PostgreSQL", Backend::Postgres),
    ] {
        match mail(backend, n).await {
            Some(rate) => println!("| {name} ({n} mails) | {rate:.0} |"),
            None => println!("| {name} | not configured (eval \"$(scripts/pg.sh env)\") |"),
        }
    }
}
