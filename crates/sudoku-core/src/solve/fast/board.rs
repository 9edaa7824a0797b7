//! The board: one 4-lane vector of band words per digit, and the
//! propagation to a fixpoint of naked singles, hidden singles and band/stack
//! locked candidates.

// Index loops over bands and digits read better than zipped iterators here.
#![allow(clippy::needless_range_loop)]

use super::arch::{Lanes, SLOTS};
use super::tables::{BAND, BOX_MASK, PEERS, SPLIT, TRIAD_EXPAND};

/// Search state for one node: 256 bytes, copied whole at a choice point.
///
/// `cand[d][b]` holds, for digit `d + 1` and band `b`, the cells of the
/// band where the digit can still go (bit `9·r + c` for row `r` of the band
/// and column `c`); lane 3 and the digit slots 9..12 are zero padding. A placed digit stays in its own
/// word, so in a solution every digit word holds one cell per row, column
/// and box. `solved[.][b]` marks the cells whose placement has been propagated
/// (other digits removed from the cell, the digit removed from its peers).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C, align(64))]
pub(crate) struct Board {
    pub(crate) cand: [[u32; 4]; SLOTS],
    /// The same set repeated in four slots, so any kernel loads it whole.
    pub(crate) solved: [[u32; 4]; 4],
}

/// A change to apply to a board before propagating it: keep only digit
/// `d` (0-based) in the cell at (`band`, `bit`), or remove it from there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Act {
    /// Nothing to apply.
    None,
    /// Place digit `d` in the cell.
    Assign { d: usize, band: usize, bit: u32 },
    /// Remove digit `d` from the cell.
    Eliminate { d: usize, band: usize, bit: u32 },
    /// Keep digit `d` only in the cells of `mask` (one word per band): a
    /// layout branch in `unit` (bands 0..3, stacks 3..6).
    Keep {
        d: usize,
        unit: usize,
        mask: [u32; 3],
    },
}

/// Dead ends met at once by the layout branches of one search, per (unit,
/// digit) (see [`Act::Keep`]): [`choose_layouts`]' tie-break among a
/// unit's digits, the most failed first.
///
/// A failure count per variable is the idea of the weighted-degree
/// heuristics of constraint programming (Boussemart, Hemery, Lecoutre and
/// Sais, "Boosting systematic search by weighting constraints", ECAI
/// 2004); used here only to break ties of the layout count, it cut
/// forum_hardest_1106's tree by 6% (see BENCHMARKS.md). Reset per search.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Failures([[u8; 9]; 6]);

impl Failures {
    /// Count a dead end met right after `act`.
    #[inline(always)]
    pub(crate) fn note(&mut self, act: &Act) {
        if let Act::Keep { d, unit, .. } = *act {
            let w = &mut self.0[unit][d];
            *w = w.saturating_add(1);
        }
    }

    /// Dead ends after layout branches of digit `d` in `unit`, at most 63.
    #[inline(always)]
    fn of(&self, unit: usize, d: usize) -> u32 {
        u32::from(self.0[unit][d].min(63))
    }
}

/// `ONE_DIGIT[d]`: all ones in digit `d`'s slot, zero elsewhere.
pub(crate) static ONE_DIGIT: [[[u32; 4]; SLOTS]; 9] = one_digit();

const fn one_digit() -> [[[u32; 4]; SLOTS]; 9] {
    let mut out = [[[0; 4]; SLOTS]; 9];
    let mut d = 0;
    while d < 9 {
        out[d][d] = [u32::MAX; 4];
        d += 1;
    }
    out
}

/// `ONE_BAND[b]`: all ones in lane `b` of every slot.
pub(crate) static ONE_BAND: [[[u32; 4]; 4]; 3] = [
    [[u32::MAX, 0, 0, 0]; 4],
    [[0, u32::MAX, 0, 0]; 4],
    [[0, 0, u32::MAX, 0]; 4],
];

/// `CELL_PEERS[cell]`: the cell and its 20 peers (see [`PEERS`]), per
/// band, repeated in four slots so any kernel loads it whole (like
/// [`Board::solved`]).
static CELL_PEERS: [[[u32; 4]; 4]; 81] = cell_peers();

const fn cell_peers() -> [[[u32; 4]; 4]; 81] {
    let mut out = [[[0; 4]; 4]; 81];
    let mut cell = 0;
    while cell < 81 {
        let mut p = PEERS[cell];
        p[cell / 27] |= 1 << (cell % 27);
        out[cell] = [p; 4];
        cell += 1;
    }
    out
}

/// Per digit slot: all ones in the band lanes of real digits.
pub(crate) static VALID: [[u32; 4]; SLOTS] = slots([u32::MAX, u32::MAX, u32::MAX, 0]);
/// Per digit slot: bit 0 of each stack's column group, real digits only.
pub(crate) static STACKS: [[u32; 4]; SLOTS] = slots([0o111, 0o111, 0o111, 0]);

const fn slots(x: [u32; 4]) -> [[u32; 4]; SLOTS] {
    let mut out = [[0; 4]; SLOTS];
    let mut d = 0;
    while d < 9 {
        out[d] = x;
        d += 1;
    }
    out
}

impl Board {
    /// A board from per-cell candidate masks (bit `d - 1` for digit `d`).
    pub(crate) fn from_masks(masks: &[u16; 81]) -> Board {
        // Bits above the ninth are ignored.
        let mut b = Board {
            cand: slots([BAND, BAND, BAND, 0]),
            solved: [[0; 4]; 4],
        };
        for (cell, &m) in masks.iter().enumerate() {
            let mut gone = !m & 0x1ff;
            if gone != 0 {
                let (band, bit) = (cell / 27, 1u32 << (cell % 27));
                while gone != 0 {
                    b.cand[gone.trailing_zeros() as usize][band] &= !bit;
                    gone &= gone - 1;
                }
            }
        }
        b
    }

    /// A board from givens (row-major, 0 = empty, digits 1..=9; a cell
    /// holding anything else gives an unspecified board, never a panic).
    /// Cells past the 81st are ignored; missing ones count as empty.
    #[inline(always)]
    pub(crate) fn from_givens<L: Lanes>(l: L, cells: &[u8]) -> Board {
        let mut padded = [0u8; 96];
        let n = cells.len().min(81);
        padded[..n].copy_from_slice(&cells[..n]);
        let by_digit = l.band_digits(&padded);
        let mut any = [0u32; 3];
        for g in &by_digit {
            for b in 0..3 {
                any[b] |= g[b];
            }
        }
        let mut cand = [[0u32; 4]; SLOTS];
        for d in 0..9 {
            for b in 0..3 {
                cand[d][b] = (BAND & !any[b]) | by_digit[d][b];
            }
        }
        Board {
            cand,
            solved: [[0; 4]; 4],
        }
    }

    /// Whether every cell is placed.
    #[inline(always)]
    pub(crate) fn is_solved(&self) -> bool {
        self.solved[0][0] & self.solved[0][1] & self.solved[0][2] == BAND
    }

    /// Write the digits of a solved board, row-major, into `out` (its
    /// first 81 cells).
    ///
    /// Branch-free: the four bit-planes of the digits, per band, spread
    /// eight cells at a time into bytes.
    #[inline(always)]
    pub(crate) fn write_digits<L: Lanes>(&self, l: L, out: &mut [u8]) {
        let mut planes = [[0u32; 3]; 4];
        for d in 0..9 {
            for (k, plane) in planes.iter_mut().enumerate() {
                if (d + 1) >> k & 1 == 1 {
                    for b in 0..3 {
                        plane[b] |= self.cand[d][b];
                    }
                }
            }
        }
        // Eight bytes per step; a band's last step runs into the next
        // band, which overwrites it.
        let mut buf = [0u8; 88];
        for b in 0..3 {
            for c in 0..4 {
                let at_c = |k: usize| (planes[k][b] >> (8 * c)) & 0xff;
                let bits = [at_c(0), at_c(1), at_c(2), at_c(3)];
                let at = 27 * b + 8 * c;
                buf[at..at + 8].copy_from_slice(&l.spread_bytes(bits).to_le_bytes());
            }
        }
        let n = out.len().min(81);
        out[..n].copy_from_slice(&buf[..n]);
    }
}

