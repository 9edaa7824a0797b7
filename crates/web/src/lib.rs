//! The page's offline engine: the same API functions as `sudoku serve`
//! ([`sudoku_server::api`]), compiled to WebAssembly so the page answers
//! itself when no server does (the page's folder hosted as static files).
//!
//! The target is `wasm32-unknown-unknown` with `wasm-bindgen`: the module
//! exports one function, [`call`], taking the endpoint's number and the
//! request's JSON body and returning `{"http": status, "answer": {...}}`.
//! The solvers' clock on that target is the browser's (see
//! `sudoku_core::time`). Build (the page embeds the result; the
//! `wasm-bindgen` CLI's version must equal the `wasm-bindgen` crate's,
//! pinned in this crate's `Cargo.toml`):
//!
//! ```sh
//! rustup target add wasm32-unknown-unknown
//! cargo install wasm-bindgen-cli --version 0.2.130
//! crates/web/build.sh
//! ```
//!
//! `build.sh` runs `cargo build --profile wasm --target
//! wasm32-unknown-unknown -p sudoku-web` with SIMD128 on, then
//! `wasm-bindgen --target web` into `crates/web/www/engine/` (an ES module
//! `sudoku_web.js` and `sudoku_web_bg.wasm`, loaded by the page's worker
//! `offline.js` with no bundler).

use std::time::Duration;

use sudoku_core::time::Instant;
use sudoku_server::api::{self, Endpoint, RequestLimits};

#[cfg(target_arch = "wasm32")]
use wasm_bindgen::prelude::wasm_bindgen;

/// Time one offline request may take (as `sudoku serve`'s default).
pub const DEADLINE: Duration = Duration::from_secs(5);
/// Search nodes per search at most (as `sudoku serve`'s default).
pub const MAX_NODES: u64 = 20_000_000;

/// Answer one request: the endpoint by its number in
/// [`Endpoint::ALL`] (0 solve, 1 count, 2 rate, 3 hint, 4 explain, 5
/// generate, 6 bench) and the JSON body; the answer as
/// `{"http": status, "answer": {...}}`.
#[cfg_attr(target_arch = "wasm32", wasm_bindgen)]
pub fn call(endpoint: u32, body: &str) -> String {
    let Some(&e) = Endpoint::ALL.get(endpoint as usize) else {
        return serde_json::json!({"http": 404, "answer": {"error": "no such endpoint"}})
            .to_string();
    };
    let limits = RequestLimits {
        deadline: Instant::now() + DEADLINE,
        max_nodes: MAX_NODES,
    };
    match api::handle(e, body.as_bytes(), &limits) {
        Ok(v) => serde_json::json!({"http": 200, "answer": v}).to_string(),
        Err(err) => serde_json::json!({"http": err.status, "answer": err.to_json()}).to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_offline_engine_answers_like_the_server() {
        let body = r#"{"puzzle": ".3..9..5.....1...45..8....7....3.2..6....9.4...7..25.......19....69....812.....7."}"#;
        let v: serde_json::Value = serde_json::from_str(&call(0, body)).unwrap();
        assert_eq!(v["http"], 200);
        assert_eq!(v["answer"]["status"], "unique");
        let v: serde_json::Value = serde_json::from_str(&call(2, "{\"puzzle\": \"12\"}")).unwrap();
        assert_eq!(v["http"], 400);
        assert!(v["answer"]["line"].is_u64());
        let v: serde_json::Value = serde_json::from_str(&call(99, "{}")).unwrap();
        assert_eq!(v["http"], 404);
        let v: serde_json::Value =
            serde_json::from_str(&call(1, r#"{"puzzle": "................", "limit": 1000}"#))
                .unwrap();
        assert_eq!(v["answer"]["count"], 288);
    }
}
