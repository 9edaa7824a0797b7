//! Explainer's forcing chains from one assumption in both states: Nishio
//! forcing chains (7.5), multiple forcing chains (cell and region forcing
//! chains, 8.0), dynamic forcing chains (contradiction, double, cell and
//! region, 8.5) and dynamic forcing chains (+) (the same with the basic
//! techniques of [`super::dynamic_plus`] inside the chains, 9.0) and the
//! first level of nested forcing chains ("+ Forcing Chains": the same, then
//! the forcing chains and cycles of [`super::nested`], 9.5), each plus the
//! chain-length penalty of [`super::chains`] (for the nested level, of the
//! complexity with each distinct inner chain's added once).
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
//! them for every region).

use super::SeStep;
use super::board::{Board, CELL_POS, CELL_REGIONS, REGION_CELLS, bit};
use super::chains::{Key, cand, cell_of, digit_of, length_penalty, on_to_off};

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
        }
    }

    /// Dynamic chains beyond Nishio's (double, cell and region steps).
    fn full_dynamic(self) -> bool {
        matches!(self, Mode::Dynamic | Mode::DynamicPlus | Mode::Nested)
    }

    /// The basic techniques inside the chains (Explainer's levels 1 and up).
    fn plus(self) -> bool {
        matches!(self, Mode::DynamicPlus | Mode::Nested)
    }
}

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
        self.nodes.push(Node {
            cand,
            on,
            parent,
            start: self.hidden.len() as u32,
            len: 0,
            nested: NONE,
            nested_cx: 0,
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
    pend_on: std::collections::VecDeque<u32>,
    pend_off: std::collections::VecDeque<u32>,
    buf: Vec<u16>,
    hb: Vec<u32>,
    plus: super::dynamic_plus::Scratch,
    nested: super::nested::Scratch,
}

impl Scratch {
    /// An empty outcome, from the pool when one is free.
    fn outcome(&mut self) -> Box<Outcome> {
        let mut o = self.pool.pop().unwrap_or_default();
        o.reset();
        o
    }
}

/// Explainer's `doChaining` from one potential, into `o` (emptied first).
fn chain(src: &Board, start: u16, on: bool, mode: Mode, sc: &mut Scratch) -> Box<Outcome> {
    let y = mode != Mode::Nishio;
    let dynamic = mode.dynamic();
    let mut g = src.clone();
    let mut o = sc.outcome();
    let root = o.node(start, on, NONE);
    let pend_on = &mut sc.pend_on;
    let pend_off = &mut sc.pend_off;
    pend_on.clear();
    pend_off.clear();
    if on {
        o.on_ver[start as usize] = root;
        o.on_order.push(start);
        pend_on.push_back(root);
    } else {
        o.off_ver[start as usize] = root;
        o.off_order.push(start);
        pend_off.push_back(root);
    }
    let buf = &mut sc.buf;
    let hb = &mut sc.hb;
    loop {
        if let Some(p) = pend_on.pop_front() {
            let c = o.nodes[p as usize].cand;
            on_to_off(&g, c, y, buf);
            for &q in buf.iter() {
                if o.on_ver[q as usize] != NONE {
                    let n = o.node(q, false, p);
                    o.absurd = Some((o.on_ver[q as usize], n));
                    return o;
                }
                if o.off_ver[q as usize] == NONE {
                    let n = o.node(q, false, p);
                    o.off_ver[q as usize] = n;
                    o.off_order.push(q);
                    pend_off.push_back(n);
                }
            }
            continue;
        }
        let Some(p) = pend_off.pop_front() else {
            // Dynamic (+): once nothing is pending, the basic techniques
            // may remove more on the reduced grid (Explainer's
            // `getAdvancedPotentials`).
            // (the basic techniques read the scan words: bring them up to
            // date with the chain's eliminations first)
            if mode.plus() && {
                g.settle();
                super::dynamic_plus::advanced(src, &g, &mut sc.plus)
            } {
                let before = pend_off.len();
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
                    pend_off.push_back(n);
                }
                if pend_off.len() > before {
                    continue;
                }
            } else if mode == Mode::Nested && super::nested::find(src, &g, &mut sc.nested) {
                // Then "Forcing Chains & Cycles" on the reduced grid
                // (Explainer asks it only when the basic techniques find
                // nothing).
                let before = pend_off.len();
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
                    pend_off.push_back(n);
                }
                if pend_off.len() > before {
                    continue;
                }
            }
            break;
        };
        let c = o.nodes[p as usize].cand;
        let (cell, d) = (cell_of(c), digit_of(c));
        // Off → on, with the hidden parents of each link (candidates the
        // search removed that the link relies on).
        // Up to four links (the cell's other digit, one per region), each
        // with its hidden parents in `hb[start..end]`.
        let mut found = [(0u16, 0usize, 0usize); 4];
        let mut nf = 0;
        hb.clear();
        if y && g.cand[cell].count_ones() == 2 {
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
            found[nf] = (cand(cell, other), start, hb.len());
            nf += 1;
        }
        for k in 0..3 {
            let r = CELL_REGIONS[cell][k] as usize;
            let pos = g.positions(r, d) & !(1 << CELL_POS[cell][k]);
            if pos.count_ones() != 1 {
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
            found[nf] = (to, start, hb.len());
            nf += 1;
        }
        if dynamic {
            g.eliminate(cell, d);
        }
        for &(q, h0, h1) in &found[..nf] {
            let hidden = &hb[h0..h1];
            let known_off = o.off_ver[q as usize];
            if known_off == NONE && o.on_ver[q as usize] != NONE {
                continue;
            }
            let n = o.node(q, true, p);
            debug_assert!(hidden.iter().all(|&h| h != NONE), "hidden parent not found");
            o.nodes[n as usize].len = hidden.len() as u16;
            o.hidden.extend_from_slice(hidden);
            if known_off != NONE {
                o.absurd = Some((n, known_off));
                return o;
            }
            o.on_ver[q as usize] = n;
            o.on_order.push(q);
            pend_on.push_back(n);
        }
    }
    o
}

