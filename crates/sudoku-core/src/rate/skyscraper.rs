//! Skyscraper: two parallel lines where a digit has exactly two places
//! (conjugate pairs), with one end of each in a common perpendicular line.
//! One of the two other ends holds the digit, so it is removed from every
//! cell that sees both.

use super::step::Step;
use super::{conjugate_pair, push_chain, push_common_eliminations};
use crate::candidates::Candidates;

pub(crate) fn find(c: &Candidates, step: &mut Step) -> bool {
    let l = c.layout();
    let n = l.n;
    for d in 1..=n as u8 {
        for base in [0usize, n] {
            // index of the perpendicular line a cell lies in: column for rows, row for columns
            let perp = |cell: usize| {
                if base == 0 {
                    l.cell_houses[cell][1]
                } else {
                    l.cell_houses[cell][0]
                }
            };
            for i in 0..n {
                let Some(a) = conjugate_pair(c, base + i, d) else {
                    continue;
                };
                for j in i + 1..n {
                    let Some(b) = conjugate_pair(c, base + j, d) else {
                        continue;
                    };
                    for (x, y) in [(0, 0), (0, 1), (1, 0), (1, 1)] {
                        if perp(a[x]) != perp(b[y]) || perp(a[1 - x]) == perp(b[1 - y]) {
                            continue;
                        }
                        let (end1, end2) = (a[1 - x], b[1 - y]);
                        if !push_common_eliminations(c, step, end1, end2, d, &[a[x], b[y]]) {
                            continue;
                        }
                        step.digits.push(d);
                        step.cells.extend([end1, a[x], b[y], end2]);
                        step.houses.push(l.house(base + i));
                        step.houses.push(l.house(base + j));
                        push_chain(step, &[end1, a[x], b[y], end2], d);
                        return true;
                    }
                }
            }
        }
    }
    false
}
