//! Reading the current language, and writing dates and times, in components.

use crate::context::PageCtx;
use aivet_domain::{Fmt, Lang, Msg, Zone};
use chrono::{DateTime, NaiveDate, Utc};
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

/// How this page writes dates: its language, the organisation's zone.
pub fn fmt() -> Fmt {
    // Borrowed, not cloned: a list writes a date in every row.
    with_context::<PageCtx, _>(PageCtx::fmt)
        .unwrap_or_else(|| Fmt::new(lang(), Zone::default_for(lang())))
}

/// The local date of an instant, for tables and lists.
pub fn date(at: DateTime<Utc>) -> String {
    fmt().day_short(at)
}

/// A calendar date, for tables and lists.
pub fn on(d: NaiveDate) -> String {
    fmt().date_short(d)
}

/// The local date and time of an instant, for tables and lists.
pub fn date_time(at: DateTime<Utc>) -> String {
    fmt().date_time_short(at)
}
