//! The basic techniques inside Explainer's dynamic forcing chains (+)
//! (9.0): once an assumption's consequences run out, the chain asks these
//! techniques, on the grid the assumption has reduced, for more "off"
//! candidates.
//!
//! The rules, from Sudoku Explainer's `Chaining.getAdvancedPotentials` and
//! its hints' `getRuleParents` (LGPL; the code here is ours; SukakuExplainer
//! keeps them with its default `FCPlus` setting, "same as SE 1.2.1"):
//!
//! - The techniques, asked in this order until one yields something:
//!   pointing & claiming, hidden pairs, naked pairs, X-wings. Each yields
//!   *all* its steps on the reduced grid, in its own search order.
//! - A step counts only if some of its pattern's candidates were removed
//!   by the chain (its "rule parents"; a step that holds without the chain
//!   adds nothing): for a locked set, the first region's removed places of
//!   the digit outside the second region; for a hidden set, the set's
//!   digits removed from the region's other cells; for a naked set, the
//!   other digits removed from the set's cells; for an X-wing, the base
//!   lines' removed places outside the cover lines.
//! - Every candidate the step removes becomes an "off" consequence whose
//!   parents are those rule parents (so they add to the chain's
//!   complexity). Within a step the removed candidates come in the order
//!   of Explainer's `HashMap` keyed by cell (a cell's index modulo the
//!   table size, then the order of insertion), digits ascending.

use super::board::{BLOCK, Board, COLUMN, REGION_CELLS, ROW, bit, digits, regions_of};
use super::board::{in_region, subsets_of};
use super::chains::cand;
use super::direct::{common_tuple, eligible_digits, two_to};
use super::locking;

/// The consequences found by the last [`advanced`] call and scratch space.
#[derive(Default)]
pub(super) struct Scratch {
    /// (candidate removed, parents `parents[start..end]`).
    found: Vec<(u16, u32, u32)>,
    parents: Vec<u16>,
    /// One step's removals, (cell, digits), in insertion order.
    removals: Vec<(u8, u16)>,
}

impl Scratch {
    /// The candidates to turn off, each with its rule parents (candidates
    /// the chain removed).
    pub(super) fn found(&self) -> impl Iterator<Item = (u16, &[u16])> {
        self.found
            .iter()
            .map(|&(q, s, e)| (q, &self.parents[s as usize..e as usize]))
    }

    /// Record one step: `parents` were pushed since `mark`; removals are
    /// in `self.removals`.
    fn commit(&mut self, mark: usize) {
        let (s, e) = (mark as u32, self.parents.len() as u32);
        if s == e {
            self.removals.clear();
            return;
        }
        // Explainer's HashMap<Cell, BitSet> order: the table grows past
        // three quarters full from 16 slots; a cell's slot is its index
        // modulo the size; a slot keeps insertion order.
        let n = self.removals.len();
        let mut cap = 16;
        while n > cap * 3 / 4 {
            cap *= 2;
        }
        self.removals
            .sort_by_key(|&(c, _)| (c as usize) & (cap - 1));
        for &(c, m) in &self.removals {
            for d in digits(m) {
                self.found.push((cand(c as usize, d), s, e));
            }
        }
        self.removals.clear();
    }
}

/// Ask the basic techniques on the chain's grid `g` (reduced from `src`).
/// Returns whether something was found (then in `sc.found()`).
pub(super) fn advanced(src: &Board, g: &Board, sc: &mut Scratch) -> bool {
    sc.found.clear();
    sc.parents.clear();
    sc.removals.clear();
    locked(src, g, sc) || hidden_pairs(src, g, sc) || naked_pairs(src, g, sc) || x_wings(src, g, sc)
}

/// Removed by the chain: in `src`, not in `g`.
fn gone(src: &Board, g: &Board, c: usize, d: u8) -> bool {
    src.has(c, d) && !g.has(c, d)
}

/// Explainer's `Locking` (not direct), every step.
fn locked(src: &Board, g: &Board, sc: &mut Scratch) -> bool {
    locking::each(g, |r1, r2, d| {
        for &c in &REGION_CELLS[r2] {
            let c = c as usize;
            if !in_region(c, r1) && g.has(c, d) {
                sc.removals.push((c as u8, bit(d)));
            }
        }
        if sc.removals.is_empty() {
            return false;
        }
        let mark = sc.parents.len();
        for &c in &REGION_CELLS[r1] {
            let c = c as usize;
            if gone(src, g, c, d) && !in_region(c, r2) {
                sc.parents.push(cand(c, d));
            }
        }
        sc.commit(mark);
        false
    });
    !sc.found.is_empty()
}

