//! Search statistics and the report a search ends with.

use std::ops::AddAssign;

/// Counters kept by a search. Per-thread stats add up with `+=`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Stats {
    pub(crate) nodes: u64,
    pub(crate) updates: u64,
    pub(crate) solutions: u64,
    pub(crate) guesses: u64,
    pub(crate) max_depth: u32,
    pub(crate) bytes: u64,
}

impl Stats {
    /// Search-tree nodes entered (the root counts as one).
    pub fn nodes(&self) -> u64 {
        self.nodes
    }
    /// Link updates: list removals done by cover/hide/purify (Knuth's
    /// "updates"); for [`Cells`](crate::Cells), sparse-set removals.
    pub fn updates(&self) -> u64 {
        self.updates
    }
    /// Solutions visited.
    pub fn solutions(&self) -> u64 {
        self.solutions
    }
    /// Guesses: alternatives tried at choice points that had more than one
    /// (a forced move, an item with a single option left, is not a guess).
    pub fn guesses(&self) -> u64 {
        self.guesses
    }
    /// Deepest level reached (number of choices on the current path).
    pub fn max_depth(&self) -> u32 {
        self.max_depth
    }
    /// Bytes of the search structure (links, headers, stacks); for summed
    /// per-thread stats this is the total over threads.
    pub fn bytes(&self) -> u64 {
        self.bytes
    }
}

impl AddAssign for Stats {
    fn add_assign(&mut self, o: Stats) {
        self.nodes += o.nodes;
        self.updates += o.updates;
        self.solutions += o.solutions;
        self.guesses += o.guesses;
        self.max_depth = self.max_depth.max(o.max_depth);
        self.bytes += o.bytes;
    }
}

/// Why a search stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum StopReason {
    /// The whole search tree was explored: the solutions seen are all there are.
    Exhausted,
    /// `max_solutions` solutions were found.
    SolutionLimit,
    /// `max_nodes` nodes were entered.
    NodeLimit,
    /// The deadline passed.
    Deadline,
    /// The cancel token was set.
    Cancelled,
    /// The visitor returned `ControlFlow::Break`.
    Visitor,
}

impl StopReason {
    /// Whether the search saw the whole tree (so a count is exact and
    /// "no solution" is a proof).
    pub fn is_complete(self) -> bool {
        self == StopReason::Exhausted
    }

    /// Whether a limit (nodes, time, cancellation) cut the search short before
    /// its answer was known.
    pub fn is_cut_short(self) -> bool {
        matches!(
            self,
            StopReason::NodeLimit | StopReason::Deadline | StopReason::Cancelled
        )
    }
}

impl StopReason {
    /// Why the search stopped, in words ("node limit reached"): the
    /// `Display` text, as a `&'static str`.
    pub fn describe(self) -> &'static str {
        match self {
            StopReason::Exhausted => "search complete",
            StopReason::SolutionLimit => "solution limit reached",
            StopReason::NodeLimit => "node limit reached",
            StopReason::Deadline => "time limit reached",
            StopReason::Cancelled => "cancelled",
            StopReason::Visitor => "stopped by the caller",
        }
    }
}

impl std::fmt::Display for StopReason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.describe())
    }
}

/// What a search returns besides its solutions: statistics and why it stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Report {
    /// What the search did: nodes, updates, solutions seen, depth, memory.
    pub stats: Stats,
    /// Why it ended. Only [`StopReason::Exhausted`] makes a count exact and
    /// an empty result a proof of "no solution"; see
    /// [`StopReason::is_cut_short`].
    pub stop: StopReason,
}
