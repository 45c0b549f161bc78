//! The questions to vendors on the members' side: the panel on a service's
//! page (state, requests, decision, timeline), the page that sends the
//! questions, and the page of one request with its answers and reviews.

use crate::api::{
    self, AskView, ItemView, QuestionSetView, QuestionsView, RequestRowView, RequestView,
};
use crate::components::{choice_options, AppLayout, EmptyState, Field, Select, Submit, TextArea};
use crate::forms::{refused_here, Check, PostForm};
use crate::i18n::{date, date_time, lang, on, t};
use crate::page_data::page_data;
use crate::pages::common::{path_id, LoadError};
use aivet_domain::mail::MailStatus;
use aivet_domain::questions::{Assessment, RequestStatus, Review, ANSWER_FIELDS};
use aivet_domain::{msg, Lang, Msg};
use leptos::prelude::*;
use leptos::server_fn::ServerFn;

/// Form names of the answers, in the order of [`ANSWER_FIELDS`].
const ANSWER_INPUTS: [&str; 16] = [
    "answers[answers][0]",
    "answers[answers][1]",
    "answers[answers][2]",
    "answers[answers][3]",
    "answers[answers][4]",
    "answers[answers][5]",
    "answers[answers][6]",
    "answers[answers][7]",
    "answers[answers][8]",
    "answers[answers][9]",
    "answers[answers][10]",
    "answers[answers][11]",
    "answers[answers][12]",
    "answers[answers][13]",
    "answers[answers][14]",
    "answers[answers][15]",
];

/// The state of a request's mail (queued until the outbox has it).
fn mail_status(s: &Option<MailStatus>) -> Msg {
    s.unwrap_or(MailStatus::Queued).label()
}

fn status_text(r: &RequestRowView) -> String {
    let mut s = t(r.status.label()).to_owned();
    if r.revoked {
        s = format!("{s} · {}", t(Msg::LinkRevoked));
    } else if r.expired && r.status != RequestStatus::Submitted {
        s = format!("{s} · {}", t(Msg::LinkExpired));
    }
    if r.no_answer {
        s = format!("{s} · {}", t(Msg::EventNoAnswer));
    }
    s
}

/// The questions part of a service's page.
#[component]
pub fn QuestionsPanel(q: QuestionsView) -> impl IntoView {
    view! {
        <section class="panel" aria-labelledby="questions-title" id="questions">
            <h2 id="questions-title">{t(Msg::QuestionsTitle)}</h2>
            <QuestionsBody q/>
        </section>
    }
}

