//! The variant solver: constraint propagation on candidate masks, with
//! naked and hidden singles, and fewest-candidates branching.
//!
//! A [`Puzzle`](super::Puzzle) is first lowered to a [`Model`]: its houses
//! (rows, columns, boxes or jigsaw regions, and extra regions that hold every
//! digit once), for each cell the cells it must differ from (its peers: the
//! houses, killer cages, renban lines, anti-knight and anti-king moves), the
//! candidate mask each cell starts with (givens, odd/even cells), and the
//! propagators of the other constraints ([`Prop`]). Each propagator watches
//! its cells; when a cell's mask shrinks, the propagators watching it are
//! queued (first in, first out; the sums derived before the search, but
//! for hidden cages, wait until the others are done, and on anti-knight
//! grids the houses' digits against the cells that see all their places
//! wait for singles and locked candidates too), and propagation runs to a
//! fixed point: a cell left with one digit removes it from its peers, a
//! digit left with one place in a house goes there, and each queued
//! propagator removes the digits its rule excludes.
//!
//! The search keeps one mask per cell and copies the masks (two bytes a
//! cell) before each branch instead of undoing changes: on grids of at most
//! 256 cells a copy is cheaper than a trail. The masks live in a grid of
//! 256 places whatever the side ([`Masks`]), so that reading a cell's mask,
//! the most frequent step of the engine and the propagators, needs no
//! bounds check. It branches two ways: a cell
//! takes a digit, or (once that is exhausted) it loses the digit, and the
//! loss is propagated like any other change before the next choice, which
//! may pick another cell. It picks the undecided cell with the highest
//! conflict score per candidate: scores start from how much the rules bear
//! on each cell and grow with each failed try there and in every cell of
//! the rule that failed, houses aside (weighted degree,
//! `VariantSolver::conflict`); or, when a house has a
//! digit in two places that scored much higher, that digit in one of them
//! (see `VariantSolver::choose`). Every solution is checked against every
//! rule before it is reported, so a propagator that prunes weakly can slow
//! the search but never let a wrong grid through.

use crate::time::Instant;
use std::ops::ControlFlow;

use super::{Puzzle, VariantError};
use crate::Grid;
use crate::solve::fast::Fast;
use crate::solve::{
    FnTrace, Limits, NoTrace, Report, Stats, StopReason, TraceStep, Tracer, Uniqueness,
};

/// A contradiction: some cell or house has no candidate left.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Contradiction;

/// The most cells a grid has (16×16).
pub(crate) const MAX_CELLS: usize = 256;

/// Candidate masks of a grid, one place per cell up to [`MAX_CELLS`] (the
/// places past the grid's cells are unused). Indexed by [`at`], a cell
/// number needs no bounds check: propagators and the engine read masks
/// more than anything else.
pub(crate) type Masks = [u16; MAX_CELLS];

/// A cell number as an index into a [`Masks`]: cells are below
/// [`MAX_CELLS`], so the mask changes nothing and the compiler drops the
/// bounds check.
#[inline(always)]
pub(crate) fn at(cell: u16) -> usize {
    (cell & (MAX_CELLS as u16 - 1)) as usize
}

/// Places of [`Changed`]: more than a fixed point can push. Between two
/// times it is empty, the engine pushes every cell once (at the root), the
/// cell tried once, and otherwise a cell only when its mask narrows, at
/// most 16 times a cell: at most 256 + 1 + 16·256 = 4,353 entries.
const CHANGED_PLACES: usize = 8192;

/// The cells narrowed and not yet looked at, last in, first out: a stack in
/// a fixed array (pushed at each narrowing, the engine's and the
/// propagators' most frequent write, with no capacity check). Indexed
/// modulo its size, so even a count past the bound above could not reach
/// outside it.
#[derive(Clone, Debug)]
pub(crate) struct Changed {
    buf: Box<[u16; CHANGED_PLACES]>,
    len: usize,
}

impl Default for Changed {
    fn default() -> Changed {
        Changed::new()
    }
}

impl Changed {
    pub(crate) fn new() -> Changed {
        Changed {
            buf: Box::new([0; CHANGED_PLACES]),
            len: 0,
        }
    }

    #[inline(always)]
    pub(crate) fn push(&mut self, cell: u16) {
        self.buf[self.len & (CHANGED_PLACES - 1)] = cell;
        self.len += 1;
    }

    #[inline(always)]
    fn pop(&mut self) -> Option<u16> {
        if self.len == 0 {
            return None;
        }
        self.len -= 1;
        Some(self.buf[self.len & (CHANGED_PLACES - 1)])
    }

    #[inline]
    fn clear(&mut self) {
        self.len = 0;
    }

    /// The cells pushed, oldest first.
    pub(crate) fn cells(&self) -> &[u16] {
        &self.buf[..self.len.min(CHANGED_PLACES)]
    }
}

/// The candidate masks a propagator reads and narrows. Every narrowing is
/// recorded, so the engine knows which propagators to wake next.
pub(crate) struct Dom<'a> {
    masks: &'a mut Masks,
    changed: &'a mut Changed,
}

impl<'a> Dom<'a> {
    /// Candidate masks to narrow, each narrowed cell pushed on `changed`.
    pub(crate) fn new(masks: &'a mut Masks, changed: &'a mut Changed) -> Dom<'a> {
        Dom { masks, changed }
    }

    /// Run `f` on candidate masks given as a slice of at most
    /// [`MAX_CELLS`] (the explainer's copies, tests): they are copied into
    /// a [`Masks`] and back.
    pub(crate) fn on_slice<R>(
        masks: &mut [u16],
        changed: &mut Vec<u16>,
        f: impl FnOnce(&mut Dom<'_>) -> R,
    ) -> R {
        let mut grid = [0u16; MAX_CELLS];
        grid[..masks.len()].copy_from_slice(masks);
        let mut pushed = Changed::new();
        let out = f(&mut Dom::new(&mut grid, &mut pushed));
        masks.copy_from_slice(&grid[..masks.len()]);
        changed.extend_from_slice(pushed.cells());
        out
    }
}

impl Dom<'_> {
    /// The candidates of a cell.
    #[inline]
    pub(crate) fn get(&self, cell: u16) -> u16 {
        self.masks[at(cell)]
    }

    /// Keep only the candidates of `cell` in `keep`: a contradiction when
    /// none is left.
    #[inline]
    pub(crate) fn restrict(&mut self, cell: u16, keep: u16) -> Result<(), Contradiction> {
        let old = self.masks[at(cell)];
        let new = old & keep;
        if new != old {
            if new == 0 {
                return Err(Contradiction);
            }
            self.masks[at(cell)] = new;
            self.changed.push(cell);
        }
        Ok(())
    }
}

/// The bits of a mask as digits 1..=16, ascending.
#[inline]
pub(crate) fn digits(mut mask: u16) -> impl Iterator<Item = u8> {
    std::iter::from_fn(move || {
        (mask != 0).then(|| {
            let d = mask.trailing_zeros() as u8 + 1;
            mask &= mask - 1;
            d
        })
    })
}

/// Per byte, its number of set bits.
static BYTE_POPCOUNT: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut b = 0;
    while b < 256 {
        t[b] = (b as u8).count_ones() as u8;
        b += 1;
    }
    t
};

/// The number of candidates in a mask, by two table lookups: the default
/// x86-64 target has no popcount instruction, and the search counts every
/// cell's candidates at every node.
#[inline]
pub(crate) fn count(mask: u16) -> u32 {
    BYTE_POPCOUNT[(mask & 0xFF) as usize] as u32 + BYTE_POPCOUNT[(mask >> 8) as usize] as u32
}

/// The smallest digit of a non-empty mask.
#[inline]
pub(crate) fn min_digit(mask: u16) -> u8 {
    mask.trailing_zeros() as u8 + 1
}

/// The largest digit of a non-empty mask.
#[inline]
pub(crate) fn max_digit(mask: u16) -> u8 {
    16 - mask.leading_zeros() as u8
}

/// The mask of the digits `lo..=hi` (empty when `lo > hi`; clipped to 1..=16).
#[inline]
pub(crate) fn range_mask(lo: i32, hi: i32) -> u16 {
    let lo = lo.max(1);
    let hi = hi.min(16);
    if lo > hi {
        return 0;
    }
    let width = (hi - lo + 1) as u32;
    let bits = if width >= 16 {
        u16::MAX
    } else {
        (1u16 << width) - 1
    };
    bits << (lo - 1)
}

/// One propagator: the rule of a constraint that is not a plain
/// "all different" group, on cell indices.
#[derive(Clone, Debug)]
pub(crate) enum Prop {
    /// Two cells related by a table (dots, XV, whispers, thermometers, ...).
    Pair(super::prim::Pair),
    /// A weighted sum of cells equals a constant (arrows, little killers, sums).
    Linear(super::prim::Linear),
    /// A killer cage's sum over distinct digits.
    Cage(super::cage::CageSum),
    /// A renban line's consecutive set.
    Renban(super::renban::RenbanSet),
    /// A between line.
    Between(super::between::BetweenLine),
    /// A sandwich clue.
    Sandwich(super::sandwich::SandwichSum),
    /// A quadruple clue.
    Quad(super::quad::QuadDigits),
    /// A region-sum line's equal segment sums.
    EqualSums(super::region_sum::EqualSums),
    /// A lockout line.
    Lockout(super::lockout::LockoutLine),
    /// A zipper line's equal pair sums.
    Zipper(super::zipper::ZipperSums),
    /// An X-sum clue.
    XSum(super::outside::XSumClue),
    /// A skyscraper clue.
    Skyscraper(super::outside::SkyscraperClue),
    /// A house's digit leaves the cells that see all its places.
    Sight(super::sight::HouseSight),
}

