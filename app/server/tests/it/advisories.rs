//! Engine advisories over HTTP: a service's engine and version are matched
//! against the shipped SGLang advisory when saved (PEP 440: 0.5.20 and
//! 0.5.22rc1 affected, 0.5.22.post1 not, no version "unknown", never
//! "safe"); owners import OSV records all or none; free text from before
//! is read once; the command line imports too.

use crate::helpers::*;
use crate::inventory::{create_service, create_vendor};
use crate::questions::{file_form, json};
use reqwest::Client;
use serde_json::Value;

crate::on_both!(
    versions_are_matched_when_saved,
    imports_are_all_or_none_and_stay_in_the_organisation,
    free_text_engines_are_read_once_after_an_upgrade,
    an_osv_file_is_imported_like_pasted_text,
    a_save_the_process_did_not_match_is_matched_by_the_sweep,
);

const OWNER: &str = "owner@shop.example";

async fn hits(app: &TestApp, c: &Client, service: &str) -> Vec<Value> {
    let v = json(
        app.call(c, "service_advisories", &[("service_id", service)])
            .await,
    )
    .await;
    v.as_array().unwrap_or_else(|| panic!("{v}")).clone()
}

async fn save(app: &TestApp, c: &Client, id: &str, vendor: &str, kind: &str, version: &str) {
    let r = app
        .call(
            c,
            "save_service",
            &[
                ("service_id", id),
                ("form[name]", "Shop assistant"),
                ("form[vendor_id]", vendor),
                ("form[engine_kind]", kind),
                ("form[engine_version]", version),
                ("form[engine_source]", "vendor_answer"),
            ],
        )
        .await;
    assert!(accepted(&r), "{kind} {version}: {}", r.status());
}

/// A shop with one service on this engine and version: (owner, vendor, service).
async fn shop(app: &TestApp, kind: &str, version: &str) -> (Client, String, String) {
    let owner = app.sign_up(OWNER, "Shop").await;
    let vendor = create_vendor(app, &owner, "Inference Co", "inference_host").await;
    let id = create_service(
        app,
        &owner,
        &[
            ("form[name]", "Shop assistant"),
            ("form[vendor_id]", vendor.as_str()),
            ("form[engine_kind]", kind),
            ("form[engine_version]", version),
        ],
    )
    .await;
    (owner, vendor, id)
}

async fn dashboard_hits(app: &TestApp, c: &Client) -> i64 {
    json(app.call(c, "dashboard_data", &[]).await).await["advisory_hits"]
        .as_i64()
        .unwrap()
}

async fn versions_are_matched_when_saved(b: Db) {
    let Some(app) = TestApp::spawn(b).await else {
        return;
    };
    let (owner, vendor, id) = shop(&app, "sglang", "0.5.20").await;
    let h = hits(&app, &owner, &id).await;
    assert_eq!(h.len(), 1, "{h:?}");
    assert_eq!(h[0]["advisory"]["id"], "AIVET-2026-0001");
    assert_eq!(h[0]["affected"], true);
    assert_eq!(h[0]["fixed_in"], "Fixed in 0.5.22");
    assert_eq!(dashboard_hits(&app, &owner).await, 1);
    let detail = json(
        app.call(&owner, "service_detail", &[("service_id", id.as_str())])
            .await,
    )
    .await;
    assert_eq!(detail["engine_kind"], "sglang");

    for (kind, version, expect) in [
        ("sglang", "0.5.22rc1", Some(true)),
        ("sglang", "0.5.22.post1", None),
        ("sglang", "0.5.9", Some(true)),
        ("sglang", "0.5.22+cu126", None),
        ("sglang", "", Some(false)),
        ("sglang", "latest", Some(false)),
        ("vllm", "0.5.9", None),
    ] {
        save(&app, &owner, &id, &vendor, kind, version).await;
        let h = hits(&app, &owner, &id).await;
        match expect {
            None => assert!(h.is_empty(), "{kind} {version}: {h:?}"),
            Some(affected) => {
                assert_eq!(h.len(), 1, "{kind} {version}");
                assert_eq!(h[0]["affected"], affected, "{kind} {version}");
            }
        }
    }
    // A version without an engine is refused, with what was typed kept.
    let r = app
        .call(
            &owner,
            "save_service",
            &[
                ("service_id", id.as_str()),
                ("form[name]", "Shop assistant"),
                ("form[vendor_id]", vendor.as_str()),
                ("form[engine_version]", "0.5.20"),
            ],
        )
        .await;
    assert_eq!(r.status(), 422);
    assert!(r.text().await.unwrap().contains("engine_kind"));
    // Archived: no longer counted.
    save(&app, &owner, &id, &vendor, "sglang", "0.5.20").await;
    assert_eq!(dashboard_hits(&app, &owner).await, 1);
    let r = app
        .call(
            &owner,
            "archive_service",
            &[("service_id", id.as_str()), ("archived", "true")],
        )
        .await;
    assert!(accepted(&r));
    assert_eq!(dashboard_hits(&app, &owner).await, 0);
}

