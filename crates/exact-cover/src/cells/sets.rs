//! The dancing-cells arrays: options as runs of nodes, one sparse set of
//! active options per item in a shared array, a sparse set of active primary
//! items, and the trail of sizes that backtracking restores.
//!
//! Items are numbered for the engine: primary items `0..n1` in the
//! problem's order, then secondary items `n1..n`.
//!
//! The update loops index without bounds checks ([`Hot`]). What makes
//! that sound is all in this module: the arrays are private fields, written
//! only here, under the invariants listed on [`Sets`]; the methods the rest
//! of the crate calls check their `u32` arguments (once per call) before
//! the unchecked code runs; the unchecked primitives are `unsafe fn`s whose
//! contracts the `// SAFETY:` notes at their call sites discharge from
//! those invariants. Debug builds also assert every index.

use crate::problem::Problem;

/// Problems with more primary items than this keep the bit sets that find
/// forced moves and dead ends; for smaller ones a scan of the active items
/// costs less than keeping them.
pub(crate) const TRACK_ITEMS: usize = 128;

/// "No node".
pub(crate) const NONE: u32 = u32::MAX;

/// The option lengths that have a walk of their own (see [`Sets::fixed`]):
/// a problem whose options nearly all have one of these lengths lays them
/// out at a fixed stride, and the search is compiled for that length.
///
/// Measured on the xc bench (2026-11-23, BENCHMARKS.md): length 3
/// (Langford pairs) 0.85x the general walks' time and 6 (pentominoes)
/// 0.84x, but 4 (queens) 1.05x and 5 (the Sudoku XCC instance) 1.03x, so
/// those two keep the general walks.
pub(crate) const FIXED_LENGTHS: [u32; 2] = [3, 6];

/// The `item` field of a spacer node has this bit set; the other bits are
/// the index of the option the spacer ends.
const SPACER: u32 = 1 << 31;

/// A trail entry with this bit set in its item means "mark the secondary
/// item unpurified again".
const PURIFIED: u32 = 1 << 31;

/// An option node: its item and its location in the item's set (relative to
/// the item's base). A spacer has `item = SPACER | option` and `loc` = the
/// option's first node.
#[derive(Clone, Copy, Debug, Default)]
#[repr(C)]
struct Node {
    item: u32,
    loc: u32,
}

/// What the search keeps per item, in one record (16 bytes).
#[derive(Clone, Copy, Debug, Default)]
#[repr(C, align(16))]
struct ItemRec {
    /// Number of active options.
    size: u32,
    /// Start of the item's slice of `set`.
    base: u32,
    /// The step in which `size` was last saved on the trail.
    stamp: u32,
    /// 1 when a secondary item was purified by a coloured option.
    purified: u32,
}

/// The dancing-cells structure of one problem.
///
/// # Invariants
///
/// The unchecked indexing relies on these, which [`load`](Self::load)
/// establishes (building every array before the structure exists) and
/// every method keeps; the fields they involve are private. Write `n` for
/// the number of items (`items.len()`) and `cap(i)` for the number of
/// option nodes of item `i`.
///
/// 1. *Nodes.* `nodes` is a run of options, each some *option nodes*
///    (`item < n`, no `SPACER` bit) followed by a spacer (`SPACER` bit set)
///    whose `loc` is the option's first node (and, at a fixed stride,
///    copies of the spacer: invariant 6). So an option node `x` has
///    `x + 1 < nodes.len()`, and walking right from it meets only nodes of
///    its option up to the spacer. Only `load` writes `item` and the
///    spacers' `loc`.
/// 2. *Slices.* Item `i` owns `set[base .. base + cap(i)]`, inside `set`,
///    and every entry of it is an option node of item `i`. (Only `Hot::remove`
///    writes `set`, moving entries within one slice.) `base` is never written
///    after `load`.
/// 3. *Sizes and locations.* Every item's `size`, and every size saved on
///    the trail, is at most `cap(i)`; every option node's `loc` is below
///    `cap` of its item.
/// 4. *Bits.* `small`, `zero` and `active` have a bit per item.
/// 5. *Trail room.* A [`Hot`] exists only within a *step*: one call of
///    [`cover_chosen`](Self::cover_chosen) or [`apply`](Self::apply),
///    which begin with `new_step`, reserving room on `trail` for `2 n`
///    entries (the stamped trail) or `nodes.len() + n` (a trail entry per
///    removal, [`TrailStyle::EachRemoval`]). A stamped step pushes at most
///    one size per item (`Hot::remove` saves a size only when the item's
///    `stamp` is not the step's `epoch`, and then sets it); a step of the
///    other style pushes one size per removal, and removes each option
///    node at most once (a removed node is inactive until the step is
///    undone). Either pushes at most one purification per item
///    (`Hot::purify` only when the item's `purified` mark is 0, and then
///    sets it; only `restore`, between steps, clears it), so the room
///    never runs out.
/// 6. *Fixed stride.* When `fixed` is `L > 0`, `fixed_end <= nodes.len()`
///    is a multiple of `S = stride(L)` and every node `y < fixed_end`
///    belongs to a run of `S` nodes starting at `y - y % S` (a power of
///    two: `y & !(S - 1)`): an option of exactly `L` option nodes, its
///    spacer, and copies of the spacer (same `item` and `loc`). (Only
///    `load` lays the nodes out; `fixed` and `fixed_end` are never written
///    after it.)
#[derive(Clone, Debug)]
pub(crate) struct Sets {
    nodes: Vec<Node>,
    /// Colour of each node (0 = none); empty for problems without colours.
    colour: Vec<u32>,
    /// Every item's set of option nodes, item after item.
    set: Vec<u32>,
    /// Per item: size, base, stamp, purified mark.
    items: Vec<ItemRec>,
    /// Active primary items: `pact[..np]`; `ppos[i]` is `i`'s position
    /// (`ppos` has an entry per item; a secondary item's is `NONE`, so
    /// `ppos[i] < np` says "an active primary item" for every item).
    pact: Vec<u32>,
    ppos: Vec<u32>,
    /// Number of active primary items.
    pub np: u32,
    /// Whether `small` and `active` are kept (problems with more than
    /// [`TRACK_ITEMS`] primary items), so that MRV finds a dead end or a
    /// forced move without scanning every active item.
    pub track: bool,
    /// Bit `i` set exactly when item `i` has at most one active option
    /// (kept with `track`: removals set it, [`restore`](Self::restore)
    /// writes it with the size it restores).
    small: Vec<u64>,
    /// Bit `i` set exactly when item `i` has no active option (kept as
    /// `small` is, while [`zero_bits`](Self::zero_bits) is on).
    zero: Vec<u64>,
    /// Whether `zero` is kept. A pruned search turns it off: there an
    /// active primary item is left with no option only by the root or by
    /// [`cover_chosen`](Self::cover_chosen) (a step of
    /// [`apply`](Self::apply) that does it is abandoned), which reports it,
    /// and [`min_item`](Self::min_item) then looks for it in the sizes.
    /// [`reset`](Self::reset) writes the bits again from the sizes.
    pub zero_bits: bool,
    /// Bit `i` set when primary item `i` is active (with `track`).
    active: Vec<u64>,
    /// Number of primary items.
    n1: u32,
    /// The common length `L` of the options laid out at a fixed stride
    /// (one of [`FIXED_LENGTHS`]), or 0. When it is not 0, the nodes below
    /// [`fixed_end`](Self::fixed_end) are options of exactly `L` option
    /// nodes, a spacer and copies of it each, [`stride`]`(L)` nodes apart
    /// (a power of two), so that the option of a node `y` there starts at
    /// `y & !(stride - 1)` and a walk over it has a trip count known before
    /// any node is read; the options of other lengths follow them.
    pub fixed: u32,
    /// The end of the options of length [`fixed`](Self::fixed) (0 when it
    /// is 0).
    fixed_end: u32,
    /// (item, old size) pairs, or (`PURIFIED | item`, 0).
    trail: Vec<(u32, u32)>,
    /// Current step, for `stamp`.
    epoch: u32,
    /// Whether any option gives a secondary item a colour.
    pub coloured: bool,
    /// The number of redundant secondary items dropped at load
    /// ([`drop_redundant`]).
    pub dropped: u32,
    /// The options chosen at load by the root's forced moves
    /// ([`absorb_forced`]), the problem's indices, in the order chosen:
    /// part of every solution.
    pub forced: Vec<u32>,
    /// Sparse-set removals performed (this engine's "updates").
    pub updates: u64,
    /// Memory accesses counted as Knuth counts "mems" (what is counted:
    /// the docs of [`Cells`](crate::Cells)).
    pub mems: u64,
}

/// Builds a [`Sets`] option by option, straight into its node array (the
/// parser feeds it as it reads: no [`Problem`] beside it).
#[derive(Debug)]
pub(crate) struct Loader {
    /// The engine's number of each item of the problem (primary items
    /// first).
    to_engine: Vec<u32>,
    n1: usize,
    nodes: Vec<Node>,
    /// Empty until some option gives a colour ([`colour_from`](Self::colour_from)).
    colour: Vec<u32>,
    coloured: bool,
    size: Vec<u32>,
    options: u32,
}

