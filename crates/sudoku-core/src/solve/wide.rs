//! `wide`: a bit-parallel solver for the large grids (16×16 and 25×25; it
//! runs 4×4 and 9×9 too).
//!
//! # Layout
//!
//! The candidates are stored per digit as a bitboard over the grid: digit
//! `d`'s board is `n` row words, bit `c` of word `r` set when `d` can still
//! go in (or is placed in) cell `r`,`c`. Rows are padded to one `u32` lane
//! each (a 16×16 board is 16 lanes, a 25×25 one 25), so a row, a column
//! (one bit position across the lanes) and a box (`b` lanes, a `b`-bit field)
//! are all reached with whole-word operations, and the loops over lanes are
//! plain array loops the compiler vectorises. A placed digit keeps its bit,
//! so every house of every digit has at least one bit in a consistent state,
//! and "digit has no place in a house" is "no bit". A per-row mask of filled
//! cells tells placed bits from open ones.
//!
//! # Propagation
//!
//! Each step works on whole boards:
//!
//! - **naked singles**: the digits' lanes of a row are summed with "seen
//!   once" / "seen twice" masks (`twice |= once & x; once |= x`), which give
//!   every cell with one candidate (placed) and with none (a dead end) in
//!   `n` word operations per row;
//! - **hidden singles**: per digit, a row with one bit, a column with one bit
//!   (the same once/twice masks over the lanes) and a box with one bit (the
//!   masks over the box's lanes, then its `b`-bit field) place the digit;
//!   a house with no bit is a dead end;
//! - **locked candidates** (pointing and claiming, in rows and columns): a
//!   digit whose places in a box lie in one row or column is removed from the
//!   rest of that line, and a digit whose places in a line lie in one box is
//!   removed from the rest of that box, again from the lane masks.
//!
//! Hidden singles look again only where something changed: a placed digit's
//! whole board, and for a digit that merely lost a cell, that cell's row,
//! column and box (a third fewer instructions on 16×16 than rescanning such
//! digits whole; same fixed points). Locked candidates revisit changed
//! digits. Order: hidden singles, naked singles, locked candidates, each step
//! starting over from the first when it changed anything. When nothing more follows, the search
//! branches on an open cell with the fewest candidates (bit-sliced counts
//! over the digit boards find the cells with two, three, ... candidates
//! without counting cell by cell), trying its digits in increasing order.
//!
//! **Lookahead** (on 16×16 and 25×25): before branching, up to 16 cells
//! with two candidates (the best by that tie-break) are probed: each of
//! their two digits is placed and propagated on a scratch board (singles
//! only, no locked candidates: cheaper, for a few more nodes). A digit
//! whose probe fails is wrong, so the other one is placed (failed-literal
//! reasoning, as in SAT and constraint solvers; both failing is a dead end),
//! and when no probe fails the search branches on the probed cell whose two
//! branches fill the most cells (the product of the two counts, the
//! lookahead SAT solvers' measure, e.g. Heule and van Maaren's march). The
//! probes' boards are kept: a forced digit's probe board becomes the node's
//! board and the best cell's two boards start its branches, which then only
//! add the locked candidates (the same fixed point as propagating from
//! scratch); a probe that fills the grid ends the sweep at once (branching
//! there). Every probed cell's boards are kept for the sweep: when a sweep
//! forces a digit, the next sweep (deciding again on the new board) reuses
//! the probes made after the last forced digit as they are and starts the
//! earlier ones from their old boards narrowed to the new board (a
//! superset of the new fixed point, so the same result; 12% fewer
//! instructions, 1.07× less time on the puzzles below). On
//! generated 16×16 puzzles with 90–120 clues this cuts the nodes from 383
//! to about 12 per puzzle and the time 2.4-fold (with the kept boards;
//! 2.2-fold without). The
//! generator's checks (repair mode, below) probe 8 cells, and only once a
//! check has passed 100 nodes (most end at the root, where probing costs
//! more than it saves); on 25×25 its checks do not probe at all (measured
//! several times slower).
//!
//! **All-different filtering** (optional, [`Wide::set_all_different`]; the
//! generator's hard 25×25 checks): at the end of each propagation of a
//! search board (not the probes'), every house whose cells changed since
//! the board it came from gets generalised arc consistency for its
//! all-different constraint (Régin, "A filtering algorithm for constraints
//! of difference in CSPs", AAAI 1994): a perfect matching of the house's
//! missing digits to its open cells (greedy, then augmenting paths on bit
//! sets), then a candidate survives only if it is matched or closes an
//! alternating cycle (the strongly connected components of the graph on
//! matched pairs, by forward and backward closures on bit sets); no
//! perfect matching is a dead end. That subsumes naked and hidden subsets
//! of every size. The propagation loops to the fixed point of all the
//! deductions. On the hard 25×25 checks (BENCHMARKS.md, Issue 17,
//! fifteenth session), with 32 probed cells (the width used with it), it
//! cut the nodes 3.0–4.6× and the time 1.36–2.0×;
//! the same filtering in the probes cut the nodes 7× but cost 2.5× the
//! time, and on each digit's row-column permutation as well it gained
//! nothing (both dropped).
//!
//! For the generator's clue checks, [`Wide::other_solution_near`] looks for
//! a solution other than a known grid by local repair: it prefers
//! branching on cells that lost the grid's digit and stops as soon as no
//! open cell has (the grid's digits then complete a solution).
//!
//! The search keeps a stack of boards (one per depth, grown once and reused
//! across puzzles): trying an alternative copies the board below and works
//! in place, so no node allocates. The deductions are the classic ones of
//! human solving guides (singles, "pointing"/"claiming" locked candidates);
//! running them on per-digit bitboards follows the design of bit-parallel
//! 9×9 solvers such as tdoku (Dillon, "Fast Sudoku solving with SIMD",
//! 2019), here in portable Rust on `n` lanes of 32 bits. On x86-64 CPUs with
//! AVX2 the same search is compiled a second time with AVX2 enabled (with
//! BMI1, BMI2, POPCNT and LZCNT; the `unsafe` call into it, in the `avx2`
//! module, is guarded by runtime detection), so the lane loops work on eight
//! lanes at a time; both builds take the same steps (a test checks nodes and
//! solutions agree). An AVX-512 build (a 16×16 digit board in one vector)
//! measured 13% slower on 16×16 and was dropped. One bit of `n` words (a
//! column of a digit's board, a cell's digits) is gathered four words at a
//! time with SSE's `movmskps` on x86-64 (baseline there; the other `unsafe`
//! block, `Core::bits_at`), elsewhere bit by bit.
//!
//! Statistics: a node is the root or an alternative tried (lookahead probes
//! are not nodes, so a node budget bounds the branching, not the probes);
//! every alternative is a guess; depth is the number of choices on the
//! path; `peak_bytes` is the boards (with the probes' scratch board) and
//! choice entries in use at the deepest point. No trace
//! ([`Method::traces`](super::Method::traces) is false): `auto` traces the
//! large grids with `mrv-hidden`.

use crate::time::Instant;
use std::ops::ControlFlow;

use super::{Budget, Limits, Report, Solver, Stats, StopReason};
use crate::grid::{Grid, Size};

/// The state at one depth for side `N`: a board per digit and the filled
/// cells, row by row.
#[derive(Clone, Copy, Debug)]
struct Board<const N: usize> {
    /// `cand[d][r]`: the columns of row `r` where digit `d + 1` can go or is.
    cand: [[u32; N]; N],
    /// Per row, the filled columns.
    filled: [u32; N],
    /// Digits whose board changed since the hidden-single scan saw it in
    /// ways only a whole scan covers (a placement of that digit, locked
    /// candidates, the givens); a digit that merely lost a cell is in
    /// [`Touched`] instead.
    dirty_hidden: u32,
    /// Digits whose board changed since the locked-candidates scan saw it.
    dirty_locked: u32,
}

/// The houses where digits lost a cell since the last hidden-single pass
/// (the digits of [`Board::dirty_hidden`] are scanned whole instead): only
/// there can a digit have become a hidden single or run out of places. Empty
/// at every fixed point, so it lives beside the boards, not in them (nothing
/// to copy when branching).
#[derive(Clone, Copy, Debug)]
struct Touched<const N: usize> {
    /// Digits with any house below.
    digits: u32,
    /// Per digit, its rows, columns and boxes to look at again.
    rows: [u32; N],
    cols: [u32; N],
    boxes: [u32; N],
}

impl<const N: usize> Touched<N> {
    const EMPTY: Self = Touched {
        digits: 0,
        rows: [0; N],
        cols: [0; N],
        boxes: [0; N],
    };

    fn clear(&mut self) {
        let mut ds = self.digits;
        while ds != 0 {
            let d = ds.trailing_zeros() as usize;
            ds &= ds - 1;
            self.rows[d] = 0;
            self.cols[d] = 0;
            self.boxes[d] = 0;
        }
        self.digits = 0;
    }
}

/// A dead end found by propagation.
#[derive(Clone, Copy, Debug)]
struct Dead;

/// A choice point: the cell (row, column) and its digits not tried yet.
#[derive(Clone, Copy, Debug)]
struct Choice {
    row: u8,
    col: u8,
    rest: u32,
    /// The cell's digits when it was chosen.
    digits: u32,
    /// The digits whose boards the lookahead left in [`Core::pre`] at this
    /// choice's depth (singles propagated; see [`Core::probe`]).
    pre: u32,
}

