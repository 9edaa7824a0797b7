"""One puzzle at a time: solve, count, rate, hint, explain, generate,
against known answers and the command line."""

import json

import pytest

import sudoku_toolkit as st
from conftest import TESTDATA, run

P = ".3..9..5.....1...45..8....7....3.2..6....9.4...7..25.......19....69....812.....7."
S = "734296851268517394591843627915734286682159743347682519853471962476925138129368475"
EMPTY = "." * 81


def test_solve_gives_the_solution_status_and_stats():
    r = st.solve(P)
    assert (r.status, r.solution, r.second_solution) == ("unique", S, None)
    assert r.complete and r.stop == "exhausted" and r.count == 1
    assert r.method == "fast"
    assert r.stats.nodes >= 1 and r.stats.solutions == 1
    assert r.puzzle == P
    assert r.index is None and r.error is None


def test_every_method_agrees():
    for method in ["naive", "cached", "mrv", "mrv-hidden", "dlx", "dlx-pruned", "fast", "wide"]:
        r = st.solve(P, method=method)
        assert (r.status, r.solution, r.method) == ("unique", S, method)


def test_statuses_multiple_none_unknown():
    r = st.solve(EMPTY)
    assert r.status == "multiple"
    assert r.solution and r.second_solution and r.solution != r.second_solution
    # a puzzle with no solution: every cell of row 1 but one, and its digit
    # elsewhere in the column
    none = "12345678." + "........9" + "." * 63
    assert st.solve(none).status == "none"
    assert st.solve(none).solution is None
    # a limit cuts the search short: "unknown", never "none"
    r = st.solve(EMPTY, method="naive", max_nodes=3)
    assert (r.status, r.stop, r.complete) == ("unknown", "node-limit", False)


def test_count_with_limits():
    assert st.count(P).count == 1 and st.count(P).status == "unique"
    r = st.count(EMPTY, limit=1000)
    assert (r.count, r.status, r.complete, r.stop) == (1000, "multiple", False, "solution-limit")
    assert r.solution is None
    assert st.count("." * 16, limit=1000).count == 288  # every 4x4 grid
    assert st.count("." * 16, limit=1000).complete


def test_sizes_and_grid_form():
    grid = "\n".join(P[i : i + 9] for i in range(0, 81, 9))
    assert st.solve(grid).solution == S
    sixteen = st.generate(1, seed=3, size=16)[0]
    r = st.solve(sixteen)
    assert (r.status, r.method) == ("unique", "wide")
    assert st.solve(sixteen, method="mrv-hidden").solution == r.solution
    # the solution's characters (written straight into the string): the
    # givens kept, every digit once per row
    assert all(g in ".0" or g == s for g, s in zip(sixteen, r.solution))
    assert all(sorted(r.solution[i : i + 16]) == sorted("123456789ABCDEFG") for i in range(0, 256, 16))
    assert r.puzzle.replace(".", "") == sixteen.replace(".", "").replace("0", "")
    with pytest.raises(ValueError, match="9x9 grids only"):
        st.solve(sixteen, method="fast")


def test_bad_puzzles_raise_parse_error_with_line_and_column():
    with pytest.raises(st.ParseError) as e:
        st.solve(P[:4] + "x" + P[5:])
    assert isinstance(e.value, ValueError)
    assert (e.value.line, e.value.column, e.value.index) == (1, 5, None)
    assert "'x' is not a digit or blank" in str(e.value)
    with pytest.raises(st.ParseError, match="twice"):
        st.solve("11" + "." * 79)
    with pytest.raises(st.ParseError) as e:
        st.solve(P[:40])
    assert e.value.line == 1
    grid = "\n".join(P[i : i + 9] for i in range(0, 81, 9)).replace("5", "?", 1)
    with pytest.raises(st.ParseError) as e:
        st.rate(grid)
    assert e.value.line == 1 and e.value.column == 8


