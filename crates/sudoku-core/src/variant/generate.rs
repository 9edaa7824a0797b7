//! Variant puzzles with exactly one solution, made from a seed.
//!
//! [`generate`] makes a puzzle of one [`VariantKind`] on an n×n grid:
//!
//! | kind | what the puzzle has | sides |
//! |---|---|---|
//! | `x` | both diagonals, minimal givens | 4, 6, 8, 9 |
//! | `windoku` | the four windoku windows, minimal givens | 9 |
//! | `disjoint` | disjoint groups, minimal givens | 4, 6, 8, 9 |
//! | `anti-knight`, `anti-king` | the move rule, minimal givens | 6, 8, 9 |
//! | `non-consecutive` | the non-consecutive rule, givens (nearly) minimal | 6, 8, 9 |
//! | `jigsaw` | a random jigsaw layout (no boxes), minimal givens | 4 to 9 |
//! | `killer` | cages with sums, **no givens** | 4, 6, 8, 9 |
//! | `thermo` | thermometers along increasing paths, minimal givens | 4, 6, 8, 9 |
//! | `kropki` | every kropki dot (`.StrictKropki`), minimal givens | 4, 6, 8, 9 |
//! | `xv` | every X and V (`.StrictXV`), minimal givens | 4, 6, 8, 9 |
//!
//! # How a puzzle is made
//!
//! 1. **A solution grid.** The rules without clues (for a jigsaw: a random
//!    layout of n connected regions of n cells, the boxes reshaped by many
//!    random trades of cells between neighbouring regions that keep both
//!    connected; a layout without a solution is replaced) are solved by the
//!    [`VariantSolver`] with n + 3 random givens placed one at a time (a
//!    given that leaves no solution the solver finds in a small budget is
//!    replaced by the digit of the last grid found). Where the rules do not
//!    care which digit is which (all but non-consecutive, whose digits may
//!    only be reversed), the digits are then relabelled at random.
//! 2. **Clues read off the grid.** Thermometers are walked from cells with
//!    small digits to neighbours with larger ones (3 to 6 cells, about one
//!    per 12 cells); kropki dots and XV marks are put wherever the grid has
//!    them (a 1–2 pair gets a white or a black dot at random), with the
//!    "all given" rule.
//! 3. **Givens removed while the puzzle stays unique**, as the classic
//!    generator does ([`crate::generate`]): the cells are grouped into the
//!    orbits of the chosen [`Symmetry`], the orbits are shuffled, and each is
//!    emptied when the [`VariantSolver`] still finds one solution. The result
//!    is minimal (no given, or with a symmetry no orbit, can go) unless a
//!    check ran out of nodes ([`Generated::minimal`]).
//! 4. **Killer cages** instead of givens: the grid is cut into connected
//!    cages of 2 to 5 cells without a repeated digit (grown from the cells
//!    with the fewest free neighbours first), each with its sum. While the
//!    solver finds two solutions, a cage holding a cell where they differ is
//!    split in two (cages of 4 or 5 cells) or cut again together with one or
//!    two neighbouring cages. Once the cages alone are unique, neighbouring
//!    cages are merged (up to 5 cells, no repeated digit) while the puzzle
//!    stays unique, so no two neighbouring cages can be merged at the end.
//!    Givens are added only when [`Options::killer_givens`] allows it.
//!
//! # Uniqueness and time
//!
//! Every check is a [`VariantSolver::uniqueness`] search under a node budget
//! (the [`Limits`]' `max_nodes`, or a default by kind and side); a check
//! that runs out of budget counts as "not unique" (the given is kept, the
//! cages are changed), so a puzzle is only returned when the solver proved
//! it unique. The [`Limits`]' deadline and cancel token bound the whole
//! puzzle. An attempt that gets stuck (no solution grid, no unique cages in
//! its budget of steps) starts again from a new grid, up to
//! [`Options::max_attempts`].
//!
//! # Reproducibility
//!
//! Every random choice comes from one [`SplitMix64`] seeded with the seed,
//! and node budgets are counts, not times: the same options and seed give
//! the same puzzle on any machine (a deadline can only make it fail).
//!
//! # Rating
//!
//! Not done: the classic rater ([`crate::rate`]) knows rows, columns and
//! boxes only, so it does not rate these puzzles (it would miss the extra
//! regions, and it has no killer techniques).
//!
//! ```
//! use sudoku_core::generate::Symmetry;
//! use sudoku_core::variant::VariantSolver;
//! use sudoku_core::variant::generate::{VariantKind, generate};
//! use sudoku_core::{Limits, Uniqueness};
//!
//! let kind: VariantKind = "killer".parse()?;
//! let made = generate(kind, 6, 7, Symmetry::None, &Limits::none())?;
//! assert!(made.puzzle.givens().iter().all(|&d| d == 0)); // cages only
//! let (answer, _) = VariantSolver::new(&made.puzzle)?.uniqueness(&Limits::none());
//! assert_eq!(answer, Uniqueness::Unique(made.solution.clone()));
//! // The same seed makes the same puzzle.
//! assert_eq!(generate(kind, 6, 7, Symmetry::None, &Limits::none())?, made);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use crate::time::Instant;
use std::collections::HashSet;
use std::fmt;
use std::ops::ControlFlow;
use std::str::FromStr;

