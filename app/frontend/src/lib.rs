//! The browser bundle: makes the server-rendered forms nicer without taking
//! them over. Every page is complete HTML from the server and every form
//! works as a plain POST (a refused one comes back as its page with the
//! messages at the fields and what was typed); this only improves what
//! happens in between.
//!
//! - Forms that post to a server function (`action="/api/…"`) are sent with
//!   `fetch`. A redirect loads the target page in full. An error stays on the
//!   page: the message on top of the form, each field's message next to its
//!   control (`[data-field]`), and everything typed is kept. The error texts
//!   come from the server in the page's language, so no UI text ships here.
//! - A form or button with `data-result="ID"` shows the function's answer in
//!   the element `ID` (a preview, a created link), filled through
//!   `data-slot`, `data-each` (with a `<template>`), `data-if` and
//!   `data-unless`. Editing the form hides a shown answer again.
//! - `data-copy="ID"` buttons copy the value of element `ID`.
//! - While a form is on its way its submit button is disabled and says
//!   `data-working`.

use js_sys::{Array, Reflect, JSON};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::{spawn_local, JsFuture};
use web_sys::{
    Document, Element, Event, FormData, Headers, HtmlElement, HtmlFormElement, HtmlTemplateElement,
    MouseEvent, RequestInit, Response, SubmitEvent, UrlSearchParams,
};

/// Marks set on what this module adds, so the next try can take it away.
const ADDED: &str = "data-added";

#[wasm_bindgen]
pub fn start() {
    let Some(doc) = document() else { return };
    listen(&doc, "submit", |ev: SubmitEvent| on_submit(ev));
    listen(&doc, "click", |ev: MouseEvent| on_click(ev));
    listen(&doc, "input", |ev: Event| on_input(ev));
    if let Some(w) = web_sys::window() {
        // A page restored from the back-forward cache keeps the state it was
        // left in: a form on its way would stay busy and take no submission.
        let cb = Closure::<dyn FnMut(Event)>::new(|_| {
            if let Some(doc) = document().and_then(|d| d.document_element()) {
                for form in all(&doc, "form[aria-busy]") {
                    let _ = form.remove_attribute("aria-busy");
                    for b in all(&form, "[aria-busy]") {
                        if let Ok(b) = b.dyn_into::<HtmlElement>() {
                            restore_button(&b);
                        }
                    }
                }
            }
        });
        let _ = w.add_event_listener_with_callback("pageshow", cb.as_ref().unchecked_ref());
        cb.forget();
    }
    if let Some(root) = doc.document_element() {
        let _ = root.set_attribute("data-hydrated", "true");
    }
}

fn listen<E: JsCast + wasm_bindgen::convert::FromWasmAbi + 'static>(
    doc: &Document,
    kind: &str,
    f: impl FnMut(E) + 'static,
) {
    let cb = Closure::<dyn FnMut(E)>::new(f);
    let _ = doc.add_event_listener_with_callback(kind, cb.as_ref().unchecked_ref());
    cb.forget();
}

fn document() -> Option<Document> {
    web_sys::window().and_then(|w| w.document())
}

fn on_submit(ev: SubmitEvent) {
    if ev.default_prevented() {
        return;
    }
    let Some(form) = ev
        .target()
        .and_then(|t| t.dyn_into::<HtmlFormElement>().ok())
    else {
        return;
    };
    // Without `SubmitEvent.submitter` a button's own target (`formaction`:
    // the mail preview) cannot be told apart: let the browser post it.
    if !Reflect::has(&ev, &JsValue::from_str("submitter")).unwrap_or(false) {
        return;
    }
    let submitter = ev.submitter();
    let action = submitter
        .as_ref()
        .and_then(|s| s.get_attribute("formaction"))
        .or_else(|| form.get_attribute("action"))
        .unwrap_or_default();
    if !action.starts_with("/api/") || !form.method().eq_ignore_ascii_case("post") {
        return;
    }
    ev.prevent_default();
    if form.get_attribute("aria-busy").as_deref() == Some("true") {
        return;
    }
    spawn_local(send(form, submitter, action));
}

/// What came back from the server for one submission.
enum Outcome {
    Redirect(String),
    Value(JsValue),
    Failed(JsValue),
}

