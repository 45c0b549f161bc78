//! The follow-ups board: what is overdue, due this week and later, with
//! filters by owner, vendor and reason, and on each row the next thing to
//! do (record or review the answer, ask again), moving it to another day
//! with a note, or marking it done.

use crate::api::{self, FollowUpBoardView, FollowUpFilter, FollowUpView};
use crate::components::{choice_options, AppLayout, EmptyState, Field, Select, Submit};
use crate::forms::{refused_here, PostForm};
use crate::i18n::{lang, on, t};
use crate::page_data::page_data;
use crate::pages::common::{query_values, LoadError};
use aivet_domain::follow_ups::{Digest, FollowUpReason, Section};
use aivet_domain::{msg, Msg};
use leptos::prelude::*;
use leptos::server_fn::ServerFn;

#[component]
pub fn FollowUpsPage() -> impl IntoView {
    let [owner, vendor, reason] = query_values(["owner", "vendor", "reason"]);
    let filter = FollowUpFilter {
        owner,
        vendor,
        reason,
    };
    let data = page_data(filter.clone(), api::follow_ups_data);
    let filter = StoredValue::new(filter);
    view! {
        <AppLayout title=Msg::NavFollowUps>
            <Suspense fallback=|| ()>
                {move || Suspend::new(async move {
                    match data.await {
                        Ok(d) => view! { <Board d filter=filter.get_value()/> }.into_any(),
                        Err(e) => view! { <LoadError e/> }.into_any(),
                    }
                })}
            </Suspense>
        </AppLayout>
    }
}

fn options<I: ToString>(all: &[api::Named<I>], current: &str) -> impl IntoView {
    std::iter::once((String::new(), t(Msg::FilterAll).to_owned()))
        .chain(all.iter().map(|n| (n.id.to_string(), n.name.clone())))
        .map(|(v, l)| {
            let selected = v == current;
            view! { <option value=v selected=selected>{l}</option> }
        })
        .collect_view()
}

#[component]
fn Board(d: FollowUpBoardView, filter: FollowUpFilter) -> impl IntoView {
    let reasons = std::iter::once((String::new(), t(Msg::FilterAll).to_owned()))
        .chain(choice_options(
            FollowUpReason::ALL,
            FollowUpReason::as_str,
            FollowUpReason::label,
        ))
        .map(|(v, l)| {
            let selected = v == filter.reason;
            view! { <option value=v selected=selected>{l}</option> }
        })
        .collect_view();
    let total: usize = d.sections.iter().map(|(_, rows)| rows.len()).sum();
    let filtered =
        !(filter.owner.is_empty() && filter.vendor.is_empty() && filter.reason.is_empty());
    let can_edit = d.can_edit;
    let all = d.total;
    let mine = view! { <Mine digest=d.digest link=d.calendar_link.clone()/> };
    let sections = d
        .sections
        .into_iter()
        .filter(|(_, rows)| !rows.is_empty())
        .map(|(section, rows)| view! { <SectionBlock section rows can_edit/> })
        .collect_view();
    view! {
        <div class="toolbar">
            <form method="get" action="/follow-ups" class="filters" role="search">
                <label>
                    <span>{t(Msg::FieldOwner)}</span>
                    <select name="owner">{options(&d.members, &filter.owner)}</select>
                </label>
                <label>
                    <span>{t(Msg::FieldVendor)}</span>
                    <select name="vendor">{options(&d.vendors, &filter.vendor)}</select>
                </label>
                <label>
                    <span>{t(Msg::FollowUpReasonLabel)}</span>
                    <select name="reason">{reasons}</select>
                </label>
                <button type="submit" class="button small secondary">{t(Msg::ApplyFilters)}</button>
            </form>
        </div>
        {if total == 0 {
            view! { <EmptyState text=if filtered { Msg::NoMatches } else { Msg::EmptyFollowUps }/> }.into_any()
        } else {
            view! {
                {(all > total as u64).then(|| view! {
                    <p class="alert info" role="status" id="board-limited">
                        {msg!(lang(), Msg::FollowUpsShown, shown = total, n = all)}
                    </p>
                })}
                {sections}
            }.into_any()
        }}
        {mine}
    }
}

/// The member's own digest mail and calendar feed.
#[component]
fn Mine(digest: Digest, link: Option<String>) -> impl IntoView {
    let saved = leptos_router::hooks::use_query_map()
        .with_untracked(|q| q.get("saved").as_deref() == Some("digest"));
    let options = choice_options(Digest::ALL, Digest::as_str, Digest::label);
    let calendar = match link {
        Some(link) => {
            let webcal = link.replacen("https://", "webcal://", 1).replacen("http://", "webcal://", 1);
            view! {
                <p>{t(Msg::CalendarFeedLead)}</p>
                <p><input type="text" readonly=true id="calendar-link" value=link.clone() class="copyable"/>
                    " "<button type="button" class="button small" data-copy="calendar-link" data-copied=t(Msg::Copied)>{t(Msg::CopyLink)}</button>
                    " "<a class="button small secondary" href=webcal id="webcal-link">{t(Msg::CalendarSubscribe)}</a></p>
                <p class="muted">{t(Msg::CalendarFeedPrivate)}</p>
                <div class="actions">
                    <PostForm action=api::RotateCalendar::url() attr:class="inline-form">
                        <button type="submit" class="button small secondary" id="rotate-calendar">{t(Msg::CalendarRotate)}</button>
                    </PostForm>
                    <PostForm action=api::StopCalendar::url() attr:class="inline-form">
                        <button type="submit" class="button small secondary" id="stop-calendar">{t(Msg::CalendarStop)}</button>
                    </PostForm>
                </div>
            }
            .into_any()
        }
        None => view! {
            <p>{t(Msg::CalendarFeedLead)}</p>
            <PostForm action=api::RotateCalendar::url() attr:class="inline-form">
                <button type="submit" class="button small" id="start-calendar">{t(Msg::CalendarStart)}</button>
            </PostForm>
        }
        .into_any(),
    };
    view! {
        <section class="panel" aria-labelledby="mine-title" id="mine">
            <h2 id="mine-title">{t(Msg::FollowUpsMine)}</h2>
            {saved.then(|| view! { <div class="alert success" role="status">{t(Msg::Saved)}</div> })}
            <PostForm action=api::SetDigest::url() attr:class="form inline-form" attr:id="digest-form">
                <Select name="digest" label=Msg::DigestLabel options value=digest.as_str()/>
                <Submit label=Msg::Save/>
            </PostForm>
            <h3>{t(Msg::CalendarTitle)}</h3>
            {calendar}
        </section>
    }
}

