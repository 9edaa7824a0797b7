//! The exact-cover engines on their shared fixtures: one test binary for the
//! crate, a module per engine.

mod bits;
mod cells;
mod common;
mod engine;
mod memo;
