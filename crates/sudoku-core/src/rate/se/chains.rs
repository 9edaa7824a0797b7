//! Explainer's "Forcing Chains & Cycles" entry: bidirectional X-cycles,
//! Y-cycles and XY-cycles (6.5 / 6.5 / 7.0), forcing X-chains (6.6) and
//! forcing chains (7.0), plus Explainer's chain-length penalty.
//!
//! The rules, from Sudoku Explainer's `Chaining` producer (LGPL; the code
//! here is ours):
//!
//! - A *potential* is a candidate assumed true ("on") or false ("off").
//! - On → off: the other candidates of the cell (Y-links; not in X-only
//!   searches), then the digit's other positions in the block, the row and
//!   the column, in that order and in reading order within each region, each
//!   cell once.
//! - Off → on: the cell's other candidate if it has exactly two (Y-links),
//!   then for the block, the row and the column the digit's only other
//!   position if there is exactly one (X-links; not in Y-only searches).
//! - Explainer searches three times, X-links only, Y-links only (starting
//!   only from bivalue cells), both; in each, from every candidate of every
//!   cell with two or more candidates in reading order, digits ascending:
//!   first cycles (a breadth-first search from "on" that returns to the
//!   start at depth four or more; "off" potentials are not de-duplicated,
//!   only kept off their own chain), then forcing chains (not in Y-only
//!   searches): from "on" the first chain that reaches the same candidate
//!   "off", then from "off" the first that reaches it "on" (a placement).
//! - A cycle removes a candidate seen both by an "on" and by an "off" link
//!   end of the cycle (outside the cycle's cells).
//! - Complexity: the number of distinct potentials on the chain; the
//!   difficulty is the base value plus 0.1 each time `complexity - 2`
//!   passes 4, 6, 8, 12, 16, 24, 32, … (the thresholds alternately grow by
//!   3/2 and 4/3).
//! - Of all the steps found, Explainer takes the one with the lowest
//!   difficulty, then the lowest complexity, then sort key (X 2, Y 3, XY 4),
//!   then the first found. Difficulties are compared as Explainer's doubles
//!   (base plus 0.1 added once per threshold), so two steps that both print
//!   as 6.6 may still be ordered.

use super::SeStep;
use super::board::Ones;
use super::board::{
    Board, CELL_POS, CELL_REGIONS, PEER_MASK, PEERS, REGION_BITS, REGION_CELLS, bit,
};

const NONE: u32 = u32::MAX;

/// A potential in the search: a candidate (`cell * 9 + digit - 1`), its
/// state, and the potential that implied it.
#[derive(Clone, Copy, Debug)]
struct Node {
    cand: u16,
    on: bool,
    parent: u32,
}

/// The sort key of a found step, compared as Explainer sorts its chaining
/// steps; steps found later win only if strictly smaller.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Key {
    pub difficulty: f64,
    pub complexity: u32,
    pub sort_key: u8,
}

impl Key {
    pub fn less(&self, o: &Key) -> bool {
        if self.difficulty != o.difficulty {
            return self.difficulty < o.difficulty;
        }
        if self.complexity != o.complexity {
            return self.complexity < o.complexity;
        }
        self.sort_key < o.sort_key
    }

    /// The difficulty in tenths, as Explainer prints it.
    pub fn tenths(&self) -> u16 {
        (self.difficulty * 10.0).round() as u16
    }
}

/// Explainer's chain-length penalty for a chain of this complexity, as the
/// double it adds (0.1 added once per threshold passed).
pub(super) fn length_penalty(complexity: u32) -> f64 {
    let length = complexity as i64 - 2;
    let mut ceil = 4i64;
    let mut odd = false;
    let mut added = 0.0f64;
    while length > ceil {
        added += 0.1;
        ceil = if odd { ceil * 4 / 3 } else { ceil * 3 / 2 };
        odd = !odd;
    }
    added
}

/// Scratch memory for the searches, kept between calls.
#[derive(Default)]
pub(super) struct Chains {
    nodes: Vec<Node>,
    pend_on: Vec<u32>,
    pend_off: Vec<u32>,
    next: Vec<u32>,
    found: Vec<u32>,
    /// Per candidate, the search (its `epoch`) that last saw it "on",
    /// "off"; and that last asked whether its "off" closes a cycle, with
    /// the answer in the low bit.
    seen_on: Vec<u32>,
    seen_off: Vec<u32>,
    /// The search under way (counted, so that nothing needs clearing).
    epoch: u32,
    closes: Vec<u32>,
    graph: Option<Box<Graph>>,
    fast: Option<Box<Fast>>,
    pairs: Pairs,
    /// The candidates of the board [`find`] built `pairs` for last (see
    /// [`Chains::implied_for`]).
    pairs_for: Option<[u16; 81]>,
    /// Per digit: its X-links-only result (see [`find`]).
    x_memo: Vec<Option<XBest>>,
    scratch: Option<SeStep>,
    /// The board's solution, when it has exactly one (see [`Truth`]).
    truth: Truth,
}

/// The unique solution of the board [`find`] is asked about, if it has
/// exactly one, to skip forcing-chain searches that cannot succeed.
///
/// Every link of a chain is sound (an "on" candidate rules out its peers
/// and its cell's other digits; an "off" candidate makes the only other
/// place or candidate true), so a chain from a candidate "on" to the same
/// candidate "off" proves it false in every solution of the board, and one
/// from "off" to "on" proves it true. On a board with a unique solution, the
/// search from "on" therefore finds nothing from the solution's own
/// candidate, and the search from "off" nothing from any other: those
/// searches (both explore everything they reach, never meeting their
/// target) are skipped, which changes no step. A board with several
/// solutions, or none, skips nothing.
pub(super) struct Truth {
    solver: Option<Box<crate::solve::fast::Fast>>,
    /// Per cell, the solution's digit as a bit (0: no unique solution).
    digit: [u16; 81],
    /// The candidates (a placed cell's digit) of the board solved last:
    /// the searches of one step ask about the same board.
    last: [u16; 81],
}

impl Default for Truth {
    fn default() -> Truth {
        Truth {
            solver: None,
            digit: [0; 81],
            last: [0; 81],
        }
    }
}

impl Truth {
    /// Solve `b` (up to two solutions) and keep the solution if unique.
    pub(super) fn update(&mut self, b: &Board) {
        use crate::solve::Solver;
        use std::ops::ControlFlow;
        let solver = self.solver.get_or_insert_with(|| {
            let mut f = crate::solve::fast::Fast::new();
            f.set_timed(false);
            Box::new(f)
        });
        let mut masks = [0u16; 81];
        for c in 0..81 {
            masks[c] = if b.value[c] != 0 {
                bit(b.value[c])
            } else {
                b.cand[c]
            };
        }
        if masks == self.last {
            return;
        }
        // A board whose candidates lie within those of the board solved
        // last, which had a unique solution, and still hold that solution
        // has it as its unique solution (its solutions are among the last
        // board's): a path's boards only lose candidates, every step being
        // sound, so the solver runs once per path.
        if self.digit[0] != 0
            && (0..81).all(|c| masks[c] & !self.last[c] == 0 && masks[c] & self.digit[c] != 0)
        {
            self.last = masks;
            return;
        }
        self.last = masks;
        let mut found = 0u32;
        let mut digit = [0u16; 81];
        let limits = crate::Limits::solutions(2);
        solver.search_candidates(&masks, &limits, &mut |g| {
            found += 1;
            if found == 1 {
                for c in 0..81 {
                    digit[c] = bit(g.get(c));
                }
            }
            ControlFlow::Continue(())
        });
        self.digit = if found == 1 { digit } else { [0; 81] };
    }

    /// Whether the board solved last ([`Truth::update`]) has a unique
    /// solution and `g` holds it (each cell's digit among its candidates,
    /// or placed). That solution, a complete valid grid, is then a solution
    /// of `g`, and [`Truth::may_force`] holds for `g` too: a chain on `g`
    /// cannot prove a candidate of it false, nor another candidate true
    /// (`g` may have other solutions; the argument needs only this one).
    pub(super) fn fits(&self, g: &Board) -> bool {
        (0..81).all(|c| {
            let t = self.digit[c];
            let m = if g.value[c] != 0 {
                bit(g.value[c])
            } else {
                g.cand[c]
            };
            t != 0 && m & t != 0
        })
    }

    /// Forget the solution (every search may then succeed).
    pub(super) fn clear(&mut self) {
        self.digit = [0; 81];
        self.last = [0; 81];
    }

    /// Whether the search from candidate `d` of `cell` in state `on` can
    /// reach the opposite state (false only where it provably cannot).
    #[inline]
    pub(super) fn may_force(&self, cell: usize, d: u8, on: bool) -> bool {
        let t = self.digit[cell];
        t == 0 || (t == bit(d)) != on
    }
}

/// The cell of a candidate index.
#[inline]
pub(super) fn cell_of(c: u16) -> usize {
    c as usize / 9
}

/// The digit of a candidate index.
#[inline]
pub(super) fn digit_of(c: u16) -> u8 {
    (c % 9) as u8 + 1
}

#[inline]
pub(super) fn cand(cell: usize, d: u8) -> u16 {
    (cell * 9 + d as usize - 1) as u16
}

