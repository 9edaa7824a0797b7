//! Building and validating an exact-cover problem.
//!
//! A problem has *primary* items, which must be covered (exactly once, or
//! between `lo` and `hi` times for items with multiplicity), *secondary* items,
//! which may be covered at most once — or by any number of options that give
//! them the same *colour* (Knuth's XCC) — and *options*, each a set of items.

use std::collections::HashMap;
use std::fmt;

/// Index of an item in a [`Problem`] (in declaration order).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ItemId(pub u32);

/// Index of a colour in a [`Problem`]; colours are numbered from 1 (0 is "no colour").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ColourId(pub u32);

/// One item of an option: the item and, for a secondary item, its colour (0 = none).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Entry {
    /// The item's index in [`Problem::items`] (the `u32` of its [`ItemId`]).
    pub item: u32,
    /// The colour this option gives the item: a [`ColourId`] number (from 1,
    /// name in [`Problem::colour_name`]), or 0 for none. Only secondary items
    /// have colours; a primary item's entry is always 0.
    pub colour: u32,
}

/// A declared item.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Item {
    name: Option<Box<str>>,
    secondary: bool,
    lo: u32,
    hi: u32,
}

impl Item {
    /// The item's name, if it has one.
    pub fn name(&self) -> Option<&str> {
        self.name.as_deref()
    }
    /// Whether the item is secondary.
    pub fn is_secondary(&self) -> bool {
        self.secondary
    }
    /// Bounds on how many chosen options contain this primary item: `(lo, hi)`.
    /// `(1, 1)` for an ordinary primary item; `(0, 1)` for a secondary item.
    pub fn bounds(&self) -> (u32, u32) {
        (self.lo, self.hi)
    }
}

/// Why a problem could not be built. Options are numbered from 0 in the order
/// they were added.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
///
/// The builder keeps the first error it meets and reports it from
/// [`ProblemBuilder::build`]; item names in the fields are as declared, or
/// `#k` for an unnamed item (or an out-of-range id) `k`.
pub enum BuildError {
    /// An item name was declared twice (as primary or secondary).
    #[error("item '{0}' is declared twice")]
    DuplicateItem(String),
    /// An option names an item that was never declared (or gives an id past
    /// the last item).
    #[error("option {option}: unknown item '{item}'")]
    UnknownItem {
        /// The option's number (from 0, in the order options were added).
        option: usize,
        /// The name as written, or `#k` for an item id.
        item: String,
    },
    /// An option lists the same item more than once.
    #[error("option {option}: item '{item}' appears twice")]
    RepeatedItem {
        /// The option's number (from 0).
        option: usize,
        /// The repeated item.
        item: String,
    },
    /// An option has no items at all.
    #[error("option {option} is empty")]
    EmptyOption {
        /// The option's number (from 0).
        option: usize,
    },
    /// An option gives a colour to a primary item; only secondary items take
    /// colours.
    #[error("option {option}: primary item '{item}' cannot have a colour")]
    ColourOnPrimary {
        /// The option's number (from 0).
        option: usize,
        /// The primary item given a colour.
        item: String,
    },
    /// Every item is secondary, so there is nothing to cover.
    #[error("the problem has no primary items")]
    NoPrimaryItems,
    /// A primary item's multiplicity bounds are impossible.
    #[error("item '{item}': bounds {lo}..{hi} are invalid (need lo <= hi and hi >= 1)")]
    BadBounds {
        /// The item.
        item: String,
        /// The least number of options that must contain it, as given.
        lo: u32,
        /// The most options that may contain it, as given.
        hi: u32,
    },
    /// An item name is empty or contains a character the text format reserves
    /// (`:` separates a colour, `|` separates secondary items and bounds) or
    /// white space (which separates names).
    #[error("item name '{0}' is not valid (empty, or contains ':', '|' or white space)")]
    BadName(String),
    /// The problem needs more items or entries than the engines' `u32`
    /// indices can address.
    #[error("too many items or options for 32-bit indices")]
    TooLarge,
}

