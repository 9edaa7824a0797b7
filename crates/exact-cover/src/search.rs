//! Algorithm X / C / M search on the dancing links, on an explicit stack.
//!
//! Follows Knuth, *The Art of Computer Programming* 7.2.2.1: Algorithm X
//! (exact cover), Algorithm C (colours: `commit`/`purify`) and the idea of
//! Algorithm M for multiplicities: when branching on an item that may be
//! covered more than once, each option tried is afterwards removed ("tweaked")
//! for the remaining alternatives at that level, and the last alternative is to
//! cover the item no further. Every set of options is therefore visited exactly
//! once.
//!
//! The search is a resumable state machine, so the visitor, the iterator and
//! the parallel counter share one loop, and nothing is allocated per node.

use crate::rng::SplitMix64;
use std::ops::ControlFlow;

use crate::limits::Limits;
use crate::links::Links;
use crate::problem::Problem;
use crate::stats::{Report, Stats, StopReason};

/// How the search picks the item to branch on.
///
/// The heuristic changes how fast a search runs, never which solutions it
/// finds (their order may differ).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Heuristic {
    /// Minimum remaining values: the item with the fewest options left
    /// (Knuth's branching degree for items with multiplicity); ties go to the
    /// first item in order, or a random one with a seed. The default.
    ///
    /// Without a seed, items with at most one option left (dead ends and
    /// forced moves) are found from bit sets kept up to date by the link
    /// operations, without scanning every item; otherwise the lengths are
    /// scanned in blocks of 32.
    #[default]
    Mrv,
    /// The first active item: no heuristic, the baseline the Sudoku study measures.
    First,
}

impl std::str::FromStr for Heuristic {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "mrv" => Ok(Heuristic::Mrv),
            "first" => Ok(Heuristic::First),
            _ => Err(format!(
                "unknown heuristic '{s}' (expected 'mrv' or 'first')"
            )),
        }
    }
}

/// Search configuration. `Config::default()` is MRV with no seed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Config {
    /// Item choice. Default: [`Heuristic::Mrv`].
    pub heuristic: Heuristic,
    /// With a seed, options are threaded into item lists in a random order and
    /// MRV ties are broken at random (reproducibly). Default: none.
    pub seed: Option<u64>,
}

/// Hooks to watch a search (tracing, progress). All methods default to doing
/// nothing; `ENABLED = false` compiles the calls away.
pub trait Observer {
    /// Whether the search should call the event methods at all.
    const ENABLED: bool = true;
    /// At `depth`, the search branches on `item` (problem index), which has
    /// `choices` ways to continue.
    fn choose(&mut self, depth: usize, item: usize, choices: u64) {
        let _ = (depth, item, choices);
    }
    /// At `depth`, option `option` (problem index) is tried.
    fn try_option(&mut self, depth: usize, option: usize) {
        let _ = (depth, option);
    }
    /// At `depth`, primary `item` can no longer be covered: a dead end.
    fn dead_end(&mut self, depth: usize, item: usize) {
        let _ = (depth, item);
    }
    /// A solution was reached at `depth` (before the visitor sees it).
    fn solution(&mut self, depth: usize) {
        let _ = depth;
    }
    /// Returning to the choice at `depth`.
    fn backtrack(&mut self, depth: usize) {
        let _ = depth;
    }
    /// Called every 2^16 nodes with an estimate of the fraction of the tree
    /// done (Knuth's estimate from the position in each level's choices).
    fn tick(&mut self, progress: f64, stats: &Stats) {
        let _ = (progress, stats);
    }
}

/// The observer that observes nothing.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoObserver;
impl Observer for NoObserver {
    const ENABLED: bool = false;
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    /// Item covered exactly once: covered on entry, options tried in turn.
    Simple,
    /// Item with multiplicity: options tried in turn, each tweaked out after.
    Multi,
    /// Item with multiplicity, the last alternative: covered no further.
    Closed,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    Enter,
    TrySimple,
    TryMulti,
    Backtrack,
    Done,
}

