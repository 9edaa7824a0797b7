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
//! The regions are the houses, bands of k consecutive rows or columns, and
//! the unions of the first k boxes in box order (boxes 1 and 2; 1 to 4, a
//! band with the box below its corner; …), the super-regions the
//! Interactive Sudoku Solver's optimiser grows box by box.
//!
//! - **Innies.** The cells of a region that no sum lying wholly inside it
//!   covers add up to the rest of the total. Inside one house they are also
//!   all different: a hidden killer cage.
//! - **Innies and outies.** Where the sums that reach into the region stick
//!   out of it, the cells inside none of them minus the cells sticking out
//!   make the total minus all those sums. When those sums cover the whole
//!   region, the cells sticking out make a plain sum of their own (the
//!   "outies"), kept at any length if it is narrow: its range more than
//!   four times its degrees of freedom (see [`narrow`]); a little killer of
//!   49 and one of 47 crossing a diagonal tell a lot about their twelve
//!   cells off it.
//! - **One outie.** A sum that sticks out of a region by one cell makes an
//!   arrow-like rule of its own: the region's cells outside it and outside
//!   the whole sums, minus the cell sticking out, equal the total minus the
//!   whole sums and it.
//!
//! - **Combined sums.** Two sums whose cells see each other a lot add up to
//!   a sum whose digits are bounded more tightly than each alone: a long
//!   little killer of 49 allows a wide range of digits; four of them that
//!   fill most of the grid's rows between them leave almost no freedom. See
//!   [`combined_sums`].
//! - **Covered houses.** A house covered whole by the sums reaching into it
//!   and by other houses filling its gaps leaves the covered cells outside
//!   it a known total, less any house lying wholly among them: a long sum,
//!   kept when narrow. Little killers crossing a diagonal, with the boxes
//!   between them, make such sums. See [`house_cover_sums`].
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
/// total).
fn unit_sums(m: &Model) -> Vec<(Vec<u16>, i32)> {
    let mut out = Vec::new();
    for p in &m.props {
        let (cs, total): (Vec<u16>, i32) = match p {
            Prop::Cage(c) => (c.cells.clone(), c.sum() as i32),
            Prop::Linear(l) if l.terms.iter().all(|t| t.1 == 1) => {
                (l.terms.iter().map(|t| t.0).collect(), l.rhs)
            }
            _ => continue,
        };
        if !cs.is_empty() {
            out.push((cs, total));
        }
    }
    out
}

/// The first of any two sums that share a cell, dropping the second.
fn disjoint(sums: &[(Vec<u16>, i32)], cells: usize) -> Vec<(Vec<u16>, i32)> {
    let mut taken = vec![false; cells];
    let mut out = Vec::new();
    for (cs, total) in sums {
        if cs.iter().any(|&c| taken[c as usize]) {
            continue;
        }
        for &c in cs {
            taken[c as usize] = true;
        }
        out.push((cs.clone(), *total));
    }
    out
}

