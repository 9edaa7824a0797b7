//! Memoised search: the answer of every subproblem met is cached, keyed by
//! the state of the items still to cover.
//!
//! This follows the idea of Nishino, Yasuda, Minato and Nagata's DXZ
//! ("Dancing with Decision Diagrams", AAAI 2017) and of Knuth's DLX6: the
//! solutions below a search node depend only on which items are still
//! uncovered (and, for coloured secondary items, which colour each one
//! already has), so two nodes with the same state have the same solutions,
//! and the second one is answered from the cache. On tilings, where the
//! search meets the same frontier again and again, this is orders of
//! magnitude faster than plain search (8×8 domino tilings: 12,988,816
//! solutions counted from about 1,700 subproblems). The code is our own.
//!
//! One search serves two folds: [`Memo::count`] adds up counts (`u128`),
//! [`Memo::zdd`] builds a [`Zdd`] of all the solutions.
//!
//! Each subproblem keeps the list of options that still fit (filtered from
//! its parent's), so the item with the fewest options is found without
//! scanning every option of every item, and a subproblem in which some
//! uncovered primary item has no option left is known to be dead (no
//! solution) before it is searched, as SSXCC prunes. That filtering pass is
//! most of a subproblem's cost, so it is kept lean: a copy per width of 1
//! to 4 item words (loops unrolled), bounds checked once per pass, and the
//! MRV counts kept as bit-sliced counters in registers (the low four bits
//! of every item's count; what carries past them counted per item), not
//! one increment per item of each option.

use crate::limits::Limits;
use crate::order::ItemOrder;
use crate::problem::Problem;
use crate::search::Heuristic;
use crate::stats::{Report, Stats, StopReason};
use crate::zdd::{Zdd, ZddFold};

/// Why a problem cannot be searched by [`Memo`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MemoError {
    /// A primary item must be covered other than exactly once.
    #[error(
        "item '{item}' has multiplicity {lo}..{hi}; memoised search covers each primary \
         item exactly once: search without --memo"
    )]
    Multiplicity {
        /// The item's name.
        item: String,
        /// Least number of options that must cover it.
        lo: u32,
        /// Most options that may cover it.
        hi: u32,
    },
}

/// The answer of [`Memo::count`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MemoCount {
    /// The number of solutions: exact when `report.stop` is complete and
    /// `overflow` is false; when a limit stopped the count, the solutions
    /// of the subproblems finished so far (a lower bound).
    pub count: u128,
    /// The count passed `u128::MAX` and was held there ([`Memo::zdd`] and
    /// [`Zdd::count_big`] count past it).
    pub overflow: bool,
    /// `stats.nodes`: subproblems searched (not answered by the cache);
    /// `stats.solutions`: the count, held at `u64::MAX` if larger;
    /// `stats.guesses`: subproblems answered by the cache; `stats.updates`:
    /// times the cache was emptied for being full; `peak_bytes`: the
    /// cache's and the stacks' estimated size at their largest.
    pub report: Report,
}

/// Memoised search for exact cover with secondary items and colours.
///
/// Same count as [`Dlx::count`](crate::Dlx::count) (the tests check it on
/// every bundled instance and against brute force); the number of search
/// nodes depends on how often subproblems repeat. The cache holds at most
/// [`with_cache_limit`](Self::with_cache_limit) entries (default 4M) and at
/// most 256 MiB of keys; when it is full it is emptied and the search goes
/// on, recomputing what it must: slower, never wrong. [`Memo::cache_hit_rate`]
/// gives the share of lookups the cache answered.
///
/// ```
/// use exact_cover::{format, Limits, Memo};
/// // the 2x3 domino tilings: 3
/// let text = "a b c d e f\na b\nb c\nd e\ne f\na d\nb e\nc f\n";
/// let p = format::parse(text)?.problem;
/// let mut memo = Memo::new(&p).expect("no multiplicities");
/// let answer = memo.count(&Limits::none());
/// assert_eq!(answer.count, 3);
/// assert!(answer.report.stop.is_complete());
/// # Ok::<(), format::ParseError>(())
/// ```
#[derive(Clone, Debug)]
pub struct Memo {
    t: Tables,
    heuristic: Heuristic,
    cache: Cache<u128>,
    cache_limit: usize,
}

/// The problem as bit sets and colour slots.
#[derive(Clone, Debug)]
pub(crate) struct Tables {
    /// 64-bit words of item bits per state.
    words: usize,
    /// Words per state key: the item bits, then the colour slots (two
    /// 32-bit slots a word).
    klen: usize,
    /// The primary items, as a set.
    primary: Vec<u64>,
    /// Per option, its uncoloured-slot-free items as a set (`words` words).
    masks: Vec<u64>,
    /// Per option, its entries on colour slots: (slot, colour or
    /// `BLOCKED` for an uncoloured use), from `slot_start[k]`.
    slot_ents: Vec<(u32, u32)>,
    slot_start: Vec<u32>,
    /// Per option, its primary items, from `prim_start[k]`.
    prims: Vec<u32>,
    prim_start: Vec<u32>,
    /// Options.
    options: usize,
    /// The state of the whole problem.
    root: Vec<u64>,
}

