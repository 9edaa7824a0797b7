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
- blocks: the tokens cut into 16 x 2 contiguous partitions, each partition
  taken by the next free worker (what `sc.parallelize(tokens, 32)` gives);
- dealt: the tokens dealt round-robin to 32 partitions
  (`examples/spark_xc_count.py` on local[2]).

A subproblem's cost is its search nodes (deterministic; the time per node
is about constant within an instance). The speed-up is the total over the
busier worker's share, the split itself (milliseconds) left out. A
schedule of the work, not a wall clock: on a machine shared with other
jobs it is the figure that does not depend on what else runs.
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
        counts = [prob.count(subproblem=tok) for tok in tokens]
        nodes = [c.stats.nodes for c in counts]
        total = sum(int(c) for c in counts)
        work = sum(nodes)
        parts = 32
        size = -(-len(nodes) // parts)
        blocks = [sum(nodes[i : i + size]) for i in range(0, len(nodes), size)]
        dealt = [sum(nodes[k::parts]) for k in range(parts)]
        print(
            f"{path} depth {depth}: {total} solutions, {len(tokens)} subproblems, "
            f"largest {max(nodes) / work:.2%} of {work:,} nodes, split {split_secs * 1e3:.1f} ms; "
            f"speed-up on 2 workers: queue {work / makespan(nodes):.2f}x, "
            f"{parts} blocks {work / makespan(blocks):.2f}x, {parts} dealt {work / makespan(dealt):.2f}x"
        )


if __name__ == "__main__":
    main()
