//! Limits that cut a search short, and a token to cancel it from another thread.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use crate::time::Instant;

/// A flag shared between a running search and whoever may want to stop it.
///
/// Cloning the token shares the flag. The search polls it "fairly regularly"
/// (every few thousand nodes), so cancellation takes effect within microseconds.
#[derive(Clone, Debug, Default)]
pub struct CancelToken(Arc<AtomicBool>);

impl CancelToken {
    /// A fresh token that is not cancelled.
    pub fn new() -> Self {
        Self::default()
    }

    /// Ask every search holding this token to stop.
    pub fn cancel(&self) {
        self.0.store(true, Ordering::Relaxed);
    }

    /// Whether [`cancel`](Self::cancel) was called.
    pub fn is_cancelled(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }
}

/// Bounds on a search. The default has no bounds at all.
///
/// A search that hits a limit is not a failure: its report says which limit
/// stopped it ([`StopReason`](crate::StopReason)), and an answer cut short is
/// "unknown", never "no solution".
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// Stop after this many solutions. Default: no limit.
    pub max_solutions: Option<u64>,
    /// Stop after entering this many search nodes. Default: no limit.
    pub max_nodes: Option<u64>,
    /// Stop at this instant. Default: no deadline.
    pub deadline: Option<Instant>,
    /// Stop when this token is cancelled. Default: none.
    pub cancel: Option<CancelToken>,
}

impl Limits {
    /// No limits.
    pub fn none() -> Self {
        Self::default()
    }

    /// Stop after `n` solutions.
    pub fn solutions(n: u64) -> Self {
        Self {
            max_solutions: Some(n),
            ..Self::default()
        }
    }

    /// Builder-style: set the solution limit.
    pub fn with_max_solutions(mut self, n: u64) -> Self {
        self.max_solutions = Some(n);
        self
    }

    /// Builder-style: set the node limit.
    pub fn with_max_nodes(mut self, n: u64) -> Self {
        self.max_nodes = Some(n);
        self
    }

    /// Builder-style: stop `d` from now.
    pub fn with_timeout(mut self, d: Duration) -> Self {
        self.deadline = Some(Instant::now() + d);
        self
    }

    /// Builder-style: stop at `t`.
    pub fn with_deadline(mut self, t: Instant) -> Self {
        self.deadline = Some(t);
        self
    }

    /// Builder-style: stop when `token` is cancelled.
    pub fn with_cancel(mut self, token: CancelToken) -> Self {
        self.cancel = Some(token);
        self
    }

    /// Whether the slow limits (deadline, cancellation) say stop now.
    /// Searches call this every few thousand nodes, not on every node.
    pub fn poll(&self) -> Option<crate::StopReason> {
        if let Some(c) = &self.cancel {
            if c.is_cancelled() {
                return Some(crate::StopReason::Cancelled);
            }
        }
        if let Some(d) = self.deadline {
            if Instant::now() >= d {
                return Some(crate::StopReason::Deadline);
            }
        }
        None
    }

    /// Whether there is any slow limit to poll at all.
    pub fn has_slow_limits(&self) -> bool {
        self.cancel.is_some() || self.deadline.is_some()
    }
}
