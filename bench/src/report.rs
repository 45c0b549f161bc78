//! The compliance report's PDF, as the release binary lays it out: the
//! server hands each document to `aivet-pdf`, a process of its own,
//! so its time and memory are that process's: wall time, and its peak
//! resident memory (VmHWM, read every 5 ms while it runs: the kernel's
//! `ru_maxrss` of a child counts the parent's memory at the moment of its
//! `exec`, here this benchmark's hundreds of megabytes).

use aivet_domain::report::example_with_services;
use aivet_domain::report_view::view;
use aivet_domain::Lang;
use std::io::{Read, Write};
use std::path::Path;
use std::time::{Duration, Instant};

/// VmHWM of process `pid` in KB, while it has its memory.
fn high_water_kb(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find_map(|l| l.strip_prefix("VmHWM:"))?;
    line.split_whitespace().next()?.parse().ok()
}

/// Wall time, peak resident memory (KB) and size of one PDF of `n` services.
fn render(bin: &Path, n: usize) -> (Duration, u64, usize) {
    let report = example_with_services(n);
    let json = serde_json::to_vec(&view(&report, Lang::De)).unwrap();
    let start = Instant::now();
    let mut child = std::process::Command::new(bin)
        .arg(report.generated_at.to_rfc3339())
        .arg(env!("CARGO_PKG_VERSION"))
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || stdin.write_all(&json));
    let pid = child.id();
    let done = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let sampler = {
        let done = done.clone();
        std::thread::spawn(move || {
            let mut peak = 0;
            while !done.load(std::sync::atomic::Ordering::Relaxed) {
                peak = high_water_kb(pid).unwrap_or(0).max(peak);
                std::thread::sleep(Duration::from_millis(5));
            }
            peak
        })
    };
    let mut pdf = Vec::new();
    child.stdout.take().unwrap().read_to_end(&mut pdf).unwrap();
    writer.join().unwrap().unwrap();
    let status = child.wait().unwrap();
    let took = start.elapsed();
    done.store(true, std::sync::atomic::Ordering::Relaxed);
    let peak = sampler.join().unwrap();
    assert!(status.success(), "aivet-pdf: {status}");
    assert!(pdf.starts_with(b"%PDF-"));
    (took, peak, pdf.len())
}

/// Table rows for the PDFs of 50 and 500 services (50 only in a quick run),
/// laid out by `bin` (the release `aivet-pdf`).
pub fn pdfs(bin: &Path, quick: bool) {
    let sizes: &[usize] = if quick { &[50] } else { &[50, 500] };
    for &n in sizes {
        let (took, peak_kb, len) = render(bin, n);
        println!(
            "| PDF of {n} services, German (`aivet-pdf`): wall time / peak RSS / size | {:.2} s / {:.0} MB / {:.1} MB |",
            took.as_secs_f64(),
            peak_kb as f64 / 1024.0,
            len as f64 / 1_048_576.0
        );
    }
}
