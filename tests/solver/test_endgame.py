"""The exhaustive endgame: its layouts match the counting engine and its values are exact on known cases."""

from __future__ import annotations

import random
import time

import pytest

from autoplay.board.model import Board
from autoplay.solver import analyze, choose_move
from autoplay.solver.endgame import EndgameSearch, SearchTimeout, _split_by_numbers, list_layouts
from autoplay.solver.position import read_position
from tests.solver.brute import random_position


def test_layouts_are_exactly_the_counted_solutions():
    rng = random.Random(31)
    for _ in range(120):
        board = random_position(rng, flags=rng.random() < 0.5)
        pos = read_position(board)
        layouts = list_layouts(pos, board.mines, limit=10**6)
        assert layouts is not None
        assert len(layouts) == len(set(layouts)) == analyze(board).solutions


def test_layout_listing_stops_past_the_limit():
    board = Board.from_rows(["1.........", ".........."], mines=4)
    assert list_layouts(read_position(board), 4, limit=10) is None


def win_chance(board: Board) -> float:
    pos = read_position(board)
    return EndgameSearch(pos, time.perf_counter() + 10).best_move(list_layouts(pos, board.mines))[1]


def test_a_lone_fifty_fifty_is_won_half_the_time():
    assert win_chance(Board.from_rows(["..", "11", "00"], mines=1)) == pytest.approx(0.5)


def test_two_independent_fifty_fifties_multiply():
    board = Board.from_rows(["..", "11", "00", "11", ".."], mines=2)
    assert win_chance(board) == pytest.approx(0.25)


def test_a_number_that_tells_nothing_leaves_a_fifty_fifty():
    # three cells around a corner 1 hold the one mine; whichever is revealed shows 1, so the last two are 50/50
    assert win_chance(Board.from_rows(["1.", ".."], mines=1)) == pytest.approx(1 / 3)


def test_search_prefers_the_cell_whose_number_decides_the_rest():
    # (0,0)/(0,2) share one mine (the 1 at (0,1)); (0,3)/(0,4) share the other.  Revealing (0,2) or (0,3)
    # survives half the time and then its number settles everything; (0,0) or (0,4) would leave a 50/50.
    board = Board.from_rows([".1..."], mines=2)
    pos = read_position(board)
    index, value = EndgameSearch(pos, time.perf_counter() + 10).best_move(list_layouts(pos, 2))
    assert value == pytest.approx(0.5)
    assert divmod(index, 5) in {(0, 2), (0, 3)}


def test_choose_move_uses_the_search_late_in_a_game():
    decision = choose_move(Board.from_rows([".1..."], mines=2))
    assert decision.guess and "endgame" in decision.reason
    assert (decision.moves[0].row, decision.moves[0].col) in {(0, 2), (0, 3)}


def test_search_gives_up_past_its_node_budget_whatever_the_clock_says():
    board = Board.from_rows([".1..."], mines=2)
    pos = read_position(board)
    with pytest.raises(SearchTimeout):
        EndgameSearch(pos, time.perf_counter() + 10, max_nodes=1).best_move(list_layouts(pos, 2))


def test_positions_differing_only_in_cells_that_can_tell_nothing_are_searched_once():
    # one mine at (0,0) or (0,2) beside the 1, the other somewhere in (0,3)-(0,6).  Keep the layouts with the
    # mines at (0,0) and at (0,5) or (0,6): (0,2) is then safe and shows 1 in all of them, so whether it has
    # been revealed cannot change the value, and the search must not count that position twice.
    board = Board.from_rows([".1....."], mines=2)
    pos = read_position(board)
    search = EndgameSearch(pos, time.perf_counter() + 10)
    bit = {j: 1 << k for k, j in enumerate(pos.unknown)}
    layouts = tuple(s for s in list_layouts(pos, 2) if s & bit[0] and s & (bit[5] | bit[6]))
    assert len(layouts) == 2
    fresh, _ = search._value(layouts, 0)
    nodes = search.nodes
    again, _ = search._value(layouts, bit[2])
    assert again == fresh == 1.0  # (0,4) is safe in both and its number tells them apart
    assert search.nodes == nodes  # a memo hit, not a second search


def test_split_by_numbers_groups_layouts_as_a_direct_count_does():
    """The split the search uses (its own bit count in the compiled build) against grouping by ``int.bit_count``."""
    rng = random.Random(5)
    for _ in range(300):
        width = rng.choice([8, 40, 61, 62, 63, 64, 90])  # across the size where compiled ints stop fitting a word
        layouts = tuple(sorted({rng.getrandbits(width) for _ in range(rng.randint(1, 60))}))
        # up to three revealed cells' neighbourhoods, at most eight cells each
        masks = sorted(
            {sum(1 << b for b in rng.sample(range(width), rng.randint(1, 8))) for _ in range(rng.randint(1, 3))}
        )
        mined = 1 << rng.randrange(width) if rng.random() < 0.5 else 0
        expected: dict[tuple[int, ...], list[int]] = {}
        for s in layouts:
            if not s & mined:
                expected.setdefault(tuple((s & m).bit_count() for m in masks), []).append(s)
        assert _split_by_numbers(layouts, masks, mined) == list(expected.values())
