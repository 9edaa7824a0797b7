//! The Interactive Sudoku Solver's text format.
//!
//! A puzzle is a run of tokens, each a dot, a kind and its arguments joined
//! by `~`: `.Cage~10~R1C1~R1C2.Thermo~R1C3~R2C3~R3C3`. Givens have no kind:
//! `.~R1C1_5~R2C3_1_2` gives r1c1 the digit 5 and r2c3 the candidates 1 and
//! 2 (how ISS writes odd and even cells). Cells are `R<row>C<col>`, one
//! character each in base 17 (`1`..`9`, then `a`..`g` for 10 to 16), as ISS
//! writes them; `R10C12` is read too. `.Shape~6x6` sets the grid (9×9 when
//! absent) and `.NoBoxes` removes the boxes. A line of n² digits and dots
//! (`53..7....6..195...`) is read as a classic puzzle of that size.
//!
//! Errors name the token's column (from 1), the token, and what is wrong:
//! an unknown kind, a cell off the grid, a sum no cage can make.
//!
//! The format is the one ISS (github.com/sigh/Interactive-Sudoku-Solver,
//! MIT) reads and writes; this is an independent reader of it.

use std::fmt;

use super::{CellName, Cells};
use super::{Constraint, Puzzle, Shape, VariantError};

/// The kinds this reader knows, by ISS name, with their parsers.
type Parser = fn(&[&str], Shape) -> Result<Constraint, String>;

const KINDS: &[(&str, Parser)] = &[
    ("Diagonal", |a, _| super::regions::parse_diagonal(a)),
    ("Windoku", |a, _| flag(a, Constraint::Windoku)),
    ("DisjointSets", |a, _| flag(a, Constraint::DisjointSets)),
    ("Jigsaw", parse_jigsaw),
    ("Cage", super::cage::parse),
    ("Sum", super::sum::parse),
    ("LittleKiller", super::little_killer::parse),
    ("Sandwich", super::sandwich::parse),
    ("Thermo", |a, s| line(a, s, 2).map(Constraint::Thermo)),
    ("SlowThermo", |a, s| {
        line(a, s, 2).map(Constraint::SlowThermo)
    }),
    ("Arrow", super::arrow::parse),
    ("PillArrow", super::arrow::parse_pill),
    ("DoubleArrow", super::arrow::parse_double),
    ("WhiteDot", |a, s| adjacent(a, s).map(Constraint::WhiteDot)),
    ("BlackDot", |a, s| adjacent(a, s).map(Constraint::BlackDot)),
    ("StrictKropki", |a, _| flag(a, Constraint::StrictKropki)),
    ("X", |a, s| adjacent(a, s).map(Constraint::X)),
    ("V", |a, s| adjacent(a, s).map(Constraint::V)),
    ("StrictXV", |a, _| flag(a, Constraint::StrictXv)),
    ("AntiKnight", |a, _| flag(a, Constraint::AntiKnight)),
    ("AntiKing", |a, _| flag(a, Constraint::AntiKing)),
    ("AntiConsecutive", |a, _| {
        flag(a, Constraint::AntiConsecutive)
    }),
    ("Odd", |a, s| line(a, s, 1).map(Constraint::Odd)),
    ("Even", |a, s| line(a, s, 1).map(Constraint::Even)),
    ("Renban", |a, s| line(a, s, 2).map(Constraint::Renban)),
    ("Whisper", super::whisper::parse),
    ("Palindrome", |a, s| {
        line(a, s, 2).map(Constraint::Palindrome)
    }),
    ("Between", |a, s| line(a, s, 2).map(Constraint::Between)),
    ("Quad", super::quad::parse),
    ("RegionSumLine", |a, s| {
        line(a, s, 2).map(Constraint::RegionSumLine)
    }),
    ("GreaterThan", super::greater::parse),
    ("AllDifferent", super::greater::parse_all_different),
    ("Lockout", super::lockout::parse),
    ("Zipper", |a, s| line(a, s, 2).map(Constraint::Zipper)),
    ("XSum", super::outside::parse_xsum),
    ("Skyscraper", super::outside::parse_skyscraper),
];