impl Loader {
    /// For items that are secondary or not, in the problem's order.
    pub fn new(secondary: impl ExactSizeIterator<Item = bool> + Clone) -> Loader {
        let n = secondary.len();
        let n1 = secondary.clone().filter(|&s| !s).count();
        let (mut np, mut ns) = (0u32, n1 as u32);
        let to_engine = secondary
            .map(|s| {
                let slot = if s { &mut ns } else { &mut np };
                *slot += 1;
                *slot - 1
            })
            .collect();
        Loader {
            to_engine,
            n1,
            nodes: Vec::new(),
            colour: Vec::new(),
            coloured: false,
            size: vec![0; n],
            options: 0,
        }
    }

    /// Room for `nodes` more nodes (option nodes and spacers).
    pub fn reserve(&mut self, nodes: usize) {
        self.nodes.reserve_exact(nodes);
    }

    /// Keep colours from now on (the nodes so far have none).
    fn keep_colours(&mut self) {
        if !self.coloured {
            self.coloured = true;
            self.colour = vec![0; self.nodes.len()];
        }
    }

    /// Nodes so far (for the caller's size check).
    pub fn node_count(&self) -> usize {
        self.nodes.len()
    }

    /// Append an option: its (item, colour) pairs, items as the problem
    /// numbers them (in range and not repeated: the caller's checks), a
    /// colour of 0 for none.
    pub fn option(&mut self, entries: impl Iterator<Item = (u32, u32)>) {
        let first = self.nodes.len() as u32;
        for (item, c) in entries {
            let i = self.to_engine[item as usize];
            self.size[i as usize] += 1;
            if c != 0 && !self.coloured {
                // zeros for the nodes before this one
                self.keep_colours();
            }
            self.nodes.push(Node { item: i, loc: 0 });
            if self.coloured {
                self.colour.push(c);
            }
        }
        self.nodes.push(Node {
            item: SPACER | self.options,
            loc: first,
        });
        if self.coloured {
            self.colour.push(0);
        }
        self.options += 1;
    }

    /// The structure (see [`Sets::load`] for `seed` and `reduce`).
    pub fn finish(mut self, seed: Option<u64>, reduce: bool) -> Sets {
        let (mut forced, mut n1, mut dropped) = (Vec::new(), self.n1 as u32, 0);
        if reduce {
            (forced, n1) = absorb_forced(&mut self.nodes, &mut self.colour, &mut self.size, n1);
            dropped = drop_redundant(&mut self.nodes, &mut self.colour, &mut self.size, n1);
            if self.colour.iter().all(|&c| c == 0) {
                // no colour left: a problem without colours
                self.colour = Vec::new();
            }
        }
        self.nodes.shrink_to_fit();
        self.colour.shrink_to_fit();
        let mut sets = Sets::from_nodes(self.nodes, self.colour, self.size, n1 as usize, seed);
        sets.dropped = dropped;
        sets.forced = forced;
        sets
    }
}

/// The stride of options of `len` nodes laid out at a fixed stride: the
/// option's nodes, its spacer, and copies of the spacer up to a power of
/// two, so that a node's place in its option is a mask of its index.
pub(crate) const fn stride(len: u32) -> u32 {
    (len + 1).next_power_of_two()
}

/// Lay the options of one length out first, at a fixed stride
/// ([`stride`]), when nearly all options have that length and it is one
/// of [`FIXED_LENGTHS`] (at most one option in 16 of another length):
/// returns the length (0 for none) and the end of those options in
/// `nodes`. The options keep their indices (in their spacers) and their
/// order within each of the two groups; the others follow, in order.
/// `colour` (empty or a colour per node) moves with the nodes.
fn lay_out_fixed(nodes: &mut Vec<Node>, colour: &mut Vec<u32>) -> (u32, u32) {
    let mut count = [0usize; FIXED_LENGTHS.len()];
    let mut options = 0usize;
    let mut first = 0u32;
    for (x, nd) in nodes.iter().enumerate() {
        if nd.item & SPACER != 0 {
            let len = x as u32 - first;
            if let Some(k) = FIXED_LENGTHS.iter().position(|&l| l == len) {
                count[k] += 1;
            }
            options += 1;
            first = x as u32 + 1;
        }
    }
    let Some((k, &most)) = count
        .iter()
        .enumerate()
        .max_by_key(|&(k, &c)| (c, usize::MAX - k))
    else {
        return (0, 0);
    };
    if most == 0 || (options - most) * 16 > options {
        return (0, 0);
    }
    let len = FIXED_LENGTHS[k] as usize;
    let step = stride(len as u32) as usize;
    let coloured = !colour.is_empty();
    let total = most * step + (nodes.len() - most * (len + 1));
    let mut out = Vec::with_capacity(total);
    let mut out_colour = Vec::with_capacity(if coloured { total } else { 0 });
    // the options of length `len` first, then the others
    for pass in [true, false] {
        let mut from = 0;
        for x in 0..nodes.len() {
            if nodes[x].item & SPACER == 0 {
                continue;
            }
            if (x - from == len) == pass {
                let at = out.len() as u32;
                out.extend_from_slice(&nodes[from..=x]);
                if coloured {
                    out_colour.extend_from_slice(&colour[from..=x]);
                }
                let spacer = Node {
                    item: nodes[x].item,
                    loc: at,
                };
                *out.last_mut().expect("a spacer") = spacer;
                if pass {
                    // copies of the spacer up to the stride
                    out.resize(at as usize + step, spacer);
                    if coloured {
                        out_colour.resize(at as usize + step, 0);
                    }
                }
            }
            from = x + 1;
        }
    }
    let fixed_end = (most * step) as u32;
    *nodes = out;
    *colour = out_colour;
    (len as u32, fixed_end)
}

/// Take the forced moves of the root at load: while some primary item is
/// in exactly one option, that option is in every solution, so it is
/// chosen here once and for all (as the search's first nodes would choose
/// it): every other option that shares a primary item or an uncoloured
/// secondary item with it, or gives one of its secondary items another
/// colour, goes (which may force further options), and its items go from
/// the problem (its primary items are covered; its secondary items can no
/// longer constrain the options left, which agree with it). Knuth's
/// programs take these moves as the first nodes of their search.
///
/// Returns the problem's indices of the options chosen, in the order
/// chosen, and the new number of primary items: the items are numbered
/// again, the primary items left first (in their order), then the
/// secondary items, then the covered primary items as secondary items
/// with no option. The options left keep their indices (in their
/// spacers). Nothing changes (and nothing is returned) when some primary
/// item has no option at load or would be left with none: then the problem
/// has no solution, which the search finds at its root as before.
fn absorb_forced(
    nodes: &mut Vec<Node>,
    colour: &mut Vec<u32>,
    size: &mut Vec<u32>,
    n1: u32,
) -> (Vec<u32>, u32) {
    let n1u = n1 as usize;
    if !size[..n1u].contains(&1) || size[..n1u].contains(&0) {
        return (Vec::new(), n1);
    }
    let n = size.len();
    // runs: the options in node order (start of each, end = its spacer)
    let mut starts = Vec::new();
    let mut run_of = vec![0u32; nodes.len()];
    let mut from = 0usize;
    for x in 0..nodes.len() {
        run_of[x] = starts.len() as u32;
        if nodes[x].item & SPACER != 0 {
            starts.push(from as u32);
            from = x + 1;
        }
    }
    starts.push(nodes.len() as u32);
    let runs = starts.len() - 1;
    // each item's option nodes
    let mut off = vec![0u32; n + 1];
    for k in 0..n {
        off[k + 1] = off[k] + size[k];
    }
    let mut fill = off.clone();
    let mut of_item = vec![0u32; off[n] as usize];
    for (x, nd) in nodes.iter().enumerate() {
        if nd.item & SPACER == 0 {
            let i = nd.item as usize;
            of_item[fill[i] as usize] = x as u32;
            fill[i] += 1;
        }
    }
    drop(fill);
    let mut live = vec![true; runs];
    let mut count = size.clone();
    let mut done = vec![false; n];
    // the forced items, least first: the order in which MRV (ties to
    // the first item) would take them, so the options chosen come in the
    // search's order
    let mut queue: std::collections::BinaryHeap<std::cmp::Reverse<u32>> = (0..n1)
        .filter(|&i| size[i as usize] == 1)
        .map(std::cmp::Reverse)
        .collect();
    let mut chosen: Vec<u32> = Vec::new();
    let col = |x: usize, colour: &[u32]| if colour.is_empty() { 0 } else { colour[x] };
    // take option run `r` out: returns false when a primary item still to
    // cover is left with no option
    let kill = |r: usize,
                live: &mut [bool],
                count: &mut [u32],
                done: &[bool],
                queue: &mut std::collections::BinaryHeap<std::cmp::Reverse<u32>>,
                nodes: &[Node]|
     -> bool {
        live[r] = false;
        let mut ok = true;
        for nd in &nodes[starts[r] as usize..starts[r + 1] as usize - 1] {
            let t = nd.item as usize;
            count[t] -= 1;
            if t < n1u && !done[t] {
                match count[t] {
                    0 => ok = false,
                    1 => queue.push(std::cmp::Reverse(t as u32)),
                    _ => {}
                }
            }
        }
        ok
    };
    while let Some(std::cmp::Reverse(i)) = queue.pop() {
        let i = i as usize;
        if done[i] || count[i] != 1 {
            continue;
        }
        let Some(r) = of_item[off[i] as usize..off[i + 1] as usize]
            .iter()
            .map(|&x| run_of[x as usize] as usize)
            .find(|&r| live[r])
        else {
            return (Vec::new(), n1);
        };
        let (a, b) = (starts[r] as usize, starts[r + 1] as usize - 1);
        chosen.push(r as u32);
        for x in a..b {
            done[nodes[x].item as usize] = true;
        }
        live[r] = false;
        for x in a..b {
            let j = nodes[x].item as usize;
            count[j] -= 1;
            let c = if j < n1u { 0 } else { col(x, colour) };
            for &y in &of_item[off[j] as usize..off[j + 1] as usize] {
                let o = run_of[y as usize] as usize;
                if live[o]
                    && (c == 0 || col(y as usize, colour) != c)
                    && !kill(o, &mut live, &mut count, &done, &mut queue, nodes)
                {
                    return (Vec::new(), n1);
                }
            }
        }
    }
    if chosen.is_empty() {
        return (Vec::new(), n1);
    }
    // the problem's indices of the options chosen
    let forced = chosen
        .iter()
        .map(|&r| nodes[starts[r as usize + 1] as usize - 1].item & !SPACER)
        .collect();
    // the items numbered again
    let mut map = vec![0u32; n];
    let mut next = 0u32;
    for pass in 0..3 {
        for i in 0..n {
            let take = match pass {
                0 => i < n1u && !done[i],
                1 => i >= n1u,
                _ => i < n1u && done[i],
            };
            if take {
                map[i] = next;
                next += 1;
            }
        }
    }
    let new_n1 = (0..n1u).filter(|&i| !done[i]).count() as u32;
    // the options left, without the items gone
    compact(
        nodes,
        colour,
        |r| live[r],
        |i| (!done[i as usize]).then(|| map[i as usize]),
    );
    let mut new_size = vec![0u32; n];
    for nd in nodes.iter().filter(|nd| nd.item & SPACER == 0) {
        new_size[nd.item as usize] += 1;
    }
    *size = new_size;
    (forced, new_n1)
}