/// On → off consequences of candidate `c`, in Explainer's order (the rule
/// [`Graph::build`] follows; the tests check it against this).
#[cfg(test)]
fn on_to_off(b: &Board, c: u16, y: bool, out: &mut Vec<u16>) {
    out.clear();
    let (cell, d) = (cell_of(c), digit_of(c));
    if y {
        let mut m = b.cand[cell] & !bit(d);
        while m != 0 {
            let x = m.trailing_zeros() as u8 + 1;
            out.push(cand(cell, x));
            m &= m - 1;
        }
    }
    // Each region's cells in reading order (ascending, as its positions
    // go), those of an earlier region left out.
    let mut done = 1u128 << cell;
    let cells = b.cells_of(d);
    for k in 0..3 {
        let r = CELL_REGIONS[cell][k] as usize;
        let mut m = REGION_BITS[r] & cells & !done;
        done |= REGION_BITS[r];
        while m != 0 {
            let o = m.trailing_zeros() as usize;
            m &= m - 1;
            out.push(cand(o, d));
        }
    }
}

/// Off → on consequences of candidate `c`, in Explainer's order (see
/// [`on_to_off`]).
#[cfg(test)]
fn off_to_on(b: &Board, c: u16, y: bool, x: bool, out: &mut Vec<u16>) {
    out.clear();
    let (cell, d) = (cell_of(c), digit_of(c));
    if y && b.cand[cell].ones() == 2 {
        let other = b.cand[cell] & !bit(d);
        out.push(cand(cell, other.trailing_zeros() as u8 + 1));
    }
    if x {
        for k in 0..3 {
            let r = CELL_REGIONS[cell][k] as usize;
            let pos = b.positions(r, d) & !(1 << CELL_POS[cell][k]);
            if pos.ones() == 1 {
                let o = REGION_CELLS[r][pos.trailing_zeros() as usize] as usize;
                let p = cand(o, d);
                if !out.contains(&p) {
                    out.push(p);
                }
            }
        }
    }
}

/// The implications of the three search modes, built once per grid: for
/// each candidate its on → off and off → on consequences in Explainer's
/// order, read through the mode chosen with [`Graph::mode`].
///
/// A candidate's on → off list with Y-links is its list without them after
/// the cell's other digits; its off → on list with both kinds is the Y-link
/// (if any) followed by its list with X-links only (an X-link's target is
/// in another cell, so the Y-link never hides one as a repeat). So one list
/// of each direction with both kinds, and the number of Y-links at its
/// head, serves every mode.
#[derive(Default)]
pub(super) struct Graph {
    on: Vec<u16>,
    off: Vec<u16>,
    /// Per candidate, where its lists lie in `on` and `off` in each mode:
    /// on → off with and without Y-links, off → on with both kinds, Y only
    /// and X only.
    on_y: Vec<(u32, u32)>,
    on_x: Vec<(u32, u32)>,
    off_xy: Vec<(u32, u32)>,
    off_y: Vec<(u32, u32)>,
    off_x: Vec<(u32, u32)>,
    /// Those of the mode read.
    on_range: Vec<(u32, u32)>,
    off_range: Vec<(u32, u32)>,
}

impl Graph {
    /// Rebuild for `b`, in the mode with Y-links (`y`) and X-links in
    /// off → on (`x`).
    #[cfg(test)]
    fn build_mode(&mut self, b: &Board, y: bool, x: bool) {
        self.build(b);
        self.mode(y, x);
    }

    /// Rebuild for `b` (every mode): the lists of [`on_to_off`] and
    /// [`off_to_on`] with both kinds of links, written in place (the lists'
    /// memory is kept at its largest size: 28 on → off and 4 off → on
    /// links per candidate at most).
    #[inline(never)]
    fn build(&mut self, b: &Board) {
        const ON_MAX: usize = 729 * 28;
        const OFF_MAX: usize = 729 * 4;
        if self.on.len() != ON_MAX {
            self.on.resize(ON_MAX, 0);
            self.off.resize(OFF_MAX, 0);
        }
        for v in [
            &mut self.on_y,
            &mut self.on_x,
            &mut self.off_xy,
            &mut self.off_y,
            &mut self.off_x,
        ] {
            if v.len() != 729 {
                v.resize(729, (0, 0));
            }
        }
        let (on, off) = (&mut self.on[..ON_MAX], &mut self.off[..OFF_MAX]);
        let (mut n_on, mut n_off) = (0usize, 0usize);
        for cell in 0..81 {
            let m = b.cand[cell];
            let rest = m & m.wrapping_sub(1);
            let bivalue = rest != 0 && rest & (rest - 1) == 0;
            for d in 1..=9u8 {
                let c = cand(cell, d) as usize;
                let (s_on, s_off) = (n_on as u32, n_off as u32);
                let (mut ny, mut y) = (0, 0);
                if m & bit(d) != 0 {
                    // On → off: the cell's other digits, then each region's
                    // other places in reading order (a cell once).
                    let mut o = m & !bit(d);
                    while o != 0 {
                        on[n_on] = cand(cell, o.trailing_zeros() as u8 + 1);
                        n_on += 1;
                        o &= o - 1;
                        ny += 1;
                    }
                    let mut done = 1u128 << cell;
                    let cells = b.cells_of(d);
                    for &r in &CELL_REGIONS[cell] {
                        let r = r as usize;
                        let mut p = REGION_BITS[r] & cells & !done;
                        done |= REGION_BITS[r];
                        while p != 0 {
                            on[n_on] = cand(p.trailing_zeros() as usize, d);
                            n_on += 1;
                            p &= p - 1;
                        }
                    }
                    // Off → on: the cell's other digit of two, then the
                    // digit's only other place per region (a cell once).
                    if bivalue {
                        off[n_off] = cand(cell, (m & !bit(d)).trailing_zeros() as u8 + 1);
                        n_off += 1;
                        y = 1;
                    }
                    let mut seen = 0u128;
                    for k in 0..3 {
                        let r = CELL_REGIONS[cell][k] as usize;
                        let pos = b.positions(r, d) & !(1 << CELL_POS[cell][k]);
                        if pos != 0 && pos & (pos - 1) == 0 {
                            let o = REGION_CELLS[r][pos.trailing_zeros() as usize] as usize;
                            if seen >> o & 1 == 0 {
                                seen |= 1 << o;
                                off[n_off] = cand(o, d);
                                n_off += 1;
                            }
                        }
                    }
                }
                let (e_on, e_off) = (n_on as u32, n_off as u32);
                self.on_y[c] = (s_on, e_on);
                self.on_x[c] = (s_on + ny, e_on);
                self.off_xy[c] = (s_off, e_off);
                self.off_y[c] = (s_off, s_off + y);
                self.off_x[c] = (s_off + y, e_off);
            }
        }
    }

    /// Read the links of a mode: with Y-links if `y`, with X-links in
    /// off → on if `x`.
    fn mode(&mut self, y: bool, x: bool) {
        let on = if y { &self.on_y } else { &self.on_x };
        let off = match (y, x) {
            (true, true) => &self.off_xy,
            (true, false) => &self.off_y,
            _ => &self.off_x,
        };
        self.on_range.clone_from(on);
        self.off_range.clone_from(off);
    }

    /// On → off consequences of `c`.
    #[inline]
    fn on(&self, c: u16) -> &[u16] {
        let (s, e) = self.on_range[c as usize];
        &self.on[s as usize..e as usize]
    }

    /// Off → on consequences of `c`.
    #[inline]
    fn off(&self, c: u16) -> &[u16] {
        let (s, e) = self.off_range[c as usize];
        &self.off[s as usize..e as usize]
    }
}

/// The forcing-chain search of [`Chains::forcing`] on bitboards (one
/// 81-bit cell set per digit), answering only how long the first chain to
/// reach the start's opposite is. Explainer's breadth-first search keeps
/// each potential once and goes level by level, so the level where the
/// opposite first appears is the found chain's length, whichever parents
/// the node search picks; the node search then runs only for a start whose
/// chain can win, to name the chain's cells.
#[derive(Default)]
pub(super) struct Fast {
    /// Cells holding each digit.
    cand: [u128; 9],
    /// Off → on links of each candidate (`cell * 9 + digit - 1`).
    link: Vec<Link>,
    /// [`Fast::forcing`]'s levels of the potentials it reaches, "on" then
    /// "off" (written as they are expanded and read only for potentials
    /// seen in the same search, so never cleared).
    level: Vec<u16>,
    /// Potentials ("on", then "off"; per digit as cell sets) from which the
    /// search of the current mode is known to find nothing: every potential
    /// reached by a search that ran out (see [`Fast::forcing`]). Emptied by
    /// [`Fast::build`] and [`Fast::forget`].
    dead: [[u128; 9]; 2],
}

const NO_CELL: u8 = u8::MAX;

/// The off → on consequences of one candidate on bitboards.
#[derive(Clone, Copy)]
struct Link {
    /// X-links: the digit's only other cell in each of the cell's regions.
    x: u128,
    /// The Y-link: the cell itself if it is bivalue, else `NO_CELL`, and its
    /// other digit (0-based).
    y: u8,
    y_digit: u8,
}

