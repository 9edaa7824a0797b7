//! Explainer's forcing chains from one assumption in both states: Nishio
//! forcing chains (7.5), multiple forcing chains (cell and region forcing
//! chains, 8.0), dynamic forcing chains (contradiction, double, cell and
//! region, 8.5) and dynamic forcing chains (+) (the same with the basic
//! techniques of [`super::dynamic_plus`] inside the chains, 9.0) and the
//! nested forcing chains: "+ Forcing Chains" (the same, then the forcing
//! chains and cycles of [`super::nested`], 9.5), "+ Multiple Forcing
//! Chains" (then, where those find nothing, the cell and region forcing
//! chains, 10.0) and "+ Dynamic Forcing Chains" (the basic techniques, then
//! the dynamic forcing chains of nesting level 0 to 3, 10.5), each plus
//! the chain-length penalty of [`super::chains`] (for the nested levels, of
//! the complexity with each distinct inner chain's added once).
//!
//! The nesting (Explainer's `Chaining.getAdvancedPotentials`, serate 1.18's
//! `nestingLimit`; LGPL, the code here is ours): when an assumption's
//! consequences run out, the inner search runs on the grid the assumption
//! has reduced and yields *every* step, sorted as below, a later step that
//! removes the same candidates dropped; a step counts only if it relies on
//! candidates the outer chain removed, its "rule parents": for every "on"
//! potential among its chains' ancestors, the candidates of its cause (its
//! cell for a naked single, the digit's places in the region for a hidden
//! single; a cell forcing chain's roots count as naked singles, a region
//! forcing chain's as hidden singles of its region) that the outer chain
//! removed. Each candidate such a step removes becomes an "off"
//! consequence with the rule parents as its parents, and the outer step's
//! complexity adds each distinct inner step's complexity once.
//!
//! The rules, from Sudoku Explainer's `Chaining` producer (LGPL; the code
//! here is ours):
//!
//! - The consequences of an assumption are found breadth-first, every
//!   pending "on" potential before the next "off" one, each potential kept
//!   once (the first chain to reach it); the search stops at the first
//!   potential that would be both on and off (a contradiction). On → off
//!   and off → on are the rules of [`super::chains`]; Nishio uses X-links
//!   only.
//! - *Dynamic* searches (Nishio and dynamic chains) remove each "off"
//!   candidate from the grid once its consequences are taken, so later
//!   links see the reduced grid; a link that holds only because of earlier
//!   removals counts those removals as its parents too ("hidden parents"),
//!   which adds to the chain's complexity.
//! - Complexity: the distinct potentials among all the chains' ancestors,
//!   summed over the chains of the step.
//! - Which cells: static multiple chains start from cells with three or
//!   more candidates only (bivalue cells are the forcing chains' job);
//!   dynamic ones from every cell with two or more. Region forcing chains
//!   are taken from the region's first candidate cell (so only when that
//!   cell is a starting cell). Per cell, digits ascending: the
//!   contradiction steps (dynamic, Nishio), the double-implication steps
//!   (dynamic, cells of three or more candidates), the region steps (block,
//!   row, column); then the cell steps.
//! - Explainer sorts the steps by difficulty, complexity, then sort key
//!   (double 1, cell 5, region 6, contradiction 7), keeping the found order
//!   among equals, and takes the first.
//!
//! The consequences of one assumption do not depend on which step asks for
//! them, so each is computed once per grid and shared (Explainer recomputes
//! them for every region). When the board has a unique solution, the
//! chains that provably meet no contradiction and serve no other step (from
//! a candidate "off" that is not the solution's, outside double
//! implications; Nishio's from the solution's candidate "on") are not
//! computed, and a step whose chains' depths already bound its complexity
//! past the step it must beat is dropped unwalked: neither changes the
//! step taken. For Nishio, multiple and dynamic chains, what each chain
//! reaches is found first by a cheaper search without nodes
//! ([`closure`]: the same potentials, order aside, and the same
//! contradictions), and the chain's nodes are built only when a step is
//! offered from it (a contradiction, or a potential every branch of a
//! region or cell forcing chain, or both of a double implication,
//! reaches): the others offer nothing. The multiple chains' links are the
//! board's own, so their closures come all at once from the implication
//! graph's components ([`super::chains::Pairs`], shared with the "Forcing
//! Chains & Cycles" search on the same board); Nishio leaves out the
//! digits whose places are those of a board where none of their starts
//! met a contradiction (its chains read only their digit's places).

use super::SeStep;
use super::board::{Board, CELL_BIT, CELL_POS, CELL_REGIONS, PEER_MASK, REGION_CELLS, bit};
use super::chains::{Key, cand, cell_of, digit_of, length_penalty};
use crate::time::Instant;

const NONE: u32 = u32::MAX;

/// Which of Explainer's three searches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Mode {
    /// Nishio forcing chains (7.5).
    Nishio,
    /// Multiple forcing chains: cell and region (8.0).
    Multiple,
    /// Dynamic forcing chains (8.5).
    Dynamic,
    /// Dynamic forcing chains (+) (9.0): dynamic chains whose consequences
    /// also use the basic techniques of [`super::dynamic_plus`].
    DynamicPlus,
    /// Nested forcing chains, "+ Forcing Chains" (9.5): dynamic (+) chains
    /// whose consequences also use "Forcing Chains & Cycles"
    /// ([`super::nested`]).
    Nested,
    /// Nested forcing chains, "+ Multiple Forcing Chains" (10.0): the same,
    /// then (where "Forcing Chains & Cycles" finds nothing) the multiple
    /// forcing chains (cell and region) on the chain's grid.
    NestedMultiple,
    /// Nested forcing chains, "+ Dynamic Forcing Chains" (10.5): dynamic (+)
    /// chains whose consequences, after the basic techniques, use the
    /// dynamic forcing chains of nesting level `n` on the chain's grid (0:
    /// dynamic, 1: dynamic (+), 2: "+ Forcing Chains", 3: "+ Multiple
    /// Forcing Chains"; Explainer's `nestingLimit`).
    NestedDynamic(u8),
}

impl Mode {
    fn dynamic(self) -> bool {
        self != Mode::Multiple
    }

    fn base(self) -> f64 {
        match self {
            Mode::Nishio => 7.5,
            Mode::Multiple => 8.0,
            Mode::Dynamic => 8.5,
            Mode::DynamicPlus => 9.0,
            Mode::Nested => 9.5,
            Mode::NestedMultiple => 10.0,
            Mode::NestedDynamic(_) => 10.5,
        }
    }

    /// Dynamic chains beyond Nishio's (double, cell and region steps).
    fn full_dynamic(self) -> bool {
        !matches!(self, Mode::Nishio | Mode::Multiple)
    }

    /// The basic techniques inside the chains (Explainer's levels 1 and up).
    fn plus(self) -> bool {
        !matches!(self, Mode::Nishio | Mode::Multiple | Mode::Dynamic)
    }

    /// "Forcing Chains & Cycles" inside the chains (levels 2 and 3).
    fn cycles(self) -> bool {
        matches!(self, Mode::Nested | Mode::NestedMultiple)
    }

    /// The forcing-chain search inside the chains (levels 3 and 4), asked
    /// after the basic techniques and "Forcing Chains & Cycles".
    fn inner(self) -> Option<Mode> {
        match self {
            Mode::NestedMultiple => Some(Mode::Multiple),
            Mode::NestedDynamic(0) => Some(Mode::Dynamic),
            Mode::NestedDynamic(1) => Some(Mode::DynamicPlus),
            Mode::NestedDynamic(2) => Some(Mode::Nested),
            Mode::NestedDynamic(_) => Some(Mode::NestedMultiple),
            _ => None,
        }
    }

