//! A page's data: loaded on the server before the page is sent, and not
//! sent along with it.
//!
//! leptos writes the value of every resource into the page for the browser
//! to hydrate from. Nothing hydrates here (see the crate's documentation),
//! so that copy was dead weight: on the settings page 17 KB of its 52, and
//! on a service list every row twice. Page data uses a codec that encodes
//! to nothing; leptos still registers and awaits the resource exactly as
//! before (turning its hydration bookkeeping off instead made pages hang),
//! and writes an empty string in its place.

use leptos::prelude::*;
use leptos::server::codee::{Decoder, Encoder};
use std::future::Future;

/// The codec of page data: encodes to nothing, never decodes.
pub struct NotSent;

impl<T> Encoder<T> for NotSent {
    type Error = std::convert::Infallible;
    type Encoded = String;

    fn encode(_: &T) -> Result<String, Self::Error> {
        Ok(String::new())
    }
}

impl<T> Decoder<T> for NotSent {
    type Error = NotSentError;
    type Encoded = str;

    fn decode(_: &str) -> Result<T, Self::Error> {
        Err(NotSentError)
    }
}

/// Page data is rendered on the server and never read back.
#[derive(Debug)]
pub struct NotSentError;

/// Loads a page's data for `input` (an id, the list's filters) from
/// `fetcher`; blocking: the page waits for it, as with
/// `Resource::new_blocking`. A page is rendered once, on the server, so the
/// input is a plain value, not a tracked source.
pub fn page_data<S, T, Fut>(
    input: S,
    fetcher: impl Fn(S) -> Fut + Send + Sync + 'static,
) -> Resource<T, NotSent>
where
    S: Send + Sync + Clone + PartialEq + 'static,
    T: Send + Sync + 'static,
    Fut: Future<Output = T> + Send + 'static,
{
    Resource::new_with_options(move || input.clone(), fetcher, true)
}