async fn send(form: HtmlFormElement, submitter: Option<HtmlElement>, action: String) {
    let result_id = submitter
        .as_ref()
        .and_then(|s| s.get_attribute("data-result"))
        .or_else(|| form.get_attribute("data-result"));
    let button = submitter.clone().or_else(|| {
        form.query_selector("[type=submit]")
            .ok()
            .flatten()
            .and_then(|e| e.dyn_into().ok())
    });
    set_busy(&form, button.as_ref(), true);
    clear_errors(&form);
    hide_results(&form);
    // Editing the form while this is on its way makes its answer stale.
    let generation = form.get_attribute("data-generation");
    let outcome = post(&form, submitter.as_ref(), &action).await;
    if let Ok(Outcome::Redirect(to)) = &outcome {
        return go(to);
    }
    set_busy(&form, button.as_ref(), false);
    match outcome {
        Ok(Outcome::Redirect(_)) => {}
        Ok(Outcome::Value(v)) => match result_id.and_then(|id| by_id(&id)) {
            Some(_) if form.get_attribute("data-generation") != generation => {}
            Some(target) => {
                show_result(&target, &v);
                if let Some(b) = &button {
                    let _ = b.focus();
                }
            }
            // Nothing to show in place: the page shows the new state.
            None => reload(),
        },
        Ok(Outcome::Failed(err)) => show_errors(&form, &err),
        // Leaving the page cancels the request: nothing to say then.
        Err(e) if error_name(&e).as_deref() == Some("AbortError") => {}
        Err(_) => {
            let text = document()
                .and_then(|d| d.body())
                .and_then(|b| b.get_attribute("data-offline"))
                .unwrap_or_default();
            show_errors(&form, &JsValue::from_str(&text));
        }
    }
}

fn error_name(e: &JsValue) -> Option<String> {
    Reflect::get(e, &JsValue::from_str("name"))
        .ok()?
        .as_string()
}

/// The ids of the elements that show answers of this form's submissions.
fn result_ids(form: &Element) -> Vec<String> {
    let mut ids: Vec<String> = form.get_attribute("data-result").into_iter().collect();
    ids.extend(
        all(form, "[data-result]")
            .iter()
            .filter_map(|b| b.get_attribute("data-result")),
    );
    ids
}

fn hide_results(form: &Element) {
    for target in result_ids(form).iter().filter_map(|id| by_id(id)) {
        let _ = target.set_attribute("hidden", "");
    }
}

async fn post(
    form: &HtmlFormElement,
    submitter: Option<&HtmlElement>,
    action: &str,
) -> Result<Outcome, JsValue> {
    let data = FormData::new_with_form(form)?;
    if let Some(s) = submitter {
        if let Some(name) = s.get_attribute("name") {
            data.append_with_str(&name, &s.get_attribute("value").unwrap_or_default())?;
        }
    }
    let body = String::from(UrlSearchParams::new_with_str_sequence_sequence(&data)?.to_string());
    let headers = Headers::new()?;
    headers.set("Content-Type", "application/x-www-form-urlencoded")?;
    headers.set("Accept", "application/json")?;
    let init = RequestInit::new();
    init.set_method("POST");
    init.set_headers(&headers);
    init.set_body(&JsValue::from_str(&body));
    let window = web_sys::window().ok_or(JsValue::NULL)?;
    let res: Response = JsFuture::from(window.fetch_with_str_and_init(action, &init))
        .await?
        .dyn_into()?;
    if let Some(to) = res.headers().get("location")? {
        return Ok(Outcome::Redirect(to));
    }
    let text = JsFuture::from(res.text()?)
        .await?
        .as_string()
        .unwrap_or_default();
    // Our own short plain-text refusals (too large, not allowed) are shown
    // as they are; anything else that is not JSON (a proxy's error page)
    // gets the page's general message.
    let plain = res
        .headers()
        .get("content-type")?
        .is_some_and(|t| t.starts_with("text/plain"));
    let value = JSON::parse(&text).unwrap_or_else(|_| {
        if plain && text.len() <= 300 {
            JsValue::from_str(&text)
        } else {
            JsValue::UNDEFINED
        }
    });
    Ok(if res.ok() {
        Outcome::Value(value)
    } else {
        Outcome::Failed(value)
    })
}