use super::cage::Cage;
use super::jigsaw::Jigsaw;
use super::regions::Diagonal;
use super::{Cells, Constraint, Puzzle, Shape, VariantSolver};
use crate::generate::{GenerateError, SplitMix64, Symmetry};
use crate::solve::{Limits, StopReason, Uniqueness};

/// The kinds of variant puzzle [`generate`] makes (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum VariantKind {
    /// Sudoku X: both diagonals hold every digit once.
    X,
    /// Windoku (hyper sudoku): four extra 3×3 windows.
    Windoku,
    /// Disjoint groups.
    Disjoint,
    /// Anti-knight: cells a knight's move apart differ.
    AntiKnight,
    /// Anti-king: cells a king's move apart differ.
    AntiKing,
    /// Non-consecutive: orthogonal neighbours are not consecutive.
    NonConsecutive,
    /// Jigsaw: irregular regions instead of boxes.
    Jigsaw,
    /// Killer: cages with sums, no givens.
    Killer,
    /// Thermometers.
    Thermo,
    /// Kropki dots, all of them given.
    Kropki,
    /// XV marks, all of them given.
    Xv,
}

impl VariantKind {
    /// Every kind.
    pub const ALL: [VariantKind; 11] = [
        VariantKind::X,
        VariantKind::Windoku,
        VariantKind::Disjoint,
        VariantKind::AntiKnight,
        VariantKind::AntiKing,
        VariantKind::NonConsecutive,
        VariantKind::Jigsaw,
        VariantKind::Killer,
        VariantKind::Thermo,
        VariantKind::Kropki,
        VariantKind::Xv,
    ];

    /// The name on the command line: `x`, `killer`, `anti-knight`, ...
    pub fn name(self) -> &'static str {
        match self {
            VariantKind::X => "x",
            VariantKind::Windoku => "windoku",
            VariantKind::Disjoint => "disjoint",
            VariantKind::AntiKnight => "anti-knight",
            VariantKind::AntiKing => "anti-king",
            VariantKind::NonConsecutive => "non-consecutive",
            VariantKind::Jigsaw => "jigsaw",
            VariantKind::Killer => "killer",
            VariantKind::Thermo => "thermo",
            VariantKind::Kropki => "kropki",
            VariantKind::Xv => "xv",
        }
    }

    /// The grid sides this kind is made on.
    pub fn sides(self) -> &'static [usize] {
        match self {
            VariantKind::Windoku => &[9],
            // No 4×4 grid keeps these rules.
            VariantKind::AntiKnight | VariantKind::AntiKing | VariantKind::NonConsecutive => {
                &[6, 8, 9]
            }
            VariantKind::Jigsaw => &[4, 5, 6, 7, 8, 9],
            _ => &[4, 6, 8, 9],
        }
    }

    /// Whether the puzzle has givens (all kinds but killer), so a symmetry
    /// of the givens applies.
    pub fn has_givens(self) -> bool {
        self != VariantKind::Killer
    }

    /// Whether relabelling the digits of a grid keeps the kind's rules.
    fn any_labels(self) -> bool {
        self != VariantKind::NonConsecutive
    }
}

impl fmt::Display for VariantKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.name())
    }
}

impl FromStr for VariantKind {
    type Err = String;

    /// A kind by its name (any case; `-` and `_` alike), or a common alias:
    /// `diagonal`, `hyper`, `antiknight`, `anti-consecutive`, ...
    fn from_str(text: &str) -> Result<VariantKind, String> {
        let t = text.trim().to_ascii_lowercase().replace('_', "-");
        let kind = match t.as_str() {
            "x" | "sudoku-x" | "diagonal" | "diagonals" => VariantKind::X,
            "windoku" | "hyper" => VariantKind::Windoku,
            "disjoint" | "disjoint-groups" | "disjoint-sets" => VariantKind::Disjoint,
            "anti-knight" | "antiknight" => VariantKind::AntiKnight,
            "anti-king" | "antiking" => VariantKind::AntiKing,
            "non-consecutive" | "nonconsecutive" | "anti-consecutive" => {
                VariantKind::NonConsecutive
            }
            "jigsaw" => VariantKind::Jigsaw,
            "killer" => VariantKind::Killer,
            "thermo" => VariantKind::Thermo,
            "kropki" => VariantKind::Kropki,
            "xv" => VariantKind::Xv,
            _ => {
                let names: Vec<&str> = VariantKind::ALL.iter().map(|k| k.name()).collect();
                return Err(format!(
                    "unknown variant '{text}'; valid: {}",
                    names.join(", ")
                ));
            }
        };
        Ok(kind)
    }
}

/// What [`generate_with`] makes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// The kind of puzzle.
    pub kind: VariantKind,
    /// The grid's side (one of [`VariantKind::sides`]).
    pub side: usize,
    /// Symmetry of the givens (kinds with givens only). Default none.
    pub symmetry: Symmetry,
    /// Fresh starts (new solution grids) before giving up with
    /// [`GenerateError::TooRare`]. Default 100.
    pub max_attempts: u64,
    /// Givens a killer puzzle may get when its cages alone do not become
    /// unique. Default 0: cages only, as setters publish them.
    pub killer_givens: usize,
}

impl Options {
    /// The default options for a kind and side.
    pub fn new(kind: VariantKind, side: usize) -> Options {
        Options {
            kind,
            side,
            symmetry: Symmetry::None,
            max_attempts: 100,
            killer_givens: 0,
        }
    }

