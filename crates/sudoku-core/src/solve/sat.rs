//! A small incremental CDCL SAT solver, and the Sudoku rules as a formula
//! for it: the generator's hard uniqueness checks on large grids.
//!
//! Every check of the generator's removal pass asks the *same* formula (the
//! grid's rules) a different question: is there a solution with these clues
//! and another digit in this cell? An incremental solver answers each
//! question under *assumptions* (the clues as true literals, plus "the cell
//! is not its grid digit") and keeps what it learned from one question to
//! the next: a learned clause follows from the rules alone (the assumptions
//! enter the search as decisions, never as clauses), so it stays valid for
//! every later check.
//!
//! The algorithms are the published ones (no solver's code was used):
//!
//! - conflict-driven clause learning with the first unique implication point
//!   (1UIP) and non-chronological backjumping: Marques-Silva & Sakallah,
//!   "GRASP: A search algorithm for propositional satisfiability" (IEEE
//!   Trans. Computers, 1999); Zhang, Madigan, Moskewicz & Malik, "Efficient
//!   conflict driven learning in a Boolean satisfiability solver" (ICCAD
//!   2001);
//! - two watched literals per clause and VSIDS branching (variable activities
//!   bumped in conflicts, decayed geometrically): Moskewicz, Madigan, Zhao,
//!   Zhang & Malik, "Chaff: engineering an efficient SAT solver" (DAC 2001);
//! - solving under assumptions, incrementally, with the assumptions as the
//!   first decisions (here all on one level), and learned-clause minimisation by the reasons of its
//!   literals: Eén & Sörensson, "An extensible SAT-solver" (SAT 2003) and
//!   "MiniSat v1.13" (2005);
//! - restarts on the Luby sequence: Luby, Sinclair & Zuckerman, "Optimal
//!   speedup of Las Vegas algorithms" (1993); phase saving: Pipatsrisawat &
//!   Darwiche, "A lightweight component caching scheme for satisfiability
//!   solvers" (SAT 2007); learned clauses ranked by their literal block
//!   distance (LBD, "glue"): Audemard & Simon, "Predicting learnt clauses
//!   quality in modern SAT solvers" (IJCAI 2009).
//!
//! At-most-one constraints are native (a true variable makes every other
//! member of its groups false; the reason of each is the binary clause
//! `¬x ∨ ¬y`), so the Sudoku rules need no quadratic clause list: 25×25's
//! 750,000 binary clauses are 2,500 groups of 25.
//!
//! Wasm-safe: no threads, time only through `crate::time::Instant` (via
//! [`Limits::poll`]).

use crate::grid::{Grid, Size};
use crate::solve::{Limits, StopReason};

/// A variable: 0, 1, 2, ...
pub type Var = u32;

/// A literal: a variable or its negation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Lit(u32);

impl Lit {
    /// The variable, true.
    pub fn pos(v: Var) -> Lit {
        Lit(v << 1)
    }
    /// The variable, false.
    pub fn neg(v: Var) -> Lit {
        Lit((v << 1) | 1)
    }
    /// The variable with this truth value.
    pub fn new(v: Var, value: bool) -> Lit {
        if value { Lit::pos(v) } else { Lit::neg(v) }
    }
    /// Its variable.
    pub fn var(self) -> Var {
        self.0 >> 1
    }
    /// Whether it is the negation of its variable.
    pub fn is_neg(self) -> bool {
        self.0 & 1 == 1
    }
    fn index(self) -> usize {
        self.0 as usize
    }
}

impl std::ops::Not for Lit {
    type Output = Lit;
    fn not(self) -> Lit {
        Lit(self.0 ^ 1)
    }
}

/// The answer of [`Cdcl::solve`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SatResult {
    /// A model satisfies the formula and the assumptions ([`Cdcl::model`]).
    Sat,
    /// No model satisfies the formula and the assumptions together.
    Unsat,
    /// A limit stopped the search first (node budget, deadline, cancel).
    Unknown(StopReason),
}

/// What the solver did, summed over its calls.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SatStats {
    /// Decisions (assumptions not counted).
    pub decisions: u64,
    /// Conflicts.
    pub conflicts: u64,
    /// Literals assigned by propagation.
    pub propagations: u64,
    /// Restarts.
    pub restarts: u64,
    /// Clauses learned (kept or since deleted).
    pub learned: u64,
    /// Learned clauses held now.
    pub learnts: u64,
    /// Literals of the clauses learned (summed).
    pub learned_literals: u64,
}

const UNDEF: u8 = 2;
const NO_REASON: u32 = u32::MAX;
/// A reason with this bit set is "at-most-one with the variable in the low
/// bits" (the binary clause `¬x ∨ ¬y`); otherwise a clause index.
const AMO_BIT: u32 = 1 << 31;

#[derive(Clone, Copy, Debug)]
struct Clause {
    start: u32,
    len: u32,
    lbd: u32,
    activity: f32,
    learnt: bool,
    /// Learned under the current assumptions (their level's literals left
    /// out): deleted when the call ends.
    local: bool,
    deleted: bool,
}

