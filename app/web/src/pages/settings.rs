//! Organisation settings: members and their roles, invitations, another
//! organisation, and the recent audit log.

use crate::api::{self, SettingsView};
use crate::components::{AppLayout, Field, Select, Submit};
use crate::forms::{Check, PostForm};
use crate::i18n::{date, lang, t};
use crate::page_data::page_data;
use aivet_domain::{Msg, Role};
use leptos::prelude::*;
use leptos::server_fn::ServerFn;

#[component]
pub fn SettingsPage() -> impl IntoView {
    let data = page_data((), |_| api::settings_data());
    view! {
        <AppLayout title=Msg::SettingsTitle>
            <Suspense fallback=|| ()>
                {move || Suspend::new(async move {
                    match data.await {
                        Ok(d) => view! { <Settings d/> }.into_any(),
                        Err(e) => view! { <div class="alert error" role="alert">{t(e.msg)}</div> }.into_any(),
                    }
                })}
            </Suspense>
            <NewOrg/>
        </AppLayout>
    }
}

#[component]
fn Settings(d: SettingsView) -> impl IntoView {
    let owner = d.org.role == Role::Owner;
    let members = d
        .members
        .into_iter()
        .map(|m| view! { <MemberRow m owner/> })
        .collect_view();
    let org = view! {
        <section class="panel" aria-labelledby="org-title">
            <h2 id="org-title">{t(Msg::OrgDetailsTitle)}</h2>
            <dl class="facts">
                <dt>{t(Msg::FieldOrgName)}</dt><dd id="org-name">{d.org.name.clone()}</dd>
                <dt>{t(Msg::OrgSlug)}</dt><dd><code>{d.org.slug.clone()}</code></dd>
                <dt>{t(Msg::FieldRole)}</dt><dd>{t(d.org.role.label())}</dd>
            </dl>
        </section>
    }
    .into_any();
    let members = view! {
        <section class="panel" aria-labelledby="members-title">
            <h2 id="members-title">{t(Msg::MembersTitle)}</h2>
            {(!owner).then(|| view! { <p class="muted">{t(Msg::OwnersOnly)}</p> })}
            <div class="table-wrap">
                <table class="table" id="members">
                    <thead><tr>
                        <th scope="col">{t(Msg::MemberName)}</th>
                        <th scope="col">{t(Msg::FieldEmail)}</th>
                        <th scope="col">{t(Msg::FieldRole)}</th>
                        <th scope="col">{t(Msg::MemberSince)}</th>
                        <th scope="col"><span class="visually-hidden">{t(Msg::RemoveMember)}</span></th>
                    </tr></thead>
                    <tbody>{members}</tbody>
                </table>
            </div>
        </section>
    }
    .into_any();
    let invites = owner.then(|| view! { <Invites invites=d.invites.clone()/> }.into_any());
    let audit = view! {
        <section class="panel" aria-labelledby="audit-title">
            <h2 id="audit-title">{t(Msg::AuditTitle)}</h2>
            <ul class="audit">
                {d.audit.into_iter().map(|e| view! {
                    <li><time>{e.at.format("%Y-%m-%d %H:%M UTC").to_string()}</time>" "<span>{e.actor}</span>" "<code>{e.action}</code>" "<span class="muted">{e.detail}</span></li>
                }).collect_view()}
            </ul>
        </section>
    }
    .into_any();
    let can_edit = d.org.role != Role::Viewer;
    let mail = view! { <MailPanel mail=d.mail.clone() can_edit/> }.into_any();
    let classes = view! { <DataClassesPanel owner/> }.into_any();
    let questions = view! { <crate::pages::questions::QuestionSetPanel/> }.into_any();
    view! { {org} {members} {invites} {classes} {questions} {mail} {audit} }
}

#[component]
fn MemberRow(m: api::MemberView, owner: bool) -> impl IntoView {
    let l = lang();
    let id = m.id.to_string();
    let role_cell = if owner {
        let options = Role::ALL
            .into_iter()
            .map(|r| (r.as_str().to_owned(), t(r.label()).to_owned()))
            .collect();
        view! {
            <PostForm action=api::SetMemberRole::url() ids=vec![("membership_id", id.clone())] attr:class="inline-form">
                <Select name="role" label=Msg::FieldRole options id=format!("role-{}", m.id) inline=true
                    value=m.role.as_str()/>
                <button type="submit" class="button small secondary">{t(Msg::Save)}</button>
            </PostForm>
        }
        .into_any()
    } else {
        view! { <span>{t(m.role.label())}</span> }.into_any()
    };
    let confirm = Msg::RemoveMemberConfirm.fill(l, &[("name", &m.name)]);
    view! {
        <tr>
            <td>{m.name.clone()}{m.is_me.then(|| view! { " " <span class="badge">{t(Msg::MemberYou)}</span> })}</td>
            <td>{m.email.clone()}</td>
            <td>{role_cell}</td>
            <td>{date(m.since)}</td>
            <td>
                {(owner && !m.is_me).then(|| view! {
                    <details class="confirm">
                        <summary class="button small danger-outline">{t(Msg::RemoveMember)}</summary>
                        <PostForm action=api::RemoveMember::url() ids=vec![("membership_id", id.clone())] attr:class="confirm-box">
                            <p>{confirm.clone()}</p>
                            <button type="submit" class="button small danger">{t(Msg::ConfirmRemove)}</button>
                        </PostForm>
                    </details>
                })}
            </td>
        </tr>
    }
}