def test_wrong_types_and_values_are_errors():
    for bad in [None, 123, b"bytes", ["list"]]:
        with pytest.raises(TypeError):
            st.solve(bad)
    with pytest.raises(ValueError, match="unknown method 'quick'"):
        st.solve(P, method="quick")
    with pytest.raises(ValueError, match="limit"):
        st.count(P, limit=0)
    with pytest.raises(ValueError, match="timeout"):
        st.solve(P, timeout=-1)
    with pytest.raises(OverflowError):
        st.count(P, limit=-5)
    with pytest.raises(ValueError, match="level"):
        st.hint(P, level=4)
    with pytest.raises(ValueError, match="unknown technique 'magic'"):
        st.rate(P, disable=["magic"])
    with pytest.raises(ValueError, match="symmetry"):
        st.generate(1, symmetry="spiral")
    with pytest.raises(ValueError, match="difficulty"):
        st.generate(1, difficulty="fiendish")
    with pytest.raises(ValueError, match="size"):
        st.generate(1, size=7)


def test_rate_hint_explain():
    r = st.rate(P)
    assert r.status == "rated" and r.outcome == "solved"
    assert r.rating == 3.2 and r.band == "hard" and r.hardest == "x-wing"
    assert r.techniques["x-wing"] == 1 and sum(r.techniques.values()) == r.steps
    assert r.line().startswith("3.2 hard x-wing ")
    assert st.rate(EMPTY).status == "multiple" and st.rate(EMPTY).rating is None
    assert st.rate(P, disable=["x-wing"]).hardest != "x-wing"
    h = st.hint(P, level=2)
    assert h.status == "hint" and h.technique and h.text
    assert h.step.placements or h.step.eliminations
    assert st.hint(S).status == "solved"
    e = st.explain(P)
    assert len(e.steps) == e.rating.steps and e.rating.rating == 3.2
    assert all(s.text for s in e.steps)
    cell, digit = e.steps[0].placements[0]
    assert cell.startswith("r") and "c" in cell and 1 <= digit <= 9


def test_generate_is_reproducible_and_meets_the_target():
    a = st.generate(4, seed=7, difficulty="hard", threads=2)
    assert a == st.generate(4, seed=7, difficulty="hard", threads=1)
    assert len(set(a)) == 4
    for p in a:
        assert st.solve(p).status == "unique"
        assert st.rate(p).band == "hard"
    # Fewer 16x16 puzzles than threads: each one's checks share them.
    big = st.generate(1, seed=9, size=16, threads=3)
    assert big == st.generate(1, seed=9, size=16, threads=1)
    assert len(big[0]) == 256 and st.solve(big[0]).status == "unique"
    sym = st.generate(2, seed=1, symmetry="rot180")
    for p in sym:
        assert all((p[i] == ".") == (p[80 - i] == ".") for i in range(81))


def test_answers_equal_the_command_line(sudoku_bin, clue17, tmp_path):
    puzzles = [p for p, _ in clue17]
    f = tmp_path / "slice.txt"
    f.write_text("\n".join(puzzles) + "\n")
    cli = run([sudoku_bin, "solve", str(f)]).split()
    ours = [r.solution for r in st.solve_batch(puzzles)]
    assert ours == cli == [s for _, s in clue17]
    assert [st.solve(p).solution for p in puzzles[:20]] == cli[:20]
    # count with a limit, on puzzles with several solutions
    multi = (TESTDATA / "bench" / "serg_multi_10.txt").read_text().split()
    multi = [m for m in multi if len(m) == 81]
    g = tmp_path / "multi.txt"
    g.write_text("\n".join(multi) + "\n")
    cli_counts = run([sudoku_bin, "count", "--limit", "5", str(g)]).splitlines()
    ours = [st.count(m, limit=5) for m in multi]
    as_cli = [
        f"{r.count} {r.status}" if r.complete else f"at least {r.count} {r.status} (solution limit reached)"
        for r in ours
    ]
    assert as_cli == cli_counts


