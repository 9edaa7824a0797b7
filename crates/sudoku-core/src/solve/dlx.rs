//! The Dancing Links methods, on the `exact-cover` engine (no private copy):
//!
//! - `dlx-first`: the full reduction, branching on the first uncovered
//!   column (no heuristic; the study found it disastrously slow, so give it
//!   a node limit);
//! - `dlx`: the full reduction, branching on a column with the fewest rows;
//! - `dlx-pruned`: givens placed before the search, conflicting rows never
//!   inserted, fewest-rows column choice. The full reduction of the empty
//!   grid is loaded once per size and each puzzle's givens are
//!   [selected](exact_cover::Dlx::select) on it: their items are covered
//!   and the rows that conflict with them are hidden before the search
//!   starts, so the search sees exactly the pruned matrix (the statistics
//!   report its size) without building and loading a problem per puzzle.

use crate::time::Instant;
use std::ops::ControlFlow;

use exact_cover::{Config, Dlx, Heuristic, Observer, Problem};

use super::encode::{Encoder, Reduction, item_name};
use super::{Limits, Report, Solver, Stats, StopReason, TraceStep};
use crate::grid::Grid;

/// Which DLX method.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DlxMethod {
    /// Full reduction, first column.
    First,
    /// Full reduction, minimum-size column.
    Mrv,
    /// Pruned reduction, minimum-size column.
    Pruned,
}

/// A Sudoku solver on Dancing Links; reusable across puzzles.
#[derive(Clone, Debug)]
pub struct DlxSolver {
    method: DlxMethod,
    encoder: Encoder,
    problem: Problem,
    dlx: Option<Dlx>,
    /// `dlx-pruned`: the side of the empty grid loaded in `dlx`.
    loaded_side: usize,
    /// `dlx-pruned`: rows of the pruned matrix of the last puzzle.
    pruned_rows: usize,
    /// Scratch: digits used in each row, column and box (bit d-1).
    used: Vec<u32>,
    /// Each cell's row, column and box as indices into `used`, for the
    /// loaded side (no divisions per puzzle).
    units: Vec<[u16; 3]>,
    solution: Grid,
}

impl DlxSolver {
    /// A solver for one of the DLX methods.
    pub fn new(method: DlxMethod) -> DlxSolver {
        DlxSolver {
            method,
            encoder: Encoder::default(),
            problem: Problem::default(),
            dlx: None,
            loaded_side: 0,
            pruned_rows: 0,
            used: Vec::new(),
            units: Vec::new(),
            solution: Grid::empty(crate::grid::Size::NINE),
        }
    }

    fn reduction(&self) -> Reduction {
        match self.method {
            DlxMethod::Pruned => Reduction::Pruned,
            _ => Reduction::Full,
        }
    }

    /// `dlx-pruned`: select the givens on the empty grid's reduction (loaded
    /// once per size); `false` when the givens conflict.
    fn prepare_pruned(&mut self, puzzle: &Grid) -> bool {
        let size = puzzle.size();
        let n = size.side();
        if self.solution.size() != size {
            self.solution = Grid::empty(size);
        }
        let dlx = match &mut self.dlx {
            Some(d) if self.loaded_side == n => {
                d.unselect_all();
                d
            }
            slot => {
                self.encoder
                    .encode(&Grid::empty(size), Reduction::Full, &mut self.problem)
                    .expect("the Sudoku encoding is always a valid problem");
                self.loaded_side = n;
                self.units = (0..n * n)
                    .map(|c| {
                        let (r, col, b) = (size.row_of(c), size.col_of(c), size.box_of(c));
                        [r as u16, (n + col) as u16, (2 * n + b) as u16]
                    })
                    .collect();
                slot.insert(Dlx::new(&self.problem))
            }
        };
        self.pruned_rows = 0;
        for (cell, &g) in puzzle.cells().iter().enumerate() {
            // option k of the empty grid's reduction places digit k % n + 1 in cell k / n
            if g != 0 && !dlx.select(cell * n + g as usize - 1) {
                return false;
            }
        }
        // the rows left: every digit of an empty cell that no given in its
        // row, column or box excludes (the pruned reduction's rows)
        self.used.clear();
        self.used.resize(3 * n, 0);
        for (&g, u) in puzzle.cells().iter().zip(&self.units) {
            if g != 0 {
                for &k in u {
                    self.used[k as usize] |= 1 << (g - 1);
                }
            }
        }
        let all = (1u64 << n) as u32 - 1;
        for (&g, u) in puzzle.cells().iter().zip(&self.units) {
            if g == 0 {
                let used = u.iter().fold(0, |m, &k| m | self.used[k as usize]);
                self.pruned_rows += (all & !used).count_ones() as usize;
            }
        }
        true
    }

