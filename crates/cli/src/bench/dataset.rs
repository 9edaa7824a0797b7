//! Datasets: puzzles parsed before any timing, and what they promise.
//!
//! A promise comes from the data or from the user, never from a file name:
//! `--expect unique|multiple|any`, else a `# expect: unique` (or
//! `multiple`, `any`) line among the comment lines at the top of the file,
//! else none ("any"). Without a promise every answer is still checked
//! against the rules and the givens, and the methods against each other.

use sudoku_core::Size;
use sudoku_core::format::parse_puzzles;
use sudoku_core::grid::Grid;

use super::measure::BenchError;

/// What a dataset promises about each puzzle's solutions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, clap::ValueEnum)]
#[serde(rename_all = "kebab-case")]
pub enum Expect {
    /// No promise: solutions are checked against the rules and the givens,
    /// and the methods against each other.
    Any,
    /// Exactly one solution each.
    Unique,
    /// At least two solutions each.
    Multiple,
}

impl Expect {
    /// The word of `--expect` and of the `# expect:` line.
    pub fn name(self) -> &'static str {
        match self {
            Expect::Any => "any",
            Expect::Unique => "unique",
            Expect::Multiple => "multiple",
        }
    }

    /// The promise in words.
    pub fn describe(self) -> &'static str {
        match self {
            Expect::Any => "no promise",
            Expect::Unique => "exactly 1 solution",
            Expect::Multiple => "at least 2 solutions",
        }
    }

    fn parse(word: &str) -> Option<Expect> {
        [Expect::Any, Expect::Unique, Expect::Multiple]
            .into_iter()
            .find(|e| e.name().eq_ignore_ascii_case(word))
    }
}

/// Where a dataset's promise comes from, for messages.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PromiseSource {
    /// Nothing said: [`Expect::Any`].
    Default,
    /// `--expect`.
    Flag,
    /// The file's `# expect:` line (its number, from 1).
    File(usize),
}

impl std::fmt::Display for PromiseSource {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PromiseSource::Default => f.write_str("the default"),
            PromiseSource::Flag => f.write_str("--expect"),
            PromiseSource::File(line) => write!(f, "its '# expect:' line {line}"),
        }
    }
}

/// One puzzle of a dataset and the input line it starts on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BenchPuzzle {
    /// The givens.
    pub grid: Grid,
    /// Input line, from 1.
    pub line: usize,
    /// The comment on the line, or on the comment line just before it.
    pub label: Option<String>,
}

/// A named set of puzzles, parsed before any timing.
#[derive(Clone, Debug)]
pub struct Dataset {
    /// The name in tables and messages (the file name as given).
    pub name: String,
    /// The puzzles in input order.
    pub puzzles: Vec<BenchPuzzle>,
    /// What the set promises.
    pub expect: Expect,
    /// Where the promise comes from.
    pub source: PromiseSource,
}

/// The value of a `# expect: WORD` comment line, if `line` is one.
fn expect_line(line: &str) -> Option<&str> {
    let rest = line.trim().strip_prefix('#')?.trim_start();
    let (key, value) = rest.split_once(':')?;
    key.trim()
        .eq_ignore_ascii_case("expect")
        .then_some(value.trim())
}

