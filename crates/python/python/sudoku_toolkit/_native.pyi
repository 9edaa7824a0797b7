"""Type stubs of the compiled module (re-exported by `sudoku_toolkit`).

Puzzles are strings: a line of n² characters (16, 81, 256 or 625; `.`, `0`
or `_` for a blank, letters for digits above 9; text after the puzzle and a
blank is a comment), or a grid of n lines with or without `|`, `-`, `+`
borders. `rate`, `hint` and `explain` also take a pencilmark line (n³
characters: each cell lists its candidates, `.` for an eliminated one);
`solve`, `count` and their batches take a 9×9 one (729 characters),
searched by `fast` over exactly its candidates. They also take variant
puzzles as `sudoku solve` reads them: the Interactive Sudoku Solver's text
(`.Cage~10~R1C1~R1C2.~R3C3_5`, one puzzle a line), f-puzzles JSON or an
f-puzzles link, solved by the variant solver.

Statuses, method names and stop reasons are the command line's:
status "unique" | "multiple" | "none" | "unknown" (a limit stopped the
search before the answer was known: never reported as "none"), and "error"
for a bad record of a batch run with errors="record"; stop "exhausted" |
"solution-limit" | "node-limit" | "deadline".
"""

from typing import Iterable, Iterator, Literal, Optional, Union

Method = Literal["auto", "naive", "cached", "mrv", "mrv-hidden", "dlx-first", "dlx", "dlx-pruned", "fast", "wide"]
Status = Literal["unique", "multiple", "none", "unknown", "error"]
Stop = Literal["exhausted", "solution-limit", "node-limit", "deadline", "cancelled"]
Band = Literal["easy", "medium", "hard", "expert", "extreme", "needs-guessing"]
Puzzles = Union[Iterable[Union[str, bytes]], "numpy.ndarray"]  # noqa: F821

class ParseError(ValueError):
    """A puzzle, an exact-cover problem or a subproblem token that cannot be read."""

    line: int
    """Line of the error in the text given, from 1."""
    column: int
    """Column (in characters) of the error, from 1."""
    index: Optional[int]
    """The puzzle's position in a batch (from 0), or None for a single call."""

class Stats:
    """What a search did (the command line's `--stats`)."""

    nodes: int
    """Search nodes entered (the root counts as one)."""
    guesses: int
    """Alternatives tried at choice points that had more than one."""
    solutions: int
    """Solutions found."""
    max_depth: int
    """Deepest level of the search."""
    peak_bytes: int
    """Bytes of search state at their largest."""
    seconds: float
    """Time of the search (0.0 in batches, which do not read the clock per puzzle)."""
    def as_dict(self) -> dict[str, float]: ...

class Result:
    """The answer of `solve` or `count`, and of each puzzle of a batch."""

    puzzle: str
    """The puzzle as a line (a variant puzzle as ISS text; the input text for an error record)."""
    status: Status
    """"unique", "multiple", "none", "unknown" or "error"."""
    solution: Optional[str]
    """The (first) solution as a line; None when none was found, and for `count`."""
    second_solution: Optional[str]
    """Another solution when the puzzle has several (not for `count`)."""
    count: int
    """Solutions found: for `count`, the count (exact when `complete`, else "at least")."""
    complete: bool
    """Whether the whole search tree was searched."""
    stop: Optional[Stop]
    """Why the search stopped (None for an error record)."""
    method: Optional[str]
    """The method that solved it ("fast" for 9x9 under "auto", "wide" for 16x16 and 25x25, "mrv-hidden" for 4x4; "variant" for a variant puzzle, "fast" for a classic 9x9 grid written as one)."""
    stats: Optional[Stats]
    """Search statistics (None for an error record)."""
    error: Optional[str]
    """The error message of an error record, with line and column; else None."""
    index: Optional[int]
    """Position in the batch, from 0 (None for `solve` and `count`)."""

