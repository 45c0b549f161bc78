//! AI services: the list with search, filters, sorting and pages; a service's
//! page with its supply chain, contract facts and findings; the service form;
//! the CSV import.

use crate::address::encode;
use crate::api::{
    self, Choices, FindingView, ServiceDetailView, ServiceFilter, ServiceListView, PAGE_SIZE,
};
use crate::components::{choice_options, AppLayout, EmptyState, Field, Select, Submit, TextArea};
use crate::forms::{form_state, refused_here, Check, PostForm};
use crate::i18n::{date, lang, on, t};
use crate::page_data::page_data;
use crate::pages::clearance::{ClearancePanel, ConflictBanner};
use crate::pages::common::{options_with_all, path_id, query_values, ExternalLink, LoadError};
use crate::pages::questions::QuestionsPanel;
use aivet_domain::advisory::{Engine, VersionSource};
use aivet_domain::inventory::{
    AuthorityNotifier, Deployment, FindingStatus, ServiceForm, ServiceStatus, VendorRole,
};
use aivet_domain::{msg, Msg};
use leptos::prelude::*;
use leptos::server_fn::ServerFn;

/// What the list page needs of its filters beyond the server's view.
trait FilterLinks {
    fn active(&self) -> bool;
    fn page_href(&self, page: i64) -> String;
}

impl FilterLinks for ServiceFilter {
    fn active(&self) -> bool {
        !(self.q.is_empty()
            && self.vendor.is_empty()
            && self.vendor_name.is_empty()
            && self.status.is_empty()
            && self.data_class.is_empty()
            && self.owner.is_empty()
            && self.archived.is_empty()
            && self.conflicts.is_empty())
    }

    /// The list's address for another page with the same filters.
    fn page_href(&self, page: i64) -> String {
        let pairs = [
            ("q", &self.q),
            ("vendor", &self.vendor),
            ("vendor_name", &self.vendor_name),
            ("status", &self.status),
            ("data_class", &self.data_class),
            ("owner", &self.owner),
            ("sort", &self.sort),
            ("archived", &self.archived),
            ("conflicts", &self.conflicts),
        ];
        let mut query: Vec<String> = pairs
            .iter()
            .filter(|(_, v)| !v.is_empty())
            .map(|(k, v)| format!("{k}={}", encode(v)))
            .collect();
        query.push(format!("page={page}"));
        format!("/services?{}", query.join("&"))
    }
}

#[component]
pub fn ServicesPage() -> impl IntoView {
    let [q, vendor, vendor_name, status, data_class, owner, sort, archived, conflicts, page, imported] =
        query_values([
            "q",
            "vendor",
            "vendor_name",
            "status",
            "data_class",
            "owner",
            "sort",
            "archived",
            "conflicts",
            "page",
            "imported",
        ]);
    let filters = ServiceFilter {
        q,
        vendor,
        vendor_name,
        status,
        data_class,
        owner,
        sort,
        archived,
        conflicts,
        page,
    };
    let data = page_data(filters.clone(), api::service_list);
    let filters = StoredValue::new(filters);
    view! {
        <AppLayout title=Msg::NavServices>
            {imported.parse::<u32>().ok().map(|imported| view! {
                <div class="alert success" role="status">{msg!(lang(), Msg::ImportDone, n = imported)}</div>
            })}
            <Suspense fallback=|| ()>
                {move || {
                    let f = filters.get_value();
                    Suspend::new(async move {
                        match data.await {
                            Ok(d) => view! { <ServiceList d f/> }.into_any(),
                            Err(e) => view! { <LoadError e/> }.into_any(),
                        }
                    })
                }}
            </Suspense>
        </AppLayout>
    }
}

