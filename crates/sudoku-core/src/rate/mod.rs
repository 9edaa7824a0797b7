//! The human-style step solver: rates puzzles, explains them step by step and
//! gives hints.
//!
//! A [`Candidates`] grid is worked on by an ordered list of techniques (one
//! file each in this module, easiest first). Each finds a [`Step`]: digits
//! placed and/or candidates eliminated, with the cells, houses, digits and
//! links that justify it. A step is plain data (serde-serialisable); its words
//! come separately from [`Step::prose`] and [`Step::hint`].
//!
//! # Rating
//!
//! [`Rater::rate`] always takes the easiest available step and rates the
//! puzzle by the hardest step on that path, on the Sudoku Explainer scale
//! (see [`Technique::difficulty`] for each value and where it comes from). The
//! rating is placed in a [`Band`]:
//!
//! | band | rating | typical techniques |
//! |---|---|---|
//! | easy | ≤ 1.5 | full house, hidden singles |
//! | medium | ≤ 2.8 | naked single, pointing, claiming |
//! | hard | ≤ 4.1 | pairs, triples, X-wing, swordfish, skyscraper, kite |
//! | expert | ≤ 5.0 | wings, unique rectangle, colouring, naked quad |
//! | extreme | > 5.0 | jellyfish, hidden quad, BUG+1, chains |
//! | needs-guessing | — | the enabled techniques cannot finish the puzzle |
//!
//! For ratings that match Sudoku Explainer's own (ER/EP/ED, its technique
//! set and order), see [`se`] (partial: up to dynamic forcing chains).
//!
//! Unique rectangle and BUG+1 assume the puzzle has a unique solution (as
//! every rated puzzle should); on a puzzle with several solutions they may
//! remove true candidates.
//!
//! # Speed
//!
//! Candidates are updated incrementally (placing a digit clears it from the
//! cell's peers) and the rater reuses one step buffer, so the singles that
//! make up most paths cost no allocation. Measured single-threaded with
//! `cargo run --release -p sudoku-core --example rate_speed --
//! ../shared/data/sudoku/17_clue.txt`: about 14,000 puzzles/s (70 µs per
//! puzzle) on the 49,158 17-clue puzzles, on a shared 2-core machine.
//! `examples/rate_check.rs` checks every step against the unique solution on
//! whole datasets.
//!
//! ```
//! use sudoku_core::{Grid, rate::{Config, Rater, Band}};
//! let line = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
//! let grid: Grid = line.parse()?;
//! let rating = Rater::new(Config::default()).rate(&grid);
//! assert!(rating.difficulty >= 1.0);
//! println!("{} ({})", rating.difficulty, rating.band);
//! # Ok::<(), sudoku_core::ParseError>(())
//! ```

mod bug;
mod claiming;
mod colouring;
mod fish;
mod full_house;
mod hidden_single;
mod hidden_subset;
mod kite;
mod naked_single;
mod naked_subset;
mod pointing;
pub mod se;
mod skyscraper;
mod step;
mod technique;
#[cfg(test)]
mod tests;
mod unique_rectangle;
mod w_wing;
mod x_chain;
mod xy_chain;
mod xy_wing;
mod xyz_wing;

use std::fmt;

pub use step::{CellDigit, HintLevel, Link, LinkKind, Step};
pub use technique::{Config, Technique, UnknownTechnique};

use crate::Candidates;
use crate::candidates::bit;
use crate::grid::Grid;

impl Technique {
    /// Look for a step of this technique in `c`, writing it into `step`
    /// (which is cleared first). Returns whether one was found.
    pub fn find_into(self, c: &Candidates, step: &mut Step) -> bool {
        step.reset(self, c.size());
        let found = match self {
            Technique::FullHouse => full_house::find(c, step),
            Technique::HiddenSingleBox => hidden_single::find_box(c, step),
            Technique::HiddenSingleLine => hidden_single::find_line(c, step),
            Technique::NakedSingle => naked_single::find(c, step),
            Technique::Pointing => pointing::find(c, step),
            Technique::Claiming => claiming::find(c, step),
            Technique::NakedPair => naked_subset::find(c, step, 2),
            Technique::NakedTriple => naked_subset::find(c, step, 3),
            Technique::NakedQuad => naked_subset::find(c, step, 4),
            Technique::HiddenPair => hidden_subset::find(c, step, 2),
            Technique::HiddenTriple => hidden_subset::find(c, step, 3),
            Technique::HiddenQuad => hidden_subset::find(c, step, 4),
            Technique::XWing => fish::find(c, step, 2),
            Technique::Swordfish => fish::find(c, step, 3),
            Technique::Jellyfish => fish::find(c, step, 4),
            Technique::Skyscraper => skyscraper::find(c, step),
            Technique::TwoStringKite => kite::find(c, step),
            Technique::XyWing => xy_wing::find(c, step),
            Technique::XyzWing => xyz_wing::find(c, step),
            Technique::WWing => w_wing::find(c, step),
            Technique::UniqueRectangle1 => unique_rectangle::find(c, step),
            Technique::BugPlusOne => bug::find(c, step),
            Technique::SimpleColouring => colouring::find(c, step),
            Technique::XChain => x_chain::find(c, step),
            Technique::XyChain => xy_chain::find(c, step),
        };
        if !found {
            step.reset(self, c.size());
        }
        found
    }

