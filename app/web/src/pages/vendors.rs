//! Vendors: the list with search and filters, a vendor's page with its
//! documents, contacts and the services that name it, and the vendor form.

use crate::api::{self, ContactView, VendorDetailView, VendorListView};
use crate::components::{choice_options, AppLayout, EmptyState, Field, Select, Submit, TextArea};
use crate::forms::{Check, PostForm};
use crate::i18n::{date, lang, t};
use crate::page_data::page_data;
use crate::pages::common::{path_id, query_values, ExternalLink, LoadError};
use aivet_domain::inventory::{ContactRole, VendorForm, VendorRole};
use aivet_domain::{msg, Lang, Msg, VendorId};
use leptos::prelude::*;
use leptos::server_fn::ServerFn;

#[component]
pub fn VendorsPage() -> impl IntoView {
    let [q, role, sort, archived] = query_values(["q", "role", "sort", "archived"]);
    let filters = (q, role, sort, archived);
    let data = page_data(filters.clone(), |(q, role, sort, archived)| {
        api::vendor_list(q, role, sort, archived)
    });
    let filters = StoredValue::new(filters);
    view! {
        <AppLayout title=Msg::NavVendors>
            <Suspense fallback=|| ()>
                {move || {
                    let (q, role, sort, archived) = filters.get_value();
                    Suspend::new(async move {
                        match data.await {
                            Ok(d) => view! { <VendorList d q role sort archived=!archived.is_empty()/> }.into_any(),
                            Err(e) => view! { <LoadError e/> }.into_any(),
                        }
                    })
                }}
            </Suspense>
        </AppLayout>
    }
}

#[component]
fn VendorList(
    d: VendorListView,
    q: String,
    role: String,
    sort: String,
    archived: bool,
) -> impl IntoView {
    let filtered = !q.is_empty() || !role.is_empty() || archived;
    let role_options = std::iter::once((String::new(), t(Msg::FilterAll).to_owned()))
        .chain(choice_options(
            VendorRole::ALL,
            VendorRole::as_str,
            VendorRole::label,
        ))
        .map(|(v, l)| {
            let selected = v == role;
            view! { <option value=v selected=selected>{l}</option> }
        })
        .collect_view();
    let body = if d.rows.is_empty() {
        view! { <EmptyState text=if filtered { Msg::NoMatches } else { Msg::EmptyVendors }/> }
            .into_any()
    } else {
        let rows = d
            .rows
            .into_iter()
            .map(|v| {
                view! {
                    <tr>
                        <td>
                            <a href=format!("/vendors/{}", v.id)>{v.name.clone()}</a>
                            {v.archived.then(|| view! { " " <span class="badge muted-badge">{t(Msg::ArchivedBadge)}</span> })}
                        </td>
                        <td>{t(v.role.label())}</td>
                        <td class="num">{v.services}</td>
                        <td>{v.primary_contact.clone()}</td>
                    </tr>
                }
            })
            .collect_view();
        view! {
            <div class="table-wrap">
                <table class="table" id="vendors">
                    <thead><tr>
                        <th scope="col">{t(Msg::FieldName)}</th>
                        <th scope="col">{t(Msg::FieldVendorRole)}</th>
                        <th scope="col" class="num">{t(Msg::NavServices)}</th>
                        <th scope="col">{t(Msg::FieldPrimary)}</th>
                    </tr></thead>
                    <tbody>{rows}</tbody>
                </table>
            </div>
        }
        .into_any()
    };
    view! {
        <div class="toolbar">
            <form method="get" action="/vendors" class="filters" role="search">
                <label>
                    <span>{t(Msg::Search)}</span>
                    <input type="search" name="q" maxlength=aivet_domain::SearchText::MAX_CHARS value=q/>
                </label>
                <label>
                    <span>{t(Msg::FieldVendorRole)}</span>
                    <select name="role">{role_options}</select>
                </label>
                <label>
                    <span>{t(Msg::SortBy)}</span>
                    <select name="sort">
                        <option value="name" selected=sort != "updated">{t(Msg::FieldName)}</option>
                        <option value="updated" selected=sort == "updated">{t(Msg::LastChanged)}</option>
                    </select>
                </label>
                <label class="check">
                    <input type="checkbox" name="archived" value="1" checked=archived/>
                    <span>{t(Msg::ShowArchived)}</span>
                </label>
                <button type="submit" class="button small secondary">{t(Msg::ApplyFilters)}</button>
            </form>
            {d.can_edit.then(|| view! { <a class="button" href="/vendors/new" id="new-vendor">{t(Msg::NewVendor)}</a> })}
        </div>
        {body}
    }
}

