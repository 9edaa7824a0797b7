//! Sudoku input: any bytes give one result per puzzle and never a panic; a
//! parsed grid prints and parses back to itself.
#![no_main]

use libfuzzer_sys::fuzz_target;
use sudoku_core::Candidates;
use sudoku_core::format::{PuzzleReader, parse_line};

fuzz_target!(|data: &[u8]| {
    for item in PuzzleReader::new(data) {
        if let Ok(p) = item {
            let back = parse_line(&p.grid.to_line()).expect("printed grids parse");
            assert_eq!(back, p.grid);
        }
    }
    if let Ok(text) = std::str::from_utf8(data) {
        let _ = Candidates::parse_pencilmarks(text);
    }
});
