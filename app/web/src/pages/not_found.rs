//! The page for unknown addresses (answered with status 404).

use crate::components::CardLayout;
use crate::i18n::t;
use aivet_domain::Msg;
use leptos::prelude::*;

#[component]
pub fn NotFound() -> impl IntoView {
    #[cfg(feature = "ssr")]
    if let Some(res) = use_context::<leptos_axum::ResponseOptions>() {
        res.set_status(http::StatusCode::NOT_FOUND);
    }
    view! {
        <CardLayout title=t(Msg::NotFoundTitle).to_owned()>
            <p>{t(Msg::NotFoundText)}</p>
            <p><a href="/">{t(Msg::BackToDashboard)}</a></p>
        </CardLayout>
    }
}
