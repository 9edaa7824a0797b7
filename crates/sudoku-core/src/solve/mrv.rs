//! `mrv`: candidate bitmasks, naked singles, and branching on the cell with
//! the fewest candidates (minimum remaining values).
//!
//! Each cell holds a bitmask of its candidates (bit `d - 1` for digit `d`).
//! Placing a digit removes it from the cell's peers (row, column, box); a
//! peer left with one candidate is a naked single and is placed in turn, and a
//! peer left with none is a dead end. When nothing is forced, the search
//! branches on the empty cell with the fewest candidates (ties going to
//! the cell with the most open peers that share a candidate), trying them in
//! increasing order.
//!
//! The state at each choice point is a frame of `n² + 3n + 1` words (a word per
//! cell: its candidates, or its digit once filled; the digits placed in each
//! house, kept by `mrv-hidden`; the count of empty cells) on an explicit stack
//! that is reused across puzzles: trying an alternative copies the frame below
//! once and works in place, so the search allocates nothing per node. The
//! 9×9 layout is compiled with its sizes as constants; other sizes read them
//! at run time.
//!
//! The heuristic only changes the speed, never the answer: every method
//! enumerates the same solutions. This is the classic "most constrained
//! variable" strategy (Haralick & Elliott 1980, "Increasing tree search
//! efficiency for constraint satisfaction problems");
//! [`mrv_hidden`](super::mrv_hidden) adds hidden singles.
//!
//! Statistics: a node is the root or an alternative tried; every alternative
//! is a guess (a choice cell always has two candidates or more); depth is the
//! number of choices on the path; `peak_bytes` is the peer and house tables
//! plus the frames and choice entries in use at the deepest point.

use crate::time::Instant;
use std::ops::ControlFlow;

use super::{
    Budget, FnTrace, Limits, NoTrace, Report, Solver, Stats, StopReason, TraceStep, Tracer,
};
use crate::grid::{Grid, House, Size};

/// A filled cell's word holds its digit from this bit up, and no candidate
/// bits (candidates use bits 0..25), so house scans need no filled test.
const DIGIT_SHIFT: u32 = 26;

/// Whether a cell word is a filled cell.
#[inline(always)]
fn is_filled(m: u32) -> bool {
    m >> DIGIT_SHIFT != 0
}

/// A choice point: the cell, its candidates, and those not tried yet.
#[derive(Clone, Copy, Debug)]
struct Choice {
    cell: u32,
    all: u32,
    rest: u32,
}

/// Why propagation failed.
#[derive(Clone, Copy, Debug)]
enum Dead {
    /// A cell with no candidate left.
    Cell(usize),
    /// A digit (bit) with no place left in a house (index into the house table).
    NoPlace(usize, u32),
}

/// The search machinery shared by `mrv` and `mrv-hidden`: size tables and
/// reusable buffers.
#[derive(Debug, Default)]
pub(crate) struct Core {
    size: Option<Size>,
    n: usize,
    cells: usize,
    all: u32,
    /// `npeers` peers per cell.
    npeers: usize,
    peers: Vec<u16>,
    /// `3n` houses (rows, columns, boxes) of `n` cells each.
    houses: Vec<u16>,
    /// Per cell: the bits of its row, column and box in the house numbering.
    cell_houses: Vec<u128>,
    /// Per cell: the indices of its row, column and box in the house numbering.
    cell_house_index: Vec<[u16; 3]>,
    /// Houses whose counts changed since they were last scanned for hidden
    /// singles (only kept up to date by `mrv-hidden`).
    dirty: u128,
    /// Frames of `stride()` words.
    frames: Vec<u32>,
    choices: Vec<Choice>,
    /// Cells left with one candidate or none, `qlen` of them; room for two
    /// entries per cell (a cell enters when it reaches one candidate and
    /// again when it reaches none).
    queue: Vec<u16>,
    qlen: usize,
    solution: Option<Grid>,
}

