//! Server functions of the Reports page: the services to choose from and
//! the earlier exports. The downloads themselves are a plain form posted
//! to `/reports/download` (see the server's `reports` module).

use super::Named;
use crate::error::AppError;
use aivet_domain::report::ReportFormat;
use aivet_domain::{Lang, ServiceId};
use chrono::{DateTime, Utc};
use leptos::prelude::*;
use serde::{Deserialize, Serialize};

#[cfg(feature = "ssr")]
use crate::ssr::{auth, ctx, service_error};

/// An earlier export, with the SHA-256 of its data.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ExportView {
    pub at: DateTime<Utc>,
    pub by: String,
    pub format: ReportFormat,
    pub lang: Lang,
    /// How many services were chosen (`None`: all of them).
    pub services: Option<usize>,
    pub sha256: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ReportsView {
    /// The services to choose from (archived ones too: their history
    /// belongs in a report), by name.
    pub services: Vec<(Named<ServiceId>, bool)>,
    pub exports: Vec<ExportView>,
}

#[server(endpoint = "reports_data")]
pub async fn reports_data() -> Result<ReportsView, AppError> {
    let c = ctx()?;
    let a = auth(&c)?;
    let s = &c.services;
    let services = s.report_choices(a).await.map_err(service_error)?;
    let exports = s.report_exports(a).await.map_err(service_error)?;
    Ok(ReportsView {
        services: services
            .into_iter()
            .map(|(id, name, archived)| (Named { id, name }, archived))
            .collect(),
        exports: exports
            .into_iter()
            .map(|e| ExportView {
                at: e.at,
                by: e.by,
                format: e.format,
                lang: e.lang,
                services: e.services,
                sha256: e.sha256,
            })
            .collect(),
    })
}