    /// Explainer's name of a step: `kind` 0 contradiction, 1 double, 2
    /// region, 3 cell.
    fn name(self, kind: usize) -> &'static str {
        const NAMES: [[&str; 4]; 7] = [
            ["Nishio Forcing Chains", "", "", ""],
            ["", "", "Region Forcing Chains", "Cell Forcing Chains"],
            [
                "Dynamic Contradiction Forcing Chains",
                "Dynamic Double Forcing Chains",
                "Dynamic Region Forcing Chains",
                "Dynamic Cell Forcing Chains",
            ],
            [
                "Dynamic Contradiction Forcing Chains (+)",
                "Dynamic Double Forcing Chains (+)",
                "Dynamic Region Forcing Chains (+)",
                "Dynamic Cell Forcing Chains (+)",
            ],
            [
                "Dynamic Contradiction Forcing Chains (+ Forcing Chains)",
                "Dynamic Double Forcing Chains (+ Forcing Chains)",
                "Dynamic Region Forcing Chains (+ Forcing Chains)",
                "Dynamic Cell Forcing Chains (+ Forcing Chains)",
            ],
            [
                "Dynamic Contradiction Forcing Chains (+ Multiple Forcing Chains)",
                "Dynamic Double Forcing Chains (+ Multiple Forcing Chains)",
                "Dynamic Region Forcing Chains (+ Multiple Forcing Chains)",
                "Dynamic Cell Forcing Chains (+ Multiple Forcing Chains)",
            ],
            [
                "Dynamic Contradiction Forcing Chains (+ Dynamic Forcing Chains)",
                "Dynamic Double Forcing Chains (+ Dynamic Forcing Chains)",
                "Dynamic Region Forcing Chains (+ Dynamic Forcing Chains)",
                "Dynamic Cell Forcing Chains (+ Dynamic Forcing Chains)",
            ],
        ];
        let row = match self {
            Mode::Nishio => 0,
            Mode::Multiple => 1,
            Mode::Dynamic => 2,
            Mode::DynamicPlus => 3,
            Mode::Nested => 4,
            Mode::NestedMultiple => 5,
            Mode::NestedDynamic(_) => 6,
        };
        NAMES[row][kind]
    }
}

/// A node's cause, for the rule parents of an inner step: the region of a
/// hidden-single link (0..27), a naked single, or none (a root, an "off"
/// potential).
const CAUSE_CELL: u8 = 27;
const CAUSE_NONE: u8 = u8::MAX;

#[derive(Clone, Copy, Debug)]
struct Node {
    cand: u16,
    on: bool,
    parent: u32,
    /// Hidden parents: `hidden[start..start + len]`.
    start: u32,
    len: u16,
    /// The inner chain that implied it (nested levels), its id and
    /// complexity; `NONE` if none.
    nested: u32,
    nested_cx: u32,
    /// Why it holds (`CAUSE_*`, or a region).
    cause: u8,
    /// The nodes from it up to its root along `parent` (1 for a root):
    /// the distinct potentials among its ancestors are at least one fewer
    /// (at most one node, a contradiction's last, repeats a potential).
    depth: u16,
}

/// The consequences of one assumption.
#[derive(Clone, Debug, Default)]
struct Outcome {
    nodes: Vec<Node>,
    hidden: Vec<u32>,
    on_ver: Vec<u32>,
    off_ver: Vec<u32>,
    on_order: Vec<u16>,
    off_order: Vec<u16>,
    /// The contradiction: the node "on" and the node "off" of one
    /// candidate.
    absurd: Option<(u32, u32)>,
}

impl Outcome {
    fn node(&mut self, cand: u16, on: bool, parent: u32) -> u32 {
        let depth = if parent == NONE {
            1
        } else {
            self.nodes[parent as usize].depth + 1
        };
        self.nodes.push(Node {
            cand,
            on,
            parent,
            start: self.hidden.len() as u32,
            len: 0,
            nested: NONE,
            nested_cx: 0,
            cause: CAUSE_NONE,
            depth,
        });
        (self.nodes.len() - 1) as u32
    }

    /// Make this outcome empty again for a new search, keeping its memory
    /// (only the entries the last search set are cleared).
    fn reset(&mut self) {
        if self.on_ver.len() != 729 {
            self.on_ver = vec![NONE; 729];
            self.off_ver = vec![NONE; 729];
        }
        for &q in &self.on_order {
            self.on_ver[q as usize] = NONE;
        }
        for &q in &self.off_order {
            self.off_ver[q as usize] = NONE;
        }
        self.nodes.clear();
        self.hidden.clear();
        self.on_order.clear();
        self.off_order.clear();
        self.absurd = None;
    }
}

/// Memory kept from one search to the next: outcomes to reuse and the
/// search queues (none of it carries results).
#[derive(Default)]
pub(super) struct Scratch {
    // Boxed: the 729 slots below stay a pointer each, and an outcome moves
    // between pool and slot without copying.
    #[allow(clippy::vec_box)]
    pool: Vec<Box<Outcome>>,
    slots: Vec<Option<Box<Outcome>>>,
    /// What each chain from a candidate "on" reaches ([`Memo::reach`]):
    /// `reach_at` 0 not known yet, 1 known, 2 known and contradictory
    /// (then its nodes are in `slots`); `reached` lists the known ones.
    reach: Vec<Reach>,
    reach_at: Vec<u8>,
    reached: Vec<u16>,
    /// The pending "on" potentials of [`closure`].
    stack: Vec<u16>,
    hb: Vec<u32>,
    /// Multiple forcing chains: what every candidate "on" implies, for
    /// the searched board, when [`super::chains::find`] has not left it.
    links: super::chains::Fast,
    pairs: super::chains::Pairs,
    /// Nishio: per digit, its candidate cells on a board where no start of
    /// the digit met a contradiction (see [`search`]).
    nishio_none: [Option<u128>; 9],
    plus: super::dynamic_plus::Scratch,
    nested: super::nested::Scratch,
    /// The searched board's unique solution, if it has one (top-level
    /// searches only; see [`search`]).
    truth: super::chains::Truth,
    /// The forcing-chain search inside the chains (levels 3 and 4), with
    /// its own memory.
    inner: Option<Box<Scratch>>,
    /// Buffers of the step search ([`Walk`]) and of an inner search's
    /// steps ([`Collect`]), taken out while a search runs.
    walk: Walk,
    collect: Collect,
    /// Give up (and say so in `timed_out`) after this instant.
    pub(super) deadline: Option<Instant>,
    pub(super) timed_out: bool,
}

impl Scratch {
    /// An empty outcome, from the pool when one is free.
    fn outcome(&mut self) -> Box<Outcome> {
        let mut o = self.pool.pop().unwrap_or_default();
        o.reset();
        o
    }
}

/// What a chain reaches: per digit (`[d - 1]`), the cells it makes "on"
/// and the cells it makes "off" (bit `cell`).
#[derive(Clone, Copy, Default)]
struct Reach {
    on: [u128; 9],
    off: [u128; 9],
}

impl Reach {
    /// The potentials of a chain's outcome.
    fn of(o: &Outcome) -> Reach {
        let mut r = Reach::default();
        for &q in &o.on_order {
            r.on[digit_of(q) as usize - 1] |= CELL_BIT[cell_of(q)];
        }
        for &q in &o.off_order {
            r.off[digit_of(q) as usize - 1] |= CELL_BIT[cell_of(q)];
        }
        r
    }
}

/// Whether two chains reach a common potential (both "on" or both "off").
fn meet(a: &Reach, b: &Reach) -> bool {
    (0..9).any(|i| a.on[i] & b.on[i] != 0 || a.off[i] & b.off[i] != 0)
}

