"""Variant puzzles (the Interactive Sudoku Solver's text, f-puzzles JSON and
links) through solve, count, their batches and generate, against the
corpus's answers and the command line."""

import json

import pytest

import sudoku_toolkit as st
from conftest import TESTDATA, run


def corpus(count=None):
    """(name, ISS text, count, solution) rows of the variant corpus."""
    rows = []
    for line in (TESTDATA / "variant" / "corpus.tsv").read_text().splitlines():
        if line.startswith("#") or not line.strip():
            continue
        kind, name, text, n, solution = (line.split("\t") + [""])[:5]
        if count is None or n == count:
            rows.append((name, text, n, solution))
    return rows


def test_solve_gives_the_corpus_solution():
    unique = corpus("1")
    assert len(unique) > 100
    for name, text, _, solution in unique[::7]:
        r = st.solve(text)
        assert (r.status, r.solution, r.second_solution) == ("unique", solution, None), name
        assert r.method in ("variant", "fast") and r.complete and r.count == 1
        assert r.stats.nodes >= 1
        # the puzzle comes back as ISS text that reads to the same answer
        assert st.solve(r.puzzle).solution == solution, name


def test_count_and_statuses_follow_the_corpus():
    none = corpus("0")
    several = corpus("2+")
    assert none and several
    for name, text, _, _ in none:
        r = st.count(text, limit=5)
        assert (r.status, r.count, r.complete) == ("none", 0, True), name
    for name, text, _, _ in several:
        r = st.solve(text)
        assert r.status == "multiple" and r.solution != r.second_solution, name
        assert st.count(text, limit=2).stop == "solution-limit"


def test_a_classic_grid_written_as_a_variant_is_searched_by_fast():
    name, text, _, solution = next(r for r in corpus("1") if r[0] == "iss: Classic sudoku")
    r = st.solve(text)
    assert (r.method, r.solution) == ("fast", solution)
    killer = next(r for r in corpus("1") if r[1].startswith(".Cage~"))
    assert st.solve(killer[1]).method == "variant"


def test_fpuzzles_links_read_as_their_iss_text():
    rows = [
        line.split("\t")
        for line in (TESTDATA / "variant" / "fpuzzles.tsv").read_text().splitlines()
        if line.strip() and not line.startswith("#")
    ]
    assert rows
    for name, payload, iss, solution in rows[:4]:
        by_link = st.solve("https://www.f-puzzles.com/?load=" + payload)
        by_text = st.solve(iss)
        assert (by_link.status, by_link.solution) == (by_text.status, by_text.solution), name
        # the same constraints, perhaps in another order
        assert sorted(by_link.puzzle.split(".")) == sorted(by_text.puzzle.split(".")), name
        # the collection's solution is one of them (some have several)
        assert solution in (by_link.solution, by_link.second_solution) or by_link.status == "multiple", name


def test_batches_mix_classic_and_variant_lines_as_the_command_line_does(sudoku_bin, tmp_path):
    rows = corpus()
    lines = [text for _, text, _, _ in rows[::5]]
    lines.insert(3, ".3..9..5.....1...45..8....7....3.2..6....9.4...7..25.......19....69....812.....7.")
    lines.insert(5, ".Cagey~3~R1C1~R1C2")  # an unknown kind: an error record
    path = tmp_path / "mixed.txt"
    path.write_text("\n".join(lines) + "\n")
    cli = [json.loads(l) for l in run([sudoku_bin, "solve", "--format", "json", str(path)], check=False).splitlines()]
    got = list(st.solve_batch(lines, threads=2, errors="record"))
    assert len(got) == len(cli) == len(lines)
    for c, r in zip(cli, got):
        assert (r.status, r.solution) == (c["status"], c.get("solution")), r.puzzle
    bad = got[5]
    assert bad.status == "error" and "Cagey" in bad.error and bad.index == 5
    counted = list(st.count_batch(lines, errors="record"))
    assert [r.status for r in counted] == [r.status for r in got]


def test_bad_variants_raise_with_the_place():
    with pytest.raises(st.ParseError) as e:
        st.solve(".Cage~10~R1C1~R1C2.Cagey~3~R1C1")
    assert e.value.column == 19 and "Cagey" in str(e.value)
    with pytest.raises(st.ParseError) as e:
        st.solve(".Cage~10~R1C1~R1C10")
    assert e.value.line == 1 and "R1C10" in str(e.value)
    with pytest.raises(ValueError, match="variant solver"):
        st.solve(".Cage~10~R1C1~R1C2", method="dlx")
    (bad,) = st.solve_batch([".Cage~10~R1C1~R1C2"], method="mrv", errors="record")
    assert bad.status == "error" and "variant solver" in bad.error


def test_generated_variants_are_unique_and_equal_the_command_line(sudoku_bin):
    for kind, size in (("killer", 6), ("x", 9), ("jigsaw", 6)):
        made = st.generate(2, seed=5, variant=kind, size=size)
        cli = run([sudoku_bin, "generate", "-n", "2", "--seed", "5", "--variant", kind, "--size", str(size)]).splitlines()
        assert made == cli, kind
        for p in made:
            assert st.solve(p).status == "unique", p
    assert st.generate(2, seed=5, variant="killer", size=6, threads=1) == st.generate(2, seed=5, variant="killer", size=6, threads=2)
    with pytest.raises(ValueError, match="unknown variant"):
        st.generate(1, variant="sandwiches")
    with pytest.raises(ValueError, match="difficulty does not apply"):
        st.generate(1, variant="x", difficulty="hard")
    with pytest.raises(ValueError, match="killer' only"):
        st.generate(1, variant="x", killer_givens=2)
    with pytest.raises(ValueError, match="grids, not 16x16"):
        st.generate(1, variant="x", size=16)


def test_variant_ratings_equal_the_command_line(sudoku_bin, tmp_path):
    lines = [text for _, text, _, _ in corpus()[::9]]
    lines.append(".Cagey~3~R1C1")  # an unknown kind: an error record
    path = tmp_path / "rate.txt"
    path.write_text("\n".join(lines) + "\n")
    cli = [json.loads(l) for l in run([sudoku_bin, "rate", "--format", "json", str(path)], check=False).splitlines()]
    text = run([sudoku_bin, "rate", str(path)], check=False).splitlines()
    got = list(st.rate_batch(lines, errors="record"))
    assert len(got) == len(cli) == len(lines)
    rated = 0
    for c, r in zip(cli, got):
        assert r.status == c["status"], r.puzzle
        if r.status == "rated":
            rated += 1
            v = c["variant"]
            assert (r.level, r.hardest, r.steps, r.outcome == "solved") == (v["level"], v["hardest"], v["steps"], v["solved"])
            assert r.rating is None and r.band is None
            assert sum(r.techniques.values()) == r.steps
            assert r.line() == "variant " + v["rating"]
            assert r.line() in text
    assert rated >= len(lines) // 2
    assert got[-1].status == "error" and "Cagey" in got[-1].error
    one = st.rate(lines[0])
    assert (one.status, one.level, one.line()) == (got[0].status, got[0].level, got[0].line())
    with pytest.raises(st.ParseError):
        st.rate(".Cagey~3~R1C1")


def test_hint_and_explain_refuse_variants_by_name():
    for call in (st.explain, st.hint):
        with pytest.raises(st.ParseError, match="hint and explain take classic grids"):
            call(".Cage~10~R1C1~R1C2")