impl Prop {
    /// The cells the rule reads (it is woken when one of them changes).
    pub(crate) fn cells(&self) -> Vec<u16> {
        match self {
            Prop::Pair(p) => vec![p.a, p.b],
            Prop::Linear(p) => p.terms.iter().map(|&(c, _)| c).collect(),
            Prop::Cage(p) => [&p.cells[..], &p.complement[..]].concat(),
            Prop::Renban(p) => p.cells.clone(),
            Prop::Between(p) => p.cells(),
            Prop::Sandwich(p) => p.line.clone(),
            Prop::Quad(p) => p.cells.to_vec(),
            Prop::EqualSums(p) => p.segments.concat(),
            Prop::Lockout(p) => p.cells(),
            Prop::Zipper(p) => p.cells(),
            Prop::XSum(p) => p.line.clone(),
            Prop::Skyscraper(p) => p.line.clone(),
            Prop::Sight(p) => p.cells.clone(),
        }
    }

    /// Once the peers are known: sums group the cells that must differ (an
    /// all-different unit sum becomes a killer cage), cages note which
    /// outside cells see each of theirs.
    fn finish(&mut self, peers: &[Vec<u16>], houses: &[Vec<u16>], n: usize) {
        if let Prop::Linear(l) = self {
            l.finish(peers, houses, n);
            if l.is_cage() {
                let cells = l.terms.iter().map(|t| t.0).collect();
                *self = Prop::Cage(super::cage::CageSum::new(cells, l.rhs as u32, n));
            }
        }
        if let Prop::Cage(c) = self {
            c.finish(peers, houses);
        }
        if let Prop::Renban(r) = self {
            r.finish(peers);
        }
    }

    /// Narrow the candidates by the rule.
    #[inline]
    pub(crate) fn propagate(&self, d: &mut Dom<'_>) -> Result<(), Contradiction> {
        match self {
            Prop::Pair(p) => p.propagate(d),
            Prop::Linear(p) => p.propagate(d),
            Prop::Cage(p) => p.propagate(d),
            Prop::Renban(p) => p.propagate(d),
            Prop::Between(p) => p.propagate(d),
            Prop::Sandwich(p) => p.propagate(d),
            Prop::Quad(p) => p.propagate(d),
            Prop::EqualSums(p) => p.propagate(d),
            Prop::Lockout(p) => p.propagate(d),
            Prop::Zipper(p) => p.propagate(d),
            Prop::XSum(p) => p.propagate(d),
            Prop::Skyscraper(p) => p.propagate(d),
            Prop::Sight(p) => p.propagate(d),
        }
    }

    /// Whether a full grid of values (row-major, 1..=n) keeps the rule.
    pub(crate) fn holds(&self, v: &[u8]) -> bool {
        match self {
            Prop::Pair(p) => p.holds(v),
            Prop::Linear(p) => p.holds(v),
            Prop::Cage(p) => p.holds(v),
            Prop::Renban(p) => p.holds(v),
            Prop::Between(p) => p.holds(v),
            Prop::Sandwich(p) => p.holds(v),
            Prop::Quad(p) => p.holds(v),
            Prop::EqualSums(p) => p.holds(v),
            Prop::Lockout(p) => p.holds(v),
            Prop::Zipper(p) => p.holds(v),
            Prop::XSum(p) => p.holds(v),
            Prop::Skyscraper(p) => p.holds(v),
            // Implied by the houses and the pairs, which are checked.
            Prop::Sight(_) => true,
        }
    }
}

/// What a puzzle lowers to, before the search: see the module docs.
#[derive(Clone, Debug)]
pub(crate) struct Model {
    /// Side n.
    pub(crate) n: usize,
    /// Candidates each cell starts with.
    pub(crate) init: Vec<u16>,
    /// Groups of n cells holding every digit once.
    pub(crate) houses: Vec<Vec<u16>>,
    /// Pairs of cells that must differ (besides sharing a house).
    pub(crate) distinct: Vec<(u16, u16)>,
    /// The other rules.
    pub(crate) props: Vec<Prop>,
    /// Per cell, its box (or jigsaw region): region-sum lines cut there.
    pub(crate) region: Vec<u8>,
    /// Where each constraint's propagators start in `props`, and its name
    /// (for explanations): `(first prop, label)`, in order.
    pub(crate) labels: Vec<(usize, String)>,
    /// The propagators derived from the others before the search (innies
    /// and outies, hidden cages, combined sums): they narrow candidates but
    /// add no rule, so they do not weigh in the search's starting scores.
    pub(crate) derived: std::ops::Range<usize>,
    /// Pairs of cells that must differ all over the grid beyond its houses
    /// (anti-knight): the houses' digits then also leave the cells that see
    /// all their places ([`super::sight`]).
    pub(crate) far_pairs: bool,
}

impl Model {
    /// An empty model of side n: every candidate everywhere, no rule yet.
    pub(crate) fn new(n: usize) -> Model {
        let all = ((1u32 << n) - 1) as u16;
        Model {
            n,
            init: vec![all; n * n],
            houses: Vec::new(),
            distinct: Vec::new(),
            props: Vec::new(),
            region: vec![0; n * n],
            labels: Vec::new(),
            derived: 0..0,
            far_pairs: false,
        }
    }

    /// Per cell, the cells it must differ from (sorted, each once); the
    /// propagators are finished with them (see [`Prop::finish`]).
    pub(crate) fn finish(&mut self) -> Vec<Vec<u16>> {
        let mut peers = vec![Vec::new(); self.n * self.n];
        for &(a, b) in &self.distinct {
            peers[a as usize].push(b);
            peers[b as usize].push(a);
        }
        for p in &mut peers {
            p.sort_unstable();
            p.dedup();
        }
        for p in &mut self.props {
            p.finish(&peers, &self.houses, self.n);
        }
        peers
    }

    /// Name the propagators added from here on.
    pub(crate) fn label(&mut self, label: impl Into<String>) {
        self.labels.push((self.props.len(), label.into()));
    }

    /// The label of propagator `i`.
    pub(crate) fn label_of(&self, i: usize) -> &str {
        let k = self.labels.partition_point(|(start, _)| *start <= i);
        match k {
            0 => "rule",
            _ => &self.labels[k - 1].1,
        }
    }

    /// Every pair of cells of a group must differ.
    pub(crate) fn all_different(&mut self, cells: &[u16]) {
        for (i, &a) in cells.iter().enumerate() {
            for &b in &cells[i + 1..] {
                if a != b {
                    self.distinct.push((a, b));
                }
            }
        }
    }

    /// A group of n cells holding every digit once.
    pub(crate) fn house(&mut self, cells: Vec<u16>) {
        self.all_different(&cells);
        self.houses.push(cells);
    }
}

/// Two houses that share two or more cells, for locked candidates: the
/// house numbers, and where the shared cells, the rest of the first house
/// and the rest of the second lie in `VariantSolver::crossing_cells`.
///
/// Where it can, a crossing reads the unions of its parts from
/// [`Segments`] instead of its cells: on a 9×9 grid the shared cells of a
/// row and a box are a segment, the rest of the row is its two other box
/// segments and the rest of the box two other rows' segments in it, so a
/// crossing takes five unions rather than 15 cells.
#[derive(Clone, Copy, Debug)]
struct Crossing {
    a: u16,
    b: u16,
    /// Ends of the shared cells, the rest of `a` and the rest of `b`; the
    /// first starts at `start`.
    start: u32,
    ends: [u32; 3],
    /// The segment of the shared cells, or [`NO_SEGMENT`] when the crossing
    /// reads its cells (a shared part of over [`SEGMENT_CELLS`] cells, or a
    /// rest that three segments do not cover exactly).
    shared: u32,
    /// The segments covering the rest of `a`, then those of `b` (padded
    /// with the empty segment).
    pieces: [[u32; 3]; 2],
}

/// [`Crossing::shared`] of a crossing read cell by cell.
const NO_SEGMENT: u32 = u32::MAX;

/// The most cells of a segment.
const SEGMENT_CELLS: usize = 4;

/// The distinct shared parts of the crossings (segments) of at most
/// [`SEGMENT_CELLS`] cells, with the union of each one's candidates for a
/// pass of locked candidates (and on 9×9 grids of hidden singles first):
/// worked out for every segment at the start of the pass (on 9×9 grids of
/// hidden singles: locked candidates run only right after a pass of hidden
/// singles that changed nothing, so they are still current), and again for
/// a segment when one of its cells narrows in the pass. The unions are
/// those of the masks as they are when a house or crossing reads them, so the deductions (and the order in which
/// they are made) are the same as reading the cells afresh, for fewer
/// reads: a 9×9 house is three segments.
#[derive(Clone, Debug)]
struct Segments {
    /// Per segment, its cells (a shorter one repeats its first cell).
    cells: Vec<[u16; SEGMENT_CELLS]>,
    /// Per cell, the segments it is in: `of_cell[cell_start[c]..cell_start[c + 1]]`.
    of_cell: Vec<u32>,
    cell_start: Vec<u32>,
    /// Per segment, the union of its candidates and of its undecided
    /// cells' candidates; one more place, always empty, pads the pieces.
    /// Fixed grids of [`MAX_SEGMENTS`] places, read with `s & 255`, so the
    /// reads carry no bounds check.
    all: Box<[u16; MAX_SEGMENTS]>,
    open: Box<[u16; MAX_SEGMENTS]>,
    /// Per segment, the digits two or more of its cells have (kept when
    /// `three` only).
    twice: Box<[u16; MAX_SEGMENTS]>,
    /// Per house, the segments it is made of (padded with the empty
    /// segment), or [`NO_SEGMENT`] first when no crossing's parts cover it
    /// or `three` is false (hidden singles then read its cells).
    of_house: Vec<[u32; 4]>,
    /// Every segment has three cells (9×9 grids): hidden singles read a
    /// house through its segments (with `twice`), and the segments' unions
    /// are worked out at the start of hidden singles rather than of locked
    /// candidates. On 16×16 grids (a house of 16 cells, 128 segments of
    /// four) that cost more than reading the houses' cells (1.21× the fixed
    /// point loop on the harness's 16×16 and 6×6 puzzles), so other grids
    /// read cells (BENCHMARKS.md, "Session 18, last pass").
    three: bool,
}

