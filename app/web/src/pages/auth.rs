//! Signing up and signing in.

use crate::address::local_path;
use crate::api;
use crate::components::{CardLayout, Field, Submit};
use crate::context::page_ctx;
use crate::forms::PostForm;
use crate::i18n::t;
use crate::page_data::page_data;
use crate::pages::common::query_values;
use aivet_domain::Msg;
use leptos::prelude::*;
use leptos::server_fn::ServerFn;
use leptos_router::components::Redirect;
use leptos_router::hooks::{use_params_map, use_query_map};

/// Signing in; `?next=` is the page to come back to afterwards (see
/// [`crate::address::local_path`] for which are accepted).
#[component]
pub fn SignInPage() -> impl IntoView {
    let [next] = query_values(["next"]);
    let next = local_path(&next).unwrap_or_default();
    if page_ctx().user.is_some() {
        let to = if next.is_empty() {
            "/".to_owned()
        } else {
            next
        };
        return view! { <Redirect path=to/> }.into_any();
    }
    view! {
        <CardLayout title=t(Msg::SignInTitle).to_owned()>
            <PostForm action=api::SignIn::url() attr:class="form" attr:id="sign-in-form">
                {(!next.is_empty()).then(|| view! { <input type="hidden" name="next" value=next.clone()/> })}
                <Field name="email" label=Msg::FieldEmail kind="email" autocomplete="username"/>
                <Field name="password" label=Msg::FieldPassword kind="password" autocomplete="current-password"/>
                <Submit label=Msg::SignIn id="sign-in"/>
            </PostForm>
            <p class="switch-link"><a href="/forgot-password" id="forgot-link">{t(Msg::ForgotPassword)}</a></p>
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
    view! {
        <CardLayout title=t(Msg::SignUpTitle).to_owned()>
            <p class="lead">{t(Msg::SignUpLead)}</p>
            <PostForm action=api::SignUp::url() attr:class="form" attr:id="sign-up-form">
                <Field name="name" label=Msg::FieldYourName autocomplete="name"/>
                <Field name="email" label=Msg::FieldEmail kind="email" autocomplete="email"/>
                <Field name="password" label=Msg::FieldPassword kind="password" hint=Msg::FieldPasswordHint autocomplete="new-password"/>
                <Field name="org_name" label=Msg::FieldOrgName hint=Msg::FieldOrgNameHint autocomplete="organization"/>
                <Submit label=Msg::SignUp id="sign-up"/>
            </PostForm>
            <p class="switch-link">{t(Msg::HaveAccount)}" "<a href="/login">{t(Msg::SignIn)}</a></p>
        </CardLayout>
    }
    .into_any()
}

#[component]
pub fn ForgotPasswordPage() -> impl IntoView {
    let sent = use_query_map().with_untracked(|q| q.get("sent").is_some());
    view! {
        <CardLayout title=t(Msg::ForgotTitle).to_owned()>
            {if sent {
                view! { <div class="alert success" role="status" id="reset-sent">{t(Msg::ResetSent)}</div> }.into_any()
            } else {
                view! {
                    <p class="lead">{t(Msg::ForgotLead)}</p>
                    <PostForm action=api::RequestPasswordReset::url() attr:class="form" attr:id="forgot-form">
                        <Field name="email" label=Msg::FieldEmail kind="email" autocomplete="username"/>
                        <Submit label=Msg::SendResetLink id="send-reset"/>
                    </PostForm>
                }.into_any()
            }}
            <p class="switch-link"><a href="/login">{t(Msg::SignIn)}</a></p>
        </CardLayout>
    }
}

#[component]
pub fn ResetPasswordPage() -> impl IntoView {
    let token = use_params_map().with_untracked(|p| p.get("token").unwrap_or_default());
    let open = page_data(token.clone(), api::password_reset_info);
    view! {
        <CardLayout title=t(Msg::ResetTitle).to_owned()>
            <Suspense fallback=|| ()>
                {let token = token.clone(); move || {
                    let token = token.clone();
                    Suspend::new(async move {
                        if open.await.unwrap_or(false) {
                            view! {
                                <PostForm action=api::ResetPassword::url() ids=vec![("token", token)] attr:class="form" attr:id="reset-form">
                                    <Field name="password" label=Msg::FieldNewPassword kind="password" hint=Msg::FieldPasswordHint autocomplete="new-password"/>
                                    <Submit label=Msg::Save id="reset"/>
                                </PostForm>
                            }.into_any()
                        } else {
                            view! { <p id="reset-invalid">{t(Msg::ResetInvalid)}</p><p><a href="/forgot-password">{t(Msg::ForgotPassword)}</a></p> }.into_any()
                        }
                    })
                }}
            </Suspense>
        </CardLayout>
    }
}
