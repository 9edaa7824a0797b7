//! Derived sums: facts that follow from the sums of a puzzle and its houses,
//! added as extra propagators before the search.
//!
//! Every rule here reads the puzzle's sums with unit coefficients (killer
//! cages, little killers, plain sums) that share no cell, and a region whose
//! total is known: a house holds each digit once, so its digits add up to
//! n(n+1)/2 (45 on 9×9); k whole rows or columns, or the whole grid, to k
//! times that. (The "45 rule" of killer solvers; the Interactive Sudoku
//! Solver's optimiser derives the same kinds of sums.)
//!
//! - **Innies.** The cells of a region that no sum lying wholly inside it
//!   covers add up to the rest of the total. Inside one house they are also
//!   all different: a hidden killer cage.
//! - **Innies and outies.** Where the sums that reach into the region stick
//!   out of it, the cells inside none of them minus the cells sticking out
//!   make the total minus all those sums.
//! - **One outie.** A sum that sticks out of a region by one cell makes an
//!   arrow-like rule of its own: the region's cells outside it and outside
//!   the whole sums, minus the cell sticking out, equal the total minus the
//!   whole sums and it.
//!
//! Each derived sum with at most [`LIMIT`] cells (a hidden cage of a house:
//! up to n − 1) becomes one more propagator. It allows nothing the puzzle's
//! own rules do not; it only finds contradictions sooner.
//!
//! A killer cage lying in one house (a puzzle's cage or a hidden cage) also
//! learns the rest of that house, its complement: see
//! [`CageSum`](super::cage::CageSum).

use super::Shape;
use super::cage::CageSum;
use super::prim::Linear;
use super::solver::{Model, Prop};

/// The most cells a derived sum may have (except a house's hidden cage).
const LIMIT: usize = 6;

/// Cells with their coefficients in a sum.
type Terms = Vec<(u16, i32)>;

/// The sums with unit coefficients among the model's rules, as (cells,
/// total), keeping the first of any two that share a cell.
fn unit_sums(m: &Model, cells: usize) -> Vec<(Vec<u16>, i32)> {
    let mut taken = vec![false; cells];
    let mut out = Vec::new();
    for p in &m.props {
        let (cs, total): (Vec<u16>, i32) = match p {
            Prop::Cage(c) => (c.cells.clone(), c.sum() as i32),
            Prop::Linear(l) if l.terms.iter().all(|t| t.1 == 1) => {
                (l.terms.iter().map(|t| t.0).collect(), l.rhs)
            }
            _ => continue,
        };
        if cs.is_empty() || cs.iter().any(|&c| taken[c as usize]) {
            continue;
        }
        for &c in &cs {
            taken[c as usize] = true;
        }
        out.push((cs, total));
    }
    out
}

