//! Hostile text in every form, read back on every page (issue 13.1,
//! SECURITY W6): the class test of HTML injection.
//!
//! A crawl signs up through the sign-up form and then, as that owner and as
//! a visitor without an account, opens every page of the application's own
//! route list — with the ids and link tokens that pages, answers and mails
//! reveal, so a record's pages, the invitation page and the vendor's answer
//! page are reached too — and fills every form it finds there: each text
//! field (inputs, text areas, the CSV import's cells) gets the same text of
//! a hostile corpus. Where a field refuses it (an address, a date, a length)
//! the crawl types a plain value instead and tries again, so that every
//! field that takes the text keeps it. A form without anything to type
//! (delete, archive, sign out) is left alone. A new form or page is covered
//! without touching this file.
//!
//! Every page of each such world has a twin: the same crawl, typing the
//! same text with its HTML-special characters replaced by `_`, which passes
//! and fails the same checks and so makes the same records. Parsed with an
//! HTML5 parser, each page must have exactly the elements, attributes and
//! `<head>` children of its twin, and no script or data address in a link.
//! A refused form posted without the bundle (its page comes back with what
//! was typed) is compared the same way.

use crate::helpers::*;
use aivet_services::{Backoff, Limits, RateLimiter};
use reqwest::Client;
use scraper::{ElementRef, Html, Selector};
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};

crate::on_both!(hostile_text_in_every_form_adds_nothing_to_any_page);

/// What people type to break a page: markup that closes the title or an
/// attribute, scripts and event handlers, script and data addresses,
/// styles and a base address, text that looks escaped, template syntax,
/// direction and zero-width characters, text too long for any field,
/// control characters. `true`: the text fits a name, so a page's title
/// must show it.
const CORPUS: &[(&str, bool)] = &[
    (
        "</title><meta http-equiv=\"refresh\" content=\"0;url=https://evil.example/login\"><title>Acme",
        true,
    ),
    ("<script>alert(1)</script>", true),
    ("\"><img src=x onerror=alert(1)>", true),
    ("'><svg/onload=alert(1)>", true),
    ("\" onmouseover=\"alert(1)\" x=\"", true),
    ("https://evil.example/\"><img/src/onerror=alert(1)>", true),
    ("javascript:alert(document.cookie)", true),
    (
        "<a href=\"javascript:alert(1)\">x</a><iframe src=\"data:text/html,<script>alert(1)</script>\"></iframe>",
        true,
    ),
    (
        "<style>*{display:none}</style><link rel=stylesheet href=//evil.example/x.css><base href=//evil.example/>",
        true,
    ),
    ("</textarea></noscript><p title=\"</noscript><img src=x onerror=alert(1)>\">", true),
    ("&lt;b&gt;already escaped&lt;/b&gt; &amp;amp; <b>bold</b> <!-- x -->", true),
    ("{{7*7}} ${7*7} <%= 7*7 %> {% raw %}", true),
    ("\u{202e}gnp.exe \u{200b}\u{feff}Ünïcødé 名前 🙂 \u{0301}", true),
];

/// Forms that a page shows only once there are records of a kind (a
/// follow-up once questions are sent, the answers and a finding of a
/// service, a decision once asked) or only to an owner: the crawl must
/// have filled each of them, so that a crawl that stops short of them
/// cannot pass.
const MUST_FILL: &[&str] = &[
    "/api/move_follow_up",
    "/api/save_follow_up_policy",
    "/api/send_questions",
    "/api/enter_answers",
    "/api/save_finding",
    "/api/decide_assessment",
    "/api/save_question_set",
    "/api/create_invite",
    "/api/import_commit",
];

/// Control characters and a text longer than any field takes: refused
/// everywhere, so they reach the pages only as typed text coming back.
fn refused_corpus() -> Vec<String> {
    vec![
        format!("{}<script>alert(1)</script>", "A".repeat(6000)),
        "line\r\nBcc: spy@evil.example\u{0}<b>".to_owned(),
    ]
}

