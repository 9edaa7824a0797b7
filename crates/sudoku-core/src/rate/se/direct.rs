//! Sudoku Explainer's direct techniques: a pointing or claiming (1.7, 1.9)
//! or a hidden pair or triplet (2.0, 2.5) that is taken only when its
//! eliminations leave a hidden single, which the step then places.
//!
//! Direct pointing/claiming (Explainer's `Locking` in direct mode): after a
//! locked set of `d` in regions (r1, r2), another region r3 of r1's kind
//! crossing r2, with at least two places for `d`, keeps exactly one place
//! outside r2. The step removes every `d` of r2 outside r1 and places `d`
//! there.
//!
//! Direct hidden sets (Explainer's `HiddenSet` in direct mode): a hidden set
//! in a region with more empty cells than the set's size, and a digit
//! outside the set with at least two places in the region of which exactly
//! one lies outside the set's cells; the first such digit, ascending.
//!
//! As in Explainer, a direct step only places its digit: the eliminations
//! that justify it are not applied (a later step may make them).

use super::SeStep;
use super::board::Ones;
use super::board::{BLOCK, Board, COLUMN, INSIDE, REGION_CELLS, ROW, crossing_set, digits};
use super::locking;

/// Direct pointing or claiming.
pub(super) fn locking(b: &Board, step: &mut SeStep) -> bool {
    locking::each(b, |r1, r2, d| {
        let kind = r1 / 9;
        // The other regions of r1's kind crossing r2, ascending.
        let mut others = crossing_set(r2) & (0x1ff << (kind * 9)) & !(1 << r1);
        while others != 0 {
            let r3 = others.trailing_zeros() as usize;
            others &= others - 1;
            let p3 = b.positions(r3, d);
            if p3 & p3.wrapping_sub(1) == 0 {
                continue;
            }
            // Its places outside r2: exactly one is the step.
            let out = p3 & !INSIDE[r3][r2];
            if out != 0 && out & (out - 1) == 0 {
                let cell = REGION_CELLS[r3][out.trailing_zeros() as usize] as usize;
                let pointing = kind == BLOCK;
                step.set(
                    if pointing {
                        "Direct Pointing"
                    } else {
                        "Direct Claiming"
                    },
                    if pointing { 17 } else { 19 },
                );
                locking::push_pattern(b, step, r1, r2, d);
                step.place(cell, d);
                return true;
            }
        }
        false
    })
}

/// Direct hidden pair (`degree` 2) or triplet (3).
///
/// Explainer's value sets are tried in increasing numeric order of their
/// digit masks (colexicographic: the highest digit varies slowest), here
/// as nested loops over the eligible digits; every eligible digit has two
/// to `degree` places, so its common-tuple test is the union of their
/// places having exactly `degree` members.
pub(super) fn hidden_set(b: &Board, step: &mut SeStep, degree: u32) -> bool {
    // The regions worth a look (more empty cells than the set, and enough
    // eligible digits), first for all 27 without a branch.
    let mut worth = 0u32;
    for r in 0..27 {
        let enough = b.two_to_places(r, degree as usize).ones() >= degree;
        worth |= u32::from(enough & (b.empty_in(r) > degree)) << r;
    }
    for kind in [BLOCK, COLUMN, ROW] {
        let mut k = worth >> (kind * 9) & 0x1ff;
        while k != 0 {
            let r = kind * 9 + k.trailing_zeros() as usize;
            k &= k - 1;
            let eligible = b.two_to_places(r, degree as usize);
            let pos: [u16; 9] = std::array::from_fn(|i| b.positions(r, i as u8 + 1));
            let mut hi = eligible;
            while hi != 0 {
                let c = hi.trailing_zeros() as usize;
                hi &= hi - 1;
                let mut mid = eligible & ((1 << c) - 1);
                while mid != 0 {
                    let m = mid.trailing_zeros() as usize;
                    mid &= mid - 1;
                    let two = pos[c] | pos[m];
                    if degree == 2 {
                        if two.ones() == 2 && direct_place(b, step, r, &pos, 1 << c | 1 << m, two) {
                            return true;
                        }
                        continue;
                    }
                    if two.ones() > 3 {
                        continue;
                    }
                    let mut lo = eligible & ((1 << m) - 1);
                    while lo != 0 {
                        let l = lo.trailing_zeros() as usize;
                        lo &= lo - 1;
                        let three = two | pos[l];
                        if three.ones() == 3
                            && direct_place(b, step, r, &pos, 1 << c | 1 << m | 1 << l, three)
                        {
                            return true;
                        }
                    }
                }
            }
        }
    }
    false
}

/// A hidden set's direct step, if any: the first digit, ascending, outside
/// the set (digits `vals`, on positions `common` of region `r`) with two or
/// more places of which exactly one lies outside the set's cells (a digit of
/// the set has none outside).
fn direct_place(
    b: &Board,
    step: &mut SeStep,
    r: usize,
    pos: &[u16; 9],
    vals: u16,
    common: u16,
) -> bool {
    for i in 0..9 {
        let p = pos[i];
        let out = p & !common;
        if out != 0 && out & (out - 1) == 0 && p & common != 0 {
            let degree = vals.ones();
            let cell = REGION_CELLS[r][out.trailing_zeros() as usize];
            push_hidden(b, step, r, vals, common, false);
            step.set(
                if degree == 2 {
                    "Direct Hidden Pair"
                } else {
                    "Direct Hidden Triplet"
                },
                if degree == 2 { 20 } else { 25 },
            );
            step.place(cell as usize, i as u8 + 1);
            return true;
        }
    }
    false
}

/// The digits of a region with two to `degree` places (`pos[d]`: digit
/// `d`'s places in the region).
pub(super) fn eligible_digits(pos: &[u16; 9], degree: u32) -> u16 {
    (0..9).fold(0, |m, i| {
        if two_to(pos[i], degree) {
            m | 1 << i
        } else {
            m
        }
    })
}

/// Whether a 9-bit set has two to `k` members (without a population
/// count, which the baseline x86-64 target lacks as an instruction).
#[inline]
pub(super) fn two_to(p: u16, k: u32) -> bool {
    let mut q = p & p.wrapping_sub(1);
    if q == 0 {
        return false;
    }
    for _ in 1..k {
        q &= q.wrapping_sub(1);
    }
    q == 0
}

/// Explainer's common-tuple test: every chosen digit has at least two
/// places and together they have exactly `degree`. Returns those places.
pub(super) fn common_tuple(pos: &[u16; 9], vals: u16, degree: u32) -> Option<u16> {
    let mut union = 0u16;
    for d in digits(vals) {
        let p = pos[d as usize - 1];
        if p.ones() <= 1 {
            return None;
        }
        union |= p;
    }
    (union.ones() == degree).then_some(union)
}

/// The eliminations and pattern of a hidden set: digits `vals` confined to
/// positions `common` of region `r`.
pub(super) fn push_hidden(
    b: &Board,
    step: &mut SeStep,
    r: usize,
    vals: u16,
    common: u16,
    remove: bool,
) {
    for i in 0..9 {
        if common & (1 << i) != 0 {
            let c = REGION_CELLS[r][i] as usize;
            step.cells.push(c);
            if remove {
                for d in digits(b.cand[c] & !vals) {
                    step.remove(c, d);
                }
            }
        }
    }
    step.digits.extend(digits(vals));
    step.region(r);
}
