//! Link settings of the `aivet` and `aivet-pdf` binaries.

fn main() {
    let os = std::env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
    let env = std::env::var("CARGO_CFG_TARGET_ENV").unwrap_or_default();
    // Relative relocations in the compact RELR form (glibc ≥ 2.36): the
    // loader reads a few kilobytes at start instead of the 680 KB of a
    // position-independent executable's full relocation table, all of
    // which stayed resident (BENCHMARKS.md, 2026-12-01).
    if os == "linux" && env == "gnu" {
        for bin in ["aivet", "aivet-pdf"] {
            println!("cargo:rustc-link-arg-bin={bin}=-Wl,-z,pack-relative-relocs");
        }
    }
}
