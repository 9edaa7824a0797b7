//! Required digits: a digit that a group of cells must hold somewhere.
//!
//! **Rule.** When every way a constraint can still be kept puts digit x in
//! one of its cells (a killer cage whose every remaining combination has x,
//! a renban line whose every possible run has x), then x goes in the only
//! cell of the group that can take it, if there is one; and otherwise x
//! leaves every cell outside the group that sees all the group's cells that
//! can take it, since one of those holds x. (The Interactive Sudoku
//! Solver's "required value exclusions", used by its sum and pairwise
//! handlers.)
//!
//! [`SeenBy`] keeps, per cell of the group, the outside cells that see it as
//! a bit set over the grid (up to 256 cells), so the cells that see all the
//! holders are an intersection of a few words and the per-node work needs
//! no allocation.

use super::solver::{Contradiction, Dom};

/// Per cell of a group, the cells outside the group that must differ from
/// it (bit sets over the grid).
#[derive(Clone, Debug, Default)]
pub(crate) struct SeenBy {
    sets: Vec<[u64; 4]>,
}

impl SeenBy {
    /// The outside peers of each of `cells` (`peers`: per cell, the cells it
    /// must differ from).
    pub(crate) fn new(cells: &[u16], peers: &[Vec<u16>]) -> SeenBy {
        let sets = cells
            .iter()
            .map(|&c| {
                let mut set = [0u64; 4];
                for &p in &peers[c as usize] {
                    if !cells.contains(&p) {
                        set[p as usize >> 6] |= 1 << (p & 63);
                    }
                }
                set
            })
            .collect();
        SeenBy { sets }
    }

    /// Two cells of the group (by their places `i` and `j` in it) that hold
    /// the two digits of `pair` between them: those digits leave every
    /// outside cell that sees both cells.
    pub(crate) fn exclude_pair(
        &self,
        d: &mut Dom<'_>,
        i: usize,
        j: usize,
        pair: u16,
    ) -> Result<(), Contradiction> {
        let (Some(a), Some(b)) = (self.sets.get(i), self.sets.get(j)) else {
            return Ok(());
        };
        for (w, (&x, &y)) in a.iter().zip(b).enumerate() {
            let mut word = x & y;
            while word != 0 {
                let p = (w * 64 + word.trailing_zeros() as usize) as u16;
                word &= word - 1;
                d.restrict(p, !pair)?;
            }
        }
        Ok(())
    }

    /// Apply the rule of the module docs to each digit of `required` over
    /// the group's `cells` (in the order [`SeenBy::new`] was given them).
    pub(crate) fn exclude(
        &self,
        d: &mut Dom<'_>,
        cells: &[u16],
        required: u16,
    ) -> Result<(), Contradiction> {
        let mut left = required;
        while left != 0 {
            let bit = left & left.wrapping_neg();
            left ^= bit;
            let (mut holders, mut only) = (0, 0);
            let mut seen = [u64::MAX; 4];
            for (i, &c) in cells.iter().enumerate() {
                if d.get(c) & bit != 0 {
                    holders += 1;
                    only = c;
                    if let Some(s) = self.sets.get(i) {
                        for (a, b) in seen.iter_mut().zip(s) {
                            *a &= b;
                        }
                    }
                }
            }
            match holders {
                0 => return Err(Contradiction),
                1 => d.restrict(only, bit)?,
                _ if !self.sets.is_empty() => {
                    for (w, &word) in seen.iter().enumerate() {
                        let mut word = word;
                        while word != 0 {
                            let p = (w * 64 + word.trailing_zeros() as usize) as u16;
                            word &= word - 1;
                            d.restrict(p, !bit)?;
                        }
                    }
                }
                _ => {}
            }
        }
        Ok(())
    }

    /// [`SeenBy::exclude`] over the group's open cells only, given as their
    /// places in the group (`at`), cells and current masks (kept up to
    /// date here): a required digit is in no placed cell of the group.
    pub(crate) fn exclude_open(
        &self,
        d: &mut Dom<'_>,
        at: &[u8],
        cells: &[u16],
        masks: &mut [u16],
        required: u16,
    ) -> Result<(), Contradiction> {
        let mut left = required;
        while left != 0 {
            let bit = left & left.wrapping_neg();
            left ^= bit;
            let (mut holders, mut only) = (0, 0);
            let mut seen = [u64::MAX; 4];
            for (j, &m) in masks.iter().enumerate() {
                if m & bit != 0 {
                    holders += 1;
                    only = j;
                    if let Some(s) = self.sets.get(at[j] as usize) {
                        for (a, b) in seen.iter_mut().zip(s) {
                            *a &= b;
                        }
                    }
                }
            }
            match holders {
                0 => return Err(Contradiction),
                1 => {
                    masks[only] &= bit;
                    d.restrict(cells[only], bit)?
                }
                _ if !self.sets.is_empty() => {
                    for (w, &word) in seen.iter().enumerate() {
                        let mut word = word;
                        while word != 0 {
                            let p = (w * 64 + word.trailing_zeros() as usize) as u16;
                            word &= word - 1;
                            d.restrict(p, !bit)?;
                        }
                    }
                }
                _ => {}
            }
        }
        Ok(())
    }
}