#[component]
fn QuestionsBody(q: QuestionsView) -> impl IntoView {
    let rows = q
        .requests
        .iter()
        .map(|r| {
            view! {
                <tr>
                    <td><a href=format!("/requests/{}", r.id.0)>{r.vendor_name.clone()}</a><br/><span class="muted">{r.recipient.clone()}</span></td>
                    <td>{date(r.sent_at)}{r.again.then(|| view! { <br/><span class="badge">{t(Msg::EventAskedAgain)}</span> })}</td>
                    <td>{on(r.deadline)}</td>
                    <td class="request-status">{status_text(r)}</td>
                    <td>{t(mail_status(&r.mail_status))}</td>
                    <td>{format!("{} / {}", r.open_items, r.items)}</td>
                </tr>
            }
        })
        .collect_view();
    let requests = if q.requests.is_empty() {
        view! { <EmptyState text=Msg::NoRequests/> }.into_any()
    } else {
        view! {
            <table class="table" id="requests">
                <thead><tr>
                    <th scope="col">{t(Msg::RequestTo)}</th>
                    <th scope="col">{t(Msg::RequestSentAt)}</th>
                    <th scope="col">{t(Msg::RequestDeadline)}</th>
                    <th scope="col">{t(Msg::RequestStatusLabel)}</th>
                    <th scope="col">{t(Msg::RequestMail)}</th>
                    <th scope="col">{t(Msg::RequestOpenItems)}</th>
                </tr></thead>
                <tbody>{rows}</tbody>
            </table>
        }
        .into_any()
    };
    let events = q
        .events
        .iter()
        .map(|e| {
            let what = e.title.clone();
            let who = (!e.actor.is_empty()).then(|| format!(" · {}", e.actor));
            let detail = e.detail.clone();
            view! {
                <li>
                    <time>{date_time(e.at)}</time>" "
                    <strong>{what}</strong>{who}
                    {(!detail.is_empty()).then(|| view! { " — "<span class="muted">{detail}</span> })}
                </li>
            }
        })
        .collect_view();
    let sid = q.service_id.to_string();
    view! {
        <dl class="facts">
            <dt>{t(Msg::AssessmentLabel)}</dt>
            <dd><span class=format!("assessment assessment-{}", q.assessment.as_str()) id="assessment">{t(q.assessment.label())}</span>
                {q.note.clone().map(|n| view! { <p class="prewrap">{n}</p> })}</dd>
            <dt>{t(Msg::FollowUpOn)}</dt>
            <dd>{q.follow_up_on.map(on).unwrap_or_else(|| "—".to_owned())}</dd>
        </dl>
        {q.can_edit.then(|| view! {
            <p><a class="button" id="ask-vendor" href=format!("/services/{}/ask", q.service_id)>{t(Msg::AskVendor)}</a></p>
        })}
        {requests}
        {(q.can_edit && !q.requests.is_empty()).then(|| view! {
            <details class="edit-decision" open=refused_here(api::DecideAssessment::url(), &[("service_id", sid.clone())])>
                <summary class="button small secondary">{t(Msg::DecisionLabel)}</summary>
                <PostForm action=api::DecideAssessment::url() ids=vec![("service_id", sid.clone())]
                    attr:class="form" attr:id="decision-form" attr:novalidate=true>
                    <Select name="decision" input="decision[decision]" label=Msg::DecisionLabel
                        options=choosing(choice_options(&Assessment::DECISIONS, Assessment::as_str, Assessment::label))
                        value=if Assessment::DECISIONS.contains(&q.assessment) { q.assessment.as_str() } else { "" }/>
                    <TextArea name="note" input="decision[note]" label=Msg::DecisionNote value=q.note.clone().unwrap_or_default() rows=3/>
                    <Submit label=Msg::DecisionSave id="save-decision"/>
                </PostForm>
            </details>
        })}
        {(!q.events.is_empty()).then(|| view! {
            <h3>{t(Msg::TimelineTitle)}</h3>
            <ol class="timeline" id="timeline">{events}</ol>
        })}
    }
}

#[component]
pub fn AskPage() -> impl IntoView {
    let id = path_id();
    let [incident] = crate::pages::common::query_values(["incident"]);
    let data = page_data((id, incident), |(id, incident)| api::ask_data(id, incident));
    view! {
        <Suspense fallback=|| ()>
            {move || Suspend::new(async move {
                match data.await {
                    Ok(d) => view! {
                        <AppLayout title=Msg::AskTitle name=d.service_name.clone()>
                            <AskForm d=d.clone()/>
                        </AppLayout>
                    }.into_any(),
                    Err(e) => view! { <AppLayout title=Msg::AskTitle><LoadError e=e.clone()/></AppLayout> }.into_any(),
                }
            })}
        </Suspense>
    }
}

#[component]
pub fn AskVendorPage() -> impl IntoView {
    let id = path_id();
    let data = page_data(id, api::ask_vendor_data);
    view! {
        <Suspense fallback=|| ()>
            {move || Suspend::new(async move {
                match data.await {
                    Ok(d) if d.services.is_empty() => view! {
                        <AppLayout title=Msg::AskVendorTitle name=d.service_name.clone()>
                            <EmptyState text=Msg::AskVendorNoServices/>
                        </AppLayout>
                    }.into_any(),
                    Ok(d) => view! {
                        <AppLayout title=Msg::AskVendorTitle name=d.service_name.clone()>
                            <AskForm d=d.clone()/>
                        </AppLayout>
                    }.into_any(),
                    Err(e) => view! { <AppLayout title=Msg::AskVendorTitle><LoadError e=e.clone()/></AppLayout> }.into_any(),
                }
            })}
        </Suspense>
    }
}

