//! Batches: any iterable of puzzle strings (or a NumPy `uint8` array of
//! shape `(n, 81)`) in, one result per puzzle out, in input order.
//!
//! ```text
//!  Python iterable ──▶ __next__ (the caller's thread, holding the GIL):
//!                      copies chunks of 256 records out, keeping at most
//!                      a window of chunks in flight
//!                        │ chunks
//!                        ▼
//!                      sudoku_core::pipeline workers (no GIL): parse,
//!                      solve or rate with reused solvers
//!                        │ answers, in input order
//!                        ▼
//!  __next__ ◀──────── bounded channel; the caller's thread waits for it
//!                      with the GIL released, then makes Result objects
//! ```
//!
//! Memory is bounded by the pipeline's window and the channel, never by
//! the input: a generator of 10⁷ puzzles is read as the results are taken.
//! An exception raised by the iterable (or an item that is not a string)
//! ends the batch: every result before it is still returned, then the
//! exception is raised from `__next__`.

use std::sync::Arc;
use std::time::Duration;

use crossbeam_channel::{Receiver, RecvTimeoutError, Sender, bounded};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyIterator, PySlice, PyString};
use sudoku_core::format::{self, LINE_LENGTHS};
use sudoku_core::pipeline::Pipeline;
use sudoku_core::{Candidates, Grid, Size};

use crate::sudoku::{
    ErrorInfo, RateAnswer, Rating, SolveAnswer, SolveOptions, SolveResult, Solved, Status, Worker,
    is_pencilmark_line, rate_text, rater,
};
use crate::thread_count;

/// Records per chunk: one GIL hand-over and one channel message per chunk.
const CHUNK: usize = 256;

/// Records read from Python, their bytes end to end.
pub(crate) struct Chunk {
    /// Index of the first record in the batch.
    first: u64,
    bytes: Vec<u8>,
    ends: Vec<usize>,
    /// Where the emptied buffers go when a worker is done with the chunk
    /// (see [`Solved`]'s `Drop`: made on one thread, freed on another).
    recycle: Option<Sender<Chunk>>,
}

impl Drop for Chunk {
    fn drop(&mut self) {
        if let Some(pool) = self.recycle.take() {
            let mut bytes = std::mem::take(&mut self.bytes);
            bytes.clear();
            let mut ends = std::mem::take(&mut self.ends);
            ends.clear();
            let _ = pool.try_send(Chunk {
                first: 0,
                bytes,
                ends,
                recycle: None,
            });
        }
    }
}

/// Buffers handed back for reuse, at most `POOL` of a kind per batch.
const POOL: usize = 64;

impl Chunk {
    /// A chunk from the pool (or a new one) for the records from `first`.
    fn new(first: u64, pool: &(Sender<Chunk>, Receiver<Chunk>)) -> Chunk {
        let mut chunk = pool.1.try_recv().unwrap_or_else(|_| Chunk {
            first,
            bytes: Vec::with_capacity(CHUNK * 82),
            ends: Vec::with_capacity(CHUNK),
            recycle: None,
        });
        chunk.first = first;
        chunk.recycle = Some(pool.0.clone());
        chunk
    }

    fn push(&mut self, record: &[u8]) {
        self.bytes.extend_from_slice(record);
        self.ends.push(self.bytes.len());
    }

    fn records(&self) -> impl Iterator<Item = (u64, &[u8])> {
        let starts = std::iter::once(0).chain(self.ends.iter().copied());
        starts
            .zip(self.ends.iter().copied())
            .enumerate()
            .map(|(k, (a, b))| (self.first + k as u64, &self.bytes[a..b]))
    }
}

/// Characters (or bytes) a file object is asked for at a time.
const BLOCK: usize = 1 << 16;

/// Where the records come from.
enum Input {
    /// Any Python iterable's iterator.
    Iter(Py<PyIterator>),
    /// A file object (`open(path)` in text or binary mode, `io.StringIO`,
    /// ...): read a block at a time with `read(BLOCK)` and split at `\n`
    /// here, which gives the lines iterating the file gives (with the
    /// default newline translation) without a Python string per line.
    File {
        file: Py<PyAny>,
        /// Bytes read and not yet handed out, from `pos` on.
        carry: Vec<u8>,
        pos: usize,
        eof: bool,
    },
    /// A NumPy `uint8` array of shape (n, n²): cell values 0 (blank) to n,
    /// or ASCII characters as in a puzzle line.
    Array { array: Py<PyAny>, rows: usize },
}

