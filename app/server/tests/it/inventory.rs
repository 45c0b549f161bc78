//! The inventory over HTTP: the vendor and service forms with their
//! validation, contacts, findings, data classes, roles, the pages, and the
//! CSV export and import.

use crate::helpers::*;
use reqwest::{Client, Response};
use serde_json::{json, Value};

crate::on_both!(
    vendors_and_services_through_the_forms,
    bad_input_is_refused_field_by_field_and_nothing_is_saved,
    viewers_read_and_editors_write,
    data_classes_are_the_owners,
    csv_export_is_spreadsheet_safe_and_imports_again,
    an_import_with_errors_reports_rows_and_writes_nothing,
    with_many_vendors_the_vendor_filter_takes_a_name,
    searches_are_bounded_and_literal,
);

/// Where a state-changing call sends the browser next.
fn location(r: &Response) -> String {
    assert!(accepted(r), "{}", r.status());
    r.headers()
        .get("location")
        .unwrap_or_else(|| panic!("no redirect: {}", r.status()))
        .to_str()
        .unwrap()
        .to_owned()
}

/// The id in a redirect's location (`/vendors/<id>`, …).
fn created_id(r: &Response) -> String {
    let loc = location(r);
    loc.trim_start_matches('/')
        .split(['/', '#'])
        .nth(1)
        .unwrap_or_else(|| panic!("no id in {loc}"))
        .to_owned()
}

async fn json(r: Response) -> Value {
    r.json().await.unwrap()
}

pub async fn create_vendor(app: &TestApp, c: &Client, name: &str, role: &str) -> String {
    let r = app
        .call(
            c,
            "save_vendor",
            &[("form[name]", name), ("form[role]", role)],
        )
        .await;
    created_id(&r)
}

pub async fn create_service(app: &TestApp, c: &Client, fields: &[(&str, &str)]) -> String {
    let r = app.call(c, "save_service", fields).await;
    if r.headers().get("location").is_none() {
        panic!(
            "save_service {fields:?}: {} {}",
            r.status(),
            r.text().await.unwrap()
        );
    }
    created_id(&r)
}

async fn data_class(app: &TestApp, c: &Client, name: &str) -> String {
    let list = json(app.call(c, "data_classes_data", &[]).await).await;
    list.as_array()
        .unwrap()
        .iter()
        .find(|d| d["name"] == name)
        .unwrap_or_else(|| panic!("{name} in {list}"))["id"]
        .as_str()
        .unwrap()
        .to_owned()
}

async fn page(app: &TestApp, c: &Client, path: &str) -> String {
    let r = c
        .get(app.url(path))
        .header("accept", "text/html")
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 200, "GET {path}");
    r.text().await.unwrap()
}

async fn service_count(app: &TestApp, c: &Client) -> i64 {
    json(
        app.call(c, "service_list", &[("filter[archived]", "1")])
            .await,
    )
    .await["total"]
        .as_i64()
        .unwrap()
}

