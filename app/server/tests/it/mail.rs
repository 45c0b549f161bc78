//! Mail delivery end to end, against a real SMTP listener on 127.0.0.1:
//! what arrives (headers, both bodies, language, links), and what happens
//! when the mail server is down, defers, refuses or hangs up
//! (shared/SECURITY.md E2, E5, E7).

use crate::helpers::*;
use crate::smtp::{Fault, Received, Sink};
use chrono::Duration;
use mailparse::{MailHeaderMap, ParsedMail};

fn parse(r: &Received) -> ParsedMail<'_> {
    mailparse::parse_mail(&r.data).expect("a well-formed message")
}

fn body(m: &ParsedMail<'_>, mime: &str) -> String {
    if m.ctype.mimetype == mime {
        return m.get_body().unwrap();
    }
    m.subparts
        .iter()
        .map(|p| body(p, mime))
        .find(|b| !b.is_empty())
        .unwrap_or_default()
}

fn header(m: &ParsedMail<'_>, name: &str) -> String {
    m.headers.get_first_value(name).unwrap_or_default()
}

async fn mails(app: &TestApp, c: &reqwest::Client) -> Vec<serde_json::Value> {
    let v: serde_json::Value = app
        .call(c, "settings_data", &[])
        .await
        .json()
        .await
        .unwrap();
    v["mail"]["mails"].as_array().unwrap().clone()
}

/// Waits until the first listed mail has left the queue (the worker marks it
/// right after the server's reply).
async fn settled(app: &TestApp, c: &reqwest::Client) -> serde_json::Value {
    for _ in 0..2000 {
        let m = mails(app, c).await;
        if let Some(first) = m.first() {
            if first["status"] != "queued" && first["status"] != "sending" {
                return first.clone();
            }
        }
        tokio::task::yield_now().await;
    }
    panic!("the mail did not settle");
}

crate::on_both!(
    invitation_mail_arrives_in_the_inviters_language,
    addresses_beyond_ascii_need_a_server_that_takes_them,
);

/// The message a refused form gives for a field, and its text.
async fn field_error(r: reqwest::Response, field: &str) -> (String, String) {
    assert_eq!(r.status(), 422);
    let e: serde_json::Value = r.json().await.unwrap();
    let at = |key: &str| {
        e[key]
            .as_array()
            .unwrap()
            .iter()
            .find(|f| f[0] == field)
            .unwrap_or_else(|| panic!("no {field} in {e}"))[1]
            .as_str()
            .unwrap()
            .to_owned()
    };
    (at("fields"), at("field_texts"))
}