/// Up to `CHUNK` records from `input`, and the exception that stopped the
/// reading early, if one did.
fn read_chunk(py: Python<'_>, input: &mut Input, mut chunk: Chunk) -> (Chunk, Option<PyErr>) {
    let first = chunk.first;
    match input {
        Input::File {
            file,
            carry,
            pos,
            eof,
        } => {
            while chunk.ends.len() < CHUNK {
                let rest = &carry[*pos..];
                // the whole lines of the block, up to the chunk's size,
                // copied in one piece (a copy per line was a call to
                // memmove per puzzle on the caller's thread)
                let base = chunk.bytes.len();
                let mut taken = 0;
                for nl in memchr::memchr_iter(b'\n', rest) {
                    chunk.ends.push(base + nl + 1);
                    taken = nl + 1;
                    if chunk.ends.len() == CHUNK {
                        break;
                    }
                }
                if taken > 0 {
                    chunk.bytes.extend_from_slice(&rest[..taken]);
                    *pos += taken;
                    continue;
                }
                if *eof {
                    if !rest.is_empty() {
                        chunk.push(rest);
                    }
                    carry.clear();
                    *pos = 0;
                    break;
                }
                carry.drain(..*pos);
                *pos = 0;
                let block = file.bind(py).call_method1("read", (BLOCK,));
                let read = block.and_then(|block| {
                    let Some(bytes) = text_bytes(&block)? else {
                        let kind = block.get_type().name()?;
                        return Err(PyTypeError::new_err(format!(
                            "the file's read() gave a {kind}, not a str or bytes"
                        )));
                    };
                    carry.extend_from_slice(bytes);
                    Ok(block.len()? == 0)
                });
                match read {
                    Ok(end) => *eof = end,
                    Err(e) => return (chunk, Some(e)),
                }
            }
        }
        Input::Iter(iter) => {
            let mut iter = iter.bind(py).clone();
            for k in 0..CHUNK as u64 {
                let Some(item) = iter.next() else { break };
                let pushed = item.and_then(|item| {
                    let Some(bytes) = text_bytes(&item)? else {
                        let kind = item.get_type().name()?;
                        return Err(PyTypeError::new_err(format!(
                            "puzzle {} of the batch is a {kind}, not a str or bytes",
                            first + k
                        )));
                    };
                    chunk.push(bytes);
                    Ok(())
                });
                if let Err(e) = pushed {
                    return (chunk, Some(e));
                }
            }
        }
        Input::Array { array, rows } => {
            let lo = first as usize;
            let hi = (lo + CHUNK).min(*rows);
            if lo >= hi {
                return (chunk, None);
            }
            let block = array
                .bind(py)
                .get_item(PySlice::new(py, lo as isize, hi as isize, 1))
                .and_then(|b| b.call_method0("tobytes"))
                .and_then(|b| Ok(b.cast_into::<PyBytes>()?));
            let block = match block {
                Ok(b) => b,
                Err(e) => return (chunk, Some(e)),
            };
            let bytes = block.as_bytes();
            let width = bytes.len() / (hi - lo);
            let mut line = Vec::with_capacity(width);
            for row in bytes.chunks(width.max(1)) {
                line.clear();
                // cell values become the characters of a puzzle line;
                // anything else is taken as a character and checked by the
                // parser
                line.extend(row.iter().map(|&v| match v {
                    0 => b'.',
                    1..=9 => b'0' + v,
                    10..=25 => b'A' + v - 10,
                    c => c,
                }));
                chunk.push(&line);
            }
        }
    }
    (chunk, None)
}

/// What a worker answers for one chunk.
#[derive(Debug)]
pub(crate) enum Answers {
    /// Shared by the chunk's `Result` objects.
    Solve(Arc<Solved>),
    Rate(Vec<RateAnswer>),
}

/// The answers handed over and not yet taken.
#[derive(Debug, Default)]
enum Ready {
    #[default]
    Empty,
    /// A block of solve answers and the position of the next one.
    Solve(Arc<Solved>, usize),
    Rate(std::vec::IntoIter<RateAnswer>),
}

/// The iterator `solve_batch`, `count_batch` and `rate_batch` return:
/// results in input order, as they are ready.
///
/// The caller's thread, which holds the GIL anyway, reads the input (a
/// chunk at a time, keeping at most `limit` chunks in flight) and hands it
/// to the pipeline; it waits for answers with the GIL released. No other
/// thread ever takes the GIL, so nothing waits for a GIL hand-over.
#[pyclass(module = "sudoku_toolkit")]
#[derive(Debug)]
pub struct BatchIter {
    /// The input, until it is exhausted or fails.
    input: Option<Input>,
    /// The pipeline's input; dropped when the input ends.
    jobs: Option<Sender<Chunk>>,
    /// The pipeline's answers, a chunk at a time; None once all are in.
    rx: Option<Receiver<Answers>>,
    ready: Ready,
    /// Index of the next record to read.
    next: u64,
    /// Chunks sent whose answers have not come back.
    in_flight: usize,
    limit: usize,
    /// Input buffers the workers are done with, for the next chunks.
    chunks: (Sender<Chunk>, Receiver<Chunk>),
    /// An exception from the input, raised after the answers before it.
    failure: Option<PyErr>,
    raise_errors: bool,
}

