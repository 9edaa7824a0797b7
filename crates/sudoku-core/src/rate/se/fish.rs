//! Basic fish (X-wing 3.2, swordfish 3.8, jellyfish 5.2) as Sudoku
//! Explainer's `Fisherman` searches them: columns as base lines first, then
//! rows; for each set of base lines (increasing bit order), each digit 1..9
//! that is placed at most `9 - 2 * size` times, the first set whose places
//! span exactly `size` cover lines with at least two places per base line.

use super::SeStep;
use super::board::Ones;
use super::board::{Board, COLUMN, REGION_CELLS, ROW, subsets_of};
use super::direct::two_to;

const NAMES: [&str; 3] = ["X-Wing", "Swordfish", "Jellyfish"];

/// The digits known to have no fish, kept from one step to the next: a
/// digit's fishes depend only on its own candidates, so while those are
/// unchanged a digit without one is skipped (exact).
#[derive(Default)]
pub(super) struct Memo {
    /// `none[degree - 2][digit - 1]`: the digit's candidate cells when it
    /// last had no fish of that degree in either orientation.
    none: [[Option<u128>; 9]; 3],
}

/// A fish of `degree` lines.
pub(super) fn find(b: &Board, step: &mut SeStep, degree: u32, memo: &mut Memo) -> bool {
    let tenths = [32, 38, 52][degree as usize - 2];
    let none = &mut memo.none[degree as usize - 2];
    let skip: [bool; 10] =
        std::array::from_fn(|d| d > 0 && none[d - 1].is_some_and(|k| k == b.cells_of(d as u8)));
    let mut occ = [0u32; 10];
    for &v in &b.value {
        occ[v as usize] += 1;
    }
    for (base, cover) in [(COLUMN, ROW), (ROW, COLUMN)] {
        // Per digit, the base lines with two to `degree` places for it
        // (Explainer asks for two or more, and the places span `degree`
        // cover lines); a digit placed too often takes no part.
        let eligible: [u16; 10] = std::array::from_fn(|d| {
            if d == 0 || skip[d] || occ[d] + degree * 2 > 9 {
                return 0;
            }
            (0..9).fold(0u16, |m, i| {
                if two_to(b.positions(base * 9 + i, d as u8), degree) {
                    m | 1 << i
                } else {
                    m
                }
            })
        });
        // A set of lines can hold a fish only inside some digit's eligible
        // lines: the others are passed over (in Explainer's order too).
        let any = eligible.iter().fold(0u16, |m, &e| m | e);
        let found = subsets_of(any, degree, |lines| {
            for d in 1..=9u8 {
                if skip[d as usize]
                    || occ[d as usize] + degree * 2 > 9
                    || lines & !eligible[d as usize] != 0
                {
                    continue;
                }
                let mut union = 0u16;
                let mut ok = true;
                for i in 0..9 {
                    if lines & (1 << i) != 0 {
                        let p = b.positions(base * 9 + i, d);
                        if p.ones() <= 1 {
                            ok = false;
                            break;
                        }
                        union |= p;
                    }
                }
                if !ok || union.ones() != degree {
                    continue;
                }
                // Remove d from the cover lines outside the base lines.
                let mut any = false;
                for j in 0..9 {
                    if union & (1 << j) == 0 {
                        continue;
                    }
                    let p = b.positions(cover * 9 + j, d) & !lines;
                    for i in 0..9 {
                        if p & (1 << i) != 0 {
                            step.remove(REGION_CELLS[cover * 9 + j][i] as usize, d);
                            any = true;
                        }
                    }
                }
                if any {
                    step.set(NAMES[degree as usize - 2], tenths);
                    for i in 0..9 {
                        if lines & (1 << i) != 0 {
                            step.region(base * 9 + i);
                        }
                    }
                    for j in 0..9 {
                        if union & (1 << j) != 0 {
                            step.region(cover * 9 + j);
                            for i in 0..9 {
                                let c = REGION_CELLS[cover * 9 + j][i] as usize;
                                if lines & (1 << i) != 0 && b.has(c, d) {
                                    step.cells.push(c);
                                }
                            }
                        }
                    }
                    step.digits.push(d);
                    return true;
                }
            }
            false
        });
        if found {
            return true;
        }
    }
    for d in 1..=9u8 {
        none[d as usize - 1] = Some(b.cells_of(d));
    }
    false
}