/// [`chain`]'s potentials without its nodes, by a cheaper search: the
/// potentials reached from `start` (`None` when the chain meets a
/// contradiction), for Nishio, multiple and dynamic chains (not the
/// modes with techniques inside the chains).
///
/// Why it is exact: each of [`chain`]'s links holds in the fixed point of
/// these rules, whatever the order the potentials are taken in (dynamic
/// chains: "on" turns off the cell's other candidates and the digit's
/// other places in the cell's regions; a candidate is "on" when every
/// other candidate of its cell, or every other place of its digit in a
/// region, is "off", the cell or region having two or more in the
/// board; static chains read the board's pairs instead; Nishio has no
/// cell links), and a chain that runs out of potentials without a
/// contradiction has taken every link that holds, so it reaches exactly
/// that fixed point. A contradiction (a candidate both "on" and "off", or
/// in a dynamic chain a cell or region of two or more candidates all
/// "off", whose last two [`chain`] turns into one) is in the fixed point
/// if and only if [`chain`] meets one; it then stops at its first, which
/// this search does not know: a contradictory chain is worked out by
/// [`chain`].
fn closure(
    src: &Board,
    start: u16,
    start_on: bool,
    mode: Mode,
    stack: &mut Vec<u16>,
) -> Option<Reach> {
    debug_assert!(!mode.plus());
    let dynamic = mode.dynamic();
    let mut w = Closure {
        src,
        y: mode != Mode::Nishio,
        dynamic,
        r: Reach::default(),
        cand: src.cand,
        pos: if dynamic {
            *src.position_words()
        } else {
            [[0; 9]; 27]
        },
        stack,
    };
    w.stack.clear();
    let (cell, d) = (cell_of(start), digit_of(start));
    if start_on {
        w.add_on(cell, d)?;
    } else {
        w.add_off(cell, d)?;
    }
    while let Some(q) = w.stack.pop() {
        w.on(cell_of(q), digit_of(q))?;
    }
    Some(w.r)
}

/// The state of [`closure`].
struct Closure<'a> {
    src: &'a Board,
    y: bool,
    dynamic: bool,
    r: Reach,
    /// The cells' candidates not "off" (dynamic chains with cell links).
    cand: [u16; 81],
    /// The digits' places not "off" per region (dynamic chains).
    pos: [[u16; 9]; 27],
    stack: &'a mut Vec<u16>,
}

impl Closure<'_> {
    /// `d` in `cell` "on"; `None` on a contradiction.
    #[inline(always)]
    fn add_on(&mut self, cell: usize, d: u8) -> Option<()> {
        let (i, b) = (d as usize - 1, CELL_BIT[cell]);
        if self.r.off[i] & b != 0 {
            return None;
        }
        if self.r.on[i] & b == 0 {
            self.r.on[i] |= b;
            self.stack.push(cand(cell, d));
        }
        Some(())
    }

    /// `d` in `cell` "off" and its consequences.
    #[inline(always)]
    fn add_off(&mut self, cell: usize, d: u8) -> Option<()> {
        let (i, b) = (d as usize - 1, CELL_BIT[cell]);
        if self.r.on[i] & b != 0 {
            return None;
        }
        if self.r.off[i] & b == 0 {
            self.r.off[i] |= b;
            self.off(cell, d)?;
        }
        Some(())
    }

    /// The links from `d` in `cell` "on": every other candidate of the
    /// cell and every other place of the digit in its regions "off".
    fn on(&mut self, cell: usize, d: u8) -> Option<()> {
        if self.y {
            let mut m = self.cand[cell] & !bit(d);
            while m != 0 {
                let x = m.trailing_zeros() as u8 + 1;
                m &= m - 1;
                self.add_off(cell, x)?;
            }
        }
        let i = d as usize - 1;
        let mut peers = PEER_MASK[cell] & self.src.cells_of(d) & !self.r.off[i];
        if peers & self.r.on[i] != 0 {
            return None;
        }
        self.r.off[i] |= peers;
        while peers != 0 {
            let p = peers.trailing_zeros() as usize;
            peers &= peers - 1;
            self.off(p, d)?;
        }
        Some(())
    }

    /// The links from `d` in `cell`, just made "off".
    fn off(&mut self, cell: usize, d: u8) -> Option<()> {
        let i = d as usize - 1;
        if !self.dynamic {
            // Static: the board's pairs.
            let s = self.src.cand[cell];
            let rest = s & !bit(d);
            if self.y && rest != 0 && rest & (rest - 1) == 0 {
                self.add_on(cell, rest.trailing_zeros() as u8 + 1)?;
            }
            for k in 0..3 {
                let r = CELL_REGIONS[cell][k] as usize;
                let pos = self.src.positions(r, d) & !(1 << CELL_POS[cell][k]);
                if pos != 0 && pos & (pos - 1) == 0 {
                    self.add_on(REGION_CELLS[r][pos.trailing_zeros() as usize] as usize, d)?;
                }
            }
            return Some(());
        }
        if self.y {
            self.cand[cell] &= !bit(d);
            let s = self.src.cand[cell];
            if s & (s - 1) != 0 {
                let left = self.cand[cell];
                if left == 0 {
                    return None;
                }
                if left & (left - 1) == 0 {
                    self.add_on(cell, left.trailing_zeros() as u8 + 1)?;
                }
            }
        }
        for k in 0..3 {
            let r = CELL_REGIONS[cell][k] as usize;
            let left = self.pos[r][i] & !(1 << CELL_POS[cell][k]);
            self.pos[r][i] = left;
            let pos = self.src.positions(r, d);
            if pos & (pos - 1) == 0 {
                continue;
            }
            if left == 0 {
                return None;
            }
            if left & (left - 1) == 0 {
                self.add_on(REGION_CELLS[r][left.trailing_zeros() as usize] as usize, d)?;
            }
        }
        Some(())
    }
}

