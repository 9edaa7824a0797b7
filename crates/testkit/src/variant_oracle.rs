//! An oracle for variant puzzles ([`sudoku_core::variant`]) that shares no
//! code with the solver's propagators.
//!
//! Each kind's rule is written again here from its module's documentation,
//! as a test of finished digits: [`rules_hold`] checks a full grid and names
//! the first broken rule, [`count_solutions`] counts solutions by plain
//! backtracking. The search fills the cells row-major, takes each cell's
//! candidates from its givens and from the rows, columns, boxes and extra
//! regions (diagonals, windoku windows, disjoint groups, jigsaw regions)
//! only, and tests each rule as soon as all the cells it reads are filled.
//! The one look-ahead is on sums (cages, plain sums, little killers): the
//! cells filled so far, plus at least 1 and at most n for each cell still
//! empty, must be able to make the total. That is enough for 4×4 and 6×6
//! grids, and for 9×9 puzzles with enough givens; it knows no technique.
//!
//! Only the puzzle's public data is read ([`Puzzle`], [`Constraint`] and
//! [`Shape`]): how ISS names the cells of a little killer or a sandwich line
//! is the parser's business, and the oracle takes the cells it lists.

use sudoku_core::CellName;
use sudoku_core::generate::SplitMix64;
use sudoku_core::variant::{Constraint, Puzzle, Shape};

/// A rule's test of the digits (row-major): `Err(why)` when broken.
type Test = Box<dyn Fn(&[u8]) -> Result<(), String>>;

/// One rule over a few cells: tested when they are all filled.
struct Rule {
    /// The cells the test reads (row-major indices).
    cells: Vec<usize>,
    /// The constraint, as ISS writes it, for messages.
    name: String,
    /// `Err(why)` when the digits break the rule.
    test: Test,
}

/// A group of n cells holding every digit once.
struct House {
    name: String,
    cells: Vec<usize>,
}

/// A puzzle's rules, ready to test.
struct Rules {
    shape: Shape,
    candidates: Vec<u16>,
    houses: Vec<House>,
    rules: Vec<Rule>,
}

/// Whether a full grid (values 1..=n, row-major) keeps every rule of the
/// puzzle: its givens and candidates, rows, columns, boxes, and each
/// constraint. `Err` names the first broken rule and the cells involved.
pub fn rules_hold(puzzle: &Puzzle, values: &[u8]) -> Result<(), String> {
    let r = Rules::of(puzzle)?;
    let n = r.shape.side();
    if values.len() != r.shape.cells() {
        return Err(format!(
            "{} values for the {} cells of a {} grid",
            values.len(),
            r.shape.cells(),
            r.shape
        ));
    }
    for (i, &v) in values.iter().enumerate() {
        let cell = r.shape.cell(i);
        if v == 0 || v as usize > n {
            return Err(format!("{cell} holds {v}, not a digit 1 to {n}"));
        }
        if r.candidates[i] & bit(v) == 0 {
            return Err(format!("{cell} holds {v}, not one of its givens"));
        }
    }
    for h in &r.houses {
        let mut seen = 0u32;
        for &c in &h.cells {
            let b = 1u32 << values[c];
            if seen & b != 0 {
                return Err(format!("{}: {} twice", h.name, values[c]));
            }
            seen |= b;
        }
    }
    for rule in &r.rules {
        (rule.test)(values).map_err(|e| format!("{}: {e}", rule.name))?;
    }
    Ok(())
}

/// The number of solutions, counting up to `up_to` (0 when a rule cannot
/// hold on this grid at all, such as windoku off a 9×9 grid).
pub fn count_solutions(puzzle: &Puzzle, up_to: u64) -> u64 {
    let mut count = 0;
    if up_to == 0 {
        return 0;
    }
    if let Ok(r) = Rules::of(puzzle) {
        r.search(None, u64::MAX, &mut |_| {
            count += 1;
            count < up_to
        });
    }
    count
}

