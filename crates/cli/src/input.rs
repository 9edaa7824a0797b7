//! Reading puzzles from files or standard input: one record per puzzle in
//! input order, a bad puzzle becoming an error record in its place.

use std::fs::File;
use std::io::{self, BufRead, BufReader, Read};
use std::ops::Range;
use std::path::PathBuf;

use sudoku_core::format::PuzzleParser;
use sudoku_core::{Candidates, Grid, ParseErrorKind};

/// The longest input line read, in bytes (a 25×25 pencilmark line has
/// 15,625 characters). A longer line is an error record for its line; it is
/// skipped without being held in memory.
pub const MAX_LINE: usize = 1 << 16;

/// Records per chunk, at most: the unit of work handed to a worker.
pub const CHUNK_RECORDS: usize = 512;

/// One input record: a puzzle, or why there is none.
#[derive(Debug)]
pub struct Record {
    /// File name, or `-` for standard input. (A name, not a counted
    /// reference: records cross threads by the hundred thousand, and a
    /// shared count would bounce between cores. Each file opened leaks its
    /// name once, for the life of the process.)
    pub source: &'static str,
    /// Input line where the puzzle starts (or the error was found), from 1.
    pub line: usize,
    /// What was read.
    pub body: Body,
}

/// What a record holds.
#[derive(Debug)]
pub enum Body {
    /// A puzzle line, still to be parsed (by the worker): its cells'
    /// bytes in the chunk's text, and the column of the first cell.
    Cells {
        /// The cells' bytes in [`Chunk::text`].
        range: Range<usize>,
        /// The 1-based column of the first cell.
        column: usize,
    },
    /// A variant puzzle in the Interactive Sudoku Solver's text format
    /// (`.~R1C1_5.Cage~10~R1C1~R1C2`), still to be parsed (by the worker):
    /// its bytes in the chunk's text (UTF-8), and the column it starts at.
    Variant {
        /// The puzzle's bytes in [`Chunk::text`].
        range: Range<usize>,
        /// The 1-based column of its first character.
        column: usize,
    },
    /// A pencilmark line (64 or 729 characters), still to be parsed.
    Pencilmarks {
        /// The line's bytes in [`Chunk::text`].
        range: Range<usize>,
    },
    /// A puzzle read by the grid parser (grids, 4×4 lines), or the error
    /// that names its line and column.
    Parsed(Result<Grid, String>),
    /// Not a puzzle: something to tell on stderr (a file that cannot be
    /// read, a file with no puzzles). Counts as a bad record.
    Notice(String),
}

impl Record {
    /// "file:line" for messages.
    pub fn place(&self) -> String {
        format!("{}:{}", self.source, self.line)
    }
}

/// A run of records and the bytes their unparsed lines point into.
#[derive(Debug, Default)]
pub struct Chunk {
    /// The raw bytes of [`Body::Cells`], [`Body::Variant`] and
    /// [`Body::Pencilmarks`] records.
    pub text: Vec<u8>,
    /// The records, in input order.
    pub records: Vec<Record>,
}

impl Chunk {
    /// The bytes of a range of [`text`](Self::text).
    pub fn bytes(&self, range: &Range<usize>) -> &[u8] {
        &self.text[range.clone()]
    }
}

/// An open input.
struct Open {
    reader: BufReader<Box<dyn Read + Send>>,
    source: &'static str,
    line_no: usize,
    records: usize,
    parser: PuzzleParser,
    /// The last line ended with CR: a LF right after it belongs to it.
    skip_lf: bool,
    /// The file's size, when it is a regular file.
    len: Option<u64>,
    /// Bytes read off it so far.
    consumed: u64,
}

/// Reads puzzle files (or standard input) as a stream of [`Chunk`]s, for
/// the batch pipeline.
///
/// Lines end with LF, CRLF or a lone CR; a UTF-8 byte-order mark at the
/// start of a file is skipped. Puzzle and pencilmark lines are passed on
/// raw, to be parsed by the workers; grids and anything unusual go through
/// [`PuzzleParser`] here. A chunk is handed on when it is full or when the
/// input has nothing more buffered (the next read could wait on a pipe or a
/// terminal), so a puzzle typed at a terminal is answered at once. A file
/// that cannot be opened or read, or that holds no puzzle, becomes a
/// [`Body::Notice`] and the next file is read.
pub struct ChunkReader {
    files: std::vec::IntoIter<Input>,
    open: Option<Open>,
    line: Vec<u8>,
    chunk_records: usize,
    /// Whether plain 9×9 lines take the fast path (off only in tests, to
    /// compare it with the general path).
    plain_fast_path: bool,
    /// The workers the chunks are spread over: with more than one, chunks
    /// start small (so that every worker starts at once) and shrink near
    /// the end of a file of known size (so that all finish together).
    spread: usize,
    /// Chunks handed on so far.
    made: u32,
    /// Chunks done with, to be filled again (their buffers reused).
    recycled: Option<crossbeam_channel::Receiver<Chunk>>,
}

