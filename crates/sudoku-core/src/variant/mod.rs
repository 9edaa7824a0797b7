//! Sudoku variants: one constraint model, read from the Interactive Sudoku
//! Solver's text format, solved and counted by propagation.
//!
//! A [`Puzzle`] is a [`Shape`] (an n×n grid, n ≤ 16, with its boxes: 2×3 on
//! 6×6, 2×4 on 8×8, 3×3 on 9×9, or none under a jigsaw), the candidates of
//! each cell (givens, and cells restricted to a few digits), and a list of
//! [`Constraint`]s. Each kind of constraint has its own module here with its
//! rule, its parser and its propagator:
//!
//! | kind | ISS token | module |
//! |---|---|---|
//! | diagonals (X), windoku, disjoint groups | `.Diagonal~1`, `.Diagonal~-1`, `.Windoku`, `.DisjointSets` | [`regions`] |
//! | jigsaw | `.Jigsaw~<81 region ids>` | [`jigsaw`] |
//! | killer cage (sum optional) | `.Cage~10~R1C1~R1C2` | [`cage`] |
//! | sum without distinctness | `.Sum~10~R1C1~R2C2` | [`sum`] |
//! | little killer | `.LittleKiller~23~R1C2` | [`little_killer`] |
//! | sandwich | `.Sandwich~15~R3` | [`sandwich`] |
//! | thermometer, slow thermometer | `.Thermo~…`, `.SlowThermo~…` | [`thermo`] |
//! | arrow, pill arrow, double arrow | `.Arrow~…`, `.PillArrow~2~…`, `.DoubleArrow~…` | [`arrow`] |
//! | kropki dots, all dots given | `.WhiteDot~…`, `.BlackDot~…`, `.StrictKropki` | [`kropki`] |
//! | XV, all XVs given | `.X~…`, `.V~…`, `.StrictXV` | [`xv`] |
//! | anti-knight, anti-king | `.AntiKnight`, `.AntiKing` | [`moves`] |
//! | non-consecutive | `.AntiConsecutive` | [`nonconsecutive`] |
//! | odd and even cells | `.Odd~…`, `.Even~…` (or candidates `.~R1C1_1_3_5_7_9`) | [`parity`] |
//! | renban | `.Renban~…` | [`renban`] |
//! | German whispers | `.Whisper~…` (`.Whisper~4~…` for another difference) | [`whisper`] |
//! | palindrome | `.Palindrome~…` | [`palindrome`] |
//! | between line | `.Between~…` | [`between`] |
//! | quadruple | `.Quad~R1C1~1~2` | [`quad`] |
//! | region-sum line | `.RegionSumLine~…` | [`region_sum`] |
//! | greater-than signs, extra all-different groups | `.GreaterThan~…`, `.AllDifferent~…` | [`greater`] |
//! | lockout line | `.Lockout~4~…` | [`lockout`] |
//! | zipper line | `.Zipper~…` | [`zipper`] |
//! | X-sums, skyscrapers | `.XSum~R3~21~`, `.Skyscraper~C5~3~2` | [`outside`] |
//!
//! Region-only puzzles (extra regions and jigsaws) are also exact cover:
//! [`exact`] encodes them for the Dancing Links and dancing-cells engines.
//!
//! [`Puzzle`] implements `FromStr` for the ISS text format ([`iss`]) and
//! for f-puzzles JSON and links ([`fpuzzles`]), and `Display` back to the
//! ISS text; [`VariantSolver`] solves, counts and checks
//! uniqueness with the same [`Limits`](crate::Limits), [`Report`](crate::Report)
//! and [`Uniqueness`](crate::Uniqueness) as the classic methods.
//!
//! ```
//! use sudoku_core::variant::{Puzzle, VariantSolver};
//! // A thermometer and a few givens (ISS's "Thermo" example).
//! let p: Puzzle = ".~R1C2_4~R1C8_1~R2C1_2~R2C9_6~R8C1_9~R8C9_2~R9C2_1~R9C8_9\
//!     .Thermo~R9C4~R8C3~R7C2~R6C1~R5C2~R4C3.Thermo~R4C1~R3C2~R2C3~R1C4~R2C5~R3C6\
//!     .Thermo~R1C6~R2C7~R3C8~R4C9~R5C8~R6C7.Thermo~R6C9~R7C8~R8C7~R9C6~R8C5~R7C4"
//!     .parse()?;
//! let (count, _) = VariantSolver::new(&p)?.count(2, &Default::default());
//! assert_eq!(count, 1);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::fmt;
use std::str::FromStr;

