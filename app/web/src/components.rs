//! Building blocks shared by the pages: the signed-in layout with navigation,
//! the signed-out card, form fields with their errors, switchers.

use crate::api::{self, PageCtx};
use crate::app::page_ctx;
use crate::error::AppError;
use crate::i18n::{lang, t};
use aivet_domain::{Lang, Msg};
use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::components::Redirect;
use leptos_router::hooks::use_location;

/// The frame of every signed-in page: top bar, navigation, main area.
/// Sends signed-out visitors to the sign-in page.
#[component]
pub fn AppLayout(title: Msg, children: ChildrenFn) -> impl IntoView {
    let pc = page_ctx();
    if pc.user.is_none() {
        return view! { <Redirect path="/login"/> }.into_any();
    }
    let path = use_location().pathname;
    let nav = [
        ("/", Msg::NavDashboard),
        ("/services", Msg::NavServices),
        ("/vendors", Msg::NavVendors),
        ("/follow-ups", Msg::NavFollowUps),
        ("/incidents", Msg::NavIncidents),
        ("/reports", Msg::NavReports),
        ("/settings", Msg::NavSettings),
    ];
    let links = nav
        .into_iter()
        .map(|(href, label)| {
            let current = move || (path.get() == href).then_some("page");
            view! { <li><a href=href aria-current=current>{t(label)}</a></li> }
        })
        .collect_view();
    view! {
        <Title text=t(title)/>
        <a class="skip" href="#main">{t(Msg::SkipToContent)}</a>
        <header class="topbar">
            <a class="brand" href="/">"aivet"</a>
            <OrgSwitcher pc=pc.clone()/>
            <div class="topbar-end">
                <LangSwitcher/>
                <a class="account-link" href="/account">{pc.user.as_ref().map(|u| u.name.clone())}</a>
                <SignOutButton/>
            </div>
        </header>
        <div class="frame">
            <nav class="sidenav" aria-label=t(Msg::MainNavigation)>
                <ul>{links}</ul>
            </nav>
            <main id="main" tabindex="-1">
                <h1>{t(title)}</h1>
                {children()}
            </main>
        </div>
        <footer class="footer"><p>{t(Msg::AdviceNotLegal)}</p></footer>
    }
    .into_any()
}

/// The frame of the signed-out pages: a centred card.
#[component]
pub fn CardLayout(title: String, children: Children) -> impl IntoView {
    view! {
        <Title text=title.clone()/>
        <a class="skip" href="#main">{t(Msg::SkipToContent)}</a>
        <header class="topbar topbar-plain">
            <a class="brand" href="/">"aivet"</a>
            <div class="topbar-end"><LangSwitcher/></div>
        </header>
        <main id="main" class="card-page" tabindex="-1">
            <div class="card">
                <h1>{title}</h1>
                {children()}
            </div>
            <p class="tagline">{t(Msg::AppTagline)}</p>
        </main>
    }
}

#[component]
fn OrgSwitcher(pc: PageCtx) -> impl IntoView {
    let action = ServerAction::<api::SwitchOrg>::new();
    let current = pc.org.as_ref().map(|o| o.id);
    let current_name = pc.org.as_ref().map(|o| o.name.clone()).unwrap_or_default();
    if pc.orgs.len() < 2 {
        return view! { <span class="org-name">{current_name}</span> }.into_any();
    }
    let options = pc
        .orgs
        .iter()
        .map(|o| {
            let selected = Some(o.id) == current;
            view! { <option value=o.id.to_string() selected=selected>{o.name.clone()}</option> }
        })
        .collect_view();
    view! {
        <ActionForm action attr:class="org-switcher inline-form">
            <label for="org-switch" class="visually-hidden">{t(Msg::SwitchOrganisation)}</label>
            <select id="org-switch" name="org_id">{options}</select>
            <button type="submit" class="button small secondary">{t(Msg::Switch)}</button>
        </ActionForm>
    }
    .into_any()
}

