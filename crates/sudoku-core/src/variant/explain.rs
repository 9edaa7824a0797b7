//! Explaining a variant puzzle step by step, as on paper, and a rating
//! from the hardest kind of step needed.
//!
//! The steps, easiest first, each taken only when no easier one applies:
//!
//! 1. **naked single** (level 1): a cell with one candidate left gets it;
//! 2. **hidden single** (level 1): a digit with one place left in a house
//!    goes there;
//! 3. **locked candidates** (level 2): a digit of a house confined to the
//!    cells it shares with another house leaves the rest of that house;
//! 4. **a rule's own eliminations** (levels 2 to 4): one constraint's
//!    propagator removes the digits its rule excludes, named by the
//!    constraint (`.Cage~10~R1C1~R1C2: removes 5 from r1c1, r1c2`). Rules
//!    between two cells (dots, XV, thermometer steps, whispers, anti-moves
//!    are peers and so singles) are level 2; cage combinations, sums,
//!    lines and outside clues level 3; the sums derived from houses
//!    ("innies and outies", the 45 rule) level 4;
//! 5. **naked and hidden subsets** in any house (the extra regions of a
//!    variant too): k undecided cells holding only k digits keep them from
//!    the rest of the house (naked), or k digits with only k places in the
//!    house leave those cells no other digit (hidden); pairs are level 2,
//!    triples 3, quads 4;
//! 6. **fish** on rows and columns: a digit whose places in k rows lie in
//!    k columns leaves the rest of those columns (and the other way round);
//!    the X-Wing (k = 2) is level 3, the swordfish (k = 3) level 4.
//!
//! Within a level, the rules come first, then subsets, then fish. When
//! none applies and the grid is not full, the explanation stops: the
//! puzzle needs a guess (or a technique not modelled here). This is a
//! partial rating: no chains, wings or uniqueness steps on variant grids.
//!
//! Every elimination comes from the same propagators the solver uses, so a
//! step never removes a digit of a solution (the tests replay every step
//! against the unique solution of the corpus puzzles).

use super::solver::{Contradiction, Dom, Model, Prop, crossings, digits, min_digit};
use super::{CellName, Puzzle, Shape, VariantError, VariantSolver};
use crate::{Limits, StopReason, Uniqueness};

/// One step of an explanation.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct VariantStep {
    /// The technique: `naked single`, `hidden single`, `locked candidates`,
    /// or `rule`.
    pub technique: &'static str,
    /// Its level (1 easiest to 4).
    pub level: u8,
    /// For a rule, the constraint (an ISS token) or derived fact.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rule: Option<String>,
    /// A digit placed, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub placed: Option<(CellName, u8)>,
    /// Candidates removed: (cell, digit).
    pub removed: Vec<(CellName, u8)>,
    /// The step in words.
    pub text: String,
}

/// A whole explanation.
#[derive(Clone, Debug, serde::Serialize)]
pub struct VariantExplanation {
    /// The steps in order.
    pub steps: Vec<VariantStep>,
    /// Whether the steps fill the grid.
    pub solved: bool,
    /// The hardest level used (0 when no step was needed).
    pub level: u8,
    /// The technique (or rule kind) of the first step at that level.
    pub hardest: Option<String>,
    /// Each cell's candidates where the steps stopped (row-major).
    #[serde(skip)]
    pub candidates: Vec<u16>,
}

impl VariantExplanation {
    /// A one-line rating: `level 3 (cage combinations), 57 steps` or
    /// `stuck after 12 steps (needs a guess); level 2 (...)`.
    pub fn rating_line(&self) -> String {
        let what = match &self.hardest {
            Some(h) => format!("level {} ({h})", self.level),
            None => "level 0 (nothing to do)".to_string(),
        };
        let steps = match self.steps.len() {
            1 => "1 step".to_string(),
            k => format!("{k} steps"),
        };
        if self.solved {
            format!("{what}, {steps}")
        } else {
            format!("stuck after {steps} (needs a guess); {what}")
        }
    }

