//! Helpers every page uses: its path and query parameters, the error shown
//! instead of its data, external links.

use crate::i18n::{lang, t};
use aivet_domain::Msg;
use leptos::prelude::*;
use leptos_router::hooks::{use_params_map, use_query_map};

/// The values of query parameters, empty where absent. Pages are rendered
/// once, on the server: read once, not tracked (a memo for each of the
/// service list's ten cost 12 % of that page's instructions).
pub fn query_values<const N: usize>(names: [&str; N]) -> [String; N] {
    use_query_map().with_untracked(|q| names.map(|n| q.get(n).unwrap_or_default()))
}

/// The `id` parameter of the page's path.
pub fn path_id() -> String {
    use_params_map().with_untracked(|p| p.get("id").unwrap_or_default())
}

/// An error loaded instead of a page's data.
#[component]
pub fn LoadError(e: crate::error::AppError) -> impl IntoView {
    view! { <div class="alert error" role="alert">{e.text(lang())}</div> }
}

/// An external link as people expect it: the address, opened without
/// telling the target where it came from.
#[component]
pub fn ExternalLink(href: String) -> impl IntoView {
    view! { <a href=href.clone() rel="noopener noreferrer nofollow" target="_blank">{href.clone()}</a> }
}

/// The options of a list filter: "All" first, then `all`, the current
/// value selected.
pub fn options_with_all(all: Vec<(String, String)>, current: &str) -> impl IntoView {
    std::iter::once((String::new(), t(Msg::FilterAll).to_owned()))
        .chain(all)
        .map(|(v, l)| {
            let selected = v == current;
            view! { <option value=v selected=selected>{l}</option> }
        })
        .collect_view()
}
