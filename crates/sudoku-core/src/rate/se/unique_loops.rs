//! Unique rectangles and loops, types 1 to 4, as Sudoku Explainer's
//! `UniqueLoops` producer finds and orders them.
//!
//! Explainer's search: from each cell with exactly two candidates {v1, v2}
//! (reading order), a depth-first walk through the cell's block, row and
//! column (never twice in a row through the same kind of region) to cells
//! holding both digits; at most two cells may hold other digits too, or
//! more if they all add the same single digit. A closed walk of at least
//! four cells is a loop if every region it visits is visited by exactly one
//! even- and one odd-numbered cell. Then:
//!
//! - one cell with extra digits: type 1, remove v1 and v2 from it;
//! - extra cells adding one common digit: type 2, remove it from the cells
//!   that see every extra cell;
//! - two extra cells in a common region: type 3 (their extra digits form a
//!   naked set with other cells of the region, or v1, v2 and other digits a
//!   hidden set), and type 4 (a digit of the loop confined to the two cells
//!   in that region: remove the other).
//!
//! Every step found is collected, then sorted by difficulty and type (a
//! stable sort), and the first is taken. Difficulty: 4.5, +0.1 for a loop of
//! six cells, +0.2 for eight, +0.5 for ten or more; type 3 adds 0.1 per
//! naked digit beyond the first, or 0.1 per hidden cell beyond the first.
//!
//! SukakuExplainer's default (lkSudoku's fix) keeps the extra digits of each
//! branch of the walk apart and tries hidden sets of every size; plain SE
//! 1.2.1 lets them accumulate across sibling branches and starts the type 3
//! search at the number of extra digits. The profile chooses.

use super::SeStep;
use super::board::Ones;
use super::board::{
    BLOCK, Board, CELL_REGIONS, COLUMN, PEERS, REGION_BITS, REGION_CELLS, ROW, bit, digits, see,
    subsets_of,
};

/// One candidate step with Explainer's sort key.
struct Found {
    difficulty: f64,
    kind: u8,
    step: SeStep,
}

/// The loops found from each start cell, kept per pair of digits from one
/// step to the next.
///
/// The walks from the cells holding exactly {v1, v2} read only which cells
/// hold both digits and those cells' candidates: while these are the same,
/// so are the loops (exact; the steps each loop makes are found again on
/// the board at hand).
#[derive(Default)]
pub(super) struct Memo {
    /// Per pair, `(v1 - 1) * 9 + v2 - 1`.
    pairs: Vec<PairLoops>,
    /// Scratch for a pair's key.
    key: Vec<u16>,
}

#[derive(Default)]
struct PairLoops {
    /// Whether the loops below were found, for the `lk` rules.
    valid: bool,
    lk: bool,
    /// The cells holding both digits, and their candidates in cell order.
    holding: u128,
    cands: Vec<u16>,
    /// The loops, one after the other in the order found, start cells
    /// ascending.
    loops: Loops,
    /// Per start cell with loops: the cell and the end of its loops in
    /// `loops.ends`.
    starts: Vec<(u8, u32)>,
}

/// Loops as one list of cells and where each ends.
#[derive(Default)]
struct Loops {
    cells: Vec<u8>,
    ends: Vec<u32>,
}

impl Loops {
    fn push(&mut self, lp: &[u8]) {
        self.cells.extend_from_slice(lp);
        self.ends.push(self.cells.len() as u32);
    }

    /// Loops `from..to`.
    fn range(&self, from: usize, to: usize) -> impl Iterator<Item = &[u8]> {
        (from..to).map(move |i| {
            let begin = if i == 0 { 0 } else { self.ends[i - 1] as usize };
            &self.cells[begin..self.ends[i] as usize]
        })
    }
}

