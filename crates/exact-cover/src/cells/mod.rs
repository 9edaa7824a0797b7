//! A second engine: exact cover with colours on *dancing cells* (sparse sets).
//!
//! This follows the algorithm of Knuth's SSXCC program and of *The Art of
//! Computer Programming*, Volume 4, Pre-Fascicle 7A, section 7.2.2.3
//! ("Dancing cells"); the code is our own.
//!
//! # Representation
//!
//! - Every option is a run of *nodes* (item, location) followed by a spacer
//!   node that points back to the option's first node, so walking right from
//!   any node of an option visits all of it.
//! - Every item owns a contiguous slice of one shared array, `set`, holding
//!   the nodes of the options that contain it; the first `size` of them are
//!   the item's *active* options. Each node knows its location in its item's
//!   slice, so removing it is a swap with the last active element and a
//!   decrement of `size`. Nothing is relinked: the removed element stays just
//!   past the end, so restoring the old size brings it back.
//! - The active primary items form another sparse set (`pact`, `np`).
//! - Sizes are saved on a *trail*, either the first time they change in
//!   each step (a per-item stamp says whether the current step saved it
//!   already) or at every removal, without the stamp test ([`TrailStyle`],
//!   chosen per problem by the average set size); backtracking pops the
//!   trail back to a mark and restores the sizes.
//!
//! # Search
//!
//! At each node the search picks an active primary item `i` (MRV: fewest
//! active options, ties to the first item in the problem's order, a size of
//! 0 ends the node at once; or simply the first item), removes all of `i`'s
//! options from every other item's set ("covering" `i`), and tries its options
//! in turn. Trying option `x` covers each other primary item of `x` the same
//! way, and *purifies* each secondary item of `x`: with a colour, only the
//! options that give the item that colour stay; without one, every other
//! option of the item goes. A purified secondary item is marked inactive so
//! that a later option of the same colour leaves it alone. In problems
//! with colours each option is laid out with its primary items first, and
//! trying it covers those first and then purifies its secondary items; a
//! secondary item left with no active option but the one tried is not
//! purified (nothing to hide, and no other live option can meet it).
//!
//! Trying an option first makes all its primary items inactive, then
//! covers them; when a removal leaves an active primary item with no
//! option, the covering stops and the option is abandoned without becoming
//! a search node (Knuth's SSXCC does the same; [`Cells::set_pruning`] turns
//! it off, giving the tree of DLX1 and [`Dlx`](crate::Dlx)).
//!
//! MRV takes a forced move (an item with one option left) before any real
//! choice, and a forced move skips covering its item: its one option is
//! applied at once, and covering the option's other items passes over it,
//! which spares removing it everywhere only to restore it. Large problems
//! (more than 128 primary items) keep bit sets of the active items, of
//! the items with at most one option and (without pruning) of those with
//! none, exact at every node, so that a dead end or a forced move is the
//! first bit set in a few words, found without scanning every item. With
//! pruning an active primary item can be left with no option only by the
//! root or by covering the item branched on, which says so; the node below
//! then looks for it in the sizes.
//!
//! When nearly every option has 3 or 6 items (Langford pairs,
//! pentominoes), those options are laid out at a power-of-two stride and
//! the search is compiled for that length: the walks over an option, when
//! hiding it and when trying it, are unrolled loops that find its nodes by
//! arithmetic instead of loops that stop at its spacer
//! ([`Cells::set_fixed_walks`]).
//!
//! Hiding an option removes its nodes from their items' sets without
//! checking whether each item is still active: an option in the active
//! part of an active item's set is "live", a live option's primary items are all
//! active, and the only inactive items it can meet are secondary items
//! purified with its own colour, whose sets nothing reads until the
//! purification is undone. Apart from forced moves, the update counts equal
//! the dancing-links engine's.
//!
//! The search runs on an explicit stack and allocates nothing per node (the
//! stacks grow only when a search first reaches a new depth). Parallel
//! counting splits the tree at a shallow level, as for the dancing-links
//! engine; a subtree is replayed from its path of option nodes (not of
//! positions in the sets, whose order depends on the search's history). Problems with
//! multiplicities (Knuth's DLX3 `u:v|item`) are not handled here;
//! [`Dlx`](crate::Dlx) handles them.

use std::ops::ControlFlow;

use crate::format::{self, Loaded, ParseError, Sink};
use crate::limits::Limits;
use crate::problem::{Item, ItemId, Problem, ProblemBuilder};
use crate::search::{Config, Heuristic};
use crate::stats::{Report, Stats, StopReason};

mod sets;

use sets::{Loader, NONE, Sets};