impl Fast {
    /// Rebuild for `b`, with the Y-links (bivalue cells; a search without
    /// Y-links passes over them).
    pub(super) fn build(&mut self, b: &Board) {
        self.cand = [0; 9];
        self.forget();
        self.link.clear();
        self.link.resize(
            729,
            Link {
                x: 0,
                y: NO_CELL,
                y_digit: 0,
            },
        );
        for cell in 0..81 {
            let m = b.cand[cell];
            let mut mm = m;
            while mm != 0 {
                let d = mm.trailing_zeros() as usize;
                mm &= mm - 1;
                self.cand[d] |= 1 << cell;
                let l = &mut self.link[cell * 9 + d];
                if m.ones() == 2 {
                    l.y = cell as u8;
                    l.y_digit = (m & !(1 << d)).trailing_zeros() as u8;
                }
                for k in 0..3 {
                    let r = CELL_REGIONS[cell][k] as usize;
                    let pos = b.positions(r, d as u8 + 1) & !(1 << CELL_POS[cell][k]);
                    if pos.ones() == 1 {
                        l.x |= 1 << REGION_CELLS[r][pos.trailing_zeros() as usize];
                    }
                }
            }
        }
    }

    /// Forget the potentials known to find nothing (a new board, or a new
    /// mode: the links differ).
    pub(super) fn forget(&mut self) {
        self.dead = [[0; 9]; 2];
    }

    /// Whether the search from `src` in state `on` is known to find nothing
    /// in the current mode (see [`Fast::forcing`]).
    #[inline]
    pub(super) fn is_dead(&self, src: u16, on: bool) -> bool {
        let (c, d) = (cell_of(src), digit_of(src) as usize - 1);
        self.dead[usize::from(!on)][d] >> c & 1 != 0
    }

    /// The length (potentials on the chain) of the first chain from `src`
    /// in state `on` to its opposite, with Y-links if `y` (X-links always),
    /// searched only while `worth` holds; `None` where
    /// [`Chains::forcing`] finds nothing.
    ///
    /// The search meets in the middle. The links are closed under
    /// contraposition (`a` on → `b` off is a link exactly when `b` on → `a`
    /// off is: peers and a cell's digits see each other; `a` off → `b` on
    /// exactly when `b` off → `a` on: the two places of a region, the two
    /// digits of a cell), so a chain from `src` to a potential `v` in `i`
    /// links and one to `v`'s opposite in `j` links make a chain from `src`
    /// to its opposite in `i + j` (the second, reversed and negated, leads
    /// from `v` to the opposite of `src`); and of the shortest chain, of
    /// length `L`, the potential after `(L - 1) / 2` links and its opposite
    /// are both within `(L + 1) / 2` links of the start. So the first
    /// breadth-first level `k` that reaches a candidate in both states
    /// gives the length (`k` plus the smallest level of the other state
    /// seen), and before it the length is at least `2k + 1` links: the
    /// search goes half as deep as the plain one, and stops at the same
    /// `worth` cut-off or finds the same length.
    ///
    /// A search that runs out (no potential left to expand, never cut off)
    /// has reached the whole set of potentials implied by `src`, with no
    /// candidate in both states. Every potential `p` of that set implies
    /// only potentials of the set (implication is transitive), so the search
    /// from `p` in the same mode also runs out without meeting and finds
    /// nothing: the set is added to the dead potentials ([`Fast::is_dead`]),
    /// whose searches the callers skip.
    pub(super) fn forcing(
        &mut self,
        src: u16,
        on: bool,
        y: bool,
        worth: impl Fn(u32) -> bool,
    ) -> Option<u32> {
        if !y {
            return self.forcing_x(src, on, worth);
        }
        let (sc, sd) = (cell_of(src), digit_of(src) as usize - 1);
        let mut seen_on = [0u128; 9];
        let mut seen_off = [0u128; 9];
        // The level each potential was reached at (written as it is
        // expanded, read only for potentials already seen).
        self.level.resize(2 * 729, 0);
        let (level_on, level_off) = self.level.split_at_mut(729);
        let mut front = [0u128; 9];
        front[sd] = 1u128 << sc;
        if on {
            seen_on = front;
        } else {
            seen_off = front;
        }
        // `front` holds the potentials first reached at level `k`, "on"
        // ones when `front_on`.
        let mut front_on = on;
        let mut k = 0u32;
        loop {
            // No candidate is reached in both states up to level `k`: the
            // chain, if any, has at least `2k + 1` links.
            if front.iter().all(|&m| m == 0) {
                for d in 0..9 {
                    self.dead[0][d] |= seen_on[d];
                    self.dead[1][d] |= seen_off[d];
                }
                return None;
            }
            if !worth(2 * k + 2) {
                return None;
            }
            let mut next = [0u128; 9];
            if front_on {
                // On → off.
                let (mut all, mut multi) = (0u128, 0u128);
                for d in 0..9 {
                    let mut m = front[d];
                    if m == 0 {
                        continue;
                    }
                    multi |= all & m;
                    all |= m;
                    let mut acc = 0u128;
                    while m != 0 {
                        let c = m.trailing_zeros() as usize;
                        m &= m - 1;
                        level_on[c * 9 + d] = k as u16;
                        acc |= PEER_MASK[c];
                    }
                    next[d] |= acc & self.cand[d];
                }
                if y && all != 0 {
                    for e in 0..9 {
                        // Cells with a front digit other than `e`.
                        let others = (all & !front[e]) | multi;
                        next[e] |= others & self.cand[e];
                    }
                }
            } else {
                // Off → on.
                for d in 0..9 {
                    let mut f = front[d];
                    while f != 0 {
                        let c = f.trailing_zeros() as usize;
                        f &= f - 1;
                        level_off[c * 9 + d] = k as u16;
                        let p = self.link[c * 9 + d];
                        if y && p.y != NO_CELL {
                            next[p.y_digit as usize] |= 1 << p.y;
                        }
                        next[d] |= p.x;
                    }
                }
            }
            k += 1;
            let (seen, other, other_level) = if front_on {
                (&mut seen_off, &seen_on, &*level_on)
            } else {
                (&mut seen_on, &seen_off, &*level_off)
            };
            let mut meet = u32::MAX;
            for d in 0..9 {
                let f = next[d] & !seen[d];
                next[d] = f;
                seen[d] |= f;
                let mut both = f & other[d];
                while both != 0 {
                    let c = both.trailing_zeros() as usize;
                    both &= both - 1;
                    meet = meet.min(u32::from(other_level[c * 9 + d]));
                }
            }
            if meet != u32::MAX {
                let complexity = k + meet + 1;
                return worth(complexity).then_some(complexity);
            }
            front = next;
            front_on = !front_on;
        }
    }

    /// [`Fast::forcing`] without Y-links: every link keeps the digit (on →
    /// off its other places in the cell's regions, off → on its only other
    /// place in a region), so the search reads the start's digit alone.
    fn forcing_x(&mut self, src: u16, on: bool, worth: impl Fn(u32) -> bool) -> Option<u32> {
        let (sc, d) = (cell_of(src), digit_of(src) as usize - 1);
        let cand = self.cand[d];
        self.level.resize(2 * 729, 0);
        let (level_on, level_off) = self.level.split_at_mut(729);
        let mut front = 1u128 << sc;
        let (mut seen_on, mut seen_off) = if on { (front, 0) } else { (0, front) };
        let mut front_on = on;
        let mut k = 0u32;
        loop {
            if front == 0 {
                self.dead[0][d] |= seen_on;
                self.dead[1][d] |= seen_off;
                return None;
            }
            if !worth(2 * k + 2) {
                return None;
            }
            let mut next = 0u128;
            let mut f = front;
            if front_on {
                while f != 0 {
                    let c = f.trailing_zeros() as usize;
                    f &= f - 1;
                    level_on[c * 9 + d] = k as u16;
                    next |= PEER_MASK[c];
                }
                next &= cand;
            } else {
                while f != 0 {
                    let c = f.trailing_zeros() as usize;
                    f &= f - 1;
                    level_off[c * 9 + d] = k as u16;
                    next |= self.link[c * 9 + d].x;
                }
            }
            k += 1;
            let (seen, other, other_level) = if front_on {
                (&mut seen_off, seen_on, &*level_on)
            } else {
                (&mut seen_on, seen_off, &*level_off)
            };
            next &= !*seen;
            *seen |= next;
            let mut both = next & other;
            if both != 0 {
                let mut meet = u32::MAX;
                while both != 0 {
                    let c = both.trailing_zeros() as usize;
                    both &= both - 1;
                    meet = meet.min(u32::from(other_level[c * 9 + d]));
                }
                let complexity = k + meet + 1;
                return worth(complexity).then_some(complexity);
            }
            front = next;
            front_on = !front_on;
        }
    }
}