impl Core {
    fn prepare(&mut self, size: Size) {
        if self.size == Some(size) {
            return;
        }
        let n = size.side();
        let cells = size.cells();
        self.size = Some(size);
        self.n = n;
        self.cells = cells;
        self.all = (1u32 << n) - 1;
        self.houses.clear();
        for r in 0..n {
            self.houses.extend((0..n).map(|c| size.cell(r, c) as u16));
        }
        for c in 0..n {
            self.houses.extend((0..n).map(|r| size.cell(r, c) as u16));
        }
        for b in 0..n {
            self.houses.extend(size.box_cells(b).map(|c| c as u16));
        }
        self.peers.clear();
        let mut npeers = 0;
        for cell in 0..cells {
            let before = self.peers.len();
            for other in 0..cells {
                if other != cell
                    && (size.row_of(other) == size.row_of(cell)
                        || size.col_of(other) == size.col_of(cell)
                        || size.box_of(other) == size.box_of(cell))
                {
                    self.peers.push(other as u16);
                }
            }
            npeers = self.peers.len() - before;
        }
        self.npeers = npeers;
        self.cell_house_index = (0..cells)
            .map(|c| {
                [
                    size.row_of(c) as u16,
                    (n + size.col_of(c)) as u16,
                    (2 * n + size.box_of(c)) as u16,
                ]
            })
            .collect();
        self.cell_houses = (0..cells)
            .map(|c| {
                (1u128 << size.row_of(c))
                    | (1u128 << (n + size.col_of(c)))
                    | (1u128 << (2 * n + size.box_of(c)))
            })
            .collect();
        self.queue = vec![0; 2 * cells + 1];
        self.qlen = 0;
        self.frames.clear();
        self.solution = Some(Grid::empty(size));
    }

    fn house(&self, h: usize) -> House {
        let n = self.n;
        match h / n {
            0 => House::Row(h),
            1 => House::Col(h - n),
            _ => House::Box(h - 2 * n),
        }
    }

    /// Frame layout: a word per cell, the placed-digit mask of each of the
    /// 3n houses, then the count of empty cells.
    fn stride(&self) -> usize {
        self.cells + 3 * self.n + 1
    }

    // The layout, as compile-time constants when `N` is a side the search was
    // specialised for (9), else read at run time (`N = 0`).
    #[inline(always)]
    fn n_<const N: usize>(&self) -> usize {
        if N != 0 { N } else { self.n }
    }
    #[inline(always)]
    fn cells_<const N: usize>(&self) -> usize {
        if N != 0 { N * N } else { self.cells }
    }
    #[inline(always)]
    fn stride_<const N: usize>(&self) -> usize {
        self.cells_::<N>() + 3 * self.n_::<N>() + 1
    }
    /// Index in a frame of the count of empty cells.
    #[inline(always)]
    fn empty_at<const N: usize>(&self) -> usize {
        self.cells_::<N>() + 3 * self.n_::<N>()
    }
    #[inline(always)]
    fn npeers_<const N: usize>(&self) -> usize {
        match N {
            9 => 20,
            _ => self.npeers,
        }
    }

    /// Make sure frame `k` exists.
    fn ensure_frame(&mut self, k: usize) {
        let need = (k + 1) * self.stride();
        if self.frames.len() < need {
            self.frames.resize(need, 0);
        }
    }