/// One constraint from its ISS kind and arguments (the f-puzzles reader
/// builds its constraints through the same parsers and checks).
pub(crate) fn constraint(kind: &str, args: &[&str], shape: Shape) -> Result<Constraint, String> {
    match KINDS.iter().find(|(k, _)| *k == kind) {
        Some((_, parser)) => parser(args, shape),
        None => Err(format!("unknown constraint kind {kind:?}")),
    }
}

/// The ISS names of the kinds this reader knows.
pub fn kinds() -> impl Iterator<Item = &'static str> {
    KINDS.iter().map(|(k, _)| *k)
}

fn flag(args: &[&str], c: Constraint) -> Result<Constraint, String> {
    exactly(args, 0)?;
    Ok(c)
}

fn line(args: &[&str], shape: Shape, min: usize) -> Result<Cells, String> {
    Ok(Cells {
        cells: cells(args, shape, min)?,
    })
}

/// Cells of dots or XVs: at least two, each with a neighbour among them.
fn adjacent(args: &[&str], shape: Shape) -> Result<Cells, String> {
    let c = line(args, shape, 2)?;
    if let Some(lone) = c
        .cells
        .iter()
        .find(|a| !c.cells.iter().any(|b| a.touches(*b)))
    {
        return Err(format!("{lone} has no neighbour among the cells"));
    }
    Ok(c)
}

fn parse_jigsaw(args: &[&str], shape: Shape) -> Result<Constraint, String> {
    // ISS's older form puts the grid's shape first: `.Jigsaw~9x9~<layout>`.
    let layout = match args {
        [layout] | [_, layout] => layout,
        _ => {
            return Err(format!(
                "{} arguments: a jigsaw takes its layout",
                args.len()
            ));
        }
    };
    super::jigsaw::Jigsaw::parse(layout, shape).map(Constraint::Jigsaw)
}

/// The arguments, if there are exactly `k`.
pub(crate) fn exactly<'a, 'b>(args: &'a [&'b str], k: usize) -> Result<&'a [&'b str], String> {
    if args.len() == k {
        Ok(args)
    } else {
        Err(format!("{} arguments, expected {k}", args.len()))
    }
}

/// A whole number.
pub(crate) fn number(arg: &str, what: &str) -> Result<u32, String> {
    arg.parse::<u32>()
        .map_err(|_| format!("{what} {arg:?} is not a whole number"))
}

/// A digit of the grid (1..=n).
pub(crate) fn digit(arg: &str, shape: Shape) -> Result<u8, String> {
    match arg.parse::<u8>() {
        Ok(d) if d >= 1 && d as usize <= shape.side() => Ok(d),
        _ => Err(format!(
            "{arg:?} is not a digit of a {shape} grid (1 to {})",
            shape.side()
        )),
    }
}

/// `n` in base 17, as ISS writes row and column numbers (1..=16).
pub(crate) fn base17(n: usize) -> char {
    char::from_digit(n as u32, 17).unwrap_or('?')
}

/// A row or column number: one base-17 character, or decimal digits.
pub(crate) fn from_base17(s: &str) -> Option<usize> {
    let mut chars = s.chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) => c.to_digit(17).map(|d| d as usize),
        (Some(_), Some(_)) => s.parse().ok(),
        _ => None,
    }
}

/// A cell: `R3C7` (ISS's base-17 characters), or `R10C12`.
pub(crate) fn cell(arg: &str, shape: Shape) -> Result<CellName, String> {
    let bad = || format!("{arg:?} is not a cell (R1C1 to {})", last_cell(shape));
    let rest = arg
        .strip_prefix('R')
        .or_else(|| arg.strip_prefix('r'))
        .ok_or_else(bad)?;
    // The row is one base-17 character or decimal digits, so the column's
    // `C` is the first `C` or `c` after which both halves read: row 12 is
    // `c` itself (`RcC5`, `rcc5`).
    let (row, col) = rest
        .char_indices()
        .filter(|&(i, ch)| i > 0 && ch.eq_ignore_ascii_case(&'c'))
        .find_map(|(i, _)| Some((from_base17(&rest[..i])?, from_base17(&rest[i + 1..])?)))
        .ok_or_else(bad)?;
    if row == 0 || col == 0 || row > shape.side() || col > shape.side() {
        return Err(format!("{arg} is off the {shape} grid"));
    }
    Ok(CellName::new(row as u8 - 1, col as u8 - 1))
}

