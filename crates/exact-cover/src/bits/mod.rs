//! A bit-parallel engine for small problems: see [`Bits`].

use std::ops::ControlFlow;

use crate::limits::Limits;
use crate::problem::{Item, Problem};
use crate::rng::SplitMix64;
use crate::search::{Config, Heuristic};
use crate::stats::{Report, Stats, StopReason};

mod kernel;

use kernel::Kernel;

/// Why a problem cannot be loaded into [`Bits`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum BitsError {
    /// More options than the engine's bit sets hold.
    #[error(
        "{options} options; the bit-parallel engine takes at most {max}: use the \
         dancing-cells or dancing-links engine"
    )]
    TooManyOptions {
        /// The problem's options.
        options: usize,
        /// [`Bits::MAX_OPTIONS`].
        max: usize,
    },
    /// More primary items than the engine's bit sets hold.
    #[error(
        "{items} primary items; the bit-parallel engine takes at most {max}: use the \
         dancing-cells or dancing-links engine"
    )]
    TooManyItems {
        /// The problem's primary items.
        items: usize,
        /// [`Bits::MAX_PRIMARY_ITEMS`].
        max: usize,
    },
    /// A primary item must be covered a number of times other than exactly
    /// once.
    #[error(
        "item '{item}' has multiplicity {lo}..{hi}; the bit-parallel engine covers each \
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

/// The widths (64-bit words of options) the search is compiled for: a
/// problem's options are padded to the next one.
const WIDTHS: [usize; 13] = [1, 2, 3, 4, 6, 8, 12, 16, 20, 24, 32, 48, 64];

/// The tables of one problem (read-only while searching, shared by the
/// threads of a parallel count).
#[derive(Clone, Debug)]
struct Tables {
    /// Words per option bit set (one of [`WIDTHS`]).
    w: usize,
    /// Words per primary-item bit set.
    pw: usize,
    /// Per primary item (in search order), its options: `w` words each.
    has: Vec<u64>,
    /// Per option bit, the options it clashes with, itself included: `w`
    /// words each.
    clash: Vec<u64>,
    /// Per option bit, its primary items: `pw` words each.
    items: Vec<u64>,
    /// Every option (the root's live set): `w` words.
    all_options: Vec<u64>,
    /// Every primary item (the root's active set): `pw` words.
    all_items: Vec<u64>,
    /// The problem's option index of each option bit (bits are options in
    /// input order, or shuffled with a seed).
    option_of: Vec<u32>,
    /// Minimum remaining values, or else the first active item.
    mrv: bool,
}

/// The search stacks: per level, the live options, the active items, the
/// options of the branch item still to try, how many it had, and the
/// option tried.
#[derive(Clone, Debug, Default)]
struct Stack {
    live: Vec<u64>,
    active: Vec<u64>,
    todo: Vec<u64>,
    total: Vec<u32>,
    chosen: Vec<u32>,
    solution: Vec<usize>,
}