#[derive(Clone, Copy, Debug)]
struct Watch {
    clause: u32,
    blocker: Lit,
}

#[derive(Clone, Copy, Debug)]
enum Conflict {
    Clause(u32),
    /// Two true members of one at-most-one group: `¬a ∨ ¬b` is false.
    Pair(Var, Var),
}

/// An incremental CDCL SAT solver with native at-most-one constraints (see
/// the module documentation). Clauses and groups are added between calls to
/// [`solve`](Self::solve), which may be called any number of times with
/// different assumptions; learned clauses, activities and saved phases carry
/// over. Memory grows only with the learned clauses, which are pruned.
#[derive(Clone, Debug)]
pub struct Cdcl {
    nvars: usize,
    /// Clause literals, each clause a slice; the first two watched.
    lits: Vec<Lit>,
    clauses: Vec<Clause>,
    /// Per literal: the clauses watching it (visited when it becomes false).
    watches: Vec<Vec<Watch>>,
    /// At-most-one groups: members flat, `group_start[g]..group_start[g+1]`.
    group_members: Vec<Var>,
    group_start: Vec<u32>,
    /// Per variable: its groups, `var_groups_start[v]..[v+1]` into `var_groups`.
    var_groups: Vec<u32>,
    var_groups_start: Vec<u32>,
    /// Per variable: 0 false, 1 true, `UNDEF`.
    value: Vec<u8>,
    level: Vec<u32>,
    reason: Vec<u32>,
    phase: Vec<bool>,
    activity: Vec<f64>,
    var_inc: f64,
    clause_inc: f32,
    /// Binary max-heap of unassigned (and some assigned) variables by activity.
    heap: Vec<Var>,
    heap_pos: Vec<u32>,
    trail: Vec<Lit>,
    trail_lim: Vec<u32>,
    qhead: usize,
    /// The formula alone has no model (found at level 0).
    unsat: bool,
    model: Vec<bool>,
    // Conflict analysis scratch.
    seen: Vec<bool>,
    learnt: Vec<Lit>,
    /// The literals of one reason (kept between conflicts).
    pending: Vec<Lit>,
    to_clear: Vec<Var>,
    level_stamp: Vec<u64>,
    stamp: u64,
    stats: SatStats,
    /// Learned clauses past which the next reduction runs.
    max_learnts: f64,
    /// Learned clauses held now.
    learnt_live: usize,
    /// The level of the assumptions (1, or 0 without): its literals are
    /// facts for conflict analysis, which leaves them out of the clauses it
    /// learns; such clauses are local to the call.
    root: u32,
    /// Whether the clause being learned left out a literal of `root` or
    /// was derived with a local clause (either way it follows from the
    /// formula and this call's assumptions only).
    local: bool,
    /// Local clauses held.
    locals: u32,
    /// Local clauses of one literal, assigned with the assumptions.
    local_units: Vec<Lit>,
    /// The assumptions of the last call: a call with the same ones keeps
    /// the local clauses (a search resumed with a larger budget).
    last_assumptions: Vec<Lit>,
    /// Whether decisions try a variable's last value (phase saving; else
    /// the phases given to [`set_phases`](Self::set_phases), false by
    /// default). Default true.
    pub phase_saving: bool,
    /// Conflicts of the first restart interval (multiplied by the Luby
    /// sequence). Default 100.
    pub restart_unit: u64,
}

/// The Luby sequence's `i`-th term (0-based): 1, 1, 2, 1, 1, 2, 4, ...
fn luby(mut i: u64) -> u64 {
    // Find the finite subsequence that contains index i, and its size.
    let mut size = 1u64;
    let mut seq = 0u32;
    while size < i + 1 {
        seq += 1;
        size = 2 * size + 1;
    }
    while size - 1 != i {
        size = (size - 1) >> 1;
        seq -= 1;
        i %= size;
    }
    1u64 << seq
}

impl Cdcl {
    /// A solver over `vars` variables with no clauses.
    pub fn new(vars: usize) -> Cdcl {
        let mut s = Cdcl {
            nvars: vars,
            lits: Vec::new(),
            clauses: Vec::new(),
            watches: vec![Vec::new(); 2 * vars],
            group_members: Vec::new(),
            group_start: vec![0],
            var_groups: Vec::new(),
            var_groups_start: vec![0; vars + 1],
            value: vec![UNDEF; vars],
            level: vec![0; vars],
            reason: vec![NO_REASON; vars],
            phase: vec![false; vars],
            activity: vec![0.0; vars],
            var_inc: 1.0,
            clause_inc: 1.0,
            heap: Vec::with_capacity(vars),
            heap_pos: vec![u32::MAX; vars],
            trail: Vec::with_capacity(vars),
            trail_lim: Vec::new(),
            qhead: 0,
            unsat: false,
            model: vec![false; vars],
            seen: vec![false; vars],
            learnt: Vec::new(),
            pending: Vec::new(),
            learnt_live: 0,
            root: 0,
            local: false,
            locals: 0,
            local_units: Vec::new(),
            last_assumptions: Vec::new(),
            to_clear: Vec::new(),
            level_stamp: vec![0; vars + 1],
            stamp: 0,
            stats: SatStats::default(),
            max_learnts: 0.0,
            phase_saving: true,
            restart_unit: 100,
        };
        for v in 0..vars as Var {
            s.heap_insert(v);
        }
        s
    }

