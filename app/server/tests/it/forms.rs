//! Forms as people send them (SECURITY W9, issues 13.7, 13.8, 13.10 and
//! 14.6): a refused form posted without the browser bundle comes back as
//! its page with the messages at the fields and everything typed (never a
//! password); text that is not UTF-8 is refused, never changed; a field
//! that is missing or of the wrong kind is named, for every server
//! function; a page opened signed out leads to the sign-in page and back,
//! and nowhere else.

use crate::helpers::*;
use crate::inventory::{create_service, create_vendor};
use crate::pages::*;
use crate::questions::{ask_key, send_form, service_with_contact};
use aivet_services::{Limits, RateLimiter};
use reqwest::Client;
use scraper::Html;
use serde_json::{json, Value};

crate::on_both!(
    a_refused_form_without_the_bundle_comes_back_as_typed,
    text_that_is_not_utf8_is_refused_and_named,
    malformed_calls_name_what_to_fix_for_every_server_function,
    signed_out_pages_lead_to_sign_in_and_back,
    the_follow_up_forms_come_back_as_typed,
);

async fn json_of(r: reqwest::Response) -> Value {
    let status = r.status();
    let text = r.text().await.unwrap();
    serde_json::from_str(&text).unwrap_or_else(|_| panic!("{status}: {text}"))
}

async fn data_class_ids(app: &TestApp, c: &Client) -> Vec<String> {
    json_of(app.call(c, "data_classes_data", &[]).await)
        .await
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["id"].as_str().unwrap().to_owned())
        .collect()
}

fn messages(doc: &Html, css: &str) -> String {
    text_of(one(doc, css))
}