/// Band-wise locked candidates for `W` digits (three bands each) at once: keep in
/// each band only the triads (row × box) on some permutation matrix of the
/// band's triad occupancy, then in each stack only the (band × column) pairs
/// on some permutation. The second vector is non-zero if a digit has no
/// place left in some row, column or box.
///
/// A 3×3 entry is on a permutation inside `t` exactly when `t` has it and
/// the 2×2 minor of the other rows and columns has a perfect matching, which
/// cyclic rotations of rows (shifts by 9) and boxes (shifts by 3 inside a
/// row) express with bit operations. For stacks the rows are the bands
/// (lane rotations) and the columns the three columns of the stack.
#[inline(always)]
pub(crate) fn locked<L: Lanes>(l: L, v: L::V, valid: L::V, stacks: L::V) -> (L::V, L::V) {
    // Band step: triad occupancy on the low bit of each triad.
    let y = l.and(
        l.or(l.or(v, l.shr::<1>(v)), l.shr::<2>(v)),
        l.splat(0o111_111_111),
    );
    // k1: triad of box k+1 moved to box k; k2: box k+2 to box k (mod 3, per row).
    let k1 = l.or(
        l.and(l.shr::<3>(y), l.splat(0o011_011_011)),
        l.and(l.shl::<6>(y), l.splat(0o100_100_100)),
    );
    let k2 = l.or(
        l.and(l.shr::<6>(y), l.splat(0o001_001_001)),
        l.and(l.shl::<3>(y), l.splat(0o110_110_110)),
    );
    // rows_down: row r+1 moved to row r; rows_up: row r+2 (r-1) to row r.
    let a = l.and(
        y,
        l.or(
            l.and(rows_down(l, k1), rows_up(l, k2)),
            l.and(rows_down(l, k2), rows_up(l, k1)),
        ),
    );
    let bad_band = l.and(l.is_zero_mask(a), valid);
    let v = l.and(v, l.or(l.or(a, l.shl::<1>(a)), l.shl::<2>(a)));
    // Stack step: column sets per band.
    let c = l.and(l.or(l.or(v, l.shr::<9>(v)), l.shr::<18>(v)), l.splat(0x1ff));
    let j1 = l.or(
        l.and(l.shr::<1>(c), l.splat(0o333)),
        l.and(l.shl::<2>(c), l.splat(0o444)),
    );
    let j2 = l.or(
        l.and(l.shr::<2>(c), l.splat(0o111)),
        l.and(l.shl::<1>(c), l.splat(0o666)),
    );
    let ac = l.and(
        c,
        l.or(l.and(l.rot1(j1), l.rot2(j2)), l.and(l.rot1(j2), l.rot2(j1))),
    );
    let s = l.or(l.or(ac, l.rot1(ac)), l.rot2(ac));
    let fold = l.and(l.or(l.or(s, l.shr::<1>(s)), l.shr::<2>(s)), l.splat(0o111));
    let bad_stack = l.andnot(fold, stacks);
    let v = l.and(v, l.or(l.or(ac, l.shl::<9>(ac)), l.shl::<18>(ac)));
    (v, l.or(bad_band, bad_stack))
}

/// The band's rows rotated: row `r` gets row `r + 1` (mod 3).
#[inline(always)]
pub(crate) fn rows_down<L: Lanes>(l: L, x: L::V) -> L::V {
    l.and(l.or(l.shr::<9>(x), l.shl::<18>(x)), l.splat(BAND))
}

/// The inverse of [`rows_down`]: row `r + 1` gets row `r`.
#[inline(always)]
pub(crate) fn rows_up<L: Lanes>(l: L, x: L::V) -> L::V {
    l.and(l.or(l.shl::<9>(x), l.shr::<18>(x)), l.splat(BAND))
}

/// Per-band counters over all nine digits of `x` (one vector per digit
/// group), in every digit slot: at least one, two, three and four digits.
#[inline(always)]
fn count4<L: Lanes>(l: L, x: &[L::V]) -> [L::V; 4] {
    let zero = l.splat(0);
    let (mut o, mut t, mut h, mut f) = (zero, zero, zero, zero);
    for &v in x {
        f = l.or(f, l.and(h, v));
        h = l.or(h, l.and(t, v));
        t = l.or(t, l.and(o, v));
        o = l.or(o, v);
    }
    l.fold4([o, t, h, f])
}

/// Row triads (bit `9·r + 3·k`) of the same row, other boxes, moved onto a
/// triad.
#[inline(always)]
fn row_oth<L: Lanes>(l: L, z: L::V) -> L::V {
    l.or(
        l.or(
            l.and(l.shr::<3>(z), l.splat(0o011_011_011)),
            l.and(l.shl::<6>(z), l.splat(0o100_100_100)),
        ),
        l.or(
            l.and(l.shr::<6>(z), l.splat(0o001_001_001)),
            l.and(l.shl::<3>(z), l.splat(0o110_110_110)),
        ),
    )
}

/// Row triads (bit `9·r + 3·k`) of the band's other rows, same box, moved
/// onto a triad.
#[inline(always)]
fn box_oth<L: Lanes>(l: L, z: L::V) -> L::V {
    l.and(
        l.or(
            l.or(l.shr::<9>(z), l.shl::<9>(z)),
            l.or(l.shr::<18>(z), l.shl::<18>(z)),
        ),
        l.splat(BAND),
    )
}

/// Column triads (bit `c` of a band's lane) of the other bands, same
/// column, moved onto a triad.
#[inline(always)]
fn col_oth<L: Lanes>(l: L, z: L::V) -> L::V {
    l.or(l.rot1(z), l.rot2(z))
}

/// Column triads of the stack's other columns in the same band moved onto
/// a triad.
#[inline(always)]
fn boxc_oth<L: Lanes>(l: L, z: L::V) -> L::V {
    l.or(
        l.or(
            l.and(l.shr::<1>(z), l.splat(0o333)),
            l.and(l.shl::<2>(z), l.splat(0o444)),
        ),
        l.or(
            l.and(l.shr::<2>(z), l.splat(0o111)),
            l.and(l.shl::<1>(z), l.splat(0o666)),
        ),
    )
}

/// Triad subsets, on rows (a row's three cells inside a box) and columns
/// (a column's three cells inside a box) alike: the three cells of a triad
/// hold three different digits, so
///
/// - fewer than three digits with a place in a triad is a contradiction;
/// - exactly three (a naked triple in the triad): each of them is placed
///   in the triad, so it leaves the rest of the triad's row (or column)
///   and box;
/// - a digit whose only place in the row (column) or box is the triad is
///   placed in it; more than three such digits is a contradiction, exactly
///   three (a hidden triple) push every other digit out of the triad.
///
/// Counted bit-sliced over all digits at once, like the singles. (tdoku's
/// design notes, "Cardinality Constraints", state the same fact as an
/// exactly-three constraint over a triad's digit literals in its SAT
/// encoding; this formulation and the code are ours.) Rows are done
/// first, columns from what rows leave. `live` marks the band lanes of a
/// real digit slot; the result is non-zero on a contradiction.
#[inline(always)]
pub(crate) fn triads<L: Lanes>(l: L, cand: &mut [L::V], live: L::V) -> L::V {
    let zero = l.splat(0);
    let t9 = l.splat(0o111_111_111);
    let c9 = l.splat(0x1ff);
    let n = cand.len();
    // Rows: triad (r, k) on bit 9·r + 3·k of a digit's band word; the
    // digits with a place there are counted on that bit, the digits placed
    // there by the row or box (no other place) on the bit above, in one
    // count.
    let mut y = [zero; 12];
    let mut f = [zero; 12];
    let mut yf = [zero; 12];
    for g in 0..n {
        let v = cand[g];
        y[g] = l.and(l.or(l.or(v, l.shr::<1>(v)), l.shr::<2>(v)), t9);
        f[g] = l.andnot(l.and(row_oth(l, y[g]), box_oth(l, y[g])), y[g]);
        yf[g] = l.or(y[g], l.shl::<1>(f[g]));
    }
    let [_, _, c3, c4] = count4(l, &yf[..n]);
    let at = l.and(t9, live);
    let mut bad = l.or(l.andnot(c3, at), l.and(l.shr::<1>(c4), at));
    let exact = l.andnot(c4, c3);
    let (ex, hx) = (l.and(exact, t9), l.and(l.shr::<1>(exact), t9));
    for g in 0..n {
        let m = l.and(y[g], ex);
        let e = l.or(
            l.or(row_oth(l, m), box_oth(l, m)),
            l.andnot(f[g], l.and(hx, y[g])),
        );
        let e = l.or(l.or(e, l.shl::<1>(e)), l.shl::<2>(e));
        cand[g] = l.andnot(e, cand[g]);
    }
    // Columns: triad (band, column) on bit c of the band's lane; the
    // forced digits counted nine bits up.
    for g in 0..n {
        let v = cand[g];
        y[g] = l.and(l.or(l.or(v, l.shr::<9>(v)), l.shr::<18>(v)), c9);
        f[g] = l.andnot(l.and(col_oth(l, y[g]), boxc_oth(l, y[g])), y[g]);
        yf[g] = l.or(y[g], l.shl::<9>(f[g]));
    }
    let [_, _, c3, c4] = count4(l, &yf[..n]);
    let at = l.and(c9, live);
    bad = l.or(bad, l.or(l.andnot(c3, at), l.and(l.shr::<9>(c4), at)));
    let exact = l.andnot(c4, c3);
    let (ex, hx) = (l.and(exact, c9), l.and(l.shr::<9>(exact), c9));
    for g in 0..n {
        let m = l.and(y[g], ex);
        let e = l.or(
            l.or(col_oth(l, m), boxc_oth(l, m)),
            l.andnot(f[g], l.and(hx, y[g])),
        );
        let e = l.or(l.or(e, l.shl::<9>(e)), l.shl::<18>(e));
        cand[g] = l.andnot(e, cand[g]);
    }
    bad
}

