//! Vendor incidents: the register (every incident, notified or not, with
//! its 72-hour clock), recording and editing one, and its page with what
//! we know, our assessment, the Art. 33 and Art. 34 decisions and the
//! append-only timeline.

use crate::address::encode;
use crate::api::{self, IncidentFormView, IncidentView, RegisterFilter, RegisterView};
use crate::components::{choice_options, AppLayout, EmptyState, Field, Select, Submit, TextArea};
use crate::forms::{Check, PostForm};
use crate::i18n::{date_time, lang, on, t};
use crate::page_data::page_data;
use crate::pages::common::{options_with_all, path_id, query_values, LoadError};
use aivet_domain::incident::{Affected, Art33Choice, Art34Choice, IncidentState, Risk};
use aivet_domain::{msg, Msg};
use leptos::prelude::*;
use leptos::server_fn::ServerFn;

#[component]
pub fn IncidentsPage() -> impl IntoView {
    let [state, vendor, year] = query_values(["state", "vendor", "year"]);
    let filter = RegisterFilter {
        state,
        vendor,
        year,
    };
    let data = page_data(filter.clone(), api::incident_list);
    let filter = StoredValue::new(filter);
    view! {
        <AppLayout title=Msg::NavIncidents>
            <p class="muted">{t(Msg::IncidentRegisterLead)}</p>
            <Suspense fallback=|| ()>
                {move || Suspend::new(async move {
                    match data.await {
                        Ok(d) => view! { <Register d filter=filter.get_value()/> }.into_any(),
                        Err(e) => view! { <LoadError e/> }.into_any(),
                    }
                })}
            </Suspense>
        </AppLayout>
    }
}

#[component]
fn Register(d: RegisterView, filter: RegisterFilter) -> impl IntoView {
    let states = options_with_all(
        choice_options(
            IncidentState::ALL,
            IncidentState::as_str,
            IncidentState::label,
        ),
        &filter.state,
    );
    let vendors = options_with_all(
        d.vendors
            .iter()
            .map(|v| (v.id.to_string(), v.name.clone()))
            .collect(),
        &filter.vendor,
    );
    let years = options_with_all(
        d.years
            .iter()
            .map(|y| (y.to_string(), y.to_string()))
            .collect(),
        &filter.year,
    );
    let query = format!(
        "state={}&vendor={}&year={}",
        encode(&filter.state),
        encode(&filter.vendor),
        encode(&filter.year)
    );
    let filtered = !(filter.state.is_empty() && filter.vendor.is_empty() && filter.year.is_empty());
    let count = d.rows.len();
    let rows = d
        .rows
        .into_iter()
        .map(|r| {
            let href = format!("/incidents/{}", r.id);
            let class = if r.clock.missed {
                "clock missed"
            } else if r.clock.pending {
                "clock running"
            } else {
                "clock"
            };
            view! {
                <tr>
                    <td><a href=href>{r.title}</a></td>
                    <td>{r.vendors.join(", ")}</td>
                    <td>{r.services.join(", ")}</td>
                    <td>{date_time(r.we_aware_at)}</td>
                    <td><span class=class>{r.clock.text}</span></td>
                    <td>{t(r.state.label())}</td>
                </tr>
            }
        })
        .collect_view();
    view! {
        <div class="toolbar">
            <form method="get" action="/incidents" class="filters" role="search">
                <label><span>{t(Msg::FieldStatus)}</span><select name="state">{states}</select></label>
                <label><span>{t(Msg::FieldVendor)}</span><select name="vendor">{vendors}</select></label>
                <label><span>{t(Msg::FieldYear)}</span><select name="year">{years}</select></label>
                <button type="submit" class="button small secondary">{t(Msg::ApplyFilters)}</button>
            </form>
            <div class="actions">
                {d.can_edit.then(|| view! { <a href="/incidents/new" class="button" id="new-incident">{t(Msg::IncidentNew)}</a> })}
                <a href=format!("/incidents/export.csv?{query}") class="button secondary" id="incidents-csv">{t(Msg::ExportCsv)}</a>
            </div>
        </div>
        {if count == 0 {
            view! { <EmptyState text=if filtered { Msg::NoIncidentsMatch } else { Msg::EmptyIncidents }/> }.into_any()
        } else {
            view! {
                <table class="table" id="incident-register">
                    <thead><tr>
                        <th>{t(Msg::FieldIncidentTitle)}</th>
                        <th>{t(Msg::FieldIncidentVendors)}</th>
                        <th>{t(Msg::FieldIncidentServices)}</th>
                        <th>{t(Msg::ColAwareAt)}</th>
                        <th>{t(Msg::ColClock)}</th>
                        <th>{t(Msg::FieldStatus)}</th>
                    </tr></thead>
                    <tbody>{rows}</tbody>
                </table>
            }.into_any()
        }}
    }
}