    /// Number of variables.
    pub fn vars(&self) -> usize {
        self.nvars
    }

    /// What the solver did so far.
    pub fn stats(&self) -> SatStats {
        let mut s = self.stats;
        s.learnts = self
            .clauses
            .iter()
            .filter(|c| c.learnt && !c.deleted)
            .count() as u64;
        s
    }

    /// The model of the last [`solve`](Self::solve) that returned
    /// [`SatResult::Sat`]: the value of each variable.
    pub fn model(&self) -> &[bool] {
        &self.model
    }

    /// Sets the initial phase of every variable (the value decisions try
    /// first until phase saving replaces it).
    pub fn set_phases(&mut self, phases: &[bool]) {
        for (p, &v) in self.phase.iter_mut().zip(phases) {
            *p = v;
        }
    }

    fn val(&self, l: Lit) -> u8 {
        let v = self.value[l.var() as usize];
        if v == UNDEF {
            UNDEF
        } else {
            v ^ (l.is_neg() as u8)
        }
    }

    fn decision_level(&self) -> u32 {
        self.trail_lim.len() as u32
    }

    /// Adds a clause (a disjunction of literals). Returns false when the
    /// formula has become unsatisfiable at the root (an empty clause, or a
    /// unit contradicting the root's facts).
    ///
    /// # Panics
    /// If a literal's variable is out of range.
    pub fn add_clause(&mut self, clause: &[Lit]) -> bool {
        self.cancel_until(0);
        if self.unsat {
            return false;
        }
        let mut c: Vec<Lit> = clause.to_vec();
        for l in &c {
            assert!((l.var() as usize) < self.nvars, "variable out of range");
        }
        c.sort_unstable_by_key(|l| l.0);
        c.dedup();
        let mut kept = Vec::with_capacity(c.len());
        for i in 0..c.len() {
            if i + 1 < c.len() && c[i + 1] == !c[i] {
                return true; // tautology
            }
            match self.val(c[i]) {
                1 => return true,
                0 => {}
                _ => kept.push(c[i]),
            }
        }
        match kept.len() {
            0 => {
                self.unsat = true;
                false
            }
            1 => {
                self.assign(kept[0], NO_REASON);
                if self.propagate().is_some() {
                    self.unsat = true;
                }
                !self.unsat
            }
            _ => {
                self.attach(&kept, false, 0);
                true
            }
        }
    }

    /// Adds "at most one of `vars` is true" (a variable listed twice counts
    /// once). Returns false when the formula
    /// has become unsatisfiable at the root.
    ///
    /// # Panics
    /// If a variable is out of range.
    pub fn add_at_most_one(&mut self, vars: &[Var]) -> bool {
        self.cancel_until(0);
        let g = (self.group_start.len() - 1) as u32;
        for &v in vars {
            assert!((v as usize) < self.nvars, "variable out of range");
        }
        self.group_members.extend_from_slice(vars);
        self.group_start.push(self.group_members.len() as u32);
        // Rebuild the per-variable group index (groups are added up front,
        // so this runs a few thousand times at most).
        let mut lists: Vec<Vec<u32>> = (0..self.nvars)
            .map(|v| {
                self.var_groups
                    [self.var_groups_start[v] as usize..self.var_groups_start[v + 1] as usize]
                    .to_vec()
            })
            .collect();
        for &v in vars {
            if !lists[v as usize].contains(&g) {
                lists[v as usize].push(g);
            }
        }
        self.var_groups.clear();
        for (v, l) in lists.iter().enumerate() {
            self.var_groups_start[v] = self.var_groups.len() as u32;
            self.var_groups.extend_from_slice(l);
        }
        self.var_groups_start[self.nvars] = self.var_groups.len() as u32;
        // Facts already true are propagated again through the new group.
        self.qhead = 0;
        if !self.unsat && self.propagate().is_some() {
            self.unsat = true;
        }
        !self.unsat
    }

