//! Singles, in Sudoku Explainer's order (its `HiddenSingle` and
//! `NakedSingle` producers): first a region's last empty cell (1.0) in
//! blocks, columns, rows; then hidden singles in blocks (1.2), then columns
//! and rows (1.5); naked singles (2.3) come later in the ladder, cells in
//! reading order.

use super::SeStep;
use super::board::{BLOCK, Board, COLUMN, REGION_CELLS, ROW, digits, regions_of};

/// Hidden singles: the first one in Explainer's order.
pub(super) fn hidden(b: &Board, step: &mut SeStep) -> bool {
    for alone in [true, false] {
        for kind in [BLOCK, COLUMN, ROW] {
            for r in regions_of(kind) {
                let is_alone = b.empty_in(r) == 1;
                if is_alone != alone {
                    continue;
                }
                for d in 1..=9u8 {
                    let p = b.positions(r, d);
                    if p.count_ones() == 1 {
                        let cell = REGION_CELLS[r][p.trailing_zeros() as usize] as usize;
                        let tenths = if alone {
                            10
                        } else if kind == BLOCK {
                            12
                        } else {
                            15
                        };
                        step.set("Hidden Single", tenths);
                        step.place(cell, d);
                        step.cells.push(cell);
                        step.digits.push(d);
                        step.region(r);
                        return true;
                    }
                }
            }
        }
    }
    false
}

/// Naked singles: the first cell in reading order with one candidate.
pub(super) fn naked(b: &Board, step: &mut SeStep) -> bool {
    for cell in 0..81 {
        if b.value[cell] == 0 && b.cand[cell].count_ones() == 1 {
            let d = digits(b.cand[cell]).next().unwrap_or(0);
            step.set("Naked Single", 23);
            step.place(cell, d);
            step.cells.push(cell);
            step.digits.push(d);
            return true;
        }
    }
    false
}
