//! Text formats: puzzle lines, grid blocks and pencilmark lines, in and out.
//!
//! # Input
//!
//! - **Line form**: one puzzle per line, n² characters (16, 81, 256 or 625).
//!   A blank cell is `.`, `0` or `_`; digits above 9 are letters, `A` = 10,
//!   `B` = 11, ... (lowercase accepted). Text after the puzzle, separated by
//!   whitespace, is a comment.
//! - **Grid form**: a block of n lines of n cells, with or without `|`, `-`,
//!   `+` borders. Border-only lines are skipped and spaces between cells are
//!   allowed.
//! - Lines starting with `#` are comments, blank lines are skipped (between
//!   puzzles), CRLF line ends are accepted.
//!
//! A 16-character line without spaces is either a 4×4 puzzle or the first row
//! of a 16×16 grid: it is a grid row when the next line is a 16-cell row too
//! and one of the two holds a digit above 4 (so a file of 4×4 puzzles, one
//! per line, reads as such).
//!
//! [`parse_puzzles`] and [`PuzzleReader`] yield one `Result` per puzzle in input
//! order, so a bad puzzle never stops the rest of a batch. Every
//! [`ParseError`] names the line, the column and what was wrong, including
//! givens that already conflict ("5 appears twice in row 3").
//!
//! # Output
//!
//! [`Grid::to_line`] (and its `Display`), [`to_grid`] (boxes drawn with `+---+` borders) and [`rows`]
//! (one string per row, for JSON). Both forms read back to the same grid.
//!
//! # Pencilmarks
//!
//! A [`Candidates`] grid's line form ([`Candidates::parse_pencilmarks`],
//! [`Candidates::to_pencilmarks`]) has n characters per cell: for digit d,
//! the digit if it is still a candidate and `.` if it was eliminated (729
//! characters for 9×9, 64 for 4×4). A cell with a single candidate is a
//! placed digit. Its `Display` is the block form: one row per line, each
//! cell's candidates (or placed digit) in aligned columns, boxes ruled.

use std::collections::VecDeque;
use std::fmt::Write as _;
use std::io::BufRead;

use crate::Candidates;
use crate::grid::{CellName, Conflict, Grid, Size, digit_char};

/// Puzzle line lengths: n² for n = 4, 9, 16, 25.
pub const LINE_LENGTHS: [usize; 4] = [16, 81, 256, 625];
/// Grid row lengths: n = 4, 9, 16, 25.
pub const ROW_LENGTHS: [usize; 4] = [4, 9, 16, 25];

/// A parse error: where (1-based line and column) and what. Serializes with
/// its fields (for a JSON error record; use `to_string()` for the message).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error, serde::Serialize)]
#[error("line {line}, column {column}: {kind}")]
pub struct ParseError {
    /// Input line, from 1.
    pub line: usize,
    /// Column (in characters), from 1.
    pub column: usize,
    /// What was wrong.
    pub kind: ParseErrorKind,
}

/// What was wrong with a puzzle.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error, serde::Serialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
#[non_exhaustive]
pub enum ParseErrorKind {
    /// A character that is neither a digit (1-9, A-P) nor a blank (`.`, `0`, `_`).
    #[error("'{}' is not a digit or blank", found.escape_debug())]
    BadChar {
        /// The character.
        found: char,
    },
    /// A digit larger than the side of the grid.
    #[error("'{found}' is out of range for a {size} grid (digits 1 to {max})")]
    DigitOutOfRange {
        /// The character.
        found: char,
        /// The grid size.
        size: Size,
        /// The largest digit of that size, as written.
        max: char,
    },
    /// A puzzle line whose length is not n².
    #[error("a puzzle line has {found} cells, expected {expected} (lines have 16, 81, 256 or 625)")]
    WrongLength {
        /// Cells found.
        found: usize,
        /// The nearest valid length.
        expected: usize,
    },
    /// A line that is neither a puzzle line nor a grid row.
    #[error(
        "found {found} cells: expected a puzzle line (16, 81, 256 or 625 cells) or a grid row (4, 9, 16 or 25 cells)"
    )]
    NotAPuzzle {
        /// Cells found.
        found: usize,
    },
    /// A grid row with the wrong number of cells.
    #[error("grid row has {found} cells, expected {expected}")]
    WrongRowLength {
        /// Cells found.
        found: usize,
        /// Cells expected (the side of the grid begun above).
        expected: usize,
    },
    /// A grid block that ended before its last row.
    #[error("grid ended after {found} of {expected} rows")]
    IncompleteGrid {
        /// Rows read.
        found: usize,
        /// Rows expected.
        expected: usize,
    },
    /// Two givens break a rule; the error points at the second.
    #[error("{conflict} ({first} and {second})")]
    Conflict {
        /// The rule broken.
        conflict: Conflict,
        /// The first cell.
        first: CellName,
        /// The second cell.
        second: CellName,
    },
    /// A pencilmark line whose length is not n³ for n = 4 or 9.
    #[error("a pencilmark line has {found} characters, expected 729 (9x9) or 64 (4x4)")]
    WrongPencilmarkLength {
        /// Characters found.
        found: usize,
    },
    /// A pencilmark cell with no candidate left.
    #[error("cell {cell} has no candidate left")]
    NoCandidate {
        /// The cell.
        cell: CellName,
    },
    /// A pencilmark character that is neither its digit nor `.`.
    #[error("'{}' in a pencilmark line where '{expected}' or '.' was expected", found.escape_debug())]
    BadPencilmark {
        /// The character.
        found: char,
        /// The digit expected at that position.
        expected: char,
    },
    /// The input held no puzzle at all.
    #[error("no puzzle found")]
    NoPuzzle,
}

