//! The dancing-links arrays in Knuth's packed layout (TAOCP 7.2.2.1,
//! Algorithms X and C): one node array, item headers at nodes `1..=N`, a spacer
//! node between options, `u32` indices, no pointers.
//!
//! - Header node `i` (item `i`, 1-based): `up`/`down` are the ends of the
//!   item's vertical list; its length is `len[i]`, in a contiguous array
//!   so that the MRV choice is a straight scan.
//! - Option node: `top` is its item, `up`/`down` its neighbours in the item's list.
//! - Spacer node: `top <= 0` (the spacer after option `k` has `top = -(k+1)`),
//!   `up` is the first node of the option before it, `down` the last node of
//!   the option after it.
//! - `aux`: in problems with colours or multiplicities, an option node's
//!   colour: 0 = none, `> 0` a colour, `< 0` "already known to match" (set
//!   by `purify` to the colour negated, where Knuth writes -1, so that a
//!   chosen option's colours can be printed during the search). In plain problems (neither, and no option of more than
//!   65,536 items), the node's distances to the ends of its option, so
//!   that `hide` finds them in the node it reads anyway: `(e - x) << 16 |
//!   (x - s)` for node `x` of the option `s..=e`.
//! - Primary items are `1..=n1` in a circular list through `llink`/`rlink`
//!   rooted at 0; secondary items `n1+1..=n` in their own list rooted at `n+1`,
//!   which nothing walks: covering a secondary item leaves it in that list
//!   (and in `active`), only its options are hidden.
//! - `span`: in problems with colours or multiplicities only (where `aux`
//!   holds the colour), the first and last node of each option node's
//!   option. Either way `hide` walks an option in two plain loops, without
//!   testing for the spacer.
//! - `active` and `small`: bit sets of the active items and of the items
//!   with at most one option left, from which the search finds dead ends and
//!   forced moves without scanning every item.
//!
//! # Soundness of the unchecked indexing
//!
//! The link updates index without bounds checks. What makes that sound is
//! all in this module: the arrays are private fields, so only the code
//! here writes them, and it keeps the invariants listed on [`Links`]; the
//! methods the rest of the crate calls check their `u32` arguments (one
//! comparison per call, not per link followed) before the unchecked code
//! runs, and the unchecked primitives are `unsafe fn`s whose contracts the
//! `// SAFETY:` notes at their call sites discharge from those invariants.

use crate::problem::{Item, Problem};

/// Problems with more primary items than this keep the bit set of items
/// with at most one option (see [`Links::track`]).
pub(crate) const TRACK_ITEMS: u32 = 128;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[repr(C)]
struct Node {
    top: i32,
    up: u32,
    down: u32,
    /// The colour (problems with colours or multiplicities) or the last
    /// node of the option (plain problems); 0 for headers and spacers.
    aux: i32,
}

/// The dancing-links structure of one problem.
///
/// # Invariants
///
/// The unchecked indexing relies on these. [`load`](Self::load) and
/// `default` establish them (`load` builds the new structure aside, so
/// that a panic halfway leaves the empty structure, not a half-built one),
/// the fields they involve are private, and every method keeps them:
///
/// 1. *Sizes.* `nodes` has at least `n + 2` entries, `span` none or as many;
///    `len`, `inactive`, `llink` and `rlink` have `n + 2` entries, `small`
///    and `active` `(n + 2).div_ceil(64)` words; `n1 <= n`.
/// 2. *Kinds.* Nodes `0..=n` are the headers (`top == 0`). Every other
///    node is an *option node*, with `1 <= top <= n` (an item), or a
///    spacer, with `top <= 0`. Only `load` writes `top`.
/// 3. *Links.* The `up` and `down` of every header and option node are
///    headers or option nodes. (The link updates follow and write only
///    those fields, and store only option nodes and values read from
///    them; spacers' links are never followed.)
/// 4. *Spans.* With `span` empty (plain problems: see
///    [`is_plain`](Self::is_plain)), the `aux` of every header and spacer
///    is 0, and that of an option node `x` is `(e - x) << 16 | (x - s)`
///    where `s..=e` (`s <= x <= e`) are the option nodes of its option.
///    With `span` not empty (the others, where `aux` is the colour), the
///    span `(s, e)` of an option node has `s <= x <= e` and only option
///    nodes in `s..=e`; headers and spacers have `(0, 0)`. Only `finish`
///    writes `span` and, with `span` empty, `aux`; `span` is empty exactly
///    when the problem is plain.
/// 5. *Header list.* Every entry of `llink` and `rlink` is at most `n + 1`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Links {
    nodes: Vec<Node>,
    /// Length of each item's list (indexed by item, `n + 2` entries).
    len: Vec<u32>,
    /// `u32::MAX` for a covered item, 0 for an active one: `len | inactive`
    /// is the MRV key, scanned without following links.
    inactive: Vec<u32>,
    /// Bit `i` set when item `i`'s list holds at most one option (every
    /// item, active or not), kept up to date by every length change.
    small: Vec<u64>,
    /// Bit `i` set when item `i` is active (not covered); bit 0 (the root)
    /// is never set. With `small` it finds a forced move or a dead end
    /// without scanning every length.
    active: Vec<u64>,
    /// For problems with colours or multiplicities only (empty for plain
    /// ones, whose option nodes hold their option's last node in `aux`):
    /// first and last node of the option of each option node (zero for
    /// headers and spacers). Either way `hide` runs over an option in
    /// loops of known length instead of stopping at a spacer.
    span: Vec<(u32, u32)>,
    /// First node of each option, in option order (for `select` and
    /// `option_entries`).
    starts: Vec<u32>,
    llink: Vec<u32>,
    rlink: Vec<u32>,
    /// Number of primary items (`n1`).
    n1: u32,
    /// Number of items.
    n: u32,
    /// Bounds and current count of each primary item.
    pub lo: Vec<u32>,
    pub hi: Vec<u32>,
    pub count: Vec<u32>,
    /// Whether any primary item has bounds other than (1, 1).
    pub multi: bool,
    /// Whether any option gives a secondary item a colour.
    pub coloured: bool,
    /// Whether some option has more than 65,536 items, too many for the
    /// distances packed in `aux`: the problem then takes the general path.
    wide: bool,
    /// Whether `small` is kept up to date: for problems with more than
    /// [`TRACK_ITEMS`] primary items, where it spares scanning them all at
    /// every node. The plain code path skips the upkeep otherwise (it costs
    /// about a quarter of the time on the pentomino instance, 72 items);
    /// the general path always keeps it.
    pub track: bool,
    /// With `track`: `small` and `zeros` missed updates (made by
    /// [`select`](Self::select) on the plain path) and must be recomputed
    /// before the search; see [`resync`](Self::resync).
    pub stale: bool,
    /// With `track`: the number of active primary items with an empty list
    /// (dead ends), so that `min_small` looks for one only when there is one.
    pub zeros: u32,
    /// Engine item of each problem item, and problem item of each engine item.
    pub to_engine: Vec<u32>,
    pub to_problem: Vec<u32>,
    /// Link updates performed (Knuth's "updates").
    pub updates: u64,
    /// Mems counted so far (Knuth's cost measure; see [`Dlx`](crate::Dlx)):
    /// only by the code compiled with `M = true`, 0 otherwise.
    pub mems: u64,
    /// Whether the search counts mems: chooses the `M = true` code for the
    /// paths of problems with colours or multiplicities, which take it at
    /// run time (the plain path is compiled for it).
    pub count_mems: bool,
    /// While loading: whether options are threaded into their items'
    /// lists as they come (else by [`finish`](Self::finish)).
    threaded: bool,
}