    /// Whether the options can be met: [`GenerateError::Invalid`] for a side
    /// the kind is not made on, or a symmetry on a killer puzzle.
    pub fn validate(&self) -> Result<(), GenerateError> {
        let kind = self.kind;
        if !kind.sides().contains(&self.side) {
            let sides: Vec<String> = kind.sides().iter().map(|s| format!("{s}x{s}")).collect();
            return Err(GenerateError::Invalid(format!(
                "{kind} puzzles are made on {0} grids, not {1}x{1}",
                sides.join(", "),
                self.side
            )));
        }
        if !kind.has_givens() && self.symmetry != Symmetry::None {
            return Err(GenerateError::Invalid(format!(
                "{kind} puzzles have no givens: symmetry {} does not apply",
                self.symmetry
            )));
        }
        Ok(())
    }

    /// The default node budget of one uniqueness check: 200,000 (20,000 up
    /// to 6×6), which checks of these kinds hardly ever reach, but 10,000
    /// for non-consecutive on 8×8 and 9×9, whose last checks the solver's
    /// pairwise rule makes slow (a few seconds each with the full budget):
    /// those puzzles are unique but not always minimal.
    pub fn default_check_nodes(&self) -> u64 {
        match (self.kind, self.side) {
            (_, ..=6) => 20_000,
            (VariantKind::NonConsecutive, _) => 10_000,
            _ => 200_000,
        }
    }

    fn target(&self) -> String {
        format!("{} {1}x{1} puzzles", self.kind, self.side)
    }
}

/// A generated variant puzzle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Generated {
    /// The puzzle: exactly one solution.
    pub puzzle: Puzzle,
    /// Its solution, row-major, digits 1..=n.
    pub solution: Vec<u8>,
    /// The seed it was made from.
    pub seed: u64,
    /// Attempts (solution grids) it took.
    pub attempts: u64,
    /// Whether every check ran to the end, so no given (no symmetric orbit)
    /// can be removed, or for killer no two neighbouring cages merged.
    pub minimal: bool,
}

/// Make a puzzle of `kind` on a `side`×`side` grid from `seed`, with the
/// givens keeping `symmetry`, each uniqueness check within `limits`'
/// node budget (default: see [`Options::default_check_nodes`]) and the whole
/// puzzle within its deadline and cancel token. See the module docs.
pub fn generate(
    kind: VariantKind,
    side: usize,
    seed: u64,
    symmetry: Symmetry,
    limits: &Limits,
) -> Result<Generated, GenerateError> {
    let options = Options {
        symmetry,
        ..Options::new(kind, side)
    };
    generate_with(&options, seed, limits)
}

/// [`generate`] with every option.
pub fn generate_with(
    options: &Options,
    seed: u64,
    limits: &Limits,
) -> Result<Generated, GenerateError> {
    options.validate()?;
    let start = Instant::now();
    let too_rare = |attempts| GenerateError::TooRare {
        target: options.target(),
        attempts,
        elapsed: start.elapsed(),
    };
    let check = Limits {
        max_solutions: None,
        max_nodes: Some(
            limits
                .max_nodes
                .unwrap_or_else(|| options.default_check_nodes()),
        ),
        deadline: limits.deadline,
        cancel: limits.cancel.clone(),
    };
    let mut maker = Maker {
        options,
        shape: Shape::new(options.side).expect("a valid side"),
        rng: SplitMix64::new(seed),
        check,
    };
    let mut attempts = 0;
    while attempts < options.max_attempts.max(1) {
        match limits.poll() {
            Some(StopReason::Cancelled) => return Err(GenerateError::Cancelled),
            Some(_) => return Err(too_rare(attempts)),
            None => {}
        }
        attempts += 1;
        match maker.attempt() {
            Ok(Some((puzzle, solution, minimal))) => {
                return Ok(Generated {
                    puzzle,
                    solution,
                    seed,
                    attempts,
                    minimal,
                });
            }
            Ok(None) => {}
            Err(Halt::Cancelled) => return Err(GenerateError::Cancelled),
            Err(Halt::Deadline) => return Err(too_rare(attempts)),
        }
    }
    Err(too_rare(attempts))
}

/// Why an attempt stopped before its end.
enum Halt {
    Deadline,
    Cancelled,
}

/// What a uniqueness check found.
enum Check {
    Unique,
    /// Two solutions, or none found within the node budget.
    NotUnique(Option<(Vec<u8>, Vec<u8>)>),
}

/// What a search for one solution found.
enum One {
    Solution(Vec<u8>),
    None,
    /// The node budget ran out first.
    Unknown,
}

/// The largest killer cage.
const MAX_CAGE: usize = 5;

/// One puzzle's state: options, grid shape, random stream, check limits.
struct Maker<'a> {
    options: &'a Options,
    shape: Shape,
    rng: SplitMix64,
    check: Limits,
}

/// The orthogonal neighbours of cell `c` on an n×n grid.
fn neighbours(n: usize, c: usize) -> impl Iterator<Item = usize> {
    let (r, col) = (c / n, c % n);
    let up = (r > 0).then(|| c - n);
    let down = (r + 1 < n).then_some(c + n);
    let left = (col > 0).then(|| c - 1);
    let right = (col + 1 < n).then_some(c + 1);
    [up, down, left, right].into_iter().flatten()
}

fn bit(d: u8) -> u16 {
    1 << (d - 1)
}

