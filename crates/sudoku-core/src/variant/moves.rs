//! Anti-knight and anti-king.
//!
//! **Rule.** Two cells a chess knight's move apart (anti-knight,
//! `.AntiKnight`) or a king's move apart (anti-king, `.AntiKing`: the
//! diagonal neighbours, as the orthogonal ones already share a row or
//! column) never hold the same digit. These only add "must differ" pairs
//! (and, for anti-knight, the houses' rule of the `sight` module).

use super::Shape;
use super::solver::Model;

/// A knight's moves.
pub(crate) const KNIGHT: &[(i8, i8)] = &[
    (-2, -1),
    (-2, 1),
    (-1, -2),
    (-1, 2),
    (1, -2),
    (1, 2),
    (2, -1),
    (2, 1),
];

/// A king's moves.
pub(crate) const KING: &[(i8, i8)] = &[
    (-1, -1),
    (-1, 0),
    (-1, 1),
    (0, -1),
    (0, 1),
    (1, -1),
    (1, 0),
    (1, 1),
];

pub(crate) fn lower(moves: &'static [(i8, i8)], shape: Shape, m: &mut Model) -> Result<(), String> {
    // Anti-knight only: on anti-king grids (Hard renban 2 of ISS's
    // examples) the rule cost more time than its smaller tree saved.
    m.far_pairs |= moves == KNIGHT;
    for i in 0..shape.cells() {
        for other in shape.offsets(shape.cell(i), moves) {
            let j = shape.index(other);
            if j > i {
                m.distinct.push((i as u16, j as u16));
            }
        }
    }
    Ok(())
}
