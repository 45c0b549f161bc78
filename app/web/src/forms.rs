//! Forms and what a refused one brings back.
//!
//! Every form posts to a server function ([`PostForm`]). With the browser
//! bundle a refusal stays on the page (see `app/frontend`). Without it the
//! browser posts the form itself; a refusal then comes back as the page the
//! form was on, rendered again by the server with a [`Refused`] in its
//! context: the form that was posted (the same server function and the same
//! hidden ids — pages repeat forms per record) shows the message on top and
//! each field's message next to it, and every control shows what was typed
//! (never a password). What was typed goes only into that page: never into
//! an address or a log.
//!
//! Also here (server side): reading a posted form strictly — text that is
//! not UTF-8 is refused, not changed — and naming the field when a server
//! function's arguments do not decode.

use crate::error::AppError;
use crate::i18n::{lang, t};
use aivet_domain::Msg;
use leptos::prelude::*;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

/// A refused plain form post, provided to the page rendered in answer.
#[derive(Clone, Debug)]
pub struct Refused {
    /// The server function's address (`/api/save_vendor`).
    pub action: String,
    /// The fields as posted, in order.
    pub fields: Vec<(String, String)>,
    pub error: AppError,
    /// Set once a form on the page has shown the error.
    pub shown: Arc<AtomicBool>,
    /// No form on the page is the one that was posted (it is gone, or the
    /// page changed): the page shows the error on top instead.
    pub on_top: bool,
}

impl Refused {
    pub fn new(action: String, fields: Vec<(String, String)>, error: AppError) -> Refused {
        Refused {
            action,
            fields,
            error,
            shown: Arc::new(AtomicBool::new(false)),
            on_top: false,
        }
    }

