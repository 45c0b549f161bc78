//! Accounts, sessions, organisations, invitations, roles and languages,
//! through the HTTP interface.

use crate::helpers::*;
use chrono::Duration;

crate::on_both!(
    password_reset_by_mail,
    sign_up_then_dashboard_then_sign_out,
    sign_in_issues_a_new_session_id,
    sessions_end_after_idle_and_absolute_time,
    passwords_are_argon2id_and_long_ones_work,
    change_password_ends_other_sessions,
    invite_link_adds_a_member,
    roles_are_enforced,
    removed_member_loses_access_at_once,
    switch_between_organisations,
    an_integrator_with_many_organisations_finds_them_by_name,
    language_follows_the_user,
);

async fn sign_up_then_dashboard_then_sign_out(b: Db) {
    let Some(app) = TestApp::spawn(b).await else {
        return;
    };
    let c = app.sign_up("kari@example.no", "Bærum Regnskap").await;
    let (status, body) = app.get_text(&c, "/").await;
    assert_eq!(status, 200);
    assert!(body.contains("Welcome, Kari."), "{body}");
    assert!(body.contains("Bærum Regnskap"));
    let (_, settings) = app.get_text(&c, "/settings").await;
    assert!(settings.contains("kari@example.no") && settings.contains("baerum-regnskap"));
    // How mail is delivered, in the reader's words (here: files in a folder).
    assert!(
        settings.contains("Saved as files in the folder"),
        "{settings}"
    );
    let r = app.call(&c, "set_language", &[("lang", "de")]).await;
    assert!(accepted(&r));
    let (_, settings) = app.get_text(&c, "/settings").await;
    assert!(settings.contains("Als Dateien im Ordner"));
    assert!(!settings.contains(">folder "), "no code words: {settings}");

    // Signed out: the same cookie no longer opens anything.
    let r = app.call(&c, "sign_out", &[]).await;
    assert!(accepted(&r));
    assert!(set_cookies(&r)
        .iter()
        .any(|s| s.starts_with("aivet_session=;") && s.contains("Max-Age=0")));
    let r = c.get(app.url("/")).send().await.unwrap();
    assert_eq!(r.status(), 302);
    assert_eq!(r.headers()["location"], "/login");

    // Duplicate sign-up is refused with a field error, in the user's language.
    let c2 = app.client();
    let r = c2
        .post(app.url("/api/sign_up"))
        .header("accept-language", "de")
        .form(&[
            ("email", "KARI@example.no"),
            ("password", PASSWORD),
            ("name", "K"),
            ("org_name", "X"),
        ])
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 422);
    let e: serde_json::Value = r.json().await.unwrap();
    assert_eq!(
        e["fields"][0],
        serde_json::json!(["email", "ErrEmailTaken"])
    );
}

async fn sign_in_issues_a_new_session_id(b: Db) {
    let Some(app) = TestApp::spawn(b).await else {
        return;
    };
    let first = app.sign_up("a@example.com", "A").await;
    let c = app.client();
    let r = app.sign_in(&c, "a@example.com", "wrong password!").await;
    assert_eq!(r.status(), 401);
    assert_eq!(
        r.json::<serde_json::Value>().await.unwrap()["msg"],
        "ErrBadCredentials"
    );
    let r = app.sign_in(&c, "nobody@example.com", PASSWORD).await;
    assert_eq!(
        r.status(),
        401,
        "unknown accounts answer exactly like wrong passwords"
    );
    let r1 = app.sign_in(&c, "A@Example.com", PASSWORD).await;
    let r2 = app.sign_in(&c, "a@example.com", PASSWORD).await;
    let id = |r: &reqwest::Response| {
        set_cookies(r)
            .into_iter()
            .find(|s| s.starts_with("aivet_session="))
            .unwrap()
    };
    let (s1, s2) = (id(&r1), id(&r2));
    assert_ne!(s1, s2, "every sign-in gets a new session id");
    assert_eq!(app.get_text(&c, "/").await.0, 200);
    assert_eq!(
        app.get_text(&first, "/").await.0,
        200,
        "other sessions stay"
    );
}