async fn vendors_and_services_through_the_forms(b: Db) {
    let Some(app) = TestApp::spawn(b).await else {
        return;
    };
    let c = app.sign_up("owner@alpha.example", "Alpha").await;
    // An English-speaking owner gets English data classes.
    let personal = data_class(&app, &c, "Personal data").await;
    let internal = data_class(&app, &c, "Internal").await;

    let vendor = create_vendor(&app, &c, "ChatCo", "application").await;
    let integrator = create_vendor(&app, &c, "IT-Partner AS", "integrator").await;
    let r = app
        .call(
            &c,
            "add_contact",
            &[
                ("vendor_id", &vendor),
                ("contact[name]", "Security Team"),
                ("contact[email]", "Security@ChatCo.example"),
                ("contact[lang]", "de"),
                ("contact[role]", "security"),
            ],
        )
        .await;
    assert!(accepted(&r), "{}", r.status());
    assert_eq!(location(&r), format!("/vendors/{vendor}#contacts").as_str());

    // Data classes from checkboxes that need not be numbered without gaps.
    let service = create_service(
        &app,
        &c,
        &[
            ("form[name]", "Support assistant"),
            ("form[purpose]", "Answers customer mail\nin two languages"),
            ("form[vendor_id]", &vendor),
            ("form[integrator_id]", &integrator),
            ("form[engine]", "SGLang 0.5.19"),
            ("form[deployment]", "shared"),
            ("form[status]", "in_use"),
            ("form[owner_id]", ""),
            ("form[data_classes][1]", &internal),
            ("form[data_classes][3]", &personal),
            ("form[notice_hours]", "72"),
            ("form[authority_notifier]", "vendor"),
        ],
    )
    .await;
    let r = app
        .call(
            &c,
            "save_finding",
            &[
                ("service_id", &service),
                ("finding[topic]", "separation"),
                ("finding[status]", "stated"),
                ("finding[summary]", "Per-tenant KV cache, see section 4.2"),
                ("finding[source_url]", "https://chatco.example/trust"),
                ("finding[checked_on]", "2026-11-30"),
            ],
        )
        .await;
    assert!(accepted(&r), "{}", r.status());
    assert_eq!(
        location(&r),
        format!("/services/{service}#finding-separation").as_str()
    );

    let d = json(
        app.call(&c, "service_detail", &[("service_id", &service)])
            .await,
    )
    .await;
    assert_eq!(d["vendor"]["name"], "ChatCo");
    assert_eq!(d["integrator"]["name"], "IT-Partner AS");
    assert_eq!(d["data_classes"], json!(["Internal", "Personal data"]));
    assert_eq!(d["notice_hours"], 72);
    assert_eq!(d["findings"][0]["status"], "stated");
    assert_eq!(d["findings"][1]["status"], "unknown");
    let v = json(
        app.call(&c, "vendor_detail", &[("vendor_id", &vendor)])
            .await,
    )
    .await;
    assert_eq!(v["contacts"][0]["email"], "security@chatco.example");
    assert_eq!(v["contacts"][0]["primary"], true);
    assert_eq!(v["services"][0]["name"], "Support assistant");
    // A second contact, then made the primary one.
    let r = app
        .call(
            &c,
            "add_contact",
            &[
                ("vendor_id", &vendor),
                ("contact[name]", "Data Protection"),
                ("contact[email]", "dpo@chatco.example"),
                ("contact[lang]", "en"),
                ("contact[role]", "dpo"),
            ],
        )
        .await;
    assert!(accepted(&r));
    let v = json(
        app.call(&c, "vendor_detail", &[("vendor_id", &vendor)])
            .await,
    )
    .await;
    let dpo = v["contacts"][1]["id"].as_str().unwrap().to_owned();
    assert_eq!(v["contacts"][1]["primary"], false);
    let r = app
        .call(&c, "set_primary_contact", &[("contact_id", &dpo)])
        .await;
    assert_eq!(location(&r), format!("/vendors/{vendor}#contacts"));
    let v = json(
        app.call(&c, "vendor_detail", &[("vendor_id", &vendor)])
            .await,
    )
    .await;
    assert_eq!(v["contacts"][0]["email"], "dpo@chatco.example");
    assert_eq!(v["contacts"][0]["primary"], true);
    assert_eq!(v["contacts"][1]["primary"], false);

    // Editing keeps the id and shows the saved values in the form.
    let form = json(
        app.call(&c, "service_form_data", &[("service_id", &service)])
            .await,
    )
    .await;
    assert_eq!(form["form"]["engine"], "SGLang 0.5.19");
    assert_eq!(form["form"]["data_classes"].as_array().unwrap().len(), 2);
    let r = app
        .call(
            &c,
            "save_service",
            &[
                ("service_id", &service),
                ("form[name]", "Support assistant"),
                ("form[vendor_id]", &vendor),
                ("form[integrator_id]", &integrator),
                ("form[status]", "trial"),
            ],
        )
        .await;
    assert_eq!(location(&r), format!("/services/{service}").as_str());

    // The pages show it, rendered on the server.
    let list = page(&app, &c, "/services").await;
    assert!(list.contains("Support assistant") && list.contains("ChatCo"));
    let detail = page(&app, &c, &format!("/services/{service}")).await;
    assert!(detail.contains("Per-tenant KV cache") && detail.contains("IT-Partner AS"));
    // An archived vendor is still named on the services that name it.
    let r = app
        .call(
            &c,
            "archive_vendor",
            &[("vendor_id", &integrator), ("archived", "true")],
        )
        .await;
    assert!(accepted(&r), "{}", r.status());
    let detail = page(&app, &c, &format!("/services/{service}")).await;
    assert!(
        detail.contains("IT-Partner AS"),
        "archived integrator named"
    );
    let d = json(
        app.call(&c, "service_detail", &[("service_id", &service)])
            .await,
    )
    .await;
    assert_eq!(d["integrator"]["name"], "IT-Partner AS");
    let r = app
        .call(
            &c,
            "archive_vendor",
            &[("vendor_id", &integrator), ("archived", "false")],
        )
        .await;
    assert!(accepted(&r), "{}", r.status());
    let edit = page(&app, &c, &format!("/services/{service}/edit")).await;
    assert!(edit.contains("value=\"Support assistant\""));
    let new = page(&app, &c, "/services/new").await;
    assert!(new.contains("id=\"service-form\"") && new.contains("ChatCo"));
    let vendors = page(&app, &c, "/vendors").await;
    assert!(vendors.contains("IT-Partner AS"));
    let vpage = page(&app, &c, &format!("/vendors/{vendor}")).await;
    assert!(vpage.contains("security@chatco.example"));
    let vedit = page(&app, &c, &format!("/vendors/{vendor}/edit")).await;
    assert!(vedit.contains("value=\"ChatCo\""));
    assert!(page(&app, &c, "/vendors/new")
        .await
        .contains("id=\"vendor-form\""));
    let dash = page(&app, &c, "/").await;
    assert!(dash.contains("id=\"count-trial\""), "dashboard figures");
    let counts = json(app.call(&c, "dashboard_data", &[]).await).await;
    assert_eq!(counts["trial"], 1);
    assert_eq!(counts["vendors"], 2);
    assert_eq!(counts["open_findings"], 1);

    // Filters and search over HTTP.
    let found = json(
        app.call(
            &c,
            "service_list",
            &[("filter[q]", "support"), ("filter[status]", "trial")],
        )
        .await,
    )
    .await;
    assert_eq!(found["total"], 1);
    let none = json(
        app.call(&c, "service_list", &[("filter[status]", "retired")])
            .await,
    )
    .await;
    assert_eq!(none["total"], 0);
    assert!(page(&app, &c, "/services?status=retired")
        .await
        .contains("Nothing matches these filters."));

    // A vendor in use cannot be deleted; the answer names the service.
    let r = app
        .call(&c, "delete_vendor", &[("vendor_id", &integrator)])
        .await;
    assert_eq!(r.status(), 409);
    let e = json(r).await;
    assert_eq!(e["msg"], "ErrVendorInUse");
    assert_eq!(e["args"], json!([["names", "Support assistant"]]));

    // Archive hides from the list; delete removes; then the vendor can go.
    let r = app
        .call(
            &c,
            "archive_service",
            &[("service_id", &service), ("archived", "true")],
        )
        .await;
    assert!(accepted(&r), "{}", r.status());
    assert_eq!(
        json(app.call(&c, "service_list", &[]).await).await["total"],
        0
    );
    let r = app
        .call(&c, "delete_service", &[("service_id", &service)])
        .await;
    assert_eq!(location(&r), "/services");
    assert_eq!(service_count(&app, &c).await, 0);
    let r = app
        .call(&c, "delete_vendor", &[("vendor_id", &integrator)])
        .await;
    assert_eq!(location(&r), "/vendors");
    let missing = c
        .get(app.url(&format!("/vendors/{integrator}")))
        .header("accept", "text/html")
        .send()
        .await
        .unwrap();
    assert_eq!(missing.status(), 404);
}

