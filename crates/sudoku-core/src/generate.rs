//! The puzzle generator: a random full grid, then clues removed (with a
//! symmetry) while the puzzle stays uniquely solvable.
//!
//! # How a puzzle is made
//!
//! 1. **A random full grid**: randomised backtracking with the
//!    fewest-candidates cell first (MRV) and the candidates tried in random
//!    order, restarted with fresh random choices if it wanders (only ever
//!    seen on 16×16).
//! 2. **Clue removal**: the cells are grouped into the orbits of the chosen
//!    [`Symmetry`], the orbits are shuffled, and each orbit in turn is
//!    emptied if the puzzle stays uniquely solvable (checked with the solver
//!    from [`Method::auto`], one solver reused for the whole run; on 16×16
//!    and 25×25 a single cell's check is `wide`'s search for a solution with
//!    another digit in that cell, by local repair of the full grid,
//!    [`Wide::other_solution_near`]: it tries the grid's digit first at
//!    every branch, prefers branching on cells that lost the grid's digit,
//!    and stops as soon as no open cell has, the grid's digits then
//!    completing a second solution). Removing
//!    clues never makes a puzzle "more unique", so one pass leaves a puzzle in
//!    which no orbit can be emptied: with [`Symmetry::None`] that is a
//!    *minimal* puzzle (no single clue removable), with a symmetry it is
//!    minimal among symmetric puzzles.
//! 3. **Targets**: with a clue range ([`GeneratorConfig::clues`]) the pass
//!    stops at a clue count drawn at random in the range (never going below
//!    its minimum), and attempts that end above the maximum are retried; such
//!    puzzles are not minimal in general. A difficulty target (band, rating
//!    range, required techniques) rates each candidate puzzle with the
//!    [`Rater`] and retries until one fits. Retries are bounded by
//!    [`GeneratorConfig::max_attempts`] and [`GeneratorConfig::timeout`] (and
//!    a batch's overall deadline, passed to [`Generator::generate_seeded_by`]);
//!    when one runs out the generator returns [`GenerateError::TooRare`]
//!    instead of looping forever. A [`CancelToken`]
//!    ([`Generator::with_cancel`]) stops it from another thread.
//!
//! # Sizes
//!
//! 4×4, 9×9, 16×16 and 25×25. The uniqueness checks run [`Method::auto`]'s
//! solver (`fast` on 9×9, `wide` on 16×16 and 25×25) to the end by default,
//! so a clue is removed only when the puzzle without it is proven unique and
//! kept only when a second solution is found: the puzzles are minimal. A
//! node budget per check ([`GeneratorConfig::check_nodes`]) can cap the
//! work; a check that runs out keeps its clue (the puzzle stays unique, never
//! "assumed unique") and [`Generated::minimal`] is then false. There is no
//! budget by default except on 25×25, where single checks near 280 clues
//! can take minutes: there a budget of
//! [`GeneratorConfig::CHECK_NODES_25`] nodes makes a unique puzzle (about
//! 270 clues) in under a second, usually not proven minimal (partial;
//! `sudoku generate --minimal` sets the budget to `u64::MAX`). A
//! 25×25 check past 2,000 nodes of local repair switches to `wide`'s plain
//! exclusion search with lookahead and all-different filtering
//! ([`Wide::set_all_different`]; the same answer, found sooner when the
//! second solution is far from the grid): without a budget one seed's
//! minimal puzzle then takes 4.6 s of CPU (9 s without the filtering), the
//! next still minutes (partial; BENCHMARKS.md, Issue 17, fifteenth
//! session). With the default budget the second stage is never reached,
//! so the default puzzles are unchanged.
//! A minimal 16×16 puzzle takes about 9 ms of one core (loaded machine).
//! [`Generator::with_progress`] counts the checks for a progress bar.
//! With [`GeneratorConfig::check_threads`] above 1, a 16×16 or 25×25 pass
//! without symmetry or clue range checks several cells at once, each thread
//! with its own `wide` solver, and commits the decisions in order, so the
//! puzzle is the same on any number of threads (a second solution found
//! with more clues in place stays one with fewer; other answers are
//! checked again if a removal came in between): two threads make seed 2's
//! minimal 25×25 puzzle in 16.7 s instead of 37.8 s.
//!
//! # Reproducibility
//!
//! Everything random comes from [`SplitMix64`], seeded from
//! [`GeneratorConfig::seed`]. [`Generator::generate_seeded`] makes the
//! puzzle of one seed, so a batch can give puzzle `i` the seed
//! [`puzzle_seed`]`(seed, i)` and come out the same on any number of threads.

use std::fmt;
use std::ops::RangeInclusive;
use std::time::Duration;

use crate::grid::{Grid, Size};
use crate::rate::se::{Producer, Profile as SeProfile, SeLimits, SeOutcome, SeRater, SeRating};
use crate::rate::{Band, Config, Rater, Rating, Technique};
use crate::solve::{CancelToken, Limits, Method, Solver, Wide};
use crate::time::Instant;

/// The generator's random numbers: SplitMix64, shared with the exact-cover
/// engines' seeded orders.
pub use exact_cover::SplitMix64;

