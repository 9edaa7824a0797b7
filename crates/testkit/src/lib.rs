//! Shared test helpers: the `testdata/puzzles.toml` corpus loader, a helper
//! that runs one solver over every case and checks it against the rules, and
//! proptest strategies that plant a known solution.
//!
//! ```no_run
//! use sudoku_core::solve::Method;
//! let corpus = testkit::Corpus::load_default().expect("corpus loads");
//! let mut solver = Method::Mrv.solver();
//! let run = testkit::run_corpus(solver.as_mut(), &corpus, &[]);
//! assert!(run.failures.is_empty(), "{run}");
//! ```

use std::fmt;
use std::path::{Path, PathBuf};

use sudoku_core::format::{ParseError, char_value, parse_line};
use sudoku_core::{Grid, Limits, Solver, StopReason, Uniqueness};

pub mod strategies;
pub mod variant_corpus;
pub mod variant_oracle;
pub mod variant_plant;

/// How many solutions a case has.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Deserialize)]
pub enum Count {
    /// None.
    #[serde(rename = "0")]
    Zero,
    /// Exactly one.
    #[serde(rename = "1")]
    One,
    /// At least two.
    #[serde(rename = "2+")]
    TwoOrMore,
}

/// One named case of the corpus.
#[derive(Clone, Debug, PartialEq, Eq, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Case {
    /// Unique name.
    pub name: String,
    /// The puzzle, line form.
    pub puzzle: String,
    /// The unique solution, line form.
    #[serde(default)]
    pub solution: Option<String>,
    /// The number of solutions (implied "1" by a solution).
    #[serde(default)]
    pub count: Option<Count>,
    /// Tags (easy, hard, multiple, none, invalid, 4x4, ..., slow-naive).
    #[serde(default)]
    pub tags: Vec<String>,
    /// Where the puzzle comes from.
    #[serde(default)]
    pub source: String,
    /// Invalid cases: part of the parser's message.
    #[serde(default)]
    pub error: Option<String>,
    /// Invalid cases: the column the parser must name.
    #[serde(default)]
    pub column: Option<usize>,
}

impl Case {
    /// Whether the case has this tag.
    pub fn has_tag(&self, tag: &str) -> bool {
        self.tags.iter().any(|t| t == tag)
    }

    /// The expected count: `count`, or one when only a solution is given.
    pub fn expected_count(&self) -> Option<Count> {
        self.count
            .or_else(|| self.solution.as_ref().map(|_| Count::One))
    }

    /// The puzzle through the parser (invalid cases give the parser's error).
    pub fn parse(&self) -> Result<Grid, ParseError> {
        parse_line(&self.puzzle)
    }

    /// The puzzle's cells taken as they are, without the conflict check, so
    /// a case whose givens conflict can still be handed to a solver. `None`
    /// when a character is not a digit or the length is wrong.
    pub fn raw_grid(&self) -> Option<Grid> {
        let cells: Option<Vec<u8>> = self.puzzle.chars().map(char_value).collect();
        Grid::from_cells(cells?).ok()
    }

    /// The solution, parsed.
    pub fn solution_grid(&self) -> Option<Result<Grid, ParseError>> {
        self.solution.as_deref().map(parse_line)
    }
}

/// Every case of a corpus file.
#[derive(Clone, Debug, PartialEq, Eq, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Corpus {
    /// The cases, in file order.
    #[serde(rename = "case")]
    pub cases: Vec<Case>,
}

/// Why a corpus could not be loaded.
#[derive(Debug, thiserror::Error)]
pub enum CorpusError {
    /// The file could not be read.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The error.
        source: std::io::Error,
    },
    /// The file is not a valid corpus.
    #[error("{path}: {source}")]
    Toml {
        /// The file.
        path: PathBuf,
        /// The error.
        source: toml::de::Error,
    },
    /// Two cases share a name.
    #[error("case name {0:?} is used twice")]
    DuplicateName(String),
}