/// Reading a batch failed: a puzzle could not be parsed, or the input could not be read.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    /// One puzzle was malformed; the reader goes on with the next.
    #[error(transparent)]
    Parse(#[from] ParseError),
    /// The input could not be read; the reader stops.
    #[error("read error: {0}")]
    Io(#[from] std::io::Error),
}

/// A parsed puzzle with where it came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Puzzle {
    /// The givens (0 = empty).
    pub grid: Grid,
    /// The input line where the puzzle starts, from 1.
    pub line: usize,
    /// The comment after a puzzle line, if any (trimmed).
    pub comment: Option<String>,
}

/// The value of a cell character: `Some(0)` for a blank, `Some(d)` for digit
/// `d` (1..=25; letters `A`/`a` = 10 up to `P`/`p` = 25), `None` for anything else.
pub fn char_value(ch: char) -> Option<u8> {
    match ch {
        '.' | '0' | '_' => Some(0),
        '1'..='9' => Some(ch as u8 - b'0'),
        'A'..='P' => Some(ch as u8 - b'A' + 10),
        'a'..='p' => Some(ch as u8 - b'a' + 10),
        _ => None,
    }
}

fn cell_value(size: Size, ch: char) -> Result<u8, ParseErrorKind> {
    match char_value(ch) {
        None => Err(ParseErrorKind::BadChar { found: ch }),
        Some(d) if d as usize > size.side() => Err(ParseErrorKind::DigitOutOfRange {
            found: ch,
            size,
            max: digit_char(size.side() as u8),
        }),
        Some(d) => Ok(d),
    }
}

fn is_border_char(ch: char) -> bool {
    matches!(ch, '|' | '-' | '+' | '=') || ch.is_whitespace()
}

/// A line made only of border characters (and at least one of `-`, `+`, `=`, `|`).
fn is_border_line(line: &str) -> bool {
    line.chars().all(is_border_char) && line.chars().any(|c| !c.is_whitespace())
}

/// The cells of a grid row: every character that is not whitespace or `|`,
/// with its 1-based column.
fn row_cells(line: &str) -> Vec<(usize, char)> {
    line.chars()
        .enumerate()
        .filter(|&(_, c)| !c.is_whitespace() && c != '|')
        .map(|(i, c)| (i + 1, c))
        .collect()
}

/// Finish a grid: check it for conflicting givens, mapping cells back to positions.
fn finish_grid(
    cells: Vec<u8>,
    positions: &[(usize, usize)],
    line: usize,
    comment: Option<String>,
) -> Result<Puzzle, ParseError> {
    let grid = match Grid::from_cells(cells) {
        Ok(g) => g,
        // Unreachable with the callers' checks, but never panic on input.
        Err(_) => {
            return Err(ParseError {
                line,
                column: 1,
                kind: ParseErrorKind::NotAPuzzle {
                    found: positions.len(),
                },
            });
        }
    };
    if let Some(conflict) = grid.first_conflict() {
        let size = grid.size();
        let (l, c) = positions
            .get(conflict.cells[1])
            .copied()
            .unwrap_or((line, 1));
        return Err(ParseError {
            line: l,
            column: c,
            kind: ParseErrorKind::Conflict {
                conflict,
                first: size.cell_name(conflict.cells[0]),
                second: size.cell_name(conflict.cells[1]),
            },
        });
    }
    Ok(Puzzle {
        grid,
        line,
        comment,
    })
}

/// Parse a line-form puzzle whose token starts at 1-based column `start`.
fn parse_line_token(
    line_no: usize,
    token: &str,
    start: usize,
    comment: Option<String>,
) -> Result<Puzzle, ParseError> {
    let count = token.chars().count();
    let Some(size) = Size::from_cell_count(count) else {
        let expected = LINE_LENGTHS
            .iter()
            .copied()
            .min_by_key(|&l| l.abs_diff(count))
            .unwrap_or(81);
        return Err(ParseError {
            line: line_no,
            column: start + count.min(expected),
            kind: ParseErrorKind::WrongLength {
                found: count,
                expected,
            },
        });
    };
    let mut cells = Vec::with_capacity(count);
    let mut positions = Vec::with_capacity(count);
    for (i, ch) in token.chars().enumerate() {
        let column = start + i;
        let d = cell_value(size, ch).map_err(|kind| ParseError {
            line: line_no,
            column,
            kind,
        })?;
        cells.push(d);
        positions.push((line_no, column));
    }
    finish_grid(cells, &positions, line_no, comment)
}

/// Parse a line-form puzzle of ASCII bytes (n² cells, no comment) into
/// `grid`, reusing its buffer: the batch reader's path, which allocates
/// nothing for a good puzzle. `line` and `start` (the 1-based column of the
/// first cell) place errors, which are those of [`parse_line`].
pub fn parse_cells_into(
    grid: &mut Grid,
    token: &[u8],
    line: usize,
    start: usize,
) -> Result<(), ParseError> {
    read_cells_into(grid, token, line, start)?;
    check_givens(grid, line, start)
}

