//! The dancing-cells arrays: options as runs of nodes, one sparse set of
//! active options per item in a shared array, a sparse set of active primary
//! items, and the trail of sizes that backtracking restores.
//!
//! Items are numbered for the engine: primary items `0..n1` in the
//! problem's order, then secondary items `n1..n`.

use crate::problem::Problem;

/// "No node".
pub(crate) const NONE: u32 = u32::MAX;

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

#[derive(Clone, Debug, Default)]
pub(crate) struct Sets {
    nodes: Vec<Node>,
    /// Colour of each node (0 = none); empty for problems without colours.
    colour: Vec<u32>,
    /// Every item's set of option nodes, item after item.
    set: Vec<u32>,
    /// Start of each item's slice of `set`.
    base: Vec<u32>,
    /// Number of active options of each item.
    size: Vec<u32>,
    /// The step in which each item's size was last saved on the trail.
    stamp: Vec<u32>,
    /// Whether each secondary item was purified (by a coloured option).
    purified: Vec<bool>,
    /// Active primary items: `pact[..np]`; `ppos[i]` is `i`'s position.
    pact: Vec<u32>,
    ppos: Vec<u32>,
    /// Number of active primary items.
    pub np: u32,
    /// Number of primary items.
    n1: u32,
    /// (item, old size) pairs, or (`PURIFIED | item`, 0).
    trail: Vec<(u32, u32)>,
    /// Current step, for `stamp`.
    epoch: u32,
    /// Whether any option gives a secondary item a colour.
    pub coloured: bool,
    /// Sparse-set removals performed (this engine's "updates").
    pub updates: u64,
}

