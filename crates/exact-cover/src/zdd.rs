//! The ZDD of all the solutions of an exact-cover problem, as built by
//! memoised search ([`Memo::zdd`](crate::Memo::zdd)); the diagram and its
//! properties are described on [`Zdd`].

use std::collections::HashMap;
use std::io::{self, Write};

use num_bigint::BigUint;

use crate::memo::Fold;
use crate::rng::SplitMix64;

/// One ZDD node: an option and its two children (node numbers).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ZddNode {
    /// The option (from 0, in the problem's order).
    pub option: u32,
    /// The solutions without the option.
    pub lo: u32,
    /// The rest of the solutions with the option.
    pub hi: u32,
}

/// The ZDD of all the solutions (built by
/// [`Memo::zdd`](crate::Memo::zdd)).
///
/// A zero-suppressed decision diagram (Minato, 1993; Knuth, TAOCP 7.1.4)
/// is a DAG whose nodes each name a variable, here an option, and have two
/// children: `lo` (the solutions without the option) and `hi` (the rest of
/// the solutions with it). Two terminals end the paths: ⊥ (node 0, no
/// solution) and ⊤ (node 1, the empty set of options). A solution is a path
/// from the root to ⊤, and its options are the nodes left by their `hi`
/// edge. This follows Nishino et al.'s DXZ ("Dancing with Decision
/// Diagrams", AAAI 2017), who build the same diagram from the memoised
/// search's DAG; the code is our own.
///
/// **Ordered.** Every subproblem branches on its first uncovered primary
/// item in one global order of the items ([`ItemOrder`](crate::ItemOrder):
/// by default a frontier-minimising order computed from the options, the
/// same whatever the items line's order), so the options met at a subproblem all
/// have that item as their first primary item. Options are ranked by
/// (first primary item, option number) and every edge leads to a node of
/// higher rank or to a terminal: the diagram is ordered, and
/// [`Zdd::check`] verifies it.
///
/// **Reduced.** No node has `hi` = ⊥ (zero-suppression: an option whose
/// subproblem is dead gets no node), and no two nodes have the same
/// (option, lo, hi) (a unique table shares them), so it is the canonical
/// ZDD of the family of solutions under that order.
///
/// ```
/// use exact_cover::{format, Limits, Memo, SplitMix64};
/// // the 2x3 domino tilings: 3
/// let text = "a b c d e f\na b\nb c\nd e\ne f\na d\nb e\nc f\n";
/// let p = format::parse(text)?.problem;
/// let (zdd, _) = Memo::new(&p).expect("no multiplicities").zdd(&Limits::none());
/// let zdd = zdd.expect("no limit");
/// assert_eq!(zdd.count(), Some(3));
/// zdd.check().expect("reduced and ordered");
/// let mut rng = SplitMix64::new(1);
/// let one = zdd.sample(&mut rng).expect("a solution");
/// assert_eq!(one.len(), 3);
/// # Ok::<(), format::ParseError>(())
/// ```
#[derive(Clone, Debug)]
pub struct Zdd {
    /// Nodes 0 (⊥) and 1 (⊤) are the terminals (their fields unused);
    /// every node's children come before it.
    nodes: Vec<ZddNode>,
    root: u32,
    /// Per option, its rank in the diagram's order.
    rank: Vec<u32>,
}

/// The terminal ⊥ (node 0): the empty family, no solution.
pub const ZDD_BOTTOM: u32 = 0;
/// The terminal ⊤: the family holding the empty solution.
pub const ZDD_TOP: u32 = 1;

/// What is wrong with a diagram ([`Zdd::check`]).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ZddCheckError {
    /// A node's `hi` is ⊥.
    #[error("node {0} has hi = 0 (not zero-suppressed)")]
    HiBottom(u32),
    /// Two nodes have the same option and children.
    #[error("nodes {0} and {1} are the same (not reduced)")]
    Duplicate(u32, u32),
    /// An edge leads to a node of lower or equal rank, or forward.
    #[error("node {0}: an edge breaks the order")]
    Order(u32),
}

impl Zdd {
    /// The root's node number (0 when there is no solution, 1 when the
    /// empty set of options is the only one).
    pub fn root(&self) -> u32 {
        self.root
    }

    /// All nodes, terminals first (0 = ⊥, 1 = ⊤, their fields unused);
    /// every node's children have lower numbers.
    pub fn nodes(&self) -> &[ZddNode] {
        &self.nodes
    }

