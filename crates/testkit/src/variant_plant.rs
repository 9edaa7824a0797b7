//! Variant puzzles with a planted solution: a random grid, then constraints
//! of chosen kinds that the grid keeps.
//!
//! Grid-wide rules (diagonals, windoku, disjoint groups, a jigsaw, anti-knight,
//! anti-king, non-consecutive) come first: the grid is a random solution of
//! them, from the oracle's randomised search
//! ([`variant_oracle::random_solution`](crate::variant_oracle::random_solution)),
//! never from the solver under test. The other kinds are read off the grid:
//! a cage and its sum, a thermometer along increasing digits, a dot where the
//! digits are consecutive, and so on. So the grid is always a solution of the
//! puzzle; givens from it make the puzzle unique.

use proptest::prelude::*;
use sudoku_core::CellName;
use sudoku_core::generate::SplitMix64;
use sudoku_core::variant::arrow::Arrow;
use sudoku_core::variant::cage::Cage;
use sudoku_core::variant::jigsaw::Jigsaw;
use sudoku_core::variant::little_killer::{LittleKiller, diagonal};
use sudoku_core::variant::lockout::Lockout;
use sudoku_core::variant::outside::OutsideClue;
use sudoku_core::variant::quad::Quad;
use sudoku_core::variant::regions::Diagonal;
use sudoku_core::variant::sandwich::{Line, Sandwich};
use sudoku_core::variant::sum::Sum;
use sudoku_core::variant::whisper::Whisper;
use sudoku_core::variant::{Cells, Constraint, Puzzle, Shape};

use crate::variant_oracle::random_solution;

/// Every kind, by its ISS name.
pub const KINDS: &[&str] = &[
    "Diagonal",
    "Windoku",
    "DisjointSets",
    "Jigsaw",
    "Cage",
    "Sum",
    "LittleKiller",
    "Sandwich",
    "Thermo",
    "SlowThermo",
    "Arrow",
    "PillArrow",
    "DoubleArrow",
    "WhiteDot",
    "BlackDot",
    "StrictKropki",
    "X",
    "V",
    "StrictXV",
    "AntiKnight",
    "AntiKing",
    "AntiConsecutive",
    "Odd",
    "Even",
    "Renban",
    "Whisper",
    "Palindrome",
    "Between",
    "Quad",
    "RegionSumLine",
    "GreaterThan",
    "AllDifferent",
    "Lockout",
    "Zipper",
    "XSum",
    "Skyscraper",
];

/// Kinds that are rules of the whole grid, chosen before the grid.
pub const GLOBAL: &[&str] = &[
    "Diagonal",
    "Windoku",
    "DisjointSets",
    "Jigsaw",
    "AntiKnight",
    "AntiKing",
    "AntiConsecutive",
];

/// Cells filled (each a node) before the search for a grid gives up.
const GRID_NODES: u64 = 200_000;

/// Random tries at a line or group before giving up on one.
const TRIES: usize = 400;

/// A puzzle with no givens whose constraints, of the given kinds, a random
/// grid keeps; and that grid (row-major). `None` when no grid keeps the
/// grid-wide rules on this side (windoku off 9×9, say) or the search gave up.
/// `per_kind` is how many constraints each derived kind gets (fewer when
/// the grid has no room for more).
pub fn planted(
    kinds: &[&str],
    side: usize,
    per_kind: usize,
    rng: &mut SplitMix64,
) -> Option<(Puzzle, Vec<u8>)> {
    let mut shape = Shape::new(side)?;
    if kinds.contains(&"Jigsaw") {
        shape = shape.without_boxes();
    }
    let mut puzzle = Puzzle::new(shape);
    for &k in kinds.iter().filter(|k| GLOBAL.contains(k)) {
        puzzle.constraints.push(global(k, shape, rng)?);
    }
    let solution = random_solution(&puzzle, rng, GRID_NODES)?;
    let grid = Grid {
        shape,
        v: &solution,
        region: regions(&puzzle),
    };
    for &k in kinds.iter().filter(|k| !GLOBAL.contains(k)) {
        let made = grid.derive(k, per_kind, rng);
        puzzle.constraints.extend(made);
    }
    Some((puzzle, solution))
}