    /// Adds several at-most-one groups at once (faster than one by one; no
    /// variable listed twice in a group).
    pub fn add_at_most_one_groups<'a>(&mut self, groups: impl IntoIterator<Item = &'a [Var]>) {
        self.cancel_until(0);
        for vars in groups {
            for &v in vars {
                assert!((v as usize) < self.nvars, "variable out of range");
            }
            self.group_members.extend_from_slice(vars);
            self.group_start.push(self.group_members.len() as u32);
        }
        let mut counts = vec![0u32; self.nvars + 1];
        for g in 0..self.group_start.len() - 1 {
            for &v in
                &self.group_members[self.group_start[g] as usize..self.group_start[g + 1] as usize]
            {
                counts[v as usize] += 1;
            }
        }
        let mut acc = 0u32;
        for v in 0..self.nvars {
            self.var_groups_start[v] = acc;
            acc += counts[v];
        }
        self.var_groups_start[self.nvars] = acc;
        self.var_groups = vec![0; acc as usize];
        let mut fill: Vec<u32> = self.var_groups_start[..self.nvars].to_vec();
        for g in 0..self.group_start.len() - 1 {
            for &v in
                &self.group_members[self.group_start[g] as usize..self.group_start[g + 1] as usize]
            {
                self.var_groups[fill[v as usize] as usize] = g as u32;
                fill[v as usize] += 1;
            }
        }
        self.qhead = 0;
        if !self.unsat && self.propagate().is_some() {
            self.unsat = true;
        }
    }

    fn attach(&mut self, lits: &[Lit], learnt: bool, lbd: u32) -> u32 {
        let idx = self.clauses.len() as u32;
        self.clauses.push(Clause {
            start: self.lits.len() as u32,
            len: lits.len() as u32,
            lbd,
            activity: 0.0,
            learnt,
            local: false,
            deleted: false,
        });
        self.lits.extend_from_slice(lits);
        self.watches[lits[0].index()].push(Watch {
            clause: idx,
            blocker: lits[1],
        });
        self.watches[lits[1].index()].push(Watch {
            clause: idx,
            blocker: lits[0],
        });
        idx
    }

    fn assign(&mut self, l: Lit, reason: u32) {
        let v = l.var() as usize;
        self.value[v] = (!l.is_neg()) as u8;
        self.level[v] = self.decision_level();
        self.reason[v] = reason;
        self.trail.push(l);
    }

    /// Unit propagation to a fixed point; the conflict, if any.
    fn propagate(&mut self) -> Option<Conflict> {
        while self.qhead < self.trail.len() {
            let p = self.trail[self.qhead];
            self.qhead += 1;
            let pv = p.var();
            // At-most-one: a true variable makes its groups' others false.
            if !p.is_neg() {
                let (gs, ge) = (
                    self.var_groups_start[pv as usize] as usize,
                    self.var_groups_start[pv as usize + 1] as usize,
                );
                for gi in gs..ge {
                    let g = self.var_groups[gi] as usize;
                    let (ms, me) = (
                        self.group_start[g] as usize,
                        self.group_start[g + 1] as usize,
                    );
                    for mi in ms..me {
                        let y = self.group_members[mi];
                        if y == pv {
                            continue;
                        }
                        match self.value[y as usize] {
                            0 => {}
                            1 => {
                                self.qhead = self.trail.len();
                                return Some(Conflict::Pair(pv, y));
                            }
                            _ => {
                                self.stats.propagations += 1;
                                self.assign(Lit::neg(y), AMO_BIT | pv);
                            }
                        }
                    }
                }
            }
            // Clauses watching ¬p (now false).
            let false_lit = !p;
            let mut ws = std::mem::take(&mut self.watches[false_lit.index()]);
            let mut i = 0;
            let mut j = 0;
            let mut conflict = None;
            while i < ws.len() {
                let w = ws[i];
                i += 1;
                if self.val(w.blocker) == 1 {
                    ws[j] = w;
                    j += 1;
                    continue;
                }
                let c = self.clauses[w.clause as usize];
                if c.deleted {
                    continue;
                }
                let s = c.start as usize;
                let len = c.len as usize;
                // Make sure the false literal is at position 1.
                if self.lits[s] == false_lit {
                    self.lits.swap(s, s + 1);
                }
                let first = self.lits[s];
                let nw = Watch {
                    clause: w.clause,
                    blocker: first,
                };
                if first != w.blocker && self.val(first) == 1 {
                    ws[j] = nw;
                    j += 1;
                    continue;
                }
                // Look for a new literal to watch.
                let mut moved = false;
                for k in 2..len {
                    let l = self.lits[s + k];
                    if self.val(l) != 0 {
                        self.lits.swap(s + 1, s + k);
                        self.watches[l.index()].push(nw);
                        moved = true;
                        break;
                    }
                }
                if moved {
                    continue;
                }
                ws[j] = nw;
                j += 1;
                if self.val(first) == 0 {
                    conflict = Some(Conflict::Clause(w.clause));
                    self.qhead = self.trail.len();
                    while i < ws.len() {
                        ws[j] = ws[i];
                        j += 1;
                        i += 1;
                    }
                } else {
                    self.stats.propagations += 1;
                    self.assign(first, w.clause);
                }
            }
            ws.truncate(j);
            // (No watch moved to this list meanwhile: a clause never moves
            // its watch to a false literal.)
            self.watches[false_lit.index()] = ws;
            if conflict.is_some() {
                return conflict;
            }
        }
        None
    }

    fn cancel_until(&mut self, level: u32) {
        if self.decision_level() <= level {
            return;
        }
        let keep = self.trail_lim[level as usize] as usize;
        for k in (keep..self.trail.len()).rev() {
            let l = self.trail[k];
            let v = l.var();
            self.value[v as usize] = UNDEF;
            self.reason[v as usize] = NO_REASON;
            if self.phase_saving {
                self.phase[v as usize] = !l.is_neg();
            }
            if self.heap_pos[v as usize] == u32::MAX {
                self.heap_insert(v);
            }
        }
        self.trail.truncate(keep);
        self.trail_lim.truncate(level as usize);
        self.qhead = keep;
    }

    // ---- VSIDS heap ----

    fn heap_less(&self, a: Var, b: Var) -> bool {
        self.activity[a as usize] > self.activity[b as usize]
    }

    fn heap_up(&mut self, mut i: usize) {
        let v = self.heap[i];
        while i > 0 {
            let parent = (i - 1) / 2;
            if !self.heap_less(v, self.heap[parent]) {
                break;
            }
            self.heap[i] = self.heap[parent];
            self.heap_pos[self.heap[i] as usize] = i as u32;
            i = parent;
        }
        self.heap[i] = v;
        self.heap_pos[v as usize] = i as u32;
    }

    fn heap_down(&mut self, mut i: usize) {
        let v = self.heap[i];
        let n = self.heap.len();
        loop {
            let l = 2 * i + 1;
            if l >= n {
                break;
            }
            let r = l + 1;
            let c = if r < n && self.heap_less(self.heap[r], self.heap[l]) {
                r
            } else {
                l
            };
            if !self.heap_less(self.heap[c], v) {
                break;
            }
            self.heap[i] = self.heap[c];
            self.heap_pos[self.heap[i] as usize] = i as u32;
            i = c;
        }
        self.heap[i] = v;
        self.heap_pos[v as usize] = i as u32;
    }

    fn heap_insert(&mut self, v: Var) {
        self.heap.push(v);
        let i = self.heap.len() - 1;
        self.heap_pos[v as usize] = i as u32;
        self.heap_up(i);
    }

    fn heap_pop(&mut self) -> Option<Var> {
        let top = *self.heap.first()?;
        let last = self.heap.pop().expect("non-empty");
        self.heap_pos[top as usize] = u32::MAX;
        if !self.heap.is_empty() {
            self.heap[0] = last;
            self.heap_pos[last as usize] = 0;
            self.heap_down(0);
        }
        Some(top)
    }

    fn bump_var(&mut self, v: Var) {
        self.activity[v as usize] += self.var_inc;
        if self.activity[v as usize] > 1e100 {
            for a in &mut self.activity {
                *a *= 1e-100;
            }
            self.var_inc *= 1e-100;
        }
        let p = self.heap_pos[v as usize];
        if p != u32::MAX {
            self.heap_up(p as usize);
        }
    }

    fn bump_clause(&mut self, c: u32) {
        let cl = &mut self.clauses[c as usize];
        if !cl.learnt {
            return;
        }
        cl.activity += self.clause_inc;
        if cl.activity > 1e20 {
            for c in &mut self.clauses {
                c.activity *= 1e-20;
            }
            self.clause_inc *= 1e-20;
        }
    }

    // ---- conflict analysis ----

    /// The literals of a reason or conflict other than `skip`'s variable,
    /// passed to `f` (all false under the current assignment).
    fn reason_lits(&self, reason: u32, skip: Option<Var>, mut f: impl FnMut(Lit)) {
        if reason & AMO_BIT != 0 {
            f(Lit::neg(reason & !AMO_BIT));
        } else {
            let c = self.clauses[reason as usize];
            for k in 0..c.len as usize {
                let l = self.lits[c.start as usize + k];
                if Some(l.var()) != skip {
                    f(l);
                }
            }
        }
    }

    /// 1UIP learning: fills `self.learnt` (the asserting literal first, a
    /// literal of the backjump level second) and returns the backjump level
    /// and the clause's LBD.
    fn analyze(&mut self, conflict: Conflict) -> (u32, u32) {
        let mut learnt = std::mem::take(&mut self.learnt);
        learnt.clear();
        learnt.push(Lit(0));
        let mut path = 0u32;
        let mut index = self.trail.len();
        let current = self.decision_level();
        let mut p: Option<Lit> = None;
        let mut pending = std::mem::take(&mut self.pending);
        loop {
            pending.clear();
            match (p, conflict) {
                (None, Conflict::Clause(c)) => {
                    self.bump_clause(c);
                    self.local |= self.clauses[c as usize].local;
                    self.reason_lits(c, None, |l| pending.push(l));
                }
                (None, Conflict::Pair(a, b)) => {
                    pending.push(Lit::neg(a));
                    pending.push(Lit::neg(b));
                }
                (Some(p), _) => {
                    let r = self.reason[p.var() as usize];
                    if r & AMO_BIT == 0 {
                        self.bump_clause(r);
                        self.local |= self.clauses[r as usize].local;
                    }
                    self.reason_lits(r, Some(p.var()), |l| pending.push(l));
                }
            }
            for &q in &pending {
                let v = q.var() as usize;
                if self.level[v] <= self.root && self.level[v] > 0 {
                    self.local = true;
                }
                if !self.seen[v] && self.level[v] > self.root {
                    self.seen[v] = true;
                    self.to_clear.push(v as Var);
                    self.bump_var(v as Var);
                    if self.level[v] >= current {
                        path += 1;
                    } else {
                        learnt.push(q);
                    }
                }
            }
            // The next literal of the current level on the trail.
            loop {
                index -= 1;
                if self.seen[self.trail[index].var() as usize] {
                    break;
                }
            }
            let lit = self.trail[index];
            p = Some(lit);
            self.seen[lit.var() as usize] = false;
            path -= 1;
            if path == 0 {
                learnt[0] = !lit;
                break;
            }
        }
        // Minimise: drop a literal whose reason's other literals are all in
        // the clause (or at the root).
        let mut j = 1;
        for i in 1..learnt.len() {
            let v = learnt[i].var() as usize;
            let r = self.reason[v];
            let keep = if r == NO_REASON {
                true
            } else {
                let mut redundant = true;
                let mut uses_root = false;
                self.reason_lits(r, Some(v as Var), |l| {
                    let u = l.var() as usize;
                    if !self.seen[u] && self.level[u] > self.root {
                        redundant = false;
                    }
                    uses_root |= self.level[u] > 0 && self.level[u] <= self.root;
                });
                if redundant && (uses_root || (r & AMO_BIT == 0 && self.clauses[r as usize].local))
                {
                    self.local = true;
                }
                !redundant
            };
            if keep {
                learnt[j] = learnt[i];
                j += 1;
            }
        }
        learnt.truncate(j);
        for &v in &self.to_clear {
            self.seen[v as usize] = false;
        }
        self.to_clear.clear();
        // Backjump level: the highest level among the rest, moved to 1.
        let mut bt = 0;
        if learnt.len() > 1 {
            let mut max_i = 1;
            for i in 2..learnt.len() {
                if self.level[learnt[i].var() as usize] > self.level[learnt[max_i].var() as usize] {
                    max_i = i;
                }
            }
            learnt.swap(1, max_i);
            bt = self.level[learnt[1].var() as usize];
        }
        // LBD: distinct decision levels.
        self.stamp += 1;
        let mut lbd = 0;
        for l in &learnt {
            let lv = self.level[l.var() as usize] as usize;
            if lv >= self.level_stamp.len() {
                self.level_stamp.resize(lv + 1, 0);
            }
            if self.level_stamp[lv] != self.stamp {
                self.level_stamp[lv] = self.stamp;
                lbd += 1;
            }
        }
        self.learnt = learnt;
        self.pending = pending;
        (bt, lbd)
    }

    /// Deletes the less useful half of the learned clauses (high LBD, low
    /// activity; clauses of LBD 2 or less are kept) and rebuilds the watch
    /// lists. At the root only, so no deleted clause is a reason.
    fn reduce(&mut self) {
        debug_assert_eq!(self.decision_level(), 0);
        let mut cand: Vec<u32> = (0..self.clauses.len() as u32)
            .filter(|&i| {
                let c = &self.clauses[i as usize];
                c.learnt && !c.deleted && c.lbd > 2
            })
            .collect();
        cand.sort_by(|&a, &b| {
            let (ca, cb) = (&self.clauses[a as usize], &self.clauses[b as usize]);
            cb.lbd
                .cmp(&ca.lbd)
                .then(ca.activity.total_cmp(&cb.activity))
        });
        for &i in &cand[..cand.len() / 2] {
            self.clauses[i as usize].deleted = true;
        }
        self.compact();
    }

    /// Drops deleted clauses and clauses satisfied at the root; rebuilds
    /// the watches.
    fn compact(&mut self) {
        let mut lits = Vec::with_capacity(self.lits.len());
        let mut clauses = Vec::with_capacity(self.clauses.len());
        for c in &self.clauses {
            if c.deleted {
                continue;
            }
            let s = c.start as usize;
            let body = &self.lits[s..s + c.len as usize];
            if body.iter().any(|&l| self.val(l) == 1) {
                continue;
            }
            // Root-false literals dropped: at least two remain (the root is
            // propagated to a fixed point without conflict).
            let start = lits.len();
            lits.extend(body.iter().copied().filter(|&l| self.val(l) != 0));
            let len = lits.len() - start;
            debug_assert!(len >= 2);
            clauses.push(Clause {
                start: start as u32,
                len: len as u32,
                ..*c
            });
        }
        self.lits = lits;
        self.clauses = clauses;
        for w in &mut self.watches {
            w.clear();
        }
        for (i, c) in self.clauses.iter().enumerate() {
            let s = c.start as usize;
            let (a, b) = (self.lits[s], self.lits[s + 1]);
            self.watches[a.index()].push(Watch {
                clause: i as u32,
                blocker: b,
            });
            self.watches[b.index()].push(Watch {
                clause: i as u32,
                blocker: a,
            });
        }
        for r in &mut self.reason {
            *r = NO_REASON; // only root facts are assigned: reasons unused
        }
        self.learnt_live = self.clauses.iter().filter(|c| c.learnt).count();
    }

    fn learnt_count(&self) -> usize {
        self.learnt_live
    }

    /// Solves under `assumptions` (literals taken as true for this call
    /// only). `limits.max_nodes` caps the decisions and conflicts together;
    /// the deadline and cancel token are polled every 128 conflicts.
    pub fn solve(&mut self, assumptions: &[Lit], limits: &Limits) -> SatResult {
        self.cancel_until(0);
        self.root = u32::from(!assumptions.is_empty());
        if self.last_assumptions != assumptions {
            // What was learned under other assumptions goes.
            if self.locals > 0 {
                for c in &mut self.clauses {
                    c.deleted |= c.local;
                }
                self.locals = 0;
                self.compact();
            }
            self.local_units.clear();
            self.last_assumptions.clear();
            self.last_assumptions.extend_from_slice(assumptions);
        }
        let r = self.solve_under(assumptions, limits);
        self.cancel_until(0);
        r
    }

    fn solve_under(&mut self, assumptions: &[Lit], limits: &Limits) -> SatResult {
        self.cancel_until(0);
        if self.unsat {
            return SatResult::Unsat;
        }
        if self.propagate().is_some() {
            self.unsat = true;
            return SatResult::Unsat;
        }
        if self.max_learnts == 0.0 {
            self.max_learnts = (self.clauses.len() as f64 / 3.0).max(2_000.0);
        }
        let budget = limits.max_nodes.unwrap_or(u64::MAX);
        let assumption_level = self.root;
        let mut work = 0u64;
        let mut restart_index = 0u64;
        loop {
            let interval = luby(restart_index) * self.restart_unit;
            restart_index += 1;
            let mut conflicts = 0u64;
            // One restart interval.
            loop {
                if let Some(conflict) = self.propagate() {
                    self.stats.conflicts += 1;
                    conflicts += 1;
                    work += 1;
                    if self.decision_level() == 0 {
                        self.unsat = true;
                        return SatResult::Unsat;
                    }
                    if self.decision_level() <= assumption_level {
                        // The assumptions and the formula conflict.
                        self.cancel_until(0);
                        return SatResult::Unsat;
                    }
                    self.local = false;
                    let (bt, lbd) = self.analyze(conflict);
                    let local = self.local;
                    self.cancel_until(if local { bt.max(self.root) } else { bt });
                    let learnt = std::mem::take(&mut self.learnt);
                    if learnt.len() == 1 {
                        if local {
                            self.local_units.push(learnt[0]);
                        }
                        self.assign(learnt[0], NO_REASON);
                    } else {
                        let c = self.attach(&learnt, true, lbd);
                        self.clauses[c as usize].local = local;
                        self.locals += u32::from(local);
                        self.learnt_live += 1;
                        self.bump_clause(c);
                        self.assign(learnt[0], c);
                    }
                    self.stats.learned_literals += learnt.len() as u64;
                    self.learnt = learnt;
                    self.stats.learned += 1;
                    self.var_inc /= 0.95;
                    self.clause_inc /= 0.999;
                    if self.stats.conflicts % 128 == 0 {
                        if let Some(stop) = limits.poll() {
                            self.cancel_until(0);
                            return SatResult::Unknown(stop);
                        }
                    }
                    if work >= budget {
                        self.cancel_until(0);
                        return SatResult::Unknown(StopReason::NodeLimit);
                    }
                    continue;
                }
                if conflicts >= interval && self.decision_level() > assumption_level {
                    break;
                }
                // The assumptions first, all on level 1 (not one level each
                // as in MiniSat: a clause learned under hundreds of clues
                // would backjump into them and assign them again at every
                // conflict).
                if self.decision_level() < assumption_level {
                    self.trail_lim.push(self.trail.len() as u32);
                    for k in 0..assumptions.len() + self.local_units.len() {
                        let a = if k < assumptions.len() {
                            assumptions[k]
                        } else {
                            self.local_units[k - assumptions.len()]
                        };
                        match self.val(a) {
                            1 => {}
                            0 => {
                                self.cancel_until(0);
                                return SatResult::Unsat;
                            }
                            _ => self.assign(a, NO_REASON),
                        }
                    }
                    continue;
                }
                let mut next = None;
                {
                    while let Some(v) = self.heap_pop() {
                        if self.value[v as usize] == UNDEF {
                            next = Some(Lit::new(v, self.phase[v as usize]));
                            break;
                        }
                    }
                    let Some(_) = next else {
                        // Every variable assigned: a model.
                        for v in 0..self.nvars {
                            self.model[v] = self.value[v] == 1;
                        }
                        self.cancel_until(0);
                        return SatResult::Sat;
                    };
                    self.stats.decisions += 1;
                    work += 1;
                    if work >= budget {
                        self.cancel_until(0);
                        return SatResult::Unknown(StopReason::NodeLimit);
                    }
                }
                self.trail_lim.push(self.trail.len() as u32);
                self.assign(next.expect("a decision"), NO_REASON);
            }
            self.stats.restarts += 1;
            // A restart keeps the assumptions' level (assigning hundreds of
            // clues again is most of a restart's cost); a reduction of the
            // learned clauses goes to the root.
            if self.learnt_count() as f64 >= self.max_learnts {
                self.cancel_until(0);
                self.reduce();
                self.max_learnts *= 1.1;
            } else {
                self.cancel_until(assumption_level);
            }
        }
    }
}