#[component]
pub fn LangSwitcher() -> impl IntoView {
    let action = ServerAction::<api::SetLanguage>::new();
    let current = lang();
    let options = Lang::ALL
        .into_iter()
        .map(|l| view! { <option value=l.code() selected=l == current lang=l.code()>{l.native_name()}</option> })
        .collect_view();
    view! {
        <ActionForm action attr:class="lang-switcher inline-form">
            <label for="lang-switch" class="visually-hidden">{t(Msg::Language)}</label>
            <select id="lang-switch" name="lang">{options}</select>
            <button type="submit" class="button small secondary">{t(Msg::Save)}</button>
        </ActionForm>
    }
}

#[component]
fn SignOutButton() -> impl IntoView {
    let action = ServerAction::<api::SignOut>::new();
    view! {
        <ActionForm action attr:class="inline-form">
            <button type="submit" class="button small secondary" id="sign-out">{t(Msg::SignOut)}</button>
        </ActionForm>
    }
}

/// The error of the last submission of a form, as a banner.
#[component]
pub fn FormError(error: Signal<Option<AppError>>) -> impl IntoView {
    move || {
        error.get().map(|e| {
            let text = e
                .msg
                .fill(lang(), &[("id", e.request_id.as_deref().unwrap_or("-"))]);
            view! { <div class="alert error" role="alert">{text}</div> }
        })
    }
}

/// The error of a server action's last call, if it failed.
pub fn action_error<A, T>(action: ServerAction<A>) -> Signal<Option<AppError>>
where
    A: leptos::server_fn::ServerFn<Output = T, Error = AppError> + Clone + Send + Sync + 'static,
    T: Clone + Send + Sync + 'static,
    A::Output: Send + Sync,
{
    let value = action.value();
    Signal::derive(move || value.get().and_then(|r| r.err()))
}

/// A labelled input with its hint and its error from the last submission.
#[component]
pub fn Field(
    name: &'static str,
    label: Msg,
    #[prop(default = "text")] kind: &'static str,
    #[prop(optional)] hint: Option<Msg>,
    #[prop(optional)] autocomplete: Option<&'static str>,
    #[prop(default = true)] required: bool,
    #[prop(optional, into)] value: Option<String>,
    error: Signal<Option<AppError>>,
) -> impl IntoView {
    let id = format!("f-{name}");
    let hint_id = format!("{id}-hint");
    let err_id = format!("{id}-error");
    let field_error = move || error.get().and_then(|e| e.field(name));
    let described = {
        let (hint_id, err_id) = (hint_id.clone(), err_id.clone());
        move || {
            let mut ids = Vec::new();
            if hint.is_some() {
                ids.push(hint_id.clone());
            }
            if field_error().is_some() {
                ids.push(err_id.clone());
            }
            (!ids.is_empty()).then(|| ids.join(" "))
        }
    };
    view! {
        <div class="field" class:invalid=move || field_error().is_some()>
            <label for=id.clone()>{t(label)}</label>
            {hint.map(|h| view! { <p class="hint" id=hint_id.clone()>{t(h)}</p> })}
            <input
                id=id.clone()
                name=name
                type=kind
                required=required
                autocomplete=autocomplete
                value=value
                aria-invalid=move || field_error().map(|_| "true")
                aria-describedby=described
            />
            {move || field_error().map(|m| view! { <p class="field-error" id=err_id.clone()>{t(m)}</p> })}
        </div>
    }
}

/// A submit button that says it is working while its action is pending.
#[component]
pub fn Submit(
    label: Msg,
    pending: Signal<bool>,
    #[prop(optional)] id: Option<&'static str>,
) -> impl IntoView {
    view! {
        <button type="submit" class="button" id=id disabled=move || pending.get() aria-busy=move || pending.get().then_some("true")>
            {move || if pending.get() { t(Msg::Working) } else { t(label) }}
        </button>
    }
}

/// An explanatory empty state.
#[component]
pub fn EmptyState(text: Msg) -> impl IntoView {
    view! { <div class="empty"><p>{t(text)}</p></div> }
}
