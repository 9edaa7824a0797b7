//! A rater that follows Sudoku Explainer (SE 1.2.1 by Nicolas Juillerat, and
//! SudokuMonster's SukakuExplainer fork, serate 1.18) technique by technique:
//! the same ladder of techniques in the same order, the same difficulty
//! values, the same choice of step (the first one Explainer's search order
//! meets), and the same three figures per puzzle:
//!
//! - **ER** (the rating): the hardest step on the path;
//! - **EP** (pearl): the hardest step up to and including the first step that
//!   places a digit;
//! - **ED** (diamond): the difficulty of the first step.
//!
//! The facts here (the order of techniques, their values, which step each
//! search meets first) come from reading Explainer's published source
//! (LGPL) and SukakuExplainer's; the code is ours. Explainer's rules are
//! cited per technique file.
//!
//! # Coverage
//!
//! The whole ladder is implemented ([`Producer::is_implemented`]): all of
//! SE 1.2.1 and SukakuExplainer's additions (strong-link fishes, WXYZ- to
//! TUVWXYZ-wings), up to the nested forcing chains in serate's order: "+
//! Forcing Chains" (9.5), "+ Multiple Forcing Chains" (10.0) and "+ Dynamic
//! Forcing Chains" (10.5) with the inner dynamic chains nested up to its
//! `nestingLimit` 3. The deeper of these are slow (an inner forcing-chain
//! search each time an assumption's consequences run out): the
//! [`SeLimits`] deadline is checked within the searches too. A puzzle whose
//! path passes the deadline, or reaches a grid where no technique applies
//! (serate says 20.0), is answered [`SeOutcome::Unrated`] with "time
//! limit" (or the last ladder entry's name): never a wrong number.
//! (Explainer takes the first technique in its order that finds a step;
//! skipping one could change the path, so the rater stops there.)
//!
//! ```
//! use sudoku_core::{Grid, rate::se::{Profile, SeRater, SeOutcome}};
//! let g: Grid = "634289...875316294291754638349165872587942..61628375497584239619.6578423423691...".parse()?;
//! let r = SeRater::new(Profile::Sukaku).rate(&g);
//! assert_eq!(r.outcome, SeOutcome::Rated);
//! assert_eq!((r.er, r.ep, r.ed), (12, 10, 10)); // in tenths: 1.2/1.0/1.0
//! # Ok::<(), sudoku_core::ParseError>(())
//! ```

// Cells, regions and positions index several tables at once here (cell
// candidates, region cells, positions within a region), as in Explainer's
// own loops; index loops read more plainly than zipped iterators.
#![allow(clippy::needless_range_loop)]

mod aligned;
mod als_wings;
mod board;
mod bug;
mod chains;
mod direct;
mod dynamic_plus;
mod fish;
mod forcing;
mod locking;
mod nested;
mod singles;
mod strong_links;
mod subsets;
#[cfg(test)]
mod tests;
mod unique_loops;
mod wings;

use crate::time::Instant;
use std::cell::Cell;
use std::fmt;

use crate::Candidates;
use crate::grid::{CellName, Grid};

pub(crate) use board::Board;

/// Which Explainer the rater follows.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize, Default,
)]
#[serde(rename_all = "kebab-case")]
pub enum Profile {
    /// Plain Sudoku Explainer 1.2.1.
    Se,
    /// SukakuExplainer (serate 1.18): SE 1.2.1 plus the turbot family
    /// (skyscraper, kites, grouped strong links), 3- and 4-strong-link
    /// fishes and the WXYZ- to TUVWXYZ-wings, with its default technique set.
    #[default]
    Sukaku,
}