/// The most segments plus one (the empty one): shared parts past the
/// first 255 stay unsegmented, their crossings read cells.
const MAX_SEGMENTS: usize = 256;

/// A segment number as an index into `Segments::all` and `open`.
#[inline(always)]
fn seg_at(s: u32) -> usize {
    s as usize & (MAX_SEGMENTS - 1)
}

/// The candidates of a cell if it is undecided, else none.
#[inline(always)]
fn undecided(m: u16) -> u16 {
    if m & m.wrapping_sub(1) == 0 { 0 } else { m }
}

impl Segments {
    /// Work out the unions of segment `s` from the three cells of a
    /// segment (`three`).
    #[inline(always)]
    fn update_three(&mut self, s: usize, masks: &Masks) {
        let cells = &self.cells[s];
        let [m0, m1, m2] = [cells[0], cells[1], cells[2]].map(|c| masks[at(c)]);
        self.all[s & (MAX_SEGMENTS - 1)] = m0 | m1 | m2;
        self.open[s & (MAX_SEGMENTS - 1)] = undecided(m0) | undecided(m1) | undecided(m2);
        self.twice[s & (MAX_SEGMENTS - 1)] = (m0 & m1) | ((m0 | m1) & m2);
    }

    /// Work out the unions of segment `s`.
    #[inline(always)]
    fn update(&mut self, s: usize, masks: &Masks) {
        if self.three {
            self.update_three(s, masks);
            return;
        }
        let (mut all, mut open) = (0u16, 0u16);
        for &c in &self.cells[s] {
            let m = masks[at(c)];
            all |= m;
            open |= undecided(m);
        }
        self.all[s & (MAX_SEGMENTS - 1)] = all;
        self.open[s & (MAX_SEGMENTS - 1)] = open;
    }

    /// Work out every segment's unions.
    #[inline]
    fn update_all(&mut self, masks: &Masks) {
        if self.three {
            for s in 0..self.cells.len() {
                self.update_three(s, masks);
            }
            return;
        }
        for (s, cells) in self.cells.iter().enumerate() {
            let (mut all, mut open) = (0u16, 0u16);
            for &c in cells {
                let m = masks[at(c)];
                all |= m;
                open |= undecided(m);
            }
            self.all[s & (MAX_SEGMENTS - 1)] = all;
            self.open[s & (MAX_SEGMENTS - 1)] = open;
        }
    }

    /// `cell` narrowed: work out its segments' unions again.
    #[inline]
    fn narrowed(&mut self, cell: u16, masks: &Masks) {
        let c = cell as usize;
        for i in self.cell_start[c] as usize..self.cell_start[c + 1] as usize {
            let s = self.of_cell[i] as usize;
            self.update(s, masks);
        }
    }
}

/// The crossings of `houses` with their segments: each crossing's shared
/// cells are a segment (crossings sharing the same cells share it), and
/// the rest of each house is covered, largest first, by segments inside
/// it that overlap no segment already taken; a crossing whose rests are
/// not covered exactly by at most three segments each reads its cells.
fn build_crossings(houses: &[Vec<u16>], cells: usize) -> (Vec<Crossing>, Vec<u16>, Segments) {
    let found = crossings_indexed(houses, cells);
    let mut seg_list: Vec<Vec<u16>> = Vec::new();
    let mut seg_of = Vec::with_capacity(found.len());
    for (_, _, [shared, _, _]) in &found {
        if shared.len() > SEGMENT_CELLS {
            seg_of.push(NO_SEGMENT);
            continue;
        }
        let mut key = shared.clone();
        key.sort_unstable();
        let s = match seg_list.iter().position(|k| *k == key) {
            Some(s) => s as u32,
            None if seg_list.len() + 1 < MAX_SEGMENTS => {
                seg_list.push(key);
                seg_list.len() as u32 - 1
            }
            None => NO_SEGMENT,
        };
        seg_of.push(s);
    }
    let empty = seg_list.len() as u32;
    // Largest first, so a cover takes few pieces.
    let mut by_size: Vec<usize> = (0..seg_list.len()).collect();
    by_size.sort_by_key(|&s| std::cmp::Reverse(seg_list[s].len()));
    let mut segs = Segments {
        cells: seg_list
            .iter()
            .map(|seg| std::array::from_fn(|i| seg[i.min(seg.len() - 1)]))
            .collect(),
        cell_start: Vec::with_capacity(cells + 1),
        of_cell: Vec::new(),
        all: Box::new([0; MAX_SEGMENTS]),
        open: Box::new([0; MAX_SEGMENTS]),
        twice: Box::new([0; MAX_SEGMENTS]),
        of_house: vec![[NO_SEGMENT; 4]; houses.len()],
        three: !seg_list.is_empty() && seg_list.iter().all(|seg| seg.len() == 3),
    };
    let mut of_cell = vec![Vec::new(); cells];
    for (s, seg) in seg_list.iter().enumerate() {
        for &c in seg {
            of_cell[c as usize].push(s as u32);
        }
    }
    for list in &of_cell {
        segs.cell_start.push(segs.of_cell.len() as u32);
        segs.of_cell.extend_from_slice(list);
    }
    segs.cell_start.push(segs.of_cell.len() as u32);
    let mut crossing_list = Vec::with_capacity(found.len());
    let mut crossing_cells = Vec::new();
    let mut inside = vec![false; cells];
    for ((a, b, parts), &seg) in found.iter().zip(&seg_of) {
        let start = crossing_cells.len() as u32;
        let mut ends = [0u32; 3];
        for (end, part) in ends.iter_mut().zip(parts) {
            crossing_cells.extend_from_slice(part);
            *end = crossing_cells.len() as u32;
        }
        let mut shared = seg;
        let mut pieces = [[empty; 3]; 2];
        for (k, rest) in parts[1..].iter().enumerate() {
            for &c in rest {
                inside[c as usize] = true;
            }
            let mut taken = 0;
            for &s in &by_size {
                let cells = &seg_list[s];
                if cells.iter().all(|&c| inside[c as usize]) {
                    if taken < 3 {
                        pieces[k][taken] = s as u32;
                    }
                    taken += 1;
                    for &c in cells {
                        inside[c as usize] = false;
                    }
                }
            }
            for &c in rest {
                if inside[c as usize] {
                    shared = NO_SEGMENT;
                    inside[c as usize] = false;
                }
            }
            if taken > 3 {
                shared = NO_SEGMENT;
            }
        }
        if shared != NO_SEGMENT && segs.three {
            // The shared part and each rest's pieces make up each house.
            for (h, p) in [(*a, pieces[0]), (*b, pieces[1])] {
                if segs.of_house[h][0] == NO_SEGMENT {
                    segs.of_house[h] = [shared, p[0], p[1], p[2]];
                }
            }
        }
        crossing_list.push(Crossing {
            a: *a as u16,
            b: *b as u16,
            start,
            ends,
            shared,
            pieces,
        });
    }
    (crossing_list, crossing_cells, segs)
}

/// Where a contradiction came from: two cells that had to differ (or one
/// cell left empty), a house (a digit with no place, or a cell with two
/// digits that have no other place), or a propagator.
#[derive(Clone, Copy, Debug)]
enum Failed {
    Cells(u16, u16),
    House,
    Prop(u32),
}

/// A house's flag in `VariantSolver::dirty`: hidden singles should look at it.
const DIRTY_SINGLES: u8 = 1;
/// A house's flag in `VariantSolver::dirty`: locked candidates should look at it.
const DIRTY_LOCKED: u8 = 2;

/// A search frame: the cell branched on, its candidates there and the
/// digit tried (the frame's saved state is the one before the try).
#[derive(Clone, Copy, Debug)]
struct Frame {
    cell: u16,
    /// The candidates at the choice.
    mask: u16,
    /// The digit tried (one bit of `mask`).
    bit: u16,
}

