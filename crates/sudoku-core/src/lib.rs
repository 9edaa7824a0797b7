//! Sudoku grids, formats and solving methods.
//!
//! Every classic method is here side by side, behind one [`solve::Solver`]
//! trait with the same statistics, so they can be compared on the same puzzles.

pub mod format;
pub mod grid;
pub mod solve;

pub use format::{Candidates, ParseError, ParseErrorKind, Puzzle};
pub use grid::{CellName, Conflict, Grid, GridError, House, Size};
pub use solve::{Limits, Report, Solver, Stats, StopReason, TraceStep, Uniqueness};
