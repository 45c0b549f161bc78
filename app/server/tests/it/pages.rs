//! Reading pages as a browser does (an HTML5 parser), and posting forms as
//! a browser does without the browser bundle.

use crate::helpers::TestApp;
use reqwest::{Client, Response};
use scraper::{ElementRef, Html, Selector};

pub fn sel(css: &str) -> Selector {
    Selector::parse(css).unwrap_or_else(|e| panic!("selector {css}: {e:?}"))
}

/// The first element matching `css`, or a panic naming it.
pub fn one<'a>(doc: &'a Html, css: &str) -> ElementRef<'a> {
    doc.select(&sel(css))
        .next()
        .unwrap_or_else(|| panic!("no {css} in the page:\n{}", doc.html()))
}

pub fn text_of(e: ElementRef) -> String {
    e.text().collect::<String>()
}

/// What a control shows: an input's `value`, a textarea's text, the chosen
/// option of a select.
pub fn shown(doc: &Html, css: &str) -> String {
    let e = one(doc, css);
    match e.value().name() {
        "textarea" => text_of(e),
        "select" => e
            .select(&sel("option[selected]"))
            .next()
            .and_then(|o| o.value().attr("value"))
            .unwrap_or_default()
            .to_owned(),
        _ => e.value().attr("value").unwrap_or_default().to_owned(),
    }
}

/// Posts a form as the browser does without the bundle: URL-encoded, asking
/// for HTML, from the page at `referer`.
pub async fn plain_post(
    app: &TestApp,
    c: &Client,
    action: &str,
    referer: &str,
    fields: &[(&str, &str)],
) -> Response {
    c.post(app.url(action))
        .header(
            "accept",
            "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8",
        )
        .header("referer", app.url(referer))
        .form(fields)
        .send()
        .await
        .unwrap()
}

/// The same with a body as given (bytes that a form encoder would not make).
pub async fn plain_post_raw(
    app: &TestApp,
    c: &Client,
    action: &str,
    referer: &str,
    body: Vec<u8>,
) -> Response {
    c.post(app.url(action))
        .header("accept", "text/html")
        .header("referer", app.url(referer))
        .header("content-type", "application/x-www-form-urlencoded")
        .body(body)
        .send()
        .await
        .unwrap()
}

pub async fn html(r: Response) -> Html {
    Html::parse_document(&r.text().await.unwrap())
}
