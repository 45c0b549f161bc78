//! The web safety rules of shared/SECURITY.md: CSRF (W1), cookies (W2),
//! rate limits (W5), headers (W7), bad input (W9), failing closed (W10).

use crate::helpers::*;
use aivet_services::{Backoff, Limits, RateLimiter};
use chrono::Duration;

crate::on_both!(
    health_reports_the_database,
    state_changes_need_same_origin,
    static_files_skip_the_session_lookup,
    guessing_stays_slow_and_nobody_can_lock_the_owner_out,
);

/// The bundle, the icons and robots.txt are the same for everyone: they are
/// served without reading the session. With the sessions table gone, a page
/// that reads the session fails closed, while the static files still come,
/// with the security headers of every response.
async fn static_files_skip_the_session_lookup(b: Db) {
    let Some(app) = TestApp::spawn(b).await else {
        return;
    };
    let c = app.sign_up("a@example.com", "A").await;
    assert_eq!(c.get(app.url("/")).send().await.unwrap().status(), 200);
    app.exec_raw("ALTER TABLE sessions RENAME TO sessions_unreadable")
        .await;
    assert_eq!(
        c.get(app.url("/")).send().await.unwrap().status(),
        500,
        "the cookie is looked up on pages"
    );
    for path in [
        "/pkg/aivet.css",
        "/pkg/aivet.js",
        "/favicon.svg",
        "/favicon.ico",
        "/robots.txt",
    ] {
        let r = c.get(app.url(path)).send().await.unwrap();
        assert_eq!(r.status(), 200, "{path}");
        let h = r.headers();
        assert_eq!(h["x-content-type-options"], "nosniff", "{path}");
        assert_eq!(h["x-frame-options"], "DENY", "{path}");
        assert!(
            h["content-security-policy"]
                .to_str()
                .unwrap()
                .contains("frame-ancestors 'none'"),
            "{path}"
        );
        assert!(h.contains_key("referrer-policy"), "{path}");
        assert!(h.contains_key("x-request-id"), "{path}");
        assert!(!r.bytes().await.unwrap().is_empty(), "{path}");
    }
    let r = c.get(app.url("/favicon.ico")).send().await.unwrap();
    assert_eq!(r.headers()["content-type"], "image/x-icon");
    assert!(
        r.bytes().await.unwrap().starts_with(&[0, 0, 1, 0]),
        "an ICO file"
    );
}

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
    // Per account, too, for a browser new to the account.
    let app = TestApp::spawn_with(
        Db::Sqlite,
        Options {
            limits: Limits {
                sign_in_per_client: RateLimiter::new(1000, Duration::minutes(10)),
                sign_in_per_account_client: RateLimiter::new(1000, Duration::minutes(10)),
                sign_in_per_account: Backoff::new(
                    5,
                    Duration::minutes(10),
                    Duration::minutes(10),
                    Duration::hours(24),
                ),
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

const OWNER: &str = "kari@example.no";

/// A sign-in as the browser bundle sends it, from `addr` (the app trusts
/// the loopback proxy's X-Forwarded-For in these tests).
async fn sign_in_from(
    app: &TestApp,
    c: &reqwest::Client,
    addr: &str,
    password: &str,
) -> reqwest::Response {
    c.post(app.url("/api/sign_in"))
        .header("x-forwarded-for", addr)
        .form(&[("email", OWNER), ("password", password)])
        .send()
        .await
        .unwrap()
}

async fn reset_from(app: &TestApp, c: &reqwest::Client, addr: &str) -> reqwest::Response {
    c.post(app.url("/api/request_password_reset"))
        .header("x-forwarded-for", addr)
        .form(&[("email", OWNER)])
        .send()
        .await
        .unwrap()
}

async fn error_text(r: reqwest::Response) -> String {
    let v: serde_json::Value = r.json().await.unwrap();
    v["text"].as_str().unwrap_or_default().to_owned()
}

/// W5 after OWASP's guidance on lockouts: guessing stays slow from one
/// address and from many against one account, while the attack can lock
/// nobody out — the owner gets in from their browser on a new network, a
/// browser new to the account is told the way in, and a password reset
/// (which others' failures and floods cannot block) works.
async fn guessing_stays_slow_and_nobody_can_lock_the_owner_out(b: Db) {
    use aivet_domain::{Lang, Msg};
    let Some(app) = TestApp::spawn_with(
        b,
        Options {
            manual_mail: true,
            env: vec![("AIVET_TRUSTED_PROXIES", "127.0.0.1".into())],
            ..Options::default()
        },
    )
    .await
    else {
        return;
    };
    app.sign_up(OWNER, "Bærum Regnskap").await;
    // The owner's browser, signed in once at the office.
    let browser = app.client();
    let r = sign_in_from(&app, &browser, "192.0.2.10", PASSWORD).await;
    assert!(accepted(&r), "{}", r.status());
    assert!(set_cookies(&r)
        .iter()
        .any(|c| c.starts_with("aivet_device=") && c.contains("HttpOnly")));

    // One address: five wrong passwords, then no more checks.
    let attacker = app.client();
    let mut statuses = Vec::new();
    for _ in 0..20 {
        statuses.push(
            sign_in_from(&app, &attacker, "198.51.100.7", "guess guess guess")
                .await
                .status()
                .as_u16(),
        );
    }
    assert_eq!(statuses[..5], [401; 5], "{statuses:?}");
    assert!(statuses[5..].iter().all(|s| *s == 429), "{statuses:?}");

    // Many addresses, one guess each: ten failures in all are free, then
    // the account pauses for browsers new to it.
    let mut checked = 0;
    for i in 0..200 {
        let r = sign_in_from(
            &app,
            &app.client(),
            &format!("2001:db8::{i:x}"),
            "guess guess guess",
        )
        .await;
        match r.status().as_u16() {
            401 => checked += 1,
            429 => assert_eq!(error_text(r).await, Msg::ErrAccountProtected.text(Lang::En)),
            other => panic!("{other}"),
        }
    }
    assert_eq!(checked, 5, "ten failures in all, then the pause");
    // An hour of it, a guess every ten seconds from new addresses: the
    // pauses double, so only a handful are checked.
    let mut checked = 0;
    for i in 0..360 {
        app.clock.advance(Duration::seconds(10));
        let r = sign_in_from(
            &app,
            &app.client(),
            &format!("203.0.113.{}", i % 250),
            "guess guess guess",
        )
        .await;
        match r.status().as_u16() {
            401 => checked += 1,
            429 => {}
            other => panic!("{other}"),
        }
        if i == 180 {
            // Mid-attack, the owner's browser gets in from a new network.
            let r = sign_in_from(&app, &browser, "192.0.2.99", PASSWORD).await;
            assert!(accepted(&r), "the owner's browser: {}", r.status());
            // And, signed in, can change the password.
            let r = app
                .call(
                    &browser,
                    "change_password",
                    &[
                        ("current_password", PASSWORD),
                        ("new_password", "another long passphrase"),
                    ],
                )
                .await;
            assert!(accepted(&r), "change password: {}", r.status());
        }
    }
    assert!(
        (1..=8).contains(&checked),
        "{checked} guesses checked in an hour"
    );

    // A browser new to the account, with the right password, is told the
    // way in; a password reset works from there.
    let fresh = app.client();
    let r = sign_in_from(&app, &fresh, "192.0.2.50", "another long passphrase").await;
    assert_eq!(r.status(), 429);
    assert_eq!(error_text(r).await, Msg::ErrAccountProtected.text(Lang::En));
    let r = reset_from(&app, &fresh, "192.0.2.50").await;
    assert!(accepted(&r), "reset: {}", r.status());
    assert_eq!(app.worker.pass().await.unwrap().sent, 1);
    let token = tokens_in_outbox(&app, "/reset-password/", 1).await[0].clone();
    let r = app
        .call(
            &fresh,
            "reset_password",
            &[("token", &token), ("password", "a brand new passphrase")],
        )
        .await;
    assert!(accepted(&r), "{}", r.status());
    assert_eq!(app.get_text(&fresh, "/").await.0, 200);
    // The reset forgot the failures: any browser gets in again.
    let r = sign_in_from(&app, &app.client(), "192.0.2.51", "a brand new passphrase").await;
    assert!(accepted(&r), "{}", r.status());

    // Flooding the reset from many addresses sends at most three mails an
    // hour and refuses nobody; the owner's mailbox has a working link.
    for i in 0..20 {
        let r = reset_from(&app, &app.client(), &format!("198.51.100.{}", 100 + i)).await;
        assert!(accepted(&r), "{}", r.status());
    }
    let r = reset_from(&app, &fresh, "192.0.2.50").await;
    assert!(accepted(&r), "the owner's own request: {}", r.status());
    assert_eq!(
        app.worker.pass().await.unwrap().sent,
        2,
        "three in the hour"
    );
    let tokens = tokens_in_outbox(&app, "/reset-password/", 3).await;
    let newest = tokens.iter().find(|t| **t != token).unwrap();
    let r = app
        .call(
            &app.client(),
            "reset_password",
            &[("token", newest), ("password", "the owner's passphrase")],
        )
        .await;
    assert!(accepted(&r), "{}", r.status());
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
    assert_eq!(
        r.text().await.unwrap(),
        aivet_domain::msg!(
            aivet_domain::Lang::De,
            aivet_domain::Msg::ErrTooLarge,
            limit = "256 KB"
        )
    );
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

/// A body over `AIVET_MAX_BODY_BYTES` gets a message that names the limit,
/// in the user's language, in the form its sender reads: the browser
/// bundle its JSON error, a form posted by the browser itself a page with
/// the message and the way back, other clients plain text — whether the
/// length was declared or the body just kept coming.
#[tokio::test]
async fn an_oversize_body_is_told_its_limit() {
    use aivet_domain::{Lang, Msg};
    let app = TestApp::spawn(Db::Sqlite).await.unwrap();
    let c = app.sign_up("a@example.com", "A").await;
    app.call(&c, "set_language", &[("lang", "nb")]).await;
    let expected = aivet_domain::msg!(Lang::Nb, Msg::ErrTooLarge, limit = "256 KB");
    let big = "x".repeat(300 * 1024);
    let post = |accept: &'static str, referer: String| {
        c.post(app.url("/api/create_org"))
            .header("accept", accept)
            .header("referer", referer)
            .form(&[("org_name", big.as_str())])
            .send()
    };

    let r = post("application/json", app.url("/settings"))
        .await
        .unwrap();
    assert_eq!(r.status(), 413);
    assert!(r.headers()["content-type"]
        .to_str()
        .unwrap()
        .starts_with("application/json"));
    let e: serde_json::Value = r.json().await.unwrap();
    assert_eq!(
        (e["msg"].as_str(), e["text"].as_str()),
        (Some("ErrTooLarge"), Some(expected.as_str()))
    );

    let html = "text/html,application/xhtml+xml,*/*;q=0.8";
    let r = post(html, app.url("/settings")).await.unwrap();
    assert_eq!(r.status(), 413);
    assert!(r.headers()["content-type"]
        .to_str()
        .unwrap()
        .starts_with("text/html"));
    assert_eq!(r.headers()["x-content-type-options"], "nosniff");
    let page = r.text().await.unwrap();
    assert!(page.contains("<html lang=\"nb\">"), "{page}");
    assert!(page.contains(Msg::TooLargeTitle.text(Lang::Nb)));
    assert!(page.contains(&expected), "{page}");
    assert!(
        page.contains("href=\"&#x2f;settings\""),
        "the way back: {page}"
    );
    // A foreign referrer is no way back.
    let r = post(html, "https://evil.example/phish".into())
        .await
        .unwrap();
    assert!(!r.text().await.unwrap().contains("evil.example"));

    // No declared length: refused once that much has come.
    use futures_util::StreamExt;
    let chunks =
        futures_util::stream::iter((0..40).map(|_| Ok::<_, std::io::Error>(vec![b'x'; 10 * 1024])));
    let r = c
        .post(app.url("/api/create_org"))
        .header("content-type", "application/x-www-form-urlencoded")
        .header("accept", "application/json")
        .body(reqwest::Body::wrap_stream(
            futures_util::stream::once(async { Ok::<_, std::io::Error>(b"org_name=".to_vec()) })
                .chain(chunks),
        ))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 413);
    let e: serde_json::Value = r.json().await.unwrap();
    assert_eq!(e["text"].as_str(), Some(expected.as_str()));
    let orgs: serde_json::Value = app
        .call(&c, "my_org_list", &[("q", "")])
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(orgs["total"], 1, "nothing was created");
}
