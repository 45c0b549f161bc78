//! Stories of vendor incidents: linking one suspends a service's
//! clearance decisions for protected classes (the SQL figures agree with
//! the rule) until decided again or closed; the register is scoped,
//! filtered and append-only; alerts are scheduled once per awareness.

use super::clearance::{conflicted_by_sql, draft, ev, in_conflict, service, today, two_classes};
use super::{open, org_with_owner, t0, Backend, TestDb};
use aivet_domain::clearance::Clearance;
use aivet_domain::follow_ups::FollowUpReason;
use aivet_domain::incident::{
    alerts_after, Affected, Entry, IncidentDraft, IncidentState, Risk, Times,
};
use aivet_domain::jobs::Job;
use aivet_domain::questions::{Assessment, DecisionDraft};
use aivet_domain::{IncidentId, ServiceId};
use aivet_store::follow_ups::FollowUpQuery;
use aivet_store::incident::IncidentFilter;
use aivet_store::{AuditEvent, DynStore, StoreError, Tenant};
use chrono::Duration;

fn incident(title: &str, services: &[ServiceId]) -> IncidentDraft {
    IncidentDraft {
        title: title.into(),
        description: Some("Prompts of other customers came back in responses.".into()),
        source_links: vec![],
        vendors: vec![],
        services: services.to_vec(),
        data_classes: vec![],
        times: Times::default(),
        vendor_notified_how: None,
        we_aware_at: t0() + Duration::hours(1),
        affected: Affected::Unknown,
        affected_evidence: None,
        personal_data: true,
        risk: Risk::NotAssessed,
    }
}

fn recorded(title: &str) -> AuditEvent {
    AuditEvent::IncidentRecorded {
        incident: aivet_domain::IncidentId(uuid::Uuid::nil()),
        title: title.into(),
    }
}

async fn suspended_since(
    store: &DynStore,
    t: &Tenant,
    s: ServiceId,
) -> Option<chrono::DateTime<chrono::Utc>> {
    store
        .service_clearance(t, s)
        .await
        .unwrap()
        .service
        .suspended_since
}

pub async fn an_incident_suspends_decisions_until_decided_again(b: Backend) {
    let Some(db) = TestDb::new(b).await else {
        return;
    };
    let store = open(&db).await;
    let (_, t) = org_with_owner(&store, "a@example.com", "A").await;
    let (protected, unprotected) = two_classes(&store, &t).await;
    let s = service(
        &store,
        &t,
        "Workers AI",
        &[protected, unprotected],
        "in_use",
    )
    .await;
    let other = service(&store, &t, "Unaffected", &[protected], "in_use").await;
    for svc in [s, other] {
        let d = DecisionDraft {
            decision: Assessment::Cleared,
            note: None,
        };
        store.decide(&t, svc, &d, ev(), t0()).await.unwrap();
        for class in [protected, unprotected] {
            store
                .decide_clearance(&t, svc, class, &draft(Clearance::Allowed, None), ev(), t0())
                .await
                .unwrap();
        }
    }
    assert!(conflicted_by_sql(&store, &t, today()).await.is_empty());

    let linked_at = t0() + Duration::hours(2);
    let d = incident("KV cache exposure", &[s]);
    let alerts = alerts_after(d.we_aware_at, linked_at);
    let id = store
        .record_incident(&t, &d, &alerts, today(), recorded(&d.title), linked_at)
        .await
        .unwrap();
    assert_eq!(suspended_since(&store, &t, s).await, Some(linked_at));
    assert_eq!(suspended_since(&store, &t, other).await, None);
    // The protected class may not go in any more; SQL and the rule agree.
    assert!(in_conflict(&store, &t, s).await);
    assert_eq!(conflicted_by_sql(&store, &t, today()).await, vec![s]);
    // The service's timeline and follow-ups say so.
    let follow_ups = store
        .follow_ups(&t, &FollowUpQuery::default())
        .await
        .unwrap();
    assert!(follow_ups
        .iter()
        .any(|f| f.service_id == s && f.reason == FollowUpReason::Incident));
    // Four alerts, once each, keyed by the awareness.
    for (hours, _) in &alerts {
        let key = Job::Art33Alert {
            incident: id,
            hours: *hours,
            aware: d.we_aware_at,
        }
        .key(linked_at);
        assert!(store.job_by_key(&key).await.unwrap().is_some(), "{key}");
    }

    // Decided again after the incident: the protected class holds again.
    let again = linked_at + Duration::hours(1);
    store
        .decide_clearance(
            &t,
            s,
            protected,
            &draft(Clearance::Allowed, None),
            ev(),
            again,
        )
        .await
        .unwrap();
    assert!(!in_conflict(&store, &t, s).await);
    assert!(conflicted_by_sql(&store, &t, today()).await.is_empty());

    // A second incident later suspends it again; "not affected" does not.
    let later = again + Duration::hours(1);
    let mut second = incident("Second report", &[s]);
    second.affected = Affected::No;
    let second_id = store
        .record_incident(&t, &second, &[], today(), recorded(&second.title), later)
        .await
        .unwrap();
    assert!(!in_conflict(&store, &t, s).await);
    second.affected = Affected::Yes;
    store
        .update_incident(
            &t,
            second_id,
            &second,
            &[],
            today(),
            later + Duration::minutes(5),
        )
        .await
        .unwrap();
    assert!(in_conflict(&store, &t, s).await);
    assert_eq!(conflicted_by_sql(&store, &t, today()).await, vec![s]);

    // Closing both lifts the suspension; the decision made before the
    // first incident counts again.
    for i in [id, second_id] {
        store
            .set_incident_state(
                &t,
                i,
                IncidentState::Closed,
                &[],
                later + Duration::hours(1),
            )
            .await
            .unwrap();
    }
    assert_eq!(suspended_since(&store, &t, s).await, None);
    assert!(conflicted_by_sql(&store, &t, today()).await.is_empty());
    let follow_ups = store
        .follow_ups(&t, &FollowUpQuery::default())
        .await
        .unwrap();
    assert!(!follow_ups
        .iter()
        .any(|f| f.reason == FollowUpReason::Incident));
    // Reopened: suspended again from the first link.
    store
        .set_incident_state(&t, id, IncidentState::Open, &[], later + Duration::hours(2))
        .await
        .unwrap();
    assert_eq!(suspended_since(&store, &t, s).await, Some(linked_at));
}

