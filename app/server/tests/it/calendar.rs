//! The calendar feed and the digest, with a fixed clock: RFC 5545 read back
//! by an iCalendar parser (stable UIDs, growing SEQUENCE, DTSTAMP of the
//! last change, all-day events), the feed's secret link (rotated, stopped,
//! another member's items not in it), and the digest mail (in the member's
//! language, from seven in the morning, nothing when there is nothing).

use crate::helpers::*;
use crate::questions::{ask_key, json, send_form, service_with_contact};
use chrono::{DateTime, TimeZone, Utc};
use icalendar::{Calendar, CalendarComponent, Component};
use reqwest::Client;
use serde_json::Value;

crate::on_both!(
    the_feed_follows_the_follow_ups,
    digests_say_what_is_due_and_nothing_when_there_is_nothing,
);

async fn board(app: &TestApp, c: &Client) -> Value {
    json(app.call(c, "follow_ups_data", &[]).await).await
}

/// (UID, SEQUENCE, DTSTART, DTEND, DTSTAMP, SUMMARY) of every event.
fn events(ics: &str) -> Vec<[String; 6]> {
    let cal: Calendar = ics.parse().unwrap_or_else(|e| panic!("{e}: {ics}"));
    cal.components
        .iter()
        .filter_map(|c| match c {
            CalendarComponent::Event(e) => Some(e),
            _ => None,
        })
        .map(|e| {
            let p = |k: &str| e.property_value(k).unwrap_or_default().to_owned();
            [
                p("UID"),
                p("SEQUENCE"),
                p("DTSTART"),
                p("DTEND"),
                p("DTSTAMP"),
                p("SUMMARY"),
            ]
        })
        .collect()
}

async fn get(c: &Client, url: &str) -> (u16, String, String) {
    let r = c.get(url).send().await.unwrap();
    let ct = r
        .headers()
        .get("content-type")
        .map(|v| v.to_str().unwrap().to_owned())
        .unwrap_or_default();
    (r.status().as_u16(), ct, r.text().await.unwrap())
}

async fn ask(app: &TestApp, c: &Client) -> String {
    let (service, contact) = service_with_contact(app, c, "en").await;
    let key = ask_key(app, c, &service).await;
    let r = app
        .call(c, "send_questions", &send_form(&service, &key, &contact))
        .await;
    assert!(accepted(&r));
    service
}

async fn the_feed_follows_the_follow_ups(b: Db) {
    let Some(app) = TestApp::spawn(b).await else {
        return;
    };
    let owner = app.sign_up("owner@firm.example", "Firm").await;
    let editor = app
        .invite_and_join(&owner, "editor@firm.example", "editor")
        .await;
    ask(&app, &owner).await;
    assert_eq!(board(&app, &owner).await["calendar_link"], Value::Null);
    let r = app.call(&owner, "rotate_calendar", &[]).await;
    assert!(accepted(&r));
    let link = board(&app, &owner).await["calendar_link"]
        .as_str()
        .unwrap()
        .to_owned();
    assert!(
        link.starts_with(&app.base) && link.ends_with(".ics"),
        "{link}"
    );
    let (_, page) = app.get_text(&owner, "/follow-ups").await;
    assert!(
        page.contains(&link.replacen("http://", "webcal://", 1)),
        "a webcal link"
    );

    // Fetched by a calendar app: no cookies.
    let app_client = Client::new();
    let (status, ct, ics) = get(&app_client, &link).await;
    assert_eq!(status, 200);
    assert_eq!(ct, "text/calendar; charset=utf-8");
    assert!(ics.contains("X-PUBLISHED-TTL:PT4H"));
    assert!(
        ics.contains("DTSTART;VALUE=DATE:20261214") && ics.contains("DTEND;VALUE=DATE:20261215"),
        "all-day: {ics}"
    );
    assert!(!ics.contains("VALARM"), "calendars ignore alarms in feeds");
    let first = events(&ics);
    assert_eq!(first.len(), 1, "{ics}");
    let [uid, seq, start, end, stamp, summary] = first[0].clone();
    assert!(uid.ends_with("@aivet"));
    assert_eq!(
        (seq.as_str(), start.as_str(), end.as_str()),
        ("0", "20261214", "20261215")
    );
    assert_eq!(summary, "aivet: follow up Meeting notes");
    assert!(!ics.contains("chatco"), "titles reveal little: {ics}");
    // Unchanged: the same bytes.
    assert_eq!(get(&app_client, &link).await.2, ics);

    // The date moves: the same event, a higher SEQUENCE, a new DTSTAMP.
    let id = board(&app, &owner).await["sections"][2][1][0]["id"]
        .as_str()
        .unwrap()
        .to_owned();
    app.clock.advance(chrono::Duration::minutes(5));
    let r = app
        .call(
            &owner,
            "move_follow_up",
            &[
                ("follow_up_id", id.as_str()),
                ("form[due_on]", "2026-12-18"),
            ],
        )
        .await;
    assert!(accepted(&r), "{}", r.status());
    let moved = events(&get(&app_client, &link).await.2);
    assert_eq!(moved.len(), 1);
    assert_eq!(moved[0][0], uid, "stable UID");
    assert_eq!(moved[0][1], "1");
    assert_eq!(
        (moved[0][2].as_str(), moved[0][3].as_str()),
        ("20261218", "20261219")
    );
    assert_ne!(moved[0][4], stamp);

    // The single file has the same event.
    let (status, ct, one) = get(&owner, &app.url(&format!("/follow-ups/{id}/calendar.ics"))).await;
    assert_eq!((status, ct.as_str()), (200, "text/calendar; charset=utf-8"));
    assert_eq!(events(&one)[0][0], uid);

    // The editor's feed has only what the editor looks after.
    let r = app.call(&editor, "rotate_calendar", &[]).await;
    assert!(accepted(&r));
    let editor_link = board(&app, &editor).await["calendar_link"]
        .as_str()
        .unwrap()
        .to_owned();
    assert_ne!(editor_link, link);
    assert!(events(&get(&app_client, &editor_link).await.2).is_empty());

    // A new link: the old one is a 404 like any random one; stopped: too.
    let random = format!("{}/calendar/{}.ics", app.base, "A".repeat(32));
    let (s_random, _, body_random) = get(&app_client, &random).await;
    assert_eq!(s_random, 404);
    let r = app.call(&owner, "rotate_calendar", &[]).await;
    assert!(accepted(&r));
    let (s_old, _, body_old) = get(&app_client, &link).await;
    assert_eq!((s_old, body_old), (s_random, body_random.clone()));
    let new_link = board(&app, &owner).await["calendar_link"]
        .as_str()
        .unwrap()
        .to_owned();
    assert_eq!(get(&app_client, &new_link).await.0, 200);
    let r = app.call(&owner, "stop_calendar", &[]).await;
    assert!(accepted(&r));
    assert_eq!(
        get(&app_client, &new_link).await,
        (404, get(&app_client, &random).await.1, body_random)
    );
}

