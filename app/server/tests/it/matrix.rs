//! The cross-tenant matrix (shared/SECURITY.md T1–T3).
//!
//! Built from the server's own route list: pages, server functions and plain
//! routes. As a member of organisation A, every route is called with B's ids
//! and with random ids; both must get exactly the same answer, B's data must
//! not appear, and B's data must be unchanged afterwards. A route without an
//! entry here fails the test, and so does an entry for a route that is gone.

use crate::helpers::*;
use reqwest::Client;
use std::collections::BTreeMap;

struct World {
    app: TestApp,
    a: Client,
    a_org: String,
    b_org: String,
    b_owner_membership: String,
    b_editor_membership: String,
    b_pending_invite: String,
    b_used_token: String,
    b_revoked_token: String,
    b_mail: String,
    b_used_reset_token: String,
}

/// Strings that must never reach A.
fn b_markers(w: &World) -> Vec<String> {
    vec![
        "Beta Holdings".into(),
        "beta-holdings".into(),
        "owner@beta.example".into(),
        "editor@beta.example".into(),
        "pending@beta.example".into(),
        w.b_org.clone(),
        w.b_owner_membership.clone(),
        w.b_editor_membership.clone(),
        w.b_pending_invite.clone(),
        w.b_mail.clone(),
    ]
}

fn token_of(link: &str) -> String {
    link.rsplit('/').next().unwrap().to_owned()
}

async fn invite(app: &TestApp, c: &Client, email: &str) -> String {
    let r = app
        .call(c, "create_invite", &[("email", email), ("role", "editor")])
        .await;
    assert_eq!(r.status(), 200);
    token_of(
        r.json::<serde_json::Value>().await.unwrap()["link"]
            .as_str()
            .unwrap(),
    )
}

async fn world(b: Db) -> Option<World> {
    let app = TestApp::spawn(b).await?;
    let a = app.sign_up("owner@alpha.example", "Alpha Consulting").await;
    let b_owner = app.sign_up("owner@beta.example", "Beta Holdings").await;
    // B: an editor who joined by link (a used token), a pending and a revoked invitation.
    let used = invite(&app, &b_owner, "editor@beta.example").await;
    let joined = app.client();
    let r = app
        .call(
            &joined,
            "sign_up_with_invite",
            &[("token", &used), ("name", "Bea"), ("password", PASSWORD)],
        )
        .await;
    assert!(accepted(&r));
    invite(&app, &b_owner, "pending@beta.example").await;
    let revoked = invite(&app, &b_owner, "revoked@beta.example").await;
    let data = app.settings(&b_owner).await;
    let revoked_id = id_by_email(&data["invites"], "revoked@beta.example");
    let r = app
        .call(&b_owner, "revoke_invite", &[("invite_id", &revoked_id)])
        .await;
    assert!(accepted(&r));
    let data = app.settings(&b_owner).await;
    let member = |email: &str| id_by_email(&data["members"], email);
    let a_data = app.settings(&a).await;
    Some(World {
        a_org: a_data["org"]["id"].as_str().unwrap().to_owned(),
        b_org: data["org"]["id"].as_str().unwrap().to_owned(),
        b_owner_membership: member("owner@beta.example"),
        b_editor_membership: member("editor@beta.example"),
        b_pending_invite: data["invites"][0]["id"].as_str().unwrap().to_owned(),
        b_used_token: used,
        b_revoked_token: revoked,
        b_mail: data["mail"]["mails"][0]["id"].as_str().unwrap().to_owned(),
        b_used_reset_token: used_reset_token(&app, "owner@beta.example").await,
        app,
        a,
    })
}

