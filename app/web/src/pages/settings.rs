//! Organisation settings: members and their roles, invitations, another
//! organisation, and the recent audit log.

use crate::api::{self, SettingsView};
use crate::components::{AppLayout, Field, Select, Submit};
use crate::forms::{Check, PostForm};
use crate::i18n::{date, date_time, lang, t};
use crate::page_data::page_data;
use aivet_domain::follow_ups::Policy;
use aivet_domain::jobs::JobStatus;
use aivet_domain::mail::MailStatus;
use aivet_domain::{msg, Msg, Role, Zone};
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
                <dt>{t(Msg::TimeZone)}</dt><dd id="org-time-zone">{d.zone.name()}</dd>
            </dl>
            {owner.then(|| view! { <TimeZoneForm zone=d.zone zones=d.zones.clone()/> })}
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
                    <li data-action=e.action><time>{date_time(e.at)}</time>" "<span>{e.actor}</span>" · "<span>{e.text}</span></li>
                }).collect_view()}
            </ul>
        </section>
    }
    .into_any();
    let can_edit = d.org.role != Role::Viewer;
    let mail = view! { <MailPanel mail=d.mail.clone() can_edit/> }.into_any();
    let jobs = owner.then(|| view! { <JobsPanel jobs=d.jobs.clone()/> }.into_any());
    let follow_ups = view! { <FollowUpPolicyPanel policy=d.policy owner/> }.into_any();
    let classes = view! { <DataClassesPanel owner/> }.into_any();
    let advisories = view! { <AdvisoriesPanel/> }.into_any();
    let questions = view! { <crate::pages::questions::QuestionSetPanel/> }.into_any();
    view! { {org} {members} {invites} {classes} {questions} {follow_ups} {advisories} {mail} {jobs} {audit} }
}

