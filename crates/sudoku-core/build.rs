//! Build script: enables the AVX-512 kernel of the `fast` method when the
//! compiler is new enough to have the AVX-512 intrinsics (Rust 1.89); the
//! crate's MSRV is older, and there the AVX2 kernel is the widest.

use std::process::Command;

fn main() {
    println!("cargo::rustc-check-cfg=cfg(fast_avx512)");
    println!("cargo::rerun-if-changed=build.rs");
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
    let minor = Command::new(rustc)
        .arg("--version")
        .output()
        .ok()
        .and_then(|o| String::from_utf8(o.stdout).ok())
        .and_then(|v| v.split_whitespace().nth(1).map(str::to_owned))
        .and_then(|v| {
            let mut parts = v.split('.');
            let major: u32 = parts.next()?.parse().ok()?;
            let minor: u32 = parts.next()?.parse().ok()?;
            Some(if major > 1 { u32::MAX } else { minor })
        });
    if minor.is_some_and(|m| m >= 89) {
        println!("cargo::rustc-cfg=fast_avx512");
    }
}
