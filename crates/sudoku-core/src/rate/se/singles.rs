//! Singles, in Sudoku Explainer's order (its `HiddenSingle` and
//! `NakedSingle` producers): first a region's last empty cell (1.0) in
//! blocks, columns, rows; then hidden singles in blocks (1.2), then columns
//! and rows (1.5); naked singles (2.3) come later in the ladder, cells in
//! reading order.

use super::SeStep;
use super::board::{BLOCK, Board, COLUMN, REGION_CELLS, ROW, regions_of};

/// Hidden singles: the first one in Explainer's order (regions with one
/// empty cell first; blocks, columns, rows; regions ascending; digits
/// ascending), read from the board's scan words.
pub(super) fn hidden(b: &Board, step: &mut SeStep) -> bool {
    if !b.is_settled() {
        return hidden_by_positions(b, step);
    }
    let with = b.single_regions();
    if with == 0 {
        return false;
    }
    let alone = b.alone_regions();
    for m in [with & alone, with & !alone] {
        for kind in [BLOCK, COLUMN, ROW] {
            let k = m >> (kind * 9) & 0x1ff;
            if k == 0 {
                continue;
            }
            let r = kind * 9 + k.trailing_zeros() as usize;
            let d = b.with_places(r, 1).trailing_zeros() as u8 + 1;
            let cell = REGION_CELLS[r][b.positions(r, d).trailing_zeros() as usize] as usize;
            single(step, cell, d, r, m & alone != 0);
            return true;
        }
    }
    false
}

/// The same, read from the positions (before the board keeps its scan
/// words).
fn hidden_by_positions(b: &Board, step: &mut SeStep) -> bool {
    for alone in [true, false] {
        for kind in [BLOCK, COLUMN, ROW] {
            for r in regions_of(kind) {
                if (b.empty_in(r) == 1) != alone {
                    continue;
                }
                for d in 1..=9u8 {
                    let p = b.positions(r, d);
                    if p != 0 && p & (p - 1) == 0 {
                        let cell = REGION_CELLS[r][p.trailing_zeros() as usize] as usize;
                        single(step, cell, d, r, alone);
                        return true;
                    }
                }
            }
        }
    }
    false
}

/// Fill in a hidden single's step.
fn single(step: &mut SeStep, cell: usize, d: u8, r: usize, alone: bool) {
    let tenths = if alone {
        10
    } else if r / 9 == BLOCK {
        12
    } else {
        15
    };
    step.set("Hidden Single", tenths);
    step.place(cell, d);
    step.cells.push(cell);
    step.digits.push(d);
    step.region(r);
}

/// Naked singles: the first cell in reading order with one candidate.
pub(super) fn naked(b: &Board, step: &mut SeStep) -> bool {
    let m = b.naked_cells();
    if m == 0 {
        return false;
    }
    let cell = m.trailing_zeros() as usize;
    let d = b.cand[cell].trailing_zeros() as u8 + 1;
    step.set("Naked Single", 23);
    step.place(cell, d);
    step.cells.push(cell);
    step.digits.push(d);
    true
}
