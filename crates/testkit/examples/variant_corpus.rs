//! Write the variant corpus, `testdata/variant/corpus.tsv` (format: the
//! `testkit::variant_corpus` module).
//!
//! `cargo run --release -p testkit --example variant_corpus -- [ISS.tsv]`
//!
//! Two sources:
//! - the Interactive Sudoku Solver's bundled examples (MIT), given as a
//!   tab-separated file of `name`, ISS text, solution: the ones this crate
//!   reads (every kind known) and its solver confirms are kept. Without the
//!   file, the `iss:` lines of the current corpus are kept as they are.
//! - puzzles made here for every kind, from a seeded random grid
//!   ([`testkit::variant_plant::planted`]): constraints read off the grid,
//!   then givens from it until the solver finds one solution, then every
//!   given the solver does not need taken away. Each kind gets
//!   [`UNIQUE`] such puzzles, one with a given removed (several solutions)
//!   and one with a clue broken (none), mostly on 6×6 and 4×4 grids where
//!   the oracle counts too.
//!
//! Every answer is checked by the oracle ([`testkit::variant_oracle`]):
//! the solution keeps every rule, and on grids up to 6×6 the oracle's count
//! agrees with the solver's. A disagreement stops the run.

use std::fmt::Write as _;
use std::time::{Duration, Instant};

use sudoku_core::generate::SplitMix64;
use sudoku_core::variant::{Puzzle, VariantSolver};
use sudoku_core::{Limits, Uniqueness};
use testkit::Count;
use testkit::variant_corpus::{self, VariantCase, kinds_of, parse_digits};
use testkit::variant_oracle::{count_solutions, rules_hold, solutions};
use testkit::variant_plant::{KINDS, mutations, planted};

/// Made-up puzzles with one solution per kind.
const UNIQUE: usize = 5;

/// The seed of the made-up puzzles.
const SEED: u64 = 0x5eed_0fc0_4905;

/// Grids the oracle counts on.
const ORACLE_SIDE: usize = 6;

/// ISS examples the solver takes longer on (in this build) are left out:
/// the test suite runs every line.
const ISS_TIME: Duration = Duration::from_millis(100);

/// The solver's answer, `None` when it took over two million nodes.
fn solve(p: &Puzzle) -> Option<Uniqueness<Vec<u8>>> {
    solve_within(
        p,
        Limits {
            max_nodes: Some(2_000_000),
            ..Limits::default()
        },
    )
}