async fn bad_input_is_refused_field_by_field_and_nothing_is_saved(b: Db) {
    let Some(app) = TestApp::spawn(b).await else {
        return;
    };
    let c = app.sign_up("owner@alpha.example", "Alpha").await;
    let r = app
        .call(
            &c,
            "save_vendor",
            &[
                ("form[name]", "   "),
                ("form[role]", "overlord"),
                ("form[website]", "chatco.example"),
                ("form[dpa_url]", "javascript:alert(1)"),
                ("form[notes]", &"x".repeat(5001)),
            ],
        )
        .await;
    assert_eq!(r.status(), 422);
    let e = json(r).await;
    assert_eq!(
        e["fields"],
        json!([
            ["name", "ErrItemNameRequired"],
            ["website", "ErrUrlInvalid"],
            ["role", "ErrChoiceInvalid"],
            ["dpa_url", "ErrUrlInvalid"],
            ["notes", "ErrTooLong5000"]
        ])
    );
    let vendors = json(app.call(&c, "vendor_list", &[("archived", "1")]).await).await;
    assert_eq!(vendors["rows"], json!([]));

    let vendor = create_vendor(&app, &c, "ChatCo", "application").await;
    let r = app
        .call(
            &c,
            "save_vendor",
            &[("form[name]", "CHATCO"), ("form[role]", "application")],
        )
        .await;
    assert_eq!(r.status(), 422);
    assert_eq!(json(r).await["fields"], json!([["name", "ErrNameTaken"]]));

    // A service naming a vendor that does not exist, a member and a data class
    // of nobody, an over-long name, a broken date.
    let random = uuid::Uuid::new_v4().to_string();
    let r = app
        .call(
            &c,
            "save_service",
            &[
                ("form[name]", &"n".repeat(201)),
                ("form[vendor_id]", &vendor),
                ("form[dpa_signed_on]", "30.11.2026"),
                ("form[notice_hours]", "three days"),
            ],
        )
        .await;
    assert_eq!(r.status(), 422);
    assert_eq!(
        json(r).await["fields"],
        json!([
            ["name", "ErrTooLong200"],
            ["dpa_signed_on", "ErrDateInvalid"],
            ["notice_hours", "ErrHoursInvalid"]
        ])
    );
    let r = app
        .call(
            &c,
            "save_service",
            &[
                ("form[name]", "Bot"),
                ("form[vendor_id]", &random),
                ("form[owner_id]", &random),
                ("form[data_classes][0]", &random),
            ],
        )
        .await;
    assert_eq!(r.status(), 422);
    assert_eq!(
        json(r).await["fields"],
        json!([
            ["vendor_id", "ErrVendorUnknown"],
            ["owner_id", "ErrOwnerUnknown"],
            ["data_classes", "ErrDataClassUnknown"]
        ])
    );
    let r = app
        .call(
            &c,
            "save_finding",
            &[
                ("service_id", &random),
                ("finding[topic]", "separation"),
                ("finding[status]", "stated"),
            ],
        )
        .await;
    assert_eq!(r.status(), 404);
    assert_eq!(service_count(&app, &c).await, 0);

    // Errors come in the member's language.
    app.call(&c, "set_language", &[("lang", "nb")]).await;
    let html = c
        .get(app.url("/services/not-an-id"))
        .header("accept", "text/html")
        .send()
        .await
        .unwrap();
    assert_eq!(html.status(), 404);
    assert!(html.text().await.unwrap().contains("Ikke funnet."));
}