/// Which forcing-chain searches with both kinds of links find something,
/// for every start at once (see [`Pairs::meets`]).
///
/// [`Fast::forcing`] without a cut-off finds a chain exactly when the
/// potentials its start implies (with the links of [`Fast`]) hold some
/// candidate in both states. Those sets are the reachability closures of
/// the implication graph: its strongly connected components (Tarjan's
/// algorithm, 1972, iterative here) are found in reverse topological order,
/// so each component's closure is its own potentials and the closures of
/// the components its links lead to, all known when it is completed. A
/// closure is kept as two bit sets over the board's candidates (numbered
/// densely), "on" and "off"; the start meets a pair when they intersect.
/// Most searches of the nested levels' "Forcing Chains & Cycles" find
/// nothing and explore everything they reach; this answers them all for
/// about the price of a few.
#[derive(Default)]
pub(super) struct Pairs {
    /// Per candidate, its dense number (valid for the board's candidates).
    dense: Vec<u16>,
    /// Words per bit set.
    words: usize,
    /// Per potential (`cand * 2 + off`): the visit order (valid above
    /// `base`), its low link, its component (`ON_STACK` while open).
    order: Vec<u32>,
    low: Vec<u32>,
    comp: Vec<u32>,
    base: u32,
    counter: u32,
    stack: Vec<u32>,
    frames: Vec<Frame>,
    /// Per component: its closure, "on" words then "off" words.
    reach: Vec<u64>,
    /// Per component: whether its closure holds a candidate in both states.
    pair: Vec<bool>,
    /// Per component: whether it is one potential without links.
    leaf: Vec<bool>,
}

const ON_STACK: u32 = u32::MAX;

/// A potential being expanded by [`Pairs::build`], with the links not
/// followed yet: cells of its digit, and digits of its cell, all in the
/// opposite state.
#[derive(Clone, Copy)]
struct Frame {
    p: u32,
    cells: u128,
    digits: u16,
}

impl Pairs {
    /// The links of potential `p` (as [`Fast::forcing`] follows them with
    /// Y-links): "on" to the digit's other places among its peers and the
    /// cell's other digits "off"; "off" to the digit's only other place in
    /// a region and a bivalue cell's other digit "on".
    fn frame(b: &Board, fast: &Fast, p: u32) -> Frame {
        let c = (p >> 1) as usize;
        let (cell, d) = (c / 9, c % 9);
        if p & 1 == 0 {
            Frame {
                p,
                cells: PEER_MASK[cell] & fast.cand[d],
                digits: b.cand[cell] & !(1 << d),
            }
        } else {
            let l = fast.link[c];
            Frame {
                p,
                cells: l.x,
                digits: if l.y != NO_CELL { 1 << l.y_digit } else { 0 },
            }
        }
    }

    /// The next link of a frame, as a potential.
    #[inline]
    fn next(f: &mut Frame) -> Option<u32> {
        let d = (f.p >> 1) as usize % 9;
        let cell = (f.p >> 1) as usize / 9;
        let state = (f.p & 1) ^ 1;
        if f.cells != 0 {
            let o = f.cells.trailing_zeros() as usize;
            f.cells &= f.cells - 1;
            return Some(((o * 9 + d) as u32) << 1 | state);
        }
        if f.digits != 0 {
            let e = f.digits.trailing_zeros() as usize;
            f.digits &= f.digits - 1;
            return Some(((cell * 9 + e) as u32) << 1 | state);
        }
        None
    }

    /// Compute, for board `b` and its tables `fast` (built for `b`), which
    /// starts' searches meet a pair.
    #[inline(never)]
    pub(super) fn build(&mut self, b: &Board, fast: &Fast) {
        if self.order.len() != 1458 || self.counter > u32::MAX / 2 {
            self.dense = vec![0; 729];
            self.order = vec![0; 1458];
            self.low = vec![0; 1458];
            self.comp = vec![0; 1458];
            self.counter = 0;
        }
        self.base = self.counter;
        let mut n = 0usize;
        for cell in 0..81 {
            let mut m = b.cand[cell];
            while m != 0 {
                let d = m.trailing_zeros() as usize;
                m &= m - 1;
                self.dense[cell * 9 + d] = n as u16;
                n += 1;
            }
        }
        self.words = n.div_ceil(64).max(1);
        self.reach.clear();
        self.pair.clear();
        self.leaf.clear();
        for cell in 0..81 {
            let mut m = b.cand[cell];
            while m != 0 {
                let d = m.trailing_zeros() as usize;
                m &= m - 1;
                for off in 0..2 {
                    let p = ((cell * 9 + d) as u32) << 1 | off;
                    if self.order[p as usize] <= self.base {
                        self.connect(b, fast, p);
                    }
                }
            }
        }
    }

    /// Tarjan's search from `p` (not yet visited).
    fn connect(&mut self, b: &Board, fast: &Fast, p: u32) {
        self.visit(b, fast, p);
        while let Some(f) = self.frames.last_mut() {
            if let Some(w) = Self::next(f) {
                let v = f.p;
                if self.order[w as usize] <= self.base {
                    self.visit(b, fast, w);
                } else if self.comp[w as usize] == ON_STACK {
                    let o = self.order[w as usize];
                    let l = &mut self.low[v as usize];
                    *l = (*l).min(o);
                }
                continue;
            }
            let v = f.p;
            self.frames.pop();
            let lv = self.low[v as usize];
            if let Some(parent) = self.frames.last() {
                let l = &mut self.low[parent.p as usize];
                *l = (*l).min(lv);
            }
            if lv == self.order[v as usize] {
                self.complete(b, fast, v);
            }
        }
    }

    fn visit(&mut self, b: &Board, fast: &Fast, p: u32) {
        self.counter += 1;
        self.order[p as usize] = self.counter;
        self.low[p as usize] = self.counter;
        self.comp[p as usize] = ON_STACK;
        self.stack.push(p);
        self.frames.push(Self::frame(b, fast, p));
    }

    /// Close the component rooted at `v`: its potentials are on the stack
    /// from `v` up; its closure is theirs and their links' components'.
    fn complete(&mut self, b: &Board, fast: &Fast, v: u32) {
        let id = self.pair.len() as u32;
        let w = self.words;
        let at = self.reach.len();
        self.reach.resize(at + 2 * w, 0);
        let start = self.stack.iter().rposition(|&q| q == v).unwrap_or(0);
        for i in start..self.stack.len() {
            let q = self.stack[i];
            self.comp[q as usize] = id;
            let k = self.dense[(q >> 1) as usize] as usize;
            self.reach[at + (q & 1) as usize * w + k / 64] |= 1 << (k % 64);
        }
        let mut links = false;
        let (done, cur) = self.reach.split_at_mut(at);
        for i in start..self.stack.len() {
            let mut f = Self::frame(b, fast, self.stack[i]);
            while let Some(t) = Self::next(&mut f) {
                links = true;
                let o = self.comp[t as usize];
                if o == id {
                    continue;
                }
                if self.leaf[o as usize] {
                    // A potential with no links: its closure is itself.
                    let k = self.dense[(t >> 1) as usize] as usize;
                    cur[(t & 1) as usize * w + k / 64] |= 1 << (k % 64);
                } else {
                    let src = &done[o as usize * 2 * w..][..2 * w];
                    for (a, s) in cur.iter_mut().zip(src) {
                        *a |= *s;
                    }
                }
            }
        }
        self.leaf.push(!links && self.stack.len() == start + 1);
        self.stack.truncate(start);
        let (on, off) = cur.split_at(w);
        self.pair.push(on.iter().zip(off).any(|(a, b)| a & b != 0));
    }

    /// Whether [`Fast::forcing`] from candidate `src` in state `on`, with
    /// Y-links and no cut-off, finds a chain.
    #[inline]
    pub(super) fn meets(&self, src: u16, on: bool) -> bool {
        let p = u32::from(src) << 1 | u32::from(!on);
        self.pair[self.comp[p as usize] as usize]
    }

    /// What candidate `src` "on" implies (its closure, itself included),
    /// as the "on" words then the "off" words of [`Pairs::words`] bits
    /// each over the board's candidates (numbered densely, in cell then
    /// digit order); `None` if that holds a candidate in both states.
    #[inline]
    pub(super) fn implied(&self, src: u16) -> Option<&[u64]> {
        let id = self.comp[(u32::from(src) << 1) as usize] as usize;
        let w = 2 * self.words;
        (!self.pair[id]).then(|| &self.reach[id * w..(id + 1) * w])
    }

    /// The strongly connected component of candidate `c` in state `on`.
    #[inline]
    pub(super) fn component(&self, c: u16, on: bool) -> u32 {
        self.comp[(u32::from(c) << 1 | u32::from(!on)) as usize]
    }

    /// Words per bit set of [`Pairs::implied`].
    #[inline]
    pub(super) fn words(&self) -> usize {
        self.words
    }
}

impl Chains {
    /// What each candidate "on" implies on `b` with both kinds of static
    /// links ([`Pairs`]), if the last [`find`] was asked about a board with
    /// the same candidates (the links read nothing else): the multiple
    /// forcing chains, asked next on the same board, use them.
    pub(super) fn implied_for(&self, b: &Board) -> Option<&Pairs> {
        (self.pairs_for == Some(b.cand)).then_some(&self.pairs)
    }

    fn reset(&mut self) {
        self.nodes.clear();
        self.pend_on.clear();
        self.pend_off.clear();
        self.found.clear();
        if self.seen_on.len() != 729 || self.epoch >= 1 << 30 {
            for v in [&mut self.seen_on, &mut self.seen_off, &mut self.closes] {
                v.clear();
                v.resize(729, 0);
            }
            self.epoch = 0;
        }
        self.epoch += 1;
    }

    fn push(&mut self, cand: u16, on: bool, parent: u32) -> u32 {
        self.nodes.push(Node { cand, on, parent });
        (self.nodes.len() - 1) as u32
    }

