//! Variant puzzles (`sudoku_core::variant`) against the corpus
//! `testdata/variant/corpus.tsv` and the independent oracle
//! (`testkit::variant_oracle`): every line through every way the solver
//! answers (uniqueness, count, search) and, for region-only puzzles, both
//! exact-cover engines, each answer checked by the oracle's rules and, on
//! grids up to 6×6, by its own count; the variant generator's puzzles;
//! planted solutions that must come back; and the ISS reader fed mangled
//! text.

use std::ops::ControlFlow;

use proptest::prelude::*;
use sudoku_core::generate::Symmetry;
use sudoku_core::variant::exact::{self, Engine};
use sudoku_core::variant::generate::{VariantKind, generate};
use sudoku_core::variant::{Constraint, Puzzle, VariantSolver, to_line};
use sudoku_core::{Limits, StopReason, Uniqueness};
use testkit::variant_corpus::{self, VariantCase, kinds_of};
use testkit::variant_oracle::{count_solutions, rules_hold};
use testkit::variant_plant::{KINDS, mutations, planted_puzzle};
use testkit::{Count, proptest_cases};

/// Grids the oracle counts on (backtracking is quick up to 6×6).
const ORACLE_SIDE: usize = 6;

/// A node budget far above what any corpus line needs.
fn limits() -> Limits {
    Limits {
        max_nodes: Some(2_000_000),
        ..Limits::default()
    }
}

fn corpus() -> Vec<VariantCase> {
    variant_corpus::load().expect("the variant corpus loads")
}

fn parse(case: &VariantCase) -> Puzzle {
    case.puzzle
        .parse()
        .unwrap_or_else(|e| panic!("{}: {e}", case.name))
}

fn count_of(n: u64) -> Count {
    match n {
        0 => Count::Zero,
        1 => Count::One,
        _ => Count::TwoOrMore,
    }
}

#[test]
fn corpus_covers_every_kind() {
    let cases = corpus();
    assert!(cases.len() >= KINDS.len() * 7, "{} lines", cases.len());
    for &kind in KINDS {
        let with = |count: Count| {
            cases
                .iter()
                .filter(|c| c.count == count && c.kind.split('+').any(|k| k == kind))
                .count()
        };
        let (unique, several, none) = (with(Count::One), with(Count::TwoOrMore), with(Count::Zero));
        assert!(
            unique >= 5 && several >= 1 && none >= 1,
            "{kind}: {unique} unique, {several} several, {none} none"
        );
    }
}

#[test]
fn corpus_lines_read_and_round_trip() {
    for case in corpus() {
        let p = parse(&case);
        assert_eq!(case.kind, kinds_of(&p), "{}: the kind column", case.name);
        let again: Result<Puzzle, _> = p.to_string().parse();
        assert_eq!(again.as_ref(), Ok(&p), "{}: {p}", case.name);
        if let Some(s) = &case.solution {
            assert_eq!(s.len(), p.shape.cells(), "{}: solution length", case.name);
        }
        // A little killer runs diagonally from its clue to the far edge.
        for c in &p.constraints {
            if let Constraint::LittleKiller(l) = c {
                let n = p.shape.side() as i32;
                let step = |i: usize| {
                    let (a, b) = (l.cells[i], l.cells[i + 1]);
                    (b.row as i32 - a.row as i32, b.col as i32 - a.col as i32)
                };
                let d = step(0);
                assert!(d.0.abs() == 1 && d.1.abs() == 1, "{}: {c}", case.name);
                assert!(
                    (1..l.cells.len() - 1).all(|i| step(i) == d),
                    "{}: {c}",
                    case.name
                );
                let last = l.cells[l.cells.len() - 1];
                let (r, k) = (last.row as i32 + d.0, last.col as i32 + d.1);
                assert!(
                    !(0..n).contains(&r) || !(0..n).contains(&k),
                    "{}: {c}",
                    case.name
                );
            }
        }
    }
}