/// The seed of puzzle number `index` of a batch started with `seed`: the
/// same puzzle comes out whatever the number of threads.
pub fn puzzle_seed(seed: u64, index: u64) -> u64 {
    let mut r = SplitMix64::new(seed ^ index.wrapping_mul(0xD1B5_4A32_D192_ED03));
    r.next_u64()
}

/// Which symmetry the clue pattern keeps: a cell is a clue exactly when its
/// images are.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Symmetry {
    /// No symmetry: the puzzles are minimal.
    None,
    /// Half-turn rotation about the centre (the classic newspaper symmetry).
    Rot180,
    /// Quarter-turn rotation (orbits of four cells).
    Rot90,
    /// Mirror left–right.
    Mirror,
    /// Mirror top–bottom.
    Flip,
    /// Mirror in the main diagonal (top-left to bottom-right).
    Diagonal,
    /// Mirror in the anti-diagonal (top-right to bottom-left).
    AntiDiagonal,
    /// Both mirrors, left–right and top–bottom (orbits of four cells).
    Both,
}

impl Symmetry {
    /// Every symmetry.
    pub const ALL: [Symmetry; 8] = [
        Symmetry::None,
        Symmetry::Rot180,
        Symmetry::Rot90,
        Symmetry::Mirror,
        Symmetry::Flip,
        Symmetry::Diagonal,
        Symmetry::AntiDiagonal,
        Symmetry::Both,
    ];

    /// The name used on the command line: "none", "rot180", ...
    pub fn name(self) -> &'static str {
        match self {
            Symmetry::None => "none",
            Symmetry::Rot180 => "rot180",
            Symmetry::Rot90 => "rot90",
            Symmetry::Mirror => "mirror",
            Symmetry::Flip => "flip",
            Symmetry::Diagonal => "diagonal",
            Symmetry::AntiDiagonal => "anti-diagonal",
            Symmetry::Both => "both",
        }
    }

    /// The symmetry with this name.
    pub fn from_name(name: &str) -> Option<Symmetry> {
        let name = name.trim().to_ascii_lowercase();
        Symmetry::ALL.into_iter().find(|s| s.name() == name)
    }

    /// The images of (row, col) on a side-`n` grid under the maps that
    /// generate this symmetry.
    fn images(self, n: usize, r: usize, c: usize) -> Vec<(usize, usize)> {
        let m = n - 1;
        match self {
            Symmetry::None => vec![],
            Symmetry::Rot180 => vec![(m - r, m - c)],
            Symmetry::Rot90 => vec![(c, m - r)],
            Symmetry::Mirror => vec![(r, m - c)],
            Symmetry::Flip => vec![(m - r, c)],
            Symmetry::Diagonal => vec![(c, r)],
            Symmetry::AntiDiagonal => vec![(m - c, m - r)],
            Symmetry::Both => vec![(r, m - c), (m - r, c)],
        }
    }

    /// The orbits of the cells of a grid (each a set of cell indices that are
    /// clues together), in cell order of their first cell.
    pub fn orbits(self, size: Size) -> Vec<Vec<usize>> {
        self.orbits_of_side(size.side())
    }

    /// The orbits of the cells of an n×n grid of any side (cells row-major),
    /// as [`orbits`](Self::orbits): variant grids are 6×6 and 8×8 too.
    pub fn orbits_of_side(self, n: usize) -> Vec<Vec<usize>> {
        let cells = n * n;
        let mut seen = vec![false; cells];
        let mut orbits = Vec::new();
        for start in 0..cells {
            if seen[start] {
                continue;
            }
            let mut orbit = vec![start];
            seen[start] = true;
            let mut k = 0;
            while k < orbit.len() {
                let cell = orbit[k];
                for (r, c) in self.images(n, cell / n, cell % n) {
                    let img = r * n + c;
                    if !seen[img] {
                        seen[img] = true;
                        orbit.push(img);
                    }
                }
                k += 1;
            }
            orbits.push(orbit);
        }
        orbits
    }

    /// Whether the clue pattern of `grid` has this symmetry.
    pub fn holds(self, grid: &Grid) -> bool {
        let size = grid.size();
        let n = size.side();
        (0..size.cells()).all(|cell| {
            self.images(n, size.row_of(cell), size.col_of(cell))
                .into_iter()
                .all(|(r, c)| (grid.get(cell) != 0) == (grid.get(size.cell(r, c)) != 0))
        })
    }
}

impl fmt::Display for Symmetry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.name())
    }
}