impl Profile {
    /// "se" or "sukaku".
    pub fn name(self) -> &'static str {
        match self {
            Profile::Se => "se",
            Profile::Sukaku => "sukaku",
        }
    }

    /// The profile with this name.
    pub fn from_name(s: &str) -> Option<Profile> {
        match s.trim() {
            "se" => Some(Profile::Se),
            "sukaku" => Some(Profile::Sukaku),
            _ => None,
        }
    }

    /// The ladder: Explainer's producers in the order it asks them.
    pub fn ladder(self) -> &'static [Producer] {
        use Producer::*;
        match self {
            Profile::Se => &[
                HiddenSingle,
                DirectPointing,
                DirectHiddenPair,
                NakedSingle,
                DirectHiddenTriplet,
                PointingClaiming,
                NakedPair,
                XWing,
                HiddenPair,
                NakedTriplet,
                Swordfish,
                HiddenTriplet,
                XyWing,
                XyzWing,
                UniqueLoops,
                NakedQuad,
                Jellyfish,
                HiddenQuad,
                Bug,
                AlignedPairExclusion,
                ForcingChainsCycles,
                AlignedTripletExclusion,
                NishioForcingChains,
                MultipleForcingChains,
                DynamicForcingChains,
                DynamicForcingChainsPlus,
                NestedForcingChains,
            ],
            Profile::Sukaku => &[
                HiddenSingle,
                DirectPointing,
                DirectHiddenPair,
                NakedSingle,
                DirectHiddenTriplet,
                PointingClaiming,
                NakedPair,
                XWing,
                HiddenPair,
                NakedTriplet,
                Swordfish,
                HiddenTriplet,
                TwoStrongLinks,
                XyWing,
                XyzWing,
                UniqueLoops,
                NakedQuad,
                Jellyfish,
                HiddenQuad,
                ThreeStrongLinks,
                WxyzWing,
                Bug,
                FourStrongLinks,
                VwxyzWing,
                AlignedPairExclusion,
                UvwxyzWing,
                ForcingChainsCycles,
                TuvwxyzWing,
                AlignedTripletExclusion,
                NishioForcingChains,
                MultipleForcingChains,
                DynamicForcingChains,
                DynamicForcingChainsPlus,
                NestedForcingChains,
            ],
        }
    }
}

impl fmt::Display for Profile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.name())
    }
}

/// One entry of Explainer's ladder (one of its "hint producers"): a search
/// that may find steps of one or several techniques.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "kebab-case")]
#[allow(missing_docs)]
pub enum Producer {
    HiddenSingle,
    DirectPointing,
    DirectHiddenPair,
    NakedSingle,
    DirectHiddenTriplet,
    PointingClaiming,
    NakedPair,
    XWing,
    HiddenPair,
    NakedTriplet,
    Swordfish,
    HiddenTriplet,
    TwoStrongLinks,
    XyWing,
    XyzWing,
    UniqueLoops,
    NakedQuad,
    Jellyfish,
    HiddenQuad,
    ThreeStrongLinks,
    WxyzWing,
    Bug,
    FourStrongLinks,
    VwxyzWing,
    AlignedPairExclusion,
    UvwxyzWing,
    ForcingChainsCycles,
    TuvwxyzWing,
    AlignedTripletExclusion,
    NishioForcingChains,
    MultipleForcingChains,
    DynamicForcingChains,
    DynamicForcingChainsPlus,
    NestedForcingChains,
}

