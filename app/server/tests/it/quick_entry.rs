//! Several services at once (the quick-entry page) and a vendor made in
//! place on the new-service form (issue 15): vendors by name, integrators,
//! the catalogue, refusals at the control they belong to, nothing saved
//! with any problem.

use crate::helpers::*;
use crate::inventory::create_vendor;
use crate::pages::*;
use reqwest::Client;
use serde_json::Value;

crate::on_both!(
    ticked_and_typed_services_arrive_with_their_vendors,
    a_refused_quick_entry_comes_back_as_typed_and_saves_nothing,
    a_vendor_is_made_in_place_with_its_service,
);

async fn json(app: &TestApp, c: &Client, f: &str, form: &[(&str, &str)]) -> Value {
    let r = app.call(c, f, form).await;
    let status = r.status();
    let text = r.text().await.unwrap();
    serde_json::from_str(&text).unwrap_or_else(|_| panic!("{f}: {status} {text}"))
}

/// (name, role) of every vendor.
async fn vendors(app: &TestApp, c: &Client) -> Vec<(String, String)> {
    let mut v: Vec<(String, String)> = json(app, c, "vendor_list", &[("archived", "1")]).await
        ["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["name"].as_str().unwrap().to_owned(),
                r["role"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    v.sort();
    v
}

/// (name, vendor, integrator, status) of every service.
async fn services(app: &TestApp, c: &Client) -> Vec<(String, String, String, String)> {
    let mut s: Vec<_> = json(app, c, "service_list", &[("filter[archived]", "1")]).await["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["name"].as_str().unwrap().to_owned(),
                r["vendor"].as_str().unwrap().to_owned(),
                r["integrator"].as_str().unwrap_or("").to_owned(),
                r["status"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    s.sort();
    s
}

/// The place of a catalogue entry, which names its controls.
fn place(id: &str) -> usize {
    aivet_domain::catalogue::catalogue()
        .iter()
        .position(|e| e.id == id)
        .unwrap()
}

/// The quick-entry form as the page posts it: every catalogue entry with
/// its code and status, the ticked ones with `add`, then the typed rows.
fn quick_form(ticked: &[(&str, &str, &str)], rows: &[[&str; 4]]) -> Vec<(String, String)> {
    let mut form = Vec::new();
    for (i, e) in aivet_domain::catalogue::catalogue().iter().enumerate() {
        let tick = ticked.iter().find(|(id, _, _)| *id == e.id);
        form.push((format!("form[picks][{i}][code]"), e.id.clone()));
        if tick.is_some() {
            form.push((format!("form[picks][{i}][add]"), "yes".to_owned()));
        }
        let status = tick.map(|t| t.1).unwrap_or("in_use");
        form.push((format!("form[picks][{i}][status]"), status.to_owned()));
        let integrator = tick.map(|t| t.2).unwrap_or("");
        form.push((
            format!("form[picks][{i}][integrator]"),
            integrator.to_owned(),
        ));
    }
    for (i, [name, vendor, integrator, status]) in rows.iter().enumerate() {
        for (field, value) in [
            ("name", name),
            ("vendor", vendor),
            ("integrator", integrator),
            ("status", status),
        ] {
            form.push((format!("form[rows][{i}][{field}]"), value.to_string()));
        }
    }
    form
}

/// The fields a refused call names (it must be refused as invalid).
async fn refused_fields(r: reqwest::Response) -> Value {
    assert_eq!(r.status(), 422);
    let body: Value = r.json().await.unwrap();
    body["fields"].clone()
}

fn pairs(form: &[(String, String)]) -> Vec<(&str, &str)> {
    form.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect()
}

const EMPTY_ROW: [&str; 4] = ["", "", "", "in_use"];

async fn ticked_and_typed_services_arrive_with_their_vendors(b: Db) {
    let Some(app) = TestApp::spawn(b).await else {
        return;
    };
    let c = app
        .sign_up("owner@baeckerei.example", "Bäckerei Korn")
        .await;
    // A vendor the organisation has already, written in another case.
    create_vendor(&app, &c, "microsoft", "application").await;
    // Another organisation with a vendor of the same name as one typed here:
    // names are looked up in one's own inventory only.
    let other = app.sign_up("owner@other.example", "Other").await;
    create_vendor(&app, &other, "Kasse & Co IT", "integrator").await;

    let form = quick_form(
        &[
            ("chatgpt", "in_use", ""),
            ("m365-copilot", "trial", ""),
            ("copilot-chat", "in_use", ""),
        ],
        &[
            ["Kassen-Assistent", "Microsoft", "Kasse & Co IT", "in_use"],
            ["Bestell-Bot", "Kasse & Co IT", "", "trial"],
            EMPTY_ROW,
            EMPTY_ROW,
        ],
    );
    let r = app.call(&c, "save_quick_entry", &pairs(&form)).await;
    assert!(accepted(&r), "{}", r.status());
    assert_eq!(r.headers()["location"], "/services");

    assert_eq!(
        services(&app, &c).await,
        vec![
            (
                "Bestell-Bot".into(),
                "Kasse & Co IT".into(),
                "".into(),
                "trial".into()
            ),
            (
                "ChatGPT".into(),
                "OpenAI".into(),
                "".into(),
                "in_use".into()
            ),
            (
                "Kassen-Assistent".into(),
                "microsoft".into(),
                "Kasse & Co IT".into(),
                "in_use".into()
            ),
            (
                "Microsoft 365 Copilot".into(),
                "microsoft".into(),
                "".into(),
                "trial".into()
            ),
            (
                "Microsoft Copilot Chat".into(),
                "microsoft".into(),
                "".into(),
                "in_use".into()
            ),
        ]
    );
    // The existing vendor is used, not doubled; a new one gets the role of
    // the place it was first named in (the integrator column here).
    assert_eq!(
        vendors(&app, &c).await,
        vec![
            ("Kasse & Co IT".into(), "integrator".into()),
            ("OpenAI".into(), "model_provider".into()),
            ("microsoft".into(), "application".into()),
        ]
    );
    assert_eq!(vendors(&app, &other).await.len(), 1, "the other one's stay");
    let audit = app.settings(&c).await["audit"].to_string();
    assert!(
        audit.contains("Added 5 services at once. 2 new vendors."),
        "{audit}"
    );

    // The page now marks what is listed, and offers the rest.
    let page = html(
        c.get(app.url("/services/quick"))
            .header("accept", "text/html")
            .send()
            .await
            .unwrap(),
    )
    .await;
    let listed = text_of(one(&page, "#quick-catalogue tr.listed"));
    assert!(
        listed.contains("ChatGPT") && listed.contains("already listed"),
        "{listed}"
    );
    assert!(page
        .select(&sel(&format!(
            "input[name='form[picks][{}][add]']",
            place("chatgpt")
        )))
        .next()
        .is_none());
    assert!(page
        .select(&sel(&format!(
            "input[name='form[picks][{}][add]']",
            place("deepl")
        )))
        .next()
        .is_some());

    // A listed one sent again (a second tab) is refused at its box, and
    // nothing of the post is saved.
    let again = quick_form(&[("chatgpt", "in_use", ""), ("deepl", "in_use", "")], &[]);
    let r = app.call(&c, "save_quick_entry", &pairs(&again)).await;
    assert_eq!(
        refused_fields(r).await,
        serde_json::json!([[format!("picks[{}][add]", place("chatgpt")), "ErrNameTaken"]])
    );
    assert_eq!(services(&app, &c).await.len(), 5);
}

async fn a_refused_quick_entry_comes_back_as_typed_and_saves_nothing(b: Db) {
    let Some(app) = TestApp::spawn(b).await else {
        return;
    };
    let c = app.sign_up("owner@fjord.example", "Fjord").await;
    let deepl = place("deepl");
    let claude = place("claude");
    let chatgpt = place("chatgpt");
    // Listed already, and ticked again from a page opened before (a second tab).
    let openai = create_vendor(&app, &c, "OpenAI", "model_provider").await;
    crate::inventory::create_service(
        &app,
        &c,
        &[("form[name]", "ChatGPT"), ("form[vendor_id]", &openai)],
    )
    .await;
    let form = quick_form(
        &[("deepl", "trial", "Fjord IT"), ("chatgpt", "in_use", "")],
        &[
            ["Tilbudshjelper", "", "Fjord IT", "in_use"],
            ["Notatbot", "TextKI AS", "", "trial"],
            EMPTY_ROW,
        ],
    );
    // Built in by, but not ticked: which one was meant?
    let mut form = form;
    for (k, v) in form.iter_mut() {
        if *k == format!("form[picks][{claude}][integrator]") {
            *v = "Someone".into();
        }
    }
    let r = plain_post(
        &app,
        &c,
        "/api/save_quick_entry",
        "/services/quick",
        &pairs(&form),
    )
    .await;
    assert_eq!(r.status(), 422);
    let doc = html(r).await;
    assert!(
        text_of(one(&doc, "#quick-form #post-error")).contains("Please correct the marked fields.")
    );
    // What was typed and ticked is there again.
    assert_eq!(shown(&doc, "#q-row-0-name"), "Tilbudshjelper");
    assert_eq!(shown(&doc, "#q-row-0-integrator"), "Fjord IT");
    assert_eq!(shown(&doc, "#q-row-1-vendor"), "TextKI AS");
    assert_eq!(shown(&doc, "#q-row-1-status"), "trial");
    assert_eq!(shown(&doc, &format!("#q-pick-{deepl}-status")), "trial");
    assert_eq!(
        shown(&doc, &format!("#q-pick-{deepl}-integrator")),
        "Fjord IT"
    );
    let ticked = one(&doc, &format!("input[name='form[picks][{deepl}][add]']"));
    assert!(ticked.value().attr("checked").is_some(), "the tick is kept");
    // Each problem at its control.
    assert_eq!(
        text_of(one(&doc, "#q-row-0-vendor-error")),
        "Please enter the vendor."
    );
    assert_eq!(
        one(&doc, "#q-row-0-vendor").value().attr("aria-invalid"),
        Some("true")
    );
    assert_eq!(
        text_of(one(&doc, &format!("#q-pick-{claude}-integrator-error"))),
        "Tick the service to add it, or clear this field."
    );
    assert_eq!(
        text_of(one(&doc, &format!("#q-pick-{chatgpt}-add-error"))),
        "This name is already used in your organisation."
    );
    let banner = text_of(one(&doc, "#quick-form #post-error"));
    assert!(
        !banner.contains("picks["),
        "no key left for the banner: {banner}"
    );
    // Nothing of the rows that were fine.
    assert_eq!(services(&app, &c).await.len(), 1);
    assert_eq!(vendors(&app, &c).await.len(), 1);

    // Nothing at all to add is said so.
    let r = app
        .call(
            &c,
            "save_quick_entry",
            &pairs(&quick_form(&[], &[EMPTY_ROW])),
        )
        .await;
    assert_eq!(
        refused_fields(r).await,
        serde_json::json!([["rows", "ErrQuickNothing"]])
    );

    // Without the bundle, "nothing to add" stands above the rows.
    let r = plain_post(
        &app,
        &c,
        "/api/save_quick_entry",
        "/services/quick",
        &pairs(&quick_form(&[], &[EMPTY_ROW])),
    )
    .await;
    assert_eq!(r.status(), 422);
    let doc = html(r).await;
    assert_eq!(
        text_of(one(&doc, "#q-rows-error")),
        "Nothing to add yet: tick a service or fill in a row."
    );

    // A viewer cannot add.
    let viewer = app
        .invite_and_join(&c, "viewer@fjord.example", "viewer")
        .await;
    let ok = quick_form(&[("deepl", "in_use", "")], &[]);
    let r = app.call(&viewer, "save_quick_entry", &pairs(&ok)).await;
    assert_eq!(r.status(), 403);
    assert_eq!(services(&app, &c).await.len(), 1);
}

/// The new-service form with a vendor typed in place (and more fields).
async fn save_with_new_vendor(
    app: &TestApp,
    c: &Client,
    service: &str,
    vendor: &str,
    role: &str,
    more: &[(&str, &str)],
) -> reqwest::Response {
    let mut form = vec![
        ("form[name]", service),
        ("form[new_vendor_name]", vendor),
        ("form[new_vendor_role]", role),
    ];
    form.extend_from_slice(more);
    app.call(c, "save_service", &form).await
}

async fn a_vendor_is_made_in_place_with_its_service(b: Db) {
    let Some(app) = TestApp::spawn(b).await else {
        return;
    };
    let c = app.sign_up("owner@korn.example", "Korn").await;
    // The form offers it on a new service only.
    let (status, new_page) = app.get_text(&c, "/services/new").await;
    assert_eq!(status, 200);
    assert!(new_page.contains("id=\"f-new_vendor_name\""), "{new_page}");

    let r = save_with_new_vendor(
        &app,
        &c,
        "Textassistent",
        " TextKI  GmbH ",
        "model_provider",
        &[("form[status]", "in_use")],
    )
    .await;
    assert!(accepted(&r), "{}", r.status());
    assert_eq!(
        vendors(&app, &c).await,
        vec![("TextKI GmbH".into(), "model_provider".into())]
    );
    assert_eq!(
        services(&app, &c).await,
        vec![(
            "Textassistent".into(),
            "TextKI GmbH".into(),
            "".into(),
            "in_use".into()
        )]
    );
    let audit = app.settings(&c).await["audit"].to_string();
    assert!(
        audit.contains("TextKI GmbH") && audit.contains("Textassistent"),
        "{audit}"
    );

    // The same name again (in another case) is the same vendor.
    let r = save_with_new_vendor(&app, &c, "Übersetzer", "textki gmbh", "application", &[]).await;
    assert!(accepted(&r), "{}", r.status());
    assert_eq!(vendors(&app, &c).await.len(), 1);

    // A vendor chosen and one typed, a bad role, a taken service name:
    // refused, each at its field, nothing made.
    let chosen = create_vendor(&app, &c, "ChatCo", "application").await;
    let r = save_with_new_vendor(
        &app,
        &c,
        "Zweiter",
        "Noch einer",
        "application",
        &[("form[vendor_id]", &chosen)],
    )
    .await;
    assert_eq!(
        refused_fields(r).await,
        serde_json::json!([["new_vendor_name", "ErrVendorOrNew"]])
    );
    let r = save_with_new_vendor(
        &app,
        &c,
        "Textassistent",
        "Fresh Vendor",
        "boss",
        &[("form[dpa_url]", "not a url")],
    )
    .await;
    let fields = refused_fields(r).await.to_string();
    assert!(
        fields.contains("new_vendor_role") && fields.contains("dpa_url"),
        "every problem in one answer: {fields}"
    );
    let r = save_with_new_vendor(
        &app,
        &c,
        "Textassistent",
        "Fresh Vendor",
        "application",
        &[],
    )
    .await;
    assert_eq!(r.status(), 422, "the name is taken");
    let names: Vec<String> = vendors(&app, &c).await.into_iter().map(|v| v.0).collect();
    assert_eq!(names, vec!["ChatCo".to_owned(), "TextKI GmbH".to_owned()]);
}
