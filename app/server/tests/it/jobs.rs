//! Jobs and time zones over HTTP with a fixed clock: a request's deadline
//! is noted on the timeline once its day has ended where the organisation
//! is; the hourly sweep; failed jobs in Settings; the organisation's time
//! zone and what "today" means in it. The tests move the clock and run
//! the jobs; they never sleep.

use crate::helpers::*;
use crate::questions::{ask_key, json, overview, post_answers, send_form, service_with_contact};
use aivet_domain::jobs::{sweep_period, Job, JobStatus};
use chrono::{Duration, TimeZone, Utc};
use reqwest::Client;
use std::sync::Arc;

crate::on_both!(
    a_passed_deadline_is_noted_once_in_the_organisations_time_zone,
    deadlines_passing_together_note_only_the_open_requests,
    the_sweep_runs_once_an_hour_and_ends_expired_sessions,
    failed_jobs_are_shown_to_owners_and_can_be_retried,
    the_time_zone_is_an_owners_setting_and_moves_today,
);

fn deadline_notes(o: &serde_json::Value) -> Vec<serde_json::Value> {
    o["events"]
        .as_array()
        .unwrap_or_else(|| panic!("no timeline in {o}"))
        .iter()
        .filter(|e| e["kind"] == "deadline_passed")
        .cloned()
        .collect()
}

async fn set_zone(app: &TestApp, c: &Client, zone: &str) -> reqwest::Response {
    app.call(c, "set_time_zone", &[("time_zone", zone)]).await
}

/// Moves the fixed clock to `to`.
fn move_to(app: &TestApp, to: chrono::DateTime<Utc>) {
    let now = app.clock.now_for_tests();
    app.clock.advance(to - now);
}

async fn send(app: &TestApp, c: &Client, service: &str, contact: &str) {
    let key = ask_key(app, c, service).await;
    let r = app
        .call(c, "send_questions", &send_form(service, &key, contact))
        .await;
    assert!(accepted(&r), "{}", r.status());
}

async fn a_passed_deadline_is_noted_once_in_the_organisations_time_zone(b: Db) {
    let Some(app) = TestApp::spawn(b).await else {
        return;
    };
    let owner = app.sign_up("owner@bakery.example", "Bäckerei Sonne").await;
    assert!(accepted(&set_zone(&app, &owner, "Europe/Berlin").await));
    let (service, contact) = service_with_contact(&app, &owner, "de").await;
    send(&app, &owner, &service, &contact).await; // deadline 14 December 2026

    // 14 December ends in Berlin at 23:00 UTC (CET, UTC+1).
    move_to(&app, Utc.with_ymd_and_hms(2026, 12, 14, 22, 59, 0).unwrap());
    app.run_jobs().await;
    let owner = app.signed_in("owner@bakery.example").await;
    assert!(deadline_notes(&overview(&app, &owner, &service).await).is_empty());
    move_to(&app, Utc.with_ymd_and_hms(2026, 12, 14, 23, 0, 0).unwrap());
    let pass = app.run_jobs().await;
    assert!(pass.done >= 1, "{pass:?}");
    let notes = deadline_notes(&overview(&app, &owner, &service).await);
    assert_eq!(notes.len(), 1, "{notes:?}");
    assert_eq!(notes[0]["title"], "Deadline passed without an answer");
    assert_eq!(
        notes[0]["detail"],
        "security@chatco.example, due 14 December 2026"
    );
    // Run again, and an hour later: still one note.
    app.run_jobs().await;
    app.clock.advance(Duration::hours(1));
    app.run_jobs().await;
    let owner = app.signed_in("owner@bakery.example").await;
    assert_eq!(
        deadline_notes(&overview(&app, &owner, &service).await).len(),
        1
    );

    // The note reads in the reader's language.
    let r = app.call(&owner, "set_language", &[("lang", "nb")]).await;
    assert!(accepted(&r));
    let notes = deadline_notes(&overview(&app, &owner, &service).await);
    assert_eq!(notes[0]["title"], "Fristen gikk ut uten svar");
    assert_eq!(
        notes[0]["detail"],
        "security@chatco.example, frist 14. desember 2026"
    );
}