pub mod arrow;
pub mod between;
pub mod cage;
mod derive;
pub mod exact;
pub mod explain;
pub mod fpuzzles;
pub mod generate;
pub mod greater;
pub mod iss;
pub mod jigsaw;
pub mod kropki;
pub mod little_killer;
pub mod lockout;
pub mod moves;
pub mod nonconsecutive;
pub mod outside;
pub mod palindrome;
pub mod parity;
mod prim;
pub mod quad;
pub mod region_sum;
pub mod regions;
pub mod renban;
mod required;
pub mod sandwich;
mod shape;
mod sight;
mod solver;
pub mod sum;
pub mod thermo;
pub mod whisper;
pub mod xv;
pub mod zipper;

pub use shape::Shape;

use crate::grid::CellName;
pub use solver::VariantSolver;

use solver::Model;

/// Cells in order along a line, or a set of cells.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Cells {
    /// The cells, in the order given.
    pub cells: Vec<CellName>,
}

/// One constraint of a variant puzzle. The rules are in each kind's module.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Constraint {
    /// A diagonal holds every digit once.
    Diagonal(regions::Diagonal),
    /// The four windoku windows hold every digit once.
    Windoku,
    /// Cells at the same place in their boxes hold every digit once.
    DisjointSets,
    /// Irregular regions, each holding every digit once (with `.NoBoxes`
    /// they replace the boxes).
    Jigsaw(jigsaw::Jigsaw),
    /// A killer cage.
    Cage(cage::Cage),
    /// Cells summing to a total, digits may repeat.
    Sum(sum::Sum),
    /// A little killer diagonal.
    LittleKiller(little_killer::LittleKiller),
    /// A sandwich clue.
    Sandwich(sandwich::Sandwich),
    /// A thermometer: strictly increasing from the bulb.
    Thermo(Cells),
    /// A slow thermometer: never decreasing from the bulb.
    SlowThermo(Cells),
    /// An arrow (or a pill arrow).
    Arrow(arrow::Arrow),
    /// A double arrow: the two ends sum to the cells between.
    DoubleArrow(Cells),
    /// A white kropki dot (or a chain of them): consecutive digits.
    WhiteDot(Cells),
    /// A black kropki dot (or a chain): one digit double the other.
    BlackDot(Cells),
    /// Every kropki dot is given: neighbours without a dot are neither.
    StrictKropki,
    /// An X: two neighbours summing to 10.
    X(Cells),
    /// A V: two neighbours summing to 5.
    V(Cells),
    /// Every X and V is given.
    StrictXv,
    /// Cells a knight's move apart differ.
    AntiKnight,
    /// Cells a king's move apart differ.
    AntiKing,
    /// Orthogonal neighbours are not consecutive.
    AntiConsecutive,
    /// Odd cells.
    Odd(Cells),
    /// Even cells.
    Even(Cells),
    /// A renban line.
    Renban(Cells),
    /// A German whispers line.
    Whisper(whisper::Whisper),
    /// A palindrome line.
    Palindrome(Cells),
    /// A between line.
    Between(Cells),
    /// A quadruple clue.
    Quad(quad::Quad),
    /// A region-sum line.
    RegionSumLine(Cells),
    /// Greater-than signs between neighbours, earlier cells above later ones.
    GreaterThan(Cells),
    /// Cells holding different digits.
    AllDifferent(Cells),
    /// A lockout line.
    Lockout(lockout::Lockout),
    /// A zipper line.
    Zipper(Cells),
    /// X-sum clues on a row or column.
    XSum(outside::OutsideClue),
    /// Skyscraper clues on a row or column.
    Skyscraper(outside::OutsideClue),
}

