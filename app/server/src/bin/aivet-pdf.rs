//! `aivet-pdf TIME VERSION`: lays out one report PDF for the server, in a
//! process of its own (`aivet_server::reports::WorkerPdf`). The report's
//! JSON comes on standard input, the PDF goes to standard output; TIME is
//! the PDF's creation time (RFC 3339), VERSION the version of aivet that
//! asks. A worker of another version declines with exit code 3.
//!
//! The PDF engine lives in this executable only, so that its code is not
//! part of the server's (BENCHMARKS.md, 2026-12-03).

use aivet_server::reports::{OTHER_VERSION, PDF_WORKER};
use std::io::{Read, Write};
use std::process::ExitCode;

fn main() -> ExitCode {
    aivet_server::return_large_blocks_when_freed();
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [created, version] = args.as_slice() else {
        eprintln!(
            "usage: {PDF_WORKER} TIME VERSION < report.json > report.pdf\n\n\
             The report's PDF worker, started by aivet for each PDF; people use\n\
             `aivet report --format pdf` instead."
        );
        return ExitCode::from(2);
    };
    match render(created, version) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => {
            eprintln!(
                "{PDF_WORKER}: aivet {version} asked; this worker is {}",
                env!("CARGO_PKG_VERSION")
            );
            ExitCode::from(OTHER_VERSION as u8)
        }
        Err(e) => {
            eprintln!("{PDF_WORKER}: {e}");
            ExitCode::FAILURE
        }
    }
}

/// `Ok(false)`: the server that asked is another version.
fn render(created: &str, version: &str) -> Result<bool, String> {
    if version != env!("CARGO_PKG_VERSION") {
        return Ok(false);
    }
    let created = chrono::DateTime::parse_from_rfc3339(created)
        .map_err(|e| format!("the creation time {created:?}: {e}"))?
        .with_timezone(&chrono::Utc);
    let mut json = Vec::new();
    std::io::stdin()
        .read_to_end(&mut json)
        .map_err(|e| format!("reading the report: {e}"))?;
    let pdf = aivet_report::pdf(json, created).map_err(|e| e.to_string())?;
    let mut out = std::io::stdout().lock();
    out.write_all(&pdf)
        .and_then(|()| out.flush())
        .map_err(|e| format!("writing the PDF: {e}"))?;
    Ok(true)
}