    /// The rating as the command line's JSON writes it: `level`,
    /// `hardest`, `steps` (their number), `solved`, and `rating` (the
    /// [`rating_line`](Self::rating_line)).
    pub fn rating_json(&self) -> serde_json::Value {
        serde_json::json!({
            "level": self.level,
            "hardest": self.hardest,
            "steps": self.steps.len(),
            "solved": self.solved,
            "rating": self.rating_line(),
        })
    }

    /// The steps as the command line's JSON writes them: `n` (from 1),
    /// `technique`, `level`, `prose`, `removed` (`[cell, digit]` pairs),
    /// and `placed` and `rule` when the step has them.
    pub fn steps_json(&self) -> Vec<serde_json::Value> {
        self.steps
            .iter()
            .enumerate()
            .map(|(i, s)| {
                let mut o = serde_json::json!({
                    "n": i + 1,
                    "technique": s.technique,
                    "level": s.level,
                    "prose": s.text,
                    "removed": s.removed,
                });
                if let Some(p) = s.placed {
                    o["placed"] = serde_json::json!(p);
                }
                if let Some(r) = &s.rule {
                    o["rule"] = serde_json::json!(r);
                }
                o
            })
            .collect()
    }
}

/// The kind of step a propagator makes, for its level and name.
fn rule_level(p: &Prop, label: &str) -> (u8, &'static str) {
    if label == "innies and outies" {
        return (4, "innies and outies");
    }
    match p {
        Prop::Pair(_) => (2, "pair rule"),
        Prop::Cage(_) => (3, "cage combinations"),
        Prop::Linear(_) => (3, "sum"),
        _ => (3, "line or clue rule"),
    }
}

struct State {
    shape: Shape,
    masks: Vec<u16>,
    /// Cells whose digit has been taken out of their peers.
    placed: Vec<bool>,
    peers: Vec<Vec<u16>>,
    houses: Vec<Vec<u16>>,
    crossings: Vec<[Vec<u16>; 3]>,
    props: Vec<Prop>,
    labels: Vec<String>,
    steps: Vec<VariantStep>,
}

/// Why a puzzle was not explained by [`explain_unique`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Unexplained {
    /// The puzzle cannot be set up.
    Invalid(VariantError),
    /// It has no solution.
    NoSolution,
    /// It has several solutions.
    Multiple,
    /// A limit stopped the uniqueness check first.
    Unknown(StopReason),
}

/// [`explain`] a puzzle once the variant solver has shown, within
/// `limits`, that it has exactly one solution (steps would mean little
/// otherwise); or why not.
pub fn explain_unique(
    puzzle: &Puzzle,
    limits: &Limits,
    max_steps: usize,
) -> Result<VariantExplanation, Unexplained> {
    let mut solver = VariantSolver::new(puzzle).map_err(Unexplained::Invalid)?;
    match solver.uniqueness(limits).0 {
        Uniqueness::Unique(_) => explain(puzzle, max_steps).map_err(Unexplained::Invalid),
        Uniqueness::NoSolution => Err(Unexplained::NoSolution),
        Uniqueness::Multiple(..) => Err(Unexplained::Multiple),
        Uniqueness::Unknown(stop) => Err(Unexplained::Unknown(stop)),
    }
}

