#!/usr/bin/env python3
"""Rate (or solve) puzzle files on Apache Spark.

    spark-submit examples/spark_rate.py INPUT OUTPUT            # on a cluster
    python examples/spark_rate.py --master local[2] INPUT OUTPUT   # PySpark from pip

INPUT is anything Spark's textFile reads: a local path, a directory, a glob,
or a Hadoop-readable URL (hdfs://, s3a://, ...), one puzzle per line (text
after the puzzle is a comment; blank lines and lines starting with '#' are
skipped). OUTPUT is a directory: one row per input puzzle, as CSV (with a
header) or Parquet (--format parquet):

    line      the input line number (from 1, over the whole input, in order)
    puzzle    the puzzle as read
    status    rate: rated | multiple | none | error; solve: unique | multiple | none | unknown | error
    rating, band, hardest, techniques ("full-house:19,x-wing:1,...", by name)   (rate)
    solution                                                            (solve)
    error     why a puzzle was not rated or solved

Two ways to run the work on the executors:

- the Python package (default): every partition streams its lines through
  one `sudoku_toolkit.rate_batch` (one solver per partition, reused for
  every puzzle; memory bounded whatever the partition's size). The
  executors need the package: `pip install ./crates/python` on each node,
  or ship the wheel (`--py-files` does not work for compiled modules; use
  a Python environment archive, see Spark's "Python Package Management").
  The default engine (rdd) reads with `textFile` and numbers the lines
  from each partition's line count (counted on the JVM: no pass of the
  input through Python). For CSV the workers write the rows as CSV text
  themselves (`Rating.as_csv`, a block of lines per record, passed to the
  JVM's `saveAsTextFile` as bytes): no row objects, no pickling, no
  DataFrame and no SparkSession; the part files are named part-NNNNN.csv,
  each with the header, as Spark's CSV writer names them (fields quoted
  as RFC 4180: a quote inside is doubled). For Parquet the rows go back
  as tuples to a DataFrame. --engine arrow (PySpark
  4.2 or later, pyarrow and pandas) reads and numbers the lines in the JVM
  (`spark.read.text`, `DataFrame.zipWithIndex`: no Python pass over the
  input) and moves them to Python and back as Arrow record batches
  (`mapInArrow`: no per-row pickling); on 4 x the 17-clue set it took the
  same CPU as the default (BENCHMARKS.md), because the rating and Spark's
  start dominate. With arrow, lines are numbered in the order Spark reads
  them: the file's order for one file (several files are read whole, in
  the order Spark lists and packs them).
- --pipe SUDOKU: each partition is piped through the `sudoku` binary
  (`RDD.pipe` of `sudoku rate --format json --threads 1`), for clusters where
  Python packages cannot be installed: only the binary has to be on every
  node (at the same path, or shipped with --files and named ./sudoku).

In local mode (--master local[...]) the driver JVM runs with the first JIT
tier only (--java-options), without the web UI, and ends with the run;
the Python workers' daemon imports the installed pyspark rather than
Spark's zip of it (spark_local_daemon.py, next to this file: from the zip
Python compiles pyspark from source on every start), the modules PySpark's
py4j converters import are imported while the JVM starts, and the stop
does not wait for the accumulator server's half-second poll;
and the driver JVM starts from a class-data archive (AppCDS, JDK 13 or
later; 75 to 150 MB: the classes the run that wrote it loaded; one per
Spark installation, in --jvm-cache-dir, default ~/.cache/sudoku-toolkit;
--no-jvm-cache for none): the first run writes it as its JVM exits (a
slower run, said on stderr), later runs start from it (on 4 x the 17-clue
set and two cores, 1.8x the command line's wall time instead of 2.4x;
BENCHMARKS.md). Delete the file to make it again (after a JDK upgrade,
say).

Spark runs one task per core, so each task solves on one thread
(threads=1); parallelism comes from the partitions (--partitions, default
Spark's). A failed task is simply run again: the work of a partition
depends only on its lines.
"""

import argparse
import itertools
import json
import shlex
import os
import sys
import time

from pyspark.sql import SparkSession
from pyspark.sql.types import DoubleType, LongType, StringType, StructField, StructType