    fn value(&self, name: &str) -> Option<&str> {
        self.fields
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    /// Whether a form with these actions and these hidden ids is the one
    /// posted.
    fn is_form(&self, actions: &[&str], ids: &[(&'static str, String)]) -> bool {
        !self.on_top
            && actions.contains(&self.action.as_str())
            && ids
                .iter()
                .all(|(name, value)| self.value(name).unwrap_or("") == value)
    }
}

struct Posted {
    refused: Refused,
    /// The error keys that a field of the form shows.
    placed: Mutex<Vec<String>>,
}

/// What the controls of one form show: inside the form that was refused,
/// what was posted and the messages; everywhere else nothing.
#[derive(Clone, Default)]
pub struct FormState(Option<Arc<Posted>>);

impl FormState {
    /// What was posted under `input`, inside the refused form.
    pub fn value(&self, input: &str) -> Option<String> {
        self.0
            .as_ref()
            .and_then(|p| p.refused.value(input).map(str::to_owned))
    }

    /// Inside the refused form, whether the box `input` = `value` was ticked
    /// (a box that is not ticked is not posted at all).
    pub fn checked(&self, input: &str, value: &str) -> Option<bool> {
        self.0.as_ref().map(|p| {
            p.refused
                .fields
                .iter()
                .any(|(k, v)| k == input && v == value)
        })
    }

    /// The message for the field with error key `key` (or posted as
    /// `input`), which the caller then shows next to it.
    pub fn error(&self, key: &str, input: &str) -> Option<Msg> {
        let p = self.0.as_ref()?;
        let (k, m) = p
            .refused
            .error
            .fields
            .iter()
            .find(|(f, _)| f == key || f == input)?;
        p.placed.lock().expect("not poisoned").push(k.clone());
        Some(*m)
    }
}

/// The state of the form around the caller. A control must be made inside
/// its [`PostForm`] (in its children, not beforehand) to see it: a page
/// answering a refused post says so loudly in debug builds.
pub fn form_state() -> FormState {
    let state = use_context::<FormState>();
    debug_assert!(
        state.is_some() || use_context::<Refused>().is_none(),
        "a form control was made outside its PostForm: it cannot show what was typed"
    );
    state.unwrap_or_default()
}

/// A form that posts to the server function at `action`
/// (`api::SaveVendor::url()`). `ids` are its hidden fields that name the
/// record it belongs to: they are written into the form and tell it apart
/// from the same form of another record on the page. `other_actions` are
/// the server functions its buttons post to instead (`formaction`).
#[component]
pub fn PostForm(
    action: &'static str,
    #[prop(optional)] ids: Vec<(&'static str, String)>,
    #[prop(optional)] other_actions: Vec<&'static str>,
    children: Children,
) -> impl IntoView {
    let hidden = move |ids: Vec<(&'static str, String)>| {
        ids.into_iter()
            .map(|(name, value)| view! { <input type="hidden" name=name value=value/> })
            .collect_view()
    };
    let Some(refused) = use_context::<Refused>() else {
        // Nothing was refused (every page but the answer to a refused
        // post): no control has anything to show, so the form needs no
        // state of its own, nor the owner that would scope it. A board of
        // 50 follow-ups has 150 forms.
        return view! {
            <form action=action method="post">
                {hidden(ids)}
                {children()}
            </form>
        }
        .into_any();
    };
    let mut actions = other_actions;
    actions.push(action);
    let refused = Some(refused).filter(|r| r.is_form(&actions, &ids));
    let state = FormState(refused.map(|refused| {
        refused.shown.store(true, Ordering::Relaxed);
        Arc::new(Posted {
            refused,
            placed: Mutex::new(Vec::new()),
        })
    }));
    // The state reaches this form's controls only, not the forms after it.
    let owner = Owner::new();
    let controls = owner.with(|| {
        provide_context(state.clone());
        children()
    });
    let controls = leptos::tachys::reactive_graph::OwnedView::new_with_owner(controls, owner);
    // After the controls: they have taken their messages by now.
    let banner = state.0.as_ref().map(|p| {
        let placed = p.placed.lock().expect("not poisoned").clone();
        view! { <ErrorBanner error=p.refused.error.clone() placed/> }
    });
    view! {
        <form action=action method="post">
            {banner.into_any()}
            {hidden(ids)}
            {controls}
        </form>
    }
    .into_any()
}

/// The error of a refused form: its message, and the messages of fields that
/// no control on the page showed (named by their key, as nothing marks them).
/// Marked `data-added` like the browser bundle's own, which clears it on the
/// next try.
#[component]
fn ErrorBanner(error: AppError, placed: Vec<String>) -> impl IntoView {
    let l = lang();
    let unplaced: Vec<(String, Msg)> = error
        .fields
        .iter()
        .filter(|(k, _)| !placed.contains(k))
        .cloned()
        .collect();
    // "Correct the marked fields" only when a field is marked.
    let text = if error.msg == Msg::ErrFormInvalid && placed.is_empty() {
        t(Msg::ErrFormListed).to_owned()
    } else {
        error.text(l)
    };
    let list = (!unplaced.is_empty()).then(|| {
        view! {
            <ul>
                {unplaced
                    .into_iter()
                    .map(|(k, m)| view! { <li><code>{k}</code>": "{m.text(l)}</li> })
                    .collect_view()}
            </ul>
        }
    });
    view! {
        <div class="alert error" role="alert" id="post-error" data-added="">
            <p>{text}</p>
            {list}
        </div>
    }
    .into_any()
}

/// Whether the form posting to `action` with these hidden ids is the one a
/// refused post came from. A disclosure (`<details>`) around it opens then,
/// so that without the bundle its messages and what was typed are in sight.
pub fn refused_here(action: &str, ids: &[(&'static str, String)]) -> bool {
    use_context::<Refused>().is_some_and(|r| r.is_form(&[action], ids))
}

/// The error of a refused form that is not on the page it came from, shown
/// on top of the page (see [`Refused::on_top`]).
#[component]
pub fn PageError() -> impl IntoView {
    use_context::<Refused>()
        .filter(|r| r.on_top)
        .map(|r| view! { <ErrorBanner error=r.error placed=Vec::new()/> })
        .into_any()
}

/// What a control shows and says: its value (what was posted, else
/// `value`), and its message with the attributes that tie it to the control.
pub struct ControlState {
    pub value: Option<String>,
    pub error: Option<Msg>,
}

impl ControlState {
    /// For the control posted as `input` with error key `key`. Passwords are
    /// never shown again.
    pub fn of(key: &str, input: &str, value: Option<String>, password: bool) -> ControlState {
        let st = form_state();
        let posted = if password { None } else { st.value(input) };
        ControlState {
            value: posted.or(value),
            error: st.error(key, input),
        }
    }
}

/// A checkbox (or radio button) that keeps whether it was ticked.
#[component]
pub fn Check(
    name: String,
    value: String,
    #[prop(optional)] checked: bool,
    #[prop(default = "checkbox")] kind: &'static str,
    #[prop(optional)] disabled: bool,
    children: Children,
) -> impl IntoView {
    let checked = form_state().checked(&name, &value).unwrap_or(checked);
    view! {
        <label class="check">
            <input type=kind name=name value=value checked=checked disabled=disabled/>
            {children()}
        </label>
    }
}

#[cfg(feature = "ssr")]
pub use server::*;

#[cfg(feature = "ssr")]
mod server {
    use super::*;

    /// A posted URL-encoded form, read strictly: the fields in order, and
    /// the names of those whose text was not UTF-8 (their values here have
    /// U+FFFD in place of the bad bytes, for showing them again only).
    pub struct DecodedForm {
        pub fields: Vec<(String, String)>,
        pub not_text: Vec<String>,
    }

    /// Reads `application/x-www-form-urlencoded` bytes. Unlike the usual
    /// readers it does not replace bytes that are not UTF-8 silently: it
    /// says which fields had them.
    pub fn decode_urlencoded(body: &[u8]) -> DecodedForm {
        let mut out = DecodedForm {
            fields: Vec::new(),
            not_text: Vec::new(),
        };
        for pair in body.split(|b| *b == b'&').filter(|p| !p.is_empty()) {
            let (name, value) = match pair.iter().position(|b| *b == b'=') {
                Some(i) => (&pair[..i], &pair[i + 1..]),
                None => (pair, &[][..]),
            };
            let (name, name_ok) = text(&unescape(name));
            let (value, value_ok) = text(&unescape(value));
            if !(name_ok && value_ok) {
                out.not_text.push(name.clone());
            }
            out.fields.push((name, value));
        }
        out
    }

    fn text(bytes: &[u8]) -> (String, bool) {
        match std::str::from_utf8(bytes) {
            Ok(s) => (s.to_owned(), true),
            Err(_) => (String::from_utf8_lossy(bytes).into_owned(), false),
        }
    }

    /// `+` to a space and `%XX` to its byte.
    fn unescape(s: &[u8]) -> Vec<u8> {
        let hex = |b: u8| (b as char).to_digit(16).map(|d| d as u8);
        let mut out = Vec::with_capacity(s.len());
        let mut i = 0;
        while i < s.len() {
            match s[i] {
                b'+' => {
                    out.push(b' ');
                    i += 1;
                }
                b'%' => match (
                    s.get(i + 1).copied().and_then(hex),
                    s.get(i + 2).copied().and_then(hex),
                ) {
                    (Some(h), Some(l)) => {
                        out.push(h * 16 + l);
                        i += 3;
                    }
                    _ => {
                        out.push(b'%');
                        i += 1;
                    }
                },
                b => {
                    out.push(b);
                    i += 1;
                }
            }
        }
        out
    }

    /// Why a server function's arguments do not decode.
    #[derive(Debug, PartialEq, Eq)]
    pub enum ArgsProblem {
        /// A field it needs was not sent (its form name).
        Missing(String),
        /// A field holds something of the wrong kind (its form name).
        Unreadable(String),
        /// Neither can be told.
        Unknown,
    }

    /// Checks the arguments of one server function, as its decoder reads them.
    pub type ArgsCheck = fn(&[u8]) -> Result<(), ArgsProblem>;

    /// Decodes `body` as the arguments `T` of a server function exactly as
    /// the function itself will (serde_qs, depth 5, not strict), and says
    /// which field fails.
    pub fn args_check<T: serde::de::DeserializeOwned>(body: &[u8]) -> Result<(), ArgsProblem> {
        let config = serde_qs::Config::new(5, false);
        let de =
            serde_qs::Deserializer::with_config(&config, body).map_err(|_| ArgsProblem::Unknown)?;
        match serde_path_to_error::deserialize::<_, T>(de) {
            Ok(_) => Ok(()),
            Err(e) => {
                let mut segments: Vec<String> = e
                    .path()
                    .iter()
                    .filter_map(|s| match s {
                        serde_path_to_error::Segment::Map { key } => Some(key.clone()),
                        serde_path_to_error::Segment::Seq { index } => Some(index.to_string()),
                        _ => None,
                    })
                    .collect();
                let message = e.inner().to_string();
                let missing = message
                    .strip_prefix("missing field `")
                    .and_then(|rest| rest.split('`').next());
                if let Some(field) = missing {
                    segments.push(field.to_owned());
                }
                let Some((first, rest)) = segments.split_first() else {
                    return Err(ArgsProblem::Unknown);
                };
                let name = rest
                    .iter()
                    .fold(first.clone(), |acc, s| format!("{acc}[{s}]"));
                Err(if missing.is_some() {
                    ArgsProblem::Missing(name)
                } else {
                    ArgsProblem::Unreadable(name)
                })
            }
        }
    }

    /// The refusal of a posted form whose fields cannot be used as they
    /// came, before its server function runs: text that is not UTF-8, a
    /// field missing or of the wrong kind. `None` when the form is fine.
    pub fn refusal(path: &str, body: &[u8], form: &DecodedForm) -> Option<AppError> {
        if let Some(name) = form.not_text.first() {
            let mut e = AppError::new(Msg::ErrFormNotText);
            e.args = vec![("field".to_owned(), name.clone())];
            e.fields = form
                .not_text
                .iter()
                .map(|n| (n.clone(), Msg::ErrNotText))
                .collect();
            return Some(e);
        }
        let check = crate::api::args_check(path)?;
        let (msg, field) = match check(body).err()? {
            ArgsProblem::Missing(f) => (Msg::ErrFormIncomplete, Some((f, Msg::ErrFieldMissing))),
            ArgsProblem::Unreadable(f) => {
                (Msg::ErrFormWrongValue, Some((f, Msg::ErrFieldUnreadable)))
            }
            ArgsProblem::Unknown => (Msg::ErrFormOutdated, None),
        };
        let mut e = AppError::new(msg);
        if let Some((name, m)) = field {
            e.args = vec![("field".to_owned(), name.clone())];
            e.fields = vec![(name, m)];
        }
        Some(e)
    }

    /// Where a server function's error is kept for the request's handler,
    /// which answers a plain form post with the page again.
    #[derive(Clone, Default)]
    pub struct ErrorSlot(Arc<Mutex<Option<AppError>>>);

    impl ErrorSlot {
        pub fn put(&self, e: &AppError) {
            *self.0.lock().expect("not poisoned") = Some(e.clone());
        }
        pub fn take(&self) -> Option<AppError> {
            self.0.lock().expect("not poisoned").take()
        }
    }

    #[cfg(test)]
    mod tests {
        use super::*;

        #[test]
        fn bytes_that_are_not_utf8_are_named_not_replaced() {
            let f = decode_urlencoded(b"a=x%20y+z&form%5Bname%5D=%FF%FE&c=%C3%A6&d");
            assert_eq!(
                f.fields,
                vec![
                    ("a".to_owned(), "x y z".to_owned()),
                    ("form[name]".to_owned(), "\u{fffd}\u{fffd}".to_owned()),
                    ("c".to_owned(), "æ".to_owned()),
                    ("d".to_owned(), String::new()),
                ]
            );
            assert_eq!(f.not_text, vec!["form[name]".to_owned()]);
            let raw = decode_urlencoded(b"org_name=\xff");
            assert_eq!(raw.not_text, vec!["org_name".to_owned()]);
        }

        #[derive(serde::Deserialize)]
        #[allow(dead_code)]
        struct Args {
            id: String,
            position: i32,
            form: Inner,
        }
        #[derive(serde::Deserialize, Default)]
        #[serde(default)]
        #[allow(dead_code)]
        struct Inner {
            name: String,
            primary: bool,
            list: Vec<i32>,
        }

        #[test]
        fn the_failing_field_is_named() {
            let check = args_check::<Args>;
            assert_eq!(check(b"id=1&position=2&form[name]=x"), Ok(()));
            assert_eq!(
                check(b"position=2&form[name]=x"),
                Err(ArgsProblem::Missing("id".into()))
            );
            assert_eq!(
                check(b"id=1&position=two&form[name]=x"),
                Err(ArgsProblem::Unreadable("position".into()))
            );
            assert_eq!(
                check(b"id=1&position=2&form[primary]=yes"),
                Err(ArgsProblem::Unreadable("form[primary]".into()))
            );
            assert_eq!(
                check(b"id=1&position=2&form[list][0]=x"),
                Err(ArgsProblem::Unreadable("form[list][0]".into()))
            );
        }
    }
}
