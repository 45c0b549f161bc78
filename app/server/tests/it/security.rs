//! The web safety rules of shared/SECURITY.md: CSRF (W1), cookies (W2),
//! rate limits (W5), headers (W7), bad input (W9), failing closed (W10).

use crate::helpers::*;
use aivet_services::{Limits, RateLimiter};
use chrono::Duration;

crate::on_both!(health_reports_the_database, state_changes_need_same_origin);

async fn health_reports_the_database(b: Db) {
    let Some(app) = TestApp::spawn(b).await else {
        return;
    };
    let r = reqwest::get(app.url("/health")).await.unwrap();
    assert_eq!(r.status(), 200);
    let v: serde_json::Value = r.json().await.unwrap();
    assert_eq!(v["database"], "ok");
    assert_eq!(
        v["backend"],
        if b == Db::Sqlite {
            "sqlite"
        } else {
            "postgres"
        }
    );
    assert_eq!(v["version"], env!("CARGO_PKG_VERSION"));
}

async fn state_changes_need_same_origin(b: Db) {
    let Some(app) = TestApp::spawn(b).await else {
        return;
    };
    let c = app.sign_up("a@example.com", "A").await;
    let orgs_before = app
        .call(&c, "settings_data", &[])
        .await
        .text()
        .await
        .unwrap();
    let attempts: Vec<(&str, Vec<(&str, &str)>)> = vec![
        ("evil origin", vec![("origin", "https://evil.example")]),
        ("cross-site fetch", vec![("sec-fetch-site", "cross-site")]),
        (
            "same-site fetch",
            vec![
                ("sec-fetch-site", "same-site"),
                ("origin", "https://sub.example"),
            ],
        ),
        ("null origin", vec![("origin", "null")]),
    ];
    for (what, headers) in attempts {
        let mut req = c
            .post(app.url("/api/create_org"))
            .form(&[("org_name", "Evil Corp")]);
        for (k, v) in headers {
            req = req.header(k, v);
        }
        let r = req.send().await.unwrap();
        assert_eq!(r.status(), 403, "{what}");
    }
    // No Origin and no fetch metadata at all: refused too.
    let bare = reqwest::Client::builder()
        .cookie_store(true)
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap();
    let r = bare
        .post(app.url("/api/sign_up"))
        .form(&[
            ("email", "x@example.com"),
            ("password", PASSWORD),
            ("name", "X"),
            ("org_name", "X"),
        ])
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 403);
    // No state change is reachable by GET.
    let r = c
        .get(app.url("/api/create_org?org_name=Evil"))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 405);
    assert_eq!(
        app.call(&c, "settings_data", &[])
            .await
            .text()
            .await
            .unwrap(),
        orgs_before
    );
    let orgs = app
        .services
        .store
        .orgs_of_user(
            app.services
                .store
                .credentials(&aivet_domain::Email::parse("a@example.com").unwrap())
                .await
                .unwrap()
                .unwrap()
                .user_id,
        )
        .await
        .unwrap();
    assert_eq!(orgs.len(), 1, "no organisation was created");
    // The browser's own word for a same-origin request is accepted.
    let r = bare
        .post(app.url("/api/sign_in"))
        .header("sec-fetch-site", "same-origin")
        .form(&[("email", "a@example.com"), ("password", PASSWORD)])
        .send()
        .await
        .unwrap();
    assert!(accepted(&r));
}

