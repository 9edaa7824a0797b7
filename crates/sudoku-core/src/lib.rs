//! Sudoku grids, formats and solving methods.
//!
//! Every classic method is here side by side, behind one [`solve::Solver`]
//! trait with the same statistics, so they can be compared on the same puzzles.
//!
//! # A guide
//!
//! - [`format`](mod@format) reads puzzles: one per line (`.3..9..5....`, 16, 81, 256 or 625
//!   characters) or as grids of n lines with or without borders, in batches
//!   where each puzzle gets its own `Result` ([`format::parse_puzzles`],
//!   [`format::PuzzleReader`]); errors name the line, column and character. It
//!   also prints lines and grids, and reads and writes pencilmarks
//!   ([`Candidates`]).
//! - [`Grid`] holds the givens (0 = empty) of a 4×4, 9×9, 16×16 or 25×25 puzzle.
//! - [`solve`] has the methods, by name in [`solve::METHODS`] and
//!   [`solve::by_name`]:
//!   - `naive`: plain backtracking, the readable oracle;
//!   - `cached`: backtracking over candidates computed once;
//!   - `mrv`: candidate bitmasks, naked singles, fewest-candidates branching;
//!   - `mrv-hidden`: `mrv` plus hidden singles; the fastest here.
//!
//!   A solver owns its buffers: make one per thread and reuse it. Searches take
//!   [`Limits`] (solutions, nodes, deadline, cancellation); a search cut short
//!   says why in its [`Report`], and its answer is "unknown", never "no
//!   solution".
//!
//! Measuring methods side by side on puzzle sets (`sudoku bench`) is the
//! command line's job: the loop lives in the `sudoku-cli` crate.
//!
//! # Example
//!
//! ```
//! use sudoku_core::format::parse_line;
//! use sudoku_core::solve::by_name;
//! use sudoku_core::{Limits, Uniqueness};
//!
//! let puzzle = parse_line(
//!     ".3..9..5.....1...45..8....7....3.2..6....9.4...7..25.......19....69....812.....7.",
//! )?;
//! let mut solver = by_name("mrv-hidden").expect("a known method");
//! let (answer, report) = solver.uniqueness(&puzzle, &Limits::none());
//! match answer {
//!     Uniqueness::Unique(solution) => assert!(solution.to_line().starts_with("734296851")),
//!     other => panic!("expected one solution, got {other:?}"),
//! }
//! assert!(report.stats.nodes >= 1);
//! # Ok::<(), sudoku_core::ParseError>(())
//! ```

#![warn(missing_docs)]

pub mod format;
pub mod generate;
pub mod grid;
pub mod pipeline;
pub mod rate;
pub mod solve;

pub use format::{Candidates, ParseError, ParseErrorKind, Puzzle};
pub use grid::{CellName, Conflict, Grid, GridError, House, Size};
pub use solve::{Limits, Report, Solver, Stats, StopReason, TraceStep, Uniqueness};