fn at(y: i32, m: u32, d: u32, h: u32, mi: u32) -> DateTime<Utc> {
    Utc.with_ymd_and_hms(y, m, d, h, mi, 0).unwrap()
}

async fn digests(app: &TestApp, c: &Client) -> Vec<Value> {
    app.settings(c).await["mail"]["mails"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["kind"] == "digest")
        .cloned()
        .collect()
}

async fn digests_say_what_is_due_and_nothing_when_there_is_nothing(b: Db) {
    let Some(app) = TestApp::spawn(b).await else {
        return;
    };
    let owner = app.sign_up("owner@firm.example", "Firm").await;
    let r = app.call(&owner, "set_language", &[("lang", "de")]).await;
    assert!(accepted(&r));
    ask(&app, &owner).await; // due 14 December
    let r = app
        .call(&owner, "set_digest", &[("digest", "sometimes")])
        .await;
    assert_eq!(r.status(), 422);
    let r = app.call(&owner, "set_digest", &[("digest", "daily")]).await;
    assert!(accepted(&r));
    assert_eq!(board(&app, &owner).await["digest"], "daily");

    let step = |to: DateTime<Utc>| {
        let app = &app;
        async move {
            app.clock.advance(to - app.clock.now_for_tests());
            app.run_jobs().await;
            app.signed_in("owner@firm.example").await
        }
    };
    // London, 1 December: nothing due today, so nothing is sent.
    let owner = step(at(2026, 12, 1, 7, 0)).await;
    assert!(digests(&app, &owner).await.is_empty());
    // 14 December before seven: not yet; at seven: one mail, in German.
    let owner = step(at(2026, 12, 14, 6, 59)).await;
    assert!(digests(&app, &owner).await.is_empty());
    let owner = step(at(2026, 12, 14, 7, 0)).await;
    let d = digests(&app, &owner).await;
    assert_eq!(d.len(), 1);
    assert_eq!(d[0]["subject"], "Firm: 1 Wiedervorlage");
    assert_eq!(d[0]["recipient"], "owner@firm.example");
    // Later that day: still one (one a day).
    let owner = step(at(2026, 12, 14, 15, 0)).await;
    assert_eq!(digests(&app, &owner).await.len(), 1);
    // The next morning it is overdue.
    let owner = step(at(2026, 12, 15, 7, 30)).await;
    let d = digests(&app, &owner).await;
    assert_eq!(d.len(), 2);
    assert_eq!(d[0]["subject"], "Firm: 1 Wiedervorlage, 1 überfällig");
    // Weekly: on a Wednesday nothing, on the Monday one.
    let r = app
        .call(&owner, "set_digest", &[("digest", "weekly")])
        .await;
    assert!(accepted(&r));
    let owner = step(at(2026, 12, 16, 8, 0)).await;
    assert_eq!(digests(&app, &owner).await.len(), 2);
    let owner = step(at(2026, 12, 21, 8, 0)).await;
    assert_eq!(digests(&app, &owner).await.len(), 3);
    // Off: none.
    let r = app.call(&owner, "set_digest", &[("digest", "off")]).await;
    assert!(accepted(&r));
    let owner = step(at(2026, 12, 28, 8, 0)).await;
    assert_eq!(digests(&app, &owner).await.len(), 3);
}
