//! Jigsaw: irregular regions in place of the boxes.
//!
//! **Rule.** The grid is cut into n regions of n cells each; each region
//! holds every digit once. ISS writes the layout as one character per cell
//! (row-major), the same character for the cells of one region
//! (`.Jigsaw~000111222000111222…`), and a jigsaw puzzle also says
//! `.NoBoxes`: the boxes no longer apply.

use super::Shape;
use super::solver::Model;

/// A jigsaw layout: the region of each cell, row-major.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Jigsaw {
    /// Region number (0..n) of each cell.
    pub regions: Vec<u8>,
}

impl Jigsaw {
    /// Read a layout string: one character per cell, n distinct characters
    /// each used n times.
    pub fn parse(layout: &str, shape: Shape) -> Result<Jigsaw, String> {
        let chars: Vec<char> = layout.chars().collect();
        if chars.len() != shape.cells() {
            return Err(format!(
                "a {shape} layout has {} characters, this one {}",
                shape.cells(),
                chars.len()
            ));
        }
        let mut names: Vec<char> = Vec::new();
        let mut regions = Vec::with_capacity(chars.len());
        for &ch in &chars {
            let r = match names.iter().position(|&x| x == ch) {
                Some(r) => r,
                None => {
                    names.push(ch);
                    names.len() - 1
                }
            };
            regions.push(r as u8);
        }
        if names.len() != shape.side() {
            return Err(format!(
                "{} regions, a {shape} grid needs {}",
                names.len(),
                shape.side()
            ));
        }
        for (r, name) in names.iter().enumerate() {
            let size = regions.iter().filter(|&&x| x == r as u8).count();
            if size != shape.side() {
                return Err(format!(
                    "region {name:?} has {size} cells, not {}",
                    shape.side()
                ));
            }
        }
        Ok(Jigsaw { regions })
    }

    /// The layout as ISS writes it: regions numbered in base n + 1 in order
    /// of first appearance.
    pub fn layout_string(&self) -> String {
        self.regions
            .iter()
            .map(|&r| char::from_digit(r as u32, 36).unwrap_or('?'))
            .collect()
    }

    pub(crate) fn lower(&self, shape: Shape, m: &mut Model) -> Result<(), String> {
        if self.regions.len() != shape.cells() {
            return Err(format!(
                "layout of {} cells on a {shape} grid",
                self.regions.len()
            ));
        }
        for r in 0..shape.side() as u8 {
            let cells: Vec<u16> = (0..shape.cells() as u16)
                .filter(|&c| self.regions[c as usize] == r)
                .collect();
            if cells.len() != shape.side() {
                return Err(format!("region {r} has {} cells", cells.len()));
            }
            m.house(cells);
        }
        Ok(())
    }
}
