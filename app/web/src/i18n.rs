//! Reading the current language in components.

use aivet_domain::{Lang, Msg};
use chrono::{DateTime, Utc};
use leptos::prelude::*;

/// The language of this page, provided by [`crate::App`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CurrentLang(pub Lang);

pub fn lang() -> Lang {
    use_context::<CurrentLang>()
        .map(|c| c.0)
        .unwrap_or_default()
}

/// The text of `msg` in the page's language.
pub fn t(msg: Msg) -> &'static str {
    msg.text(lang())
}

/// A date as people write it in the page's language.
pub fn date(at: DateTime<Utc>) -> String {
    match lang() {
        Lang::En => at.format("%-d %b %Y").to_string(),
        Lang::De | Lang::Nb => at.format("%d.%m.%Y").to_string(),
    }
}
