//! Constant tables for the band/stack layout of [`super::board::Board`].
//!
//! Layout: a 9×9 grid is three bands of three rows. For one digit, a band is a
//! 27-bit word, bit `9·r + c` for row `r` (0..3) of the band and column `c`
//! (0..9). The "triad" of (row `r`, box `k`) is the three bits
//! `9·r + 3·k .. 9·r + 3·k + 3`.

/// All 27 cell bits of a band.
pub(crate) const BAND: u32 = (1 << 27) - 1;

/// The nine cells of box `k` (0..3) inside a band.
pub(crate) const BOX_MASK: [u32; 3] = [0x1c0e07, 0x1c0e07 << 3, 0x1c0e07 << 6];

/// Reference for the bit-parallel locked-candidates step (tests only).
/// `PERM[t]` for a 3×3 occupancy matrix `t` (bit `3·i + j`): the union of the
/// six permutation matrices contained in `t`, or 0 if none is.
///
/// In one band a digit takes exactly one triad per row and per box, and the
/// triads it takes form a permutation matrix; the same holds for a stack with
/// columns in place of rows. Triads outside every permutation that fits can
/// be dropped. This is the band-wise formulation of locked candidates
/// (pointing and claiming) used by JCZSolve (J. C. Zeng, 2012, described on
/// the New Sudoku Players' Forum) and tdoku (T. Dillon, 2019, "Tdoku: a fast
/// Sudoku solver", its design notes); the table here is computed from the
/// definition.
#[cfg(test)]
pub(crate) static PERM: [u16; 512] = perm_table();

#[cfg(test)]
const fn perm_table() -> [u16; 512] {
    const PERMS: [[usize; 3]; 6] = [
        [0, 1, 2],
        [0, 2, 1],
        [1, 0, 2],
        [1, 2, 0],
        [2, 0, 1],
        [2, 1, 0],
    ];
    let mut out = [0u16; 512];
    let mut t = 0;
    while t < 512 {
        let mut acc = 0u16;
        let mut p = 0;
        while p < 6 {
            let m =
                (1u16 << PERMS[p][0]) | (1u16 << (3 + PERMS[p][1])) | (1u16 << (6 + PERMS[p][2]));
            if m & (t as u16) == m {
                acc |= m;
            }
            p += 1;
        }
        out[t] = acc;
        t += 1;
    }
    out
}

/// `TRIAD_EXPAND[a]`: the 27-bit band mask of the triads in the 9-bit set `a`.
pub(crate) static TRIAD_EXPAND: [u32; 512] = triad_expand_table();

const fn triad_expand_table() -> [u32; 512] {
    let mut out = [0u32; 512];
    let mut a = 0;
    while a < 512 {
        let mut m = 0u32;
        let mut i = 0;
        while i < 9 {
            if a & (1 << i) != 0 {
                m |= 7 << (3 * i);
            }
            i += 1;
        }
        out[a] = m;
        a += 1;
    }
    out
}

/// The six 3×3 permutation matrices (bit `3·i + j` for entry (i, j)).
const PERMS6: [u16; 6] = [
    0b100_010_001,
    0b010_100_001,
    0b100_001_010,
    0b001_100_010,
    0b010_001_100,
    0b001_010_100,
];

/// `CONFIGS[t]` for a 3×3 occupancy matrix `t` (bit `3·i + j`): how many
/// permutation matrices `t` contains (0..=6), the number of ways a digit
/// can still lay its triads in a band or stack (tests only: the search
/// counts them with bit operations, see `board::layouts`).
#[cfg(test)]
pub(crate) static CONFIGS: [u8; 512] = configs_table();

#[cfg(test)]
const fn configs_table() -> [u8; 512] {
    let mut out = [0u8; 512];
    let mut t = 0;
    while t < 512 {
        let mut p = 0;
        while p < 6 {
            if PERMS6[p] & (t as u16) == PERMS6[p] {
                out[t] += 1;
            }
            p += 1;
        }
        t += 1;
    }
    out
}

/// `SPLIT[t]` for a 3×3 occupancy matrix `t` (bit `3·i + j`) that
/// contains two or more permutation matrices: the union of those of them
/// that hold the entry lying on the fewest of them (at least one; the
/// lowest entry on a tie), and the union of the others. A digit whose
/// triads in a band (or stack) are `t` has those two sets of layouts to
/// branch between: with two layouts, one each; with more, one layout (or as
/// few as share an entry) against the rest. Zeros when `t` contains fewer
/// than two.
pub(crate) static SPLIT: [[u16; 2]; 512] = split_table();