/// The send form. "Preview the mail" posts the same fields to the preview
/// function and shows what would go out below the form.
#[component]
fn AskForm(d: AskView) -> impl IntoView {
    let preview_url = <api::PreviewQuestions as ServerFn>::url();
    let sid = d.service_id.map(|s| s.to_string()).unwrap_or_default();
    let back = match (d.service_id, d.vendor_id) {
        (Some(s), _) => format!("/services/{s}"),
        (None, Some(v)) => format!("/vendors/{v}"),
        (None, None) => "/services".to_owned(),
    };
    if d.recipients.is_empty() {
        return view! {
            <p><a href=back.clone()>{t(Msg::BackToList)}</a></p>
            <EmptyState text=Msg::AskNoContacts/>
        }
        .into_any();
    }
    // The boxes are made inside the form (called there), so that they see
    // what a refused post had ticked.
    let recipients = d.recipients.clone();
    let boxes = move || {
        recipients
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let checked = r.part == aivet_domain::inventory::ServicePart::Vendor && r.primary;
            let label = format!(
                " {} <{}> — {} ({}, {})",
                r.name,
                r.email,
                r.vendor_name,
                t(r.part.label()),
                r.lang.native_name()
            );
            view! {
                <Check name=format!("form[contacts][{i}]") value=r.id.to_string() checked>{label}</Check>
            }
        })
        .collect_view()
    };
    let services = d.services.clone();
    let service_boxes = move || {
        services
        .iter()
        .enumerate()
        .map(|(i, (id, name))| {
            let label = format!(" {name}");
            view! {
                <Check name=format!("form[services][{i}]") value=id.to_string() checked=true>{label}</Check>
            }
        })
        .collect_view()
    };
    let further = d.further.clone();
    let optional_boxes = move || {
        further
        .iter()
        .enumerate()
        .map(|(i, q)| {
            let label = format!(" {}", q.text);
            view! {
                <Check name=format!("form[optional][{i}]") value=q.code.clone() checked=q.enabled>{label}</Check>
            }
        })
        .collect_view()
    };
    let core = d
        .core
        .iter()
        .cloned()
        .map(|(text, why)| view! { <li>{text}<br/><span class="muted">{t(Msg::WhyWeAsk)}": "{why}</span></li> })
        .collect_view();
    let mut lang_options = vec![(String::new(), t(Msg::AskLangContact).to_owned())];
    lang_options.extend(
        Lang::ALL
            .iter()
            .map(|l| (l.code().to_owned(), l.native_name().to_owned())),
    );
    view! {
        <p class="muted"><a href=back.clone()>{d.service_name.clone()}</a></p>
        <p>{t(Msg::AskIntro)}</p>
        <PostForm action=api::SendQuestions::url() ids=vec![("service_id", sid.clone())] other_actions=vec![preview_url]
            attr:class="form panel" attr:id="ask-form" attr:novalidate=true>
            <input type="hidden" name="form[send_key]" value=d.send_key.clone()/>
            {d.incident.clone().map(|(id, title)| view! {
                <input type="hidden" name="form[incident]" value=id/>
                <p class="alert info" id="ask-incident">{aivet_domain::msg!(lang(), Msg::AskAboutIncidentNote, title = &title)}</p>
            })}
            {d.vendor_id.is_some().then(|| view! {
                <fieldset id="f-services" data-field="services">
                    <legend>{t(Msg::AskServices)}</legend>
                    {service_boxes()}
                </fieldset>
            })}
            <fieldset id="f-contacts" data-field="contacts">
                <legend>{t(Msg::AskContacts)}</legend>
                {boxes()}
            </fieldset>
            <Select name="lang" input="form[lang]" label=Msg::AskLang options=lang_options/>
            <Field name="deadline" input="form[deadline]" label=Msg::RequestDeadline kind="date" value=d.default_deadline.to_string()/>
            <h3>{t(Msg::QuestionsTitle)}</h3>
            <ol class="questions">{core}</ol>
            <fieldset data-field="optional">
                <legend>{t(Msg::AskOptional)}</legend>
                {optional_boxes()}
            </fieldset>
            <div class="actions">
                <Submit label=Msg::AskSend id="send-questions"/>
                <button type="submit" class="button secondary" id="preview-questions" formaction=preview_url
                    data-result="mail-previews" data-working=t(Msg::Working)>{t(Msg::AskPreview)}</button>
            </div>
        </PostForm>
        <div id="mail-previews" data-each="items" hidden>
            <template>
                <section class="panel mail-preview">
                    <p><strong>{t(Msg::RequestTo)}": "</strong><span data-slot="to"></span></p>
                    <p><strong data-slot="subject"></strong></p>
                    <pre class="prewrap" data-slot="text"></pre>
                </section>
            </template>
        </div>
    }
    .into_any()
}

