//! The two propagators many kinds share: a relation between two cells given
//! as a table, and a weighted sum equal to a constant.

use super::required::SeenBy;
use super::solver::{Contradiction, Dom, digits, max_digit, min_digit};

/// Two cells whose digits must be related: `b` may take the digits
/// `fwd[x]` when `a` is `x`, and `a` the digits `bwd[y]` when `b` is `y`
/// (index 0 unused). Propagation keeps each digit that has a partner
/// (arc consistency).
#[derive(Clone, Debug)]
pub(crate) struct Pair {
    pub(crate) a: u16,
    pub(crate) b: u16,
    fwd: [u16; 17],
    bwd: [u16; 17],
    /// Whether the partners of any digit between two others are among
    /// theirs, both ways (a < b; German whispers, whose partner sets shrink
    /// from both ends inwards): then the partners of a cell's candidates
    /// are those of its smallest and largest, two lookups instead of a loop
    /// over its digits.
    ends: bool,
}

impl Pair {
    /// The pair of cells `a`, `b` on a grid of side `n`, related by `rel`
    /// (called with the digits of `a` and `b`).
    pub(crate) fn new(a: u16, b: u16, n: usize, rel: impl Fn(u8, u8) -> bool) -> Pair {
        let mut fwd = [0u16; 17];
        let mut bwd = [0u16; 17];
        for x in 1..=n as u8 {
            for y in 1..=n as u8 {
                if rel(x, y) {
                    fwd[x as usize] |= 1 << (y - 1);
                    bwd[y as usize] |= 1 << (x - 1);
                }
            }
        }
        let ends_cover = |t: &[u16; 17]| {
            (1..=n).all(|x| (x + 2..=n).all(|z| (x + 1..z).all(|y| t[y] & !(t[x] | t[z]) == 0)))
        };
        let ends = ends_cover(&fwd) && ends_cover(&bwd);
        Pair {
            a,
            b,
            fwd,
            bwd,
            ends,
        }
    }

    pub(crate) fn propagate(&self, d: &mut Dom<'_>) -> Result<(), Contradiction> {
        if self.ends {
            let partners = |t: &[u16; 17], m: u16| {
                if m == 0 {
                    0
                } else {
                    t[min_digit(m) as usize] | t[max_digit(m) as usize]
                }
            };
            d.restrict(self.b, partners(&self.fwd, d.get(self.a)))?;
            return d.restrict(self.a, partners(&self.bwd, d.get(self.b)));
        }
        let mut allowed = 0;
        for x in digits(d.get(self.a)) {
            allowed |= self.fwd[x as usize];
        }
        d.restrict(self.b, allowed)?;
        let mut allowed = 0;
        for y in digits(d.get(self.b)) {
            allowed |= self.bwd[y as usize];
        }
        d.restrict(self.a, allowed)
    }

    pub(crate) fn holds(&self, v: &[u8]) -> bool {
        let (x, y) = (v[self.a as usize], v[self.b as usize]);
        self.fwd[x as usize] & (1 << (y - 1)) != 0
    }
}

/// `Σ coefficient · digit = rhs` over some cells (a cell may repeat its
/// digit elsewhere in the sum: arrows, little killers and plain sums allow
/// repeats the houses do not forbid). Propagation keeps, in each cell, the
/// digits that the other cells' ranges can complete to `rhs`.
///
/// Once the peers are known ([`Linear::finish`]), cells with one
/// coefficient that must all differ form a group, and a group's range is
/// bounded by distinct digits too: three cells of a row with candidates 1..9
/// make at least 1 + 2 + 3, not 3.
#[derive(Clone, Debug)]
pub(crate) struct Linear {
    pub(crate) terms: Vec<(u16, i32)>,
    pub(crate) rhs: i32,
    /// Groups of cells with one coefficient that all differ (singletons
    /// until [`Linear::finish`]).
    groups: Vec<(i32, Vec<u16>)>,
    /// Per term, the index of its group.
    group_of: Vec<u16>,
    /// The largest coefficient's size times (n - 1): a slack both ways of
    /// at least this leaves every cell all its digits (set by
    /// [`Linear::finish`]; until then never reached).
    span: i32,
    /// Per term, the cells outside the sum that see it (for the pair rule
    /// of [`Linear::few_open`]; empty until [`Linear::finish`]).
    seen_by: SeenBy,
}

