//! BUG+1 (bivalue universal grave plus one): every empty cell has two
//! candidates except one with three, and every digit appears exactly twice
//! in every house where it is a candidate, except the extra digit of that
//! cell, which appears three times in its houses. Without the extra digit
//! the grid would be a deadly pattern with zero or several solutions, so in
//! a puzzle with a unique solution the extra digit goes in that cell.

use super::step::{CellDigit, Step};
use crate::candidates::{Candidates, bit, digits};

pub(crate) fn find(c: &Candidates, step: &mut Step) -> bool {
    let l = c.layout();
    let n = l.n;
    let mut triple = None;
    for (cell, &m) in c.masks().iter().enumerate() {
        match m.count_ones() {
            0 if c.value(cell) == 0 => return false,
            0 | 2 => {}
            3 if triple.is_none() => triple = Some(cell),
            _ => return false,
        }
    }
    let Some(t) = triple else { return false };
    for d in digits(c.mask(t)) {
        let ok = l.houses.iter().all(|h| {
            let mut counts = [0u8; 25];
            for &cell in h {
                let mut m = c.mask(cell);
                if cell == t {
                    m &= !bit(d);
                }
                for e in digits(m) {
                    counts[e as usize - 1] += 1;
                }
            }
            counts[..n].iter().all(|&k| k == 0 || k == 2)
        });
        if ok {
            step.cells.push(t);
            step.digits.push(d);
            step.placements.push(CellDigit { cell: t, digit: d });
            return true;
        }
    }
    false
}