#[component]
pub fn RequestPage() -> impl IntoView {
    let id = path_id();
    let data = page_data(id, api::request_detail);
    view! {
        <Suspense fallback=|| ()>
            {move || Suspend::new(async move {
                match data.await {
                    Ok(d) => {
                        let title = msg!(lang(), Msg::RequestTitle, vendor = &d.row.vendor_name);
                        view! {
                            <AppLayout title=Msg::QuestionsTitle name=title>
                                <RequestBody d=d.clone()/>
                            </AppLayout>
                        }.into_any()
                    }
                    Err(e) => view! { <AppLayout title=Msg::QuestionsTitle><LoadError e=e.clone()/></AppLayout> }.into_any(),
                }
            })}
        </Suspense>
    }
}

#[component]
fn RequestBody(d: RequestView) -> impl IntoView {
    let rid = d.row.id.0.to_string();
    let items = d
        .items
        .iter()
        .cloned()
        .map(|i| view! { <ItemBlock request=rid.clone() i can_edit=d.can_edit submitted=d.submitted_at.is_some()/> })
        .collect_view();
    view! {
        <p class="muted"><a href=format!("/services/{}#questions", d.service_id)>{d.service_name.clone()}</a></p>
        <section class="panel">
            <dl class="facts" id="request-facts">
                <dt>{t(Msg::RequestTo)}</dt><dd>{d.row.recipient.clone()}" ("{d.row.lang.native_name()}")"</dd>
                <dt>{t(Msg::RequestSentBy)}</dt><dd>{d.sent_by.clone()}", "{date(d.row.sent_at)}</dd>
                <dt>{t(Msg::RequestDeadline)}</dt><dd>{on(d.row.deadline)}</dd>
                <dt>{t(Msg::RequestLinkUntil)}</dt><dd>{date(d.expires_at)}</dd>
                <dt>{t(Msg::RequestStatusLabel)}</dt><dd id="request-status">{status_text(&d.row)}</dd>
                <dt>{t(Msg::RequestMail)}</dt><dd id="request-mail">{t(mail_status(&d.row.mail_status))}
                    {d.row.mail_error.clone().map(|e| view! { <br/><span class="muted">{e}</span> })}</dd>
                {d.responder.clone().map(|r| view! { <dt>{t(Msg::RequestResponder)}</dt><dd id="responder">{r}</dd> })}
                {d.received.clone().map(|r| view! { <dt>{t(Msg::ReceivedOn)}</dt><dd>{r}</dd> })}
                <dt>{t(Msg::RemindersLabel)}</dt><dd id="request-reminders">{reminders_text(&d.row)}</dd>
            </dl>
            {(d.can_edit && d.row.waiting).then(|| view! { <ReminderActions row=d.row.clone()/> })}
        </section>
        {d.can_edit.then(|| view! { <RequestActions d=d.clone()/> })}
        <Attachments d=d.clone()/>
        {items}
    }
}

fn reminders_text(r: &RequestRowView) -> String {
    let l = lang();
    let sent = msg!(l, Msg::RemindersSent, n = r.reminders_sent);
    if r.reminders {
        sent
    } else {
        format!("{} · {sent}", t(Msg::RemindersOffForRequest))
    }
}

