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
            let cells = c
                .masks()
                .iter()
                .map(|&m| {
                    if m.count_ones() == 1 {
                        m.trailing_zeros() as u8 + 1
                    } else {
                        0
                    }
                })
                .collect();
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
