//! Follow-ups over HTTP with a fixed clock: opened and closed by the
//! exchange with the vendor, the board's sections in the organisation's
//! days, moving and finishing one, who may, the policy, the dashboard.

use crate::helpers::*;
use crate::questions::{ask_key, json, overview, send_form, service_with_contact};
use chrono::{TimeZone, Utc};
use reqwest::Client;
use serde_json::Value;

crate::on_both!(
    the_exchange_opens_and_closes_follow_ups,
    the_board_moves_and_finishes_follow_ups,
    the_policy_is_the_owners_and_sets_the_dates,
);

async fn board(app: &TestApp, c: &Client, filter: &[(&str, &str)]) -> Value {
    json(app.call(c, "follow_ups_data", filter).await).await
}

/// (section, reason, service name) of every follow-up on the board.
fn rows(board: &Value) -> Vec<(String, String, String)> {
    board["sections"]
        .as_array()
        .unwrap_or_else(|| panic!("no board: {board}"))
        .iter()
        .flat_map(|s| {
            let section = s[0].as_str().unwrap().to_owned();
            s[1].as_array()
                .unwrap()
                .iter()
                .map(move |f| {
                    (
                        section.clone(),
                        f["reason"].as_str().unwrap().to_owned(),
                        f["service"]["name"].as_str().unwrap().to_owned(),
                    )
                })
                .collect::<Vec<_>>()
        })
        .collect()
}

fn first_id(board: &Value) -> String {
    board["sections"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|s| s[1].as_array().unwrap().clone())
        .next()
        .expect("a follow-up")["id"]
        .as_str()
        .unwrap()
        .to_owned()
}

pub(crate) async fn send(app: &TestApp, c: &Client, service: &str, contact: &str) -> String {
    let key = ask_key(app, c, service).await;
    let r = app
        .call(c, "send_questions", &send_form(service, &key, contact))
        .await;
    assert!(accepted(&r), "{}", r.status());
    overview(app, c, service).await["requests"][0]["id"]
        .as_str()
        .unwrap()
        .to_owned()
}

async fn the_exchange_opens_and_closes_follow_ups(b: Db) {
    let Some(app) = TestApp::spawn(b).await else {
        return;
    };
    let owner = app.sign_up("owner@firm.example", "Firm").await;
    let (service, contact) = service_with_contact(&app, &owner, "en").await;
    let dash = json(app.call(&owner, "dashboard_data", &[]).await).await;
    assert_eq!(dash["asked_without_follow_up"], 0);
    let request = send(&app, &owner, &service, &contact).await;
    // Sent on 30 November (a Monday), due 14 December: later this year.
    let b = board(&app, &owner, &[]).await;
    assert_eq!(
        rows(&b),
        vec![("Later".into(), "answer_due".into(), "Meeting notes".into())]
    );
    assert_eq!(
        overview(&app, &owner, &service).await["follow_up_on"],
        "2026-12-14"
    );

    // The answers arrive (entered from a mail): now they are to be reviewed.
    let r = app
        .call(
            &owner,
            "enter_answers",
            &[
                ("request_id", request.as_str()),
                ("answers[answers][0]", "Separate processes."),
                ("answers[answers][1]", "Not kept."),
                ("answers[answers][2]", "Yes, every release."),
                ("answers[answers][3]", "Within 24 hours."),
                ("answers[answers][4]", "We tell you."),
                ("answers[name]", "Dana"),
                ("answers[received_on]", "2026-11-30"),
            ],
        )
        .await;
    assert!(accepted(&r), "{}", r.status());
    let b = board(&app, &owner, &[]).await;
    // Due 7 days after: Monday 7 December, next week.
    assert_eq!(
        rows(&b),
        vec![("Later".into(), "review_due".into(), "Meeting notes".into())]
    );
    assert_eq!(b["sections"][2][1][0]["due_on"], "2026-12-07");
    // Every answer reviewed: nothing left to review.
    for i in 0..5 {
        let r = app
            .call(
                &owner,
                "review_answer",
                &[
                    ("request_id", request.as_str()),
                    ("position", &i.to_string()),
                    ("review[review]", "satisfactory"),
                ],
            )
            .await;
        assert!(accepted(&r), "{}", r.status());
    }
    assert!(rows(&board(&app, &owner, &[]).await).is_empty());
    let dash = json(app.call(&owner, "dashboard_data", &[]).await).await;
    assert_eq!(
        dash["asked_without_follow_up"], 1,
        "asked, nothing open: {dash}"
    );
    // The decision: assess again in twelve months.
    let r = app
        .call(
            &owner,
            "decide_assessment",
            &[
                ("service_id", service.as_str()),
                ("decision[decision]", "cleared"),
            ],
        )
        .await;
    assert!(accepted(&r), "{}", r.status());
    let b = board(&app, &owner, &[]).await;
    assert_eq!(
        rows(&b),
        vec![(
            "Later".into(),
            "reassessment".into(),
            "Meeting notes".into()
        )]
    );
    assert_eq!(
        overview(&app, &owner, &service).await["follow_up_on"],
        "2027-11-30"
    );
    let dash = json(app.call(&owner, "dashboard_data", &[]).await).await;
    assert_eq!(dash["asked_without_follow_up"], 0, "step 5 done: {dash}");

    // A withdrawn request leaves nothing to chase.
    let (other, contact2) = second_service(&app, &owner, "Translator").await;
    let second = send(&app, &owner, &other, &contact2).await;
    assert_eq!(rows(&board(&app, &owner, &[]).await).len(), 2);
    let r = app
        .call(&owner, "revoke_request", &[("request_id", second.as_str())])
        .await;
    assert!(accepted(&r));
    assert_eq!(
        rows(&board(&app, &owner, &[]).await),
        vec![(
            "Later".into(),
            "reassessment".into(),
            "Meeting notes".into()
        )]
    );
}

