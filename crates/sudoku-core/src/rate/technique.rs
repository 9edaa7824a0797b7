//! The list of techniques, their names and their difficulty ratings.

use std::fmt;

/// A solving technique. Variants are listed in the order the rater tries them
/// (easiest first, by [`difficulty`](Technique::difficulty)).
///
/// Ratings follow the Sudoku Explainer scale (by Nicolas Juillerat) for the
/// techniques it shares; the others are our choice, documented on each
/// variant, placed among Explainer's values by how much of the grid a player
/// has to hold in mind.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "kebab-case")]
pub enum Technique {
    /// The last empty cell of a house. 1.0 (our choice: easier than any
    /// hidden single).
    FullHouse,
    /// A digit with one place left in a box. 1.2 (Explainer).
    HiddenSingleBox,
    /// A digit with one place left in a row or column. 1.5 (Explainer).
    HiddenSingleLine,
    /// A cell with one candidate left. 2.3 (Explainer).
    NakedSingle,
    /// In a box, a digit lies only in one row or column: remove it from the
    /// rest of that line. 2.6 (Explainer).
    Pointing,
    /// In a row or column, a digit lies only in one box: remove it from the
    /// rest of that box. 2.8 (Explainer).
    Claiming,
    /// Two cells of a house with the same two candidates. 3.0 (Explainer).
    NakedPair,
    /// X-wing: a fish of size 2. 3.2 (Explainer).
    XWing,
    /// Two digits confined to the same two cells of a house. 3.4 (Explainer).
    HiddenPair,
    /// Three cells of a house holding only three digits. 3.6 (Explainer).
    NakedTriple,
    /// Swordfish: a fish of size 3. 3.8 (Explainer).
    Swordfish,
    /// Three digits confined to three cells of a house. 4.0 (Explainer).
    HiddenTriple,
    /// Two conjugate pairs of a digit in parallel lines with one end of each
    /// in a common line. 4.0 (our choice: a single-digit pattern of two
    /// strong links, like a small fish).
    Skyscraper,
    /// A conjugate pair in a row and one in a column, joined in a box. 4.1
    /// (our choice, just above the skyscraper: the box link is harder to see).
    TwoStringKite,
    /// XY-wing. 4.2 (Explainer).
    XyWing,
    /// XYZ-wing. 4.4 (Explainer).
    XyzWing,
    /// Two equal bivalue cells joined by a strong link on one of their
    /// digits. 4.4 (our choice: as hard as the XYZ-wing, three cells plus a
    /// strong link).
    WWing,
    /// Unique rectangle type 1. 4.5 (Explainer). Assumes the puzzle has a
    /// unique solution.
    UniqueRectangle1,
    /// Simple colouring (colour trap and colour wrap) on one digit. 4.6 (our
    /// choice: single-digit chains of any length but only conjugate links).
    SimpleColouring,
    /// Four cells of a house holding only four digits. 5.0 (Explainer).
    NakedQuad,
    /// Jellyfish: a fish of size 4. 5.2 (Explainer).
    Jellyfish,
    /// Four digits confined to four cells of a house. 5.4 (Explainer).
    HiddenQuad,
    /// Bivalue universal grave + 1. 5.6 (Explainer). Assumes the puzzle has a
    /// unique solution.
    BugPlusOne,
    /// X-chain: an alternating chain of strong and weak links on one digit.
    /// 6.2 (our choice: below Explainer's 6.5 for bidirectional X-cycles, as
    /// a chain is one-directional and shorter to verify).
    XChain,
    /// XY-chain: a chain of bivalue cells. 6.4 (our choice: above the
    /// X-chain, as it mixes digits).
    XyChain,
}

impl Technique {
    /// Every technique, in the order the rater tries them (easiest first).
    pub const ALL: [Technique; 25] = [
        Technique::FullHouse,
        Technique::HiddenSingleBox,
        Technique::HiddenSingleLine,
        Technique::NakedSingle,
        Technique::Pointing,
        Technique::Claiming,
        Technique::NakedPair,
        Technique::XWing,
        Technique::HiddenPair,
        Technique::NakedTriple,
        Technique::Swordfish,
        Technique::HiddenTriple,
        Technique::Skyscraper,
        Technique::TwoStringKite,
        Technique::XyWing,
        Technique::XyzWing,
        Technique::WWing,
        Technique::UniqueRectangle1,
        Technique::SimpleColouring,
        Technique::NakedQuad,
        Technique::Jellyfish,
        Technique::HiddenQuad,
        Technique::BugPlusOne,
        Technique::XChain,
        Technique::XyChain,
    ];

    /// The number of techniques.
    pub const COUNT: usize = Technique::ALL.len();

    /// Position in [`Technique::ALL`].
    pub fn index(self) -> usize {
        self as usize
    }