/// [`parse_cells_into`] without the check for givens that break a rule:
/// call [`check_givens`] before trusting the grid. (A batch solver skips
/// the check for puzzles it finds a solution of, which cannot conflict.)
pub fn read_cells_into(
    grid: &mut Grid,
    token: &[u8],
    line: usize,
    start: usize,
) -> Result<(), ParseError> {
    let size = match Size::from_cell_count(token.len()) {
        Some(size) if token.is_ascii() => size,
        _ => {
            let text = String::from_utf8_lossy(token);
            *grid = parse_line_token(line, &text, start, None)?.grid;
            return Ok(());
        }
    };
    grid.reset(size);
    let side = size.side() as u8;
    // A bad byte is found again below, slowly, for its message.
    let mut bad = false;
    if side == 9 {
        // Digits, `.`, `0` and `_` by arithmetic the compiler vectorises
        // (the 9×9 line is the hot path of a batch).
        for (cell, &b) in grid.cells_mut().iter_mut().zip(token) {
            let d = b.wrapping_sub(b'0');
            let digit = d <= 9;
            bad |= !(digit | (b == b'.') | (b == b'_'));
            *cell = if digit { d } else { 0 };
        }
    } else {
        // One table look-up per byte.
        for (cell, &b) in grid.cells_mut().iter_mut().zip(token) {
            let v = CELL_VALUE[b as usize];
            bad |= v > side;
            *cell = v;
        }
    }
    if bad {
        for (i, &b) in token.iter().enumerate() {
            cell_value(size, b as char).map_err(|kind| ParseError {
                line,
                column: start + i,
                kind,
            })?;
        }
    }
    Ok(())
}

/// The error for givens that break a rule, placed as in a line-form puzzle
/// at `line` whose first cell is at column `start`.
pub fn check_givens(grid: &Grid, line: usize, start: usize) -> Result<(), ParseError> {
    if grid.has_conflict() {
        let positions: Vec<(usize, usize)> =
            (0..grid.cells().len()).map(|i| (line, start + i)).collect();
        return finish_grid(grid.cells().to_vec(), &positions, line, None).map(|_| ());
    }
    Ok(())
}

/// [`char_value`] of every byte, 255 for a byte that is not a cell.
static CELL_VALUE: [u8; 256] = {
    let mut t = [255u8; 256];
    let mut b = 0;
    while b < 256 {
        t[b] = match b as u8 {
            b'.' | b'0' | b'_' => 0,
            d @ b'1'..=b'9' => d - b'0',
            d @ b'A'..=b'P' => d - b'A' + 10,
            d @ b'a'..=b'p' => d - b'a' + 10,
            _ => 255,
        };
        b += 1;
    }
    t
};

/// Parse one puzzle line (`.3..9..5....` with an optional comment after whitespace).
/// Errors report line 1.
pub fn parse_line(line: &str) -> Result<Grid, ParseError> {
    let line = line.trim_end_matches(['\r', '\n']);
    let lead = line.len() - line.trim_start().len();
    let start = line[..lead].chars().count() + 1;
    let rest = line.trim_start();
    let token = rest.split_whitespace().next().unwrap_or("");
    parse_line_token(1, token, start, None).map(|p| p.grid)
}

/// Parse the first puzzle (line or grid form) in `text`.
pub fn parse_one(text: &str) -> Result<Grid, ParseError> {
    parse_puzzles(text)
        .next()
        .unwrap_or(Err(ParseError {
            line: 1,
            column: 1,
            kind: ParseErrorKind::NoPuzzle,
        }))
        .map(|p| p.grid)
}

/// A puzzle from text: the first puzzle in it, in line or grid form, as
/// [`parse_one`] reads it (givens that conflict are an error).
///
/// ```
/// use sudoku_core::Grid;
///
/// let g: Grid = ".3..9..5.....1...45..8....7....3.2..6....9.4...7..25.......19....69....812.....7."
///     .parse()?;
/// assert_eq!(g.given_count(), 24);
/// assert!("1234".parse::<Grid>().is_err());
/// # Ok::<(), sudoku_core::ParseError>(())
/// ```
impl std::str::FromStr for Grid {
    type Err = ParseError;

    fn from_str(text: &str) -> Result<Grid, ParseError> {
        parse_one(text)
    }
}

/// A grid block being read.
#[derive(Debug)]
struct Block {
    start_line: usize,
    side: usize,
    rows: usize,
    cells: Vec<u8>,
    positions: Vec<(usize, usize)>,
    error: Option<ParseError>,
}

impl Block {
    fn new(start_line: usize, side: usize) -> Block {
        Block {
            start_line,
            side,
            rows: 0,
            cells: Vec::with_capacity(side * side),
            positions: Vec::with_capacity(side * side),
            error: None,
        }
    }

