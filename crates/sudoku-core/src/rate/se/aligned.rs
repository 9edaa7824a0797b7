//! Aligned pair exclusion (6.2) as Sudoku Explainer's
//! `AlignedPairExclusion` producer searches it.
//!
//! Base cells: cells with at least two candidates, none of whose peers has a
//! single candidate, with at least one bivalue peer (reading order). For
//! each pair of base cells (pairs in increasing order of the second cell's
//! position in that list, then of the first), with at least two bivalue
//! cells seeing both: a combination of a digit of each is excluded if the
//! two cells see each other and the digits are equal, or if some such
//! bivalue cell holds just those two digits. A digit of a base cell that is
//! in no remaining combination is removed.

use super::SeStep;
use super::board::Ones;
use super::board::{Board, PEER_MASK, digits, see};

/// The first aligned pair exclusion, if any.
///
/// `memo` keeps the candidates of the last board searched without a step.
/// Whether a pair is tried, and what it removes, is read from the
/// candidates of its two cells and of the cells seeing both (its common
/// excluders; two or more, so each cell has an excluder), and from which
/// of the two cells' peers have a single candidate (no base cell has one).
/// So when no changed cell has a single candidate, before or now, a pair
/// none of whose cells changed and with no changed cell seeing both gave
/// nothing then and gives nothing now: it is not tried again (the others
/// are tried in the same order: exact), as for [`find_triplet`].
pub(super) fn find(b: &Board, step: &mut SeStep, memo: &mut PairMemo) -> bool {
    let changed = changed_since(memo.searched.take(), b);
    if find_among(b, step, changed) {
        return true;
    }
    memo.searched = Some(b.cand);
    false
}

/// What the aligned pair search keeps from one step to the next: the
/// candidates of the last board it found no step on.
#[derive(Default)]
pub(super) struct PairMemo {
    searched: Option<[u16; 81]>,
}

/// The cells whose candidates changed since `before`; `None` (try
/// everything) without a board before, or if a changed cell has a single
/// candidate, before or now.
fn changed_since(before: Option<[u16; 81]>, b: &Board) -> Option<u128> {
    let before = before?;
    let mut changed = 0u128;
    for c in 0..81 {
        if before[c] != b.cand[c] {
            if before[c].ones() == 1 || b.cand[c].ones() == 1 {
                return None;
            }
            changed |= 1 << c;
        }
    }
    Some(changed)
}

/// The first aligned pair exclusion, among the pairs with a cell in
/// `changed` or a cell of `changed` seeing both when given.
fn find_among(b: &Board, step: &mut SeStep, changed: Option<u128>) -> bool {
    let by_size = cells_by_size(b);
    let mut base: Vec<usize> = Vec::new();
    let mut excluders: Vec<u128> = Vec::new();
    for cell in 0..81 {
        if by_size[0] & 1 << cell != 0 || PEER_MASK[cell] & by_size[1] != 0 {
            continue;
        }
        let ex = PEER_MASK[cell] & by_size[2];
        if ex != 0 {
            base.push(cell);
            excluders.push(ex);
        }
    }
    let mut locks: Vec<u16> = Vec::with_capacity(20);
    let near = near_base(&base, changed);
    for j in 1..base.len() {
        let mut firsts = firsts(near, j);
        while firsts != 0 {
            let i = firsts.trailing_zeros() as usize;
            firsts &= firsts - 1;
            let common = excluders[i] & excluders[j];
            if !two_or_more(common) {
                continue;
            }
            let (c0, c1) = (base[i], base[j]);
            if let Some(changed) = changed
                && changed & (1 << c0 | 1 << c1 | PEER_MASK[c0] & PEER_MASK[c1]) == 0
            {
                continue;
            }
            let aligned = see(c0, c1);
            locks.clear();
            locks.extend(bits128(common).map(|c| b.cand[c]));
            let (mut ok0, mut ok1) = (0u16, 0u16);
            for p0 in digits(b.cand[c0]) {
                for p1 in digits(b.cand[c1]) {
                    if p0 == p1 && aligned {
                        continue;
                    }
                    let pair = (1u16 << (p0 - 1)) | (1 << (p1 - 1));
                    if locks.iter().any(|&m| m & !pair == 0) {
                        continue;
                    }
                    ok0 |= 1 << (p0 - 1);
                    ok1 |= 1 << (p1 - 1);
                }
                // Every digit of both cells is in some combination: nothing
                // can be removed (exact: the sets only grow).
                if ok0 == b.cand[c0] && ok1 == b.cand[c1] {
                    break;
                }
            }
            let rem0 = b.cand[c0] & !ok0;
            let rem1 = b.cand[c1] & !ok1;
            if rem0 | rem1 != 0 {
                step.set("Aligned Pair Exclusion", 62);
                for d in digits(rem0) {
                    step.remove(c0, d);
                }
                for d in digits(rem1) {
                    step.remove(c1, d);
                }
                step.cells.extend([c0, c1]);
                return true;
            }
        }
    }
    false
}

