//! Counting on several threads: the search tree is split at a shallow level
//! into independent subproblems (each a forced path from the root), and the
//! subproblems are counted on rayon threads. The same split is what a cluster
//! would run: the counts of the subproblems add up to the total.

use rayon::prelude::*;

use crate::limits::Limits;
use crate::problem::Problem;
use crate::search::{Config, Dlx};
use crate::stats::{Report, Stats, StopReason};

/// Count all solutions of `problem` on `threads` threads (0 = all cores).
///
/// Gives the same count and node total as [`Dlx::count`]. The deadline and
/// cancel token are honoured; a solution or node limit makes the count run on
/// one thread (those limits depend on the order of the search).
pub fn count_parallel(
    problem: &Problem,
    config: Config,
    limits: &Limits,
    threads: usize,
) -> Report {
    let mut proto = Dlx::with_config(problem, config);
    let threads = if threads == 0 {
        rayon::current_num_threads()
    } else {
        threads
    };
    if threads <= 1 || limits.max_solutions.is_some() || limits.max_nodes.is_some() {
        return proto.count(limits);
    }
    let target = threads * 64;
    let mut paths = Vec::new();
    let mut depth = 1;
    let (mut above, mut split_stats);
    loop {
        paths.clear();
        (above, split_stats) = proto.split(depth, &mut paths);
        // forced moves (items with one option left) do not branch, so the
        // depth is not bounded by a small constant: a Sudoku's givens and
        // the singles they leave make a path of dozens of levels before
        // the first real choice
        if paths.len() >= target || paths.is_empty() {
            break;
        }
        depth += 1;
    }
    let pool = match rayon::ThreadPoolBuilder::new().num_threads(threads).build() {
        Ok(p) => p,
        Err(_) => return proto.count(limits),
    };
    let reports: Vec<Report> = pool.install(|| {
        paths
            .par_iter()
            .map_init(
                || proto.clone(),
                |dlx, path| dlx.count_subtree(path, limits),
            )
            .collect()
    });
    let mut stats: Stats = split_stats;
    stats.solutions = above;
    let mut stop = StopReason::Exhausted;
    for r in &reports {
        stats.nodes += r.stats.nodes;
        stats.updates += r.stats.updates;
        stats.solutions += r.stats.solutions;
        stats.guesses += r.stats.guesses;
        stats.max_depth = stats.max_depth.max(r.stats.max_depth);
        if !r.stop.is_complete() {
            stop = r.stop;
        }
    }
    stats.bytes = proto.bytes() * threads as u64;
    Report { stats, stop }
}
