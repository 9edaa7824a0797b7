//! The first level of Explainer's nested forcing chains, "+ Forcing
//! Chains" (9.5): dynamic forcing chains whose consequences, once the
//! basic techniques of [`super::dynamic_plus`] find nothing more, are
//! extended by the "Forcing Chains & Cycles" search of [`super::chains`]
//! run on the grid the chain has reduced. The deeper levels ("+ Multiple
//! Forcing Chains", "+ Dynamic Forcing Chains") run the forcing-chain
//! searches of [`super::forcing`] inside instead (there), with the same
//! rules; their steps are recorded here too ([`Scratch::add_step`]).
//!
//! The rules, from Sudoku Explainer's `Chaining.getAdvancedPotentials`,
//! `ChainingHint.collectRuleParents` and `getNestedComplexity` (LGPL;
//! SukakuExplainer keeps them; the code here is ours):
//!
//! - The inner search yields every step it finds, in its sorted order
//!   ([`super::chains::all_steps`]).
//! - A step counts only if its chains rely on candidates the outer chain
//!   removed (its "rule parents"): walking each of the step's chains, every
//!   "on" potential that follows from a naked single gives the cell's
//!   removed candidates, one that follows from a hidden single gives the
//!   digit's removed places in that region (the first of block, row and
//!   column where the link holds). A cycle's chains are its potentials and
//!   the same reversed, where "off" potentials become "on" with the cause
//!   of their link (the cell for a Y-link, else the first of block, row
//!   and column holding both cells). The roots count nothing.
//! - Every candidate the step removes becomes an "off" consequence whose
//!   parents are the rule parents, in the order of Explainer's `HashMap`
//!   keyed by cell, digits ascending; a candidate already off is kept with
//!   its first parents.
//! - The outer step's complexity adds, once per distinct inner chain among
//!   its potentials' ancestors (the same potentials in the same order), the
//!   inner step's complexity.

use super::board::{Board, CELL_REGIONS, REGION_CELLS, bit, digits, in_region};
use super::chains::{AllSteps, Chains, Truth, all_steps, cand, cell_of, digit_of};

/// What [`find`] found, and scratch space.
#[derive(Default)]
pub(super) struct Scratch {
    chains: Chains,
    steps: AllSteps,
    /// (candidate removed, parents `parents[start..end]`, inner chain).
    found: Vec<(u16, u32, u32, u32)>,
    parents: Vec<u16>,
    /// Rule parents of one step, de-duplicated.
    mark: Vec<bool>,
    /// Distinct inner chains: their potentials, and an id each.
    ids: std::collections::HashMap<Vec<u32>, u32>,
    /// Each inner chain's complexity, by id.
    complexity: Vec<u32>,
    sig: Vec<u32>,
}

impl Scratch {
    /// Forget the inner chains' ids (a new outer search).
    pub(super) fn clear_ids(&mut self) {
        self.ids.clear();
        self.complexity.clear();
    }

    /// The complexity of inner chain `id`.
    pub(super) fn complexity(&self, id: u32) -> u32 {
        self.complexity[id as usize]
    }

    /// Start collecting the steps of a new inner search.
    pub(super) fn begin(&mut self) {
        self.found.clear();
        self.parents.clear();
    }

    /// Whether the last inner search found a step relying on the chain.
    pub(super) fn has_found(&self) -> bool {
        !self.found.is_empty()
    }

    /// Record a step of an inner forcing-chain search (levels 3 and 4): its
    /// chains' identity `sig`, its complexity, its rule parents and the
    /// digits `mask` it removes from `cell`.
    pub(super) fn add_step(
        &mut self,
        sig: &[u32],
        complexity: u32,
        parents: &[u16],
        cell: usize,
        mask: u16,
    ) {
        let next = self.complexity.len() as u32;
        // a key is allocated only for an inner chain not met before
        let id = match self.ids.get(sig) {
            Some(&id) => id,
            None => {
                self.ids.insert(sig.to_vec(), next);
                self.complexity.push(complexity);
                next
            }
        };
        let s0 = self.parents.len() as u32;
        self.parents.extend_from_slice(parents);
        let e0 = self.parents.len() as u32;
        for d in digits(mask) {
            self.found.push((cand(cell, d), s0, e0, id));
        }
    }