impl Producer {
    /// Explainer's name of the technique family ("Hidden Single", "Forcing
    /// Chains & Cycles", ...).
    pub fn title(self) -> &'static str {
        use Producer::*;
        match self {
            HiddenSingle => "Hidden Single",
            DirectPointing => "Direct Pointing",
            DirectHiddenPair => "Direct Hidden Pair",
            NakedSingle => "Naked Single",
            DirectHiddenTriplet => "Direct Hidden Triplet",
            PointingClaiming => "Pointing & Claiming",
            NakedPair => "Naked Pair",
            XWing => "X-Wing",
            HiddenPair => "Hidden Pair",
            NakedTriplet => "Naked Triplet",
            Swordfish => "Swordfish",
            HiddenTriplet => "Hidden Triplet",
            TwoStrongLinks => "Scraper, Kite, Turbot",
            XyWing => "XY-Wing",
            XyzWing => "XYZ-Wing",
            UniqueLoops => "Unique Rectangle / Loop",
            NakedQuad => "Naked Quad",
            Jellyfish => "Jellyfish",
            HiddenQuad => "Hidden Quad",
            ThreeStrongLinks => "3 Strong-linked Fishes",
            WxyzWing => "WXYZ-Wing",
            Bug => "Bivalue Universal Grave",
            FourStrongLinks => "4 Strong-Linked Fishes",
            VwxyzWing => "VWXYZ-Wing",
            AlignedPairExclusion => "Aligned Pair Exclusion",
            UvwxyzWing => "UVWXYZ-Wing",
            ForcingChainsCycles => "Forcing Chains & Cycles",
            TuvwxyzWing => "TUVWXYZ-Wing",
            AlignedTripletExclusion => "Aligned Triplet Exclusion",
            NishioForcingChains => "Nishio Forcing Chains",
            MultipleForcingChains => "Multiple Forcing Chains",
            DynamicForcingChains => "Dynamic Forcing Chains",
            DynamicForcingChainsPlus => "Dynamic Forcing Chains (+)",
            NestedForcingChains => "Nested Forcing Chains",
        }
    }

    /// Whether this rater implements the producer yet.
    pub fn is_implemented(self) -> bool {
        use Producer::*;
        matches!(
            self,
            HiddenSingle
                | DirectPointing
                | DirectHiddenPair
                | NakedSingle
                | DirectHiddenTriplet
                | PointingClaiming
                | NakedPair
                | XWing
                | HiddenPair
                | NakedTriplet
                | Swordfish
                | HiddenTriplet
                | TwoStrongLinks
                | ThreeStrongLinks
                | FourStrongLinks
                | WxyzWing
                | VwxyzWing
                | UvwxyzWing
                | TuvwxyzWing
                | XyWing
                | XyzWing
                | UniqueLoops
                | NakedQuad
                | Jellyfish
                | HiddenQuad
                | Bug
                | AlignedPairExclusion
                | ForcingChainsCycles
                | AlignedTripletExclusion
                | NishioForcingChains
                | MultipleForcingChains
                | DynamicForcingChains
                | DynamicForcingChainsPlus
                | NestedForcingChains
        )
    }

    /// Look for the step Explainer would take from this producer.
    #[cfg(test)]
    fn find(self, b: &Board, step: &mut SeStep, profile: Profile) -> bool {
        self.find_with(b, step, profile, false, &mut Memo::default())
    }

    /// The same, with what earlier steps of the path left in `memo` (and
    /// the strong-link fishes valued as before SukakuExplainer 1.17.7 when
    /// `early_links`: [`SeRater::with_early_link_values`]). `false` also
    /// when the deadline in `memo` passed (then `memo.forcing.timed_out`).
    fn find_with(
        self,
        b: &Board,
        step: &mut SeStep,
        profile: Profile,
        early_links: bool,
        memo: &mut Memo,
    ) -> bool {
        // SukakuExplainer's defaults include lkSudoku's fixes to the unique
        // loop and BUG searches; plain SE 1.2.1 has the original ones.
        let lk = profile == Profile::Sukaku;
        use Producer::*;
        step.clear();
        match self {
            HiddenSingle => singles::hidden(b, step),
            DirectPointing => direct::locking(b, step),
            DirectHiddenPair => direct::hidden_set(b, step, 2),
            NakedSingle => singles::naked(b, step),
            DirectHiddenTriplet => direct::hidden_set(b, step, 3),
            PointingClaiming => locking::find(b, step),
            NakedPair => subsets::naked(b, step, 2, &mut memo.subsets),
            XWing => fish::find(b, step, 2, &mut memo.fish),
            HiddenPair => subsets::hidden(b, step, 2, &mut memo.subsets),
            NakedTriplet => subsets::naked(b, step, 3, &mut memo.subsets),
            Swordfish => fish::find(b, step, 3, &mut memo.fish),
            HiddenTriplet => subsets::hidden(b, step, 3, &mut memo.subsets),
            TwoStrongLinks => strong_links::find(b, step, 2, early_links, &mut memo.strong_links),
            ThreeStrongLinks => strong_links::find(b, step, 3, early_links, &mut memo.strong_links),
            FourStrongLinks => strong_links::find(b, step, 4, early_links, &mut memo.strong_links),
            WxyzWing => als_wings::find(b, step, 3, &mut memo.als_wings),
            VwxyzWing => als_wings::find(b, step, 4, &mut memo.als_wings),
            UvwxyzWing => als_wings::find(b, step, 5, &mut memo.als_wings),
            TuvwxyzWing => als_wings::find(b, step, 6, &mut memo.als_wings),
            XyWing => wings::xy(b, step, false),
            XyzWing => wings::xy(b, step, true),
            UniqueLoops => unique_loops::find(b, step, lk, &mut memo.unique_loops),
            NakedQuad => subsets::naked(b, step, 4, &mut memo.subsets),
            Jellyfish => fish::find(b, step, 4, &mut memo.fish),
            HiddenQuad => subsets::hidden(b, step, 4, &mut memo.subsets),
            Bug => bug::find(b, step, lk),
            AlignedPairExclusion => aligned::find(b, step, &mut memo.aligned_pairs),
            ForcingChainsCycles => chains::find(b, step, &mut memo.chains),
            AlignedTripletExclusion => aligned::find_triplet(b, step, &mut memo.triplets),
            NishioForcingChains => forcing::find(
                b,
                step,
                forcing::Mode::Nishio,
                &mut memo.forcing,
                &memo.chains,
            ),
            MultipleForcingChains => forcing::find(
                b,
                step,
                forcing::Mode::Multiple,
                &mut memo.forcing,
                &memo.chains,
            ),
            DynamicForcingChains => forcing::find(
                b,
                step,
                forcing::Mode::Dynamic,
                &mut memo.forcing,
                &memo.chains,
            ),
            DynamicForcingChainsPlus => forcing::find(
                b,
                step,
                forcing::Mode::DynamicPlus,
                &mut memo.forcing,
                &memo.chains,
            ),
            // Explainer's nesting levels in its order, the first that finds
            // a step: "+ Forcing Chains" (9.5), "+ Multiple Forcing Chains"
            // (10.0), then "+ Dynamic Forcing Chains" (10.5) with the
            // dynamic chains inside nested 0 to 3 levels deep (its
            // `nestingLimit`).
            NestedForcingChains => {
                use forcing::Mode::*;
                [
                    Nested,
                    NestedMultiple,
                    NestedDynamic(0),
                    NestedDynamic(1),
                    NestedDynamic(2),
                    NestedDynamic(3),
                ]
                .into_iter()
                .any(|m| {
                    forcing::find(b, step, m, &mut memo.forcing, &memo.chains)
                        || memo.forcing.timed_out
                }) && !memo.forcing.timed_out
            }
        }
    }
}