const fn split_table() -> [[u16; 2]; 512] {
    let mut out = [[0u16; 2]; 512];
    let mut t = 0;
    while t < 512 {
        let mut inside = [false; 6];
        let mut n = 0;
        let mut p = 0;
        while p < 6 {
            inside[p] = PERMS6[p] & (t as u16) == PERMS6[p];
            n += inside[p] as u32;
            p += 1;
        }
        if n >= 2 {
            let mut best = 7;
            let mut pick = 0;
            let mut i = 0;
            while i < 9 {
                let mut k = 0;
                let mut p = 0;
                while p < 6 {
                    if inside[p] && PERMS6[p] & (1 << i) != 0 {
                        k += 1;
                    }
                    p += 1;
                }
                if k >= 1 && k < best {
                    best = k;
                    pick = i;
                }
                i += 1;
            }
            let mut p = 0;
            while p < 6 {
                if inside[p] {
                    let side = if PERMS6[p] & (1 << pick) != 0 { 0 } else { 1 };
                    out[t][side] |= PERMS6[p];
                }
                p += 1;
            }
        }
        t += 1;
    }
    out
}

/// `PEERS[cell]`: per band, the cells that share a row, column or box with
/// `cell` (the cell itself excluded). Cell index = `27·band + bit`.
pub(crate) static PEERS: [[u32; 4]; 81] = peers_table();

const fn peers_table() -> [[u32; 4]; 81] {
    let mut out = [[0u32; 4]; 81];
    let mut cell = 0;
    while cell < 81 {
        let (r, c) = (cell / 9, cell % 9);
        let mut other = 0;
        while other < 81 {
            let (r2, c2) = (other / 9, other % 9);
            if other != cell && (r == r2 || c == c2 || (r / 3 == r2 / 3 && c / 3 == c2 / 3)) {
                out[cell][other / 27] |= 1 << (other % 27);
            }
            other += 1;
        }
        cell += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn perm_table_examples() {
        assert_eq!(PERM[0x1ff], 0x1ff);
        assert_eq!(PERM[0], 0);
        // identity only
        assert_eq!(PERM[0b100_010_001], 0b100_010_001);
        // a row with no triad admits nothing
        assert_eq!(PERM[0b111_111_000], 0);
        // row 0 fixed to box 0: boxes 0 is then unavailable to rows 1, 2
        assert_eq!(PERM[0b111_111_001], 0b110_110_001);
    }

    #[test]
    fn split_examples() {
        // a 2×2 block and a fixed entry: one layout each
        assert_eq!(SPLIT[0b100_011_011], [0b100_010_001, 0b100_001_010]);
        // two disjoint layouts (identity and a 3-cycle)
        let t = (0b100_010_001 | 0b001_100_010) as usize;
        assert_eq!(SPLIT[t][0] | SPLIT[t][1], t as u16);
        assert_eq!(SPLIT[0b100_010_001], [0, 0]);
        assert_eq!(SPLIT[0], [0, 0]);
        for t in 0..512usize {
            let [a, b] = SPLIT[t];
            if CONFIGS[t] >= 2 {
                // two non-empty sides, each a union of layouts inside t,
                // together all of them
                assert!(a != 0 && b != 0, "{t:09b}");
                assert_eq!(a | b, PERM[t], "{t:09b}");
                assert_eq!(PERM[usize::from(a)], a);
                assert_eq!(PERM[usize::from(b)], b);
                assert_eq!(
                    CONFIGS[usize::from(a)] + CONFIGS[usize::from(b)],
                    CONFIGS[t],
                    "{t:09b}"
                );
            } else {
                assert_eq!([a, b], [0, 0]);
            }
        }
        assert_eq!(CONFIGS[0x1ff], 6);
    }

    #[test]
    fn peers_have_twenty_cells() {
        for p in &PEERS {
            assert_eq!(p.iter().map(|w| w.count_ones()).sum::<u32>(), 20);
        }
    }

    #[test]
    fn masks() {
        assert_eq!(BOX_MASK[0].count_ones(), 9);
        assert_eq!(BOX_MASK[0] | BOX_MASK[1] | BOX_MASK[2], BAND);
        assert_eq!(TRIAD_EXPAND[0x1ff], BAND);
    }
}
