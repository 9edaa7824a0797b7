//! A step as data ([`Step`]) and, separately, its prose and hints.

use std::fmt::{self, Write as _};

use crate::grid::{House, Size, digit_char};

use super::technique::Technique;

/// A digit in a cell (cells are row-major indices, as in [`Grid`](crate::Grid)).
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
pub struct CellDigit {
    /// The cell: `row * n + column`, from 0.
    pub cell: usize,
    /// The digit, from 1 to n (never 0).
    pub digit: u8,
}

/// The kind of a link in a chain.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum LinkKind {
    /// At least one end is true (a conjugate pair, or the two digits of a
    /// bivalue cell).
    Strong,
    /// At most one end is true (two cells that see each other, or two digits
    /// of one cell).
    Weak,
}

/// A link between two candidates, part of the justification of a chain step.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Link {
    /// The candidate the link starts from (the chain's earlier end).
    pub from: CellDigit,
    /// The candidate it leads to.
    pub to: CellDigit,
    /// Whether at least one end is true (strong) or at most one (weak).
    pub kind: LinkKind,
}

/// One deduction: what it places and eliminates, and what justifies it.
///
/// The justification fields mean, per technique:
/// - full house: `houses` = [the house];
/// - hidden single: `houses` = [the house], `digits` = `[d]`;
/// - naked single: `cells` = [the cell];
/// - pointing: `houses` = [box, line], `digits` = `[d]`, `cells` = the box's cells with d;
/// - claiming: `houses` = [line, box], `digits` = `[d]`, `cells` = the line's cells with d;
/// - naked/hidden subsets: `houses` = [the house], `cells` and `digits` = the subset;
/// - fish: `digits` = `[d]`, `houses` = the k base lines then the k cover lines,
///   `cells` = the base lines' cells with d;
/// - skyscraper, two-string kite: `digits` = `[d]`, `cells` = [end, link, link, end]
///   along the chain, `houses` = the two conjugate lines (and for the kite the
///   box joining them), `links` = the chain;
/// - XY-wing, XYZ-wing: `cells` = [pivot, pincer, pincer], `digits` = [x, y, z]
///   with z the eliminated digit;
/// - W-wing: `cells` = [bivalue, bivalue, link end, link end], `digits` =
///   [x (the strong link), y (eliminated)], `houses` = [the strong link's house];
/// - unique rectangle 1: `cells` = the corners, the roof (extra candidates) last,
///   `digits` = [x, y];
/// - BUG+1: `cells` = [the cell with three candidates], `digits` = `[d]`;
/// - simple colouring: `digits` = `[d]`, `links` = the conjugate pairs of the
///   colour cluster (colours alternate along links), `cells` = the two cells
///   that decide it (opposite colours both seen by the target, or the same
///   colour twice in `houses[0]` for a wrap);
/// - X-chain, XY-chain: `digits` = [d eliminated], `cells` = the chain in
///   order, `links` = the chain's links.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Step {
    /// The technique that found the step; it fixes what the justification
    /// fields below mean.
    pub technique: Technique,
    /// Grid size (for cell names).
    pub size: Size,
    /// Digits the step places (singles place one; the other techniques none).
    pub placements: Vec<CellDigit>,
    /// Candidates the step removes. A step places or eliminates at least one
    /// candidate, or it is not a step.
    pub eliminations: Vec<CellDigit>,
    /// Justification: the cells the reasoning rests on (row-major indices, as
    /// in [`CellDigit::cell`]), in the per-technique order listed above.
    pub cells: Vec<usize>,
    /// Justification: the houses (rows, columns, boxes) involved.
    pub houses: Vec<House>,
    /// Justification: the digits involved (1 to n).
    pub digits: Vec<u8>,
    /// Justification: the chain's or colour cluster's links, empty for
    /// techniques without chains.
    pub links: Vec<Link>,
}

impl Step {
    /// An empty step (used as a reusable buffer).
    pub fn new(technique: Technique, size: Size) -> Step {
        Step {
            technique,
            size,
            placements: Vec::new(),
            eliminations: Vec::new(),
            cells: Vec::new(),
            houses: Vec::new(),
            digits: Vec::new(),
            links: Vec::new(),
        }
    }

    /// Empty every list, keeping capacity.
    pub(crate) fn reset(&mut self, technique: Technique, size: Size) {
        self.technique = technique;
        self.size = size;
        self.placements.clear();
        self.eliminations.clear();
        self.cells.clear();
        self.houses.clear();
        self.digits.clear();
        self.links.clear();
    }

    /// The step in words, e.g. "Pointing: in box 4, the 5s lie only in row 6,
    /// so 5 is removed from r6c7 and r6c8".
    pub fn prose(&self) -> String {
        Prose(self).to_string()
    }