/// Addresses with letters beyond ASCII before the @ are refused at every
/// form that takes an address to mail, in the user's language, unless the
/// mail server is configured as taking SMTPUTF8; then they go out with
/// SMTPUTF8 in the SMTP conversation. Domains beyond ASCII always go out in
/// their ASCII form.
async fn addresses_beyond_ascii_need_a_server_that_takes_them(b: Db) {
    use aivet_domain::{Lang, Msg};
    let mut sink = Sink::start().await;
    let Some((app, owner)) = owner_mailing_through(b, &sink, vec![]).await else {
        return;
    };
    app.call(&owner, "set_language", &[("lang", "nb")]).await;
    let expected = (
        "ErrEmailUtf8".to_owned(),
        Msg::ErrEmailUtf8.text(Lang::Nb).to_owned(),
    );
    let r = app
        .call(
            &owner,
            "create_invite",
            &[("email", "ærlig@eksempel.no"), ("role", "editor")],
        )
        .await;
    assert_eq!(field_error(r, "email").await, expected);
    let vendor = crate::inventory::create_vendor(&app, &owner, "ChatCo", "application").await;
    let r = app
        .call(
            &owner,
            "add_contact",
            &[
                ("vendor_id", &vendor),
                ("contact[name]", ""),
                ("contact[email]", "Ærlig@Eksempel.no"),
                ("contact[lang]", "nb"),
                ("contact[role]", "security"),
            ],
        )
        .await;
    assert_eq!(r.status(), 422);
    let e: serde_json::Value = r.json().await.unwrap();
    let fields: Vec<&str> = e["fields"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f[0].as_str().unwrap())
        .collect();
    assert!(fields.contains(&"name") && fields.contains(&"email"), "{e}");
    let newcomer = app.client();
    let r = newcomer
        .post(app.url("/api/sign_up"))
        .header("accept-language", "de")
        .form(&[
            ("email", "jürgen@beispiel.de"),
            ("password", PASSWORD),
            ("name", "Jürgen"),
            ("org_name", "Beispiel GmbH"),
        ])
        .send()
        .await
        .unwrap();
    assert_eq!(
        field_error(r, "email").await,
        (
            "ErrEmailUtf8".to_owned(),
            Msg::ErrEmailUtf8.text(Lang::De).to_owned()
        )
    );

    // A domain beyond ASCII needs nothing special: its ASCII form is sent.
    let r = app
        .call(
            &owner,
            "create_invite",
            &[("email", "ola@blåbær.no"), ("role", "editor")],
        )
        .await;
    assert_eq!(r.status(), 200);
    let got = sink.next().await;
    assert_eq!(got.to, ["ola@xn--blbr-roah.no"]);
    assert!(!got.mail_params.contains("SMTPUTF8"), "{}", got.mail_params);
    assert_eq!(header(&parse(&got), "To"), "ola@xn--blbr-roah.no");

    // A mail server marked as taking SMTPUTF8: the address is accepted and
    // the conversation says SMTPUTF8.
    let Some((app, owner)) = owner_inviting_through(b, &sink, "Ærlig@Eksempel.no").await else {
        return;
    };
    let got = sink.next().await;
    assert_eq!(got.to, ["ærlig@eksempel.no"]);
    assert!(
        got.mail_params.split_whitespace().any(|p| p == "SMTPUTF8"),
        "MAIL FROM parameters: {:?}",
        got.mail_params
    );
    assert_eq!(header(&parse(&got), "To"), "ærlig@eksempel.no");
    assert_eq!(settled(&app, &owner).await["status"], "sent");

    // A server that turns out not to offer it: the mail fails at once, and
    // the reason names the setting.
    let mut plain = Sink::start().await;
    plain.offer_smtputf8(false);
    let Some((app, owner)) = owner_inviting_through(b, &plain, "ørn@eksempel.no").await else {
        return;
    };
    let failed = settled(&app, &owner).await;
    assert_eq!(failed["status"], "failed", "{failed}");
    assert!(
        failed["last_error"]
            .as_str()
            .unwrap()
            .contains("AIVET_SMTP_UTF8"),
        "{failed}"
    );
    assert!(plain.try_next().is_none());
}

/// An app that sends mail through `sink`, with these further settings,
/// and its owner Kari, signed in.
async fn owner_mailing_through(
    b: Db,
    sink: &Sink,
    env: Vec<(&'static str, String)>,
) -> Option<(TestApp, reqwest::Client)> {
    let app = TestApp::spawn_with(
        b,
        Options {
            smtp_url: Some(sink.url()),
            env,
            ..Options::default()
        },
    )
    .await?;
    let owner = app.sign_up("kari@example.no", "Bærum Regnskap").await;
    Some((app, owner))
}

/// An app whose mail server `sink` is marked as taking SMTPUTF8, and its
/// owner, who has just invited `email`.
async fn owner_inviting_through(
    b: Db,
    sink: &Sink,
    email: &str,
) -> Option<(TestApp, reqwest::Client)> {
    let (app, owner) =
        owner_mailing_through(b, sink, vec![("AIVET_SMTP_UTF8", "true".into())]).await?;
    let r = app
        .call(
            &owner,
            "create_invite",
            &[("email", email), ("role", "editor")],
        )
        .await;
    assert_eq!(r.status(), 200, "inviting {email}");
    Some((app, owner))
}

async fn invitation_mail_arrives_in_the_inviters_language(b: Db) {
    let mut sink = Sink::start().await;
    let Some((app, owner)) = owner_mailing_through(b, &sink, vec![]).await else {
        return;
    };
    app.call(&owner, "set_language", &[("lang", "de")]).await;
    // Links come from the configured base URL, whatever the request says.
    let r = owner
        .post(app.url("/api/create_invite"))
        .header("x-forwarded-host", "evil.example")
        .header("host", "evil.example")
        .form(&[("email", "ola@example.no"), ("role", "editor")])
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 200);
    let received = sink.next().await;
    let m = parse(&received);
    assert_eq!(received.to, vec!["ola@example.no"]);
    assert_eq!(received.from, "aivet@aivet.test");
    assert_eq!(header(&m, "To"), "ola@example.no");
    assert!(header(&m, "From").contains("aivet@aivet.test"));
    assert_eq!(header(&m, "Reply-To"), "kari@example.no");
    assert_eq!(
        header(&m, "Subject"),
        "Kari lädt Sie zu Bærum Regnskap in aivet ein"
    );
    let text = body(&m, "text/plain");
    let html = body(&m, "text/html").replace("&#x2f;", "/");
    assert!(
        text.contains("Guten Tag") && text.contains("als Bearbeiter"),
        "{text}"
    );
    let link = text
        .lines()
        .find(|l| l.starts_with("http"))
        .unwrap()
        .trim()
        .to_owned();
    assert!(link.starts_with(&format!("{}/invite/", app.base)), "{link}");
    assert!(html.contains(&format!("href=\"{link}\"")), "{html}");
    assert!(html.contains("<html lang=\"de\">"));

    let listed = settled(&app, &owner).await;
    assert_eq!(listed["status"], "sent");
    assert_eq!(
        listed["message_id"].as_str().unwrap(),
        header(&m, "Message-ID")
    );
    assert_eq!(listed["kind"], "invite");

    // The link in the mail works.
    let (status, page) = app
        .get_text(&app.client(), link.strip_prefix(&app.base).unwrap())
        .await;
    assert_eq!(status, 200);
    assert!(page.contains("Bærum Regnskap") && page.contains("ola@example.no"));

    // A test mail goes to the member, in their language.
    let r = app.call(&owner, "send_test_mail", &[]).await;
    assert!(accepted(&r));
    let t = sink.next().await;
    assert_eq!(t.to, vec!["kari@example.no"]);
    assert!(header(&parse(&t), "Subject").starts_with("aivet-Testnachricht"));
}