/// The rules of a Sudoku grid as a [`Cdcl`] formula, asked whether a puzzle
/// has a solution with another digit in one cell (the generator's check).
///
/// Variable `cell * n + (d - 1)` says "`cell` holds digit `d`". Clauses: each
/// cell holds a digit, each house holds each digit; at-most-one groups: a
/// cell's digits, a house's cells for one digit. The clues are assumptions,
/// so one formula serves every puzzle of the size, and what the solver learns
/// from one check helps the next.
#[derive(Clone, Debug)]
pub struct SudokuSat {
    size: Size,
    cdcl: Cdcl,
    assumptions: Vec<Lit>,
}

impl SudokuSat {
    /// The formula of a grid size.
    pub fn new(size: Size) -> SudokuSat {
        let n = size.side();
        let cells = size.cells();
        let var = |cell: usize, d: usize| (cell * n + d) as Var;
        let mut cdcl = Cdcl::new(cells * n);
        let mut houses: Vec<Vec<usize>> = vec![Vec::with_capacity(n); 3 * n];
        for cell in 0..cells {
            houses[size.row_of(cell)].push(cell);
            houses[n + size.col_of(cell)].push(cell);
            houses[2 * n + size.box_of(cell)].push(cell);
        }
        let mut groups: Vec<Vec<Var>> = Vec::with_capacity(cells + 3 * n * n);
        for cell in 0..cells {
            let g: Vec<Var> = (0..n).map(|d| var(cell, d)).collect();
            cdcl.add_clause(&g.iter().map(|&v| Lit::pos(v)).collect::<Vec<_>>());
            groups.push(g);
        }
        for house in &houses {
            for d in 0..n {
                let g: Vec<Var> = house.iter().map(|&c| var(c, d)).collect();
                cdcl.add_clause(&g.iter().map(|&v| Lit::pos(v)).collect::<Vec<_>>());
                groups.push(g);
            }
        }
        cdcl.add_at_most_one_groups(groups.iter().map(Vec::as_slice));
        SudokuSat {
            size,
            cdcl,
            assumptions: Vec::with_capacity(cells + 1),
        }
    }

