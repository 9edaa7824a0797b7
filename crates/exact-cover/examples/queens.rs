//! The n-queens problem as exact cover: ranks and files are primary items
//! (each gets exactly one queen), the diagonals are secondary items (at most
//! one queen each). Counts the solutions on all cores with
//! [`count_parallel`], then prints the first solution as a board.
//!
//! `cargo run -p exact-cover --release --example queens [N]` (default 12)

use exact_cover::{Config, Dlx, Limits, ProblemBuilder, count_parallel};

fn main() {
    let n: usize = match std::env::args().nth(1).map(|s| s.parse()) {
        None => 12,
        Some(Ok(n)) if (1..=32).contains(&n) => n,
        Some(_) => {
            eprintln!("queens: N must be a whole number from 1 to 32");
            std::process::exit(2);
        }
    };
    let mut b = ProblemBuilder::new();
    let ranks: Vec<_> = (0..n).map(|r| b.primary(&format!("r{r}"))).collect();
    let files: Vec<_> = (0..n).map(|c| b.primary(&format!("c{c}"))).collect();
    let up: Vec<_> = (0..2 * n - 1)
        .map(|d| b.secondary(&format!("a{d}")))
        .collect();
    let down: Vec<_> = (0..2 * n - 1)
        .map(|d| b.secondary(&format!("b{d}")))
        .collect();
    for r in 0..n {
        for c in 0..n {
            // option r * n + c: a queen on rank r, file c
            b.option([ranks[r], files[c], up[r + c], down[r + n - 1 - c]].map(|i| (i, None)));
        }
    }
    let problem = b.build().expect("a well-formed problem");

    let report = count_parallel(&problem, Config::default(), &Limits::none(), 0);
    println!(
        "{n}-queens: {} solutions, {} search nodes",
        report.stats.solutions, report.stats.nodes
    );
    if let (Some(solution), _) = Dlx::new(&problem).first(&Limits::none()) {
        let mut board = vec![vec!['.'; n]; n];
        for k in solution {
            board[k / n][k % n] = 'Q';
        }
        for row in board {
            println!("{}", row.into_iter().collect::<String>());
        }
    }
}