    /// Encode the puzzle and load it; `false` when the givens conflict.
    fn prepare(&mut self, puzzle: &Grid) -> bool {
        if self.method == DlxMethod::Pruned {
            return self.prepare_pruned(puzzle);
        }
        let ok = self
            .encoder
            .encode(puzzle, self.reduction(), &mut self.problem)
            .expect("the Sudoku encoding is always a valid problem");
        let config = Config {
            heuristic: if self.method == DlxMethod::First {
                Heuristic::First
            } else {
                Heuristic::Mrv
            },
            seed: None,
            reduce: true,
        };
        match &mut self.dlx {
            Some(d) => {
                d.set_config(config);
                d.load(&self.problem);
            }
            none => *none = Some(Dlx::with_config(&self.problem, config)),
        }
        if self.solution.size() != puzzle.size() {
            self.solution = Grid::empty(puzzle.size());
        }
        ok
    }

    fn run(
        &mut self,
        puzzle: &Grid,
        limits: &Limits,
        on_solution: &mut dyn FnMut(&Grid) -> ControlFlow<()>,
        trace: Option<&mut dyn FnMut(&TraceStep)>,
    ) -> Report {
        let start = Instant::now();
        let ok = self.prepare(puzzle);
        let (rows, nodes) = match self.method {
            // four items per row
            DlxMethod::Pruned if ok => (self.pruned_rows, 4 * self.pruned_rows),
            DlxMethod::Pruned => (0, 0),
            _ => (self.problem.option_count(), self.problem.entry_count()),
        };
        let mut stats = Stats {
            matrix_rows: rows as u64,
            matrix_nodes: nodes as u64,
            ..Stats::default()
        };
        if !ok {
            if let Some(t) = trace {
                t(&TraceStep::Conflict);
            }
            stats.time = start.elapsed();
            return Report {
                stats,
                stop: StopReason::Exhausted,
            };
        }
        let dlx = self.dlx.as_mut().expect("prepared");
        let placements = &self.encoder.placements;
        let solution = &mut self.solution;
        let mut visit = |opts: &[usize]| {
            solution.cells_mut().copy_from_slice(puzzle.cells());
            for &k in opts {
                let (cell, d) = placements[k];
                if cell != u32::MAX {
                    solution.cells_mut()[cell as usize] = d;
                }
            }
            on_solution(solution)
        };
        let r = match trace {
            Some(trace) => {
                let mut tracer = Tracer {
                    encoder: &self.encoder,
                    size: puzzle.size(),
                    trace,
                };
                dlx.search_observed(limits, &mut visit, &mut tracer)
            }
            None => dlx.search_observed(limits, &mut visit, &mut exact_cover::NoObserver),
        };
        stats.time = start.elapsed();
        stats.nodes = r.stats.nodes;
        stats.guesses = r.stats.guesses;
        stats.solutions = r.stats.solutions;
        stats.max_depth = r.stats.max_depth;
        stats.peak_bytes = r.stats.peak_bytes + self.encoder.bytes() as u64;
        Report {
            stats,
            stop: r.stop,
        }
    }
}

/// Turns engine events into trace steps.
struct Tracer<'a, 't> {
    encoder: &'a Encoder,
    size: crate::grid::Size,
    trace: &'t mut dyn FnMut(&TraceStep),
}

