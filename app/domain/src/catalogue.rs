//! Several services at once: the catalogue of widely used AI services
//! (shipped as data in `catalogue/ai-services.json`) and the quick-entry
//! form, where a person ticks services of the catalogue and types rows of
//! their own (name, vendor, who built it in, status).
//!
//! The catalogue names a service, its vendor and the vendor's part in the
//! supply chain, nothing else: what the contract says is for the
//! organisation to find out.

use crate::inventory::{ItemName, ServiceStatus, VendorRole};
use crate::Msg;
use serde::{Deserialize, Serialize};
use std::collections::HashSet;
use std::sync::OnceLock;

/// One service of the catalogue.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CatalogueEntry {
    pub id: String,
    pub name: String,
    pub vendor: String,
    pub role: VendorRole,
}

#[derive(Deserialize)]
struct CatalogueFile {
    services: Vec<CatalogueEntry>,
}

const CATALOGUE: &str = include_str!("../../../catalogue/ai-services.json");

/// The shipped catalogue, in the file's order.
pub fn catalogue() -> &'static [CatalogueEntry] {
    static PARSED: OnceLock<Vec<CatalogueEntry>> = OnceLock::new();
    PARSED.get_or_init(|| {
        serde_json::from_str::<CatalogueFile>(CATALOGUE)
            .expect("catalogue/ai-services.json is checked by its test")
            .services
    })
}

/// At most this many typed rows in one quick entry.
pub const MAX_ROWS: usize = 50;

/// A service of the catalogue as posted: `code` is its id (always sent),
/// `add` is not empty when it was ticked.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct QuickPick {
    pub code: String,
    pub add: String,
    pub status: String,
    pub integrator: String,
}

/// A typed row.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct QuickRow {
    pub name: String,
    pub vendor: String,
    pub integrator: String,
    pub status: String,
}

/// The quick-entry form: the catalogue's services (`picks[i]`, `i` its
/// place in the catalogue) and the typed rows (`rows[i]`).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct QuickForm {
    pub picks: Vec<QuickPick>,
    pub rows: Vec<QuickRow>,
}

/// One service to add.
#[derive(Clone, Debug, PartialEq)]
pub struct QuickLine {
    /// The field names of the line's controls start with this
    /// (`picks[3]`, `rows[0]`): errors found later are put there.
    pub at: String,
    pub name: ItemName,
    pub vendor: ItemName,
    /// The role a vendor made for this line gets.
    pub vendor_role: VendorRole,
    pub integrator: Option<ItemName>,
    pub status: ServiceStatus,
}

/// Errors of repeated rows, by the control's name (`rows[2][name]`).
pub type RowErrors = Vec<(String, Msg)>;

fn status_of(raw: &str) -> Result<ServiceStatus, Msg> {
    if raw.trim().is_empty() {
        Ok(ServiceStatus::InUse)
    } else {
        raw.parse()
    }
}

fn optional_name(raw: &str) -> Result<Option<ItemName>, Msg> {
    if raw.trim().is_empty() {
        Ok(None)
    } else {
        ItemName::parse(raw).map(Some)
    }
}

impl QuickForm {
    /// The services to add, ticked ones first, each row checked on its own;
    /// with any error, every error and nothing to add. Names already in the
    /// inventory are for the caller to check (it knows them).
    pub fn parse(&self) -> Result<Vec<QuickLine>, RowErrors> {
        let (lines, errors) = self.lines();
        if errors.is_empty() {
            Ok(lines)
        } else {
            Err(errors)
        }
    }