    /// Whether potential (`cand`, `on`) is a strict ancestor of `child`.
    fn is_parent(&self, child: u32, cand: u16, on: bool) -> bool {
        let mut p = self.nodes[child as usize].parent;
        while p != NONE {
            let n = self.nodes[p as usize];
            if n.cand == cand && n.on == on {
                return true;
            }
            p = n.parent;
        }
        false
    }

    /// Whether "off" candidate `q` implies `src` "on" (memoised per search).
    fn closes(&mut self, g: &Graph, q: u16, src: u16) -> bool {
        let m = self.closes[q as usize];
        if m >> 1 == self.epoch {
            return m & 1 != 0;
        }
        let hit = g.off(q).contains(&src);
        self.closes[q as usize] = self.epoch << 1 | u32::from(hit);
        hit
    }

    /// Explainer's cycle search from `src` "on"; the cycles' last nodes are
    /// left in `found`.
    ///
    /// The cut-off `worth` also shortens the last two rounds. A cycle
    /// closes through an "off" conjugate of the start (an "off" potential
    /// whose off → on links reach it; the links are symmetric, so these are
    /// the start's own off → on consequences). The last round the cut-off
    /// allows therefore only needs the "off" potentials that are
    /// conjugates, and the round before it only needs to keep the "on"
    /// potentials with a conjugate among their on → off consequences (every
    /// potential it reaches is still marked seen, so the kept ones get the
    /// same parents). The cycles found, their nodes and their order are
    /// those of the full rounds.
    #[inline(never)]
    ///
    /// With `scc` (both kinds of links, `pairs` built for the board), the
    /// potentials outside the start's strongly connected component are
    /// left out: a cycle through the start lies in it, and a potential
    /// reached from the start that leads into it is in it (it reaches the
    /// start through it), so the potentials left out lead only to others
    /// left out, and those kept are reached in the same order, with the
    /// same parents, as without them.
    fn cycles(&mut self, g: &Graph, src: u16, worth: impl Fn(u32) -> bool, scc: bool) {
        let home = if scc {
            self.pairs.component(src, true)
        } else {
            0
        };
        self.reset();
        let root = self.push(src, true, NONE);
        self.seen_on[src as usize] = self.epoch;
        self.pend_on.push(root);
        // The "on" potentials with a conjugate of the start among their
        // on → off consequences, per digit as cell sets (a superset: the
        // cell's other digits are counted even without Y-links).
        let mut near = [0u128; 9];
        for &q in g.off(src) {
            let (c, d) = (cell_of(q), digit_of(q) as usize - 1);
            near[d] |= PEER_MASK[c];
            for (e, m) in near.iter_mut().enumerate() {
                if e != d {
                    *m |= 1 << c;
                }
            }
        }
        let mut length = 0;
        while !self.pend_on.is_empty() || !self.pend_off.is_empty() {
            // The cycles the coming off phase closes have `length + 2`
            // links; longer ones cannot beat the best step so far.
            if !worth(length + 2) {
                break;
            }
            // The cut-off is monotone: past the next round or two nothing
            // more is looked at.
            let last = !worth(length + 4);
            let penultimate = !last && !worth(length + 6);
            length += 1;
            let mut ons = std::mem::take(&mut self.pend_on);
            for &p in &ons {
                for &q in g.on(self.nodes[p as usize].cand) {
                    if scc && self.pairs.component(q, false) != home {
                        continue;
                    }
                    if last && !self.closes(g, q, src) {
                        continue;
                    }
                    // Explainer queues every such "off"; a repeat can only
                    // matter by closing a cycle (its other consequences are
                    // already known from its first instance, processed
                    // earlier), so the others are left out.
                    if self.seen_off[q as usize] == self.epoch && !self.closes(g, q, src) {
                        continue;
                    }
                    // Every potential on a chain was seen when it was
                    // queued, so one never seen is no ancestor: only a
                    // repeat needs the walk up the chain.
                    if self.seen_off[q as usize] == self.epoch && self.is_parent(p, q, false) {
                        continue;
                    }
                    self.seen_off[q as usize] = self.epoch;
                    let n = self.push(q, false, p);
                    self.pend_off.push(n);
                }
            }
            ons.clear();
            self.next = ons;
            length += 1;
            let offs = std::mem::take(&mut self.pend_off);
            for &p in &offs {
                for &q in g.off(self.nodes[p as usize].cand) {
                    if length >= 4 && q == src {
                        let n = self.push(q, true, p);
                        self.found.push(n);
                    }
                    if !last
                        && self.seen_on[q as usize] != self.epoch
                        && (!scc || self.pairs.component(q, true) == home)
                    {
                        self.seen_on[q as usize] = self.epoch;
                        if !penultimate || near[digit_of(q) as usize - 1] >> cell_of(q) & 1 != 0 {
                            let n = self.push(q, true, p);
                            self.next.push(n);
                        }
                    }
                }
            }
            self.pend_off = offs;
            self.pend_off.clear();
            std::mem::swap(&mut self.pend_on, &mut self.next);
        }
    }

    /// Explainer's forcing-chain search from `src` in state `on`: the node
    /// where the chain first reaches the opposite state of `src`, if any.
    #[inline(never)]
    fn forcing(
        &mut self,
        g: &Graph,
        src: u16,
        on: bool,
        worth: impl Fn(u32) -> bool,
    ) -> Option<u32> {
        self.reset();
        let root = self.push(src, on, NONE);
        let mut target = None;
        if on {
            self.seen_on[src as usize] = self.epoch;
            self.pend_on.push(root);
        } else {
            self.seen_off[src as usize] = self.epoch;
            self.pend_off.push(root);
        }
        // Round k reaches the opposite of the start with 2k + 2 potentials
        // on the chain; only the first such chain counts, and longer ones
        // cannot beat the best step so far.
        let mut complexity = 2;
        while target.is_none()
            && worth(complexity)
            && (!self.pend_on.is_empty() || !self.pend_off.is_empty())
        {
            complexity += 2;
            let ons = std::mem::take(&mut self.pend_on);
            for &p in &ons {
                for &q in g.on(self.nodes[p as usize].cand) {
                    let hit = on && q == src && target.is_none();
                    if hit || self.seen_off[q as usize] != self.epoch {
                        let n = self.push(q, false, p);
                        if hit {
                            target = Some(n);
                        }
                        if self.seen_off[q as usize] != self.epoch {
                            self.seen_off[q as usize] = self.epoch;
                            self.pend_off.push(n);
                        }
                    }
                }
            }
            self.pend_on = ons;
            self.pend_on.clear();
            let offs = std::mem::take(&mut self.pend_off);
            for &p in &offs {
                for &q in g.off(self.nodes[p as usize].cand) {
                    let hit = !on && q == src && target.is_none();
                    if hit || self.seen_on[q as usize] != self.epoch {
                        let n = self.push(q, true, p);
                        if hit {
                            target = Some(n);
                        }
                        if self.seen_on[q as usize] != self.epoch {
                            self.seen_on[q as usize] = self.epoch;
                            self.next.push(n);
                        }
                    }
                }
            }
            self.pend_off = offs;
            self.pend_off.clear();
            std::mem::swap(&mut self.pend_on, &mut self.next);
        }
        target
    }

    /// The nodes from `n` up to the root, `n` first.
    fn path(&self, mut n: u32) -> impl Iterator<Item = Node> + '_ {
        std::iter::from_fn(move || {
            (n != NONE).then(|| {
                let node = self.nodes[n as usize];
                n = node.parent;
                node
            })
        })
    }
}