/// How many of an option's primary items [`drop_redundant`] keeps as the
/// candidates for a secondary item's shared primary item (the first ones
/// of the item's first option): bounded, so that the reduction takes time
/// linear in the nodes whatever the options' lengths.
const SHARED_CANDIDATES: usize = 8;

/// Drop every *redundant* secondary item from the options: one in at most
/// one option, or whose options all contain one primary item (which a
/// solution covers exactly once, so at most one option of the item is in
/// any solution, and the item never constrains anything). Its nodes are
/// taken out of `nodes` (and `colour`), its size set to 0; an option left
/// with no node is an empty run (a spacer), which no item lists and so no
/// search ever tries (it had no primary item, so it was in no solution).
/// Returns the number of items dropped.
///
/// Exact: the options and the items' sets are the same but for the dropped
/// items, whose only effect in the search was to hide options of the item
/// covered by the same step anyway (covering the shared primary item hides
/// every other option of the secondary item first: the search's tree,
/// nodes, guesses and solutions are the same, and only the removals of
/// the dropped nodes go). A solution's colour for a dropped item is the
/// colour its one option there gives it, as before.
///
/// The shared primary item is looked for among the first
/// [`SHARED_CANDIDATES`] primary items of the secondary item's first
/// option, each option of it striking the candidates it lacks (an item
/// whose shared primary item is not among those is kept: a reduction
/// missed, never a wrong one): time linear in the nodes.
fn drop_redundant(nodes: &mut Vec<Node>, colour: &mut Vec<u32>, size: &mut [u32], n1: u32) -> u32 {
    let n = size.len();
    let n1u = n1 as usize;
    if n == n1u {
        return 0;
    }
    const K: usize = SHARED_CANDIDATES;
    // per secondary item: candidates (NONE: struck or none), and whether
    // its first option was met
    let mut cand = vec![NONE; (n - n1u) * K];
    let mut seen = vec![false; n - n1u];
    // per primary item: the last option (+ 1) containing it
    let mut mark = vec![0u32; n1u];
    let mut from = 0usize;
    let mut option = 0u32;
    for x in 0..nodes.len() {
        if nodes[x].item & SPACER == 0 {
            continue;
        }
        option += 1;
        let mut prims = [NONE; K];
        let mut k = 0;
        for nd in &nodes[from..x] {
            if nd.item < n1 {
                mark[nd.item as usize] = option;
                if k < K {
                    prims[k] = nd.item;
                    k += 1;
                }
            }
        }
        for nd in &nodes[from..x] {
            if nd.item >= n1 {
                let j = (nd.item - n1) as usize;
                let c = &mut cand[j * K..(j + 1) * K];
                if !seen[j] {
                    seen[j] = true;
                    c.copy_from_slice(&prims);
                } else {
                    for p in c.iter_mut() {
                        if *p != NONE && mark[*p as usize] != option {
                            *p = NONE;
                        }
                    }
                }
            }
        }
        from = x + 1;
    }
    let gone: Vec<bool> = (0..n - n1u)
        .map(|j| {
            // (an item in no option has nothing to drop)
            size[n1u + j] == 1
                || size[n1u + j] > 1 && cand[j * K..(j + 1) * K].iter().any(|&p| p != NONE)
        })
        .collect();
    let dropped = gone.iter().filter(|&&d| d).count() as u32;
    if dropped == 0 {
        return 0;
    }
    drop(cand);
    compact(
        nodes,
        colour,
        |_| true,
        |i| (i < n1 || !gone[(i - n1) as usize]).then_some(i),
    );
    for (j, &d) in gone.iter().enumerate() {
        if d {
            size[n1u + j] = 0;
        }
    }
    dropped
}

/// Rewrite the options in place, colours moving with their nodes: the
/// options `k` (in node order) with `live(k)` false go, and each option
/// node of item `i` becomes one of item `item(i)`, or goes when that is
/// `None`; every spacer is kept (with a live option) and points at its
/// option's new first node. The option nodes' `loc` are left for the
/// layout to set.
fn compact(
    nodes: &mut Vec<Node>,
    colour: &mut Vec<u32>,
    mut live: impl FnMut(usize) -> bool,
    mut item: impl FnMut(u32) -> Option<u32>,
) {
    let coloured = !colour.is_empty();
    let (mut w, mut first, mut option) = (0usize, 0usize, 0usize);
    let mut keep = !nodes.is_empty() && live(0);
    for x in 0..nodes.len() {
        let nd = nodes[x];
        let spacer = nd.item & SPACER != 0;
        if keep {
            let kept = if spacer {
                Some(Node {
                    item: nd.item,
                    loc: first as u32,
                })
            } else {
                item(nd.item).map(|i| Node { item: i, loc: 0 })
            };
            if let Some(node) = kept {
                nodes[w] = node;
                if coloured {
                    colour[w] = colour[x];
                }
                w += 1;
            }
        }
        if spacer {
            option += 1;
            first = w;
            if x + 1 < nodes.len() {
                keep = live(option);
            }
        }
    }
    nodes.truncate(w);
    if coloured {
        colour.truncate(w);
    }
}

/// Put each option's primary items before its secondary items (each
/// group in the problem's order), moving the colours with the nodes:
/// the layout of problems with colours, where [`Sets::apply`] covers an
/// option's primary items first and then its secondary items, so that a
/// walk over the option meets them in two runs of known kind.
fn primaries_first(nodes: &mut [Node], colour: &mut [u32], n1: u32) {
    let mut buf: Vec<(Node, u32)> = Vec::new();
    let mut from = 0;
    for x in 0..nodes.len() {
        if nodes[x].item & SPACER == 0 {
            continue;
        }
        let run = from..x;
        // already in order: the usual case (nothing to move)
        let secondary_first = nodes[run.clone()]
            .windows(2)
            .any(|w| w[0].item >= n1 && w[1].item < n1);
        if secondary_first {
            buf.clear();
            for pass in [true, false] {
                buf.extend(
                    run.clone()
                        .filter(|&y| (nodes[y].item < n1) == pass)
                        .map(|y| (nodes[y], colour[y])),
                );
            }
            for (y, &(nd, c)) in run.zip(&buf) {
                nodes[y] = nd;
                colour[y] = c;
            }
        }
        from = x + 1;
    }
}

impl Sets {
    /// Lay out `p`. With a seed, each item's set starts in a random order
    /// (the options are entered in a shuffled order). With `reduce`, the
    /// redundant secondary items are dropped first ([`drop_redundant`]), after the root's forced moves are taken ([`absorb_forced`]).
    pub fn load(p: &Problem, seed: Option<u64>, reduce: bool) -> Sets {
        let items = p.items();
        let mut loader = Loader::new(items.iter().map(|it| it.is_secondary()));
        let (entries, starts) = p.raw_parts();
        loader.reserve(entries.len() + starts.len() - 1);
        for w in starts.windows(2) {
            loader.option(
                entries[w[0] as usize..w[1] as usize]
                    .iter()
                    .map(|e| (e.item, e.colour)),
            );
        }
        loader.finish(seed, reduce)
    }

