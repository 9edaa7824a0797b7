//! Renban lines.
//!
//! **Rule.** The digits on the line are all different and form a run of
//! consecutive digits in any order (`.Renban~…`: three cells might hold 4, 6,
//! 5).
//!
//! **Propagation.** A run of the line's length starting at s stays possible
//! while every cell can take one of its digits and each of its digits has a
//! cell that can take it; cells keep the digits of possible runs, and a
//! digit every possible run contains is required (see
//! `variant::required`): it goes in the one cell that can take it,
//! or leaves the outside cells that see all the line's cells that can.

use super::Shape;
use super::required::SeenBy;
use super::solver::{Contradiction, Dom, Model, Prop};

pub(crate) fn lower(cells: &[u16], shape: Shape, m: &mut Model) -> Result<(), String> {
    let n = shape.side();
    if cells.len() > n {
        return Err(format!(
            "{} cells cannot hold different digits of {n}",
            cells.len()
        ));
    }
    m.all_different(cells);
    let k = cells.len();
    let runs = (0..=n - k)
        .map(|s| (((1u32 << k) - 1) << s) as u16)
        .collect();
    m.props.push(Prop::Renban(RenbanSet {
        cells: cells.to_vec(),
        runs,
        seen_by: SeenBy::default(),
    }));
    Ok(())
}

/// The renban propagator (see the module docs).
#[derive(Clone, Debug)]
pub(crate) struct RenbanSet {
    pub(crate) cells: Vec<u16>,
    runs: Vec<u16>,
    /// The outside cells that see each line cell (once the peers are known).
    seen_by: SeenBy,
}

impl RenbanSet {
    pub(crate) fn propagate(&self, d: &mut Dom<'_>) -> Result<(), Contradiction> {
        let any = self.cells.iter().fold(0u16, |a, &c| a | d.get(c));
        let (mut union, mut common) = (0u16, u16::MAX);
        'run: for &run in &self.runs {
            if any & run != run {
                continue;
            }
            for &c in &self.cells {
                if d.get(c) & run == 0 {
                    continue 'run;
                }
            }
            union |= run;
            common &= run;
        }
        if union == 0 {
            return Err(Contradiction);
        }
        for &c in &self.cells {
            d.restrict(c, union)?;
        }
        self.seen_by.exclude(d, &self.cells, common)
    }

    /// Note which outside cells see each line cell.
    pub(crate) fn finish(&mut self, peers: &[Vec<u16>]) {
        self.seen_by = SeenBy::new(&self.cells, peers);
    }

    pub(crate) fn holds(&self, v: &[u8]) -> bool {
        let vals = self.cells.iter().map(|&c| v[c as usize]);
        let (lo, hi) = (vals.clone().min().unwrap_or(0), vals.max().unwrap_or(0));
        (hi - lo) as usize + 1 == self.cells.len()
    }
}