#[component]
fn Invites(invites: Vec<api::InviteView>) -> impl IntoView {
    let pending_list = if invites.is_empty() {
        view! { <p class="muted">{t(Msg::NoPendingInvites)}</p> }.into_any()
    } else {
        view! {
            <ul class="invites" id="pending-invites">
                {invites.into_iter().map(|i| view! { <InviteRow i/> }).collect_view()}
            </ul>
        }
        .into_any()
    };
    let role_options = [Role::Editor, Role::Viewer, Role::Owner]
        .into_iter()
        .map(|r| {
            (
                r.as_str().to_owned(),
                format!("{} — {}", t(r.label()), t(role_help(r))),
            )
        })
        .collect();
    view! {
        <section class="panel" aria-labelledby="invite-title">
            <h2 id="invite-title">{t(Msg::InviteTitle)}</h2>
            <p>{t(Msg::InviteLead)}</p>
            <PostForm action=api::CreateInvite::url() attr:class="form narrow" attr:id="invite-form" attr:data-result="invite-created">
                <Field name="email" label=Msg::FieldEmail kind="email" autocomplete="off"/>
                <Select name="role" label=Msg::FieldRole options=role_options/>
                <Submit label=Msg::CreateInvite id="create-invite"/>
            </PostForm>
            <div class="alert success" role="status" id="invite-created" hidden>
                <p data-slot="message"></p>
                <div class="copy-row">
                    <label for="invite-link" class="visually-hidden">{t(Msg::CopyLink)}</label>
                    <input id="invite-link" readonly data-slot-value="link"/>
                    <button type="button" class="button small" data-copy="invite-link" data-copied=t(Msg::Copied)>{t(Msg::CopyLink)}</button>
                </div>
            </div>
            <h3>{t(Msg::PendingInvites)}</h3>
            {pending_list}
        </section>
    }
}

fn role_help(r: Role) -> Msg {
    match r {
        Role::Owner => Msg::RoleOwnerHelp,
        Role::Editor => Msg::RoleEditorHelp,
        Role::Viewer => Msg::RoleViewerHelp,
    }
}

#[component]
fn InviteRow(i: api::InviteView) -> impl IntoView {
    view! {
        <li>
            <span>{i.email.clone()}</span>" · "<span>{t(i.role.label())}</span>" · "
            <span>{t(Msg::Expires)}" "{date(i.expires_at)}</span>
            <PostForm action=api::RevokeInvite::url() ids=vec![("invite_id", i.id.to_string())] attr:class="inline-form">
                <button type="submit" class="button small secondary">{t(Msg::Revoke)}</button>
            </PostForm>
        </li>
    }
}

#[component]
fn NewOrg() -> impl IntoView {
    view! {
        <section class="panel" aria-labelledby="new-org-title">
            <h2 id="new-org-title">{t(Msg::NewOrgTitle)}</h2>
            <p>{t(Msg::NewOrgLead)}</p>
            <PostForm action=api::CreateOrg::url() attr:class="form narrow" attr:id="new-org-form">
                <Field name="org_name" label=Msg::FieldOrgName autocomplete="organization"/>
                <Submit label=Msg::CreateOrg/>
            </PostForm>
        </section>
    }
}

#[component]
fn MailPanel(mail: api::MailView, can_edit: bool) -> impl IntoView {
    let queued =
        leptos_router::hooks::use_query_map().with_untracked(|q| q.get("test_mail").is_some());
    let rows = if mail.mails.is_empty() {
        view! { <p class="muted">{t(Msg::NoMails)}</p> }.into_any()
    } else {
        let rows = mail
            .mails
            .into_iter()
            .map(|m| view! { <MailRowView m can_edit/> })
            .collect_view();
        view! {
            <div class="table-wrap">
                <table class="table" id="mails">
                    <thead><tr>
                        <th scope="col">{t(Msg::MailTo)}</th>
                        <th scope="col">{t(Msg::MailSubject)}</th>
                        <th scope="col">{t(Msg::MailStatusLabel)}</th>
                        <th scope="col"><span class="visually-hidden">{t(Msg::RetryNow)}</span></th>
                    </tr></thead>
                    <tbody>{rows}</tbody>
                </table>
            </div>
        }
        .into_any()
    };
    view! {
        <section class="panel" aria-labelledby="mail-title">
            <h2 id="mail-title">{t(Msg::MailTitle)}</h2>
            <dl class="facts">
                <dt>{t(Msg::MailTransport)}</dt><dd id="mail-transport">{mail.transport.clone()}</dd>
                <dt>{t(Msg::MailFrom)}</dt><dd>{mail.from.clone()}</dd>
            </dl>
            {mail.to_folder.then(|| view! { <p class="muted">{t(Msg::MailFolderNote)}</p> })}
            {queued.then(|| view! { <div class="alert success" role="status">{t(Msg::TestMailQueued)}</div> })}
            {can_edit.then(|| view! {
                <PostForm action=api::SendTestMail::url() attr:class="inline-form">
                    <button type="submit" class="button small" id="send-test-mail">{t(Msg::SendTestMail)}</button>
                </PostForm>
            })}
            <h3>{t(Msg::RecentMails)}</h3>
            {rows}
        </section>
    }
}

