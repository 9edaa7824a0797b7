#!/usr/bin/env python3
"""The split of an exact-cover count into subproblems: how many, and how
even (the largest subproblem's share of the search nodes).

    python crates/python/bench/split_balance.py FILE.dlx DEPTH [DEPTH...]

Counts every token of `Problem.split(DEPTH)` on one thread and prints the
total (which must equal the whole count), the number of subproblems, the
largest one's share of the nodes, and the time of the split itself.
"""

import sys
import time

import sudoku_toolkit as st


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
        print(
            f"{path} depth {depth}: {total} solutions, {len(tokens)} subproblems, "
            f"largest {max(nodes) / sum(nodes):.2%} of {sum(nodes):,} nodes, split {split_secs * 1e3:.1f} ms"
        )


if __name__ == "__main__":
    main()