pub async fn the_register_keeps_every_incident_scoped_and_filtered(b: Backend) {
    let Some(db) = TestDb::new(b).await else {
        return;
    };
    let store = open(&db).await;
    let (_, a) = org_with_owner(&store, "a@example.com", "A").await;
    let (_, other) = org_with_owner(&store, "b@example.com", "B").await;
    let (protected, _) = two_classes(&store, &a).await;
    let s = service(&store, &a, "Chat", &[protected], "in_use").await;
    let b_service = service(&store, &other, "B's bot", &[], "in_use").await;

    // Another organisation's service is not ours to link.
    let foreign = incident("Foreign", &[b_service]);
    assert!(matches!(
        store
            .record_incident(&a, &foreign, &[], today(), recorded("Foreign"), t0())
            .await,
        Err(StoreError::UnknownRefs(_))
    ));
    let mut d = incident("Exposure", &[s]);
    d.data_classes = vec![protected];
    let id = store
        .record_incident(
            &a,
            &d,
            &[],
            today(),
            recorded(&d.title),
            t0() + Duration::hours(1),
        )
        .await
        .unwrap();
    // B sees none of it, by id or in its register.
    assert!(matches!(
        store.incident(&other, id).await,
        Err(StoreError::NotFound)
    ));
    assert!(store
        .incident_register(&other, &IncidentFilter::default())
        .await
        .unwrap()
        .is_empty());
    assert!(matches!(
        store.add_incident_note(&other, id, "mine now", t0()).await,
        Err(StoreError::NotFound)
    ));

    // Moving "we became aware" is an entry and an audit entry of its own.
    let moved = IncidentDraft {
        we_aware_at: d.we_aware_at - Duration::hours(30),
        risk: Risk::High,
        ..d.clone()
    };
    store
        .update_incident(&a, id, &moved, &[], today(), t0() + Duration::hours(2))
        .await
        .unwrap();
    store
        .add_incident_note(
            &a,
            id,
            "Vendor confirmed by phone.",
            t0() + Duration::hours(3),
        )
        .await
        .unwrap();
    let detail = store.incident(&a, id).await.unwrap();
    let entries: Vec<&Entry> = detail.entries.iter().map(|e| &e.entry).collect();
    assert!(matches!(entries[0], Entry::Recorded { .. }));
    assert!(entries
        .iter()
        .any(|e| matches!(e, Entry::ServiceLinked { service } if service == "Chat")));
    assert!(entries.iter().any(|e| matches!(e, Entry::AwareMoved { from, to } if *from == d.we_aware_at && *to == moved.we_aware_at)));
    assert!(entries
        .iter()
        .any(|e| matches!(e, Entry::Changed { fields } if fields == &vec!["risk".to_owned()])));
    assert!(
        matches!(entries.last(), Some(Entry::Note { text }) if text == "Vendor confirmed by phone.")
    );
    assert_eq!(detail.data_classes.len(), 1);
    let audit = store.audit_entries(&a, 50).await.unwrap();
    assert!(audit
        .iter()
        .any(|e| matches!(e.event(), Some(AuditEvent::IncidentAwareMoved { .. }))));

    // Filters: state, vendor (through the services), year.
    let all = store
        .incident_register(&a, &IncidentFilter::default())
        .await
        .unwrap();
    assert_eq!(all.len(), 1);
    assert_eq!(all[0].services, vec!["Chat".to_owned()]);
    let closed = IncidentFilter {
        state: Some(IncidentState::Closed),
        ..Default::default()
    };
    assert!(store
        .incident_register(&a, &closed)
        .await
        .unwrap()
        .is_empty());
    let q = aivet_store::inventory::ServiceQuery {
        limit: 10,
        ..Default::default()
    };
    let vendor = store.services(&a, &q).await.unwrap().rows[0].vendor_id;
    let by_vendor = IncidentFilter {
        vendor: Some(vendor),
        ..Default::default()
    };
    assert_eq!(
        store.incident_register(&a, &by_vendor).await.unwrap().len(),
        1
    );
    let y = |from: i32| {
        use chrono::TimeZone;
        (
            chrono::Utc.with_ymd_and_hms(from, 1, 1, 0, 0, 0).unwrap(),
            chrono::Utc
                .with_ymd_and_hms(from + 1, 1, 1, 0, 0, 0)
                .unwrap(),
        )
    };
    let this_year = IncidentFilter {
        year: Some(y(2026)),
        ..Default::default()
    };
    assert_eq!(
        store.incident_register(&a, &this_year).await.unwrap().len(),
        1
    );
    let last_year = IncidentFilter {
        year: Some(y(2025)),
        ..Default::default()
    };
    assert!(store
        .incident_register(&a, &last_year)
        .await
        .unwrap()
        .is_empty());
    // Pending clocks: personal data, no decision.
    assert_eq!(store.pending_clocks(&a).await.unwrap().len(), 1);
    assert!(store.pending_clocks(&other).await.unwrap().is_empty());
    let day = chrono::NaiveDate::from_ymd_opt(2026, 11, 30).unwrap();
    let on_dashboard = |d: aivet_store::inventory::Dashboard| {
        d.clocks
            .into_iter()
            .map(|c| (c.id, c.title, c.we_aware_at))
            .collect::<Vec<_>>()
    };
    assert_eq!(
        on_dashboard(store.dashboard(&a, day).await.unwrap()),
        store
            .pending_clocks(&a)
            .await
            .unwrap()
            .into_iter()
            .map(|r| (r.id, r.title, r.we_aware_at))
            .collect::<Vec<_>>()
    );
    assert!(on_dashboard(store.dashboard(&other, day).await.unwrap()).is_empty());

    // The report reads each organisation's own incidents, with their
    // links and timelines.
    let theirs = store
        .record_incident(
            &other,
            &incident("B's leak", &[b_service]),
            &[],
            today(),
            recorded("B's leak"),
            t0(),
        )
        .await
        .unwrap();
    let rows = store.report_rows(&a).await.unwrap().incidents;
    assert_eq!(rows.rows.iter().map(|r| r.id).collect::<Vec<_>>(), vec![id]);
    assert_eq!(rows.rows[0].risk, Risk::High);
    let links = |l: &[(IncidentId, (ServiceId, chrono::DateTime<chrono::Utc>))]| {
        l.iter().map(|(i, (s, _))| (*i, *s)).collect::<Vec<_>>()
    };
    assert_eq!(links(&rows.services), vec![(id, s)]);
    assert_eq!(rows.data_classes, vec![(id, protected)]);
    assert!(rows.vendors.is_empty());
    let kinds: Vec<&str> = rows.entries.iter().map(|e| e.kind.as_str()).collect();
    assert_eq!(kinds.len(), detail.entries.len());
    assert_eq!(kinds.first(), Some(&"recorded"));
    assert_eq!(kinds.last(), Some(&"note"));
    assert!(rows.entries.iter().all(|e| e.incident_id == id));
    let b_rows = store.report_rows(&other).await.unwrap().incidents;
    assert_eq!(
        b_rows.rows.iter().map(|r| r.id).collect::<Vec<_>>(),
        vec![theirs]
    );
    assert!(b_rows.entries.iter().all(|e| e.incident_id == theirs));
    assert_eq!(links(&b_rows.services), vec![(theirs, b_service)]);
}
