//! Killer cages.
//!
//! **Rule.** The digits in a cage are all different and, when the cage has a
//! sum, add up to it. A cage without a sum (`.Cage~~R1C1~R1C2`, or sum 0)
//! only forbids repeats. Killer puzzles as setters publish them have cages
//! and no givens.
//!
//! **Propagation.** The sets of k distinct digits summing to s
//! ("combinations": 17 in 2 cells is {8,9}; 10 in 3 is {1,2,7}, {1,3,6},
//! {1,4,5} or {2,3,5}) are listed once per grid size. The open cells of a
//! cage must take a combination of the remaining sum made of their
//! candidates; they keep the digits of such combinations. A digit every
//! combination needs goes in its only cell if it has one, and otherwise
//! leaves every cell outside the cage that sees all the cells that can take
//! it (the rules of the Interactive Sudoku Solver's sum handler). A cage
//! lying in one house also reads the rest of the house, which must hold the
//! digits the cage does not: a combination stands only if the rest can
//! still hold its complement, and the rest keeps only such complements.
//! With two or three cells open, each keeps exactly the digits that have
//! partners in the others; with more, each keeps the range the others'
//! smallest and largest candidates leave it. The sums derived before the search by the
//! solver (innies of a house: hidden cages) are cages too
//! where their cells must differ.

use std::sync::{Arc, OnceLock};

use super::iss;
use super::prim::{digit_sum, pair_sums};
use super::required::SeenBy;
use super::solver::{
    Contradiction, Dom, Model, Prop, count, digits, max_digit, min_digit, range_mask,
};
use super::{CellName, Constraint, Shape};

/// A killer cage.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Cage {
    /// The total, if the cage has one.
    pub sum: Option<u32>,
    /// The cage's cells.
    pub cells: Vec<CellName>,
}

/// Read `.Cage~<sum>~<cells…>` (an empty sum or 0 for a cage without one).
pub(crate) fn parse(args: &[&str], shape: Shape) -> Result<Constraint, String> {
    let (sum, cells) = args
        .split_first()
        .ok_or_else(|| "a cage needs a sum and cells".to_string())?;
    let sum = match *sum {
        "" | "0" => None,
        s => Some(iss::number(s, "sum")?),
    };
    let cage = Cage {
        sum,
        cells: iss::cells(cells, shape, 1)?,
    };
    cage.check(shape)?;
    Ok(Constraint::Cage(cage))
}

impl Cage {
    /// A cage that cannot hold at all: too many cells, or a sum no set of
    /// distinct digits of that size makes.
    fn check(&self, shape: Shape) -> Result<(), String> {
        let n = shape.side();
        let mut seen = self.cells.clone();
        seen.sort();
        seen.dedup();
        if seen.len() > n {
            return Err(format!("{} cells but only {n} digits", seen.len()));
        }
        if seen.len() < self.cells.len() {
            // A cell listed twice counts twice in the sum (as ISS reads
            // it); the sum is then checked by its bounds only.
            if let Some(sum) = self.sum {
                let (lo, hi) = (self.cells.len() as u32, (self.cells.len() * n) as u32);
                if sum < lo || sum > hi {
                    return Err(format!(
                        "{} cells make {lo} to {hi}, not {sum}",
                        self.cells.len()
                    ));
                }
            }
            return Ok(());
        }
        if let Some(sum) = self.sum {
            let k = self.cells.len();
            if sum as usize > n * (n + 1) / 2
                || table(n)[k * (n * (n + 1) / 2 + 1) + sum as usize].is_empty()
            {
                let (lo, hi) = (k * (k + 1) / 2, k * (2 * n - k + 1) / 2);
                return Err(format!(
                    "no {k} different digits sum to {sum} ({k} cells make {lo} to {hi})"
                ));
            }
        }
        Ok(())
    }

