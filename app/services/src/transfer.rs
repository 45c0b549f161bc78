//! Moving an organisation between databases: its JSON export
//! (`docs/EXPORT.md`, written by [`crate::report`]) loaded into this one
//! with `aivet import`. The file is checked whole before anything is
//! written (schema, version, the data's hash, every attached file's hash),
//! then the store writes it in one transaction.
//!
//! What the export does not carry is made here: each request gets a new
//! answer link (the old links stop working; reminders still ahead carry the
//! new one), and the jobs still ahead are scheduled again — the deadlines
//! not yet passed, the next reminder of requests still waiting, the Art. 33
//! alerts of incidents not decided.

use crate::questions::ANSWER;
use crate::report::{Export, EXPORT_SCHEMA};
use crate::secrets::new_token;
use crate::Services;
use aivet_domain::incident::IncidentState;
use aivet_domain::jobs::Job;
use aivet_domain::questions::{RequestStatus, LINK_DAYS_AFTER_DEADLINE};
use aivet_domain::report::{canonical_sha256, Scope, SCHEMA_VERSION};
use aivet_domain::AttachmentId;
use aivet_store::jobs::Later;
use aivet_store::transfer::{Imported, NewLink, OrgImport};
use aivet_store::{AuditEvent, StoreError};
use base64::Engine;
use chrono::Duration;
use std::collections::HashMap;
use std::fmt;

/// Why a file was not imported. Nothing was written in any case.
#[derive(Debug)]
pub enum ImportError {
    /// Not JSON at all (with the parser's line and column).
    NotJson(String),
    /// JSON, but not an aivet export.
    NotAnExport,
    /// An export of a schema version this one does not read.
    Version(u64),
    /// The data does not have the hash the file states: changed after export.
    HashMismatch { stated: String, actual: String },
    /// The data does not fit the schema (the field and what is wrong).
    Malformed(String),
    /// A report of a selection: only a whole organisation can be imported.
    NotWhole,
    /// An attachment's content is missing or not what its hash says.
    File(AttachmentId, &'static str),
    /// Another organisation here has this slug.
    SlugTaken(String),
    /// The organisation itself is here already.
    OrgExists(String),
    /// The database refused the data (its message).
    Refused(String),
}

impl fmt::Display for ImportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ImportError::NotJson(e) => write!(f, "the file is not JSON: {e}"),
            ImportError::NotAnExport => write!(
                f,
                "the file is not an aivet export (its \"schema\" is not \"{EXPORT_SCHEMA}\")"
            ),
            ImportError::Version(v) => write!(
                f,
                "the file is an export of schema version {v}; this aivet reads version {SCHEMA_VERSION}"
            ),
            ImportError::HashMismatch { stated, actual } => write!(
                f,
                "the file's data does not match its data_sha256 (stated {stated}, computed {actual}): \
                 it was changed after the export"
            ),
            ImportError::Malformed(e) => write!(f, "the file's data does not fit the schema: {e}"),
            ImportError::NotWhole => write!(
                f,
                "the file holds a selection of services; only an export of a whole organisation can be imported"
            ),
            ImportError::File(id, what) => write!(f, "attachment {id}: {what}"),
            ImportError::SlugTaken(slug) => write!(
                f,
                "an organisation with the slug {slug:?} exists in this database; nothing was imported"
            ),
            ImportError::OrgExists(slug) => write!(
                f,
                "the organisation {slug:?} is in this database already (under this or another slug); nothing was imported"
            ),
            ImportError::Refused(e) => {
                write!(f, "the database refused the data, nothing was imported: {e}")
            }
        }
    }
}

impl std::error::Error for ImportError {}

/// What an import did, for the person who ran it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ImportSummary {
    pub slug: String,
    pub name: String,
    pub services: usize,
    pub requests: usize,
    pub incidents: usize,
    pub imported: Imported,
}