    /// The lines that check out and the errors of the others, so that a
    /// caller can add its own findings about the good lines to the errors.
    pub fn lines(&self) -> (Vec<QuickLine>, RowErrors) {
        let mut errors: RowErrors = Vec::new();
        let mut lines = Vec::new();
        if self.picks.len() > catalogue().len() || self.rows.len() > MAX_ROWS {
            return (lines, vec![("rows".to_owned(), Msg::ErrQuickTooMany)]);
        }
        for p in &self.picks {
            let Some(place) = catalogue().iter().position(|e| e.id == p.code.trim()) else {
                errors.push(("picks".to_owned(), Msg::ErrCatalogueUnknown));
                continue;
            };
            let entry = &catalogue()[place];
            let at = format!("picks[{place}]");
            if p.add.trim().is_empty() {
                if !p.integrator.trim().is_empty() {
                    errors.push((format!("{at}[integrator]"), Msg::ErrQuickTickFirst));
                }
                continue;
            }
            let status = status_of(&p.status).map_err(|m| (format!("{at}[status]"), m));
            let integrator =
                optional_name(&p.integrator).map_err(|m| (format!("{at}[integrator]"), m));
            match (status, integrator) {
                (Ok(status), Ok(integrator)) => lines.push(QuickLine {
                    at,
                    name: ItemName::parse(&entry.name).expect("catalogue names are names"),
                    vendor: ItemName::parse(&entry.vendor).expect("catalogue names are names"),
                    vendor_role: entry.role,
                    integrator,
                    status,
                }),
                (s, i) => errors.extend(s.err().into_iter().chain(i.err())),
            }
        }
        for (i, r) in self.rows.iter().enumerate() {
            let at = format!("rows[{i}]");
            if [&r.name, &r.vendor, &r.integrator]
                .iter()
                .all(|v| v.trim().is_empty())
            {
                continue;
            }
            let mut err = |field: &str, m: Msg| errors.push((format!("{at}[{field}]"), m));
            let name = ItemName::parse(&r.name).map_err(|m| err("name", m)).ok();
            let vendor = if r.vendor.trim().is_empty() {
                err("vendor", Msg::ErrVendorNameRequired);
                None
            } else {
                ItemName::parse(&r.vendor)
                    .map_err(|m| err("vendor", m))
                    .ok()
            };
            let integrator = optional_name(&r.integrator)
                .map_err(|m| err("integrator", m))
                .ok();
            let status = status_of(&r.status).map_err(|m| err("status", m)).ok();
            if let (Some(name), Some(vendor), Some(integrator), Some(status)) =
                (name, vendor, integrator, status)
            {
                lines.push(QuickLine {
                    at,
                    name,
                    vendor,
                    vendor_role: VendorRole::Application,
                    integrator,
                    status,
                });
            }
        }
        // A name twice is one service meant once, or a typing slip: either
        // way not two services.
        let mut seen = HashSet::new();
        for l in &lines {
            if !seen.insert(l.name.key()) {
                let field = if l.at.starts_with("picks") {
                    "add"
                } else {
                    "name"
                };
                errors.push((format!("{}[{field}]", l.at), Msg::ErrQuickNameTwice));
            }
        }
        if errors.is_empty() && lines.is_empty() {
            errors.push(("rows".to_owned(), Msg::ErrQuickNothing));
        }
        (lines, errors)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(name: &str) -> usize {
        catalogue().iter().position(|e| e.id == name).unwrap()
    }

    /// The form as the page posts it: every catalogue entry, ticked or not.
    fn picks(ticked: &[&str]) -> Vec<QuickPick> {
        catalogue()
            .iter()
            .map(|e| QuickPick {
                code: e.id.clone(),
                add: if ticked.contains(&e.id.as_str()) {
                    "yes".into()
                } else {
                    String::new()
                },
                status: "in_use".into(),
                integrator: String::new(),
            })
            .collect()
    }

    #[test]
    fn the_catalogue_is_well_formed() {
        let c = catalogue();
        assert!(c.len() >= 10, "a catalogue worth offering");
        let ids: HashSet<&str> = c.iter().map(|e| e.id.as_str()).collect();
        assert_eq!(ids.len(), c.len(), "ids are unique");
        let names: HashSet<String> = c
            .iter()
            .map(|e| ItemName::parse(&e.name).unwrap().key())
            .collect();
        assert_eq!(names.len(), c.len(), "names are unique");
        for e in c {
            ItemName::parse(&e.vendor).unwrap();
            assert!(e
                .id
                .chars()
                .all(|ch| ch.is_ascii_lowercase() || ch.is_ascii_digit() || ch == '-'));
        }
        // One vendor, one role: a vendor is made once with the role of its
        // first service.
        for e in c {
            assert!(
                c.iter()
                    .filter(|o| o.vendor == e.vendor)
                    .all(|o| o.role == e.role),
                "{}",
                e.vendor
            );
        }
    }

    #[test]
    fn ticked_services_and_typed_rows_become_lines() {
        let mut p = picks(&["chatgpt", "deepl"]);
        p[at("deepl")].status = "trial".into();
        let form = QuickForm {
            picks: p,
            rows: vec![
                QuickRow {
                    name: " Till  assistant ".into(),
                    vendor: "Microsoft".into(),
                    integrator: "Kasse & Co IT".into(),
                    status: String::new(),
                },
                QuickRow::default(),
            ],
        };
        let lines = form.parse().unwrap();
        let got: Vec<(&str, &str, Option<&str>, ServiceStatus, VendorRole)> = lines
            .iter()
            .map(|l| {
                (
                    l.name.as_str(),
                    l.vendor.as_str(),
                    l.integrator.as_ref().map(|i| i.as_str()),
                    l.status,
                    l.vendor_role,
                )
            })
            .collect();
        assert_eq!(
            got,
            vec![
                (
                    "ChatGPT",
                    "OpenAI",
                    None,
                    ServiceStatus::InUse,
                    VendorRole::ModelProvider
                ),
                (
                    "DeepL",
                    "DeepL SE",
                    None,
                    ServiceStatus::Trial,
                    VendorRole::Application
                ),
                (
                    "Till assistant",
                    "Microsoft",
                    Some("Kasse & Co IT"),
                    ServiceStatus::InUse,
                    VendorRole::Application
                ),
            ]
        );
        assert_eq!(lines[2].at, "rows[0]");
    }

    #[test]
    fn every_problem_is_named_at_its_control() {
        let mut p = picks(&[]);
        p[0].integrator = "Someone".into();
        p[1].code = "not-this-one".into();
        let form = QuickForm {
            picks: p,
            rows: vec![
                QuickRow {
                    name: "Helper".into(),
                    ..Default::default()
                },
                QuickRow {
                    vendor: "ACME".into(),
                    status: "sold".into(),
                    ..Default::default()
                },
                QuickRow {
                    name: "helper".into(),
                    vendor: "ACME".into(),
                    ..Default::default()
                },
                QuickRow {
                    name: "Helper 2".into(),
                    vendor: "ACME".into(),
                    ..Default::default()
                },
            ],
        };
        let mut errors = form.parse().unwrap_err();
        errors.sort_by(|a, b| a.0.cmp(&b.0));
        assert_eq!(
            errors,
            vec![
                ("picks".to_owned(), Msg::ErrCatalogueUnknown),
                ("picks[0][integrator]".to_owned(), Msg::ErrQuickTickFirst),
                ("rows[0][vendor]".to_owned(), Msg::ErrVendorNameRequired),
                ("rows[1][name]".to_owned(), Msg::ErrItemNameRequired),
                ("rows[1][status]".to_owned(), Msg::ErrChoiceInvalid),
            ]
        );
        // The same name twice (in any case) is refused at the second one.
        let form = QuickForm {
            picks: picks(&["chatgpt"]),
            rows: vec![QuickRow {
                name: "chatgpt".into(),
                vendor: "OpenAI".into(),
                ..Default::default()
            }],
        };
        assert_eq!(
            form.parse().unwrap_err(),
            vec![("rows[0][name]".to_owned(), Msg::ErrQuickNameTwice)]
        );
    }

    #[test]
    fn an_empty_or_oversized_form_is_refused() {
        let empty = QuickForm {
            picks: picks(&[]),
            rows: vec![QuickRow::default(); 5],
        };
        assert_eq!(
            empty.parse().unwrap_err(),
            vec![("rows".to_owned(), Msg::ErrQuickNothing)]
        );
        let many = QuickForm {
            picks: Vec::new(),
            rows: vec![QuickRow::default(); MAX_ROWS + 1],
        };
        assert_eq!(
            many.parse().unwrap_err(),
            vec![("rows".to_owned(), Msg::ErrQuickTooMany)]
        );
    }
}