/// Builds a [`Problem`]: declare items, then add options.
///
/// ```
/// use exact_cover::ProblemBuilder;
/// let mut b = ProblemBuilder::new();
/// for name in ["A", "B", "C"] { b.primary(name); }
/// b.secondary("X");
/// b.option_named(["A", "B", "X:red"]);
/// b.option_named(["C", "X:red"]);
/// let problem = b.build().unwrap();
/// assert_eq!(problem.option_count(), 2);
/// ```
#[derive(Clone, Debug)]
pub struct ProblemBuilder {
    items: Vec<Item>,
    by_name: HashMap<Box<str>, u32>,
    colours: Vec<Box<str>>,
    colour_ids: HashMap<Box<str>, u32>,
    entries: Vec<Entry>,
    starts: Vec<u32>,
    error: Option<BuildError>,
    /// Per item, the number (plus one) of the last option that listed it:
    /// finds a repeated item in an option in constant time per item, so an
    /// option of any length is checked in linear time.
    seen: Vec<usize>,
}

impl Default for ProblemBuilder {
    /// An empty builder, as [`ProblemBuilder::new`]. (Written by hand: the
    /// option table starts with the first option's start, 0.)
    fn default() -> Self {
        Self {
            items: Vec::new(),
            by_name: HashMap::new(),
            colours: Vec::new(),
            colour_ids: HashMap::new(),
            entries: Vec::new(),
            starts: vec![0],
            error: None,
            seen: Vec::new(),
        }
    }
}

impl ProblemBuilder {
    /// An empty builder.
    pub fn new() -> Self {
        Self::default()
    }

    /// An empty builder with `primary` unnamed primary items (ids `0..primary`)
    /// and `secondary` unnamed secondary items after them. Fast path for
    /// generated problems.
    pub fn with_items(primary: usize, secondary: usize) -> Self {
        let mut b = Self::new();
        b.reset_items(primary, secondary);
        b
    }

    /// Forget everything but keep the allocated memory, then declare
    /// `primary` + `secondary` unnamed items as [`with_items`](Self::with_items) does.
    pub fn reset_items(&mut self, primary: usize, secondary: usize) {
        self.items.clear();
        self.by_name.clear();
        self.colours.clear();
        self.colour_ids.clear();
        self.entries.clear();
        self.starts.clear();
        self.starts.push(0);
        self.error = None;
        self.seen.clear();
        let item = |secondary: bool| Item {
            name: None,
            secondary,
            lo: if secondary { 0 } else { 1 },
            hi: 1,
        };
        self.items.extend((0..primary).map(|_| item(false)));
        self.items.extend((0..secondary).map(|_| item(true)));
    }

    fn declare(&mut self, name: &str, secondary: bool, lo: u32, hi: u32) -> ItemId {
        let id = self.items.len() as u32;
        if name.is_empty() || name.contains([':', '|']) || name.contains(char::is_whitespace) {
            self.fail(BuildError::BadName(name.to_string()));
        }
        if self.by_name.insert(name.into(), id).is_some() {
            self.fail(BuildError::DuplicateItem(name.to_string()));
        }
        if lo > hi || hi == 0 {
            self.fail(BuildError::BadBounds {
                item: name.to_string(),
                lo,
                hi,
            });
        }
        self.items.push(Item {
            name: Some(name.into()),
            secondary,
            lo,
            hi,
        });
        ItemId(id)
    }

    fn fail(&mut self, e: BuildError) {
        if self.error.is_none() {
            self.error = Some(e);
        }
    }

    /// Declare a primary item that must be covered exactly once.
    pub fn primary(&mut self, name: &str) -> ItemId {
        self.declare(name, false, 1, 1)
    }

    /// Declare a primary item that must be covered between `lo` and `hi` times
    /// (Knuth's multiplicities, as his DLX3 reads `lo:hi|name`).
    pub fn primary_with_bounds(&mut self, name: &str, lo: u32, hi: u32) -> ItemId {
        self.declare(name, false, lo, hi)
    }

    /// Declare a secondary item (covered at most once, or by options that agree on its colour).
    pub fn secondary(&mut self, name: &str) -> ItemId {
        self.declare(name, true, 0, 1)
    }

    /// The id of a colour name, interning it.
    pub fn colour(&mut self, name: &str) -> ColourId {
        if let Some(&c) = self.colour_ids.get(name) {
            return ColourId(c);
        }
        self.colours.push(name.into());
        let c = self.colours.len() as u32;
        self.colour_ids.insert(name.into(), c);
        ColourId(c)
    }