async fn manual_app(sink_url: String) -> TestApp {
    TestApp::spawn_with(
        Db::Sqlite,
        Options {
            smtp_url: Some(sink_url),
            manual_mail: true,
            ..Options::default()
        },
    )
    .await
    .unwrap()
}

#[tokio::test]
async fn server_down_then_up_delivers_after_backoff() {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let app = manual_app(format!("smtp://127.0.0.1:{port}")).await;
    let owner = app.sign_up("a@example.com", "A").await;
    app.call(&owner, "send_test_mail", &[]).await;
    let pass = app.worker.pass().await.unwrap();
    assert_eq!((pass.sent, pass.retrying), (0, 1));
    let m = &mails(&app, &owner).await[0];
    assert_eq!(m["status"], "retrying");
    assert!(!m["last_error"].as_str().unwrap().is_empty());
    // Not due yet: nothing happens.
    assert_eq!(app.worker.pass().await.unwrap().handled(), 0);

    let mut sink = Sink::start_on(port).await;
    app.clock.advance(Duration::seconds(40));
    let pass = app.worker.pass().await.unwrap();
    assert_eq!(pass.sent, 1);
    let got = sink.next().await;
    assert_eq!(
        header(&parse(&got), "Message-ID"),
        m["message_id"].as_str().unwrap()
    );
    let m = &mails(&app, &owner).await[0];
    assert_eq!(
        (m["status"].as_str(), m["attempts"].as_i64()),
        (Some("sent"), Some(2))
    );
}