    /// Nodes besides the two terminals.
    pub fn len(&self) -> usize {
        self.nodes.len() - 2
    }

    /// True when the diagram has no node besides the terminals.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Option `k`'s rank in the variable order (first primary item in the
    /// memo's item order, then option number).
    pub fn rank(&self, option: u32) -> u32 {
        self.rank[option as usize]
    }

    /// Check that the diagram is reduced (no `hi` = ⊥, no duplicate node)
    /// and ordered (each edge to a terminal or to a node of higher rank).
    pub fn check(&self) -> Result<(), ZddCheckError> {
        let mut seen: HashMap<ZddNode, u32> = HashMap::new();
        let rank = |v: u32| {
            if v < 2 {
                u32::MAX
            } else {
                self.rank[self.nodes[v as usize].option as usize]
            }
        };
        for (v, n) in self.nodes.iter().enumerate().skip(2) {
            let v = v as u32;
            if n.hi == ZDD_BOTTOM {
                return Err(ZddCheckError::HiBottom(v));
            }
            if n.lo >= v || n.hi >= v {
                return Err(ZddCheckError::Order(v));
            }
            let r = self.rank[n.option as usize];
            if rank(n.lo) <= r || rank(n.hi) <= r {
                return Err(ZddCheckError::Order(v));
            }
            if let Some(&w) = seen.get(n) {
                return Err(ZddCheckError::Duplicate(w, v));
            }
            seen.insert(*n, v);
        }
        Ok(())
    }

    /// The number of solutions, or `None` past `u128::MAX` (then use
    /// [`count_big`](Self::count_big)).
    pub fn count(&self) -> Option<u128> {
        self.counts_u128().map(|c| c[self.root as usize])
    }

    /// The number of solutions, of any size.
    pub fn count_big(&self) -> BigUint {
        match self.counts_u128() {
            Some(c) => BigUint::from(c[self.root as usize]),
            None => self.counts_big()[self.root as usize].clone(),
        }
    }

    fn counts_u128(&self) -> Option<Vec<u128>> {
        let mut c = vec![0u128; self.nodes.len()];
        if c.len() > 1 {
            c[1] = 1;
        }
        for v in 2..self.nodes.len() {
            let n = self.nodes[v];
            c[v] = c[n.lo as usize].checked_add(c[n.hi as usize])?;
        }
        Some(c)
    }

    fn counts_big(&self) -> Vec<BigUint> {
        let mut c = vec![BigUint::ZERO; self.nodes.len()];
        c[1] = BigUint::from(1u32);
        for v in 2..self.nodes.len() {
            let n = self.nodes[v];
            c[v] = &c[n.lo as usize] + &c[n.hi as usize];
        }
        c
    }

    /// One solution drawn uniformly at random (its options in the order
    /// of the diagram), or `None` when there is none. Each call draws
    /// anew; [`samples`](Self::samples) draws many with one table of counts.
    pub fn sample(&self, rng: &mut SplitMix64) -> Option<Vec<usize>> {
        self.samples(1, rng).pop()
    }

    /// `n` solutions drawn uniformly and independently at random (with
    /// repetition), or none when there is no solution. Each draw picks a
    /// number below the count and walks down from the root: at a node with
    /// `c(hi)` solutions through `hi`, a number below `c(hi)` takes `hi`,
    /// the others go `lo`, less `c(hi)`; so every solution is equally likely.
    pub fn samples(&self, n: usize, rng: &mut SplitMix64) -> Vec<Vec<usize>> {
        if self.root == ZDD_BOTTOM {
            return Vec::new();
        }
        let mut out = Vec::with_capacity(n);
        match self.counts_u128() {
            Some(c) => {
                for _ in 0..n {
                    let mut r = below_u128(rng, c[self.root as usize]);
                    let mut v = self.root;
                    let mut sol = Vec::new();
                    while v > 1 {
                        let node = self.nodes[v as usize];
                        let ch = c[node.hi as usize];
                        if r < ch {
                            sol.push(node.option as usize);
                            v = node.hi;
                        } else {
                            r -= ch;
                            v = node.lo;
                        }
                    }
                    out.push(sol);
                }
            }
            None => {
                let c = self.counts_big();
                for _ in 0..n {
                    let mut r = below_big(rng, &c[self.root as usize]);
                    let mut v = self.root;
                    let mut sol = Vec::new();
                    while v > 1 {
                        let node = self.nodes[v as usize];
                        let ch = &c[node.hi as usize];
                        if &r < ch {
                            sol.push(node.option as usize);
                            v = node.hi;
                        } else {
                            r -= ch;
                            v = node.lo;
                        }
                    }
                    out.push(sol);
                }
            }
        }
        out
    }