    /// The id of a declared item name.
    pub fn item_id(&self, name: &str) -> Option<ItemId> {
        self.by_name.get(name).copied().map(ItemId)
    }

    /// Add an option from item ids, each with an optional colour.
    /// Validation (repeated items, colours on primary items, empty options)
    /// happens here and is reported by [`build`](Self::build).
    pub fn option(
        &mut self,
        items: impl IntoIterator<Item = (ItemId, Option<ColourId>)>,
    ) -> &mut Self {
        let option = self.starts.len() - 1;
        let start = self.entries.len();
        if self.seen.len() < self.items.len() {
            self.seen.resize(self.items.len(), 0);
        }
        for (ItemId(item), colour) in items {
            let colour = colour.map_or(0, |c| c.0);
            if item as usize >= self.items.len() {
                self.fail(BuildError::UnknownItem {
                    option,
                    item: format!("#{item}"),
                });
                continue;
            }
            if colour != 0 && !self.items[item as usize].secondary {
                let item = self.item_label(item);
                self.fail(BuildError::ColourOnPrimary { option, item });
            }
            if self.seen[item as usize] == option + 1 {
                let item = self.item_label(item);
                self.fail(BuildError::RepeatedItem { option, item });
            }
            self.seen[item as usize] = option + 1;
            self.entries.push(Entry { item, colour });
        }
        if self.entries.len() == start {
            self.fail(BuildError::EmptyOption { option });
        }
        self.starts.push(self.entries.len() as u32);
        self
    }

    /// Add an option of uncoloured items by id. Fast path: the only check is
    /// that ids are in range and not repeated.
    pub fn option_ids(&mut self, items: &[u32]) -> &mut Self {
        self.option(items.iter().map(|&i| (ItemId(i), None)))
    }

    /// Add an option by item names; `name:colour` gives a secondary item a colour.
    pub fn option_named<S: AsRef<str>>(&mut self, items: impl IntoIterator<Item = S>) -> &mut Self {
        let option = self.starts.len() - 1;
        let mut resolved = Vec::new();
        for s in items {
            let s = s.as_ref();
            let (name, colour) = match s.split_once(':') {
                Some((n, c)) => (n, Some(c)),
                None => (s, None),
            };
            match self.item_id(name) {
                Some(id) => {
                    let colour = colour.map(|c| self.colour(c));
                    resolved.push((id, colour));
                }
                None => {
                    self.fail(BuildError::UnknownItem {
                        option,
                        item: name.to_string(),
                    });
                    // keep the option so later option numbers stay right
                }
            }
        }
        self.option(resolved)
    }

    fn item_label(&self, item: u32) -> String {
        match &self.items[item as usize].name {
            Some(n) => n.to_string(),
            None => format!("#{item}"),
        }
    }

    /// The items declared so far.
    pub(crate) fn declared_items(&self) -> &[Item] {
        &self.items
    }

    /// Number of options added so far.
    pub fn option_count(&self) -> usize {
        self.starts.len() - 1
    }

    /// Validate and freeze. Leaves the builder empty (memory kept for reuse).
    pub fn build(&mut self) -> Result<Problem, BuildError> {
        if let Some(e) = self.error.take() {
            return Err(e);
        }
        if !self.items.iter().any(|i| !i.secondary) {
            return Err(BuildError::NoPrimaryItems);
        }
        if self.items.len() >= (u32::MAX / 2) as usize
            || self.entries.len() >= (i32::MAX / 2) as usize
        {
            return Err(BuildError::TooLarge);
        }
        // option numbers start again from 0
        self.seen.clear();
        Ok(Problem {
            items: std::mem::take(&mut self.items),
            colours: std::mem::take(&mut self.colours),
            entries: std::mem::take(&mut self.entries),
            starts: std::mem::replace(&mut self.starts, vec![0]),
        })
    }

