//! Side-by-side comparisons with other crates.