/// Why a problem cannot be loaded into [`Cells`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CellsError {
    /// A primary item must be covered a number of times other than exactly
    /// once; the dancing-cells engine covers every primary item exactly once.
    #[error(
        "item '{item}' has multiplicity {lo}..{hi}; the dancing-cells engine covers each \
         primary item exactly once: use the dancing-links engine (Dlx) for multiplicities"
    )]
    Multiplicity {
        /// The item's name (`#k` for unnamed item `k`).
        item: String,
        /// The least number of options that must cover it.
        lo: u32,
        /// The most options that may cover it.
        hi: u32,
    },
}

/// Every primary item is covered exactly once (no multiplicity).
fn check_items(items: &[Item]) -> Result<(), CellsError> {
    match items
        .iter()
        .enumerate()
        .find(|(_, it)| !it.is_secondary() && it.bounds() != (1, 1))
    {
        Some((k, it)) => {
            let (lo, hi) = it.bounds();
            Err(CellsError::Multiplicity {
                item: it.name().map_or_else(|| format!("#{k}"), str::to_string),
                lo,
                hi,
            })
        }
        None => Ok(()),
    }
}

/// The parser's sink for [`Cells::parse`]: the options go straight into
/// the node array (a loader made when the items line is read).
struct ToCells(Option<Loader>);

impl Sink for ToCells {
    fn items(&mut self, b: &ProblemBuilder) -> Result<(), String> {
        let items = b.declared_items();
        check_items(items).map_err(|e| e.to_string())?;
        self.0 = Some(Loader::new(items.iter().map(Item::is_secondary)));
        Ok(())
    }

    fn option(
        &mut self,
        b: &mut ProblemBuilder,
        entries: &[(ItemId, Option<&str>)],
    ) -> Result<(), String> {
        let Some(loader) = self.0.as_mut() else {
            return Err("an option before the items line".to_string());
        };
        // the same bound as the problem builder's
        if loader.node_count() + entries.len() + 1 >= (i32::MAX / 2) as usize {
            return Err("too many items or options for 32-bit indices".to_string());
        }
        loader.option(
            entries
                .iter()
                .map(|&(id, c)| (id.0, c.map_or(0, |c| b.colour(c).0))),
        );
        Ok(())
    }
}

/// How [`Cells`] saves the set sizes that backtracking restores
/// ([`Cells::set_trail`]). Both search the same tree and find the same
/// solutions; they differ in speed only.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TrailStyle {
    /// Save an item's size the first time a step changes it: each removal
    /// tests a per-item stamp (one trail entry per item changed). Pays when
    /// a step removes many options from the same item (large sets, as in
    /// polyomino packing).
    Stamped,
    /// Save the size at every removal, with no test (one trail entry per
    /// removal: a longer trail, one unpredictable branch less). Pays on
    /// small sets, where a step seldom removes twice from one item.
    EachRemoval,
}

impl TrailStyle {
    /// The style for a problem of `option_nodes` option nodes (the sum
    /// of the items' set sizes) over `items` items: [`EachRemoval`] when
    /// the average set holds at most 64 options, else [`Stamped`].
    ///
    /// Measured on the xc bench: each removal wins on queens, Langford,
    /// the random problem and the Sudoku XCC instance (average sets of
    /// 9-20 options) and loses on the 6x10 pentominoes (171).
    ///
    /// [`EachRemoval`]: TrailStyle::EachRemoval
    /// [`Stamped`]: TrailStyle::Stamped
    pub fn for_shape(option_nodes: usize, items: usize) -> TrailStyle {
        if option_nodes <= 64 * items.max(1) {
            TrailStyle::EachRemoval
        } else {
            TrailStyle::Stamped
        }
    }
}

#[derive(Clone, Copy, Debug, Default)]
struct Level {
    /// The item branched on.
    item: u32,
    /// Index in the item's set of the option being tried, and the size of
    /// the set when the item was chosen.
    pos: u32,
    total: u32,
    /// Trail length before covering the item, and after.
    mark0: u32,
    mark1: u32,
    /// Number of active primary items after covering the item.
    np1: u32,
    /// The node of the option being tried (in `item`).
    x: u32,
    /// Covering the item left another active primary item with no option
    /// (reported only without [`Sets::zero_bits`]): the node below must
    /// look for it.
    zeroed: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    Enter,
    Try,
    Backtrack,
}

