//! The candidate grid ([`Candidates`]): the placed digits and, for every
//! empty cell, the bitmask of digits still possible there (bit `d - 1` for
//! digit `d`), updated incrementally as digits are placed and candidates
//! eliminated. Its text forms (the pencilmark line, the block) are in
//! [`format`](crate::format).

use std::sync::OnceLock;

use crate::grid::{Grid, House, Size};

/// The houses and peers of one grid size, computed once per size.
#[derive(Debug)]
pub(crate) struct Layout {
    pub(crate) size: Size,
    /// Side n.
    pub(crate) n: usize,
    /// Box size b.
    pub(crate) b: usize,
    /// 3n houses: rows `0..n`, columns `n..2n`, boxes `2n..3n`; each lists its
    /// n cells (rows and columns in order, boxes row-major).
    pub(crate) houses: Vec<Vec<usize>>,
    /// Per cell: its row, column and box house indices.
    pub(crate) cell_houses: Vec<[usize; 3]>,
    /// Per cell: every other cell sharing a house with it.
    pub(crate) peers: Vec<Vec<usize>>,
    /// Mask with all n digits.
    pub(crate) all: u32,
}

impl Layout {
    fn new(size: Size) -> Layout {
        let n = size.side();
        let b = size.box_size();
        let mut houses = Vec::with_capacity(3 * n);
        for r in 0..n {
            houses.push((0..n).map(|c| size.cell(r, c)).collect::<Vec<_>>());
        }
        for c in 0..n {
            houses.push((0..n).map(|r| size.cell(r, c)).collect());
        }
        for bx in 0..n {
            houses.push(size.box_cells(bx).collect());
        }
        let cell_houses: Vec<[usize; 3]> = (0..n * n)
            .map(|cell| {
                [
                    size.row_of(cell),
                    n + size.col_of(cell),
                    2 * n + size.box_of(cell),
                ]
            })
            .collect();
        let peers = (0..n * n)
            .map(|cell| {
                (0..n * n)
                    .filter(|&o| {
                        o != cell && {
                            let (a, p) = (cell_houses[cell], cell_houses[o]);
                            a[0] == p[0] || a[1] == p[1] || a[2] == p[2]
                        }
                    })
                    .collect()
            })
            .collect();
        let all = if n >= 32 { u32::MAX } else { (1u32 << n) - 1 };
        Layout {
            size,
            n,
            b,
            houses,
            cell_houses,
            peers,
            all,
        }
    }

    /// The shared layout of a size.
    pub(crate) fn get(size: Size) -> &'static Layout {
        static LAYOUTS: [OnceLock<Layout>; 4] = [
            OnceLock::new(),
            OnceLock::new(),
            OnceLock::new(),
            OnceLock::new(),
        ];
        let i = size.box_size().saturating_sub(2).min(3);
        LAYOUTS[i].get_or_init(|| Layout::new(size))
    }

    /// The [`House`] of a house index.
    pub(crate) fn house(&self, h: usize) -> House {
        if h < self.n {
            House::Row(h)
        } else if h < 2 * self.n {
            House::Col(h - self.n)
        } else {
            House::Box(h - 2 * self.n)
        }
    }

    /// Whether two distinct cells share a house.
    #[inline]
    pub(crate) fn sees(&self, a: usize, b: usize) -> bool {
        if a == b {
            return false;
        }
        let (x, y) = (self.cell_houses[a], self.cell_houses[b]);
        x[0] == y[0] || x[1] == y[1] || x[2] == y[2]
    }
}

/// Why a candidate grid could not be built.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CandidatesError {
    /// The pencilmark array does not have one mask per cell.
    #[error("{got} pencilmark masks for a grid of {expected} cells")]
    MaskCount {
        /// Cells in the grid (n²), so the number of masks needed.
        expected: usize,
        /// Masks given.
        got: usize,
    },
}