impl Memo {
    /// The loops of pair {v1, v2}, found again if the cells they read
    /// changed.
    fn pair(&mut self, b: &Board, v1: u8, v2: u8, lk: bool) -> &PairLoops {
        if self.pairs.len() != 81 {
            self.pairs = (0..81).map(|_| PairLoops::default()).collect();
        }
        let holding = b.cells_of(v1) & b.cells_of(v2);
        self.key.clear();
        let mut m = holding;
        while m != 0 {
            self.key.push(b.cand[m.trailing_zeros() as usize]);
            m &= m - 1;
        }
        let e = &mut self.pairs[(v1 as usize - 1) * 9 + v2 as usize - 1];
        if e.valid && e.lk == lk && e.holding == holding && e.cands == self.key {
            return e;
        }
        e.valid = true;
        e.lk = lk;
        e.holding = holding;
        e.cands.clear();
        e.cands.extend_from_slice(&self.key);
        e.loops.cells.clear();
        e.loops.ends.clear();
        e.starts.clear();
        let both = bit(v1) | bit(v2);
        let mut path = Vec::with_capacity(16);
        let mut m = holding;
        while m != 0 {
            let cell = m.trailing_zeros() as usize;
            m &= m - 1;
            if b.cand[cell] != both {
                continue;
            }
            let before = e.loops.ends.len();
            path.clear();
            let mut ex = 0u16;
            walk(
                b,
                cell,
                v1,
                v2,
                &mut path,
                0u128,
                [0, 0],
                2,
                &mut ex,
                lk,
                None,
                &mut e.loops,
            );
            if e.loops.ends.len() > before {
                e.starts.push((cell as u8, e.loops.ends.len() as u32));
            }
        }
        e
    }
}

/// The unique loop step Explainer takes, if any. `lk`: SukakuExplainer's
/// corrected search.
pub(super) fn find(b: &Board, step: &mut SeStep, lk: bool, memo: &mut Memo) -> bool {
    let mut best: Option<Found> = None;
    for cell in 0..81 {
        let m = b.cand[cell];
        if m.ones() != 2 {
            continue;
        }
        let mut ds = digits(m);
        let (v1, v2) = (ds.next().unwrap_or(1), ds.next().unwrap_or(1));
        let e = memo.pair(b, v1, v2, lk);
        let Some(i) = e.starts.iter().position(|&(c, _)| c as usize == cell) else {
            continue;
        };
        let from = if i == 0 {
            0
        } else {
            e.starts[i - 1].1 as usize
        };
        for lp in e.loops.range(from, e.starts[i].1 as usize) {
            debug_assert!(is_valid_loop(lp));
            for f in hints(b, lp, v1, v2, lk) {
                let better = best.as_ref().is_none_or(|x| {
                    f.difficulty < x.difficulty || (f.difficulty == x.difficulty && f.kind < x.kind)
                });
                if better {
                    best = Some(f);
                }
            }
        }
    }
    match best {
        Some(f) => {
            *step = f.step;
            true
        }
        None => false,
    }
}

/// Explainer's walk, gathering the closed walks that are loops (see
/// [`is_valid_loop`]) into `out` in the order it finds them. `parity`: the
/// regions of the path's even- and odd-numbered cells. A branch whose
/// next cell would put a region twice among the cells of one parity can
/// close no loop, so it is not walked (Explainer walks it and drops what it
/// closes; the extra digits a walk gathers are its own, so skipping one
/// changes nothing else).
#[allow(clippy::too_many_arguments)]
fn walk(
    b: &Board,
    cell: usize,
    v1: u8,
    v2: u8,
    path: &mut Vec<u8>,
    mut on_path: u128,
    mut parity: [u32; 2],
    allowed_ex: i32,
    ex: &mut u16,
    lk: bool,
    last_kind: Option<usize>,
    out: &mut Loops,
) {
    parity[path.len() % 2] |= regions_of_cell(cell);
    path.push(cell as u8);
    on_path |= 1 << cell;
    let both = bit(v1) | bit(v2);
    let holding = b.cells_of(v1) & b.cells_of(v2);
    // Plain SE shares one set of extra digits among the branches of a call.
    let mut shared = *ex;
    for kind in [BLOCK, ROW, COLUMN] {
        if Some(kind) == last_kind {
            continue;
        }
        let r = CELL_REGIONS[cell][kind] as usize;
        // The region's cells in order that could be next: off the path
        // holding both digits (the others are passed over), or the start
        // to close the loop.
        let mut nexts = REGION_BITS[r] & holding & !on_path;
        if path.len() >= 4 {
            nexts |= REGION_BITS[r] & 1 << path[0];
        }
        while nexts != 0 {
            let next = nexts.trailing_zeros() as usize;
            nexts &= nexts - 1;
            if next == path[0] as usize && path.len() >= 4 {
                if parity[0] == parity[1] {
                    out.push(path);
                }
            } else if on_path & (1 << next) == 0 {
                let p = b.cand[next];
                if p & both != both {
                    continue;
                }
                let card = p.ones();
                let mut new_ex = if lk { *ex } else { shared };
                new_ex |= p & !both;
                if !lk {
                    shared = new_ex;
                }
                let fits = parity[path.len() % 2] & regions_of_cell(next) == 0;
                if fits && (card == 2 || new_ex.ones() == 1 || allowed_ex > 0) {
                    let a = if card > 2 { allowed_ex - 1 } else { allowed_ex };
                    let mut child = new_ex;
                    walk(
                        b,
                        next,
                        v1,
                        v2,
                        path,
                        on_path,
                        parity,
                        a,
                        &mut child,
                        lk,
                        Some(kind),
                        out,
                    );
                }
            }
        }
    }
    path.pop();
}

