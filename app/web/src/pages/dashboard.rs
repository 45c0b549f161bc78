//! The dashboard: where a user starts. For now the five-step guide of the
//! checklist; counts arrive with the inventory.

use crate::app::page_ctx;
use crate::components::AppLayout;
use crate::i18n::t;
use aivet_domain::Msg;
use leptos::prelude::*;

#[component]
pub fn Dashboard() -> impl IntoView {
    let pc = page_ctx();
    let name = pc.user.as_ref().map(|u| u.name.clone()).unwrap_or_default();
    let has_org = pc.org.is_some();
    let steps = [
        (Msg::Step1Title, Msg::Step1Text, "/services"),
        (Msg::Step2Title, Msg::Step2Text, "/services"),
        (Msg::Step3Title, Msg::Step3Text, "/vendors"),
        (Msg::Step4Title, Msg::Step4Text, "/services"),
        (Msg::Step5Title, Msg::Step5Text, "/follow-ups"),
    ];
    view! {
        <AppLayout title=Msg::DashboardTitle>
            <p class="lead" id="welcome">
                {Msg::DashboardWelcome.fill(crate::i18n::lang(), &[("name", &name)])}
            </p>
            {if has_org {
                view! {
                    <section class="panel" aria-labelledby="start-here">
                        <h2 id="start-here">{t(Msg::StartHereTitle)}</h2>
                        <p>{t(Msg::StartHereLead)}</p>
                        <ol class="steps">
                            {steps.into_iter().map(|(title, text, href)| view! {
                                <li><a href=href><strong>{t(title)}</strong></a><span>{t(text)}</span></li>
                            }).collect_view()}
                        </ol>
                    </section>
                }.into_any()
            } else {
                view! { <div class="empty"><p>{t(Msg::NoOrganisation)}</p><p><a href="/settings">{t(Msg::NewOrgTitle)}</a></p></div> }.into_any()
            }}
        </AppLayout>
    }
}
