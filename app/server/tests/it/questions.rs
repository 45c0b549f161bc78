//! The questions to vendors over HTTP, with a real SMTP listener: sending
//! (once, even when sent twice at the same moment), the mail, the vendor's
//! answer page as mail scanners and people use it, review, asking again,
//! the decision; the answer links' security (shared/SECURITY.md V1–V5);
//! answers entered by hand; who may do what.

use crate::helpers::*;
use crate::inventory::{create_service, create_vendor};
use crate::smtp::{Received, Sink};
use aivet_services::{Limits, RateLimiter};
use chrono::Duration;
use mailparse::MailHeaderMap;
use reqwest::{Client, Response};
use serde_json::Value;

crate::on_both!(
    questions_go_out_come_back_answered_and_are_asked_again,
    answer_links_are_scoped_expire_and_can_be_withdrawn,
    answers_entered_by_hand_and_who_may_do_what,
    the_question_set_is_the_organisations_own_and_versioned,
    one_mail_asks_a_vendor_about_several_services,
    documents_up_to_ten_mb_are_attached_and_larger_ones_named,
);

pub(crate) async fn json(r: Response) -> Value {
    let status = r.status();
    let text = r.text().await.unwrap();
    serde_json::from_str(&text).unwrap_or_else(|_| panic!("{status}: {text}"))
}

fn text_part(r: &Received) -> String {
    let m = mailparse::parse_mail(&r.data).unwrap();
    m.subparts
        .iter()
        .find(|p| p.ctype.mimetype == "text/plain")
        .map(|p| p.get_body().unwrap())
        .unwrap_or_default()
}

fn header(r: &Received, name: &str) -> String {
    mailparse::parse_mail(&r.data)
        .unwrap()
        .headers
        .get_first_value(name)
        .unwrap_or_default()
}

pub(crate) fn token_in(text: &str) -> String {
    let pos = text.find("/answer/").expect("an answer link in the mail");
    text[pos + 8..pos + 8 + 43].to_owned()
}

/// An organisation with a service whose vendor has one contact. Returns
/// (service id, contact id).
pub(crate) async fn service_with_contact(
    app: &TestApp,
    c: &Client,
    contact_lang: &str,
) -> (String, String) {
    let vendor = create_vendor(app, c, "ChatCo AI", "application").await;
    let r = app
        .call(
            c,
            "add_contact",
            &[
                ("vendor_id", vendor.as_str()),
                ("contact[name]", "Dana Security"),
                ("contact[email]", "security@chatco.example"),
                ("contact[lang]", contact_lang),
                ("contact[role]", "security"),
                ("contact[primary]", "true"),
            ],
        )
        .await;
    assert!(accepted(&r), "{}", r.status());
    let detail = json(
        app.call(c, "vendor_detail", &[("vendor_id", vendor.as_str())])
            .await,
    )
    .await;
    let contact = detail["contacts"][0]["id"].as_str().unwrap().to_owned();
    let service = create_service(
        app,
        c,
        &[
            ("form[name]", "Meeting notes"),
            ("form[vendor_id]", vendor.as_str()),
        ],
    )
    .await;
    (service, contact)
}

pub(crate) async fn ask_key(app: &TestApp, c: &Client, service: &str) -> String {
    let d = json(app.call(c, "ask_data", &[("service_id", service)]).await).await;
    d["send_key"].as_str().unwrap().to_owned()
}

pub(crate) fn send_form<'a>(
    service: &'a str,
    key: &'a str,
    contact: &'a str,
) -> Vec<(&'a str, &'a str)> {
    vec![
        ("service_id", service),
        ("form[send_key]", key),
        ("form[contacts][0]", contact),
        ("form[deadline]", "2026-12-14"),
    ]
}

pub(crate) async fn overview(app: &TestApp, c: &Client, service: &str) -> Value {
    json(
        app.call(c, "questions_overview", &[("service_id", service)])
            .await,
    )
    .await
}

