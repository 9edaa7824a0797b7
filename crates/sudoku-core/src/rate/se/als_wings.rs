//! SukakuExplainer's WXYZ-, VWXYZ-, UVWXYZ- and TUVWXYZ-wings: an almost
//! locked set of `k` mutually visible cells (3 to 6) holding `k + 1`
//! digits, and a bivalue cell "yz" whose two digits both lie in the set.
//!
//! The rules, from SukakuExplainer's `WXYZWing` family (LGPL; the code
//! here is ours):
//!
//! - The set's cells in increasing order, each seeing all the earlier ones
//!   (the first with 2 to `k + 1` candidates, every one with two or more,
//!   the union below `k + 2` digits on the way and exactly `k + 1` at the
//!   end); then yz among the cells seeing any of the set, ascending.
//! - With x and z yz's smaller and larger digit: a digit is "restricted"
//!   when yz sees every cell of the set holding it. If x is restricted
//!   (and z too: doubly linked) or only z is (then the two swap roles),
//!   the wing removes z from the cells seeing yz and every set cell
//!   holding z; doubly linked, also x likewise, and each other digit of
//!   the set from the cells seeing every set cell holding it. A doubly
//!   linked wing that removes none of the other digits counts as singly
//!   linked when it removes no z, or no x.
//! - Difficulty: WXYZ 5.5, +0.1 when its largest cell holds 3 digits;
//!   VWXYZ 6.2 + 0.1 × (2 − |3 − largest cell|); UVWXYZ 6.6; TUVWXYZ 7.5.
//! - Of all the wings found, the first by difficulty, then number of
//!   eliminations (more first), then suffix (link count, largest cell,
//!   sum of cell sizes) in decreasing string order, then the order found.
//!
//! Cells that all see each other lie in one region (three such cells in
//! a row and a block lie in their row–block intersection), so the sets
//! are found region by region, among the region's cells with two or more
//! candidates, as index subsets of at most nine cells with 16-bit unions
//! (a set inside a row–block or column–block intersection is taken from
//! the line only). SukakuExplainer's order found, the sets' cells in
//! increasing order compared lexicographically and then yz, breaks the
//! ties between wings found in another order here.

use super::SeStep;
use super::board::Ones;
use super::board::{BLOCK, Board, CELL_BIT, PEER_MASK, REGION_CELLS};

struct Wing {
    tenths: u16,
    eliminations: usize,
    suffix: String,
    removals: Vec<(usize, u8)>,
    cells: Vec<usize>,
    digits: u16,
}

struct Search<'a> {
    b: &'a Board,
    k: usize,
    als: Vec<usize>,
    /// The first wing of SukakuExplainer's order among those found so far.
    best: Option<Wing>,
    /// Scratch for a wing's eliminations.
    removals: Vec<(usize, u8)>,
    /// The bivalue cells (the only ones yz can be).
    bivalue: u128,
    /// The set's cells, as bits.
    set: u128,
    /// The region's cells with two or more candidates (the only ones a set
    /// takes), in increasing order, their candidates, and how many.
    cells: [u8; 9],
    values: [u16; 9],
    /// Their positions in the region.
    positions: [u8; 9],
    n: usize,
    /// Whether the region is a block.
    block: bool,
}

