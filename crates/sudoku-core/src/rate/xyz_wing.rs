//! XYZ-wing: a pivot {x,y,z} seeing two bivalue pincers {x,z} and {y,z}.
//! One of the three cells is z, so z is removed from every cell that sees
//! all three.

use super::step::{CellDigit, Step};
use crate::candidates::{Candidates, low_digit};

pub(crate) fn find(c: &Candidates, step: &mut Step) -> bool {
    let l = c.layout();
    for pivot in 0..c.masks().len() {
        let pm = c.mask(pivot);
        if pm.count_ones() != 3 {
            continue;
        }
        let peers = &l.peers[pivot];
        for &p1 in peers {
            let m1 = c.mask(p1);
            if m1.count_ones() != 2 || m1 & !pm != 0 {
                continue;
            }
            for &p2 in peers {
                let m2 = c.mask(p2);
                if p2 <= p1 || m2.count_ones() != 2 || m2 & !pm != 0 || m2 == m1 {
                    continue;
                }
                let z = m1 & m2;
                let zd = low_digit(z);
                let mut any = false;
                for &t in peers {
                    if t != p1 && t != p2 && c.mask(t) & z != 0 && l.sees(t, p1) && l.sees(t, p2) {
                        step.eliminations.push(CellDigit { cell: t, digit: zd });
                        any = true;
                    }
                }
                if !any {
                    continue;
                }
                step.cells.extend([pivot, p1, p2]);
                step.digits
                    .extend([low_digit(m1 & !z), low_digit(m2 & !z), zd]);
                return true;
            }
        }
    }
    false
}
