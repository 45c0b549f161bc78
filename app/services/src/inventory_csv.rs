//! The inventory as CSV: the export (safe to open in a spreadsheet) and the
//! import of services (checked row by row before anything is written, then
//! written all at once or not at all).
//!
//! An exported file imports again: the import reads the export's columns by
//! name and ignores the ones it does not know (findings, times).

use crate::inventory::{inventory_error, require_editor, VendorNames};
use crate::{Auth, ServiceError, Services};
use aivet_domain::inventory::{
    AuthorityNotifier, Deployment, FindingTopic, ItemName, ServiceForm, ServiceStatus, VendorRole,
};
use aivet_domain::{Lang, Msg, VendorId};
use aivet_store::inventory::{ImportVendor, ServiceDetail, VendorQuery};
use aivet_store::AuditEvent;
use std::collections::HashMap;
use std::str::FromStr;

type Result<T> = std::result::Result<T, ServiceError>;

/// The most rows one import takes.
pub const MAX_IMPORT_ROWS: usize = 5000;

/// The columns the import reads, in the template's order. `name` and
/// `vendor` are required; vendors are named, and created when missing.
pub const IMPORT_COLUMNS: &[&str] = &[
    "name",
    "purpose",
    "vendor",
    "integrator",
    "model_provider",
    "inference_host",
    "model",
    "engine",
    "deployment",
    "owner",
    "status",
    "data_classes",
    "dpa_signed_on",
    "dpa_url",
    "notice_hours",
    "notice_channel",
    "authority_notifier",
];

/// Separates several data classes inside one cell.
const CLASS_SEPARATOR: char = '|';

/// What a spreadsheet reads as the start of a formula (OWASP "CSV
/// injection").
const FORMULA_STARTS: &[char] = &['=', '+', '-', '@', '\t', '\r'];

/// Where a spreadsheet may start a new cell: the separators of both
/// conventions (the comma of English spreadsheets, the semicolon of German
/// and Norwegian ones, which also split a comma file's cells at it) and line
/// breaks.
const CELL_STARTS: &[char] = &[',', ';', '\n', '\r'];

/// Rewrites each place where a spreadsheet may start a cell that opens with
/// apostrophes and then a formula character: `apostrophes(n)` says how many
/// apostrophes to write instead of the `n` found there.
fn at_cell_starts(cell: &str, apostrophes: fn(usize) -> usize) -> String {
    let chars: Vec<char> = cell.chars().collect();
    let mut out = String::with_capacity(cell.len() + 2);
    let mut i = 0;
    let mut at_start = true;
    while i < chars.len() {
        if at_start {
            let n = chars[i..].iter().take_while(|c| **c == '\'').count();
            if chars.get(i + n).is_some_and(|c| FORMULA_STARTS.contains(c)) {
                out.extend(std::iter::repeat_n('\'', apostrophes(n)));
                i += n;
            }
        }
        out.push(chars[i]);
        at_start = CELL_STARTS.contains(&chars[i]);
        i += 1;
    }
    out
}

/// A cell that a spreadsheet would run as a formula — at its start, or
/// after a separator or line break inside it — gets an apostrophe there
/// (one more, where apostrophes stand there already); the import takes it
/// off again.
pub fn defuse(cell: &str) -> String {
    at_cell_starts(cell, |n| n + 1)
}

fn undefuse(cell: &str) -> String {
    at_cell_starts(cell, |n| n.saturating_sub(1))
}

/// One CSV line, comma-separated. A field holding a separator of either
/// convention, a tab, a line break or a quote is quoted, so that a
/// spreadsheet splitting at semicolons keeps it whole too.
pub(crate) fn csv_line<S: AsRef<str>>(out: &mut String, fields: impl IntoIterator<Item = S>) {
    csv_line_with(out, fields, ',')
}