impl Constraint {
    /// The kind's name in the ISS text format (`Cage`, `Thermo`, ...).
    pub fn iss_name(&self) -> &'static str {
        match self {
            Constraint::Diagonal(_) => "Diagonal",
            Constraint::Windoku => "Windoku",
            Constraint::DisjointSets => "DisjointSets",
            Constraint::Jigsaw(_) => "Jigsaw",
            Constraint::Cage(_) => "Cage",
            Constraint::Sum(_) => "Sum",
            Constraint::LittleKiller(_) => "LittleKiller",
            Constraint::Sandwich(_) => "Sandwich",
            Constraint::Thermo(_) => "Thermo",
            Constraint::SlowThermo(_) => "SlowThermo",
            Constraint::Arrow(a) if a.pill > 1 => "PillArrow",
            Constraint::Arrow(_) => "Arrow",
            Constraint::DoubleArrow(_) => "DoubleArrow",
            Constraint::WhiteDot(_) => "WhiteDot",
            Constraint::BlackDot(_) => "BlackDot",
            Constraint::StrictKropki => "StrictKropki",
            Constraint::X(_) => "X",
            Constraint::V(_) => "V",
            Constraint::StrictXv => "StrictXV",
            Constraint::AntiKnight => "AntiKnight",
            Constraint::AntiKing => "AntiKing",
            Constraint::AntiConsecutive => "AntiConsecutive",
            Constraint::Odd(_) => "Odd",
            Constraint::Even(_) => "Even",
            Constraint::Renban(_) => "Renban",
            Constraint::Whisper(_) => "Whisper",
            Constraint::Palindrome(_) => "Palindrome",
            Constraint::Between(_) => "Between",
            Constraint::Quad(_) => "Quad",
            Constraint::RegionSumLine(_) => "RegionSumLine",
            Constraint::GreaterThan(_) => "GreaterThan",
            Constraint::AllDifferent(_) => "AllDifferent",
            Constraint::Lockout(_) => "Lockout",
            Constraint::Zipper(_) => "Zipper",
            Constraint::XSum(_) => "XSum",
            Constraint::Skyscraper(_) => "Skyscraper",
        }
    }

    /// Whether the constraint only adds or changes regions (every digit once
    /// in a group of cells), so the puzzle stays an exact-cover problem.
    pub fn is_region(&self) -> bool {
        matches!(
            self,
            Constraint::Diagonal(_)
                | Constraint::Windoku
                | Constraint::DisjointSets
                | Constraint::Jigsaw(_)
        )
    }

    /// The arguments after the kind in the ISS text format.
    fn iss_args(&self) -> Vec<String> {
        match self {
            Constraint::Windoku
            | Constraint::DisjointSets
            | Constraint::StrictKropki
            | Constraint::StrictXv
            | Constraint::AntiKnight
            | Constraint::AntiKing
            | Constraint::AntiConsecutive => Vec::new(),
            Constraint::Diagonal(d) => vec![d.iss_arg().to_string()],
            Constraint::Jigsaw(j) => vec![j.layout_string()],
            Constraint::Cage(c) => {
                let mut v = vec![c.sum.map(|s| s.to_string()).unwrap_or_default()];
                v.extend(c.cells.iter().map(iss::cell_id));
                v
            }
            Constraint::Sum(s) => {
                let mut v = vec![s.sum.to_string()];
                v.extend(s.cells.iter().map(iss::cell_id));
                v
            }
            Constraint::LittleKiller(l) => vec![l.sum.to_string(), iss::cell_id(&l.cells[0])],
            Constraint::Sandwich(s) => vec![s.sum.to_string(), s.line.to_string()],
            Constraint::Arrow(a) => {
                let mut v = Vec::new();
                if a.pill > 1 {
                    v.push(a.pill.to_string());
                }
                v.extend(a.cells.iter().map(iss::cell_id));
                v
            }
            Constraint::Whisper(w) => {
                let mut v = Vec::new();
                if let Some(d) = w.difference {
                    v.push(d.to_string());
                }
                v.extend(w.cells.iter().map(iss::cell_id));
                v
            }
            Constraint::Quad(q) => {
                let mut v = vec![iss::cell_id(&q.cell)];
                v.extend(q.digits.iter().map(|d| d.to_string()));
                v
            }
            Constraint::Lockout(l) => {
                let mut v = vec![l.difference.to_string()];
                v.extend(l.cells.iter().map(iss::cell_id));
                v
            }
            Constraint::XSum(c) | Constraint::Skyscraper(c) => c.iss_args(),
            // The plain lists of cells.
            _ => self.cells().iter().map(iss::cell_id).collect(),
        }
    }

    /// The cells a constraint names (none for the rules on the whole grid,
    /// the diagonal of a little killer, the top-left cell of a quadruple).
    pub fn cells(&self) -> &[CellName] {
        match self {
            Constraint::Cage(c) => &c.cells,
            Constraint::Sum(s) => &s.cells,
            Constraint::LittleKiller(l) => &l.cells,
            Constraint::Arrow(a) => &a.cells,
            Constraint::Whisper(w) => &w.cells,
            Constraint::Quad(q) => std::slice::from_ref(&q.cell),
            Constraint::Lockout(l) => &l.cells,
            Constraint::Thermo(c)
            | Constraint::SlowThermo(c)
            | Constraint::DoubleArrow(c)
            | Constraint::WhiteDot(c)
            | Constraint::BlackDot(c)
            | Constraint::X(c)
            | Constraint::V(c)
            | Constraint::Odd(c)
            | Constraint::Even(c)
            | Constraint::Renban(c)
            | Constraint::Palindrome(c)
            | Constraint::Between(c)
            | Constraint::RegionSumLine(c)
            | Constraint::GreaterThan(c)
            | Constraint::AllDifferent(c)
            | Constraint::Zipper(c) => &c.cells,
            _ => &[],
        }
    }

    /// Every cell a constraint names lies on the grid.
    fn check_cells(&self, shape: Shape) -> Result<(), VariantError> {
        match self.cells().iter().find(|c| !shape.contains(**c)) {
            Some(c) => Err(self.error(format!("cell {c} is off the {shape} grid"))),
            None => Ok(()),
        }
    }

    /// An error about this constraint.
    pub(crate) fn error(&self, message: String) -> VariantError {
        VariantError::Constraint {
            constraint: self.to_string(),
            message,
        }
    }

    /// Add this constraint's rules to a model of the puzzle's shape. Each
    /// kind's `lower` says in words what cannot hold (a sum no digits make).
    fn lower(&self, shape: Shape, m: &mut Model) -> Result<(), VariantError> {
        self.check_cells(shape)?;
        let idx =
            |c: &Cells| -> Vec<u16> { c.cells.iter().map(|&x| shape.index(x) as u16).collect() };
        match self {
            Constraint::Diagonal(d) => d.lower(shape, m),
            Constraint::Windoku => regions::windoku(shape, m),
            Constraint::DisjointSets => regions::disjoint_sets(shape, m),
            Constraint::Jigsaw(j) => j.lower(shape, m),
            Constraint::Cage(c) => c.lower(shape, m),
            Constraint::Sum(s) => s.lower(shape, m),
            Constraint::LittleKiller(l) => l.lower(shape, m),
            Constraint::Sandwich(s) => s.lower(shape, m),
            Constraint::Thermo(c) => thermo::lower(&idx(c), false, shape, m),
            Constraint::SlowThermo(c) => thermo::lower(&idx(c), true, shape, m),
            Constraint::Arrow(a) => a.lower(shape, m),
            Constraint::DoubleArrow(c) => arrow::lower_double(&idx(c), m),
            Constraint::WhiteDot(c) => kropki::lower(&idx(c), kropki::Dot::White, shape, m),
            Constraint::BlackDot(c) => kropki::lower(&idx(c), kropki::Dot::Black, shape, m),
            Constraint::X(c) => xv::lower(&idx(c), 10, shape, m),
            Constraint::V(c) => xv::lower(&idx(c), 5, shape, m),
            // The "all given" rules need the whole list: see `Puzzle::lower`.
            Constraint::StrictKropki | Constraint::StrictXv => Ok(()),
            Constraint::AntiKnight => moves::lower(moves::KNIGHT, shape, m),
            Constraint::AntiKing => moves::lower(moves::KING, shape, m),
            Constraint::AntiConsecutive => nonconsecutive::lower(shape, m),
            Constraint::Odd(c) => parity::lower(&idx(c), 1, m),
            Constraint::Even(c) => parity::lower(&idx(c), 0, m),
            Constraint::Renban(c) => renban::lower(&idx(c), shape, m),
            Constraint::Whisper(w) => w.lower(shape, m),
            Constraint::Palindrome(c) => palindrome::lower(&idx(c), shape, m),
            Constraint::Between(c) => between::lower(&idx(c), m),
            Constraint::Quad(q) => q.lower(shape, m),
            Constraint::RegionSumLine(c) => region_sum::lower(&c.cells, shape, m),
            Constraint::GreaterThan(c) => greater::lower(c, shape, m),
            Constraint::AllDifferent(c) => greater::lower_all_different(c, shape, m),
            Constraint::Lockout(l) => l.lower(shape, m),
            Constraint::Zipper(c) => zipper::lower(c, shape, m),
            Constraint::XSum(c) => outside::lower_xsum(c, shape, m),
            Constraint::Skyscraper(c) => outside::lower_skyscraper(c, shape, m),
        }
        .map_err(|e| self.error(e))
    }
}