/// An XCC solver on dancing cells (Knuth's SSXCC algorithm), loaded with one
/// problem: primary items covered exactly once, secondary items at most once
/// or by options that agree on their colour.
///
/// Same answers as [`Dlx`](crate::Dlx); solutions may come in another
/// order, since removing an element from a sparse set permutes the set. By
/// default it prunes as Knuth's SSXCC does (a choice that leaves an active
/// primary item with no option is never entered: [`Cells::set_pruning`]),
/// so its tree is smaller; with pruning off and MRV it searches the same
/// tree as [`Dlx`](crate::Dlx) (node counts match).
///
/// Statistics ([`Stats`]): `nodes`, `guesses`, `solutions` and `max_depth`
/// mean what they mean for [`Dlx`](crate::Dlx); `updates` counts sparse-set
/// removals (one option node taken out of one item's set), the counterpart
/// of a link update: the two engines agree on it except that a forced move
/// (an item with one option left) here does not remove its option from the
/// other items' sets only to put it back, so `Cells` reports fewer (with
/// pruning off; with it, a covering stopped at a dead end does less work
/// still, and how much depends on the order of the sets, so a parallel
/// count may report other `updates` than one thread).
/// `peak_bytes` is the size of the nodes, the sets, the item records, the trail and the
/// stacks.
///
/// # Reductions at load
///
/// When it loads a problem (unless [`Config::reduce`] is off), `Cells`
/// makes two reductions, both general and exact:
///
/// - *The root's forced moves.* While some primary item is in exactly one
///   option, that option is in every solution: it is chosen at load (every
///   option that clashes with it goes, which may force further options),
///   and it heads every solution reported. Knuth's programs and the
///   search without the reduction take these moves as the tree's first
///   nodes, one node each: with MRV the tree is the same less those
///   nodes ([`forced_at_load`](Cells::forced_at_load) of them; `nodes` and
///   `max_depth` are that much lower; with the first-item heuristic the
///   tree may shrink more, as the forced items are no longer met again in
///   every branch). When a primary item has no option, or would be left
///   with none, nothing is taken (the problem has no solution, which the
///   search finds at its root).
/// - *Redundant secondary items.* Then every secondary item that can never
///   constrain a solution is dropped: one in at most one option, or whose
///   options all contain one primary item. A solution covers that primary
///   item exactly once, so at most one option of the secondary item is in
///   it, and no colour can clash. Its nodes are taken out of the options,
///   so hiding an option no longer removes them one by one; in the search
///   the item only ever hid options that covering its primary item had
///   hidden already, so the tree, `guesses` and the solutions are the same
///   with or without this one; `updates` and `mems` are lower
///   ([`dropped_items`](Cells::dropped_items) says how many items went).
///   The shared primary item is looked for among the first 8 primary items
///   of the secondary item's first option (linear time; an item whose
///   shared item is further on is kept).
///
/// In the Sudoku XCC instance of the xc bench (`pRC rRD cCD bBD xRC:D` for
/// each cell and digit, and one option `#givens xRC:D ...` colouring the
/// givens' cell items), the `#givens` option and then each given's one
/// option left are forced moves, after which every cell item `xRC` is
/// redundant: the problem loses its colours, and the search its first 18
/// nodes. The solutions (sets of options, so each with its colours) and
/// their count are the same. Knuth's programs make neither reduction: turn
/// it off to compare node counts (a forced root), `updates` and `mems`
/// with his.
///
/// ```
/// use exact_cover::{format, Cells, Limits};
/// let p = format::parse("A B C | X\nA X:1\nB C X:1\nB\nC\n").unwrap().problem;
/// let mut cells = Cells::new(&p).unwrap();
/// assert_eq!(cells.count(&Limits::none()).stats.solutions, 2);
/// let (first, _) = cells.first(&Limits::none());
/// assert_eq!(first.unwrap().len(), 2);
/// ```
#[derive(Clone, Debug)]
pub struct Cells {
    sets: Sets,
    config: Config,
    /// Knuth's SSXCC rule: never enter a choice that leaves an active
    /// primary item with no option (default on).
    prune: bool,
    /// Count mems ([`set_mems`](Self::set_mems); default off).
    count_mems: bool,
    /// How sizes are saved ([`set_trail`](Self::set_trail)).
    trail: TrailStyle,
    /// Use the walks compiled for the problem's option length
    /// ([`set_fixed_walks`](Self::set_fixed_walks); default on).
    fixed_walks: bool,
    levels: Vec<Level>,
    level: usize,
    solution: Vec<usize>,
    stats: Stats,
    /// Parallel counting: the option nodes chosen at the first levels of a
    /// replayed path, the level at which the search pauses (to record a
    /// path, or to start counting below a replayed one), whether it is
    /// recording, the recorded paths (`pause_at` nodes each), and the level
    /// at which backtracking stops.
    replay: Vec<u32>,
    pause_at: usize,
    splitting: bool,
    paths: Vec<u32>,
    base_level: usize,
}

impl Cells {
    /// Load `problem` with the default configuration (MRV, no seed).
    ///
    /// Fails when a primary item has a multiplicity other than exactly once.
    pub fn new(problem: &Problem) -> Result<Cells, CellsError> {
        Cells::with_config(problem, Config::default())
    }

