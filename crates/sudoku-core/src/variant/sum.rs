//! Plain sums: cells adding up to a total, repeats allowed.
//!
//! **Rule.** The digits in the cells add up to the sum. Unlike a killer cage
//! a digit may repeat, where the rows, columns and boxes allow it (ISS's
//! `.Sum~<sum>~<cells…>`).

use super::iss;
use super::prim::Linear;
use super::solver::{Model, Prop};
use super::{CellName, Constraint, Shape};

/// Cells adding up to a total.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Sum {
    /// The total.
    pub sum: u32,
    /// The cells.
    pub cells: Vec<CellName>,
}

/// Read `.Sum~<sum>~<cells…>`.
pub(crate) fn parse(args: &[&str], shape: Shape) -> Result<Constraint, String> {
    let (sum, cells) = args
        .split_first()
        .ok_or_else(|| "a sum needs a total and cells".to_string())?;
    let s = Sum {
        sum: iss::number(sum, "sum")?,
        cells: iss::cells(cells, shape, 1)?,
    };
    let n = shape.side() as u32;
    let k = s.cells.len() as u32;
    if s.sum < k || s.sum > k * n {
        return Err(format!("{k} cells make {k} to {}, not {}", k * n, s.sum));
    }
    Ok(Constraint::Sum(s))
}

impl Sum {
    pub(crate) fn lower(&self, shape: Shape, m: &mut Model) -> Result<(), String> {
        lower_linear(&self.cells, self.sum, shape, m);
        Ok(())
    }
}

/// `Σ cells = total` as a propagator; a cell listed twice counts twice.
pub(crate) fn lower_linear(cells: &[CellName], total: u32, shape: Shape, m: &mut Model) {
    let mut terms: Vec<(u16, i32)> = Vec::with_capacity(cells.len());
    for &c in cells {
        let i = shape.index(c) as u16;
        match terms.iter_mut().find(|t| t.0 == i) {
            Some(t) => t.1 += 1,
            None => terms.push((i, 1)),
        }
    }
    m.props.push(Prop::Linear(Linear::new(terms, total as i32)));
}