/// The search for one size: side `N`, box side `B` (`N = B²`).
#[derive(Debug)]
struct Core<const N: usize, const B: usize> {
    boards: Vec<Board<N>>,
    /// Per choice depth, the boards of the branched cell's two digits as
    /// the lookahead propagated them (singles only), lower digit first:
    /// trying such a digit starts from its board and adds only the locked
    /// candidates (the same fixed point, since the deductions only remove
    /// candidates).
    pre: Vec<[Board<N>; 2]>,
    choices: Vec<Choice>,
    /// The lookahead's boards: slot `s` holds a probed cell's two boards
    /// (`2 * s`, `2 * s + 1`), kept for the whole sweep (grown once).
    probes: Vec<Board<N>>,
    /// The cells probed on the node's board as it is now, when a sweep
    /// ended by forcing a digit (their probes came after the last forced
    /// one): the sweep that decides again at once reuses them instead of
    /// propagating them again (the same board, so the same results).
    /// Emptied whenever the search moves to another board.
    kept: [Probed; LOOKAHEAD_MAX],
    kept_len: usize,
    /// Singles found by one scan, (digit, row, column).
    found: Vec<(u8, u8, u8)>,
    /// The houses to rescan for hidden singles (see [`Touched`]).
    touched: Touched<N>,
    /// Tests only: every digit that loses a cell is scanned whole, the
    /// bookkeeping [`Touched`] replaces (the same fixed points, so the same
    /// search).
    rescan_all: bool,
    /// Tests only: a fingerprint of the board after every propagation that
    /// did not fail, in search order.
    #[cfg(test)]
    trace: Vec<u64>,
    /// Tests only: the same, for the search's boards only (not the
    /// probes').
    #[cfg(test)]
    trace_depth: Vec<u64>,
    solution: Grid,
    /// The cells of a grid whose digits are tried first at every branch
    /// (empty: none; see [`Wide::search_excluding_near`]).
    near: Vec<u8>,
    /// Repair mode (see [`Wide::other_solution_near`]): prefer branching on
    /// cells that lost the near grid's digit, and stop when none has.
    repair: bool,
    /// Per digit, the near grid's cells of that digit, as row lanes: built
    /// for repair mode, kept while the near grid stays the same (the
    /// generator checks every clue of a puzzle against one grid).
    near_boards: Vec<[u32; N]>,
    /// Lookahead at every branch: up to this many cells with two
    /// candidates are probed (both digits placed and propagated on a
    /// scratch board) before branching; 0 for none. See [`Core::probe`].
    lookahead: usize,
    /// Set while [`Core::probe`] propagates a probe: singles only, no
    /// locked candidates (on generated 16×16 puzzles 12% fewer
    /// instructions and 1.15–1.25× less time than full probes, for 12.0
    /// nodes per puzzle instead of 9.3). A probe that fails is still a
    /// wrong digit; the digit it forces is propagated in full.
    probing: bool,
    /// Tests only: no lookahead (the search as before it, for comparison).
    no_lookahead: bool,
    /// Tests only: every sweep probes afresh (no [`Core::kept`] probes).
    fresh_probes: bool,
    /// Lookahead starts once a search has entered more than this many
    /// nodes.
    lookahead_after: u64,
    /// All-different filtering ([`Core::gac`]) at the end of every
    /// propagation of the search's boards (not the probes'); see
    /// [`Wide::set_all_different`].
    gac: bool,
    /// The board the next propagation's board came from by removals, all
    /// its houses consistent (see [`Core::gac`]); reset by each propagation.
    gac_from: GacFrom,
    /// A copy of such a board ([`GacFrom::Snap`]).
    gac_snap: [[u32; N]; N],
    kernel: Kernel,
}

/// Which board a propagation works on.
#[derive(Clone, Copy, Debug)]
enum At {
    /// The search's board at this depth.
    Depth(usize),
    /// A probe's board in [`Core::probes`].
    Probe(usize),
}

/// Where [`Core::gac`]'s first pass of a propagation starts from.
#[derive(Clone, Copy, Debug)]
enum GacFrom {
    /// Every house.
    All,
    /// The houses that differ from this search board.
    Board(usize),
    /// The houses that differ from [`Core::gac_snap`].
    Snap,
}

/// A cell the lookahead probed (see [`Core::probe`]): both digits
/// propagated without failing, on the boards `2 * slot` and `2 * slot + 1`
/// of [`Core::probes`].
#[derive(Clone, Copy, Debug)]
struct Probed {
    row: u8,
    col: u8,
    slot: u8,
    /// The cell's two digits.
    digits: u32,
    /// The cells each probe filled beyond the node's board.
    filled: [u32; 2],
    /// Made on the node's board as it is now (else on a board the node's
    /// board came from by propagation: its boards are then supersets of
    /// the probes' fixed points on the node's board).
    exact: bool,
    /// A probe filled the grid.
    full: bool,
}

impl Probed {
    const NONE: Self = Probed {
        row: u8::MAX,
        col: u8::MAX,
        slot: 0,
        digits: 0,
        filled: [0; 2],
        exact: false,
        full: false,
    };
}

/// What [`Core::probe`] decided at a node.
enum Probe {
    /// Branch on this cell (row, column, digits, the digits whose boards
    /// are kept in [`Core::pre`]).
    Branch(usize, usize, u32, u32),
    /// A digit was forced and placed on the node's board: decide again.
    Forced,
    /// The grid is full.
    Full,
}

impl<const N: usize, const B: usize> Core<N, B> {
    const FULL: u32 = if N == 32 { u32::MAX } else { (1u32 << N) - 1 };
    const STACK: u32 = (1u32 << B) - 1;

    fn new(
        size: Size,
        kernel: Kernel,
        rescan_all: bool,
        no_lookahead: bool,
        fresh_probes: bool,
    ) -> Self {
        debug_assert_eq!(size.side(), N);
        Core {
            kernel,
            boards: Vec::new(),
            pre: Vec::new(),
            choices: Vec::new(),
            probes: Vec::new(),
            kept: [Probed::NONE; LOOKAHEAD_MAX],
            kept_len: 0,
            found: Vec::with_capacity(4 * N * N),
            touched: Touched::EMPTY,
            rescan_all,
            #[cfg(test)]
            trace: Vec::new(),
            #[cfg(test)]
            trace_depth: Vec::new(),
            solution: Grid::empty(size),
            near: Vec::new(),
            repair: false,
            near_boards: Vec::new(),
            lookahead: 0,
            lookahead_after: 0,
            no_lookahead,
            fresh_probes,
            probing: false,
            gac: false,
            gac_from: GacFrom::All,
            gac_snap: [[0; N]; N],
        }
    }

    /// The columns of the box stack holding column `c`.
    #[inline(always)]
    fn stack_of(c: usize) -> u32 {
        Self::STACK << (c / B * B)
    }

    /// Place digit `d` in `r`,`c` (where it is a candidate). Digit `d` is
    /// marked for a whole hidden-single scan, the other digits that had
    /// the cell for a look at its row, column and box only.
    #[inline(always)]
    fn place(b: &mut Board<N>, t: &mut Touched<N>, rescan_all: bool, d: usize, r: usize, c: usize) {
        let touched = Self::cell_digits(b, r, c);
        Self::place_known(b, t, rescan_all, d, r, c, touched);
    }

    /// The digits that can go in (or are placed in) cell `r`,`c`.
    #[inline(always)]
    fn cell_digits(b: &Board<N>, r: usize, c: usize) -> u32 {
        Self::bits_at(|e| b.cand[e][r], c as u32)
    }