async fn a_refused_form_without_the_bundle_comes_back_as_typed(b: Db) {
    let Some(app) = TestApp::spawn(b).await else {
        return;
    };
    let c = app.sign_up("owner@alpha.example", "Alpha").await;
    let vendor = create_vendor(&app, &c, "ChatCo", "application").await;
    let classes = data_class_ids(&app, &c).await;

    // The service form: nested names, selects, data-class boxes.
    let purpose = "Drafts answers <b>for</b> \"support\"\nsecond line";
    let r = plain_post(
        &app,
        &c,
        "/api/save_service",
        "/services/new",
        &[
            ("service_id", ""),
            ("form[name]", "Bærum <Chat> & Co"),
            ("form[purpose]", purpose),
            ("form[vendor_id]", &vendor),
            ("form[status]", "trial"),
            ("form[data_classes][1]", &classes[1]),
            ("form[data_classes][3]", &classes[3]),
            ("form[deployment]", "shared"),
            ("form[model]", "gpt-x 2026-10"),
            ("form[engine]", "SGLang 0.5.22"),
            ("form[dpa_signed_on]", "2026-01-15"),
            ("form[dpa_url]", "dpa.example/contract"),
            ("form[notice_hours]", "soon"),
            ("form[notice_channel]", "mail to security@"),
            ("form[authority_notifier]", "vendor"),
        ],
    )
    .await;
    assert_eq!(r.status(), 422);
    assert!(r.headers().get("location").is_none(), "no redirect");
    for (name, value) in r.headers() {
        let v = value.to_str().unwrap_or("");
        assert!(!v.contains("Chat") && !v.contains("soon"), "{name}: {v}");
    }
    let doc = html(r).await;
    assert!(
        messages(&doc, "#service-form #post-error").contains("Please correct the marked fields."),
        "the message is on top of the form that was posted"
    );
    assert_eq!(shown(&doc, "#f-name"), "Bærum <Chat> & Co");
    assert_eq!(shown(&doc, "#f-purpose"), purpose);
    assert_eq!(shown(&doc, "#f-vendor_id"), vendor);
    assert_eq!(shown(&doc, "#f-status"), "trial");
    assert_eq!(shown(&doc, "#f-deployment"), "shared");
    assert_eq!(shown(&doc, "#f-authority_notifier"), "vendor");
    assert_eq!(shown(&doc, "#f-model"), "gpt-x 2026-10");
    assert_eq!(shown(&doc, "#f-engine"), "SGLang 0.5.22");
    assert_eq!(shown(&doc, "#f-dpa_signed_on"), "2026-01-15");
    assert_eq!(shown(&doc, "#f-notice_channel"), "mail to security@");
    for (i, class) in classes.iter().enumerate() {
        let boxed = one(&doc, &format!("input[name='form[data_classes][{i}]']"));
        assert_eq!(boxed.value().attr("value"), Some(class.as_str()));
        assert_eq!(
            boxed.value().attr("checked").is_some(),
            i == 1 || i == 3,
            "box {i} as it was ticked"
        );
    }
    // The refused fields, marked as the bundle marks them.
    assert_eq!(shown(&doc, "#f-dpa_url"), "dpa.example/contract");
    assert_eq!(
        one(&doc, "#f-dpa_url").value().attr("aria-invalid"),
        Some("true")
    );
    assert_eq!(
        messages(&doc, "#f-dpa_url-error"),
        "Please enter a full web address starting with https://."
    );
    assert!(one(&doc, "[data-field='dpa_url']")
        .value()
        .classes()
        .any(|c| c == "invalid"));
    assert_eq!(shown(&doc, "#f-notice_hours"), "soon");
    assert_eq!(
        one(&doc, "#f-notice_hours")
            .value()
            .attr("aria-describedby"),
        Some("f-notice_hours-error")
    );
    assert_eq!(
        messages(&doc, "#f-notice_hours-error"),
        "Please enter a whole number of hours between 1 and 8760."
    );
    assert!(
        doc.select(&sel("[aria-invalid='true']")).count() == 2,
        "only the refused fields are marked"
    );
    let list = json_of(app.call(&c, "service_list", &[]).await).await;
    assert_eq!(list["total"], 0, "nothing was saved");

    // The vendor form.
    let r = plain_post(
        &app,
        &c,
        "/api/save_vendor",
        "/vendors/new",
        &[
            ("vendor_id", ""),
            ("form[name]", "  "),
            ("form[role]", "integrator"),
            ("form[website]", "https://acme.example"),
            ("form[trust_url]", "ftp://acme.example/trust"),
            ("form[notes]", "Met them at the fair.\nCall back in May."),
        ],
    )
    .await;
    assert_eq!(r.status(), 422);
    let doc = html(r).await;
    assert_eq!(messages(&doc, "#f-name-error"), "Please enter a name.");
    assert_eq!(shown(&doc, "#f-role"), "integrator");
    assert_eq!(shown(&doc, "#f-website"), "https://acme.example");
    assert_eq!(shown(&doc, "#f-trust_url"), "ftp://acme.example/trust");
    assert!(doc.select(&sel("#f-trust_url-error")).next().is_some());
    assert_eq!(
        shown(&doc, "#f-notes"),
        "Met them at the fair.\nCall back in May."
    );

    // A form repeated per record: only the finding that was posted shows
    // what was typed and its message; the other two show what is saved.
    let service = create_service(
        &app,
        &c,
        &[("form[name]", "Chat"), ("form[vendor_id]", &vendor)],
    )
    .await;
    let page = format!("/services/{service}");
    let r = plain_post(
        &app,
        &c,
        "/api/save_finding",
        &format!("{page}#finding-retention"),
        &[
            ("service_id", &service),
            ("finding[topic]", "retention"),
            ("finding[status]", "stated"),
            ("finding[summary]", "Prompts are kept 30 days."),
            ("finding[source_url]", "trust page"),
            ("finding[checked_on]", "2026-11-02"),
        ],
    )
    .await;
    assert_eq!(r.status(), 422);
    let doc = html(r).await;
    assert_eq!(
        shown(&doc, "#f-retention-summary"),
        "Prompts are kept 30 days."
    );
    assert_eq!(shown(&doc, "#f-retention-status"), "stated");
    assert_eq!(shown(&doc, "#f-retention-source_url"), "trust page");
    assert_eq!(shown(&doc, "#f-retention-checked_on"), "2026-11-02");
    assert!(doc
        .select(&sel("#f-retention-source_url-error"))
        .next()
        .is_some());
    for other in ["separation", "notification"] {
        assert_eq!(shown(&doc, &format!("#f-{other}-summary")), "", "{other}");
        assert_eq!(shown(&doc, &format!("#f-{other}-status")), "unknown");
        assert!(
            doc.select(&sel(&format!("#f-{other}-source_url-error")))
                .next()
                .is_none(),
            "{other}"
        );
    }
    assert_eq!(doc.select(&sel("#post-error")).count(), 1);
    assert!(one(&doc, "#finding-retention #post-error")
        .text()
        .any(|t| t.contains("marked fields")));

    // Sign-up: everything comes back but the password.
    let anon = app.client();
    let r = plain_post(
        &app,
        &anon,
        "/api/sign_up",
        "/signup",
        &[
            ("name", "Kari Nordmann"),
            ("email", "kari@example.no"),
            ("password", "short-pw"),
            ("org_name", "Fjord Regnskap AS"),
        ],
    )
    .await;
    assert_eq!(r.status(), 422);
    let body = r.text().await.unwrap();
    assert!(
        !body.contains("short-pw"),
        "a password is never shown again"
    );
    let doc = Html::parse_document(&body);
    assert_eq!(shown(&doc, "#f-name"), "Kari Nordmann");
    assert_eq!(shown(&doc, "#f-email"), "kari@example.no");
    assert_eq!(shown(&doc, "#f-org_name"), "Fjord Regnskap AS");
    assert_eq!(shown(&doc, "#f-password"), "");
    assert_eq!(
        messages(&doc, "#f-password-error"),
        "The password needs at least 10 characters."
    );
    let signed_in = app
        .call(
            &app.client(),
            "sign_in",
            &[("email", "kari@example.no"), ("password", "short-pw")],
        )
        .await;
    assert!(!accepted(&signed_in), "nothing was created");

    // A refusal that is not about a field, in the user's language.
    let de = app.client();
    let r = de
        .post(app.url("/api/sign_in"))
        .header("accept", "text/html")
        .header("accept-language", "de")
        .header("referer", app.url("/login"))
        .form(&[
            ("email", "owner@alpha.example"),
            ("password", "wrong password"),
        ])
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 401);
    let doc = html(r).await;
    assert_eq!(
        messages(&doc, "#sign-in-form #post-error").trim(),
        "E-Mail-Adresse oder Passwort ist nicht korrekt."
    );
    assert_eq!(shown(&doc, "#f-email"), "owner@alpha.example");
    assert_eq!(shown(&doc, "#f-password"), "");

    // The page no longer has the form that was posted: the message is on
    // top of the page.
    let r = plain_post(
        &app,
        &c,
        "/api/save_finding",
        "/vendors",
        &[
            ("service_id", &service),
            ("finding[topic]", "retention"),
            ("finding[source_url]", "trust page"),
        ],
    )
    .await;
    assert_eq!(r.status(), 422);
    let doc = html(r).await;
    let top = messages(&doc, "main #post-error");
    assert!(
        top.contains("Please correct the following.")
            && top.contains("source_url")
            && top.contains("https://"),
        "{top}"
    );

    // The address carries nothing: an error written into it shows nothing.
    let (_, page) = app
        .get_text(&anon, "/signup?__err=eyJtc2ciOiJFcnJHZW5lcmljIn0=")
        .await;
    assert!(!page.contains("post-error"), "{page}");

    // With the bundle (fetch, JSON) the answer is as before.
    let r = app
        .call(
            &c,
            "save_vendor",
            &[("form[name]", ""), ("form[trust_url]", "ftp://x.example")],
        )
        .await;
    assert_eq!(r.status(), 422);
    let v = json_of(r).await;
    assert_eq!(v["msg"], "ErrFormInvalid");
    assert_eq!(v["field_texts"][0][0], "name");
}