/// The bounds of a group of distinct-digit cells' sum, and what they keep
/// once one cell is left out.
///
/// Three lower bounds, the largest kept: the cells' smallest candidates
/// added up; the smallest digits of the group's candidates, one per cell;
/// and, cell by cell, the smallest digit not yet taken that is at least the
/// cell's smallest candidate (distinct digits above per-cell floors; that
/// greedy set is the same in any order, so leaving one cell out removes one
/// of its digits, at most the largest). The upper bounds mirror them.
///
/// Kept in 16 bits each (sums of at most 16 digits up to 16, at most 256),
/// so a group's bounds are small to return and copy.
#[derive(Clone, Copy, Default)]
struct Bounds {
    lo: i16,
    hi: i16,
    count: u16,
    sum_min: i16,
    sum_max: i16,
    /// The smallest (largest) count − 1 digits of the union, added up.
    small_less: i16,
    large_less: i16,
    /// The greedy sums less their largest (smallest) digit.
    greedy_lo_less: i16,
    greedy_hi_less: i16,
    /// The union of the cells' candidates: with both slacks at least its
    /// largest digit less its smallest (times the coefficient), no cell of
    /// the group loses a digit (see [`Linear::propagate`]).
    union: u16,
}

impl Bounds {
    /// The group's range without the cell of candidates `m`: still valid
    /// bounds, computed in constant time.
    #[inline]
    fn without(&self, m: u16) -> (i32, i32) {
        if self.count <= 1 {
            return (0, 0);
        }
        let lo = (self.sum_min as i32 - min_digit(m) as i32)
            .max(self.small_less as i32)
            .max(self.greedy_lo_less as i32);
        let hi = (self.sum_max as i32 - max_digit(m) as i32)
            .min(self.large_less as i32)
            .min(self.greedy_hi_less as i32);
        (lo, hi)
    }
}

/// Per byte of a mask, its digits added up: `[0]` for bits 0–7 (digits
/// 1–8), `[1]` for bits 8–15 (digits 9–16).
static BYTE_DIGIT_SUMS: [[u8; 256]; 2] = {
    let mut t = [[0u8; 256]; 2];
    let mut b = 0;
    while b < 256 {
        let mut bit = 0;
        while bit < 8 {
            if b >> bit & 1 != 0 {
                t[0][b] += bit as u8 + 1;
                t[1][b] += bit as u8 + 9;
            }
            bit += 1;
        }
        b += 1;
    }
    t
};

/// Per byte of a mask (bit i for digit i + 1) and count k, its k smallest
/// digits added up (`[0]`) and its k largest (`[1]`); 0 past the byte's
/// own count.
static BYTE_EXTREME_SUMS: [[[u8; 9]; 256]; 2] = {
    let mut t = [[[0u8; 9]; 256]; 2];
    let mut b = 0;
    while b < 256 {
        let (mut k, mut bit) = (0, 0);
        while bit < 8 {
            if b >> bit & 1 != 0 {
                k += 1;
                t[0][b][k] = t[0][b][k - 1] + bit as u8 + 1;
            }
            bit += 1;
        }
        let (mut k, mut bit) = (0, 8);
        while bit > 0 {
            bit -= 1;
            if b >> bit & 1 != 0 {
                k += 1;
                t[1][b][k] = t[1][b][k - 1] + bit as u8 + 1;
            }
        }
        b += 1;
    }
    t
};

/// The `k` smallest digits of a mask added up (`k` at most its count), by
/// table lookups a byte at a time.
#[inline]
fn smallest_sum(m: u32, k: u32) -> i32 {
    let (low, high) = ((m & 0xFF) as usize, (m >> 8 & 0xFF) as usize);
    let in_low = super::solver::count(low as u16);
    if k <= in_low {
        BYTE_EXTREME_SUMS[0][low][k as usize] as i32
    } else {
        let more = (k - in_low).min(8);
        BYTE_DIGIT_SUMS[0][low] as i32
            + BYTE_EXTREME_SUMS[0][high][more as usize] as i32
            + 8 * more as i32
    }
}

/// The `k` largest digits of a mask added up (`k` at most its count).
#[inline]
fn largest_sum(m: u32, k: u32) -> i32 {
    let (low, high) = ((m & 0xFF) as usize, (m >> 8 & 0xFF) as usize);
    let in_high = super::solver::count(high as u16);
    if k <= in_high {
        BYTE_EXTREME_SUMS[1][high][k as usize] as i32 + 8 * k as i32
    } else {
        let more = (k - in_high).min(8);
        BYTE_DIGIT_SUMS[1][high] as i32 + BYTE_EXTREME_SUMS[1][low][more as usize] as i32
    }
}

/// The digits of a mask (bit d − 1 for digit d, d at most 16) added up, by
/// two table lookups.
#[inline]
pub(crate) fn digit_sum(m: u32) -> i32 {
    debug_assert!(m <= 0xFFFF);
    BYTE_DIGIT_SUMS[0][(m & 0xFF) as usize] as i32
        + BYTE_DIGIT_SUMS[1][(m >> 8 & 0xFF) as usize] as i32
}