/// Loads `to` in full; when only the fragment differs, reloads at it.
fn go(to: &str) {
    let Some(loc) = web_sys::window().map(|w| w.location()) else {
        return;
    };
    let here = format!(
        "{}{}",
        loc.pathname().unwrap_or_default(),
        loc.search().unwrap_or_default()
    );
    let has_hash = !loc.hash().unwrap_or_default().is_empty();
    match to.split_once('#') {
        // Only the fragment differs: assigning would just scroll.
        Some((target, hash)) if target == here => {
            let _ = loc.set_hash(hash);
            let _ = loc.reload();
        }
        None if to == here && !has_hash => {
            let _ = loc.reload();
        }
        _ => {
            let _ = loc.assign(to);
        }
    }
}

fn reload() {
    if let Some(w) = web_sys::window() {
        let _ = w.location().reload();
    }
}

fn by_id(id: &str) -> Option<Element> {
    document().and_then(|d| d.get_element_by_id(id))
}

fn all(root: &Element, css: &str) -> Vec<Element> {
    let Ok(list) = root.query_selector_all(css) else {
        return Vec::new();
    };
    (0..list.length())
        .filter_map(|i| list.item(i))
        .filter_map(|n| n.dyn_into().ok())
        .collect()
}

fn set_busy(form: &HtmlFormElement, button: Option<&HtmlElement>, busy: bool) {
    if busy {
        let _ = form.set_attribute("aria-busy", "true");
    } else {
        let _ = form.remove_attribute("aria-busy");
    }
    let Some(b) = button else { return };
    if busy {
        let _ = b.set_attribute("disabled", "");
        let _ = b.set_attribute("aria-busy", "true");
        if let Some(working) = b.get_attribute("data-working") {
            let _ = b.set_attribute("data-label", &b.text_content().unwrap_or_default());
            b.set_text_content(Some(&working));
        }
    } else {
        restore_button(b);
    }
}

fn restore_button(b: &HtmlElement) {
    let _ = b.remove_attribute("disabled");
    let _ = b.remove_attribute("aria-busy");
    if let Some(label) = b.get_attribute("data-label") {
        b.set_text_content(Some(&label));
    }
}

fn clear_errors(form: &Element) {
    for e in all(form, &format!("[{ADDED}]")) {
        e.remove();
    }
    for field in all(form, "[data-field].invalid") {
        let _ = field.class_list().remove_1("invalid");
        if let Some(control) = field
            .get_attribute("data-control")
            .and_then(|id| field.query_selector(&format!("#{id}")).ok().flatten())
        {
            let _ = control.remove_attribute("aria-invalid");
            match field.get_attribute("data-described") {
                Some(ids) if !ids.is_empty() => {
                    let _ = control.set_attribute("aria-describedby", &ids);
                }
                _ => {
                    let _ = control.remove_attribute("aria-describedby");
                }
            }
        }
    }
}

fn string_at(v: &JsValue, key: &str) -> Option<String> {
    Reflect::get(v, &JsValue::from_str(key))
        .ok()
        .and_then(|x| x.as_string())
}