#[tokio::test]
async fn deferrals_refusals_and_hang_ups() {
    let mut sink = Sink::start().await;
    let app = manual_app(sink.url()).await;
    let owner = app.sign_up("a@example.com", "A").await;

    // 4xx at RCPT: tried again later.
    sink.fail_next(Fault::RcptTemporary);
    app.call(&owner, "send_test_mail", &[]).await;
    assert_eq!(app.worker.pass().await.unwrap().retrying, 1);
    assert!(mails(&app, &owner).await[0]["last_error"]
        .as_str()
        .unwrap()
        .contains("451"));
    app.clock.advance(Duration::seconds(40));
    assert_eq!(app.worker.pass().await.unwrap().sent, 1);
    sink.next().await;

    // 5xx after DATA: failed at once, no retry; "retry now" sends it.
    sink.fail_next(Fault::DataPermanent);
    app.call(&owner, "send_test_mail", &[]).await;
    let pass = app.worker.pass().await.unwrap();
    assert_eq!((pass.failed, pass.retrying), (1, 0));
    let failed = mails(&app, &owner).await[0].clone();
    assert_eq!(failed["status"], "failed");
    assert!(failed["last_error"].as_str().unwrap().contains("554"));
    app.clock.advance(Duration::minutes(20));
    assert_eq!(
        app.worker.pass().await.unwrap().handled(),
        0,
        "a refused mail is not retried by itself"
    );
    let r = app
        .call(
            &owner,
            "retry_mail",
            &[("mail_id", failed["id"].as_str().unwrap())],
        )
        .await;
    assert!(accepted(&r));
    assert_eq!(app.worker.pass().await.unwrap().sent, 1);
    assert_eq!(
        header(&parse(&sink.next().await), "Message-ID"),
        failed["message_id"].as_str().unwrap()
    );

    // Hang-up after DATA: sent again later, with the same Message-ID, once.
    sink.fail_next(Fault::DropAfterData);
    app.call(&owner, "send_test_mail", &[]).await;
    assert_eq!(app.worker.pass().await.unwrap().retrying, 1);
    assert!(sink.try_next().is_none());
    app.clock.advance(Duration::seconds(40));
    assert_eq!(app.worker.pass().await.unwrap().sent, 1);
    let m = mails(&app, &owner).await[0].clone();
    assert_eq!(
        header(&parse(&sink.next().await), "Message-ID"),
        m["message_id"].as_str().unwrap()
    );
    assert!(sink.try_next().is_none());

    // Still failing after the give-up time (72 h): failed, with the reason.
    for _ in 0..40 {
        sink.fail_next(Fault::RcptTemporary);
    }
    app.call(&owner, "send_test_mail", &[]).await;
    let mut gave_up = false;
    for _ in 0..40 {
        let pass = app.worker.pass().await.unwrap();
        if pass.failed == 1 {
            gave_up = true;
            break;
        }
        app.clock.advance(Duration::hours(2));
    }
    assert!(gave_up);
    let owner = app.client();
    app.sign_in(&owner, "a@example.com", PASSWORD).await;
    let m = &mails(&app, &owner).await[0];
    assert_eq!(m["status"], "failed");
    assert!(
        m["last_error"]
            .as_str()
            .unwrap()
            .starts_with("gave up after"),
        "{m}"
    );
}

#[tokio::test]
async fn without_smtp_mails_become_files_in_the_data_folder() {
    let app = TestApp::spawn(Db::Sqlite).await.unwrap();
    let owner = app.sign_up("a@example.com", "Acme").await;
    let r = app
        .call(
            &owner,
            "create_invite",
            &[("email", "new@example.com"), ("role", "viewer")],
        )
        .await;
    let link = r.json::<serde_json::Value>().await.unwrap()["link"]
        .as_str()
        .unwrap()
        .to_owned();
    let listed = settled(&app, &owner).await;
    assert_eq!(listed["status"], "sent");
    let dir = app.data_dir.join("outbox");
    let files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(files.len(), 1, "{files:?}");
    assert!(files[0].extension().is_some_and(|e| e == "eml"));
    let data = std::fs::read(&files[0]).unwrap();
    let m = mailparse::parse_mail(&data).unwrap();
    assert_eq!(header(&m, "To"), "new@example.com");
    assert!(body(&m, "text/plain").contains(&link));
    let (_, settings) = app.get_text(&owner, "/settings").await;
    assert!(
        settings.contains("AIVET_SMTP_URL"),
        "the page says mails go to files"
    );
}

/// Two workers on one PostgreSQL database, 500 mails: each delivered once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_workers_deliver_each_mail_exactly_once() {
    for backend in [Db::Postgres, Db::Sqlite] {
        let mut sink = Sink::start().await;
        let Some(app) = TestApp::spawn_with(
            backend,
            Options {
                smtp_url: Some(sink.url()),
                manual_mail: true,
                ..Options::default()
            },
        )
        .await
        else {
            continue;
        };
        app.sign_up("a@example.com", "A").await;
        let s = &app.services;
        let user = s
            .store
            .credentials(&aivet_domain::Email::parse("a@example.com").unwrap())
            .await
            .unwrap()
            .unwrap()
            .user_id;
        let org = s.store.orgs_of_user(user).await.unwrap()[0].org_id;
        let tenant = s.store.tenant_for(user, org).await.unwrap();
        let now = aivet_services::Clock::now(app.clock.as_ref());
        for i in 0..500 {
            let to = aivet_mail::Recipient {
                name: None,
                email: format!("r{i}@example.com"),
                lang: aivet_domain::Lang::En,
            };
            let mail = s
                .mail
                .mailer
                .compose(
                    &to,
                    None,
                    None,
                    &aivet_mail::TestMail {
                        org_name: "A".into(),
                        sender: "A".into(),
                    },
                    now,
                )
                .unwrap();
            s.store.enqueue_mail(&tenant, mail).await.unwrap();
        }
        let (w1, w2) = (
            app.worker.clone(),
            aivet_mail::Worker::new(
                s.store.clone(),
                std::sync::Arc::new(aivet_mail::SmtpTransport::from_url(&sink.url()).unwrap()),
                s.mail.mailer.clone(),
                {
                    let clock = app.clock.clone();
                    std::sync::Arc::new(move || aivet_services::Clock::now(clock.as_ref()))
                },
                std::sync::Arc::new(tokio::sync::Notify::new()),
                aivet_mail::WorkerSettings::default(),
            ),
        );
        let (a, b) = tokio::join!(
            tokio::spawn(async move { w1.pass().await.unwrap() }),
            tokio::spawn(async move { w2.pass().await.unwrap() })
        );
        let (a, b) = (a.unwrap(), b.unwrap());
        assert_eq!(a.sent + b.sent, 500, "{backend:?}: {a:?} {b:?}");
        assert!(
            a.sent > 0 && b.sent > 0,
            "{backend:?}: both workers took part: {a:?} {b:?}"
        );
        let mut ids = std::collections::HashSet::new();
        for _ in 0..500 {
            let r = sink.next().await;
            assert!(
                ids.insert(header(&parse(&r), "Message-ID")),
                "{backend:?}: a mail was delivered twice"
            );
        }
        assert!(sink.try_next().is_none());
    }
}