/// A colour slot's value for an item covered without a colour.
const BLOCKED: u32 = u32::MAX;

impl Tables {
    /// `pos`: each item's bit position (see [`crate::order::positions`]).
    fn new(problem: &Problem, pos: &[u32]) -> Result<Tables, MemoError> {
        if let Some((k, it)) = problem
            .items()
            .iter()
            .enumerate()
            .find(|(_, it)| !it.is_secondary() && it.bounds() != (1, 1))
        {
            let (lo, hi) = it.bounds();
            return Err(MemoError::Multiplicity {
                item: problem.item_name(k as u32),
                lo,
                hi,
            });
        }
        let n = problem.item_count();
        let m = problem.option_count();
        // secondary items that some option colours get a slot
        let mut slot_of = vec![u32::MAX; n];
        let mut slots = 0u32;
        for k in 0..m {
            for e in problem.option(k) {
                if e.colour != 0 && slot_of[e.item as usize] == u32::MAX {
                    slot_of[e.item as usize] = slots;
                    slots += 1;
                }
            }
        }
        let words = n.div_ceil(64).max(1);
        let klen = words + (slots as usize).div_ceil(2);
        let mut primary = vec![0u64; words];
        for (i, it) in problem.items().iter().enumerate() {
            if !it.is_secondary() {
                let b = pos[i] as usize;
                primary[b / 64] |= 1 << (b % 64);
            }
        }
        let mut masks = vec![0u64; words * m];
        let mut slot_ents = Vec::new();
        let mut slot_start = Vec::with_capacity(m + 1);
        let mut prims = Vec::new();
        let mut prim_start = Vec::with_capacity(m + 1);
        for k in 0..m {
            slot_start.push(slot_ents.len() as u32);
            prim_start.push(prims.len() as u32);
            for e in problem.option(k) {
                let i = e.item as usize;
                if slot_of[i] != u32::MAX {
                    let c = if e.colour == 0 { BLOCKED } else { e.colour };
                    slot_ents.push((slot_of[i], c));
                } else {
                    let b = pos[i] as usize;
                    masks[k * words + b / 64] |= 1 << (b % 64);
                }
                if !problem.items()[i].is_secondary() {
                    prims.push(pos[i]);
                }
            }
        }
        slot_start.push(slot_ents.len() as u32);
        prim_start.push(prims.len() as u32);
        let mut root = vec![0u64; klen];
        for (i, &s) in slot_of.iter().enumerate() {
            if s == u32::MAX {
                let b = pos[i] as usize;
                root[b / 64] |= 1 << (b % 64);
            }
        }
        Ok(Tables {
            words,
            klen,
            primary,
            masks,
            slot_ents,
            slot_start,
            prims,
            prim_start,
            options: m,
            root,
        })
    }

    fn slot(&self, key: &[u64], s: u32) -> u32 {
        (key[self.words + s as usize / 2] >> (32 * (s % 2))) as u32
    }

    /// Option `k`'s colours agree with `key`'s colour slots.
    #[inline]
    fn colours_fit(&self, k: u32, key: &[u64]) -> bool {
        if self.slot_ents.is_empty() {
            return true;
        }
        let k = k as usize;
        let ents = &self.slot_ents[self.slot_start[k] as usize..self.slot_start[k + 1] as usize];
        ents.iter().all(|&(s, c)| {
            let v = self.slot(key, s);
            v == 0 || (c != BLOCKED && v == c)
        })
    }

    /// `out` = the state after choosing option `k` in `key`.
    fn apply(&self, k: u32, key: &[u64], out: &mut [u64]) {
        let k = k as usize;
        let m = &self.masks[k * self.words..][..self.words];
        for ((o, &s), &m) in out.iter_mut().zip(key).zip(m) {
            *o = s & !m;
        }
        out[self.words..].copy_from_slice(&key[self.words..]);
        for &(s, c) in &self.slot_ents[self.slot_start[k] as usize..self.slot_start[k + 1] as usize]
        {
            let w = self.words + s as usize / 2;
            let shift = 32 * (s % 2);
            out[w] = out[w] & !(0xFFFF_FFFFu64 << shift) | u64::from(c) << shift;
        }
    }
}