/// Remind the vendor now, or switch this request's reminders on or off.
#[component]
fn ReminderActions(row: RequestRowView) -> impl IntoView {
    let id = row.id.0.to_string();
    let (label, value) = if row.reminders {
        (Msg::RemindersSwitchOff, "off")
    } else {
        (Msg::RemindersSwitchOn, "on")
    };
    view! {
        <div class="actions">
            <PostForm action=api::RemindNow::url() ids=vec![("request_id", id.clone())] attr:class="inline-form">
                <button type="submit" class="button small" id="remind-now">{t(Msg::RemindNow)}</button>
            </PostForm>
            <PostForm action=api::SetRequestReminders::url() ids=vec![("request_id", id.clone())] attr:class="inline-form">
                <input type="hidden" name="on" value=value/>
                <button type="submit" class="button small secondary" id="switch-reminders">{t(label)}</button>
            </PostForm>
        </div>
    }
}

/// What the upload's refusal of a document over the limit signs: the
/// request and the file's name, so that the page names only a file that
/// was really refused there (the name comes back in the address).
#[cfg(feature = "ssr")]
pub fn upload_refusal_signature(
    key: &aivet_services::SecretKey,
    request: aivet_domain::RequestId,
    name: &str,
) -> String {
    use base64::Engine as _;
    base64::engine::general_purpose::URL_SAFE_NO_PAD
        .encode(key.hash("upload-refused", &format!("{}\0{name}", request.0)))
}

/// The upload's problem from the address: its message, with the file's
/// name where the signature vouches for it.
fn upload_problem(request: aivet_domain::RequestId) -> Option<String> {
    let [problem, file, sig] =
        crate::pages::common::query_values(["upload_error", "upload_file", "upload_sig"]);
    let msg = Msg::from_key(&problem)?;
    if msg != Msg::ErrFileTooLargeNamed {
        return Some(t(msg).to_owned());
    }
    #[cfg(feature = "ssr")]
    let vouched = {
        use base64::Engine as _;
        let sig = base64::engine::general_purpose::URL_SAFE_NO_PAD.decode(&sig);
        crate::ssr::ctx().ok().zip(sig.ok()).is_some_and(|(c, s)| {
            c.services
                .key
                .verify("upload-refused", &format!("{}\0{file}", request.0), &s)
        })
    };
    #[cfg(not(feature = "ssr"))]
    let vouched = {
        let _ = (request, &sig);
        false
    };
    Some(if vouched {
        aivet_domain::msg!(
            lang(),
            Msg::ErrFileTooLargeNamed,
            name = &file,
            limit =
                &aivet_domain::attachments::size_text(aivet_domain::attachments::MAX_BYTES, lang()),
        )
    } else {
        t(Msg::ErrFileTooLarge).to_owned()
    })
}

/// The documents attached to a request, and (for editors) a plain upload
/// form that works without JavaScript.
#[component]
fn Attachments(d: RequestView) -> impl IntoView {
    let problem = upload_problem(d.row.id);
    let list = d
        .attachments
        .iter()
        .map(|a| {
            view! {
                <li>
                    <a href=format!("/attachments/{}", a.id) download="">{a.filename.clone()}</a>
                    " "<span class="muted">{format!("({} KB) · ", (a.size + 1023) / 1024)}
                    {msg!(lang(), Msg::AttachedBy, who = &a.uploaded_by)}" · "{date(a.uploaded_at)}</span>
                </li>
            }
        })
        .collect_view();
    let show = d.can_edit || !d.attachments.is_empty();
    show.then(|| view! {
        <section class="panel" id="attachments" aria-labelledby="attachments-title">
            <h2 id="attachments-title">{t(Msg::AttachmentsTitle)}</h2>
            {(!d.attachments.is_empty()).then(|| view! { <ul id="attachment-list">{list}</ul> })}
            {d.can_edit.then(|| view! {
                <form method="post" enctype="multipart/form-data" class="form" id="upload-form"
                    action=format!("/requests/{}/attachments", d.row.id.0)>
                    {problem.map(|text| view! {
                        <div class="alert error" role="alert" id="upload-error">{text}</div>
                    })}
                    <div class="field">
                        <label for="f-attachment">{t(Msg::AttachOriginal)}</label>
                        <p class="hint" id="f-attachment-hint">{t(Msg::AttachFileHint)}</p>
                        <input id="f-attachment" name="attachment" type="file" aria-describedby="f-attachment-hint"
                            accept=".pdf,.doc,.docx,.xls,.xlsx,.ppt,.pptx,.odt,.ods,.odp,.txt,.csv,.eml,.msg"/>
                    </div>
                    <button type="submit" class="button secondary" id="upload-file">{t(Msg::AttachUpload)}</button>
                </form>
            })}
        </section>
    })
}