    /// The candidates to turn off, each with its rule parents (candidates
    /// the chain removed) and its inner chain's id.
    pub(super) fn found(&self) -> impl Iterator<Item = (u16, &[u16], u32)> {
        self.found
            .iter()
            .map(|&(q, s, e, id)| (q, &self.parents[s as usize..e as usize], id))
    }
}

/// Run "Forcing Chains & Cycles" on the chain's grid `g` (reduced from
/// `src`; `truth`: what is known of `src`'s solution, see
/// [`Truth::fits`]). Returns whether some step relies on the chain (then
/// its removals are in `sc.found()`).
pub(super) fn find(src: &Board, g: &Board, truth: &Truth, sc: &mut Scratch) -> bool {
    sc.found.clear();
    sc.parents.clear();
    if sc.mark.len() != 729 {
        sc.mark = vec![false; 729];
    }
    // The outer board's solution, if `g` still holds it.
    let truth = Some(truth).filter(|t| t.fits(g));
    all_steps(g, truth, &mut sc.chains, &mut sc.steps);
    for i in 0..sc.steps.list.len() {
        let s = sc.steps.list[i];
        let nodes = &sc.steps.nodes[s.nodes.0 as usize..s.nodes.1 as usize];
        let mark = sc.parents.len();
        // The chains' potentials, end first; the root (last) has no cause.
        let walk = nodes.len() - 1;
        for k in 0..walk {
            let (q, on) = nodes[k];
            let parent = nodes[k + 1].0;
            if on {
                rule_parents(src, g, q, parent, true, &mut sc.parents, &mut sc.mark);
            } else if s.cycle {
                // The reversed cycle: this "off" potential turned "on".
                rule_parents(src, g, q, parent, false, &mut sc.parents, &mut sc.mark);
            }
        }
        for &p in &sc.parents[mark..] {
            sc.mark[p as usize] = false;
        }
        if sc.parents.len() == mark {
            continue;
        }
        // The inner chain's identity: its kind and potentials.
        sc.sig.clear();
        sc.sig.push(s.cycle as u32);
        sc.sig
            .extend(nodes.iter().map(|&(q, on)| q as u32 * 2 + on as u32));
        let next = sc.complexity.len() as u32;
        // a key is allocated only for an inner chain not met before
        let id = match sc.ids.get(sc.sig.as_slice()) {
            Some(&id) => id,
            None => {
                sc.ids.insert(sc.sig.clone(), next);
                sc.complexity.push(s.key.complexity);
                next
            }
        };
        let (s0, e0) = (mark as u32, sc.parents.len() as u32);
        for &(c, m) in &sc.steps.removals[s.removals.0 as usize..s.removals.1 as usize] {
            for d in digits(m) {
                sc.found.push((cand(c as usize, d), s0, e0, id));
            }
        }
    }
    !sc.found.is_empty()
}

/// The rule parents of potential `q` reached from `parent` (a link of the
/// inner chain): for a naked single the cell's candidates the outer chain
/// removed, for a hidden single the digit's removed places in the link's
/// region. `on_link` says which way the link goes: off → on (`q` "on"),
/// or on → off (an "off" potential of a cycle, read reversed).
fn rule_parents(
    src: &Board,
    g: &Board,
    q: u16,
    parent: u16,
    on_link: bool,
    out: &mut Vec<u16>,
    mark: &mut [bool],
) {
    let (cell, d) = (cell_of(q), digit_of(q));
    let from = cell_of(parent);
    let mut push = |c: u16, out: &mut Vec<u16>| {
        if !mark[c as usize] {
            mark[c as usize] = true;
            out.push(c);
        }
    };
    if from == cell {
        for x in digits(src.cand[cell] & !g.cand[cell]) {
            push(cand(cell, x), out);
        }
        return;
    }
    // The first of block, row, column of the parent's cell holding this
    // cell (off → on: where the digit has just these two places).
    let Some(r) = CELL_REGIONS[from]
        .iter()
        .map(|&r| r as usize)
        .find(|&r| in_region(cell, r) && (!on_link || g.positions(r, d).count_ones() == 2))
    else {
        return;
    };
    for (i, &c) in REGION_CELLS[r].iter().enumerate() {
        let c = c as usize;
        if src.positions(r, d) & (1 << i) != 0 && g.cand[c] & bit(d) == 0 {
            push(cand(c, d), out);
        }
    }
}
