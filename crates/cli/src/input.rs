//! Reading puzzles from files or standard input: one record per puzzle in
//! input order, a bad puzzle becoming an error record in its place.

use std::fs::File;
use std::io::{self, BufReader};
use std::path::PathBuf;

use anyhow::Context;
use sudoku_core::format::{Candidates, PuzzleParser};
use sudoku_core::{Grid, Size};

/// One input puzzle, or why it could not be read.
#[derive(Debug)]
pub struct Record {
    /// File name, or `-` for standard input.
    pub source: String,
    /// Input line where the puzzle starts (or the error was found), from 1.
    pub line: usize,
    pub puzzle: Result<Grid, String>,
    /// For a pencilmark line (729 characters for 9×9): the candidates, and
    /// `puzzle` holds the cells that have a single candidate.
    pub candidates: Option<Candidates>,
}

impl Record {
    /// "file:line" for messages.
    pub fn place(&self) -> String {
        format!("{}:{}", self.source, self.line)
    }
}

/// Read every puzzle of `files` (standard input when empty or `-`).
/// A malformed puzzle gives an error record; an unreadable file is an error.
pub fn read_all(files: &[PathBuf]) -> anyhow::Result<Vec<Record>> {
    let mut out = Vec::new();
    if files.is_empty() {
        read_one(io::stdin().lock(), "-", &mut out)?;
    }
    for f in files {
        if f.as_os_str() == "-" {
            read_one(io::stdin().lock(), "-", &mut out)?;
        } else {
            let file = File::open(f).with_context(|| format!("cannot open {}", f.display()))?;
            read_one(BufReader::new(file), &f.display().to_string(), &mut out)?;
        }
    }
    Ok(out)
}

/// Whether a line is a pencilmark line: its first token has one character
/// per (cell, digit) of a grid with n ≤ 9 (64 for 4×4, 729 for 9×9).
fn is_pencilmark_line(line: &str) -> bool {
    let tok = line.split_whitespace().next().unwrap_or("");
    !tok.starts_with('#')
        && [Size::FOUR, Size::NINE]
            .iter()
            .any(|s| tok.len() == s.cells() * s.side())
}

fn read_one(
    mut input: impl io::BufRead,
    source: &str,
    out: &mut Vec<Record>,
) -> anyhow::Result<()> {
    let mut parser = PuzzleParser::new();
    let mut buf = Vec::new();
    let mut line_no = 0;
    let drain = |parser: &mut PuzzleParser, out: &mut Vec<Record>| {
        while let Some(r) = parser.next_result() {
            out.push(match r {
                Ok(p) => Record {
                    source: source.to_string(),
                    line: p.line,
                    puzzle: Ok(p.grid),
                    candidates: None,
                },
                Err(e) => Record {
                    source: source.to_string(),
                    line: e.line,
                    puzzle: Err(e.to_string()),
                    candidates: None,
                },
            });
        }
    };
    loop {
        buf.clear();
        let n = input
            .read_until(b'\n', &mut buf)
            .with_context(|| format!("cannot read {source}"))?;
        if n == 0 {
            break;
        }
        line_no += 1;
        let line = String::from_utf8_lossy(&buf);
        if is_pencilmark_line(&line) {
            // a pencilmark line stands alone: finish whatever came before
            parser.finish();
            drain(&mut parser, out);
            out.push(pencilmark_record(source, line_no, &line));
        } else {
            parser.feed_line(line_no, &line);
            drain(&mut parser, out);
        }
    }
    parser.finish();
    drain(&mut parser, out);
    Ok(())
}

fn pencilmark_record(source: &str, line: usize, text: &str) -> Record {
    let parsed = Candidates::parse_pencilmarks(text.trim_end()).map_err(|e| {
        // the parser numbers its single line 1: give the input line
        let msg = e.to_string();
        msg.replacen("line 1,", &format!("line {line},"), 1)
    });
    match parsed {
        Ok(c) => {
            let cells = c.singles();
            match Grid::from_cells(cells) {
                Ok(g) => Record {
                    source: source.to_string(),
                    line,
                    puzzle: Ok(g),
                    candidates: Some(c),
                },
                Err(e) => Record {
                    source: source.to_string(),
                    line,
                    puzzle: Err(format!("line {line}: {e}")),
                    candidates: None,
                },
            }
        }
        Err(msg) => Record {
            source: source.to_string(),
            line,
            puzzle: Err(msg),
            candidates: None,
        },
    }
}

