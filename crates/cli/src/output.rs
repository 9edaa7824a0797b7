//! Output formats shared by the subcommands.

use sudoku_core::Grid;

/// How answers are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// One line per puzzle.
    Line,
    /// A drawn grid per puzzle.
    Grid,
    /// One JSON object per line (JSON Lines).
    Json,
}

/// A grid drawn with box borders, ending in a newline.
pub fn grid_block(g: &Grid) -> String {
    sudoku_core::format::to_grid(g)
}