fn last_cell(shape: Shape) -> String {
    let n = base17(shape.side());
    format!("R{n}C{n}")
}

/// A list of at least `min` cells.
pub(crate) fn cells(args: &[&str], shape: Shape, min: usize) -> Result<Vec<CellName>, String> {
    if args.len() < min {
        return Err(format!("{} cells, at least {min} needed", args.len()));
    }
    args.iter().map(|a| cell(a, shape)).collect()
}

/// ISS's name for a cell: `R3C7`, base 17 (`RgC1` for row 16).
pub fn cell_id(c: &CellName) -> String {
    format!(
        "R{}C{}",
        base17(c.row as usize + 1),
        base17(c.col as usize + 1)
    )
}

/// One token of the text, with the column it starts at (from 1).
struct Token<'a> {
    column: usize,
    text: &'a str,
}

impl Token<'_> {
    /// An error in this token, placed at the argument its message quotes
    /// (`"R1Z2" is not a cell`) when the token has it, else at its start.
    fn error(&self, message: String) -> VariantError {
        let arg = super::quoted(&message)
            .and_then(|q| self.text.find(&format!("~{q}")))
            .map_or(0, |k| self.text[..k].chars().count() + 1);
        VariantError::Token {
            column: self.column + arg,
            token: self.text.chars().take(40).collect(),
            message,
        }
    }
}

/// Cut the text into `.`-led tokens.
fn tokens(text: &str) -> Vec<Token<'_>> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, ch) in text.char_indices() {
        if ch == '.' {
            if let Some(s) = start {
                out.push((s, i));
            }
            start = Some(i);
        }
    }
    if let Some(s) = start {
        out.push((s, text.len()));
    }
    out.into_iter()
        .map(|(s, e)| Token {
            column: text[..s].chars().count() + 1,
            text: text[s..e].trim_end(),
        })
        .collect()
}

/// Whether a line is a classic puzzle line: n² digits, dots or zeros.
fn classic_side(text: &str) -> Option<usize> {
    let len = text.chars().count();
    let side = (1..=Shape::MAX_SIDE).find(|n| n * n == len)?;
    let ok = text.chars().all(|c| {
        c == '.'
            || c.is_ascii_digit()
            || (side > 9 && c.to_digit(36).is_some_and(|d| d as usize <= side))
    });
    (ok && side >= 4).then_some(side)
}

/// Read a puzzle: see the module docs.
pub fn parse(text: &str) -> Result<Puzzle, VariantError> {
    let text = text.trim_matches(|c: char| c.is_whitespace() || c == '\u{feff}');
    if let Some(side) = classic_side(text) {
        return parse_classic(text, side);
    }
    let lead = text.find('.').unwrap_or(text.len());
    if lead > 0 || text.is_empty() {
        return Err(VariantError::Token {
            column: 1,
            token: text.chars().take(40).collect(),
            message: "a puzzle is a run of .Kind~args tokens, or a line of n² digits and dots"
                .into(),
        });
    }
    let toks = tokens(text);
    // The shape first: every cell depends on it.
    let mut shape = Shape::NINE;
    for t in &toks {
        let mut parts = t.text[1..].split('~');
        if parts.next() == Some("Shape") {
            let args: Vec<&str> = parts.collect();
            shape = parse_shape(&args).map_err(|m| t.error(m))?;
        }
    }
    if toks.iter().any(|t| t.text == ".NoBoxes") {
        shape = shape.without_boxes();
    }
    let mut puzzle = Puzzle::new(shape);
    for t in &toks {
        let mut parts = t.text[1..].split('~');
        let kind = parts.next().unwrap_or("");
        let args: Vec<&str> = parts.collect();
        match kind {
            "" => givens(&args, &mut puzzle).map_err(|m| t.error(m))?,
            "Shape" => {}
            // Read above; arguments would be lost on writing it back.
            "NoBoxes" => {
                exactly(&args, 0).map_err(|m| t.error(m))?;
            }
            _ => {
                let Some((_, parser)) = KINDS.iter().find(|(k, _)| *k == kind) else {
                    return Err(t.error(format!(
                        "unknown constraint kind {kind:?}; known: {}",
                        kinds().collect::<Vec<_>>().join(", ")
                    )));
                };
                let c = parser(&args, shape).map_err(|m| t.error(m))?;
                puzzle.constraints.push(c);
            }
        }
    }
    Ok(puzzle)
}

