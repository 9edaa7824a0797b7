#!/usr/bin/env python3
"""Batch solve from Python against the command line's whole process.

    python crates/python/bench/batch_throughput.py SUDOKU_BINARY PUZZLE_FILE [RUNS [THREADS]]

For 1 thread and all cores (or the thread counts THREADS, e.g. "2" or
"1,2"), runs interleaved: `sudoku solve --threads T FILE
> /dev/null` (the whole process, wall time) and, in this process, a loop
over `st.solve_batch(open(FILE), threads=T)` that reads every result's
status and solution (wall time of the loop; the import is not counted).
Prints the medians as puzzles per second and the ratio Python / CLI, and
the CPU time per puzzle of the caller's thread (the one running the loop:
`time.thread_time`) and of the whole process (`getrusage`), for the CLI too.
"""

import os
import resource
import statistics
import subprocess
import sys
import time

import sudoku_toolkit as st


def cpu(who):
    u = resource.getrusage(who)
    return u.ru_utime + u.ru_stime


def cli(binary, path, threads):
    c = cpu(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    with open(os.devnull, "w") as null:
        subprocess.run([binary, "solve", "--threads", str(threads), path], stdout=null, check=False)
    return time.perf_counter() - t, cpu(resource.RUSAGE_CHILDREN) - c


def python(path, threads):
    c = cpu(resource.RUSAGE_SELF)
    t = time.perf_counter()
    own = time.thread_time()
    unique = 0
    with open(path) as f:
        for r in st.solve_batch(f, threads=threads):
            unique += r.status == "unique" and r.solution is not None
    own = time.thread_time() - own
    return time.perf_counter() - t, cpu(resource.RUSAGE_SELF) - c, own, unique


def main():
    binary, path = sys.argv[1], sys.argv[2]
    runs = int(sys.argv[3]) if len(sys.argv) > 3 else 7
    with open(path) as f:
        n = sum(1 for line in f if line.strip() and not line.startswith("#"))
    cores = os.cpu_count()
    counts = [int(t) for t in sys.argv[4].split(",")] if len(sys.argv) > 4 else [1, cores]
    ns = 1e9 / n
    for threads in counts:
        c, c_cpu, p, p_cpu, p_own = [], [], [], [], []
        for _ in range(runs):
            secs, used = cli(binary, path, threads)
            c.append(secs)
            c_cpu.append(used)
            secs, used, own, unique = python(path, threads)
            p.append(secs)
            p_cpu.append(used)
            p_own.append(own)
        cm, pm = statistics.median(c), statistics.median(p)
        print(
            f"threads {threads}: {n} puzzles ({unique} unique); CLI {n / cm:,.0f}/s, "
            f"Python {n / pm:,.0f}/s, Python/CLI {cm / pm:.2f} "
            f"(CLI {min(c):.3f}-{max(c):.3f} s, Python {min(p):.3f}-{max(p):.3f} s, {runs} runs)\n"
            f"  CPU per puzzle: CLI process {statistics.median(c_cpu) * ns:,.0f} ns, "
            f"Python process {statistics.median(p_cpu) * ns:,.0f} ns, "
            f"of which the caller's thread {statistics.median(p_own) * ns:,.0f} ns"
        )


if __name__ == "__main__":
    main()
