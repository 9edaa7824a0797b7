//! Between lines.
//!
//! **Rule.** The two ends of the line are circles; every digit on the line
//! between them lies strictly between the circles' digits
//! (`.Between~<circle>~…~<circle>`).
//!
//! **Propagation.** Line cells keep digits above the smallest and below the
//! largest a circle can hold. Each circle is the low or the high end: the
//! low end stays below every line cell's largest candidate, the high end
//! above every line cell's smallest, and a circle that can only be one
//! forces the other to be the other.

use super::solver::{Contradiction, Dom, Model, Prop, max_digit, min_digit, range_mask};

pub(crate) fn lower(cells: &[u16], m: &mut Model) -> Result<(), String> {
    if cells.len() < 2 {
        return Err("a between line needs two circles".into());
    }
    let (a, b) = (cells[0], cells[cells.len() - 1]);
    if a == b {
        return Err("the two circles are one cell".into());
    }
    m.props.push(Prop::Between(BetweenLine {
        ends: [a, b],
        inner: cells[1..cells.len() - 1].to_vec(),
    }));
    if cells.len() > 2 {
        // The circles differ by at least two, so they differ.
        m.distinct.push((a, b));
    }
    Ok(())
}

/// The between-line propagator (see the module docs).
#[derive(Clone, Debug)]
pub(crate) struct BetweenLine {
    ends: [u16; 2],
    inner: Vec<u16>,
}

impl BetweenLine {
    pub(crate) fn cells(&self) -> Vec<u16> {
        let mut v = self.ends.to_vec();
        v.extend(&self.inner);
        v
    }

    pub(crate) fn propagate(&self, d: &mut Dom<'_>) -> Result<(), Contradiction> {
        if self.inner.is_empty() {
            return Ok(());
        }
        let [a, b] = self.ends;
        let (ma, mb) = (d.get(a), d.get(b));
        let lo = min_digit(ma).min(min_digit(mb)) as i32;
        let hi = max_digit(ma).max(max_digit(mb)) as i32;
        let open = range_mask(lo + 1, hi - 1);
        let (mut below, mut above) = (i32::MAX, i32::MIN);
        for &c in &self.inner {
            d.restrict(c, open)?;
            let m = d.get(c);
            below = below.min(max_digit(m) as i32);
            above = above.max(min_digit(m) as i32);
        }
        // The low circle is under `below`, the high one over `above`.
        let low = range_mask(1, below - 1);
        let high = range_mask(above + 1, 16);
        let (a_low, a_high) = (ma & low, ma & high);
        let (b_low, b_high) = (mb & low, mb & high);
        let keep_a = if b_high != 0 { a_low } else { 0 } | if b_low != 0 { a_high } else { 0 };
        let keep_b = if a_high != 0 { b_low } else { 0 } | if a_low != 0 { b_high } else { 0 };
        d.restrict(a, keep_a)?;
        d.restrict(b, keep_b)
    }

    pub(crate) fn holds(&self, v: &[u8]) -> bool {
        let (x, y) = (v[self.ends[0] as usize], v[self.ends[1] as usize]);
        let (lo, hi) = (x.min(y), x.max(y));
        self.inner
            .iter()
            .all(|&c| v[c as usize] > lo && v[c as usize] < hi)
    }
}
