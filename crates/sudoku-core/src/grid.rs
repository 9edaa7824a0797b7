//! The grid type: an n×n Sudoku (n = b², box size b = 2..=5) with digits
//! 1..=n and 0 for an empty cell.

use std::fmt;

/// Box sizes supported by every general method: 2 (4×4) to 5 (25×25).
pub const MIN_BOX: u8 = 2;
/// Largest supported box size.
pub const MAX_BOX: u8 = 5;

/// A grid size, given by its box size `b` (the grid is `b²×b²`).
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
pub struct Size(u8);

impl Size {
    /// 4×4.
    pub const FOUR: Size = Size(2);
    /// 9×9.
    pub const NINE: Size = Size(3);
    /// 16×16.
    pub const SIXTEEN: Size = Size(4);
    /// 25×25.
    pub const TWENTY_FIVE: Size = Size(5);

    /// The size with box size `b`, if supported.
    pub fn from_box(b: u8) -> Option<Size> {
        (MIN_BOX..=MAX_BOX).contains(&b).then_some(Size(b))
    }

    /// The size whose side is `n` (4, 9, 16 or 25).
    pub fn from_side(n: usize) -> Option<Size> {
        (MIN_BOX..=MAX_BOX).map(Size).find(|s| s.side() == n)
    }

    /// The size whose cell count is `cells` (16, 81, 256 or 625).
    pub fn from_cell_count(cells: usize) -> Option<Size> {
        (MIN_BOX..=MAX_BOX).map(Size).find(|s| s.cells() == cells)
    }

    /// Box size b.
    pub fn box_size(self) -> usize {
        self.0 as usize
    }
    /// Side n = b².
    pub fn side(self) -> usize {
        (self.0 as usize) * (self.0 as usize)
    }
    /// Cell count n².
    pub fn cells(self) -> usize {
        self.side() * self.side()
    }
    /// Row of a cell index.
    pub fn row_of(self, cell: usize) -> usize {
        cell / self.side()
    }
    /// Column of a cell index.
    pub fn col_of(self, cell: usize) -> usize {
        cell % self.side()
    }
    /// Box of a cell index (boxes numbered row-major from 0).
    pub fn box_of(self, cell: usize) -> usize {
        let b = self.box_size();
        (self.row_of(cell) / b) * b + self.col_of(cell) / b
    }
    /// Cell index of (row, col).
    pub fn cell(self, row: usize, col: usize) -> usize {
        row * self.side() + col
    }
    /// The cells of box `bx`, row-major.
    pub fn box_cells(self, bx: usize) -> impl Iterator<Item = usize> {
        let b = self.box_size();
        let (r0, c0) = ((bx / b) * b, (bx % b) * b);
        (0..b * b).map(move |k| self.cell(r0 + k / b, c0 + k % b))
    }
    /// The character for digit `d` (1..=n): '1'..'9', then 'A' for 10, 'B' for 11, ...
    pub fn digit_char(self, d: u8) -> char {
        digit_char(d)
    }
    /// The player's name of a cell index: row and column, shown 1-based ("r3c7").
    pub fn cell_name(self, cell: usize) -> CellName {
        CellName::new(self.row_of(cell) as u8, self.col_of(cell) as u8)
    }
}

/// A cell by row and column (0-based), as players name it: displays and
/// serialises 1-based, "r3c7" ("r10c12" on a 16×16 grid). Classic grids
/// (errors, rater steps) and variant constraints name cells with it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct CellName {
    /// Row, from 0.
    pub row: u8,
    /// Column, from 0.
    pub col: u8,
}

impl CellName {
    /// The cell at `row`, `col` (from 0).
    pub const fn new(row: u8, col: u8) -> CellName {
        CellName { row, col }
    }

    /// Whether two cells share a side (orthogonal neighbours).
    pub fn touches(self, other: CellName) -> bool {
        self.row.abs_diff(other.row) + self.col.abs_diff(other.col) == 1
    }
}

impl fmt::Display for CellName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "r{}c{}", self.row as u32 + 1, self.col as u32 + 1)
    }
}

impl std::str::FromStr for CellName {
    type Err = String;

    /// Read "r3c7" (either case), 1-based.
    fn from_str(s: &str) -> Result<CellName, String> {
        let bad = || format!("{s:?} is not a cell name like r3c7");
        let lower = s.to_ascii_lowercase();
        let (r, c) = lower
            .strip_prefix('r')
            .and_then(|x| x.split_once('c'))
            .ok_or_else(bad)?;
        let (r, c): (u8, u8) = (r.parse().map_err(|_| bad())?, c.parse().map_err(|_| bad())?);
        if r == 0 || c == 0 {
            return Err(bad());
        }
        Ok(CellName::new(r - 1, c - 1))
    }
}

impl serde::Serialize for CellName {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> serde::Deserialize<'de> for CellName {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<CellName, D::Error> {
        let text = String::deserialize(d)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

impl fmt::Display for Size {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{0}x{0}", self.side())
    }
}