/// What the searches keep from one step of a path to the next (results
/// that depend only on parts of the board the step did not change, and
/// scratch buffers). Every entry is checked against the board it is used
/// on, so a memo only saves time: the steps are the same without it.
#[derive(Default)]
struct Memo {
    strong_links: strong_links::Memo,
    chains: chains::Chains,
    fish: fish::Memo,
    forcing: forcing::Scratch,
    triplets: aligned::TripletMemo,
    unique_loops: unique_loops::Memo,
    als_wings: als_wings::Memo,
    aligned_pairs: aligned::PairMemo,
    subsets: subsets::Memo,
}

/// Why the ladder found no step.
enum Stop {
    /// It reached a ladder entry this rater does not implement.
    At(Producer),
    /// The deadline passed.
    TimeLimit,
}

/// A technique name built at run time (SukakuExplainer's names carry a
/// pattern suffix, "Skyscraper 011"), kept once for the program's life: the
/// set of such names is small and bounded.
fn intern(s: String) -> &'static str {
    use std::collections::HashSet;
    use std::sync::{Mutex, OnceLock};
    static NAMES: OnceLock<Mutex<HashSet<&'static str>>> = OnceLock::new();
    let mut names = NAMES
        .get_or_init(|| Mutex::new(HashSet::new()))
        .lock()
        .unwrap_or_else(|e| e.into_inner());
    if let Some(&n) = names.get(s.as_str()) {
        return n;
    }
    let n: &'static str = Box::leak(s.into_boxed_str());
    names.insert(n);
    n
}

impl fmt::Display for Producer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.title())
    }
}