/// An XCC solver on bit sets for problems of up to [`Bits::MAX_OPTIONS`]
/// options: primary items covered exactly once, secondary items at most
/// once or by options that agree on their colour. Same answers as
/// [`Dlx`](crate::Dlx) and [`Cells`](crate::Cells); solutions come with
/// their options in the order chosen, options of an item tried in input
/// order.
///
/// # How it works
///
/// Two options are *compatible* when they share no primary item and every
/// secondary item they share gets the same colour from both (an uncoloured
/// secondary item is shared by no two options of a solution). A set of
/// options is a solution exactly when its options are pairwise compatible
/// and cover every primary item: the XCC rules are all pairwise. So the
/// engine computes, once, for every option the bit set of the options it
/// clashes with (itself included), and for every primary item the bit set
/// of its options. A search state is then the bit set of the *live* options
/// (compatible with every option chosen so far) and the bit set of the
/// primary items still to cover. Choosing option `o` is `live &= !clash[o]`
/// and `active &= !items[o]`, a few words each; an item's options left are
/// `live & has[i]`, counted with the processor's population count.
///
/// At every node the search counts the live options of every active
/// primary item: it branches on the item with the fewest (minimum remaining
/// values, ties to the first item; or the first active item with
/// [`Heuristic::First`]), and a choice that leaves an active primary item
/// with no option is not entered (it is not a node), the rule of Knuth's
/// SSXCC that [`Cells`](crate::Cells) follows by default. The tree is the
/// one `Cells` searches (loaded without its reductions), with the same
/// guesses; `Cells` may count a few more nodes where it enters a node to
/// find an item emptied by the branch item's own covering, which this
/// engine sees before entering.
///
/// The work per node is (active primary items) × (words of options), so the
/// engine is made for problems with few options: at most
/// [`Bits::MAX_OPTIONS`]. On the xc bench (one thread, against the cells
/// engine on the same tree): 14-queens 3.7× less time, Langford pairs
/// (n = 12) 2.6×, the random problem with secondary items 4.7×, the 6×10
/// pentominoes (1,236 options, 20 words) 4.3×; but the Sudoku XCC instance,
/// with 324 primary items to count at every node, takes 3.2× the cells
/// engine's time. The
/// search is compiled for each number of words (padded to one of a few
/// widths), and on x86-64 once more with the `popcnt` instruction, chosen
/// at run time when the processor has it (the same steps, so the same
/// answers and statistics); the portable build always exists and is tested
/// against it.
///
/// Statistics: `nodes`, `guesses`, `solutions` and `max_depth` as for the
/// other engines; `updates` and `mems` are not counted (0): there are no
/// lists to update. `peak_bytes` is the tables and the stacks.
///
/// The bit sets of clashes take (options)² bits: 2 MB at the 4,096 options
/// allowed ([`Bits::MAX_OPTIONS`]; at most [`Bits::MAX_PRIMARY_ITEMS`]
/// primary items too, [`BitsError`] otherwise). They are built in time
/// proportional to (entries) × (words of options).
///
/// ```
/// use exact_cover::{format, Bits, Limits};
/// let p = format::parse("A B C | X\nA X:1\nB C X:1\nB\nC\n").unwrap().problem;
/// let mut bits = Bits::new(&p).unwrap();
/// assert_eq!(bits.count(&Limits::none()).stats.solutions, 2);
/// let (first, _) = bits.first(&Limits::none());
/// assert_eq!(first.unwrap(), vec![0, 1]);
/// ```
#[derive(Clone, Debug)]
pub struct Bits {
    tables: Tables,
    stack: Stack,
    kernel: Kernel,
}

/// A solution visitor: option indices in the order chosen.
type Visit<'a> = dyn FnMut(&[usize]) -> ControlFlow<()> + 'a;

/// What choosing an option leaves.
enum Step {
    /// No primary item left: a solution.
    Solution,
    /// An active primary item has no live option left: not entered.
    Dead,
    /// A node, branching on `item` with `count` options.
    Node { item: usize, count: u32 },
}

impl Bits {
    /// The most options a problem may have.
    pub const MAX_OPTIONS: usize = 64 * 64;

    /// The most primary items a problem may have (so that the tables stay
    /// within a few megabytes: the options of each primary item and the
    /// primary items of each option are bit sets). Secondary items are not
    /// limited.
    pub const MAX_PRIMARY_ITEMS: usize = 64 * 64;

    /// Load `problem` (minimum remaining values, options in input order).
    pub fn new(problem: &Problem) -> Result<Bits, BitsError> {
        Bits::with_config(problem, Config::default())
    }

    /// Load `problem` with `config`: [`Heuristic::Mrv`] or
    /// [`Heuristic::First`]; with a seed, options are tried and items' ties
    /// broken in a random (reproducible) order. [`Config::reduce`] does not
    /// apply (the search takes the root's forced moves itself).
    pub fn with_config(problem: &Problem, config: Config) -> Result<Bits, BitsError> {
        check_items(problem.items())?;
        let n = problem.option_count();
        if n > Bits::MAX_OPTIONS {
            return Err(BitsError::TooManyOptions {
                options: n,
                max: Bits::MAX_OPTIONS,
            });
        }
        let p = problem.primary_count();
        if p > Bits::MAX_PRIMARY_ITEMS {
            return Err(BitsError::TooManyItems {
                items: p,
                max: Bits::MAX_PRIMARY_ITEMS,
            });
        }
        Ok(Bits {
            tables: Tables::new(problem, config),
            stack: Stack::default(),
            kernel: Kernel::detect(),
        })
    }

    /// Bytes of the tables and the stacks.
    pub fn bytes(&self) -> u64 {
        self.tables.bytes() + self.stack.bytes()
    }

    /// Count solutions (up to `limits.max_solutions`); the count is
    /// `report.stats.solutions`, exact when `report.stop.is_complete()`.
    pub fn count(&mut self, limits: &Limits) -> Report {
        self.run(&[], limits, None)
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
        self.run(&[], limits, Some(&mut visit))
    }