    /// Place `bit` in `cell` of frame `f` and remove it from the peers,
    /// queueing peers left with one candidate or none (the queue finds the
    /// dead end).
    ///
    /// Two passes: the elimination itself has no data-dependent branch
    /// (whether a peer still had the digit is too random for a branch
    /// predictor) and records which peers changed in a bitmask (at most 64
    /// peers, for 25×25); only those are then looked at.
    #[inline(always)]
    fn assign<const HIDDEN: bool, const N: usize>(&mut self, f: usize, cell: usize, bit: u32) {
        let stride = self.stride_::<N>();
        let cells = self.cells_::<N>();
        let empty_at = self.empty_at::<N>();
        let npeers = self.npeers_::<N>();
        let frame = &mut self.frames[f * stride..(f + 1) * stride];
        frame[cell] = (bit.trailing_zeros() + 1) << DIGIT_SHIFT;
        frame[empty_at] -= 1;
        if HIDDEN {
            self.dirty |= self.cell_houses[cell];
            for h in self.cell_house_index[cell] {
                frame[cells + h as usize] |= bit;
            }
        }
        let peers = &self.peers[cell * npeers..(cell + 1) * npeers];
        let shift = bit.trailing_zeros();
        let mut changed = 0u64;
        for (i, &p) in peers.iter().enumerate() {
            let m = frame[p as usize];
            changed |= u64::from((m >> shift) & 1) << i;
            frame[p as usize] = m & !bit;
        }
        while changed != 0 {
            let p = peers[changed.trailing_zeros() as usize] as usize;
            changed &= changed - 1;
            let r = frame[p];
            if r & r.wrapping_sub(1) == 0 {
                self.queue[self.qlen] = p as u16;
                self.qlen += 1;
            }
            if HIDDEN {
                self.dirty |= self.cell_houses[p];
            }
        }
    }

    /// Place the queued naked singles until none is left.
    #[inline(always)]
    fn naked<T: Tracer, const HIDDEN: bool, const N: usize>(
        &mut self,
        f: usize,
        tr: &mut T,
    ) -> Result<(), Dead> {
        let base = f * self.stride_::<N>();
        while self.qlen > 0 {
            self.qlen -= 1;
            let p = self.queue[self.qlen] as usize;
            let m = self.frames[base + p];
            if is_filled(m) {
                continue;
            }
            if m == 0 {
                return Err(Dead::Cell(p));
            }
            if T::ON {
                tr.step(TraceStep::NakedSingle {
                    cell: p,
                    digit: m.trailing_zeros() as u8 + 1,
                });
            }
            self.assign::<HIDDEN, N>(f, p, m);
        }
        Ok(())
    }

    /// Scan the dirty houses for hidden singles (placing them and their
    /// naked-single consequences, which dirty more houses) and for digits
    /// with no place, until no house is dirty.
    #[inline(always)]
    fn hidden<T: Tracer, const N: usize>(&mut self, f: usize, tr: &mut T) -> Result<(), Dead> {
        let n = self.n_::<N>();
        let cells = self.cells_::<N>();
        let base = f * self.stride_::<N>();
        let empty_at = base + self.empty_at::<N>();
        let all = self.all;
        while self.dirty != 0 {
            if self.frames[empty_at] == 0 {
                self.dirty = 0;
                break;
            }
            let h = self.dirty.trailing_zeros() as usize;
            self.dirty &= self.dirty - 1;
            let (mut once, mut twice) = (0u32, 0u32);
            let frame = &self.frames[base..base + cells + 3 * n];
            for &c in &self.houses[h * n..(h + 1) * n] {
                // A filled cell's word has no candidate bits.
                let open = frame[c as usize] & all;
                twice |= once & open;
                once |= open;
            }
            let placed = frame[cells + h];
            let missing = all & !(once | placed);
            if missing != 0 {
                return Err(Dead::NoPlace(h, missing & missing.wrapping_neg()));
            }
            let mut singles = once & !twice;
            while singles != 0 {
                let bit = singles & singles.wrapping_neg();
                singles &= singles - 1;
                if self.frames[base + cells + h] & bit != 0 {
                    // Placed meanwhile by the singles that followed an earlier one.
                    continue;
                }
                let at = self.houses[h * n..(h + 1) * n]
                    .iter()
                    .map(|&c| c as usize)
                    .find(|&c| self.frames[base + c] & bit != 0);
                let Some(cell) = at else {
                    // An earlier single of this house took the digit's only cell.
                    return Err(Dead::NoPlace(h, bit));
                };
                if T::ON {
                    tr.step(TraceStep::HiddenSingle {
                        house: self.house(h),
                        cell,
                        digit: bit.trailing_zeros() as u8 + 1,
                    });
                }
                self.assign::<true, N>(f, cell, bit);
                self.naked::<T, true, N>(f, tr)?;
            }
        }
        Ok(())
    }