class Rating:
    """A rating on the Sudoku Explainer scale (`sudoku rate`).

    A puzzle with several solutions or none is not rated: its status says
    which and the rating fields are None.

    A variant puzzle gets the command line's partial variant rating: `level`
    (1 to 4) instead of `rating` and `band` (both None), `hardest` the first
    step at that level, `outcome` "solved" or "stuck", `techniques` its steps
    by technique (a rule by its kind: "Cage", "Thermo"), and "unknown" as
    the status when its uniqueness was not settled within 5,000,000 nodes."""

    puzzle: str
    """The puzzle as a line (a pencilmark line for pencilmarks, ISS text for a variant)."""
    status: Literal["rated", "multiple", "none", "unknown", "error"]
    rating: Optional[float]
    """The hardest step's difficulty, to a tenth (3.2)."""
    band: Optional[Band]
    outcome: Optional[Literal["solved", "stuck", "no-solution"]]
    """How the step solver ended ("stuck": the techniques could not finish; band "needs-guessing")."""
    hardest: Optional[str]
    """The hardest technique used ("x-wing"; for a variant "naked pair", "Cage", "innies and outies")."""
    level: Optional[int]
    """A variant's level, 1 (singles) to 4 (innies and outies, quads, swordfish); None for a classic puzzle."""
    techniques: dict[str, int]
    """Techniques used, in technique order, with their number of steps."""
    steps: Optional[int]
    givens: Optional[int]
    empty_left: Optional[int]
    pencilmarks: bool
    """Whether the candidates came from a pencilmark line."""
    warnings: list[str]
    error: Optional[str]
    """Why it was not rated (several solutions, none, a bad record)."""
    index: Optional[int]
    def line(self) -> str:
        """The line `sudoku rate` prints: `3.2 hard x-wing full-house:19,...`
        (`variant level 3 (Cage), 57 steps` for a variant)."""
    def as_row(
        self,
    ) -> tuple[str, str, Optional[float], Optional[Band], Optional[str], Optional[str], Optional[str]]:
        """`(puzzle, status, rating, band, hardest, techniques, error)` in one
        call, for tables (a Spark row, a CSV line): `techniques` is
        `"name:steps,..."` sorted by name, None when no technique was used."""
    def as_csv(self) -> str:
        """The fields of `as_row` as one CSV line, no line end: a field with
        a comma, quote or line end quoted (quotes doubled, RFC 4180), None
        empty, the rating as `repr` writes it."""

class Step:
    """One step of the human-style path."""

    technique: str
    difficulty: float
    text: str
    """The step in words."""
    placements: list[tuple[str, int]]
    """Digits placed: (cell, digit), cells named "r3c7"."""
    eliminations: list[tuple[str, int]]
    """Candidates removed: (cell, digit)."""

class Hint:
    """The next step as a hint (`sudoku hint`)."""

    status: Literal["hint", "solved", "stuck"]
    text: str
    level: int
    technique: Optional[str]
    step: Optional[Step]
    warnings: list[str]

class Explanation:
    """The whole path, step by step, and its rating (`sudoku explain`)."""

    steps: list[Step]
    rating: Rating

class BatchIter(Iterator[Union[Result, Rating]]):
    """Results of a batch in input order, as they are ready.

    The input is read by the thread taking the results, in chunks of 256
    puzzles, a bounded window ahead of the results taken (memory does not
    grow with the input); puzzles are solved on `threads` worker threads
    with the GIL released, and the answers come back a chunk at a time.
    A file object (anything `io.IOBase`: `open(path)`, text or binary,
    `io.StringIO`) is read in blocks with `read()` and split at `\n`, the
    same lines iterating it gives (with the default newline handling; a file
    opened with newline="" whose lines end in a bare `\r` is one line
    here), without a string per line. A
    `Result`'s solution string is made when it is first read, from the
    chunk's compact answers. An exception raised by the input (or an item
    that is not str/bytes) ends the batch: the results before it come
    first, then the exception is raised."""

    def __next__(self) -> Union[Result, Rating]: ...
    def close(self) -> None:
        """Stop the batch (the puzzles in flight are dropped)."""