#[component]
fn ServiceList(d: ServiceListView, f: ServiceFilter) -> impl IntoView {
    let c = &d.choices;
    let vendors = c
        .vendors
        .iter()
        .map(|v| (v.id.to_string(), v.name.clone()))
        .collect();
    let classes = c
        .data_classes
        .iter()
        .map(|v| (v.id.to_string(), v.name.clone()))
        .collect();
    let members = c
        .members
        .iter()
        .map(|v| (v.id.to_string(), v.name.clone()))
        .collect();
    let statuses = choice_options(
        ServiceStatus::ALL,
        ServiceStatus::as_str,
        ServiceStatus::label,
    );
    let sorts = [
        ("name", Msg::FieldName),
        ("vendor", Msg::FieldVendor),
        ("status", Msg::FieldStatus),
        ("updated", Msg::LastChanged),
    ];
    let sort_options = sorts
        .into_iter()
        .map(|(v, l)| view! { <option value=v selected=f.sort == v>{t(l)}</option> })
        .collect_view();
    let page = (d.offset / PAGE_SIZE) + 1;
    let from = if d.total == 0 { 0 } else { d.offset + 1 };
    let to = d.offset + d.rows.len() as i64;
    let body = if d.vendor_unknown {
        view! { <EmptyState text=Msg::VendorNameUnknown/> }.into_any()
    } else if d.rows.is_empty() {
        view! { <EmptyState text=if f.active() { Msg::NoMatches } else { Msg::EmptyServices }/> }
            .into_any()
    } else {
        let rows = d.rows.into_iter().map(|s| {
            view! {
                <tr>
                    <td>
                        <a href=format!("/services/{}", s.id)>{s.name.clone()}</a>
                        {s.archived.then(|| view! { " " <span class="badge">{t(Msg::ArchivedBadge)}</span> })}
                    </td>
                    <td>{s.vendor.clone()}{s.integrator.clone().map(|i| view! { <br/><span class="muted">{i}</span> })}</td>
                    <td><span class=format!("status status-{}", s.status.as_str())>{t(s.status.label())}</span></td>
                    <td>
                        {s.data_classes.join(", ")}
                        {s.personal.then(|| view! { " " <span class="badge warn">{t(Msg::SendsPersonalData)}</span> })}
                    </td>
                    <td class="num" class:open=s.known_findings < 3>{format!("{}/3", s.known_findings)}</td>
                    <td>{s.owner.clone()}</td>
                </tr>
            }
        }).collect_view();
        view! {
            <div class="table-wrap">
                <table class="table" id="services">
                    <thead><tr>
                        <th scope="col">{t(Msg::FieldName)}</th>
                        <th scope="col">{t(Msg::FieldVendor)}</th>
                        <th scope="col">{t(Msg::FieldStatus)}</th>
                        <th scope="col">{t(Msg::FieldDataClasses)}</th>
                        <th scope="col" class="num">{t(Msg::FindingsKnown)}</th>
                        <th scope="col">{t(Msg::FieldOwner)}</th>
                    </tr></thead>
                    <tbody>{rows}</tbody>
                </table>
            </div>
            <nav class="pager" aria-label=t(Msg::Pagination)>
                <span id="results-range">{msg!(lang(), Msg::ResultsRange, from = from, to = to, total = d.total)}</span>
                {(page > 1).then(|| view! { <a href=f.page_href(page - 1) rel="prev">{t(Msg::PrevPage)}</a> })}
                {(to < d.total).then(|| view! { <a href=f.page_href(page + 1) rel="next" id="next-page">{t(Msg::NextPage)}</a> })}
            </nav>
        }
        .into_any()
    };
    view! {
        <div class="toolbar">
            <form method="get" action="/services" class="filters" role="search">
                <label><span>{t(Msg::Search)}</span><input type="search" name="q" maxlength=aivet_domain::SearchText::MAX_CHARS value=f.q.clone()/></label>
                {if d.vendor_search {
                    // Too many vendors to list: type the name (or its start).
                    let value = if f.vendor_name.is_empty() {
                        c.vendors.first().map(|v| v.name.clone()).unwrap_or_default()
                    } else {
                        f.vendor_name.clone()
                    };
                    view! {
                        <label><span>{t(Msg::FieldVendor)}</span>
                            <input type="search" name="vendor_name" id="vendor-name" value=value/></label>
                    }.into_any()
                } else {
                    view! {
                        <label><span>{t(Msg::FieldVendor)}</span><select name="vendor">{options_with_all(vendors, &f.vendor)}</select></label>
                    }.into_any()
                }}
                <label><span>{t(Msg::FieldStatus)}</span><select name="status">{options_with_all(statuses, &f.status)}</select></label>
                <label><span>{t(Msg::FieldDataClasses)}</span><select name="data_class">{options_with_all(classes, &f.data_class)}</select></label>
                <label><span>{t(Msg::FieldOwner)}</span><select name="owner">{options_with_all(members, &f.owner)}</select></label>
                <label><span>{t(Msg::SortBy)}</span><select name="sort">{sort_options}</select></label>
                <label class="check">
                    <input type="checkbox" name="archived" value="1" checked=!f.archived.is_empty()/>
                    <span>{t(Msg::ShowArchived)}</span>
                </label>
                <label class="check">
                    <input type="checkbox" name="conflicts" value="1" checked=!f.conflicts.is_empty()/>
                    <span>{t(Msg::FilterConflicts)}</span>
                </label>
                <button type="submit" class="button small secondary">{t(Msg::ApplyFilters)}</button>
            </form>
            <div class="actions">
                {d.can_edit.then(|| view! {
                    <a class="button" href="/services/new" id="new-service">{t(Msg::NewService)}</a>
                    <a class="button secondary" href="/services/quick" id="quick-entry">{t(Msg::QuickEntry)}</a>
                    <a class="button secondary" href="/services/import">{t(Msg::ImportCsv)}</a>
                })}
                <a class="button secondary" href="/services/export.csv" download="aivet-services.csv">{t(Msg::ExportCsv)}</a>
                <a class="button secondary" href="/services/export.csv?bom=1" download="aivet-services.csv">{t(Msg::ExportCsvExcel)}</a>
            </div>
        </div>
        {body}
    }
}