/// What a memoised search computes from the solutions of its subproblems:
/// a value per subproblem, made from its options' children.
pub(crate) trait Fold {
    /// The value of a subproblem.
    type V: Copy;
    /// A subproblem's value while its options are being tried.
    type Acc;
    /// The value of a dead subproblem (no solution).
    fn zero(&self) -> Self::V;
    /// The value of a solved subproblem (no primary item left).
    fn one(&self) -> Self::V;
    fn start(&mut self) -> Self::Acc;
    /// Option `option` led to a subproblem of value `v`.
    fn add(&mut self, acc: &mut Self::Acc, option: u32, v: Self::V);
    fn finish(&mut self, acc: Self::Acc) -> Self::V;
    /// Bytes held besides the cache and the stacks.
    fn bytes(&self) -> u64 {
        0
    }
}

/// Counting: a subproblem's value is its number of solutions.
#[derive(Debug, Default)]
struct CountFold {
    overflow: bool,
}

impl Fold for CountFold {
    type V = u128;
    type Acc = u128;
    fn zero(&self) -> u128 {
        0
    }
    fn one(&self) -> u128 {
        1
    }
    fn start(&mut self) -> u128 {
        0
    }
    fn add(&mut self, acc: &mut u128, _option: u32, v: u128) {
        *acc = acc.checked_add(v).unwrap_or_else(|| {
            self.overflow = true;
            u128::MAX
        });
    }
    fn finish(&mut self, acc: u128) -> u128 {
        acc
    }
}

/// One subproblem being searched. Its state is the `klen` words of the
/// keys stack at its depth; its live options are `live[live..branch_at]`
/// in the live stack; the options of its branch item are
/// `branch[branch_at..branch_end]`, tried from `next`.
#[derive(Debug)]
struct Frame<A> {
    live: u32,
    live_end: u32,
    branch: u32,
    branch_end: u32,
    next: u32,
    acc: A,
}

/// What [`expand`](Search::expand) found for a state.
enum Expanded {
    Dead,
    Solved,
    /// Live options pushed, and the branch item's options.
    Open,
}

/// A stack of option numbers that is written past its top before the top
/// is moved (see [`Search::expand_w`]): `buf[..len]` is the stack, the rest
/// room, never shrunk.
#[derive(Debug, Default)]
struct Stack {
    buf: Vec<u32>,
    len: usize,
}

impl Stack {
    fn len(&self) -> usize {
        self.len
    }

    fn truncate(&mut self, len: usize) {
        self.len = self.len.min(len);
    }

    /// The stack, and room for `extra` more above its top.
    fn room(&mut self, extra: usize) -> (&[u32], &mut [u32]) {
        if self.buf.len() < self.len + extra {
            let size = (self.len + extra).max(self.buf.len() * 2);
            self.buf.resize(size, 0);
        }
        let (stack, rest) = self.buf.split_at_mut(self.len);
        (stack, &mut rest[..extra])
    }
}

impl std::ops::Index<usize> for Stack {
    type Output = u32;
    fn index(&self, i: usize) -> &u32 {
        &self.buf[..self.len][i]
    }
}

/// The stacks of one search.
struct Search<'t> {
    t: &'t Tables,
    heuristic: Heuristic,
    keys: Vec<u64>,
    live: Stack,
    branch: Stack,
    /// Under MRV, each item's number of live options, the part of it
    /// past the low planes of [`expand_w`](Self::expand_w) (in units of
    /// `LOW` when the width is fixed, of 1 otherwise). All zero between
    /// calls.
    hi: Vec<u32>,
    union: Vec<u64>,
}

