//! Every method on any parsed puzzle, with a node limit: no panic, and every
//! solution returned is a solution of the puzzle.
#![no_main]

use std::ops::ControlFlow;

use libfuzzer_sys::fuzz_target;
use sudoku_core::Limits;
use sudoku_core::format::PuzzleReader;
use sudoku_core::solve::Method;

fuzz_target!(|data: &[u8]| {
    for p in PuzzleReader::new(data).flatten().take(4) {
        for m in Method::ALL {
            let mut s = m.solver();
            let limits = Limits::none().with_max_nodes(2_000).with_max_solutions(2);
            s.search(&p.grid, &limits, &mut |g| {
                assert!(g.is_solution_of(&p.grid), "{m}");
                ControlFlow::Continue(())
            });
        }
    }
});