    /// A step of this technique in `c`, if there is one.
    pub fn find(self, c: &Candidates) -> Option<Step> {
        let mut step = Step::new(self, c.size());
        self.find_into(c, &mut step).then_some(step)
    }
}

/// Apply a step: place its digits and remove its eliminated candidates.
pub fn apply(c: &mut Candidates, step: &Step) {
    for p in &step.placements {
        c.place(p.cell, p.digit);
    }
    for e in &step.eliminations {
        c.eliminate(e.cell, e.digit);
    }
}

/// The easiest step available with every technique enabled (for hints).
pub fn next_step(c: &Candidates) -> Option<Step> {
    Rater::new(Config::default()).next_step(c)
}

/// A difficulty band, from the rating (thresholds in the [module docs](self)).
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "kebab-case")]
pub enum Band {
    /// Rating up to 1.5: full houses and hidden singles only.
    Easy,
    /// Rating 1.6 to 2.8: naked singles and intersections (pointing,
    /// claiming) are needed.
    Medium,
    /// Rating 2.9 to 4.1: subsets up to triples and the basic fish and
    /// single-digit patterns (X-wing, swordfish, skyscraper, kite).
    Hard,
    /// Rating 4.2 to 5.0: wings, unique rectangle, simple colouring, naked
    /// quads.
    Expert,
    /// Rating above 5.0: jellyfish, hidden quads, BUG+1, chains.
    Extreme,
    /// The enabled techniques could not finish the puzzle (it was
    /// [`Outcome::Stuck`] or has no solution), whatever the hardest step
    /// taken.
    NeedsGuessing,
}

impl Band {
    /// The band of a finished puzzle with this rating (in tenths).
    pub fn from_tenths(tenths: u16) -> Band {
        match tenths {
            0..=15 => Band::Easy,
            16..=28 => Band::Medium,
            29..=41 => Band::Hard,
            42..=50 => Band::Expert,
            _ => Band::Extreme,
        }
    }

    /// The name: "easy", ..., "needs-guessing".
    pub fn name(self) -> &'static str {
        match self {
            Band::Easy => "easy",
            Band::Medium => "medium",
            Band::Hard => "hard",
            Band::Expert => "expert",
            Band::Extreme => "extreme",
            Band::NeedsGuessing => "needs-guessing",
        }
    }

    /// The band with this name.
    pub fn from_name(name: &str) -> Option<Band> {
        [
            Band::Easy,
            Band::Medium,
            Band::Hard,
            Band::Expert,
            Band::Extreme,
            Band::NeedsGuessing,
        ]
        .into_iter()
        .find(|b| b.name() == name.trim())
    }
}

impl fmt::Display for Band {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.name())
    }
}

/// How the step solver ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Outcome {
    /// Every cell was filled.
    Solved,
    /// No enabled technique finds a step: the puzzle needs guessing (or
    /// techniques not enabled or not implemented).
    Stuck,
    /// The givens conflict, or the candidates reached a contradiction
    /// without any step that assumes a unique solution: the puzzle has no
    /// solution. (After a uniqueness-based step on a puzzle with several
    /// solutions, a contradiction is reported as `Stuck`.)
    NoSolution,
}

/// How many times a technique was used.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct TechniqueCount {
    /// The technique.
    pub technique: Technique,
    /// Steps of that technique on the path (at least 1: unused techniques
    /// are left out of [`Rating::counts`]).
    pub count: u32,
}

/// The rating of a puzzle.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Rating {
    /// The hardest step's difficulty on the Sudoku Explainer scale (0.0 if no
    /// step was taken). For a puzzle that was not finished, the hardest step
    /// taken before getting stuck.
    pub difficulty: f32,
    /// The band; `NeedsGuessing` when the puzzle was not finished.
    pub band: Band,
    /// How the step solver ended: solved, stuck, or a proof of no solution.
    pub outcome: Outcome,
    /// The technique of the hardest step, if any step was taken.
    pub hardest: Option<Technique>,
    /// Techniques used, in technique order, with how often.
    pub counts: Vec<TechniqueCount>,
    /// Number of steps taken.
    pub steps: u32,
    /// Givens in the puzzle.
    pub givens: usize,
    /// Cells the steps filled.
    pub placed: usize,
    /// Empty cells left at the end (0 when solved).
    pub empty_left: usize,
    /// Candidates left in the empty cells at the end.
    pub candidates_left: usize,
}

