//! The inventory's stories on both databases: data classes, vendors and
//! contacts, services with their references, findings, lists, counts, the
//! all-or-nothing import, and that no organisation reaches another's records.

use super::{open, org_with_owner, t0, Backend, TestDb};
use aivet_domain::inventory::{
    ClassMarks, ContactForm, FindingForm, ItemName, ServiceForm, ServiceStatus, VendorForm,
    VendorRole,
};
use aivet_domain::{DataClassId, Email, Lang, MembershipId, Role, VendorId};
use aivet_store::inventory::{ImportVendor, ServiceQuery, ServiceSort, VendorQuery};
use aivet_store::{AuditEvent, DynStore, StoreError, Tenant};
use chrono::Duration;

fn ev() -> AuditEvent {
    AuditEvent::SignedIn
}

fn vendor_form(name: &str, role: VendorRole) -> VendorForm {
    VendorForm {
        name: name.into(),
        role: role.as_str().into(),
        ..Default::default()
    }
}

async fn vendor(store: &DynStore, t: &Tenant, name: &str, role: VendorRole) -> VendorId {
    let draft = vendor_form(name, role).parse().unwrap();
    store.create_vendor(t, &draft, ev(), t0()).await.unwrap()
}

fn service_form(name: &str, vendor: VendorId) -> ServiceForm {
    ServiceForm {
        name: name.into(),
        vendor_id: vendor.to_string(),
        ..Default::default()
    }
}

async fn class_id(store: &DynStore, t: &Tenant, name: &str) -> DataClassId {
    store
        .data_classes(t)
        .await
        .unwrap()
        .into_iter()
        .find(|c| c.name == name)
        .unwrap_or_else(|| panic!("data class {name}"))
        .id
}

fn names<T>(rows: &[T], name: impl Fn(&T) -> &str) -> Vec<String> {
    rows.iter().map(|r| name(r).to_owned()).collect()
}

pub async fn a_new_organisation_has_default_data_classes(b: Backend) {
    let Some(db) = TestDb::new(b).await else {
        return;
    };
    let store = open(&db).await;
    // The owner signs up in German (see new_user): the defaults are German.
    let (_, t) = org_with_owner(&store, "a@example.com", "Alpha").await;
    let classes = store.data_classes(&t).await.unwrap();
    assert_eq!(
        names(&classes, |c| &c.name),
        [
            "Öffentlich",
            "Intern",
            "Vertraulich",
            "Personenbezogene Daten",
            "Besondere Kategorien personenbezogener Daten"
        ]
    );
    assert_eq!(classes.iter().filter(|c| c.personal).count(), 2);
    // A second organisation of the same user gets its own set.
    let t2 = store
        .create_org(
            t.user_id(),
            &aivet_domain::OrgName::parse("Beta").unwrap(),
            &aivet_domain::Slug::from_name("Beta"),
            t0(),
        )
        .await
        .unwrap();
    let other = store.data_classes(&t2).await.unwrap();
    assert_eq!(other.len(), 5);
    assert!(other.iter().all(|c| !classes.iter().any(|d| d.id == c.id)));

    // Owners extend and rename; names stay unique regardless of case.
    let name = ItemName::parse("Source code").unwrap();
    let id = store
        .create_data_class(&t, &name, ClassMarks::default(), ev(), t0())
        .await
        .unwrap();
    assert!(matches!(
        store
            .create_data_class(
                &t,
                &ItemName::parse("SOURCE CODE").unwrap(),
                ClassMarks::default(),
                ev(),
                t0()
            )
            .await,
        Err(StoreError::NameTaken)
    ));
    store
        .update_data_class(
            &t,
            id,
            &ItemName::parse("Quellcode").unwrap(),
            ClassMarks {
                personal: true,
                needs_clearance: true,
            },
            true,
            ev(),
            t0(),
        )
        .await
        .unwrap();
    let c = store.data_classes(&t).await.unwrap().pop().unwrap();
    assert_eq!(
        (
            c.name.as_str(),
            c.personal,
            c.needs_clearance,
            c.archived_at.is_some()
        ),
        ("Quellcode", true, true, true)
    );
    store.delete_data_class(&t, id, ev(), t0()).await.unwrap();
    assert_eq!(store.data_classes(&t).await.unwrap().len(), 5);
}