#[derive(Clone, Copy, Debug)]
struct Level {
    item: u32,
    x: u32,
    mode: Mode,
    tweak_base: u32,
    /// 0-based index of the alternative being tried, and how many there were.
    pos: u32,
    total: u32,
}

enum Step {
    Solution,
    /// Reached `pause_at` with items left (parallel split and replay).
    Paused,
    Stop(StopReason),
}

/// What sees each solution: its options, in the order chosen.
type Visitor<'a> = dyn FnMut(&[usize]) -> ControlFlow<()> + 'a;

/// A dancing-links solver loaded with one problem. Reusable: [`load`](Self::load)
/// another problem keeps the memory.
///
/// ```
/// use exact_cover::{format, Dlx, Limits};
/// let p = format::parse("A B C | X\nA X:1\nB C X:1\nB\nC\n").unwrap().problem;
/// let mut dlx = Dlx::new(&p);
/// let report = dlx.count(&Limits::none());
/// assert_eq!(report.stats.solutions, 2);
/// ```
#[derive(Clone, Debug)]
pub struct Dlx {
    links: Links,
    config: Config,
    levels: Vec<Level>,
    level: usize,
    phase: Phase,
    tweaks: Vec<u32>,
    chosen: Vec<u32>,
    solution: Vec<usize>,
    stats: Stats,
    rng: SplitMix64,
    /// Replay: (item, alternative) forced at the first levels.
    forced: Vec<(u32, u32)>,
    base_level: usize,
    pause_at: usize,
    /// The level limit ([`Dlx::set_max_level`]); `usize::MAX` for none.
    max_level: usize,
    order: Vec<u32>,
    /// Options chosen before the search ([`select`](Self::select)), by first node.
    selected: Vec<u32>,
}

impl Dlx {
    /// Load `problem` with the default configuration.
    pub fn new(problem: &Problem) -> Dlx {
        Dlx::with_config(problem, Config::default())
    }

    /// Load `problem` with `config`.
    pub fn with_config(problem: &Problem, config: Config) -> Dlx {
        let mut d = Dlx {
            links: Links::default(),
            config,
            levels: Vec::new(),
            level: 0,
            phase: Phase::Enter,
            tweaks: Vec::new(),
            chosen: Vec::new(),
            solution: Vec::new(),
            stats: Stats::default(),
            rng: SplitMix64::new(0),
            forced: Vec::new(),
            base_level: 0,
            pause_at: usize::MAX,
            max_level: usize::MAX,
            order: Vec::new(),
            selected: Vec::new(),
        };
        d.load(problem);
        d
    }

    /// Replace the problem, reusing memory.
    pub fn load(&mut self, problem: &Problem) {
        let order = match self.config.seed {
            Some(seed) => {
                self.rng = SplitMix64::new(seed ^ 0x9E37_79B9_7F4A_7C15);
                self.order.clear();
                self.order.extend(0..problem.option_count() as u32);
                for k in (1..self.order.len()).rev() {
                    let j = (self.next_random() % (k as u64 + 1)) as usize;
                    self.order.swap(k, j);
                }
                Some(&self.order[..])
            }
            None => None,
        };
        self.links.load(problem, order);
        self.selected.clear();
        self.level = 0;
        self.phase = Phase::Enter;
        self.tweaks.clear();
        self.chosen.clear();
        self.forced.clear();
        self.base_level = 0;
        // levels grow on demand (amortised; never per node once deep enough)
        if self.levels.is_empty() {
            self.levels.push(Level {
                item: 0,
                x: 0,
                mode: Mode::Simple,
                tweak_base: 0,
                pos: 0,
                total: 0,
            });
        }
    }