    pub(crate) fn lower(&self, shape: Shape, m: &mut Model) -> Result<(), String> {
        self.check(shape)?;
        let cells: Vec<u16> = self.cells.iter().map(|&c| shape.index(c) as u16).collect();
        let mut distinct = cells.clone();
        distinct.sort_unstable();
        distinct.dedup();
        m.all_different(&distinct);
        match self.sum {
            Some(sum) if distinct.len() < cells.len() => {
                // a cell listed twice counts twice: a weighted sum
                let terms = distinct
                    .iter()
                    .map(|&c| (c, cells.iter().filter(|&&x| x == c).count() as i32))
                    .collect();
                m.props
                    .push(Prop::Linear(super::prim::Linear::new(terms, sum as i32)));
            }
            Some(sum) => m
                .props
                .push(Prop::Cage(CageSum::new(cells, sum, shape.side()))),
            None => {}
        }
        Ok(())
    }
}

/// The cage-sum propagator (see the module docs).
#[derive(Clone, Debug)]
pub(crate) struct CageSum {
    pub(crate) cells: Vec<u16>,
    sum: u32,
    /// Per number of open cells k and remaining sum s, the sets of k
    /// distinct digits summing to s (index `k * (max + 1) + s`).
    table: Arc<Vec<Vec<u16>>>,
    /// The largest sum, n(n+1)/2.
    max: usize,
    /// Per cage cell, the cells outside the cage that see it, filled in
    /// once the peers are known.
    seen_by: SeenBy,
    /// When the cage lies in one house: the house's other cells, which hold
    /// exactly the digits the cage does not (empty otherwise).
    pub(crate) complement: Vec<u16>,
    /// Every digit of the grid.
    all: u16,
}

/// The combinations table of a side, built once and shared.
fn table(n: usize) -> Arc<Vec<Vec<u16>>> {
    // One table per side, built when a puzzle of that side first needs it.
    static TABLES: [OnceLock<Arc<Vec<Vec<u16>>>>; 17] = [const { OnceLock::new() }; 17];
    TABLES[n]
        .get_or_init(|| {
            let max = n * (n + 1) / 2;
            let mut t = vec![Vec::new(); (n + 1) * (max + 1)];
            for m in 0u32..1 << n {
                let s: usize = digits(m as u16).map(usize::from).sum();
                t[m.count_ones() as usize * (max + 1) + s].push(m as u16);
            }
            Arc::new(t)
        })
        .clone()
}

/// The open cells of a cage as one call found them: their places in the
/// cage, their cells and their masks as narrowed since (up to 16 cells: a
/// cage has distinct cells on a grid of at most 16 digits).
#[derive(Default)]
struct Open {
    len: usize,
    at: [u8; 16],
    cells: [u16; 16],
    masks: [u16; 16],
}

impl Open {
    #[inline]
    fn push(&mut self, at: usize, cell: u16, mask: u16) {
        let j = self.len & 15;
        self.at[j] = at as u8;
        self.cells[j] = cell;
        self.masks[j] = mask;
        self.len += 1;
    }

    #[inline]
    fn mask(&self, j: usize) -> u16 {
        self.masks[j & 15]
    }

    fn masks(&self) -> &[u16] {
        &self.masks[..self.len.min(16)]
    }

    /// The places, cells and masks (these to narrow).
    fn parts(&mut self) -> (&[u8], &[u16], &mut [u16]) {
        let n = self.len.min(16);
        (&self.at[..n], &self.cells[..n], &mut self.masks[..n])
    }

    /// Narrow the `j`-th open cell to `keep`, its copy too.
    #[inline]
    fn restrict(&mut self, d: &mut Dom<'_>, j: usize, keep: u16) -> Result<(), Contradiction> {
        self.masks[j & 15] &= keep;
        d.restrict(self.cells[j & 15], keep)
    }
}

impl CageSum {
    pub(crate) fn new(cells: Vec<u16>, sum: u32, n: usize) -> CageSum {
        CageSum {
            cells,
            sum,
            table: table(n),
            max: n * (n + 1) / 2,
            seen_by: SeenBy::default(),
            complement: Vec::new(),
            all: ((1u32 << n) - 1) as u16,
        }
    }