/// The forms of the follow-ups board and of the follow-up policy, posted
/// without the bundle: each comes back with what was typed and the message
/// at its field; on the board only the row that was posted, its "move"
/// disclosure open so that both are in sight.
async fn the_follow_up_forms_come_back_as_typed(b: Db) {
    let Some(app) = TestApp::spawn(b).await else {
        return;
    };
    let c = app.sign_up("owner@alpha.example", "Alpha").await;
    let first = service_with_contact(&app, &c, "en").await;
    let second = crate::follow_ups::second_service(&app, &c, "Translator").await;
    for (service, contact) in [first, second] {
        let key = ask_key(&app, &c, &service).await;
        let r = app
            .call(&c, "send_questions", &send_form(&service, &key, &contact))
            .await;
        assert!(accepted(&r), "{}", r.status());
    }
    let board = json_of(app.call(&c, "follow_ups_data", &[]).await).await;
    let ids: Vec<String> = board["sections"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|s| s[1].as_array().unwrap().clone())
        .map(|f| f["id"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(ids.len(), 2, "{board}");
    let (posted, other) = (&ids[1], &ids[0]);

    // Moved to a day in the past, with a note.
    let note = "Their lawyer <reads> it & \"answers\" next week";
    let r = plain_post(
        &app,
        &c,
        "/api/move_follow_up",
        "/follow-ups",
        &[
            ("follow_up_id", posted),
            ("form[due_on]", "2026-11-02"),
            ("form[note]", note),
        ],
    )
    .await;
    assert_eq!(r.status(), 422);
    let doc = html(r).await;
    let row = |id: &str| format!("tr[data-follow-up='{id}']");
    assert_eq!(shown(&doc, &format!("#f-{posted}-due_on")), "2026-11-02");
    assert_eq!(shown(&doc, &format!("#f-{posted}-note")), note);
    assert_eq!(
        one(&doc, &format!("#f-{posted}-due_on"))
            .value()
            .attr("aria-invalid"),
        Some("true")
    );
    assert_eq!(
        messages(&doc, &format!("#f-{posted}-due_on-error")),
        "Please choose today or a later day."
    );
    assert!(one(&doc, &format!("{} details.snooze", row(posted)))
        .value()
        .attr("open")
        .is_some());
    // The other row shows what is saved, closed and unmarked.
    assert_eq!(shown(&doc, &format!("#f-{other}-note")), "");
    assert!(doc
        .select(&sel(&format!("#f-{other}-due_on-error")))
        .next()
        .is_none());
    assert!(one(&doc, &format!("{} details.snooze", row(other)))
        .value()
        .attr("open")
        .is_none());
    assert_eq!(doc.select(&sel("[aria-invalid='true']")).count(), 1);
    let after = json_of(app.call(&c, "follow_ups_data", &[]).await).await;
    assert_eq!(after["sections"], board["sections"], "nothing was moved");

    // The follow-up policy in Settings.
    let r = plain_post(
        &app,
        &c,
        "/api/save_follow_up_policy",
        "/settings",
        &[
            ("form[reminders]", "on"),
            ("form[max_reminders]", "2"),
            ("form[review_days]", "400"),
            ("form[reassess_months]", "ten"),
            ("form[expiry_notice_days]", "14"),
        ],
    )
    .await;
    assert_eq!(r.status(), 422);
    let doc = html(r).await;
    assert_eq!(shown(&doc, "#f-max_reminders"), "2");
    assert_eq!(shown(&doc, "#f-review_days"), "400");
    assert_eq!(shown(&doc, "#f-reassess_months"), "ten");
    assert_eq!(
        messages(&doc, "#f-review_days-error"),
        "Choose between 1 and 90 days."
    );
    assert!(doc
        .select(&sel("#f-reassess_months-error"))
        .next()
        .is_some());
    assert!(doc.select(&sel("#f-max_reminders-error")).next().is_none());
    assert!(
        messages(&doc, "#follow-up-policy-form #post-error").contains("marked fields"),
        "the message is on top of the form that was posted"
    );

    // The digest choice on the board: a value it does not offer.
    let r = plain_post(
        &app,
        &c,
        "/api/set_digest",
        "/follow-ups",
        &[("digest", "hourly")],
    )
    .await;
    assert_eq!(r.status(), 422);
    let doc = html(r).await;
    assert_eq!(
        messages(&doc, "#f-digest-error"),
        "Please choose one of the options."
    );
    assert_eq!(
        one(&doc, "#f-digest").value().attr("aria-invalid"),
        Some("true")
    );
}

/// A vendor's answer page of a fresh request: (its address, the vendor's
/// browser).
async fn answer_page(app: &TestApp, c: &Client) -> String {
    let vendor = create_vendor(app, c, "ChatCo AI", "application").await;
    let r = app
        .call(
            c,
            "add_contact",
            &[
                ("vendor_id", vendor.as_str()),
                ("contact[name]", "Dana"),
                ("contact[email]", "dana@chatco.example"),
                ("contact[lang]", "en"),
                ("contact[role]", "security"),
                ("contact[primary]", "true"),
            ],
        )
        .await;
    assert!(accepted(&r));
    let service = create_service(
        app,
        c,
        &[("form[name]", "Notes"), ("form[vendor_id]", &vendor)],
    )
    .await;
    let ask = json_of(app.call(c, "ask_data", &[("service_id", &service)]).await).await;
    let contact = ask["recipients"][0]["id"].as_str().unwrap().to_owned();
    let r = app
        .call(
            c,
            "send_questions",
            &[
                ("service_id", service.as_str()),
                ("form[send_key]", ask["send_key"].as_str().unwrap()),
                ("form[contacts][0]", contact.as_str()),
                ("form[deadline]", "2026-12-14"),
            ],
        )
        .await;
    assert!(accepted(&r), "{}", r.status());
    let token = tokens_in_outbox(app, "/answer/", 1).await.remove(0);
    format!("/answer/{token}")
}

async fn text_that_is_not_utf8_is_refused_and_named(b: Db) {
    let Some(app) = TestApp::spawn(b).await else {
        return;
    };
    let c = app.sign_up("owner@alpha.example", "Alpha").await;
    let orgs = || async { app.settings(&c).await["org"]["name"].clone() };
    let before = orgs().await;
    // Percent-encoded bytes that are no UTF-8, and raw ones.
    for body in [
        b"org_name=Acme%FF%FE+AS".to_vec(),
        b"org_name=Acme\xff AS".to_vec(),
    ] {
        // The bundle's fetch post.
        let r = c
            .post(app.url("/api/create_org"))
            .header("content-type", "application/x-www-form-urlencoded")
            .body(body.clone())
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), 422);
        let v = json_of(r).await;
        assert_eq!(v["msg"], "ErrFormNotText");
        assert_eq!(v["fields"], json!([["org_name", "ErrNotText"]]));
        assert!(
            v["text"].as_str().unwrap().contains("“org_name”"),
            "{}",
            v["text"]
        );
        // The browser's own post: the page again, the field marked.
        let r = plain_post_raw(&app, &c, "/api/create_org", "/settings", body).await;
        assert_eq!(r.status(), 422);
        let doc = html(r).await;
        assert_eq!(
            messages(&doc, "#new-org-form #f-org_name-error"),
            "This is not valid text (UTF-8). Please type it in again."
        );
        assert!(messages(&doc, "#new-org-form #post-error").contains("not valid text"));
        // A new organisation would have become the current one.
        assert_eq!(orgs().await, before, "no organisation was created");
    }

    // A search with a NUL (PostgreSQL takes none) is refused with a
    // message on both databases, never a 500.
    create_vendor(&app, &c, "ChatCo", "application").await;
    for page in [
        "/vendors?q=Chat%00Co",
        "/services?q=%00",
        "/organisations?q=%00",
    ] {
        let (status, body) = app.get_text(&c, page).await;
        assert!(status < 500, "{page}: {status}");
        assert!(body.contains("invisible control characters"), "{page}");
    }

    // In German, for a German user.
    assert!(accepted(
        &app.call(&c, "set_language", &[("lang", "de")]).await
    ));
    let r = c
        .post(app.url("/api/save_vendor"))
        .header("content-type", "application/x-www-form-urlencoded")
        .body(b"form%5Bname%5D=%C3%28".to_vec())
        .send()
        .await
        .unwrap();
    let v = json_of(r).await;
    assert_eq!(v["fields"], json!([["form[name]", "ErrNotText"]]));
    assert_eq!(
        v["text"],
        "Was in „form[name]“ gesendet wurde, ist kein gültiger Text (UTF-8); daher wurde nichts gespeichert. Bitte geben Sie es erneut ein."
    );
    assert!(accepted(
        &app.call(&c, "set_language", &[("lang", "en")]).await
    ));

    // The vendor's answer page, as a form and as multipart: refused, the
    // field named, everything else typed kept, nothing saved.
    let page = answer_page(&app, &c).await;
    let vendor = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap();
    let r = vendor
        .post(app.url(&page))
        .header("origin", &app.base)
        .header("content-type", "application/x-www-form-urlencoded")
        .body(b"action=draft&answer0=Separate+GPUs&answer1=%FFcache&name=Dana".to_vec())
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 422);
    let doc = html(r).await;
    assert_eq!(
        messages(&doc, "#answer1-error"),
        "This is not valid text (UTF-8). Please type it in again."
    );
    assert_eq!(shown(&doc, "#answer0"), "Separate GPUs");
    assert_eq!(shown(&doc, "#name"), "Dana");
    let form = reqwest::multipart::Form::new()
        .text("action", "draft")
        .text("answer0", "Separate GPUs")
        .part(
            "answer2",
            reqwest::multipart::Part::bytes(b"Kept \xfe 30 days".to_vec()),
        );
    let r = vendor
        .post(app.url(&page))
        .header("origin", &app.base)
        .multipart(form)
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 422);
    let doc = html(r).await;
    assert!(doc.select(&sel("#answer2-error")).next().is_some());
    assert_eq!(shown(&doc, "#answer0"), "Separate GPUs");
    let (_, again) = app.get_text(&vendor, &page).await;
    assert!(!again.contains("Separate GPUs"), "no draft was saved");
}

