//! Stories of data clearance: the conflict count in SQL agrees with the
//! domain's rule on every combination; decisions are checked, scoped,
//! written to the timeline and followed up before they expire.

use super::{open, org_with_owner, t0, Backend, TestDb};
use aivet_domain::clearance::{verdict, Case, Cite, Clearance, ClearanceDraft, Decision};
use aivet_domain::follow_ups::FollowUpReason;
use aivet_domain::inventory::{FindingTopic, ServiceForm, VendorForm};
use aivet_domain::questions::{Assessment, DecisionDraft};
use aivet_domain::timeline::Event;
use aivet_domain::{DataClassId, RequestId, ServiceId};
use aivet_store::follow_ups::FollowUpQuery;
use aivet_store::inventory::ServiceQuery;
use aivet_store::{AuditEvent, DynStore, StoreError, Tenant};
use chrono::{Duration, NaiveDate};

pub fn ev() -> AuditEvent {
    AuditEvent::PolicyReviewed
}

pub fn today() -> NaiveDate {
    t0().date_naive()
}

/// (protected class, unprotected class) of a new organisation.
pub async fn two_classes(store: &DynStore, t: &Tenant) -> (DataClassId, DataClassId) {
    let classes = store.data_classes(t).await.unwrap();
    let protected = classes
        .iter()
        .find(|c| c.needs_clearance && c.personal)
        .unwrap()
        .id;
    let open = classes.iter().find(|c| !c.needs_clearance).unwrap().id;
    (protected, open)
}

pub async fn service(
    store: &DynStore,
    t: &Tenant,
    name: &str,
    classes: &[DataClassId],
    status: &str,
) -> ServiceId {
    let vendor = VendorForm {
        name: format!("Vendor of {name}"),
        role: "application".into(),
        ..Default::default()
    };
    let vendor = store
        .create_vendor(t, &vendor.parse().unwrap(), ev(), t0())
        .await
        .unwrap();
    let form = ServiceForm {
        name: name.into(),
        vendor_id: vendor.to_string(),
        status: status.into(),
        data_classes: classes.iter().map(|c| c.to_string()).collect(),
        ..Default::default()
    };
    store
        .create_service(t, &form.parse().unwrap(), ev(), t0())
        .await
        .unwrap()
}

pub fn draft(clearance: Clearance, expires_on: Option<NaiveDate>) -> ClearanceDraft {
    ClearanceDraft {
        clearance,
        condition: (clearance == Clearance::Conditional).then(|| "only pseudonymised".to_owned()),
        expires_on,
        evidence: Vec::new(),
    }
}

pub async fn conflicted_by_sql(store: &DynStore, t: &Tenant, on: NaiveDate) -> Vec<ServiceId> {
    let q = ServiceQuery {
        conflicts_on: Some(on),
        limit: 500,
        ..Default::default()
    };
    let mut ids: Vec<ServiceId> = store
        .services(t, &q)
        .await
        .unwrap()
        .rows
        .into_iter()
        .map(|r| r.id)
        .collect();
    ids.sort();
    ids
}

/// Whether the domain's rule puts a service in conflict today, from what
/// the store gives back.
pub async fn in_conflict(store: &DynStore, t: &Tenant, s: ServiceId) -> bool {
    let m = store.service_clearance(t, s).await.unwrap();
    m.classes.iter().any(|class| {
        let row = m.decisions.iter().find(|k| k.data_class_id == class.id);
        let decision = row.map(|k| Decision {
            clearance: k.clearance,
            expires_on: k.expires_on,
            decided_at: k.decided_at,
        });
        verdict(&Case {
            protected: class.needs_clearance,
            assessment: m.service.assessment,
            decision: decision.as_ref(),
            suspended_since: m.service.suspended_since,
            today: today(),
        })
        .conflict(m.receives.contains(&class.id))
    })
}

