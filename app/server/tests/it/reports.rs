//! The compliance report and the exports over HTTP: every format, in the
//! chosen language, only the organisation's own data, each download in the
//! audit log with its hash; and on the command line, `aivet report` and
//! `aivet backup` on the configured database.

use crate::helpers::*;
use crate::inventory::{create_service, create_vendor};
use crate::questions::{ask_key, send_form};
use reqwest::Client;

/// The text `pdftotext` (Debian's poppler-utils) reads from a PDF.
pub fn pdf_text(pdf: &[u8]) -> String {
    let file = std::env::temp_dir().join(format!("aivet-it-{}.pdf", uuid::Uuid::new_v4()));
    std::fs::write(&file, pdf).unwrap();
    let out = std::process::Command::new("pdftotext")
        .args(["-enc", "UTF-8"])
        .arg(&file)
        .arg("-")
        .output()
        .expect("pdftotext (Debian's poppler-utils; run scripts/tools.sh test)");
    let _ = std::fs::remove_file(&file);
    assert!(out.status.success());
    String::from_utf8(out.stdout).unwrap()
}

/// Without line breaks, spaces and zero-width spaces (long words wrap).
fn squeezed(s: &str) -> String {
    s.chars()
        .filter(|c| !c.is_whitespace() && *c != '\u{200b}')
        .collect()
}

/// Posts the download form; returns status, headers' hash and body.
pub async fn download(
    app: &TestApp,
    c: &Client,
    form: &[(&str, &str)],
) -> (u16, Option<String>, Vec<u8>) {
    // One minute per download: the page lists the newest first.
    app.clock.advance(chrono::Duration::minutes(1));
    let r = c
        .post(app.url("/reports/download"))
        .form(form)
        .send()
        .await
        .unwrap();
    let status = r.status().as_u16();
    if status == 200 {
        let disposition = r.headers()["content-disposition"].to_str().unwrap();
        assert!(
            disposition.starts_with("attachment; filename=\"aivet-"),
            "{disposition}"
        );
    }
    let hash = r
        .headers()
        .get("x-report-sha256")
        .map(|h| h.to_str().unwrap().to_owned());
    (status, hash, r.bytes().await.unwrap().to_vec())
}

/// An organisation with a vendor, its contact, a service and a request.
async fn org_with_questions(
    app: &TestApp,
    email: &str,
    org: &str,
    vendor: &str,
    service: &str,
) -> (Client, String) {
    let c = app.sign_up(email, org).await;
    let v = create_vendor(app, &c, vendor, "application").await;
    let r = app
        .call(
            &c,
            "add_contact",
            &[
                ("vendor_id", v.as_str()),
                ("contact[name]", "Sam Security"),
                (
                    "contact[email]",
                    &format!("security@{}", email.split('@').nth(1).unwrap()),
                ),
                ("contact[lang]", "en"),
                ("contact[role]", "security"),
            ],
        )
        .await;
    assert!(accepted(&r));
    let detail: serde_json::Value = app
        .call(&c, "vendor_detail", &[("vendor_id", v.as_str())])
        .await
        .json()
        .await
        .unwrap();
    let contact = detail["contacts"][0]["id"].as_str().unwrap().to_owned();
    let s = create_service(
        app,
        &c,
        &[("form[name]", service), ("form[vendor_id]", v.as_str())],
    )
    .await;
    let key = ask_key(app, &c, &s).await;
    let r = app
        .call(&c, "send_questions", &send_form(&s, &key, &contact))
        .await;
    assert!(accepted(&r), "{}", r.status());
    (c, s)
}

crate::on_both!(every_format_is_the_organisations_own_in_its_language_and_recorded);