/// The solutions, up to `up_to` of them, in the order the search meets them.
pub fn solutions(puzzle: &Puzzle, up_to: usize) -> Vec<Vec<u8>> {
    let mut found = Vec::new();
    if up_to == 0 {
        return found;
    }
    if let Ok(r) = Rules::of(puzzle) {
        r.search(None, u64::MAX, &mut |v| {
            found.push(v.to_vec());
            found.len() < up_to
        });
    }
    found
}

/// A solution found by the same search with the digits of each cell tried
/// in random order: a random grid that keeps the puzzle's rules, or `None`
/// when there is none or `max_nodes` cells were filled first.
pub fn random_solution(puzzle: &Puzzle, rng: &mut SplitMix64, max_nodes: u64) -> Option<Vec<u8>> {
    let r = Rules::of(puzzle).ok()?;
    let mut found = None;
    r.search(Some(rng), max_nodes, &mut |v| {
        found = Some(v.to_vec());
        false
    });
    found
}

/// Bit of digit `d` in a candidate mask.
fn bit(d: u8) -> u16 {
    1 << (d - 1)
}

fn sum_of(v: &[u8], cells: &[usize]) -> u32 {
    cells.iter().map(|&c| v[c] as u32).sum()
}

impl Rules {
    fn of(p: &Puzzle) -> Result<Rules, String> {
        let shape = p.shape;
        if p.candidates.len() != shape.cells() {
            return Err(format!(
                "{} candidate masks for a {shape} grid",
                p.candidates.len()
            ));
        }
        let mut r = Rules {
            shape,
            candidates: p.candidates.clone(),
            houses: Vec::new(),
            rules: Vec::new(),
        };
        r.classic_houses();
        for c in &p.constraints {
            r.add(c, p)?;
        }
        Ok(r)
    }

    fn n(&self) -> usize {
        self.shape.side()
    }

    fn at(&self, row: usize, col: usize) -> usize {
        row * self.n() + col
    }

    fn index(&self, c: &CellName) -> usize {
        self.shape.index(*c)
    }

    fn indices(&self, cells: &[CellName]) -> Vec<usize> {
        cells.iter().map(|c| self.index(c)).collect()
    }

    /// Rows, columns, and boxes when the shape has them.
    fn classic_houses(&mut self) {
        let n = self.n();
        for r in 0..n {
            let cells = (0..n).map(|c| self.at(r, c)).collect();
            self.house(format!("row {}", r + 1), cells);
        }
        for c in 0..n {
            let cells = (0..n).map(|r| self.at(r, c)).collect();
            self.house(format!("column {}", c + 1), cells);
        }
        if let Some((h, w)) = self.shape.boxes() {
            for top in (0..n).step_by(h) {
                for left in (0..n).step_by(w) {
                    let mut cells = Vec::new();
                    for r in top..top + h {
                        for c in left..left + w {
                            cells.push(self.at(r, c));
                        }
                    }
                    self.house(format!("box at r{}c{}", top + 1, left + 1), cells);
                }
            }
        }
    }

    fn house(&mut self, name: String, cells: Vec<usize>) {
        self.houses.push(House { name, cells });
    }

    fn rule(
        &mut self,
        name: &str,
        cells: Vec<usize>,
        test: impl Fn(&[u8]) -> Result<(), String> + 'static,
    ) {
        self.rules.push(Rule {
            cells,
            name: name.to_string(),
            test: Box::new(test),
        });
    }

    /// A rule between two cells, from a relation on their digits.
    fn pair(&mut self, name: &str, a: usize, b: usize, what: &'static str, ok: fn(u8, u8) -> bool) {
        let shape = self.shape;
        self.rule(name, vec![a, b], move |v| {
            if ok(v[a], v[b]) {
                Ok(())
            } else {
                Err(format!(
                    "{} = {} and {} = {}: {what}",
                    shape.cell(a),
                    v[a],
                    shape.cell(b),
                    v[b]
                ))
            }
        });
    }