    /// Load `problem` with `config`. [`Heuristic::Mrv`] and
    /// [`Heuristic::First`] choose items as in [`Dlx`](crate::Dlx); with a
    /// seed, each item's options are tried in a random (reproducible) order,
    /// while MRV ties still go to the first item.
    pub fn with_config(problem: &Problem, config: Config) -> Result<Cells, CellsError> {
        check_items(problem.items())?;
        Ok(Cells::from_sets(
            Sets::load(problem, config.seed, config.reduce),
            config,
        ))
    }

    /// Parse `text` (Knuth's format, read as [`format::parse_owned`]
    /// reads it) straight into a solver with `config`: each option goes
    /// into the engine's node array as it is read, and no [`Problem`] is
    /// built beside it, so a big file loads in less memory. The errors are
    /// [`format::parse`]'s, and a primary item with a multiplicity is an
    /// error on the items line ([`CellsError::Multiplicity`]'s message).
    ///
    /// ```
    /// use exact_cover::{Cells, Config, Limits};
    /// let text = "A B C | X\nA X:1\nB C X:1\nB\nC\n".to_string();
    /// let mut loaded = Cells::parse(text, Config::default())?;
    /// assert_eq!(loaded.engine.count(&Limits::none()).stats.solutions, 2);
    /// assert_eq!(&loaded.option_texts[1], "B C X:1");
    /// # Ok::<(), exact_cover::format::ParseError>(())
    /// ```
    pub fn parse(text: String, config: Config) -> Result<Loaded<Cells>, ParseError> {
        format::load(text, ToCells(None), |b, sink| {
            Cells::of_sink(b, sink, config)
        })
    }

    /// [`Cells::parse`] from a byte stream, a block of whole lines at a
    /// time, keeping the options' texts and lines only with `keep_texts`:
    /// as [`Dlx::parse_stream`](crate::Dlx::parse_stream) reads it.
    ///
    /// ```
    /// use exact_cover::{Cells, Config, Limits};
    /// let input = "A B C | X\nA X:1\nB C X:1\nB\nC\n".as_bytes();
    /// let mut loaded = Cells::parse_stream(input, Config::default(), false)?;
    /// assert_eq!(loaded.engine.count(&Limits::none()).stats.solutions, 2);
    /// # Ok::<(), exact_cover::format::ParseError>(())
    /// ```
    pub fn parse_stream(
        input: impl std::io::Read,
        config: Config,
        keep_texts: bool,
    ) -> Result<Loaded<Cells>, ParseError> {
        format::load_stream(
            input,
            keep_texts,
            format::STREAM_BLOCK,
            ToCells(None),
            |b, sink| Cells::of_sink(b, sink, config),
        )
    }

    /// The solver of what the parser put in `sink` (the items declared in
    /// `b`).
    fn of_sink(mut b: ProblemBuilder, sink: ToCells, config: Config) -> Result<Cells, ParseError> {
        // the builder's own checks of the items (it holds no option)
        b.build().map_err(format::build_error)?;
        let Some(loader) = sink.0 else {
            // `read` fails without an items line
            return Err(format::no_items_line(1));
        };
        Ok(Cells::from_sets(
            loader.finish(config.seed, config.reduce),
            config,
        ))
    }

    fn from_sets(sets: Sets, config: Config) -> Cells {
        let (option_nodes, items) = sets.shape();
        Cells {
            trail: TrailStyle::for_shape(option_nodes, items),
            sets,
            config,
            prune: true,
            count_mems: false,
            fixed_walks: true,
            levels: Vec::new(),
            level: 0,
            solution: Vec::new(),
            stats: Stats::default(),
            replay: Vec::new(),
            pause_at: usize::MAX,
            splitting: false,
            paths: Vec::new(),
            base_level: 0,
        }
    }

    /// The number of redundant secondary items dropped when the problem
    /// was loaded (see the type's docs, "Reductions at load"; 0 with
    /// [`Config::reduce`] off).
    pub fn dropped_items(&self) -> u32 {
        self.sets.dropped
    }

    /// The options chosen when the problem was loaded by the root's forced
    /// moves (the problem's indices, in the order chosen; see the type's
    /// docs, "Reductions at load"; none with [`Config::reduce`] off). They
    /// are part of every solution, and head each solution reported.
    pub fn forced_at_load(&self) -> &[u32] {
        &self.sets.forced
    }

    /// The configuration.
    pub fn config(&self) -> Config {
        self.config
    }

    /// Whether a choice that leaves an active primary item with no option
    /// is pruned (Knuth's SSXCC rule; default `true`).
    ///
    /// With pruning (the default), trying an option first makes all its
    /// primary items inactive, then removes the options that conflict with
    /// it, and stops as soon as some other active primary item has no
    /// option left: that choice is abandoned on the spot and never becomes
    /// a search node. Without it, the choice is applied in full and the
    /// dead end is found at the next node (an item with no option), which
    /// is the tree Knuth's DLX1/DLX2 and [`Dlx`](crate::Dlx) search.
    ///
    /// Pruning changes the tree (fewer `nodes`; `guesses` still counts
    /// every option tried at a branching node, pruned or not) and the work
    /// (`updates`, time), never the solutions or their order. Turn it off
    /// to compare node counts with [`Dlx`](crate::Dlx) or DLX1.
    pub fn set_pruning(&mut self, prune: bool) {
        self.prune = prune;
    }

