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
use std::sync::Arc;

use crate::format::{self, Loaded, ParseError, Sink};
use crate::limits::Limits;
use crate::links::Links;
use crate::problem::{ItemId, Problem, ProblemBuilder};
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

/// Search configuration. `Config::default()` is MRV with no seed, reducing
/// the problem at load in [`Cells`](crate::Cells).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Config {
    /// Item choice. Default: [`Heuristic::Mrv`].
    pub heuristic: Heuristic,
    /// With a seed, options are threaded into item lists in a random order and
    /// MRV ties are broken at random (reproducibly). Default: none.
    pub seed: Option<u64>,
    /// [`Cells`](crate::Cells) only (the other engines ignore it): reduce
    /// the problem when it is loaded: take the root's forced moves (options
    /// that are the only option of a primary item), then drop every
    /// secondary item that can never constrain a solution, because it is in
    /// at most one option or all its options share a primary item (see
    /// [`Cells`](crate::Cells)' "Reductions at load"). Same solutions; with
    /// MRV the same tree less the root's forced nodes; fewer updates.
    /// Default: `true`.
    pub reduce: bool,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            heuristic: Heuristic::default(),
            seed: None,
            reduce: true,
        }
    }
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
    /// [`try_option`](Self::try_option), with the options at hand to
    /// write them ([`OptionNames::write`]). What the search calls; by
    /// default it calls `try_option`.
    fn try_option_named(&mut self, depth: usize, option: usize, options: OptionNames<'_>) {
        let _ = options;
        self.try_option(depth, option);
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
    /// [`tick`](Self::tick), with the options at hand to write them. What
    /// the search calls; by default it calls `tick`.
    fn tick_named(&mut self, progress: f64, stats: &Stats, options: OptionNames<'_>) {
        let _ = options;
        self.tick(progress, stats);
    }
}

/// The options of a loaded [`Dlx`], to write one as Knuth's programs
/// print it: its items' names in the order the option gave them, a single
/// space between them, `item:colour` for a colour (what the option's line
/// says, without its spacing). Read from the engine's own nodes, at any
/// time, also during the search ([`Dlx::search_named`],
/// [`Observer::try_option_named`]): no text of the input is kept for it.
/// The names are those of the items line when the engine was loaded by
/// [`Dlx::parse`] or [`Dlx::parse_stream`], or given by
/// [`Dlx::set_names`]; otherwise items are written `#k` (problem index)
/// and colours `#c`.
///
/// ```
/// use exact_cover::{Config, Dlx};
/// let text = "A B C | X\nA   X:1\nC B X:1\nB\nC\n";
/// let loaded = Dlx::parse_stream(text.as_bytes(), Config::default(), false)?;
/// let mut line = String::new();
/// assert!(loaded.engine.options().write(1, &mut line));
/// assert_eq!(line, "C B X:1");
/// assert!(!loaded.engine.options().write(4, &mut line));
/// # Ok::<(), exact_cover::format::ParseError>(())
/// ```
#[derive(Clone, Copy, Debug)]
pub struct OptionNames<'a> {
    links: &'a Links,
    names: Option<&'a Problem>,
}