    /// Choose option `k` (problem index) before the search, as if it had
    /// been chosen at the root: its items are covered and the options that
    /// conflict with it take no part in later searches, which report only
    /// solutions containing every selected option (the selected options
    /// come first in each solution). This is how a puzzle's givens are
    /// placed on a structure loaded once. Undo with
    /// [`unselect_all`](Self::unselect_all) or by loading a problem.
    ///
    /// Returns `false`, changing nothing, when `k` is not an option or it
    /// conflicts with the options already selected.
    ///
    /// ```
    /// use exact_cover::{format, Dlx, Limits};
    /// let p = format::parse("A B C\nA\nB\nC\nA B\n").unwrap().problem;
    /// let mut dlx = Dlx::new(&p);
    /// assert_eq!(dlx.count(&Limits::none()).stats.solutions, 2);
    /// assert!(dlx.select(3)); // A B
    /// assert!(!dlx.select(0)); // A conflicts with A B
    /// assert_eq!(dlx.count(&Limits::none()).stats.solutions, 1);
    /// dlx.unselect_all();
    /// assert_eq!(dlx.count(&Limits::none()).stats.solutions, 2);
    /// ```
    pub fn select(&mut self, k: usize) -> bool {
        self.unwind();
        if k >= self.links.option_count() || !self.links.option_available(k) {
            return false;
        }
        let x = self.links.select(k);
        self.selected.push(x);
        true
    }

    /// Undo every [`select`](Self::select).
    pub fn unselect_all(&mut self) {
        self.unwind();
        while let Some(x) = self.selected.pop() {
            self.links.unselect(x);
        }
    }

    /// The configuration.
    pub fn config(&self) -> Config {
        self.config
    }

    /// Change the configuration. A new seed takes effect for the option order
    /// at the next [`load`](Self::load); tie-breaks use it at once.
    pub fn set_config(&mut self, config: Config) {
        self.config = config;
        if let Some(s) = config.seed {
            self.rng = SplitMix64::new(s ^ 0x9E37_79B9_7F4A_7C15);
        }
    }

    /// Bytes of the search structure (links, headers, stacks).
    pub fn bytes(&self) -> u64 {
        self.links.bytes()
            + (self.levels.capacity() * std::mem::size_of::<Level>()
                + (self.tweaks.capacity()
                    + self.chosen.capacity()
                    + self.order.capacity()
                    + self.selected.capacity())
                    * 4
                + self.solution.capacity() * std::mem::size_of::<usize>()) as u64
    }

    fn next_random(&mut self) -> u64 {
        self.rng.next_u64()
    }

    /// Knuth's level limit: search at most `levels` levels of choices deep
    /// (`None`: no limit, the default). A node at that depth with items still
    /// to cover is not entered, and the report's stop is then
    /// [`StopReason::LevelLimit`]: the solutions seen are all those of at
    /// most `levels` options, the count a lower bound. Applies to
    /// [`search`](Self::search), [`count`](Self::count) and their observed
    /// forms; kept across searches until changed.
    pub fn set_max_level(&mut self, levels: Option<usize>) {
        self.max_level = levels.unwrap_or(usize::MAX);
        self.pause_at = self.max_level;
    }

    /// Visit solutions (each as option indices in the order chosen) until the
    /// visitor breaks or a limit is reached.
    pub fn search(
        &mut self,
        limits: &Limits,
        mut visit: impl FnMut(&[usize]) -> ControlFlow<()>,
    ) -> Report {
        self.search_observed(limits, &mut visit, &mut NoObserver)
    }

    /// [`search`](Self::search) with an [`Observer`] watching each step.
    pub fn search_observed<O: Observer>(
        &mut self,
        limits: &Limits,
        visit: &mut dyn FnMut(&[usize]) -> ControlFlow<()>,
        obs: &mut O,
    ) -> Report {
        self.restart();
        self.drive(limits, Some(visit), obs)
    }