/// Explain a puzzle: at most `max_steps` steps (the rest left undone).
pub fn explain(puzzle: &Puzzle, max_steps: usize) -> Result<VariantExplanation, VariantError> {
    let mut model: Model = puzzle.lower()?;
    let cells = model.n * model.n;
    let labels: Vec<String> = (0..model.props.len())
        .map(|i| model.label_of(i).to_string())
        .collect();
    let peers = model.finish();
    let mut st = State {
        shape: puzzle.shape,
        masks: model.init.clone(),
        placed: vec![false; cells],
        crossings: crossings(&model.houses, cells),
        houses: model.houses,
        peers,
        props: model.props,
        labels,
        steps: Vec::new(),
    };
    // The givens' peers lose their digits before the first step.
    for c in 0..cells {
        if st.masks[c].count_ones() == 1 && st.clear_peers(c).is_err() {
            break;
        }
    }
    while st.steps.len() < max_steps && st.masks.iter().any(|m| m.count_ones() > 1) {
        let found = st.naked_single()
            || st.hidden_single()
            || st.locked_candidates()
            || (2..=4).any(|level| {
                st.rule(level)
                    || st.subsets(level as usize)
                    || (level > 2 && st.fish(level as usize - 1))
            });
        if !found {
            break;
        }
        if st.masks.contains(&0) {
            break; // no solution: a step emptied a cell
        }
    }
    let solved = st.masks.iter().all(|m| m.count_ones() == 1);
    let level = st.steps.iter().map(|s| s.level).max().unwrap_or(0);
    let hardest = st
        .steps
        .iter()
        .find(|s| s.level == level)
        .map(|s| match &s.rule {
            Some(r) if s.technique == "rule" => rule_name(r),
            _ => s.technique.to_string(),
        });
    Ok(VariantExplanation {
        steps: st.steps,
        solved,
        level,
        hardest,
        candidates: st.masks,
    })
}

/// A rule's name for the rating: its kind (`Cage`, `Thermo`, ...) or the
/// derived fact (`innies and outies`), from a step's `rule`.
pub fn rule_name(rule: &str) -> String {
    match rule.strip_prefix('.') {
        Some(r) => r.split('~').next().unwrap_or(r).to_string(),
        None => rule.to_string(),
    }
}

impl State {
    fn name(&self, c: usize) -> CellName {
        self.shape.cell(c)
    }

    /// Take a decided cell's digit out of its peers.
    fn clear_peers(&mut self, c: usize) -> Result<(), Contradiction> {
        self.placed[c] = true;
        let m = self.masks[c];
        for &p in &self.peers[c] {
            self.masks[p as usize] &= !m;
            if self.masks[p as usize] == 0 {
                return Err(Contradiction);
            }
        }
        Ok(())
    }

    fn place(&mut self, c: usize, d: u8, technique: &'static str, text: String) {
        self.masks[c] = 1 << (d - 1);
        let _ = self.clear_peers(c);
        self.steps.push(VariantStep {
            technique,
            level: 1,
            rule: None,
            placed: Some((self.name(c), d)),
            removed: Vec::new(),
            text,
        });
    }

    fn naked_single(&mut self) -> bool {
        let Some(c) =
            (0..self.masks.len()).find(|&c| self.masks[c].count_ones() == 1 && !self.placed[c])
        else {
            return false;
        };
        let d = min_digit(self.masks[c]);
        let text = format!("{}: only {d} fits", self.name(c));
        self.place(c, d, "naked single", text);
        true
    }

    fn hidden_single(&mut self) -> bool {
        for h in 0..self.houses.len() {
            let house = &self.houses[h];
            let mut once = 0u16;
            let mut twice = 0u16;
            for &c in house {
                let m = self.masks[c as usize];
                twice |= once & m;
                once |= m;
            }
            for d in digits(once & !twice) {
                let bit = 1u16 << (d - 1);
                let Some(&c) = house.iter().find(|&&c| self.masks[c as usize] & bit != 0) else {
                    continue;
                };
                let c = c as usize;
                if self.masks[c] == bit {
                    continue; // a naked single already
                }
                let text = format!(
                    "{d} fits only {} among {}",
                    self.name(c),
                    house_name(self.shape, house)
                );
                self.place(c, d, "hidden single", text);
                return true;
            }
        }
        false
    }

