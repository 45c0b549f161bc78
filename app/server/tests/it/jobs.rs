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

crate::on_both!(
    a_passed_deadline_is_noted_once_in_the_organisations_time_zone,
    an_answer_or_a_withdrawn_link_means_no_note,
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

async fn an_answer_or_a_withdrawn_link_means_no_note(b: Db) {
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
    let request = overview(&app, &owner, &withdrawn).await["requests"][0]["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let r = app
        .call(
            &owner,
            "revoke_request",
            &[("request_id", request.as_str())],
        )
        .await;
    assert!(accepted(&r));

    app.clock.advance(Duration::days(20));
    let pass = app.run_jobs().await;
    assert!(pass.done >= 2, "both deadline jobs ran: {pass:?}");
    let owner = app.signed_in("owner@firm.example").await;
    for s in [&answered, &withdrawn] {
        assert!(deadline_notes(&overview(&app, &owner, s).await).is_empty());
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
