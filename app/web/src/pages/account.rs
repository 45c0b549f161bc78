//! The signed-in person's own settings: password and language.

use crate::api;
use crate::components::{AppLayout, Field, LangSwitcher, Submit};
use crate::i18n::t;
use aivet_domain::Msg;
use leptos::prelude::*;
use leptos_router::hooks::use_query_map;

#[component]
pub fn AccountPage() -> impl IntoView {
    let action = ServerAction::<api::ChangePassword>::new();
    let changed = use_query_map().with_untracked(|q| q.get("changed").is_some());
    view! {
        <AppLayout title=Msg::AccountTitle>
            <section class="panel" aria-labelledby="pw-title">
                <h2 id="pw-title">{t(Msg::ChangePasswordTitle)}</h2>
                {changed.then(|| view! { <div class="alert success" role="status">{t(Msg::PasswordChanged)}</div> })}
                <ActionForm action attr:class="form narrow">
                    <Field name="current_password" label=Msg::FieldCurrentPassword kind="password" autocomplete="current-password"/>
                    <Field name="new_password" label=Msg::FieldNewPassword kind="password" hint=Msg::FieldPasswordHint autocomplete="new-password"/>
                    <Submit label=Msg::Save/>
                </ActionForm>
            </section>
            <section class="panel" aria-labelledby="lang-title">
                <h2 id="lang-title">{t(Msg::LanguageTitle)}</h2>
                <p>{t(Msg::LanguageLead)}</p>
                <LangSwitcher/>
            </section>
        </AppLayout>
    }
}
