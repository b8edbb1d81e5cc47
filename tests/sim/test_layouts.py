"""Playing given mine layouts: the same games as a seeded run, game by game, and clear refusals of bad files."""

import json
import random

import pytest

from autoplay.board.rules import Rules
from autoplay.cli.main import main
from autoplay.errors import BoardFormatError
from autoplay.sim.game import Game
from autoplay.sim.layouts import deal_layout, parse_layouts
from autoplay.sim.runner import GameSpec, game_rng, play_game


def _simulate(capsys, *extra):
    code = main(["simulate", "--preset", "beginner", "--jobs", "1", "--seed", "4", "--json", *extra])
    out = capsys.readouterr()
    return code, out


def test_written_layouts_replay_the_seeded_games_game_by_game(tmp_path, capsys):
    layouts, dealt_games, replayed = tmp_path / "l.txt", tmp_path / "a.txt", tmp_path / "b.txt"
    assert (
        main(["simulate", "--preset", "beginner", "--seed", "4", "--games", "60", "--write-layouts", str(layouts)]) == 0
    )
    capsys.readouterr()
    lines = layouts.read_text().splitlines()
    assert len(lines) == 60 and all(len(line.split()) == 10 for line in lines)
    assert all("0" not in line.split() for line in lines)  # the corner (index 0) is the safe first click
    code, out = _simulate(capsys, "--games", "60", "--per-game", str(dealt_games))
    seeded = json.loads(out.out)
    code2, out2 = _simulate(capsys, "--layouts", str(layouts), "--per-game", str(replayed))
    from_file = json.loads(out2.out)
    assert code == code2 == 0
    assert from_file["games"] == 60
    assert dealt_games.read_text() == replayed.read_text()
    results = dealt_games.read_text().splitlines()
    assert set(results) <= {"won", "lost"} and results.count("won") == seeded["wins"] == from_file["wins"]
    assert 0 < seeded["wins"] < 60  # beginner, first cell safe: about 90% won, so both outcomes should show


def test_deal_layout_is_the_simulators_own_deal():
    spec = GameSpec(16, 30, 99, Rules("safe"))
    for index in range(5):
        game = Game(16, 30, 99, Rules("safe"), rng=random.Random(game_rng(7, index).getrandbits(64)))
        game.reveal(0, 0)
        assert deal_layout(spec, 7, index) == tuple(i for i, m in enumerate(game.is_mine) if m)


def test_a_layout_is_played_as_given(tmp_path, capsys):
    # one mine in the far corner: the corner start opens everything else, so the game is won;
    # every mine in the last row bar one cell: the game's own end decides, not a counter of the bot
    easy = "80\n"
    path = tmp_path / "l.txt"
    path.write_text(easy)
    per_game = tmp_path / "g.txt"
    code, out = _simulate(capsys, "--layouts", str(path), "--per-game", str(per_game))
    assert code == 0 and json.loads(out.out)["wins"] == 1
    assert per_game.read_text() == "won\n"
    result = play_game(GameSpec(9, 9, 10), 1, 0, layout=(80,))
    assert result.won and result.safe_revealed_pct == 100.0


def test_a_mine_under_the_first_click_is_refused_in_one_line(tmp_path, capsys):
    path = tmp_path / "l.txt"
    path.write_text("5 6 7\n0 1 2\n")
    code, out = _simulate(capsys, "--layouts", str(path))
    assert code == 2
    err = out.err.strip().splitlines()
    assert len(err) == 1 and "game 2" in err[0] and "(0,0)" in err[0] and "first click" in err[0]


def test_opening_rule_keeps_the_neighbours_free_too(tmp_path, capsys):
    path = tmp_path / "l.txt"
    path.write_text("10\n")  # with --rule zero the start is (2,2): (1,1) = index 10 is a neighbour
    code, out = _simulate(capsys, "--layouts", str(path), "--rule", "zero")
    assert code == 2 and "neighbour of the first click" in out.err


@pytest.mark.parametrize(
    "text, words",
    [("1 2 x\n", "whole numbers"), ("81\n", "outside a 9x9"), ("3 3\n", "at most 1"), ("# nothing\n", "no layouts")],
)
def test_bad_layout_lines_name_the_line(text, words):
    with pytest.raises(BoardFormatError, match=words):
        parse_layouts(text, 9, 9)


def test_repeated_cells_hold_several_mines_when_allowed():
    assert parse_layouts("3 3 17\n", 9, 9, max_per_cell=2) == [(3, 3, 17)]
    game = Game(3, 3, 3, Rules("safe"), layout=(4, 4, 8), max_per_cell=2)
    assert game.mine_counts[4] == 2 and game.number(0) == 2 and game.number(5) == 3


def test_more_games_than_layouts_is_a_usage_error(tmp_path, capsys):
    path = tmp_path / "l.txt"
    path.write_text("80\n")
    code, out = _simulate(capsys, "--layouts", str(path), "--games", "3")
    assert code == 2 and "holds 1 layouts" in out.err


def test_layouts_play_the_same_on_two_processes(tmp_path, capsys):
    layouts, one, two = tmp_path / "l.txt", tmp_path / "1.txt", tmp_path / "2.txt"
    main(["simulate", "--preset", "beginner", "--seed", "6", "--games", "24", "--write-layouts", str(layouts)])
    capsys.readouterr()
    for jobs, out in (("1", one), ("2", two)):
        main(["simulate", "--preset", "beginner", "--layouts", str(layouts), "--jobs", jobs, "--per-game", str(out)])
    assert one.read_text() == two.read_text() and len(one.read_text().splitlines()) == 24


def test_a_deeper_guess_search_plays_the_same_layouts(tmp_path, capsys):
    layouts, two, three = tmp_path / "l.txt", tmp_path / "2.txt", tmp_path / "3.txt"
    main(["simulate", "--preset", "intermediate", "--seed", "1", "--games", "12", "--write-layouts", str(layouts)])
    capsys.readouterr()
    for depth, out in (("2", two), ("3", three)):
        args = ["simulate", "--preset", "intermediate", "--layouts", str(layouts), "--jobs", "1", "--json"]
        assert main([*args, "--guess-depth", depth, "--per-game", str(out)]) == 0
        assert json.loads(capsys.readouterr().out)["games"] == 12
    assert len(three.read_text().splitlines()) == len(two.read_text().splitlines()) == 12
