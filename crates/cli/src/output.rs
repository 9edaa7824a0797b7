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

/// A variant puzzle's solution (digits row-major) drawn with the shape's
/// boxes (2×3 on 6×6), ending in a newline; rows without rules when the
/// grid has no boxes (a jigsaw, a prime side).
pub fn shape_block(shape: sudoku_core::variant::Shape, values: &[u8]) -> String {
    let n = shape.side();
    let (box_rows, box_cols) = shape.boxes().unwrap_or((n, n));
    let ruled = shape.boxes().is_some();
    let mut border = String::new();
    for _ in 0..n / box_cols {
        border.push('+');
        border.push_str(&"-".repeat(2 * box_cols + 1));
    }
    border.push_str("+\n");
    let mut s = String::new();
    for (r, row) in values.chunks(n).enumerate() {
        if ruled && r % box_rows == 0 {
            s.push_str(&border);
        }
        for (c, ch) in sudoku_core::variant::to_line(row).chars().enumerate() {
            if ruled && c % box_cols == 0 {
                s.push_str("| ");
            }
            s.push(ch);
            s.push(' ');
        }
        if !ruled {
            s.pop();
        }
        s.push_str(if ruled { "|\n" } else { "\n" });
    }
    if ruled {
        s.push_str(&border);
    }
    s
}
