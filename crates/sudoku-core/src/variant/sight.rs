//! A house's digit and the cells that see all its places.
//!
//! **Rule** (no constraint of its own; it follows from the houses and the
//! pairs of cells that must differ): a digit goes in one of its places in a
//! house, so a cell outside the house that must differ from every one of
//! those places cannot hold it. Where the only pairs are those of rows,
//! columns and boxes this is locked candidates (pointing and claiming),
//! which the search does already; anti-knight and anti-king moves, extra
//! regions, cages and lines add pairs that reach further: on an anti-knight
//! grid, a digit with two places in a box rules itself out of the cells a
//! knight's move from both.
//!
//! **Propagation.** Per house, for each digit with two or three places
//! there (more seldom share a cell they all see): the cells outside the house that must differ from every
//! place (the intersection of the places' peer sets, one bit per cell) lose
//! it. Added to anti-knight grids only: on ISS's "Anti-Knight, slow" the
//! search's nodes go from 452 to 111 and its time halves; anti-king moves,
//! killer cages and renban lines add pairs beyond the houses too, but
//! there it cost more time than it saved (Hard renban 2, anti-king: 23%
//! fewer nodes, 13% more time; BENCHMARKS.md, variants, session 15).

use super::solver::{Contradiction, Dom, Prop};

/// Words of a cell bit set: up to 256 cells (16×16).
const WORDS: usize = 4;

/// One house and, per cell of it, the cells outside it that the cell must
/// differ from.
#[derive(Clone, Debug)]
pub(crate) struct HouseSight {
    pub(crate) cells: Vec<u16>,
    sight: Vec<[u64; WORDS]>,
    /// Words in use: cells / 64, rounded up.
    words: usize,
}

impl HouseSight {
    pub(crate) fn propagate(&self, d: &mut Dom<'_>) -> Result<(), Contradiction> {
        // Digits with two or three places (more rarely share a peer outside).
        let (mut once, mut twice, mut thrice, mut more) = (0u16, 0u16, 0u16, 0u16);
        for &c in &self.cells {
            let m = d.get(c);
            more |= thrice & m;
            thrice |= twice & m;
            twice |= once & m;
            once |= m;
        }
        let mut left = twice & !more;
        while left != 0 {
            let bit = left & left.wrapping_neg();
            left ^= bit;
            let mut seen = [!0u64; WORDS];
            for (i, &c) in self.cells.iter().enumerate() {
                if d.get(c) & bit != 0 {
                    for (s, w) in seen.iter_mut().zip(&self.sight[i]).take(self.words) {
                        *s &= w;
                    }
                }
            }
            for (k, &w) in seen.iter().enumerate().take(self.words) {
                let mut w = w;
                while w != 0 {
                    let c = (k * 64) as u16 + w.trailing_zeros() as u16;
                    w &= w - 1;
                    d.restrict(c, !bit)?;
                }
            }
        }
        Ok(())
    }
}

/// The house rules for a grid of `cells` cells whose houses are `houses`
/// and whose cells must differ from `peers` (each cell's list): one per
/// house, or none when every pair of peers shares a house (then the rule is
/// locked candidates, done elsewhere).
pub(crate) fn props(houses: &[Vec<u16>], peers: &[Vec<u16>]) -> Vec<Prop> {
    let cells = peers.len();
    if cells > WORDS * 64 {
        return Vec::new();
    }
    let mut house_of = vec![Vec::new(); cells];
    for (h, house) in houses.iter().enumerate() {
        for &c in house {
            house_of[c as usize].push(h);
        }
    }
    let shares = |a: u16, b: u16| {
        house_of[a as usize]
            .iter()
            .any(|h| house_of[b as usize].contains(h))
    };
    let extra = peers
        .iter()
        .enumerate()
        .any(|(a, ps)| ps.iter().any(|&b| !shares(a as u16, b)));
    if !extra {
        return Vec::new();
    }
    houses
        .iter()
        .map(|house| {
            let sight = house
                .iter()
                .map(|&c| {
                    let mut set = [0u64; WORDS];
                    for &p in &peers[c as usize] {
                        if !house.contains(&p) {
                            set[p as usize / 64] |= 1 << (p % 64);
                        }
                    }
                    set
                })
                .collect();
            Prop::Sight(HouseSight {
                cells: house.clone(),
                sight,
                words: cells.div_ceil(64),
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::super::Puzzle;
    use super::*;

    fn sight_props(text: &str) -> (Vec<Vec<u16>>, Vec<Prop>) {
        let puzzle: Puzzle = text.parse().expect("puzzle");
        let mut model = puzzle.lower().expect("model");
        let peers = model.finish();
        let props = props(&model.houses, &peers);
        (model.houses, props)
    }

    /// Anti-knight: 1 in box 1 only at r1c1 or r3c3. r1c4 shares r1c1's
    /// row and is a knight's move from r3c3, r4c1 shares r1c1's column
    /// and is a knight's move from r3c3: both lose the 1, no other cell
    /// does. (Every solution of an anti-knight grid with 1 at r1c1 or r3c3
    /// has no 1 at r1c4 or r4c1: the rule in words.)
    #[test]
    fn a_digit_with_two_places_leaves_the_cells_a_knight_and_a_line_see() {
        let (houses, props) = sight_props(".AntiKnight");
        assert_eq!(props.len(), houses.len());
        let mut masks = vec![0x1ffu16; 81];
        for c in [1, 2, 9, 10, 11, 18, 19] {
            masks[c] &= !1;
        }
        let box1 = houses
            .iter()
            .position(|h| h.contains(&0) && h.contains(&20));
        let Prop::Sight(sight) = &props[box1.expect("box 1")] else {
            panic!("a house's rule")
        };
        let mut changed = Vec::new();
        Dom::on_slice(&mut masks, &mut changed, |d| sight.propagate(d)).expect("consistent");
        changed.sort_unstable();
        assert_eq!(changed, [3, 27]);
        assert_eq!(masks[3], 0x1fe);
        assert_eq!(masks[27], 0x1fe);
    }

    /// Rows, columns and boxes only (and a cage of one box's cells, whose
    /// pairs share that box): locked candidates already does the rule.
    #[test]
    fn none_without_pairs_beyond_the_houses() {
        assert!(sight_props(".~R1C1_5").1.is_empty());
        assert!(sight_props(".Cage~6~R1C1~R1C2~R2C1").1.is_empty());
        assert!(!sight_props(".Cage~9~R1C3~R1C4~R2C4").1.is_empty());
    }
}