impl Rating {
    /// Whether the techniques finished the puzzle.
    pub fn is_solved(&self) -> bool {
        self.outcome == Outcome::Solved
    }

    /// The rating as one line, as `sudoku rate` prints it (and the web API
    /// and the Python package give it): `4.2 expert xy-wing
    /// naked-single:12,...`, with `stuck: ...` or `no-solution` when the
    /// techniques could not finish.
    pub fn summary_line(&self) -> String {
        let counts: Vec<String> = self
            .counts
            .iter()
            .map(|c| format!("{}:{}", c.technique.name(), c.count))
            .collect();
        let mut line = format!(
            "{:.1} {} {} {}",
            self.difficulty,
            self.band,
            self.hardest.map_or("-", |t| t.name()),
            if counts.is_empty() {
                "-".to_string()
            } else {
                counts.join(",")
            }
        );
        match self.outcome {
            Outcome::Solved => {}
            Outcome::Stuck => line.push_str(&format!(
                " stuck: {} cells placed, {} empty and {} candidates left",
                self.placed, self.empty_left, self.candidates_left
            )),
            Outcome::NoSolution => line.push_str(" no-solution"),
        }
        line
    }

    /// The rating as the JSON object `sudoku rate --format json` writes
    /// (without the puzzle's source): the rating rounded to one decimal,
    /// band, outcome, hardest technique, counts by technique name, steps,
    /// givens, cells placed, empty cells and candidates left.
    pub fn to_json(&self) -> serde_json::Value {
        let counts: serde_json::Map<String, serde_json::Value> = self
            .counts
            .iter()
            .map(|c| (c.technique.name().to_string(), serde_json::json!(c.count)))
            .collect();
        serde_json::json!({
            "rating": (f64::from(self.difficulty) * 10.0).round() / 10.0,
            "band": self.band,
            "outcome": self.outcome,
            "hardest": self.hardest.map(|t| t.name()),
            "counts": counts,
            "steps": self.steps,
            "givens": self.givens,
            "placed": self.placed,
            "empty_left": self.empty_left,
            "candidates_left": self.candidates_left,
        })
    }
}

/// The full path for `explain`: every step in order, and the rating.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Explanation {
    /// Every step taken, in order, each as found before it was applied;
    /// `steps.len()` equals `rating.steps`.
    pub steps: Vec<Step>,
    /// The rating of the same path (as [`Rater::rate`] gives it).
    pub rating: Rating,
}

/// The step solver and rater. Immutable and cheap: share one per thread or
/// make one per call.
#[derive(Clone, Debug, Default)]
pub struct Rater {
    config: Config,
}

impl Rater {
    /// A rater using the techniques enabled in `config`.
    pub fn new(config: Config) -> Rater {
        Rater { config }
    }

    /// The config.
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// The easiest step the enabled techniques find in `c`.
    pub fn next_step(&self, c: &Candidates) -> Option<Step> {
        let mut step = Step::new(Technique::FullHouse, c.size());
        self.next_into(c, &mut step).then_some(step)
    }

    fn next_into(&self, c: &Candidates, step: &mut Step) -> bool {
        self.config.techniques().any(|t| t.find_into(c, step))
    }

    /// Rate a puzzle.
    pub fn rate(&self, grid: &Grid) -> Rating {
        self.run(grid, |_| {})
    }

    /// Rate a puzzle given as a candidate grid (e.g. with pencilmarks).
    pub fn rate_candidates(&self, c: &Candidates) -> Rating {
        self.run_candidates(c.clone(), false, |_| {})
    }

    /// The whole path, step by step, and the rating.
    pub fn explain(&self, grid: &Grid) -> Explanation {
        let mut steps = Vec::new();
        let rating = self.run(grid, |s| steps.push(s.clone()));
        Explanation { steps, rating }
    }

    /// Run the step solver on a puzzle, calling `on_step` with each step
    /// before it is applied.
    pub fn run(&self, grid: &Grid, on_step: impl FnMut(&Step)) -> Rating {
        let conflict = grid.first_conflict().is_some();
        self.run_candidates(Candidates::from_grid(grid), conflict, on_step)
    }