#[component]
pub fn ServiceNewPage() -> impl IntoView {
    let data = page_data((), |_| api::service_form_data(String::new()));
    view! {
        <AppLayout title=Msg::NewService>
            <Suspense fallback=|| ()>
                {move || Suspend::new(async move {
                    match data.await {
                        Ok(d) => view! { <ServiceFormBlock id=None form=d.form choices=d.choices/> }.into_any(),
                        Err(e) => view! { <LoadError e/> }.into_any(),
                    }
                })}
            </Suspense>
        </AppLayout>
    }
}

#[component]
pub fn ServiceEditPage() -> impl IntoView {
    let id = path_id();
    let data = page_data(id, api::service_form_data);
    view! {
        <Suspense fallback=|| ()>
            {move || Suspend::new(async move {
                match data.await {
                    Ok(d) => {
                        let id = path_id();
                        view! {
                            <AppLayout title=Msg::EditService name=d.form.name.clone()>
                                <ServiceFormBlock id=Some(id.clone()) form=d.form.clone() choices=d.choices.clone()/>
                            </AppLayout>
                        }.into_any()
                    }
                    Err(e) => view! { <AppLayout title=Msg::EditService><LoadError e=e.clone()/></AppLayout> }.into_any(),
                }
            })}
        </Suspense>
    }
}

