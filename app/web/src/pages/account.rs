//! The signed-in person's own settings: password and language.

use crate::api;
use crate::components::{AppLayout, EmptyState, Field, LangSwitcher, Submit};
use crate::forms::PostForm;
use crate::i18n::{lang, t};
use crate::page_data::page_data;
use crate::pages::common::{query_values, LoadError};
use aivet_domain::{msg, Msg};
use leptos::prelude::*;
use leptos::server_fn::ServerFn;
use leptos_router::hooks::use_query_map;

#[component]
pub fn AccountPage() -> impl IntoView {
    let changed = use_query_map().with_untracked(|q| q.get("changed").is_some());
    view! {
        <AppLayout title=Msg::AccountTitle>
            <section class="panel" aria-labelledby="pw-title">
                <h2 id="pw-title">{t(Msg::ChangePasswordTitle)}</h2>
                {changed.then(|| view! { <div class="alert success" role="status">{t(Msg::PasswordChanged)}</div> })}
                <PostForm action=api::ChangePassword::url() attr:class="form narrow">
                    <Field name="current_password" label=Msg::FieldCurrentPassword kind="password" autocomplete="current-password"/>
                    <Field name="new_password" label=Msg::FieldNewPassword kind="password" hint=Msg::FieldPasswordHint autocomplete="new-password"/>
                    <Submit label=Msg::Save/>
                </PostForm>
            </section>
            <section class="panel" aria-labelledby="lang-title">
                <h2 id="lang-title">{t(Msg::LanguageTitle)}</h2>
                <p>{t(Msg::LanguageLead)}</p>
                <LangSwitcher/>
            </section>
        </AppLayout>
    }
}

/// Finding one organisation among many (for integrators who look after a
/// great number of client organisations): a name to search, the matches
/// with a button each to switch to it.
#[component]
pub fn OrganisationsPage() -> impl IntoView {
    let [q] = query_values(["q"]);
    let data = page_data(q.clone(), api::my_org_list);
    view! {
        <AppLayout title=Msg::OrgsTitle>
            <form method="get" action="/organisations" class="filters" role="search">
                <label><span>{t(Msg::FieldOrgName)}</span>
                    <input type="search" name="q" id="org-search" maxlength=aivet_domain::SearchText::MAX_CHARS value=q.clone()/></label>
                <button type="submit" class="button small secondary">{t(Msg::Search)}</button>
            </form>
            <Suspense fallback=|| ()>
                {move || Suspend::new(async move {
                    match data.await {
                        Ok(list) => view! { <OrgList list/> }.into_any(),
                        Err(e) => view! { <LoadError e/> }.into_any(),
                    }
                })}
            </Suspense>
        </AppLayout>
    }
}

#[component]
fn OrgList(list: api::OrgListView) -> impl IntoView {
    if list.rows.is_empty() {
        return view! { <EmptyState text=Msg::NoMatches/> }.into_any();
    }
    let shown = msg!(
        lang(),
        Msg::OrgsShown,
        shown = list.rows.len(),
        n = list.total
    );
    let rows = list
        .rows
        .into_iter()
        .map(|o| {
            let current = Some(o.id) == list.current;
            view! {
                <li>
                    <span>{o.name.clone()}</span>" "<span class="muted">{t(o.role.label())}</span>
                    {if current {
                        view! { " "<span class="badge">{t(Msg::CurrentOrg)}</span> }.into_any()
                    } else {
                        view! {
                            <PostForm action=api::SwitchOrg::url() ids=vec![("org_id", o.id.to_string())] attr:class="inline-form">
                                <button type="submit" class="button small secondary">{t(Msg::Switch)}</button>
                            </PostForm>
                        }.into_any()
                    }}
                </li>
            }
        })
        .collect_view();
    view! {
        <p class="muted" id="orgs-shown">{shown}</p>
        <ul class="plain org-list" id="org-list">{rows}</ul>
    }
    .into_any()
}
