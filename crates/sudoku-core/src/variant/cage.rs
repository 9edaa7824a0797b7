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
//! combination stays possible while it contains every digit already placed
//! in the cage, every cell can take one of its digits, and each of its digits
//! has a cell that can take it. Each cell keeps the digits of the possible
//! combinations; a digit every possible combination needs that only one cell
//! can take goes there.

use super::iss;
use super::solver::{Contradiction, Dom, Model, digits};
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
            m.props.push(super::solver::Prop::Cage(CageSum {
                cells,
                sum,
                combos,
            }));
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
    pub(crate) fn propagate(&self, d: &mut Dom<'_>) -> Result<(), Contradiction> {
        let mut placed = 0u16;
        let mut any = 0u16;
        for &c in &self.cells {
            let m = d.get(c);
            if m & (m - 1) == 0 {
                placed |= m;
            }
            any |= m;
        }
        let (mut union, mut common) = (0u16, u16::MAX);
        'combo: for &combo in &self.combos {
            if combo & placed != placed || any & combo != combo {
                continue;
            }
            for &c in &self.cells {
                if d.get(c) & combo == 0 {
                    continue 'combo;
                }
            }
            union |= combo;
            common &= combo;
        }
        if union == 0 {
            return Err(Contradiction);
        }
        for &c in &self.cells {
            d.restrict(c, union)?;
        }
        // A needed digit with one place left goes there.
        for x in digits(common & !placed) {
            let bit = 1u16 << (x - 1);
            let mut only = None;
            for &c in &self.cells {
                if d.get(c) & bit != 0 {
                    if only.is_some() {
                        only = None;
                        break;
                    }
                    only = Some(c);
                }
            }
            if let Some(c) = only {
                d.restrict(c, bit)?;
            }
        }
        Ok(())
    }

    pub(crate) fn holds(&self, v: &[u8]) -> bool {
        self.cells.iter().map(|&c| v[c as usize] as u32).sum::<u32>() == self.sum
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