impl fmt::Display for Constraint {
    /// The ISS token: `.Cage~10~R1C1~R1C2`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, ".{}", self.iss_name())?;
        for a in self.iss_args() {
            write!(f, "~{a}")?;
        }
        Ok(())
    }
}

/// Why a variant puzzle could not be read or set up.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum VariantError {
    /// A token of the text could not be read.
    #[error("column {column}: {token}: {message}")]
    Token {
        /// Column of the token's first character, from 1.
        column: usize,
        /// The token (cut to 40 characters).
        token: String,
        /// What is wrong with it.
        message: String,
    },
    /// A field of f-puzzles JSON is wrong, or names a rule not supported.
    #[error("{path}: {message}")]
    Field {
        /// Where in the JSON: `killercage[2].cells[1]`.
        path: String,
        /// What is wrong with it.
        message: String,
    },
    /// A constraint cannot hold on this grid.
    #[error("{constraint}: {message}")]
    Constraint {
        /// The constraint, as an ISS token.
        constraint: String,
        /// What is wrong with it.
        message: String,
    },
}

impl VariantError {
    /// Where in `text` (the puzzle as it was read) the error is: a column
    /// in characters, from 1; None for a field of f-puzzles JSON, or a
    /// constraint the text does not spell out. A constraint's error points
    /// at the argument its message quotes (`.Cage~10~R1C1~R1Z2: "R1Z2" is
    /// not a cell`: column 15), else at the constraint's start.
    pub fn column_in(&self, text: &str) -> Option<usize> {
        match self {
            VariantError::Token { column, .. } => Some(*column),
            VariantError::Constraint {
                constraint,
                message,
            } => {
                let start = text.find(constraint.as_str())?;
                let arg = quoted(message)
                    .and_then(|q| constraint.find(&format!("~{q}")).map(|k| k + 1))
                    .unwrap_or(0);
                Some(text[..start + arg].chars().count() + 1)
            }
            VariantError::Field { .. } => None,
        }
    }