#[component]
fn RequestActions(d: RequestView) -> impl IntoView {
    let rid = d.row.id.0.to_string();
    let submitted = d.submitted_at.is_some();
    // Made inside the form (called there): the fields see a refused post.
    let items = d.items.clone();
    let answer_fields = move || {
        items
            .iter()
            .enumerate()
            .map(|(n, i)| {
                view! {
                    <p class="question-text"><strong>{n + 1}". "</strong>{i.question.clone()}</p>
                    <TextArea name=ANSWER_FIELDS[n] input=ANSWER_INPUTS[n] label=Msg::AnswerLabel value=i.answer.clone().unwrap_or_default() rows=3/>
                }
            })
            .collect_view()
    };
    // Asking again: each open question's note, as the reviewer wrote it,
    // to edit before it goes to the vendor.
    let open_items = d.items.clone();
    let note_fields = move || {
        open_items
            .iter()
            .filter(|i| i.review != Some(Review::Satisfactory))
            .enumerate()
            .map(|(j, i)| {
                let label = msg!(lang(), Msg::AskAgainNoteFor, n = i.position + 1);
                view! {
                    <TextArea name="notes" input=format!("notes[{j}]") label=Msg::EarlierNote label_text=label
                        id=format!("f-note-{j}") value=i.review_note.clone().unwrap_or_default() rows=2/>
                }
            })
            .collect_view()
    };
    view! {
        <div class="actions record-actions">
            {(!d.row.revoked && !submitted).then(|| view! {
                <PostForm action=api::RevokeRequest::url() ids=vec![("request_id", rid.clone())] attr:class="inline-form">
                    <button type="submit" class="button secondary" id="revoke-link">{t(Msg::RevokeLink)}</button>
                </PostForm>
            })}
            {submitted.then(|| view! {
                <PostForm action=api::ReopenRequest::url() ids=vec![("request_id", rid.clone())] attr:class="inline-form">
                    <button type="submit" class="button secondary" id="reopen-request">{t(Msg::ReopenRequest)}</button>
                </PostForm>
            })}
        </div>
        {(submitted && d.row.open_items > 0).then(|| view! {
            <details class="ask-again" open=true>
                <summary class="button small">{t(Msg::AskAgain)}</summary>
                <PostForm action=api::AskAgain::url() ids=vec![("request_id", rid.clone())]
                    attr:class="form" attr:id="ask-again-form" attr:novalidate=true>
                    <input type="hidden" name="send_key" value=d.send_key.clone()/>
                    <Field name="deadline" label=Msg::RequestDeadline kind="date" value=d.default_deadline.to_string()/>
                    <p class="hint">{t(Msg::AskAgainNotesHint)}</p>
                    {note_fields()}
                    <Submit label=Msg::AskAgain id="ask-again"/>
                </PostForm>
            </details>
        })}
        {(!submitted).then(|| view! {
            <details class="enter-answers" open=refused_here(api::EnterAnswers::url(), &[("request_id", rid.clone())])>
                <summary class="button small secondary">{t(Msg::EnterAnswers)}</summary>
                <PostForm action=api::EnterAnswers::url() ids=vec![("request_id", rid.clone())]
                    attr:class="form" attr:id="enter-form" attr:novalidate=true>
                    {answer_fields()}
                    <Field name="name" input="answers[name]" label=Msg::FieldName required=false/>
                    <Field name="role" input="answers[role]" label=Msg::PortalRole required=false/>
                    <Field name="email" input="answers[email]" label=Msg::FieldEmail kind="email" required=false/>
                    <Field name="received_on" input="answers[received_on]" label=Msg::ReceivedOn kind="date"/>
                    <Field name="source" input="answers[source]" label=Msg::ReceivedSource required=false/>
                    <Submit label=Msg::Save id="save-answers"/>
                </PostForm>
            </details>
        })}
    }
}