/// The rule of a grid-wide kind.
fn global(kind: &str, shape: Shape, rng: &mut SplitMix64) -> Option<Constraint> {
    Some(match kind {
        "Diagonal" => Constraint::Diagonal(Diagonal {
            anti: rng.below(2) == 1,
        }),
        "Windoku" if shape.side() == 9 => Constraint::Windoku,
        "DisjointSets" if shape.boxes().is_some() => Constraint::DisjointSets,
        "Jigsaw" => Constraint::Jigsaw(random_jigsaw(shape.side(), rng)),
        "AntiKnight" => Constraint::AntiKnight,
        "AntiKing" => Constraint::AntiKing,
        "AntiConsecutive" => Constraint::AntiConsecutive,
        _ => return None,
    })
}

/// Per cell, the region a region-sum line is cut at: the box, else the
/// jigsaw region, else one region for all.
fn regions(p: &Puzzle) -> Vec<usize> {
    let shape = p.shape;
    (0..shape.cells())
        .map(|i| {
            shape.box_of(shape.cell(i)).unwrap_or_else(|| {
                p.constraints
                    .iter()
                    .rev()
                    .find_map(|c| match c {
                        Constraint::Jigsaw(j) => Some(j.regions[i] as usize),
                        _ => None,
                    })
                    .unwrap_or(0)
            })
        })
        .collect()
}

/// A jigsaw layout: the usual boxes (bands of rows on a prime side), with
/// random swaps of neighbouring cells that keep every region in one piece.
pub fn random_jigsaw(n: usize, rng: &mut SplitMix64) -> Jigsaw {
    let shape = Shape::new(n).expect("side in range");
    let mut regions: Vec<u8> = (0..n * n)
        .map(|i| match shape.box_of(shape.cell(i)) {
            Some(b) => b as u8,
            None => (i / n) as u8,
        })
        .collect();
    for _ in 0..n * n * 4 {
        let a = rng.below(n * n);
        let b = match rng.below(4) {
            0 if a % n + 1 < n => a + 1,
            1 if a + n < n * n => a + n,
            2 if !a.is_multiple_of(n) => a - 1,
            3 if a >= n => a - n,
            _ => continue,
        };
        let (ra, rb) = (regions[a], regions[b]);
        if ra == rb {
            continue;
        }
        // Hand a to b's region and some cell c of b's region next to a's
        // region over to a's, then keep the swap if both stay connected.
        let candidates: Vec<usize> = (0..n * n)
            .filter(|&c| regions[c] == rb && c != b && touches(&regions, n, c, ra))
            .collect();
        if candidates.is_empty() {
            continue;
        }
        let c = candidates[rng.below(candidates.len())];
        let mut next = regions.clone();
        next[a] = rb;
        next[c] = ra;
        if connected(&next, n, ra) && connected(&next, n, rb) {
            regions = next;
        }
    }
    Jigsaw { regions }
}

fn neighbours4(n: usize, i: usize) -> impl Iterator<Item = usize> {
    let (r, c) = (i / n, i % n);
    [(0, 1), (1, 0), (0, -1), (-1, 0)]
        .into_iter()
        .filter_map(move |(dr, dc): (i32, i32)| {
            let (r2, c2) = (r as i32 + dr, c as i32 + dc);
            ((0..n as i32).contains(&r2) && (0..n as i32).contains(&c2))
                .then(|| r2 as usize * n + c2 as usize)
        })
}

fn touches(regions: &[u8], n: usize, cell: usize, region: u8) -> bool {
    neighbours4(n, cell).any(|j| regions[j] == region)
}

fn connected(regions: &[u8], n: usize, region: u8) -> bool {
    let cells: Vec<usize> = (0..n * n).filter(|&i| regions[i] == region).collect();
    let mut seen = vec![cells[0]];
    let mut todo = vec![cells[0]];
    while let Some(i) = todo.pop() {
        for j in neighbours4(n, i) {
            if regions[j] == region && !seen.contains(&j) {
                seen.push(j);
                todo.push(j);
            }
        }
    }
    seen.len() == cells.len()
}