    /// Propagate frame `f` to a fixed point.
    #[inline(always)]
    fn propagate<T: Tracer, const HIDDEN: bool, const N: usize>(
        &mut self,
        f: usize,
        tr: &mut T,
    ) -> Result<(), Dead> {
        self.naked::<T, HIDDEN, N>(f, tr)?;
        if HIDDEN {
            self.hidden::<T, N>(f, tr)?;
        }
        Ok(())
    }

    /// The empty cell of frame `f` with the fewest candidates (`None`: solved).
    ///
    /// Ties go to the cell with the most open peers that share one of its
    /// candidates (the "degree" tie-break of MRV: Brélaz 1979 for graph
    /// colouring; Russell & Norvig, *Artificial Intelligence: A Modern
    /// Approach*, ch. 6): its choice removes the most candidates elsewhere.
    /// On the forum-hardest puzzles it cuts the nodes by about a third.
    #[inline(always)]
    fn choose<const N: usize>(&self, f: usize) -> Option<(usize, u32)> {
        let cells = self.cells_::<N>();
        let npeers = self.npeers_::<N>();
        let frame = &self.frames[f * self.stride_::<N>()..(f + 1) * self.stride_::<N>()];
        if frame[self.empty_at::<N>()] == 0 {
            return None;
        }
        // (cell, mask, candidate count, open peers sharing a candidate)
        let mut best = (usize::MAX, 0u32, u32::MAX, 0u32);
        for (cell, &m) in frame[..cells].iter().enumerate() {
            if is_filled(m) {
                continue;
            }
            let k = m.count_ones();
            if k > best.2 {
                continue;
            }
            // A filled peer never shares a candidate, so this counts open peers.
            let degree: u32 = self.peers[cell * npeers..(cell + 1) * npeers]
                .iter()
                .map(|&p| u32::from(frame[p as usize] & m != 0))
                .sum();
            if k < best.2 || degree > best.3 {
                best = (cell, m, k, degree);
            }
        }
        (best.0 != usize::MAX).then_some((best.0, best.1))
    }

    fn dead_step(&self, d: Dead) -> TraceStep {
        match d {
            Dead::Cell(cell) => TraceStep::DeadEnd { cell },
            Dead::NoPlace(h, bit) => TraceStep::NoPlace {
                house: self.house(h),
                digit: bit.trailing_zeros() as u8 + 1,
            },
        }
    }

    /// Frame 0 from the givens, propagated.
    fn init<T: Tracer, const HIDDEN: bool, const N: usize>(
        &mut self,
        puzzle: &Grid,
        tr: &mut T,
    ) -> Result<(), Dead> {
        self.ensure_frame(0);
        let cells = self.cells_::<N>();
        let all = self.all;
        let empty_at = self.empty_at::<N>();
        self.frames[..cells].fill(all);
        self.frames[cells..empty_at].fill(0);
        self.frames[empty_at] = cells as u32;
        self.qlen = 0;
        self.dirty = u128::MAX >> (128 - 3 * self.n);
        for (cell, &d) in puzzle.cells().iter().enumerate() {
            if d != 0 {
                let bit = 1u32 << (d - 1);
                let m = self.frames[cell];
                // A filled cell has no candidates, so a repeated given fails here too.
                if m & bit == 0 {
                    return Err(Dead::Cell(cell));
                }
                self.assign::<HIDDEN, N>(0, cell, bit);
            }
        }
        self.propagate::<T, HIDDEN, N>(0, tr)
    }

    fn emit(
        &mut self,
        f: usize,
        budget: &mut Budget<'_>,
        on_solution: &mut dyn FnMut(&Grid) -> ControlFlow<()>,
    ) -> Result<(), StopReason> {
        let stride = self.stride();
        let frame = &self.frames[f * stride..f * stride + self.cells];
        let Some(grid) = self.solution.as_mut() else {
            return Ok(());
        };
        for (out, &m) in grid.cells_mut().iter_mut().zip(frame) {
            *out = (m >> DIGIT_SHIFT) as u8;
        }
        budget.solution(grid, on_solution)
    }