    /// [`Core::place`] when the caller knows the cell's digits (`touched`,
    /// [`Core::cell_digits`]): a naked single's cell has its digit only, a
    /// probed or branched cell the digits it was chosen with. The gather of
    /// the cell's digits (16 loads on 16×16) was 7.6% of the instructions
    /// on generated 16×16 puzzles.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn place_known(
        b: &mut Board<N>,
        t: &mut Touched<N>,
        rescan_all: bool,
        d: usize,
        r: usize,
        c: usize,
        mut touched: u32,
    ) {
        debug_assert_eq!(touched, Self::cell_digits(b, r, c));
        let bit = 1u32 << c;
        let others = touched & !(1 << d);
        if rescan_all {
            let mut es = others;
            while es != 0 {
                let e = es.trailing_zeros() as usize;
                es &= es - 1;
                b.cand[e][r] &= !bit;
            }
            b.dirty_hidden |= others;
        } else {
            // One loop over the digits that had the cell: each loses it
            // and gets its row, column and box marked (more instructions
            // than two loops, but faster: see BENCHMARKS.md, Issue 17,
            // eleventh session).
            let (rb, bb) = (1u32 << r, 1u32 << (r / B * B + c / B));
            let mut es = others;
            while es != 0 {
                let e = es.trailing_zeros() as usize;
                es &= es - 1;
                b.cand[e][r] &= !bit;
                t.rows[e] |= rb;
                t.cols[e] |= bit;
                t.boxes[e] |= bb;
            }
            t.digits |= others;
        }
        let lanes = &mut b.cand[d];
        for x in lanes.iter_mut() {
            *x &= !bit;
        }
        let stack = Self::stack_of(c);
        let band = r / B * B;
        for x in &mut lanes[band..band + B] {
            *x &= !stack;
        }
        lanes[r] = bit;
        b.filled[r] |= bit;
        // Digit `d` lost places in its column and box as well.
        touched |= 1 << d;
        b.dirty_hidden |= 1 << d;
        b.dirty_locked |= touched;
    }

    /// One pass of naked singles: places every cell with one candidate
    /// (returns whether there was one); `Err` on a cell with none.
    #[inline(always)]
    fn naked(b: &mut Board<N>, t: &mut Touched<N>, rescan_all: bool) -> Result<bool, Dead> {
        {
            let mut once = [0u32; N];
            let mut twice = [0u32; N];
            for lanes in &b.cand {
                for r in 0..N {
                    twice[r] |= once[r] & lanes[r];
                    once[r] |= lanes[r];
                }
            }
            // Up to 16×16 no early exit inside the loop: with one, the
            // compiler kept the whole pass scalar there. On 25×25 the early
            // exit is the better code (5% fewer instructions per puzzle).
            let mut any = 0u32;
            if N > 16 {
                for r in 0..N {
                    if once[r] != Self::FULL {
                        return Err(Dead);
                    }
                    once[r] &= !twice[r] & !b.filled[r];
                    any |= once[r];
                }
            } else {
                let mut empty = 0u32;
                for r in 0..N {
                    empty |= once[r] ^ Self::FULL;
                    once[r] &= !twice[r] & !b.filled[r];
                    any |= once[r];
                }
                if empty != 0 {
                    return Err(Dead);
                }
            }
            if any == 0 {
                return Ok(false);
            }
            for (r, &singles) in once.iter().enumerate() {
                let mut s = singles;
                while s != 0 {
                    let c = s.trailing_zeros() as usize;
                    s &= s - 1;
                    let bit = 1u32 << c;
                    // An earlier single of this batch may have taken the
                    // cell's last candidate: the cell is then empty.
                    let Some(d) = (0..N).find(|&d| b.cand[d][r] & bit != 0) else {
                        return Err(Dead);
                    };
                    if b.filled[r] & bit == 0 {
                        // The cell's one candidate (placements only remove
                        // candidates, and it still has `d`).
                        Self::place_known(b, t, rescan_all, d, r, c, 1 << d);
                    }
                }
            }
            Ok(true)
        }
    }

    /// Hidden singles of digit `d` into `found`: `Err` when a house has no
    /// place for it. Mask operations only: the columns with one place (the
    /// once/twice masks over the lanes) and the boxes with one place (the
    /// same masks over a band's lanes, tested per `B`-bit field) become lane
    /// masks, so each lane yields its row, column and box singles at once.
    #[inline(always)]
    fn hidden_scan(b: &Board<N>, d: usize, found: &mut Vec<(u8, u8, u8)>) -> Result<(), Dead> {
        let lanes = &b.cand[d];
        let (bo, bt) = Self::band_masks(lanes);
        let zero = lanes.iter().fold(false, |z, &x| z | (x == 0));
        let (mut once, mut twice) = (0u32, 0u32);
        for k in 0..B {
            twice |= bt[k] | (once & bo[k]);
            once |= bo[k];
        }
        if zero || once != Self::FULL {
            return Err(Dead);
        }
        // Columns with one place.
        let cols = once & !twice;
        // The boxes of each band with one place, from the band masks,
        // without branches. A box with no place is a dead end; a box has
        // one place when its field of `bo` has one bit (one column) and its
        // field of `bt` none (one row in that column).
        let mut boxes = [0u32; B];
        let mut dead = 0u32;
        for k in 0..B {
            dead |= Self::fields(bo[k]) ^ Self::LOWS;
            boxes[k] = Self::expand(Self::LOWS & !Self::multi_fields(bo[k]) & !Self::fields(bt[k]));
        }
        if dead != 0 {
            return Err(Dead);
        }
        // Per lane, its row, column and box singles, as masks first (a
        // loop without branches), then read out only when there are any.
        let mut singles = [0u32; N];
        let mut any = 0u32;
        for r in 0..N {
            let x = lanes[r];
            // A lane with one bit is a row single.
            let row = if x & x.wrapping_sub(1) == 0 { x } else { 0 };
            singles[r] = (row | (x & (cols | boxes[r / B]))) & !b.filled[r];
            any |= singles[r];
        }
        if any == 0 {
            return Ok(());
        }
        for (r, &h) in singles.iter().enumerate() {
            let mut h = h;
            while h != 0 {
                let c = h.trailing_zeros();
                h &= h - 1;
                found.push((d as u8, r as u8, c as u8));
            }
        }
        Ok(())
    }

    /// Per band, the once/twice masks of its lanes (bits set in at least
    /// one, in at least two of the band's rows); the whole board's masks
    /// are then those of the bands merged, `B` steps instead of `N`
    /// dependent ones.
    #[inline(always)]
    fn band_masks(lanes: &[u32; N]) -> ([u32; B], [u32; B]) {
        let mut bo = [0u32; B];
        let mut bt = [0u32; B];
        if B == 4 && N == 16 {
            // 16×16: a tree over each band's four lanes, pairing lane `r`
            // with `r ^ 1` and then with `r ^ 2`, on all 16 lanes at once
            // (lane shuffles within contiguous vectors), instead of
            // gathering every fourth lane.
            let mut o1 = [0u32; N];
            let mut t1 = [0u32; N];
            for r in 0..N {
                let y = lanes[r ^ 1];
                o1[r] = lanes[r] | y;
                t1[r] = lanes[r] & y;
            }
            let mut o2 = [0u32; N];
            let mut t2 = [0u32; N];
            for r in 0..N {
                let (oy, ty) = (o1[r ^ 2], t1[r ^ 2]);
                o2[r] = o1[r] | oy;
                t2[r] = t1[r] | ty | (o1[r] & oy);
            }
            for k in 0..B {
                bo[k] = o2[k * B];
                bt[k] = t2[k * B];
            }
        } else {
            Self::band_masks_chain(lanes, &mut bo, &mut bt);
        }
        (bo, bt)
    }

    /// [`Core::band_masks`] lane by lane, the bands side by side (so they
    /// are handled together in vector lanes): any size.
    #[inline(always)]
    fn band_masks_chain(lanes: &[u32; N], bo: &mut [u32; B], bt: &mut [u32; B]) {
        for i in 0..B {
            for k in 0..B {
                let x = lanes[k * B + i];
                bt[k] |= bo[k] & x;
                bo[k] |= x;
            }
        }
    }

    /// Hidden singles of digit `d` in the given rows, columns and boxes
    /// only (the houses where it lost a cell) into `found`: `Err` when one
    /// of them has no place for it. The same singles a whole scan finds
    /// there ([`Core::hidden_scan`]).
    #[inline(always)]
    fn hidden_houses(
        b: &Board<N>,
        d: usize,
        rows: u32,
        cols: u32,
        boxes: u32,
        found: &mut Vec<(u8, u8, u8)>,
    ) -> Result<(), Dead> {
        let lanes = &b.cand[d];
        let mut m = rows;
        while m != 0 {
            let r = m.trailing_zeros() as usize;
            m &= m - 1;
            let x = lanes[r];
            if x == 0 {
                return Err(Dead);
            }
            if x & x.wrapping_sub(1) == 0 && x & !b.filled[r] != 0 {
                found.push((d as u8, r as u8, x.trailing_zeros() as u8));
            }
        }
        let mut m = cols;
        while m != 0 {
            let c = m.trailing_zeros();
            m &= m - 1;
            let at = Self::column_rows(lanes, c);
            if at == 0 {
                return Err(Dead);
            }
            let r = at.trailing_zeros() as usize;
            if at & (at - 1) == 0 && b.filled[r] >> c & 1 == 0 {
                found.push((d as u8, r as u8, c as u8));
            }
        }
        let mut m = boxes;
        while m != 0 {
            let x = m.trailing_zeros() as usize;
            m &= m - 1;
            let (band, shift) = (x / B * B, x % B * B);
            // The box gathered into one `B`×`B`-bit field, row by row.
            let mut at = 0u32;
            for (i, &l) in lanes[band..band + B].iter().enumerate() {
                at |= ((l >> shift) & Self::STACK) << (i * B);
            }
            if at == 0 {
                return Err(Dead);
            }
            let k = at.trailing_zeros() as usize;
            let (r, c) = (band + k / B, shift + k % B);
            if at & (at - 1) == 0 && b.filled[r] >> c & 1 == 0 {
                found.push((d as u8, r as u8, c as u8));
            }
        }
        Ok(())
    }

    /// Column `c` of a digit's board gathered into a mask of rows (bit `r`
    /// set when lane `r` has bit `c`), without branches.
    #[inline(always)]
    fn column_rows(lanes: &[u32; N], c: u32) -> u32 {
        Self::bits_at(|q| lanes[q], c)
    }

    /// Bit `c` of the words `word(0)`, ..., `word(N - 1)` as a mask (bit `q`
    /// from word `q`), without branches. On x86-64, four words at a time:
    /// each shifted so that bit `c` is its sign bit, the four signs read at
    /// once (`movmskps`, SSE, in every x86-64 CPU), where the compiler
    /// assembled the bit-by-bit form word by word (for a column of a
    /// digit's board: 0.7% fewer instructions, 1.02× less time on
    /// generated 16×16 puzzles).
    #[inline(always)]
    fn bits_at(word: impl Fn(usize) -> u32, c: u32) -> u32 {
        #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
        {
            use std::arch::x86_64::{
                _mm_castsi128_ps, _mm_cvtsi32_si128, _mm_movemask_ps, _mm_setr_epi32, _mm_sll_epi32,
            };
            let mut at = 0u32;
            let mut q = 0;
            // SAFETY: SSE and SSE2 are enabled in this build (the cfg
            // above; every x86-64 CPU has them), and these intrinsics only
            // compute on values.
            unsafe {
                let k = _mm_cvtsi32_si128(31 - c as i32);
                while q + 4 <= N {
                    let v = _mm_setr_epi32(
                        word(q) as i32,
                        word(q + 1) as i32,
                        word(q + 2) as i32,
                        word(q + 3) as i32,
                    );
                    at |= (_mm_movemask_ps(_mm_castsi128_ps(_mm_sll_epi32(v, k))) as u32) << q;
                    q += 4;
                }
            }
            while q < N {
                at |= (word(q) >> c & 1) << q;
                q += 1;
            }
            at
        }
        #[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
        {
            let bit = 1u32 << c;
            let mut at = 0u32;
            for q in 0..N {
                at |= u32::from(word(q) & bit != 0) << q;
            }
            at
        }
    }

    /// The lowest bit of every box field (`B`-bit field `s` of a lane).
    const LOWS: u32 = {
        let mut m = 0u32;
        let mut s = 0;
        while s < B {
            m |= 1 << (s * B);
            s += 1;
        }
        m
    };

    /// The low bit of every non-empty box field of `x`.
    #[inline(always)]
    fn fields(x: u32) -> u32 {
        // Bit `i` of `t` is the OR of bits `i..i + span` of `x`; the span
        // doubles each step (two steps for `B` = 4 instead of three).
        let mut t = x;
        let mut span = 1;
        while span < B {
            let s = span.min(B - span);
            t |= t >> s;
            span += s;
        }
        t & Self::LOWS
    }

    /// The low bit of every box field of `x` with two or more bits: a pair
    /// of bits `k` apart inside one field, for some `k` below `B`.
    #[inline(always)]
    fn multi_fields(x: u32) -> u32 {
        let mut m = 0u32;
        for k in 1..B {
            // Positions whose bit `k` places higher is in the same field.
            let inside = Self::LOWS * ((1u32 << (B - k)) - 1);
            m |= x & (x >> k) & inside;
        }
        Self::fields(m)
    }

    /// Whole fields from their low bits (fields do not overlap, so the
    /// product has no carries).
    #[inline(always)]
    fn expand(lows: u32) -> u32 {
        lows * Self::STACK
    }

    /// Locked candidates of digit `d` (pointing and claiming, in rows and
    /// columns), all found on one snapshot of its board and applied
    /// together; returns whether anything was removed. Two lines claiming
    /// the same box (a contradiction) are left for the singles to find.
    #[inline(always)]
    fn locked(b: &mut Board<N>, d: usize) -> bool {
        let lanes = &mut b.cand[d];
        let before = *lanes;
        let mut band_or = [0u32; B];
        for (k, o) in band_or.iter_mut().enumerate() {
            let band = k * B;
            let mut nzs = [0u32; B];
            let (mut once, mut twice) = (0u32, 0u32);
            for (i, f) in nzs.iter_mut().enumerate() {
                *f = Self::fields(lanes[band + i]);
                twice |= once & *f;
                once |= *f;
            }
            // Boxes whose places lie in one row (pointing, rows).
            let point = once & !twice;
            // Rows whose places lie in one box (claiming, rows).
            let mut own = [0u32; B];
            let mut claim = 0u32;
            for (i, &f) in nzs.iter().enumerate() {
                if f & f.wrapping_sub(1) == 0 {
                    own[i] = Self::expand(f);
                    claim |= own[i];
                }
            }
            let mut acc = 0u32;
            for i in 0..B {
                let mut y = lanes[band + i];
                let p = nzs[i] & point;
                if p != 0 {
                    y &= Self::expand(p);
                }
                y &= !(claim & !own[i]);
                lanes[band + i] = y;
                acc |= y;
            }
            *o = acc;
        }
        // Columns: a box's places in one column (pointing) clear that
        // column in the other bands; a column's places in one band
        // (claiming) clear the box's other columns in that band.
        let mut clear = [0u32; B];
        let mut point = [0u32; B];
        for k in 0..B {
            let o = band_or[k];
            let others = band_or
                .iter()
                .enumerate()
                .fold(0u32, |a, (j, &x)| if j == k { a } else { a | x });
            let only = o & !others;
            clear[k] = Self::expand(Self::fields(only)) & !only;
            for s in 0..B {
                let f = o & (Self::STACK << (s * B));
                if f & f.wrapping_sub(1) == 0 {
                    point[k] |= f;
                }
            }
        }
        let all_points = point.iter().fold(0u32, |a, &x| a | x);
        for k in 0..B {
            let m = !(clear[k] | (all_points & !point[k]));
            for x in &mut lanes[k * B..k * B + B] {
                *x &= m;
            }
        }
        let changed = *lanes != before;
        if changed {
            // Only this digit's board changed (cells that lost it are
            // looked at again by the naked-single pass).
            b.dirty_hidden |= 1 << d;
            b.dirty_locked |= 1 << d;
        }
        changed
    }

    /// Generalised arc consistency for one all-different constraint whose
    /// left and right sides have the same size (Régin, "A filtering
    /// algorithm for constraints of difference in CSPs", AAAI 1994): `m[x]`
    /// holds the right vertices left vertex `x` (of `left`) can take; each
    /// left vertex must take a different right vertex, all of `right` used.
    /// One perfect matching is found (greedy, then augmenting paths on bit
    /// sets); an edge outside it is in some perfect matching exactly when
    /// it closes an alternating cycle, i.e. its two ends' matched pairs lie
    /// in the same strongly connected component of the graph on the pairs
    /// (pair `x` → pair `y` when `x` can take `y`'s right vertex). With a
    /// perfect matching no vertex is free, so Régin's paths from free
    /// vertices do not arise. The other edges are removed from `m`.
    /// Returns whether any was; `Err` when there is no perfect matching.
    #[inline(always)]
    fn alldiff(m: &mut [u32; N], left: u32, right: u32) -> Result<bool, Dead> {
        if left.count_ones() != right.count_ones() {
            return Err(Dead);
        }
        if left == 0 {
            return Ok(false);
        }
        let mut mate_l = [0u8; N];
        let mut mate_r = [0u8; N];
        let mut used = 0u32;
        let mut unmatched = 0u32;
        let mut ls = left;
        while ls != 0 {
            let x = ls.trailing_zeros() as usize;
            ls &= ls - 1;
            let a = m[x] & !used;
            if a == 0 {
                unmatched |= 1 << x;
                continue;
            }
            let p = a.trailing_zeros() as usize;
            used |= 1 << p;
            mate_l[x] = p as u8;
            mate_r[p] = x as u8;
        }
        while unmatched != 0 {
            let x0 = unmatched.trailing_zeros() as usize;
            unmatched &= unmatched - 1;
            // A search from `x0` over alternating paths: a right vertex
            // is entered once, from the left vertex recorded in `parent`;
            // a matched one leads on to its mate.
            let mut parent = [0u8; N];
            let mut seen = 0u32;
            let mut queue = 1u32 << x0;
            let mut free = usize::MAX;
            'search: while queue != 0 {
                let x = queue.trailing_zeros() as usize;
                queue &= queue - 1;
                let mut next = m[x] & !seen;
                seen |= next;
                while next != 0 {
                    let p = next.trailing_zeros() as usize;
                    next &= next - 1;
                    parent[p] = x as u8;
                    if used >> p & 1 == 0 {
                        free = p;
                        break 'search;
                    }
                    queue |= 1 << mate_r[p];
                }
            }
            if free == usize::MAX {
                return Err(Dead);
            }
            used |= 1 << free;
            let mut p = free;
            loop {
                let x = parent[p] as usize;
                let old = mate_l[x] as usize;
                mate_l[x] = p as u8;
                mate_r[p] = x as u8;
                if x == x0 {
                    break;
                }
                p = old;
            }
        }
        if used != right {
            return Err(Dead);
        }
        // The graph on matched pairs, named by their left vertex, and its
        // reverse.
        let mut adj = [0u32; N];
        let mut radj = [0u32; N];
        let mut ls = left;
        while ls != 0 {
            let x = ls.trailing_zeros() as usize;
            ls &= ls - 1;
            let mut ps = m[x];
            let mut a = 0u32;
            while ps != 0 {
                let p = ps.trailing_zeros() as usize;
                ps &= ps - 1;
                let y = mate_r[p] as usize;
                a |= 1 << y;
                radj[y] |= 1 << x;
            }
            adj[x] = a;
        }
        // Components: forward and backward closures of a vertex meet in
        // its component.
        let mut rest = left;
        let mut changed = false;
        let mut first = true;
        while rest != 0 {
            let v = rest.trailing_zeros() as usize;
            let close = |g: &[u32; N]| {
                let mut reach = 1u32 << v;
                let mut todo = reach;
                while todo != 0 {
                    let u = todo.trailing_zeros() as usize;
                    todo &= todo - 1;
                    let new = g[u] & rest & !reach;
                    reach |= new;
                    todo |= new;
                }
                reach
            };
            let fwd = close(&adj);
            if first && fwd == rest {
                // Often the whole house is one component: nothing to
                // remove if it is strongly connected.
                let bwd = close(&radj);
                if bwd == rest {
                    return Ok(false);
                }
                first = false;
                let comp = fwd & bwd;
                changed |= Self::keep_within(m, comp, &mate_l);
                rest &= !comp;
                continue;
            }
            first = false;
            let comp = fwd & close(&radj);
            changed |= Self::keep_within(m, comp, &mate_l);
            rest &= !comp;
        }
        Ok(changed)
    }

    /// [`Core::alldiff`]'s removal for one component `comp`: its left
    /// vertices keep only the right vertices matched within it.
    #[inline(always)]
    fn keep_within(m: &mut [u32; N], comp: u32, mate_l: &[u8; N]) -> bool {
        let mut allowed = 0u32;
        let mut cs = comp;
        while cs != 0 {
            let x = cs.trailing_zeros() as usize;
            cs &= cs - 1;
            allowed |= 1 << mate_l[x];
        }
        let mut changed = false;
        let mut cs = comp;
        while cs != 0 {
            let x = cs.trailing_zeros() as usize;
            cs &= cs - 1;
            changed |= m[x] & !allowed != 0;
            m[x] &= allowed;
        }
        changed
    }

    /// [`Core::alldiff`] on every house (rows, columns, boxes: cells and
    /// the digits not yet placed there) and, with `views`, on every
    /// digit's rows and columns (a digit's places are a permutation too).
    /// Digits that lost a candidate are marked for the hidden-single and
    /// locked-candidate scans (cells left with one candidate are found by
    /// the naked-single pass). Subsumes naked and hidden subsets of every
    /// size in every house.
    #[inline(always)]
    fn gac(b: &mut Board<N>, reference: Option<&[[u32; N]; N]>) -> Result<bool, Dead> {
        // The houses with a cell that changed since `reference` (a board
        // this one came from by removals, every house of it consistent).
        let (mut rows, mut cols, mut boxes) = (Self::FULL, Self::FULL, Self::FULL);
        if let Some(old) = reference {
            let mut lanes = [0u32; N];
            for (now, was) in b.cand.iter().zip(old) {
                for r in 0..N {
                    lanes[r] |= now[r] ^ was[r];
                }
            }
            rows = 0;
            cols = 0;
            boxes = 0;
            for (r, &x) in lanes.iter().enumerate() {
                rows |= u32::from(x != 0) << r;
                cols |= x;
            }
            for k in 0..B {
                let band = lanes[k * B..k * B + B].iter().fold(0u32, |a, &x| a | x);
                let f = Self::fields(band);
                for s in 0..B {
                    boxes |= (f >> (s * B) & 1) << (k * B + s);
                }
            }
        }
        let mut lost = 0u32;
        let mut m = [0u32; N];
        // Rows: digits (left) to columns.
        let mut rs = rows;
        while rs != 0 {
            let r = rs.trailing_zeros() as usize;
            rs &= rs - 1;
            let open = !b.filled[r] & Self::FULL;
            let mut left = 0u32;
            for (d, (x, lanes)) in m.iter_mut().zip(&b.cand).enumerate() {
                *x = lanes[r] & open;
                left |= u32::from(*x != 0) << d;
            }
            if Self::alldiff(&mut m, left, open)? {
                for (d, (&x, lanes)) in m.iter().zip(&mut b.cand).enumerate() {
                    let gone = lanes[r] & open & !x;
                    lost |= u32::from(gone != 0) << d;
                    lanes[r] &= !gone;
                }
            }
        }
        // Columns: digits to rows.
        let mut cs = cols;
        while cs != 0 {
            let c = cs.trailing_zeros() as usize;
            cs &= cs - 1;
            let open = !Self::column_rows(&b.filled, c as u32) & Self::FULL;
            let mut left = 0u32;
            for (d, (x, lanes)) in m.iter_mut().zip(&b.cand).enumerate() {
                *x = Self::column_rows(lanes, c as u32) & open;
                left |= u32::from(*x != 0) << d;
            }
            let before = m;
            if Self::alldiff(&mut m, left, open)? {
                lost |= Self::write_back(&before, &m, |d, r| b.cand[d][r] &= !(1 << c));
            }
        }
        // Boxes: digits to the box's cells, row-major.
        let mut ks = boxes;
        while ks != 0 {
            let k = ks.trailing_zeros() as usize;
            ks &= ks - 1;
            let (band, shift) = (k / B * B, k % B * B);
            let mut open = 0u32;
            for i in 0..B {
                open |= ((!b.filled[band + i] >> shift) & Self::STACK) << (i * B);
            }
            let mut left = 0u32;
            for (d, (x, lanes)) in m.iter_mut().zip(&b.cand).enumerate() {
                let mut y = 0u32;
                for i in 0..B {
                    y |= ((lanes[band + i] >> shift) & Self::STACK) << (i * B);
                }
                *x = y & open;
                left |= u32::from(*x != 0) << d;
            }
            let before = m;
            if Self::alldiff(&mut m, left, open)? {
                lost |= Self::write_back(&before, &m, |d, p| {
                    b.cand[d][band + p / B] &= !(1 << (shift + p % B));
                });
            }
        }
        b.dirty_hidden |= lost;
        b.dirty_locked |= lost;
        Ok(lost != 0)
    }

    /// The candidates all-different filtering removed from one house:
    /// `clear(d, p)` for each place `p` (a bit of `before[d]`, the house's
    /// own numbering) that digit `d` lost in `after`; the digits that lost
    /// one, as a mask.
    #[inline(always)]
    fn write_back(before: &[u32; N], after: &[u32; N], mut clear: impl FnMut(usize, usize)) -> u32 {
        let mut lost = 0u32;
        for d in 0..N {
            let mut gone = before[d] & !after[d];
            lost |= u32::from(gone != 0) << d;
            while gone != 0 {
                let p = gone.trailing_zeros() as usize;
                gone &= gone - 1;
                clear(d, p);
            }
        }
        lost
    }

    /// Propagate a board to a fixed point of the three deductions: the
    /// search's board at depth `k`, or with `At::Probe` a probe's board.
    #[inline(always)]
    fn propagate(&mut self, at: At) -> Result<(), Dead> {
        let result = self.fixed_point(at);
        if result.is_err() {
            self.touched.clear();
        }
        #[cfg(test)]
        if result.is_ok() {
            let b = match at {
                At::Depth(k) => &self.boards[k],
                At::Probe(s) => &self.probes[s],
            };
            let mut h = 0xcbf2_9ce4_8422_2325u64;
            for &x in b.cand.iter().flatten().chain(&b.filled) {
                h = (h ^ u64::from(x)).wrapping_mul(0x100_0000_01b3);
            }
            self.trace.push(h);
            if let At::Depth(_) = at {
                self.trace_depth.push(h);
            }
        }
        result
    }

    /// [`Core::propagate`]'s loop; on a dead end, [`Touched`] may be left
    /// with marks.
    #[inline(always)]
    fn fixed_point(&mut self, at: At) -> Result<(), Dead> {
        let from = std::mem::replace(&mut self.gac_from, GacFrom::All);
        let (b, reference) = match at {
            At::Depth(k) => {
                let (lo, hi) = self.boards.split_at_mut(k);
                let r = match from {
                    GacFrom::Board(i) if i < k => Some(&lo[i].cand),
                    _ => None,
                };
                (&mut hi[0], r)
            }
            At::Probe(s) => (
                &mut self.probes[s],
                match from {
                    GacFrom::Board(i) => Some(&self.boards[i].cand),
                    _ => None,
                },
            ),
        };
        let reference = match from {
            GacFrom::Snap => Some(&self.gac_snap),
            _ => reference,
        };
        // The board before the last pass of `Core::gac` that changed it.
        let mut own: Option<[[u32; N]; N]> = None;
        let t = &mut self.touched;
        let rescan_all = self.rescan_all;
        // Probes propagate singles only (see `Core::probing`).
        let skip_locked = self.probing;
        let gac = self.gac;
        loop {
            // Hidden singles where something changed since the last pass
            // first: on 16×16 a guess sets off long chains of singles, and
            // hidden singles shorten them more than naked ones do. Digits
            // marked whole are scanned whole; the others only in the houses
            // where they lost a cell.
            if b.dirty_hidden | t.digits != 0 {
                let mut ds = b.dirty_hidden;
                b.dirty_hidden = 0;
                self.found.clear();
                while ds != 0 {
                    let d = ds.trailing_zeros() as usize;
                    ds &= ds - 1;
                    Self::hidden_scan(b, d, &mut self.found)?;
                }
                let mut ds = t.digits;
                t.digits = 0;
                while ds != 0 {
                    let d = ds.trailing_zeros() as usize;
                    ds &= ds - 1;
                    let (rows, cols, boxes) = (t.rows[d], t.cols[d], t.boxes[d]);
                    t.rows[d] = 0;
                    t.cols[d] = 0;
                    t.boxes[d] = 0;
                    Self::hidden_houses(b, d, rows, cols, boxes, &mut self.found)?;
                }
                if !self.found.is_empty() {
                    for &(d, r, c) in &self.found {
                        let (d, r, c) = (d as usize, r as usize, c as usize);
                        let bit = 1u32 << c;
                        if b.cand[d][r] & bit == 0 {
                            // Its house's only place went to another single.
                            return Err(Dead);
                        }
                        if b.filled[r] & bit == 0 {
                            Self::place(b, t, rescan_all, d, r, c);
                        }
                    }
                    continue;
                }
            }
            if Self::naked(b, t, rescan_all)? {
                continue;
            }
            if b.dirty_locked != 0 && !skip_locked {
                let mut ds = b.dirty_locked;
                b.dirty_locked = 0;
                let mut changed = false;
                while ds != 0 {
                    let d = ds.trailing_zeros() as usize;
                    ds &= ds - 1;
                    changed |= Self::locked(b, d);
                }
                if changed {
                    continue;
                }
            }
            if gac && !skip_locked {
                let was = b.cand;
                if Self::gac(b, own.as_ref().or(reference))? {
                    own = Some(was);
                    continue;
                }
            }
            return Ok(());
        }
    }

    /// A probe's board `p`, made on an earlier board of the node, narrowed
    /// to the node's board `node` (which came from that earlier board by
    /// propagation, so it has fewer candidates): candidates kept where both
    /// have them, cells filled in either. The probe's fixed point on
    /// `node` lies below both, and the deductions only remove candidates,
    /// so propagating the narrowed board reaches that fixed point (or the
    /// same dead end). Its digits that lost a candidate are marked for a
    /// whole hidden-single scan; cells that lost one are found by the
    /// naked-single pass, which looks at every cell.
    #[inline(always)]
    fn narrow(p: &mut Board<N>, node: &Board<N>) {
        let mut changed = 0u32;
        for e in 0..N {
            let (lanes, from) = (&mut p.cand[e], &node.cand[e]);
            let mut lost = 0u32;
            for r in 0..N {
                lost |= lanes[r] & !from[r];
                lanes[r] &= from[r];
            }
            changed |= u32::from(lost != 0) << e;
        }
        for r in 0..N {
            p.filled[r] |= node.filled[r];
        }
        p.dirty_hidden = changed;
        // Should this probe force its digit, the node's propagation
        // revisits every digit for locked candidates (which digits differ
        // from the node's board is not tracked here: a rare case).
        p.dirty_locked = Self::FULL;
    }

    /// Lookahead before branching at depth `k` (the board propagated): up
    /// to [`Core::lookahead`] cells with two candidates (the best by
    /// [`Core::choose`]'s tie-break, the `prefer` cells first when there
    /// are any) have each digit placed and propagated on a board of
    /// [`Core::probes`] (the cell's slot: both digits' boards are kept for
    /// the sweep, and for the next one when this one forces a digit; see
    /// [`Core::kept`] and [`Core::narrow`]). A digit that fails forces the
    /// other one on board `k`
    /// (failed-literal reasoning: both failing is a dead end); otherwise
    /// the cell whose two branches fill the most cells (the product of the
    /// two counts, as in lookahead SAT solvers such as march) is the
    /// branch. Falls back to [`Core::choose`] when no open cell has two
    /// candidates.
    #[inline(always)]
    fn probe(&mut self, k: usize, prefer: &[u32; N]) -> Result<Probe, Dead> {
        // The cells the last sweep probed on this very board (see
        // `Core::kept`); none after this sweep unless it forces a digit.
        let (kept, kept_len) = (self.kept, self.kept_len);
        self.kept_len = 0;
        let b = &self.boards[k];
        let mut a1 = [0u32; N];
        let mut a2 = [0u32; N];
        let mut a3 = [0u32; N];
        for lanes in &b.cand {
            for r in 0..N {
                let x = lanes[r];
                a3[r] |= a2[r] & x;
                a2[r] |= a1[r] & x;
                a1[r] |= x;
            }
        }
        let mut two = [0u32; N];
        let mut any = 0u32;
        for r in 0..N {
            two[r] = a2[r] & !a3[r] & !b.filled[r] & Self::FULL;
            any |= two[r];
        }
        if any == 0 {
            return Ok(match Self::choose(b, prefer) {
                None => Probe::Full,
                Some((r, c, digits)) => Probe::Branch(r, c, digits, 0),
            });
        }
        let preferred = two.iter().zip(prefer).any(|(&m, &p)| m & p != 0);
        // The best candidates by the tie-break score, kept sorted.
        let mut cands = [(u32::MAX, 0u8, 0u8); LOOKAHEAD_MAX];
        let width = self.lookahead.min(LOOKAHEAD_MAX);
        for (r, &mask) in two.iter().enumerate() {
            let mut m = if preferred { mask & prefer[r] } else { mask };
            while m != 0 {
                let c = m.trailing_zeros() as usize;
                m &= m - 1;
                let score = Self::places(b, r, c);
                if score < cands[width - 1].0 {
                    let mut i = width - 1;
                    while i > 0 && cands[i - 1].0 > score {
                        cands[i] = cands[i - 1];
                        i -= 1;
                    }
                    cands[i] = (score, r as u8, c as u8);
                }
            }
        }
        // (Lookahead may start deep in a search: grow to depth `k`.)
        while self.pre.len() <= k {
            let top = self.boards[k];
            self.pre.push([top; 2]);
        }
        if self.probes.is_empty() {
            let top = self.boards[k];
            self.probes.resize(2 * LOOKAHEAD_MAX, top);
        }
        // The slots of the kept cells probed again. Every cell of the sweep
        // takes one slot, its kept one or a free one (a kept cell still
        // with two candidates has the same two, since candidates only go),
        // so at most `width` slots are in use.
        let kept = &kept[..kept_len];
        let mut used = 0u32;
        for e in kept {
            let (r, c) = (usize::from(e.row), usize::from(e.col));
            let digits = Self::cell_digits(&self.boards[k], r, c);
            if digits == e.digits
                && cands[..width]
                    .iter()
                    .any(|&(s, r, c)| s != u32::MAX && (r, c) == (e.row, e.col))
            {
                used |= 1 << e.slot;
            }
        }
        // The best branch so far (`best.digits == 0`: none yet) and its
        // product; the cells probed since the last forced digit.
        let mut best = (0u64, Probed::NONE);
        let mut now = [Probed::NONE; LOOKAHEAD_MAX];
        let mut now_len = 0;
        let base_filled = |b: &Board<N>| b.filled.iter().map(|x| x.count_ones()).sum::<u32>();
        let total = (N * N) as u32;
        let mut forced = false;
        for &(score, r, c) in &cands[..width] {
            if score == u32::MAX {
                break;
            }
            let (r, c) = (r as usize, c as usize);
            let bit = 1u32 << c;
            let node = &self.boards[k];
            let digits = Self::cell_digits(node, r, c);
            if node.filled[r] & bit != 0 || digits.count_ones() != 2 {
                continue;
            }
            let again = kept.iter().find(|e| {
                (e.row as usize, e.col as usize) == (r, c)
                    && e.digits == digits
                    && used >> e.slot & 1 != 0
            });
            let mut failed = [false; 2];
            let probed = if let Some(&e) = again.filter(|e| e.exact && !forced) {
                e
            } else {
                let base = base_filled(node);
                // A kept probe of this cell made on an earlier board holds
                // a superset of the new probe's fixed point: start there.
                let stale = again.map(|e| usize::from(e.slot));
                let slot = stale.unwrap_or_else(|| (!used).trailing_zeros() as usize);
                used |= 1 << slot;
                let mut p = Probed {
                    row: r as u8,
                    col: c as u8,
                    slot: slot as u8,
                    digits,
                    exact: true,
                    ..Probed::NONE
                };
                let mut ds = digits;
                // Digit `i` is probed on board `2 * slot + i`.
                for (i, (fail, filled)) in failed.iter_mut().zip(&mut p.filled).enumerate() {
                    let d = ds.trailing_zeros() as usize;
                    ds &= ds - 1;
                    let at = 2 * slot + i;
                    self.touched.clear();
                    if stale.is_some() {
                        Self::narrow(&mut self.probes[at], &self.boards[k]);
                    } else {
                        self.probes[at] = self.boards[k];
                        let b = &mut self.probes[at];
                        b.dirty_hidden = 0;
                        b.dirty_locked = 0;
                        Self::place_known(b, &mut self.touched, self.rescan_all, d, r, c, digits);
                    }
                    self.probing = true;
                    self.gac_from = GacFrom::Board(k);
                    let res = self.propagate(At::Probe(at));
                    self.probing = false;
                    match res {
                        Ok(()) => {
                            let f = base_filled(&self.probes[at]);
                            *filled = f - base;
                            p.full |= f == total;
                        }
                        Err(Dead) => *fail = true,
                    }
                }
                p
            };
            let slot = usize::from(probed.slot);
            match failed {
                [true, true] => return Err(Dead),
                [false, false] => {
                    if probed.full {
                        // A probe found a solution: branch here at once.
                        self.pre[k].copy_from_slice(&self.probes[2 * slot..2 * slot + 2]);
                        return Ok(Probe::Branch(r, c, digits, digits));
                    }
                    now[now_len] = probed;
                    now_len += 1;
                    let score = u64::from(probed.filled[0]) * u64::from(probed.filled[1]);
                    if best.1.digits == 0 || score > best.0 {
                        best = (score, probed);
                    }
                }
                [a, _] => {
                    // The digit that did not fail is forced (on this board
                    // and on any board below it: a digit that fails here
                    // fails wherever fewer candidates are left). Its probe
                    // board is the node's new board, less the locked
                    // candidates (its `dirty_locked` digits), added now.
                    // The sweep goes on (stopping here to decide again
                    // measured 5% more instructions) on the new board, then
                    // decides again; the probes made so far are stale.
                    let i = usize::from(a);
                    if self.gac {
                        self.gac_snap = self.boards[k].cand;
                        self.gac_from = GacFrom::Snap;
                    }
                    self.boards[k] = self.probes[2 * slot + i];
                    self.touched.clear();
                    self.propagate(At::Depth(k))?;
                    forced = true;
                    // The probes so far were made on the board before.
                    for e in &mut now[..now_len] {
                        e.exact = false;
                    }
                }
            }
        }
        if forced {
            // The probes of this sweep, for the next one (the sweep that
            // decides again on this node's board).
            if !self.fresh_probes {
                self.kept = now;
                self.kept_len = now_len;
            }
            return Ok(Probe::Forced);
        }
        let best = best.1;
        if best.digits == 0 {
            return Ok(Probe::Forced);
        }
        let slot = usize::from(best.slot);
        self.pre[k].copy_from_slice(&self.probes[2 * slot..2 * slot + 2]);
        Ok(Probe::Branch(
            usize::from(best.row),
            usize::from(best.col),
            best.digits,
            best.digits,
        ))
    }

    /// An open cell with the fewest candidates, as (row, column, digits);
    /// `None` when the grid is full. Among cells with two (or else three)
    /// candidates, those of `prefer` go first when there are any (the
    /// conflicts of repair mode: on minimal 16×16 puzzles this cut the
    /// generator's checks that prove a clue removable by 15% in nodes).
    #[inline(always)]
    fn choose(b: &Board<N>, prefer: &[u32; N]) -> Option<(usize, usize, u32)> {
        // Bit-sliced "at least k candidates" masks per row, k = 1..=4.
        let mut best: Option<(usize, usize)> = None;
        let mut best_k = u32::MAX;
        let mut open_any = false;
        let mut two = [0u32; N];
        let mut three = [0u32; N];
        let mut four = [0u32; N];
        let mut a1 = [0u32; N];
        let mut a2 = [0u32; N];
        let mut a3 = [0u32; N];
        let mut a4 = [0u32; N];
        for lanes in &b.cand {
            for r in 0..N {
                let x = lanes[r];
                a4[r] |= a3[r] & x;
                a3[r] |= a2[r] & x;
                a2[r] |= a1[r] & x;
                a1[r] |= x;
            }
        }
        for r in 0..N {
            let open = !b.filled[r] & Self::FULL;
            open_any |= open != 0;
            two[r] = open & a2[r] & !a3[r];
            three[r] = open & a3[r] & !a4[r];
            four[r] = open & a4[r];
        }
        if !open_any {
            return None;
        }
        for (k, masks) in [(2u32, &two), (3, &three)] {
            // Ties: the cell whose digits have the fewest places left in
            // its houses (its choice forces the most). On minimal 16×16
            // puzzles this halves the nodes against the first such cell.
            let mut tie = u32::MAX;
            let preferred = masks.iter().zip(prefer).any(|(&m, &p)| m & p != 0);
            for (r, &mask) in masks.iter().enumerate() {
                let mut m = if preferred { mask & prefer[r] } else { mask };
                while m != 0 {
                    let c = m.trailing_zeros() as usize;
                    m &= m - 1;
                    let score = Self::places(b, r, c);
                    if score < tie {
                        tie = score;
                        best = Some((r, c));
                    }
                }
            }
            if best.is_some() {
                best_k = k;
                break;
            }
        }
        if best.is_none() {
            // Four or more: count exactly among those cells.
            for r in 0..N {
                let mut m = four[r];
                while m != 0 {
                    let c = m.trailing_zeros() as usize;
                    m &= m - 1;
                    let k = b.cand.iter().filter(|l| l[r] >> c & 1 != 0).count() as u32;
                    if k < best_k {
                        best_k = k;
                        best = Some((r, c));
                    }
                }
            }
        }
        let (r, c) = best?;
        let mut digits = 0u32;
        for (d, lanes) in b.cand.iter().enumerate() {
            digits |= ((lanes[r] >> c) & 1) << d;
        }
        Some((r, c, digits))
    }

    /// Places left for the cell's digits in its row, column and box, summed.
    #[inline(always)]
    fn places(b: &Board<N>, r: usize, c: usize) -> u32 {
        let stack = Self::stack_of(c);
        let band = r / B * B;
        // The cell's digits first (without branches), then their places.
        let mut digits = Self::cell_digits(b, r, c);
        let mut sum = 0;
        while digits != 0 {
            let lanes = &b.cand[digits.trailing_zeros() as usize];
            digits &= digits - 1;
            let col = Self::column_rows(lanes, c as u32);
            sum += lanes[r].count_ones() + col.count_ones();
            sum += lanes[band..band + B]
                .iter()
                .map(|&x| (x & stack).count_ones())
                .sum::<u32>();
        }
        sum
    }

    /// Board 0 from the givens, without `exclude` (cell, digit) as a
    /// candidate, propagated. The givens go in as whole boards: per digit,
    /// its givens' columns and boxes are cleared at once. Inlined into the
    /// search, so the root's propagation runs in the AVX2 build as well
    /// (most of the generator's checks end there).
    #[inline(always)]
    fn init(&mut self, puzzle: &Grid, exclude: Option<(usize, u8)>) -> Result<(), Dead> {
        if self.boards.is_empty() {
            self.boards.push(Board {
                cand: [[0; N]; N],
                filled: [0; N],
                dirty_hidden: 0,
                dirty_locked: 0,
            });
        }
        let b = &mut self.boards[0];
        let mut given = [[0u32; N]; N];
        let mut filled = [0u32; N];
        for (cell, &v) in puzzle.cells().iter().enumerate() {
            if v != 0 {
                let (r, c) = (cell / N, cell % N);
                given[v as usize - 1][r] |= 1 << c;
                filled[r] |= 1 << c;
            }
        }
        for (d, g) in given.iter().enumerate() {
            let (mut cols, mut twice) = (0u32, 0u32);
            let mut bad = false;
            for &x in g {
                bad |= x & x.wrapping_sub(1) != 0;
                twice |= cols & x;
                cols |= x;
            }
            let mut boxes = [0u32; B];
            for (k, bx) in boxes.iter_mut().enumerate() {
                let band = g[k * B..k * B + B].iter().fold(0u32, |a, &x| a | x);
                let f = Self::fields(band);
                // Two givens of a box in different columns of it.
                for s in 0..B {
                    let m = band & (Self::STACK << (s * B));
                    bad |= m & m.wrapping_sub(1) != 0;
                }
                *bx = Self::expand(f);
            }
            if bad || twice != 0 {
                return Err(Dead);
            }
            for (r, lane) in b.cand[d].iter_mut().enumerate() {
                *lane = if g[r] != 0 {
                    g[r]
                } else {
                    Self::FULL & !cols & !boxes[r / B] & !filled[r]
                };
            }
        }
        b.filled = filled;
        b.dirty_hidden = Self::FULL;
        b.dirty_locked = Self::FULL;
        self.touched.clear();
        if let Some((cell, v)) = exclude {
            let (r, c, d) = (cell / N, cell % N, v as usize - 1);
            if b.filled[r] >> c & 1 == 0 {
                b.cand[d][r] &= !(1 << c);
            }
        }
        self.propagate(At::Depth(0))
    }

    /// Repair mode: the open cells at depth `k` whose near-grid digit is no
    /// longer a candidate, row by row (none otherwise). Every such cell
    /// differs from the near grid in any solution below. When there is
    /// none, the near grid's digits complete the placed cells to a
    /// solution: an open cell keeps its near digit as a candidate, so no
    /// placed digit of its houses equals it (placing a digit clears it from
    /// the cell's houses), and two open cells of a house differ in the near
    /// grid.
    #[inline(always)]
    fn conflicts(&self, k: usize) -> [u32; N] {
        if !self.repair {
            return [0; N];
        }
        let b = &self.boards[k];
        let mut kept = [0u32; N];
        for (lanes, near) in b.cand.iter().zip(&self.near_boards) {
            for r in 0..N {
                kept[r] |= lanes[r] & near[r];
            }
        }
        for (r, x) in kept.iter_mut().enumerate() {
            *x = !*x & !b.filled[r] & Self::FULL;
        }
        kept
    }

    fn emit(
        &mut self,
        k: usize,
        budget: &mut Budget<'_>,
        on_solution: &mut dyn FnMut(&Grid) -> ControlFlow<()>,
    ) -> Result<(), StopReason> {
        let b = &self.boards[k];
        let cells = self.solution.cells_mut();
        if self.repair {
            // Open cells take the near grid's digits (see `conflicts`).
            cells.copy_from_slice(&self.near);
            for (d, lanes) in b.cand.iter().enumerate() {
                for (r, &x) in lanes.iter().enumerate() {
                    let mut m = x & b.filled[r];
                    while m != 0 {
                        let c = m.trailing_zeros() as usize;
                        m &= m - 1;
                        cells[r * N + c] = d as u8 + 1;
                    }
                }
            }
            return budget.solution(&self.solution, on_solution);
        }
        for (d, lanes) in b.cand.iter().enumerate() {
            for (r, &x) in lanes.iter().enumerate() {
                let mut m = x;
                while m != 0 {
                    let c = m.trailing_zeros() as usize;
                    m &= m - 1;
                    cells[r * N + c] = d as u8 + 1;
                }
            }
        }
        budget.solution(&self.solution, on_solution)
    }

    #[inline(always)]
    fn search(
        &mut self,
        puzzle: &Grid,
        exclude: Option<(usize, u8)>,
        budget: &mut Budget<'_>,
        stats: &mut Stats,
        on_solution: &mut dyn FnMut(&Grid) -> ControlFlow<()>,
    ) -> StopReason {
        if budget.solutions_done() {
            return StopReason::SolutionLimit;
        }
        if let Err(r) = budget.enter(stats) {
            return r;
        }
        self.choices.clear();
        self.kept_len = 0;
        let mut ok = self.init(puzzle, exclude).is_ok();
        loop {
            // Decide at the node just propagated (a lookahead that forces
            // a digit decides again).
            while ok {
                let k = self.choices.len();
                let conflicts = self.conflicts(k);
                let leaf = self.repair && conflicts.iter().all(|&x| x == 0);
                let pick = if leaf {
                    None
                } else if self.lookahead > 0 && stats.nodes > self.lookahead_after {
                    match self.probe(k, &conflicts) {
                        // A dead end found by the probes.
                        Err(Dead) => break,
                        Ok(Probe::Forced) => continue,
                        Ok(Probe::Full) => None,
                        Ok(Probe::Branch(r, c, digits, pre)) => Some((r, c, digits, pre)),
                    }
                } else {
                    Self::choose(&self.boards[k], &conflicts).map(|(r, c, d)| (r, c, d, 0))
                };
                ok = false;
                match pick {
                    None => {
                        if let Err(r) = self.emit(k, budget, on_solution) {
                            return r;
                        }
                    }
                    Some((r, c, digits, pre)) => {
                        self.choices.push(Choice {
                            row: r as u8,
                            col: c as u8,
                            rest: digits,
                            digits,
                            pre,
                        });
                        stats.max_depth = stats.max_depth.max(self.choices.len() as u32);
                        if self.boards.len() <= self.choices.len() {
                            let top = self.boards[k];
                            self.boards.push(top);
                        }
                    }
                }
            }
            // Try the next alternative of the innermost open choice.
            loop {
                let k = self.choices.len();
                let Some(top) = self.choices.last_mut() else {
                    return StopReason::Exhausted;
                };
                if top.rest == 0 {
                    self.choices.pop();
                    continue;
                }
                let mut alt = top.rest.trailing_zeros() as usize;
                if let Some(&v) = self.near.get(top.row as usize * N + top.col as usize) {
                    // The near grid's digit, if still open.
                    let first = u32::from(v).wrapping_sub(1);
                    if first < 32 && top.rest >> first & 1 != 0 {
                        alt = first as usize;
                    }
                }
                top.rest &= !(1u32 << alt);
                let (d, r, c) = (alt, top.row as usize, top.col as usize);
                let (pre, all) = (top.pre, top.digits);
                if let Err(stop) = budget.enter(stats) {
                    return stop;
                }
                stats.guesses += 1;
                self.touched.clear();
                // Another board: the kept probes are stale.
                self.kept_len = 0;
                if pre >> d & 1 != 0 {
                    // The lookahead's board for this digit (slot 0: the
                    // cell's lower digit).
                    let slot = usize::from(pre.trailing_zeros() as usize != d);
                    self.boards[k] = self.pre[k - 1][slot];
                } else {
                    self.boards[k] = self.boards[k - 1];
                    let b = &mut self.boards[k];
                    b.dirty_hidden = 0;
                    b.dirty_locked = 0;
                    Self::place_known(b, &mut self.touched, self.rescan_all, d, r, c, all);
                }
                self.gac_from = GacFrom::Board(k - 1);
                if self.propagate(At::Depth(k)).is_ok() {
                    ok = true;
                    break;
                }
            }
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn run(
        &mut self,
        gac: bool,
        puzzle: &Grid,
        exclude: Option<(usize, u8)>,
        near: Option<&Grid>,
        repair: bool,
        budget: &mut Budget<'_>,
        stats: &mut Stats,
        on_solution: &mut dyn FnMut(&Grid) -> ControlFlow<()>,
    ) -> StopReason {
        let near = near.filter(|g| g.size() == puzzle.size());
        if near.is_none_or(|g| g.cells() != self.near.as_slice()) {
            self.near.clear();
            self.near_boards.clear();
            if let Some(g) = near {
                self.near.extend_from_slice(g.cells());
            }
        }
        self.repair = repair && near.is_some_and(Grid::is_full);
        self.gac = gac;
        (self.lookahead, self.lookahead_after) = if self.no_lookahead {
            (0, 0)
        } else {
            lookahead(N, self.repair, gac)
        };
        if self.repair && self.near_boards.is_empty() {
            self.near_boards.resize(N, [0; N]);
            for (cell, &v) in self.near.iter().enumerate() {
                self.near_boards[usize::from(v) - 1][cell / N] |= 1 << (cell % N);
            }
        }
        let stop = match self.kernel {
            #[cfg(target_arch = "x86_64")]
            Kernel::Avx2 => avx2::search(self, puzzle, exclude, budget, stats, on_solution),
            Kernel::Portable => self.search(puzzle, exclude, budget, stats, on_solution),
        };
        stats.peak_bytes =
            // (Lookahead probes on two boards per probed cell and keeps
            // two per depth.)
            ((stats.max_depth as usize + 1)
                * (size_of::<Board<N>>() + size_of::<Choice>())
                + usize::from(self.lookahead > 0)
                    * (2 * self.lookahead.min(LOOKAHEAD_MAX) + 2 * stats.max_depth as usize)
                    * size_of::<Board<N>>()) as u64;
        stop
    }
}

/// The lookahead of a search (see [`Core::probe`]) for side `n`, in plain
/// searches or in repair mode: how many cells with two candidates are
/// probed at a branch, and after how many nodes of the search it starts.
/// Measured by callgrind on generated 16×16 puzzles with 90–120 clues
/// (plain: 16 cells from the root, 3.1× fewer instructions than none; 8
/// cells, 16% more than 16) and on the generator's checks (repair mode on
/// 16×16: 8 cells once past 100 nodes, 10% fewer; from the root it cost
/// 20–60% more; on 25×25 any lookahead made the checks 6–7× slower by
/// time, for half the nodes). Plain 25×25 searches: 16 cells, 8× faster on
/// six generated puzzles; 32 with all-different filtering (on the
/// generator's hard 25×25 checks 1.09–1.16× less time than 16 with it). None
/// below 16×16 (not measured; `fast` runs those).
fn lookahead(n: usize, repair: bool, all_different: bool) -> (usize, u64) {
    match (n, repair) {
        (25, false) if all_different => (32, 0),
        (16 | 25, false) => (16, 0),
        (16, true) => (8, 100),
        _ => (0, 0),
    }
}

/// The most cells [`Core::probe`] looks at.
const LOOKAHEAD_MAX: usize = 32;

/// The bit-parallel solver for the large grids. See the [module docs](self).
///
/// Holds one search state per grid size it has seen (boards grow on first
/// use and are reused); make one per thread.
#[derive(Debug)]
pub struct Wide {
    kernel: Kernel,
    /// Tests only: see [`Core::rescan_all`].
    rescan_all: bool,
    /// Tests only: see [`Core::no_lookahead`].
    no_lookahead: bool,
    /// Tests only: see [`Core::fresh_probes`].
    fresh_probes: bool,
    /// The last near grid [`Wide::other_solution_near`] found valid (its
    /// cells), so the generator's checks against one grid test it once.
    valid_near: Vec<u8>,
    /// See [`Wide::set_all_different`].
    all_different: bool,
    four: Option<Box<Core<4, 2>>>,
    nine: Option<Box<Core<9, 3>>>,
    sixteen: Option<Box<Core<16, 4>>>,
    twenty_five: Option<Box<Core<25, 5>>>,
}

impl Wide {
    /// A solver with empty buffers, running the AVX2 build of the search
    /// when the CPU has AVX2 (the same steps, so the same answers and
    /// statistics), the portable one otherwise.
    pub fn new() -> Self {
        Self::with_kernel(Kernel::detect())
    }

    fn with_kernel(kernel: Kernel) -> Self {
        Wide {
            kernel,
            rescan_all: false,
            no_lookahead: false,
            fresh_probes: false,
            valid_near: Vec::new(),
            all_different: false,
            four: None,
            nine: None,
            sixteen: None,
            twenty_five: None,
        }
    }

    /// Whether the searches also filter each house's all-different
    /// constraint at every node (generalised arc consistency, Régin's
    /// algorithm; see the [module docs](self)), off by default. Each node
    /// costs more and the searches take fewer nodes: on the hard 25×25
    /// checks of the generator (proofs and far second solutions near 290
    /// clues) 1.4–2× less time; on easy searches a loss. With it, plain
    /// 25×25 searches probe 32 cells before branching instead of 16.
    pub fn set_all_different(&mut self, on: bool) {
        self.all_different = on;
    }

    /// Like [`Solver::search`], for the solutions of `puzzle` in which
    /// cell `cell` (empty in `puzzle`) does not hold `digit`.
    ///
    /// The generator's clue-removal check: a puzzle `P` is unique with
    /// solution `S`; `P` without the clue at `cell` is unique exactly when it
    /// has no solution with `cell` ≠ `S[cell]`. That search skips the whole
    /// subtree of `cell` = `S[cell]` (in effect `P`'s own uniqueness proof),
    /// which a count to two would walk again at every check.
    pub fn search_excluding(
        &mut self,
        puzzle: &Grid,
        cell: usize,
        digit: u8,
        limits: &Limits,
        on_solution: &mut dyn FnMut(&Grid) -> ControlFlow<()>,
    ) -> Report {
        let ok = cell < puzzle.size().cells() && (1..=puzzle.side()).contains(&usize::from(digit));
        self.run_sized(
            puzzle,
            ok.then_some((cell, digit)),
            None,
            false,
            limits,
            on_solution,
        )
    }

    /// Like [`Wide::search_excluding`] for the digit `near` has in `cell`,
    /// trying at every branch the alternative `near` takes first (the
    /// others in the usual order): the same solutions, found in another
    /// order. For the generator, `near` is the puzzle's solution: a second
    /// solution of the puzzle without one clue usually differs from it in
    /// a few cells only, so this order meets it early, and a clue that must
    /// stay is found sooner. A proof of uniqueness walks the whole tree in
    /// any order.
    pub fn search_excluding_near(
        &mut self,
        puzzle: &Grid,
        near: &Grid,
        cell: usize,
        limits: &Limits,
        on_solution: &mut dyn FnMut(&Grid) -> ControlFlow<()>,
    ) -> Report {
        let ok = cell < puzzle.size().cells() && near.size() == puzzle.size();
        let digit = if ok { near.get(cell) } else { 0 };
        let exclude = (digit != 0).then_some((cell, digit));
        self.run_sized(puzzle, exclude, Some(near), false, limits, on_solution)
    }

    /// Whether `puzzle` (with a unique solution `near` once the clue at
    /// `cell` is back) has a solution other than `near`: at most one such
    /// solution is reported, the search stopping there (`limits`' node
    /// budget, deadline and cancel token apply; a complete search with no
    /// solution proves `near` the only one).
    ///
    /// The generator's clue-removal check, as local repair of the known
    /// grid: any other solution differs from `near` in `cell`. An open cell
    /// that has lost its `near` digit (a conflict) differs from `near` in
    /// every solution below, so among the cells with the fewest candidates
    /// (two, or else three) the search branches on a conflict when there
    /// is one, following the chain of changes that `cell`'s new digit sets
    /// off; and when no open cell is a conflict, `near`'s digits complete
    /// the placed cells to a solution, found without branching further.
    /// The alternatives are tried in [`Wide::search_excluding_near`]'s
    /// order. (With that order alone, on minimal 16×16 puzzles a third of
    /// the second solutions met differed from `near` in more than 40 cells;
    /// branching on conflicts only, whatever their candidates, made 8× the
    /// nodes.) Wants `cell` empty in `puzzle` and `near` a valid full grid
    /// agreeing with `puzzle`'s clues; otherwise this is
    /// [`Wide::search_excluding_near`] stopped at its first solution.
    pub fn other_solution_near(
        &mut self,
        puzzle: &Grid,
        near: &Grid,
        cell: usize,
        limits: &Limits,
        on_solution: &mut dyn FnMut(&Grid) -> ControlFlow<()>,
    ) -> Report {
        let ok = cell < puzzle.size().cells()
            && near.size() == puzzle.size()
            && self.valid(near)
            && puzzle.get(cell) == 0
            && puzzle
                .cells()
                .iter()
                .zip(near.cells())
                .all(|(&p, &g)| p == 0 || p == g);
        let limits = Limits {
            max_solutions: Some(1),
            ..limits.clone()
        };
        if !ok {
            return self.search_excluding_near(puzzle, near, cell, &limits, on_solution);
        }
        let exclude = Some((cell, near.get(cell)));
        self.run_sized(puzzle, exclude, Some(near), true, &limits, on_solution)
    }

    /// Whether `near` is a full grid without conflicts (remembered for the
    /// next call with the same grid).
    fn valid(&mut self, near: &Grid) -> bool {
        if near.cells() == self.valid_near.as_slice() {
            return true;
        }
        let ok = near.is_full() && !near.has_conflict();
        if ok {
            self.valid_near.clear();
            self.valid_near.extend_from_slice(near.cells());
        }
        ok
    }

    fn run_sized(
        &mut self,
        puzzle: &Grid,
        exclude: Option<(usize, u8)>,
        near: Option<&Grid>,
        repair: bool,
        limits: &Limits,
        on_solution: &mut dyn FnMut(&Grid) -> ControlFlow<()>,
    ) -> Report {
        let start = Instant::now();
        let mut stats = Stats::default();
        let mut budget = Budget::new(limits);
        let size = puzzle.size();
        let gac = self.all_different;
        let (kernel, rescan_all, no_lookahead, fresh_probes) = (
            self.kernel,
            self.rescan_all,
            self.no_lookahead,
            self.fresh_probes,
        );
        // One search per size, each made on first use and kept.
        macro_rules! run {
            ($slot:ident) => {
                self.$slot
                    .get_or_insert_with(|| {
                        Box::new(Core::new(
                            size,
                            kernel,
                            rescan_all,
                            no_lookahead,
                            fresh_probes,
                        ))
                    })
                    .run(
                        gac,
                        puzzle,
                        exclude,
                        near,
                        repair,
                        &mut budget,
                        &mut stats,
                        on_solution,
                    )
            };
        }
        let stop = match size.side() {
            4 => run!(four),
            9 => run!(nine),
            16 => run!(sixteen),
            _ => run!(twenty_five),
        };
        stats.time = start.elapsed();
        stats.solutions = budget.solutions;
        Report { stats, stop }
    }
}

impl Default for Wide {
    fn default() -> Self {
        Self::new()
    }
}

/// Which build of the search runs: the same code, compiled once for the
/// baseline target and once with AVX2 enabled (its lane loops then work on
/// eight 32-bit lanes at a time).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kernel {
    Portable,
    #[cfg(target_arch = "x86_64")]
    Avx2,
}