impl Default for Links {
    /// The structure of the empty problem (no items, no options): it meets
    /// the invariants, unlike a structure of empty arrays.
    fn default() -> Links {
        let mut l = Links {
            nodes: Vec::new(),
            len: Vec::new(),
            inactive: Vec::new(),
            small: Vec::new(),
            active: Vec::new(),
            span: Vec::new(),
            starts: Vec::new(),
            llink: Vec::new(),
            rlink: Vec::new(),
            n1: 0,
            n: 0,
            lo: Vec::new(),
            hi: Vec::new(),
            count: Vec::new(),
            multi: false,
            coloured: false,
            wide: false,
            track: false,
            stale: false,
            zeros: 0,
            to_engine: Vec::new(),
            to_problem: Vec::new(),
            updates: 0,
            mems: 0,
            count_mems: false,
            threaded: true,
        };
        l.fill(&Problem::default(), None);
        l
    }
}

impl Links {
    /// Node `i`, without a bounds check in release builds.
    ///
    /// # Safety
    ///
    /// `i < self.nodes.len()`.
    #[inline(always)]
    unsafe fn nd(&self, i: u32) -> &Node {
        debug_assert!((i as usize) < self.nodes.len());
        // SAFETY: in bounds by the caller's contract.
        unsafe { self.nodes.get_unchecked(i as usize) }
    }

    /// # Safety
    ///
    /// As for [`nd`](Self::nd).
    #[inline(always)]
    unsafe fn nd_mut(&mut self, i: u32) -> &mut Node {
        debug_assert!((i as usize) < self.nodes.len());
        // SAFETY: in bounds by the caller's contract.
        unsafe { self.nodes.get_unchecked_mut(i as usize) }
    }

    /// Length of item `i`'s list (`i <= n + 1`, checked).
    #[inline(always)]
    pub fn len(&self, i: u32) -> u32 {
        self.len[i as usize]
    }

    /// [`len`](Self::len) without the check.
    ///
    /// # Safety
    ///
    /// `i <= self.n + 1`: an item or a root.
    #[inline(always)]
    unsafe fn len_at(&self, i: u32) -> u32 {
        debug_assert!((i as usize) < self.len.len());
        // SAFETY: `len` has `n + 2` entries (invariant 1).
        unsafe { *self.len.get_unchecked(i as usize) }
    }

    /// # Safety
    ///
    /// `i <= self.n + 1`: an item or a root.
    #[inline(always)]
    unsafe fn len_mut(&mut self, i: u32) -> &mut u32 {
        debug_assert!((i as usize) < self.len.len());
        // SAFETY: `len` has `n + 2` entries (invariant 1).
        unsafe { self.len.get_unchecked_mut(i as usize) }
    }

    /// The word of the `small` bit set that holds item `i`'s bit.
    ///
    /// # Safety
    ///
    /// `i <= self.n + 1`: an item or a root.
    #[inline(always)]
    unsafe fn small_mut(&mut self, i: u32) -> &mut u64 {
        debug_assert!(((i / 64) as usize) < self.small.len());
        // SAFETY: `small` has `(n + 2).div_ceil(64)` words (invariant 1).
        unsafe { self.small.get_unchecked_mut((i / 64) as usize) }
    }

    /// One fewer option in item `i`'s list.
    ///
    /// # Safety
    ///
    /// `i <= self.n + 1`: an item or a root.
    #[inline(always)]
    unsafe fn dec_len<const T: bool>(&mut self, i: u32) {
        let n1 = self.n1;
        // SAFETY: the caller's contract is `len_mut`'s.
        let slot = unsafe { self.len_mut(i) };
        *slot -= 1;
        let l = *slot;
        if T {
            // without branches: the tests are taken about as often as not
            let zero = (l == 0 && i <= n1) as u32;
            self.zeros = self.zeros.wrapping_add(zero);
            // SAFETY: the caller's contract is `small_mut`'s.
            *unsafe { self.small_mut(i) } |= ((l == 1) as u64) << (i % 64);
        }
    }

    /// One more option in item `i`'s list.
    ///
    /// # Safety
    ///
    /// `i <= self.n + 1`: an item or a root.
    #[inline(always)]
    unsafe fn inc_len<const T: bool>(&mut self, i: u32) {
        let n1 = self.n1;
        // SAFETY: the caller's contract is `len_mut`'s.
        let slot = unsafe { self.len_mut(i) };
        *slot += 1;
        let l = *slot;
        if T {
            let zero = (l == 1 && i <= n1) as u32;
            self.zeros = self.zeros.wrapping_sub(zero);
            // SAFETY: the caller's contract is `small_mut`'s.
            *unsafe { self.small_mut(i) } &= !(((l == 2) as u64) << (i % 64));
        }
    }

    /// The first active primary item with no option left (a dead end), or
    /// else the first with one (a forced move), found from the bit sets
    /// without scanning every length: exactly what
    /// [`min_primary`](Self::min_primary) returns when the minimum is at
    /// most one. `None` when every active primary item has two options or more.
    #[inline]
    pub fn min_small(&self) -> Option<(u32, u32)> {
        let n1 = self.n1;
        let words = (n1 / 64 + 1) as usize;
        let mut first = None;
        for w in 0..words {
            let mut m = self.small[w] & self.active[w];
            if w + 1 == words && n1 % 64 != 63 {
                m &= (1u64 << (n1 % 64 + 1)) - 1;
            }
            // every bit left in `m` is an item `i <= n1` (the bits above
            // `n1` were just masked off), so `i <= n` (invariant 1)
            if m != 0 && self.zeros == 0 {
                // no dead end: the first is a forced move
                let i = w as u32 * 64 + m.trailing_zeros();
                // SAFETY: `i <= n1 <= n`, see above.
                return Some((i, unsafe { self.len_at(i) }));
            }
            while m != 0 {
                let i = w as u32 * 64 + m.trailing_zeros();
                // SAFETY: `i <= n1 <= n`, see above.
                if unsafe { self.len_at(i) } == 0 {
                    return Some((i, 0));
                }
                first.get_or_insert(i);
                m &= m - 1;
            }
        }
        first.map(|i| (i, 1))
    }

    /// [`min_primary`](Self::min_primary) for small problems: a walk over
    /// the bits of the active primary items only (fewer as the search goes
    /// deeper), stopping at a dead end.
    #[inline]
    pub fn min_active(&self) -> Option<(u32, u32)> {
        let n1 = self.n1;
        let words = (n1 / 64 + 1) as usize;
        let (mut best, mut best_len) = (0, u32::MAX);
        for w in 0..words {
            let mut m = self.active[w];
            if w + 1 == words && n1 % 64 != 63 {
                m &= (1u64 << (n1 % 64 + 1)) - 1;
            }
            while m != 0 {
                let i = w as u32 * 64 + m.trailing_zeros();
                // SAFETY: `i <= n1 <= n` (invariant 1): the bits above `n1`
                // were masked off.
                let l = unsafe { self.len_at(i) };
                if l < best_len {
                    best = i;
                    best_len = l;
                    if l == 0 {
                        return Some((i, 0));
                    }
                }
                m &= m - 1;
            }
        }
        (best_len != u32::MAX).then_some((best, best_len))
    }

