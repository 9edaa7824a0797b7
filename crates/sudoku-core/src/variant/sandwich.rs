//! Sandwich clues.
//!
//! **Rule.** A clue outside a row or column gives the sum of the digits
//! between the 1 and the largest digit (9 on a 9×9 grid) of that row or
//! column, wherever they are; 0 when they are next to each other. ISS writes
//! `.Sandwich~<sum>~R3` (row 3) or `~C5` (column 5).
//!
//! **Propagation.** Every placement of the 1 and the largest digit is tried:
//! it stays possible if the cells between can make the sum (each from its
//! own candidates, bounded too by the smallest and largest sums of that many
//! different middle digits). The 1 and the largest digit keep only the cells
//! of possible placements; when one placement is left, each cell between
//! keeps the digits the others can complete to the sum.

use std::fmt;

use super::iss;
use super::solver::{Contradiction, Dom, Model, Prop, max_digit, min_digit, range_mask};
use super::{CellName, Constraint, Shape};

/// A row or a column, from 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Line {
    /// A row.
    Row(u8),
    /// A column.
    Col(u8),
}

impl fmt::Display for Line {
    /// `R3` or `C5`, 1-based, as ISS writes it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Line::Row(r) => write!(f, "R{}", iss::base17(*r as usize + 1)),
            Line::Col(c) => write!(f, "C{}", iss::base17(*c as usize + 1)),
        }
    }
}

impl Line {
    /// Its cells in order.
    pub fn cells(self, shape: Shape) -> Vec<CellName> {
        let n = shape.side() as u8;
        match self {
            Line::Row(r) => (0..n).map(|c| CellName::new(r, c)).collect(),
            Line::Col(c) => (0..n).map(|r| CellName::new(r, c)).collect(),
        }
    }
}

/// A row (`R3`) or column (`C5`), 1-based, in ISS's base-17 characters.
pub(crate) fn parse_line(id: &str, shape: Shape) -> Result<Line, String> {
    let bad = || format!("{id:?} is not a row (R1..) or column (C1..) of a {shape} grid");
    let mut chars = id.chars();
    let kind = chars.next().ok_or_else(bad)?;
    let index = iss::from_base17(chars.as_str()).ok_or_else(bad)?;
    if index == 0 || index > shape.side() {
        return Err(bad());
    }
    match kind.to_ascii_uppercase() {
        'R' => Ok(Line::Row(index as u8 - 1)),
        'C' => Ok(Line::Col(index as u8 - 1)),
        _ => Err(bad()),
    }
}

/// A sandwich clue.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Sandwich {
    /// The clue.
    pub sum: u32,
    /// The row or column it is for.
    pub line: Line,
}

/// Read `.Sandwich~<sum>~R<r>` or `~C<c>`.
pub(crate) fn parse(args: &[&str], shape: Shape) -> Result<Constraint, String> {
    let [sum, id] = iss::exactly(args, 2)? else {
        unreachable!("two arguments")
    };
    let sum = iss::number(sum, "sum")?;
    let line = parse_line(id, shape)?;
    let n = shape.side() as u32;
    let most = (2..n).sum::<u32>();
    if sum > most {
        return Err(format!(
            "the digits between 1 and {n} sum to at most {most}"
        ));
    }
    Ok(Constraint::Sandwich(Sandwich { sum, line }))
}

impl Sandwich {
    pub(crate) fn lower(&self, shape: Shape, m: &mut Model) -> Result<(), String> {
        let line = self
            .line
            .cells(shape)
            .into_iter()
            .map(|c| shape.index(c) as u16)
            .collect();
        m.props.push(Prop::Sandwich(SandwichSum {
            line,
            sum: self.sum as i32,
            n: shape.side(),
        }));
        Ok(())
    }
}

/// The sandwich propagator (see the module docs).
#[derive(Clone, Debug)]
pub(crate) struct SandwichSum {
    pub(crate) line: Vec<u16>,
    sum: i32,
    n: usize,
}

impl SandwichSum {
    /// The smallest and largest sums of `k` different middle digits.
    fn distinct_bounds(&self, k: usize) -> (i32, i32) {
        let n = self.n as i32;
        let k = k as i32;
        let lo = (2..2 + k).sum::<i32>();
        let hi = (n - k..n).sum::<i32>();
        (lo, hi)
    }

    /// The range of sums the cells strictly between `a` and `b` can make.
    fn span(&self, d: &Dom<'_>, a: usize, b: usize, mid: u16) -> Option<(i32, i32)> {
        let (mut lo, mut hi) = (0, 0);
        for &c in &self.line[a + 1..b] {
            let m = d.get(c) & mid;
            if m == 0 {
                return None;
            }
            lo += min_digit(m) as i32;
            hi += max_digit(m) as i32;
        }
        let (dlo, dhi) = self.distinct_bounds(b - a - 1);
        Some((lo.max(dlo), hi.min(dhi)))
    }

    pub(crate) fn propagate(&self, d: &mut Dom<'_>) -> Result<(), Contradiction> {
        let one = 1u16;
        let top = 1u16 << (self.n - 1);
        let mid = !(one | top);
        let (mut ones, mut tops) = (0u32, 0u32);
        let mut only: Option<(usize, usize)> = None;
        let mut count = 0;
        for (i, &ci) in self.line.iter().enumerate() {
            if d.get(ci) & one == 0 {
                continue;
            }
            for (j, &cj) in self.line.iter().enumerate() {
                if i == j || d.get(cj) & top == 0 {
                    continue;
                }
                let (a, b) = (i.min(j), i.max(j));
                if let Some((lo, hi)) = self.span(d, a, b, mid) {
                    if (lo..=hi).contains(&self.sum) {
                        ones |= 1 << i;
                        tops |= 1 << j;
                        count += 1;
                        only = Some((a, b));
                    }
                }
            }
        }
        if count == 0 {
            return Err(Contradiction);
        }
        for (i, &c) in self.line.iter().enumerate() {
            if ones & (1 << i) == 0 {
                d.restrict(c, !one)?;
            }
            if tops & (1 << i) == 0 {
                d.restrict(c, !top)?;
            }
        }
        if count == 1 {
            let (a, b) = only.expect("one placement");
            // Each cell's own range, not the clamped one: the clamp is a
            // bound on the total, not on what the other cells can make.
            let (lo, hi) = self.line[a + 1..b].iter().fold((0, 0), |(lo, hi), &c| {
                let m = d.get(c) & mid;
                (lo + min_digit(m) as i32, hi + max_digit(m) as i32)
            });
            for &c in &self.line[a + 1..b] {
                let m = d.get(c) & mid;
                let (x, y) = (min_digit(m) as i32, max_digit(m) as i32);
                d.restrict(
                    c,
                    mid & range_mask(self.sum - (hi - y), self.sum - (lo - x)),
                )?;
            }
        }
        Ok(())
    }

    pub(crate) fn holds(&self, v: &[u8]) -> bool {
        let at = |x: u8| self.line.iter().position(|&c| v[c as usize] == x);
        let (Some(i), Some(j)) = (at(1), at(self.n as u8)) else {
            return false;
        };
        let (a, b) = (i.min(j), i.max(j));
        self.line[a + 1..b]
            .iter()
            .map(|&c| v[c as usize] as i32)
            .sum::<i32>()
            == self.sum
    }
}