/// The message on top of the form and each field's message next to it.
/// Field messages without a place on the form are listed under the top one.
fn show_errors(form: &HtmlFormElement, err: &JsValue) {
    let Some(doc) = document() else { return };
    let text = err
        .as_string()
        .or_else(|| string_at(err, "text"))
        .filter(|t| !t.is_empty())
        .or_else(|| doc.body().and_then(|b| b.get_attribute("data-error")))
        .unwrap_or_default();
    let Ok(banner) = doc.create_element("div") else {
        return;
    };
    let _ = banner.set_attribute("class", "alert error");
    let _ = banner.set_attribute("role", "alert");
    let _ = banner.set_attribute(ADDED, "");
    let _ = banner.append_with_str_1(&text);
    let mut unplaced = Vec::new();
    let mut placed = 0;
    let fields = Reflect::get(err, &JsValue::from_str("field_texts")).unwrap_or(JsValue::UNDEFINED);
    if Array::is_array(&fields) {
        for pair in Array::from(&fields).iter() {
            let pair = Array::from(&pair);
            let (Some(key), Some(msg)) = (pair.get(0).as_string(), pair.get(1).as_string()) else {
                continue;
            };
            // By the field's error key, or by the name its control is posted
            // under (what the server names when a form does not decode).
            let place = all(form, "[data-field]")
                .into_iter()
                .find(|f| f.get_attribute("data-field").as_deref() == Some(key.as_str()))
                .or_else(|| {
                    all(form, "[name]")
                        .into_iter()
                        .find(|c| c.get_attribute("name").as_deref() == Some(key.as_str()))
                        .and_then(|c| c.closest("[data-field]").ok().flatten())
                });
            match place {
                // A field gets its first message only.
                Some(field) if field.class_list().contains("invalid") => {}
                Some(field) => {
                    mark_field(&doc, &field, &msg);
                    placed += 1;
                }
                None => unplaced.push((key, msg)),
            }
        }
    }
    if !unplaced.is_empty() {
        // "Correct the marked fields" only when a field is marked.
        if placed == 0 && string_at(err, "msg").as_deref() == Some("ErrFormInvalid") {
            if let Some(listed) = doc.body().and_then(|b| b.get_attribute("data-form-listed")) {
                banner.set_text_content(Some(&listed));
            }
        }
        if let Ok(list) = doc.create_element("ul") {
            for (key, msg) in unplaced {
                if let (Ok(li), Ok(code)) = (doc.create_element("li"), doc.create_element("code")) {
                    code.set_text_content(Some(&key));
                    let _ = li.append_child(&code);
                    let _ = li.append_with_str_1(&format!(": {msg}"));
                    let _ = list.append_child(&li);
                }
            }
            let _ = banner.append_child(&list);
        }
    }
    let _ = form.prepend_with_node_1(&banner);
    // Long forms: the message on top may be out of sight.
    let first = form
        .query_selector("[aria-invalid='true']")
        .ok()
        .flatten()
        .and_then(|e| e.dyn_into::<HtmlElement>().ok());
    match first {
        Some(control) => {
            let _ = control.focus();
        }
        None => {
            let _ = banner.set_attribute("tabindex", "-1");
            if let Ok(b) = banner.dyn_into::<HtmlElement>() {
                let _ = b.focus();
            }
        }
    }
}

fn mark_field(doc: &Document, field: &Element, msg: &str) {
    let Ok(p) = doc.create_element("p") else {
        return;
    };
    // A field inside a closed section (a question's wordings) is opened.
    if let Some(details) = field.closest("details").ok().flatten() {
        let _ = details.set_attribute("open", "");
    }
    let _ = p.set_attribute("class", "field-error");
    let _ = p.set_attribute(ADDED, "");
    p.set_text_content(Some(msg));
    let _ = field.class_list().add_1("invalid");
    if let Some(id) = field.get_attribute("data-control") {
        let err_id = format!("{id}-error");
        p.set_id(&err_id);
        if let Some(control) = field.query_selector(&format!("#{id}")).ok().flatten() {
            let before = control
                .get_attribute("aria-describedby")
                .unwrap_or_default();
            if field.get_attribute("data-described").is_none() {
                let _ = field.set_attribute("data-described", &before);
            }
            let ids = if before.is_empty() {
                err_id
            } else {
                format!("{before} {err_id}")
            };
            let _ = control.set_attribute("aria-describedby", &ids);
            let _ = control.set_attribute("aria-invalid", "true");
        }
    }
    let _ = field.append_child(&p);
}

/// Fills `target` from a server function's answer and shows it. A list is
/// filled as `items`.
fn show_result(target: &Element, value: &JsValue) {
    let value = if Array::is_array(value) {
        let o = js_sys::Object::new();
        let _ = Reflect::set(&o, &JsValue::from_str("items"), value);
        o.into()
    } else {
        value.clone()
    };
    fill(target, &value);
    for b in all(target, "[data-copy][data-label]") {
        if let Some(label) = b.get_attribute("data-label") {
            b.set_text_content(Some(&label));
        }
    }
    let _ = target.remove_attribute("hidden");
}

fn truthy(v: &JsValue) -> bool {
    if Array::is_array(v) {
        Array::from(v).length() > 0
    } else {
        v.is_truthy()
    }
}

fn text_of(v: &JsValue) -> String {
    v.as_string()
        .or_else(|| v.as_f64().map(|n| n.to_string()))
        .unwrap_or_default()
}

