//! The variant corpus, `testdata/variant/corpus.tsv`: one puzzle a line,
//! tab-separated, `kind`, `name`, `puzzle` (ISS text), `count` (`0`, `1` or
//! `2+`) and `solution` (the digits row-major, `A` for 10 and on, when the
//! count is 1). Lines starting with `#` are comments. `kind` lists the ISS
//! names of the puzzle's constraints, sorted and joined by `+` (`Classic`
//! for none).
//!
//! The file is written by the `variant_corpus` example of this crate (see
//! its docs to regenerate it); `testdata/README.md` says where the puzzles
//! come from.

use std::fmt;
use std::path::PathBuf;

use sudoku_core::variant::Puzzle;

use crate::Count;

/// One line of the variant corpus.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VariantCase {
    /// The kinds of its constraints (see the module docs).
    pub kind: String,
    /// Unique name.
    pub name: String,
    /// The puzzle, ISS text.
    pub puzzle: String,
    /// How many solutions it has.
    pub count: Count,
    /// The solution when unique: digits row-major.
    pub solution: Option<Vec<u8>>,
}

/// The corpus file.
pub fn path() -> PathBuf {
    crate::testdata_dir().join("variant/corpus.tsv")
}

/// The `kind` column for a puzzle: its constraints' ISS names, sorted,
/// without repeats, joined by `+`.
pub fn kinds_of(p: &Puzzle) -> String {
    let mut kinds: Vec<&str> = p.constraints.iter().map(|c| c.iss_name()).collect();
    kinds.sort_unstable();
    kinds.dedup();
    if kinds.is_empty() {
        "Classic".to_string()
    } else {
        kinds.join("+")
    }
}

/// Digits from a solution line: `1`..`9`, then `A`.. for 10 and on.
pub fn parse_digits(line: &str) -> Option<Vec<u8>> {
    line.chars()
        .map(|c| c.to_digit(36).filter(|&d| d >= 1).map(|d| d as u8))
        .collect()
}

/// Read the corpus text; `Err` names the line that could not be read.
pub fn parse(text: &str) -> Result<Vec<VariantCase>, String> {
    let mut out: Vec<VariantCase> = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let bad = |what: &str| format!("line {}: {what}", i + 1);
        let f: Vec<&str> = line.split('\t').collect();
        if f.len() != 5 {
            return Err(bad(&format!("{} fields, not 5", f.len())));
        }
        let count = match f[3] {
            "0" => Count::Zero,
            "1" => Count::One,
            "2+" => Count::TwoOrMore,
            other => return Err(bad(&format!("count {other:?}"))),
        };
        let solution = match (count, f[4]) {
            (Count::One, s) => Some(parse_digits(s).ok_or_else(|| bad("solution digits"))?),
            (_, "") => None,
            _ => return Err(bad("a solution without a count of 1")),
        };
        if out.iter().any(|c| c.name == f[1]) {
            return Err(bad(&format!("name {:?} twice", f[1])));
        }
        out.push(VariantCase {
            kind: f[0].to_string(),
            name: f[1].to_string(),
            puzzle: f[2].to_string(),
            count,
            solution,
        });
    }
    Ok(out)
}

/// Load `testdata/variant/corpus.tsv`.
pub fn load() -> Result<Vec<VariantCase>, String> {
    let p = path();
    let text = std::fs::read_to_string(&p).map_err(|e| format!("{}: {e}", p.display()))?;
    parse(&text)
}

impl fmt::Display for VariantCase {
    /// The case as a line of the file (without the newline).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let count = match self.count {
            Count::Zero => "0",
            Count::One => "1",
            Count::TwoOrMore => "2+",
        };
        let solution = self
            .solution
            .as_deref()
            .map(sudoku_core::variant::to_line)
            .unwrap_or_default();
        write!(
            f,
            "{}\t{}\t{}\t{count}\t{solution}",
            self.kind, self.name, self.puzzle
        )
    }
}
