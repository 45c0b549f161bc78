//! The compliance report and the exports over HTTP: every format, in the
//! chosen language, only the organisation's own data, each download in the
//! audit log with its hash; and on the command line, `aivet report` and
//! `aivet backup` on the configured database.

use crate::helpers::*;
use crate::incidents::record;
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
    let (b, b_service) = org_with_questions(
        &app,
        "owner@beta.example",
        "Beta Holdings",
        "Beta Vendor GmbH",
        "Beta Secret Bot",
    )
    .await;
    // An incident in each: aware an hour ago (the clock reads 09:00 UTC,
    // both organisations are on London time), personal data involved.
    let incident = |title: &'static str, service: String| {
        [
            ("form[title]", title.to_owned()),
            ("form[services][0]", service),
            ("form[we_aware_at]", "2026-11-30T08:00".to_owned()),
            ("form[personal_data]", "true".to_owned()),
        ]
    };
    let a_title = "Alpha leak #panic() $x$ [y]";
    let fields = incident(a_title, a_service.clone());
    let fields: Vec<(&str, &str)> = fields.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let a_incident = record(&app, &a, &fields).await;
    let fields = incident("Beta breach of trust", b_service.clone());
    let fields: Vec<(&str, &str)> = fields.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let b_incident = record(&app, &b, &fields).await;
    let beta = [
        "Beta Holdings",
        "Beta Vendor GmbH",
        "Beta Secret Bot",
        "beta.example",
        &b_service,
        "Beta breach of trust",
        &b_incident,
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
        // The incident, literally, with its 72-hour clock.
        a_title,
        "Offene Vorfälle",
        "Verknüpfte Vorfälle",
        "Meldung an die Aufsichtsbehörde (Art. 33)",
        "für die Entscheidung über die Meldung: Frist 3. Dezember 2026, 08:00",
        "Vorfall „Alpha leak #panic() $x$ [y]“ erfasst",
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
    let [i] = data.incidents.as_slice() else {
        panic!("one incident: {:?}", data.incidents);
    };
    assert_eq!(i.id.to_string(), a_incident);
    assert_eq!(i.title, a_title);
    assert_eq!(
        i.services,
        data.inventory
            .services
            .iter()
            .map(|s| s.id)
            .collect::<Vec<_>>()
    );
    assert!(i.personal_data && i.art33.is_none());
    assert_eq!(i.timeline[0].kind, "recorded");
    assert_eq!(export["data"]["incidents"][0]["state"], "open");
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
    // The browser's own post (no JavaScript) gets the Reports page again,
    // with the message at the form and what was chosen still chosen.
    let r = a
        .post(app.url("/reports/download"))
        .header("accept", "text/html")
        .header("referer", app.url("/reports"))
        .form(&[("format", "pdf"), ("lang", "nb"), ("scope", "selection")])
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 422);
    let page = r.text().await.unwrap();
    let error_at = page
        .find("id=\"report-form-error\"")
        .expect("the message at the form");
    assert!(
        page[error_at..].contains("Choose at least one service"),
        "{page}"
    );
    assert!(
        page.contains(r#"value="selection" checked"#),
        "the scope stays chosen"
    );
    assert!(
        page.contains(r#"value="nb" selected"#),
        "the language stays chosen"
    );

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
    let (status, viewer_hash, pdf) = download(
        &app,
        &viewer,
        &[("format", "pdf"), ("lang", "en"), ("scope", "all")],
    )
    .await;
    assert_eq!(status, 200);
    let text = pdf_text(&pdf);
    assert!(text.contains("Compliance report: AI services"), "{text}");
    assert!(text.contains("Alpha Consulting"));
    for w in [
        a_title,
        "Open incidents",
        "Notifying the supervisory authority (Art. 33)",
        "left to decide on notifying: deadline 3 December 2026, 08:00",
    ] {
        assert!(
            squeezed(&text).contains(&squeezed(w)),
            "{w:?} missing in\n{text}"
        );
    }
    for m in beta {
        assert!(!text.contains(m), "A's report shows B's {m}");
    }
    let page: serde_json::Value = app
        .call(&viewer, "reports_data", &[])
        .await
        .json()
        .await
        .unwrap();
    let newest = &page["exports"][0];
    assert_eq!(newest["sha256"].as_str(), viewer_hash.as_deref());
    assert!(
        newest["by"]
            .as_str()
            .unwrap()
            .contains("auditor@alpha.example"),
        "{newest}"
    );

    // A selection has the incidents of its services only.
    let v = create_vendor(&app, &a, "Alpha Other Vendor", "application").await;
    let other = create_service(
        &app,
        &a,
        &[
            ("form[name]", "Alpha Other Bot"),
            ("form[vendor_id]", v.as_str()),
        ],
    )
    .await;
    for (service, has) in [(&other, false), (&a_service, true)] {
        let (status, _, pdf) = download(
            &app,
            &a,
            &[
                ("format", "pdf"),
                ("lang", "en"),
                ("scope", "selection"),
                ("service", service),
            ],
        )
        .await;
        assert_eq!(status, 200);
        let text = squeezed(&pdf_text(&pdf));
        assert_eq!(text.contains(&squeezed(a_title)), has, "{service}");
    }

    // Signed out: to the sign-in page, nothing made.
    let (status, _, _) = download(&app, &app.client(), &[("format", "pdf"), ("lang", "en")]).await;
    assert_eq!(status, 302);
}

/// `aivet report …` on the process's database; (exit code, stdout, stderr).
async fn report_command(process: &BinaryServer, args: &[&str]) -> (Option<i32>, String, String) {
    let mut all = vec!["report"];
    all.extend_from_slice(args);
    let out = process.command(&all).await;
    (
        out.status.code(),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

async fn the_report_on_the_command_line(db: std::sync::Arc<aivet_store::testing::TestDb>) {
    let process = BinaryServer::on("report-cli", db);
    let out = process.command(&["demo", "--lang", "de"]).await;
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let dir = std::env::temp_dir().join(format!("aivet-report-cli-{}", uuid::Uuid::new_v4()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = |name: &str| dir.join(name).display().to_string();

    // The PDF, in Norwegian: its sections, the demo business, the hash
    // printed on stdout is the one in the document.
    let pdf = file("report.pdf");
    let (code, stdout, stderr) = report_command(
        &process,
        &[
            "--org", "demo", "--format", "pdf", "--lang", "nb", "--out", &pdf,
        ],
    )
    .await;
    assert_eq!(code, Some(0), "{stderr}");
    let hash = stdout.split_whitespace().next().unwrap().to_owned();
    assert_eq!(hash.len(), 64, "{stdout}");
    let text = pdf_text(&std::fs::read(&pdf).unwrap());
    for w in [
        "Samsvarsrapport: KI-tjenester",
        "Sammendrag",
        "Bäckerei Sonnenschein GmbH",
        &hash,
        // The demo's chat runs SGLang 0.5.20: the shipped advisory hits it.
        "Varsler om inferensmotorer",
        "AIVET-2026-0001",
        "Rettet i 0.5.22",
    ] {
        assert!(
            squeezed(&text).contains(&squeezed(w)),
            "{w:?} missing in\n{text}"
        );
    }

    // The JSON export: its data's hash is the one printed.
    let json = file("export.json");
    let (code, stdout, stderr) =
        report_command(&process, &["--org=demo", "--format=json", "--out", &json]).await;
    assert_eq!(code, Some(0), "{stderr}");
    let export: serde_json::Value = serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
    assert_eq!(export["schema"], "aivet-export");
    assert_eq!(
        Some(export["data_sha256"].as_str().unwrap()),
        stdout.split_whitespace().next()
    );
    assert_eq!(
        export["data"]["inventory"]["services"]
            .as_array()
            .unwrap()
            .len(),
        8
    );

    // The CSV of services, in German.
    let csv = file("services.csv");
    let (code, _, stderr) = report_command(
        &process,
        &[
            "--org", "demo", "--format", "csv", "--lang", "de", "--out", &csv,
        ],
    )
    .await;
    assert_eq!(code, Some(0), "{stderr}");
    let rows = csv::Reader::from_path(&csv).unwrap().records().count();
    assert_eq!(rows, 8);

    // Each one is in the organisation's audit log (seen in its next export).
    let entries = export["data"]["audit"].as_array().unwrap();
    assert!(
        entries
            .iter()
            .any(|e| e["action"] == "report.exported"
                && e["detail"].as_str().unwrap().contains(&hash)),
        "the PDF's export is recorded"
    );

    // An unknown organisation, a bad format or language: a clear message,
    // nothing written.
    let nothing = file("nothing.pdf");
    let (code, _, stderr) = report_command(
        &process,
        &["--org", "nobody", "--format", "pdf", "--out", &nothing],
    )
    .await;
    assert_eq!(code, Some(1));
    assert!(
        stderr.contains("no organisation with the slug \"nobody\""),
        "{stderr}"
    );
    let (code, _, stderr) = report_command(
        &process,
        &["--org", "demo", "--format", "docx", "--out", &nothing],
    )
    .await;
    assert_eq!(code, Some(2));
    assert!(
        stderr.contains("--format must be pdf, csv, answers-csv or json"),
        "{stderr}"
    );
    let (code, _, stderr) = report_command(
        &process,
        &[
            "--org", "demo", "--format", "pdf", "--lang", "fr", "--out", &nothing,
        ],
    )
    .await;
    assert_eq!(code, Some(2));
    assert!(stderr.contains("--lang must be en, de or nb"), "{stderr}");
    assert!(!std::path::Path::new(&nothing).exists());
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test]
async fn the_report_on_the_command_line_on_sqlite() {
    the_report_on_the_command_line(std::sync::Arc::new(aivet_store::testing::TestDb::sqlite()))
        .await;
}

#[tokio::test]
async fn the_report_on_the_command_line_on_postgres() {
    let Some(db) = aivet_store::testing::TestDb::postgres().await else {
        return;
    };
    the_report_on_the_command_line(std::sync::Arc::new(db)).await;
}

/// Rows per table of a SQLite file, with its integrity check.
async fn sqlite_counts(path: &str) -> (String, Vec<(String, i64)>) {
    use sqlx::sqlite::SqliteConnectOptions;
    use sqlx::{ConnectOptions, Row};
    let mut conn = SqliteConnectOptions::new()
        .filename(path)
        .read_only(true)
        .connect()
        .await
        .unwrap();
    let check: String = sqlx::query_scalar("PRAGMA integrity_check")
        .fetch_one(&mut conn)
        .await
        .unwrap();
    let tables: Vec<String> = sqlx::query(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name",
    )
    .fetch_all(&mut conn)
    .await
    .unwrap()
    .iter()
    .map(|r| r.get(0))
    .collect();
    let mut counts = Vec::new();
    for t in tables {
        let n: i64 = sqlx::query_scalar(&format!("SELECT count(*) FROM \"{t}\""))
            .fetch_one(&mut conn)
            .await
            .unwrap();
        counts.push((t, n));
    }
    (check, counts)
}

/// `aivet backup FILE` while the server runs and writes: the copy passes
/// SQLite's integrity check and holds every row the database held when
/// the writes stopped; an existing file is never overwritten.
#[tokio::test]
async fn a_backup_while_the_server_writes_is_whole() {
    let process = BinaryServer::new("backup");
    let out = process.command(&["demo"]).await;
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let _server = process.start(&[]).await;
    let c = Client::builder().cookie_store(true).build().unwrap();
    let base = process.base.clone();
    // Sign-ups write accounts, organisations and audit entries while the
    // backups are taken.
    let writer = tokio::spawn(async move {
        for i in 0..10 {
            let r = c
                .post(format!("{base}/api/sign_up"))
                .header("origin", &base)
                .form(&[
                    ("name", format!("Writer {i}")),
                    ("email", format!("writer{i}@backup.example")),
                    ("password", PASSWORD.to_owned()),
                    ("org_name", format!("Writer Org {i}")),
                ])
                .send()
                .await
                .unwrap();
            assert!(
                r.status().is_success() || r.status().is_redirection(),
                "{}",
                r.status()
            );
        }
    });
    let dir = std::env::temp_dir().join(format!("aivet-backup-{}", uuid::Uuid::new_v4()));
    std::fs::create_dir_all(&dir).unwrap();
    for i in 0..3 {
        let copy = dir.join(format!("during-{i}.db")).display().to_string();
        let out = process.command(&["backup", &copy]).await;
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let (check, counts) = sqlite_counts(&copy).await;
        assert_eq!(check, "ok");
        assert!(
            counts.iter().any(|(t, n)| t == "services" && *n == 8),
            "{counts:?}"
        );
    }
    writer.await.unwrap();
    let copy = dir.join("after.db").display().to_string();
    let out = process.command(&["backup", &copy]).await;
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let original = process
        .db_url()
        .trim_start_matches("sqlite://")
        .split('?')
        .next()
        .unwrap()
        .to_owned();
    let (check, counts) = sqlite_counts(&copy).await;
    assert_eq!(check, "ok");
    assert_eq!(counts, sqlite_counts(&original).await.1);
    assert!(
        counts.iter().any(|(t, n)| t == "orgs" && *n == 11),
        "{counts:?}"
    );

    // The copy is never written over.
    let out = process.command(&["backup", &copy]).await;
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("exists already"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// The PDF engine is linked into the worker only: in the server's
/// executable part of its code was resident in every server process (3 to
/// 5 MB of the idle server's memory, BENCHMARKS.md, 2026-12-03).
#[test]
fn only_the_pdf_worker_executable_holds_the_pdf_engine() {
    // Panic messages name the file they are in, with the crate's path.
    let engine = b"app/report/src/";
    let holds = |exe: &str| {
        let bytes = std::fs::read(exe).unwrap();
        bytes.windows(engine.len()).any(|w| w == engine)
    };
    assert!(holds(env!("CARGO_BIN_EXE_aivet-pdf")));
    assert!(!holds(env!("CARGO_BIN_EXE_aivet")));
}

/// The server lays out PDFs in a process of its own (`aivet-pdf`): the
/// allocator keeps part of a document's memory after it, so a server that
/// laid out reports itself would keep it. Runs the real binary, as
/// deployed: three German reports of the demo organisation are real PDFs,
/// and the server's peak and resident memory barely move.
#[cfg(target_os = "linux")]
#[tokio::test]
async fn the_server_lays_out_pdfs_in_a_worker_and_keeps_none_of_their_memory() {
    use crate::demo::{browser, call, demo};
    let process = BinaryServer::new("pdf-worker");
    let (email, password) = demo(&process, &["--lang", "de"]).await;
    let mut server = process.start(&[]).await;
    let pid = server.id().unwrap();
    let status_mb = |key: &str| {
        let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
        let kb: u64 = status
            .lines()
            .find_map(|l| l.strip_prefix(key))
            .and_then(|v| v.split_whitespace().next())
            .and_then(|v| v.parse().ok())
            .unwrap();
        kb / 1024
    };
    let base = process.base.clone();
    let c = browser();
    call(
        &base,
        &c,
        "sign_in",
        &[("email", &email), ("password", &password)],
    )
    .await;
    let get = |path: &str| c.get(format!("{base}{path}")).send();
    assert_eq!(get("/reports").await.unwrap().status(), 200);
    let before = status_mb("VmRSS:");
    // From here VmHWM is the peak of what follows.
    std::fs::write(format!("/proc/{pid}/clear_refs"), "5").unwrap();
    for _ in 0..3 {
        let r = c
            .post(format!("{base}/reports/download"))
            .header("origin", &base)
            .form(&[("format", "pdf"), ("lang", "de"), ("scope", "all")])
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), 200);
        assert_eq!(r.headers()["content-type"], "application/pdf");
        let text = pdf_text(&r.bytes().await.unwrap());
        assert!(text.contains("Bäckerei Sonnenschein GmbH"), "{text}");
        assert!(text.contains("Zusammenfassung"), "{text}");
    }
    let (after, peak) = (status_mb("VmRSS:"), status_mb("VmHWM:"));
    // The server only passes the JSON and the PDF through: its peak and
    // its resident memory rise by a few MB at most.
    assert!(
        peak < before + 15,
        "the server's peak rose from {before} to {peak} MB while it made three PDFs"
    );
    assert!(
        after < before + 8,
        "the server's resident memory grew from {before} to {after} MB over three PDFs"
    );
    server.kill().await.unwrap();
    // A worker of another version declines (the server says so), and one
    // that cannot read its input says why.
    let worker = |args: &[&str]| {
        std::process::Command::new(env!("CARGO_BIN_EXE_aivet-pdf"))
            .args(args)
            .stdin(std::process::Stdio::null())
            .output()
            .unwrap()
    };
    let other = worker(&["2026-11-30T09:00:00Z", "0.0.0-other"]);
    assert_eq!(other.status.code(), Some(3));
    assert!(other.stdout.is_empty());
    assert!(String::from_utf8_lossy(&other.stderr).contains("aivet 0.0.0-other asked"));
    // Started by hand without its arguments, it says what it is for.
    let bare = worker(&[]);
    assert_eq!(bare.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bare.stderr).starts_with("usage: aivet-pdf TIME VERSION"));
    let broken = worker(&["2026-11-30T09:00:00Z", env!("CARGO_PKG_VERSION")]);
    assert_eq!(broken.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&broken.stderr).starts_with("aivet-pdf: layout:"),
        "{}",
        String::from_utf8_lossy(&broken.stderr)
    );
}