#[component]
pub fn VendorNewPage() -> impl IntoView {
    view! {
        <AppLayout title=Msg::NewVendor>
            <VendorFormBlock id=None form=VendorForm { role: VendorRole::Application.as_str().to_owned(), ..Default::default() }/>
        </AppLayout>
    }
}

#[component]
pub fn VendorEditPage() -> impl IntoView {
    let id = path_id();
    let data = page_data(id, api::vendor_detail);
    view! {
        <Suspense fallback=|| ()>
            {move || Suspend::new(async move {
                match data.await {
                    Ok(d) => view! {
                        <AppLayout title=Msg::EditVendor name=d.form.name.clone()>
                            <VendorFormBlock id=Some(d.id) form=d.form.clone()/>
                        </AppLayout>
                    }.into_any(),
                    Err(e) => view! { <AppLayout title=Msg::EditVendor><LoadError e=e.clone()/></AppLayout> }.into_any(),
                }
            })}
        </Suspense>
    }
}

/// The vendor form, empty or with the vendor's values.
#[component]
fn VendorFormBlock(id: Option<VendorId>, form: VendorForm) -> impl IntoView {
    let cancel = id
        .map(|i| format!("/vendors/{i}"))
        .unwrap_or_else(|| "/vendors".to_owned());
    let f = form;
    view! {
        <PostForm action=api::SaveVendor::url() ids=vec![("vendor_id", id.map(|i| i.to_string()).unwrap_or_default())]
            attr:class="form panel" attr:id="vendor-form" attr:novalidate=true>
            <Field name="name" input="form[name]" label=Msg::FieldName value=f.name/>
            <Select name="role" input="form[role]" label=Msg::FieldVendorRole hint=Msg::FieldVendorRoleHint
                options=choice_options(VendorRole::ALL, VendorRole::as_str, VendorRole::label) value=f.role/>
            <Field name="website" input="form[website]" label=Msg::FieldWebsite kind="url" required=false value=f.website/>
            <fieldset class="group">
                <legend>{t(Msg::LinksTitle)}</legend>
                <Field name="dpa_url" input="form[dpa_url]" label=Msg::FieldDpaUrl kind="url" required=false value=f.dpa_url/>
                <Field name="privacy_url" input="form[privacy_url]" label=Msg::FieldPrivacyUrl kind="url" required=false value=f.privacy_url/>
                <Field name="subprocessors_url" input="form[subprocessors_url]" label=Msg::FieldSubprocessorsUrl kind="url" required=false value=f.subprocessors_url/>
                <Field name="status_url" input="form[status_url]" label=Msg::FieldStatusUrl kind="url" required=false value=f.status_url/>
                <Field name="trust_url" input="form[trust_url]" label=Msg::FieldTrustUrl kind="url" required=false value=f.trust_url/>
            </fieldset>
            <TextArea name="notes" input="form[notes]" label=Msg::FieldNotes value=f.notes/>
            <div class="actions">
                <Submit label=Msg::Save id="save-vendor"/>
                <a href=cancel class="button secondary">{t(Msg::Cancel)}</a>
            </div>
        </PostForm>
    }
}

