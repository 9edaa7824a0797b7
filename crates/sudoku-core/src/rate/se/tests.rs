//! Tests of the Explainer-style rater: agreement with Explainer's ratings on
//! slices of the calibration list (`testdata/rate/se_calibration.tsv`, the
//! published SukakuExplainer ratings; `testdata/rate/se121_reference.tsv`,
//! ratings by SukakuExplainer with Sudoku Explainer 1.2.1's technique set,
//! see `testdata/rate/README.md`), and every step of every technique checked
//! against the unique solution.

use super::*;
use crate::solve::{Limits, Method, Uniqueness};

struct Row {
    src: String,
    id: String,
    grid: Grid,
    er: u16,
    ep: Option<u16>,
    ed: Option<u16>,
    /// The published hardest technique, where given.
    hardest: Option<String>,
}

fn tenths(s: &str) -> Option<u16> {
    let v: f64 = s.trim().parse().ok()?;
    Some((v * 10.0).round() as u16)
}

fn slice(name: &str) -> Vec<Row> {
    let path = format!(
        "{}/../../testdata/rate/{name}.tsv",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.starts_with('#') && !l.trim().is_empty())
        .map(|(n, l)| {
            let f: Vec<&str> = l.split('\t').collect();
            assert!(f.len() >= 6, "{path}: line {}: too few fields", n + 1);
            Row {
                src: f[0].to_string(),
                id: f[1].to_string(),
                grid: f[2]
                    .parse()
                    .unwrap_or_else(|e| panic!("{path}: line {}: {e}", n + 1)),
                er: tenths(f[3]).unwrap_or_else(|| panic!("{path}: line {}: er", n + 1)),
                ep: tenths(f[4]),
                ed: tenths(f[5]),
                hardest: f
                    .get(6)
                    .map(|h| h.trim().to_string())
                    .filter(|h| !h.is_empty() && h != "None"),
            }
        })
        .collect()
}

fn rater_for(profile: Profile, row: &Row) -> SeRater {
    let r = SeRater::new(profile);
    if row.src == "sx-diabolical" {
        r.without(Producer::FourStrongLinks)
            .without(Producer::UvwxyzWing)
            .without(Producer::TuvwxyzWing)
            .with_early_link_values()
    } else {
        r
    }
}

fn solution(grid: &Grid) -> Grid {
    let mut solver = Method::Fast.solver();
    match solver.uniqueness(grid, &Limits::default()).0 {
        Uniqueness::Unique(s) => s,
        other => panic!("{}: not uniquely solvable: {other:?}", grid.to_line()),
    }
}

/// (rated, rated and equal on every published figure, mismatches).
fn agreement(profile: Profile, rows: &[Row]) -> (usize, usize, Vec<String>) {
    let (mut rated, mut equal) = (0, 0);
    let mut wrong = Vec::new();
    for row in rows {
        let r = rater_for(profile, row).rate(&row.grid);
        if r.outcome != SeOutcome::Rated {
            assert_eq!(r.outcome, SeOutcome::Unrated, "{}", row.id);
            assert!(
                r.stopped_at.is_some(),
                "{}: unrated without a reason",
                row.id
            );
            continue;
        }
        rated += 1;
        let ok =
            r.er == row.er && row.ep.is_none_or(|x| x == r.ep) && row.ed.is_none_or(|x| x == r.ed);
        if ok {
            equal += 1;
        } else {
            wrong.push(format!(
                "{}: ours {}/{}/{}, Explainer {}/{:?}/{:?}",
                row.id, r.er, r.ep, r.ed, row.er, row.ep, row.ed
            ));
        }
    }
    (rated, equal, wrong)
}

// The floors below are what this ladder measured when the test was
// written; a change that rates fewer puzzles, or any that disagrees, fails.

#[test]
fn sukaku_profile_agrees_with_the_published_ratings() {
    let rows = slice("se_calibration");
    let (rated, equal, wrong) = agreement(Profile::Sukaku, &rows);
    assert!(wrong.is_empty(), "disagreements: {wrong:#?}");
    assert!(rated >= 476, "only {rated} of {} rated", rows.len());
    assert_eq!(rated, equal);
}

