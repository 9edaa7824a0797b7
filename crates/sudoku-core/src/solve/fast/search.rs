//! The depth-first search on an explicit stack of board copies.

use std::ops::ControlFlow;

use super::arch::Lanes;
use super::board::{Act, Board, Failures, Fixpoint, choose, layouts_from, open, propagate};
use super::pairs::hidden_pairs;
use crate::grid::Grid;
use crate::solve::{Limits, StopReason};

/// Where a search starts.
pub(crate) enum Start<'a> {
    /// A board made by the caller.
    Board(&'a Board),
    /// Givens, row-major, 0 = empty (the board is built by the kernel).
    Givens(&'a [u8]),
}

/// Everything one search needs; the buffers belong to the [`super::Fast`] solver.
pub(crate) struct Job<'a> {
    pub(crate) start: Start<'a>,
    pub(crate) limits: &'a Limits,
    pub(crate) on_solution: &'a mut dyn FnMut(&Grid) -> ControlFlow<()>,
    pub(crate) stack: &'a mut Vec<(Board, Act)>,
    pub(crate) out: &'a mut Grid,
}

/// Counters and the stop reason of one search (time is measured by the caller).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Outcome {
    pub(crate) nodes: u64,
    pub(crate) guesses: u64,
    pub(crate) max_depth: u32,
    pub(crate) solutions: u64,
    pub(crate) stop: StopReason,
}

/// How often (in nodes) the deadline and cancel token are polled (the caller
/// checks them once before the search starts, without a clock read of its
/// own: see `Fast::run_from`).
const POLL_EVERY: u64 = 1024;

#[inline(always)]
pub(crate) fn run<L: Lanes>(k: L, job: Job<'_>) -> Outcome {
    let Job {
        start,
        limits,
        on_solution,
        stack,
        out,
    } = job;
    let max_solutions = limits.max_solutions.unwrap_or(u64::MAX);
    let max_nodes = limits.max_nodes.unwrap_or(u64::MAX);
    let slow = limits.has_slow_limits();
    let mut o = Outcome {
        nodes: 0,
        guesses: 0,
        max_depth: 0,
        solutions: 0,
        stop: StopReason::Exhausted,
    };
    if max_solutions == 0 {
        o.stop = StopReason::SolutionLimit;
        return o;
    }
    if max_nodes == 0 {
        o.stop = StopReason::NodeLimit;
        return o;
    }
    stack.clear();
    let mut cur = match start {
        Start::Board(b) => *b,
        Start::Givens(cells) => Board::from_givens(k, cells),
    };
    o.nodes = 1;
    let mut alive = propagate(k, &mut cur, Act::None, false, Fixpoint::Full);
    // Layout mode for puzzles still wide open after the start propagation.
    let layouts = open(&cur) >= layouts_from();
    // Hidden pairs run on the start board and on both boards of its first
    // choice (in layout mode, see `with_pairs`): due on the board just
    // propagated. `root_done`: the start board's second branch has been
    // entered.
    let mut pairs_due = true;
    let mut root_done = false;
    // Outside layout mode, until the search meets its first dead end,
    // boards below the start stop at the singles' fixpoint and the choice
    // takes the first bivalue cell without scoring: until then the tree
    // is a path towards a solution (multi-solution and easy puzzles),
    // where the locked-candidates round that confirms the fixpoint and the
    // scores cost more than the few nodes they save. After it, every
    // board is propagated in full and the bivalue cells are scored.
    let mut fails = Failures::default();
    let mut fix = if layouts {
        Fixpoint::Full
    } else {
        Fixpoint::Singles
    };
    loop {
        if pairs_due {
            alive = alive && with_pairs(k, &mut cur, layouts);
        }
        let act = if alive && !cur.is_solved() {
            // Binary choice: the digit in the cell, or not (for a bivalue
            // cell: its other digit), or one set of a digit's layouts in a
            // band or stack against the rest. Both sides are alternatives
            // of a real choice, so each counts as a guess when taken.
            let (first, other) = choose(k, &cur, layouts, fix == Fixpoint::Full, &fails);
            #[cfg(feature = "probe")]
            super::board::probe::BRANCHES.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            stack.push((cur, other));
            o.max_depth = o.max_depth.max(stack.len() as u32);
            if let Some(stop) = enter(&mut o, limits, slow, max_nodes) {
                o.stop = stop;
                return o;
            }
            pairs_due = o.guesses == 0;
            first
        } else {
            if alive {
                o.solutions += 1;
                cur.write_digits(k, out.cells_mut());
                if on_solution(out).is_break() {
                    o.stop = StopReason::Visitor;
                    return o;
                }
                if o.solutions >= max_solutions {
                    o.stop = StopReason::SolutionLimit;
                    return o;
                }
            }
            let Some((b, act)) = stack.pop() else {
                return o;
            };
            cur = b;
            if let Some(stop) = enter(&mut o, limits, slow, max_nodes) {
                o.stop = stop;
                return o;
            }
            pairs_due = stack.is_empty() && !root_done;
            root_done |= pairs_due;
            act
        };
        o.guesses += 1;
        alive = propagate(k, &mut cur, act, layouts, fix);
        if !alive {
            fix = Fixpoint::Full;
            fails.note(&act);
        }
    }
}

/// Hidden pairs ([`hidden_pairs`]) on a propagated board in layout mode,
/// propagating again after each pass that removed something, until none
/// does or the board is solved or dead. Whether the board is alive.
#[inline(always)]
fn with_pairs<L: Lanes>(k: L, bd: &mut Board, layouts: bool) -> bool {
    if !layouts {
        return true;
    }
    while !bd.is_solved() && hidden_pairs(k, bd) {
        if !propagate(k, bd, Act::None, layouts, Fixpoint::Full) {
            return false;
        }
    }
    true
}

/// Count a new node; the stop reason if a limit says stop.
#[inline(always)]
fn enter(o: &mut Outcome, limits: &Limits, slow: bool, max_nodes: u64) -> Option<StopReason> {
    if o.nodes >= max_nodes {
        return Some(StopReason::NodeLimit);
    }
    o.nodes += 1;
    if slow && o.nodes % POLL_EVERY == 0 {
        return limits.poll();
    }
    None
}
