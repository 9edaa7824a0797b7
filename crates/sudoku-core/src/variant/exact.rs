//! Region-only variants as exact cover, on the [`exact_cover`] engines.
//!
//! When every constraint of a puzzle only adds or changes regions
//! (diagonals, windoku, disjoint groups, jigsaw; see
//! [`Puzzle::is_region_only`]), the puzzle is exact cover, as a classic
//! Sudoku is: one primary item per cell (it holds a digit) and one per
//! region and digit (the region holds it), and one option per cell and
//! candidate covering the cell's item and the (region, digit) item of each
//! region the cell is in. Givens and candidate lists only leave options out.
//! This extends the classic encoding ([`crate::solve::encode`]) to any set
//! of regions, so the same puzzles can be solved by Dancing Links or dancing
//! cells and compared with the propagating [`VariantSolver`](super::VariantSolver).

use crate::time::Instant;
use std::ops::ControlFlow;

use exact_cover::{Cells, Dlx, Problem, ProblemBuilder};

use super::{Puzzle, VariantError};
use crate::solve::{Limits, Report, Stats};

/// Which exact-cover engine to run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Engine {
    /// Dancing Links ([`Dlx`]).
    Links,
    /// Dancing cells ([`Cells`]).
    Cells,
}

/// A region-only puzzle as an exact-cover problem, with the (cell, digit)
/// each option places.
#[derive(Clone, Debug)]
pub struct Encoded {
    /// The problem.
    pub problem: Problem,
    /// Per option, the cell (row-major index) and digit it places.
    pub placements: Vec<(u16, u8)>,
    cells: usize,
}

/// Encode a region-only puzzle; an error names the first constraint that is
/// not a region.
pub fn encode(puzzle: &Puzzle) -> Result<Encoded, VariantError> {
    if let Some(c) = puzzle.constraints.iter().find(|c| !c.is_region()) {
        return Err(c.error(
            "only regions (diagonals, windoku, disjoint groups, jigsaw) are exact cover".into(),
        ));
    }
    let model = puzzle.lower()?;
    let n = model.n;
    let cells = n * n;
    let mut houses_of: Vec<Vec<u32>> = vec![Vec::new(); cells];
    for (h, house) in model.houses.iter().enumerate() {
        for &c in house {
            houses_of[c as usize].push(h as u32);
        }
    }
    let mut b = ProblemBuilder::with_items(cells + model.houses.len() * n, 0);
    let mut placements = Vec::new();
    let mut items = Vec::with_capacity(8);
    for (c, &mask) in model.init.iter().enumerate() {
        for d in super::solver::digits(mask) {
            items.clear();
            items.push(c as u32);
            items.extend(
                houses_of[c]
                    .iter()
                    .map(|&h| (cells + h as usize * n) as u32 + d as u32 - 1),
            );
            b.option_ids(&items);
            placements.push((c as u16, d));
        }
    }
    let problem = b.build().map_err(|e| VariantError::Constraint {
        constraint: "regions".into(),
        message: e.to_string(),
    })?;
    Ok(Encoded {
        problem,
        placements,
        cells,
    })
}

impl Encoded {
    /// Visit solutions (digits row-major) with the chosen engine, under
    /// `limits`; the report has the engine's node and guess counts.
    pub fn search(
        &self,
        engine: Engine,
        limits: &Limits,
        on_solution: &mut dyn FnMut(&[u8]) -> ControlFlow<()>,
    ) -> Report {
        let start = Instant::now();
        let mut values = vec![0u8; self.cells];
        let mut visit = |options: &[usize]| {
            for &o in options {
                let (c, d) = self.placements[o];
                values[c as usize] = d;
            }
            on_solution(&values)
        };
        let report = match engine {
            Engine::Links => Dlx::new(&self.problem).search(limits, &mut visit),
            Engine::Cells => match Cells::new(&self.problem) {
                Ok(mut cells) => cells.search(limits, &mut visit),
                Err(_) => Dlx::new(&self.problem).search(limits, &mut visit),
            },
        };
        let mut stats = Stats::default();
        stats.nodes = report.stats.nodes;
        stats.guesses = report.stats.guesses;
        stats.solutions = report.stats.solutions;
        stats.max_depth = report.stats.max_depth;
        stats.peak_bytes = report.stats.peak_bytes;
        stats.matrix_rows = self.problem.option_count() as u64;
        stats.matrix_nodes = self.problem.entry_count() as u64;
        stats.time = start.elapsed();
        Report {
            stats,
            stop: report.stop,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variant::VariantSolver;

    #[test]
    fn engines_agree_with_the_propagating_solver() {
        // ISS's jigsaw example with its boxes taken away: several solutions.
        let text = ".Jigsaw~001122222000103332100143332111143332504444462577748888577748668577768666555558866.NoBoxes.~R1C1_4~R1C9_7~R3C1_1~R3C2_5~R3C9_4~R4C3_3~R4C7_7~R5C1_9~R5C3_1~R5C7_8~R5C9_6~R6C3_8~R6C7_4~R7C1_2~R7C9_8~R9C1_7~R9C9_9";
        let p: Puzzle = text.parse().expect("reads");
        let e = encode(&p).expect("region only");
        let (want, _) = VariantSolver::new(&p)
            .expect("builds")
            .count(10, &Limits::default());
        assert_eq!(want, 10);
        // With its boxes it is unique, for all three.
        let boxed: Puzzle = text.replace(".NoBoxes", "").parse().expect("reads");
        let (one, _) = VariantSolver::new(&boxed)
            .expect("builds")
            .count(2, &Limits::default());
        assert_eq!(one, 1);
        for engine in [Engine::Links, Engine::Cells] {
            let r = encode(&boxed).expect("region only").search(
                engine,
                &Limits::default(),
                &mut |_| ControlFlow::Continue(()),
            );
            assert_eq!(r.stats.solutions, 1, "{engine:?}");
        }
        for engine in [Engine::Links, Engine::Cells] {
            let mut found = Vec::new();
            let r = e.search(engine, &Limits::solutions(10), &mut |v| {
                found.push(crate::variant::to_line(v));
                ControlFlow::Continue(())
            });
            assert_eq!(r.stats.solutions, want, "{engine:?}");
            assert_eq!(found.len() as u64, want);
        }
        let x: Puzzle = ".Diagonal~1.Diagonal~-1.~R1C1_1".parse().expect("reads");
        assert!(encode(&x).is_ok());
        let k: Puzzle = ".Cage~3~R1C1~R1C2".parse().expect("reads");
        assert!(encode(&k).is_err());
    }
}