#[test]
fn corpus_answers_of_the_solver() {
    for case in &corpus() {
        let p = parse(case);
        let name = &case.name;
        let mut solver = VariantSolver::new(&p).unwrap_or_else(|e| panic!("{name}: {e}"));
        // Uniqueness: the count, and the solution when unique.
        let (answer, report) = solver.uniqueness(&limits());
        match (&answer, case.count) {
            (Uniqueness::NoSolution, Count::Zero) => {}
            (Uniqueness::Unique(s), Count::One) => {
                assert_eq!(
                    Some(s),
                    case.solution.as_ref(),
                    "{name}: found {}",
                    to_line(s)
                );
            }
            (Uniqueness::Multiple(a, b), Count::TwoOrMore) => {
                assert_ne!(a, b, "{name}: the same solution twice");
                for s in [a, b] {
                    assert_eq!(rules_hold(&p, s), Ok(()), "{name}: {}", to_line(s));
                }
            }
            _ => panic!(
                "{name}: {answer:?} ({:?}), expected {:?}",
                report.stop, case.count
            ),
        }
        // Count: the same, up to three.
        let (n, report) = solver.count(3, &limits());
        assert_ne!(report.stop, StopReason::NodeLimit, "{name}");
        assert_eq!(count_of(n), case.count, "{name}: count {n}");
        // Search: every solution visited keeps the rules.
        let mut seen = 0;
        solver.search(&limits().with_max_solutions(3), &mut |v| {
            assert_eq!(rules_hold(&p, v), Ok(()), "{name}: {}", to_line(v));
            seen += 1;
            ControlFlow::Continue(())
        });
        assert_eq!(seen, n, "{name}: search and count");
        if p.is_region_only() {
            exact_engines_agree(&p, name, n, case.solution.as_deref());
        }
    }
}

/// Region-only puzzles through both exact-cover engines: `count` solutions
/// (counting up to 3), each keeping the rules, the one given when unique.
fn exact_engines_agree(p: &Puzzle, name: &str, count: u64, solution: Option<&[u8]>) {
    let encoded = exact::encode(p).unwrap_or_else(|e| panic!("{name}: {e}"));
    for engine in [Engine::Links, Engine::Cells] {
        let mut found = Vec::new();
        let report = encoded.search(engine, &limits().with_max_solutions(3), &mut |v| {
            found.push(v.to_vec());
            ControlFlow::Continue(())
        });
        assert_ne!(report.stop, StopReason::NodeLimit, "{name}: {engine:?}");
        assert_eq!(found.len() as u64, count.min(3), "{name}: {engine:?}");
        for v in &found {
            assert_eq!(
                rules_hold(p, v),
                Ok(()),
                "{name}: {engine:?}: {}",
                to_line(v)
            );
        }
        if let (Some(s), [only]) = (solution, found.as_slice()) {
            assert_eq!(only.as_slice(), s, "{name}: {engine:?}");
        }
    }
}

/// The crate's variant generator: each kind on each side up to 6×6, two
/// seeds; the oracle counts one solution and it is the one returned.
#[test]
fn generated_puzzles_pass_the_oracle() {
    for kind in VariantKind::ALL {
        for &side in kind.sides().iter().filter(|&&s| s <= ORACLE_SIDE) {
            for seed in 1..=2 {
                let made = generate(kind, side, seed, Symmetry::None, &Limits::none())
                    .unwrap_or_else(|e| panic!("{kind} {side}x{side} seed {seed}: {e}"));
                let p = &made.puzzle;
                assert_eq!(rules_hold(p, &made.solution), Ok(()), "{kind}: {p}");
                assert_eq!(count_solutions(p, 2), 1, "{kind}: {p}");
            }
        }
    }
}

