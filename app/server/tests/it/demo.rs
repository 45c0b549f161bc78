//! `aivet demo`: the front door. The command prints exactly the owner's
//! email and password; the server then shows the demo business in the
//! chosen language, and running the command again starts it afresh.

use crate::helpers::*;
use reqwest::Client;
use std::sync::Arc;

/// Runs `aivet demo` with these arguments; returns (email, password).
pub async fn demo(process: &BinaryServer, args: &[&str]) -> (String, String) {
    let mut all = vec!["demo"];
    all.extend_from_slice(args);
    let out = process.command(&all).await;
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 2, "exactly two lines: {stdout:?}");
    let email = lines[0]
        .strip_prefix("email: ")
        .expect("email: …")
        .to_owned();
    let password = lines[1]
        .strip_prefix("password: ")
        .expect("password: …")
        .to_owned();
    assert!(password.len() >= 16);
    (email, password)
}

pub async fn call(base: &str, c: &Client, name: &str, form: &[(&str, &str)]) -> serde_json::Value {
    let r = c
        .post(format!("{base}/api/{name}"))
        .header("origin", base)
        .form(form)
        .send()
        .await
        .unwrap();
    assert!(
        r.status().is_success() || r.status().is_redirection(),
        "{name}: {}",
        r.status()
    );
    r.json().await.unwrap_or(serde_json::Value::Null)
}

pub fn browser() -> Client {
    Client::builder()
        .cookie_store(true)
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap()
}

/// Signs in; the organisation's settings, services and vendors.
async fn look(base: &str, email: &str, password: &str) -> (Client, [serde_json::Value; 3]) {
    let c = browser();
    call(
        base,
        &c,
        "sign_in",
        &[("email", email), ("password", password)],
    )
    .await;
    let settings = call(base, &c, "settings_data", &[]).await;
    let services = call(base, &c, "service_list", &[]).await;
    let vendors = call(base, &c, "vendor_list", &[]).await;
    (c, [settings, services, vendors])
}

