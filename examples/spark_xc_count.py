#!/usr/bin/env python3
"""Count the solutions of an exact-cover problem on Apache Spark.

    python examples/spark_xc_count.py --master local[2] --depth 3 testdata/xc/pent6x10.dlx
    spark-submit examples/spark_xc_count.py --depth 4 problem.dlx       # on a cluster

The driver reads the problem (Knuth's DLX format, as `dlx` takes it) and
splits its search tree at --depth levels into subproblems: each is a token
of forced options ("0,10"), and their counts add up to the problem's
(`dlx --split DEPTH FILE` prints the same tokens). Spark counts the tokens
in tasks (the problem text goes to the executors once, as a broadcast; each
partition builds the problem once and counts its tokens one after another)
and the driver sums. A failed task is simply counted again.

Printed: the total, the number of subproblems and the balance, that is the
largest subproblem's share of the search nodes (a share well below
1/partitions lets the partitions finish together). With --counts FILE, every
token and its count are written there too (one "token count nodes" line each).
"""

import argparse
import os
import sys
import time

from pyspark.sql import SparkSession


def count_partition(text_broadcast):
    def count(tokens):
        import sudoku_toolkit as st  # imported on the executor

        problem = st.xc.Problem.from_knuth(text_broadcast.value)
        for token in tokens:
            c = problem.count(subproblem=token)
            if not c.complete:
                raise RuntimeError(f"subproblem {token}: the count stopped early ({c.stop})")
            yield token, int(c), c.stats.nodes

    return count


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("problem", help="the problem in Knuth's DLX format (a local file, read by the driver)")
    ap.add_argument("--master", help="Spark master, e.g. local[2] (default: spark-submit's)")
    ap.add_argument("--depth", type=int, default=3, help="split depth (levels of the search tree; default 3)")
    ap.add_argument("--partitions", type=int, help="partitions (default: Spark's default parallelism x 16)")
    ap.add_argument(
        "--java-options",
        metavar="OPTS",
        help="the driver JVM's options (default with a local master: '-XX:TieredStopAtLevel=1'; '' for none)",
    )
    ap.add_argument("--counts", metavar="FILE", help="also write every token with its count and nodes")
    args = ap.parse_args(argv)

    import sudoku_toolkit as st

    with open(args.problem, encoding="utf-8") as f:
        text = f.read()
    start = time.monotonic()
    tokens = st.xc.Problem.from_knuth(text).split(args.depth)

    if args.master and args.master.startswith("local"):
        # local mode: the workers run this Python (with the package)
        os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    builder = SparkSession.builder.appName("exact-cover count")
    if args.master:
        builder = builder.master(args.master)
    if args.master and args.master.startswith("local") and args.java_options is None:
        # every task runs in the driver's JVM: see spark_rate.py's QUICK_JIT
        args.java_options = "-XX:TieredStopAtLevel=1"
    if args.java_options:
        builder = builder.config("spark.driver.extraJavaOptions", args.java_options)
    spark = builder.config("spark.ui.showConsoleProgress", "false").getOrCreate()
    sc = spark.sparkContext
    sc.setLogLevel("WARN")
    # 16 partitions a core: small enough that the last ones even out the
    # cores (with 4 a core, pent6x10 at depth 3 balanced to 1.76x-1.89x)
    partitions = args.partitions or max(1, min(len(tokens), 16 * sc.defaultParallelism))
    text_broadcast = sc.broadcast(text)
    # tokens dealt round-robin to the partitions: neighbouring tokens share
    # their first choices and often their size, so contiguous slices are
    # less even (crates/python/bench/split_balance.py, BENCHMARKS.md)
    dealt = [t for k in range(partitions) for t in tokens[k::partitions]]
    results = sc.parallelize(dealt, partitions).mapPartitions(count_partition(text_broadcast)).collect()
    spark.stop()

    total = sum(n for _, n, _ in results)
    nodes = sum(k for _, _, k in results) or 1
    largest = max((k for _, _, k in results), default=0)
    print(f"{total}")
    print(
        f"{len(tokens)} subproblems at depth {args.depth} in {partitions} partitions; "
        f"largest subproblem {largest / nodes:.1%} of {nodes} nodes; {time.monotonic() - start:.2f} s",
        file=sys.stderr,
    )
    if args.counts:
        with open(args.counts, "w", encoding="utf-8") as out:
            for token, n, k in results:
                out.write(f"{token} {n} {k}\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