/// A second service of the same vendor (the contact of the first).
pub(crate) async fn second_service(app: &TestApp, c: &Client, name: &str) -> (String, String) {
    let vendors = json(app.call(c, "vendor_list", &[]).await).await;
    let vendor = vendors["rows"][0]["id"].as_str().unwrap().to_owned();
    let detail = json(
        app.call(c, "vendor_detail", &[("vendor_id", vendor.as_str())])
            .await,
    )
    .await;
    let contact = detail["contacts"][0]["id"].as_str().unwrap().to_owned();
    let service = crate::inventory::create_service(
        app,
        c,
        &[("form[name]", name), ("form[vendor_id]", vendor.as_str())],
    )
    .await;
    (service, contact)
}

async fn the_board_moves_and_finishes_follow_ups(b: Db) {
    let Some(app) = TestApp::spawn(b).await else {
        return;
    };
    let owner = app.sign_up("owner@firm.example", "Firm").await;
    let viewer = app
        .invite_and_join(&owner, "viewer@firm.example", "viewer")
        .await;
    let (service, contact) = service_with_contact(&app, &owner, "en").await;
    send(&app, &owner, &service, &contact).await;
    let id = first_id(&board(&app, &owner, &[]).await);

    // The deadline passes: overdue, on the dashboard too.
    app.clock
        .advance(Utc.with_ymd_and_hms(2026, 12, 15, 10, 0, 0).unwrap() - app.clock.now_for_tests());
    let owner = app.signed_in("owner@firm.example").await;
    let viewer_again = app.signed_in("viewer@firm.example").await;
    drop(viewer);
    assert_eq!(rows(&board(&app, &owner, &[]).await)[0].0, "Overdue");
    let dash = json(app.call(&owner, "dashboard_data", &[]).await).await;
    assert_eq!(dash["overdue"], 1);
    let (_, page) = app.get_text(&owner, "/follow-ups").await;
    assert!(page.contains("id=\"overdue\""), "{page}");
    assert!(
        page.contains("/requests/"),
        "the next step links the request"
    );

    // Moving it needs a day from today on, and a real one.
    for (date, field_msg) in [
        ("2026-12-14", "Please choose today or a later day."),
        ("2026-02-30", "Please enter a date as YYYY-MM-DD."),
    ] {
        let r = app
            .call(
                &owner,
                "move_follow_up",
                &[("follow_up_id", id.as_str()), ("form[due_on]", date)],
            )
            .await;
        assert_eq!(r.status(), 422, "{date}");
        let e: Value = r.json().await.unwrap();
        assert_eq!(e["fields"][0][0], "due_on");
        assert_eq!(e["field_texts"][0][1], field_msg);
    }
    // Viewers read, they do not move.
    let r = app
        .call(
            &viewer_again,
            "move_follow_up",
            &[
                ("follow_up_id", id.as_str()),
                ("form[due_on]", "2026-12-18"),
            ],
        )
        .await;
    assert_eq!(r.status(), 403);
    let r = app
        .call(
            &owner,
            "move_follow_up",
            &[
                ("follow_up_id", id.as_str()),
                ("form[due_on]", "2026-12-18"),
                ("form[note]", "Vendor on holiday until the 17th"),
            ],
        )
        .await;
    assert!(accepted(&r), "{}", r.status());
    let b = board(&app, &owner, &[]).await;
    assert_eq!(rows(&b)[0].0, "ThisWeek");
    let f = &b["sections"][1][1][0];
    assert_eq!(f["due_on"], "2026-12-18");
    assert_eq!(f["note"], "Vendor on holiday until the 17th");
    let o = overview(&app, &owner, &service).await;
    let moved = o["events"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["kind"] == "follow_up_moved")
        .expect("on the timeline")
        .clone();
    assert_eq!(
        moved["detail"],
        "Answer due, now 18 December 2026: Vendor on holiday until the 17th"
    );

    // Filters: by reason, by an owner who looks after nothing.
    assert_eq!(
        rows(&board(&app, &owner, &[("filter[reason]", "review_due")]).await).len(),
        0
    );
    assert_eq!(
        rows(&board(&app, &owner, &[("filter[reason]", "answer_due")]).await).len(),
        1
    );

    // Done: off the board, and it cannot be done twice.
    let r = app
        .call(&owner, "finish_follow_up", &[("follow_up_id", id.as_str())])
        .await;
    assert!(accepted(&r));
    assert!(rows(&board(&app, &owner, &[]).await).is_empty());
    let r = app
        .call(&owner, "finish_follow_up", &[("follow_up_id", id.as_str())])
        .await;
    assert_eq!(r.status(), 422);
    let audit = app.settings(&owner).await["audit"].clone();
    let actions: Vec<&str> = audit
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["action"].as_str().unwrap())
        .collect();
    assert!(actions.contains(&"follow_up.moved") && actions.contains(&"follow_up.done"));
}

