//! Variant puzzles in the f-puzzles format: any text is read or refused,
//! as JSON and as a link (the same bytes compressed), never a panic; a
//! puzzle read is written back as f-puzzles JSON (or refused with a reason)
//! that reads again and writes the same JSON; and the solver builds from
//! it, or says why not, without panicking.
#![no_main]

use libfuzzer_sys::fuzz_target;
use sudoku_core::variant::{VariantSolver, fpuzzles};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let link = format!("?load={}", lz_str::compress_to_base64(text));
    for read in [fpuzzles::parse(text), fpuzzles::parse_link(&link)] {
        let Ok(p) = read else { continue };
        if let Ok(json) = fpuzzles::to_json(&p) {
            let back = fpuzzles::parse_json(&json)
                .unwrap_or_else(|e| panic!("{json:?} does not read back: {e}"));
            let again = fpuzzles::to_json(&back).expect("written once");
            assert_eq!(again, json);
        }
        let _ = VariantSolver::new(&p);
    }
});
