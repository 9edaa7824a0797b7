//! Aligned pair exclusion (6.2) as Sudoku Explainer's
//! `AlignedPairExclusion` producer searches it.
//!
//! Base cells: cells with at least two candidates, none of whose peers has a
//! single candidate, with at least one bivalue peer (reading order). For
//! each pair of base cells (pairs in increasing order of the second cell's
//! position in that list, then of the first), with at least two bivalue
//! cells seeing both: a combination of a digit of each is excluded if the
//! two cells see each other and the digits are equal, or if some such
//! bivalue cell holds just those two digits. A digit of a base cell that is
//! in no remaining combination is removed.

use super::SeStep;
use super::board::{Board, PEERS, digits, see};

/// The first aligned pair exclusion, if any.
pub(super) fn find(b: &Board, step: &mut SeStep) -> bool {
    let mut base: Vec<usize> = Vec::new();
    let mut excluders: Vec<u128> = Vec::new();
    for cell in 0..81 {
        if b.cand[cell].count_ones() < 2 {
            continue;
        }
        let mut single = false;
        let mut ex = 0u128;
        for &p in &PEERS[cell] {
            match b.cand[p as usize].count_ones() {
                1 => single = true,
                2 => ex |= 1 << p,
                _ => {}
            }
        }
        if !single && ex != 0 {
            base.push(cell);
            excluders.push(ex);
        }
    }
    for j in 1..base.len() {
        for i in 0..j {
            let common = excluders[i] & excluders[j];
            if common.count_ones() < 2 {
                continue;
            }
            let (c0, c1) = (base[i], base[j]);
            let aligned = see(c0, c1);
            let locks: Vec<u16> = (0..81)
                .filter(|&c| common & (1 << c) != 0)
                .map(|c| b.cand[c])
                .collect();
            let (mut ok0, mut ok1) = (0u16, 0u16);
            for p0 in digits(b.cand[c0]) {
                for p1 in digits(b.cand[c1]) {
                    if p0 == p1 && aligned {
                        continue;
                    }
                    let pair = (1u16 << (p0 - 1)) | (1 << (p1 - 1));
                    if locks.iter().any(|&m| m & !pair == 0) {
                        continue;
                    }
                    ok0 |= 1 << (p0 - 1);
                    ok1 |= 1 << (p1 - 1);
                }
            }
            let rem0 = b.cand[c0] & !ok0;
            let rem1 = b.cand[c1] & !ok1;
            if rem0 | rem1 != 0 {
                step.set("Aligned Pair Exclusion", 62);
                for d in digits(rem0) {
                    step.remove(c0, d);
                }
                for d in digits(rem1) {
                    step.remove(c1, d);
                }
                step.cells.extend([c0, c1]);
                return true;
            }
        }
    }
    false
}