    /// Count all solutions on `threads` threads (0 = all cores): the tree
    /// is split at the shallowest level with enough nodes, and rayon threads
    /// count the subtrees on copies of the stacks (the tables are shared).
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
        let (paths, split) = loop {
            let mut paths = Vec::new();
            let split = self.split(depth, &mut paths);
            // forced moves do not branch, so a useful depth can be large
            if paths.len() / depth >= target || paths.is_empty() {
                break (paths, split);
            }
            depth += 1;
        };
        let pool = match rayon::ThreadPoolBuilder::new().num_threads(threads).build() {
            Ok(p) => p,
            Err(_) => return self.count(limits),
        };
        let tables = &self.tables;
        let kernel = self.kernel;
        // the threads share the tables, each with its own stacks
        let reports: Vec<Report> = pool.install(|| {
            paths
                .par_chunks(depth)
                .map_init(Stack::default, |stack, path| {
                    if let Some(stop) = limits.poll() {
                        return Report {
                            stats: Stats::default(),
                            stop,
                        };
                    }
                    run(tables, stack, kernel, path, limits, None)
                })
                .collect()
        });
        self.stack.reserve(tables, tables.levels());
        let bytes = tables.bytes() + self.stack.bytes() * threads as u64;
        crate::parallel::combine(split, &reports, bytes)
    }

    /// The nodes above `depth` (counted, with their solutions) and the
    /// paths of option bits to the nodes at `depth`, `depth` bits each.
    fn split(&mut self, depth: usize, paths: &mut Vec<u32>) -> Stats {
        let t = &self.tables;
        let mut stats = Stats::default();
        let s = &mut self.stack;
        s.reserve(t, depth);
        if root(t, s, &mut stats).is_none() {
            return stats;
        }
        let mut path = Vec::with_capacity(depth);
        split_below(t, s, 0, depth, &mut path, paths, &mut stats);
        stats
    }

    /// Search below the path `path` of option bits (empty: the whole tree),
    /// visiting solutions when `visit` is given.
    fn run(&mut self, path: &[u32], limits: &Limits, visit: Option<&mut Visit<'_>>) -> Report {
        run(
            &self.tables,
            &mut self.stack,
            self.kernel,
            path,
            limits,
            visit,
        )
    }

    /// The number of words per option bit set the search runs with.
    #[cfg(test)]
    fn width(&self) -> usize {
        self.tables.w
    }
}

/// Search below the path `path` of option bits (empty: the whole tree) on
/// `t` with the stacks `s`, visiting solutions when `visit` is given.
fn run(
    t: &Tables,
    s: &mut Stack,
    kernel: Kernel,
    path: &[u32],
    limits: &Limits,
    visit: Option<&mut Visit<'_>>,
) -> Report {
    let mut stats = Stats::default();
    let stop = run_inner(t, s, kernel, path, limits, visit, &mut stats);
    stats.peak_bytes = t.bytes() + s.bytes();
    Report { stats, stop }
}

fn run_inner(
    t: &Tables,
    s: &mut Stack,
    kernel: Kernel,
    path: &[u32],
    limits: &Limits,
    mut visit: Option<&mut Visit<'_>>,
    stats: &mut Stats,
) -> StopReason {
    if limits.max_solutions == Some(0) {
        return StopReason::SolutionLimit;
    }
    s.reserve(t, t.levels());
    let base = path.len();
    if base == 0 {
        if limits.max_nodes == Some(0) {
            return StopReason::NodeLimit;
        }
        match root(t, s, stats) {
            None if stats.solutions == 1 => {
                if let Some(v) = visit.as_mut() {
                    s.solution.clear();
                    if v(&s.solution).is_break() {
                        return StopReason::Visitor;
                    }
                }
                if limits.max_solutions == Some(1) {
                    return StopReason::SolutionLimit;
                }
                return StopReason::Exhausted;
            }
            None => return StopReason::Exhausted,
            Some(_) => {}
        }
    } else {
        // a subtree of a parallel count: replay the path (its nodes
        // were counted by the split), then count the node it ends at
        if root(t, s, &mut Stats::default()).is_none() {
            return StopReason::Exhausted;
        }
        for (l, &o) in path.iter().enumerate() {
            match step::<0>(t, s, l, o as usize) {
                Step::Node { item, count } => s.branch::<0>(t, l + 1, item, count),
                _ => return StopReason::Exhausted,
            }
        }
        stats.nodes += 1;
        stats.max_depth = base as u32;
    }
    let fill = visit.is_some();
    let mut none = |_: &[usize]| ControlFlow::Continue(());
    let visit: &mut dyn FnMut(&[usize]) -> ControlFlow<()> = match visit {
        Some(v) => v,
        None => &mut none,
    };
    kernel::drive(
        kernel,
        &mut Job {
            t,
            s,
            base,
            limits,
            fill,
            visit,
            stats,
        },
    )
}

