//! The grid a variant is played on: its side, its boxes, and cell names.

use std::fmt;

use crate::grid::CellName;

/// The grid: an n×n square of cells taking the digits 1..=n, with boxes of
/// `box_rows` × `box_cols` cells (2×3 on a 6×6 grid, 2×4 on 8×8, 3×3 on
/// 9×9) or no boxes (a jigsaw puzzle brings its own regions).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
pub struct Shape {
    side: u8,
    box_rows: u8,
    box_cols: u8,
}

impl Shape {
    /// The largest side: candidate masks are 16 bits.
    pub const MAX_SIDE: usize = 16;

    /// The classic 9×9 grid.
    pub const NINE: Shape = Shape {
        side: 9,
        box_rows: 3,
        box_cols: 3,
    };

    /// An n×n grid (1 ≤ n ≤ 16) with the usual boxes for its side: as square
    /// as the side allows, wider than tall (6×6: 2 rows × 3 columns; 8×8:
    /// 2×4; 12×12: 3×4), none for a prime side. `None` for a side out of range.
    pub fn new(side: usize) -> Option<Shape> {
        if side == 0 || side > Self::MAX_SIDE {
            return None;
        }
        let mut shape = Shape {
            side: side as u8,
            box_rows: 0,
            box_cols: 0,
        };
        let mut small = (side as f64).sqrt() as usize;
        while small >= 2 {
            if side % small == 0 {
                shape.box_rows = small as u8;
                shape.box_cols = (side / small) as u8;
                break;
            }
            small -= 1;
        }
        Some(shape)
    }

    /// The same side without boxes (a jigsaw's regions replace them).
    pub fn without_boxes(self) -> Shape {
        Shape {
            box_rows: 0,
            box_cols: 0,
            ..self
        }
    }

    /// Side n: cells per row, and the number of digits.
    pub fn side(self) -> usize {
        self.side as usize
    }

    /// Number of cells, n².
    pub fn cells(self) -> usize {
        self.side() * self.side()
    }

    /// Box height and width, when the grid has boxes.
    pub fn boxes(self) -> Option<(usize, usize)> {
        (self.box_rows > 0).then_some((self.box_rows as usize, self.box_cols as usize))
    }

    /// Mask of all n digits (bit `d - 1` for digit `d`).
    pub fn all(self) -> u16 {
        ((1u32 << self.side) - 1) as u16
    }

    /// A cell's index, row-major.
    pub fn index(self, cell: CellName) -> usize {
        cell.row as usize * self.side() + cell.col as usize
    }

    /// The cell at a row-major index.
    pub fn cell(self, index: usize) -> CellName {
        CellName::new((index / self.side()) as u8, (index % self.side()) as u8)
    }

    /// Whether a cell lies on the grid.
    pub fn contains(self, cell: CellName) -> bool {
        (cell.row as usize) < self.side() && (cell.col as usize) < self.side()
    }

    /// The index of the box holding a cell, if the grid has boxes.
    pub fn box_of(self, cell: CellName) -> Option<usize> {
        let (h, w) = self.boxes()?;
        let per_row = self.side() / w;
        Some(cell.row as usize / h * per_row + cell.col as usize / w)
    }

    /// The rows, columns and boxes, each as its n cell indices.
    pub fn houses(self) -> Vec<Vec<u16>> {
        let n = self.side();
        let mut houses = Vec::with_capacity(3 * n);
        for r in 0..n {
            houses.push((0..n).map(|c| (r * n + c) as u16).collect());
        }
        for c in 0..n {
            houses.push((0..n).map(|r| (r * n + c) as u16).collect());
        }
        if self.boxes().is_some() {
            let mut boxes = vec![Vec::with_capacity(n); n];
            for i in 0..self.cells() {
                let b = self.box_of(self.cell(i)).expect("the grid has boxes");
                boxes[b].push(i as u16);
            }
            houses.extend(boxes);
        }
        houses
    }

    /// Orthogonal neighbours of a cell (up to 4).
    pub fn orthogonal(self, cell: CellName) -> impl Iterator<Item = CellName> {
        self.offsets(cell, &[(-1, 0), (1, 0), (0, -1), (0, 1)])
    }

    /// The cells at the given (row, column) offsets that lie on the grid.
    pub fn offsets(
        self,
        cell: CellName,
        offsets: &'static [(i8, i8)],
    ) -> impl Iterator<Item = CellName> {
        let n = self.side() as i32;
        offsets.iter().filter_map(move |&(dr, dc)| {
            let (r, c) = (cell.row as i32 + dr as i32, cell.col as i32 + dc as i32);
            ((0..n).contains(&r) && (0..n).contains(&c)).then(|| CellName::new(r as u8, c as u8))
        })
    }
}

impl fmt::Display for Shape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{0}x{0}", self.side)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn boxes_follow_the_side() {
        assert_eq!(Shape::new(6).unwrap().boxes(), Some((2, 3)));
        assert_eq!(Shape::new(8).unwrap().boxes(), Some((2, 4)));
        assert_eq!(Shape::new(9).unwrap().boxes(), Some((3, 3)));
        assert_eq!(Shape::new(16).unwrap().boxes(), Some((4, 4)));
        assert_eq!(Shape::new(7).unwrap().boxes(), None);
        assert_eq!(Shape::new(17), None);
        let s = Shape::new(6).unwrap();
        assert_eq!(s.box_of(CellName::new(1, 2)), Some(0));
        assert_eq!(s.box_of(CellName::new(1, 3)), Some(1));
        assert_eq!(s.box_of(CellName::new(2, 0)), Some(2));
        assert_eq!(s.houses().len(), 18);
        assert!(s.houses().iter().all(|h| h.len() == 6));
    }

    #[test]
    fn cells_name_themselves() {
        assert_eq!(CellName::new(9, 11).to_string(), "r10c12");
        let s = Shape::NINE;
        assert_eq!(s.cell(s.index(CellName::new(4, 7))), CellName::new(4, 7));
        assert_eq!(s.orthogonal(CellName::new(0, 0)).count(), 2);
    }
}