pub(crate) fn csv_line_with<S: AsRef<str>>(
    out: &mut String,
    fields: impl IntoIterator<Item = S>,
    separator: char,
) {
    for (i, field) in fields.into_iter().enumerate() {
        let field = field.as_ref();
        if i > 0 {
            out.push(separator);
        }
        if field.contains([',', ';', '\t', '\n', '\r', '"']) {
            out.push('"');
            out.push_str(&field.replace('"', "\"\""));
            out.push('"');
        } else {
            out.push_str(field);
        }
    }
    out.push_str("\r\n");
}

/// The import template: the header and one example row.
pub fn template() -> String {
    let mut out = String::new();
    csv_line(&mut out, IMPORT_COLUMNS);
    csv_line(
        &mut out,
        [
            "Support chat assistant",
            "Answers customer questions on our website",
            "Example AI Ltd",
            "Example IT Services",
            "",
            "",
            "example-model 2026-10",
            "SGLang 0.5.19",
            "shared",
            "",
            "in_use",
            "Internal|Personal data",
            "2026-01-15",
            "https://example.com/dpa.pdf",
            "72",
            "email to security@",
            "vendor",
        ],
    );
    out
}

/// One problem of an import, where it is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RowError {
    /// The line of the file (the header is line 1).
    pub row: usize,
    pub column: String,
    pub msg: Msg,
}

/// What an import would do.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ImportPlan {
    pub rows: usize,
    pub errors: Vec<RowError>,
    /// Vendors the import creates, by name.
    pub new_vendors: Vec<String>,
}

/// A choice given by its code or by its label in any language; answers the code.
fn parse_choice<T: Copy + FromStr<Err = Msg>>(
    cell: &str,
    all: &[T],
    label: fn(T) -> Msg,
    code: fn(T) -> &'static str,
) -> std::result::Result<String, Msg> {
    let cell = cell.trim();
    if cell.is_empty() {
        return Ok(String::new());
    }
    if let Ok(v) = cell.parse::<T>() {
        return Ok(code(v).to_owned());
    }
    let wanted = cell.to_lowercase();
    all.iter()
        .find(|v| {
            Lang::ALL
                .iter()
                .any(|l| label(**v).text(*l).to_lowercase() == wanted)
        })
        .map(|v| code(*v).to_owned())
        .ok_or(Msg::ErrChoiceInvalid)
}

/// The line of a quote that is never closed (the CSV reader would silently
/// take the rest of the file into one cell).
fn unclosed_quote(text: &str) -> Option<usize> {
    let (mut line, mut open_at, mut quoted) = (1, 0, false);
    for c in text.chars() {
        match c {
            '"' => {
                quoted = !quoted;
                if quoted {
                    open_at = line;
                }
            }
            '\n' => line += 1,
            _ => {}
        }
    }
    quoted.then_some(open_at)
}

/// The column names (lower case) and the non-empty rows with their line numbers.
type Records = (Vec<String>, Vec<(usize, Vec<String>)>);

/// Reads CSV text (UTF-8, with or without BOM; comma or semicolon).
fn read_records(text: &str) -> std::result::Result<Records, Vec<RowError>> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let first_line = text.lines().next().unwrap_or("");
    let delimiter = if first_line.matches(';').count() > first_line.matches(',').count() {
        b';'
    } else {
        b','
    };
    if let Some(line) = unclosed_quote(text) {
        return Err(vec![RowError {
            row: line,
            column: String::new(),
            msg: Msg::ErrCsvUnreadable,
        }]);
    }
    let mut reader = csv::ReaderBuilder::new()
        .delimiter(delimiter)
        .flexible(true)
        .has_headers(true)
        .from_reader(text.as_bytes());
    let headers: Vec<String> = match reader.headers() {
        Ok(h) => h.iter().map(|c| c.trim().to_lowercase()).collect(),
        Err(_) => {
            return Err(vec![RowError {
                row: 1,
                column: String::new(),
                msg: Msg::ErrCsvUnreadable,
            }])
        }
    };
    let mut rows = Vec::new();
    let mut errors = Vec::new();
    for record in reader.records() {
        match record {
            Ok(r) => {
                let line = r.position().map(|p| p.line() as usize).unwrap_or(0);
                if r.iter().all(|c| c.trim().is_empty()) {
                    continue;
                }
                rows.push((line, r.iter().map(undefuse).collect()));
            }
            Err(e) => errors.push(RowError {
                row: e.position().map(|p| p.line() as usize).unwrap_or(0),
                column: String::new(),
                msg: Msg::ErrCsvUnreadable,
            }),
        }
    }
    if errors.is_empty() {
        Ok((headers, rows))
    } else {
        Err(errors)
    }
}