/// Every primary item is covered exactly once (no multiplicity).
fn check_items(items: &[Item]) -> Result<(), BitsError> {
    match items
        .iter()
        .enumerate()
        .find(|(_, it)| !it.is_secondary() && it.bounds() != (1, 1))
    {
        None => Ok(()),
        Some((k, it)) => {
            let (lo, hi) = it.bounds();
            Err(BitsError::Multiplicity {
                item: it.name().map_or_else(|| format!("#{k}"), str::to_string),
                lo,
                hi,
            })
        }
    }
}

impl Tables {
    /// Bytes of the tables.
    fn bytes(&self) -> u64 {
        let words = self.has.capacity()
            + self.clash.capacity()
            + self.items.capacity()
            + self.all_options.capacity()
            + self.all_items.capacity();
        (words * 8 + self.option_of.capacity() * 4) as u64
    }

    /// The most levels a search can reach (one per primary item, at most).
    fn levels(&self) -> usize {
        self.all_items.len() * 64 + 1
    }

    fn new(problem: &Problem, config: Config) -> Tables {
        let n = problem.option_count();
        let need = n.div_ceil(64).max(1);
        let w = WIDTHS.iter().copied().find(|&w| w >= need).unwrap_or(need);
        // primary items numbered in declaration order (shuffled with a seed,
        // so ties go to a random item), secondary items apart
        let mut rng = config.seed.map(SplitMix64::new);
        let mut slot = vec![usize::MAX; problem.item_count()];
        let mut primaries: Vec<usize> = (0..problem.item_count())
            .filter(|&i| !problem.items()[i].is_secondary())
            .collect();
        let mut order: Vec<u32> = (0..n as u32).collect();
        if let Some(r) = rng.as_mut() {
            r.shuffle(&mut primaries);
            r.shuffle(&mut order);
        }
        for (k, &i) in primaries.iter().enumerate() {
            slot[i] = k;
        }
        let p = primaries.len();
        let pw = p.div_ceil(64).max(1);
        debug_assert!(p <= Bits::MAX_PRIMARY_ITEMS && n <= Bits::MAX_OPTIONS);
        let mut has = vec![0u64; p * w];
        let mut items = vec![0u64; n * pw];
        let mut clash = vec![0u64; n * w];
        // per item, its options as (colour, bit), to find the clashes
        let mut users: Vec<Vec<(u32, u32)>> = vec![Vec::new(); problem.item_count()];
        for (bit, &o) in order.iter().enumerate() {
            for e in problem.option(o as usize) {
                users[e.item as usize].push((e.colour, bit as u32));
                let k = slot[e.item as usize];
                if k != usize::MAX {
                    has[k * w + bit / 64] |= 1 << (bit % 64);
                    items[bit * pw + k / 64] |= 1 << (k % 64);
                }
            }
            clash[bit * w + bit / 64] |= 1 << (bit % 64);
        }
        // an item's options clash with each other, except those that give
        // a secondary item one colour: per item, its options' set and each
        // colour's, so the work is (entries) × (words), not (options)² per
        // item
        let mut users_set = vec![0u64; w];
        let mut colour_set = vec![0u64; w];
        for (i, list) in users.iter_mut().enumerate() {
            let primary = slot[i] != usize::MAX;
            users_set.fill(0);
            for &(_, bit) in list.iter() {
                users_set[bit as usize / 64] |= 1 << (bit % 64);
            }
            list.sort_unstable();
            for group in list.chunk_by(|a, b| a.0 == b.0) {
                let colour = group[0].0;
                colour_set.fill(0);
                if !primary && colour != 0 {
                    for &(_, bit) in group {
                        colour_set[bit as usize / 64] |= 1 << (bit % 64);
                    }
                }
                for &(_, bit) in group {
                    let row = &mut clash[bit as usize * w..][..w];
                    for k in 0..w {
                        row[k] |= users_set[k] & !colour_set[k];
                    }
                }
            }
        }
        let mut all_options = vec![0u64; w];
        for bit in 0..n {
            all_options[bit / 64] |= 1 << (bit % 64);
        }
        let mut all_items = vec![0u64; pw];
        for k in 0..p {
            all_items[k / 64] |= 1 << (k % 64);
        }
        Tables {
            w,
            pw,
            has,
            clash,
            items,
            all_options,
            all_items,
            option_of: order,
            mrv: config.heuristic == Heuristic::Mrv,
        }
    }
}