/// Add the derived sums of the module docs to the model.
pub(crate) fn derive_sums(shape: Shape, m: &mut Model) {
    let n = shape.side();
    let cells = shape.cells();
    let sums = unit_sums(m, cells);
    if sums.is_empty() {
        return;
    }
    let total = (n * (n + 1) / 2) as i32;
    let mut sum_of = vec![usize::MAX; cells];
    for (k, (cs, _)) in sums.iter().enumerate() {
        for &c in cs {
            sum_of[c as usize] = k;
        }
    }
    // Regions of known total: the houses, then bands of k rows or columns
    // (k = n: the whole grid, once).
    let mut regions: Vec<(Vec<u16>, i32, bool)> =
        m.houses.iter().map(|h| (h.clone(), total, true)).collect();
    for k in 2..=n {
        for start in 0..=n - k {
            let rows = (start * n..(start + k) * n).map(|c| c as u16).collect();
            regions.push((rows, k as i32 * total, false));
            if k < n {
                let cols = (0..cells)
                    .filter(|c| (start..start + k).contains(&(c % n)))
                    .map(|c| c as u16)
                    .collect();
                regions.push((cols, k as i32 * total, false));
            }
        }
    }
    let mut seen: Vec<Terms> = Vec::new();
    let mut in_region = vec![false; cells];
    for (region, target, is_house) in regions {
        for &c in &region {
            in_region[c as usize] = true;
        }
        let mut touching: Vec<usize> = region
            .iter()
            .map(|&c| sum_of[c as usize])
            .filter(|&k| k != usize::MAX)
            .collect();
        touching.sort_unstable();
        touching.dedup();
        let inside = |k: &usize| sums[*k].0.iter().all(|&c| in_region[c as usize]);
        let (whole, partial): (Vec<usize>, Vec<usize>) = touching.into_iter().partition(inside);
        let in_whole = |c: u16| {
            let k = sum_of[c as usize];
            k != usize::MAX && whole.contains(&k)
        };
        // Innies: the cells no whole sum covers.
        let innies: Vec<u16> = region.iter().copied().filter(|&c| !in_whole(c)).collect();
        let inner_sum: i32 = whole.iter().map(|&k| sums[k].1).sum();
        let rest = target - inner_sum;
        // (terms, total, whether the cells are all different)
        let mut derived: Vec<(Terms, i32, bool)> = Vec::new();
        // A sum over cells that no other rule sums may be as long as a house.
        let limit = |cs: &mut dyn Iterator<Item = u16>| {
            let mut free = cs.filter(|&c| sum_of[c as usize] == usize::MAX);
            if free.next().is_some() { n } else { LIMIT }
        };
        let innie_limit = limit(&mut innies.iter().copied()).max(if is_house { n - 1 } else { 0 });
        if !whole.is_empty() && !innies.is_empty() && innies.len() <= innie_limit {
            let terms = innies.iter().map(|&c| (c, 1)).collect();
            derived.push((terms, rest, is_house));
        }
        if !partial.is_empty() {
            // Innies and outies: all the partial sums at once.
            let free: Vec<u16> = innies
                .iter()
                .copied()
                .filter(|&c| sum_of[c as usize] == usize::MAX)
                .collect();
            let outies: Vec<u16> = partial
                .iter()
                .flat_map(|&k| sums[k].0.iter().copied())
                .filter(|&c| !in_region[c as usize])
                .collect();
            if free.len() + outies.len() <= limit(&mut free.iter().copied()) {
                let all_sum: i32 = partial.iter().map(|&k| sums[k].1).sum();
                let mut terms: Terms = free.iter().map(|&c| (c, 1)).collect();
                terms.extend(outies.iter().map(|&c| (c, -1)));
                derived.push((terms, rest - all_sum, false));
            }
            // Innies and outies of the sums more than half inside: the
            // other sums' cells inside count as innies.
            let used: Vec<usize> = partial
                .iter()
                .copied()
                .filter(|&k| {
                    let cs = &sums[k].0;
                    2 * cs.iter().filter(|&&c| in_region[c as usize]).count() > cs.len()
                })
                .collect();
            if !used.is_empty() && used.len() < partial.len() {
                let ins: Vec<u16> = innies
                    .iter()
                    .copied()
                    .filter(|&c| !used.contains(&sum_of[c as usize]))
                    .collect();
                let outs: Vec<u16> = used
                    .iter()
                    .flat_map(|&k| sums[k].0.iter().copied())
                    .filter(|&c| !in_region[c as usize])
                    .collect();
                let size = ins.len() + outs.len();
                if (ins.len() <= 2 || outs.len() <= 2)
                    && size <= limit(&mut ins.iter().chain(&outs).copied())
                {
                    let used_sum: i32 = used.iter().map(|&k| sums[k].1).sum();
                    let mut terms: Terms = ins.iter().map(|&c| (c, 1)).collect();
                    terms.extend(outs.iter().map(|&c| (c, -1)));
                    derived.push((terms, rest - used_sum, false));
                }
            }
            // One outie at a time.
            for &k in &partial {
                let (cs, s) = &sums[k];
                let out: Vec<u16> = cs
                    .iter()
                    .copied()
                    .filter(|&c| !in_region[c as usize])
                    .collect();
                if out.len() != 1 {
                    continue;
                }
                let mut terms: Terms = innies
                    .iter()
                    .copied()
                    .filter(|c| !cs.contains(c))
                    .map(|c| (c, 1))
                    .collect();
                if terms.is_empty() || terms.len() + 1 > LIMIT {
                    continue;
                }
                terms.push((out[0], -1));
                derived.push((terms, rest - s, false));
            }
        }
        for (mut terms, mut rhs, distinct) in derived {
            // One sign per rule: more cells added than taken away.
            let minus = terms.iter().filter(|t| t.1 < 0).count();
            if 2 * minus > terms.len() {
                for t in &mut terms {
                    t.1 = -t.1;
                }
                rhs = -rhs;
            }
            let mut key = terms.clone();
            key.sort_unstable();
            if seen.contains(&key) {
                continue;
            }
            seen.push(key);
            let cs: Vec<u16> = terms.iter().map(|t| t.0).collect();
            if distinct && rhs > 0 && terms.iter().all(|t| t.1 == 1) {
                m.props.push(Prop::Cage(CageSum::new(cs, rhs as u32, n)));
            } else {
                m.props.push(Prop::Linear(Linear::new(terms, rhs)));
            }
        }
        for &c in &region {
            in_region[c as usize] = false;
        }
    }
}
