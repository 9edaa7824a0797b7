//! Hidden pairs in every row, column and box, bit-sliced over the digits.
//!
//! Two digits whose only two open places in a house are the same two cells
//! take those cells: every other digit leaves them. Comparing digits does
//! not fit digit-major vectors, so a pair of cells is turned into a bit
//! instead: the nine cells of a house are put on a cycle, and the pair
//! {a, a + k} (k = 1..4 along the cycle) is the bit of cell `a` in plane
//! `k` (nine cells, four planes: the 36 pairs). A digit with exactly two
//! places in the house has one plane bit there, and a hidden pair is a
//! plane bit set for two or more digits, which the same saturating
//! counters as the singles find for all digits at once. The removals are
//! the other digits at the bit's cell and at its partner, moved back along
//! the cycle.
//!
//! - rows: the cycle is the row (each 9-bit field rotated);
//! - boxes: the band word is transposed so that each box is a 9-bit field
//!   (cell `3·r + j` of box `k` at bit `9·k + 3·r + j`), then as rows;
//! - columns: a column's cells are (band, row); pairs inside a band are a
//!   cycle of the band's three rows, pairs across bands pair band `b` row
//!   `r` with band `b + 1` row `r + s` (s = 0, 1, 2), a lane rotation.
//!
//! (Hidden pairs are a classic human technique; this bit-sliced form is
//! ours.)

// Index loops over digit vectors read better than zipped iterators here.
#![allow(clippy::needless_range_loop)]

use super::arch::Lanes;
use super::board::{Board, rows_down, rows_up};
use super::tables::BAND;

/// Bits `0..n` of each of the three 9-bit fields.
const fn field_low(n: u32) -> u32 {
    let m = (1u32 << n) - 1;
    m | (m << 9) | (m << 18)
}

/// Each 9-bit field rotated along its cycle: bit `p` gets bit `(p + K) mod
/// 9` (`J = 9 − K`).
#[inline(always)]
fn fdown<L: Lanes, const K: u32, const J: u32>(l: L, x: L::V) -> L::V {
    l.or(
        l.and(l.shr::<K>(x), l.splat(field_low(J))),
        l.and(l.shl::<J>(x), l.splat(BAND ^ field_low(J))),
    )
}

/// Box `k`'s triad of row `r` (bits `9·r + 3·k ..`) swapped with row `k`'s
/// triad of box `r`: each box becomes a 9-bit field, and back.
#[inline(always)]
fn transpose_boxes<L: Lanes>(l: L, x: L::V) -> L::V {
    const DIAG: u32 = 0o700_070_007;
    const BY6: u32 = 0o000_700_070;
    const BY12: u32 = 0o000_000_700;
    let six = l.or(
        l.shl::<6>(l.and(x, l.splat(BY6))),
        l.and(l.shr::<6>(x), l.splat(BY6)),
    );
    let twelve = l.or(
        l.shl::<12>(l.and(x, l.splat(BY12))),
        l.and(l.shr::<12>(x), l.splat(BY12)),
    );
    l.or(l.and(x, l.splat(DIAG)), l.or(six, twelve))
}

/// The bits of `f` (one 9-bit field per lane, the rest zero) when it has
/// exactly two.
#[inline(always)]
fn two_of_field<L: Lanes>(l: L, f: L::V) -> L::V {
    let g = l.and(f, l.dec(f));
    l.and(
        f,
        l.andnot(l.is_zero_mask(g), l.is_zero_mask(l.and(g, l.dec(g)))),
    )
}

/// The cells of each 9-bit field (row) of `u` that has exactly two.
#[inline(always)]
fn two_per_field<L: Lanes>(l: L, u: L::V) -> L::V {
    let row = l.splat(0x1ff);
    let f0 = two_of_field(l, l.and(u, row));
    let f1 = two_of_field(l, l.and(l.shr::<9>(u), row));
    let f2 = two_of_field(l, l.shr::<18>(u));
    l.or(f0, l.or(l.shl::<9>(f1), l.shl::<18>(f2)))
}

/// The cells of each column of `u` that has exactly two (over the three
/// bands).
#[inline(always)]
fn two_per_column<L: Lanes>(l: L, u: L::V) -> L::V {
    let row = l.splat(0x1ff);
    let f0 = l.and(u, row);
    let f1 = l.and(l.shr::<9>(u), row);
    let f2 = l.shr::<18>(u);
    // Per band: at least one, two, three rows.
    let o = l.or(l.or(f0, f1), f2);
    let t = l.or(l.and(f0, f1), l.and(f2, l.or(f0, f1)));
    let h = l.and(l.and(f0, f1), f2);
    let (o1, o2, t1, t2) = (l.rot1(o), l.rot2(o), l.rot1(t), l.rot2(t));
    // Over the bands: at least two, at least three.
    let two = l.or(
        l.or(l.or(t, t1), t2),
        l.or(l.and(o, l.or(o1, o2)), l.and(o1, o2)),
    );
    let three = l.or(
        l.or(l.or(h, l.rot1(h)), l.rot2(h)),
        l.or(
            l.or(l.and(t, l.or(o1, o2)), l.and(o, l.or(t1, t2))),
            l.or(l.or(l.and(t1, o2), l.and(t2, o1)), l.and(o, l.and(o1, o2))),
        ),
    );
    let c = l.andnot(three, two);
    l.and(u, l.or(l.or(c, l.shl::<9>(c)), l.shl::<18>(c)))
}