/// Two cells of candidates `b` and `c` that take different digits adding
/// up to `r`: the digits of each that have a partner in the other, found
/// for all digits at once. Bit i − 1 of `c` reversed (digit i read as
/// 17 − i) lines up with bit r − i − 1 after a shift by 17 − r, so the
/// digits y of `b` with r − y in `c` are `b` and the shifted reversal.
#[inline]
pub(crate) fn pair_sums(b: u16, c: u16, r: i32) -> (u16, u16) {
    pair_sums_of(b, c, r, true)
}

/// [`pair_sums`], the two digits different if `distinct`, or allowed to
/// be equal (two cells of a sum that need not differ).
#[inline]
fn pair_sums_of(b: u16, c: u16, r: i32, distinct: bool) -> (u16, u16) {
    if !(2..=32).contains(&r) {
        return (0, 0);
    }
    let partners = |m: u16| {
        let rev = m.reverse_bits() as u32;
        let s = 17 - r;
        (if s >= 0 { rev >> s } else { rev << -s }) as u16
    };
    // A digit cannot partner itself: r/2 is left out when r is even.
    let half = if distinct && r % 2 == 0 {
        !(1u16 << (r / 2 - 1))
    } else {
        u16::MAX
    };
    (b & partners(c) & half, c & partners(b) & half)
}

/// Two cells of candidates `b` and `c`, coefficients `kb` and `kc` each
/// 1 or −1, with `kb·y + kc·z = r` (y ≠ z if `distinct`): the digits of
/// each that have a partner in the other, for all digits at once. Equal
/// signs make a sum ([`pair_sums_of`]); opposite signs a difference
/// y − z = ±r, whose partners are the other cell's digits shifted by r.
#[inline]
pub(crate) fn unit_pair(b: u16, c: u16, kb: i32, kc: i32, r: i32, distinct: bool) -> (u16, u16) {
    debug_assert!(kb.abs() == 1 && kc.abs() == 1);
    if kb == kc {
        return pair_sums_of(b, c, r * kb, distinct);
    }
    // y − z = diff
    let diff = r * kb;
    if diff.abs() > 15 || (distinct && diff == 0) {
        return (0, 0);
    }
    let shift = |m: u16, by: i32| {
        let m = m as u32;
        (if by >= 0 { m << by } else { m >> -by }) as u16
    };
    (b & shift(c, diff), c & shift(b, -diff))
}

/// The [`Bounds`] of a group, or `None` if its candidates cannot be told
/// apart. A lone cell's bounds (its smallest and largest candidates) are
/// worked out in line, the rest by [`many_bounds`].
#[inline]
fn group_bounds(d: &Dom<'_>, cells: &[u16]) -> Option<Bounds> {
    if let [c] = *cells {
        let m = d.get(c);
        let (lo, hi) = (min_digit(m) as i16, max_digit(m) as i16);
        if m == 0 {
            return None;
        }
        return Some(Bounds {
            lo,
            hi,
            count: 1,
            sum_min: lo,
            sum_max: hi,
            union: m,
            ..Bounds::default()
        });
    }
    many_bounds(d, cells)
}

/// The [`Bounds`] of a group of any size (see [`group_bounds`]).
#[inline(never)]
fn many_bounds(d: &Dom<'_>, cells: &[u16]) -> Option<Bounds> {
    let (mut lo, mut hi, mut union, mut count) = (0i32, 0i32, 0u16, 0u32);
    let (mut low_taken, mut high_taken) = (0u32, 0u32);
    for &c in cells {
        let m = d.get(c);
        let (a, b) = (min_digit(m) as u32, max_digit(m) as u32);
        lo += a as i32;
        hi += b as i32;
        union |= m;
        count += 1;
        // The least free digit >= a.
        let free = !low_taken & !((1u32 << (a - 1)) - 1);
        low_taken |= free & free.wrapping_neg();
        // The greatest free digit <= b.
        let free = !high_taken & ((1u32 << b) - 1);
        if free == 0 {
            return None;
        }
        high_taken |= 1 << (31 - free.leading_zeros());
    }
    let mut b = Bounds {
        lo: lo as i16,
        hi: hi as i16,
        count: count as u16,
        sum_min: lo as i16,
        sum_max: hi as i16,
        union,
        ..Bounds::default()
    };
    if count <= 1 {
        return Some(b);
    }
    if super::solver::count(union) < count || low_taken > 0xFFFF {
        return None;
    }
    let greedy_lo = digit_sum(low_taken);
    let greedy_hi = digit_sum(high_taken);
    b.greedy_lo_less = (greedy_lo - (32 - low_taken.leading_zeros()) as i32) as i16;
    b.greedy_hi_less = (greedy_hi - (high_taken.trailing_zeros() + 1) as i32) as i16;
    // The count − 1 and count smallest digits of the union, and as many
    // largest.
    let small_less = smallest_sum(union as u32, count - 1);
    b.small_less = small_less as i16;
    let small = smallest_sum(union as u32, count);
    let large = largest_sum(union as u32, count);
    b.large_less = largest_sum(union as u32, count - 1) as i16;
    b.lo = lo.max(greedy_lo).max(small) as i16;
    b.hi = hi.min(greedy_hi).min(large) as i16;
    Some(b)
}