/// The organisation's time zone: dates are shown, and "today" counted, in it.
#[component]
fn TimeZoneForm(zone: Zone, zones: Vec<Zone>) -> impl IntoView {
    let saved = leptos_router::hooks::use_query_map()
        .with_untracked(|q| q.get("saved").as_deref() == Some("time_zone"));
    let options = zones
        .into_iter()
        .map(|z| (z.name().to_owned(), z.name().to_owned()))
        .collect();
    view! {
        {saved.then(|| view! { <div class="alert success" role="status">{t(Msg::Saved)}</div> })}
        <PostForm action=api::SetTimeZone::url() attr:class="form inline-form" attr:id="time-zone-form">
            <Select name="time_zone" label=Msg::TimeZone hint=Msg::TimeZoneHint options value=zone.name()/>
            <Submit label=Msg::Save/>
        </PostForm>
    }
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
    let confirm = msg!(l, Msg::RemoveMemberConfirm, name = &m.name);
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
    // The folder, in words; an SMTP server by its address.
    let transport = match mail.transport.strip_prefix("folder ") {
        Some(dir) if mail.to_folder => msg!(lang(), Msg::MailToFolder, dir = dir),
        _ => mail.transport.clone(),
    };
    view! {
        <section class="panel" aria-labelledby="mail-title">
            <h2 id="mail-title">{t(Msg::MailTitle)}</h2>
            <dl class="facts">
                <dt>{t(Msg::MailTransport)}</dt><dd id="mail-transport">{transport}</dd>
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

/// How the organisation follows up: reminders to vendors, when answers
/// are due for review, when a decision is looked at again. Owners change it.
#[component]
fn FollowUpPolicyPanel(policy: Policy, owner: bool) -> impl IntoView {
    let saved = leptos_router::hooks::use_query_map()
        .with_untracked(|q| q.get("saved").as_deref() == Some("follow_ups"));
    let l = lang();
    let summary = if policy.reminders {
        msg!(
            l,
            Msg::FollowUpPolicySummary,
            n = policy.max_reminders,
            days = policy.review_days,
            months = policy.reassess_months
        )
    } else {
        msg!(
            l,
            Msg::FollowUpPolicySummaryNoReminders,
            days = policy.review_days,
            months = policy.reassess_months
        )
    };
    view! {
        <section class="panel" aria-labelledby="follow-ups-title">
            <h2 id="follow-ups-title">{t(Msg::FollowUpPolicyTitle)}</h2>
            <p id="follow-up-policy">{summary}</p>
            {saved.then(|| view! { <div class="alert success" role="status">{t(Msg::Saved)}</div> })}
            {owner.then(|| view! {
                <PostForm action=api::SaveFollowUpPolicy::url() attr:class="form" attr:id="follow-up-policy-form">
                    <Check name="form[reminders]".to_owned() value="on".to_owned() checked=policy.reminders>
                        <span>{t(Msg::FollowUpPolicyReminders)}</span>
                    </Check>
                    <Field name="max_reminders" input="form[max_reminders]" label=Msg::FollowUpPolicyMax kind="number" value=policy.max_reminders.to_string()/>
                    <Field name="review_days" input="form[review_days]" label=Msg::FollowUpPolicyReviewDays kind="number" value=policy.review_days.to_string()/>
                    <Field name="reassess_months" input="form[reassess_months]" label=Msg::FollowUpPolicyReassess kind="number" value=policy.reassess_months.to_string()/>
                    <Field name="expiry_notice_days" input="form[expiry_notice_days]" label=Msg::FieldExpiryNoticeDays kind="number" value=policy.expiry_notice_days.to_string()/>
                    <Submit label=Msg::Save/>
                </PostForm>
            })}
        </section>
    }
}

/// Background work that failed or waits for another attempt, with its
/// error; a failed job can be started again.
#[component]
fn JobsPanel(jobs: Vec<api::JobRow>) -> impl IntoView {
    let l = lang();
    let body = if jobs.is_empty() {
        view! { <p class="muted">{t(Msg::NoFailedJobs)}</p> }.into_any()
    } else {
        let rows = jobs
            .into_iter()
            .map(|j| {
                let failed = j.status == JobStatus::Failed;
                view! {
                    <tr data-status=j.status.as_str() data-kind=j.kind.clone()>
                        <td>{j.what.clone()}</td>
                        <td>{t(j.status.label())}" · "{msg!(l, Msg::JobAttempts, n = j.attempts)}
                            {j.last_error.clone().map(|e| view! { <br/><span class="muted">{e}</span> })}</td>
                        <td>{date_time(j.run_at)}</td>
                        <td>{failed.then(|| view! {
                            <PostForm action=api::RetryJob::url() ids=vec![("job_id", j.id.to_string())] attr:class="inline-form">
                                <button type="submit" class="button small secondary">{t(Msg::RetryNow)}</button>
                            </PostForm>
                        })}</td>
                    </tr>
                }
            })
            .collect_view();
        view! {
            <div class="table-wrap">
                <table class="table" id="jobs">
                    <thead><tr>
                        <th scope="col">{t(Msg::JobWhat)}</th>
                        <th scope="col">{t(Msg::MailStatusLabel)}</th>
                        <th scope="col">{t(Msg::JobDue)}</th>
                        <th scope="col"><span class="visually-hidden">{t(Msg::RetryNow)}</span></th>
                    </tr></thead>
                    <tbody>{rows}</tbody>
                </table>
            </div>
        }
        .into_any()
    };
    view! {
        <section class="panel" aria-labelledby="jobs-title">
            <h2 id="jobs-title">{t(Msg::JobsTitle)}</h2>
            <p class="muted">{t(Msg::JobsLead)}</p>
            {body}
        </section>
    }
}

#[component]
fn MailRowView(m: api::MailRow, can_edit: bool) -> impl IntoView {
    let l = lang();
    let status = match m.status {
        MailStatus::Queued | MailStatus::Sending | MailStatus::Failed => {
            t(m.status.label()).to_owned()
        }
        MailStatus::Sent => format!(
            "{} {}",
            t(Msg::MailSent),
            m.sent_at.map(date_time).unwrap_or_default()
        ),
        MailStatus::Retrying => msg!(
            l,
            Msg::MailRetrying,
            time = &date_time(m.next_attempt_at),
            n = m.attempts + 1
        ),
    };
    let failed = m.status == MailStatus::Failed;
    let error = m.last_error.clone();
    view! {
        <tr data-status=m.status.as_str()>
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
    let policy = page_data((), |_| api::clearance_policy_data());
    view! {
        <section class="panel" id="data-classes" aria-labelledby="data-classes-title">
            <h2 id="data-classes-title">{t(Msg::DataClassesTitle)}</h2>
            <p class="muted">{t(Msg::DataClassesLead)}</p>
            <p class="muted">{t(Msg::PolicyLead)}</p>
            <Suspense fallback=|| ()>
                {move || Suspend::new(async move {
                    let reviewed = policy.await.ok().and_then(|p| p.reviewed);
                    view! {
                        <p id="policy-reviewed">{match reviewed {
                            Some((at, name)) => msg!(lang(), Msg::PolicyReviewedOn, at = &date(at), name = &name),
                            None => t(Msg::PolicyNotReviewed).to_owned(),
                        }}</p>
                        {owner.then(|| view! {
                            <PostForm action=api::ReviewClearancePolicy::url() attr:class="inline-form" attr:id="policy-review-form">
                                <button type="submit" class="button small secondary" id="review-policy">{t(Msg::PolicyConfirm)}</button>
                            </PostForm>
                        })}
                    }
                })}
            </Suspense>
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
                    <Check name="needs_clearance".to_owned() value="true".to_owned()>
                        <span>{t(Msg::FieldNeedsClearance)}</span>
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
                {c.needs_clearance.then(|| view! { " " <span class="badge warn">{t(Msg::FieldNeedsClearance)}</span> })}
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
                <Check name="needs_clearance".to_owned() value="true".to_owned() checked=c.needs_clearance><span>{t(Msg::FieldNeedsClearance)}</span></Check>
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

/// The engine advisories aivet matches, and (for owners) importing more.
#[component]
fn AdvisoriesPanel() -> impl IntoView {
    let data = page_data((), |_| api::advisories_data());
    view! {
        <section class="panel" id="advisories" aria-labelledby="advisories-title">
            <h2 id="advisories-title">{t(Msg::AdvisoriesTitle)}</h2>
            <p class="muted">{t(Msg::AdvisoriesLead)}</p>
            <Suspense fallback=|| ()>
                {move || Suspend::new(async move {
                    match data.await {
                        Ok(d) => view! {
                            <ul class="advisory-list" id="advisory-list">
                                {d.advisories.into_iter().map(|a| view! {
                                    <li>
                                        <strong>{a.id}</strong>" · "{a.engines.join(", ")}" · "
                                        <span class="muted">{t(if a.built_in { Msg::AdvisoryBuiltIn } else { Msg::AdvisoryImported })}</span>
                                        <p>{a.summary}</p>
                                    </li>
                                }).collect_view()}
                            </ul>
                            {d.can_import.then(|| view! { <AdvisoryImportForm/> })}
                        }.into_any(),
                        Err(e) => view! { <div class="alert error" role="alert">{t(e.msg)}</div> }.into_any(),
                    }
                })}
            </Suspense>
        </section>
    }
}

#[component]
fn AdvisoryImportForm() -> impl IntoView {
    view! {
        <form method="post" enctype="multipart/form-data" class="form" id="advisory-upload-form"
            action="/settings/advisories/upload">
            <div class="field">
                <label for="f-osv-file">{t(Msg::FieldOsvFile)}</label>
                <input id="f-osv-file" name="attachment" type="file" accept=".json,application/json"/>
            </div>
            <button type="submit" class="button secondary" id="upload-advisories">{t(Msg::ImportAdvisoryFile)}</button>
        </form>
        <PostForm action=api::ImportAdvisories::url() attr:class="form" attr:id="advisory-import-form" attr:novalidate=true>
            <crate::components::TextArea name="osv" label=Msg::FieldOsvJson rows=6 mono=true/>
            <Submit label=Msg::ImportAdvisories id="import-advisories"/>
        </PostForm>
    }
}