async fn sessions_end_after_idle_and_absolute_time(b: Db) {
    let Some(app) = TestApp::spawn(b).await else {
        return;
    };
    let c = app.sign_up("a@example.com", "A").await;
    app.clock.advance(Duration::minutes(29));
    assert_eq!(
        app.get_text(&c, "/").await.0,
        200,
        "29 idle minutes are fine"
    );
    app.clock.advance(Duration::minutes(29));
    assert_eq!(
        app.get_text(&c, "/").await.0,
        200,
        "the last request counts, not sign-in"
    );
    app.clock.advance(Duration::minutes(31));
    assert_eq!(
        app.get_text(&c, "/").await.0,
        302,
        "31 idle minutes end the session"
    );

    // Active all the time, the session still ends 12 hours after sign-in.
    let c = app.client();
    app.sign_in(&c, "a@example.com", PASSWORD).await;
    for _ in 0..35 {
        app.clock.advance(Duration::minutes(20));
        assert_eq!(app.get_text(&c, "/").await.0, 200);
    }
    app.clock.advance(Duration::minutes(20));
    assert_eq!(
        app.get_text(&c, "/").await.0,
        302,
        "absolute timeout after 12 hours"
    );
}

async fn passwords_are_argon2id_and_long_ones_work(b: Db) {
    let Some(app) = TestApp::spawn(b).await else {
        return;
    };
    let long = "ü".repeat(100) + " a passphrase of many words";
    let c = app.client();
    let r = app
        .call(
            &c,
            "sign_up",
            &[
                ("email", "l@example.com"),
                ("password", &long),
                ("name", "L"),
                ("org_name", "L"),
            ],
        )
        .await;
    assert!(accepted(&r));
    let hash = app
        .services
        .store
        .password_hash(
            app.services
                .store
                .credentials(&aivet_domain::Email::parse("l@example.com").unwrap())
                .await
                .unwrap()
                .unwrap()
                .user_id,
        )
        .await
        .unwrap();
    assert!(
        hash.starts_with("$argon2id$v=19$m=19456,t=2,p=1$"),
        "{hash}"
    );
    let c = app.client();
    let r = app.sign_in(&c, "l@example.com", &long).await;
    assert!(accepted(&r), "{}", r.status());
    let r = app
        .call(
            &app.client(),
            "sign_up",
            &[
                ("email", "s@example.com"),
                ("password", "short"),
                ("name", "S"),
                ("org_name", "S"),
            ],
        )
        .await;
    assert_eq!(r.status(), 422);
    assert_eq!(
        r.json::<serde_json::Value>().await.unwrap()["fields"][0],
        serde_json::json!(["password", "ErrPasswordTooShort"])
    );
}

async fn change_password_ends_other_sessions(b: Db) {
    let Some(app) = TestApp::spawn(b).await else {
        return;
    };
    let here = app.sign_up("a@example.com", "A").await;
    let there = app.client();
    app.sign_in(&there, "a@example.com", PASSWORD).await;
    let r = app
        .call(
            &here,
            "change_password",
            &[
                ("current_password", "not it at all"),
                ("new_password", "a brand new passphrase"),
            ],
        )
        .await;
    assert_eq!(r.status(), 422);
    assert_eq!(
        r.json::<serde_json::Value>().await.unwrap()["fields"][0],
        serde_json::json!(["current_password", "ErrPasswordWrong"])
    );
    let r = app
        .call(
            &here,
            "change_password",
            &[
                ("current_password", PASSWORD),
                ("new_password", "a brand new passphrase"),
            ],
        )
        .await;
    assert!(accepted(&r));
    assert_eq!(app.get_text(&here, "/").await.0, 200);
    assert_eq!(
        app.get_text(&there, "/").await.0,
        302,
        "the other session ended"
    );
    let c = app.client();
    let r = app
        .sign_in(&c, "a@example.com", "a brand new passphrase")
        .await;
    assert!(accepted(&r));
}

