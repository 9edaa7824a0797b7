//! Full house: a house with one empty cell left takes the one digit it misses.

use super::step::{CellDigit, Step};
use crate::candidates::{Candidates, low_digit};

pub(crate) fn find(c: &Candidates, step: &mut Step) -> bool {
    let l = c.layout();
    for (h, cells) in l.houses.iter().enumerate() {
        let mut empty = usize::MAX;
        let mut count = 0;
        for &cell in cells {
            if c.value(cell) == 0 {
                count += 1;
                empty = cell;
                if count > 1 {
                    break;
                }
            }
        }
        if count == 1 {
            let m = c.mask(empty);
            if m.count_ones() == 1 {
                step.houses.push(l.house(h));
                step.placements.push(CellDigit {
                    cell: empty,
                    digit: low_digit(m),
                });
                return true;
            }
        }
    }
    false
}
