//! Vendor incidents over HTTP with a fixed clock: recording one starts the
//! 72-hour clock (shown on the incident, the dashboard and the register),
//! alerts reach the owners at 24, 48 and 60 hours and when it is missed,
//! moving "we became aware" moves them, a decision stops them; the
//! decisions' rules; the register's filters and CSV.

use crate::helpers::*;
use crate::inventory::{create_service, create_vendor};
use crate::questions::{ask_key, json, overview, request, send_form, service_with_contact};
use chrono::{DateTime, TimeZone, Utc};
use reqwest::Client;
use serde_json::Value;

crate::on_both!(
    the_clock_alerts_the_owners_until_a_decision_is_recorded,
    moving_when_we_became_aware_moves_the_alerts,
    decisions_and_forms_refuse_what_is_missing,
    the_register_filters_and_exports_safely,
    the_vendor_is_asked_about_an_incident_in_one_step,
);

const OWNER: &str = "owner@praxis.example";

fn at(y: i32, m: u32, d: u32, h: u32, mi: u32) -> DateTime<Utc> {
    Utc.with_ymd_and_hms(y, m, d, h, mi, 0).unwrap()
}

/// Moves the clock, runs the jobs, signs the owner in again.
async fn at_time(app: &TestApp, to: DateTime<Utc>) -> Client {
    app.clock.advance(to - app.clock.now_for_tests());
    app.run_jobs().await;
    app.signed_in(OWNER).await
}

/// A practice in Berlin with one AI service that receives personal data.
/// Returns (owner, service id, vendor id).
async fn practice(app: &TestApp) -> (Client, String, String) {
    let owner = app.sign_up(OWNER, "Praxis Dr. Weiß").await;
    let r = app
        .call(&owner, "set_time_zone", &[("time_zone", "Europe/Berlin")])
        .await;
    assert!(accepted(&r));
    let vendor = create_vendor(app, &owner, "Cloudflare", "inference_host").await;
    let service = create_service(
        app,
        &owner,
        &[
            ("form[name]", "Workers AI"),
            ("form[vendor_id]", vendor.as_str()),
            ("form[notice_hours]", "72"),
        ],
    )
    .await;
    (owner, service, vendor)
}

/// Records an incident; returns its id.
pub(crate) async fn record(app: &TestApp, c: &Client, fields: &[(&str, &str)]) -> String {
    let r = app.call(c, "save_incident", fields).await;
    let loc = r
        .headers()
        .get("location")
        .map(|l| l.to_str().unwrap().to_owned())
        .unwrap_or_else(|| panic!("save_incident {fields:?}: {}", r.status()));
    loc.trim_start_matches("/incidents/").to_owned()
}

async fn detail(app: &TestApp, c: &Client, id: &str) -> Value {
    json(app.call(c, "incident_detail", &[("incident_id", id)]).await).await
}

async fn alerts(app: &TestApp, c: &Client) -> Vec<Value> {
    app.settings(c).await["mail"]["mails"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["kind"] == "art33_alert")
        .cloned()
        .collect()
}