/// Every assessment a member can set × every kind of decision (none,
/// allowed, conditional, not allowed, expired), on a protected and an
/// unprotected class: the services SQL finds in conflict, and the count,
/// are exactly those the domain's rule puts in conflict.
pub async fn conflicts_in_sql_agree_with_the_rule(b: Backend) {
    let Some(db) = TestDb::new(b).await else {
        return;
    };
    let store = open(&db).await;
    let (_, t) = org_with_owner(&store, "a@example.com", "A").await;
    // Without a single service the dashboard still has its figures, all
    // nought, as each read on its own gives them.
    let d = store.dashboard(&t, today()).await.unwrap();
    assert_eq!(d.inventory, store.inventory_counts(&t).await.unwrap());
    assert_eq!(
        d.inventory.in_use + d.inventory.trial + d.inventory.retired,
        0
    );
    assert_eq!(
        d.clearance,
        store.clearance_counts(&t, today()).await.unwrap()
    );
    assert_eq!(d.advisories, store.advisory_counts(&t).await.unwrap());
    let (protected, unprotected) = two_classes(&store, &t).await;
    let assessments = [
        None,
        Some(Assessment::Cleared),
        Some(Assessment::Conditional),
        Some(Assessment::NotCleared),
    ];
    let decisions: [Option<(Clearance, Option<i64>)>; 6] = [
        None,
        Some((Clearance::Allowed, None)),
        Some((Clearance::Conditional, Some(30))),
        Some((Clearance::NotAllowed, None)),
        Some((Clearance::Allowed, Some(-1))),
        Some((Clearance::Allowed, Some(0))),
    ];
    let mut expected = Vec::new();
    let mut all = Vec::new();
    let mut n = 0;
    for a in assessments {
        for d in decisions {
            n += 1;
            let s = service(
                &store,
                &t,
                &format!("Service {n:02}"),
                &[protected, unprotected],
                "in_use",
            )
            .await;
            if let Some(a) = a {
                let decision = DecisionDraft {
                    decision: a,
                    note: None,
                };
                store.decide(&t, s, &decision, ev(), t0()).await.unwrap();
            }
            // The unprotected class gets another kind of decision than the
            // protected one, so that every pair of kinds meets.
            let other = decisions[n % decisions.len()];
            for (class, dd) in [(protected, d), (unprotected, other)] {
                if let Some((c, days)) = dd {
                    let expires = days.map(|d| today() + Duration::days(d));
                    store
                        .decide_clearance(&t, s, class, &draft(c, expires), ev(), t0())
                        .await
                        .unwrap();
                }
            }
            if in_conflict(&store, &t, s).await {
                expected.push(s);
            }
            all.push(s);
        }
    }
    expected.sort();
    // Not every combination is a conflict, nor none of them.
    assert!(
        !expected.is_empty() && expected.len() < n,
        "{} of {n}",
        expected.len()
    );
    assert_eq!(conflicted_by_sql(&store, &t, today()).await, expected);
    let counts = store.clearance_counts(&t, today()).await.unwrap();
    assert_eq!(counts.conflicts, expected.len() as i64);
    // The dashboard reads the same figures in its one transaction.
    let d = store.dashboard(&t, today()).await.unwrap();
    assert_eq!(d.clearance, counts);
    assert_eq!(d.inventory, store.inventory_counts(&t).await.unwrap());
    assert_eq!(
        d.follow_ups,
        store.follow_up_counts(&t, today()).await.unwrap()
    );
    assert_eq!(d.advisories, store.advisory_counts(&t).await.unwrap());
    assert!(d.inventory.in_use + d.inventory.trial > 0, "{d:?}");
    // "Which data where" reads, for every service in use, what its own
    // page reads: its classes received and its decisions.
    let o = store.clearance_overview(&t).await.unwrap();
    assert_eq!(
        o.services.iter().map(|s| s.id).collect::<Vec<_>>(),
        all,
        "by name"
    );
    assert_eq!(o.classes, store.clearance_policy(&t).await.unwrap().classes);
    for s in &all {
        let own = store.service_clearance(&t, *s).await.unwrap();
        let mut receives: Vec<_> = o
            .receives
            .iter()
            .filter(|(of, _)| of == s)
            .map(|(_, c)| *c)
            .collect();
        let mut own_receives = own.receives.clone();
        receives.sort();
        own_receives.sort();
        assert_eq!(receives, own_receives);
        let mut decisions: Vec<_> = o
            .decisions
            .iter()
            .filter(|k| k.service_id == *s)
            .cloned()
            .collect();
        let mut own_decisions = own.decisions.clone();
        decisions.sort_by_key(|k| k.data_class_id);
        own_decisions.sort_by_key(|k| k.data_class_id);
        assert_eq!(decisions, own_decisions);
        assert_eq!(o.services.iter().find(|x| x.id == *s), Some(&own.service));
    }
    assert!(o
        .decisions
        .iter()
        .any(|k| k.expires_on.is_some() && k.condition.is_some()));
    // Services without a decision on the protected class.
    assert_eq!(counts.undecided, assessments.len() as i64);
    assert!(!counts.policy_reviewed);

    // The owner protects the other class too: the figures follow the policy.
    let open = store
        .data_classes(&t)
        .await
        .unwrap()
        .into_iter()
        .find(|c| c.id == unprotected)
        .unwrap();
    let marks = aivet_domain::inventory::ClassMarks {
        personal: false,
        needs_clearance: true,
    };
    let name = aivet_domain::inventory::ItemName::parse(&open.name).unwrap();
    store
        .update_data_class(&t, unprotected, &name, marks, false, ev(), t0())
        .await
        .unwrap();
    let mut now_expected = Vec::new();
    for s in &all {
        if in_conflict(&store, &t, *s).await {
            now_expected.push(*s);
        }
    }
    now_expected.sort();
    assert!(now_expected.len() > expected.len());
    assert_eq!(conflicted_by_sql(&store, &t, today()).await, now_expected);
    let marks = aivet_domain::inventory::ClassMarks {
        personal: false,
        needs_clearance: false,
    };
    store
        .update_data_class(&t, unprotected, &name, marks, false, ev(), t0())
        .await
        .unwrap();
    assert_eq!(conflicted_by_sql(&store, &t, today()).await, expected);

    // Retired and archived services receive nothing any more: no conflict.
    let retired = service(&store, &t, "Retired", &[protected], "retired").await;
    let archived = service(&store, &t, "Archived", &[protected], "in_use").await;
    store
        .set_service_archived(&t, archived, true, ev(), t0())
        .await
        .unwrap();
    let on_trial = service(&store, &t, "On trial", &[protected], "trial").await;
    let found = conflicted_by_sql(&store, &t, today()).await;
    assert!(!found.contains(&retired) && !found.contains(&archived));
    assert!(found.contains(&on_trial));
    assert_eq!(
        store.clearance_counts(&t, today()).await.unwrap().conflicts,
        expected.len() as i64 + 1
    );
    // The dashboard's one pass over the services by status counts them as
    // each read on its own does, today and on the day the expiries count.
    for day in [today(), today() + Duration::days(1)] {
        let d = store.dashboard(&t, day).await.unwrap();
        assert_eq!(d.clearance, store.clearance_counts(&t, day).await.unwrap());
        assert_eq!(d.inventory, store.inventory_counts(&t).await.unwrap());
        assert_eq!(d.follow_ups, store.follow_up_counts(&t, day).await.unwrap());
        assert_eq!(d.advisories, store.advisory_counts(&t).await.unwrap());
        assert!(
            d.inventory.retired > 0 && d.clearance.conflicts > 0,
            "{d:?}"
        );
    }

    // A day later, the decisions whose last day was today have expired.
    let later = conflicted_by_sql(&store, &t, today() + Duration::days(1)).await;
    assert!(
        later.len() > found.len(),
        "{} then {}",
        found.len(),
        later.len()
    );
}