impl std::fmt::Debug for Input {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Input::Iter(_) => "Input::Iter",
            Input::File { .. } => "Input::File",
            Input::Array { .. } => "Input::Array",
        })
    }
}

#[pymethods]
impl BatchIter {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&mut self, py: Python<'_>) -> PyResult<Option<Py<PyAny>>> {
        loop {
            if let Some(result) = self.take(py) {
                return result.map(Some);
            }
            self.feed(py);
            let Some(rx) = self.rx.clone() else {
                return Ok(None);
            };
            if self.in_flight == 0 && self.jobs.is_none() {
                // everything read has been answered: the end, or the
                // input's exception
                self.rx = None;
                return match self.failure.take() {
                    Some(e) => Err(e),
                    None => Ok(None),
                };
            }
            // wait without the GIL, waking to let Ctrl-C through
            let got = py.detach(|| rx.recv_timeout(Duration::from_millis(100)));
            match got {
                Ok(answers) => {
                    self.in_flight -= 1;
                    self.ready = match answers {
                        Answers::Solve(block) => Ready::Solve(block, 0),
                        Answers::Rate(list) => Ready::Rate(list.into_iter()),
                    };
                }
                Err(RecvTimeoutError::Timeout) => py.check_signals()?,
                Err(RecvTimeoutError::Disconnected) => {
                    self.rx = None;
                    if let Some(e) = self.failure.take() {
                        return Err(e);
                    }
                }
            }
        }
    }

    /// Stop the batch: the workers stop after the records in flight.
    fn close(&mut self) {
        self.input = None;
        self.jobs = None;
        self.rx = None;
        self.ready = Ready::Empty;
    }
}

impl BatchIter {
    /// Read chunks of the input until `limit` are in flight or it ends.
    fn feed(&mut self, py: Python<'_>) {
        while self.in_flight < self.limit {
            let (Some(input), Some(jobs)) = (self.input.as_mut(), self.jobs.as_ref()) else {
                return;
            };
            let chunk = Chunk::new(self.next, &self.chunks);
            let (chunk, error) = read_chunk(py, input, chunk);
            let n = chunk.ends.len();
            let done = error.is_some() || n < CHUNK;
            if n > 0 {
                self.next += n as u64;
                if jobs.try_send(chunk).is_err() {
                    // the pipeline has stopped (it cannot be full: the
                    // channel holds `limit` chunks)
                    self.input = None;
                    self.jobs = None;
                    return;
                }
                self.in_flight += 1;
            }
            if let Some(e) = error {
                self.failure = Some(e);
            }
            if done {
                // the input is released here, with the GIL held; the
                // pipeline ends once it has answered what it has
                self.input = None;
                self.jobs = None;
            }
        }
    }

    /// The next answer handed over as a Python object (or the error it
    /// raises), or None when every answer handed over has been taken.
    fn take(&mut self, py: Python<'_>) -> Option<PyResult<Py<PyAny>>> {
        match &mut self.ready {
            Ready::Empty => None,
            Ready::Solve(block, k) => {
                let Some(a) = block.answers.get(*k) else {
                    self.ready = Ready::Empty;
                    return None;
                };
                if let (true, Status::Error, Some(e)) = (self.raise_errors, a.status, &a.error) {
                    let e = e.raise(py, a.index);
                    self.close();
                    return Some(Err(e));
                }
                let result = SolveResult::new(py, block.clone(), *k);
                *k += 1;
                Some(result.and_then(|r| Py::new(py, r)).map(Py::into_any))
            }
            Ready::Rate(list) => {
                let Some(a) = list.next() else {
                    self.ready = Ready::Empty;
                    return None;
                };
                if let (true, Some(e)) = (self.raise_errors, &a.error) {
                    let e = e.raise(py, a.index);
                    self.close();
                    return Some(Err(e));
                }
                Some(Py::new(py, Rating { inner: a }).map(Py::into_any))
            }
        }
    }
}