#[test]
fn sukaku_names_strong_link_fishes_and_wings_as_sukakuexplainer_does() {
    // Where the hardest step is one of SukakuExplainer's additions, the
    // name (with its pattern suffix) is the published one.
    let mut seen = 0;
    for row in slice("se_calibration") {
        let Some(h) = &row.hardest else { continue };
        let added = ["Wing ", "Strong", "Skyscraper", "Kite"]
            .iter()
            .any(|k| h.contains(k))
            && !h.starts_with("XY");
        if !added {
            continue;
        }
        let r = rater_for(Profile::Sukaku, &row).rate(&row.grid);
        assert_eq!(r.hardest, Some(h.as_str()), "{}", row.id);
        seen += 1;
    }
    assert!(seen >= 30, "only {seen} rows with an added technique");
}

#[test]
fn se_profile_agrees_with_explainer_1_2_1() {
    let rows = slice("se121_reference");
    let (rated, equal, wrong) = agreement(Profile::Se, &rows);
    assert!(wrong.is_empty(), "disagreements: {wrong:#?}");
    // Every row of this slice is within the ladder now.
    assert_eq!(rated, rows.len(), "only {rated} of {} rated", rows.len());
    assert_eq!(rated, equal);
}

/// Check one step against the solution: it places only true digits and
/// removes no true candidate, and it changes something.
fn check_step(b: &Board, s: &SeStep, sol: &Grid, context: &str) {
    let mut changes = false;
    if let Some(p) = s.placement {
        assert_eq!(
            sol.get(p.cell),
            p.digit,
            "{context}: {} places a wrong digit",
            s.prose()
        );
        changes |= b.value[p.cell] == 0;
    }
    for e in &s.eliminations {
        assert_ne!(
            sol.get(e.cell),
            e.digit,
            "{context}: {} removes the solution's digit",
            s.prose()
        );
        changes |= b.has(e.cell, e.digit);
    }
    assert!(changes, "{context}: {} changes nothing", s.prose());
    assert!((10..=120).contains(&s.tenths), "{context}: {}", s.prose());
}

/// Along each puzzle's path, every implemented ladder entry is asked for its
/// step at every state (not only the one taken), and each is checked.
#[test]
fn every_step_of_every_technique_is_true() {
    let mut rows = slice("se121_reference");
    rows.extend(slice("se_calibration").into_iter().step_by(3));
    rows.extend(slice("se_dynamic_plus"));
    let mut checked = [0usize; 64];
    let slow = std::env::var_os("SLOW_TESTS").is_some();
    for profile in [Profile::Se, Profile::Sukaku] {
        for row in &rows {
            let sol = solution(&row.grid);
            let Some(mut b) = Board::from_candidates(&Candidates::from_grid(&row.grid)) else {
                panic!("{}: not 9x9", row.id);
            };
            let mut step = SeStep::new();
            let mut memo = Memo::default();
            for n in 0..200 {
                if b.is_solved() {
                    break;
                }
                let context = format!("{} ({profile}) state {n}", row.id);
                b.settle();
                for &p in profile.ladder() {
                    // The chain searches are slow at opt-level 1: by
                    // default they are checked where the path takes them
                    // (below), with SLOW_TESTS at every state.
                    // So are the 3- and 4-link fishes and the wings of
                    // five or more cells (their per-state checks run with
                    // SLOW_TESTS).
                    let heavy = matches!(
                        p,
                        Producer::ThreeStrongLinks
                            | Producer::FourStrongLinks
                            | Producer::VwxyzWing
                            | Producer::UvwxyzWing
                    );
                    if (p >= Producer::ForcingChainsCycles || heavy) && !slow {
                        continue;
                    }
                    if p.is_implemented() && p.find(&b, &mut step, profile) {
                        check_step(&b, &step, &sol, &context);
                        checked[p as usize] += 1;
                    }
                }
                let rater = SeRater::new(profile);
                if rater.find(&mut b, &mut step, &mut memo).is_err() {
                    break;
                }
                // What the path's memo kept changes nothing: a search from
                // scratch takes the same step.
                let mut fresh = SeStep::new();
                assert!(rater.find(&mut b, &mut fresh, &mut Memo::default()).is_ok());
                fresh.producer = step.producer;
                assert_eq!(fresh, step, "{context}: the memo changed the step");
                check_step(&b, &step, &sol, &context);
                checked[step.producer as usize] += 1;
                for e in &step.eliminations {
                    b.eliminate(e.cell, e.digit);
                }
                if let Some(p) = step.placement {
                    b.place(p.cell, p.digit);
                }
                b.settle();
                // The kept caches equal freshly computed ones.
                let mut fresh = b.clone();
                fresh.refresh();
                fresh.settle();
                assert_eq!(fresh, b, "{context}: stale cache");
            }
        }
    }
    // Every implemented technique was exercised (the sukaku ladder holds
    // every producer).
    for &p in Profile::Sukaku.ladder() {
        if p.is_implemented() {
            assert!(
                checked[p as usize] > 0,
                "{p} never found a step in the slices"
            );
        }
    }
}