    /// Run the search; `visit` sees each solution. Without a visitor (plain
    /// counting) a solution's options are never gathered.
    fn drive<O: Observer>(
        &mut self,
        limits: &Limits,
        mut visit: Option<&mut Visitor<'_>>,
        obs: &mut O,
    ) -> Report {
        let mut cut = false;
        let stop = loop {
            match self.step(limits, obs) {
                Step::Solution => {
                    if let Some(m) = limits.max_solutions {
                        if self.stats.solutions > m {
                            // only reachable with max_solutions == 0
                            self.stats.solutions -= 1;
                            break StopReason::SolutionLimit;
                        }
                    }
                    if let Some(visit) = visit.as_mut() {
                        self.fill_solution();
                        if visit(&self.solution).is_break() {
                            break StopReason::Visitor;
                        }
                    }
                    if limits.max_solutions == Some(self.stats.solutions) {
                        break StopReason::SolutionLimit;
                    }
                }
                Step::Stop(r) => break r,
                Step::Paused if self.level == self.max_level => {
                    // Knuth's level limit: this node is not entered
                    cut = true;
                    self.phase = Phase::Backtrack;
                }
                Step::Paused => break StopReason::Exhausted,
            }
        };
        self.report(if cut && stop == StopReason::Exhausted {
            StopReason::LevelLimit
        } else {
            stop
        })
    }

    fn report(&mut self, stop: StopReason) -> Report {
        self.stats.updates = self.links.updates;
        self.stats.peak_bytes = self.bytes();
        Report {
            stats: self.stats,
            stop,
        }
    }

    /// The first solution, if any; `None` with a cut-short report means "unknown".
    pub fn first(&mut self, limits: &Limits) -> (Option<Vec<usize>>, Report) {
        let mut found = None;
        let report = self.search(limits, |s| {
            found = Some(s.to_vec());
            ControlFlow::Break(())
        });
        (found, report)
    }

    /// Count solutions (up to `limits.max_solutions`); the count is
    /// `report.stats.solutions`, exact when `report.stop.is_complete()`.
    pub fn count(&mut self, limits: &Limits) -> Report {
        self.count_observed(limits, &mut NoObserver)
    }

    /// [`count`](Self::count) with an [`Observer`] watching each step.
    pub fn count_observed<O: Observer>(&mut self, limits: &Limits, obs: &mut O) -> Report {
        self.restart();
        self.drive(limits, None, obs)
    }