#[component]
fn ItemBlock(request: String, i: ItemView, can_edit: bool, submitted: bool) -> impl IntoView {
    let n = i.position + 1;
    let reviewed = i.reviewed_at.map(|at| {
        msg!(
            lang(),
            Msg::ReviewedBy,
            name = i.reviewed_by.as_deref().unwrap_or(""),
            date = &date(at)
        )
    });
    view! {
        <section class="panel question" id=format!("q{n}")>
            <h3>{format!("{n}. ")}{i.question.clone()}</h3>
            <p class="muted">{t(Msg::WhyWeAsk)}": "{i.why.clone()}</p>
            {i.earlier_answer.clone().map(|a| view! { <p><strong>{t(Msg::EarlierAnswer)}": "</strong><span class="prewrap">{a}</span></p> })}
            {i.earlier_note.clone().map(|a| view! { <p><strong>{t(Msg::EarlierNote)}": "</strong><span class="prewrap">{a}</span></p> })}
            <h4>{t(Msg::AnswerLabel)}</h4>
            {match i.answer.clone() {
                Some(a) => view! { <p class="prewrap answer">{a}</p> }.into_any(),
                None => view! { <p class="muted answer">{t(Msg::NoAnswerYet)}</p> }.into_any(),
            }}
            {i.review.map(|r| view! {
                <p><span class=format!("review review-{}", r.as_str())>{t(r.label())}</span>
                   {reviewed.clone().map(|s| view! { " · "<span class="muted">{s}</span> })}</p>
            })}
            {i.review_note.clone().map(|n| view! { <p class="prewrap">{n}</p> })}
            {(can_edit && submitted).then(|| view! {
                <PostForm action=api::ReviewAnswer::url()
                    ids=vec![("request_id", request.clone()), ("position", i.position.to_string())]
                    attr:class="form review-form" attr:novalidate=true>
                    <Select name="review" input="review[review]" label=Msg::ReviewLabel scope=format!("q{n}")
                        options=choosing(choice_options(Review::ALL, Review::as_str, Review::label))
                        value=i.review.map(|r| r.as_str()).unwrap_or("")/>
                    <TextArea name="note" input="review[note]" label=Msg::ReviewNote value=i.review_note.clone().unwrap_or_default() rows=2 scope=format!("q{n}")/>
                    <Submit label=Msg::ReviewSave/>
                </PostForm>
            })}
        </section>
    }
}

/// The organisation's question set on the settings page: owners switch
/// further questions on, reword any question, add and remove their own.
#[component]
pub fn QuestionSetPanel() -> impl IntoView {
    let data = page_data((), |_| api::question_set_data());
    view! {
        <section class="panel" id="questions" aria-labelledby="questions-set-title">
            <h2 id="questions-set-title">{t(Msg::QuestionSetTitle)}</h2>
            <p class="muted">{t(Msg::QuestionSetLead)}</p>
            <Suspense fallback=|| ()>
                {move || Suspend::new(async move {
                    match data.await {
                        Ok(s) => view! { <QuestionSetEditor s/> }.into_any(),
                        Err(e) => view! { <LoadError e=e.clone()/> }.into_any(),
                    }
                })}
            </Suspense>
        </section>
    }
}