impl Observer for Tracer<'_, '_> {
    fn choose(&mut self, depth: usize, item: usize, choices: u64) {
        let full = self.encoder.item_names[item];
        (self.trace)(&TraceStep::Column {
            depth: depth as u32,
            constraint: item_name(self.size, full),
            options: choices as usize,
        });
    }
    fn try_option(&mut self, depth: usize, option: usize) {
        let (cell, digit) = self.encoder.placements[option];
        if cell != u32::MAX {
            (self.trace)(&TraceStep::Place {
                depth: depth as u32,
                cell: cell as usize,
                digit,
            });
        }
    }
    fn dead_end(&mut self, depth: usize, item: usize) {
        let full = self.encoder.item_names[item];
        (self.trace)(&TraceStep::Column {
            depth: depth as u32,
            constraint: item_name(self.size, full),
            options: 0,
        });
    }
    fn backtrack(&mut self, depth: usize) {
        (self.trace)(&TraceStep::Undo {
            depth: depth as u32,
        });
    }
    fn solution(&mut self, _depth: usize) {
        (self.trace)(&TraceStep::Solution);
    }
}

impl Solver for DlxSolver {
    fn name(&self) -> &'static str {
        let method = match self.method {
            DlxMethod::First => super::Method::DlxFirst,
            DlxMethod::Mrv => super::Method::Dlx,
            DlxMethod::Pruned => super::Method::DlxPruned,
        };
        method.name()
    }

    fn search(
        &mut self,
        puzzle: &Grid,
        limits: &Limits,
        on_solution: &mut dyn FnMut(&Grid) -> ControlFlow<()>,
    ) -> Report {
        self.run(puzzle, limits, on_solution, None)
    }

    fn search_traced(
        &mut self,
        puzzle: &Grid,
        limits: &Limits,
        on_solution: &mut dyn FnMut(&Grid) -> ControlFlow<()>,
        trace: &mut dyn FnMut(&TraceStep),
    ) -> Option<Report> {
        Some(self.run(puzzle, limits, on_solution, Some(trace)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solve::Uniqueness;

    fn grid(line: &str) -> Grid {
        let n = line.len();
        let side = (n as f64).sqrt() as u8;
        let cells = line
            .chars()
            .map(|c| match c {
                '.' | '0' => 0,
                c if c.is_ascii_digit() => c as u8 - b'0',
                c => c.to_ascii_uppercase() as u8 - b'A' + 10,
            })
            .collect();
        let g = Grid::from_cells(cells).unwrap();
        assert_eq!(g.side(), side as usize);
        g
    }

    const PUZZLE: &str =
        ".3..9..5.....1...45..8....7....3.2..6....9.4...7..25.......19....69....812.....7.";
    const SOLUTION: &str =
        "734296851268517394591843627915734286682159743347682519853471962476925138129368475";

    /// The solution with its last 30 cells blanked: easy enough for
    /// dlx-first, which places a given only when it reaches the given's cell
    /// (blanks at the top would make it enumerate whole bands first).
    fn near_complete() -> Grid {
        let mut g = grid(SOLUTION);
        (45..81).step_by(2).for_each(|c| g.set(c, 0));
        g
    }

    #[test]
    fn dlx_first_solves_near_complete_grids() {
        let mut s = DlxSolver::new(DlxMethod::First);
        let (u, r) = s.uniqueness(&near_complete(), &Limits::none());
        let (v, _) = DlxSolver::new(DlxMethod::Mrv).uniqueness(&near_complete(), &Limits::none());
        assert_eq!(u, v);
        assert!(matches!(u, Uniqueness::Unique(_)));
        assert!(r.stats.guesses > 0 || r.stats.nodes > 18);
    }

    #[test]
    fn every_method_solves_the_issue_puzzle_uniquely() {
        // dlx-first is the no-heuristic baseline: far too slow for this
        // puzzle (see dlx_first_solves_near_complete_grids)
        for m in [DlxMethod::Mrv, DlxMethod::Pruned] {
            let mut s = DlxSolver::new(m);
            let (u, r) = s.uniqueness(&grid(PUZZLE), &Limits::none());
            assert_eq!(u, Uniqueness::Unique(grid(SOLUTION)), "{}", s.name());
            assert_eq!(r.stop, StopReason::Exhausted);
            assert!(r.stats.nodes > 0 && r.stats.peak_bytes > 0);
        }
    }

    #[test]
    fn full_reduction_has_givens_plus_nine_rows_per_empty_cell() {
        let p = grid(PUZZLE);
        let givens = p.given_count() as u64;
        let mut s = DlxSolver::new(DlxMethod::Mrv);
        let (_, r) = s.first(&p, &Limits::none());
        assert_eq!(r.stats.matrix_rows, givens + (81 - givens) * 9);
        assert_eq!(r.stats.matrix_nodes, 4 * r.stats.matrix_rows);
        let mut pruned = DlxSolver::new(DlxMethod::Pruned);
        let (_, rp) = pruned.first(&p, &Limits::none());
        assert!(rp.stats.matrix_rows < (81 - givens) * 9);
    }

    #[test]
    fn pruned_statistics_describe_the_pruned_matrix() {
        use crate::solve::encode::{Encoder, Reduction};
        let mut pruned = DlxSolver::new(DlxMethod::Pruned);
        for g in [grid(PUZZLE), near_complete(), grid(SOLUTION)] {
            let mut problem = Problem::default();
            assert!(
                Encoder::default()
                    .encode(&g, Reduction::Pruned, &mut problem)
                    .unwrap()
            );
            let (_, r) = pruned.first(&g, &Limits::none());
            if g.given_count() < 81 {
                assert_eq!(r.stats.matrix_rows, problem.option_count() as u64);
                assert_eq!(r.stats.matrix_nodes, problem.entry_count() as u64);
            } else {
                assert_eq!(r.stats.matrix_rows, 0);
            }
        }
    }

    #[test]
    fn conflicting_givens_have_no_solution() {
        let mut bad = grid(PUZZLE);
        bad.set(0, 3); // a second 3 in row 1
        for m in [DlxMethod::First, DlxMethod::Mrv, DlxMethod::Pruned] {
            let (u, _) = DlxSolver::new(m).uniqueness(&bad, &Limits::none());
            assert_eq!(u, Uniqueness::NoSolution);
        }
    }

    #[test]
    fn multiple_solutions_and_other_sizes() {
        let empty4 = Grid::empty(crate::grid::Size::FOUR);
        for m in [DlxMethod::First, DlxMethod::Mrv, DlxMethod::Pruned] {
            let mut s = DlxSolver::new(m);
            let (n, r) = s.count(&empty4, 1000, &Limits::none());
            assert_eq!((n, r.stop), (288, StopReason::Exhausted), "{}", s.name());
            let mut two = near_complete();
            // with the whole bottom band blank, several solutions remain
            for c in 54..81 {
                two.set(c, 0);
            }
            let (u, _) = s.uniqueness(&two, &Limits::none());
            assert!(matches!(u, Uniqueness::Multiple(..)), "{}", s.name());
        }
        // 16x16: the empty grid has a first solution
        let empty16 = Grid::empty(crate::grid::Size::SIXTEEN);
        let (g, _) = DlxSolver::new(DlxMethod::Pruned).first(&empty16, &Limits::none());
        assert!(g.unwrap().is_solution_of(&empty16));
    }

    #[test]
    fn a_full_valid_grid_is_its_own_solution() {
        for m in [DlxMethod::Mrv, DlxMethod::Pruned] {
            let (u, _) = DlxSolver::new(m).uniqueness(&grid(SOLUTION), &Limits::none());
            assert_eq!(u, Uniqueness::Unique(grid(SOLUTION)));
        }
    }

    #[test]
    fn node_limit_makes_the_answer_unknown() {
        let hard = grid(
            "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..",
        );
        let (u, r) =
            DlxSolver::new(DlxMethod::First).uniqueness(&hard, &Limits::none().with_max_nodes(10));
        assert_eq!(u, Uniqueness::Unknown(StopReason::NodeLimit));
        assert!(r.stop.is_cut_short());
    }

    #[test]
    fn trace_names_constraints_and_placements() {
        let mut steps = Vec::new();
        let mut s = DlxSolver::new(DlxMethod::Pruned);
        s.search_traced(
            &grid(PUZZLE),
            &Limits::none(),
            &mut |_| ControlFlow::Continue(()),
            &mut |t| steps.push(t.clone()),
        )
        .unwrap();
        assert!(steps.iter().any(|t| matches!(t, TraceStep::Place { .. })));
        assert!(steps.iter().any(|t| matches!(t, TraceStep::Column { constraint, .. } if constraint.contains("needs") || constraint.starts_with('r'))));
        assert_eq!(
            steps
                .iter()
                .filter(|t| matches!(t, TraceStep::Solution))
                .count(),
            1
        );
    }
}