    /// What is wrong, without its place: `TOKEN: message`, `CONSTRAINT:
    /// message` or `f-puzzles PATH: message`.
    pub fn what(&self) -> String {
        match self {
            VariantError::Token { token, message, .. } => format!("{token}: {message}"),
            VariantError::Constraint {
                constraint,
                message,
            } => format!("{constraint}: {message}"),
            VariantError::Field { path, message } => format!("f-puzzles {path}: {message}"),
        }
    }
}

/// The first `"…"` of a message (an argument quoted with `{:?}`).
pub(crate) fn quoted(message: &str) -> Option<&str> {
    let rest = &message[message.find('"')? + 1..];
    Some(&rest[..rest.find('"')?]).filter(|q| !q.is_empty())
}

/// A variant puzzle: the grid, each cell's candidates, and the constraints.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Puzzle {
    /// The grid's side and boxes.
    pub shape: Shape,
    /// Per cell (row-major), the digits it may hold: a given is a single
    /// digit, a blank every digit (bit `d - 1` for digit `d`).
    pub candidates: Vec<u16>,
    /// The constraints besides rows, columns and boxes.
    pub constraints: Vec<Constraint>,
}

impl Puzzle {
    /// An empty puzzle on a grid: no givens, no constraints.
    pub fn new(shape: Shape) -> Puzzle {
        Puzzle {
            shape,
            candidates: vec![shape.all(); shape.cells()],
            constraints: Vec::new(),
        }
    }

    /// The givens row-major, 0 where a cell has more than one candidate.
    pub fn givens(&self) -> Vec<u8> {
        self.candidates
            .iter()
            .map(|&m| {
                if m.count_ones() == 1 {
                    solver::min_digit(m)
                } else {
                    0
                }
            })
            .collect()
    }

    /// Whether every constraint only adds regions (see
    /// [`Constraint::is_region`]): then the puzzle is an exact-cover problem.
    pub fn is_region_only(&self) -> bool {
        self.constraints.iter().all(Constraint::is_region)
    }

