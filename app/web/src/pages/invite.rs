//! The page behind an invitation link. Opening it changes nothing; joining
//! takes a deliberate click (mail scanners open links too).

use crate::api::{self, InvitationView};
use crate::components::{CardLayout, Field, Submit};
use crate::context::page_ctx;
use crate::forms::PostForm;
use crate::i18n::{lang, t};
use crate::page_data::page_data;
use aivet_domain::{msg, Msg};
use leptos::prelude::*;
use leptos::server_fn::ServerFn;
use leptos_router::hooks::use_params_map;

#[component]
pub fn InvitePage() -> impl IntoView {
    let token = use_params_map().with_untracked(|p| p.get("token").unwrap_or_default());
    let info = page_data(token, api::invite_info);
    view! {
        <Suspense fallback=|| ()>
            {move || Suspend::new(async move {
                match info.await {
                    Ok(Some(i)) => view! { <InviteOpen info=i/> }.into_any(),
                    _ => view! {
                        <CardLayout title=t(Msg::NotFoundTitle).to_owned()>
                            <p id="invite-invalid">{t(Msg::InviteInvalid)}</p>
                        </CardLayout>
                    }.into_any(),
                }
            })}
        </Suspense>
    }
}

#[component]
fn InviteOpen(info: InvitationView) -> impl IntoView {
    let token = use_params_map().with_untracked(|p| p.get("token").unwrap_or_default());
    let l = lang();
    let title = msg!(l, Msg::InviteAcceptTitle, org = &info.org_name);
    let lead = msg!(
        l,
        Msg::InviteAcceptLead,
        org = &info.org_name,
        role = info.role.label().text(l)
    );
    let signed_in = page_ctx().user.is_some();
    let body = if signed_in {
        view! {
            <PostForm action=api::AcceptInvite::url() ids=vec![("token", token.clone())] attr:class="form">
                <Submit label=Msg::InviteAcceptButton id="accept-invite"/>
            </PostForm>
        }
        .into_any()
    } else {
        view! {
            <p>{t(Msg::InviteNewAccount)}</p>
            <PostForm action=api::SignUpWithInvite::url() ids=vec![("token", token.clone())] attr:class="form">
                <div class="field" data-field="email" data-control="invite-email">
                    <label for="invite-email">{t(Msg::FieldEmail)}</label>
                    <input id="invite-email" type="email" value=info.email.clone() readonly/>
                </div>
                <Field name="name" label=Msg::FieldYourName autocomplete="name"/>
                <Field name="password" label=Msg::FieldPassword kind="password" hint=Msg::FieldPasswordHint autocomplete="new-password"/>
                <Submit label=Msg::InviteAcceptButton id="join"/>
            </PostForm>
            <p class="muted"><a href="/login">{t(Msg::InviteHaveAccount)}</a></p>
        }
        .into_any()
    };
    view! {
        <CardLayout title>
            <p class="lead">{lead}</p>
            {body}
        </CardLayout>
    }
}