    /// Whether to count mems (`stats.mems`; see the type's docs; default
    /// off, and then `stats.mems` is 0). Counting is compiled separately
    /// and costs time: on the Sudoku XCC instance about 10% more
    /// instructions.
    pub fn set_mems(&mut self, count: bool) {
        self.count_mems = count;
    }

    /// Whether mems are counted (see [`set_mems`](Self::set_mems)).
    pub fn counts_mems(&self) -> bool {
        self.count_mems
    }

    /// How the search saves the sizes it restores on backtracking (default:
    /// [`TrailStyle::for_shape`] of the problem, chosen when it is loaded).
    /// Same tree, same solutions, same counts; only the speed differs.
    pub fn set_trail(&mut self, style: TrailStyle) {
        self.trail = style;
    }

    /// Whether to use the walks compiled for one option length (default
    /// `true`). When nearly every option of the problem (all but at most
    /// one in 16) has the same number of items, 3 or 6, the options of
    /// that length `L` are laid out first, each at a stride of a power of
    /// two nodes (its nodes, its spacer and copies of the spacer: 4 nodes
    /// for 3 items, 8 for 6; the others after them, in the general
    /// layout), and the walks over an option of that length, when hiding
    /// it and when trying it, are unrolled loops of `L - 1` turns that find
    /// each node by arithmetic (`first + (k + d) mod L`, from the node's
    /// place `k` in its option, a mask of its index) instead of loops that
    /// stop at the option's spacer, whose exits a processor mispredicts.
    /// The search is compiled for each such length; it is used with MRV
    /// and pruning when mems are not counted, and the general walks
    /// otherwise. Same tree, same solutions in the same order, same
    /// counts; only the speed differs. Turning it off keeps the layout and
    /// uses the general walks.
    ///
    /// Langford pairs have options of 3 items, pentominoes 6 (measured
    /// 0.85x and 0.84x the time of the general walks); queens (4) and the
    /// Sudoku's XCC (5) measured slower with walks of their length
    /// (1.05x, 1.03x), so those lengths have none.
    pub fn set_fixed_walks(&mut self, on: bool) {
        self.fixed_walks = on;
    }

    /// Whether the walks for one option length are on (see
    /// [`set_fixed_walks`](Self::set_fixed_walks)).
    pub fn fixed_walks(&self) -> bool {
        self.fixed_walks
    }

    /// The option length the problem's walks are compiled for (3 or 6), if
    /// any: see [`set_fixed_walks`](Self::set_fixed_walks).
    pub fn fixed_length(&self) -> Option<u32> {
        (self.sets.fixed != 0).then_some(self.sets.fixed)
    }

    /// The trail style in use (see [`set_trail`](Self::set_trail)).
    pub fn trail(&self) -> TrailStyle {
        self.trail
    }

    /// Whether pruning is on (see [`set_pruning`](Self::set_pruning)).
    pub fn pruning(&self) -> bool {
        self.prune
    }

    /// Bytes of the search structure (nodes, sets, trail, stacks).
    pub fn bytes(&self) -> u64 {
        self.sets.bytes()
            + (self.levels.capacity() * std::mem::size_of::<Level>()
                + self.solution.capacity() * std::mem::size_of::<usize>()) as u64
    }

    /// Count solutions (up to `limits.max_solutions`); the count is
    /// `report.stats.solutions`, exact when `report.stop.is_complete()`.
    pub fn count(&mut self, limits: &Limits) -> Report {
        self.run::<false>(limits, &mut |_| ControlFlow::Continue(()))
    }

    /// The first solution found (option indices, in the order chosen), if
    /// any; `None` with a cut-short report means "unknown", not "none".
    pub fn first(&mut self, limits: &Limits) -> (Option<Vec<usize>>, Report) {
        let mut found = None;
        let report = self.search(limits, |s| {
            found = Some(s.to_vec());
            ControlFlow::Break(())
        });
        (found, report)
    }

    /// Visit solutions (each as option indices of the problem, in the order
    /// chosen) until the visitor breaks or a limit is reached.
    pub fn search(
        &mut self,
        limits: &Limits,
        mut visit: impl FnMut(&[usize]) -> ControlFlow<()>,
    ) -> Report {
        self.run::<true>(limits, &mut visit)
    }

