//! The board: one 27-bit word per (digit, band), and the propagation to a
//! fixpoint of naked singles, hidden singles and band/stack locked candidates.
// Index loops over bands and digits read better than zipped iterators here.
#![allow(clippy::needless_range_loop)]

use super::arch::Bits;
use super::tables::{BAND, BOX_MASK, PEERS, PERM, ROW_BCAST, STACK_MASK, TRIAD_EXPAND};

/// Search state for one node: 128 bytes, copied whole at a choice point.
///
/// `cand[3·d + b]` holds, for digit `d + 1` and band `b`, the cells of the
/// band where the digit can still go (bit `9·r + c`). A placed digit stays in
/// its own word, so every digit word always holds one cell per row, column
/// and box in a solution. `solved[b]` marks cells whose placement has been
/// propagated (all other digits removed, the digit removed from the peers).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C, align(64))]
pub(crate) struct Board {
    pub(crate) cand: [u32; 27],
    pub(crate) solved: [u32; 3],
    pad: [u32; 2],
}

impl Board {
    /// A board from per-cell candidate masks (bit `d - 1` for digit `d`).
    pub(crate) fn from_masks(masks: &[u16; 81]) -> Board {
        let mut b = Board {
            cand: [0; 27],
            solved: [0; 3],
            pad: [0; 2],
        };
        for (cell, &m) in masks.iter().enumerate() {
            let (band, bit) = (cell / 27, 1u32 << (cell % 27));
            for d in 0..9 {
                if m & (1 << d) != 0 {
                    b.cand[3 * d + band] |= bit;
                }
            }
        }
        b
    }

    /// Whether every cell is placed.
    #[inline(always)]
    pub(crate) fn is_solved(&self) -> bool {
        self.solved[0] & self.solved[1] & self.solved[2] == BAND
    }

    /// Write the digits of a solved board, row-major, into `out`.
    pub(crate) fn write_digits(&self, out: &mut [u8]) {
        for d in 0..9 {
            for b in 0..3 {
                let mut w = self.cand[3 * d + b];
                while w != 0 {
                    out[27 * b + w.trailing_zeros() as usize] = d as u8 + 1;
                    w &= w - 1;
                }
            }
        }
    }

    /// Keep only digit `d` (0-based) in the cell at (`band`, `bit`).
    #[inline(always)]
    pub(crate) fn assign(&mut self, d: usize, band: usize, bit: u32) {
        for e in 0..9 {
            if e != d {
                self.cand[3 * e + band] &= !bit;
            }
        }
    }

    /// The digits (bit `d`, 0-based) still possible in the cell at (`band`, `bit`).
    #[inline(always)]
    pub(crate) fn digits_at(&self, band: usize, bit: u32) -> u32 {
        let mut m = 0;
        for d in 0..9 {
            m |= u32::from(self.cand[3 * d + band] & bit != 0) << d;
        }
        m
    }

    /// Remove digit `d` (0-based) from the cell at (`band`, `bit`).
    #[inline(always)]
    pub(crate) fn eliminate(&mut self, d: usize, band: usize, bit: u32) {
        self.cand[3 * d + band] &= !bit;
    }
}

/// Band-wise locked candidates for one digit: in each band keep only the
/// triads on some permutation (row × box), then in each stack keep only the
/// (column, band) pairs on some permutation. `false` if the digit has no
/// place left in some row, column or box.
#[inline(always)]
fn locked<K: Bits>(k: K, v: &mut [u32; 3]) -> bool {
    let mut ok = true;
    for w in v.iter_mut() {
        let a = PERM[k.triads(*w) as usize] as usize;
        ok &= a != 0;
        *w &= TRIAD_EXPAND[a];
    }
    let cols = |x: u32| (x | (x >> 9) | (x >> 18)) & 0x1ff;
    let w = cols(v[0]) | (cols(v[1]) << 9) | (cols(v[2]) << 18);
    let mut allowed = 0;
    for m in STACK_MASK {
        let a = PERM[k.gather(w, m) as usize] as u32;
        ok &= a != 0;
        allowed |= k.scatter(a, m);
    }
    for (b, x) in v.iter_mut().enumerate() {
        *x &= ((allowed >> (9 * b)) & 0x1ff).wrapping_mul(ROW_BCAST);
    }
    ok
}