/// Withdraws the newest request about a service (its link stops working).
pub(crate) async fn withdraw_newest(app: &TestApp, c: &Client, service: &str) {
    let request = overview(app, c, service).await["requests"][0]["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let r = app
        .call(c, "revoke_request", &[("request_id", request.as_str())])
        .await;
    assert!(accepted(&r), "{}", r.status());
}

pub(crate) async fn request(app: &TestApp, c: &Client, id: &str) -> Value {
    json(app.call(c, "request_detail", &[("request_id", id)]).await).await
}

/// The vendor's browser: no cookies, no Origin on GET.
fn vendor_browser() -> Client {
    Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .timeout(std::time::Duration::from_secs(60))
        .build()
        .unwrap()
}

pub(crate) async fn post_answers(
    app: &TestApp,
    token: &str,
    fields: &[(&str, &str)],
) -> (u16, String) {
    let r = vendor_browser()
        .post(app.url(&format!("/answer/{token}")))
        .header("origin", &app.base)
        .form(fields)
        .send()
        .await
        .unwrap();
    (r.status().as_u16(), r.text().await.unwrap())
}

/// A multipart form with text fields and one file in `attachment`.
pub(crate) fn file_form(fields: &[(&str, &str)], file: (&str, &[u8])) -> reqwest::multipart::Form {
    let mut form = reqwest::multipart::Form::new();
    for (k, v) in fields {
        form = form.text(k.to_string(), v.to_string());
    }
    form.part(
        "attachment",
        reqwest::multipart::Part::bytes(file.1.to_vec()).file_name(file.0.to_owned()),
    )
}

/// Posts the answer form as a browser does when it carries a file.
async fn post_with_file(
    app: &TestApp,
    token: &str,
    fields: &[(&str, &str)],
    file: (&str, &[u8]),
) -> (u16, String) {
    let form = file_form(fields, file);
    let r = vendor_browser()
        .post(app.url(&format!("/answer/{token}")))
        .header("origin", &app.base)
        .multipart(form)
        .send()
        .await
        .unwrap();
    (r.status().as_u16(), r.text().await.unwrap())
}

/// A member uploads a file to a request; returns the redirect target.
pub async fn upload(
    app: &TestApp,
    c: &Client,
    request: &str,
    file: (&str, &[u8]),
) -> (u16, String) {
    let form = file_form(&[], file);
    let r = c
        .post(app.url(&format!("/requests/{request}/attachments")))
        .multipart(form)
        .send()
        .await
        .unwrap();
    let status = r.status().as_u16();
    let location = r
        .headers()
        .get("location")
        .map(|l| l.to_str().unwrap().to_owned())
        .unwrap_or_default();
    (status, location)
}

async fn questions_go_out_come_back_answered_and_are_asked_again(b: Db) {
    let mut sink = Sink::start().await;
    let Some(app) = TestApp::spawn_with(
        b,
        Options {
            smtp_url: Some(sink.url()),
            ..Options::default()
        },
    )
    .await
    else {
        return;
    };
    let owner = app.sign_up("kari@example.no", "Bærum Regnskap").await;
    let (service, contact) = service_with_contact(&app, &owner, "de").await;
    assert_eq!(
        overview(&app, &owner, &service).await["assessment"],
        "not_asked"
    );

    // The preview shows the mail in the contact's language and sends nothing.
    let key = ask_key(&app, &owner, &service).await;
    let mut form = send_form(&service, &key, &contact);
    form.push(("form[optional][0]", "overlong"));
    let preview = json(app.call(&owner, "preview_questions", &form).await).await;
    assert_eq!(preview.as_array().unwrap().len(), 1, "{preview}");
    assert!(preview[0]["text"]
        .as_str()
        .unwrap()
        .contains("Warum wir fragen"));
    assert!(overview(&app, &owner, &service).await["requests"]
        .as_array()
        .unwrap()
        .is_empty());

    // Sent twice at the same moment (a double click): one request, one mail (E6).
    let (r1, r2) = tokio::join!(
        app.call(&owner, "send_questions", &form),
        app.call(&owner, "send_questions", &form)
    );
    for r in [&r1, &r2] {
        assert!(accepted(r), "{}", r.status());
    }
    let got = sink.next().await;
    assert_eq!(got.to, vec!["security@chatco.example".to_owned()]);
    let o = overview(&app, &owner, &service).await;
    assert_eq!(o["requests"].as_array().unwrap().len(), 1, "{o}");
    assert_eq!(o["assessment"], "asked");
    assert_eq!(o["follow_up_on"], "2026-12-14", "follow-up date = deadline");
    let dash = json(app.call(&owner, "dashboard_data", &[]).await).await;
    assert_eq!(
        (dash["awaiting_answer"].as_i64(), dash["to_review"].as_i64()),
        (Some(1), Some(0)),
        "{dash}"
    );
    let mails = app.settings(&owner).await["mail"]["mails"].clone();
    let question_mails = mails
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["subject"].as_str().unwrap().contains("Meeting notes"))
        .count();
    assert_eq!(question_mails, 1, "one mail for the double send: {mails}");

    // The mail: the questions themselves, the deadline, the link, Reply-To us.
    let text = text_part(&got);
    assert!(header(&got, "Reply-To").contains("kari@example.no"));
    assert!(header(&got, "Subject").contains("Meeting notes"));
    for n in 1..=6 {
        assert!(text.contains(&format!("\n{n}. ")), "question {n} in {text}");
    }
    assert!(text.contains("14. Dezember 2026"), "deadline in {text}");
    assert!(
        text.contains("abgelehnt"),
        "the optional question in {text}"
    );
    let link_start = text.find(&format!("{}/answer/", app.base));
    assert!(
        link_start.is_some(),
        "link from the configured base URL: {text}"
    );
    let token = token_in(&text);
    let request_id = o["requests"][0]["id"].as_str().unwrap().to_owned();

    // V1: the token is random, 256 bits, and only its hash is stored.
    assert_eq!(token.len(), 43);
    // The whole database as bytes: the SQLite file with its WAL; on
    // PostgreSQL every row of every table as text (as the schema owner, with
    // forced row-level security lifted inside a transaction that is rolled
    // back), binary columns as hex — so look for the token as hex too.
    let everything: Vec<u8> = if b == Db::Sqlite {
        let pool = app.raw_sqlite().await;
        sqlx::query("PRAGMA wal_checkpoint(TRUNCATE)")
            .execute(&pool)
            .await
            .unwrap();
        let path = app.db.url().trim_start_matches("sqlite://").to_owned();
        let mut file = std::fs::read(&path).unwrap();
        file.extend(std::fs::read(format!("{path}-wal")).unwrap_or_default());
        file
    } else {
        use sqlx::Connection;
        let mut c = sqlx::PgConnection::connect(app.db.admin_url().unwrap())
            .await
            .unwrap();
        let mut tx = c.begin().await.unwrap();
        let tables: Vec<(String,)> =
            sqlx::query_as("SELECT tablename::text FROM pg_tables WHERE schemaname = 'public'")
                .fetch_all(&mut *tx)
                .await
                .unwrap();
        let mut all = String::new();
        for (table,) in &tables {
            sqlx::query(&format!("ALTER TABLE {table} NO FORCE ROW LEVEL SECURITY"))
                .execute(&mut *tx)
                .await
                .unwrap();
            let (rows,): (Option<String>,) =
                sqlx::query_as(&format!("SELECT string_agg(x::text, ' ') FROM {table} x"))
                    .fetch_one(&mut *tx)
                    .await
                    .unwrap();
            all.push_str(&rows.unwrap_or_default());
        }
        tx.rollback().await.unwrap();
        assert!(
            all.contains("security@chatco.example"),
            "the dump sees the data"
        );
        all.into_bytes()
    };
    let hex: String = token.bytes().map(|b| format!("{b:02x}")).collect();
    for needle in [token.as_bytes(), hex.as_bytes()] {
        assert!(
            !everything.windows(needle.len()).any(|w| w == needle),
            "the raw token is in the database"
        );
    }

    // V2: scanners HEAD and GET the link; nothing changes.
    let scanner = vendor_browser();
    for _ in 0..3 {
        let r = scanner
            .head(app.url(&format!("/answer/{token}")))
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), 200);
        let r = scanner
            .get(app.url(&format!("/answer/{token}")))
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), 200);
        // V5: no referrer leaves the page; nothing is cached.
        assert_eq!(r.headers()["referrer-policy"], "no-referrer");
        assert_eq!(r.headers()["cache-control"], "no-store");
        let page = r.text().await.unwrap();
        assert!(page.contains("Bærum Regnskap") && page.contains("Meeting notes"));
        assert!(page.contains("lang=\"de\""), "in the request's language");
    }
    let d = request(&app, &owner, &request_id).await;
    assert_eq!(d["row"]["status"], "sent");
    assert!(d["items"]
        .as_array()
        .unwrap()
        .iter()
        .all(|i| i["answer"].is_null()));
    let events: Vec<String> = overview(&app, &owner, &service).await["events"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["kind"].as_str().unwrap().to_owned())
        .collect();
    assert!(
        !events.iter().any(|k| k == "saved" || k == "submitted"),
        "{events:?}"
    );

    // The page switches language and still changes nothing.
    let (s, page) = app
        .get_text(&vendor_browser(), &format!("/answer/{token}?lang=nb"))
        .await;
    assert_eq!(s, 200);
    assert!(page.contains("Spørsmål fra Bærum Regnskap"));

    // A draft keeps what was typed.
    let (s, page) = post_answers(
        &app,
        &token,
        &[
            ("lang", "en"),
            ("action", "draft"),
            ("answer0", "Separate KV caches per customer."),
        ],
    )
    .await;
    assert_eq!(s, 200, "{page}");
    assert!(page.contains("Draft saved"));
    let (_, page) = app
        .get_text(&vendor_browser(), &format!("/answer/{token}"))
        .await;
    assert!(page.contains("Separate KV caches per customer."));

    // A document comes along with a draft; a web page posing as one does not.
    let (s, page) = post_with_file(
        &app,
        &token,
        &[
            ("lang", "en"),
            ("action", "draft"),
            ("answer0", "Separate KV caches per customer."),
        ],
        ("Isolation whitepaper.pdf", b"%PDF-1.7 isolation"),
    )
    .await;
    assert_eq!(s, 200, "{page}");
    assert!(page.contains("The document Isolation whitepaper.pdf is attached."));
    let (s, page) = post_with_file(
        &app,
        &token,
        &[
            ("lang", "en"),
            ("action", "draft"),
            ("answer0", "Kept while the file is refused."),
        ],
        ("whitepaper.pdf", b"<html><script>alert(1)</script>"),
    )
    .await;
    assert_eq!(s, 422);
    assert!(page.contains("Please attach a PDF"));
    assert!(page.contains("Kept while the file is refused."));

    // A submission with gaps: every problem named, everything typed kept, nothing saved.
    let mut answers: Vec<(String, String)> = (0..6)
        .map(|i| (format!("answer{i}"), format!("Answer {i} <b>&amp;</b>")))
        .collect();
    answers[3].1 = String::new();
    let mut fields: Vec<(&str, &str)> = answers
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect();
    fields.extend([("lang", "en"), ("action", "submit"), ("role", "CISO")]);
    let (s, page) = post_answers(&app, &token, &fields).await;
    assert_eq!(s, 422, "{page}");
    assert!(page.contains("Nothing you typed has been lost"));
    assert!(
        page.contains("Answer 5 &lt;b&gt;&amp;amp;&lt;&#x2f;b&gt;"),
        "typed text kept, escaped: {page}"
    );
    assert!(page.contains("Please enter your name."));
    assert!(page.contains("value=\"CISO\""));
    // At the top, a link to each field that needs attention (on a phone
    // the first may be far below); name and e-mail are marked required.
    let doc = scraper::Html::parse_document(&page);
    let links: Vec<(String, String)> = doc
        .select(&scraper::Selector::parse("#portal-errors a").unwrap())
        .map(|a| {
            (
                a.value().attr("href").unwrap().to_owned(),
                a.text().collect::<String>(),
            )
        })
        .collect();
    let hrefs: Vec<&str> = links.iter().map(|(h, _)| h.as_str()).collect();
    assert_eq!(hrefs, ["#answer3", "#name", "#email"], "{links:?}");
    assert!(links[0].1.starts_with("Question 4: "), "{links:?}");
    for id in ["name", "email"] {
        let input = doc
            .select(&scraper::Selector::parse(&format!("input#{id}")).unwrap())
            .next()
            .unwrap();
        assert_eq!(input.value().attr("aria-required"), Some("true"));
    }
    assert!(page.contains("(required)"));
    assert_eq!(
        request(&app, &owner, &request_id).await["row"]["status"],
        "draft"
    );

    // The complete submission closes the page with a receipt.
    fields.extend([("name", "Dana Scully"), ("email", "dana@chatco.example")]);
    let answer3 = "We reject requests longer than the cache.";
    for f in fields.iter_mut() {
        if f.0 == "answer3" {
            f.1 = answer3;
        }
    }
    let (s, page) = post_answers(&app, &token, &fields).await;
    assert_eq!(s, 200, "{page}");
    assert!(page.contains("id=\"portal-receipt\""));
    assert!(!page.contains("<form"), "read-only after submitting");
    let (s, page) = post_answers(&app, &token, &fields).await;
    assert_eq!(s, 409);
    assert!(page.contains("closed for changes"));

    // The organisation sees the answers.
    let d = request(&app, &owner, &request_id).await;
    assert_eq!(d["row"]["status"], "submitted");
    assert_eq!(d["items"][3]["answer"], answer3);
    assert_eq!(d["responder"], "Dana Scully, CISO, dana@chatco.example");
    assert_eq!(d["answered_via"], "portal");
    // The vendor's document, as a download.
    assert_eq!(d["attachments"].as_array().unwrap().len(), 1, "{d}");
    let att = d["attachments"][0]["id"].as_str().unwrap();
    let r = owner
        .get(app.url(&format!("/attachments/{att}")))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 200);
    assert_eq!(r.headers()["content-type"], "application/pdf");
    assert!(r.headers()["content-disposition"]
        .to_str()
        .unwrap()
        .starts_with("attachment; filename=\"Isolation whitepaper.pdf\""));
    assert_eq!(r.bytes().await.unwrap().as_ref(), b"%PDF-1.7 isolation");
    // No more files once submitted.
    let (s, _) = post_with_file(
        &app,
        &token,
        &[("action", "draft")],
        ("late.pdf", b"%PDF-late"),
    )
    .await;
    assert_eq!(s, 409);
    assert_eq!(
        overview(&app, &owner, &service).await["assessment"],
        "answered"
    );

    // Nothing is reviewed or decided by default: every review control
    // and the decision start on "Choose…", and saving without a choice
    // is refused, recording nothing.
    let (_, page) = app
        .get_text(&owner, &format!("/requests/{request_id}"))
        .await;
    let reviews = starting_choices(&page, "select[name='review[review]']");
    assert_eq!(reviews.len(), 6, "{page}");
    assert!(reviews.iter().all(|v| v.is_empty()), "{reviews:?}");
    let (_, page) = app.get_text(&owner, &format!("/services/{service}")).await;
    assert_eq!(
        starting_choices(&page, "select[name='decision[decision]']"),
        [""]
    );
    let r = app
        .call(
            &owner,
            "review_answer",
            &[
                ("request_id", request_id.as_str()),
                ("position", "0"),
                ("review[review]", ""),
            ],
        )
        .await;
    assert_eq!(r.status(), 422);
    let r = app
        .call(
            &owner,
            "decide_assessment",
            &[("service_id", service.as_str()), ("decision[decision]", "")],
        )
        .await;
    assert_eq!(r.status(), 422);
    let d = request(&app, &owner, &request_id).await;
    assert_eq!(d["items"][0]["review"], Value::Null);
    assert_eq!(
        overview(&app, &owner, &service).await["assessment"],
        "answered"
    );

    // Review: one unclear, the rest satisfactory.
    for position in 0..6 {
        let verdict = if position == 1 {
            "unclear"
        } else {
            "satisfactory"
        };
        let p = position.to_string();
        let r = app
            .call(
                &owner,
                "review_answer",
                &[
                    ("request_id", request_id.as_str()),
                    ("position", p.as_str()),
                    ("review[review]", verdict),
                    ("review[note]", "Which logs exactly?"),
                ],
            )
            .await;
        assert!(accepted(&r), "{}", r.status());
    }
    let d = request(&app, &owner, &request_id).await;
    assert_eq!(d["row"]["open_items"], 1);
    assert_eq!(d["items"][1]["review"], "unclear");
    assert_eq!(d["items"][1]["reviewed_by"], "Kari");

    // Ask again: only the open question, quoting the earlier answer and
    // the note on it as the preview showed it, edited. A note that cannot
    // be sent is refused, and nothing goes out.
    let again_key = d["send_key"].as_str().unwrap().to_owned();
    let (app_, owner_) = (&app, &owner);
    let again = |note: &'static str| {
        let (id, key) = (request_id.clone(), again_key.clone());
        async move {
            app_.call(
                owner_,
                "ask_again",
                &[
                    ("request_id", id.as_str()),
                    ("send_key", key.as_str()),
                    ("deadline", "2026-12-21"),
                    ("notes[0]", note),
                ],
            )
            .await
        }
    };
    let r = again("Which logs\u{7}?").await;
    assert_eq!(r.status(), 422);
    assert_eq!(
        request(&app, &owner, &request_id).await["row"]["status"],
        "submitted"
    );
    let r = again("Which logs exactly, and for how long?").await;
    assert!(accepted(&r), "{}", r.status());
    let second = sink.next().await;
    let text = text_part(&second);
    assert!(
        text.contains("1. ") && !text.contains("\n2. "),
        "one question: {text}"
    );
    assert!(
        text.contains("Answer 1 <b>&amp;</b>"),
        "earlier answer quoted: {text}"
    );
    assert!(
        text.contains("Was uns noch fehlt: Which logs exactly, and for how long?"),
        "the note, as edited: {text}"
    );
    let new_id = r.headers()["location"]
        .to_str()
        .unwrap()
        .trim_start_matches("/requests/")
        .to_owned();
    let d2 = request(&app, &owner, &new_id).await;
    assert_eq!(d2["items"].as_array().unwrap().len(), 1);
    assert_eq!(d2["items"][0]["earlier_answer"], "Answer 1 <b>&amp;</b>");
    assert_eq!(
        d2["items"][0]["earlier_note"],
        "Which logs exactly, and for how long?"
    );
    assert_eq!(d2["row"]["again"], true);
    let o = overview(&app, &owner, &service).await;
    assert_eq!(o["assessment"], "asked");
    assert_eq!(o["follow_up_on"], "2026-12-21");

    // The decision, and the whole exchange in the timeline and the audit log.
    let r = app
        .call(
            &owner,
            "decide_assessment",
            &[
                ("service_id", service.as_str()),
                ("decision[decision]", "cleared_with_conditions"),
                (
                    "decision[note]",
                    "Only public data until question 2 is answered.",
                ),
            ],
        )
        .await;
    assert!(accepted(&r));
    let o = overview(&app, &owner, &service).await;
    assert_eq!(o["assessment"], "cleared_with_conditions");
    let kinds: Vec<&str> = o["events"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["kind"].as_str().unwrap())
        .collect();
    for k in [
        "sent",
        "delivered",
        "saved",
        "submitted",
        "reviewed",
        "asked_again",
        "decided",
    ] {
        assert!(kinds.contains(&k), "{k} in the timeline {kinds:?}");
    }
    let audit: Vec<String> = app.settings(&owner).await["audit"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["action"].as_str().unwrap().to_owned())
        .collect();
    for a in [
        "questions.sent",
        "questions.answered",
        "questions.reviewed",
        "questions.asked_again",
        "questions.decided",
    ] {
        assert!(
            audit.iter().any(|x| x == a),
            "{a} in the audit log {audit:?}"
        );
    }
    // The service page shows the panel.
    let (s, page) = app.get_text(&owner, &format!("/services/{service}")).await;
    assert_eq!(s, 200);
    assert!(page.contains("id=\"timeline\"") && page.contains("Cleared with conditions"));
    let (s, page) = app
        .get_text(&owner, &format!("/requests/{request_id}"))
        .await;
    assert_eq!(s, 200);
    assert!(page.contains(answer3));
}