    fn add_row(&mut self, line_no: usize, cells: &[(usize, char)]) {
        self.rows += 1;
        if self.error.is_some() {
            return;
        }
        if cells.len() != self.side {
            let column = cells
                .get(self.side)
                .or(cells.last())
                .map_or(1, |&(c, _)| c + usize::from(cells.len() < self.side));
            self.error = Some(ParseError {
                line: line_no,
                column,
                kind: ParseErrorKind::WrongRowLength {
                    found: cells.len(),
                    expected: self.side,
                },
            });
            return;
        }
        let Some(size) = Size::from_side(self.side) else {
            return;
        };
        for &(column, ch) in cells {
            match cell_value(size, ch) {
                Ok(d) => {
                    self.cells.push(d);
                    self.positions.push((line_no, column));
                }
                Err(kind) => {
                    self.error = Some(ParseError {
                        line: line_no,
                        column,
                        kind,
                    });
                    return;
                }
            }
        }
    }

    fn is_complete(&self) -> bool {
        self.rows == self.side
    }

    fn finish(self, line_no: usize) -> Result<Puzzle, ParseError> {
        if let Some(e) = self.error {
            return Err(e);
        }
        if self.rows < self.side {
            return Err(ParseError {
                line: line_no,
                column: 1,
                kind: ParseErrorKind::IncompleteGrid {
                    found: self.rows,
                    expected: self.side,
                },
            });
        }
        finish_grid(self.cells, &self.positions, self.start_line, None)
    }
}

/// The line-by-line state machine behind [`parse_puzzles`] and [`PuzzleReader`].
///
/// Feed it lines with [`feed_line`](Self::feed_line), call
/// [`finish`](Self::finish) at the end of input, and take results with
/// [`next_result`](Self::next_result), in input order.
#[derive(Debug, Default)]
pub struct PuzzleParser {
    out: VecDeque<Result<Puzzle, ParseError>>,
    block: Option<Block>,
    /// A bare 16-character line: a 4×4 puzzle, or the first row of a 16×16 grid.
    held: Option<(usize, String)>,
    last_line: usize,
}

impl PuzzleParser {
    /// A parser at the start of input.
    pub fn new() -> Self {
        Self::default()
    }

    /// Whether no puzzle is under way: no grid block begun and no line held
    /// back. A line-form puzzle line fed now is read on its own.
    pub fn is_idle(&self) -> bool {
        self.block.is_none() && self.held.is_none()
    }

    /// The next finished result, if any.
    pub fn next_result(&mut self) -> Option<Result<Puzzle, ParseError>> {
        self.out.pop_front()
    }

    /// Feed line number `line_no` (from 1), with or without its line end.
    pub fn feed_line(&mut self, line_no: usize, raw: &str) {
        self.last_line = line_no;
        let line = raw.trim_end_matches(['\n', '\r']);
        let body = line.trim_start();
        let blank = body.is_empty();
        let comment = body.starts_with('#');
        let border = is_border_line(line);

        if let Some((held_no, held)) = self.held.take() {
            let cells = row_cells(line);
            let big = |c: char| char_value(c).is_some_and(|d| d > 4);
            if !blank
                && !comment
                && !border
                && cells.len() == 16
                && (held.chars().any(big) || cells.iter().any(|&(_, c)| big(c)))
            {
                let mut block = Block::new(held_no, 16);
                block.add_row(held_no, &row_cells(&held));
                block.add_row(line_no, &cells);
                self.block = Some(block);
                return;
            }
            self.out
                .push_back(parse_line_token(held_no, &held, 1, None));
        }

        if let Some(block) = &mut self.block {
            if comment || border {
                return;
            }
            let token_cells = body
                .split_whitespace()
                .next()
                .map_or(0, |t| t.chars().filter(|&c| c != '|').count());
            if blank || token_cells > 25 {
                // The block ended early; the line is read anew below.
                if let Some(b) = self.block.take() {
                    self.out.push_back(b.finish(line_no));
                }
            } else {
                block.add_row(line_no, &row_cells(line));
                if block.is_complete() {
                    if let Some(b) = self.block.take() {
                        self.out.push_back(b.finish(line_no));
                    }
                }
                return;
            }
        }

        if blank || comment {
            return;
        }
        let lead = line.len() - body.len();
        let start = line[..lead].chars().count() + 1;
        let mut parts = body.splitn(2, char::is_whitespace);
        let token = parts.next().unwrap_or("");
        let rest = parts.next().map(str::trim).filter(|r| !r.is_empty());
        let token_len = token.chars().count();
        if LINE_LENGTHS.contains(&token_len) && !token.contains('|') {
            if token_len == 16 && rest.is_none() && start == 1 {
                self.held = Some((line_no, token.to_string()));
                return;
            }
            self.out.push_back(parse_line_token(
                line_no,
                token,
                start,
                rest.map(str::to_string),
            ));
            return;
        }
        if border {
            return;
        }
        let cells = row_cells(line);
        if ROW_LENGTHS.contains(&cells.len()) {
            let mut block = Block::new(line_no, cells.len());
            block.add_row(line_no, &cells);
            self.block = Some(block);
            return;
        }
        let err = if token_len > 25 && !token.contains('|') {
            parse_line_token(line_no, token, start, None)
        } else {
            Err(ParseError {
                line: line_no,
                column: start,
                kind: ParseErrorKind::NotAPuzzle { found: cells.len() },
            })
        };
        self.out.push_back(err);
    }