impl std::fmt::Debug for ChunkReader {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ChunkReader").finish_non_exhaustive()
    }
}

impl ChunkReader {
    /// A reader over `files` (standard input when empty; `-` is standard input).
    pub fn new(files: &[PathBuf]) -> ChunkReader {
        ChunkReader::of(files.iter().cloned().map(Input::File).collect())
    }

    /// A reader over files and texts (standard input when there are none).
    pub fn of(inputs: Vec<Input>) -> ChunkReader {
        let files = if inputs.is_empty() {
            vec![Input::File(PathBuf::from("-"))]
        } else {
            inputs
        };
        ChunkReader {
            files: files.into_iter(),
            open: None,
            line: Vec::with_capacity(1024),
            chunk_records: CHUNK_RECORDS,
            plain_fast_path: true,
            spread: 1,
            made: 0,
            recycled: None,
        }
    }

    /// Fill chunks that come back on `done` before making new ones: their
    /// buffers are reused, and freed by the thread that made them. (Memory
    /// freed on another thread than the one that took it costs a lock in
    /// the system allocator, and the reading thread allocates all the time.)
    pub fn recycle(mut self, done: crossbeam_channel::Receiver<Chunk>) -> ChunkReader {
        self.recycled = Some(done);
        self
    }

    /// Chunks sized for `workers` workers (see [`ChunkReader`]); 1 by default.
    pub fn spread_over(mut self, workers: usize) -> ChunkReader {
        self.spread = workers.max(1);
        self
    }

    /// The most records for the chunk being filled: the set maximum, and
    /// with several workers, small first chunks (32, 64, … records) and,
    /// in a file of known size, at most a quarter of a worker's share of
    /// what is left (estimated at 82 bytes a record), but 32 at least.
    fn limit(&self) -> usize {
        if self.spread <= 1 {
            return self.chunk_records;
        }
        let ramp = 32usize << self.made.min(8);
        let tail = self
            .open
            .as_ref()
            .and_then(|o| o.len)
            .map_or(usize::MAX, |len| {
                let left = len.saturating_sub(self.open.as_ref().map_or(0, |o| o.consumed));
                (left / 82 / (4 * self.spread as u64)).max(32) as usize
            });
        self.chunk_records.min(ramp).min(tail).max(1)
    }

    /// At most `n` records per chunk (at least 1).
    pub fn chunk_records(mut self, n: usize) -> ChunkReader {
        self.chunk_records = n.max(1);
        self
    }

    /// Open the next file, or a notice that it cannot be opened.
    fn open_next(&mut self, chunk: &mut Chunk) -> bool {
        let path = match self.files.next() {
            None => return false,
            Some(Input::File(path)) => path,
            Some(Input::Text(text)) => {
                self.open = Some(Open::new(Box::new(io::Cursor::new(text)), "argument"));
                return true;
            }
        };
        let (reader, source): (Box<dyn Read + Send>, &'static str) = if path.as_os_str() == "-" {
            (Box::new(io::stdin()), "-")
        } else {
            let name: &'static str = Box::leak(path.display().to_string().into_boxed_str());
            match File::open(&path) {
                Ok(f) => {
                    let len = f.metadata().ok().filter(|m| m.is_file()).map(|m| m.len());
                    let mut open = Open::new(Box::new(f), name);
                    open.len = len;
                    self.open = Some(open);
                    return true;
                }
                Err(e) => {
                    chunk.records.push(Record {
                        source: name,
                        line: 0,
                        body: Body::Notice(format!("cannot open {name}: {}", io_reason(&e))),
                    });
                    return true;
                }
            }
        };
        self.open = Some(Open::new(reader, source));
        true
    }
}