impl<'a> Search<'a> {
    /// A search for wings of `k` cells and a yz cell on `b`.
    fn new(b: &'a Board, k: usize) -> Search<'a> {
        Search {
            b,
            k,
            als: Vec::with_capacity(k),
            best: None,
            removals: Vec::new(),
            set: 0,
            bivalue: (0..81).fold(0, |m, c| if b.cand[c].ones() == 2 { m | 1 << c } else { m }),
            cells: [0; 9],
            values: [0; 9],
            positions: [0; 9],
            n: 0,
            block: false,
        }
    }
}

/// The almost locked sets found per wing size and region, kept from one
/// step to the next: a region's sets (their cells and digits) read only
/// the candidates of the region's cells, so while those are unchanged the
/// sets are the same (exact; the wings of each set are looked for again on
/// the board at hand).
#[derive(Default)]
pub(super) struct Memo {
    /// `regions[(k - 3) * 27 + r]`.
    regions: Vec<RegionSets>,
}

#[derive(Default)]
struct RegionSets {
    /// The candidates of the region's cells when the sets were found.
    key: Option<[u16; 9]>,
    /// The sets in the order found: the region's cells as bits of their
    /// positions, and the union of their candidates.
    sets: Vec<(u16, u16)>,
}

/// The step of SukakuExplainer's wing of `k` set cells (3: WXYZ, 4: VWXYZ,
/// 5: UVWXYZ, 6: TUVWXYZ), if any.
pub(super) fn find(b: &Board, step: &mut SeStep, k: usize, memo: &mut Memo) -> bool {
    let mut s = Search::new(b, k);
    // Every wing has a bivalue cell yz.
    if s.bivalue == 0 {
        return false;
    }
    if memo.regions.len() != 4 * 27 {
        memo.regions = (0..4 * 27).map(|_| RegionSets::default()).collect();
    }
    for r in 0..27 {
        let key: [u16; 9] = std::array::from_fn(|i| b.cand[REGION_CELLS[r][i] as usize]);
        let entry = &mut memo.regions[(k - 3) * 27 + r];
        if entry.key != Some(key) {
            entry.key = Some(key);
            entry.sets.clear();
            s.n = 0;
            for (i, &c) in REGION_CELLS[r].iter().enumerate() {
                let v = key[i];
                if v.ones() >= 2 {
                    s.cells[s.n] = c;
                    s.values[s.n] = v;
                    s.positions[s.n] = i as u8;
                    s.n += 1;
                }
            }
            if s.n >= k {
                s.block = r / 9 == BLOCK;
                s.extend(0, 0, 0, &mut entry.sets);
            }
        }
        for &(cells, union) in &entry.sets {
            let mut m = cells;
            while m != 0 {
                let c = REGION_CELLS[r][m.trailing_zeros() as usize] as usize;
                m &= m - 1;
                s.als.push(c);
                s.set |= CELL_BIT[c];
            }
            s.wings(union);
            s.als.clear();
            s.set = 0;
        }
    }
    let Some(w) = s.best else {
        return false;
    };
    let title = ["WXYZ-Wing", "VWXYZ-Wing", "UVWXYZ-Wing", "TUVWXYZ-Wing"][k - 3];
    step.set(super::intern(format!("{title} {}", w.suffix)), w.tenths);
    for (c, d) in w.removals {
        step.remove(c, d);
    }
    step.cells = w.cells;
    step.digits = super::board::digits(w.digits).collect();
    true
}

impl Search<'_> {
    /// Extend the set with the region's cells from index `from` on;
    /// `union` holds its digits so far and `at` its cells' positions in
    /// the region. Each set of `k` cells with `k + 1` digits is added to
    /// `out`.
    fn extend(&mut self, from: usize, union: u16, at: u16, out: &mut Vec<(u16, u16)>) {
        let k = self.k;
        let need = k - self.als.len();
        for i in from..=self.n - need {
            let u = union | self.values[i];
            let ones = u.ones() as usize;
            if ones > k + 1 || (need == 1 && ones != k + 1) {
                continue;
            }
            let c = self.cells[i] as usize;
            let at = at | 1 << self.positions[i];
            self.als.push(c);
            if need > 1 {
                self.extend(i + 1, u, at, out);
            } else if !(self.block && k == 3 && self.in_line()) {
                out.push((at, u));
            }
            self.als.pop();
        }
    }

    /// Whether the set lies in one row or one column (then it is found
    /// there: skipped in the block).
    fn in_line(&self) -> bool {
        let first = self.als[0];
        let row = self.als.iter().all(|&c| c / 9 == first / 9);
        let column = self.als.iter().all(|&c| c % 9 == first % 9);
        row || column
    }

