//! The two propagators many kinds share: a relation between two cells given
//! as a table, and a weighted sum equal to a constant.

use super::solver::{Contradiction, Dom, digits, max_digit, min_digit};

/// Two cells whose digits must be related: `b` may take the digits
/// `fwd[x]` when `a` is `x`, and `a` the digits `bwd[y]` when `b` is `y`
/// (index 0 unused). Propagation keeps each digit that has a partner
/// (arc consistency).
#[derive(Clone, Debug)]
pub(crate) struct Pair {
    pub(crate) a: u16,
    pub(crate) b: u16,
    fwd: [u16; 17],
    bwd: [u16; 17],
}

impl Pair {
    /// The pair of cells `a`, `b` on a grid of side `n`, related by `rel`
    /// (called with the digits of `a` and `b`).
    pub(crate) fn new(a: u16, b: u16, n: usize, rel: impl Fn(u8, u8) -> bool) -> Pair {
        let mut fwd = [0u16; 17];
        let mut bwd = [0u16; 17];
        for x in 1..=n as u8 {
            for y in 1..=n as u8 {
                if rel(x, y) {
                    fwd[x as usize] |= 1 << (y - 1);
                    bwd[y as usize] |= 1 << (x - 1);
                }
            }
        }
        Pair { a, b, fwd, bwd }
    }

    pub(crate) fn propagate(&self, d: &mut Dom<'_>) -> Result<(), Contradiction> {
        let mut allowed = 0;
        for x in digits(d.get(self.a)) {
            allowed |= self.fwd[x as usize];
        }
        d.restrict(self.b, allowed)?;
        let mut allowed = 0;
        for y in digits(d.get(self.b)) {
            allowed |= self.bwd[y as usize];
        }
        d.restrict(self.a, allowed)
    }

    pub(crate) fn holds(&self, v: &[u8]) -> bool {
        let (x, y) = (v[self.a as usize], v[self.b as usize]);
        self.fwd[x as usize] & (1 << (y - 1)) != 0
    }
}

/// `Σ coefficient · digit = rhs` over some cells (a cell may repeat its
/// digit elsewhere in the sum: arrows, little killers and plain sums allow
/// repeats the houses do not forbid). Propagation keeps, in each cell, the
/// digits that the other cells' ranges can complete to `rhs`.
#[derive(Clone, Debug)]
pub(crate) struct Linear {
    pub(crate) terms: Vec<(u16, i32)>,
    pub(crate) rhs: i32,
}

impl Linear {
    /// The smallest and largest value a term can take.
    #[inline]
    fn span(coef: i32, m: u16) -> (i32, i32) {
        let (lo, hi) = (min_digit(m) as i32 * coef, max_digit(m) as i32 * coef);
        if coef >= 0 { (lo, hi) } else { (hi, lo) }
    }

    pub(crate) fn propagate(&self, d: &mut Dom<'_>) -> Result<(), Contradiction> {
        let (mut lo, mut hi) = (0i32, 0i32);
        for &(c, k) in &self.terms {
            let (a, b) = Self::span(k, d.get(c));
            lo += a;
            hi += b;
        }
        if self.rhs < lo || self.rhs > hi {
            return Err(Contradiction);
        }
        for &(c, k) in &self.terms {
            let m = d.get(c);
            let (a, b) = Self::span(k, m);
            // The other terms make lo - a ..= hi - b.
            let (need_lo, need_hi) = (self.rhs - (hi - b), self.rhs - (lo - a));
            let mut keep = 0u16;
            for x in digits(m) {
                let t = x as i32 * k;
                if t >= need_lo && t <= need_hi {
                    keep |= 1 << (x - 1);
                }
            }
            d.restrict(c, keep)?;
        }
        Ok(())
    }

    pub(crate) fn holds(&self, v: &[u8]) -> bool {
        self.terms
            .iter()
            .map(|&(c, k)| v[c as usize] as i32 * k)
            .sum::<i32>()
            == self.rhs
    }
}