/// A solver for one variant puzzle. Build it once ([`VariantSolver::new`]),
/// then search, count or check uniqueness as often as needed; its buffers
/// are reused.
///
/// ```
/// use sudoku_core::variant::{Puzzle, VariantSolver};
/// use sudoku_core::Uniqueness;
/// // A 4×4 grid with a killer cage: r1c1 + r1c2 = 3, and r1c3 = 4.
/// let p: Puzzle = ".Shape~4x4.Cage~3~R1C1~R1C2.~R1C3_4".parse()?;
/// let mut solver = VariantSolver::new(&p)?;
/// let (answer, report) = solver.uniqueness(&Default::default());
/// let Uniqueness::Multiple(first, _) = answer else { panic!("{answer:?}") };
/// assert_eq!(first[0] + first[1], 3);
/// assert_eq!(first[2], 4);
/// assert!(report.stats.nodes > 0);
/// let (count, _) = solver.count(1000, &Default::default());
/// assert_eq!(count, 24); // r1 is 1 2 4 3 or 2 1 4 3; 12 grids follow each
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct VariantSolver {
    n: usize,
    /// Whether the puzzle is a classic 9×9 one (see [`is_classic`]): its
    /// untraced searches then run on the `fast` method from the given
    /// candidates.
    classic: bool,
    fast: LazyFast,
    all: u16,
    init: Vec<u16>,
    houses: Vec<Vec<u16>>,
    /// Pairs of houses sharing two or more cells (see [`Crossing`]).
    crossings: Vec<Crossing>,
    /// The cells of the crossings, one after another.
    crossing_cells: Vec<u16>,
    /// The crossings' shared parts, for reading the houses' rests.
    segments: Segments,
    /// Per cell, the houses it is in: `cell_houses[house_start[c]..house_start[c + 1]]`.
    cell_houses: Vec<u16>,
    house_start: Vec<u32>,
    /// Per house, whether a cell of it narrowed since hidden singles
    /// ([`DIRTY_SINGLES`]) or locked candidates ([`DIRTY_LOCKED`]) last
    /// looked at it. Those rules skip the houses that did not: they read
    /// the same masks as the last time, and found nothing then (the same
    /// deductions, so the same fixed point and tree, for less work). Every
    /// state the search returns to was a fixed point, so all are clear
    /// there.
    dirty: Vec<u8>,
    /// The rule the last contradiction came from, for the conflict scores
    /// ([`Self::conflict`]).
    failed: Failed,
    /// Per propagator, its cells: `prop_cells[prop_start[p]..prop_start[p + 1]]`.
    prop_cells: Vec<u16>,
    prop_start: Vec<u32>,
    peers: Vec<Vec<u16>>,
    props: Vec<Prop>,
    watch: Vec<Vec<u32>>,
    // Search state, reused.
    masks: Box<Masks>,
    saved: Vec<u16>,
    frames: Vec<Frame>,
    changed: Changed,
    /// The propagators to run, a ring of one place per propagator, taken
    /// first in, first out: each runs after the others already woken, so
    /// it sees their narrowings at once instead of being woken again by
    /// them (last in, first out ran the newest sums over and over while
    /// older ones waited: a third more time on ISS's MATHEMAGIC killers,
    /// the same fixed point and the same tree).
    queue: Ring,
    /// The propagators run only when `queue` is empty: the sums derived
    /// before the search, which restate the others and cost the most, run
    /// once the rules they come from have narrowed what they can (the same
    /// fixed point and tree; about 15% less time on MATHEMAGIC_KILLERS#4).
    /// The derived cages (hidden cages) are cheap and narrow most, so they
    /// run in `queue` with the rules they come from (the same fixed point
    /// in a different order; BENCHMARKS.md, "Session 18, scheduling").
    late_queue: Ring,
    /// The propagators run only when the others, singles and locked
    /// candidates are done: the houses' digits against the cells that see
    /// all their places ([`super::sight`]), which locked candidates and
    /// singles narrow first, so they run once rather than at each step.
    last_queue: Ring,
    /// Per propagator, its queue: 0 `queue`, 1 `late_queue`, 2 `last_queue`.
    late: Vec<u8>,
    /// Whether each propagator is in a queue.
    queued: Vec<bool>,
    values: Vec<u8>,
    /// Per cell, how often trying one of its digits failed (halved every
    /// [`DECAY`] failures): the search branches first where it failed most.
    conflicts: Vec<u32>,
    /// Per digit, how often trying it failed (fading faster).
    digit_conflicts: [u32; 16],
    /// Per cell, the score the conflicts start from: how much the rules
    /// bear on it (see [`priorities`]).
    priority: Vec<u32>,
    until_decay: u32,
    /// Whether the node being chosen at is the child of a try (not a
    /// refutation).
    after_try: bool,
    /// A try of five or more candidates being watched: its cell and the
    /// number of candidates (over all cells) it leaves.
    watched: Option<(u16, u32)>,
}

/// The `fast` method of a classic puzzle's solver, made on its first
/// search; a clone starts without one.
#[derive(Debug, Default)]
struct LazyFast(Option<Box<Fast>>);

impl Clone for LazyFast {
    fn clone(&self) -> LazyFast {
        LazyFast(None)
    }
}

/// Whether a lowered model is a classic 9×9 Sudoku: the rows, columns and
/// 3×3 boxes are its only houses, no other pair of cells must differ
/// (`peers` are the cells each cell must differ from) and there is no
/// other rule. Its given digits and candidates are then the whole puzzle,
/// a pencilmark grid, which the classic `fast` method searches many times
/// faster than the general engine (Interactive Sudoku Solver's
/// "HARD_PENCILMARKS" puzzles are such grids).
fn is_classic(model: &Model, peers: &[Vec<u16>]) -> bool {
    if model.n != 9 || !model.props.is_empty() || model.far_pairs || model.houses.len() != 27 {
        return false;
    }
    let box_of = |c: u16| (c / 27) * 3 + (c % 9) / 3;
    let mut standard: Vec<Vec<u16>> = (0..9u16)
        .flat_map(|i| {
            [
                (0..9).map(|j| i * 9 + j).collect(),
                (0..9).map(|j| j * 9 + i).collect(),
                (0..81).filter(|&c| box_of(c) == i).collect(),
            ]
        })
        .collect();
    let mut houses: Vec<Vec<u16>> = model
        .houses
        .iter()
        .map(|h| {
            let mut h = h.clone();
            h.sort_unstable();
            h
        })
        .collect();
    standard.sort_unstable();
    houses.sort_unstable();
    let sees =
        |a: u16, b: u16| a != b && (a / 9 == b / 9 || a % 9 == b % 9 || box_of(a) == box_of(b));
    houses == standard
        && (0..81u16)
            .zip(peers)
            .all(|(c, p)| p.len() == 20 && p.iter().all(|&q| sees(c, q)))
}

/// A first-in, first-out queue of propagator numbers in a ring of fixed
/// size: each propagator is queued at most once at a time (see
/// `VariantSolver::queued`), so one place per propagator is enough.
#[derive(Clone, Debug)]
struct Ring {
    buf: Vec<u32>,
    head: usize,
    len: usize,
}

impl Ring {
    fn new(places: usize) -> Ring {
        Ring {
            buf: vec![0; places.max(1)],
            head: 0,
            len: 0,
        }
    }

    fn clear(&mut self) {
        self.head = 0;
        self.len = 0;
    }

    #[inline]
    fn push(&mut self, w: u32) {
        let mut at = self.head + self.len;
        if at >= self.buf.len() {
            at -= self.buf.len();
        }
        self.buf[at] = w;
        self.len += 1;
    }

    #[inline]
    fn pop(&mut self) -> Option<u32> {
        if self.len == 0 {
            return None;
        }
        let w = self.buf[self.head];
        self.head += 1;
        if self.head == self.buf.len() {
            self.head = 0;
        }
        self.len -= 1;
        Some(w)
    }
}

/// Failures between two halvings of the conflict scores.
const DECAY: u32 = 1 << 14;

impl VariantSolver {
    /// Lower a puzzle to its rules. Fails when a constraint cannot hold on
    /// this grid at all (a cage sum no digits make, a cell off the grid).
    pub fn new(puzzle: &Puzzle) -> Result<VariantSolver, VariantError> {
        Ok(VariantSolver::from_model(puzzle.lower()?))
    }

    pub(crate) fn from_model(mut model: Model) -> VariantSolver {
        let n = model.n;
        let cells = n * n;
        let peers = model.finish();
        let classic = is_classic(&model, &peers);
        let sight = model.props.len();
        if model.far_pairs {
            model
                .props
                .extend(super::sight::props(&model.houses, &peers));
        }
        let mut watch = vec![Vec::new(); cells];
        let mut prop_cells = Vec::new();
        let mut prop_start = vec![0u32];
        for (i, p) in model.props.iter().enumerate() {
            let mut cs = p.cells();
            cs.sort_unstable();
            cs.dedup();
            for &c in &cs {
                watch[c as usize].push(i as u32);
            }
            prop_cells.extend_from_slice(&cs);
            prop_start.push(prop_cells.len() as u32);
        }
        let props = model.props.len();
        // Per propagator, its queue (see `late`). Of the derived sums, the
        // cages (hidden cages: distinct digits, read through a table of
        // combinations) are cheap and narrow most, so they run with the
        // rules they come from; the others wait.
        let late: Vec<u8> = (0..props)
            .map(|i| {
                if i >= sight {
                    2
                } else {
                    let early = matches!(model.props[i], Prop::Cage(_));
                    (model.derived.contains(&i) && !early) as u8
                }
            })
            .collect();
        let priority = priorities(&model);
        let (crossing_list, crossing_cells, segments) = build_crossings(&model.houses, cells);
        let mut of_cell = vec![Vec::new(); cells];
        for (h, house) in model.houses.iter().enumerate() {
            for &c in house {
                of_cell[c as usize].push(h as u16);
            }
        }
        let mut house_start = Vec::with_capacity(cells + 1);
        let mut cell_houses = Vec::new();
        for hs in &of_cell {
            house_start.push(cell_houses.len() as u32);
            cell_houses.extend_from_slice(hs);
        }
        house_start.push(cell_houses.len() as u32);
        VariantSolver {
            n,
            classic,
            fast: LazyFast::default(),
            all: ((1u32 << n) - 1) as u16,
            init: model.init,
            crossings: crossing_list,
            crossing_cells,
            segments,
            cell_houses,
            house_start,
            dirty: vec![DIRTY_SINGLES | DIRTY_LOCKED; model.houses.len()],
            failed: Failed::Cells(0, 0),
            prop_cells,
            prop_start,
            houses: model.houses,
            peers,
            props: model.props,
            watch,
            masks: Box::new([0; MAX_CELLS]),
            saved: Vec::with_capacity(cells * 8),
            frames: Vec::with_capacity(cells),
            changed: Changed::new(),
            queue: Ring::new(props),
            late_queue: Ring::new(props),
            last_queue: Ring::new(props),
            late,
            queued: vec![false; props],
            values: vec![0; cells],
            conflicts: vec![0; cells],
            digit_conflicts: [0; 16],
            priority,
            until_decay: DECAY,
            after_try: false,
            watched: None,
        }
    }

    /// Side n of the grid.
    pub fn side(&self) -> usize {
        self.n
    }

    /// Whether the puzzle is a classic 9×9 one (the rows, columns and 3×3
    /// boxes, given digits or candidates, no other rule). Its untraced
    /// searches ([`search`](Self::search), [`count`](Self::count),
    /// [`uniqueness`](Self::uniqueness)) then run on the classic `fast`
    /// method, whose statistics count its own nodes; traced searches stay
    /// on the general engine.
    pub fn is_classic(&self) -> bool {
        self.classic
    }