#[test]
fn figures_follow_explainers_definitions() {
    // ER is the hardest step, ED the first step's, EP the hardest up to the
    // first placement.
    for row in slice("se121_reference").iter().take(60) {
        let (steps, r) = SeRater::new(Profile::Se).explain(&row.grid);
        if r.outcome != SeOutcome::Rated {
            continue;
        }
        assert_eq!(r.er, steps.iter().map(|s| s.tenths).max().unwrap_or(0));
        assert_eq!(r.ed, steps.first().map_or(0, |s| s.tenths));
        let first_place = steps.iter().position(|s| s.placement.is_some());
        let ep = first_place.map_or(0, |i| {
            steps[..=i].iter().map(|s| s.tenths).max().unwrap_or(0)
        });
        assert_eq!(r.ep, ep, "{}", row.id);
        assert_eq!(r.steps as usize, steps.len());
    }
}

#[test]
fn a_deadline_gives_unrated_never_a_number() {
    // Explainer rates this one 11.0 (line 5 of `forum_hardest_1106`): after
    // two hidden singles, one dynamic forcing chain (+) and two nested ones
    // of the first level, its sixth step needs the second nesting level
    // ("+ Multiple Forcing Chains"), seconds of work.
    let g: Grid =
        "..4..3....7..8....2.81....6..3....9..8..2....1..7....3......45....8..9....9..5..8"
            .parse()
            .unwrap();
    // A time limit already passed stops at once.
    let limited = SeRater::new(Profile::Se).with_limits(SeLimits {
        deadline: Some(Instant::now()),
    });
    let r = limited.rate(&g);
    assert_eq!(
        (r.outcome, r.stopped_at, r.steps),
        (SeOutcome::Unrated, Some("time limit"), 0)
    );
    // One that passes during the forcing chains stops within the step (the
    // searches read it too): unrated, the figures so far a lower bound.
    let limited = SeRater::new(Profile::Se).with_limits(SeLimits {
        deadline: Some(Instant::now() + std::time::Duration::from_millis(20)),
    });
    let r = limited.rate(&g);
    assert_eq!(
        (r.outcome, r.stopped_at),
        (SeOutcome::Unrated, Some("time limit"))
    );
    assert!(r.steps < 6 && r.er <= 109, "{r:?}");
}

/// A candidate grid from a grid line and 81 pencilmarks ("." for a filled
/// cell, else the cell's digits).
fn pencilmarks(grid: &str, marks: &str) -> Candidates {
    let g: Grid = grid.parse().expect("grid");
    let masks: Vec<u32> = marks
        .split_whitespace()
        .map(|m| {
            m.chars()
                .filter_map(|c| c.to_digit(10))
                .fold(0, |acc, d| acc | 1 << (d - 1))
        })
        .collect();
    Candidates::with_pencilmarks(&g, &masks).expect("81 cells")
}