/// Cells not yet placed, from the placed set (as loaded by
/// [`Lanes::load_solved`]).
#[inline(always)]
fn open_cells<L: Lanes>(l: L, solved: L::V) -> u32 {
    let mut s = [[0u32; 4]; 4];
    l.store_solved(solved, &mut s);
    81 - (s[0][0].count_ones() + s[0][1].count_ones() + s[0][2].count_ones())
}

/// Whether full rounds run [`triads`] after locked candidates.
const TRIADS: bool = true;
/// Boards with fewer open (unplaced) cells skip [`triads`]: near the
/// leaves singles finish the work, and the step costs more time than the
/// nodes it saves (measured with callgrind on the benchmark sets).
const TRIADS_FROM_OPEN: u32 = 50;

/// How far [`propagate`] goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Fixpoint {
    /// Singles, then locked candidates (and triad subsets) once singles
    /// stall, until nothing changes.
    Full,
    /// Singles until they stall: no locked-candidates rounds. Cheaper
    /// where the tree is a short path to a solution; a digit left with no
    /// place in a house is then not caught at once, but such a board never
    /// passes for solved (see [`propagate`]).
    Singles,
}

/// Cells of the digit vector `v` that are the only place of the digit in
/// their row, column or box; with `EMPTY`, also non-zero lanes where a row
/// or column of the digit has no place left (else zero).
///
/// A row is found empty for all three at once: adding 0xff to each row's
/// low eight bits carries into its ninth bit exactly when they are not
/// all zero. A column is empty when no row of any band has it.
#[inline(always)]
fn hidden_singles<L: Lanes, const EMPTY: bool>(l: L, v: L::V) -> (L::V, L::V) {
    let row = l.splat(0x1ff);
    let f0 = l.and(v, row);
    let f1 = l.and(l.shr::<9>(v), row);
    let f2 = l.shr::<18>(v);
    let single = |f| l.and(f, l.is_zero_mask(l.and(f, l.dec(f))));
    let mut out = l.or(
        l.or(single(f0), l.shl::<9>(single(f1))),
        l.shl::<18>(single(f2)),
    );
    for m in BOX_MASK {
        out = l.or(out, single(l.and(v, l.splat(m))));
    }
    // Columns: in exactly one row of exactly one band.
    let once = l.andnot(l.and(l.and(f0, f1), f2), l.xor(l.xor(f0, f1), f2));
    let p = l.or(l.or(f0, f1), f2);
    let (p1, p2) = (l.rot1(p), l.rot2(p));
    let one_band = l.andnot(l.and(l.and(p, p1), p2), l.xor(l.xor(p, p1), p2));
    let col = l.and(one_band, once);
    let out = l.or(
        out,
        l.and(v, l.or(l.or(col, l.shl::<9>(col)), l.shl::<18>(col))),
    );
    if !EMPTY {
        return (out, l.splat(0));
    }
    const HIGH: u32 = 1 << 8 | 1 << 17 | 1 << 26;
    const LOW: u32 = 0xff | 0xff << 9 | 0xff << 18;
    let low = l.splat(LOW);
    let rows = l.and(l.or(l.add_lanes(l.and(v, low), low), v), l.splat(HIGH));
    let empty = l.or(
        l.xor(rows, l.splat(HIGH)),
        l.xor(l.or(l.or(p, p1), p2), row),
    );
    (out, empty)
}

/// The cells sharing a row, column or box with a cell of `n` (new
/// placements, per digit; the cells themselves included).
///
/// Two placements of one digit in one house are not flagged here: such a
/// board can never reach a solution (see [`propagate`]).
#[inline(always)]
fn peers_of<L: Lanes>(l: L, n: L::V) -> L::V {
    let row = l.splat(0x1ff);
    let f0 = l.and(n, row);
    let f1 = l.and(l.shr::<9>(n), row);
    let f2 = l.shr::<18>(n);
    let rows = l.or(
        l.or(
            l.andnot(l.is_zero_mask(f0), row),
            l.shl::<9>(l.andnot(l.is_zero_mask(f1), row)),
        ),
        l.shl::<18>(l.andnot(l.is_zero_mask(f2), row)),
    );
    let cp = l.or(l.or(f0, f1), f2);
    let call = l.or(l.or(cp, l.rot1(cp)), l.rot2(cp));
    let mut peers = l.or(rows, l.or(l.or(call, l.shl::<9>(call)), l.shl::<18>(call)));
    for m in BOX_MASK {
        let mv = l.splat(m);
        peers = l.or(peers, l.andnot(l.is_zero_mask(l.and(n, mv)), mv));
    }
    peers
}

/// Non-zero where two cells of `n` (placements per digit) share a house.
#[inline(always)]
fn clash_of<L: Lanes>(l: L, n: L::V) -> L::V {
    let row = l.splat(0x1ff);
    let f0 = l.and(n, row);
    let f1 = l.and(l.shr::<9>(n), row);
    let f2 = l.shr::<18>(n);
    let mut clash = l.or(
        l.or(l.and(f0, l.dec(f0)), l.and(f1, l.dec(f1))),
        l.and(f2, l.dec(f2)),
    );
    clash = l.or(
        clash,
        l.or(l.or(l.and(f0, f1), l.and(f0, f2)), l.and(f1, f2)),
    );
    let cp = l.or(l.or(f0, f1), f2);
    clash = l.or(clash, l.or(l.and(cp, l.rot1(cp)), l.and(cp, l.rot2(cp))));
    for m in BOX_MASK {
        let g = l.and(n, l.splat(m));
        clash = l.or(clash, l.and(g, l.dec(g)));
    }
    clash
}

/// Per-band counters over all nine digits, in every digit slot of the
/// result: cells in at least one, two and three digit words.
#[inline(always)]
fn count_slots<L: Lanes, const THRICE: bool>(l: L, v: &[L::V]) -> [L::V; 3] {
    let zero = l.splat(0);
    let (mut o, mut t, mut h) = (zero, zero, zero);
    for &x in v {
        if THRICE {
            h = l.or(h, l.and(t, x));
        }
        t = l.or(t, l.and(o, x));
        o = l.or(o, x);
    }
    l.fold::<THRICE>([o, t, h])
}

/// Whether a board with every cell placed is a solution: every cell keeps a
/// digit, and every digit has a cell in each of its nine rows, columns and
/// boxes.
///
/// A placed cell has at most one digit left (placing removes the others),
/// so with every cell keeping one each cell has exactly one. A digit with a
/// cell in each of nine rows has at least nine cells; 81 cells over nine
/// digits leave exactly nine each, so one per row, and (covering nine
/// columns and nine boxes with nine cells) one per column and box.
#[inline(always)]
fn complete<L: Lanes>(l: L, cand: &[L::V], valid: &[L::V], full3: L::V) -> bool {
    let [once, _, _] = count_slots::<L, false>(l, cand);
    if !l.all_zero(l.andnot(once, full3)) {
        return false;
    }
    let row = l.splat(0x1ff);
    let mut bad = l.splat(0);
    for (&v, &ok) in cand.iter().zip(valid) {
        let f0 = l.and(v, row);
        let f1 = l.and(l.shr::<9>(v), row);
        let f2 = l.shr::<18>(v);
        let mut empty = l.or(
            l.or(l.is_zero_mask(f0), l.is_zero_mask(f1)),
            l.is_zero_mask(f2),
        );
        for m in BOX_MASK {
            empty = l.or(empty, l.is_zero_mask(l.and(v, l.splat(m))));
        }
        let c = l.or(l.or(f0, f1), f2);
        let cols = l.or(l.or(c, l.rot1(c)), l.rot2(c));
        bad = l.or(bad, l.and(l.or(empty, l.xor(cols, row)), ok));
    }
    l.all_zero(bad)
}

