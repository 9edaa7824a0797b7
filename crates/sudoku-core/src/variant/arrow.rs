//! Arrows, pill arrows and double arrows.
//!
//! **Rule.** The digits along an arrow add up to the number in its circle.
//! In a pill arrow the circle covers several cells read as one number, left
//! to right and top to bottom (`.PillArrow~2~R1C2~R1C1~…`: r1c1 tens, r1c2
//! units, whichever is listed first); a plain arrow's
//! circle is its first cell (`.Arrow~<circle>~<arrow cells…>`). Digits on an
//! arrow may repeat where the houses allow. On a double arrow
//! (`.DoubleArrow~…`) both end cells are circles and together equal the sum
//! of the cells between.

use super::iss;
use super::prim::Linear;
use super::solver::{Model, Prop};
use super::{CellName, Constraint, Shape};

/// An arrow: the first `pill` cells are the circle, the rest the arrow.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Arrow {
    /// Cells in the circle (1 for a plain arrow).
    pub pill: usize,
    /// The circle's cells, then the arrow's, in order.
    pub cells: Vec<CellName>,
}

/// Read `.Arrow~<circle>~<cells…>`.
pub(crate) fn parse(args: &[&str], shape: Shape) -> Result<Constraint, String> {
    let cells = iss::cells(args, shape, 2)?;
    Ok(Constraint::Arrow(Arrow { pill: 1, cells }))
}

/// Read `.PillArrow~<circle size>~<cells…>`.
pub(crate) fn parse_pill(args: &[&str], shape: Shape) -> Result<Constraint, String> {
    let (size, rest) = args
        .split_first()
        .ok_or_else(|| "a pill arrow needs its circle size and cells".to_string())?;
    let pill = iss::number(size, "circle size")? as usize;
    if !(1..=3).contains(&pill) {
        return Err(format!("a pill of {pill} cells: 1 to 3"));
    }
    let cells = iss::cells(rest, shape, pill + 1)?;
    Ok(Constraint::Arrow(Arrow { pill, cells }))
}

/// Read `.DoubleArrow~<cells…>` (at least 3 cells).
pub(crate) fn parse_double(args: &[&str], shape: Shape) -> Result<Constraint, String> {
    Ok(Constraint::DoubleArrow(super::Cells {
        cells: iss::cells(args, shape, 3)?,
    }))
}

/// Add `coef` for a cell to a list of terms, merging repeats.
fn add(terms: &mut Vec<(u16, i32)>, cell: u16, coef: i32) {
    match terms.iter_mut().find(|t| t.0 == cell) {
        Some(t) => t.1 += coef,
        None => terms.push((cell, coef)),
    }
}

impl Arrow {
    pub(crate) fn lower(&self, shape: Shape, m: &mut Model) -> Result<(), String> {
        if self.pill == 0 || self.cells.len() <= self.pill {
            return Err("an arrow needs its circle and at least one cell".into());
        }
        let mut terms = Vec::new();
        // The pill reads left to right, top to bottom, whatever order its
        // cells are listed in.
        let mut pill: Vec<u16> = self.cells[..self.pill]
            .iter()
            .map(|&c| shape.index(c) as u16)
            .collect();
        pill.sort_unstable();
        for (i, &c) in pill.iter().enumerate() {
            add(&mut terms, c, 10i32.pow((self.pill - 1 - i) as u32));
        }
        for &c in &self.cells[self.pill..] {
            add(&mut terms, shape.index(c) as u16, -1);
        }
        m.props.push(Prop::Linear(Linear::new(terms, 0)));
        Ok(())
    }
}

/// A double arrow's rule: ends minus the middle is zero.
pub(crate) fn lower_double(cells: &[u16], m: &mut Model) -> Result<(), String> {
    if cells.len() < 3 {
        return Err("a double arrow needs two ends and a cell between".into());
    }
    let mut terms = Vec::new();
    let last = cells.len() - 1;
    for (i, &c) in cells.iter().enumerate() {
        add(&mut terms, c, if i == 0 || i == last { 1 } else { -1 });
    }
    m.props.push(Prop::Linear(Linear::new(terms, 0)));
    Ok(())
}