    /// The structure of the options `nodes` (with their items' sizes,
    /// their colours if any, and `n1` primary items): lay out the sets.
    fn from_nodes(
        mut nodes: Vec<Node>,
        mut colour: Vec<u32>,
        size: Vec<u32>,
        n1: usize,
        seed: Option<u64>,
    ) -> Sets {
        if !colour.is_empty() {
            primaries_first(&mut nodes, &mut colour, n1 as u32);
        }
        let (fixed, fixed_end) = lay_out_fixed(&mut nodes, &mut colour);
        let n = size.len();
        let coloured = !colour.is_empty();
        let mut base = Vec::with_capacity(n);
        let mut total = 0u32;
        for &s in &size {
            base.push(total);
            total += s;
        }
        let mut set = vec![0u32; total as usize];
        let mut fill = vec![0u32; n];
        // enter option node `x` and the rest of its option in the sets;
        // returns the option's spacer
        let mut enter = |mut x: u32, nodes: &mut [Node]| {
            while nodes[x as usize].item & SPACER == 0 {
                let i = nodes[x as usize].item as usize;
                let loc = fill[i];
                fill[i] += 1;
                set[(base[i] + loc) as usize] = x;
                nodes[x as usize].loc = loc;
                x += 1;
            }
            x
        };
        // each option's first node, by the option's index (the spacers
        // of the options at a fixed stride have copies; `NONE` for the
        // options the reduction at load took out)
        let first_nodes = |nodes: &[Node]| {
            let options = nodes
                .iter()
                .filter(|nd| nd.item & SPACER != 0)
                .map(|nd| (nd.item & !SPACER) + 1)
                .max()
                .unwrap_or(0);
            let mut first = vec![NONE; options as usize];
            for nd in nodes.iter().filter(|nd| nd.item & SPACER != 0) {
                first[(nd.item & !SPACER) as usize] = nd.loc;
            }
            first
        };
        if let Some(seed) = seed {
            // the options in a shuffled order
            let first_node = first_nodes(&nodes);
            let mut order: Vec<u32> = (0..first_node.len() as u32).collect();
            let mut rng = crate::SplitMix64::new(seed ^ 0x9E37_79B9_7F4A_7C15);
            for k in (1..order.len()).rev() {
                let j = (rng.next_u64() % (k as u64 + 1)) as usize;
                order.swap(k, j);
            }
            for &k in &order {
                if first_node[k as usize] != NONE {
                    enter(first_node[k as usize], &mut nodes);
                }
            }
        } else if fixed != 0 {
            // in the options' order (the sets list the options as they
            // came, wherever the layout put them)
            for x in first_nodes(&nodes) {
                if x != NONE {
                    enter(x, &mut nodes);
                }
            }
        } else {
            // in order: no table of first nodes or order is needed (less
            // memory)
            let mut x = 0;
            while (x as usize) < nodes.len() {
                x = enter(x, &mut nodes) + 1;
            }
        }
        let items = size
            .iter()
            .zip(&base)
            .map(|(&size, &base)| ItemRec {
                size,
                base,
                stamp: 0,
                purified: 0,
            })
            .collect();
        let words = n.div_ceil(64);
        let mut small = vec![0u64; words];
        let mut zero = vec![0u64; words];
        let mut active = vec![0u64; words];
        for (i, &s) in size.iter().enumerate() {
            small[i / 64] |= ((s <= 1) as u64) << (i % 64);
            zero[i / 64] |= ((s == 0) as u64) << (i % 64);
            active[i / 64] |= ((i < n1) as u64) << (i % 64);
        }
        Sets {
            nodes,
            colour,
            set,
            items,
            pact: (0..n1 as u32).collect(),
            ppos: (0..n as u32)
                .map(|i| if (i as usize) < n1 { i } else { NONE })
                .collect(),
            np: n1 as u32,
            track: n1 > TRACK_ITEMS,
            small,
            zero,
            zero_bits: true,
            active,
            n1: n1 as u32,
            fixed,
            fixed_end,
            trail: Vec::new(),
            epoch: 1,
            coloured,
            dropped: 0,
            forced: Vec::new(),
            updates: 0,
            mems: 0,
        }
    }

    pub fn bytes(&self) -> u64 {
        (self.nodes.capacity() * std::mem::size_of::<Node>()
            + self.items.capacity() * std::mem::size_of::<ItemRec>()
            + (self.colour.capacity()
                + self.set.capacity()
                + self.pact.capacity()
                + self.ppos.capacity())
                * 4
            + (self.small.capacity() + self.zero.capacity() + self.active.capacity()) * 8
            + self.trail.capacity() * 8) as u64
    }

    /// Undo everything: every item and option active again.
    pub fn reset(&mut self) {
        self.restore::<true, true, false>(0);
        self.reactivate(self.n1);
        // exact again whether the last search kept them or not
        for (i, it) in self.items.iter().enumerate() {
            let (w, b) = (i / 64, i % 64);
            self.small[w] = (self.small[w] & !(1 << b)) | ((it.size <= 1) as u64) << b;
            self.zero[w] = (self.zero[w] & !(1 << b)) | ((it.size == 0) as u64) << b;
        }
        self.updates = 0;
        self.mems = 0;
    }

    /// Start the step count at `epoch` with every stamp at `stamp`
    /// (tests of the wrap-around).
    #[cfg(test)]
    pub fn set_epoch(&mut self, epoch: u32, stamp: u32) {
        self.epoch = epoch;
        for it in &mut self.items {
            it.stamp = stamp;
        }
    }

    /// The number of option nodes (the sum of the items' set sizes) and
    /// of items.
    pub fn shape(&self) -> (usize, usize) {
        (self.set.len(), self.items.len())
    }

    pub fn trail_len(&self) -> u32 {
        self.trail.len() as u32
    }

    /// Pop the trail back to `mark`, restoring sizes and purified marks.
    /// `C`: the problem has colours (else the trail holds sizes only).
    ///
    /// `T`: keep the bits of `small` and `zero` exact (each size restored
    /// writes its item's bits, without a branch). Left stale, a bit costs
    /// [`min_item`](Self::min_item) a data-dependent turn of its bit walk
    /// (a mispredicted branch, measured on the Sudoku XCC instance) to
    /// clear it.
    #[inline]
    pub fn restore<const C: bool, const T: bool, const M: bool>(&mut self, mark: u32) {
        debug_assert!(C || !self.coloured);
        let items = &mut self.items[..];
        let small = &mut self.small[..];
        let zero = &mut self.zero[..];
        let mark = (mark as usize).min(self.trail.len());
        let zero_bits = self.zero_bits;
        if M {
            self.mems += 2 * (self.trail.len() - mark) as u64;
        }
        for &(i, s) in self.trail[mark..].iter().rev() {
            if C && i & PURIFIED != 0 {
                items[(i & !PURIFIED) as usize].purified = 0;
            } else {
                items[i as usize].size = s;
                if T {
                    let (w, b) = ((i / 64) as usize, i % 64);
                    small[w] = (small[w] & !(1 << b)) | ((s <= 1) as u64) << b;
                    if zero_bits {
                        zero[w] = (zero[w] & !(1 << b)) | ((s == 0) as u64) << b;
                    }
                }
            }
        }
        self.trail.truncate(mark);
    }

    /// Make the primary items deactivated since there were `np` active
    /// ones active again.
    #[inline]
    pub fn reactivate(&mut self, np: u32) {
        if self.track {
            for &i in &self.pact[self.np as usize..np as usize] {
                self.active[(i / 64) as usize] |= 1 << (i % 64);
            }
        }
        self.np = np;
    }

    #[inline]
    fn new_step<const E: bool>(&mut self) {
        if E {
            // a step saves a size per removal, and removes each option node
            // at most once (a removed node stays inactive until the step is
            // undone), and purifies each secondary item at most once
            self.trail.reserve(self.nodes.len() + self.items.len());
            return;
        }
        // a step saves each item's size at most once and purifies each
        // secondary item at most once: room for that many entries lets
        // `Hot::save` write without a capacity check
        self.trail.reserve(2 * self.items.len());
        self.epoch += 1;
        if self.epoch == u32::MAX {
            // no stamp may equal a future step: start the count again
            for it in &mut self.items {
                it.stamp = 0;
            }
            self.epoch = 1;
        }
    }