    /// The cage's total.
    pub(crate) fn sum(&self) -> u32 {
        self.sum
    }

    /// Record which outside cells see each cage cell, and the rest of a
    /// house the cage lies in.
    pub(crate) fn finish(&mut self, peers: &[Vec<u16>], houses: &[Vec<u16>]) {
        if let Some(h) = houses
            .iter()
            .find(|h| self.cells.len() < h.len() && self.cells.iter().all(|c| h.contains(c)))
        {
            self.complement = h
                .iter()
                .copied()
                .filter(|c| !self.cells.contains(c))
                .collect();
        }
        self.seen_by = SeenBy::new(&self.cells, peers);
    }

    pub(crate) fn propagate(&self, d: &mut Dom<'_>) -> Result<(), Contradiction> {
        // One read of the cells: the open ones (their places in the cage,
        // cells and masks) are kept in small arrays, updated at each of
        // this call's own narrowings, so the steps below read no cell twice.
        let mut open = Open::default();
        let mut fixed = 0u16;
        for (i, &c) in self.cells.iter().enumerate() {
            let m = d.get(c);
            if m & (m - 1) == 0 {
                fixed |= m;
            } else {
                open.push(i, c, m);
            }
        }
        let mut open_values = 0u16;
        for &m in open.masks() {
            open_values |= m;
        }
        if count(fixed) as usize + open.len < self.cells.len() {
            return Err(Contradiction); // two cells fixed to one digit
        }
        let fixed_sum = digit_sum(fixed as u32) as usize;
        let Some(rest) = (self.sum as usize)
            .checked_sub(fixed_sum)
            .filter(|&r| r <= self.max)
        else {
            return Err(Contradiction);
        };
        if open.len == 0 {
            return if rest == 0 {
                Ok(())
            } else {
                Err(Contradiction)
            };
        }
        let open_values = open_values & !fixed;
        let (mut possible, mut required) = (0u16, open_values);
        let combos = &self.table[open.len * (self.max + 1) + rest];
        if self.complement.is_empty() {
            for &combo in combos {
                if combo & !open_values == 0 {
                    possible |= combo;
                    required &= combo;
                }
            }
        } else {
            // The rest of the house holds the digits the cage does not: a
            // combination stands only if the rest can still hold its
            // complement, and the rest keeps only such complements.
            let outside = self.complement.iter().fold(0, |a, &c| a | d.get(c));
            let mut kept = 0u16;
            for &combo in combos {
                let others = self.all & !(combo | fixed);
                if combo & !open_values == 0 && others & !outside == 0 {
                    possible |= combo;
                    required &= combo;
                    kept |= others;
                }
            }
            if possible != 0 && kept != outside {
                for &c in &self.complement {
                    d.restrict(c, kept)?;
                }
            }
        }
        if possible == 0 {
            return Err(Contradiction);
        }
        for j in 0..open.len {
            open.restrict(d, j, possible)?;
        }
        if open.len <= 3 {
            self.few_open(d, &mut open, fixed, rest as i32)?;
        } else {
            self.bounds(d, &mut open, rest as i32)?;
        }
        // A digit every combination needs: placed if one cell can take it,
        // else removed from the outside cells that see all its holders.
        // (Only cells open at the start can hold it: `required` has no
        // digit of a cell placed then.)
        let (at, cells, masks) = open.parts();
        self.seen_by.exclude_open(d, at, cells, masks, required)
    }

