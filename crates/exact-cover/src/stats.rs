//! Search statistics and the report a search ends with.
//!
//! `sudoku_core::Stats` has the same shape: the same fields under the same
//! names with the same `+=` rule (`nodes`, `guesses`, `solutions`,
//! `max_depth`, `peak_bytes`), plus fields of its own; keep them in step.

use std::ops::AddAssign;

/// Counters kept by a search: plain data with public fields.
///
/// Stats of several searches add up with `+=` (per-thread stats of a
/// parallel count, searches of a batch); each field says what `+=` does
/// with it: counts **sum**, `max_depth` and `peak_bytes` take the **max**.
/// The struct is `#[non_exhaustive]`, so fields can be added: outside this
/// crate, start from [`Stats::default`] and set fields.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[non_exhaustive]
pub struct Stats {
    /// Search-tree nodes entered (the root counts as one). `+=` sums.
    pub nodes: u64,
    /// Guesses: alternatives tried at choice points that had more than one
    /// (a forced move, an item with a single option left, is not a guess).
    /// `+=` sums.
    pub guesses: u64,
    /// Solutions visited (the count, for a counting search). `+=` sums.
    pub solutions: u64,
    /// Deepest level reached (number of choices on the current path).
    /// `+=` takes the max.
    pub max_depth: u32,
    /// Bytes of the search structure at its largest (links, headers,
    /// stacks). `+=` takes the max: searches added up are taken to have run
    /// one after another. Parallel counts ([`count_parallel`](crate::count_parallel),
    /// [`Cells::count_parallel`](crate::Cells::count_parallel)), whose
    /// threads run at once, report the bytes of all the threads' copies.
    pub peak_bytes: u64,
    /// Link updates: list removals done by cover/hide/purify (Knuth's
    /// "updates"); for [`Cells`](crate::Cells), sparse-set removals.
    /// `+=` sums.
    pub updates: u64,
    /// Memory accesses, counted as Knuth's programs count "mems" (one per
    /// word of the search's data read or written), by
    /// [`Cells`](crate::Cells) and [`Dlx`](crate::Dlx) when asked
    /// ([`Cells::set_mems`](crate::Cells::set_mems),
    /// [`Dlx::set_mems`](crate::Dlx::set_mems); see their docs for exactly
    /// what is counted); otherwise 0, and 0 from the memoised search,
    /// which does not count them. `+=` sums.
    #[serde(default)]
    pub mems: u64,
}

impl AddAssign for Stats {
    /// Sums the counts; `max_depth` and `peak_bytes` take the max.
    fn add_assign(&mut self, o: Stats) {
        self.nodes += o.nodes;
        self.guesses += o.guesses;
        self.solutions += o.solutions;
        self.max_depth = self.max_depth.max(o.max_depth);
        self.peak_bytes = self.peak_bytes.max(o.peak_bytes);
        self.updates += o.updates;
        self.mems += o.mems;
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
    /// The search reached its level limit ([`Dlx::set_max_level`](crate::Dlx::set_max_level))
    /// with items left, and went no deeper: the solutions seen are those with
    /// at most that many options, the count a lower bound.
    LevelLimit,
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
            StopReason::NodeLimit
                | StopReason::Deadline
                | StopReason::Cancelled
                | StopReason::LevelLimit
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
            StopReason::LevelLimit => "level limit reached",
        }
    }
}

impl std::fmt::Display for StopReason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.describe())
    }
}

/// What a search returns besides its solutions: statistics and why it
/// stopped. The solution count is [`Stats::solutions`]. Anything else a
/// search measures goes in [`Stats`], so a `Report` stays these two fields.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Report {
    /// What the search did: nodes, guesses, solutions, depth, memory, updates.
    pub stats: Stats,
    /// Why it ended. Only [`StopReason::Exhausted`] makes a count exact and
    /// an empty result a proof of "no solution"; see
    /// [`StopReason::is_cut_short`].
    pub stop: StopReason,
}