fn parse_shape(args: &[&str]) -> Result<Shape, String> {
    let dims = args.first().copied().unwrap_or("");
    let bad = || format!("shape {dims:?}: NxN with N from 1 to {}", Shape::MAX_SIDE);
    let (r, c) = dims.split_once('x').ok_or_else(bad)?;
    let (r, c): (usize, usize) = (r.parse().map_err(|_| bad())?, c.parse().map_err(|_| bad())?);
    if r != c {
        return Err(format!("shape {dims}: only square grids are supported"));
    }
    if let Some(range) = args.get(1).filter(|s| !s.is_empty()) {
        if *range != r.to_string() && *range != format!("1-{r}") {
            return Err(format!("value range {range}: only 1 to {r} is supported"));
        }
    }
    if args.len() > 2 {
        return Err(format!("grid type {:?} is not supported", args[2]));
    }
    Shape::new(r).ok_or_else(bad)
}

/// `R1C1_5`, `R2C3_1_2`: a cell and its candidates.
fn givens(args: &[&str], puzzle: &mut Puzzle) -> Result<(), String> {
    let shape = puzzle.shape;
    for a in args {
        let (c, values) = a
            .split_once('_')
            .ok_or_else(|| format!("{a:?}: a given is a cell, _ and digits (R1C1_5)"))?;
        let c = cell(c, shape)?;
        let mut mask = 0u16;
        for v in values.split('_') {
            mask |= 1 << (digit(v, shape)? - 1);
        }
        let i = shape.index(c);
        puzzle.candidates[i] &= mask;
        if puzzle.candidates[i] == 0 {
            return Err(format!("{c} has no candidate left"));
        }
    }
    Ok(())
}

fn parse_classic(text: &str, side: usize) -> Result<Puzzle, VariantError> {
    let shape = Shape::new(side).expect("side in range");
    let mut puzzle = Puzzle::new(shape);
    for (i, ch) in text.chars().enumerate() {
        let d = match ch {
            '.' | '0' => continue,
            c => c.to_digit(36).filter(|&d| d >= 1 && d as usize <= side),
        };
        let Some(d) = d else {
            return Err(VariantError::Token {
                column: i + 1,
                token: ch.to_string(),
                message: format!("not a digit of a {shape} grid"),
            });
        };
        puzzle.candidates[i] = 1 << (d - 1);
    }
    Ok(puzzle)
}

