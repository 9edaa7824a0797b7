//! Check the step solver on whole datasets: every step of the rating path,
//! and every technique run on its own at each state where singles do not
//! apply, is checked against the puzzle's unique solution (no wrong digit
//! placed, no true candidate removed).
//!
//! ```text
//! cargo run --release -p sudoku-core --example rate_check -- [--limit N] FILE...
//! ```
//!
//! The solution comes from a small brute-force search in this file (an
//! oracle independent of the rater, kept deliberately simple).

use sudoku_core::rate::{Rater, Step, Technique, apply};
use sudoku_core::{Candidates, Grid};

/// Brute force, MRV on row/column/box masks, up to 2 solutions (9×9 only).
fn unique_solution(cells: &[u8]) -> Option<Vec<u8>> {
    fn houses(i: usize) -> [usize; 3] {
        [i / 9, 9 + i % 9, 18 + (i / 27) * 3 + (i % 9) / 3]
    }
    fn go(cells: &mut [u8], used: &mut [u32; 27], found: &mut Vec<Vec<u8>>) {
        if found.len() >= 2 {
            return;
        }
        let mut best: Option<(usize, u32)> = None;
        for (i, &v) in cells.iter().enumerate() {
            if v == 0 {
                let [r, c, b] = houses(i);
                let free = 0x1ff & !(used[r] | used[c] | used[b]);
                if best.is_none_or(|(_, m)| free.count_ones() < m.count_ones()) {
                    best = Some((i, free));
                }
            }
        }
        let Some((i, mut free)) = best else {
            found.push(cells.to_vec());
            return;
        };
        let hs = houses(i);
        while free != 0 {
            let d = free.trailing_zeros() as u8 + 1;
            free &= free - 1;
            cells[i] = d;
            hs.iter().for_each(|&h| used[h] |= 1 << (d - 1));
            go(cells, used, found);
            hs.iter().for_each(|&h| used[h] &= !(1 << (d - 1)));
            cells[i] = 0;
        }
    }
    let mut cells = cells.to_vec();
    let mut used = [0u32; 27];
    for (i, &v) in cells.iter().enumerate() {
        if v != 0 {
            let bit = 1 << (v - 1);
            for h in houses(i) {
                if used[h] & bit != 0 {
                    return None;
                }
                used[h] |= bit;
            }
        }
    }
    let mut found = Vec::new();
    go(&mut cells, &mut used, &mut found);
    (found.len() == 1).then(|| found.pop()).flatten()
}

fn wrong(step: &Step, solution: &[u8]) -> bool {
    step.placements.iter().any(|p| solution[p.cell] != p.digit)
        || step
            .eliminations
            .iter()
            .any(|e| solution[e.cell] == e.digit)
}

fn main() -> std::process::ExitCode {
    let mut limit = usize::MAX;
    let mut files = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        if a == "--limit" {
            limit = args
                .next()
                .and_then(|s| s.parse().ok())
                .unwrap_or(usize::MAX);
        } else {
            files.push(a);
        }
    }
    let rater = Rater::default();
    let mut failures = 0usize;
    for path in files {
        let Ok(text) = std::fs::read_to_string(&path) else {
            eprintln!("cannot read {path}");
            return std::process::ExitCode::from(2);
        };
        let mut checked = [0u64; Technique::COUNT];
        let (mut puzzles, mut solved) = (0usize, 0usize);
        for line in text.lines().take(limit) {
            let cells: Vec<u8> = line
                .trim()
                .chars()
                .take(81)
                .map(|ch| ch.to_digit(10).map_or(0, |d| d as u8))
                .collect();
            let Ok(grid) = Grid::from_cells(cells.clone()) else {
                continue;
            };
            let Some(solution) = unique_solution(&cells) else {
                continue;
            };
            puzzles += 1;
            let mut c = Candidates::from_grid(&grid);
            let rating = rater.run(&grid, |step| {
                checked[step.technique.index()] += 1;
                if wrong(step, &solution) {
                    failures += 1;
                    println!("WRONG {line}: {}", step.prose());
                }
                if step.technique > Technique::NakedSingle {
                    for t in Technique::ALL {
                        if let Some(s) = t.find(&c) {
                            checked[t.index()] += 1;
                            if wrong(&s, &solution) {
                                failures += 1;
                                println!(
                                    "WRONG (alone) {line} {}: {}",
                                    c.to_pencilmarks(),
                                    s.prose()
                                );
                            }
                        }
                    }
                }
                apply(&mut c, step);
            });
            solved += usize::from(rating.is_solved());
        }
        println!(
            "{path}: {puzzles} unique puzzles, {solved} finished by the techniques; steps checked:"
        );
        for t in Technique::ALL {
            println!("  {:>20}: {}", t.name(), checked[t.index()]);
        }
    }
    println!("{failures} wrong steps");
    if failures == 0 {
        std::process::ExitCode::SUCCESS
    } else {
        std::process::ExitCode::from(1)
    }
}