pub async fn vendors_and_their_contacts(b: Backend) {
    let Some(db) = TestDb::new(b).await else {
        return;
    };
    let store = open(&db).await;
    let (_, t) = org_with_owner(&store, "a@example.com", "Alpha").await;
    let open_ai = vendor(&store, &t, "Ünicorn AI", VendorRole::ModelProvider).await;
    vendor(&store, &t, "Nordic Hosting", VendorRole::InferenceHost).await;
    vendor(&store, &t, "IT-Partner 100% AS", VendorRole::Integrator).await;

    // Names are unique per organisation regardless of case.
    let dup = vendor_form("ünicorn ai", VendorRole::Application)
        .parse()
        .unwrap();
    assert!(matches!(
        store.create_vendor(&t, &dup, ev(), t0()).await,
        Err(StoreError::NameTaken)
    ));

    // Search ignores case (also beyond ASCII) and treats % and _ literally.
    let search = |text: &str| VendorQuery {
        text: aivet_domain::SearchText::parse(text).unwrap(),
        ..Default::default()
    };
    let found = store.vendors(&t, &search("ÜNICORN")).await.unwrap();
    assert_eq!(names(&found, |v| &v.name), ["Ünicorn AI"]);
    let found = store.vendors(&t, &search("100%")).await.unwrap();
    assert_eq!(names(&found, |v| &v.name), ["IT-Partner 100% AS"]);
    assert!(store.vendors(&t, &search("%")).await.unwrap().len() == 1);
    assert!(store.vendors(&t, &search("_")).await.unwrap().is_empty());
    assert!(store.vendors(&t, &search("\\")).await.unwrap().is_empty());
    let hosts = store
        .vendors(
            &t,
            &VendorQuery {
                role: Some(VendorRole::InferenceHost),
                ..Default::default()
            },
        )
        .await
        .unwrap();
    assert_eq!(names(&hosts, |v| &v.name), ["Nordic Hosting"]);

    // Contacts: the first is primary; a new primary takes the mark; removing
    // the primary one passes it on.
    let contact = |name: &str, email: &str, primary: bool| {
        ContactForm {
            name: name.into(),
            email: email.into(),
            lang: "nb".into(),
            role: "security".into(),
            primary,
        }
        .parse()
        .unwrap()
    };
    let first = store
        .add_contact(
            &t,
            open_ai,
            &contact("Sec Team", "security@unicorn.example", false),
            ev(),
            t0(),
        )
        .await
        .unwrap();
    store
        .add_contact(
            &t,
            open_ai,
            &contact("Dana DPO", "dpo@unicorn.example", false),
            ev(),
            t0() + Duration::seconds(1),
        )
        .await
        .unwrap();
    let cs = store.contacts(&t, open_ai).await.unwrap();
    assert_eq!(
        cs.iter()
            .filter(|c| c.is_primary)
            .map(|c| c.name.as_str())
            .collect::<Vec<_>>(),
        ["Sec Team"]
    );
    assert_eq!(cs[0].lang, Lang::Nb);
    store
        .add_contact(
            &t,
            open_ai,
            &contact("Acct Mgr", "am@unicorn.example", true),
            ev(),
            t0() + Duration::seconds(2),
        )
        .await
        .unwrap();
    let primary = |cs: &[aivet_store::inventory::Contact]| {
        cs.iter()
            .filter(|c| c.is_primary)
            .map(|c| c.name.clone())
            .collect::<Vec<_>>()
    };
    assert_eq!(
        primary(&store.contacts(&t, open_ai).await.unwrap()),
        ["Acct Mgr"]
    );
    let list = store.vendors(&t, &search("ünicorn")).await.unwrap();
    assert_eq!(
        list[0].primary_contact.as_deref(),
        Some("am@unicorn.example")
    );
    let am = store.contacts(&t, open_ai).await.unwrap()[0].id;
    assert_eq!(
        store.remove_contact(&t, am, ev(), t0()).await.unwrap(),
        open_ai
    );
    assert_eq!(
        primary(&store.contacts(&t, open_ai).await.unwrap()),
        ["Sec Team"]
    );
    let dana = store.contacts(&t, open_ai).await.unwrap()[1].id;
    assert_eq!(
        store
            .set_primary_contact(&t, dana, ev(), t0())
            .await
            .unwrap(),
        open_ai
    );
    assert_eq!(
        primary(&store.contacts(&t, open_ai).await.unwrap()),
        ["Dana DPO"]
    );
    store
        .set_primary_contact(&t, first, ev(), t0())
        .await
        .unwrap();
    assert_eq!(
        primary(&store.contacts(&t, open_ai).await.unwrap()),
        ["Sec Team"]
    );
    store.remove_contact(&t, first, ev(), t0()).await.unwrap();
    assert_eq!(
        primary(&store.contacts(&t, open_ai).await.unwrap()),
        ["Dana DPO"]
    );

    // Archived vendors leave the default list but stay reachable.
    store
        .set_vendor_archived(&t, open_ai, true, ev(), t0())
        .await
        .unwrap();
    let default = store.vendors(&t, &VendorQuery::default()).await.unwrap();
    assert!(!default.iter().any(|v| v.id == open_ai));
    let all = store
        .vendors(
            &t,
            &VendorQuery {
                archived: true,
                ..Default::default()
            },
        )
        .await
        .unwrap();
    assert!(all
        .iter()
        .any(|v| v.id == open_ai && v.archived_at.is_some()));
    store
        .set_vendor_archived(&t, open_ai, false, ev(), t0())
        .await
        .unwrap();
    assert!(store
        .vendor(&t, open_ai)
        .await
        .unwrap()
        .archived_at
        .is_none());

    // Update keeps the id; a deleted vendor takes its contacts with it.
    let mut f = vendor_form("Unicorn AI Ltd", VendorRole::ModelProvider);
    f.dpa_url = "https://unicorn.example/dpa".into();
    store
        .update_vendor(&t, open_ai, &f.parse().unwrap(), ev(), t0())
        .await
        .unwrap();
    let v = store.vendor(&t, open_ai).await.unwrap();
    assert_eq!(
        (v.name.as_str(), v.dpa_url.as_deref()),
        ("Unicorn AI Ltd", Some("https://unicorn.example/dpa"))
    );
    store.delete_vendor(&t, open_ai, ev(), t0()).await.unwrap();
    assert!(matches!(
        store.vendor(&t, open_ai).await,
        Err(StoreError::NotFound)
    ));
    assert!(store.contacts(&t, open_ai).await.unwrap().is_empty());
}