#[component]
pub fn IncidentNewPage() -> impl IntoView {
    let data = page_data((), |_| api::incident_form_data(String::new()));
    view! {
        <AppLayout title=Msg::IncidentNew>
            <Suspense fallback=|| ()>
                {move || Suspend::new(async move {
                    match data.await {
                        Ok(d) => view! { <IncidentFormBlock id=None d/> }.into_any(),
                        Err(e) => view! { <LoadError e/> }.into_any(),
                    }
                })}
            </Suspense>
        </AppLayout>
    }
}

#[component]
pub fn IncidentEditPage() -> impl IntoView {
    let data = page_data(path_id(), api::incident_form_data);
    view! {
        <Suspense fallback=|| ()>
            {move || Suspend::new(async move {
                match data.await {
                    Ok(d) => view! {
                        <AppLayout title=Msg::IncidentEdit name=d.title.clone().unwrap_or_default()>
                            <IncidentFormBlock id=Some(path_id()) d=d.clone()/>
                        </AppLayout>
                    }.into_any(),
                    Err(e) => view! { <AppLayout title=Msg::IncidentEdit><LoadError e=e.clone()/></AppLayout> }.into_any(),
                }
            })}
        </Suspense>
    }
}

/// The boxes of one list of the form (`form[<list>][i]`), ticked where
/// the incident has them; made inside the form, so that they keep what a
/// refused post had ticked.
fn boxes(
    list: &'static str,
    items: Vec<(String, String, Option<String>)>,
    chosen: &[String],
) -> impl IntoView {
    items
        .into_iter()
        .enumerate()
        .map(|(i, (id, name, note))| {
            let checked = chosen.contains(&id);
            view! {
                <Check name=format!("form[{list}][{i}]") value=id checked>
                    <span>{name}</span>
                    {note.map(|n| view! { " " <span class="muted">{n}</span> })}
                </Check>
            }
        })
        .collect_view()
}