/// The solver's answer, `None` when a limit stopped it (or it panicked:
/// such puzzles are reported, and the hand-made lines keep the ones known).
fn solve_within(p: &Puzzle, limits: Limits) -> Option<Uniqueness<Vec<u8>>> {
    let mut solver = VariantSolver::new(p).ok()?;
    let run = std::panic::AssertUnwindSafe(move || solver.uniqueness(&limits).0);
    let answer = std::panic::catch_unwind(run);
    match answer {
        Ok(Uniqueness::Unknown(_)) => None,
        Ok(a) => Some(a),
        Err(_) => {
            eprintln!("{p}: the solver panicked");
            None
        }
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut cases: Vec<VariantCase> = match std::env::args().nth(1) {
        Some(path) => iss_cases(&std::fs::read_to_string(path)?),
        None => variant_corpus::load()?
            .into_iter()
            .filter(|c| c.name.starts_with("iss: "))
            .collect(),
    };
    cases.extend(hand_made());
    let mut rng = SplitMix64::new(SEED);
    for kind in KINDS {
        let made = made_up(kind, &mut rng)?;
        eprintln!("{kind}: {} made up", made.len());
        cases.extend(made);
    }
    let mut out = String::new();
    out.push_str(
        "# Variant puzzles: kind, name, ISS text, count (0, 1, 2+), solution when unique.\n\
         # Written by `cargo run --release -p testkit --example variant_corpus`; see\n\
         # crates/testkit/src/variant_corpus.rs. Lines named \"iss: ...\" are the\n\
         # Interactive Sudoku Solver's bundled examples (MIT); the others are made up.\n",
    );
    for c in &cases {
        writeln!(out, "{c}")?;
    }
    let path = variant_corpus::path();
    std::fs::create_dir_all(path.parent().expect("a folder"))?;
    std::fs::write(&path, out)?;
    eprintln!("{} cases in {}", cases.len(), path.display());
    Ok(())
}

/// The ISS examples this crate reads whose solution the solver confirms.
fn iss_cases(text: &str) -> Vec<VariantCase> {
    let mut out = Vec::new();
    for line in text.lines().filter(|l| !l.starts_with('#')) {
        let f: Vec<&str> = line.split('\t').collect();
        let [name, input, solution] = f[..] else {
            continue;
        };
        let Ok(p) = input.parse::<Puzzle>() else {
            continue;
        };
        let Some(want) = parse_digits(solution).filter(|w| !w.is_empty()) else {
            continue;
        };
        let answer = solve_within(
            &p,
            Limits {
                deadline: Some(Instant::now() + ISS_TIME),
                ..Limits::default()
            },
        );
        let verdict = match answer {
            Some(Uniqueness::Unique(s)) if s == want => "kept",
            Some(Uniqueness::Unique(_)) => "OTHER SOLUTION",
            Some(Uniqueness::Multiple(..)) => "SEVERAL SOLUTIONS",
            Some(_) => "NO SOLUTION",
            None => "too slow",
        };
        if verdict != "kept" {
            eprintln!("iss: {name}: {verdict}, left out");
            continue;
        }
        if let Err(e) = rules_hold(&p, &want) {
            panic!("iss: {name}: the oracle rejects the solution: {e}");
        }
        if name.contains('\t') {
            continue;
        }
        out.push(VariantCase {
            kind: kinds_of(&p),
            name: format!("iss: {name}"),
            puzzle: input.to_string(),
            count: Count::One,
            solution: Some(want),
        });
    }
    out
}

/// Hand-made edge cases on small grids, counted by the oracle alone: a
/// solver that disagrees (or panics) is caught by the test suite.
const HAND_MADE: &[(&str, &str)] = &[
    // A cell's candidates and its parity leave it nothing.
    ("odd-given-even-none-4x4", ".Shape~4x4.~R1C1_2.Odd~R1C1"),
    ("odd-and-even-none-4x4", ".Shape~4x4.Odd~R1C1.Even~R1C1"),
    (
        "thermo-given-too-small-none-4x4",
        ".Shape~4x4.~R1C2_1.Thermo~R1C1~R1C2",
    ),
    // Neighbours on a whisper of 3 on 4×4 alternate 1 and 4: a row repeats.
    (
        "whisper-row-none-4x4",
        ".Shape~4x4.Whisper~3~R1C1~R1C2~R1C3",
    ),
    (
        "sandwich-zero-several-4x4",
        ".Shape~4x4.Sandwich~0~R1.Sandwich~0~C1",
    ),
    (
        "both-diagonals-several-4x4",
        ".Shape~4x4.Diagonal~1.Diagonal~-1",
    ),
    (
        "cage-without-sum-several-4x4",
        ".Shape~4x4.Cage~~R1C1~R2C2~R3C3~R4C4",
    ),
    ("quad-twice-several-6x6", ".Shape~6x6.Quad~R1C3~1~1"),
    ("quad-twice-in-a-box-none-6x6", ".Shape~6x6.Quad~R1C1~1~1"),
    (
        "little-killers-corner-several-4x4",
        ".Shape~4x4.LittleKiller~3~R1C2.LittleKiller~7~R4C2",
    ),
];

/// The hand-made lines, with the oracle's count.
fn hand_made() -> Vec<VariantCase> {
    HAND_MADE
        .iter()
        .map(|&(name, text)| {
            let p: Puzzle = text.parse().expect("hand-made lines read");
            let found = solutions(&p, 2);
            let (count, solution) = match found.len() {
                0 => (Count::Zero, None),
                1 => (Count::One, found.into_iter().next()),
                _ => (Count::TwoOrMore, None),
            };
            VariantCase {
                kind: kinds_of(&p),
                name: name.to_string(),
                puzzle: text.to_string(),
                count,
                solution,
            }
        })
        .collect()
}

/// The sides to try a kind on, in turn.
fn sides(kind: &str) -> &'static [usize] {
    match kind {
        "Windoku" => &[9],
        "X" | "PillArrow" | "Whisper" => &[6, 6, 9],
        _ => &[6, 4, 6, 9, 6],
    }
}

/// Made-up puzzles of one kind: [`UNIQUE`] with one solution, one with
/// several, one with none (from a unique one that needed givens).
fn made_up(kind: &str, rng: &mut SplitMix64) -> Result<Vec<VariantCase>, String> {
    let mut out: Vec<VariantCase> = Vec::new();
    let key = kind.to_ascii_lowercase();
    let (mut unique, mut extra_done) = (0, false);
    for attempt in 0..300 {
        if unique >= UNIQUE && extra_done {
            break;
        }
        let side = sides(kind)[attempt % sides(kind).len()];
        let per_kind = 2 + rng.below(3);
        let Some((mut p, sol)) = planted(&[kind], side, per_kind, rng) else {
            continue;
        };
        if !p.constraints.iter().any(|c| c.iss_name() == kind) {
            continue;
        }
        if !make_unique(&mut p, &sol, rng) {
            continue;
        }
        check(p.clone(), Count::One, Some(&sol))?;
        let id = out.len() + 1;
        let case = |p: &Puzzle, tag: &str, count, solution| VariantCase {
            kind: kinds_of(p),
            name: format!("{key}-{id}{tag}-{side}x{side}"),
            puzzle: p.to_string(),
            count,
            solution,
        };
        if unique < UNIQUE {
            out.push(case(&p, "", Count::One, Some(sol.clone())));
            unique += 1;
        }
        if extra_done {
            continue;
        }
        // The several- and no-solution lines keep the kind.
        let same_kinds = |q: &Puzzle| kinds_of(q) == kinds_of(&p);
        let several = several(&p, rng).filter(same_kinds);
        let none = broken(&p, &sol, rng).filter(same_kinds);
        let (Some(several), Some(none)) = (several, none) else {
            continue;
        };
        check(several.clone(), Count::TwoOrMore, None)?;
        check(none.clone(), Count::Zero, None)?;
        out.push(case(&several, "-several", Count::TwoOrMore, None));
        out.push(case(&none, "-none", Count::Zero, None));
        extra_done = true;
    }
    if unique < UNIQUE || !extra_done {
        return Err(format!("{kind}: only {} puzzles made", out.len()));
    }
    Ok(out)
}