    /// The whole search.
    pub(crate) fn run<T: Tracer, const HIDDEN: bool>(
        &mut self,
        puzzle: &Grid,
        limits: &Limits,
        on_solution: &mut dyn FnMut(&Grid) -> ControlFlow<()>,
        tr: &mut T,
    ) -> Report {
        let start = Instant::now();
        let mut stats = Stats::default();
        let mut budget = Budget::new(limits);
        self.prepare(puzzle.size());
        let stop = if self.n == 9 {
            self.search::<T, HIDDEN, 9>(puzzle, &mut budget, &mut stats, on_solution, tr)
        } else {
            self.search::<T, HIDDEN, 0>(puzzle, &mut budget, &mut stats, on_solution, tr)
        };
        let table_bytes = (self.peers.len() + self.houses.len()) * 2;
        let frame_bytes = self.stride() * 4;
        stats.peak_bytes = (table_bytes
            + (stats.max_depth as usize + 1) * (frame_bytes + size_of::<Choice>()))
            as u64;
        stats.time = start.elapsed();
        stats.solutions = budget.solutions;
        Report { stats, stop }
    }

    fn search<T: Tracer, const HIDDEN: bool, const N: usize>(
        &mut self,
        puzzle: &Grid,
        budget: &mut Budget<'_>,
        stats: &mut Stats,
        on_solution: &mut dyn FnMut(&Grid) -> ControlFlow<()>,
        tr: &mut T,
    ) -> StopReason {
        if budget.solutions_done() {
            return StopReason::SolutionLimit;
        }
        if let Err(r) = budget.enter(stats) {
            return r;
        }
        self.choices.clear();
        let mut ok = match self.init::<T, HIDDEN, N>(puzzle, tr) {
            Ok(()) => true,
            Err(d) => {
                if T::ON {
                    tr.step(self.dead_step(d));
                }
                false
            }
        };
        loop {
            // Whether the next try resumes an older choice (after a dead end or a solution).
            let mut backtracking = true;
            if ok {
                let f = self.choices.len();
                match self.choose::<N>(f) {
                    None => {
                        if T::ON {
                            tr.step(TraceStep::Solution);
                        }
                        if let Err(r) = self.emit(f, budget, on_solution) {
                            return r;
                        }
                    }
                    Some((cell, mask)) => {
                        self.choices.push(Choice {
                            cell: cell as u32,
                            all: mask,
                            rest: mask,
                        });
                        stats.max_depth = stats.max_depth.max(self.choices.len() as u32);
                        self.ensure_frame(self.choices.len());
                        backtracking = false;
                    }
                }
            }
            // Try the next alternative of the innermost open choice.
            loop {
                let k = self.choices.len();
                let Some(top) = self.choices.last_mut() else {
                    return StopReason::Exhausted;
                };
                if top.rest == 0 {
                    self.choices.pop();
                    backtracking = true;
                    continue;
                }
                let bit = top.rest & top.rest.wrapping_neg();
                top.rest &= !bit;
                let Choice { cell, all, .. } = *top;
                let cell = cell as usize;
                if let Err(r) = budget.enter(stats) {
                    return r;
                }
                stats.guesses += 1;
                if T::ON {
                    if backtracking {
                        tr.step(TraceStep::Backtrack {
                            depth: k as u32,
                            cell,
                        });
                    }
                    tr.step(TraceStep::Try {
                        depth: k as u32,
                        cell,
                        candidates: (0..32u8)
                            .filter(|&i| all & (1 << i) != 0)
                            .map(|i| i + 1)
                            .collect(),
                        digit: bit.trailing_zeros() as u8 + 1,
                    });
                }
                let stride = self.stride_::<N>();
                self.frames
                    .copy_within((k - 1) * stride..k * stride, k * stride);
                self.qlen = 0;
                self.dirty = 0;
                self.assign::<HIDDEN, N>(k, cell, bit);
                let res = self.propagate::<T, HIDDEN, N>(k, tr);
                match res {
                    Ok(()) => {
                        ok = true;
                        break;
                    }
                    Err(d) => {
                        if T::ON {
                            tr.step(self.dead_step(d));
                        }
                        backtracking = true;
                    }
                }
            }
        }
    }
}

