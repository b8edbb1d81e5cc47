"""Huge and wide boards: every command answers within its time limit, and exact counts never overflow.

The boards are dealt here from a seed (mines at random, a share of the safe cells revealed with their true
numbers), so each is consistent and the solver must really count it.
"""

from __future__ import annotations

import json
import random
import sys
import time
from fractions import Fraction

import pytest

from autoplay.board.model import Board, neighbour_table
from autoplay.cli.main import main
from autoplay.cli.output import exact_json, short_count
from autoplay.solver import analyze
from autoplay.solver.analysis import _choose, _room, clear_component_cache
from autoplay.solver.count import BudgetExceeded, count_component


def dealt(rows: int, cols: int, mines: int, revealed: float, seed: int = 1) -> Board:
    """A consistent board: ``revealed`` of the safe cells show their numbers, the rest is hidden."""
    rng = random.Random(seed)
    layout = set(rng.sample(range(rows * cols), mines))
    nbrs = neighbour_table(rows, cols)
    cells = []
    for i in range(rows * cols):
        if i not in layout and rng.random() < revealed:
            cells.append(str(sum(j in layout for j in nbrs[i])))
        else:
            cells.append(".")
    return Board(rows, cols, tuple(cells), mines)


def write(tmp_path, board: Board, name: str = "board.txt") -> str:
    path = tmp_path / name
    path.write_text(board.to_text(), encoding="utf-8")
    return str(path)


@pytest.fixture(autouse=True)
def fresh_cache():
    clear_component_cache()  # a cached component would make the time limit look easier than it is
    yield
    clear_component_cache()


# one giant component (40% revealed) and a thousand small ones (5% revealed): the two ways a board is wide
WIDE_BOARDS = [pytest.param(0.4, id="one-long-frontier"), pytest.param(0.05, id="thousand-components")]


@pytest.mark.parametrize("revealed", WIDE_BOARDS)
def test_solve_returns_within_its_time_limit_on_a_200x200_board(tmp_path, capsys, revealed):
    path = write(tmp_path, dealt(200, 200, 8000, revealed))
    started = time.process_time()
    assert main(["solve", path, "--time-limit", "2", "--json"]) == 0
    assert time.process_time() - started < 3.0
    out = json.loads(capsys.readouterr().out)
    assert out["approximate"] is True  # too big to count exactly in 2 s, and it says so
    assert out["move"]["action"] in ("reveal", "flag")


@pytest.mark.parametrize("revealed", WIDE_BOARDS)
def test_analyze_returns_within_its_time_limit_on_a_200x200_board(tmp_path, capsys, revealed):
    path = write(tmp_path, dealt(200, 200, 8000, revealed))
    started = time.process_time()
    assert main(["analyze", path, "--time-limit", "2"]) == 0
    assert time.process_time() - started < 3.0
    assert "approximate" in capsys.readouterr().out.splitlines()[0]


def test_counts_beyond_floats_and_the_int_text_limit_are_printed_exactly(tmp_path, capsys):
    board = dealt(150, 150, 4500, 0.01)
    path = write(tmp_path, board)
    # a generous limit: this test is about size, not time (a loaded machine must not make it approximate)
    assert main(["solve", path, "--json", "--time-limit", "60"]) == 0
    text = capsys.readouterr().out
    limit = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(0)
    try:
        out = json.loads(text)
    finally:
        sys.set_int_max_str_digits(limit)
    exact = analyze(board)
    assert not exact.approximate and out["solutions"] == exact.solutions and exact.solutions > 10**4300
    # each probability is its exact fraction of two ~4700-digit counts, correctly rounded (no overflow on the way)
    for (r, c), p in exact.exact.items():
        assert exact.probabilities[r][c] == out["probabilities"][r][c] == float(p) and 0 <= p <= 1
    assert main(["analyze", path, "--time-limit", "60"]) == 0
    head = capsys.readouterr().out.splitlines()[0]
    assert f"{short_count(exact.solutions)} solutions" in head and "e+47" in head


