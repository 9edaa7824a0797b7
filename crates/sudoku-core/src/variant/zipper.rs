//! Zipper lines.
//!
//! **Rule.** Cells the same distance from the middle of the line have the
//! same sum; on a line of odd length the middle cell is that sum
//! (`.Zipper~<cells…>`).
//!
//! **Propagation.** The possible sums are those every pair can make (and the
//! middle cell can hold); each cell keeps the digits that complete one of
//! them with its partner, and the middle cell the possible sums.

use super::solver::{Contradiction, Dom, Model, Prop, digits};
use super::{Cells, Shape};

pub(crate) fn lower(line: &Cells, shape: Shape, m: &mut Model) -> Result<(), String> {
    let idx: Vec<u16> = line.cells.iter().map(|&c| shape.index(c) as u16).collect();
    let len = idx.len();
    let pairs: Vec<(u16, u16)> = (0..len / 2).map(|i| (idx[i], idx[len - 1 - i])).collect();
    if let Some(&(a, _)) = pairs.iter().find(|(a, b)| a == b) {
        return Err(format!("{} is paired with itself", shape.cell(a as usize)));
    }
    let middle = (len % 2 == 1).then(|| idx[len / 2]);
    m.props.push(Prop::Zipper(ZipperSums { pairs, middle }));
    Ok(())
}

/// The zipper propagator (see the module docs).
#[derive(Clone, Debug)]
pub(crate) struct ZipperSums {
    pairs: Vec<(u16, u16)>,
    middle: Option<u16>,
}

/// The sums x + y of digits x from `a` and y from `b`, as bits (bit s for
/// sum s, up to 32).
fn sums(a: u16, b: u16) -> u64 {
    let mut out = 0u64;
    for x in digits(a) {
        out |= (b as u64) << (x + 1);
    }
    out
}

impl ZipperSums {
    pub(crate) fn cells(&self) -> Vec<u16> {
        let mut v: Vec<u16> = self.pairs.iter().flat_map(|&(a, b)| [a, b]).collect();
        v.extend(self.middle);
        v
    }

    pub(crate) fn propagate(&self, d: &mut Dom<'_>) -> Result<(), Contradiction> {
        let mut possible = match self.middle {
            Some(c) => (d.get(c) as u64) << 1,
            None => u64::MAX,
        };
        for &(a, b) in &self.pairs {
            possible &= sums(d.get(a), d.get(b));
        }
        if possible == 0 {
            return Err(Contradiction);
        }
        if let Some(c) = self.middle {
            d.restrict(c, (possible >> 1) as u16)?;
        }
        for &(a, b) in &self.pairs {
            let (ma, mb) = (d.get(a), d.get(b));
            let keep = |mine: u16, other: u16| {
                let mut k = 0u16;
                for x in digits(mine) {
                    // some y of the other cell with x + y possible
                    if ((other as u64) << (x + 1)) & possible != 0 {
                        k |= 1 << (x - 1);
                    }
                }
                k
            };
            d.restrict(a, keep(ma, mb))?;
            d.restrict(b, keep(mb, ma))?;
        }
        Ok(())
    }

    pub(crate) fn holds(&self, v: &[u8]) -> bool {
        let sum = |&(a, b): &(u16, u16)| v[a as usize] as u32 + v[b as usize] as u32;
        let target = match (self.middle, self.pairs.first()) {
            (Some(c), _) => v[c as usize] as u32,
            (None, Some(p)) => sum(p),
            (None, None) => return true,
        };
        self.pairs.iter().all(|p| sum(p) == target)
    }
}
