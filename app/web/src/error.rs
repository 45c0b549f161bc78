//! The error every server function returns: a message key (shown in the
//! user's language), errors per form field, and for our own failures the
//! request id the user can quote.

use aivet_domain::Msg;
use serde::{Deserialize, Serialize};
use server_fn::codec::JsonEncoding;
use server_fn::error::{FromServerFnError, ServerFnErrorErr};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct AppError {
    pub msg: Msg,
    #[serde(default)]
    pub fields: Vec<(String, Msg)>,
    #[serde(default)]
    pub request_id: Option<String>,
    /// Values for the message's placeholders (e.g. the names of the records
    /// that block a deletion).
    #[serde(default)]
    pub args: Vec<(String, String)>,
    /// What the browser shows, filled in as the error is sent (see `ser`).
    #[serde(flatten, default)]
    pub shown: Option<Box<Shown>>,
}

/// The message and each field's message in the request's language.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Shown {
    pub text: String,
    pub field_texts: Vec<(String, String)>,
}

impl AppError {
    pub fn new(msg: Msg) -> AppError {
        AppError {
            msg,
            fields: Vec::new(),
            request_id: None,
            args: Vec::new(),
            shown: None,
        }
    }

    /// The message in `lang` with its placeholders filled.
    pub fn text(&self, lang: aivet_domain::Lang) -> String {
        let mut args: Vec<(&str, &str)> = self
            .args
            .iter()
            .map(|(k, v)| (k.as_str(), v.as_str()))
            .collect();
        args.push(("id", self.request_id.as_deref().unwrap_or("-")));
        self.msg.fill(lang, &args)
    }

    /// The message for one form field, if it has one.
    pub fn field(&self, name: &str) -> Option<Msg> {
        self.fields.iter().find(|(f, _)| f == name).map(|(_, m)| *m)
    }
}

impl std::fmt::Display for AppError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.msg.key())
    }
}

impl FromServerFnError for AppError {
    type Encoder = JsonEncoding;

    fn from_server_fn_error(value: ServerFnErrorErr) -> Self {
        // Arguments that do not decode are the client's mistake: 422, not a
        // server error. The server checks them first and names the field
        // (`forms::refusal`); what still fails here cannot be told apart.
        let bad_input = matches!(
            value,
            ServerFnErrorErr::Args(_) | ServerFnErrorErr::Deserialization(_)
        );
        #[cfg(feature = "ssr")]
        crate::ssr::set_error_status(if bad_input {
            http::StatusCode::UNPROCESSABLE_ENTITY
        } else {
            http::StatusCode::INTERNAL_SERVER_ERROR
        });
        AppError::new(if bad_input {
            Msg::ErrFormOutdated
        } else {
            Msg::ErrGeneric
        })
    }

    /// Sends the texts along, in the language of the request, so that the
    /// browser bundle carries no UI text; and keeps the error for the
    /// handler, which answers a plain form post with its page again.
    #[cfg(feature = "ssr")]
    fn ser(&self) -> server_fn::Bytes {
        if let Some(slot) = leptos::prelude::use_context::<crate::forms::ErrorSlot>() {
            slot.put(self);
        }
        let lang = leptos::prelude::use_context::<std::sync::Arc<crate::ssr::RequestCtx>>()
            .map(|c| c.lang)
            .unwrap_or_default();
        self.to_json(lang).into()
    }
}

#[cfg(feature = "ssr")]
impl AppError {
    /// The error as the browser bundle reads it, with its texts in `lang`.
    pub fn to_json(&self, lang: aivet_domain::Lang) -> Vec<u8> {
        let mut shown = self.clone();
        shown.shown = Some(Box::new(Shown {
            text: self.text(lang),
            field_texts: self
                .fields
                .iter()
                .map(|(f, m)| (f.clone(), m.text(lang).to_owned()))
                .collect(),
        }));
        serde_json::to_vec(&shown).unwrap_or_default()
    }
}
