//! Naked single: a cell with one candidate left.

use super::step::{CellDigit, Step};
use crate::candidates::{Candidates, low_digit};

pub(crate) fn find(c: &Candidates, step: &mut Step) -> bool {
    for (cell, &m) in c.masks().iter().enumerate() {
        if m != 0 && m & (m - 1) == 0 {
            step.cells.push(cell);
            step.placements.push(CellDigit {
                cell,
                digit: low_digit(m),
            });
            return true;
        }
    }
    false
}