#[tokio::test]
async fn session_cookie_flags() {
    let app = TestApp::spawn(Db::Sqlite).await.unwrap();
    let r = app
        .call(
            &app.client(),
            "sign_up",
            &[
                ("email", "a@example.com"),
                ("password", PASSWORD),
                ("name", "A"),
                ("org_name", "A"),
            ],
        )
        .await;
    let cookie = set_cookies(&r)
        .into_iter()
        .find(|c| c.starts_with("aivet_session="))
        .unwrap();
    let parts: Vec<&str> = cookie.split(';').map(str::trim).collect();
    assert!(
        parts.contains(&"HttpOnly") && parts.contains(&"SameSite=Lax") && parts.contains(&"Path=/"),
        "{cookie}"
    );
    assert!(!parts.iter().any(|p| p.starts_with("Domain")), "{cookie}");
    assert!(
        !parts.contains(&"Secure"),
        "plain http on localhost: {cookie}"
    );
    assert!(r.headers().get("strict-transport-security").is_none());
    let token = parts[0].trim_start_matches("aivet_session=");
    assert!(token.len() >= 43, "256-bit id");
    let pool = app.raw_sqlite().await;
    let rows: Vec<(Vec<u8>,)> = sqlx::query_as("SELECT id_hash FROM sessions")
        .fetch_all(&pool)
        .await
        .unwrap();
    assert_eq!(rows.len(), 1);
    assert_ne!(
        rows[0].0,
        token.as_bytes(),
        "only a hash of the id is stored"
    );

    // Served as https: Secure cookies and HSTS.
    let https = TestApp::spawn_with(
        Db::Sqlite,
        Options {
            base_url: Some("https://aivet.test".into()),
            ..Options::default()
        },
    )
    .await
    .unwrap();
    let c = https.client_with_origin("https://aivet.test");
    let r = https
        .call(
            &c,
            "sign_up",
            &[
                ("email", "a@example.com"),
                ("password", PASSWORD),
                ("name", "A"),
                ("org_name", "A"),
            ],
        )
        .await;
    let cookie = set_cookies(&r)
        .into_iter()
        .find(|c| c.starts_with("aivet_session="))
        .unwrap();
    assert!(
        cookie.split(';').map(str::trim).any(|p| p == "Secure"),
        "{cookie}"
    );
    assert!(r.headers()["strict-transport-security"]
        .to_str()
        .unwrap()
        .contains("max-age="));
}

#[tokio::test]
async fn sign_in_is_rate_limited_by_peer_not_by_forwarded_header() {
    let limits = Limits {
        sign_in_per_client: RateLimiter::new(20, Duration::minutes(10)),
        sign_in_per_account: RateLimiter::new(5, Duration::minutes(10)),
        ..Limits::default()
    };
    let app = TestApp::spawn_with(
        Db::Sqlite,
        Options {
            limits,
            ..Options::default()
        },
    )
    .await
    .unwrap();
    let c = app.client();
    let mut statuses = Vec::new();
    for i in 0..200 {
        let r = c
            .post(app.url("/api/sign_in"))
            .header("x-forwarded-for", format!("203.0.113.{}", i % 250))
            .form(&[
                ("email", format!("user{i}@example.com").as_str()),
                ("password", "wrong password"),
            ])
            .send()
            .await
            .unwrap();
        statuses.push(r.status().as_u16());
    }
    assert!(statuses[..20].iter().all(|s| *s == 401), "{statuses:?}");
    assert!(
        statuses[20..].iter().all(|s| *s == 429),
        "forged X-Forwarded-For must not reset the limit"
    );
    // Per account, too, from fresh addresses' point of view.
    let app = TestApp::spawn_with(
        Db::Sqlite,
        Options {
            limits: Limits {
                sign_in_per_client: RateLimiter::new(1000, Duration::minutes(10)),
                sign_in_per_account: RateLimiter::new(5, Duration::minutes(10)),
                ..Limits::default()
            },
            ..Options::default()
        },
    )
    .await
    .unwrap();
    app.sign_up("a@example.com", "A").await;
    for _ in 0..5 {
        assert_eq!(
            app.sign_in(&app.client(), "a@example.com", "nope nope nope")
                .await
                .status(),
            401
        );
    }
    assert_eq!(
        app.sign_in(&app.client(), "a@example.com", PASSWORD)
            .await
            .status(),
        429
    );
    app.clock.advance(Duration::minutes(11));
    let r = app.sign_in(&app.client(), "a@example.com", PASSWORD).await;
    assert!(accepted(&r), "the limit lifts with time");
}

