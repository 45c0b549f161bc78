//! The dashboard: where a user starts. The inventory's figures, and the
//! five-step guide of the checklist (first thing an empty organisation sees).

use crate::api::{self, DashboardView};
use crate::components::AppLayout;
use crate::context::page_ctx;
use crate::i18n::t;
use crate::page_data::page_data;
use crate::pages::common::LoadError;
use aivet_domain::{msg, Msg};
use leptos::prelude::*;

#[component]
pub fn Dashboard() -> impl IntoView {
    let pc = page_ctx();
    let name = pc.user.as_ref().map(|u| u.name.clone()).unwrap_or_default();
    let has_org = pc.org.is_some();
    let data = page_data(has_org, |has_org| async move {
        if has_org {
            api::dashboard_data().await.map(Some)
        } else {
            Ok(None)
        }
    });
    view! {
        <AppLayout title=Msg::DashboardTitle>
            <p class="lead" id="welcome">
                {msg!(crate::i18n::lang(), Msg::DashboardWelcome, name = &name)}
            </p>
            <Suspense fallback=|| ()>
                {move || Suspend::new(async move {
                    match data.await {
                        Ok(Some(d)) => view! { <Overview d/> }.into_any(),
                        Ok(None) => view! {
                            <div class="empty"><p>{t(Msg::NoOrganisation)}</p><p><a href="/settings">{t(Msg::NewOrgTitle)}</a></p></div>
                        }.into_any(),
                        Err(e) => view! { <LoadError e/> }.into_any(),
                    }
                })}
            </Suspense>
        </AppLayout>
    }
}

#[component]
fn Overview(d: DashboardView) -> impl IntoView {
    let services = d.in_use + d.trial + d.retired;
    let figures = [
        (
            "in-use",
            Msg::StatusInUse,
            d.in_use,
            "/services?status=in_use",
        ),
        ("trial", Msg::StatusTrial, d.trial, "/services?status=trial"),
        ("personal", Msg::DashPersonal, d.personal, "/services"),
        (
            "open-findings",
            Msg::DashOpenFindings,
            d.open_findings,
            "/services",
        ),
        (
            "awaiting",
            Msg::DashAwaiting,
            d.awaiting_answer,
            "/services",
        ),
        ("to-review", Msg::DashToReview, d.to_review, "/services"),
        (
            "conflicts",
            Msg::DashConflicts,
            d.conflicts,
            "/services?conflicts=1",
        ),
        (
            "advisories",
            Msg::DashAdvisories,
            d.advisory_hits,
            "/services",
        ),
        (
            "overdue",
            Msg::DashOverdue,
            d.overdue,
            "/follow-ups#overdue",
        ),
        ("vendors", Msg::DashVendors, d.vendors, "/vendors"),
    ];
    let cards = figures
        .into_iter()
        .map(|(id, label, n, href)| {
            let attention = matches!(
                id,
                "personal" | "open-findings" | "to-review" | "overdue" | "conflicts" | "advisories"
            ) && n > 0;
            view! {
                <a class="figure" href=href id=format!("count-{id}") class:attention=attention>
                    <span class="figure-n">{n}</span>
                    <span class="figure-label">{t(label)}</span>
                </a>
            }
        })
        .collect_view();
    // Step 4 is done once the data-class policy was checked and every
    // protected class a service receives is decided; step 5 once every
    // service asked has a follow-up.
    let done = [
        services > 0,
        d.known_findings > 0,
        d.asked_any > 0,
        services > 0 && d.clearance_done,
        d.asked_any > 0 && d.asked_without_follow_up == 0,
    ];
    let steps = [
        (Msg::Step1Title, Msg::Step1Text, "/services/quick"),
        (Msg::Step2Title, Msg::Step2Text, "/services"),
        (Msg::Step3Title, Msg::Step3Text, "/services"),
        (Msg::Step4Title, Msg::Step4Text, "/allowed"),
        (Msg::Step5Title, Msg::Step5Text, "/follow-ups"),
    ];
    let guide = view! {
        <section class="panel" aria-labelledby="start-here">
            <h2 id="start-here">{t(Msg::StartHereTitle)}</h2>
            <p>{t(Msg::StartHereLead)}</p>
            <ol class="steps">
                {steps.into_iter().zip(done).map(|((title, text, href), done)| view! {
                    <li class:done=done>
                        <a href=href><strong>{t(title)}</strong></a>
                        <span>{t(text)}{done.then(|| view! { " " <span class="badge ok">{t(Msg::StepDone)}</span> })}</span>
                    </li>
                }).collect_view()}
            </ol>
        </section>
    };
    let clocks = (!d.clocks.is_empty()).then(|| {
        let rows = d
            .clocks
            .iter()
            .map(|(id, title, clock)| {
                let class = if clock.missed { "clock missed" } else { "clock running" };
                view! {
                    <li><a href=format!("/incidents/{id}")>{title.clone()}</a>" "<span class=class>{clock.text.clone()}</span></li>
                }
            })
            .collect_view();
        view! {
            <section class="panel attention" aria-labelledby="clocks-title" id="clocks">
                <h2 id="clocks-title">{t(Msg::DashClocks)}</h2>
                <ul class="clocks">{rows}</ul>
            </section>
        }
    });
    if services == 0 {
        view! { {clocks}{guide} }.into_any()
    } else {
        view! {
            {clocks}
            <section class="panel" aria-labelledby="inventory-title">
                <h2 id="inventory-title">{t(Msg::DashInventoryTitle)}</h2>
                <div class="figures">{cards}</div>
            </section>
            {guide}
        }
        .into_any()
    }
}
