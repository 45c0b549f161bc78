//! One module per area of the application; each page is a component.

pub mod account;
pub mod auth;
pub mod clearance;
pub mod common;
pub mod dashboard;
pub mod follow_ups;
pub mod incidents;
pub mod invite;
pub mod not_found;
pub mod questions;
pub mod reports;
pub mod services;
pub mod settings;
pub mod vendors;

#[cfg(feature = "ssr")]
pub use questions::upload_refusal_signature;