/// The records of `puzzles`: an iterable, or a NumPy uint8 array.
fn input_of(puzzles: &Bound<'_, PyAny>) -> PyResult<Input> {
    if puzzles.is_instance_of::<PyString>() || puzzles.is_instance_of::<PyBytes>() {
        return Err(PyTypeError::new_err(
            "a batch is an iterable of puzzles, not one string: use solve(), count() or rate() for one puzzle",
        ));
    }
    if puzzles.hasattr("dtype")? && puzzles.hasattr("shape")? && puzzles.hasattr("tobytes")? {
        let dtype = puzzles.getattr("dtype")?.str()?.to_string();
        if dtype != "uint8" {
            return Err(PyTypeError::new_err(format!(
                "an array of puzzles must have dtype uint8 (cell values 0 to 9), not {dtype}"
            )));
        }
        let shape: Vec<usize> = puzzles.getattr("shape")?.extract()?;
        if shape.len() != 2 || !LINE_LENGTHS.contains(&shape[1]) {
            return Err(PyValueError::new_err(format!(
                "an array of puzzles must have shape (n, 81) (or (n, 16), (n, 256), (n, 625)), not {shape:?}"
            )));
        }
        return Ok(Input::Array {
            array: puzzles.clone().unbind(),
            rows: shape[0],
        });
    }
    let py = puzzles.py();
    let io_base = py.import("io")?.getattr("IOBase")?;
    if puzzles.is_instance(&io_base)? {
        return Ok(Input::File {
            file: puzzles.clone().unbind(),
            carry: Vec::with_capacity(BLOCK + 1024),
            pos: 0,
            eof: false,
        });
    }
    Ok(Input::Iter(puzzles.try_iter()?.unbind()))
}

/// `errors=`: "raise" (the default) or "record".
fn raise_errors(errors: &str) -> PyResult<bool> {
    match errors {
        "raise" => Ok(true),
        "record" => Ok(false),
        e => Err(PyValueError::new_err(format!(
            "errors must be 'raise' or 'record', not '{e}'"
        ))),
    }
}

/// Start a batch: the pipeline runs on a thread of its own, fed and
/// drained by the iterator.
fn start<S: 'static>(
    input: Input,
    threads: usize,
    raise_errors: bool,
    init: impl Fn() -> S + Send + Sync + 'static,
    work: impl Fn(&mut S, &Chunk) -> Answers + Send + Sync + 'static,
) -> BatchIter {
    // chunks in flight: enough to keep every worker busy while the caller
    // turns a chunk of answers into Python objects, and while the caller's
    // thread waits for a core (with as many workers as cores, it is the
    // one thread too many: 8 chunks a worker are a few milliseconds of
    // work, a time slice or two of the scheduler)
    let limit = 8 * threads + 2;
    let (jobs_tx, jobs_rx) = bounded::<Chunk>(limit);
    let (tx, rx) = bounded::<Answers>(limit);
    std::thread::Builder::new()
        .name("sudoku-batch".into())
        .spawn(move || {
            // a closed channel (the iterator was dropped) stops the run
            let _ = Pipeline::new(threads).window(limit).run(
                jobs_rx.into_iter(),
                init,
                |s: &mut S, chunk: Chunk| work(s, &chunk),
                |answers| tx.send(answers),
            );
        })
        .expect("cannot start the batch thread");
    BatchIter {
        input: Some(input),
        jobs: Some(jobs_tx),
        rx: Some(rx),
        ready: Ready::Empty,
        next: 0,
        in_flight: 0,
        limit,
        chunks: bounded(POOL),
        failure: None,
        raise_errors,
    }
}

/// Solve (or count) one record of a batch.
fn solve_record(
    worker: &mut Worker,
    grid: &mut Grid,
    opts: &SolveOptions,
    index: u64,
    bytes: &[u8],
    cells: &mut Vec<u8>,
) -> SolveAnswer {
    // lines read from a file keep their line end
    let bytes = bytes.trim_ascii_end();
    if let Some(token) = sudoku_core::variant::variant_token(bytes) {
        let text = lossy(token);
        return worker.solve_variant(opts, &text, Some(index), cells);
    }
    // every byte checked (no early exit), which the compiler vectorises
    let line_form = LINE_LENGTHS.contains(&bytes.len())
        && bytes.iter().fold(true, |ok, b| ok & b.is_ascii_graphic());
    if line_form {
        return match format::read_cells_into(grid, bytes, 1, 1) {
            Ok(()) => worker.solve(opts, grid, false, Some(index), cells),
            Err(e) => SolveAnswer::error(lossy(bytes), e.into(), Some(index)),
        };
    }
    if is_pencilmark_line(bytes) {
        let text = lossy(bytes);
        return match Candidates::parse_pencilmarks(&text) {
            Ok(c) => worker.solve_pencilmarks(opts, &c, Some(index), cells),
            Err(e) => SolveAnswer::error(text, ErrorInfo::from(e), Some(index)),
        };
    }
    let text = lossy(bytes);
    match format::parse_one(&text) {
        Ok(g) => worker.solve(opts, &g, true, Some(index), cells),
        Err(e) => SolveAnswer::error(text, ErrorInfo::from(e), Some(index)),
    }
}

