//! An exact-cover engine: Knuth's Algorithm X on Dancing Links, with
//! secondary items, colours (XCC) and multiplicities, and a second engine on
//! Knuth's "dancing cells" (sparse sets, as in his SSXCC program) for
//! problems without multiplicities.
//!
//! An exact-cover problem is a set of *items* and a list of *options*, each a
//! subset of the items; a solution picks options that cover every primary
//! item exactly once (or within its multiplicity bounds) and every secondary
//! item at most once, or only by options that agree on its colour. Sudoku,
//! N-queens, polyomino tilings and word squares are all exact-cover problems;
//! this crate knows nothing about any of them.
//!
//! # Guide
//!
//! 1. **Describe the problem.** From Rust, declare items and add options with
//!    a [`ProblemBuilder`], which validates them into an immutable
//!    [`Problem`] (or a [`BuildError`] naming the option and item at fault).
//!    From text, [`format::parse`] reads Knuth's DLX1/DLX2/DLX3 format, with
//!    line and column in its errors; a [`Problem`] prints back in the same
//!    format. For a big file, [`format::parse_owned`] keeps the text as the
//!    options' texts instead of copying them, and [`Dlx::parse`] and
//!    [`Cells::parse`] read it straight into an engine (no [`Problem`]
//!    beside it); [`Dlx::parse_stream`] reads it as a stream and keeps no
//!    text at all: [`Dlx::options`] and [`Dlx::search_named`] write the
//!    options from the engine's nodes by their items' names
//!    ([`OptionNames`]).
//! 2. **Pick an engine.**
//!    - [`Dlx`] (dancing links) is the complete one: multiplicities, a
//!      solution iterator ([`Dlx::solutions`]), an [`Observer`] for traces and
//!      progress ([`Dlx::progress`]), options selected up front
//!      ([`Dlx::select`]). Use it when in doubt.
//!    - [`Cells`] (Knuth, TAOCP 7.2.2.3, "dancing cells") searches on
//!      another representation: each item keeps its active options in a
//!      sparse set, and backtracking restores set sizes from a trail instead
//!      of relinking. It takes the same [`Problem`], [`Config`] and
//!      [`Limits`] and gives the same answers. Like Knuth's SSXCC it never
//!      enters a choice that leaves a primary item with no option, so its
//!      tree is smaller (pentominoes 6×10: 1.21M nodes against 3.62M);
//!      with [`Cells::set_pruning`]`(false)` and MRV it searches [`Dlx`]'s
//!      tree (node counts match). It is faster where covering removes many options
//!      (pentominoes, Sudoku as XCC) and about level with [`Dlx`] elsewhere.
//!      It has no multiplicities ([`CellsError`]), no solution iterator and no
//!      observer yet.
//!    - [`Bits`] keeps the live options as one bit set and each option's
//!      clashes as another, computed once: choosing an option is a few
//!      AND-NOTs, an item's options left a population count. For problems
//!      of up to [`Bits::MAX_OPTIONS`] options it searches the cells
//!      engine's pruned tree several times faster (queens, Langford pairs,
//!      pentominoes: 3–5×); its work per node grows with primary items ×
//!      options, so on problems with hundreds of primary items (Sudoku as
//!      XCC) `Cells` is faster. No multiplicities ([`BitsError`]).
//!    - [`Memo`] caches the answer of every subproblem by the state of the
//!      items left (DXZ's idea): orders of magnitude faster where
//!      subproblems repeat (tilings), about level with plain search where
//!      they do not (pentominoes). [`Memo::count`] counts (`u128`);
//!      [`Memo::zdd`] builds the reduced, ordered [`Zdd`] of all solutions,
//!      which counts at any size ([`Zdd::count_big`]), samples solutions
//!      uniformly ([`Zdd::samples`]) and ranks them by option weights
//!      ([`Zdd::best`]). Colours are handled; multiplicities are not
//!      ([`MemoError`]).
//! 3. **Ask.** [`Dlx`], [`Cells`] and [`Bits`] give the [first](Dlx::first) solution, a
//!    [count](Dlx::count), or [visit](Dlx::search) solutions with a callback
//!    that can stop the search (`ControlFlow::Break`). A solution is a list
//!    of option indices (from 0, in the order options were added).
//!    [`count_parallel`], [`Cells::count_parallel`] and
//!    [`Bits::count_parallel`] count on several
//!    threads and give the same count and node total as one thread.
//! 4. **Bound it.** [`Limits`] cap solutions, nodes and time, and take a
//!    [`CancelToken`] another thread can set. Every search ends with a
//!    [`Report`]: [`Stats`] (nodes, guesses, solutions, depth, peak bytes,
//!    link updates) and a [`StopReason`]. A search cut short never claims "no
//!    solution": only [`StopReason::Exhausted`] makes a count exact.
//!
//! [`Config`] chooses the branching [`Heuristic`] (minimum remaining values
//! by default, or the first item as a baseline) and an optional seed for a
//! random but reproducible option order ([`SplitMix64`]).
//!
//! # Examples
//!
//! Knuth's first example (TAOCP 7.2.2.1 (5)), built from Rust: items A to
//! G, six options, one solution.
//!
//! ```
//! use exact_cover::{Cells, Dlx, Limits, ProblemBuilder};
//!
//! let mut b = ProblemBuilder::new();
//! for n in ["A", "B", "C", "D", "E", "F", "G"] {
//!     b.primary(n);
//! }
//! for opt in [&["C", "E", "F"][..], &["A", "D", "G"], &["B", "C", "F"], &["A", "D"], &["B", "G"], &["D", "E", "G"]] {
//!     b.option_named(opt.iter().copied());
//! }
//! let problem = b.build()?;
//!
//! let mut dlx = Dlx::new(&problem);
//! let (solution, report) = dlx.first(&Limits::none());
//! let mut solution = solution.expect("a solution");
//! solution.sort();
//! assert_eq!(solution, vec![0, 3, 4]); // {C E F}, {A D}, {B G}
//! assert_eq!(report.stats.solutions, 1);
//!
//! // Counting: the report's stats hold the count, exact when the search
//! // was complete. The dancing-cells engine agrees.
//! let report = dlx.count(&Limits::none());
//! assert_eq!(report.stats.solutions, 1);
//! assert!(report.stop.is_complete());
//! let mut cells = Cells::new(&problem).expect("no multiplicities");
//! assert_eq!(cells.count(&Limits::none()).stats.solutions, 1);
//! # Ok::<(), exact_cover::BuildError>(())
//! ```
//!
//! Secondary items: eight queens, one option per square covering its row
//! and column (primary: each exactly once) and its two diagonals (secondary:
//! at most once). Counted on one thread, on two, and under a node limit:
//!
//! ```
//! use exact_cover::{count_parallel, Config, Dlx, ItemId, Limits, ProblemBuilder, StopReason};
//!
//! let n = 8;
//! let mut b = ProblemBuilder::new();
//! let rows: Vec<ItemId> = (0..n).map(|r| b.primary(&format!("r{r}"))).collect();
//! let cols: Vec<ItemId> = (0..n).map(|c| b.primary(&format!("c{c}"))).collect();
//! let ups: Vec<ItemId> = (0..2 * n - 1).map(|d| b.secondary(&format!("a{d}"))).collect();
//! let downs: Vec<ItemId> = (0..2 * n - 1).map(|d| b.secondary(&format!("b{d}"))).collect();
//! for r in 0..n {
//!     for c in 0..n {
//!         let square = [rows[r], cols[c], ups[r + c], downs[r + n - 1 - c]];
//!         b.option(square.map(|item| (item, None)));
//!     }
//! }
//! let problem = b.build()?;
//!
//! let mut dlx = Dlx::new(&problem);
//! assert_eq!(dlx.count(&Limits::none()).stats.solutions, 92);
//! let report = count_parallel(&problem, Config::default(), &Limits::none(), 2);
//! assert_eq!(report.stats.solutions, 92);
//!
//! // Cut short: the count so far is a lower bound, not an answer.
//! let report = dlx.count(&Limits::none().with_max_nodes(50));
//! assert_eq!(report.stop, StopReason::NodeLimit);
//! assert!(report.stop.is_cut_short());
//! # Ok::<(), exact_cover::BuildError>(())
//! ```
//!
//! The same kind of problem from Knuth's text format, with a coloured
//! secondary item (`X` may be shared by options that give it the same
//! colour):
//!
//! ```
//! use exact_cover::{format, Dlx, Limits};
//!
//! let parsed = format::parse("A B | X\nA X:red\nB X:red\nB X:blue\n")?;
//! let mut dlx = Dlx::new(&parsed.problem);
//! let solutions: Vec<Vec<usize>> = dlx.solutions().collect();
//! assert_eq!(solutions.len(), 1); // {A X:red} with {B X:red}, not {B X:blue}
//! let mut chosen = solutions[0].clone();
//! chosen.sort();
//! assert_eq!(&parsed.option_texts[chosen[1]], "B X:red");
//! # Ok::<(), format::ParseError>(())
//! ```
//!
//! The crate's `examples/` show whole programs: `queens` (secondary items,
//! [`count_parallel`]) and `word_squares` (colours).
//!
//! # Design
//!
//! - One node array in Knuth's packed layout with spacer nodes, `u32` links;
//!   no allocation per search node; solvers are reusable across problems
//!   ([`Dlx::load`]).
//! - The search runs on an explicit stack as a resumable state machine, so
//!   deep problems cannot overflow the call stack and the solution iterator
//!   is natural.
//! - Item choice is a run-time [`Heuristic`], not a Cargo feature; it
//!   changes speed, never the set of solutions.
//! - Two representations behind the same vocabulary types: [`Dlx`] (dancing
//!   links) and [`Cells`] (dancing cells).
//! - Parallel counting splits the tree at a shallow level into independent
//!   subtrees whose counts add up ([`Stats`] implement `AddAssign`). The
//!   same split, as lists of forced options that any machine can count on
//!   its own ([`split`]), is what a cluster runs.
//! - [`Stats`] is plain data: public fields, `#[non_exhaustive]` so fields
//!   can be added. `+=` sums the counts (nodes, guesses, solutions, updates)
//!   and takes the max of `max_depth` and `peak_bytes`; a parallel count
//!   reports the bytes of all its threads' copies, as those run at once. A
//!   [`Report`] is the stats and the [`StopReason`], nothing else: the
//!   solution count is [`Stats::solutions`]. `sudoku_core::Stats` and
//!   `sudoku_core::Report` have the same shape, names and `+=` rules.

#![warn(missing_docs)]

mod bits;
mod cells;
pub mod format;
mod limits;
mod links;
mod memo;
pub mod order;
mod parallel;
mod problem;
pub mod rng;
mod search;
pub mod split;
mod stats;
pub mod time;
mod zdd;

pub use bits::{Bits, BitsError};
pub use cells::{Cells, CellsError, TrailStyle};
pub use limits::{CancelToken, Limits};
pub use memo::{Memo, MemoCount, MemoError};
pub use order::{AUTO_MAX_WORK, ItemOrder};
pub use parallel::count_parallel;
pub use problem::{BuildError, ColourId, Entry, Item, ItemId, Problem, ProblemBuilder};
pub use rng::SplitMix64;
pub use search::{Config, Dlx, Heuristic, NoObserver, Observer, OptionNames, Solutions};
pub use stats::{Report, Stats, StopReason};
pub use zdd::{ZDD_BOTTOM, ZDD_TOP, Zdd, ZddCheckError, ZddNode};

/// The README's example, run as a doc test so it stays correct.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctest;
