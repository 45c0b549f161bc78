//! The vendor's answer page behind a personal link: `/answer/{token}`.
//!
//! No account and no JavaScript: a plain HTML form that posts back to the
//! same address. Opening the link changes nothing (mail scanners open
//! links); only a deliberate POST saves. A wrong, expired or withdrawn link
//! gets the same page, with the same status, whatever the reason. The page
//! never sends a referrer, is never cached and is rate limited per client.

use crate::upload::{self, Problem};
use crate::{middleware, AppState};
use aivet_domain::questions::{AnswerForm, ANSWER_FIELDS};
use aivet_domain::{msg, Lang, Msg};
use aivet_services::ServiceError;
use aivet_store::questions::PortalView;
use aivet_web::ssr::RequestCtx;
use axum::body::Body;
use axum::extract::{Path, Query, State};
use axum::http::{header, HeaderValue, Request, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Extension;
use serde::Serialize;
use std::collections::HashMap;
use std::sync::{Arc, OnceLock};

const TEMPLATE: &str = include_str!("../../../templates/portal/answer.html");

fn env() -> &'static minijinja::Environment<'static> {
    static ENV: OnceLock<minijinja::Environment<'static>> = OnceLock::new();
    ENV.get_or_init(|| {
        let mut env = minijinja::Environment::new();
        env.set_undefined_behavior(minijinja::UndefinedBehavior::Strict);
        env.add_template("answer.html", TEMPLATE)
            .expect("the portal template parses");
        env
    })
}

#[derive(Serialize)]
struct LangLink {
    code: &'static str,
    name: &'static str,
    current: bool,
}

#[derive(Serialize)]
struct ErrorLink {
    href: String,
    text: String,
}

#[derive(Serialize)]
struct ItemCtx<'a> {
    i: usize,
    n: usize,
    question: String,
    why: String,
    earlier: Option<String>,
    note: Option<String>,
    answer: String,
    error: Option<&'a str>,
}

#[derive(Serialize)]
struct FieldCtx<'a> {
    name: &'static str,
    label: &'static str,
    required: bool,
    kind: &'static str,
    autocomplete: &'static str,
    value: String,
    error: Option<&'a str>,
}

#[derive(Serialize, Default)]
struct Responder {
    name: String,
    role: String,
    email: String,
}

/// What the form showed or the vendor typed.
#[derive(Default)]
struct Typed {
    answers: Vec<String>,
    responder: Responder,
}

impl Typed {
    fn from_view(v: &PortalView) -> Typed {
        Typed {
            answers: v
                .items
                .iter()
                .map(|i| i.answer.clone().unwrap_or_default())
                .collect(),
            responder: Responder {
                name: v.request.responder_name.clone().unwrap_or_default(),
                role: v.request.responder_role.clone().unwrap_or_default(),
                email: v.request.responder_email.clone().unwrap_or_default(),
            },
        }
    }
}

fn texts(lang: Lang) -> HashMap<&'static str, &'static str> {
    HashMap::from([
        ("language", Msg::Language.text(lang)),
        ("invalid", Msg::PortalInvalid.text(lang)),
        ("check_fields", Msg::PortalCheckFields.text(lang)),
        ("required", Msg::FieldRequiredMark.text(lang)),
        ("receipt_no", Msg::PortalReceiptNo.text(lang)),
        ("responder", Msg::PortalResponder.text(lang)),
        ("why", Msg::WhyWeAsk.text(lang)),
        ("earlier", Msg::EarlierAnswer.text(lang)),
        ("earlier_note", Msg::EarlierNote.text(lang)),
        ("save_draft", Msg::PortalSaveDraft.text(lang)),
        ("submit", Msg::PortalSubmit.text(lang)),
        ("attachments", Msg::AttachmentsTitle.text(lang)),
        ("attach", Msg::AttachFile.text(lang)),
        ("attach_hint", Msg::AttachFileHint.text(lang)),
    ])
}

fn langs(lang: Lang) -> Vec<LangLink> {
    Lang::ALL
        .iter()
        .map(|l| LangLink {
            code: l.code(),
            name: l.native_name(),
            current: *l == lang,
        })
        .collect()
}