/// What the generator makes. Every field has a documented default
/// ([`GeneratorConfig::default`]: 9×9, seed 0, no symmetry, minimal
/// puzzles, no difficulty target, 10,000 attempts, no time limit).
#[derive(Clone, Debug, PartialEq)]
pub struct GeneratorConfig {
    /// Grid size. Default 9×9.
    pub size: Size,
    /// Seed of the random choices. Default 0.
    pub seed: u64,
    /// Symmetry of the clue pattern. Default none.
    pub symmetry: Symmetry,
    /// Clue count range; `None` (the default) makes minimal puzzles.
    pub clues: Option<RangeInclusive<usize>>,
    /// Wanted difficulty band. Default none (any).
    pub band: Option<Band>,
    /// Wanted rating range, inclusive, on the Sudoku Explainer scale (e.g.
    /// 2.0..=3.0). Default none (any).
    pub rating: Option<RangeInclusive<f32>>,
    /// Techniques the solving path must use (each at least once). Default
    /// none.
    pub require: Vec<Technique>,
    /// Techniques the rater may use. Default all.
    pub rater: Config,
    /// Rate with the Sudoku Explainer rater of this profile
    /// ([`crate::rate::se`]) instead of the default rater: `rating` is then
    /// the ER, the required techniques are [`GeneratorConfig::se_require`],
    /// and `band`, `require` and `rater` must be left at their defaults. A
    /// puzzle the Explainer rater leaves unrated (a technique it lacks, or
    /// the time limit) never fits a target. Default none.
    pub se: Option<SeProfile>,
    /// With [`GeneratorConfig::se`]: the Explainer ladder entries the path
    /// must use (each at least once). Default none.
    pub se_require: Vec<Producer>,
    /// Rate every puzzle even without a difficulty target (so
    /// [`Generated::rating`] is filled). Default false.
    pub rate: bool,
    /// Attempts (full grids) per puzzle before giving up with
    /// [`GenerateError::TooRare`]. Default 10,000.
    pub max_attempts: u64,
    /// Time per puzzle before giving up with [`GenerateError::TooRare`].
    /// Default none.
    pub timeout: Option<Duration>,
    /// Node budget of each uniqueness check during clue removal; a check that
    /// runs out keeps the clue (the puzzle stays unique but may not be
    /// minimal, and [`Generated::minimal`] says so). Default: `u64::MAX`, no
    /// budget, so puzzles without a clue range are always minimal, except on
    /// 25×25: [`GeneratorConfig::CHECK_NODES_25`].
    pub check_nodes: u64,
    /// Threads one puzzle's clue-removal pass may use on 16×16 and 25×25
    /// (see [`Generator`]'s parallel pass): the puzzle made is the same for
    /// any number. Default 1.
    pub check_threads: usize,
}

impl Default for GeneratorConfig {
    fn default() -> Self {
        GeneratorConfig::for_size(Size::NINE)
    }
}

impl GeneratorConfig {
    /// The default node budget of a 25×25 check: near 280 clues single
    /// checks start to take minutes, so 25×25 puzzles are unique but not
    /// always minimal.
    pub const CHECK_NODES_25: u64 = 1_000;

    /// The default config for a grid size.
    pub fn for_size(size: Size) -> GeneratorConfig {
        GeneratorConfig {
            size,
            seed: 0,
            symmetry: Symmetry::None,
            clues: None,
            band: None,
            rating: None,
            require: Vec::new(),
            rater: Config::all(),
            se: None,
            se_require: Vec::new(),
            rate: false,
            max_attempts: 10_000,
            timeout: None,
            check_nodes: if size.side() >= 25 {
                Self::CHECK_NODES_25
            } else {
                u64::MAX
            },
            check_threads: 1,
        }
    }

    /// Whether a difficulty target needs the rater.
    pub fn has_difficulty_target(&self) -> bool {
        self.band.is_some()
            || self.rating.is_some()
            || !self.require.is_empty()
            || !self.se_require.is_empty()
    }

    /// Whether the target can be met at all: `Err(`[`GenerateError::Invalid`]`)`
    /// for an empty clue or rating range, more clues than cells, or a
    /// required technique that is disabled.
    pub fn validate(&self) -> Result<(), GenerateError> {
        let c = self;
        let cells = c.size.cells();
        if let Some(r) = &c.clues {
            if r.start() > r.end() {
                return Err(GenerateError::Invalid(format!(
                    "clue range {}..{} is empty",
                    r.start(),
                    r.end()
                )));
            }
            if *r.start() > cells {
                return Err(GenerateError::Invalid(format!(
                    "a {} grid has only {cells} cells, fewer than {} clues",
                    c.size,
                    r.start()
                )));
            }
        }
        if let Some(r) = &c.rating {
            if r.start().is_nan() || r.end().is_nan() || r.start() > r.end() {
                return Err(GenerateError::Invalid(format!(
                    "rating range {}..{} is empty",
                    r.start(),
                    r.end()
                )));
            }
        }
        match c.se {
            Some(_) if c.size != Size::NINE => {
                return Err(GenerateError::Invalid(
                    "the Explainer rater rates 9x9 puzzles only".to_string(),
                ));
            }
            Some(profile) => {
                if c.band.is_some() || !c.require.is_empty() || c.rater != Config::all() {
                    return Err(GenerateError::Invalid(
                        "a difficulty band, required techniques or disabled techniques of the \
                         default rater do not apply with the Explainer rater"
                            .to_string(),
                    ));
                }
                for &p in &c.se_require {
                    if !profile.ladder().contains(&p) {
                        return Err(GenerateError::Invalid(format!(
                            "{p} is not in the {profile} profile's ladder"
                        )));
                    }
                    if !p.is_implemented() {
                        return Err(GenerateError::Invalid(format!(
                            "{p} is not implemented by the Explainer rater (its puzzles are \
                             unrated)"
                        )));
                    }
                }
            }
            None if !c.se_require.is_empty() => {
                return Err(GenerateError::Invalid(
                    "Explainer techniques are required without the Explainer rater".to_string(),
                ));
            }
            None => {}
        }
        for &t in &c.require {
            if !c.rater.is_enabled(t) {
                return Err(GenerateError::Invalid(format!(
                    "technique {t} is required but disabled"
                )));
            }
        }
        Ok(())
    }