/// Every server function, posted with nothing, then with each of its
/// fields missing or of the wrong kind: never a 5xx, and every refusal
/// names what to fix — never "the marked fields" where nothing is marked,
/// neither in the bundle's answer nor on the page a plain post gets.
async fn malformed_calls_name_what_to_fix_for_every_server_function(b: Db) {
    let Some(app) = TestApp::spawn(b).await else {
        return;
    };
    let c = app.sign_up("owner@alpha.example", "Alpha").await;
    let mut paths: Vec<String> = aivet_server::routes::inventory()
        .into_iter()
        .filter(|(m, p)| m == "POST" && p.starts_with("/api/"))
        .map(|(_, p)| p)
        .collect();
    // Signing out ends the session the others need: last.
    paths.sort_by_key(|p| p == "/api/sign_out");
    assert!(paths.len() > 50, "{paths:?}");
    let mut problems = Vec::new();
    for path in &paths {
        assert!(
            aivet_web::api::args_check(path).is_some(),
            "{path} has no argument check in aivet_web::api::args_check"
        );
        // Learn the fields it needs from what it says is missing.
        let mut fields: Vec<(String, String)> = Vec::new();
        for _ in 0..12 {
            let (status, v) = post(&app, &c, path, &fields).await;
            check(path, &fields, status, &v, &mut problems);
            let named = v["args"]
                .as_array()
                .and_then(|a| a.iter().find(|p| p[0] == "field"))
                .and_then(|p| p[1].as_str())
                .map(str::to_owned);
            let Some(field) = named else { break };
            // Missing: send it empty; unreadable: a number, a yes, a group.
            const KINDS: [&str; 3] = ["", "0", "true"];
            let next = match fields.iter().position(|(k, _)| *k == field) {
                None => Some(""),
                Some(i) => KINDS
                    .iter()
                    .position(|k| *k == fields[i].1)
                    .and_then(|at| KINDS.get(at + 1).copied()),
            }
            .map(str::to_owned);
            match next {
                Some(value) => {
                    fields.retain(|(k, _)| *k != field);
                    fields.push((field, value));
                }
                None => {
                    // A group, not a value (`form[...]`).
                    fields.retain(|(k, _)| *k != field);
                    fields.push((format!("{field}[x]"), String::new()));
                }
            }
        }
        // Each field it takes, of the wrong kind: a group where a value is
        // expected, and a value where a group is.
        for (name, _) in fields.clone() {
            let wrong: Vec<(String, String)> = fields
                .iter()
                .map(|(k, v)| {
                    if *k != name {
                        (k.clone(), v.clone())
                    } else if let Some(group) = k.strip_suffix("[x]") {
                        (group.to_owned(), "1".to_owned())
                    } else {
                        (format!("{k}[a][b]"), "1".to_owned())
                    }
                })
                .collect();
            let (status, v) = post(&app, &c, path, &wrong).await;
            check(path, &wrong, status, &v, &mut problems);
            if !(400..500).contains(&status) {
                problems.push(format!("{path}: {wrong:?} was taken ({status})"));
            } else if status == 422 && v["msg"] == "ErrFormWrongValue" {
                let named = v["fields"][0][0].as_str().unwrap_or("");
                let base = name.strip_suffix("[x]").unwrap_or(&name);
                if !named.starts_with(base) {
                    problems.push(format!("{path}: {wrong:?} names {named}, not {base}"));
                }
            }
        }
        // The plain post of nothing: the page again, saying what to fix.
        let r = plain_post(&app, &c, path, "/", &[]).await;
        let status = r.status().as_u16();
        if status >= 500 {
            problems.push(format!("{path} (plain): {status}"));
        }
        if (400..500).contains(&status) {
            let doc = html(r).await;
            let banner = doc
                .select(&sel("#post-error"))
                .next()
                .map(text_of)
                .unwrap_or_default();
            if banner.trim().is_empty() {
                problems.push(format!("{path} (plain): {status} without a message"));
            }
            let marked = doc.select(&sel("[aria-invalid='true']")).next().is_some();
            if banner.contains("marked fields") && !marked {
                problems.push(format!("{path} (plain): \"{banner}\" but nothing marked"));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

async fn post(app: &TestApp, c: &Client, path: &str, fields: &[(String, String)]) -> (u16, Value) {
    let r = c.post(app.url(path)).form(fields).send().await.unwrap();
    let status = r.status().as_u16();
    let text = r.text().await.unwrap();
    (status, serde_json::from_str(&text).unwrap_or(Value::Null))
}

/// What every answer must be: no 5xx, and a refusal that says what to fix.
fn check(
    path: &str,
    fields: &[(String, String)],
    status: u16,
    v: &Value,
    problems: &mut Vec<String>,
) {
    let what = format!("{path} {fields:?}: {status} {v}");
    if status >= 500 {
        problems.push(what);
        return;
    }
    if !(400..500).contains(&status) || status == 404 {
        return;
    }
    let msg = v["msg"].as_str().unwrap_or("");
    let field_msgs: Vec<&str> = v["fields"]
        .as_array()
        .map(|a| a.iter().filter_map(|f| f[1].as_str()).collect())
        .unwrap_or_default();
    if msg.is_empty() || v["text"].as_str().unwrap_or("").is_empty() {
        problems.push(format!("{what}: no message"));
    } else if msg == "ErrFormOutdated" {
        problems.push(format!("{what}: the field is not named"));
    } else if msg == "ErrFormInvalid" && field_msgs.is_empty() {
        problems.push(format!("{what}: \"marked fields\" without a field"));
    } else if field_msgs.contains(&"ErrFormInvalid") {
        problems.push(format!("{what}: a field's message is the generic one"));
    }
}

/// The open redirects that `next` must not lead to.
const NOT_HERE: &[&str] = &[
    "//evil.example/login",
    "///evil.example",
    "/\\evil.example",
    "\\\\evil.example",
    "https://evil.example/",
    "http:evil.example",
    "javascript:alert(1)",
    "data:text/html,<script>alert(1)</script>",
    " /services",
    "/services\r\nSet-Cookie: session=stolen",
    "/\t/evil.example",
    "/%2F%2Fevil.example",
    "/%5Cevil.example",
    "services",
    "",
];

async fn signed_out_pages_lead_to_sign_in_and_back(b: Db) {
    let limits = Limits {
        sign_in_per_client: RateLimiter::new(10_000, chrono::Duration::minutes(10)),
        sign_in_per_account_client: RateLimiter::new(10_000, chrono::Duration::minutes(10)),
        ..Limits::default()
    };
    let Some(app) = TestApp::spawn_with(
        b,
        Options {
            limits,
            ..Options::default()
        },
    )
    .await
    else {
        return;
    };
    app.sign_up("owner@alpha.example", "Alpha").await;
    let random = uuid::Uuid::new_v4().to_string();
    let mut pages: Vec<String> = aivet_server::routes::inventory()
        .into_iter()
        .filter(|(m, p)| m == "GET" && !p.contains("{*"))
        .map(|(_, p)| {
            p.replace("{id}", &random)
                .replace("{token}", "not-a-token-not-a-token-not-a-token-not-a-t")
        })
        .collect();
    pages.push("/services?q=B%C3%A6rum+AS&status=trial".to_owned());
    pages.push("/vendors?q=x#contacts".to_owned());
    let mut led = 0;
    for page in &pages {
        let anon = app.client();
        let r = anon
            .get(app.url(page))
            .header("accept", "text/html")
            .send()
            .await
            .unwrap();
        let status = r.status().as_u16();
        assert!(
            status == 200 || status == 302 || status == 303 || status == 404,
            "{page}: {status}"
        );
        if status != 302 && status != 303 {
            continue;
        }
        led += 1;
        let wanted = page.split('#').next().unwrap();
        let to = r.headers()["location"].to_str().unwrap().to_owned();
        let expected = aivet_web::address::sign_in_address(wanted);
        assert_eq!(to, expected, "{page}");
        // The sign-in page knows where to go back to.
        let doc = Html::parse_document(&app.get_text(&anon, &to).await.1);
        let next = if wanted == "/" {
            String::new()
        } else {
            shown(&doc, "#sign-in-form input[name='next']")
        };
        if wanted != "/" {
            assert_eq!(next, wanted, "{page}");
        }
        // Signed in without the bundle: back to the page.
        let r = plain_post(
            &app,
            &anon,
            "/api/sign_in",
            &to,
            &[
                ("email", "owner@alpha.example"),
                ("password", PASSWORD),
                ("next", &next),
            ],
        )
        .await;
        assert_eq!(r.status(), 302, "{page}");
        assert_eq!(r.headers()["location"], wanted, "{page}");
        // And with the bundle.
        let bundle = app.client();
        let r = app
            .call(
                &bundle,
                "sign_in",
                &[
                    ("email", "owner@alpha.example"),
                    ("password", PASSWORD),
                    ("next", &next),
                ],
            )
            .await;
        assert!(accepted(&r), "{page}");
        assert_eq!(r.headers()["location"], wanted, "{page}");
        let r = bundle
            .get(app.url(wanted))
            .header("accept", "text/html")
            .send()
            .await
            .unwrap();
        assert!(!r.status().is_redirection(), "{page}: signed in now");
    }
    assert!(led >= 15, "only {led} pages asked to sign in");

    // Signed in already: the sign-in page goes on to `next`.
    let c = app.client();
    assert!(accepted(
        &app.sign_in(&c, "owner@alpha.example", PASSWORD).await
    ));
    let r = c
        .get(app.url("/login?next=%2Fvendors%3Fq%3Dx"))
        .header("accept", "text/html")
        .send()
        .await
        .unwrap();
    assert_eq!(r.headers()["location"], "/vendors?q=x");

    // Anywhere else: the dashboard, with and without the bundle.
    for next in NOT_HERE {
        let anon = app.client();
        let login = format!("/login?next={}", aivet_web::address::encode(next));
        let (status, page) = app.get_text(&anon, &login).await;
        assert_eq!(status, 200, "{next:?}");
        assert!(!page.contains("name=\"next\""), "{next:?}");
        let r = plain_post(
            &app,
            &anon,
            "/api/sign_in",
            "/login",
            &[
                ("email", "owner@alpha.example"),
                ("password", PASSWORD),
                ("next", next),
            ],
        )
        .await;
        assert_eq!(r.status(), 302, "{next:?}");
        assert_eq!(r.headers()["location"], "/", "{next:?}");
        let r = app
            .call(
                &app.client(),
                "sign_in",
                &[
                    ("email", "owner@alpha.example"),
                    ("password", PASSWORD),
                    ("next", next),
                ],
            )
            .await;
        assert_eq!(r.headers()["location"], "/", "{next:?}");
        for cookie in set_cookies(&r) {
            assert!(!cookie.contains("stolen"), "{cookie}");
        }
    }
}
