"""Shared fixtures: the repository's test data and the command-line tools
the package's answers are compared with.

The binaries are found through SUDOKU_BIN and DLX_BIN (what .ci/run sets),
else in the cargo target directory (CARGO_TARGET_DIR or target/, release or
debug build). Tests that compare with the command line are skipped, with the
reason, when neither is there.
"""

import os
import pathlib
import shutil
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[3]
TESTDATA = ROOT / "testdata"


def _binary(name):
    env = os.environ.get(name.upper() + "_BIN")
    if env:
        if not pathlib.Path(env).is_file():
            raise RuntimeError(f"{name.upper()}_BIN={env} is not a file")
        return env
    target = pathlib.Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target"))
    for profile in ("release", "debug"):
        path = target / profile / name
        if path.is_file():
            return str(path)
    return shutil.which(name)


@pytest.fixture(scope="session")
def sudoku_bin():
    path = _binary("sudoku")
    if path is None:
        pytest.skip("no sudoku binary: build it (cargo build) or set SUDOKU_BIN")
    return path


@pytest.fixture(scope="session")
def dlx_bin():
    path = _binary("dlx")
    if path is None:
        pytest.skip("no dlx binary: build it (cargo build) or set DLX_BIN")
    return path


def run(args, stdin=None, check=True):
    """Run a command, return its standard output as text."""
    done = subprocess.run(
        args, input=stdin, capture_output=True, text=True, timeout=600
    )
    if check and done.returncode not in (0, 1):
        raise AssertionError(f"{args} exited {done.returncode}: {done.stderr}")
    return done.stdout


@pytest.fixture(scope="session")
def clue17():
    """The 17-clue slice of testdata/rate: (puzzle, solution) pairs."""
    pairs = []
    for line in (TESTDATA / "rate" / "17_clue.txt").read_text().splitlines():
        if line and not line.startswith("#"):
            puzzle, solution = line.split()[:2]
            pairs.append((puzzle, solution))
    assert len(pairs) >= 100
    return pairs