/// A solved grid to read constraints off.
struct Grid<'a> {
    shape: Shape,
    v: &'a [u8],
    region: Vec<usize>,
}

impl Grid<'_> {
    fn n(&self) -> usize {
        self.shape.side()
    }

    fn cell(&self, i: usize) -> CellName {
        self.shape.cell(i)
    }

    fn cells(&self, idx: &[usize]) -> Vec<CellName> {
        idx.iter().map(|&i| self.cell(i)).collect()
    }

    fn line(&self, idx: &[usize]) -> Cells {
        Cells {
            cells: self.cells(idx),
        }
    }

    fn sum(&self, idx: &[usize]) -> u32 {
        idx.iter().map(|&i| self.v[i] as u32).sum()
    }

    /// The king's-move neighbours of a cell (orthogonal ones only when
    /// `diagonal` is false).
    fn neighbours(&self, i: usize, diagonal: bool) -> Vec<usize> {
        let n = self.n() as i32;
        let (r, c) = ((i / self.n()) as i32, (i % self.n()) as i32);
        let mut out = Vec::new();
        for dr in -1..=1 {
            for dc in -1..=1 {
                if (dr, dc) == (0, 0) || (!diagonal && dr != 0 && dc != 0) {
                    continue;
                }
                let (r2, c2) = (r + dr, c + dc);
                if (0..n).contains(&r2) && (0..n).contains(&c2) {
                    out.push((r2 * n + c2) as usize);
                }
            }
        }
        out
    }

    /// A random path of `len` cells, each a neighbour of the one before,
    /// none twice, none in `avoid`, every prefix passing `step`; `None` if
    /// the walk gets stuck.
    fn walk(
        &self,
        rng: &mut SplitMix64,
        len: usize,
        diagonal: bool,
        avoid: &[usize],
        step: &dyn Fn(&[usize]) -> bool,
    ) -> Option<Vec<usize>> {
        let start = rng.below(self.shape.cells());
        if avoid.contains(&start) {
            return None;
        }
        let mut path = vec![start];
        if !step(&path) {
            return None;
        }
        while path.len() < len {
            let last = *path.last().expect("a start");
            let mut next: Vec<usize> = self
                .neighbours(last, diagonal)
                .into_iter()
                .filter(|j| !path.contains(j) && !avoid.contains(j))
                .collect();
            rng.shuffle(&mut next);
            let found = next.into_iter().find(|&j| {
                path.push(j);
                let ok = step(&path);
                path.pop();
                ok
            })?;
            path.push(found);
        }
        Some(path)
    }

    /// Up to `count` lines, found by random walks of `min..=max` cells (a
    /// prefix must pass `step`, the whole line `done`), not sharing cells.
    fn lines(
        &self,
        rng: &mut SplitMix64,
        count: usize,
        (min, max): (usize, usize),
        diagonal: bool,
        step: &dyn Fn(&[usize]) -> bool,
        done: &dyn Fn(&[usize]) -> bool,
    ) -> Vec<Vec<usize>> {
        let mut out: Vec<Vec<usize>> = Vec::new();
        let mut used = Vec::new();
        for _ in 0..TRIES {
            if out.len() == count {
                break;
            }
            let len = min + rng.below(max - min + 1);
            if let Some(path) = self
                .walk(rng, len, diagonal, &used, step)
                .filter(|p| done(p))
            {
                used.extend(&path);
                out.push(path);
            }
        }
        out
    }

    /// Up to `count` orthogonal pairs whose digits pass `ok`, no pair twice.
    fn pairs(&self, rng: &mut SplitMix64, count: usize, ok: fn(u8, u8) -> bool) -> Vec<[usize; 2]> {
        let mut all = self.all_pairs(ok);
        rng.shuffle(&mut all);
        all.truncate(count);
        all
    }

    /// Every orthogonal pair (low, high index) whose digits pass `ok`.
    fn all_pairs(&self, ok: fn(u8, u8) -> bool) -> Vec<[usize; 2]> {
        let n = self.n();
        let mut all = Vec::new();
        for i in 0..n * n {
            for j in [i + 1, i + n] {
                let beside = (j == i + 1 && i % n + 1 < n) || (j == i + n && j < n * n);
                if beside && ok(self.v[i], self.v[j]) {
                    all.push([i, j]);
                }
            }
        }
        all
    }

    /// Up to `count` rows and columns in random order, each with its cells'
    /// indices (for clues outside the grid).
    fn rows_and_columns(&self, rng: &mut SplitMix64, count: usize) -> Vec<(Line, Vec<usize>)> {
        let n = self.n() as u8;
        let mut lines: Vec<Line> = (0..n).flat_map(|i| [Line::Row(i), Line::Col(i)]).collect();
        rng.shuffle(&mut lines);
        lines.truncate(count);
        lines
            .into_iter()
            .map(|line| {
                let idx = line
                    .cells(self.shape)
                    .iter()
                    .map(|&c| self.shape.index(c))
                    .collect();
                (line, idx)
            })
            .collect()
    }

    /// Constraints of a derived kind that the grid keeps.
    fn derive(&self, kind: &str, count: usize, rng: &mut SplitMix64) -> Vec<Constraint> {
        let n = self.n();
        let v = self.v;
        let all = |_: &[usize]| true;
        match kind {
            "Cage" | "Sum" => {
                let distinct = kind == "Cage";
                let step = |p: &[usize]| {
                    let last = v[*p.last().expect("a cell")];
                    !distinct || p[..p.len() - 1].iter().all(|&c| v[c] != last)
                };
                self.lines(rng, count, (2, 4.min(n)), false, &step, &all)
                    .into_iter()
                    .map(|mut p| {
                        p.sort_unstable();
                        let sum = self.sum(&p);
                        let cells = self.cells(&p);
                        if distinct {
                            // One cage in five without its sum.
                            let sum = (rng.below(5) > 0).then_some(sum);
                            Constraint::Cage(Cage { sum, cells })
                        } else {
                            Constraint::Sum(Sum { sum, cells })
                        }
                    })
                    .collect()
            }
            "LittleKiller" => {
                let mut starts: Vec<Vec<CellName>> = (0..n * n)
                    .filter_map(|i| diagonal(self.cell(i), self.shape))
                    .collect();
                rng.shuffle(&mut starts);
                starts.truncate(count);
                starts
                    .into_iter()
                    .map(|cells| {
                        let sum = cells.iter().map(|&c| v[self.shape.index(c)] as u32).sum();
                        Constraint::LittleKiller(LittleKiller { sum, cells })
                    })
                    .collect()
            }
            "Sandwich" => self
                .rows_and_columns(rng, count)
                .into_iter()
                .map(|(line, idx)| {
                    let at = |d: usize| idx.iter().position(|&i| v[i] as usize == d);
                    let (a, b) = (at(1).expect("a 1"), at(n).expect("an n"));
                    let sum = self.sum(&idx[a.min(b) + 1..a.max(b)]);
                    Constraint::Sandwich(Sandwich { sum, line })
                })
                .collect(),
            "Thermo" | "SlowThermo" => {
                let slow = kind == "SlowThermo";
                let step = |p: &[usize]| {
                    let k = p.len();
                    k < 2 || v[p[k - 2]] < v[p[k - 1]] || (slow && v[p[k - 2]] == v[p[k - 1]])
                };
                // A slow thermometer worth the name repeats a digit.
                let done = |p: &[usize]| !slow || p.windows(2).any(|w| v[w[0]] == v[w[1]]);
                let tries = self.lines(rng, count, (2, 5.min(n)), true, &step, &done);
                tries
                    .into_iter()
                    .map(|p| {
                        if slow {
                            Constraint::SlowThermo(self.line(&p))
                        } else {
                            Constraint::Thermo(self.line(&p))
                        }
                    })
                    .collect()
            }
            "Arrow" | "PillArrow" => {
                // The circle first (two cells side by side for a pill, read
                // in grid order), then arrow cells summing to its number.
                let pill = if kind == "Arrow" { 1 } else { 2 };
                let number = |p: &[usize]| match pill {
                    1 => v[p[0]] as u32,
                    _ => {
                        let (a, b) = (p[0].min(p[1]), p[0].max(p[1]));
                        v[a] as u32 * 10 + v[b] as u32
                    }
                };
                let step = |p: &[usize]| match p.len() {
                    k if k <= pill => k == 1 || p[1] == p[0] + 1 || p[1] == p[0] + n,
                    _ => self.sum(&p[pill..]) <= number(p),
                };
                let done = |p: &[usize]| self.sum(&p[pill..]) == number(p);
                let lengths = if pill == 1 { (2, 4) } else { (3, 2 + n) };
                self.lines(rng, count, lengths, true, &step, &done)
                    .into_iter()
                    .map(|p| {
                        Constraint::Arrow(Arrow {
                            pill,
                            cells: self.cells(&p),
                        })
                    })
                    .collect()
            }
            "DoubleArrow" => {
                let done = |p: &[usize]| {
                    let k = p.len();
                    v[p[0]] as u32 + v[p[k - 1]] as u32 == self.sum(&p[1..k - 1])
                };
                self.lines(rng, count, (3, 5), true, &all, &done)
                    .into_iter()
                    .map(|p| Constraint::DoubleArrow(self.line(&p)))
                    .collect()
            }
            "WhiteDot" | "BlackDot" | "X" | "V" => {
                type Make = fn(Cells) -> Constraint;
                let (ok, make): (fn(u8, u8) -> bool, Make) = match kind {
                    "WhiteDot" => (consecutive, Constraint::WhiteDot),
                    "BlackDot" => (double, Constraint::BlackDot),
                    "X" => (|a, b| a + b == 10, Constraint::X),
                    _ => (|a, b| a + b == 5, Constraint::V),
                };
                self.pairs(rng, count, ok)
                    .into_iter()
                    .map(|p| make(self.line(&p)))
                    .collect()
            }
            "StrictKropki" | "StrictXV" => {
                // Every related pair gets its mark, then the "all given" rule.
                let kropki = kind == "StrictKropki";
                let related: fn(u8, u8) -> bool = if kropki {
                    |a, b| consecutive(a, b) || double(a, b)
                } else {
                    |a, b| a + b == 5 || a + b == 10
                };
                let mut out: Vec<Constraint> = self
                    .all_pairs(related)
                    .into_iter()
                    .map(|p| {
                        let (a, b) = (v[p[0]], v[p[1]]);
                        let line = self.line(&p);
                        if !kropki {
                            return if a + b == 10 {
                                Constraint::X(line)
                            } else {
                                Constraint::V(line)
                            };
                        }
                        // Between 1 and 2 either dot may stand.
                        if consecutive(a, b) && (!double(a, b) || rng.below(2) == 0) {
                            Constraint::WhiteDot(line)
                        } else {
                            Constraint::BlackDot(line)
                        }
                    })
                    .collect();
                out.push(if kropki {
                    Constraint::StrictKropki
                } else {
                    Constraint::StrictXv
                });
                out
            }
            "Odd" | "Even" => {
                let parity = u8::from(kind == "Odd");
                let mut cells: Vec<usize> = (0..n * n).filter(|&i| v[i] % 2 == parity).collect();
                rng.shuffle(&mut cells);
                cells.truncate(count * 2);
                cells.sort_unstable();
                if cells.is_empty() {
                    return Vec::new();
                }
                let line = self.line(&cells);
                vec![if parity == 1 {
                    Constraint::Odd(line)
                } else {
                    Constraint::Even(line)
                }]
            }
            "Renban" => {
                let step = |p: &[usize]| {
                    let k = p.len();
                    p[..k - 1].iter().all(|&c| v[c] != v[p[k - 1]])
                };
                let done = |p: &[usize]| {
                    let lo = p.iter().map(|&c| v[c]).min().expect("cells");
                    let hi = p.iter().map(|&c| v[c]).max().expect("cells");
                    (hi - lo) as usize + 1 == p.len()
                };
                self.lines(rng, count, (2, 5.min(n)), true, &step, &done)
                    .into_iter()
                    .map(|p| Constraint::Renban(self.line(&p)))
                    .collect()
            }
            "Whisper" => {
                let least: u8 = match n {
                    9.. => 5,
                    6..=8 => 3,
                    _ => 2,
                };
                let step = |p: &[usize]| {
                    let k = p.len();
                    k < 2 || v[p[k - 2]].abs_diff(v[p[k - 1]]) >= least
                };
                self.lines(rng, count, (3, 6), true, &step, &all)
                    .into_iter()
                    .map(|p| {
                        Constraint::Whisper(Whisper {
                            difference: (least != 5).then_some(least),
                            cells: self.cells(&p),
                        })
                    })
                    .collect()
            }
            "Palindrome" => {
                let done = |p: &[usize]| {
                    let k = p.len();
                    (0..k / 2).all(|i| v[p[i]] == v[p[k - 1 - i]])
                };
                self.lines(rng, count, (2, 5), true, &all, &done)
                    .into_iter()
                    .map(|p| Constraint::Palindrome(self.line(&p)))
                    .collect()
            }
            "Between" => {
                let done = |p: &[usize]| {
                    let k = p.len();
                    let (a, b) = (v[p[0]], v[p[k - 1]]);
                    let (lo, hi) = (a.min(b), a.max(b));
                    p[1..k - 1].iter().all(|&c| lo < v[c] && v[c] < hi)
                };
                self.lines(rng, count, (3, 5), true, &all, &done)
                    .into_iter()
                    .map(|p| Constraint::Between(self.line(&p)))
                    .collect()
            }
            "Quad" => {
                let mut tops: Vec<usize> = (0..n * n)
                    .filter(|&i| i % n + 1 < n && i / n + 1 < n)
                    .collect();
                rng.shuffle(&mut tops);
                tops.truncate(count);
                tops.into_iter()
                    .map(|i| {
                        let mut digits = vec![v[i], v[i + 1], v[i + n], v[i + n + 1]];
                        rng.shuffle(&mut digits);
                        digits.truncate(1 + rng.below(4));
                        digits.sort_unstable();
                        Constraint::Quad(Quad {
                            cell: self.cell(i),
                            digits,
                        })
                    })
                    .collect()
            }
            "RegionSumLine" => {
                let done = |p: &[usize]| {
                    let mut pieces: Vec<u32> = Vec::new();
                    let mut last = None;
                    for &c in p {
                        if last != Some(self.region[c]) {
                            pieces.push(0);
                            last = Some(self.region[c]);
                        }
                        *pieces.last_mut().expect("a piece") += v[c] as u32;
                    }
                    pieces.len() > 1 && pieces.iter().all(|&s| s == pieces[0])
                };
                self.lines(rng, count, (2, 6), true, &all, &done)
                    .into_iter()
                    .map(|p| Constraint::RegionSumLine(self.line(&p)))
                    .collect()
            }
            "GreaterThan" => {
                // A cell above its lower orthogonal neighbours (one to four).
                let mut centres: Vec<usize> = (0..n * n).collect();
                rng.shuffle(&mut centres);
                let mut out = Vec::new();
                for c in centres {
                    if out.len() == count {
                        break;
                    }
                    let lower: Vec<usize> = self
                        .neighbours(c, false)
                        .into_iter()
                        .filter(|&j| v[j] < v[c])
                        .collect();
                    if lower.is_empty() {
                        continue;
                    }
                    let mut cells = vec![c];
                    cells.extend(&lower[..1 + rng.below(lower.len())]);
                    out.push(Constraint::GreaterThan(self.line(&cells)));
                }
                out
            }
            "AllDifferent" => {
                let step = |p: &[usize]| {
                    let k = p.len();
                    p[..k - 1].iter().all(|&c| v[c] != v[p[k - 1]])
                };
                self.lines(rng, count, (2, n.min(6)), true, &step, &all)
                    .into_iter()
                    .map(|p| Constraint::AllDifferent(self.line(&p)))
                    .collect()
            }
            "Lockout" => {
                let difference = (n / 2).max(1) as u8;
                let done = |p: &[usize]| {
                    let k = p.len();
                    let (a, b) = (v[p[0]], v[p[k - 1]]);
                    let (lo, hi) = (a.min(b), a.max(b));
                    hi - lo >= difference && p[1..k - 1].iter().all(|&c| v[c] < lo || v[c] > hi)
                };
                self.lines(rng, count, (3, 6), true, &all, &done)
                    .into_iter()
                    .map(|p| {
                        Constraint::Lockout(Lockout {
                            difference,
                            cells: self.cells(&p),
                        })
                    })
                    .collect()
            }
            "Zipper" => {
                let done = |p: &[usize]| {
                    let k = p.len();
                    let sums: Vec<u8> = (0..k / 2).map(|i| v[p[i]] + v[p[k - 1 - i]]).collect();
                    let target = if k % 2 == 1 { v[p[k / 2]] } else { sums[0] };
                    sums.iter().all(|&s| s == target)
                };
                self.lines(rng, count, (3, 7), true, &all, &done)
                    .into_iter()
                    .map(|p| Constraint::Zipper(self.line(&p)))
                    .collect()
            }
            "XSum" | "Skyscraper" => self
                .rows_and_columns(rng, count)
                .into_iter()
                .map(|(line, idx)| {
                    let clue = |cells: &[usize]| -> u32 {
                        if kind == "XSum" {
                            self.sum(&cells[..v[cells[0]] as usize])
                        } else {
                            let mut top = 0;
                            let mut seen = 0;
                            for &c in cells {
                                if v[c] > top {
                                    top = v[c];
                                    seen += 1;
                                }
                            }
                            seen
                        }
                    };
                    let back: Vec<usize> = idx.iter().rev().copied().collect();
                    let (front, back) = match rng.below(3) {
                        0 => (Some(clue(&idx)), None),
                        1 => (None, Some(clue(&back))),
                        _ => (Some(clue(&idx)), Some(clue(&back))),
                    };
                    let c = OutsideClue { line, front, back };
                    if kind == "XSum" {
                        Constraint::XSum(c)
                    } else {
                        Constraint::Skyscraper(c)
                    }
                })
                .collect(),
            _ => Vec::new(),
        }
    }
}