/// A candidate: a digit in a cell (row-major index 0..81).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct SeCandidate {
    /// The cell, `row * 9 + column`.
    pub cell: usize,
    /// The digit, 1 to 9.
    pub digit: u8,
}

/// One step as Explainer takes it.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct SeStep {
    /// Explainer's name of the technique ("Hidden Single", "Direct Hidden
    /// Pair", "Naked Triplet", "XY-Wing", ...).
    pub name: &'static str,
    /// Difficulty in tenths (12 = 1.2).
    pub tenths: u16,
    /// The ladder entry that found it.
    pub producer: Producer,
    /// The digit placed, if the step places one (singles and the direct
    /// techniques).
    pub placement: Option<SeCandidate>,
    /// Candidates removed.
    pub eliminations: Vec<SeCandidate>,
    /// The pattern's cells (the subset, the fish's cells, the wing's pivot
    /// and pincers, ...).
    pub cells: Vec<usize>,
    /// The pattern's digits.
    pub digits: Vec<u8>,
    /// The pattern's regions, as Explainer numbers them: 0–8 blocks, 9–17
    /// rows, 18–26 columns (names from [`SeStep::region_names`]).
    pub regions: Vec<u8>,
}

impl SeStep {
    fn new() -> SeStep {
        SeStep {
            name: "",
            tenths: 0,
            producer: Producer::HiddenSingle,
            placement: None,
            eliminations: Vec::new(),
            cells: Vec::new(),
            digits: Vec::new(),
            regions: Vec::new(),
        }
    }

    fn clear(&mut self) {
        self.name = "";
        self.tenths = 0;
        self.placement = None;
        self.eliminations.clear();
        self.cells.clear();
        self.digits.clear();
        self.regions.clear();
    }

    pub(crate) fn set(&mut self, name: &'static str, tenths: u16) {
        self.name = name;
        self.tenths = tenths;
    }

    pub(crate) fn place(&mut self, cell: usize, digit: u8) {
        self.placement = Some(SeCandidate { cell, digit });
    }

    pub(crate) fn remove(&mut self, cell: usize, digit: u8) {
        self.eliminations.push(SeCandidate { cell, digit });
    }

    pub(crate) fn region(&mut self, r: usize) {
        self.regions.push(r as u8);
    }

    /// The pattern's regions by name ("block 4", "row 2", "column 9").
    pub fn region_names(&self) -> Vec<String> {
        self.regions
            .iter()
            .map(|&r| board::region_name(r as usize))
            .collect()
    }

    /// The step in one line: "Naked Pair (3.0): r1c2, r1c5 {3, 7} in row 1;
    /// removes r1c7≠3, r1c9≠7".
    pub fn prose(&self) -> String {
        let cell = |c: usize| CellName::new((c / 9) as u8, (c % 9) as u8).to_string();
        let mut s = format!("{} ({}.{})", self.name, self.tenths / 10, self.tenths % 10);
        if !self.cells.is_empty() {
            let cells: Vec<String> = self.cells.iter().map(|&c| cell(c)).collect();
            s.push_str(&format!(": {}", cells.join(", ")));
        }
        if !self.digits.is_empty() {
            let ds: Vec<String> = self.digits.iter().map(|d| d.to_string()).collect();
            s.push_str(&format!(" {{{}}}", ds.join(", ")));
        }
        if !self.regions.is_empty() {
            s.push_str(&format!(" in {}", self.region_names().join(", ")));
        }
        if let Some(p) = self.placement {
            s.push_str(&format!("; places {}={}", cell(p.cell), p.digit));
        }
        if !self.eliminations.is_empty() {
            let es: Vec<String> = self
                .eliminations
                .iter()
                .map(|e| format!("{}≠{}", cell(e.cell), e.digit))
                .collect();
            s.push_str(&format!("; removes {}", es.join(", ")));
        }
        s
    }
}

/// How an Explainer-style rating ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum SeOutcome {
    /// The puzzle was solved along Explainer's path; ER, EP and ED are its.
    Rated,
    /// Not rated within the limit: the time limit passed, or the path
    /// reached a grid no technique of the ladder (or of the profile's
    /// selection) applies to ([`SeRating::stopped_at`]). The figures so far
    /// are lower bounds, not a rating.
    Unrated,
    /// The puzzle is not 9×9, or its givens conflict.
    Invalid,
}

