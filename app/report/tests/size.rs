//! How long a large report takes and how much memory it needs: the PDF of
//! 50 and of 500 services, each with a request of five answered questions,
//! a follow-up, a mail and an audit entry. Run in release, by hand:
//!
//! ```sh
//! cargo test --release -p aivet-report --test size -- --ignored --nocapture
//! ```
//!
//! It prints the wall time, the peak resident memory above what the process
//! held before, and the resident memory after the document (the memo cache
//! is emptied); BENCHMARKS.md keeps the figures.

use aivet_domain::report::example_with_services as with_services;
use aivet_domain::report_view::view;
use aivet_domain::Lang;

/// VmRSS and VmHWM of this process, in MB.
fn memory() -> (f64, f64) {
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    let kb = |key: &str| {
        status
            .lines()
            .find(|l| l.starts_with(key))
            .and_then(|l| l.split_whitespace().nth(1))
            .and_then(|v| v.parse::<f64>().ok())
            .unwrap_or(0.0)
            / 1024.0
    };
    (kb("VmRSS:"), kb("VmHWM:"))
}

#[test]
#[ignore = "a measurement; run by hand in release"]
fn large_reports() {
    // As the server does at start (app/server/src/main.rs): large blocks
    // are mapped and handed back when freed.
    // SAFETY: sets an allocator parameter before other threads allocate.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, 256 * 1024);
    }
    // Warm up once (fonts parsed, library built), as a running server is.
    let small = with_services(1);
    aivet_report::pdf(
        serde_json::to_vec(&view(&small, Lang::En)).unwrap(),
        small.generated_at,
    )
    .unwrap();
    for n in [50, 500] {
        let report = with_services(n);
        let (before, _) = memory();
        let start = std::time::Instant::now();
        let json = serde_json::to_vec(&view(&report, Lang::De)).unwrap();
        let pdf = aivet_report::pdf(json, report.generated_at).unwrap();
        let took = start.elapsed();
        figures(pdf, n, took, before);
    }
}

/// Prints the figures once the document is dropped: resident memory as the
/// allocator leaves it, and after it was asked to hand back free pages.
fn figures(pdf: Vec<u8>, n: usize, took: std::time::Duration, before: f64) {
    let len = pdf.len();
    drop(pdf);
    let (after, peak) = memory();
    // SAFETY: malloc_trim only returns free memory to the system.
    unsafe {
        libc::malloc_trim(0);
    }
    let (trimmed, _) = memory();
    println!(
        "{n} services: {:.2} s, {} KB PDF, peak {:.0} MB above {:.0} MB before, \
         {:.0} MB resident after, {:.0} MB after malloc_trim",
        took.as_secs_f64(),
        len / 1024,
        peak - before,
        before,
        after,
        trimmed
    );
}