impl Open {
    fn new(reader: Box<dyn Read + Send>, source: &'static str) -> Open {
        Open {
            reader: BufReader::with_capacity(1 << 16, reader),
            source,
            line_no: 0,
            records: 0,
            parser: PuzzleParser::new(),
            skip_lf: false,
            len: None,
            consumed: 0,
        }
    }
}

/// One input of a batch.
#[derive(Clone, Debug)]
pub enum Input {
    /// A file, or `-` for standard input.
    File(PathBuf),
    /// Puzzle text given on the command line (source name `argument`).
    Text(String),
}

impl Input {
    /// Read without ever blocking for long: a regular file or text given on
    /// the command line (not a pipe, a terminal or standard input). A
    /// missing file counts as quick: it is an error record at once.
    pub fn is_quick(&self) -> bool {
        match self {
            Input::Text(_) => true,
            Input::File(path) if path.as_os_str() == "-" => false,
            Input::File(path) => std::fs::metadata(path).map_or(true, |m| m.is_file()),
        }
    }

    /// A command-line argument: `-` or an existing file, else the puzzle
    /// text itself.
    pub fn from_arg(arg: &str) -> Input {
        if arg == "-" || std::path::Path::new(arg).exists() {
            Input::File(PathBuf::from(arg))
        } else {
            Input::Text(arg.to_string())
        }
    }
}

/// An I/O error's reason without Rust's "(os error N)" suffix.
fn io_reason(e: &io::Error) -> String {
    let s = e.to_string();
    match s.find(" (os error") {
        Some(k) => s[..k].to_string(),
        None => s,
    }
}