async fn answer_links_are_scoped_expire_and_can_be_withdrawn(b: Db) {
    let Some(app) = TestApp::spawn_with(
        b,
        Options {
            limits: Limits {
                answer_links_per_client: RateLimiter::new(40, Duration::minutes(10)),
                ..Limits::default()
            },
            ..Options::default()
        },
    )
    .await
    else {
        return;
    };
    let a = app.sign_up("a@alpha.example", "Alpha").await;
    let b_org = app.sign_up("b@beta.example", "Beta").await;
    let (a_service, a_contact) = service_with_contact(&app, &a, "en").await;
    let (b_service, b_contact) = service_with_contact(&app, &b_org, "en").await;
    for (c, s, contact) in [
        (&a, &a_service, &a_contact),
        (&b_org, &b_service, &b_contact),
    ] {
        let key = ask_key(&app, c, s).await;
        let r = app
            .call(c, "send_questions", &send_form(s, &key, contact))
            .await;
        assert!(accepted(&r), "{}", r.status());
    }
    let tokens = tokens_in_outbox(&app, "/answer/", 2).await;
    let mut pages = Vec::new();
    for t in &tokens {
        pages.push(
            app.get_text(&vendor_browser(), &format!("/answer/{t}"))
                .await,
        );
    }
    // V3: each link shows its own organisation's request, nothing else.
    let (a_token, b_token) = if pages[0].1.contains("Questions from Alpha") {
        (tokens[0].clone(), tokens[1].clone())
    } else {
        (tokens[1].clone(), tokens[0].clone())
    };
    let (_, a_page) = app
        .get_text(&vendor_browser(), &format!("/answer/{a_token}"))
        .await;
    assert!(a_page.contains("Questions from Alpha") && !a_page.contains("Beta"));

    let dead = |path: String| {
        let app = &app;
        async move { app.get_text(&vendor_browser(), &path).await }
    };
    let random = dead(format!("/answer/{}", "x".repeat(43))).await;
    let malformed = dead("/answer/not-a-token".to_owned()).await;
    assert_eq!(random.0, 404);
    assert_eq!(random, malformed);
    assert!(random.1.contains("This link does not work"));

    // T1 for the services a send covers: B's service in A's form is refused
    // exactly like a service that does not exist, and nothing is sent.
    let a_key = ask_key(&app, &a, &a_service).await;
    let random_service = uuid::Uuid::new_v4().to_string();
    let mut answers = Vec::new();
    for other in [&b_service, &random_service] {
        let mut form = send_form(&a_service, &a_key, &a_contact);
        form.push(("form[services][0]", other.as_str()));
        let r = app.call(&a, "send_questions", &form).await;
        answers.push((r.status().as_u16(), r.text().await.unwrap()));
    }
    assert_eq!(answers[0].0, 422);
    assert_eq!(answers[0], answers[1]);
    assert_eq!(
        overview(&app, &a, &a_service).await["requests"]
            .as_array()
            .unwrap()
            .len(),
        1
    );

    // V4: withdrawn — the same page as a random token, and no answer is taken.
    let a_request = overview(&app, &a, &a_service).await["requests"][0]["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let r = app
        .call(&a, "revoke_request", &[("request_id", a_request.as_str())])
        .await;
    assert!(accepted(&r));
    assert_eq!(dead(format!("/answer/{a_token}")).await, random);
    let (s, page) = post_answers(&app, &a_token, &[("answer0", "late"), ("action", "draft")]).await;
    assert_eq!((s, page), random);
    let d = request(&app, &a, &a_request).await;
    assert!(d["items"][0]["answer"].is_null());
    assert_eq!(d["row"]["revoked"], true, "{d}");

    // B's link still works; after the deadline + 30 days it expires like any dead link.
    assert_eq!(dead(format!("/answer/{b_token}")).await.0, 200);
    app.clock.advance(Duration::days(14 + 30 + 1));
    assert_eq!(dead(format!("/answer/{b_token}")).await, random);
    // (B's session has long timed out meanwhile.)
    assert!(accepted(
        &app.sign_in(&b_org, "b@beta.example", PASSWORD).await
    ));
    let b_request = overview(&app, &b_org, &b_service).await["requests"][0].clone();
    assert_eq!(b_request["expired"], true);

    // W5: past the limit the client is turned away, with the same page.
    let mut last = 0;
    for _ in 0..45 {
        last = dead(format!("/answer/{}", "y".repeat(43))).await.0;
    }
    assert_eq!(last, 429);
}

async fn answers_entered_by_hand_and_who_may_do_what(b: Db) {
    let Some(app) = TestApp::spawn(b).await else {
        return;
    };
    let owner = app.sign_up("owner@example.com", "Acme").await;
    let viewer = app
        .invite_and_join(&owner, "viewer@example.com", "viewer")
        .await;
    let (service, contact) = service_with_contact(&app, &owner, "nb").await;

    // A viewer reads but does not send.
    let key = ask_key(&app, &viewer, &service).await;
    let r = app
        .call(
            &viewer,
            "send_questions",
            &send_form(&service, &key, &contact),
        )
        .await;
    assert_eq!(r.status(), 403);

    // Bad input: every field named, nothing sent.
    let r = app
        .call(
            &owner,
            "send_questions",
            &[
                ("service_id", service.as_str()),
                ("form[send_key]", "short"),
                ("form[deadline]", "2026-11-30"),
            ],
        )
        .await;
    assert_eq!(r.status(), 422);
    let body = r.text().await.unwrap();
    for f in ["send_key", "contacts", "deadline"] {
        assert!(body.contains(f), "{f} in {body}");
    }
    // A contact of another vendor (or organisation) is refused.
    let stranger = uuid::Uuid::new_v4().to_string();
    let r = app
        .call(
            &owner,
            "send_questions",
            &send_form(&service, &key, &stranger),
        )
        .await;
    assert_eq!(r.status(), 422);
    assert!(overview(&app, &owner, &service).await["requests"]
        .as_array()
        .unwrap()
        .is_empty());

    let r = app
        .call(
            &owner,
            "send_questions",
            &send_form(&service, &key, &contact),
        )
        .await;
    assert!(accepted(&r));
    let o = overview(&app, &owner, &service).await;
    let id = o["requests"][0]["id"].as_str().unwrap().to_owned();
    assert_eq!(o["requests"][0]["lang"], "nb");
    let d = request(&app, &owner, &id).await;
    assert!(d["items"][0]["question"]
        .as_str()
        .unwrap()
        .contains("kunde"));

    // The vendor answered by mail: a member enters it, with when and how.
    let r = app
        .call(
            &owner,
            "enter_answers",
            &[
                ("request_id", id.as_str()),
                ("answers[answers][0]", "Dedicated cache per tenant."),
                ("answers[received_on]", ""),
            ],
        )
        .await;
    assert_eq!(r.status(), 422, "the date received is required");
    let r = app
        .call(
            &owner,
            "enter_answers",
            &[
                ("request_id", id.as_str()),
                ("answers[answers][0]", "Dedicated cache per tenant."),
                ("answers[received_on]", "2026-11-29"),
                ("answers[source]", "Mail from the DPO"),
            ],
        )
        .await;
    assert!(accepted(&r), "{}", r.status());
    let d = request(&app, &owner, &id).await;
    assert_eq!(d["row"]["status"], "submitted");
    assert_eq!(d["answered_via"], "manual");
    assert_eq!(d["received"], "29 November 2026, Mail from the DPO");
    assert_eq!(d["items"][0]["answer"], "Dedicated cache per tenant.");
    assert_eq!(
        overview(&app, &owner, &service).await["assessment"],
        "answered"
    );

    // Viewers cannot review; owners reopen for changes.
    let r = app
        .call(
            &viewer,
            "review_answer",
            &[
                ("request_id", id.as_str()),
                ("position", "0"),
                ("review[review]", "satisfactory"),
            ],
        )
        .await;
    assert_eq!(r.status(), 403);
    let r = app
        .call(&owner, "reopen_request", &[("request_id", id.as_str())])
        .await;
    assert!(accepted(&r));
    let d = request(&app, &owner, &id).await;
    assert_eq!(d["row"]["status"], "draft");
    // Asking again needs an answer first.
    let r = app
        .call(
            &owner,
            "ask_again",
            &[
                ("request_id", id.as_str()),
                ("send_key", "k".repeat(30).as_str()),
                ("deadline", "2026-12-21"),
            ],
        )
        .await;
    assert_eq!(r.status(), 422);
}

async fn the_question_set_is_the_organisations_own_and_versioned(b: Db) {
    let Some(app) = TestApp::spawn(b).await else {
        return;
    };
    let owner = app.sign_up("owner@example.com", "Acme").await;
    let editor = app
        .invite_and_join(&owner, "editor@example.com", "editor")
        .await;
    let (service, contact) = service_with_contact(&app, &owner, "en").await;
    let set = json(app.call(&owner, "question_set_data", &[]).await).await;
    assert_eq!(set["version"], 0);
    assert_eq!(set["items"].as_array().unwrap().len(), 9);

    let reworded = "How exactly do you keep our prompts apart from other customers' prompts?";
    let form = [
        ("base_version", "0"),
        ("set[items][0][code]", "separation"),
        ("set[items][0][en_text]", reworded),
        ("set[items][0][en_why]", "Because of the 2026 incident."),
        ("set[items][1][code]", "training"),
        ("set[items][1][enabled]", "true"),
        ("set[new_text]", "Do you hold an ISO 27001 certificate?"),
        ("set[new_lang]", "en"),
    ];
    // Editors use the set; owners shape it.
    let r = app.call(&editor, "save_question_set", &form).await;
    assert_eq!(r.status(), 403);
    let r = app.call(&owner, "save_question_set", &form).await;
    assert!(accepted(&r), "{}", r.status());
    // A second save from the same (now old) editor page changes nothing.
    let r = app.call(&owner, "save_question_set", &form).await;
    assert_eq!(r.status(), 422);
    assert!(r.text().await.unwrap().contains("ErrSetChanged"));
    let set = json(app.call(&owner, "question_set_data", &[]).await).await;
    assert_eq!(set["version"], 1);
    assert_eq!(set["items"].as_array().unwrap().len(), 10);

    // The send form offers the switched-on and own questions, ticked.
    let ask = json(
        app.call(&editor, "ask_data", &[("service_id", service.as_str())])
            .await,
    )
    .await;
    assert_eq!(ask["core"][0][0], reworded);
    let further: Vec<(String, bool)> = ask["further"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            (
                f["code"].as_str().unwrap().to_owned(),
                f["enabled"].as_bool().unwrap(),
            )
        })
        .collect();
    assert!(further.contains(&("training".into(), true)));
    assert!(further.contains(&("own_1".into(), true)));
    assert!(further.contains(&("engines".into(), false)));
    let key = ask["send_key"].as_str().unwrap().to_owned();
    let mut form = send_form(&service, &key, &contact);
    form.extend([
        ("form[optional][0]", "training"),
        ("form[optional][1]", "own_1"),
    ]);
    let r = app.call(&editor, "send_questions", &form).await;
    assert!(accepted(&r), "{}", r.status());
    let id = overview(&app, &owner, &service).await["requests"][0]["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let sent: Vec<String> = request(&app, &owner, &id).await["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["question"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(sent.len(), 7);
    assert_eq!(sent[0], reworded);
    assert!(sent.contains(&"Do you hold an ISO 27001 certificate?".to_owned()));
    // A code the set does not have is refused.
    let key2 = ask_key(&app, &editor, &service).await;
    let mut bad = send_form(&service, &key2, &contact);
    bad.push(("form[optional][0]", "own_7"));
    assert_eq!(
        app.call(&editor, "send_questions", &bad).await.status(),
        422
    );

    // Changing the set later leaves what was sent as it was.
    let r = app
        .call(
            &owner,
            "save_question_set",
            &[
                ("base_version", "1"),
                ("set[items][0][code]", "separation"),
                ("set[items][0][en_text]", "Reworded once more?"),
            ],
        )
        .await;
    assert!(accepted(&r));
    let again = request(&app, &owner, &id).await;
    assert_eq!(again["items"][0]["question"], reworded);
    let audit = app.settings(&owner).await["audit"].to_string();
    assert!(audit.contains("questions.set_saved"));
}

async fn one_mail_asks_a_vendor_about_several_services(b: Db) {
    let Some(app) = TestApp::spawn(b).await else {
        return;
    };
    let owner = app.sign_up("owner@example.com", "Acme").await;
    let (first, contact) = service_with_contact(&app, &owner, "en").await;
    let vendor = json(
        app.call(&owner, "service_detail", &[("service_id", first.as_str())])
            .await,
    )
    .await["vendor"]["id"]
        .as_str()
        .unwrap()
        .to_owned();
    // The second service is looked after by a colleague who reads German.
    let ed = app
        .invite_and_join(&owner, "ed@example.com", "editor")
        .await;
    let r = app.call(&ed, "set_language", &[("lang", "de")]).await;
    assert!(accepted(&r), "{}", r.status());
    let ed_id = id_by_email(&app.settings(&owner).await["members"], "ed@example.com");
    let second = create_service(
        &app,
        &owner,
        &[
            ("form[name]", "Support bot"),
            ("form[vendor_id]", vendor.as_str()),
            ("form[owner_id]", ed_id.as_str()),
        ],
    )
    .await;
    let ask = json(
        app.call(&owner, "ask_vendor_data", &[("vendor_id", vendor.as_str())])
            .await,
    )
    .await;
    assert_eq!(ask["services"].as_array().unwrap().len(), 2, "{ask}");
    let key = ask["send_key"].as_str().unwrap();
    let (s, page) = app
        .get_text(&owner, &format!("/vendors/{vendor}/ask"))
        .await;
    assert_eq!(s, 200);
    assert!(page.contains("id=\"f-services\""));

    let form = [
        ("service_id", ""),
        ("form[send_key]", key),
        ("form[contacts][0]", contact.as_str()),
        ("form[services][0]", first.as_str()),
        ("form[services][1]", second.as_str()),
        ("form[deadline]", "2026-12-14"),
    ];
    let r = app.call(&owner, "send_questions", &form).await;
    assert!(accepted(&r), "{}", r.status());
    let token = tokens_in_outbox(&app, "/answer/", 1).await.remove(0);
    let (_, portal) = app
        .get_text(&Client::new(), &format!("/answer/{token}"))
        .await;
    assert!(
        portal.contains("Meeting notes and Support bot"),
        "both named: {portal}"
    );
    for s in [&first, &second] {
        let o = overview(&app, &owner, s).await;
        assert_eq!(o["requests"].as_array().unwrap().len(), 1, "{o}");
        assert_eq!(o["assessment"], "asked");
    }
    let mut fields: Vec<(String, String)> = (0..5)
        .map(|i| (format!("answer{i}"), format!("A{i}")))
        .collect();
    fields.extend([
        ("name".into(), "Dana".into()),
        ("email".into(), "dana@chatco.example".into()),
        ("action".into(), "submit".into()),
    ]);
    let f: Vec<(&str, &str)> = fields
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect();
    let (s, _) = post_answers(&app, &token, &f).await;
    assert_eq!(s, 200);
    for s in [&first, &second] {
        let o = overview(&app, &owner, s).await;
        assert_eq!(o["assessment"], "answered");
        assert!(o["events"]
            .as_array()
            .unwrap()
            .iter()
            .any(|e| e["kind"] == "submitted"));
    }

    // The business hears of it: the member who asked, in English, and the
    // second service's owner, in German, each once, with the review's link.
    let request = overview(&app, &owner, &first).await["requests"][0]["id"]
        .as_str()
        .unwrap()
        .to_owned();
    app.run_jobs().await;
    app.run_jobs().await;
    let link = format!("/requests/{request}");
    let notices = mails_with(&app, &link, 2).await;
    assert_eq!(notices.len(), 2, "one each: {notices:?}");
    assert!(notices.iter().any(|m| m.contains("Hello Owner")
        && m.contains(
            "Dana of ChatCo AI has answered the questions about Meeting notes and Support bot"
        )));
    assert!(notices.iter().any(|m| m.contains("Guten Tag")
        && m.contains(
            "Dana (ChatCo AI) hat die Fragen zu Meeting notes und Support bot beantwortet"
        )));
    let subjects: Vec<String> = app.settings(&owner).await["mail"]["mails"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["subject"].as_str().unwrap_or_default().to_owned())
        .filter(|s| s.contains("answered") || s.contains("geantwortet"))
        .collect();
    assert_eq!(subjects.len(), 2, "{subjects:?}");
}

/// A mail the server defers shows on the request as not delivered yet, with
/// the server's answer.
#[tokio::test]
async fn a_deferred_mail_shows_on_the_request() {
    let sink = crate::smtp::Sink::start().await;
    let app = TestApp::spawn_with(
        Db::Sqlite,
        Options {
            smtp_url: Some(sink.url()),
            manual_mail: true,
            ..Options::default()
        },
    )
    .await
    .unwrap();
    let owner = app.sign_up("kari@example.no", "Acme").await;
    let (service, contact) = service_with_contact(&app, &owner, "en").await;
    let key = ask_key(&app, &owner, &service).await;
    let r = app
        .call(
            &owner,
            "send_questions",
            &send_form(&service, &key, &contact),
        )
        .await;
    assert!(accepted(&r));
    sink.fail_next(crate::smtp::Fault::RcptTemporary);
    assert_eq!(app.worker.pass().await.unwrap().retrying, 1);
    let id = overview(&app, &owner, &service).await["requests"][0]["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let d = request(&app, &owner, &id).await;
    assert_eq!(d["row"]["mail_status"], "retrying");
    assert!(
        d["row"]["mail_error"].as_str().unwrap().contains("451"),
        "{d}"
    );
    let (_, page) = app.get_text(&owner, &format!("/requests/{id}")).await;
    assert!(page.contains("Not delivered yet; trying again"));
    assert!(!page.contains("{time}"), "no unfilled placeholder");
}

const MB: usize = 1024 * 1024;

/// A PDF of `bytes` bytes.
fn pdf_of(bytes: usize) -> Vec<u8> {
    let mut pdf = b"%PDF-1.7\n".to_vec();
    pdf.resize(bytes, b'0');
    pdf
}

/// The answer form as a browser sends it: the answers and the responder
/// first, then the document, then the button.
async fn post_answer_form(
    app: &TestApp,
    token: &str,
    fields: &[(String, String)],
    file: (&str, Vec<u8>),
) -> (u16, String) {
    let mut form = reqwest::multipart::Form::new();
    for (k, v) in fields {
        form = form.text(k.clone(), v.clone());
    }
    form = form
        .part(
            "attachment",
            reqwest::multipart::Part::bytes(file.1)
                .file_name(file.0.to_owned())
                .mime_str("application/pdf")
                .unwrap(),
        )
        .text("action", "draft");
    let r = vendor_browser()
        .post(app.url(&format!("/answer/{token}")))
        .header("origin", &app.base)
        .multipart(form)
        .send()
        .await
        .unwrap();
    (r.status().as_u16(), r.text().await.unwrap())
}

/// HTML as the page escapes it.
fn escaped(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
        .replace('\'', "&#x27;")
}

/// Documents up to 10 MB are attached on both paths (the vendor's answer
/// page and a member's upload), also the ones over the 2 MB that the web
/// framework would have taken by default; larger ones are refused by name,
/// in the user's language, and on the answer page every typed answer and
/// the responder's details stay in the form — also when the request is cut
/// off at the whole-upload limit.
async fn documents_up_to_ten_mb_are_attached_and_larger_ones_named(b: Db) {
    use aivet_domain::{Lang, Msg};
    let Some(app) = TestApp::spawn(b).await else {
        return;
    };
    let owner = app.sign_up("kari@example.no", "Bærum Regnskap").await;
    app.call(&owner, "set_language", &[("lang", "de")]).await;
    let (service, contact) = service_with_contact(&app, &owner, "nb").await;
    let key = ask_key(&app, &owner, &service).await;
    let r = app
        .call(
            &owner,
            "send_questions",
            &send_form(&service, &key, &contact),
        )
        .await;
    assert!(accepted(&r), "{}", r.status());
    let token = tokens_in_outbox(&app, "/answer/", 1).await.remove(0);
    let request_id = overview(&app, &owner, &service).await["requests"][0]["id"]
        .as_str()
        .unwrap()
        .to_owned();

    let typed = |round: &str| -> Vec<(String, String)> {
        let mut f = vec![("lang".to_owned(), "nb".to_owned())];
        for i in 0..5 {
            f.push((
                format!("answer{i}"),
                format!("Svar {i} ({round}): <ja> & \"nei\""),
            ));
        }
        f.push(("name".into(), format!("Dana Ørnes {round}")));
        f.push(("role".into(), "CISO".into()));
        f.push(("email".into(), "dana@chatco.example".into()));
        f
    };
    let limit_nb =
        aivet_domain::attachments::size_text(aivet_domain::attachments::MAX_BYTES, Lang::Nb);
    // The answer page: accepted up to 10 MB.
    for (i, size) in [MB * 3 / 2, MB * 5 / 2, MB * 19 / 2, 10 * MB]
        .into_iter()
        .enumerate()
    {
        let name = format!("Svar {i}.pdf");
        let (status, page) =
            post_answer_form(&app, &token, &typed("ok"), (&name, pdf_of(size))).await;
        assert_eq!(status, 200, "{size} bytes: {page}");
        assert!(
            page.contains(&escaped(&aivet_domain::msg!(
                Lang::Nb,
                Msg::PortalAttached,
                name = &name
            ))),
            "{size} bytes: {page}"
        );
        assert!(page.contains(&escaped(&format!("{name} ({} KB)", size.div_ceil(1024)))));
    }
    // Over it: refused by name, with everything typed still there, and
    // nothing saved. 10.5 MB is read whole and the document read past; 12
    // MB is cut off at the whole-upload limit, after the answers.
    for (size, name) in [
        (MB * 21 / 2, "For stor rapport.pdf"),
        (12 * MB, "Enda større.pdf"),
        (40 * MB, "Altfor stor.pdf"),
    ] {
        let round = format!("{size}");
        let fields = typed(&round);
        let (status, page) = post_answer_form(&app, &token, &fields, (name, pdf_of(size))).await;
        assert_eq!(status, 413, "{size} bytes");
        let message = aivet_domain::msg!(
            Lang::Nb,
            Msg::ErrFileTooLargeNamed,
            name = name,
            limit = &limit_nb
        );
        assert!(page.contains(&escaped(&message)), "{size} bytes: {page}");
        assert!(
            page.contains("id=\"attachment-error\""),
            "at the file's field"
        );
        for (k, v) in &fields[1..] {
            assert!(page.contains(&escaped(v)), "{size} bytes: {k} kept: {page}");
        }
        let (_, now) = app
            .get_text(&vendor_browser(), &format!("/answer/{token}"))
            .await;
        assert!(!now.contains(&round), "nothing of a refused form is saved");
        assert!(!now.contains(&escaped(name)));
    }

    // A member's upload: the same limits, the message on the request page.
    let mut names = Vec::new();
    for (i, size) in [MB * 3 / 2, MB * 5 / 2, MB * 19 / 2]
        .into_iter()
        .enumerate()
    {
        let name = format!("Original {i}.pdf");
        let (status, location) = upload(&app, &owner, &request_id, (&name, &pdf_of(size))).await;
        assert_eq!(
            (status, location.as_str()),
            (303, format!("/requests/{request_id}#attachments").as_str()),
            "{size} bytes"
        );
        names.push(name);
    }
    let files = request(&app, &owner, &request_id).await["attachments"].clone();
    for name in &names {
        assert!(
            files.to_string().contains(name.as_str()),
            "{name} in {files}"
        );
    }
    let limit_de =
        aivet_domain::attachments::size_text(aivet_domain::attachments::MAX_BYTES, Lang::De);
    for (size, name) in [
        (MB * 21 / 2, "Zu groß & mehr.pdf"),
        (12 * MB, "Noch größer.pdf"),
    ] {
        let (status, location) = upload(&app, &owner, &request_id, (name, &pdf_of(size))).await;
        assert_eq!(status, 303, "{size} bytes");
        assert!(
            location.contains("upload_error=ErrFileTooLargeNamed"),
            "{location}"
        );
        let (status, page) = app.get_text(&owner, &location).await;
        assert_eq!(status, 200);
        let message = aivet_domain::msg!(
            Lang::De,
            Msg::ErrFileTooLargeNamed,
            name = name,
            limit = &limit_de
        );
        assert!(page.contains(&escaped(&message)), "{size} bytes: {page}");
    }
    assert_eq!(
        request(&app, &owner, &request_id).await["attachments"]
            .as_array()
            .unwrap()
            .len(),
        7,
        "four from the vendor, three from the member"
    );
    // The name in the address counts only with our signature.
    let forged = format!(
        "/requests/{request_id}?upload_error=ErrFileTooLargeNamed&upload_file=Ring+0800+now&upload_sig=AAAA"
    );
    let (_, page) = app.get_text(&owner, &forged).await;
    assert!(!page.contains("Ring 0800"));
    assert!(page.contains(&escaped(Msg::ErrFileTooLarge.text(Lang::De))));
}

/// The value each matching select starts on, as a browser shows it: the
/// selected option, or the first.
fn starting_choices(page: &str, css: &str) -> Vec<String> {
    let doc = scraper::Html::parse_document(page);
    let select = scraper::Selector::parse(css).unwrap();
    let option = scraper::Selector::parse("option").unwrap();
    doc.select(&select)
        .map(|s| {
            let options: Vec<_> = s.select(&option).collect();
            options
                .iter()
                .find(|o| o.value().attr("selected").is_some())
                .or(options.first())
                .and_then(|o| o.value().attr("value"))
                .unwrap_or_default()
                .to_owned()
        })
        .collect()
}
