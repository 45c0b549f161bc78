//! Data clearance on the members' side: the conflict banner and the matrix
//! on a service's page, and the page every member reads: "which data may I
//! put into which AI tool?".

use crate::api::{self, CiteView, ClassRowView, ClearanceView, GuideRowView, GuideView};
use crate::components::{choice_options, AppLayout, EmptyState, Field, Select, Submit, TextArea};
use crate::context::page_ctx;
use crate::forms::{refused_here, Check, PostForm};
use crate::i18n::{date, lang, on, t};
use crate::page_data::page_data;
use crate::pages::common::LoadError;
use crate::pages::questions::choosing;
use aivet_domain::clearance::{Clearance, Standing};
use aivet_domain::{msg, Msg};
use leptos::prelude::*;
use leptos::server_fn::ServerFn;

/// At the top of a service's page: the classes it receives although they
/// may not go in.
#[component]
pub fn ConflictBanner(d: ClearanceView) -> impl IntoView {
    let names = d.conflicts();
    (!names.is_empty()).then(|| {
        view! {
            <div class="alert error conflict-banner" role="alert" id="conflicts">
                <p>{msg!(lang(), Msg::ConflictBanner, n = names.len())}</p>
                <ul>{names.into_iter().map(|n| view! { <li><a href="#clearance">{n}</a></li> }).collect_view()}</ul>
            </div>
        }
    })
}

/// The matrix: one row per data class with its standing, the decision and
/// what it rests on; editors decide a class in place.
#[component]
pub fn ClearancePanel(d: ClearanceView) -> impl IntoView {
    view! {
        <section class="panel" aria-labelledby="clearance-title" id="clearance">
            <h2 id="clearance-title">{t(Msg::ClearanceTitle)}</h2>
            <p class="muted">{t(Msg::ClearanceLead)}</p>
            <Matrix d/>
        </section>
    }
}

fn cite_links(cites: &[CiteView]) -> impl IntoView {
    cites
        .iter()
        .map(|c| view! { <li><a href=c.href.clone()>{c.label.clone()}</a></li> })
        .collect_view()
}

#[component]
fn Matrix(d: ClearanceView) -> impl IntoView {
    if d.rows.is_empty() {
        return view! { <EmptyState text=Msg::ClearanceNoClasses/> }.into_any();
    }
    let editable = d.can_edit && !d.archived;
    let rows = d
        .rows
        .iter()
        .cloned()
        .map(|r| {
            view! {
                <ClassRow r service=d.service_id.to_string() citable=d.citable.clone() editable/>
            }
        })
        .collect_view();
    view! {
        <table class="table clearance" id="clearance-matrix">
            <thead><tr>
                <th scope="col">{t(Msg::ClearanceClass)}</th>
                <th scope="col">{t(Msg::ClearanceStanding)}</th>
                <th scope="col">{t(Msg::ClearanceDecidedLabel)}</th>
            </tr></thead>
            <tbody>{rows}</tbody>
        </table>
    }
    .into_any()
}

#[component]
fn ClassRow(
    r: ClassRowView,
    service: String,
    citable: Vec<CiteView>,
    editable: bool,
) -> impl IntoView {
    let class_id = r.id.to_string();
    let decided = r.decision.clone().map(|dv| {
        view! {
            <span>{msg!(lang(), Msg::ClearanceDecidedBy, name = &dv.decided_by, at = &date(dv.decided_at))}</span>
            {dv.expires_on.map(|e| view! { <br/><span>{t(Msg::ClearanceLastDay)}": "{on(e)}</span> })}
            {(!dv.evidence.is_empty()).then(|| view! {
                <br/><span class="muted">{t(Msg::ClearanceEvidence)}":"</span>
                <ul class="cites">{cite_links(&dv.evidence)}</ul>
            })}
        }
    });
    let condition = r
        .decision
        .as_ref()
        .and_then(|d| d.condition.clone())
        .filter(|_| r.standing == Standing::Conditional);
    let form = editable.then(|| {
        view! { <DecideForm r=r.clone() service=service.clone() citable=citable.clone()/> }
    });
    view! {
        <tr id=format!("class-{class_id}") class:conflict=r.conflict>
            <th scope="row">
                {r.name.clone()}
                {r.protected.then(|| view! { " " <span class="badge warn">{t(Msg::ClearanceProtected)}</span> })}
                {r.receives.then(|| view! { " " <span class="badge">{t(Msg::ClearanceReceives)}</span> })}
                {r.conflict.then(|| view! { " " <span class="badge danger">{t(Msg::ConflictBadge)}</span> })}
            </th>
            <td>
                <span class=format!("standing standing-{}", r.standing.as_str())>{t(r.standing.label())}</span>
                {condition.map(|c| view! { <br/><span class="prewrap">{c}</span> })}
                <br/><span class="muted">{t(r.ground)}</span>
            </td>
            <td>{decided.map(|d| d.into_any()).unwrap_or_else(|| view! { <span class="muted">"—"</span> }.into_any())}{form}</td>
        </tr>
    }
}