/// Apply `act`, then propagate to a fixpoint (see [`Fixpoint`]). `false`
/// on a contradiction (a cell without candidates, a digit without a place
/// in a house, or two digits placed in one cell).
///
/// Below the root, a digit placed twice in one house in the same round is
/// not caught at once (that costs time on every round), but such a board
/// never passes for solved: once every cell is placed, [`complete`] checks
/// that every cell keeps exactly one digit and every digit has a place in
/// each of its nine rows, columns and boxes, which makes it a solution.
#[inline(always)]
pub(crate) fn propagate<L: Lanes>(
    l: L,
    bd: &mut Board,
    act: Act,
    layouts: bool,
    fix: Fixpoint,
) -> bool {
    let from = triads_from(layouts);
    #[cfg(feature = "probe")]
    probe::CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let zero = l.splat(0);
    let mut cand = [zero; 12];
    let mut valid = [zero; 12];
    let mut stacks = [zero; 12];
    l.load_cand(&bd.cand, &mut cand);
    for g in 0..L::N {
        valid[g] = l.valid(g);
        stacks[g] = l.stacks(g);
    }
    let cand = &mut cand[..L::N];
    let mut solved = l.load_solved(&bd.solved);
    match act {
        Act::None => {}
        Act::Assign { d, band, bit } => {
            // Placed at once: other digits leave the cell, the digit its peers.
            let cell = l.and(l.splat(bit), l.band_mask(band));
            let peers = l.load_solved(&CELL_PEERS[27 * band + bit.trailing_zeros() as usize]);
            for g in 0..L::N {
                let dm = l.digit_mask(d, g);
                let gone = l.or(l.andnot(dm, cell), l.and(dm, peers));
                cand[g] = l.or(l.andnot(gone, cand[g]), l.and(dm, cell));
            }
            solved = l.or(solved, cell);
        }
        Act::Eliminate { d, band, bit } => {
            let cell = l.and(l.splat(bit), l.band_mask(band));
            for g in 0..L::N {
                let this = l.and(l.digit_mask(d, g), cell);
                cand[g] = l.andnot(this, cand[g]);
            }
        }
        Act::Keep { d, mask, .. } => {
            let m = l.load_solved(&[[mask[0], mask[1], mask[2], 0]; 4]);
            for g in 0..L::N {
                cand[g] = l.andnot(l.andnot(m, l.digit_mask(d, g)), cand[g]);
            }
        }
    }
    let full3 = l.and(l.splat(BAND), l.valid(0));
    // Rounds alternate between cheap ones (singles only) and full ones
    // (locked candidates too): singles first, locked candidates once they
    // stall. The board is at the fixpoint after a full round that changed
    // nothing.
    let mut full = false;
    let ok = loop {
        #[cfg(feature = "probe")]
        probe::ROUNDS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let mut new = [zero; 12];
        let mut changed = false;
        if full {
            let mut bad = zero;
            for g in 0..L::N {
                let (v, b) = locked(l, cand[g], valid[g], stacks[g]);
                bad = l.or(bad, b);
                changed |= !l.same(v, cand[g]);
                cand[g] = v;
            }
            // Triad subsets once locked candidates stall too.
            if TRIADS && !changed && l.all_zero(bad) && (from == 0 || open_cells(l, solved) >= from)
            {
                let mut before = [zero; 12];
                before[..L::N].copy_from_slice(cand);
                bad = triads(l, cand, valid[0]);
                for g in 0..L::N {
                    changed |= !l.same(before[g], cand[g]);
                }
            }
            if !l.all_zero(bad) {
                break false;
            }
            // Nothing changed since the singles round that stalled: done.
            if !changed {
                break true;
            }
        }
        // In layout mode a row or column left without a place for a digit
        // ends the propagation at once (else only locked candidates, after
        // the singles stall, find it): there most boards die, and this
        // saves about a tenth of the rounds for a few more operations in
        // each (see BENCHMARKS.md, session 25).
        if layouts {
            let mut empty = zero;
            for g in 0..L::N {
                let (h, e) = hidden_singles::<L, true>(l, cand[g]);
                new[g] = l.andnot(solved, h);
                empty = l.or(empty, l.and(e, valid[g]));
            }
            if !l.all_zero(empty) {
                break false;
            }
        } else {
            for g in 0..L::N {
                new[g] = l.andnot(solved, hidden_singles::<L, false>(l, cand[g]).0);
            }
        }
        // Cells with exactly one candidate; every cell needs at least one.
        // The counts of hidden singles do not wait for these (a naked
        // single's one digit is the only hidden single its cell can have,
        // so two placements in one cell show among hidden singles alone).
        let [once, twice, _] = count_slots::<L, false>(l, cand);
        let [hidden, clash, _] = count_slots::<L, false>(l, &new[..L::N]);
        if !l.all_zero(l.andnot(once, full3)) {
            break false;
        }
        if !l.all_zero(clash) {
            break false;
        }
        let naked = l.andnot(solved, l.andnot(twice, once));
        for g in 0..L::N {
            new[g] = l.or(new[g], l.and(naked, cand[g]));
        }
        let new = &new[..L::N];
        let all = l.or(hidden, naked);
        if l.all_zero(all) {
            if fix == Fixpoint::Singles {
                break true;
            }
            full = true;
            continue;
        }
        full = false;
        // Place them: the digit leaves the peers, other digits leave the cell.
        for g in 0..L::N {
            let peers = peers_of(l, new[g]);
            let keep = l.andnot(l.andnot(new[g], all), l.andnot(peers, cand[g]));
            cand[g] = l.or(keep, new[g]);
        }
        solved = l.or(solved, all);
        // Every cell placed: check the grid directly instead of running a
        // singles round and a locked-candidates round that would find
        // nothing to do.
        if l.all_zero(l.andnot(solved, full3)) {
            break complete(l, cand, &valid[..L::N], full3);
        }
    };
    // At the root (givens, pencilmarks), two placements of one digit in one
    // house are refused once the propagation ends (see above for the
    // search): a placed digit stays in its own word, so they are still
    // there, unless a later placement took one of them out, which leaves
    // its cell empty and is refused as such. (The fixpoint alone need not
    // refuse such a board: the house's other digits can keep candidates in
    // its other cells, too few as those are, and the search below would
    // then have to exhaust the tree.)
    let ok = if ok && matches!(act, Act::None) {
        let mut bad = zero;
        for &v in cand.iter() {
            bad = l.or(bad, clash_of(l, l.and(v, solved)));
        }
        l.all_zero(bad)
    } else {
        ok
    };
    l.store_cand(&cand[..], &mut bd.cand);
    l.store_solved(solved, &mut bd.solved);
    ok
}

/// Counters for tuning (feature `probe`): propagate calls and rounds.
#[cfg(feature = "probe")]
pub mod probe {
    use std::sync::atomic::{AtomicU32, AtomicU64};
    /// Calls of `propagate`.
    pub static CALLS: AtomicU64 = AtomicU64::new(0);
    /// Rounds inside `propagate`.
    pub static ROUNDS: AtomicU64 = AtomicU64::new(0);
    /// Branch points: boards the search branched on (one per choice,
    /// however many of its alternatives were explored; the convention of
    /// tdoku's guess count).
    pub static BRANCHES: AtomicU64 = AtomicU64::new(0);
    /// Tuning knob: [`super::LAYOUTS_FROM_OPEN`].
    pub static LAYOUTS_FROM: AtomicU32 = AtomicU32::new(super::LAYOUTS_FROM_OPEN);
    /// Tuning knob: triad subsets once the search branches on layouts run
    /// on boards with at least this many open cells (default 0: all).
    pub static TRIADS_FROM: AtomicU32 = AtomicU32::new(0);
}