    /// The technique's name as used in configs and on the command line
    /// ("hidden-single-box", "x-wing", ...).
    pub fn name(self) -> &'static str {
        match self {
            Technique::FullHouse => "full-house",
            Technique::HiddenSingleBox => "hidden-single-box",
            Technique::HiddenSingleLine => "hidden-single-line",
            Technique::NakedSingle => "naked-single",
            Technique::Pointing => "pointing",
            Technique::Claiming => "claiming",
            Technique::NakedPair => "naked-pair",
            Technique::XWing => "x-wing",
            Technique::HiddenPair => "hidden-pair",
            Technique::NakedTriple => "naked-triple",
            Technique::Swordfish => "swordfish",
            Technique::HiddenTriple => "hidden-triple",
            Technique::Skyscraper => "skyscraper",
            Technique::TwoStringKite => "two-string-kite",
            Technique::XyWing => "xy-wing",
            Technique::XyzWing => "xyz-wing",
            Technique::WWing => "w-wing",
            Technique::UniqueRectangle1 => "unique-rectangle-1",
            Technique::SimpleColouring => "simple-colouring",
            Technique::NakedQuad => "naked-quad",
            Technique::Jellyfish => "jellyfish",
            Technique::HiddenQuad => "hidden-quad",
            Technique::BugPlusOne => "bug-plus-one",
            Technique::XChain => "x-chain",
            Technique::XyChain => "xy-chain",
        }
    }

    /// The name as players write it ("Hidden single", "X-wing", ...).
    pub fn title(self) -> &'static str {
        match self {
            Technique::FullHouse => "Full house",
            Technique::HiddenSingleBox | Technique::HiddenSingleLine => "Hidden single",
            Technique::NakedSingle => "Naked single",
            Technique::Pointing => "Pointing",
            Technique::Claiming => "Claiming",
            Technique::NakedPair => "Naked pair",
            Technique::XWing => "X-wing",
            Technique::HiddenPair => "Hidden pair",
            Technique::NakedTriple => "Naked triple",
            Technique::Swordfish => "Swordfish",
            Technique::HiddenTriple => "Hidden triple",
            Technique::Skyscraper => "Skyscraper",
            Technique::TwoStringKite => "Two-string kite",
            Technique::XyWing => "XY-wing",
            Technique::XyzWing => "XYZ-wing",
            Technique::WWing => "W-wing",
            Technique::UniqueRectangle1 => "Unique rectangle type 1",
            Technique::SimpleColouring => "Simple colouring",
            Technique::NakedQuad => "Naked quad",
            Technique::Jellyfish => "Jellyfish",
            Technique::HiddenQuad => "Hidden quad",
            Technique::BugPlusOne => "BUG+1",
            Technique::XChain => "X-chain",
            Technique::XyChain => "XY-chain",
        }
    }

    /// The technique with this name (as [`name`](Technique::name) gives it;
    /// also accepts "simple-coloring").
    pub fn from_name(name: &str) -> Option<Technique> {
        let name = name.trim().to_ascii_lowercase();
        if name == "simple-coloring" {
            return Some(Technique::SimpleColouring);
        }
        Technique::ALL.into_iter().find(|t| t.name() == name)
    }

    /// Difficulty in tenths of the Sudoku Explainer scale (12 = 1.2).
    pub fn difficulty_tenths(self) -> u16 {
        match self {
            Technique::FullHouse => 10,
            Technique::HiddenSingleBox => 12,
            Technique::HiddenSingleLine => 15,
            Technique::NakedSingle => 23,
            Technique::Pointing => 26,
            Technique::Claiming => 28,
            Technique::NakedPair => 30,
            Technique::XWing => 32,
            Technique::HiddenPair => 34,
            Technique::NakedTriple => 36,
            Technique::Swordfish => 38,
            Technique::HiddenTriple => 40,
            Technique::Skyscraper => 40,
            Technique::TwoStringKite => 41,
            Technique::XyWing => 42,
            Technique::XyzWing => 44,
            Technique::WWing => 44,
            Technique::UniqueRectangle1 => 45,
            Technique::SimpleColouring => 46,
            Technique::NakedQuad => 50,
            Technique::Jellyfish => 52,
            Technique::HiddenQuad => 54,
            Technique::BugPlusOne => 56,
            Technique::XChain => 62,
            Technique::XyChain => 64,
        }
    }

    /// Difficulty on the Sudoku Explainer scale (1.0 to 6.4 here).
    pub fn difficulty(self) -> f32 {
        f32::from(self.difficulty_tenths()) / 10.0
    }
}

impl fmt::Display for Technique {
    /// The technique's name, as [`Technique::name`].
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.name())
    }
}

/// A technique name that is not known.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown technique {name:?} (known: full-house, hidden-single-box, ..., xy-chain)")]
pub struct UnknownTechnique {
    /// The name given.
    pub name: String,
}

/// Which techniques the rater may use. The default enables all of them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Config {
    enabled: u32,
}

impl Default for Config {
    fn default() -> Config {
        Config::all()
    }
}

impl Config {
    /// Every technique enabled (the default).
    pub fn all() -> Config {
        Config {
            enabled: (1u32 << Technique::COUNT) - 1,
        }
    }

    /// No technique enabled (enable some with [`with`](Config::with)).
    pub fn none() -> Config {
        Config { enabled: 0 }
    }

    /// Full house, hidden singles and naked singles only.
    pub fn singles() -> Config {
        Config::none()
            .with(Technique::FullHouse)
            .with(Technique::HiddenSingleBox)
            .with(Technique::HiddenSingleLine)
            .with(Technique::NakedSingle)
    }

    /// This config with `t` enabled.
    pub fn with(mut self, t: Technique) -> Config {
        self.enabled |= 1 << t.index();
        self
    }

    /// This config with `t` disabled.
    pub fn without(mut self, t: Technique) -> Config {
        self.enabled &= !(1 << t.index());
        self
    }

    /// Enable or disable a technique by name.
    pub fn set(&mut self, name: &str, enabled: bool) -> Result<(), UnknownTechnique> {
        let t = Technique::from_name(name).ok_or_else(|| UnknownTechnique {
            name: name.to_string(),
        })?;
        *self = if enabled {
            self.with(t)
        } else {
            self.without(t)
        };
        Ok(())
    }

    /// Whether `t` is enabled.
    pub fn is_enabled(&self, t: Technique) -> bool {
        self.enabled & (1 << t.index()) != 0
    }

    /// The enabled techniques, easiest first.
    pub fn techniques(&self) -> impl Iterator<Item = Technique> + '_ {
        Technique::ALL.into_iter().filter(|&t| self.is_enabled(t))
    }
}
