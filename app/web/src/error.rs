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
}

impl AppError {
    pub fn new(msg: Msg) -> AppError {
        AppError { msg, fields: Vec::new(), request_id: None }
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
        match value {
            // Arguments that do not decode (wrong types, unknown shapes).
            ServerFnErrorErr::Args(_) | ServerFnErrorErr::Deserialization(_) => AppError::new(Msg::ErrFormInvalid),
            _ => AppError::new(Msg::ErrGeneric),
        }
    }
}
