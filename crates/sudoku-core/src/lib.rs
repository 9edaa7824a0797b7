//! Sudoku grids, formats and solving methods.
//!
//! Every classic method is here side by side, behind one [`solve::Solver`]
//! trait with the same statistics, so they can be compared on the same puzzles.

pub mod grid;
pub mod rate;
pub mod solve;

pub use grid::{Conflict, Grid, GridError, House, Size};
pub use solve::{Limits, Report, Solver, Stats, StopReason, TraceStep, Uniqueness};