    /// Every pair of the cells differs.
    fn all_different(&mut self, name: &str, cells: &[usize]) {
        for (i, &a) in cells.iter().enumerate() {
            for &b in &cells[i + 1..] {
                self.pair(name, a, b, "the same digit twice", |x, y| x != y);
            }
        }
    }

    /// The cells (a cell listed twice counts twice) add up to `total`; and,
    /// as soon as some are filled, they leave the rest a total they can
    /// make (at least 1, at most n each).
    fn sum(&mut self, name: &str, cells: Vec<usize>, total: u32) {
        let n = self.n() as u32;
        let mut order = cells.clone();
        order.sort_unstable();
        order.dedup();
        for k in 1..order.len() {
            let filled = order[..k].to_vec();
            // Cells of the sum not yet filled, with their multiplicity.
            let rest = cells.iter().filter(|c| !filled.contains(c)).count() as u32;
            let listed: Vec<usize> = cells
                .iter()
                .copied()
                .filter(|c| filled.contains(c))
                .collect();
            self.rule(name, filled, move |v| {
                let so_far = sum_of(v, &listed);
                if so_far + rest <= total && so_far + rest * n >= total {
                    Ok(())
                } else {
                    Err(format!(
                        "{so_far} so far and {rest} cells to come cannot make {total}"
                    ))
                }
            });
        }
        self.rule(name, cells.clone(), move |v| {
            let s = sum_of(v, &cells);
            if s == total {
                Ok(())
            } else {
                Err(format!("the digits sum to {s}, not {total}"))
            }
        });
    }