/// The triad-subset gate of [`propagate`]: in layout mode (see
/// [`LAYOUTS_FROM_OPEN`]) on every board, else from
/// [`TRIADS_FROM_OPEN`] open cells.
#[inline(always)]
fn triads_from(layouts: bool) -> u32 {
    #[cfg(feature = "probe")]
    if layouts {
        return probe::TRIADS_FROM.load(std::sync::atomic::Ordering::Relaxed);
    }
    if layouts { 0 } else { TRIADS_FROM_OPEN }
}

/// Puzzles whose start board (after propagation) has at least this many
/// open cells are searched in layout mode: [`choose_layouts`] branches,
/// and triad subsets run on every board. Others branch on cells and gate
/// triad subsets at [`TRIADS_FROM_OPEN`]: their trees are small (the
/// multi-solution and easy sets), and there layouts cost more per node
/// than they save in nodes.
pub(crate) const LAYOUTS_FROM_OPEN: u32 = 50;

/// [`LAYOUTS_FROM_OPEN`], or the tuning knob of the `probe` feature.
#[inline(always)]
pub(crate) fn layouts_from() -> u32 {
    #[cfg(feature = "probe")]
    return probe::LAYOUTS_FROM.load(std::sync::atomic::Ordering::Relaxed);
    #[cfg(not(feature = "probe"))]
    LAYOUTS_FROM_OPEN
}

/// Open (unplaced) cells of a board.
#[inline(always)]
pub(crate) fn open(bd: &Board) -> u32 {
    (0..3).map(|b| (BAND & !bd.solved[0][b]).count_ones()).sum()
}

/// How many bivalue cells [`choose`] scores at most.
const SCORED: u32 = 12;

/// Below this many open (unplaced) cells [`choose`] takes the first
/// bivalue cell without scoring.
const SCORE_FROM_OPEN: u32 = 30;

/// Below this many open cells (and from [`SCORE_FROM_OPEN`]) [`choose`]
/// scores half as many cells.
const SCORE_ALL_FROM_OPEN: u32 = 40;

/// The branching choice on a propagated, unsolved board: the change that
/// makes the first branch, and the change that makes the other (the cell's
/// other digit for a bivalue cell, the digit's other triad layout for a
/// band or stack, else "not this digit").
///
/// Among the bivalue cells, the one whose two digits have the most
/// candidates among the cell's peers, scored as the product of (count + 3)
/// over the two digits: whichever way the choice goes, placing the digit
/// removes many candidates, so both branches propagate far. (Bivalue-cell
/// branching is what JCZSolve and tdoku do; the scoring is ours, chosen by
/// measuring guesses on the benchmark sets.) Only the first [`SCORED`]
/// bivalue cells (row-major) are scored, half as many on a board with
/// fewer than [`SCORE_ALL_FROM_OPEN`] open cells, and none with fewer than
/// [`SCORE_FROM_OPEN`] or without `score` (the search's path to its first
/// dead end, see `search::run`): there the first bivalue cell is taken.
/// Near the leaves, and on the under-determined boards of multi-solution
/// puzzles, scoring costs more time than it saves nodes.
/// In layout mode (`layouts`, see [`LAYOUTS_FROM_OPEN`]) the choice is
/// [`choose_layouts`]'s, else a bivalue cell as above. Without a bivalue
/// cell, [`choose_layouts`] too; without a digit with two or more layouts
/// either (only on a board that propagation would finish), the first
/// cell with the fewest candidates, its lowest digit first ("there" / "not
/// there"). The heuristic changes speed only, never the answers.
#[inline(always)]
pub(crate) fn choose<L: Lanes>(
    l: L,
    bd: &Board,
    layouts: bool,
    score: bool,
    fails: &Failures,
) -> (Act, Act) {
    let open = open(bd);
    if layouts {
        if let Some(acts) = choose_layouts(l, bd, fails) {
            return acts;
        }
    }
    let zero = l.splat(0);
    let mut cand = [zero; 12];
    l.load_cand(&bd.cand, &mut cand);
    let [_, twice, thrice] = count_slots::<L, true>(l, &cand[..L::N]);
    let mut two = [[0u32; 4]; 4];
    l.store_solved(l.andnot(thrice, twice), &mut two);
    let mut bi = [0u32; 3];
    for b in 0..3 {
        bi[b] = two[0][b] & !bd.solved[0][b];
    }
    if (bi[0] | bi[1] | bi[2]) != 0 {
        // Score each bivalue cell: its two digits found without branches.
        // At most `SCORED` cells are scored (in row-major order): scoring
        // more costs more time than the better choice saves.
        let mut best = (0, 0, 0, 0);
        let mut left = if open < SCORE_ALL_FROM_OPEN {
            SCORED / 2
        } else {
            SCORED
        };
        if open < SCORE_FROM_OPEN || !score {
            let b = if bi[0] != 0 {
                0
            } else if bi[1] != 0 {
                1
            } else {
                2
            };
            let pos = bi[b].trailing_zeros();
            best = (1, b, 1 << pos, l.digits_at(&cand, &bd.cand, b, pos));
            left = 0;
        }
        for b in 0..3 {
            let mut cells = bi[b];
            while cells != 0 && left > 0 {
                left -= 1;
                let pos = cells.trailing_zeros();
                cells &= cells - 1;
                let dm = l.digits_at(&cand, &bd.cand, b, pos);
                let p = &PEERS[27 * b + pos as usize];
                let count = |w: &[u32; 4]| {
                    (u64::from(w[0] & p[0]) | (u64::from(w[1] & p[1]) << 32)).count_ones()
                        + (w[2] & p[2]).count_ones()
                };
                let x = &bd.cand[dm.trailing_zeros() as usize];
                let y = &bd.cand[(dm & (dm - 1)).trailing_zeros() as usize];
                let sc = (count(x) + 3) * (count(y) + 3);
                if sc > best.0 {
                    best = (sc, b, 1 << pos, dm);
                }
            }
        }
        let (_, band, bit, dm) = best;
        let (d, other) = (
            dm.trailing_zeros() as usize,
            (dm & (dm - 1)).trailing_zeros() as usize,
        );
        // The other branch: the cell's other digit, placed at once.
        return (
            Act::Assign { d, band, bit },
            Act::Assign {
                d: other,
                band,
                bit,
            },
        );
    }
    if !layouts {
        if let Some(acts) = choose_layouts(l, bd, fails) {
            return acts;
        }
    }
    let mut best = (u32::MAX, 0, 0);
    for b in 0..3 {
        let mut open = BAND & !bd.solved[0][b];
        while open != 0 {
            let bit = open & open.wrapping_neg();
            let n: u32 = (0..9).map(|d| u32::from(bd.cand[d][b] & bit != 0)).sum();
            if n < best.0 {
                best = (n, b, bit);
            }
            open &= open - 1;
        }
    }
    let (_, band, bit) = best;
    let d = (0..9)
        .find(|&d| bd.cand[d][band] & bit != 0)
        .expect("an unsolved cell of a propagated board has candidates");
    (
        Act::Assign { d, band, bit },
        Act::Eliminate { d, band, bit },
    )
}

/// A digit's layouts in its band (lane) and, in every lane, in the three
/// stacks: bit `3·k` (`3·k + 1`) set when the triads of box `k + i` (box
/// `k − i`) in row `i` (`i` = 0, 1, 2, boxes mod 3) are all still open,
/// one bit for each of the six 3×3 permutation matrices; bits `9 + 3·s +
/// j` and `18 + 3·s + j` likewise for stack `s`, with bands for rows and
/// the stack's columns `j` for boxes (counted from the lane's band, which
/// only permutes the rows and so leaves the count alone). The number of
/// bits in a band's (stack's) field is the number of ways the digit can
/// still lay its triads there: 1 once it is fixed, at most 6.
#[inline(always)]
fn layouts<L: Lanes>(l: L, v: L::V) -> L::V {
    let t3 = l.splat(0o111);
    let y = l.and(
        l.or(l.or(v, l.shr::<1>(v)), l.shr::<2>(v)),
        l.splat(0o111_111_111),
    );
    let (y0, y1, y2) = (l.and(y, t3), l.and(l.shr::<9>(y), t3), l.shr::<18>(y));
    // Box k + 1 (k + 2) moved onto box k, per row.
    let b1 = |z| {
        l.or(
            l.and(l.shr::<3>(z), l.splat(0o011)),
            l.and(l.shl::<6>(z), l.splat(0o100)),
        )
    };
    let b2 = |z| {
        l.or(
            l.and(l.shr::<6>(z), l.splat(0o001)),
            l.and(l.shl::<3>(z), l.splat(0o110)),
        )
    };
    let even = l.and(l.and(y0, b1(y1)), b2(y2));
    let odd = l.and(l.and(y0, b2(y1)), b1(y2));
    // Stacks: column j + 1 (j + 2) moved onto column j inside each stack.
    let c = l.and(l.or(l.or(v, l.shr::<9>(v)), l.shr::<18>(v)), l.splat(0x1ff));
    let j1 = |z| {
        l.or(
            l.and(l.shr::<1>(z), l.splat(0o333)),
            l.and(l.shl::<2>(z), l.splat(0o444)),
        )
    };
    let j2 = |z| {
        l.or(
            l.and(l.shr::<2>(z), l.splat(0o111)),
            l.and(l.shl::<1>(z), l.splat(0o666)),
        )
    };
    let (c1, c2) = (l.rot1(c), l.rot2(c));
    let se = l.and(l.and(c, j1(c1)), j2(c2));
    let so = l.and(l.and(c, j2(c1)), j1(c2));
    l.or(
        l.or(even, l.shl::<1>(odd)),
        l.or(l.shl::<9>(se), l.shl::<18>(so)),
    )
}

