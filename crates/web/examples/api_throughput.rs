//! The offline engine's calls, natively: `/api/count` on every puzzle of a
//! file through [`sudoku_web::call`], the figures to hold the WebAssembly
//! build's against (`crates/web/bench.mjs` makes the same calls on
//! the page's WebAssembly engine, `www/engine/`).
//!
//! `cargo run --release -p sudoku-web --example api_throughput -- PUZZLES.txt`

use std::time::Instant;

fn main() {
    let path = std::env::args()
        .nth(1)
        .expect("usage: throughput PUZZLES.txt");
    let text = std::fs::read_to_string(&path).expect("readable puzzle file");
    let bodies: Vec<String> = text
        .lines()
        .filter(|l| !l.starts_with('#') && l.len() >= 81)
        .map(|l| format!("{{\"puzzle\": \"{}\"}}", &l[..81]))
        .collect();
    for pass in 1..=8 {
        let start = Instant::now();
        let mut search_micros = 0u64;
        for b in &bodies {
            let v: serde_json::Value =
                serde_json::from_str(&sudoku_web::call(1, b)).expect("the engine answers JSON");
            assert_eq!(v["answer"]["status"], "unique", "{b}");
            search_micros += v["answer"]["stats"]["micros"].as_u64().unwrap_or(0);
        }
        let secs = start.elapsed().as_secs_f64();
        println!(
            "native pass {pass}: {} calls in {secs:.3} s = {:.1} us per call; search time {:.2} us per puzzle",
            bodies.len(),
            secs * 1e6 / bodies.len() as f64,
            search_micros as f64 / bodies.len() as f64
        );
    }
}
