//! Counting on several threads: the search tree is split at a shallow level
//! into independent subproblems (each a forced path from the root), and the
//! subproblems are counted on rayon threads. The same split is what a cluster
//! would run: the counts of the subproblems add up to the total.

use rayon::prelude::*;

use crate::limits::Limits;
use crate::problem::Problem;
use crate::search::{Config, Dlx};
use crate::stats::{Report, Stats, StopReason};

/// Split the search tree at the shallowest level with at least `target`
/// nodes (or at the bottom): the forced paths to those nodes, the solutions
/// met above that level, and the statistics of the split itself.
fn split_paths(proto: &mut Dlx, target: usize) -> (Vec<Vec<(u32, u32)>>, u64, Stats) {
    let mut paths = Vec::new();
    let mut depth = 1;
    loop {
        paths.clear();
        let (above, stats) = proto.split(depth, &mut paths);
        // forced moves (items with one option left) do not branch, so the
        // depth is not bounded by a small constant: a Sudoku's givens and
        // the singles they leave make a path of dozens of levels before
        // the first real choice
        if paths.len() >= target || paths.is_empty() {
            return (paths, above, stats);
        }
        depth += 1;
    }
}

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
    Dlx::with_config(problem, config).count_parallel(limits, threads)
}

impl Dlx {
    /// Count all solutions on `threads` threads (0 = all cores), as
    /// [`count_parallel`] does: each thread counts on a copy of this solver.
    pub fn count_parallel(&mut self, limits: &Limits, threads: usize) -> Report {
        count_with(self, limits, threads)
    }
}

fn count_with(proto: &mut Dlx, limits: &Limits, threads: usize) -> Report {
    let threads = thread_count(threads);
    if threads <= 1 || limits.max_solutions.is_some() || limits.max_nodes.is_some() {
        return proto.count(limits);
    }
    let (paths, above, split_stats) = split_paths(proto, threads * 64);
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
    combine(stats, &reports, proto.bytes() * threads as u64)
}

/// The number of threads to use: `threads`, or all of rayon's for 0.
pub(crate) fn thread_count(threads: usize) -> usize {
    if threads == 0 {
        rayon::current_num_threads()
    } else {
        threads
    }
}

/// The report of a parallel count: the split's statistics plus every
/// subtree's, with `bytes` (what the threads hold at once) as the peak
/// bytes, and the stop reason of a subtree cut short (or exhausted when
/// none was).
pub(crate) fn combine(mut stats: Stats, reports: &[Report], bytes: u64) -> Report {
    let mut stop = StopReason::Exhausted;
    for r in reports {
        stats += r.stats;
        if !r.stop.is_complete() {
            stop = r.stop;
        }
    }
    stats.peak_bytes = bytes;
    Report { stats, stop }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::parse;

    /// 8-queens behind a chain of `forced` items with one option each:
    /// MRV takes the whole chain before the first real choice.
    fn queens_behind_forced_moves(forced: usize) -> Problem {
        let mut text = String::new();
        for k in 0..forced {
            text.push_str(&format!("f{k} "));
        }
        for k in 0..8 {
            text.push_str(&format!("r{k} c{k} "));
        }
        text.push('|');
        for k in 0..15 {
            text.push_str(&format!(" a{k} b{k}"));
        }
        text.push('\n');
        for k in 0..forced {
            text.push_str(&format!("f{k}\n"));
        }
        for r in 0..8 {
            for c in 0..8 {
                text.push_str(&format!("r{r} c{c} a{} b{}\n", r + c, r + 7 - c));
            }
        }
        parse(&text).expect("instance parses").problem
    }

    #[test]
    fn the_split_goes_below_a_long_chain_of_forced_moves() {
        let problem = queens_behind_forced_moves(40);
        let mut proto = Dlx::new(&problem);
        let (paths, above, _) = split_paths(&mut proto, 16);
        assert!(paths.len() >= 16, "{} paths", paths.len());
        assert_eq!(above, 0);
        let report = count_parallel(&problem, Config::default(), &Limits::none(), 2);
        assert_eq!(report.stats.solutions, 92);
        assert!(report.stop.is_complete());
        let one = Dlx::new(&problem).count(&Limits::none());
        assert_eq!(report.stats.nodes, one.stats.nodes);
    }
}
