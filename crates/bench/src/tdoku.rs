//! An optional third peer for the `peer` binary: tdoku (T. Dillon's
//! solver, BSD-2-Clause), loaded at run time from a shared library that the
//! user builds with tdoku's own build (its `tdoku_shared` target).
//!
//! Nothing of tdoku is in this project: no source, no binary and no build
//! recipe, only the signature of its C entry point
//! `TdokuSolverDpllTriadSimd` as its public header `tdoku.h` declares it:
//! `size_t f(const char *input, size_t limit, uint32_t configuration,
//! char *solution, size_t *num_guesses)`. The input is 81 characters, a
//! digit or `.` each, followed by a byte below `.` (a 729-character input
//! would be a pencilmark puzzle); it returns the number of solutions found
//! up to `limit`, writes a solution only when `limit` is 1, and counts its
//! guesses (one per branch point).

#[cfg(unix)]
use std::ffi::CString;
use std::ffi::{c_char, c_void};
use std::path::Path;

use anyhow::{Result, bail};

use crate::Cells;

/// `TdokuSolverDpllTriadSimd`.
type SolveFn = unsafe extern "C" fn(*const c_char, usize, u32, *mut c_char, *mut usize) -> usize;

/// The name of the entry point looked up in the library.
const SYMBOL: &str = "TdokuSolverDpllTriadSimd";

/// A loaded tdoku library; closed when dropped. (Without Unix none can be
/// made: [`Tdoku::open`] says so.)
#[derive(Debug)]
#[cfg_attr(not(unix), allow(dead_code))]
pub struct Tdoku {
    handle: *mut c_void,
    solve: SolveFn,
}

/// What one tdoku call answered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TdokuAnswer {
    /// Solutions found, up to the limit asked.
    pub count: usize,
    /// tdoku's guess counter (branch points).
    pub guesses: usize,
}

/// A puzzle in tdoku's input form: `.` for a blank, `'1'..='9'` for a
/// given, then a NUL (below `.`, so a standard puzzle, not pencilmarks).
pub fn tdoku_input(p: &Cells) -> [u8; 82] {
    let mut s = [0u8; 82];
    for (o, &d) in s.iter_mut().zip(p) {
        *o = if d == 0 { b'.' } else { b'0' + d };
    }
    s
}

impl Tdoku {
    /// Load the library at `path` and find its entry point. The library's
    /// initialisers run here: load only a tdoku you built yourself.
    #[cfg(unix)]
    pub fn open(path: &Path) -> Result<Tdoku> {
        let Some(text) = path.to_str() else {
            bail!("{}: not a UTF-8 path", path.display());
        };
        let Ok(c_path) = CString::new(text) else {
            bail!("{text}: the path holds a NUL byte");
        };
        // SAFETY: `c_path` is a NUL-terminated string that outlives the
        // call; `dlopen` runs the library's initialisers, which is what
        // loading a library the user named means.
        let handle = unsafe { libc::dlopen(c_path.as_ptr(), libc::RTLD_NOW | libc::RTLD_LOCAL) };
        if handle.is_null() {
            bail!("cannot load {text}: {}", last_dl_error());
        }
        let name = CString::new(SYMBOL).expect("no NUL in the symbol name");
        // SAFETY: `handle` is a live handle from `dlopen` and `name` a
        // NUL-terminated string.
        let sym = unsafe { libc::dlsym(handle, name.as_ptr()) };
        if sym.is_null() {
            // SAFETY: `handle` came from `dlopen` and is closed once, here.
            unsafe { libc::dlclose(handle) };
            bail!("{text} has no {SYMBOL}: is it tdoku's tdoku_shared library?");
        }
        // SAFETY: the symbol is tdoku's entry point, whose C signature
        // (tdoku.h) is `SolveFn`'s; a function pointer and a data pointer
        // have the same size on the platforms `dlsym` serves.
        let solve = unsafe { std::mem::transmute::<*mut c_void, SolveFn>(sym) };
        Ok(Tdoku { handle, solve })
    }

    /// Loading a shared library is done through `dlopen`: Unix only.
    #[cfg(not(unix))]
    pub fn open(path: &Path) -> Result<Tdoku> {
        bail!(
            "cannot load {}: loading a shared library needs a Unix system",
            path.display()
        )
    }

    /// Solve `input` (see [`tdoku_input`]), stopping after `limit`
    /// solutions; with `limit` 1 the solution is written to `solution`.
    pub fn solve(&self, input: &[u8; 82], limit: usize, solution: &mut [u8; 82]) -> TdokuAnswer {
        let mut guesses = 0usize;
        // SAFETY: tdoku reads the 81 characters and the byte after them
        // (82 bytes here), writes at most 81 bytes of solution (82 here)
        // and one `size_t`; it keeps no pointer after returning.
        let count = unsafe {
            (self.solve)(
                input.as_ptr().cast(),
                limit,
                0,
                solution.as_mut_ptr().cast(),
                &mut guesses,
            )
        };
        TdokuAnswer { count, guesses }
    }

    /// Solve and return the solution as cells (digits 1..=9), or `None`
    /// when tdoku finds none.
    pub fn first(&self, input: &[u8; 82]) -> Option<Cells> {
        let mut s = [0u8; 82];
        if self.solve(input, 1, &mut s).count == 0 {
            return None;
        }
        let mut out = [0u8; 81];
        for (o, &c) in out.iter_mut().zip(&s) {
            *o = c.wrapping_sub(b'0');
        }
        Some(out)
    }
}

impl Drop for Tdoku {
    fn drop(&mut self) {
        // SAFETY: `handle` came from `dlopen` (the only way to make a
        // `Tdoku`) and is closed once; no pointer into the library outlives
        // `self`.
        #[cfg(unix)]
        unsafe {
            libc::dlclose(self.handle)
        };
    }
}

/// `dlerror`'s message, or a placeholder when it has none.
#[cfg(unix)]
fn last_dl_error() -> String {
    // SAFETY: `dlerror` returns null or a NUL-terminated string valid until
    // the next `dl*` call on this thread; it is copied out at once.
    unsafe {
        let e = libc::dlerror();
        if e.is_null() {
            "unknown error".into()
        } else {
            std::ffi::CStr::from_ptr(e).to_string_lossy().into_owned()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn input_form_has_dots_digits_and_a_terminator() {
        let mut p = [0u8; 81];
        p[0] = 5;
        p[80] = 9;
        let s = tdoku_input(&p);
        assert_eq!(s[0], b'5');
        assert_eq!(s[1], b'.');
        assert_eq!(s[80], b'9');
        assert_eq!(s[81], 0);
        assert_eq!(s.iter().filter(|&&c| c == b'.').count(), 79);
    }

    #[test]
    fn a_missing_library_is_an_error_naming_it() {
        let e = Tdoku::open(Path::new("/nonexistent/libtdoku_shared.so")).unwrap_err();
        let msg = format!("{e:#}");
        assert!(
            msg.contains("cannot load /nonexistent/libtdoku_shared.so"),
            "{msg}"
        );
    }

    #[test]
    fn a_library_without_the_entry_point_is_refused_by_name() {
        // The C library is loaded in every process on Linux; it has no
        // tdoku entry point.
        #[cfg(target_os = "linux")]
        {
            let e = Tdoku::open(Path::new("libc.so.6")).unwrap_err();
            let msg = format!("{e:#}");
            assert!(msg.contains("has no TdokuSolverDpllTriadSimd"), "{msg}");
        }
    }
}