impl Linear {
    pub(crate) fn new(terms: Vec<(u16, i32)>, rhs: i32) -> Linear {
        let groups = terms.iter().map(|&(c, k)| (k, vec![c])).collect();
        let group_of = (0..terms.len() as u16).collect();
        Linear {
            terms,
            rhs,
            groups,
            group_of,
            span: i32::MAX,
            seen_by: SeenBy::default(),
        }
    }

    /// Group the cells that must differ, by coefficient. Larger groups
    /// bound the sum more tightly (k distinct digits make at least
    /// 1 + 2 + … + k), so several greedy groupings are tried and the one
    /// with the largest sum of squared group sizes is kept (the measure the
    /// Interactive Sudoku Solver uses for the same choice): each cell joins
    /// the first group whose cells it all sees, taking the cells in the
    /// sum's order, in row-major order and in column-major order (`n`: the
    /// grid's side); and house by house, the house holding the most
    /// ungrouped cells of one coefficient first.
    pub(crate) fn finish(&mut self, peers: &[Vec<u16>], houses: &[Vec<u16>], n: usize) {
        let first_fit = |order: &[(u16, i32)]| {
            let mut groups: Vec<(i32, Vec<u16>)> = Vec::new();
            for &(c, k) in order {
                let fits = groups.iter_mut().find(|(gk, g)| {
                    *gk == k && g.iter().all(|x| peers[c as usize].binary_search(x).is_ok())
                });
                match fits {
                    Some((_, g)) => g.push(c),
                    None => groups.push((k, vec![c])),
                }
            }
            groups
        };
        let score = |g: &[(i32, Vec<u16>)]| g.iter().map(|(_, c)| c.len() * c.len()).sum::<usize>();
        let mut best = first_fit(&self.terms);
        let mut rows = self.terms.clone();
        rows.sort_unstable_by_key(|t| t.0);
        let mut cols = self.terms.clone();
        cols.sort_unstable_by_key(|t| (t.0 as usize % n.max(1), t.0));
        let mut by_house: Vec<(u16, i32)> = Vec::with_capacity(self.terms.len());
        let mut left = self.terms.clone();
        loop {
            let mut top: Option<(usize, i32, usize)> = None;
            for (h, house) in houses.iter().enumerate() {
                for &(_, k) in &left {
                    let count = left
                        .iter()
                        .filter(|t| t.1 == k && house.contains(&t.0))
                        .count();
                    if count >= 2 && top.is_none_or(|t| count > t.2) {
                        top = Some((h, k, count));
                    }
                }
            }
            let Some((h, k, _)) = top else { break };
            let (taken, rest): (Vec<_>, Vec<_>) = left
                .into_iter()
                .partition(|t| t.1 == k && houses[h].contains(&t.0));
            by_house.extend(taken);
            left = rest;
        }
        by_house.extend(left);
        for order in [rows, cols, by_house] {
            let g = first_fit(&order);
            if score(&g) > score(&best) {
                best = g;
            }
        }
        self.groups = best;
        let cells: Vec<u16> = self.terms.iter().map(|t| t.0).collect();
        self.seen_by = SeenBy::new(&cells, peers);
        let widest = self.terms.iter().map(|t| t.1.abs()).max().unwrap_or(0);
        self.span = widest * (n as i32 - 1).max(0);
        self.group_of = self
            .terms
            .iter()
            .map(|&(c, k)| {
                let g = self
                    .groups
                    .iter()
                    .position(|(gk, g)| *gk == k && g.contains(&c));
                g.unwrap_or(0) as u16
            })
            .collect();
    }

    /// Whether all cells have coefficient 1 and must all differ: then the
    /// sum is a killer cage.
    pub(crate) fn is_cage(&self) -> bool {
        self.groups.len() == 1 && self.groups[0].0 == 1 && self.rhs > 0
    }

    /// A group's contribution range, scaled by its coefficient.
    fn scaled(k: i32, range: (i32, i32)) -> (i32, i32) {
        let (a, b) = (range.0 * k, range.1 * k);
        if k >= 0 { (a, b) } else { (b, a) }
    }