async fn the_clock_alerts_the_owners_until_a_decision_is_recorded(b: Db) {
    let Some(app) = TestApp::spawn(b).await else {
        return;
    };
    let (owner, service, _) = practice(&app).await;
    // The clock reads 30 Nov 09:00 UTC; we learned of it at 09:30 Berlin
    // time (08:30 UTC): the deadline is 3 Dec 09:30 Berlin time.
    let id = record(
        &app,
        &owner,
        &[
            ("form[title]", "GLM-5.3 served other customers' prompts"),
            ("form[services][0]", service.as_str()),
            ("form[we_aware_at]", "2026-11-30T09:30"),
            ("form[personal_data]", "true"),
            ("form[vendor_aware_at]", "2026-09-08T12:00"),
            ("form[vendor_fixed_at]", "2026-09-09T21:40"),
            ("form[disclosed_at]", "2026-10-26T14:00"),
        ],
    )
    .await;
    let d = detail(&app, &owner, &id).await;
    assert_eq!(d["clock"]["pending"], true, "{d}");
    let text = d["clock"]["text"].as_str().unwrap();
    assert!(
        text.contains("2 days and 23 hours left") && text.contains("3 December 2026"),
        "{text}"
    );
    assert!(text.contains("09:30") && text.contains("CET"), "{text}");
    // The lag from the fix to the public report; the vendor has not told us.
    let lags = d["lags"].to_string();
    // Summer time ended on the way: 46 days and 17 hours, not 16.
    assert!(lags.contains("46 days and 17 hours"), "{lags}");
    let notice = d["services"][0]["notice"].as_str().unwrap();
    assert!(notice.contains("not told yet, due by"), "{notice}");
    // On the dashboard, and the service is flagged.
    let dash = json(app.call(&owner, "dashboard_data", &[]).await).await;
    assert_eq!(dash["clocks"].as_array().unwrap().len(), 1, "{dash}");
    let s = json(
        app.call(
            &owner,
            "service_detail",
            &[("service_id", service.as_str())],
        )
        .await,
    )
    .await;
    assert_eq!(s["incidents"][0][0], id.as_str());
    // An incident follow-up on the deadline's day.
    let board = json(app.call(&owner, "follow_ups_data", &[]).await).await;
    assert!(board.to_string().contains("\"incident\""), "{board}");

    // 24 hours after awareness, not a minute before.
    let owner = at_time(&app, at(2026, 12, 1, 8, 29)).await;
    assert!(alerts(&app, &owner).await.is_empty());
    let owner = at_time(&app, at(2026, 12, 1, 8, 30)).await;
    let sent = alerts(&app, &owner).await;
    assert_eq!(sent.len(), 1);
    assert_eq!(sent[0]["recipient"], OWNER);
    let subject = sent[0]["subject"].as_str().unwrap();
    assert!(
        subject.contains("Praxis Dr. Weiß") && subject.contains("2 days left"),
        "{subject}"
    );
    let mails = mails_with(&app, "/incidents/", 1).await;
    assert!(mails[0].contains(&format!("/incidents/{id}")));
    assert!(mails[0].contains("not legal advice"));
    // 48 hours.
    let owner = at_time(&app, at(2026, 12, 2, 8, 30)).await;
    assert_eq!(alerts(&app, &owner).await.len(), 2);
    // Decided (notified on time): no 60-hour alert, no "missed".
    let r = app
        .call(
            &owner,
            "decide_art33",
            &[
                ("incident_id", id.as_str()),
                ("decision[decision]", "notify"),
                ("decision[rationale]", "Patients' names were in prompts."),
                ("decision[notified_at]", "2026-12-02T09:00"),
                (
                    "decision[authority]",
                    "Berliner Beauftragte für Datenschutz",
                ),
                ("decision[reference]", "BlnBDI-2026-311"),
            ],
        )
        .await;
    assert!(accepted(&r), "{}", r.status());
    let owner = at_time(&app, at(2026, 12, 4, 12, 0)).await;
    assert_eq!(alerts(&app, &owner).await.len(), 2);
    let d = detail(&app, &owner, &id).await;
    assert_eq!(d["clock"]["pending"], false);
    assert_eq!(d["art33"]["reference"], "BlnBDI-2026-311");
    let timeline = d["entries"].to_string();
    assert!(
        timeline.contains("24-hour alert mailed to 1 owner"),
        "{timeline}"
    );
    assert!(timeline.contains("Art. 33 decision: Notify"), "{timeline}");
    let dash = json(app.call(&owner, "dashboard_data", &[]).await).await;
    assert!(dash["clocks"].as_array().unwrap().is_empty());
}