    /// A short description of the target, for messages.
    pub fn describe_target(&self) -> String {
        let mut parts = vec![format!("{} puzzles", self.size)];
        if self.symmetry != Symmetry::None {
            parts.push(format!("symmetry {}", self.symmetry));
        }
        if let Some(c) = &self.clues {
            parts.push(format!("{}..{} clues", c.start(), c.end()));
        }
        if let Some(b) = self.band {
            parts.push(format!("difficulty {b}"));
        }
        if let Some(p) = self.se {
            parts.push(format!("Explainer profile {p}"));
        }
        if let Some(r) = &self.rating {
            let what = if self.se.is_some() { "ER" } else { "rating" };
            parts.push(format!("{what} {:.1}..{:.1}", r.start(), r.end()));
        }
        for t in &self.require {
            parts.push(format!("requiring {t}"));
        }
        for p in &self.se_require {
            parts.push(format!("requiring {p}"));
        }
        parts.join(", ")
    }
}

/// Why the generator could not make a puzzle.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum GenerateError {
    /// The config can never be met.
    #[error("impossible target: {0}")]
    Invalid(String),
    /// The attempt or time budget ran out before a puzzle met the target.
    #[error(
        "no puzzle met the target ({target}) in {attempts} attempts ({:.1} s): such puzzles are too rare; widen the target, allow more time (timeout) or more attempts",
        elapsed.as_secs_f64()
    )]
    TooRare {
        /// What was asked for.
        target: String,
        /// Attempts made.
        attempts: u64,
        /// Time spent.
        elapsed: Duration,
    },
    /// The generator's [`CancelToken`] was cancelled (see
    /// [`Generator::with_cancel`]).
    #[error("cancelled")]
    Cancelled,
}

/// A generated puzzle.
#[derive(Clone, Debug, PartialEq)]
pub struct Generated {
    /// The puzzle (uniquely solvable).
    pub puzzle: Grid,
    /// Its solution.
    pub solution: Grid,
    /// Its rating, when a difficulty target or [`GeneratorConfig::rate`]
    /// asked for one (none with [`GeneratorConfig::se`]).
    pub rating: Option<Rating>,
    /// Its Explainer rating, when [`GeneratorConfig::se`] is set and a
    /// difficulty target or [`GeneratorConfig::rate`] asked for one.
    pub se_rating: Option<SeRating>,
    /// Whether no clue orbit can be removed (always true without a clue
    /// range and with the default [`GeneratorConfig::check_nodes`]).
    pub minimal: bool,
    /// The seed this puzzle was made from ([`Generator::generate_seeded`]
    /// with it makes the same puzzle again).
    pub seed: u64,
    /// Attempts it took (1 when the first full grid did).
    pub attempts: u64,
}

/// The generator. Holds its solver and buffers; make one per thread.
pub struct Generator {
    config: GeneratorConfig,
    rng: SplitMix64,
    solver: Box<dyn Solver + Send>,
    /// `wide`'s exclusion search, for single-cell checks when it is the
    /// size's method.
    wide: Option<Wide>,
    /// More `wide` solvers for the parallel removal pass, one per extra
    /// thread, kept between puzzles.
    helpers: Vec<Wide>,
    rater: Rater,
    orbits: Vec<Vec<usize>>,
    cancel: Option<CancelToken>,
    progress: Option<std::sync::Arc<std::sync::atomic::AtomicU64>>,
}

impl fmt::Debug for Generator {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Generator")
            .field("config", &self.config)
            .field("solver", &self.solver.name())
            .finish()
    }
}

impl Generator {
    /// A generator for a config.
    pub fn new(config: GeneratorConfig) -> Generator {
        let method = Method::auto(config.size);
        let solver = method.solver();
        Generator {
            wide: (method == Method::Wide).then(Wide::new),
            helpers: Vec::new(),
            rng: SplitMix64::new(config.seed),
            rater: Rater::new(config.rater),
            orbits: config.symmetry.orbits(config.size),
            solver,
            config,
            cancel: None,
            progress: None,
        }
    }

    /// Builder-style: add one to `checks` after each clue orbit the removal
    /// pass has decided on (kept or removed), so another thread can show
    /// progress (a 25×25 puzzle takes about 625 checks). Several generators
    /// may share one counter.
    pub fn with_progress(
        mut self,
        checks: std::sync::Arc<std::sync::atomic::AtomicU64>,
    ) -> Generator {
        self.progress = Some(checks);
        self
    }