/// The first aligned triplet exclusion (7.5), as Explainer's
/// `AlignedExclusion` producer of degree 3 searches it.
///
/// Base cells: cells with at least two candidates, none of whose peers has a
/// single candidate, with at least one peer of two or three candidates (the
/// "excluders"); in reading order. Explainer takes each pair of base cells
/// (in the pair order of [`find`]), then as third cell each base cell that
/// is an excluder of the first (peers in reading order) or else of the
/// second; the three need at least two excluders seeing all three. A
/// combination of one digit per cell is excluded if two cells that see each
/// other hold the same digit, or if some common excluder's candidates all
/// lie in the combination. A digit of a base cell in no remaining
/// combination is removed; the first triplet that removes something is the
/// step.
///
/// `memo` keeps the candidates of the last board searched without a step.
/// Whether a triplet is tried, and what it removes, is read from the
/// candidates of its three cells and of the cells seeing all three (its
/// common excluders), and from which of the three cells' peers have a
/// single candidate (no base cell has one). So when no changed cell has a
/// single candidate, before or now, a triplet none of whose cells changed
/// and with no changed cell seeing all three gave nothing then and gives
/// nothing now: it is not tried again (the others are tried in the same
/// order: exact).
pub(super) fn find_triplet(b: &Board, step: &mut SeStep, memo: &mut TripletMemo) -> bool {
    // The changed cells (`None`: try every triplet).
    let changed = changed_since(memo.searched.take(), b);
    if find_triplet_among(b, step, changed) {
        return true;
    }
    memo.searched = Some(b.cand);
    false
}

/// What the aligned triplet search keeps from one step to the next: the
/// candidates of the last board it found no step on.
#[derive(Default)]
pub(super) struct TripletMemo {
    searched: Option<[u16; 81]>,
}

/// The first aligned triplet exclusion, among the triplets with a cell in
/// `changed` or a cell of `changed` seeing all three when given.
fn find_triplet_among(b: &Board, step: &mut SeStep, changed: Option<u128>) -> bool {
    let by_size = cells_by_size(b);
    let mut base: Vec<usize> = Vec::new();
    let mut excluders: Vec<u128> = Vec::new();
    let mut is_base = 0u128;
    for cell in 0..81 {
        if by_size[0] & 1 << cell != 0 || PEER_MASK[cell] & by_size[1] != 0 {
            continue;
        }
        let ex = PEER_MASK[cell] & (by_size[2] | by_size[3]);
        if ex != 0 {
            base.push(cell);
            excluders.push(ex);
            is_base |= 1 << cell;
        }
    }
    if base.len() < 3 {
        return false;
    }
    let mut ex_of = [0u128; 81];
    for (i, &c) in base.iter().enumerate() {
        ex_of[c] = excluders[i];
    }
    // The trivalue common excluders of three cells.
    let mut triples: Vec<u16> = Vec::with_capacity(16);
    let near = near_base(&base, changed);
    for j in 1..base.len() {
        let mut firsts = firsts(near, j);
        while firsts != 0 {
            let i = firsts.trailing_zeros() as usize;
            firsts &= firsts - 1;
            let (c0, c1) = (base[i], base[j]);
            let pair_common = excluders[i] & excluders[j];
            if !two_or_more(pair_common) {
                // Every triplet's common excluders lie in this pair's.
                continue;
            }
            let mut first = excluders[i] & is_base & !(1 << c0) & !(1 << c1);
            let mut second = excluders[j] & is_base & !first & !(1 << c0) & !(1 << c1);
            if let Some(changed) = changed
                && changed & (1 << c0 | 1 << c1) == 0
            {
                // The tails to try: the changed cells, and the peers of a
                // changed cell seeing both `c0` and `c1`.
                let mut tails = changed;
                for d in bits128(changed & PEER_MASK[c0] & PEER_MASK[c1]) {
                    tails |= PEER_MASK[d];
                }
                first &= tails;
                second &= tails;
                if first | second == 0 {
                    continue;
                }
            }
            // The cells seeing two or more of the pair's common excluders
            // (a tail's excluders are its peers among the cells of two or
            // three candidates, which all of `pair_common` are): the other
            // tails have fewer than two common excluders.
            let (mut once, mut twice) = (0u128, 0u128);
            for e in bits128(pair_common) {
                twice |= once & PEER_MASK[e];
                once |= PEER_MASK[e];
            }
            let (u01, k0, k1) = (b.cand[c0] | b.cand[c1], b.cand[c0], b.cand[c1]);
            for tail in bits128(first & twice).chain(bits128(second & twice)) {
                let common = pair_common & ex_of[tail];
                debug_assert!(two_or_more(common));
                // An excluder with a digit none of the three holds is in
                // no combination: it excludes nothing.
                let k2 = b.cand[tail];
                let union = u01 | k2;
                // The bivalue ones as a table: per digit, the digits it
                // shares one with.
                let mut partner = [0u16; 9];
                triples.clear();
                for c in bits128(common) {
                    let l = b.cand[c];
                    if l & !union != 0 {
                        continue;
                    }
                    let low = l & l.wrapping_neg();
                    let high = l ^ low;
                    if high & high.wrapping_sub(1) == 0 {
                        partner[low.trailing_zeros() as usize] |= high;
                        partner[high.trailing_zeros() as usize] |= low;
                    } else {
                        triples.push(l);
                    }
                }
                let cells = [c0, c1, tail];
                if exclude3(cells, [k0, k1, k2], &partner, &triples, step) {
                    return true;
                }
            }
        }
    }
    false
}

