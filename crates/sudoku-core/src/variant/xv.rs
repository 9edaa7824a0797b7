//! XV, and the rule that all Xs and Vs are given.
//!
//! **Rule.** An X between two neighbouring cells: their digits sum to 10. A
//! V: they sum to 5 (`.X~R1C1~R1C2`, `.V~…`; more cells mark every two
//! neighbouring cells of the list, as for kropki dots). With `.StrictXV` every X and V is given:
//! neighbours without one sum to neither 5 nor 10.

use super::kropki::{marked_pairs, neighbour_pairs, orthogonal_pairs};
use super::prim::Pair;
use super::solver::{Model, Prop};
use super::{Constraint, Shape};

pub(crate) fn lower(cells: &[u16], total: u8, shape: Shape, m: &mut Model) -> Result<(), String> {
    for (a, b) in neighbour_pairs(cells, shape) {
        let pair = Pair::new(a, b, shape.side(), |x, y| x + y == total);
        m.props.push(Prop::Pair(pair));
    }
    Ok(())
}

/// "All XVs given": unmarked neighbours sum to neither 5 nor 10.
pub(crate) fn lower_strict(constraints: &[Constraint], shape: Shape, m: &mut Model) {
    let marked = marked_pairs(constraints, shape, |c| match c {
        Constraint::X(x) | Constraint::V(x) => Some(x),
        _ => None,
    });
    for (a, b) in orthogonal_pairs(shape) {
        if marked.binary_search(&(a, b)).is_err() {
            let pair = Pair::new(a, b, shape.side(), |x, y| x + y != 5 && x + y != 10);
            m.props.push(Prop::Pair(pair));
        }
    }
}
