//! What can go wrong in a use case, in terms a user can be told.

use aivet_domain::Msg;
use aivet_store::StoreError;

/// Validation errors per form field: the field's name and the message for it.
pub type FieldErrors = Vec<(&'static str, Msg)>;

#[derive(Debug, thiserror::Error)]
pub enum ServiceError {
    /// Not there, or not yours: the two are indistinguishable on purpose.
    #[error("not found")]
    NotFound,
    #[error("sign-in required")]
    Unauthenticated,
    #[error("role does not allow this")]
    Forbidden,
    #[error("invalid input")]
    Invalid(FieldErrors),
    /// Validation errors of controls in repeated rows, by the control's
    /// name (`rows[2][name]`).
    #[error("invalid rows")]
    InvalidAt(Vec<(String, Msg)>),
    #[error("bad credentials")]
    BadCredentials,
    /// Too many attempts; the message says what to do meanwhile.
    #[error("rate limited")]
    RateLimited(Msg),
    /// A rule of the domain says no (the message says which).
    #[error("refused: {0:?}")]
    Refused(Msg),
    /// Other records depend on this one; the message names them (`{names}`).
    #[error("blocked by {1:?}")]
    Blocked(Msg, Vec<String>),
    #[error(transparent)]
    Internal(#[from] InternalError),
}

/// A failure that is ours, not the user's: logged with its cause, shown as a
/// generic message with a request id.
#[derive(Debug, thiserror::Error)]
pub enum InternalError {
    #[error(transparent)]
    Store(StoreError),
    #[error("password hashing: {0}")]
    Hashing(String),
    #[error("background task: {0}")]
    Join(#[from] tokio::task::JoinError),
    #[error("mail: {0}")]
    Mail(String),
    #[error("CSV export: {0}")]
    Export(String),
}

impl From<StoreError> for ServiceError {
    fn from(e: StoreError) -> Self {
        match e {
            StoreError::NotFound => ServiceError::NotFound,
            StoreError::EmailTaken => ServiceError::Invalid(vec![("email", Msg::ErrEmailTaken)]),
            StoreError::AlreadyMember => ServiceError::Refused(Msg::ErrAlreadyMember),
            StoreError::LastOwner => ServiceError::Refused(Msg::ErrLastOwner),
            StoreError::NameTaken => ServiceError::Invalid(vec![("name", Msg::ErrNameTaken)]),
            other => ServiceError::Internal(InternalError::Store(other)),
        }
    }
}

impl ServiceError {
    /// The message a user sees for this error (the generic one for internal errors).
    pub fn msg(&self) -> Msg {
        match self {
            ServiceError::NotFound => Msg::ErrNotFound,
            ServiceError::Unauthenticated => Msg::ErrSignInRequired,
            ServiceError::Forbidden => Msg::ErrForbidden,
            ServiceError::Invalid(_) | ServiceError::InvalidAt(_) => Msg::ErrFormInvalid,
            ServiceError::BadCredentials => Msg::ErrBadCredentials,
            ServiceError::RateLimited(m)
            | ServiceError::Refused(m)
            | ServiceError::Blocked(m, _) => *m,
            ServiceError::Internal(_) => Msg::ErrGeneric,
        }
    }
}

/// Collects field errors from several parse results.
#[derive(Default)]
pub struct Validator(FieldErrors);

impl Validator {
    pub fn check<T>(&mut self, field: &'static str, r: Result<T, Msg>) -> Option<T> {
        match r {
            Ok(v) => Some(v),
            Err(m) => {
                self.0.push((field, m));
                None
            }
        }
    }
    pub fn finish(self) -> Result<(), ServiceError> {
        if self.0.is_empty() {
            Ok(())
        } else {
            Err(ServiceError::Invalid(self.0))
        }
    }
}