/// The save and the matching after it are two transactions. Should the
/// process end in between, the save has marked the service, and the next
/// hourly sweep matches it: the hits never stay those of the old version.
async fn a_save_the_process_did_not_match_is_matched_by_the_sweep(b: Db) {
    let Some(app) = TestApp::spawn(b).await else {
        return;
    };
    let (owner, vendor, id) = shop(&app, "sglang", "0.5.22").await;
    assert!(hits(&app, &owner, &id).await.is_empty());
    // The store's save alone, as if the process ended right after it.
    let tenant = tenant_of(&app, OWNER).await;
    let form = aivet_domain::inventory::ServiceForm {
        name: "Shop assistant".into(),
        vendor_id: vendor.clone(),
        engine_kind: "sglang".into(),
        engine_version: "0.5.20".into(),
        ..Default::default()
    };
    let service = aivet_domain::ServiceId(id.parse().unwrap());
    let event = aivet_store::AuditEvent::ServiceUpdated {
        service,
        name: "Shop assistant".into(),
    };
    app.services
        .store
        .update_service(
            &tenant,
            service,
            &form.parse().unwrap(),
            event,
            aivet_services::Clock::now(&*app.clock),
        )
        .await
        .unwrap();
    assert!(hits(&app, &owner, &id).await.is_empty(), "not matched yet");
    app.clock.advance(chrono::Duration::hours(1));
    app.run_jobs().await;
    // An hour on, the session has lapsed.
    let owner = app.signed_in(OWNER).await;
    let h = hits(&app, &owner, &id).await;
    assert_eq!(h.len(), 1, "{h:?}");
    assert_eq!(h[0]["affected"], true);
    assert_eq!(dashboard_hits(&app, &owner).await, 1);
    // Matched, the mark is gone: a later sweep finds nothing to do.
    let stale = app
        .services
        .store
        .orgs_to_rematch(aivet_services::advisories::catalogue())
        .await
        .unwrap();
    assert!(stale.is_empty(), "{stale:?}");
}

const GOOD: &str = r#"{
  "id": "TEST-VLLM-1",
  "summary": "Prefix cache shared across tenants",
  "affected": [{
    "package": { "ecosystem": "PyPI", "name": "vllm" },
    "ranges": [{ "type": "ECOSYSTEM", "events": [{ "introduced": "0.6.0" }, { "fixed": "0.6.4" }] }]
  }]
}"#;