    pub(crate) fn propagate(&self, d: &mut Dom<'_>) -> Result<(), Contradiction> {
        // The first groups' bounds are kept for the second pass (the groups
        // share no cell, so it would find them unchanged); the others are
        // recomputed there.
        const KEPT: usize = 8;
        let mut kept = [Bounds::default(); KEPT];
        let (mut lo, mut hi) = (0i32, 0i32);
        for (g, (k, cells)) in self.groups.iter().enumerate() {
            let b = group_bounds(d, cells).ok_or(Contradiction)?;
            if let Some(slot) = kept.get_mut(g) {
                *slot = b;
            }
            let r = Self::scaled(*k, (b.lo as i32, b.hi as i32));
            lo += r.0;
            hi += r.1;
        }
        if self.rhs < lo || self.rhs > hi {
            return Err(Contradiction);
        }
        let (slack_lo, slack_hi) = (self.rhs - lo, hi - self.rhs);
        // Leaving a cell out of its group lowers the group's upper bound by
        // at most n and its lower bound by at least 1 (each of the three
        // bounds moves so), so a cell can lose a digit only where a slack
        // is under |k|·(n − 1): with both slacks at least that, the second
        // pass would keep every digit, and only the exact step for few open
        // cells can narrow.
        if slack_lo.min(slack_hi) >= self.span {
            return self.few_open(d);
        }
        for (g, (k, cells)) in self.groups.iter().enumerate() {
            // A lone cell whose range is narrower than both slacks loses
            // nothing: the others can make up any of its digits.
            if let [c] = cells[..] {
                let m = d.get(c);
                let span = (max_digit(m) as i32 - min_digit(m) as i32) * k.abs();
                if span <= slack_lo && span <= slack_hi {
                    continue;
                }
            }
            let b = match kept.get(g) {
                Some(&b) => b,
                None => group_bounds(d, cells).ok_or(Contradiction)?,
            };
            // Nor does a group whose union is narrower than both slacks:
            // leaving a cell of candidates m out lowers the group's lower
            // bound by at least the union's smallest digit (each of the
            // three bounds drops by a digit of the union: m's smallest, the
            // count-th smallest, a greedy digit) and its upper bound by at
            // most the union's largest, so the cell keeps every digit from
            // its smallest to its largest.
            let width = max_digit(b.union) as i32 - min_digit(b.union) as i32;
            if width * k.abs() <= slack_lo.min(slack_hi) {
                continue;
            }
            let (glo, ghi) = Self::scaled(*k, (b.lo as i32, b.hi as i32));
            for &c in cells {
                let m = d.get(c);
                let without = Self::scaled(*k, b.without(m));
                // The other cells make others_lo ..= others_hi.
                let (others_lo, others_hi) = (lo - glo + without.0, hi - ghi + without.1);
                let (need_lo, need_hi) = (self.rhs - others_hi, self.rhs - others_lo);
                let mut keep = 0u16;
                for x in digits(m) {
                    let t = x as i32 * k;
                    if t >= need_lo && t <= need_hi {
                        keep |= 1 << (x - 1);
                    }
                }
                d.restrict(c, keep)?;
            }
        }
        self.few_open(d)
    }