#[component]
fn IncidentFormBlock(id: Option<String>, d: IncidentFormView) -> impl IntoView {
    let cancel = id
        .as_ref()
        .map(|i| format!("/incidents/{i}"))
        .unwrap_or_else(|| "/incidents".to_owned());
    let f = d.form;
    let vendors: Vec<(String, String, Option<String>)> = d
        .vendors
        .iter()
        .map(|v| (v.id.to_string(), v.name.clone(), None))
        .collect();
    let services: Vec<(String, String, Option<String>)> = d
        .services
        .iter()
        .map(|s| (s.id.to_string(), s.name.clone(), Some(s.vendor.clone())))
        .collect();
    let classes: Vec<(String, String, Option<String>)> = d
        .data_classes
        .iter()
        .map(|c| (c.id.to_string(), c.name.clone(), None))
        .collect();
    let (fv, fs, fc) = (
        f.vendors.clone(),
        f.services.clone(),
        f.data_classes.clone(),
    );
    let personal = f.personal_data == "true";
    let zone = d.zone.clone();
    let time = move |name: &'static str, label: Msg, value: String| {
        view! {
            <Field name=name input=format!("form[{name}]") label kind="datetime-local" required=false value/>
        }
    };
    view! {
        <PostForm action=api::SaveIncident::url() ids=vec![("incident_id", id.clone().unwrap_or_default())]
            attr:class="form panel" attr:id="incident-form" attr:novalidate=true>
            <Field name="title" input="form[title]" label=Msg::FieldIncidentTitle value=f.title/>
            <TextArea name="description" input="form[description]" label=Msg::FieldIncidentDescription value=f.description rows=3/>
            <TextArea name="source_links" input="form[source_links]" label=Msg::FieldSourceLinks value=f.source_links rows=2/>
            <fieldset class="group" data-field="vendors">
                <legend>{t(Msg::FieldIncidentVendors)}</legend>
                <div class="checks">{boxes("vendors", vendors, &fv)}</div>
            </fieldset>
            <fieldset class="group" data-field="services">
                <legend>{t(Msg::FieldIncidentServices)}</legend>
                <div class="checks">{boxes("services", services, &fs)}</div>
            </fieldset>
            <fieldset class="group">
                <legend>{t(Msg::IncidentFacts)}</legend>
                <p class="muted">{msg!(lang(), Msg::TimesInZone, zone = &zone)}</p>
                <Field name="we_aware_at" input="form[we_aware_at]" label=Msg::FieldWeAware kind="datetime-local" hint=Msg::HintWeAware value=f.we_aware_at/>
                <div class="grid-2">
                    {time("exposure_start", Msg::FieldExposureStart, f.exposure_start)}
                    {time("exposure_end", Msg::FieldExposureEnd, f.exposure_end)}
                    {time("vendor_aware_at", Msg::FieldVendorAware, f.vendor_aware_at)}
                    {time("vendor_fixed_at", Msg::FieldVendorFixed, f.vendor_fixed_at)}
                    {time("vendor_notified_at", Msg::FieldVendorNotified, f.vendor_notified_at)}
                    {time("disclosed_at", Msg::FieldDisclosed, f.disclosed_at)}
                </div>
                <Field name="vendor_notified_how" input="form[vendor_notified_how]" label=Msg::FieldVendorNotifiedHow required=false value=f.vendor_notified_how/>
            </fieldset>
            <fieldset class="group">
                <legend>{t(Msg::IncidentAssessment)}</legend>
                <Select name="affected" input="form[affected]" label=Msg::FieldAffected
                    options=choice_options(Affected::ALL, Affected::as_str, Affected::label) value=f.affected/>
                <TextArea name="affected_evidence" input="form[affected_evidence]" label=Msg::FieldAffectedEvidence value=f.affected_evidence rows=2/>
                <Check name="form[personal_data]".to_owned() value="true".to_owned() checked=personal>
                    <span>{t(Msg::FieldPersonalDataInvolved)}</span>
                </Check>
                <fieldset class="group" data-field="data_classes">
                    <legend>{t(Msg::FieldIncidentDataClasses)}</legend>
                    <div class="checks">{boxes("data_classes", classes, &fc)}</div>
                </fieldset>
                <Select name="risk" input="form[risk]" label=Msg::FieldRisk
                    options=choice_options(Risk::ALL, Risk::as_str, Risk::label) value=f.risk/>
            </fieldset>
            <p class="hint">{t(Msg::Art33Hint)}</p>
            <div class="actions">
                <Submit label=Msg::Save id="save-incident"/>
                <a href=cancel class="button secondary">{t(Msg::Cancel)}</a>
            </div>
        </PostForm>
    }
}

#[component]
pub fn IncidentPage() -> impl IntoView {
    let data = page_data(path_id(), api::incident_detail);
    view! {
        <Suspense fallback=|| ()>
            {move || Suspend::new(async move {
                match data.await {
                    Ok(d) => view! {
                        <AppLayout title=Msg::NavIncidents name=d.title.clone()>
                            <IncidentBody d=d.clone()/>
                        </AppLayout>
                    }.into_any(),
                    Err(e) => view! { <AppLayout title=Msg::NavIncidents><LoadError e=e.clone()/></AppLayout> }.into_any(),
                }
            })}
        </Suspense>
    }
}