/// SplitMix64 (Steele, Lea, Flood 2014): the seeded option order.
fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl Sets {
    /// Lay out `p`. With a seed, each item's set starts in a random order
    /// (the options are entered in a shuffled order).
    pub fn load(p: &Problem, seed: Option<u64>) -> Sets {
        let items = p.items();
        let n = items.len();
        let n1 = items.iter().filter(|i| !i.is_secondary()).count();
        let mut to_engine = vec![0u32; n];
        let (mut np, mut ns) = (0u32, n1 as u32);
        for (k, it) in items.iter().enumerate() {
            let slot = if it.is_secondary() { &mut ns } else { &mut np };
            to_engine[k] = *slot;
            *slot += 1;
        }
        let coloured = p.has_colours();
        let (entries, starts) = p.raw_parts();
        let options = starts.len() - 1;
        let mut nodes = Vec::with_capacity(entries.len() + options);
        let mut colour = Vec::with_capacity(if coloured { nodes.capacity() } else { 0 });
        let mut size = vec![0u32; n];
        let mut first_node = Vec::with_capacity(options);
        for k in 0..options {
            let first = nodes.len() as u32;
            first_node.push(first);
            for e in &entries[starts[k] as usize..starts[k + 1] as usize] {
                let i = to_engine[e.item as usize];
                size[i as usize] += 1;
                nodes.push(Node { item: i, loc: 0 });
                if coloured {
                    colour.push(e.colour);
                }
            }
            nodes.push(Node {
                item: SPACER | k as u32,
                loc: first,
            });
            if coloured {
                colour.push(0);
            }
        }
        let mut base = Vec::with_capacity(n);
        let mut total = 0u32;
        for &s in &size {
            base.push(total);
            total += s;
        }
        let mut order: Vec<u32> = (0..options as u32).collect();
        if let Some(seed) = seed {
            let mut state = seed ^ 0x9E37_79B9_7F4A_7C15;
            for k in (1..order.len()).rev() {
                let j = (splitmix(&mut state) % (k as u64 + 1)) as usize;
                order.swap(k, j);
            }
        }
        let mut set = vec![0u32; total as usize];
        let mut fill = vec![0u32; n];
        for &k in &order {
            let mut x = first_node[k as usize];
            while nodes[x as usize].item & SPACER == 0 {
                let i = nodes[x as usize].item as usize;
                let loc = fill[i];
                fill[i] += 1;
                set[(base[i] + loc) as usize] = x;
                nodes[x as usize].loc = loc;
                x += 1;
            }
        }
        Sets {
            nodes,
            colour,
            set,
            base,
            size,
            stamp: vec![0; n],
            purified: vec![false; n],
            pact: (0..n1 as u32).collect(),
            ppos: (0..n1 as u32).collect(),
            np: n1 as u32,
            n1: n1 as u32,
            trail: Vec::new(),
            epoch: 1,
            coloured,
            updates: 0,
        }
    }

    pub fn bytes(&self) -> u64 {
        (self.nodes.capacity() * std::mem::size_of::<Node>()
            + (self.colour.capacity()
                + self.set.capacity()
                + self.base.capacity()
                + self.size.capacity()
                + self.stamp.capacity()
                + self.pact.capacity()
                + self.ppos.capacity())
                * 4
            + self.purified.capacity()
            + self.trail.capacity() * 8) as u64
    }

    /// Undo everything: every item and option active again.
    pub fn reset(&mut self) {
        self.restore(0);
        self.np = self.n1;
        self.updates = 0;
    }

    pub fn trail_len(&self) -> u32 {
        self.trail.len() as u32
    }

    /// Pop the trail back to `mark`, restoring sizes and purified marks.
    #[inline]
    pub fn restore(&mut self, mark: u32) {
        while self.trail.len() > mark as usize {
            let (i, s) = self.trail.pop().expect("trail above mark");
            if i & PURIFIED != 0 {
                self.purified[(i & !PURIFIED) as usize] = false;
            } else {
                self.size[i as usize] = s;
            }
        }
    }

    #[inline]
    fn new_step(&mut self) {
        self.epoch += 1;
        if self.epoch == u32::MAX {
            // no stamp may equal a future step: start the count again
            self.stamp.fill(0);
            self.epoch = 1;
        }
    }

    /// The active primary item with the fewest active options (the first
    /// in order among ties; a size of 0 stops the scan), and its size.
    #[inline]
    pub fn min_item(&self) -> (u32, u32) {
        let mut best = u64::MAX;
        for &i in &self.pact[..self.np as usize] {
            let key = (self.size[i as usize] as u64) << 32 | i as u64;
            if key < best {
                best = key;
                if key < 1 << 32 {
                    break;
                }
            }
        }
        (best as u32, (best >> 32) as u32)
    }

    /// The first active primary item in order, and its size.
    #[inline]
    pub fn first_item(&self) -> (u32, u32) {
        let i = *self.pact[..self.np as usize]
            .iter()
            .min()
            .expect("an active primary item");
        (i, self.size[i as usize])
    }

    /// Option node `pos` of item `i`'s set.
    #[inline]
    pub fn member(&self, i: u32, pos: u32) -> u32 {
        self.set[(self.base[i as usize] + pos) as usize]
    }

    /// The problem's index of the option containing node `x`.
    pub fn option_of(&self, mut x: u32) -> u32 {
        while self.nodes[x as usize].item & SPACER == 0 {
            x += 1;
        }
        self.nodes[x as usize].item & !SPACER
    }

    /// Remove primary item `i` from the active items.
    #[inline]
    fn deactivate(&mut self, i: u32) {
        let p = self.ppos[i as usize];
        self.np -= 1;
        let last = self.pact[self.np as usize];
        self.pact[p as usize] = last;
        self.ppos[last as usize] = p;
        self.pact[self.np as usize] = i;
        self.ppos[i as usize] = self.np;
    }

    /// Remove node `w` from its item's set.
    #[inline]
    fn remove(&mut self, w: u32) {
        let Node { item: i, loc: p } = self.nodes[w as usize];
        let iu = i as usize;
        let s = self.size[iu] - 1;
        if self.stamp[iu] != self.epoch {
            self.stamp[iu] = self.epoch;
            self.trail.push((i, s + 1));
        }
        self.size[iu] = s;
        let b = self.base[iu];
        let last = self.set[(b + s) as usize];
        self.set[(b + p) as usize] = last;
        self.nodes[last as usize].loc = p;
        self.set[(b + s) as usize] = w;
        self.nodes[w as usize].loc = s;
        self.updates += 1;
    }

    /// Remove every node of `y`'s option but `y` itself from its item's set.
    #[inline]
    fn hide(&mut self, y: u32) {
        let mut w = y + 1;
        loop {
            let nd = self.nodes[w as usize];
            if nd.item & SPACER != 0 {
                w = nd.loc;
                continue;
            }
            if w == y {
                return;
            }
            self.remove(w);
            w += 1;
        }
    }

    /// Hide every active option of item `i` from the other items.
    #[inline]
    fn hide_all(&mut self, i: u32) {
        let b = self.base[i as usize];
        let s = self.size[i as usize];
        for p in b..b + s {
            let y = self.set[p as usize];
            self.hide(y);
        }
    }

    /// Cover primary item `i`, chosen to branch on: hide its options from
    /// every other item and make it inactive. Its own set stays as it is,
    /// so the options can be tried from it in turn.
    #[inline]
    pub fn cover_chosen(&mut self, i: u32) {
        self.new_step();
        self.hide_all(i);
        self.deactivate(i);
    }

    /// Choose the option of node `x` (in the item branched on, already
    /// covered): cover its other primary items, purify its secondary items.
    #[inline]
    pub fn apply<const COLOURED: bool>(&mut self, x: u32) {
        self.new_step();
        let mut w = x + 1;
        loop {
            let nd = self.nodes[w as usize];
            if nd.item & SPACER != 0 {
                w = nd.loc;
                continue;
            }
            if w == x {
                return;
            }
            let j = nd.item;
            if j < self.n1 {
                self.deactivate(j);
                self.hide_all(j);
            } else if !COLOURED {
                // the option is still live, so no other option has used j
                self.hide_all(j);
            } else if !self.purified[j as usize] {
                let c = self.colour[w as usize];
                if c == 0 {
                    self.hide_all(j);
                } else {
                    self.purified[j as usize] = true;
                    self.trail.push((PURIFIED | j, 0));
                    let b = self.base[j as usize];
                    let s = self.size[j as usize];
                    for p in b..b + s {
                        let y = self.set[p as usize];
                        if self.colour[y as usize] != c {
                            self.hide(y);
                        }
                    }
                }
            }
            w += 1;
        }
    }
}
