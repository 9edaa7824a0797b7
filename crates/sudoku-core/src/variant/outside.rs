//! Outside clues on a row or column, read from either end: X-sums and
//! skyscrapers.
//!
//! **Rules.** *X-sum* (`.XSum~R3~<front>~<back>`): the first cell seen from
//! the clue holds X; the first X cells, counting it, sum to the clue.
//! *Skyscraper* (`.Skyscraper~C5~<front>~<back>`): digits are buildings of
//! that height; the clue counts those seen from its end (a building hides
//! every lower one behind it). The front clue reads from the left or the
//! top, the back clue from the right or the bottom; either may be blank.
//!
//! **Propagation.** X-sum: each X the first cell can hold stays if the next
//! X − 1 cells can make the rest (each from its candidates, and as distinct
//! digits other than X); those cells keep the digits that fit some X.
//! Skyscraper: a walk along the line tracking the tallest building so far
//! and the count seen (a hidden building is lower than the tallest, never
//! as tall; other repeats are left to the row or column) keeps each digit
//! that lies on a walk ending with the clue's count and the tallest
//! building, n, seen. The line's digits are distinct, so the first i
//! cells need a tallest of at least i: the walk drops the states below
//! (on ISS's "Skyscaper 2-3", 1,639 search nodes → 44).

use super::sandwich::{self, Line};
use super::solver::{Contradiction, Dom, Model, Prop, digits, max_digit, min_digit};
use super::{Constraint, Shape, iss};

/// Clues on both ends of one row or column.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct OutsideClue {
    /// The row or column.
    pub line: Line,
    /// The clue at the left or top end.
    pub front: Option<u32>,
    /// The clue at the right or bottom end.
    pub back: Option<u32>,
}

impl OutsideClue {
    /// ISS's arguments: the line and both clues (blank when absent).
    pub(crate) fn iss_args(&self) -> Vec<String> {
        let clue = |c: Option<u32>| c.map(|x| x.to_string()).unwrap_or_default();
        vec![self.line.to_string(), clue(self.front), clue(self.back)]
    }

    /// The line's cells read from each clued end.
    fn ends(&self, shape: Shape) -> Vec<(u32, Vec<u16>)> {
        let cells: Vec<u16> = self
            .line
            .cells(shape)
            .into_iter()
            .map(|c| shape.index(c) as u16)
            .collect();
        let mut out = Vec::new();
        if let Some(c) = self.front {
            out.push((c, cells.clone()));
        }
        if let Some(c) = self.back {
            out.push((c, cells.iter().rev().copied().collect()));
        }
        out
    }
}

fn parse_clues(args: &[&str], shape: Shape, most: u32) -> Result<OutsideClue, String> {
    let [id, front, back] = iss::exactly(args, 3)? else {
        unreachable!("three arguments")
    };
    let line = sandwich::parse_line(id, shape)?;
    let clue = |s: &str, side: &str| -> Result<Option<u32>, String> {
        if s.is_empty() {
            return Ok(None);
        }
        let v = iss::number(s, side)?;
        if v == 0 || v > most {
            return Err(format!("{side} clue {v}: 1 to {most}"));
        }
        Ok(Some(v))
    };
    let (front, back) = (clue(front, "front")?, clue(back, "back")?);
    if front.is_none() && back.is_none() {
        return Err("both clues blank".into());
    }
    Ok(OutsideClue { line, front, back })
}

/// Read `.XSum~<R3|C5>~<front>~<back>`.
pub(crate) fn parse_xsum(args: &[&str], shape: Shape) -> Result<Constraint, String> {
    let n = shape.side() as u32;
    parse_clues(args, shape, n * (n + 1) / 2).map(Constraint::XSum)
}

/// Read `.Skyscraper~<R3|C5>~<front>~<back>`.
pub(crate) fn parse_skyscraper(args: &[&str], shape: Shape) -> Result<Constraint, String> {
    parse_clues(args, shape, shape.side() as u32).map(Constraint::Skyscraper)
}

pub(crate) fn lower_xsum(c: &OutsideClue, shape: Shape, m: &mut Model) -> Result<(), String> {
    for (clue, line) in c.ends(shape) {
        m.props.push(Prop::XSum(XSumClue {
            line,
            clue: clue as i32,
        }));
    }
    Ok(())
}

pub(crate) fn lower_skyscraper(c: &OutsideClue, shape: Shape, m: &mut Model) -> Result<(), String> {
    for (clue, line) in c.ends(shape) {
        m.props.push(Prop::Skyscraper(SkyscraperClue {
            line,
            clue: clue as u8,
        }));
    }
    Ok(())
}

/// One X-sum clue, its line read from the clue (see the module docs).
#[derive(Clone, Debug)]
pub(crate) struct XSumClue {
    pub(crate) line: Vec<u16>,
    clue: i32,
}