#[component]
fn IncidentBody(d: IncidentView) -> impl IntoView {
    let id = d.id.to_string();
    let clock_class = if d.clock.missed {
        "alert error clock"
    } else if d.clock.pending {
        "alert warn clock"
    } else {
        "alert info clock"
    };
    let can_edit = d.can_edit;
    let open = d.state == IncidentState::Open;
    let times = d
        .times
        .iter()
        .map(|f| view! { <dt>{t(f.label)}</dt><dd>{date_time(f.at)}</dd> })
        .collect_view();
    let lags = d
        .lags
        .iter()
        .map(|(label, text)| view! { <dt>{t(*label)}</dt><dd>{text.clone()}</dd> })
        .collect_view();
    let services = d
        .services
        .iter()
        .map(|s| {
            let href = format!("/services/{}", s.id);
            let ask = format!("/services/{}/ask?incident={id}", s.id);
            view! {
                <li>
                    <a href=href>{s.name.clone()}</a>
                    <p class="muted">{s.notice.clone()}</p>
                    {can_edit.then(|| view! { <a class="button small secondary" href=ask>{t(Msg::AskAboutIncident)}</a> })}
                </li>
            }
        })
        .collect_view();
    let sources = d
        .source_links
        .iter()
        .map(|l| view! { <li><a href=l.clone() rel="noopener noreferrer">{l.clone()}</a></li> })
        .collect_view();
    let entries = d
        .entries
        .iter()
        .rev()
        .map(|e| view! {
            <li><span class="muted">{date_time(e.at)}" · "{e.actor.clone()}</span><p>{e.text.clone()}</p></li>
        })
        .collect_view();
    let state_action = if open {
        (IncidentState::Closed, Msg::CloseIncident, "close-incident")
    } else {
        (IncidentState::Open, Msg::ReopenIncident, "reopen-incident")
    };
    view! {
        <div class=clock_class role="status" id="clock"><p>{d.clock.text.clone()}</p></div>
        {can_edit.then(|| view! {
            <div class="actions">
                <a href=format!("/incidents/{id}/edit") class="button secondary" id="edit-incident">{t(Msg::Edit)}</a>
                <PostForm action=api::SetIncidentState::url() ids=vec![("incident_id", id.clone())] attr:class="inline-form">
                    <input type="hidden" name="state" value=state_action.0.as_str()/>
                    <button type="submit" class="button small secondary" id=state_action.2>{t(state_action.1)}</button>
                </PostForm>
            </div>
        })}
        <section class="panel" aria-labelledby="facts-title">
            <h2 id="facts-title">{t(Msg::IncidentFacts)}</h2>
            {d.description.clone().map(|x| view! { <p class="prewrap">{x}</p> })}
            <dl class="facts">
                <dt>{t(Msg::FieldIncidentVendors)}</dt><dd>{d.vendors.join(", ")}</dd>
                <dt>{t(Msg::FieldWeAware)}</dt><dd id="we-aware">{date_time(d.we_aware_at)}</dd>
                {times}
                {d.vendor_notified_how.clone().map(|h| view! { <dt>{t(Msg::FieldVendorNotifiedHow)}</dt><dd>{h}</dd> })}
                {lags}
            </dl>
            {(!d.source_links.is_empty()).then(|| view! { <ul class="sources">{sources}</ul> })}
        </section>
        <section class="panel" aria-labelledby="services-title" id="services">
            <h2 id="services-title">{t(Msg::FieldIncidentServices)}</h2>
            <p class="muted">{t(Msg::AskAboutIncidentLead)}</p>
            <ul class="linked-services">{services}</ul>
        </section>
        <section class="panel" aria-labelledby="assessment-title">
            <h2 id="assessment-title">{t(Msg::IncidentAssessment)}</h2>
            <dl class="facts">
                <dt>{t(Msg::FieldAffected)}</dt><dd>{t(d.affected.label())}</dd>
                {d.affected_evidence.clone().map(|x| view! { <dt>{t(Msg::FieldAffectedEvidence)}</dt><dd class="prewrap">{x}</dd> })}
                <dt>{t(Msg::FieldPersonalDataInvolved)}</dt><dd>{t(if d.personal_data { Msg::Yes } else { Msg::No })}</dd>
                <dt>{t(Msg::FieldIncidentDataClasses)}</dt><dd>{d.data_classes.join(", ")}</dd>
                <dt>{t(Msg::FieldRisk)}</dt><dd>{t(d.risk.label())}</dd>
            </dl>
        </section>
        <Art33Section d=d.clone()/>
        <Art34Section d=d.clone()/>
        <section class="panel" aria-labelledby="timeline-title" id="timeline">
            <h2 id="timeline-title">{t(Msg::IncidentTimeline)}</h2>
            {can_edit.then(|| view! { <NoteForm id=id.clone()/> })}
            <ol class="timeline">{entries}</ol>
        </section>
    }
}

#[component]
fn NoteForm(id: String) -> impl IntoView {
    view! {
        <PostForm action=api::AddIncidentNote::url() ids=vec![("incident_id", id)] attr:class="form" attr:novalidate=true>
            <TextArea name="note" label=Msg::FieldNote rows=2/>
            <Submit label=Msg::AddNote id="add-note"/>
        </PostForm>
    }
}

fn with_choose(mut o: Vec<(String, String)>) -> Vec<(String, String)> {
    o.insert(0, (String::new(), t(Msg::ChooseOne).to_owned()));
    o
}

