//! Bivalue universal grave, types 1 to 4, as Sudoku Explainer's
//! `BivalueUniversalGrave` producer finds them.
//!
//! Explainer's rule: in every region (blocks, rows, columns) each digit
//! with other than 0 or 2 places must have exactly one place in a cell of
//! three or more candidates (a "BUG cell", the digit being one of its extra
//! digits); without those extra digits every cell must be bivalue and every
//! digit have 0 or 2 places per region. Then:
//!
//! - one BUG cell: type 1 (5.6), keep only its extra digits;
//! - one extra digit in all: type 2 (5.7), remove it from the cells that see
//!   every BUG cell; then, with two BUG cells, type 4;
//! - else, if some cells see every BUG cell: with two BUG cells type 4 (5.7:
//!   the two share a region and a digit besides their extra ones, so each
//!   keeps that digit or its extra ones), then type 3 (5.7 + 0.1 per naked
//!   digit beyond the first): the extra digits and other cells of a region
//!   common to all BUG cells form a naked set.
//!
//! The first step found is taken (no sorting). SukakuExplainer's default
//! (lkSudoku's fix) also accepts a BUG whose extra cells all add one digit
//! in a region where that digit has more than one such cell, tries type 3
//! set sizes before regions, and removes the naked digits from every cell
//! that sees all the set's cells holding them; plain SE 1.2.1 removes them
//! from the region only.

use super::SeStep;
use super::board::Ones;
use super::board::{
    BLOCK, Board, CELL_REGIONS, COLUMN, PEERS, REGION_CELLS, ROW, digits, regions_of, see,
};

fn peers_mask(cell: usize) -> u128 {
    PEERS[cell].iter().fold(0u128, |m, &p| m | 1 << p)
}

fn cells_of(m: u128) -> impl Iterator<Item = usize> {
    (0..81).filter(move |&c| m & (1 << c) != 0)
}

/// The BUG step Explainer takes, if any. `lk`: SukakuExplainer's version.
pub(super) fn find(b: &Board, step: &mut SeStep, lk: bool) -> bool {
    let mut temp = b.cand;
    let mut bug: Vec<usize> = Vec::new();
    let mut bug_values = [0u16; 81];
    let mut all_values = 0u16;
    let mut common: Option<u128> = None;
    let mut all_extra: Option<u128> = None;
    let mut only_value = 0u8;
    let mut one_value = true;
    let bug_mask = |bug: &[usize]| bug.iter().fold(0u128, |m, &c| m | 1 << c);
    for kind in [BLOCK, ROW, COLUMN] {
        for r in regions_of(kind) {
            for d in 1..=9u8 {
                let p = b.positions(r, d);
                let card = p.ones();
                if card == 0 || card == 2 {
                    continue;
                }
                let new_bug: Vec<usize> = (0..9)
                    .filter(|i| p & (1 << i) != 0)
                    .map(|i| REGION_CELLS[r][i] as usize)
                    .filter(|&c| b.cand[c].ones() >= 3)
                    .collect();
                if lk {
                    let nm = bug_mask(&new_bug);
                    match all_extra {
                        None => {
                            all_extra = Some(nm);
                            only_value = d;
                        }
                        Some(ref mut a) if one_value => {
                            if only_value == d {
                                *a |= nm;
                            } else {
                                one_value = false;
                            }
                        }
                        _ => {}
                    }
                }
                if let [cell] = new_bug[..] {
                    if !bug.contains(&cell) {
                        bug.push(cell);
                    }
                    bug_values[cell] |= 1 << (d - 1);
                    all_values |= 1 << (d - 1);
                    temp[cell] &= !(1 << (d - 1));
                    let c =
                        common.map_or(peers_mask(cell), |m| m & peers_mask(cell)) & !bug_mask(&bug);
                    common = Some(c);
                    if bug.len() > 1 && all_values.ones() > 1 && c == 0 {
                        return false;
                    }
                }
                if new_bug.is_empty() {
                    return false;
                }
            }
        }
    }
    if lk && one_value {
        if let Some(a) = all_extra {
            if a.ones() as usize > bug.len() {
                for cell in cells_of(a & !bug_mask(&bug)) {
                    bug.push(cell);
                    bug_values[cell] = 1 << (only_value - 1);
                    temp[cell] &= !(1 << (only_value - 1));
                    let c =
                        common.map_or(peers_mask(cell), |m| m & peers_mask(cell)) & !bug_mask(&bug);
                    common = Some(c);
                    if bug.len() > 1 && all_values.ones() > 1 && c == 0 {
                        return false;
                    }
                }
            }
        }
    }
    // Without the extra digits the grid must be a BUG.
    if (0..81).any(|c| b.value[c] == 0 && temp[c].ones() != 2) {
        return false;
    }
    for r in 0..27 {
        let mut count = [0u8; 9];
        for &c in &REGION_CELLS[r] {
            for d in digits(temp[c as usize]) {
                count[d as usize - 1] += 1;
            }
        }
        if count.iter().any(|&n| n != 0 && n != 2) {
            return false;
        }
    }
    let common = common.unwrap_or(0);
    if bug.len() == 1 {
        let cell = bug[0];
        step.set("BUG type 1", 56);
        for d in digits(b.cand[cell] & !all_values) {
            step.remove(cell, d);
        }
        step.cells.push(cell);
        step.digits.extend(digits(all_values));
        return true;
    }
    if all_values.ones() == 1 {
        let value = digits(all_values).next().unwrap_or(1);
        if common != 0 {
            for c in cells_of(common) {
                if b.has(c, value) {
                    step.remove(c, value);
                }
            }
            if !step.eliminations.is_empty() {
                step.set("BUG type 2", 57);
                step.cells.extend(bug.iter().copied());
                step.digits.push(value);
                return true;
            }
        }
        return bug.len() == 2 && type4(b, step, &bug, &bug_values, all_values);
    }
    if common != 0 {
        if bug.len() == 2 && type4(b, step, &bug, &bug_values, all_values) {
            return true;
        }
        return type3(b, step, &bug, all_values, common, lk);
    }
    false
}

