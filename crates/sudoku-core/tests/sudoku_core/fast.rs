//! The `fast` method: differential tests against a simple oracle on slices
//! of every standard dataset, with SIMD and with the forced scalar kernel.

use std::ops::ControlFlow;

use proptest::prelude::*;
use sudoku_core::solve::CancelToken;
use sudoku_core::solve::fast::{Fast, Kernel, UnsupportedSize};
use sudoku_core::{Grid, Limits, Size, Solver, StopReason, Uniqueness};

fn parse(line: &str) -> Grid {
    let cells = line
        .bytes()
        .take(81)
        .map(|c| match c {
            b'1'..=b'9' => c - b'0',
            _ => 0,
        })
        .collect();
    Grid::from_cells(cells).expect("81 cells")
}

fn dataset(name: &str) -> Vec<Grid> {
    let path = format!("{}/tests/data/{name}.txt", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).expect("test data");
    text.lines().filter(|l| l.len() >= 81).map(parse).collect()
}

/// Every kernel this CPU has: forced scalar always, AVX2 and AVX-512 when
/// present.
fn solvers() -> Vec<Fast> {
    let mut v: Vec<Fast> = Fast::available_kernels()
        .into_iter()
        .map(|k| Fast::with_kernel(k).expect("available"))
        .collect();
    assert_eq!(v[0].kernel(), Kernel::Scalar);
    v.push(Fast::new());
    v
}

/// The oracle: plain recursive backtracking over row/column/box bitmasks,
/// choosing the empty cell with the fewest candidates. Counts up to `limit`
/// and keeps the first solution.
struct Oracle {
    cells: [u8; 81],
    rows: [u16; 9],
    cols: [u16; 9],
    boxes: [u16; 9],
    count: u32,
    limit: u32,
    first: Option<[u8; 81]>,
    /// Cells the search may still fill before it gives up.
    budget: u64,
}

fn box_of(i: usize) -> usize {
    (i / 27) * 3 + (i % 9) / 3
}

impl Oracle {
    /// Count solutions of `puzzle` up to `limit`; `None` if the givens conflict.
    fn solve(puzzle: &Grid, limit: u32) -> (u32, Option<[u8; 81]>) {
        Self::solve_within(puzzle, limit, u64::MAX).expect("no budget")
    }

    /// [`Oracle::solve`], or `None` when the search fills more than `budget`
    /// cells (plain backtracking can take minutes on an unlucky puzzle).
    fn solve_within(puzzle: &Grid, limit: u32, budget: u64) -> Option<(u32, Option<[u8; 81]>)> {
        let mut o = Oracle {
            cells: [0; 81],
            rows: [0; 9],
            cols: [0; 9],
            boxes: [0; 9],
            count: 0,
            limit,
            first: None,
            budget,
        };
        for (i, &d) in puzzle.cells().iter().enumerate() {
            if d != 0 {
                let bit = 1 << d;
                if (o.rows[i / 9] | o.cols[i % 9] | o.boxes[box_of(i)]) & bit != 0 {
                    return Some((0, None));
                }
                o.place(i, d);
            }
        }
        o.go();
        (o.budget > 0).then_some((o.count, o.first))
    }

    fn place(&mut self, i: usize, d: u8) {
        let bit = 1 << d;
        self.cells[i] = d;
        self.rows[i / 9] ^= bit;
        self.cols[i % 9] ^= bit;
        self.boxes[box_of(i)] ^= bit;
    }

    fn go(&mut self) {
        let mut best: Option<(usize, u16)> = None;
        for i in 0..81 {
            if self.cells[i] == 0 {
                let free = !(self.rows[i / 9] | self.cols[i % 9] | self.boxes[box_of(i)]) & 0x3fe;
                if best.is_none_or(|(_, f)| free.count_ones() < f.count_ones()) {
                    best = Some((i, free));
                }
            }
        }
        let Some((i, free)) = best else {
            self.count += 1;
            if self.first.is_none() {
                self.first = Some(self.cells);
            }
            return;
        };
        for d in 1..=9u8 {
            if free & (1 << d) != 0 {
                if self.budget == 0 {
                    return;
                }
                self.budget -= 1;
                self.place(i, d);
                self.go();
                self.place(i, d);
                self.cells[i] = 0;
                if self.count >= self.limit {
                    return;
                }
            }
        }
    }
}

