//! Basic fish: X-wing (k = 2), swordfish (3), jellyfish (4). In k rows (the
//! base), a digit's candidates lie in only k columns (the cover), so it is
//! removed from the rest of those columns; and the same with rows and
//! columns swapped.

use super::combinations;
use super::step::{CellDigit, Step};
use crate::candidates::{Candidates, bit, digits};

pub(crate) fn find(c: &Candidates, step: &mut Step, k: usize) -> bool {
    let l = c.layout();
    let n = l.n;
    let mut pos = [0u32; 25];
    let mut pool = [0usize; 25];
    for d in 1..=n as u8 {
        let bd = bit(d);
        // base = rows (lines 0..n, positions are columns), then base = columns.
        for base in [0usize, n] {
            let cover = n - base; // house offset of the cover lines
            let mut len = 0;
            for (i, slot) in pos.iter_mut().enumerate().take(n) {
                let mut p = 0u32;
                for (j, &cell) in l.houses[base + i].iter().enumerate() {
                    if c.mask(cell) & bd != 0 {
                        p |= 1 << j;
                    }
                }
                *slot = p;
                if (2..=k).contains(&(p.count_ones() as usize)) {
                    pool[len] = i;
                    len += 1;
                }
            }
            if len < k {
                continue;
            }
            let pool = &pool[..len];
            let found = combinations(len, k, |idx| {
                let union = idx.iter().fold(0u32, |u, &i| u | pos[pool[i]]);
                if union.count_ones() as usize != k {
                    return false;
                }
                let in_base = |line: usize| idx.iter().any(|&i| pool[i] == line);
                // A cover line j holds, at position i, the cell of base line i.
                let hits = digits(union)
                    .any(|j| (0..n).any(|i| !in_base(i) && pos[i] & (1 << (j - 1)) != 0));
                if !hits {
                    return false;
                }
                step.digits.push(d);
                for &i in idx {
                    step.houses.push(l.house(base + pool[i]));
                }
                for j in digits(union) {
                    step.houses.push(l.house(cover + j as usize - 1));
                }
                for &i in idx {
                    let line = &l.houses[base + pool[i]];
                    step.cells
                        .extend(digits(pos[pool[i]]).map(|j| line[j as usize - 1]));
                }
                for j in digits(union) {
                    let line = &l.houses[cover + j as usize - 1];
                    for (i, &cell) in line.iter().enumerate() {
                        if !in_base(i) && c.mask(cell) & bd != 0 {
                            step.eliminations.push(CellDigit { cell, digit: d });
                        }
                    }
                }
                true
            });
            if found {
                return true;
            }
        }
    }
    false
}