/// Branching on layouts: the band or stack with the fewest layouts over
/// all digits (not yet fixed: more than one digit in nine), in it the
/// digit with the fewest layouts (at least two; on a tie the one with more
/// triads open there, then the one with more [`Failures`] there), and of
/// that digit's triads there the one on the fewest of its layouts
/// ([`SPLIT`]): "the digit takes this triad" / "it does not". With two
/// layouts that is one layout against the other, otherwise one against
/// the rest as far as triads can say it.
///
/// A layout is one of the six ways a digit can take one triad per row and
/// per box of a band (one per column and box of a stack); counting them
/// per band and branching on the most constrained band's digit is tdoku's
/// heuristic (T. Dillon's design notes, "Getting Vectorized"), which keeps
/// the layouts themselves as state. Here they are counted from the triads
/// that locked candidates leave (which are the union of the layouts
/// still possible) by [`layouts`], all digits at once; the branch is on a
/// triad. `None` when every digit is fixed in every band and stack.
#[inline(always)]
fn choose_layouts<L: Lanes>(l: L, bd: &Board, fails: &Failures) -> Option<(Act, Act)> {
    const TRIAD_LOW: u32 = 0o111_111_111;
    let zero = l.splat(0);
    let mut v = [zero; 12];
    l.load_cand(&bd.cand, &mut v);
    for x in &mut v[..L::N] {
        *x = layouts(l, *x);
    }
    let mut lay = [[0u32; 4]; SLOTS];
    l.store_cand(&v[..L::N], &mut lay);
    // counts[u][d]: layouts of digit d in unit u (bands 0..3, stacks 3..6).
    let mut counts = [[0u32; 9]; 6];
    let mut best: Option<(u32, usize)> = None;
    for u in 0..6 {
        let mut total = 0;
        for d in 0..9 {
            let n = if u < 3 {
                (lay[d][u] & 0x1ff).count_ones()
            } else {
                (lay[d][0] & (0o7_007_000 << (3 * (u - 3)))).count_ones()
            };
            counts[u][d] = n;
            total += n;
        }
        if total > 9 && best.is_none_or(|(t, _)| total < t) {
            best = Some((total, u));
        }
    }
    let (_, unit) = best?;
    // The digit's triads in the unit as a 3×3 matrix (bit 3·row + box for
    // a band, 3·band + column for a stack).
    let matrix = |d: usize| -> usize {
        let mut t = 0u32;
        if unit < 3 {
            let y = {
                let w = bd.cand[d][unit];
                (w | w >> 1 | w >> 2) & TRIAD_LOW
            };
            for r in 0..3 {
                let x = (y >> (9 * r)) & 0o111;
                t |= ((x | x >> 2 | x >> 4) & 7) << (3 * r);
            }
        } else {
            for b in 0..3 {
                let w = bd.cand[d][b];
                let c = (w | w >> 9 | w >> 18) >> (3 * (unit - 3));
                t |= (c & 7) << (3 * b);
            }
        }
        t as usize
    };
    let mut pick: Option<(u32, usize, usize)> = None;
    for d in 0..9 {
        let n = counts[unit][d];
        if n >= 2 {
            let t = matrix(d);
            let key = (16 * n - t.count_ones()) * 64 - fails.of(unit, d);
            if pick.is_none_or(|(k, _, _)| key < k) {
                pick = Some((key, d, t));
            }
        }
    }
    let (_, d, t) = pick?;
    let [first, second] = SPLIT[t];
    let keep = |p: u16| {
        let mut mask = [BAND; 3];
        if unit < 3 {
            mask[unit] = TRIAD_EXPAND[usize::from(p)];
        } else {
            let st = unit - 3;
            for (b, m) in mask.iter_mut().enumerate() {
                // The band's cells outside the stack, and the kept
                // columns of the stack in all three rows.
                let c = u32::from(p >> (3 * b)) & 7;
                *m = (BAND & !(0o7_007_007 << (3 * st))) | ((c << (3 * st)) * 0o1_001_001);
            }
        }
        Act::Keep { d, unit, mask }
    };
    Some((keep(first), keep(second)))
}

#[cfg(test)]
mod tests {
    use super::super::arch::Portable;
    use super::super::tables::PERM;
    use super::*;

    /// The definition: keep the triads on some permutation (table), then the
    /// (band, column) pairs on some permutation per stack.
    fn locked_reference(v: [u32; 3]) -> ([u32; 3], bool) {
        let mut ok = true;
        let mut v = v;
        for w in &mut v {
            let t: usize = (0..9)
                .filter(|i| (*w >> (3 * i)) & 7 != 0)
                .map(|i| 1 << i)
                .sum();
            let a = PERM[t];
            ok &= a != 0;
            let keep: u32 = (0..9)
                .filter(|i| a & (1 << i) != 0)
                .map(|i| 7 << (3 * i))
                .sum();
            *w &= keep;
        }
        let cols: Vec<u32> = v
            .iter()
            .map(|&x| (x | (x >> 9) | (x >> 18)) & 0x1ff)
            .collect();
        let mut allowed = [0u32; 3];
        for s in 0..3 {
            let mut t = 0usize;
            for b in 0..3 {
                for j in 0..3 {
                    if cols[b] & (1 << (3 * s + j)) != 0 {
                        t |= 1 << (3 * b + j);
                    }
                }
            }
            let a = PERM[t];
            ok &= a != 0;
            for b in 0..3 {
                for j in 0..3 {
                    if a & (1 << (3 * b + j)) != 0 {
                        allowed[b] |= 1 << (3 * s + j);
                    }
                }
            }
        }
        for b in 0..3 {
            v[b] &= allowed[b] * (1 | (1 << 9) | (1 << 18));
        }
        (v, ok)
    }

    #[test]
    fn locked_matches_the_permutation_definition() {
        let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
        for _ in 0..50_000 {
            let mut w = [0u32; 3];
            for b in &mut w {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                // dense and sparse words
                *b = (x as u32 | (x >> 32) as u32 & (x >> 20) as u32) & BAND;
                if x % 3 == 0 {
                    *b &= (x >> 11) as u32;
                }
            }
            let (want, ok) = locked_reference(w);
            let (got, bad) = locked(Portable, [w[0], w[1], w[2], 0], VALID[0], STACKS[0]);
            let fine = bad == [0; 4];
            if ok {
                assert!(fine, "{w:?}");
                assert_eq!(&got[..3], &want[..], "{w:?}");
            } else {
                assert!(!fine, "{w:?}");
            }
            assert_eq!(got[3], 0);
        }
    }

    /// The empty-row and empty-column flag against the definition, row by
    /// row and column by column, on sparse random digit words.
    #[test]
    fn hidden_singles_flag_rows_and_columns_without_a_place() {
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        let mut flagged = 0;
        for _ in 0..20_000 {
            let mut v = [0u32; 4];
            for w in v.iter_mut().take(3) {
                // Each cell kept with probability 1/4: empty houses are common.
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                *w = (x as u32) & ((x >> 32) as u32) & BAND;
            }
            let rows_empty = (0..9).any(|r| v[r / 3] >> (9 * (r % 3)) & 0x1ff == 0);
            let cols_empty = (0..9).any(|c| (0..9).all(|r| v[r / 3] >> (9 * (r % 3) + c) & 1 == 0));
            let (h, e) = hidden_singles::<_, true>(Portable, v);
            assert_eq!(h, hidden_singles::<_, false>(Portable, v).0);
            let got = e[..3].iter().any(|&w| w != 0);
            assert_eq!(got, rows_empty || cols_empty, "{v:?}");
            flagged += usize::from(got);
        }
        assert!(flagged > 1000 && flagged < 19_000, "{flagged}");
    }