impl Services {
    /// Loads the export in `bytes` into this database, all or nothing.
    pub async fn import_export(&self, bytes: &[u8]) -> Result<ImportSummary, ImportError> {
        let value: serde_json::Value =
            serde_json::from_slice(bytes).map_err(|e| ImportError::NotJson(e.to_string()))?;
        if value.get("schema").and_then(|s| s.as_str()) != Some(EXPORT_SCHEMA) {
            return Err(ImportError::NotAnExport);
        }
        let version = value.get("version").and_then(|v| v.as_u64()).unwrap_or(0);
        if version != u64::from(SCHEMA_VERSION) {
            return Err(ImportError::Version(version));
        }
        // The hash is of the data as written, so a file of an earlier
        // release (without the sections added since) checks too.
        let actual = canonical_sha256(value.get("data").unwrap_or(&serde_json::Value::Null));
        let stated = value
            .get("data_sha256")
            .and_then(|s| s.as_str())
            .unwrap_or("")
            .to_owned();
        if stated != actual {
            return Err(ImportError::HashMismatch { stated, actual });
        }
        let export: Export =
            serde_json::from_value(value).map_err(|e| ImportError::Malformed(e.to_string()))?;
        let data = export.data;
        if data.scope != Scope::All {
            return Err(ImportError::NotWhole);
        }
        let mut files = HashMap::new();
        for f in export.files {
            let content = base64::engine::general_purpose::STANDARD
                .decode(f.base64.as_bytes())
                .map_err(|_| ImportError::File(f.attachment, "its content is not base64"))?;
            if crate::report::sha256_hex(&content) != f.sha256 {
                return Err(ImportError::File(
                    f.attachment,
                    "its content does not match its sha256",
                ));
            }
            files.insert(f.attachment, content);
        }
        for r in &data.questions.requests {
            for a in &r.attachments {
                if !files.contains_key(&a.id) {
                    return Err(ImportError::File(a.id, "its content is not in the file"));
                }
            }
        }

        let now = self.clock.now();
        let zone = data.organisation.time_zone;
        let today = zone.today(now);
        let sealer = self.link_sealer();
        let mut links = HashMap::new();
        let mut later = Vec::new();
        for r in &data.questions.requests {
            let token = new_token();
            links.insert(
                r.id,
                NewLink {
                    token_hash: self.key.hash(ANSWER, &token),
                    token_sealed: sealer.seal(token.as_bytes()),
                    expires_at: zone.end_of(r.deadline + Duration::days(LINK_DAYS_AFTER_DEADLINE)),
                },
            );
            let waiting = r.status != RequestStatus::Submitted
                && r.revoked_at.is_none()
                && r.no_answer_at.is_none();
            if !waiting {
                continue;
            }
            let deadline_ends = zone.end_of(r.deadline);
            if deadline_ends > now {
                later.push(Later {
                    job: Job::DeadlinePassed { request: r.id },
                    run_at: deadline_ends,
                });
            }
            if r.reminders {
                later.extend(crate::reminders::first_reminder(
                    r.id, r.deadline, zone, today,
                ));
            }
        }
        for i in &data.incidents {
            if i.state == IncidentState::Open && i.personal_data && i.art33.is_none() {
                for (hours, run_at) in aivet_domain::incident::alerts_after(i.we_aware_at, now) {
                    later.push(Later {
                        job: Job::Art33Alert {
                            incident: i.id,
                            hours,
                            aware: i.we_aware_at,
                        },
                        run_at,
                    });
                }
            }
        }

        let summary = |imported| ImportSummary {
            slug: data.organisation.slug.clone(),
            name: data.organisation.name.clone(),
            services: data.inventory.services.len(),
            requests: data.questions.requests.len(),
            incidents: data.incidents.len(),
            imported,
        };
        let slug = data.organisation.slug.clone();
        let org = data.organisation.id;
        let import = OrgImport {
            data: data.clone(),
            files,
            links,
            later,
            locked_password: LOCKED_PASSWORD.to_owned(),
        };
        let event = AuditEvent::OrgImported { sha256: actual };
        let imported = match self.store.import_org(&import, event, now).await {
            Ok(i) => i,
            Err(StoreError::NameTaken) => return Err(ImportError::SlugTaken(slug)),
            Err(StoreError::OrgExists) => return Err(ImportError::OrgExists(slug)),
            Err(e) => return Err(ImportError::Refused(e.to_string())),
        };
        // Which services an advisory hits is kept, not exported: match
        // them here (a failure leaves it to the hourly sweep).
        if let Err(e) = self.rematch_advisories(org).await {
            tracing::warn!(error = %e, "matching the imported organisation's engines failed");
        }
        Ok(summary(imported))
    }
}

/// The password hash of accounts an import makes: not a hash at all, so
/// no password matches it until its owner sets one ("Forgot password").
const LOCKED_PASSWORD: &str = "!imported: set a password with \"Forgot password\"";
