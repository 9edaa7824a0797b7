//! Generator tests: uniqueness (checked with a different method than the
//! one used to build), minimality, symmetry, reproducibility, targets.

use std::time::{Duration, Instant};

use super::*;
/// The checking method: never the generator's own.
fn checker(size: Size) -> Box<dyn Solver + Send> {
    let check = if Method::auto(size) == Method::DlxPruned {
        Method::Dlx
    } else {
        Method::DlxPruned
    };
    check.solver()
}

fn count(solver: &mut dyn Solver, g: &Grid) -> u64 {
    let (n, report) = solver.count(g, 2, &Limits::none());
    assert!(n == 2 || report.stop.is_complete(), "check finished");
    n
}

fn gen_cfg(size: Size, seed: u64) -> GeneratorConfig {
    GeneratorConfig {
        seed,
        ..GeneratorConfig::for_size(size)
    }
}

#[test]
fn splitmix_is_reproducible_and_spread() {
    let mut a = SplitMix64::new(7);
    let mut b = SplitMix64::new(7);
    let xs: Vec<u64> = (0..10).map(|_| a.next_u64()).collect();
    let ys: Vec<u64> = (0..10).map(|_| b.next_u64()).collect();
    assert_eq!(xs, ys);
    let mut seen = [0u32; 9];
    let mut r = SplitMix64::new(1);
    for _ in 0..9000 {
        seen[r.below(9)] += 1;
    }
    assert!(seen.iter().all(|&k| (800..1200).contains(&k)), "{seen:?}");
    assert_ne!(puzzle_seed(1, 0), puzzle_seed(1, 1));
    assert_ne!(puzzle_seed(1, 0), puzzle_seed(2, 0));
}

#[test]
fn full_grids_are_valid_for_every_size() {
    let mut rng = SplitMix64::new(3);
    for size in [Size::FOUR, Size::NINE, Size::SIXTEEN] {
        for _ in 0..5 {
            let g = random_full_grid(size, &mut rng, None).expect("a grid");
            assert!(g.is_full() && g.first_conflict().is_none(), "{g}");
        }
    }
}

#[test]
fn nine_by_nine_puzzles_are_unique_and_minimal() {
    let mut generator = Generator::new(gen_cfg(Size::NINE, 42));
    let mut check = checker(Size::NINE);
    for _ in 0..20 {
        let g = generator.next().expect("a puzzle");
        assert!(g.minimal);
        assert!(g.solution.is_solution_of(&g.puzzle));
        assert_eq!(count(check.as_mut(), &g.puzzle), 1, "{}", g.puzzle);
        // Minimal: removing any clue gives several solutions.
        for cell in 0..81 {
            if g.puzzle.get(cell) != 0 {
                let mut p = g.puzzle.clone();
                p.set(cell, 0);
                assert_eq!(count(check.as_mut(), &p), 2, "clue {cell} of {}", g.puzzle);
            }
        }
        assert!((17..=40).contains(&g.puzzle.given_count()));
    }
}

#[test]
fn four_by_four_puzzles_are_unique_and_minimal() {
    let mut generator = Generator::new(gen_cfg(Size::FOUR, 5));
    let mut check = checker(Size::FOUR);
    for _ in 0..30 {
        let g = generator.next().expect("a puzzle");
        assert_eq!(count(check.as_mut(), &g.puzzle), 1);
        for cell in 0..16 {
            if g.puzzle.get(cell) != 0 {
                let mut p = g.puzzle.clone();
                p.set(cell, 0);
                assert_eq!(count(check.as_mut(), &p), 2);
            }
        }
    }
}