/// The character for digit `d`: '1'..'9', then 'A' for 10, 'B' for 11, ...
/// 'P' for 25 ('.' for 0, '?' for a digit no grid size has, as in a step
/// read from untrusted data).
pub fn digit_char(d: u8) -> char {
    match d {
        0 => '.',
        1..=9 => (b'0' + d) as char,
        10..=25 => (b'A' + d - 10) as char,
        _ => '?',
    }
}

/// A rule broken by two cells of a grid.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Conflict {
    /// The repeated digit.
    pub digit: u8,
    /// Which kind of house: row, column or box.
    pub house: House,
    /// The two cells (indices) that repeat it.
    pub cells: [usize; 2],
}

/// A row, column or box, numbered from 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum House {
    /// A row, from 0 (top).
    Row(usize),
    /// A column, from 0 (left).
    Col(usize),
    /// A box, from 0, numbered row-major.
    Box(usize),
}

impl fmt::Display for House {
    /// One-based, as players count: "row 3", "column 5", "box 9".
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            House::Row(i) => write!(f, "row {}", i + 1),
            House::Col(i) => write!(f, "column {}", i + 1),
            House::Box(i) => write!(f, "box {}", i + 1),
        }
    }
}

impl fmt::Display for Conflict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} appears twice in {}",
            digit_char(self.digit),
            self.house
        )
    }
}

/// An n×n grid: digits 1..=n, 0 for empty. Cells are row-major.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Grid {
    size: Size,
    cells: Vec<u8>,
}

/// Why cells could not make a grid.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GridError {
    /// The cell count is not 16, 81, 256 or 625.
    #[error("{0} cells is not a supported grid (16, 81, 256 or 625 cells)")]
    BadCellCount(usize),
    /// A digit larger than the side n.
    #[error("cell {cell}: digit {digit} is out of range for a {size} grid")]
    DigitOutOfRange {
        /// The cell index.
        cell: usize,
        /// The digit found.
        digit: u8,
        /// The grid size.
        size: Size,
    },
}

impl Grid {
    /// The empty grid of a size.
    pub fn empty(size: Size) -> Grid {
        Grid {
            size,
            cells: vec![0; size.cells()],
        }
    }

    /// A grid from its cells (row-major, 0 = empty); the size follows from the length.
    pub fn from_cells(cells: Vec<u8>) -> Result<Grid, GridError> {
        let size =
            Size::from_cell_count(cells.len()).ok_or(GridError::BadCellCount(cells.len()))?;
        if let Some((cell, &digit)) = cells
            .iter()
            .enumerate()
            .find(|&(_, &d)| d as usize > size.side())
        {
            return Err(GridError::DigitOutOfRange { cell, digit, size });
        }
        Ok(Grid { size, cells })
    }

    /// Make this the empty grid of `size`, reusing its buffer.
    pub fn reset(&mut self, size: Size) {
        self.size = size;
        self.cells.clear();
        self.cells.resize(size.cells(), 0);
    }

    /// Make this a copy of `other`, reusing its buffer (no allocation when
    /// the sizes match).
    pub fn copy_from(&mut self, other: &Grid) {
        self.size = other.size;
        self.cells.clear();
        self.cells.extend_from_slice(&other.cells);
    }

    /// Whether two filled cells break a rule (one pass with bitmasks, no
    /// allocation); [`first_conflict`](Self::first_conflict) names them.
    pub fn has_conflict(&self) -> bool {
        match self.size.box_size() {
            2 => conflict_in::<2, 4>(&self.cells),
            3 => conflict_in::<3, 9>(&self.cells),
            4 => conflict_in::<4, 16>(&self.cells),
            _ => conflict_in::<5, 25>(&self.cells),
        }
    }

    /// The size.
    pub fn size(&self) -> Size {
        self.size
    }
    /// Side n.
    pub fn side(&self) -> usize {
        self.size.side()
    }
    /// The cells, row-major, 0 = empty.
    pub fn cells(&self) -> &[u8] {
        &self.cells
    }
    /// Mutable cells. Keep digits within 0..=n.
    pub fn cells_mut(&mut self) -> &mut [u8] {
        &mut self.cells
    }
    /// The digit at a cell index (0 = empty).
    pub fn get(&self, cell: usize) -> u8 {
        self.cells[cell]
    }
    /// Set a cell (0 clears it).
    ///
    /// # Panics
    /// If `digit > n` or the cell is out of range.
    pub fn set(&mut self, cell: usize, digit: u8) {
        assert!(digit as usize <= self.side(), "digit {digit} out of range");
        self.cells[cell] = digit;
    }
    /// Number of filled cells.
    pub fn given_count(&self) -> usize {
        self.cells.iter().filter(|&&d| d != 0).count()
    }
    /// Whether every cell is filled.
    pub fn is_full(&self) -> bool {
        self.cells.iter().all(|&d| d != 0)
    }