    /// Count all solutions on `threads` threads (0 = all cores): the tree
    /// is split at a shallow level into subtrees (each a path of choices
    /// from the root), which rayon threads count on clones of this solver.
    ///
    /// Gives the same count and node total as [`count`](Self::count). The
    /// deadline and cancel token are honoured; a solution or node limit
    /// makes the count run on one thread (those limits depend on the order
    /// of the search).
    pub fn count_parallel(&mut self, limits: &Limits, threads: usize) -> Report {
        use rayon::prelude::*;
        let threads = crate::parallel::thread_count(threads);
        if threads <= 1 || limits.max_solutions.is_some() || limits.max_nodes.is_some() {
            return self.count(limits);
        }
        let target = threads * 64;
        let mut depth = 1;
        let split = loop {
            self.paths.clear();
            self.pause_at = depth;
            self.splitting = true;
            let split = self.count(&Limits::none());
            self.splitting = false;
            self.pause_at = usize::MAX;
            // forced moves do not branch, so a useful depth can be large
            if self.paths.len() / depth >= target || self.paths.is_empty() {
                break split;
            }
            depth += 1;
        };
        let pool = match rayon::ThreadPoolBuilder::new().num_threads(threads).build() {
            Ok(p) => p,
            Err(_) => return self.count(limits),
        };
        let paths = std::mem::take(&mut self.paths);
        let proto: &Cells = self;
        let reports: Vec<Report> = pool.install(|| {
            paths
                .par_chunks(depth)
                .map_init(
                    || proto.clone(),
                    |cells, path| cells.count_subtree(path, limits),
                )
                .collect()
        });
        self.paths = paths;
        crate::parallel::combine(split.stats, &reports, self.bytes() * threads as u64)
    }

    /// Count the subtree below `path` (option nodes chosen from the root,
    /// as recorded by the split in [`count_parallel`](Self::count_parallel)).
    fn count_subtree(&mut self, path: &[u32], limits: &Limits) -> Report {
        if let Some(stop) = limits.poll() {
            // subtrees may be too small for the search's own polling
            return Report {
                stats: Stats::default(),
                stop,
            };
        }
        self.replay.clear();
        self.replay.extend_from_slice(path);
        self.pause_at = path.len();
        let r = self.count(limits);
        self.replay.clear();
        self.pause_at = usize::MAX;
        r
    }

    fn fill_solution(&mut self) {
        self.solution.clear();
        // the options the root's forced moves chose at load
        self.solution
            .extend(self.sets.forced.iter().map(|&o| o as usize));
        for lv in &self.levels[..self.level] {
            self.solution.push(self.sets.option_of(lv.x) as usize);
        }
    }

    /// Undo whatever an earlier search left behind.
    fn restart(&mut self) {
        // a pruned search needs no bits of empty items (see
        // `Sets::zero_bits`); `reset` makes them exact again
        self.sets.zero_bits = !self.prune;
        self.sets.reset();
        self.level = 0;
        self.base_level = 0;
        self.stats = Stats::default();
    }

    fn run<const FILL: bool>(
        &mut self,
        limits: &Limits,
        visit: &mut dyn FnMut(&[usize]) -> ControlFlow<()>,
    ) -> Report {
        self.restart();
        let mrv = self.config.heuristic == Heuristic::Mrv;
        let each = self.trail == TrailStyle::EachRemoval;
        let stop = match (self.prune, self.count_mems, each) {
            (true, false, false) => self.drive_with::<FILL, true, false, false>(mrv, limits, visit),
            (false, false, false) => {
                self.drive_with::<FILL, false, false, false>(mrv, limits, visit)
            }
            (true, true, false) => self.drive_with::<FILL, true, true, false>(mrv, limits, visit),
            (false, true, false) => self.drive_with::<FILL, false, true, false>(mrv, limits, visit),
            (true, false, true) => self.drive_with::<FILL, true, false, true>(mrv, limits, visit),
            (false, false, true) => self.drive_with::<FILL, false, false, true>(mrv, limits, visit),
            (true, true, true) => self.drive_with::<FILL, true, true, true>(mrv, limits, visit),
            (false, true, true) => self.drive_with::<FILL, false, true, true>(mrv, limits, visit),
        };
        self.stats.updates = self.sets.updates;
        self.stats.mems = self.sets.mems;
        self.stats.peak_bytes = self.bytes();
        Report {
            stats: self.stats,
            stop,
        }
    }

