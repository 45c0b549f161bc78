//! Forms as people send them (SECURITY W9): a refused form posted without
//! the browser bundle comes back as its page with the messages at the
//! fields and everything typed, never a password (issue 14.6); a page
//! opened signed out leads to the sign-in page and back, and nowhere else
//! (issue 13.8).

use crate::helpers::*;
use crate::inventory::{create_service, create_vendor};
use crate::pages::*;
use aivet_services::{Limits, RateLimiter};
use reqwest::Client;
use scraper::Html;
use serde_json::Value;

crate::on_both!(
    a_refused_form_without_the_bundle_comes_back_as_typed,
    signed_out_pages_lead_to_sign_in_and_back,
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
        sign_in_per_account: RateLimiter::new(10_000, chrono::Duration::minutes(10)),
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
