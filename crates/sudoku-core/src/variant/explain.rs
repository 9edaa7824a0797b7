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
//!    ("innies and outies", the 45 rule) level 4.
//!
//! When none applies and the grid is not full, the explanation stops: the
//! puzzle needs a guess (or a technique not modelled here). This is a
//! partial rating: no chains, fish or subsets on variant grids yet.
//!
//! Every elimination comes from the same propagators the solver uses, so a
//! step never removes a digit of a solution (the tests replay every step
//! against the unique solution of the corpus puzzles).

use super::solver::{Contradiction, Dom, Model, Prop, crossings, digits, min_digit};
use super::{CellName, Puzzle, Shape, VariantError};

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
            || (2..=4).any(|level| st.rule(level));
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
/// derived fact.
fn rule_name(rule: &str) -> String {
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
                    "{} lie only where two houses cross ({}): {}",
                    digit_list(locked),
                    cell_list(self.shape, &shared),
                    removal_text(self.shape, &removed)
                );
                self.remove(&removed, "locked candidates", 2, None, text);
                return true;
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