def solve(
    puzzle: str,
    method: Method = "auto",
    limit: int = 2,
    timeout: Optional[float] = None,
    max_nodes: Optional[int] = None,
) -> Result:
    """Solve a puzzle and check that its solution is unique.

    A 9×9 pencilmark line (729 characters) is searched by `fast` over
    exactly its candidates (another method, or another size, raises
    ValueError); the result's `puzzle` is then its filled cells. A variant
    puzzle (ISS text, f-puzzles JSON or link) is searched by the variant
    solver (another method than "auto" raises ValueError); its solutions
    are lines of digits, row by row, and `puzzle` its ISS text.
    `limit`: stop after this many solutions (2 tells unique from multiple).
    `timeout` (seconds) and `max_nodes` give up on the search: the status is
    then "unknown". Raises ParseError (a ValueError) for a bad puzzle; the
    GIL is released while solving."""

def count(
    puzzle: str,
    limit: int = 2,
    method: Method = "auto",
    timeout: Optional[float] = None,
    max_nodes: Optional[int] = None,
) -> Result:
    """Count solutions up to `limit` (`sudoku count`): `.count`, exact when `.complete`."""

def rate(puzzle: str, disable: Iterable[str] = ()) -> Rating:
    """Rate a puzzle (or a pencilmark line) with the human-style step solver.

    `disable`: technique names the rater must not use (classic puzzles). A
    variant puzzle (ISS text, f-puzzles) gets its partial rating (see
    `Rating`)."""

def hint(puzzle: str, level: int = 1, disable: Iterable[str] = ()) -> Hint:
    """The next step of a position as a hint: level 1 where to look, 2 the
    technique and digit, 3 the whole step. Raises ValueError for a puzzle
    with no solution."""

def explain(puzzle: str, disable: Iterable[str] = ()) -> Explanation:
    """Every step of the human-style path, and the rating (classic puzzles;
    a variant raises ParseError: `sudoku explain` explains them)."""

def generate(
    count: int,
    seed: Optional[int] = None,
    difficulty: Optional[Band] = None,
    size: int = 9,
    symmetry: str = "none",
    clues: Optional[tuple[int, int]] = None,
    rating: Optional[tuple[float, float]] = None,
    threads: Optional[int] = None,
    timeout: Optional[float] = None,
    max_attempts: int = 10000,
    variant: Optional[str] = None,
    killer_givens: int = 0,
) -> list[str]:
    """Uniquely solvable puzzles (minimal unless `clues` is given), as
    `sudoku generate -n COUNT --seed SEED ...` makes them: the same seed
    gives the same puzzles on any number of threads (None: all cores; with
    fewer 16x16 or 25x25 puzzles than threads, each puzzle's clue checks
    share them).

    `symmetry`: none, rot180, rot90, mirror, flip, diagonal, anti-diagonal,
    both. `clues`: (min, max). `rating`: (min, max) on the Sudoku Explainer
    scale. `timeout` and `max_attempts` are per puzzle; a target too rare to
    meet raises RuntimeError.

    `variant`: make variant puzzles instead, as ISS text lines
    (`sudoku generate --variant KIND`): x, windoku, disjoint, anti-knight,
    anti-king, non-consecutive, jigsaw, killer (cages only, or up to
    `killer_givens` givens), thermo, kropki, xv; `size` 4, 6, 8 or 9 as the
    kind allows; `symmetry` applies to the givens (not to killer).
    `difficulty`, `rating` and `clues` do not apply (ValueError)."""

def solve_batch(
    puzzles: Puzzles,
    method: Method = "auto",
    limit: int = 2,
    timeout: Optional[float] = None,
    max_nodes: Optional[int] = None,
    threads: Optional[int] = None,
    errors: Literal["raise", "record"] = "raise",
) -> BatchIter:
    """Solve every puzzle of an iterable (str or bytes items; a file object
    is read by blocks, one puzzle a line) or of a NumPy uint8 array of
    shape (n, 81) (cell values 0-9, 0 blank, or ASCII characters), results
    in input order, streamed.

    `threads`: worker threads (None or 0: one per core). `errors`: "raise"
    raises ParseError (with `.index`) at a bad puzzle; "record" gives it a
    Result with status "error" and goes on, like the command line."""