    /// End of input: a held line or an unfinished grid becomes a result.
    pub fn finish(&mut self) {
        if let Some((held_no, held)) = self.held.take() {
            self.out
                .push_back(parse_line_token(held_no, &held, 1, None));
        }
        if let Some(b) = self.block.take() {
            self.out.push_back(b.finish(self.last_line + 1));
        }
    }
}

/// The puzzles of a text, one result per puzzle, in input order.
#[derive(Debug)]
pub struct Puzzles<'a> {
    lines: std::iter::Enumerate<std::str::Lines<'a>>,
    parser: PuzzleParser,
    done: bool,
}

impl Iterator for Puzzles<'_> {
    type Item = Result<Puzzle, ParseError>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            if let Some(r) = self.parser.next_result() {
                return Some(r);
            }
            if self.done {
                return None;
            }
            match self.lines.next() {
                Some((i, line)) => self.parser.feed_line(i + 1, line),
                None => {
                    self.parser.finish();
                    self.done = true;
                }
            }
        }
    }
}

/// Parse every puzzle (line or grid form) of `text`, in order.
pub fn parse_puzzles(text: &str) -> Puzzles<'_> {
    Puzzles {
        lines: text.lines().enumerate(),
        parser: PuzzleParser::new(),
        done: false,
    }
}

/// Reads puzzles from a [`BufRead`], one result per puzzle in input order.
///
/// Bytes that are not UTF-8 are read as U+FFFD and reported as bad characters.
/// An I/O error is yielded once, after the puzzles read before it, and ends
/// the iteration.
#[derive(Debug)]
pub struct PuzzleReader<R> {
    input: R,
    parser: PuzzleParser,
    buf: Vec<u8>,
    line_no: usize,
    done: bool,
    /// An I/O error, yielded after the puzzles read before it.
    error: Option<std::io::Error>,
}

impl<R: BufRead> PuzzleReader<R> {
    /// A reader over `input`.
    pub fn new(input: R) -> Self {
        PuzzleReader {
            input,
            parser: PuzzleParser::new(),
            buf: Vec::new(),
            line_no: 0,
            done: false,
            error: None,
        }
    }
}

impl<R: BufRead> Iterator for PuzzleReader<R> {
    type Item = Result<Puzzle, ReadError>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            if let Some(r) = self.parser.next_result() {
                return Some(r.map_err(ReadError::Parse));
            }
            if self.done {
                return self.error.take().map(|e| Err(ReadError::Io(e)));
            }
            self.buf.clear();
            match self.input.read_until(b'\n', &mut self.buf) {
                Ok(0) => {
                    self.parser.finish();
                    self.done = true;
                }
                Ok(_) => {
                    self.line_no += 1;
                    let line = String::from_utf8_lossy(&self.buf);
                    self.parser.feed_line(self.line_no, &line);
                }
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => {
                    // What was read before the error still counts.
                    self.parser.finish();
                    self.done = true;
                    self.error = Some(e);
                }
            }
        }
    }
}

/// One string per row (n characters each, `.` for empty): the JSON printer's rows.
pub fn rows(grid: &Grid) -> Vec<String> {
    grid.cells()
        .chunks(grid.side().max(1))
        .map(|r| r.iter().map(|&d| digit_char(d)).collect())
        .collect()
}

/// The grid form with boxes drawn, ending with a newline:
///
/// ```text
/// +-------+-------+-------+
/// | . 3 . | . 9 . | . 5 . |
/// ...
/// ```
pub fn to_grid(grid: &Grid) -> String {
    let b = grid.size().box_size();
    let n = grid.side();
    let mut border = String::new();
    for _ in 0..b {
        border.push('+');
        border.push_str(&"-".repeat(2 * b + 1));
    }
    border.push_str("+\n");
    let mut s = String::with_capacity((n + b + 1) * border.len());
    for r in 0..n {
        if r % b == 0 {
            s.push_str(&border);
        }
        for c in 0..n {
            if c % b == 0 {
                s.push_str("| ");
            }
            s.push(digit_char(grid.get(r * n + c)));
            s.push(' ');
        }
        s.push_str("|\n");
    }
    s.push_str(&border);
    s
}