    #[test]
    fn hidden_singles_by_house() {
        // Digit alone in row 0 of band 0 at column 4, alone in column 8 (band 2, row 2),
        // alone in box 3 (band 1, box 0) at r4c1.
        let mut v = [0u32; 4];
        v[0] = 1 << 4 | 0x1ff << 9; // row 0: one cell; row 1 full
        v[1] = 1 << (9 + 1) | 0b111 << 21; // r4c1 alone in box 3; r5c3..5
        v[2] = 1 << (18 + 8); // r8c8
        let (h, _) = hidden_singles::<_, false>(Portable, v);
        assert_ne!(h[0] & (1 << 4), 0);
        assert_ne!(h[1] & (1 << 10), 0);
        assert_ne!(h[2] & (1 << 26), 0);
        // r1c0 is alone in column 0; r1c4 shares row 1, column 4 and box 1.
        assert_ne!(h[0] & (1 << 9), 0, "{:#x}", h[0]);
        assert_eq!(h[0] & (1 << 13), 0, "{:#x}", h[0]);
    }
}

#[cfg(test)]
mod triads_tests {
    use super::super::arch::{Avx2, Portable};
    use super::*;

    /// The definition, triad by triad: rows first (all from the same
    /// words), then columns from the words the rows left.
    fn reference(w: [[u32; 3]; 9]) -> ([[u32; 3]; 9], bool) {
        let mut bad = false;
        let mut w = w;
        for pass in 0..2 {
            let src = w;
            for b in 0..3 {
                for u in 0..3 {
                    for k in 0..3 {
                        // u: row (pass 0) or column group index; k: box / column
                        let (triad, line, boxm, other_band_line) = if pass == 0 {
                            let t = 7u32 << (9 * u + 3 * k);
                            (t, 0x1ffu32 << (9 * u), BOX_MASK[k], [0u32; 3])
                        } else {
                            let c = 3 * u + k;
                            let t = 0o1_001_001u32 << c;
                            let mut ob = [t; 3];
                            ob[b] = 0;
                            (t, 0, BOX_MASK[u], ob)
                        };
                        let has: Vec<usize> = (0..9).filter(|&d| src[d][b] & triad != 0).collect();
                        let forced: Vec<usize> = has
                            .iter()
                            .copied()
                            .filter(|&d| {
                                let line_other = if pass == 0 {
                                    src[d][b] & line & !triad != 0
                                } else {
                                    (0..3).any(|b2| src[d][b2] & other_band_line[b2] != 0)
                                };
                                let box_other = src[d][b] & boxm & !triad != 0;
                                !line_other || !box_other
                            })
                            .collect();
                        bad |= has.len() < 3 || forced.len() > 3;
                        if has.len() == 3 {
                            for &d in &has {
                                if pass == 0 {
                                    w[d][b] &= !((line | boxm) & !triad);
                                } else {
                                    for b2 in 0..3 {
                                        w[d][b2] &= !other_band_line[b2];
                                    }
                                    w[d][b] &= !(boxm & !triad);
                                }
                            }
                        }
                        if forced.len() == 3 {
                            for d in 0..9 {
                                if !forced.contains(&d) {
                                    w[d][b] &= !triad;
                                }
                            }
                        }
                    }
                }
            }
        }
        (w, bad)
    }

    fn run<L: Lanes>(l: L, w: [[u32; 3]; 9]) -> ([[u32; 3]; 9], bool) {
        let mut cand = [[0u32; 4]; SLOTS];
        for d in 0..9 {
            cand[d] = [w[d][0], w[d][1], w[d][2], 0];
        }
        let zero = l.splat(0);
        let mut v = [zero; 12];
        l.load_cand(&cand, &mut v);
        let bad = triads(l, &mut v[..L::N], l.valid(0));
        l.store_cand(&v[..L::N], &mut cand);
        let mut out = [[0u32; 3]; 9];
        for d in 0..9 {
            out[d] = [cand[d][0], cand[d][1], cand[d][2]];
        }
        (out, !l.all_zero(bad))
    }

    #[test]
    fn triads_match_the_definition_on_every_kernel() {
        let mut x: u64 = 0x2545_f491_4f6c_dd1d;
        let mut fired = 0;
        for round in 0..3000 {
            let mut w = [[0u32; 3]; 9];
            for d in w.iter_mut() {
                for b in d.iter_mut() {
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    // sparse words, so that triads hold few digits
                    let mut m = x as u32 & (x >> 32) as u32;
                    if round % 2 == 0 {
                        m &= (x >> 17) as u32;
                    }
                    *b = m & BAND;
                }
            }
            let want = reference(w);
            fired += usize::from(want.0 != w);
            assert_eq!(run(Portable, w), want, "{w:x?}");
            if let Some(k) = Avx2::detect() {
                assert_eq!(run(k, w), want, "{w:x?}");
            }
            #[cfg(all(target_arch = "x86_64", fast_avx512))]
            if let Some(k) = super::super::arch::Avx512::detect() {
                assert_eq!(run(k, w), want, "{w:x?}");
            }
        }
        assert!(fired > 50, "boards with eliminations: {fired}");
    }
}

#[cfg(test)]
mod act_tests {
    use super::super::arch::Portable;
    use super::*;

    #[test]
    fn assign_by_act_equals_assign_by_masks() {
        let line =
            "........8..3...4...9..2..6.....79.......612...6.5.2.7...8...5...1.....2.4.5.....3";
        let mut masks = [0x1ffu16; 81];
        for (i, c) in line.bytes().enumerate() {
            if c != b'.' {
                masks[i] = 1 << (c - b'1');
            }
        }
        let mut root = Board::from_masks(&masks);
        assert!(propagate(
            Portable,
            &mut root,
            Act::None,
            false,
            Fixpoint::Full
        ));
        assert!(!root.is_solved());
        let (Act::Assign { d, band, bit }, _) =
            choose(Portable, &root, false, true, &Failures::default())
        else {
            panic!("the first branch places a digit");
        };
        let mut a = root;
        let ok_a = propagate(
            Portable,
            &mut a,
            Act::Assign { d, band, bit },
            false,
            Fixpoint::Full,
        );
        let mut b = root;
        for e in 0..9 {
            if e != d {
                b.cand[e][band] &= !bit;
            }
        }
        let ok_b = propagate(Portable, &mut b, Act::None, false, Fixpoint::Full);
        assert_eq!(ok_a, ok_b);
        assert_eq!(a, b);
    }
}

#[cfg(test)]
mod complete_tests {
    use super::super::arch::{Avx2, Portable};
    use super::*;

    const SOLUTION: &str =
        "534678912672195348198342567859761423426853791713924856961537284287419635345286179";

    fn cells(line: &str) -> Vec<u8> {
        line.bytes().map(|c| c - b'0').collect()
    }

    fn check<L: Lanes>(l: L, cells: &[u8]) -> bool {
        let bd = Board::from_givens(l, cells);
        let zero = l.splat(0);
        let mut cand = [zero; 12];
        let mut valid = [zero; 12];
        l.load_cand(&bd.cand, &mut cand);
        for g in 0..L::N {
            valid[g] = l.valid(g);
        }
        let full3 = l.and(l.splat(BAND), l.valid(0));
        complete(l, &cand[..L::N], &valid[..L::N], full3)
    }

    fn each_kernel(cells: &[u8]) -> bool {
        let got = check(Portable, cells);
        if let Some(k) = Avx2::detect() {
            assert_eq!(check(k, cells), got);
        }
        #[cfg(all(target_arch = "x86_64", fast_avx512))]
        if let Some(k) = super::super::arch::Avx512::detect() {
            assert_eq!(check(k, cells), got);
        }
        got
    }

    #[test]
    fn a_solution_is_complete() {
        assert!(each_kernel(&cells(SOLUTION)));
    }