/// Changes to one constraint that may leave the puzzle without a solution
/// (`None`: remove it, which breaks "all dots given").
pub fn mutations(c: &Constraint, n: usize) -> Vec<Option<Constraint>> {
    let mut out = Vec::new();
    let mut with = |f: &dyn Fn(&mut Constraint)| {
        let mut d = c.clone();
        f(&mut d);
        if &d != c {
            out.push(Some(d));
        }
    };
    match c {
        Constraint::Cage(_)
        | Constraint::Sum(_)
        | Constraint::LittleKiller(_)
        | Constraint::Sandwich(_) => {
            for delta in [1i64, -1] {
                with(&|d| {
                    let s = match d {
                        Constraint::Cage(x) => match &mut x.sum {
                            Some(s) => s,
                            None => return,
                        },
                        Constraint::Sum(x) => &mut x.sum,
                        Constraint::LittleKiller(x) => &mut x.sum,
                        Constraint::Sandwich(x) => &mut x.sum,
                        _ => return,
                    };
                    *s = (*s as i64 + delta).max(0) as u32;
                });
            }
        }
        Constraint::Thermo(_)
        | Constraint::SlowThermo(_)
        | Constraint::Between(_)
        | Constraint::DoubleArrow(_)
        | Constraint::RegionSumLine(_)
        | Constraint::Renban(_)
        | Constraint::Palindrome(_) => {
            // Reversed, or the first cell moved to the end.
            with(&|d| cells_mut(d).reverse());
            with(&|d| cells_mut(d).rotate_left(1));
        }
        Constraint::Arrow(a) => {
            let pill = a.pill;
            with(&|d| {
                if let Constraint::Arrow(x) = d {
                    let last = x.cells.len() - 1;
                    x.cells.swap(pill - 1, last);
                }
            });
        }
        Constraint::WhiteDot(x) => out.push(Some(Constraint::BlackDot(x.clone()))),
        Constraint::BlackDot(x) => out.push(Some(Constraint::WhiteDot(x.clone()))),
        Constraint::X(x) => out.push(Some(Constraint::V(x.clone()))),
        Constraint::V(x) => out.push(Some(Constraint::X(x.clone()))),
        Constraint::Odd(x) => out.push(Some(Constraint::Even(x.clone()))),
        Constraint::Even(x) => out.push(Some(Constraint::Odd(x.clone()))),
        Constraint::Whisper(w) => {
            let least = w.least() as usize + 1;
            if least < n {
                with(&|d| {
                    if let Constraint::Whisper(x) = d {
                        x.difference = Some(least as u8).filter(|&l| l != 5);
                    }
                });
            }
            with(&|d| cells_mut(d).rotate_left(1));
        }
        Constraint::Quad(q) => {
            for x in 1..=n as u8 {
                if !q.digits.contains(&x) {
                    with(&|d| {
                        if let Constraint::Quad(y) = d {
                            y.digits[0] = x;
                            y.digits.sort_unstable();
                        }
                    });
                }
            }
        }
        Constraint::XSum(_) | Constraint::Skyscraper(_) => {
            for delta in [1i64, -1] {
                with(&|d| {
                    if let Constraint::XSum(x) | Constraint::Skyscraper(x) = d {
                        let s = x.front.as_mut().or(x.back.as_mut());
                        if let Some(s) = s {
                            *s = (*s as i64 + delta).max(1) as u32;
                        }
                    }
                });
            }
        }
        Constraint::GreaterThan(_) | Constraint::Lockout(_) | Constraint::Zipper(_) => {
            with(&|d| cells_mut(d).reverse());
            with(&|d| cells_mut(d).rotate_left(1));
        }
        Constraint::Diagonal(g) => {
            let anti = !g.anti;
            with(&|d| {
                if let Constraint::Diagonal(y) = d {
                    y.anti = anti;
                }
            });
        }
        _ => {}
    }
    if matches!(
        c,
        Constraint::WhiteDot(_) | Constraint::BlackDot(_) | Constraint::X(_) | Constraint::V(_)
    ) {
        out.push(None);
    }
    out
}

