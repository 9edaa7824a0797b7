//! Kropki dots, and the rule that all dots are given.
//!
//! **Rule.** A white dot between two neighbouring cells: their digits are
//! consecutive. A black dot: one digit is double the other. (Between 1 and
//! 2 either dot may stand.) `.WhiteDot~R1C1~R1C2` marks one dot; with more
//! cells, as ISS reads them, a dot stands between every two neighbouring
//! cells of the list (each cell needs a neighbour in it). With
//! `.StrictKropki` every dot is given: two neighbours without a dot are
//! neither consecutive nor in a 1:2 ratio.

use super::prim::Pair;
use super::solver::{Model, Prop};
use super::{Constraint, Shape};

/// Which dot.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Dot {
    White,
    Black,
}

fn consecutive(a: u8, b: u8) -> bool {
    a.abs_diff(b) == 1
}

fn double(a: u8, b: u8) -> bool {
    a == 2 * b || b == 2 * a
}

/// Every two orthogonally neighbouring cells of a list, as indices.
pub(crate) fn neighbour_pairs(cells: &[u16], shape: Shape) -> Vec<(u16, u16)> {
    let mut pairs = Vec::new();
    for (i, &a) in cells.iter().enumerate() {
        for &b in &cells[i + 1..] {
            if shape.cell(a as usize).touches(shape.cell(b as usize)) {
                pairs.push((a.min(b), a.max(b)));
            }
        }
    }
    pairs.sort_unstable();
    pairs.dedup();
    pairs
}

pub(crate) fn lower(cells: &[u16], dot: Dot, shape: Shape, m: &mut Model) -> Result<(), String> {
    let n = shape.side();
    for (a, b) in neighbour_pairs(cells, shape) {
        let pair = match dot {
            Dot::White => Pair::new(a, b, n, consecutive),
            Dot::Black => Pair::new(a, b, n, double),
        };
        m.props.push(Prop::Pair(pair));
    }
    Ok(())
}

/// The neighbouring pairs a list of constraints marks, each as (low, high)
/// cell indices.
pub(crate) fn marked_pairs(
    constraints: &[Constraint],
    shape: Shape,
    pick: impl Fn(&Constraint) -> Option<&super::Cells>,
) -> Vec<(u16, u16)> {
    let mut pairs = Vec::new();
    for c in constraints {
        if let Some(cells) = pick(c) {
            let idx: Vec<u16> = cells.cells.iter().map(|&x| shape.index(x) as u16).collect();
            pairs.extend(neighbour_pairs(&idx, shape));
        }
    }
    pairs.sort_unstable();
    pairs
}

/// Every orthogonal pair of cells (low, high index).
pub(crate) fn orthogonal_pairs(shape: Shape) -> impl Iterator<Item = (u16, u16)> {
    let n = shape.side();
    (0..shape.cells()).flat_map(move |i| {
        let right = (i % n + 1 < n).then_some((i as u16, i as u16 + 1));
        let down = (i + n < n * n).then_some((i as u16, (i + n) as u16));
        right.into_iter().chain(down)
    })
}

/// "All dots given": unmarked neighbours are neither consecutive nor double.
pub(crate) fn lower_strict(constraints: &[Constraint], shape: Shape, m: &mut Model) {
    let marked = marked_pairs(constraints, shape, |c| match c {
        Constraint::WhiteDot(x) | Constraint::BlackDot(x) => Some(x),
        _ => None,
    });
    for (a, b) in orthogonal_pairs(shape) {
        if marked.binary_search(&(a, b)).is_err() {
            let pair = Pair::new(a, b, shape.side(), |x, y| {
                !consecutive(x, y) && !double(x, y)
            });
            m.props.push(Prop::Pair(pair));
        }
    }
}
