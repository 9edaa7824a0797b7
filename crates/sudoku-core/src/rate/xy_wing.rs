//! XY-wing: a bivalue pivot {x,y} seeing two bivalue pincers {x,z} and
//! {y,z}. Whichever digit the pivot takes, one pincer is z, so z is removed
//! from every cell that sees both pincers.

use super::push_common_eliminations;
use super::step::Step;
use crate::candidates::{Candidates, low_digit};

pub(crate) fn find(c: &Candidates, step: &mut Step) -> bool {
    let l = c.layout();
    for pivot in 0..c.masks().len() {
        let pm = c.mask(pivot);
        if pm.count_ones() != 2 {
            continue;
        }
        let peers = &l.peers[pivot];
        for &p1 in peers {
            let m1 = c.mask(p1);
            // p1 = {x, z}: shares exactly one digit with the pivot.
            if m1.count_ones() != 2 || (m1 & pm).count_ones() != 1 {
                continue;
            }
            let x = m1 & pm;
            let z = m1 & !pm;
            let y = pm & !x;
            for &p2 in peers {
                if p2 <= p1 || c.mask(p2) != y | z {
                    continue;
                }
                let zd = low_digit(z);
                if !push_common_eliminations(c, step, p1, p2, zd, &[pivot]) {
                    continue;
                }
                step.cells.extend([pivot, p1, p2]);
                step.digits.extend([low_digit(x), low_digit(y), zd]);
                return true;
            }
        }
    }
    false
}