/// The Explainer-style rating of one puzzle. Difficulties are in tenths
/// (ER 7.2 is 72).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct SeRating {
    /// The profile followed.
    pub profile: Profile,
    /// Whether the figures are a rating.
    pub outcome: SeOutcome,
    /// ER: the hardest step of the path.
    pub er: u16,
    /// EP: the hardest step up to the first placement.
    pub ep: u16,
    /// ED: the first step's difficulty.
    pub ed: u16,
    /// Explainer's name of the first step with difficulty ER.
    pub hardest: Option<&'static str>,
    /// For an unrated puzzle: "time limit", or the last ladder entry the
    /// path reached without a step.
    pub stopped_at: Option<&'static str>,
    /// Steps taken.
    pub steps: u32,
}

impl SeRating {
    /// A difficulty in tenths as Explainer prints it ("7.2").
    pub fn format(tenths: u16) -> String {
        format!("{}.{}", tenths / 10, tenths % 10)
    }
}

/// Limits on one rating.
#[derive(Clone, Copy, Debug, Default)]
pub struct SeLimits {
    /// Give up (unrated) after this instant.
    pub deadline: Option<Instant>,
}

/// The Explainer-style rater.
#[derive(Clone, Debug)]
pub struct SeRater {
    profile: Profile,
    limits: SeLimits,
    disabled: Vec<Producer>,
    early_link_values: bool,
}

impl SeRater {
    /// A rater following `profile`, without limits.
    pub fn new(profile: Profile) -> SeRater {
        SeRater {
            profile,
            limits: SeLimits::default(),
            disabled: Vec::new(),
            early_link_values: false,
        }
    }

    /// The same rater with a ladder entry switched off (as Explainer's
    /// technique selection does; e.g. the calibration list's
    /// `sx-diabolical` rows were rated by SukakuExplainer without
    /// [`Producer::FourStrongLinks`], [`Producer::UvwxyzWing`] and
    /// [`Producer::TuvwxyzWing`]).
    pub fn without(mut self, p: Producer) -> SeRater {
        self.disabled.push(p);
        self
    }

    /// The same rater valuing the 3- and 4-strong-link fishes as
    /// SukakuExplainer did before its version 1.17.7 (its commit 2b1d7be
    /// of 2020-01-11 changed the rule): +0.1 when a link lies in a block,
    /// else +0.2 when rows and columns mix, +0.0 for parallel lines (+0.3
    /// with a grouped link, as now). Today's rule gives +0.2 only when
    /// blocks and both line kinds mix, +0.1 otherwise. Only these values
    /// change, not the ladder, the search or the names: this is not a
    /// whole earlier build. The calibration list's `sx-diabolical` rows
    /// were rated by a build of that time (BENCHMARKS.md, "Band 5").
    pub fn with_early_link_values(mut self) -> SeRater {
        self.early_link_values = true;
        self
    }

    /// The same rater with these limits.
    pub fn with_limits(mut self, limits: SeLimits) -> SeRater {
        self.limits = limits;
        self
    }

    /// The profile.
    pub fn profile(&self) -> Profile {
        self.profile
    }

    /// Rate a puzzle.
    pub fn rate(&self, grid: &Grid) -> SeRating {
        self.run(grid, |_| {})
    }

    /// Rate a puzzle, calling `on_step` with each step before it is applied.
    pub fn run(&self, grid: &Grid, on_step: impl FnMut(&SeStep)) -> SeRating {
        // `None` also for conflicting givens (checked as the board is built).
        self.run_board(Board::from_grid(grid), on_step)
    }

    /// Rate a candidate grid (pencilmarks).
    pub fn rate_candidates(&self, c: &Candidates, on_step: impl FnMut(&SeStep)) -> SeRating {
        self.run_board(Board::from_candidates(c), on_step)
    }