/// B's owner asks for a reset link, takes it from the mail and uses it.
async fn used_reset_token(app: &TestApp, email: &str) -> String {
    let r = app
        .call(&app.client(), "request_password_reset", &[("email", email)])
        .await;
    assert!(accepted(&r));
    let dir = app.data_dir.join("outbox");
    let mut token = None;
    for _ in 0..5000 {
        for entry in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
            let data = std::fs::read(entry.path()).unwrap_or_default();
            let text = mailparse::parse_mail(&data)
                .ok()
                .and_then(|m| m.subparts.first().and_then(|p| p.get_body().ok()))
                .unwrap_or_default();
            if let Some(pos) = text.find("/reset-password/") {
                token = Some(text[pos + 16..pos + 16 + 43].to_owned());
            }
        }
        if token.is_some() {
            break;
        }
        tokio::task::yield_now().await;
    }
    let token = token.expect("the reset mail was written");
    let r = app
        .call(
            &app.client(),
            "reset_password",
            &[("token", &token), ("password", "a new password for b")],
        )
        .await;
    assert!(accepted(&r), "{}", r.status());
    token
}

type Extra = &'static [(&'static str, &'static str)];

/// How a route is probed.
enum Probe {
    /// A server function taking B's object id in `field`: B's id and a random
    /// id must get the same 404.
    ForeignId {
        field: &'static str,
        b_id: fn(&World) -> String,
        extra: Extra,
    },
    /// A server function or page taking a link token: B's dead token and a
    /// random token must get the same answer.
    ForeignToken {
        field: &'static str,
        b_token: fn(&World) -> String,
        extra: Extra,
    },
    /// No object id: the answer to A must not contain anything of B's. The
    /// form fields carry B's org id where a client could try to smuggle it in (T3).
    Scoped {
        form: fn(&World) -> Vec<(&'static str, String)>,
    },
}

fn matrix() -> BTreeMap<String, Probe> {
    use Probe::*;
    let none = || Scoped { form: |_| vec![] };
    let mut m: BTreeMap<String, Probe> = BTreeMap::new();
    let mut add = |k: &str, p: Probe| {
        m.insert(k.to_owned(), p);
    };
    for page in [
        "/",
        "/login",
        "/signup",
        "/services",
        "/vendors",
        "/follow-ups",
        "/incidents",
        "/reports",
        "/settings",
        "/account",
    ] {
        add(&format!("GET {page}"), none());
    }
    add(
        "GET /invite/{token}",
        ForeignToken {
            field: "token",
            b_token: |w| w.b_revoked_token.clone(),
            extra: &[],
        },
    );
    add("GET /health", none());
    add("GET /pkg/{*file}", none());
    add("GET /favicon.svg", none());
    add("GET /robots.txt", none());
    add(
        "POST /api/switch_org",
        ForeignId {
            field: "org_id",
            b_id: |w| w.b_org.clone(),
            extra: &[],
        },
    );
    add(
        "POST /api/remove_member",
        ForeignId {
            field: "membership_id",
            b_id: |w| w.b_editor_membership.clone(),
            extra: &[],
        },
    );
    add(
        "POST /api/set_member_role",
        ForeignId {
            field: "membership_id",
            b_id: |w| w.b_owner_membership.clone(),
            extra: &[("role", "viewer")],
        },
    );
    add(
        "POST /api/revoke_invite",
        ForeignId {
            field: "invite_id",
            b_id: |w| w.b_pending_invite.clone(),
            extra: &[],
        },
    );
    add(
        "POST /api/invite_info",
        ForeignToken {
            field: "token",
            b_token: |w| w.b_revoked_token.clone(),
            extra: &[],
        },
    );
    add(
        "POST /api/accept_invite",
        ForeignToken {
            field: "token",
            b_token: |w| w.b_used_token.clone(),
            extra: &[],
        },
    );
    add(
        "POST /api/sign_up_with_invite",
        ForeignToken {
            field: "token",
            b_token: |w| w.b_used_token.clone(),
            extra: &[("name", "Mallory"), ("password", PASSWORD)],
        },
    );
    add(
        "POST /api/settings_data",
        Scoped {
            form: |w| vec![("org_id", w.b_org.clone())],
        },
    );
    add(
        "POST /api/create_invite",
        Scoped {
            form: |w| {
                vec![
                    ("email", "smuggled@alpha.example".into()),
                    ("role", "viewer".into()),
                    ("org_id", w.b_org.clone()),
                ]
            },
        },
    );
    add(
        "POST /api/create_org",
        Scoped {
            form: |w| {
                vec![
                    ("org_name", "Alpha Two".into()),
                    ("org_id", w.b_org.clone()),
                ]
            },
        },
    );
    add(
        "POST /api/set_language",
        Scoped {
            form: |w| vec![("lang", "de".into()), ("org_id", w.b_org.clone())],
        },
    );
    add(
        "POST /api/change_password",
        Scoped {
            form: |_| {
                vec![
                    ("current_password", "wrong wrong wrong".into()),
                    ("new_password", "irrelevant here".into()),
                ]
            },
        },
    );
    add(
        "POST /api/sign_in",
        Scoped {
            form: |_| {
                vec![
                    ("email", "owner@beta.example".into()),
                    ("password", "not the password".into()),
                ]
            },
        },
    );
    add(
        "POST /api/sign_up",
        Scoped {
            form: |_| {
                vec![
                    ("email", "owner@beta.example".into()),
                    ("password", PASSWORD.into()),
                    ("name", "X".into()),
                    ("org_name", "Beta Holdings".into()),
                ]
            },
        },
    );
    add("POST /api/sign_out", Scoped { form: |_| vec![] });
    add("GET /forgot-password", none());
    add(
        "GET /reset-password/{token}",
        ForeignToken {
            field: "token",
            b_token: |w| w.b_used_reset_token.clone(),
            extra: &[],
        },
    );
    add(
        "POST /api/request_password_reset",
        Scoped {
            form: |_| vec![("email", "owner@beta.example".into())],
        },
    );
    add(
        "POST /api/password_reset_info",
        ForeignToken {
            field: "token",
            b_token: |w| w.b_used_reset_token.clone(),
            extra: &[],
        },
    );
    add(
        "POST /api/reset_password",
        ForeignToken {
            field: "token",
            b_token: |w| w.b_used_reset_token.clone(),
            extra: &[("password", "mallory's password")],
        },
    );
    add(
        "POST /api/send_test_mail",
        Scoped {
            form: |w| vec![("org_id", w.b_org.clone())],
        },
    );
    add(
        "POST /api/retry_mail",
        ForeignId {
            field: "mail_id",
            b_id: |w| w.b_mail.clone(),
            extra: &[],
        },
    );
    m
}

/// The answer's status and body, with the per-response nonce blanked out.
async fn answer(r: reqwest::Response) -> (u16, String) {
    let status = r.status().as_u16();
    let nonce = r
        .headers()
        .get("content-security-policy")
        .and_then(|v| v.to_str().ok())
        .and_then(|csp| csp.split("'nonce-").nth(1))
        .and_then(|s| s.split('\'').next())
        .unwrap_or("-")
        .to_owned();
    (status, r.text().await.unwrap().replace(&nonce, "NONCE"))
}

async fn call(w: &World, method: &str, path: &str, form: &[(&str, String)]) -> (u16, String) {
    let app = &w.app;
    let r = if method == "GET" {
        let path = path.replace("{*file}", "aivet.css");
        w.a.get(app.url(&path))
            .header("accept", "text/html")
            .send()
            .await
            .unwrap()
    } else {
        w.a.post(app.url(path)).form(form).send().await.unwrap()
    };
    answer(r).await
}

fn with_extra(field: &'static str, value: String, extra: Extra) -> Vec<(&'static str, String)> {
    let mut form = vec![(field, value)];
    form.extend(extra.iter().map(|(k, v)| (*k, v.to_string())));
    form
}

crate::on_both!(every_route_treats_foreign_ids_like_missing_ones);

async fn every_route_treats_foreign_ids_like_missing_ones(b: Db) {
    let Some(w) = world(b).await else { return };
    let matrix = matrix();
    let routes: Vec<String> = aivet_server::routes::inventory()
        .into_iter()
        .map(|(m, p)| format!("{m} {p}"))
        .collect();
    let missing: Vec<&String> = routes
        .iter()
        .filter(|r| !matrix.contains_key(r.as_str()))
        .collect();
    assert!(
        missing.is_empty(),
        "routes without a cross-tenant matrix entry: {missing:?}"
    );
    let stale: Vec<&String> = matrix.keys().filter(|k| !routes.contains(k)).collect();
    assert!(
        stale.is_empty(),
        "matrix entries for routes that no longer exist: {stale:?}"
    );

    let markers = b_markers(&w);
    let random = uuid::Uuid::new_v4().to_string();
    let random_token = "A".repeat(43);
    // sign_out last: it ends A's session.
    let mut order: Vec<(&String, &Probe)> = matrix.iter().collect();
    order.sort_by_key(|(k, _)| k.ends_with("sign_out"));
    for (key, probe) in order {
        let (method, path) = key.split_once(' ').unwrap();
        match probe {
            Probe::ForeignId { field, b_id, extra } => {
                let foreign = call(&w, method, path, &with_extra(field, b_id(&w), extra)).await;
                let missing =
                    call(&w, method, path, &with_extra(field, random.clone(), extra)).await;
                assert_eq!(foreign.0, 404, "{key} with B's id: {foreign:?}");
                assert_eq!(
                    foreign, missing,
                    "{key}: B's id must look exactly like a missing one"
                );
            }
            Probe::ForeignToken {
                field,
                b_token,
                extra,
            } => {
                let (foreign, missing) = if method == "GET" {
                    (
                        call(&w, method, &path.replace("{token}", &b_token(&w)), &[]).await,
                        call(&w, method, &path.replace("{token}", &random_token), &[]).await,
                    )
                } else {
                    (
                        call(&w, method, path, &with_extra(field, b_token(&w), extra)).await,
                        call(
                            &w,
                            method,
                            path,
                            &with_extra(field, random_token.clone(), extra),
                        )
                        .await,
                    )
                };
                assert_eq!(
                    foreign, missing,
                    "{key}: B's dead token must look exactly like a random one"
                );
                for m in &markers {
                    assert!(!foreign.1.contains(m.as_str()), "{key} shows B's {m}");
                }
            }
            Probe::Scoped { form } => {
                let (status, body) = call(&w, method, path, &form(&w)).await;
                assert!(status < 500, "{key}: {status} {body}");
                for m in &markers {
                    assert!(!body.contains(m.as_str()), "{key} shows B's {m}: {body}");
                }
            }
        }
    }

    // B is unchanged, and what A wrote landed in A (T3).
    let store = &w.app.services.store;
    let now = w.app.clock.now_for_tests();
    let b_owner = store
        .credentials(&aivet_domain::Email::parse("owner@beta.example").unwrap())
        .await
        .unwrap()
        .unwrap();
    let b_tenant = store
        .tenant_for(b_owner.user_id, w.b_org.parse().unwrap())
        .await
        .unwrap();
    let members: Vec<String> = store
        .members(&b_tenant)
        .await
        .unwrap()
        .into_iter()
        .map(|m| format!("{} {}", m.email, m.role))
        .collect();
    assert_eq!(
        members,
        vec!["editor@beta.example editor", "owner@beta.example owner"]
    );
    let invites: Vec<String> = store
        .pending_invites(&b_tenant, now)
        .await
        .unwrap()
        .into_iter()
        .map(|i| i.email)
        .collect();
    assert_eq!(invites, vec!["pending@beta.example"]);
    assert_eq!(store.org(&b_tenant).await.unwrap().name, "Beta Holdings");
    let a_owner = store
        .credentials(&aivet_domain::Email::parse("owner@alpha.example").unwrap())
        .await
        .unwrap()
        .unwrap();
    let a_tenant = store
        .tenant_for(a_owner.user_id, w.a_org.parse().unwrap())
        .await
        .unwrap();
    let a_invites: Vec<String> = store
        .pending_invites(&a_tenant, now)
        .await
        .unwrap()
        .into_iter()
        .map(|i| i.email)
        .collect();
    assert_eq!(
        a_invites,
        vec!["smuggled@alpha.example"],
        "the invitation landed in A, not B"
    );
    let a_orgs: Vec<String> = store
        .orgs_of_user(a_owner.user_id)
        .await
        .unwrap()
        .into_iter()
        .map(|o| o.name)
        .collect();
    assert_eq!(a_orgs, vec!["Alpha Consulting", "Alpha Two"]);
}