async fn moving_when_we_became_aware_moves_the_alerts(b: Db) {
    let Some(app) = TestApp::spawn(b).await else {
        return;
    };
    let (owner, service, _) = practice(&app).await;
    let fields = |aware: &'static str| {
        vec![
            ("form[title]", "Cache exposure"),
            ("form[services][0]", service.as_str()),
            ("form[we_aware_at]", aware),
            ("form[personal_data]", "true"),
        ]
    };
    let id = record(&app, &owner, &fields("2026-11-30T09:30")).await;
    // A colleague knew a day earlier: the clock moves back by 24 hours.
    let mut moved = fields("2026-11-29T09:30");
    moved.push(("incident_id", id.as_str()));
    assert!(accepted(&app.call(&owner, "save_incident", &moved).await));
    let d = detail(&app, &owner, &id).await;
    assert!(
        d["clock"]["text"]
            .as_str()
            .unwrap()
            .contains("1 day and 23 hours left"),
        "{}",
        d["clock"]
    );
    assert!(d["entries"].to_string().contains("Moved “we became aware”"));
    let audit = app.settings(&owner).await["audit"].to_string();
    assert!(audit.contains("Moved when we became aware"), "{audit}");
    // The 24-hour mark of the new time (30 Nov 08:30 UTC) had passed when
    // it was moved: no alert for it. The old time's alerts never come.
    let owner = at_time(&app, at(2026, 11, 30, 9, 1)).await;
    assert_eq!(
        alerts(&app, &owner).await.len(),
        0,
        "24 h of the new time was before the move"
    );
    let owner = at_time(&app, at(2026, 12, 1, 8, 30)).await;
    let sent = alerts(&app, &owner).await;
    assert_eq!(sent.len(), 1, "only the 48-hour alert of the new time");
    assert!(sent[0]["subject"].as_str().unwrap().contains("1 day left"));
    // Missed: the last alert says so, and the register shows it.
    let owner = at_time(&app, at(2026, 12, 2, 8, 30)).await;
    let sent = alerts(&app, &owner).await;
    assert_eq!(sent.len(), 3, "60 h and 72 h");
    assert!(sent[0]["subject"]
        .as_str()
        .unwrap()
        .contains("72-hour deadline passed"));
    let reg = json(app.call(&owner, "incident_list", &[]).await).await;
    assert_eq!(reg["rows"][0]["clock"]["missed"], true, "{reg}");
    // A late notification needs the reasons for the delay.
    let owner = at_time(&app, at(2026, 12, 2, 12, 0)).await;
    let late = [
        ("incident_id", id.as_str()),
        ("decision[decision]", "notify"),
        ("decision[rationale]", "Customer data was in the prompts."),
        ("decision[notified_at]", "2026-12-02T10:00"),
        ("decision[authority]", "BlnBDI"),
    ];
    let r = app.call(&owner, "decide_art33", &late).await;
    assert_eq!(r.status(), 422);
    assert!(r.text().await.unwrap().contains("delay_reason"));
    let mut explained = late.to_vec();
    explained.push((
        "decision[delay_reason]",
        "The vendor confirmed the scope only on 2 Dec.",
    ));
    assert!(accepted(
        &app.call(&owner, "decide_art33", &explained).await
    ));
    let d = detail(&app, &owner, &id).await;
    assert!(d["clock"]["text"]
        .as_str()
        .unwrap()
        .contains("after the deadline"));
}

async fn decisions_and_forms_refuse_what_is_missing(b: Db) {
    let Some(app) = TestApp::spawn(b).await else {
        return;
    };
    let (owner, service, _) = practice(&app).await;
    // Nothing but a future awareness: every problem named, nothing saved.
    let r = app
        .call(
            &owner,
            "save_incident",
            &[
                ("form[title]", ""),
                ("form[we_aware_at]", "2026-12-24T10:00"),
            ],
        )
        .await;
    assert_eq!(r.status(), 422);
    let body = r.text().await.unwrap();
    for field in ["title", "vendors", "we_aware_at"] {
        assert!(body.contains(field), "{field}: {body}");
    }
    let reg = json(app.call(&owner, "incident_list", &[]).await).await;
    assert!(reg["rows"].as_array().unwrap().is_empty());
    // Without the bundle the form comes back with what was typed.
    let r = crate::pages::plain_post(
        &app,
        &owner,
        "/api/save_incident",
        "/incidents/new",
        &[
            ("form[title]", "Half typed <b>title</b>"),
            ("form[we_aware_at]", "not a time"),
        ],
    )
    .await;
    let page = r.text().await.unwrap();
    assert!(
        page.contains("Half typed &lt;b&gt;title&lt;/b&gt;"),
        "kept, escaped"
    );
    assert!(page.contains("Please enter a date and time"));

    let id = record(
        &app,
        &owner,
        &[
            ("form[title]", "Exposure"),
            ("form[services][0]", service.as_str()),
            ("form[we_aware_at]", "2026-11-30T09:00"),
        ],
    )
    .await;
    // No personal data marked: no clock.
    let d = detail(&app, &owner, &id).await;
    assert!(d["clock"]["text"]
        .as_str()
        .unwrap()
        .starts_with("No 72-hour clock"));
    for (fields, missing) in [
        (vec![("decision[decision]", "")], "decision"),
        (vec![("decision[decision]", "not_required")], "rationale"),
        (
            vec![
                ("decision[decision]", "notify"),
                ("decision[rationale]", "r"),
            ],
            "notified_at",
        ),
    ] {
        let mut f = vec![("incident_id", id.as_str())];
        f.extend(fields);
        let r = app.call(&owner, "decide_art33", &f).await;
        assert_eq!(r.status(), 422, "{missing}");
        assert!(r.text().await.unwrap().contains(missing), "{missing}");
    }
    let r = app
        .call(
            &owner,
            "decide_art34",
            &[
                ("incident_id", id.as_str()),
                ("decision[decision]", "inform"),
                ("decision[rationale]", "High risk."),
            ],
        )
        .await;
    assert_eq!(r.status(), 422);
    assert!(r.text().await.unwrap().contains("informed_on"));
    assert!(detail(&app, &owner, &id).await["art34"].is_null());
    // A viewer reads but does not write.
    let viewer = app
        .invite_and_join(&owner, "viewer@praxis.example", "viewer")
        .await;
    assert_eq!(detail(&app, &viewer, &id).await["title"], "Exposure");
    let r = app
        .call(
            &viewer,
            "add_incident_note",
            &[("incident_id", id.as_str()), ("note", "mine")],
        )
        .await;
    assert_eq!(r.status(), 403);
}

