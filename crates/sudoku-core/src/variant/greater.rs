//! Greater-than signs, and extra all-different groups.
//!
//! **Rule.** `.GreaterThan~a~b~…`: each cell is greater than every later
//! cell of the list that is orthogonally next to it (`.GreaterThan~R5C5~R4C5~
//! R5C4~R5C6~R6C5` puts the centre above its four neighbours; a chain of
//! neighbours descends along the list). `.AllDifferent~…`: the cells hold
//! different digits (every digit once when there are n of them).
//!
//! **Propagation.** A sign is a pair table (arc consistency); a group of n
//! different cells is a house (hidden singles too), a smaller one a set of
//! cells that see each other.

use super::iss;
use super::prim::Pair;
use super::solver::{Model, Prop};
use super::{Cells, Constraint, Shape};

/// Read `.GreaterThan~<cells…>`: at least two, each with a neighbour among
/// them.
pub(crate) fn parse(args: &[&str], shape: Shape) -> Result<Constraint, String> {
    let cells = iss::cells(args, shape, 2)?;
    if let Some(lone) = cells.iter().find(|a| !cells.iter().any(|b| a.touches(*b))) {
        return Err(format!("{lone} has no neighbour among the cells"));
    }
    Ok(Constraint::GreaterThan(Cells { cells }))
}

/// Each earlier cell above each later neighbour.
pub(crate) fn lower(cells: &Cells, shape: Shape, m: &mut Model) -> Result<(), String> {
    let n = shape.side();
    for (i, &a) in cells.cells.iter().enumerate() {
        for &b in &cells.cells[i + 1..] {
            if a.touches(b) {
                let (x, y) = (shape.index(a) as u16, shape.index(b) as u16);
                m.props.push(Prop::Pair(Pair::new(x, y, n, |p, q| p > q)));
            }
        }
    }
    Ok(())
}

/// Read `.AllDifferent~<cells…>`.
pub(crate) fn parse_all_different(args: &[&str], shape: Shape) -> Result<Constraint, String> {
    let cells = iss::cells(args, shape, 2)?;
    let mut seen = cells.clone();
    seen.sort();
    seen.dedup();
    if seen.len() > shape.side() {
        return Err(format!(
            "{} cells cannot hold different digits of {}",
            seen.len(),
            shape.side()
        ));
    }
    Ok(Constraint::AllDifferent(Cells { cells }))
}

pub(crate) fn lower_all_different(
    cells: &Cells,
    shape: Shape,
    m: &mut Model,
) -> Result<(), String> {
    let mut idx: Vec<u16> = cells.cells.iter().map(|&c| shape.index(c) as u16).collect();
    idx.sort_unstable();
    idx.dedup();
    if idx.len() == shape.side() {
        m.house(idx);
    } else {
        m.all_different(&idx);
    }
    Ok(())
}