/// Issue 17: 16×16 puzzles are always minimal (no node budget gives up on
/// a check), checked by a different method (`mrv-hidden`) than the
/// generator's (`wide`): unique, and every clue removal gives two solutions.
#[test]
fn sixteen_by_sixteen_puzzles_are_unique_and_minimal_issue_17() {
    assert_eq!(Method::auto(Size::SIXTEEN), Method::Wide);
    let mut check = Method::MrvHidden.solver();
    // One seed by default (about a minute in the test profile on a busy
    // machine); three with SLOW_TESTS.
    let slow = std::env::var_os("SLOW_TESTS").is_some_and(|v| !v.is_empty() && v != "0");
    let seeds: &[u64] = if slow { &[1, 2, 3] } else { &[1] };
    for &seed in seeds {
        let g = Generator::new(gen_cfg(Size::SIXTEEN, seed))
            .next()
            .expect("a puzzle");
        assert!(g.minimal);
        assert!(g.solution.is_solution_of(&g.puzzle));
        assert_eq!(
            count(check.as_mut(), &g.puzzle),
            1,
            "{}",
            g.puzzle.to_line()
        );
        for cell in 0..256 {
            if g.puzzle.get(cell) != 0 {
                let mut p = g.puzzle.clone();
                p.set(cell, 0);
                assert_eq!(
                    count(check.as_mut(), &p),
                    2,
                    "clue {cell} of {}",
                    g.puzzle.to_line()
                );
            }
        }
    }
}

/// The progress counter sees one check per cell of a minimal pass.
#[test]
fn progress_counts_the_checks() {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicU64, Ordering};
    let checks = Arc::new(AtomicU64::new(0));
    let mut g = Generator::new(gen_cfg(Size::NINE, 4)).with_progress(Arc::clone(&checks));
    g.next().expect("a puzzle");
    assert_eq!(checks.load(Ordering::Relaxed), 81);
}

#[test]
fn sixteen_by_sixteen_with_a_clue_range_is_unique() {
    let cfg = GeneratorConfig {
        clues: Some(150..=170),
        ..gen_cfg(Size::SIXTEEN, 9)
    };
    let mut generator = Generator::new(cfg);
    let mut check = checker(Size::SIXTEEN);
    for _ in 0..2 {
        let g = generator.next().expect("a puzzle");
        assert!((150..=170).contains(&g.puzzle.given_count()));
        assert_eq!(count(check.as_mut(), &g.puzzle), 1);
        assert!(g.solution.is_solution_of(&g.puzzle));
    }
}

#[test]
fn symmetries_hold_and_puzzles_stay_unique() {
    let mut check = checker(Size::NINE);
    for sym in Symmetry::ALL {
        assert_eq!(Symmetry::from_name(sym.name()), Some(sym));
        let cfg = GeneratorConfig {
            symmetry: sym,
            ..gen_cfg(Size::NINE, 11)
        };
        let mut generator = Generator::new(cfg);
        for _ in 0..3 {
            let g = generator.next().expect("a puzzle");
            assert!(sym.holds(&g.puzzle), "{sym}: {}", g.puzzle);
            assert_eq!(count(check.as_mut(), &g.puzzle), 1);
            // Minimal among symmetric puzzles: no orbit can go.
            for orbit in sym.orbits(Size::NINE) {
                if g.puzzle.get(orbit[0]) != 0 {
                    let mut p = g.puzzle.clone();
                    orbit.iter().for_each(|&c| p.set(c, 0));
                    assert_eq!(count(check.as_mut(), &p), 2, "{sym}");
                }
            }
        }
    }
    // A 4×4 rot90 orbit has four cells.
    assert!(
        Symmetry::Rot90
            .orbits(Size::FOUR)
            .iter()
            .all(|o| o.len() == 4)
    );
    assert_eq!(Symmetry::None.orbits(Size::NINE).len(), 81);
    assert_eq!(Symmetry::Rot180.orbits(Size::NINE).len(), 41);
}

#[test]
fn same_seed_same_puzzles() {
    let a: Vec<Grid> = {
        let mut g = Generator::new(gen_cfg(Size::NINE, 1234));
        (0..5).map(|_| g.next().expect("puzzle").puzzle).collect()
    };
    let b: Vec<Grid> = {
        let mut g = Generator::new(gen_cfg(Size::NINE, 1234));
        (0..5).map(|_| g.next().expect("puzzle").puzzle).collect()
    };
    assert_eq!(a, b);
    let c = Generator::new(gen_cfg(Size::NINE, 1235))
        .next()
        .expect("puzzle")
        .puzzle;
    assert_ne!(a[0], c);
    // A seed alone makes the same puzzle, whatever was generated before.
    let mut g = Generator::new(gen_cfg(Size::NINE, 0));
    let first = g.generate_seeded(puzzle_seed(9, 3)).expect("puzzle");
    g.next().expect("puzzle");
    let again = g.generate_seeded(puzzle_seed(9, 3)).expect("puzzle");
    assert_eq!(first.puzzle, again.puzzle);
}