    #[test]
    fn a_full_grid_breaking_a_rule_is_not() {
        let good = cells(SOLUTION);
        // Swap two cells of a row: rows stay whole, columns and boxes break.
        let mut g = good.clone();
        g.swap(0, 8);
        assert!(!each_kernel(&g));
        // Swap two cells of a box in one column: columns stay whole, rows break.
        let mut g = good.clone();
        g.swap(0, 9);
        assert!(!each_kernel(&g));
        // One digit in place of another: a digit misses a row, column and box.
        let mut g = good.clone();
        g[40] = g[41];
        assert!(!each_kernel(&g));
        // A cell left without any digit.
        let mut g = good;
        g[80] = 0;
        let mut bd = Board::from_givens(Portable, &g);
        for d in 0..9 {
            bd.cand[d][2] &= !(1 << 26);
        }
        let zero = Portable.splat(0);
        let mut cand = [zero; 12];
        Portable.load_cand(&bd.cand, &mut cand);
        let valid: Vec<_> = (0..9).map(|g| Portable.valid(g)).collect();
        let full3 = Portable.and(Portable.splat(BAND), Portable.valid(0));
        assert!(!complete(Portable, &cand[..9], &valid, full3));
    }
}

#[cfg(test)]
mod peers_tests {
    use super::super::arch::Portable;
    use super::*;

    #[test]
    fn peers_of_one_cell_are_its_row_column_and_box() {
        for cell in 0..81 {
            let mut n = [0u32; 4];
            n[cell / 27] = 1 << (cell % 27);
            let p = peers_of(Portable, n);
            let mut want = PEERS[cell];
            want[cell / 27] |= 1 << (cell % 27);
            assert_eq!(p, want, "cell {cell}");
            assert_eq!(CELL_PEERS[cell], [want; 4], "cell {cell}");
        }
    }
}

#[cfg(test)]
mod layouts_tests {
    use super::super::arch::{Avx2, Portable};
    use super::super::tables::CONFIGS;
    use super::*;

    /// The 3×3 matrix of a digit's triads in band `b` (bit 3·row + box)
    /// and in stack `s` (bit 3·band + column), from its three band words.
    fn band_matrix(w: &[u32; 3], b: usize) -> usize {
        (0..9)
            .filter(|&i| w[b] >> (3 * i) & 7 != 0)
            .map(|i| 1 << i)
            .sum()
    }

    fn stack_matrix(w: &[u32; 3], s: usize) -> usize {
        let mut t = 0;
        for b in 0..3 {
            for j in 0..3 {
                if w[b] & (0o1_001_001 << (3 * s + j)) != 0 {
                    t |= 1 << (3 * b + j);
                }
            }
        }
        t
    }

    fn run<L: Lanes>(l: L, w: &[[u32; 3]; 9]) -> [[u32; 4]; SLOTS] {
        let mut cand = [[0u32; 4]; SLOTS];
        for d in 0..9 {
            cand[d] = [w[d][0], w[d][1], w[d][2], 0];
        }
        let zero = l.splat(0);
        let mut v = [zero; 12];
        l.load_cand(&cand, &mut v);
        for x in &mut v[..L::N] {
            *x = layouts(l, *x);
        }
        let mut out = [[0u32; 4]; SLOTS];
        l.store_cand(&v[..L::N], &mut out);
        out
    }

    #[test]
    fn layouts_count_the_permutations_on_every_kernel() {
        let mut x: u64 = 0x1234_5678_9abc_def1;
        for round in 0..3000 {
            let mut w = [[0u32; 3]; 9];
            for d in w.iter_mut() {
                for b in d.iter_mut() {
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    let mut m = x as u32 | (x >> 32) as u32;
                    if round % 2 == 0 {
                        m &= (x >> 17) as u32;
                    }
                    *b = m & BAND;
                }
            }
            let got = run(Portable, &w);
            for d in 0..9 {
                for b in 0..3 {
                    let n = (got[d][b] & 0x1ff).count_ones();
                    assert_eq!(n, u32::from(CONFIGS[band_matrix(&w[d], b)]), "{w:x?}");
                    for s in 0..3 {
                        // every lane counts every stack
                        let n = (got[d][b] & (0o7_007_000 << (3 * s))).count_ones();
                        assert_eq!(n, u32::from(CONFIGS[stack_matrix(&w[d], s)]), "{w:x?}");
                    }
                }
            }
            if let Some(k) = Avx2::detect() {
                assert_eq!(run(k, &w), got, "{w:x?}");
            }
            #[cfg(all(target_arch = "x86_64", fast_avx512))]
            if let Some(k) = super::super::arch::Avx512::detect() {
                assert_eq!(run(k, &w), got, "{w:x?}");
            }
        }
    }

    /// The first `n` puzzles of forum_hardest_1106 whose start board,
    /// propagated in layout mode, is not solved: (line, givens, board).
    fn hard_start_boards(n: usize) -> Vec<(&'static str, Vec<u8>, Board)> {
        let text = include_str!("../../../tests/data/forum_hardest_1106.txt");
        let mut out = Vec::new();
        for line in text.lines().filter(|l| l.len() >= 81).take(n) {
            let cells: Vec<u8> = line
                .bytes()
                .take(81)
                .map(|c| if c.is_ascii_digit() { c - b'0' } else { 0 })
                .collect();
            let mut root = Board::from_givens(Portable, &cells);
            assert!(propagate(
                Portable,
                &mut root,
                Act::None,
                true,
                Fixpoint::Full
            ));
            if !root.is_solved() {
                out.push((line, cells, root));
            }
        }
        out
    }

    /// On propagated hard boards, the two branches restrict one digit, keep
    /// every one of its candidates between them, and the solution lies in
    /// exactly one of them.
    #[test]
    fn layout_branches_split_the_solutions() {
        use crate::solve::fast::Fast;
        use crate::{Grid, Limits, Solver, Uniqueness};
        let mut tried = 0;
        for (line, cells, root) in hard_start_boards(20) {
            let grid = Grid::from_cells(cells).expect("81 cells");
            let Uniqueness::Unique(sol) = Fast::new().uniqueness(&grid, &Limits::none()).0 else {
                panic!("a unique puzzle: {line}");
            };
            tried += 1;
            let Some((Act::Keep { d, mask: a, .. }, Act::Keep { d: d2, mask: b, .. })) =
                choose_layouts(Portable, &root, &Failures::default())
            else {
                panic!("two layout branches: {line}");
            };
            assert_eq!(d, d2);
            let mut at = [0u32; 3];
            for (i, &v) in sol.cells().iter().enumerate() {
                if usize::from(v) == d + 1 {
                    at[i / 27] |= 1 << (i % 27);
                }
            }
            let inside = |m: &[u32; 3]| (0..3).all(|b| at[b] & !m[b] == 0);
            assert!(inside(&a) != inside(&b), "{line}");
            for bd in 0..3 {
                let c = root.cand[d][bd];
                assert_eq!(c & (a[bd] | b[bd]), c);
            }
            assert!((0..3).any(|bd| root.cand[d][bd] & !a[bd] != 0));
            assert!((0..3).any(|bd| root.cand[d][bd] & !b[bd] != 0));
        }
        assert!(tried > 10);
    }

    /// Failures only break ties: marking another digit of the chosen unit
    /// failed either leaves the choice alone or moves it to that digit
    /// (one tied with it), and on some start boards it does move.
    #[test]
    fn failures_break_ties_among_a_units_digits() {
        let mut moved = 0;
        for (line, _, root) in hard_start_boards(40) {
            let Some((Act::Keep { d, unit, .. }, _)) =
                choose_layouts(Portable, &root, &Failures::default())
            else {
                panic!("a layout branch: {line}");
            };
            for other in (0..9).filter(|&o| o != d) {
                let mut fails = Failures::default();
                // Failures of the chosen digit elsewhere change nothing.
                fails.note(&Act::Keep {
                    d,
                    unit: (unit + 1) % 6,
                    mask: [BAND; 3],
                });
                fails.note(&Act::Keep {
                    d: other,
                    unit,
                    mask: [BAND; 3],
                });
                let Some((
                    Act::Keep {
                        d: now, unit: u2, ..
                    },
                    _,
                )) = choose_layouts(Portable, &root, &fails)
                else {
                    panic!("a layout branch: {line}");
                };
                assert_eq!(u2, unit, "{line}");
                assert!(now == d || now == other, "{line}: {now} not {d} or {other}");
                moved += usize::from(now == other);
            }
        }
        assert!(moved > 0);
    }
}
