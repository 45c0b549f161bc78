//! The dashboards last counted, kept per organisation beside the number of
//! changes they were counted at and the day they were counted for.
//!
//! Triggers raise an organisation's number (`org_changes`, migration 0018)
//! with every write to a table its dashboard counts, in the writer's
//! transaction. A dashboard read first reads that number: when it and the
//! day are those of the kept dashboard, nothing has changed that the
//! counts could show, and the kept one is returned. Otherwise the store
//! counts again, reading the number in the same statement (one snapshot),
//! and keeps the result. Each server process keeps its own; the number
//! lives in the database, so processes never serve each other's old
//! counts.

use crate::inventory::Dashboard;
use aivet_domain::OrgId;
use chrono::NaiveDate;
use std::collections::HashMap;
use std::sync::Mutex;

/// At most this many organisations' dashboards are kept (each a few hundred
/// bytes); the next one empties the map.
const KEPT_AT_MOST: usize = 4096;

#[derive(Default)]
pub(crate) struct KeptDashboards(Mutex<HashMap<OrgId, (i64, NaiveDate, Dashboard)>>);

impl KeptDashboards {
    /// The dashboard kept for `org`, if it was counted at `changes` for `today`.
    pub(crate) fn get(&self, org: OrgId, changes: i64, today: NaiveDate) -> Option<Dashboard> {
        let kept = self.0.lock().unwrap_or_else(|e| e.into_inner());
        match kept.get(&org) {
            Some((n, day, d)) if *n == changes && *day == today => Some(d.clone()),
            _ => None,
        }
    }

    /// Keeps `d`, counted at `changes` for `today`.
    pub(crate) fn keep(&self, org: OrgId, changes: i64, today: NaiveDate, d: &Dashboard) {
        let mut kept = self.0.lock().unwrap_or_else(|e| e.into_inner());
        if kept.len() >= KEPT_AT_MOST && !kept.contains_key(&org) {
            kept.clear();
        }
        kept.insert(org, (changes, today, d.clone()));
    }
}
