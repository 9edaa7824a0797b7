//! Prose for trace steps: "r8c7 has 2 candidates {3,9}: try 3",
//! "row 6: 5 fits only r6c9", "r2c9: no candidate left", "back to r7c7".
//!
//! Steps are data ([`TraceStep`]); this module only renders them, so other
//! renderers (JSON, a web page) can sit beside it.

use std::fmt;

use super::TraceStep;
use crate::grid::{CellName, Size, digit_char};

/// A [`TraceStep`] with the grid size it refers to, displayed as prose with
/// 1-based rows and columns. Made by [`TraceStep::display`].
#[derive(Clone, Copy, Debug)]
pub struct TraceDisplay<'a> {
    step: &'a TraceStep,
    side: usize,
}

impl TraceStep {
    /// The step as prose for a grid of `size`: `step.display(size).to_string()`.
    pub fn display(&self, size: Size) -> TraceDisplay<'_> {
        self.display_on(size.side())
    }

    /// The step as prose for a grid of side `side` (variant grids: 6×6,
    /// 8×8, ...).
    pub fn display_on(&self, side: usize) -> TraceDisplay<'_> {
        TraceDisplay { step: self, side }
    }
}

impl fmt::Display for TraceDisplay<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = Side(self.side);
        match self.step {
            TraceStep::NakedSingle { cell, digit } => write!(
                f,
                "{}: only {} fits",
                s.cell_name(*cell),
                digit_char(*digit)
            ),
            TraceStep::HiddenSingle { house, cell, digit } => write!(
                f,
                "{house}: {} fits only {}",
                digit_char(*digit),
                s.cell_name(*cell)
            ),
            TraceStep::Try {
                cell,
                candidates,
                digit,
                ..
            } => {
                write!(
                    f,
                    "{} has {} candidates {{",
                    s.cell_name(*cell),
                    candidates.len()
                )?;
                for (i, d) in candidates.iter().enumerate() {
                    if i > 0 {
                        f.write_str(",")?;
                    }
                    write!(f, "{}", digit_char(*d))?;
                }
                write!(f, "}}: try {}", digit_char(*digit))
            }
            TraceStep::DeadEnd { cell } => {
                write!(f, "{}: no candidate left", s.cell_name(*cell))
            }
            TraceStep::NoPlace { house, digit } => {
                write!(f, "{house}: no place left for {}", digit_char(*digit))
            }
            TraceStep::Backtrack { cell, .. } => write!(f, "back to {}", s.cell_name(*cell)),
            TraceStep::Solution => f.write_str("solution found"),
            TraceStep::Column {
                constraint,
                options: 0,
                ..
            } => write!(f, "{constraint}: no option left"),
            TraceStep::Column {
                constraint,
                options: 1,
                ..
            } => write!(f, "{constraint}: 1 option left"),
            TraceStep::Column {
                constraint,
                options,
                ..
            } => write!(f, "{constraint}: {options} options"),
            TraceStep::Place { cell, digit, .. } => {
                write!(f, "try {}={}", s.cell_name(*cell), digit_char(*digit))
            }
            TraceStep::Undo { depth } => write!(f, "back to level {depth}"),
            TraceStep::Conflict => f.write_str("the givens conflict: no solution"),
            TraceStep::Contradiction => f.write_str("a rule has no way left"),
        }
    }
}

/// Cell names on a grid of some side.
#[derive(Clone, Copy)]
struct Side(usize);

impl Side {
    fn cell_name(self, cell: usize) -> CellName {
        CellName::new((cell / self.0) as u8, (cell % self.0) as u8)
    }
}

/// Joins steps into the lines a reader expects: a dead end and the backtrack
/// that follows share a line ("r2c9: no candidate left, back to r7c7").
///
/// Feed steps in order with [`push`](Self::push) and call
/// [`finish`](Self::finish) at the end of the search.
#[derive(Clone, Debug)]
pub struct TraceLines {
    side: usize,
    pending: Option<String>,
}

impl TraceLines {
    /// Lines for a grid of `size`.
    pub fn new(size: Size) -> Self {
        Self::on_side(size.side())
    }

    /// Lines for a grid of side `side` (variant grids too).
    pub fn on_side(side: usize) -> Self {
        TraceLines {
            side,
            pending: None,
        }
    }

    /// Feed one step; returns the lines it completes (zero, one or two).
    pub fn push(&mut self, step: &TraceStep) -> Vec<String> {
        let text = step.display_on(self.side).to_string();
        match step {
            TraceStep::Backtrack { .. } => match self.pending.take() {
                Some(dead) => vec![format!("{dead}, {text}")],
                None => vec![text],
            },
            TraceStep::DeadEnd { .. } | TraceStep::NoPlace { .. } | TraceStep::Contradiction => {
                self.pending.replace(text).into_iter().collect()
            }
            _ => self.pending.take().into_iter().chain([text]).collect(),
        }
    }

    /// The line still held back, if any (a dead end with no backtrack after it).
    pub fn finish(&mut self) -> Option<String> {
        self.pending.take()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::House;

    #[test]
    fn prose_is_one_based() {
        let s = Size::NINE;
        let cell = |r: usize, c: usize| s.cell(r - 1, c - 1);
        let t = TraceStep::Try {
            depth: 1,
            cell: cell(8, 7),
            candidates: vec![3, 9],
            digit: 3,
        };
        assert_eq!(
            t.display(s).to_string(),
            "r8c7 has 2 candidates {3,9}: try 3"
        );
        let h = TraceStep::HiddenSingle {
            house: House::Row(5),
            cell: cell(6, 9),
            digit: 5,
        };
        assert_eq!(h.display(s).to_string(), "row 6: 5 fits only r6c9");
        let d = TraceStep::DeadEnd { cell: cell(2, 9) };
        assert_eq!(d.display(s).to_string(), "r2c9: no candidate left");
        let b = TraceStep::Backtrack {
            depth: 2,
            cell: cell(7, 7),
        };
        assert_eq!(b.display(s).to_string(), "back to r7c7");
        let n = TraceStep::NoPlace {
            house: House::Box(2),
            digit: 12,
        };
        assert_eq!(
            n.display(Size::SIXTEEN).to_string(),
            "box 3: no place left for C"
        );
    }

    #[test]
    fn dead_end_and_backtrack_share_a_line() {
        let s = Size::NINE;
        let mut lines = TraceLines::new(s);
        let mut out = Vec::new();
        out.extend(lines.push(&TraceStep::DeadEnd { cell: s.cell(1, 8) }));
        assert!(out.is_empty());
        out.extend(lines.push(&TraceStep::Backtrack {
            depth: 3,
            cell: s.cell(6, 6),
        }));
        out.extend(lines.push(&TraceStep::DeadEnd { cell: s.cell(0, 0) }));
        out.extend(lines.push(&TraceStep::Solution));
        out.extend(lines.push(&TraceStep::NoPlace {
            house: House::Col(1),
            digit: 4,
        }));
        out.extend(lines.finish());
        assert_eq!(
            out,
            [
                "r2c9: no candidate left, back to r7c7",
                "r1c1: no candidate left",
                "solution found",
                "column 2: no place left for 4",
            ]
        );
    }
}