    /// The grid size.
    pub fn size(&self) -> Size {
        self.size
    }

    /// The solver (its statistics, its settings).
    pub fn solver(&mut self) -> &mut Cdcl {
        &mut self.cdcl
    }

    /// The solver's statistics.
    pub fn cdcl_stats(&self) -> SatStats {
        self.cdcl.stats()
    }

    /// Whether `puzzle` has a solution whose `cell` is not `digit` (`cell`
    /// is expected empty in `puzzle`; a clue there is ignored): `Sat` (then
    /// [`solution`](Self::solution) is one), `Unsat`, or `Unknown` when
    /// `limits` (decisions and conflicts for nodes, the deadline, the cancel
    /// token) stopped it.
    ///
    /// # Panics
    /// If the puzzle's size is not the formula's.
    pub fn other_solution(
        &mut self,
        puzzle: &Grid,
        cell: usize,
        digit: u8,
        limits: &Limits,
    ) -> SatResult {
        assert_eq!(puzzle.size(), self.size, "puzzle of another size");
        let n = self.size.side();
        self.assumptions.clear();
        if (1..=n as u8).contains(&digit) {
            self.assumptions
                .push(Lit::neg((cell * n + digit as usize - 1) as Var));
        }
        for c in 0..self.size.cells() {
            let d = puzzle.get(c);
            if d != 0 && c != cell {
                self.assumptions
                    .push(Lit::pos((c * n + d as usize - 1) as Var));
            }
        }
        self.cdcl.solve(&self.assumptions, limits)
    }

    /// The solution of the last [`other_solution`](Self::other_solution)
    /// that returned `Sat`.
    pub fn solution(&self) -> Grid {
        let n = self.size.side();
        let model = self.cdcl.model();
        let cells = (0..self.size.cells())
            .map(|c| {
                (0..n)
                    .find(|&d| model[c * n + d])
                    .map_or(0, |d| d as u8 + 1)
            })
            .collect();
        Grid::from_cells(cells).expect("a model is a full grid")
    }
}

#[cfg(test)]
mod tests;