#[component]
pub fn VendorPage() -> impl IntoView {
    let id = path_id();
    let data = page_data(id, api::vendor_detail);
    view! {
        <Suspense fallback=|| ()>
            {move || Suspend::new(async move {
                match data.await {
                    Ok(d) => view! { <VendorDetail d/> }.into_any(),
                    Err(e) => view! { <AppLayout title=Msg::NavVendors><LoadError e=e.clone()/></AppLayout> }.into_any(),
                }
            })}
        </Suspense>
    }
}

#[component]
fn VendorDetail(d: VendorDetailView) -> impl IntoView {
    view! {
        <AppLayout title=Msg::NavVendors name=d.form.name.clone()>
            <VendorBody d=d.clone()/>
        </AppLayout>
    }
}

#[component]
fn VendorBody(d: VendorDetailView) -> impl IntoView {
    let f = d.form.clone();
    let links = [
        (Msg::FieldWebsite, f.website.clone()),
        (Msg::FieldDpaUrl, f.dpa_url.clone()),
        (Msg::FieldPrivacyUrl, f.privacy_url.clone()),
        (Msg::FieldSubprocessorsUrl, f.subprocessors_url.clone()),
        (Msg::FieldStatusUrl, f.status_url.clone()),
        (Msg::FieldTrustUrl, f.trust_url.clone()),
    ]
    .into_iter()
    .map(|(label, url)| {
        view! {
            <dt>{t(label)}</dt>
            <dd>{if url.is_empty() { view! { <span class="muted">"—"</span> }.into_any() } else { view! { <ExternalLink href=url/> }.into_any() }}</dd>
        }
    })
    .collect_view();
    let services = if d.services.is_empty() {
        view! { <p class="muted">{t(Msg::NoServicesYet)}</p> }.into_any()
    } else {
        view! {
            <ul class="plain" id="vendor-services">
                {d.services.iter().map(|s| view! { <li><a href=format!("/services/{}", s.id)>{s.name.clone()}</a></li> }).collect_view()}
            </ul>
        }
        .into_any()
    };
    view! {
            <p class="muted">
                <a href="/vendors">{t(Msg::BackToList)}</a>" · "{t(d.role.label())}" · "{t(Msg::LastChanged)}" "{date(d.updated_at)}
                {d.archived.then(|| view! { " " <span class="badge">{t(Msg::ArchivedBadge)}</span> })}
            </p>
            {d.can_edit.then(|| view! { <RecordActions d=d.clone()/> })}
            <section class="panel" aria-labelledby="links-title">
                <h2 id="links-title">{t(Msg::LinksTitle)}</h2>
                <dl class="facts">{links}</dl>
                {(!f.notes.is_empty()).then(|| view! { <h3>{t(Msg::FieldNotes)}</h3><p class="prewrap">{f.notes.clone()}</p> })}
            </section>
            <Contacts vendor=d.id contacts=d.contacts.clone() can_edit=d.can_edit/>
            <section class="panel" aria-labelledby="used-title">
                <h2 id="used-title">{t(Msg::UsedBy)}</h2>
                {services}
            </section>
    }
}

#[component]
fn RecordActions(d: VendorDetailView) -> impl IntoView {
    let id = d.id.to_string();
    let confirm = msg!(lang(), Msg::ConfirmDeleteVendor, name = &d.form.name);
    view! {
        <div class="actions record-actions">
            <a class="button secondary" href=format!("/vendors/{}/edit", d.id) id="edit-vendor">{t(Msg::Edit)}</a>
            {(!d.services.is_empty()).then(|| view! {
                <a class="button" href=format!("/vendors/{}/ask", d.id) id="ask-vendor-services">{t(Msg::AskVendorTitle)}</a>
            })}
            <PostForm action=api::ArchiveVendor::url() ids=vec![("vendor_id", id.clone())] attr:class="inline-form">
                <input type="hidden" name="archived" value=(!d.archived).to_string()/>
                <button type="submit" class="button secondary" id="archive-vendor">
                    {if d.archived { t(Msg::Unarchive) } else { t(Msg::Archive) }}
                </button>
            </PostForm>
            <details class="confirm">
                <summary class="button danger-outline">{t(Msg::Delete)}</summary>
                <PostForm action=api::DeleteVendor::url() ids=vec![("vendor_id", id.clone())] attr:class="confirm-box">
                    <p>{confirm}</p>
                    <button type="submit" class="button small danger" id="delete-vendor">{t(Msg::ConfirmDelete)}</button>
                </PostForm>
            </details>
        </div>
    }
}

