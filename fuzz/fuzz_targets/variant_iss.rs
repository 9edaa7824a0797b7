//! Variant puzzles in the ISS text format: any text is read or refused,
//! never a panic; a puzzle read writes back (`Display`) as text that reads
//! as the same puzzle; and the solver builds from it, or says why not,
//! without panicking (no search: a search may take long on any puzzle).
#![no_main]

use libfuzzer_sys::fuzz_target;
use sudoku_core::variant::{Puzzle, VariantSolver};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(p) = text.parse::<Puzzle>() {
        let written = p.to_string();
        let back: Puzzle = written
            .parse()
            .unwrap_or_else(|e| panic!("{written:?} does not read back: {e}"));
        assert_eq!(back, p, "{written:?}");
        let _ = VariantSolver::new(&p);
    }
});