    fn locked_candidates(&mut self) -> bool {
        for k in 0..self.crossings.len() {
            let [shared, rest_a, rest_b] = self.crossings[k].clone();
            let or = |cells: &[u16]| cells.iter().fold(0u16, |a, &c| a | self.masks[c as usize]);
            let inside = or(&shared);
            // confined to the crossing in one house: out of the other's rest
            for (from, rest) in [(&rest_a, &rest_b), (&rest_b, &rest_a)] {
                let locked = inside & !or(from);
                if locked == 0 {
                    continue;
                }
                let mut removed = Vec::new();
                for &c in rest.iter() {
                    let hit = self.masks[c as usize] & locked;
                    for d in digits(hit) {
                        removed.push((c as usize, d));
                    }
                }
                if removed.is_empty() {
                    continue;
                }
                let text = format!(
                    "{} {} only where two houses cross ({}): {}",
                    digit_list(locked),
                    if locked.count_ones() == 1 {
                        "lies"
                    } else {
                        "lie"
                    },
                    cell_list(self.shape, &shared),
                    removal_text(self.shape, &removed)
                );
                self.remove(&removed, "locked candidates", 2, None, text);
                return true;
            }
        }
        false
    }

    /// The first naked or hidden subset of `k` cells (2 to 4) in a house
    /// that removes something.
    fn subsets(&mut self, k: usize) -> bool {
        const NAMES: [[&str; 3]; 2] = [
            ["naked pair", "naked triple", "naked quad"],
            ["hidden pair", "hidden triple", "hidden quad"],
        ];
        for h in 0..self.houses.len() {
            let open: Vec<usize> = self.houses[h]
                .iter()
                .map(|&c| c as usize)
                .filter(|&c| self.masks[c].count_ones() > 1)
                .collect();
            if open.len() <= k {
                continue; // nothing else in the house to clear
            }
            // naked: k cells whose candidates are k digits
            let mut found = None;
            combinations(open.len(), k, |pick| {
                let union = pick.iter().fold(0u16, |a, &i| a | self.masks[open[i]]);
                if union.count_ones() as usize != k {
                    return false;
                }
                let removed: Vec<(usize, u8)> = open
                    .iter()
                    .enumerate()
                    .filter(|(i, _)| !pick.contains(i))
                    .flat_map(|(_, &c)| digits(self.masks[c] & union).map(move |d| (c, d)))
                    .collect();
                if removed.is_empty() {
                    return false;
                }
                let cells: Vec<u16> = pick.iter().map(|&i| open[i] as u16).collect();
                found = Some((cells, union, removed));
                true
            });
            if let Some((cells, union, removed)) = found {
                let text = format!(
                    "{}: {} hold only {} in {}: {}",
                    NAMES[0][k - 2],
                    cell_list(self.shape, &cells),
                    digit_list(union),
                    house_name(self.shape, &self.houses[h]),
                    removal_text(self.shape, &removed)
                );
                self.remove(&removed, NAMES[0][k - 2], k as u8, None, text);
                return true;
            }
            // hidden: k digits with k places
            let free: Vec<u8> = digits(open.iter().fold(0u16, |a, &c| a | self.masks[c])).collect();
            combinations(free.len(), k, |pick| {
                let set = pick.iter().fold(0u16, |a, &i| a | 1 << (free[i] - 1));
                let places: Vec<usize> = open
                    .iter()
                    .copied()
                    .filter(|&c| self.masks[c] & set != 0)
                    .collect();
                if places.len() != k {
                    return false;
                }
                let removed: Vec<(usize, u8)> = places
                    .iter()
                    .flat_map(|&c| digits(self.masks[c] & !set).map(move |d| (c, d)))
                    .collect();
                if removed.is_empty() {
                    return false;
                }
                let cells: Vec<u16> = places.iter().map(|&c| c as u16).collect();
                found = Some((cells, set, removed));
                true
            });
            if let Some((cells, set, removed)) = found {
                let text = format!(
                    "{}: {} fit only {} in {}: {}",
                    NAMES[1][k - 2],
                    digit_list(set),
                    cell_list(self.shape, &cells),
                    house_name(self.shape, &self.houses[h]),
                    removal_text(self.shape, &removed)
                );
                self.remove(&removed, NAMES[1][k - 2], k as u8, None, text);
                return true;
            }
        }
        false
    }