fn type4(b: &Board, step: &mut SeStep, bug: &[usize], extra: &[u16; 81], all: u16) -> bool {
    let (c1, c2) = (bug[0], bug[1]);
    let common = b.cand[c1] & b.cand[c2] & !all;
    if common.ones() != 1 {
        return false;
    }
    for kind in [BLOCK, ROW, COLUMN] {
        let r = CELL_REGIONS[c1][kind];
        if r != CELL_REGIONS[c2][kind] {
            continue;
        }
        step.set("BUG type 4", 57);
        for c in [c1, c2] {
            for d in digits(b.cand[c] & !extra[c] & !common) {
                step.remove(c, d);
            }
        }
        step.cells.extend([c1, c2]);
        step.digits.extend(digits(common));
        step.region(r as usize);
        return true;
    }
    false
}

fn type3(b: &Board, step: &mut SeStep, bug: &[usize], all: u16, common: u128, lk: bool) -> bool {
    // Regions common to every BUG cell, by kind.
    let region_of = |kind: usize| {
        let r = CELL_REGIONS[bug[0]][kind];
        bug.iter()
            .all(|&c| CELL_REGIONS[c][kind] == r)
            .then_some(r as usize)
    };
    let try_one = |step: &mut SeStep, kind: usize, r: usize, degree: u32| -> bool {
        let region_cells: Vec<usize> = cells_of(common)
            .filter(|&c| CELL_REGIONS[c][kind] as usize == r)
            .collect();
        if region_cells.len() < degree as usize {
            return false;
        }
        let n = region_cells.len();
        for set in (0u32..(1 << n)).filter(|m| m.ones() == degree - 1) {
            let naked_cells: Vec<usize> = (0..n)
                .filter(|i| set & (1 << i) != 0)
                .map(|i| region_cells[i])
                .collect();
            let other = naked_cells.iter().fold(0u16, |m, &c| m | b.cand[c]);
            if other.ones() != degree {
                continue;
            }
            if naked_cells.iter().any(|&c| b.cand[c].ones() <= 1) || all.ones() <= 1 {
                continue;
            }
            let naked = other | all;
            if naked.ones() != degree {
                continue;
            }
            if lk {
                for v in digits(naked) {
                    let holders: Vec<usize> = naked_cells
                        .iter()
                        .chain(bug.iter())
                        .copied()
                        .filter(|&c| b.has(c, v))
                        .collect();
                    if holders.is_empty() {
                        continue;
                    }
                    for t in 0..81 {
                        if holders.iter().all(|&h| see(t, h)) && b.has(t, v) {
                            step.remove(t, v);
                        }
                    }
                }
            } else {
                for &c in &region_cells {
                    if !naked_cells.contains(&c) && !bug.contains(&c) {
                        for v in digits(b.cand[c] & naked) {
                            step.remove(c, v);
                        }
                    }
                }
            }
            if !step.eliminations.is_empty() {
                step.set("BUG type 3", 57 + (degree as u16 - 1));
                step.cells.extend(bug.iter().copied());
                step.cells.extend(naked_cells.iter().copied());
                step.digits.extend(digits(naked));
                step.region(r);
                return true;
            }
        }
        false
    };
    if lk {
        for degree in 2..=6 {
            for kind in [BLOCK, ROW, COLUMN] {
                if let Some(r) = region_of(kind) {
                    if try_one(step, kind, r, degree) {
                        return true;
                    }
                }
            }
        }
    } else {
        for kind in [BLOCK, ROW, COLUMN] {
            if let Some(r) = region_of(kind) {
                for degree in 2..=6 {
                    if try_one(step, kind, r, degree) {
                        return true;
                    }
                }
            }
        }
    }
    false
}