    /// Builder-style: give up with [`GenerateError::Cancelled`] once `token`
    /// is cancelled (from another thread, say). The token is polled between
    /// attempts and by the uniqueness checks, so a puzzle under way stops
    /// within a few thousand search nodes. Cancelling never changes a
    /// puzzle, only whether it is made.
    pub fn with_cancel(mut self, token: CancelToken) -> Generator {
        self.cancel = Some(token);
        self
    }

    /// The config.
    pub fn config(&self) -> &GeneratorConfig {
        &self.config
    }

    /// The next puzzle of this generator's random stream.
    #[allow(clippy::should_implement_trait)]
    pub fn next(&mut self) -> Result<Generated, GenerateError> {
        let seed = self.rng.next_u64();
        self.generate_seeded(seed)
    }

    /// The puzzle of a seed (the same seed and config give the same puzzle).
    pub fn generate_seeded(&mut self, seed: u64) -> Result<Generated, GenerateError> {
        self.generate_seeded_by(seed, None)
    }

    /// The puzzle of a seed, giving up with [`GenerateError::TooRare`] at
    /// `deadline` as well as after [`GeneratorConfig::timeout`] (whichever
    /// comes first): a batch passes its overall deadline here. A deadline
    /// that is already past fails at once, before any attempt. The puzzle of
    /// a seed does not depend on the deadline, only whether it is found in
    /// time.
    pub fn generate_seeded_by(
        &mut self,
        seed: u64,
        deadline: Option<Instant>,
    ) -> Result<Generated, GenerateError> {
        self.config.validate()?;
        let start = Instant::now();
        // A timeout too long for the clock means no deadline of its own.
        let own = self.config.timeout.and_then(|t| start.checked_add(t));
        let deadline = match (own, deadline) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        let mut rng = SplitMix64::new(seed);
        let mut attempts = 0u64;
        loop {
            if self.cancel.as_ref().is_some_and(CancelToken::is_cancelled) {
                return Err(GenerateError::Cancelled);
            }
            if attempts >= self.config.max_attempts.max(1)
                || deadline.is_some_and(|d| Instant::now() >= d)
            {
                return Err(GenerateError::TooRare {
                    target: self.config.describe_target(),
                    attempts,
                    elapsed: start.elapsed(),
                });
            }
            attempts += 1;
            let Some(solution) = random_full_grid(self.config.size, &mut rng, deadline) else {
                continue;
            };
            let Some((puzzle, minimal)) = self.remove_clues(&solution, &mut rng, deadline) else {
                continue;
            };
            let wanted = self.config.has_difficulty_target() || self.config.rate;
            let mut se_rating = None;
            if let (Some(profile), true) = (self.config.se, wanted) {
                let rater = SeRater::new(profile).with_limits(SeLimits { deadline });
                let mut used: Vec<Producer> = Vec::new();
                let r = rater.run(&puzzle, |s| {
                    if !used.contains(&s.producer) {
                        used.push(s.producer);
                    }
                });
                if self.config.has_difficulty_target() && !self.fits_se(&r, &used) {
                    continue;
                }
                se_rating = Some(r);
            }
            let rating = if wanted && self.config.se.is_none() {
                let r = self.rater.rate(&puzzle);
                if !self.fits(&r) {
                    continue;
                }
                Some(r)
            } else {
                None
            };
            return Ok(Generated {
                puzzle,
                solution,
                rating,
                se_rating,
                minimal,
                seed,
                attempts,
            });
        }
    }

    /// Change the time limit per puzzle ([`GeneratorConfig::timeout`]),
    /// keeping the solver and buffers. (A run with an overall deadline passes
    /// it to [`generate_seeded_by`](Self::generate_seeded_by) instead.)
    pub fn set_timeout(&mut self, timeout: Option<Duration>) {
        self.config.timeout = timeout;
    }

    /// Whether an Explainer rating meets the target: rated, ER in range
    /// (in tenths), every required ladder entry on the path.
    fn fits_se(&self, r: &SeRating, used: &[Producer]) -> bool {
        let c = &self.config;
        r.outcome == SeOutcome::Rated
            && c.rating.as_ref().is_none_or(|range| {
                let t = f32::from(r.er);
                (range.start() * 10.0).round() <= t && t <= (range.end() * 10.0).round()
            })
            && c.se_require.iter().all(|p| used.contains(p))
    }

    fn fits(&self, r: &Rating) -> bool {
        let c = &self.config;
        c.band.is_none_or(|b| r.band == b)
            && c.rating.as_ref().is_none_or(|range| {
                // Ratings are in tenths; compare in tenths to avoid float edges.
                let t = (r.difficulty * 10.0).round();
                (range.start() * 10.0).round() <= t && t <= (range.end() * 10.0).round()
            })
            && c.require
                .iter()
                .all(|t| r.counts.iter().any(|k| k.technique == *t))
    }