/// The three regions of a cell as a 27-bit set.
fn regions_of_cell(cell: usize) -> u32 {
    CELL_REGIONS[cell].iter().fold(0, |m, &r| m | 1 << r)
}

/// Every region visited by the loop is visited once by an even-numbered
/// cell and once by an odd-numbered one.
#[cfg_attr(not(debug_assertions), allow(dead_code))]
fn is_valid_loop(lp: &[u8]) -> bool {
    let (mut even, mut odd) = (0u32, 0u32);
    for (i, &c) in lp.iter().enumerate() {
        for &r in &CELL_REGIONS[c as usize] {
            let set = if i % 2 == 0 { &mut even } else { &mut odd };
            if *set & (1 << r) != 0 {
                return false;
            }
            *set |= 1 << r;
        }
    }
    even == odd
}

fn base_difficulty(len: usize) -> f64 {
    let mut d = 4.5;
    if len >= 10 {
        d += 0.3;
    }
    if len >= 8 {
        d += 0.2;
    } else if len >= 6 {
        d += 0.1;
    }
    d
}

fn name(len: usize, kind: u8) -> &'static str {
    const R: [&str; 4] = [
        "Unique Rectangle type 1",
        "Unique Rectangle type 2",
        "Unique Rectangle type 3",
        "Unique Rectangle type 4",
    ];
    const L: [&str; 4] = [
        "Unique Loop type 1",
        "Unique Loop type 2",
        "Unique Loop type 3",
        "Unique Loop type 4",
    ];
    if len == 4 {
        R[kind as usize - 1]
    } else {
        L[kind as usize - 1]
    }
}

fn new_step(lp: &[u8], v1: u8, v2: u8, kind: u8, difficulty: f64) -> Found {
    let mut step = SeStep::new();
    step.set(name(lp.len(), kind), (difficulty * 10.0).round() as u16);
    step.cells.extend(lp.iter().map(|&c| c as usize));
    step.digits.extend([v1, v2]);
    Found {
        difficulty,
        kind,
        step,
    }
}

/// The steps of one loop, in Explainer's order of discovery.
fn hints(b: &Board, lp: &[u8], v1: u8, v2: u8, lk: bool) -> Vec<Found> {
    let mut out = Vec::new();
    let both = bit(v1) | bit(v2);
    let extra: Vec<usize> = lp
        .iter()
        .map(|&c| c as usize)
        .filter(|&c| b.cand[c].ones() > 2)
        .collect();
    let base = base_difficulty(lp.len());
    match extra.len() {
        1 => {
            let mut f = new_step(lp, v1, v2, 1, base);
            f.step.remove(extra[0], v1);
            f.step.remove(extra[0], v2);
            out.push(f);
        }
        0 => {}
        n => {
            let ex_union = extra.iter().fold(0u16, |m, &c| m | b.cand[c]) & !both;
            if n > 2 || ex_union.ones() == 1 {
                if let Some(f) = type2(b, lp, v1, v2, &extra, base) {
                    out.push(f);
                }
            } else if ex_union.ones() >= 2 {
                type3(b, lp, v1, v2, extra[0], extra[1], base, lk, &mut out);
            }
            if n == 2 {
                if let Some(f) = type4(b, lp, v1, v2, extra[0], extra[1], base) {
                    out.push(f);
                }
            }
        }
    }
    out
}