    /// Lower to the solver's model: houses, peers, masks and propagators.
    pub(crate) fn lower(&self) -> Result<Model, VariantError> {
        let shape = self.shape;
        let n = shape.side();
        if self.candidates.len() != shape.cells() {
            return Err(VariantError::Constraint {
                constraint: "givens".into(),
                message: format!(
                    "{} cells for a {shape} grid of {}",
                    self.candidates.len(),
                    shape.cells()
                ),
            });
        }
        let mut m = Model::new(n);
        for (c, &k) in self.candidates.iter().enumerate() {
            m.init[c] &= k;
        }
        // Region-sum lines cut at boxes, or at jigsaw regions on a grid
        // without boxes.
        for (c, r) in m.region.iter_mut().enumerate() {
            *r = shape.box_of(shape.cell(c)).unwrap_or(0) as u8;
        }
        if shape.boxes().is_none() {
            for c in &self.constraints {
                if let Constraint::Jigsaw(j) = c {
                    m.region.clone_from(&j.regions);
                }
            }
        }
        for house in shape.houses() {
            m.house(house);
        }
        for c in &self.constraints {
            m.label(c.to_string());
            c.lower(shape, &mut m)?;
        }
        m.label("innies and outies");
        let start = m.props.len();
        derive::derive_sums(shape, &mut m);
        m.derived = start..m.props.len();
        if self.constraints.contains(&Constraint::StrictKropki) {
            m.label(".StrictKropki (no dot: neither consecutive nor double)");
            kropki::lower_strict(&self.constraints, shape, &mut m);
        }
        if self.constraints.contains(&Constraint::StrictXv) {
            m.label(".StrictXV (no mark: sum neither 5 nor 10)");
            xv::lower_strict(&self.constraints, shape, &mut m);
        }
        Ok(m)
    }
}

impl FromStr for Puzzle {
    type Err = VariantError;

    /// Read the ISS text format (see [`iss`]), or f-puzzles JSON or an
    /// f-puzzles link (see [`fpuzzles`]).
    fn from_str(s: &str) -> Result<Puzzle, VariantError> {
        if fpuzzles::is_fpuzzles(s) {
            fpuzzles::parse(s)
        } else {
            iss::parse(s)
        }
    }
}

impl fmt::Display for Puzzle {
    /// The ISS text format, read back by `parse`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        iss::write(self, f)
    }
}

impl serde::Serialize for Puzzle {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let givens: String = self
            .givens()
            .into_iter()
            .map(crate::grid::digit_char)
            .collect();
        let mut st = s.serialize_struct("Puzzle", 4)?;
        st.serialize_field("shape", &self.shape.to_string())?;
        // [rows, columns] of a box, or null when there are none (a jigsaw,
        // `.NoBoxes`, a prime side): what a page needs to draw the grid
        st.serialize_field("boxes", &self.shape.boxes())?;
        st.serialize_field("givens", &givens)?;
        st.serialize_field("constraints", &self.constraints)?;
        st.end()
    }
}

/// Whether a line's first token is a variant puzzle: f-puzzles JSON (`{`…)
/// or an f-puzzles link, or the ISS text format:
/// a `.` then `~` (givens, `.~R1C1_5`), or a `.` then a word and `~`
/// (`.Cage~10~R1C1~R1C2`, `.Shape~6x6`, a misspelt kind too: the parser
/// names it), or a `.` then a kind that takes no arguments (`.AntiKnight`,
/// `.NoBoxes`). A classic line has no `~`, and its letters are digits up to
/// `P` (`.A..` starts a 16×16 line), so it is never taken for one; a classic
/// line with a stray letter stays classic and gets the classic error.
pub fn is_variant(token: &[u8]) -> bool {
    match token.first() {
        Some(b'{') => return true,
        // a link or a payload (https://…?load=N4Ig…, N4Ig…, fpuzN4Ig…);
        // classic lines start with a digit or a dot (checked first: hot path)
        Some(b)
            if b.is_ascii_alphabetic()
                && std::str::from_utf8(token).is_ok_and(fpuzzles::is_fpuzzles) =>
        {
            return true;
        }
        _ => {}
    }
    let Some(rest) = token.strip_prefix(b".") else {
        return false;
    };
    let word = rest.iter().take_while(|b| b.is_ascii_alphabetic()).count();
    match rest.get(word) {
        Some(b'~') => true,
        Some(b'.') | None if word > 0 => {
            let word = std::str::from_utf8(&rest[..word]).unwrap_or_default();
            let known = word == "NoBoxes" || iss::kinds().any(|k| k == word);
            // a kind's name of classic digits (`.Diagonal.`) may be a
            // 25×25 line: a bare kind holds a letter past `P`
            known && word.chars().any(|c| crate::format::char_value(c).is_none())
        }
        _ => false,
    }
}