async fn the_demo_business(db: Arc<aivet_store::testing::TestDb>) {
    let process = BinaryServer::on("demo", db);
    let (email, password) = demo(&process, &["--lang", "de"]).await;
    let _server = process.start(&[]).await;
    let base = process.base.clone();
    let (c, [settings, services, vendors]) = look(&base, &email, &password).await;
    assert_eq!(settings["org"]["slug"], "demo");
    assert_eq!(settings["org"]["name"], "Bäckerei Sonnenschein GmbH");
    assert_eq!(settings["zone"], "Europe/Berlin");
    assert_eq!(settings["org"]["role"], "owner");
    let rows = services["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 8, "{services}");
    let vendor_rows = vendors["rows"].as_array().unwrap();
    assert!(
        vendor_rows.iter().any(|v| v["role"] == "integrator"),
        "{vendors}"
    );
    assert!(vendor_rows.len() >= 5);

    // Questions went to two vendors: one answered and reviewed (a
    // decision), one waiting past its deadline (noted on the timeline).
    let mut answered = 0;
    let mut overdue = 0;
    let mut reminders = 0;
    let mut decided = None;
    for s in rows {
        let id = s["id"].as_str().unwrap();
        let o = call(&base, &c, "questions_overview", &[("service_id", id)]).await;
        let kinds: Vec<&str> = o["events"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| e["kind"].as_str().unwrap())
            .collect();
        if kinds.contains(&"reviewed") {
            answered += 1;
            decided = Some(id.to_owned());
            assert_eq!(o["assessment"], "cleared_with_conditions");
            assert!(
                kinds.contains(&"entered") && kinds.contains(&"decided"),
                "{kinds:?}"
            );
        }
        if kinds.contains(&"deadline_passed") {
            overdue += 1;
            // Three days before the deadline and on it.
            reminders += kinds.iter().filter(|k| **k == "reminder_sent").count();
            assert_eq!(o["assessment"], "asked");
            let note = o["events"]
                .as_array()
                .unwrap()
                .iter()
                .find(|e| e["kind"] == "deadline_passed")
                .unwrap()
                .clone();
            assert_eq!(note["title"], "Frist ohne Antwort verstrichen", "{note}");
        }
    }
    assert_eq!((answered, overdue, reminders), (1, 1, 2));

    // The follow-ups board: the unanswered request overdue, DeepL's due
    // soon, the decided service's re-assessment next year.
    let board = call(&base, &c, "follow_ups_data", &[]).await;
    let items: Vec<(String, String)> = board["sections"]
        .as_array()
        .unwrap_or_else(|| panic!("{board}"))
        .iter()
        .flat_map(|s| {
            s[1].as_array().unwrap().iter().map(|f| {
                (
                    s[0].as_str().unwrap().to_owned(),
                    f["reason"].as_str().unwrap().to_owned(),
                )
            })
        })
        .collect();
    let has = |section: &str, reason: &str| items.iter().any(|i| i.0 == section && i.1 == reason);
    assert!(has("Overdue", "answer_due"), "{items:?}");
    assert!(
        has("ThisWeek", "answer_due") || has("Later", "answer_due"),
        "{items:?}"
    );
    assert!(has("Later", "reassessment"), "{items:?}");
    assert!(has("Later", "decision_expiry"), "{items:?}");
    assert_eq!(board["digest"], "weekly");

    // Data clearance: the cleared service decided class by class (one
    // with a condition and a last day, citing the answers), the policy
    // checked; services not yet cleared receive protected data: conflicts.
    let decided = decided.expect("a decided service");
    let m = call(&base, &c, "clearance_data", &[("service_id", &decided)]).await;
    let decisions: Vec<&serde_json::Value> = m["rows"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| !r["decision"].is_null())
        .collect();
    assert_eq!(decisions.len(), 4, "{m}");
    assert!(decisions.iter().any(|r| r["standing"] == "conditional"
        && !r["decision"]["expires_on"].is_null()
        && !r["decision"]["evidence"].as_array().unwrap().is_empty()));
    assert!(
        m["rows"]
            .as_array()
            .unwrap()
            .iter()
            .all(|r| r["conflict"] == false),
        "{m}"
    );
    let dash = call(&base, &c, "dashboard_data", &[]).await;
    assert!(dash["conflicts"].as_i64().unwrap() >= 1, "{dash}");
    let policy = call(&base, &c, "clearance_policy_data", &[]).await;
    assert!(!policy["reviewed"].is_null(), "{policy}");

    // The seed incident: Workers AI, the dates of Cloudflare's report, the
    // website chat affected, a 72-hour clock running with 52 hours left.
    assert_eq!(dash["clocks"].as_array().unwrap().len(), 1, "{dash}");
    let clock = &dash["clocks"][0][2];
    assert_eq!(clock["pending"], true, "{clock}");
    // 52 hours less the seconds the demo took: "2 Tage und 3 Stunden".
    assert!(
        clock["text"]
            .as_str()
            .unwrap()
            .starts_with("Noch 2 Tage und 3 Stunden"),
        "{clock}"
    );
    let reg = call(&base, &c, "incident_list", &[]).await;
    let id = reg["rows"][0]["id"].as_str().unwrap().to_owned();
    let incident = call(&base, &c, "incident_detail", &[("incident_id", &id)]).await;
    assert!(
        incident["title"].as_str().unwrap().contains("GLM-5.3"),
        "{incident}"
    );
    assert_eq!(incident["services"].as_array().unwrap().len(), 1);
    assert!(
        incident["lags"].to_string().contains("46 Tage"),
        "{incident}"
    );
    let chat = incident["services"][0]["id"].as_str().unwrap().to_owned();
    let s = call(&base, &c, "service_detail", &[("service_id", &chat)]).await;
    assert_eq!(
        s["incidents"].as_array().unwrap().len(),
        1,
        "the chat is flagged"
    );
    // It runs SGLang 0.5.20: the shipped advisory hits it.
    assert_eq!(s["engine_version"], "0.5.20");
    let hits = call(&base, &c, "service_advisories", &[("service_id", &chat)]).await;
    assert_eq!(hits[0]["advisory"]["id"], "AIVET-2026-0001", "{hits}");
    assert_eq!(hits[0]["affected"], true);
    assert_eq!(dash["advisory_hits"], 1, "{dash}");
    let audit = settings["audit"].as_array().unwrap();
    assert!(audit.iter().any(|e| e["action"] == "questions.decided"));
    assert!(audit
        .iter()
        .all(|e| !e["text"].as_str().unwrap().contains("questions.")));

    // Again, in Norwegian: a fresh demo; the old password no longer works.
    let (email2, password2) = demo(&process, &["--lang=nb"]).await;
    assert_eq!(email2, email);
    assert_ne!(password2, password);
    let stale = browser();
    let r = stale
        .post(format!("{base}/api/sign_in"))
        .header("origin", &base)
        .form(&[("email", email.as_str()), ("password", password.as_str())])
        .send()
        .await
        .unwrap();
    assert!(r.status().is_client_error(), "{}", r.status());
    let (c, [settings, services, _]) = look(&base, &email2, &password2).await;
    assert_eq!(settings["org"]["slug"], "demo");
    assert_eq!(settings["org"]["name"], "Fjordlys Regnskap AS");
    assert_eq!(settings["zone"], "Europe/Oslo");
    assert_eq!(services["rows"].as_array().unwrap().len(), 8);
    let orgs = call(&base, &c, "my_org_list", &[]).await;
    assert_eq!(
        orgs["total"], 1,
        "the old demo is no longer the owner's: {orgs}"
    );
}

#[tokio::test]
async fn the_demo_on_sqlite() {
    the_demo_business(Arc::new(aivet_store::testing::TestDb::sqlite())).await;
}

#[tokio::test]
async fn the_demo_on_postgres() {
    let Some(db) = aivet_store::testing::TestDb::postgres().await else {
        return;
    };
    the_demo_business(Arc::new(db)).await;
}

#[tokio::test]
async fn the_demo_refuses_an_unknown_language() {
    let process = BinaryServer::new("demo-lang");
    let out = process.command(&["demo", "--lang", "fr"]).await;
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    assert!(String::from_utf8_lossy(&out.stderr).contains("en, de or nb"));
}

#[tokio::test]
async fn the_demo_in_english_by_default() {
    let process = BinaryServer::new("demo-en");
    let (email, password) = demo(&process, &[]).await;
    let _server = process.start(&[]).await;
    let (_, [settings, ..]) = look(&process.base, &email, &password).await;
    assert_eq!(settings["org"]["name"], "Harbour Street Accountants Ltd");
    assert_eq!(settings["zone"], "Europe/London");
}
