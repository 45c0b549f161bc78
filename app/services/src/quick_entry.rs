//! Several services at once (the quick-entry page): services ticked in the
//! shipped catalogue and typed rows, with their vendors and integrators by
//! name, added in one transaction or not at all.

use crate::inventory::{inventory_error, require_editor, VendorNames};
use crate::{Auth, ServiceError, Services};
use aivet_domain::catalogue::QuickForm;
use aivet_domain::inventory::{ServiceForm, VendorRole};
use aivet_domain::{Msg, ServiceId};
use aivet_store::AuditEvent;

type Result<T> = std::result::Result<T, ServiceError>;

impl Services {
    /// Adds the services of a quick entry; with any problem nothing, and
    /// every problem at the control it belongs to.
    pub async fn quick_add(&self, auth: &Auth, form: &QuickForm) -> Result<Vec<ServiceId>> {
        let t = auth.tenant()?;
        require_editor(t)?;
        // Every problem in one answer: the form's own and the names taken.
        let (lines, mut errors) = form.lines();
        let listed: std::collections::HashSet<String> =
            self.store.service_name_keys(t).await?.into_iter().collect();
        let mut names = VendorNames::of(self, t).await?;
        let mut drafts = Vec::with_capacity(lines.len());
        for line in &lines {
            if listed.contains(&line.name.key()) {
                let field = if line.at.starts_with("picks") {
                    "add"
                } else {
                    "name"
                };
                errors.push((format!("{}[{field}]", line.at), Msg::ErrNameTaken));
                continue;
            }
            let vendor = names.id(&line.vendor, line.vendor_role);
            let integrator = line
                .integrator
                .as_ref()
                .map(|i| names.id(i, VendorRole::Integrator).to_string());
            let form = ServiceForm {
                name: line.name.to_string(),
                vendor_id: vendor.to_string(),
                integrator_id: integrator.unwrap_or_default(),
                status: line.status.as_str().to_owned(),
                ..Default::default()
            };
            match form.parse() {
                Ok(d) => drafts.push(d),
                // Named as the page names the line's controls.
                Err(fields) => errors.extend(fields.into_iter().map(|(f, m)| {
                    let control = match f {
                        "name" if line.at.starts_with("picks") => "add",
                        "vendor_id" => "vendor",
                        "integrator_id" => "integrator",
                        other => other,
                    };
                    (format!("{}[{control}]", line.at), m)
                })),
            }
        }
        if !errors.is_empty() {
            return Err(ServiceError::InvalidAt(errors));
        }
        let event = AuditEvent::ServicesAdded {
            services: drafts.len(),
            new_vendors: names.new.len(),
        };
        let ids = self
            .store
            .import_services(t, &names.new, &drafts, &[event], self.clock.now())
            .await
            .map_err(inventory_error(Msg::ErrVendorInUse))?;
        Ok(ids)
    }
}

/// What the quick-entry page offers: the vendors' names (to pick from while
/// typing) and the name keys of the services listed already (the catalogue
/// marks them instead of offering them again).
#[derive(Clone, Debug)]
pub struct QuickEntryData {
    pub vendors: Vec<String>,
    pub listed: std::collections::HashSet<String>,
}

impl Services {
    pub async fn quick_entry_data(&self, auth: &Auth) -> Result<QuickEntryData> {
        let t = auth.tenant()?;
        let vendors = self.store.vendor_names(t).await?;
        let listed = self.store.service_name_keys(t).await?;
        Ok(QuickEntryData {
            vendors: vendors.into_iter().map(|v| v.name).collect(),
            listed: listed.into_iter().collect(),
        })
    }
}