    /// One removal pass: `None` if the result misses the clue range (or the
    /// deadline passed). Returns the puzzle and whether it is minimal.
    fn remove_clues(
        &mut self,
        solution: &Grid,
        rng: &mut SplitMix64,
        deadline: Option<Instant>,
    ) -> Option<(Grid, bool)> {
        let cells = solution.size().cells();
        let (min, max, target) = match &self.config.clues {
            Some(r) => {
                let (lo, hi) = (*r.start(), (*r.end()).min(cells));
                (lo, hi, lo + rng.below(hi - lo + 1))
            }
            None => (0, cells, 0),
        };
        let mut order: Vec<usize> = (0..self.orbits.len()).collect();
        rng.shuffle(&mut order);
        if self.config.check_threads > 1
            && self.config.clues.is_none()
            && self.wide.is_some()
            && self.orbits.iter().all(|o| o.len() == 1)
        {
            let cells: Vec<usize> = order.iter().map(|&k| self.orbits[k][0]).collect();
            return self.remove_cells_parallel(solution, &cells, deadline);
        }
        let mut puzzle = solution.clone();
        let mut count = cells;
        let mut minimal = true;
        let limits = self.check_limits(deadline);
        for &k in &order {
            if count <= target {
                // Stopped on purpose: minimal only if nothing else could go,
                // which is not checked.
                minimal = false;
                break;
            }
            let orbit = &self.orbits[k];
            if count - orbit.len() < min {
                minimal = false;
                continue;
            }
            for &cell in orbit {
                puzzle.set(cell, 0);
            }
            let outcome = match (&mut self.wide, orbit.as_slice()) {
                // One cell: the puzzle stays unique exactly when no solution
                // puts another digit there, searched for by local repair of
                // the known grid (see `Wide::other_solution_near`).
                (Some(wide), &[cell]) => cell_outcome(wide, &puzzle, solution, cell, &limits),
                _ => {
                    let (n, report) = self.solver.count(&puzzle, 2, &limits);
                    CheckOutcome::of(n, &report)
                }
            };
            if let Some(p) = &self.progress {
                p.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            }
            if outcome == CheckOutcome::Unique {
                count -= orbit.len();
            } else {
                if outcome == CheckOutcome::Cut {
                    minimal = false;
                    if limits.poll().is_some() {
                        // out of time, or cancelled: the caller says which
                        return None;
                    }
                }
                for &cell in orbit {
                    puzzle.set(cell, solution.get(cell));
                }
            }
        }
        (count <= max).then_some((puzzle, minimal))
    }
}

/// What a clue check of the removal pass found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum CheckOutcome {
    /// A second solution: the clue stays, on this puzzle and on any with
    /// fewer clues.
    Second,
    /// Proven unique without the clue (a complete search with one
    /// solution): it goes.
    Unique,
    /// Cut short (node budget, deadline, cancel): the clue stays, not
    /// proven needed.
    Cut,
}

impl CheckOutcome {
    /// From a count of the puzzle without the clue, up to two solutions.
    fn of(solutions: u64, report: &crate::solve::Report) -> CheckOutcome {
        if solutions >= 2 {
            CheckOutcome::Second
        } else if !report.stop.is_complete() {
            CheckOutcome::Cut
        } else if solutions == 1 {
            CheckOutcome::Unique
        } else {
            // No solution at all cannot happen (the grid is one); the clue
            // stays.
            CheckOutcome::Second
        }
    }
}

/// [`check_cell`]'s answer for `cell`, emptied in `puzzle`.
fn cell_outcome(
    wide: &mut Wide,
    puzzle: &Grid,
    solution: &Grid,
    cell: usize,
    limits: &Limits,
) -> CheckOutcome {
    let repair = repair_nodes(solution.size());
    let r = check_cell(wide, puzzle, solution, cell, limits, repair);
    CheckOutcome::of(if r.stats.solutions > 0 { 2 } else { 1 }, &r)
}

/// The state the threads of [`Generator::remove_cells_parallel`] share.
struct PassState {
    /// The puzzle with every removal committed so far.
    puzzle: Grid,
    /// Removals committed so far: the version of `puzzle`.
    removed: u64,
    /// The next position of the order to hand out.
    next: usize,
    /// The next position to commit (all before it are decided).
    commit: usize,
    /// Position `commit` must be checked again on the current puzzle.
    redo: bool,
    /// Per position: the outcome and the version of the puzzle it was
    /// checked on, until committed.
    results: Vec<Option<(CheckOutcome, u64)>>,
    minimal: bool,
    /// The deadline passed or the token was cancelled.
    stopped: bool,
}

impl Generator {
    /// The limits of one clue check: the node budget, `deadline` and the
    /// cancel token.
    fn check_limits(&self, deadline: Option<Instant>) -> Limits {
        Limits {
            max_nodes: Some(self.config.check_nodes),
            deadline,
            cancel: self.cancel.clone(),
            ..Limits::none()
        }
    }

