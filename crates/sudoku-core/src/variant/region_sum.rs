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
//! a sum in that range. Besides, as the Interactive Sudoku Solver lowers
//! these lines, every two pieces make a sum of their own, one piece's cells
//! minus the other's equal to 0 (a piece of one cell against several: that
//! cell's digit is their sum; pieces of one cell are equal): such a
//! `Linear` sum knows that the digits of a piece inside one box differ,
//! so three cells of a piece make at least 1 + 2 + 3, and with two or three
//! cells left open it keeps exactly the digits that can still complete it.

use super::prim::{Linear, Pair};
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
        pairwise(&segments, shape.side(), m);
        m.props.push(Prop::EqualSums(EqualSums { segments }));
    }
    Ok(())
}

/// The pieces' sums pairwise (see the module docs): pieces of one cell
/// equal to the first of them; each longer piece equal to that cell if
/// there is one, else to every other longer piece.
fn pairwise(segments: &[Vec<u16>], n: usize, m: &mut Model) {
    let singles: Vec<u16> = segments
        .iter()
        .filter(|s| s.len() == 1)
        .map(|s| s[0])
        .collect();
    let multis: Vec<&Vec<u16>> = segments.iter().filter(|s| s.len() > 1).collect();
    for &c in singles.iter().skip(1) {
        m.props
            .push(Prop::Pair(Pair::new(singles[0], c, n, |x, y| x == y)));
    }
    let equal = |a: &[u16], b: &[u16]| {
        let terms = a
            .iter()
            .map(|&c| (c, 1))
            .chain(b.iter().map(|&c| (c, -1)))
            .collect();
        Prop::Linear(Linear::new(terms, 0))
    };
    match singles.first() {
        Some(&one) => {
            for s in &multis {
                m.props.push(equal(s, &[one]));
            }
        }
        None => {
            for (i, a) in multis.iter().enumerate() {
                for b in &multis[..i] {
                    let (long, short) = if a.len() >= b.len() { (a, b) } else { (b, a) };
                    m.props.push(equal(long, short));
                }
            }
        }
    }
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
