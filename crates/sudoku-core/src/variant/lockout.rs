//! Lockout lines.
//!
//! **Rule.** The two ends of the line are diamonds whose digits differ by at
//! least the given amount; every digit on the line between them lies
//! outside the closed range of the diamonds' digits
//! (`.Lockout~<difference>~<diamond>~…~<diamond>`).
//!
//! **Propagation.** Every pair of diamond digits far enough apart is tried:
//! it stays possible when each line cell can take a digit below both or
//! above both. The diamonds keep the digits of possible pairs, and each line
//! cell the digits outside the range of some possible pair.

use super::iss;
use super::solver::{Contradiction, Dom, Model, Prop, digits, range_mask};
use super::{CellName, Constraint, Shape};

/// A lockout line.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Lockout {
    /// The least difference between the diamonds.
    pub difference: u8,
    /// The line, diamond to diamond.
    pub cells: Vec<CellName>,
}

/// Read `.Lockout~<difference>~<cells…>` (at least two cells).
pub(crate) fn parse(args: &[&str], shape: Shape) -> Result<Constraint, String> {
    let (diff, cells) = args
        .split_first()
        .ok_or_else(|| "a lockout line needs its difference and cells".to_string())?;
    let difference = iss::number(diff, "difference")?;
    if difference as usize >= shape.side() {
        return Err(format!(
            "a difference of {difference}: no two digits of {} are that far apart",
            shape.side()
        ));
    }
    let cells = iss::cells(cells, shape, 2)?;
    if cells[0] == cells[cells.len() - 1] {
        return Err("the two diamonds are one cell".into());
    }
    Ok(Constraint::Lockout(Lockout {
        difference: difference as u8,
        cells,
    }))
}

impl Lockout {
    pub(crate) fn lower(&self, shape: Shape, m: &mut Model) -> Result<(), String> {
        let idx: Vec<u16> = self.cells.iter().map(|&c| shape.index(c) as u16).collect();
        let (a, b) = (idx[0], idx[idx.len() - 1]);
        if self.difference > 0 {
            m.distinct.push((a, b));
        }
        m.props.push(Prop::Lockout(LockoutLine {
            ends: [a, b],
            inner: idx[1..idx.len() - 1].to_vec(),
            difference: self.difference,
            n: shape.side() as u8,
        }));
        Ok(())
    }
}

/// The lockout propagator (see the module docs).
#[derive(Clone, Debug)]
pub(crate) struct LockoutLine {
    ends: [u16; 2],
    inner: Vec<u16>,
    difference: u8,
    n: u8,
}

impl LockoutLine {
    pub(crate) fn cells(&self) -> Vec<u16> {
        let mut v = self.ends.to_vec();
        v.extend(&self.inner);
        v
    }

    /// The digits outside the closed range of `x` and `y`.
    fn outside(&self, x: u8, y: u8) -> u16 {
        let (lo, hi) = (x.min(y) as i32, x.max(y) as i32);
        range_mask(1, lo - 1) | range_mask(hi + 1, self.n as i32)
    }

    pub(crate) fn propagate(&self, d: &mut Dom<'_>) -> Result<(), Contradiction> {
        let [a, b] = self.ends;
        let (ma, mb) = (d.get(a), d.get(b));
        let (mut keep_a, mut keep_b) = (0u16, 0u16);
        // ys[x]: the digits of b that x on a pairs with.
        let mut ys = [0u16; 17];
        for x in digits(ma) {
            for y in digits(mb) {
                if x.abs_diff(y) < self.difference {
                    continue;
                }
                let out = self.outside(x, y);
                if self.inner.iter().all(|&c| d.get(c) & out != 0) {
                    keep_a |= 1 << (x - 1);
                    keep_b |= 1 << (y - 1);
                    ys[x as usize] |= 1 << (y - 1);
                }
            }
        }
        d.restrict(a, keep_a)?;
        d.restrict(b, keep_b)?;
        for &c in &self.inner {
            let m = d.get(c);
            let mut keep = 0u16;
            for x in digits(keep_a) {
                for y in digits(ys[x as usize]) {
                    keep |= m & self.outside(x, y);
                }
            }
            d.restrict(c, keep)?;
        }
        Ok(())
    }

    pub(crate) fn holds(&self, v: &[u8]) -> bool {
        let (x, y) = (v[self.ends[0] as usize], v[self.ends[1] as usize]);
        let out = self.outside(x, y);
        x.abs_diff(y) >= self.difference
            && self
                .inner
                .iter()
                .all(|&c| out & (1 << (v[c as usize] - 1)) != 0)
    }
}
