//! Reminders to the vendor with a fixed clock: on their days at nine in
//! the organisation's zone, with the same answer link, in the contact's
//! language; never after an answer or a withdrawn link; switched off per
//! request or organisation; sent at once by a member; and after the last
//! one, "no answer".

use crate::helpers::*;
use crate::questions::{ask_key, json, overview, post_answers, send_form, service_with_contact};
use chrono::{DateTime, TimeZone, Utc};
use reqwest::Client;
use serde_json::Value;

crate::on_both!(
    reminders_go_out_on_their_days_then_no_answer,
    an_answer_or_a_withdrawn_link_stops_the_reminders,
    reminders_can_be_switched_off_and_sent_at_once,
    reminders_due_together_go_out_together,
);

fn at(y: i32, m: u32, d: u32, h: u32, mi: u32) -> DateTime<Utc> {
    Utc.with_ymd_and_hms(y, m, d, h, mi, 0).unwrap()
}

/// Moves the clock, runs the jobs, signs the owner in again (the session
/// does not outlive such jumps).
async fn at_time(app: &TestApp, to: DateTime<Utc>) -> Client {
    app.clock.advance(to - app.clock.now_for_tests());
    app.run_jobs().await;
    app.signed_in("owner@bakery.example").await
}

/// The organisation's reminder mails, newest first.
async fn reminders(app: &TestApp, c: &Client) -> Vec<Value> {
    app.settings(c).await["mail"]["mails"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["kind"] == "reminder")
        .cloned()
        .collect()
}

async fn request_row(app: &TestApp, c: &Client, service: &str) -> Value {
    overview(app, c, service).await["requests"][0].clone()
}

/// A German bakery (Berlin) asks its vendor's German contact; deadline
/// 14 December 2026.
async fn asked(app: &TestApp) -> (Client, String) {
    let owner = app.sign_up("owner@bakery.example", "Bäckerei Sonne").await;
    let r = app
        .call(&owner, "set_time_zone", &[("time_zone", "Europe/Berlin")])
        .await;
    assert!(accepted(&r));
    let (service, contact) = service_with_contact(app, &owner, "de").await;
    let key = ask_key(app, &owner, &service).await;
    let r = app
        .call(
            &owner,
            "send_questions",
            &send_form(&service, &key, &contact),
        )
        .await;
    assert!(accepted(&r));
    (owner, service)
}

async fn reminders_go_out_on_their_days_then_no_answer(b: Db) {
    let Some(app) = TestApp::spawn(b).await else {
        return;
    };
    let (_, service) = asked(&app).await;
    // Three days before the deadline at nine in Berlin (08:00 UTC): not a minute before.
    let owner = at_time(&app, at(2026, 12, 11, 7, 59)).await;
    assert!(reminders(&app, &owner).await.is_empty());
    let owner = at_time(&app, at(2026, 12, 11, 8, 0)).await;
    let sent = reminders(&app, &owner).await;
    assert_eq!(sent.len(), 1);
    let subject = sent[0]["subject"].as_str().unwrap();
    assert!(
        subject.starts_with("Erinnerung: Fragen von Bäckerei Sonne zu Meeting notes")
            && subject.contains("14. Dezember 2026"),
        "{subject}"
    );
    assert_eq!(sent[0]["recipient"], "security@chatco.example");
    // The same answer link as the first mail, no new one.
    let mails = mails_with(&app, "/answer/", 2).await;
    assert_eq!(mails.len(), 2);
    let tokens = tokens_in_outbox(&app, "/answer/", 1).await;
    assert_eq!(tokens.len(), 1, "one link for the request: {tokens:?}");
    assert!(
        mails.iter().any(|m| m.contains("Noch offen")),
        "the reminder quotes the open questions"
    );
    let row = request_row(&app, &owner, &service).await;
    assert_eq!(row["reminders_sent"], 1);

    // On the day, a week after, two weeks after.
    for (day, n) in [(14, 2), (21, 3), (28, 4)] {
        let owner = at_time(&app, at(2026, 12, day, 8, 0)).await;
        assert_eq!(reminders(&app, &owner).await.len(), n, "day {day}");
        let newest = &reminders(&app, &owner).await[0];
        let subject = newest["subject"].as_str().unwrap().to_owned();
        assert_eq!(
            subject.contains("war bis"),
            day > 14,
            "overdue wording only after the deadline: {subject}"
        );
    }
    // A week after the last one: no answer, and no fifth reminder.
    let owner = at_time(&app, at(2027, 1, 4, 7, 59)).await;
    assert!(!request_row(&app, &owner, &service).await["no_answer"]
        .as_bool()
        .unwrap());
    let owner = at_time(&app, at(2027, 1, 4, 8, 0)).await;
    let row = request_row(&app, &owner, &service).await;
    assert_eq!(row["no_answer"], true, "{row}");
    let o = overview(&app, &owner, &service).await;
    let note = o["events"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["kind"] == "no_answer")
        .expect("on the timeline")
        .clone();
    assert_eq!(
        note["detail"],
        "security@chatco.example did not answer after 4 reminders"
    );
    let owner = at_time(&app, at(2027, 2, 1, 8, 0)).await;
    assert_eq!(
        reminders(&app, &owner).await.len(),
        4,
        "never more than four"
    );
}

