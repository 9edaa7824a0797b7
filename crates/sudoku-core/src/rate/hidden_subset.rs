//! Hidden pair, triple and quad: k digits of a house that fit only in the
//! same k cells; those cells lose every other candidate.

use super::combinations;
use super::step::{CellDigit, Step};
use crate::candidates::{Candidates, bit, digits};

pub(crate) fn find(c: &Candidates, step: &mut Step, k: usize) -> bool {
    let l = c.layout();
    let n = l.n;
    let mut pos = [0u32; 25];
    let mut pool = [0u8; 25];
    for (h, cells) in l.houses.iter().enumerate() {
        pos[..n].iter_mut().for_each(|p| *p = 0);
        for (i, &cell) in cells.iter().enumerate() {
            for d in digits(c.mask(cell)) {
                pos[d as usize - 1] |= 1 << i;
            }
        }
        let mut len = 0;
        for d in 1..=n as u8 {
            let p = pos[d as usize - 1].count_ones() as usize;
            if (2..=k).contains(&p) {
                pool[len] = d;
                len += 1;
            }
        }
        if len < k {
            continue;
        }
        let pool = &pool[..len];
        let found = combinations(len, k, |idx| {
            let places = idx.iter().fold(0u32, |u, &i| u | pos[pool[i] as usize - 1]);
            if places.count_ones() as usize != k {
                return false;
            }
            let set = idx.iter().fold(0u32, |u, &i| u | bit(pool[i]));
            let hits = digits(places).any(|p| c.mask(cells[p as usize - 1]) & !set != 0);
            if !hits {
                return false;
            }
            step.houses.push(l.house(h));
            step.digits.extend(idx.iter().map(|&i| pool[i]));
            for p in digits(places) {
                let cell = cells[p as usize - 1];
                step.cells.push(cell);
                for d in digits(c.mask(cell) & !set) {
                    step.eliminations.push(CellDigit { cell, digit: d });
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