#[test]
fn clue_range_is_honoured() {
    let mut check = checker(Size::NINE);
    for (lo, hi) in [(30, 35), (40, 40), (25, 28)] {
        let cfg = GeneratorConfig {
            clues: Some(lo..=hi),
            symmetry: Symmetry::None,
            ..gen_cfg(Size::NINE, lo as u64)
        };
        let mut generator = Generator::new(cfg);
        for _ in 0..5 {
            let g = generator.next().expect("a puzzle");
            let k = g.puzzle.given_count();
            assert!((lo..=hi).contains(&k), "{k} clues not in {lo}..{hi}");
            assert_eq!(count(check.as_mut(), &g.puzzle), 1);
        }
    }
}

#[test]
fn difficulty_targets_are_honoured() {
    let rater = Rater::new(Config::all());
    for band in [Band::Easy, Band::Medium, Band::Hard] {
        let cfg = GeneratorConfig {
            band: Some(band),
            ..gen_cfg(Size::NINE, 77)
        };
        let mut generator = Generator::new(cfg);
        for _ in 0..3 {
            let g = generator.next().expect("a puzzle");
            assert_eq!(rater.rate(&g.puzzle).band, band);
            assert_eq!(g.rating.as_ref().map(|r| r.band), Some(band));
        }
    }
    let cfg = GeneratorConfig {
        rating: Some(2.5..=3.5),
        require: vec![Technique::Pointing],
        ..gen_cfg(Size::NINE, 8)
    };
    let mut generator = Generator::new(cfg);
    for _ in 0..3 {
        let g = generator.next().expect("a puzzle");
        let r = rater.rate(&g.puzzle);
        assert!((2.5..=3.5).contains(&r.difficulty), "{}", r.difficulty);
        assert!(r.counts.iter().any(|c| c.technique == Technique::Pointing));
    }
}

#[test]
fn rate_flag_fills_the_rating() {
    let cfg = GeneratorConfig {
        rate: true,
        ..gen_cfg(Size::NINE, 2)
    };
    let g = Generator::new(cfg).next().expect("a puzzle");
    let r = g.rating.expect("rated");
    assert_eq!(r, Rater::new(Config::all()).rate(&g.puzzle));
}

#[test]
fn too_rare_target_ends_with_a_clear_error_in_time() {
    // A minimal 9×9 puzzle with 60 clues does not exist: only the budget
    // ends this.
    let cfg = GeneratorConfig {
        clues: Some(60..=60),
        rating: Some(6.3..=6.4),
        timeout: Some(Duration::from_millis(300)),
        ..gen_cfg(Size::NINE, 1)
    };
    let start = Instant::now();
    let err = Generator::new(cfg).next().expect_err("too rare");
    assert!(start.elapsed() < Duration::from_secs(3));
    let msg = err.to_string();
    assert!(msg.contains("too rare"), "{msg}");
    assert!(msg.contains("rating 6.3..6.4"), "{msg}");
    assert!(matches!(err, GenerateError::TooRare { .. }));
    // The attempt budget ends it too.
    let cfg = GeneratorConfig {
        band: Some(Band::Extreme),
        require: vec![
            Technique::FullHouse,
            Technique::XyChain,
            Technique::Jellyfish,
        ],
        max_attempts: 5,
        ..gen_cfg(Size::NINE, 1)
    };
    match Generator::new(cfg).next() {
        Err(GenerateError::TooRare { attempts, .. }) => assert_eq!(attempts, 5),
        Ok(g) => {
            // Possible in principle: then it must really fit.
            let r = Rater::new(Config::all()).rate(&g.puzzle);
            assert_eq!(r.band, Band::Extreme);
        }
        Err(e) => panic!("unexpected error {e}"),
    }
}