/// The base cells (bits of their indices in `base`) within reach of a
/// changed cell: changed, or a peer of one (all of them without `changed`).
/// A pair is retried only if one of its cells changed or a changed cell
/// sees both, a triplet only if one of its cells changed (its tail is a
/// peer of one of the first two) or a changed cell sees all three: either
/// way one of the first two cells is within reach, so the pairs of two
/// other cells are passed over (exact).
fn near_base(base: &[usize], changed: Option<u128>) -> u128 {
    let Some(changed) = changed else {
        return !0;
    };
    let mut reach = changed;
    for d in bits128(changed) {
        reach |= PEER_MASK[d];
    }
    base.iter()
        .enumerate()
        .fold(0, |m, (i, &c)| m | (reach >> c & 1) << i)
}

/// The first cells (indices below `j`) to pair with base cell `j`, given
/// [`near_base`]: all of them if `j` is within reach, else those that are.
#[inline]
fn firsts(near: u128, j: usize) -> u128 {
    let below = (1u128 << j) - 1;
    if near >> j & 1 != 0 {
        below
    } else {
        near & below
    }
}

/// Cell sets by candidate count: `[0 or 1, exactly 1, exactly 2, exactly
/// 3]` (a filled cell has none).
fn cells_by_size(b: &Board) -> [u128; 4] {
    let mut t = [0u128; 4];
    for c in 0..81 {
        let m = b.cand[c];
        let n = m.ones() as usize;
        if n < 2 {
            t[0] |= 1 << c;
        }
        if (1..=3).contains(&n) {
            t[n] |= 1 << c;
        }
    }
    t
}

/// Whether a cell set has two or more cells.
#[inline]
fn two_or_more(m: u128) -> bool {
    m & m.wrapping_sub(1) != 0
}

/// The set bits of a 128-bit cell set, ascending.
fn bits128(mut m: u128) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (m != 0).then(|| {
            let c = m.trailing_zeros() as usize;
            m &= m - 1;
            c
        })
    })
}

