//! Sudoku grids, formats and solving methods, a rater and a generator.
//!
//! Every classic solving method is here side by side, behind one
//! [`Solver`] trait with the same statistics ([`Stats`]), so they can be
//! compared on the same puzzles; around them sit the tools a setter or a
//! batch job needs: parsers and printers, uniqueness checks, a human-style
//! rater, a generator and an ordered parallel pipeline.
//!
//! # Which method to use
//!
//! [`solve::Method`] is the list of methods (its names are the command
//! line's `--algo` values). In short: call [`Method::auto`](solve::Method::auto)
//! unless you are comparing methods.
//!
//! | method | what it is | use it when |
//! |---|---|---|
//! | `fast` | bit-parallel 9×9 solver (SIMD where the CPU has it) | solving 9×9 puzzles: the fastest here, by several times; 9×9 only, no trace |
//! | `mrv-hidden` | candidate bitmasks, naked and hidden singles, fewest-candidates branching | any other size (4×4 to 25×25), or a 9×9 search you want traced: the fastest general method |
//! | `mrv` | the same without hidden singles | seeing what hidden singles buy |
//! | `dlx` | Dancing Links on the exact-cover reduction, fewest-options column (Knuth's Algorithm X) | studying Sudoku as exact cover; the trace names the constraints |
//! | `dlx-pruned` | `dlx` with the givens placed up front and clashing rows never inserted | the exact-cover view with a smaller matrix |
//! | `dlx-first` | `dlx` branching on the first column (no heuristic) | a teaching baseline: shows what the heuristic is worth; very slow on hard puzzles |
//! | `cached` | backtracking over candidates computed once | a teaching baseline; slow on hard puzzles |
//! | `naive` | plain backtracking, rules checked by scanning | the readable oracle and teaching baseline; slow on hard puzzles |
//!
//! `auto` ([`Method::auto`](solve::Method::auto)) is `fast` for 9×9 and
//! `mrv-hidden` for every other size; [`Method::is_slow`](solve::Method::is_slow)
//! flags the three baselines, [`Method::supports`](solve::Method::supports)
//! says which sizes a method takes. Every method reaches the same verdicts
//! and counts; the heuristics change only speed. The repository's `BENCHMARKS.md` has the
//! measured figures (`sudoku bench` on the command line produces them).
//!
//! # A guide to the modules
//!
//! - [`format`](mod@format) reads puzzles: one per line (`.3..9..5....`, 16,
//!   81, 256 or 625 characters, `.`, `0` or `_` for blanks) or as grids of n
//!   lines with or without borders, in batches where each puzzle gets its own
//!   `Result` ([`format::parse_puzzles`], [`format::PuzzleReader`]); errors
//!   name the line, column and character, and conflicting givens are reported
//!   as such. For one puzzle, `"...".parse::<Grid>()` works ([`Grid`]
//!   implements `FromStr`). It also prints lines and grids, and reads and
//!   writes pencilmark lines ([`Candidates::parse_pencilmarks`],
//!   [`Candidates::to_pencilmarks`]).
//! - [`Grid`] (in [`grid`]) holds the givens (0 = empty) of a 4×4, 9×9, 16×16
//!   or 25×25 puzzle; [`Size`] says which.
//! - [`Candidates`] is a position being worked on: the placed digits and
//!   each empty cell's candidates, from a grid or a player's pencilmarks,
//!   updated as digits are placed and candidates eliminated. The rater works
//!   on it, and it is what a pencilmark line reads into.
//! - [`solve`] has the methods above, one value each ([`solve::Method`]:
//!   names, `FromStr`, a fresh solver, what each supports), the Sudoku → exact-cover
//!   encoder ([`solve::encode`]) and search traces ([`TraceStep`]). A solver
//!   owns its buffers: make one per thread and reuse it. Searches take
//!   [`Limits`] (solutions, nodes, deadline, cancellation); a search cut
//!   short says why in its [`Report`], and its answer is "unknown"
//!   ([`Uniqueness::Unknown`]), never "no solution".
//! - [`rate`] is the human-style step solver: it rates a puzzle on the Sudoku
//!   Explainer scale ([`rate::Rater`]), explains it step by step and gives
//!   hints, with techniques from full house to XY-chains
//!   ([`rate::Technique`]), each of which can be switched off.
//! - [`generate`] makes uniquely solvable puzzles (minimal by default), with
//!   a symmetry, a clue range or a difficulty target, reproducibly from a
//!   seed ([`generate::Generator`]).
//! - [`variant`] holds Sudoku variants: a [`variant::Puzzle`] of any of 30
//!   constraint kinds (killer cages, thermometers, arrows, kropki dots, extra
//!   regions, jigsaws, ...), read from the Interactive Sudoku Solver's text
//!   format, and [`variant::VariantSolver`], a propagating solver with the
//!   same limits, reports and uniqueness answers as the classic methods.
//! - [`pipeline`] is the batch engine: an ordered, bounded, parallel map
//!   from a stream of records to answers in input order, memory bounded by a
//!   window ([`pipeline::Pipeline`]). The command line runs its `solve`,
//!   `count`, `rate` and `explain` batches through it.
//!
//! Measuring methods side by side on puzzle sets (`sudoku bench`) is the
//! command line's job: that loop lives in the `sudoku-cli` crate.
//!
//! # Examples
//!
//! Solve a puzzle and prove its solution unique:
//!
//! ```
//! use sudoku_core::solve::Method;
//! use sudoku_core::{Grid, Limits, Uniqueness};
//!
//! let puzzle: Grid =
//!     ".3..9..5.....1...45..8....7....3.2..6....9.4...7..25.......19....69....812.....7."
//!         .parse()?;
//! let mut solver = Method::auto(puzzle.size()).solver(); // `fast` for 9×9
//! let (answer, report) = solver.uniqueness(&puzzle, &Limits::none());
//! match answer {
//!     Uniqueness::Unique(solution) => {
//!         assert!(solution.is_solution_of(&puzzle));
//!         assert!(solution.to_line().starts_with("734296851"));
//!     }
//!     other => panic!("expected one solution, got {other:?}"),
//! }
//! assert!(report.stop.is_complete()); // the whole tree was searched
//! # Ok::<(), sudoku_core::ParseError>(())
//! ```
//!
//! Count solutions, with a limit. The count is exact only when the report
//! says the search was complete:
//!
//! ```
//! use sudoku_core::solve::Method;
//! use sudoku_core::{Grid, Limits, Size, StopReason};
//!
//! let empty = Grid::empty(Size::FOUR);
//! let mut solver = Method::auto(Size::FOUR).solver(); // `mrv-hidden`
//! let (count, report) = solver.count(&empty, 1_000, &Limits::none());
//! assert_eq!(count, 288); // every 4×4 Sudoku
//! assert!(report.stop.is_complete());
//!
//! let (count, report) = solver.count(&empty, 10, &Limits::none());
//! assert_eq!((count, report.stop), (10, StopReason::SolutionLimit)); // "at least 10"
//! ```
//!
//! Rate a puzzle the way a person would solve it:
//!
//! ```
//! use sudoku_core::Grid;
//! use sudoku_core::rate::{Band, Rater};
//!
//! let puzzle: Grid =
//!     ".3..9..5.....1...45..8....7....3.2..6....9.4...7..25.......19....69....812.....7."
//!         .parse()?;
//! let rating = Rater::default().rate(&puzzle);
//! assert!(rating.is_solved());
//! assert_ne!(rating.band, Band::NeedsGuessing);
//! println!("{:.1} ({}), hardest step: {:?}", rating.difficulty, rating.band, rating.hardest);
//! # Ok::<(), sudoku_core::ParseError>(())
//! ```
//!
//! Generate a puzzle from a seed (the same seed and config always give the
//! same puzzle):
//!
//! ```
//! use sudoku_core::generate::{Generator, GeneratorConfig};
//! use sudoku_core::Size;
//!
//! let config = GeneratorConfig { seed: 7, ..GeneratorConfig::for_size(Size::NINE) };
//! let mut generator = Generator::new(config);
//! let made = generator.generate_seeded(7)?;
//! assert!(made.solution.is_solution_of(&made.puzzle));
//! assert!(made.minimal); // no clue can be removed
//! assert_eq!(generator.generate_seeded(7)?.puzzle, made.puzzle);
//! println!("{}", made.puzzle.to_line());
//! # Ok::<(), sudoku_core::generate::GenerateError>(())
//! ```
//!
//! # Design
//!
//! - **One trait, one set of statistics.** Every method implements
//!   [`Solver::search`], a visitor that may stop the search with
//!   `ControlFlow::Break`; [`first`](Solver::first),
//!   [`count`](Solver::count) and [`uniqueness`](Solver::uniqueness) are
//!   built on it. Each reports nodes, guesses, depth and the bytes of its
//!   search state, measured the same way, so methods compare fairly.
//! - **One report, shared with the engine.** [`Stats`] and [`Report`] have
//!   the shape of [`exact_cover::Stats`] and [`exact_cover::Report`]: public
//!   fields (`#[non_exhaustive]` stats, so fields can be added), the same
//!   names for the same counts (`nodes`, `guesses`, `solutions`,
//!   `max_depth`, `peak_bytes`), the solution count inside the stats and a
//!   report that is stats plus [`StopReason`]. `+=` sums counts and times
//!   and takes the max of `max_depth` and `peak_bytes` (a solver reuses its
//!   memory from puzzle to puzzle); each field's doc says which.
//! - **Reusable solvers.** A solver owns its scratch memory and is reused
//!   across puzzles, so a batch allocates nothing per puzzle.
//! - **"Gave up" is not "no solution".** Limits never turn into errors: a
//!   [`Report`] always says why a search stopped ([`StopReason`]), and an
//!   answer cut short is [`Uniqueness::Unknown`].
//! - **Steps are data.** The rater's [`rate::Step`] is plain serialisable
//!   data; its prose and hints are rendered separately.
//! - **Exact cover underneath.** The `dlx` methods encode the puzzle into the
//!   [`exact_cover`] engine's problem (4·n² items, one option per
//!   placement), the same engine the `dlx` command solves general problems
//!   with.

#![warn(missing_docs)]

mod candidates;
pub mod format;
pub mod generate;
pub mod grid;
pub mod pipeline;
pub mod rate;
pub mod solve;
pub mod variant;

/// The clock the solvers read, one type for every target (see
/// [`exact_cover::time`]): std's on native targets, the browser's on
/// `wasm32-unknown-unknown`.
pub use exact_cover::time;

pub use candidates::{Candidates, CandidatesError};
pub use format::{ParseError, ParseErrorKind, Puzzle};
pub use grid::{CellName, Conflict, Grid, GridError, House, Size};
pub use solve::{Limits, Report, Solver, Stats, StopReason, TraceStep, Uniqueness};

/// The README's example, run as a doc test so it stays correct.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctest;