/// Adds the portal's own headers to a response.
fn finish(status: StatusCode, html: String) -> Response {
    let mut res = (status, html).into_response();
    let h = res.headers_mut();
    h.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/html; charset=utf-8"),
    );
    h.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("no-referrer"),
    );
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    h.insert(
        "x-robots-tag",
        HeaderValue::from_static("noindex, nofollow"),
    );
    res
}

/// The one page for every link that does not work.
fn invalid(lang: Lang, status: StatusCode) -> Response {
    let ctx = minijinja::context! {
        lang => lang.code(),
        langs => langs(lang),
        t => texts(lang),
        title => Msg::PortalInvalidTitle.text(lang),
        state => "invalid",
    };
    finish(status, render(ctx))
}

fn render(ctx: minijinja::Value) -> String {
    env()
        .get_template("answer.html")
        .and_then(|t| t.render(ctx))
        .expect("the portal template renders with its context")
}

/// Field errors as the page shows them: each field's message in `lang`.
fn field_texts(errors: &[(&'static str, Msg)], lang: Lang) -> Vec<(&'static str, String)> {
    errors
        .iter()
        .map(|(f, m)| (*f, m.text(lang).to_owned()))
        .collect()
}

fn page(
    lang: Lang,
    v: &PortalView,
    typed: Typed,
    errors: &[(&'static str, String)],
    notice: Option<String>,
    problem: Option<String>,
    status: StatusCode,
) -> Response {
    let err = |name: &str| {
        errors
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, m)| m.as_str())
    };
    let items: Vec<ItemCtx> = v
        .items
        .iter()
        .enumerate()
        .map(|(i, item)| ItemCtx {
            i,
            n: i + 1,
            question: item.question.clone(),
            why: item.why.clone(),
            earlier: item.earlier_answer.clone(),
            note: item.earlier_note.clone(),
            answer: typed.answers.get(i).cloned().unwrap_or_default(),
            error: ANSWER_FIELDS.get(i).and_then(|f| err(f)),
        })
        .collect();
    let r = &typed.responder;
    let responder_fields = vec![
        FieldCtx {
            name: "name",
            required: true,
            label: Msg::FieldName.text(lang),
            kind: "text",
            autocomplete: "name",
            value: r.name.clone(),
            error: err("name"),
        },
        FieldCtx {
            name: "role",
            required: false,
            label: Msg::PortalRole.text(lang),
            kind: "text",
            autocomplete: "organization-title",
            value: r.role.clone(),
            error: err("role"),
        },
        FieldCtx {
            name: "email",
            required: true,
            label: Msg::FieldEmail.text(lang),
            kind: "email",
            autocomplete: "email",
            value: r.email.clone(),
            error: err("email"),
        },
    ];
    // At the top, one link to each field that needs attention: on a phone
    // the first may be far down the page.
    let mut error_links: Vec<ErrorLink> = items
        .iter()
        .filter_map(|i| {
            i.error.map(|e| ErrorLink {
                href: format!("#answer{}", i.i),
                text: format!("{}: {e}", msg!(lang, Msg::PortalQuestion, n = i.n)),
            })
        })
        .collect();
    error_links.extend(responder_fields.iter().filter_map(|f| {
        f.error.map(|e| ErrorLink {
            href: format!("#{}", f.name),
            text: format!("{}: {e}", f.label),
        })
    }));
    if let Some(e) = err("attachment") {
        error_links.push(ErrorLink {
            href: "#attachment".into(),
            text: format!("{}: {e}", Msg::AttachFile.text(lang)),
        });
    }
    let org = v.org_name.as_str();
    let submitted = v.request.submitted_at;
    // The vendor reads dates in its own language, on the asking
    // organisation's clock (the deadline is a day there).
    let fmt = aivet_domain::Fmt::new(lang, v.zone);
    let ctx = minijinja::context! {
        lang => lang.code(),
        langs => langs(lang),
        t => texts(lang),
        title => msg!(lang, Msg::PortalTitle, org = org),
        state => if submitted.is_some() { "receipt" } else { "form" },
        intro => msg!(lang, Msg::PortalIntro, org = org, service = &lang.list(&v.services), deadline = &fmt.date(v.request.deadline)),
        receipt => submitted.map(|at| msg!(lang, Msg::PortalReceipt, org = org, date = &fmt.date_time_zone(at))),
        receipt_no => v.request.id.0.simple().to_string()[..12].to_uppercase(),
        items => items,
        responder => r,
        responder_fields => responder_fields,
        has_errors => !errors.is_empty(),
        error_links => error_links,
        notice => notice,
        attachments => v.attachments.iter().map(|a| format!("{} ({} KB)", a.filename, (a.size + 1023) / 1024)).collect::<Vec<_>>(),
        attachment_error => err("attachment"),
        problem => problem,
    };
    finish(status, render(ctx))
}

/// The page's language: the switch (`?lang=`, or the form's field), else
/// the language the request was sent in.
fn chosen_lang(requested: Option<&str>, v: Option<&PortalView>, fallback: Lang) -> Lang {
    requested
        .and_then(|l| l.parse::<Lang>().ok())
        .or(v.map(|v| v.request.lang))
        .unwrap_or(fallback)
}

/// `GET` (and `HEAD`): shows the questions. Changes nothing.
pub async fn show(
    Path(token): Path<String>,
    Query(q): Query<HashMap<String, String>>,
    Extension(rc): Extension<Arc<RequestCtx>>,
) -> Response {
    if !rc.services.answer_link_allowed(&rc.client) {
        return invalid(
            chosen_lang(q.get("lang").map(String::as_str), None, rc.lang),
            StatusCode::TOO_MANY_REQUESTS,
        );
    }
    match rc.services.portal_view(&token).await {
        Ok(Some(v)) => {
            let lang = chosen_lang(q.get("lang").map(String::as_str), Some(&v), rc.lang);
            let typed = Typed::from_view(&v);
            page(lang, &v, typed, &[], None, None, StatusCode::OK)
        }
        Ok(None) => invalid(
            chosen_lang(q.get("lang").map(String::as_str), None, rc.lang),
            StatusCode::NOT_FOUND,
        ),
        Err(e) => {
            tracing::error!(request_id = %rc.request_id, error = ?e, "answer page failed");
            middleware::internal_error(&rc.request_id, rc.lang)
        }
    }
}

/// The limits of an upload, from the configuration.
pub fn upload_limits(state: &AppState) -> upload::Limits {
    upload::Limits {
        request: state.config.max_upload_bytes,
        file: aivet_domain::attachments::MAX_BYTES,
    }
}

/// `POST`: saves a draft (`action=draft`) or submits (`action=submit`).
/// On a mistake the page comes back with everything typed and each
/// problem next to its field; nothing is saved. A document over the limit
/// is named at its field, with every answer still as typed.
pub async fn save(
    Path(token): Path<String>,
    State(state): State<AppState>,
    Extension(rc): Extension<Arc<RequestCtx>>,
    req: Request<Body>,
) -> Response {
    let form = upload::read_form(req, upload_limits(&state)).await;
    let lang_field = form.get("lang");
    if !rc.services.answer_link_allowed(&rc.client) {
        return invalid(
            chosen_lang(Some(&lang_field), None, rc.lang),
            StatusCode::TOO_MANY_REQUESTS,
        );
    }
    let view = match rc.services.portal_view(&token).await {
        Ok(Some(v)) => v,
        Ok(None) => {
            return invalid(
                chosen_lang(Some(&lang_field), None, rc.lang),
                StatusCode::NOT_FOUND,
            )
        }
        Err(e) => {
            tracing::error!(request_id = %rc.request_id, error = ?e, "answer page failed");
            return middleware::internal_error(&rc.request_id, rc.lang);
        }
    };
    let lang = chosen_lang(Some(&lang_field), Some(&view), rc.lang);
    let answers = AnswerForm {
        answers: (0..view.items.len())
            .map(|i| form.get(&format!("answer{i}")))
            .collect(),
        name: form.get("name"),
        role: form.get("role"),
        email: form.get("email"),
        ..AnswerForm::default()
    };
    let typed = Typed {
        answers: answers.answers.clone(),
        responder: Responder {
            name: answers.name.clone(),
            role: answers.role.clone(),
            email: answers.email.clone(),
        },
    };
    if let Some(problem) = &form.problem {
        let limit = |bytes| aivet_domain::attachments::size_text(bytes, lang);
        let (errors, top, status) = match problem {
            Problem::FileTooLarge(name) | Problem::RequestTooLarge(Some(name)) => (
                vec![(
                    upload::FILE_FIELD,
                    msg!(
                        lang,
                        Msg::ErrFileTooLargeNamed,
                        name = &aivet_domain::attachments::clean_filename(name),
                        limit = &limit(aivet_domain::attachments::MAX_BYTES),
                    ),
                )],
                None,
                StatusCode::PAYLOAD_TOO_LARGE,
            ),
            Problem::RequestTooLarge(None) => (
                Vec::new(),
                Some(msg!(
                    lang,
                    Msg::ErrTooLarge,
                    limit = &limit(state.config.max_upload_bytes)
                )),
                StatusCode::PAYLOAD_TOO_LARGE,
            ),
            Problem::Unreadable => (
                Vec::new(),
                Some(Msg::ErrFormUnreadable.text(lang).to_owned()),
                StatusCode::BAD_REQUEST,
            ),
            // Refused, not saved with replacement characters: each such
            // field says so, with what arrived in it.
            Problem::NotText(names) => {
                let errors: Vec<(&'static str, String)> = ANSWER_FIELDS
                    .iter()
                    .chain(["name", "role", "email"].iter())
                    .filter(|f| names.iter().any(|n| n == *f))
                    .map(|f| (*f, Msg::ErrNotText.text(lang).to_owned()))
                    .collect();
                let top = errors
                    .is_empty()
                    .then(|| Msg::ErrNotText.text(lang).to_owned());
                (errors, top, StatusCode::UNPROCESSABLE_ENTITY)
            }
        };
        return page(lang, &view, typed, &errors, None, top, status);
    }
    let submit = form.get("action") == "submit";
    // A document is kept even when the answers still need work: browsers
    // cannot keep a chosen file across a page with errors.
    let mut attached = None;
    if let Some(file) = form.file {
        match rc
            .services
            .portal_attach(&token, &view, &file.name, file.bytes)
            .await
        {
            Ok(info) => attached = Some(info.filename),
            Err(ServiceError::Invalid(errors)) => {
                return page(
                    lang,
                    &view,
                    typed,
                    &field_texts(&errors, lang),
                    None,
                    None,
                    StatusCode::UNPROCESSABLE_ENTITY,
                )
            }
            Err(ServiceError::Refused(m)) => {
                return page(
                    lang,
                    &view,
                    Typed::from_view(&view),
                    &[],
                    None,
                    Some(m.text(lang).to_owned()),
                    StatusCode::CONFLICT,
                )
            }
            Err(ServiceError::NotFound) => return invalid(lang, StatusCode::NOT_FOUND),
            Err(e) => {
                tracing::error!(request_id = %rc.request_id, error = ?e, "attaching a file failed");
                return middleware::internal_error(&rc.request_id, rc.lang);
            }
        }
    }
    let view = match attached {
        Some(_) => match rc.services.portal_view(&token).await {
            Ok(Some(v)) => v,
            _ => view,
        },
        None => view,
    };
    let notice_attached = attached.map(|name| msg!(lang, Msg::PortalAttached, name = &name));
    match rc
        .services
        .portal_save(&token, &view, &answers, submit)
        .await
    {
        Ok(saved) => {
            let notice = [
                (!submit).then(|| Msg::PortalSaved.text(lang).to_owned()),
                notice_attached,
            ]
            .into_iter()
            .flatten()
            .collect::<Vec<_>>()
            .join(" ");
            let notice = (!notice.is_empty()).then_some(notice);
            page(
                lang,
                &saved,
                Typed::from_view(&saved),
                &[],
                notice,
                None,
                StatusCode::OK,
            )
        }
        Err(ServiceError::Invalid(errors)) => page(
            lang,
            &view,
            typed,
            &field_texts(&errors, lang),
            notice_attached,
            None,
            StatusCode::UNPROCESSABLE_ENTITY,
        ),
        Err(ServiceError::Refused(m)) => page(
            lang,
            &view,
            Typed::from_view(&view),
            &[],
            None,
            Some(m.text(lang).to_owned()),
            StatusCode::CONFLICT,
        ),
        Err(ServiceError::NotFound) => invalid(lang, StatusCode::NOT_FOUND),
        Err(e) => {
            tracing::error!(request_id = %rc.request_id, error = ?e, "saving answers failed");
            middleware::internal_error(&rc.request_id, rc.lang)
        }
    }
}
