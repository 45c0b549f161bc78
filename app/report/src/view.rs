//! The prepared report as the layout reads it: the JSON of
//! `aivet_domain::report_view::View` (every text already in the reader's
//! language). Only the fields the layout uses are read.

use serde::Deserialize;

/// A label and its value.
pub type Row = [String; 2];

#[derive(Deserialize, Default)]
pub struct Table {
    pub head: Vec<String>,
    pub rows: Vec<Vec<String>>,
    pub empty: String,
}

#[derive(Deserialize)]
pub struct View {
    pub title: String,
    pub lang: String,
    pub labels: Labels,
    pub cover: Vec<Row>,
    pub hash: String,
    pub hash_note: String,
    pub generated: String,
    pub summary: Summary,
    pub services: Vec<Service>,
    pub incidents: Vec<Incident>,
    pub vendors: Table,
    pub mails: Table,
    pub answers: Table,
    pub audit: Table,
}

#[derive(Deserialize)]
pub struct Labels {
    pub contents: String,
    pub summary: String,
    pub services: String,
    pub vendors: String,
    pub appendix: String,
    pub mails: String,
    pub answers: String,
    pub audit: String,
    pub by_status: String,
    pub by_assessment: String,
    pub no_answer: String,
    pub open_requests: String,
    pub overdue: String,
    pub facts: String,
    pub supply_chain: String,
    pub findings: String,
    pub clearance: String,
    pub questions: String,
    pub decision: String,
    pub follow_ups: String,
    pub timeline: String,
    pub incidents: String,
    pub incidents_lead: String,
    pub open_incidents: String,
    pub linked_incidents: String,
    pub advisories: String,
    pub art33: String,
    pub art34: String,
    pub incident_timeline: String,
    pub attachments: String,
    pub why: String,
    pub answer: String,
    pub earlier_answer: String,
    pub review: String,
    pub page: String,
    pub none: String,
}

#[derive(Deserialize)]
pub struct Summary {
    pub figures: Vec<Row>,
    pub by_status: Table,
    pub by_assessment: Table,
    pub open_requests: Table,
    pub overdue: Table,
    pub no_answer: Table,
    pub open_incidents: Table,
    pub advisory_hits: Table,
}

#[derive(Deserialize)]
pub struct Service {
    pub name: String,
    pub facts: Vec<Row>,
    pub supply_chain: Table,
    pub findings: Table,
    pub decision: Vec<Row>,
    pub clearance: Table,
    pub requests: Vec<Request>,
    pub follow_ups: Table,
    pub timeline: Table,
    pub incidents: Table,
    pub advisories: Table,
}

#[derive(Deserialize)]
pub struct Incident {
    pub title: String,
    pub facts: Vec<Row>,
    pub art33: Vec<Row>,
    pub art34: Vec<Row>,
    pub timeline: Table,
}

#[derive(Deserialize)]
pub struct Request {
    pub title: String,
    pub facts: Vec<Row>,
    pub items: Vec<Item>,
    pub attachments: Table,
}

#[derive(Deserialize)]
pub struct Item {
    pub number: String,
    pub question: String,
    pub why: String,
    pub earlier_answer: String,
    pub answer: String,
    pub review: String,
}
