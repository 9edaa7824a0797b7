//! Non-consecutive.
//!
//! **Rule.** Orthogonally neighbouring cells never hold consecutive digits
//! (`.AntiConsecutive`).

use super::Shape;
use super::kropki::orthogonal_pairs;
use super::prim::Pair;
use super::solver::{Model, Prop};

pub(crate) fn lower(shape: Shape, m: &mut Model) -> Result<(), String> {
    for (a, b) in orthogonal_pairs(shape) {
        let pair = Pair::new(a, b, shape.side(), |x, y| x.abs_diff(y) != 1);
        m.props.push(Prop::Pair(pair));
    }
    Ok(())
}
