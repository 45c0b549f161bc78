//! Building blocks shared by the pages: the signed-in layout with navigation,
//! the signed-out card, form fields with their errors, switchers.

use crate::api;
use crate::context::{page_ctx, PageCtx};
use crate::forms::{ControlState, PageError, PostForm};
use crate::i18n::{lang, t};
use aivet_domain::{Lang, Msg};
use leptos::prelude::*;
use leptos::server_fn::ServerFn;
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
        ("/allowed", Msg::NavAllowed),
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
                <PageError/>
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
                <PageError/>
                {children()}
            </div>
            <p class="tagline">{t(Msg::AppTagline)}</p>
        </main>
    }
}

#[component]
fn OrgSwitcher(pc: PageCtx) -> impl IntoView {
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
    // Made inside the form (called there): they see a refused post.
    let orgs = pc.orgs.clone();
    let options = move || {
        let chosen =
            ControlState::of("org_id", "org_id", current.map(|c| c.to_string()), false).value;
        orgs.iter()
            .map(|o| {
                let selected = Some(o.id.to_string()) == chosen;
                view! { <option value=o.id.to_string() selected=selected>{o.name.clone()}</option> }
            })
            .collect_view()
    };
    view! {
        <PostForm action=api::SwitchOrg::url() attr:class="org-switcher inline-form">
            <label for="org-switch" class="visually-hidden">{t(Msg::SwitchOrganisation)}</label>
            <select id="org-switch" name="org_id">{options()}</select>
            <button type="submit" class="button small secondary">{t(Msg::Switch)}</button>
        </PostForm>
    }
    .into_any()
}

#[component]
pub fn LangSwitcher() -> impl IntoView {
    // Made inside the form (called there): they see a refused post.
    let options = || {
        let current = ControlState::of("lang", "lang", Some(lang().code().to_owned()), false).value;
        Lang::ALL
            .into_iter()
            .map(|l| view! { <option value=l.code() selected=current.as_deref() == Some(l.code()) lang=l.code()>{l.native_name()}</option> })
            .collect_view()
    };
    view! {
        <PostForm action=api::SetLanguage::url() attr:class="lang-switcher inline-form">
            <label for="lang-switch" class="visually-hidden">{t(Msg::Language)}</label>
            <select id="lang-switch" name="lang">{options()}</select>
            <button type="submit" class="button small secondary">{t(Msg::Save)}</button>
        </PostForm>
    }
}

#[component]
fn SignOutButton() -> impl IntoView {
    view! {
        <PostForm action=api::SignOut::url() attr:class="inline-form">
            <button type="submit" class="button small secondary" id="sign-out">{t(Msg::SignOut)}</button>
        </PostForm>
    }
}