impl<'t> Search<'t> {
    fn new(t: &'t Tables, heuristic: Heuristic) -> Search<'t> {
        Search {
            t,
            heuristic,
            keys: t.root.clone(),
            live: Stack::default(),
            branch: Stack::default(),
            hi: vec![0; t.words * 64],
            union: vec![0; t.words],
        }
    }

    /// Push the options of `parent` (a range of the live stack, or all
    /// options) that fit `key`, then the options of the item to branch on;
    /// or say that `key` is dead or solved (nothing pushed).
    fn expand(&mut self, key: &[u64], parent: Option<(usize, usize)>) -> Expanded {
        // the common widths get their own copy, with the word loops unrolled
        match self.t.words {
            1 => self.expand_w::<1>(key, parent),
            2 => self.expand_w::<2>(key, parent),
            3 => self.expand_w::<3>(key, parent),
            4 => self.expand_w::<4>(key, parent),
            _ => self.expand_w::<0>(key, parent),
        }
    }

    /// [`expand`](Self::expand) for states of `W` item words (0: any).
    // `j` is the option itself when every option is scanned
    #[allow(clippy::needless_range_loop)]
    #[inline(always)]
    fn expand_w<const W: usize>(
        &mut self,
        key: &[u64],
        parent: Option<(usize, usize)>,
    ) -> Expanded {
        let t = self.t;
        let w = if W > 0 { W } else { t.words };
        let items = &key[..w];
        let primary = &t.primary[..w];
        if items.iter().zip(primary).all(|(&k, &p)| k & p == 0) {
            return Expanded::Solved;
        }
        let start = self.live.len();
        let mrv = self.heuristic == Heuristic::Mrv;
        let coloured = !t.slot_ents.is_empty();
        let (a, b) = parent.unwrap_or((0, 0));
        let all = parent.is_none();
        let n = if all { t.options } else { b - a };
        // MRV counts: for a fixed width, the low `LOW_PLANES` bits of each
        // item's count as bit-sliced counters held in registers (`lo[p][w]`:
        // bit `p` of the counts of word `w`'s 64 items), an option's mask
        // added with a ripple carry, and only what carries out of the
        // top plane (once in 2^LOW_PLANES options of an item) counted in
        // `hi`; this keeps the loop free of the store-to-load chain of one
        // counter incremented by option after option
        let mut lo = [[0u64; 4]; LOW_PLANES];
        // one pass: the options that fit, and (MRV) each item's count, or
        // (first item) the union of their items
        self.union.iter_mut().for_each(|u| *u = 0);
        let (parents, out) = self.live.room(n);
        let parents = &parents[a..a + if all { 0 } else { n }];
        let out = &mut out[..n];
        let masks = &t.masks[..t.options * w];
        let mut top = 0;
        for j in 0..n {
            let k = if all { j as u32 } else { parents[j] };
            let m = &masks[k as usize * w..][..w];
            if !m.iter().zip(items).all(|(&m, &s)| m & !s == 0) {
                continue;
            }
            if coloured && !t.colours_fit(k, key) {
                continue;
            }
            out[top] = k;
            top += 1;
            if !mrv {
                self.union.iter_mut().zip(m).for_each(|(u, &m)| *u |= m);
            } else if W > 0 {
                for (wi, &m) in m.iter().enumerate() {
                    let mut carry = m;
                    for plane in lo.iter_mut() {
                        let c = plane[wi] & carry;
                        plane[wi] ^= carry;
                        carry = c;
                    }
                    while carry != 0 {
                        self.hi[wi * 64 + carry.trailing_zeros() as usize] += 1;
                        carry &= carry - 1;
                    }
                }
            } else {
                let k = k as usize;
                for &i in &t.prims[t.prim_start[k] as usize..t.prim_start[k + 1] as usize] {
                    self.hi[i as usize] += 1;
                }
            }
        }
        self.live.len += top;
        let item;
        if mrv {
            // the uncovered primary item of least count (ties to the
            // earliest); dead if it has none
            let mut best = (u32::MAX, u32::MAX);
            for (wi, (&k, &p)) in items.iter().zip(primary).enumerate() {
                let mut bits = k & p;
                while bits != 0 {
                    let b = bits.trailing_zeros();
                    bits &= bits - 1;
                    let i = wi * 64 + b as usize;
                    let mut c = self.hi[i];
                    if W > 0 {
                        c <<= LOW_PLANES;
                        for (p, plane) in lo.iter().enumerate() {
                            c |= ((plane[wi] >> b & 1) as u32) << p;
                        }
                    }
                    if c < best.0 {
                        best = (c, i as u32);
                    }
                }
            }
            // every item an option may hold is uncovered: clear those
            for (wi, &k) in items.iter().enumerate() {
                let mut bits = k;
                while bits != 0 {
                    self.hi[wi * 64 + bits.trailing_zeros() as usize] = 0;
                    bits &= bits - 1;
                }
            }
            if best.0 == 0 {
                self.live.truncate(start);
                return Expanded::Dead;
            }
            item = best.1;
        } else {
            // an uncovered primary item that no live option covers: dead
            let dead = items
                .iter()
                .zip(primary)
                .zip(&self.union)
                .any(|((&k, &p), &u)| k & p & !u != 0);
            if dead {
                self.live.truncate(start);
                return Expanded::Dead;
            }
            let wi = items
                .iter()
                .zip(primary)
                .position(|(&k, &p)| k & p != 0)
                .expect("an open item");
            item = wi as u32 * 64 + (items[wi] & primary[wi]).trailing_zeros();
        }
        let (iw, bit) = (item as usize / 64, 1u64 << (item % 64));
        let live = &self.live.buf[start..self.live.len];
        let (_, out) = self.branch.room(live.len());
        let mut top = 0;
        for &k in live {
            out[top] = k;
            top += usize::from(t.masks[k as usize * w + iw] & bit != 0);
        }
        self.branch.len += top;
        Expanded::Open
    }
}

/// Low bits of the MRV counts kept as bit planes in registers.
const LOW_PLANES: usize = 4;

/// Run a memoised search with `fold` over the subproblems' values.
/// Returns the root's value (or, when a limit stopped it, the reason and
/// the accumulators of the unfinished subproblems, outermost first).
pub(crate) fn run<F: Fold>(
    t: &Tables,
    heuristic: Heuristic,
    cache: &mut Cache<F::V>,
    fold: &mut F,
    limits: &Limits,
    stats: &mut Stats,
) -> Result<F::V, (StopReason, Vec<F::Acc>)> {
    let klen = t.klen;
    let mut s = Search::new(t, heuristic);
    let mut frames: Vec<Frame<F::Acc>> = Vec::new();
    let mut child = vec![0u64; klen];
    let slow = limits.has_slow_limits();
    let mut peak = 0u64;
    stats.nodes += 1;
    let root = t.root.clone();
    match s.expand(&root, None) {
        Expanded::Dead => return Ok(fold.zero()),
        Expanded::Solved => return Ok(fold.one()),
        Expanded::Open => frames.push(Frame {
            live: 0,
            live_end: s.live.len() as u32,
            branch: 0,
            branch_end: s.branch.len() as u32,
            next: 0,
            acc: fold.start(),
        }),
    }
    loop {
        let depth = frames.len();
        let f = frames.last_mut().expect("a frame");
        if f.next < f.branch_end - f.branch {
            let k = s.branch[(f.branch + f.next) as usize];
            f.next += 1;
            t.apply(k, &s.keys[(depth - 1) * klen..depth * klen], &mut child);
            if let Some(v) = cache.get(&child) {
                stats.guesses += 1;
                fold.add(&mut f.acc, k, v);
                continue;
            }
            let parent = (f.live as usize, f.live_end as usize);
            let live_at = s.live.len() as u32;
            let branch_at = s.branch.len() as u32;
            match s.expand(&child, Some(parent)) {
                Expanded::Dead => {
                    let z = fold.zero();
                    cache.insert(&child, z, stats);
                    let f = frames.last_mut().expect("a frame");
                    fold.add(&mut f.acc, k, z);
                }
                Expanded::Solved => {
                    let one = fold.one();
                    let f = frames.last_mut().expect("a frame");
                    fold.add(&mut f.acc, k, one);
                }
                Expanded::Open => {
                    if limits.max_nodes.is_some_and(|m| stats.nodes >= m) {
                        return Err((
                            StopReason::NodeLimit,
                            frames.into_iter().map(|f| f.acc).collect(),
                        ));
                    }
                    if slow && stats.nodes & 0x3ff == 0x3ff {
                        if let Some(r) = limits.poll() {
                            return Err((r, frames.into_iter().map(|f| f.acc).collect()));
                        }
                    }
                    stats.nodes += 1;
                    s.keys.extend_from_slice(&child);
                    frames.push(Frame {
                        live: live_at,
                        live_end: s.live.len() as u32,
                        branch: branch_at,
                        branch_end: s.branch.len() as u32,
                        next: 0,
                        acc: fold.start(),
                    });
                    stats.max_depth = stats.max_depth.max(frames.len() as u32);
                    let bytes = cache.bytes()
                        + (s.keys.len() * 8 + s.live.len() * 4 + s.branch.len() * 4) as u64
                        + fold.bytes();
                    peak = peak.max(bytes);
                }
            }
            continue;
        }
        // every option tried: the subproblem's value goes to the cache and
        // to its parent
        let f = frames.pop().expect("a frame");
        let v = fold.finish(f.acc);
        s.live.truncate(f.live as usize);
        s.branch.truncate(f.branch as usize);
        let at = (depth - 1) * klen;
        child.copy_from_slice(&s.keys[at..]);
        s.keys.truncate(at);
        match frames.last_mut() {
            Some(p) => {
                cache.insert(&child, v, stats);
                let k = s.branch[(p.branch + p.next - 1) as usize];
                fold.add(&mut p.acc, k, v);
            }
            None => {
                stats.peak_bytes = stats.peak_bytes.max(peak);
                return Ok(v);
            }
        }
    }
}

impl Memo {
    /// Load `problem` (items chosen first-in-order, as DXZ does; see
    /// [`with_heuristic`](Self::with_heuristic)).
    pub fn new(problem: &Problem) -> Result<Memo, MemoError> {
        Memo::with_item_order(problem, ItemOrder::Auto)
    }

