//! proptest strategies with a solution planted by construction.
//!
//! A solved grid comes from the pattern `(b·(r mod b) + r div b + c) mod n + 1`
//! (a valid solution for box size b), then transformations that keep every
//! rule: relabel the digits, permute the bands and the rows inside each band,
//! the stacks and the columns inside each stack, and maybe transpose. Removing
//! clues from it gives a puzzle whose solutions include the grid.

use proptest::prelude::*;
use sudoku_core::{Grid, Size};

fn perm(n: usize) -> impl Strategy<Value = Vec<usize>> {
    Just((0..n).collect::<Vec<usize>>()).prop_shuffle()
}

/// `b` permutations of `0..b` (one per band or stack) plus the order of the
/// bands/stacks themselves: a permutation of `0..n` that keeps bands whole.
fn line_perm(b: usize) -> impl Strategy<Value = Vec<usize>> {
    (perm(b), proptest::collection::vec(perm(b), b)).prop_map(move |(bands, inner)| {
        let mut out = Vec::with_capacity(b * b);
        for &band in &bands {
            for &k in &inner[band] {
                out.push(band * b + k);
            }
        }
        out
    })
}

/// A random solved grid of `size`.
pub fn solved_grid(size: Size) -> impl Strategy<Value = Grid> {
    let b = size.box_size();
    let n = size.side();
    (perm(n), line_perm(b), line_perm(b), any::<bool>()).prop_map(
        move |(digits, rows, cols, transpose)| {
            let mut cells = vec![0u8; n * n];
            for (r, &pr) in rows.iter().enumerate() {
                for (c, &pc) in cols.iter().enumerate() {
                    let d = (b * (pr % b) + pr / b + pc) % n;
                    let at = if transpose { c * n + r } else { r * n + c };
                    cells[at] = digits[d] as u8 + 1;
                }
            }
            Grid::from_cells(cells).expect("a pattern grid has a valid size and digits")
        },
    )
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