fn check_against_oracle(name: &str, expect: Option<u32>) {
    let puzzles = dataset(name);
    assert!(!puzzles.is_empty());
    let wants: Vec<u32> = puzzles.iter().map(|p| Oracle::solve(p, 2).0).collect();
    for mut fast in solvers() {
        for (i, (p, &want)) in puzzles.iter().zip(&wants).enumerate() {
            if let Some(e) = expect {
                assert_eq!(
                    want, e,
                    "{name} #{i}: oracle disagrees with the dataset's known count"
                );
            }
            let (u, report) = fast.uniqueness(p, &Limits::none());
            let got = match &u {
                Uniqueness::NoSolution => 0,
                Uniqueness::Unique(s) => {
                    assert!(s.is_solution_of(p), "{name} #{i}: bad solution {s}");
                    1
                }
                Uniqueness::Multiple(a, b) => {
                    assert!(a.is_solution_of(p) && b.is_solution_of(p), "{name} #{i}");
                    assert_ne!(a, b, "{name} #{i}: the same solution twice");
                    2
                }
                Uniqueness::Unknown(s) => panic!("{name} #{i}: stopped early: {s}"),
            };
            assert_eq!(got, want, "{name} #{i} ({:?} kernel): {p}", fast.kernel());
            assert!(report.stats.nodes >= 1);
            assert!(report.stats.peak_bytes >= 128);
            assert!(report.stats.nodes >= report.stats.guesses);
        }
    }
}

#[test]
fn unbiased() {
    check_against_oracle("unbiased_1000", Some(1));
}

#[test]
fn seventeen_clue() {
    check_against_oracle("17_clue", Some(1));
}

#[test]
fn magictour() {
    check_against_oracle("magictour_top1465", Some(1));
}

#[test]
fn forum_hardest_11plus() {
    check_against_oracle("forum_hardest_11plus", Some(1));
}

#[test]
fn forum_hardest_1106() {
    check_against_oracle("forum_hardest_1106", Some(1));
}

#[test]
fn norvig() {
    check_against_oracle("norvig_top95", Some(1));
    check_against_oracle("norvig_hardest", Some(1));
}

#[test]
fn serg_multi_reports_multiple_for_every_puzzle() {
    let puzzles = dataset("serg_multi");
    assert_eq!(puzzles.len(), 200);
    for mut fast in solvers() {
        for (i, p) in puzzles.iter().enumerate() {
            match fast.uniqueness(p, &Limits::none()).0 {
                Uniqueness::Multiple(a, b) => {
                    assert!(a.is_solution_of(p) && b.is_solution_of(p), "serg #{i}");
                    assert_ne!(a, b);
                }
                other => panic!("serg #{i}: expected multiple, got {other:?}"),
            }
        }
    }
}

#[test]
fn every_solution_of_an_open_puzzle_is_distinct_and_counted() {
    // Remove a 9-cell band-row unit from a solved grid: a handful of solutions.
    let solved =
        parse("534678912672195348198342567859761423426853791713924856961537284287419635345286179");
    let mut p = solved.clone();
    for i in 0..18 {
        p.set(i, 0);
    }
    let (want, _) = Oracle::solve(&p, 1000);
    for mut fast in solvers() {
        let mut seen = Vec::new();
        let r = fast.search(&p, &Limits::none(), &mut |g| {
            assert!(g.is_solution_of(&p));
            seen.push(g.clone());
            ControlFlow::Continue(())
        });
        assert_eq!(r.stop, StopReason::Exhausted);
        assert_eq!(r.stats.solutions, u64::from(want));
        let n = seen.len();
        seen.sort_by_key(|g| g.to_line());
        seen.dedup();
        assert_eq!(seen.len(), n);
        assert_eq!(fast.count(&p, 1, &Limits::none()).0, 1);
    }
}

/// Open puzzles (most cells empty) are searched in layout mode, where
/// `fast` branches on a digit's triad layouts in a band or stack: every
/// solution is still found once, and every kernel walks the same tree.
#[test]
fn open_puzzles_enumerate_every_solution_once_on_every_kernel() {
    let mut branched = 0;
    for seed in 1..41u64 {
        let solved = solved_grid(seed * 0x9e37_79b9);
        let mut p = solved.clone();
        // Keep a scattered fifth or so of the cells.
        let mut s = seed | 1;
        for i in 0..81 {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            if s % 100 >= 24 {
                p.set(i, 0);
            }
        }
        let limit = 100;
        // Plain backtracking can take long to exhaust an open puzzle with
        // few solutions: such a seed is skipped.
        let Some((want, _)) = Oracle::solve_within(&p, limit, 200_000) else {
            continue;
        };
        let mut stats = Vec::new();
        for mut fast in solvers() {
            let mut seen = Vec::new();
            let limits = Limits::none().with_max_solutions(u64::from(limit));
            let r = fast.search(&p, &limits, &mut |g| {
                assert!(g.is_solution_of(&p));
                seen.push(g.to_line());
                ControlFlow::Continue(())
            });
            assert_eq!(seen.len() as u32, want, "seed {seed}: {p}");
            let n = seen.len();
            seen.sort();
            seen.dedup();
            assert_eq!(seen.len(), n, "seed {seed}: a solution twice");
            stats.push((r.stats.nodes, r.stats.guesses));
        }
        assert!(
            stats.windows(2).all(|w| w[0] == w[1]),
            "seed {seed}: {stats:?}"
        );
        branched += usize::from(stats[0].1 > 0);
    }
    assert!(branched > 8);
}