    /// The primary item with the fewest options, first in order on ties, by
    /// a straight scan of `len | inactive` in blocks of 32 (vectorisable);
    /// the scan stops after the first block holding an item with no
    /// option left (a dead end). `None` when every primary item is covered.
    #[inline]
    pub fn min_primary(&self) -> Option<(u32, u32)> {
        const BLOCK: usize = 32;
        let n1 = self.n1 as usize;
        let len = &self.len[1..=n1];
        let act = &self.inactive[1..=n1];
        let (mut best, mut best_block) = (u32::MAX, 0);
        for (b, (lc, ac)) in len.chunks(BLOCK).zip(act.chunks(BLOCK)).enumerate() {
            let m = lc.iter().zip(ac).fold(u32::MAX, |m, (&l, &a)| m.min(l | a));
            if m < best {
                best = m;
                best_block = b;
                if m == 0 {
                    break;
                }
            }
        }
        if best == u32::MAX {
            return None;
        }
        let start = best_block * BLOCK;
        let end = (start + BLOCK).min(n1);
        let k = len[start..end]
            .iter()
            .zip(&act[start..end])
            .position(|(&l, &a)| l | a == best)?;
        Some(((start + k) as u32 + 1, best))
    }

    /// [`min_primary`](Self::min_primary) by a walk of the list of active
    /// primary items (Knuth's way), for problems too large for the scans:
    /// the first item with the fewest options, stopping at a dead end;
    /// `(0, u32::MAX)` when every primary item is covered.
    #[inline]
    pub fn min_listed(&self) -> (u32, u32) {
        let (mut best, mut best_len) = (0, u32::MAX);
        let mut i = self.rlink[0];
        while i != 0 {
            // SAFETY: `i` was read from `rlink`, so `i <= n + 1` (invariant
            // 5), and `rlink` has `n + 2` entries (invariant 1).
            let (len, next) = unsafe { (self.len_at(i), *self.rlink.get_unchecked(i as usize)) };
            if len < best_len {
                best = i;
                best_len = len;
                if len == 0 {
                    break;
                }
            }
            i = next;
        }
        (best, best_len)
    }

    /// Active primary items up to and including `i` (all of them for `i
    /// >= n1`): what Knuth's walk of the active list visits before it
    /// stops at `i`. For the mems count only (a popcount per word).
    pub fn active_upto(&self, i: u32) -> u64 {
        let i = i.min(self.n1);
        let mut count = 0u64;
        for w in 0..=(i / 64) as usize {
            let mut m = self.active[w];
            if w == (i / 64) as usize && i % 64 != 63 {
                m &= (1u64 << (i % 64 + 1)) - 1;
            }
            count += m.count_ones() as u64;
        }
        count
    }

    /// The next active item after `i` in its header list (`i <= n + 1`,
    /// checked).
    #[inline(always)]
    pub fn rlink_of(&self, i: u32) -> u32 {
        self.rlink[i as usize]
    }

    /// The first active primary item, or 0 (the root) when every primary
    /// item is covered.
    #[inline(always)]
    pub fn first_active(&self) -> u32 {
        self.rlink[0]
    }

    /// Number of primary items.
    #[inline(always)]
    pub fn n1(&self) -> u32 {
        self.n1
    }

    /// The node below node `x` in its item's list (`x` a node, checked):
    /// the first option of item `x`'s list for a header, the header again
    /// after the last option.
    #[inline(always)]
    pub fn down_of(&self, x: u32) -> u32 {
        self.nodes[x as usize].down
    }

    /// Load a problem, reusing memory. `order` gives the order in which
    /// options are appended to item lists (identity when `None`).
    pub fn load(&mut self, p: &Problem, order: Option<&[u32]>) {
        // build aside: should `fill` panic, `self` is left the (valid)
        // empty structure rather than a half-built one
        let mut built = std::mem::take(self);
        built.fill(p, order);
        *self = built;
    }

    /// [`load`](Self::load) into whatever the arrays hold, through the
    /// same steps as a problem streamed from the parser ([`begin`],
    /// [`push_option`], [`finish`]); the invariants hold once it returns.
    ///
    /// [`begin`]: Self::begin
    /// [`push_option`]: Self::push_option
    /// [`finish`]: Self::finish
    fn fill(&mut self, p: &Problem, order: Option<&[u32]>) {
        self.begin(p.items(), order.is_none());
        let n = self.n as usize;
        self.nodes
            .reserve(n + 2 + p.entry_count() + p.option_count());
        let (entries, bounds) = p.raw_parts();
        for w in bounds.windows(2) {
            let opt = &entries[w[0] as usize..w[1] as usize];
            self.push_option(opt.iter().map(|e| (e.item, e.colour)));
        }
        self.finish(order);
    }

    /// Start loading a problem of these items (in problem order): the
    /// headers and the first spacer, no option yet. `thread`: thread each
    /// option into its items' lists as it comes (else [`finish`](Self::finish)
    /// threads them in its order). Until `finish` returns, only
    /// [`push_option`](Self::push_option) may be called.
    pub(crate) fn begin(&mut self, items: &[Item], thread: bool) {
        let n = items.len() as u32;
        let n1 = items.iter().filter(|i| !i.is_secondary()).count() as u32;
        self.n = n;
        self.n1 = n1;
        self.to_engine.clear();
        self.to_engine.resize(n as usize, 0);
        self.to_problem.clear();
        self.to_problem.resize(n as usize + 1, 0);
        let (mut np, mut ns) = (1u32, n1 + 1);
        for (k, it) in items.iter().enumerate() {
            let e = if it.is_secondary() {
                ns += 1;
                ns - 1
            } else {
                np += 1;
                np - 1
            };
            self.to_engine[k] = e;
            self.to_problem[e as usize] = k as u32;
        }
        let h = n as usize + 2;
        let root2 = n + 1;
        self.len.clear();
        self.len.resize(h, 0);
        self.inactive.clear();
        self.inactive.resize(h, 0);
        self.llink.clear();
        self.rlink.clear();
        self.llink.resize(h, 0);
        self.rlink.resize(h, 0);
        // primary items 1..=n1 in a circular list rooted at 0
        for i in 0..=n1 {
            self.rlink[i as usize] = if i == n1 { 0 } else { i + 1 };
            self.llink[i as usize] = if i == 0 { n1 } else { i - 1 };
        }
        // secondary items n1+1..=n in a circular list rooted at n+1
        let mut prev = root2;
        for i in n1 + 1..=n {
            self.llink[i as usize] = prev;
            self.rlink[prev as usize] = i;
            prev = i;
        }
        self.rlink[prev as usize] = root2;
        self.llink[root2 as usize] = prev;
        self.lo.clear();
        self.hi.clear();
        self.count.clear();
        self.lo.resize(n1 as usize + 1, 1);
        self.hi.resize(n1 as usize + 1, 1);
        self.count.resize(n1 as usize + 1, 0);
        self.multi = false;
        for (k, it) in items.iter().enumerate() {
            if !it.is_secondary() {
                let e = self.to_engine[k] as usize;
                let (lo, hi) = it.bounds();
                self.lo[e] = lo;
                self.hi[e] = hi;
                self.multi |= (lo, hi) != (1, 1);
            }
        }
        // nodes: headers 0..=n, first spacer n+1, then options
        self.nodes.clear();
        for i in 0..=n {
            self.nodes.push(Node {
                top: 0,
                up: i,
                down: i,
                aux: 0,
            });
        }
        self.nodes.push(Node {
            top: 0,
            up: 0,
            down: 0,
            aux: 0,
        });
        self.starts.clear();
        self.span.clear();
        self.coloured = false;
        self.wide = false;
        self.threaded = thread;
    }

