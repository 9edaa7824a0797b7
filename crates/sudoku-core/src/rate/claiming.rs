//! Claiming (box/line reduction, locked candidates type 2): in a row or
//! column, a digit's candidates all lie in one box, so the digit is removed
//! from the rest of that box.

use super::step::{CellDigit, Step};
use crate::candidates::{Candidates, bit};

pub(crate) fn find(c: &Candidates, step: &mut Step) -> bool {
    let l = c.layout();
    let n = l.n;
    for line in 0..2 * n {
        let cells = &l.houses[line];
        for d in 1..=n as u8 {
            let bd = bit(d);
            let mut bx = usize::MAX;
            let mut one_box = true;
            for &cell in cells {
                if c.mask(cell) & bd != 0 {
                    let this = l.cell_houses[cell][2];
                    if bx == usize::MAX {
                        bx = this;
                    } else if bx != this {
                        one_box = false;
                        break;
                    }
                }
            }
            if !one_box || bx == usize::MAX {
                continue;
            }
            let outside = |x: usize| {
                let h = l.cell_houses[x];
                h[0] != line && h[1] != line
            };
            if !l.houses[bx]
                .iter()
                .any(|&x| outside(x) && c.mask(x) & bd != 0)
            {
                continue;
            }
            step.houses.push(l.house(line));
            step.houses.push(l.house(bx));
            step.digits.push(d);
            step.cells
                .extend(cells.iter().copied().filter(|&x| c.mask(x) & bd != 0));
            for &x in &l.houses[bx] {
                if outside(x) && c.mask(x) & bd != 0 {
                    step.eliminations.push(CellDigit { cell: x, digit: d });
                }
            }
            return true;
        }
    }
    false
}
