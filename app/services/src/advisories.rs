//! Engine advisories as members work with them: the catalogue (the OSV
//! records aivet ships and those an owner imported), matching it against
//! the services' engines when an advisory is imported or an engine changes
//! (and after an upgrade that ships new records), and what hits a service.

use crate::inventory::require_owner;
use crate::{Auth, ServiceError, Services};
use aivet_domain::advisory::{
    match_services, parse_osv, parse_osv_file, Advisory, Exposure, BUILTIN,
};
use aivet_domain::{Lang, Msg, OrgId, ServiceId};
use aivet_store::advisory::HitRow;
use aivet_store::AuditEvent;
use sha2::{Digest, Sha256};
use std::sync::OnceLock;

type Result<T> = std::result::Result<T, ServiceError>;

/// The shipped records, parsed once.
pub fn builtin() -> &'static [Advisory] {
    static PARSED: OnceLock<Vec<Advisory>> = OnceLock::new();
    PARSED.get_or_init(|| {
        BUILTIN
            .iter()
            .filter_map(|(_, json)| parse_osv(json).ok())
            .collect()
    })
}

/// Names the shipped catalogue: hits computed with another one are
/// computed again.
pub fn catalogue() -> &'static str {
    static HASH: OnceLock<String> = OnceLock::new();
    HASH.get_or_init(|| {
        let mut h = Sha256::new();
        for (name, json) in BUILTIN {
            h.update(name.as_bytes());
            h.update(json.as_bytes());
        }
        hex::encode(&h.finalize()[..8])
    })
}

/// One advisory in the catalogue, with where it comes from.
#[derive(Clone, Debug)]
pub struct CatalogueEntry {
    pub advisory: Advisory,
    pub built_in: bool,
}

/// What hits a service: the advisory and the exposure.
#[derive(Clone, Debug)]
pub struct ServiceHit {
    pub advisory: Advisory,
    pub exposure: Exposure,
}

impl Services {
    /// The shipped records and the organisation's own (which replace a
    /// shipped one of the same id).
    async fn catalogue_of(&self, org: OrgId) -> Result<Vec<CatalogueEntry>> {
        let own: Vec<Advisory> = self
            .store
            .org_advisories(org)
            .await?
            .iter()
            .filter_map(|s| parse_osv(&s.osv).ok())
            .collect();
        let mut all: Vec<CatalogueEntry> = builtin()
            .iter()
            .filter(|b| !own.iter().any(|o| o.id == b.id))
            .map(|a| CatalogueEntry {
                advisory: a.clone(),
                built_in: true,
            })
            .collect();
        all.extend(own.into_iter().map(|advisory| CatalogueEntry {
            advisory,
            built_in: false,
        }));
        Ok(all)
    }

    /// Matches every service of the organisation against the catalogue and
    /// keeps the hits. Free-text engines not read yet are read first.
    pub async fn rematch_advisories(&self, org: OrgId) -> Result<usize> {
        self.store.carry_over_engines(org).await?;
        self.rematch(org, None).await
    }

    /// Matches one service again (its engine, version or status changed).
    pub async fn rematch_service(&self, org: OrgId, service: ServiceId) -> Result<usize> {
        self.rematch(org, Some(service)).await
    }

    async fn rematch(&self, org: OrgId, only: Option<ServiceId>) -> Result<usize> {
        let inputs = self.store.engine_inputs(org, only).await?;
        let advisories: Vec<Advisory> = self
            .catalogue_of(org)
            .await?
            .into_iter()
            .map(|e| e.advisory)
            .collect();
        let hits: Vec<HitRow> = match_services(
            &advisories,
            inputs
                .iter()
                .filter_map(|i| Some((i.service_id, i.engine_kind?, i.engine_version.as_deref()))),
        )
        .into_iter()
        .map(|(service_id, i, exposure)| HitRow {
            service_id,
            advisory_id: advisories[i].id.clone(),
            exposure: match exposure {
                Exposure::Affected { .. } => "affected".into(),
                _ => "unknown".into(),
            },
            fixed: match exposure {
                Exposure::Affected { fixed } => fixed,
                _ => None,
            },
        })
        .collect();
        self.store.write_hits(org, only, &hits, catalogue()).await?;
        Ok(hits.len())
    }

    /// Matches again the organisations whose hits predate the shipped
    /// catalogue or miss a service saved since (the hourly sweep, so an
    /// upgrade reaches everyone and a save whose process ended before
    /// matching is matched all the same).
    pub(crate) async fn rematch_stale(&self) -> Result<usize> {
        let orgs = self.store.orgs_to_rematch(catalogue()).await?;
        for org in &orgs {
            self.rematch_advisories(*org).await?;
        }
        Ok(orgs.len())
    }

    pub async fn advisory_catalogue(&self, auth: &Auth) -> Result<Vec<CatalogueEntry>> {
        let t = auth.tenant()?;
        self.catalogue_of(t.org_id()).await
    }

    /// Imports OSV records (one, or a JSON list): all of them, or none
    /// when any record is refused (each named, in `lang`).
    pub async fn import_advisories(&self, auth: &Auth, json: &str, lang: Lang) -> Result<usize> {
        let t = auth.tenant()?;
        require_owner(t)?;
        if json.trim().is_empty() {
            return Err(ServiceError::Invalid(vec![("osv", Msg::ErrOsvEmpty)]));
        }
        let parsed = parse_osv_file(json);
        let problems: Vec<String> = parsed
            .iter()
            .filter_map(|r| r.as_ref().err().map(|e| e.text(lang)))
            .collect();
        if !problems.is_empty() {
            return Err(ServiceError::Blocked(Msg::ErrOsvRecords, problems));
        }
        // Keep each record as it came, so that it is read again the same way.
        let values: Vec<serde_json::Value> = match serde_json::from_str(json) {
            Ok(serde_json::Value::Array(items)) => items,
            Ok(one) => vec![one],
            Err(_) => return Err(ServiceError::Invalid(vec![("osv", Msg::ErrOsvNotJson)])),
        };
        let records: Vec<(String, String)> = parsed
            .into_iter()
            .zip(values)
            .filter_map(|(a, v)| Some((a.ok()?.id, v.to_string())))
            .collect();
        let event = AuditEvent::AdvisoriesImported {
            ids: records.iter().map(|(id, _)| id.clone()).collect(),
        };
        self.store
            .import_advisories(t, &records, event, self.clock.now())
            .await?;
        self.rematch_advisories(t.org_id()).await?;
        Ok(records.len())
    }

    pub async fn service_advisories(
        &self,
        auth: &Auth,
        service: ServiceId,
    ) -> Result<Vec<ServiceHit>> {
        let t = auth.tenant()?;
        let hits = self.store.service_hits(t, service).await?;
        self.hits_of(t.org_id(), hits).await
    }

    /// A service's hits with their advisories from the catalogue.
    pub(crate) async fn hits_of(&self, org: OrgId, hits: Vec<HitRow>) -> Result<Vec<ServiceHit>> {
        if hits.is_empty() {
            return Ok(Vec::new());
        }
        let catalogue = self.catalogue_of(org).await?;
        Ok(hits
            .into_iter()
            .filter_map(|h| {
                let advisory = catalogue
                    .iter()
                    .find(|c| c.advisory.id == h.advisory_id)?
                    .advisory
                    .clone();
                let exposure = if h.exposure == "affected" {
                    Exposure::Affected { fixed: h.fixed }
                } else {
                    Exposure::Unknown
                };
                Some(ServiceHit { advisory, exposure })
            })
            .collect())
    }
}
