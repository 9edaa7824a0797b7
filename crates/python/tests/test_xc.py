"""Exact cover: Knuth's format, the builder, counts, solutions, limits and
the split into subproblems."""

import pytest

try:
    import tomllib
except ImportError:  # Python < 3.11
    tomllib = pytest.importorskip("tomli")

import sudoku_toolkit as st
from conftest import TESTDATA, run

xc = st.xc


def instance(name):
    return xc.Problem.from_knuth((TESTDATA / "xc" / name).read_text())


def known_counts():
    table = tomllib.loads((TESTDATA / "xc" / "counts.toml").read_text())
    return {i["file"]: i for i in table["instance"]}


@pytest.mark.parametrize("name", ["toy1.dlx", "queens8.dlx", "queens10.dlx", "pent3x20.dlx", "langford11-sym.dlx"])
def test_counts_match_the_known_figures(name):
    known = known_counts()[name]
    prob = instance(name)
    one = prob.count(threads=1)
    assert one == known["solutions"] and int(one) == known["solutions"]
    assert one.complete and one.stop == "exhausted"
    assert one.stats.nodes == known["nodes"] and one.stats.max_depth == known["max_depth"]
    assert prob.count(threads=2) == known["solutions"]
    assert prob.count().stats.nodes == known["nodes"]  # the same tree on all cores


@pytest.mark.parametrize("name", ["toy1.dlx", "queens8.dlx", "pent3x20.dlx", "langford11-sym.dlx"])
def test_every_engine_counts_the_same(name):
    known = known_counts()[name]
    prob = instance(name)
    for engine in ["links", "cells", "bits"]:
        c = prob.count(threads=1, engine=engine)
        assert c == known["solutions"] and c.complete, engine
        assert prob.count(threads=2, engine=engine) == known["solutions"], engine
    # the cells and bits engines search the pruned tree
    assert prob.count(threads=1, engine="bits").stats.nodes == known["pruned_nodes"]
    first = prob.first(engine="bits")
    assert first is not None and prob.first(engine="cells") is not None


def test_engines_refuse_what_they_cannot_do():
    with pytest.raises(ValueError, match="unknown engine 'fast'"):
        instance("toy1.dlx").count(engine="fast")
    multi = xc.Problem.from_knuth("2|A B\nA\nA\nA B\n")
    assert multi.count(engine="links") == 2
    for engine in ["cells", "bits"]:
        with pytest.raises(ValueError, match="multiplicity"):
            multi.count(engine=engine)
    token = instance("queens8.dlx").split(1)[0]
    with pytest.raises(ValueError, match="links engine"):
        instance("queens8.dlx").count(subproblem=token, engine="bits")


def test_solutions_first_and_limits():
    prob = instance("queens8.dlx")
    sols = list(prob.solutions())
    assert len(sols) == 92 and len({tuple(sorted(s)) for s in sols}) == 92
    for s in sols[:5]:
        rows = sorted(prob.option(k).split()[0] for k in s)
        assert rows == [f"r{k}" for k in range(8)]
    assert prob.first() == sols[0]
    assert len(list(prob.solutions(limit=10))) == 10
    c = prob.count(threads=1, limit=10)
    assert (int(c), c.complete, c.stop, str(c)) == (10, False, "solution-limit", "at least 10 (solution limit reached)")
    c = prob.count(max_nodes=50)
    assert not c.complete and c.stop == "node-limit"
    # stopping the iterator early stops the search
    it = prob.solutions()
    next(it)
    it.close()
    assert list(it) == []


def test_builder_with_colours():
    b = xc.Builder()
    for n in "ABC":
        b.primary(n)
    b.secondary("X")
    assert b.option(["A", "X:red"]) == 0
    b.option(["B", ("X", "red")])
    b.option(["B", "X:blue"])
    b.option(["C"])
    prob = b.build()
    assert prob.option_count == 4 and prob.primary_count == 3 and prob.item_count == 4
    assert prob.count() == 1
    assert sorted(prob.first()) == [0, 1, 3]
    assert prob.option(1) == "B X:red"
    again = xc.Problem.from_knuth(str(prob))
    assert again.count() == 1


def test_builder_and_format_errors():
    b = xc.Builder()
    b.primary("A")
    with pytest.raises(ValueError, match="unknown item 'Q'"):
        b.option(["A", "Q"])
    with pytest.raises(ValueError, match="declared twice"):
        b.primary("A")
    with pytest.raises(ValueError, match="not valid"):
        b.secondary("a b")
    with pytest.raises(TypeError):
        b.option("A")
    with pytest.raises(TypeError):
        b.option([1, 2])
    with pytest.raises(st.ParseError) as e:
        xc.Problem.from_knuth("A B\nA C\n")
    assert (e.value.line, e.value.column) == (2, 3)
    assert isinstance(e.value, ValueError) and "unknown item 'C'" in str(e.value)


def test_split_counts_add_up():
    prob = instance("queens10.dlx")
    for depth in (1, 2, 3):
        tokens = prob.split(depth)
        assert sum(int(prob.count(subproblem=t)) for t in tokens) == 724
    first = prob.split(2)[0]
    forced = [int(k) for k in first.split(",")]
    sub = list(prob.solutions(subproblem=first))
    assert sub and all(s[: len(forced)] == forced for s in sub)
    assert len(sub) == prob.count(subproblem=first)
    with pytest.raises(st.ParseError) as e:
        prob.count(subproblem="1,x")
    assert e.value.column == 3
    with pytest.raises(ValueError, match="clashes"):
        prob.count(subproblem="0,1")
    with pytest.raises(ValueError, match="at least 1"):
        prob.split(0)


def test_split_equals_the_command_line(dlx_bin):
    path = TESTDATA / "xc" / "queens8.dlx"
    cli = run([dlx_bin, "--split", "3", str(path)]).split()
    assert cli == instance("queens8.dlx").split(3)
    counts = [int(run([dlx_bin, "--count", "--subproblem", t, str(path)])) for t in cli[:10]]
    prob = instance("queens8.dlx")
    assert counts == [int(prob.count(subproblem=t)) for t in cli[:10]]