/// Explainer's `doChaining` from one potential, into `o` (emptied first).
fn chain(src: &Board, start: u16, on: bool, mode: Mode, sc: &mut Scratch) -> Box<Outcome> {
    let y = mode != Mode::Nishio;
    let dynamic = mode.dynamic();
    let plus = mode.plus();
    let mut g = src.clone();
    let mut o = sc.outcome();
    let root = o.node(start, on, NONE);
    // The queues: every potential is queued as it is kept, so the
    // pending ones are `on_order[head_on..]` and `off_order[head_off..]`.
    let (mut head_on, mut head_off) = (0, 0);
    if on {
        o.on_ver[start as usize] = root;
        o.on_order.push(start);
    } else {
        o.off_ver[start as usize] = root;
        o.off_order.push(start);
    }
    let hb = &mut sc.hb;
    loop {
        if let Some(&c) = o.on_order.get(head_on) {
            head_on += 1;
            let p = o.on_ver[c as usize];
            // On → off in Explainer's order (the rules of
            // [`super::chains::on_to_off`], read from the reduced grid):
            // the cell's other digits, then the digit's other places in
            // the block, the row and the column, each cell once.
            let (cell, d) = (cell_of(c), digit_of(c));
            if y {
                let mut m = g.cand[cell] & !bit(d);
                while m != 0 {
                    let x = m.trailing_zeros() as u8 + 1;
                    m &= m - 1;
                    if off_link(&mut o, cand(cell, x), p) {
                        return o;
                    }
                }
            }
            // Per region, the places left out: the cell (block), the
            // row's or the column's three cells in the block.
            let skip = [
                1u16 << CELL_POS[cell][0],
                0b111 << (cell % 9 / 3 * 3),
                0b111 << (cell / 27 * 3),
            ];
            for k in 0..3 {
                let r = CELL_REGIONS[cell][k] as usize;
                let mut m = g.positions(r, d) & !skip[k];
                while m != 0 {
                    let i = m.trailing_zeros() as usize;
                    m &= m - 1;
                    if off_link(&mut o, cand(REGION_CELLS[r][i] as usize, d), p) {
                        return o;
                    }
                }
            }
            continue;
        }
        let Some(&c) = o.off_order.get(head_off) else {
            // Dynamic (+): once nothing is pending, the basic techniques
            // may remove more on the reduced grid (Explainer's
            // `getAdvancedPotentials`).
            // (the basic techniques read the scan words: bring them up to
            // date with the chain's eliminations first)
            if mode.plus() && {
                g.settle();
                super::dynamic_plus::advanced(src, &g, &mut sc.plus)
            } {
                let before = o.off_order.len();
                for (q, parents) in sc.plus.found() {
                    if o.off_ver[q as usize] != NONE {
                        continue;
                    }
                    let n = o.node(q, false, NONE);
                    for &h in parents {
                        let v = o.off_ver[h as usize];
                        debug_assert!(v != NONE, "rule parent not found");
                        o.hidden.push(v);
                    }
                    o.nodes[n as usize].len = parents.len() as u16;
                    o.off_ver[q as usize] = n;
                    o.off_order.push(q);
                }
                if o.off_order.len() > before {
                    continue;
                }
            } else if (mode.cycles() && super::nested::find(src, &g, &sc.truth, &mut sc.nested))
                || mode.inner().is_some_and(|m| {
                    // Then the forcing chains of the level below (levels
                    // 3 and 4; level 3 asks them only when "Forcing
                    // Chains & Cycles" finds nothing).
                    let inner = sc.inner.get_or_insert_with(Default::default);
                    inner.deadline = sc.deadline;
                    let found = inner_steps(src, &g, m, inner, &mut sc.nested);
                    if inner.timed_out {
                        sc.timed_out = true;
                    }
                    found
                })
            {
                // "Forcing Chains & Cycles" on the reduced grid (Explainer
                // asks it only when the basic techniques find nothing).
                let before = o.off_order.len();
                for (q, parents, id) in sc.nested.found() {
                    if o.off_ver[q as usize] != NONE {
                        continue;
                    }
                    let n = o.node(q, false, NONE);
                    let mut len = 0;
                    for &h in parents {
                        let v = o.off_ver[h as usize];
                        debug_assert!(v != NONE, "rule parent not found");
                        if v != NONE {
                            o.hidden.push(v);
                            len += 1;
                        }
                    }
                    let node = &mut o.nodes[n as usize];
                    node.len = len;
                    node.nested = id;
                    node.nested_cx = sc.nested.complexity(id);
                    o.off_ver[q as usize] = n;
                    o.off_order.push(q);
                }
                if o.off_order.len() > before {
                    continue;
                }
            }
            break;
        };
        head_off += 1;
        let p = o.off_ver[c as usize];
        let (cell, d) = (cell_of(c), digit_of(c));
        // Off → on, with the hidden parents of each link (candidates the
        // search removed that the link relies on).
        // Up to four links (the cell's other digit, one per region), each
        // with its hidden parents in `hb[start..end]`.
        let mut found = [(0u16, 0usize, 0usize, CAUSE_NONE); 4];
        let mut nf = 0;
        hb.clear();
        // (bit tests, not `count_ones`: the default target has no
        // `popcnt`)
        let rest = g.cand[cell] & g.cand[cell].wrapping_sub(1);
        if y && rest != 0 && rest & (rest - 1) == 0 {
            let other = (g.cand[cell] & !bit(d)).trailing_zeros() as u8 + 1;
            let start = hb.len();
            if dynamic {
                let mut gone = src.cand[cell] & !g.cand[cell];
                while gone != 0 {
                    let x = gone.trailing_zeros() as u8 + 1;
                    gone &= gone - 1;
                    hb.push(o.off_ver[cand(cell, x) as usize]);
                }
            }
            found[nf] = (cand(cell, other), start, hb.len(), CAUSE_CELL);
            nf += 1;
        }
        for k in 0..3 {
            let r = CELL_REGIONS[cell][k] as usize;
            let pos = g.positions(r, d) & !(1 << CELL_POS[cell][k]);
            if pos == 0 || pos & (pos - 1) != 0 {
                continue;
            }
            let to = cand(REGION_CELLS[r][pos.trailing_zeros() as usize] as usize, d);
            if found[..nf].iter().any(|f| f.0 == to) {
                continue;
            }
            let start = hb.len();
            if dynamic {
                let mut gone = src.positions(r, d) & !g.positions(r, d);
                while gone != 0 {
                    let i = gone.trailing_zeros() as usize;
                    gone &= gone - 1;
                    hb.push(o.off_ver[cand(REGION_CELLS[r][i] as usize, d) as usize]);
                }
            }
            found[nf] = (to, start, hb.len(), r as u8);
            nf += 1;
        }
        if plus {
            g.eliminate(cell, d);
        } else if dynamic {
            // Only the candidates and positions are read (no basic
            // technique runs on this grid): the scan words' upkeep is
            // left out.
            g.eliminate_plain(cell, d);
        }
        for &(q, h0, h1, cause) in &found[..nf] {
            let hidden = &hb[h0..h1];
            let known_off = o.off_ver[q as usize];
            if known_off == NONE && o.on_ver[q as usize] != NONE {
                continue;
            }
            let n = o.node(q, true, p);
            debug_assert!(hidden.iter().all(|&h| h != NONE), "hidden parent not found");
            o.nodes[n as usize].len = hidden.len() as u16;
            o.nodes[n as usize].cause = cause;
            o.hidden.extend_from_slice(hidden);
            if known_off != NONE {
                o.absurd = Some((n, known_off));
                return o;
            }
            o.on_ver[q as usize] = n;
            o.on_order.push(q);
        }
    }
    o
}

/// One on → off link of a chain from node `p` to candidate `q` "off": a
/// contradiction if `q` is "on" (then `true`), else a new "off" node if
/// `q` has none yet.
#[inline(always)]
fn off_link(o: &mut Outcome, q: u16, p: u32) -> bool {
    let on = o.on_ver[q as usize];
    if on != NONE {
        let n = o.node(q, false, p);
        o.absurd = Some((on, n));
        return true;
    }
    if o.off_ver[q as usize] == NONE {
        let n = o.node(q, false, p);
        o.off_ver[q as usize] = n;
        o.off_order.push(q);
    }
    false
}

/// Buffers of the walks over a step's chains.
#[derive(Default)]
struct Walk {
    /// Potentials seen, by stamp (`cand * 2 + on`).
    seen: Vec<u32>,
    mark: u32,
    stack: Vec<u32>,
    /// The inner chains met: (id, complexity).
    nested: Vec<(u32, u32)>,
    /// Rule parents already taken (inner steps).
    taken: Vec<bool>,
}

impl Walk {
    /// A fresh stamp for a new walk.
    fn stamp(&mut self) -> u32 {
        if self.seen.len() != 1458 || self.mark == u32::MAX {
            self.seen.clear();
            self.seen.resize(1458, 0);
            self.mark = 0;
        }
        self.mark += 1;
        self.mark
    }

    /// Distinct potentials among the ancestors of `n` (itself included),
    /// following every parent; the inner chains met go to `nested`.
    fn ancestors(&mut self, o: &Outcome, n: u32) -> u32 {
        let mut count = 0;
        let mut nested = std::mem::take(&mut self.nested);
        self.each_ancestor(o, n, |node, _| {
            count += 1;
            if node.nested != NONE {
                nested.push((node.nested, node.nested_cx));
            }
        });
        self.nested = nested;
        count
    }

    /// Calls `visit` once for every distinct potential among the ancestors
    /// of `n` (itself included, following every parent), with its key
    /// `cand * 2 + on`.
    fn each_ancestor(&mut self, o: &Outcome, n: u32, mut visit: impl FnMut(Node, usize)) {
        let m = self.stamp();
        self.stack.clear();
        self.stack.push(n);
        while let Some(x) = self.stack.pop() {
            let node = o.nodes[x as usize];
            let key = node.cand as usize * 2 + node.on as usize;
            if self.seen[key] == m {
                continue;
            }
            self.seen[key] = m;
            visit(node, key);
            if node.parent != NONE {
                self.stack.push(node.parent);
            }
            let s = node.start as usize;
            self.stack
                .extend_from_slice(&o.hidden[s..s + node.len as usize]);
        }
    }

