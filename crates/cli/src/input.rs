//! Reading puzzles from files or standard input: one record per puzzle in
//! input order, a bad puzzle becoming an error record in its place.

use std::fs::File;
use std::io::{self, BufReader};
use std::path::PathBuf;

use anyhow::Context;
use sudoku_core::Grid;
use sudoku_core::format::{PuzzleReader, ReadError};

/// One input puzzle, or why it could not be read.
#[derive(Debug)]
pub struct Record {
    /// File name, or `-` for standard input.
    pub source: String,
    /// Input line where the puzzle starts (or the error was found), from 1.
    pub line: usize,
    pub puzzle: Result<Grid, String>,
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

fn read_one(input: impl io::BufRead, source: &str, out: &mut Vec<Record>) -> anyhow::Result<()> {
    for item in PuzzleReader::new(input) {
        match item {
            Ok(p) => out.push(Record {
                source: source.to_string(),
                line: p.line,
                puzzle: Ok(p.grid),
            }),
            Err(ReadError::Parse(e)) => out.push(Record {
                source: source.to_string(),
                line: e.line,
                puzzle: Err(e.to_string()),
            }),
            Err(ReadError::Io(e)) => {
                return Err(e).with_context(|| format!("cannot read {source}"));
            }
        }
    }
    Ok(())
}
