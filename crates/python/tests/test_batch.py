"""Batches: order, streaming with bounded memory, bad records, a generator
that raises, NumPy arrays, and the GIL released while solving."""

import itertools
import threading
import time

import pytest

import sudoku_toolkit as st

P = ".3..9..5.....1...45..8....7....3.2..6....9.4...7..25.......19....69....812.....7."
S = "734296851268517394591843627915734286682159743347682519853471962476925138129368475"
EMPTY = "." * 81


def test_results_come_in_input_order_on_any_number_of_threads(clue17):
    puzzles = [p for p, _ in clue17] * 6  # several chunks
    want = [s for _, s in clue17] * 6
    for threads in (1, 2, 3, None, 0):
        got = list(st.solve_batch(iter(puzzles), threads=threads))
        assert [r.solution for r in got] == want
        assert [r.index for r in got] == list(range(len(puzzles)))
    counted = list(st.count_batch(puzzles[:50], limit=3))
    assert all(r.count == 1 and r.complete for r in counted)


def test_any_iterable_and_bytes():
    assert [r.status for r in st.solve_batch((p for p in [P, EMPTY]))] == ["unique", "multiple"]
    assert [r.solution for r in st.solve_batch([P.encode()])] == [S]
    assert list(st.solve_batch([])) == []
    assert [r.rating for r in st.rate_batch({P})] == [3.2]


def test_a_generator_is_read_as_results_are_taken():
    # an endless generator: memory stays bounded because the batch reads
    # only a window ahead of the results taken
    pulled = 0

    def endless():
        nonlocal pulled
        while True:
            pulled += 1
            yield P

    batch = st.solve_batch(endless(), threads=2)
    worst = 0
    for k, r in enumerate(itertools.islice(batch, 20000)):
        assert r.solution == S
        worst = max(worst, pulled - k)
    batch.close()
    assert worst < 10000, f"{worst} puzzles read ahead of the results"


def test_a_generator_that_raises_midway():
    def gen():
        for k in range(700):
            if k == 600:
                raise RuntimeError("the source broke")
            yield P

    batch = st.solve_batch(gen(), threads=2)
    got = []
    with pytest.raises(RuntimeError, match="the source broke"):
        for r in batch:
            got.append(r)
    assert len(got) == 600 and all(r.solution == S for r in got)


def test_wrong_types_in_the_batch():
    got = []
    with pytest.raises(TypeError, match="puzzle 2 of the batch is a int"):
        for r in st.solve_batch([P, P, 7, P]):
            got.append(r)
    assert len(got) == 2
    with pytest.raises(TypeError, match="not one string"):
        st.solve_batch(P)
    with pytest.raises(TypeError):
        st.solve_batch(42)
    with pytest.raises(ValueError, match="errors must be"):
        st.solve_batch([P], errors="ignore")


def test_bad_records_raise_or_are_recorded():
    bad = P[:10] + "x" + P[11:]
    batch = st.solve_batch([P, bad, P])
    assert next(batch).solution == S
    with pytest.raises(st.ParseError) as e:
        next(batch)
    assert (e.value.index, e.value.line, e.value.column) == (1, 1, 11)
    assert "puzzle 1 of the batch" in str(e.value)
    rs = list(st.solve_batch([P, bad, "12", "11" + "." * 79, P], errors="record"))
    assert [r.status for r in rs] == ["unique", "error", "error", "error", "unique"]
    assert "'x' is not a digit" in rs[1].error and rs[1].puzzle == bad
    assert "twice" in rs[3].error
    rated = list(st.rate_batch([P, bad, EMPTY], errors="record"))
    assert [r.status for r in rated] == ["rated", "error", "multiple"]


def test_numpy_arrays():
    np = pytest.importorskip("numpy")
    rows = [[0 if c == "." else int(c) for c in p] for p in [P, EMPTY, S] * 300]
    arr = np.array(rows, dtype=np.uint8)
    got = list(st.solve_batch(arr, threads=2))
    assert len(got) == 900
    assert [r.status for r in got[:3]] == ["unique", "multiple", "unique"]
    assert all(r.solution == S for r in got[::3])
    ascii_arr = np.frombuffer((P * 4).encode(), dtype=np.uint8).reshape(4, 81)
    assert [r.solution for r in st.solve_batch(ascii_arr)] == [S] * 4
    with pytest.raises(TypeError, match="uint8"):
        st.solve_batch(arr.astype(np.int64))
    with pytest.raises(ValueError, match="shape"):
        st.solve_batch(arr.reshape(-1, 27))