    /// The first fish of size `k` (2: X-Wing, 3: swordfish) on rows and
    /// columns that removes something: a digit whose places in `k` base
    /// lines lie in `k` cover lines leaves the cover lines' other cells.
    fn fish(&mut self, k: usize) -> bool {
        let n = self.shape.side();
        let name = if k == 2 { "x-wing" } else { "swordfish" };
        let level = k as u8 + 1;
        for rows_base in [true, false] {
            // line `i`'s cell at position `j`
            let cell = |i: usize, j: usize| if rows_base { i * n + j } else { j * n + i };
            for d in 1..=n as u8 {
                let bit = 1u16 << (d - 1);
                // per base line, the positions of d's undecided places
                let places: Vec<u32> = (0..n)
                    .map(|i| {
                        (0..n)
                            .filter(|&j| {
                                let m = self.masks[cell(i, j)];
                                m & bit != 0 && m != bit
                            })
                            .fold(0u32, |a, j| a | 1 << j)
                    })
                    .collect();
                let lines: Vec<usize> = (0..n)
                    .filter(|&i| (2..=k as u32).contains(&places[i].count_ones()))
                    .collect();
                let mut found = None;
                combinations(lines.len(), k, |pick| {
                    let cover = pick.iter().fold(0u32, |a, &p| a | places[lines[p]]);
                    if cover.count_ones() as usize != k {
                        return false;
                    }
                    let base: Vec<usize> = pick.iter().map(|&p| lines[p]).collect();
                    let removed: Vec<(usize, u8)> = (0..n)
                        .filter(|i| !base.contains(i))
                        .flat_map(|i| (0..n).map(move |j| (i, j)))
                        .filter(|&(_, j)| cover & 1 << j != 0)
                        .map(|(i, j)| cell(i, j))
                        .filter(|&c| self.masks[c] & bit != 0)
                        .map(|c| (c, d))
                        .collect();
                    if removed.is_empty() {
                        return false;
                    }
                    found = Some((base, cover, removed));
                    true
                });
                if let Some((base, cover, removed)) = found {
                    let (b, c) = if rows_base {
                        ("rows", "columns")
                    } else {
                        ("columns", "rows")
                    };
                    let list = |ls: &mut dyn Iterator<Item = usize>| {
                        ls.map(|i| (i + 1).to_string())
                            .collect::<Vec<_>>()
                            .join(",")
                    };
                    let text = format!(
                        "{name}: {d} in {b} {} lies only in {c} {}: {}",
                        list(&mut base.iter().copied()),
                        list(&mut (0..n).filter(|j| cover & 1 << j != 0)),
                        removal_text(self.shape, &removed)
                    );
                    self.remove(&removed, name, level, None, text);
                    return true;
                }
            }
        }
        false
    }

    /// The first rule of `level` that removes something.
    fn rule(&mut self, level: u8) -> bool {
        let mut changed = Vec::new();
        for i in 0..self.props.len() {
            if rule_level(&self.props[i], &self.labels[i]).0 != level {
                continue;
            }
            let mut masks = self.masks.clone();
            changed.clear();
            let ok =
                Dom::on_slice(&mut masks, &mut changed, |d| self.props[i].propagate(d)).is_ok();
            let mut removed = Vec::new();
            for (c, (&old, &new)) in self.masks.iter().zip(&masks).enumerate() {
                for d in digits(old & !new) {
                    removed.push((c, d));
                }
            }
            if !ok {
                // The rule cannot hold: every candidate of its cells goes
                // (the puzzle has no solution from here).
                let cells: Vec<u16> = self.props[i].cells();
                removed = cells
                    .iter()
                    .flat_map(|&c| digits(self.masks[c as usize]).map(move |d| (c as usize, d)))
                    .collect();
            }
            if removed.is_empty() {
                continue;
            }
            let label = self.labels[i].clone();
            let text = format!("{label}: {}", removal_text(self.shape, &removed));
            self.remove(&removed, "rule", level, Some(label), text);
            return true;
        }
        false
    }

    fn remove(
        &mut self,
        removed: &[(usize, u8)],
        technique: &'static str,
        level: u8,
        rule: Option<String>,
        text: String,
    ) {
        for &(c, d) in removed {
            self.masks[c] &= !(1u16 << (d - 1));
        }
        self.steps.push(VariantStep {
            technique,
            level,
            rule,
            placed: None,
            removed: removed.iter().map(|&(c, d)| (self.name(c), d)).collect(),
            text,
        });
    }
}