#[tokio::test]
async fn security_headers_on_every_response() {
    let app = TestApp::spawn(Db::Sqlite).await.unwrap();
    let c = app.sign_up("a@example.com", "A").await;
    let anon = app.client();
    let mut responses = Vec::new();
    for path in aivet_server::routes::inventory()
        .iter()
        .filter(|(m, _)| m == "GET")
        .map(|(_, p)| p.replace("{token}", "x").replace("{*file}", "aivet.css"))
    {
        responses.push((path.clone(), c.get(app.url(&path)).send().await.unwrap()));
        responses.push((
            format!("{path} (signed out)"),
            anon.get(app.url(&path)).send().await.unwrap(),
        ));
    }
    responses.push((
        "404".into(),
        c.get(app.url("/no/such/page")).send().await.unwrap(),
    ));
    responses.push(("unknown api".into(), app.call(&c, "no_such_fn", &[]).await));
    responses.push((
        "api error".into(),
        app.call(&c, "create_org", &[("org_name", "")]).await,
    ));
    responses.push((
        "csrf".into(),
        c.post(app.url("/api/create_org"))
            .header("origin", "https://evil.example")
            .send()
            .await
            .unwrap(),
    ));
    for (what, r) in &responses {
        let h = r.headers();
        assert_eq!(
            h.get("x-content-type-options").map(|v| v.to_str().unwrap()),
            Some("nosniff"),
            "{what}"
        );
        assert!(h.get("referrer-policy").is_some(), "{what}");
        let csp = h
            .get("content-security-policy")
            .map(|v| v.to_str().unwrap().to_owned())
            .unwrap_or_default();
        assert!(
            csp.contains("frame-ancestors 'none'") && csp.contains("'nonce-"),
            "{what}: {csp}"
        );
        assert!(h.get("x-request-id").is_some(), "{what}");
        let ct = h
            .get("content-type")
            .map(|v| v.to_str().unwrap())
            .unwrap_or("");
        if !what.starts_with("/pkg")
            && !what.starts_with("/favicon")
            && !what.starts_with("/robots")
        {
            assert_eq!(
                h.get("cache-control").map(|v| v.to_str().unwrap()),
                Some("no-store"),
                "{what} ({ct})"
            );
        }
    }
    // The nonce differs per response and is the one the page's scripts carry.
    let r1 = c.get(app.url("/")).send().await.unwrap();
    let r2 = c.get(app.url("/")).send().await.unwrap();
    let nonce = |r: &reqwest::Response| {
        let csp = r.headers()["content-security-policy"]
            .to_str()
            .unwrap()
            .to_owned();
        csp.split("'nonce-")
            .nth(1)
            .unwrap()
            .split('\'')
            .next()
            .unwrap()
            .to_owned()
    };
    let (n1, n2) = (nonce(&r1), nonce(&r2));
    assert_ne!(n1, n2);
    let body = r1.text().await.unwrap();
    assert!(body.contains(&format!("nonce=\"{n1}\"")));
    assert_eq!(
        c.get(app.url("/no/such/page"))
            .send()
            .await
            .unwrap()
            .status(),
        404
    );
}

#[tokio::test]
async fn bad_input_gets_a_clear_4xx() {
    let app = TestApp::spawn(Db::Sqlite).await.unwrap();
    let c = app.sign_up("a@example.com", "A").await;
    // Missing fields, wrong shapes, broken UTF-8, oversize bodies.
    let r = app.call(&c, "sign_in", &[("email", "a@example.com")]).await;
    assert!(
        r.status().is_client_error(),
        "missing field: {}",
        r.status()
    );
    let r = c
        .post(app.url("/api/create_org"))
        .header("content-type", "application/x-www-form-urlencoded")
        .body(vec![
            b'o', b'r', b'g', b'_', b'n', b'a', b'm', b'e', b'=', 0xff, 0xfe,
        ])
        .send()
        .await
        .unwrap();
    assert!(r.status().is_client_error(), "broken UTF-8: {}", r.status());
    let big = "x".repeat(300 * 1024);
    let r = app.call(&c, "create_org", &[("org_name", &big)]).await;
    assert_eq!(r.status(), 413);
    let r = c
        .post(app.url("/api/create_org"))
        .header("accept-language", "de")
        .form(&[("org_name", big.as_str())])
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 413);
    assert_eq!(r.text().await.unwrap(), "Die Anfrage ist zu groß.");
    let r = app
        .call(&c, "create_org", &[("org_name", &"x".repeat(200))])
        .await;
    assert_eq!(r.status(), 422);
    assert_eq!(
        r.json::<serde_json::Value>().await.unwrap()["fields"][0],
        serde_json::json!(["org_name", "ErrOrgNameTooLong"])
    );
    let r = app
        .call(&c, "remove_member", &[("membership_id", "not-a-uuid")])
        .await;
    assert_eq!(r.status(), 404);
    let r = app
        .call(
            &c,
            "set_member_role",
            &[
                ("membership_id", &uuid::Uuid::new_v4().to_string()),
                ("role", "god"),
            ],
        )
        .await;
    assert_eq!(r.status(), 422);
}