/// The service form, empty or with the service's values.
#[component]
fn ServiceFormBlock(id: Option<String>, form: ServiceForm, choices: Choices) -> impl IntoView {
    let cancel = id
        .as_ref()
        .map(|i| format!("/services/{i}"))
        .unwrap_or_else(|| "/services".to_owned());
    let f = form;
    let vendor_options: Vec<(String, String)> = choices
        .vendors
        .iter()
        .map(|v| (v.id.to_string(), v.name.clone()))
        .collect();
    let with_none = |mut o: Vec<(String, String)>| {
        o.insert(0, (String::new(), t(Msg::NoneChosen).to_owned()));
        o
    };
    let vendor_required = {
        let mut o = vendor_options.clone();
        o.insert(0, (String::new(), t(Msg::ChooseVendor).to_owned()));
        o
    };
    let members: Vec<(String, String)> = choices
        .members
        .iter()
        .map(|m| (m.id.to_string(), m.name.clone()))
        .collect();
    let chosen = f.data_classes.clone();
    // Made inside the form (called there), so that the boxes see what a
    // refused post had ticked.
    let classes = move || {
        choices
        .data_classes
        .iter()
        .filter(|c| !c.archived || chosen.contains(&c.id.to_string()))
        .enumerate()
        .map(|(i, c)| {
            let checked = chosen.contains(&c.id.to_string());
            let (name, personal) = (c.name.clone(), c.personal);
            view! {
                <Check name=format!("form[data_classes][{i}]") value=c.id.to_string() checked>
                    <span>{name}</span>
                    {personal.then(|| view! { " " <span class="badge warn">{t(Msg::SendsPersonalData)}</span> })}
                </Check>
            }
        })
        .collect_view()
    };
    view! {
        <PostForm action=api::SaveService::url() ids=vec![("service_id", id.clone().unwrap_or_default())]
            attr:class="form panel" attr:id="service-form" attr:novalidate=true>
            <Field name="name" input="form[name]" label=Msg::FieldName value=f.name/>
            <TextArea name="purpose" input="form[purpose]" label=Msg::FieldPurpose value=f.purpose rows=2/>
            <Select name="vendor_id" input="form[vendor_id]" label=Msg::FieldVendor
                hint=if id.is_none() { Msg::FieldVendorHintNew } else { Msg::FieldVendorHint } options=vendor_required value=f.vendor_id/>
            {id.is_none().then(|| view! {
                <div class="grid-2" id="new-vendor-in-place">
                    <Field name="new_vendor_name" input="form[new_vendor_name]" label=Msg::FieldNewVendorName
                        hint=Msg::FieldNewVendorNameHint required=false value=f.new_vendor_name.clone()/>
                    <Select name="new_vendor_role" input="form[new_vendor_role]" label=Msg::FieldNewVendorRole
                        options=choice_options(VendorRole::ALL, VendorRole::as_str, VendorRole::label)
                        value=if f.new_vendor_role.is_empty() { "application".to_owned() } else { f.new_vendor_role.clone() }/>
                </div>
            })}
            <div class="grid-2">
                <Select name="status" input="form[status]" label=Msg::FieldStatus
                    options=choice_options(ServiceStatus::ALL, ServiceStatus::as_str, ServiceStatus::label) value=f.status/>
                <Select name="owner_id" input="form[owner_id]" label=Msg::FieldOwner options=with_none(members) value=f.owner_id/>
            </div>
            <fieldset class="group" data-field="data_classes">
                <legend>{t(Msg::FieldDataClasses)}</legend>
                <div class="checks">{classes()}</div>
            </fieldset>
            <fieldset class="group">
                <legend>{t(Msg::SupplyChainTitle)}</legend>
                <div class="grid-2">
                    <Select name="integrator_id" input="form[integrator_id]" label=Msg::FieldIntegrator options=with_none(vendor_options.clone()) value=f.integrator_id/>
                    <Select name="model_provider_id" input="form[model_provider_id]" label=Msg::FieldModelProvider options=with_none(vendor_options.clone()) value=f.model_provider_id/>
                    <Select name="inference_host_id" input="form[inference_host_id]" label=Msg::FieldInferenceHost options=with_none(vendor_options.clone()) value=f.inference_host_id/>
                    <Select name="deployment" input="form[deployment]" label=Msg::FieldDeployment
                        options=choice_options(Deployment::ALL, Deployment::as_str, Deployment::label) value=f.deployment/>
                    <Field name="model" input="form[model]" label=Msg::FieldModel required=false value=f.model/>
                    <Select name="engine_kind" input="form[engine_kind]" label=Msg::FieldEngineKind
                        options=with_none(choice_options(Engine::ALL, Engine::as_str, Engine::label)) value=f.engine_kind/>
                    <Field name="engine_version" input="form[engine_version]" label=Msg::FieldEngineVersion hint=Msg::FieldEngineVersionHint required=false value=f.engine_version/>
                    <Select name="engine_source" input="form[engine_source]" label=Msg::FieldEngineSource
                        options=with_none(choice_options(VersionSource::ALL, VersionSource::as_str, VersionSource::label)) value=f.engine_source/>
                    <Field name="engine" input="form[engine]" label=Msg::FieldEngine hint=Msg::FieldEngineHint required=false value=f.engine/>
                </div>
            </fieldset>
            <fieldset class="group">
                <legend>{t(Msg::ContractTitle)}</legend>
                <div class="grid-2">
                    <Field name="dpa_signed_on" input="form[dpa_signed_on]" label=Msg::FieldDpaSignedOn kind="date" required=false value=f.dpa_signed_on/>
                    <Field name="dpa_url" input="form[dpa_url]" label=Msg::FieldDpaUrl kind="url" required=false value=f.dpa_url/>
                    <Field name="notice_hours" input="form[notice_hours]" label=Msg::FieldNoticeHours kind="number" required=false value=f.notice_hours/>
                    <Field name="notice_channel" input="form[notice_channel]" label=Msg::FieldNoticeChannel hint=Msg::FieldNoticeChannelHint required=false value=f.notice_channel/>
                    <Select name="authority_notifier" input="form[authority_notifier]" label=Msg::FieldAuthorityNotifier
                        options=choice_options(AuthorityNotifier::ALL, AuthorityNotifier::as_str, AuthorityNotifier::label) value=f.authority_notifier/>
                </div>
            </fieldset>
            <div class="actions">
                <Submit label=Msg::Save id="save-service"/>
                <a href=cancel class="button secondary">{t(Msg::Cancel)}</a>
            </div>
        </PostForm>
    }
}

#[component]
pub fn ServicePage() -> impl IntoView {
    let id = path_id();
    let data = page_data(id, api::service_page);
    view! {
        <Suspense fallback=|| ()>
            {move || Suspend::new(async move {
                match data.await {
                    Ok(p) => view! { <ServiceDetail p/> }.into_any(),
                    Err(e) => view! { <AppLayout title=Msg::NavServices><LoadError e=e.clone()/></AppLayout> }.into_any(),
                }
            })}
        </Suspense>
    }
}

fn or_unknown(v: Option<String>) -> AnyView {
    match v {
        Some(v) if !v.is_empty() => view! { <span>{v}</span> }.into_any(),
        _ => view! { <span class="muted">{t(Msg::NotKnown)}</span> }.into_any(),
    }
}

