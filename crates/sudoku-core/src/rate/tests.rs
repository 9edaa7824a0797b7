//! Tests of the step solver: every step checked against the unique solution
//! on slices of the standard datasets (`testdata/rate/`, each puzzle with its
//! solution), and one hand-made candidate grid per technique where it must
//! fire.

use super::*;
use crate::grid::{House, Size};

// ---------------------------------------------------------------------------
// Test-only helpers
// ---------------------------------------------------------------------------

/// Whether the slow tests run too: `SLOW_TESTS` set to anything but empty
/// or `0` (see the README, "Tests").
fn slow_tests() -> bool {
    std::env::var_os("SLOW_TESTS").is_some_and(|v| !v.is_empty() && v != "0")
}

/// A slice of `testdata/rate/`: one puzzle per line, most followed by its
/// solution (see the README there).
fn dataset(name: &str) -> String {
    let path = format!(
        "{}/../../testdata/rate/{name}.txt",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The puzzle and its stated solution on one line of a dataset. The
/// solution is checked against the rules and the givens, not trusted; with
/// `SLOW_TESTS=1` its uniqueness is checked by brute force too.
fn puzzle_and_solution(line: &str, context: &str) -> (Grid, Grid) {
    let mut fields = line.split_whitespace();
    let grid = parse(fields.next().unwrap_or(""));
    let solution = parse(
        fields
            .next()
            .unwrap_or_else(|| panic!("{context}: no solution")),
    );
    assert!(
        solution.is_solution_of(&grid),
        "{context}: the stated solution is not one"
    );
    if slow_tests() {
        assert_eq!(
            unique_solution(&grid).as_ref(),
            Some(&solution),
            "{context}: not unique"
        );
    }
    (grid, solution)
}

/// Test-only brute force: counts solutions up to 2 by backtracking on the
/// empty cell with the fewest candidates (row/column/box masks kept
/// incrementally). Returns the solution if it is unique.
fn unique_solution(grid: &Grid) -> Option<Grid> {
    struct Search {
        size: Size,
        cells: Vec<u8>,
        used: Vec<u32>, // rows, then columns, then boxes
        found: Vec<Vec<u8>>,
    }
    impl Search {
        fn houses(&self, i: usize) -> [usize; 3] {
            let n = self.size.side();
            [
                self.size.row_of(i),
                n + self.size.col_of(i),
                2 * n + self.size.box_of(i),
            ]
        }
        fn go(&mut self) {
            if self.found.len() >= 2 {
                return;
            }
            let all = (1u32 << self.size.side()) - 1;
            let mut best: Option<(usize, u32)> = None;
            for i in 0..self.cells.len() {
                if self.cells[i] != 0 {
                    continue;
                }
                let [r, c, b] = self.houses(i);
                let free = all & !(self.used[r] | self.used[c] | self.used[b]);
                if best.is_none_or(|(_, m)| free.count_ones() < m.count_ones()) {
                    best = Some((i, free));
                    if free.count_ones() <= 1 {
                        break;
                    }
                }
            }
            let Some((i, free)) = best else {
                self.found.push(self.cells.clone());
                return;
            };
            let hs = self.houses(i);
            for d in crate::candidates::digits(free) {
                self.cells[i] = d;
                hs.iter().for_each(|&h| self.used[h] |= bit(d));
                self.go();
                hs.iter().for_each(|&h| self.used[h] &= !bit(d));
                self.cells[i] = 0;
            }
        }
    }
    if grid.first_conflict().is_some() {
        return None;
    }
    let size = grid.size();
    let mut s = Search {
        size,
        cells: grid.cells().to_vec(),
        used: vec![0; 3 * size.side()],
        found: Vec::new(),
    };
    for i in 0..s.cells.len() {
        if s.cells[i] != 0 {
            let d = s.cells[i];
            for h in s.houses(i) {
                s.used[h] |= bit(d);
            }
        }
    }
    s.go();
    if s.found.len() == 1 {
        Grid::from_cells(s.found.pop()?).ok()
    } else {
        None
    }
}

fn parse(line: &str) -> Grid {
    let cells: Vec<u8> = line
        .trim()
        .chars()
        .take(81)
        .map(|ch| ch.to_digit(10).map_or(0, |d| d as u8))
        .collect();
    Grid::from_cells(cells).expect("81 cells")
}

/// Panic if a step places a wrong digit or eliminates a true candidate.
fn check_step(step: &Step, solution: &Grid, context: &str) {
    assert!(
        !step.placements.is_empty() || !step.eliminations.is_empty(),
        "{context}: empty step {step:?}"
    );
    for p in &step.placements {
        assert_eq!(
            solution.get(p.cell),
            p.digit,
            "{context}: {} placed a wrong digit: {}",
            step.technique,
            step.prose()
        );
    }
    for e in &step.eliminations {
        assert_ne!(
            solution.get(e.cell),
            e.digit,
            "{context}: {} removed a true candidate: {}",
            step.technique,
            step.prose()
        );
    }
}

/// Run the rater on every puzzle of a dataset, checking every step on the
/// path; at every state where singles do not apply, also run every technique
/// on its own and check its step. Returns per-technique counts of steps seen.
fn check_dataset(name: &str, text: &str) -> [u32; Technique::COUNT] {
    let rater = Rater::default();
    let mut seen = [0u32; Technique::COUNT];
    for (i, line) in text.lines().enumerate() {
        let context = format!("{name}:{}", i + 1);
        let (grid, solution) = puzzle_and_solution(line, &context);
        let mut c = Candidates::from_grid(&grid);
        let rating = rater.run(&grid, |step| {
            check_step(step, &solution, &context);
            seen[step.technique.index()] += 1;
            let single = step.technique <= Technique::NakedSingle;
            if !single {
                for t in Technique::ALL {
                    if let Some(s) = t.find(&c) {
                        check_step(&s, &solution, &format!("{context} (alone)"));
                        seen[t.index()] += 1;
                    }
                }
            }
            apply(&mut c, step);
        });
        assert_ne!(rating.outcome, Outcome::NoSolution, "{context}");
        if rating.is_solved() {
            assert_eq!(rating.empty_left, 0);
            assert_ne!(rating.band, Band::NeedsGuessing);
        } else {
            assert_eq!(rating.band, Band::NeedsGuessing);
            assert!(rating.empty_left > 0);
            assert!(rating.candidates_left >= rating.empty_left);
            // No enabled technique applies at the end.
            assert!(rater.next_step(&c).is_none(), "{context}: stopped early");
        }
        assert_eq!(rating.placed + rating.empty_left + rating.givens, 81);
    }
    seen
}

fn empty9() -> Candidates {
    Candidates::from_grid(&Grid::empty(Size::NINE))
}

fn cell(r: usize, c: usize) -> usize {
    r * 9 + c
}

/// A 9×9 pencilmark grid: all candidates everywhere, then the edits.
fn marks(edit: impl FnOnce(&mut Vec<u32>)) -> Candidates {
    let mut m = vec![0x1ff; 81];
    edit(&mut m);
    Candidates::with_pencilmarks(&Grid::empty(Size::NINE), &m).expect("81 masks")
}

fn mask(ds: &[u8]) -> u32 {
    ds.iter().fold(0, |m, &d| m | bit(d))
}

fn remove(m: &mut [u32], cells: impl IntoIterator<Item = usize>, d: u8) {
    for c in cells {
        m[c] &= !bit(d);
    }
}

fn elims(step: &Step) -> Vec<(usize, u8)> {
    let mut v: Vec<(usize, u8)> = step
        .eliminations
        .iter()
        .map(|e| (e.cell, e.digit))
        .collect();
    v.sort_unstable();
    v
}

fn all_elims(cells: &[usize], ds: &[u8]) -> Vec<(usize, u8)> {
    let mut v: Vec<(usize, u8)> = cells
        .iter()
        .flat_map(|&c| ds.iter().map(move |&d| (c, d)))
        .collect();
    v.sort_unstable();
    v
}

fn row_cells(r: usize) -> impl Iterator<Item = usize> {
    (0..9).map(move |c| cell(r, c))
}

fn col_cells(c: usize) -> impl Iterator<Item = usize> {
    (0..9).map(move |r| cell(r, c))
}

const SOLUTION: &str =
    "534678912672195348198342567859761423426853791713924856961537284287419635345286179";

// ---------------------------------------------------------------------------
// Datasets: every step true
// ---------------------------------------------------------------------------

macro_rules! dataset_test {
    ($name:ident, $file:literal) => {
        #[test]
        fn $name() {
            let seen = check_dataset($file, &dataset($file));
            assert!(seen.iter().sum::<u32>() > 0);
        }
    };
}

dataset_test!(steps_true_on_17_clue, "17_clue");
dataset_test!(steps_true_on_unbiased, "unbiased_1000");
dataset_test!(steps_true_on_magictour, "magictour_top1465");
dataset_test!(steps_true_on_forum_hardest_11plus, "forum_hardest_11plus");
dataset_test!(steps_true_on_forum_hardest_1106, "forum_hardest_1106");
dataset_test!(steps_true_on_norvig_top95, "norvig_top95");
dataset_test!(steps_true_on_norvig_hardest, "norvig_hardest");

#[test]
fn datasets_exercise_every_technique() {
    let mut total = [0u32; Technique::COUNT];
    for name in ["unbiased_1000", "magictour_top1465", "norvig_top95"] {
        let seen = check_dataset(name, &dataset(name));
        for (t, s) in total.iter_mut().zip(seen) {
            *t += s;
        }
    }
    let missing: Vec<&str> = Technique::ALL
        .into_iter()
        .filter(|t| total[t.index()] == 0)
        .map(|t| t.name())
        .collect();
    assert!(missing.is_empty(), "never fired: {missing:?}");
}

#[test]
fn multi_solution_puzzles_do_not_panic() {
    let rater = Rater::default();
    for line in dataset("serg_multi").lines() {
        let r = rater.rate(&parse(line));
        assert_eq!(r.placed + r.empty_left + r.givens, 81);
        assert_eq!(r.is_solved(), r.empty_left == 0);
    }
}

#[test]
fn conflicting_givens_have_no_solution() {
    let mut g = parse(SOLUTION);
    g.set(1, 5); // 5 twice in row 1
    let r = Rater::default().rate(&g);
    assert_eq!(r.outcome, Outcome::NoSolution);
    assert_eq!(r.band, Band::NeedsGuessing);
    assert_eq!(r.steps, 0);
}

#[test]
fn empty_grid_is_stuck_with_progress() {
    let r = Rater::default().rate(&Grid::empty(Size::NINE));
    assert_eq!(r.outcome, Outcome::Stuck);
    assert_eq!(r.empty_left, 81);
    assert_eq!(r.candidates_left, 729);
}

#[test]
fn singles_only_config_gets_stuck_where_all_finish() {
    // A puzzle that needs more than singles (first of norvig_top95 is hard).
    let text = dataset("unbiased_1000");
    let all = Rater::default();
    let singles = Rater::new(Config::singles());
    let mut differ = 0;
    for line in text.lines() {
        let g = parse(line);
        let a = all.rate(&g);
        let s = singles.rate(&g);
        if s.is_solved() {
            assert!(a.is_solved());
            assert_eq!(a.difficulty, s.difficulty);
            assert!(
                s.counts
                    .iter()
                    .all(|c| c.technique <= Technique::NakedSingle)
            );
        } else {
            differ += 1;
            assert!(s.placed <= a.placed);
        }
    }
    assert!(differ > 0);
}

#[test]
fn easy_puzzle_rates_easy_and_counts_add_up() {
    // Remove a few cells of a solution: full houses and hidden singles only.
    let mut g = parse(SOLUTION);
    for c in [0, 10, 20, 30, 40, 50, 60, 70, 80] {
        g.set(c, 0);
    }
    let r = Rater::default().rate(&g);
    assert!(r.is_solved());
    assert_eq!(r.band, Band::Easy);
    assert_eq!(r.counts.iter().map(|c| c.count).sum::<u32>(), r.steps);
    assert_eq!(r.placed, 9);
    assert_eq!(r.hardest, Some(Technique::FullHouse));
    assert_eq!(r.difficulty, 1.0);
}

#[test]
fn explain_replays_to_the_solution() {
    let text = dataset("unbiased_1000");
    let line = text.lines().next().unwrap_or("");
    let (g, solution) = puzzle_and_solution(line, "unbiased_1000:1");
    let e = Rater::default().explain(&g);
    assert!(e.rating.is_solved());
    assert_eq!(e.steps.len() as u32, e.rating.steps);
    let mut c = Candidates::from_grid(&g);
    for s in &e.steps {
        assert!(!s.prose().is_empty());
        apply(&mut c, s);
    }
    assert!(c.is_solved());
    assert_eq!(c.to_grid(), solution);
}

// ---------------------------------------------------------------------------
// Other sizes
// ---------------------------------------------------------------------------

/// A solved grid from the generator's filler (a fixed seed per test).
fn generated_solution(size: Size, seed: u64) -> Grid {
    crate::generate::random_full_grid(size, &mut crate::generate::SplitMix64::new(seed), None)
        .expect("without a deadline the filler always ends with a grid")
}

/// A solved grid of box size b by the usual pattern, as a Grid: for the
/// hand-made grids that rely on its layout (a bivalue pattern, a display).
fn pattern_solution(b: usize) -> Grid {
    let n = b * b;
    let cells = (0..n * n)
        .map(|i| {
            let (r, c) = (i / n, i % n);
            ((r * b + r / b + c) % n + 1) as u8
        })
        .collect();
    Grid::from_cells(cells).expect("valid size")
}

#[test]
fn four_by_four_and_sixteen_by_sixteen() {
    for (size, seed) in [(Size::FOUR, 4), (Size::SIXTEEN, 16)] {
        let solution = generated_solution(size, seed);
        let n = size.side();
        let mut g = solution.clone();
        // Blank a deterministic pseudo-random half of the cells.
        let mut x: u64 = 12345;
        for cell in 0..n * n {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            if (x >> 33) % 2 == 0 {
                g.set(cell, 0);
            }
        }
        // Deductions that do not assume uniqueness hold in every solution.
        let config = Config::all()
            .without(Technique::UniqueRectangle1)
            .without(Technique::BugPlusOne);
        let r = Rater::new(config).run(&g, |s| check_step(s, &solution, &format!("{n}x{n}")));
        assert!(r.steps > 0);
        assert_eq!(r.placed + r.empty_left + r.givens, n * n);
    }
}

// ---------------------------------------------------------------------------
// Hand-made grids, one per technique
// ---------------------------------------------------------------------------

#[test]
fn full_house() {
    let mut g = parse(SOLUTION);
    g.set(cell(4, 4), 0);
    let c = Candidates::from_grid(&g);
    let s = Technique::FullHouse.find(&c).expect("fires");
    assert_eq!(s.placements, vec![CellDigit { cell: 40, digit: 5 }]);
    assert_eq!(s.houses, vec![House::Row(4)]);
    assert_eq!(
        s.prose(),
        "Full house: row 5 has one empty cell left, so 5 goes in r5c5"
    );
}

#[test]
fn hidden_single_box() {
    let c = marks(|m| remove(m, [0, 1, 2, 9, 11, 18, 19, 20], 5));
    let s = Technique::HiddenSingleBox.find(&c).expect("fires");
    assert_eq!(s.placements, vec![CellDigit { cell: 10, digit: 5 }]);
    assert_eq!(s.houses, vec![House::Box(0)]);
    assert!(Technique::HiddenSingleLine.find(&c).is_none());
    assert_eq!(
        s.prose(),
        "Hidden single: in box 1, 5 fits only in one cell, so 5 goes in r2c2"
    );
}

#[test]
fn hidden_single_line() {
    let c = marks(|m| remove(m, row_cells(2).filter(|&x| x != cell(2, 8)), 7));
    let s = Technique::HiddenSingleLine.find(&c).expect("fires");
    assert_eq!(
        s.placements,
        vec![CellDigit {
            cell: cell(2, 8),
            digit: 7
        }]
    );
    assert_eq!(s.houses, vec![House::Row(2)]);
    assert!(Technique::HiddenSingleBox.find(&c).is_none());
}

#[test]
fn naked_single() {
    let c = marks(|m| m[31] = mask(&[3]));
    let s = Technique::NakedSingle.find(&c).expect("fires");
    assert_eq!(s.placements, vec![CellDigit { cell: 31, digit: 3 }]);
    assert_eq!(
        s.prose(),
        "Naked single: r4c5 has no other candidate, so 3 goes in r4c5"
    );
}

#[test]
fn pointing_matches_the_documented_prose() {
    let c = marks(|m| {
        // Box 4 (rows 4-6, columns 1-3): 5 only in row 6.
        remove(
            m,
            [
                cell(3, 0),
                cell(3, 1),
                cell(3, 2),
                cell(4, 0),
                cell(4, 1),
                cell(4, 2),
            ],
            5,
        );
        // Row 6 outside the box: 5 only in columns 7 and 8.
        remove(m, [cell(5, 3), cell(5, 4), cell(5, 5), cell(5, 8)], 5);
    });
    let s = Technique::Pointing.find(&c).expect("fires");
    assert_eq!(s.houses, vec![House::Box(3), House::Row(5)]);
    assert_eq!(elims(&s), vec![(cell(5, 6), 5), (cell(5, 7), 5)]);
    assert_eq!(
        s.prose(),
        "Pointing: in box 4, the 5s lie only in row 6, so 5 is removed from r6c7 and r6c8"
    );
    assert_eq!(s.hint(HintLevel::Look), "Look at box 4.");
    assert_eq!(s.hint(HintLevel::Technique), "Pointing on 5.");
    assert_eq!(s.hint(HintLevel::Full), s.prose());
}

#[test]
fn claiming() {
    let c = marks(|m| remove(m, (3..9).map(|x| cell(0, x)), 4));
    let s = Technique::Claiming.find(&c).expect("fires");
    assert_eq!(s.houses, vec![House::Row(0), House::Box(0)]);
    assert_eq!(elims(&s), all_elims(&[9, 10, 11, 18, 19, 20], &[4]));
}

#[test]
fn naked_pair() {
    let c = marks(|m| {
        m[0] = mask(&[1, 2]);
        m[1] = mask(&[1, 2]);
    });
    let s = Technique::NakedPair.find(&c).expect("fires");
    assert_eq!(s.houses, vec![House::Row(0)]);
    assert_eq!(s.cells, vec![0, 1]);
    assert_eq!(s.digits, vec![1, 2]);
    assert_eq!(elims(&s), all_elims(&[2, 3, 4, 5, 6, 7, 8], &[1, 2]));
}

#[test]
fn naked_triple() {
    let c = marks(|m| {
        m[0] = mask(&[1, 2]);
        m[4] = mask(&[2, 3]);
        m[8] = mask(&[1, 3]);
    });
    assert!(Technique::NakedPair.find(&c).is_none());
    let s = Technique::NakedTriple.find(&c).expect("fires");
    assert_eq!(s.cells, vec![0, 4, 8]);
    assert_eq!(elims(&s), all_elims(&[1, 2, 3, 5, 6, 7], &[1, 2, 3]));
}

#[test]
fn naked_quad() {
    let c = marks(|m| {
        m[0] = mask(&[1, 2]);
        m[1] = mask(&[2, 3]);
        m[2] = mask(&[3, 4]);
        m[3] = mask(&[1, 4]);
    });
    assert!(Technique::NakedTriple.find(&c).is_none());
    let s = Technique::NakedQuad.find(&c).expect("fires");
    assert_eq!(s.houses, vec![House::Row(0)]);
    assert_eq!(elims(&s), all_elims(&[4, 5, 6, 7, 8], &[1, 2, 3, 4]));
}

#[test]
fn hidden_pair() {
    let c = marks(|m| {
        for d in [6, 7] {
            remove(m, row_cells(0).filter(|&x| x != 2 && x != 6), d);
        }
    });
    let s = Technique::HiddenPair.find(&c).expect("fires");
    assert_eq!(s.houses, vec![House::Row(0)]);
    assert_eq!(s.cells, vec![2, 6]);
    assert_eq!(s.digits, vec![6, 7]);
    assert_eq!(elims(&s), all_elims(&[2, 6], &[1, 2, 3, 4, 5, 8, 9]));
    assert!(s.prose().starts_with(
        "Hidden pair: in row 1, 6 and 7 fit only in r1c3 and r1c7, so those cells keep only 6 and 7 (1 is removed from r1c3 and r1c7;"
    ));
}

#[test]
fn hidden_triple() {
    let c = marks(|m| {
        for d in [1, 2, 3] {
            remove(m, row_cells(0).filter(|&x| ![0, 4, 8].contains(&x)), d);
        }
    });
    assert!(Technique::HiddenPair.find(&c).is_none());
    let s = Technique::HiddenTriple.find(&c).expect("fires");
    assert_eq!(s.cells, vec![0, 4, 8]);
    assert_eq!(elims(&s), all_elims(&[0, 4, 8], &[4, 5, 6, 7, 8, 9]));
}

#[test]
fn hidden_quad() {
    let c = marks(|m| {
        for d in [1, 2, 3, 4] {
            remove(m, row_cells(0).filter(|&x| ![0, 2, 4, 6].contains(&x)), d);
        }
    });
    assert!(Technique::HiddenTriple.find(&c).is_none());
    let s = Technique::HiddenQuad.find(&c).expect("fires");
    assert_eq!(s.cells, vec![0, 2, 4, 6]);
    assert_eq!(elims(&s), all_elims(&[0, 2, 4, 6], &[5, 6, 7, 8, 9]));
}

#[test]
fn x_wing() {
    let c = marks(|m| {
        for r in [1, 5] {
            remove(m, row_cells(r).filter(|&x| x % 9 != 2 && x % 9 != 7), 1);
        }
    });
    let s = Technique::XWing.find(&c).expect("fires");
    assert_eq!(
        s.houses,
        vec![House::Row(1), House::Row(5), House::Col(2), House::Col(7)]
    );
    let others: Vec<usize> = [0, 2, 3, 4, 6, 7, 8]
        .iter()
        .flat_map(|&r| [cell(r, 2), cell(r, 7)])
        .collect();
    assert_eq!(elims(&s), all_elims(&others, &[1]));
    assert_eq!(
        s.prose(),
        "X-wing: in row 2 and row 6, the 1s lie only in column 3 and column 8, so 1 is removed from \
         r1c3, r1c8, r3c3, r3c8, r4c3, r4c8, r5c3, r5c8, r7c3, r7c8, r8c3, r8c8, r9c3 and r9c8"
    );
}

#[test]
fn swordfish() {
    let c = marks(|m| {
        for (r, keep) in [(0, [0, 4]), (3, [4, 8]), (6, [0, 8])] {
            remove(m, row_cells(r).filter(|&x| !keep.contains(&(x % 9))), 9);
        }
    });
    assert!(Technique::XWing.find(&c).is_none());
    let s = Technique::Swordfish.find(&c).expect("fires");
    assert_eq!(s.houses.len(), 6);
    let others: Vec<usize> = [1, 2, 4, 5, 7, 8]
        .iter()
        .flat_map(|&r| [cell(r, 0), cell(r, 4), cell(r, 8)])
        .collect();
    assert_eq!(elims(&s), all_elims(&others, &[9]));
}

#[test]
fn jellyfish() {
    let c = marks(|m| {
        for (r, keep) in [(0, [0, 1]), (2, [1, 2]), (4, [2, 3]), (6, [0, 3])] {
            remove(m, row_cells(r).filter(|&x| !keep.contains(&(x % 9))), 2);
        }
    });
    assert!(Technique::Swordfish.find(&c).is_none());
    let s = Technique::Jellyfish.find(&c).expect("fires");
    let others: Vec<usize> = [1, 3, 5, 7, 8]
        .iter()
        .flat_map(|&r| (0..4).map(move |col| cell(r, col)))
        .collect();
    assert_eq!(elims(&s), all_elims(&others, &[2]));
}

#[test]
fn skyscraper() {
    let c = marks(|m| {
        remove(
            m,
            row_cells(0).filter(|&x| x != cell(0, 0) && x != cell(0, 4)),
            3,
        );
        remove(
            m,
            row_cells(4).filter(|&x| x != cell(4, 0) && x != cell(4, 3)),
            3,
        );
    });
    let s = Technique::Skyscraper.find(&c).expect("fires");
    assert_eq!(
        s.cells,
        vec![cell(0, 4), cell(0, 0), cell(4, 0), cell(4, 3)]
    );
    assert_eq!(
        elims(&s),
        all_elims(&[cell(1, 3), cell(2, 3), cell(3, 4), cell(5, 4)], &[3])
    );
    assert_eq!(s.links.len(), 3);
    assert!(
        s.prose()
            .starts_with("Skyscraper: on 3, r1c5(3) = r1c1(3) - r5c1(3) = r5c4(3)")
    );
}

#[test]
fn two_string_kite() {
    let c = marks(|m| {
        remove(
            m,
            row_cells(0).filter(|&x| x != cell(0, 1) && x != cell(0, 7)),
            4,
        );
        remove(
            m,
            col_cells(0).filter(|&x| x != cell(1, 0) && x != cell(6, 0)),
            4,
        );
    });
    let s = Technique::TwoStringKite.find(&c).expect("fires");
    assert_eq!(
        s.cells,
        vec![cell(0, 7), cell(0, 1), cell(1, 0), cell(6, 0)]
    );
    assert_eq!(elims(&s), vec![(cell(6, 7), 4)]);
}

#[test]
fn xy_wing() {
    let c = marks(|m| {
        m[40] = mask(&[1, 2]);
        m[36] = mask(&[1, 3]);
        m[4] = mask(&[2, 3]);
    });
    let s = Technique::XyWing.find(&c).expect("fires");
    assert_eq!(s.cells, vec![40, 4, 36]);
    assert_eq!(s.digits, vec![2, 1, 3]);
    assert_eq!(elims(&s), vec![(0, 3)]);
    assert_eq!(
        s.hint(HintLevel::Look),
        "Look at cells r5c5, r1c5 and r5c1."
    );
}

#[test]
fn xyz_wing() {
    let c = marks(|m| {
        m[0] = mask(&[1, 2, 3]);
        m[4] = mask(&[1, 3]);
        m[10] = mask(&[2, 3]);
    });
    let s = Technique::XyzWing.find(&c).expect("fires");
    assert_eq!(s.cells, vec![0, 4, 10]);
    assert_eq!(s.digits[2], 3);
    assert_eq!(elims(&s), vec![(1, 3), (2, 3)]);
}

#[test]
fn w_wing() {
    let c = marks(|m| {
        m[0] = mask(&[5, 6]);
        m[80] = mask(&[5, 6]);
        remove(
            m,
            row_cells(4).filter(|&x| x != cell(4, 0) && x != cell(4, 8)),
            5,
        );
    });
    let s = Technique::WWing.find(&c).expect("fires");
    assert_eq!(s.cells, vec![0, 80, cell(4, 0), cell(4, 8)]);
    assert_eq!(s.digits, vec![5, 6]);
    assert_eq!(s.houses, vec![House::Row(4)]);
    assert_eq!(elims(&s), vec![(8, 6), (72, 6)]);
}

#[test]
fn unique_rectangle_1() {
    let c = marks(|m| {
        for x in [0, 3, 9] {
            m[x] = mask(&[1, 2]);
        }
    });
    let s = Technique::UniqueRectangle1.find(&c).expect("fires");
    assert_eq!(s.cells, vec![0, 3, 9, 12]);
    assert_eq!(elims(&s), vec![(12, 1), (12, 2)]);
}

#[test]
fn bug_plus_one() {
    // A solved grid with a 9-cell bivalue pattern on {1,4,7} in rows 1-3,
    // columns 1, 4, 7 (each digit twice per house), plus a third candidate
    // in r1c1: that extra digit must go there.
    let solution = pattern_solution(3);
    let mut g = solution.clone();
    let pattern: Vec<usize> = (0..3)
        .flat_map(|r| [cell(r, 0), cell(r, 3), cell(r, 6)])
        .collect();
    let mut m = vec![0u32; 81];
    for &x in &pattern {
        g.set(x, 0);
        m[x] = mask(&[1, 4, 7]) & !bit(solution.get(x));
    }
    m[0] = mask(&[1, 4, 7]);
    let c = Candidates::with_pencilmarks(&g, &m).expect("81 masks");
    let s = Technique::BugPlusOne.find(&c).expect("fires");
    assert_eq!(
        s.placements,
        vec![CellDigit {
            cell: 0,
            digit: solution.get(0)
        }]
    );
    // Without the extra candidate it is a plain BUG: no step.
    m[0] = mask(&[1, 4, 7]) & !bit(solution.get(0));
    let c = Candidates::with_pencilmarks(&g, &m).expect("81 masks");
    assert!(Technique::BugPlusOne.find(&c).is_none());
}

/// Digit 1: r1c1 = r1c5 = r7c5 = r7c3, all conjugate pairs (row 1, column 5, row 7).
fn chain_of_ones() -> Candidates {
    marks(|m| {
        remove(
            m,
            row_cells(0).filter(|&x| x != cell(0, 0) && x != cell(0, 4)),
            1,
        );
        remove(
            m,
            col_cells(4).filter(|&x| x != cell(0, 4) && x != cell(6, 4)),
            1,
        );
        remove(
            m,
            row_cells(6).filter(|&x| x != cell(6, 4) && x != cell(6, 2)),
            1,
        );
    })
}

#[test]
fn simple_colouring_trap() {
    let c = chain_of_ones();
    let s = Technique::SimpleColouring.find(&c).expect("fires");
    assert_eq!(s.digits, vec![1]);
    assert_eq!(s.links.len(), 3);
    assert!(s.houses.is_empty(), "a trap, not a wrap");
    assert_eq!(
        elims(&s),
        all_elims(&[cell(1, 2), cell(2, 2), cell(7, 0), cell(8, 0)], &[1])
    );
}

#[test]
fn simple_colouring_wrap() {
    // Digit 1: r1c1 = r1c5 (row 1) = r5c5 (column 5) = r5c2 (row 5), and
    // r1c1 = r3c2 (box 1). So r3c2 and r5c2 both take r1c5's colour, and they
    // share column 2: that colour is false.
    let c = marks(|m| {
        remove(
            m,
            row_cells(0).filter(|&x| x != cell(0, 0) && x != cell(0, 4)),
            1,
        );
        remove(
            m,
            col_cells(4).filter(|&x| x != cell(0, 4) && x != cell(4, 4)),
            1,
        );
        remove(
            m,
            row_cells(4).filter(|&x| x != cell(4, 4) && x != cell(4, 1)),
            1,
        );
        remove(m, [1, 2, 9, 10, 11, 18, 20], 1);
    });
    let s = Technique::SimpleColouring.find(&c).expect("fires");
    assert!(!s.houses.is_empty(), "a wrap");
    // r1c1 is true: its colour (r1c1, r5c5, ...) survives; the other goes.
    for e in &s.eliminations {
        assert_ne!(e.cell, 0);
        assert_ne!(e.cell, cell(4, 4));
    }
    assert!(elims(&s).contains(&(cell(0, 4), 1)));
}

#[test]
fn x_chain() {
    let c = chain_of_ones();
    let s = Technique::XChain.find(&c).expect("fires");
    assert_eq!(
        s.cells,
        vec![cell(0, 0), cell(0, 4), cell(6, 4), cell(6, 2)]
    );
    assert_eq!(
        s.links.iter().map(|l| l.kind).collect::<Vec<_>>(),
        vec![LinkKind::Strong, LinkKind::Weak, LinkKind::Strong]
    );
    assert_eq!(
        elims(&s),
        all_elims(&[cell(1, 2), cell(2, 2), cell(7, 0), cell(8, 0)], &[1])
    );
}

#[test]
fn xy_chain() {
    let c = marks(|m| {
        m[0] = mask(&[1, 2]);
        m[4] = mask(&[2, 3]);
        m[40] = mask(&[3, 4]);
        m[44] = mask(&[4, 1]);
    });
    let s = Technique::XyChain.find(&c).expect("fires");
    assert_eq!(s.cells, vec![0, 4, 40, 44]);
    assert_eq!(s.digits, vec![1]);
    assert_eq!(elims(&s), vec![(8, 1), (36, 1)]);
    assert!(
        s.prose()
            .starts_with("XY-chain: r1c1(1) = r1c1(2) - r1c5(2) = r1c5(3)")
    );
}

// ---------------------------------------------------------------------------
// Config, names, serde, hints
// ---------------------------------------------------------------------------

#[test]
fn techniques_by_name() {
    for t in Technique::ALL {
        assert_eq!(Technique::from_name(t.name()), Some(t));
    }
    let mut cfg = Config::all();
    cfg.set("x-wing", false).expect("known");
    assert!(!cfg.is_enabled(Technique::XWing));
    assert!(cfg.set("no-such-thing", true).is_err());
    // Order of trying is by difficulty.
    let tenths: Vec<u16> = Technique::ALL
        .iter()
        .map(|t| t.difficulty_tenths())
        .collect();
    assert!(tenths.windows(2).all(|w| w[0] <= w[1]));
}

#[test]
fn disabled_technique_is_not_used() {
    let c = marks(|m| {
        m[0] = mask(&[1, 2]);
        m[1] = mask(&[1, 2]);
    });
    let with = Rater::new(Config::none().with(Technique::NakedPair));
    assert_eq!(
        with.next_step(&c).map(|s| s.technique),
        Some(Technique::NakedPair)
    );
    let without = Rater::new(Config::all().without(Technique::NakedPair));
    assert_ne!(
        without.next_step(&c).map(|s| s.technique),
        Some(Technique::NakedPair)
    );
}

#[test]
fn pencilmarks_count() {
    // The player removed 9 from r1c1..r1c8: a hidden single 9 in r1c9 only
    // exists with their marks.
    let g = Grid::empty(Size::NINE);
    let mut m = vec![0x1ff; 81];
    remove(&mut m, 0..8, 9);
    let c = Candidates::with_pencilmarks(&g, &m).expect("81 masks");
    let s = next_step(&c).expect("a step");
    assert_eq!(s.placements, vec![CellDigit { cell: 8, digit: 9 }]);
    assert!(next_step(&empty9()).is_none());
    assert!(Candidates::with_pencilmarks(&g, &m[..80]).is_err());
}

#[test]
fn step_serde_round_trip() {
    let c = chain_of_ones();
    let s = Technique::XChain.find(&c).expect("fires");
    let json = serde_json::to_string(&s).expect("serialises");
    assert!(json.contains("\"technique\":\"x-chain\""));
    let back: Step = serde_json::from_str(&json).expect("deserialises");
    assert_eq!(back, s);
    let r = Rater::default().rate(&parse(SOLUTION));
    let json = serde_json::to_string(&r).expect("serialises");
    assert!(json.contains("\"outcome\":\"solved\""));
}

#[test]
fn hint_levels() {
    assert_eq!(HintLevel::from_number(2), Some(HintLevel::Technique));
    assert_eq!(HintLevel::from_number(4), None);
    let c = marks(|m| m[31] = mask(&[3]));
    let s = next_step(&c).expect("a step");
    assert_eq!(s.hint(HintLevel::Look), "Look at cell r4c5.");
    assert_eq!(s.hint(HintLevel::Technique), "Naked single gives a 3.");
}

#[test]
fn candidate_grid_display() {
    let mut g = pattern_solution(2);
    g.set(0, 0);
    g.set(5, 0);
    let c = Candidates::from_grid(&g);
    let text = c.to_string();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 5, "{text}");
    assert_eq!(lines[0], " 1 2 | 3 4");
    assert_eq!(lines[2], "-----+-----");
    assert_eq!(c.to_pencilmarks().len(), 64);
}

#[test]
fn unsolvable_puzzle_has_no_solution() {
    // r1c9 has no candidate: row 1 holds 1..8 and column 9 holds 9.
    let mut g = Grid::empty(Size::NINE);
    for c in 0..8 {
        g.set(c, c as u8 + 1);
    }
    g.set(cell(4, 8), 9);
    assert!(g.first_conflict().is_none());
    let r = Rater::default().rate(&g);
    assert_eq!(r.outcome, Outcome::NoSolution);
    assert_eq!(r.band, Band::NeedsGuessing);
}

#[test]
fn twenty_five_by_twenty_five() {
    // Seed 2: these blanks leave a puzzle the rater finishes (with many
    // seeds they leave an unavoidable set, two solutions, and it gets stuck).
    let solution = generated_solution(Size::TWENTY_FIVE, 2);
    let mut g = solution.clone();
    for cell in (0..625).step_by(3) {
        g.set(cell, 0);
    }
    let r = Rater::default().run(&g, |s| check_step(s, &solution, "25x25"));
    assert!(r.is_solved());
    let empty = Rater::default().rate(&Grid::empty(Size::TWENTY_FIVE));
    assert_eq!(empty.outcome, Outcome::Stuck);
}

mod never_panics {
    use super::*;
    use proptest::prelude::*;

    fn grid_strategy(b: usize) -> impl Strategy<Value = Grid> {
        let n = b * b;
        proptest::collection::vec(prop_oneof![3 => Just(0u8), 1 => 1..=n as u8], n * n)
            .prop_map(|cells| Grid::from_cells(cells).expect("valid digits"))
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(48))]

        #[test]
        fn rating_any_grid(g in prop_oneof![grid_strategy(2), grid_strategy(3), grid_strategy(4)]) {
            let n = g.side();
            let r = Rater::default().rate(&g);
            prop_assert_eq!(r.placed + r.empty_left + r.givens, n * n);
            prop_assert_eq!(r.is_solved(), r.empty_left == 0);
        }

        #[test]
        fn any_pencilmarks(masks in proptest::collection::vec(0u32..0x200, 81), g in grid_strategy(3)) {
            let c = Candidates::with_pencilmarks(&g, &masks).expect("81 masks");
            for t in Technique::ALL {
                if let Some(s) = t.find(&c) {
                    prop_assert!(!s.prose().is_empty());
                    prop_assert!(!s.hint(HintLevel::Look).is_empty());
                }
            }
            let r = Rater::default().rate_candidates(&c);
            prop_assert_eq!(r.placed + r.empty_left + r.givens, 81);
        }
    }
}

#[test]
fn prose_of_malformed_step_does_not_panic() {
    let mut s = Step::new(Technique::XWing, Size::NINE);
    s.digits.push(250);
    s.houses.push(House::Row(3));
    s.eliminations.push(CellDigit {
        cell: 10_000,
        digit: 0,
    });
    s.placements.push(CellDigit {
        cell: usize::MAX,
        digit: 200,
    });
    for t in Technique::ALL {
        s.technique = t;
        assert!(!s.prose().is_empty());
        for level in [HintLevel::Look, HintLevel::Technique, HintLevel::Full] {
            assert!(!s.hint(level).is_empty());
        }
    }
    let mut c = empty9();
    apply(&mut c, &s);
    assert_eq!(c, empty9());
}
