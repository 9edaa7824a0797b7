//! Knuth's Algorithm X on Dancing Links.

mod limits;
mod stats;

pub use limits::{CancelToken, Limits};
pub use stats::{Report, Stats, StopReason};