    /// The removal pass of one-cell orbits (no symmetry, no clue range) on
    /// [`GeneratorConfig::check_threads`] threads, each with its own `wide`
    /// solver, deciding exactly as the one-thread pass does. Threads take
    /// the next cells of the order and check each on a copy of the puzzle
    /// as it stands; the decisions are committed in order. A second
    /// solution found on a puzzle with more clues is one of the puzzle with
    /// fewer, so "keep" holds whatever was removed meanwhile; "remove" (and
    /// a check cut by the node budget) holds only if no removal was
    /// committed since its copy was taken, and is checked again otherwise.
    /// Late in a pass nearly every check keeps its clue, and those are the
    /// slow ones on 25×25, so the pass runs nearly as many times faster as
    /// it has threads. At most 64 checks per thread run ahead of the
    /// first undecided cell (on seed 1's minimal 25×25 puzzle, two threads
    /// took 2.78 s with 16 and 2.72 s with 64 against 3.11 s with 4).
    fn remove_cells_parallel(
        &mut self,
        solution: &Grid,
        order: &[usize],
        deadline: Option<Instant>,
    ) -> Option<(Grid, bool)> {
        use std::sync::{Condvar, Mutex};
        let threads = self.config.check_threads;
        while self.helpers.len() + 1 < threads {
            self.helpers.push(Wide::new());
        }
        let limits = self.check_limits(deadline);
        let ahead = 64 * threads;
        let state = Mutex::new(PassState {
            puzzle: solution.clone(),
            removed: 0,
            next: 0,
            commit: 0,
            redo: false,
            results: vec![None; order.len()],
            minimal: true,
            stopped: false,
        });
        let wake = Condvar::new();
        let progress = self.progress.as_deref();
        let work = |wide: &mut Wide| {
            let lock = || state.lock().unwrap_or_else(|e| e.into_inner());
            let mut st = lock();
            loop {
                // Take a position: the one to check again first, else the
                // next in order within the window, else wait.
                let (pos, mut puzzle, version) = loop {
                    if st.stopped || st.commit == order.len() {
                        return;
                    }
                    if st.redo {
                        st.redo = false;
                        break (st.commit, st.puzzle.clone(), st.removed);
                    }
                    if st.next < order.len() && st.next < st.commit + ahead {
                        st.next += 1;
                        break (st.next - 1, st.puzzle.clone(), st.removed);
                    }
                    st = wake.wait(st).unwrap_or_else(|e| e.into_inner());
                };
                drop(st);
                let cell = order[pos];
                puzzle.set(cell, 0);
                let outcome = cell_outcome(wide, &puzzle, solution, cell, &limits);
                st = lock();
                if outcome == CheckOutcome::Cut && limits.poll().is_some() {
                    st.stopped = true;
                    wake.notify_all();
                    return;
                }
                st.results[pos] = Some((outcome, version));
                // Commit what is decided, in order.
                while st.commit < order.len() {
                    let at = st.commit;
                    let Some((o, v)) = st.results[at].take() else {
                        break;
                    };
                    if o != CheckOutcome::Second && v != st.removed {
                        st.redo = true;
                        break;
                    }
                    match o {
                        CheckOutcome::Second => {}
                        CheckOutcome::Cut => st.minimal = false,
                        CheckOutcome::Unique => {
                            st.puzzle.set(order[at], 0);
                            st.removed += 1;
                        }
                    }
                    st.commit += 1;
                    if let Some(p) = progress {
                        p.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    }
                }
                wake.notify_all();
            }
        };
        let (first, rest) = (self.wide.as_mut()?, &mut self.helpers[..threads - 1]);
        std::thread::scope(|scope| {
            for wide in rest.iter_mut() {
                // Where threads cannot start (WebAssembly without them),
                // this thread does all the checks.
                let _ = std::thread::Builder::new().spawn_scoped(scope, || work(wide));
            }
            work(first);
        });
        let st = state.into_inner().unwrap_or_else(|e| e.into_inner());
        if st.stopped {
            return None;
        }
        Some((st.puzzle, st.minimal))
    }
}

/// How many nodes a single-cell check searches by local repair before it
/// switches to the plain exclusion search with lookahead (see
/// [`check_cell`]): on 25×25 the repair search finds near second solutions
/// at once but wanders for up to millions of nodes when the second solution
/// is far from the grid, where the lookahead search needs thousands (seed 1's
/// first 25×25 puzzle without a node budget: 0.67 M nodes and 9 s of CPU,
/// minimal, against 31 M nodes for the repair search alone with 3 checks
/// still cut at 3 M nodes; BENCHMARKS.md, Issue 17, twelfth session). Other
/// sizes search by repair only (16×16's checks already probe past 100
/// nodes).
fn repair_nodes(size: Size) -> u64 {
    if size.side() >= 25 { 2_000 } else { u64::MAX }
}

