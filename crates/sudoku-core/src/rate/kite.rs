//! Two-string kite: a conjugate pair of a digit in a row and one in a
//! column, with one end of each in a common box. One of the two other ends
//! holds the digit, so it is removed from every cell that sees both.

use super::step::Step;
use super::{conjugate_pair, push_chain, push_common_eliminations};
use crate::candidates::Candidates;

pub(crate) fn find(c: &Candidates, step: &mut Step) -> bool {
    let l = c.layout();
    let n = l.n;
    for d in 1..=n as u8 {
        for r in 0..n {
            let Some(row) = conjugate_pair(c, r, d) else {
                continue;
            };
            for col_i in 0..n {
                let Some(col) = conjugate_pair(c, n + col_i, d) else {
                    continue;
                };
                for (x, y) in [(0, 0), (0, 1), (1, 0), (1, 1)] {
                    let (link_r, end_r, link_c, end_c) = (row[x], row[1 - x], col[y], col[1 - y]);
                    let distinct =
                        link_r != link_c && end_r != end_c && end_r != link_c && end_c != link_r;
                    if !distinct || l.cell_houses[link_r][2] != l.cell_houses[link_c][2] {
                        continue;
                    }
                    if !push_common_eliminations(c, step, end_r, end_c, d, &[link_r, link_c]) {
                        continue;
                    }
                    step.digits.push(d);
                    step.cells.extend([end_r, link_r, link_c, end_c]);
                    step.houses.push(l.house(r));
                    step.houses.push(l.house(n + col_i));
                    step.houses.push(l.house(l.cell_houses[link_r][2]));
                    push_chain(step, &[end_r, link_r, link_c, end_c], d);
                    return true;
                }
            }
        }
    }
    false
}