RATE_SCHEMA = StructType(
    [
        StructField("line", LongType(), False),
        StructField("puzzle", StringType(), False),
        StructField("status", StringType(), False),
        StructField("rating", DoubleType(), True),
        StructField("band", StringType(), True),
        StructField("hardest", StringType(), True),
        StructField("techniques", StringType(), True),
        StructField("error", StringType(), True),
    ]
)

SOLVE_SCHEMA = StructType(
    [
        StructField("line", LongType(), False),
        StructField("puzzle", StringType(), False),
        StructField("status", StringType(), False),
        StructField("solution", StringType(), True),
        StructField("error", StringType(), True),
    ]
)


def is_puzzle(numbered):
    text = numbered[0].strip()
    return bool(text) and not text.startswith("#")


def techniques_text(counts):
    return ",".join(f"{name}:{n}" for name, n in sorted(counts.items())) or None


def _numbered(numbered_lines, numbers):
    """The puzzle texts of (text, index) pairs; their line numbers queue up
    in `numbers` (results come back in the same order, so each result takes
    the oldest one: memory stays bounded)."""
    for text, index in numbered_lines:
        numbers.append(index + 1)
        yield text


def number_lines(lines):
    """The lines as (text, index) pairs, index from 0 over the whole input
    in order: what `lines.zipWithIndex()` gives, without its pass in
    Python. The lines of each partition are counted on the JVM (Scala's
    `RDD.zipWithIndex` counts them when it is made, a job that reads the
    input in the JVM alone: no Python worker, no line sent to Python); each
    partition then numbers its own lines from its first line's index.
    Falls back to PySpark's `zipWithIndex` (a counting pass through the
    Python workers) if the JVM's RDD cannot be reached (not a
    `textFile` RDD, another Spark version)."""
    try:
        zipped = lines._jrdd.rdd().zipWithIndex()
        starts = [p.startIndex() for p in zipped.partitions()]
    except Exception:  # py4j errors, private API changed
        starts = None
    if starts is None or len(starts) != lines.getNumPartitions():
        return lines.zipWithIndex()

    def number(index, texts):
        return zip(texts, itertools.count(starts[index]))

    return lines.mapPartitionsWithIndex(number, preservesPartitioning=True)


def rate_partition(numbered_lines):
    """One partition through one rate_batch: one rater, reused. Rows are
    plain tuples in RATE_SCHEMA's column order (cheaper to make and to
    send than `Row` objects)."""
    import collections

    import sudoku_toolkit as st  # imported on the executor

    numbers = collections.deque()
    for r in st.rate_batch(_numbered(numbered_lines, numbers), threads=1, errors="record"):
        # as_row: (puzzle, status, rating, band, hardest, techniques, error)
        # in one call, the techniques' text made in Rust
        yield (numbers.popleft(),) + r.as_row()


def solve_partition(numbered_lines):
    """One partition through one solve_batch: one solver, reused."""
    import collections

    import sudoku_toolkit as st

    numbers = collections.deque()
    for r in st.solve_batch(_numbered(numbered_lines, numbers), threads=1, errors="record"):
        yield (numbers.popleft(), r.puzzle, r.status, r.solution, r.error)


def csv_field(value):
    """One CSV field as Spark's CSV writer would read it back: empty for
    None, quoted (a quote doubled, as RFC 4180) when it holds a comma, a
    quote or a line end."""
    if value is None:
        return ""
    text = value if isinstance(value, str) else str(value)
    if "," in text or '"' in text or "\n" in text or "\r" in text:
        return '"' + text.replace('"', '""') + '"'
    return text


# CSV lines sent to the JVM at a time (one record of the text file: the JVM
# writes it as it comes, so a block costs it one string, not 1,024 rows)
CSV_BLOCK = 1024