    /// Each open cell's range from the others' bounds: with the other open
    /// cells at their smallest (largest) candidates, a cell can be at most
    /// (at least) what the rest of the sum leaves. The combinations read
    /// the union of the open cells' digits and miss this: 18 in four cells
    /// whose others are at least 3, 2 and 6 leaves at most 7 for the
    /// fourth, though 8 is in a combination (the Interactive Sudoku
    /// Solver's sum handler bounds every sum so before its combinations).
    /// `rest`: the sum less the digits placed when the call began (`open`
    /// holds the cells open then, some placed since by the combinations).
    fn bounds(&self, d: &mut Dom<'_>, open: &mut Open, rest: i32) -> Result<(), Contradiction> {
        let (mut lo, mut hi, mut rest) = (0i32, 0i32, rest);
        for &m in open.masks() {
            if m & (m - 1) != 0 {
                lo += min_digit(m) as i32;
                hi += max_digit(m) as i32;
            } else {
                rest -= min_digit(m) as i32;
            }
        }
        if lo > rest || hi < rest {
            return Err(Contradiction);
        }
        let (slack_lo, slack_hi) = (rest - lo, hi - rest);
        for j in 0..open.len {
            let m = open.mask(j);
            if m & (m - 1) != 0 {
                let (a, b) = (min_digit(m) as i32, max_digit(m) as i32);
                // at most a + (rest - lo), at least b - (hi - rest)
                if b - a > slack_lo || b - a > slack_hi {
                    open.restrict(d, j, range_mask(b - slack_hi, a + slack_lo))?;
                }
            }
        }
        Ok(())
    }

    /// Two or three open cells: keep exactly the digits that have partners
    /// (distinct, not among the placed digits) in the other open cells
    /// making up the rest of the sum. The combinations alone keep a digit
    /// whose partners sit in the wrong cells. Two cells' partners are found
    /// for all digits at once ([`pair_sums`]); three cells try each digit
    /// of the first and pair the other two so. `fixed` and `rest`: the
    /// digits placed when the call began and the sum less them.
    fn few_open(
        &self,
        d: &mut Dom<'_>,
        open: &mut Open,
        fixed: u16,
        rest: i32,
    ) -> Result<(), Contradiction> {
        let (mut place, mut k, mut fixed, mut rest) = ([0usize; 3], 0, fixed, rest);
        for j in 0..open.len {
            let m = open.mask(j);
            if m & (m - 1) != 0 {
                place[k] = j;
                k += 1;
            } else {
                fixed |= m;
                rest -= min_digit(m) as i32;
            }
        }
        if k < 2 {
            // Placing the digits left one cell or none open: the next call
            // (woken by that change) checks the rest.
            return Ok(());
        }
        let mut support = [0u16; 3];
        let (a, b) = (open.mask(place[0]) & !fixed, open.mask(place[1]) & !fixed);
        if k == 2 {
            (support[0], support[1]) = pair_sums(a, b, rest);
        } else {
            let c = open.mask(place[2]) & !fixed;
            for x in digits(a) {
                let bit = 1 << (x - 1);
                let (ys, zs) = pair_sums(b & !bit, c & !bit, rest - x as i32);
                if ys != 0 {
                    support[0] |= bit;
                    support[1] |= ys;
                    support[2] |= zs;
                }
            }
        }
        for i in 0..k {
            open.restrict(d, place[i], support[i])?;
        }
        Ok(())
    }

