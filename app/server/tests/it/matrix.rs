//! The cross-tenant matrix (shared/SECURITY.md T1–T3).
//!
//! Built from the server's own route list: pages, server functions and plain
//! routes. As a member of organisation A, every route is called with B's ids
//! and with random ids; both must get exactly the same answer, B's data must
//! not appear, and B's data must be unchanged afterwards. A route without an
//! entry here fails the test, and so does an entry for a route that is gone.

use crate::helpers::*;
use crate::inventory::{create_service, create_vendor};
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
    a_vendor: String,
    b_vendor: String,
    b_contact: String,
    b_service: String,
    b_data_class: String,
    /// A request B sent (open), and the link of another one B withdrew.
    b_request: String,
    b_dead_answer_token: String,
    b_attachment: String,
    b_job: String,
    b_follow_up: String,
    /// B's calendar feed link that a new one replaced (`….ics`).
    b_old_calendar: String,
    /// B's incident, linked to B's service.
    b_incident: String,
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
        "Beta Vendor GmbH".into(),
        "contact@beta.example".into(),
        "Beta Secret Bot".into(),
        "Beta Secrets".into(),
        "per-tenant cache at Beta".into(),
        w.b_vendor.clone(),
        w.b_contact.clone(),
        w.b_service.clone(),
        w.b_data_class.clone(),
        w.b_request.clone(),
        w.b_attachment.clone(),
        w.b_job.clone(),
        w.b_follow_up.clone(),
        "Beta Contact".into(),
        "beta-answers.pdf".into(),
        "Beta Incident".into(),
        w.b_incident.clone(),
    ]
}