/// Which form field a column fills, for error messages.
fn column_of(field: &str) -> &str {
    match field {
        "vendor_id" => "vendor",
        "integrator_id" => "integrator",
        "model_provider_id" => "model_provider",
        "inference_host_id" => "inference_host",
        "owner_id" => "owner",
        other => other,
    }
}

struct Checked {
    plan: ImportPlan,
    vendors: Vec<ImportVendor>,
    services: Vec<aivet_domain::inventory::ServiceDraft>,
}

impl Services {
    /// Checks an import without writing anything.
    pub async fn import_preview(&self, auth: &Auth, csv_text: &str) -> Result<ImportPlan> {
        Ok(self.check_import(auth, csv_text).await?.plan)
    }

    /// Writes an import that checks out; with any error nothing is written.
    pub async fn import_commit(&self, auth: &Auth, csv_text: &str) -> Result<usize> {
        let checked = self.check_import(auth, csv_text).await?;
        if !checked.plan.errors.is_empty() || checked.services.is_empty() {
            return Err(ServiceError::Invalid(vec![(
                "csv",
                Msg::ErrImportNotChecked,
            )]));
        }
        let t = auth.tenant()?;
        let event = AuditEvent::ServicesImported {
            services: checked.services.len(),
            new_vendors: checked.vendors.len(),
        };
        let ids = self
            .store
            .import_services(
                t,
                &checked.vendors,
                &checked.services,
                &[event],
                self.clock.now(),
            )
            .await
            .map_err(inventory_error(Msg::ErrVendorInUse))?;
        self.rematch_advisories(t.org_id()).await?;
        Ok(ids.len())
    }