impl Kernel {
    /// The fastest build this CPU runs.
    fn detect() -> Kernel {
        *Kernel::available().last().unwrap_or(&Kernel::Portable)
    }

    /// Every build this CPU runs, slowest first (the portable one always).
    fn available() -> Vec<Kernel> {
        #[allow(unused_mut)]
        let mut kernels = vec![Kernel::Portable];
        #[cfg(target_arch = "x86_64")]
        {
            if std::is_x86_feature_detected!("avx2")
                && std::is_x86_feature_detected!("bmi1")
                && std::is_x86_feature_detected!("bmi2")
                && std::is_x86_feature_detected!("popcnt")
                && std::is_x86_feature_detected!("lzcnt")
            {
                kernels.push(Kernel::Avx2);
            }
        }
        kernels
    }
}

#[cfg(target_arch = "x86_64")]
mod avx2 {
    use std::ops::ControlFlow;

    use super::{Budget, Core, Grid, Kernel, Stats, StopReason};

    /// [`Core::search`] compiled with AVX2 (every step it calls is
    /// `#[inline(always)]`, so the whole hot loop gets the wider vectors).
    pub(super) fn search<const N: usize, const B: usize>(
        core: &mut Core<N, B>,
        puzzle: &Grid,
        exclude: Option<(usize, u8)>,
        budget: &mut Budget<'_>,
        stats: &mut Stats,
        on_solution: &mut dyn FnMut(&Grid) -> ControlFlow<()>,
    ) -> StopReason {
        // (BMI2's shifts by a register and LZCNT as well: every AVX2 CPU
        // has them, and they measured about 1% less time on 16×16.)
        #[target_feature(enable = "avx2,bmi1,bmi2,popcnt,lzcnt")]
        fn inner<const N: usize, const B: usize>(
            core: &mut Core<N, B>,
            puzzle: &Grid,
            exclude: Option<(usize, u8)>,
            budget: &mut Budget<'_>,
            stats: &mut Stats,
            on_solution: &mut dyn FnMut(&Grid) -> ControlFlow<()>,
        ) -> StopReason {
            core.search(puzzle, exclude, budget, stats, on_solution)
        }
        assert_eq!(core.kernel, Kernel::Avx2);
        // SAFETY: only `Kernel::available` makes `Kernel::Avx2`, after finding
        // avx2, bmi1, bmi2, popcnt and lzcnt on this CPU: exactly the
        // features `inner` enables.
        unsafe { inner(core, puzzle, exclude, budget, stats, on_solution) }
    }
}

impl Solver for Wide {
    fn name(&self) -> &'static str {
        super::Method::Wide.name()
    }

    fn search(
        &mut self,
        puzzle: &Grid,
        limits: &Limits,
        on_solution: &mut dyn FnMut(&Grid) -> ControlFlow<()>,
    ) -> Report {
        self.run_sized(puzzle, None, None, false, limits, on_solution)
    }
}

#[cfg(test)]
mod tests;