async fn every_format_is_the_organisations_own_in_its_language_and_recorded(b: Db) {
    let Some(app) = TestApp::spawn(b).await else {
        return;
    };
    let (a, a_service) = org_with_questions(
        &app,
        "owner@alpha.example",
        "Alpha Consulting",
        "Alpha Vendor #[x]",
        "=cmd|' /C calc'!A0 Alpha Bot",
    )
    .await;
    let (_b, b_service) = org_with_questions(
        &app,
        "owner@beta.example",
        "Beta Holdings",
        "Beta Vendor GmbH",
        "Beta Secret Bot",
    )
    .await;
    let beta = [
        "Beta Holdings",
        "Beta Vendor GmbH",
        "Beta Secret Bot",
        "beta.example",
        &b_service,
    ];

    // The PDF, in German: sections, A's values, nothing of B's.
    let (status, hash, pdf) = download(
        &app,
        &a,
        &[("format", "pdf"), ("lang", "de"), ("scope", "all")],
    )
    .await;
    assert_eq!(status, 200, "{}", String::from_utf8_lossy(&pdf));
    let pdf_hash = hash.expect("the hash is in a header");
    assert_eq!(pdf_hash.len(), 64);
    let text = pdf_text(&pdf);
    for w in [
        "Compliance-Bericht: KI-Dienste",
        "Zusammenfassung",
        "Gestellte Fragen und Antworten",
        "An Anbieter gesendete E-Mails",
        "Prüfprotokoll",
        "Alpha Consulting",
        "Alpha Vendor #[x]",
        "security@alpha.example",
        &pdf_hash,
    ] {
        assert!(
            squeezed(&text).contains(&squeezed(w)),
            "{w:?} missing in\n{text}"
        );
    }
    assert!(squeezed(&text).contains(&squeezed("=cmd|' /C calc'!A0 Alpha Bot")));
    for m in beta {
        assert!(!text.contains(m), "A's report shows B's {m}");
    }

    // The CSVs: spreadsheet-safe, A's only, in English.
    let (status, services_hash, csv) = download(
        &app,
        &a,
        &[
            ("format", "services_csv"),
            ("lang", "en"),
            ("scope", "selection"),
            ("service", &a_service),
        ],
    )
    .await;
    assert_eq!(status, 200);
    let csv = String::from_utf8(csv).unwrap();
    assert!(csv.starts_with("\u{feff}Name,"), "{csv}");
    assert!(
        csv.contains("'=cmd|' /C calc'!A0 Alpha Bot"),
        "defused: {csv}"
    );
    assert!(csv.contains("Asked"), "the assessment: {csv}");
    let rows: Vec<csv::StringRecord> = csv::Reader::from_reader(csv.as_bytes())
        .records()
        .map(|r| r.unwrap())
        .collect();
    assert_eq!(rows.len(), 1);
    assert_ne!(
        services_hash.as_deref(),
        Some(pdf_hash.as_str()),
        "a selection is other data"
    );
    let (status, _, answers) = download(
        &app,
        &a,
        &[("format", "answers_csv"), ("lang", "nb"), ("scope", "all")],
    )
    .await;
    assert_eq!(status, 200);
    let answers = String::from_utf8(answers).unwrap();
    assert!(answers.contains("Spørsmål"), "{answers}");
    assert!(answers.contains("security@alpha.example"));
    let answer_rows = csv::Reader::from_reader(answers.as_bytes())
        .records()
        .count();
    assert_eq!(answer_rows, 5, "the five core questions");

    // The JSON export: versioned, the data's hash as printed.
    let (status, json_hash, json) = download(&app, &a, &[("format", "json"), ("lang", "en")]).await;
    assert_eq!(status, 200);
    let export: serde_json::Value = serde_json::from_slice(&json).unwrap();
    assert_eq!(export["schema"], "aivet-export");
    assert_eq!(export["version"], 1);
    let data: aivet_domain::report::ReportData =
        serde_json::from_value(export["data"].clone()).unwrap();
    assert_eq!(export["data_sha256"].as_str(), json_hash.as_deref());
    assert_eq!(data.sha256(), json_hash.unwrap());
    assert_eq!(data.inventory.services.len(), 1);
    assert_eq!(data.questions.requests[0].items.len(), 5);
    let raw = String::from_utf8(json).unwrap();
    for m in beta {
        assert!(!raw.contains(m), "A's export holds B's {m}");
    }
    for body in [&csv, &answers] {
        for m in beta {
            assert!(!body.contains(m), "A's CSV holds B's {m}");
        }
    }

    // B's service, chosen by A, is as unknown as a random one.
    let foreign = download(
        &app,
        &a,
        &[
            ("format", "pdf"),
            ("lang", "en"),
            ("scope", "selection"),
            ("service", &b_service),
        ],
    )
    .await;
    let random = uuid::Uuid::new_v4().to_string();
    let missing = download(
        &app,
        &a,
        &[
            ("format", "pdf"),
            ("lang", "en"),
            ("scope", "selection"),
            ("service", &random),
        ],
    )
    .await;
    assert_eq!(foreign.0, 404);
    assert_eq!(foreign, missing);
    let none = download(
        &app,
        &a,
        &[("format", "pdf"), ("lang", "en"), ("scope", "selection")],
    )
    .await;
    assert_eq!(none.0, 422, "a selection of nothing is refused");
    assert!(String::from_utf8_lossy(&none.2).contains("Choose at least one service"));

    // Each download is in the audit log, with its hash, and on the page.
    let t = tenant_of(&app, "owner@alpha.example").await;
    let entries = app.services.store.audit_entries(&t, 100).await.unwrap();
    let exported: Vec<String> = entries
        .iter()
        .filter(|e| e.action == "report.exported")
        .map(|e| e.event().unwrap().describe(aivet_domain::Lang::En))
        .collect();
    assert_eq!(exported.len(), 4, "{exported:?}");
    assert!(exported.iter().any(
        |e| e == &format!("Exported the report (PDF report, All services), SHA-256 {pdf_hash}")
    ));
    let page: serde_json::Value = app
        .call(&a, "reports_data", &[])
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(page["exports"].as_array().unwrap().len(), 4);
    assert_eq!(page["exports"][3]["sha256"], pdf_hash.as_str());
    assert_eq!(page["services"].as_array().unwrap().len(), 1);
    let (status, html) = app.get_text(&a, "/reports").await;
    assert_eq!(status, 200);
    assert!(html.contains(&pdf_hash), "the page lists the hash");
    assert!(html.contains("action=\"/reports/download\""));

    // A viewer (the auditor's or the data-protection officer's account)
    // may read and download the report: it is what they are there for.
    // Their download is recorded in their name.
    let viewer = app
        .invite_and_join(&a, "auditor@alpha.example", "viewer")
        .await;
    let (status, viewer_hash, pdf) =
        download(&app, &viewer, &[("format", "pdf"), ("lang", "en"), ("scope", "all")]).await;
    assert_eq!(status, 200);
    let text = pdf_text(&pdf);
    assert!(text.contains("Compliance report: AI services"), "{text}");
    assert!(text.contains("Alpha Consulting"));
    let page: serde_json::Value = app
        .call(&viewer, "reports_data", &[])
        .await
        .json()
        .await
        .unwrap();
    let newest = &page["exports"][0];
    assert_eq!(newest["sha256"].as_str(), viewer_hash.as_deref());
    assert!(
        newest["by"].as_str().unwrap().contains("auditor@alpha.example"),
        "{newest}"
    );

    // Signed out: to the sign-in page, nothing made.
    let (status, _, _) = download(&app, &app.client(), &[("format", "pdf"), ("lang", "en")]).await;
    assert_eq!(status, 302);
}
