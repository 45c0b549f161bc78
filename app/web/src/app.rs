//! The document shell, the application root and its routes.

use crate::context::PageCtx;
use crate::i18n::CurrentLang;
use crate::pages::{
    account, auth, clearance, dashboard, follow_ups, incidents, invite, not_found, questions,
    reports, services, settings, vendors,
};
use aivet_domain::Msg;
use leptos::prelude::*;
use leptos_meta::{provide_meta_context, MetaTags, Stylesheet, Title};
use leptos_router::components::{Route, Router, Routes};
use leptos_router::{path, SsrMode};

/// The name of the browser bundle's files under `/pkg`.
pub const OUTPUT_NAME: &str = "aivet";

/// Loads the browser bundle, which improves the forms (see `app/frontend`).
/// The pages do not depend on it: everything works as plain HTML.
const BUNDLE_START: &str = "import init, { start } from '/pkg/aivet.js'; \
    init({ module_or_path: '/pkg/aivet_bg.wasm' }).then(start);";

/// The HTML document around the application (rendered on the server only).
pub fn shell(_options: LeptosOptions) -> impl IntoView {
    let nonce = leptos::nonce::use_nonce();
    #[cfg(feature = "ssr")]
    let lang = use_context::<std::sync::Arc<crate::ssr::RequestCtx>>()
        .map(|c| c.lang)
        .unwrap_or_default();
    #[cfg(not(feature = "ssr"))]
    let lang = aivet_domain::Lang::default();
    view! {
        <!DOCTYPE html>
        <html lang=lang.code()>
            <head>
                <meta charset="utf-8"/>
                <meta name="viewport" content="width=device-width, initial-scale=1"/>
                <meta name="color-scheme" content="light"/>
                <link rel="icon" href="/favicon.svg" type="image/svg+xml"/>
                <link rel="modulepreload" href=format!("/pkg/{OUTPUT_NAME}.js")/>
                <script type="module" nonce=nonce inner_html=BUNDLE_START></script>
                <MetaTags/>
            </head>
            <body data-error=Msg::ErrUnexpected.text(lang) data-offline=Msg::ErrOffline.text(lang)
                data-form-listed=Msg::ErrFormListed.text(lang)>
                <App/>
            </body>
        </html>
    }
}

/// The `<title>` of every page: its name, then the application's.
///
/// leptos_meta writes what this returns into the page's `<head>` as it is,
/// unlike text in the body, which leptos escapes. Every page's title goes
/// through this one formatter (pages give only the text), and names in
/// titles are typed by people — a vendor's, a service's, another
/// organisation's on an invitation — so this is where the text becomes
/// HTML, escaped. Nothing hydrates, so no script sets `document.title`
/// from it in the browser.
fn title_html(text: String) -> String {
    if text.is_empty() {
        return "aivet".to_owned();
    }
    format!("{} · aivet", crate::components::html_text(&text))
}

#[component]
pub fn App() -> impl IntoView {
    provide_meta_context();
    // The server provides it for every page; without it (the route list is
    // generated without a request) render signed out.
    let pc = use_context::<PageCtx>().unwrap_or(PageCtx {
        lang: aivet_domain::Lang::default(),
        zone: aivet_domain::Zone::default(),
        user: None,
        org: None,
        orgs: Vec::new(),
        org_many: false,
    });
    provide_context(CurrentLang(pc.lang));
    provide_context(pc);

    view! {
        <Stylesheet id="leptos" href=format!("/pkg/{OUTPUT_NAME}.css")/>
        <Title formatter=title_html/>
        <Router>
            <Routes fallback=not_found::NotFound>
                <Route path=path!("/") view=dashboard::Dashboard ssr=SsrMode::Async/>
                <Route path=path!("/login") view=auth::SignInPage ssr=SsrMode::Async/>
                <Route path=path!("/signup") view=auth::SignUpPage ssr=SsrMode::Async/>
                <Route path=path!("/forgot-password") view=auth::ForgotPasswordPage ssr=SsrMode::Async/>
                <Route path=path!("/reset-password/:token") view=auth::ResetPasswordPage ssr=SsrMode::Async/>
                <Route path=path!("/invite/:token") view=invite::InvitePage ssr=SsrMode::Async/>
                <Route path=path!("/services") view=services::ServicesPage ssr=SsrMode::Async/>
                <Route path=path!("/services/new") view=services::ServiceNewPage ssr=SsrMode::Async/>
                <Route path=path!("/services/import") view=services::ServiceImportPage ssr=SsrMode::Async/>
                <Route path=path!("/services/quick") view=services::ServiceQuickPage ssr=SsrMode::Async/>
                <Route path=path!("/services/:id") view=services::ServicePage ssr=SsrMode::Async/>
                <Route path=path!("/services/:id/edit") view=services::ServiceEditPage ssr=SsrMode::Async/>
                <Route path=path!("/services/:id/ask") view=questions::AskPage ssr=SsrMode::Async/>
                <Route path=path!("/requests/:id") view=questions::RequestPage ssr=SsrMode::Async/>
                <Route path=path!("/vendors") view=vendors::VendorsPage ssr=SsrMode::Async/>
                <Route path=path!("/vendors/new") view=vendors::VendorNewPage ssr=SsrMode::Async/>
                <Route path=path!("/vendors/:id") view=vendors::VendorPage ssr=SsrMode::Async/>
                <Route path=path!("/vendors/:id/edit") view=vendors::VendorEditPage ssr=SsrMode::Async/>
                <Route path=path!("/vendors/:id/ask") view=questions::AskVendorPage ssr=SsrMode::Async/>
                <Route path=path!("/follow-ups") view=follow_ups::FollowUpsPage ssr=SsrMode::Async/>
                <Route path=path!("/allowed") view=clearance::AllowedPage ssr=SsrMode::Async/>
                <Route path=path!("/incidents") view=incidents::IncidentsPage ssr=SsrMode::Async/>
                <Route path=path!("/incidents/new") view=incidents::IncidentNewPage ssr=SsrMode::Async/>
                <Route path=path!("/incidents/:id") view=incidents::IncidentPage ssr=SsrMode::Async/>
                <Route path=path!("/incidents/:id/edit") view=incidents::IncidentEditPage ssr=SsrMode::Async/>
                <Route path=path!("/reports") view=reports::ReportsPage ssr=SsrMode::Async/>
                <Route path=path!("/settings") view=settings::SettingsPage ssr=SsrMode::Async/>
                <Route path=path!("/account") view=account::AccountPage ssr=SsrMode::Async/>
                <Route path=path!("/organisations") view=account::OrganisationsPage ssr=SsrMode::Async/>
            </Routes>
        </Router>
    }
}
