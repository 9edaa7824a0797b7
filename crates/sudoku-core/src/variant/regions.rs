//! Extra regions: diagonals, windoku windows and disjoint groups.
//!
//! **Rule.** Each extra region holds every digit once, like a row:
//! - a *diagonal* (sudoku X uses both): `.Diagonal~-1` is the main diagonal
//!   ╲ from r1c1, `.Diagonal~1` the anti-diagonal ╱ from rnc1;
//! - *windoku* (hyper sudoku, 9×9 only): the four 3×3 windows with corners
//!   r2c2, r2c6, r6c2 and r6c6;
//! - *disjoint groups*: the cells at the same place inside their boxes
//!   (every box's top-left cell, and so on) form a region.
//!
//! These are regions only: the puzzle stays exact cover, and hidden singles
//! apply to each region as to a row.

use super::iss;
use super::solver::Model;
use super::{CellName, Constraint, Shape};

/// A diagonal holding every digit once.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Diagonal {
    /// `true` for the anti-diagonal ╱ (from the bottom-left corner), `false`
    /// for the main diagonal ╲ (from the top-left corner).
    pub anti: bool,
}

impl Diagonal {
    /// ISS's argument: `1` for ╱, `-1` for ╲.
    pub(crate) fn iss_arg(&self) -> &'static str {
        if self.anti { "1" } else { "-1" }
    }

    pub(crate) fn lower(&self, shape: Shape, m: &mut Model) -> Result<(), String> {
        let n = shape.side();
        let cells = (0..n)
            .map(|i| {
                let col = if self.anti { n - 1 - i } else { i };
                shape.index(CellName::new(i as u8, col as u8)) as u16
            })
            .collect();
        m.house(cells);
        Ok(())
    }
}

/// Read `.Diagonal~1` or `.Diagonal~-1`.
pub(crate) fn parse_diagonal(args: &[&str]) -> Result<Constraint, String> {
    match iss::exactly(args, 1)? {
        ["1"] => Ok(Constraint::Diagonal(Diagonal { anti: true })),
        ["-1"] => Ok(Constraint::Diagonal(Diagonal { anti: false })),
        [other] => Err(format!(
            "direction {other:?}: 1 (anti-diagonal) or -1 (main)"
        )),
        _ => unreachable!("exactly one argument"),
    }
}

/// The four windoku windows (9×9 grids).
pub(crate) fn windoku(shape: Shape, m: &mut Model) -> Result<(), String> {
    if shape.side() != 9 {
        return Err(format!("windoku needs a 9x9 grid, not {shape}"));
    }
    for top in [1u8, 5] {
        for left in [1u8, 5] {
            let cells = (0..9)
                .map(|i| shape.index(CellName::new(top + i / 3, left + i % 3)) as u16)
                .collect();
            m.house(cells);
        }
    }
    Ok(())
}

/// The disjoint groups: one region per position inside a box.
pub(crate) fn disjoint_sets(shape: Shape, m: &mut Model) -> Result<(), String> {
    let Some((h, w)) = shape.boxes() else {
        return Err(format!(
            "disjoint groups need boxes; this {shape} grid has none"
        ));
    };
    for pos in 0..h * w {
        let (dr, dc) = (pos / w, pos % w);
        let mut cells = Vec::with_capacity(shape.side());
        for br in (0..shape.side()).step_by(h) {
            for bc in (0..shape.side()).step_by(w) {
                cells.push(shape.index(CellName::new((br + dr) as u8, (bc + dc) as u8)) as u16);
            }
        }
        m.house(cells);
    }
    Ok(())
}