async fn viewers_read_and_editors_write(b: Db) {
    let Some(app) = TestApp::spawn(b).await else {
        return;
    };
    let owner = app.sign_up("owner@alpha.example", "Alpha").await;
    let viewer = app
        .invite_and_join(&owner, "viewer@alpha.example", "viewer")
        .await;
    let editor = app
        .invite_and_join(&owner, "editor@alpha.example", "editor")
        .await;
    let vendor = create_vendor(&app, &editor, "ChatCo", "application").await;
    let service = create_service(
        &app,
        &editor,
        &[("form[name]", "Bot"), ("form[vendor_id]", &vendor)],
    )
    .await;

    for (name, form) in [
        (
            "save_vendor",
            vec![("form[name]", "X"), ("form[role]", "application")],
        ),
        ("delete_vendor", vec![("vendor_id", vendor.as_str())]),
        (
            "archive_service",
            vec![("service_id", service.as_str()), ("archived", "true")],
        ),
        ("delete_service", vec![("service_id", service.as_str())]),
        ("import_preview", vec![("csv", "name,vendor\nA,B\n")]),
    ] {
        let r = app.call(&viewer, name, &form).await;
        assert_eq!(r.status(), 403, "viewer {name}");
    }
    let list = json(app.call(&viewer, "service_list", &[]).await).await;
    assert_eq!(list["total"], 1);
    assert_eq!(list["can_edit"], false);
    let html = page(&app, &viewer, &format!("/services/{service}")).await;
    assert!(html.contains("Bot") && !html.contains("id=\"edit-service\""));
    assert_eq!(service_count(&app, &owner).await, 1);
}