    /// Visit every solution (values row-major, 1..=n) until the visitor
    /// breaks or a limit stops the search; the report says which.
    pub fn search(
        &mut self,
        limits: &Limits,
        on_solution: &mut dyn FnMut(&[u8]) -> ControlFlow<()>,
    ) -> Report {
        if self.classic {
            return self.search_classic(limits, on_solution);
        }
        let start = Instant::now();
        let mut stats = Stats::default();
        let stop = self.run(limits, &mut stats, on_solution, &mut NoTrace);
        stats.time = start.elapsed();
        stats.peak_bytes = self.state_bytes();
        Report { stats, stop }
    }

    /// [`search`](Self::search) of a classic 9×9 puzzle: the `fast`
    /// method from the given candidates (its statistics count its own
    /// nodes and guesses).
    fn search_classic(
        &mut self,
        limits: &Limits,
        on_solution: &mut dyn FnMut(&[u8]) -> ControlFlow<()>,
    ) -> Report {
        let mut cands = [0u16; 81];
        cands.copy_from_slice(&self.init);
        let fast = self.fast.0.get_or_insert_with(|| Box::new(Fast::new()));
        let mut values = [0u8; 81];
        fast.search_candidates(&cands, limits, &mut |g: &Grid| {
            values.copy_from_slice(g.cells());
            on_solution(&values)
        })
    }

    /// Like [`search`](Self::search) on the general engine (also for a
    /// classic grid, see [`is_classic`](Self::is_classic)), also reporting
    /// each step to `trace`:
    /// each try ([`TraceStep::Try`], cells row-major from 0), each
    /// contradiction propagation reaches, each return to a choice, each
    /// solution. The propagation itself (singles and the rules) is not
    /// traced step by step.
    pub fn search_traced(
        &mut self,
        limits: &Limits,
        on_solution: &mut dyn FnMut(&[u8]) -> ControlFlow<()>,
        trace: &mut dyn FnMut(&TraceStep),
    ) -> Report {
        let start = Instant::now();
        let mut stats = Stats::default();
        let stop = self.run(limits, &mut stats, on_solution, &mut FnTrace(trace));
        stats.time = start.elapsed();
        stats.peak_bytes = self.state_bytes();
        Report { stats, stop }
    }

    /// Count solutions, stopping at `up_to`.
    pub fn count(&mut self, up_to: u64, limits: &Limits) -> (u64, Report) {
        let limits = Limits {
            max_solutions: Some(up_to.min(limits.max_solutions.unwrap_or(u64::MAX))),
            ..limits.clone()
        };
        let report = self.search(&limits, &mut |_| ControlFlow::Continue(()));
        (report.stats.solutions, report)
    }

    /// No solution, one (and which), or several (the first two found); or
    /// unknown when a limit stopped the search first.
    pub fn uniqueness(&mut self, limits: &Limits) -> (Uniqueness<Vec<u8>>, Report) {
        let limits = Limits {
            max_solutions: Some(2),
            ..limits.clone()
        };
        let mut found: Vec<Vec<u8>> = Vec::with_capacity(2);
        let report = self.search(&limits, &mut |v| {
            found.push(v.to_vec());
            ControlFlow::Continue(())
        });
        let answer = match (report.stop, found.len()) {
            (_, 2) => {
                let second = found.pop().expect("two");
                Uniqueness::Multiple(found.pop().expect("two"), second)
            }
            (StopReason::Exhausted, 1) => Uniqueness::Unique(found.pop().expect("one")),
            (StopReason::Exhausted, _) => Uniqueness::NoSolution,
            (stop, _) => Uniqueness::Unknown(stop),
        };
        (answer, report)
    }

    /// Set the search's state back to the puzzle's start: the givens, every
    /// rule queued, the scores at their priorities.
    fn reset(&mut self) {
        let cells = self.n * self.n;
        self.frames.clear();
        self.saved.clear();
        self.masks[..cells].copy_from_slice(&self.init);
        self.changed.clear();
        for c in 0..cells as u16 {
            self.changed.push(c);
        }
        self.queue.clear();
        self.late_queue.clear();
        self.last_queue.clear();
        for (i, &late) in self.late.iter().enumerate() {
            match late {
                0 => self.queue.push(i as u32),
                1 => self.late_queue.push(i as u32),
                _ => self.last_queue.push(i as u32),
            }
        }
        self.queued.fill(true);
        self.dirty.fill(DIRTY_SINGLES | DIRTY_LOCKED);
        self.conflicts.copy_from_slice(&self.priority);
        self.digit_conflicts = [0; 16];
        self.until_decay = DECAY;
        self.after_try = false;
        self.watched = None;
    }

    /// Each cell's candidates after the propagation at the root (before any
    /// try), or `None` when it finds a contradiction. For comparing the root
    /// state with other solvers'.
    pub fn root_candidates(&mut self) -> Option<Vec<u16>> {
        self.reset();
        let cells = self.n * self.n;
        self.propagate().then(|| self.masks[..cells].to_vec())
    }

    fn state_bytes(&self) -> u64 {
        let cells = self.n * self.n;
        ((self.saved.capacity() + CHANGED_PLACES + 2 * cells) * 2
            + self.frames.capacity() * std::mem::size_of::<Frame>()
            + (self.queue.buf.len() + self.late_queue.buf.len() + self.last_queue.buf.len()) * 4
            + self.queued.len()
            + cells) as u64
    }

    fn run<T: Tracer>(
        &mut self,
        limits: &Limits,
        stats: &mut Stats,
        on_solution: &mut dyn FnMut(&[u8]) -> ControlFlow<()>,
        trace: &mut T,
    ) -> StopReason {
        let cells = self.n * self.n;
        let max_nodes = limits.max_nodes.unwrap_or(u64::MAX);
        let max_solutions = limits.max_solutions.unwrap_or(u64::MAX);
        if max_solutions == 0 {
            return StopReason::SolutionLimit;
        }
        let slow = limits.has_slow_limits();
        self.reset();
        // Every state entered is a node: the root, then each alternative
        // tried, whether or not its propagation fails.
        if max_nodes == 0 {
            return StopReason::NodeLimit;
        }
        stats.nodes = 1;
        let mut consistent = self.propagate();
        if T::ON && !consistent {
            trace.step(TraceStep::Contradiction);
        }
        loop {
            if consistent {
                stats.max_depth = stats.max_depth.max(self.frames.len() as u32);
                match self.choose() {
                    None => {
                        if self.solution_holds() {
                            if T::ON {
                                trace.step(TraceStep::Solution);
                            }
                            stats.solutions += 1;
                            let flow = on_solution(&self.values);
                            if stats.solutions >= max_solutions {
                                return StopReason::SolutionLimit;
                            }
                            if flow.is_break() {
                                return StopReason::Visitor;
                            }
                        }
                    }
                    Some(frame) => {
                        // Try the cell's smallest candidate; the frame
                        // keeps the state before the try for its refutation.
                        if let Err(r) = enter_node(stats, max_nodes, slow, limits) {
                            return r;
                        }
                        self.saved.extend_from_slice(&self.masks[..cells]);
                        self.frames.push(frame);
                        if T::ON {
                            trace.step(TraceStep::Try {
                                depth: self.frames.len() as u32,
                                cell: frame.cell as usize,
                                candidates: digits(frame.mask).collect(),
                                digit: min_digit(frame.bit),
                            });
                        }
                        stats.guesses += 1;
                        self.dirty.fill(0);
                        self.masks[at(frame.cell)] = frame.bit;
                        self.changed.push(frame.cell);
                        consistent = self.propagate();
                        if consistent {
                            self.after_try = true;
                            continue;
                        }
                        self.conflict(frame.cell, frame.bit);
                        if T::ON {
                            trace.step(TraceStep::Contradiction);
                        }
                    }
                }
            }
            // Refute the deepest try: back in the state before it, the cell
            // loses the digit tried, and that is propagated too (two-way
            // branching). A contradiction there refutes the try above it.
            loop {
                let Some(frame) = self.frames.pop() else {
                    return StopReason::Exhausted;
                };
                let from = self.saved.len() - cells;
                self.masks[..cells].copy_from_slice(&self.saved[from..]);
                self.saved.truncate(from);
                // A fixed point: no house has anything left for singles
                // or locked candidates.
                self.dirty.fill(0);
                if T::ON {
                    trace.step(TraceStep::Backtrack {
                        depth: self.frames.len() as u32 + 1,
                        cell: frame.cell as usize,
                    });
                }
                if let Err(r) = enter_node(stats, max_nodes, slow, limits) {
                    return r;
                }
                let left = frame.mask & !frame.bit;
                self.masks[at(frame.cell)] = left;
                self.changed.push(frame.cell);
                if self.propagate() {
                    consistent = true;
                    self.after_try = false;
                    break;
                }
                self.conflict(frame.cell, left & left.wrapping_neg());
                if T::ON {
                    trace.step(TraceStep::Contradiction);
                }
            }
        }
    }