pub async fn services_findings_lists_and_counts(b: Backend) {
    let Some(db) = TestDb::new(b).await else {
        return;
    };
    let store = open(&db).await;
    let (_, t) = org_with_owner(&store, "a@example.com", "Alpha").await;
    let app = vendor(&store, &t, "ChatCo", VendorRole::Application).await;
    let integrator = vendor(&store, &t, "IT-Partner", VendorRole::Integrator).await;
    let host = vendor(&store, &t, "GPU Hosting", VendorRole::InferenceHost).await;
    let personal = class_id(&store, &t, "Personenbezogene Daten").await;
    let internal = class_id(&store, &t, "Intern").await;

    let mut f = service_form("Support bot", app);
    f.integrator_id = integrator.to_string();
    f.inference_host_id = host.to_string();
    f.owner_id = t.membership_id().to_string();
    f.data_classes = vec![personal.to_string(), internal.to_string()];
    f.engine = "SGLang 0.5.19".into();
    f.notice_hours = "72".into();
    f.dpa_signed_on = "2026-01-15".into();
    let bot = store
        .create_service(&t, &f.parse().unwrap(), ev(), t0())
        .await
        .unwrap();
    let mut g = service_form("Translation", app);
    g.status = "trial".into();
    g.data_classes = vec![internal.to_string()];
    let translation = store
        .create_service(&t, &g.parse().unwrap(), ev(), t0() + Duration::minutes(1))
        .await
        .unwrap();
    let mut h = service_form("Old summariser", host);
    h.status = "retired".into();
    store
        .create_service(&t, &h.parse().unwrap(), ev(), t0())
        .await
        .unwrap();

    // The same name twice is refused; nothing half-written.
    assert!(matches!(
        store
            .create_service(
                &t,
                &service_form("SUPPORT BOT", app).parse().unwrap(),
                ev(),
                t0()
            )
            .await,
        Err(StoreError::NameTaken)
    ));

    let d = store.service(&t, bot).await.unwrap();
    assert_eq!(d.service.engine.as_deref(), Some("SGLang 0.5.19"));
    assert_eq!(d.service.notice_hours, Some(72));
    assert_eq!(
        d.service.dpa_signed_on.map(|x| x.to_string()).as_deref(),
        Some("2026-01-15")
    );
    assert_eq!(d.service.owner_id, Some(t.membership_id()));
    assert_eq!(
        d.data_classes,
        vec![internal, personal],
        "in the order of the classes"
    );

    // Findings are one per topic, saved again in place.
    for (status, summary) in [
        ("stated", "Separate KV cache per tenant"),
        ("verified", "Checked the trust page"),
    ] {
        let finding = FindingForm {
            topic: "separation".into(),
            status: status.into(),
            summary: summary.into(),
            source_url: "https://chatco.example/trust".into(),
            checked_on: "2026-11-30".into(),
        };
        store
            .save_finding(&t, bot, &finding.parse().unwrap(), ev(), t0())
            .await
            .unwrap();
    }
    let d = store.service(&t, bot).await.unwrap();
    assert_eq!(d.findings.len(), 1);
    assert_eq!(
        d.findings[0].summary.as_deref(),
        Some("Checked the trust page")
    );

    // Lists: filters, search across names, sorting, paging.
    let list = |q: ServiceQuery| {
        let store = store.clone();
        let t = t.clone();
        async move {
            store
                .services(&t, &ServiceQuery { limit: 50, ..q })
                .await
                .unwrap()
        }
    };
    let all = list(ServiceQuery::default()).await;
    assert_eq!(all.total, 3);
    assert_eq!(
        names(&all.rows, |r| &r.name),
        ["Old summariser", "Support bot", "Translation"]
    );
    let row = all.rows.iter().find(|r| r.id == bot).unwrap();
    assert!(row.personal);
    assert_eq!(row.known_findings, 1);
    assert_eq!(row.data_class_names(), ["Intern", "Personenbezogene Daten"]);
    assert_eq!(row.integrator_name.as_deref(), Some("IT-Partner"));
    let by_vendor = list(ServiceQuery {
        vendor: Some(host),
        ..Default::default()
    })
    .await;
    assert_eq!(
        names(&by_vendor.rows, |r| &r.name),
        ["Old summariser", "Support bot"],
        "host in any role"
    );
    let trial = list(ServiceQuery {
        status: Some(ServiceStatus::Trial),
        ..Default::default()
    })
    .await;
    assert_eq!(names(&trial.rows, |r| &r.name), ["Translation"]);
    let with_personal = list(ServiceQuery {
        data_class: Some(personal),
        ..Default::default()
    })
    .await;
    assert_eq!(names(&with_personal.rows, |r| &r.name), ["Support bot"]);
    let owned = list(ServiceQuery {
        owner: Some(t.membership_id()),
        ..Default::default()
    })
    .await;
    assert_eq!(owned.total, 1);
    let text = list(ServiceQuery {
        text: aivet_domain::SearchText::parse("chatco").unwrap(),
        ..Default::default()
    })
    .await;
    assert_eq!(text.total, 2, "the vendor's name is searched too");
    // Filters combine: each one narrows what the others found.
    let combined = list(ServiceQuery {
        text: aivet_domain::SearchText::parse("chatco").unwrap(),
        vendor: Some(host),
        data_class: Some(personal),
        ..Default::default()
    })
    .await;
    assert_eq!(names(&combined.rows, |r| &r.name), ["Support bot"]);
    assert_eq!(combined.total, 1);
    let none = list(ServiceQuery {
        text: aivet_domain::SearchText::parse("chatco").unwrap(),
        status: Some(ServiceStatus::Trial),
        owner: Some(t.membership_id()),
        ..Default::default()
    })
    .await;
    assert_eq!((none.total, none.rows.len()), (0, 0));
    let recent = list(ServiceQuery {
        sort: ServiceSort::Updated,
        ..Default::default()
    })
    .await;
    assert_eq!(recent.rows[0].id, translation);
    let page = store
        .services(
            &t,
            &ServiceQuery {
                limit: 2,
                offset: 2,
                ..Default::default()
            },
        )
        .await
        .unwrap();
    assert_eq!((page.total, page.rows.len()), (3, 1));

    let n = store.inventory_counts(&t).await.unwrap();
    assert_eq!((n.in_use, n.trial, n.retired, n.vendors), (1, 1, 1, 3));
    assert_eq!(n.personal, 1);
    assert_eq!(n.open_findings, 2, "retired services do not count");
    assert_eq!(n.known_findings, 1);

    // The marks behind the figures follow every change: a data class that
    // becomes personal, a finding that goes back to unknown.
    let intern = ItemName::parse("Intern").unwrap();
    store
        .update_data_class(
            &t,
            internal,
            &intern,
            marked_personal(true),
            false,
            ev(),
            t0(),
        )
        .await
        .unwrap();
    assert_eq!(store.inventory_counts(&t).await.unwrap().personal, 2);
    store
        .update_data_class(
            &t,
            internal,
            &intern,
            marked_personal(false),
            false,
            ev(),
            t0(),
        )
        .await
        .unwrap();
    assert_eq!(store.inventory_counts(&t).await.unwrap().personal, 1);
    let unknown = FindingForm {
        topic: "separation".into(),
        status: "unknown".into(),
        ..Default::default()
    };
    store
        .save_finding(&t, bot, &unknown.parse().unwrap(), ev(), t0())
        .await
        .unwrap();
    let row = list(ServiceQuery::default())
        .await
        .rows
        .into_iter()
        .find(|r| r.id == bot)
        .unwrap();
    assert_eq!(row.known_findings, 0);
    let verified = FindingForm {
        topic: "separation".into(),
        status: "verified".into(),
        source_url: "https://chatco.example/trust".into(),
        ..Default::default()
    };
    store
        .save_finding(&t, bot, &verified.parse().unwrap(), ev(), t0())
        .await
        .unwrap();

    // A vendor in use cannot be deleted; the refusal names the services.
    match store.delete_vendor(&t, host, ev(), t0()).await {
        Err(StoreError::InUse(names)) => assert_eq!(names, ["Old summariser", "Support bot"]),
        other => panic!("{other:?}"),
    }
    match store.delete_data_class(&t, personal, ev(), t0()).await {
        Err(StoreError::InUse(names)) => assert_eq!(names, ["Support bot"]),
        other => panic!("{other:?}"),
    }

    // Editing replaces the data classes; archiving hides; deleting removes findings too.
    let mut f2 = f.clone();
    f2.data_classes = vec![internal.to_string()];
    store
        .update_service(&t, bot, &f2.parse().unwrap(), ev(), t0())
        .await
        .unwrap();
    assert_eq!(
        store.service(&t, bot).await.unwrap().data_classes,
        vec![internal]
    );
    store
        .set_service_archived(&t, bot, true, ev(), t0())
        .await
        .unwrap();
    assert_eq!(list(ServiceQuery::default()).await.total, 2);
    assert_eq!(
        list(ServiceQuery {
            archived: true,
            ..Default::default()
        })
        .await
        .total,
        3
    );
    store.delete_service(&t, bot, ev(), t0()).await.unwrap();
    assert!(matches!(
        store.service(&t, bot).await,
        Err(StoreError::NotFound)
    ));
    let details = store.service_details(&t).await.unwrap();
    assert_eq!(
        names(&details, |d| &d.service.name),
        ["Old summariser", "Translation"]
    );
}