pub async fn clearance_decisions_are_checked_scoped_and_followed_up(b: Backend) {
    let Some(db) = TestDb::new(b).await else {
        return;
    };
    let store = open(&db).await;
    let (_, a) = org_with_owner(&store, "a@example.com", "A").await;
    let (_, b_) = org_with_owner(&store, "b@example.com", "B").await;
    let (a_protected, a_open) = two_classes(&store, &a).await;
    let (b_protected, _) = two_classes(&store, &b_).await;
    let mine = service(&store, &a, "Mine", &[a_protected], "in_use").await;
    let theirs = service(&store, &b_, "Theirs", &[b_protected], "in_use").await;
    let allowed = draft(Clearance::Allowed, None);

    // Another organisation's service or class is not found, and nothing is written.
    for (service, class) in [(theirs, a_protected), (mine, b_protected)] {
        assert!(matches!(
            store
                .decide_clearance(&a, service, class, &allowed, ev(), t0())
                .await,
            Err(StoreError::NotFound)
        ));
    }
    assert!(store.service_clearance(&a, theirs).await.is_err());
    assert!(store
        .service_clearance(&b_, theirs)
        .await
        .unwrap()
        .decisions
        .is_empty());

    // Evidence the service does not have is refused.
    let foreign_answer = ClearanceDraft {
        evidence: vec![Cite::Answer {
            request: RequestId(uuid::Uuid::new_v4()),
            position: 0,
        }],
        ..allowed.clone()
    };
    assert!(matches!(
        store
            .decide_clearance(&a, mine, a_protected, &foreign_answer, ev(), t0())
            .await,
        Err(StoreError::UnknownRefs(_))
    ));
    let missing_finding = ClearanceDraft {
        evidence: vec![Cite::Finding(FindingTopic::Retention)],
        ..allowed.clone()
    };
    assert!(matches!(
        store
            .decide_clearance(&a, mine, a_protected, &missing_finding, ev(), t0())
            .await,
        Err(StoreError::UnknownRefs(_))
    ));
    assert!(store
        .service_clearance(&a, mine)
        .await
        .unwrap()
        .decisions
        .is_empty());

    // A decision with a last day opens "decision expires" some days before it.
    let expiring = |days: i64| draft(Clearance::Conditional, Some(today() + Duration::days(days)));
    store
        .decide_clearance(&a, mine, a_protected, &expiring(60), ev(), t0())
        .await
        .unwrap();
    store
        .decide_clearance(&a, mine, a_open, &expiring(30), ev(), t0())
        .await
        .unwrap();
    let expiry = || async {
        store
            .follow_ups(
                &a,
                &FollowUpQuery {
                    reason: Some(FollowUpReason::DecisionExpiry),
                    ..Default::default()
                },
            )
            .await
            .unwrap()
            .into_iter()
            .map(|f| f.due_on)
            .collect::<Vec<_>>()
    };
    assert_eq!(expiry().await, vec![today() + Duration::days(30 - 14)]);
    // Deciding again replaces the decision; the follow-up moves to the next last day.
    store
        .decide_clearance(&a, mine, a_open, &allowed, ev(), t0())
        .await
        .unwrap();
    assert_eq!(expiry().await, vec![today() + Duration::days(60 - 14)]);
    store
        .decide_clearance(&a, mine, a_protected, &allowed, ev(), t0())
        .await
        .unwrap();
    assert!(expiry().await.is_empty());
    let m = store.service_clearance(&a, mine).await.unwrap();
    assert_eq!(m.decisions.len(), 2);
    assert!(m
        .decisions
        .iter()
        .all(|k| k.clearance == Clearance::Allowed && k.expires_on.is_none()));

    // Each decision is on the service's timeline, with the class's name.
    let events = store.question_events(&a, mine).await.unwrap();
    let decided: Vec<&Event> = events
        .iter()
        .map(|e| &e.event)
        .filter(|e| matches!(e, Event::ClearanceDecided { .. }))
        .collect();
    assert_eq!(decided.len(), 4);
    assert!(decided.iter().any(|e| matches!(
        e,
        Event::ClearanceDecided {
            clearance: Clearance::Conditional,
            condition: Some(_),
            expires_on: Some(_),
            ..
        }
    )));

    // An archived service is closed to decisions.
    store
        .set_service_archived(&a, mine, true, ev(), t0())
        .await
        .unwrap();
    assert!(matches!(
        store
            .decide_clearance(
                &a,
                mine,
                a_open,
                &draft(Clearance::NotAllowed, None),
                ev(),
                t0()
            )
            .await,
        Err(StoreError::Closed)
    ));

    // The policy is checked once by an owner; B's stays unchecked.
    assert_eq!(store.clearance_policy(&a).await.unwrap().reviewed, None);
    store.review_clearance_policy(&a, ev(), t0()).await.unwrap();
    assert_eq!(
        store.clearance_policy(&a).await.unwrap().reviewed,
        Some((t0(), "Owner".to_owned()))
    );
    assert!(
        store
            .clearance_counts(&a, today())
            .await
            .unwrap()
            .policy_reviewed
    );
    assert!(
        !store
            .clearance_counts(&b_, today())
            .await
            .unwrap()
            .policy_reviewed
    );
}