    fn run_candidates(
        &self,
        mut c: Candidates,
        conflict: bool,
        mut on_step: impl FnMut(&Step),
    ) -> Rating {
        let empty_at_start = c.empty_count();
        let givens = c.masks().len() - empty_at_start;
        let mut counts = [0u32; Technique::COUNT];
        let mut hardest: Option<Technique> = None;
        let mut steps = 0u32;
        let mut step = Step::new(Technique::FullHouse, c.size());
        let outcome = if conflict {
            Outcome::NoSolution
        } else {
            loop {
                if c.is_solved() {
                    break Outcome::Solved;
                }
                if !self.next_into(&c, &mut step) {
                    // A contradiction proves "no solution" only if no step
                    // assumed a unique solution.
                    let assumed_unique = counts[Technique::UniqueRectangle1.index()] > 0
                        || counts[Technique::BugPlusOne.index()] > 0;
                    break if !assumed_unique && c.has_contradiction() {
                        Outcome::NoSolution
                    } else {
                        Outcome::Stuck
                    };
                }
                // A step that changes nothing would loop forever; techniques
                // only report steps with an effect, but guard anyway.
                let effective = step
                    .placements
                    .iter()
                    .any(|p| c.value(p.cell) == 0 && c.has(p.cell, p.digit))
                    || step.eliminations.iter().any(|e| c.has(e.cell, e.digit));
                if !effective {
                    break Outcome::Stuck;
                }
                on_step(&step);
                let t = step.technique;
                counts[t.index()] += 1;
                steps += 1;
                if hardest.is_none_or(|h| t.difficulty_tenths() > h.difficulty_tenths()) {
                    hardest = Some(t);
                }
                apply(&mut c, &step);
            }
        };
        let tenths = hardest.map_or(0, |t| t.difficulty_tenths());
        let band = if outcome == Outcome::Solved {
            Band::from_tenths(tenths)
        } else {
            Band::NeedsGuessing
        };
        Rating {
            difficulty: f32::from(tenths) / 10.0,
            band,
            outcome,
            hardest,
            counts: Technique::ALL
                .into_iter()
                .filter(|t| counts[t.index()] > 0)
                .map(|t| TechniqueCount {
                    technique: t,
                    count: counts[t.index()],
                })
                .collect(),
            steps,
            givens,
            placed: empty_at_start - c.empty_count(),
            empty_left: c.empty_count(),
            candidates_left: c.candidate_count(),
        }
    }
}

/// Call `f` with each k-subset of `0..len` (as ascending indices) until it
/// returns true; returns whether it did.
pub(crate) fn combinations(len: usize, k: usize, mut f: impl FnMut(&[usize]) -> bool) -> bool {
    if k == 0 || k > len || k > 8 {
        return false;
    }
    let mut idx = [0usize; 8];
    for (i, x) in idx.iter_mut().enumerate().take(k) {
        *x = i;
    }
    loop {
        if f(&idx[..k]) {
            return true;
        }
        // Advance to the next combination.
        let mut i = k;
        loop {
            if i == 0 {
                return false;
            }
            i -= 1;
            if idx[i] < len - k + i {
                break;
            }
        }
        idx[i] += 1;
        for j in i + 1..k {
            idx[j] = idx[j - 1] + 1;
        }
    }
}

/// The two cells of a house where `d` is a candidate, if there are exactly two.
pub(crate) fn conjugate_pair(c: &Candidates, house: usize, d: u8) -> Option<[usize; 2]> {
    let bd = bit(d);
    let mut found = [usize::MAX; 2];
    let mut k = 0;
    for &cell in &c.layout().houses[house] {
        if c.mask(cell) & bd != 0 {
            if k == 2 {
                return None;
            }
            found[k] = cell;
            k += 1;
        }
    }
    (k == 2).then_some(found)
}

/// Push the eliminations of `d` from every cell that sees both `a` and `b`
/// (other than `a`, `b` and the cells of `exclude`). Returns whether any.
pub(crate) fn push_common_eliminations(
    c: &Candidates,
    step: &mut Step,
    a: usize,
    b: usize,
    d: u8,
    exclude: &[usize],
) -> bool {
    let l = c.layout();
    let bd = bit(d);
    let before = step.eliminations.len();
    for &t in &l.peers[a] {
        if t != b && c.mask(t) & bd != 0 && l.sees(t, b) && !exclude.contains(&t) {
            step.eliminations.push(CellDigit { cell: t, digit: d });
        }
    }
    step.eliminations.len() > before
}

/// Push the links of an alternating chain on one digit: strong, weak,
/// strong, ... between consecutive cells.
pub(crate) fn push_chain(step: &mut Step, cells: &[usize], d: u8) {
    for (i, w) in cells.windows(2).enumerate() {
        step.links.push(Link {
            from: CellDigit {
                cell: w[0],
                digit: d,
            },
            to: CellDigit {
                cell: w[1],
                digit: d,
            },
            kind: if i % 2 == 0 {
                LinkKind::Strong
            } else {
                LinkKind::Weak
            },
        });
    }
}
