"""Sudoku and exact cover, from the Rust toolkit.

One vocabulary with the command line (`sudoku`, `dlx`): statuses
"unique", "multiple", "none", "unknown" (and "error" for a bad record of a
batch run with errors="record"); method names as `--algo` takes them;
stop reasons as the JSON output writes them.

    import sudoku_toolkit as st
    r = st.solve(".3..9..5.....1...45..8....7....3.2..6....9.4...7..25.......19....69....812.....7.")
    r.status, r.solution, r.stats.nodes
    st.count(p, limit=2).count
    st.rate(p).rating, st.rate(p).band
    for r in st.solve_batch(open("puzzles.txt"), threads=None): ...
    st.generate(10, seed=7, difficulty="hard")
    st.solve(".Cage~10~R1C1~R1C2.~R3C3_5...")       # variants: ISS text, f-puzzles
    st.generate(2, seed=7, variant="killer")        # ISS text lines
    prob = st.xc.Problem.from_knuth(text); prob.count(threads=1)

Type hints and the documentation of every parameter: `__init__.pyi`.
"""

from . import xc
from ._native import (
    BatchIter,
    Explanation,
    Hint,
    ParseError,
    Rating,
    Result,
    Stats,
    Step,
    count,
    count_batch,
    explain,
    generate,
    hint,
    rate,
    rate_batch,
    solve,
    solve_batch,
)

__all__ = [
    "BatchIter",
    "Explanation",
    "Hint",
    "ParseError",
    "Rating",
    "Result",
    "Stats",
    "Step",
    "count",
    "count_batch",
    "explain",
    "generate",
    "hint",
    "rate",
    "rate_batch",
    "solve",
    "solve_batch",
    "xc",
]