/// Whether the solver and the oracle agree on a count (and the solution
/// keeps the rules).
fn check(p: Puzzle, want: Count, sol: Option<&[u8]>) -> Result<(), String> {
    let text = p.to_string();
    if let Some(s) = sol {
        rules_hold(&p, s).map_err(|e| format!("{text}: the oracle rejects the solution: {e}"))?;
    }
    if p.shape.side() <= ORACLE_SIDE {
        let got = match count_solutions(&p, 2) {
            0 => Count::Zero,
            1 => Count::One,
            _ => Count::TwoOrMore,
        };
        if got != want {
            return Err(format!(
                "{text}: the solver says {want:?}, the oracle {got:?}"
            ));
        }
    }
    Ok(())
}

/// Add givens from the solution where the solver's first two solutions
/// differ until it finds one, then take away each given it does not need.
fn make_unique(p: &mut Puzzle, sol: &[u8], rng: &mut SplitMix64) -> bool {
    loop {
        match solve(p) {
            Some(Uniqueness::Unique(s)) if s == sol => break,
            Some(Uniqueness::Multiple(a, b)) => {
                let differ: Vec<usize> = (0..a.len()).filter(|&i| a[i] != b[i]).collect();
                let i = differ[rng.below(differ.len())];
                p.candidates[i] = 1 << (sol[i] - 1);
            }
            // A limit, or the solver missing the planted grid: the test
            // suite will say; this puzzle is not kept.
            other => {
                if other.is_some() {
                    eprintln!("{p}: the solver says {other:?} on a planted puzzle");
                }
                return false;
            }
        }
    }
    let mut givens: Vec<usize> = (0..sol.len())
        .filter(|&i| p.candidates[i].count_ones() == 1)
        .collect();
    rng.shuffle(&mut givens);
    let all = p.shape.all();
    for i in givens {
        let keep = p.candidates[i];
        p.candidates[i] = all;
        if !matches!(solve(p), Some(Uniqueness::Unique(_))) {
            p.candidates[i] = keep;
        }
    }
    true
}

/// The puzzle with one given, or else one constraint, taken away: several
/// solutions.
fn several(p: &Puzzle, rng: &mut SplitMix64) -> Option<Puzzle> {
    let givens: Vec<usize> = (0..p.candidates.len())
        .filter(|&i| p.candidates[i].count_ones() == 1)
        .collect();
    let multiple = |q: &Puzzle| matches!(solve(q), Some(Uniqueness::Multiple(..)));
    if !givens.is_empty() {
        let mut q = p.clone();
        q.candidates[givens[rng.below(givens.len())]] = p.shape.all();
        return multiple(&q).then_some(q);
    }
    let mut order: Vec<usize> = (0..p.constraints.len()).collect();
    rng.shuffle(&mut order);
    order.into_iter().find_map(|i| {
        let mut q = p.clone();
        q.constraints.remove(i);
        (kinds_of(&q) == kinds_of(p) && multiple(&q)).then_some(q)
    })
}

/// The puzzle with one clue broken, so it has no solution: a constraint
/// changed where its kind allows (a sum one off, a line reversed, a dot of
/// the other colour), else a given changed.
fn broken(p: &Puzzle, sol: &[u8], rng: &mut SplitMix64) -> Option<Puzzle> {
    let mut order: Vec<usize> = (0..p.constraints.len()).collect();
    rng.shuffle(&mut order);
    let none = |q: &Puzzle| {
        // The change must still read back as itself.
        q.to_string().parse::<Puzzle>().as_ref() == Ok(q)
            && matches!(solve(q), Some(Uniqueness::NoSolution))
    };
    for &i in &order {
        for changed in mutations(&p.constraints[i], p.shape.side()) {
            let mut q = p.clone();
            match changed {
                Some(c) => q.constraints[i] = c,
                None => {
                    q.constraints.remove(i);
                }
            }
            if none(&q) {
                return Some(q);
            }
        }
    }
    // A wrong digit in a cell.
    let mut cells: Vec<usize> = (0..sol.len()).collect();
    rng.shuffle(&mut cells);
    for i in cells {
        for d in 1..=p.shape.side() as u8 {
            if d != sol[i] {
                let mut q = p.clone();
                q.candidates[i] = 1 << (d - 1);
                if none(&q) {
                    return Some(q);
                }
            }
        }
    }
    None
}