    /// Count a failed try at `cell`, whose propagation failed as
    /// `self.failed` says.
    ///
    /// The cell tried scores one, and so does every cell of the rule the
    /// contradiction came from ([`Failed`]; not a house): the weighted
    /// degree of Boussemart, Hemery, Lecoutre and Sais ("Boosting
    /// systematic search by weighting constraints", 2004), where a rule
    /// that fails gains weight and a cell's weight is that of its rules,
    /// kept here directly in the cells' scores. Against scoring the cell
    /// tried alone: I want to break free 755,749 → 117,699 nodes,
    /// HARD_PENCILMARKS#3 3.8 M → 807 K, Hard renban 2 1.18 M → 816 K
    /// (BENCHMARKS.md, "weighted degree", for all puzzles).
    fn conflict(&mut self, cell: u16, digit: u16) {
        self.conflicts[cell as usize] += 1;
        match self.failed {
            Failed::Cells(a, b) => {
                self.conflicts[a as usize] += 1;
                if b != a {
                    self.conflicts[b as usize] += 1;
                }
            }
            // Every cell is in as many houses as the others: weighting
            // them tells the cells apart little, and on jigsaw layouts
            // with no givens (iss-layout-363 of the shared corpus) it sent
            // the search from 464,913 nodes to over 3 million.
            Failed::House => {}
            Failed::Prop(p) => {
                let (from, to) = (
                    self.prop_start[p as usize] as usize,
                    self.prop_start[p as usize + 1] as usize,
                );
                for &c in &self.prop_cells[from..to] {
                    self.conflicts[c as usize] += 1;
                }
            }
        }
        self.digit_conflicts[digit.trailing_zeros() as usize] += 1;
        self.until_decay -= 1;
        if self.until_decay == 0 {
            self.until_decay = DECAY;
            for c in &mut self.conflicts {
                *c >>= 1;
            }
            // Digits' scores fade faster: they change more quickly.
            for c in &mut self.digit_conflicts {
                *c >>= 2;
            }
        }
    }

    /// The digit that failed most often, and its score, when it stands out
    /// (at least n failures, and over 1.5 times the least-failing digit that
    /// failed at all); else (0, 0).
    fn hot_digit(&self) -> (u16, u32) {
        let (mut top, mut score, mut least) = (0usize, 0u32, u32::MAX);
        for (d, &s) in self.digit_conflicts[..self.n].iter().enumerate() {
            if s > score {
                top = d;
                score = s;
            }
            if s > 0 {
                least = least.min(s);
            }
        }
        if score < self.n as u32 || 2 * score as u64 <= 3 * least as u64 {
            (0, 0)
        } else {
            (1 << top, score)
        }
    }

    /// The cell to branch on, its candidates and the digit to try, or
    /// `None` when every cell is decided (then `values` holds the grid).
    /// The cell with the most failures per candidate (a conflict-directed
    /// choice, after Boussemart et al., "Boosting systematic search by
    /// weighting constraints", 2004, kept per cell as the Interactive Sudoku
    /// Solver does), or while nothing has failed yet, the one with the
    /// fewest candidates; its smallest digit first, unless a digit with two
    /// places in a house is the better choice ([`Self::house_pair`]). A
    /// try among five or more candidates that narrowed no other cell
    /// halves its cell's score.
    fn choose(&mut self) -> Option<Frame> {
        let mut best = None;
        let (mut best_count, mut best_score) = (u32::MAX, 0u32);
        let (hot, hot_score) = self.hot_digit();
        let bonus = hot_score / 5;
        let mut total = 0u32;
        for (i, (&m, &score)) in self.masks.iter().zip(&self.conflicts).enumerate() {
            let k = count(m);
            total += k;
            if k <= 1 {
                continue;
            }
            let score = if m & hot != 0 { score + bonus } else { score };
            // score / k > best_score / best_count, or equal with fewer candidates.
            let (lhs, rhs) = (
                score as u64 * best_count as u64,
                best_score as u64 * k as u64,
            );
            if best.is_none() || lhs > rhs || (lhs == rhs && k < best_count) {
                best = Some(i as u16);
                best_count = k;
                best_score = score;
            }
        }
        let Some(cell) = best else {
            for (v, &m) in self.values.iter_mut().zip(self.masks.iter()) {
                *v = min_digit(m);
            }
            return None;
        };
        // A wide try that narrowed nothing but its own cell: that cell's
        // score is halved, so the search stops picking it (the Interactive
        // Sudoku Solver's demotion).
        if let Some((c, left)) = self.watched.take() {
            if self.after_try && left == total {
                self.conflicts[c as usize] >>= 1;
            }
        }
        let mask = self.masks[at(cell)];
        let own = self.conflicts[cell as usize];
        if best_count > 2 && own > 0 {
            if let Some((cell, bit)) = self.house_pair(own, best_count) {
                return Some(Frame {
                    cell,
                    mask: self.masks[at(cell)],
                    bit,
                });
            }
        }
        if self.after_try && best_count >= 5 {
            self.watched = Some((cell, total - (best_count - 1)));
        }
        Some(Frame {
            cell,
            mask,
            bit: mask & mask.wrapping_neg(),
        })
    }

    /// A digit with two places left in a house, as a two-way choice: try it
    /// in one of them (refuting that puts it in the other). Taken instead of
    /// the chosen cell's `count` candidates when the busier of the two
    /// places has at least twice the chosen cell's score per candidate
    /// (`own / count`); among such pairs, the one whose busier place has
    /// the highest score, that place tried first. (The Interactive Sudoku
    /// Solver's house candidates, with its weights.)
    fn house_pair(&self, own: u32, count: u32) -> Option<(u16, u16)> {
        let mut best: Option<(u16, u16)> = None;
        let mut best_score = 0u32;
        for house in &self.houses {
            let (mut once, mut twice, mut more) = (0u16, 0u16, 0u16);
            for &c in house {
                let m = self.masks[at(c)];
                more |= twice & m;
                twice |= once & m;
                once |= m;
            }
            let mut two = twice & !more;
            while two != 0 {
                let bit = two & two.wrapping_neg();
                two ^= bit;
                let (mut top, mut top_score, mut open) = (0u16, 0u32, true);
                for &c in house {
                    let m = self.masks[at(c)];
                    if m & bit != 0 {
                        open &= m & (m - 1) != 0;
                        let s = self.conflicts[c as usize];
                        if s >= top_score {
                            top = c;
                            top_score = s;
                        }
                    }
                }
                // Both places open; score·count ≥ 2·own, and at least the best.
                if open
                    && top_score as u64 * count as u64 >= 2 * own as u64
                    && top_score >= best_score
                {
                    best = Some((top, bit));
                    best_score = top_score;
                }
            }
        }
        best
    }

    fn solution_holds(&self) -> bool {
        self.props.iter().all(|p| p.holds(&self.values))
    }

    /// Run to a fixed point: `false` on a contradiction.
    fn propagate(&mut self) -> bool {
        let ok = self.fixpoint().is_ok();
        if !ok {
            self.changed.clear();
            self.queued.fill(false);
            self.queue.clear();
            self.late_queue.clear();
            self.last_queue.clear();
        }
        ok
    }

    fn fixpoint(&mut self) -> Result<(), Contradiction> {
        loop {
            while let Some(c) = self.changed.pop() {
                let m = self.masks[at(c)];
                if m == 0 {
                    // Only a cell that starts empty (its givens, odd/even
                    // marks or thermometer place leave nothing) gets here.
                    self.failed = Failed::Cells(c, c);
                    return Err(Contradiction);
                }
                if m & (m - 1) == 0 {
                    for &p in &self.peers[c as usize] {
                        let o = self.masks[at(p)];
                        if o & m != 0 {
                            let left = o & !m;
                            if left == 0 {
                                self.failed = Failed::Cells(c, p);
                                return Err(Contradiction);
                            }
                            self.masks[at(p)] = left;
                            self.changed.push(p);
                        }
                    }
                }
                self.mark(c);
                for &w in &self.watch[c as usize] {
                    if !self.queued[w as usize] {
                        self.queued[w as usize] = true;
                        match self.late[w as usize] {
                            0 => self.queue.push(w),
                            1 => self.late_queue.push(w),
                            _ => self.last_queue.push(w),
                        }
                    }
                }
            }
            if let Some(w) = self.queue.pop().or_else(|| self.late_queue.pop()) {
                self.run_prop(w)?;
                continue;
            }
            if self.hidden_singles()? || self.locked_candidates()? {
                continue;
            }
            // All of them at once: the cells they narrow are looked at
            // afterwards, in one round of singles and locked candidates.
            if self.last_queue.len == 0 {
                return Ok(());
            }
            while let Some(w) = self.last_queue.pop() {
                self.run_prop(w)?;
            }
        }
    }

    /// Run propagator `w`, taken from its queue.
    #[inline]
    fn run_prop(&mut self, w: u32) -> Result<(), Contradiction> {
        self.queued[w as usize] = false;
        let mut dom = Dom {
            masks: &mut self.masks,
            changed: &mut self.changed,
        };
        if self.props[w as usize].propagate(&mut dom).is_err() {
            self.failed = Failed::Prop(w);
            return Err(Contradiction);
        }
        Ok(())
    }

    /// Mark the houses of `cell` for singles and locked candidates.
    #[inline]
    fn mark(&mut self, cell: u16) {
        let (from, to) = (
            self.house_start[cell as usize] as usize,
            self.house_start[cell as usize + 1] as usize,
        );
        for &h in &self.cell_houses[from..to] {
            self.dirty[h as usize] = DIRTY_SINGLES | DIRTY_LOCKED;
        }
    }