/// Steps of the deeper nesting levels, as SukakuExplainer (serate 1.18.1,
/// SE 1.2.1's rules, nested chains on) takes them: its path on these
/// puzzles was compared with ours step by step (`se_nested_deep.tsv`).
#[test]
fn deeper_nested_forcing_chains_take_explainers_steps() {
    // Line 17 of `forum_hardest_1106` (11.2/1.2/1.2) before its fifth
    // step, the first of the second level ("+ Multiple Forcing Chains").
    let c = pencilmarks(
        ".......58..6...7..84..7...3.....1.....9.2.1.....6.9...5...8...2..7...8..238....4.",
        "1379 1279 123 12349 13469 2346 2469 . . 139 1259 . 1234589 13459 23458 . 129 149 \
         . . 125 1259 . 256 269 1269 . 3467 25678 2345 34578 345 . 234569 236789 45679 3467 \
         5678 . 34578 . 478 . 3678 4567 1347 12578 12345 . 345 . 2345 2378 457 . 169 14 1479 \
         . 3467 369 13679 . 1469 169 . 123459 134569 23456 . 1369 1569 . . . 1579 1569 567 \
         569 . 15679",
    );
    let s = SeRater::new(Profile::Se).next_step(&c).expect("a step");
    assert_eq!(s.producer, Producer::NestedForcingChains);
    assert_eq!(
        (s.name, s.tenths),
        (
            "Dynamic Contradiction Forcing Chains (+ Multiple Forcing Chains)",
            111
        )
    );
    // r2c4 cannot be 1.
    assert_eq!(s.eliminations, vec![SeCandidate { cell: 12, digit: 1 }]);
    assert_eq!(s.placement, None);
    // Line 195 (11.4/1.2/1.2) before its fourth step, of the third level
    // ("+ Dynamic Forcing Chains": dynamic chains inside the chains).
    let c = pencilmarks(
        "1.....7....71.9...68..7......1.9.6.....3...2..4......3..8.6.1..5......4..1...2..5",
        ". 2359 23459 24568 23458 34568 . 3589 2489 234 235 . . 23458 . 23458 3568 468 . . \
         23459 245 . 345 23459 1359 1249 2378 2357 . 24578 . 4578 . 578 478 789 5679 569 . \
         1458 145678 4589 . 14789 2789 . 2569 25678 1258 15678 589 15789 . 23479 2379 . 4579 \
         . 3457 . 379 279 . 23679 2369 789 138 1378 2389 . 26789 3479 . 3469 4789 348 . 389 \
         36789 .",
    );
    let s = SeRater::new(Profile::Se).next_step(&c).expect("a step");
    assert_eq!(
        (s.name, s.tenths),
        (
            "Dynamic Contradiction Forcing Chains (+ Dynamic Forcing Chains)",
            114
        )
    );
    // r1c8 cannot be 3.
    assert_eq!(s.eliminations, vec![SeCandidate { cell: 7, digit: 3 }]);
}

/// The puzzles of `se_nested_deep.tsv` rated as serate rates them (slow:
/// seconds each; with SLOW_TESTS only).
#[test]
fn deeper_nested_forcing_chains_rate_as_explainer_does() {
    if std::env::var_os("SLOW_TESTS").is_none() {
        return;
    }
    let rows = slice("se_nested_deep");
    assert!(!rows.is_empty());
    let (rated, equal, wrong) = agreement(Profile::Se, &rows);
    assert_eq!((rated, equal), (rows.len(), rows.len()), "{wrong:?}");
}

#[test]
fn chains_and_aligned_triplets_rate_as_explainer_1_2_1_does() {
    // Explainer 1.2.1's figures (ER/EP/ED) and hardest technique.
    for (line, er, ep, ed, hardest) in [
        (
            "..21....8.68....4.71...9...8..2.17......6......59.8..3...6...17.7....83.2....79..",
            75,
            12,
            12,
            "Aligned Triplet Exclusion",
        ),
        (
            "7.6132.4883.7541..41.689...5.824361.64397182512.865..42..396481.81427....64518...",
            71,
            71,
            66,
            "Forcing Chain",
        ),
        (
            "2...8.419......865..8...72317..2.358...8.16728.2...194.8....931541.7.286923618547",
            67,
            67,
            67,
            "Forcing X-Chain",
        ),
        (
            "16328975479.4.38.148.1.....6397142858475....3251..847.528.41.979748.5..23169..548",
            66,
            66,
            66,
            "Turbot Fish",
        ),
        (
            "64125.7.338267..15....316...931.6..7416.273.......3.61.2.76513.76531....13...2576",
            78,
            78,
            26,
            "Nishio Forcing Chains",
        ),
        (
            "92..8.5.73..9.7..6......8....4......6..7..3.5253.......32519.685..2.8...8.96...52",
            85,
            78,
            26,
            "Cell Forcing Chains",
        ),
        (
            ".1..45..7..817....47.82.13.....51.9..6..8..7..2.637...193768542....927.....51....",
            84,
            73,
            26,
            "Region Forcing Chains",
        ),
        (
            "7...43.8....2....3..958.6....5...9...8.....6...7...1....1.528..2....8....4.19...7",
            89,
            23,
            23,
            "Dynamic Cell Forcing Chains",
        ),
        (
            "...9..21.9.4.1......2..6..8...6..45..9.7.5.2..46..9...4..8..3......6.5.2.67..3...",
            89,
            12,
            12,
            "Dynamic Region Forcing Chains",
        ),
        (
            ".1..6..3.2.......5..4...8..12..8..54..3...9..4.......77..2.4..8...8.6.....6.5.1..",
            91,
            12,
            12,
            "Dynamic Contradiction Forcing Chains",
        ),
        (
            "397....5..58..3.64.46..593.63958..2.512....868742163957634.851.98.7..64.42....87.",
            71,
            71,
            26,
            "Bidirectional Cycle",
        ),
    ] {
        let g: Grid = line.parse().unwrap();
        let r = SeRater::new(Profile::Se).rate(&g);
        assert_eq!(r.outcome, SeOutcome::Rated, "{line}");
        assert_eq!(
            (r.er, r.ep, r.ed, r.hardest),
            (er, ep, ed, Some(hardest)),
            "{line}"
        );
    }
}

