//! German whispers (and whispers of another difference).
//!
//! **Rule.** Neighbouring digits along the line differ by at least 5
//! (`.Whisper~…`); `.Whisper~<d>~…` sets another least difference d. On a
//! 9×9 grid with difference 5 a 5 can never sit on the line.

use super::iss;
use super::prim::Pair;
use super::solver::{Model, Prop};
use super::{CellName, Constraint, Shape};

/// A whispers line.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Whisper {
    /// The least difference when not 5.
    pub difference: Option<u8>,
    /// The line's cells in order.
    pub cells: Vec<CellName>,
}

impl Whisper {
    /// The least difference between neighbours.
    pub fn least(&self) -> u8 {
        self.difference.unwrap_or(5)
    }

    pub(crate) fn lower(&self, shape: Shape, m: &mut Model) -> Result<(), String> {
        let least = self.least();
        for w in self.cells.windows(2) {
            let (a, b) = (shape.index(w[0]) as u16, shape.index(w[1]) as u16);
            let pair = Pair::new(a, b, shape.side(), |x, y| x.abs_diff(y) >= least);
            m.props.push(Prop::Pair(pair));
        }
        Ok(())
    }
}

/// Read `.Whisper~[<difference>~]<cells…>`.
pub(crate) fn parse(args: &[&str], shape: Shape) -> Result<Constraint, String> {
    let (difference, cells) = match args.first() {
        Some(a) if a.chars().all(|c| c.is_ascii_digit()) && !a.is_empty() => {
            (Some(iss::number(a, "difference")?), &args[1..])
        }
        _ => (None, args),
    };
    // Checked before narrowing: 261 must not read as 5.
    if difference.is_some_and(|d| d == 0 || d as usize >= shape.side()) {
        return Err(format!(
            "difference {}: 1 to {}",
            difference.unwrap_or(0),
            shape.side() - 1
        ));
    }
    Ok(Constraint::Whisper(Whisper {
        difference: difference.map(|d| d as u8).filter(|&d| d != 5),
        cells: iss::cells(cells, shape, 2)?,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn differences_out_of_range_are_refused() {
        let s = Shape::NINE;
        assert!(parse(&["261", "R1C1", "R1C2"], s).is_err());
        assert!(parse(&["9", "R1C1", "R1C2"], s).is_err());
        let Ok(Constraint::Whisper(w)) = parse(&["4", "R1C1", "R1C2"], s) else {
            panic!("reads")
        };
        assert_eq!(w.least(), 4);
    }
}