pub async fn removing_a_member_keeps_their_services(b: Backend) {
    let Some(db) = TestDb::new(b).await else {
        return;
    };
    let store = open(&db).await;
    let (_, t) = org_with_owner(&store, "a@example.com", "Alpha").await;
    store
        .create_invite(
            &t,
            &Email::parse("e@example.com").unwrap(),
            Role::Editor,
            b"tok",
            t0(),
            t0() + Duration::days(1),
            None,
        )
        .await
        .unwrap();
    let (_, editor) = store
        .sign_up_with_invite(b"tok", super::new_user("e@example.com", "Eda"), t0())
        .await
        .unwrap();
    let v = vendor(&store, &t, "ChatCo", VendorRole::Application).await;
    let mut f = service_form("Bot", v);
    f.owner_id = editor.membership_id().to_string();
    let s = store
        .create_service(&t, &f.parse().unwrap(), ev(), t0())
        .await
        .unwrap();
    store
        .remove_member(&t, editor.membership_id(), ev(), t0())
        .await
        .unwrap();
    assert_eq!(store.service(&t, s).await.unwrap().service.owner_id, None);
}

pub async fn an_import_is_all_or_nothing(b: Backend) {
    let Some(db) = TestDb::new(b).await else {
        return;
    };
    let store = open(&db).await;
    let (_, t) = org_with_owner(&store, "a@example.com", "Alpha").await;
    let existing = vendor(&store, &t, "ChatCo", VendorRole::Application).await;
    store
        .create_service(
            &t,
            &service_form("Taken", existing).parse().unwrap(),
            ev(),
            t0(),
        )
        .await
        .unwrap();
    let new_vendor = ImportVendor {
        id: VendorId(uuid::Uuid::new_v4()),
        draft: vendor_form("Fresh AI", VendorRole::Application)
            .parse()
            .unwrap(),
    };
    let ok = service_form("New one", new_vendor.id).parse().unwrap();
    let clash = service_form("taken", existing).parse().unwrap();
    let r = store
        .import_services(
            &t,
            std::slice::from_ref(&new_vendor),
            &[ok.clone(), clash],
            &[ev()],
            t0(),
        )
        .await;
    assert!(matches!(r, Err(StoreError::NameTaken)), "{r:?}");
    assert_eq!(
        store.service_details(&t).await.unwrap().len(),
        1,
        "no service of the import"
    );
    assert!(
        matches!(
            store.vendor(&t, new_vendor.id).await,
            Err(StoreError::NotFound)
        ),
        "no vendor either"
    );
    let ids = store
        .import_services(&t, &[new_vendor], &[ok], &[ev()], t0())
        .await
        .unwrap();
    assert_eq!(ids.len(), 1);
    assert_eq!(store.service_details(&t).await.unwrap().len(), 2);
}