/// E4: the server process is killed (SIGKILL) while a mail is on the wire;
/// after a restart every mail arrives, the interrupted one with the same
/// Message-ID, none lost.
#[tokio::test]
async fn killed_mid_send_loses_nothing() {
    let mut sink = Sink::start().await;
    let process = BinaryServer::new("kill");
    let base = process.base.clone();
    let sink_url = sink.url();
    let start = |worker: &'static str| {
        let env = [
            ("AIVET_MAIL_WORKER", worker),
            ("AIVET_SMTP_URL", sink_url.as_str()),
            ("AIVET_MAIL_LEASE_SECONDS", "5"),
        ];
        let process = &process;
        async move { process.start(&env).await }
    };
    // Queue ten mails with a process that does not send.
    let mut server = start("off").await;
    let client = reqwest::Client::builder()
        .cookie_store(true)
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap();
    let post = |name: &str, form: Vec<(&'static str, String)>| {
        client
            .post(format!("{base}/api/{name}"))
            .header("origin", &base)
            .form(&form)
            .send()
    };
    post(
        "sign_up",
        vec![
            ("email", "a@example.com".into()),
            ("password", PASSWORD.into()),
            ("name", "A".into()),
            ("org_name", "A".into()),
        ],
    )
    .await
    .unwrap();
    for _ in 0..10 {
        let status = post("send_test_mail", vec![]).await.unwrap().status();
        assert!(status.is_success() || status.is_redirection(), "{status}");
    }
    server.kill().await.unwrap();
    // A sending process: it claims all ten at once; one hangs on the wire.
    sink.fail_next(Fault::HangAfterData);
    let mut server = start("on").await;
    // The first mail is on the wire, unanswered; the other nine go out and
    // are recorded meanwhile. Kill the process now: one mail is in flight.
    let hung = sink.next().await;
    assert_eq!(hung.from, "HANG");
    let mut ids = std::collections::HashSet::new();
    while ids.len() < 9 {
        assert!(ids.insert(header(&parse(&sink.next().await), "Message-ID")));
    }
    let store = aivet_store::sqlite::SqliteStore::open(process.db_url())
        .await
        .unwrap();
    let sent = || async {
        let (n,): (i64,) = sqlx::query_as("SELECT count(*) FROM outbox WHERE status = 'sent'")
            .fetch_one(store.pool())
            .await
            .unwrap();
        n
    };
    while sent().await < 9 {
        tokio::task::yield_now().await;
    }
    server.kill().await.unwrap();

    // Restarted: the interrupted mail goes out once its lease has run out.
    let _server = start("on").await;
    let last = sink.next().await;
    assert!(
        ids.insert(header(&parse(&last), "Message-ID")),
        "the interrupted mail, not a duplicate"
    );
    while sent().await < 10 {
        tokio::task::yield_now().await;
    }
    assert!(sink.try_next().is_none(), "nothing was delivered twice");
    // Every queued mail is accounted for, each sent exactly once.
    let store = aivet_store::sqlite::SqliteStore::open(process.db_url())
        .await
        .unwrap();
    let rows: Vec<(String, String)> = sqlx::query_as("SELECT message_id, status FROM outbox")
        .fetch_all(store.pool())
        .await
        .unwrap();
    assert_eq!(rows.len(), 10);
    for (id, status) in rows {
        assert!(ids.contains(&id), "{id} never arrived");
        assert_eq!(status, "sent", "{id}");
    }
}