    async fn check_import(&self, auth: &Auth, csv_text: &str) -> Result<Checked> {
        let t = auth.tenant()?;
        require_editor(t)?;
        let mut plan = ImportPlan {
            rows: 0,
            errors: Vec::new(),
            new_vendors: Vec::new(),
        };
        let empty = || Checked {
            plan: ImportPlan {
                rows: 0,
                errors: Vec::new(),
                new_vendors: Vec::new(),
            },
            vendors: Vec::new(),
            services: Vec::new(),
        };
        let (headers, rows) = match read_records(csv_text) {
            Ok(r) => r,
            Err(errors) => {
                let mut c = empty();
                c.plan.errors = errors;
                return Ok(c);
            }
        };
        // Only the first of two columns of one name would be read: the other
        // one's values would be dropped without a word.
        for (i, h) in headers.iter().enumerate() {
            let first_repeat = headers[..i].iter().filter(|x| *x == h).count() == 1;
            if !h.is_empty() && first_repeat {
                plan.errors.push(RowError {
                    row: 1,
                    column: h.clone(),
                    msg: Msg::ErrCsvColumnTwice,
                });
            }
        }
        for required in ["name", "vendor"] {
            if !headers.iter().any(|h| h == required) {
                plan.errors.push(RowError {
                    row: 1,
                    column: required.to_owned(),
                    msg: Msg::ErrCsvColumnMissing,
                });
            }
        }
        if rows.is_empty() {
            plan.errors.push(RowError {
                row: 2,
                column: String::new(),
                msg: Msg::ErrCsvEmpty,
            });
        }
        if rows.len() > MAX_IMPORT_ROWS {
            plan.errors.push(RowError {
                row: rows[MAX_IMPORT_ROWS].0,
                column: String::new(),
                msg: Msg::ErrCsvTooMany,
            });
        }
        if !plan.errors.is_empty() {
            return Ok(Checked {
                plan,
                vendors: Vec::new(),
                services: Vec::new(),
            });
        }
        plan.rows = rows.len();

        // What the organisation has, by the names people write.
        let mut vendor_names = VendorNames::of(self, t).await?;
        let members: HashMap<String, String> = self
            .store
            .members(t)
            .await?
            .into_iter()
            .map(|m| (m.email.to_lowercase(), m.id.to_string()))
            .collect();
        let classes: HashMap<String, String> = self
            .store
            .data_classes(t)
            .await?
            .into_iter()
            .map(|c| (c.name.to_lowercase(), c.id.to_string()))
            .collect();
        let existing_services: std::collections::HashSet<String> =
            self.store.service_name_keys(t).await?.into_iter().collect();

        let mut seen_names: HashMap<String, usize> = HashMap::new();
        let mut services = Vec::new();
        for (line, cells) in rows {
            let cell = |column: &str| -> String {
                headers
                    .iter()
                    .position(|h| h == column)
                    .and_then(|i| cells.get(i))
                    .map(|c| c.trim().to_owned())
                    .unwrap_or_default()
            };
            let mut err = |column: &str, msg: Msg| {
                plan.errors.push(RowError {
                    row: line,
                    column: column.to_owned(),
                    msg,
                })
            };
            // Vendors by name; a missing one is created once, with the role
            // of the column it first appears in.
            let mut vendor_cell = |column: &str, role: VendorRole| -> String {
                let raw = cell(column);
                if raw.is_empty() {
                    return String::new();
                }
                let name = match ItemName::parse(&raw) {
                    Ok(n) => n,
                    Err(m) => {
                        err(column, m);
                        return String::new();
                    }
                };
                let id = vendor_names.id(&name, role);
                id.to_string()
            };
            let vendor_id = vendor_cell("vendor", VendorRole::Application);
            let integrator_id = vendor_cell("integrator", VendorRole::Integrator);
            let model_provider_id = vendor_cell("model_provider", VendorRole::ModelProvider);
            let inference_host_id = vendor_cell("inference_host", VendorRole::InferenceHost);
            let mut err = |column: &str, msg: Msg| {
                plan.errors.push(RowError {
                    row: line,
                    column: column.to_owned(),
                    msg,
                })
            };
            let owner = cell("owner");
            let owner_id = if owner.is_empty() {
                String::new()
            } else {
                match members.get(&owner.to_lowercase()) {
                    Some(id) => id.clone(),
                    None => {
                        err("owner", Msg::ErrOwnerUnknown);
                        String::new()
                    }
                }
            };
            let mut data_classes = Vec::new();
            for name in cell("data_classes").split(CLASS_SEPARATOR) {
                let name = name.trim();
                if name.is_empty() {
                    continue;
                }
                match classes.get(&name.to_lowercase()) {
                    Some(id) => data_classes.push(id.clone()),
                    None => {
                        err("data_classes", Msg::ErrDataClassUnknown);
                        break;
                    }
                }
            }
            let mut choice = |column: &str, r: std::result::Result<String, Msg>| match r {
                Ok(code) => code,
                Err(m) => {
                    err(column, m);
                    String::new()
                }
            };
            let deployment = choice(
                "deployment",
                parse_choice(
                    &cell("deployment"),
                    Deployment::ALL,
                    Deployment::label,
                    Deployment::as_str,
                ),
            );
            let status = choice(
                "status",
                parse_choice(
                    &cell("status"),
                    ServiceStatus::ALL,
                    ServiceStatus::label,
                    ServiceStatus::as_str,
                ),
            );
            let authority_notifier = choice(
                "authority_notifier",
                parse_choice(
                    &cell("authority_notifier"),
                    AuthorityNotifier::ALL,
                    AuthorityNotifier::label,
                    AuthorityNotifier::as_str,
                ),
            );
            // Free text that clearly names an engine fills the structured
            // fields too ("sglang 0.5.20").
            let parsed = aivet_domain::advisory::parse_engine(&cell("engine"));
            let form = ServiceForm {
                engine_kind: parsed
                    .as_ref()
                    .map(|(e, _)| e.as_str().to_owned())
                    .unwrap_or_default(),
                engine_version: parsed.and_then(|(_, v)| v).unwrap_or_default(),
                engine_source: String::new(),
                name: cell("name"),
                purpose: cell("purpose"),
                vendor_id,
                integrator_id,
                model_provider_id,
                inference_host_id,
                model: cell("model"),
                engine: cell("engine"),
                deployment,
                owner_id,
                status,
                data_classes,
                dpa_signed_on: cell("dpa_signed_on"),
                dpa_url: cell("dpa_url"),
                notice_hours: cell("notice_hours"),
                notice_channel: cell("notice_channel"),
                authority_notifier,
                ..Default::default()
            };
            if let Ok(name) = ItemName::parse(&form.name) {
                if existing_services.contains(&name.key()) {
                    err("name", Msg::ErrNameTaken);
                } else if seen_names.insert(name.key(), line).is_some() {
                    err("name", Msg::ErrDuplicateInFile);
                }
            }
            match form.parse() {
                Ok(draft) => services.push(draft),
                Err(fields) => {
                    for (field, msg) in fields {
                        // A vendor column already reported is not reported twice.
                        let column = column_of(field);
                        if !plan
                            .errors
                            .iter()
                            .any(|e| e.row == line && e.column == column)
                        {
                            plan.errors.push(RowError {
                                row: line,
                                column: column.to_owned(),
                                msg,
                            });
                        }
                    }
                }
            }
        }
        let new_vendors = vendor_names.new;
        plan.new_vendors = new_vendors
            .iter()
            .map(|v| v.draft.name.as_str().to_owned())
            .collect();
        Ok(Checked {
            plan,
            vendors: new_vendors,
            services,
        })
    }