    /// Two or three cells left open: keep exactly the digits that the
    /// others can complete to the sum (cells of one group taking different
    /// digits), as the Interactive Sudoku Solver does for sums with unit
    /// coefficients; bounds alone keep a digit whose partners are missing
    /// from the wrong cell. Two cells of one sign left with the same two
    /// digits hold one each, so the cells outside the sum that see both
    /// lose those digits.
    fn few_open(&self, d: &mut Dom<'_>) -> Result<(), Contradiction> {
        let (mut at, mut k, mut rest) = ([0usize; 3], 0, self.rhs);
        for (i, &(c, coef)) in self.terms.iter().enumerate() {
            let m = d.get(c);
            if m & (m - 1) != 0 {
                // A cell whose coefficients cancel (an arrow's end listed
                // again in its middle) is left to the bounds.
                if k == 3 || coef == 0 {
                    return Ok(());
                }
                at[k] = i;
                k += 1;
            } else {
                rest -= coef * min_digit(m) as i32;
            }
        }
        if k < 2 {
            return Ok(());
        }
        let cell = |j: usize| self.terms[at[j]].0;
        let coef = |j: usize| self.terms[at[j]].1;
        let same = |i: usize, j: usize| self.group_of[at[i]] == self.group_of[at[j]];
        // The digit x with coef · x = t, if it is a candidate of m.
        // (Unit coefficients, the common case, skip the division.)
        let solve = |t: i32, coef: i32, m: u16| -> Option<u8> {
            let x = match coef {
                1 => t,
                -1 => -t,
                _ if t % coef == 0 => t / coef,
                _ => return None,
            };
            ((1..=16).contains(&x) && m & (1 << (x - 1)) != 0).then_some(x as u8)
        };
        let mut support = [0u16; 3];
        let (a, b) = (d.get(cell(0)), d.get(cell(1)));
        let unit = |j: usize| coef(j).abs() == 1;
        if k == 2 && unit(0) && unit(1) {
            (support[0], support[1]) = unit_pair(a, b, coef(0), coef(1), rest, same(0, 1));
        } else if k == 2 {
            for x in digits(a) {
                if let Some(y) = solve(rest - coef(0) * x as i32, coef(1), b) {
                    if !(same(0, 1) && x == y) {
                        support[0] |= 1 << (x - 1);
                        support[1] |= 1 << (y - 1);
                    }
                }
            }
        }
        if k == 2 {
            // Two cells of one sign left with the same two digits x and y:
            // x + y is the rest (x + x is not, or y would have no partner),
            // so one takes x and the other y, and cells seeing both lose
            // them (the Interactive Sudoku Solver's sum handler does so).
            if support[0] == support[1]
                && support[0].count_ones() == 2
                && coef(0) == coef(1)
                && coef(0).abs() == 1
            {
                d.restrict(cell(0), support[0])?;
                d.restrict(cell(1), support[1])?;
                return self.seen_by.exclude_pair(d, at[0], at[1], support[0]);
            }
        } else if unit(0) && unit(1) && unit(2) {
            // Each digit x of the first cell, the other two paired for all
            // their digits at once (x taken out of a cell that must differ
            // from the first).
            let c = d.get(cell(2));
            for x in digits(a) {
                let bit = 1 << (x - 1);
                let b = if same(0, 1) { b & !bit } else { b };
                let c = if same(0, 2) { c & !bit } else { c };
                let t = rest - coef(0) * x as i32;
                let (ys, zs) = unit_pair(b, c, coef(1), coef(2), t, same(1, 2));
                if ys != 0 {
                    support[0] |= bit;
                    support[1] |= ys;
                    support[2] |= zs;
                }
            }
        } else {
            let c = d.get(cell(2));
            for x in digits(a) {
                for y in digits(b) {
                    if same(0, 1) && x == y {
                        continue;
                    }
                    let t = rest - coef(0) * x as i32 - coef(1) * y as i32;
                    if let Some(z) = solve(t, coef(2), c) {
                        let clash = (same(0, 2) && z == x) || (same(1, 2) && z == y);
                        if !clash {
                            support[0] |= 1 << (x - 1);
                            support[1] |= 1 << (y - 1);
                            support[2] |= 1 << (z - 1);
                        }
                    }
                }
            }
        }
        for (j, &s) in support.iter().enumerate().take(k) {
            d.restrict(cell(j), s)?;
        }
        Ok(())
    }