    /// The first pair of filled cells that break a rule, scanning rows, then
    /// columns, then boxes.
    pub fn first_conflict(&self) -> Option<Conflict> {
        if !self.has_conflict() {
            return None;
        }
        self.scan_conflict()
    }

    /// The first conflict, by scanning every house in order.
    fn scan_conflict(&self) -> Option<Conflict> {
        let n = self.side();
        let s = self.size;
        let mut seen = vec![usize::MAX; n + 1];
        let mut check = |house: House, cells: &mut dyn Iterator<Item = usize>| {
            seen.iter_mut().for_each(|x| *x = usize::MAX);
            for c in cells {
                let d = self.cells[c] as usize;
                if d != 0 {
                    if seen[d] != usize::MAX {
                        return Some(Conflict {
                            digit: d as u8,
                            house,
                            cells: [seen[d], c],
                        });
                    }
                    seen[d] = c;
                }
            }
            None
        };
        for r in 0..n {
            if let Some(c) = check(House::Row(r), &mut (0..n).map(|c| s.cell(r, c))) {
                return Some(c);
            }
        }
        for c in 0..n {
            if let Some(x) = check(House::Col(c), &mut (0..n).map(|r| s.cell(r, c))) {
                return Some(x);
            }
        }
        for b in 0..n {
            if let Some(x) = check(House::Box(b), &mut s.box_cells(b)) {
                return Some(x);
            }
        }
        None
    }

    /// Whether this grid is a complete, valid solution that keeps every given of `puzzle`.
    pub fn is_solution_of(&self, puzzle: &Grid) -> bool {
        self.size == puzzle.size
            && self.is_full()
            && self.first_conflict().is_none()
            && puzzle
                .cells
                .iter()
                .zip(&self.cells)
                .all(|(&g, &d)| g == 0 || g == d)
    }

    /// The one-line form: n² characters, '.' for empty.
    pub fn to_line(&self) -> String {
        self.cells.iter().map(|&d| digit_char(d)).collect()
    }

    /// Write the one-line form (no line end) to `out`, in one write and
    /// without allocating.
    pub fn write_line(&self, out: &mut (impl std::io::Write + ?Sized)) -> std::io::Result<()> {
        const DIGITS: &[u8; 26] = b".123456789ABCDEFGHIJKLMNOP";
        let mut buf = [0u8; 625];
        for (b, &d) in buf.iter_mut().zip(&self.cells) {
            *b = DIGITS[usize::from(d).min(25)];
        }
        out.write_all(&buf[..self.cells.len()])
    }
}

/// Whether the cells of an N×N grid (boxes B×B) repeat a digit in a house.
///
/// Each house ORs its digits' bits; a house without a repeat has as many
/// bits set as it has givens, and every given is in three houses, so the
/// grid has no repeat exactly when the set bits of all houses add up to
/// three times the givens. No branch on the data, constant divisions.
fn conflict_in<const B: usize, const N: usize>(cells: &[u8]) -> bool {
    let (mut rows, mut cols, mut boxes) = ([0u32; N], [0u32; N], [0u32; N]);
    let mut givens = 0u32;
    for (r, row) in cells.chunks_exact(N).take(N).enumerate() {
        let mut row_bits = 0u32;
        for (c, &d) in row.iter().enumerate() {
            // digit d sets bit d - 1; an empty cell (0) sets none
            let bit = (1u32 << (d & 31)) >> 1;
            givens += u32::from(d != 0);
            row_bits |= bit;
            cols[c] |= bit;
            boxes[r / B * B + c / B] |= bit;
        }
        rows[r] = row_bits;
    }
    let ones: u32 = rows
        .iter()
        .chain(&cols)
        .chain(&boxes)
        .map(|m| m.count_ones())
        .sum();
    ones != 3 * givens
}

impl fmt::Debug for Grid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Grid({})", self.to_line())
    }
}

impl fmt::Display for Grid {
    /// The one-line form.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_line())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bitmask_check_agrees_with_the_scan() {
        // Random sparse grids of every size, from a fixed-seed LCG: about
        // half of them have a repeat somewhere.
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = || {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (x >> 33) as usize
        };
        let mut conflicts = 0;
        for b in 2..=5u8 {
            let size = Size::from_box(b).unwrap();
            for _ in 0..2000 {
                let mut g = Grid::empty(size);
                let givens = next() % (size.side() * 2 + 1);
                for _ in 0..givens {
                    let cell = next() % size.cells();
                    g.set(cell, (next() % size.side()) as u8 + 1);
                }
                let scan = g.scan_conflict();
                assert_eq!(g.has_conflict(), scan.is_some(), "{g:?}");
                assert_eq!(g.first_conflict(), scan);
                conflicts += usize::from(scan.is_some());
            }
        }
        assert!(conflicts > 1000 && conflicts < 7000, "{conflicts} of 8000");
    }
}
