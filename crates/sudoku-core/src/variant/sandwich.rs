//! Sandwich clues.
//!
//! **Rule.** A clue outside a row or column gives the sum of the digits
//! between the 1 and the largest digit (9 on a 9×9 grid) of that row or
//! column, wherever they are; 0 when they are next to each other. ISS writes
//! `.Sandwich~<sum>~R3` (row 3) or `~C5` (column 5).
//!
//! **Propagation.** Every placement of the 1 and the largest digit is tried
//! with every set of middle digits of the right size and sum (listed once
//! per grid size): a set stands if the cells between can hold it (its
//! digits are among theirs) and the cells outside every middle digit not in
//! it. Each cell keeps what some standing placement and set give it: the 1
//! or the largest digit at the ends, the set's digits between, the other
//! middle digits outside (the Interactive Sudoku Solver's sandwich
//! reasoning). When one placement is left, each cell between also keeps
//! the digits the others' bounds can complete to the sum.

use std::fmt;
use std::sync::{Arc, OnceLock};

use super::iss;
use super::solver::{Contradiction, Dom, Model, Prop, digits, max_digit, min_digit, range_mask};
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
        m.props.push(Prop::Sandwich(SandwichSum::new(
            line,
            self.sum as i32,
            shape.side(),
        )));
        Ok(())
    }
}

/// The sandwich propagator (see the module docs).
#[derive(Clone, Debug)]
pub(crate) struct SandwichSum {
    pub(crate) line: Vec<u16>,
    sum: i32,
    n: usize,
    /// The sets of middle digits (neither 1 nor the largest) by size and
    /// sum, shared per side: index `size * (most + 1) + sum`.
    table: Arc<Vec<Vec<u16>>>,
}

/// The middle-digit sets of a side, built once and shared.
fn table(n: usize) -> Arc<Vec<Vec<u16>>> {
    static TABLES: [OnceLock<Arc<Vec<Vec<u16>>>>; 17] = [const { OnceLock::new() }; 17];
    TABLES[n]
        .get_or_init(|| {
            let most = most(n);
            let mut t = vec![Vec::new(); (n + 1) * (most + 1)];
            // The middle digits 2..n-1 are bits 1..n-2.
            for m in 0u32..1 << n.saturating_sub(2) {
                let set = (m << 1) as u16;
                let s: usize = digits(set).map(usize::from).sum();
                t[set.count_ones() as usize * (most + 1) + s].push(set);
            }
            Arc::new(t)
        })
        .clone()
}

/// The sum of the middle digits 2..n-1.
fn most(n: usize) -> usize {
    (2..n).sum()
}

impl SandwichSum {
    pub(crate) fn new(line: Vec<u16>, sum: i32, n: usize) -> SandwichSum {
        SandwichSum {
            line,
            sum,
            n,
            table: table(n),
        }
    }

    pub(crate) fn propagate(&self, d: &mut Dom<'_>) -> Result<(), Contradiction> {
        let n = self.n;
        let one = 1u16;
        let top = 1u16 << (n - 1);
        let mid = (((1u32 << n) - 1) as u16) & !(one | top);
        let most = most(n);
        let mut masks = [0u16; 16];
        for (m, &c) in masks.iter_mut().zip(&self.line) {
            *m = d.get(c);
        }
        // prefix[i]: the digits of cells before i; suffix[i]: from i on.
        let (mut prefix, mut suffix) = ([0u16; 17], [0u16; 17]);
        for i in 0..n {
            prefix[i + 1] = prefix[i] | masks[i];
            suffix[n - 1 - i] = suffix[n - i] | masks[n - 1 - i];
        }
        let mut valid = [0u16; 16];
        let mut only: Option<(usize, usize)> = None;
        let mut count = 0;
        for a in 0..n {
            let sa = masks[a] & (one | top);
            if sa == 0 {
                continue;
            }
            let mut inner = 0u16;
            for b in a + 1..n {
                let sb = masks[b] & (one | top);
                // 1 at a and the top at b, or the other way round.
                let (ab, ba) = (
                    sa & one != 0 && sb & top != 0,
                    sa & top != 0 && sb & one != 0,
                );
                if ab || ba {
                    let (inside, outside) = (inner & mid, (prefix[a] | suffix[b + 1]) & mid);
                    let k = b - a - 1;
                    let (mut ip, mut op, mut found) = (0u16, 0u16, false);
                    if self.sum as usize <= most {
                        for &c in &self.table[k * (most + 1) + self.sum as usize] {
                            // The inner cells can hold the set, the outer
                            // ones every middle digit not in it.
                            if c & !inside == 0 && mid & !c & !outside == 0 {
                                ip |= c;
                                op |= mid & !c;
                                found = true;
                            }
                        }
                    }
                    if found {
                        count += 1;
                        only = Some((a, b));
                        let (at_a, at_b) = match (ab, ba) {
                            (true, true) => (one | top, one | top),
                            (true, false) => (one, top),
                            _ => (top, one),
                        };
                        for v in &mut valid[..a] {
                            *v |= op;
                        }
                        valid[a] |= at_a;
                        for v in &mut valid[a + 1..b] {
                            *v |= ip;
                        }
                        valid[b] |= at_b;
                        for v in &mut valid[b + 1..n] {
                            *v |= op;
                        }
                    }
                }
                inner |= masks[b];
            }
        }
        if count == 0 {
            return Err(Contradiction);
        }
        for (&c, &v) in self.line.iter().zip(&valid) {
            d.restrict(c, v)?;
        }
        if count == 1 {
            // One placement left: each cell between also keeps only the
            // digits that fit the others' bounds.
            let (a, b) = only.expect("one placement");
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

#[cfg(test)]
mod tests {
    use super::*;

    fn run(sum: i32) -> Vec<u16> {
        let mut masks = vec![0b1111u16; 4];
        let mut changed = Vec::new();
        let sandwich = SandwichSum::new(vec![0, 1, 2, 3], sum, 4);
        Dom::on_slice(&mut masks, &mut changed, |d| sandwich.propagate(d)).expect("consistent");
        masks
    }

    /// 5 between 1 and 4 in a row of four: only {2,3}, so the 1 and the 4
    /// are at the ends.
    #[test]
    fn the_middle_set_places_the_ends() {
        assert_eq!(run(5), [0b1001, 0b0110, 0b0110, 0b1001]);
    }

    /// 2 between: the 2 sits between 1 and 4, so the cell outside them
    /// holds the 3 and no end cell can hold the 2.
    #[test]
    fn cells_outside_hold_the_other_middle_digits() {
        assert_eq!(run(2), [0b1101, 0b1011, 0b1011, 0b1101]);
    }
}