/// Label, hint and control of one form field, and the field's message
/// after a refused plain form post. `data-field` names the field as errors
/// name it, `data-control` its control: the browser bundle puts a failed
/// submission's message for this field here (and `data-described` is what
/// the control described before the message, which the bundle restores).
/// `inline` fields (a name in a row of a list) hide their label (in the
/// style sheet: `.field-inline > label`).
#[component]
pub fn FieldFrame(
    id: String,
    #[prop(into)] name: String,
    #[prop(into)] label: String,
    hint: Option<Msg>,
    error: Option<Msg>,
    #[prop(optional)] inline: bool,
    children: Children,
) -> impl IntoView {
    let hint_id = format!("{id}-hint");
    let error_id = format!("{id}-error");
    let class = match (inline, error.is_some()) {
        (false, false) => "field",
        (false, true) => "field invalid",
        (true, false) => "field-inline",
        (true, true) => "field-inline invalid",
    };
    let described_before = error.map(|_| hint.map(|_| hint_id.clone()).unwrap_or_default());
    view! {
        <div class=class data-field=name data-control=id.clone() data-described=described_before>
            <label for=id.clone()>{label}</label>
            {hint.map(|h| view! { <p class="hint" id=hint_id>{t(h)}</p> })}
            {children()}
            {error.map(|m| view! { <p class="field-error" id=error_id data-added="">{t(m)}</p> })}
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

impl ControlState {
    /// The control's `aria-describedby`: its hint and its message.
    pub fn described(&self, id: &str, hint: Option<Msg>) -> Option<String> {
        let ids: Vec<String> = [
            hint.map(|_| format!("{id}-hint")),
            self.error.map(|_| format!("{id}-error")),
        ]
        .into_iter()
        .flatten()
        .collect();
        (!ids.is_empty()).then(|| ids.join(" "))
    }

    /// The control's `aria-invalid`.
    pub fn invalid(&self) -> Option<&'static str> {
        self.error.map(|_| "true")
    }
}

/// A labelled input with its hint. `name` is the field's error key; `input`
/// the form name when it differs. After a refused plain form post it shows
/// what was typed (never a password) and its message.
#[component]
pub fn Field(
    #[prop(into)] name: String,
    label: Msg,
    #[prop(default = "text")] kind: &'static str,
    #[prop(optional)] hint: Option<Msg>,
    #[prop(optional)] autocomplete: Option<&'static str>,
    #[prop(default = true)] required: bool,
    #[prop(optional, into)] value: Option<String>,
    #[prop(optional, into)] input: Option<String>,
    #[prop(optional, into)] scope: Option<String>,
    #[prop(optional)] inline: bool,
    /// The id of a `<datalist>` of suggestions.
    #[prop(optional)]
    list: Option<&'static str>,
    #[prop(optional, into)] id: Option<String>,
) -> impl IntoView {
    let id = id.unwrap_or_else(|| control_id(&scope, &name));
    let input = input.unwrap_or_else(|| name.clone());
    let st = ControlState::of(&name, &input, value, kind == "password");
    let described = st.described(&id, hint);
    view! {
        <FieldFrame id=id.clone() name label=t(label) hint error=st.error inline>
            <input
                id=id.clone()
                name=input
                type=kind
                required=required
                autocomplete=autocomplete
                list=list
                value=st.value.clone()
                aria-describedby=described
                aria-invalid=st.invalid()
            />
        </FieldFrame>
    }
}

/// A labelled multi-line text. `label_text` replaces `label` where the
/// label is filled in (a question's wording in one language).
#[component]
pub fn TextArea(
    #[prop(into)] name: String,
    label: Msg,
    #[prop(optional, into)] label_text: Option<String>,
    #[prop(optional)] hint: Option<Msg>,
    #[prop(optional, into)] value: Option<String>,
    #[prop(optional, into)] input: Option<String>,
    #[prop(default = 4)] rows: u32,
    #[prop(optional, into)] scope: Option<String>,
    #[prop(optional, into)] id: Option<String>,
    /// Monospaced (the CSV text).
    #[prop(optional)]
    mono: bool,
    #[prop(optional)] disabled: bool,
) -> impl IntoView {
    let id = id.unwrap_or_else(|| control_id(&scope, &name));
    let input = input.unwrap_or_else(|| name.clone());
    let st = ControlState::of(&name, &input, value, false);
    let described = st.described(&id, hint);
    let label = label_text.unwrap_or_else(|| t(label).to_owned());
    view! {
        <FieldFrame id=id.clone() name label hint error=st.error>
            <textarea
                id=id.clone()
                name=input
                rows=rows
                class:mono=mono
                disabled=disabled
                aria-describedby=described
                aria-invalid=st.invalid()
                inner_html=textarea_html(&st.value.unwrap_or_default())
            ></textarea>
        </FieldFrame>
    }
}

/// Text as the content of a `<textarea>`. leptos writes a textarea's
/// children as they are (as for `<script>`), so a `</textarea>` typed into
/// one would end it and the rest would be markup: escaped here instead. A
/// leading line break is doubled, as the parser drops the first.
fn textarea_html(text: &str) -> String {
    let escaped = html_text(text);
    if text.starts_with('\n') {
        format!("\n{escaped}")
    } else {
        escaped
    }
}

/// Text escaped for HTML, for the places leptos does not escape it itself
/// (a textarea's content, the page title).
pub fn html_text(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// A labelled select of (value, label) options.
#[component]
pub fn Select(
    #[prop(into)] name: String,
    label: Msg,
    #[prop(optional)] hint: Option<Msg>,
    options: Vec<(String, String)>,
    #[prop(optional, into)] value: Option<String>,
    #[prop(optional, into)] input: Option<String>,
    #[prop(optional, into)] scope: Option<String>,
    #[prop(optional, into)] id: Option<String>,
    #[prop(optional)] inline: bool,
) -> impl IntoView {
    let id = id.unwrap_or_else(|| control_id(&scope, &name));
    let input = input.unwrap_or_else(|| name.clone());
    let st = ControlState::of(&name, &input, value, false);
    let described = st.described(&id, hint);
    let current = st.value.clone().unwrap_or_default();
    let options = options
        .into_iter()
        .map(|(v, l)| {
            let selected = v == current;
            view! { <option value=v selected=selected>{l}</option> }
        })
        .collect_view();
    view! {
        <FieldFrame id=id.clone() name label=t(label) hint error=st.error inline>
            <select
                id=id.clone()
                name=input
                aria-describedby=described
                aria-invalid=st.invalid()
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