    /// The rule of one constraint.
    fn add(&mut self, c: &Constraint, p: &Puzzle) -> Result<(), String> {
        let name = c.to_string();
        let name = name.as_str();
        let n = self.n();
        let shape = self.shape;
        match c {
            Constraint::Diagonal(d) => {
                // ╲ from r1c1, or ╱ from rnc1.
                let cells = (0..n)
                    .map(|i| self.at(i, if d.anti { n - 1 - i } else { i }))
                    .collect();
                self.house(name.to_string(), cells);
            }
            Constraint::Windoku => {
                if n != 9 {
                    return Err(format!("{name}: windoku needs a 9x9 grid"));
                }
                for top in [1, 5] {
                    for left in [1, 5] {
                        let cells = (0..9).map(|i| self.at(top + i / 3, left + i % 3)).collect();
                        self.house(format!("{name} window at r{}c{}", top + 1, left + 1), cells);
                    }
                }
            }
            Constraint::DisjointSets => {
                let Some((h, w)) = shape.boxes() else {
                    return Err(format!("{name}: disjoint groups need boxes"));
                };
                for dr in 0..h {
                    for dc in 0..w {
                        let mut cells = Vec::new();
                        for top in (0..n).step_by(h) {
                            for left in (0..n).step_by(w) {
                                cells.push(self.at(top + dr, left + dc));
                            }
                        }
                        self.house(format!("{name} group {}", dr * w + dc + 1), cells);
                    }
                }
            }
            Constraint::Jigsaw(j) => {
                if j.regions.len() != shape.cells() {
                    return Err(format!("{name}: layout of {} cells", j.regions.len()));
                }
                let mut ids: Vec<u8> = j.regions.clone();
                ids.sort_unstable();
                ids.dedup();
                for id in ids {
                    let cells: Vec<usize> =
                        (0..shape.cells()).filter(|&i| j.regions[i] == id).collect();
                    if cells.len() != n {
                        return Err(format!("{name}: region {id} has {} cells", cells.len()));
                    }
                    self.house(format!("jigsaw region {id}"), cells);
                }
            }
            Constraint::Cage(cage) => {
                let cells = self.indices(&cage.cells);
                // a cell listed twice counts twice in the sum only
                let mut distinct = cells.clone();
                distinct.sort_unstable();
                distinct.dedup();
                self.all_different(name, &distinct);
                if let Some(total) = cage.sum {
                    self.sum(name, cells, total);
                }
            }
            Constraint::Sum(s) => {
                let cells = self.indices(&s.cells);
                self.sum(name, cells, s.sum);
            }
            Constraint::LittleKiller(l) => {
                let cells = self.indices(&l.cells);
                self.sum(name, cells, l.sum);
            }
            Constraint::Sandwich(s) => {
                let line = self.indices(&s.line.cells(shape));
                let total = s.sum;
                let top = n as u8;
                self.rule(name, line.clone(), move |v| {
                    let at = |d: u8| line.iter().position(|&c| v[c] == d);
                    let (Some(i), Some(j)) = (at(1), at(top)) else {
                        return Err(format!("no 1 or no {top} on the line"));
                    };
                    let (a, b) = (i.min(j), i.max(j));
                    let between = sum_of(v, &line[a + 1..b]);
                    if between == total {
                        Ok(())
                    } else {
                        Err(format!(
                            "{between} between the 1 and the {top}, not {total}"
                        ))
                    }
                });
            }
            Constraint::Thermo(line) => {
                for w in self.indices(&line.cells).windows(2) {
                    self.pair(name, w[0], w[1], "not increasing", |a, b| a < b);
                }
            }
            Constraint::SlowThermo(line) => {
                for w in self.indices(&line.cells).windows(2) {
                    self.pair(name, w[0], w[1], "decreasing", |a, b| a <= b);
                }
            }
            Constraint::Arrow(a) => {
                if a.pill == 0 || a.cells.len() <= a.pill {
                    return Err(format!("{name}: no circle or no arrow"));
                }
                // The circle's digits read as one number, in grid order.
                let mut circle = self.indices(&a.cells[..a.pill]);
                circle.sort_unstable();
                let arrow = self.indices(&a.cells[a.pill..]);
                let mut cells = circle.clone();
                cells.extend(&arrow);
                self.rule(name, cells, move |v| {
                    let number = circle.iter().fold(0u32, |x, &c| x * 10 + v[c] as u32);
                    let s = sum_of(v, &arrow);
                    if number == s {
                        Ok(())
                    } else {
                        Err(format!("the circle reads {number}, the arrow sums to {s}"))
                    }
                });
            }
            Constraint::DoubleArrow(line) => {
                let cells = self.indices(&line.cells);
                if cells.len() < 3 {
                    return Err(format!("{name}: fewer than 3 cells"));
                }
                self.rule(name, cells.clone(), move |v| {
                    let k = cells.len();
                    let ends = v[cells[0]] as u32 + v[cells[k - 1]] as u32;
                    let middle = sum_of(v, &cells[1..k - 1]);
                    if ends == middle {
                        Ok(())
                    } else {
                        Err(format!("the ends make {ends}, the middle {middle}"))
                    }
                });
            }
            Constraint::WhiteDot(line)
            | Constraint::BlackDot(line)
            | Constraint::X(line)
            | Constraint::V(line) => {
                let (what, ok): (&'static str, fn(u8, u8) -> bool) = match c {
                    Constraint::WhiteDot(_) => ("not consecutive", consecutive),
                    Constraint::BlackDot(_) => ("neither is double the other", double),
                    Constraint::X(_) => ("sum is not 10", |a, b| a + b == 10),
                    _ => ("sum is not 5", |a, b| a + b == 5),
                };
                for (a, b) in self.neighbours_among(&line.cells) {
                    self.pair(name, a, b, what, ok);
                }
            }
            Constraint::StrictKropki => {
                let marked = self.marked(p, |c| {
                    matches!(c, Constraint::WhiteDot(_) | Constraint::BlackDot(_))
                });
                for (a, b) in self.unmarked(&marked) {
                    self.pair(name, a, b, "consecutive or double without a dot", |x, y| {
                        !consecutive(x, y) && !double(x, y)
                    });
                }
            }
            Constraint::StrictXv => {
                let marked = self.marked(p, |c| matches!(c, Constraint::X(_) | Constraint::V(_)));
                for (a, b) in self.unmarked(&marked) {
                    self.pair(name, a, b, "sum 5 or 10 without an X or V", |x, y| {
                        x + y != 5 && x + y != 10
                    });
                }
            }
            Constraint::AntiKnight => {
                self.moves(name, &[(1, 2), (2, 1), (1, -2), (2, -1)]);
            }
            Constraint::AntiKing => {
                self.moves(name, &[(0, 1), (1, 0), (1, 1), (1, -1)]);
            }
            Constraint::AntiConsecutive => {
                for (a, b) in self.unmarked(&[]) {
                    self.pair(name, a, b, "consecutive neighbours", |x, y| {
                        !consecutive(x, y)
                    });
                }
            }
            Constraint::Odd(cells) | Constraint::Even(cells) => {
                let (want, other) = match c {
                    Constraint::Odd(_) => (1, "even"),
                    _ => (0, "odd"),
                };
                for c in self.indices(&cells.cells) {
                    self.rule(name, vec![c], move |v| {
                        if v[c] % 2 == want {
                            Ok(())
                        } else {
                            Err(format!("{} = {} is {other}", shape.cell(c), v[c]))
                        }
                    });
                }
            }
            Constraint::Renban(line) => {
                let cells = self.indices(&line.cells);
                self.all_different(name, &cells);
                self.rule(name, cells.clone(), move |v| {
                    let mut ds: Vec<u8> = cells.iter().map(|&c| v[c]).collect();
                    ds.sort_unstable();
                    if ds.windows(2).all(|w| w[1] == w[0] + 1) {
                        Ok(())
                    } else {
                        Err(format!("{ds:?} is not a run of consecutive digits"))
                    }
                });
            }
            Constraint::Whisper(w) => {
                let least = w.difference.unwrap_or(5);
                let cells = self.indices(&w.cells);
                for pair in cells.windows(2) {
                    let (a, b) = (pair[0], pair[1]);
                    self.rule(name, vec![a, b], move |v| {
                        if v[a].abs_diff(v[b]) >= least {
                            Ok(())
                        } else {
                            Err(format!(
                                "{} = {} and {} = {} differ by less than {least}",
                                shape.cell(a),
                                v[a],
                                shape.cell(b),
                                v[b]
                            ))
                        }
                    });
                }
            }
            Constraint::Palindrome(line) => {
                let cells = self.indices(&line.cells);
                let k = cells.len();
                for i in 0..k / 2 {
                    self.pair(name, cells[i], cells[k - 1 - i], "not mirrored", |a, b| {
                        a == b
                    });
                }
            }
            Constraint::Between(line) => {
                let cells = self.indices(&line.cells);
                let k = cells.len();
                if k < 2 {
                    return Err(format!("{name}: fewer than 2 cells"));
                }
                let (a, b) = (cells[0], cells[k - 1]);
                for &c in &cells[1..k - 1] {
                    self.rule(name, vec![a, b, c], move |v| {
                        let (lo, hi) = (v[a].min(v[b]), v[a].max(v[b]));
                        if lo < v[c] && v[c] < hi {
                            Ok(())
                        } else {
                            Err(format!(
                                "{} = {} is not strictly between {lo} and {hi}",
                                shape.cell(c),
                                v[c]
                            ))
                        }
                    });
                }
            }
            Constraint::Quad(q) => {
                let (r, c) = (q.cell.row as usize, q.cell.col as usize);
                if r + 1 >= n || c + 1 >= n {
                    return Err(format!("{name}: no 2x2 block"));
                }
                let cells = vec![
                    self.at(r, c),
                    self.at(r, c + 1),
                    self.at(r + 1, c),
                    self.at(r + 1, c + 1),
                ];
                let digits = q.digits.clone();
                self.rule(name, cells.clone(), move |v| {
                    for &d in &digits {
                        let want = digits.iter().filter(|&&x| x == d).count();
                        let have = cells.iter().filter(|&&c| v[c] == d).count();
                        if have < want {
                            return Err(format!("{d} {have} times, listed {want}"));
                        }
                    }
                    Ok(())
                });
            }
            Constraint::GreaterThan(line) => {
                let cells = self.indices(&line.cells);
                for (i, &a) in cells.iter().enumerate() {
                    for &b in &cells[i + 1..] {
                        if shape.cell(a).touches(shape.cell(b)) {
                            self.pair(name, a, b, "not greater", |x, y| x > y);
                        }
                    }
                }
            }
            Constraint::AllDifferent(line) => {
                let mut cells = self.indices(&line.cells);
                cells.sort_unstable();
                cells.dedup();
                self.all_different(name, &cells);
            }
            Constraint::Lockout(l) => {
                let cells = self.indices(&l.cells);
                let (a, b) = (cells[0], cells[cells.len() - 1]);
                let least = l.difference;
                self.rule(name, vec![a, b], move |v| {
                    if v[a].abs_diff(v[b]) >= least {
                        Ok(())
                    } else {
                        Err(format!("the diamonds differ by less than {least}"))
                    }
                });
                for &c in &cells[1..cells.len() - 1] {
                    self.rule(name, vec![a, b, c], move |v| {
                        let (lo, hi) = (v[a].min(v[b]), v[a].max(v[b]));
                        if v[c] < lo || v[c] > hi {
                            Ok(())
                        } else {
                            Err(format!(
                                "{} = {} lies within {lo}..={hi}",
                                shape.cell(c),
                                v[c]
                            ))
                        }
                    });
                }
            }
            Constraint::Zipper(line) => {
                let cells = self.indices(&line.cells);
                self.rule(name, cells.clone(), move |v| {
                    let k = cells.len();
                    let sums: Vec<u32> = (0..k / 2)
                        .map(|i| v[cells[i]] as u32 + v[cells[k - 1 - i]] as u32)
                        .collect();
                    let target = if k % 2 == 1 {
                        Some(v[cells[k / 2]] as u32)
                    } else {
                        sums.first().copied()
                    };
                    match target {
                        Some(t) if sums.iter().any(|&s| s != t) => {
                            Err(format!("pair sums {sums:?}, not all {t}"))
                        }
                        _ => Ok(()),
                    }
                });
            }
            Constraint::XSum(clue) | Constraint::Skyscraper(clue) => {
                let line = self.indices(&clue.line.cells(shape));
                let sky = matches!(c, Constraint::Skyscraper(_));
                let mut ends = Vec::new();
                if let Some(x) = clue.front {
                    ends.push((x, line.clone()));
                }
                if let Some(x) = clue.back {
                    ends.push((x, line.iter().rev().copied().collect::<Vec<_>>()));
                }
                for (want, cells) in ends {
                    self.rule(name, cells.clone(), move |v| {
                        let got = if sky {
                            let mut top = 0;
                            let mut seen = 0;
                            for &c in &cells {
                                if v[c] > top {
                                    top = v[c];
                                    seen += 1;
                                }
                            }
                            seen
                        } else {
                            let x = v[cells[0]] as usize;
                            cells[..x.min(cells.len())]
                                .iter()
                                .map(|&c| v[c] as u32)
                                .sum()
                        };
                        if got == want {
                            Ok(())
                        } else {
                            Err(format!("{got}, not {want}"))
                        }
                    });
                }
            }
            Constraint::RegionSumLine(line) => {
                // Boxes cut the line; on a grid without boxes, the (last)
                // jigsaw's regions; with neither, the line is one piece.
                let region = |i: usize| -> usize {
                    if let Some((h, w)) = shape.boxes() {
                        let (r, c) = (i / n, i % n);
                        return r / h * (n / w) + c / w;
                    }
                    p.constraints
                        .iter()
                        .rev()
                        .find_map(|c| match c {
                            Constraint::Jigsaw(j) => j.regions.get(i).map(|&x| x as usize),
                            _ => None,
                        })
                        .unwrap_or(0)
                };
                let mut pieces: Vec<Vec<usize>> = Vec::new();
                let mut last = None;
                for c in self.indices(&line.cells) {
                    if last != Some(region(c)) {
                        pieces.push(Vec::new());
                        last = Some(region(c));
                    }
                    pieces.last_mut().expect("a piece").push(c);
                }
                for other in pieces.iter().skip(1) {
                    let (first, other) = (pieces[0].clone(), other.clone());
                    let mut cells = first.clone();
                    cells.extend(&other);
                    self.rule(name, cells, move |v| {
                        let (x, y) = (sum_of(v, &first), sum_of(v, &other));
                        if x == y {
                            Ok(())
                        } else {
                            Err(format!("pieces sum to {x} and {y}"))
                        }
                    });
                }
            }
        }
        Ok(())
    }