/// The pencilmark line of a [`Candidates`] grid, read and written.
impl Candidates {
    /// Parse a pencilmark line: for each cell, for each digit d = 1..=n, the
    /// digit if it is a candidate or `.` if not (n ≤ 9: 64 characters for
    /// 4×4, 729 for 9×9). Trailing text after whitespace is ignored. Errors
    /// report line 1.
    ///
    /// A cell with a single candidate is a placed digit (as
    /// [`to_pencilmarks`](Self::to_pencilmarks) writes one); every other
    /// cell keeps its candidates less the digits placed in its peers, as
    /// with [`Candidates::with_pencilmarks`]. A cell without a candidate
    /// ([`ParseErrorKind::NoCandidate`]) and placed digits that break a rule
    /// ([`ParseErrorKind::Conflict`]) are errors.
    pub fn parse_pencilmarks(line: &str) -> Result<Candidates, ParseError> {
        let line = line.trim_end_matches(['\r', '\n']);
        let body = line.trim_start();
        let lead = line.len() - body.len();
        let start = line[..lead].chars().count() + 1;
        let token = body.split_whitespace().next().unwrap_or("");
        let count = token.chars().count();
        let size = match count {
            64 => Size::FOUR,
            729 => Size::NINE,
            _ => {
                return Err(ParseError {
                    line: 1,
                    column: start + count,
                    kind: ParseErrorKind::WrongPencilmarkLength { found: count },
                });
            }
        };
        let n = size.side();
        let mut masks = vec![0u32; size.cells()];
        for (i, ch) in token.chars().enumerate() {
            let (cell, k) = (i / n, i % n);
            let expected = digit_char(k as u8 + 1);
            if ch == expected {
                masks[cell] |= 1 << k;
            } else if ch != '.' {
                return Err(ParseError {
                    line: 1,
                    column: start + i,
                    kind: ParseErrorKind::BadPencilmark {
                        found: ch,
                        expected,
                    },
                });
            }
        }
        if let Some(cell) = masks.iter().position(|&m| m == 0) {
            return Err(ParseError {
                line: 1,
                column: start + cell * n,
                kind: ParseErrorKind::NoCandidate {
                    cell: size.cell_name(cell),
                },
            });
        }
        // The single candidates, placed; a conflict points at the second
        // cell's digit.
        let singles = masks
            .iter()
            .map(|&m| match m.count_ones() {
                1 => m.trailing_zeros() as u8 + 1,
                _ => 0,
            })
            .collect();
        let positions: Vec<(usize, usize)> = masks
            .iter()
            .enumerate()
            .map(|(cell, &m)| (1, start + cell * n + m.trailing_zeros() as usize))
            .collect();
        let placed = finish_grid(singles, &positions, 1, None)?.grid;
        let mut c = Candidates::from_grid(&placed);
        for (cell, &m) in masks.iter().enumerate() {
            c.restrict(cell, m);
        }
        Ok(c)
    }

    /// The pencilmark line: for each cell, n characters, the digit itself
    /// where it is a candidate (or placed) and `.` where not. Any size is
    /// written (n³ characters), though only n ≤ 9 reads back with
    /// [`parse_pencilmarks`](Self::parse_pencilmarks).
    pub fn to_pencilmarks(&self) -> String {
        let n = self.side();
        let mut s = String::with_capacity(n * n * n);
        for cell in 0..n * n {
            let m = self.pencilmark(cell);
            for k in 0..n {
                s.push(if m & (1 << k) != 0 {
                    digit_char(k as u8 + 1)
                } else {
                    '.'
                });
            }
        }
        s
    }

    /// The digits of a mask as `{3,9}`, as a player writes a candidate set.
    pub fn mask_to_string(mask: u32) -> String {
        let mut s = String::from("{");
        let mut first = true;
        for k in 0..32u8 {
            if mask & (1 << k) != 0 {
                if !first {
                    s.push(',');
                }
                first = false;
                let _ = write!(s, "{}", digit_char(k + 1));
            }
        }
        s.push('}');
        s
    }
}

