//! The page's offline engine: the same API functions as `sudoku serve`
//! ([`sudoku_server::api`]), compiled to WebAssembly so the page answers
//! itself when no server does (the page's folder hosted as static files).
//!
//! The target is `wasm32-wasip1`: its standard library has a clock (the
//! solvers time their searches and honour deadlines with
//! `std::time::Instant`, which `wasm32-unknown-unknown` lacks), and the
//! page gives it the few WASI calls it makes (`crates/web/www/offline.js`).
//! The interface is three C functions on the module's memory:
//! [`sudoku_alloc`] a buffer, write the request's JSON body into it, call
//! [`sudoku_call`] with the endpoint's number, read the answer it points
//! to (`{"http": status, "answer": {...}}`), and [`sudoku_free`] the request
//! buffer. Build (the page embeds the result):
//!
//! ```sh
//! rustup target add wasm32-wasip1
//! RUSTFLAGS='-C target-feature=+simd128' CARGO_PROFILE_RELEASE_STRIP=true \
//!   CARGO_PROFILE_RELEASE_DEBUG=false cargo build --release --target wasm32-wasip1 -p sudoku-web
//! cp target/wasm32-wasip1/release/sudoku_web.wasm crates/web/www/sudoku.wasm
//! ```

use std::cell::RefCell;
use std::time::{Duration, Instant};

use sudoku_server::api::{self, Endpoint, RequestLimits};

/// Time one offline request may take (as `sudoku serve`'s default).
pub const DEADLINE: Duration = Duration::from_secs(5);
/// Search nodes per search at most (as `sudoku serve`'s default).
pub const MAX_NODES: u64 = 20_000_000;

/// Answer one request: the endpoint by its number in
/// [`Endpoint::ALL`] (0 solve, 1 count, 2 rate, 3 hint, 4 explain, 5
/// generate, 6 bench) and the JSON body; the answer as
/// `{"http": status, "answer": {...}}`.
pub fn call(endpoint: u32, body: &[u8]) -> String {
    let Some(&e) = Endpoint::ALL.get(endpoint as usize) else {
        return serde_json::json!({"http": 404, "answer": {"error": "no such endpoint"}})
            .to_string();
    };
    let limits = RequestLimits {
        deadline: Instant::now() + DEADLINE,
        max_nodes: MAX_NODES,
    };
    match api::handle(e, body, &limits) {
        Ok(v) => serde_json::json!({"http": 200, "answer": v}).to_string(),
        Err(err) => serde_json::json!({"http": err.status, "answer": err.to_json()}).to_string(),
    }
}

thread_local! {
    /// The last answer, kept until the next call so the page can read it.
    static ANSWER: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
}

/// A buffer of `len` bytes for the page to write a request into; free it
/// with [`sudoku_free`].
#[unsafe(no_mangle)]
pub extern "C" fn sudoku_alloc(len: usize) -> *mut u8 {
    let mut v = vec![0u8; len];
    let p = v.as_mut_ptr();
    std::mem::forget(v);
    p
}

/// Free a buffer from [`sudoku_alloc`].
///
/// # Safety
///
/// `ptr` and `len` are a buffer [`sudoku_alloc`] returned, not freed yet.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sudoku_free(ptr: *mut u8, len: usize) {
    // SAFETY: the caller passes back a buffer of `sudoku_alloc`, which made
    // it as a `Vec<u8>` of exactly `len` bytes and capacity.
    drop(unsafe { Vec::from_raw_parts(ptr, len, len) });
}

/// Answer the request of `len` bytes at `ptr` to endpoint number
/// `endpoint`; the answer's address in the high 32 bits and its length in
/// the low 32 bits, valid until the next call.
///
/// # Safety
///
/// `ptr` points to `len` readable bytes (a buffer of [`sudoku_alloc`]).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sudoku_call(endpoint: u32, ptr: *const u8, len: usize) -> u64 {
    // SAFETY: the caller guarantees `len` readable bytes at `ptr`.
    let body = unsafe { std::slice::from_raw_parts(ptr, len) };
    let answer = call(endpoint, body).into_bytes();
    ANSWER.with(|a| {
        let mut a = a.borrow_mut();
        *a = answer;
        ((a.as_ptr() as usize as u64) << 32) | a.len() as u64
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_offline_engine_answers_like_the_server() {
        let body = br#"{"puzzle": ".3..9..5.....1...45..8....7....3.2..6....9.4...7..25.......19....69....812.....7."}"#;
        let v: serde_json::Value = serde_json::from_str(&call(0, body)).unwrap();
        assert_eq!(v["http"], 200);
        assert_eq!(v["answer"]["status"], "unique");
        let v: serde_json::Value = serde_json::from_str(&call(2, b"{\"puzzle\": \"12\"}")).unwrap();
        assert_eq!(v["http"], 400);
        assert!(v["answer"]["line"].is_u64());
        let v: serde_json::Value = serde_json::from_str(&call(99, b"{}")).unwrap();
        assert_eq!(v["http"], 404);
    }

    #[test]
    fn the_c_interface_round_trips_a_request() {
        let body = br#"{"puzzle": "................", "limit": 1000}"#;
        let p = sudoku_alloc(body.len());
        // SAFETY: `p` is a fresh buffer of `body.len()` bytes.
        unsafe { std::ptr::copy_nonoverlapping(body.as_ptr(), p, body.len()) };
        // SAFETY: `p` holds `body.len()` bytes.
        let r = unsafe { sudoku_call(1, p, body.len()) };
        // SAFETY: `p` came from `sudoku_alloc(body.len())`.
        unsafe { sudoku_free(p, body.len()) };
        let answer = ANSWER.with(|a| String::from_utf8(a.borrow().clone()).unwrap());
        assert_eq!((r & 0xffff_ffff) as usize, answer.len());
        let v: serde_json::Value = serde_json::from_str(&answer).unwrap();
        assert_eq!(v["answer"]["count"], 288);
    }
}