    /// The `k` solutions of least total weight (`weights[option]`), best
    /// first, each with its weight; ties go to the solution met first
    /// (taking `lo` before `hi`). Fewer when there are fewer solutions.
    /// Time and memory grow as nodes × `k`.
    ///
    /// # Panics
    /// When `weights` has fewer entries than the problem has options.
    pub fn best(&self, k: usize, weights: &[i64]) -> Vec<(i128, Vec<usize>)> {
        assert!(
            weights.len() >= self.rank.len(),
            "one weight per option: {} weights for {} options",
            weights.len(),
            self.rank.len()
        );
        if k == 0 || self.root == ZDD_BOTTOM {
            return Vec::new();
        }
        // per node, up to k (weight, went hi, index in the child's list),
        // lightest first
        let mut lists: Vec<Vec<(i128, bool, u32)>> = vec![Vec::new(); self.nodes.len()];
        lists[1] = vec![(0, false, 0)];
        for v in 2..self.nodes.len() {
            let n = self.nodes[v];
            let w = i128::from(weights[n.option as usize]);
            let (lo, hi) = (&lists[n.lo as usize], &lists[n.hi as usize]);
            let (mut i, mut j) = (0, 0);
            let mut merged = Vec::with_capacity(k.min(lo.len() + hi.len()));
            while merged.len() < k && (i < lo.len() || j < hi.len()) {
                let take_lo = j >= hi.len() || (i < lo.len() && lo[i].0 <= hi[j].0 + w);
                if take_lo {
                    merged.push((lo[i].0, false, i as u32));
                    i += 1;
                } else {
                    merged.push((hi[j].0 + w, true, j as u32));
                    j += 1;
                }
            }
            lists[v] = merged;
        }
        (0..lists[self.root as usize].len())
            .map(|idx| {
                let weight = lists[self.root as usize][idx].0;
                let mut sol = Vec::new();
                let (mut v, mut at) = (self.root, idx);
                while v > 1 {
                    let (_, hi, next) = lists[v as usize][at];
                    let node = self.nodes[v as usize];
                    if hi {
                        sol.push(node.option as usize);
                        v = node.hi;
                    } else {
                        v = node.lo;
                    }
                    at = next as usize;
                }
                (weight, sol)
            })
            .collect()
    }

    /// Every solution (options in the diagram's order), for small diagrams
    /// and tests: the number of solutions can be astronomical.
    pub fn solutions(&self) -> Vec<Vec<usize>> {
        let mut out = Vec::new();
        let mut path = Vec::new();
        self.walk(self.root, &mut path, &mut out);
        out
    }

    fn walk(&self, v: u32, path: &mut Vec<usize>, out: &mut Vec<Vec<usize>>) {
        match v {
            ZDD_BOTTOM => {}
            ZDD_TOP => out.push(path.clone()),
            _ => {
                let n = self.nodes[v as usize];
                self.walk(n.lo, path, out);
                path.push(n.option as usize);
                self.walk(n.hi, path, out);
                path.pop();
            }
        }
    }

    /// Write the diagram in text (the format `dlx --zdd` writes):
    ///
    /// ```text
    /// | ZDD of the solutions: 5 nodes, root 6, 3 solutions
    /// 2:(6?0:1)
    /// ...
    /// ```
    ///
    /// after comment lines starting with `|`, one line per node, children
    /// before parents: `ID:(OPTION?LO:HI)` in decimal, where `OPTION` is the
    /// option's number (from 0, in the order of the input file), `LO` and
    /// `HI` node numbers, 0 the empty family (⊥) and 1 the family of the
    /// empty solution (⊤), after Knuth's ZDD text in SIMPATH-ZDD. The last
    /// line, `root R`, names the root.
    pub fn write_text(&self, out: &mut dyn Write) -> io::Result<()> {
        let count = self.count_big();
        let mut w = io::BufWriter::new(out);
        writeln!(
            w,
            "| ZDD of the solutions: {} nodes, root {}, {count} solutions",
            self.len(),
            self.root
        )?;
        writeln!(
            w,
            "| ID:(OPTION?LO:HI); options from 0 in input order; 0 = no solution, 1 = done"
        )?;
        for (v, n) in self.nodes.iter().enumerate().skip(2) {
            writeln!(w, "{v}:({}?{}:{})", n.option, n.lo, n.hi)?;
        }
        writeln!(w, "root {}", self.root)?;
        w.flush()
    }
}