/// The step Explainer's "Forcing Chains & Cycles" entry takes, if any.
///
/// Explainer follows every search to its end and sorts what it found. Here
/// each search stops as soon as it could no longer find a step sorting
/// strictly before the best one so far (difficulty and complexity both
/// grow with the length; among equal steps the first found wins, as in
/// Explainer's stable sort), which does not change the step chosen.
///
/// The X-links-only searches read one digit's candidates each, so their
/// best step per digit is kept from one call to the next while that digit's
/// candidate cells (and which of them are starting cells) are unchanged;
/// the kept steps are merged in Explainer's order (key, then starting cell,
/// then digit), which is the order the full search would have found them.
///
/// With both kinds of links, when nothing is found before them, the
/// implication graph's components ([`Pairs`]) say which starts' forcing
/// searches find a chain, and keep each cycle search within its start's
/// component (see [`Chains::cycles`]); the multiple forcing chains asked
/// next on the same board reuse them ([`Chains::implied_for`]).
#[inline(never)]
pub(super) fn find(b: &Board, step: &mut SeStep, ch: &mut Chains) -> bool {
    let mut best: Option<Key> = None;
    let mut g = ch.graph.take().unwrap_or_default();
    let mut fast = ch.fast.take().unwrap_or_default();
    // X-links only, digit by digit.
    let multi = (0..81).fold(0u128, |m, c| {
        if b.value[c] == 0 && b.cand[c].ones() >= 2 {
            m | 1 << c
        } else {
            m
        }
    });
    if ch.x_memo.len() != 9 {
        ch.x_memo = (0..9).map(|_| None).collect();
    }
    let mut built = false;
    ch.truth.update(b);
    let mut scratch = ch.scratch.take().unwrap_or_else(SeStep::new);
    for d in 1..=9u8 {
        let key = (b.cells_of(d), b.cells_of(d) & multi);
        if ch.x_memo[d as usize - 1]
            .as_ref()
            .is_some_and(|m| m.key == key)
        {
            continue;
        }
        if !built {
            g.build(b);
            fast.build(b);
            built = true;
        }
        g.mode(false, true);
        let mut local: Option<Key> = None;
        let mut at = 0;
        scratch.clear();
        let mut starts = key.1;
        while starts != 0 {
            let cell = starts.trailing_zeros() as usize;
            starts &= starts - 1;
            let before = local;
            search_start(
                b,
                ch,
                &g,
                &mut fast,
                cell,
                d,
                false,
                true,
                &mut local,
                &mut scratch,
            );
            if local != before {
                at = cell;
            }
        }
        let best_d = local.map(|k| (k, at, scratch.clone()));
        ch.x_memo[d as usize - 1] = Some(XBest { key, best: best_d });
    }
    ch.scratch = Some(scratch);
    let mut at = (usize::MAX, 0u8);
    for d in 1..=9u8 {
        let Some(XBest {
            best: Some((k, cell, st)),
            ..
        }) = &ch.x_memo[d as usize - 1]
        else {
            continue;
        };
        let better = match best {
            None => true,
            Some(cur) => k.less(&cur) || (!cur.less(k) && (*cell, d) < at),
        };
        if better {
            best = Some(*k);
            at = (*cell, d);
            step.clone_from(st);
        }
    }
    if let Some(p) = step.placement.filter(|_| best.is_some()) {
        // A placement removes the cell's other candidates, which belong to
        // other digits: list them from this board.
        step.eliminations.clear();
        let mut m = b.cand[p.cell] & !bit(p.digit);
        while m != 0 {
            let x = m.trailing_zeros() as u8 + 1;
            m &= m - 1;
            step.remove(p.cell, x);
        }
    }
    // Y-links only, then both (Explainer's other two loop searches).
    if !built {
        g.build(b);
        fast.build(b);
    }
    for (y, x) in [(true, false), (true, true)] {
        g.mode(y, x);
        fast.forget();
        if y && x {
            // Which forcing searches with both kinds of links find a chain,
            // for every start at once (see [`Pairs`]), when nothing is
            // found yet (else the cut-off stops them soon, or at once).
            ch.pairs_for = None;
            if best.is_none() {
                ch.pairs.build(b, &fast);
                ch.pairs_for = Some(b.cand);
            }
        }
        for cell in 0..81 {
            let n = b.cand[cell].ones();
            if b.value[cell] != 0 || n < 2 || (!x && n > 2) {
                continue;
            }
            let mut m = b.cand[cell];
            while m != 0 {
                let d = m.trailing_zeros() as u8 + 1;
                m &= m - 1;
                search_start(b, ch, &g, &mut fast, cell, d, y, x, &mut best, step);
            }
        }
    }
    ch.graph = Some(g);
    ch.fast = Some(fast);
    best.is_some()
}

/// The X-links-only result of one digit, kept between calls.
pub(super) struct XBest {
    /// The digit's candidate cells, and those of them that are starting
    /// cells (two or more candidates).
    key: (u128, u128),
    /// The digit's best step: its key, its starting cell, the step.
    best: Option<(Key, usize, SeStep)>,
}

/// The cycle and forcing-chain searches from candidate `d` of `cell` in one
/// mode, offering what they find to `best`.
#[allow(clippy::too_many_arguments)]
fn search_start(
    b: &Board,
    ch: &mut Chains,
    g: &Graph,
    fast: &mut Fast,
    cell: usize,
    d: u8,
    y: bool,
    x: bool,
    best: &mut Option<Key>,
    step: &mut SeStep,
) {
    let src = cand(cell, d);
    // A cycle returns to the start "on" from an "off" potential whose
    // off → on links reach it: a conjugate of the start (the links are
    // symmetric: the cell's other candidate of two, the digit's other
    // place of two in a region). Without one there is no cycle to find.
    if !g.off(src).is_empty() {
        let cycle_base = cycle_base(y, x);
        let scc = y && x && ch.pairs_for.is_some();
        ch.cycles(g, src, worth(*best, cycle_base, sort_key(y, x)), scc);
        let found = std::mem::take(&mut ch.found);
        for &end in &found {
            cycle_step(b, ch, end, y, x, best, step);
        }
        ch.found = found;
    }
    if x {
        for on in [true, false] {
            if !ch.truth.may_force(cell, d, on)
                || (y && ch.pairs_for.is_some() && !ch.pairs.meets(src, on))
                || fast.is_dead(src, on)
            {
                continue;
            }
            let base = chain_base(y);
            let w = worth(*best, base, sort_key(y, x));
            if fast.forcing(src, on, y, &w).is_none() {
                continue;
            }
            if let Some(t) = ch.forcing(g, src, on, w) {
                chain_step(b, ch, t, y, best, step);
            } else {
                debug_assert!(false, "bitboard and node searches disagree");
            }
        }
    }
}

/// Whether a step of this base difficulty and sort key with the given
/// complexity would come before `best` (the search's cut-off: keys grow
/// with the complexity, so a search stops at the first complexity that
/// cannot win).
fn worth(best: Option<Key>, base: f64, sort_key: u8) -> impl Fn(u32) -> bool {
    move |complexity| {
        let k = Key {
            difficulty: base + length_penalty(complexity),
            complexity,
            sort_key,
        };
        best.is_none_or(|b| k.less(&b))
    }
}

/// A bidirectional cycle's base difficulty: X- and Y-cycles 6.5, XY 7.0.
fn cycle_base(y: bool, x: bool) -> f64 {
    if y && x { 7.0 } else { 6.5 }
}

/// A forcing chain's base difficulty: X-links only 6.6, else 7.0.
fn chain_base(y: bool) -> f64 {
    if y { 7.0 } else { 6.6 }
}

fn sort_key(y: bool, x: bool) -> u8 {
    match (y, x) {
        (true, true) => 4,
        (true, false) => 3,
        _ => 2,
    }
}

/// Consider the cycle ending at node `end` (the start "on" again).
fn cycle_step(
    b: &Board,
    ch: &Chains,
    end: u32,
    y: bool,
    x: bool,
    best: &mut Option<Key>,
    step: &mut SeStep,
) {
    // The potentials of the cycle: every node but the root (the root is
    // the same potential as `end`).
    let complexity = ch.path(end).count() as u32 - 1;
    let base = cycle_base(y, x);
    let key = Key {
        difficulty: base + length_penalty(complexity),
        complexity,
        sort_key: sort_key(y, x),
    };
    if best.is_some_and(|k| !key.less(&k)) {
        return;
    }
    let mut cells = 0u128;
    for n in ch.path(end) {
        cells |= 1 << cell_of(n.cand);
    }
    // Candidates seen by an "on" and by an "off" potential of the cycle,
    // per digit as cell sets.
    let (mut forw, mut back) = ([0u128; 9], [0u128; 9]);
    let len = complexity as usize;
    for n in ch.path(end).take(len) {
        let (c, d) = (cell_of(n.cand), digit_of(n.cand) as usize - 1);
        let seen = PEER_MASK[c] & !cells;
        if n.on {
            forw[d] |= seen;
        } else {
            back[d] |= seen;
        }
    }
    let mut any = 0u128;
    for d in 0..9 {
        forw[d] &= back[d] & b.cells_of(d as u8 + 1);
        any |= forw[d];
    }
    if any == 0 {
        return;
    }
    *best = Some(key);
    step.clear();
    let name = match (y, x) {
        (true, true) => "Bidirectional Cycle",
        (true, false) => "Bidirectional Y-Cycle",
        _ if cells.ones() == 4 => "Generalized X-Wing",
        _ => "Bidirectional X-Cycle",
    };
    step.set(name, key.tenths());
    // Cell by cell, digits ascending.
    while any != 0 {
        let c = any.trailing_zeros() as usize;
        any &= any - 1;
        for d in 0..9 {
            if forw[d] >> c & 1 != 0 {
                step.remove(c, d as u8 + 1);
            }
        }
    }
    let mut path: Vec<usize> = Vec::new();
    for n in ch.path(end).take(len) {
        let c = cell_of(n.cand);
        if !path.contains(&c) {
            path.push(c);
        }
    }
    path.reverse();
    step.cells = path;
    if !y {
        step.digits.push(digit_of(ch.nodes[end as usize].cand));
    }
}

/// Consider the forcing chain ending at node `t` (the start's opposite).
fn chain_step(b: &Board, ch: &Chains, t: u32, y: bool, best: &mut Option<Key>, step: &mut SeStep) {
    let complexity = ch.path(t).count() as u32;
    let base = chain_base(y);
    let key = Key {
        difficulty: base + length_penalty(complexity),
        complexity,
        sort_key: sort_key(y, true),
    };
    if best.is_some_and(|k| !key.less(&k)) {
        return;
    }
    *best = Some(key);
    step.clear();
    let name = match (y, complexity) {
        (true, _) => "Forcing Chain",
        (false, 6) => "Turbot Fish",
        _ => "Forcing X-Chain",
    };
    step.set(name, key.tenths());
    let node = ch.nodes[t as usize];
    let (c, d) = (cell_of(node.cand), digit_of(node.cand));
    if node.on {
        let mut m = b.cand[c] & !bit(d);
        while m != 0 {
            let x = m.trailing_zeros() as u8 + 1;
            m &= m - 1;
            step.remove(c, x);
        }
        step.place(c, d);
    } else {
        step.remove(c, d);
    }
    let mut path: Vec<usize> = Vec::new();
    for n in ch.path(t) {
        let c = cell_of(n.cand);
        if !path.contains(&c) {
            path.push(c);
        }
    }
    path.reverse();
    step.cells = path;
}