/// One position for `hint` and `explain`: a puzzle, or a player's
/// pencilmarks.
#[derive(Debug, Clone)]
pub struct Position {
    /// The filled cells: the givens, or with pencilmarks every cell with a
    /// single candidate.
    pub grid: Grid,
    /// The candidates: from the grid, or the player's pencilmarks (less the
    /// digits a peer holds).
    pub candidates: sudoku_core::rate::Candidates,
    /// Whether the candidates came from pencilmarks.
    pub pencilmarks: bool,
}

/// Read one position from a command-line argument: the puzzle itself (a
/// line of 16, 81 or 256 characters, or a 64- or 729-character pencilmark
/// line), `-` for standard input, or the name of a file whose first puzzle
/// is used.
///
/// In a pencilmark line every cell lists its candidates (the digit where it
/// is one, `.` where not); a cell with a single candidate counts as filled.
/// Errors are about the input (exit code 1); unreadable files are I/O errors.
pub fn read_position(arg: &str) -> Result<Position, PositionError> {
    let text = if arg == "-" {
        let mut s = String::new();
        io::Read::read_to_string(&mut io::stdin().lock(), &mut s)
            .map_err(|e| PositionError::Io(format!("cannot read standard input: {e}")))?;
        s
    } else if std::path::Path::new(arg).is_file() {
        std::fs::read_to_string(arg)
            .map_err(|e| PositionError::Io(format!("cannot read {arg}: {e}")))?
    } else {
        arg.to_string()
    };
    parse_position(&text).map_err(PositionError::Input)
}

/// Why a position could not be read.
#[derive(Debug, Clone)]
pub enum PositionError {
    /// The file or standard input could not be read.
    Io(String),
    /// The text is not a puzzle or pencilmark grid.
    Input(String),
}

/// Parse a position from text: the first pencilmark line, else the first
/// puzzle (line or grid form).
pub fn parse_position(text: &str) -> Result<Position, String> {
    let first = text
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty() && !l.starts_with('#'))
        .ok_or_else(|| "no puzzle in the input".to_string())?;
    let token_len = first
        .split_whitespace()
        .next()
        .map_or(0, |t| t.chars().count());
    if token_len == 64 || token_len == 729 {
        let marks = sudoku_core::format::Candidates::parse_pencilmarks(first)
            .map_err(|e| format!("pencilmarks: {e}"))?;
        let cells = marks.singles();
        let grid = Grid::from_cells(cells).map_err(|e| e.to_string())?;
        if let Some(c) = marks.masks().iter().position(|&m| m == 0) {
            let s = grid.size();
            return Err(format!(
                "pencilmarks: cell {} has no candidate left",
                s.cell_name(c)
            ));
        }
        if let Some(c) = grid.first_conflict() {
            return Err(format!("pencilmarks: {c}"));
        }
        let candidates = sudoku_core::rate::Candidates::with_pencilmarks(&grid, marks.masks())
            .map_err(|e| e.to_string())?;
        return Ok(Position {
            grid,
            candidates,
            pencilmarks: true,
        });
    }
    let grid = sudoku_core::format::parse_one(text).map_err(|e| e.to_string())?;
    if let Some(c) = grid.first_conflict() {
        return Err(format!("the givens conflict: {c}"));
    }
    Ok(Position {
        candidates: sudoku_core::rate::Candidates::from_grid(&grid),
        grid,
        pencilmarks: false,
    })
}

/// Whether `grid` has exactly one solution (with the default method): the
/// solution, or a message saying what is wrong.
pub fn unique_solution(grid: &Grid) -> Result<Grid, String> {
    use sudoku_core::Uniqueness;
    let mut solver = sudoku_core::solve::by_name(sudoku_core::solve::default_method(grid.size()))
        .ok_or_else(|| "no solving method for this size".to_string())?;
    let limits = sudoku_core::Limits {
        deadline: Some(std::time::Instant::now() + std::time::Duration::from_secs(10)),
        ..sudoku_core::Limits::none()
    };
    match solver.uniqueness(grid, &limits).0 {
        Uniqueness::Unique(s) => Ok(s),
        Uniqueness::NoSolution => Err("the puzzle has no solution".to_string()),
        Uniqueness::Multiple(..) => Err("the puzzle has several solutions".to_string()),
        Uniqueness::Unknown(stop) => Err(format!("uniqueness unknown ({stop})")),
    }
}
