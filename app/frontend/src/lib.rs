//! The browser entry point: hydrates the server-rendered page.

use wasm_bindgen::prelude::wasm_bindgen;

#[wasm_bindgen]
pub fn hydrate() {
    console_error_panic_hook::set_once();
    // After a server function that changes state, load the target page in
    // full (instead of a client-side route change), so every part of the page
    // shows the new state. Set before the router sets its own hook.
    let _ = leptos::server_fn::redirect::set_redirect_hook(|path: &str| {
        if let Some(w) = web_sys_window() {
            let loc = w.location();
            let here = format!(
                "{}{}",
                loc.pathname().unwrap_or_default(),
                loc.search().unwrap_or_default()
            );
            let (target, hash) = path.split_once('#').unwrap_or((path, ""));
            if target == here {
                // Only the fragment differs: assigning would just scroll.
                let _ = loc.set_hash(hash);
                let _ = loc.reload();
            } else {
                let _ = loc.assign(path);
            }
        }
    });
    leptos::mount::hydrate_body(aivet_web::App);
}

fn web_sys_window() -> Option<web_sys::Window> {
    web_sys::window()
}