async fn an_answer_or_a_withdrawn_link_stops_the_reminders(b: Db) {
    let Some(app) = TestApp::spawn(b).await else {
        return;
    };
    let (_, service) = asked(&app).await;
    let owner = at_time(&app, at(2026, 12, 11, 8, 0)).await;
    assert_eq!(reminders(&app, &owner).await.len(), 1);
    // The vendor answers.
    let token = tokens_in_outbox(&app, "/answer/", 1).await.remove(0);
    let answers: Vec<(String, String)> = (0..5)
        .map(|i| (format!("answer{i}"), format!("Antwort {i}")))
        .collect();
    let mut fields: Vec<(&str, &str)> = answers
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect();
    fields.extend([
        ("lang", "de"),
        ("action", "submit"),
        ("name", "Dana"),
        ("email", "dana@chatco.example"),
    ]);
    let (s, page) = post_answers(&app, &token, &fields).await;
    assert_eq!(s, 200, "{page}");
    for day in [14, 21, 28] {
        let owner = at_time(&app, at(2026, 12, day, 9, 0)).await;
        assert_eq!(
            reminders(&app, &owner).await.len(),
            1,
            "none after the answer (day {day})"
        );
    }
    let owner = at_time(&app, at(2027, 1, 10, 9, 0)).await;
    assert_eq!(
        request_row(&app, &owner, &service).await["no_answer"],
        false
    );

    // A second request, withdrawn before its first reminder: none at all.
    let (other, contact) = crate::follow_ups::second_service(&app, &owner, "Translator").await;
    let key = ask_key(&app, &owner, &other).await;
    let mut form = send_form(&other, &key, &contact);
    form.retain(|(k, _)| *k != "form[deadline]");
    form.push(("form[deadline]", "2027-02-01"));
    let r = app.call(&owner, "send_questions", &form).await;
    assert!(accepted(&r), "{}", r.status());
    crate::questions::withdraw_newest(&app, &owner, &other).await;
    let owner = at_time(&app, at(2027, 3, 1, 9, 0)).await;
    assert_eq!(
        reminders(&app, &owner).await.len(),
        1,
        "still only the first request's one"
    );
    assert_eq!(request_row(&app, &owner, &other).await["no_answer"], false);
}

async fn reminders_can_be_switched_off_and_sent_at_once(b: Db) {
    let Some(app) = TestApp::spawn(b).await else {
        return;
    };
    let (owner, service) = asked(&app).await;
    let viewer = app
        .invite_and_join(&owner, "viewer@bakery.example", "viewer")
        .await;
    let request = request_row(&app, &owner, &service).await["id"]
        .as_str()
        .unwrap()
        .to_owned();
    // Switched off for this request: nothing on its day.
    let r = app
        .call(
            &owner,
            "set_request_reminders",
            &[("request_id", request.as_str()), ("on", "off")],
        )
        .await;
    assert!(accepted(&r));
    let owner = at_time(&app, at(2026, 12, 11, 9, 0)).await;
    assert!(reminders(&app, &owner).await.is_empty());
    let row = request_row(&app, &owner, &service).await;
    assert_eq!(row["reminders"], false);
    // On again: the next one (on the deadline) goes out.
    let r = app
        .call(
            &owner,
            "set_request_reminders",
            &[("request_id", request.as_str()), ("on", "on")],
        )
        .await;
    assert!(accepted(&r));
    let owner = at_time(&app, at(2026, 12, 14, 9, 0)).await;
    assert_eq!(reminders(&app, &owner).await.len(), 1);

    // At once, by a member; not by a viewer.
    let viewer = {
        drop(viewer);
        app.signed_in("viewer@bakery.example").await
    };
    let r = app
        .call(&viewer, "remind_now", &[("request_id", request.as_str())])
        .await;
    assert_eq!(r.status(), 403);
    let r = app
        .call(&owner, "remind_now", &[("request_id", request.as_str())])
        .await;
    assert!(accepted(&r), "{}", r.status());
    assert_eq!(reminders(&app, &owner).await.len(), 2);
    assert_eq!(
        request_row(&app, &owner, &service).await["reminders_sent"],
        2
    );

    // Switched off for the organisation: the one a week after does not go out.
    let r = app
        .call(
            &owner,
            "save_follow_up_policy",
            &[
                ("form[max_reminders]", "4"),
                ("form[review_days]", "7"),
                ("form[reassess_months]", "12"),
                ("form[expiry_notice_days]", "14"),
            ],
        )
        .await;
    assert!(accepted(&r));
    let owner = at_time(&app, at(2026, 12, 21, 9, 0)).await;
    assert_eq!(reminders(&app, &owner).await.len(), 2);

    // A withdrawn request is not reminded, not even at once.
    let r = app
        .call(
            &owner,
            "revoke_request",
            &[("request_id", request.as_str())],
        )
        .await;
    assert!(accepted(&r));
    let r = app
        .call(&owner, "remind_now", &[("request_id", request.as_str())])
        .await;
    assert_eq!(r.status(), 422);
    let e: Value = json(r).await;
    assert_eq!(e["msg"], "ErrNotWaiting");
}