    /// The hint for this step at a level: what to look at, which technique
    /// and digit, or the whole step.
    pub fn hint(&self, level: HintLevel) -> String {
        let s = self.size;
        let d = |i: usize| self.digits.get(i).map_or('?', |&d| digit_char(d));
        let house = |i: usize| {
            self.houses
                .get(i)
                .map_or_else(String::new, |h| h.to_string())
        };
        match level {
            HintLevel::Look => match self.technique {
                Technique::NakedSingle | Technique::BugPlusOne => match self.cells.first() {
                    Some(&c) => format!("Look at cell {}.", s.cell_name(c)),
                    None => "Look at the cells with few candidates.".to_string(),
                },
                Technique::FullHouse
                | Technique::HiddenSingleBox
                | Technique::HiddenSingleLine
                | Technique::NakedPair
                | Technique::NakedTriple
                | Technique::NakedQuad
                | Technique::HiddenPair
                | Technique::HiddenTriple
                | Technique::HiddenQuad
                | Technique::Pointing
                | Technique::Claiming => format!("Look at {}.", house(0)),
                Technique::XWing | Technique::Swordfish | Technique::Jellyfish => {
                    let k = self.houses.len() / 2;
                    format!("Look at {}.", join_houses(&self.houses[..k]))
                }
                Technique::Skyscraper
                | Technique::TwoStringKite
                | Technique::SimpleColouring
                | Technique::XChain => {
                    format!("Look at where the {}s can go.", d(0))
                }
                Technique::XyWing
                | Technique::XyzWing
                | Technique::WWing
                | Technique::UniqueRectangle1
                | Technique::XyChain => {
                    format!("Look at cells {}.", cell_list(s, &self.cells))
                }
            },
            HintLevel::Technique => match self.placements.first() {
                Some(p) => format!(
                    "{} gives a {}.",
                    self.technique.title(),
                    digit_char(p.digit)
                ),
                None => {
                    let ds: Vec<u8> = if self.digits.is_empty() {
                        self.eliminations.iter().map(|e| e.digit).collect()
                    } else {
                        self.digits.clone()
                    };
                    let mut ds = ds;
                    ds.sort_unstable();
                    ds.dedup();
                    format!("{} on {}.", self.technique.title(), digit_list(&ds))
                }
            },
            HintLevel::Full => self.prose(),
        }
    }
}

/// How much a hint reveals.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum HintLevel {
    /// Level 1: which cell or house to look at.
    Look,
    /// Level 2: the technique and digit.
    Technique,
    /// Level 3: the full step in words.
    Full,
}

impl HintLevel {
    /// Level 1, 2 or 3.
    pub fn from_number(level: u8) -> Option<HintLevel> {
        match level {
            1 => Some(HintLevel::Look),
            2 => Some(HintLevel::Technique),
            3 => Some(HintLevel::Full),
            _ => None,
        }
    }
}

fn join(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [a] => a.clone(),
        [rest @ .., last] => format!("{} and {}", rest.join(", "), last),
    }
}

fn cell_list(size: Size, cells: &[usize]) -> String {
    join(
        &cells
            .iter()
            .map(|&c| size.cell_name(c).to_string())
            .collect::<Vec<_>>(),
    )
}

fn digit_list(ds: &[u8]) -> String {
    join(
        &ds.iter()
            .map(|&d| digit_char(d).to_string())
            .collect::<Vec<_>>(),
    )
}

fn join_houses(hs: &[House]) -> String {
    join(&hs.iter().map(|h| h.to_string()).collect::<Vec<_>>())
}

/// Eliminations grouped by digit: "5 is removed from r6c7 and r6c8; 7 is
/// removed from r1c1".
fn eliminations_text(step: &Step) -> String {
    let mut ds: Vec<u8> = step.eliminations.iter().map(|e| e.digit).collect();
    ds.sort_unstable();
    ds.dedup();
    let parts: Vec<String> = ds
        .iter()
        .map(|&d| {
            let mut cells: Vec<usize> = step
                .eliminations
                .iter()
                .filter(|e| e.digit == d)
                .map(|e| e.cell)
                .collect();
            cells.sort_unstable();
            cells.dedup();
            format!(
                "{} is removed from {}",
                digit_char(d),
                cell_list(step.size, &cells)
            )
        })
        .collect();
    parts.join("; ")
}

fn chain_text(step: &Step) -> String {
    let s = step.size;
    let mut out = String::new();
    for (i, l) in step.links.iter().enumerate() {
        if i == 0 {
            let _ = write!(
                out,
                "{}({})",
                s.cell_name(l.from.cell),
                digit_char(l.from.digit)
            );
        }
        let sym = match l.kind {
            LinkKind::Strong => "=",
            LinkKind::Weak => "-",
        };
        let _ = write!(
            out,
            " {} {}({})",
            sym,
            s.cell_name(l.to.cell),
            digit_char(l.to.digit)
        );
    }
    out
}