/// Cells of the digit word `v` (three bands) that are the only place of the
/// digit in their row, column or box.
#[inline(always)]
fn hidden_singles(v: &[u32; 3]) -> [u32; 3] {
    let mut out = [0u32; 3];
    let mut once = [0u32; 3];
    let mut present = [0u32; 3];
    for b in 0..3 {
        let w = v[b];
        let (r0, r1, r2) = (w & 0x1ff, (w >> 9) & 0x1ff, w >> 18);
        let mut s = 0;
        for (i, r) in [r0, r1, r2].into_iter().enumerate() {
            if r & r.wrapping_sub(1) == 0 {
                s |= r << (9 * i);
            }
        }
        for m in BOX_MASK {
            let x = w & m;
            if x & x.wrapping_sub(1) == 0 {
                s |= x;
            }
        }
        out[b] = s;
        once[b] = (r0 ^ r1 ^ r2) & !(r0 & r1 & r2);
        present[b] = r0 | r1 | r2;
    }
    let (p0, p1, p2) = (present[0], present[1], present[2]);
    let one_band = (p0 ^ p1 ^ p2) & !(p0 & p1 & p2);
    for b in 0..3 {
        let col = one_band & once[b];
        out[b] |= v[b] & col.wrapping_mul(ROW_BCAST);
    }
    out
}

/// Propagate to a fixpoint. `dirty` has bit `d` set for each digit whose
/// word changed since the board was last propagated (all nine for a fresh
/// board). `false` on a contradiction (a cell without candidates, a digit
/// without a place in a house, or two placements that clash).
#[inline(always)]
pub(crate) fn propagate<K: Bits>(k: K, bd: &mut Board, mut dirty: u32) -> bool {
    #[cfg(feature = "probe")]
    probe::CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    loop {
        #[cfg(feature = "probe")]
        probe::ROUNDS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        // Locked candidates and hidden singles for the digits that changed.
        let mut new = [0u32; 27];
        let mut again = 0u32;
        let mut ok = true;
        let mut ds = dirty;
        while ds != 0 {
            let d = ds.trailing_zeros() as usize;
            ds &= ds - 1;
            let old = [bd.cand[3 * d], bd.cand[3 * d + 1], bd.cand[3 * d + 2]];
            let mut v = old;
            ok &= locked(k, &mut v);
            if v != old {
                again |= 1 << d;
            }
            let h = hidden_singles(&v);
            for b in 0..3 {
                bd.cand[3 * d + b] = v[b];
                new[3 * d + b] = h[b] & !bd.solved[b];
            }
        }
        if !ok {
            return false;
        }
        // Cells with exactly one candidate; every cell needs at least one.
        let mut once = [0u32; 3];
        let mut twice = [0u32; 3];
        for d in 0..9 {
            for b in 0..3 {
                let x = bd.cand[3 * d + b];
                twice[b] |= once[b] & x;
                once[b] |= x;
            }
        }
        if (once[0] & once[1] & once[2]) != BAND {
            return false;
        }
        let mut naked = [0u32; 3];
        for b in 0..3 {
            naked[b] = once[b] & !twice[b] & !bd.solved[b];
        }
        let mut all = [0u32; 3];
        let mut clash = 0;
        let mut placing = 0u32;
        for d in 0..9 {
            let mut any = 0;
            for b in 0..3 {
                let n = new[3 * d + b] | (naked[b] & bd.cand[3 * d + b]);
                clash |= n & all[b];
                all[b] |= n;
                new[3 * d + b] = n;
                any |= n;
            }
            placing |= u32::from(any != 0) << d;
        }
        if clash != 0 {
            return false;
        }
        if placing == 0 {
            if again == 0 {
                return true;
            }
            dirty = again;
            continue;
        }
        // Place them: the digit leaves the peers, other digits leave the cell.
        dirty = again | placing;
        let mut ps = placing;
        while ps != 0 {
            let d = ps.trailing_zeros() as usize;
            ps &= ps - 1;
            for b in 0..3 {
                let mut n = new[3 * d + b];
                while n != 0 {
                    let cell = 27 * b + n.trailing_zeros() as usize;
                    let p = &PEERS[cell];
                    bd.cand[3 * d] &= !p[0];
                    bd.cand[3 * d + 1] &= !p[1];
                    bd.cand[3 * d + 2] &= !p[2];
                    n &= n - 1;
                }
            }
        }
        for d in 0..9 {
            let mut lost = 0;
            for b in 0..3 {
                let x = bd.cand[3 * d + b];
                let y = x & (!all[b] | new[3 * d + b]);
                lost |= x ^ y;
                bd.cand[3 * d + b] = y;
            }
            dirty |= u32::from(lost != 0) << d;
        }
        for b in 0..3 {
            bd.solved[b] |= all[b];
        }
    }
}