    /// [`drive`](Self::drive) for this problem and configuration.
    ///
    /// The walks compiled for a fixed option length ([`set_fixed_walks`](Self::set_fixed_walks))
    /// are used with MRV and pruning, without mems (the configuration the
    /// speed is measured in; the others keep the general walks, and fewer
    /// copies of the search).
    fn drive_with<const FILL: bool, const P: bool, const M: bool, const E: bool>(
        &mut self,
        mrv: bool,
        limits: &Limits,
        visit: &mut dyn FnMut(&[usize]) -> ControlFlow<()>,
    ) -> StopReason {
        if P && !M && mrv && self.fixed_walks {
            return match self.sets.fixed {
                3 => self.drive_fixed::<FILL, P, E, 3>(limits, visit),
                6 => self.drive_fixed::<FILL, P, E, 6>(limits, visit),
                _ => self.drive_general::<FILL, P, M, E>(mrv, limits, visit),
            };
        }
        self.drive_general::<FILL, P, M, E>(mrv, limits, visit)
    }

    /// [`drive`](Self::drive) with MRV, no mems and the walks for options
    /// of `L` nodes.
    fn drive_fixed<const FILL: bool, const P: bool, const E: bool, const L: usize>(
        &mut self,
        limits: &Limits,
        visit: &mut dyn FnMut(&[usize]) -> ControlFlow<()>,
    ) -> StopReason {
        debug_assert_eq!(self.sets.fixed, L as u32);
        match (self.sets.coloured, self.sets.track) {
            (false, false) => self.drive::<FILL, false, true, false, P, false, E, L>(limits, visit),
            (false, true) => self.drive::<FILL, false, true, true, P, false, E, L>(limits, visit),
            (true, false) => self.drive::<FILL, true, true, false, P, false, E, L>(limits, visit),
            (true, true) => self.drive::<FILL, true, true, true, P, false, E, L>(limits, visit),
        }
    }

    /// [`drive`](Self::drive) with the general walks.
    fn drive_general<const FILL: bool, const P: bool, const M: bool, const E: bool>(
        &mut self,
        mrv: bool,
        limits: &Limits,
        visit: &mut dyn FnMut(&[usize]) -> ControlFlow<()>,
    ) -> StopReason {
        match (self.sets.coloured, mrv, self.sets.track) {
            (false, true, false) => {
                self.drive::<FILL, false, true, false, P, M, E, 0>(limits, visit)
            }
            (false, true, true) => self.drive::<FILL, false, true, true, P, M, E, 0>(limits, visit),
            (false, false, false) => {
                self.drive::<FILL, false, false, false, P, M, E, 0>(limits, visit)
            }
            (false, false, true) => {
                self.drive::<FILL, false, false, true, P, M, E, 0>(limits, visit)
            }
            (true, true, false) => self.drive::<FILL, true, true, false, P, M, E, 0>(limits, visit),
            (true, true, true) => self.drive::<FILL, true, true, true, P, M, E, 0>(limits, visit),
            (true, false, false) => {
                self.drive::<FILL, true, false, false, P, M, E, 0>(limits, visit)
            }
            (true, false, true) => self.drive::<FILL, true, false, true, P, M, E, 0>(limits, visit),
        }
    }

