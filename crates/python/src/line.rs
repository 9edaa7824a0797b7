//! A grid's cells as a Python `str`, written straight into the string.
//!
//! A batch loop reads a solution per result on the caller's thread, the one
//! thread too many when the workers fill the cores. `PyString::new` from a
//! `&str` checks the UTF-8 and decodes it again on the Python side, and the
//! line was first built in a zeroed buffer: about 600 instructions for an
//! 81-character line. Here the string is allocated as ASCII and the cells
//! are converted into it, a vector of cells at a time (about 60).

use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::types::PyString;

/// [`sudoku_core::grid::digit_char`] as a byte for a cell value 0 to 25
/// (what a grid holds), in adds and compares that vectorise: '.' for 0,
/// '1' to '9', then 'A' on. Any byte gives an ASCII character.
#[inline]
fn ascii_digit(d: u8) -> u8 {
    let letter = u8::from((d as i8) > 9) * 7;
    let blank = u8::from(d == 0) * 2;
    d.wrapping_add(b'0' + letter).wrapping_sub(blank) & 0x7f
}

/// `out[i] = ascii_digit(cells[i])`: a function of its own so that the
/// two slices are known apart and the loop is vectorised.
#[inline(never)]
fn write_line(out: &mut [u8], cells: &[u8]) {
    for (o, &d) in out.iter_mut().zip(cells) {
        *o = ascii_digit(d);
    }
}

/// The line of `cells` (digits 0 to 25, 0 blank) as a Python string.
pub(crate) fn py_line<'py>(py: Python<'py>, cells: &[u8]) -> PyResult<Bound<'py, PyString>> {
    let n = cells.len();
    // SAFETY: the GIL is held (`py`). `PyUnicode_New(n, 127)` returns a new
    // reference to a compact ASCII string of `n` characters (or null with
    // an exception set, turned into `Err` by `assume_owned_or_err`): its
    // `n` one-byte code units follow the object and are ours to write
    // until the string is shared, which happens only when it is returned.
    // Every byte written is ASCII (`ascii_digit`), as the kind promises.
    unsafe {
        let ptr = ffi::PyUnicode_New(n as ffi::Py_ssize_t, 127);
        let s = Bound::from_owned_ptr_or_err(py, ptr)?;
        let data = std::slice::from_raw_parts_mut(ffi::PyUnicode_1BYTE_DATA(ptr), n);
        write_line(data, cells);
        Ok(s.cast_into_unchecked::<PyString>())
    }
}
