//! Output formats shared by the subcommands.

use sudoku_core::Grid;

/// How answers are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// Plain text, one line per puzzle (also called `line`).
    #[value(alias = "line")]
    Text,
    /// A drawn grid per puzzle.
    Grid,
    /// One JSON object per line (JSON Lines).
    Json,
}

/// A grid drawn with box borders, ending in a newline.
pub fn grid_block(g: &Grid) -> String {
    sudoku_core::format::to_grid(g)
}