impl OptionNames<'_> {
    /// Number of options.
    pub fn len(&self) -> usize {
        self.links.option_count()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Append option `k` to `out`; `false` (nothing written) when there is
    /// no option `k`.
    pub fn write(&self, k: usize, out: &mut String) -> bool {
        let Some(entries) = self.links.option_entries(k) else {
            return false;
        };
        for (n, (item, colour)) in entries.enumerate() {
            if n > 0 {
                out.push(' ');
            }
            match self
                .names
                .and_then(|p| p.items().get(item as usize)?.name())
            {
                Some(name) => out.push_str(name),
                None => {
                    out.push('#');
                    out.push_str(&item.to_string());
                }
            }
            if colour != 0 {
                out.push(':');
                match self.names.and_then(|p| p.colour_name(colour)) {
                    Some(name) => out.push_str(name),
                    None => {
                        out.push('#');
                        out.push_str(&colour.to_string());
                    }
                }
            }
        }
        true
    }

    /// Option `k` as a new string (see [`write`](Self::write)).
    pub fn text(&self, k: usize) -> Option<String> {
        let mut s = String::new();
        self.write(k, &mut s).then_some(s)
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

/// The parser's sink for [`Dlx::parse`]: the options go straight into
/// the node array (started when the items line is read).
struct ToLinks {
    links: Links,
    /// Whether the items line was read.
    items: bool,
    /// Thread the options into their lists as they come (no seed).
    thread: bool,
}

impl ToLinks {
    fn new(config: &Config) -> ToLinks {
        ToLinks {
            links: Links::default(),
            items: false,
            thread: config.seed.is_none(),
        }
    }
}

impl Sink for ToLinks {
    fn items(&mut self, b: &ProblemBuilder) -> Result<(), String> {
        self.links.begin(b.declared_items(), self.thread);
        self.items = true;
        Ok(())
    }

    fn option(
        &mut self,
        b: &mut ProblemBuilder,
        entries: &[(ItemId, Option<&str>)],
    ) -> Result<(), String> {
        if !self.items {
            return Err("an option before the items line".to_string());
        }
        // the same bound as the problem builder's
        if self.links.node_count() + entries.len() + 1 >= (i32::MAX / 2) as usize {
            return Err("too many items or options for 32-bit indices".to_string());
        }
        self.links.push_option(
            entries
                .iter()
                .map(|&(id, c)| (id.0, c.map_or(0, |c| b.colour(c).0))),
        );
        Ok(())
    }
}

/// What sees each solution: its options, in the order chosen, and the
/// engine's options to write them.
type Visitor<'a> = dyn FnMut(&[usize], OptionNames<'_>) -> ControlFlow<()> + 'a;

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
    /// The names of the items and colours (a problem without options),
    /// for [`options`](Self::options): from the items line when parsed,
    /// or from [`set_names`](Self::set_names).
    names: Option<Arc<Problem>>,
}

impl Dlx {
    /// Load `problem` with the default configuration.
    pub fn new(problem: &Problem) -> Dlx {
        Dlx::with_config(problem, Config::default())
    }

    /// Load `problem` with `config`.
    pub fn with_config(problem: &Problem, config: Config) -> Dlx {
        let mut d = Dlx::unloaded(config);
        d.load(problem);
        d
    }

    /// The solver of the empty problem, with `config`.
    fn unloaded(config: Config) -> Dlx {
        Dlx {
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
            names: None,
        }
    }

    /// Parse `text` (Knuth's format, read as [`format::parse_owned`] reads
    /// it) straight into a solver with `config`: each option goes into the
    /// engine's node array as it is read, and no [`Problem`] is built
    /// beside it, so a big file loads in less memory. The errors are
    /// [`format::parse`]'s; the solver is the one
    /// [`Dlx::with_config`] builds from the parsed problem (same
    /// solutions in the same order, same statistics).
    ///
    /// ```
    /// use exact_cover::{Config, Dlx, Limits};
    /// let text = "A B C | X\nA X:1\nB C X:1\nB\nC\n".to_string();
    /// let mut loaded = Dlx::parse(text, Config::default())?;
    /// assert_eq!(loaded.engine.count(&Limits::none()).stats.solutions, 2);
    /// assert_eq!(&loaded.option_texts[1], "B C X:1");
    /// # Ok::<(), exact_cover::format::ParseError>(())
    /// ```
    pub fn parse(text: String, config: Config) -> Result<Loaded<Dlx>, ParseError> {
        let sink = ToLinks::new(&config);
        format::load(text, sink, |b, sink| Dlx::of_links(b, sink, config))
    }