/// One plane: `e` each digit's places that are one of exactly two in their
/// house, `p` the same moved from the partner cell onto the anchor cell.
/// Returns, per digit, the anchors of hidden pairs the digit is not in.
#[inline(always)]
fn plane<L: Lanes>(l: L, e: &[L::V], p: &[L::V], out: &mut [L::V; 12]) {
    let n = e.len();
    let zero = l.splat(0);
    let mut z = [zero; 12];
    let (mut o, mut t) = (zero, zero);
    for g in 0..n {
        z[g] = l.and(e[g], p[g]);
        t = l.or(t, l.and(o, z[g]));
        o = l.or(o, z[g]);
    }
    let [_, two, _] = l.fold::<false>([o, t, zero]);
    for g in 0..n {
        out[g] = l.andnot(z[g], two);
    }
}

/// Hidden pairs along the 9-bit fields of `u` (rows, or boxes once
/// transposed): the cells to clear per digit, or-ed into `r`.
#[inline(always)]
fn field_pairs<L: Lanes>(l: L, u: &[L::V], r: &mut [L::V]) {
    let n = u.len();
    let zero = l.splat(0);
    let mut e = [zero; 12];
    for g in 0..n {
        e[g] = two_per_field(l, u[g]);
    }
    let e = &e[..n];
    let mut p = [zero; 12];
    let mut x = [zero; 12];
    macro_rules! cycle {
        ($k:literal, $j:literal) => {
            for g in 0..n {
                p[g] = fdown::<L, $k, $j>(l, e[g]);
            }
            plane(l, e, &p[..n], &mut x);
            for g in 0..n {
                r[g] = l.or(r[g], l.or(x[g], fdown::<L, $j, $k>(l, x[g])));
            }
        };
    }
    cycle!(1, 8);
    cycle!(2, 7);
    cycle!(3, 6);
    cycle!(4, 5);
}

/// Hidden pairs in the columns of `u`: the cells to clear per digit, or-ed
/// into `r`.
#[inline(always)]
fn column_pairs<L: Lanes>(l: L, u: &[L::V], r: &mut [L::V]) {
    let n = u.len();
    let zero = l.splat(0);
    let mut e = [zero; 12];
    for g in 0..n {
        e[g] = two_per_column(l, u[g]);
    }
    let e = &e[..n];
    let mut p = [zero; 12];
    let mut x = [zero; 12];
    // Inside a band: row r with row r + 1.
    for g in 0..n {
        p[g] = rows_down(l, e[g]);
    }
    plane(l, e, &p[..n], &mut x);
    for g in 0..n {
        r[g] = l.or(r[g], l.or(x[g], rows_up(l, x[g])));
    }
    // Band b row r with band b + 1 row r + s.
    for g in 0..n {
        p[g] = l.rot1(e[g]);
    }
    for s in 0..3 {
        if s > 0 {
            for g in 0..n {
                p[g] = rows_down(l, p[g]);
            }
        }
        plane(l, e, &p[..n], &mut x);
        for g in 0..n {
            let mut back = x[g];
            for _ in 0..s {
                back = rows_up(l, back);
            }
            r[g] = l.or(r[g], l.or(x[g], l.rot2(back)));
        }
    }
}

/// Hidden pairs in every row, column and box of `bd`, all found on the
/// board as given and removed at once. `true` when a candidate was removed
/// (the board then needs propagating).
#[inline(always)]
pub(crate) fn hidden_pairs<L: Lanes>(l: L, bd: &mut Board) -> bool {
    let zero = l.splat(0);
    let mut cand = [zero; 12];
    l.load_cand(&bd.cand, &mut cand);
    let solved = l.load_solved(&bd.solved);
    let n = L::N;
    let mut u = [zero; 12];
    let mut ub = [zero; 12];
    for g in 0..n {
        u[g] = l.andnot(solved, cand[g]);
        ub[g] = transpose_boxes(l, u[g]);
    }
    let mut r = [zero; 12];
    let mut rb = [zero; 12];
    field_pairs(l, &u[..n], &mut r[..n]);
    column_pairs(l, &u[..n], &mut r[..n]);
    field_pairs(l, &ub[..n], &mut rb[..n]);
    let mut hit = zero;
    for g in 0..n {
        let gone = l.and(cand[g], l.or(r[g], transpose_boxes(l, rb[g])));
        hit = l.or(hit, gone);
        cand[g] = l.andnot(gone, cand[g]);
    }
    if l.all_zero(hit) {
        return false;
    }
    l.store_cand(&cand[..n], &mut bd.cand);
    true
}