#[test]
fn conflicting_givens_have_no_solution() {
    let mut p = Grid::empty(Size::NINE);
    p.set(0, 5);
    p.set(8, 5);
    for mut fast in solvers() {
        assert_eq!(
            fast.uniqueness(&p, &Limits::none()).0,
            Uniqueness::NoSolution
        );
    }
}

#[test]
fn two_singles_of_one_digit_in_one_house_have_no_solution() {
    // Row 1 holds 1..7, so its last two cells keep {8, 9}; an 8 in each of
    // their columns leaves both with 9 alone: two naked singles of one
    // digit in one row, found in the same round of the start propagation.
    let mut p = Grid::empty(Size::NINE);
    for c in 0..7 {
        p.set(c, c as u8 + 1);
    }
    p.set(3 * 9 + 7, 8);
    p.set(6 * 9 + 8, 8);
    let (count, _) = Oracle::solve(&p, 2);
    assert_eq!(count, 0);
    for mut fast in solvers() {
        let (u, report) = fast.uniqueness(&p, &Limits::none());
        assert_eq!(u, Uniqueness::NoSolution);
        assert_eq!(report.stats.nodes, 1, "refused by the start propagation");
    }
}

#[test]
fn candidates_entry() {
    let puzzles = dataset("magictour_top1465");
    for mut fast in solvers() {
        for p in puzzles.iter().take(10) {
            let (_, sol) = Oracle::solve(p, 1);
            let sol = sol.expect("solvable");
            // Pencilmarks from the givens alone.
            let mut masks = [0u16; 81];
            for (i, m) in masks.iter_mut().enumerate() {
                let d = p.get(i);
                *m = if d == 0 { 0x1ff } else { 1 << (d - 1) };
            }
            let mut found = Vec::new();
            let r = fast.search_candidates(&masks, &Limits::solutions(2), &mut |g| {
                found.push(g.clone());
                ControlFlow::Continue(())
            });
            assert_eq!(r.stats.solutions, 1);
            assert_eq!(found[0].cells(), &sol[..]);
            // Remove the solution's digit from one empty cell: no solution left.
            let i = (0..81).find(|&i| p.get(i) == 0).expect("an empty cell");
            masks[i] &= !(1 << (sol[i] - 1));
            let r = fast.search_candidates(&masks, &Limits::solutions(2), &mut |_| {
                ControlFlow::Continue(())
            });
            assert_eq!((r.stats.solutions, r.stop), (0, StopReason::Exhausted));
            // A cell with no candidate at all: no solution.
            masks[i] = 0;
            let r = fast.search_candidates(&masks, &Limits::solutions(2), &mut |_| {
                ControlFlow::Continue(())
            });
            assert_eq!(r.stats.solutions, 0);
        }
    }
}

#[test]
fn limits_stop_the_search() {
    let hard = dataset("forum_hardest_1106");
    for mut fast in solvers() {
        let (u, r) = fast.uniqueness(&hard[0], &Limits::none().with_max_nodes(2));
        assert_eq!(u, Uniqueness::Unknown(StopReason::NodeLimit));
        assert!(r.stats.nodes <= 2);
        let token = CancelToken::new();
        token.cancel();
        let (u, _) = fast.uniqueness(&Grid::empty(Size::NINE), &Limits::none().with_cancel(token));
        assert_eq!(u, Uniqueness::Unknown(StopReason::Cancelled));
        let (n, r) = fast.count(&Grid::empty(Size::NINE), 5000, &Limits::none());
        assert_eq!((n, r.stop), (5000, StopReason::SolutionLimit));
        let r = fast.search(&Grid::empty(Size::NINE), &Limits::none(), &mut |_| {
            ControlFlow::Break(())
        });
        assert_eq!((r.stats.solutions, r.stop), (1, StopReason::Visitor));
    }
}

