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
//! building, n, seen.

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

/// One skyscraper clue, its line read from the clue (see the module docs).
#[derive(Clone, Debug)]
pub(crate) struct SkyscraperClue {
    pub(crate) line: Vec<u16>,
    clue: u8,
}

impl SkyscraperClue {
    pub(crate) fn propagate(&self, d: &mut Dom<'_>) -> Result<(), Contradiction> {
        let n = self.line.len();
        let target = self.clue as usize;
        // State after some cells: (tallest so far 0..=n, seen 0..=n), as a
        // bit set of `seen` per tallest. forward[i] holds the states before
        // cell i.
        let mut forward = [[0u32; 17]; 17];
        forward[0][0] = 1;
        for i in 0..n {
            let m = d.get(self.line[i]);
            let mut next = [0u32; 17];
            for top in 0..=n {
                let seen = forward[i][top];
                if seen == 0 {
                    continue;
                }
                for v in digits(m) {
                    let v = v as usize;
                    if v > top {
                        next[v] |= (seen << 1) & ((1u32 << (target + 1)) - 1);
                    } else if v < top {
                        next[top] |= seen;
                    }
                }
            }
            forward[i + 1] = next;
        }
        // backward[i][top]: counts seen so far (bits) from which cells i..
        // can end with exactly `target`.
        // The line is a whole row or column: it ends with n the tallest.
        let mut backward = [[0u32; 17]; 17];
        backward[n][n] = 1 << target;
        let mut keep = [0u16; 16];
        for i in (0..n).rev() {
            let m = d.get(self.line[i]);
            for top in 0..=n {
                // No walk reaches this state: nothing to keep or pass back
                // (backward[i][top] stays empty).
                if forward[i][top] == 0 {
                    continue;
                }
                let mut ok_seen = 0u32;
                for v in digits(m) {
                    let vu = v as usize;
                    // A building as tall as the tallest so far would repeat
                    // its digit on the line.
                    if vu == top {
                        continue;
                    }
                    let (next_top, shift) = if vu > top { (vu, 1) } else { (top, 0) };
                    let good = backward[i + 1][next_top] >> shift;
                    ok_seen |= good;
                    if forward[i][top] & good != 0 {
                        keep[i] |= 1 << (v - 1);
                    }
                }
                backward[i][top] = ok_seen;
            }
        }
        if forward[0][0] & backward[0][0] == 0 {
            return Err(Contradiction);
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
