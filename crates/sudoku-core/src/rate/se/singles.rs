//! Singles, in Sudoku Explainer's order (its `HiddenSingle` and
//! `NakedSingle` producers): first a region's last empty cell (1.0) in
//! blocks, columns, rows; then hidden singles in blocks (1.2), then columns
//! and rows (1.5); naked singles (2.3) come later in the ladder, cells in
//! reading order.

use super::SeStep;
use super::board::{BLOCK, Board, COLUMN, REGION_CELLS, ROW};

/// Hidden singles: the first one in Explainer's order (regions with one
/// empty cell first; blocks, columns, rows; regions ascending; digits
/// ascending), read from the board's single-place digits per region (kept
/// at every elimination, so no region's positions are rescanned and the
/// scan words need not be settled).
pub(super) fn hidden(b: &Board, step: &mut SeStep) -> bool {
    let alone = b.alone_regions();
    for kind in [BLOCK, COLUMN, ROW] {
        let mut k = alone >> (kind * 9) & 0x1ff;
        while k != 0 {
            let r = kind * 9 + k.trailing_zeros() as usize;
            k &= k - 1;
            if b.single_digits(r) != 0 {
                single_of(b, step, r, true);
                return true;
            }
        }
    }
    // (a region with one empty cell holding a single was met above)
    for kind in [BLOCK, COLUMN, ROW] {
        for r in kind * 9..kind * 9 + 9 {
            if b.single_digits(r) != 0 {
                single_of(b, step, r, false);
                return true;
            }
        }
    }
    false
}

/// The step of region `r`'s first single-place digit.
fn single_of(b: &Board, step: &mut SeStep, r: usize, alone: bool) {
    let d = b.single_digits(r).trailing_zeros() as u8 + 1;
    let cell = REGION_CELLS[r][b.positions(r, d).trailing_zeros() as usize] as usize;
    single(step, cell, d, r, alone);
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