async fn imports_are_all_or_none_and_stay_in_the_organisation(b: Db) {
    let Some(app) = TestApp::spawn(b).await else {
        return;
    };
    let (owner, _, id) = shop(&app, "vllm", "0.6.3").await;
    assert!(hits(&app, &owner, &id).await.is_empty());
    let catalogue = |c: Client| {
        let app = &app;
        async move {
            json(app.call(&c, "advisories_data", &[]).await).await["advisories"]
                .as_array()
                .unwrap()
                .iter()
                .map(|a| a["id"].as_str().unwrap().to_owned())
                .collect::<Vec<_>>()
        }
    };
    assert_eq!(catalogue(owner.clone()).await, vec!["AIVET-2026-0001"]);

    // A list with a good record, one without an id and one for an
    // ecosystem nobody runs an engine in: nothing imported, each named.
    let mixed = format!(
        r#"[{GOOD}, {{"summary": "no id"}}, {{"id": "X-1", "affected": [{{"package": {{"ecosystem": "npm", "name": "left-pad"}}}}]}}]"#
    );
    let r = app
        .call(&owner, "import_advisories", &[("osv", mixed.as_str())])
        .await;
    assert_eq!(r.status(), 409);
    let body = r.text().await.unwrap();
    assert!(body.contains("Record 2 has no id"), "{body}");
    assert!(body.contains("X-1"), "{body}");
    assert_eq!(catalogue(owner.clone()).await.len(), 1);
    let r = app
        .call(&owner, "import_advisories", &[("osv", "not json")])
        .await;
    assert!(r.status().is_client_error());

    // An editor may not import.
    let editor = app
        .invite_and_join(&owner, "editor@shop.example", "editor")
        .await;
    let r = app
        .call(&editor, "import_advisories", &[("osv", GOOD)])
        .await;
    assert_eq!(r.status(), 403);

    let r = app
        .call(&owner, "import_advisories", &[("osv", GOOD)])
        .await;
    assert!(accepted(&r), "{}", r.status());
    assert_eq!(catalogue(owner.clone()).await.len(), 2);
    let h = hits(&app, &owner, &id).await;
    assert_eq!(h.len(), 1);
    assert_eq!(h[0]["fixed_in"], "Fixed in 0.6.4");
    let audit = app.settings(&owner).await["audit"].to_string();
    assert!(
        audit.contains("Imported 1 engine advisory (TEST-VLLM-1)"),
        "{audit}"
    );
    // Another organisation has only the shipped catalogue.
    let other = app.sign_up("owner@other.example", "Other").await;
    assert_eq!(catalogue(other).await, vec!["AIVET-2026-0001"]);
}

async fn free_text_engines_are_read_once_after_an_upgrade(b: Db) {
    let Some(app) = TestApp::spawn(b).await else {
        return;
    };
    let owner = app.sign_up(OWNER, "Shop").await;
    let vendor = create_vendor(&app, &owner, "Inference Co", "inference_host").await;
    // Past the app: on PostgreSQL row-level security is lifted meanwhile.
    let pg = app.db.admin_url().is_some();
    if pg {
        app.exec_raw("ALTER TABLE services NO FORCE ROW LEVEL SECURITY")
            .await;
    }
    let mut ids = Vec::new();
    for (name, text) in [
        ("Clear", "SGLang v0.5.20"),
        ("Vague", "sglang or vllm"),
        ("Name only", "sglang"),
    ] {
        ids.push(
            create_service(
                &app,
                &owner,
                &[("form[name]", name), ("form[vendor_id]", vendor.as_str())],
            )
            .await,
        );
        // As an earlier version of aivet kept it: free text only.
        app.exec_raw(&format!(
            "UPDATE services SET engine = '{text}', engine_parsed = false WHERE name = '{name}'"
        ))
        .await;
    }
    if pg {
        app.exec_raw("ALTER TABLE services FORCE ROW LEVEL SECURITY")
            .await;
    }
    app.exec_raw("UPDATE orgs SET advisories_matched = NULL")
        .await;
    // The next sweep reads the text and matches.
    app.clock.advance(chrono::Duration::hours(1));
    app.run_jobs().await;
    let owner = app.signed_in(OWNER).await;
    let detail = |id: String| {
        let app = &app;
        let owner = owner.clone();
        async move {
            json(
                app.call(&owner, "service_detail", &[("service_id", id.as_str())])
                    .await,
            )
            .await
        }
    };
    let clear = detail(ids[0].clone()).await;
    assert_eq!(clear["engine_kind"], "sglang");
    assert_eq!(clear["engine_version"], "0.5.20");
    assert_eq!(clear["engine"], "SGLang v0.5.20", "the text stays");
    let vague = detail(ids[1].clone()).await;
    assert!(vague["engine_kind"].is_null(), "{vague}");
    assert_eq!(vague["engine"], "sglang or vllm");
    let name_only = detail(ids[2].clone()).await;
    assert_eq!(name_only["engine_kind"], "sglang");
    assert!(name_only["engine_version"].is_null());
    assert_eq!(hits(&app, &owner, &ids[0]).await[0]["affected"], true);
    assert_eq!(hits(&app, &owner, &ids[2]).await[0]["affected"], false);
    assert!(hits(&app, &owner, &ids[1]).await.is_empty());
}