#[component]
fn Contacts(vendor: VendorId, contacts: Vec<ContactView>, can_edit: bool) -> impl IntoView {
    let list = if contacts.is_empty() {
        view! { <p class="muted">{t(Msg::NoContacts)}</p> }.into_any()
    } else {
        view! {
            <div class="table-wrap">
                <table class="table" id="contacts-table">
                    <thead><tr>
                        <th scope="col">{t(Msg::FieldName)}</th>
                        <th scope="col">{t(Msg::FieldEmail)}</th>
                        <th scope="col">{t(Msg::FieldRole)}</th>
                        <th scope="col">{t(Msg::FieldContactLang)}</th>
                        <th scope="col"><span class="visually-hidden">{t(Msg::RemoveContact)}</span></th>
                    </tr></thead>
                    <tbody>{contacts.into_iter().map(|c| view! { <ContactRow c can_edit/> }).collect_view()}</tbody>
                </table>
            </div>
        }
        .into_any()
    };
    let langs = Lang::ALL
        .iter()
        .map(|l| (l.code().to_owned(), l.native_name().to_owned()))
        .collect::<Vec<_>>();
    view! {
        <section class="panel" id="contacts" aria-labelledby="contacts-title">
            <h2 id="contacts-title">{t(Msg::ContactsTitle)}</h2>
            <p class="muted">{t(Msg::ContactsLead)}</p>
            {list}
            {can_edit.then(|| view! {
                <h3>{t(Msg::AddContact)}</h3>
                <PostForm action=api::AddContact::url() ids=vec![("vendor_id", vendor.to_string())]
                    attr:class="form narrow" attr:id="contact-form" attr:novalidate=true>
                    <Field name="name" input="contact[name]" label=Msg::FieldName/>
                    <Field name="email" input="contact[email]" label=Msg::FieldEmail kind="email"/>
                    <Select name="role" input="contact[role]" label=Msg::FieldRole
                        options=choice_options(ContactRole::ALL, ContactRole::as_str, ContactRole::label) value=ContactRole::Security.as_str()/>
                    <Select name="lang" input="contact[lang]" label=Msg::FieldContactLang options=langs.clone() value=lang().code()/>
                    <Check name="contact[primary]".to_owned() value="true".to_owned()>
                        <span>{t(Msg::FieldPrimary)}</span>
                    </Check>
                    <Submit label=Msg::AddContact id="add-contact"/>
                </PostForm>
            })}
        </section>
    }
}

#[component]
fn ContactRow(c: ContactView, can_edit: bool) -> impl IntoView {
    let id = c.id.to_string();
    view! {
        <tr>
            <td>{c.name.clone()}{c.primary.then(|| view! { " " <span class="badge">{t(Msg::FieldPrimary)}</span> })}</td>
            <td>{c.email.clone()}</td>
            <td>{t(c.role.label())}</td>
            <td>{c.lang.native_name()}</td>
            <td>
                {can_edit.then(|| view! {
                    <div class="actions">
                        {(!c.primary).then(|| view! {
                            <PostForm action=api::SetPrimaryContact::url() ids=vec![("contact_id", id.clone())] attr:class="inline-form">
                                <button type="submit" class="button small secondary">{t(Msg::MakePrimary)}</button>
                            </PostForm>
                        })}
                        <PostForm action=api::RemoveContact::url() ids=vec![("contact_id", id.clone())] attr:class="inline-form">
                            <button type="submit" class="button small secondary">{t(Msg::RemoveContact)}</button>
                        </PostForm>
                    </div>
                })}
            </td>
        </tr>
    }
}