/// The benign twin of a text: the same with `<`, `>`, `"`, `'` and `&`
/// replaced.
fn defang(s: &str) -> String {
    s.chars()
        .map(|c| if "<>\"'&".contains(c) { '_' } else { c })
        .collect()
}

async fn hostile_text_in_every_form_adds_nothing_to_any_page(b: Db) {
    // No limit gets in the way: every world signs in and opens links.
    let big = || RateLimiter::new(1_000_000, chrono::Duration::minutes(10));
    let limits = Limits {
        sign_in_per_client: big(),
        sign_in_per_account_client: big(),
        sign_in_per_account: Backoff::new(
            1_000_000,
            chrono::Duration::seconds(1),
            chrono::Duration::seconds(1),
            chrono::Duration::minutes(10),
        ),
        sign_in_per_device: big(),
        password_change_per_user: big(),
        reset_per_client: big(),
        reset_mails_per_account: big(),
        answer_links_per_client: big(),
    };
    let Some(app) = TestApp::spawn_with(
        b,
        Options {
            limits,
            manual_mail: true,
            ..Options::default()
        },
    )
    .await
    else {
        return;
    };
    let template = app
        .client()
        .get(app.url("/services/import-template.csv"))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    let mut texts: Vec<(String, bool)> =
        CORPUS.iter().map(|(t, s)| ((*t).to_owned(), *s)).collect();
    texts.extend(refused_corpus().into_iter().map(|t| (t, false)));
    let mut problems = Vec::new();
    let mut world_no = 0;
    for (text, in_title) in &texts {
        world_no += 1;
        let hostile = World::crawl(&app, world_no, text.clone(), &template).await;
        world_no += 1;
        let twin = World::crawl(&app, world_no, defang(text), &template).await;
        let label: String = text.chars().take(60).collect();
        problems.extend(hostile.problems.iter().map(|p| format!("[{label}] {p}")));
        // Every form with a text field that a page offered was filled.
        for action in hostile.offered.difference(&hostile.posted) {
            problems.push(format!(
                "[{label}] the form posting to {action} was never filled"
            ));
        }
        for action in MUST_FILL {
            if !hostile.posted.contains(*action) {
                problems.push(format!(
                    "[{label}] the crawl never reached a form posting to {action}"
                ));
            }
        }
        problems.extend(
            compare(&hostile, &twin)
                .into_iter()
                .map(|p| format!("[{label}] {p}")),
        );
        // The crawl reached the places the text shows.
        let submitted = hostile
            .trace
            .iter()
            .filter(|(k, _)| k.starts_with("echo|"))
            .count();
        assert!(
            submitted > 5,
            "[{label}] only {submitted} refused forms seen"
        );
        if *in_title {
            let wanted = text.split_whitespace().collect::<Vec<_>>().join(" ");
            let shown = hostile
                .trace
                .iter()
                .filter(|(_, p)| p.title.contains(&wanted))
                .count();
            if shown < 3 {
                problems.push(format!("[{label}] in the title of only {shown} pages"));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// What a page is made of, as a browser's parser builds it.
#[derive(Debug, PartialEq)]
struct Page {
    status: u16,
    /// The `<head>`'s children, in order.
    head: Vec<String>,
    /// Every element: its name and the names of its attributes, counted.
    elements: BTreeMap<String, usize>,
    title: String,
    /// Event-handler attributes and script or data addresses.
    unsafe_parts: Vec<String>,
}

fn sel(css: &str) -> Selector {
    Selector::parse(css).unwrap()
}

fn element_sig(e: ElementRef) -> String {
    let mut attrs: Vec<&str> = e.value().attrs().map(|(k, _)| k).collect();
    attrs.sort();
    format!("<{} {}>", e.value().name(), attrs.join(" "))
}

impl Page {
    fn of(status: u16, doc: &Html) -> Page {
        let mut elements = BTreeMap::new();
        let mut unsafe_parts = Vec::new();
        for node in doc.tree.nodes() {
            let Some(e) = ElementRef::wrap(node) else {
                continue;
            };
            *elements.entry(element_sig(e)).or_insert(0) += 1;
            for (k, v) in e.value().attrs() {
                let v = v.trim().to_ascii_lowercase();
                let script = |v: &str| {
                    ["javascript:", "data:", "vbscript:"]
                        .iter()
                        .any(|s| v.starts_with(s))
                };
                let address = matches!(k, "href" | "src" | "action" | "formaction" | "poster");
                let refresh = k == "content" && v.contains("url=");
                if k.starts_with("on") || (address && script(&v)) || refresh {
                    unsafe_parts.push(format!("{} {k}={v}", e.value().name()));
                }
            }
        }
        Page {
            status,
            head: doc.select(&sel("head > *")).map(element_sig).collect(),
            elements,
            title: doc
                .select(&sel("title"))
                .next()
                .map(|t| t.text().collect())
                .unwrap_or_default(),
            unsafe_parts,
        }
    }

    fn status_only(status: u16) -> Page {
        Page {
            status,
            head: Vec::new(),
            elements: BTreeMap::new(),
            title: String::new(),
            unsafe_parts: Vec::new(),
        }
    }
}

fn compare(hostile: &World, twin: &World) -> Vec<String> {
    let twins: HashMap<&str, &Page> = twin.trace.iter().map(|(k, p)| (k.as_str(), p)).collect();
    let mut out = Vec::new();
    for (key, h) in &hostile.trace {
        for u in &h.unsafe_parts {
            out.push(format!("{key}: {u}"));
        }
        let Some(b) = twins.get(key.as_str()) else {
            out.push(format!("{key}: the benign crawl has no such page"));
            continue;
        };
        if h.status != b.status {
            out.push(format!(
                "{key}: status {} where the benign page has {}",
                h.status, b.status
            ));
            continue;
        }
        if h.head != b.head {
            out.push(format!(
                "{key}: <head> is {:?}, the template's is {:?}",
                h.head, b.head
            ));
        }
        let mut diff = Vec::new();
        for (sig, n) in &h.elements {
            let m = b.elements.get(sig).copied().unwrap_or(0);
            if *n != m {
                diff.push(format!("{sig} ×{n} (template: ×{m})"));
            }
        }
        for (sig, m) in &b.elements {
            if !h.elements.contains_key(sig) {
                diff.push(format!("{sig} ×0 (template: ×{m})"));
            }
        }
        if !diff.is_empty() {
            out.push(format!("{key}: {}", diff.join(", ")));
        }
    }
    out
}

#[derive(Clone, Debug)]
enum Control {
    /// Sent as it is: a hidden field, a ticked box.
    Fixed(String, String),
    /// A text field, and its input type (`textarea` for a text area).
    Typed(String, String),
    Select(String, Vec<String>, usize),
    /// A box not ticked (its name and value).
    Unticked(String, String),
}

#[derive(Clone, Debug)]
struct Form {
    /// Its `id`, which names it on its page; forms repeated per record
    /// have none and go by their place among those of the same action.
    id: Option<String>,
    action: String,
    get: bool,
    controls: Vec<Control>,
    /// Each button's own target and its name and value.
    variants: Vec<(String, Option<(String, String)>)>,
    /// Error keys (`data-field`) and the names of the controls inside.
    keys: HashMap<String, Vec<String>>,
}

impl Form {
    fn typed(&self) -> impl Iterator<Item = &str> {
        self.controls.iter().filter_map(|c| match c {
            Control::Typed(n, _) => Some(n.as_str()),
            _ => None,
        })
    }
}

fn forms_of(doc: &Html, page: &str) -> Vec<Form> {
    let mut out = Vec::new();
    for f in doc.select(&sel("form")) {
        let get = f
            .value()
            .attr("method")
            .unwrap_or("get")
            .eq_ignore_ascii_case("get");
        let action = match f.value().attr("action").unwrap_or("") {
            "" => page.split('?').next().unwrap().to_owned(),
            a if a.starts_with('/') && !a.starts_with("//") => a.to_owned(),
            _ => continue,
        };
        let mut controls = Vec::new();
        for c in f.select(&sel("input, textarea, select")) {
            let v = c.value();
            let Some(name) = v.attr("name") else { continue };
            if v.attr("disabled").is_some() || v.attr("readonly").is_some() {
                continue;
            }
            let name = name.to_owned();
            match v.name() {
                "textarea" => controls.push(Control::Typed(name, "textarea".into())),
                "select" => {
                    let options: Vec<String> = c
                        .select(&sel("option"))
                        .map(|o| o.value().attr("value").unwrap_or("").to_owned())
                        .collect();
                    let chosen = c
                        .select(&sel("option"))
                        .position(|o| o.value().attr("selected").is_some())
                        .unwrap_or(0);
                    if !options.is_empty() {
                        controls.push(Control::Select(name, options, chosen));
                    }
                }
                _ => {
                    let kind = v.attr("type").unwrap_or("text").to_ascii_lowercase();
                    let value = v.attr("value").unwrap_or("").to_owned();
                    match kind.as_str() {
                        "hidden" => controls.push(Control::Fixed(name, value)),
                        "checkbox" | "radio" if v.attr("checked").is_some() => {
                            controls.push(Control::Fixed(name, value))
                        }
                        "checkbox" | "radio" => controls.push(Control::Unticked(name, value)),
                        "file" | "submit" | "button" | "image" | "reset" => {}
                        _ => controls.push(Control::Typed(name, kind)),
                    }
                }
            }
        }
        let mut variants = Vec::new();
        for b in f.select(&sel("button, input[type=submit]")) {
            let v = b.value();
            if v.name() == "button" && !matches!(v.attr("type"), None | Some("submit")) {
                continue;
            }
            let target = v.attr("formaction").unwrap_or(&action).to_owned();
            let named = v
                .attr("name")
                .map(|n| (n.to_owned(), v.attr("value").unwrap_or("").to_owned()));
            let variant = (target, named);
            if !variants.contains(&variant) {
                variants.push(variant);
            }
        }
        if variants.is_empty() {
            variants.push((action.clone(), None));
        }
        let mut keys = HashMap::new();
        for field in f.select(&sel("[data-field]")) {
            let names = field
                .select(&sel("input, textarea, select"))
                .filter_map(|c| c.value().attr("name").map(str::to_owned))
                .collect();
            keys.insert(field.value().attr("data-field").unwrap().to_owned(), names);
        }
        out.push(Form {
            id: f.value().attr("id").map(|i| format!("#{i}")),
            action,
            get,
            controls,
            variants,
            keys,
        });
    }
    out
}

/// What the crawl decided for one form: which fields get a plain value,
/// which option and box it chose, the numbers of its fields.
#[derive(Default)]
struct Choices {
    plain: HashSet<String>,
    plain_columns: HashSet<String>,
    options: HashMap<String, usize>,
    ticked: HashSet<(String, String)>,
    numbers: HashMap<String, usize>,
}

#[derive(Clone, Copy, PartialEq)]
#[repr(u8)]
enum Who {
    Owner,
    Visitor,
}

struct World<'a> {
    app: &'a TestApp,
    n: usize,
    text: String,
    template: &'a str,
    owner: Client,
    patterns: Vec<String>,
    /// Ids and link tokens by the path before them, in the order found.
    found: BTreeMap<String, Vec<String>>,
    /// Forms taken, and how often each was tried.
    done: HashSet<String>,
    tries: HashMap<String, usize>,
    echoed: HashSet<String>,
    counter: usize,
    mails: HashSet<std::path::PathBuf>,
    trace: Vec<(String, Page)>,
    problems: Vec<String>,
    /// Where the forms with a text field that pages offered post to, and
    /// where the crawl posted to.
    offered: BTreeSet<String>,
    posted: BTreeSet<String>,
    /// A round took no form: forms that leave the organisation come now.
    quiet: bool,
    last_round: bool,
}

/// A new organisation becomes the owner's current one and leaves the
/// records made so far behind: it is made last.
const LEAVES: &[&str] = &["/api/create_org"];

/// How many records of each kind the crawl opens the pages of.
const PER_KIND: usize = 3;
const ROUNDS: usize = 12;

impl<'a> World<'a> {
    async fn crawl(app: &'a TestApp, n: usize, text: String, template: &'a str) -> World<'a> {
        let patterns: Vec<String> = aivet_server::routes::inventory()
            .into_iter()
            .filter(|(m, p)| m == "GET" && !p.contains("{*"))
            .map(|(_, p)| p)
            .collect();
        let mut w = World {
            app,
            n,
            text,
            template,
            owner: app.client(),
            patterns,
            found: BTreeMap::new(),
            done: HashSet::new(),
            tries: HashMap::new(),
            echoed: HashSet::new(),
            counter: 0,
            mails: std::fs::read_dir(app.data_dir.join("outbox"))
                .into_iter()
                .flatten()
                .flatten()
                .map(|e| e.path())
                .collect(),
            trace: Vec::new(),
            problems: Vec::new(),
            offered: BTreeSet::new(),
            posted: BTreeSet::new(),
            quiet: false,
            last_round: false,
        };
        // The world's owner signs up through the sign-up form.
        let owner = w.owner.clone();
        w.visit(
            &owner,
            Who::Visitor,
            "/signup",
            "/signup",
            0,
            &mut HashSet::new(),
        )
        .await;
        let (status, _) = app.get_text(&owner, "/settings").await;
        assert_eq!(status, 200, "world {n}: the sign-up form made an account");
        for round in 0..ROUNDS {
            let mut used = HashSet::new();
            let before = w.done.len();
            w.last_round = w.quiet;
            for who in [Who::Owner, Who::Visitor] {
                for pattern in w.patterns.clone() {
                    for (slot, path) in w.paths_of(&pattern).into_iter().enumerate() {
                        let client = match who {
                            Who::Owner => w.owner.clone(),
                            Who::Visitor => app.client(),
                        };
                        let key = format!("{round}|{}|{pattern}|{slot}", who as u8);
                        w.visit(&client, who, &key, &path, slot, &mut used).await;
                    }
                }
            }
            if w.done.len() == before {
                if w.last_round {
                    break;
                }
                // Nothing more to do here: now the forms that move on to
                // another organisation.
                w.quiet = true;
            }
        }
        w
    }

    /// The pages of a route: itself, or one per id found for it.
    fn paths_of(&self, pattern: &str) -> Vec<String> {
        let Some(at) = pattern.find('{') else {
            return vec![pattern.to_owned()];
        };
        let end = pattern[at..].find('}').unwrap() + at + 1;
        self.found
            .get(&pattern[..at])
            .map(|ids| {
                ids.iter()
                    .take(PER_KIND)
                    .map(|id| format!("{}{id}{}", &pattern[..at], &pattern[end..]))
                    .collect()
            })
            .unwrap_or_default()
    }

    /// A record whose page is not found (another organisation's, now that
    /// the owner switched; a link used up) takes no place among those
    /// whose pages the crawl opens.
    fn forget(&mut self, path: &str) {
        for list in self.found.values_mut() {
            list.retain(|id| !path.contains(id.as_str()));
        }
    }

    /// Notes the ids and tokens in a text, after each route's fixed part.
    fn learn(&mut self, text: &str) {
        for pattern in &self.patterns {
            let Some(at) = pattern.find('{') else {
                continue;
            };
            let prefix = &pattern[..at];
            let token = pattern[at..].starts_with("{token}");
            let mut rest = text;
            while let Some(pos) = rest.find(prefix) {
                let after = &rest[pos + prefix.len()..];
                let len = if token { 43 } else { 36 };
                let candidate: String = after.chars().take(len).collect();
                let ok = candidate.len() == len
                    && if token {
                        candidate
                            .chars()
                            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
                    } else {
                        uuid::Uuid::parse_str(&candidate).is_ok()
                    };
                if ok {
                    let list = self.found.entry(prefix.to_owned()).or_default();
                    if !list.contains(&candidate) {
                        list.push(candidate);
                    }
                }
                rest = &rest[pos + prefix.len()..];
            }
        }
    }

    /// New mails: their links, in the order of their recipients.
    async fn read_mail(&mut self) {
        self.app.worker.pass().await.unwrap();
        let mut new = Vec::new();
        for entry in std::fs::read_dir(self.app.data_dir.join("outbox"))
            .into_iter()
            .flatten()
            .flatten()
        {
            if self.mails.insert(entry.path()) {
                let data = std::fs::read(entry.path()).unwrap();
                let m = mailparse::parse_mail(&data).unwrap();
                let to = mailparse::MailHeaderMap::get_first_value(m.headers.as_slice(), "To")
                    .unwrap_or_default();
                let body: String = std::iter::once(&m)
                    .chain(m.subparts.iter())
                    .filter_map(|p| p.get_body().ok())
                    .collect();
                new.push((to, body));
            }
        }
        new.sort();
        for (_, body) in new {
            self.learn(&body);
        }
    }

    /// An answer: its status, whether it is a page, its text; the ids and
    /// tokens in it noted, a 5xx noted as a problem.
    async fn read(&mut self, key: &str, r: reqwest::Response) -> (u16, bool, String) {
        let status = r.status().as_u16();
        if let Some(l) = r.headers().get("location") {
            self.learn(l.to_str().unwrap_or(""));
        }
        let html = r
            .headers()
            .get("content-type")
            .is_some_and(|t| t.to_str().unwrap_or("").starts_with("text/html"));
        let body = r.text().await.unwrap_or_default();
        self.learn(&body);
        if status >= 500 {
            let shown: String = body.chars().take(300).collect();
            self.problems.push(format!("{key}: {status} {shown}"));
        }
        (status, html, body)
    }

    fn record(&mut self, key: String, page: Page) {
        self.trace.push((key, page));
    }

    async fn visit(
        &mut self,
        client: &Client,
        who: Who,
        key: &str,
        path: &str,
        slot: usize,
        used: &mut HashSet<String>,
    ) {
        let r = client
            .get(self.app.url(path))
            .header("accept", "text/html")
            .send()
            .await
            .unwrap();
        let (status, html, body) = self.read(key, r).await;
        if !html || status != 200 {
            self.record(key.to_owned(), Page::status_only(status));
            if status == 404 {
                self.forget(path);
            }
            return;
        }
        let forms = {
            let doc = Html::parse_document(&body);
            self.record(key.to_owned(), Page::of(status, &doc));
            forms_of(&doc, path)
        };
        let pattern = key.split('|').nth(2).unwrap_or(path).to_owned();
        let mut ordinals: HashMap<String, usize> = HashMap::new();
        for form in forms {
            if form.typed().next().is_none() {
                continue;
            }
            if !form.get {
                self.offered
                    .extend(form.variants.iter().map(|(target, _)| target.clone()));
            }
            let form_no = match &form.id {
                Some(id) => id.clone(),
                None => {
                    let ord = ordinals.entry(form.action.clone()).or_insert(0);
                    *ord += 1;
                    (*ord - 1).to_string()
                }
            };
            let mut choices = Choices::default();
            for (v, variant) in form.variants.iter().enumerate() {
                let action = if variant.0 == path.split('?').next().unwrap() {
                    "(this page)".to_owned()
                } else {
                    variant.0.clone()
                };
                let form_key = format!("{}|{pattern}|{slot}|{action}|{form_no}|{v}", who as u8);
                let per_round = format!("{}|{pattern}|{action}|{form_no}|{v}", who as u8);
                // A form refused for want of something (a vendor to choose)
                // is tried again in a later round, three times at most.
                if LEAVES.contains(&variant.0.as_str()) && !self.last_round {
                    continue;
                }
                let tries = self.tries.entry(form_key.clone()).or_insert(0);
                if self.done.contains(&form_key) || used.contains(&per_round) || *tries >= 3 {
                    continue;
                }
                *tries += 1;
                used.insert(per_round);
                let taken = if form.get {
                    self.get_form(client, &form_key, &form, &mut choices).await;
                    true
                } else {
                    self.post_form(client, &form_key, path, &form, variant, &mut choices)
                        .await
                };
                if taken {
                    self.done.insert(form_key);
                }
            }
        }
    }

    fn number(&mut self, choices: &mut Choices, name: &str) -> usize {
        let next = self.counter;
        let j = *choices.numbers.entry(name.to_owned()).or_insert(next);
        if j == next {
            self.counter += 1;
        }
        j
    }

    /// What the crawl types into a field of this input type.
    fn value(&mut self, choices: &mut Choices, name: &str, kind: &str) -> String {
        let j = self.number(choices, name);
        if name == "csv" && kind == "textarea" {
            return self.csv(choices);
        }
        if !choices.plain.contains(name) {
            return format!("{}#{j}", self.text);
        }
        match kind {
            "email" => format!("w{}-{j}@example.com", self.n),
            "url" => format!("https://example.com/page-{j}"),
            "date" => "2026-12-15".to_owned(),
            "number" => "48".to_owned(),
            "password" => PASSWORD.to_owned(),
            _ => format!("!Plain text {j}"),
        }
    }

    /// The CSV import's text: the template's columns, one row, each cell
    /// the text unless the import refused it in that column.
    fn csv(&mut self, choices: &mut Choices) -> String {
        let mut r = csv::Reader::from_reader(self.template.as_bytes());
        let header: Vec<String> = r.headers().unwrap().iter().map(str::to_owned).collect();
        let example: Vec<String> = r
            .records()
            .next()
            .unwrap()
            .unwrap()
            .iter()
            .map(str::to_owned)
            .collect();
        let mut row = Vec::new();
        for (i, column) in header.iter().enumerate() {
            let j = self.number(choices, &format!("csv:{column}"));
            let plain = choices.plain.contains("csv") || choices.plain_columns.contains(column);
            row.push(if !plain {
                format!("{}#{j}", self.text)
            } else if column == "name" {
                format!("!Imported {j}")
            } else {
                example[i].clone()
            });
        }
        let mut w = csv::Writer::from_writer(Vec::new());
        w.write_record(&header).unwrap();
        w.write_record(&row).unwrap();
        String::from_utf8(w.into_inner().unwrap()).unwrap()
    }

    fn fields(&mut self, form: &Form, choices: &mut Choices) -> Vec<(String, String)> {
        let mut out = Vec::new();
        for c in &form.controls {
            match c {
                Control::Fixed(n, v) => out.push((n.clone(), v.clone())),
                Control::Typed(n, kind) => {
                    let v = self.value(choices, n, kind);
                    out.push((n.clone(), v));
                }
                Control::Select(n, options, chosen) => {
                    let i = choices.options.get(n).copied().unwrap_or(*chosen);
                    out.push((n.clone(), options[i].clone()));
                }
                Control::Unticked(n, v) => {
                    if choices.ticked.contains(&(n.clone(), v.clone())) {
                        out.push((n.clone(), v.clone()));
                    }
                }
            }
        }
        out
    }

    async fn get_form(&mut self, client: &Client, key: &str, form: &Form, choices: &mut Choices) {
        let fields = self.fields(form, choices);
        let r = client
            .get(self.app.url(&form.action))
            .query(&fields)
            .header("accept", "text/html")
            .send()
            .await
            .unwrap();
        self.record_page(format!("get|{key}"), r).await;
    }

    /// Posts a form as the bundle does until it is taken, typing plain
    /// values where it refuses the text. The first refusal is also posted
    /// as a browser without the bundle posts it, and its answer recorded.
    async fn post_form(
        &mut self,
        client: &Client,
        key: &str,
        page: &str,
        form: &Form,
        variant: &(String, Option<(String, String)>),
        choices: &mut Choices,
    ) -> bool {
        self.posted.insert(variant.0.clone());
        for attempt in 0..8 {
            let mut fields = self.fields(form, choices);
            if let Some(b) = &variant.1 {
                fields.push(b.clone());
            }
            let r = client
                .post(self.app.url(&variant.0))
                .header("accept", "application/json")
                .form(&fields)
                .send()
                .await
                .unwrap();
            let (status, is_html, body) = self.read(key, r).await;
            if status >= 500 {
                return false;
            }
            let json: Value = serde_json::from_str(&body).unwrap_or(Value::Null);
            // Refused: by status, or an import check that lists problems.
            let columns: Vec<String> = json["errors"]
                .as_array()
                .map(|a| {
                    a.iter()
                        .map(|e| e["column"].as_str().unwrap_or("").to_owned())
                        .collect()
                })
                .unwrap_or_default();
            let refused = status >= 400 || !columns.is_empty();
            if !refused {
                // Records made later sort later, in both crawls alike.
                self.app.clock.advance(chrono::Duration::seconds(1));
                self.read_mail().await;
                return true;
            }
            if is_html {
                let answer = Page::of(status, &Html::parse_document(&body));
                self.record(format!("answer|{key}|{attempt}"), answer);
            }
            if status >= 400 && self.echoed.insert(key.to_owned()) {
                self.echo(client, key, page, variant, &fields).await;
            }
            // Which fields: by error key, by name, by CSV column.
            let mut names: Vec<String> = Vec::new();
            for f in json["fields"].as_array().into_iter().flatten() {
                let k = f[0].as_str().unwrap_or("");
                names.extend(form.keys.get(k).cloned().unwrap_or_default());
                names.push(k.to_owned());
            }
            if is_html {
                let doc = Html::parse_document(&body);
                names.extend(
                    doc.select(&sel("[aria-invalid='true']"))
                        .filter_map(|c| c.value().attr("name").map(str::to_owned)),
                );
            }
            let mut changed = false;
            for column in &columns {
                if column.is_empty() {
                    changed |= choices.plain.insert("csv".to_owned());
                } else {
                    changed |= choices.plain_columns.insert(column.clone());
                }
            }
            let mut ticked_group = false;
            for name in &names {
                for c in &form.controls {
                    match c {
                        Control::Typed(n, _) if n == name => {
                            changed |= choices.plain.insert(n.clone());
                        }
                        Control::Select(n, options, chosen) if n == name => {
                            let at = choices.options.get(n).copied().unwrap_or(*chosen);
                            if let Some(next) =
                                (at + 1..options.len()).find(|i| !options[*i].is_empty())
                            {
                                choices.options.insert(n.clone(), next);
                                changed = true;
                            }
                        }
                        Control::Unticked(n, v) if n == name && !ticked_group => {
                            ticked_group = true;
                            changed |= choices.ticked.insert((n.clone(), v.clone()));
                        }
                        _ => {}
                    }
                }
            }
            if !changed {
                // Refused without a field to blame: everything plain, once.
                let all: Vec<String> = form.typed().map(str::to_owned).collect();
                for n in all {
                    changed |= choices.plain.insert(n);
                }
            }
            if !changed {
                return false;
            }
        }
        self.problems
            .push(format!("{key}: still refused after 8 tries"));
        false
    }

    /// The refused form posted without the bundle: the answer (its page
    /// again, with what was typed) is recorded.
    async fn echo(
        &mut self,
        client: &Client,
        key: &str,
        page: &str,
        variant: &(String, Option<(String, String)>),
        fields: &[(String, String)],
    ) {
        let mut r = client
            .post(self.app.url(&variant.0))
            .header("accept", "text/html")
            .header("referer", self.app.url(page))
            .form(fields)
            .send()
            .await
            .unwrap();
        // Followed as a browser would, to the page that shows the answer.
        for _ in 0..3 {
            let Some(to) = r.headers().get("location").and_then(|l| l.to_str().ok()) else {
                break;
            };
            let to = to.strip_prefix(&self.app.base).unwrap_or(to).to_owned();
            if !to.starts_with('/') {
                break;
            }
            r = client
                .get(self.app.url(&to))
                .header("accept", "text/html")
                .send()
                .await
                .unwrap();
        }
        self.record_page(format!("echo|{key}"), r).await;
    }

    /// Records the page of an answer under `key`.
    async fn record_page(&mut self, key: String, r: reqwest::Response) {
        let (status, _, body) = self.read(&key, r).await;
        let page = Page::of(status, &Html::parse_document(&body));
        self.record(key, page);
    }
}
