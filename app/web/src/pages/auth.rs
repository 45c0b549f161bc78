//! Signing up and signing in.

use crate::api;
use crate::app::page_ctx;
use crate::components::{action_error, CardLayout, Field, FormError, Submit};
use crate::i18n::t;
use aivet_domain::Msg;
use leptos::prelude::*;
use leptos_router::components::Redirect;

#[component]
pub fn SignInPage() -> impl IntoView {
    if page_ctx().user.is_some() {
        return view! { <Redirect path="/"/> }.into_any();
    }
    let action = ServerAction::<api::SignIn>::new();
    let error = action_error(action);
    let pending = action.pending().into();
    view! {
        <CardLayout title=t(Msg::SignInTitle).to_owned()>
            <ActionForm action attr:class="form" attr:id="sign-in-form">
                <FormError error/>
                <Field name="email" label=Msg::FieldEmail kind="email" autocomplete="username" error/>
                <Field name="password" label=Msg::FieldPassword kind="password" autocomplete="current-password" error/>
                <Submit label=Msg::SignIn pending id="sign-in"/>
            </ActionForm>
            <p class="switch-link">{t(Msg::NoAccount)}" "<a href="/signup">{t(Msg::SignUp)}</a></p>
        </CardLayout>
    }
    .into_any()
}

#[component]
pub fn SignUpPage() -> impl IntoView {
    if page_ctx().user.is_some() {
        return view! { <Redirect path="/"/> }.into_any();
    }
    let action = ServerAction::<api::SignUp>::new();
    let error = action_error(action);
    let pending = action.pending().into();
    view! {
        <CardLayout title=t(Msg::SignUpTitle).to_owned()>
            <p class="lead">{t(Msg::SignUpLead)}</p>
            <ActionForm action attr:class="form" attr:id="sign-up-form">
                <FormError error/>
                <Field name="name" label=Msg::FieldYourName autocomplete="name" error/>
                <Field name="email" label=Msg::FieldEmail kind="email" autocomplete="email" error/>
                <Field name="password" label=Msg::FieldPassword kind="password" hint=Msg::FieldPasswordHint autocomplete="new-password" error/>
                <Field name="org_name" label=Msg::FieldOrgName hint=Msg::FieldOrgNameHint autocomplete="organization" error/>
                <Submit label=Msg::SignUp pending id="sign-up"/>
            </ActionForm>
            <p class="switch-link">{t(Msg::HaveAccount)}" "<a href="/login">{t(Msg::SignIn)}</a></p>
        </CardLayout>
    }
    .into_any()
}