    /// Number of nodes so far (headers, spacers and option nodes).
    pub(crate) fn node_count(&self) -> usize {
        self.nodes.len()
    }

    /// Append the next option after [`begin`](Self::begin): its entries as
    /// (problem item, colour or 0), at least one, items in range and not
    /// repeated (as [`Problem`] guarantees; the parser checks them first).
    pub(crate) fn push_option(&mut self, entries: impl IntoIterator<Item = (u32, u32)>) {
        let k = self.starts.len();
        let first = self.nodes.len() as u32;
        let thread = self.threaded;
        for (item, colour) in entries {
            let i = self.to_engine[item as usize];
            let x = self.nodes.len() as u32;
            let (up, down) = if thread {
                let up = self.nodes[i as usize].up;
                self.nodes[up as usize].down = x;
                self.nodes[i as usize].up = x;
                self.len[i as usize] += 1;
                (up, i)
            } else {
                (0, 0)
            };
            self.coloured |= colour != 0;
            self.nodes.push(Node {
                top: i as i32,
                up,
                down,
                aux: colour as i32,
            });
        }
        let last = self.nodes.len() as u32 - 1;
        assert!(last >= first, "an option has at least one item");
        self.wide |= last - first >= 1 << 16;
        // the spacer before the option points at its last node
        let last_spacer = first as usize - 1;
        self.nodes[last_spacer].down = last;
        self.nodes.push(Node {
            top: -(k as i32) - 1,
            up: first,
            down: 0,
            aux: 0,
        });
        self.starts.push(first);
    }

    /// End loading: thread the options in `order` if they were not
    /// threaded as they came, give each option node its option's span (in
    /// `aux` for plain problems, in `span` for others), and set up the bit
    /// sets and counters. The invariants hold once it returns.
    pub(crate) fn finish(&mut self, order: Option<&[u32]>) {
        let n = self.n;
        let n1 = self.n1;
        let h = n as usize + 2;
        // thread vertical lists in `order`
        if !self.threaded {
            let identity: Vec<u32>;
            let ord = match order {
                Some(o) => o,
                None => {
                    identity = (0..self.starts.len() as u32).collect();
                    &identity
                }
            };
            for &k in ord {
                let mut x = self.starts[k as usize] as usize;
                while self.nodes[x].top > 0 {
                    let i = self.nodes[x].top as usize;
                    let last = self.nodes[i].up;
                    self.nodes[x].up = last;
                    self.nodes[x].down = i as u32;
                    self.nodes[last as usize].down = x as u32;
                    self.nodes[i].up = x as u32;
                    self.len[i] += 1;
                    x += 1;
                }
            }
            self.threaded = true;
        }
        // spans: the last node in `aux` (plain problems), or the `span`
        // array beside the colours
        let plain = self.is_plain();
        if !plain {
            self.span.clear();
            self.span.resize(self.nodes.len(), (0, 0));
        }
        let mut x = h;
        while x < self.nodes.len() {
            let s = x;
            while self.nodes[x].top > 0 {
                x += 1;
            }
            // `x` is the spacer after the option `s..x`
            let e = x as u32 - 1;
            for y in s..x {
                if plain {
                    // both distances below 2^16 (not `wide`)
                    let packed = (e - y as u32) << 16 | (y - s) as u32;
                    self.nodes[y].aux = packed as i32;
                } else {
                    self.span[y] = (s as u32, e);
                }
            }
            x += 1;
        }
        let words = h.div_ceil(64);
        self.small.clear();
        self.small.resize(words, 0);
        self.active.clear();
        self.active.resize(words, 0);
        for i in 1..=n {
            if self.len[i as usize] <= 1 {
                self.small[(i / 64) as usize] |= 1 << (i % 64);
            }
            self.active[(i / 64) as usize] |= 1 << (i % 64);
        }
        self.track = !plain || n1 > TRACK_ITEMS;
        self.stale = false;
        self.zeros = (1..=n1).filter(|&i| self.len[i as usize] == 0).count() as u32;
        self.updates = 0;
        self.mems = 0;
    }

    /// Recompute `small` and `zeros` from the lengths if they are stale.
    #[inline]
    pub fn resync(&mut self) {
        if !self.stale {
            return;
        }
        self.stale = false;
        self.small.fill(0);
        self.zeros = 0;
        for i in 1..=self.n {
            let l = self.len[i as usize];
            self.small[(i / 64) as usize] |= ((l <= 1) as u64) << (i % 64);
            self.zeros += (l == 0 && i <= self.n1 && self.is_active(i)) as u32;
        }
    }

    /// Whether the problem needs none of the colour and multiplicity
    /// machinery: then committing a node of a chosen option is covering its
    /// item, and `hide` never meets a purified node.
    #[inline]
    pub fn is_plain(&self) -> bool {
        !self.multi && !self.coloured && !self.wide
    }

    pub fn bytes(&self) -> u64 {
        (self.nodes.capacity() * std::mem::size_of::<Node>()
            + (self.len.capacity()
                + self.inactive.capacity()
                + (self.small.capacity() + self.active.capacity()) * 2
                + self.span.capacity() * 2
                + self.starts.capacity()
                + self.llink.capacity()
                + self.rlink.capacity()
                + self.lo.capacity()
                + self.hi.capacity()
                + self.count.capacity()
                + self.to_engine.capacity()
                + self.to_problem.capacity())
                * 4) as u64
    }

    /// Number of options loaded.
    pub fn option_count(&self) -> usize {
        self.starts.len()
    }

    /// The first node of option `k` with a primary item (`None` when the
    /// option has none: the search can never choose it).
    fn primary_node(&self, k: usize) -> Option<u32> {
        let (s, e) = self.option_span(self.starts[k]);
        (s..=e).find(|&p| self.nodes[p as usize].top as u32 <= self.n1)
    }