#[component]
fn ServiceDetail(p: api::ServicePageView) -> impl IntoView {
    view! {
        <AppLayout title=Msg::NavServices name=p.detail.name.clone()>
            <ServiceBody p=p.clone()/>
        </AppLayout>
    }
}

#[component]
fn ServiceBody(p: api::ServicePageView) -> impl IntoView {
    let api::ServicePageView {
        detail: d,
        clearance,
        advisories,
        questions,
    } = p;
    let vendor_link = |v: Option<api::Named<aivet_domain::VendorId>>| match v {
        Some(v) => view! { <a href=format!("/vendors/{}", v.id)>{v.name}</a> }.into_any(),
        None => view! { <span class="muted">"—"</span> }.into_any(),
    };
    let findings = d
        .findings
        .iter()
        .cloned()
        .map(|f| view! { <FindingBlock service=d.id.to_string() f can_edit=d.can_edit/> })
        .collect_view();
    view! {
            <p class="muted">
                <a href="/services">{t(Msg::BackToList)}</a>" · "
                <span class=format!("status status-{}", d.status.as_str())>{t(d.status.label())}</span>
                " · "{t(Msg::LastChanged)}" "{date(d.updated_at)}
                {d.archived.then(|| view! { " " <span class="badge">{t(Msg::ArchivedBadge)}</span> })}
            </p>
            {d.can_edit.then(|| view! { <ServiceActions d=d.clone()/> })}
            {d.incidents.iter().map(|(id, title)| view! {
                <div class="alert warn incident-banner" role="alert">
                    <p><a href=format!("/incidents/{id}")>{msg!(crate::i18n::lang(), Msg::ServiceIncidentBanner, title = title)}</a></p>
                    {d.can_edit.then(|| view! {
                        <p><a class="button small secondary" href=format!("/services/{}/ask?incident={id}", d.id)>{t(Msg::AskAboutIncident)}</a></p>
                    })}
                </div>
            }).collect_view()}
            <ConflictBanner d=clearance.clone()/>
            <AdvisoryPanel service=d.id.to_string() hits=advisories/>
            <section class="panel" aria-labelledby="facts-title">
                <h2 id="facts-title">{t(Msg::SupplyChainTitle)}</h2>
                <dl class="facts" id="service-facts">
                    <dt>{t(Msg::FieldPurpose)}</dt><dd class="prewrap">{or_unknown(d.purpose.clone())}</dd>
                    <dt>{t(Msg::FieldVendor)}</dt><dd>{vendor_link(Some(d.vendor.clone()))}</dd>
                    <dt>{t(Msg::FieldIntegrator)}</dt><dd>{vendor_link(d.integrator.clone())}</dd>
                    <dt>{t(Msg::FieldModelProvider)}</dt><dd>{vendor_link(d.model_provider.clone())}</dd>
                    <dt>{t(Msg::FieldInferenceHost)}</dt><dd>{vendor_link(d.inference_host.clone())}</dd>
                    <dt>{t(Msg::FieldModel)}</dt><dd>{or_unknown(d.model.clone())}</dd>
                    <dt>{t(Msg::FieldEngineKind)}</dt><dd id="service-engine">{or_unknown(d.engine_kind.map(|e| {
                        let mut s = t(e.label()).to_owned();
                        if let Some(v) = &d.engine_version {
                            s.push(' ');
                            s.push_str(v);
                        }
                        if let Some(src) = d.engine_source {
                            s.push_str(&format!(" ({})", t(src.label())));
                        }
                        s
                    }))}</dd>
                    {d.engine.clone().map(|e| view! { <dt>{t(Msg::FieldEngine)}</dt><dd>{e}</dd> })}
                    <dt>{t(Msg::FieldDeployment)}</dt><dd>{t(d.deployment.label())}</dd>
                    <dt>{t(Msg::FieldOwner)}</dt><dd>{or_unknown(d.owner.clone())}</dd>
                    <dt>{t(Msg::FieldDataClasses)}</dt><dd>{or_unknown(Some(d.data_classes.join(", ")))}</dd>
                </dl>
            </section>
            <section class="panel" aria-labelledby="contract-title">
                <h2 id="contract-title">{t(Msg::ContractTitle)}</h2>
                <dl class="facts">
                    <dt>{t(Msg::FieldDpaSignedOn)}</dt><dd>{or_unknown(d.dpa_signed_on.map(on))}</dd>
                    <dt>{t(Msg::FieldDpaUrl)}</dt><dd>{match d.dpa_url.clone() { Some(u) => view! { <ExternalLink href=u/> }.into_any(), None => or_unknown(None) }}</dd>
                    <dt>{t(Msg::FieldNoticeHours)}</dt><dd>{or_unknown(d.notice_hours.map(|h| h.to_string()))}</dd>
                    <dt>{t(Msg::FieldNoticeChannel)}</dt><dd>{or_unknown(d.notice_channel.clone())}</dd>
                    <dt>{t(Msg::FieldAuthorityNotifier)}</dt><dd>{t(d.authority_notifier.label())}</dd>
                </dl>
            </section>
            <section class="panel" aria-labelledby="findings-title">
                <h2 id="findings-title">{t(Msg::FindingsTitle)}</h2>
                <p class="muted">{t(Msg::FindingsLead)}</p>
                {findings}
            </section>
            <QuestionsPanel q=questions/>
            <ClearancePanel d=clearance/>
    }
}

