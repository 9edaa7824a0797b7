//! Unique rectangle type 1: four cells at the corners of a rectangle in two
//! rows, two columns and two boxes, three of them holding only {x,y} and the
//! fourth holding x, y and more. If the fourth were x or y, the four cells
//! could swap x and y and the puzzle would have two solutions; so, in a
//! puzzle with a unique solution, x and y are removed from the fourth cell.

use super::step::{CellDigit, Step};
use crate::candidates::{Candidates, digits};

pub(crate) fn find(c: &Candidates, step: &mut Step) -> bool {
    let l = c.layout();
    let n = l.n;
    let s = l.size;
    for r1 in 0..n {
        for c1 in 0..n {
            let a = s.cell(r1, c1);
            let m = c.mask(a);
            if m.count_ones() != 2 {
                continue;
            }
            for c2 in c1 + 1..n {
                let b = s.cell(r1, c2);
                if c.mask(b) != m {
                    continue;
                }
                for r2 in 0..n {
                    if r2 == r1 {
                        continue;
                    }
                    let (e, f) = (s.cell(r2, c1), s.cell(r2, c2));
                    let same_band = l.cell_houses[a][2] == l.cell_houses[b][2];
                    let same_stack = l.cell_houses[a][2] == l.cell_houses[e][2];
                    if same_band == same_stack {
                        continue; // one box or four boxes
                    }
                    let (me, mf) = (c.mask(e), c.mask(f));
                    let roof_and_floor = if me == m && mf & m == m && mf != m {
                        Some((e, f))
                    } else if mf == m && me & m == m && me != m {
                        Some((f, e))
                    } else {
                        None
                    };
                    let Some((floor, roof)) = roof_and_floor else {
                        continue;
                    };
                    step.cells.extend([a, b, floor, roof]);
                    step.digits.extend(digits(m));
                    for d in digits(m) {
                        step.eliminations.push(CellDigit {
                            cell: roof,
                            digit: d,
                        });
                    }
                    return true;
                }
            }
        }
    }
    false
}
