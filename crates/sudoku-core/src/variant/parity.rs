//! Odd and even cells.
//!
//! **Rule.** A cell marked odd holds an odd digit; one marked even an even
//! digit (`.Odd~R1C1~…`, `.Even~…`). ISS writes these as candidate lists
//! instead (`.~R1C1_1_3_5_7_9`), which are read as such.

use super::solver::Model;

/// Keep the digits of the given parity (1 odd, 0 even) in the cells.
pub(crate) fn lower(cells: &[u16], parity: u8, m: &mut Model) -> Result<(), String> {
    let keep = (1..=16u8)
        .filter(|d| d % 2 == parity)
        .fold(0u16, |k, d| k | 1 << (d - 1));
    for &c in cells {
        m.init[c as usize] &= keep;
    }
    Ok(())
}