#[component]
fn ServiceActions(d: ServiceDetailView) -> impl IntoView {
    let id = d.id.to_string();
    let confirm = msg!(lang(), Msg::ConfirmDeleteService, name = &d.name);
    view! {
        <div class="actions record-actions">
            <a class="button secondary" href=format!("/services/{}/edit", d.id) id="edit-service">{t(Msg::Edit)}</a>
            <PostForm action=api::ArchiveService::url() ids=vec![("service_id", id.clone())] attr:class="inline-form">
                <input type="hidden" name="archived" value=(!d.archived).to_string()/>
                <button type="submit" class="button secondary" id="archive-service">
                    {if d.archived { t(Msg::Unarchive) } else { t(Msg::Archive) }}
                </button>
            </PostForm>
            <details class="confirm">
                <summary class="button danger-outline">{t(Msg::Delete)}</summary>
                <PostForm action=api::DeleteService::url() ids=vec![("service_id", id.clone())] attr:class="confirm-box">
                    <p>{confirm}</p>
                    <button type="submit" class="button small danger" id="delete-service">{t(Msg::ConfirmDelete)}</button>
                </PostForm>
            </details>
        </div>
    }
}

#[component]
fn FindingBlock(service: String, f: FindingView, can_edit: bool) -> impl IntoView {
    let topic = f.topic.as_str();
    let anchor = format!("finding-{topic}");
    let summary = view! {
        <p>
            <span class=format!("finding finding-{}", f.status.as_str())>{t(f.status.label())}</span>
            {f.checked_on.map(|d| view! { " · "{t(Msg::FieldCheckedOn)}" "{on(d)} })}
        </p>
        {f.summary.clone().map(|s| view! { <p class="prewrap">{s}</p> })}
        {f.source_url.clone().map(|u| view! { <p>{t(Msg::FieldSourceUrl)}": "<ExternalLink href=u/></p> })}
    };
    view! {
        <div class="finding-block" id=anchor.clone()>
            <h3>{t(f.topic.label())}</h3>
            {summary}
            {can_edit.then(|| view! {
                <details class="edit-finding" open=refused_here(api::SaveFinding::url(), &[("service_id", service.clone()), ("finding[topic]", topic.to_owned())])>
                    <summary class="button small secondary">{t(Msg::Edit)}</summary>
                    <PostForm action=api::SaveFinding::url()
                        ids=vec![("service_id", service.clone()), ("finding[topic]", topic.to_owned())] attr:class="form">
                        <Select name="status" input="finding[status]" label=Msg::FieldStatus scope=topic
                            options=choice_options(FindingStatus::ALL, FindingStatus::as_str, FindingStatus::label) value=f.status.as_str()/>
                        <TextArea name="summary" input="finding[summary]" label=Msg::FieldSummary value=f.summary.clone().unwrap_or_default() rows=3 scope=topic/>
                        <Field name="source_url" input="finding[source_url]" label=Msg::FieldSourceUrl kind="url" required=false value=f.source_url.clone().unwrap_or_default() scope=topic/>
                        <Field name="checked_on" input="finding[checked_on]" label=Msg::FieldCheckedOn kind="date" required=false value=f.checked_on.map(|d| d.to_string()).unwrap_or_default() scope=topic/>
                        <Submit label=Msg::Save/>
                    </PostForm>
                </details>
            })}
        </div>
    }
}

/// How many typed rows the quick-entry page shows (`?rows=` asks for more).
const QUICK_ROWS: usize = 5;