async fn the_register_filters_and_exports_safely(b: Db) {
    let Some(app) = TestApp::spawn(b).await else {
        return;
    };
    let (owner, service, vendor) = practice(&app).await;
    let other_vendor = create_vendor(&app, &owner, "TextKI GmbH", "application").await;
    let first = record(
        &app,
        &owner,
        &[
            ("form[title]", "=HYPERLINK(\"https://evil.example\")"),
            ("form[services][0]", service.as_str()),
            ("form[we_aware_at]", "2026-11-30T09:00"),
        ],
    )
    .await;
    record(
        &app,
        &owner,
        &[
            ("form[title]", "Old outage"),
            ("form[vendors][0]", other_vendor.as_str()),
            ("form[we_aware_at]", "2025-06-01T09:00"),
        ],
    )
    .await;
    assert!(accepted(
        &app.call(
            &owner,
            "set_incident_state",
            &[("incident_id", first.as_str()), ("state", "closed")]
        )
        .await
    ));
    let list = |filter: Vec<(&'static str, String)>| {
        let app = &app;
        let owner = &owner;
        async move {
            let f: Vec<(&str, &str)> = filter.iter().map(|(k, v)| (*k, v.as_str())).collect();
            let reg = json(app.call(owner, "incident_list", &f).await).await;
            reg["rows"]
                .as_array()
                .unwrap()
                .iter()
                .map(|r| r["title"].as_str().unwrap().to_owned())
                .collect::<Vec<_>>()
        }
    };
    assert_eq!(list(vec![]).await.len(), 2);
    assert_eq!(
        list(vec![("filter[state]", "open".into())]).await,
        vec!["Old outage"]
    );
    assert_eq!(
        list(vec![("filter[vendor]", vendor.clone())]).await.len(),
        1
    );
    assert_eq!(
        list(vec![("filter[year]", "2025".into())]).await,
        vec!["Old outage"]
    );
    let reg = json(app.call(&owner, "incident_list", &[]).await).await;
    assert_eq!(reg["years"], serde_json::json!([2026, 2025]));

    let (status, csv) = app
        .get_text(&owner, "/incidents/export.csv?state=closed")
        .await;
    assert_eq!(status, 200);
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(lines.len(), 2, "{csv}");
    assert!(lines[0].starts_with("Title,Status,Vendors"), "{}", lines[0]);
    // A formula is defused: it starts with an apostrophe.
    assert!(lines[1].starts_with("\"'=HYPERLINK"), "{}", lines[1]);
    assert!(lines[1].contains("Workers AI") && lines[1].contains("Closed"));
    // German headers with Excel's separator.
    let r = app.call(&owner, "set_language", &[("lang", "de")]).await;
    assert!(accepted(&r));
    let (_, csv) = app.get_text(&owner, "/incidents/export.csv?bom=1").await;
    assert!(
        csv.starts_with("\u{feff}Titel;Status;Anbieter"),
        "{}",
        &csv[..40.min(csv.len())]
    );
    // Another organisation's register is empty, its CSV only the header.
    let other = app.sign_up("owner@other.example", "Other").await;
    let (_, csv) = app.get_text(&other, "/incidents/export.csv").await;
    assert_eq!(csv.lines().count(), 1);
}