#[component]
fn QuestionSetEditor(s: QuestionSetView) -> impl IntoView {
    let can_edit = s.can_edit;
    // Made inside the form (called there): the fields see a refused post.
    let set_items = s.items.clone();
    let items = move || {
        set_items
        .iter()
        .enumerate()
        .map(|(n, item)| {
            let mine = item
                .wordings
                .iter()
                .find(|(l, _, _)| *l == lang())
                .cloned()
                .unwrap_or_default();
            let badge = if item.core {
                Msg::QuestionCore
            } else if item.own {
                Msg::QuestionOwn
            } else {
                Msg::QuestionEnabled
            };
            let wording = item
                .wordings
                .iter()
                .map(|(l, text, why)| {
                    let tkey = format!("items.{n}.{}_text", l.code());
                    let wkey = format!("items.{n}.{}_why", l.code());
                    let (tid, wid) = (format!("q-{n}-{}-text", l.code()), format!("q-{n}-{}-why", l.code()));
                    let lname = l.native_name();
                    view! {
                        <TextArea name=tkey label=Msg::QuestionText label_text=msg!(lang(), Msg::QuestionText, lang = lname)
                            id=tid input=format!("set[items][{n}][{}_text]", l.code()) rows=2 disabled=!can_edit value=text.clone()/>
                        <TextArea name=wkey label=Msg::QuestionWhy label_text=msg!(lang(), Msg::QuestionWhy, lang = lname)
                            id=wid input=format!("set[items][{n}][{}_why]", l.code()) rows=2 disabled=!can_edit value=why.clone()/>
                    }
                })
                .collect_view();
            view! {
                <div class="finding-block set-item" id=format!("set-{}", item.code)>
                    <input type="hidden" name=format!("set[items][{n}][code]") value=item.code.clone()/>
                    <p><strong>{format!("{}. ", n + 1)}{mine.1.clone()}</strong></p>
                    {if item.core {
                        view! { <p><span class="badge">{t(badge)}</span></p> }.into_any()
                    } else {
                        view! {
                            <Check name=format!("set[items][{n}][enabled]") value="true".to_owned() checked=item.enabled disabled=!can_edit>
                                " "{t(Msg::QuestionEnabled)}
                            </Check>
                        }.into_any()
                    }}
                    {(item.own && can_edit).then(|| view! {
                        <Check name=format!("set[items][{n}][remove]") value="true".to_owned()>
                            " "{t(Msg::QuestionRemove)}
                        </Check>
                    })}
                    <details open=refused_here(api::SaveQuestionSet::url(), &[])>
                        <summary class="button small secondary">{t(Msg::QuestionWording)}</summary>
                        {wording}
                    </details>
                </div>
            }
        })
        .collect_view()
    };
    let mut lang_options: Vec<(String, String)> = Lang::ALL
        .iter()
        .map(|l| (l.code().to_owned(), l.native_name().to_owned()))
        .collect();
    lang_options.sort_by_key(|(c, _)| *c != lang().code());
    view! {
        <p class="muted">{msg!(lang(), Msg::QuestionSetVersion, n = &s.version.to_string())}</p>
        <PostForm action=api::SaveQuestionSet::url() attr:class="form" attr:id="question-set-form" attr:novalidate=true>
            <input type="hidden" name="base_version" value=s.version.to_string()/>
            {items()}
            {can_edit.then(|| view! {
                <h3>{t(Msg::QuestionAdd)}</h3>
                <TextArea name="new_text" input="set[new_text]" label=Msg::QuestionAdd rows=2/>
                <TextArea name="new_why" input="set[new_why]" label=Msg::WhyWeAsk rows=2/>
                <Select name="new_lang" input="set[new_lang]" label=Msg::QuestionAddLang options=lang_options.clone()/>
                <Submit label=Msg::QuestionSetSave id="save-question-set"/>
            })}
        </PostForm>
    }
}

/// A choice that starts empty ("Choose…"): a review or decision nobody
/// made must not be recorded by one click on save.
pub(crate) fn choosing(mut options: Vec<(String, String)>) -> Vec<(String, String)> {
    options.insert(0, (String::new(), t(Msg::ChooseOne).to_owned()));
    options
}
