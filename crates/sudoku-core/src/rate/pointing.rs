//! Pointing (locked candidates type 1): in a box, a digit's candidates all lie
//! in one row or column, so the digit is removed from the rest of that line.

use super::step::{CellDigit, Step};
use crate::candidates::{Candidates, bit};

pub(crate) fn find(c: &Candidates, step: &mut Step) -> bool {
    let l = c.layout();
    let (n, b) = (l.n, l.b);
    for bx in 0..n {
        let cells = &l.houses[2 * n + bx];
        for d in 1..=n as u8 {
            let bd = bit(d);
            let (mut rows, mut cols) = (0u32, 0u32);
            for (k, &cell) in cells.iter().enumerate() {
                if c.mask(cell) & bd != 0 {
                    rows |= 1 << (k / b);
                    cols |= 1 << (k % b);
                }
            }
            if rows == 0 {
                continue;
            }
            for (is_row, set) in [(true, rows), (false, cols)] {
                if set.count_ones() != 1 {
                    continue;
                }
                let first = cells[set.trailing_zeros() as usize * if is_row { b } else { 1 }];
                let line = if is_row {
                    l.cell_houses[first][0]
                } else {
                    l.cell_houses[first][1]
                };
                let any = l.houses[line]
                    .iter()
                    .any(|&x| l.cell_houses[x][2] != 2 * n + bx && c.mask(x) & bd != 0);
                if !any {
                    continue;
                }
                step.houses.push(l.house(2 * n + bx));
                step.houses.push(l.house(line));
                step.digits.push(d);
                step.cells
                    .extend(cells.iter().copied().filter(|&x| c.mask(x) & bd != 0));
                for &x in &l.houses[line] {
                    if l.cell_houses[x][2] != 2 * n + bx && c.mask(x) & bd != 0 {
                        step.eliminations.push(CellDigit { cell: x, digit: d });
                    }
                }
                return true;
            }
        }
    }
    false
}