impl std::fmt::Display for Candidates {
    /// The candidate grid as a block of text: each cell shows its candidates
    /// (or its placed digit), columns aligned, with `|` and `-` between boxes.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (n, b) = (self.side(), self.size().box_size());
        let text = |cell: usize| -> String {
            match self.value(cell) {
                0 if self.mask(cell) == 0 => "-".to_string(),
                0 => self.digits(cell).map(digit_char).collect(),
                d => digit_char(d).to_string(),
            }
        };
        let mut width = vec![1usize; n];
        for cell in 0..n * n {
            let col = cell % n;
            width[col] = width[col].max(text(cell).chars().count());
        }
        let rule: String = (0..b)
            .map(|bx| {
                let w: usize = (bx * b..bx * b + b).map(|c| width[c] + 1).sum::<usize>() + 1;
                "-".repeat(w)
            })
            .collect::<Vec<_>>()
            .join("+");
        for r in 0..n {
            if r > 0 && r % b == 0 {
                writeln!(f, "{rule}")?;
            }
            let mut line = String::new();
            for (c, &w) in width.iter().enumerate() {
                if c > 0 && c % b == 0 {
                    line.push_str(" |");
                }
                line.push(' ');
                let t = text(r * n + c);
                line.push_str(&format!("{t:<w$}"));
            }
            writeln!(f, "{}", line.trim_end())?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const ISSUE: &str =
        ".3..9..5.....1...45..8....7....3.2..6....9.4...7..25.......19....69....812.....7.";

    fn err(text: &str) -> ParseError {
        match parse_puzzles(text).next() {
            Some(Err(e)) => e,
            other => panic!("expected an error, got {other:?}"),
        }
    }

    #[test]
    fn line_with_comment_and_blanks() {
        let text = format!("# a comment\r\n\r\n{ISSUE}  the issue's puzzle\r\n");
        let p: Vec<_> = parse_puzzles(&text).collect();
        assert_eq!(p.len(), 1);
        let p = p[0].as_ref().expect("parses");
        assert_eq!(p.line, 3);
        assert_eq!(p.comment.as_deref(), Some("the issue's puzzle"));
        assert_eq!(p.grid.to_line(), ISSUE);
    }

    #[test]
    fn blanks_zero_underscore_and_lowercase() {
        let line = ISSUE.replacen('.', "0", 3).replacen('.', "_", 3);
        assert_eq!(parse_line(&line).expect("parses").to_line(), ISSUE);
        let g = parse_line(&format!("a{}", ".".repeat(255))).expect("16x16");
        assert_eq!(g.get(0), 10);
        assert_eq!(g.size(), Size::SIXTEEN);
    }

    #[test]
    fn grid_round_trip_9x9() {
        let g = parse_line(ISSUE).expect("parses");
        let text = to_grid(&g);
        assert!(text.starts_with("+-------+-------+-------+\n| . 3 . | . 9 . | . 5 . |\n"));
        assert_eq!(parse_one(&text).expect("reads back"), g);
    }

    #[test]
    fn bare_block_and_4x4_line_and_16x16_block() {
        let g4 = "1...\n..2.\n.3..\n...4\n";
        let p = parse_one(g4).expect("4x4 block");
        assert_eq!(p.to_line(), "1.....2..3.....4");
        // A 16-character line alone is a 4x4 puzzle.
        let p = parse_one("1.....2..3.....4\n").expect("4x4 line");
        assert_eq!(p.size(), Size::FOUR);
        // 16 lines of 16 cells, with digits above 4, are a 16x16 grid.
        let mut g16 = Grid::empty(Size::SIXTEEN);
        g16.set(20, 16);
        let text: String = rows(&g16).iter().map(|r| format!("{r}\n")).collect();
        let all: Vec<_> = parse_puzzles(&text).collect();
        assert_eq!(
            all,
            vec![Ok(Puzzle {
                grid: g16,
                line: 1,
                comment: None
            })]
        );
        // 16-character lines with digits up to 4 only are 4x4 puzzles.
        let all: Vec<_> = parse_puzzles("1.....2...3..4..\n.1..............\n").collect();
        assert_eq!(all.len(), 2);
        assert!(
            all.iter()
                .all(|p| p.as_ref().is_ok_and(|p| p.grid.size() == Size::FOUR))
        );
    }

    #[test]
    fn batch_continues_after_errors() {
        let text = format!("{ISSUE}\n{}\n{ISSUE}x\n{ISSUE}\n", &ISSUE[1..]);
        let r: Vec<_> = parse_puzzles(&text).collect();
        assert_eq!(r.len(), 4);
        assert!(r[0].is_ok() && r[3].is_ok());
        assert_eq!(r[3].as_ref().map(|p| p.line), Ok(4));
        let e = r[1].as_ref().expect_err("short line");
        assert_eq!((e.line, e.column), (2, 81));
        assert!(matches!(
            e.kind,
            ParseErrorKind::WrongLength {
                found: 80,
                expected: 81
            }
        ));
        let e = r[2].as_ref().expect_err("long line");
        assert_eq!((e.line, e.column), (3, 82));
        assert!(matches!(
            e.kind,
            ParseErrorKind::WrongLength {
                found: 82,
                expected: 81
            }
        ));
    }

    #[test]
    fn bad_char_message() {
        let mut line = ISSUE.to_string();
        line.replace_range(16..17, "x");
        let e = err(&format!("# c\n# c\n# c\n{line}\n"));
        assert_eq!(
            e.to_string(),
            "line 4, column 17: 'x' is not a digit or blank"
        );
    }

    #[test]
    fn digit_out_of_range() {
        let mut line = ISSUE.to_string();
        line.replace_range(0..1, "A");
        let e = err(&line);
        assert_eq!((e.line, e.column), (1, 1));
        assert_eq!(
            e.to_string(),
            "line 1, column 1: 'A' is out of range for a 9x9 grid (digits 1 to 9)"
        );
        let e = err("5...\n....\n....\n....\n");
        assert_eq!((e.line, e.column), (1, 1));
        assert!(matches!(
            e.kind,
            ParseErrorKind::DigitOutOfRange { found: '5', .. }
        ));
    }

    #[test]
    fn conflicting_givens() {
        // Row 3 (cells 18..27): a 5 at columns 1 and 7.
        let mut line = ".".repeat(81);
        line.replace_range(18..19, "5");
        line.replace_range(24..25, "5");
        let e = err(&line);
        assert_eq!((e.line, e.column), (1, 25));
        assert_eq!(
            e.to_string(),
            "line 1, column 25: 5 appears twice in row 3 (r3c1 and r3c7)"
        );
        // In grid form the error points at the second cell's line and column.
        let g = parse_line(ISSUE).expect("parses");
        let mut text = to_grid(&g);
        text = text.replacen("| . 3 . |", "| 3 3 . |", 1);
        let e = err(&text);
        assert_eq!((e.line, e.column), (2, 5));
        assert!(matches!(e.kind, ParseErrorKind::Conflict { .. }));
    }

    #[test]
    fn grid_errors() {
        let e = err("1...\n..2\n.3..\n...4\n");
        assert_eq!((e.line, e.column), (2, 4));
        assert!(matches!(
            e.kind,
            ParseErrorKind::WrongRowLength {
                found: 3,
                expected: 4
            }
        ));
        let e = err("1...\n..2.\n\n.3..\n");
        assert_eq!((e.line, e.column), (3, 1));
        assert!(matches!(
            e.kind,
            ParseErrorKind::IncompleteGrid {
                found: 2,
                expected: 4
            }
        ));
        let e = err("1...\n..2.\n");
        assert_eq!((e.line, e.column), (3, 1));
        assert!(matches!(
            e.kind,
            ParseErrorKind::IncompleteGrid {
                found: 2,
                expected: 4
            }
        ));
        let e = err("1..?\n..2.\n.3..\n...4\n");
        assert_eq!((e.line, e.column), (1, 4));
        assert!(matches!(e.kind, ParseErrorKind::BadChar { found: '?' }));
        let e = err("  12345\n");
        assert_eq!((e.line, e.column), (1, 3));
        assert!(matches!(e.kind, ParseErrorKind::NotAPuzzle { found: 5 }));
        assert_eq!(
            parse_one("# nothing\n"),
            Err(ParseError {
                line: 1,
                column: 1,
                kind: ParseErrorKind::NoPuzzle
            })
        );
    }

    #[test]
    fn reader_matches_str_parser() {
        let text = format!("{ISSUE}\r\n1...\n..2.\n.3..\n...4\nxyz\n\u{FFFD}\n");
        let a: Vec<_> = parse_puzzles(&text).collect();
        let b: Vec<_> = PuzzleReader::new(text.as_bytes())
            .map(|r| match r {
                Ok(p) => Ok(p),
                Err(ReadError::Parse(e)) => Err(e),
                Err(ReadError::Io(e)) => panic!("io error {e}"),
            })
            .collect();
        assert_eq!(a, b);
        assert_eq!(a.len(), 4);
        // Invalid UTF-8 is a bad character, not a panic.
        let bytes = b"\xff\xfe\n";
        let r: Vec<_> = PuzzleReader::new(&bytes[..]).collect();
        assert_eq!(r.len(), 1);
    }

    /// Reads one good line, then fails.
    struct Failing(bool);

    impl std::io::Read for Failing {
        fn read(&mut self, _: &mut [u8]) -> std::io::Result<usize> {
            Err(std::io::Error::other("disk on fire"))
        }
    }

    impl BufRead for Failing {
        fn fill_buf(&mut self) -> std::io::Result<&[u8]> {
            if self.0 {
                Err(std::io::Error::other("disk on fire"))
            } else {
                Ok(b"1.....2...3..4..\n")
            }
        }
        fn consume(&mut self, _: usize) {
            self.0 = true;
        }
    }

    #[test]
    fn io_error_is_reported_once_and_ends_the_batch() {
        let r: Vec<_> = PuzzleReader::new(Failing(false)).collect();
        assert_eq!(r.len(), 2, "{r:?}");
        assert!(r[0].is_ok(), "{r:?}");
        assert!(matches!(&r[1], Err(ReadError::Io(e)) if e.to_string() == "disk on fire"));
    }

    #[test]
    fn pencilmarks_round_trip_and_errors() {
        let g = parse_line(ISSUE).expect("parses");
        let c = Candidates::from_grid(&g);
        let line = c.to_pencilmarks();
        assert_eq!(line.chars().count(), 729);
        assert_eq!(&line[9..18], "..3......");
        assert_eq!(Candidates::parse_pencilmarks(&line).expect("reads back"), c);
        let e = Candidates::parse_pencilmarks(&line[1..]).expect_err("short");
        assert!(matches!(
            e.kind,
            ParseErrorKind::WrongPencilmarkLength { found: 728 }
        ));
        let mut bad = line.clone();
        bad.replace_range(10..11, "7");
        let e = Candidates::parse_pencilmarks(&bad).expect_err("wrong digit");
        assert_eq!(e.column, 11);
        assert!(matches!(
            e.kind,
            ParseErrorKind::BadPencilmark {
                found: '7',
                expected: '2'
            }
        ));
        assert_eq!(Candidates::mask_to_string(0b1_0000_0100), "{3,9}");
    }

    #[test]
    fn pencilmark_singles_are_placed_and_bad_cells_are_errors() {
        let g = parse_line(ISSUE).expect("parses");
        let line = Candidates::from_grid(&g).to_pencilmarks();
        let with_cell0 = |marks: &str| format!("{marks}{}", &line[9..]);
        // r1c1 down to its 7: placed, and gone from its peers
        let c = Candidates::parse_pencilmarks(&with_cell0("......7..")).expect("parses");
        assert_eq!((c.value(0), c.mask(0)), (7, 0));
        assert!(!c.has(2, 7) && !c.has(9, 7) && !c.has(72, 7));
        assert_eq!(c.to_grid().given_count(), g.given_count() + 1);
        let back = Candidates::parse_pencilmarks(&c.to_pencilmarks());
        assert_eq!(back.expect("reads back"), c);
        // no candidate left in r1c1
        let e = Candidates::parse_pencilmarks(&with_cell0(".........")).expect_err("empty cell");
        assert_eq!((e.line, e.column), (1, 1));
        assert_eq!(
            e.to_string(),
            "line 1, column 1: cell r1c1 has no candidate left"
        );
        // r1c1 down to 3, the digit r1c2 holds: the error points at r1c2's 3
        let e = Candidates::parse_pencilmarks(&with_cell0("..3......")).expect_err("conflict");
        assert_eq!(e.column, 12);
        assert!(matches!(e.kind, ParseErrorKind::Conflict { .. }), "{e}");
    }
}