#[tokio::test]
async fn advisories_are_imported_on_the_command_line() {
    let process = BinaryServer::new("advisories-cli");
    let out = process.command(&["demo"]).await;
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let dir = std::env::temp_dir().join(format!("aivet-osv-{}", uuid::Uuid::new_v4()));
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("bad.json");
    std::fs::write(&bad, format!("[{GOOD}, {{\"summary\": \"no id\"}}]")).unwrap();
    let out = process
        .command(&[
            "advisories",
            "import",
            bad.to_str().unwrap(),
            "--org",
            "demo",
        ])
        .await;
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("Record 2 has no id") && stderr.contains("nothing was imported"),
        "{stderr}"
    );
    let good = dir.join("good.json");
    std::fs::write(&good, GOOD).unwrap();
    let out = process
        .command(&[
            "advisories",
            "import",
            good.to_str().unwrap(),
            "--org",
            "demo",
        ])
        .await;
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        String::from_utf8_lossy(&out.stdout).trim(),
        "imported 1 advisory into demo"
    );
    let out = process
        .command(&[
            "advisories",
            "import",
            good.to_str().unwrap(),
            "--org",
            "nobody",
        ])
        .await;
    assert!(!out.status.success());
    std::fs::remove_dir_all(&dir).ok();
}

/// Settings → Engine advisories also takes a file (a plain form post, no
/// JavaScript): imported all or none like pasted text; a refused file comes
/// back as the Settings page with its text in the paste field and each
/// refused record named, and nothing imported.
async fn an_osv_file_is_imported_like_pasted_text(b: Db) {
    let Some(app) = TestApp::spawn(b).await else {
        return;
    };
    let (owner, _, id) = shop(&app, "vllm", "0.6.3").await;
    let upload = |c: Client, name: &'static str, bytes: Vec<u8>| {
        let app = &app;
        async move {
            let r = c
                .post(app.url("/settings/advisories/upload"))
                .header("accept", "text/html")
                .header("referer", app.url("/settings"))
                .multipart(file_form(&[], (name, &bytes)))
                .send()
                .await
                .unwrap();
            let location = r
                .headers()
                .get("location")
                .map(|l| l.to_str().unwrap().to_owned());
            (r.status().as_u16(), location, r.text().await.unwrap())
        }
    };
    let count = |c: Client| {
        let app = &app;
        async move {
            json(app.call(&c, "advisories_data", &[]).await).await["advisories"]
                .as_array()
                .unwrap()
                .len()
        }
    };

    let mixed = format!(r#"[{GOOD}, {{"summary": "no id"}}]"#);
    let (status, _, page) = upload(owner.clone(), "mixed.json", mixed.into_bytes()).await;
    assert_eq!(status, 409);
    assert!(page.contains("Record 2 has no id"), "{page}");
    assert!(
        page.contains("Prefix cache shared across tenants"),
        "the file's text is in the paste field"
    );
    assert!(page.contains("id=\"advisory-upload-form\""));
    assert_eq!(count(owner.clone()).await, 1, "nothing imported");

    let (status, _, page) =
        upload(owner.clone(), "latin1.json", b"{\"id\": \"\xe9\"}".to_vec()).await;
    assert_eq!(status, 422);
    assert!(page.contains("alert"), "{page}");
    let (status, _, _) = upload(owner.clone(), "empty.json", Vec::new()).await;
    assert_eq!(status, 422);

    let editor = app
        .invite_and_join(&owner, "editor@shop.example", "editor")
        .await;
    let (status, _, _) = upload(editor, "good.json", GOOD.as_bytes().to_vec()).await;
    assert_eq!(status, 403);
    assert_eq!(count(owner.clone()).await, 1);

    let (status, location, _) = upload(owner.clone(), "good.json", GOOD.as_bytes().to_vec()).await;
    assert_eq!(
        (status, location.as_deref()),
        (303, Some("/settings#advisories"))
    );
    assert_eq!(count(owner.clone()).await, 2);
    assert_eq!(hits(&app, &owner, &id).await.len(), 1, "matched at once");
}