    /// Load `problem`, branching on its primary items in `order` under
    /// [`Heuristic::First`] and in [`zdd`](Self::zdd) ([`Memo::new`]:
    /// [`ItemOrder::Auto`], an order computed from the options that does
    /// not depend on the items line's order; [`ItemOrder::Given`]: the
    /// items line's order). MRV ties go to the earlier item in `order`.
    pub fn with_item_order(problem: &Problem, order: ItemOrder) -> Result<Memo, MemoError> {
        let pos = crate::order::positions(problem, order);
        Ok(Memo {
            t: Tables::new(problem, &pos)?,
            heuristic: Heuristic::First,
            cache: Cache::new(),
            cache_limit: 1 << 22,
        })
    }

    /// The item each subproblem of [`count`](Self::count) branches on:
    /// [`Heuristic::First`] (the first uncovered primary item in the
    /// memo's item order, the default, which suits tilings: see
    /// [`with_item_order`](Self::with_item_order))
    /// or [`Heuristic::Mrv`] (the one with the fewest options left; fewer
    /// nodes on puzzles). Either gives the same count. [`zdd`](Self::zdd)
    /// always branches on the first item, which is what keeps its diagram
    /// ordered.
    pub fn with_heuristic(mut self, heuristic: Heuristic) -> Memo {
        self.heuristic = heuristic;
        self
    }