/// A candidate grid of any supported size: the placed digits and, for each
/// empty cell, the mask of candidates (bit `d - 1` for digit `d`).
///
/// Built from a [`Grid`] (candidates are the digits no peer holds) or from a
/// grid plus the player's own pencilmarks, so their eliminations count.
/// Placing a digit removes it from every peer at once, so candidates never
/// need recomputing while a puzzle is worked through.
///
/// Its pencilmark line (n characters per cell: the digit where it is a
/// candidate or placed, `.` where not) is read by
/// [`parse_pencilmarks`](Candidates::parse_pencilmarks) and written by
/// [`to_pencilmarks`](Candidates::to_pencilmarks); `Display` draws it as a
/// block of text, one row per line (both in [`format`](crate::format)).
///
/// ```
/// use sudoku_core::{Candidates, Grid};
///
/// let grid: Grid = "1.....2...3..4..".parse()?;
/// let mut c = Candidates::from_grid(&grid);
/// assert_eq!(c.value(0), 1);
/// assert_eq!(c.digits(1).collect::<Vec<_>>(), [2, 3]); // r1c2
/// c.eliminate(1, 2);
/// assert_eq!(c.mask(1), 0b100);
/// c.place(1, 3);
/// assert_eq!((c.value(1), c.mask(1), c.empty_count()), (3, 0, 11));
/// assert!(c.to_pencilmarks().starts_with("1.....3."));
/// # Ok::<(), sudoku_core::ParseError>(())
/// ```
#[derive(Clone)]
pub struct Candidates {
    layout: &'static Layout,
    values: Vec<u8>,
    masks: Vec<u32>,
    empty: usize,
}

impl PartialEq for Candidates {
    fn eq(&self, o: &Candidates) -> bool {
        self.layout.size == o.layout.size && self.values == o.values && self.masks == o.masks
    }
}

impl Eq for Candidates {}

impl std::hash::Hash for Candidates {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        self.layout.size.hash(h);
        self.values.hash(h);
        self.masks.hash(h);
    }
}

impl std::fmt::Debug for Candidates {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Candidates({})", self.to_pencilmarks())
    }
}

impl Candidates {
    /// The candidate grid of a puzzle: every empty cell starts with the digits
    /// that none of its peers holds.
    pub fn from_grid(grid: &Grid) -> Candidates {
        let layout = Layout::get(grid.size());
        let mut c = Candidates {
            layout,
            values: vec![0; layout.n * layout.n],
            masks: vec![layout.all; layout.n * layout.n],
            empty: layout.n * layout.n,
        };
        for (cell, &d) in grid.cells().iter().enumerate() {
            if d != 0 {
                c.place(cell, d);
            }
        }
        c
    }

    /// The candidate grid of a puzzle with a player's pencilmarks: filled cells
    /// come from `grid`; an empty cell keeps the digits of its mask (bit
    /// `d - 1` for digit `d`) that no peer holds. Bits above the grid's digits
    /// are ignored.
    pub fn with_pencilmarks(grid: &Grid, masks: &[u32]) -> Result<Candidates, CandidatesError> {
        let mut c = Candidates::from_grid(grid);
        if masks.len() != c.masks.len() {
            return Err(CandidatesError::MaskCount {
                expected: c.masks.len(),
                got: masks.len(),
            });
        }
        for (cell, &m) in masks.iter().enumerate() {
            c.restrict(cell, m);
        }
        Ok(c)
    }

    /// The grid size.
    pub fn size(&self) -> Size {
        self.layout.size
    }

    /// Side n.
    pub fn side(&self) -> usize {
        self.layout.n
    }