/// Cages with their cells in order, in order of their first cell.
fn sorted(mut cages: Vec<Vec<usize>>) -> Vec<Vec<usize>> {
    for cage in &mut cages {
        cage.sort_unstable();
    }
    cages.sort_unstable();
    cages
}

/// Whether the cells form one orthogonally connected piece.
fn connected(n: usize, cells: &[usize]) -> bool {
    let Some(&first) = cells.first() else {
        return true;
    };
    let mut seen = vec![first];
    let mut k = 0;
    while k < seen.len() {
        for d in neighbours(n, seen[k]) {
            if cells.contains(&d) && !seen.contains(&d) {
                seen.push(d);
            }
        }
        k += 1;
    }
    seen.len() == cells.len()
}

impl Maker<'_> {
    fn n(&self) -> usize {
        self.shape.side()
    }

    /// One attempt: a grid, its clues, its givens removed.
    #[allow(clippy::type_complexity)]
    fn attempt(&mut self) -> Result<Option<(Puzzle, Vec<u8>, bool)>, Halt> {
        let kind = self.options.kind;
        let base = match kind {
            VariantKind::Jigsaw => {
                let regions = self.jigsaw_layout();
                Puzzle {
                    constraints: vec![Constraint::Jigsaw(Jigsaw { regions })],
                    ..Puzzle::new(self.shape.without_boxes())
                }
            }
            _ => {
                let constraints = match kind {
                    VariantKind::X => vec![
                        Constraint::Diagonal(Diagonal { anti: false }),
                        Constraint::Diagonal(Diagonal { anti: true }),
                    ],
                    VariantKind::Windoku => vec![Constraint::Windoku],
                    VariantKind::Disjoint => vec![Constraint::DisjointSets],
                    VariantKind::AntiKnight => vec![Constraint::AntiKnight],
                    VariantKind::AntiKing => vec![Constraint::AntiKing],
                    VariantKind::NonConsecutive => vec![Constraint::AntiConsecutive],
                    _ => Vec::new(),
                };
                Puzzle {
                    constraints,
                    ..Puzzle::new(self.shape)
                }
            }
        };
        let Some(solution) = self.random_solution(&base)? else {
            return Ok(None);
        };
        let mut puzzle = base;
        match kind {
            VariantKind::Killer => {
                return Ok(self
                    .killer(&solution)?
                    .map(|(p, minimal)| (p, solution, minimal)));
            }
            VariantKind::Thermo => {
                for t in self.thermometers(&solution) {
                    puzzle.constraints.push(Constraint::Thermo(self.cells(&t)));
                }
            }
            VariantKind::Kropki | VariantKind::Xv => self.marks(&solution, &mut puzzle),
            _ => {}
        }
        let minimal = self.remove_givens(&mut puzzle, &solution)?;
        Ok(Some((puzzle, solution, minimal)))
    }

    fn cells(&self, cells: &[usize]) -> Cells {
        Cells {
            cells: cells.iter().map(|&c| self.shape.cell(c)).collect(),
        }
    }

    /// Is the puzzle unique? Within the node budget; the deadline and the
    /// cancel token stop the attempt.
    fn unique(&self, puzzle: &Puzzle) -> Result<Check, Halt> {
        let Ok(mut solver) = VariantSolver::new(puzzle) else {
            return Ok(Check::NotUnique(None));
        };
        match solver.uniqueness(&self.check).0 {
            Uniqueness::Unique(_) => Ok(Check::Unique),
            Uniqueness::Multiple(a, b) => Ok(Check::NotUnique(Some((a, b)))),
            Uniqueness::NoSolution | Uniqueness::Unknown(StopReason::NodeLimit) => {
                Ok(Check::NotUnique(None))
            }
            Uniqueness::Unknown(StopReason::Cancelled) => Err(Halt::Cancelled),
            Uniqueness::Unknown(_) => Err(Halt::Deadline),
        }
    }

    /// A solution of the puzzle, none, or unknown when the node budget ran
    /// out first.
    fn first_solution(&self, puzzle: &Puzzle) -> Result<One, Halt> {
        self.first_solution_within(puzzle, &self.check)
    }

    fn first_solution_within(&self, puzzle: &Puzzle, limits: &Limits) -> Result<One, Halt> {
        let Ok(mut solver) = VariantSolver::new(puzzle) else {
            return Ok(One::None);
        };
        let mut found = None;
        let report = solver.search(limits, &mut |v| {
            found = Some(v.to_vec());
            ControlFlow::Break(())
        });
        match (found, report.stop) {
            (Some(v), _) => Ok(One::Solution(v)),
            (None, StopReason::Cancelled) => Err(Halt::Cancelled),
            (None, StopReason::Deadline) => Err(Halt::Deadline),
            (None, StopReason::Exhausted) => Ok(One::None),
            (None, _) => Ok(One::Unknown),
        }
    }

    /// A random solution of the rules: random givens placed one at a time,
    /// each kept when the solver still completes the grid in a small budget
    /// (else the cell keeps the digit of the last grid found), and the
    /// digits relabelled at random where the rules allow (non-consecutive:
    /// reversed or not).
    fn random_solution(&mut self, base: &Puzzle) -> Result<Option<Vec<u8>>, Halt> {
        let n = self.n();
        let mut p = base.clone();
        let mut order: Vec<usize> = (0..n * n).collect();
        self.rng.shuffle(&mut order);
        let One::Solution(mut found) = self.first_solution(&p)? else {
            return Ok(None);
        };
        let small = Limits {
            max_nodes: self.check.max_nodes.map(|k| k.min(10 * (n * n) as u64)),
            ..self.check.clone()
        };
        for &c in &order[..n + 3] {
            let d = 1 + self.rng.below(n) as u8;
            p.candidates[c] = bit(d);
            if found[c] != d {
                match self.first_solution_within(&p, &small)? {
                    One::Solution(s) => found = s,
                    One::None | One::Unknown => p.candidates[c] = bit(found[c]),
                }
            }
        }
        let labels: Vec<u8> = if self.options.kind.any_labels() {
            let mut labels: Vec<u8> = (1..=n as u8).collect();
            self.rng.shuffle(&mut labels);
            labels
        } else if self.rng.below(2) == 0 {
            (1..=n as u8).rev().collect()
        } else {
            (1..=n as u8).collect()
        };
        for d in &mut found {
            *d = labels[*d as usize - 1];
        }
        Ok(Some(found))
    }

    /// Remove givens orbit by orbit while the puzzle stays unique; whether
    /// every check finished (the puzzle is minimal).
    fn remove_givens(&mut self, puzzle: &mut Puzzle, solution: &[u8]) -> Result<bool, Halt> {
        let all = self.shape.all();
        for (m, &d) in puzzle.candidates.iter_mut().zip(solution) {
            *m = bit(d);
        }
        let mut orbits = self.options.symmetry.orbits_of_side(self.n());
        self.rng.shuffle(&mut orbits);
        let mut minimal = true;
        for orbit in &orbits {
            for &c in orbit {
                puzzle.candidates[c] = all;
            }
            // Another solution differs from this one in a cell of the orbit:
            // look for one with each cell in turn barred from its digit.
            let mut unique = true;
            for &c in orbit {
                puzzle.candidates[c] = all & !bit(solution[c]);
                let found = self.first_solution(puzzle)?;
                puzzle.candidates[c] = all;
                match found {
                    One::None => {}
                    One::Solution(_) => unique = false,
                    One::Unknown => {
                        unique = false;
                        minimal = false;
                    }
                }
                if !unique {
                    break;
                }
            }
            if !unique {
                for &c in orbit {
                    puzzle.candidates[c] = bit(solution[c]);
                }
            }
        }
        Ok(minimal)
    }

    /// A random jigsaw layout: n connected regions of n cells, numbered in
    /// order of first appearance (as the ISS text reads them back). The
    /// boxes (rows on a side without boxes) are reshaped by random trades:
    /// a cell passes to a neighbouring region, which gives back one of its
    /// cells next to the first region, when both stay connected.
    fn jigsaw_layout(&mut self) -> Vec<u8> {
        let n = self.n();
        let shape = self.shape;
        let mut region: Vec<u8> = (0..n * n)
            .map(|c| shape.box_of(shape.cell(c)).unwrap_or(c / n) as u8)
            .collect();
        let members = |region: &[u8], r: u8| -> Vec<usize> {
            (0..n * n).filter(|&c| region[c] == r).collect()
        };
        let want = 10 * n * n;
        let (mut trades, mut tries) = (0, 0);
        while trades < want && tries < 20 * want {
            tries += 1;
            let a = self.rng.below(n * n);
            let ra = region[a];
            let others: Vec<u8> = neighbours(n, a)
                .map(|d| region[d])
                .filter(|&r| r != ra)
                .collect();
            if others.is_empty() {
                continue;
            }
            let rb = others[self.rng.below(others.len())];
            region[a] = rb;
            let back: Vec<usize> = (0..n * n)
                .filter(|&d| d != a && region[d] == rb)
                .filter(|&d| neighbours(n, d).any(|e| region[e] == ra))
                .collect();
            if back.is_empty() {
                region[a] = ra;
                continue;
            }
            let d = back[self.rng.below(back.len())];
            region[d] = ra;
            if connected(n, &members(&region, ra)) && connected(n, &members(&region, rb)) {
                trades += 1;
            } else {
                region[d] = rb;
                region[a] = ra;
            }
        }
        // Number the regions in order of first appearance.
        let mut names = vec![u8::MAX; n];
        let mut next = 0u8;
        for r in &mut region {
            if names[*r as usize] == u8::MAX {
                names[*r as usize] = next;
                next += 1;
            }
            *r = names[*r as usize];
        }
        region
    }

    /// Thermometers along increasing orthogonal paths of the solution,
    /// from bulbs with small digits, about one per 12 cells, none sharing a
    /// cell.
    fn thermometers(&mut self, solution: &[u8]) -> Vec<Vec<usize>> {
        let n = self.n();
        let want = (n * n / 12).max(2);
        let shortest = if n >= 6 { 3 } else { 2 };
        let mut used = vec![false; n * n];
        let mut out = Vec::new();
        for _ in 0..50 * want {
            if out.len() >= want {
                break;
            }
            let start = self.rng.below(n * n);
            if used[start] || solution[start] as usize > n.div_ceil(2) {
                continue;
            }
            let longest = (3 + self.rng.below(4)).min(n);
            let mut path = vec![start];
            while path.len() < longest {
                let last = *path.last().expect("a bulb");
                let next: Vec<usize> = neighbours(n, last)
                    .filter(|&d| !used[d] && !path.contains(&d) && solution[d] > solution[last])
                    .collect();
                if next.is_empty() {
                    break;
                }
                path.push(next[self.rng.below(next.len())]);
            }
            if path.len() >= shortest {
                for &c in &path {
                    used[c] = true;
                }
                out.push(path);
            }
        }
        out
    }

    /// Every kropki dot (or every X and V) of the solution, with the rule
    /// that all are given.
    fn marks(&mut self, solution: &[u8], puzzle: &mut Puzzle) {
        let n = self.n();
        let kropki = self.options.kind == VariantKind::Kropki;
        for a in 0..n * n {
            for b in [a + 1, a + n] {
                if b >= n * n || (b == a + 1 && b % n == 0) {
                    continue;
                }
                let (x, y) = (solution[a], solution[b]);
                let pair = self.cells(&[a, b]);
                let mark = if kropki {
                    let white = x.abs_diff(y) == 1;
                    let black = x == 2 * y || y == 2 * x;
                    match (white, black) {
                        (true, true) if self.rng.below(2) == 0 => Some(Constraint::BlackDot(pair)),
                        (true, _) => Some(Constraint::WhiteDot(pair)),
                        (_, true) => Some(Constraint::BlackDot(pair)),
                        _ => None,
                    }
                } else {
                    match x + y {
                        10 => Some(Constraint::X(pair)),
                        5 => Some(Constraint::V(pair)),
                        _ => None,
                    }
                };
                puzzle.constraints.extend(mark);
            }
        }
        puzzle.constraints.push(if kropki {
            Constraint::StrictKropki
        } else {
            Constraint::StrictXv
        });
    }

    /// A killer puzzle of the solution: see the module docs. `None` when the
    /// cages did not become unique in their budget of steps.
    fn killer(&mut self, solution: &[u8]) -> Result<Option<(Puzzle, bool)>, Halt> {
        let n = self.n();
        let all: Vec<usize> = (0..n * n).collect();
        let Some(mut cages) = (0..20).find_map(|_| self.partition(&all, solution)) else {
            return Ok(None);
        };
        let mut givens: Vec<usize> = Vec::new();
        let mut unique = false;
        for _ in 0..2 * n * n {
            let puzzle = self.killer_puzzle(&cages, solution, &givens);
            let differ: Vec<usize> = match self.unique(&puzzle)? {
                Check::Unique => {
                    unique = true;
                    break;
                }
                Check::NotUnique(Some((a, b))) => (0..n * n).filter(|&c| a[c] != b[c]).collect(),
                Check::NotUnique(None) => all.clone(),
            };
            let c = differ[self.rng.below(differ.len())];
            if !self.refine(&mut cages, c, solution) {
                if givens.len() < self.options.killer_givens {
                    givens.push(c);
                } else {
                    return Ok(None);
                }
            }
        }
        if !unique {
            return Ok(None);
        }
        let minimal = self.merge_cages(&mut cages, solution, &givens)?;
        Ok(Some((
            self.killer_puzzle(&cages, solution, &givens),
            minimal,
        )))
    }

    /// The puzzle of a set of cages (each with its sum; in order of their
    /// first cell) and givens.
    fn killer_puzzle(&self, cages: &[Vec<usize>], solution: &[u8], givens: &[usize]) -> Puzzle {
        let mut p = Puzzle::new(self.shape);
        for &c in givens {
            p.candidates[c] = bit(solution[c]);
        }
        p.constraints = sorted(cages.to_vec())
            .iter()
            .map(|cage| {
                Constraint::Cage(Cage {
                    sum: Some(cage.iter().map(|&c| u32::from(solution[c])).sum()),
                    cells: cage.iter().map(|&c| self.shape.cell(c)).collect(),
                })
            })
            .collect();
        p
    }

    /// Cut `cells` into connected cages of 2 to [`MAX_CAGE`] cells without a
    /// repeated digit, grown from the cell with the fewest free neighbours.
    fn partition(&mut self, cells: &[usize], solution: &[u8]) -> Option<Vec<Vec<usize>>> {
        let n = self.n();
        let mut free = vec![false; n * n];
        for &c in cells {
            free[c] = true;
        }
        let degree = |free: &[bool], c: usize| neighbours(n, c).filter(|&d| free[d]).count();
        let mut left = cells.len();
        let mut out: Vec<Vec<usize>> = Vec::new();
        while left > 0 {
            let mut seeds: Vec<usize> = Vec::new();
            let mut least = usize::MAX;
            for &c in cells.iter().filter(|&&c| free[c]) {
                let k = degree(&free, c);
                if k < least {
                    least = k;
                    seeds.clear();
                }
                if k == least {
                    seeds.push(c);
                }
            }
            let seed = seeds[self.rng.below(seeds.len())];
            // Sizes 2, 3, 4, 5 in proportions 3 : 4 : 3 : 1.
            let size = [2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 5][self.rng.below(11)];
            let mut cage = vec![seed];
            let mut digits = bit(solution[seed]);
            free[seed] = false;
            left -= 1;
            while cage.len() < size {
                let mut options: Vec<usize> = cage
                    .iter()
                    .flat_map(|&c| neighbours(n, c))
                    .filter(|&d| free[d] && digits & bit(solution[d]) == 0)
                    .collect();
                options.sort_unstable();
                options.dedup();
                if options.is_empty() {
                    break;
                }
                self.rng.shuffle(&mut options);
                let pick = if self.rng.below(2) == 0 {
                    *options
                        .iter()
                        .min_by_key(|&&c| degree(&free, c))
                        .expect("options")
                } else {
                    options[0]
                };
                cage.push(pick);
                digits |= bit(solution[pick]);
                free[pick] = false;
                left -= 1;
            }
            if cage.len() == 1 {
                // A lone cell joins a neighbouring cage with room for it.
                let homes: Vec<usize> = (0..out.len())
                    .filter(|&k| {
                        out[k].len() < MAX_CAGE
                            && out[k].iter().all(|&x| solution[x] != solution[seed])
                            && out[k].iter().any(|&x| neighbours(n, x).any(|d| d == seed))
                    })
                    .collect();
                if homes.is_empty() {
                    return None;
                }
                out[homes[self.rng.below(homes.len())]].push(seed);
            } else {
                out.push(cage);
            }
        }
        Some(out)
    }

    /// Change the cage holding `cell`: split it in two, or cut it again
    /// with one or two neighbouring cages. `false` when no change was found.
    fn refine(&mut self, cages: &mut Vec<Vec<usize>>, cell: usize, solution: &[u8]) -> bool {
        let n = self.n();
        let k = cages
            .iter()
            .position(|cage| cage.contains(&cell))
            .expect("every cell is caged");
        if cages[k].len() >= 4 && self.rng.below(4) != 0 {
            if let Some((a, b)) = self.split(&cages[k]) {
                cages[k] = a;
                cages.push(b);
                return true;
            }
        }
        let mut near: Vec<usize> = (0..cages.len())
            .filter(|&j| {
                j != k
                    && cages[j]
                        .iter()
                        .any(|&x| neighbours(n, x).any(|d| cages[k].contains(&d)))
            })
            .collect();
        for _ in 0..12 {
            self.rng.shuffle(&mut near);
            let take = (1 + self.rng.below(2)).min(near.len());
            let mut chosen: Vec<usize> = near[..take].to_vec();
            chosen.push(k);
            let union: Vec<usize> = chosen.iter().flat_map(|&j| cages[j].clone()).collect();
            let Some(parts) = self.partition(&union, solution) else {
                continue;
            };
            let old = sorted(chosen.iter().map(|&j| cages[j].clone()).collect());
            if sorted(parts.clone()) == old {
                continue;
            }
            chosen.sort_unstable();
            for &j in chosen.iter().rev() {
                cages.swap_remove(j);
            }
            cages.extend(parts);
            return true;
        }
        false
    }

    /// Split a cage of 4 or more cells into two connected parts of 2 or
    /// more.
    fn split(&mut self, cage: &[usize]) -> Option<(Vec<usize>, Vec<usize>)> {
        let n = self.n();
        for _ in 0..10 {
            let size = 2 + self.rng.below(cage.len() - 3);
            let mut part = vec![cage[self.rng.below(cage.len())]];
            while part.len() < size {
                let options: Vec<usize> = cage
                    .iter()
                    .copied()
                    .filter(|&c| !part.contains(&c) && neighbours(n, c).any(|d| part.contains(&d)))
                    .collect();
                part.push(options[self.rng.below(options.len())]);
            }
            let rest: Vec<usize> = cage.iter().copied().filter(|c| !part.contains(c)).collect();
            if connected(n, &rest) {
                return Some((part, rest));
            }
        }
        None
    }

    /// Merge neighbouring cages (up to [`MAX_CAGE`] cells, no repeated
    /// digit) while the puzzle stays unique, trying each pair once in
    /// random order; whether every check finished.
    fn merge_cages(
        &mut self,
        cages: &mut Vec<Vec<usize>>,
        solution: &[u8],
        givens: &[usize],
    ) -> Result<bool, Halt> {
        let n = self.n();
        let mut tried: HashSet<(Vec<usize>, Vec<usize>)> = HashSet::new();
        let mut minimal = true;
        loop {
            for cage in cages.iter_mut() {
                cage.sort_unstable();
            }
            let mut pairs: Vec<(usize, usize)> = Vec::new();
            for i in 0..cages.len() {
                for j in i + 1..cages.len() {
                    let (a, b) = (&cages[i], &cages[j]);
                    if a.len() + b.len() <= MAX_CAGE
                        && a.iter()
                            .all(|&x| b.iter().all(|&y| solution[x] != solution[y]))
                        && a.iter().any(|&x| neighbours(n, x).any(|d| b.contains(&d)))
                        && !tried.contains(&(a.clone(), b.clone()))
                    {
                        pairs.push((i, j));
                    }
                }
            }
            if pairs.is_empty() {
                return Ok(minimal);
            }
            let (i, j) = pairs[self.rng.below(pairs.len())];
            tried.insert((cages[i].clone(), cages[j].clone()));
            let mut merged = cages.clone();
            let b = merged.swap_remove(j);
            merged[i].extend(b);
            match self.unique(&self.killer_puzzle(&merged, solution, givens))? {
                Check::Unique => *cages = merged,
                Check::NotUnique(pair) => minimal &= pair.is_some(),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Unique by a fresh solver without limits, with this solution.
    fn assert_unique(g: &Generated) {
        let (answer, _) = VariantSolver::new(&g.puzzle)
            .expect("lowers")
            .uniqueness(&Limits::none());
        assert_eq!(
            answer,
            Uniqueness::Unique(g.solution.clone()),
            "{}",
            g.puzzle
        );
    }

    fn check_kind(kind: VariantKind, side: usize, seed: u64) -> Generated {
        let g = generate(kind, side, seed, Symmetry::None, &Limits::none())
            .unwrap_or_else(|e| panic!("{kind} {side}: {e}"));
        let text = g.puzzle.to_string();
        assert_eq!(text.parse::<Puzzle>().as_ref(), Ok(&g.puzzle), "{text}");
        assert_unique(&g);
        assert_eq!(
            generate(kind, side, seed, Symmetry::None, &Limits::none()).as_ref(),
            Ok(&g),
            "{kind} {side}: the seed makes the same puzzle"
        );
        let givens = g.puzzle.givens().iter().filter(|&&d| d != 0).count();
        if kind == VariantKind::Killer {
            assert_eq!(givens, 0, "{text}");
        } else {
            assert!(g.minimal, "{text}");
            assert!(givens < side * side, "{text}");
        }
        g
    }

    #[test]
    fn names_read_back() {
        for kind in VariantKind::ALL {
            assert_eq!(kind.name().parse(), Ok(kind));
            assert_eq!(kind.to_string(), kind.name());
        }
        assert_eq!("Anti_Knight".parse(), Ok(VariantKind::AntiKnight));
        assert_eq!("hyper".parse(), Ok(VariantKind::Windoku));
        let e = "sandwich".parse::<VariantKind>().unwrap_err();
        assert!(e.contains("killer"), "{e}");
    }

    #[test]
    fn six_by_six_kinds_are_unique_minimal_and_reproducible() {
        for (i, &kind) in VariantKind::ALL.iter().enumerate() {
            if kind.sides().contains(&6) {
                check_kind(kind, 6, i as u64);
            }
        }
    }

    #[test]
    fn four_by_four_jigsaw_and_killer() {
        for seed in 0..3 {
            check_kind(VariantKind::Jigsaw, 4, seed);
            check_kind(VariantKind::Killer, 4, seed);
        }
    }

    #[test]
    fn nine_by_nine_kinds() {
        // A few kinds keep the test quick; non-consecutive is left out (its
        // unlimited uniqueness check here would take seconds).
        for kind in [
            VariantKind::X,
            VariantKind::Windoku,
            VariantKind::Killer,
            VariantKind::Thermo,
            VariantKind::Kropki,
            VariantKind::Xv,
        ] {
            check_kind(kind, 9, 100);
        }
    }

    #[test]
    fn jigsaw_regions_are_connected() {
        let g = check_kind(VariantKind::Jigsaw, 9, 5);
        let Some(Constraint::Jigsaw(j)) = g.puzzle.constraints.first() else {
            panic!("{}", g.puzzle)
        };
        assert!(g.puzzle.shape.boxes().is_none());
        for r in 0..9 {
            let cells: Vec<usize> = (0..81).filter(|&c| j.regions[c] == r).collect();
            assert_eq!(cells.len(), 9);
            assert!(connected(9, &cells), "{}", g.puzzle);
        }
    }

    #[test]
    fn killer_cages_are_connected_distinct_and_sized() {
        let g = check_kind(VariantKind::Killer, 9, 3);
        let mut covered = vec![0; 81];
        for c in &g.puzzle.constraints {
            let Constraint::Cage(cage) = c else {
                panic!("{c}")
            };
            let cells: Vec<usize> = cage
                .cells
                .iter()
                .map(|&x| g.puzzle.shape.index(x))
                .collect();
            assert!((2..=MAX_CAGE).contains(&cells.len()), "{c}");
            assert!(connected(9, &cells), "{c}");
            let mut digits: Vec<u8> = cells.iter().map(|&x| g.solution[x]).collect();
            assert_eq!(
                cage.sum,
                Some(digits.iter().map(|&d| u32::from(d)).sum::<u32>())
            );
            digits.sort_unstable();
            digits.dedup();
            assert_eq!(digits.len(), cells.len(), "{c}");
            for x in cells {
                covered[x] += 1;
            }
        }
        assert!(covered.iter().all(|&k| k == 1));
    }

    #[test]
    fn symmetry_keeps_the_givens_pattern() {
        let g = generate(VariantKind::X, 9, 4, Symmetry::Rot180, &Limits::none()).expect("made");
        assert_unique(&g);
        let givens = g.puzzle.givens();
        for c in 0..81 {
            assert_eq!(givens[c] != 0, givens[80 - c] != 0, "{}", g.puzzle);
        }
    }

    #[test]
    fn options_are_checked() {
        let e = generate(VariantKind::Windoku, 6, 0, Symmetry::None, &Limits::none());
        assert!(matches!(e, Err(GenerateError::Invalid(_))), "{e:?}");
        let e = generate(VariantKind::Killer, 9, 0, Symmetry::Rot180, &Limits::none());
        assert!(matches!(e, Err(GenerateError::Invalid(_))), "{e:?}");
        // Givens for a killer only when allowed, and never more.
        let options = Options {
            killer_givens: 2,
            ..Options::new(VariantKind::Killer, 6)
        };
        let g = generate_with(&options, 1, &Limits::none()).expect("made");
        assert_unique(&g);
        assert!(g.puzzle.givens().iter().filter(|&&d| d != 0).count() <= 2);
        let past = Limits::none().with_deadline(Instant::now());
        let e = generate(VariantKind::X, 9, 0, Symmetry::None, &past);
        assert!(matches!(e, Err(GenerateError::TooRare { .. })), "{e:?}");
    }
}