/// Whether the slow tests run too: `SLOW_TESTS` set to anything but empty
/// or `0` (see the README, "Tests").
pub fn slow_tests() -> bool {
    std::env::var_os("SLOW_TESTS").is_some_and(|v| !v.is_empty() && v != "0")
}

/// The number of proptest cases: `PROPTEST_CASES` when set, else `default`,
/// or `slow` with `SLOW_TESTS=1` (as in the exact-cover tests).
pub fn proptest_cases(default: u32, slow: u32) -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(if slow_tests() { slow } else { default })
}

/// The repository's `testdata/` directory.
pub fn testdata_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata")
}

impl Corpus {
    /// Load a corpus file.
    pub fn load(path: &Path) -> Result<Corpus, CorpusError> {
        let text = std::fs::read_to_string(path).map_err(|source| CorpusError::Io {
            path: path.to_owned(),
            source,
        })?;
        Corpus::from_toml(&text).map_err(|e| match e {
            CorpusError::Toml { source, .. } => CorpusError::Toml {
                path: path.to_owned(),
                source,
            },
            other => other,
        })
    }

    /// Parse a corpus from TOML text.
    pub fn from_toml(text: &str) -> Result<Corpus, CorpusError> {
        let corpus: Corpus = toml::from_str(text).map_err(|source| CorpusError::Toml {
            path: PathBuf::new(),
            source,
        })?;
        let mut names: Vec<&str> = corpus.cases.iter().map(|c| c.name.as_str()).collect();
        names.sort_unstable();
        if let Some(w) = names.windows(2).find(|w| w[0] == w[1]) {
            return Err(CorpusError::DuplicateName(w[0].to_string()));
        }
        Ok(corpus)
    }

    /// `testdata/puzzles.toml`.
    pub fn load_default() -> Result<Corpus, CorpusError> {
        Corpus::load(&testdata_dir().join("puzzles.toml"))
    }

    /// The case of a name.
    pub fn get(&self, name: &str) -> Option<&Case> {
        self.cases.iter().find(|c| c.name == name)
    }
}

/// What a solver did on a corpus.
#[derive(Clone, Debug, Default)]
pub struct CorpusRun {
    /// The method's name.
    pub method: String,
    /// Cases run and checked.
    pub ran: Vec<String>,
    /// Cases skipped, with the tag that skipped them.
    pub skipped: Vec<(String, String)>,
    /// What went wrong, one line per problem.
    pub failures: Vec<String>,
}

impl fmt::Display for CorpusRun {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "{}: {} cases run, {} skipped, {} failures",
            self.method,
            self.ran.len(),
            self.skipped.len(),
            self.failures.len()
        )?;
        for (name, tag) in &self.skipped {
            writeln!(f, "  skipped {name} (tag {tag})")?;
        }
        for x in &self.failures {
            writeln!(f, "  FAILED {x}")?;
        }
        Ok(())
    }
}

/// Check a count-to-two answer against a case: solutions obey the rules and
/// the givens, the count matches, a unique solution equals the case's.
/// Returns the problems found.
pub fn check_answer(case: &Case, puzzle: &Grid, answer: &Uniqueness) -> Vec<String> {
    let mut problems = Vec::new();
    let found = match answer {
        Uniqueness::NoSolution => Count::Zero,
        Uniqueness::Unique(g) => {
            if !g.is_solution_of(puzzle) {
                problems.push(format!(
                    "{}: {} is not a solution of the puzzle",
                    case.name, g
                ));
            }
            if let Some(Ok(s)) = case.solution_grid()
                && &s != g
            {
                problems.push(format!("{}: found {g}, expected {s}", case.name));
            }
            Count::One
        }
        Uniqueness::Multiple(a, b) => {
            for g in [a, b] {
                if !g.is_solution_of(puzzle) {
                    problems.push(format!(
                        "{}: {g} is not a solution of the puzzle",
                        case.name
                    ));
                }
            }
            if a == b {
                problems.push(format!(
                    "{}: the same solution was reported twice",
                    case.name
                ));
            }
            Count::TwoOrMore
        }
        Uniqueness::Unknown(stop) => {
            problems.push(format!("{}: search cut short ({stop})", case.name));
            return problems;
        }
    };
    match case.expected_count() {
        Some(want) if want != found => problems.push(format!(
            "{}: found {found:?} solutions, expected {want:?}",
            case.name
        )),
        Some(_) => {}
        None => problems.push(format!("{}: the case states no count", case.name)),
    }
    problems
}

