//! Naked pair, triple and quad: k cells of a house whose candidates together
//! are only k digits; those digits are removed from the house's other cells.

use super::combinations;
use super::step::{CellDigit, Step};
use crate::candidates::{Candidates, digits};

pub(crate) fn find(c: &Candidates, step: &mut Step, k: usize) -> bool {
    let l = c.layout();
    let mut pool = [0usize; 25];
    for (h, cells) in l.houses.iter().enumerate() {
        let mut len = 0;
        let mut empties = 0;
        for &cell in cells {
            let m = c.mask(cell);
            if c.value(cell) == 0 {
                empties += 1;
            }
            let p = m.count_ones() as usize;
            if (2..=k).contains(&p) {
                pool[len] = cell;
                len += 1;
            }
        }
        // A subset needs other empty cells to eliminate from.
        if len < k || empties <= k {
            continue;
        }
        let pool = &pool[..len];
        let found = combinations(len, k, |idx| {
            let union = idx.iter().fold(0u32, |u, &i| u | c.mask(pool[i]));
            if union.count_ones() as usize != k {
                return false;
            }
            let in_set = |x: usize| idx.iter().any(|&i| pool[i] == x);
            let hits = cells.iter().any(|&x| !in_set(x) && c.mask(x) & union != 0);
            if !hits {
                return false;
            }
            step.houses.push(l.house(h));
            step.cells.extend(idx.iter().map(|&i| pool[i]));
            step.digits.extend(digits(union));
            for &x in cells {
                if !in_set(x) {
                    for d in digits(c.mask(x) & union) {
                        step.eliminations.push(CellDigit { cell: x, digit: d });
                    }
                }
            }
            true
        });
        if found {
            return true;
        }
    }
    false
}