/// Distinct potentials among the ancestors of `n` (itself included),
/// following every parent. `seen` marks potentials with the stamp `mark`
/// (a fresh stamp per call, so nothing needs clearing).
fn ancestors(
    o: &Outcome,
    n: u32,
    seen: &mut Vec<u32>,
    mark: &mut u32,
    stack: &mut Vec<u32>,
    nested: &mut Vec<(u32, u32)>,
) -> u32 {
    if seen.len() != 1458 || *mark == u32::MAX {
        seen.clear();
        seen.resize(1458, 0);
        *mark = 0;
    }
    *mark += 1;
    let m = *mark;
    stack.clear();
    stack.push(n);
    let mut count = 0;
    while let Some(x) = stack.pop() {
        let node = o.nodes[x as usize];
        let key = node.cand as usize * 2 + node.on as usize;
        if seen[key] == m {
            continue;
        }
        seen[key] = m;
        count += 1;
        if node.nested != NONE {
            nested.push((node.nested, node.nested_cx));
        }
        if node.parent != NONE {
            stack.push(node.parent);
        }
        let s = node.start as usize;
        stack.extend_from_slice(&o.hidden[s..s + node.len as usize]);
    }
    count
}

/// The best step so far, by Explainer's order.
struct Best<'a> {
    key: Option<Key>,
    step: &'a mut SeStep,
    seen: Vec<u32>,
    mark: u32,
    stack: Vec<u32>,
    nested: Vec<(u32, u32)>,
}

impl Best<'_> {
    /// Offer a step: `chains` are the (outcome, node) ends whose ancestors
    /// make the complexity; `target` the concluded potential; `sort_key`
    /// Explainer's.
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
    ) {
        let (c, d) = (cell_of(target.0), digit_of(target.0));
        // Worth it only if it removes something.
        if target.1 && b.cand[c] & !bit(d) == 0 {
            return;
        }
        self.nested.clear();
        let mut complexity: u32 = chains
            .iter()
            .map(|&(o, n)| {
                ancestors(
                    o,
                    n,
                    &mut self.seen,
                    &mut self.mark,
                    &mut self.stack,
                    &mut self.nested,
                )
            })
            .sum();
        // Each distinct inner chain once (Explainer's
        // `getNestedComplexity`).
        if !self.nested.is_empty() {
            self.nested.sort_unstable();
            self.nested.dedup_by_key(|e| e.0);
            complexity += self.nested.iter().map(|e| e.1).sum::<u32>();
        }
        let key = Key {
            difficulty: mode.base() + length_penalty(complexity),
            complexity,
            sort_key,
        };
        if self.key.is_some_and(|k| !key.less(&k)) {
            return;
        }
        self.key = Some(key);
        let step = &mut *self.step;
        step.clear();
        step.set(name, key.tenths());
        if target.1 {
            let mut m = b.cand[c] & !bit(d);
            while m != 0 {
                let x = m.trailing_zeros() as u8 + 1;
                m &= m - 1;
                step.remove(c, x);
            }
        } else {
            step.remove(c, d);
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
struct Memo<'a> {
    sc: &'a mut Scratch,
}

impl Memo<'_> {
    fn get(&mut self, b: &Board, c: u16, mode: Mode) {
        if self.sc.slots[c as usize].is_none() {
            let o = chain(b, c, true, mode, self.sc);
            self.sc.slots[c as usize] = Some(o);
        }
    }

    fn outcome(&self, c: u16) -> &Outcome {
        self.sc.slots[c as usize]
            .as_deref()
            .expect("computed above")
    }
}

