//! Killer cages.
//!
//! **Rule.** The digits in a cage are all different and, when the cage has a
//! sum, add up to it. A cage without a sum (`.Cage~~R1C1~R1C2`, or sum 0)
//! only forbids repeats. Killer puzzles as setters publish them have cages
//! and no givens.
//!
//! **Propagation.** The sets of distinct digits that make the sum with as
//! many digits as the cage has cells ("combinations", 17 in 2 cells: {8,9};
//! 10 in 3: {1,2,7}, {1,3,6}, {1,4,5}, {2,3,5}) are listed once. A
//! combination stays possible while its digits can be handed out to the
//! cells, one each, every cell getting one of its candidates (a perfect
//! matching, found by sweeping the cells forward and backward over the sets
//! of digits used). Each cell keeps exactly the digits it gets in some such
//! hand-out: the strongest pruning a cage alone allows. Cages over ten
//! cells keep the digits of every combination that passes a quicker test.

use super::iss;
use super::solver::{Contradiction, Dom, Model, Prop, digits};
use super::{Cell, Constraint, Shape};

/// A killer cage.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Cage {
    /// The total, if the cage has one.
    pub sum: Option<u32>,
    /// The cage's cells.
    pub cells: Vec<Cell>,
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
    /// Cages up to this size get the exact check (see [`exact_support`]).
    const MAX_CELLS: usize = 10;

    /// A cage that cannot hold at all: too many cells, a repeated cell, or a
    /// sum no set of distinct digits of that size makes.
    fn check(&self, shape: Shape) -> Result<(), String> {
        let n = shape.side();
        if self.cells.len() > n {
            return Err(format!("{} cells but only {n} digits", self.cells.len()));
        }
        let mut seen = self.cells.clone();
        seen.sort();
        if let Some(w) = seen.windows(2).find(|w| w[0] == w[1]) {
            return Err(format!("cell {} twice", w[0]));
        }
        if let Some(sum) = self.sum {
            if combinations(n, self.cells.len(), sum).is_empty() {
                let k = self.cells.len();
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
        m.all_different(&cells);
        if let Some(sum) = self.sum {
            let combos = combinations(shape.side(), cells.len(), sum);
            m.props.push(Prop::Cage(CageSum { cells, sum, combos }));
        }
        Ok(())
    }
}

/// Every set of `k` distinct digits from 1..=n with the given sum, as masks.
pub(crate) fn combinations(n: usize, k: usize, sum: u32) -> Vec<u16> {
    (0u32..1 << n)
        .filter(|m| m.count_ones() as usize == k)
        .filter(|&m| digits(m as u16).map(u32::from).sum::<u32>() == sum)
        .map(|m| m as u16)
        .collect()
}

/// The cage-sum propagator (see the module docs).
#[derive(Clone, Debug)]
pub(crate) struct CageSum {
    pub(crate) cells: Vec<u16>,
    sum: u32,
    combos: Vec<u16>,
}

impl CageSum {
    /// Cages up to this many cells get the exact (matching) check.
    const EXACT: usize = Cage::MAX_CELLS;

    pub(crate) fn propagate(&self, d: &mut Dom<'_>) -> Result<(), Contradiction> {
        let k = self.cells.len();
        let mut doms = [0u16; 16];
        let mut placed = 0u16;
        let mut any = 0u16;
        for (slot, &c) in doms.iter_mut().zip(&self.cells) {
            let m = d.get(c);
            *slot = m;
            if m & (m - 1) == 0 {
                placed |= m;
            }
            any |= m;
        }
        let mut support = [0u16; 16];
        let mut found = false;
        'combo: for &combo in &self.combos {
            if combo & placed != placed || any & combo != combo {
                continue;
            }
            for &m in &doms[..k] {
                if m & combo == 0 {
                    continue 'combo;
                }
            }
            if k <= Self::EXACT {
                found |= exact_support(combo, &doms[..k], &mut support);
            } else {
                found = true;
                for s in &mut support[..k] {
                    *s |= combo;
                }
            }
        }
        if !found {
            return Err(Contradiction);
        }
        for (i, &c) in self.cells.iter().enumerate() {
            d.restrict(c, support[i])?;
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

/// Cells with their coefficients in a sum.
type Terms = Vec<(u16, i32)>;

/// A bit set over the subsets of a combination's k ≤ 10 places.
type Subsets = [u64; 16];

fn has(set: &Subsets, s: usize) -> bool {
    set[s >> 6] & (1 << (s & 63)) != 0
}

fn insert(set: &mut Subsets, s: usize) {
    set[s >> 6] |= 1 << (s & 63);
}

/// The members of a subset set, ascending.
fn members(set: &Subsets) -> impl Iterator<Item = usize> + '_ {
    set.iter().enumerate().flat_map(|(w, &word)| {
        let mut word = word;
        std::iter::from_fn(move || {
            (word != 0).then(|| {
                let b = word.trailing_zeros() as usize;
                word &= word - 1;
                w * 64 + b
            })
        })
    })
}

/// The digits each cell can take in some assignment of the combination's
/// digits to the cells, one each (a perfect matching), ORed into `support`;
/// `false` if there is none. Cells are taken in order: the sets of places
/// the first i cells can use (forward) and the last cells can fill
/// (backward) meet at each cell.
fn exact_support(combo: u16, doms: &[u16], support: &mut [u16; 16]) -> bool {
    let k = doms.len();
    let mut digit_of = [0u16; 16];
    for (p, x) in digits(combo).enumerate() {
        digit_of[p] = 1 << (x - 1);
    }
    // Each cell's candidates as places of the combination.
    let mut places = [0u16; 16];
    for (i, &m) in doms.iter().enumerate() {
        for (p, &bit) in digit_of[..k].iter().enumerate() {
            if m & bit != 0 {
                places[i] |= 1 << p;
            }
        }
    }
    let full = (1usize << k) - 1;
    let mut fwd = [[0u64; 16]; Cage::MAX_CELLS + 1];
    insert(&mut fwd[0], 0);
    for i in 0..k {
        let (done, next) = fwd.split_at_mut(i + 1);
        for u in members(&done[i]) {
            let mut free = places[i] & !(u as u16);
            while free != 0 {
                let p = free.trailing_zeros() as usize;
                free &= free - 1;
                insert(&mut next[0], u | 1 << p);
            }
        }
    }
    if !has(&fwd[k], full) {
        return false;
    }
    let mut back = [[0u64; 16]; Cage::MAX_CELLS + 1];
    insert(&mut back[k], 0);
    for i in (0..k).rev() {
        let (head, tail) = back.split_at_mut(i + 1);
        for r in members(&tail[0]) {
            let mut free = places[i] & !(r as u16);
            while free != 0 {
                let p = free.trailing_zeros() as usize;
                free &= free - 1;
                insert(&mut head[i], r | 1 << p);
            }
        }
    }
    for i in 0..k {
        for u in members(&fwd[i]) {
            let mut free = places[i] & !(u as u16);
            while free != 0 {
                let p = free.trailing_zeros() as usize;
                free &= free - 1;
                if has(&back[i + 1], full ^ u ^ (1 << p)) {
                    support[i] |= digit_of[p];
                }
            }
        }
    }
    true
}

/// Derived sums, the "45 rule" of killer solvers: a house holds each digit
/// once, so its digits sum to n(n+1)/2 (45 on 9×9), and k whole rows or
/// columns to k times that. Where the killer cages inside such a region
/// leave a few cells uncovered (innies), those cells make the rest of the
/// total; where the cages that reach into the region cover it and stick out
/// (outies), the cells outside make the excess; mixed, innies minus outies
/// make the difference. Each derived sum with at most `LIMIT` cells becomes
/// one more propagator: it allows nothing the cages do not, it only finds
/// it sooner. Cages without a sum, or overlapping cages, take no part.
pub(crate) fn innies_outies(cages: &[(Vec<u16>, u32)], shape: Shape, m: &mut Model) {
    const LIMIT: usize = 6;
    let n = shape.side();
    let cells = shape.cells();
    let total = (n * (n + 1) / 2) as i32;
    // Which cage each cell is in; overlapping cages make the rule unsafe.
    let mut cage_of = vec![usize::MAX; cells];
    for (k, (cs, _)) in cages.iter().enumerate() {
        for &c in cs {
            if cage_of[c as usize] != usize::MAX {
                return;
            }
            cage_of[c as usize] = k;
        }
    }
    let mut regions: Vec<(Vec<u16>, i32, bool)> =
        m.houses.iter().map(|h| (h.clone(), total, true)).collect();
    for k in 2..n {
        for start in 0..=n - k {
            let rows = (start * n..(start + k) * n).map(|c| c as u16).collect();
            let cols = (0..cells)
                .filter(|c| (start..start + k).contains(&(c % n)))
                .map(|c| c as u16)
                .collect();
            regions.push((rows, k as i32 * total, false));
            regions.push((cols, k as i32 * total, false));
        }
    }
    let mut seen: Vec<Terms> = Vec::new();
    let mut in_region = vec![false; cells];
    for (region, target, is_house) in regions {
        for &c in &region {
            in_region[c as usize] = true;
        }
        let mut touching: Vec<usize> = region
            .iter()
            .map(|&c| cage_of[c as usize])
            .filter(|&k| k != usize::MAX)
            .collect();
        touching.sort_unstable();
        touching.dedup();
        let inside = |k: &usize| cages[*k].0.iter().all(|&c| in_region[c as usize]);
        let (whole, partial): (Vec<usize>, Vec<usize>) = touching.into_iter().partition(inside);
        // Innies: the cells no whole cage covers.
        let innies: Vec<u16> = region
            .iter()
            .copied()
            .filter(|&c| cage_of[c as usize] == usize::MAX || !whole.contains(&cage_of[c as usize]))
            .collect();
        let inner_sum: i32 = whole.iter().map(|&k| cages[k].1 as i32).sum();
        // (terms, total, whether the cells are all different)
        let mut derived: Vec<(Terms, i32, bool)> = Vec::new();
        if !innies.is_empty() && innies.len() <= LIMIT.max(if is_house { n - 1 } else { 0 }) {
            let terms = innies.iter().map(|&c| (c, 1)).collect();
            derived.push((terms, target - inner_sum, is_house));
        }
        // Innies and outies: the partial cages too.
        if !partial.is_empty() {
            let free: Vec<u16> = innies
                .iter()
                .copied()
                .filter(|&c| cage_of[c as usize] == usize::MAX)
                .collect();
            let outies: Vec<u16> = partial
                .iter()
                .flat_map(|&k| cages[k].0.iter().copied())
                .filter(|&c| !in_region[c as usize])
                .collect();
            if free.len() + outies.len() <= LIMIT {
                let all_sum: i32 =
                    inner_sum + partial.iter().map(|&k| cages[k].1 as i32).sum::<i32>();
                let mut terms: Vec<(u16, i32)> = free.iter().map(|&c| (c, 1)).collect();
                terms.extend(outies.iter().map(|&c| (c, -1)));
                derived.push((terms, target - all_sum, false));
            }
        }
        for (terms, rhs, distinct) in derived {
            let mut key = terms.clone();
            key.sort_unstable();
            if seen.contains(&key) {
                continue;
            }
            seen.push(key);
            let cs: Vec<u16> = terms.iter().map(|t| t.0).collect();
            if distinct && rhs > 0 && terms.iter().all(|t| t.1 == 1) {
                let combos = combinations(n, cs.len(), rhs as u32);
                m.props.push(Prop::Cage(CageSum {
                    cells: cs,
                    sum: rhs as u32,
                    combos,
                }));
            } else {
                m.props
                    .push(Prop::Linear(super::prim::Linear { terms, rhs }));
            }
        }
        for &c in &region {
            in_region[c as usize] = false;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn combinations_of_a_cage() {
        assert_eq!(combinations(9, 2, 17), vec![0b1_1000_0000]);
        assert_eq!(combinations(9, 3, 10).len(), 4);
        assert_eq!(combinations(9, 9, 45).len(), 1);
        assert!(combinations(9, 2, 18).is_empty());
    }
}