#[component]
fn Art33Section(d: IncidentView) -> impl IntoView {
    let id = d.id.to_string();
    let decided = d.art33.clone().map(|a| {
        view! {
            <dl class="facts" id="art33-decision">
                <dt>{t(Msg::FieldArt33Decision)}</dt><dd>{t(a.decision.label())}</dd>
                <dt>{t(Msg::FieldRationale)}</dt><dd class="prewrap">{a.rationale}</dd>
                {a.notified_at.map(|n| view! { <dt>{t(Msg::FieldNotifiedAt)}</dt><dd>{date_time(n)}</dd> })}
                {a.authority.map(|n| view! { <dt>{t(Msg::FieldAuthority)}</dt><dd>{n}</dd> })}
                {a.reference.map(|n| view! { <dt>{t(Msg::FieldAuthorityReference)}</dt><dd>{n}</dd> })}
                {a.delay_reason.map(|n| view! { <dt>{t(Msg::FieldDelayReason)}</dt><dd class="prewrap">{n}</dd> })}
                <dt>{t(Msg::LastChanged)}</dt><dd>{a.decided_by}" · "{date_time(a.decided_at)}</dd>
            </dl>
        }
    });
    let form = (d.can_edit && d.art33.is_none()).then(|| view! { <Art33FormBlock id=id.clone()/> });
    view! {
        <section class="panel" aria-labelledby="art33-title" id="art33">
            <h2 id="art33-title">{t(Msg::Art33Heading)}</h2>
            <p class="hint">{t(Msg::Art33Hint)}</p>
            {decided}
            {form}
        </section>
    }
}

#[component]
fn Art33FormBlock(id: String) -> impl IntoView {
    view! {
        <PostForm action=api::DecideArt33::url() ids=vec![("incident_id", id)] attr:class="form" attr:novalidate=true>
            <Select name="decision" input="decision[decision]" scope="art33" label=Msg::FieldArt33Decision
                options=with_choose(choice_options(Art33Choice::ALL, Art33Choice::as_str, Art33Choice::label))/>
            <TextArea name="rationale" input="decision[rationale]" scope="art33" label=Msg::FieldRationale rows=3/>
            <div class="grid-2">
                <Field name="notified_at" input="decision[notified_at]" scope="art33" label=Msg::FieldNotifiedAt kind="datetime-local" required=false/>
                <Field name="authority" input="decision[authority]" scope="art33" label=Msg::FieldAuthority required=false/>
                <Field name="reference" input="decision[reference]" scope="art33" label=Msg::FieldAuthorityReference required=false/>
            </div>
            <TextArea name="delay_reason" input="decision[delay_reason]" scope="art33" label=Msg::FieldDelayReason rows=2/>
            <Submit label=Msg::RecordDecision id="decide-art33"/>
        </PostForm>
    }
}

#[component]
fn Art34Section(d: IncidentView) -> impl IntoView {
    let id = d.id.to_string();
    let decided = d.art34.clone().map(|a| {
        view! {
            <dl class="facts" id="art34-decision">
                <dt>{t(Msg::FieldArt33Decision)}</dt><dd>{t(a.decision.label())}</dd>
                <dt>{t(Msg::FieldRationale)}</dt><dd class="prewrap">{a.rationale}</dd>
                {a.informed_on.map(|n| view! { <dt>{t(Msg::FieldInformedOn)}</dt><dd>{on(n)}</dd> })}
                <dt>{t(Msg::LastChanged)}</dt><dd>{a.decided_by}" · "{date_time(a.decided_at)}</dd>
            </dl>
        }
    });
    let form = (d.can_edit && d.art34.is_none()).then(|| view! { <Art34FormBlock id=id.clone()/> });
    view! {
        <section class="panel" aria-labelledby="art34-title" id="art34">
            <h2 id="art34-title">{t(Msg::Art34Heading)}</h2>
            <p class="hint">{t(Msg::Art34Hint)}</p>
            {decided}
            {form}
        </section>
    }
}

#[component]
fn Art34FormBlock(id: String) -> impl IntoView {
    view! {
        <PostForm action=api::DecideArt34::url() ids=vec![("incident_id", id)] attr:class="form" attr:novalidate=true>
            <Select name="decision" input="decision[decision]" scope="art34" label=Msg::FieldArt33Decision
                options=with_choose(choice_options(Art34Choice::ALL, Art34Choice::as_str, Art34Choice::label))/>
            <TextArea name="rationale" input="decision[rationale]" scope="art34" label=Msg::FieldRationale rows=3/>
            <Field name="informed_on" input="decision[informed_on]" scope="art34" label=Msg::FieldInformedOn kind="date" required=false/>
            <Submit label=Msg::RecordDecision id="decide-art34"/>
        </PostForm>
    }
}
