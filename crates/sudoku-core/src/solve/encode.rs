//! Sudoku as exact cover: 4·n² primary items (cell filled, digit in row,
//! digit in column, digit in box) and one option per (cell, digit), each
//! covering four items.
//!
//! Two reductions:
//! - **full**: every digit of every empty cell, plus the given digit of each
//!   given cell (for a 9×9 puzzle with 32 givens, 32 + 49×9 = 473 options);
//! - **pruned**: the givens are placed before the search, their items are left
//!   out, and options that conflict with a given are never inserted.

use exact_cover::{BuildError, Problem, ProblemBuilder};

use crate::grid::{Grid, Size};

/// Which reduction to build.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reduction {
    /// All 4·n² items; an empty cell gets one option per digit and a given
    /// cell one option (its digit), which the search must still choose. The
    /// matrix of the `dlx` and `dlx-first` methods.
    Full,
    /// The givens are placed up front: the items they cover are dropped and
    /// every option that would clash with a given is never inserted, so the
    /// matrix holds only the empty cells' possible placements. The matrix of
    /// the `dlx-pruned` method; [`Encoder::encode`] reports givens that
    /// already conflict instead of building it.
    Pruned,
}

/// Reusable encoder: keeps its buffers across puzzles.
#[derive(Clone, Debug, Default)]
pub struct Encoder {
    builder: ProblemBuilder,
    /// (cell, digit) of each option of the last problem.
    pub(crate) placements: Vec<(u32, u8)>,
    /// Problem item → full item number (4·n² numbering), for names.
    pub(crate) item_names: Vec<u32>,
    compact: Vec<u32>,
    /// `items_of` for every (cell, digit) of `table_side`, computed once per size.
    table: Vec<[u32; 4]>,
    table_side: usize,
}

/// The four full item numbers of placing `d` (1-based) at `cell`.
pub fn items_of(size: Size, cell: usize, d: u8) -> [u32; 4] {
    let n = size.side();
    let (r, c, b) = (size.row_of(cell), size.col_of(cell), size.box_of(cell));
    let d = d as usize - 1;
    [
        cell as u32,
        (n * n + r * n + d) as u32,
        (2 * n * n + c * n + d) as u32,
        (3 * n * n + b * n + d) as u32,
    ]
}

/// A readable name for a full item number: "r3c5", "row 3 needs 5", ...
pub fn item_name(size: Size, item: u32) -> String {
    let n = size.side();
    let (kind, rest) = (item as usize / (n * n), item as usize % (n * n));
    let (a, d) = (rest / n, crate::grid::digit_char((rest % n) as u8 + 1));
    match kind {
        0 => format!("r{}c{}", a + 1, rest % n + 1),
        1 => format!("row {} needs a {d}", a + 1),
        2 => format!("column {} needs a {d}", a + 1),
        _ => format!("box {} needs a {d}", a + 1),
    }
}

impl Encoder {
    /// Encode `puzzle` into `problem` (memory reused). Returns `false` when
    /// the pruned reduction finds the givens in conflict (no solution).
    pub fn encode(
        &mut self,
        puzzle: &Grid,
        reduction: Reduction,
        problem: &mut Problem,
    ) -> Result<bool, BuildError> {
        let size = puzzle.size();
        let n = size.side();
        let full = 4 * n * n;
        if self.table_side != n {
            self.table.clear();
            for cell in 0..n * n {
                for d in 1..=n as u8 {
                    self.table.push(items_of(size, cell, d));
                }
            }
            self.table_side = n;
        }
        self.placements.clear();
        self.item_names.clear();
        match reduction {
            Reduction::Full => {
                self.builder.reset_items(full, 0);
                self.item_names.extend(0..full as u32);
                for (cell, &g) in puzzle.cells().iter().enumerate() {
                    let digits = if g != 0 { g..=g } else { 1..=n as u8 };
                    for d in digits {
                        self.builder
                            .option_ids(&self.table[cell * n + d as usize - 1]);
                        self.placements.push((cell as u32, d));
                    }
                }
            }
            Reduction::Pruned => {
                // items covered by the givens are left out
                self.compact.clear();
                self.compact.resize(full, 0);
                for (cell, &g) in puzzle.cells().iter().enumerate() {
                    if g != 0 {
                        for it in items_of(size, cell, g) {
                            if self.compact[it as usize] != 0 {
                                return Ok(false); // two givens cover the same item
                            }
                            self.compact[it as usize] = 1;
                        }
                    }
                }
                let mut live = 0u32;
                for (k, slot) in self.compact.iter_mut().enumerate() {
                    if *slot == 0 {
                        *slot = live;
                        self.item_names.push(k as u32);
                        live += 1;
                    } else {
                        *slot = u32::MAX;
                    }
                }
                self.builder.reset_items(live as usize, 0);
                for (cell, &g) in puzzle.cells().iter().enumerate() {
                    if g != 0 {
                        continue;
                    }
                    for d in 1..=n as u8 {
                        let its = self.table[cell * n + d as usize - 1];
                        let ids = its.map(|i| self.compact[i as usize]);
                        if ids.contains(&u32::MAX) {
                            continue;
                        }
                        self.builder.option_ids(&ids);
                        self.placements.push((cell as u32, d));
                    }
                }
                if live == 0 {
                    // the puzzle is full and consistent: one empty option set;
                    // keep one dummy item so the problem is valid
                    self.builder.reset_items(1, 0);
                    self.item_names.clear();
                    self.item_names.push(0);
                    self.builder.option_ids(&[0]);
                    self.placements.push((u32::MAX, 0));
                }
            }
        }
        self.builder.build_into(problem)?;
        Ok(true)
    }

    /// Bytes held by the encoder's buffers.
    pub fn bytes(&self) -> usize {
        (self.placements.capacity() * 8)
            + (self.item_names.capacity() + self.compact.capacity()) * 4
            + self.table.capacity() * 16
    }
}
