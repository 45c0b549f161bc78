//! Pure types and rules of aivet: ids, roles, languages, validated values and
//! every interface text.
//!
//! Everything here is deterministic: no IO, no clock, no randomness. Values from
//! the outside world are parsed into these types at the edge ("parse, don't
//! validate"), so that the store and the services only ever see valid data.

pub mod account;
pub mod advisory;
pub mod attachments;
pub mod audit;
pub mod catalogue;
pub mod clearance;
pub mod follow_ups;
pub mod i18n;
pub mod ids;
pub mod incident;
pub mod inventory;
pub mod jobs;
pub mod lang;
pub mod mail;
pub mod questions;
pub mod report;
pub mod report_view;
pub mod search;
pub mod time;
pub mod timeline;

pub use account::{Email, OrgName, Password, PersonName, Role, Slug};
pub use audit::Audit;
pub use i18n::Msg;
pub use ids::*;
pub use lang::Lang;
pub use search::SearchText;
pub use time::{Fmt, Zone};