/// The timeline entries of a kind on a service's questions overview.
async fn events_of(app: &TestApp, c: &Client, service: &str, kind: &str) -> Vec<String> {
    overview(app, c, service).await["events"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["kind"] == kind)
        .map(|e| e["detail"].as_str().unwrap_or_default().to_owned())
        .collect()
}

/// Reminders due at the same time run as one batch: each request still
/// waiting gets its own, counted once and noted on the timeline of every
/// service it asks about; a withdrawn one gets none. A week after the last
/// reminder, "no answer" jobs run in one batch too, and mark only the
/// requests still waiting.
async fn reminders_due_together_go_out_together(b: Db) {
    let Some(app) = TestApp::spawn(b).await else {
        return;
    };
    let (owner, first) = asked(&app).await;
    // A second request asks about two services at once.
    let (second, contact) = crate::follow_ups::second_service(&app, &owner, "Translator").await;
    let (third, _) = crate::follow_ups::second_service(&app, &owner, "Summariser").await;
    let key = ask_key(&app, &owner, &second).await;
    let mut form = send_form(&second, &key, &contact);
    form.push(("form[services][0]", third.as_str()));
    assert!(accepted(&app.call(&owner, "send_questions", &form).await));
    // A third, withdrawn before its first reminder.
    let (fourth, _) = crate::follow_ups::second_service(&app, &owner, "Transcriber").await;
    let key = ask_key(&app, &owner, &fourth).await;
    let form = send_form(&fourth, &key, &contact);
    assert!(accepted(&app.call(&owner, "send_questions", &form).await));
    crate::questions::withdraw_newest(&app, &owner, &fourth).await;

    for (day, n) in [(11, 1), (14, 2)] {
        let owner = at_time(&app, at(2026, 12, day, 8, 0)).await;
        assert_eq!(reminders(&app, &owner).await.len(), 2 * n, "day {day}");
        for service in [&first, &second] {
            assert_eq!(
                request_row(&app, &owner, service).await["reminders_sent"],
                n
            );
        }
        assert_eq!(
            request_row(&app, &owner, &fourth).await["reminders_sent"],
            0
        );
        for service in [&first, &second, &third] {
            let mut sent = events_of(&app, &owner, service, "reminder_sent").await;
            sent.sort();
            let numbered: Vec<String> = (1..=n)
                .map(|k| format!("security@chatco.example, reminder {k}"))
                .collect();
            assert_eq!(sent, numbered, "{service}");
        }
        assert!(events_of(&app, &owner, &fourth, "reminder_sent")
            .await
            .is_empty());
    }
    // The last reminders. The first request is withdrawn in the week
    // after them; the other reaches "no answer" in the same batch as the
    // first's job, noted on both services it asks about.
    for day in [21, 28] {
        at_time(&app, at(2026, 12, day, 8, 0)).await;
    }
    let owner = at_time(&app, at(2027, 1, 2, 8, 0)).await;
    crate::questions::withdraw_newest(&app, &owner, &first).await;
    let owner = at_time(&app, at(2027, 1, 4, 8, 0)).await;
    for (service, unanswered) in [(&first, false), (&second, true), (&fourth, false)] {
        assert_eq!(
            request_row(&app, &owner, service).await["no_answer"],
            unanswered,
            "{service}"
        );
    }
    for service in [&second, &third] {
        assert_eq!(
            events_of(&app, &owner, service, "no_answer").await,
            ["security@chatco.example did not answer after 4 reminders"],
            "{service}"
        );
    }
    assert!(events_of(&app, &owner, &first, "no_answer")
        .await
        .is_empty());
    assert!(events_of(&app, &owner, &fourth, "no_answer")
        .await
        .is_empty());
}