    /// The search loop. `COLOURED`: the problem gives some secondary item a
    /// colour (otherwise purifying is "remove every other option"). `MRV`:
    /// minimum remaining values, else first item. `T`: keep the bit sets of
    /// items with at most one option (large problems). `P`: prune (see
    /// [`set_pruning`](Self::set_pruning)). `M`: count mems. `E`: a trail
    /// entry per removal ([`TrailStyle::EachRemoval`]). `L`: the walks
    /// for options of `L` nodes ([`set_fixed_walks`](Self::set_fixed_walks)),
    /// or 0 for the general ones.
    fn drive<
        const FILL: bool,
        const COLOURED: bool,
        const MRV: bool,
        const T: bool,
        const P: bool,
        const M: bool,
        const E: bool,
        const L: usize,
    >(
        &mut self,
        limits: &Limits,
        visit: &mut dyn FnMut(&[usize]) -> ControlFlow<()>,
    ) -> StopReason {
        let slow = limits.has_slow_limits();
        let mut phase = Phase::Enter;
        loop {
            match phase {
                Phase::Enter => {
                    if self.level == self.pause_at && self.sets.np != 0 {
                        if self.splitting {
                            // a subtree for another thread
                            let path = self.levels[..self.level].iter().map(|lv| lv.x);
                            self.paths.extend(path);
                            phase = Phase::Backtrack;
                            continue;
                        }
                        // the end of a replayed path, which the split
                        // counted: count the subtree below it
                        self.pause_at = usize::MAX;
                        self.base_level = self.level;
                        self.stats = Stats::default();
                        self.sets.updates = 0;
                        self.sets.mems = 0;
                    }
                    if let Some(m) = limits.max_nodes {
                        if self.stats.nodes >= m {
                            return StopReason::NodeLimit;
                        }
                    }
                    if slow && self.stats.nodes & 0x3ff == 0x3ff {
                        if let Some(r) = limits.poll() {
                            return r;
                        }
                    }
                    self.stats.nodes += 1;
                    let l = self.level;
                    if l as u32 > self.stats.max_depth {
                        self.stats.max_depth = l as u32;
                    }
                    if self.sets.np == 0 {
                        self.stats.solutions += 1;
                        phase = Phase::Backtrack;
                        if let Some(m) = limits.max_solutions {
                            if self.stats.solutions > m {
                                // only reachable with max_solutions == 0
                                self.stats.solutions -= 1;
                                return StopReason::SolutionLimit;
                            }
                        }
                        if FILL {
                            self.fill_solution();
                            if visit(&self.solution).is_break() {
                                return StopReason::Visitor;
                            }
                        }
                        if limits.max_solutions == Some(self.stats.solutions) {
                            return StopReason::SolutionLimit;
                        }
                        continue;
                    }
                    let (i, s) = if MRV {
                        let maybe_zero = T && (l == 0 || self.levels[l - 1].zeroed);
                        self.sets.min_item::<M>(maybe_zero)
                    } else {
                        self.sets.first_item::<M>()
                    };
                    if s == 0 {
                        phase = Phase::Backtrack;
                        continue;
                    }
                    if l >= self.levels.len() {
                        // grows on first reaching this depth (amortised)
                        self.levels.push(Level::default());
                    }
                    let mark0 = self.sets.trail_len();
                    let zeroed = if s == 1 {
                        self.sets.cover_forced::<T, M>(i);
                        false
                    } else {
                        self.sets.cover_chosen::<T, M, E, L>(i)
                    };
                    self.levels[l] = Level {
                        item: i,
                        pos: 0,
                        total: s,
                        mark0,
                        mark1: self.sets.trail_len(),
                        np1: self.sets.np,
                        x: NONE,
                        zeroed,
                    };
                    phase = Phase::Try;
                }
                Phase::Try => {
                    let l = self.level;
                    let lv = self.levels[l];
                    if lv.pos == lv.total {
                        self.sets.restore::<COLOURED, T, M>(lv.mark0);
                        self.sets.reactivate(lv.np1 + 1);
                        phase = Phase::Backtrack;
                        continue;
                    }
                    self.stats.guesses += (lv.total > 1) as u64;
                    let x = if l < self.replay.len() {
                        if lv.pos > 0 {
                            // a replayed level tries its one option only
                            return StopReason::Exhausted;
                        }
                        self.replay[l]
                    } else {
                        self.sets.member::<M>(lv.item, lv.pos)
                    };
                    self.levels[l].x = x;
                    if !self.sets.apply::<COLOURED, T, P, M, E, L>(x) {
                        // a dead end found while covering: not a node
                        let lv = &mut self.levels[l];
                        lv.pos += 1;
                        let (mark1, np1) = (lv.mark1, lv.np1);
                        self.sets.restore::<COLOURED, T, M>(mark1);
                        self.sets.reactivate(np1);
                        continue;
                    }
                    self.level += 1;
                    phase = Phase::Enter;
                }
                Phase::Backtrack => {
                    if self.level == self.base_level {
                        return StopReason::Exhausted;
                    }
                    self.level -= 1;
                    let lv = &mut self.levels[self.level];
                    lv.pos += 1;
                    let (mark1, np1) = (lv.mark1, lv.np1);
                    self.sets.restore::<COLOURED, T, M>(mark1);
                    self.sets.reactivate(np1);
                    phase = Phase::Try;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::parse;

    /// The step stamps wrap around after 2^32 - 2 steps; a search that
    /// crosses the wrap must still save every size it changes.
    #[test]
    fn step_count_wraps_around() {
        // two independent 4x4 rook placements: 24 * 24 solutions; the
        // second one's items are left alone until the first is placed
        let mut text = String::from("r0 r1 r2 r3 c0 c1 c2 c3 s0 s1 s2 s3 d0 d1 d2 d3\n");
        for (r, c) in [("r", "c"), ("s", "d")] {
            for i in 0..4 {
                for j in 0..4 {
                    text.push_str(&format!("{r}{i} {c}{j}\n"));
                }
            }
        }
        let p = parse(&text).unwrap().problem;
        let mut cells = Cells::new(&p).unwrap();
        // the stamped trail: a problem this small picks a trail entry per
        // removal, which keeps no stamps
        assert_eq!(cells.trail(), TrailStyle::EachRemoval);
        cells.set_trail(TrailStyle::Stamped);
        assert_eq!(cells.count(&Limits::none()).stats.solutions, 576);
        for stamp in 1..200 {
            // stale stamps equal to steps that come after the wrap: they
            // must be cleared, or those steps would not save the sizes
            // they change
            cells.sets.set_epoch(u32::MAX - 1, stamp);
            let r = cells.count(&Limits::none());
            assert_eq!(r.stats.solutions, 576, "stamps at {stamp}");
        }
    }
}