/// B's inventory: a vendor with a contact, a service with a finding, a data class.
/// Returns (vendor, contact, service, data class) ids.
async fn b_inventory(app: &TestApp, b: &Client) -> (String, String, String, String) {
    let vendor = create_vendor(app, b, "Beta Vendor GmbH", "application").await;
    let r = app
        .call(
            b,
            "add_contact",
            &[
                ("vendor_id", vendor.as_str()),
                ("contact[name]", "Beta Contact"),
                ("contact[email]", "contact@beta.example"),
                ("contact[lang]", "de"),
                ("contact[role]", "dpo"),
            ],
        )
        .await;
    assert!(accepted(&r));
    let detail: serde_json::Value = app
        .call(b, "vendor_detail", &[("vendor_id", vendor.as_str())])
        .await
        .json()
        .await
        .unwrap();
    let contact = detail["contacts"][0]["id"].as_str().unwrap().to_owned();
    let r = app
        .call(
            b,
            "save_data_class",
            &[("name", "Beta Secrets"), ("personal", "true")],
        )
        .await;
    assert!(accepted(&r));
    let classes: serde_json::Value = app
        .call(b, "data_classes_data", &[])
        .await
        .json()
        .await
        .unwrap();
    let class = classes
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"] == "Beta Secrets")
        .unwrap()["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let service = create_service(
        app,
        b,
        &[
            ("form[name]", "Beta Secret Bot"),
            ("form[vendor_id]", vendor.as_str()),
            ("form[data_classes][0]", class.as_str()),
        ],
    )
    .await;
    let r = app
        .call(
            b,
            "save_finding",
            &[
                ("service_id", service.as_str()),
                ("finding[topic]", "separation"),
                ("finding[status]", "stated"),
                ("finding[summary]", "per-tenant cache at Beta"),
            ],
        )
        .await;
    assert!(accepted(&r));
    (vendor, contact, service, class)
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
    let (b_vendor, b_contact, b_service, b_data_class) = b_inventory(&app, &b_owner).await;
    let a_vendor = create_vendor(&app, &a, "Alpha Vendor", "application").await;
    let (b_request, b_dead_answer_token) = b_requests(&app, &b_owner, &b_service, &b_contact).await;
    let (s, _) = crate::questions::upload(
        &app,
        &b_owner,
        &b_request,
        ("beta-answers.pdf", b"%PDF-beta"),
    )
    .await;
    assert_eq!(s, 303);
    let detail: serde_json::Value = app
        .call(
            &b_owner,
            "request_detail",
            &[("request_id", b_request.as_str())],
        )
        .await
        .json()
        .await
        .unwrap();
    let b_attachment = detail["attachments"][0]["id"].as_str().unwrap().to_owned();
    let b_job = failed_job(&app, "owner@beta.example").await;
    let board: serde_json::Value = app
        .call(&b_owner, "follow_ups_data", &[])
        .await
        .json()
        .await
        .unwrap();
    let b_follow_up = board["sections"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|s| s[1].as_array().unwrap().clone())
        .next()
        .expect("B's request has a follow-up")["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let mut links = Vec::new();
    for _ in 0..2 {
        assert!(accepted(&app.call(&b_owner, "rotate_calendar", &[]).await));
        let board: serde_json::Value = app
            .call(&b_owner, "follow_ups_data", &[])
            .await
            .json()
            .await
            .unwrap();
        links.push(board["calendar_link"].as_str().unwrap().to_owned());
    }
    let b_old_calendar = links[0].rsplit('/').next().unwrap().to_owned();
    let b_incident = crate::incidents::record(
        &app,
        &b_owner,
        &[
            ("form[title]", "Beta Incident"),
            ("form[services][0]", b_service.as_str()),
            ("form[we_aware_at]", "2026-11-30T08:00"),
            ("form[personal_data]", "true"),
        ],
    )
    .await;
    Some(World {
        b_incident,
        b_old_calendar,
        b_follow_up,
        b_job,
        b_attachment,
        b_request,
        b_dead_answer_token,
        a_vendor,
        b_vendor,
        b_contact,
        b_service,
        b_data_class,
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

/// B asks its vendor twice and withdraws the second link. Returns the open
/// request's id and the withdrawn link's token.
async fn b_requests(app: &TestApp, b: &Client, service: &str, contact: &str) -> (String, String) {
    for n in 0..2 {
        let key = format!("matrix-send-key-number-{n}");
        let r = app
            .call(
                b,
                "send_questions",
                &[
                    ("service_id", service),
                    ("form[send_key]", key.as_str()),
                    ("form[contacts][0]", contact),
                    ("form[deadline]", "2026-12-14"),
                ],
            )
            .await;
        assert!(accepted(&r), "{}", r.status());
    }
    let o: serde_json::Value = app
        .call(b, "questions_overview", &[("service_id", service)])
        .await
        .json()
        .await
        .unwrap();
    let ids: Vec<String> = o["requests"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["id"].as_str().unwrap().to_owned())
        .collect();
    let r = app
        .call(b, "revoke_request", &[("request_id", ids[1].as_str())])
        .await;
    assert!(accepted(&r));
    let mut dead = None;
    for t in tokens_in_outbox(app, "/answer/", 2).await {
        if app.get_text(&app.client(), &format!("/answer/{t}")).await.0 == 404 {
            dead = Some(t);
        }
    }
    (ids[0].clone(), dead.expect("the withdrawn link is dead"))
}

/// B's owner asks for a reset link, takes it from the mail and uses it.
async fn used_reset_token(app: &TestApp, email: &str) -> String {
    let r = app
        .call(&app.client(), "request_password_reset", &[("email", email)])
        .await;
    assert!(accepted(&r));
    let token = tokens_in_outbox(app, "/reset-password/", 1).await.remove(0);
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

/// Further form fields of a probe (may use the world's ids).
type Extra = fn(&World) -> Vec<(&'static str, String)>;

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
    /// A page whose path holds B's object id (`{id}`): B's id and a random
    /// id must get the same answer.
    ForeignPath { b_id: fn(&World) -> String },
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
        "/allowed",
        "/incidents",
        "/reports",
        "/settings",
        "/account",
        "/organisations",
        "/services/new",
        "/services/import",
        "/services/quick",
        "/vendors/new",
        "/services/export.csv",
        "/services/import-template.csv",
        "/incidents/new",
        "/incidents/export.csv",
    ] {
        add(&format!("GET {page}"), none());
    }
    add(
        "GET /invite/{token}",
        ForeignToken {
            field: "token",
            b_token: |w| w.b_revoked_token.clone(),
            extra: |_| vec![],
        },
    );
    add("GET /health", none());
    add("GET /pkg/{*file}", none());
    add("GET /favicon.svg", none());
    add("GET /favicon.ico", none());
    add("GET /robots.txt", none());
    add(
        "POST /api/switch_org",
        ForeignId {
            field: "org_id",
            b_id: |w| w.b_org.clone(),
            extra: |_| vec![],
        },
    );
    add(
        "POST /api/remove_member",
        ForeignId {
            field: "membership_id",
            b_id: |w| w.b_editor_membership.clone(),
            extra: |_| vec![],
        },
    );
    add(
        "POST /api/set_member_role",
        ForeignId {
            field: "membership_id",
            b_id: |w| w.b_owner_membership.clone(),
            extra: |_| vec![("role", "viewer".into())],
        },
    );
    add(
        "POST /api/revoke_invite",
        ForeignId {
            field: "invite_id",
            b_id: |w| w.b_pending_invite.clone(),
            extra: |_| vec![],
        },
    );
    add(
        "POST /api/invite_info",
        ForeignToken {
            field: "token",
            b_token: |w| w.b_revoked_token.clone(),
            extra: |_| vec![],
        },
    );
    add(
        "POST /api/accept_invite",
        ForeignToken {
            field: "token",
            b_token: |w| w.b_used_token.clone(),
            extra: |_| vec![],
        },
    );
    add(
        "POST /api/sign_up_with_invite",
        ForeignToken {
            field: "token",
            b_token: |w| w.b_used_token.clone(),
            extra: |_| vec![("name", "Mallory".into()), ("password", PASSWORD.into())],
        },
    );
    add(
        "POST /api/my_org_list",
        Scoped {
            form: |w| vec![("q", String::new()), ("org_id", w.b_org.clone())],
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
            extra: |_| vec![],
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
            extra: |_| vec![],
        },
    );
    add(
        "POST /api/reset_password",
        ForeignToken {
            field: "token",
            b_token: |w| w.b_used_reset_token.clone(),
            extra: |_| vec![("password", "mallory's password".into())],
        },
    );
    add(
        "POST /api/set_time_zone",
        Scoped {
            form: |w| {
                vec![
                    ("time_zone", "Asia/Tokyo".into()),
                    ("org_id", w.b_org.clone()),
                ]
            },
        },
    );
    add(
        "POST /api/follow_ups_data",
        Scoped {
            form: |w| {
                vec![
                    ("filter[vendor]", w.b_vendor.clone()),
                    ("org_id", w.b_org.clone()),
                ]
            },
        },
    );
    add(
        "POST /api/follow_up_policy_data",
        Scoped {
            form: |w| vec![("org_id", w.b_org.clone())],
        },
    );
    add(
        "POST /api/save_follow_up_policy",
        Scoped {
            form: |w| {
                vec![
                    ("form[reminders]", String::new()),
                    ("form[max_reminders]", "2".into()),
                    ("form[review_days]", "3".into()),
                    ("form[reassess_months]", "6".into()),
                    ("form[expiry_notice_days]", "10".into()),
                    ("org_id", w.b_org.clone()),
                ]
            },
        },
    );
    add(
        "POST /api/move_follow_up",
        ForeignId {
            field: "follow_up_id",
            b_id: |w| w.b_follow_up.clone(),
            extra: |_| {
                vec![
                    ("form[due_on]", "2027-01-15".into()),
                    ("form[note]", "moved by A".into()),
                ]
            },
        },
    );
    add(
        "POST /api/finish_follow_up",
        ForeignId {
            field: "follow_up_id",
            b_id: |w| w.b_follow_up.clone(),
            extra: |_| vec![],
        },
    );
    add(
        "POST /api/remind_now",
        ForeignId {
            field: "request_id",
            b_id: |w| w.b_request.clone(),
            extra: |_| vec![],
        },
    );
    add(
        "POST /api/set_request_reminders",
        ForeignId {
            field: "request_id",
            b_id: |w| w.b_request.clone(),
            extra: |_| vec![("on", "off".into())],
        },
    );
    add(
        "GET /calendar/{token}",
        ForeignToken {
            field: "token",
            b_token: |w| w.b_old_calendar.clone(),
            extra: |_| vec![],
        },
    );
    add(
        "GET /follow-ups/{id}/calendar.ics",
        ForeignPath {
            b_id: |w| w.b_follow_up.clone(),
        },
    );
    for key in [
        "POST /api/set_digest",
        "POST /api/rotate_calendar",
        "POST /api/stop_calendar",
    ] {
        add(
            key,
            Scoped {
                form: |w| vec![("digest", "daily".into()), ("org_id", w.b_org.clone())],
            },
        );
    }
    add(
        "POST /api/retry_job",
        ForeignId {
            field: "job_id",
            b_id: |w| w.b_job.clone(),
            extra: |_| vec![],
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
            extra: |_| vec![],
        },
    );
    for page in ["/services/{id}", "/services/{id}/edit"] {
        add(
            &format!("GET {page}"),
            ForeignPath {
                b_id: |w| w.b_service.clone(),
            },
        );
    }
    add(
        "GET /vendors/{id}/ask",
        ForeignPath {
            b_id: |w| w.b_vendor.clone(),
        },
    );
    add(
        "GET /services/{id}/ask",
        ForeignPath {
            b_id: |w| w.b_service.clone(),
        },
    );
    add(
        "GET /requests/{id}",
        ForeignPath {
            b_id: |w| w.b_request.clone(),
        },
    );
    add(
        "GET /attachments/{id}",
        ForeignPath {
            b_id: |w| w.b_attachment.clone(),
        },
    );
    add(
        "POST /requests/{id}/attachments",
        ForeignPath {
            b_id: |w| w.b_request.clone(),
        },
    );
    for key in ["GET /answer/{token}", "POST /answer/{token}"] {
        add(
            key,
            ForeignToken {
                field: "token",
                b_token: |w| w.b_dead_answer_token.clone(),
                extra: |_| {
                    vec![
                        ("answer0", "written by A".into()),
                        ("name", "Mallory".into()),
                        ("email", "mallory@alpha.example".into()),
                        ("action", "submit".into()),
                    ]
                },
            },
        );
    }
    for page in ["/incidents/{id}", "/incidents/{id}/edit"] {
        add(
            &format!("GET {page}"),
            ForeignPath {
                b_id: |w| w.b_incident.clone(),
            },
        );
    }
    let incident_probe = |extra: Extra| ForeignId {
        field: "incident_id",
        b_id: |w| w.b_incident.clone(),
        extra,
    };
    add("POST /api/incident_detail", incident_probe(|_| vec![]));
    add("POST /api/incident_form_data", incident_probe(|_| vec![]));
    add(
        "POST /api/save_incident",
        incident_probe(|w| {
            vec![
                ("form[title]", "Renamed by A".into()),
                ("form[services][0]", w.b_service.clone()),
                ("form[we_aware_at]", "2026-11-30T08:00".into()),
            ]
        }),
    );
    add(
        "POST /api/decide_art33",
        incident_probe(|_| {
            vec![
                ("decision[decision]", "not_required".into()),
                ("decision[rationale]", "decided by A".into()),
            ]
        }),
    );
    add(
        "POST /api/decide_art34",
        incident_probe(|_| {
            vec![
                ("decision[decision]", "not_required".into()),
                ("decision[rationale]", "decided by A".into()),
            ]
        }),
    );
    add(
        "POST /api/add_incident_note",
        incident_probe(|_| vec![("note", "written by A".into())]),
    );
    add(
        "POST /api/set_incident_state",
        incident_probe(|_| vec![("state", "closed".into())]),
    );
    for page in ["/vendors/{id}", "/vendors/{id}/edit"] {
        add(
            &format!("GET {page}"),
            ForeignPath {
                b_id: |w| w.b_vendor.clone(),
            },
        );
    }
    let org_only = || Scoped {
        form: |w| vec![("org_id", w.b_org.clone())],
    };
    for f in [
        "dashboard_data",
        "vendor_list",
        "service_list",
        "data_classes_data",
        "question_set_data",
        "reports_data",
        "clearance_guide_data",
        "clearance_policy_data",
        "review_clearance_policy",
        "incident_list",
        "advisories_data",
        "quick_entry_data",
    ] {
        add(&format!("POST /api/{f}"), org_only());
    }
    let vendor_probe = |extra: Extra| ForeignId {
        field: "vendor_id",
        b_id: |w| w.b_vendor.clone(),
        extra,
    };
    let service_probe = |extra: Extra| ForeignId {
        field: "service_id",
        b_id: |w| w.b_service.clone(),
        extra,
    };
    add("POST /api/vendor_detail", vendor_probe(|_| vec![]));
    add("POST /api/clearance_data", service_probe(|_| vec![]));
    add("POST /api/service_advisories", service_probe(|_| vec![]));
    add(
        "POST /api/import_advisories",
        Scoped {
            form: |w| {
                vec![
                    (
                        "osv",
                        r#"{"id": "ALPHA-1", "affected": [{"package": {"ecosystem": "PyPI", "name": "vllm"}, "ranges": [{"type": "ECOSYSTEM", "events": [{"introduced": "0"}]}]}]}"#.into(),
                    ),
                    ("org_id", w.b_org.clone()),
                ]
            },
        },
    );
    // No id in it: what A uploads lands in A (a form without a file is
    // refused before anything is read).
    add("POST /settings/advisories/upload", none());
    // B's class on B's service; the probe also swaps in a random class id.
    add(
        "POST /api/decide_clearance",
        ForeignId {
            field: "data_class_id",
            b_id: |w| w.b_data_class.clone(),
            extra: |w| {
                vec![
                    ("service_id", w.b_service.clone()),
                    ("decision[clearance]", "allowed".into()),
                ]
            },
        },
    );
    add("POST /api/ask_vendor_data", vendor_probe(|_| vec![]));
    add("POST /api/delete_vendor", vendor_probe(|_| vec![]));
    add(
        "POST /api/archive_vendor",
        vendor_probe(|_| vec![("archived", "true".into())]),
    );
    add(
        "POST /api/save_vendor",
        vendor_probe(|_| {
            vec![
                ("form[name]", "Renamed by A".into()),
                ("form[role]", "integrator".into()),
            ]
        }),
    );
    add(
        "POST /api/add_contact",
        vendor_probe(|_| {
            vec![
                ("contact[name]", "Mallory".into()),
                ("contact[email]", "mallory@alpha.example".into()),
                ("contact[lang]", "en".into()),
                ("contact[role]", "other".into()),
            ]
        }),
    );
    add(
        "POST /api/set_primary_contact",
        ForeignId {
            field: "contact_id",
            b_id: |w| w.b_contact.clone(),
            extra: |_| vec![],
        },
    );
    add(
        "POST /api/remove_contact",
        ForeignId {
            field: "contact_id",
            b_id: |w| w.b_contact.clone(),
            extra: |_| vec![],
        },
    );
    add("POST /api/service_detail", service_probe(|_| vec![]));
    add("POST /api/service_page", service_probe(|_| vec![]));
    add("POST /api/service_form_data", service_probe(|_| vec![]));
    add("POST /api/delete_service", service_probe(|_| vec![]));
    add(
        "POST /api/archive_service",
        service_probe(|_| vec![("archived", "true".into())]),
    );
    add(
        "POST /api/save_service",
        service_probe(|w| {
            vec![
                ("form[name]", "Renamed by A".into()),
                ("form[vendor_id]", w.a_vendor.clone()),
            ]
        }),
    );
    add(
        "POST /api/save_finding",
        service_probe(|_| {
            vec![
                ("finding[topic]", "separation".into()),
                ("finding[status]", "unknown".into()),
                ("finding[summary]", "overwritten by A".into()),
            ]
        }),
    );
    add(
        "POST /api/save_question_set",
        Scoped {
            form: |w| {
                vec![
                    ("base_version", "0".into()),
                    ("set[new_text]", "Alpha's own question?".into()),
                    ("org_id", w.b_org.clone()),
                ]
            },
        },
    );
    add("POST /api/questions_overview", service_probe(|_| vec![]));
    add("POST /api/ask_data", service_probe(|_| vec![]));
    let send_fields: Extra = |w| {
        vec![
            ("form[send_key]", "matrix-send-key-from-alpha".into()),
            ("form[contacts][0]", w.b_contact.clone()),
            ("form[deadline]", "2026-12-20".into()),
        ]
    };
    add("POST /api/preview_questions", service_probe(send_fields));
    add("POST /api/send_questions", service_probe(send_fields));
    add(
        "POST /api/decide_assessment",
        service_probe(|_| vec![("decision[decision]", "not_cleared".into())]),
    );
    let request_probe = |extra: Extra| ForeignId {
        field: "request_id",
        b_id: |w| w.b_request.clone(),
        extra,
    };
    add("POST /api/request_detail", request_probe(|_| vec![]));
    add("POST /api/revoke_request", request_probe(|_| vec![]));
    add("POST /api/reopen_request", request_probe(|_| vec![]));
    add(
        "POST /api/review_answer",
        request_probe(|_| {
            vec![
                ("position", "0".into()),
                ("review[review]", "missing".into()),
                ("review[note]", "overwritten by A".into()),
            ]
        }),
    );
    add(
        "POST /api/ask_again",
        request_probe(|_| {
            vec![
                ("send_key", "matrix-again-key-from-alpha".into()),
                ("deadline", "2026-12-20".into()),
            ]
        }),
    );
    add(
        "POST /api/enter_answers",
        request_probe(|_| {
            vec![
                ("answers[answers][0]", "written by A".into()),
                ("answers[received_on]", "2026-11-29".into()),
            ]
        }),
    );
    let class_probe = |extra: Extra| ForeignId {
        field: "data_class_id",
        b_id: |w| w.b_data_class.clone(),
        extra,
    };
    add(
        "POST /api/save_data_class",
        class_probe(|_| vec![("name", "Renamed by A".into())]),
    );
    add("POST /api/delete_data_class", class_probe(|_| vec![]));
    add(
        "POST /reports/download",
        ForeignId {
            field: "service",
            b_id: |w| w.b_service.clone(),
            extra: |_| {
                vec![
                    ("format", "pdf".into()),
                    ("lang", "en".into()),
                    ("scope", "selection".into()),
                ]
            },
        },
    );
    add(
        "POST /api/import_preview",
        Scoped {
            form: |w| {
                vec![
                    (
                        "csv",
                        "name,vendor\nAlpha Imported,Alpha Import Vendor\n".into(),
                    ),
                    ("org_id", w.b_org.clone()),
                ]
            },
        },
    );
    // (A naming a vendor that B has: `quick_entry.rs`.)
    add(
        "POST /api/save_quick_entry",
        Scoped {
            form: |w| {
                vec![
                    ("form[rows][0][name]", "Alpha Quick".into()),
                    ("form[rows][0][vendor]", "Alpha Quick Vendor".into()),
                    ("form[rows][0][integrator]", "Alpha Quick Integrator".into()),
                    ("form[picks][0][code]", "chatgpt".into()),
                    ("form[picks][0][add]", "yes".into()),
                    ("org_id", w.b_org.clone()),
                ]
            },
        },
    );
    add(
        "POST /api/import_commit",
        Scoped {
            form: |w| {
                vec![
                    (
                        "csv",
                        "name,vendor\nAlpha Imported,Alpha Import Vendor\n".into(),
                    ),
                    ("org_id", w.b_org.clone()),
                ]
            },
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

fn with_extra(
    w: &World,
    field: &'static str,
    value: String,
    extra: Extra,
) -> Vec<(&'static str, String)> {
    let mut form = vec![(field, value)];
    form.extend(extra(w));
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
    // create_org next to last: it moves A's session into the new
    // organisation, where A's vendor does not exist. sign_out last: it ends
    // A's session.
    let mut order: Vec<(&String, &Probe)> = matrix.iter().collect();
    order.sort_by_key(|(k, _)| (k.ends_with("sign_out"), k.ends_with("create_org")));
    for (key, probe) in order {
        let (method, path) = key.split_once(' ').unwrap();
        match probe {
            Probe::ForeignId { field, b_id, extra } => {
                let foreign =
                    call(&w, method, path, &with_extra(&w, field, b_id(&w), *extra)).await;
                let missing = call(
                    &w,
                    method,
                    path,
                    &with_extra(&w, field, random.clone(), *extra),
                )
                .await;
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
                let (foreign, missing) = if path.contains("{token}") {
                    (
                        call(
                            &w,
                            method,
                            &path.replace("{token}", &b_token(&w)),
                            &extra(&w),
                        )
                        .await,
                        call(
                            &w,
                            method,
                            &path.replace("{token}", &random_token),
                            &extra(&w),
                        )
                        .await,
                    )
                } else {
                    (
                        call(
                            &w,
                            method,
                            path,
                            &with_extra(&w, field, b_token(&w), *extra),
                        )
                        .await,
                        call(
                            &w,
                            method,
                            path,
                            &with_extra(&w, field, random_token.clone(), *extra),
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
            Probe::ForeignPath { b_id } => {
                let foreign = call(&w, method, &path.replace("{id}", &b_id(&w)), &[]).await;
                let missing = call(&w, method, &path.replace("{id}", &random), &[]).await;
                assert_eq!(foreign.0, 404, "{key} with B's id: {foreign:?}");
                assert_eq!(
                    foreign, missing,
                    "{key}: B's id must look exactly like a missing one"
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
    let b_org = store.org(&b_tenant).await.unwrap();
    assert_eq!(b_org.name, "Beta Holdings");
    assert_eq!(
        b_org.time_zone.name(),
        "Europe/London",
        "B's time zone is B's to set"
    );
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
    let mut a_zones = Vec::new();
    for o in store.orgs_of_user(a_owner.user_id).await.unwrap() {
        let t = store.tenant_for(a_owner.user_id, o.org_id).await.unwrap();
        a_zones.push(t.zone().name());
    }
    assert!(
        a_zones.contains(&"Asia/Tokyo"),
        "A's time zone changed in one of A's organisations: {a_zones:?}"
    );

    // B's inventory is untouched; A's import landed in A.
    let b_service = store
        .service(&b_tenant, w.b_service.parse().unwrap())
        .await
        .unwrap();
    assert_eq!(b_service.service.name, "Beta Secret Bot");
    assert!(b_service.service.archived_at.is_none());
    assert_eq!(
        b_service.findings[0].summary.as_deref(),
        Some("per-tenant cache at Beta")
    );
    assert_eq!(b_service.data_classes.len(), 1);
    let b_vendor = store
        .vendor(&b_tenant, w.b_vendor.parse().unwrap())
        .await
        .unwrap();
    assert_eq!(b_vendor.name, "Beta Vendor GmbH");
    assert!(b_vendor.archived_at.is_none());
    let b_contacts = store.contacts(&b_tenant, b_vendor.id).await.unwrap();
    assert_eq!(b_contacts.len(), 1);
    let b_classes = store.data_classes(&b_tenant).await.unwrap();
    assert!(b_classes.iter().any(|c| c.name == "Beta Secrets"));
    assert_eq!(
        store.service_details(&b_tenant).await.unwrap().len(),
        1,
        "nothing imported into B"
    );
    let a_services: Vec<String> = store
        .service_details(&a_tenant)
        .await
        .unwrap()
        .into_iter()
        .map(|d| d.service.name)
        .collect();
    assert_eq!(
        a_services,
        vec!["Alpha Imported", "Alpha Quick", "ChatGPT"],
        "what A imported and added went into A"
    );

    // B's questions are untouched: not answered, reviewed, withdrawn or decided by A.
    let b_req = store
        .request(&b_tenant, w.b_request.parse().unwrap())
        .await
        .unwrap();
    assert_eq!(b_req.request.status.as_str(), "sent");
    assert!(b_req.request.revoked_at.is_none());
    assert!(
        b_req.request.reminders,
        "A did not switch B's reminders off"
    );
    assert_eq!(
        b_req.request.reminders_sent, 0,
        "A did not remind B's vendor"
    );
    assert!(b_req
        .items
        .iter()
        .all(|i| i.answer.is_none() && i.review.is_none()));
    let b_state = store
        .assessment(&b_tenant, w.b_service.parse().unwrap())
        .await
        .unwrap();
    assert_eq!(b_state.assessment.as_str(), "asked");
    let b_follow_ups = store
        .follow_ups(&b_tenant, &Default::default())
        .await
        .unwrap();
    assert!(
        b_follow_ups
            .iter()
            .any(|f| f.id.to_string() == w.b_follow_up && f.note.is_none() && f.sequence == 0),
        "B's follow-up is neither moved nor closed by A: {b_follow_ups:?}"
    );
    assert_eq!(
        store.follow_up_policy(&b_tenant).await.unwrap(),
        aivet_domain::follow_ups::Policy::default(),
        "B's policy is B's"
    );
    let b_jobs = store.org_job_problems(&b_tenant, 10).await.unwrap();
    assert_eq!(b_jobs.len(), 1);
    assert_eq!(
        (b_jobs[0].id.to_string(), b_jobs[0].status.as_str()),
        (w.b_job.clone(), "failed"),
        "B's failed job is not retried by A"
    );
    assert_eq!(
        store
            .service_requests(&b_tenant, w.b_service.parse().unwrap())
            .await
            .unwrap()
            .len(),
        2,
        "nothing sent in B's name"
    );
    assert_eq!(store.question_set(&b_tenant).await.unwrap().version, 0);
    assert_eq!(
        b_req.attachments.len(),
        1,
        "no file attached to B's request by A"
    );
    let a_set = store.question_set(&a_tenant).await.unwrap();
    assert_eq!(a_set.version, 1, "A's set change landed in A");
}
