//! Thermometers and slow thermometers.
//!
//! **Rule.** Along a thermometer, from its bulb, digits strictly increase
//! (`.Thermo~<bulb>~…`). Along a slow thermometer they never decrease: a
//! digit may repeat where rows, columns and boxes allow (`.SlowThermo~…`,
//! our own token; ISS has none).
//!
//! **Propagation.** Each step of the line is a pair of cells in order; on a
//! strict thermometer of length L the cell at place i (from 0) also starts
//! with digits i + 1 ..= n − (L − 1 − i).

use super::Shape;
use super::prim::Pair;
use super::solver::{Model, Prop, range_mask};

pub(crate) fn lower(cells: &[u16], slow: bool, shape: Shape, m: &mut Model) -> Result<(), String> {
    let n = shape.side();
    let len = cells.len();
    if !slow && len > n {
        return Err(format!(
            "{len} cells cannot strictly increase through {n} digits"
        ));
    }
    for (i, &c) in cells.iter().enumerate() {
        if !slow {
            m.init[c as usize] &= range_mask(i as i32 + 1, (n - (len - 1 - i)) as i32);
        }
    }
    for w in cells.windows(2) {
        let pair = if slow {
            Pair::new(w[0], w[1], n, |a, b| a <= b)
        } else {
            Pair::new(w[0], w[1], n, |a, b| a < b)
        };
        m.props.push(Prop::Pair(pair));
    }
    Ok(())
}
