//! Follow-ups: the board at N = 500 and 5,000 services (one follow-up
//! each, a decided service's re-assessment) against its in-memory ceiling,
//! the calendar feed of 500 items, and the reminder sweep: the first
//! reminder of R open requests falling due at once, run by one worker, then
//! the second, the notes that the deadline passed, the third, the fourth and
//! the marks "no answer", with the process's memory after each pass.

use crate::{auth_of, tenant_of};
use crate::{
    bench_server, bench_server_on, mean_ms, measure, ms, seed, settle, signed_in_as, table_header,
};
use aivet_domain::inventory::ContactForm;
use aivet_domain::questions::{Assessment, DecisionDraft, SendForm};
use aivet_services::FixedClock;
use aivet_store::follow_ups::FollowUpQuery;
use aivet_store::testing::Backend;
use aivet_store::AuditEvent;
use std::sync::Arc;
use std::time::Instant;

pub async fn all(quick: bool) {
    for (name, backend) in [
        ("SQLite", Backend::Sqlite),
        ("PostgreSQL", Backend::Postgres),
    ] {
        println!("\n## Follow-ups ({name}, 16 connections)\n");
        board(quick, backend).await;
    }
    println!("\n## Reminder sweep (one worker; every request's first reminder due at once, then the second, the deadline notes, the third, the fourth, \"no answer\")\n");
    println!("| database | requests | first sweep | per request | second sweep | deadline notes | third sweep | fourth sweep | \"no answer\" |");
    println!("|---|---|---|---|---|---|---|---|---|");
    let r = std::env::var("AIVET_BENCH_REQUESTS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(if quick { 200 } else { 5000 });
    let mut memory = Vec::new();
    for (name, backend) in [
        ("SQLite", Backend::Sqlite),
        ("PostgreSQL", Backend::Postgres),
    ] {
        match sweep(backend, r).await {
            Some((times, mem)) => {
                println!("| {name} | {r} | {times} |");
                memory.push(format!("| {name} | {r} | {mem} |"));
            }
            None => {
                println!(
                    "| {name} | not configured (eval \"$(scripts/pg.sh env)\") | | | | | | | |"
                )
            }
        }
    }
    // RSS keeps what the allocator once held; the heap in use is what the
    // program holds now. Growth per request shows as heap growing by the
    // same amount with every sweep of the same size.
    println!("\nMemory of the process before the first sweep and after each pass (MB): RSS; heap in use (malloc's own count), of it SQLite's (its own count, its page caches among it) and the rest.\n");
    println!("| database | requests | RSS | heap in use | of it SQLite | heap without SQLite |");
    println!("|---|---|---|---|---|---|");
    for line in memory {
        println!("{line}");
    }
}

/// The board and the feed for N decided services.
async fn board(quick: bool, backend: Backend) {
    let Some(b) = bench_server(backend, quick).await else {
        println!("(not configured: eval \"$(scripts/pg.sh env)\")");
        return;
    };
    let sizes: &[usize] = if quick { &[500] } else { &[500, 5000] };
    table_header();
    let mut one_at_a_time = Vec::new();
    let mut behind = Vec::new();
    for &n in sizes {
        let email = format!("f{n}@example.com");
        let c = signed_in_as(&b.base, &email, &format!("Follow-ups {n}")).await;
        let t = tenant_of(&b.services, &email).await;
        let ids = seed::inventory(&b.services.store, &t, n, false).await;
        let decision = DecisionDraft {
            decision: Assessment::Cleared,
            note: None,
        };
        let now = chrono::Utc::now();
        for id in &ids {
            b.services
                .store
                .decide(&t, *id, &decision, AuditEvent::SignedIn, now)
                .await
                .expect("seed decision");
        }
        settle(&b).await;
        let auth = auth_of(&b.services, &email, &t).await;
        let store = &b.services.store;
        let page = FollowUpQuery {
            limit: Some(aivet_services::follow_ups::BOARD_ROWS),
            ..FollowUpQuery::default()
        };
        let calls = [
            ("store: rows", mean_ms(|| store.follow_ups(&t, &page)).await),
            (
                "store: count",
                mean_ms(|| store.count_follow_ups(&t, &page)).await,
            ),
            (
                "store: vendor names",
                mean_ms(|| store.vendor_names(&t)).await,
            ),
            ("store: members", mean_ms(|| store.members(&t)).await),
            (
                "store: own settings",
                mean_ms(|| store.my_follow_up_settings(&t)).await,
            ),
            (
                "store: board in one transaction",
                mean_ms(|| store.follow_up_board(&t, &page)).await,
            ),
            (
                "board",
                mean_ms(|| b.services.follow_up_board(&auth, &page)).await,
            ),
            (
                "feed link",
                mean_ms(|| b.services.calendar_link(&auth)).await,
            ),
        ];
        measure(&c, &b, &format!("follow-ups board {n}"), "/follow-ups").await;
        let calls: Vec<String> = calls
            .iter()
            .map(|(name, ms)| format!("{name} {ms:.2} ms"))
            .collect();
        behind.push((n, calls.join(", ")));
        // The member's feed: every follow-up of the services they look after.
        let r = c
            .post(format!("{}/api/rotate_calendar", b.base))
            .header("origin", &b.base)
            .send()
            .await
            .unwrap();
        assert!(r.status().is_success() || r.status().is_redirection());
        let data: serde_json::Value = c
            .post(format!("{}/api/follow_ups_data", b.base))
            .header("origin", &b.base)
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        let link = data["calendar_link"].as_str().expect("a feed link");
        let path = &link[link.find("/calendar/").expect("a feed path")..];
        let anonymous = reqwest::Client::new();
        measure(&anonymous, &b, &format!("calendar feed {n} items"), path).await;
        let token = path
            .trim_start_matches("/calendar/")
            .trim_end_matches(".ics")
            .to_owned();
        let call = mean_ms(|| b.services.calendar_feed(&token)).await;
        one_at_a_time.push((
            n,
            one_by_one(&anonymous, &format!("{}{path}", b.base)).await,
            call,
        ));
    }
    for (n, calls) in behind {
        println!("\nCalls behind the board of {n}, one at a time (mean of 50): {calls}");
    }
    // What one calendar's fetch takes, without other requests queued
    // before it (the target is per request).
    for (n, took, call) in one_at_a_time {
        println!(
            "\nCalendar feed of {n} items, one request at a time on one connection: {:.2} ms each (mean of {ONE_BY_ONE}); the call behind it (read and write the feed, no HTTP): {call:.2} ms",
            took.as_secs_f64() * 1000.0
        );
    }
}

/// How many requests `one_by_one` makes.
const ONE_BY_ONE: u32 = 50;

/// The mean time of one GET of `url`, after a few to warm up.
async fn one_by_one(c: &reqwest::Client, url: &str) -> std::time::Duration {
    let get = || async {
        let r = c.get(url).send().await.unwrap();
        assert!(r.status().is_success(), "{url}: {}", r.status());
        r.bytes().await.unwrap();
    };
    for _ in 0..5 {
        get().await;
    }
    let start = std::time::Instant::now();
    for _ in 0..ONE_BY_ONE {
        get().await;
    }
    start.elapsed() / ONE_BY_ONE
}

/// R requests whose first reminder falls due at the same time, followed by
/// one worker through every pass until they are marked "no answer": the
/// time of each pass, and the process's memory before and after each.
async fn sweep(backend: Backend, r: usize) -> Option<(String, String)> {
    let clock = Arc::new(FixedClock::new(
        chrono::DateTime::parse_from_rfc3339("2026-12-01T12:00:00Z")
            .unwrap()
            .into(),
    ));
    let b = bench_server_on(
        backend,
        true,
        clock.clone(),
        &[("AIVET_JOB_WORKER", "off"), ("AIVET_MAIL_WORKER", "off")],
    )
    .await?;
    let email = "sweep@example.com";
    signed_in_as(&b.base, email, "Sweep AS").await;
    let s = &b.services;
    let t = tenant_of(s, email).await;
    let ids = seed::inventory(&s.store, &t, r, false).await;
    let auth = auth_of(s, email, &t).await;
    let vendors = s.store.vendor_names(&t).await.unwrap();
    let mut contacts = Vec::new();
    for (i, v) in vendors.iter().enumerate() {
        let form = ContactForm {
            name: format!("Contact {i}"),
            email: format!("security{i}@vendor.example"),
            lang: "en".into(),
            role: "security".into(),
            primary: true,
        };
        contacts.push(s.add_contact(&auth, v.id, &form).await.unwrap());
    }
    // Service i belongs to vendor i mod V (the seed's order, by name).
    for (i, id) in ids.iter().enumerate() {
        let form = SendForm {
            send_key: uuid::Uuid::new_v4().to_string(),
            contacts: vec![contacts[i % contacts.len()].to_string()],
            deadline: "2026-12-05".into(),
            ..Default::default()
        };
        s.send_questions(&auth, Some(*id), &form).await.unwrap();
    }
    // PostgreSQL's statistics as a running deployment has them: without
    // them every pass looked up 100 requests by scanning the whole
    // organisation's (the plans of empty tables).
    settle(&b).await;
    // The first reminders are due on 2 December at 09:00, the second on
    // the deadline (5 December), the deadline is noted on the timeline
    // when its day has ended, the third and fourth reminders go one and two
    // weeks after it, and a week after the fourth the request counts as
    // unanswered. Memory that the later passes add would grow with the
    // requests; memory the first one kept stays with the process.
    let mut memory = vec![Memory::now()];
    let mut took = Vec::new();
    for at in [
        "2026-12-02T12:00:00Z",
        "2026-12-05T12:00:00Z",
        "2026-12-06T12:00:00Z",
        "2026-12-12T12:00:00Z",
        "2026-12-19T12:00:00Z",
        "2026-12-26T12:00:00Z",
    ] {
        clock.set(chrono::DateTime::parse_from_rfc3339(at).unwrap().into());
        let start = Instant::now();
        let pass = s
            .run_due_jobs("bench", &aivet_services::jobs::JobSettings::default())
            .await
            .unwrap();
        took.push(start.elapsed());
        memory.push(Memory::now());
        assert_eq!(pass.done, r, "every job due at {at} ran once: {pass:?}");
    }
    // The last pass marked the requests "no answer": a sample of them.
    for id in [ids[0], ids[r / 2], ids[r - 1]] {
        let requests = s.store.service_requests(&t, id).await.unwrap();
        assert!(
            requests.iter().all(|q| q.no_answer_at.is_some()),
            "the request for {id} ended as \"no answer\""
        );
    }
    let times = format!(
        "{} | {} | {} | {} | {} | {} | {}",
        ms(took[0]),
        ms(took[0] / r as u32),
        ms(took[1]),
        ms(took[2]),
        ms(took[3]),
        ms(took[4]),
        ms(took[5]),
    );
    let mb = |kb: u64| format!("{:.1}", kb as f64 / 1024.0);
    let column = |f: fn(&Memory) -> u64| {
        memory
            .iter()
            .map(|m| mb(f(m)))
            .collect::<Vec<_>>()
            .join(" → ")
    };
    let mem = format!(
        "{} | {} | {} | {}",
        column(|m| m.rss_kb),
        column(|m| m.heap_kb),
        column(|m| m.sqlite_kb),
        column(|m| m.heap_kb.saturating_sub(m.sqlite_kb))
    );
    Some((times, mem))
}

/// This process's memory (the server runs in it).
struct Memory {
    rss_kb: u64,
    /// Bytes handed out by malloc and not freed yet, in KB.
    heap_kb: u64,
    /// What SQLite has allocated of it, in KB.
    sqlite_kb: u64,
}

impl Memory {
    fn now() -> Memory {
        // SAFETY: mallinfo2 only reads glibc's counters.
        let info = unsafe { libc::mallinfo2() };
        // SAFETY: sqlite3_memory_used only reads SQLite's counter.
        let sqlite = unsafe { libsqlite3_sys::sqlite3_memory_used() };
        Memory {
            rss_kb: rss_kb(),
            heap_kb: ((info.uordblks + info.hblkhd) / 1024) as u64,
            sqlite_kb: (sqlite.max(0) / 1024) as u64,
        }
    }
}

/// This process's resident memory (the server runs in it).
fn rss_kb() -> u64 {
    crate::rss_kb(std::process::id(), "VmRSS:")
}