/// Explainer's `HiddenSet(2, false)`, every step.
fn hidden_pairs(src: &Board, g: &Board, sc: &mut Scratch) -> bool {
    for kind in [BLOCK, COLUMN, ROW] {
        for r in regions_of(kind) {
            if g.empty_in(r) <= 4 {
                continue;
            }
            let pos: [u16; 9] = std::array::from_fn(|i| g.positions(r, i as u8 + 1));
            let eligible = eligible_digits(&pos, 2);
            subsets_of(eligible, 2, |vals| {
                let Some(common) = common_tuple(&pos, vals, 2) else {
                    return false;
                };
                for i in 0..9 {
                    if common & (1 << i) != 0 {
                        let c = REGION_CELLS[r][i] as usize;
                        let m = g.cand[c] & !vals;
                        if m != 0 {
                            sc.removals.push((c as u8, m));
                        }
                    }
                }
                if sc.removals.is_empty() {
                    return false;
                }
                let mark = sc.parents.len();
                for i in 0..9 {
                    if common & (1 << i) == 0 {
                        let c = REGION_CELLS[r][i] as usize;
                        for d in digits(vals) {
                            if src.has(c, d) {
                                sc.parents.push(cand(c, d));
                            }
                        }
                    }
                }
                sc.commit(mark);
                false
            });
        }
    }
    !sc.found.is_empty()
}

/// Explainer's `NakedSet(2)`, every step.
fn naked_pairs(src: &Board, g: &Board, sc: &mut Scratch) -> bool {
    for kind in [BLOCK, COLUMN, ROW] {
        for r in regions_of(kind) {
            if g.empty_in(r) < 4 {
                continue;
            }
            let cands: [u16; 9] = std::array::from_fn(|i| g.cand[REGION_CELLS[r][i] as usize]);
            let eligible = (0..9).fold(
                0u16,
                |m, i| if two_to(cands[i], 2) { m | 1 << i } else { m },
            );
            subsets_of(eligible, 2, |cells| {
                // `common_tuple` reads its table by bit: here bit i is the
                // region's place i.
                let Some(union) = common_tuple(&cands, cells, 2) else {
                    return false;
                };
                for i in 0..9 {
                    if cells & (1 << i) == 0 && cands[i] & union != 0 {
                        sc.removals.push((REGION_CELLS[r][i], cands[i] & union));
                    }
                }
                if sc.removals.is_empty() {
                    return false;
                }
                let mark = sc.parents.len();
                for i in 0..9 {
                    if cells & (1 << i) != 0 {
                        let c = REGION_CELLS[r][i] as usize;
                        for d in digits(src.cand[c] & !union) {
                            sc.parents.push(cand(c, d));
                        }
                    }
                }
                sc.commit(mark);
                false
            });
        }
    }
    !sc.found.is_empty()
}

/// Explainer's `Fisherman(2)`, every step.
fn x_wings(src: &Board, g: &Board, sc: &mut Scratch) -> bool {
    let mut occ = [0u32; 10];
    for &v in &g.value {
        occ[v as usize] += 1;
    }
    for (base, cover) in [(COLUMN, ROW), (ROW, COLUMN)] {
        let eligible: [u16; 10] = std::array::from_fn(|d| {
            if d == 0 || occ[d] + 4 > 9 {
                return 0;
            }
            (0..9).fold(0u16, |m, i| {
                if two_to(g.positions(base * 9 + i, d as u8), 2) {
                    m | 1 << i
                } else {
                    m
                }
            })
        });
        let any = eligible.iter().fold(0u16, |m, &e| m | e);
        subsets_of(any, 2, |lines| {
            for d in 1..=9u8 {
                if lines & !eligible[d as usize] != 0 {
                    continue;
                }
                let mut union = 0u16;
                for i in 0..9 {
                    if lines & (1 << i) != 0 {
                        union |= g.positions(base * 9 + i, d);
                    }
                }
                if union.count_ones() != 2 {
                    continue;
                }
                for j in 0..9 {
                    if union & (1 << j) == 0 {
                        continue;
                    }
                    let p = g.positions(cover * 9 + j, d) & !lines;
                    for i in 0..9 {
                        if p & (1 << i) != 0 {
                            sc.removals.push((REGION_CELLS[cover * 9 + j][i], bit(d)));
                        }
                    }
                }
                if sc.removals.is_empty() {
                    continue;
                }
                let mark = sc.parents.len();
                for i in 0..9 {
                    if lines & (1 << i) == 0 {
                        continue;
                    }
                    let r = base * 9 + i;
                    // Place k of a base line is on cover line k.
                    for k in 0..9 {
                        let c = REGION_CELLS[r][k] as usize;
                        if gone(src, g, c, d) && union & (1 << k) == 0 {
                            sc.parents.push(cand(c, d));
                        }
                    }
                }
                sc.commit(mark);
            }
            false
        });
    }
    !sc.found.is_empty()
}