    /// Keep at most `entries` cached subproblems (at least 1; default 4M).
    pub fn with_cache_limit(mut self, entries: usize) -> Memo {
        self.cache_limit = entries.max(1);
        self.cache.limit = self.cache_limit;
        self
    }

    /// Count the solutions. Honours the node limit, the deadline and the
    /// cancel token of `limits` (not the solution limit: the count is
    /// reached by adding up subproblems, not by listing solutions).
    pub fn count(&mut self, limits: &Limits) -> MemoCount {
        let mut stats = Stats::default();
        let mut fold = CountFold::default();
        self.cache.limit = self.cache_limit;
        let (count, stop) = match run(
            &self.t,
            self.heuristic,
            &mut self.cache,
            &mut fold,
            limits,
            &mut stats,
        ) {
            Ok(c) => (c, StopReason::Exhausted),
            Err((stop, accs)) => {
                // a lower bound: what the unfinished subproblems found so far
                let mut total = 0u128;
                for a in accs {
                    fold.add(&mut total, 0, a);
                }
                (total, stop)
            }
        };
        stats.solutions = u64::try_from(count).unwrap_or(u64::MAX);
        MemoCount {
            count,
            overflow: fold.overflow,
            report: Report { stats, stop },
        }
    }

    /// Build the ZDD of all the solutions (see [`Zdd`]); `None` with the
    /// reason in the report when a limit stopped it. The report's stats are
    /// those of [`count`](Self::count), with `solutions` the count (held
    /// at `u64::MAX`).
    pub fn zdd(&mut self, limits: &Limits) -> (Option<Zdd>, Report) {
        let mut stats = Stats::default();
        let mut fold = ZddFold::new(self.t.options);
        let mut cache = Cache::new();
        cache.limit = self.cache_limit;
        match run(
            &self.t,
            Heuristic::First,
            &mut cache,
            &mut fold,
            limits,
            &mut stats,
        ) {
            Ok(root) => {
                let first: Vec<u32> = (0..self.t.options)
                    .map(|k| {
                        let (a, b) = (
                            self.t.prim_start[k] as usize,
                            self.t.prim_start[k + 1] as usize,
                        );
                        self.t.prims[a..b].iter().copied().min().unwrap_or(u32::MAX)
                    })
                    .collect();
                let zdd = fold.into_zdd(root, &first);
                stats.solutions = zdd
                    .count()
                    .map_or(u64::MAX, |c| c.try_into().unwrap_or(u64::MAX));
                let stop = StopReason::Exhausted;
                (Some(zdd), Report { stats, stop })
            }
            Err((stop, _)) => (None, Report { stats, stop }),
        }
    }

    /// Cache hits per cached lookup of the last search: `stats.guesses /
    /// (stats.guesses + stats.nodes)`, in 0..=1.
    pub fn cache_hit_rate(report: &Report) -> f64 {
        let s = &report.stats;
        let all = s.guesses + s.nodes;
        if all == 0 {
            0.0
        } else {
            s.guesses as f64 / all as f64
        }
    }

    /// Forget the cached counts (the memory is kept).
    pub fn clear_cache(&mut self) {
        self.cache.clear();
    }
}

/// The most bytes of keys the cache holds, whatever its entry limit: a
/// problem with many coloured items has long keys (the Sudoku as XCC: about
/// 800 bytes), and 4M of them would take gigabytes.
const KEY_BYTES: usize = 256 << 20;

/// The subproblem cache: keys (state words) in one arena, found by open
/// addressing on a multiplicative hash; emptied when it holds `limit`
/// entries. Each slot holds the entry's number and the high half of its
/// key's hash, so a probe reads a key from the arena (a cache miss on a
/// large table) only when the halves agree; the full key is then compared,
/// so no answer rests on a hash alone.
#[derive(Clone, Debug)]
pub(crate) struct Cache<V> {
    keys: Vec<u64>,
    vals: Vec<V>,
    /// Per slot, `tag << 32 | (entry + 1)`, 0 = empty; a power of two long.
    table: Vec<u64>,
    klen: usize,
    limit: usize,
}

impl<V: Copy> Cache<V> {
    fn new() -> Cache<V> {
        Cache {
            keys: Vec::new(),
            vals: Vec::new(),
            table: Vec::new(),
            klen: 0,
            limit: 1 << 22,
        }
    }

