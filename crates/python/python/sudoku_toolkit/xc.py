"""Exact cover: Knuth's Algorithm X on Dancing Links, with secondary items
and colours.

    from sudoku_toolkit import xc
    prob = xc.Problem.from_knuth(open("queens8.dlx").read())   # Knuth's DLX format
    prob.count(threads=1)          # == 92 (a Count: int(), .complete, .stop, .stats)
    prob.first()                   # option numbers of one solution, or None
    for sol in prob.solutions(limit=10): ...
    tokens = prob.split(3)         # subproblems whose counts add up
    sum(int(prob.count(subproblem=t)) for t in tokens)

    b = xc.Builder()
    for n in "ABC": b.primary(n)
    b.secondary("X")
    b.option(["A", "X:red"]); b.option(["B", "C", "X:red"])
    prob = b.build()
"""

from ._native import Builder, Count, Problem, Solutions, XcStats

Stats = XcStats

__all__ = ["Builder", "Count", "Problem", "Solutions", "Stats", "XcStats"]
