use super::*;
use crate::generate::{SplitMix64, random_full_grid};
use crate::solve::Wide;

#[test]
fn luby_sequence() {
    let got: Vec<u64> = (0..15).map(luby).collect();
    assert_eq!(got, [1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8]);
}

/// Whether an assignment (bit `v` of `m`) satisfies the clauses, groups and
/// assumptions.
fn satisfies(m: u32, clauses: &[Vec<Lit>], groups: &[Vec<Var>], assumptions: &[Lit]) -> bool {
    let t = |l: &Lit| ((m >> l.var()) & 1 == 1) != l.is_neg();
    clauses.iter().all(|c| c.iter().any(t))
        && groups
            .iter()
            .all(|g| g.iter().filter(|&&v| (m >> v) & 1 == 1).count() <= 1)
        && assumptions.iter().all(t)
}

fn random_lit(rng: &mut SplitMix64, vars: usize) -> Lit {
    Lit::new(rng.below(vars) as Var, rng.below(2) == 0)
}

/// Random small formulas (clauses and at-most-one groups) checked against
/// every assignment, each under several sets of assumptions on one solver,
/// so the clauses it learned in one call are used in the next.
#[test]
fn agrees_with_brute_force_under_assumptions() {
    let mut rng = SplitMix64::new(7);
    let (mut sat, mut unsat) = (0, 0);
    for round in 0..300 {
        let vars = 4 + rng.below(9); // 4..12
        let nclauses = vars * (2 + rng.below(4));
        let clauses: Vec<Vec<Lit>> = (0..nclauses)
            .map(|_| {
                let k = 1 + rng.below(4);
                (0..k).map(|_| random_lit(&mut rng, vars)).collect()
            })
            .filter(|c: &Vec<Lit>| round % 3 != 0 || c.len() > 1)
            .collect();
        let groups: Vec<Vec<Var>> = (0..rng.below(3))
            .map(|_| {
                let mut g: Vec<Var> = (0..2 + rng.below(3))
                    .map(|_| rng.below(vars) as Var)
                    .collect();
                g.sort_unstable();
                g.dedup();
                g
            })
            .collect();
        let mut s = Cdcl::new(vars);
        s.restart_unit = 1 + rng.below(8) as u64;
        for c in &clauses {
            s.add_clause(c);
        }
        for g in &groups {
            s.add_at_most_one(g);
        }
        for _ in 0..6 {
            let assumptions: Vec<Lit> = (0..rng.below(4))
                .map(|_| random_lit(&mut rng, vars))
                .collect();
            let expect = (0..1u32 << vars).any(|m| satisfies(m, &clauses, &groups, &assumptions));
            let got = s.solve(&assumptions, &Limits::none());
            if expect {
                sat += 1;
                assert_eq!(got, SatResult::Sat, "round {round}");
                let m = s
                    .model()
                    .iter()
                    .enumerate()
                    .fold(0u32, |m, (v, &b)| m | (u32::from(b) << v));
                assert!(
                    satisfies(m, &clauses, &groups, &assumptions),
                    "round {round}"
                );
            } else {
                unsat += 1;
                assert_eq!(got, SatResult::Unsat, "round {round}");
            }
        }
    }
    assert!(sat > 200 && unsat > 200, "{sat} sat, {unsat} unsat");
}

/// Pigeons into fewer holes, each pigeon placed only when `switch` is true:
/// unsatisfiable under the assumption `switch`, satisfiable without it.
fn pigeons(pigeons: usize, holes: usize) -> (Cdcl, Lit) {
    let var = |p: usize, h: usize| (p * holes + h) as Var;
    let switch = (pigeons * holes) as Var;
    let mut s = Cdcl::new(pigeons * holes + 1);
    for p in 0..pigeons {
        let mut c: Vec<Lit> = (0..holes).map(|h| Lit::pos(var(p, h))).collect();
        c.push(Lit::neg(switch));
        s.add_clause(&c);
    }
    for h in 0..holes {
        let g: Vec<Var> = (0..pigeons).map(|p| var(p, h)).collect();
        s.add_at_most_one(&g);
    }
    (s, Lit::pos(switch))
}