def csv_partition(task, starts):
    """The CSV text path: one partition's lines (bytes, as `textFile(...,
    use_unicode=False)` gives them) numbered from `starts[index]`, through
    one rate_batch or solve_batch, out as CSV text with a header, in
    blocks of lines. No row object is made or pickled, and the JVM only
    writes the text (`saveAsTextFile`, the Python side's bytes passed
    through as they are)."""
    header = ",".join(f.name for f in (RATE_SCHEMA if task == "rate" else SOLVE_SCHEMA).fields)

    def run(index, lines):
        import collections

        import sudoku_toolkit as st  # imported on the executor

        numbers = collections.deque()

        def puzzles():
            n = starts[index]
            for text in lines:
                n += 1
                stripped = text.strip()
                if stripped and not stripped.startswith(b"#"):
                    numbers.append(n)
                    yield text

        field = csv_field
        if task == "rate":
            # as_csv: the row's CSV text made in Rust, one call a row
            lines_out = (
                f"{numbers.popleft()},{r.as_csv()}" for r in st.rate_batch(puzzles(), threads=1, errors="record")
            )
        else:
            lines_out = (
                f"{numbers.popleft()},{field(r.puzzle)},{r.status},{field(r.solution)},{field(r.error)}"
                for r in st.solve_batch(puzzles(), threads=1, errors="record")
            )
        yield header.encode()
        while True:
            block = list(itertools.islice(lines_out, CSV_BLOCK))
            if not block:
                return
            yield "\n".join(block).encode()

    return run


def line_starts(lines):
    """The index (from 0, over the whole input) of each partition's first
    line, or None. The lines of each partition are counted on the JVM
    (Scala's `RDD.zipWithIndex` counts them when it is made, a job that
    reads the input in the JVM alone: no Python worker, no line sent to
    Python). None if the JVM's RDD cannot be reached (not a `textFile`
    RDD, another Spark version)."""
    try:
        zipped = lines._jrdd.rdd().zipWithIndex()
        starts = [p.startIndex() for p in zipped.partitions()]
    except Exception:  # py4j errors, private API changed
        return None
    return starts if len(starts) == lines.getNumPartitions() else None


def save_csv_text(sc, text, output):
    """Write an RDD of CSV text blocks (bytes) to the directory `output`
    (replaced if it exists) as Spark's CSV writer would: part files named
    part-NNNNN.csv, each with its header, and _SUCCESS. Through Hadoop's
    FileSystem, so any URL Spark writes to works."""
    jvm = sc._jvm
    path = jvm.org.apache.hadoop.fs.Path(output)
    fs = path.getFileSystem(sc._jsc.hadoopConfiguration())
    if fs.exists(path):
        fs.delete(path, True)
    text._bypass_serializer = True  # the bytes go to the JVM as they are
    text._jrdd.map(jvm.BytesToString()).saveAsTextFile(output)
    for status in fs.listStatus(path):
        name = status.getPath().getName()
        if name.startswith("part-") and not name.endswith(".csv"):
            fs.rename(status.getPath(), jvm.org.apache.hadoop.fs.Path(path, name + ".csv"))


# In local mode every task runs in the driver's JVM, and for a job of
# seconds its optimising JIT compiler (C2) costs more CPU than it saves: with
# the first tier only, the whole 4 x 17-clue job took a third less CPU.
QUICK_JIT = "-XX:TieredStopAtLevel=1"


def jvm_cache_file(directory):
    """The driver JVM's class-data archive in `directory`: one per Spark
    installation (the archive holds the classes of its jars, and the JVM
    takes it only with the same class path)."""
    import hashlib

    import pyspark

    where = hashlib.sha1(os.path.dirname(os.path.abspath(pyspark.__file__)).encode()).hexdigest()[:12]
    return os.path.join(os.path.expanduser(directory), f"spark-{pyspark.__version__}-{where}.jsa")


def jvm_cache_options(path):
    """JVM options that start from the archive at `path` (AppCDS, JDK 13 or
    later: the classes Spark loads, already parsed and verified) or, when
    there is none yet, write it as the JVM exits (to a temporary name,
    renamed by `end_jvm`). Returns (options, temporary name or
    None)."""
    if os.path.isfile(path):
        return f"-XX:SharedArchiveFile={path}", None
    os.makedirs(os.path.dirname(path), exist_ok=True)
    temporary = f"{path}.{os.getpid()}.tmp"
    # the classes it cannot archive (signed jars, generated accessors) are
    # hundreds of warnings, not errors
    return f"-XX:ArchiveClassesAtExit={temporary} -Xlog:cds*=off", temporary