#[component]
fn DecideForm(r: ClassRowView, service: String, citable: Vec<CiteView>) -> impl IntoView {
    let class_id = r.id.to_string();
    let ids = vec![
        ("service_id", service.clone()),
        ("data_class_id", class_id.clone()),
    ];
    let scope = format!("k-{class_id}");
    let current = r.decision.clone();
    let chosen: Vec<String> = current
        .as_ref()
        .map(|d| d.evidence.iter().map(|c| c.code.clone()).collect())
        .unwrap_or_default();
    view! {
        <details class="decide" open=refused_here(api::DecideClearance::url(), &ids)>
            <summary class="button small secondary">{t(Msg::ClearanceDecide)}</summary>
            <PostForm action=api::DecideClearance::url() ids=ids.clone() attr:class="form" attr:novalidate=true>
                <Select name="clearance" input="decision[clearance]" label=Msg::ClearanceStanding scope=scope.clone()
                    options=choosing(choice_options(Clearance::ALL, Clearance::as_str, Clearance::label))
                    value=current.as_ref().map(|d| d.clearance.as_str().to_owned()).unwrap_or_default()/>
                <TextArea name="condition" input="decision[condition]" label=Msg::ClearanceCondition scope=scope.clone() rows=2
                    value=current.as_ref().and_then(|d| d.condition.clone()).unwrap_or_default()/>
                <Field name="expires_on" input="decision[expires_on]" label=Msg::ClearanceLastDay kind="date" required=false
                    hint=Msg::ClearanceLastDayHelp scope=scope.clone()
                    value=current.as_ref().and_then(|d| d.expires_on).map(|e| e.to_string()).unwrap_or_default()/>
                <Evidence citable chosen/>
                <Submit label=Msg::ClearanceSave/>
            </PostForm>
        </details>
    }
}

/// The findings and reviewed answers a decision can cite (inside its form,
/// so that a refused post shows what was ticked).
#[component]
fn Evidence(citable: Vec<CiteView>, chosen: Vec<String>) -> impl IntoView {
    if citable.is_empty() {
        return view! { <p class="muted">{t(Msg::ClearanceEvidenceNone)}</p> }.into_any();
    }
    view! {
        <fieldset class="checks">
            <legend>{t(Msg::ClearanceEvidence)}</legend>
            {citable.into_iter().enumerate().map(|(i, c)| {
                let checked = chosen.contains(&c.code);
                view! { <Check name=format!("decision[evidence][{i}]") value=c.code.clone() checked>{c.label.clone()}</Check> }
            }).collect_view()}
        </fieldset>
    }
    .into_any()
}

/// "Which data may I put into which AI tool?" for every member.
#[component]
pub fn AllowedPage() -> impl IntoView {
    let data = page_data((), |_| api::clearance_guide_data());
    view! {
        <AppLayout title=Msg::AllowedTitle>
            <Suspense fallback=|| ()>
                {move || Suspend::new(async move {
                    match data.await {
                        Ok(g) => view! { <Guide g/> }.into_any(),
                        Err(e) => view! { <LoadError e=e.clone()/> }.into_any(),
                    }
                })}
            </Suspense>
        </AppLayout>
    }
}

fn names(list: &[String]) -> String {
    if list.is_empty() {
        t(Msg::AllowedNothing).to_owned()
    } else {
        lang().list(list)
    }
}

#[component]
fn Guide(g: GuideView) -> impl IntoView {
    let org = page_ctx().org.map(|o| o.name).unwrap_or_default();
    let body = if g.services.is_empty() {
        view! { <EmptyState text=Msg::AllowedNone/> }.into_any()
    } else {
        let rows = g
            .services
            .into_iter()
            .map(|s| view! { <GuideRow s/> })
            .collect_view();
        view! { <div class="allowed-services">{rows}</div> }.into_any()
    };
    view! {
        <div class="allowed" id="allowed">
            <p class="lead">{msg!(lang(), Msg::AllowedLead, org = &org)}</p>
            <p class="muted">{msg!(lang(), Msg::AllowedAsOf, date = &on(g.today))}</p>
            {body}
        </div>
    }
}

#[component]
fn GuideRow(s: GuideRowView) -> impl IntoView {
    view! {
        <section class="allowed-service" id=format!("allowed-{}", s.id)>
            <h2>{s.name.clone()}{s.trial.then(|| view! { " " <span class="muted">{t(Msg::AllowedTrial)}</span> })}</h2>
            {s.purpose.clone().map(|p| view! { <p class="muted">{p}</p> })}
            <dl class="allowed-lists">
                <dt class="yes">{t(Msg::AllowedYes)}</dt>
                <dd class="allowed-yes">{names(&s.allowed)}</dd>
                {(!s.conditional.is_empty()).then(|| view! {
                    <dt class="if">{t(Msg::AllowedIf)}</dt>
                    <dd class="allowed-if"><ul>{s.conditional.iter().map(|(c, why)| view! {
                        <li><strong>{c.clone()}</strong>": "{why.clone()}</li>
                    }).collect_view()}</ul></dd>
                })}
                <dt class="no">{t(Msg::AllowedNo)}</dt>
                <dd class="allowed-no">{names(&s.not_allowed)}</dd>
            </dl>
        </section>
    }
}