#[test]
fn corpus_answers_of_the_oracle() {
    for case in corpus() {
        let p = parse(&case);
        if let Some(s) = &case.solution {
            assert_eq!(rules_hold(&p, s), Ok(()), "{}", case.name);
        }
        if p.shape.side() <= ORACLE_SIDE {
            let n = count_solutions(&p, 2);
            assert_eq!(
                count_of(n),
                case.count,
                "{}: the oracle counts {n}",
                case.name
            );
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig {
        // Cases that give nothing to check (no change applies) are skipped.
        max_global_rejects: u32::MAX,
        ..ProptestConfig::with_cases(proptest_cases(64, 1000))
    })]

    /// A grid the constraints were read off is among the solutions, and
    /// every solution met on the way keeps the rules.
    #[test]
    fn planted_solution_is_found(
        (puzzle, planted) in planted_puzzle(&[4, 6, 9], &[0, 350, 600])
    ) {
        let mut solver = VariantSolver::new(&puzzle)
            .map_err(|e| TestCaseError::fail(format!("{puzzle}: {e}")))?;
        let mut found = false;
        let mut broken = None;
        let report = solver.search(&Limits::none().with_max_nodes(1_000_000), &mut |v| {
            if let Err(e) = rules_hold(&puzzle, v) {
                broken = Some(format!("{}: {e}", to_line(v)));
                return ControlFlow::Break(());
            }
            if v == planted.as_slice() {
                found = true;
                return ControlFlow::Break(());
            }
            ControlFlow::Continue(())
        });
        prop_assert!(broken.is_none(), "{}: {:?}", puzzle, broken);
        prop_assert_eq!(rules_hold(&puzzle, &planted), Ok(()), "{}", puzzle);
        prop_assert!(
            found || report.stop == StopReason::NodeLimit,
            "{}: {} not found ({:?})", puzzle, to_line(&planted), report.stop
        );
    }

    /// On small grids the solver and the oracle count alike.
    #[test]
    fn counts_agree_with_the_oracle(
        (puzzle, _) in planted_puzzle(&[4, 6], &[0, 400])
    ) {
        const UP_TO: u64 = 100;
        let (n, report) = VariantSolver::new(&puzzle)
            .map_err(|e| TestCaseError::fail(format!("{puzzle}: {e}")))?
            .count(UP_TO, &Limits::none().with_max_nodes(1_000_000));
        prop_assume!(report.stop != StopReason::NodeLimit);
        prop_assert_eq!(n, count_solutions(&puzzle, UP_TO), "{}", puzzle);
        if puzzle.is_region_only() {
            let encoded = exact::encode(&puzzle)
                .map_err(|e| TestCaseError::fail(format!("{puzzle}: {e}")))?;
            for engine in [Engine::Links, Engine::Cells] {
                let r = encoded.search(engine, &Limits::solutions(UP_TO), &mut |_| {
                    ControlFlow::Continue(())
                });
                prop_assert_eq!(r.stats.solutions, n, "{}: {:?}", puzzle, engine);
            }
        }
    }

    /// The same after one constraint is changed (a sum one off, a line
    /// reversed, a dot of the other colour...), which often leaves no
    /// solution; a puzzle the solver refuses to set up has none either.
    #[test]
    fn counts_agree_after_a_change(
        (puzzle, _) in planted_puzzle(&[4, 6], &[0, 400]),
        which in any::<prop::sample::Index>(),
        how in any::<prop::sample::Index>(),
    ) {
        const UP_TO: u64 = 100;
        prop_assume!(!puzzle.constraints.is_empty());
        let i = which.index(puzzle.constraints.len());
        let changes = mutations(&puzzle.constraints[i], puzzle.shape.side());
        prop_assume!(!changes.is_empty());
        let mut changed = puzzle.clone();
        match &changes[how.index(changes.len())] {
            Some(c) => changed.constraints[i] = c.clone(),
            None => {
                changed.constraints.remove(i);
            }
        }
        let oracle = count_solutions(&changed, UP_TO);
        match VariantSolver::new(&changed) {
            Ok(mut solver) => {
                let (n, report) = solver.count(UP_TO, &Limits::none().with_max_nodes(1_000_000));
                prop_assume!(report.stop != StopReason::NodeLimit);
                prop_assert_eq!(n, oracle, "{}", changed);
            }
            Err(e) => prop_assert_eq!(oracle, 0, "{}: refused ({})", changed, e),
        }
    }

    /// The reader never panics; what it reads writes back as itself, and
    /// the solver can be built from it (or says why not) without panicking.
    #[test]
    fn fpuzzles_reader_survives_mangled_json(text in mangled_fpuzzles()) {
        use sudoku_core::variant::fpuzzles;
        if let Ok(p) = fpuzzles::parse_json(&text) {
            if let Ok(json) = fpuzzles::to_json(&p) {
                let back = fpuzzles::parse_json(&json);
                prop_assert!(back.is_ok(), "{} wrote {}", text, json);
                let again = fpuzzles::to_json(&back.unwrap());
                prop_assert_eq!(again.as_ref().ok(), Some(&json));
            }
            let _ = VariantSolver::new(&p);
        }
    }

    #[test]
    fn reader_survives_mangled_text(text in mangled_text()) {
        if let Ok(p) = text.parse::<Puzzle>() {
            let again: Result<Puzzle, _> = p.to_string().parse();
            prop_assert_eq!(again.as_ref(), Ok(&p), "{:?} wrote {}", text, p);
            let _ = VariantSolver::new(&p);
        }
    }
}

