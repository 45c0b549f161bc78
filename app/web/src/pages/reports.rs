//! The Reports page: choose the services (all, or some) and the language,
//! then download the PDF report, the CSV of services or of answers, or the
//! JSON export of the whole organisation; below, the earlier exports with
//! the SHA-256 of their data. The downloads are a plain form (no
//! JavaScript needed); each one is recorded in the audit log.

use crate::api::{self, ReportsView};
use crate::components::{AppLayout, EmptyState};
use crate::i18n::{date_time, lang, t};
use crate::page_data::page_data;
use crate::pages::common::LoadError;
use aivet_domain::report::ReportFormat;
use aivet_domain::{msg, Lang, Msg};
use leptos::prelude::*;

#[component]
pub fn ReportsPage() -> impl IntoView {
    let data = page_data((), |_| api::reports_data());
    view! {
        <AppLayout title=Msg::NavReports>
            <Suspense fallback=|| ()>
                {move || Suspend::new(async move {
                    match data.await {
                        Ok(d) => view! { <Reports d/> }.into_any(),
                        Err(e) => view! { <LoadError e/> }.into_any(),
                    }
                })}
            </Suspense>
        </AppLayout>
    }
}

/// The download form as a refused post left it (nothing chosen): what was
/// chosen, and the message.
struct Posted {
    fields: Vec<(String, String)>,
    error: String,
}

impl Posted {
    fn here() -> Option<Posted> {
        let r = use_context::<crate::forms::Refused>()?;
        if r.action != DOWNLOAD {
            return None;
        }
        r.shown.store(true, std::sync::atomic::Ordering::Relaxed);
        Some(Posted {
            error: r.error.text(lang()),
            fields: r.fields,
        })
    }
    fn has(&self, name: &str, value: &str) -> bool {
        self.fields.iter().any(|(k, v)| k == name && v == value)
    }
}

/// Where the download form posts (`aivet-server`'s `reports::download`,
/// routed at this address).
pub const DOWNLOAD: &str = "/reports/download";

#[component]
fn Reports(d: ReportsView) -> impl IntoView {
    let posted = Posted::here();
    let current = posted
        .as_ref()
        .and_then(|p| p.fields.iter().find(|(k, _)| k == "lang"))
        .and_then(|(_, v)| v.parse::<Lang>().ok())
        .unwrap_or_else(lang);
    let chosen = |name: &str, value: &str| posted.as_ref().is_some_and(|p| p.has(name, value));
    let selection = chosen("scope", "selection");
    let languages = Lang::ALL
        .iter()
        .map(|l| {
            let selected = *l == current;
            view! { <option value=l.code() selected=selected>{l.native_name()}</option> }
        })
        .collect_view();
    let services = d
        .services
        .iter()
        .map(|(s, archived)| {
            let id = format!("report-service-{}", s.id);
            let label_for = id.clone();
            let checked = chosen("service", &s.id.to_string());
            view! {
                <li>
                    <input type="checkbox" id=id name="service" value=s.id.to_string() checked=checked/>
                    " "
                    <label for=label_for>{s.name.clone()}</label>
                    {archived.then(|| view! { " " <span class="badge muted-badge">{t(Msg::FieldArchived)}</span> })}
                </li>
            }
        })
        .collect_view();
    let buttons = ReportFormat::ALL
        .iter()
        .map(|f| {
            let class = if *f == ReportFormat::Pdf {
                "button"
            } else {
                "button secondary"
            };
            view! { <button type="submit" class=class name="format" value=f.as_str()>{t(f.label())}</button> }
        })
        .collect_view();
    let no_services = d.services.is_empty();
    view! {
        <section class="panel" aria-labelledby="report-title">
            <h2 id="report-title">{t(Msg::ReportsMake)}</h2>
            <p class="muted">{t(Msg::ReportsIntro)}</p>
            <form method="post" action=DOWNLOAD class="form" id="report-form">
                <fieldset id="f-report-scope">
                    <legend>{t(Msg::ReportScope)}</legend>
                    {posted.as_ref().map(|p| view! {
                        <p class="alert error" role="alert" id="report-form-error">{p.error.clone()}</p>
                    })}
                    <label><input type="radio" name="scope" value="all" checked=!selection/>" "{t(Msg::ReportScopeAll)}</label>
                    <br/>
                    <label><input type="radio" name="scope" value="selection" checked=selection/>" "{t(Msg::ReportsChosenOnly)}</label>
                    {if no_services {
                        view! { <EmptyState text=Msg::EmptyServices/> }.into_any()
                    } else {
                        view! { <ul class="plain-list report-services">{services}</ul> }.into_any()
                    }}
                </fieldset>
                <div class="field">
                    <label for="report-lang">{t(Msg::Language)}</label>
                    <select id="report-lang" name="lang">{languages}</select>
                </div>
                <p class="muted">{t(Msg::ReportsJsonNote)}</p>
                <div class="actions">{buttons}</div>
            </form>
        </section>
        <Exports exports=d.exports/>
    }
}

#[component]
fn Exports(exports: Vec<api::ExportView>) -> impl IntoView {
    if exports.is_empty() {
        return view! {
            <section class="panel" aria-labelledby="exports-title">
                <h2 id="exports-title">{t(Msg::ReportsEarlier)}</h2>
                <EmptyState text=Msg::EmptyReports/>
            </section>
        }
        .into_any();
    }
    let l = lang();
    let rows = exports
        .into_iter()
        .map(|e| {
            let scope = match e.services {
                None => t(Msg::ReportScopeAll).to_owned(),
                Some(n) => msg!(l, Msg::ReportScopeSelection, n = n),
            };
            view! {
                <tr>
                    <td>{date_time(e.at)}</td>
                    <td>{e.by}</td>
                    <td>{t(e.format.label())}</td>
                    <td>{scope}</td>
                    <td>{e.lang.native_name()}</td>
                    <td><code class="hash">{e.sha256}</code></td>
                </tr>
            }
        })
        .collect_view();
    view! {
        <section class="panel" aria-labelledby="exports-title">
            <h2 id="exports-title">{t(Msg::ReportsEarlier)}</h2>
            <div class="table-wrap">
                <table class="table exports">
                    <thead><tr>
                        <th scope="col">{t(Msg::ReportWhen)}</th>
                        <th scope="col">{t(Msg::ReportWho)}</th>
                        <th scope="col">{t(Msg::ReportsFormat)}</th>
                        <th scope="col">{t(Msg::ReportScope)}</th>
                        <th scope="col">{t(Msg::Language)}</th>
                        <th scope="col">"SHA-256"</th>
                    </tr></thead>
                    <tbody>{rows}</tbody>
                </table>
            </div>
        </section>
    }
    .into_any()
}
