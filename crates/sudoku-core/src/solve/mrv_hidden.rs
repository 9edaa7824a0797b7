//! `mrv-hidden`: [`mrv`](super::mrv) plus hidden singles.
//!
//! After the naked singles, every row, column and box is scanned for a digit
//! that has one place left (a hidden single: placed at once) or no place left
//! (a dead end, found before any cell runs out of candidates). The scan
//! repeats until it places nothing; only then does the search branch on the
//! cell with the fewest candidates.
//!
//! The per-house scan counts digits with two masks, "seen at least once" and
//! "seen at least twice" (`twice |= once & m; once |= m`), so a house costs n
//! mask operations whatever the digit count; only houses where a candidate
//! was removed since their last scan are scanned again. Hidden singles are the first
//! deduction of human solving guides and of Norvig's constraint-propagation
//! solver ("Solving Every Sudoku Puzzle", 2006: "if a unit has only one
//! possible place for a value, then put the value there").
//!
//! Statistics as for [`mrv`](super::mrv).

use super::mrv::MrvSolver;

/// MRV backtracking with naked and hidden singles. See the [module docs](self).
pub type MrvHidden = MrvSolver<true>;

#[cfg(test)]
mod tests {
    use std::ops::ControlFlow;

    use super::*;
    use crate::format::parse_line;
    use crate::grid::{Grid, House};
    use crate::solve::{Limits, Report, Solver, StopReason, TraceStep};

    fn trace(p: &Grid, limits: &Limits) -> (Report, Vec<TraceStep>) {
        let mut steps = Vec::new();
        let report = MrvHidden::new()
            .search_traced(p, limits, &mut |_| ControlFlow::Continue(()), &mut |s| {
                steps.push(s.clone())
            })
            .expect("mrv-hidden traces");
        (report, steps)
    }

    #[test]
    fn hidden_single_is_found_and_named() {
        // 1 at r2c1 rules out r1c1, r1c2 (box); 1 at r3c3 rules out r1c3
        // (column): in row 1, 1 fits only r1c4, which has four candidates.
        let p = parse_line("....1.....1.....").expect("parses");
        let (report, steps) = trace(&p, &Limits::solutions(1));
        assert_eq!(report.stats.solutions, 1);
        assert_eq!(
            steps.first(),
            Some(&TraceStep::HiddenSingle {
                house: House::Row(0),
                cell: 3,
                digit: 1
            })
        );
    }

    #[test]
    fn digit_with_no_place_is_a_dead_end() {
        // Row 1: 9 is ruled out of boxes 1 and 2 (9s at r2c1, r3c5), of
        // columns 7 and 8 (9s at r4c7, r7c8), and r1c9 holds a 1.
        let mut g = Grid::empty(crate::grid::Size::NINE);
        for (cell, d) in [(8, 1), (9, 9), (22, 9), (33, 9), (61, 9)] {
            g.set(cell, d);
        }
        assert_eq!(g.first_conflict(), None);
        let (report, steps) = trace(&g, &Limits::none());
        assert_eq!(
            (report.stats.solutions, report.stop),
            (0, StopReason::Exhausted)
        );
        assert_eq!(
            steps,
            vec![TraceStep::NoPlace {
                house: House::Row(0),
                digit: 9
            }]
        );
        // Plain mrv does not see it at the root and has to search.
        let (n, r) = crate::solve::Mrv::new().count(&g, 2, &Limits::none());
        assert_eq!((n, r.stop), (0, StopReason::Exhausted));
        assert!(r.stats.nodes > 1);
    }
}
