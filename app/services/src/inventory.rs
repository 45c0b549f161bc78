//! The inventory use cases: vendors and contacts, AI services and their
//! findings, data classes. Members with the editor or owner role change the
//! inventory (data classes: owners only); viewers read it. Every change is
//! recorded in the audit log in the same transaction.

use crate::advisories::ServiceHit;
use crate::clearance::Matrix;
use crate::questions::QuestionsOverview;
use crate::{Auth, ServiceError, Services};
use aivet_domain::inventory::{
    ClassMarks, ContactForm, FindingForm, ItemName, ServiceForm, VendorDraft, VendorForm,
    VendorRole,
};
use aivet_domain::{ContactId, DataClassId, IncidentId, Msg, ServiceId, VendorId};
use aivet_store::inventory::{
    Contact, DataClass, ImportVendor, InventoryCounts, Page, ServiceDetail, ServiceNames,
    ServiceQuery, ServiceRef, ServiceRow, Vendor, VendorName, VendorQuery, VendorRow,
};
use aivet_store::{AuditEvent, StoreError, Tenant};

type Result<T> = std::result::Result<T, ServiceError>;

/// A service's page, from one snapshot.
#[derive(Clone, Debug)]
pub struct ServicePage {
    pub detail: ServiceDetail,
    pub names: ServiceNames,
    /// Open incidents that may affect it: (id, title).
    pub incidents: Vec<(IncidentId, String)>,
    pub matrix: Matrix,
    pub hits: Vec<ServiceHit>,
    pub questions: QuestionsOverview,
}

/// A vendor with what its page shows.
#[derive(Clone, Debug)]
pub struct VendorPage {
    pub vendor: Vendor,
    pub contacts: Vec<Contact>,
    pub services: Vec<ServiceRef>,
}

pub(crate) fn require_editor(t: &Tenant) -> Result<()> {
    if t.role().can_edit() {
        Ok(())
    } else {
        Err(ServiceError::Forbidden)
    }
}

pub(crate) fn require_owner(t: &Tenant) -> Result<()> {
    if t.role().can_manage_members() {
        Ok(())
    } else {
        Err(ServiceError::Forbidden)
    }
}

/// Store errors of the inventory, in the user's terms: a taken name is a
/// field error, a reference to a record the organisation does not have is a
/// field error of that field, records in use block with their names.
pub(crate) fn inventory_error(in_use: Msg) -> impl Fn(StoreError) -> ServiceError {
    move |e| match e {
        StoreError::InUse(names) => ServiceError::Blocked(in_use, names),
        StoreError::UnknownRefs(fields) => ServiceError::Invalid(
            fields
                .into_iter()
                .map(|f| {
                    let msg = match f {
                        "owner_id" => Msg::ErrOwnerUnknown,
                        "data_classes" => Msg::ErrDataClassUnknown,
                        _ => Msg::ErrVendorUnknown,
                    };
                    (f, msg)
                })
                .collect(),
        ),
        other => other.into(),
    }
}