    /// The whole path and the rating.
    pub fn explain(&self, grid: &Grid) -> (Vec<SeStep>, SeRating) {
        let mut steps = Vec::new();
        let r = self.run(grid, |s| steps.push(s.clone()));
        (steps, r)
    }

    /// The step Explainer takes next in `c`, or the ladder entry it reached
    /// without one that this rater implements.
    pub fn next_step(&self, c: &Candidates) -> Result<SeStep, Option<Producer>> {
        let mut b = Board::from_candidates(c).ok_or(None)?;
        let mut step = SeStep::new();
        self.find(&mut b, &mut step, &mut Memo::default())
            .map(|_| step)
            .map_err(|e| match e {
                Stop::At(p) => Some(p),
                Stop::TimeLimit => None,
            })
    }

    /// The next step on `b`; brings the board's scan words up to date when
    /// the ladder passes the hidden singles (and starts keeping them the
    /// first time; the hidden singles read what the board keeps without
    /// them).
    fn find(&self, b: &mut Board, step: &mut SeStep, memo: &mut Memo) -> Result<(), Stop> {
        for &p in self.profile.ladder() {
            if self.disabled.contains(&p) {
                continue;
            }
            if !p.is_implemented() {
                return Err(Stop::At(p));
            }
            if p != Producer::HiddenSingle {
                b.settle();
            }
            if p.find_with(b, step, self.profile, self.early_link_values, memo) {
                step.producer = p;
                return Ok(());
            }
            if memo.forcing.timed_out {
                return Err(Stop::TimeLimit);
            }
        }
        Err(Stop::At(Producer::NestedForcingChains))
    }

    fn run_board(&self, board: Option<Board>, mut on_step: impl FnMut(&SeStep)) -> SeRating {
        let mut r = SeRating {
            profile: self.profile,
            outcome: SeOutcome::Invalid,
            er: 0,
            ep: 0,
            ed: 0,
            hardest: None,
            stopped_at: None,
            steps: 0,
        };
        let Some(mut b) = board else {
            return r;
        };
        // The step's vectors keep their capacity from one rating to the
        // next on this thread (no allocation per puzzle once warm).
        let mut step = SPARE_STEP.with(Cell::take).unwrap_or_else(SeStep::new);
        // So do the searches' memory and memos (every memo entry is checked
        // against the board it is used on, whichever puzzle left it).
        let mut memo = SPARE_MEMO.with(Cell::take).unwrap_or_default();
        // The long searches (the forcing chains) also stop at the deadline
        // within a step.
        memo.forcing.deadline = self.limits.deadline;
        let mut first_placed = false;
        r.outcome = loop {
            if b.is_solved() {
                break SeOutcome::Rated;
            }
            if self.limits.deadline.is_some_and(|d| Instant::now() >= d) {
                r.stopped_at = Some("time limit");
                break SeOutcome::Unrated;
            }
            if let Err(e) = self.find(&mut b, &mut step, &mut memo) {
                r.stopped_at = Some(match e {
                    Stop::At(p) => p.title(),
                    Stop::TimeLimit => "time limit",
                });
                break SeOutcome::Unrated;
            }
            on_step(&step);
            r.steps += 1;
            if step.tenths > r.er {
                r.er = step.tenths;
                r.hardest = Some(step.name);
            }
            // Explainer: the diamond is the difficulty after the first step,
            // the pearl the difficulty after the first step that places.
            if r.steps == 1 {
                r.ed = r.er;
            }
            if !first_placed && step.placement.is_some() {
                first_placed = true;
                r.ep = r.er;
            }
            for e in &step.eliminations {
                b.eliminate(e.cell, e.digit);
            }
            if let Some(p) = step.placement {
                b.place(p.cell, p.digit);
            }
        };
        SPARE_STEP.with(|spare| spare.set(Some(step)));
        SPARE_MEMO.with(|spare| spare.set(Some(memo)));
        r
    }
}

thread_local! {
    /// A step kept between ratings on this thread (see `run_board`).
    static SPARE_STEP: Cell<Option<SeStep>> = const { Cell::new(None) };
    /// The searches' memory kept between ratings on this thread.
    static SPARE_MEMO: Cell<Option<Box<Memo>>> = const { Cell::new(None) };
}