/// Several services at once: tick widely used ones, type rows of one's own.
/// Works without the browser bundle; a refused post comes back with every
/// tick and row as it was, each problem at its control.
#[component]
pub fn ServiceQuickPage() -> impl IntoView {
    let data = page_data((), |_| api::quick_entry_data());
    let [rows] = query_values(["rows"]);
    let rows = rows
        .parse::<usize>()
        .unwrap_or(QUICK_ROWS)
        .clamp(1, aivet_domain::catalogue::MAX_ROWS);
    view! {
        <AppLayout title=Msg::QuickTitle>
            <Suspense fallback=|| ()>
                {move || Suspend::new(async move {
                    match data.await {
                        Ok(d) => view! { <QuickForm d rows/> }.into_any(),
                        Err(e) => view! { <LoadError e/> }.into_any(),
                    }
                })}
            </Suspense>
        </AppLayout>
    }
}

/// The message of a refused post for a key no `Field` shows (a tick box, a
/// whole part of the form), where it belongs.
fn refused_at(key: &str, id: String) -> Option<impl IntoView> {
    form_state()
        .error(key, key)
        .map(|m| view! { <p class="field-error" id=id data-added="">{t(m)}</p> })
}

#[component]
fn QuickForm(d: api::QuickEntryView, rows: usize) -> impl IntoView {
    let status_options = || {
        choice_options(
            ServiceStatus::ALL,
            ServiceStatus::as_str,
            ServiceStatus::label,
        )
    };
    let vendors = d
        .vendor_names
        .iter()
        .map(|v| view! { <option value=v.clone()></option> })
        .collect_view();
    let catalogue = move || {
        d.catalogue
            .iter()
            .enumerate()
            .map(|(i, e)| {
                let at = |f: &str| format!("form[picks][{i}][{f}]");
                let key = |f: &str| format!("picks[{i}][{f}]");
                let label = format!("{} · {}", e.name, e.vendor);
                if e.listed {
                    return view! {
                        <tr class="listed">
                            <td>
                                {label}" "<span class="badge">{t(Msg::QuickAlreadyListed)}</span>
                                {refused_at(&key("add"), format!("q-pick-{i}-add-error"))}
                            </td>
                            <td></td><td></td>
                        </tr>
                    }
                    .into_any();
                }
                view! {
                    <tr data-pick=e.id.clone()>
                        <td data-field=key("add")>
                            <input type="hidden" name=at("code") value=e.id.clone()/>
                            <Check name=at("add") value="yes".to_owned()><span>{label}</span></Check>
                            {refused_at(&key("add"), format!("q-pick-{i}-add-error"))}
                        </td>
                        <td><Select name=key("status") input=at("status") id=format!("q-pick-{i}-status")
                            label=Msg::FieldStatus options=status_options() value="in_use" inline=true/></td>
                        <td><Field name=key("integrator") input=at("integrator") id=format!("q-pick-{i}-integrator")
                            label=Msg::FieldBuiltInBy required=false list="quick-vendors" inline=true/></td>
                    </tr>
                }
                .into_any()
            })
            .collect_view()
    };
    let typed = move || {
        (0..rows)
            .map(|i| {
                let at = |f: &str| format!("form[rows][{i}][{f}]");
                let key = |f: &str| format!("rows[{i}][{f}]");
                let id = |f: &str| format!("q-row-{i}-{f}");
                view! {
                    <tr>
                        <td><Field name=key("name") input=at("name") id=id("name") label=Msg::ColService required=false inline=true/></td>
                        <td><Field name=key("vendor") input=at("vendor") id=id("vendor") label=Msg::FieldVendorName required=false list="quick-vendors" inline=true/></td>
                        <td><Field name=key("integrator") input=at("integrator") id=id("integrator") label=Msg::FieldBuiltInBy required=false list="quick-vendors" inline=true/></td>
                        <td><Select name=key("status") input=at("status") id=id("status") label=Msg::FieldStatus options=status_options() value="in_use" inline=true/></td>
                    </tr>
                }
            })
            .collect_view()
    };
    let more_rows = (rows + 5).min(aivet_domain::catalogue::MAX_ROWS);
    let more = format!("/services/quick?rows={more_rows}");
    view! {
        <PostForm action=api::SaveQuickEntry::url() attr:class="form panel" attr:id="quick-form" attr:novalidate=true>
            <p>{t(Msg::QuickLead)}</p>
            <datalist id="quick-vendors">{vendors}</datalist>
            <fieldset class="group" data-field="picks">
                <legend>{t(Msg::QuickCatalogueTitle)}</legend>
                <p class="hint">{t(Msg::QuickCatalogueHint)}</p>
                {refused_at("picks", "q-picks-error".to_owned())}
                <div class="table-wrap"><table class="table quick-table" id="quick-catalogue">
                    <thead><tr>
                        <th scope="col">{t(Msg::ColService)}</th>
                        <th scope="col">{t(Msg::FieldStatus)}</th>
                        <th scope="col">{t(Msg::FieldBuiltInBy)}</th>
                    </tr></thead>
                    <tbody>{catalogue()}</tbody>
                </table></div>
            </fieldset>
            <fieldset class="group" data-field="rows">
                <legend>{t(Msg::QuickRowsTitle)}</legend>
                <p class="hint">{t(Msg::QuickRowsHint)}</p>
                {refused_at("rows", "q-rows-error".to_owned())}
                {(rows < aivet_domain::catalogue::MAX_ROWS).then(|| view! {
                    <p class="hint"><a href=more id="quick-more-rows">{msg!(lang(), Msg::QuickMoreRows, n = more_rows)}</a></p>
                })}
                <div class="table-wrap"><table class="table quick-table" id="quick-rows">
                    <thead><tr>
                        <th scope="col">{t(Msg::ColService)}</th>
                        <th scope="col">{t(Msg::FieldVendorName)}</th>
                        <th scope="col">{t(Msg::FieldBuiltInBy)}</th>
                        <th scope="col">{t(Msg::FieldStatus)}</th>
                    </tr></thead>
                    <tbody>{typed()}</tbody>
                </table></div>
            </fieldset>
            <div class="actions">
                <Submit label=Msg::QuickSave id="save-quick"/>
                <a href="/services" class="button secondary">{t(Msg::Cancel)}</a>
            </div>
        </PostForm>
    }
}

