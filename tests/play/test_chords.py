"""Chords: one press on a satisfied number for the batch's reveals around it, and never a cell the batch leaves."""

from __future__ import annotations

import pytest

from autoplay.board.textformat import parse_board
from autoplay.play.chords import in_press_order, plan_presses
from autoplay.solver import Move
from tests.play.fakes import FakeTable
from tests.play.test_player import make_player

# a 1 at (1, 1) with its mine flagged at (0, 0): its other covered neighbours are safe
BOARD = parse_board("F..\n.1.\n...")
AROUND = [(0, 1), (0, 2), (1, 0), (1, 2), (2, 0), (2, 1), (2, 2)]


def reveals(cells: list[tuple[int, int]]) -> list[Move]:
    return [Move("reveal", r, c, 0.0) for r, c in cells]


def test_a_chord_makes_every_reveal_around_a_satisfied_number_with_one_press():
    presses = plan_presses(BOARD, reveals(AROUND), "middle", flagged={(0, 0)})
    assert [(p.row, p.col, p.button) for p in presses] == [(1, 1, "middle")]
    assert presses[0].moves == tuple(range(len(AROUND)))


@pytest.mark.parametrize(
    "case, board, moves, flagged",
    [
        ("a covered neighbour the batch does not open", BOARD, reveals(AROUND[:-1]), {(0, 0)}),
        ("a flag play did not place", BOARD, reveals(AROUND), set()),
        ("a question mark beside the number", parse_board("F?.\n.1.\n..."), reveals(AROUND[1:]), {(0, 0)}),
        ("flags short of the number", parse_board("F..\n.2.\n..."), reveals(AROUND), {(0, 0)}),
        ("no button named", BOARD, reveals(AROUND), {(0, 0)}),
    ],
)
def test_no_chord_where_it_could_open_anything_else(case, board, moves, flagged):
    chord = None if case == "no button named" else "middle"
    presses = plan_presses(board, moves, chord, flagged=flagged)
    assert all(p.button == "left" and len(p.moves) == 1 for p in presses), case
    assert [(p.row, p.col) for p in presses] == [(m.row, m.col) for m in moves]


def test_a_lone_reveal_beside_a_satisfied_number_is_a_plain_press():
    board = parse_board("F.\n12")  # the 1 at (1, 0) has its flag and one covered neighbour: a press is a press
    moves = reveals([(0, 1)])
    assert [(p.row, p.col, p.button) for p in plan_presses(board, moves, "middle", {(0, 0)})] == [(0, 1, "left")]


def test_each_press_s_moves_follow_one_another_so_a_cut_batch_leaves_a_prefix():
    board = parse_board("F1..\n11..\n....")
    moves = [Move("reveal", 0, 2, 0.0), Move("reveal", 2, 3, 0.0), Move("reveal", 1, 2, 0.0), Move("flag", 2, 0, 1.0)]
    ordered, presses = in_press_order(board, moves, "middle", {(0, 0)})
    assert [(m.row, m.col) for m in ordered] == [(2, 0), (0, 2), (1, 2), (2, 3)]
    assert [(p.row, p.col, p.button, p.moves) for p in presses] == [
        (2, 0, "right", (0,)),  # the batch's flags first: a chord may count them
        (0, 1, "middle", (1, 2)),
        (2, 3, "left", (3,)),
    ]


def test_a_flag_pressed_earlier_in_the_batch_counts_for_a_chord():
    board = parse_board("...\n.1.\n...")  # the batch flags (0, 0): the 1's other neighbours are safe
    moves = reveals(AROUND) + [Move("flag", 0, 0, 1.0)]
    presses = plan_presses(board, moves, "middle", flagged=())
    assert [(p.row, p.col, p.button) for p in presses] == [(0, 0, "right"), (1, 1, "middle")]


@pytest.mark.parametrize("seed", [3, 11, 12])
def test_games_with_chords_end_as_without_them_in_fewer_presses(seed):
    """The same layouts played twice on the fake table: the same moves and ends, the chords' presses fewer."""
    results = {}
    for chord in (None, "middle"):
        table = FakeTable(16, 16, 40, seed=seed)
        player, backend = make_player(table, chord=chord)
        result = player.play_game(1)
        assert result.result == table.state and backend.stray == []
        assert result.clicks == len(backend.clicks)
        results[chord] = (result, backend)
    (plain, _), (chorded, chorded_backend) = results[None], results["middle"]
    assert chorded.result == plain.result and chorded.moves == plain.moves
    middles = [c for c in chorded_backend.clicks if c[2] == "middle"]
    assert middles, "no chord was pressed"
    assert chorded.clicks < plain.clicks
    assert chorded.retries == 0


def test_a_chord_button_tried_is_confirmed_only_by_its_cells_opening():
    """A game that chords with the middle button: a left press on the number opens nothing and is ruled out, its
    cells are pressed one by one, and the middle button is then found and used."""
    table = FakeTable(16, 16, 40, seed=11)
    player, backend = make_player(table, chord_trials=("left", "middle"))
    result = player.play_game(1)
    assert result.result == table.state and backend.stray == []
    assert player.chord_failed == ["left"] and player.chord_found == "middle"
    assert any(button == "middle" for *_, button in backend.clicks)
    assert result.retries >= 1  # the cells of the left press that opened nothing were pressed again


def test_no_chord_is_found_in_a_game_without_one():
    table = FakeTable(16, 16, 40, seed=11)
    table.chord = lambda row, col: None  # this game ignores chords
    player, _ = make_player(table, chord_trials=("middle", "left"))
    result = player.play_game(1)
    assert result.result == table.state
    assert player.chord_found is None and player.chord_failed == ["middle", "left"]