def count_batch(
    puzzles: Puzzles,
    limit: int = 2,
    method: Method = "auto",
    timeout: Optional[float] = None,
    max_nodes: Optional[int] = None,
    threads: Optional[int] = None,
    errors: Literal["raise", "record"] = "raise",
) -> BatchIter:
    """`count` over a batch, as `solve_batch`."""

def rate_batch(
    puzzles: Puzzles,
    disable: Iterable[str] = (),
    threads: Optional[int] = None,
    errors: Literal["raise", "record"] = "raise",
) -> BatchIter:
    """`rate` over a batch (Rating results), as `solve_batch`."""

# ---- sudoku_toolkit.xc ----

class XcStats:
    """What an exact-cover search did."""

    nodes: int
    guesses: int
    solutions: int
    max_depth: int
    peak_bytes: int
    updates: int
    """Link updates (Knuth's "updates")."""
    seconds: float

class Count:
    """An exact-cover count: exact when `complete`, else a lower bound.
    Compares equal to an int; `int(c)` is the count."""

    count: int
    complete: bool
    stop: Stop
    stats: XcStats
    def __int__(self) -> int: ...
    def __index__(self) -> int: ...

class Solutions(Iterator[list[int]]):
    """Solutions as they are found (each a list of option numbers)."""

    def __next__(self) -> list[int]: ...
    def close(self) -> None:
        """Stop the search."""

class Problem:
    """An exact-cover problem: primary items (covered exactly once, or
    within bounds), secondary items (at most once, or by options that agree
    on their colour) and options."""

    option_count: int
    item_count: int
    primary_count: int
    @staticmethod
    def from_knuth(text: str) -> Problem:
        """Read Knuth's DLX format (as `dlx` does); ParseError with line and column."""
    def option(self, k: int) -> str:
        """Option k as text ("r0 c3 a3 b4")."""
    def count(
        self,
        threads: Optional[int] = None,
        limit: Optional[int] = None,
        max_nodes: Optional[int] = None,
        timeout: Optional[float] = None,
        subproblem: Optional[str] = None,
        engine: str = "links",
    ) -> Count:
        """Count the solutions on `threads` threads (None: all cores; a
        `limit` or `max_nodes` counts on one). `subproblem`: only the part of
        a `split` token, on one thread. `engine`: "links" (the default;
        multiplicities), "cells" (SSXCC's smaller tree) or "bits" (bit sets:
        the fastest for up to 4,096 options and primary items, when primary
        items are few); ValueError for a problem the engine does not take.
        The GIL is released while counting."""
    def first(
        self,
        max_nodes: Optional[int] = None,
        timeout: Optional[float] = None,
        subproblem: Optional[str] = None,
        engine: str = "links",
    ) -> Optional[list[int]]:
        """One solution (option numbers), or None. `engine` as for `count`."""
    def solutions(
        self,
        limit: Optional[int] = None,
        max_nodes: Optional[int] = None,
        timeout: Optional[float] = None,
        subproblem: Optional[str] = None,
    ) -> Solutions:
        """Iterate over the solutions (found by a search thread as you go)."""
    def split(self, depth: int) -> list[str]:
        """Subproblem tokens at `depth` levels of the search tree ("0,10":
        options forced on the problem); their counts add up to the total,
        and each can be counted anywhere (`count(subproblem=...)`, `dlx
        --count --subproblem TOKEN FILE`), as often as needed."""

class Builder:
    """Build a problem: declare items, then add options."""

    def __init__(self) -> None: ...
    def primary(self, name: str, lo: Optional[int] = None, hi: Optional[int] = None) -> None:
        """A primary item (with `lo`/`hi`: covered between lo and hi times)."""
    def secondary(self, name: str) -> None: ...
    def option(self, items: Iterable[Union[str, tuple[str, str]]]) -> int:
        """An option: item names, "item:colour" or (item, colour); returns its number."""
    def build(self) -> Problem:
        """Validate (ValueError naming the option and item) and freeze."""