async fn deadlines_passing_together_note_only_the_open_requests(b: Db) {
    let Some(app) = TestApp::spawn(b).await else {
        return;
    };
    let owner = app.sign_up("owner@firm.example", "Firm").await;
    let (answered, contact) = service_with_contact(&app, &owner, "en").await;
    send(&app, &owner, &answered, &contact).await;
    let token = tokens_in_outbox(&app, "/answer/", 1).await.remove(0);
    let answers: Vec<(String, String)> = (0..5)
        .map(|i| (format!("answer{i}"), format!("Answer {i}")))
        .collect();
    let mut fields: Vec<(&str, &str)> = answers
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect();
    fields.extend([
        ("lang", "en"),
        ("action", "submit"),
        ("name", "Dana"),
        ("email", "dana@chatco.example"),
    ]);
    let (s, page) = post_answers(&app, &token, &fields).await;
    assert_eq!(s, 200, "{page}");

    let withdrawn = crate::inventory::create_service(
        &app,
        &owner,
        &[
            ("form[name]", "Translator"),
            (
                "form[vendor_id]",
                overview_vendor(&app, &owner, &answered).await.as_str(),
            ),
        ],
    )
    .await;
    send(&app, &owner, &withdrawn, &contact).await;
    crate::questions::withdraw_newest(&app, &owner, &withdrawn).await;

    // Two more services asked about in one mail that stays unanswered:
    // their deadline passes in the same batch as the other two.
    let vendor = overview_vendor(&app, &owner, &answered).await;
    let open: Vec<String> = {
        let mut open = Vec::new();
        for name in ["Summaries", "Transcripts"] {
            let fields = [("form[name]", name), ("form[vendor_id]", vendor.as_str())];
            open.push(crate::inventory::create_service(&app, &owner, &fields).await);
        }
        open
    };
    let key = ask_key(&app, &owner, &open[0]).await;
    let mut form = send_form(&open[0], &key, &contact);
    form.push(("form[services][0]", open[1].as_str()));
    let r = app.call(&owner, "send_questions", &form).await;
    assert!(accepted(&r), "{}", r.status());

    app.clock.advance(Duration::days(20));
    let pass = app.run_jobs().await;
    assert!(pass.done >= 3, "the three deadline jobs ran: {pass:?}");
    let owner = app.signed_in("owner@firm.example").await;
    for s in [&answered, &withdrawn] {
        assert!(deadline_notes(&overview(&app, &owner, s).await).is_empty());
    }
    for s in &open {
        let notes = deadline_notes(&overview(&app, &owner, s).await);
        assert_eq!(
            notes.len(),
            1,
            "one note on each service asked about: {notes:?}"
        );
        assert_eq!(
            notes[0]["detail"],
            "security@chatco.example, due 14 December 2026"
        );
    }
    // Once noted, never again.
    app.clock.advance(Duration::days(1));
    app.run_jobs().await;
    let owner = app.signed_in("owner@firm.example").await;
    for s in &open {
        assert_eq!(deadline_notes(&overview(&app, &owner, s).await).len(), 1);
    }
}

/// The vendor of a service, from its page's data.
async fn overview_vendor(app: &TestApp, c: &Client, service: &str) -> String {
    let d = json(
        app.call(c, "service_detail", &[("service_id", service)])
            .await,
    )
    .await;
    d["vendor"]["id"].as_str().unwrap().to_owned()
}