def test_the_batch_releases_the_gil_while_solving():
    # One search that runs for half a second (an empty grid counted until
    # its timeout) in one thread; a pure-Python loop in another. If the
    # batch held the GIL while solving, the loop could not run at all
    # until the search ended.
    ticks = []
    stop = threading.Event()

    def python_loop():
        while not stop.is_set():
            ticks.append(time.monotonic())
            time.sleep(0)

    def batch():
        return list(st.count_batch([EMPTY], limit=10**15, timeout=0.5, threads=1))

    other = threading.Thread(target=python_loop)
    other.start()
    try:
        t0 = time.monotonic()
        (r,) = batch()
        t1 = time.monotonic()
    finally:
        stop.set()
        other.join()
    assert r.stop == "deadline" and t1 - t0 >= 0.45
    inside = [t for t in ticks if t0 + 0.1 < t < t1 - 0.1]
    assert len(inside) > 100, f"the other thread ran {len(inside)} times during the batch"

    # two threads in batch calls at once: both searches run side by side
    spans = [None, None]

    def timed(k):
        a = time.monotonic()
        batch()
        spans[k] = (a, time.monotonic())

    threads = [threading.Thread(target=timed, args=(k,)) for k in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    (a0, a1), (b0, b1) = spans
    assert a0 < b1 and b0 < a1, f"the two batch calls did not overlap: {spans}"
    # one search holding the GIL would make the other wait: 1 s or more
    assert max(a1, b1) - min(a0, b0) < 0.95


def test_a_file_object_is_read_in_blocks_with_the_lines_iteration_gives(tmp_path, clue17):
    # more lines than a block of the reader holds, a blank line, a comment
    # line (both error records, as when iterating), a CRLF line end and a
    # last line with no line end
    puzzles = [p for p, _ in clue17] * 12
    lines = [p + "\n" for p in puzzles]
    lines[5] = "\n"
    lines[7] = "# a comment\n"
    lines[9] = puzzles[9] + "\r\n"
    lines[-1] = puzzles[-1]
    path = tmp_path / "puzzles.txt"
    path.write_bytes("".join(lines).encode())

    def statuses(batch):
        return [(r.index, r.status, r.solution) for r in batch]

    want = statuses(st.solve_batch(iter(list(open(path))), errors="record", threads=2))
    assert len(want) == len(lines) and want[5][1] == want[7][1] == "error"
    assert want[9][1] == "unique" and want[-1][1] == "unique"
    with open(path) as f:
        assert statuses(st.solve_batch(f, errors="record", threads=2)) == want
    with open(path, "rb") as f:
        assert statuses(st.solve_batch(f, errors="record", threads=1)) == want
    import io

    assert statuses(st.solve_batch(io.StringIO(path.read_text()), errors="record")) == want
    with open(path) as f:
        rated = list(st.rate_batch(itertools.islice(f, 3), threads=1))
    assert [r.status for r in rated] == ["rated"] * 3


def test_a_file_that_fails_midway_gives_the_results_before_it():
    import io

    class Broken(io.RawIOBase):
        """A binary file that reads some whole lines, then fails."""

        def __init__(self):
            self.data = (P + "\n").encode() * 300
            self.calls = 0

        def readable(self):
            return True

        def read(self, n=-1):
            self.calls += 1
            if self.calls > 1:
                raise OSError("the disk went away")
            return self.data

    got = []
    with pytest.raises(OSError, match="the disk went away"):
        for r in st.solve_batch(Broken(), threads=2):
            got.append(r)
    assert len(got) == 300 and all(r.solution == S for r in got)


def test_results_share_their_chunk_and_outlive_the_batch(clue17):
    # a result holds its chunk's answers: kept after the batch is gone,
    # every field still reads
    puzzles = [p for p, _ in clue17] * 4
    batch = st.solve_batch(puzzles, threads=2)
    kept = [r for k, r in enumerate(batch) if k % 97 == 0]
    del batch
    assert [r.solution for r in kept] == [clue17[k % len(clue17)][1] for k in range(0, len(puzzles), 97)]
    assert all(r.stats.nodes >= 1 and r.puzzle in puzzles for r in kept)


def test_rating_as_row():
    (r,) = st.rate_batch([P])
    row = r.as_row()
    assert row[:5] == (r.puzzle, "rated", 3.2, r.band, r.hardest)
    assert row[5] == ",".join(f"{t}:{n}" for t, n in sorted(r.techniques.items()))
    assert row[6] is None
    (bad,) = st.rate_batch(["12"], errors="record")
    assert bad.as_row()[1] == "error" and bad.as_row()[2:6] == (None, None, None, None) and bad.as_row()[6]


def test_rating_as_csv_reads_back_as_the_row():
    import csv

    (r, bad) = st.rate_batch([P, "12,3"], errors="record")
    for rating in (r, bad):
        (fields,) = list(csv.reader([rating.as_csv()]))
        row = rating.as_row()
        assert fields == ["" if v is None else repr(v) if isinstance(v, float) else v for v in row]
    # the techniques and the error hold commas: quoted
    assert r.as_csv().count('"') == 2 and "," in r.as_row()[5]
    assert "," in bad.as_row()[6] and bad.as_csv().endswith('"')