    /// The rule parents of the chain ending at `n` (Explainer's
    /// `collectRuleParents`): for every "on" potential among its ancestors,
    /// the candidates of its cause (the cell for a naked single, the
    /// digit's places in the region for a hidden single; `root` for the
    /// roots) that `src` has and `g` has not, into `out` (each once, marked
    /// in `taken`). Also appends the chain's potentials to `sig`.
    #[allow(clippy::too_many_arguments)]
    fn rule_parents(
        &mut self,
        o: &Outcome,
        n: u32,
        root: u8,
        src: &Board,
        g: &Board,
        out: &mut Vec<u16>,
        sig: &mut Vec<u32>,
    ) {
        if self.taken.len() != 729 {
            self.taken = vec![false; 729];
        }
        let mut taken = std::mem::take(&mut self.taken);
        self.each_ancestor(o, n, |node, key| {
            sig.push(key as u32);
            if !node.on {
                return;
            }
            let cause = if node.parent == NONE && node.cause == CAUSE_NONE {
                root
            } else {
                node.cause
            };
            let (cell, d) = (cell_of(node.cand), digit_of(node.cand));
            let mut take = |c: usize, d: u8, out: &mut Vec<u16>| {
                let q = cand(c, d);
                if src.has(c, d) && !g.has(c, d) && !taken[q as usize] {
                    taken[q as usize] = true;
                    out.push(q);
                }
            };
            if cause == CAUSE_CELL {
                for x in super::board::digits(src.cand[cell]) {
                    take(cell, x, out);
                }
            } else if cause != CAUSE_NONE {
                for &c in &REGION_CELLS[cause as usize] {
                    take(c as usize, d, out);
                }
            }
        });
        self.taken = taken;
    }
}

/// The steps of an inner search (levels 3 and 4): per set of removable
/// candidates, the first in Explainer's order (its hints' `equals` is the
/// removable candidates, kept in a `LinkedHashSet` after sorting).
#[derive(Default)]
struct Collect {
    entries: Vec<Entry>,
    /// Entry per (cell, removed digits), `NONE` if none.
    index: Vec<u32>,
    parents: Vec<u16>,
    sigs: Vec<u32>,
    seq: u32,
    order: Vec<u32>,
}

#[derive(Clone, Copy)]
struct Entry {
    key: Key,
    seq: u32,
    cell: u8,
    mask: u16,
    parents: (u32, u32),
    sig: (u32, u32),
}

impl Collect {
    fn reset(&mut self) {
        if self.index.len() != 81 * 512 {
            self.index = vec![NONE; 81 * 512];
        }
        for e in &self.entries {
            self.index[e.cell as usize * 512 + e.mask as usize] = NONE;
        }
        self.entries.clear();
        self.parents.clear();
        self.sigs.clear();
        self.seq = 0;
    }
}

/// The best step so far, by Explainer's order; or, for an inner search
/// (`outer` set: the outer chain's starting grid), every step.
struct Best<'a> {
    key: Option<Key>,
    step: Option<&'a mut SeStep>,
    outer: Option<&'a Board>,
    walk: Walk,
    collect: Collect,
}

impl Best<'_> {
    /// Offer a step: `chains` are the (outcome, node) ends whose ancestors
    /// make the complexity; `target` the concluded potential; `sort_key`
    /// Explainer's; `root` the cause of the chains' roots (a cell or region
    /// forcing chain's; for the rule parents of an inner step).
    #[allow(clippy::too_many_arguments)]
    fn offer(
        &mut self,
        b: &Board,
        mode: Mode,
        name: &'static str,
        sort_key: u8,
        chains: &[(&Outcome, u32)],
        target: (u16, bool),
        place: bool,
        root: u8,
    ) {
        let (c, d) = (cell_of(target.0), digit_of(target.0));
        // Worth it only if it removes something.
        let mask = if target.1 {
            b.cand[c] & !bit(d)
        } else {
            bit(d)
        };
        if mask == 0 {
            return;
        }
        // A lower bound of the complexity from the chains' depths: a step
        // that cannot sort before the one it would have to beat (the best
        // so far; for an inner search, the kept step removing the same
        // candidates) is dropped before its ancestors are walked. Keys
        // grow with the complexity, so this drops only steps the full
        // comparison below would drop.
        let low: u32 = chains
            .iter()
            .map(|&(o, n)| u32::from(o.nodes[n as usize].depth) - 1)
            .sum();
        let low_key = Key {
            difficulty: mode.base() + length_penalty(low),
            complexity: low,
            sort_key,
        };
        let rival = match self.outer {
            Some(_) => {
                let at = self.collect.index[c * 512 + mask as usize];
                (at != NONE).then(|| self.collect.entries[at as usize].key)
            }
            None => self.key,
        };
        if rival.is_some_and(|k| !low_key.less(&k)) {
            if self.outer.is_some() {
                // (the inner steps' found order counts every offer)
                self.collect.seq += 1;
            }
            return;
        }
        self.walk.nested.clear();
        let mut complexity: u32 = chains.iter().map(|&(o, n)| self.walk.ancestors(o, n)).sum();
        // Each distinct inner chain once (Explainer's
        // `getNestedComplexity`).
        if !self.walk.nested.is_empty() {
            self.walk.nested.sort_unstable();
            self.walk.nested.dedup_by_key(|e| e.0);
            complexity += self.walk.nested.iter().map(|e| e.1).sum::<u32>();
        }
        let key = Key {
            difficulty: mode.base() + length_penalty(complexity),
            complexity,
            sort_key,
        };
        if let Some(src) = self.outer {
            let col = &mut self.collect;
            let seq = col.seq;
            col.seq += 1;
            let slot = c * 512 + mask as usize;
            let at = col.index[slot];
            if at != NONE && !key.less(&col.entries[at as usize].key) {
                return;
            }
            let p0 = col.parents.len() as u32;
            let s0 = col.sigs.len() as u32;
            col.sigs.push(10 + sort_key as u32);
            for &(o, n) in chains {
                col.sigs.push(NONE);
                self.walk
                    .rule_parents(o, n, root, src, b, &mut col.parents, &mut col.sigs);
            }
            for &q in &col.parents[p0 as usize..] {
                self.walk.taken[q as usize] = false;
            }
            let e = Entry {
                key,
                seq,
                cell: c as u8,
                mask,
                parents: (p0, col.parents.len() as u32),
                sig: (s0, col.sigs.len() as u32),
            };
            if at != NONE {
                col.entries[at as usize] = e;
            } else {
                col.index[slot] = col.entries.len() as u32;
                col.entries.push(e);
            }
            return;
        }
        if self.key.is_some_and(|k| !key.less(&k)) {
            return;
        }
        self.key = Some(key);
        let Some(step) = self.step.as_deref_mut() else {
            return;
        };
        step.clear();
        step.set(name, key.tenths());
        for x in super::board::digits(mask) {
            step.remove(c, x);
        }
        if place {
            step.place(c, d);
        }
        step.cells.push(c);
        step.digits.push(d);
    }
}

/// Memoised consequences of each candidate assumed on, per grid (the
/// slots and the outcomes' memory live in [`Scratch`] between calls).
/// With `lean` (Nishio, multiple and dynamic chains), what a chain
/// reaches is found first by [`closure`], and its nodes only when a step
/// is offered from it: a contradiction, or potentials every branch of a
/// forcing chain (or both of a double implication) reaches; a chain
/// without either offers nothing.
struct Memo<'a, 'p> {
    sc: &'a mut Scratch,
    lean: bool,
    /// Multiple forcing chains: what each candidate "on" implies.
    implied: Option<&'p super::chains::Pairs>,
}