/// Write a puzzle in the format [`parse`] reads.
pub(crate) fn write(p: &Puzzle, f: &mut fmt::Formatter<'_>) -> fmt::Result {
    let shape = p.shape;
    if shape.side() != 9 {
        write!(f, ".Shape~{0}x{0}", shape.side())?;
    }
    let default_boxes = Shape::new(shape.side()).and_then(|s| s.boxes());
    if shape.boxes().is_none() && default_boxes.is_some() {
        f.write_str(".NoBoxes")?;
    }
    let all = shape.all();
    let mut first = true;
    for (i, &m) in p.candidates.iter().enumerate() {
        if m == all {
            continue;
        }
        f.write_str(if first { ".~" } else { "~" })?;
        first = false;
        write!(f, "{}", cell_id(&shape.cell(i)))?;
        for d in super::solver::digits(m) {
            write!(f, "_{d}")?;
        }
    }
    for c in &p.constraints {
        write!(f, "{c}")?;
    }
    // An empty 9×9 grid still needs a token to read back.
    if shape.side() == 9 && first && p.constraints.is_empty() && shape.boxes().is_some() {
        f.write_str(".Shape~9x9")?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_read_in_base_17_and_decimal() {
        let s = Shape::new(16).unwrap();
        assert_eq!(cell("RgC1", s), Ok(CellName::new(15, 0)));
        assert_eq!(cell("R10C12", s), Ok(CellName::new(9, 11)));
        assert_eq!(cell_id(&CellName::new(15, 9)), "RgCa");
        assert!(cell("R0C1", s).is_err());
        assert!(cell("R1C1", Shape::new(4).unwrap()).is_ok());
        assert!(cell("R5C1", Shape::new(4).unwrap()).is_err());
    }

    /// Found by the fuzzer: row 12 is `c`, the same letter as the column's
    /// `C`; `RcC5` is written for it, and must read back.
    #[test]
    fn row_twelve_is_not_the_column_letter() {
        let s = Shape::new(16).unwrap();
        assert_eq!(cell("RcC5", s), Ok(CellName::new(11, 4)));
        assert_eq!(cell("rcc5", s), Ok(CellName::new(11, 4)));
        assert_eq!(cell("RCCC", s), Ok(CellName::new(11, 11)));
        assert_eq!(cell("R5cc", s), Ok(CellName::new(4, 11)));
        assert_eq!(cell("R1CC", s), Ok(CellName::new(0, 11)));
        assert_eq!(cell("R12C12", s), Ok(CellName::new(11, 11)));
        assert!(cell("RC5", s).is_err());
        assert!(cell("Rcc", s).is_err());
        for side in [4, 9, 15, 16] {
            let s = Shape::new(side).unwrap();
            for r in 0..side as u8 {
                for c in 0..side as u8 {
                    let name = CellName::new(r, c);
                    assert_eq!(cell(&cell_id(&name), s), Ok(name), "{}", cell_id(&name));
                    let lower = cell_id(&name).to_ascii_lowercase();
                    assert_eq!(cell(&lower, s), Ok(name), "{lower}");
                }
            }
        }
        // the fuzzer's puzzle: a 15×15 grid with givens on row 12 reads back
        let text = ".Shape~15x15.~RcC5_3~RcC6_3~RcCd_5";
        let p = parse(text).expect("reads");
        assert_eq!(parse(&p.to_string()), Ok(p));
    }

    #[test]
    fn round_trip() {
        let text = ".Shape~6x6.~R1C1_5~R2C2_1_3.Cage~10~R1C2~R1C3.Thermo~R3C1~R3C2~R3C3\
                    .WhiteDot~R4C1~R4C2.Whisper~2~R5C1~R5C2.Diagonal~-1";
        let p = parse(text).expect("reads");
        assert_eq!(p.shape.side(), 6);
        assert_eq!(p.constraints.len(), 5);
        assert_eq!(p.to_string(), text);
        assert_eq!(parse(&p.to_string()), Ok(p));
    }

    #[test]
    fn errors_name_the_token() {
        let e = parse(".~R1C1_5.Cagey~3~R1C1").unwrap_err();
        let VariantError::Token {
            column,
            token,
            message,
        } = e
        else {
            panic!("{e:?}")
        };
        assert_eq!((column, token.as_str()), (9, ".Cagey~3~R1C1"));
        assert!(message.contains("unknown constraint kind"), "{message}");
        let e = parse(".Cage~50~R1C1~R1C2").unwrap_err().to_string();
        assert!(e.contains("no 2 different digits sum to 50"), "{e}");
        let e = parse(".Thermo~R1C1~R1CA").unwrap_err().to_string();
        assert!(e.contains("off the 9x9 grid"), "{e}");
        assert!(parse("hello").is_err());
    }

    #[test]
    fn edge_cases_read_back() {
        // An empty 9×9 grid writes a token, not nothing.
        let empty = parse(".Shape~9x9").expect("reads");
        assert_eq!(empty.to_string(), ".Shape~9x9");
        assert_eq!(parse(&empty.to_string()), Ok(empty));
        let no_boxes = parse(".NoBoxes").expect("reads");
        assert_eq!(parse(&no_boxes.to_string()), Ok(no_boxes));
        // Arguments to NoBoxes are refused rather than dropped.
        let e = parse(".NoBoxes~RaCA").unwrap_err().to_string();
        assert!(e.contains("1 arguments, expected 0"), "{e}");
    }

    #[test]
    fn classic_lines_are_puzzles() {
        let p = parse("1.3...2.........").expect("4x4");
        assert_eq!(p.shape.side(), 4);
        assert_eq!(p.givens()[..4], [1, 0, 3, 0]);
    }
}