#[tokio::test]
async fn database_failure_fails_closed_with_a_request_id() {
    let app = TestApp::spawn(Db::Sqlite).await.unwrap();
    let c = app.sign_up("a@example.com", "A").await;
    // Break the session check underneath the running server.
    let pool = app.raw_sqlite().await;
    sqlx::query("ALTER TABLE sessions RENAME TO sessions_gone")
        .execute(&pool)
        .await
        .unwrap();
    for r in [
        c.get(app.url("/settings")).send().await.unwrap(),
        app.call(&c, "settings_data", &[]).await,
    ] {
        assert_eq!(r.status(), 500);
        let id = r.headers()["x-request-id"].to_str().unwrap().to_owned();
        let body = r.text().await.unwrap();
        assert!(body.contains(&id), "{body}");
        assert!(
            !body.contains("sessions")
                && !body.contains("sqlite")
                && !body.contains("a@example.com"),
            "{body}"
        );
    }
}

/// Pages whose parts load their own data (settings; a service's page with
/// its questions) all finish under concurrent requests. A change that turned
/// off leptos's hydration bookkeeping left about 3 in 1,000 of them waiting
/// forever under 16 concurrent clients; this catches it most of the time.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pages_with_nested_data_all_finish_under_concurrent_load() {
    let (app, c, _vendor, service) = app_with_a_service().await;
    for path in ["/settings".to_owned(), format!("/services/{service}")] {
        let tasks: Vec<_> = (0..16)
            .map(|_| {
                let (c, url) = (c.clone(), app.url(&path));
                tokio::spawn(async move {
                    for _ in 0..30 {
                        let page = async {
                            let r = c.get(&url).send().await.unwrap();
                            assert_eq!(r.status(), 200, "{url}");
                            r.bytes().await.unwrap()
                        };
                        tokio::time::timeout(std::time::Duration::from_secs(20), page)
                            .await
                            .unwrap_or_else(|_| panic!("{url} did not finish"));
                    }
                })
            })
            .collect();
        for t in tasks {
            t.await.unwrap();
        }
    }
}

/// A signed-in owner with the vendor "ChatCo" and its service "Chat":
/// (app, client, vendor id, service id).
async fn app_with_a_service() -> (TestApp, reqwest::Client, String, String) {
    let app = TestApp::spawn(Db::Sqlite).await.unwrap();
    let c = app.sign_up("a@example.com", "A").await;
    let vendor = crate::inventory::create_vendor(&app, &c, "ChatCo", "application").await;
    let service = crate::inventory::create_service(
        &app,
        &c,
        &[("form[name]", "Chat"), ("form[vendor_id]", vendor.as_str())],
    )
    .await;
    (app, c, vendor, service)
}

/// Pages are not hydrated, so they carry no serialized copy of their data
/// (leptos would write every resource's value into the page): what is on
/// a page is what it shows.
#[tokio::test]
async fn pages_carry_no_serialized_copy_of_their_data() {
    let (app, c, vendor, service) = app_with_a_service().await;
    // Each page, and a text from its data where it shows some.
    let paths = [
        ("/".to_owned(), None),
        ("/settings".to_owned(), None),
        ("/services".to_owned(), Some("ChatCo")),
        (format!("/services/{service}"), Some("ChatCo")),
        ("/vendors".to_owned(), Some("ChatCo")),
        (format!("/vendors/{vendor}"), Some("Chat")),
    ];
    for (path, shown) in paths {
        let page = html_of(&c, &app.url(&path)).await;
        if let Some(text) = shown {
            assert!(page.contains(text), "{path}: the data is on the page");
        }
        // Resources resolved later: `__RESOLVED_RESOURCES[3] = "…";`
        let mut resources = 0;
        for (at, _) in page.match_indices("__RESOLVED_RESOURCES[") {
            let rest = &page[at..];
            let value = rest.split_once(" = ").map(|(_, v)| v).unwrap_or("");
            let value = value.split(';').next().unwrap_or("");
            assert_eq!(value, "\"\"", "{path}: {}", &rest[..rest.len().min(200)]);
            resources += 1;
        }
        // Resources resolved at once: `__RESOLVED_RESOURCES=[0: "…",];`
        if let Some((_, rest)) = page.split_once("__RESOLVED_RESOURCES=[") {
            let list = rest.split("];").next().unwrap();
            for entry in list.split(',').filter(|e| !e.trim().is_empty()) {
                assert!(entry.trim().ends_with(": \"\""), "{path}: {entry}");
                resources += 1;
            }
        }
        assert!(
            resources > 0,
            "{path}: the page's data still loads as a resource"
        );
    }
}

async fn html_of(c: &reqwest::Client, url: &str) -> String {
    let r = c
        .get(url)
        .header("accept", "text/html")
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 200, "{url}");
    r.text().await.unwrap()
}