/// Aligned exclusion over three cells (candidates `k`) with the given
/// common excluders (the bivalue ones as `partner`: per digit, the digits it
/// shares one with; the trivalue ones in `triples`); fills `step` if it
/// removes something.
///
/// A combination is excluded by a bivalue excluder `{a, b}` exactly when it
/// holds both `a` and `b`, and by a trivalue one exactly when it holds all
/// three digits; the removals are the digits in no remaining combination,
/// so the order in which combinations are tried does not matter.
fn exclude3(
    cells: [usize; 3],
    k: [u16; 3],
    partner: &[u16; 9],
    triples: &[u16],
    step: &mut SeStep,
) -> bool {
    let [c0, c1, c2] = cells;
    let (s01, s02, s12) = (see(c0, c1), see(c0, c2), see(c1, c2));
    // The digits of each cell in some combination so far, and all of
    // them, in 16-bit lanes of one word.
    let mut ok = 0u64;
    let full = pack(k);
    let rest_full = full & !0xffff;
    // (At most 20: a cell's peers.)
    let mut tri0 = [0u16; 20];
    for p0 in digits(k[0]) {
        let i0 = usize::from(p0 - 1);
        let m0 = 1u16 << i0;
        // A second digit sharing a bivalue excluder with the first
        // excludes every third; one sharing a trivalue excluder with it
        // excludes that excluder's third digit.
        let mut p1s = k[1] & !partner[i0];
        let mut p2_base = k[2] & !partner[i0];
        if s01 {
            p1s &= !m0;
        }
        if s02 {
            p2_base &= !m0;
        }
        let mut n0 = 0;
        for &l in triples {
            if l & m0 != 0 {
                tri0[n0] = l & !m0;
                n0 += 1;
            }
        }
        let tri = &tri0[..n0];
        for p1 in digits(p1s) {
            let i1 = usize::from(p1 - 1);
            let m1 = 1u16 << i1;
            let mut p2s = p2_base & !partner[i1];
            if s12 {
                p2s &= !m1;
            }
            for &r in tri {
                if r & m1 != 0 {
                    p2s &= !(r & !m1);
                }
            }
            if p2s == 0 {
                continue;
            }
            ok |= pack([m0, m1, p2s]);
            // Every digit of the three cells is in some combination:
            // nothing can be removed (exact: `ok` only grows).
            if ok == full {
                return false;
            }
            // The other two cells' digits are all in some combination and
            // this first digit is too: its other combinations add nothing.
            if ok & rest_full == rest_full {
                break;
            }
        }
    }
    if full & !ok == 0 {
        return false;
    }
    let rem: [u16; 3] = std::array::from_fn(|k| ((full & !ok) >> (16 * k)) as u16);
    step.set("Aligned Triplet Exclusion", 75);
    for k in 0..3 {
        for d in digits(rem[k]) {
            step.remove(cells[k], d);
        }
    }
    step.cells.extend(cells);
    true
}