#[test]
fn an_overall_deadline_stops_a_puzzle_and_a_huge_timeout_is_no_deadline() {
    // A past deadline fails at once, before any attempt.
    let mut g = Generator::new(gen_cfg(Size::NINE, 1));
    let past = Instant::now();
    match g.generate_seeded_by(puzzle_seed(1, 0), Some(past)) {
        Err(GenerateError::TooRare { attempts, .. }) => assert_eq!(attempts, 0),
        other => panic!("expected too rare, got {other:?}"),
    }
    // A deadline ends a target that is never met, well before the timeout.
    let cfg = GeneratorConfig {
        rating: Some(11.0..=12.0),
        timeout: Some(Duration::from_secs(600)),
        ..gen_cfg(Size::NINE, 1)
    };
    let start = Instant::now();
    let err = Generator::new(cfg)
        .generate_seeded_by(7, Some(start + Duration::from_millis(100)))
        .expect_err("too rare");
    assert!(matches!(err, GenerateError::TooRare { .. }), "{err}");
    assert!(start.elapsed() < Duration::from_secs(5));
    // A timeout past what the clock holds means no deadline (no overflow),
    // and a far deadline changes nothing: the puzzle of a seed is the same.
    let cfg = GeneratorConfig {
        timeout: Some(Duration::MAX),
        ..gen_cfg(Size::NINE, 1)
    };
    let mut g = Generator::new(cfg);
    let a = g.generate_seeded(puzzle_seed(3, 4)).expect("a puzzle");
    let far = Instant::now() + Duration::from_secs(3600);
    let b = g
        .generate_seeded_by(puzzle_seed(3, 4), Some(far))
        .expect("a puzzle");
    let c = Generator::new(gen_cfg(Size::NINE, 1))
        .generate_seeded(puzzle_seed(3, 4))
        .expect("a puzzle");
    assert_eq!(a, b);
    assert_eq!(a, c);
}

#[test]
fn impossible_configs_are_errors() {
    let bad = [
        GeneratorConfig {
            clues: Some(90..=95),
            ..GeneratorConfig::default()
        },
        GeneratorConfig {
            rater: Config::singles(),
            require: vec![Technique::XWing],
            ..GeneratorConfig::default()
        },
    ];
    for cfg in bad {
        assert!(matches!(
            Generator::new(cfg).next(),
            Err(GenerateError::Invalid(_))
        ));
    }
}

/// Issue 17: a 25×25 puzzle is made in seconds (release build), unique
/// (checked by `mrv-hidden`), with its checks counted for the progress bar.
/// Slow in the test profile: only with `SLOW_TESTS` set.
#[test]
fn twenty_five_by_twenty_five_is_unique_and_counted() {
    if !std::env::var_os("SLOW_TESTS").is_some_and(|v| !v.is_empty() && v != "0") {
        return;
    }
    use std::sync::Arc;
    use std::sync::atomic::{AtomicU64, Ordering};
    let checks = Arc::new(AtomicU64::new(0));
    let g = Generator::new(gen_cfg(Size::TWENTY_FIVE, 1))
        .with_progress(Arc::clone(&checks))
        .next()
        .expect("a puzzle");
    assert!(g.solution.is_solution_of(&g.puzzle));
    assert_eq!(checks.load(Ordering::Relaxed), 625);
    let (n, r) =
        Method::MrvHidden
            .solver()
            .count(&g.puzzle, 2, &Limits::none().with_max_nodes(5_000_000));
    assert!(n == 1 && r.stop.is_complete(), "{r:?}");
}