/// Puzzles whose path takes dynamic forcing chains (+), rated as
/// SukakuExplainer set to SE 1.2.1's rules rates them (both profiles: the
/// chains' inner techniques are the same).
#[test]
fn dynamic_forcing_chains_plus_rate_as_explainer_does() {
    let rows = slice("se_dynamic_plus");
    assert!(rows.len() >= 3);
    for profile in [Profile::Se, Profile::Sukaku] {
        let (rated, equal, wrong) = agreement(profile, &rows);
        assert_eq!(
            (rated, equal),
            (rows.len(), rows.len()),
            "{profile}: {wrong:?}"
        );
    }
}

/// Puzzles whose path takes nested forcing chains of the first level ("+
/// Forcing Chains"), rated as SukakuExplainer set to SE 1.2.1's rules rates
/// them (their paths were compared with its step by step). Two of them by
/// default (a few seconds at the test profile's opt-level 1), all twelve
/// with SLOW_TESTS.
#[test]
fn nested_forcing_chains_rate_as_explainer_does() {
    let slow = std::env::var_os("SLOW_TESTS").is_some();
    let rows: Vec<Row> = slice("se_nested")
        .into_iter()
        .filter(|r| slow || r.id == "h1106-1" || r.id == "h1106-3")
        .collect();
    assert!(rows.len() >= 2);
    let (rated, equal, wrong) = agreement(Profile::Se, &rows);
    assert_eq!((rated, equal), (rows.len(), rows.len()), "{wrong:?}");
    // Their paths take nested steps, each one true.
    let row = &rows[0];
    let sol = solution(&row.grid);
    let (steps, _) = SeRater::new(Profile::Se).explain(&row.grid);
    let mut b = Board::from_grid(&row.grid).expect("9x9");
    let mut nested = 0;
    for (n, s) in steps.iter().enumerate() {
        if s.producer == Producer::NestedForcingChains {
            assert!(s.name.ends_with(" (+ Forcing Chains)"), "{}", s.name);
            assert!(s.tenths >= 95);
            nested += 1;
        }
        b.settle();
        check_step(&b, s, &sol, &format!("{} step {n}", row.id));
        for e in &s.eliminations {
            b.eliminate(e.cell, e.digit);
        }
        if let Some(p) = s.placement {
            b.place(p.cell, p.digit);
        }
    }
    assert!(nested > 0, "{}: no nested step", row.id);
}

/// The board built straight from a puzzle is the one its candidate grid
/// gives (the rater builds it the first way, `next_step` the second).
#[test]
fn a_board_from_the_grid_equals_the_board_from_its_candidates() {
    let mut rows = slice("se121_reference");
    rows.extend(slice("se_calibration"));
    for row in &rows {
        let direct = Board::from_grid(&row.grid);
        let via = Board::from_candidates(&Candidates::from_grid(&row.grid));
        assert!(direct.is_some(), "{}", row.id);
        assert_eq!(direct, via, "{}", row.id);
    }
}

