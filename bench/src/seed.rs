//! Seeds an organisation's inventory for the benchmarks: `n` services over
//! n/10 vendors (at least five), with integrators, data classes (every other
//! service receives personal data), a mix of statuses, and findings for a
//! quarter of the services. Written through the store in large transactions.

use aivet_domain::inventory::{
    AuthorityNotifier, Deployment, FindingForm, ItemName, ServiceDraft, ServiceStatus, VendorForm,
    VendorRole,
};
use aivet_domain::VendorId;
use aivet_store::inventory::ImportVendor;
use aivet_store::{AuditEvent, DynStore, Tenant};

/// The engine and version of service `i`: every engine, versions in many
/// forms, some missing or unreadable.
pub fn engine_of(i: usize) -> (aivet_domain::advisory::Engine, Option<String>) {
    use aivet_domain::advisory::Engine;
    let engine = Engine::ALL[i % Engine::ALL.len()];
    let version = match i % 9 {
        0 => None,
        1 => Some("latest".to_owned()),
        2 => Some(format!("0.{}.{}rc1", i % 5, i % 13)),
        3 => Some(format!("0.{}.{}.post1", i % 5, i % 17)),
        4 => Some(format!("0.{}.{}+cu126", i % 5, i % 19)),
        _ => Some(format!("0.{}.{}", i % 5, i % 23)),
    };
    (engine, version)
}

pub async fn inventory(
    store: &DynStore,
    t: &Tenant,
    n: usize,
    findings: bool,
) -> Vec<aivet_domain::ServiceId> {
    let vendors: Vec<ImportVendor> = (0..(n / 10).max(5))
        .map(|i| ImportVendor {
            id: VendorId(uuid::Uuid::new_v4()),
            draft: VendorForm {
                name: format!("Vendor {i:04}"),
                role: if i % 5 == 0 {
                    VendorRole::Integrator
                } else {
                    VendorRole::Application
                }
                .as_str()
                .into(),
                website: format!("https://vendor{i}.example"),
                ..Default::default()
            }
            .parse()
            .expect("valid vendor"),
        })
        .collect();
    let classes = store.data_classes(t).await.expect("data classes");
    let personal: Vec<_> = classes
        .iter()
        .filter(|c| c.personal)
        .map(|c| c.id)
        .collect();
    let other: Vec<_> = classes
        .iter()
        .filter(|c| !c.personal)
        .map(|c| c.id)
        .collect();
    let statuses = [
        ServiceStatus::InUse,
        ServiceStatus::InUse,
        ServiceStatus::Trial,
        ServiceStatus::Retired,
    ];
    let drafts: Vec<ServiceDraft> = (0..n)
        .map(|i| ServiceDraft {
            name: ItemName::parse(&format!("Service {i:05}")).unwrap(),
            purpose: Some(format!(
                "Benchmark service number {i}, drafting and answering text"
            )),
            vendor_id: vendors[i % vendors.len()].id,
            integrator_id: (i % 3 == 0).then(|| vendors[(i / 3) % vendors.len()].id),
            model_provider_id: None,
            inference_host_id: None,
            model: Some("model 2026-10".into()),
            engine: Some("SGLang 0.5.19".into()),
            engine_kind: Some(engine_of(i).0),
            engine_version: engine_of(i).1,
            engine_source: None,
            deployment: Deployment::Shared,
            owner_id: Some(t.membership_id()),
            status: statuses[i % statuses.len()],
            data_classes: if i % 2 == 0 {
                vec![other[i % other.len()], personal[i % personal.len()]]
            } else {
                vec![other[i % other.len()]]
            },
            dpa_signed_on: None,
            dpa_url: None,
            notice_hours: Some(72),
            notice_channel: None,
            authority_notifier: AuthorityNotifier::Unclear,
        })
        .collect();
    let now = chrono::Utc::now();
    let mut ids = Vec::with_capacity(n);
    for (k, chunk) in drafts.chunks(1000).enumerate() {
        let v: &[ImportVendor] = if k == 0 { &vendors } else { &[] };
        ids.extend(
            store
                .import_services(
                    t,
                    v,
                    chunk,
                    &[AuditEvent::ServicesImported {
                        services: chunk.len(),
                        new_vendors: v.len(),
                    }],
                    now,
                )
                .await
                .expect("seed services"),
        );
    }
    if findings {
        for id in ids.iter().step_by(4) {
            let f = FindingForm {
                topic: "separation".into(),
                status: "stated".into(),
                summary: "Separate caches per customer".into(),
                ..Default::default()
            }
            .parse()
            .unwrap();
            store
                .save_finding(
                    t,
                    *id,
                    &f,
                    AuditEvent::FindingSaved {
                        service: *id,
                        topic: f.topic,
                        status: f.status,
                    },
                    now,
                )
                .await
                .expect("seed finding");
        }
    }
    ids
}