    /// The active primary item with the fewest active options (the first
    /// in order among ties), and its size.
    ///
    /// `maybe_zero`: without [`zero_bits`](Self::zero_bits), whether an
    /// active primary item may have no option (at the root, and after a
    /// [`cover_chosen`](Self::cover_chosen) that said so); when it is
    /// `false` there is none, and the bits of `small` mark items of size
    /// 1 only.
    #[inline]
    pub fn min_item<const M: bool>(&mut self, maybe_zero: bool) -> (u32, u32) {
        let items = &self.items[..];
        if self.track && !self.zero_bits {
            if maybe_zero {
                // seldom: a scan of the sizes
                if M {
                    self.mems += 2 * self.np as u64;
                }
                if let Some(&i) = self.pact[..self.np as usize]
                    .iter()
                    .filter(|&&i| items[i as usize].size == 0)
                    .min()
                {
                    return (i, 0);
                }
            }
        } else if self.track {
            // a dead end anywhere, else the first forced move, from the
            // bits: a find-first per word, no walk over the bits (whose
            // number varies from node to node: a mispredicted loop exit)
            for (w, (&z, &a)) in self.zero.iter().zip(&self.active).enumerate() {
                let m = z & a;
                if m != 0 {
                    // its size
                    if M {
                        self.mems += 1;
                    }
                    return (w as u32 * 64 + m.trailing_zeros(), 0);
                }
            }
        }
        if self.track {
            for (w, (&small, &a)) in self.small.iter().zip(&self.active).enumerate() {
                let m = small & a;
                if m != 0 {
                    let i = w as u32 * 64 + m.trailing_zeros();
                    debug_assert_eq!(items[i as usize].size, 1, "stale bits");
                    if M {
                        self.mems += 1;
                    }
                    return (i, 1);
                }
            }
        }
        // the exact minimum of (size, item) over the active items, without
        // branches; a dead end found early saves nothing worth a branch
        let mut best = u64::MAX;
        // pact[k] and items[i].size for each active item
        if M {
            self.mems += 2 * self.np as u64;
        }
        for &i in &self.pact[..self.np as usize] {
            let key = (items[i as usize].size as u64) << 32 | i as u64;
            best = best.min(key);
        }
        (best as u32, (best >> 32) as u32)
    }

    /// The first active primary item in order, and its size.
    #[inline]
    pub fn first_item<const M: bool>(&mut self) -> (u32, u32) {
        if M {
            self.mems += self.np as u64 + 1;
        }
        let i = *self.pact[..self.np as usize]
            .iter()
            .min()
            .expect("an active primary item");
        (i, self.items[i as usize].size)
    }

    /// Option node `pos` of item `i`'s set.
    #[inline]
    pub fn member<const M: bool>(&mut self, i: u32, pos: u32) -> u32 {
        if M {
            self.mems += 2;
        }
        self.set[(self.items[i as usize].base + pos) as usize]
    }

    /// The problem's index of the option containing node `x`.
    pub fn option_of(&self, mut x: u32) -> u32 {
        while self.nodes[x as usize].item & SPACER == 0 {
            x += 1;
        }
        self.nodes[x as usize].item & !SPACER
    }

    /// The arrays as separate slices, for the update loops; only within a
    /// step (invariant 5).
    ///
    /// `check`: watch for an active primary item left with no option (see
    /// [`apply`](Self::apply)).
    #[inline]
    fn hot(&mut self, check: bool) -> Hot<'_> {
        Hot {
            nodes: &mut self.nodes,
            set: &mut self.set,
            items: &mut self.items,
            trail: &mut self.trail,
            small: &mut self.small,
            zero: &mut self.zero,
            ppos: &self.ppos,
            fixed_end: self.fixed_end,
            zero_bits: self.zero_bits,
            watch: if check { self.np } else { 0 },
            dead: false,
            epoch: self.epoch,
            updates: 0,
            mems: 0,
        }
    }

    /// Remove primary item `i` from the active items.
    #[inline(always)]
    /// Six mems (a swap in the active list and its positions), which the
    /// callers count.
    fn deactivate<const T: bool>(&mut self, i: u32) {
        let (pact, ppos) = (&mut self.pact[..], &mut self.ppos[..]);
        let p = ppos[i as usize];
        if T {
            self.active[(i / 64) as usize] &= !(1 << (i % 64));
        }
        self.np -= 1;
        let last = pact[self.np as usize];
        pact[p as usize] = last;
        ppos[last as usize] = p;
        pact[self.np as usize] = i;
        ppos[i as usize] = self.np;
    }

    /// Cover primary item `i`, chosen to branch on: hide its options from
    /// every other item and make it inactive. Its own set stays as it is,
    /// so the options can be tried from it in turn.
    #[inline]
    ///
    /// `L`: [`fixed`](Self::fixed), or 0 for the general walks (always
    /// right).
    ///
    /// Returns whether it left another active primary item with no option,
    /// when the bits of `zero` are not kept (`T` without
    /// [`zero_bits`](Self::zero_bits)); else `false`.
    pub fn cover_chosen<const T: bool, const M: bool, const E: bool, const L: usize>(
        &mut self,
        i: u32,
    ) -> bool {
        debug_assert!(L == 0 || L as u32 == self.fixed);
        self.new_step::<E>();
        let mark = self.trail.len();
        let mut hot = self.hot(false);
        hot.hide_all::<T, false, M, E, L>(i, NONE);
        let (updates, mems) = (hot.updates, hot.mems);
        self.updates += updates;
        if M {
            self.mems += mems + 6;
        }
        // the items this step changed are on the trail (it purifies
        // nothing); `i`'s own set is not among them, and the others
        // hidden from are active (their options were live)
        let zeroed = T
            && !self.zero_bits
            && self.trail[mark..]
                .iter()
                .any(|&(j, _)| j < self.n1 && self.items[j as usize].size == 0);
        self.deactivate::<T>(i);
        zeroed
    }

    /// Branch on primary item `i`, which has a single option: make it
    /// inactive and leave its option where it is. [`apply`](Self::apply)
    /// then skips that option when it covers the option's other items, which
    /// spares hiding it only to restore it at once (Knuth's SSXCC treats
    /// forced moves specially too).
    #[inline]
    pub fn cover_forced<const T: bool, const M: bool>(&mut self, i: u32) {
        if M {
            self.mems += 6;
        }
        self.deactivate::<T>(i);
    }

    /// Choose the option of node `x` (in the item branched on, already
    /// covered by [`cover_chosen`](Self::cover_chosen) or
    /// [`cover_forced`](Self::cover_forced)): cover its other primary items,
    /// purify its secondary items.
    ///
    /// Every primary item of the option is made inactive first. With `P`
    /// (prune, Knuth's SSXCC rule), the covering then stops as soon as it leaves
    /// an active primary item with no option: then `apply` returns `false`
    /// and the choice is a dead end that the search need not enter (its
    /// changes are on the trail, for the caller to undo). Without `P`
    /// it always returns `true`, and such a dead end shows at the next node
    /// as an item with no option.
    #[inline]
    pub fn apply<
        const COLOURED: bool,
        const T: bool,
        const P: bool,
        const M: bool,
        const E: bool,
        const L: usize,
    >(
        &mut self,
        x: u32,
    ) -> bool {
        debug_assert!(L == 0 || L as u32 == self.fixed);
        // the mems are added up in a local (a register), not in `self`
        let mut mems = 0;
        let live = self.apply_counting::<COLOURED, T, P, M, E, L>(x, &mut mems);
        if M {
            self.mems += mems;
        }
        live
    }

    /// [`apply`](Self::apply), adding its mems to `mems`.
    #[inline(always)]
    fn apply_counting<
        const COLOURED: bool,
        const T: bool,
        const P: bool,
        const M: bool,
        const E: bool,
        const L: usize,
    >(
        &mut self,
        x: u32,
        mems: &mut u64,
    ) -> bool {
        self.new_step::<E>();
        let n1 = self.n1;
        // an option of `L` nodes at a fixed stride ([`Sets::fixed`]): its
        // other nodes are `first + (k + d) mod L` for `d` in `1..L`, the
        // order of the general walk (right of `x`, round to its start), in
        // unrolled loops
        let fixed = L > 0 && x < self.fixed_end;
        let k = if fixed { x & (stride(L as u32) - 1) } else { 0 };
        let first = x - k;
        let at = |d: u32| {
            let mut at = k + d;
            if at >= L as u32 {
                at -= L as u32;
            }
            first + at
        };
        // every primary item of the option inactive first (with `P`, so
        // that covering them watches only the items still to cover; without
        // it the order does not matter, as nothing reads the positions)
        // with colours (general walks): the option's primary items come
        // first in its layout ([`primaries_first`]), and `x` is one of
        // them, so its other primary items are `x + 1 .. sec` and
        // `start .. x`, its secondary items `sec .. end` (`end` its spacer)
        let (mut sec, mut start, mut end) = (0, 0, 0);
        if fixed {
            for d in 1..L as u32 {
                *mems += 1;
                let nd = self.nodes[at(d) as usize];
                if nd.item < n1 {
                    *mems += 6;
                    self.deactivate::<T>(nd.item);
                }
            }
        } else if COLOURED {
            debug_assert!(self.nodes[x as usize].item < n1, "a primary item's node");
            let mut w = x + 1;
            loop {
                *mems += 1;
                let nd = self.nodes[w as usize];
                if nd.item >= n1 {
                    break;
                }
                *mems += 6;
                self.deactivate::<T>(nd.item);
                w += 1;
            }
            sec = w;
            while self.nodes[w as usize].item & SPACER == 0 {
                *mems += 1;
                w += 1;
            }
            end = w;
            start = self.nodes[w as usize].loc;
            // `x` itself read too, as the loop below reads it
            *mems += (x - start + 1) as u64;
            for v in start..x {
                let j = self.nodes[v as usize].item;
                debug_assert!(j < n1, "primary items first");
                *mems += 6;
                self.deactivate::<T>(j);
            }
        } else {
            let mut w = x + 1;
            loop {
                *mems += 1;
                let nd = self.nodes[w as usize];
                if nd.item & SPACER != 0 {
                    w = nd.loc;
                    continue;
                }
                if w == x {
                    break;
                }
                if nd.item < n1 {
                    *mems += 6;
                    self.deactivate::<T>(nd.item);
                }
                w += 1;
            }
        }
        // one borrow of the arrays for the whole option (field by field, not `hot()`: `colour` is read beside it)
        let mut hot = Hot {
            nodes: &mut self.nodes,
            set: &mut self.set,
            items: &mut self.items,
            trail: &mut self.trail,
            small: &mut self.small,
            zero: &mut self.zero,
            ppos: &self.ppos,
            fixed_end: self.fixed_end,
            zero_bits: self.zero_bits,
            watch: if P { self.np } else { 0 },
            dead: false,
            epoch: self.epoch,
            updates: 0,
            mems: 0,
        };
        let colour = &self.colour[..];
        let live = if fixed && COLOURED {
            // the primary items first, then the secondary items (the order
            // of the general walks with colours, below)
            let mut live = true;
            'cover: for primary in [true, false] {
                for d in 1..L as u32 {
                    *mems += 1;
                    let w = at(d);
                    let j = hot.nodes[w as usize].item;
                    if (j < n1) == primary {
                        hot.cover_item::<COLOURED, T, P, M, E, L>(j, w, n1, colour, mems);
                        if P && hot.dead {
                            live = false;
                            break 'cover;
                        }
                    }
                }
            }
            live
        } else if fixed {
            let mut live = true;
            for d in 1..L as u32 {
                *mems += 1;
                let w = at(d);
                let j = hot.nodes[w as usize].item;
                hot.cover_item::<COLOURED, T, P, M, E, L>(j, w, n1, colour, mems);
                if P && hot.dead {
                    live = false;
                    break;
                }
            }
            live
        } else if COLOURED {
            // the other primary items (right of `x`, then from the start),
            // then the secondary items: no test of the item's kind
            let mut live = true;
            for w in (x + 1..sec).chain(start..x) {
                *mems += 1;
                let j = hot.nodes[w as usize].item;
                hot.hide_all::<T, P, M, E, L>(j, w);
                if P && hot.dead {
                    live = false;
                    break;
                }
            }
            if live {
                for w in sec..end {
                    *mems += 1;
                    let j = hot.nodes[w as usize].item;
                    hot.cover_item::<COLOURED, T, P, M, E, L>(j, w, n1, colour, mems);
                    if P && hot.dead {
                        live = false;
                        break;
                    }
                }
            }
            live
        } else {
            let mut w = x + 1;
            loop {
                *mems += 1;
                let nd = hot.nodes[w as usize];
                if nd.item & SPACER != 0 {
                    w = nd.loc;
                    continue;
                }
                if w == x {
                    break true;
                }
                hot.cover_item::<COLOURED, T, P, M, E, L>(nd.item, w, n1, colour, mems);
                if P && hot.dead {
                    break false;
                }
                w += 1;
            }
        };
        self.updates += hot.updates;
        *mems += hot.mems;
        live
    }
}