impl XSumClue {
    /// The sums `k` distinct digits of 1..=n other than `x` can make.
    fn distinct_bounds(n: i32, k: i32, x: i32) -> (i32, i32) {
        let mut lo = 0;
        let (mut taken, mut d) = (0, 1);
        while taken < k && d <= n {
            if d != x {
                lo += d;
                taken += 1;
            }
            d += 1;
        }
        let mut hi = 0;
        let (mut taken, mut d) = (0, n);
        while taken < k && d >= 1 {
            if d != x {
                hi += d;
                taken += 1;
            }
            d -= 1;
        }
        (lo, hi)
    }

    pub(crate) fn propagate(&self, d: &mut Dom<'_>) -> Result<(), Contradiction> {
        let n = self.line.len();
        let first = self.line[0];
        let mut keep_first = 0u16;
        let mut keep = [0u16; 16];
        for x in digits(d.get(first)) {
            let k = x as usize;
            if k > n {
                continue;
            }
            let rest = self.clue - x as i32;
            let without = 1u16 << (x - 1);
            let cells = &self.line[1..k];
            let (mut lo, mut hi) = (0i32, 0i32);
            let mut ok = true;
            for &c in cells {
                let m = d.get(c) & !without;
                if m == 0 {
                    ok = false;
                    break;
                }
                lo += min_digit(m) as i32;
                hi += max_digit(m) as i32;
            }
            let (dlo, dhi) = Self::distinct_bounds(n as i32, k as i32 - 1, x as i32);
            let (lo, hi) = (lo.max(dlo), hi.min(dhi));
            if !ok || rest < lo || rest > hi {
                continue;
            }
            keep_first |= without;
            for (j, &c) in cells.iter().enumerate() {
                let m = d.get(c) & !without;
                // the other cells make at least (sum of their minima) and
                // at most (sum of their maxima)
                let (mut others_lo, mut others_hi) = (0i32, 0i32);
                for &o in cells.iter().filter(|&&o| o != c) {
                    let mo = d.get(o) & !without;
                    others_lo += min_digit(mo) as i32;
                    others_hi += max_digit(mo) as i32;
                }
                for v in digits(m) {
                    let need = rest - v as i32;
                    if need >= others_lo && need <= others_hi {
                        keep[j + 1] |= 1 << (v - 1);
                    }
                }
            }
            // cells past the first x are not in this sum
            for slot in keep.iter_mut().take(n).skip(k) {
                *slot = u16::MAX;
            }
        }
        d.restrict(first, keep_first)?;
        for (j, &c) in self.line.iter().enumerate().skip(1).take(15) {
            d.restrict(c, keep[j])?;
        }
        Ok(())
    }

    pub(crate) fn holds(&self, v: &[u8]) -> bool {
        let x = v[self.line[0] as usize] as usize;
        x <= self.line.len()
            && self.line[..x]
                .iter()
                .map(|&c| v[c as usize] as i32)
                .sum::<i32>()
                == self.clue
    }
}

/// The bits above the lowest set bit of `x` (none when `x` is 0).
#[inline]
fn above_least(x: u32) -> u32 {
    (x & x.wrapping_neg()).wrapping_neg() << 1
}

/// The bits below the highest set bit of `x` (none when `x` is 0).
#[inline]
fn below_highest(x: u32) -> u32 {
    if x == 0 {
        0
    } else {
        (1u32 << (31 - x.leading_zeros())) - 1
    }
}

/// One skyscraper clue, its line read from the clue (see the module docs).
#[derive(Clone, Debug)]
pub(crate) struct SkyscraperClue {
    pub(crate) line: Vec<u16>,
    clue: u8,
}

impl SkyscraperClue {
    /// The walk along the line, forward then backward, on states (count
    /// seen, tallest so far), each count's tallest heights as one bit set
    /// (bit t: tallest t; bit 0 before the first cell), so a cell costs a
    /// few bit operations per count rather than one step per height and
    /// digit. A cell's digit v is hidden behind tallest t when v < t
    /// (some digit of the cell is below t: t is above the cell's least
    /// digit), or seen when v > t (the new tallest v is above the least
    /// of the tallest heights). The line holds n distinct digits, so after
    /// i cells the tallest is at least i (i distinct digits no taller than
    /// it): the states below are dropped, which the walk alone would allow
    /// by repeating hidden digits.
    pub(crate) fn propagate(&self, d: &mut Dom<'_>) -> Result<(), Contradiction> {
        let n = self.line.len();
        let target = self.clue as usize;
        // forward[i][s]: the tallest heights reachable before cell i with s
        // seen (s ≤ target; counts past it cannot come back).
        let mut forward = [[0u32; 17]; 17];
        forward[0][0] = 1;
        for i in 0..n {
            let m = (d.get(self.line[i]) as u32) << 1;
            let hide = above_least(m);
            // Cells 0..=i hold i + 1 distinct digits, none above the tallest.
            let tall = !((2u32 << i) - 1);
            let (prev, next) = forward.split_at_mut(i + 1);
            let (prev, next) = (&prev[i], &mut next[0]);
            let top = target.min(i + 1);
            next[0] = prev[0] & hide & tall;
            for s in 1..=top {
                next[s] = ((prev[s] & hide) | (m & above_least(prev[s - 1]))) & tall;
            }
        }
        // The line is a whole row or column: it ends with n the tallest.
        let last = 1u32 << n;
        if forward[n][target] & last == 0 {
            return Err(Contradiction);
        }
        // backward: the states after cell i from which the rest of the line
        // ends with `target` seen and n the tallest, within those reached.
        let mut after = [0u32; 17];
        after[target] = last;
        let mut keep = [0u16; 16];
        for i in (0..n).rev() {
            let m = (d.get(self.line[i]) as u32) << 1;
            let hide = above_least(m);
            let reached = &forward[i];
            let mut before = [0u32; 17];
            let mut k = 0u32;
            for s in 0..=target.min(i) {
                let here = reached[s];
                if here == 0 {
                    continue;
                }
                // Hidden: the tallest stays t, the digit is below it.
                let stay = here & after[s];
                k |= m & below_highest(stay);
                let mut back = stay & hide;
                if s < target {
                    // Seen: the digit becomes the new tallest, above t.
                    let up = m & after[s + 1] & above_least(here);
                    k |= up;
                    back |= here & below_highest(up);
                }
                before[s] = back;
            }
            keep[i] = (k >> 1) as u16;
            after = before;
        }
        for (i, &c) in self.line.iter().enumerate() {
            d.restrict(c, keep[i])?;
        }
        Ok(())
    }