/// Read one line into `line` (without its end), keeping at most
/// [`MAX_LINE`] bytes: `Some(true)` when it was longer, `None` at the end.
fn read_line(
    r: &mut impl BufRead,
    line: &mut Vec<u8>,
    skip_lf: &mut bool,
    consumed: &mut u64,
) -> io::Result<Option<bool>> {
    line.clear();
    let (mut any, mut long) = (false, false);
    loop {
        let buf = match r.fill_buf() {
            Ok(b) => b,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if buf.is_empty() {
            return Ok(any.then_some(long));
        }
        if std::mem::take(skip_lf) && buf[0] == b'\n' {
            r.consume(1);
            *consumed += 1;
            continue;
        }
        let end = memchr::memchr2(b'\n', b'\r', buf);
        let take = end.unwrap_or(buf.len());
        if line.len() + take <= MAX_LINE {
            line.extend_from_slice(&buf[..take]);
        } else {
            long = true;
        }
        any = true;
        match end {
            Some(i) => {
                *skip_lf = buf[i] == b'\r';
                r.consume(i + 1);
                *consumed += i as u64 + 1;
                return Ok(Some(long));
            }
            None => {
                r.consume(take);
                *consumed += take as u64;
            }
        }
    }
}

/// The first whitespace-separated token of a line (a line of
/// [`read_line`]: no `\n` or `\r` in it): its start, its end, and whether
/// it is plain (ASCII, no `|`, not a `#` comment). The scans are `memchr`'s
/// and the standard library's vectorised ones: this runs on every line of a
/// batch, on the reading thread.
fn first_token(line: &[u8]) -> (usize, usize, bool) {
    // ASCII whitespace that a line can hold: space, tab, form feed
    let start = line
        .iter()
        .position(|&b| !matches!(b, b' ' | b'\t' | b'\x0C'))
        .unwrap_or(line.len());
    let end =
        memchr::memchr3(b' ', b'\t', b'\x0C', &line[start..]).map_or(line.len(), |k| start + k);
    let token = &line[start..end];
    let plain =
        token.is_ascii() && memchr::memchr(b'|', token).is_none() && token.first() != Some(&b'#');
    (start, end, plain)
}

impl Iterator for ChunkReader {
    type Item = Chunk;

    fn next(&mut self) -> Option<Chunk> {
        let mut chunk = match self.recycled.as_ref().map(|r| r.try_recv()) {
            Some(Ok(mut c)) => {
                c.text.clear();
                c.records.clear();
                c
            }
            _ => Chunk::default(),
        };
        let chunk = loop {
            let limit = self.limit();
            if chunk.records.len() >= limit {
                break chunk;
            }
            let Some(open) = &mut self.open else {
                if !self.open_next(&mut chunk) {
                    return (!chunk.records.is_empty()).then_some(chunk);
                }
                continue;
            };
            if self.plain_fast_path && take_plain_lines(open, &mut chunk, limit) {
                if chunk.records.len() >= limit || open.reader.buffer().is_empty() {
                    // full, or the next read could wait: hand on what there is
                    break chunk;
                }
                continue;
            }
            let read = read_line(
                &mut open.reader,
                &mut self.line,
                &mut open.skip_lf,
                &mut open.consumed,
            );
            let done = match read {
                Ok(Some(long)) => {
                    open.line_no += 1;
                    let before = chunk.records.len();
                    classify(open, &self.line, long, &mut chunk);
                    open.records += chunk.records.len() - before;
                    false
                }
                Ok(None) => true,
                Err(e) => {
                    chunk.records.push(Record {
                        source: open.source,
                        line: open.line_no + 1,
                        body: Body::Notice(format!(
                            "cannot read {} after line {}: {}",
                            open.source,
                            open.line_no,
                            io_reason(&e)
                        )),
                    });
                    true
                }
            };
            if done {
                let before = chunk.records.len();
                open.parser.finish();
                drain(open, &mut chunk);
                open.records += chunk.records.len() - before;
                if open.records == 0 {
                    let what = if open.source == "-" {
                        "standard input".to_string()
                    } else {
                        open.source.to_string()
                    };
                    chunk.records.push(Record {
                        source: open.source,
                        line: open.line_no,
                        body: Body::Notice(format!("no puzzles in {what}")),
                    });
                }
                self.open = None;
                continue;
            }
            let waiting = self
                .open
                .as_ref()
                .is_some_and(|o| o.reader.buffer().is_empty());
            if waiting && !chunk.records.is_empty() {
                break chunk;
            }
        };
        self.made = self.made.saturating_add(1);
        Some(chunk)
    }
}

/// The fast path of [`ChunkReader`]: the common 9×9 line (81 bytes, each a
/// digit, `.` or `_`, then LF or CRLF) taken straight from the read buffer,
/// with no copy into a line buffer and no token scans. Stops at the first
/// line that is anything else (or not whole in the buffer), which the
/// general path then reads; records exactly what the general path would.
/// Returns whether it took any line.
fn take_plain_lines(open: &mut Open, chunk: &mut Chunk, max_records: usize) -> bool {
    // the first line may start with a byte-order mark; a grid or another
    // multi-line format being read must see its lines in order
    if open.line_no == 0 || open.skip_lf || !open.parser.is_idle() {
        return false;
    }
    let buf = open.reader.buffer();
    let mut used = 0;
    let mut taken = 0;
    while chunk.records.len() < max_records {
        let rest = &buf[used..];
        let Some(line) = rest.get(..81) else { break };
        let end = match rest.get(81..83) {
            Some([b'\n', _]) => 82,
            Some([b'\r', b'\n']) => 83,
            // a line end could still be coming (or a lone CR): general path
            _ if rest.get(81) == Some(&b'\n') => 82,
            _ => break,
        };
        if !plain_nine_line(line.try_into().expect("81 bytes")) {
            break;
        }
        let start = chunk.text.len();
        chunk.text.extend_from_slice(line);
        open.line_no += 1;
        chunk.records.push(Record {
            source: open.source,
            line: open.line_no,
            body: Body::Cells {
                range: start..chunk.text.len(),
                column: 1,
            },
        });
        used += end;
        taken += 1;
    }
    open.reader.consume(used);
    open.consumed += used as u64;
    open.records += taken;
    taken > 0
}

/// Whether all 81 bytes are cells of a 9×9 line (a digit, `.` or `_`), in
/// one pass the compiler vectorises.
fn plain_nine_line(line: &[u8; 81]) -> bool {
    let mut bad = false;
    for &b in line {
        bad |= !((b.wrapping_sub(b'0') <= 9) | (b == b'.') | (b == b'_'));
    }
    !bad
}

/// Move the parser's finished puzzles into the chunk.
fn drain(open: &mut Open, chunk: &mut Chunk) {
    while let Some(r) = open.parser.next_result() {
        let (line, body) = match r {
            Ok(p) => (p.line, Body::Parsed(Ok(p.grid))),
            Err(e) => (e.line, Body::Parsed(Err(e.to_string()))),
        };
        chunk.records.push(Record {
            source: open.source,
            line,
            body,
        });
    }
}

/// Whether a line's first token is a variant puzzle (the library's rule,
/// [`sudoku_core::variant::is_variant`]).
pub use sudoku_core::variant::is_variant;

/// Turn one input line into records: raw puzzle, variant and pencilmark
/// lines as they are, the rest through the grid parser.
fn classify(open: &mut Open, raw: &[u8], long: bool, chunk: &mut Chunk) {
    let line_no = open.line_no;
    let record = |chunk: &mut Chunk, body| {
        chunk.records.push(Record {
            source: open.source,
            line: line_no,
            body,
        })
    };
    if long {
        open.parser.finish();
        drain(open, chunk);
        let body = Body::Parsed(Err(format!(
            "line {line_no}: the line is longer than {MAX_LINE} bytes (skipped)"
        )));
        chunk.records.push(Record {
            source: open.source,
            line: line_no,
            body,
        });
        return;
    }
    let line = if line_no == 1 {
        raw.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(raw)
    } else {
        raw
    };
    let (a, b, plain) = first_token(line);
    // f-puzzles JSON is the whole line (it may hold spaces).
    let (a, b) = if line.get(a) == Some(&b'{') {
        (a, line.trim_ascii_end().len())
    } else {
        (a, b)
    };
    let token = &line[a..b];
    if is_variant(token) && std::str::from_utf8(token).is_ok() {
        open.parser.finish();
        drain(open, chunk);
        let start = chunk.text.len();
        chunk.text.extend_from_slice(token);
        chunk.records.push(Record {
            source: open.source,
            line: line_no,
            body: Body::Variant {
                range: start..chunk.text.len(),
                column: a + 1,
            },
        });
        return;
    }
    if plain && open.parser.is_idle() && matches!(token.len(), 81 | 256 | 625) {
        let start = chunk.text.len();
        chunk.text.extend_from_slice(token);
        let body = Body::Cells {
            range: start..chunk.text.len(),
            column: a + 1,
        };
        record(chunk, body);
        return;
    }
    if plain && matches!(token.len(), 64 | 729) {
        open.parser.finish();
        drain(open, chunk);
        let start = chunk.text.len();
        chunk.text.extend_from_slice(&line[a..]);
        let body = Body::Pencilmarks {
            range: start..chunk.text.len(),
        };
        chunk.records.push(Record {
            source: open.source,
            line: line_no,
            body,
        });
        return;
    }
    match std::str::from_utf8(line) {
        Ok(text) => {
            open.parser.feed_line(line_no, text);
            drain(open, chunk);
        }
        Err(e) => {
            let good = &line[..e.valid_up_to()];
            let column = String::from_utf8_lossy(good).chars().count() + 1;
            let body = Body::Parsed(Err(format!(
                "line {line_no}, column {column}: the line is not UTF-8 text (byte 0x{:02X})",
                line[e.valid_up_to()]
            )));
            record(chunk, body);
        }
    }
}

/// A pencilmark record's candidates (its single-candidate cells placed), or
/// the error that names the line (and cell).
pub fn parse_pencilmark_record(line: usize, text: &[u8]) -> Result<Candidates, String> {
    let text = String::from_utf8_lossy(text);
    Candidates::parse_pencilmarks(text.trim_end()).map_err(|e| match e.kind {
        // a cell or a broken rule is named without a column
        ParseErrorKind::NoCandidate { .. } => format!("line {line}: {}", e.kind),
        ParseErrorKind::Conflict { conflict, .. } => format!("line {line}: {conflict}"),
        // the parser numbers its single line 1: give the input line
        _ => e
            .to_string()
            .replacen("line 1,", &format!("line {line},"), 1),
    })
}

/// A record's position for the step solver (`rate`, `explain`): its grid
/// and candidates, from the grid or from the player's pencilmarks. Not for
/// [`Body::Notice`] records (an error).
pub fn position_of(chunk: &Chunk, rec: &Record) -> Result<Position, String> {
    let grid = match &rec.body {
        Body::Notice(msg) => return Err(msg.clone()),
        Body::Parsed(r) => r.clone()?,
        Body::Cells { range, column } => {
            let mut g = Grid::empty(sudoku_core::Size::NINE);
            sudoku_core::format::parse_cells_into(&mut g, chunk.bytes(range), rec.line, *column)
                .map_err(|e| e.to_string())?;
            g
        }
        Body::Pencilmarks { range } => return pencilmark_position(rec.line, chunk.bytes(range)),
        Body::Variant { column, .. } => {
            return Err(format!(
                "line {}, column {column}: a variant puzzle (ISS or f-puzzles): only solve, count, rate and explain read these",
                rec.line
            ));
        }
    };
    Ok(Position {
        candidates: Candidates::from_grid(&grid),
        grid,
        pencilmarks: false,
    })
}

/// The position of a pencilmark line (input line `line`): its grid of
/// single-candidate cells and the player's candidates, or the error that
/// names the line (and cell).
fn pencilmark_position(line: usize, text: &[u8]) -> Result<Position, String> {
    let candidates = parse_pencilmark_record(line, text)?;
    Ok(Position {
        grid: candidates.to_grid(),
        candidates,
        pencilmarks: true,
    })
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
    pub candidates: Candidates,
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
        let mut b = Vec::new();
        io::Read::read_to_end(&mut io::stdin().lock(), &mut b)
            .map_err(|e| PositionError::Io(format!("cannot read standard input: {e}")))?;
        utf8_text(b).map_err(|e| PositionError::Input(format!("standard input: {e}")))?
    } else if std::path::Path::new(arg).is_file() {
        let b =
            std::fs::read(arg).map_err(|e| PositionError::Io(format!("cannot read {arg}: {e}")))?;
        utf8_text(b).map_err(|e| PositionError::Input(format!("{arg}: {e}")))?
    } else {
        arg.to_string()
    };
    parse_position(&text).map_err(PositionError::Input)
}