impl Stack {
    /// Bytes of the stacks.
    fn bytes(&self) -> u64 {
        ((self.live.capacity() + self.active.capacity() + self.todo.capacity()) * 8
            + (self.total.capacity() + self.chosen.capacity()) * 4
            + self.solution.capacity() * std::mem::size_of::<usize>()) as u64
    }

    /// Room for `levels` levels below the root.
    fn reserve(&mut self, t: &Tables, levels: usize) {
        let levels = levels + 2;
        if self.total.len() < levels {
            self.live.resize(levels * t.w, 0);
            self.todo.resize(levels * t.w, 0);
            self.active.resize(levels * t.pw, 0);
            self.total.resize(levels, 0);
            self.chosen.resize(levels, 0);
        }
    }

    /// Level `l` branches on `item` (`count` live options).
    #[inline(always)]
    fn branch<const W: usize>(&mut self, t: &Tables, l: usize, item: usize, count: u32) {
        let w = if W == 0 { t.w } else { W };
        let has = &t.has[item * w..][..w];
        let live = &self.live[l * w..][..w];
        let todo = &mut self.todo[l * w..][..w];
        for k in 0..w {
            todo[k] = live[k] & has[k];
        }
        self.total[l] = count;
    }
}

/// Set up the root (level 0): `None` when the search ends there (no
/// primary item: one solution, counted; or one with no option), else the
/// root's branch. Counts the root as a node.
fn root(t: &Tables, s: &mut Stack, stats: &mut Stats) -> Option<()> {
    s.live[..t.w].copy_from_slice(&t.all_options);
    s.active[..t.pw].copy_from_slice(&t.all_items);
    stats.nodes += 1;
    if t.all_items.iter().all(|&a| a == 0) {
        stats.solutions += 1;
        return None;
    }
    match scan::<0>(t, &s.live[..t.w], &s.active[..t.pw]) {
        Step::Node { item, count } => {
            s.branch::<0>(t, 0, item, count);
            Some(())
        }
        _ => None,
    }
}

/// Choose option bit `o` at level `l`: the live options and active items of
/// level `l + 1`, and what they leave. `W`: the width, or 0 for `t.w`.
#[inline(always)]
fn step<const W: usize>(t: &Tables, s: &mut Stack, l: usize, o: usize) -> Step {
    let w = if W == 0 { t.w } else { W };
    let pw = t.pw;
    s.chosen[l] = o as u32;
    let (here, below) = s.live.split_at_mut((l + 1) * w);
    let live = &here[l * w..];
    let next = &mut below[..w];
    let clash = &t.clash[o * w..][..w];
    for k in 0..w {
        next[k] = live[k] & !clash[k];
    }
    let (here, below) = s.active.split_at_mut((l + 1) * pw);
    let active = &here[l * pw..];
    let next_active = &mut below[..pw];
    let items = &t.items[o * pw..][..pw];
    let mut any = 0;
    for k in 0..pw {
        next_active[k] = active[k] & !items[k];
        any |= next_active[k];
    }
    if any == 0 {
        return Step::Solution;
    }
    scan::<W>(
        t,
        &s.live[(l + 1) * w..][..w],
        &s.active[(l + 1) * pw..][..pw],
    )
}

/// The branch item of a state: the active primary item with the fewest
/// live options (or the first, without MRV), or `Dead` if one has none.
#[inline(always)]
fn scan<const W: usize>(t: &Tables, live: &[u64], active: &[u64]) -> Step {
    let w = if W == 0 { t.w } else { W };
    let live = &live[..w];
    let mut best = u32::MAX;
    let mut best_item = 0;
    for (k, &word) in active.iter().enumerate() {
        let mut m = word;
        while m != 0 {
            let i = k * 64 + m.trailing_zeros() as usize;
            m &= m - 1;
            let has = &t.has[i * w..][..w];
            let mut c = 0;
            for j in 0..w {
                c += (live[j] & has[j]).count_ones();
            }
            if c == 0 {
                return Step::Dead;
            }
            if c < best && (t.mrv || best == u32::MAX) {
                best = c;
                best_item = i;
            }
        }
    }
    Step::Node {
        item: best_item,
        count: best,
    }
}