    /// The neighbouring pairs (low, high index) the chosen constraints mark.
    fn marked(&self, p: &Puzzle, pick: fn(&Constraint) -> bool) -> Vec<(usize, usize)> {
        let mut out = Vec::new();
        for c in p.constraints.iter().filter(|c| pick(c)) {
            let cells = match c {
                Constraint::WhiteDot(x)
                | Constraint::BlackDot(x)
                | Constraint::X(x)
                | Constraint::V(x) => &x.cells,
                _ => continue,
            };
            out.extend(self.neighbours_among(cells));
        }
        out
    }

    /// Every two orthogonal neighbours among the cells (low, high index):
    /// a dot or an XV on a list of cells marks each such pair.
    fn neighbours_among(&self, cells: &[CellName]) -> Vec<(usize, usize)> {
        let mut out = Vec::new();
        for (i, a) in cells.iter().enumerate() {
            for b in &cells[i + 1..] {
                if a.row.abs_diff(b.row) + a.col.abs_diff(b.col) == 1 {
                    let (x, y) = (self.index(a), self.index(b));
                    out.push((x.min(y), x.max(y)));
                }
            }
        }
        out.sort_unstable();
        out.dedup();
        out
    }

    /// Orthogonal neighbours (low, high index) not in `marked`.
    fn unmarked(&self, marked: &[(usize, usize)]) -> Vec<(usize, usize)> {
        let n = self.n();
        let mut out = Vec::new();
        for r in 0..n {
            for c in 0..n {
                let i = self.at(r, c);
                if c + 1 < n {
                    out.push((i, i + 1));
                }
                if r + 1 < n {
                    out.push((i, i + n));
                }
            }
        }
        out.retain(|p| !marked.contains(p));
        out
    }

