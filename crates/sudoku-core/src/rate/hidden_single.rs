//! Hidden single: a digit with one place left in a house. Boxes are searched
//! first (Sudoku Explainer rates them easier), then rows and columns.

use super::step::{CellDigit, Step};
use crate::candidates::{Candidates, bit, low_digit};

/// A hidden single in a box.
pub(crate) fn find_box(c: &Candidates, step: &mut Step) -> bool {
    let n = c.side();
    find_in(c, step, 2 * n..3 * n)
}

/// A hidden single in a row or column.
pub(crate) fn find_line(c: &Candidates, step: &mut Step) -> bool {
    let n = c.side();
    find_in(c, step, 0..2 * n)
}

fn find_in(c: &Candidates, step: &mut Step, houses: std::ops::Range<usize>) -> bool {
    let l = c.layout();
    for h in houses {
        let cells = &l.houses[h];
        let (mut once, mut twice) = (0u32, 0u32);
        for &cell in cells {
            let m = c.mask(cell);
            twice |= once & m;
            once |= m;
        }
        let single = once & !twice;
        if single != 0 {
            let d = low_digit(single);
            if let Some(&cell) = cells.iter().find(|&&cell| c.mask(cell) & bit(d) != 0) {
                step.houses.push(l.house(h));
                step.digits.push(d);
                step.placements.push(CellDigit { cell, digit: d });
                return true;
            }
        }
    }
    false
}