/// The bytes as text, or where the first byte that is not UTF-8 is (line
/// and column counted in characters, both from 1), in the words the batch
/// commands use.
fn utf8_text(bytes: Vec<u8>) -> Result<String, String> {
    String::from_utf8(bytes).map_err(|e| {
        let bytes = e.as_bytes();
        let at = e.utf8_error().valid_up_to();
        let good = &bytes[..at];
        let line_start = good.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
        let line = 1 + good.iter().filter(|&&b| b == b'\n').count();
        // `good` is valid UTF-8, so this counts its characters
        let column = 1 + String::from_utf8_lossy(&good[line_start..]).chars().count();
        format!(
            "line {line}, column {column}: the line is not UTF-8 text (byte 0x{:02X})",
            bytes[at]
        )
    })
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
        return pencilmark_position(1, first.as_bytes()).map_err(|e| format!("pencilmarks: {e}"));
    }
    let grid = sudoku_core::format::parse_one(text).map_err(|e| e.to_string())?;
    if let Some(c) = grid.first_conflict() {
        return Err(format!("the givens conflict: {c}"));
    }
    Ok(Position {
        candidates: Candidates::from_grid(&grid),
        grid,
        pencilmarks: false,
    })
}

/// Whether `grid` has exactly one solution (with the default method): the
/// solution, or a message saying what is wrong.
pub fn unique_solution(grid: &Grid) -> Result<Grid, String> {
    use sudoku_core::Uniqueness;
    let mut solver = sudoku_core::solve::Method::auto(grid.size()).solver();
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_token_is_found_with_its_kind() {
        let p = ".".repeat(81);
        for (line, want) in [
            (p.clone(), (0, 81, true)),
            (format!(" \t{p}  # a comment"), (2, 83, true)),
            (format!("{p}\x0Cx"), (0, 81, true)),
            ("# a comment".to_string(), (0, 1, false)),
            ("#comment".to_string(), (0, 8, false)),
            ("  ".to_string(), (2, 2, true)),
            (String::new(), (0, 0, true)),
            ("|1 2|".to_string(), (0, 2, false)),
            ("1 |2".to_string(), (0, 1, true)),
            ("é.. x".to_string(), (0, 4, false)),
        ] {
            assert_eq!(first_token(line.as_bytes()), want, "{line:?}");
        }
    }

    /// Every record of a reader, as text: line, kind and bytes.
    fn records_of(reader: ChunkReader) -> Vec<String> {
        let mut out = Vec::new();
        for chunk in reader {
            for r in &chunk.records {
                out.push(match &r.body {
                    Body::Cells { range, column } => format!(
                        "{}: cells {} at {column}",
                        r.line,
                        String::from_utf8_lossy(chunk.bytes(range))
                    ),
                    Body::Variant { range, column } => format!(
                        "{}: variant {} at {column}",
                        r.line,
                        String::from_utf8_lossy(chunk.bytes(range))
                    ),
                    Body::Pencilmarks { range } => format!(
                        "{}: pencilmarks {}",
                        r.line,
                        String::from_utf8_lossy(chunk.bytes(range))
                    ),
                    other => format!("{}: {other:?}", r.line),
                });
            }
        }
        out
    }

    #[test]
    fn the_fast_path_for_plain_lines_reads_what_the_general_path_reads() {
        let p = ".3..9..5.....1...45..8....7....3.2..6....9.4...7..25.......19....69....812.....7.";
        let q = p.replace('.', "0");
        let u = p.replace('.', "_");
        let pieces: Vec<String> = vec![
            format!("{p}\n"),
            format!("{q}\r\n"),
            format!("{u}\r"),
            format!("{p}  # a comment\n"),
            format!("{p}\t\n"),
            format!(" {p}\n"),
            format!("{}\n", &p[..80]),
            format!("{p}.\n"),
            format!("{}x\n", &p[..80]),
            format!("{}é\n", &p[..79]),
            "\n".to_string(),
            "# a comment line\n".to_string(),
            "1234\n3412\n2143\n4321\n".to_string(),
            ".3..9..5.\n....1...4\n5..8....7\n....3.2..\n6....9.4.\n..7..25..\n.....19..\n..69....8\n12.....7.\n".to_string(),
            format!("{}\n", "1".repeat(729)),
            ".~R1C1_5~R2C3_1_2\n".to_string(),
        ];
        // a pseudo-random mix, long enough to cross the read buffer's end
        let mut state = 0x2545_f491_4f6c_dd1du64;
        let mut text = String::from("\u{feff}");
        for _ in 0..3000 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            // mostly plain lines, as in a real batch
            let k = (state % 40) as usize;
            text.push_str(pieces.get(k).unwrap_or(&pieces[0]));
        }
        text.push_str(p); // no line end at the end
        for chunk in [1, 3, 512] {
            let fast =
                records_of(ChunkReader::of(vec![Input::Text(text.clone())]).chunk_records(chunk));
            let mut general = ChunkReader::of(vec![Input::Text(text.clone())]).chunk_records(chunk);
            general.plain_fast_path = false;
            let general = records_of(general);
            assert!(fast.len() > 2000, "{}", fast.len());
            assert_eq!(fast, general, "chunks of {chunk}");
        }
    }

    #[test]
    fn chunks_for_several_workers_start_small_and_shrink_at_the_end_of_a_file() {
        let p = ".3..9..5.....1...45..8....7....3.2..6....9.4...7..25.......19....69....812.....7.";
        let path = std::env::temp_dir().join(format!("chunks-{}.txt", std::process::id()));
        std::fs::write(&path, format!("{p}\n").repeat(20_000)).unwrap();
        let sizes = |spread| {
            let reader = ChunkReader::new(std::slice::from_ref(&path)).spread_over(spread);
            reader.map(|c| c.records.len()).collect::<Vec<_>>()
        };
        let one = sizes(1);
        assert!(one.iter().all(|&n| n <= CHUNK_RECORDS));
        assert_eq!(one.iter().sum::<usize>(), 20_000);
        let two = sizes(2);
        std::fs::remove_file(&path).unwrap();
        assert_eq!(two.iter().sum::<usize>(), 20_000);
        assert_eq!(&two[..5], [32, 64, 128, 256, 512]);
        // the last chunks are small, so both workers finish together
        assert!(two[two.len() - 3..].iter().all(|&n| n <= 64), "{two:?}");
        assert!(two.len() < one.len() + 40, "{} {}", two.len(), one.len());
    }

    #[test]
    fn a_variant_line_is_one_record_after_a_grid_and_before_a_puzzle() {
        let text = "1234\n3412\n2143\n4321\n  .Shape~4x4.~R1C1_1 a comment\n.3..............\n";
        let mut kinds = Vec::new();
        for chunk in ChunkReader::of(vec![Input::Text(text.into())]) {
            kinds.extend(chunk.records.iter().map(|r| match &r.body {
                Body::Variant { range, column } => format!(
                    "{}: variant {} at {column}",
                    r.line,
                    String::from_utf8_lossy(chunk.bytes(range))
                ),
                Body::Parsed(Ok(_)) => format!("{}: grid", r.line),
                other => format!("{}: {other:?}", r.line),
            }));
        }
        assert_eq!(
            kinds,
            ["1: grid", "5: variant .Shape~4x4.~R1C1_1 at 3", "6: grid"]
        );
    }
}