/// A number in `0..n` (`n > 0`), uniform (rejection on the bit length).
fn below_u128(rng: &mut SplitMix64, n: u128) -> u128 {
    let bits = 128 - (n - 1).leading_zeros();
    loop {
        let r = (u128::from(rng.next_u64()) << 64 | u128::from(rng.next_u64()))
            .checked_shr(128 - bits)
            .unwrap_or(0);
        if r < n {
            return r;
        }
    }
}

/// A number in `0..n` (`n > 0`), uniform (rejection on the bit length).
fn below_big(rng: &mut SplitMix64, n: &BigUint) -> BigUint {
    let bits = (n - 1u32).bits();
    let words = bits.div_ceil(64) as usize;
    loop {
        let mut digits: Vec<u64> = (0..words).map(|_| rng.next_u64()).collect();
        let extra = words as u64 * 64 - bits;
        if let Some(top) = digits.last_mut() {
            *top = top.checked_shr(extra as u32).unwrap_or(0);
        }
        let r = BigUint::from_slice(
            &digits
                .iter()
                .flat_map(|&d| [d as u32, (d >> 32) as u32])
                .collect::<Vec<u32>>(),
        );
        if &r < n {
            return r;
        }
    }
}

/// Building a ZDD: a subproblem's value is its node; options whose
/// subproblem is ⊥ are left out (zero-suppression) and equal nodes are
/// shared (the unique table).
#[derive(Debug)]
pub(crate) struct ZddFold {
    nodes: Vec<ZddNode>,
    unique: HashMap<ZddNode, u32>,
    /// (option, child) pairs of the subproblems being searched.
    pairs: Vec<(u32, u32)>,
    options: usize,
}

impl ZddFold {
    pub(crate) fn new(options: usize) -> ZddFold {
        let t = ZddNode {
            option: u32::MAX,
            lo: 0,
            hi: 0,
        };
        ZddFold {
            nodes: vec![t, t],
            unique: HashMap::new(),
            pairs: Vec::new(),
            options,
        }
    }

    /// The diagram with root `root`, its order taken from `first_primary`
    /// (per option, its first primary item).
    pub(crate) fn into_zdd(self, root: u32, first_primary: &[u32]) -> Zdd {
        let mut order: Vec<u32> = (0..self.options as u32).collect();
        order.sort_by_key(|&k| (first_primary[k as usize], k));
        let mut rank = vec![0u32; self.options];
        for (r, &k) in order.iter().enumerate() {
            rank[k as usize] = r as u32;
        }
        Zdd {
            nodes: self.nodes,
            root,
            rank,
        }
    }
}

impl Fold for ZddFold {
    type V = u32;
    type Acc = usize;
    fn zero(&self) -> u32 {
        ZDD_BOTTOM
    }
    fn one(&self) -> u32 {
        ZDD_TOP
    }
    fn start(&mut self) -> usize {
        self.pairs.len()
    }
    fn add(&mut self, _acc: &mut usize, option: u32, v: u32) {
        if v != ZDD_BOTTOM {
            self.pairs.push((option, v));
        }
    }
    fn finish(&mut self, start: usize) -> u32 {
        let mut node = ZDD_BOTTOM;
        for j in (start..self.pairs.len()).rev() {
            let (option, hi) = self.pairs[j];
            let n = ZddNode {
                option,
                lo: node,
                hi,
            };
            node = match self.unique.get(&n) {
                Some(&v) => v,
                None => {
                    let v = self.nodes.len() as u32;
                    self.nodes.push(n);
                    self.unique.insert(n, v);
                    v
                }
            };
        }
        self.pairs.truncate(start);
        node
    }
    fn bytes(&self) -> u64 {
        (self.nodes.capacity() * 12 + self.unique.capacity() * 20 + self.pairs.capacity() * 8)
            as u64
    }
}