async fn invite_link_adds_a_member(b: Db) {
    let Some(app) = TestApp::spawn(b).await else {
        return;
    };
    let owner = app.sign_up("owner@example.com", "Acme").await;
    // The link is built from the configured base URL, whatever Host says.
    let r = owner
        .post(app.url("/api/create_invite"))
        .header("x-forwarded-host", "evil.example")
        .form(&[("email", "new@example.com"), ("role", "editor")])
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 200);
    let link = r.json::<serde_json::Value>().await.unwrap()["link"]
        .as_str()
        .unwrap()
        .to_owned();
    assert!(link.starts_with(&format!("{}/invite/", app.base)), "{link}");
    let path = link.strip_prefix(&app.base).unwrap().to_owned();
    let token = path.rsplit('/').next().unwrap().to_owned();

    // Opening the link, as a mail scanner would, changes nothing.
    let visitor = app.client();
    for _ in 0..3 {
        let head = visitor.head(app.url(&path)).send().await.unwrap();
        assert_eq!(head.status(), 200);
        let (status, body) = app.get_text(&visitor, &path).await;
        assert_eq!(status, 200);
        assert!(
            body.contains("Acme") && body.contains("new@example.com"),
            "{body}"
        );
    }
    let (_, settings) = app.get_text(&owner, "/settings").await;
    assert!(settings.contains("new@example.com"), "still pending");
    // Only the raw token's keyed hash is stored.
    if b == Db::Sqlite {
        let bytes = std::fs::read(app.db.url().trim_start_matches("sqlite://")).unwrap();
        let wal = std::fs::read(format!(
            "{}-wal",
            app.db.url().trim_start_matches("sqlite://")
        ))
        .unwrap_or_default();
        let hay = [bytes, wal].concat();
        assert!(
            !hay.windows(token.len()).any(|w| w == token.as_bytes()),
            "raw token in the database file"
        );
    }

    let r = app
        .call(
            &visitor,
            "sign_up_with_invite",
            &[("token", &token), ("name", "Nina"), ("password", "short")],
        )
        .await;
    assert_eq!(
        r.status(),
        422,
        "bad input is reported and nothing is used up"
    );
    let r = app
        .call(
            &visitor,
            "sign_up_with_invite",
            &[("token", &token), ("name", "Nina"), ("password", PASSWORD)],
        )
        .await;
    assert!(accepted(&r), "{}", r.status());
    let (_, dash) = app.get_text(&visitor, "/").await;
    assert!(dash.contains("Welcome, Nina.") && dash.contains("Acme"));
    let (_, settings) = app.get_text(&owner, "/settings").await;
    assert!(settings.contains("Nina") && settings.contains("No pending invitations."));

    // Used: the link is dead.
    let (status, body) = app.get_text(&app.client(), &path).await;
    assert_eq!(status, 200);
    assert!(body.contains("invite-invalid"));
    let r = app
        .call(
            &app.client(),
            "sign_up_with_invite",
            &[("token", &token), ("name", "Eve"), ("password", PASSWORD)],
        )
        .await;
    assert_eq!(r.status(), 404);
}

async fn roles_are_enforced(b: Db) {
    let Some(app) = TestApp::spawn(b).await else {
        return;
    };
    let owner = app.sign_up("owner@example.com", "Acme").await;
    let editor = app
        .invite_and_join(&owner, "ed@example.com", "editor")
        .await;
    let viewer = app
        .invite_and_join(&owner, "vi@example.com", "viewer")
        .await;
    let members = app.settings(&owner).await;
    let id_of = |email: &str| id_by_email(&members["members"], email);
    let (owner_id, viewer_id) = (id_of("owner@example.com"), id_of("vi@example.com"));
    for (who, c) in [("editor", &editor), ("viewer", &viewer)] {
        let r = app
            .call(
                c,
                "create_invite",
                &[("email", "x@example.com"), ("role", "owner")],
            )
            .await;
        assert_eq!(r.status(), 403, "{who} invites");
        let r = app
            .call(c, "remove_member", &[("membership_id", &owner_id)])
            .await;
        assert_eq!(r.status(), 403, "{who} removes");
        let r = app
            .call(
                c,
                "set_member_role",
                &[("membership_id", &viewer_id), ("role", "owner")],
            )
            .await;
        assert_eq!(r.status(), 403, "{who} promotes");
        assert_eq!(
            app.call(c, "settings_data", &[]).await.status(),
            200,
            "{who} reads"
        );
    }
    let r = app
        .call(
            &owner,
            "set_member_role",
            &[("membership_id", &viewer_id), ("role", "editor")],
        )
        .await;
    assert!(accepted(&r));
    let r = app
        .call(&owner, "remove_member", &[("membership_id", &owner_id)])
        .await;
    assert_eq!(r.status(), 422);
    assert_eq!(
        r.json::<serde_json::Value>().await.unwrap()["msg"],
        "ErrLastOwner"
    );
    let r = app.call(&app.client(), "settings_data", &[]).await;
    assert_eq!(r.status(), 401, "signed out");
}