pub async fn inventory_is_scoped_to_the_tenant(b: Backend) {
    let Some(db) = TestDb::new(b).await else {
        return;
    };
    let store = open(&db).await;
    let (_, a) = org_with_owner(&store, "a@example.com", "Alpha").await;
    let (_, b_) = org_with_owner(&store, "b@example.com", "Beta").await;
    let av = vendor(&store, &a, "Alpha Vendor", VendorRole::Application).await;
    let a_class = class_id(&store, &a, "Intern").await;
    let mut f = service_form("Alpha Bot", av);
    f.data_classes = vec![a_class.to_string()];
    let a_service = store
        .create_service(&a, &f.parse().unwrap(), ev(), t0())
        .await
        .unwrap();
    let contact = ContactForm {
        name: "X".into(),
        email: "x@a.example".into(),
        lang: "en".into(),
        role: "dpo".into(),
        primary: true,
    };
    let a_contact = store
        .add_contact(&a, av, &contact.parse().unwrap(), ev(), t0())
        .await
        .unwrap();

    // B sees nothing of A's.
    assert!(store
        .vendors(
            &b_,
            &VendorQuery {
                archived: true,
                ..Default::default()
            }
        )
        .await
        .unwrap()
        .is_empty());
    assert_eq!(
        store
            .services(
                &b_,
                &ServiceQuery {
                    limit: 50,
                    archived: true,
                    ..Default::default()
                }
            )
            .await
            .unwrap()
            .total,
        0
    );
    assert!(store.service_details(&b_).await.unwrap().is_empty());
    assert!(matches!(
        store.vendor(&b_, av).await,
        Err(StoreError::NotFound)
    ));
    assert!(matches!(
        store.service(&b_, a_service).await,
        Err(StoreError::NotFound)
    ));
    assert!(store.contacts(&b_, av).await.unwrap().is_empty());
    assert!(store.services_of_vendor(&b_, av).await.unwrap().is_empty());
    assert_eq!(store.inventory_counts(&b_).await.unwrap().vendors, 0);

    // B cannot change or delete A's records, nor point its own at them.
    let draft = vendor_form("Hijacked", VendorRole::Application)
        .parse()
        .unwrap();
    assert!(matches!(
        store.update_vendor(&b_, av, &draft, ev(), t0()).await,
        Err(StoreError::NotFound)
    ));
    assert!(matches!(
        store.set_vendor_archived(&b_, av, true, ev(), t0()).await,
        Err(StoreError::NotFound)
    ));
    assert!(matches!(
        store.delete_vendor(&b_, av, ev(), t0()).await,
        Err(StoreError::NotFound)
    ));
    assert!(matches!(
        store
            .add_contact(&b_, av, &contact.parse().unwrap(), ev(), t0())
            .await,
        Err(StoreError::NotFound)
    ));
    assert!(matches!(
        store.remove_contact(&b_, a_contact, ev(), t0()).await,
        Err(StoreError::NotFound)
    ));
    assert!(matches!(
        store.set_primary_contact(&b_, a_contact, ev(), t0()).await,
        Err(StoreError::NotFound)
    ));
    assert!(matches!(
        store.delete_service(&b_, a_service, ev(), t0()).await,
        Err(StoreError::NotFound)
    ));
    assert!(matches!(
        store
            .set_service_archived(&b_, a_service, true, ev(), t0())
            .await,
        Err(StoreError::NotFound)
    ));
    let finding = FindingForm {
        topic: "retention".into(),
        status: "stated".into(),
        ..Default::default()
    };
    assert!(matches!(
        store
            .save_finding(&b_, a_service, &finding.parse().unwrap(), ev(), t0())
            .await,
        Err(StoreError::NotFound)
    ));
    assert!(matches!(
        store
            .update_data_class(
                &b_,
                a_class,
                &ItemName::parse("Mine").unwrap(),
                ClassMarks::default(),
                false,
                ev(),
                t0()
            )
            .await,
        Err(StoreError::NotFound)
    ));
    assert!(matches!(
        store.delete_data_class(&b_, a_class, ev(), t0()).await,
        Err(StoreError::NotFound)
    ));
    let bv = vendor(&store, &b_, "Beta Vendor", VendorRole::Application).await;
    let mut smuggle = service_form("Beta Bot", av);
    smuggle.owner_id = a.membership_id().to_string();
    smuggle.data_classes = vec![a_class.to_string()];
    smuggle.integrator_id = bv.to_string();
    match store
        .create_service(&b_, &smuggle.parse().unwrap(), ev(), t0())
        .await
    {
        Err(StoreError::UnknownRefs(fields)) => {
            assert_eq!(fields, ["vendor_id", "owner_id", "data_classes"])
        }
        other => panic!("{other:?}"),
    }
    let foreign_owner = MembershipId(a.membership_id().0);
    let mut update = service_form("Alpha Bot", bv);
    update.owner_id = foreign_owner.to_string();
    assert!(matches!(
        store
            .update_service(&b_, a_service, &update.parse().unwrap(), ev(), t0())
            .await,
        Err(StoreError::UnknownRefs(_)) | Err(StoreError::NotFound)
    ));

    // A's records are unchanged.
    let d = store.service(&a, a_service).await.unwrap();
    assert_eq!(
        (d.service.name.as_str(), d.service.archived_at),
        ("Alpha Bot", None)
    );
    assert_eq!(d.data_classes, vec![a_class]);
    assert!(d.findings.is_empty());
    assert_eq!(store.vendor(&a, av).await.unwrap().name, "Alpha Vendor");
    assert_eq!(store.contacts(&a, av).await.unwrap().len(), 1);
    assert_eq!(store.data_classes(&a).await.unwrap().len(), 5);
}