    /// The whole inventory of services as CSV. `for_excel` in a language:
    /// starts with a byte-order mark so that spreadsheet programs read it as
    /// UTF-8, and separates with the character Excel expects there (`;`
    /// in German and Norwegian, where `,` is the decimal mark).
    pub async fn export_csv(&self, auth: &Auth, for_excel: Option<Lang>) -> Result<String> {
        let t = auth.tenant()?;
        let details = self.store.service_details(t).await?;
        let vendors: HashMap<VendorId, String> = self
            .store
            .vendors(
                t,
                &VendorQuery {
                    archived: true,
                    ..Default::default()
                },
            )
            .await?
            .into_iter()
            .map(|v| (v.id, v.name))
            .collect();
        let members: HashMap<aivet_domain::MembershipId, String> = self
            .store
            .members(t)
            .await?
            .into_iter()
            .map(|m| (m.id, m.email))
            .collect();
        let classes: HashMap<aivet_domain::DataClassId, String> = self
            .store
            .data_classes(t)
            .await?
            .into_iter()
            .map(|c| (c.id, c.name))
            .collect();
        let mut header: Vec<String> = IMPORT_COLUMNS.iter().map(|c| (*c).to_owned()).collect();
        for topic in FindingTopic::ALL {
            for part in ["status", "summary", "source", "checked_on"] {
                header.push(format!("{topic}_{part}"));
            }
        }
        header.extend(["archived".to_owned(), "updated_at".to_owned()]);
        let mut text = String::from(if for_excel.is_some() { "\u{feff}" } else { "" });
        let separator = excel_separator(for_excel);
        csv_line_with(&mut text, &header, separator);
        for d in &details {
            csv_line_with(
                &mut text,
                export_row(d, &vendors, &members, &classes)
                    .iter()
                    .map(|c| defuse(c)),
                separator,
            );
        }
        Ok(text)
    }
}

