//! proptest strategies with a solution planted by construction.
//!
//! A solved grid comes from the generator's own filler
//! ([`sudoku_core::generate::random_full_grid`], randomised backtracking)
//! seeded by proptest, so the grids are as varied as the generator's, not
//! the symmetries of one pattern. Removing clues from it gives a puzzle
//! whose solutions include the grid.

use proptest::prelude::*;
use sudoku_core::generate::{SplitMix64, random_full_grid};
use sudoku_core::{Grid, Size};

/// A random solved grid of `size`, from the generator with a random seed.
pub fn solved_grid(size: Size) -> impl Strategy<Value = Grid> {
    any::<u64>().prop_map(move |seed| {
        random_full_grid(size, &mut SplitMix64::new(seed), None)
            .expect("without a deadline the filler always ends with a grid")
    })
}

/// A puzzle with its planted solution: a random solved grid of `size` with
/// each cell emptied with probability `empty` (0.0..=1.0).
pub fn puzzle_with_solution(size: Size, empty: f64) -> impl Strategy<Value = (Grid, Grid)> {
    let cells = size.cells();
    (
        solved_grid(size),
        proptest::collection::vec(proptest::bool::weighted(empty), cells),
    )
        .prop_map(|(solution, holes)| {
            let mut puzzle = solution.clone();
            for (cell, hole) in holes.into_iter().enumerate() {
                if hole {
                    puzzle.set(cell, 0);
                }
            }
            (puzzle, solution)
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;

    #[test]
    fn solved_grids_obey_the_rules() {
        let mut runner = TestRunner::deterministic();
        for size in [Size::FOUR, Size::NINE, Size::SIXTEEN, Size::TWENTY_FIVE] {
            for _ in 0..20 {
                let g = solved_grid(size)
                    .new_tree(&mut runner)
                    .expect("strategy runs")
                    .current();
                assert_eq!(g.size(), size);
                assert!(g.is_full());
                assert_eq!(g.first_conflict(), None, "{g}");
            }
        }
    }

    #[test]
    fn puzzles_keep_their_solution() {
        let mut runner = TestRunner::deterministic();
        for _ in 0..20 {
            let (p, s) = puzzle_with_solution(Size::NINE, 0.5)
                .new_tree(&mut runner)
                .expect("strategy runs")
                .current();
            assert!(s.is_solution_of(&p));
            assert!(p.given_count() < 81);
        }
    }
}