/// Text near the ISS format: corpus lines with random edits, random runs
/// of tokens of every kind with odd arguments, and arbitrary text.
fn mangled_text() -> impl Strategy<Value = String> {
    let lines: Vec<String> = corpus().into_iter().map(|c| c.puzzle).collect();
    let arg = prop_oneof![
        "R[0-9a-hA-H]{1,2}C[0-9a-hA-H]{1,2}",
        "-?[0-9]{1,3}",
        "[RC][0-9a-g]{0,2}",
        "[0-9]{1,2}x[0-9]{1,2}",
        "[0-9_]{0,6}",
        "\\PC{0,4}",
    ];
    let mut names: Vec<&'static str> = KINDS.to_vec();
    names.extend(["Shape", "NoBoxes", "", "PillArrow", "Nope"]);
    let token = (
        proptest::sample::select(names),
        proptest::collection::vec(arg, 0..6),
    )
        .prop_map(|(kind, args)| {
            let mut t = format!(".{kind}");
            for a in args {
                t.push('~');
                t.push_str(&a);
            }
            t
        });
    let tokens = proptest::collection::vec(token, 0..6).prop_map(|t| t.concat());
    let edit = (0usize..4, any::<prop::sample::Index>(), "\\PC{0,3}");
    let edited = (
        proptest::sample::select(lines),
        proptest::collection::vec(edit, 1..4),
    )
        .prop_map(|(line, edits)| apply_edits(&line, edits));
    prop_oneof![3 => edited, 3 => tokens, 1 => "\\PC{0,40}", 1 => "[0-9.]{16,81}"]
}