struct Prose<'a>(&'a Step);

impl fmt::Display for Prose<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let st = self.0;
        let s = st.size;
        let t = st.technique;
        let d = |i: usize| st.digits.get(i).map_or('?', |&d| digit_char(d));
        let house = |i: usize| st.houses.get(i).map_or_else(String::new, |h| h.to_string());
        let cell = |i: usize| {
            st.cells
                .get(i)
                .map_or_else(String::new, |&c| s.cell_name(c).to_string())
        };
        let elim = eliminations_text(st);
        let place = st
            .placements
            .first()
            .map(|p| format!("{} goes in {}", digit_char(p.digit), s.cell_name(p.cell)))
            .unwrap_or_default();
        write!(f, "{}: ", t.title())?;
        match t {
            Technique::FullHouse => write!(f, "{} has one empty cell left, so {}", house(0), place),
            Technique::HiddenSingleBox | Technique::HiddenSingleLine => {
                write!(
                    f,
                    "in {}, {} fits only in one cell, so {}",
                    house(0),
                    d(0),
                    place
                )
            }
            Technique::NakedSingle => write!(f, "{} has no other candidate, so {}", cell(0), place),
            Technique::Pointing => write!(
                f,
                "in {}, the {}s lie only in {}, so {}",
                house(0),
                d(0),
                house(1),
                elim
            ),
            Technique::Claiming => write!(
                f,
                "in {}, the {}s lie only in {}, so {}",
                house(0),
                d(0),
                house(1),
                elim
            ),
            Technique::NakedPair | Technique::NakedTriple | Technique::NakedQuad => write!(
                f,
                "in {}, cells {} hold only {}, so {}",
                house(0),
                cell_list(s, &st.cells),
                digit_list(&st.digits),
                elim
            ),
            Technique::HiddenPair | Technique::HiddenTriple | Technique::HiddenQuad => write!(
                f,
                "in {}, {} fit only in {}, so those cells keep only {} ({})",
                house(0),
                digit_list(&st.digits),
                cell_list(s, &st.cells),
                digit_list(&st.digits),
                elim
            ),
            Technique::XWing | Technique::Swordfish | Technique::Jellyfish => {
                let k = st.houses.len() / 2;
                write!(
                    f,
                    "in {}, the {}s lie only in {}, so {}",
                    join_houses(&st.houses[..k]),
                    d(0),
                    join_houses(&st.houses[k..]),
                    elim
                )
            }
            Technique::Skyscraper | Technique::TwoStringKite => write!(
                f,
                "on {}, {}, so {} or {} is {}, so {}",
                d(0),
                chain_text(st),
                cell(0),
                cell(3),
                d(0),
                elim
            ),
            Technique::XyWing | Technique::XyzWing => write!(
                f,
                "whatever {} is, {} or {} is {}, so {}",
                cell(0),
                cell(1),
                cell(2),
                d(2),
                elim
            ),
            Technique::WWing => write!(
                f,
                "{} and {} both hold {}/{} and the {}s of {} join them, so one of them is {}, so {}",
                cell(0),
                cell(1),
                d(0),
                d(1),
                d(0),
                house(0),
                d(1),
                elim
            ),
            Technique::UniqueRectangle1 => write!(
                f,
                "{} would form a deadly pattern of {}/{} with a second solution, so {}",
                cell_list(s, &st.cells),
                d(0),
                d(1),
                elim
            ),
            Technique::BugPlusOne => write!(
                f,
                "every other empty cell has two candidates; only {} in {} avoids a second solution, so {}",
                d(0),
                cell(0),
                place
            ),
            Technique::SimpleColouring => {
                if st.houses.is_empty() {
                    write!(
                        f,
                        "colouring the conjugate pairs of {} ({}), {} and {} have opposite colours, so one of them is {}, so {}",
                        d(0),
                        chain_text(st),
                        cell(0),
                        cell(1),
                        d(0),
                        elim
                    )
                } else {
                    write!(
                        f,
                        "colouring the conjugate pairs of {} ({}), {} and {} have the same colour in {}, so that colour is false, so {}",
                        d(0),
                        chain_text(st),
                        cell(0),
                        cell(1),
                        house(0),
                        elim
                    )
                }
            }
            Technique::XChain | Technique::XyChain => {
                let first = st
                    .cells
                    .first()
                    .map_or_else(String::new, |&c| s.cell_name(c).to_string());
                let last = st
                    .cells
                    .last()
                    .map_or_else(String::new, |&c| s.cell_name(c).to_string());
                write!(
                    f,
                    "{}, so {} or {} is {}, so {}",
                    chain_text(st),
                    first,
                    last,
                    d(0),
                    elim
                )
            }
        }
    }
}