/// The step Explainer's Nishio, multiple or dynamic forcing chains entry
/// takes, if any.
#[inline(never)]
pub(super) fn find(b: &Board, step: &mut SeStep, mode: Mode, sc: &mut Scratch) -> bool {
    let mut best = Best {
        key: None,
        step,
        seen: Vec::new(),
        mark: 0,
        stack: Vec::new(),
        nested: Vec::new(),
    };
    if mode == Mode::Nested {
        sc.nested.clear_ids();
    }
    if sc.slots.len() != 729 {
        sc.slots = (0..729).map(|_| None).collect();
    }
    let mut memo = Memo { sc };
    for cell in 0..81 {
        let n = b.cand[cell].count_ones();
        if b.value[cell] != 0 || n < 2 || (n < 3 && !mode.dynamic()) {
            continue;
        }
        let mut values = b.cand[cell];
        while values != 0 {
            let d = values.trailing_zeros() as u8 + 1;
            values &= values - 1;
            let c = cand(cell, d);
            memo.get(b, c, mode);
            let off = (mode.dynamic()).then(|| chain(b, c, false, mode, memo.sc));
            let on = memo.outcome(c);
            if let Some(off) = &off {
                // Contradictions (sort key 7).
                let name: &'static str = match mode {
                    Mode::Nishio => "Nishio Forcing Chains",
                    Mode::DynamicPlus => "Dynamic Contradiction Forcing Chains (+)",
                    Mode::Nested => "Dynamic Contradiction Forcing Chains (+ Forcing Chains)",
                    _ => "Dynamic Contradiction Forcing Chains",
                };
                if let Some((a, z)) = on.absurd {
                    best.offer(b, mode, name, 7, &[(on, a), (on, z)], (c, false), false);
                }
                if let Some((a, z)) = off.absurd {
                    best.offer(b, mode, name, 7, &[(off, a), (off, z)], (c, true), true);
                }
                // Double implications (sort key 1), cells of 3+ candidates.
                if mode.full_dynamic() && n >= 3 {
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
                                    match mode {
                                        Mode::DynamicPlus => "Dynamic Double Forcing Chains (+)",
                                        Mode::Nested => {
                                            "Dynamic Double Forcing Chains (+ Forcing Chains)"
                                        }
                                        _ => "Dynamic Double Forcing Chains",
                                    },
                                    1,
                                    &[(on, a), (off, f)],
                                    (q, value),
                                    value,
                                );
                            }
                        }
                    }
                }
            }
            if let Some(off) = off {
                memo.sc.pool.push(off);
            }
            if mode != Mode::Nishio {
                regions(b, cell, d, mode, &mut memo, &mut best);
            }
        }
        if mode != Mode::Nishio {
            cell_chains(b, cell, mode, &mut memo, &mut best);
        }
    }
    // Every outcome back to the pool for the next search.
    for slot in memo.sc.slots.iter_mut() {
        if let Some(o) = slot.take() {
            memo.sc.pool.push(o);
        }
    }
    best.key.is_some()
}

fn region_name(mode: Mode) -> &'static str {
    match mode {
        Mode::Dynamic => "Dynamic Region Forcing Chains",
        Mode::DynamicPlus => "Dynamic Region Forcing Chains (+)",
        Mode::Nested => "Dynamic Region Forcing Chains (+ Forcing Chains)",
        _ => "Region Forcing Chains",
    }
}

fn cell_name(mode: Mode) -> &'static str {
    match mode {
        Mode::Dynamic => "Dynamic Cell Forcing Chains",
        Mode::DynamicPlus => "Dynamic Cell Forcing Chains (+)",
        Mode::Nested => "Dynamic Cell Forcing Chains (+ Forcing Chains)",
        _ => "Cell Forcing Chains",
    }
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
        branches_meet(b, mode, memo, &cands[..n], region_name(mode), 6, best);
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
    branches_meet(b, mode, memo, &cands[..n], cell_name(mode), 5, best);
}

/// The consequences of each branch of a forcing chain (one of `cands` is
/// true), worked out once each through `memo`, and what all of them imply.
fn branches_meet(
    b: &Board,
    mode: Mode,
    memo: &mut Memo,
    cands: &[u16],
    name: &'static str,
    sort_key: u8,
    best: &mut Best,
) {
    for &c in cands {
        memo.get(b, c, mode);
    }
    let mut outs: [&Outcome; 9] = [memo.outcome(cands[0]); 9];
    for (k, &c) in cands.iter().enumerate() {
        outs[k] = memo.outcome(c);
    }
    intersect(b, mode, &outs[..cands.len()], name, sort_key, best);
}

/// Potentials implied "on" (then "off") by every branch, in the first
/// branch's order.
fn intersect(
    b: &Board,
    mode: Mode,
    outs: &[&Outcome],
    name: &'static str,
    sort_key: u8,
    best: &mut Best,
) {
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
            best.offer(b, mode, name, sort_key, &chains[..outs.len()], (q, on), on);
        }
    }
}