#[test]
fn untimed_searches_answer_the_same_without_reading_the_clock() {
    let hard = dataset("forum_hardest_1106");
    for mut fast in solvers() {
        for g in hard.iter().take(20) {
            let (timed, a) = fast.uniqueness(g, &Limits::none());
            fast.set_timed(false);
            let (untimed, b) = fast.uniqueness(g, &Limits::none());
            fast.set_timed(true);
            assert_eq!(timed, untimed);
            assert!(matches!(untimed, Uniqueness::Unique(_)), "{}", g.to_line());
            assert_eq!(
                (a.stats.nodes, a.stats.guesses),
                (b.stats.nodes, b.stats.guesses)
            );
            assert!(a.stats.time > std::time::Duration::ZERO);
            assert_eq!(b.stats.time, std::time::Duration::ZERO);
        }
        // Without a clock read, a cancelled token still stops the search at
        // once, and a past deadline at the next poll (every 1024 nodes).
        fast.set_timed(false);
        let token = CancelToken::new();
        token.cancel();
        let empty = Grid::empty(Size::NINE);
        let (u, r) = fast.uniqueness(&empty, &Limits::none().with_cancel(token));
        assert_eq!(
            (u, r.stats.nodes),
            (Uniqueness::Unknown(StopReason::Cancelled), 0)
        );
        let past = Limits::none().with_deadline(std::time::Instant::now());
        let (n, r) = fast.count(&empty, u64::MAX, &past);
        assert_eq!(r.stop, StopReason::Deadline);
        assert!(n < u64::MAX && r.stats.nodes <= 1024, "{n} {:?}", r.stats);
        fast.set_timed(true);
        let (_, r) = fast.count(&empty, u64::MAX, &past);
        assert_eq!((r.stop, r.stats.nodes), (StopReason::Deadline, 0));
    }
}

#[test]
fn other_sizes_are_refused_clearly() {
    let g = Grid::empty(Size::FOUR);
    let mut fast = Fast::new();
    assert_eq!(
        fast.try_search(&g, &Limits::none(), &mut |_| ControlFlow::Continue(())),
        Err(UnsupportedSize(Size::FOUR))
    );
    assert_eq!(
        fast.uniqueness(&g, &Limits::none()).0,
        Uniqueness::Unknown(StopReason::Cancelled)
    );
    assert_eq!(Fast::scalar().kernel(), Kernel::Scalar);
    assert_eq!(fast.name(), "fast");
}

/// A random solved grid: a base pattern relabelled, with rows permuted within
/// bands, bands permuted, columns within stacks and stacks permuted.
fn solved_grid(seed: u64) -> Grid {
    let mut s = seed | 1;
    let mut next = move |n: usize| {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        (s % n as u64) as usize
    };
    let mut shuffle = |v: &mut [usize]| {
        for i in (1..v.len()).rev() {
            v.swap(i, next(i + 1));
        }
    };
    let mut digits: Vec<usize> = (1..=9).collect();
    shuffle(&mut digits);
    let order = |shuffle: &mut dyn FnMut(&mut [usize])| {
        let mut bands = [0, 1, 2];
        shuffle(&mut bands);
        let mut out = Vec::new();
        for b in bands {
            let mut inner = [0, 1, 2];
            shuffle(&mut inner);
            out.extend(inner.iter().map(|r| 3 * b + r));
        }
        out
    };
    let rows = order(&mut shuffle);
    let cols = order(&mut shuffle);
    let cells = (0..81)
        .map(|i| {
            let (r, c) = (rows[i / 9], cols[i % 9]);
            digits[(r * 3 + r / 3 + c) % 9] as u8
        })
        .collect();
    Grid::from_cells(cells).unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn random_puzzles_are_solved(seed in any::<u64>(), keep in proptest::collection::vec(any::<bool>(), 81), density in 0u8..4) {
        let solution = solved_grid(seed);
        prop_assert!(solution.first_conflict().is_none());
        let mut puzzle = solution.clone();
        for (i, &k) in keep.iter().enumerate() {
            // density 0..4: keep about 1/2, 1/4, 1/8 or 1/16 of the cells
            if !k || (((i as u64) * 2_654_435_761) ^ seed) % (1 << density) != 0 {
                puzzle.set(i, 0);
            }
        }
        // An unlucky random puzzle can keep plain backtracking busy for
        // minutes: such a case is skipped, not waited for.
        let answer = Oracle::solve_within(&puzzle, 2, 20_000_000);
        prop_assume!(answer.is_some());
        let (want, _) = answer.expect("within the budget");
        prop_assert!(want >= 1);
        for mut fast in solvers() {
            let (u, _) = fast.uniqueness(&puzzle, &Limits::none());
            match u {
                Uniqueness::Unique(s) => {
                    prop_assert_eq!(want, 1);
                    prop_assert_eq!(&s, &solution);
                }
                Uniqueness::Multiple(a, b) => {
                    prop_assert_eq!(want, 2);
                    prop_assert!(a.is_solution_of(&puzzle) && b.is_solution_of(&puzzle));
                    prop_assert_ne!(a, b);
                }
                other => prop_assert!(false, "unexpected {:?}", other),
            }
        }
    }
}