/// The CSV import: check the pasted text, see each problem by row and
/// column, then import exactly what passed the check (editing the text hides
/// the result again).
#[component]
pub fn ServiceImportPage() -> impl IntoView {
    let commit_url = <api::ImportCommit as ServerFn>::url();
    view! {
        <AppLayout title=Msg::ImportTitle>
            <section class="panel">
                <p>{t(Msg::ImportLead)}</p>
                <p><a href="/services/import-template.csv" download="aivet-import-template.csv">{t(Msg::DownloadTemplate)}</a></p>
                <PostForm action=api::ImportPreview::url() other_actions=vec![commit_url] attr:class="form" attr:id="import-form" attr:data-result="import-plan">
                    <TextArea name="csv" label=Msg::FieldCsv rows=12 mono=true/>
                    <Submit label=Msg::CheckImport id="check-import"/>
                    <div id="import-plan" hidden>
                        <div id="import-errors" data-if="errors">
                            <div class="alert error" role="alert" data-slot="summary"></div>
                            <table class="table">
                                <thead><tr><th scope="col" class="num">{t(Msg::ImportRow)}</th><th scope="col">{t(Msg::ImportColumn)}</th><th scope="col">{t(Msg::ImportProblem)}</th></tr></thead>
                                <tbody data-each="errors">
                                    <template><tr><td class="num" data-slot="row"></td><td><code data-slot="column"></code></td><td data-slot="text"></td></tr></template>
                                </tbody>
                            </table>
                        </div>
                        <div id="import-ready" data-unless="errors">
                            <div class="alert success" role="status" data-slot="summary"></div>
                            <button type="submit" class="button" id="confirm-import"
                                formaction=commit_url data-working=t(Msg::Working)>
                                {t(Msg::ImportConfirm)}
                            </button>
                        </div>
                    </div>
                </PostForm>
            </section>
        </AppLayout>
    }
}

/// The engine advisories that hit the service (read, not computed: the
/// hits are kept when an advisory or the engine changes).
#[component]
fn AdvisoryPanel(service: String, hits: Vec<api::ServiceAdvisoryView>) -> impl IntoView {
    if hits.is_empty() {
        return ().into_any();
    }
    let rows = hits
        .into_iter()
        .map(|h| {
            let class = if h.affected { "advisory affected" } else { "advisory unknown" };
            view! {
                <li class=class>
                    <strong>{h.advisory.id.clone()}</strong>": "{h.advisory.summary.clone()}
                    {h.fixed_in.map(|f| view! { " " <span class="badge warn">{f}</span> })}
                    {(!h.affected).then(|| view! { <p class="muted">{t(Msg::ServiceAdvisoryUnknown)}</p> })}
                    {h.advisory.link.map(|l| view! { " " <ExternalLink href=l/> })}
                </li>
            }
        })
        .collect_view();
    view! {
        <section class="panel attention" aria-labelledby="advisories-title" id="advisories">
            <h2 id="advisories-title">{t(Msg::AdvisoriesTitle)}</h2>
            <ul class="advisories">{rows}</ul>
            <p><a class="button small secondary" href=format!("/services/{service}/ask")>{t(Msg::AskAboutIncident)}</a></p>
        </section>
    }
    .into_any()
}
