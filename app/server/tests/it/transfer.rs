//! Moving an organisation between databases with `aivet import`: the demo
//! organisation exported from SQLite, loaded into PostgreSQL, exported
//! again and loaded back into a fresh SQLite; every export has the same
//! data but for what docs/EXPORT.md says changes. And a file that cannot
//! be loaded is refused with a clear message and writes nothing.

use crate::helpers::*;
use aivet_services::report::Export;
use aivet_store::testing::TestDb;
use std::path::PathBuf;
use std::sync::Arc;

fn temp_file(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("aivet-transfer-{}", uuid::Uuid::new_v4()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

async fn run(process: &BinaryServer, args: &[&str]) -> (bool, String, String) {
    let out = process.command(args).await;
    (
        out.status.success(),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

/// The export of `slug` on the process's database.
async fn export_of(process: &BinaryServer, slug: &str) -> (PathBuf, Export) {
    let file = temp_file("export.json");
    let path = file.display().to_string();
    let (ok, _, stderr) = run(
        process,
        &["report", "--org", slug, "--format", "json", "--out", &path],
    )
    .await;
    assert!(ok, "{stderr}");
    let export: Export = serde_json::from_slice(&std::fs::read(&file).unwrap()).unwrap();
    (file, export)
}

/// `after`'s data is `before`'s but for what a move changes: one audit
/// entry at the end (the import, with the data hash it loaded), and mails
/// that were not sent before the move, which are shown as failed (their
/// text is not in the export, so they are never sent from the new place).
fn assert_moved(before: &Export, after: &Export) {
    let mut expected = before.data.clone();
    let mut got = after.data.clone();
    let last = got.audit.pop().expect("the import is in the audit log");
    assert_eq!(last.action, "org.imported");
    assert!(last.detail.contains(&before.data_sha256), "{}", last.detail);
    for m in &mut expected.mail_trail {
        if m.status != aivet_domain::mail::MailStatus::Sent {
            m.status = aivet_domain::mail::MailStatus::Failed;
        }
    }
    // Section by section, so that a difference is shown where it is.
    assert_eq!(got.organisation, expected.organisation);
    assert_eq!(got.inventory, expected.inventory);
    assert_eq!(got.questions, expected.questions);
    assert_eq!(got.follow_ups, expected.follow_ups);
    assert_eq!(got.mail_trail, expected.mail_trail);
    assert_eq!(got.incidents, expected.incidents);
    assert_eq!(got.advisories, expected.advisories);
    assert_eq!(got.audit, expected.audit);
    assert_eq!(got, expected);
}

#[tokio::test]
async fn an_organisation_moves_to_postgresql_and_back_unchanged() {
    let Some(pg) = TestDb::new(Db::Postgres).await else {
        return;
    };
    let from = BinaryServer::new("move-from");
    let (ok, _, stderr) = run(&from, &["demo", "--lang", "de"]).await;
    assert!(ok, "{stderr}");
    let (file, first) = export_of(&from, "demo").await;
    assert!(!first.data.incidents.is_empty() && !first.data.questions.requests.is_empty());
    let services = &first.data.inventory.services;
    assert!(services.iter().any(|s| !s.clearances.is_empty()));
    assert!(services.iter().any(|s| s.engine_kind.is_some()));
    assert!(!first.files.is_empty(), "an attached document moves too");

    // SQLite → PostgreSQL.
    let to = BinaryServer::on("move-to", Arc::new(pg));
    let path = file.display().to_string();
    let (ok, stdout, stderr) = run(&to, &["import", &path]).await;
    assert!(ok, "{stderr}");
    assert!(stdout.contains("imported demo"), "{stdout}");
    assert!(stdout.contains("Forgot password"), "{stdout}");
    let (moved_file, moved) = export_of(&to, "demo").await;
    assert_moved(&first, &moved);

    // The same file again: the organisation is there; nothing is written.
    let (ok, _, stderr) = run(&to, &["import", &path]).await;
    assert!(!ok);
    assert!(stderr.contains("in this database already"), "{stderr}");
    let (_, unchanged) = export_of(&to, "demo").await;
    assert_eq!(unchanged.data.inventory, moved.data.inventory);
    assert_eq!(
        unchanged.data.audit.len(),
        moved.data.audit.len() + 1,
        "only the second export's own entry was added"
    );

    // PostgreSQL → a fresh SQLite.
    let back = BinaryServer::new("move-back");
    let (ok, _, stderr) = run(&back, &["import", &moved_file.display().to_string()]).await;
    assert!(ok, "{stderr}");
    let (_, returned) = export_of(&back, "demo").await;
    assert_moved(&moved, &returned);
    assert_eq!(returned.files, first.files, "the documents, byte for byte");

    // What moved works there: the owner, who has no password here yet,
    // chooses one by mail (through an SMTP listener) and sees the open incident's clock.
    let mut sink = crate::smtp::Sink::start().await;
    let _server = back.start(&[("AIVET_SMTP_URL", sink.url().as_str())]).await;
    let owner = &first.data.organisation.members[0].email;
    let c = reqwest::Client::builder()
        .cookie_store(true)
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap();
    let call = |name: &str, form: Vec<(&str, String)>| {
        c.post(format!("{}/api/{name}", back.base))
            .header("origin", &back.base)
            .form(&form)
            .send()
    };
    let r = call(
        "sign_in",
        vec![("email", owner.clone()), ("password", PASSWORD.into())],
    )
    .await
    .unwrap();
    assert!(!accepted(&r), "no password works before one is chosen");
    let r = call("request_password_reset", vec![("email", owner.clone())])
        .await
        .unwrap();
    assert!(accepted(&r), "{}", r.status());
    let token = reset_token_in(&sink.next().await.data);
    let r = call(
        "reset_password",
        vec![
            ("token", token),
            ("password", "a long new passphrase".into()),
        ],
    )
    .await
    .unwrap();
    assert!(accepted(&r), "{}", r.status());
    let page = c
        .get(format!("{}/", back.base))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(
        page.contains("id=\"clocks\""),
        "the incident's clock: {page}"
    );
    assert!(page.contains(&first.data.incidents[0].title));
}

/// The token of a password-reset mail as it arrived over SMTP.
fn reset_token_in(data: &[u8]) -> String {
    let m = mailparse::parse_mail(data).unwrap();
    let text = m.subparts[0].get_body().unwrap();
    let pos = text.find("/reset-password/").expect("the reset link");
    text[pos + 16..pos + 16 + 43].to_owned()
}

#[tokio::test]
async fn a_file_that_cannot_be_loaded_is_refused_and_writes_nothing() {
    let from = BinaryServer::new("refuse-from");
    let (ok, _, stderr) = run(&from, &["demo"]).await;
    assert!(ok, "{stderr}");
    let (file, export) = export_of(&from, "demo").await;
    let raw: serde_json::Value = serde_json::from_slice(&std::fs::read(&file).unwrap()).unwrap();
    let to = BinaryServer::new("refuse-to");

    let write = |name: &str, value: &serde_json::Value| {
        let f = temp_file(name);
        std::fs::write(&f, serde_json::to_vec(value).unwrap()).unwrap();
        f.display().to_string()
    };
    let rehash = |mut v: serde_json::Value| {
        v["data_sha256"] =
            serde_json::Value::String(aivet_domain::report::canonical_sha256(&v["data"]));
        v
    };
    let mut tampered = raw.clone();
    tampered["data"]["inventory"]["services"][0]["name"] = "Changed afterwards".into();
    let mut newer = raw.clone();
    newer["version"] = 2.into();
    let mut dangling = raw.clone();
    dangling["data"]["inventory"]["services"][0]["vendor"] =
        uuid::Uuid::new_v4().to_string().into();
    let mut selection = raw.clone();
    selection["data"]["scope"] = serde_json::json!({"kind": "selection", "services": []});
    let not_json = temp_file("broken.json");
    std::fs::write(&not_json, b"{\"schema\": \"aivet-export\", ").unwrap();
    let cases: Vec<(String, &str)> = vec![
        (not_json.display().to_string(), "not JSON"),
        (
            write(
                "other.json",
                &serde_json::json!({"schema": "something-else"}),
            ),
            "not an aivet export",
        ),
        (write("newer.json", &newer), "schema version 2"),
        (
            write("tampered.json", &tampered),
            "changed after the export",
        ),
        (
            write("dangling.json", &rehash(dangling)),
            "refused the data",
        ),
        (write("selection.json", &rehash(selection)), "a selection"),
    ];
    for (path, says) in &cases {
        let (ok, _, stderr) = run(&to, &["import", path]).await;
        assert!(!ok, "{path} was imported");
        assert!(stderr.contains(says), "{says:?} not in {stderr}");
    }
    // Nothing of the organisation arrived: the import of the good file
    // works afterwards (the refused ones left no slug, id or account).
    let (ok, _, stderr) = run(&to, &["import", &file.display().to_string()]).await;
    assert!(ok, "{stderr}");

    // Another organisation with the same slug: refused by name.
    let mut other = raw.clone();
    other["data"]["organisation"]["id"] = uuid::Uuid::new_v4().to_string().into();
    let (ok, _, stderr) = run(&to, &["import", &write("other-org.json", &rehash(other))]).await;
    assert!(!ok);
    assert!(stderr.contains("slug \"demo\" exists"), "{stderr}");
    let (_, after) = export_of(&to, "demo").await;
    assert_eq!(after.data.inventory, export.data.inventory);
}