def end_jvm(temporary):
    """Let the driver's JVM, launched by this run, exit now (it exits when
    its standard input closes), so that its exit (and the archive it
    writes) is part of the run, then put a newly written archive in place.
    The next SparkSession of this process launches a new JVM."""
    from pyspark import SparkContext

    gateway = SparkContext._gateway
    proc = getattr(gateway, "proc", None)
    try:
        gateway.shutdown()  # py4j's side of the connection
    except Exception:
        pass
    SparkContext._gateway = None
    SparkContext._jvm = None
    if proc is not None and proc.stdin is not None:
        proc.stdin.close()
        try:
            proc.wait(timeout=300)
        except Exception:  # still running: it exits with this process
            pass
    if temporary and os.path.isfile(temporary):
        os.replace(temporary, temporary.rsplit(".", 2)[0])


def local_python_workers(options):
    """Local mode: start the Python workers' daemon from the installed
    pyspark (`spark_local_daemon.py`, next to this file: Spark would
    import pyspark from its zip, compiled from source every run), and
    import, while the JVM starts, what PySpark's py4j converters import on
    the first call to it (`pyspark.testing.utils`, which imports pandas and
    pyarrow when they are installed: a third of a second the driver would
    otherwise spend after the JVM is up)."""
    import importlib
    import threading

    here = os.path.dirname(os.path.abspath(__file__))
    if os.path.isfile(os.path.join(here, "spark_local_daemon.py")):
        # the JVM, launched by this process, passes its PYTHONPATH on to
        # the workers (after Spark's zips)
        path = os.environ.get("PYTHONPATH")
        if here not in (path or "").split(os.pathsep):
            os.environ["PYTHONPATH"] = here + (os.pathsep + path if path else "")
        options["spark.python.daemon.module"] = "spark_local_daemon"
    threading.Thread(target=importlib.import_module, args=("pyspark.testing.utils",), daemon=True).start()


def stop_quickly(session):
    """Stop a SparkSession or SparkContext without waiting for PySpark's
    accumulator server to notice: its `shutdown` waits for the server's
    next poll (every half second), so it runs on a thread of its own. The
    server is told first that it is shutting down, and the JVM's end of
    its connection closing later is not reported as an error."""
    import threading

    sc = getattr(session, "sparkContext", session)
    server = getattr(sc, "_accumulatorServer", None)
    if server is not None:
        sc._accumulatorServer = None
        server.server_shutdown = True
        server.handle_error = lambda request, address: None
    session.stop()
    if server is not None:
        threading.Thread(target=server.shutdown, daemon=True).start()


DEFAULT_JVM_CACHE = "~/.cache/sudoku-toolkit"

ARROW_BATCH = 4096  # rows per Arrow record batch sent back to Spark


def arrow_partition(task):
    """One partition's Arrow batches (columns `value`, the line, and `n`,
    its number from 0) through one rate_batch or solve_batch; results go
    back as Arrow batches of the output schema. Per row, Python only
    filters the line, queues its number and unpacks one tuple (`as_row`)."""

    def run(batches):
        import collections

        import pyarrow as pa

        import sudoku_toolkit as st  # imported on the executor

        schema = RATE_SCHEMA if task == "rate" else SOLVE_SCHEMA
        types = {"long": pa.int64(), "string": pa.string(), "double": pa.float64()}
        arrow_schema = pa.schema([(f.name, types[f.dataType.typeName()], f.nullable) for f in schema.fields])
        numbers = collections.deque()

        def texts():
            for batch in batches:
                for text, n in zip(batch.column(0).to_pylist(), batch.column(1).to_pylist()):
                    if text and text.strip() and not text.lstrip().startswith("#"):
                        numbers.append(n + 1)
                        yield text

        if task == "rate":
            results = st.rate_batch(texts(), threads=1, errors="record")
            rows = ((numbers.popleft(),) + r.as_row() for r in results)
        else:
            results = st.solve_batch(texts(), threads=1, errors="record")
            rows = ((numbers.popleft(), r.puzzle, r.status, r.solution, r.error) for r in results)
        while True:
            block = list(itertools.islice(rows, ARROW_BATCH))
            if not block:
                return
            columns = [list(c) for c in zip(*block)]
            yield pa.RecordBatch.from_arrays(
                [pa.array(c, type=f.type) for c, f in zip(columns, arrow_schema)], schema=arrow_schema
            )

    return run