#[test]
fn pigeonhole_with_assumptions_and_learned_clauses_reused() {
    let (mut s, switch) = pigeons(7, 6);
    assert_eq!(s.solve(&[switch], &Limits::none()), SatResult::Unsat);
    let first = s.stats().conflicts;
    assert!(first > 100, "{first} conflicts");
    assert!(s.stats().learned > 0);
    // The same question again: what was learned answers it at once.
    assert_eq!(s.solve(&[switch], &Limits::none()), SatResult::Unsat);
    let second = s.stats().conflicts - first;
    assert!(
        second * 10 < first,
        "{second} conflicts again, {first} first"
    );
    // Without the assumption the formula has models (every pigeon out).
    assert_eq!(s.solve(&[], &Limits::none()), SatResult::Sat);
    assert!(!s.model()[switch.var() as usize]);
    assert_eq!(s.solve(&[!switch], &Limits::none()), SatResult::Sat);
    // A fresh solver with a conflict budget stops with an unknown answer.
    let (mut t, switch) = pigeons(8, 7);
    let limits = Limits {
        max_nodes: Some(50),
        ..Limits::none()
    };
    assert_eq!(
        t.solve(&[switch], &limits),
        SatResult::Unknown(StopReason::NodeLimit)
    );
    assert_eq!(t.solve(&[switch], &Limits::none()), SatResult::Unsat);
}

#[test]
fn contradictions_at_the_root() {
    let mut s = Cdcl::new(3);
    assert!(s.add_clause(&[Lit::pos(0), Lit::pos(1)]));
    assert!(s.add_clause(&[Lit::neg(0)]));
    assert_eq!(s.solve(&[Lit::neg(1)], &Limits::none()), SatResult::Unsat);
    assert_eq!(s.solve(&[], &Limits::none()), SatResult::Sat);
    assert!(s.model()[1]);
    assert!(s.add_at_most_one(&[1, 2]));
    assert_eq!(s.solve(&[Lit::pos(2)], &Limits::none()), SatResult::Unsat);
    assert!(!s.add_clause(&[Lit::pos(2)]));
    assert_eq!(s.solve(&[], &Limits::none()), SatResult::Unsat);
    let mut e = Cdcl::new(1);
    assert!(!e.add_clause(&[]));
    assert_eq!(e.solve(&[], &Limits::none()), SatResult::Unsat);
}

/// The generator's check by the formula agrees with `wide`'s exclusion
/// search on every cell of a removal pass (both answers occur), and a second
/// solution found is a solution of the puzzle with another digit there.
fn agrees_with_wide(size: Size, seed: u64, passes: usize) -> (usize, usize) {
    let mut rng = SplitMix64::new(seed);
    let mut wide = Wide::new();
    let mut sat = SudokuSat::new(size);
    let (mut kept, mut removed) = (0, 0);
    for _ in 0..passes {
        let solution = random_full_grid(size, &mut rng, None).expect("no deadline");
        let mut order: Vec<usize> = (0..size.cells()).collect();
        rng.shuffle(&mut order);
        let mut puzzle = solution.clone();
        for &cell in &order {
            puzzle.set(cell, 0);
            let digit = solution.get(cell);
            let plain =
                wide.search_excluding(&puzzle, cell, digit, &Limits::solutions(1), &mut |_| {
                    std::ops::ControlFlow::Continue(())
                });
            assert!(plain.stop.is_complete() || plain.stats.solutions == 1);
            let got = sat.other_solution(&puzzle, cell, digit, &Limits::none());
            if plain.stats.solutions > 0 {
                assert_eq!(got, SatResult::Sat);
                let other = sat.solution();
                assert!(other.is_solution_of(&puzzle));
                assert_ne!(other.get(cell), digit);
                puzzle.set(cell, digit);
                kept += 1;
            } else {
                assert_eq!(got, SatResult::Unsat);
                removed += 1;
            }
        }
    }
    (kept, removed)
}

#[test]
fn sudoku_checks_agree_with_wide_nine() {
    let (kept, removed) = agrees_with_wide(Size::NINE, 3, 12);
    assert!(
        kept > 100 && removed > 100,
        "{kept} kept, {removed} removed"
    );
}

#[test]
fn sudoku_checks_agree_with_wide_sixteen() {
    let (kept, removed) = agrees_with_wide(Size::SIXTEEN, 5, 2);
    assert!(
        kept > 100 && removed > 100,
        "{kept} kept, {removed} removed"
    );
}
