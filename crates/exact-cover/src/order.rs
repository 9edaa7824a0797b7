//! A global branching order of the primary items for memoised search and
//! the ZDD ([`ItemOrder::Auto`]).
//!
//! A memoised search that always branches on the first uncovered primary
//! item meets one subproblem per distinct set of items covered beyond it,
//! so its size grows with the *frontier*: the items not yet branched on
//! that options of items already branched on can cover. A tiling listed
//! row by row along its long side has a frontier of a whole long row; the
//! same tiling branched column by column has a short one (pentominoes 6x10:
//! does not finish in 100 s against 4 s). This is the vertex-separation
//! (pathwidth) problem on the graph whose edges join items sharing an
//! option; the greedy rule used here is the usual one for it (and for BDD
//! variable orders, e.g. the "frontier-based" orders of Minato's group):
//! repeatedly take the primary item whose taking adds the fewest new items
//! to the frontier.
//!
//! The rule depends on the items' names and options only, never on the
//! order of the items line: ties go to an item already on the frontier,
//! then to the item with fewer options, then to the smaller name (unnamed
//! items: their number). So the same problem listed in any order gets the
//! same order, the same subproblems and the same ZDD.

use crate::problem::Problem;

/// The order in which [`Memo`](crate::Memo) branches on primary items
/// under [`Heuristic::First`](crate::Heuristic::First) and when it builds a
/// [`Zdd`](crate::Zdd) (see [`Memo::with_item_order`](crate::Memo::with_item_order)).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ItemOrder {
    /// The items line's order.
    Given,
    /// A greedy frontier-minimising order computed from the options, the
    /// same whatever the items line's order ([module docs](self)); the
    /// items line's order for problems too large for it
    /// ([`AUTO_MAX_WORK`]).
    #[default]
    Auto,
}

/// [`ItemOrder::Auto`] falls back to the items line's order when the
/// work it would take (the sum over options of their length squared, plus
/// the square of the number of primary items) passes this.
pub const AUTO_MAX_WORK: u64 = 400_000_000;

/// The items' positions: `pos[item]` for every item of `p`, primary items
/// at `0..n1` in the chosen order, secondary items after them in the given
/// order.
pub(crate) fn positions(p: &Problem, order: ItemOrder) -> Vec<u32> {
    let n = p.item_count();
    let primary: Vec<bool> = p.items().iter().map(|it| !it.is_secondary()).collect();
    let n1 = primary.iter().filter(|&&b| b).count();
    let mut seq: Vec<u32> = match order {
        ItemOrder::Auto if work(p, n1) <= AUTO_MAX_WORK => greedy(p, &primary),
        _ => (0..n as u32).filter(|&i| primary[i as usize]).collect(),
    };
    seq.extend((0..n as u32).filter(|&i| !primary[i as usize]));
    let mut pos = vec![0u32; n];
    for (r, &i) in seq.iter().enumerate() {
        pos[i as usize] = r as u32;
    }
    pos
}

fn work(p: &Problem, n1: usize) -> u64 {
    let mut w = (n1 as u64).saturating_mul(n1 as u64);
    for k in 0..p.option_count() {
        let l = p.option(k).len() as u64;
        w = w.saturating_add(l * l);
    }
    w
}

/// Items and their options, for the neighbour lists.
struct Graph<'p> {
    p: &'p Problem,
    /// Options of each item: `opts[start[i]..start[i + 1]]`.
    start: Vec<u32>,
    opts: Vec<u32>,
    mark: Vec<u32>,
}

impl Graph<'_> {
    fn new(p: &Problem) -> Graph<'_> {
        let n = p.item_count();
        let m = p.option_count();
        let mut start = vec![0u32; n + 1];
        for k in 0..m {
            for e in p.option(k) {
                start[e.item as usize + 1] += 1;
            }
        }
        for i in 0..n {
            start[i + 1] += start[i];
        }
        let mut fill = start.clone();
        let mut opts = vec![0u32; start[n] as usize];
        for k in 0..m {
            for e in p.option(k) {
                opts[fill[e.item as usize] as usize] = k as u32;
                fill[e.item as usize] += 1;
            }
        }
        Graph {
            p,
            start,
            opts,
            mark: vec![u32::MAX; n],
        }
    }

    fn options(&self, i: u32) -> u32 {
        self.start[i as usize + 1] - self.start[i as usize]
    }

    /// The distinct neighbours of `i` (items sharing an option with it,
    /// not `i` itself), into `out`.
    fn neighbours(&mut self, i: u32, out: &mut Vec<u32>) {
        out.clear();
        self.mark[i as usize] = i;
        let (a, b) = (self.start[i as usize], self.start[i as usize + 1]);
        for &k in &self.opts[a as usize..b as usize] {
            for e in self.p.option(k as usize) {
                if self.mark[e.item as usize] != i {
                    self.mark[e.item as usize] = i;
                    out.push(e.item);
                }
            }
        }
        // leave no mark behind: a later call for `i` must see fresh ones
        self.mark[i as usize] = u32::MAX;
        for &j in out.iter() {
            self.mark[j as usize] = u32::MAX;
        }
    }
}

/// The primary items in the greedy order (see the module docs).
fn greedy(p: &Problem, primary: &[bool]) -> Vec<u32> {
    let n = p.item_count();
    let mut g = Graph::new(p);
    let mut names: Vec<(String, u32)> = (0..n as u32).map(|i| (p.item_name(i), i)).collect();
    names.sort();
    let mut name_rank = vec![0u32; n];
    for (r, (_, i)) in names.iter().enumerate() {
        name_rank[*i as usize] = r as u32;
    }
    // gain[i]: neighbours of i not yet touched (on the frontier or taken)
    let mut gain = vec![0u32; n];
    let mut buf = Vec::new();
    for i in 0..n as u32 {
        g.neighbours(i, &mut buf);
        gain[i as usize] = buf.len() as u32;
    }
    let mut touched = vec![false; n];
    let mut left: Vec<u32> = (0..n as u32).filter(|&i| primary[i as usize]).collect();
    let mut seq = Vec::with_capacity(left.len());
    let mut cn = Vec::new();
    let mut touch = |j: u32, g: &mut Graph, touched: &mut [bool], gain: &mut [u32]| {
        touched[j as usize] = true;
        g.neighbours(j, &mut buf);
        for &h in &buf {
            gain[h as usize] -= 1;
        }
    };
    while !left.is_empty() {
        let key = |i: u32| {
            let i = i as usize;
            (gain[i], !touched[i], g.options(i as u32), name_rank[i])
        };
        let (at, &c) = left
            .iter()
            .enumerate()
            .min_by_key(|&(_, &i)| key(i))
            .expect("an item left");
        left.swap_remove(at);
        seq.push(c);
        if !touched[c as usize] {
            touch(c, &mut g, &mut touched, &mut gain);
        }
        // c's neighbours join the frontier
        g.neighbours(c, &mut cn);
        for &j in &cn {
            if !touched[j as usize] {
                touch(j, &mut g, &mut touched, &mut gain);
            }
        }
    }
    seq
}