impl Memo<'_, '_> {
    fn get(&mut self, b: &Board, c: u16, mode: Mode) {
        if self.sc.slots[c as usize].is_none() {
            let o = chain(b, c, true, mode, self.sc);
            self.sc.slots[c as usize] = Some(o);
        }
    }

    /// What the chain from `c` "on" reaches (its nodes too when it meets
    /// a contradiction).
    fn reach(&mut self, b: &Board, c: u16, mode: Mode) -> &Reach {
        let at = c as usize;
        if self.sc.reach_at[at] == 0 {
            let r = match self.sc.slots[at].as_deref() {
                Some(o) => (Reach::of(o), o.absurd.is_some()),
                None => match closure(b, c, true, mode, &mut self.sc.stack) {
                    Some(r) => (r, false),
                    None => {
                        self.get(b, c, mode);
                        (Reach::of(self.outcome(c)), true)
                    }
                },
            };
            self.sc.reach[at] = r.0;
            self.sc.reach_at[at] = 1 + u8::from(r.1);
            self.sc.reached.push(c);
        }
        &self.sc.reach[at]
    }

    /// Whether every chain from `cands` "on" (known) reaches some common
    /// potential.
    fn all_meet(&self, cands: &[u16]) -> bool {
        (0..9).any(|i| {
            let (mut on, mut off) = (!0u128, !0u128);
            for &c in cands {
                let r = &self.sc.reach[c as usize];
                on &= r.on[i];
                off &= r.off[i];
            }
            on != 0 || off != 0
        })
    }

    fn outcome(&self, c: u16) -> &Outcome {
        self.sc.slots[c as usize]
            .as_deref()
            .expect("computed above")
    }
}

/// The step Explainer's Nishio, multiple or dynamic forcing chains entry
/// takes, if any. `false` also when the deadline passed (then
/// `sc.timed_out` is set).
///
/// `chains`: the "Forcing Chains & Cycles" search's memory, whose closures
/// the multiple forcing chains reuse when they were built for this board.
#[inline(never)]
pub(super) fn find(
    b: &Board,
    step: &mut SeStep,
    mode: Mode,
    sc: &mut Scratch,
    chains: &super::chains::Chains,
) -> bool {
    sc.timed_out = false;
    let mut best = Best {
        key: None,
        step: Some(step),
        outer: None,
        walk: std::mem::take(&mut sc.walk),
        collect: Collect::default(),
    };
    search(b, mode, sc, &mut best, chains.implied_for(b));
    sc.walk = best.walk;
    best.key.is_some() && !sc.timed_out
}

/// Explainer's levels 3 and 4 inside a chain: every step of the forcing
/// chains `mode` on the chain's grid `g` (reduced from `src`), in
/// Explainer's order, without a later step removing the same candidates;
/// each that relies on the chain (its rule parents: the candidates of its
/// "on" potentials' causes that the chain removed, as in [`super::nested`])
/// goes to `out`. Returns whether one did.
fn inner_steps(
    src: &Board,
    g: &Board,
    mode: Mode,
    sc: &mut Scratch,
    out: &mut super::nested::Scratch,
) -> bool {
    out.begin();
    sc.timed_out = false;
    let mut collect = std::mem::take(&mut sc.collect);
    collect.reset();
    let mut best = Best {
        key: None,
        step: None,
        outer: Some(src),
        walk: std::mem::take(&mut sc.walk),
        collect,
    };
    search(g, mode, sc, &mut best, None);
    sc.walk = best.walk;
    let mut col = best.collect;
    if !sc.timed_out {
        let mut order = std::mem::take(&mut col.order);
        order.clear();
        order.extend(0..col.entries.len() as u32);
        let es = &col.entries;
        order.sort_by(|&x, &y| {
            let (a, b) = (&es[x as usize], &es[y as usize]);
            if a.key.less(&b.key) {
                std::cmp::Ordering::Less
            } else if b.key.less(&a.key) {
                std::cmp::Ordering::Greater
            } else {
                a.seq.cmp(&b.seq)
            }
        });
        for &i in &order {
            let e = es[i as usize];
            if e.parents.0 == e.parents.1 {
                continue;
            }
            out.add_step(
                &col.sigs[e.sig.0 as usize..e.sig.1 as usize],
                e.key.complexity,
                &col.parents[e.parents.0 as usize..e.parents.1 as usize],
                e.cell as usize,
                e.mask,
            );
        }
        col.order = order;
    }
    sc.collect = col;
    out.has_found()
}