def test_ratings_equal_the_command_line(sudoku_bin, clue17, tmp_path):
    puzzles = [p for p, _ in clue17[:40]]
    f = tmp_path / "slice.txt"
    f.write_text("\n".join(puzzles) + "\n")
    cli = [json.loads(l) for l in run([sudoku_bin, "rate", "--format", "json", str(f)]).splitlines()]
    ours = list(st.rate_batch(puzzles))
    assert len(cli) == len(ours) == 40
    for c, r in zip(cli, ours):
        assert (c["status"], c["rating"], c["band"], c["hardest"]) == (r.status, r.rating, r.band, r.hardest)
        assert c["counts"] == r.techniques
    text = run([sudoku_bin, "rate", str(f)]).splitlines()
    assert text == [r.line() for r in ours]


def test_hints_and_generated_puzzles_equal_the_command_line(sudoku_bin):
    for level in (1, 2, 3):
        assert run([sudoku_bin, "hint", P, "--level", str(level)]).strip() == st.hint(P, level=level).text
    cli = run([sudoku_bin, "generate", "-n", "3", "--seed", "11", "--difficulty", "medium"]).split()
    assert cli == st.generate(3, seed=11, difficulty="medium")


def marks_of(cells):
    """A 9x9 pencilmark line: each cell's candidates (a set of digits)."""
    return "".join("".join(str(d) if d in c else "." for d in range(1, 10)) for c in cells)


def given_marks(puzzle):
    return marks_of([set(range(1, 10)) if ch == "." else {int(ch)} for ch in puzzle])


def test_solve_and_count_take_pencilmark_lines():
    marks = given_marks(P)
    assert len(marks) == 729
    r = st.solve(marks)
    assert (r.status, r.solution, r.method, r.puzzle) == ("unique", S, "fast", P)
    assert st.count(marks).count == 1 and st.count(marks).complete
    # the candidates are searched exactly: the solution's digit taken out of
    # the first empty cell leaves no solution
    first = P.index(".")
    cells = [set(range(1, 10)) if ch == "." else {int(ch)} for ch in P]
    cells[first].discard(int(S[first]))
    assert st.solve(marks_of(cells)).status == "none"
    # every cell has two candidates, the solution's digit and one more: the
    # pencilmarks alone decide
    pairs = [{int(d), int(d) % 9 + 1} for d in S]
    r = st.solve(marks_of(pairs))
    assert r.status in ("unique", "multiple") and (r.status == "multiple" or r.solution == S)
    assert all(int(d) in c for d, c in zip(r.solution, pairs))
    assert st.solve(marks_of([set(range(1, 10))] * 81)).status == "multiple"


def test_pencilmark_batches_match_the_cli(sudoku_bin, tmp_path):
    cells = [set(range(1, 10)) if ch == "." else {int(ch)} for ch in P]
    cells[P.index(".")].discard(int(S[P.index(".")]))
    lines = [given_marks(P), marks_of(cells), marks_of([{int(d), int(d) % 9 + 1} for d in S]), marks_of([set(range(1, 10))] * 81)]
    path = tmp_path / "marks.txt"
    path.write_text("\n".join(lines) + "\n")
    cli = [json.loads(line) for line in run([sudoku_bin, "solve", "--format", "json", str(path)]).splitlines()]
    got = list(st.solve_batch(lines, threads=2))
    assert [(r.status, r.solution) for r in got] == [(c["status"], c.get("solution")) for c in cli]
    counted = list(st.count_batch(lines))
    assert [r.status for r in counted] == [c["status"] for c in cli]


def test_pencilmarks_need_fast_and_9x9():
    marks = given_marks(P)
    with pytest.raises(ValueError, match="fast method only"):
        st.solve(marks, method="dlx")
    (bad,) = st.solve_batch([marks], method="mrv", errors="record")
    assert bad.status == "error" and "fast method only" in bad.error
    assert st.solve(marks, method="fast").status == "unique"
    four = "1234" * 16  # a 4x4 pencilmark line (64 characters)
    with pytest.raises(ValueError, match="9x9"):
        st.solve(four)
    with pytest.raises(st.ParseError) as e:
        st.solve(marks[:100] + "x" + marks[101:])
    assert (e.value.line, e.value.column) == (1, 101)