    /// Cells a move apart differ (each move and its reverse).
    fn moves(&mut self, name: &str, steps: &[(i32, i32)]) {
        let n = self.n() as i32;
        for r in 0..n {
            for c in 0..n {
                for &(dr, dc) in steps {
                    let (r2, c2) = (r + dr, c + dc);
                    if (0..n).contains(&r2) && (0..n).contains(&c2) {
                        let (a, b) = (
                            self.at(r as usize, c as usize),
                            self.at(r2 as usize, c2 as usize),
                        );
                        self.pair(name, a, b, "the same digit a move apart", |x, y| x != y);
                    }
                }
            }
        }
    }

    /// Backtracking over the cells in row-major order; `found` gets each
    /// solution and returns whether to go on.
    fn search(
        &self,
        rng: Option<&mut SplitMix64>,
        max_nodes: u64,
        found: &mut dyn FnMut(&[u8]) -> bool,
    ) {
        let cells = self.shape.cells();
        let mut houses_of = vec![Vec::new(); cells];
        for (h, house) in self.houses.iter().enumerate() {
            for &c in &house.cells {
                houses_of[c].push(h);
            }
        }
        // Each rule is tested when its last cell (row-major) is filled.
        let mut due = vec![Vec::new(); cells];
        for (i, rule) in self.rules.iter().enumerate() {
            if let Some(&last) = rule.cells.iter().max() {
                due[last].push(i);
            }
        }
        let mut s = Search {
            rules: self,
            houses_of,
            due,
            used: vec![0; self.houses.len()],
            values: vec![0; cells],
            rng,
            nodes_left: max_nodes,
        };
        s.fill(0, found);
    }
}

