//! Little killers: sums along diagonals, clued outside the grid.
//!
//! **Rule.** The digits along the marked diagonal add up to the clue; digits
//! may repeat. ISS names a diagonal by its first cell and the direction
//! follows from where that cell is: from the left column it runs down-right,
//! from the right column up-left, from the top row down-left and from the
//! bottom row up-right (`.LittleKiller~23~R1C2` is r1c2, r2c1).

use super::iss;
use super::solver::Model;
use super::sum::lower_linear;
use super::{CellName, Constraint, Shape};

/// A little killer clue.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct LittleKiller {
    /// The clue.
    pub sum: u32,
    /// The diagonal, from the clued end.
    pub cells: Vec<CellName>,
}

/// The diagonal ISS names by its first cell, or `None` if no diagonal of
/// two or more cells starts there.
pub fn diagonal(start: CellName, shape: Shape) -> Option<Vec<CellName>> {
    let last = shape.side() as u8 - 1;
    let (r, c) = (start.row, start.col);
    let (dr, dc): (i8, i8) = if c == 0 && r < last {
        (1, 1)
    } else if c == last && r >= 1 && r < last {
        (-1, -1)
    } else if r == 0 && c >= 1 {
        (1, -1)
    } else if r == last && c >= 1 && c < last {
        (-1, 1)
    } else {
        return None;
    };
    let n = shape.side() as i32;
    let (mut r, mut c) = (r as i32, c as i32);
    let mut cells = Vec::new();
    while (0..n).contains(&r) && (0..n).contains(&c) {
        cells.push(CellName::new(r as u8, c as u8));
        r += dr as i32;
        c += dc as i32;
    }
    (cells.len() >= 2).then_some(cells)
}

/// Read `.LittleKiller~<sum>~<first cell>`.
pub(crate) fn parse(args: &[&str], shape: Shape) -> Result<Constraint, String> {
    let [sum, start] = iss::exactly(args, 2)? else {
        unreachable!("two arguments")
    };
    let sum = iss::number(sum, "sum")?;
    let start = iss::cell(start, shape)?;
    let cells = diagonal(start, shape)
        .ok_or_else(|| format!("no little killer diagonal starts at {start}"))?;
    let k = cells.len() as u32;
    if sum < k || sum > k * shape.side() as u32 {
        return Err(format!(
            "{k} cells make {k} to {}, not {sum}",
            k * shape.side() as u32
        ));
    }
    Ok(Constraint::LittleKiller(LittleKiller { sum, cells }))
}

impl LittleKiller {
    pub(crate) fn lower(&self, shape: Shape, m: &mut Model) -> Result<(), String> {
        lower_linear(&self.cells, self.sum, shape, m);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn diagonals_follow_their_start() {
        let s = Shape::NINE;
        let d = diagonal(CellName::new(0, 1), s).unwrap();
        assert_eq!(d, vec![CellName::new(0, 1), CellName::new(1, 0)]);
        assert_eq!(diagonal(CellName::new(0, 0), s).unwrap().len(), 9);
        assert_eq!(
            diagonal(CellName::new(3, 8), s).unwrap()[1],
            CellName::new(2, 7)
        );
        assert_eq!(
            diagonal(CellName::new(8, 1), s).unwrap()[1],
            CellName::new(7, 2)
        );
        assert_eq!(diagonal(CellName::new(4, 4), s), None);
    }
}