/// Counters for tuning (feature `probe`): propagate calls and rounds.
#[cfg(feature = "probe")]
pub mod probe {
    use std::sync::atomic::AtomicU64;
    /// Calls of `propagate`.
    pub static CALLS: AtomicU64 = AtomicU64::new(0);
    /// Rounds inside `propagate`.
    pub static ROUNDS: AtomicU64 = AtomicU64::new(0);
}

/// The branching choice on a propagated, unsolved board: (digit, band, bit).
///
/// `mode` 0: the first bivalue cell in row-major order. `mode` 1: the
/// bivalue cell whose two digits have the most candidates among its peers
/// (the choice that removes most whichever way it goes). Without a bivalue
/// cell: the first cell with the fewest candidates. The cell's lowest digit
/// is tried first.
#[inline(always)]
pub(crate) fn choose(bd: &Board, mode: u8) -> (usize, usize, u32) {
    let mut once = [0u32; 3];
    let mut twice = [0u32; 3];
    let mut thrice = [0u32; 3];
    for d in 0..9 {
        for b in 0..3 {
            let x = bd.cand[3 * d + b];
            thrice[b] |= twice[b] & x;
            twice[b] |= once[b] & x;
            once[b] |= x;
        }
    }
    let mut pick = None;
    if mode == 0 {
        for b in 0..3 {
            let bi = twice[b] & !thrice[b] & !bd.solved[b];
            if bi != 0 {
                pick = Some((b, bi & bi.wrapping_neg()));
                break;
            }
        }
    } else {
        let mut best = 0;
        for b in 0..3 {
            let mut bi = twice[b] & !thrice[b] & !bd.solved[b];
            while bi != 0 {
                let bit = bi & bi.wrapping_neg();
                bi &= bi - 1;
                let p = &PEERS[27 * b + bit.trailing_zeros() as usize];
                let mut score = if mode == 1 { 0 } else { 1 };
                for d in 0..9 {
                    if bd.cand[3 * d + b] & bit != 0 {
                        let n = (bd.cand[3 * d] & p[0]).count_ones()
                            + (bd.cand[3 * d + 1] & p[1]).count_ones()
                            + (bd.cand[3 * d + 2] & p[2]).count_ones();
                        match mode {
                            1 => score += n,
                            2 => score *= n + 1,
                            _ => score = score.max(1) * (n + 3),
                        }
                    }
                }
                if score > best {
                    best = score;
                    pick = Some((b, bit));
                }
            }
        }
    }
    let (band, bit) = pick.unwrap_or_else(|| {
        let mut best = (u32::MAX, 0, 0);
        for b in 0..3 {
            let mut open = BAND & !bd.solved[b];
            while open != 0 {
                let bit = open & open.wrapping_neg();
                let n: u32 = (0..9).map(|d| (bd.cand[3 * d + b] & bit != 0) as u32).sum();
                if n < best.0 {
                    best = (n, b, bit);
                }
                open &= open - 1;
            }
        }
        (best.1, best.2)
    });
    let d = (0..9)
        .find(|&d| bd.cand[3 * d + band] & bit != 0)
        .expect("an unsolved cell of a propagated board has candidates");
    (d, band, bit)
}
