"""The Spark examples in PySpark's local mode (local[2]): ratings equal the
command line's, and split counts equal the known totals.

Needs PySpark (pip) and a Java runtime; .ci/run installs both. Skipped
without them, or with SPARK_TESTS=0.
"""

import csv
import glob
import importlib.util
import json
import os
import shutil

import pytest

from conftest import ROOT, TESTDATA, run

if os.environ.get("SPARK_TESTS") == "0":
    pytest.skip("SPARK_TESTS=0", allow_module_level=True)
pytest.importorskip("pyspark")
if shutil.which("java") is None and not os.environ.get("JAVA_HOME"):
    pytest.skip("no Java runtime for PySpark", allow_module_level=True)


def example(name):
    spec = importlib.util.spec_from_file_location(name, ROOT / "examples" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def rows_of(out_dir):
    rows = []
    for f in sorted(glob.glob(os.path.join(out_dir, "part-*.csv"))):
        with open(f, newline="") as fh:
            rows.extend(csv.DictReader(fh))
    return sorted(rows, key=lambda r: int(r["line"]))


def cli_ratings(sudoku_bin, path):
    out = run([sudoku_bin, "rate", "--format", "json", str(path)])
    return [json.loads(line) for line in out.splitlines()]


def check_against_cli(rows, cli):
    assert len(rows) == len(cli) == 100
    for k, (row, c) in enumerate(zip(rows, cli)):
        assert int(row["line"]) == k + 1
        assert row["status"] == c["status"] == "rated"
        assert float(row["rating"]) == c["rating"]
        assert (row["band"], row["hardest"]) == (c["band"], c["hardest"])
        assert row["techniques"] == ",".join(f"{t}:{n}" for t, n in sorted(c["counts"].items()))


@pytest.mark.parametrize("engine", ["rdd", "arrow"])
def test_spark_rate_with_the_package_equals_the_cli(engine, sudoku_bin, tmp_path):
    if engine == "arrow":
        pytest.importorskip("pyarrow")
        pytest.importorskip("pandas")
        from pyspark.sql import DataFrame

        if not hasattr(DataFrame, "zipWithIndex"):
            pytest.skip("DataFrame.zipWithIndex needs PySpark 4.2")
    path = TESTDATA / "rate" / "17_clue.txt"  # 100 puzzles of the 17-clue set
    out = tmp_path / "out"
    args = ["--master", "local[2]", "--no-jvm-cache", "--partitions", "3", "--engine", engine, str(path), str(out)]
    assert example("spark_rate").main(args) == 0
    if engine == "arrow":
        assert len(glob.glob(os.path.join(out, "part-*.csv"))) >= 2
    check_against_cli(rows_of(out), cli_ratings(sudoku_bin, path))


def test_spark_rate_through_rdd_pipe_equals_the_cli(sudoku_bin, tmp_path):
    path = TESTDATA / "rate" / "17_clue.txt"
    out = tmp_path / "out"
    args = ["--master", "local[2]", "--no-jvm-cache", "--pipe", sudoku_bin, str(path), str(out)]
    assert example("spark_rate").main(args) == 0
    check_against_cli(rows_of(out), cli_ratings(sudoku_bin, path))


def test_spark_rate_with_a_jvm_cache(sudoku_bin, tmp_path):
    """--jvm-cache: the first run writes the driver JVM's class-data
    archive, the next starts from it; both write the CLI's ratings. Run as
    a user runs it (a process of its own: the options apply to the JVM a
    run launches)."""
    import subprocess
    import sys

    path = TESTDATA / "rate" / "17_clue.txt"
    cache = tmp_path / "cache"
    cli = cli_ratings(sudoku_bin, path)
    for k in range(2):
        out = tmp_path / f"out{k}"
        # on by default in local mode
        args = ["--master", "local[2]", "--jvm-cache-dir", str(cache), str(path), str(out)]
        done = subprocess.run(
            [sys.executable, str(ROOT / "examples" / "spark_rate.py"), *args],
            capture_output=True,
            text=True,
            timeout=600,
        )
        assert done.returncode == 0, done.stderr
        # the first run says it writes the archive; the next does not
        assert ("class-data archive" in done.stderr) == (k == 0), done.stderr
        archives = glob.glob(os.path.join(cache, "spark-*.jsa"))
        assert len(archives) == 1 and os.path.getsize(archives[0]) > 0
        assert not glob.glob(os.path.join(cache, "*.tmp"))
        check_against_cli(rows_of(out), cli)


def test_spark_solve_writes_parquet(tmp_path):
    from pyspark.sql import SparkSession

    path = TESTDATA / "rate" / "17_clue.txt"
    out = tmp_path / "out"
    args = ["--master", "local[2]", "--no-jvm-cache", "--task", "solve", "--format", "parquet", str(path), str(out)]
    assert example("spark_rate").main(args) == 0
    spark = SparkSession.builder.master("local[1]").getOrCreate()
    try:
        rows = sorted(spark.read.parquet(str(out)).collect(), key=lambda r: r.line)
    finally:
        spark.stop()
    want = [line.split() for line in path.read_text().splitlines() if line and not line.startswith("#")]
    assert [(r.puzzle, r.status, r.solution) for r in rows] == [(p, "unique", s) for p, s in want]


def test_spark_solve_csv_text_quotes_errors_and_takes_pencilmarks(tmp_path):
    """The CSV text path (the default for CSV): line numbers over the whole
    input (comments and blank lines skipped but counted), bad records as
    rows with status "error" and their message quoted, a pencilmark line
    solved over its candidates."""
    p, s = next(line.split()[:2] for line in (TESTDATA / "rate" / "17_clue.txt").read_text().splitlines() if line and not line.startswith("#"))
    marks = "".join("123456789" if c == "." else "." * (int(c) - 1) + c + "." * (9 - int(c)) for c in p)
    path = tmp_path / "in.txt"
    path.write_text(f"# a comment\n{p}\n\n12,3\n{marks}\n{p} with a comment, and a comma\n")
    out = tmp_path / "out"
    args = ["--master", "local[2]", "--no-jvm-cache", "--task", "solve", "--partitions", "2", str(path), str(out)]
    assert example("spark_rate").main(args) == 0
    assert len(glob.glob(os.path.join(out, "part-*.csv"))) == 2
    rows = [(r["line"], r["puzzle"], r["status"], r["solution"]) for r in rows_of(out)]
    assert rows == [("2", p, "unique", s), ("4", "12,3", "error", ""), ("5", p, "unique", s), ("6", p, "unique", s)]
    assert "," in rows_of(out)[1]["error"]


@pytest.mark.parametrize(
    "name, depth, total",
    [("pent6x10.dlx", 3, 9356), ("pent6x10-sym.dlx", 3, 2339), ("queens14", 4, 365596)],
)
def test_spark_split_count(name, depth, total, tmp_path, capsys):
    if name == "queens14":
        n = 14
        lines = [" ".join(f"r{k} c{k}" for k in range(n)) + " | " + " ".join(f"a{d} b{d}" for d in range(2 * n - 1))]
        lines += [f"r{r} c{c} a{r + c} b{r + n - 1 - c}" for r in range(n) for c in range(n)]
        path = tmp_path / "queens14.dlx"
        path.write_text("\n".join(lines) + "\n")
    else:
        path = TESTDATA / "xc" / name
    counts = tmp_path / "counts.txt"
    args = ["--master", "local[2]", "--depth", str(depth), "--counts", str(counts), str(path)]
    assert example("spark_xc_count").main(args) == 0
    assert capsys.readouterr().out.split()[0] == str(total)
    parts = [line.split() for line in counts.read_text().splitlines()]
    assert len(parts) > 16 and sum(int(n) for _, n, _ in parts) == total


def test_local_daemon_imports_the_installed_pyspark_only_when_it_is_the_zips_own(tmp_path, monkeypatch):
    """spark_local_daemon moves Spark's zips behind the installed pyspark
    when the zip is that installation's (pip's PySpark), and leaves the
    path alone for a zip of another Spark."""
    import sys

    import pyspark

    daemon = example("spark_local_daemon")
    home = os.path.dirname(os.path.abspath(pyspark.__file__))
    own = os.path.join(home, "python", "lib", "pyspark.zip")
    other = str(tmp_path / "spark" / "python" / "lib" / "pyspark.zip")
    for zip_path, moved in [(own, True), (other, False)]:
        path = [zip_path, os.path.join(os.path.dirname(zip_path), "py4j-0-src.zip")] + [
            p for p in sys.path if not daemon.spark_zip(p)
        ]
        monkeypatch.setattr(sys, "path", list(path))
        assert daemon.installed_first() == moved
        assert (sys.path[-2:] == path[:2]) == moved and (sys.path == path) != moved