/// The MRV backtracker, with hidden singles when `HIDDEN` is true: one
/// search core, two methods. Use the aliases [`Mrv`] and
/// [`MrvHidden`](super::MrvHidden).
#[derive(Debug, Default)]
pub struct MrvSolver<const HIDDEN: bool> {
    core: Core,
}

/// Bitmask backtracking with naked singles and MRV branching. See the
/// [module docs](self).
pub type Mrv = MrvSolver<false>;

impl<const HIDDEN: bool> MrvSolver<HIDDEN> {
    /// A solver with empty buffers (they grow on first use and are reused).
    pub fn new() -> Self {
        Self::default()
    }
}

impl<const HIDDEN: bool> Solver for MrvSolver<HIDDEN> {
    fn name(&self) -> &'static str {
        let method = if HIDDEN {
            super::Method::MrvHidden
        } else {
            super::Method::Mrv
        };
        method.name()
    }

    fn search(
        &mut self,
        puzzle: &Grid,
        limits: &Limits,
        on_solution: &mut dyn FnMut(&Grid) -> ControlFlow<()>,
    ) -> Report {
        self.core
            .run::<NoTrace, HIDDEN>(puzzle, limits, on_solution, &mut NoTrace)
    }

    fn search_traced(
        &mut self,
        puzzle: &Grid,
        limits: &Limits,
        on_solution: &mut dyn FnMut(&Grid) -> ControlFlow<()>,
        trace: &mut dyn FnMut(&TraceStep),
    ) -> Option<Report> {
        Some(
            self.core
                .run::<FnTrace<'_>, HIDDEN>(puzzle, limits, on_solution, &mut FnTrace(trace)),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::parse_line;

    const ISSUE: &str =
        ".3..9..5.....1...45..8....7....3.2..6....9.4...7..25.......19....69....812.....7.";

    #[test]
    fn tables_have_the_right_shape() {
        let mut core = Core::default();
        core.prepare(Size::NINE);
        assert_eq!(core.npeers, 20);
        assert_eq!(core.houses.len(), 27 * 9);
        core.prepare(Size::TWENTY_FIVE);
        assert_eq!(core.npeers, 24 + 24 + 16);
    }

    #[test]
    fn solves_the_issue_puzzle() {
        let p = parse_line(ISSUE).expect("parses");
        let (u, report) = Mrv::new().uniqueness(&p, &Limits::none());
        match u {
            crate::solve::Uniqueness::Unique(g) => assert!(g.is_solution_of(&p)),
            other => panic!("{other:?}"),
        }
        assert_eq!(report.stop, StopReason::Exhausted);
        assert!(report.stats.nodes >= 1 && report.stats.peak_bytes > 0);
    }

    #[test]
    fn trace_steps_and_backtracks() {
        let p = parse_line(ISSUE).expect("parses");
        let mut steps = Vec::new();
        let report = Mrv::new()
            .search_traced(
                &p,
                &Limits::none(),
                &mut |_| ControlFlow::Continue(()),
                &mut |s| steps.push(s.clone()),
            )
            .expect("mrv traces");
        let tries = steps
            .iter()
            .filter(|s| matches!(s, TraceStep::Try { .. }))
            .count();
        assert_eq!(tries as u64, report.stats.guesses);
        assert_eq!(
            steps
                .iter()
                .filter(|s| matches!(s, TraceStep::Solution))
                .count(),
            1
        );
        assert!(
            steps
                .iter()
                .any(|s| matches!(s, TraceStep::NakedSingle { .. }))
        );
    }
}