    pub(crate) fn holds(&self, v: &[u8]) -> bool {
        self.terms
            .iter()
            .map(|&(c, k)| v[c as usize] as i32 * k)
            .sum::<i32>()
            == self.rhs
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Random weighted sums over cells of one row (so cells of one
    /// coefficient must differ), random candidates around a planted
    /// solution: propagation never removes a planted digit, whether the
    /// slacks are wide (the per-cell pass skipped) or narrow.
    #[test]
    fn two_cells_left_with_one_pair_take_it_from_their_common_peers() {
        // r1c1 + r1c2 + r2c2 = 24 with r1c1 placed as 9: r1c2 and r2c2,
        // both {7, 8}, take 7 and 8 between them; the cells that see both
        // (the rest of box 1 and of column 2) lose 7 and 8, a cell that
        // sees one of them keeps them.
        let n = 9usize;
        let shape = super::super::Shape::new(9).expect("9x9");
        let houses = shape.houses();
        let mut peers = vec![Vec::new(); n * n];
        for h in &houses {
            for &a in h {
                for &b in h {
                    if a != b && !peers[a as usize].contains(&b) {
                        peers[a as usize].push(b);
                    }
                }
            }
        }
        for p in &mut peers {
            p.sort_unstable();
        }
        let (a, b, c) = (0u16, 1u16, 10u16); // r1c1, r1c2, r2c2
        let mut lin = Linear::new(vec![(a, 1), (b, 1), (c, 1)], 24);
        lin.finish(&peers, &houses, n);
        let mut masks = vec![0x1ffu16; n * n];
        masks[a as usize] = 1 << 8;
        masks[b as usize] = 0b0_1100_0000;
        masks[c as usize] = 0b0_1100_0000;
        let mut changed = Vec::new();
        Dom::on_slice(&mut masks, &mut changed, |d| lin.propagate(d)).expect("consistent");
        for cell in [2u16, 9, 11, 18, 19, 20] {
            assert_eq!(masks[cell as usize] & 0b0_1100_0000, 0, "cell {cell}");
        }
        assert_eq!(masks[37] & 0b0_1100_0000, 0); // r5c2
        assert_eq!(masks[4], 0x1ff); // r1c5 sees r1c2 only
        assert_eq!(masks[b as usize], 0b0_1100_0000);
    }

    /// Pairs read through their cells' two ends (a < b, a ≤ b, German
    /// whispers) keep exactly what the loop over every digit keeps, on
    /// random candidates of grids of side 6, 9 and 16; relations without
    /// that property (consecutive, equal, sum ten) keep the loop.
    #[test]
    fn pairs_read_by_their_ends_keep_what_the_loop_keeps() {
        let mut next = crate::variant::xorshift(0x853c_49e6_748f_ea9bu64);
        type Rel = fn(u8, u8) -> bool;
        let rels: [(Rel, bool); 6] = [
            (|x, y| x < y, true),
            (|x, y| x <= y, true),
            (|x, y| x.abs_diff(y) >= 5, true),
            (|x, y| x.abs_diff(y) == 1, false),
            (|x, y| x == y, false),
            (|x, y| x + y == 10, false),
        ];
        for n in [6usize, 9, 16] {
            let all = ((1u32 << n) - 1) as u16;
            for (rel, ends) in rels {
                let pair = Pair::new(0, 1, n, rel);
                assert_eq!(pair.ends, ends, "{n}");
                for _ in 0..2000 {
                    let (a, b) = (next() as u16 & all, next() as u16 & all);
                    let mut want_b = 0;
                    for x in digits(a) {
                        for y in digits(b) {
                            if rel(x, y) {
                                want_b |= 1 << (y - 1);
                            }
                        }
                    }
                    let mut want_a = 0;
                    for x in digits(a) {
                        for y in digits(want_b) {
                            if rel(x, y) {
                                want_a |= 1 << (x - 1);
                            }
                        }
                    }
                    let mut masks = vec![a, b];
                    let mut changed = Vec::new();
                    let got = Dom::on_slice(&mut masks, &mut changed, |d| pair.propagate(d));
                    if want_b == 0 || want_a == 0 || a == 0 || b == 0 {
                        assert!(got.is_err() || a == 0 && b == 0, "{a:#x} {b:#x}");
                    } else {
                        got.expect("partners left");
                        assert_eq!(masks, [want_a, want_b], "{n} {a:#x} {b:#x}");
                    }
                }
            }
        }
    }

    /// The shifted-reversal pair rule keeps exactly the digits a loop
    /// over all pairs keeps, for every sum and random candidates of up to
    /// 16 digits; and the table digit sums match adding the digits up.
    #[test]
    fn pair_sums_and_digit_sums_match_the_plain_loops() {
        let mut next = crate::variant::xorshift(0x9e37_79b9_7f4a_7c15u64);
        let mut found = 0;
        for _ in 0..3000 {
            let (b, c) = (next() as u16, next() as u16);
            for r in -2..=36 {
                let (mut sb, mut sc) = (0u16, 0u16);
                for y in digits(b) {
                    for z in digits(c) {
                        if y != z && y as i32 + z as i32 == r {
                            sb |= 1 << (y - 1);
                            sc |= 1 << (z - 1);
                        }
                    }
                }
                assert_eq!(pair_sums(b, c, r), (sb, sc), "{b:#x} {c:#x} {r}");
                found += (sb != 0) as u32;
            }
            let m = b as u32;
            assert_eq!(digit_sum(m), digits(b).map(i32::from).sum::<i32>());
        }
        assert!(found > 1000);
    }

    /// The shifted-bit pair rule for coefficients ±1 keeps exactly the
    /// digits a loop over all pairs keeps: every sign, sums and differences
    /// in and out of range, the two digits distinct or not, random
    /// candidates of up to 16 digits.
    #[test]
    fn unit_pairs_match_the_plain_loop() {
        let mut next = crate::variant::xorshift(0x853c_49e6_748f_ea9bu64);
        let mut found = [0u32; 2];
        for _ in 0..1500 {
            let (b, c) = (next() as u16, next() as u16);
            for (kb, kc) in [(1, 1), (-1, -1), (1, -1), (-1, 1)] {
                for r in -34..=34 {
                    for distinct in [false, true] {
                        let (mut sb, mut sc) = (0u16, 0u16);
                        for y in digits(b) {
                            for z in digits(c) {
                                let ok = kb * y as i32 + kc * z as i32 == r;
                                if ok && !(distinct && y == z) {
                                    sb |= 1 << (y - 1);
                                    sc |= 1 << (z - 1);
                                }
                            }
                        }
                        let got = unit_pair(b, c, kb, kc, r, distinct);
                        assert_eq!(got, (sb, sc), "{b:#x} {c:#x} {kb} {kc} {r} {distinct}");
                        found[(kb == kc) as usize] += (sb != 0) as u32;
                    }
                }
            }
        }
        assert!(found[0] > 1000 && found[1] > 1000, "{found:?}");
    }

    /// The table sums of the k smallest and k largest digits are those of
    /// taking the digits one at a time, for every k and random masks of up
    /// to 16 digits.
    #[test]
    fn extreme_sums_match_the_sorted_digits() {
        let mut next = crate::variant::xorshift(0x1234_5678_9abc_def1);
        let mut checked = 0;
        for _ in 0..4000 {
            let seed = next();
            let m = (seed as u16) & if seed >> 40 & 1 == 0 { 0x1FF } else { 0xFFFF };
            let all: Vec<i32> = digits(m).map(i32::from).collect();
            for k in 0..=all.len() {
                let small: i32 = all[..k].iter().sum();
                let large: i32 = all[all.len() - k..].iter().sum();
                assert_eq!(smallest_sum(m as u32, k as u32), small, "{m:#x} {k}");
                assert_eq!(largest_sum(m as u32, k as u32), large, "{m:#x} {k}");
                checked += 1;
            }
        }
        assert!(checked > 20000, "{checked}");
    }

    /// The group bounds' sums of the smallest and largest digits of the
    /// union, read from bit masks, are those of taking the digits one at a
    /// time: random groups of 2 to 9 cells of up to 16 digits.
    #[test]
    fn group_bounds_take_the_smallest_and_largest_digits_of_the_union() {
        let mut next = crate::variant::xorshift(0x2545_f491_4f6c_dd1du64);
        let (mut told, mut untold) = (0, 0);
        for _ in 0..5000 {
            let count = 2 + (next() % 8) as usize;
            let mut masks = [0u16; super::super::solver::MAX_CELLS];
            for m in &mut masks[..count] {
                *m = next() as u16 | 1 << (next() % 16);
            }
            // Sparse candidates now and then, so some unions are too small.
            if next() % 3 == 0 {
                for m in &mut masks[..count] {
                    *m &= 0x0F0F;
                    *m |= 1 << (next() % 4);
                }
            }
            let cells: Vec<u16> = (0..count as u16).collect();
            let mut changed = super::super::solver::Changed::new();
            let d = Dom::new(&mut masks, &mut changed);
            let union = cells.iter().fold(0u16, |a, &c| a | d.get(c));
            let all: Vec<i32> = digits(union).map(i32::from).collect();
            let Some(b) = group_bounds(&d, &cells) else {
                assert!(all.len() < count, "{union:#x} {count}");
                untold += 1;
                continue;
            };
            told += 1;
            let small: i32 = all[..count].iter().sum();
            let large: i32 = all[all.len() - count..].iter().sum();
            assert_eq!(b.small_less as i32, small - all[count - 1]);
            assert_eq!(b.large_less as i32, large - all[all.len() - count]);
            assert!(b.lo as i32 >= small && b.hi as i32 <= large);
        }
        assert!(told > 1000 && untold > 100, "{told} {untold}");
    }

    #[test]
    fn planted_digits_survive_propagation() {
        let n = 9usize;
        let row: Vec<u16> = (0..n as u16).collect();
        let mut peers = vec![Vec::new(); n * n];
        for &c in &row {
            peers[c as usize] = row.iter().copied().filter(|&p| p != c).collect();
        }
        let houses = vec![row.clone()];
        let mut random = crate::variant::xorshift(0x2545_f491_4f6c_dd1du64);
        let mut next = |m: u64| random() % m;
        let (mut unchanged, mut narrowed) = (0, 0);
        for _ in 0..4000 {
            // A permutation of 1..=9 on the row.
            let mut perm: Vec<u8> = (1..=n as u8).collect();
            for i in (1..n).rev() {
                perm.swap(i, next(i as u64 + 1) as usize);
            }
            let len = 2 + next(6) as usize;
            let coefs = [-2, -1, 1, 1, 2, 3];
            let terms: Vec<(u16, i32)> = (0..len)
                .map(|i| (i as u16, coefs[next(coefs.len() as u64) as usize]))
                .collect();
            let rhs = terms
                .iter()
                .map(|&(c, k)| k * perm[c as usize] as i32)
                .sum();
            let mut lin = Linear::new(terms.clone(), rhs);
            lin.finish(&peers, &houses, n);
            let mut masks = vec![0x1ffu16; n * n];
            for &(c, _) in &terms {
                let planted = 1u16 << (perm[c as usize] - 1);
                masks[c as usize] = planted | next(1 << n) as u16 & 0x1ff;
            }
            let before = masks.clone();
            let mut changed = Vec::new();
            Dom::on_slice(&mut masks, &mut changed, |d| lin.propagate(d))
                .expect("the planted solution stands");
            // Every cell of the row, in the sum or not (the pair rule
            // narrows the others), keeps its planted digit.
            for &c in &row {
                assert_ne!(masks[c as usize] & 1 << (perm[c as usize] - 1), 0);
            }
            if masks == before {
                unchanged += 1;
            } else {
                narrowed += 1;
            }
        }
        // Both kinds of state were met: nothing to narrow, and some.
        assert!(unchanged > 100 && narrowed > 100, "{unchanged} {narrowed}");
    }
}