async fn removed_member_loses_access_at_once(b: Db) {
    let Some(app) = TestApp::spawn(b).await else {
        return;
    };
    let owner = app.sign_up("owner@example.com", "Acme").await;
    let editor = app
        .invite_and_join(&owner, "ed@example.com", "editor")
        .await;
    assert_eq!(app.call(&editor, "settings_data", &[]).await.status(), 200);
    let members = app.settings(&owner).await;
    let ed = id_by_email(&members["members"], "ed@example.com");
    let r = app
        .call(&owner, "remove_member", &[("membership_id", &ed)])
        .await;
    assert!(accepted(&r));
    assert_eq!(
        app.call(&editor, "settings_data", &[]).await.status(),
        404,
        "no organisation any more"
    );
    let (_, dash) = app.get_text(&editor, "/").await;
    assert!(!dash.contains("Acme"));
    let audit = app.settings(&owner).await;
    let actions: Vec<&str> = audit["audit"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["action"].as_str().unwrap())
        .collect();
    for expected in [
        "member.removed",
        "member.joined",
        "invite.created",
        "account.signed_up",
    ] {
        assert!(
            actions.contains(&expected),
            "{expected} missing from {actions:?}"
        );
    }
}

async fn switch_between_organisations(b: Db) {
    let Some(app) = TestApp::spawn(b).await else {
        return;
    };
    let c = app.sign_up("it@example.com", "Client One").await;
    let r = app
        .call(&c, "create_org", &[("org_name", "Client Two")])
        .await;
    assert!(accepted(&r));
    let current = |v: serde_json::Value| v["org"]["name"].as_str().unwrap().to_owned();
    assert_eq!(
        current(
            app.call(&c, "settings_data", &[])
                .await
                .json()
                .await
                .unwrap()
        ),
        "Client Two"
    );
    let (_, dash) = app.get_text(&c, "/").await;
    assert!(
        dash.contains("org-switch"),
        "two organisations: the switcher shows"
    );
    let orgs = app
        .services
        .store
        .orgs_of_user(
            app.services
                .store
                .credentials(&aivet_domain::Email::parse("it@example.com").unwrap())
                .await
                .unwrap()
                .unwrap()
                .user_id,
        )
        .await
        .unwrap();
    let one = orgs
        .iter()
        .find(|o| o.name == "Client One")
        .unwrap()
        .org_id
        .to_string();
    let r = app.call(&c, "switch_org", &[("org_id", &one)]).await;
    assert!(accepted(&r));
    assert_eq!(
        current(
            app.call(&c, "settings_data", &[])
                .await
                .json()
                .await
                .unwrap()
        ),
        "Client One"
    );
    let r = app.call(&c, "create_org", &[("org_name", "  ")]).await;
    assert_eq!(r.status(), 422);
}

