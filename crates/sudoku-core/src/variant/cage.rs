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
        let (mut fixed, mut open_values, mut open) = (0u16, 0u16, 0usize);
        for &c in &self.cells {
            let m = d.get(c);
            if m & (m - 1) == 0 {
                fixed |= m;
            } else {
                open_values |= m;
                open += 1;
            }
        }
        if count(fixed) as usize + open < self.cells.len() {
            return Err(Contradiction); // two cells fixed to one digit
        }
        let fixed_sum = digit_sum(fixed as u32) as usize;
        let Some(rest) = (self.sum as usize)
            .checked_sub(fixed_sum)
            .filter(|&r| r <= self.max)
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
        let combos = &self.table[open * (self.max + 1) + rest];
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
        for &c in &self.cells {
            let m = d.get(c);
            if m & (m - 1) != 0 {
                d.restrict(c, possible)?;
            }
        }
        if open <= 3 {
            self.few_open(d)?;
        } else {
            self.bounds(d)?;
        }
        // A digit every combination needs: placed if one cell can take it,
        // else removed from the outside cells that see all its holders.
        self.seen_by.exclude(d, &self.cells, required)
    }

    /// Each open cell's range from the others' bounds: with the other open
    /// cells at their smallest (largest) candidates, a cell can be at most
    /// (at least) what the rest of the sum leaves. The combinations read
    /// the union of the open cells' digits and miss this: 18 in four cells
    /// whose others are at least 3, 2 and 6 leaves at most 7 for the
    /// fourth, though 8 is in a combination (the Interactive Sudoku
    /// Solver's sum handler bounds every sum so before its combinations).
    fn bounds(&self, d: &mut Dom<'_>) -> Result<(), Contradiction> {
        // Read afresh: the combinations may have placed more digits.
        let (mut lo, mut hi, mut rest) = (0i32, 0i32, self.sum as i32);
        for &c in &self.cells {
            let m = d.get(c);
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
        for &c in &self.cells {
            let m = d.get(c);
            if m & (m - 1) != 0 {
                let (a, b) = (min_digit(m) as i32, max_digit(m) as i32);
                // at most a + (rest - lo), at least b - (hi - rest)
                if b - a > slack_lo || b - a > slack_hi {
                    d.restrict(c, range_mask(b - slack_hi, a + slack_lo))?;
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
    /// of the first and pair the other two so.
    fn few_open(&self, d: &mut Dom<'_>) -> Result<(), Contradiction> {
        let (mut cells, mut k, mut fixed, mut rest) = ([0u16; 3], 0, 0u16, self.sum as i32);
        for &c in &self.cells {
            let m = d.get(c);
            if m & (m - 1) != 0 {
                if k == 3 {
                    return Ok(());
                }
                cells[k] = c;
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
        let dom = |i: usize, d: &Dom<'_>| d.get(cells[i]) & !fixed;
        let mut support = [0u16; 3];
        let (a, b) = (dom(0, d), dom(1, d));
        if k == 2 {
            (support[0], support[1]) = pair_sums(a, b, rest);
        } else {
            let c = dom(2, d);
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
            d.restrict(cells[i], support[i])?;
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
