//! XY-wing (4.2) and XYZ-wing (4.4) as Sudoku Explainer's `XYWing` producer
//! searches them: the pivot in reading order, then each pincer among its
//! peers in reading order, then the other pincer likewise; the z digit is
//! removed from the cells that see both pincers (and the pivot, for the
//! XYZ-wing).

use super::SeStep;
use super::board::Ones;
use super::board::{Board, CELL_BIT, PEER_MASK, PEERS, digits};

/// An XY-wing, or with `xyz` an XYZ-wing.
pub(super) fn xy(b: &Board, step: &mut SeStep, xyz: bool) -> bool {
    let target = if xyz { 3 } else { 2 };
    for xy in 0..81 {
        let xy_v = b.cand[xy];
        if xy_v.ones() != target {
            continue;
        }
        // The bivalue peers, in Explainer's (ascending) order.
        let mut pairs = [0usize; 20];
        let mut n = 0;
        for &p in &PEERS[xy] {
            if b.cand[p as usize].ones() == 2 {
                pairs[n] = p as usize;
                n += 1;
            }
        }
        let pairs = &pairs[..n];
        for &xz in pairs {
            let xz_v = b.cand[xz];
            if (xy_v & !xz_v).ones() != 1 {
                continue;
            }
            for &yz in pairs {
                let yz_v = b.cand[yz];
                let union = xy_v | xz_v | yz_v;
                let inter = xy_v & xz_v & yz_v;
                let ok = union.ones() == 3 && inter.ones() == u32::from(xyz);
                if !ok {
                    continue;
                }
                let z = digits(xz_v & yz_v).next().unwrap_or(0);
                if z == 0 {
                    continue;
                }
                // The victims: z's cells seeing xz and yz (and xy, for
                // the XYZ-wing), other than xy; ascending, as Explainer's
                // cell sets iterate xz's peers.
                let mut victims = PEER_MASK[xz] & PEER_MASK[yz] & b.cells_of(z) & !CELL_BIT[xy];
                if xyz {
                    victims &= PEER_MASK[xy];
                }
                let any = victims != 0;
                while victims != 0 {
                    step.remove(victims.trailing_zeros() as usize, z);
                    victims &= victims - 1;
                }
                if any {
                    step.set(
                        if xyz { "XYZ-Wing" } else { "XY-Wing" },
                        if xyz { 44 } else { 42 },
                    );
                    step.cells.extend([xy, xz, yz]);
                    step.digits.extend(digits(union));
                    return true;
                }
            }
        }
    }
    false
}