/// The field separator of a CSV file for Excel in this language (none: a
/// plain CSV file).
pub fn excel_separator(for_excel: Option<Lang>) -> char {
    match for_excel {
        Some(Lang::De | Lang::Nb) => ';',
        Some(Lang::En) | None => ',',
    }
}

fn export_row(
    d: &ServiceDetail,
    vendors: &HashMap<VendorId, String>,
    members: &HashMap<aivet_domain::MembershipId, String>,
    classes: &HashMap<aivet_domain::DataClassId, String>,
) -> Vec<String> {
    let s = &d.service;
    let vendor = |id: Option<VendorId>| {
        id.and_then(|i| vendors.get(&i).cloned())
            .unwrap_or_default()
    };
    let opt = |o: &Option<String>| o.clone().unwrap_or_default();
    let mut row = vec![
        s.name.clone(),
        opt(&s.purpose),
        vendor(Some(s.vendor_id)),
        vendor(s.integrator_id),
        vendor(s.model_provider_id),
        vendor(s.inference_host_id),
        opt(&s.model),
        opt(&s.engine),
        s.deployment.as_str().to_owned(),
        s.owner_id
            .and_then(|o| members.get(&o).cloned())
            .unwrap_or_default(),
        s.status.as_str().to_owned(),
        d.data_classes
            .iter()
            .filter_map(|c| classes.get(c).cloned())
            .collect::<Vec<_>>()
            .join(&CLASS_SEPARATOR.to_string()),
        s.dpa_signed_on.map(|d| d.to_string()).unwrap_or_default(),
        opt(&s.dpa_url),
        s.notice_hours.map(|h| h.to_string()).unwrap_or_default(),
        opt(&s.notice_channel),
        s.authority_notifier.as_str().to_owned(),
    ];
    for topic in FindingTopic::ALL {
        match d.findings.iter().find(|f| f.topic == *topic) {
            Some(f) => row.extend([
                f.status.as_str().to_owned(),
                opt(&f.summary),
                opt(&f.source_url),
                f.checked_on.map(|d| d.to_string()).unwrap_or_default(),
            ]),
            None => row.extend([
                "unknown".to_owned(),
                String::new(),
                String::new(),
                String::new(),
            ]),
        }
    }
    row.push(if s.archived_at.is_some() { "yes" } else { "no" }.to_owned());
    row.push(s.updated_at.format("%Y-%m-%dT%H:%M:%SZ").to_string());
    row
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Cells that a spreadsheet could run, at the start or after a
    /// separator of either convention or a line break.
    const HOSTILE: &[&str] = &[
        "=HYPERLINK(\"http://x\")",
        "+1",
        "-2+3",
        "@SUM(A1)",
        "\tx",
        "\rx",
        "x;=cmd|' /C calc'!A0",
        "x,=cmd|' /C calc'!A0",
        "a;b;+c",
        "line\n=1+1",
        "line\r\n@x",
        ";;=x",
        ",-x;",
        "'=already quoted",
        "''@twice",
        "x;'+y",
        "'quoted on purpose",
        "\"=quoted\";=\"x\"",
        "semi;colon",
        "plain",
        "",
    ];

    /// Whether a spreadsheet would read `cell` (one cell as a reader split
    /// it) as a formula.
    fn runs(cell: &str) -> bool {
        cell.starts_with(FORMULA_STARTS)
    }

    #[test]
    fn formulas_are_defused_and_restored() {
        for hostile in HOSTILE {
            let safe = defuse(hostile);
            assert_eq!(undefuse(&safe), *hostile, "{hostile:?} round-trips");
            for part in safe.split(CELL_STARTS) {
                assert!(!runs(part), "{hostile:?} -> {safe:?}");
            }
            assert!(!runs(&safe), "{hostile:?} -> {safe:?}");
        }
        assert_eq!(defuse("plain"), "plain");
        assert_eq!(defuse("x;=y"), "x;'=y");
        assert_eq!(undefuse("'quoted on purpose"), "'quoted on purpose");
    }

    /// A whole file of hostile cells, read back by the csv crate as English
    /// spreadsheets split (commas) and as German and Norwegian ones do
    /// (semicolons): the comma reader gets every cell back as written; no
    /// cell of either reader starts a formula.
    #[test]
    fn hostile_files_are_safe_with_either_separator() {
        let mut text = String::new();
        csv_line(&mut text, ["name", "purpose", "model"]);
        for pair in HOSTILE.chunks(2) {
            let row: Vec<String> = [pair[0], pair.get(1).copied().unwrap_or(""), "tail"]
                .iter()
                .map(|c| defuse(c))
                .collect();
            csv_line(&mut text, &row);
        }
        let read = |delimiter: u8| -> Vec<Vec<String>> {
            csv::ReaderBuilder::new()
                .delimiter(delimiter)
                .flexible(true)
                .has_headers(false)
                .from_reader(text.as_bytes())
                .records()
                .map(|r| r.unwrap().iter().map(str::to_owned).collect())
                .collect()
        };
        let by_comma = read(b',');
        for (row, pair) in by_comma[1..].iter().zip(HOSTILE.chunks(2)) {
            assert_eq!(row.len(), 3, "{row:?}");
            assert_eq!(undefuse(&row[0]), pair[0]);
            assert_eq!(undefuse(&row[1]), pair.get(1).copied().unwrap_or(""));
        }
        for cells in [by_comma, read(b';')] {
            for cell in cells.iter().flatten() {
                assert!(!runs(cell), "a spreadsheet would run {cell:?}");
            }
        }
        // The file's text split at every separator and line break, quotes
        // or not: no piece starts a formula either.
        for piece in text.split(CELL_STARTS) {
            assert!(!runs(piece), "{piece:?}");
        }
        let (_, rows) = read_records(&text).unwrap();
        let purposes: Vec<&str> = rows.iter().map(|(_, r)| r[0].as_str()).collect();
        let expected: Vec<&str> = HOSTILE.iter().step_by(2).copied().collect();
        assert_eq!(
            purposes, expected,
            "the import reads them back as they were"
        );
    }

    #[test]
    fn the_template_has_every_import_column() {
        let t = template();
        let first = t.lines().next().unwrap();
        assert_eq!(first.split(',').collect::<Vec<_>>(), IMPORT_COLUMNS);
    }

    #[test]
    fn an_unclosed_quote_is_reported_where_it_opens() {
        assert_eq!(unclosed_quote("a,b\n\"x\"\"y\",z\n"), None);
        assert_eq!(unclosed_quote("a,b\nc,d\n\"open,e\nf\n"), Some(3));
        let errors = read_records("name,vendor\n\"unterminated,x\n").unwrap_err();
        assert_eq!((errors[0].row, errors[0].msg), (2, Msg::ErrCsvUnreadable));
    }

    #[test]
    fn semicolons_and_a_bom_are_read() {
        let (headers, rows) = read_records("\u{feff}Name;Vendor\nA;B\n\n").unwrap();
        assert_eq!(headers, ["name", "vendor"]);
        assert_eq!(rows, vec![(2, vec!["A".to_owned(), "B".to_owned()])]);
    }

    #[test]
    fn choices_accept_labels_in_every_language() {
        let p = |s: &str| {
            parse_choice(
                s,
                ServiceStatus::ALL,
                ServiceStatus::label,
                ServiceStatus::as_str,
            )
        };
        assert_eq!(p("in_use"), Ok("in_use".into()));
        assert_eq!(p("In Nutzung"), Ok("in_use".into()));
        assert_eq!(p("avviklet"), Ok("retired".into()));
        assert_eq!(p(""), Ok("".into()));
        assert_eq!(p("maybe"), Err(Msg::ErrChoiceInvalid));
    }
}