/// The follow-ups list: the earliest due first, at most the limit, and
/// the count of all the filter finds.
pub async fn follow_ups_are_listed_earliest_first_up_to_a_limit(b: Backend) {
    let Some(db) = TestDb::new(b).await else {
        return;
    };
    let store = open(&db).await;
    let (_, t) = org_with_owner(&store, "a@example.com", "A").await;
    let (_, other) = org_with_owner(&store, "b@example.com", "B").await;
    let v = vendor(&store, &t, "ChatCo", VendorRole::Application).await;
    let decision = aivet_domain::questions::DecisionDraft {
        decision: aivet_domain::questions::Assessment::Cleared,
        note: None,
    };
    // Decided on five days: five re-assessments, a day apart.
    for i in 0..5 {
        let s = store
            .create_service(
                &t,
                &service_form(&format!("Service {i}"), v).parse().unwrap(),
                ev(),
                t0(),
            )
            .await
            .unwrap();
        store
            .decide(&t, s, &decision, ev(), t0() + Duration::days(4 - i))
            .await
            .unwrap();
    }
    use aivet_store::follow_ups::FollowUpQuery;
    let all = store
        .follow_ups(&t, &FollowUpQuery::default())
        .await
        .unwrap();
    assert_eq!(
        names(&all, |f| &f.service_name),
        [
            "Service 4",
            "Service 3",
            "Service 2",
            "Service 1",
            "Service 0"
        ]
    );
    let q = FollowUpQuery {
        limit: Some(2),
        ..Default::default()
    };
    let first = store.follow_ups(&t, &q).await.unwrap();
    assert_eq!(
        names(&first, |f| &f.service_name),
        ["Service 4", "Service 3"]
    );
    assert_eq!(store.count_follow_ups(&t, &q).await.unwrap(), 5);
    let by_vendor = FollowUpQuery {
        vendor: Some(VendorId(uuid::Uuid::new_v4())),
        ..q.clone()
    };
    assert_eq!(store.count_follow_ups(&t, &by_vendor).await.unwrap(), 0);
    assert_eq!(store.count_follow_ups(&other, &q).await.unwrap(), 0);
    // The board's read: the same page and count, with the filters' choices.
    let board = store.follow_up_board(&t, &q).await.unwrap();
    assert_eq!(board.rows, first);
    assert_eq!(board.total, 5);
    assert_eq!(names(&board.vendors, |v| &v.name), ["ChatCo"]);
    assert_eq!(board.vendors, store.vendor_names(&t).await.unwrap());
    assert_eq!(board.members, store.members(&t).await.unwrap());
    assert_eq!(board.members.len(), 1);
    assert_eq!(board.mine, store.my_follow_up_settings(&t).await.unwrap());
    assert!(!board.mine.calendar);
    // The filters narrow the page and its count alike.
    let one_vendor = FollowUpQuery {
        vendor: Some(v),
        ..q.clone()
    };
    let board = store.follow_up_board(&t, &one_vendor).await.unwrap();
    assert_eq!((board.rows.len(), board.total), (2, 5));
    assert_eq!(
        store.follow_up_board(&t, &by_vendor).await.unwrap().total,
        0
    );
    let wide = FollowUpQuery {
        limit: Some(10),
        ..Default::default()
    };
    assert_eq!(store.follow_up_board(&t, &wide).await.unwrap().total, 5);
    let theirs = store.follow_up_board(&other, &q).await.unwrap();
    assert!(theirs.rows.is_empty() && theirs.vendors.is_empty());
    assert_eq!(theirs.total, 0);
}

