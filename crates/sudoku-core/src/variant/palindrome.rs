//! Palindromes.
//!
//! **Rule.** The digits along the line read the same from either end: the
//! first equals the last, the second the second-to-last, and so on
//! (`.Palindrome~…`).

use super::Shape;
use super::prim::Pair;
use super::solver::{Model, Prop};

pub(crate) fn lower(cells: &[u16], shape: Shape, m: &mut Model) -> Result<(), String> {
    let k = cells.len();
    for i in 0..k / 2 {
        let (a, b) = (cells[i], cells[k - 1 - i]);
        if a != b {
            m.props
                .push(Prop::Pair(Pair::new(a, b, shape.side(), |x, y| x == y)));
        }
    }
    Ok(())
}