fn type2(b: &Board, lp: &[u8], v1: u8, v2: u8, extra: &[usize], base: f64) -> Option<Found> {
    let both = bit(v1) | bit(v2);
    let value = digits(b.cand[extra[0]] & !both).next()?;
    let mut f = new_step(lp, v1, v2, 2, base);
    for &p in &PEERS[extra[0]] {
        let p = p as usize;
        if !extra.contains(&p) && extra.iter().all(|&e| see(p, e)) && b.has(p, value) {
            f.step.remove(p, value);
        }
    }
    (!f.step.eliminations.is_empty()).then_some(f)
}

#[allow(clippy::too_many_arguments)]
fn type3(
    b: &Board,
    lp: &[u8],
    v1: u8,
    v2: u8,
    c1: usize,
    c2: usize,
    base: f64,
    lk: bool,
    out: &mut Vec<Found>,
) {
    let both = bit(v1) | bit(v2);
    let extra = (b.cand[c1] | b.cand[c2]) & !both;
    let ex_card = extra.ones();
    let first = if lk { 2 } else { ex_card };
    for degree in first..=7 {
        for kind in [BLOCK, ROW, COLUMN] {
            let r = CELL_REGIONS[c1][kind] as usize;
            if r != CELL_REGIONS[c2][kind] as usize {
                continue;
            }
            let cells = &REGION_CELLS[r];
            let empty = b.empty_in(r);
            let i1 = cells.iter().position(|&c| c as usize == c1).unwrap_or(9);
            let i2 = cells.iter().position(|&c| c as usize == c2).unwrap_or(9);
            // Naked set: c1 (standing for its extra digits) and other cells.
            // Explainer tries every set of `degree` positions holding c1
            // and not c2, ascending; a set fails if a cell of it has fewer
            // than two candidates, or more than `degree` (the union is too
            // large), so only the others are visited, in the same order.
            if degree * 2 <= empty && degree >= ex_card {
                let mut usable = 0u16;
                for i in 0..9 {
                    let n = b.cand[cells[i] as usize].ones();
                    if i != i1 && i != i2 && (2..=degree).contains(&n) {
                        usable |= 1 << i;
                    }
                }
                subsets_of(usable, degree - 1, |rest| {
                    let set = rest | 1 << i1;
                    let mut naked = extra & b.cand[c1] & b.cand[c2];
                    let mut union = 0u16;
                    let mut ok = true;
                    let mut others = [0usize; 9];
                    let mut n_others = 0;
                    for i in 0..9 {
                        if set & (1 << i) == 0 {
                            continue;
                        }
                        let p = if i == i1 {
                            extra
                        } else {
                            let c = cells[i] as usize;
                            others[n_others] = c;
                            n_others += 1;
                            naked |= b.cand[c];
                            b.cand[c]
                        };
                        if p.ones() <= 1 {
                            ok = false;
                        }
                        union |= p;
                    }
                    let others = &others[..n_others];
                    if naked.ones() != degree || !ok || union.ones() != degree {
                        return false;
                    }
                    let mut f = new_step(lp, v1, v2, 3, base + f64::from(degree - 1) * 0.1);
                    for v in digits(union) {
                        let holders: Vec<usize> = others
                            .iter()
                            .copied()
                            .chain([c1, c2])
                            .filter(|&c| b.has(c, v))
                            .collect();
                        if holders.is_empty() {
                            continue;
                        }
                        for t in 0..81 {
                            if holders.iter().all(|&h| see(t, h)) && b.has(t, v) {
                                f.step.remove(t, v);
                            }
                        }
                    }
                    if !f.step.eliminations.is_empty() {
                        f.step.cells.extend(others.iter().copied());
                        f.step.digits.extend(digits(union));
                        f.step.region(r);
                        out.push(f);
                    }
                    false
                });
            }
            // Hidden set: v1, v2 and degree - 2 other digits confined to
            // degree cells of the region, counting c1 but not c2 (the
            // other digits' sets ascending by their index among the
            // digits left, which is ascending by digit).
            if degree * 2 < empty {
                let rem = 0x1ff & !both & !extra;
                subsets_of(rem, degree - 2, |picked| {
                    let vals = both | picked;
                    let mut union = 0u16;
                    let mut ok = true;
                    for v in digits(vals) {
                        let p = b.positions(r, v) & !(1 << i2);
                        if p == 0 {
                            ok = false;
                        }
                        union |= p;
                    }
                    if !ok || union.ones() != degree {
                        return false;
                    }
                    let hidden = union & !(1 << i1) & !(1 << i2);
                    let mut f =
                        new_step(lp, v1, v2, 3, base + (f64::from(hidden.ones()) - 1.0) * 0.1);
                    for i in 0..9 {
                        if hidden & (1 << i) != 0 {
                            let c = cells[i] as usize;
                            for v in digits(b.cand[c] & !vals) {
                                f.step.remove(c, v);
                            }
                        }
                    }
                    if !f.step.eliminations.is_empty() {
                        f.step.digits.extend(digits(vals & !both));
                        f.step.region(r);
                        out.push(f);
                    }
                    false
                });
            }
        }
    }
}

