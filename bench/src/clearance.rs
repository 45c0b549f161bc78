//! Data clearance: the page for everyone and a service's page with its
//! matrix, at N = 500 services × 10 data classes, against their in-memory
//! ceilings. (The dashboard's conflict count is in the dashboard's figures
//! of the main tables, at N = 5,000.)

use crate::{
    auth_of, bench_server, mean_ms, measure, seed, settle, signed_in_as, table_header, tenant_of,
};
use aivet_domain::clearance::{Clearance, ClearanceDraft};
use aivet_domain::inventory::{ClassMarks, ItemName};
use aivet_domain::questions::{Assessment, DecisionDraft};
use aivet_store::testing::Backend;
use aivet_store::AuditEvent;

pub async fn all(quick: bool) {
    for (name, backend) in [
        ("SQLite", Backend::Sqlite),
        ("PostgreSQL", Backend::Postgres),
    ] {
        println!("\n## Data clearance ({name}, 16 connections, N = 500 services × 10 classes)\n");
        pages(quick, backend).await;
    }
}

async fn pages(quick: bool, backend: Backend) {
    let Some(b) = bench_server(backend, quick).await else {
        println!("(not configured: eval \"$(scripts/pg.sh env)\")");
        return;
    };
    table_header();
    let n = 500;
    let email = "k500@example.com";
    let c = signed_in_as(&b.base, email, "Clearance 500").await;
    let t = tenant_of(&b.services, email).await;
    let store = &b.services.store;
    let now = chrono::Utc::now();
    // Five classes more than a new organisation has: ten in all.
    for i in 0..5 {
        let name = ItemName::parse(&format!("Class {i}")).unwrap();
        let marks = ClassMarks {
            personal: false,
            needs_clearance: i % 2 == 0,
        };
        store
            .create_data_class(&t, &name, marks, AuditEvent::PolicyReviewed, now)
            .await
            .expect("seed class");
    }
    let ids = seed::inventory(store, &t, n, false).await;
    let classes = store.data_classes(&t).await.expect("classes");
    let cleared = DecisionDraft {
        decision: Assessment::Cleared,
        note: None,
    };
    // Every other service cleared, with a decision on three classes each.
    for (i, id) in ids.iter().enumerate().filter(|(i, _)| i % 2 == 0) {
        store
            .decide(&t, *id, &cleared, AuditEvent::PolicyReviewed, now)
            .await
            .expect("seed assessment");
        for (k, class) in classes.iter().enumerate().skip(i % 4).take(3) {
            let draft = ClearanceDraft {
                clearance: [
                    Clearance::Allowed,
                    Clearance::Conditional,
                    Clearance::NotAllowed,
                ][k % 3],
                condition: (k % 3 == 1).then(|| "Only pseudonymised".to_owned()),
                expires_on: None,
                evidence: Vec::new(),
            };
            store
                .decide_clearance(&t, *id, class.id, &draft, AuditEvent::PolicyReviewed, now)
                .await
                .expect("seed decision");
        }
    }
    settle(&b).await;
    // The calls behind the two pages on their own, to tell reading from
    // rendering (one at a time, one connection).
    let auth = auth_of(&b.services, email, &t).await;
    let calls = [
        (
            "store: overview",
            mean_ms(|| store.clearance_overview(&t)).await,
        ),
        (
            "rule: guide",
            mean_ms(|| b.services.clearance_guide(&auth)).await,
        ),
        (
            "store: one service",
            mean_ms(|| store.service_clearance(&t, ids[0])).await,
        ),
        (
            "rule: matrix",
            mean_ms(|| b.services.clearance_matrix(&auth, ids[0])).await,
        ),
        (
            "store: service page",
            mean_ms(|| store.service_page(&t, ids[0])).await,
        ),
        (
            "service page's call",
            mean_ms(|| b.services.service_page(&auth, ids[0])).await,
        ),
    ];
    measure(&c, &b, &format!("which data where {n}"), "/allowed").await;
    measure(
        &c,
        &b,
        &format!("service page with matrix {n}"),
        &format!("/services/{}", ids[0]),
    )
    .await;
    let calls: Vec<String> = calls
        .iter()
        .map(|(name, ms)| format!("{name} {ms:.2} ms"))
        .collect();
    println!(
        "\nCalls behind them, one at a time (mean of 50): {}",
        calls.join(", ")
    );
}