    /// Whether yz sees every set cell holding digit `d`.
    fn restricted(&self, yz: usize, d: u8) -> bool {
        self.set & self.b.cells_of(d) & !PEER_MASK[yz] == 0
    }

    /// The cells seeing every set cell holding `d` (and `from`).
    fn seeing(&self, from: u128, d: u8) -> u128 {
        let mut m = from;
        let mut holding = self.set & self.b.cells_of(d);
        while holding != 0 {
            m &= PEER_MASK[holding.trailing_zeros() as usize];
            holding &= holding - 1;
        }
        m
    }

    fn wings(&mut self, union: u16) {
        let b = self.b;
        let wing = self.set;
        let mut around = 0u128;
        for &c in &self.als {
            around |= PEER_MASK[c];
        }
        // yz: a bivalue cell seeing the set, outside it, holding no digit
        // outside the union.
        let mut outside = 0u128;
        for d in super::board::digits(!union & 0x1ff) {
            outside |= b.cells_of(d);
        }
        let mut m = around & !wing & !outside & self.bivalue;
        while m != 0 {
            let yz = m.trailing_zeros() as usize;
            m &= m - 1;
            let v = b.cand[yz];
            let x = v.trailing_zeros() as u8 + 1;
            let z = 15 - v.leading_zeros() as u8 + 1;
            let double = self.restricted(yz, z);
            if self.restricted(yz, x) {
                self.hint(yz, x, z, double, union, wing);
            } else if double {
                self.hint(yz, z, x, false, union, wing);
            }
        }
    }

