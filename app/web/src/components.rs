//! Building blocks shared by the pages: the signed-in layout with navigation,
//! the signed-out card, form fields with their errors, switchers.

use crate::api;
use crate::context::{page_ctx, PageCtx};
use crate::i18n::{lang, t};
use aivet_domain::{Lang, Msg};
use leptos::prelude::*;
use leptos_meta::Title;
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
    let location = use_location();
    if pc.user.is_none() {
        // To the sign-in page, which comes back here afterwards.
        let (path, query) = (
            location.pathname.get_untracked(),
            location.search.get_untracked(),
        );
        let here = if query.is_empty() {
            path
        } else {
            format!("{path}?{query}")
        };
        let to = crate::address::sign_in_address(&here);
        #[cfg(feature = "ssr")]
        leptos_axum::redirect(&to);
        #[cfg(not(feature = "ssr"))]
        let _ = to;
        return ().into_any();
    }
    let path = location.pathname;
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
                <PostError/>
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
                <PostError/>
                {children()}
            </div>
            <p class="tagline">{t(Msg::AppTagline)}</p>
        </main>
    }
}

/// The error of a form that was posted without the browser bundle: the
/// server sent the browser back to this page with it in the address. (With
/// the bundle the error appears at the form, and nothing typed is lost.)
#[component]
fn PostError() -> impl IntoView {
    let encoded = leptos_router::hooks::use_query_map().with_untracked(|q| q.get("__err"));
    #[cfg(feature = "ssr")]
    let error = encoded.and_then(|e| crate::ssr::error_from_address(&e));
    #[cfg(not(feature = "ssr"))]
    let error: Option<crate::error::AppError> = encoded.and(None);
    error.map(|e| {
        let l = lang();
        let fields = e
            .fields
            .iter()
            .map(|(_, m)| view! { <li>{without_placeholders(m.text(l))}</li> })
            .collect_view();
        view! {
            <div class="alert error" role="alert" id="post-error">
                <p>{without_placeholders(e.msg.text(l))}</p>
                {(!e.fields.is_empty()).then(|| view! { <ul>{fields}</ul> })}
            </div>
        }
    })
}

/// A message's text with its `{placeholders}` left out (their values are
/// not known here).
fn without_placeholders(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(start) = rest.find('{') {
        out.push_str(&rest[..start]);
        match rest[start..].find('}') {
            Some(end) => {
                out.push('…');
                rest = &rest[start + end + 1..];
            }
            None => {
                rest = &rest[start..];
                break;
            }
        }
    }
    out.push_str(rest);
    out
}

#[component]
fn OrgSwitcher(pc: PageCtx) -> impl IntoView {
    let action = ServerAction::<api::SwitchOrg>::new();
    let current = pc.org.as_ref().map(|o| o.id);
    let current_name = pc.org.as_ref().map(|o| o.name.clone()).unwrap_or_default();
    if pc.org_many {
        // Too many to list on every page: a page finds them.
        return view! {
            <span class="org-name">{current_name}</span>
            <a class="button small secondary" href="/organisations" id="find-org">{t(Msg::SwitchOrganisation)}</a>
        }
        .into_any();
    }
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

/// Label, hint and control of one form field. `data-field` names the field
/// as errors name it, `data-control` its control: the browser bundle puts a
/// failed submission's message for this field here.
#[component]
fn FieldFrame(
    id: String,
    name: &'static str,
    label: Msg,
    hint: Option<Msg>,
    children: Children,
) -> impl IntoView {
    let hint_id = format!("{id}-hint");
    let control = id.clone();
    view! {
        <div class="field" data-field=name data-control=control>
            <label for=id>{t(label)}</label>
            {hint.map(|h| view! { <p class="hint" id=hint_id>{t(h)}</p> })}
            {children()}
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

fn hint_ref(id: &str, hint: Option<Msg>) -> Option<String> {
    hint.map(|_| format!("{id}-hint"))
}

/// A labelled input with its hint. `name` is the field's error key; `input`
/// the form name when it differs.
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
) -> impl IntoView {
    let id = control_id(&scope, name);
    let described = hint_ref(&id, hint);
    view! {
        <FieldFrame id=id.clone() name label hint>
            <input
                id=id.clone()
                name=input.unwrap_or(name)
                type=kind
                required=required
                autocomplete=autocomplete
                value=value.clone()
                aria-describedby=described
            />
        </FieldFrame>
    }
}

/// A labelled multi-line text.
#[component]
pub fn TextArea(
    name: &'static str,
    label: Msg,
    #[prop(optional)] hint: Option<Msg>,
    #[prop(optional, into)] value: Option<String>,
    #[prop(optional)] input: Option<&'static str>,
    #[prop(default = 4)] rows: u32,
    #[prop(optional, into)] scope: Option<String>,
) -> impl IntoView {
    let id = control_id(&scope, name);
    let described = hint_ref(&id, hint);
    view! {
        <FieldFrame id=id.clone() name label hint>
            <textarea
                id=id.clone()
                name=input.unwrap_or(name)
                rows=rows
                aria-describedby=described
            >{value.clone().unwrap_or_default()}</textarea>
        </FieldFrame>
    }
}

/// A labelled select of (value, label) options.
#[component]
pub fn Select(
    name: &'static str,
    label: Msg,
    #[prop(optional)] hint: Option<Msg>,
    options: Vec<(String, String)>,
    #[prop(optional, into)] value: Option<String>,
    #[prop(optional)] input: Option<&'static str>,
    #[prop(optional, into)] scope: Option<String>,
) -> impl IntoView {
    let id = control_id(&scope, name);
    let described = hint_ref(&id, hint);
    let current = value.unwrap_or_default();
    let options = options
        .into_iter()
        .map(|(v, l)| {
            let selected = v == current;
            view! { <option value=v selected=selected>{l}</option> }
        })
        .collect_view();
    view! {
        <FieldFrame id=id.clone() name label hint>
            <select
                id=id.clone()
                name=input.unwrap_or(name)
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

/// A submit button. While its form is on its way the browser bundle
/// disables it and shows `data-working`.
#[component]
pub fn Submit(label: Msg, #[prop(optional)] id: Option<&'static str>) -> impl IntoView {
    view! {
        <button type="submit" class="button" id=id data-working=t(Msg::Working)>{t(label)}</button>
    }
}

/// An explanatory empty state.
#[component]
pub fn EmptyState(text: Msg) -> impl IntoView {
    view! { <div class="empty"><p>{t(text)}</p></div> }
}