/// Follow-ups of one day stand in the order of their services' names,
/// whatever the case, and a renamed service moves to its new place.
pub async fn follow_ups_of_a_day_follow_the_service_names(b: Backend) {
    let Some(db) = TestDb::new(b).await else {
        return;
    };
    let store = open(&db).await;
    let (_, t) = org_with_owner(&store, "a@example.com", "A").await;
    let v = vendor(&store, &t, "ChatCo", VendorRole::Application).await;
    let decision = aivet_domain::questions::DecisionDraft {
        decision: aivet_domain::questions::Assessment::Cleared,
        note: None,
    };
    let mut ids = Vec::new();
    for name in ["beta", "Gamma", "Alpha"] {
        let s = store
            .create_service(&t, &service_form(name, v).parse().unwrap(), ev(), t0())
            .await
            .unwrap();
        store.decide(&t, s, &decision, ev(), t0()).await.unwrap();
        ids.push(s);
    }
    use aivet_store::follow_ups::FollowUpQuery;
    let listed = |store: DynStore| {
        let t = t.clone();
        async move {
            let rows = store
                .follow_ups(&t, &FollowUpQuery::default())
                .await
                .unwrap();
            names(&rows, |f| &f.service_name)
        }
    };
    assert_eq!(listed(store.clone()).await, ["Alpha", "beta", "Gamma"]);
    let renamed = service_form("Aardvark", v).parse().unwrap();
    store
        .update_service(&t, ids[1], &renamed, ev(), t0())
        .await
        .unwrap();
    assert_eq!(listed(store.clone()).await, ["Aardvark", "Alpha", "beta"]);
    let page = FollowUpQuery {
        limit: Some(1),
        ..Default::default()
    };
    let first = store.follow_ups(&t, &page).await.unwrap();
    assert_eq!(names(&first, |f| &f.service_name), ["Aardvark"]);
    // A member's own list (read in another way on SQLite) is the same
    // rows, field by field, as the board for an owner of everything.
    store
        .move_follow_up(
            &t,
            first[0].id,
            t0().date_naive() + Duration::days(400),
            Some("After the audit"),
            ev(),
            t0(),
        )
        .await
        .unwrap();
    let board = store
        .follow_ups(&t, &FollowUpQuery::default())
        .await
        .unwrap();
    assert_eq!(
        board.last().unwrap().note.as_deref(),
        Some("After the audit")
    );
    assert_eq!(store.my_follow_ups(&t, None).await.unwrap(), board);
}

/// A verified finding on tenant separation.
fn separation_verified() -> FindingForm {
    FindingForm {
        topic: "separation".into(),
        status: "verified".into(),
        summary: "Checked the trust page".into(),
        source_url: "https://chatco.example/trust".into(),
        checked_on: "2026-11-30".into(),
    }
}

/// An open incident that may affect `service`.
fn incident_on(service: aivet_domain::ServiceId) -> aivet_domain::incident::IncidentDraft {
    aivet_domain::incident::IncidentDraft {
        title: "Prompts of other customers".into(),
        description: None,
        source_links: vec![],
        vendors: vec![],
        services: vec![service],
        data_classes: vec![],
        times: Default::default(),
        vendor_notified_how: None,
        we_aware_at: t0(),
        affected: aivet_domain::incident::Affected::Unknown,
        affected_evidence: None,
        personal_data: true,
        risk: aivet_domain::incident::Risk::NotAssessed,
    }
}

fn marked_personal(personal: bool) -> ClassMarks {
    ClassMarks {
        personal,
        needs_clearance: personal,
    }
}

/// A store keeps the dashboard it last counted and counts again only after
/// a change to what it counts. What it shows is always what a fresh count
/// shows: after writes through it to each table the dashboard counts, and
/// after writes by another server process on the same database.
pub async fn the_kept_dashboard_is_the_counted_one_after_every_write(b: Backend) {
    let Some(db) = TestDb::new(b).await else {
        return;
    };
    let store = open(&db).await;
    let other_process = open(&db).await;
    let (_, t) = org_with_owner(&store, "a@example.com", "A").await;
    // Two years on, a re-assessment due a year after a decision is overdue.
    let day = t0().date_naive() + Duration::days(730);
    let shown = |s: &DynStore| {
        let (s, t) = (s.clone(), t.clone());
        async move { s.dashboard(&t, day).await.unwrap() }
    };
    // Each step: the kept dashboard (read twice, so the second read is
    // the kept one) is the one a store that never counted before counts.
    macro_rules! after {
        ($what:expr) => {{
            let first = shown(&store).await;
            let kept = shown(&store).await;
            let fresh = shown(&open(&db).await).await;
            assert_eq!(format!("{first:?}"), format!("{fresh:?}"), "{}", $what);
            assert_eq!(
                format!("{kept:?}"),
                format!("{fresh:?}"),
                "{} (kept)",
                $what
            );
            kept
        }};
    }
    let d = after!("nothing yet");
    assert_eq!((d.inventory.vendors, d.inventory.in_use), (0, 0));

    let v = vendor(&store, &t, "ChatCo", VendorRole::Application).await;
    assert_eq!(after!("a vendor").inventory.vendors, 1);

    let s = other_process
        .create_service(&t, &service_form("Chat", v).parse().unwrap(), ev(), t0())
        .await
        .unwrap();
    assert_eq!(after!("a service by another process").inventory.in_use, 1);

    let cleared = aivet_domain::questions::DecisionDraft {
        decision: aivet_domain::questions::Assessment::Cleared,
        note: None,
    };
    store.decide(&t, s, &cleared, ev(), t0()).await.unwrap();
    assert_eq!(after!("a decision").follow_ups.overdue, 1);

    use aivet_store::follow_ups::FollowUpQuery;
    let follow_up = store
        .follow_ups(&t, &FollowUpQuery::default())
        .await
        .unwrap()[0]
        .id;
    other_process
        .move_follow_up(&t, follow_up, day + Duration::days(1), None, ev(), t0())
        .await
        .unwrap();
    assert_eq!(
        after!("a follow-up moved by another process")
            .follow_ups
            .overdue,
        0
    );

    let finding = separation_verified();
    store
        .save_finding(&t, s, &finding.parse().unwrap(), ev(), t0())
        .await
        .unwrap();
    assert_eq!(after!("a finding").inventory.known_findings, 1);

    let incident = incident_on(s);
    other_process
        .record_incident(&t, &incident, &[], day, ev(), t0())
        .await
        .unwrap();
    assert_eq!(after!("an incident by another process").clocks.len(), 1);

    store.review_clearance_policy(&t, ev(), t0()).await.unwrap();
    assert!(after!("the policy reviewed").clearance.policy_reviewed);

    store
        .set_vendor_archived(&t, v, true, ev(), t0())
        .await
        .unwrap();
    assert_eq!(after!("the vendor archived").inventory.vendors, 0);

    // Another day is counted again: two days on, the re-assessment moved
    // to `day + 1` and the incident's follow-up due on `day` are overdue.
    assert_eq!(shown(&store).await.follow_ups.overdue, 0);
    let next = store.dashboard(&t, day + Duration::days(2)).await.unwrap();
    assert_eq!(next.follow_ups.overdue, 2);
}