fn lossy(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[allow(clippy::too_many_arguments)]
fn solve_like(
    puzzles: &Bound<'_, PyAny>,
    method: &str,
    limit: u64,
    timeout: Option<f64>,
    max_nodes: Option<u64>,
    threads: Option<usize>,
    errors: &str,
    counting: bool,
) -> PyResult<BatchIter> {
    let opts = SolveOptions::new(method, limit, timeout, max_nodes, counting)?;
    let raise = raise_errors(errors)?;
    let input = input_of(puzzles)?;
    // answer blocks the caller is done with, for the workers to fill again
    let (pool_tx, pool_rx) = bounded::<Solved>(POOL);
    Ok(start(
        input,
        thread_count(threads),
        raise,
        || (Worker::new(false), Grid::empty(Size::NINE)),
        move |(worker, grid), chunk| {
            let mut solved = pool_rx.try_recv().unwrap_or_default();
            solved.answers.reserve(chunk.ends.len());
            solved
                .cells
                .reserve(chunk.bytes.len() * if counting { 1 } else { 3 });
            solved.recycle = Some(pool_tx.clone());
            for (i, b) in chunk.records() {
                let a = solve_record(worker, grid, &opts, i, b, &mut solved.cells);
                solved.answers.push(a);
            }
            Answers::Solve(Arc::new(solved))
        },
    ))
}

/// Solve every puzzle of an iterable, results in input order.
#[pyfunction]
#[pyo3(signature = (puzzles, method = "auto", limit = 2, timeout = None, max_nodes = None, threads = None, errors = "raise"))]
#[allow(clippy::too_many_arguments)]
fn solve_batch(
    puzzles: &Bound<'_, PyAny>,
    method: &str,
    limit: u64,
    timeout: Option<f64>,
    max_nodes: Option<u64>,
    threads: Option<usize>,
    errors: &str,
) -> PyResult<BatchIter> {
    solve_like(
        puzzles, method, limit, timeout, max_nodes, threads, errors, false,
    )
}

/// Count the solutions of every puzzle of an iterable, in input order.
#[pyfunction]
#[pyo3(signature = (puzzles, limit = 2, method = "auto", timeout = None, max_nodes = None, threads = None, errors = "raise"))]
#[allow(clippy::too_many_arguments)]
fn count_batch(
    puzzles: &Bound<'_, PyAny>,
    limit: u64,
    method: &str,
    timeout: Option<f64>,
    max_nodes: Option<u64>,
    threads: Option<usize>,
    errors: &str,
) -> PyResult<BatchIter> {
    solve_like(
        puzzles, method, limit, timeout, max_nodes, threads, errors, true,
    )
}

/// Rate every puzzle of an iterable, in input order.
#[pyfunction]
#[pyo3(signature = (puzzles, disable = Vec::new(), threads = None, errors = "raise"))]
fn rate_batch(
    puzzles: &Bound<'_, PyAny>,
    disable: Vec<String>,
    threads: Option<usize>,
    errors: &str,
) -> PyResult<BatchIter> {
    let rater = rater(&disable)?;
    let raise = raise_errors(errors)?;
    let input = input_of(puzzles)?;
    Ok(start(
        input,
        thread_count(threads),
        raise,
        move || rater.clone(),
        |rater, chunk| {
            Answers::Rate(
                chunk
                    .records()
                    .map(|(i, b)| rate_text(rater, &lossy(b), Some(i)))
                    .collect(),
            )
        },
    ))
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<BatchIter>()?;
    m.add_function(wrap_pyfunction!(solve_batch, m)?)?;
    m.add_function(wrap_pyfunction!(count_batch, m)?)?;
    m.add_function(wrap_pyfunction!(rate_batch, m)?)?;
    Ok(())
}

/// The bytes of a `str` (as UTF-8) or of a `bytes` object; `None` for any
/// other type (the caller words the error).
fn text_bytes<'a>(obj: &'a Bound<'_, PyAny>) -> PyResult<Option<&'a [u8]>> {
    if let Ok(s) = obj.cast::<PyString>() {
        return Ok(Some(s.to_str()?.as_bytes()));
    }
    Ok(obj.cast::<PyBytes>().ok().map(|b| b.as_bytes()))
}