/// The split of a parallel count, below level `l` (a node at depth `l`):
/// counts the nodes and solutions above `depth` and records the paths to
/// the nodes at `depth`.
fn split_below(
    t: &Tables,
    s: &mut Stack,
    l: usize,
    depth: usize,
    path: &mut Vec<u32>,
    paths: &mut Vec<u32>,
    stats: &mut Stats,
) {
    let w = t.w;
    while let Some(o) = pop_lowest(&mut s.todo[l * w..][..w]) {
        if s.total[l] > 1 {
            stats.guesses += 1;
        }
        match step::<0>(t, s, l, o) {
            Step::Dead => {}
            Step::Solution => {
                stats.nodes += 1;
                stats.solutions += 1;
                stats.max_depth = stats.max_depth.max(l as u32 + 1);
            }
            Step::Node { item, count } => {
                path.push(o as u32);
                if l + 1 == depth {
                    paths.extend_from_slice(path);
                } else {
                    stats.nodes += 1;
                    stats.max_depth = stats.max_depth.max(l as u32 + 1);
                    s.branch::<0>(t, l + 1, item, count);
                    split_below(t, s, l + 1, depth, path, paths, stats);
                }
                path.pop();
            }
        }
    }
}

/// Take the lowest set bit of a bit set: its index.
#[inline(always)]
fn pop_lowest(set: &mut [u64]) -> Option<usize> {
    for (k, word) in set.iter_mut().enumerate() {
        if *word != 0 {
            let b = word.trailing_zeros() as usize;
            *word &= *word - 1;
            return Some(k * 64 + b);
        }
    }
    None
}

/// One run of the search loop: the tables, the stacks (set up to level
/// `base`), the limits, whether to build each solution and call `visit`,
/// and the statistics it adds to.
struct Job<'a, 'v> {
    t: &'a Tables,
    s: &'a mut Stack,
    base: usize,
    limits: &'a Limits,
    fill: bool,
    visit: &'a mut Visit<'v>,
    stats: &'a mut Stats,
}

/// [`search`] on a job's parts (passed as arguments, so that the optimiser
/// knows the stacks, the statistics and the rest do not overlap).
#[inline(always)]
fn run_job<const W: usize>(job: &mut Job<'_, '_>) -> StopReason {
    search::<W>(
        job.t, job.s, job.base, job.limits, job.fill, job.visit, job.stats,
    )
}

/// The search loop from level `base` until the subtree below it is done or
/// a limit stops it. `W`: the width (as `t.w`).
#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn search<const W: usize>(
    t: &Tables,
    s: &mut Stack,
    base: usize,
    limits: &Limits,
    fill: bool,
    visit: &mut Visit<'_>,
    stats: &mut Stats,
) -> StopReason {
    debug_assert_eq!(t.w, W);
    let slow = limits.has_slow_limits();
    let max_nodes = limits.max_nodes.unwrap_or(u64::MAX);
    let max_solutions = limits.max_solutions.unwrap_or(u64::MAX);
    let mut l = base;
    loop {
        let Some(o) = pop_lowest(&mut s.todo[l * W..][..W]) else {
            if l == base {
                return StopReason::Exhausted;
            }
            l -= 1;
            continue;
        };
        if s.total[l] > 1 {
            stats.guesses += 1;
        }
        match step::<W>(t, s, l, o) {
            Step::Dead => {}
            Step::Solution => {
                if stats.nodes >= max_nodes {
                    return StopReason::NodeLimit;
                }
                stats.nodes += 1;
                stats.solutions += 1;
                stats.max_depth = stats.max_depth.max(l as u32 + 1);
                if fill {
                    s.solution.clear();
                    s.solution.extend(
                        s.chosen[..=l]
                            .iter()
                            .map(|&b| t.option_of[b as usize] as usize),
                    );
                    if visit(&s.solution).is_break() {
                        return StopReason::Visitor;
                    }
                }
                if stats.solutions >= max_solutions {
                    return StopReason::SolutionLimit;
                }
            }
            Step::Node { item, count } => {
                if stats.nodes >= max_nodes {
                    return StopReason::NodeLimit;
                }
                if slow && stats.nodes & 0x3ff == 0x3ff {
                    if let Some(r) = limits.poll() {
                        return r;
                    }
                }
                stats.nodes += 1;
                l += 1;
                stats.max_depth = stats.max_depth.max(l as u32);
                s.branch::<W>(t, l, item, count);
            }
        }
    }
}

#[cfg(test)]
mod tests;
