//! Link settings of the `aivet` and `aivet-pdf` binaries.

fn main() {
    let os = std::env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
    let env = std::env::var("CARGO_CFG_TARGET_ENV").unwrap_or_default();
    let arch = std::env::var("CARGO_CFG_TARGET_ARCH").unwrap_or_default();
    let release = std::env::var("PROFILE").as_deref() == Ok("release");
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=link-order.txt");
    // Relative relocations in the compact RELR form (glibc ≥ 2.36): the
    // loader reads a few kilobytes at start instead of the 680 KB of a
    // position-independent executable's full relocation table, all of
    // which stayed resident (BENCHMARKS.md, 2026-12-01).
    if os == "linux" && env == "gnu" {
        for bin in ["aivet", "aivet-pdf"] {
            println!("cargo:rustc-link-arg-bin={bin}=-Wl,-z,pack-relative-relocs");
        }
    }
    // The code that start-up and the pages run, side by side at the start
    // of the server's code (bench/link-order.sh makes the list): the kernel
    // maps the executable in 64 KB blocks around each fault, so scattered
    // code keeps much more of it resident than the code itself
    // (BENCHMARKS.md, 2026-12-05). rust-lld, Rust's default linker on
    // x86_64 Linux, reads the list; names that are no longer in the
    // program are skipped.
    if release && os == "linux" && env == "gnu" && arch == "x86_64" {
        let list = std::path::Path::new(&std::env::var("CARGO_MANIFEST_DIR").unwrap())
            .join("link-order.txt");
        if list.exists() {
            // A copy in the build's own directory: cargo reuses this
            // script's output for another checkout of the same sources
            // sharing the target directory (its change check is relative
            // to the package), and a path into the first checkout would
            // then point at a file that may be gone.
            let copy =
                std::path::Path::new(&std::env::var("OUT_DIR").unwrap()).join("link-order.txt");
            std::fs::copy(&list, &copy).expect("copy link-order.txt");
            println!(
                "cargo:rustc-link-arg-bin=aivet=-Wl,--symbol-ordering-file={}",
                copy.display()
            );
            println!("cargo:rustc-link-arg-bin=aivet=-Wl,--no-warn-symbol-ordering");
        }
    }
}
