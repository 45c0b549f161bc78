//! aivet's pages and server functions.
//!
//! Pages render completely on the server (every route uses `SsrMode::Async`)
//! and are not hydrated: every form is a plain HTML POST to its server
//! function. The small browser bundle (`app/frontend`) sends those forms with
//! `fetch` instead, so that errors appear next to the fields with everything
//! typed kept, and shows previews and created links in place; it needs no
//! page code and no UI text (error texts come localized from the server).
//! Server functions are thin: read the request context, call one service,
//! map its errors. State-changing server functions redirect, and the browser
//! then loads the new page in full.

#![recursion_limit = "512"]

pub mod address;
pub mod api;
pub mod app;
pub mod components;
pub mod context;
pub mod error;
pub mod forms;
pub mod i18n;
pub mod page_data;
pub mod pages;
#[cfg(feature = "ssr")]
pub mod ssr;

pub use app::{shell, App};