    /// The entries of option `k` in the order they were given, as
    /// (problem item, colour or 0), at any time (a colour that `purify`
    /// marked as known to match is read back from its negation); `None`
    /// past the last option.
    pub fn option_entries(&self, k: usize) -> Option<impl Iterator<Item = (u32, u32)> + '_> {
        let first = *self.starts.get(k)? as usize;
        let coloured = !self.span.is_empty();
        Some(
            self.nodes[first..]
                .iter()
                .take_while(|nd| nd.top > 0)
                .map(move |nd| {
                    let colour = if coloured { nd.aux.unsigned_abs() } else { 0 };
                    (self.to_problem[nd.top as usize], colour)
                }),
        )
    }

    /// Whether option `k` can still be chosen: it has a primary item, which
    /// is active and still has the option in its list. (Covering an item
    /// hides every option in its list from the lists of their other items,
    /// purifying hides options of another colour, and a selected option
    /// leaves the lists of items with multiplicity.)
    pub fn option_available(&self, k: usize) -> bool {
        let Some(x) = self.primary_node(k) else {
            return false;
        };
        let Node { top, up, .. } = self.nodes[x as usize];
        self.is_active(top as u32) && self.nodes[up as usize].down == x
    }

    fn is_active(&self, i: u32) -> bool {
        self.active[(i / 64) as usize] >> (i % 64) & 1 == 1
    }

    /// Choose option `k` outside the search, as the search chooses an option
    /// for its first primary item (the caller checked
    /// [`option_available`](Self::option_available)). Returns that node, for
    /// [`unselect`](Self::unselect).
    pub fn select(&mut self, k: usize) -> u32 {
        let x = self.primary_node(k).expect("an available option");
        let i = self.nodes[x as usize].top as u32;
        if self.is_plain() {
            // without the bit set upkeep: `resync` redoes it once for all
            // the selections, before the search
            self.cover_g::<false, false, false>(i);
            self.apply_others_g::<true, false, false>(x);
            self.stale = self.track;
            return x;
        }
        if self.is_simple(i) {
            self.cover(i);
        } else {
            self.hide_fully(x);
            self.count[i as usize] += 1;
            if self.count[i as usize] == self.hi[i as usize] {
                self.cover(i);
            }
        }
        self.apply_others(x);
        x
    }

    /// Undo [`select`](Self::select) of the option of node `x` (in the
    /// reverse order of the selections).
    pub fn unselect(&mut self, x: u32) {
        let i = self.nodes[x as usize].top as u32;
        if self.is_plain() {
            self.unapply_others_g::<true, false, false>(x);
            self.uncover_g::<false, false, false>(i);
            self.stale = self.track;
            return;
        }
        self.unapply_others(x);
        if self.is_simple(i) {
            self.uncover(i);
        } else {
            if self.count[i as usize] == self.hi[i as usize] {
                self.uncover(i);
            }
            self.count[i as usize] -= 1;
            self.unhide_fully(x);
        }
    }

    /// The option (problem index) that node `x` belongs to: the spacer
    /// after the option's last node holds it.
    pub fn option_of(&self, x: u32) -> u32 {
        let (_, e) = self.option_span(x);
        (-self.nodes[e as usize + 1].top - 1) as u32
    }

    /// The span of option node `x`, after checking that `x` is one: the
    /// entry check of the methods that walk a chosen option.
    #[inline(always)]
    fn option_span(&self, x: u32) -> (u32, u32) {
        assert!(self.nodes[x as usize].top > 0, "an option node");
        if self.span.is_empty() {
            // SAFETY: `x < nodes.len()` (the indexing above did not panic),
            // and the problem is plain.
            unsafe { self.span_of::<false>(x) }
        } else {
            self.span[x as usize]
        }
    }

    /// The first and last node of the option of node `p`: from the
    /// distances in `aux` on the plain path (`C = false`), from `span` on
    /// the general path (checked indexing). `(p, p)` for a header or a
    /// spacer on the plain path, `(0, 0)` on the general path.
    ///
    /// # Safety
    ///
    /// `p < self.nodes.len()`, and with `C = false` the problem is plain
    /// (`span` is empty), as the entry points check.
    #[inline(always)]
    unsafe fn span_of<const C: bool>(&self, p: u32) -> (u32, u32) {
        if C {
            self.span[p as usize]
        } else {
            debug_assert!(self.span.is_empty());
            // SAFETY: `p` is a node; its `aux` holds the distances to the
            // ends of its option, or 0 (invariant 4).
            let a = unsafe { self.nd(p) }.aux as u32;
            (p - (a & 0xffff), p + (a >> 16))
        }
    }

    /// One node of [`hide_g`](Self::hide_g): 1 when it was unlinked.
    ///
    /// # Safety
    ///
    /// `q` is a header or an option node.
    #[inline(always)]
    unsafe fn hide_node<const C: bool, const T: bool>(&mut self, q: u32) -> u64 {
        // SAFETY: headers and option nodes are nodes.
        let Node {
            top,
            up,
            down,
            aux: colour,
        } = *unsafe { self.nd(q) };
        if !C || colour >= 0 {
            // SAFETY: `up` and `down` are nodes (invariant 3), and `top`,
            // the item of an option node or 0 for a header, is at most `n`
            // (invariant 2). The stored `down` and `up` are other nodes'
            // `up`/`down`, which keeps invariant 3.
            unsafe {
                self.nd_mut(up).down = down;
                self.nd_mut(down).up = up;
                self.dec_len::<T>(top as u32);
            }
            1
        } else {
            0
        }
    }

    /// # Safety
    ///
    /// `q` is a header or an option node.
    #[inline(always)]
    unsafe fn unhide_node<const C: bool, const T: bool>(&mut self, q: u32) -> u64 {
        // SAFETY: headers and option nodes are nodes.
        let Node {
            top,
            up,
            down,
            aux: colour,
        } = *unsafe { self.nd(q) };
        if !C || colour >= 0 {
            // SAFETY: as in `hide_node`; the stored `q` is a header or an
            // option node, which keeps invariant 3.
            unsafe {
                self.nd_mut(up).down = q;
                self.nd_mut(down).up = q;
                self.inc_len::<T>(top as u32);
            }
            1
        } else {
            0
        }
    }

    /// Take the option of node `p` out of the lists of its other items.
    /// `C`: the problem may have colours, so purified nodes (colour < 0)
    /// are already out of their lists and are skipped; with `C = false` that
    /// check is compiled away.
    ///
    /// The loop runs over the nodes after `p` in its option, then those
    /// before it (Knuth's cyclic order), without meeting the spacers. Items
    /// of one option are distinct, so the order of the updates within an
    /// option does not matter.
    /// `T`: keep the `small` bit set up to date (see [`track`](Self::track)).
    /// `M`: count mems: 2 for each other node read (its two words), 4 more
    /// for each node taken out (two links written, its item's length read
    /// and written), as Knuth's DLX1 and DLX2 charge hiding, and 1 on the
    /// general path for the option's span (on the plain path it is in the
    /// word of `p` just read for its link; DLX1 pays 2 for the spacer).
    ///
    /// # Safety
    ///
    /// `p` is a header or an option node, and with `C = false` the problem
    /// is plain. (For a header the loops visit nothing, or on the general
    /// path the headers below `p`: nonsense, but in bounds; the search
    /// never hides a header.)
    #[inline(always)]
    unsafe fn hide_g<const C: bool, const T: bool, const M: bool>(&mut self, p: u32) {
        // SAFETY: `p` is a node.
        let (s, e) = unsafe { self.span_of::<C>(p) };
        let mut updates = 0;
        let mut q = p + 1;
        while q <= e {
            // SAFETY: `q` is in `p+1..=e`, option nodes (invariant 4).
            updates += unsafe { self.hide_node::<C, T>(q) };
            q += 1;
        }
        let mut q = s;
        while q < p {
            // SAFETY: `q` is in `s..p`: option nodes (invariant 4), or for a
            // header `p` headers below it (general path).
            updates += unsafe { self.hide_node::<C, T>(q) };
            q += 1;
        }
        self.updates += updates;
        if M {
            self.mems += C as u64 + 2 * (e - s) as u64 + 4 * updates;
        }
    }

    /// # Safety
    ///
    /// As for [`hide_g`](Self::hide_g).
    #[inline(always)]
    unsafe fn unhide_g<const C: bool, const T: bool, const M: bool>(&mut self, p: u32) {
        // SAFETY: `p` is a node.
        let (s, e) = unsafe { self.span_of::<C>(p) };
        let mut relinked = 0;
        let mut q = p;
        while q > s {
            q -= 1;
            // SAFETY: `q` is in `s..p`, as in `hide_g`.
            relinked += unsafe { self.unhide_node::<C, T>(q) };
        }
        let mut q = e + 1;
        while q > p + 1 {
            q -= 1;
            // SAFETY: `q` is in `p+1..=e`, as in `hide_g`.
            relinked += unsafe { self.unhide_node::<C, T>(q) };
        }
        if M {
            self.mems += C as u64 + 2 * (e - s) as u64 + 4 * relinked;
        }
    }

    /// # Safety
    ///
    /// As for [`hide_g`](Self::hide_g).
    #[inline(always)]
    unsafe fn hide<const M: bool>(&mut self, p: u32) {
        // SAFETY: the same contract.
        unsafe { self.hide_g::<true, true, M>(p) }
    }

    /// # Safety
    ///
    /// As for [`hide_g`](Self::hide_g).
    #[inline(always)]
    unsafe fn unhide<const M: bool>(&mut self, p: u32) {
        // SAFETY: the same contract.
        unsafe { self.unhide_g::<true, true, M>(p) }
    }

    /// Take primary item `i` out of the active list and bit set. Secondary
    /// items are left alone: nothing walks their list or reads their
    /// bits, and their lengths are not MRV candidates. `T`: keep `zeros`
    /// up to date (see [`track`](Self::track)).
    #[inline(always)]
    fn deactivate<const T: bool>(&mut self, i: u32) {
        if i > self.n1 {
            return;
        }
        let iu = i as usize;
        debug_assert!(iu < self.llink.len() && iu < self.inactive.len());
        // SAFETY: `i <= n1 <= n` and `llink`, `rlink` and `inactive` have
        // `n + 2` entries, `active` a bit for each (invariant 1); `l` and
        // `r` are at most `n + 1` (invariant 5), as is the value stored.
        unsafe {
            let l = *self.llink.get_unchecked(iu);
            let r = *self.rlink.get_unchecked(iu);
            *self.rlink.get_unchecked_mut(l as usize) = r;
            *self.llink.get_unchecked_mut(r as usize) = l;
            *self.inactive.get_unchecked_mut(iu) = u32::MAX;
            *self.active.get_unchecked_mut(iu / 64) &= !(1 << (i % 64));
        }
        if T {
            // SAFETY: `i <= n1 <= n` (invariant 1).
            let zero = (unsafe { self.len_at(i) } == 0) as u32;
            self.zeros = self.zeros.wrapping_sub(zero);
        }
    }

    #[inline(always)]
    fn reactivate<const T: bool>(&mut self, i: u32) {
        if i > self.n1 {
            return;
        }
        let iu = i as usize;
        debug_assert!(iu < self.llink.len() && iu < self.inactive.len());
        // SAFETY: as in `deactivate`; the value stored, `i`, is at most `n1`.
        unsafe {
            let l = *self.llink.get_unchecked(iu);
            let r = *self.rlink.get_unchecked(iu);
            *self.rlink.get_unchecked_mut(l as usize) = i;
            *self.llink.get_unchecked_mut(r as usize) = i;
            *self.inactive.get_unchecked_mut(iu) = 0;
            *self.active.get_unchecked_mut(iu / 64) |= 1 << (i % 64);
        }
        if T {
            // SAFETY: `i <= n1 <= n` (invariant 1).
            let zero = (unsafe { self.len_at(i) } == 0) as u32;
            self.zeros = self.zeros.wrapping_add(zero);
        }
    }

    /// Remove item `i` from its header list and hide every option in its
    /// list; `C` as in `hide_g`. `i` must be an item (checked).
    #[inline(always)]
    pub fn cover_g<const C: bool, const T: bool, const M: bool>(&mut self, i: u32) {
        assert!(i <= self.n, "an item");
        assert!(
            C || self.span.is_empty(),
            "the plain path on a plain problem"
        );
        // SAFETY: just checked.
        unsafe { self.cover_item::<C, T, M>(i) }
    }

    /// [`cover_g`](Self::cover_g) without the check. `M`: count mems, as
    /// DLX1 does: 1 per link followed down the item's list (the header's
    /// and each option's), the hiding, and for a primary item 4 to take it
    /// out of the active list (its two links read, two written; the bit
    /// set and the `inactive` flag, kept for the scans, are not counted).
    ///
    /// # Safety
    ///
    /// `i <= self.n`: an item (or the root).
    #[inline(always)]
    unsafe fn cover_item<const C: bool, const T: bool, const M: bool>(&mut self, i: u32) {
        // SAFETY: header `i` is a node (invariant 1); every `p` met is a
        // header or an option node (invariant 3), as `hide_g` requires.
        unsafe {
            let mut p = self.nd(i).down;
            while p != i {
                self.hide_g::<C, T, M>(p);
                if M {
                    self.mems += 1;
                }
                p = self.nd(p).down;
            }
        }
        if M {
            self.mems += 1 + 4 * (i <= self.n1) as u64;
        }
        self.deactivate::<T>(i);
    }

    /// Undo [`cover_g`](Self::cover_g). `i` must be an item (checked).
    #[inline(always)]
    pub fn uncover_g<const C: bool, const T: bool, const M: bool>(&mut self, i: u32) {
        assert!(i <= self.n, "an item");
        assert!(
            C || self.span.is_empty(),
            "the plain path on a plain problem"
        );
        // SAFETY: just checked.
        unsafe { self.uncover_item::<C, T, M>(i) }
    }

    /// [`uncover_g`](Self::uncover_g) without the check.
    ///
    /// # Safety
    ///
    /// `i <= self.n`: an item (or the root).
    #[inline(always)]
    unsafe fn uncover_item<const C: bool, const T: bool, const M: bool>(&mut self, i: u32) {
        self.reactivate::<T>(i);
        // SAFETY: as in `cover_item`.
        unsafe {
            let mut p = self.nd(i).up;
            while p != i {
                self.unhide_g::<C, T, M>(p);
                if M {
                    self.mems += 1;
                }
                p = self.nd(p).up;
            }
        }
        if M {
            self.mems += 1 + 4 * (i <= self.n1) as u64;
        }
    }

    /// `cover` on the code path for plain problems (`PLAIN`) or any problem.
    #[inline(always)]
    pub fn cover_p<const PLAIN: bool, const T: bool, const M: bool>(&mut self, i: u32) {
        if PLAIN {
            self.cover_g::<false, T, M>(i)
        } else {
            self.cover_g::<true, true, M>(i)
        }
    }

    #[inline(always)]
    pub fn uncover_p<const PLAIN: bool, const T: bool, const M: bool>(&mut self, i: u32) {
        if PLAIN {
            self.uncover_g::<false, T, M>(i)
        } else {
            self.uncover_g::<true, true, M>(i)
        }
    }

    /// Remove item `i` from its header list and hide every option in its
    /// list, counting mems if [`count_mems`](Self::count_mems).
    #[inline]
    pub fn cover(&mut self, i: u32) {
        match (self.is_plain(), self.count_mems) {
            (true, true) => self.cover_g::<false, true, true>(i),
            (true, false) => self.cover_g::<false, true, false>(i),
            (false, true) => self.cover_g::<true, true, true>(i),
            (false, false) => self.cover_g::<true, true, false>(i),
        }
    }

    #[inline]
    pub fn uncover(&mut self, i: u32) {
        match (self.is_plain(), self.count_mems) {
            (true, true) => self.uncover_g::<false, true, true>(i),
            (true, false) => self.uncover_g::<false, true, false>(i),
            (false, true) => self.uncover_g::<true, true, true>(i),
            (false, false) => self.uncover_g::<true, true, false>(i),
        }
    }

    /// Hide the options of item `p`'s item with another colour than
    /// `p`'s and mark those with the same. `M`: mems as DLX2 charges them
    /// (the node read, each link followed and colour read, each mark
    /// written, the hiding).
    #[inline]
    fn purify<const M: bool>(&mut self, p: u32) {
        let Node { top: i, aux: c, .. } = self.nodes[p as usize];
        let i = i as u32;
        let mut q = self.nodes[i as usize].down;
        let mut mems = 2;
        while q != i {
            mems += 2;
            if self.nodes[q as usize].aux == c {
                // the colour negated (Knuth: -1), so it can still be printed
                self.nodes[q as usize].aux = -c;
                mems += 1;
            } else {
                // SAFETY: `q` is a header or an option node (invariant 3).
                unsafe { self.hide::<M>(q) };
            }
            q = self.nodes[q as usize].down;
        }
        if M {
            self.mems += mems;
        }
    }

    #[inline]
    fn unpurify<const M: bool>(&mut self, p: u32) {
        let Node { top: i, aux: c, .. } = self.nodes[p as usize];
        let i = i as u32;
        let mut q = self.nodes[i as usize].up;
        let mut mems = 2;
        while q != i {
            mems += 2;
            if self.nodes[q as usize].aux < 0 {
                self.nodes[q as usize].aux = c;
                mems += 1;
            } else {
                // SAFETY: `q` is a header or an option node (invariant 3).
                unsafe { self.unhide::<M>(q) };
            }
            q = self.nodes[q as usize].up;
        }
        if M {
            self.mems += mems;
        }
    }

    /// The colour of option node `p` (0 in plain problems, whose `aux`
    /// holds the option's last node instead).
    #[inline(always)]
    fn colour_of(&self, p: u32) -> i32 {
        if self.span.is_empty() {
            0
        } else {
            self.nodes[p as usize].aux
        }
    }

    /// Account for node `p` (of a chosen option) covering item `j`.
    ///
    /// # Safety
    ///
    /// `p` is an option node and `j` its item.
    #[inline]
    unsafe fn commit<const M: bool>(&mut self, p: u32, j: u32) {
        if M {
            // the count read and written, or the colour read
            self.mems += if j <= self.n1 { 2 } else { 1 };
        }
        if j <= self.n1 {
            let c = &mut self.count[j as usize];
            *c += 1;
            if *c == self.hi[j as usize] {
                // SAFETY: `j` is an item.
                unsafe { self.cover_item::<true, true, M>(j) };
            }
        } else {
            let c = self.colour_of(p);
            if c == 0 {
                // SAFETY: `j` is an item.
                unsafe { self.cover_item::<true, true, M>(j) };
            } else if c > 0 {
                self.purify::<M>(p);
            }
        }
    }

    /// Undo [`commit`](Self::commit).
    ///
    /// # Safety
    ///
    /// `p` is an option node and `j` its item.
    #[inline]
    unsafe fn uncommit<const M: bool>(&mut self, p: u32, j: u32) {
        if M {
            self.mems += if j <= self.n1 { 2 } else { 1 };
        }
        if j <= self.n1 {
            if self.count[j as usize] == self.hi[j as usize] {
                // SAFETY: `j` is an item.
                unsafe { self.uncover_item::<true, true, M>(j) };
            }
            self.count[j as usize] -= 1;
        } else {
            let c = self.colour_of(p);
            if c == 0 {
                // SAFETY: `j` is an item.
                unsafe { self.uncover_item::<true, true, M>(j) };
            } else if c > 0 {
                self.unpurify::<M>(p);
            }
        }
    }

    /// Commit every node of the option of `x` except `x` itself. With
    /// `PLAIN` (no colours, no multiplicities: see [`is_plain`](Self::is_plain))
    /// committing is covering. `x` must be an option node (checked).
    #[inline(always)]
    ///
    /// `M`: count mems: 1 for each other node's item read, 1 on the
    /// general path for the span (DLX1 pays 2 for the spacer), and the
    /// covering.
    pub fn apply_others_g<const PLAIN: bool, const T: bool, const M: bool>(&mut self, x: u32) {
        assert!(
            !PLAIN || self.span.is_empty(),
            "the plain path on a plain problem"
        );
        let (s, e) = self.option_span(x);
        if M {
            self.mems += !PLAIN as u64 + (e - s) as u64;
        }
        // the nodes after `x`, then those before it (Knuth's cyclic order)
        for p in (x + 1..e + 1).chain(s..x) {
            // SAFETY: `p` is in the span of option node `x`: an option node
            // (invariant 4), whose `top` is an item (invariant 2).
            let j = unsafe { self.nd(p) }.top as u32;
            if PLAIN {
                // SAFETY: `j` is an item.
                unsafe { self.cover_item::<false, T, M>(j) };
            } else {
                // SAFETY: `p` is an option node and `j` its item.
                unsafe { self.commit::<M>(p, j) };
            }
        }
    }

    /// Undo [`apply_others_g`](Self::apply_others_g). `x` must be an
    /// option node (checked).
    #[inline(always)]
    pub fn unapply_others_g<const PLAIN: bool, const T: bool, const M: bool>(&mut self, x: u32) {
        assert!(
            !PLAIN || self.span.is_empty(),
            "the plain path on a plain problem"
        );
        let (s, e) = self.option_span(x);
        if M {
            self.mems += !PLAIN as u64 + (e - s) as u64;
        }
        for p in (s..x).rev().chain((x + 1..e + 1).rev()) {
            // SAFETY: as in `apply_others_g`.
            let j = unsafe { self.nd(p) }.top as u32;
            if PLAIN {
                // SAFETY: `j` is an item.
                unsafe { self.uncover_item::<false, T, M>(j) };
            } else {
                // SAFETY: `p` is an option node and `j` its item.
                unsafe { self.uncommit::<M>(p, j) };
            }
        }
    }

    #[inline]
    pub fn apply_others(&mut self, x: u32) {
        match (self.is_plain(), self.count_mems) {
            (true, true) => self.apply_others_g::<true, true, true>(x),
            (true, false) => self.apply_others_g::<true, true, false>(x),
            (false, true) => self.apply_others_g::<false, true, true>(x),
            (false, false) => self.apply_others_g::<false, true, false>(x),
        }
    }

    #[inline]
    pub fn unapply_others(&mut self, x: u32) {
        match (self.is_plain(), self.count_mems) {
            (true, true) => self.unapply_others_g::<true, true, true>(x),
            (true, false) => self.unapply_others_g::<true, true, false>(x),
            (false, true) => self.unapply_others_g::<false, true, true>(x),
            (false, false) => self.unapply_others_g::<false, true, false>(x),
        }
    }

    /// Take the whole option of `x` out of every list, including `x` from its
    /// own item's list (Knuth's "tweak", for items with multiplicity). `x`
    /// must be an option node (checked).
    pub fn hide_fully(&mut self, x: u32) {
        let Node { top, up, down, .. } = self.nodes[x as usize];
        assert!(top > 0, "an option node");
        if self.count_mems {
            // the node read, its two neighbours' links, its item's length
            self.mems += 5;
            // SAFETY: `x` is an option node (checked above).
            unsafe { self.hide::<true>(x) };
        } else {
            // SAFETY: as above.
            unsafe { self.hide::<false>(x) };
        }
        self.nodes[up as usize].down = down;
        self.nodes[down as usize].up = up;
        // SAFETY: `top` is an item (invariant 2).
        unsafe { self.dec_len::<true>(top as u32) };
        self.updates += 1;
    }

    /// Undo [`hide_fully`](Self::hide_fully). `x` must be an option node
    /// (checked).
    pub fn unhide_fully(&mut self, x: u32) {
        let Node { top, up, down, .. } = self.nodes[x as usize];
        assert!(top > 0, "an option node");
        // storing `x` keeps invariant 3: it is an option node
        self.nodes[up as usize].down = x;
        self.nodes[down as usize].up = x;
        // SAFETY: `top` is an item (invariant 2), and `x` an option node.
        unsafe {
            self.inc_len::<true>(top as u32);
            if self.count_mems {
                self.mems += 5;
                self.unhide::<true>(x);
            } else {
                self.unhide::<false>(x);
            }
        }
    }

    /// Knuth's branching degree of primary item `i`: how many ways there are
    /// to continue on it; 0 means a dead end.
    #[inline]
    pub fn theta(&self, i: u32) -> i64 {
        let len = self.len(i) as i64;
        if !self.multi {
            return len;
        }
        let (lo, c) = (self.lo[i as usize] as i64, self.count[i as usize] as i64);
        len + 1 - (lo - c).max(0)
    }

    /// Whether item `i` is covered exactly once by its options (no multiplicity).
    #[inline]
    pub fn is_simple(&self, i: u32) -> bool {
        self.lo[i as usize] == 1 && self.hi[i as usize] == 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::parse;

    fn toy() -> Links {
        // items A B C, secondary X
        let p = parse("A B C | X\nA X:1\nB C X:1\nB\nC\n").unwrap().problem;
        let mut l = Links::default();
        l.load(&p, None);
        l
    }

    /// Assert the invariants listed on [`Links`].
    fn check(l: &Links) {
        let n = l.n as usize;
        assert!(l.nodes.len() >= n + 2);
        assert!(l.span.is_empty() || l.span.len() == l.nodes.len());
        assert_eq!(l.span.is_empty(), l.is_plain());
        for v in [&l.len, &l.inactive, &l.llink, &l.rlink] {
            assert_eq!(v.len(), n + 2);
        }
        assert_eq!(l.small.len(), (n + 2).div_ceil(64));
        assert_eq!(l.active.len(), (n + 2).div_ceil(64));
        assert!(l.n1 <= l.n);
        let option = |x: u32| (x as usize) < l.nodes.len() && l.nodes[x as usize].top > 0;
        for (x, nd) in l.nodes.iter().enumerate() {
            let is_option = x > n && nd.top > 0;
            if x <= n {
                assert_eq!(nd.top, 0);
            }
            assert!(nd.top <= l.n as i32);
            if x <= n || is_option {
                for y in [nd.up, nd.down] {
                    assert!(y as usize <= n || option(y), "node {x} links to {y}");
                }
            }
            if l.span.is_empty() {
                if is_option {
                    let a = nd.aux as u32;
                    let (s, e) = (x - (a & 0xffff) as usize, x + (a >> 16) as usize);
                    assert!(e + 1 < l.nodes.len(), "node {x}: aux {a:#x}");
                    assert!((s as u32..=e as u32).all(option), "node {x}: aux {a:#x}");
                    assert!(l.nodes[e + 1].top <= 0 && l.nodes[s - 1].top <= 0);
                } else {
                    assert_eq!(nd.aux, 0);
                }
            } else {
                let (s, e) = l.span[x];
                if is_option {
                    assert!(s as usize <= x && x <= e as usize);
                    assert!((s..=e).all(option));
                } else {
                    assert_eq!((s, e), (0, 0));
                }
            }
        }
        assert!(l.llink.iter().chain(&l.rlink).all(|&v| v <= l.n + 1));
    }

    /// `Links::default()` meets the invariants, and so do a loaded
    /// structure and the link updates.
    #[test]
    fn invariants_hold() {
        check(&Links::default());
        let mut l = toy();
        check(&l);
        l.cover(1);
        let x = l.down_of(1);
        l.apply_others(x);
        check(&l);
        l.unapply_others(x);
        l.uncover(1);
        check(&l);
        l.load(&crate::Problem::default(), None);
        check(&l);
    }

    /// The methods the search calls check their arguments before the
    /// unchecked code runs.
    #[test]
    fn entry_points_check_their_arguments() {
        type Case = (&'static str, fn(&mut Links));
        let cases: [Case; 6] = [
            ("an item", |l| l.cover(l.n + 1)),
            // node n + 1 is the first spacer
            ("an option node", |l| l.apply_others(l.n + 1)),
            ("an option node", |l| l.hide_fully(1)),
            ("out of bounds", |l| {
                l.unapply_others_g::<false, true, false>(l.nodes.len() as u32)
            }),
            // the toy problem has colours: the plain path is refused
            ("the plain path", |l| l.cover_g::<false, true, false>(1)),
            ("the plain path", |l| {
                let x = l.down_of(1);
                l.apply_others_g::<true, false, false>(x)
            }),
        ];
        for (expected, f) in cases {
            let panic = std::panic::catch_unwind(|| f(&mut toy())).unwrap_err();
            let message = panic
                .downcast_ref::<String>()
                .map(String::as_str)
                .or_else(|| panic.downcast_ref::<&str>().copied())
                .unwrap_or_default();
            assert!(message.contains(expected), "{message:?}: not {expected:?}");
        }
    }
}