struct Search<'a> {
    rules: &'a Rules,
    houses_of: Vec<Vec<usize>>,
    due: Vec<Vec<usize>>,
    /// Per house, the digits placed in it.
    used: Vec<u16>,
    values: Vec<u8>,
    /// Tries the digits in random order when set.
    rng: Option<&'a mut SplitMix64>,
    nodes_left: u64,
}

impl Search<'_> {
    /// Fill cell `i` onwards; `false` when the caller should stop.
    fn fill(&mut self, i: usize, found: &mut dyn FnMut(&[u8]) -> bool) -> bool {
        if i == self.values.len() {
            return found(&self.values);
        }
        if self.nodes_left == 0 {
            return false;
        }
        self.nodes_left -= 1;
        let mut free = self.rules.candidates[i];
        for &h in &self.houses_of[i] {
            free &= !self.used[h];
        }
        let mut order: Vec<u8> = (1..=self.rules.shape.side() as u8)
            .filter(|&d| free & bit(d) != 0)
            .collect();
        if let Some(rng) = self.rng.as_deref_mut() {
            rng.shuffle(&mut order);
        }
        for d in order {
            self.values[i] = d;
            let ok = self.due[i]
                .iter()
                .all(|&r| (self.rules.rules[r].test)(&self.values).is_ok());
            if ok {
                for &h in &self.houses_of[i] {
                    self.used[h] |= bit(d);
                }
                let go_on = self.fill(i + 1, found);
                for &h in &self.houses_of[i] {
                    self.used[h] &= !bit(d);
                }
                if !go_on {
                    self.values[i] = 0;
                    return false;
                }
            }
        }
        self.values[i] = 0;
        true
    }
}