#[component]
fn MailRowView(m: api::MailRow, can_edit: bool) -> impl IntoView {
    let l = lang();
    let status = match m.status.as_str() {
        "queued" => t(Msg::MailQueued).to_owned(),
        "sending" => t(Msg::MailSending).to_owned(),
        "sent" => format!(
            "{} {}",
            t(Msg::MailSent),
            m.sent_at
                .map(|s| s.format("%Y-%m-%d %H:%M UTC").to_string())
                .unwrap_or_default()
        ),
        "retrying" => Msg::MailRetrying.fill(
            l,
            &[
                (
                    "time",
                    &m.next_attempt_at.format("%Y-%m-%d %H:%M UTC").to_string(),
                ),
                ("n", &(m.attempts + 1).to_string()),
            ],
        ),
        _ => t(Msg::MailFailed).to_owned(),
    };
    let failed = m.status == "failed";
    let error = m.last_error.clone();
    view! {
        <tr data-status=m.status.clone()>
            <td>{m.recipient.clone()}</td>
            <td>{m.subject.clone()}<br/><code class="muted">{m.message_id.clone()}</code></td>
            <td>{status}{error.map(|e| view! { <br/><span class="muted">{e}</span> })}</td>
            <td>
                {(failed && can_edit).then(|| view! {
                    <PostForm action=api::RetryMail::url() ids=vec![("mail_id", m.id.to_string())] attr:class="inline-form">
                        <button type="submit" class="button small secondary">{t(Msg::RetryNow)}</button>
                    </PostForm>
                })}
            </td>
        </tr>
    }
}

/// The organisation's data classes: owners rename, mark, archive, add and
/// delete them; everyone else sees them.
#[component]
fn DataClassesPanel(owner: bool) -> impl IntoView {
    let data = page_data((), |_| api::data_classes_data());
    view! {
        <section class="panel" id="data-classes" aria-labelledby="data-classes-title">
            <h2 id="data-classes-title">{t(Msg::DataClassesTitle)}</h2>
            <p class="muted">{t(Msg::DataClassesLead)}</p>
            <Suspense fallback=|| ()>
                {move || Suspend::new(async move {
                    match data.await {
                        Ok(list) => view! {
                            <ul class="data-classes" id="data-class-list">
                                {list.into_iter().map(|c| view! { <DataClassRow c owner/> }).collect_view()}
                            </ul>
                        }.into_any(),
                        Err(e) => view! { <div class="alert error" role="alert">{t(e.msg)}</div> }.into_any(),
                    }
                })}
            </Suspense>
            {owner.then(|| view! {
                <h3>{t(Msg::AddDataClass)}</h3>
                <PostForm action=api::SaveDataClass::url() ids=vec![("data_class_id", String::new())] attr:class="form narrow" attr:id="data-class-form">
                    <Field name="name" label=Msg::FieldName/>
                    <Check name="personal".to_owned() value="true".to_owned()>
                        <span>{t(Msg::FieldPersonal)}</span>
                    </Check>
                    <Submit label=Msg::AddDataClass id="add-data-class"/>
                </PostForm>
            })}
        </section>
    }
}

#[component]
fn DataClassRow(c: api::DataClassChoice, owner: bool) -> impl IntoView {
    let id = c.id.to_string();
    if !owner {
        return view! {
            <li>
                <span>{c.name.clone()}</span>
                {c.personal.then(|| view! { " " <span class="badge warn">{t(Msg::SendsPersonalData)}</span> })}
                {c.archived.then(|| view! { " " <span class="badge">{t(Msg::ArchivedBadge)}</span> })}
            </li>
        }
        .into_any();
    }
    view! {
        <li>
            <PostForm action=api::SaveDataClass::url() ids=vec![("data_class_id", id.clone())] attr:class="inline-form wrap">
                <Field name="name" label=Msg::FieldName value=c.name.clone() scope=format!("dc-{}", c.id) inline=true/>
                <Check name="personal".to_owned() value="true".to_owned() checked=c.personal><span>{t(Msg::FieldPersonal)}</span></Check>
                <Check name="archived".to_owned() value="true".to_owned() checked=c.archived><span>{t(Msg::FieldArchived)}</span></Check>
                <button type="submit" class="button small secondary">{t(Msg::Save)}</button>
            </PostForm>
            <PostForm action=api::DeleteDataClass::url() ids=vec![("data_class_id", id.clone())] attr:class="inline-form">
                <button type="submit" class="button small danger-outline">{t(Msg::Delete)}</button>
            </PostForm>
        </li>
    }
    .into_any()
}