fn type4(b: &Board, lp: &[u8], v1: u8, v2: u8, c1: usize, c2: usize, base: f64) -> Option<Found> {
    let (mut r1, mut r2) = (None, None);
    for kind in [BLOCK, ROW, COLUMN] {
        let r = CELL_REGIONS[c1][kind] as usize;
        if r != CELL_REGIONS[c2][kind] as usize {
            continue;
        }
        let others = REGION_CELLS[r]
            .iter()
            .map(|&c| c as usize)
            .filter(|&c| c != c1 && c != c2);
        let (mut has1, mut has2) = (false, false);
        for c in others {
            has1 |= b.has(c, v1);
            has2 |= b.has(c, v2);
        }
        if !has1 {
            r1 = Some(r);
        }
        if !has2 {
            r2 = Some(r);
        }
    }
    let (r, rem) = match (r1, r2) {
        (Some(r), _) => (r, v2),
        (None, Some(r)) => (r, v1),
        _ => return None,
    };
    let mut f = new_step(lp, v1, v2, 4, base);
    f.step.remove(c1, rem);
    f.step.remove(c2, rem);
    f.step.region(r);
    Some(f)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rate::se::Profile;
    use crate::rate::se::tests::boards_past_singles;

    /// The search with the loops the previous boards of a path left in its
    /// memo takes the step the search from scratch takes, on every board of
    /// hard puzzles' paths past the singles, with both profiles' rules
    /// (three of the paths take unique loops of six cells).
    #[test]
    fn the_memo_changes_no_loop_step() {
        let (mut boards, mut steps_found, mut kept) = (0, 0, 0);
        for lk in [false, true] {
            let profile = if lk { Profile::Sukaku } else { Profile::Se };
            for line in [
                "5.......6.32.7..5...9..537...75.2....1.....9....8.17...546..1...6..5.82.9.......4",
                "..816......6724.....4...63.19........42...76........41.59...4.....9475......851..",
                "....5...9..52...7.49....51....3..8.7.6..4..9.8.1..7....46....82.2...67..1...9....",
                ".24.6.7..5.74.9.1.....7......5.9487147.6.85.3..8..7.6.7......46.46..3.57.5.7461..",
                "3.64....1.8.2...9671..6.4..96...52..17.....64..37.6..96...8..4223...46..84.6.29.5",
            ] {
                let mut memo = Memo::default();
                for b in boards_past_singles(line, profile) {
                    boards += 1;
                    kept += memo.pairs.iter().filter(|e| e.valid).count();
                    let (mut with, mut without) = (SeStep::new(), SeStep::new());
                    let found = find(&b, &mut with, lk, &mut memo);
                    assert_eq!(
                        found,
                        find(&b, &mut without, lk, &mut Memo::default()),
                        "{line}"
                    );
                    assert_eq!(with, without, "{line}");
                    steps_found += usize::from(found);
                }
            }
        }
        assert!(
            boards > 40 && steps_found > 3 && kept > 100,
            "{boards} boards, {steps_found} steps, {kept} pairs kept"
        );
    }
}