/// The f-puzzles links of `testdata/variant/fpuzzles.tsv` (ISS's collections
/// give each beside its own encoding and the solution): read from the link,
/// each is the puzzle its ISS text is (the same givens and constraints, in
/// any order), and the published solution keeps its rules. (These are
/// minimal "snipes", too slow to solve in a test.)
#[test]
fn fpuzzles_links_read_as_their_iss_text() {
    let path = format!(
        "{}/../../testdata/variant/fpuzzles.tsv",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(&path).expect("testdata/variant/fpuzzles.tsv");
    let tokens = |p: &Puzzle| {
        let mut t: Vec<String> = p.constraints.iter().map(|c| c.to_string()).collect();
        t.sort();
        t
    };
    let mut read = 0;
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
    {
        let [name, link, iss, solution] = line.split('\t').collect::<Vec<_>>()[..] else {
            panic!("four columns: {line}");
        };
        let link = format!("https://www.f-puzzles.com/?load={link}");
        let from_link: Puzzle = link.parse().unwrap_or_else(|e| panic!("{name}: {e}"));
        let from_iss: Puzzle = iss.parse().unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(from_link.shape, from_iss.shape, "{name}");
        assert_eq!(from_link.candidates, from_iss.candidates, "{name}");
        assert_eq!(tokens(&from_link), tokens(&from_iss), "{name}");
        let digits: Vec<u8> = solution.bytes().map(|b| b - b'0').collect();
        assert_eq!(rules_hold(&from_link, &digits), Ok(()), "{name}");
        read += 1;
    }
    assert!(read >= 4, "{read} links");
}

/// Every corpus puzzle f-puzzles can express, written as f-puzzles JSON (and
/// as a link) and read back, has the same answer; those it cannot express
/// (sums off a diagonal, slow thermometers, double arrows, other whispers)
/// say so.
#[test]
fn corpus_round_trips_through_fpuzzles() {
    use sudoku_core::variant::fpuzzles;
    let (mut written, mut refused) = (0, 0);
    for case in corpus() {
        let p = parse(&case);
        let name = &case.name;
        let json = match fpuzzles::to_json(&p) {
            Ok(j) => j,
            Err(e) => {
                let e = e.to_string();
                assert!(e.contains("f-puzzles has no"), "{name}: {e}");
                refused += 1;
                continue;
            }
        };
        let back = fpuzzles::parse_json(&json).unwrap_or_else(|e| panic!("{name}: {e}\n{json}"));
        let link = fpuzzles::to_link(&p).expect("as JSON");
        assert_eq!(link.parse::<Puzzle>().as_ref(), Ok(&back), "{name}: link");
        let (n, report) = VariantSolver::new(&back)
            .unwrap_or_else(|e| panic!("{name}: {e}\n{back}"))
            .count(2, &limits());
        assert_ne!(report.stop, StopReason::NodeLimit, "{name}");
        assert_eq!(count_of(n), case.count, "{name}: {back}");
        if let Some(s) = &case.solution {
            let (answer, _) = VariantSolver::new(&back)
                .expect("set up")
                .uniqueness(&limits());
            assert_eq!(answer, Uniqueness::Unique(s.clone()), "{name}: {back}");
        }
        written += 1;
    }
    assert!(written >= 200, "{written} written, {refused} refused");
}

/// A line with a few random edits: a run cut, a character replaced, a run
/// copied, text inserted.
fn apply_edits(line: &str, edits: Vec<(usize, prop::sample::Index, String)>) -> String {
    let mut chars: Vec<char> = line.chars().collect();
    for (op, at, with) in edits {
        let i = at.index(chars.len() + 1);
        match op {
            0 => {
                let end = (i + 1 + at.index(8)).min(chars.len());
                if i < end {
                    chars.drain(i..end);
                }
            }
            1 if i < chars.len() => {
                chars.splice(i..=i, with.chars());
            }
            2 => {
                let copy: Vec<char> = chars[i.min(chars.len())..]
                    .iter()
                    .take(12)
                    .copied()
                    .collect();
                chars.splice(i..i, copy);
            }
            _ => {
                chars.splice(i..i, with.chars());
            }
        }
    }
    chars.into_iter().collect::<String>()
}

/// f-puzzles JSON near the real thing: corpus puzzles written as f-puzzles
/// JSON, with random edits.
fn mangled_fpuzzles() -> impl Strategy<Value = String> {
    let json: Vec<String> = corpus()
        .iter()
        .filter_map(|c| sudoku_core::variant::fpuzzles::to_json(&parse(c)).ok())
        .collect();
    let edit = (
        0usize..4,
        any::<prop::sample::Index>(),
        "[\\[\\]{}:,\"0-9RCa-z -]{0,3}",
    );
    (
        proptest::sample::select(json),
        proptest::collection::vec(edit, 1..4),
    )
        .prop_map(|(line, edits)| apply_edits(&line, edits))
}

/// The traced search is the same search: one try per guess, one solution
/// step per solution, a contradiction step per failed try's propagation,
/// and the same report as without a trace (for a classic grid, whose
/// untraced search runs on the `fast` method, the same solutions and stop).
#[test]
fn the_trace_follows_the_search() {
    use sudoku_core::TraceStep;
    for case in corpus().iter().take(120) {
        let p = parse(case);
        let mut solver = VariantSolver::new(&p).expect("set up");
        let limits = limits().with_max_solutions(3);
        let mut plain_found = Vec::new();
        let plain = solver.search(&limits, &mut |v| {
            plain_found.push(v.to_vec());
            ControlFlow::Continue(())
        });
        let mut steps = Vec::new();
        let mut traced_found = Vec::new();
        let traced = solver.search_traced(
            &limits,
            &mut |v| {
                traced_found.push(v.to_vec());
                ControlFlow::Continue(())
            },
            &mut |s| steps.push(s.clone()),
        );
        let name = &case.name;
        if solver.is_classic() {
            plain_found.sort();
            traced_found.sort();
        } else {
            assert_eq!(plain.stats.nodes, traced.stats.nodes, "{name}");
        }
        assert_eq!(plain_found, traced_found, "{name}");
        assert_eq!(plain.stop, traced.stop, "{name}");
        let count = |f: fn(&TraceStep) -> bool| steps.iter().filter(|s| f(s)).count() as u64;
        assert_eq!(
            count(|s| matches!(s, TraceStep::Try { .. })),
            traced.stats.guesses,
            "{name}"
        );
        assert_eq!(
            count(|s| matches!(s, TraceStep::Solution)),
            traced.stats.solutions,
            "{name}"
        );
        for s in &steps {
            if let TraceStep::Try {
                cell,
                candidates,
                digit,
                ..
            } = s
            {
                assert!(
                    *cell < p.shape.cells() && candidates.contains(digit),
                    "{name}: {s:?}"
                );
            }
        }
    }
}

/// Explanations of every corpus puzzle with one solution: no step places a
/// wrong digit or removes the solution's; a finished explanation is the
/// solution; and at least half finish without a guess (131 of 246 with
/// subsets and fish, 121 before them).
#[test]
fn explanations_never_contradict_the_solution() {
    use sudoku_core::variant::explain::explain;
    let (mut solved, mut total) = (0, 0);
    for case in corpus() {
        let Some(solution) = &case.solution else {
            continue;
        };
        let p = parse(&case);
        let name = &case.name;
        let e = explain(&p, 10_000).unwrap_or_else(|e| panic!("{name}: {e}"));
        let at = |c: sudoku_core::CellName| solution[p.shape.index(c)];
        for s in &e.steps {
            if let Some((c, d)) = s.placed {
                assert_eq!(d, at(c), "{name}: {}", s.text);
            }
            for &(c, d) in &s.removed {
                assert_ne!(d, at(c), "{name}: {}", s.text);
            }
        }
        for (i, &m) in e.candidates.iter().enumerate() {
            assert_ne!(m & (1 << (solution[i] - 1)), 0, "{name}: cell {i}");
        }
        total += 1;
        if e.solved {
            solved += 1;
        }
    }
    assert!(
        solved * 2 >= total,
        "{solved} of {total} explained to the end"
    );
}

/// A cage listing a cell twice counts it twice in the sum (as ISS reads
/// it): on a 4×4 grid, r1c1 + 2·r1c2 = 5 leaves (1, 2) and (3, 1).
#[test]
fn a_cell_listed_twice_in_a_cage_counts_twice() {
    let p: Puzzle = ".Shape~4x4.Cage~5~R1C1~R1C2~R1C2".parse().expect("reads");
    let mut solver = VariantSolver::new(&p).expect("set up");
    let mut firsts = std::collections::BTreeSet::new();
    solver.search(&Limits::default(), &mut |v| {
        assert_eq!(v[0] + 2 * v[1], 5, "{}", to_line(v));
        firsts.insert((v[0], v[1]));
        ControlFlow::Continue(())
    });
    assert_eq!(firsts.into_iter().collect::<Vec<_>>(), [(1, 2), (3, 1)]);
    assert_eq!(count_solutions(&p, 1000), solver.count(1000, &limits()).0);
    assert!(".Cage~40~R1C1~R1C1".parse::<Puzzle>().is_err());
}
