//! An exact-cover engine: Knuth's Algorithm X on Dancing Links, with
//! secondary items, colours (XCC) and multiplicities, and a second engine on
//! Knuth's "dancing cells" (sparse sets, as in his SSXCC program) for
//! problems without multiplicities.
//!
//! # Guide
//!
//! Build a [`Problem`] with a [`ProblemBuilder`] (or parse Knuth's text format
//! with [`format::parse`]), load it into a [`Dlx`] solver, then ask for the
//! [first](Dlx::first) solution, [count](Dlx::count) them,
//! [iterate](Dlx::solutions) over them, or [visit](Dlx::search) them with a
//! callback that can stop the search. [`Limits`] bound a search by solutions,
//! nodes, time or a [`CancelToken`]; the [`Report`] says why it stopped, and a
//! search cut short never claims "no solution". [`count_parallel`] counts on
//! several threads.
//!
//! [`Cells`] is the same search on another representation (Knuth, TAOCP
//! 7.2.2.3, "dancing cells"): each item keeps its active options in a sparse
//! set and backtracking restores set sizes from a trail instead of relinking.
//! It takes the same [`Problem`], [`Config`] and [`Limits`], gives the same
//! answers and, with MRV, the same search tree (node counts); it is faster
//! where covering removes many options (pentominoes, Sudoku as XCC) and about
//! level with [`Dlx`] elsewhere. It counts in parallel too
//! ([`Cells::count_parallel`]); it has no multiplicities ([`CellsError`]),
//! no solution iterator and no observer yet.
//!
//! ```
//! use exact_cover::{Dlx, Limits, ProblemBuilder};
//!
//! // Knuth's first example (TAOCP 7.2.2.1 (5)): items A..G, six options.
//! let mut b = ProblemBuilder::new();
//! for n in ["A", "B", "C", "D", "E", "F", "G"] {
//!     b.primary(n);
//! }
//! for opt in [&["C", "E", "F"][..], &["A", "D", "G"], &["B", "C", "F"], &["A", "D"], &["B", "G"], &["D", "E", "G"]] {
//!     b.option_named(opt.iter().copied());
//! }
//! let problem = b.build().unwrap();
//! let mut dlx = Dlx::new(&problem);
//! let (solution, report) = dlx.first(&Limits::none());
//! let mut solution = solution.unwrap();
//! solution.sort();
//! assert_eq!(solution, vec![0, 3, 4]); // {C E F}, {A D}, {B G}
//! assert_eq!(dlx.count(&Limits::none()).stats.solutions(), 1);
//! ```
//!
//! The crate's `examples/` show whole programs: `queens` (secondary items,
//! [`count_parallel`]) and `word_squares` (colours).
//!
//! # Design
//!
//! - One node array in Knuth's packed layout with spacer nodes, `u32` links;
//!   no allocation per search node; solvers are reusable across problems.
//! - The search runs on an explicit stack as a resumable state machine.
//! - Item choice is a run-time [`Heuristic`]: minimum remaining values
//!   (default) or first item (the no-heuristic baseline).
//! - Two representations behind the same vocabulary types: [`Dlx`] (dancing
//!   links) and [`Cells`] (dancing cells).

#![warn(missing_docs)]

mod cells;
pub mod format;
mod limits;
mod links;
mod parallel;
mod problem;
pub mod rng;
mod search;
mod stats;

pub use cells::{Cells, CellsError};
pub use limits::{CancelToken, Limits};
pub use parallel::count_parallel;
pub use problem::{BuildError, ColourId, Entry, Item, ItemId, Problem, ProblemBuilder};
pub use rng::SplitMix64;
pub use search::{Config, Dlx, Heuristic, NoObserver, Observer, Solutions};
pub use stats::{Report, Stats, StopReason};