/// Add the derived sums of the module docs to the model.
pub(crate) fn derive_sums(shape: Shape, m: &mut Model) {
    let n = shape.side();
    let cells = shape.cells();
    let all = unit_sums(m);
    if all.is_empty() {
        return;
    }
    combined_sums(&all, n, cells, m);
    let sums = disjoint(&all, cells);
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
    // Unions of the first k boxes in box order (k = 2 to n − 1), as the
    // Interactive Sudoku Solver's optimiser grows its super-regions: boxes
    // 1 and 2, boxes 1 to 4 (a band and the box under its corner)… A union
    // that is a band of rows is there already.
    if let Some((_, w)) = shape.boxes() {
        let per_band = n / w;
        let mut union: Vec<u16> = Vec::with_capacity(cells);
        for k in 1..n {
            union.extend(
                (0..cells as u16).filter(|&c| shape.box_of(shape.cell(c as usize)) == Some(k - 1)),
            );
            if k >= 2 && k % per_band != 0 {
                let mut cs = union.clone();
                cs.sort_unstable();
                regions.push((cs, k as i32 * total, false));
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
            let all_sum: i32 = partial.iter().map(|&k| sums[k].1).sum();
            // Only outies (the sums cover the region): a plain sum, kept at
            // any length when narrow.
            let only_outies = free.is_empty() && narrow(&outies, all_sum - rest, &m.houses, n);
            if only_outies || free.len() + outies.len() <= limit(&mut free.iter().copied()) {
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
    for (cs, rhs) in house_cover_sums(&all, &m.houses, n, cells) {
        let terms: Terms = cs.iter().map(|&c| (c, 1)).collect();
        if seen.contains(&terms) {
            continue;
        }
        seen.push(terms.clone());
        m.props.push(Prop::Linear(Linear::new(terms, rhs)));
    }
}

/// Sums over the cells that a house's sums and the houses filling its gaps
/// cover outside it (the "45 rule" taken past innies and outies; the
/// Interactive Sudoku Solver's optimiser derives the same kind of sum).
///
/// For each house H: the sums that reach into H, taken greedily so that no
/// two share a cell, cover part of it; other houses fill the rest of H, each
/// one only if it shares no cell with what is covered so far and meets H in
/// two or more cells, all of them uncovered (a house meeting H in one cell
/// is most often a line crossing it, and tells little). When H is covered
/// whole, the covered cells outside H add up to the sums and the filling
/// houses less H's total; every house lying wholly among those cells is
/// taken away with its total. The sum is kept when it is narrow (see
/// [`narrow`]) or impossible: a little killer of 47 and one of 49 along a
/// diagonal, crossing the other diagonal, give a 12-cell sum of 81 whose
/// digits range over 24 to 96.
fn house_cover_sums(
    sums: &[(Vec<u16>, i32)],
    houses: &[Vec<u16>],
    n: usize,
    cells: usize,
) -> Vec<(Vec<u16>, i32)> {
    let house_total = (n * (n + 1) / 2) as i32;
    let mut out: Vec<(Vec<u16>, i32)> = Vec::new();
    let mut covered = vec![false; cells];
    let mut in_base = vec![false; cells];
    for base in houses {
        covered.iter_mut().for_each(|c| *c = false);
        for &c in base {
            in_base[c as usize] = true;
        }
        let mut total = 0;
        let mut any = false;
        for (cs, s) in sums {
            if cs.iter().any(|&c| in_base[c as usize]) && !cs.iter().any(|&c| covered[c as usize]) {
                for &c in cs {
                    covered[c as usize] = true;
                }
                total += s;
                any = true;
            }
        }
        let mut open = base.iter().filter(|&&c| !covered[c as usize]).count();
        if any && open > 0 {
            for gap in houses {
                if std::ptr::eq(gap, base) || gap.iter().any(|&c| covered[c as usize]) {
                    continue;
                }
                // Every cell of `gap` is uncovered: its cells in the base
                // are all gap cells.
                let meet = gap.iter().filter(|&&c| in_base[c as usize]).count();
                if meet < 2 {
                    continue;
                }
                for &c in gap {
                    covered[c as usize] = true;
                }
                total += house_total;
                open -= meet;
                if open == 0 {
                    break;
                }
            }
        }
        for &c in base {
            in_base[c as usize] = false;
            covered[c as usize] = false;
        }
        if !any || open > 0 {
            continue;
        }
        total -= house_total;
        // Houses lying wholly among the cells left come out with their
        // totals.
        for h in houses {
            if h.iter().all(|&c| covered[c as usize]) {
                for &c in h {
                    covered[c as usize] = false;
                }
                total -= house_total;
            }
        }
        let rest: Vec<u16> = (0..cells as u16).filter(|&c| covered[c as usize]).collect();
        if rest.is_empty() || out.iter().any(|(cs, _)| *cs == rest) {
            continue;
        }
        let groups = house_groups(&rest, houses);
        let keep = match freedom(&groups, total, n) {
            None => true,
            Some((range, dof)) => range > 4 * dof,
        };
        if keep {
            out.push((rest, total));
        }
    }
    out
}

/// Cells grouped into sets that must differ: house by house, the house
/// holding the most cells left first; the cells no house pairs up, alone.
fn house_groups(cells: &[u16], houses: &[Vec<u16>]) -> Vec<Vec<u16>> {
    let mut groups: Vec<Vec<u16>> = Vec::new();
    let mut left = cells.to_vec();
    while left.len() > 1 {
        let best = houses
            .iter()
            .map(|h| left.iter().filter(|c| h.contains(c)).count())
            .enumerate()
            .max_by_key(|&(_, k)| k);
        let Some((h, _)) = best.filter(|&(_, k)| k >= 2) else {
            break;
        };
        let (g, rest): (Vec<u16>, Vec<u16>) = left.iter().partition(|c| houses[h].contains(c));
        groups.push(g);
        left = rest;
    }
    groups.extend(left.into_iter().map(|c| vec![c]));
    groups
}

/// How free a sum of `total` over `groups` of distinct digits is: the width
/// of its range (a group of k cells ranges over k(n − k) values) and its
/// degrees of freedom (how far the total lies from the nearer end of the
/// range); `None` when the total is out of range.
fn freedom(groups: &[Vec<u16>], total: i32, n: usize) -> Option<(i64, i64)> {
    let n = n as i64;
    let (mut lo, mut range) = (0i64, 0i64);
    for g in groups {
        let k = g.len() as i64;
        lo += k * (k + 1) / 2;
        range += k * (n - k);
    }
    let total = total as i64;
    if total < lo || total > lo + range {
        return None;
    }
    Some((range, (total - lo).min(lo + range - total)))
}

/// Whether a long sum of distinct-digit groups is worth a propagator: its
/// range is more than four times its degrees of freedom (the Interactive
/// Sudoku Solver's test for the sums it derives from regions).
fn narrow(cells: &[u16], total: i32, houses: &[Vec<u16>], n: usize) -> bool {
    let groups = house_groups(cells, houses);
    freedom(&groups, total, n).is_some_and(|(range, dof)| range > 4 * dof)
}

/// A set of cells with a known sum, for [`combined_sums`].
struct Record {
    cells: Vec<u16>,
    total: i32,
    original: bool,
    score: i64,
}

/// Merge sums into larger ones where that narrows them, the Interactive
/// Sudoku Solver's rule for combined sums: a sum's freedom is measured by
/// grouping its cells into sets that must differ (greedily, in row-major
/// order); a group of k cells ranges over k(n − k) values, and the sum's
/// degrees of freedom are how far its total lies from the nearer end of
/// its range. The score adds, per group, its range less those degrees of
/// freedom. Two sums that share no cell and whose cells see each other (at
/// least six cells of the smaller see a cell of the larger) merge when the
/// merged score beats each of theirs or their total; the best merge goes
/// first, and merged sums may merge again. Each merged sum that scores
/// above zero becomes a propagator.
fn combined_sums(sums: &[(Vec<u16>, i32)], n: usize, cells: usize, m: &mut Model) {
    const MIN_SEEN: usize = 6;
    const MAX_RECORDS: usize = 64;
    if sums.len() < 2 || sums.len() > MAX_RECORDS {
        return;
    }
    // Which cells see which, as bit sets.
    let words = cells.div_ceil(64);
    let mut sees = vec![0u64; cells * words];
    for &(a, b) in &m.distinct {
        let (a, b) = (a as usize, b as usize);
        sees[a * words + b / 64] |= 1 << (b % 64);
        sees[b * words + a / 64] |= 1 << (a % 64);
    }
    let see = |a: u16, b: u16| sees[a as usize * words + b as usize / 64] & (1 << (b % 64)) != 0;
    let houses = &m.houses;
    let record = |mut cs: Vec<u16>, total: i32, original: bool| -> Option<Record> {
        cs.sort_unstable();
        let groups = house_groups(&cs, houses);
        let (_, dof) = freedom(&groups, total, n)?;
        let score = groups
            .iter()
            .map(|g| g.len() as i64 * (n as i64 - g.len() as i64) - dof)
            .sum();
        Some(Record {
            cells: cs,
            total,
            original,
            score,
        })
    };
    let related = |a: &Record, b: &Record| {
        let (small, big) = if a.cells.len() < b.cells.len() {
            (a, b)
        } else {
            (b, a)
        };
        if small.cells.len() < MIN_SEEN || a.cells.iter().any(|c| b.cells.contains(c)) {
            return false;
        }
        small
            .cells
            .iter()
            .filter(|&&c| big.cells.iter().any(|&x| see(c, x)))
            .count()
            >= MIN_SEEN
    };
    let merge = |a: &Record, b: &Record| -> Option<Record> {
        let cs = [&a.cells[..], &b.cells[..]].concat();
        let r = record(cs, a.total + b.total, false)?;
        let better = (r.score > a.score && r.score > b.score) || r.score > a.score + b.score;
        better.then_some(r)
    };
    let mut records: Vec<Option<Record>> = sums
        .iter()
        .map(|(cs, t)| record(cs.clone(), *t, true))
        .collect();
    // The possible merges (a, b, merged), each pair evaluated once; a merge
    // retires both records and adds the pairs of the new one.
    let mut merges: Vec<(usize, usize, Record)> = Vec::new();
    let pairs_with = |k: usize, records: &[Option<Record>], merges: &mut Vec<_>| {
        let Some(a) = &records[k] else { return };
        for (i, b) in records.iter().enumerate() {
            if let Some(b) = b.as_ref().filter(|_| i != k) {
                if related(a, b) {
                    if let Some(r) = merge(a, b) {
                        merges.push((i, k, r));
                    }
                }
            }
        }
    };
    for k in 0..records.len() {
        let mut found = Vec::new();
        pairs_with(k, &records[..=k], &mut found);
        merges.extend(found);
    }
    while let Some(best) = (0..merges.len()).max_by_key(|&i| (merges[i].2.score, usize::MAX - i)) {
        let (a, b, r) = merges.swap_remove(best);
        records[a] = None;
        records[b] = None;
        merges.retain(|m| m.0 != a && m.0 != b && m.1 != a && m.1 != b);
        records.push(Some(r));
        pairs_with(records.len() - 1, &records, &mut merges);
    }
    let active = records.into_iter().flatten();
    for r in active {
        if !r.original && r.score > 0 {
            let terms = r.cells.iter().map(|&c| (c, 1)).collect();
            m.props.push(Prop::Linear(Linear::new(terms, r.total)));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::Puzzle;
    use super::super::prim::Linear;
    use super::super::solver::Prop;

    /// The unit-coefficient sums the derivation added, as (sorted cells,
    /// total).
    fn derived_sums(text: &str) -> Vec<(Vec<u16>, i32)> {
        let puzzle: Puzzle = text.parse().expect("a puzzle");
        let m = puzzle.lower().expect("lowered");
        m.props[m.derived.clone()]
            .iter()
            .filter_map(|p| match p {
                Prop::Linear(Linear { terms, rhs, .. }) if terms.iter().all(|t| t.1 == 1) => {
                    let mut cs: Vec<u16> = terms.iter().map(|t| t.0).collect();
                    cs.sort_unstable();
                    Some((cs, *rhs))
                }
                _ => None,
            })
            .collect()
    }

    /// ISS's Hailstone little killer: the little killers crossing the
    /// anti-diagonal, with the boxes filling its gaps, cover it, and the
    /// covered cells outside it (less the whole houses among them) make a
    /// known total: r2c4 r3c4 r3c5 r4c2 r4c3 r5c3 r5c7 r6c7 r6c8 r7c5 r7c6
    /// r8c6 add up to 81. Every derived sum holds in the solution.
    #[test]
    fn a_covered_diagonal_gives_the_cells_outside_it_a_sum() {
        let hailstone = ".Cage~14~R5C3~R5C4~R6C4.Cage~19~R6C6~R6C5~R7C5.Cage~14~R4C4~R4C5~R3C5\
            .Cage~14~R4C6~R5C6~R5C7.Diagonal~1.Diagonal~-1.LittleKiller~47~R3C1\
            .LittleKiller~49~R2C1.LittleKiller~30~R8C9.LittleKiller~45~R7C9\
            .LittleKiller~43~R1C7.LittleKiller~44~R1C8.LittleKiller~34~R9C2\
            .LittleKiller~52~R9C3";
        let sums = derived_sums(hailstone);
        let want: Vec<u16> = vec![12, 21, 22, 28, 29, 38, 42, 51, 52, 58, 59, 68];
        assert!(
            sums.iter().any(|(cs, t)| *cs == want && *t == 81),
            "no sum of 81 over {want:?} in {sums:?}"
        );
        // The derived sums hold in the puzzle's solution.
        let puzzle: Puzzle = hailstone.parse().expect("a puzzle");
        let mut solver = super::super::VariantSolver::new(&puzzle).expect("solver");
        let (answer, _) = solver.uniqueness(&Default::default());
        let crate::Uniqueness::Unique(grid) = answer else {
            panic!("Hailstone has one solution: {answer:?}");
        };
        for (cs, t) in &sums {
            let got: i32 = cs.iter().map(|&c| grid[c as usize] as i32).sum();
            assert_eq!(got, *t, "derived sum over {cs:?}");
        }
    }

    /// A killer (ISS's TAREK_ALL#2): boxes 1 to 7 taken together, with the
    /// cages more than half inside them, leave r7c4 + r7c8 − r9c3 = −2
    /// (neither a house nor a band gives it; it takes r7c4 and r7c8 to 6
    /// at most and r9c3 to 5 at least). Every derived sum holds in the
    /// solution.
    #[test]
    fn a_union_of_boxes_gives_innies_and_outies() {
        let tarek = ".Cage~16~R1C1~R1C2~R1C3~R2C1.Cage~23~R1C4~R1C5~R2C3~R2C4\
            .Cage~19~R1C6~R1C7~R2C5~R2C6.Cage~17~R1C8~R1C9~R2C8~R2C9\
            .Cage~24~R2C2~R3C1~R3C2~R4C1.Cage~20~R2C7~R3C7~R3C8.Cage~16~R3C3~R4C2~R4C3\
            .Cage~18~R3C4~R3C5~R4C4.Cage~10~R3C6~R4C6~R4C7.Cage~21~R3C9~R4C8~R4C9~R5C8\
            .Cage~14~R4C5~R5C5~R5C6.Cage~15~R5C1~R6C1~R7C1.Cage~15~R5C2~R5C3~R6C2\
            .Cage~14~R5C4~R6C4~R6C5.Cage~12~R5C7~R6C6~R6C7.Cage~18~R5C9~R6C8~R6C9~R7C8\
            .Cage~14~R6C3~R7C3~R7C4.Cage~12~R7C2~R8C2~R8C3.Cage~16~R7C5~R8C4~R8C5\
            .Cage~17~R7C6~R7C7~R8C6.Cage~26~R7C9~R8C9~R9C8~R9C9.Cage~15~R8C1~R9C1~R9C2\
            .Cage~14~R8C7~R8C8~R9C6~R9C7.Cage~19~R9C3~R9C4~R9C5";
        let puzzle: Puzzle = tarek.parse().expect("a puzzle");
        let m = puzzle.lower().expect("lowered");
        let sums: Vec<(Vec<(u16, i32)>, i32)> = m.props[m.derived.clone()]
            .iter()
            .filter_map(|p| match p {
                Prop::Linear(Linear { terms, rhs, .. }) => {
                    let mut ts = terms.clone();
                    ts.sort_unstable();
                    Some((ts, *rhs))
                }
                _ => None,
            })
            .collect();
        let want = vec![(57, 1), (61, 1), (74, -1)];
        assert!(
            sums.iter().any(|(ts, t)| *ts == want && *t == -2),
            "no r7c4 + r7c8 - r9c3 = -2 in {sums:?}"
        );
        let mut solver = super::super::VariantSolver::new(&puzzle).expect("solver");
        let (answer, _) = solver.uniqueness(&Default::default());
        let crate::Uniqueness::Unique(grid) = answer else {
            panic!("the killer has one solution: {answer:?}");
        };
        for (ts, t) in &sums {
            let got: i32 = ts.iter().map(|&(c, k)| grid[c as usize] as i32 * k).sum();
            assert_eq!(got, *t, "derived sum {ts:?}");
        }
    }

    /// Without sums reaching into a house, nothing is derived from it.
    #[test]
    fn no_sums_no_derived_sums() {
        assert!(derived_sums(".Diagonal~1.~R1C1_5").is_empty());
    }
}