/// Check the case's own data: a stated solution must obey the rules and the
/// givens (the corpus is checked, not trusted).
pub fn check_case_data(case: &Case) -> Vec<String> {
    let mut problems = Vec::new();
    if let Some(sol) = case.solution_grid() {
        match (sol, case.parse()) {
            (Ok(s), Ok(p)) if s.is_solution_of(&p) => {}
            (Ok(s), Ok(_)) => problems.push(format!(
                "{}: the stated solution {s} breaks a rule or a given",
                case.name
            )),
            (Err(e), _) => problems.push(format!("{}: solution does not parse: {e}", case.name)),
            (_, Err(e)) => problems.push(format!("{}: puzzle does not parse: {e}", case.name)),
        }
    }
    problems
}

/// Run `solver` over every case, counting up to two solutions, and check each
/// answer with [`check_answer`]. Cases with a tag in `skip_tags` are skipped
/// and listed in [`CorpusRun::skipped`]. Invalid cases check the parser's
/// error; those with conflicting givens (`count = "0"`) also go to the solver
/// unparsed, which must find no solution.
pub fn run_corpus(solver: &mut dyn Solver, corpus: &Corpus, skip_tags: &[&str]) -> CorpusRun {
    let mut run = CorpusRun {
        method: solver.name().to_string(),
        ..CorpusRun::default()
    };
    let limits = Limits::none().with_max_nodes(50_000_000);
    for case in &corpus.cases {
        if let Some(tag) = skip_tags.iter().find(|t| case.has_tag(t)) {
            run.skipped.push((case.name.clone(), tag.to_string()));
            continue;
        }
        run.failures.extend(check_case_data(case));
        let puzzle = if case.has_tag("invalid") {
            match case.parse() {
                Ok(g) => {
                    run.failures
                        .push(format!("{}: invalid case parsed as {g}", case.name));
                    continue;
                }
                Err(e) => {
                    let msg = e.to_string();
                    if let Some(want) = &case.error
                        && !msg.contains(want.as_str())
                    {
                        run.failures.push(format!(
                            "{}: error {msg:?} does not say {want:?}",
                            case.name
                        ));
                    }
                    if let Some(col) = case.column
                        && (e.line, e.column) != (1, col)
                    {
                        run.failures.push(format!(
                            "{}: error at line {}, column {}, expected line 1, column {col}",
                            case.name, e.line, e.column
                        ));
                    }
                }
            }
            match (case.expected_count(), case.raw_grid()) {
                (Some(_), Some(g)) => g,
                _ => {
                    run.ran.push(case.name.clone());
                    continue;
                }
            }
        } else {
            match case.parse() {
                Ok(g) => g,
                Err(e) => {
                    run.failures
                        .push(format!("{}: does not parse: {e}", case.name));
                    continue;
                }
            }
        };
        let (answer, report) = solver.uniqueness(&puzzle, &limits);
        run.failures.extend(check_answer(case, &puzzle, &answer));
        if report.stop == StopReason::Exhausted && matches!(answer, Uniqueness::Multiple(..)) {
            run.failures.push(format!(
                "{}: two solutions found but the search says it was exhausted",
                case.name
            ));
        }
        run.ran.push(case.name.clone());
    }
    run
}