async fn data_classes_are_the_owners(b: Db) {
    let Some(app) = TestApp::spawn(b).await else {
        return;
    };
    let owner = app.sign_up("owner@alpha.example", "Alpha").await;
    let editor = app
        .invite_and_join(&owner, "editor@alpha.example", "editor")
        .await;
    let r = app
        .call(&editor, "save_data_class", &[("name", "Source code")])
        .await;
    assert_eq!(r.status(), 403);
    let r = app
        .call(
            &owner,
            "save_data_class",
            &[("name", "Source code"), ("personal", "false")],
        )
        .await;
    assert_eq!(location(&r), "/settings#data-classes");
    let r = app
        .call(&owner, "save_data_class", &[("name", "source CODE")])
        .await;
    assert_eq!(json(r).await["fields"], json!([["name", "ErrNameTaken"]]));
    let code = data_class(&app, &owner, "Source code").await;
    let vendor = create_vendor(&app, &owner, "GitAI", "application").await;
    create_service(
        &app,
        &owner,
        &[
            ("form[name]", "Code review"),
            ("form[vendor_id]", &vendor),
            ("form[data_classes][0]", &code),
        ],
    )
    .await;
    let r = app
        .call(&owner, "delete_data_class", &[("data_class_id", &code)])
        .await;
    assert_eq!(r.status(), 409);
    assert_eq!(json(r).await["args"], json!([["names", "Code review"]]));
    let r = app
        .call(
            &owner,
            "save_data_class",
            &[
                ("data_class_id", &code),
                ("name", "Source code (ours)"),
                ("personal", "true"),
                ("archived", "true"),
            ],
        )
        .await;
    assert!(accepted(&r), "{}", r.status());
    let list = json(app.call(&owner, "data_classes_data", &[]).await).await;
    let c = list
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["id"] == code.as_str())
        .unwrap()
        .clone();
    assert_eq!(
        (
            c["name"].as_str(),
            c["personal"].as_bool(),
            c["archived"].as_bool()
        ),
        (Some("Source code (ours)"), Some(true), Some(true))
    );
    let settings = page(&app, &owner, "/settings").await;
    assert!(settings.contains("Source code (ours)"));
}

async fn csv_export_is_spreadsheet_safe_and_imports_again(b: Db) {
    let Some(app) = TestApp::spawn(b).await else {
        return;
    };
    let a = app.sign_up("owner@alpha.example", "Alpha").await;
    let vendor = create_vendor(&app, &a, "=cmd|' /C calc'!A0", "application").await;
    let personal = data_class(&app, &a, "Personal data").await;
    create_service(
        &app,
        &a,
        &[
            ("form[name]", "@SUM(1+1)"),
            ("form[purpose]", "Line one\n\"quoted\", with comma"),
            ("form[vendor_id]", &vendor),
            ("form[model]", "-2+3"),
            ("form[engine]", "x;=cmd|' /C calc'!A0"),
            ("form[data_classes][0]", &personal),
            ("form[notice_hours]", "24"),
        ],
    )
    .await;

    let r = a.get(app.url("/services/export.csv")).send().await.unwrap();
    assert_eq!(r.status(), 200);
    assert_eq!(r.headers()["content-type"], "text/csv; charset=utf-8");
    assert!(r.headers()["content-disposition"]
        .to_str()
        .unwrap()
        .starts_with("attachment; filename=\"aivet-services-"));
    let csv = r.text().await.unwrap();
    let mut reader = csv::Reader::from_reader(csv.as_bytes());
    let headers = reader.headers().unwrap().clone();
    let row = reader.records().next().unwrap().unwrap();
    let cell = |name: &str| {
        row.get(headers.iter().position(|h| h == name).unwrap())
            .unwrap()
            .to_owned()
    };
    assert_eq!(cell("name"), "'@SUM(1+1)", "formula cells are defused");
    assert_eq!(cell("vendor"), "'=cmd|' /C calc'!A0");
    assert_eq!(cell("model"), "'-2+3");
    assert_eq!(cell("engine"), "x;'=cmd|' /C calc'!A0");
    assert_eq!(cell("purpose"), "Line one\n\"quoted\", with comma");
    assert_eq!(cell("data_classes"), "Personal data");
    assert_eq!(cell("separation_status"), "unknown");
    // Read as English spreadsheets split (commas) and as German and
    // Norwegian ones do (semicolons): no cell starts a formula.
    for delimiter in [b',', b';'] {
        let mut reader = csv::ReaderBuilder::new()
            .delimiter(delimiter)
            .flexible(true)
            .from_reader(csv.as_bytes());
        for row in reader.records() {
            for c in row.unwrap().iter() {
                assert!(
                    !c.starts_with(['=', '+', '-', '@', '\t', '\r']),
                    "unsafe cell {c:?} split at {}",
                    delimiter as char
                );
            }
        }
    }
    let bom = a
        .get(app.url("/services/export.csv?bom=1"))
        .send()
        .await
        .unwrap()
        .bytes()
        .await
        .unwrap();
    assert_eq!(&bom[..3], b"\xEF\xBB\xBF");
    assert_eq!(&bom[3..], csv.as_bytes(), "in English, commas");
    // Excel in German (and Norwegian) splits at semicolons: the same
    // records, separated so.
    let r = app.call(&a, "set_language", &[("lang", "de")]).await;
    assert!(accepted(&r), "{}", r.status());
    let german = a
        .get(app.url("/services/export.csv?bom=1"))
        .send()
        .await
        .unwrap()
        .bytes()
        .await
        .unwrap();
    assert_eq!(&german[..3], b"\xEF\xBB\xBF");
    let records = |bytes: &[u8], delimiter: u8| -> Vec<Vec<String>> {
        csv::ReaderBuilder::new()
            .delimiter(delimiter)
            .from_reader(bytes)
            .records()
            .map(|r| r.unwrap().iter().map(str::to_owned).collect())
            .collect()
    };
    assert_eq!(records(&german[3..], b';'), records(csv.as_bytes(), b','));
    assert!(String::from_utf8_lossy(&german[3..])
        .lines()
        .next()
        .unwrap()
        .starts_with("name;purpose;"));

    // Signed out: to the sign-in page, no data.
    let anon = app
        .client()
        .get(app.url("/services/export.csv"))
        .send()
        .await
        .unwrap();
    assert_eq!(anon.status(), 302);

    // The export imports into another organisation as it was.
    let b_ = app.sign_up("owner@beta.example", "Beta").await;
    let plan = json(app.call(&b_, "import_preview", &[("csv", &csv)]).await).await;
    assert_eq!(plan["errors"], json!([]), "{plan}");
    assert_eq!(plan["rows"], 1);
    assert_eq!(plan["new_vendors"], json!(["=cmd|' /C calc'!A0"]));
    assert_eq!(
        service_count(&app, &b_).await,
        0,
        "the preview writes nothing"
    );
    let r = app.call(&b_, "import_commit", &[("csv", &csv)]).await;
    assert_eq!(location(&r), "/services?imported=1");
    let list = json(app.call(&b_, "service_list", &[]).await).await;
    let id = list["rows"][0]["id"].as_str().unwrap().to_owned();
    let d = json(
        app.call(&b_, "service_detail", &[("service_id", &id)])
            .await,
    )
    .await;
    assert_eq!(d["name"], "@SUM(1+1)");
    assert_eq!(d["model"], "-2+3");
    assert_eq!(d["engine"], "x;=cmd|' /C calc'!A0");
    assert_eq!(d["purpose"], "Line one\n\"quoted\", with comma");
    assert_eq!(d["data_classes"], json!(["Personal data"]));
    assert_eq!(d["notice_hours"], 24);
    // A second import of the same file collides with what is there.
    let again = json(app.call(&b_, "import_preview", &[("csv", &csv)]).await).await;
    assert_eq!(again["errors"][0]["msg"], "ErrNameTaken");

    // The template is a valid import once its example vendor exists or not.
    let template = app
        .client()
        .get(app.url("/services/import-template.csv"))
        .send()
        .await
        .unwrap();
    assert_eq!(template.status(), 200);
    let template = template.text().await.unwrap();
    let plan = json(app.call(&a, "import_preview", &[("csv", &template)]).await).await;
    assert_eq!(plan["errors"], json!([]), "{plan}");
}

