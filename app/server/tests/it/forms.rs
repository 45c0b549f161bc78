//! Forms as people send them (SECURITY W9): a page opened signed out
//! leads to the sign-in page and back, and nowhere else (issue 13.8).

use crate::helpers::*;
use crate::pages::*;
use aivet_services::{Limits, RateLimiter};
use scraper::Html;

crate::on_both!(signed_out_pages_lead_to_sign_in_and_back);

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