/// Explainer's search for `mode` on `b`: every step offered to `best`.
fn search(
    b: &Board,
    mode: Mode,
    sc: &mut Scratch,
    best: &mut Best,
    shared: Option<&super::chains::Pairs>,
) {
    if mode.cycles() {
        sc.nested.clear_ids();
    }
    if sc.slots.len() != 729 {
        sc.slots = (0..729).map(|_| None).collect();
        sc.reach = vec![Reach::default(); 729];
        sc.reach_at = vec![0; 729];
    }
    // The solution only for a top-level search (an inner search collects
    // every step; its grids, reduced by an assumption, often have none).
    // (Multiple forcing chains have no contradiction steps: no need.)
    if best.outer.is_none() && mode.dynamic() {
        sc.truth.update(b);
    } else {
        sc.truth.clear();
    }
    // (the chains with techniques inside go the full way: a closure
    // asking the same techniques at each of its fixed points would be
    // exact, but it must run the inner searches too, and a chain a step
    // is offered from would run them again through `chain`; they are most
    // of the cost there: BENCHMARKS.md, thirteenth pass)
    let lean = matches!(mode, Mode::Nishio | Mode::Multiple | Mode::Dynamic);
    // Multiple forcing chains' links are the board's own (static), so
    // what each candidate "on" implies is a closure of one implication
    // graph: all of them are found at once ([`super::chains::Pairs`]),
    // for less than the searches from each start would cost.
    let shared = shared.filter(|_| mode == Mode::Multiple);
    if mode == Mode::Multiple && shared.is_none() {
        sc.links.build(b);
        sc.pairs.build(b, &sc.links);
    }
    let own = std::mem::take(&mut sc.pairs);
    let implied = (mode == Mode::Multiple).then(|| shared.unwrap_or(&own));
    // Nishio's chains have X-links only: a chain reads only its digit's
    // places (its links and their hidden parents), so whether a start of
    // a digit meets a contradiction depends on those places alone. A digit
    // whose places are those of a board where none of its starts met one
    // (every place a start: no cell of one candidate) has none now; its
    // starts are left out (Nishio offers contradictions only).
    let nishio = mode == Mode::Nishio;
    let (mut skip, mut met) = (0u16, 0u16);
    if nishio {
        for d in 1..=9u8 {
            if sc.nishio_none[d as usize - 1] == Some(b.cells_of(d)) {
                skip |= bit(d);
            }
        }
    }
    let mut memo = Memo {
        sc: &mut *sc,
        lean,
        implied,
    };
    for cell in 0..81 {
        let n = b.cand[cell].count_ones();
        if b.value[cell] != 0 || n < 2 || (n < 3 && !mode.dynamic()) {
            continue;
        }
        if memo.sc.timed_out || memo.sc.deadline.is_some_and(|d| Instant::now() >= d) {
            memo.sc.timed_out = true;
            break;
        }
        let mut values = b.cand[cell] & !skip;
        while values != 0 {
            let d = values.trailing_zeros() as u8 + 1;
            values &= values - 1;
            let c = cand(cell, d);
            // With the board's unique solution known, a chain from the
            // solution's candidate "on" or from another candidate "off"
            // never meets a contradiction (every link is sound): Nishio
            // (contradictions only) leaves out the first, and every mode
            // the second unless it is needed for a double implication.
            let need_on = mode != Mode::Nishio || memo.sc.truth.may_force(cell, d, true);
            let need_off = mode.dynamic()
                && (memo.sc.truth.may_force(cell, d, false) || (mode.full_dynamic() && n >= 3));
            if need_on {
                if !memo.lean {
                    memo.get(b, c, mode);
                } else if mode.dynamic() {
                    // (its nodes if it meets a contradiction)
                    memo.reach(b, c, mode);
                }
            }
            // The chain from `c` "off" when a step may be offered from it,
            // and whether its double implications are (then the chain
            // from `c` "on" has its nodes too).
            let off = if need_off {
                off_chain(b, c, mode, n >= 3, &mut memo)
            } else {
                None
            };
            if nishio && memo.sc.reach_at[c as usize] == 2 {
                met |= bit(d);
            }
            if mode.dynamic() {
                // Contradictions (sort key 7).
                let name = mode.name(0);
                if need_on
                    && let Some(on) = memo.sc.slots[c as usize].as_deref()
                    && let Some((a, z)) = on.absurd
                {
                    best.offer(
                        b,
                        mode,
                        name,
                        7,
                        &[(on, a), (on, z)],
                        (c, false),
                        false,
                        CAUSE_NONE,
                    );
                }
                if let Some((off, _)) = &off
                    && let Some((a, z)) = off.absurd
                {
                    best.offer(
                        b,
                        mode,
                        name,
                        7,
                        &[(off, a), (off, z)],
                        (c, true),
                        true,
                        CAUSE_NONE,
                    );
                }
                // Double implications (sort key 1), cells of 3+ candidates.
                if let Some((off, true)) = &off {
                    let on = memo.outcome(c);
                    // what both branches make true, then what both make false
                    for (order, on_ver, off_ver, value) in [
                        (&on.on_order, &on.on_ver, &off.on_ver, true),
                        (&on.off_order, &on.off_ver, &off.off_ver, false),
                    ] {
                        for &q in order {
                            let f = off_ver[q as usize];
                            if f != NONE {
                                let a = on_ver[q as usize];
                                best.offer(
                                    b,
                                    mode,
                                    mode.name(1),
                                    1,
                                    &[(on, a), (off, f)],
                                    (q, value),
                                    value,
                                    CAUSE_NONE,
                                );
                            }
                        }
                    }
                }
            }
            if let Some((off, _)) = off {
                memo.sc.pool.push(off);
            }
            if mode != Mode::Nishio {
                regions(b, cell, d, mode, &mut memo, best);
            }
        }
        if mode != Mode::Nishio {
            cell_chains(b, cell, mode, &mut memo, best);
        }
    }
    // Every outcome back to the pool for the next search.
    for slot in memo.sc.slots.iter_mut() {
        if let Some(o) = slot.take() {
            memo.sc.pool.push(o);
        }
    }
    for &c in &memo.sc.reached {
        memo.sc.reach_at[c as usize] = 0;
    }
    memo.sc.reached.clear();
    sc.pairs = own;
    if nishio && !sc.timed_out {
        let single = (0..81).fold(0u128, |m, c| {
            let k = b.cand[c];
            if k != 0 && k & (k - 1) == 0 {
                m | 1 << c
            } else {
                m
            }
        });
        for d in 1..=9u8 {
            let cells = b.cells_of(d);
            if skip & bit(d) == 0 {
                sc.nishio_none[d as usize - 1] =
                    (met & bit(d) == 0 && cells & single == 0).then_some(cells);
            }
        }
    }
}

/// The chain from `c` "off" (in a cell of `three` or more candidates or
/// not) if a step may be offered from it, and whether its double
/// implications are to be offered (dynamic modes, cells of three or
/// more candidates); with `memo.lean`, only when it meets a contradiction
/// or reaches a potential the chain from `c` "on" reaches too (then both
/// have their nodes).
fn off_chain(
    b: &Board,
    c: u16,
    mode: Mode,
    three: bool,
    memo: &mut Memo,
) -> Option<(Box<Outcome>, bool)> {
    let double = mode.full_dynamic() && three;
    if !memo.lean {
        return Some((chain(b, c, false, mode, memo.sc), double));
    }
    let (reach, full) = match closure(b, c, false, mode, &mut memo.sc.stack) {
        Some(r) => (r, None),
        None => {
            let o = chain(b, c, false, mode, memo.sc);
            (Reach::of(&o), Some(o))
        }
    };
    let double = double && meet(memo.reach(b, c, mode), &reach);
    if double {
        memo.get(b, c, mode);
    }
    match full {
        Some(o) => Some((o, double)),
        None if double => Some((chain(b, c, false, mode, memo.sc), true)),
        None => None,
    }
}

/// Multiple forcing chains: whether every candidate of `cands` "on"
/// implies some common potential, from the closures of `pairs` (built for
/// the board); `None` if one of them meets a contradiction (then its
/// chain stops at its first, which the closures do not know: see
/// [`closure`]). The same answer as [`Memo::all_meet`] over [`closure`]'s
/// potentials: a static chain that meets no contradiction reaches the
/// closure of its start in the graph of the board's links, which are
/// those of [`super::chains::Fast`] with Y-links.
fn all_implied(pairs: &super::chains::Pairs, cands: &[u16]) -> Option<bool> {
    let w = 2 * pairs.words();
    let mut common = [!0u64; 24];
    for &c in cands {
        for (a, &r) in common.iter_mut().zip(pairs.implied(c)?) {
            *a &= r;
        }
    }
    Some(common[..w].iter().any(|&a| a != 0))
}

/// Region forcing chains for digit `d` of `cell` (sort key 6).
fn regions(b: &Board, cell: usize, d: u8, mode: Mode, memo: &mut Memo, best: &mut Best) {
    for k in 0..3 {
        let r = CELL_REGIONS[cell][k] as usize;
        let pos = b.positions(r, d);
        if pos.count_ones() < 2 {
            continue;
        }
        let first = REGION_CELLS[r][pos.trailing_zeros() as usize] as usize;
        if first != cell {
            continue;
        }
        let mut cands = [0u16; 9];
        let mut n = 0;
        for i in 0..9 {
            if pos & (1 << i) != 0 {
                cands[n] = cand(REGION_CELLS[r][i] as usize, d);
                n += 1;
            }
        }
        branches_meet(b, mode, memo, &cands[..n], 2, r as u8, best);
    }
}

/// Cell forcing chains of `cell` (sort key 5).
fn cell_chains(b: &Board, cell: usize, mode: Mode, memo: &mut Memo, best: &mut Best) {
    let mut cands = [0u16; 9];
    let mut n = 0;
    for d in super::board::digits(b.cand[cell]) {
        cands[n] = cand(cell, d);
        n += 1;
    }
    branches_meet(b, mode, memo, &cands[..n], 3, CAUSE_CELL, best);
}