#[component]
fn SectionBlock(section: Section, rows: Vec<FollowUpView>, can_edit: bool) -> impl IntoView {
    let id = match section {
        Section::Overdue => "overdue",
        Section::ThisWeek => "this-week",
        Section::Later => "later",
    };
    let n = rows.len();
    let rows = rows
        .into_iter()
        .map(|f| view! { <Row f can_edit/> })
        .collect_view();
    view! {
        <section class="panel" aria-labelledby=format!("{id}-title") id=id>
            <h2 id=format!("{id}-title")>{t(section.label())}" "<span class="badge muted-badge">{n}</span></h2>
            <div class="table-wrap">
                <table class="table follow-ups">
                    <thead><tr>
                        <th scope="col">{t(Msg::FollowUpOn)}</th>
                        <th scope="col">{t(Msg::ColumnService)}</th>
                        <th scope="col">{t(Msg::FollowUpReasonLabel)}</th>
                        <th scope="col">{t(Msg::FieldOwner)}</th>
                        <th scope="col">{t(Msg::FollowUpNext)}</th>
                    </tr></thead>
                    <tbody>{rows}</tbody>
                </table>
            </div>
        </section>
    }
}

/// The next thing to do about a follow-up, as a link.
fn next_action(f: &FollowUpView) -> (String, Msg) {
    match (f.reason, f.request) {
        (FollowUpReason::AnswerDue, Some(r)) => {
            (format!("/requests/{r}"), Msg::FollowUpRecordAnswer)
        }
        (FollowUpReason::ReviewDue, Some(r)) => (format!("/requests/{r}"), Msg::FollowUpReview),
        _ => (
            format!("/services/{}/ask", f.service.id),
            Msg::FollowUpAskAgain,
        ),
    }
}

#[component]
fn Row(f: FollowUpView, can_edit: bool) -> impl IntoView {
    let remind_request = (f.reason == FollowUpReason::AnswerDue)
        .then_some(f.request)
        .flatten()
        .filter(|_| can_edit);
    let (href, action) = next_action(&f);
    let id = f.id.to_string();
    let (move_id, done_id) = (id.clone(), id.clone());
    let snooze_open = refused_here(api::MoveFollowUp::url(), &[("follow_up_id", id.clone())]);
    let due = f.due_on.to_string();
    let ics = format!("/follow-ups/{}/calendar.ics", f.id);
    let done_label = msg!(lang(), Msg::FollowUpDoneFor, service = &f.service.name);
    view! {
        <tr data-follow-up=id.clone() data-reason=f.reason.as_str()>
            <td><time datetime=f.due_on.to_string()>{on(f.due_on)}</time></td>
            <td>
                <a href=format!("/services/{}", f.service.id)>{f.service.name.clone()}</a>
                <br/><span class="muted">{f.vendor.name.clone()}</span>
                {f.recipient.clone().map(|r| view! { <span class="muted">" · "{r}</span> })}
            </td>
            <td>{t(f.reason.label())}{f.note.clone().map(|n| view! { <br/><span class="muted prewrap">{n}</span> })}</td>
            <td>{f.owner.clone().unwrap_or_else(|| "—".to_owned())}</td>
            <td class="actions">
                <a class="button small" href=href>{t(action)}</a>
                " "<a class="ics" href=ics download="">{t(Msg::CalendarFile)}</a>
                {remind_request.map(|r| view! {
                    <PostForm action=api::RemindNow::url() ids=vec![("request_id", r.0.to_string())] attr:class="inline-form">
                        <button type="submit" class="button small secondary">{t(Msg::RemindNow)}</button>
                    </PostForm>
                })}
                {if can_edit { Some(view! {
                    <details class="snooze" open=snooze_open>
                        <summary>{t(Msg::FollowUpMove)}</summary>
                        <PostForm action=api::MoveFollowUp::url() ids=vec![("follow_up_id", move_id.clone())] attr:class="form compact">
                            <Field name="due_on" input="form[due_on]" label=Msg::FollowUpNewDate kind="date" value=due scope=move_id.clone()/>
                            <Field name="note" input="form[note]" label=Msg::FollowUpWhy required=false scope=move_id.clone()/>
                            <button type="submit" class="button small secondary">{t(Msg::FollowUpMove)}</button>
                        </PostForm>
                    </details>
                    <PostForm action=api::FinishFollowUp::url() ids=vec![("follow_up_id", done_id.clone())] attr:class="inline-form">
                        <button type="submit" class="button small secondary" aria-label=done_label>{t(Msg::FollowUpMarkDone)}</button>
                    </PostForm>
                }) } else { None }}
            </td>
        </tr>
    }
}
