//! `cached`: backtracking over a candidate cache.
//!
//! Before the search, compute once, for each empty cell, the digits its
//! givens' peers leave; the search then fills the first empty cell with only
//! those digits, still checking each against the cells filled so far by
//! scanning its row, column and box, as [`naive`](super::naive) does.
//!
//! Statistics: a node is a digit placed (plus the root); a guess is a digit
//! placed in a cell whose cached list has more than one digit; depth is the
//! number of cells filled by the search; `peak_bytes` is the working grid,
//! the cache and the peak stack.

use std::ops::ControlFlow;

use super::naive::fits;
use super::{
    Budget, FnTrace, Limits, NoTrace, Report, Solver, Stats, StopReason, TraceStep, Tracer,
};
use crate::Candidates;
use crate::grid::Grid;

/// Backtracking over candidates computed once. See the [module docs](self).
#[derive(Debug, Default)]
pub struct Cached {
    /// Empty cells in order, with their cached candidate masks.
    empties: Vec<(u32, u32)>,
    work: Option<Grid>,
}

impl Cached {
    /// A solver with empty buffers.
    pub fn new() -> Self {
        Self::default()
    }

    fn run<T: Tracer>(
        &mut self,
        puzzle: &Grid,
        budget: &mut Budget<'_>,
        stats: &mut Stats,
        on_solution: &mut dyn FnMut(&Grid) -> ControlFlow<()>,
        trace: &mut T,
    ) -> StopReason {
        if budget.solutions_done() {
            return StopReason::SolutionLimit;
        }
        if let Err(r) = budget.enter(stats) {
            return r;
        }
        let size = puzzle.size();
        if puzzle.first_conflict().is_some() {
            trace.step(TraceStep::Conflict);
            return StopReason::Exhausted;
        }
        let cands = Candidates::from_grid(puzzle);
        self.empties.clear();
        self.empties.extend(
            puzzle
                .cells()
                .iter()
                .enumerate()
                .filter(|&(_, &d)| d == 0)
                .map(|(c, _)| (c as u32, cands.mask(c))),
        );
        stats.peak_bytes = (size.cells() + self.empties.len() * 8) as u64;
        if let Some(&(cell, _)) = self.empties.iter().find(|&&(_, m)| m == 0) {
            trace.step(TraceStep::DeadEnd {
                cell: cell as usize,
            });
            return StopReason::Exhausted;
        }
        let work = match &mut self.work {
            Some(w) if w.size() == size => {
                w.cells_mut().copy_from_slice(puzzle.cells());
                w
            }
            slot => slot.insert(puzzle.clone()),
        };
        let empties = &self.empties;
        // The stack is the prefix of `empties` filled so far: `level` cells.
        let mut level = 0usize;
        loop {
            if level == empties.len() {
                trace.step(TraceStep::Solution);
                if let Err(r) = budget.solution(work, on_solution) {
                    return r;
                }
            } else {
                level += 1;
                stats.max_depth = stats.max_depth.max(level as u32);
            }
            // Advance the cell at `level - 1` to its next cached digit that fits.
            loop {
                if level == 0 {
                    return StopReason::Exhausted;
                }
                let (cell, mask) = empties[level - 1];
                let cell = cell as usize;
                let cells = work.cells_mut();
                let cur = cells[cell];
                cells[cell] = 0;
                let choice = mask.count_ones() > 1;
                if T::ON && cur != 0 && choice {
                    trace.step(TraceStep::Backtrack {
                        depth: level as u32,
                        cell,
                    });
                }
                // Cached digits above the current one.
                let mut rest = mask & !((1u32 << cur) - 1);
                let mut placed = false;
                while rest != 0 {
                    let d = rest.trailing_zeros() as u8 + 1;
                    rest &= rest - 1;
                    if fits(cells, size, cell, d) {
                        if let Err(r) = budget.enter(stats) {
                            return r;
                        }
                        stats.guesses += u64::from(choice);
                        if T::ON {
                            trace.step(if choice {
                                let candidates = (1..=size.side() as u8)
                                    .filter(|&k| mask & (1 << (k - 1)) != 0)
                                    .filter(|&k| fits(cells, size, cell, k))
                                    .collect();
                                TraceStep::Try {
                                    depth: level as u32,
                                    cell,
                                    candidates,
                                    digit: d,
                                }
                            } else {
                                TraceStep::NakedSingle { cell, digit: d }
                            });
                        }
                        cells[cell] = d;
                        placed = true;
                        break;
                    }
                }
                if placed {
                    break;
                }
                if cur == 0 {
                    trace.step(TraceStep::DeadEnd { cell });
                }
                level -= 1;
            }
        }
    }
}

impl Solver for Cached {
    fn name(&self) -> &'static str {
        super::Method::Cached.name()
    }

    fn search(
        &mut self,
        puzzle: &Grid,
        limits: &Limits,
        on_solution: &mut dyn FnMut(&Grid) -> ControlFlow<()>,
    ) -> Report {
        Budget::timed(limits, |budget, stats| {
            self.run(puzzle, budget, stats, on_solution, &mut NoTrace)
        })
    }

    /// The trace, as [`naive`](super::naive)'s: singles and tries among
    /// the cached digits that still fit, dead ends and backtracks.
    fn search_traced(
        &mut self,
        puzzle: &Grid,
        limits: &Limits,
        on_solution: &mut dyn FnMut(&Grid) -> ControlFlow<()>,
        trace: &mut dyn FnMut(&TraceStep),
    ) -> Option<Report> {
        Some(Budget::timed(limits, |budget, stats| {
            self.run(puzzle, budget, stats, on_solution, &mut FnTrace(trace))
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Size;

    #[test]
    fn empty_4x4_has_288_solutions() {
        let (count, report) =
            Cached::new().count(&Grid::empty(Size::FOUR), u64::MAX, &Limits::none());
        assert_eq!(count, 288);
        assert_eq!(report.stop, StopReason::Exhausted);
    }

    #[test]
    fn cell_without_candidates_has_no_solution() {
        // r1c4 sees 1, 2, 3 in its row and 4 in its column.
        let mut g = Grid::empty(Size::FOUR);
        for (c, d) in [(0, 1), (1, 2), (2, 3), (15, 4)] {
            g.set(c, d);
        }
        let (count, report) = Cached::new().count(&g, 2, &Limits::none());
        assert_eq!((count, report.stop), (0, StopReason::Exhausted));
    }

    #[test]
    fn the_trace_has_a_try_per_guess_and_ends_in_the_solutions() {
        crate::solve::check_trace(Cached::new);
    }
}