    pub(crate) fn holds(&self, v: &[u8]) -> bool {
        let (mut top, mut seen) = (0u8, 0u8);
        for &c in &self.line {
            if v[c as usize] > top {
                top = v[c as usize];
                seen += 1;
            }
        }
        seen == self.clue
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(masks: &[u16], clue: u8) -> Result<Vec<u16>, Contradiction> {
        let mut masks = masks.to_vec();
        let mut changed = Vec::new();
        let sky = SkyscraperClue {
            line: (0..masks.len() as u16).collect(),
            clue,
        };
        Dom::on_slice(&mut masks, &mut changed, |d| sky.propagate(d))?;
        Ok(masks)
    }

    /// Clue 2 on a line of four whose only 4 is at the far end: the first
    /// building is the 3 (with 2 first, the two cells behind it would
    /// both be 1, hidden); the walk without the rule that i cells need a
    /// tallest of at least i kept the 2.
    #[test]
    fn distinct_digits_raise_the_tallest() {
        assert_eq!(
            run(&[0b0111, 0b0011, 0b0011, 0b1000], 2),
            Ok(vec![0b0100, 0b0011, 0b0011, 0b1000])
        );
        // (3 1 2 4 and 3 2 1 4 are the arrangements.) Without the 3, none.
        assert_eq!(
            run(&[0b0011, 0b0011, 0b0011, 0b1000], 2),
            Err(Contradiction)
        );
    }

    /// Against every sequence of the cells' digits (random masks, lines of
    /// 4 to 6): the propagator keeps exactly the digits of the walks that
    /// end with the clue and n tallest, hide only lower digits and never
    /// have a tallest below the count of cells so far; and so every
    /// arrangement of distinct digits keeping the clue keeps its digits.
    #[test]
    fn keeps_exactly_the_digits_of_some_walk() {
        let mut next = crate::variant::xorshift(0x9e37_79b9_7f4a_7c15u64);
        for round in 0..600 {
            let n = 4 + round % 3;
            let full = (1u16 << n) - 1;
            let masks: Vec<u16> = (0..n)
                .map(|_| {
                    let r = next() as u16 & full;
                    if r == 0 {
                        full
                    } else {
                        r | (next() as u16 & full)
                    }
                })
                .collect();
            let clue = 1 + (next() % n as u64) as u8;
            let (mut walks, mut perms) = (vec![0u16; n], vec![0u16; n]);
            let mut seq = vec![0u8; n];
            let total = n.pow(n as u32);
            for code in 0..total {
                let mut c = code;
                let mut ok = true;
                for (i, v) in seq.iter_mut().enumerate() {
                    *v = (c % n) as u8 + 1;
                    c /= n;
                    ok &= masks[i] & (1 << (*v - 1)) != 0;
                }
                if !ok {
                    continue;
                }
                let (mut top, mut seen, mut walk) = (0u8, 0u8, true);
                for (i, &v) in seq.iter().enumerate() {
                    if v > top {
                        top = v;
                        seen += 1;
                    } else if v == top {
                        walk = false;
                    }
                    walk &= top as usize > i;
                }
                if !walk || seen != clue || top as usize != n {
                    continue;
                }
                let distinct = seq.iter().fold(0u16, |a, &v| a | 1 << (v - 1)) == full;
                for i in 0..n {
                    walks[i] |= 1 << (seq[i] - 1);
                    if distinct {
                        perms[i] |= 1 << (seq[i] - 1);
                    }
                }
            }
            let got = run(&masks, clue);
            if walks.contains(&0) {
                assert_eq!(got, Err(Contradiction), "{masks:?} clue {clue}");
            } else {
                let got = got.expect("a walk exists");
                assert_eq!(got, walks, "{masks:?} clue {clue}");
                for (g, p) in got.iter().zip(&perms) {
                    assert_eq!(g & p, *p);
                }
            }
        }
    }
}
