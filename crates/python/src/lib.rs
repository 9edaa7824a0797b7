//! `sudoku_toolkit._native`: the Python package's compiled half, on PyO3.
//!
//! The package (`python/sudoku_toolkit/`) re-exports everything here; its
//! `.pyi` stubs carry the types and docs. One vocabulary with the command
//! line: statuses `unique`/`multiple`/`none`/`unknown` (and `error` for a
//! bad record of a batch), method names as `--algo` takes them, stop
//! reasons as the JSON output writes them (`exhausted`, `solution-limit`,
//! `node-limit`, `deadline`, `cancelled`).
//!
//! - [`sudoku`]: `solve`, `count`, `rate`, `hint`, `explain`, `generate`
//!   and their result types.
//! - [`batch`]: `solve_batch`, `count_batch`, `rate_batch`: any iterable (or
//!   a NumPy `uint8` array) in, results out in input order, streamed through
//!   `sudoku_core::pipeline` with the GIL released while solving.
//! - [`xc`]: exact cover (`sudoku_toolkit.xc`): problems from Knuth's format
//!   or a builder, counts (parallel, limited, per subproblem), solutions.

use pyo3::create_exception;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

pub mod batch;
mod line;
pub mod sudoku;
pub mod xc;

create_exception!(
    sudoku_toolkit,
    ParseError,
    PyValueError,
    "A puzzle, a problem or a token that cannot be read. Attributes: line and column \
(1-based, in the text given), index (the position in a batch, from 0, or None)."
);

/// A `ParseError` with its message, line, column and batch index set.
pub(crate) fn parse_error(
    py: Python<'_>,
    message: String,
    line: usize,
    column: usize,
    index: Option<u64>,
) -> PyErr {
    let err = ParseError::new_err(message);
    let value = err.value(py);
    // setting attributes on a fresh exception instance cannot fail
    let _ = value.setattr("line", line);
    let _ = value.setattr("column", column);
    let _ = value.setattr("index", index);
    err
}

/// Worker threads for `threads`: None or 0 is one per core.
pub(crate) fn thread_count(threads: Option<usize>) -> usize {
    match threads {
        Some(n) if n > 0 => n,
        _ => std::thread::available_parallelism().map_or(1, |n| n.get()),
    }
}

/// A timeout in seconds as a duration: `None` for none; a huge value (above
/// 1e9 s) is no limit, as on the command line.
pub(crate) fn timeout(secs: Option<f64>) -> PyResult<Option<std::time::Duration>> {
    match secs {
        None => Ok(None),
        Some(s) if s.is_nan() || s <= 0.0 => Err(PyValueError::new_err(format!(
            "timeout must be a positive number of seconds, not {s}"
        ))),
        Some(s) if s > 1e9 => Ok(None),
        Some(s) => Ok(Some(std::time::Duration::from_secs_f64(s))),
    }
}

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("ParseError", m.py().get_type::<ParseError>())?;
    sudoku::register(m)?;
    batch::register(m)?;
    xc::register(m)?;
    Ok(())
}
