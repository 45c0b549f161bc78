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
pub fn AppLayout(
    title: Msg,
    /// The page's own name (a record's), shown instead of `title`.
    #[prop(optional, into)]
    name: Option<String>,
    children: ChildrenFn,
) -> impl IntoView {
    let pc = page_ctx();
    let heading = name.unwrap_or_else(|| t(title).to_owned());
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
            let current = move || {
                let p = path.get();
                (p == href || (href != "/" && p.starts_with(&format!("{href}/")))).then_some("page")
            };
            view! { <li><a href=href aria-current=current>{t(label)}</a></li> }
        })
        .collect_view();
    view! {
        <Title text=heading.clone()/>
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
                <h1>{heading}</h1>
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
            let text = e.text(lang());
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

/// The error of one field from the last submission, with the ids that tie
/// the message to its input for screen readers.
fn field_error_of(
    name: &'static str,
    error: Signal<Option<AppError>>,
) -> impl Fn() -> Option<Msg> + Copy + Send + Sync + 'static {
    move || error.get().and_then(|e| e.field(name))
}

fn described_by(
    id: &str,
    has_hint: bool,
    field_error: impl Fn() -> Option<Msg> + Send + Sync + 'static,
) -> impl Fn() -> Option<String> + Send + Sync + 'static {
    let (hint_id, err_id) = (format!("{id}-hint"), format!("{id}-error"));
    move || {
        let mut ids = Vec::new();
        if has_hint {
            ids.push(hint_id.clone());
        }
        if field_error().is_some() {
            ids.push(err_id.clone());
        }
        (!ids.is_empty()).then(|| ids.join(" "))
    }
}

/// Label, hint and error around one control.
#[component]
fn FieldFrame(
    id: String,
    label: Msg,
    hint: Option<Msg>,
    field_error: impl Fn() -> Option<Msg> + Copy + Send + Sync + 'static,
    children: Children,
) -> impl IntoView {
    let hint_id = format!("{id}-hint");
    let err_id = format!("{id}-error");
    view! {
        <div class="field" class:invalid=move || field_error().is_some()>
            <label for=id.clone()>{t(label)}</label>
            {hint.map(|h| view! { <p class="hint" id=hint_id.clone()>{t(h)}</p> })}
            {children()}
            {move || field_error().map(|m| view! { <p class="field-error" id=err_id.clone()>{t(m)}</p> })}
        </div>
    }
}

/// The id of a control: from its error key, which is also its name unless
/// the name nests it in a group (`form[name]`). Forms repeated on one page
/// (one per question, one per finding) give a `scope` to keep ids unique.
fn control_id(scope: &Option<String>, name: &str) -> String {
    match scope {
        Some(scope) => format!("f-{scope}-{name}"),
        None => format!("f-{name}"),
    }
}

/// A labelled input with its hint and its error from the last submission.
/// `name` is the field's error key; `input` the form name when it differs.
#[component]
pub fn Field(
    name: &'static str,
    label: Msg,
    #[prop(default = "text")] kind: &'static str,
    #[prop(optional)] hint: Option<Msg>,
    #[prop(optional)] autocomplete: Option<&'static str>,
    #[prop(default = true)] required: bool,
    #[prop(optional, into)] value: Option<String>,
    #[prop(optional)] input: Option<&'static str>,
    #[prop(optional, into)] scope: Option<String>,
    error: Signal<Option<AppError>>,
) -> impl IntoView {
    let id = control_id(&scope, name);
    let field_error = field_error_of(name, error);
    let described = described_by(&id, hint.is_some(), field_error);
    view! {
        <FieldFrame id=id.clone() label hint field_error>
            <input
                id=id.clone()
                name=input.unwrap_or(name)
                type=kind
                required=required
                autocomplete=autocomplete
                value=value.clone()
                aria-invalid=move || field_error().map(|_| "true")
                aria-describedby=described
            />
        </FieldFrame>
    }
}

/// A labelled multi-line text with its error.
#[component]
pub fn TextArea(
    name: &'static str,
    label: Msg,
    #[prop(optional)] hint: Option<Msg>,
    #[prop(optional, into)] value: Option<String>,
    #[prop(optional)] input: Option<&'static str>,
    #[prop(default = 4)] rows: u32,
    #[prop(optional, into)] scope: Option<String>,
    error: Signal<Option<AppError>>,
) -> impl IntoView {
    let id = control_id(&scope, name);
    let field_error = field_error_of(name, error);
    let described = described_by(&id, hint.is_some(), field_error);
    view! {
        <FieldFrame id=id.clone() label hint field_error>
            <textarea
                id=id.clone()
                name=input.unwrap_or(name)
                rows=rows
                aria-invalid=move || field_error().map(|_| "true")
                aria-describedby=described
            >{value.clone().unwrap_or_default()}</textarea>
        </FieldFrame>
    }
}

/// A labelled select of (value, label) options with its error.
#[component]
pub fn Select(
    name: &'static str,
    label: Msg,
    #[prop(optional)] hint: Option<Msg>,
    options: Vec<(String, String)>,
    #[prop(optional, into)] value: Option<String>,
    #[prop(optional)] input: Option<&'static str>,
    #[prop(optional, into)] scope: Option<String>,
    error: Signal<Option<AppError>>,
) -> impl IntoView {
    let id = control_id(&scope, name);
    let field_error = field_error_of(name, error);
    let described = described_by(&id, hint.is_some(), field_error);
    let current = value.unwrap_or_default();
    let options = options
        .into_iter()
        .map(|(v, l)| {
            let selected = v == current;
            view! { <option value=v selected=selected>{l}</option> }
        })
        .collect_view();
    view! {
        <FieldFrame id=id.clone() label hint field_error>
            <select
                id=id.clone()
                name=input.unwrap_or(name)
                aria-invalid=move || field_error().map(|_| "true")
                aria-describedby=described
            >{options}</select>
        </FieldFrame>
    }
}

/// The options of a closed choice, labelled in the page's language.
pub fn choice_options<T: Copy>(
    all: &[T],
    code: fn(T) -> &'static str,
    label: fn(T) -> Msg,
) -> Vec<(String, String)> {
    all.iter()
        .map(|v| (code(*v).to_owned(), t(label(*v)).to_owned()))
        .collect()
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
