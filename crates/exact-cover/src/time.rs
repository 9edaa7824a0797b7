//! The clock the searches read: `Instant` (deadlines, elapsed time) and
//! `SystemTime` (seeds), one type for every target.
//!
//! On native targets these are `std::time`'s own types (so `Limits`'s
//! deadline is a `std::time::Instant`, nothing changes). On
//! `wasm32-unknown-unknown`, where `std::time::Instant::now` panics (that
//! target has no clock), they are the `web-time` crate's, which read the
//! browser's `performance.now()` and `Date.now()` and have the same API.

#[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
pub use std::time::{Instant, SystemTime, UNIX_EPOCH};

#[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
pub use web_time::{Instant, SystemTime, UNIX_EPOCH};
