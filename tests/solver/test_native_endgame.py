"""The C endgame search (``_endgame.c``) decides as the Python one, node for node.

The search's node budget makes a decision depend on how many nodes were searched: a search that stops one node
early or late can keep the heuristic's guess where the other plays the endgame, and the simulator's pinned
decision hashes would change.  So each test compares the cell, the value (as the same float) and the node count
of both searches, and where the budget or the deadline cuts a search, the node where it stops.  The positions are
random small boards and late positions from simulated games, some with their flags taken off so that more than
64 and more than 128 cells are unknown (bitsets of several words).  The C module is built with the compiled
solver (``setup.py``); these tests import it directly, so a build that lost it fails here.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from functools import cache

import pytest

from autoplay.board.model import FLAG, HIDDEN, Board
from autoplay.board.rules import Rules
from autoplay.compiled import is_compiled
from autoplay.sim.runner import GameSpec, play_game
from autoplay.solver import _endgame, choose_move
from autoplay.solver import endgame as endgame_module
from autoplay.solver._endgame import Search, Timeout
from autoplay.solver.decide import Decision
from autoplay.solver.endgame import MAX_NODES, EndgameSearch, SearchTimeout, list_layouts
from autoplay.solver.position import read_position
from tests.solver.brute import random_position

#: What a search gave: ((bit of the best cell, value) or None when it was cut, nodes searched).
Outcome = tuple[tuple[int, float] | None, int]

FAR = 1e9  # a deadline no test reaches by the real clock


def in_python(search: EndgameSearch, layouts: list[int]) -> Outcome:
    """The Python recursion from the root, as best_move runs it without the C search."""
    try:
        value, cell = search._value(tuple(sorted(layouts)), 0, root=True)
    except SearchTimeout:
        return None, search.nodes
    return (cell, value), search.nodes


def in_c(search: Search, layouts: list[int], clock: Callable[[], float] = time.perf_counter) -> Outcome:
    try:
        found = search.best_move(layouts, clock)
    except Timeout:
        return None, search.nodes
    return found, search.nodes


def layouts_of(board: Board) -> list[int]:
    found = list_layouts(read_position(board), board.mines or 0)
    assert found is not None
    return found


def both(board: Board, max_nodes: int = MAX_NODES, layouts: list[int] | None = None) -> tuple[Outcome, Outcome, int]:
    """(Python's outcome, C's outcome, unknown cells) on one board, each search fresh."""
    pos = read_position(board)
    if layouts is None:
        layouts = layouts_of(board)
    python = EndgameSearch(pos, FAR, max_nodes)
    c = Search(python.around, len(pos.unknown), FAR, max_nodes)
    return in_python(python, layouts), in_c(c, layouts), len(pos.unknown)


def fresh_c(board: Board, deadline: float = FAR, max_nodes: int = MAX_NODES) -> Search:
    pos = read_position(board)
    return Search(EndgameSearch(pos, FAR).around, len(pos.unknown), deadline, max_nodes)


def unflagged(board: Board) -> Board:
    """The board with its flags taken off: the flagged mines become unknown cells that are mines in every layout,
    which leaves the search the same and its bitsets wider."""
    return Board(board.rows, board.cols, tuple(HIDDEN if ch == FLAG else ch for ch in board.cells), board.mines)


@cache
def late_positions(rows: int, cols: int, mines: int, games: int) -> tuple[Board, ...]:
    """Boards the solver met in simulated games with 2 to MAX_LAYOUTS layouts left: where it may search."""
    spec = GameSpec(rows, cols, mines)
    found: list[Board] = []

    def decide(board: Board, rules: Rules, rng: random.Random) -> Decision:
        if board.cells.count(HIDDEN) < rows * cols:  # not the opening click
            layouts = list_layouts(read_position(board), mines)
            if layouts is not None and len(layouts) >= 2:
                found.append(board)
        return choose_move(board, board.mines, rules, time_limit=spec.time_limit, rng=rng)

    for index in range(games):
        play_game(spec, 2026, index, decide=decide)
    return tuple(found)


@cache
def expert_positions() -> tuple[tuple[Board, int], ...]:
    """Late positions of 25 simulated expert games, each with the nodes of its search (up to 3000)."""
    return tuple((board, both(board, 3000)[0][1]) for board in late_positions(16, 30, 99, 25))


def heaviest() -> Board:
    return max(expert_positions(), key=lambda found: found[1])[0]


def test_random_small_positions_search_alike() -> None:
    """Small boards from real random games, flags or not, and each search cut short at a random node."""
    rng = random.Random(21)
    compared = cut = 0
    while compared < 300:
        board = random_position(rng, max_unknown=rng.choice([8, 14, 20]), flags=rng.random() < 0.5)
        if list_layouts(read_position(board), board.mines or 0) is None:
            continue  # more than MAX_LAYOUTS: the solver would not search
        python, c, _n = both(board)
        assert c == python
        compared += 1
        nodes = python[1]
        if nodes > 1:
            budget = rng.randrange(1, nodes)
            python, c, _n = both(board, budget)
            assert c == python == (None, budget + 1)
            cut += 1
    assert cut > 30


def test_layouts_given_twice_or_out_of_order_search_alike() -> None:
    """The layouts are sorted as Python ints and a layout given twice stays twice (the Python tuple holds it so)."""
    rng = random.Random(22)
    for _ in range(60):
        board = random_position(rng, max_unknown=12)
        layouts = list_layouts(read_position(board), board.mines or 0)
        assert layouts is not None
        mixed = layouts + rng.sample(layouts, rng.randint(0, len(layouts)))
        rng.shuffle(mixed)
        python, c, _n = both(board, layouts=mixed)
        assert c == python


def test_late_expert_positions_search_alike() -> None:
    """Positions from simulated expert games as the solver met them, then with their flags off (past 64 cells)."""
    boards = late_positions(16, 30, 99, 25)
    assert len(boards) > 60
    searched = 0
    narrowest = 480
    for board in boards:
        python, c, _n = both(board)
        assert c == python
        searched += python[0] is not None
        bare, c_bare, n = both(unflagged(board), 2000)
        assert c_bare == bare
        narrowest = min(narrowest, n)
        found, bare_found = python[0], bare[0]
        if python[1] <= 2000 and found is not None and bare_found is not None and found[0] >= 0:
            # the mines known or not, it is the same search: the same cell, value and nodes
            cell = read_position(board).unknown[found[0]]
            assert read_position(unflagged(board)).unknown[bare_found[0]] == cell
            assert (bare_found[1], bare[1]) == (found[1], python[1])
    assert searched > 40
    assert narrowest > 64


def test_positions_of_several_words_search_alike() -> None:
    """Bigger boards with their flags off: 130 to 250 unknown cells, three and four words a bitset."""
    sizes = []
    for board in late_positions(30, 30, 180, 6):
        python, c, n = both(unflagged(board), 3000)
        assert c == python
        sizes.append(n)
    assert sum(n > 128 for n in sizes) > 10
    assert max(sizes) > 192


def test_the_node_budget_stops_both_at_the_same_node() -> None:
    """The budget cuts the big searches of real games anywhere in their trees, and both stop at the same node."""
    heavy = [(board, nodes) for board, nodes in expert_positions() if nodes > 500]
    assert len(heavy) >= 3
    rng = random.Random(23)
    for board, nodes in heavy[:8]:
        for budget in [1, 63, 64, 65, *rng.sample(range(2, nodes), 6)]:
            python, c, _n = both(board, budget)
            assert c == python == (None, budget + 1)
        python, c, _n = both(unflagged(board), 444)
        assert c == python == (None, 445)


def _ticking(start: float, step: float) -> tuple[Callable[[], float], list[float]]:
    """A clock reading ``start``, then ``step`` later at each call, and the readings it gave."""
    readings: list[float] = []

    def clock() -> float:
        readings.append(start + step * len(readings))
        return readings[-1]

    return clock, readings


def test_a_deadline_passed_stops_both_at_the_same_check(monkeypatch: pytest.MonkeyPatch) -> None:
    """The clock is read every 64 nodes, and the search stops at the first reading past its deadline."""
    board = heaviest()
    pos, layouts = read_position(board), layouts_of(board)
    assert max(nodes for _board, nodes in expert_positions()) > 64 * 7
    for deadline in (0.5, 1.5, 5.5):  # readings 0, 1, 2...: the search stops at the 1st, 2nd, 6th reading past it
        python_clock, python_readings = _ticking(0.0, 1.0)
        monkeypatch.setattr(endgame_module.time, "perf_counter", python_clock)
        python = in_python(EndgameSearch(pos, deadline), layouts)
        monkeypatch.undo()
        c_clock, c_readings = _ticking(0.0, 1.0)
        c = in_c(fresh_c(board, deadline), layouts, c_clock)
        readings = int(deadline + 1.5)
        assert c == python == (None, 64 * readings)
        assert c_readings == python_readings == [float(t) for t in range(readings)]


def test_an_error_in_the_clock_comes_out_of_the_c_search() -> None:
    """As it would from the Python search, at the first reading."""
    board = heaviest()

    def broken() -> float:
        raise ZeroDivisionError

    search = fresh_c(board)
    with pytest.raises(ZeroDivisionError):
        search.best_move(layouts_of(board), broken)
    assert search.nodes == 64


def test_the_memo_lasts_from_one_best_move_to_the_next() -> None:
    """As the Python dict does: a search again is one node (the root, never looked up), a part of it is found,
    and a search cut by the budget leaves the budget spent."""
    boards = [board for board, nodes in expert_positions() if 20 < nodes < 3000]
    assert len(boards) >= 5
    rng = random.Random(24)
    for board in boards[:10]:
        pos, layouts = read_position(board), layouts_of(board)
        python = EndgameSearch(pos, FAR)
        c = Search(python.around, len(pos.unknown), FAR, MAX_NODES)
        first = in_python(python, layouts)
        assert in_c(c, layouts) == first
        again = in_python(python, layouts)
        assert in_c(c, layouts) == again and again == (first[0], first[1] + 1)
        part = rng.sample(layouts, len(layouts) // 2 + 1)
        assert in_c(c, part) == in_python(python, part)
    board = boards[0]
    pos, layouts = read_position(board), layouts_of(board)
    budget = both(board)[0][1] // 2
    python = EndgameSearch(pos, FAR, budget)
    c = Search(python.around, len(pos.unknown), FAR, budget)
    for _ in range(2):  # past the budget, the second search stops at its first new node
        assert in_c(c, layouts) == in_python(python, layouts)


def test_endgame_search_plays_through_the_c_search(monkeypatch: pytest.MonkeyPatch) -> None:
    """EndgameSearch.best_move with the C search: the same cell and value, its nodes, its timeout, its memo."""
    monkeypatch.setattr(endgame_module, "_ENDGAME", _endgame)
    for board in late_positions(16, 30, 99, 25)[:40]:
        pos, layouts = read_position(board), layouts_of(board)
        python = EndgameSearch(pos, FAR)
        want = in_python(python, layouts)
        search = EndgameSearch(pos, FAR)
        if want[0] is None:
            with pytest.raises(SearchTimeout):
                search.best_move(layouts)
        else:
            cell, value = want[0]
            assert search.best_move(layouts) == (pos.unknown[cell], value)
        assert search.native is not None and search.nodes == want[1]
        assert not search.memo  # nothing was searched in Python
    board = Board.from_rows([".1..."], mines=2)
    pos, layouts = read_position(board), layouts_of(board)
    with pytest.raises(SearchTimeout):
        EndgameSearch(pos, FAR, max_nodes=1).best_move(layouts)
    search = EndgameSearch(pos, FAR)
    first = search.best_move(layouts)
    nodes = search.nodes
    assert search.best_move(layouts) == first and search.nodes == nodes + 1  # the rest from the memo
    # a search begun in Python (win_cost calls _value) goes on in Python, with its memo
    search = EndgameSearch(pos, FAR)
    search._value(tuple(sorted(layouts)), 0)
    assert search.best_move(layouts) == first and search.native is None


def test_the_compiled_solver_searches_in_c() -> None:
    assert (endgame_module._ENDGAME is not None) == is_compiled()


def test_odd_inputs_give_python_s_answer_or_a_clear_error() -> None:
    """No layouts, one layout, no cells: what the Python search says; layouts or masks that cannot be: errors."""
    board = Board.from_rows(["1..", "..."], mines=1)
    pos = read_position(board)
    python = EndgameSearch(pos, FAR)
    around = python.around
    for layouts in ([], [0b10]):
        assert (
            in_c(Search(around, 5, FAR, 10), layouts) == in_python(EndgameSearch(pos, FAR), layouts) == ((-1, 1.0), 1)
        )
    assert Search([], 0, FAR, 10).best_move([0, 0], time.perf_counter) == (-1, 1.0)
    search = Search(around, 5, FAR, 10)
    for bad in (1 << 5, -1, 1 << 70):
        with pytest.raises(ValueError):
            search.best_move([0, bad], time.perf_counter)
    with pytest.raises(TypeError):
        search.best_move([0, 1.0], time.perf_counter)  # type: ignore[list-item]
    with pytest.raises(ValueError):
        Search(around[:4], 5, FAR, 10)  # one mask a cell
    with pytest.raises(ValueError):
        Search([0b10, 0], 2, FAR, 10)  # cell 0 sees cell 1, not the other way
    with pytest.raises(ValueError):
        Search([(1 << 17) - 2] + [1] * 16, 17, FAR, 10)  # 16 neighbours: Python's four-bit keys would run together
    wide = [0] * 200
    wide[3], wide[190] = 1 << 190, 1 << 3
    assert Search(wide, 200, FAR, 10).best_move([1 << 190, 1 << 199], time.perf_counter) == (190, 0.5)