async fn an_import_with_errors_reports_rows_and_writes_nothing(b: Db) {
    let Some(app) = TestApp::spawn(b).await else {
        return;
    };
    let c = app.sign_up("owner@alpha.example", "Alpha").await;
    // Semicolons, as spreadsheet programs in Germany and Norway write them.
    let csv = "\u{feff}Name;Vendor;Status;Owner;Data_classes;DPA_URL\n\
               Good one;New Vendor;In Nutzung;owner@alpha.example;Internal|Personal data;https://v.example/dpa\n\
               Bad one;New Vendor;sometimes;ghost@alpha.example;Secret sauce;ftp://v.example\n\
               good ONE;;;;;\n";
    let plan = json(app.call(&c, "import_preview", &[("csv", csv)]).await).await;
    let errors: Vec<(i64, String, String)> = plan["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            (
                e["row"].as_i64().unwrap(),
                e["column"].as_str().unwrap().to_owned(),
                e["msg"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    let expected: Vec<(i64, String, String)> = [
        (3, "owner", "ErrOwnerUnknown"),
        (3, "data_classes", "ErrDataClassUnknown"),
        (3, "status", "ErrChoiceInvalid"),
        (3, "dpa_url", "ErrUrlInvalid"),
        (4, "name", "ErrDuplicateInFile"),
        (4, "vendor", "ErrVendorRequired"),
    ]
    .into_iter()
    .map(|(r, c, m)| (r, c.to_owned(), m.to_owned()))
    .collect();
    assert_eq!(errors, expected);
    let r = app.call(&c, "import_commit", &[("csv", csv)]).await;
    assert_eq!(r.status(), 422);
    assert_eq!(service_count(&app, &c).await, 0);
    let vendors = json(app.call(&c, "vendor_list", &[("archived", "1")]).await).await;
    assert_eq!(vendors["rows"], json!([]), "no vendor of a refused import");

    // Without the required columns, the header is the problem.
    let plan = json(
        app.call(&c, "import_preview", &[("csv", "title,provider\nA,B\n")])
            .await,
    )
    .await;
    assert_eq!(plan["errors"][0]["column"], "name");
    assert_eq!(plan["errors"][1]["column"], "vendor");
    assert_eq!(plan["errors"][0]["msg"], "ErrCsvColumnMissing");
    let plan = json(
        app.call(&c, "import_preview", &[("csv", "name,vendor\n")])
            .await,
    )
    .await;
    assert_eq!(plan["errors"][0]["msg"], "ErrCsvEmpty");
    let broken = "name,vendor\n\"unterminated,x\n";
    let plan = json(app.call(&c, "import_preview", &[("csv", broken)]).await).await;
    assert_eq!(plan["errors"][0]["msg"], "ErrCsvUnreadable", "{plan}");

    // A column given twice would lose one of its values: refused, named,
    // once per name however often it repeats, and in the user's language.
    let twice = "name,vendor,Name,model,vendor,vendor\nChat A,Acme,Chat B,m1,Beta,Gamma\n";
    assert!(accepted(
        &app.call(&c, "set_language", &[("lang", "de")]).await
    ));
    let plan = json(app.call(&c, "import_preview", &[("csv", twice)]).await).await;
    let named: Vec<(i64, &str, &str)> = plan["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            (
                e["row"].as_i64().unwrap(),
                e["column"].as_str().unwrap(),
                e["msg"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        named,
        [
            (1, "name", "ErrCsvColumnTwice"),
            (1, "vendor", "ErrCsvColumnTwice")
        ],
        "{plan}"
    );
    assert_eq!(
        plan["errors"][0]["text"],
        "Diese Spalte kommt in der ersten Zeile mehrfach vor. Behalten Sie nur eine davon."
    );
    let r = app.call(&c, "import_commit", &[("csv", twice)]).await;
    assert_eq!(r.status(), 422);
    let refused = json(r).await;
    assert_eq!(refused["fields"], json!([["csv", "ErrImportNotChecked"]]));
    assert_eq!(service_count(&app, &c).await, 0);
}

/// With more vendors than a select can sensibly hold, the list does not
/// ship them all: the vendor filter becomes a name to type.
async fn with_many_vendors_the_vendor_filter_takes_a_name(b: Db) {
    let Some(app) = TestApp::spawn(b).await else {
        return;
    };
    let c = app.sign_up("many@example.com", "Many Vendors").await;
    let mut ids = Vec::new();
    for i in 0..61 {
        ids.push(create_vendor(&app, &c, &format!("Vendor {i:02}"), "application").await);
    }
    create_service(
        &app,
        &c,
        &[
            ("form[name]", "Bot A"),
            ("form[vendor_id]", ids[7].as_str()),
        ],
    )
    .await;
    create_service(
        &app,
        &c,
        &[
            ("form[name]", "Bot B"),
            ("form[vendor_id]", ids[8].as_str()),
        ],
    )
    .await;
    let list = |filter: Vec<(&'static str, String)>| {
        let app = &app;
        let c = &c;
        async move {
            let form: Vec<(String, String)> = filter
                .into_iter()
                .map(|(k, v)| (format!("filter[{k}]"), v))
                .collect();
            json(
                c.post(app.url("/api/service_list"))
                    .form(&form)
                    .send()
                    .await
                    .unwrap(),
            )
            .await
        }
    };
    let all = list(vec![]).await;
    assert_eq!(all["vendor_search"], true);
    assert!(
        all["choices"]["vendors"].as_array().unwrap().is_empty(),
        "no 61 options shipped"
    );
    assert_eq!(all["total"], 2);
    // A unique start of the name, in any case, picks the vendor.
    let one = list(vec![("vendor_name", "vendor 07".into())]).await;
    assert_eq!(one["total"], 1);
    assert_eq!(one["rows"][0]["name"], "Bot A");
    assert_eq!(one["choices"]["vendors"][0]["name"], "Vendor 07");
    // Several vendors start so, or none: said so, nothing listed.
    for name in ["Vendor 0", "Nobody"] {
        let none = list(vec![("vendor_name", name.into())]).await;
        assert_eq!(none["vendor_unknown"], true, "{name}");
        assert_eq!(none["total"], 0);
    }
    let (s, page) = app.get_text(&c, "/services?vendor_name=Nobody").await;
    assert_eq!(s, 200);
    assert!(page.contains("id=\"vendor-name\"") && page.contains("No vendor has this name"));
    // A link with the vendor's id still works.
    let by_id = list(vec![("vendor", ids[8].clone())]).await;
    assert_eq!(by_id["rows"][0]["name"], "Bot B");
}

/// Every list's search: an overlong term gets its message (in the user's
/// language) on the page and from the list function, never a server error;
/// `%`, `_` and `\` are searched for as they are, not as wildcards.
async fn searches_are_bounded_and_literal(b: Db) {
    use aivet_domain::{Lang, Msg};
    let Some(app) = TestApp::spawn(b).await else {
        return;
    };
    let c = app.sign_up("owner@alpha.example", "Alpha").await;
    for name in ["100% Cloud", "Under_Score AI", "Back\\Slash", "Plain AI"] {
        let v = create_vendor(&app, &c, name, "application").await;
        create_service(
            &app,
            &c,
            &[
                ("form[name]", &format!("Service of {name}")),
                ("form[vendor_id]", &v),
                ("form[status]", "in_use"),
            ],
        )
        .await;
    }
    for name in ["100% Kunde", "Under_Score Kunde", "Back\\Slash Kunde"] {
        assert!(accepted(
            &app.call(&c, "create_org", &[("org_name", name)]).await
        ));
    }
    let vendor_names = |v: &Value| -> Vec<String> {
        v["rows"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["name"].as_str().unwrap().to_owned())
            .collect()
    };
    // The vendors and services were made in Alpha; back to it.
    let alpha = json(my_orgs(&app, &c, "Alpha").await).await["rows"][0]["id"]
        .as_str()
        .unwrap()
        .to_owned();
    assert!(accepted(
        &app.call(&c, "switch_org", &[("org_id", &alpha)]).await
    ));
    for (term, vendor, org) in [
        ("%", "100% Cloud", "100% Kunde"),
        ("_", "Under_Score AI", "Under_Score Kunde"),
        ("\\", "Back\\Slash", "Back\\Slash Kunde"),
    ] {
        let vendors = json(app.call(&c, "vendor_list", &[("q", term)]).await).await;
        assert_eq!(
            vendor_names(&vendors),
            [vendor],
            "vendors matching {term:?}"
        );
        let services = json(app.call(&c, "service_list", &[("filter[q]", term)]).await).await;
        assert_eq!(
            vendor_names(&services),
            [format!("Service of {vendor}")],
            "services matching {term:?}"
        );
        let orgs = json(my_orgs(&app, &c, term).await).await;
        assert_eq!(
            vendor_names(&orgs),
            [org],
            "organisations matching {term:?}"
        );
    }

    // At the limit still a search; past it a message, for every list.
    let longest = "ø".repeat(aivet_domain::SearchText::MAX_CHARS);
    let r = app.call(&c, "vendor_list", &[("q", &longest)]).await;
    assert_eq!(r.status(), 200);
    for lang in [Lang::En, Lang::De, Lang::Nb] {
        assert!(accepted(
            &app.call(&c, "set_language", &[("lang", lang.code())]).await
        ));
        let expected = Msg::ErrSearchTooLong.text(lang);
        for long in ["a".repeat(201), "x".repeat(50_001)] {
            for (name, field) in [
                ("vendor_list", "q"),
                ("service_list", "filter[q]"),
                ("my_org_list", "q"),
            ] {
                let r = app.call(&c, name, &[(field, long.as_str())]).await;
                assert_eq!(r.status(), 422, "{name} with {} characters", long.len());
                let e = json(r).await;
                assert_eq!(e["text"], expected, "{name}: {e}");
                assert_eq!(e["fields"][0][0], "q", "{name}: {e}");
            }
            for path in ["/services", "/vendors", "/organisations"] {
                let r = c
                    .get(app.url(path))
                    .query(&[("q", long.as_str())])
                    .header("accept", "text/html")
                    .send()
                    .await
                    .unwrap();
                assert_eq!(r.status(), 422, "{path} with {} characters", long.len());
                let body = r.text().await.unwrap();
                assert!(body.contains(expected), "{path} in {lang}: {body}");
            }
        }
    }
}

async fn my_orgs(app: &TestApp, c: &Client, q: &str) -> Response {
    app.call(c, "my_org_list", &[("q", q)]).await
}