    fn hash(key: &[u64]) -> u64 {
        let mut h = 0x243F_6A88_85A3_08D3u64;
        for &w in key {
            h = (h ^ w).wrapping_mul(0x9E37_79B9_7F4A_7C15);
            h ^= h >> 29;
        }
        h.wrapping_mul(0xBF58_476D_1CE4_E5B9) ^ h >> 32
    }

    /// Entry `e`'s key equals `key` (word by word: keys are a few words,
    /// shorter than a call to `memcmp` is worth).
    #[inline]
    fn same(&self, e: usize, key: &[u64]) -> bool {
        let k = &self.keys[e * self.klen..][..self.klen];
        k.iter().zip(key).all(|(a, b)| a == b)
    }

    /// The slot holding `key`, or the empty slot where it goes; with the
    /// slot's value for it (its tag, entry number to be added).
    #[inline]
    fn probe(&self, key: &[u64]) -> (usize, Option<usize>, u64) {
        let h = Self::hash(key);
        let tag = h >> 32 << 32;
        let mask = self.table.len() - 1;
        let mut i = h as usize & mask;
        loop {
            let e = self.table[i];
            if e == 0 {
                return (i, None, tag);
            }
            if e & !0xFFFF_FFFF == tag {
                let n = (e & 0xFFFF_FFFF) as usize - 1;
                if self.same(n, key) {
                    return (i, Some(n), tag);
                }
            }
            i = (i + 1) & mask;
        }
    }

    fn get(&self, key: &[u64]) -> Option<V> {
        if self.table.is_empty() || self.klen != key.len() {
            return None;
        }
        self.probe(key).1.map(|e| self.vals[e])
    }

    fn insert(&mut self, key: &[u64], v: V, stats: &mut Stats) {
        if self.klen != key.len() {
            self.clear();
            self.klen = key.len();
        }
        if self.vals.len() >= self.limit
            || self.vals.len() >= u32::MAX as usize - 1
            || self.keys.len() * 8 >= KEY_BYTES
        {
            self.clear();
            stats.updates += 1;
        }
        if (self.vals.len() + 1) * 2 > self.table.len() {
            let size = (self.table.len() * 2).max(1024);
            let old = std::mem::replace(&mut self.table, vec![0; size]);
            let mask = size - 1;
            for e in old.into_iter().filter(|&e| e != 0) {
                let n = (e & 0xFFFF_FFFF) as usize - 1;
                let mut i = Self::hash(&self.keys[n * self.klen..][..self.klen]) as usize & mask;
                while self.table[i] != 0 {
                    i = (i + 1) & mask;
                }
                self.table[i] = e;
            }
        }
        match self.probe(key) {
            (_, Some(e), _) => self.vals[e] = v,
            (i, None, tag) => {
                self.table[i] = tag | (self.vals.len() as u64 + 1);
                self.keys.extend_from_slice(key);
                self.vals.push(v);
            }
        }
    }

    fn clear(&mut self) {
        self.keys.clear();
        self.vals.clear();
        self.table.iter_mut().for_each(|e| *e = 0);
    }