async fn the_sweep_runs_once_an_hour_and_ends_expired_sessions(b: Db) {
    let Some(app) = TestApp::spawn(b).await else {
        return;
    };
    app.sign_up("owner@firm.example", "Firm").await;
    let store = &app.services.store;
    let now = app.clock.now_for_tests();
    let pass = app.run_jobs().await;
    assert_eq!(pass.done, 1, "this hour's sweep: {pass:?}");
    let key = Job::Sweep.key(sweep_period(now));
    let sweep = store.job_by_key(&key).await.unwrap().unwrap();
    assert_eq!((sweep.status, sweep.attempts), (JobStatus::Done, 1));
    assert_eq!(app.run_jobs().await.done, 0, "once per hour");

    // Thirteen hours later the session has outlived its absolute limit;
    // the sweep of that hour removes it.
    assert_eq!(app.session_count().await, 1);
    app.clock.advance(Duration::hours(13));
    assert_eq!(app.run_jobs().await.done, 1);
    assert_eq!(app.session_count().await, 0);
    let later = store
        .job_by_key(&Job::Sweep.key(sweep_period(app.clock.now_for_tests())))
        .await
        .unwrap()
        .unwrap();
    assert_eq!(later.status, JobStatus::Done);
}

async fn failed_jobs_are_shown_to_owners_and_can_be_retried(b: Db) {
    let Some(app) = TestApp::spawn(b).await else {
        return;
    };
    let owner = app.sign_up("owner@firm.example", "Firm").await;
    let editor = app
        .invite_and_join(&owner, "editor@firm.example", "editor")
        .await;
    let id = failed_job(&app, "owner@firm.example").await;
    let jobs = app.settings(&owner).await["jobs"].clone();
    assert_eq!(jobs.as_array().unwrap().len(), 1, "{jobs}");
    assert_eq!(jobs[0]["id"], id.as_str());
    assert_eq!(jobs[0]["status"], "failed");
    assert_eq!(jobs[0]["what"], "Noting a passed deadline");
    assert_eq!(jobs[0]["last_error"], "the database was not reachable");
    let (_, page) = app.get_text(&owner, "/settings").await;
    assert!(page.contains("the database was not reachable"));
    assert!(page.contains("name=\"job_id\""), "a retry button");
    // Editors neither see nor retry them.
    assert!(app.settings(&editor).await["jobs"]
        .as_array()
        .unwrap()
        .is_empty());
    let r = app
        .call(&editor, "retry_job", &[("job_id", id.as_str())])
        .await;
    assert_eq!(r.status(), 403);
    // The owner retries it: it runs at once and is done.
    let r = app
        .call(&owner, "retry_job", &[("job_id", id.as_str())])
        .await;
    assert!(accepted(&r), "{}", r.status());
    assert!(app.settings(&owner).await["jobs"]
        .as_array()
        .unwrap()
        .is_empty());
    assert!(app.run_jobs().await.done >= 1);
    let audit = app.settings(&owner).await["audit"].clone();
    assert!(audit
        .as_array()
        .unwrap()
        .iter()
        .any(|e| e["action"] == "job.retried" && e["text"] == "Retried failed background work"));
}

/// What the send form of a new service suggests.
async fn ask(app: &TestApp, c: &Client) -> serde_json::Value {
    let (service, _) = service_with_contact(app, c, "en").await;
    json(app.call(c, "ask_data", &[("service_id", &service)]).await).await
}