/// Every step of the "Forcing Chains & Cycles" search, as Explainer's
/// nested forcing chains ask for them (its `getHintList` with every hint
/// kept): found in Explainer's order (X-links only, Y-links only, both;
/// per mode cell by cell, digits ascending; per start its cycles, then its
/// forcing chain from "on", then from "off"), stably sorted by difficulty,
/// complexity and sort key, and without the later of two steps that remove
/// the same candidates (Explainer keeps them in a `LinkedHashSet`, whose
/// equality is the removable candidates).
#[derive(Default)]
pub(super) struct AllSteps {
    /// The steps, in Explainer's order.
    pub list: Vec<ChainStep>,
    /// Every step's potentials, `(candidate, on)`, from its end to its
    /// root (a cycle's root is the same potential as its end).
    pub nodes: Vec<(u16, bool)>,
    /// Every step's removable candidates `(cell, digits)`, in the order of
    /// Explainer's `HashMap` keyed by cell.
    pub removals: Vec<(u8, u16)>,
    found: Vec<ChainStep>,
    seen: std::collections::HashSet<Vec<(u8, u16)>>,
    /// One step's removals, sorted (the key into `seen`).
    sorted: Vec<(u8, u16)>,
    forw: Vec<(u8, u16)>,
}

/// One step of [`AllSteps`].
#[derive(Clone, Copy, Debug)]
pub(super) struct ChainStep {
    pub key: Key,
    /// A bidirectional cycle (else a forcing chain).
    pub cycle: bool,
    /// Its potentials: `nodes[start..end]`.
    pub nodes: (u32, u32),
    /// Its removable candidates: `removals[start..end]`.
    pub removals: (u32, u32),
}

/// Explainer's `HashMap<Cell, BitSet>` iteration order for entries put in
/// this order: the table grows past three quarters full from 16 slots; a
/// cell's slot is its index modulo the size; a slot keeps insertion order.
pub(super) fn hash_map_order(entries: &mut [(u8, u16)]) {
    let n = entries.len();
    let mut cap = 16;
    while n > cap * 3 / 4 {
        cap *= 2;
    }
    entries.sort_by_key(|&(c, _)| (c as usize) & (cap - 1));
}

/// Every step of the "Forcing Chains & Cycles" entry on `b`, into `out`.
/// With `truth`, `b`'s unique solution (see [`Truth::fits`]): the
/// forcing-chain searches that cannot succeed are skipped (they find
/// nothing, see [`Truth`]).
#[inline(never)]
pub(super) fn all_steps(b: &Board, truth: Option<&Truth>, ch: &mut Chains, out: &mut AllSteps) {
    out.list.clear();
    out.nodes.clear();
    out.removals.clear();
    out.found.clear();
    let mut g = ch.graph.take().unwrap_or_default();
    let mut fast = ch.fast.take().unwrap_or_default();
    g.build(b);
    fast.build(b);
    all_steps_mode::<false, true>(b, truth, ch, &mut g, &mut fast, out);
    all_steps_mode::<true, false>(b, truth, ch, &mut g, &mut fast, out);
    all_steps_mode::<true, true>(b, truth, ch, &mut g, &mut fast, out);
    ch.graph = Some(g);
    ch.fast = Some(fast);
    let mut found = std::mem::take(&mut out.found);
    // Stable: equal keys keep the order found.
    found.sort_by(|a, b| {
        if a.key.less(&b.key) {
            std::cmp::Ordering::Less
        } else if b.key.less(&a.key) {
            std::cmp::Ordering::Greater
        } else {
            std::cmp::Ordering::Equal
        }
    });
    out.seen.clear();
    for s in &found {
        let r = &mut out.sorted;
        r.clear();
        r.extend_from_slice(&out.removals[s.removals.0 as usize..s.removals.1 as usize]);
        r.sort_unstable();
        // a new key is allocated only for a set of removals not seen yet
        if !out.seen.contains(r.as_slice()) {
            out.seen.insert(r.clone());
            out.list.push(*s);
        }
    }
    found.clear();
    out.found = found;
}

/// The searches of [`all_steps`] in one mode: with Y-links (`Y`), with
/// X-links in off → on (`X`).
#[inline(never)]
fn all_steps_mode<const Y: bool, const X: bool>(
    b: &Board,
    truth: Option<&Truth>,
    ch: &mut Chains,
    g: &mut Graph,
    fast: &mut Fast,
    out: &mut AllSteps,
) {
    let (y, x) = (Y, X);
    g.mode(y, x);
    fast.forget();
    // With both kinds of links most forcing searches find nothing: which
    // ones do is answered for all starts at once; the cycle searches keep
    // within their start's component.
    ch.pairs_for = None;
    if Y && X {
        ch.pairs.build(b, fast);
    }
    for cell in 0..81 {
        let n = b.cand[cell].ones();
        if b.value[cell] != 0 || n < 2 || (!x && n > 2) {
            continue;
        }
        for d in super::board::digits(b.cand[cell]) {
            let src = cand(cell, d);
            if !g.off(src).is_empty() {
                ch.cycles(g, src, |_| true, Y && X);
                let found = std::mem::take(&mut ch.found);
                for &end in &found {
                    push_cycle(b, ch, end, y, x, out);
                }
                ch.found = found;
            }
            if x {
                for on in [true, false] {
                    if truth.is_some_and(|t| !t.may_force(cell, d, on))
                        || (Y && !ch.pairs.meets(src, on))
                        || fast.is_dead(src, on)
                        || fast.forcing(src, on, y, |_| true).is_none()
                    {
                        continue;
                    }
                    if let Some(t) = ch.forcing(g, src, on, |_| true) {
                        push_chain(b, ch, t, y, out);
                    }
                }
            }
        }
    }
}

/// Record the cycle ending at node `end` if it removes something.
fn push_cycle(b: &Board, ch: &Chains, end: u32, y: bool, x: bool, out: &mut AllSteps) {
    let complexity = ch.path(end).count() as u32 - 1;
    let base = cycle_base(y, x);
    let key = Key {
        difficulty: base + length_penalty(complexity),
        complexity,
        sort_key: sort_key(y, x),
    };
    let mut cells = 0u128;
    for n in ch.path(end) {
        cells |= 1 << cell_of(n.cand);
    }
    // Explainer's cancelForw / cancelBack, walked from the end: the
    // removable candidates in the order first seen by an "on" potential.
    let (mut forw, mut back) = ([0u16; 81], [0u16; 81]);
    out.forw.clear();
    for n in ch.path(end).take(complexity as usize) {
        let (c, d) = (cell_of(n.cand), digit_of(n.cand));
        for &p in &PEERS[c] {
            let p = p as usize;
            if cells & (1 << p) == 0 && b.has(p, d) {
                if n.on {
                    if forw[p] & bit(d) == 0 {
                        forw[p] |= bit(d);
                        out.forw.push((p as u8, bit(d)));
                    }
                } else {
                    back[p] |= bit(d);
                }
            }
        }
    }
    let start = out.removals.len();
    for i in 0..out.forw.len() {
        let (p, m) = out.forw[i];
        if back[p as usize] & m == 0 {
            continue;
        }
        match out.removals[start..].iter_mut().find(|e| e.0 == p) {
            Some(e) => e.1 |= m,
            None => out.removals.push((p, m)),
        }
    }
    if out.removals.len() == start {
        return;
    }
    hash_map_order(&mut out.removals[start..]);
    let n0 = out.nodes.len();
    out.nodes.extend(ch.path(end).map(|n| (n.cand, n.on)));
    out.found.push(ChainStep {
        key,
        cycle: true,
        nodes: (n0 as u32, out.nodes.len() as u32),
        removals: (start as u32, out.removals.len() as u32),
    });
}

