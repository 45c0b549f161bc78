//! Server functions and the data they exchange with the pages, one module
//! per area.
//!
//! Each one reads the request context (who is asking, in which organisation),
//! calls one service and maps its errors. State-changing ones answer with a
//! redirect, so that the browser shows the new state by loading the page again.
//! All of them are POSTs and pass the same-origin check of the server.

mod accounts;
mod follow_ups;
mod inventory;
mod questions;
mod settings;
pub use accounts::*;
pub use follow_ups::*;
pub use inventory::*;
pub use questions::*;
pub use settings::*;

#[cfg(feature = "ssr")]
use crate::error::AppError;

/// An id from a form or address; one that does not parse is as unknown as
/// one that does not exist.
#[cfg(feature = "ssr")]
pub(crate) fn parse_id<T: std::str::FromStr>(s: &str) -> Result<T, AppError> {
    s.parse()
        .map_err(|_| crate::ssr::service_error(aivet_services::ServiceError::NotFound))
}