/// The cells of a line constraint.
fn cells_mut(c: &mut Constraint) -> &mut Vec<CellName> {
    match c {
        Constraint::Thermo(x)
        | Constraint::SlowThermo(x)
        | Constraint::Between(x)
        | Constraint::DoubleArrow(x)
        | Constraint::RegionSumLine(x)
        | Constraint::Renban(x)
        | Constraint::Palindrome(x)
        | Constraint::GreaterThan(x)
        | Constraint::Zipper(x) => &mut x.cells,
        Constraint::Whisper(w) => &mut w.cells,
        Constraint::Lockout(l) => &mut l.cells,
        _ => unreachable!("a line"),
    }
}

fn consecutive(a: u8, b: u8) -> bool {
    a.abs_diff(b) == 1
}

fn double(a: u8, b: u8) -> bool {
    a == 2 * b || b == 2 * a
}

/// A planted puzzle for property tests: a side from `sides`, one to three
/// kinds, `per_kind` constraints of each derived kind, and each cell given
/// with probability `given` (as a fraction of 1000 per side in
/// `given_per_mille`, matched to `sides` by position). The grid keeps the
/// puzzle by construction.
pub fn planted_puzzle(
    sides: &'static [usize],
    given_per_mille: &'static [u32],
) -> impl Strategy<Value = (Puzzle, Vec<u8>)> {
    (any::<u64>(), 0..sides.len()).prop_filter_map(
        "no grid keeps these grid-wide rules",
        move |(seed, s)| {
            let mut rng = SplitMix64::new(seed);
            let side = sides[s];
            let mut kinds: Vec<&str> = Vec::new();
            for _ in 0..1 + rng.below(3) {
                let k = KINDS[rng.below(KINDS.len())];
                if !kinds.contains(&k) {
                    kinds.push(k);
                }
            }
            // A jigsaw takes the boxes away, and disjoint groups need them.
            if kinds.contains(&"Jigsaw") {
                kinds.retain(|&k| k != "DisjointSets");
            }
            let per_kind = 1 + rng.below(4);
            let (mut puzzle, solution) = planted(&kinds, side, per_kind, &mut rng)?;
            let keep = given_per_mille[s] as usize;
            for (i, &d) in solution.iter().enumerate() {
                if rng.below(1000) < keep {
                    puzzle.candidates[i] = 1 << (d - 1);
                }
            }
            Some((puzzle, solution))
        },
    )
}
