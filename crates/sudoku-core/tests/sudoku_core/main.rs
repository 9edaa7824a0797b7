//! The Sudoku library's integration tests: one test binary for the crate, a
//! module per subject.

mod corpus;
mod fast;
mod variant;