    fn hint(&mut self, yz: usize, x: u8, z: u8, mut double: bool, union: u16, wing: u128) {
        let b = self.b;
        let out = !(wing | 1 << yz);
        let mut removals = std::mem::take(&mut self.removals);
        removals.clear();
        let take = |m: u128, d: u8, removals: &mut Vec<(usize, u8)>| {
            let mut m = m & b.cells_of(d);
            let any = m != 0;
            while m != 0 {
                removals.push((m.trailing_zeros() as usize, d));
                m &= m - 1;
            }
            any
        };
        let (mut weak, mut strong_x) = (false, false);
        if double {
            let rest = union & !b.cand[yz];
            for w in super::board::digits(rest) {
                weak |= take(self.seeing(!0, w) & out, w, &mut removals);
            }
            strong_x = take(self.seeing(PEER_MASK[yz], x) & out, x, &mut removals);
        }
        let strong_z = take(self.seeing(PEER_MASK[yz], z) & out, z, &mut removals);
        if double && !weak && (!strong_z || !strong_x) {
            double = false;
        }
        if removals.is_empty() {
            self.removals = removals;
            return;
        }
        let biggest = self
            .als
            .iter()
            .map(|&c| b.cand[c].ones())
            .max()
            .unwrap_or(0);
        let size: u32 = self.als.iter().map(|&c| b.cand[c].ones()).sum();
        let tenths = match self.k {
            3 => 55 + u16::from(biggest == 3),
            4 => 62 + (2 - (3i32 - biggest as i32).abs()).max(0) as u16,
            5 => 66,
            _ => 75,
        };
        let suffix = format!("{}{}{}", if double { 2 } else { 1 }, biggest, size);
        // SukakuExplainer sorts every wing found (stably) and takes the
        // first: keep only the best so far, replaced by a better one, or an
        // equal one SukakuExplainer finds first (its sets' cells in
        // increasing order, lexicographically, then yz).
        let better = self.best.as_ref().is_none_or(|w| {
            tenths
                .cmp(&w.tenths)
                .then(w.eliminations.cmp(&removals.len()))
                .then(w.suffix.cmp(&suffix))
                .then_with(|| self.als.iter().chain([&yz]).cmp(w.cells.iter()))
                .is_lt()
        });
        if better {
            let mut cells = self.als.clone();
            cells.push(yz);
            self.best = Some(Wing {
                tenths,
                eliminations: removals.len(),
                suffix,
                removals: removals.clone(),
                cells,
                digits: union,
            });
        }
        self.removals = removals;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rate::se::Profile;
    use crate::rate::se::tests::boards_past_singles;

    /// SukakuExplainer's own enumeration: the sets as sequences of cells in
    /// increasing order, each cell seeing every earlier one, depth first
    /// (so in lexicographic order), every wing of each set offered in that
    /// order.
    fn find_by_cliques(b: &Board, k: usize) -> Option<(u16, usize, String, Vec<usize>)> {
        fn extend(s: &mut Search, union: u16, range: u128) {
            let mut m = range;
            while m != 0 {
                let c = m.trailing_zeros() as usize;
                m &= m - 1;
                let v = s.b.cand[c];
                let u = union | v;
                if v.ones() < 2 || u.ones() as usize > s.k + 1 {
                    continue;
                }
                s.als.push(c);
                s.set |= 1 << c;
                if s.als.len() < s.k {
                    extend(s, u, range & PEER_MASK[c]);
                } else if u.ones() as usize == s.k + 1 {
                    s.wings(u);
                }
                s.set &= !(1 << c);
                s.als.pop();
            }
        }
        let mut s = Search::new(b, k);
        for c0 in 0..81 {
            if b.cand[c0].ones() >= 2 {
                s.als.push(c0);
                s.set = 1 << c0;
                let later = PEER_MASK[c0] & !((2u128 << c0) - 1);
                extend(&mut s, b.cand[c0], later);
                s.als.pop();
            }
        }
        s.best
            .map(|w| (w.tenths, w.eliminations, w.suffix, w.cells))
    }

    /// The sets found region by region give the step SukakuExplainer's
    /// enumeration of mutually seeing cells gives, for the four wing
    /// sizes, on every board of five hard puzzles' paths past the singles;
    /// and so do the sets kept from the path's earlier boards.
    #[test]
    fn region_sets_take_the_step_the_cliques_take() {
        let (mut boards, mut wings) = (0, 0);
        for line in [
            ".24.6.7..5.74.9.1.....7......5.9487147.6.85.3..8..7.6.7......46.46..3.57.5.7461..",
            "8...43..1.31.57..8.721......9351......5....1.18.3..........1.67..7..91..318765924",
            ".1..6..3.2.......5..4...8..12..8..54..3...9..4.......77..2.4..8...8.6.....6.5.1..",
            "..67..391..93...623......4.....3...4..72...134.3..1....31..8.75..49531.6.65....3.",
            "3.64....1.8.2...9671..6.4..96...52..17.....64..37.6..96...8..4223...46..84.6.29.5",
        ] {
            let mut memo = Memo::default();
            for b in boards_past_singles(line, Profile::Sukaku) {
                boards += 1;
                for k in 3..=6 {
                    let mut step = SeStep::new();
                    let found = find(&b, &mut step, k, &mut Memo::default());
                    // With the sets the path's earlier boards left.
                    let mut kept = SeStep::new();
                    assert_eq!(found, find(&b, &mut kept, k, &mut memo), "{line} k={k}");
                    assert_eq!(step, kept, "{line} k={k}");
                    let by_cliques = find_by_cliques(&b, k);
                    assert_eq!(found, by_cliques.is_some(), "{line} k={k}");
                    if let Some((tenths, eliminations, _, cells)) = by_cliques {
                        wings += 1;
                        assert_eq!(step.tenths, tenths, "{line} k={k}");
                        assert_eq!(step.eliminations.len(), eliminations, "{line} k={k}");
                        assert_eq!(step.cells, cells, "{line} k={k}");
                    }
                }
            }
        }
        assert!(boards > 20 && wings > 5, "{boards} boards, {wings} wings");
    }
}