/// Record the forcing chain ending at node `t` if it removes something.
fn push_chain(b: &Board, ch: &Chains, t: u32, y: bool, out: &mut AllSteps) {
    let complexity = ch.path(t).count() as u32;
    let base = chain_base(y);
    let key = Key {
        difficulty: base + length_penalty(complexity),
        complexity,
        sort_key: sort_key(y, true),
    };
    let node = ch.nodes[t as usize];
    let (c, d) = (cell_of(node.cand), digit_of(node.cand));
    let m = if node.on { b.cand[c] & !bit(d) } else { bit(d) };
    if m == 0 {
        return;
    }
    let start = out.removals.len();
    out.removals.push((c as u8, m));
    let n0 = out.nodes.len();
    out.nodes.extend(ch.path(t).map(|n| (n.cand, n.on)));
    out.found.push(ChainStep {
        key,
        cycle: false,
        nodes: (n0 as u32, out.nodes.len() as u32),
        removals: (start as u32, out.removals.len() as u32),
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Grid;
    use crate::rate::se::Profile;
    use crate::rate::se::tests::path_boards;

    /// The bitboard search (meeting in the middle) against the node search
    /// (Explainer's breadth-first search), from every start in both states
    /// and both modes with X-links, at every state of a few paths; and the
    /// searches the unique solution skips find nothing.
    #[test]
    fn bitboard_forcing_search_agrees_with_the_node_search() {
        let puzzles = [
            // cover-ate (7.5), cover-bug2 (7.1), cover-jellyfish (7.2) of
            // the calibration list.
            "..21....8.68....4.71...9...8..2.17......6......59.8..3...6...17.7....83.2....79..",
            "...9....275.4....1....58.6..92......8..691..5......98..4.32....5....4.132....5...",
            "....4..69......8.3..68.174...54.89..6...1...8..36.91...687.43..2.4......57..6....",
        ];
        let (mut ch, mut g, mut fast) = (Chains::default(), Graph::default(), Fast::default());
        let (mut compared, mut found, mut skipped) = (0u32, 0u32, 0u32);
        for p in puzzles {
            for (n, (_, b)) in path_boards(p, Profile::Sukaku).into_iter().enumerate() {
                if n % 3 != 0 {
                    continue;
                }
                ch.truth.update(&b);
                assert!(ch.truth.digit.iter().all(|&t| t != 0), "{p}: not unique");
                for y in [false, true] {
                    g.build_mode(&b, y, true);
                    fast.build(&b);
                    for cell in 0..81 {
                        for d in super::super::board::digits(b.cand[cell]) {
                            if b.cand[cell].count_ones() < 2 {
                                continue;
                            }
                            let src = cand(cell, d);
                            for on in [true, false] {
                                let quick = fast.forcing(src, on, y, |_| true);
                                let slow = ch
                                    .forcing(&g, src, on, |_| true)
                                    .map(|t| ch.path(t).count() as u32);
                                assert_eq!(quick, slow, "{p} step {n} {cell} {d} {on} {y}");
                                compared += 1;
                                found += u32::from(slow.is_some());
                                if !ch.truth.may_force(cell, d, on) {
                                    assert_eq!(slow, None);
                                    skipped += 1;
                                }
                            }
                        }
                    }
                }
            }
        }
        assert!(
            compared > 1000 && found > 50 && skipped > 500,
            "{compared} {found} {skipped}"
        );
    }

    const PUZZLES: [&str; 3] = [
        "..21....8.68....4.71...9...8..2.17......6......59.8..3...6...17.7....83.2....79..",
        "...9....275.4....1....58.6..92......8..691..5......98..4.32....5....4.132....5...",
        "....4..69......8.3..68.174...54.89..6...1...8..36.91...687.43..2.4......57..6....",
    ];

    /// The one graph read in each mode gives the lists of that mode.
    /// [`Pairs`] against the bitboard search with Y-links, from every start
    /// in both states, at every third state of a few paths, and on the same
    /// boards with one cell's solution digit removed (no solution: most
    /// searches then find a chain).
    #[test]
    fn components_answer_which_searches_meet_a_pair() {
        let puzzles = [
            "..21....8.68....4.71...9...8..2.17......6......59.8..3...6...17.7....83.2....79..",
            "...9....275.4....1....58.6..92......8..691..5......98..4.32....5....4.132....5...",
            "........8..3...4...9..2..6.....79.......612...6.5.2.7...8...5...1.....2.4.5.....3",
        ];
        let (mut fast, mut pairs) = (Fast::default(), Pairs::default());
        let mut truth = Truth::default();
        let (mut compared, mut found, mut none) = (0u32, 0u32, 0u32);
        for p in puzzles {
            for (n, (_, b)) in path_boards(p, Profile::Se).into_iter().enumerate() {
                if n % 3 != 0 {
                    continue;
                }
                truth.update(&b);
                let mut broken = b.clone();
                if let Some(c) = (0..81).find(|&c| b.cand[c].count_ones() >= 3) {
                    broken.eliminate(c, truth.digit[c].trailing_zeros() as u8 + 1);
                }
                for board in [&b, &broken] {
                    fast.build(board);
                    pairs.build(board, &fast);
                    for cell in 0..81 {
                        for d in super::super::board::digits(board.cand[cell]) {
                            let src = cand(cell, d);
                            for on in [true, false] {
                                let quick = fast.forcing(src, on, true, |_| true).is_some();
                                assert_eq!(
                                    pairs.meets(src, on),
                                    quick,
                                    "{p} step {n} {cell} {d} {on}"
                                );
                                compared += 1;
                                if quick {
                                    found += 1;
                                } else {
                                    none += 1;
                                }
                            }
                        }
                    }
                }
            }
        }
        assert!(
            compared > 5000 && found > 500 && none > 500,
            "{compared} {found} {none}"
        );
    }

    #[test]
    fn graph_modes_read_each_modes_lists() {
        let (mut g, mut buf) = (Graph::default(), Vec::new());
        let mut compared = 0u32;
        for p in PUZZLES {
            let b = Board::from_grid(&p.parse::<Grid>().unwrap()).unwrap();
            g.build(&b);
            for (y, x) in [(false, true), (true, false), (true, true)] {
                g.mode(y, x);
                for c in 0..729u16 {
                    if b.cand[cell_of(c)] & bit(digit_of(c)) == 0 {
                        assert!(g.on(c).is_empty() && g.off(c).is_empty());
                        continue;
                    }
                    on_to_off(&b, c, y, &mut buf);
                    assert_eq!(g.on(c), &buf[..], "{p} {c} {y} {x}");
                    off_to_on(&b, c, y, x, &mut buf);
                    assert_eq!(g.off(c), &buf[..], "{p} {c} {y} {x}");
                    compared += 1;
                }
            }
        }
        assert!(compared > 1000, "{compared}");
    }

    /// The chains a search found, each as its candidates and states.
    fn found_paths(ch: &Chains) -> Vec<Vec<(u16, bool)>> {
        ch.found
            .iter()
            .map(|&e| ch.path(e).map(|n| (n.cand, n.on)).collect())
            .collect()
    }

    /// A cycle search stopped by a cut-off (its last two rounds shortened)
    /// finds the cycles of the full search within the cut-off, with the
    /// same potentials, in the same order.
    #[test]
    fn cut_off_cycle_searches_find_the_full_searchs_short_cycles() {
        let (mut ch, mut g) = (Chains::default(), Graph::default());
        let (mut starts, mut cycles) = (0u32, 0u32);
        for p in PUZZLES {
            let b = Board::from_grid(&p.parse::<Grid>().unwrap()).unwrap();
            g.build(&b);
            for (y, x) in [(false, true), (true, false), (true, true)] {
                g.mode(y, x);
                for cell in 0..81 {
                    for d in super::super::board::digits(b.cand[cell]) {
                        let src = cand(cell, d);
                        if b.cand[cell].count_ones() < 2 || g.off(src).is_empty() {
                            continue;
                        }
                        ch.cycles(&g, src, |_| true, false);
                        let full = found_paths(&ch);
                        starts += 1;
                        cycles += full.len() as u32;
                        for limit in [4, 6, 8, 10, 12] {
                            ch.cycles(&g, src, |c| c <= limit, false);
                            let want: Vec<_> = full
                                .iter()
                                .filter(|p| p.len() as u32 - 1 <= limit)
                                .cloned()
                                .collect();
                            assert_eq!(found_paths(&ch), want, "{p} {cell} {d} {y} {x} {limit}");
                        }
                    }
                }
            }
        }
        assert!(starts > 200 && cycles > 40, "{starts} {cycles}");
    }

    /// With both kinds of links, a cycle search kept within the start's
    /// strongly connected component finds the full search's cycles, with
    /// the same potentials, in the same order, from every start of every
    /// third board of three paths.
    #[test]
    fn cycle_searches_within_the_component_find_the_same_cycles() {
        let (mut ch, mut g, mut fast) = (Chains::default(), Graph::default(), Fast::default());
        let (mut starts, mut cycles) = (0u32, 0u32);
        for p in PUZZLES {
            for (n, (_, b)) in path_boards(p, Profile::Sukaku).into_iter().enumerate() {
                if n % 3 != 0 {
                    continue;
                }
                g.build_mode(&b, true, true);
                fast.build(&b);
                ch.pairs.build(&b, &fast);
                for cell in 0..81 {
                    for d in super::super::board::digits(b.cand[cell]) {
                        let src = cand(cell, d);
                        if b.cand[cell].count_ones() < 2 || g.off(src).is_empty() {
                            continue;
                        }
                        ch.cycles(&g, src, |_| true, false);
                        let full = found_paths(&ch);
                        ch.cycles(&g, src, |_| true, true);
                        assert_eq!(found_paths(&ch), full, "{p} step {n} {cell} {d}");
                        starts += 1;
                        cycles += full.len() as u32;
                    }
                }
            }
        }
        assert!(starts > 500 && cycles > 100, "{starts} {cycles}");
    }

    #[test]
    fn length_penalty_thresholds() {
        // +0.1 each time complexity - 2 passes 4, 6, 8, 12, 16, 24, 32.
        let steps: Vec<u32> = (2..40)
            .filter(|&c| {
                let t = |c: u32| (length_penalty(c) * 10.0).round() as u32;
                t(c) != t(c - 1)
            })
            .collect();
        assert_eq!(steps, vec![7, 9, 11, 15, 19, 27, 35]);
    }
}