/// Issue 14: targets on Sudoku Explainer's scale (ER and ladder entries).
#[test]
fn explainer_targets_are_honoured_issue_14() {
    use crate::rate::se::{Producer, Profile, SeOutcome, SeRater};
    for profile in [Profile::Se, Profile::Sukaku] {
        let cfg = GeneratorConfig {
            se: Some(profile),
            rating: Some(2.0..=4.5),
            se_require: vec![Producer::PointingClaiming],
            ..gen_cfg(Size::NINE, 14)
        };
        let mut generator = Generator::new(cfg);
        for _ in 0..2 {
            let g = generator.next().expect("a puzzle");
            assert!(g.rating.is_none());
            let r = g.se_rating.clone().expect("an Explainer rating");
            let (steps, again) = SeRater::new(profile).explain(&g.puzzle);
            assert_eq!(r, again);
            assert_eq!(r.outcome, SeOutcome::Rated);
            assert!((20..=45).contains(&r.er), "ER {}", r.er);
            assert!(
                steps
                    .iter()
                    .any(|s| s.producer == Producer::PointingClaiming)
            );
        }
    }
    // --rate alone fills the Explainer rating.
    let cfg = GeneratorConfig {
        se: Some(Profile::Se),
        rate: true,
        ..gen_cfg(Size::NINE, 3)
    };
    let g = Generator::new(cfg).next().expect("a puzzle");
    assert_eq!(g.se_rating, Some(SeRater::new(Profile::Se).rate(&g.puzzle)));
    // A rare target ends in time with the target named.
    let cfg = GeneratorConfig {
        se: Some(Profile::Sukaku),
        rating: Some(9.0..=9.9),
        timeout: Some(Duration::from_millis(300)),
        ..gen_cfg(Size::NINE, 1)
    };
    let start = Instant::now();
    let err = Generator::new(cfg).next().expect_err("too rare");
    assert!(start.elapsed() < Duration::from_secs(5));
    let msg = err.to_string();
    assert!(msg.contains("ER 9.0..9.9"), "{msg}");
    assert!(matches!(err, GenerateError::TooRare { .. }));
    // Settings of the default rater, another size, or a ladder entry not
    // in the profile are invalid.
    for cfg in [
        GeneratorConfig {
            se: Some(Profile::Se),
            band: Some(Band::Hard),
            ..gen_cfg(Size::NINE, 1)
        },
        GeneratorConfig {
            se: Some(Profile::Se),
            ..gen_cfg(Size::FOUR, 1)
        },
        GeneratorConfig {
            se: Some(Profile::Se),
            se_require: vec![Producer::TwoStrongLinks],
            ..gen_cfg(Size::NINE, 1)
        },
        GeneratorConfig {
            se_require: vec![Producer::XWing],
            ..gen_cfg(Size::NINE, 1)
        },
    ] {
        assert!(matches!(
            Generator::new(cfg).next(),
            Err(GenerateError::Invalid(_))
        ));
    }
}

/// The two-stage check (local repair up to a node cap, then the plain
/// exclusion search with lookahead) decides every clue of a removal pass as
/// the repair search alone does: a 16×16 pass with a cap of 3 repair nodes,
/// so many checks switch searches, against the pass with no cap.
#[test]
fn two_stage_checks_decide_as_the_repair_search_issue_17() {
    let size = Size::SIXTEEN;
    for seed in [1u64, 2] {
        let mut rng = SplitMix64::new(seed);
        let solution = random_full_grid(size, &mut rng, None).expect("a grid");
        let mut order: Vec<usize> = (0..size.cells()).collect();
        rng.shuffle(&mut order);
        let (mut a, mut b) = (Wide::new(), Wide::new());
        let mut puzzle = solution.clone();
        let limits = Limits::none();
        let (mut switched, mut kept, mut removed) = (0, 0, 0);
        for &cell in &order {
            puzzle.set(cell, 0);
            let whole = check_cell(&mut a, &puzzle, &solution, cell, &limits, u64::MAX);
            let staged = check_cell(&mut b, &puzzle, &solution, cell, &limits, 3);
            assert!(whole.stop.is_complete() || whole.stats.solutions > 0);
            assert!(staged.stop.is_complete() || staged.stats.solutions > 0);
            assert_eq!(
                whole.stats.solutions > 0,
                staged.stats.solutions > 0,
                "cell {cell} of {}",
                puzzle.to_line()
            );
            switched += usize::from(whole.stats.nodes > 3);
            if whole.stats.solutions > 0 {
                kept += 1;
                puzzle.set(cell, solution.get(cell));
            } else {
                removed += 1;
            }
        }
        assert!(switched > 10, "the second stage ran ({switched} checks)");
        assert!(kept > 0 && removed > 0);
    }
}