    /// Validate and freeze into `problem`, reusing its memory; the builder keeps
    /// its item declarations, so it can be refilled with new options after
    /// [`clear_options`](Self::clear_options).
    pub fn build_into(&mut self, problem: &mut Problem) -> Result<(), BuildError> {
        if let Some(e) = self.error.take() {
            return Err(e);
        }
        if !self.items.iter().any(|i| !i.secondary) {
            return Err(BuildError::NoPrimaryItems);
        }
        problem.items.clone_from(&self.items);
        problem.colours.clone_from(&self.colours);
        problem.entries.clone_from(&self.entries);
        problem.starts.clone_from(&self.starts);
        Ok(())
    }

    /// Remove all options, keeping items and memory.
    pub fn clear_options(&mut self) {
        self.entries.clear();
        self.starts.clear();
        self.starts.push(0);
        self.error = None;
        self.seen.clear();
    }
}

/// A validated exact-cover problem: items, colours and options. Immutable;
/// solvers ([`Dlx`](crate::Dlx)) load it into their own structures.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Problem {
    items: Vec<Item>,
    colours: Vec<Box<str>>,
    entries: Vec<Entry>,
    starts: Vec<u32>,
}

impl Problem {
    /// All items in declaration order.
    pub fn items(&self) -> &[Item] {
        &self.items
    }
    /// Number of items.
    pub fn item_count(&self) -> usize {
        self.items.len()
    }
    /// Number of primary items.
    pub fn primary_count(&self) -> usize {
        self.items.iter().filter(|i| !i.secondary).count()
    }
    /// Number of options.
    pub fn option_count(&self) -> usize {
        self.starts.len().saturating_sub(1)
    }
    /// The entries of option `k`.
    pub fn option(&self, k: usize) -> &[Entry] {
        &self.entries[self.starts[k] as usize..self.starts[k + 1] as usize]
    }
    /// Total number of entries over all options (the matrix's non-zeros).
    pub fn entry_count(&self) -> usize {
        self.entries.len()
    }
    /// The name of a colour id (1-based).
    pub fn colour_name(&self, c: u32) -> Option<&str> {
        c.checked_sub(1)
            .and_then(|i| self.colours.get(i as usize))
            .map(|s| &**s)
    }
    /// An item's display name: its declared name, or `#index` for unnamed items.
    pub fn item_name(&self, item: u32) -> String {
        match self.items.get(item as usize).and_then(|i| i.name()) {
            Some(n) => n.to_string(),
            None => format!("#{item}"),
        }
    }
    /// All entries, and the start of each option in them (one more than
    /// the number of options).
    pub(crate) fn raw_parts(&self) -> (&[Entry], &[u32]) {
        (&self.entries, &self.starts)
    }
    /// Whether any option gives a secondary item a colour.
    pub fn has_colours(&self) -> bool {
        self.entries.iter().any(|e| e.colour != 0)
    }
    /// Whether any item has bounds other than exactly once / at most once.
    pub fn has_multiplicities(&self) -> bool {
        self.items
            .iter()
            .any(|i| !i.secondary && (i.lo, i.hi) != (1, 1))
    }
    /// The items and colours without the options (their names, for
    /// writing options: see [`Dlx::set_names`](crate::Dlx::set_names)).
    pub(crate) fn names_only(&self) -> Problem {
        Problem {
            items: self.items.clone(),
            colours: self.colours.clone(),
            entries: Vec::new(),
            starts: vec![0],
        }
    }
    /// Option `k` written as in Knuth's format: `A D X:red`.
    pub fn option_text(&self, k: usize) -> String {
        let mut s = String::new();
        for (n, e) in self.option(k).iter().enumerate() {
            if n > 0 {
                s.push(' ');
            }
            s.push_str(&self.item_name(e.item));
            if e.colour != 0 {
                s.push(':');
                s.push_str(self.colour_name(e.colour).unwrap_or("?"));
            }
        }
        s
    }
}

impl fmt::Display for Problem {
    /// The problem in Knuth's DLX text format (items line, then one option per line).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        crate::format::write_problem(self, f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_default_builder_is_a_new_one() {
        let mut b = ProblemBuilder::default();
        b.primary("A");
        b.primary("B");
        b.option_named(["A"]).option_named(["B"]);
        let p = b.build().expect("builds");
        assert_eq!(p.option_count(), 2);
        let mut n = ProblemBuilder::new();
        n.primary("A");
        n.primary("B");
        n.option_named(["A"]).option_named(["B"]);
        assert_eq!(n.build().expect("builds"), p);
    }
}