def arrow_available(spark):
    """Whether the Arrow path can run: DataFrame.zipWithIndex (PySpark 4.2)
    and pyarrow and pandas (mapInArrow needs both) on the driver (and, the
    same, on the executors)."""
    if not hasattr(type(spark.range(0)), "zipWithIndex"):
        return False
    try:
        import pandas  # noqa: F401
        import pyarrow  # noqa: F401
    except ImportError:
        return False
    return True


def first_token(numbered):
    """The puzzle alone (what follows it is a comment): one record per line."""
    words = numbered[0].split()
    return words[0] if words else ""


def piped_rows(task):
    """Parse the JSON lines `sudoku rate|solve --format json` writes."""

    def parse(pair):
        (text, number), out = pair
        text = text.strip()
        obj = json.loads(out)
        if task == "rate":
            counts = obj.get("counts") or {}
            return (
                number + 1,
                obj.get("puzzle", text.split()[0] if text.split() else text),
                obj["status"],
                obj.get("rating"),
                obj.get("band"),
                obj.get("hardest"),
                techniques_text(counts),
                obj.get("error"),
            )
        return (
            number + 1,
            obj.get("puzzle", text.split()[0] if text.split() else text),
            obj["status"],
            obj.get("solution"),
            obj.get("error"),
        )

    return parse


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("input", help="puzzle file(s): a path, directory, glob or Hadoop URL")
    ap.add_argument("output", help="output directory (replaced if it exists)")
    ap.add_argument("--master", help="Spark master, e.g. local[2] (default: spark-submit's)")
    ap.add_argument("--task", choices=["rate", "solve"], default="rate")
    ap.add_argument("--format", choices=["csv", "parquet"], default="csv")
    ap.add_argument("--partitions", type=int, help="input partitions (default: Spark's)")
    ap.add_argument("--pipe", metavar="SUDOKU", help="pipe partitions through this sudoku binary instead of the Python package")
    ap.add_argument(
        "--engine",
        choices=["rdd", "arrow"],
        default="rdd",
        help="with the package: rdd (textFile, mapPartitions; the default) or arrow (DataFrame text source, mapInArrow; PySpark 4.2+, pyarrow, pandas)",
    )
    ap.add_argument(
        "--java-options",
        metavar="OPTS",
        help=f"the driver JVM's options (default with a local master: '{QUICK_JIT}'; '' for none)",
    )
    ap.add_argument(
        "--jvm-cache",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="local mode (on by default there): start the driver JVM from a class-data archive (written by the "
        "first run, 75 to 150 MB; that run is slower), which makes the next starts cheaper; --no-jvm-cache: never "
        "read or write one",
    )
    ap.add_argument(
        "--jvm-cache-dir",
        metavar="DIR",
        default=DEFAULT_JVM_CACHE,
        help=f"where --jvm-cache keeps the archive (default {DEFAULT_JVM_CACHE})",
    )
    ap.add_argument("--timings", action="store_true", help="print where the time went (seconds per phase) to stderr")
    args = ap.parse_args(argv)
    clock = [("start", time.monotonic())]

    def phase(name):
        clock.append((name, time.monotonic()))

    if args.master and args.master.startswith("local"):
        # local mode: the workers run this Python (with the package)
        os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    local = bool(args.master and args.master.startswith("local"))
    options = {"spark.app.name": f"sudoku {args.task}", "spark.ui.showConsoleProgress": "false"}
    if args.master:
        options["spark.master"] = args.master
    java_options = args.java_options if args.java_options is not None else (QUICK_JIT if local else "")
    archive = None
    if local and args.jvm_cache is not False:
        cds, archive = jvm_cache_options(jvm_cache_file(args.jvm_cache_dir))
        if archive is not None:
            print(
                f"spark_rate: writing the driver JVM's class-data archive ({archive.rsplit('.', 2)[0]}): this "
                "first run is slower, later ones start faster (--no-jvm-cache: none)",
                file=sys.stderr,
            )
        java_options = f"{java_options} {cds}".strip()
    if java_options:
        options["spark.driver.extraJavaOptions"] = java_options
    if local:
        # nobody looks at the web UI of a local batch job; not starting it
        # saves part of the session's start
        options["spark.ui.enabled"] = "false"
        local_python_workers(options)
    from pyspark import SparkConf, SparkContext

    # the options above apply only to a JVM launched now (not to one an
    # earlier session of this process left running)
    launched = SparkContext._gateway is None
    schema = RATE_SCHEMA if args.task == "rate" else SOLVE_SCHEMA
    engine = "rdd" if args.pipe else args.engine
    # the package's rows written as CSV text: no DataFrame, so no
    # SparkSession (Spark SQL's session is not made)
    text_path = engine == "rdd" and not args.pipe and args.format == "csv"
    if text_path:
        sc = SparkContext.getOrCreate(SparkConf().setAll(list(options.items())))
        spark = None
    else:
        builder = SparkSession.builder
        for key, value in options.items():
            builder = builder.config(key, value)
        spark = builder.getOrCreate()
        sc = spark.sparkContext
    sc.setLogLevel("WARN")
    phase("session")
    if engine == "arrow" and not arrow_available(spark):
        spark.stop()
        ap.error("--engine arrow needs PySpark 4.2 or later, pyarrow and pandas")
    if text_path:
        lines = sc.textFile(args.input, minPartitions=args.partitions, use_unicode=False) if args.partitions else sc.textFile(args.input, use_unicode=False)
        starts = line_starts(lines)
        if starts is None:
            # count each partition's lines through Python instead
            counts = lines.mapPartitions(lambda it: [sum(1 for _ in it)]).collect()
            starts = list(itertools.accumulate([0] + counts[:-1]))
        phase("numbering")
        save_csv_text(sc, lines.mapPartitionsWithIndex(csv_partition(args.task, starts)), args.output)
        df = None
    elif engine == "arrow":
        if args.partitions:
            # splits of about 1/partitions of the input (the open cost
            # would otherwise keep a small file in one split)
            spark.conf.set("spark.sql.files.minPartitionNum", args.partitions)
            spark.conf.set("spark.sql.files.openCostInBytes", 1)
        numbered = spark.read.text(args.input).zipWithIndex("n")
        phase("numbering")  # zipWithIndex counts every partition's lines first (on the JVM)
        df = numbered.mapInArrow(arrow_partition(args.task), schema)
    else:
        lines = sc.textFile(args.input, minPartitions=args.partitions) if args.partitions else sc.textFile(args.input)
        # numbered in input order across partitions (each partition's
        # lines counted first, on the JVM)
        puzzles = number_lines(lines).filter(is_puzzle)
        phase("numbering")
        if args.pipe:
            # RDD.pipe keeps partitions and their order, and `sudoku` writes one
            # answer per puzzle line: zip the answers back onto the lines
            command = shlex.join([args.pipe, args.task, "--format", "json", "--threads", "1", "--progress", "never"])
            puzzles = puzzles.cache()
            answers = puzzles.map(first_token).pipe(command)
            rows = puzzles.zip(answers).map(piped_rows(args.task))
        else:
            work = rate_partition if args.task == "rate" else solve_partition
            rows = puzzles.mapPartitions(work)
        # the rows are made to the schema above; checking each one again in
        # Python would cost about as much as making it
        df = spark.createDataFrame(rows, schema, verifySchema=False)
    if df is not None:
        writer = df.write.mode("overwrite")
        if args.format == "csv":
            writer.option("header", True).csv(args.output)
        else:
            writer.parquet(args.output)
    phase("job")
    stop_quickly(spark or sc)
    phase("stop")
    if local and launched:
        end_jvm(archive)
        phase("jvm exit")
    if args.timings:
        steps = ", ".join(f"{b[0]} {b[1] - a[1]:.2f}" for a, b in zip(clock, clock[1:]))
        print(f"timings (s): {steps}; total {clock[-1][1] - clock[0][1]:.2f}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    code = main()
    # the interpreter's collections at exit walk every object of pyspark
    # (and pandas and pyarrow, which its converters import): about a sixth
    # of a second after the job is done; frozen objects are left out
    import gc

    gc.freeze()
    sys.exit(code)