#[test]
fn grids_it_cannot_rate_are_invalid() {
    let small: Grid = "1.....2...3..4..".parse().unwrap();
    assert_eq!(
        SeRater::new(Profile::Se).rate(&small).outcome,
        SeOutcome::Invalid
    );
    let mut conflict = Grid::from_cells(vec![0; 81]).unwrap();
    conflict.set(0, 1);
    conflict.set(1, 1); // 1 twice in row 1
    assert_eq!(
        SeRater::new(Profile::Sukaku).rate(&conflict).outcome,
        SeOutcome::Invalid
    );
}

#[test]
fn profiles_by_name() {
    for p in [Profile::Se, Profile::Sukaku] {
        assert_eq!(Profile::from_name(p.name()), Some(p));
    }
    assert_eq!(Profile::from_name("explainer"), None);
}

/// The hidden and naked singles read from what the board keeps (its
/// single-place digits per region, its digits' cell sets) are the ones a
/// rescan of every region's positions and every cell finds in Explainer's
/// order, at every state of a path, whether the scan words are kept yet or
/// not (the path's board starts keeping them at its first step past the
/// hidden singles).
#[test]
fn singles_from_what_the_board_keeps_equal_a_rescan() {
    let mut rows = slice("se121_reference");
    rows.extend(slice("se_calibration").into_iter().step_by(7));
    let (mut hidden_seen, mut naked_seen) = (0, 0);
    for row in &rows {
        let Some(mut b) = Board::from_grid(&row.grid) else {
            panic!("{}: not a 9x9 puzzle", row.id);
        };
        let rater = SeRater::new(Profile::Sukaku);
        let (mut step, mut memo) = (SeStep::new(), Memo::default());
        for n in 0..200 {
            if b.is_solved() {
                break;
            }
            // Hidden: regions with one empty cell first, then blocks,
            // columns, rows, each ascending; digits ascending.
            let mut want = None;
            'scan: for alone in [true, false] {
                for kind in [board::BLOCK, board::COLUMN, board::ROW] {
                    for r in kind * 9..kind * 9 + 9 {
                        if (b.empty_in(r) == 1) != alone {
                            continue;
                        }
                        for d in 1..=9u8 {
                            let p = b.positions(r, d);
                            if p.count_ones() == 1 {
                                let c = board::REGION_CELLS[r][p.trailing_zeros() as usize];
                                want = Some((c as usize, d));
                                break 'scan;
                            }
                        }
                    }
                }
            }
            let mut got = SeStep::new();
            let found = singles::hidden(&b, &mut got);
            assert_eq!(
                found
                    .then(|| got.placement.map(|p| (p.cell, p.digit)))
                    .flatten(),
                want,
                "{} state {n}: hidden single",
                row.id
            );
            hidden_seen += usize::from(found);
            // Naked: the first empty cell in reading order with one
            // candidate.
            let want = (0..81).find(|&c| b.value[c] == 0 && b.cand[c].count_ones() == 1);
            let got = b.naked_cells();
            assert_eq!(
                (got != 0).then(|| got.trailing_zeros() as usize),
                want,
                "{} state {n}: naked single",
                row.id
            );
            naked_seen += usize::from(want.is_some());
            if rater.find(&mut b, &mut step, &mut memo).is_err() {
                break;
            }
            for e in &step.eliminations {
                b.eliminate(e.cell, e.digit);
            }
            if let Some(p) = step.placement {
                b.place(p.cell, p.digit);
            }
        }
    }
    assert!(
        hidden_seen > 1000 && naked_seen > 1000,
        "{hidden_seen} {naked_seen}"
    );
}

/// Conflicting givens in any region kind, or a digit past 9 (possible
/// through `Grid::cells_mut`), give no board: invalid, never a panic.
#[test]
fn conflicts_and_digits_past_nine_give_no_board() {
    // (cells 0 and 20 share block 1 only; 0 and 72 column 1 only)
    for (a, b, d) in [(0, 20, 5), (0, 72, 9), (3, 8, 2)] {
        let mut g = Grid::from_cells(vec![0; 81]).expect("81 empty cells");
        g.set(a, d);
        g.set(b, d);
        assert!(Board::from_grid(&g).is_none(), "{a} {b}");
        g.set(b, d % 9 + 1);
        assert!(Board::from_grid(&g).is_some(), "{a} {b}");
    }
    let mut g = Grid::from_cells(vec![0; 81]).expect("81 empty cells");
    g.cells_mut()[40] = 10;
    assert!(Board::from_grid(&g).is_none());
    assert_eq!(
        SeRater::new(Profile::Se).rate(&g).outcome,
        SeOutcome::Invalid
    );
}