    /// Locked candidates (pointing and claiming): where two houses cross, a
    /// digit that one house can only place in the shared cells leaves the
    /// rest of the other house. `true` if any candidate went. Only crossings
    /// with a house marked in `dirty` are looked at. On 9×9 grids
    /// (`Segments::three`) the segments' unions must be current:
    /// [`Self::hidden_singles`] works them out, and this runs only after a
    /// pass of it that changed nothing.
    fn locked_candidates(&mut self) -> Result<bool, Contradiction> {
        let mut any = false;
        if !self.segments.three {
            self.segments.update_all(&self.masks);
        }
        for k in 0..self.crossings.len() {
            let (a, b) = (self.crossings[k].a, self.crossings[k].b);
            if (self.dirty[a as usize] | self.dirty[b as usize]) & DIRTY_LOCKED == 0 {
                continue;
            }
            let x = &self.crossings[k];
            let [e0, e1, e2] = x.ends.map(|e| e as usize);
            // The digits of the undecided shared cells (a decided one's
            // digit is in no other cell of either house already), and the
            // unions of the rests of both houses.
            let (inside, rest_a, rest_b) = if x.shared != NO_SEGMENT {
                let seg = &self.segments;
                let inside = seg.open[seg_at(x.shared)];
                let union = |p: [u32; 3]| {
                    seg.all[seg_at(p[0])] | seg.all[seg_at(p[1])] | seg.all[seg_at(p[2])]
                };
                (inside, union(x.pieces[0]), union(x.pieces[1]))
            } else {
                let s = x.start as usize;
                let or = |cells: &[u16], m: &Masks| cells.iter().fold(0u16, |a, &c| a | m[at(c)]);
                let inside = self.crossing_cells[s..e0].iter().fold(0u16, |a, &c| {
                    let m = self.masks[at(c)];
                    a | if m & m.wrapping_sub(1) == 0 { 0 } else { m }
                });
                (
                    inside,
                    or(&self.crossing_cells[e0..e1], &self.masks),
                    or(&self.crossing_cells[e1..e2], &self.masks),
                )
            };
            // A digit the rest of one house lacks leaves the rest of the
            // other, where it still is.
            let only_a = inside & !rest_a & rest_b;
            let only_b = inside & !rest_b & rest_a;
            for (only, from, to) in [(only_a, e1, e2), (only_b, e0, e1)] {
                if only == 0 {
                    continue;
                }
                for i in from..to {
                    let c = self.crossing_cells[i];
                    let m = self.masks[at(c)];
                    if m & only != 0 {
                        let left = m & !only;
                        if left == 0 {
                            self.failed = Failed::Cells(c, c);
                            return Err(Contradiction);
                        }
                        self.masks[at(c)] = left;
                        self.changed.push(c);
                        self.mark(c);
                        self.segments.narrowed(c, &self.masks);
                        any = true;
                    }
                }
            }
        }
        // Every crossing with a marked house was looked at, and a cell
        // narrowed here marks its houses again when `changed` is drained.
        for d in &mut self.dirty {
            *d &= !DIRTY_LOCKED;
        }
        Ok(any)
    }

    /// Place every digit that has one cell left in a house; `true` if any
    /// was. Only houses marked in `dirty` are looked at.
    fn hidden_singles(&mut self) -> Result<bool, Contradiction> {
        let mut any = false;
        if self.segments.three {
            self.segments.update_all(&self.masks);
        }
        for h in 0..self.houses.len() {
            if self.dirty[h] & DIRTY_SINGLES == 0 {
                continue;
            }
            self.dirty[h] &= !DIRTY_SINGLES;
            // The digits of the house, those of two or more of its cells
            // and those of its undecided cells: from its segments' unions
            // where they make it up, else from its cells.
            let (mut once, mut twice, mut open) = (0u16, 0u16, 0u16);
            let parts = self.segments.of_house[h];
            if parts[0] != NO_SEGMENT {
                let seg = &self.segments;
                for s in parts {
                    let a = seg.all[seg_at(s)];
                    twice |= seg.twice[seg_at(s)] | (once & a);
                    once |= a;
                    open |= seg.open[seg_at(s)];
                }
            } else {
                for &c in &self.houses[h] {
                    let m = self.masks[at(c)];
                    twice |= once & m;
                    once |= m;
                    open |= undecided(m);
                }
            }
            if once != self.all {
                self.failed = Failed::House;
                return Err(Contradiction);
            }
            // A digit of one cell is placed there unless that cell is
            // decided already.
            let hidden = once & !twice & open;
            if hidden == 0 {
                continue;
            }
            for k in 0..self.houses[h].len() {
                let c = self.houses[h][k];
                let m = self.masks[at(c)];
                let got = m & hidden;
                if got != 0 && m != got {
                    if got & (got - 1) != 0 {
                        self.failed = Failed::House;
                        return Err(Contradiction);
                    }
                    self.masks[at(c)] = got;
                    self.changed.push(c);
                    self.mark(c);
                    if self.segments.three {
                        self.segments.narrowed(c, &self.masks);
                    }
                    any = true;
                }
            }
        }
        Ok(any)
    }
}

/// Per cell, where the search starts its conflict scores: the sum, over the
/// rules on the cell, of a weight per rule (a house or other group: its
/// size; a sum: 2n minus its size, at least n, so small sums weigh most).
/// The Interactive Sudoku Solver seeds its conflict scores the same way, so
/// that the first branches go where the rules are densest. The sums derived
/// before the search do not count: they restate the rules they come from,
/// and counting them sent the first branches where many derived sums
/// overlap (MATHEMAGIC_KILLERS#4 of ISS's examples: 349,405 tries with
/// them, 67,038 without; ISS, whose optimiser derives fewer, 79,891
/// guesses).
fn priorities(model: &Model) -> Vec<u32> {
    let n = model.n as u32;
    let mut out = vec![0u32; model.n * model.n];
    for h in &model.houses {
        for &c in h {
            out[c as usize] += h.len() as u32;
        }
    }
    for (i, p) in model.props.iter().enumerate() {
        if model.derived.contains(&i) || matches!(p, Prop::Sight(_)) {
            continue;
        }
        let mut cells = p.cells();
        if let Prop::Cage(c) = p {
            cells.truncate(c.cells.len());
        }
        cells.sort_unstable();
        cells.dedup();
        let len = cells.len() as u32;
        let weight = match p {
            Prop::Cage(_) | Prop::Linear(_) => (2 * n).saturating_sub(len).max(n),
            _ => len,
        };
        for c in cells {
            out[c as usize] += weight;
        }
    }
    out
}

/// The pairs of houses that share at least two cells, for
/// [`VariantSolver::locked_candidates`].
pub(crate) fn crossings(houses: &[Vec<u16>], cells: usize) -> Vec<[Vec<u16>; 3]> {
    crossings_indexed(houses, cells)
        .into_iter()
        .map(|(_, _, parts)| parts)
        .collect()
}

/// [`crossings`] with the numbers of the two houses of each.
fn crossings_indexed(houses: &[Vec<u16>], cells: usize) -> Vec<(usize, usize, [Vec<u16>; 3])> {
    let mut out = Vec::new();
    let mut mark = vec![false; cells];
    for (i, a) in houses.iter().enumerate() {
        for &c in a {
            mark[c as usize] = true;
        }
        for (j, b) in houses.iter().enumerate().skip(i + 1) {
            let shared: Vec<u16> = b.iter().copied().filter(|&c| mark[c as usize]).collect();
            if shared.len() >= 2 && shared.len() < a.len() {
                let rest_a = a.iter().copied().filter(|c| !shared.contains(c)).collect();
                let rest_b = b.iter().copied().filter(|c| !shared.contains(c)).collect();
                out.push((i, j, [shared, rest_a, rest_b]));
            }
        }
        for &c in a {
            mark[c as usize] = false;
        }
    }
    out
}

