//! Pointing (2.6) and claiming (2.8), as Sudoku Explainer's `Locking`
//! producer searches them, and the shared search of its direct form.
//!
//! Explainer's order: the region pairs (block, column), (block, row),
//! (column, block), (row, block); for each digit 1..9, each first region
//! with at least two places for the digit, each crossing second region that
//! holds all of them.

use super::SeStep;
use super::board::{BLOCK, Board, CELL_REGIONS, COLUMN, REGION_BITS, REGION_CELLS, ROW, in_region};

/// The region-kind pairs in Explainer's order.
pub(super) const PAIRS: [(usize, usize); 4] =
    [(BLOCK, COLUMN), (BLOCK, ROW), (COLUMN, BLOCK), (ROW, BLOCK)];

/// Call `f(r1, r2, d)` for each locked candidate set in Explainer's order:
/// every place of `d` in region `r1` lies in region `r2`. Stops when `f`
/// returns true.
pub(super) fn each(b: &Board, mut f: impl FnMut(usize, usize, u8) -> bool) -> bool {
    for (pair, (k1, k2)) in PAIRS.into_iter().enumerate() {
        for d in 1..=9u8 {
            // The regions of kind `k1` whose places of `d` (two or more)
            // lie in one region of kind `k2`: the one holding the first.
            let mut m = b.locked(pair, d);
            while m != 0 {
                let r1 = k1 * 9 + m.trailing_zeros() as usize;
                m &= m - 1;
                let p = b.positions(r1, d);
                let first = REGION_CELLS[r1][p.trailing_zeros() as usize] as usize;
                let r2 = CELL_REGIONS[first][k2] as usize;
                if f(r1, r2, d) {
                    return true;
                }
            }
        }
    }
    false
}

/// Pointing or claiming: the first locked set that removes something.
pub(super) fn find(b: &Board, step: &mut SeStep) -> bool {
    each(b, |r1, r2, d| {
        // The places of `d` in r2 outside r1, read from the digit's cells.
        let mut gone = b.cells_of(d) & REGION_BITS[r2] & !REGION_BITS[r1];
        let any = gone != 0;
        while gone != 0 {
            step.remove(gone.trailing_zeros() as usize, d);
            gone &= gone - 1;
        }
        if any {
            let pointing = r1 / 9 == BLOCK;
            step.set(
                if pointing { "Pointing" } else { "Claiming" },
                if pointing { 26 } else { 28 },
            );
            push_pattern(b, step, r1, r2, d);
        }
        any
    })
}

/// The pattern of a locked set: the cells of `r2` in `r1` holding `d`.
pub(super) fn push_pattern(b: &Board, step: &mut SeStep, r1: usize, r2: usize, d: u8) {
    for &c in &REGION_CELLS[r2] {
        let c = c as usize;
        if in_region(c, r1) && b.has(c, d) {
            step.cells.push(c);
        }
    }
    step.digits.push(d);
    step.region(r1);
    step.region(r2);
}