/// The consequences of each branch of a forcing chain (one of `cands` is
/// true), worked out once each through `memo`, and what all of them imply.
/// `kind` 2 region (sort key 6), 3 cell (sort key 5); `root` the roots'
/// cause.
fn branches_meet(
    b: &Board,
    mode: Mode,
    memo: &mut Memo,
    cands: &[u16],
    kind: usize,
    root: u8,
    best: &mut Best,
) {
    if memo.lean {
        let known = memo.implied.and_then(|p| all_implied(p, cands));
        match known {
            Some(false) => return,
            Some(true) => {}
            None => {
                for &c in cands {
                    memo.reach(b, c, mode);
                }
                if !memo.all_meet(cands) {
                    return;
                }
            }
        }
    }
    for &c in cands {
        memo.get(b, c, mode);
    }
    let mut outs: [&Outcome; 9] = [memo.outcome(cands[0]); 9];
    for (k, &c) in cands.iter().enumerate() {
        outs[k] = memo.outcome(c);
    }
    let sort_key = if kind == 2 { 6 } else { 5 };
    let name = mode.name(kind);
    let outs = &outs[..cands.len()];
    // Potentials implied "on" (then "off") by every branch, in the first
    // branch's order.
    let mut chains: [(&Outcome, u32); 9] = [(outs[0], 0); 9];
    for on in [true, false] {
        let order = if on {
            &outs[0].on_order
        } else {
            &outs[0].off_order
        };
        'next: for &q in order {
            for (k, o) in outs.iter().enumerate() {
                let v = if on {
                    o.on_ver[q as usize]
                } else {
                    o.off_ver[q as usize]
                };
                if v == NONE {
                    continue 'next;
                }
                chains[k] = (o, v);
            }
            best.offer(
                b,
                mode,
                name,
                sort_key,
                &chains[..outs.len()],
                (q, on),
                on,
                root,
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rate::se::Profile;
    use crate::rate::se::tests::{apply, path_boards};

    /// Nishio along three hard puzzles' paths (a board before every step
    /// past 6.0, and the same with one candidate removed where it does not
    /// empty a cell): the search that leaves out the digits its memory
    /// knows have no contradiction takes the same step as a fresh one,
    /// and does leave some out.
    #[test]
    fn nishio_digits_left_out_change_no_step() {
        let chains = super::super::chains::Chains::default();
        let mut kept = Scratch::default();
        let (mut boards, mut found, mut skipped) = (0, 0, 0);
        for line in [
            ".24.6.7..5.74.9.1.....7......5.9487147.6.85.3..8..7.6.7......46.46..3.57.5.7461..",
            "8...43..1.31.57..8.721......9351......5....1.18.3..........1.67..7..91..318765924",
            "........8..3...4...9..2..6.....79.......612...6.5.2.7...8...5...1.....2.4.5.....3",
        ] {
            for (s, b) in path_boards(line, Profile::Se) {
                if s.tenths <= 60 {
                    continue;
                }
                let mut other = b.clone();
                if let Some(c) = (0..81).rev().find(|&c| b.cand[c].count_ones() >= 3) {
                    other.eliminate(c, 16 - b.cand[c].leading_zeros() as u8);
                }
                for board in [&b, &other] {
                    boards += 1;
                    skipped += (1..=9u8)
                        .filter(|&d| kept.nishio_none[d as usize - 1] == Some(board.cells_of(d)))
                        .count();
                    let (mut a, mut z) = (SeStep::new(), SeStep::new());
                    let with = find(board, &mut a, Mode::Nishio, &mut kept, &chains);
                    let fresh = find(
                        board,
                        &mut z,
                        Mode::Nishio,
                        &mut Scratch::default(),
                        &chains,
                    );
                    assert_eq!(with, fresh, "{line}");
                    if with {
                        found += 1;
                        assert_eq!(a.prose(), z.prose(), "{line}");
                    }
                }
            }
        }
        assert!(
            boards > 20 && found > 2 && skipped > 20,
            "{boards} {found} {skipped}"
        );
    }

    /// Multiple forcing chains: what [`super::super::chains::Pairs`] says
    /// each candidate "on" implies is [`closure`]'s potentials (or a
    /// contradiction for both), from every candidate of every board of
    /// three hard puzzles' paths past the hidden singles, and on the same
    /// boards with a cell's solution digit removed (contradictions).
    #[test]
    fn implied_closures_are_the_static_chains_potentials() {
        let (mut links, mut pairs) = (
            super::super::chains::Fast::default(),
            super::super::chains::Pairs::default(),
        );
        let mut stack = Vec::new();
        let (mut boards, mut absurd, mut reached) = (0, 0, 0);
        for line in [
            ".24.6.7..5.74.9.1.....7......5.9487147.6.85.3..8..7.6.7......46.46..3.57.5.7461..",
            "8...43..1.31.57..8.721......9351......5....1.18.3..........1.67..7..91..318765924",
            "........8..3...4...9..2..6.....79.......612...6.5.2.7...8...5...1.....2.4.5.....3",
        ] {
            let path = path_boards(line, Profile::Se);
            // The solution: the last step taken on the last board.
            let (last, before) = path.last().expect("a path");
            let mut solution = before.clone();
            apply(&mut solution, last);
            assert!(solution.is_solved(), "{line}");
            for (s, b) in &path {
                if s.tenths <= 15 {
                    continue;
                }
                let mut broken = b.clone();
                if let Some(c) = (0..81).find(|&c| b.cand[c].count_ones() >= 3) {
                    broken.eliminate(c, solution.value[c]);
                }
                for board in [b, &broken] {
                    boards += 1;
                    links.build(board);
                    pairs.build(board, &links);
                    let dense: Vec<u16> = (0..729u16)
                        .filter(|&q| board.has(cell_of(q), digit_of(q)))
                        .collect();
                    for &c in &dense {
                        let want = closure(board, c, true, Mode::Multiple, &mut stack);
                        match (want, pairs.implied(c)) {
                            (None, None) => absurd += 1,
                            (Some(r), Some(words)) => {
                                let w = pairs.words();
                                for (k, &q) in dense.iter().enumerate() {
                                    let (i, at) = (digit_of(q) as usize - 1, cell_of(q));
                                    for (state, set) in [(0, &r.on), (1, &r.off)] {
                                        assert_eq!(
                                            words[state * w + k / 64] >> (k % 64) & 1 != 0,
                                            set[i] >> at & 1 != 0,
                                            "{line} {c} {q} {state}"
                                        );
                                    }
                                }
                                reached += 1;
                            }
                            (w, i) => panic!("{line} {c}: {} {}", w.is_some(), i.is_some()),
                        }
                    }
                }
            }
        }
        assert!(
            boards > 10 && absurd > 100 && reached > 1000,
            "{boards} {absurd} {reached}"
        );
    }

    /// [`closure`] reaches what [`chain`] does (the same potentials "on"
    /// and "off", or a contradiction for both), from every candidate in
    /// both states and in the three modes it serves, on every board of
    /// three hard puzzles' paths from the first step past the hidden
    /// singles on.
    #[test]
    fn closure_reaches_what_the_chain_does() {
        let mut sc = Scratch::default();
        let mut stack = Vec::new();
        let (mut boards, mut absurd, mut reached) = (0, 0, 0);
        for line in [
            ".24.6.7..5.74.9.1.....7......5.9487147.6.85.3..8..7.6.7......46.46..3.57.5.7461..",
            "8...43..1.31.57..8.721......9351......5....1.18.3..........1.67..7..91..318765924",
            ".1..6..3.2.......5..4...8..12..8..54..3...9..4.......77..2.4..8...8.6.....6.5.1..",
        ] {
            for (s, mut b) in path_boards(line, Profile::Se) {
                if s.tenths <= 15 {
                    continue;
                }
                boards += 1;
                b.settle();
                for c in 0..729u16 {
                    if !b.has(cell_of(c), digit_of(c)) {
                        continue;
                    }
                    for on in [true, false] {
                        for mode in [Mode::Nishio, Mode::Multiple, Mode::Dynamic] {
                            let full = chain(&b, c, on, mode, &mut sc);
                            match closure(&b, c, on, mode, &mut stack) {
                                None => {
                                    assert!(full.absurd.is_some(), "{line} {c} {on} {mode:?}");
                                    absurd += 1;
                                }
                                Some(r) => {
                                    assert!(full.absurd.is_none(), "{line} {c} {on} {mode:?}");
                                    let f = Reach::of(&full);
                                    assert!(
                                        r.on == f.on && r.off == f.off,
                                        "{line} {c} {on} {mode:?}"
                                    );
                                    reached += 1;
                                }
                            }
                            sc.pool.push(full);
                        }
                    }
                }
            }
        }
        // (both outcomes are met, many times)
        assert!(
            boards > 10 && absurd > 1000 && reached > 1000,
            "{boards} {absurd} {reached}"
        );
    }
}