    /// An iterator over all solutions (option indices, in the order chosen).
    pub fn solutions(&mut self) -> Solutions<'_> {
        self.solutions_with(Limits::none())
    }

    /// An iterator over solutions under `limits`; after it ends,
    /// [`Solutions::report`] says why.
    pub fn solutions_with(&mut self, limits: Limits) -> Solutions<'_> {
        self.restart();
        Solutions {
            dlx: self,
            limits,
            stop: None,
            cut: false,
        }
    }

    /// Estimate of the fraction of the search tree done so far (Knuth's
    /// estimate: Σ (position−1)/Π choices, over the levels of the current path).
    pub fn progress(&self) -> f64 {
        let mut scale = 1.0f64;
        let mut done = 0.0f64;
        for lv in &self.levels[..self.level.min(self.levels.len())] {
            let total = lv.total.max(1) as f64;
            done += lv.pos as f64 / (scale * total);
            scale *= total;
        }
        done + 0.5 / scale
    }

    // ---- internals used by the parallel counter ----

    /// Enumerate the tree down to `depth`: solutions above it are counted,
    /// each node at `depth` is pushed to `out` as its forced path.
    pub(crate) fn split(&mut self, depth: usize, out: &mut Vec<Vec<(u32, u32)>>) -> (u64, Stats) {
        self.restart();
        self.pause_at = depth;
        let mut above = 0u64;
        loop {
            match self.step(&Limits::none(), &mut NoObserver) {
                Step::Paused => {
                    out.push(
                        self.levels[..depth]
                            .iter()
                            .map(|lv| (lv.item, lv.pos))
                            .collect(),
                    );
                    self.phase = Phase::Backtrack;
                }
                Step::Solution => above += 1,
                Step::Stop(_) => break,
            }
        }
        self.pause_at = self.max_level;
        (above, self.stats)
    }

    /// Enumerate the tree down to `depth` levels of choices and push each
    /// node at that depth, and each solution met above it, as the options
    /// chosen on its path (problem indices, in the order chosen). Every
    /// solution contains exactly one of these paths, so their counts add up
    /// to the total (see [`crate::split`]). Returns the statistics of the
    /// enumeration.
    pub(crate) fn split_options(&mut self, depth: usize, out: &mut Vec<Vec<usize>>) -> Stats {
        self.restart();
        self.pause_at = depth;
        loop {
            match self.step(&Limits::none(), &mut NoObserver) {
                Step::Paused => {
                    self.fill_solution();
                    out.push(self.solution.clone());
                    self.phase = Phase::Backtrack;
                }
                Step::Solution => {
                    self.fill_solution();
                    out.push(self.solution.clone());
                }
                Step::Stop(_) => break,
            }
        }
        self.pause_at = self.max_level;
        self.stats
    }

    /// Count the subtree below a forced path recorded by [`split`](Self::split).
    pub(crate) fn count_subtree(&mut self, path: &[(u32, u32)], limits: &Limits) -> Report {
        self.restart();
        self.forced.clear();
        self.forced.extend_from_slice(path);
        self.pause_at = path.len();
        let replay = self.step(limits, &mut NoObserver);
        self.pause_at = self.max_level;
        match replay {
            Step::Paused => {}
            // a path recorded at a node with items left cannot meet a solution
            // on the way; a limit may stop it
            Step::Solution => return self.report(StopReason::Exhausted),
            Step::Stop(r) => return self.report(r),
        }
        self.base_level = path.len();
        // the replayed prefix was already counted by the split
        self.stats.nodes = 0;
        self.stats.guesses = 0;
        self.links.updates = 0;
        self.drive(limits, None, &mut NoObserver)
    }

    // ---- the machine ----

    /// Undo every choice on the current path and start over at the root,
    /// with the forced-move bit set up to date.
    fn restart(&mut self) {
        self.unwind();
        self.links.resync();
    }

    /// Undo every choice on the current path and start over at the root.
    fn unwind(&mut self) {
        let l = &mut self.links;
        match self.phase {
            Phase::TrySimple => l.uncover(self.levels[self.level].item),
            Phase::TryMulti => {
                let base = self.levels[self.level].tweak_base as usize;
                while self.tweaks.len() > base {
                    let x = self.tweaks.pop().expect("tweak");
                    l.unhide_fully(x);
                }
            }
            Phase::Enter | Phase::Backtrack | Phase::Done => {}
        }
        while self.level > 0 {
            self.level -= 1;
            let lv = self.levels[self.level];
            match lv.mode {
                Mode::Simple => {
                    if l.is_plain() {
                        l.unapply_others_g::<true, true>(lv.x);
                    } else {
                        l.unapply_others(lv.x);
                    }
                    l.uncover(lv.item);
                }
                Mode::Multi => {
                    l.unapply_others(lv.x);
                    if l.count[lv.item as usize] == l.hi[lv.item as usize] {
                        l.uncover(lv.item);
                    }
                    l.count[lv.item as usize] -= 1;
                }
                Mode::Closed => l.uncover(lv.item),
            }
            if lv.mode != Mode::Simple {
                while self.tweaks.len() > lv.tweak_base as usize {
                    let x = self.tweaks.pop().expect("tweak");
                    l.unhide_fully(x);
                }
            }
        }
        self.phase = Phase::Enter;
        self.chosen.clear();
        self.forced.clear();
        self.base_level = 0;
        self.pause_at = self.max_level;
        self.links.updates = 0;
        self.stats = Stats::default();
        if let Some(s) = self.config.seed {
            self.rng = SplitMix64::new(s ^ 0x9E37_79B9_7F4A_7C15);
        }
    }

    fn fill_solution(&mut self) {
        self.solution.clear();
        for k in 0..self.selected.len() {
            let x = self.selected[k];
            self.solution.push(self.links.option_of(x) as usize);
        }
        for k in 0..self.chosen.len() {
            let x = self.chosen[k];
            self.solution.push(self.links.option_of(x) as usize);
        }
    }

    #[inline]
    fn choose<const PLAIN: bool, const T: bool>(&mut self) -> (u32, i64) {
        let first = self.links.first_active();
        if self.config.heuristic == Heuristic::First {
            return (first, self.links.theta(first));
        }
        let random = self.config.seed.is_some();
        if !random && (PLAIN || !self.links.multi) {
            // the common case: plain minimum length, first of the ties
            if self.links.n1() <= 2048 {
                // a forced move or a dead end from the bit sets; small
                // problems walk their active items; others scan lengths
                if T {
                    if let Some((i, len)) = self.links.min_small() {
                        debug_assert_eq!(self.links.min_primary(), Some((i, len)));
                        return (i, len as i64);
                    }
                }
                if self.links.n1() <= crate::links::TRACK_ITEMS {
                    let found = self.links.min_active();
                    debug_assert_eq!(found, self.links.min_primary());
                    return match found {
                        Some((i, len)) => (i, len as i64),
                        None => (first, self.links.theta(first)),
                    };
                }
                return match self.links.min_primary() {
                    Some((i, len)) => (i, len as i64),
                    None => (first, self.links.theta(first)),
                };
            }
            let (best, best_len) = self.links.min_listed();
            return (best, best_len as i64);
        }
        let (mut best, mut best_t, mut ties) = (first, i64::MAX, 0u64);
        let mut i = first;
        while i != 0 {
            let t = self.links.theta(i);
            if t < best_t {
                best = i;
                best_t = t;
                ties = 1;
                if t <= 0 {
                    break;
                }
            } else if t == best_t && random {
                ties += 1;
                // reservoir sampling over the tied items
                if self.next_random() % ties == 0 {
                    best = i;
                }
            }
            i = self.links.rlink_of(i);
        }
        (best, best_t)
    }

    /// One run of the machine up to the next event, on the code path for
    /// the loaded problem: plain problems (no colours, no multiplicities)
    /// run a copy of the loop without the colour and multiplicity checks.
    #[inline]
    fn step<O: Observer>(&mut self, limits: &Limits, obs: &mut O) -> Step {
        match (self.links.is_plain(), self.links.track) {
            (true, true) => self.step_g::<O, true, true>(limits, obs),
            (true, false) => self.step_g::<O, true, false>(limits, obs),
            (false, _) => self.step_g::<O, false, true>(limits, obs),
        }
    }

    /// Not inlined: each code path is a function of its own, with its own
    /// register allocation. (Inlined, the three paths shared one function
    /// body, and unrelated edits elsewhere in it moved the pentomino
    /// instance's time by up to 5%.)
    #[inline(never)]
    fn step_g<O: Observer, const PLAIN: bool, const T: bool>(
        &mut self,
        limits: &Limits,
        obs: &mut O,
    ) -> Step {
        loop {
            match self.phase {
                Phase::Enter => {
                    if self.level == self.pause_at && self.links.first_active() != 0 {
                        return Step::Paused;
                    }
                    if let Some(m) = limits.max_nodes {
                        if self.stats.nodes >= m {
                            return Step::Stop(StopReason::NodeLimit);
                        }
                    }
                    if self.stats.nodes & 0x3ff == 0x3ff && limits.has_slow_limits() {
                        if let Some(r) = limits.poll() {
                            return Step::Stop(r);
                        }
                    }
                    self.stats.nodes += 1;
                    if O::ENABLED && self.stats.nodes & 0xffff == 0 {
                        let p = self.progress();
                        self.stats.updates = self.links.updates;
                        obs.tick(p, &self.stats);
                    }
                    let l = self.level;
                    if l as u32 > self.stats.max_depth {
                        self.stats.max_depth = l as u32;
                    }
                    if self.links.first_active() == 0 {
                        if O::ENABLED {
                            obs.solution(l);
                        }
                        self.stats.solutions += 1;
                        self.phase = Phase::Backtrack;
                        return Step::Solution;
                    }
                    let (i, theta) = match self.forced.get(l) {
                        Some(&(item, _)) => (item, self.links.theta(item)),
                        None => self.choose::<PLAIN, T>(),
                    };
                    if theta <= 0 {
                        if O::ENABLED {
                            obs.dead_end(l, self.links.to_problem[i as usize] as usize);
                        }
                        self.phase = Phase::Backtrack;
                        continue;
                    }
                    if O::ENABLED {
                        obs.choose(l, self.links.to_problem[i as usize] as usize, theta as u64);
                    }
                    if l >= self.levels.len() {
                        // grow on first reaching this depth (amortised)
                        let last = self.levels[self.levels.len() - 1];
                        self.levels.push(last);
                    }
                    let lv = &mut self.levels[l];
                    lv.item = i;
                    lv.pos = 0;
                    lv.total = theta as u32;
                    if PLAIN || self.links.is_simple(i) {
                        self.links.cover_p::<PLAIN, T>(i);
                        lv.x = self.links.down_of(i);
                        lv.mode = Mode::Simple;
                        self.phase = Phase::TrySimple;
                    } else {
                        lv.mode = Mode::Multi;
                        lv.tweak_base = self.tweaks.len() as u32;
                        self.phase = Phase::TryMulti;
                    }
                }
                Phase::TrySimple => {
                    let l = self.level;
                    let Level {
                        item: i, x, pos, ..
                    } = self.levels[l];
                    if x == i {
                        self.links.uncover_p::<PLAIN, T>(i);
                        self.phase = Phase::Backtrack;
                        continue;
                    }
                    if let Some(&(_, alt)) = self.forced.get(l) {
                        if pos < alt {
                            self.levels[l].pos += 1;
                            self.levels[l].x = self.links.down_of(x);
                            continue;
                        }
                    }
                    if O::ENABLED {
                        obs.try_option(l, self.links.option_of(x) as usize);
                    }
                    self.stats.guesses += (self.levels[l].total > 1) as u64;
                    self.links.apply_others_g::<PLAIN, T>(x);
                    self.chosen.push(x);
                    self.level += 1;
                    self.phase = Phase::Enter;
                }
                Phase::TryMulti => {
                    let l = self.level;
                    let Level { item: i, pos, .. } = self.levels[l];
                    let links = &mut self.links;
                    let x = links.down_of(i);
                    let (c, lo) = (links.count[i as usize], links.lo[i as usize]);
                    let forced_alt = self.forced.get(l).map(|&(_, a)| a);
                    if x != i && c + links.len(i) >= lo {
                        links.hide_fully(x);
                        self.tweaks.push(x);
                        if forced_alt.is_some_and(|a| pos < a) {
                            self.levels[l].pos += 1;
                            continue;
                        }
                        if O::ENABLED {
                            obs.try_option(l, links.option_of(x) as usize);
                        }
                        self.stats.guesses += (self.levels[l].total > 1) as u64;
                        links.count[i as usize] += 1;
                        if links.count[i as usize] == links.hi[i as usize] {
                            links.cover(i);
                        }
                        links.apply_others(x);
                        self.levels[l].x = x;
                        self.chosen.push(x);
                        self.level += 1;
                        self.phase = Phase::Enter;
                    } else if c >= lo {
                        self.levels[l].mode = Mode::Closed;
                        links.cover(i);
                        self.level += 1;
                        self.phase = Phase::Enter;
                    } else {
                        let base = self.levels[l].tweak_base as usize;
                        while self.tweaks.len() > base {
                            let x = self.tweaks.pop().expect("tweak");
                            self.links.unhide_fully(x);
                        }
                        self.phase = Phase::Backtrack;
                    }
                }
                Phase::Backtrack => {
                    if self.level == self.base_level {
                        self.phase = Phase::Done;
                        return Step::Stop(StopReason::Exhausted);
                    }
                    self.level -= 1;
                    let l = self.level;
                    if O::ENABLED {
                        obs.backtrack(l);
                    }
                    let lv = self.levels[l];
                    let links = &mut self.links;
                    match lv.mode {
                        Mode::Simple => {
                            links.unapply_others_g::<PLAIN, T>(lv.x);
                            self.chosen.pop();
                            self.levels[l].x = links.down_of(lv.x);
                            self.levels[l].pos += 1;
                            self.phase = Phase::TrySimple;
                        }
                        Mode::Multi => {
                            let i = lv.item as usize;
                            links.unapply_others_g::<PLAIN, T>(lv.x);
                            if links.count[i] == links.hi[i] {
                                links.uncover(lv.item);
                            }
                            links.count[i] -= 1;
                            self.chosen.pop();
                            self.levels[l].pos += 1;
                            self.phase = Phase::TryMulti;
                        }
                        Mode::Closed => {
                            links.uncover(lv.item);
                            let base = lv.tweak_base as usize;
                            while self.tweaks.len() > base {
                                let x = self.tweaks.pop().expect("tweak");
                                self.links.unhide_fully(x);
                            }
                            self.phase = Phase::Backtrack;
                        }
                    }
                    if self.forced.len() > l {
                        // a replayed level is never retried
                        self.phase = Phase::Done;
                        return Step::Stop(StopReason::Exhausted);
                    }
                }
                Phase::Done => return Step::Stop(StopReason::Exhausted),
            }
        }
    }
}