impl Dataset {
    /// Parse a whole input: one puzzle per line or grids, any size, `#`
    /// comment lines allowed. A malformed puzzle is an error naming its
    /// line; so is an input without puzzles, or a `# expect:` line at the
    /// top with an unknown word. The promise is `expect` when given (the
    /// `--expect` flag), else the file's `# expect:` line, else none.
    pub fn from_text(
        name: &str,
        text: &str,
        expect: Option<Expect>,
    ) -> Result<Dataset, BenchError> {
        let input = |message: String| BenchError::Input {
            dataset: name.to_string(),
            message,
        };
        let mut promise = (Expect::Any, PromiseSource::Default);
        // The header: the blank and comment lines before the first puzzle.
        for (i, line) in text.lines().enumerate() {
            let t = line.trim();
            if !(t.is_empty() || t.starts_with('#')) {
                break;
            }
            if let Some(word) = expect_line(t) {
                let e = Expect::parse(word).ok_or_else(|| {
                    input(format!(
                        "line {}: '# expect: {word}': expected unique, multiple or any",
                        i + 1
                    ))
                })?;
                promise = (e, PromiseSource::File(i + 1));
            }
        }
        if let Some(e) = expect {
            promise = (e, PromiseSource::Flag);
        }
        let lines: Vec<&str> = text.lines().collect();
        let mut puzzles = Vec::new();
        for item in parse_puzzles(text) {
            let p = item.map_err(|e| input(e.to_string()))?;
            let label = p.comment.or_else(|| {
                let prev = lines.get(p.line.checked_sub(2)?)?.trim();
                if expect_line(prev).is_some() {
                    return None;
                }
                prev.strip_prefix('#').map(|c| c.trim().to_string())
            });
            puzzles.push(BenchPuzzle {
                grid: p.grid,
                line: p.line,
                label,
            });
        }
        if puzzles.is_empty() {
            return Err(input("no puzzles".to_string()));
        }
        Ok(Dataset {
            name: name.to_string(),
            puzzles,
            expect: promise.0,
            source: promise.1,
        })
    }

    /// Keep only the first `n` puzzles (at least one).
    pub fn truncate(&mut self, n: usize) {
        self.puzzles.truncate(n.max(1));
    }

    /// The grid sizes in the set, smallest first.
    pub fn sizes(&self) -> Vec<Size> {
        let mut s: Vec<Size> = self.puzzles.iter().map(|p| p.grid.size()).collect();
        s.sort();
        s.dedup();
        s
    }

    /// The most cells of any puzzle.
    pub fn max_cells(&self) -> usize {
        self.puzzles
            .iter()
            .map(|p| p.grid.cells().len())
            .max()
            .unwrap_or(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const EASY: &str =
        "..3.7..4...6..23.1.89.........1.7.8.517.....6...4.....271..9..5.95..........2....";

    #[test]
    fn the_promise_comes_from_the_header_or_the_flag_never_the_name() {
        let d = Dataset::from_text("serg_multi-unique.txt", EASY, None).unwrap();
        assert_eq!((d.expect, d.source), (Expect::Any, PromiseSource::Default));
        let text = format!("# A set.\n#expect:  Multiple\n\n# first\n{EASY}\n");
        let d = Dataset::from_text("x.txt", &text, None).unwrap();
        assert_eq!(
            (d.expect, d.source),
            (Expect::Multiple, PromiseSource::File(2))
        );
        assert_eq!(d.puzzles[0].label.as_deref(), Some("first"));
        let d = Dataset::from_text("x.txt", &text, Some(Expect::Unique)).unwrap();
        assert_eq!((d.expect, d.source), (Expect::Unique, PromiseSource::Flag));
        // Only the header counts; the line itself never labels a puzzle.
        let late = format!("{EASY}\n# expect: unique\n{EASY}\n");
        let d = Dataset::from_text("x.txt", &late, None).unwrap();
        assert_eq!(d.expect, Expect::Any);
        assert_eq!(d.puzzles[1].label, None);
        let d = Dataset::from_text("x.txt", &format!("# expect: unique\n{EASY}\n"), None).unwrap();
        assert_eq!(
            (d.expect, d.puzzles[0].label.clone()),
            (Expect::Unique, None)
        );
    }

    #[test]
    fn a_bad_header_or_puzzle_names_the_line() {
        let err = Dataset::from_text("x.txt", &format!("# expect: one\n{EASY}\n"), None)
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("x.txt")
                && err.contains("line 1")
                && err.contains("unique, multiple or any"),
            "{err}"
        );
        let err = Dataset::from_text("x.txt", &format!("{EASY}\n12x4\n"), None)
            .unwrap_err()
            .to_string();
        assert!(err.contains("line 2"), "{err}");
        assert!(Dataset::from_text("x.txt", "# nothing\n", None).is_err());
    }

    #[test]
    fn sizes_and_cells() {
        let d = Dataset::from_text(
            "x.txt",
            &format!("1...\n..3.\n.4..\n...2\n\n{EASY}\n"),
            None,
        )
        .unwrap();
        assert_eq!(d.sizes(), vec![Size::FOUR, Size::NINE]);
        assert_eq!(d.max_cells(), 81);
    }
}
