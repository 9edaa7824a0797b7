#!/usr/bin/env python3
"""The split of an exact-cover count into subproblems: how many, how even
(the largest subproblem's share of the search nodes), and the speed-up
that balance allows on two cores.

    python crates/python/bench/split_balance.py FILE.dlx DEPTH [DEPTH...]

Counts every token of `Problem.split(DEPTH)` on one thread and prints the
total (which must equal the whole count), the number of subproblems, the
largest one's share of the nodes, the time of the split itself, and two
schedules of the measured per-subproblem times on 2 workers:

- queue: each worker takes the next subproblem when it is free (what
  `dlx --count --threads 2` does, with work stealing, and Spark does with
  one token a partition);
- blocks: the tokens cut into 4 x 2 contiguous partitions, each partition
  taken by the next free worker (`examples/spark_xc_count.py`'s default
  on local[2]).

The speed-up is the one-thread time over the slower worker's, the split
counted on one thread in both. A schedule of measured times, not a wall
clock: on a machine shared with other jobs it is the figure that does not
depend on what else runs.
"""

import heapq
import sys
import time

import sudoku_toolkit as st


def makespan(costs, workers=2):
    """Greedy list scheduling in the given order: the finish time."""
    free = [0.0] * workers
    for c in costs:
        heapq.heappush(free, heapq.heappop(free) + c)
    return max(free)


def main():
    path, depths = sys.argv[1], [int(d) for d in sys.argv[2:]]
    with open(path) as f:
        prob = st.xc.Problem.from_knuth(f.read())
    for depth in depths:
        t = time.perf_counter()
        tokens = prob.split(depth)
        split_secs = time.perf_counter() - t
        counts, secs = [], []
        for tok in tokens:
            t = time.perf_counter()
            counts.append(prob.count(subproblem=tok))
            secs.append(time.perf_counter() - t)
        nodes = [c.stats.nodes for c in counts]
        total = sum(int(c) for c in counts)
        work = sum(secs)
        parts = 8
        size = -(-len(secs) // parts)
        blocks = [sum(secs[i : i + size]) for i in range(0, len(secs), size)]
        queue = (split_secs + work) / (split_secs + makespan(secs))
        block = (split_secs + work) / (split_secs + makespan(blocks))
        print(
            f"{path} depth {depth}: {total} solutions, {len(tokens)} subproblems, "
            f"largest {max(nodes) / sum(nodes):.2%} of {sum(nodes):,} nodes, split {split_secs * 1e3:.1f} ms, "
            f"counts {work:.2f} s; speed-up on 2 workers: queue {queue:.2f}x, {parts} blocks {block:.2f}x"
        )


if __name__ == "__main__":
    main()