/// The generator's check of one emptied cell: whether `puzzle` (unique with
/// solution `solution` while `cell` was a clue) has a solution with another
/// digit in `cell`, at most one reported. First [`Wide::other_solution_near`]
/// for up to `repair` nodes; if that neither finds a solution nor completes,
/// [`Wide::search_excluding`] (lookahead, stopped at its first solution)
/// with what is left of `limits`' node budget, filtering every house's
/// all-different constraint ([`Wide::set_all_different`]: these are the
/// hard checks, where fewer nodes pay for the dearer node). Both are complete searches
/// for the same solutions, so the answer is the same whichever decides it;
/// the report's nodes are the two searches' together.
fn check_cell(
    wide: &mut Wide,
    puzzle: &Grid,
    solution: &Grid,
    cell: usize,
    limits: &Limits,
    repair: u64,
) -> crate::solve::Report {
    let budget = limits.max_nodes.unwrap_or(u64::MAX);
    let first_limits = Limits {
        max_nodes: Some(budget.min(repair)),
        ..limits.clone()
    };
    let first = wide.other_solution_near(puzzle, solution, cell, &first_limits, &mut |_| {
        std::ops::ControlFlow::Continue(())
    });
    let cut_by_repair_cap = first.stop == crate::solve::StopReason::NodeLimit && budget > repair;
    if first.stats.solutions > 0 || !cut_by_repair_cap {
        return first;
    }
    let rest = Limits {
        max_solutions: Some(1),
        max_nodes: Some(budget - first.stats.nodes.min(budget)),
        ..limits.clone()
    };
    wide.set_all_different(true);
    let mut second = wide.search_excluding(puzzle, cell, solution.get(cell), &rest, &mut |_| {
        std::ops::ControlFlow::Continue(())
    });
    wide.set_all_different(false);
    second.stats.nodes += first.stats.nodes;
    second.stats.time += first.stats.time;
    second
}

/// A random complete grid: randomised MRV backtracking, restarted when a try
/// takes more than a node budget. `None` only when the deadline passes.
pub fn random_full_grid(
    size: Size,
    rng: &mut SplitMix64,
    deadline: Option<Instant>,
) -> Option<Grid> {
    let mut filler = Filler::new(size);
    loop {
        if let Some(g) = filler.fill(rng, 50 * size.cells() as u64) {
            return Some(g);
        }
        if deadline.is_some_and(|d| Instant::now() >= d) {
            return None;
        }
    }
}

/// Bitmask state of the random filler.
struct Filler {
    cells: Vec<u8>,
    /// Per cell, its row, column and box (looked up, not divided out: the
    /// fewest-candidates scan reads every empty cell at every node).
    houses: Vec<[u8; 3]>,
    rows: Vec<u32>,
    cols: Vec<u32>,
    boxes: Vec<u32>,
    all: u32,
}

impl Filler {
    fn new(size: Size) -> Filler {
        let n = size.side();
        Filler {
            cells: vec![0; size.cells()],
            houses: (0..size.cells())
                .map(|c| [size.row_of(c), size.col_of(c), size.box_of(c)].map(|h| h as u8))
                .collect(),
            rows: vec![0; n],
            cols: vec![0; n],
            boxes: vec![0; n],
            all: if n >= 32 { u32::MAX } else { (1u32 << n) - 1 },
        }
    }

    fn free(&self, cell: usize) -> u32 {
        let [r, c, b] = self.houses[cell].map(usize::from);
        self.all & !(self.rows[r] | self.cols[c] | self.boxes[b])
    }

    fn put(&mut self, cell: usize, d: u8) {
        let bit = 1u32 << (d - 1);
        let [r, c, b] = self.houses[cell].map(usize::from);
        self.cells[cell] = d;
        self.rows[r] ^= bit;
        self.cols[c] ^= bit;
        self.boxes[b] ^= bit;
    }

    fn fill(&mut self, rng: &mut SplitMix64, budget: u64) -> Option<Grid> {
        self.cells.iter_mut().for_each(|c| *c = 0);
        self.rows.iter_mut().for_each(|m| *m = 0);
        self.cols.iter_mut().for_each(|m| *m = 0);
        self.boxes.iter_mut().for_each(|m| *m = 0);
        let mut nodes = 0u64;
        self.search(rng, &mut nodes, budget)
            .then(|| Grid::from_cells(self.cells.clone()).ok())
            .flatten()
    }

    fn search(&mut self, rng: &mut SplitMix64, nodes: &mut u64, budget: u64) -> bool {
        *nodes += 1;
        if *nodes > budget {
            return false;
        }
        // The empty cell with the fewest candidates (ties: the first).
        let mut best = usize::MAX;
        let mut best_count = u32::MAX;
        for cell in 0..self.cells.len() {
            if self.cells[cell] == 0 {
                let k = self.free(cell).count_ones();
                if k < best_count {
                    best = cell;
                    best_count = k;
                    if k <= 1 {
                        break;
                    }
                }
            }
        }
        if best == usize::MAX {
            return true;
        }
        let mut free = self.free(best);
        let mut digits = [0u8; 32];
        let mut k = 0;
        while free != 0 {
            digits[k] = free.trailing_zeros() as u8 + 1;
            free &= free - 1;
            k += 1;
        }
        rng.shuffle(&mut digits[..k]);
        for &d in &digits[..k] {
            self.put(best, d);
            if self.search(rng, nodes, budget) {
                return true;
            }
            self.put(best, d);
            self.cells[best] = 0;
            if *nodes > budget {
                return false;
            }
        }
        false
    }
}

#[cfg(test)]
mod tests;