    /// [`Dlx::parse`] from a byte stream (a file, standard input), a block
    /// of whole lines at a time, so the input's text is never held whole.
    /// With `keep_texts`, each option's text and line are kept as
    /// [`Dlx::parse`] keeps them; without, `option_texts` and
    /// `option_lines` come back empty and the peak memory is about the
    /// engine's arrays alone (for counting, which prints no option, or
    /// for printing options from the engine's nodes: [`Dlx::options`]). Same
    /// solver, errors and warnings as [`Dlx::parse`] on the whole text; a
    /// byte sequence that is not UTF-8, or a read error, is an error at its
    /// line.
    ///
    /// ```
    /// use exact_cover::{Config, Dlx, Limits};
    /// let input = "A B C | X\nA X:1\nB C X:1\nB\nC\n".as_bytes();
    /// let mut loaded = Dlx::parse_stream(input, Config::default(), false)?;
    /// assert_eq!(loaded.engine.count(&Limits::none()).stats.solutions, 2);
    /// assert!(loaded.option_texts.is_empty());
    /// # Ok::<(), exact_cover::format::ParseError>(())
    /// ```
    pub fn parse_stream(
        input: impl std::io::Read,
        config: Config,
        keep_texts: bool,
    ) -> Result<Loaded<Dlx>, ParseError> {
        Dlx::parse_stream_in(input, config, keep_texts, format::STREAM_BLOCK)
    }

    /// [`Dlx::parse_stream`] reading `block` bytes at a time.
    fn parse_stream_in(
        input: impl std::io::Read,
        config: Config,
        keep_texts: bool,
        block: usize,
    ) -> Result<Loaded<Dlx>, ParseError> {
        let sink = ToLinks::new(&config);
        format::load_stream(input, keep_texts, block, sink, |b, sink| {
            Dlx::of_links(b, sink, config)
        })
    }

    /// The solver of what the parser put in `sink` (the items declared in
    /// `b`).
    fn of_links(mut b: ProblemBuilder, sink: ToLinks, config: Config) -> Result<Dlx, ParseError> {
        // the builder's own checks of the items (it holds no option); the
        // problem it builds keeps the names of the items and colours
        let names = b.build().map_err(format::build_error)?;
        if !sink.items {
            // `read` fails without an items line
            return Err(format::no_items_line(1));
        }
        let mut dlx = Dlx::unloaded(config);
        dlx.links = sink.links;
        let order = dlx.shuffle(dlx.links.option_count());
        dlx.links.finish(order.then_some(&dlx.order[..]));
        dlx.names = Some(Arc::new(names));
        dlx.reset();
        Ok(dlx)
    }

    /// Replace the problem, reusing memory. The names of the options are
    /// forgotten ([`options`](Self::options) writes items as `#k`) until
    /// [`set_names`](Self::set_names): a solver that only counts or
    /// returns option numbers copies no name.
    pub fn load(&mut self, problem: &Problem) {
        let order = self.shuffle(problem.option_count());
        self.links.load(problem, order.then_some(&self.order[..]));
        self.names = None;
        self.reset();
    }

    /// Take the names of the items and colours from `problem` (the one
    /// loaded), for [`options`](Self::options).
    pub fn set_names(&mut self, problem: &Problem) {
        self.names = Some(Arc::new(problem.names_only()));
    }