    fn bytes(&self) -> u64 {
        (self.keys.capacity() * 8
            + self.vals.capacity() * std::mem::size_of::<V>()
            + self.table.len() * 8) as u64
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::parse;

    pub(crate) fn dominoes(r: usize, c: usize) -> String {
        let mut s = String::new();
        for i in 0..r {
            for j in 0..c {
                s.push_str(&format!("x{i}_{j} "));
            }
        }
        s.push('\n');
        for i in 0..r {
            for j in 0..c {
                if j + 1 < c {
                    s.push_str(&format!("x{i}_{j} x{i}_{}\n", j + 1));
                }
                if i + 1 < r {
                    s.push_str(&format!("x{i}_{j} x{}_{j}\n", i + 1));
                }
            }
        }
        s
    }

    #[test]
    fn domino_tilings() {
        // OEIS A004003: 1, 2, 36, 6728, 12988816 for 2x2, 4x4, 6x6, 8x8
        for (n, want) in [(2, 2u128), (4, 36), (6, 6728), (8, 12_988_816)] {
            let p = parse(&dominoes(n, n)).unwrap().problem;
            let got = Memo::new(&p).unwrap().count(&Limits::none());
            assert_eq!(got.count, want, "{n}x{n}");
            assert!(got.report.stop.is_complete());
        }
    }

    #[test]
    fn a_full_cache_is_emptied_and_the_count_stays_right() {
        let p = parse(&dominoes(6, 6)).unwrap().problem;
        let got = Memo::new(&p)
            .unwrap()
            .with_cache_limit(10)
            .count(&Limits::none());
        assert_eq!(got.count, 6728);
        assert!(got.report.stats.updates > 0);
        let mrv = Memo::new(&p)
            .unwrap()
            .with_heuristic(Heuristic::Mrv)
            .count(&Limits::none());
        assert_eq!(mrv.count, 6728);
    }

    #[test]
    fn colours_count_as_plain_search_does() {
        // X may be shared by options that agree on its colour
        let text = "A B C | X Y\nA X:red\nB X:red\nB X:blue Y\nC X:blue\nC Y\nA B X\nC\n";
        let p = parse(text).unwrap().problem;
        let plain = crate::Dlx::new(&p).count(&Limits::none()).stats.solutions;
        for h in [Heuristic::First, Heuristic::Mrv] {
            let got = Memo::new(&p)
                .unwrap()
                .with_heuristic(h)
                .count(&Limits::none());
            assert_eq!(got.count, u128::from(plain), "{h:?}");
        }
        assert_eq!(plain, 4);
    }

    #[test]
    fn multiplicities_are_refused() {
        let p = parse("2|A\nA\nA\n").unwrap().problem;
        assert!(matches!(
            Memo::new(&p),
            Err(MemoError::Multiplicity { lo: 2, hi: 2, .. })
        ));
    }

    #[test]
    fn a_node_limit_gives_a_lower_bound() {
        let p = parse(&dominoes(6, 6)).unwrap().problem;
        let got = Memo::new(&p)
            .unwrap()
            .count(&Limits::none().with_max_nodes(20));
        assert_eq!(got.report.stop, StopReason::NodeLimit);
        assert!(got.count <= 6728);
    }

    #[test]
    fn the_stack_keeps_its_top_and_makes_room() {
        let mut s = Stack::default();
        let (below, room) = s.room(3);
        assert!(below.is_empty());
        room.copy_from_slice(&[7, 8, 9]);
        s.len += 2;
        assert_eq!((s.len(), s[0], s[1]), (2, 7, 8));
        let (below, room) = s.room(100);
        assert_eq!((below, room.len()), (&[7, 8][..], 100));
        s.truncate(1);
        assert_eq!(s.len(), 1);
        s.truncate(5);
        assert_eq!(s.len(), 1);
    }

    #[test]
    fn mrv_branches_on_an_item_of_least_count_at_every_width() {
        // random problems of 1 to 6 words of items, some items in far more
        // options than the register planes count (16): the root's branch
        // item must have the least number of options, ties to the earliest
        // position
        let mut rng = crate::rng::SplitMix64::new(18);
        for round in 0..60 {
            let n = [5, 60, 70, 150, 200, 250, 300, 380][round % 8];
            let m = 20 + rng.below(400);
            let mut text = String::new();
            for i in 0..n {
                text.push_str(&format!("i{i} "));
            }
            text.push('\n');
            for _ in 0..m {
                // a skewed pick, so a few items are in many options
                let len = 1 + rng.below(4);
                let mut row: Vec<usize> = (0..len)
                    .map(|_| rng.below(n).min(rng.below(n)).min(rng.below(n)))
                    .collect();
                row.sort_unstable();
                row.dedup();
                for i in row {
                    text.push_str(&format!("i{i} "));
                }
                text.push('\n');
            }
            let p = parse(&text).unwrap().problem;
            let pos = crate::order::positions(&p, ItemOrder::Given);
            let t = Tables::new(&p, &pos).unwrap();
            let mut count = vec![0u32; n];
            for k in 0..m {
                for e in p.option(k) {
                    count[pos[e.item as usize] as usize] += 1;
                }
            }
            let least = *count.iter().min().unwrap();
            let mut s = Search::new(&t, Heuristic::Mrv);
            let root = t.root.clone();
            match s.expand(&root, None) {
                Expanded::Dead => assert_eq!(least, 0, "round {round}"),
                Expanded::Solved => panic!("round {round}: items left"),
                Expanded::Open => {
                    assert_eq!(s.live.len(), m, "round {round}");
                    assert_eq!(s.branch.len() as u32, least, "round {round}");
                    let item = count.iter().position(|&c| c == least).unwrap();
                    for j in 0..s.branch.len() {
                        assert!(
                            p.option(s.branch[j] as usize)
                                .iter()
                                .any(|e| pos[e.item as usize] as usize == item)
                        );
                    }
                }
            }
            // the counters are left empty for the next expansion
            assert!(s.hi.iter().all(|&c| c == 0), "round {round}");
        }
    }

    #[test]
    fn the_cache_finds_what_it_holds() {
        let mut c: Cache<u128> = Cache::new();
        let mut stats = Stats::default();
        for i in 0..5000u64 {
            c.insert(&[i, i * 7], u128::from(i), &mut stats);
        }
        for i in 0..5000u64 {
            assert_eq!(c.get(&[i, i * 7]), Some(u128::from(i)));
        }
        assert_eq!(c.get(&[1, 1]), None);
        c.limit = 100;
        c.insert(&[9, 9], 1, &mut stats);
        assert_eq!(stats.updates, 1);
        assert_eq!(c.get(&[0, 0]), None);
        assert_eq!(c.get(&[9, 9]), Some(1));
    }
}
