//! Server functions of engine advisories: the catalogue in Settings,
//! importing OSV records, and what hits one service.

use crate::error::AppError;
use leptos::prelude::*;
use serde::{Deserialize, Serialize};

#[cfg(feature = "ssr")]
use super::parse_id;
#[cfg(feature = "ssr")]
use crate::ssr::{auth, ctx, done, service_error};

/// One advisory of the catalogue.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct AdvisoryView {
    pub id: String,
    pub summary: String,
    /// The engines it is about, by name.
    pub engines: Vec<String>,
    pub built_in: bool,
    /// Its first reference, if any.
    pub link: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct AdvisoriesView {
    pub advisories: Vec<AdvisoryView>,
    pub can_import: bool,
}

/// An advisory that hits a service.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ServiceAdvisoryView {
    pub advisory: AdvisoryView,
    /// The version is affected (else: it is not known whether it is).
    pub affected: bool,
    /// "Fixed in 0.5.22", in the page's language.
    pub fixed_in: Option<String>,
}

#[cfg(feature = "ssr")]
pub(crate) fn advisory_view(
    a: &aivet_domain::advisory::Advisory,
    built_in: bool,
    lang: aivet_domain::Lang,
) -> AdvisoryView {
    AdvisoryView {
        id: a.id.clone(),
        summary: a
            .summary
            .clone()
            .or_else(|| a.details.clone())
            .unwrap_or_default(),
        engines: a
            .engines()
            .iter()
            .map(|e| e.label().text(lang).to_owned())
            .collect(),
        built_in,
        link: a.references.first().cloned(),
    }
}

#[server(endpoint = "advisories_data")]
pub async fn advisories_data() -> Result<AdvisoriesView, AppError> {
    let c = ctx()?;
    let a = auth(&c)?;
    let can_import = a.tenant().map_err(service_error)?.role() == aivet_domain::Role::Owner;
    let list = c
        .services
        .advisory_catalogue(a)
        .await
        .map_err(service_error)?;
    Ok(AdvisoriesView {
        advisories: list
            .iter()
            .map(|e| advisory_view(&e.advisory, e.built_in, c.lang))
            .collect(),
        can_import,
    })
}

#[server(endpoint = "import_advisories")]
pub async fn import_advisories(osv: String) -> Result<(), AppError> {
    let c = ctx()?;
    let a = auth(&c)?;
    c.services
        .import_advisories(a, &osv, c.lang)
        .await
        .map_err(service_error)?;
    done("/settings#advisories")
}

#[server(endpoint = "service_advisories")]
pub async fn service_advisories(service_id: String) -> Result<Vec<ServiceAdvisoryView>, AppError> {
    let c = ctx()?;
    let a = auth(&c)?;
    let hits = c
        .services
        .service_advisories(a, parse_id(&service_id)?)
        .await
        .map_err(service_error)?;
    Ok(service_advisory_views(&hits, c.lang))
}

#[cfg(feature = "ssr")]
pub(crate) fn service_advisory_views(
    hits: &[aivet_services::advisories::ServiceHit],
    lang: aivet_domain::Lang,
) -> Vec<ServiceAdvisoryView> {
    use aivet_domain::advisory::Exposure;
    hits.iter()
        .map(|h| ServiceAdvisoryView {
            advisory: advisory_view(&h.advisory, false, lang),
            affected: matches!(h.exposure, Exposure::Affected { .. }),
            fixed_in: h.exposure.fixed_in(lang),
        })
        .collect()
}