def test_short_count_rounds_like_float_formatting_without_floats():
    for n in [10**15, 123456789012345678, 99999500000000000, 10**100 - 1, 31415926535897932384626]:
        assert short_count(n) == f"{n:.4e}"
    assert short_count(7 * 10**4900 + 3) == "7.0000e+4900"
    assert short_count(12) == "12"


def test_exact_json_keeps_huge_and_ordinary_values():
    big = 7 * 10**5000 + 1
    text = exact_json({"a": [big, big, 3, -big, "x\x00y", None], "b": 1.5})
    sys.set_int_max_str_digits(0)
    try:
        assert json.loads(text) == {"a": [big, big, 3, -big, "x\x00y", None], "b": 1.5}
    finally:
        sys.set_int_max_str_digits(4300)


def test_off_frontier_binomials_match_math_comb():
    rng = random.Random(3)
    for _ in range(500):
        n, left, size = rng.randint(0, 40), rng.randint(-5, 50), rng.randint(1, 50)
        assert _room(n, left, size) == tuple(_choose(n, left - m) for m in range(size))


def test_enumerator_set_up_stops_at_the_deadline(monkeypatch):
    """The set-up of a 200x200 board's long frontier is bounded by the deadline, not only the search.

    Counted, not timed: the clock here advances one tick per reading, so the test says how many
    readings the set-up makes before it stops, whatever the machine's load.  A deadline that falls
    anywhere in the set-up must stop it at the next reading, before the search starts.
    """
    from autoplay.solver import count as count_module
    from autoplay.solver.analysis import _split
    from autoplay.solver.position import read_position

    biggest = max(_split(read_position(dealt(200, 200, 8000, 0.4))), key=len)
    ticks = {"now": 0}

    def clock() -> float:
        ticks["now"] += 1
        return float(ticks["now"])

    def search_started(self, *args):
        raise AssertionError("the search started past the deadline")

    monkeypatch.setattr(count_module.time, "perf_counter", clock)
    monkeypatch.setattr(count_module, "PREPARE", None)  # the Python set-up (the C one is linear and has no check)
    monkeypatch.setattr(count_module._Enumerator, "counts", search_started)
    readings = []
    deadlines = (0, 1, 7, 400, 5000)
    for deadline in deadlines:
        ticks["now"] = 0
        with pytest.raises(BudgetExceeded):
            count_component(biggest, deadline=deadline + 0.5)
        readings.append(ticks["now"])
    assert readings == [d + 1 for d in deadlines]  # each stopped at the first reading past its deadline
    sweep_readings = len(count_module.group_cells(biggest)) // 64 + 1
    assert deadlines[1] < sweep_readings < deadlines[-2]  # deadlines fell in both parts of the set-up


def test_out_of_time_answers_are_marked_and_still_probabilities():
    board = dealt(16, 30, 99, 0.3, seed=2)  # expert size: counted exactly in about 0.1 s
    rushed = analyze(board, deadline=time.perf_counter())
    assert rushed.approximate and rushed.exact == {}
    for row in rushed.probabilities:
        assert all(p is None or 0.0 <= p <= 1.0 for p in row)
    full = analyze(board)
    assert not full.approximate
    # every certainty the rushed answer claims is a real one
    assert set(rushed.safe) <= set(full.safe) and set(rushed.mines) <= set(full.mines)
    assert all(isinstance(p, Fraction) for p in full.exact.values())


def test_flagged_cells_are_never_proposed(tmp_path, capsys):
    path = tmp_path / "ff.txt"
    path.write_text("FF\n..\n", encoding="utf-8")
    assert main(["solve", str(path), "--mines", "2", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert {(m["row"], m["col"]) for m in out["moves"]} == {(1, 0), (1, 1)}
    assert all(m["action"] == "reveal" and m["probability"] == 0.0 for m in out["moves"])


@pytest.mark.parametrize("text", ["*1\n11\n", "X1\n11\n", "mines=1\n*1\n11\n", "01\n1F\n"])
def test_a_board_with_nothing_hidden_is_a_one_line_error(tmp_path, capsys, text):
    path = tmp_path / "done.txt"
    path.write_text(text, encoding="utf-8")
    assert main(["solve", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no hidden cell left" in err
