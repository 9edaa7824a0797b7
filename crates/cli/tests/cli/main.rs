//! The `sudoku` and `dlx` binaries end to end, as a user runs them: one test
//! binary for the crate, a module per command.

mod bench;
mod dlx;
mod edges;
mod generate;
mod rate;
mod solve;
