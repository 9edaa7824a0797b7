//! Naked and hidden subsets as Sudoku Explainer's `NakedSet` and `HiddenSet`
//! producers search them: regions in the order blocks, columns, rows; the
//! subsets of positions (naked) or digits (hidden) in increasing bit order.
//!
//! Values (Explainer): naked pair 3.0, triplet 3.6, quad 5.0; hidden pair
//! 3.4, triplet 4.0, quad 5.4. A naked set is looked for only in a region
//! with at least twice its size of empty cells, a hidden one only with more
//! than twice its size (the other case is the complementary naked set).

use super::SeStep;
use super::board::Ones;
use super::board::{BLOCK, Board, COLUMN, REGION_CELLS, ROW, digits, regions_of, subsets_of};
use super::direct::{common_tuple, push_hidden, two_to};

const NAKED: [&str; 3] = ["Naked Pair", "Naked Triplet", "Naked Quad"];
const HIDDEN: [&str; 3] = ["Hidden Pair", "Hidden Triplet", "Hidden Quad"];

/// The regions known to hold no step, per search, kept from one step to
/// the next: a region's naked and hidden sets, and what they remove, read
/// only the candidates of the region's cells and its count of empty cells,
/// so while those are unchanged a region without a step is skipped
/// (exact).
#[derive(Default)]
pub(super) struct Memo {
    /// `none[search][r]`, the searches naked pair, triplet, quad, then
    /// hidden pair, triplet, quad: the region's candidates and empty cells
    /// when it last held no step.
    none: [[Option<Key>; 27]; 6],
}

type Key = ([u16; 9], u32);

fn key(b: &Board, r: usize) -> Key {
    (
        std::array::from_fn(|i| b.cand[REGION_CELLS[r][i] as usize]),
        b.empty_in(r),
    )
}

/// A naked set of `degree` cells.
pub(super) fn naked(b: &Board, step: &mut SeStep, degree: u32, memo: &mut Memo) -> bool {
    let tenths = [30, 36, 50][degree as usize - 2];
    let none = &mut memo.none[degree as usize - 2];
    for kind in [BLOCK, COLUMN, ROW] {
        for r in regions_of(kind) {
            if b.empty_in(r) < degree * 2 {
                continue;
            }
            let key = key(b, r);
            if none[r] == Some(key) {
                continue;
            }
            let cand = key.0;
            // Only cells with two to `degree` candidates can be in the set
            // (Explainer asks for two or more, and the union is `degree`).
            let eligible = (0..9).fold(0u16, |m, i| {
                if two_to(cand[i], degree) {
                    m | 1 << i
                } else {
                    m
                }
            });
            let found = subsets_of(eligible, degree, |cells| {
                let mut union = 0u16;
                for i in 0..9 {
                    if cells & (1 << i) != 0 {
                        if cand[i].ones() <= 1 {
                            return false;
                        }
                        union |= cand[i];
                    }
                }
                if union.ones() != degree {
                    return false;
                }
                let mut any = false;
                for i in 0..9 {
                    if cells & (1 << i) == 0 && cand[i] & union != 0 {
                        let c = REGION_CELLS[r][i] as usize;
                        for d in digits(cand[i] & union) {
                            step.remove(c, d);
                        }
                        any = true;
                    }
                }
                if any {
                    step.set(NAKED[degree as usize - 2], tenths);
                    step.cells.extend(
                        (0..9)
                            .filter(|i| cells & (1 << i) != 0)
                            .map(|i| REGION_CELLS[r][i] as usize),
                    );
                    step.digits.extend(digits(union));
                    step.region(r);
                }
                any
            });
            if found {
                return true;
            }
            none[r] = Some(key);
        }
    }
    false
}

/// A hidden set of `degree` digits.
pub(super) fn hidden(b: &Board, step: &mut SeStep, degree: u32, memo: &mut Memo) -> bool {
    let tenths = [34, 40, 54][degree as usize - 2];
    let none = &mut memo.none[degree as usize + 1];
    for kind in [BLOCK, COLUMN, ROW] {
        for r in regions_of(kind) {
            if b.empty_in(r) <= degree * 2 {
                continue;
            }
            let key = key(b, r);
            if none[r] == Some(key) {
                continue;
            }
            let eligible = b.two_to_places(r, degree as usize);
            if eligible.ones() < degree {
                none[r] = Some(key);
                continue;
            }
            let pos: [u16; 9] = std::array::from_fn(|i| b.positions(r, i as u8 + 1));
            let found = subsets_of(eligible, degree, |vals| {
                let Some(common) = common_tuple(&pos, vals, degree) else {
                    return false;
                };
                let worth = (0..9).any(|i| {
                    common & (1 << i) != 0 && b.cand[REGION_CELLS[r][i] as usize] & !vals != 0
                });
                if worth {
                    push_hidden(b, step, r, vals, common, true);
                    step.set(HIDDEN[degree as usize - 2], tenths);
                }
                worth
            });
            if found {
                return true;
            }
            none[r] = Some(key);
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rate::se::Profile;
    use crate::rate::se::tests::{MEMO_PUZZLES, boards_past_singles};

    /// The naked and hidden set searches with the regions the previous
    /// boards of a path left in their memo take the steps the searches
    /// from scratch take, on every board of five hard puzzles' paths past
    /// the singles, each degree.
    #[test]
    fn the_memo_changes_no_subset_step() {
        let (mut boards, mut steps_found) = (0, 0);
        for line in MEMO_PUZZLES {
            let mut memo = Memo::default();
            for mut b in boards_past_singles(line, Profile::Sukaku) {
                boards += 1;
                // As the ladder does past the hidden singles.
                b.settle();
                for degree in 2..=4 {
                    for search in [naked, hidden] {
                        let (mut with, mut without) = (SeStep::new(), SeStep::new());
                        let found = search(&b, &mut with, degree, &mut memo);
                        let fresh = search(&b, &mut without, degree, &mut Memo::default());
                        assert_eq!(found, fresh, "{line}");
                        assert_eq!(with, without, "{line}");
                        steps_found += usize::from(found);
                    }
                }
            }
        }
        assert!(
            boards > 20 && steps_found > 10,
            "{boards} boards, {steps_found} steps"
        );
    }
}