/// Three cells' digit masks in the 16-bit lanes of a word.
#[inline]
fn pack(m: [u16; 3]) -> u64 {
    u64::from(m[0]) | u64::from(m[1]) << 16 | u64::from(m[2]) << 32
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rate::se::Profile;
    use crate::rate::se::tests::{MEMO_PUZZLES, boards_past_singles};

    /// The removals of three cells' aligned exclusion by the definition:
    /// every combination of one digit per cell, excluded if two cells that
    /// see each other hold the same digit or some excluder's candidates all
    /// lie in it.
    fn removals_by_definition(cells: [usize; 3], k: [u16; 3], locks: &[u16]) -> [u16; 3] {
        let mut ok = [0u16; 3];
        for p0 in digits(k[0]) {
            for p1 in digits(k[1]) {
                for p2 in digits(k[2]) {
                    let p = [p0, p1, p2];
                    let clash =
                        (0..3).any(|i| (i + 1..3).any(|j| p[i] == p[j] && see(cells[i], cells[j])));
                    let m = p.iter().fold(0u16, |m, &d| m | 1 << (d - 1));
                    if clash || locks.iter().any(|&l| l & !m == 0) {
                        continue;
                    }
                    for i in 0..3 {
                        ok[i] |= 1 << (p[i] - 1);
                    }
                }
            }
        }
        std::array::from_fn(|i| k[i] & !ok[i])
    }

    /// `exclude3` with its partner table and trivalue list removes exactly
    /// what the definition removes, on pseudo-random cells, candidates and
    /// excluders (the cases where nothing is removed included).
    #[test]
    fn triplet_combinations_match_the_definition() {
        let mut s = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move |n: u64| {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            s % n
        };
        let mut removing = 0;
        for _ in 0..20_000 {
            let c0 = next(81) as usize;
            // Often close to each other, so that they see each other.
            let near = |c: usize, r: u64| (c + 1 + r as usize) % 81;
            let c1 = near(c0, next(12));
            let mut c2 = near(c1, next(12));
            if c2 == c0 {
                c2 = (c2 + 1) % 81;
            }
            let mut k = [0u16; 3];
            for m in &mut k {
                while m.count_ones() < 2 + next(3) as u32 {
                    *m |= 1 << next(5);
                }
            }
            let union = k[0] | k[1] | k[2];
            let mut locks = Vec::new();
            for _ in 0..next(5) {
                let size = 2 + next(2) as u32;
                let mut l = 0u16;
                for _ in 0..30 {
                    if l.count_ones() == size {
                        break;
                    }
                    let d = next(9);
                    if union >> d & 1 != 0 {
                        l |= 1 << d;
                    }
                }
                if l.count_ones() == size {
                    locks.push(l);
                }
            }
            let mut partner = [0u16; 9];
            let mut triples = Vec::new();
            for &l in &locks {
                if l.count_ones() == 2 {
                    let (a, b) = (l.trailing_zeros(), 15 - l.leading_zeros());
                    partner[a as usize] |= 1 << b;
                    partner[b as usize] |= 1 << a;
                } else {
                    triples.push(l);
                }
            }
            let cells = [c0, c1, c2];
            let want = removals_by_definition(cells, k, &locks);
            let mut step = SeStep::new();
            let found = exclude3(cells, k, &partner, &triples, &mut step);
            let mut got = [0u16; 3];
            for e in &step.eliminations {
                let i = cells.iter().position(|&c| c == e.cell).unwrap();
                got[i] |= 1 << (e.digit - 1);
            }
            assert_eq!(found, want != [0; 3], "{cells:?} {k:?} {locks:?}");
            assert_eq!(got, want, "{cells:?} {k:?} {locks:?}");
            removing += usize::from(found);
        }
        // The sample exercises both outcomes.
        assert!(removing > 100, "{removing}");
    }

    /// The pair search with what the previous boards of a path left in its
    /// memo takes the step the search from scratch takes, on every board
    /// of five hard puzzles' paths past the singles (SE 1.2.1's ladder;
    /// three paths take aligned pair exclusions).
    #[test]
    fn the_memo_changes_no_pair_step() {
        let (mut boards, mut steps_found, mut kept) = (0, 0, 0);
        for line in MEMO_PUZZLES {
            let mut memo = PairMemo::default();
            for b in boards_past_singles(line, Profile::Se) {
                boards += 1;
                kept += usize::from(memo.searched.is_some());
                let (mut with, mut without) = (SeStep::new(), SeStep::new());
                let found = find(&b, &mut with, &mut memo);
                assert_eq!(
                    found,
                    find(&b, &mut without, &mut PairMemo::default()),
                    "{line}"
                );
                assert_eq!(with, without, "{line}");
                steps_found += usize::from(found);
            }
        }
        assert!(
            boards > 20 && steps_found > 2 && kept > 10,
            "{boards} boards, {steps_found} steps, {kept} with a memo"
        );
    }

    /// The search with what the previous boards of a path left in its memo
    /// takes the step the search from scratch takes, on every board of
    /// five hard puzzles' paths past the singles (SE 1.2.1's ladder; one
    /// path takes an aligned triplet exclusion).
    #[test]
    fn the_memo_changes_no_triplet_step() {
        let (mut boards, mut steps_found, mut kept) = (0, 0, 0);
        for line in [
            "..21....8.68....4.71...9...8..2.17......6......59.8..3...6...17.7....83.2....79..",
            ".24.6.7..5.74.9.1.....7......5.9487147.6.85.3..8..7.6.7......46.46..3.57.5.7461..",
            "8...43..1.31.57..8.721......9351......5....1.18.3..........1.67..7..91..318765924",
            "..67..391..93...623......4.....3...4..72...134.3..1....31..8.75..49531.6.65....3.",
            "3.64....1.8.2...9671..6.4..96...52..17.....64..37.6..96...8..4223...46..84.6.29.5",
        ] {
            let mut memo = TripletMemo::default();
            for b in boards_past_singles(line, Profile::Se) {
                boards += 1;
                kept += usize::from(memo.searched.is_some());
                let (mut with, mut without) = (SeStep::new(), SeStep::new());
                let found = find_triplet(&b, &mut with, &mut memo);
                assert_eq!(
                    found,
                    find_triplet(&b, &mut without, &mut TripletMemo::default()),
                    "{line}"
                );
                assert_eq!(with, without, "{line}");
                steps_found += usize::from(found);
            }
        }
        assert!(
            boards > 20 && steps_found > 0 && kept > 10,
            "{boards} boards, {steps_found} steps, {kept} with a memo"
        );
    }
}
