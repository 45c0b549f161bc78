//! Data clearance over HTTP with a fixed clock: a service receiving data it
//! may not is a conflict on the dashboard, the list and its page until a
//! member decides; the page for every member; expiry; the policy; who may;
//! refused decisions keep what was typed.

use crate::helpers::*;
use crate::inventory::{create_service, create_vendor};
use crate::pages::*;
use chrono::Duration;
use reqwest::Client;
use serde_json::Value;

crate::on_both!(
    deciding_a_class_clears_its_conflict,
    decisions_are_refused_clearly_and_kept_to_their_roles,
);

async fn json(r: reqwest::Response) -> Value {
    let status = r.status();
    let text = r.text().await.unwrap();
    serde_json::from_str(&text).unwrap_or_else(|_| panic!("{status}: {text}"))
}

async fn class_id(app: &TestApp, c: &Client, name: &str) -> String {
    let list = json(app.call(c, "data_classes_data", &[]).await).await;
    list.as_array()
        .unwrap()
        .iter()
        .find(|d| d["name"] == name)
        .unwrap_or_else(|| panic!("{name} in {list}"))["id"]
        .as_str()
        .unwrap()
        .to_owned()
}

/// A service that receives personal data (protected) and public data.
async fn chat_service(app: &TestApp, c: &Client) -> (String, String, String) {
    let vendor = create_vendor(app, c, "ChatCo AI", "application").await;
    let personal = class_id(app, c, "Personal data").await;
    let public = class_id(app, c, "Public").await;
    let service = create_service(
        app,
        c,
        &[
            ("form[name]", "Meeting notes"),
            ("form[purpose]", "Summarises customer calls"),
            ("form[vendor_id]", vendor.as_str()),
            ("form[data_classes][0]", personal.as_str()),
            ("form[data_classes][1]", public.as_str()),
        ],
    )
    .await;
    (service, personal, public)
}

async fn matrix(app: &TestApp, c: &Client, service: &str) -> Value {
    let m = json(
        app.call(c, "clearance_data", &[("service_id", service)])
            .await,
    )
    .await;
    assert!(m["rows"].is_array(), "{m}");
    m
}