async fn the_time_zone_is_an_owners_setting_and_moves_today(b: Db) {
    let Some(app) = TestApp::spawn(b).await else {
        return;
    };
    let london = app.sign_up("owner@london.example", "London Ltd").await;
    let berlin = app.sign_up("owner@berlin.example", "Berlin GmbH").await;
    let editor = app
        .invite_and_join(&berlin, "editor@berlin.example", "editor")
        .await;
    let settings = app.settings(&london).await;
    assert_eq!(
        settings["zone"], "Europe/London",
        "an English owner's default"
    );

    // Only owners change it; a name that is no zone is refused by name.
    let r = set_zone(&app, &editor, "Europe/Oslo").await;
    assert_eq!(r.status(), 403);
    let r = set_zone(&app, &berlin, "Europe/Atlantis").await;
    assert_eq!(r.status(), 422);
    let e: serde_json::Value = r.json().await.unwrap();
    assert_eq!(e["fields"][0][0], "time_zone", "{e}");
    assert!(accepted(&set_zone(&app, &berlin, "Europe/Berlin").await));
    assert_eq!(app.settings(&berlin).await["zone"], "Europe/Berlin");

    // At 23:30 UTC on 30 November it is already 1 December in Berlin: the
    // suggested deadline (today + 14 days) follows the organisation's day.
    move_to(&app, Utc.with_ymd_and_hms(2026, 11, 30, 23, 30, 0).unwrap());
    let berlin = app.signed_in("owner@berlin.example").await;
    let london = app.signed_in("owner@london.example").await;
    assert_eq!(ask(&app, &berlin).await["default_deadline"], "2026-12-15");
    assert_eq!(ask(&app, &london).await["default_deadline"], "2026-12-14");

    // Times on pages are local: the change was made at 09:00 UTC, 10:00 in Berlin.
    let (_, page) = app.get_text(&berlin, "/settings").await;
    assert!(page.contains("30 Nov 2026, 10:00"), "local time in {page}");
    assert!(page.contains("Set the time zone to Europe/Berlin"));
}

// --- the real binary: several processes, and kill -9 ---

/// A browser-like client of a server process.
struct Http {
    base: String,
    client: Client,
}

impl Http {
    fn new(base: &str) -> Http {
        Http {
            base: base.to_owned(),
            client: Client::builder()
                .cookie_store(true)
                .redirect(reqwest::redirect::Policy::none())
                .build()
                .unwrap(),
        }
    }

    async fn call(&self, name: &str, form: &[(&str, &str)]) -> serde_json::Value {
        let r = self
            .client
            .post(format!("{}/api/{name}", self.base))
            .header("origin", &self.base)
            .form(form)
            .send()
            .await
            .unwrap();
        let status = r.status();
        assert!(
            status.is_success() || status.is_redirection(),
            "{name}: {status}"
        );
        r.json().await.unwrap_or(serde_json::Value::Null)
    }
}