/// Call `f` with each choice of `k` indices below `n` in increasing order
/// (lexicographic), until it returns true; whether it did.
fn combinations(n: usize, k: usize, mut f: impl FnMut(&[usize]) -> bool) -> bool {
    if k == 0 || k > n {
        return false;
    }
    let mut pick: Vec<usize> = (0..k).collect();
    loop {
        if f(&pick) {
            return true;
        }
        // the last index that can still move right
        let Some(i) = (0..k).rev().find(|&i| pick[i] < n - k + i) else {
            return false;
        };
        pick[i] += 1;
        for j in i + 1..k {
            pick[j] = pick[j - 1] + 1;
        }
    }
}

fn digit_list(mask: u16) -> String {
    digits(mask)
        .map(|d| d.to_string())
        .collect::<Vec<_>>()
        .join(",")
}

fn cell_list(shape: Shape, cells: &[u16]) -> String {
    cells
        .iter()
        .map(|&c| shape.cell(c as usize).to_string())
        .collect::<Vec<_>>()
        .join(",")
}

/// `removes 5 from r1c1, r1c2; 9 from r3c3`.
fn removal_text(shape: Shape, removed: &[(usize, u8)]) -> String {
    let mut by_digit: Vec<(u8, Vec<String>)> = Vec::new();
    for &(c, d) in removed {
        let name = shape.cell(c).to_string();
        match by_digit.iter_mut().find(|(x, _)| *x == d) {
            Some((_, v)) => v.push(name),
            None => by_digit.push((d, vec![name])),
        }
    }
    by_digit.sort_by_key(|(d, _)| *d);
    let parts: Vec<String> = by_digit
        .iter()
        .map(|(d, cs)| format!("{d} from {}", cs.join(", ")))
        .collect();
    format!("removes {}", parts.join("; "))
}

