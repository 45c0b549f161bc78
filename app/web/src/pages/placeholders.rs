//! The areas whose features arrive with later releases: each shows its
//! navigation place and an explanatory empty state.

use crate::components::{AppLayout, EmptyState};
use crate::i18n::t;
use aivet_domain::Msg;
use leptos::prelude::*;

#[component]
fn Area(title: Msg, empty: Msg) -> impl IntoView {
    view! {
        <AppLayout title>
            <EmptyState text=empty/>
            <p class="muted">{t(Msg::ComingSoon)}</p>
        </AppLayout>
    }
}

#[component]
pub fn IncidentsPage() -> impl IntoView {
    view! { <Area title=Msg::NavIncidents empty=Msg::EmptyIncidents/> }
}