fn invalid(fields: Vec<(&'static str, Msg)>) -> ServiceError {
    ServiceError::Invalid(fields)
}

/// Vendors by the names people type: an existing one (in any case, archived
/// ones too) or a new one, made once per name with the role of the place it
/// first appears in.
pub(crate) struct VendorNames {
    ids: std::collections::HashMap<String, VendorId>,
    /// The vendors to make, in the order they were first named.
    pub(crate) new: Vec<ImportVendor>,
}

impl VendorNames {
    pub(crate) async fn of(services: &Services, t: &Tenant) -> Result<VendorNames> {
        let all = services
            .store
            .vendors(
                t,
                &VendorQuery {
                    archived: true,
                    ..Default::default()
                },
            )
            .await?;
        Ok(VendorNames {
            ids: all.iter().map(|v| (v.name.to_lowercase(), v.id)).collect(),
            new: Vec::new(),
        })
    }

    pub(crate) fn id(&mut self, name: &ItemName, role: VendorRole) -> VendorId {
        let new = &mut self.new;
        *self.ids.entry(name.key()).or_insert_with(|| {
            let id = VendorId(uuid::Uuid::new_v4());
            new.push(ImportVendor {
                id,
                draft: VendorDraft::named(name.clone(), role),
            });
            id
        })
    }
}

/// What the dashboard shows.
#[derive(Clone, Debug)]
pub struct Dashboard {
    pub inventory: InventoryCounts,
    pub follow_ups: aivet_store::follow_ups::FollowUpCounts,
    pub clearance: aivet_store::clearance::ClearanceCounts,
    /// The incidents whose 72-hour clock runs without a decision, soonest
    /// deadline first.
    pub clocks: Vec<(
        aivet_store::incident::PendingClock,
        aivet_domain::incident::Clock,
    )>,
    pub advisories: aivet_store::advisory::AdvisoryCounts,
}

impl Services {
    // --- data classes ---

    pub async fn data_classes(&self, auth: &Auth) -> Result<Vec<DataClass>> {
        Ok(self.store.data_classes(auth.tenant()?).await?)
    }

    pub async fn create_data_class(
        &self,
        auth: &Auth,
        name: &str,
        marks: ClassMarks,
    ) -> Result<DataClassId> {
        let t = auth.tenant()?;
        require_owner(t)?;
        let name = ItemName::parse(name).map_err(|m| invalid(vec![("name", m)]))?;
        let event = AuditEvent::DataClassCreated {
            name: name.to_string(),
            personal: marks.personal,
            needs_clearance: marks.needs_clearance,
        };
        self.store
            .create_data_class(t, &name, marks, event, self.clock.now())
            .await
            .map_err(inventory_error(Msg::ErrDataClassInUse))
    }

    pub async fn update_data_class(
        &self,
        auth: &Auth,
        id: DataClassId,
        name: &str,
        marks: ClassMarks,
        archived: bool,
    ) -> Result<()> {
        let t = auth.tenant()?;
        require_owner(t)?;
        let name = ItemName::parse(name).map_err(|m| invalid(vec![("name", m)]))?;
        let event = AuditEvent::DataClassUpdated {
            data_class: id,
            name: name.to_string(),
            personal: marks.personal,
            archived,
            needs_clearance: marks.needs_clearance,
        };
        self.store
            .update_data_class(t, id, &name, marks, archived, event, self.clock.now())
            .await
            .map_err(inventory_error(Msg::ErrDataClassInUse))
    }

    pub async fn delete_data_class(&self, auth: &Auth, id: DataClassId) -> Result<()> {
        let t = auth.tenant()?;
        require_owner(t)?;
        let event = AuditEvent::DataClassDeleted { data_class: id };
        self.store
            .delete_data_class(t, id, event, self.clock.now())
            .await
            .map_err(inventory_error(Msg::ErrDataClassInUse))
    }

    // --- vendors ---

    pub async fn vendors(&self, auth: &Auth, q: &VendorQuery) -> Result<Vec<VendorRow>> {
        Ok(self.store.vendors(auth.tenant()?, q).await?)
    }

    pub async fn vendor_names(&self, auth: &Auth) -> Result<Vec<VendorName>> {
        Ok(self.store.vendor_names(auth.tenant()?).await?)
    }

    pub async fn vendor(&self, auth: &Auth, id: VendorId) -> Result<VendorPage> {
        let t = auth.tenant()?;
        let vendor = self.store.vendor(t, id).await?;
        let contacts = self.store.contacts(t, id).await?;
        let services = self.store.services_of_vendor(t, id).await?;
        Ok(VendorPage {
            vendor,
            contacts,
            services,
        })
    }

    pub async fn create_vendor(&self, auth: &Auth, form: &VendorForm) -> Result<VendorId> {
        let t = auth.tenant()?;
        require_editor(t)?;
        let draft = form.parse().map_err(invalid)?;
        let event = AuditEvent::VendorCreated {
            name: draft.name.to_string(),
        };
        self.store
            .create_vendor(t, &draft, event, self.clock.now())
            .await
            .map_err(inventory_error(Msg::ErrVendorInUse))
    }

    pub async fn update_vendor(&self, auth: &Auth, id: VendorId, form: &VendorForm) -> Result<()> {
        let t = auth.tenant()?;
        require_editor(t)?;
        let draft = form.parse().map_err(invalid)?;
        let event = AuditEvent::VendorUpdated {
            vendor: id,
            name: draft.name.to_string(),
        };
        self.store
            .update_vendor(t, id, &draft, event, self.clock.now())
            .await
            .map_err(inventory_error(Msg::ErrVendorInUse))
    }

    pub async fn archive_vendor(&self, auth: &Auth, id: VendorId, archived: bool) -> Result<()> {
        let t = auth.tenant()?;
        require_editor(t)?;
        let event = if archived {
            AuditEvent::VendorArchived { vendor: id }
        } else {
            AuditEvent::VendorRestored { vendor: id }
        };
        Ok(self
            .store
            .set_vendor_archived(t, id, archived, event, self.clock.now())
            .await?)
    }

    pub async fn delete_vendor(&self, auth: &Auth, id: VendorId) -> Result<()> {
        let t = auth.tenant()?;
        require_editor(t)?;
        let event = AuditEvent::VendorDeleted { vendor: id };
        self.store
            .delete_vendor(t, id, event, self.clock.now())
            .await
            .map_err(inventory_error(Msg::ErrVendorInUse))
    }

    pub async fn add_contact(
        &self,
        auth: &Auth,
        vendor: VendorId,
        form: &ContactForm,
    ) -> Result<ContactId> {
        let t = auth.tenant()?;
        require_editor(t)?;
        // Questions go to this address: one the mail server cannot deliver
        // to is refused here, together with the form's other problems.
        let undeliverable = self.undeliverable(&form.email).map(|m| ("email", m));
        let draft = match form.parse() {
            Ok(draft) if undeliverable.is_none() => draft,
            Ok(_) => return Err(invalid(undeliverable.into_iter().collect())),
            Err(mut fields) => {
                fields.extend(undeliverable);
                return Err(invalid(fields));
            }
        };
        let event = AuditEvent::ContactAdded {
            vendor,
            email: draft.email.to_string(),
        };
        Ok(self
            .store
            .add_contact(t, vendor, &draft, event, self.clock.now())
            .await?)
    }

    pub async fn set_primary_contact(&self, auth: &Auth, id: ContactId) -> Result<VendorId> {
        let t = auth.tenant()?;
        require_editor(t)?;
        let event = AuditEvent::ContactMadePrimary { contact: id };
        Ok(self
            .store
            .set_primary_contact(t, id, event, self.clock.now())
            .await?)
    }

    pub async fn remove_contact(&self, auth: &Auth, id: ContactId) -> Result<VendorId> {
        let t = auth.tenant()?;
        require_editor(t)?;
        let event = AuditEvent::ContactRemoved { contact: id };
        Ok(self
            .store
            .remove_contact(t, id, event, self.clock.now())
            .await?)
    }

    // --- services ---

    pub async fn services(&self, auth: &Auth, q: &ServiceQuery) -> Result<Page<ServiceRow>> {
        Ok(self.store.services(auth.tenant()?, q).await?)
    }

    pub async fn service(&self, auth: &Auth, id: ServiceId) -> Result<ServiceDetail> {
        Ok(self.store.service(auth.tenant()?, id).await?)
    }

    /// Everything a service's page shows, read in one transaction: the
    /// record with its names, its open incidents, its clearance matrix as
    /// of today, its advisory hits and its questions.
    pub async fn service_page(&self, auth: &Auth, id: ServiceId) -> Result<ServicePage> {
        let t = auth.tenant()?;
        let p = self.store.service_page(t, id).await?;
        Ok(ServicePage {
            detail: p.detail,
            names: p.names,
            incidents: p.incidents,
            matrix: crate::clearance::matrix_of(p.clearance, self.today(t)),
            hits: self.hits_of(t.org_id(), p.hits).await?,
            questions: QuestionsOverview {
                assessment: p.assessment,
                requests: p.requests,
                events: p.events,
            },
        })
    }

    /// The vendor typed in place of one chosen (`new_vendor_name`): an
    /// existing vendor of that name, or one to make with the service.
    async fn vendor_in_place(
        &self,
        t: &Tenant,
        form: &ServiceForm,
    ) -> Result<(ServiceForm, Vec<ImportVendor>)> {
        let mut form = form.clone();
        if form.new_vendor_name.trim().is_empty() {
            return Ok((form, Vec::new()));
        }
        let mut errors = Vec::new();
        if !form.vendor_id.trim().is_empty() {
            errors.push(("new_vendor_name", Msg::ErrVendorOrNew));
        }
        let name = ItemName::parse(&form.new_vendor_name)
            .map_err(|m| errors.push(("new_vendor_name", m)))
            .ok();
        let role = form
            .new_vendor_role
            .parse::<VendorRole>()
            .map_err(|m| errors.push(("new_vendor_role", m)))
            .ok();
        // The service's own fields are checked too, so that one post shows
        // every problem.
        if let Err(more) = form.parse() {
            errors.extend(more.into_iter().filter(|(f, _)| *f != "vendor_id"));
        }
        let (Some(name), Some(role), true) = (name, role, errors.is_empty()) else {
            return Err(invalid(errors));
        };
        let mut names = VendorNames::of(self, t).await?;
        form.vendor_id = names.id(&name, role).to_string();
        Ok((form, names.new))
    }

    pub async fn create_service(&self, auth: &Auth, form: &ServiceForm) -> Result<ServiceId> {
        let t = auth.tenant()?;
        require_editor(t)?;
        let (form, new_vendor) = self.vendor_in_place(t, form).await?;
        let draft = form.parse().map_err(invalid)?;
        let event = AuditEvent::ServiceCreated {
            name: draft.name.to_string(),
        };
        let now = self.clock.now();
        let id = if new_vendor.is_empty() {
            self.store.create_service(t, &draft, event, now).await
        } else {
            let made = new_vendor.iter().map(|v| AuditEvent::VendorCreated {
                name: v.draft.name.to_string(),
            });
            let events: Vec<AuditEvent> = made.chain([event]).collect();
            self.store
                .import_services(t, &new_vendor, std::slice::from_ref(&draft), &events, now)
                .await
                .map(|ids| ids[0])
        }
        .map_err(inventory_error(Msg::ErrVendorInUse))?;
        if draft.engine_kind.is_some() {
            self.rematch_service(t.org_id(), id).await?;
        }
        Ok(id)
    }

    pub async fn update_service(
        &self,
        auth: &Auth,
        id: ServiceId,
        form: &ServiceForm,
    ) -> Result<()> {
        let t = auth.tenant()?;
        require_editor(t)?;
        let draft = form.parse().map_err(invalid)?;
        let event = AuditEvent::ServiceUpdated {
            service: id,
            name: draft.name.to_string(),
        };
        self.store
            .update_service(t, id, &draft, event, self.clock.now())
            .await
            .map_err(inventory_error(Msg::ErrVendorInUse))?;
        // The engine or its version may have changed.
        self.rematch_service(t.org_id(), id).await?;
        Ok(())
    }

    pub async fn archive_service(&self, auth: &Auth, id: ServiceId, archived: bool) -> Result<()> {
        let t = auth.tenant()?;
        require_editor(t)?;
        let event = if archived {
            AuditEvent::ServiceArchived { service: id }
        } else {
            AuditEvent::ServiceRestored { service: id }
        };
        self.store
            .set_service_archived(t, id, archived, event, self.clock.now())
            .await?;
        self.rematch_service(t.org_id(), id).await?;
        Ok(())
    }

    pub async fn delete_service(&self, auth: &Auth, id: ServiceId) -> Result<()> {
        let t = auth.tenant()?;
        require_editor(t)?;
        let event = AuditEvent::ServiceDeleted { service: id };
        Ok(self
            .store
            .delete_service(t, id, event, self.clock.now())
            .await?)
    }

    pub async fn save_finding(
        &self,
        auth: &Auth,
        service: ServiceId,
        form: &FindingForm,
    ) -> Result<()> {
        let t = auth.tenant()?;
        require_editor(t)?;
        let draft = form.parse().map_err(invalid)?;
        let event = AuditEvent::FindingSaved {
            service,
            topic: draft.topic,
            status: draft.status,
        };
        Ok(self
            .store
            .save_finding(t, service, &draft, event, self.clock.now())
            .await?)
    }

    /// What the dashboard shows, read at once; each running 72-hour clock
    /// with its state now.
    pub async fn dashboard(&self, auth: &Auth) -> Result<Dashboard> {
        let t = auth.tenant()?;
        let d = self.store.dashboard(t, self.today(t)).await?;
        let now = self.clock.now();
        let clocks = d
            .clocks
            .into_iter()
            .map(|r| {
                let c = crate::incidents::pending_clock(&r, now);
                (r, c)
            })
            .collect();
        Ok(Dashboard {
            inventory: d.inventory,
            follow_ups: d.follow_ups,
            clearance: d.clearance,
            clocks,
            advisories: d.advisories,
        })
    }
}