#[cfg(test)]
mod tests {
    use super::super::arch::{Avx2, Portable, SLOTS};
    use super::*;

    /// The 27 houses as lists of (band, bit).
    fn houses() -> Vec<Vec<(usize, u32)>> {
        let mut out = Vec::new();
        for r in 0..9 {
            out.push((0..9).map(|c| (r / 3, (9 * (r % 3) + c) as u32)).collect());
        }
        for c in 0..9 {
            out.push((0..9).map(|r| (r / 3, (9 * (r % 3) + c) as u32)).collect());
        }
        for b in 0..9 {
            out.push(
                (0..9)
                    .map(|i| {
                        let (r, c) = (3 * (b / 3) + i / 3, 3 * (b % 3) + i % 3);
                        (r / 3, (9 * (r % 3) + c) as u32)
                    })
                    .collect(),
            );
        }
        out
    }

    /// The definition, house by house, all pairs found on the input.
    fn reference(w: [[u32; 3]; 9], solved: [u32; 3]) -> [[u32; 3]; 9] {
        let mut out = w;
        for h in houses() {
            let places = |d: usize| -> Vec<(usize, u32)> {
                h.iter()
                    .copied()
                    .filter(|&(b, i)| solved[b] >> i & 1 == 0 && w[d][b] >> i & 1 == 1)
                    .collect()
            };
            for d in 0..9 {
                let pd = places(d);
                if pd.len() != 2 {
                    continue;
                }
                for e in d + 1..9 {
                    if places(e) == pd {
                        // Every digit not on the same two cells (three
                        // digits on two cells stay: a contradiction the
                        // search finds later).
                        for x in 0..9 {
                            if places(x) != pd {
                                for &(b, i) in &pd {
                                    out[x][b] &= !(1 << i);
                                }
                            }
                        }
                    }
                }
            }
        }
        out
    }

    fn run<L: Lanes>(l: L, w: [[u32; 3]; 9], solved: [u32; 3]) -> ([[u32; 3]; 9], bool) {
        let mut bd = Board {
            cand: [[0u32; 4]; SLOTS],
            solved: [[solved[0], solved[1], solved[2], 0]; 4],
        };
        for d in 0..9 {
            bd.cand[d] = [w[d][0], w[d][1], w[d][2], 0];
        }
        let hit = hidden_pairs(l, &mut bd);
        let mut out = [[0u32; 3]; 9];
        for d in 0..9 {
            out[d] = [bd.cand[d][0], bd.cand[d][1], bd.cand[d][2]];
            assert_eq!(bd.cand[d][3], 0);
        }
        for d in 9..SLOTS {
            assert_eq!(bd.cand[d], [0; 4]);
        }
        (out, hit)
    }

    #[test]
    fn hidden_pairs_match_the_definition_on_every_kernel() {
        let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        let mut fired = 0;
        for round in 0..4000 {
            let mut w = [[0u32; 3]; 9];
            // Sparse words, so that houses often hold a digit twice.
            for d in w.iter_mut() {
                for b in d.iter_mut() {
                    let a = next();
                    let mut m = a as u32 & (a >> 32) as u32;
                    if round % 3 != 0 {
                        m &= next() as u32;
                    }
                    *b = m & BAND;
                }
            }
            // Plant pairs: a second digit copies a digit's word on a house.
            for _ in 0..3 {
                let a = next();
                let (d, e) = ((a % 9) as usize, ((a >> 8) % 9) as usize);
                let b = ((a >> 16) % 3) as usize;
                let m = [
                    0x1ffu32 << (9 * ((a >> 20) % 3)),
                    super::super::tables::BOX_MASK[((a >> 24) % 3) as usize],
                ][((a >> 28) % 2) as usize];
                w[e][b] = (w[e][b] & !m) | (w[d][b] & m);
            }
            let s = next();
            let solved = if round % 4 == 0 {
                [s as u32 & (s >> 32) as u32 & (s >> 16) as u32 & BAND, 0, 0]
            } else {
                [0; 3]
            };
            let want = reference(w, solved);
            fired += usize::from(want != w);
            assert_eq!(run(Portable, w, solved), (want, want != w), "{w:x?}");
            if let Some(k) = Avx2::detect() {
                assert_eq!(run(k, w, solved), (want, want != w), "{w:x?}");
            }
            #[cfg(all(target_arch = "x86_64", fast_avx512))]
            if let Some(k) = super::super::arch::Avx512::detect() {
                assert_eq!(run(k, w, solved), (want, want != w), "{w:x?}");
            }
        }
        assert!(fired > 400, "boards with removals: {fired}");
    }
}