/// A service's page is read in one transaction; it shows what the calls
/// for each of its parts show, and the names on the record: vendors in
/// every role (an archived one too), the owner, the classes in their order.
pub async fn a_service_page_is_its_parts_in_one_read(b: Backend) {
    let Some(db) = TestDb::new(b).await else {
        return;
    };
    let store = open(&db).await;
    let (owner, t) = org_with_owner(&store, "a@example.com", "A").await;
    let (_, other) = org_with_owner(&store, "b@example.com", "B").await;
    let v = vendor(&store, &t, "ChatCo", VendorRole::Application).await;
    let integrator = vendor(&store, &t, "Systemhaus", VendorRole::Integrator).await;
    let classes = store.data_classes(&t).await.unwrap();
    let (first, last) = (&classes[0], &classes[classes.len() - 1]);
    let form = ServiceForm {
        integrator_id: integrator.to_string(),
        owner_id: t.membership_id().to_string(),
        // Listed last first: the page shows the organisation's order.
        data_classes: vec![last.id.to_string(), first.id.to_string()],
        ..service_form("Chat", v)
    };
    let s = store
        .create_service(&t, &form.parse().unwrap(), ev(), t0())
        .await
        .unwrap();
    let finding = separation_verified();
    store
        .save_finding(&t, s, &finding.parse().unwrap(), ev(), t0())
        .await
        .unwrap();
    let cleared = aivet_domain::questions::DecisionDraft {
        decision: aivet_domain::questions::Assessment::Cleared,
        note: Some("Answers reviewed".into()),
    };
    store.decide(&t, s, &cleared, ev(), t0()).await.unwrap();
    let decision = aivet_domain::clearance::ClearanceDraft {
        clearance: aivet_domain::clearance::Clearance::Conditional,
        condition: Some("only pseudonymised".into()),
        expires_on: None,
        evidence: vec![aivet_domain::clearance::Cite::Finding(
            aivet_domain::inventory::FindingTopic::Separation,
        )],
    };
    store
        .decide_clearance(&t, s, first.id, &decision, ev(), t0())
        .await
        .unwrap();
    let incident = incident_on(s);
    let incident = store
        .record_incident(&t, &incident, &[], t0().date_naive(), ev(), t0())
        .await
        .unwrap();
    store
        .set_vendor_archived(&t, integrator, true, ev(), t0())
        .await
        .unwrap();

    let p = store.service_page(&t, s).await.unwrap();
    assert_eq!(p.detail, store.service(&t, s).await.unwrap());
    assert_eq!(p.clearance, store.service_clearance(&t, s).await.unwrap());
    assert_eq!(p.incidents, store.service_incidents(&t, s).await.unwrap());
    assert_eq!(p.hits, store.service_hits(&t, s).await.unwrap());
    assert_eq!(p.assessment, store.assessment(&t, s).await.unwrap());
    assert_eq!(p.requests, store.service_requests(&t, s).await.unwrap());
    assert_eq!(p.events, store.question_events(&t, s).await.unwrap());
    // What was written is there, so the comparisons above compare something.
    assert_eq!(p.detail.findings.len(), 1);
    assert_eq!(p.clearance.decisions.len(), 1);
    assert_eq!(p.incidents.len(), 1);
    assert_eq!(p.incidents[0].0, incident);
    assert!(!p.events.is_empty());
    assert_eq!(
        p.assessment.assessment,
        aivet_domain::questions::Assessment::Cleared
    );

    assert_eq!(p.names.vendor(v), Some("ChatCo"));
    assert_eq!(p.names.vendor(integrator), Some("Systemhaus"));
    assert_eq!(p.names.vendors.len(), 2);
    assert_eq!(p.names.owner.as_deref(), Some(owner.name.as_str()));
    assert_eq!(
        p.names.data_classes,
        vec![first.name.clone(), last.name.clone()]
    );

    // Another organisation's service is not found, as on every other call.
    assert!(matches!(
        store.service_page(&other, s).await,
        Err(StoreError::NotFound)
    ));
}