/// Signs up and sends the questions about `n` services; every request
/// has its deadline's job. The server runs no jobs meanwhile.
async fn requests_of_a_business(process: &BinaryServer, n: usize) {
    let mut server = process.start(&[("AIVET_JOB_WORKER", "off")]).await;
    let http = Http::new(&process.base);
    http.call(
        "sign_up",
        &[
            ("email", "owner@bakery.example"),
            ("password", PASSWORD),
            ("name", "Owner"),
            ("org_name", "Bakery"),
        ],
    )
    .await;
    http.call(
        "save_vendor",
        &[("form[name]", "ChatCo"), ("form[role]", "application")],
    )
    .await;
    let vendors = http.call("vendor_list", &[]).await;
    let vendor = vendors["rows"][0]["id"].as_str().unwrap().to_owned();
    http.call(
        "add_contact",
        &[
            ("vendor_id", vendor.as_str()),
            ("contact[name]", "Dana"),
            ("contact[email]", "dana@chatco.example"),
            ("contact[lang]", "en"),
            ("contact[role]", "security"),
        ],
    )
    .await;
    let detail = http
        .call("vendor_detail", &[("vendor_id", vendor.as_str())])
        .await;
    let contact = detail["contacts"][0]["id"].as_str().unwrap().to_owned();
    for i in 0..n {
        let name = format!("Assistant {i}");
        http.call(
            "save_service",
            &[
                ("form[name]", name.as_str()),
                ("form[vendor_id]", vendor.as_str()),
            ],
        )
        .await;
    }
    let list = http.call("service_list", &[]).await;
    let services: Vec<String> = list["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["id"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(services.len(), n);
    let deadline = (Utc::now() + Duration::days(14))
        .format("%Y-%m-%d")
        .to_string();
    for s in &services {
        let ask = http.call("ask_data", &[("service_id", s.as_str())]).await;
        let key = ask["send_key"].as_str().unwrap().to_owned();
        http.call(
            "send_questions",
            &[
                ("service_id", s.as_str()),
                ("form[send_key]", key.as_str()),
                ("form[contacts][0]", contact.as_str()),
                ("form[deadline]", deadline.as_str()),
            ],
        )
        .await;
    }
    server.kill().await.unwrap();
}

/// Time passes for the processes' real clocks: every deadline's job is due.
async fn deadlines_pass(db: &aivet_store::testing::TestDb) {
    jobs_fall_due(db, "'deadline_passed'").await
}

/// Time passes for the processes' real clocks: the jobs of these kinds (an
/// SQL list) are due.
async fn jobs_fall_due(db: &aivet_store::testing::TestDb, kinds: &str) {
    match db.backend {
        Db::Sqlite => {
            let pool = sqlx::SqlitePool::connect(db.url()).await.unwrap();
            sqlx::query(&format!(
                "UPDATE jobs SET run_at = '2000-01-01T00:00:00.000000Z' WHERE kind IN ({kinds})"
            ))
            .execute(&pool)
            .await
            .unwrap();
        }
        Db::Postgres => {
            let pool = sqlx::PgPool::connect(db.admin_url().unwrap())
                .await
                .unwrap();
            let mut tx = pool.begin().await.unwrap();
            sqlx::query("SELECT set_config('aivet.system', 'on', true)")
                .execute(&mut *tx)
                .await
                .unwrap();
            sqlx::query(&format!(
                "UPDATE jobs SET run_at = now() - interval '1 day' WHERE kind IN ({kinds})"
            ))
            .execute(&mut *tx)
            .await
            .unwrap();
            tx.commit().await.unwrap();
        }
    }
}

/// Per request of the business: its deadline job's state and attempts,
/// and how many deadline notes its timeline has.
async fn outcome(store: &aivet_store::DynStore) -> Vec<(JobStatus, i32, usize)> {
    outcome_of(
        store,
        |request| Job::DeadlinePassed { request },
        |e| matches!(e, aivet_domain::timeline::Event::DeadlinePassed { .. }),
    )
    .await
}

/// The same for the first reminder: its job, and the reminders noted.
async fn reminder_outcome(store: &aivet_store::DynStore) -> Vec<(JobStatus, i32, usize)> {
    outcome_of(
        store,
        |request| Job::Reminder { request, n: 0 },
        |e| matches!(e, aivet_domain::timeline::Event::ReminderSent { .. }),
    )
    .await
}

async fn outcome_of(
    store: &aivet_store::DynStore,
    job: impl Fn(aivet_domain::RequestId) -> Job,
    counts: impl Fn(&aivet_domain::timeline::Event) -> bool,
) -> Vec<(JobStatus, i32, usize)> {
    let user = store
        .credentials(&aivet_domain::Email::parse("owner@bakery.example").unwrap())
        .await
        .unwrap()
        .unwrap();
    let t = store.first_tenant(user.user_id).await.unwrap().unwrap();
    let mut out = Vec::new();
    for d in store.service_details(&t).await.unwrap() {
        let events = store.question_events(&t, d.service.id).await.unwrap();
        let notes = events.iter().filter(|e| counts(&e.event)).count();
        for r in store.service_requests(&t, d.service.id).await.unwrap() {
            let job = store
                .job_by_key(&job(r.id).key(Utc::now()))
                .await
                .unwrap()
                .expect("every request has the job");
            out.push((job.status, job.attempts, notes));
        }
    }
    out
}

async fn done_count(store: &aivet_store::DynStore) -> usize {
    done(&outcome(store).await)
}

fn done(outcome: &[(JobStatus, i32, usize)]) -> usize {
    outcome
        .iter()
        .filter(|(s, ..)| *s == JobStatus::Done)
        .count()
}

/// Two server processes on one PostgreSQL run every job once: each
/// deadline is noted once, each first reminder sent once, each job was
/// claimed once, and the hour's sweep that both scheduled is one job that
/// ran once.
#[tokio::test]
async fn two_processes_on_one_postgres_run_each_job_once() {
    let Some(db) = aivet_store::testing::TestDb::postgres().await else {
        return;
    };
    let db = Arc::new(db);
    let first = BinaryServer::on("jobs-a", db.clone());
    let second = BinaryServer::on("jobs-b", db.clone());
    const N: usize = 40;
    requests_of_a_business(&first, N).await;
    jobs_fall_due(&db, "'deadline_passed', 'reminder'").await;
    let store = aivet_store::open(db.url(), None).await.unwrap();
    let (_a, _b) = tokio::join!(first.start(&[]), second.start(&[]));
    while done_count(&store).await < N || done(&reminder_outcome(&store).await) < N {
        tokio::task::yield_now().await;
    }
    let outcome = outcome(&store).await;
    assert_eq!(outcome.len(), N);
    for (status, attempts, notes) in outcome {
        assert_eq!(status, JobStatus::Done);
        assert_eq!(attempts, 1, "claimed by one process only");
        assert_eq!(notes, 1, "noted once");
    }
    for (status, attempts, sent) in reminder_outcome(&store).await {
        assert_eq!(status, JobStatus::Done);
        assert_eq!(attempts, 1, "claimed by one process only");
        assert_eq!(sent, 1, "reminded once");
    }
    let sweep = store
        .job_by_key(&Job::Sweep.key(sweep_period(Utc::now())))
        .await
        .unwrap();
    // The hour may have turned meanwhile; then that hour's sweep is the one.
    if let Some(sweep) = sweep {
        while store
            .job_by_key(&Job::Sweep.key(sweep_period(Utc::now())))
            .await
            .unwrap()
            .is_some_and(|j| j.status != JobStatus::Done)
        {
            tokio::task::yield_now().await;
        }
        assert_eq!(sweep.attempts, 1, "both processes scheduled it; one ran it");
    }
}

/// kill -9 while jobs run (the moment the database shows jobs claimed and
/// not finished), several times, then a last run: nothing is lost,
/// nothing is done twice.
#[tokio::test]
async fn killed_mid_job_loses_nothing_and_notes_once() {
    let process = BinaryServer::new("jobs-kill");
    const N: usize = 48;
    requests_of_a_business(&process, N).await;
    deadlines_pass(process.db()).await;
    let store = aivet_store::open(process.db_url(), None).await.unwrap();
    let pool = sqlx::SqlitePool::connect(process.db_url()).await.unwrap();
    let count = |status: &'static str| {
        let pool = pool.clone();
        async move {
            let (n,): (i64,) = sqlx::query_as(
                "SELECT count(*) FROM jobs WHERE kind = 'deadline_passed' AND status = $1",
            )
            .bind(status)
            .fetch_one(&pool)
            .await
            .unwrap();
            n as usize
        }
    };
    let env = [("AIVET_JOB_LEASE_SECONDS", "1")];
    for _ in 0..4 {
        let mut server = process.start(&env).await;
        // Killed while it holds claimed, unfinished jobs.
        while count("running").await == 0 && count("done").await < N {
            tokio::task::yield_now().await;
        }
        server.kill().await.unwrap();
    }
    let _server = process.start(&env).await;
    while count("done").await < N {
        tokio::task::yield_now().await;
    }
    let outcome = outcome(&store).await;
    assert_eq!(outcome.len(), N);
    assert!(
        outcome.iter().any(|(_, attempts, _)| *attempts >= 2),
        "a kill interrupted claimed jobs, which ran again"
    );
    for (status, attempts, notes) in outcome {
        assert_eq!(status, JobStatus::Done);
        assert_eq!(
            notes, 1,
            "each deadline noted exactly once (attempts: {attempts})"
        );
    }
}