/// Count a search node: stop at the node limit, and with a deadline or a
/// cancel flag (`slow`) read them every 256 nodes.
#[inline(always)]
fn enter_node(
    stats: &mut Stats,
    max_nodes: u64,
    slow: bool,
    limits: &Limits,
) -> Result<(), StopReason> {
    if stats.nodes >= max_nodes {
        return Err(StopReason::NodeLimit);
    }
    stats.nodes += 1;
    if slow && stats.nodes & 255 == 0 {
        if let Some(r) = limits.poll() {
            return Err(r);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The houses of a grid of side `side`, with windoku's four extra boxes
    /// and the two diagonals when `extra` (crossings whose rests the
    /// segments cover only in part).
    fn grid_model(side: usize, extra: bool) -> Model {
        let shape = super::super::Shape::new(side).expect("side");
        let mut m = Model::new(side);
        for h in shape.houses() {
            m.house(h);
        }
        if extra {
            for (r, c) in [(1, 1), (1, 5), (5, 1), (5, 5)] {
                m.house(
                    (0..9)
                        .map(|i| ((r + i / 3) * 9 + c + i % 3) as u16)
                        .collect(),
                );
            }
            m.house((0..9).map(|i| (i * 10) as u16).collect());
            m.house((0..9).map(|i| (i * 8 + 8) as u16).collect());
        }
        m
    }

    /// The fixed point does not depend on the queues: on every puzzle of
    /// the variant corpus, the root's candidates are the same with the
    /// derived sums queued as the solver queues them, all in the first
    /// queue, and all (with the rules they come from) in the late queue;
    /// and some puzzles have derived sums in both queues.
    #[test]
    fn the_root_fixed_point_is_the_same_in_any_queue() {
        let corpus = include_str!("../../../../testdata/variant/corpus.tsv");
        let (mut checked, mut split) = (0, 0);
        for line in corpus.lines().filter(|l| !l.starts_with('#')) {
            let Some(text) = line.split('\t').nth(2) else {
                continue;
            };
            let Ok(puzzle) = text.parse::<Puzzle>() else {
                continue;
            };
            let mut solver = VariantSolver::new(&puzzle).expect("lowers");
            let queued = solver.late.clone();
            split += (queued.contains(&0) && queued.contains(&1)) as u32;
            let want = solver.root_candidates();
            for q in [0u8, 1] {
                for l in &mut solver.late {
                    if *l < 2 {
                        *l = q;
                    }
                }
                assert_eq!(solver.root_candidates(), want, "{line}");
            }
            checked += 1;
        }
        assert!(checked > 300 && split > 5, "{checked} {split}");
    }

    /// On plain 9×9 and 16×16 grids the rest of each house in a crossing
    /// is two or three segments.
    #[test]
    fn segments_cover_the_rests_of_rows_columns_and_boxes() {
        for side in [9, 16] {
            let m = grid_model(side, false);
            let (crossings, _, segs) = build_crossings(&m.houses, side * side);
            let b = if side == 9 { 3 } else { 4 };
            let empty = 2 * side as u32 * b;
            assert_eq!(crossings.len(), 2 * side * b as usize);
            assert_eq!(segs.cells.len(), empty as usize);
            for x in &crossings {
                assert!(x.shared < empty);
                for p in x.pieces {
                    let used = p.iter().filter(|&&s| s != empty).count();
                    assert_eq!(used, b as usize - 1);
                }
            }
            // With the diagonals, a box and a diagonal share three cells
            // whose rests no segments cover: those crossings read cells.
            let m = grid_model(9, true);
            let (crossings, _, _) = build_crossings(&m.houses, 81);
            assert!(crossings.iter().any(|x| x.shared == NO_SEGMENT));
            assert!(crossings.iter().any(|x| x.shared != NO_SEGMENT));
        }
    }

    /// Locked candidates read through the segments make the same
    /// deductions as ORing each crossing's cells afresh, on random
    /// candidates, with and without extra houses.
    #[test]
    fn locked_candidates_by_segments_match_a_plain_scan() {
        let mut next = crate::variant::xorshift(0x9e37_79b9_7f4a_7c15u64);
        for (side, extra) in [(9, false), (9, true), (16, false)] {
            let cells = side * side;
            let mut solver = VariantSolver::from_model(grid_model(side, extra));
            let plain = crossings(&solver.houses, cells);
            let all = solver.all;
            let (mut found, mut failed) = (0, 0);
            for _ in 0..400 {
                let mut masks = [0u16; MAX_CELLS];
                for m in masks.iter_mut().take(cells) {
                    let r = next();
                    *m = if r % 4 == 0 {
                        1 << ((r >> 8) % side as u64)
                    } else {
                        all & ((r >> 16) as u16 | (r >> 32) as u16)
                    };
                    if *m == 0 {
                        *m = all;
                    }
                }
                let mut want = masks;
                let mut want_ok = true;
                'scan: for [shared, rest_a, rest_b] in &plain {
                    let or = |cs: &[u16], m: &Masks| cs.iter().fold(0u16, |a, &c| a | m[at(c)]);
                    let inside = shared.iter().fold(0u16, |a, &c| {
                        let m = want[at(c)];
                        a | if m.count_ones() == 1 { 0 } else { m }
                    });
                    let only_a = inside & !or(rest_a, &want);
                    let only_b = inside & !or(rest_b, &want);
                    for (only, rest) in [(only_a, rest_b), (only_b, rest_a)] {
                        for &c in rest {
                            if want[at(c)] & only != 0 {
                                want[at(c)] &= !only;
                                if want[at(c)] == 0 {
                                    want_ok = false;
                                    break 'scan;
                                }
                            }
                        }
                    }
                }
                *solver.masks = masks;
                solver.dirty.fill(DIRTY_LOCKED);
                solver.changed.clear();
                solver.segments.update_all(&solver.masks);
                let got = solver.locked_candidates();
                assert_eq!(got.is_ok(), want_ok);
                if want_ok {
                    assert_eq!(solver.masks[..cells], want[..cells]);
                    found += (want != masks) as u32;
                } else {
                    failed += 1;
                }
            }
            // Both outcomes and some narrowing were exercised (on 16×16
            // grids random candidates seldom fail).
            assert!(found > 10, "{side} {extra}: {found}");
            assert!(failed > 10 || side == 16, "{side} {extra}: {failed}");
        }
    }

    /// Hidden singles read through the segments' unions (9×9 grids) place
    /// the same digits, in the same order, and fail on the same masks as a
    /// plain scan of the houses' cells; with diagonals (houses no
    /// crossing's parts make up) and on 16×16 grids (segments of four)
    /// they read cells, also checked.
    #[test]
    fn hidden_singles_by_segments_match_a_plain_scan() {
        let mut next = crate::variant::xorshift(0x2545_f491_4f6c_dd1du64);
        for (side, extra) in [(9, false), (9, true), (16, false)] {
            let cells = side * side;
            let mut model = grid_model(side, false);
            if extra {
                // The diagonals: segments of three cells where they cross
                // boxes, but no crossing's parts make them up (they read
                // cells).
                model.house((0..9).map(|i| (i * 10) as u16).collect());
                model.house((0..9).map(|i| (i * 8 + 8) as u16).collect());
            }
            let mut solver = VariantSolver::from_model(model);
            assert_eq!(solver.segments.three, side == 9);
            let houses = solver.houses.clone();
            let all = solver.all;
            let (mut found, mut failed) = (0, 0);
            for _ in 0..600 {
                // Around a planted grid (rows, columns and boxes hold
                // each digit once): decided cells, cells of two or three
                // digits, and a few without their digit.
                let b = if side == 9 { 3 } else { 4 };
                let mut masks = [0u16; MAX_CELLS];
                for (i, m) in masks.iter_mut().take(cells).enumerate() {
                    let (r, c) = (i / side, i % side);
                    let own = 1u16 << ((r * b + r / b + c) % side);
                    let x = next();
                    let noise = |k: u64| 1u16 << ((x >> k) % side as u64);
                    *m = match x % 64 {
                        0..=27 => own,
                        28..=62 => own | noise(8) | (noise(16) & (x >> 30) as u16),
                        _ => noise(8) | noise(16),
                    };
                }
                let mut want = masks;
                let mut want_ok = true;
                'scan: for house in &houses {
                    let (mut once, mut twice, mut solved) = (0u16, 0u16, 0u16);
                    for &c in house {
                        let m = want[at(c)];
                        twice |= once & m;
                        once |= m;
                        solved |= if m.count_ones() == 1 { m } else { 0 };
                    }
                    if once != all {
                        want_ok = false;
                        break 'scan;
                    }
                    let hidden = once & !twice & !solved;
                    for &c in house {
                        let m = want[at(c)];
                        let got = m & hidden;
                        if got != 0 && got != m {
                            if got.count_ones() > 1 {
                                want_ok = false;
                                break 'scan;
                            }
                            want[at(c)] = got;
                        }
                    }
                }
                *solver.masks = masks;
                solver.dirty.fill(DIRTY_SINGLES);
                solver.changed.clear();
                let got = solver.hidden_singles();
                assert_eq!(got.is_ok(), want_ok);
                if want_ok {
                    assert_eq!(solver.masks[..cells], want[..cells]);
                    assert_eq!(got.unwrap(), want != masks);
                    found += (want != masks) as u32;
                } else {
                    failed += 1;
                }
            }
            // The planted grid breaks the diagonals: there the rows,
            // columns and boxes are read before each fails.
            assert!(found > 10 || extra, "{side} {extra}: {found}");
            assert!(failed > 10, "{side} {extra}: {failed}");
        }
    }

    /// A linear sum whose coefficients cancel on one cell (an arrow's end
    /// listed again in its middle) leaves that cell free: the exact step
    /// for two or three open cells must not divide by its zero.
    #[test]
    fn a_cancelled_coefficient_is_left_to_the_bounds() {
        let mut m = Model::new(4);
        for r in 0..4u16 {
            m.house((r * 4..r * 4 + 4).collect());
            m.house((0..4).map(|c| c * 4 + r).collect());
        }
        let terms = vec![(1, 1), (2, -1), (0, 0)];
        m.props
            .push(Prop::Linear(super::super::prim::Linear::new(terms, 0)));
        let mut solver = VariantSolver::from_model(m);
        let (count, _) = solver.count(1_000_000, &Limits::default());
        // r1c2 = r1c3 cannot hold in a row: no solution.
        assert_eq!(count, 0);
    }

    /// A classic 9×9 grid given by digits or by candidates goes to the
    /// `fast` method, with the general engine's answers; a grid with one
    /// more rule does not.
    #[test]
    fn classic_grids_take_the_fast_method_with_the_same_answers() {
        // a hard 9×9 puzzle, its first row reduced to candidates
        let givens = "8........\
                      ..36.....\
                      .7..9.2..\
                      .5...7...\
                      ....457..\
                      ...1...3.\
                      ..1....68\
                      ..85...1.\
                      .9....4..";
        let mut text = String::new();
        for (i, ch) in givens.chars().enumerate() {
            let (r, c) = (i / 9 + 1, i % 9 + 1);
            if let Some(d) = ch.to_digit(10) {
                text.push_str(&format!(".~R{r}C{c}_{d}"));
            } else if r == 1 {
                text.push_str(&format!(".~R{r}C{c}_1_2_3_4_5_6_7_9"));
            }
        }
        let cases = [
            (text.clone(), true),
            (format!("{text}.Shape~9x9"), true),
            (format!("{text}.Diagonal~1"), false),
            (".Shape~6x6".to_string(), false),
        ];
        for (text, classic) in cases {
            let p: Puzzle = text.parse().expect("parses");
            let mut solver = VariantSolver::new(&p).expect("solver");
            assert_eq!(solver.classic, classic, "{text}");
            let mut general = solver.clone();
            general.classic = false;
            let limits = Limits::default();
            let (a, _) = solver.uniqueness(&limits);
            let (b, _) = general.uniqueness(&limits);
            assert_eq!(a, b, "{text}");
            assert_eq!(solver.count(3, &limits).0, general.count(3, &limits).0);
        }
        // the classic path's solution keeps the givens and the candidates
        let p: Puzzle = text.parse().expect("parses");
        let (answer, _) = VariantSolver::new(&p)
            .expect("solver")
            .uniqueness(&Limits::default());
        let Uniqueness::Unique(v) = answer else {
            panic!("{answer:?}")
        };
        assert_eq!(v[0], 8);
        assert!(v[1..9].iter().all(|&d| d != 8));
        assert_eq!((v[11], v[12]), (3, 6));
    }

    #[test]
    fn masks_and_digits() {
        assert_eq!(digits(0b1010_0001).collect::<Vec<_>>(), [1, 6, 8]);
        assert_eq!(min_digit(0b1000), 4);
        assert_eq!(max_digit(0b1001), 4);
        assert_eq!(range_mask(2, 4), 0b1110);
        assert_eq!(range_mask(5, 4), 0);
        assert_eq!(range_mask(-3, 1), 1);
        assert_eq!(range_mask(1, 40), u16::MAX);
        for m in 0..=u16::MAX {
            assert_eq!(count(m), m.count_ones());
        }
    }
}
