//! Engine advisories: matching N = 5,000 services against 100 advisories,
//! the pure rule on its own and the whole rematch of an organisation
//! (read the engines and the catalogue, match, write the hits) on both
//! databases. Matching runs when an advisory is imported or an engine
//! changes, never per page view.

use crate::{bench_server, signed_in_as, tenant_of};
use aivet_domain::advisory::{match_services, parse_osv, Advisory, Engine};
use aivet_store::testing::Backend;
use std::time::Instant;

/// 100 OSV records over the engines, with PyPI ranges (some with two
/// introduced/fixed pairs) and a few listed versions.
fn advisories() -> Vec<Advisory> {
    texts()
        .iter()
        .map(|json| parse_osv(json).expect("bench advisory"))
        .collect()
}

pub(crate) fn texts() -> Vec<String> {
    let packages = [
        "sglang",
        "vllm",
        "tensorrt-llm",
        "text-generation-inference",
    ];
    (0..100)
        .map(|i| {
            let package = packages[i % packages.len()];
            format!(
                r#"{{"id": "BENCH-{i:03}", "summary": "advisory {i}",
                    "affected": [{{"package": {{"ecosystem": "PyPI", "name": "{package}"}},
                      "ranges": [{{"type": "ECOSYSTEM", "events": [{{"introduced": "0.{}.0"}}, {{"fixed": "0.{}.{}"}},
                                                                   {{"introduced": "0.{}.0"}}, {{"fixed": "0.{}.{}"}}]}}],
                      "versions": ["0.{}.{}rc1"]}}]}}"#,
                i % 3,
                i % 3 + 1,
                i % 7,
                i % 3 + 2,
                i % 3 + 3,
                i % 11,
                i % 5,
                i % 13
            )
        })
        .collect()
}

fn median_ms(mut runs: Vec<f64>) -> f64 {
    runs.sort_by(|a, b| a.partial_cmp(b).unwrap());
    runs[runs.len() / 2]
}

pub async fn all(quick: bool) {
    let n = 5000;
    println!("\n## Engine advisories (N = {n} services × 100 advisories)\n");
    println!("| step | median ms | hits |");
    println!("|---|---|---|");
    let advisories = advisories();
    let services: Vec<(usize, Engine, Option<String>)> = (0..n)
        .map(|i| {
            let (e, v) = crate::seed::engine_of(i);
            (i, e, v)
        })
        .collect();
    let mut hits = 0;
    let runs: Vec<f64> = (0..if quick { 3 } else { 21 })
        .map(|_| {
            let t = Instant::now();
            let found = match_services(
                &advisories,
                services.iter().map(|(k, e, v)| (*k, *e, v.as_deref())),
            );
            hits = found.len();
            t.elapsed().as_secs_f64() * 1000.0
        })
        .collect();
    println!("| match (pure rule) | {:.1} | {hits} |", median_ms(runs));
    for (name, backend) in [
        ("SQLite", Backend::Sqlite),
        ("PostgreSQL", Backend::Postgres),
    ] {
        let Some(b) = bench_server(backend, quick).await else {
            println!("| rematch ({name}) | not configured | |");
            continue;
        };
        let email = "adv@example.com";
        signed_in_as(&b.base, email, "Advisories 5000").await;
        let t = tenant_of(&b.services, email).await;
        let store = &b.services.store;
        let ids = crate::seed::inventory(store, &t, n, false).await;
        assert_eq!(ids.len(), n);
        let osv: Vec<(String, String)> = texts()
            .into_iter()
            .zip(&advisories)
            .map(|(json, a)| (a.id.clone(), json))
            .collect();
        store
            .import_advisories(
                &t,
                &osv,
                aivet_store::AuditEvent::AdvisoriesImported { ids: vec![] },
                chrono::Utc::now(),
            )
            .await
            .expect("seed advisories");
        let mut found = 0;
        let mut runs = Vec::new();
        for _ in 0..if quick { 2 } else { 7 } {
            let t0 = Instant::now();
            found = b
                .services
                .rematch_advisories(t.org_id())
                .await
                .expect("rematch");
            runs.push(t0.elapsed().as_secs_f64() * 1000.0);
        }
        println!(
            "| rematch: read, match, write ({name}) | {:.1} | {found} |",
            median_ms(runs)
        );
        // What a service's save adds: that one service matched again.
        let mut runs = Vec::new();
        for i in 0..if quick { 5 } else { 41 } {
            let t0 = Instant::now();
            found = b
                .services
                .rematch_service(t.org_id(), ids[i * 97 % ids.len()])
                .await
                .expect("rematch one");
            runs.push(t0.elapsed().as_secs_f64() * 1000.0);
        }
        println!(
            "| one service matched again, a save ({name}) | {:.2} | {found} |",
            median_ms(runs)
        );
    }
}