/// `row 3`, `column 5`, `box 2`, or the cells of another house.
fn house_name(shape: Shape, house: &[u16]) -> String {
    let cells: Vec<CellName> = house.iter().map(|&c| shape.cell(c as usize)).collect();
    let n = shape.side();
    if cells.len() == n && cells.iter().all(|c| c.row == cells[0].row) {
        return format!("row {}", cells[0].row + 1);
    }
    if cells.len() == n && cells.iter().all(|c| c.col == cells[0].col) {
        return format!("column {}", cells[0].col + 1);
    }
    if let Some(b) = shape.box_of(cells[0]) {
        if cells.iter().all(|&c| shape.box_of(c) == Some(b)) {
            return format!("box {}", b + 1);
        }
    }
    format!("the region {}", cell_list(shape, house))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_small_killer_is_explained_to_the_end() {
        let p: Puzzle = ".Shape~4x4.Cage~3~R1C1~R1C2.Cage~4~R1C3~R2C3.Cage~9~R1C4~R2C4~R3C4\
                         .Cage~7~R2C1~R2C2.Cage~6~R3C1~R4C1.Cage~8~R3C2~R3C3~R4C2.Cage~3~R4C3~R4C4"
            .parse()
            .expect("reads");
        let e = explain(&p, 1000).expect("explains");
        assert!(e.solved, "{:?}", e.steps);
        let solution = "1234341221434321";
        for s in &e.steps {
            if let Some((c, d)) = s.placed {
                let want = solution.as_bytes()[c.row as usize * 4 + c.col as usize] - b'0';
                assert_eq!(d, want, "{}", s.text);
            }
        }
        assert!(
            e.steps.iter().any(|s| s.technique == "rule"),
            "{:?}",
            e.steps
        );
        assert!(e.rating_line().contains("steps"), "{}", e.rating_line());
    }

    #[test]
    fn combinations_are_each_choice_once_in_order() {
        for n in 0..8 {
            for k in 0..=n + 1 {
                let mut seen = Vec::new();
                combinations(n, k, |pick| {
                    assert!(pick.windows(2).all(|w| w[0] < w[1]) && pick.iter().all(|&i| i < n));
                    seen.push(pick.to_vec());
                    false
                });
                let want = (0u32..1 << n)
                    .filter(|m| m.count_ones() as usize == k && k > 0)
                    .count();
                assert_eq!(seen.len(), want, "n {n} k {k}");
                assert!(seen.windows(2).all(|w| w[0] < w[1]), "n {n} k {k}");
            }
        }
        let mut calls = 0;
        assert!(combinations(5, 2, |_| {
            calls += 1;
            calls == 3
        }));
        assert_eq!(calls, 3);
    }

    /// The first step that is not a single or locked candidates, on a 9×9
    /// grid with the candidates given (`R1C1_1_2`: r1c1 holds 1 or 2).
    fn first_step(marks: &str) -> VariantStep {
        let p: Puzzle = marks.parse().expect("reads");
        let e = explain(&p, 50).expect("explains");
        e.steps
            .into_iter()
            .find(|s| !s.technique.contains("single") && s.technique != "locked candidates")
            .expect("a step")
    }

    #[test]
    fn a_naked_pair_clears_its_house() {
        let s = first_step(".~R1C1_1_2~R1C2_1_2");
        assert_eq!((s.technique, s.level), ("naked pair", 2), "{}", s.text);
        // the pair's row or its box, whichever house comes first
        let in_row = s.removed.iter().all(|(c, _)| c.row == 0);
        let in_box = s.removed.iter().all(|(c, _)| c.row < 3 && c.col < 3);
        assert!(in_row || in_box, "{}", s.text);
        assert!(
            s.removed
                .iter()
                .all(|&(c, d)| (d == 1 || d == 2) && !(c.row == 0 && c.col < 2)),
            "{}",
            s.text
        );
        // seven other cells lose both digits
        assert_eq!(s.removed.len(), 14, "{}", s.text);
    }

    #[test]
    fn a_hidden_pair_keeps_only_its_digits() {
        let rest: String = (3..=9).map(|c| format!("~R1C{c}_3_4_5_6_7_8_9")).collect();
        let s = first_step(&format!(".{rest}"));
        assert_eq!((s.technique, s.level), ("hidden pair", 2), "{}", s.text);
        let mut cells: Vec<(u8, u8)> = s.removed.iter().map(|(c, _)| (c.row, c.col)).collect();
        cells.dedup();
        assert_eq!(cells, [(0, 0), (0, 1)], "{}", s.text);
        assert!(s.removed.iter().all(|&(_, d)| d >= 3));
        assert_eq!(s.removed.len(), 14);
    }

    #[test]
    fn an_x_wing_clears_its_columns() {
        // 5 only in columns 2 and 7 of rows 1 and 5
        let no5 = "_1_2_3_4_6_7_8_9";
        let marks: String = [1, 5]
            .iter()
            .flat_map(|r| [1, 3, 4, 5, 6, 8, 9].map(move |c| format!("~R{r}C{c}{no5}")))
            .collect();
        let s = first_step(&format!(".{marks}"));
        assert_eq!((s.technique, s.level), ("x-wing", 3), "{}", s.text);
        assert!(
            s.text
                .starts_with("x-wing: 5 in rows 1,5 lies only in columns 2,7"),
            "{}",
            s.text
        );
        assert_eq!(s.removed.len(), 14, "{}", s.text);
        assert!(
            s.removed
                .iter()
                .all(|&(c, d)| d == 5 && (c.col == 1 || c.col == 6) && c.row != 0 && c.row != 4),
            "{}",
            s.text
        );
    }

    #[test]
    fn an_empty_grid_is_stuck() {
        let p: Puzzle = ".Shape~4x4.AntiKing".parse().expect("reads");
        let e = explain(&p, 1000).expect("explains");
        assert!(!e.solved);
        assert!(
            e.rating_line().starts_with("stuck after"),
            "{}",
            e.rating_line()
        );
    }
}