    pub(crate) fn holds(&self, v: &[u8]) -> bool {
        self.cells
            .iter()
            .map(|&c| v[c as usize] as u32)
            .sum::<u32>()
            == self.sum
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 18 in four cells whose others are at least 6, 2 and 3: the fourth
    /// is at most 7, though 8 is in a combination ({1,3,6,8}) of the open
    /// cells' digits.
    #[test]
    fn open_cells_bound_each_other() {
        let d = |ds: &[u16]| ds.iter().fold(0u16, |m, &x| m | 1 << (x - 1));
        let mut masks = vec![0x1ff; 81];
        masks[0] = d(&[6, 7, 8]);
        masks[1] = d(&[2, 5, 6, 7, 8]);
        masks[2] = d(&[3, 5, 6, 7, 8]);
        masks[3] = d(&[1, 3, 5, 6, 7, 8]);
        let mut cage = CageSum::new(vec![0, 1, 2, 3], 18, 9);
        cage.finish(&vec![Vec::new(); 81], &[]);
        let mut changed = Vec::new();
        Dom::on_slice(&mut masks, &mut changed, |d| cage.propagate(d)).expect("consistent");
        assert_eq!(masks[3], d(&[1, 3, 5, 6, 7]));
        // A solution of the cage (7 + 2 + 3 + 6) is never cut.
        for (c, x) in [(0, 7), (1, 2), (2, 3), (3, 6)] {
            assert_ne!(masks[c] & d(&[x]), 0);
        }
    }

    /// The cage's rule read cell by cell from the grid at every step (the
    /// form before the open cells were kept in arrays): the same narrowings
    /// in the same order.
    fn reference(cage: &CageSum, d: &mut Dom<'_>) -> Result<(), Contradiction> {
        let (mut fixed, mut open_values, mut open) = (0u16, 0u16, 0usize);
        for &c in &cage.cells {
            let m = d.get(c);
            if m & (m - 1) == 0 {
                fixed |= m;
            } else {
                open_values |= m;
                open += 1;
            }
        }
        if count(fixed) as usize + open < cage.cells.len() {
            return Err(Contradiction);
        }
        let fixed_sum = digit_sum(fixed as u32) as usize;
        let Some(rest) = (cage.sum as usize)
            .checked_sub(fixed_sum)
            .filter(|&r| r <= cage.max)
        else {
            return Err(Contradiction);
        };
        if open == 0 {
            return if rest == 0 {
                Ok(())
            } else {
                Err(Contradiction)
            };
        }
        let open_values = open_values & !fixed;
        let (mut possible, mut required) = (0u16, open_values);
        let outside = cage.complement.iter().fold(0, |a, &c| a | d.get(c));
        let mut kept = 0u16;
        for &combo in &cage.table[open * (cage.max + 1) + rest] {
            let others = cage.all & !(combo | fixed);
            let fits = cage.complement.is_empty() || others & !outside == 0;
            if combo & !open_values == 0 && fits {
                possible |= combo;
                required &= combo;
                kept |= others;
            }
        }
        if !cage.complement.is_empty() && possible != 0 && kept != outside {
            for &c in &cage.complement {
                d.restrict(c, kept)?;
            }
        }
        if possible == 0 {
            return Err(Contradiction);
        }
        for &c in &cage.cells {
            let m = d.get(c);
            if m & (m - 1) != 0 {
                d.restrict(c, possible)?;
            }
        }
        // Afresh: the open cells, the placed digits and the rest.
        let (mut cells, mut fixed, mut rest) = (Vec::new(), 0u16, cage.sum as i32);
        for &c in &cage.cells {
            let m = d.get(c);
            if m & (m - 1) != 0 {
                cells.push(c);
            } else {
                fixed |= m;
                rest -= min_digit(m) as i32;
            }
        }
        if open <= 3 && cells.len() >= 2 {
            let dom = |i: usize, d: &Dom<'_>| d.get(cells[i]) & !fixed;
            let mut support = [0u16; 3];
            if cells.len() == 2 {
                (support[0], support[1]) = pair_sums(dom(0, d), dom(1, d), rest);
            } else {
                for x in digits(dom(0, d)) {
                    let bit = 1 << (x - 1);
                    let (ys, zs) = pair_sums(dom(1, d) & !bit, dom(2, d) & !bit, rest - x as i32);
                    if ys != 0 {
                        support[0] |= bit;
                        support[1] |= ys;
                        support[2] |= zs;
                    }
                }
            }
            for (i, &c) in cells.iter().enumerate() {
                d.restrict(c, support[i])?;
            }
        } else if open > 3 {
            let (mut lo, mut hi) = (0i32, 0i32);
            for &c in &cells {
                lo += min_digit(d.get(c)) as i32;
                hi += max_digit(d.get(c)) as i32;
            }
            if lo > rest || hi < rest {
                return Err(Contradiction);
            }
            let (slack_lo, slack_hi) = (rest - lo, hi - rest);
            for &c in &cells {
                let m = d.get(c);
                let (a, b) = (min_digit(m) as i32, max_digit(m) as i32);
                if b - a > slack_lo || b - a > slack_hi {
                    d.restrict(c, range_mask(b - slack_hi, a + slack_lo))?;
                }
            }
        }
        cage.seen_by.exclude(d, &cage.cells, required)
    }

    /// Random cages of 2 to 9 cells in the first row of a 9×9 grid (some
    /// filling part of a box, some with the rest of the row as their
    /// complement), random candidates around a planted row: the cage's
    /// narrowings, their order and its verdict are the reference's.
    #[test]
    fn open_cells_in_arrays_narrow_as_reading_the_grid() {
        let shape = Shape::new(9).expect("9x9");
        let houses = shape.houses();
        let mut peers = vec![Vec::new(); 81];
        for h in &houses {
            for &a in h {
                for &b in h {
                    if a != b && !peers[a as usize].contains(&b) {
                        peers[a as usize].push(b);
                    }
                }
            }
        }
        let mut random = crate::variant::xorshift(0x6a09_e667_f3bc_c909u64);
        let mut next = |m: u64| random() % m;
        let mut seen = [0u32; 3]; // unchanged, narrowed, contradiction
        for round in 0..6000 {
            let mut perm: Vec<u16> = (1..=9).collect();
            for i in (1..9).rev() {
                perm.swap(i, next(i as u64 + 1) as usize);
            }
            // Within box 1 (cells 0, 1, 2, 9, 10, 11, …) or along row 1.
            let len = 2 + next(if round % 2 == 0 { 4 } else { 7 }) as usize;
            let pool: Vec<u16> = if round % 2 == 0 {
                vec![0, 1, 2, 9, 10, 11, 18, 19, 20]
            } else {
                (0..9).collect()
            };
            let mut cells = pool.clone();
            for i in (1..cells.len()).rev() {
                cells.swap(i, next(i as u64 + 1) as usize);
            }
            cells.truncate(len);
            let mut grid = [0u16; 81];
            for r in 0..9u16 {
                for c in 0..9u16 {
                    grid[(r * 9 + c) as usize] = perm[((c + 3 * (r % 3) + r / 3) % 9) as usize];
                }
            }
            let sum = cells.iter().map(|&c| grid[c as usize] as u32).sum();
            let mut cage = CageSum::new(cells.clone(), sum, 9);
            cage.finish(&peers, &houses);
            let mut masks = vec![0x1ffu16; 81];
            let dense = next(3);
            for (c, m) in masks.iter_mut().enumerate() {
                let planted = 1u16 << (grid[c] - 1);
                let mut noise = next(512) as u16;
                if dense == 0 {
                    noise &= next(512) as u16;
                }
                *m = planted | noise;
                if next(5) == 0 {
                    *m = planted; // placed
                }
            }
            // Now and then a wrong digit somewhere, for contradictions.
            if next(4) == 0 {
                let c = cells[next(len as u64) as usize] as usize;
                masks[c] = 1 << next(9);
            }
            let mut mine = masks.clone();
            let (mut pushed, mut pushed_ref) = (Vec::new(), Vec::new());
            let got = Dom::on_slice(&mut mine, &mut pushed, |d| cage.propagate(d));
            let want = Dom::on_slice(&mut masks, &mut pushed_ref, |d| reference(&cage, d));
            assert_eq!(got.is_ok(), want.is_ok(), "{cells:?}");
            assert_eq!(mine, masks, "{cells:?} {sum}");
            assert_eq!(pushed, pushed_ref, "{cells:?} {sum}");
            seen[if got.is_err() {
                2
            } else {
                (!pushed.is_empty()) as usize
            }] += 1;
        }
        assert!(seen.iter().all(|&k| k > 300), "{seen:?}");
    }

    #[test]
    fn combinations_of_a_cage() {
        let t = table(9);
        let at = |k: usize, s: usize| &t[k * 46 + s];
        assert_eq!(at(2, 17), &vec![0b1_1000_0000]);
        assert_eq!(at(3, 10).len(), 4);
        assert_eq!(at(9, 45).len(), 1);
        assert!(at(2, 18).is_empty());
    }
}