/// Someone who looks after many client organisations: past 25 the header
/// no longer lists them on every page (it links to a search instead), and
/// the search finds, counts and switches.
async fn an_integrator_with_many_organisations_finds_them_by_name(b: Db) {
    let Some(app) = TestApp::spawn(b).await else {
        return;
    };
    let c = app.sign_up("it@example.com", "Client 00").await;
    for n in 1..=25 {
        let r = app
            .call(&c, "create_org", &[("org_name", &format!("Client {n:02}"))])
            .await;
        assert!(accepted(&r));
    }
    // Someone else's organisation never shows up.
    app.sign_up("other@example.com", "Client 99 of someone else")
        .await;
    let (_, dash) = app.get_text(&c, "/").await;
    assert!(!dash.contains("org-switch"), "26 organisations: no list");
    assert!(dash.contains("href=\"/organisations\""));
    assert!(dash.contains("Client 25"), "the current one is named");
    assert!(!dash.contains("Client 07"));

    let list = my_org_list(&app, &c, "client 1").await;
    let names: Vec<&str> = list["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o["name"].as_str().unwrap())
        .collect();
    assert_eq!(names.len(), 10, "{names:?}");
    assert!(names.iter().all(|n| n.starts_with("Client 1")));
    assert_eq!(list["total"], 10);
    let all = my_org_list(&app, &c, "").await;
    assert_eq!(all["total"], 26);
    // LIKE's own characters are searched as themselves.
    let none = my_org_list(&app, &c, "%").await;
    assert_eq!(none["total"], 0);

    let (status, page) = app.get_text(&c, "/organisations?q=Client+07").await;
    assert_eq!(status, 200);
    assert!(
        page.contains("Client 07") && !page.contains("Client 08"),
        "{page}"
    );
    let seven = list_id(&all, "Client 07");
    let r = app.call(&c, "switch_org", &[("org_id", &seven)]).await;
    assert!(accepted(&r));
    let (_, dash) = app.get_text(&c, "/").await;
    assert!(dash.contains("Client 07"));
}

/// The answer of `my_org_list` for a search.
async fn my_org_list(app: &TestApp, c: &reqwest::Client, q: &str) -> serde_json::Value {
    app.call(c, "my_org_list", &[("q", q)])
        .await
        .json()
        .await
        .unwrap()
}

fn list_id(list: &serde_json::Value, name: &str) -> String {
    list["rows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|o| o["name"] == name)
        .map(|o| o["id"].as_str().unwrap().to_owned())
        .unwrap_or_else(|| panic!("{name} not in {list}"))
}

async fn language_follows_the_user(b: Db) {
    let Some(app) = TestApp::spawn(b).await else {
        return;
    };
    let anon = app.client();
    let r = anon
        .get(app.url("/login"))
        .header("accept-language", "de-DE,de;q=0.9,en;q=0.5")
        .send()
        .await
        .unwrap();
    let body = r.text().await.unwrap();
    assert!(
        body.contains(r#"<html lang="de">"#) && body.contains("Bei aivet anmelden"),
        "{body}"
    );
    let r = anon
        .post(app.url("/api/set_language"))
        .header("referer", app.url("/login"))
        .form(&[("lang", "nb")])
        .send()
        .await
        .unwrap();
    assert!(accepted(&r));
    let (_, body) = app.get_text(&anon, "/login").await;
    assert!(body.contains(r#"<html lang="nb">"#) && body.contains("Logg inn i aivet"));

    let c = app.sign_up("a@example.com", "A").await;
    app.call(&c, "set_language", &[("lang", "de")]).await;
    // Remembered for the user: a fresh browser shows German after sign-in.
    let fresh = app.client();
    app.sign_in(&fresh, "a@example.com", PASSWORD).await;
    let r = fresh
        .get(app.url("/"))
        .header("accept-language", "en")
        .send()
        .await
        .unwrap();
    let body = r.text().await.unwrap();
    assert!(
        body.contains("Willkommen, A.") && body.contains("Übersicht"),
        "{body}"
    );
    let r = app.call(&c, "set_language", &[("lang", "fr")]).await;
    assert_eq!(r.status(), 422);
}

async fn password_reset_by_mail(b: Db) {
    use crate::smtp::Sink;
    let mut sink = Sink::start().await;
    let Some(app) = TestApp::spawn_with(
        b,
        Options {
            smtp_url: Some(sink.url()),
            manual_mail: true,
            ..Options::default()
        },
    )
    .await
    else {
        return;
    };
    let old_session = app.sign_up("kari@example.no", "Acme").await;
    app.call(&old_session, "set_language", &[("lang", "nb")])
        .await;

    // Unknown address: the same answer, and no mail.
    let anon = app.client();
    let unknown = app
        .call(
            &anon,
            "request_password_reset",
            &[("email", "nobody@example.no")],
        )
        .await;
    let known = app
        .call(
            &anon,
            "request_password_reset",
            &[("email", "Kari@Example.no")],
        )
        .await;
    assert_eq!(unknown.status(), known.status());
    assert_eq!(
        unknown.headers().get("location"),
        known.headers().get("location")
    );
    assert_eq!(
        app.worker.pass().await.unwrap().sent,
        1,
        "one mail, for the existing account"
    );
    let received = sink.next().await;
    assert_eq!(received.to, vec!["kari@example.no"]);
    let text = String::from_utf8_lossy(&received.data).into_owned();
    let m = mailparse::parse_mail(&received.data).unwrap();
    let plain = m.subparts[0].get_body().unwrap();
    assert!(
        plain.contains("Hei Kari"),
        "in the user's language: {plain}"
    );
    let _ = text;
    let pos = plain.find("/reset-password/").unwrap();
    let token = plain[pos + 16..pos + 16 + 43].to_owned();
    assert!(plain.contains(&format!("{}/reset-password/{token}", app.base)));
    let path = format!("/reset-password/{token}");

    // Opening the link changes nothing.
    for _ in 0..3 {
        let (status, page) = app.get_text(&anon, &path).await;
        assert_eq!(status, 200);
        assert!(page.contains("reset-form"));
    }
    assert_eq!(app.get_text(&old_session, "/").await.0, 200);

    let r = app
        .call(
            &anon,
            "reset_password",
            &[("token", &token), ("password", "short")],
        )
        .await;
    assert_eq!(r.status(), 422, "a too-short password uses nothing up");
    let r = app
        .call(
            &anon,
            "reset_password",
            &[("token", &token), ("password", "my new long passphrase")],
        )
        .await;
    assert!(accepted(&r), "{}", r.status());
    assert_eq!(app.get_text(&anon, "/").await.0, 200, "signed in afresh");
    assert_eq!(
        app.get_text(&old_session, "/").await.0,
        302,
        "every other session ended"
    );
    let r = app
        .sign_in(&app.client(), "kari@example.no", PASSWORD)
        .await;
    assert_eq!(r.status(), 401);
    let r = app
        .sign_in(&app.client(), "kari@example.no", "my new long passphrase")
        .await;
    assert!(accepted(&r));

    // Used: dead.
    let (_, page) = app.get_text(&app.client(), &path).await;
    assert!(page.contains("reset-invalid"));
    let r = app
        .call(
            &app.client(),
            "reset_password",
            &[("token", &token), ("password", "yet another passphrase")],
        )
        .await;
    assert_eq!(r.status(), 404);

    // Links expire after an hour.
    app.call(
        &anon,
        "request_password_reset",
        &[("email", "kari@example.no")],
    )
    .await;
    app.worker.pass().await.unwrap();
    let data = sink.next().await.data;
    let text = mailparse::parse_mail(&data).unwrap().subparts[0]
        .get_body()
        .unwrap();
    let pos = text.find("/reset-password/").unwrap();
    let token2 = text[pos + 16..pos + 16 + 43].to_owned();
    app.clock.advance(chrono::Duration::minutes(61));
    let r = app
        .call(
            &app.client(),
            "reset_password",
            &[("token", &token2), ("password", "too late for this one")],
        )
        .await;
    assert_eq!(r.status(), 404);
}

/// Each password hash takes 19 MiB. The server process must give that
/// memory back afterwards: glibc kept freed blocks of that size for good
/// (110 MB resident after five sign-ins) until the binary fixed its mapping
/// threshold at start. Runs the real binary, as deployed.
#[cfg(target_os = "linux")]
#[tokio::test]
async fn the_server_gives_back_the_memory_of_sign_ins() {
    let process = BinaryServer::new("rss");
    let base = process.base.clone();
    let mut server = process.start(&[]).await;
    let pid = server.id().unwrap();
    let rss_mb = || {
        let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
        let kb: u64 = status
            .lines()
            .find_map(|l| l.strip_prefix("VmRSS:"))
            .and_then(|v| v.split_whitespace().next())
            .and_then(|v| v.parse().ok())
            .unwrap();
        kb / 1024
    };
    let client = reqwest::Client::new();
    let post = |name: &str, form: Vec<(&'static str, &'static str)>| {
        client
            .post(format!("{base}/api/{name}"))
            .header("origin", &base)
            .form(&form)
            .send()
    };
    let account = vec![("email", "rss@example.com"), ("password", PASSWORD)];
    let mut form = account.clone();
    form.extend([("name", "R"), ("org_name", "R")]);
    assert!(accepted(&post("sign_up", form).await.unwrap()));
    let before = rss_mb();
    for _ in 0..6 {
        assert!(accepted(&post("sign_in", account.clone()).await.unwrap()));
    }
    // Each answer comes after its hash's memory was freed.
    let after = rss_mb();
    // Six hashes kept would be 114 MiB; one hash's worth of slack.
    assert!(
        after < before + 19,
        "resident memory grew from {before} to {after} MB over six sign-ins"
    );
    server.kill().await.unwrap();
}