/// The variant puzzle in a line of text, as the command line reads one:
/// f-puzzles JSON is the whole line, ISS text or an f-puzzles link its first
/// word (the rest is a comment); None for a classic puzzle (see
/// [`is_variant`]).
pub fn variant_token(line: &[u8]) -> Option<&[u8]> {
    let line = line.trim_ascii();
    match line.first() {
        Some(b'{') => return Some(line),
        // a classic line starts with a digit, or a dot and no word
        Some(b'.' | b'A'..=b'Z' | b'a'..=b'z') => {}
        _ => return None,
    }
    let end = line
        .iter()
        .position(u8::is_ascii_whitespace)
        .unwrap_or(line.len());
    let token = &line[..end];
    is_variant(token).then_some(token)
}

/// [`variant_token`] of a text.
pub fn variant_text(line: &str) -> Option<&str> {
    // the token is cut at ASCII whitespace, so it is whole characters
    variant_token(line.as_bytes()).and_then(|b| std::str::from_utf8(b).ok())
}

/// The digits of a solution as one line: '1'..'9', then 'A'.. from 10.
pub fn to_line(values: &[u8]) -> String {
    values.iter().map(|&d| crate::grid::digit_char(d)).collect()
}

/// A xorshift64 generator (Marsaglia, 2003) for the variant tests' random
/// candidates: the same numbers on every run.
#[cfg(test)]
pub(crate) fn xorshift(mut seed: u64) -> impl FnMut() -> u64 {
    move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_point_at_the_argument_they_quote() {
        let column = |text: &str| {
            let e = text.parse::<Puzzle>().expect_err("an error");
            (e.column_in(text), e.what())
        };
        let (at, what) = column(".Cage~10~R1C1~R1Z2");
        assert_eq!(at, Some(15), "{what}");
        // after other constraints
        let (at, what) = column(".~R1C1_5.Thermo~R1C2~R1C3.Cage~10~R1C1~R1Z2");
        assert_eq!(at, Some(40), "{what}");
        // an unknown kind: the constraint's start
        let (at, what) = column(".AntiKing.Cagey~3~R1C1~R1C2");
        assert_eq!(at, Some(10), "{what}");
    }

    #[test]
    fn json_names_the_boxes() {
        let json = |text: &str| serde_json::to_value(text.parse::<Puzzle>().expect("ISS")).unwrap();
        let six = json(".Shape~6x6.Cage~3~R1C1~R1C2");
        assert_eq!(six["shape"], "6x6");
        assert_eq!(six["boxes"], serde_json::json!([2, 3]));
        assert_eq!(json(".AntiKnight")["boxes"], serde_json::json!([3, 3]));
        let layout =
            "000000021453303021453333221453322221455566121445666111445566667488887777888887777";
        let jigsaw = json(&format!(".NoBoxes.Jigsaw~{layout}"));
        assert_eq!(jigsaw["boxes"], serde_json::Value::Null);
        assert_eq!(jigsaw["constraints"][0]["kind"], "jigsaw");
    }

    #[test]
    fn variant_lines_are_told_from_classic_ones() {
        for v in [
            ".~R1C1_5~R2C3_1_2",
            ".Cage~10~R1C1~R1C2",
            ".Shape~6x6.Cage~3~R1C1~R1C2",
            ".Cagey~3~R1C1",
            ".AntiKnight",
            ".NoBoxes.Jigsaw~0",
            ".X~R1C1~R1C2",
        ] {
            assert!(is_variant(v.as_bytes()), "{v}");
        }
        for c in [
            "..3.2.6..",
            ".3..9..5.....1...45..8....7....3.2..6....9.4...7..25.......19....69....812.....7.",
            ".A..B...........",
            ".Diagonal.......",
            ".x3......",
            ".Antiking",
            "5.~",
            ".",
            "",
        ] {
            assert!(!is_variant(c.as_bytes()), "{c}");
        }
        assert_eq!(
            variant_text("  .Cage~3~R1C1~R1C2 a comment\n"),
            Some(".Cage~3~R1C1~R1C2")
        );
        assert_eq!(variant_text(" {\"size\": 9} "), Some("{\"size\": 9}"));
        assert_eq!(variant_text("..3.2.6.. x"), None);
        assert_eq!(variant_text("Diagonal"), None);
    }
}
