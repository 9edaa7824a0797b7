//! W-wing: two cells with the same two candidates {x,y} that do not see each
//! other, and a house where x has exactly two places, one seeing each cell.
//! The two cells cannot both be x, so one of them is y: y is removed from
//! every cell that sees both.

use super::step::Step;
use super::{conjugate_pair, push_common_eliminations};
use crate::candidates::{Candidates, bit, digits};

pub(crate) fn find(c: &Candidates, step: &mut Step) -> bool {
    let l = c.layout();
    let cells = c.masks().len();
    for a in 0..cells {
        let m = c.mask(a);
        if m.count_ones() != 2 {
            continue;
        }
        for b in a + 1..cells {
            if c.mask(b) != m || l.sees(a, b) {
                continue;
            }
            for x in digits(m) {
                let y = digits(m & !bit(x)).next().unwrap_or(x);
                for h in 0..l.houses.len() {
                    let Some([p, q]) = conjugate_pair(c, h, x) else {
                        continue;
                    };
                    if [p, q].iter().any(|&e| e == a || e == b) {
                        continue;
                    }
                    let (p, q) = if l.sees(p, a) && l.sees(q, b) {
                        (p, q)
                    } else if l.sees(q, a) && l.sees(p, b) {
                        (q, p)
                    } else {
                        continue;
                    };
                    if !push_common_eliminations(c, step, a, b, y, &[]) {
                        continue;
                    }
                    step.cells.extend([a, b, p, q]);
                    step.digits.extend([x, y]);
                    step.houses.push(l.house(h));
                    return true;
                }
            }
        }
    }
    false
}
