#!/usr/bin/env python3
"""Batch solve from Python against the command line's whole process.

    python crates/python/bench/batch_throughput.py SUDOKU_BINARY PUZZLE_FILE [RUNS]

For 1 thread and all cores, runs interleaved: `sudoku solve --threads T FILE
> /dev/null` (the whole process, wall time) and, in this process, a loop
over `st.solve_batch(open(FILE), threads=T)` that reads every result's
status and solution (wall time of the loop; the import is not counted).
Prints the medians as puzzles per second and the ratio Python / CLI.
"""

import os
import statistics
import subprocess
import sys
import time

import sudoku_toolkit as st


def cli(binary, path, threads):
    t = time.perf_counter()
    with open(os.devnull, "w") as null:
        subprocess.run([binary, "solve", "--threads", str(threads), path], stdout=null, check=False)
    return time.perf_counter() - t


def python(path, threads):
    t = time.perf_counter()
    unique = 0
    with open(path) as f:
        for r in st.solve_batch(f, threads=threads):
            unique += r.status == "unique" and r.solution is not None
    return time.perf_counter() - t, unique


def main():
    binary, path = sys.argv[1], sys.argv[2]
    runs = int(sys.argv[3]) if len(sys.argv) > 3 else 7
    with open(path) as f:
        n = sum(1 for line in f if line.strip() and not line.startswith("#"))
    cores = os.cpu_count()
    for threads in (1, cores):
        c, p = [], []
        for _ in range(runs):
            c.append(cli(binary, path, threads))
            secs, unique = python(path, threads)
            p.append(secs)
        cm, pm = statistics.median(c), statistics.median(p)
        print(
            f"threads {threads}: {n} puzzles ({unique} unique); CLI {n / cm:,.0f}/s, "
            f"Python {n / pm:,.0f}/s, Python/CLI {cm / pm:.2f} "
            f"(CLI {min(c):.3f}-{max(c):.3f} s, Python {min(p):.3f}-{max(p):.3f} s, {runs} runs)"
        )


if __name__ == "__main__":
    main()
