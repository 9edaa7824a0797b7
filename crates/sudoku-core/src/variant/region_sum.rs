//! Region-sum lines.
//!
//! **Rule.** The line is cut where it crosses from one box into another
//! (jigsaw regions on a jigsaw grid); the digits of every piece add up to the
//! same number. A line that enters a box twice makes two pieces there
//! (`.RegionSumLine~…`).
//!
//! **Propagation.** Each piece's sum lies between the sum of its cells'
//! smallest and of their largest candidates; the common sum lies in every
//! piece's range, and each cell keeps the digits its piece can complete to
//! a sum in that range.

use super::solver::{Contradiction, Dom, Model, Prop, max_digit, min_digit, range_mask};
use super::{CellName, Shape};

pub(crate) fn lower(cells: &[CellName], shape: Shape, m: &mut Model) -> Result<(), String> {
    let mut segments: Vec<Vec<u16>> = Vec::new();
    let mut last = None;
    for &c in cells {
        let i = shape.index(c);
        let region = m.region[i];
        if last != Some(region) {
            segments.push(Vec::new());
            last = Some(region);
        }
        segments.last_mut().expect("a piece").push(i as u16);
    }
    if segments.len() > 1 {
        m.props.push(Prop::EqualSums(EqualSums { segments }));
    }
    Ok(())
}

/// The equal-sums propagator (see the module docs).
#[derive(Clone, Debug)]
pub(crate) struct EqualSums {
    pub(crate) segments: Vec<Vec<u16>>,
}

impl EqualSums {
    fn range(d: &Dom<'_>, seg: &[u16]) -> (i32, i32) {
        seg.iter().fold((0, 0), |(lo, hi), &c| {
            let m = d.get(c);
            (lo + min_digit(m) as i32, hi + max_digit(m) as i32)
        })
    }

    pub(crate) fn propagate(&self, d: &mut Dom<'_>) -> Result<(), Contradiction> {
        let (mut lo, mut hi) = (i32::MIN, i32::MAX);
        for seg in &self.segments {
            let (a, b) = Self::range(d, seg);
            lo = lo.max(a);
            hi = hi.min(b);
        }
        if lo > hi {
            return Err(Contradiction);
        }
        for seg in &self.segments {
            let (a, b) = Self::range(d, seg);
            for &c in seg {
                let m = d.get(c);
                let (x, y) = (min_digit(m) as i32, max_digit(m) as i32);
                // The others make a - x ..= b - y; the piece lo ..= hi.
                d.restrict(c, range_mask(lo - (b - y), hi - (a - x)))?;
            }
        }
        Ok(())
    }

    pub(crate) fn holds(&self, v: &[u8]) -> bool {
        let sum = |seg: &Vec<u16>| seg.iter().map(|&c| v[c as usize] as u32).sum::<u32>();
        let first = sum(&self.segments[0]);
        self.segments.iter().all(|s| sum(s) == first)
    }
}
