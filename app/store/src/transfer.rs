//! Loading one organisation's JSON export (`docs/EXPORT.md`) into this
//! database: how an organisation moves from SQLite to PostgreSQL, or to
//! another instance. Everything is written in one transaction, so a file
//! that cannot be loaded leaves nothing behind. The SQL is in
//! `transfer_sql.rs`; the services check the file and prepare what the
//! export does not carry (new answer links, the jobs still ahead).

use crate::jobs::Later;
use crate::{AuditEvent, Result};
use aivet_domain::report::ReportData;
use aivet_domain::{AttachmentId, OrgId, RequestId};
use async_trait::async_trait;
use chrono::{DateTime, Utc};
use std::collections::HashMap;

/// A request's answer link in this database (the export holds no links:
/// the old ones stop working, the reminders still ahead carry the new one).
#[derive(Clone, Debug)]
pub struct NewLink {
    pub token_hash: Vec<u8>,
    pub token_sealed: Vec<u8>,
    pub expires_at: DateTime<Utc>,
}

/// What an import writes.
#[derive(Clone, Debug)]
pub struct OrgImport {
    pub data: ReportData,
    /// The attached documents' contents.
    pub files: HashMap<AttachmentId, Vec<u8>>,
    /// One per request of `data`.
    pub links: HashMap<RequestId, NewLink>,
    /// The jobs still ahead (deadlines, reminders, Art. 33 alerts).
    pub later: Vec<Later>,
    /// The password hash of members new to this database: one that no
    /// password matches (they choose one with "Forgot password").
    pub locked_password: String,
}

/// What an import did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Imported {
    pub org: OrgId,
    /// Members who had no account in this database (emails).
    pub new_accounts: Vec<String>,
    /// Members who had one already and keep it (emails).
    pub existing_accounts: Vec<String>,
}

#[async_trait]
pub trait TransferStore: Send + Sync {
    /// Writes the organisation of `import` with the ids it had, all or
    /// nothing. `NameTaken` when its slug is in use here, `OrgExists` when
    /// the organisation itself is (under any slug).
    async fn import_org(
        &self,
        import: &OrgImport,
        event: AuditEvent,
        now: DateTime<Utc>,
    ) -> Result<Imported>;
}