/// Iterator over solutions; see [`Dlx::solutions`].
#[derive(Debug)]
pub struct Solutions<'a> {
    dlx: &'a mut Dlx,
    limits: Limits,
    stop: Option<StopReason>,
    /// A node was cut by the level limit.
    cut: bool,
}

impl Solutions<'_> {
    /// Statistics so far, and why the iteration ended (`None` while it hasn't).
    pub fn report(&self) -> (Stats, Option<StopReason>) {
        let mut s = self.dlx.stats;
        s.updates = self.dlx.links.updates;
        s.peak_bytes = self.dlx.bytes();
        (s, self.stop)
    }
}

impl Iterator for Solutions<'_> {
    type Item = Vec<usize>;
    fn next(&mut self) -> Option<Vec<usize>> {
        if self.stop.is_some() {
            return None;
        }
        if self
            .limits
            .max_solutions
            .is_some_and(|m| self.dlx.stats.solutions >= m)
        {
            self.stop = Some(StopReason::SolutionLimit);
            return None;
        }
        loop {
            match self.dlx.step(&self.limits, &mut NoObserver) {
                Step::Solution => {
                    self.dlx.fill_solution();
                    return Some(self.dlx.solution.clone());
                }
                Step::Stop(r) => {
                    self.stop = Some(if r == StopReason::Exhausted && self.cut {
                        StopReason::LevelLimit
                    } else {
                        r
                    });
                    return None;
                }
                Step::Paused if self.dlx.level == self.dlx.max_level => {
                    self.cut = true;
                    self.dlx.phase = Phase::Backtrack;
                }
                Step::Paused => {
                    self.stop = Some(StopReason::Exhausted);
                    return None;
                }
            }
        }
    }
}
