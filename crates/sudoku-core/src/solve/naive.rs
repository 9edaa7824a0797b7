//! `naive`: plain backtracking, the readable oracle.
//!
//! Fill the first empty cell with the first digit 1..=n that does not repeat
//! in its row, column or box (checked by scanning them), move on to the next
//! empty cell, and when a cell has no digit left, go back to the previous one
//! and try its next digit. The search keeps its own stack on the heap rather
//! than recursing.
//!
//! Statistics: a node is a digit placed (plus the root); a guess is a digit
//! placed in a cell where more than one digit fit when the search first
//! reached it (counted with one extra scan per cell, which does not change
//! the search); depth is the number of cells filled by the search;
//! `peak_bytes` is the working grid plus the peak stack.

use std::ops::ControlFlow;

use super::{
    Budget, FnTrace, Limits, NoTrace, Report, Solver, Stats, StopReason, TraceStep, Tracer,
};
use crate::grid::{Grid, Size};

/// Whether digit `d` can go in `cell` of `cells`: no other cell of its row,
/// column or box holds it (found by scanning the three houses).
pub(crate) fn fits(cells: &[u8], size: Size, cell: usize, d: u8) -> bool {
    let n = size.side();
    let b = size.box_size();
    let (r, c) = (size.row_of(cell), size.col_of(cell));
    for k in 0..n {
        if (cells[r * n + k] == d && k != c) || (cells[k * n + c] == d && k != r) {
            return false;
        }
    }
    let (r0, c0) = (r / b * b, c / b * b);
    for rr in r0..r0 + b {
        for cc in c0..c0 + b {
            if (rr, cc) != (r, c) && cells[rr * n + cc] == d {
                return false;
            }
        }
    }
    true
}

/// One filled cell on the stack.
#[derive(Clone, Copy, Debug)]
struct Frame {
    cell: u32,
    /// More than one digit fit when the search reached the cell.
    choice: bool,
}

/// Plain backtracking over the cells in order. See the [module docs](self).
#[derive(Debug, Default)]
pub struct Naive {
    stack: Vec<Frame>,
    work: Option<Grid>,
}

impl Naive {
    /// A solver with empty buffers.
    pub fn new() -> Self {
        Self::default()
    }
}

impl Solver for Naive {
    fn name(&self) -> &'static str {
        super::Method::Naive.name()
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

    /// The trace: a cell where one digit fits is a naked single, a cell
    /// where several fit a try (with the digits that fit); a cell where
    /// none fits is a dead end, and going back to an earlier cell for its
    /// next digit a backtrack.
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

impl Naive {
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
        let n = size.side() as u8;
        let total = size.cells();
        stats.peak_bytes = total as u64;
        if puzzle.first_conflict().is_some() {
            trace.step(TraceStep::Conflict);
            return StopReason::Exhausted;
        }
        let work = match &mut self.work {
            Some(w) if w.size() == size => {
                w.cells_mut().copy_from_slice(puzzle.cells());
                w
            }
            slot => slot.insert(puzzle.clone()),
        };
        let stack = &mut self.stack;
        stack.clear();
        let next_empty =
            |cells: &[u8], from: usize| (from..total).find(|&c| cells[c] == 0).unwrap_or(total);
        let mut pos = next_empty(work.cells(), 0);
        loop {
            if pos == total {
                trace.step(TraceStep::Solution);
                if let Err(r) = budget.solution(work, on_solution) {
                    return r;
                }
            } else {
                let cells = work.cells();
                let fitting = (1..=n).filter(|&d| fits(cells, size, pos, d)).take(2);
                stack.push(Frame {
                    cell: pos as u32,
                    choice: fitting.count() > 1,
                });
                stats.max_depth = stats.max_depth.max(stack.len() as u32);
                stats.peak_bytes = stats
                    .peak_bytes
                    .max((total + stack.len() * size_of::<Frame>()) as u64);
            }
            // Advance the top cell to its next fitting digit, popping exhausted cells.
            loop {
                let Some(top) = stack.last().copied() else {
                    return StopReason::Exhausted;
                };
                let cell = top.cell as usize;
                let depth = stack.len() as u32;
                let cells = work.cells_mut();
                let from = cells[cell] + 1;
                cells[cell] = 0;
                if T::ON && from > 1 && top.choice {
                    trace.step(TraceStep::Backtrack { depth, cell });
                }
                if let Some(d) = (from..=n).find(|&d| fits(cells, size, cell, d)) {
                    if let Err(r) = budget.enter(stats) {
                        return r;
                    }
                    stats.guesses += u64::from(top.choice);
                    if T::ON {
                        trace.step(if top.choice {
                            let candidates =
                                (1..=n).filter(|&d| fits(cells, size, cell, d)).collect();
                            TraceStep::Try {
                                depth,
                                cell,
                                candidates,
                                digit: d,
                            }
                        } else {
                            TraceStep::NakedSingle { cell, digit: d }
                        });
                    }
                    cells[cell] = d;
                    pos = next_empty(cells, cell + 1);
                    break;
                }
                if from == 1 {
                    trace.step(TraceStep::DeadEnd { cell });
                }
                stack.pop();
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fits_scans_row_column_and_box() {
        let mut g = Grid::empty(Size::FOUR);
        g.set(0, 1); // r1c1
        let s = Size::FOUR;
        assert!(!fits(g.cells(), s, s.cell(0, 3), 1), "row");
        assert!(!fits(g.cells(), s, s.cell(3, 0), 1), "column");
        assert!(!fits(g.cells(), s, s.cell(1, 1), 1), "box");
        assert!(fits(g.cells(), s, s.cell(2, 2), 1));
        assert!(fits(g.cells(), s, s.cell(0, 3), 2));
    }

    #[test]
    fn empty_4x4_has_288_solutions() {
        let (count, report) =
            Naive::new().count(&Grid::empty(Size::FOUR), u64::MAX, &Limits::none());
        assert_eq!(count, 288);
        assert_eq!(report.stop, StopReason::Exhausted);
        assert_eq!(report.stats.max_depth, 16);
    }

    #[test]
    fn the_trace_has_a_try_per_guess_and_ends_in_the_solutions() {
        crate::solve::check_trace(Naive::new);
    }
}