    /// The options, to write them by their items' names (see
    /// [`OptionNames`]).
    pub fn options(&self) -> OptionNames<'_> {
        OptionNames {
            links: &self.links,
            names: self.names.as_deref(),
        }
    }

    /// With a seed, put in `order` a random (reproducible) order of
    /// `options` options, in which [`load`](Self::load) threads them into
    /// their items' lists, and return `true`; without one, `false`.
    fn shuffle(&mut self, options: usize) -> bool {
        let Some(seed) = self.config.seed else {
            return false;
        };
        self.rng = SplitMix64::new(seed ^ 0x9E37_79B9_7F4A_7C15);
        self.order.clear();
        self.order.extend(0..options as u32);
        for k in (1..self.order.len()).rev() {
            let j = (self.next_random() % (k as u64 + 1)) as usize;
            self.order.swap(k, j);
        }
        true
    }

    /// The search state of a newly loaded problem.
    fn reset(&mut self) {
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

    /// Whether to count mems (`stats.mems`; default off, and then
    /// `stats.mems` is 0), memory accesses as Knuth's DLX1 and DLX2 count
    /// them (his `o` macro: one mem per read or write of a word of the
    /// search's data, none for values held in registers), counted by the
    /// code that makes them. The search is compiled separately for
    /// counting, so with it off the code is the one that does not count.
    ///
    /// What costs what (DLX1's charges for the same accesses, except where
    /// said): covering an item 1 per link followed down its list (the
    /// header's and each option's) and, for a primary item, 4 to take it
    /// out of the active list (DLX1: 3, its two links being one word);
    /// hiding an option 2 for each other node read, 4 more for each node
    /// taken out (two links, its item's length read and written), and on
    /// the general path (colours, multiplicities) 1 for its span (DLX1: 2
    /// for its spacer; plain problems keep the span in the word of the
    /// node read for its link); trying an option 1 for the link to it,
    /// 1 per other node (its item) and the span as in hiding; 1 per
    /// node for the root's link (is any primary item left?); choosing an
    /// item what the code reads: 1 (the length) for a dead end or forced
    /// move found from the bit sets, 1 per active item visited when
    /// walking their bits, 2 per primary item when scanning the lengths,
    /// and 1 plus 2 per item visited when walking the active list (DLX1
    /// always walks it: 1 plus 2 per active item, stopping at a dead
    /// end); colours and multiplicities as DLX2 charges purifying (the
    /// node, each link and colour, each mark). Not counted: the bit sets
    /// (64 items a word), the `inactive` flags beside the lengths, the
    /// stack of levels (DLX1 pays 1 to store each choice). So on the
    /// same tree our count is somewhat below DLX1's; see BENCHMARKS.md
    /// (issue 18, ninth milestone) for the comparison.
    ///
    /// ```
    /// use exact_cover::{format, Dlx, Limits};
    /// let p = format::parse("A B C | X\nA X:1\nB C X:1\nB\nC\n").unwrap().problem;
    /// let mut dlx = Dlx::new(&p);
    /// assert_eq!(dlx.count(&Limits::none()).stats.mems, 0);
    /// dlx.set_mems(true);
    /// let counted = dlx.count(&Limits::none());
    /// assert!(counted.stats.mems > 0);
    /// assert_eq!(counted.stats.solutions, 2);
    /// ```
    pub fn set_mems(&mut self, count: bool) {
        self.unwind();
        self.links.count_mems = count;
    }

    /// Whether mems are counted (see [`set_mems`](Self::set_mems)).
    pub fn counts_mems(&self) -> bool {
        self.links.count_mems
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
        self.search_named(limits, &mut |sol, _| visit(sol), obs)
    }

    /// [`search_observed`](Self::search_observed), the visitor also given
    /// the options, to write the solution's by name ([`OptionNames`]: no
    /// text of the input needs to be kept for printing solutions).
    pub fn search_named<O: Observer>(
        &mut self,
        limits: &Limits,
        visit: &mut dyn FnMut(&[usize], OptionNames<'_>) -> ControlFlow<()>,
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
                        let options = OptionNames {
                            links: &self.links,
                            names: self.names.as_deref(),
                        };
                        if visit(&self.solution, options).is_break() {
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
        self.stats.mems = self.links.mems;
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
        self.links.mems = 0;
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
                        l.unapply_others_g::<true, true, false>(lv.x);
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
        self.links.mems = 0;
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

    #[inline(always)]
    fn choose<const PLAIN: bool, const T: bool, const M: bool>(&mut self) -> (u32, i64) {
        let (i, theta) = self.choose_item::<PLAIN, T>();
        if M {
            self.links.mems += self.choice_mems::<PLAIN, T>(i, theta);
        }
        (i, theta)
    }

    /// The mems of [`choose_item`](Self::choose_item)'s answer `(i,
    /// theta)`, as the code that found it reads: the bit sets' words are
    /// not counted (as in [`Cells`](crate::Cells)), so a dead end or
    /// forced move found from them costs 1 (the length read), a walk over
    /// the active items' bits 1 per item visited (up to a dead end, or
    /// all), a scan of the lengths 2 per primary item scanned (its length
    /// and its `inactive` flag), and a walk of the active list as DLX1
    /// charges it: 1, and 2 per item visited (its link and its length; 2
    /// more for the bounds of items with multiplicity).
    #[inline(never)]
    fn choice_mems<const PLAIN: bool, const T: bool>(&self, i: u32, theta: i64) -> u64 {
        let l = &self.links;
        let n1 = l.n1() as u64;
        // items visited by a walk in order that stops after a dead end
        let visited = if theta <= 0 {
            l.active_upto(i)
        } else {
            l.active_upto(u32::MAX)
        };
        if self.config.heuristic == Heuristic::First {
            return 2;
        }
        let random = self.config.seed.is_some();
        if !random && (PLAIN || !l.multi) {
            if l.n1() <= 2048 {
                if T && theta <= 1 {
                    return 1;
                }
                if l.n1() <= crate::links::TRACK_ITEMS {
                    return visited;
                }
                let scanned = if theta <= 0 {
                    (((i as u64 - 1) / 32 + 1) * 32).min(n1)
                } else {
                    n1
                };
                return 2 * scanned + 2 * ((i as u64 - 1) % 32 + 1);
            }
            return 1 + 2 * visited;
        }
        1 + if l.multi { 4 } else { 2 } * visited
    }

    /// The item to branch on and its branching degree. Inlined into the
    /// search loop (as a call it cost 7% more instructions on Langford).
    #[inline(always)]
    fn choose_item<const PLAIN: bool, const T: bool>(&mut self) -> (u32, i64) {
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
        match (
            self.links.is_plain(),
            self.links.track,
            self.links.count_mems,
        ) {
            (true, true, false) => self.step_g::<O, true, true, false>(limits, obs),
            (true, false, false) => self.step_g::<O, true, false, false>(limits, obs),
            (false, _, false) => self.step_g::<O, false, true, false>(limits, obs),
            (true, true, true) => self.step_g::<O, true, true, true>(limits, obs),
            (true, false, true) => self.step_g::<O, true, false, true>(limits, obs),
            (false, _, true) => self.step_g::<O, false, true, true>(limits, obs),
        }
    }

    /// Not inlined: each code path is a function of its own, with its own
    /// register allocation. (Inlined, the three paths shared one function
    /// body, and unrelated edits elsewhere in it moved the pentomino
    /// instance's time by up to 5%.)
    #[inline(never)]
    fn step_g<O: Observer, const PLAIN: bool, const T: bool, const M: bool>(
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
                        self.stats.mems = self.links.mems;
                        let options = OptionNames {
                            links: &self.links,
                            names: self.names.as_deref(),
                        };
                        obs.tick_named(p, &self.stats, options);
                    }
                    let l = self.level;
                    if l as u32 > self.stats.max_depth {
                        self.stats.max_depth = l as u32;
                    }
                    if M {
                        // the root's link read, to see whether any
                        // primary item is left (DLX1 reads it after each
                        // option applied)
                        self.links.mems += 1;
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
                        None => self.choose::<PLAIN, T, M>(),
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
                        self.links.cover_p::<PLAIN, T, M>(i);
                        lv.x = self.links.down_of(i);
                        if M {
                            self.links.mems += 1;
                        }
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
                        self.links.uncover_p::<PLAIN, T, M>(i);
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
                        obs.try_option_named(l, self.links.option_of(x) as usize, self.options());
                    }
                    self.stats.guesses += (self.levels[l].total > 1) as u64;
                    self.links.apply_others_g::<PLAIN, T, M>(x);
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
                    if M {
                        // the link, the count, the bound, the length
                        links.mems += 4;
                    }
                    let forced_alt = self.forced.get(l).map(|&(_, a)| a);
                    if x != i && c + links.len(i) >= lo {
                        links.hide_fully(x);
                        self.tweaks.push(x);
                        if forced_alt.is_some_and(|a| pos < a) {
                            self.levels[l].pos += 1;
                            continue;
                        }
                        if O::ENABLED {
                            let options = OptionNames {
                                links: &*links,
                                names: self.names.as_deref(),
                            };
                            obs.try_option_named(l, links.option_of(x) as usize, options);
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
                            links.unapply_others_g::<PLAIN, T, M>(lv.x);
                            self.chosen.pop();
                            self.levels[l].x = links.down_of(lv.x);
                            if M {
                                links.mems += 1;
                            }
                            self.levels[l].pos += 1;
                            self.phase = Phase::TrySimple;
                        }
                        Mode::Multi => {
                            let i = lv.item as usize;
                            links.unapply_others_g::<PLAIN, T, M>(lv.x);
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
        s.mems = self.dlx.links.mems;
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::parse;

    /// Issue 18 (load memory): `Dlx::parse` builds the very arrays that
    /// loading the parsed problem builds (every field of the links
    /// structure equal), plain, with colours, with multiplicities, seeded
    /// or not, and keeps the option texts and lines.
    #[test]
    fn parsed_straight_into_links_is_the_same_structure() {
        let texts = [
            "A B C | X\nA X:1\nB C X:1\nB\nC\n",
            "| queens 4, rows and columns primary\nr0 r1 r2 r3 c0 c1 c2 c3 | a0 a1 a2 a3 a4 a5 a6 b0 b1 b2 b3 b4 b5 b6\n\
             r0 c0 a0 b3\nr0 c1 a1 b2\nr0 c2 a2 b1\nr0 c3 a3 b0\nr1 c0 a1 b4\nr1 c1 a2 b3\n\
             r1 c2 a3 b2\nr1 c3 a4 b1\nr2 c0 a2 b5\nr2 c1 a3 b4\nr2 c2 a4 b3\nr2 c3 a5 b2\n\
             r3 c0 a3 b6\nr3 c1 a4 b5\nr3 c2 a5 b4\nr3 c3 a6 b3\n",
            "2|A 0:2|B C | x y\nA B x:red\nA y:blue\nB C\nA C x:red y:blue\nC\nB\n",
            "A B | x\nx\nA x\nB\nA B\n",
        ];
        for text in texts {
            let parsed = parse(text).unwrap();
            for seed in [None, Some(5)] {
                let config = Config {
                    heuristic: Heuristic::Mrv,
                    seed,
                    reduce: true,
                };
                let loaded = Dlx::parse(text.to_string(), config).unwrap();
                let built = Dlx::with_config(&parsed.problem, config);
                assert!(loaded.engine.links == built.links, "{text:?} {seed:?}");
                assert_eq!(loaded.engine.order, built.order);
                assert_eq!(loaded.option_texts, parsed.option_texts);
                assert_eq!(loaded.option_lines, parsed.option_lines);
                assert_eq!(loaded.warnings, parsed.warnings);
            }
        }
    }

    /// A reader that hands out its bytes a few at a time.
    struct Trickle<'a> {
        bytes: &'a [u8],
        step: usize,
    }

    impl std::io::Read for Trickle<'_> {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            let n = self.step.min(buf.len()).min(self.bytes.len());
            buf[..n].copy_from_slice(&self.bytes[..n]);
            self.bytes = &self.bytes[n..];
            Ok(n)
        }
    }

    /// Issue 18 (load memory): parsing a stream a block at a time builds
    /// the engine `Dlx::parse` builds from the whole text, with the same
    /// texts, lines, warnings and errors, whatever the block size and
    /// however the reads split the input (lines longer than a block,
    /// characters of several bytes, no final line end, CRLF).
    #[test]
    fn parsed_from_a_stream_is_the_same_as_from_the_whole_text() {
        let texts = [
            "A B C | X\nA X:1\nB C X:1\nB\nC\n",
            "2|A 0:2|B C | x y\nA B x:red\nA y:blue\nB C\nA C x:red y:blue\nC\nB\n",
            "A B | x\r\nx\r\n| comment\r\n\r\nA B\r\n  B A x:2 \r\nB",
            "| é\nÄ Bé | xü\nÄ xü:rød\nBé\nBé Ä\n",
            "A B\nA Q\n",
            "| only a comment\n",
            "",
            "A A\nA\n",
            "A B\n\u{ff}\n",
        ];
        for text in texts {
            let whole = Dlx::parse(text.to_string(), Config::default());
            for block in [1, 2, 3, 7, 64, format::STREAM_BLOCK] {
                for step in [1, 5, usize::MAX] {
                    for keep in [true, false] {
                        let input = Trickle {
                            bytes: text.as_bytes(),
                            step,
                        };
                        let got = Dlx::parse_stream_in(input, Config::default(), keep, block);
                        let what = format!("{text:?} block {block} step {step} keep {keep}");
                        match (&whole, got) {
                            (Ok(want), Ok(got)) => {
                                assert!(got.engine.links == want.engine.links, "{what}");
                                assert_eq!(got.warnings, want.warnings, "{what}");
                                if keep {
                                    let (a, b) = (&got.option_texts, &want.option_texts);
                                    assert!(a.iter().eq(b.iter()), "{what}: {a:?} {b:?}");
                                    assert_eq!(got.option_lines, want.option_lines, "{what}");
                                } else {
                                    assert!(got.option_texts.is_empty(), "{what}");
                                    assert!(got.option_lines.is_empty(), "{what}");
                                }
                            }
                            (Err(want), Err(got)) => assert_eq!(&got, want, "{what}"),
                            (want, got) => panic!("{what}: {want:?} against {got:?}"),
                        }
                    }
                }
            }
        }
    }

    /// Bytes that are not UTF-8 are an error at their line and column (in
    /// characters), and a read error at the line being read.
    #[test]
    fn a_stream_reports_bad_bytes_and_read_errors_where_they_are() {
        let bytes = b"A B\nA B\n\xc3\xa9 \xff\n";
        for block in [1, 4, 100] {
            let input = Trickle { bytes, step: 3 };
            let e = Dlx::parse_stream_in(input, Config::default(), false, block).unwrap_err();
            assert_eq!((e.line, e.column), (3, 3), "block {block}: {e}");
            assert!(e.message.contains("0xFF"), "{e}");
        }
        struct Failing(usize);
        impl std::io::Read for Failing {
            fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
                if self.0 == 0 {
                    return Err(std::io::Error::other("disk gone"));
                }
                self.0 -= 1;
                let line = b"A B\n";
                buf[..line.len()].copy_from_slice(line);
                Ok(line.len())
            }
        }
        let e = Dlx::parse_stream_in(Failing(3), Config::default(), false, 4).unwrap_err();
        assert_eq!(e.line, 4, "{e}");
        assert!(e.message.contains("disk gone"), "{e}");
    }

    /// An option of more than 65,536 items does not fit the distances packed
    /// in a plain problem's nodes: the problem takes the general path, and
    /// both loads agree.
    #[test]
    fn an_option_of_more_than_65536_items_takes_the_general_path() {
        let text_of = |n: usize| {
            let names: Vec<String> = (0..n).map(|k| format!("s{k}")).collect();
            let names = names.join(" ");
            format!("A B | {names}\nA {names}\nA\nB s0\nB\n")
        };
        let text = text_of(70_000);
        let parsed = parse(&text).unwrap();
        let mut loaded = Dlx::parse(text.clone(), Config::default()).unwrap();
        assert!(!loaded.engine.links.is_plain());
        let mut built = Dlx::new(&parsed.problem);
        assert!(loaded.engine.links == built.links);
        assert_eq!(loaded.engine.count(&Limits::none()).stats.solutions, 3);
        assert_eq!(built.count(&Limits::none()).stats.solutions, 3);
        // an option of 65,536 items: plain
        let short = text_of(65_535);
        assert!(
            Dlx::parse(short, Config::default())
                .unwrap()
                .engine
                .links
                .is_plain()
        );
    }
}