fn consecutive(a: u8, b: u8) -> bool {
    a.abs_diff(b) == 1
}

fn double(a: u8, b: u8) -> bool {
    a == 2 * b || b == 2 * a
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Puzzle {
        text.parse().expect("the puzzle reads")
    }

    #[test]
    fn counts_classic_grids() {
        // 288 4×4 sudoku grids.
        assert_eq!(count_solutions(&parse(".Shape~4x4"), 1000), 288);
        assert_eq!(count_solutions(&parse(".Shape~4x4"), 10), 10);
        // The crate's own doc example: a cage of 3 and r1c3 = 4 leave 24.
        assert_eq!(
            count_solutions(&parse(".Shape~4x4.Cage~3~R1C1~R1C2.~R1C3_4"), 1000),
            24
        );
    }

    #[test]
    fn names_the_broken_rule() {
        let p = parse(".Shape~4x4.Thermo~R1C1~R1C2.~R1C3_4");
        let ok = [1, 2, 4, 3, 3, 4, 1, 2, 2, 1, 3, 4, 4, 3, 2, 1];
        assert_eq!(rules_hold(&p, &ok), Ok(()));
        let reversed = [2, 1, 4, 3, 3, 4, 1, 2, 1, 2, 3, 4, 4, 3, 2, 1];
        let e = rules_hold(&p, &reversed).unwrap_err();
        assert!(
            e.starts_with(".Thermo~R1C1~R1C2") && e.contains("not increasing"),
            "{e}"
        );
        let e = rules_hold(&parse(".Shape~4x4.~R1C1_2"), &ok).unwrap_err();
        assert!(e.contains("r1c1 holds 1"), "{e}");
        // A Latin square whose first box holds 2 twice.
        let latin = [1, 2, 3, 4, 2, 3, 4, 1, 3, 4, 1, 2, 4, 1, 2, 3];
        let e = rules_hold(&parse(".Shape~4x4"), &latin).unwrap_err();
        assert!(e.contains("box") && e.contains("twice"), "{e}");
    }

    #[test]
    fn solutions_keep_the_rules() {
        let p = parse(
            ".Shape~6x6.Cage~9~R1C1~R1C2~R2C1.Whisper~3~R3C3~R3C4~R4C4.Renban~R6C1~R6C2~R6C3",
        );
        let all = solutions(&p, 50);
        assert_eq!(all.len(), 50);
        for s in &all {
            assert_eq!(rules_hold(&p, s), Ok(()));
        }
    }
}