/// The arrays the update loops touch, borrowed as separate slices so that
/// the compiler knows a store into one leaves the others alone. Built only
/// by [`Sets`]' steps (invariant 5 on [`Sets`]), whose invariants the
/// `// SAFETY:` notes here refer to.
struct Hot<'a> {
    nodes: &'a mut [Node],
    set: &'a mut [u32],
    items: &'a mut [ItemRec],
    trail: &'a mut Vec<(u32, u32)>,
    small: &'a mut [u64],
    zero: &'a mut [u64],
    /// Positions of the items in the active primary list (`NONE` for
    /// secondary items), and how many are active while the step watches
    /// for dead ends (0 when it does not).
    ppos: &'a [u32],
    /// [`Sets::fixed_end`].
    fixed_end: u32,
    /// [`Sets::zero_bits`].
    zero_bits: bool,
    watch: u32,
    /// Set when a removal left an active primary item with no option (only
    /// while watching).
    dead: bool,
    epoch: u32,
    updates: u64,
    /// Mems counted (see [`Sets::mems`]).
    mems: u64,
}

impl Hot<'_> {
    /// # Safety
    ///
    /// `x < self.nodes.len()`.
    #[inline(always)]
    unsafe fn node(&self, x: u32) -> Node {
        debug_assert!((x as usize) < self.nodes.len());
        // SAFETY: in bounds by the caller's contract.
        unsafe { *self.nodes.get_unchecked(x as usize) }
    }

    /// # Safety
    ///
    /// `x` is an option node and `loc < cap` of its item (which keeps
    /// invariant 3).
    #[inline(always)]
    unsafe fn set_loc(&mut self, x: u32, loc: u32) {
        debug_assert!((x as usize) < self.nodes.len());
        // SAFETY: option nodes are nodes.
        unsafe { self.nodes.get_unchecked_mut(x as usize).loc = loc }
    }

    /// # Safety
    ///
    /// `i < self.items.len()`: an item.
    #[inline(always)]
    unsafe fn item(&mut self, i: u32) -> &mut ItemRec {
        debug_assert!((i as usize) < self.items.len());
        // SAFETY: in bounds by the caller's contract.
        unsafe { self.items.get_unchecked_mut(i as usize) }
    }

    /// # Safety
    ///
    /// `p < self.set.len()`.
    #[inline(always)]
    unsafe fn at(&self, p: u32) -> u32 {
        debug_assert!((p as usize) < self.set.len());
        // SAFETY: in bounds by the caller's contract.
        unsafe { *self.set.get_unchecked(p as usize) }
    }

    /// # Safety
    ///
    /// `p < self.set.len()`, in the slice of an item `i`, and `x` an
    /// option node of `i` (which keeps invariant 2).
    #[inline(always)]
    unsafe fn put(&mut self, p: u32, x: u32) {
        debug_assert!((p as usize) < self.set.len());
        // SAFETY: in bounds by the caller's contract.
        unsafe { *self.set.get_unchecked_mut(p as usize) = x }
    }

    /// Push `e` on the trail.
    ///
    /// # Safety
    ///
    /// The step has room for `e`: it is one of the entries invariant 5 on
    /// [`Sets`] counts (the first of its kind for its item in a stamped
    /// step, or one per removal).
    #[inline(always)]
    unsafe fn save(&mut self, e: (u32, u32)) {
        let len = self.trail.len();
        debug_assert!(len < self.trail.capacity());
        // SAFETY: `len < capacity` by invariant 5: the step reserved room
        // for every entry it can push, and this is one of them. The entry written is initialised
        // before `set_len` makes it part of the vector.
        unsafe {
            self.trail.as_mut_ptr().add(len).write(e);
            self.trail.set_len(len + 1);
        }
    }

    /// Remove node `w` from its item's set: swap it with the last active
    /// element and shrink the set, saving the size first if this step has
    /// not saved it yet.
    ///
    /// # Safety
    ///
    /// `w` is an option node and `nd` is `nodes[w]`.
    #[inline(always)]
    unsafe fn remove<const T: bool, const P: bool, const M: bool, const E: bool>(
        &mut self,
        w: u32,
        nd: Node,
    ) {
        let epoch = self.epoch;
        let i = nd.item;
        // SAFETY: `i`, the item of an option node, is an item (invariant 1).
        let rec = unsafe { self.item(i) };
        // A live node is active in its set (`loc < size`), so the set is
        // not empty; but that is the search's invariant, not this
        // module's. Saturating, `s < cap(i)` whatever the size: either
        // `s = size - 1 < size <= cap(i)` (invariant 3), or `size == 0`
        // and `s = 0 < cap(i)`, as `w` is an option node of `i`.
        debug_assert!(nd.loc < rec.size, "removing an inactive node");
        let s = rec.size.saturating_sub(1);
        let b = rec.base;
        rec.size = s;
        // the node read (by the caller), the record read, the size
        // written, set[b + s] read, two entries of `set` and two locations
        // written
        let mut mems = 8;
        if E {
            // the trail entry pushed
            mems += 1;
            // SAFETY: an entry per removal, and this removal takes an
            // active node out of its set, where it stays until the step
            // is undone: the step removes each option node at most once,
            // within the room it reserved (invariant 5). The size saved,
            // `s + 1`, is at most `cap(i)` (see above).
            unsafe { self.save((i, s + 1)) };
        } else if rec.stamp != epoch {
            rec.stamp = epoch;
            // the stamp written, the trail entry pushed
            mems += 2;
            // SAFETY: the first size this step saves for `i` (its stamp
            // was not the step's, and now is). The size saved, `s + 1`, is
            // at most `cap(i)` (see above).
            unsafe { self.save((i, s + 1)) };
        }
        // SAFETY: `s < cap(i)` (see above) and `nd.loc < cap(i)`
        // (invariant 3) are positions in `i`'s slice, inside `set`
        // (invariant 2), whose entries, such as `last`, are option nodes
        // of `i`, as is `w`; the stored locations `nd.loc` and `s` are
        // below `cap(i)`.
        unsafe {
            let last = self.at(b + s);
            self.put(b + nd.loc, last);
            self.set_loc(last, nd.loc);
            self.put(b + s, w);
            self.set_loc(w, s);
        }
        if M {
            self.mems += mems;
        }
        if P && s == 0 && self.ppos[i as usize] < self.watch {
            // an active primary item has no option left
            self.dead = true;
        }
        if T {
            debug_assert!(((i / 64) as usize) < self.small.len());
            // SAFETY: `i` is an item and `small` has a bit per item
            // (invariant 4).
            let word = unsafe { self.small.get_unchecked_mut((i / 64) as usize) };
            *word |= ((s <= 1) as u64) << (i % 64);
            if self.zero_bits {
                debug_assert_eq!(self.zero.len(), self.small.len());
                // SAFETY: as for `small`.
                let word = unsafe { self.zero.get_unchecked_mut((i / 64) as usize) };
                *word |= ((s == 0) as u64) << (i % 64);
            }
        }
    }

    /// Remove every node of `y`'s option but `y` itself from its item's set.
    /// Returns the number of nodes removed.
    ///
    /// # Safety
    ///
    /// `y` is an option node.
    #[inline(always)]
    unsafe fn hide<const T: bool, const P: bool, const M: bool, const E: bool, const L: usize>(
        &mut self,
        y: u32,
    ) -> u64 {
        if L > 0 && y < self.fixed_end {
            // an option of `L` nodes at a fixed stride ([`Sets::fixed`]):
            // the other `L - 1` nodes in the same order as below (right of
            // `y`, then from the start up to `y`), by arithmetic, each
            // place a select rather than a branch, in an unrolled loop
            let k = y & (stride(L as u32) - 1);
            let first = y - k;
            if M {
                self.mems += 1;
            }
            for d in 1..L as u32 {
                let mut at = k + d;
                if at >= L as u32 {
                    at -= L as u32;
                }
                let w = first + at;
                // SAFETY: `w` is a node of `y`'s option (invariant 6), an
                // option node (not its spacer, at `first + L`).
                unsafe {
                    let nd = self.node(w);
                    self.remove::<T, P, M, E>(w, nd);
                }
            }
            return L as u64 - 1;
        }
        // right of `y` up to the spacer, then from the option's start to
        // `y`: by invariant 1, every `w` below is a node of `y`'s option,
        // an option node where it has no `SPACER` bit
        let mut w = y + 1;
        let mut n = 0;
        // every node of the option but `y` is read, and the spacer
        if M {
            self.mems += 1;
        }
        loop {
            // SAFETY: a node of `y`'s option (see above).
            let nd = unsafe { self.node(w) };
            if nd.item & SPACER != 0 {
                n += (w - y - 1) as u64;
                w = nd.loc;
                break;
            }
            // SAFETY: an option node (see above).
            unsafe { self.remove::<T, P, M, E>(w, nd) };
            w += 1;
        }
        n += (y - w) as u64;
        while w != y {
            // SAFETY: `w` runs from the option's first node up to `y`:
            // option nodes (see above).
            unsafe {
                let nd = self.node(w);
                self.remove::<T, P, M, E>(w, nd);
            }
            w += 1;
        }
        n
    }

    /// Cover item `j` of option node `w` of the option being applied: a
    /// primary item, or (without colours) a secondary one, loses every
    /// other option; a coloured secondary item is purified (nothing when
    /// it is purified already). Adds the mems of the marks and colours read
    /// to `mems`.
    #[inline(always)]
    fn cover_item<
        const COLOURED: bool,
        const T: bool,
        const P: bool,
        const M: bool,
        const E: bool,
        const L: usize,
    >(
        &mut self,
        j: u32,
        w: u32,
        n1: u32,
        colour: &[u32],
        mems: &mut u64,
    ) {
        if !COLOURED || j < n1 {
            // a primary item, or (without colours) a secondary one: the
            // option is still live, so no other option has used j
            self.hide_all::<T, P, M, E, L>(j, w);
            return;
        }
        // no active option of `j` but this one: its set is empty, or holds
        // this option alone (at its first place; an option of the item
        // branched on is hidden from the others' sets, one of a forced
        // move is not)
        let size = self.items[j as usize].size;
        if size == 0 || (size == 1 && self.nodes[w as usize].loc == 0) {
            // the record and the node read: no other option of `j` is
            // left to hide, and no other live option contains `j` until
            // this step is undone, so purifying it would hide nothing and
            // its mark would never be read
            *mems += 2;
        } else if self.items[j as usize].purified == 0 {
            // the purified mark read, and the node's colour
            *mems += 2;
            let c = colour[w as usize];
            if c == 0 {
                self.hide_all::<T, P, M, E, L>(j, w);
            } else {
                self.purify::<T, P, M, E, L>(j, c, colour);
            }
        } else {
            // the purified mark read
            *mems += 1;
        }
    }

    /// Hide every active option of item `i` but the one of node `keep`
    /// from the other items. `i` must be an item (checked).
    #[inline(always)]
    fn hide_all<const T: bool, const P: bool, const M: bool, const E: bool, const L: usize>(
        &mut self,
        i: u32,
        keep: u32,
    ) {
        let ItemRec { size, base, .. } = self.items[i as usize];
        let mut n = 0;
        if M {
            self.mems += 1;
        }
        for p in base..base + size {
            // SAFETY: `p` is in `i`'s slice (`size <= cap(i)`, invariant
            // 3), inside `set`, whose entries are option nodes (invariant 2).
            unsafe {
                if M {
                    self.mems += 1;
                }
                let y = self.at(p);
                if y != keep {
                    n += self.hide::<T, P, M, E, L>(y);
                    if P && self.dead {
                        break;
                    }
                }
            }
        }
        self.updates += n;
    }

    /// Purify secondary item `j` for colour `c`: hide its options of other
    /// colours, and mark it so that later options of colour `c` skip it.
    /// `j` must be an item (checked); does nothing when `j` is purified
    /// already.
    #[inline]
    fn purify<const T: bool, const P: bool, const M: bool, const E: bool, const L: usize>(
        &mut self,
        j: u32,
        c: u32,
        colour: &[u32],
    ) {
        let rec = &mut self.items[j as usize];
        if rec.purified != 0 {
            return;
        }
        rec.purified = 1;
        let ItemRec { size, base, .. } = *rec;
        // SAFETY: the step's first purification of `j` (its mark was 0,
        // and now is 1).
        unsafe { self.save((PURIFIED | j, 0)) };
        // the record read and written, the trail entry pushed
        if M {
            self.mems += 3;
        }
        for p in base..base + size {
            // SAFETY: as in `hide_all`.
            unsafe {
                // the entry of `set` and the node's colour
                if M {
                    self.mems += 2;
                }
                let y = self.at(p);
                if colour[y as usize] != c {
                    let n = self.hide::<T, P, M, E, L>(y);
                    self.updates += n;
                    if P && self.dead {
                        break;
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::parse;

    const TOY: &str = "A B C | X\nA X:1\nB C X:1\nB\nC\nA B C\n";

    /// Assert invariants 1 to 4 listed on [`Sets`].
    fn check(s: &Sets) {
        let n = s.items.len();
        let mut cap = vec![0u32; n];
        let mut first = 0;
        for (x, nd) in s.nodes.iter().enumerate() {
            if nd.item & SPACER != 0 {
                // a spacer, or a copy of the one before it (invariant 6)
                if x == 0 || s.nodes[x - 1].item != nd.item {
                    assert_eq!(nd.loc as usize, first, "spacer {x}");
                }
                first = x + 1;
            } else {
                cap[nd.item as usize] += 1;
            }
        }
        assert_eq!(first, s.nodes.len(), "the last node is a spacer");
        if s.fixed == 0 {
            assert_eq!(s.fixed_end, 0);
        }
        let step = stride(s.fixed) as usize;
        assert_eq!(s.fixed_end as usize % step, 0);
        for y in 0..s.fixed_end as usize {
            let start = y & !(step - 1);
            let spacer = s.nodes[start + s.fixed as usize];
            assert!(spacer.item & SPACER != 0 && spacer.loc as usize == start);
            let k = y - start;
            if k < s.fixed as usize {
                assert_eq!(s.nodes[y].item & SPACER, 0);
            } else {
                assert_eq!((s.nodes[y].item, s.nodes[y].loc), (spacer.item, spacer.loc));
            }
        }
        for nd in s.nodes.iter().filter(|nd| nd.item & SPACER == 0) {
            assert!(nd.loc < cap[nd.item as usize]);
        }
        for (i, rec) in s.items.iter().enumerate() {
            let slice = &s.set[rec.base as usize..(rec.base + cap[i]) as usize];
            assert!(slice.iter().all(|&x| s.nodes[x as usize].item == i as u32));
            assert!(rec.size <= cap[i]);
        }
        for &(i, size) in &s.trail {
            if i & PURIFIED == 0 {
                assert!(size <= cap[i as usize]);
            }
        }
        assert_eq!(s.small.len(), n.div_ceil(64));
        assert_eq!(s.zero.len(), n.div_ceil(64));
        assert_eq!(s.active.len(), n.div_ceil(64));
    }

    /// The bit sets of a search that keeps them (`T`) are exact for every
    /// active primary item: `small` set exactly when it has at most one
    /// option, `zero` when it has none (when it keeps them: `zero_bits`),
    /// `active` when it is active.
    fn check_bits(s: &Sets) {
        for i in 0..s.n1 {
            let (w, b) = ((i / 64) as usize, i % 64);
            let on = s.ppos[i as usize] < s.np;
            assert_eq!(s.active[w] >> b & 1 == 1, on, "item {i}: active");
            if on {
                let size = s.items[i as usize].size;
                assert_eq!(s.small[w] >> b & 1 == 1, size <= 1, "item {i}: small");
                if s.zero_bits {
                    assert_eq!(s.zero[w] >> b & 1 == 1, size == 0, "item {i}: zero");
                }
            }
        }
    }

    /// A search step by step on a problem of more than [`TRACK_ITEMS`]
    /// primary items (a chain of 150 items, options covering two
    /// neighbours, every third item alone, and some three items apart, so
    /// that sizes go down to 1 and 0): after every step and every undoing, the bits are exact.
    /// Without the bits of `zero` (pruned steps only), an active primary
    /// item has no option only where the search looks for one: at the root
    /// and below a covering that reported it.
    #[test]
    fn bit_sets_stay_exact() {
        let n = 150;
        // and a triangle first: choosing one of its edges leaves the third
        // corner with no option
        let mut text = "t0 t1 t2 ".to_string();
        text.extend((0..n).map(|k| format!("i{k} ")));
        text.push_str("\nt0 t1\nt0 t2\nt1 t2\n");
        for k in 0..n {
            if k % 3 == 0 {
                text.push_str(&format!("i{k}\n"));
            }
            if k + 1 < n {
                text.push_str(&format!("i{k} i{}\n", k + 1));
            }
            if k % 4 == 1 && k + 5 < n {
                text.push_str(&format!("i{k} i{} i{}\n", k + 3, k + 5));
            }
        }
        let p = parse(&text).unwrap().problem;
        for zero_bits in [true, false] {
            let mut s = Sets::load(&p, None, false);
            s.zero_bits = zero_bits;
            assert!(s.track);
            check(&s);
            check_bits(&s);
            let mut met = [0; 3];
            walk(&mut s, 10, 0, &mut met, true);
            // (pruned steps leave no empty item unless a covering does)
            let from = if zero_bits { 0 } else { 1 };
            assert!(met[from..].iter().all(|&m| m > 0), "sizes met {met:?}");
        }
        // whether an active primary item has no option
        fn has_zero(s: &Sets) -> bool {
            s.pact[..s.np as usize]
                .iter()
                .any(|&i| s.items[i as usize].size == 0)
        }
        // depth-first over the first levels, every option in turn, pruning
        // or not (with the bits of `zero`), each trail style; counts the
        // sizes MRV met
        fn walk(s: &mut Sets, depth: usize, k: usize, met: &mut [u32; 3], maybe_zero: bool) {
            if depth == 0 || s.np == 0 {
                return;
            }
            if !maybe_zero && !s.zero_bits {
                assert!(!has_zero(s), "an empty item where none is looked for");
            }
            let (i, size) = s.min_item::<false>(maybe_zero);
            met[size.min(2) as usize] += 1;
            if size == 0 {
                return;
            }
            let (mark0, np0) = (s.trail_len(), s.np);
            let zeroed = if size == 1 {
                s.cover_forced::<true, false>(i);
                false
            } else if k % 2 == 0 {
                s.cover_chosen::<true, false, false, 0>(i)
            } else {
                s.cover_chosen::<true, false, true, 0>(i)
            };
            if !s.zero_bits {
                assert_eq!(zeroed, has_zero(s), "cover_chosen's report");
            }
            check(s);
            check_bits(s);
            let (mark1, np1) = (s.trail_len(), s.np);
            for pos in 0..size {
                let x = s.member::<false>(i, pos);
                let live = match (k + pos as usize) % 3 {
                    0 => s.apply::<false, true, true, false, false, 0>(x),
                    1 => s.apply::<false, true, true, false, true, 0>(x),
                    _ if !s.zero_bits => s.apply::<false, true, true, false, true, 0>(x),
                    _ => s.apply::<false, true, false, false, true, 0>(x),
                };
                if live {
                    check(s);
                    check_bits(s);
                    walk(s, depth - 1, k + 1, met, zeroed);
                }
                s.restore::<false, true, false>(mark1);
                s.reactivate(np1);
                check(s);
                check_bits(s);
            }
            s.restore::<false, true, false>(mark0);
            s.reactivate(np0);
            check(s);
            check_bits(s);
        }
    }

    /// With colours, each option's primary items come first in its
    /// layout, each group in the problem's order, with their colours.
    #[test]
    fn primary_items_first_with_colours() {
        let text = "A B | X Y\nX:1 A Y\nY B X:2\nX:1 Y:3 B A\nA\nB Y\n";
        let p = parse(text).unwrap().problem;
        let s = Sets::load(&p, None, false);
        check(&s);
        // engine items: A 0, B 1, X 2, Y 3; (item, colour) per option
        let want: [&[(u32, Option<&str>)]; 5] = [
            &[(0, None), (2, Some("1")), (3, None)],
            &[(1, None), (3, None), (2, Some("2"))],
            &[(1, None), (0, None), (2, Some("1")), (3, Some("3"))],
            &[(0, None)],
            &[(1, None), (3, None)],
        ];
        let mut got: Vec<Vec<(u32, Option<&str>)>> = vec![Vec::new()];
        for (x, nd) in s.nodes.iter().enumerate() {
            if nd.item & SPACER != 0 {
                got.push(Vec::new());
            } else {
                let c = p.colour_name(s.colour[x]);
                got.last_mut().unwrap().push((nd.item, c));
            }
        }
        got.pop();
        assert_eq!(got, want);
        // and without colours nothing moves
        let p = parse("A B | Y\nY A\nB Y A\n").unwrap().problem;
        let s = Sets::load(&p, None, false);
        let items: Vec<u32> = s
            .nodes
            .iter()
            .map(|nd| nd.item)
            .filter(|&i| i & SPACER == 0)
            .collect();
        assert_eq!(items, [2, 0, 1, 2, 0]);
    }

    /// A loaded structure meets the invariants, and so do the steps and
    /// their undoing.
    #[test]
    fn invariants_hold() {
        let p = parse(TOY).unwrap().problem;
        let mut s = Sets::load(&p, Some(7), false);
        check(&s);
        let (i, size) = s.min_item::<true>(true);
        assert!(size > 1);
        s.cover_chosen::<true, true, false, 0>(i);
        check(&s);
        for pos in 0..size {
            let mark = s.trail_len();
            let np = s.np;
            let x = s.member::<true>(i, pos);
            if pos % 2 == 0 {
                s.apply::<true, true, true, true, false, 0>(x);
            } else {
                s.apply::<true, true, false, false, true, 0>(x);
            }
            check(&s);
            s.restore::<true, true, true>(mark);
            s.reactivate(np);
            check(&s);
        }
        s.reset();
        check(&s);
    }

    /// Options of one length go first at a fixed stride, the others after
    /// them; each keeps its index, and the sets list the options in the
    /// problem's order.
    #[test]
    fn options_of_one_length_are_laid_out_at_a_stride() {
        // 17 options of 3 items and one of 2, second in the input
        let mut text = String::from("a b c d e f g h | x\na b c\nd e\n");
        for k in 0..16 {
            let t = ["a", "b", "c", "d", "e", "f", "g", "h"];
            text.push_str(&format!("{} {} x:{}\n", t[k % 8], t[(k + 3) % 8], k % 2));
        }
        let p = parse(&text).unwrap().problem;
        let s = Sets::load(&p, None, false);
        check(&s);
        assert_eq!((s.fixed, s.fixed_end), (3, 17 * 4));
        assert_eq!(s.option_of(0), 0);
        assert_eq!(s.option_of(4), 2);
        assert_eq!(s.option_of(17 * 4), 1);
        assert_eq!(s.nodes.len(), 17 * 4 + 3);
        // item `a` (0): options 0, 2 (k = 0) and 7 (k = 5) first, in order
        let a: Vec<u32> = (0..3).map(|k| s.option_of(s.set[k])).collect();
        assert_eq!(a, [0, 2, 7]);
        // item `e` (4): options 1 (the odd one), then 6 (k = 4), ...
        let base = s.items[4].base as usize;
        assert_eq!(s.option_of(s.set[base]), 1);
        assert_eq!(s.option_of(s.set[base + 1]), 3);
        // two odd options in 17 are too many: the general layout
        text.push_str("g h\n");
        let s = Sets::load(&parse(&text).unwrap().problem, Some(3), false);
        check(&s);
        assert_eq!((s.fixed, s.fixed_end), (0, 0));
    }

    /// The methods the search calls check their arguments before the
    /// unchecked code runs.
    #[test]
    #[should_panic(expected = "out of bounds")]
    fn cover_chosen_checks_its_item() {
        let p = parse(TOY).unwrap().problem;
        let mut s = Sets::load(&p, None, false);
        s.cover_chosen::<false, false, false, 0>(4);
    }
}