async fn the_policy_is_the_owners_and_sets_the_dates(b: Db) {
    let Some(app) = TestApp::spawn(b).await else {
        return;
    };
    let owner = app.sign_up("owner@firm.example", "Firm").await;
    let editor = app
        .invite_and_join(&owner, "editor@firm.example", "editor")
        .await;
    let form = |max: &'static str| {
        vec![
            ("form[reminders]", "on"),
            ("form[max_reminders]", max),
            ("form[review_days]", "3"),
            ("form[reassess_months]", "6"),
            ("form[expiry_notice_days]", "14"),
        ]
    };
    let r = app.call(&editor, "save_follow_up_policy", &form("2")).await;
    assert_eq!(r.status(), 403);
    for bad in ["0", "1000", "many"] {
        let r = app.call(&owner, "save_follow_up_policy", &form(bad)).await;
        assert_eq!(r.status(), 422, "{bad}");
        let e: Value = r.json().await.unwrap();
        assert_eq!(e["fields"][0][0], "max_reminders");
    }
    let r = app.call(&owner, "save_follow_up_policy", &form("2")).await;
    assert!(accepted(&r));
    let p = json(app.call(&owner, "follow_up_policy_data", &[]).await).await;
    assert_eq!(
        (
            p["max_reminders"].as_i64(),
            p["review_days"].as_i64(),
            p["reassess_months"].as_i64()
        ),
        (Some(2), Some(3), Some(6))
    );
    let (_, page) = app.get_text(&owner, "/settings").await;
    assert!(page.contains("up to 2 reminders"), "{page}");

    // The review is due 3 days after the answers, the decision looked at
    // again 6 months after it.
    let (service, contact) = service_with_contact(&app, &owner, "en").await;
    let request = send(&app, &owner, &service, &contact).await;
    let r = app
        .call(
            &owner,
            "enter_answers",
            &[
                ("request_id", request.as_str()),
                ("answers[answers][0]", "A"),
                ("answers[answers][1]", "B"),
                ("answers[answers][2]", "C"),
                ("answers[answers][3]", "D"),
                ("answers[answers][4]", "E"),
                ("answers[name]", "Dana"),
                ("answers[received_on]", "2026-11-30"),
            ],
        )
        .await;
    assert!(accepted(&r), "{}", r.status());
    let b = board(&app, &owner, &[]).await;
    assert_eq!(b["sections"][1][1][0]["due_on"], "2026-12-03");
    let r = app
        .call(
            &owner,
            "decide_assessment",
            &[
                ("service_id", service.as_str()),
                ("decision[decision]", "not_cleared"),
            ],
        )
        .await;
    assert!(accepted(&r));
    assert_eq!(
        overview(&app, &owner, &service).await["follow_up_on"],
        "2027-05-30"
    );
}