/// (standing, ground, conflict) of a class in the matrix.
fn row(m: &Value, class: &str) -> (String, String, bool) {
    let r = m["rows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["id"] == class)
        .unwrap_or_else(|| panic!("{class} in {m}"));
    (
        r["standing"].as_str().unwrap().to_owned(),
        r["ground"].as_str().unwrap().to_owned(),
        r["conflict"].as_bool().unwrap(),
    )
}

async fn decide(
    app: &TestApp,
    c: &Client,
    service: &str,
    class: &str,
    fields: &[(&str, &str)],
) -> reqwest::Response {
    let mut form = vec![("service_id", service), ("data_class_id", class)];
    form.extend_from_slice(fields);
    app.call(c, "decide_clearance", &form).await
}

async fn dashboard(app: &TestApp, c: &Client) -> Value {
    json(app.call(c, "dashboard_data", &[]).await).await
}

async fn conflicted(app: &TestApp, c: &Client) -> i64 {
    json(
        app.call(c, "service_list", &[("filter[conflicts]", "1")])
            .await,
    )
    .await["total"]
        .as_i64()
        .unwrap()
}

async fn deciding_a_class_clears_its_conflict(b: Db) {
    let Some(app) = TestApp::spawn(b).await else {
        return;
    };
    let owner = app.sign_up("owner@firm.example", "Firm").await;
    let (service, personal, public) = chat_service(&app, &owner).await;

    // Personal data needs clearance and nobody decided: a conflict,
    // everywhere it is shown. Public data needs none.
    let m = matrix(&app, &owner, &service).await;
    assert_eq!(
        row(&m, &personal),
        ("not_decided".into(), "GroundUndecided".into(), true)
    );
    assert_eq!(
        row(&m, &public),
        ("allowed".into(), "GroundNoClearanceNeeded".into(), false)
    );
    let d = dashboard(&app, &owner).await;
    assert_eq!(
        (d["conflicts"].as_i64(), d["clearance_done"].as_bool()),
        (Some(1), Some(false))
    );
    assert_eq!(conflicted(&app, &owner).await, 1);
    let (status, page) = app.get_text(&owner, &format!("/services/{service}")).await;
    assert_eq!(status, 200);
    let doc = scraper::Html::parse_document(&page);
    assert!(
        text_of(one(&doc, "#conflicts")).contains("Personal data"),
        "{page}"
    );
    assert!(text_of(one(&doc, "#clearance-matrix")).contains("Needs clearance"));
    let (_, home) = app.get_text(&owner, "/").await;
    let doc = scraper::Html::parse_document(&home);
    assert_eq!(text_of(one(&doc, "#count-conflicts .figure-n")), "1");

    // Allowed, but the service's assessment is not cleared yet: still no.
    let r = decide(
        &app,
        &owner,
        &service,
        &personal,
        &[("decision[clearance]", "allowed")],
    )
    .await;
    assert!(accepted(&r), "{}", r.status());
    let m = matrix(&app, &owner, &service).await;
    assert_eq!(
        row(&m, &personal),
        ("not_allowed".into(), "GroundAssessmentPending".into(), true)
    );
    assert_eq!(
        m["rows"][3]["decision"]["decided_by"]
            .as_str()
            .map(|s| !s.is_empty()),
        Some(true),
        "{m}"
    );

    // Cleared: the decision holds, the conflict is gone everywhere.
    let r = app
        .call(
            &owner,
            "decide_assessment",
            &[("service_id", &service), ("decision[decision]", "cleared")],
        )
        .await;
    assert!(accepted(&r));
    let m = matrix(&app, &owner, &service).await;
    assert_eq!(
        row(&m, &personal),
        ("allowed".into(), "GroundDecided".into(), false)
    );
    assert_eq!(dashboard(&app, &owner).await["conflicts"], 0);
    assert_eq!(conflicted(&app, &owner).await, 0);
    let (_, page) = app.get_text(&owner, &format!("/services/{service}")).await;
    assert!(!page.contains("id=\"conflicts\""));
    // The decision is on the service's timeline.
    let o = json(
        app.call(&owner, "questions_overview", &[("service_id", &service)])
            .await,
    )
    .await;
    assert!(
        o["events"]
            .as_array()
            .unwrap()
            .iter()
            .any(|e| e["title"] == "Data decision"
                && e["detail"]
                    .as_str()
                    .unwrap()
                    .starts_with("Personal data: Allowed")),
        "{o}"
    );

    // What the documents say about separation, to cite.
    let r = app
        .call(
            &owner,
            "save_finding",
            &[
                ("service_id", service.as_str()),
                ("finding[topic]", "separation"),
                ("finding[status]", "stated"),
                ("finding[summary]", "Each customer has its own cache."),
            ],
        )
        .await;
    assert!(accepted(&r), "{}", r.status());

    // Step 4: once the policy is checked and every protected class received is decided.
    assert_eq!(dashboard(&app, &owner).await["clearance_done"], false);
    assert!(accepted(
        &app.call(&owner, "review_clearance_policy", &[]).await
    ));
    assert_eq!(dashboard(&app, &owner).await["clearance_done"], true);
    let (_, settings) = app.get_text(&owner, "/settings").await;
    let doc = scraper::Html::parse_document(&settings);
    assert!(text_of(one(&doc, "#policy-reviewed")).starts_with("Policy checked on"));

    // The page for everyone says it in plain words.
    let (status, allowed) = app.get_text(&owner, "/allowed").await;
    assert_eq!(status, 200);
    let doc = scraper::Html::parse_document(&allowed);
    let section = format!("#allowed-{service}");
    assert!(text_of(one(&doc, &section)).contains("Summarises customer calls"));
    let yes = text_of(one(&doc, &format!("{section} .allowed-yes")));
    assert!(
        yes.contains("Personal data") && yes.contains("Public"),
        "{yes}"
    );
    let no = text_of(one(&doc, &format!("{section} .allowed-no")));
    assert!(
        no.contains("Confidential") && !no.contains("Personal data"),
        "{no}"
    );

    // With conditions, a last day and the finding it rests on: followed up
    // 14 days before, and
    // "not allowed" from the day after the last day.
    let last_day = (app.clock.now_for_tests() + Duration::days(20)).date_naive();
    let r = decide(
        &app,
        &owner,
        &service,
        &personal,
        &[
            ("decision[clearance]", "conditional"),
            ("decision[condition]", "Only pseudonymised"),
            ("decision[expires_on]", &last_day.to_string()),
            ("decision[evidence][0]", "finding:separation"),
        ],
    )
    .await;
    assert!(accepted(&r), "{}", r.status());
    let m = matrix(&app, &owner, &service).await;
    let cited = &m["rows"][3]["decision"]["evidence"][0];
    assert_eq!(
        cited["href"],
        format!("/services/{service}#finding-separation"),
        "{m}"
    );
    assert!(cited["label"].as_str().unwrap().starts_with("Finding: "));
    // The service's page offers it, ticked, in the row's form.
    let (_, page) = app.get_text(&owner, &format!("/services/{service}")).await;
    let doc = scraper::Html::parse_document(&page);
    let ticked = one(
        &doc,
        &format!("#class-{personal} input[value='finding:separation']"),
    );
    assert!(ticked.value().attr("checked").is_some());
    let board = json(
        app.call(
            &owner,
            "follow_ups_data",
            &[("filter[reason]", "decision_expiry")],
        )
        .await,
    )
    .await;
    let due: Vec<&str> = board["sections"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|s| {
            s[1].as_array()
                .unwrap()
                .iter()
                .map(|f| f["due_on"].as_str().unwrap())
        })
        .collect();
    assert_eq!(due, vec![(last_day - Duration::days(14)).to_string()]);
    let (_, allowed) = app.get_text(&owner, "/allowed").await;
    let doc = scraper::Html::parse_document(&allowed);
    assert!(text_of(one(&doc, &format!("{section} .allowed-if")))
        .contains("Personal data: Only pseudonymised"));
    app.clock.advance(Duration::days(20));
    let owner = app.signed_in("owner@firm.example").await;
    assert_eq!(
        row(&matrix(&app, &owner, &service).await, &personal).0,
        "conditional"
    );
    app.clock.advance(Duration::days(1));
    let owner = app.signed_in("owner@firm.example").await;
    let m = matrix(&app, &owner, &service).await;
    assert_eq!(
        row(&m, &personal),
        ("not_allowed".into(), "GroundExpired".into(), true)
    );
    assert_eq!(dashboard(&app, &owner).await["conflicts"], 1);
    assert_eq!(conflicted(&app, &owner).await, 1);
}

async fn decisions_are_refused_clearly_and_kept_to_their_roles(b: Db) {
    let Some(app) = TestApp::spawn(b).await else {
        return;
    };
    let owner = app.sign_up("owner@firm.example", "Firm").await;
    let (service, personal, public) = chat_service(&app, &owner).await;

    // Nothing chosen; a condition missing; a last day in the past: each
    // named at its field, nothing saved.
    // (the form's fields, the field named, its message)
    type Refusal<'a> = (&'a [(&'a str, &'a str)], &'a str, &'a str);
    let cases: [Refusal; 3] = [
        (
            &[("decision[clearance]", "")],
            "clearance",
            "ErrChooseClearance",
        ),
        (
            &[("decision[clearance]", "conditional")],
            "condition",
            "ErrConditionRequired",
        ),
        (
            &[
                ("decision[clearance]", "allowed"),
                ("decision[expires_on]", "2026-11-01"),
            ],
            "expires_on",
            "ErrExpiryPast",
        ),
    ];
    for (fields, field, msg) in cases {
        let r = decide(&app, &owner, &service, &personal, fields).await;
        assert_eq!(r.status(), 422);
        let v = json(r).await;
        assert_eq!(
            (v["fields"][0][0].as_str(), v["fields"][0][1].as_str()),
            (Some(field), Some(msg)),
            "{v}"
        );
    }
    assert!(matrix(&app, &owner, &service).await["rows"]
        .as_array()
        .unwrap()
        .iter()
        .all(|r| r["decision"].is_null()));

    // Without the bundle, the refused row's form comes back open, as typed.
    let r = plain_post(
        &app,
        &owner,
        "/api/decide_clearance",
        &format!("/services/{service}#clearance"),
        &[
            ("service_id", &service),
            ("data_class_id", &personal),
            ("decision[clearance]", "conditional"),
            ("decision[condition]", ""),
            ("decision[expires_on]", "2027-03-31"),
        ],
    )
    .await;
    assert_eq!(r.status(), 422);
    let doc = html(r).await;
    let scope = format!("k-{personal}");
    assert_eq!(shown(&doc, &format!("#f-{scope}-clearance")), "conditional");
    assert_eq!(shown(&doc, &format!("#f-{scope}-expires_on")), "2027-03-31");
    assert!(doc
        .select(&sel(&format!("#f-{scope}-condition-error")))
        .next()
        .is_some());
    // The other rows' forms show what is saved (nothing).
    assert_eq!(shown(&doc, &format!("#f-k-{public}-expires_on")), "");

    // A viewer reads the matrix and the page for everyone, and cannot decide.
    let viewer = app
        .invite_and_join(&owner, "viewer@firm.example", "viewer")
        .await;
    let m = matrix(&app, &viewer, &service).await;
    assert_eq!(m["can_edit"], false);
    let r = decide(
        &app,
        &viewer,
        &service,
        &personal,
        &[("decision[clearance]", "allowed")],
    )
    .await;
    assert_eq!(r.status(), 403);
    assert_eq!(app.get_text(&viewer, "/allowed").await.0, 200);
    // An editor decides, but the policy is the owners'.
    let editor = app
        .invite_and_join(&owner, "editor@firm.example", "editor")
        .await;
    let r = decide(
        &app,
        &editor,
        &service,
        &public,
        &[("decision[clearance]", "not_allowed")],
    )
    .await;
    assert!(accepted(&r));
    assert_eq!(
        row(&matrix(&app, &owner, &service).await, &public),
        ("not_allowed".into(), "GroundDecided".into(), true)
    );
    assert_eq!(
        app.call(&editor, "review_clearance_policy", &[])
            .await
            .status(),
        403
    );

    // The owner protects a class: undecided, it becomes a conflict.
    let internal = class_id(&app, &owner, "Internal").await;
    let r = app
        .call(
            &owner,
            "save_data_class",
            &[
                ("data_class_id", &internal),
                ("name", "Internal"),
                ("needs_clearance", "true"),
            ],
        )
        .await;
    assert!(accepted(&r));
    let classes = json(app.call(&owner, "data_classes_data", &[]).await).await;
    assert!(classes
        .as_array()
        .unwrap()
        .iter()
        .any(|c| c["id"] == internal.as_str() && c["needs_clearance"] == true));
    assert_eq!(
        row(&matrix(&app, &owner, &service).await, &internal),
        ("not_decided".into(), "GroundUndecided".into(), false)
    );

    // Another organisation's class or service: the same 404 as a random one.
    let other = app.sign_up("owner@other.example", "Other").await;
    let (other_service, other_class, _) = chat_service(&app, &other).await;
    let random = uuid::Uuid::new_v4().to_string();
    for (s, c) in [
        (&other_service, &personal),
        (&service, &other_class),
        (&service, &random),
    ] {
        let r = decide(&app, &owner, s, c, &[("decision[clearance]", "allowed")]).await;
        assert_eq!(r.status(), 404, "{s} {c}");
    }
    assert_eq!(
        app.call(&owner, "clearance_data", &[("service_id", &other_service)])
            .await
            .status(),
        404
    );

    // An archived service takes no decisions.
    let r = app
        .call(
            &owner,
            "archive_service",
            &[("service_id", &service), ("archived", "true")],
        )
        .await;
    assert!(accepted(&r));
    let r = decide(
        &app,
        &owner,
        &service,
        &personal,
        &[("decision[clearance]", "allowed")],
    )
    .await;
    assert_eq!(r.status(), 422);
    assert_eq!(json(r).await["fields"][0][1], "ErrServiceArchived");

    // In German, the page for everyone is in German.
    assert!(accepted(
        &app.call(&owner, "set_language", &[("lang", "de")]).await
    ));
    let (_, page) = app.get_text(&owner, "/allowed").await;
    assert!(
        page.contains("Welche Daten darf ich in welches KI-Werkzeug eingeben?"),
        "{page}"
    );
}