/// The calibration list's `sx-diabolical` rows where today's values of
/// the 3-strong-link fishes give 5.5 for its 5.6 or the reverse: the
/// values before SukakuExplainer 1.17.7 give the published figure.
#[test]
fn early_link_values_give_the_lists_figures_for_its_older_build() {
    // (puzzle, published ER, today's ER)
    let rows = [
        // 3-String Kite 0112: mixed lines, no block
        (
            ".3.5....92..3......6..41.2...84..6...9..6..7...2..53...5.91..3......7..13....8.4.",
            56,
            55,
        ),
        // 3 Strong links 0011: a block link, parallel lines
        (
            "..5..3.4.1...2.3...9..6...55..2.8....72...83....4.7..22...4..1...3.7...6.6.1..2..",
            56,
            55,
        ),
        // X-loop 0012: a block link and both line kinds
        (
            "27.9.3.64..8...1...6.7.8.2....8.5...8..2.4..9..31.67...8.....7.73..4..98..9...3..",
            55,
            56,
        ),
        // 3 Strong links 0102
        (
            ".1.....7.8....69.4.62..45...47.3.......8.9.......2.65...42..78.7.61....5.8.....6.",
            55,
            56,
        ),
    ];
    for (puzzle, published, today) in rows {
        let grid: Grid = puzzle.parse().expect("a puzzle");
        let sx = SeRater::new(Profile::Sukaku)
            .without(Producer::FourStrongLinks)
            .without(Producer::UvwxyzWing)
            .without(Producer::TuvwxyzWing);
        assert_eq!(sx.clone().rate(&grid).er, today, "{puzzle}");
        let early = sx.with_early_link_values().rate(&grid);
        assert_eq!(early.outcome, SeOutcome::Rated, "{puzzle}");
        assert_eq!(early.er, published, "{puzzle}");
    }
}

/// Each step of `line`'s Explainer path under `profile` with the board it
/// was taken on, in path order: the boards a rating's searches meet, for
/// the tests that run a search on them.
pub(super) fn path_boards(line: &str, profile: Profile) -> Vec<(SeStep, Board)> {
    let g: Grid = line.parse().expect("a puzzle");
    let (steps, _) = SeRater::new(profile).explain(&g);
    let mut b = Board::from_grid(&g).expect("9x9");
    steps
        .into_iter()
        .map(|s| {
            let before = b.clone();
            apply(&mut b, &s);
            (s, before)
        })
        .collect()
}

/// Take step `s` on `b`: its eliminations, then its placement.
pub(super) fn apply(b: &mut Board, s: &SeStep) {
    for e in &s.eliminations {
        b.eliminate(e.cell, e.digit);
    }
    if let Some(p) = s.placement {
        b.place(p.cell, p.digit);
    }
}

/// Five hard puzzles whose paths take subsets and aligned exclusions: the
/// memo tests walk their boards.
pub(super) const MEMO_PUZZLES: [&str; 5] = [
    "..836....4....9...1....72.9.4.....9.78..5..12.5.....7.6.48....5...6....8....257..",
    "..15.2...7.5....96........5..9..3.81....7....54.2..3..3........96....1.2...9.74..",
    "28..4..39..6...1.....5.3......361....938.751.1.......7...915....2.....8..........",
    ".24.6.7..5.74.9.1.....7......5.9487147.6.85.3..8..7.6.7......46.46..3.57.5.7461..",
    "3.64....1.8.2...9671..6.4..96...52..17.....64..37.6..96...8..4223...46..84.6.29.5",
];

/// The boards of [`path_boards`] before each step past the singles
/// (difficulty above 2.0): what a search with a memo meets step after
/// step, for the tests that compare it with the same search from scratch.
pub(super) fn boards_past_singles(line: &str, profile: Profile) -> Vec<Board> {
    path_boards(line, profile)
        .into_iter()
        .filter(|(s, _)| s.tenths > 20)
        .map(|(_, b)| b)
        .collect()
}