    pub(crate) fn layout(&self) -> &'static Layout {
        self.layout
    }

    /// The digit at a cell, 0 if empty.
    pub fn value(&self, cell: usize) -> u8 {
        self.values.get(cell).copied().unwrap_or(0)
    }

    /// The candidate mask of a cell (0 for a filled cell).
    #[inline]
    pub fn mask(&self, cell: usize) -> u32 {
        self.masks.get(cell).copied().unwrap_or(0)
    }

    /// All candidate masks, row-major (0 for a filled cell).
    pub fn masks(&self) -> &[u32] {
        &self.masks
    }

    /// The candidate digits of a cell, ascending (none for a filled cell).
    pub fn digits(&self, cell: usize) -> impl Iterator<Item = u8> + use<> {
        digits(self.mask(cell))
    }

    /// The pencilmark of a cell: its candidate mask, or for a filled cell the
    /// bit of its digit (a pencilmark line's single candidate).
    pub fn pencilmark(&self, cell: usize) -> u32 {
        match self.value(cell) {
            0 => self.mask(cell),
            d => bit(d),
        }
    }

    /// Whether `digit` is a candidate of `cell`.
    pub fn has(&self, cell: usize, digit: u8) -> bool {
        digit >= 1 && self.mask(cell) & bit(digit) != 0
    }

    /// Number of empty cells.
    pub fn empty_count(&self) -> usize {
        self.empty
    }

    /// Total number of candidates left in empty cells.
    pub fn candidate_count(&self) -> usize {
        self.masks.iter().map(|m| m.count_ones() as usize).sum()
    }

    /// Whether every cell is filled.
    pub fn is_solved(&self) -> bool {
        self.empty == 0
    }

    /// The placed digits as a grid.
    pub fn to_grid(&self) -> Grid {
        Grid::from_cells(self.values.clone()).unwrap_or_else(|_| Grid::empty(self.layout.size))
    }

    /// Place `digit` in `cell` and remove it from the cell's peers. Does
    /// nothing if the cell is filled or the digit is out of range.
    pub fn place(&mut self, cell: usize, digit: u8) {
        let n = self.layout.n;
        if digit == 0 || digit as usize > n || cell >= self.values.len() || self.values[cell] != 0 {
            return;
        }
        self.values[cell] = digit;
        self.masks[cell] = 0;
        self.empty -= 1;
        let keep = !bit(digit);
        for &p in &self.layout.peers[cell] {
            self.masks[p] &= keep;
        }
    }

    /// Remove `digit` from the candidates of `cell` (nothing if it is not one).
    pub fn eliminate(&mut self, cell: usize, digit: u8) {
        if digit >= 1 && (digit as usize) <= self.layout.n {
            self.restrict(cell, !bit(digit));
        }
    }

    /// Keep only the candidates of `cell` that are in `mask` (bit `d - 1`
    /// for digit `d`): a player's eliminations. Never adds a candidate.
    pub fn restrict(&mut self, cell: usize, mask: u32) {
        if let Some(m) = self.masks.get_mut(cell) {
            *m &= mask;
        }
    }

    /// An empty cell with no candidate, or a house in which a missing digit
    /// has no place: the position has no solution.
    pub fn has_contradiction(&self) -> bool {
        let l = self.layout;
        if (0..self.values.len()).any(|c| self.values[c] == 0 && self.masks[c] == 0) {
            return true;
        }
        l.houses.iter().any(|h| {
            let (mut placed, mut cand) = (0u32, 0u32);
            for &c in h {
                if self.values[c] != 0 {
                    placed |= bit(self.values[c]);
                }
                cand |= self.masks[c];
            }
            placed | cand != l.all
        })
    }
}

/// The mask bit of a digit (1..=25).
#[inline]
pub(crate) fn bit(digit: u8) -> u32 {
    1u32 << ((digit.max(1) - 1) & 31)
}

/// The lowest digit of a non-empty mask.
#[inline]
pub(crate) fn low_digit(mask: u32) -> u8 {
    mask.trailing_zeros() as u8 + 1
}

/// The digits of a mask, ascending.
pub(crate) fn digits(mask: u32) -> impl Iterator<Item = u8> {
    let mut m = mask;
    std::iter::from_fn(move || {
        if m == 0 {
            None
        } else {
            let d = low_digit(m);
            m &= m - 1;
            Some(d)
        }
    })
}