/// From an incident's page, "ask the vendor" opens the send form with the
/// incident's own question first (its title and when we learned of it, in
/// the contact's language) and the engine question ticked; another
/// organisation's incident is as unknown as a random id.
async fn the_vendor_is_asked_about_an_incident_in_one_step(b: Db) {
    let Some(app) = TestApp::spawn(b).await else {
        return;
    };
    let owner = app.sign_up(OWNER, "Praxis Dr. Weiß").await;
    let r = app
        .call(&owner, "set_time_zone", &[("time_zone", "Europe/Berlin")])
        .await;
    assert!(accepted(&r));
    let (service, contact) = service_with_contact(&app, &owner, "de").await;
    let id = record(
        &app,
        &owner,
        &[
            ("form[title]", "GLM-5.3 served other customers' prompts"),
            ("form[services][0]", service.as_str()),
            ("form[we_aware_at]", "2026-11-30T09:30"),
            ("form[personal_data]", "true"),
        ],
    )
    .await;
    let other = app.sign_up("other@elsewhere.example", "Elsewhere").await;
    let (their_service, _) = service_with_contact(&app, &other, "en").await;
    let theirs = record(
        &app,
        &other,
        &[
            ("form[title]", "Their incident"),
            ("form[services][0]", their_service.as_str()),
            ("form[we_aware_at]", "2026-11-30T08:00"),
        ],
    )
    .await;

    // The incident's page links to the form with the incident in it.
    let (status, page) = app.get_text(&owner, &format!("/incidents/{id}")).await;
    assert_eq!(status, 200);
    let ask = format!("/services/{service}/ask?incident={id}");
    assert!(
        page.contains(&ask.replace('&', "&amp;")) || page.contains(&ask),
        "{page}"
    );
    let (_, service_page) = app.get_text(&owner, &format!("/services/{service}")).await;
    assert!(
        service_page.contains(&format!("ask?incident={id}")),
        "the banner offers it too"
    );
    let (status, form) = app.get_text(&owner, &ask).await;
    assert_eq!(status, 200);
    assert!(form.contains("id=\"ask-incident\"") && form.contains("GLM-5.3 served"));
    assert!(
        form.contains(&format!("name=\"form[incident]\" value=\"{id}\"")),
        "{form}"
    );
    let ask_about = |incident: String| {
        let (owner, service) = (&owner, service.clone());
        let app = &app;
        async move {
            app.call(
                owner,
                "ask_data",
                &[
                    ("service_id", service.as_str()),
                    ("incident_id", incident.as_str()),
                ],
            )
            .await
        }
    };
    let view = json(ask_about(id.clone()).await).await;
    let engines = view["further"]
        .as_array()
        .unwrap()
        .iter()
        .find(|q| q["code"] == "engines")
        .unwrap();
    assert_eq!(engines["enabled"], true, "{view}");
    let foreign = ask_about(theirs.clone()).await.status();
    let missing = ask_about(uuid::Uuid::new_v4().to_string()).await.status();
    assert_eq!((foreign.as_u16(), missing.as_u16()), (404, 404));

    // Sending: another organisation's incident is refused at its field,
    // nothing is sent.
    let key = ask_key(&app, &owner, &service).await;
    let mut form = send_form(&service, &key, &contact);
    form.push(("form[incident]", theirs.as_str()));
    let r = app.call(&owner, "send_questions", &form).await;
    assert_eq!(r.status(), 422);
    assert!(r.text().await.unwrap().contains("incident"));
    assert!(overview(&app, &owner, &service).await["requests"]
        .as_array()
        .unwrap()
        .is_empty());

    // One step: the incident's question first, in German, then the five.
    let mut form = send_form(&service, &key, &contact);
    form.push(("form[incident]", id.as_str()));
    form.push(("form[optional][0]", "engines"));
    let r = app.call(&owner, "send_questions", &form).await;
    assert!(accepted(&r), "{}", r.status());
    let o = overview(&app, &owner, &service).await;
    let request_id = o["requests"][0]["id"].as_str().unwrap().to_owned();
    let d = request(&app, &owner, &request_id).await;
    let items = d["items"].as_array().unwrap();
    assert_eq!(items.len(), 7, "{d}");
    let first = items[0]["question"].as_str().unwrap();
    assert!(
        first.starts_with("Zum Vorfall „GLM-5.3 served other customers' prompts“ (uns bekannt seit 30. November 2026)"),
        "{first}"
    );
    assert!(items[6]["question"]
        .as_str()
        .unwrap()
        .contains("Inferenz-Software"));
}
