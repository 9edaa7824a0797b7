//! Quadruples.
//!
//! **Rule.** A circle on the corner of four cells lists up to four digits;
//! each must appear in those four cells (as often as it is listed).
//! `.Quad~R1C1~1~2` sits on the corner where r1c1, r1c2, r2c1 and r2c2 meet.

use super::iss;
use super::solver::{Contradiction, Dom, Model, Prop};
use super::{CellName, Constraint, Shape};

/// A quadruple clue.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Quad {
    /// The top-left cell of the four.
    pub cell: CellName,
    /// The digits that must appear.
    pub digits: Vec<u8>,
}

/// Read `.Quad~<top-left cell>~<digits…>`.
pub(crate) fn parse(args: &[&str], shape: Shape) -> Result<Constraint, String> {
    let (cell, rest) = args
        .split_first()
        .ok_or_else(|| "a quadruple needs its cell and digits".to_string())?;
    let cell = iss::cell(cell, shape)?;
    if cell.row as usize + 1 >= shape.side() || cell.col as usize + 1 >= shape.side() {
        return Err(format!("{cell} has no 2x2 block to its lower right"));
    }
    if rest.is_empty() || rest.len() > 4 {
        return Err(format!("{} digits: 1 to 4", rest.len()));
    }
    let digits = rest
        .iter()
        .map(|a| iss::digit(a, shape))
        .collect::<Result<Vec<_>, _>>()?;
    for &x in &digits {
        if digits.iter().filter(|&&y| y == x).count() > 2 {
            return Err(format!("digit {x} three times in one 2x2 block"));
        }
    }
    Ok(Constraint::Quad(Quad { cell, digits }))
}

impl Quad {
    pub(crate) fn lower(&self, shape: Shape, m: &mut Model) -> Result<(), String> {
        let CellName { row, col } = self.cell;
        let cells = [(0, 0), (0, 1), (1, 0), (1, 1)]
            .map(|(dr, dc)| shape.index(CellName::new(row + dr, col + dc)) as u16);
        m.props.push(Prop::Quad(QuadDigits {
            cells,
            digits: self.digits.clone(),
        }));
        Ok(())
    }
}

/// The quadruple propagator: a listed digit with exactly as many possible
/// cells as it is listed times goes in all of them; four listed digits
/// leave no room for others.
#[derive(Clone, Debug)]
pub(crate) struct QuadDigits {
    pub(crate) cells: [u16; 4],
    digits: Vec<u8>,
}

impl QuadDigits {
    pub(crate) fn propagate(&self, d: &mut Dom<'_>) -> Result<(), Contradiction> {
        let listed = self.digits.iter().fold(0u16, |k, &x| k | 1 << (x - 1));
        for &x in &self.digits {
            let bit = 1u16 << (x - 1);
            let times = self.digits.iter().filter(|&&y| y == x).count();
            let holders = self.cells.iter().filter(|&&c| d.get(c) & bit != 0).count();
            if holders < times {
                return Err(Contradiction);
            }
            if holders == times {
                for &c in &self.cells {
                    if d.get(c) & bit != 0 {
                        d.restrict(c, bit)?;
                    }
                }
            }
        }
        if self.digits.len() == 4 {
            for &c in &self.cells {
                d.restrict(c, listed)?;
            }
        }
        Ok(())
    }

    pub(crate) fn holds(&self, v: &[u8]) -> bool {
        self.digits.iter().all(|&x| {
            let times = self.digits.iter().filter(|&&y| y == x).count();
            self.cells.iter().filter(|&&c| v[c as usize] == x).count() >= times
        })
    }
}