fn fill(root: &Element, value: &JsValue) {
    let get = |e: &Element, attr: &str| {
        e.get_attribute(attr)
            .map(|k| Reflect::get(value, &JsValue::from_str(&k)).unwrap_or(JsValue::UNDEFINED))
    };
    let mut lists = all(root, "[data-each]");
    if root.has_attribute("data-each") {
        lists.insert(0, root.clone());
    }
    lists.retain(|e| !inside_each(e, root));
    for e in lists {
        let Some(list) = get(&e, "data-each") else {
            continue;
        };
        for old in all(&e, &format!(":scope > [{ADDED}]")) {
            old.remove();
        }
        let Some(template) = e
            .query_selector(":scope > template")
            .ok()
            .flatten()
            .and_then(|t| t.dyn_into::<HtmlTemplateElement>().ok())
        else {
            continue;
        };
        if !Array::is_array(&list) {
            continue;
        }
        for item in Array::from(&list).iter() {
            let Some(node) = template
                .content()
                .first_element_child()
                .and_then(|c| c.clone_node_with_deep(true).ok())
                .and_then(|n| n.dyn_into::<Element>().ok())
            else {
                continue;
            };
            let _ = node.set_attribute(ADDED, "");
            fill(&node, &item);
            let _ = e.append_child(&node);
        }
    }
    let own = |css: &str| {
        let mut v = all(root, css);
        if root.matches(css).unwrap_or(false) {
            v.push(root.clone());
        }
        v.retain(|e| !inside_each(e, root));
        v
    };
    for e in own("[data-slot]") {
        if let Some(v) = get(&e, "data-slot") {
            e.set_text_content(Some(&text_of(&v)));
        }
    }
    for e in own("[data-slot-value]") {
        if let Some(v) = get(&e, "data-slot-value") {
            let _ = Reflect::set(
                &e,
                &JsValue::from_str("value"),
                &JsValue::from_str(&text_of(&v)),
            );
        }
    }
    for e in own("[data-if]") {
        let show = get(&e, "data-if").is_some_and(|v| truthy(&v));
        let _ = if show {
            e.remove_attribute("hidden")
        } else {
            e.set_attribute("hidden", "")
        };
    }
    for e in own("[data-unless]") {
        let hide = get(&e, "data-unless").is_some_and(|v| truthy(&v));
        let _ = if hide {
            e.set_attribute("hidden", "")
        } else {
            e.remove_attribute("hidden")
        };
    }
}

/// Whether `e` belongs to a list item below `root` (filled by that item).
fn inside_each(e: &Element, root: &Element) -> bool {
    let mut cur = e.parent_element();
    while let Some(p) = cur {
        if &p == root {
            return false;
        }
        if p.has_attribute(ADDED) {
            return true;
        }
        cur = p.parent_element();
    }
    false
}

fn on_click(ev: MouseEvent) {
    let Some(button) = ev
        .target()
        .and_then(|t| t.dyn_into::<Element>().ok())
        .and_then(|e| e.closest("[data-copy]").ok().flatten())
    else {
        return;
    };
    let Some(source) = button.get_attribute("data-copy").and_then(|id| by_id(&id)) else {
        return;
    };
    let text = Reflect::get(&source, &JsValue::from_str("value"))
        .ok()
        .and_then(|v| v.as_string())
        .unwrap_or_default();
    if let Some(w) = web_sys::window() {
        let _ = w.navigator().clipboard().write_text(&text);
    }
    if let Some(done) = button.get_attribute("data-copied") {
        if button.get_attribute("data-label").is_none() {
            let label = button.text_content().unwrap_or_default();
            let _ = button.set_attribute("data-label", &label);
        }
        button.set_text_content(Some(&done));
    }
}

/// Editing a form hides the answer it showed (a preview of other input).
fn on_input(ev: Event) {
    let Some(form) = ev
        .target()
        .and_then(|t| t.dyn_into::<Element>().ok())
        .and_then(|e| e.closest("form").ok().flatten())
    else {
        return;
    };
    let n = form
        .get_attribute("data-generation")
        .and_then(|g| g.parse::<u32>().ok())
        .unwrap_or(0);
    let _ = form.set_attribute("data-generation", &(n + 1).to_string());
    hide_results(&form);
}