/// A node budget smaller than the repair cap is the whole check's budget:
/// the check is cut, never answered by a second search.
#[test]
fn two_stage_checks_keep_the_node_budget_issue_17() {
    let size = Size::SIXTEEN;
    let mut rng = SplitMix64::new(5);
    let solution = random_full_grid(size, &mut rng, None).expect("a grid");
    let mut puzzle = Grid::empty(size);
    // A nearly empty puzzle: its checks need many nodes.
    for cell in (0..size.cells()).step_by(7) {
        puzzle.set(cell, solution.get(cell));
    }
    let cell = (0..size.cells()).find(|&c| puzzle.get(c) == 0).unwrap();
    let mut wide = Wide::new();
    for (budget, cap) in [(1u64, 2_000u64), (5, 3)] {
        let limits = Limits::none().with_max_nodes(budget);
        let r = check_cell(&mut wide, &puzzle, &solution, cell, &limits, cap);
        assert!(r.stats.nodes <= budget + 2, "{} nodes", r.stats.nodes);
    }
}

/// The parallel removal pass decides exactly as the one-thread pass: the
/// same puzzles, the same minimal flags and the same checks counted, on
/// 16×16 (no budget) and 25×25 (the default node budget, whose cut checks
/// are redone when a removal was committed meanwhile).
#[test]
fn parallel_removal_pass_makes_the_same_puzzles() {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicU64, Ordering};
    let make = |size: Size, seed: u64, threads: usize, n: usize| {
        let checks = Arc::new(AtomicU64::new(0));
        let cfg = GeneratorConfig {
            check_threads: threads,
            ..gen_cfg(size, seed)
        };
        let mut g = Generator::new(cfg).with_progress(Arc::clone(&checks));
        let made: Vec<(Grid, bool)> = (0..n)
            .map(|_| {
                let p = g.next().expect("a puzzle");
                (p.puzzle, p.minimal)
            })
            .collect();
        (made, checks.load(Ordering::Relaxed))
    };
    for seed in [1, 2] {
        let one = make(Size::SIXTEEN, seed, 1, 3);
        assert_eq!(one.1, 3 * 256);
        for threads in [2, 3] {
            assert_eq!(
                make(Size::SIXTEEN, seed, threads, 3),
                one,
                "seed {seed}, {threads} threads"
            );
        }
    }
    let one = make(Size::TWENTY_FIVE, 1, 1, 1);
    assert_eq!(make(Size::TWENTY_FIVE, 1, 2, 1), one);
    let mut check = Method::MrvHidden.solver();
    let (n, r) = check.count(&one.0[0].0, 2, &Limits::none().with_max_nodes(5_000_000));
    assert!(n == 1 && r.stop.is_complete(), "{r:?}");
}

/// A parallel pass cancelled or out of time in the middle stops with the
/// error, not a hang (minimal 25×25 puzzles of seed 2 take half a minute).
#[test]
fn parallel_removal_pass_stops_on_cancel_and_deadline() {
    let cfg = GeneratorConfig {
        check_threads: 3,
        check_nodes: u64::MAX,
        ..gen_cfg(Size::TWENTY_FIVE, 2)
    };
    let token = CancelToken::new();
    let mut g = Generator::new(cfg.clone()).with_cancel(token.clone());
    let started = Instant::now();
    let canceller = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(300));
        token.cancel();
    });
    assert!(matches!(g.next(), Err(GenerateError::Cancelled)));
    canceller.join().expect("cancelled");
    let mut g = Generator::new(cfg);
    let soon = crate::time::Instant::now() + Duration::from_millis(300);
    assert!(matches!(
        g.generate_seeded_by(5, Some(soon)),
        Err(GenerateError::TooRare { .. })
    ));
    assert!(started.elapsed() < Duration::from_secs(20));
}
