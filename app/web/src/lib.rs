//! aivet's pages and server functions.
//!
//! Pages render completely on the server (every route uses `SsrMode::Async`);
//! the browser bundle hydrates them for convenience (inline errors that keep
//! what was typed, copy buttons), but every form also works as a plain HTML
//! POST. Server functions are thin: read the request context, call one
//! service, map its errors. State-changing server functions redirect, and the
//! browser then loads the new page in full.

#![recursion_limit = "512"]

pub mod api;
pub mod app;
pub mod components;
pub mod error;
pub mod i18n;
pub mod pages;
#[cfg(feature = "ssr")]
pub mod ssr;

pub use app::{shell, App};
