//! The compliance report's PDF, as the release binary lays it out: the
//! server hands each document to `aivet render-pdf`, a process of its own,
//! so its time and memory are that process's (wall time; peak resident
//! memory from the kernel's accounting of the ended process, `wait4`).
//! Then the running server: its memory before and after it made reports.

use aivet_domain::report::example_with_services;
use aivet_domain::report_view::view;
use aivet_domain::Lang;
use std::io::{Read, Write};
use std::path::Path;
use std::time::{Duration, Instant};

/// Wall time, peak resident memory (KB) and size of one PDF of `n` services.
// The child is reaped by `wait4`, which also reads its peak memory.
#[allow(clippy::zombie_processes)]
fn render(bin: &Path, n: usize) -> (Duration, u64, usize) {
    let report = example_with_services(n);
    let json = serde_json::to_vec(&view(&report, Lang::De)).unwrap();
    let start = Instant::now();
    let mut child = std::process::Command::new(bin)
        .arg("render-pdf")
        .arg(report.generated_at.to_rfc3339())
        .arg(env!("CARGO_PKG_VERSION"))
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || stdin.write_all(&json));
    let mut pdf = Vec::new();
    child.stdout.take().unwrap().read_to_end(&mut pdf).unwrap();
    writer.join().unwrap().unwrap();
    let (mut status, mut usage) = (0, unsafe { std::mem::zeroed::<libc::rusage>() });
    // SAFETY: waits for our own child, whose pid is valid until waited for.
    let pid = unsafe { libc::wait4(child.id() as i32, &mut status, 0, &mut usage) };
    let took = start.elapsed();
    assert!(pid > 0 && libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0);
    assert!(pdf.starts_with(b"%PDF-"));
    (took, usage.ru_maxrss as u64, pdf.len())
}

/// Table rows for the PDFs of 50 and 500 services (50 only in a quick run).
pub fn pdfs(bin: &Path, quick: bool) {
    let sizes: &[usize] = if quick { &[50] } else { &[50, 500] };
    for &n in sizes {
        let (took, peak_kb, len) = render(bin, n);
        println!(
            "| PDF of {n} services, German (`aivet render-pdf`): wall time / peak RSS / size | {:.2} s / {:.0} MB / {:.1} MB |",
            took.as_secs_f64(),
            peak_kb as f64 / 1024.0,
            len as f64 / 1_048_576.0
        );
    }
}
