"""``solve``, ``analyze``, ``simulate`` and ``generate`` with --max-per-cell, end to end through the CLI."""

import json

import pytest

from autoplay.board.multiformat import parse_multi_board
from autoplay.cli.main import main

BOARD = "mines=14\nmax-per-cell=2\n. . . . .\n. . . . .\n. 10 7 . .\n. . 4 2 .\n. . . . .\n"


def _run(capsys, *argv):
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_solve_json_gives_chance_of_a_mine_and_expected_count(tmp_path, capsys):
    path = tmp_path / "b.txt"
    path.write_text(BOARD)
    code, out, _ = _run(capsys, "solve", str(path), "--json")
    result = json.loads(out)
    assert code == 0 and result["max_per_cell"] == 2
    p, e = result["probabilities"], result["expected_mines"]
    assert p[2][1] is None and e[2][1] is None  # a revealed number
    assert p[3][1] == 1.0  # the 4 at (3,2) after the 10: (3,1) must hold a mine in every layout
    for r in range(5):
        for c in range(5):
            if p[r][c] is not None:
                assert 0 <= p[r][c] <= e[r][c] <= 2  # P(x >= 1) <= E[x] when x <= 2
    total = sum(v for row in e for v in row if v is not None)
    assert total == pytest.approx(14)
    move = result["move"]
    assert move["probability"] == min(v for row in p for v in row if v is not None)


def test_old_files_and_the_one_mine_output_are_unchanged(tmp_path, capsys):
    path = tmp_path / "b.txt"
    path.write_text("mines=10\n..1000...\n..2100...\n.........\n")
    _, plain, _ = _run(capsys, "solve", str(path), "--json")
    _, one, _ = _run(capsys, "solve", str(path), "--json", "--max-per-cell", "1")
    assert json.loads(plain) == json.loads(one)
    assert json.loads(plain)["expected_mines"] == json.loads(plain)["probabilities"]


def test_text_output_and_refusals(tmp_path, capsys):
    path = tmp_path / "b.txt"
    path.write_text(BOARD)
    code, out, _ = _run(capsys, "solve", str(path))
    assert code == 0 and "expected mines:" in out and "   10    7" in out
    code, _, err = _run(capsys, "solve", str(path), "--explain")
    assert code == 2 and len(err.strip().splitlines()) == 1
    code, _, err = _run(capsys, "solve", str(path), "--max-per-cell", "0")
    assert code == 2 and "--max-per-cell" in err
    code, out, _ = _run(capsys, "analyze", str(path))
    assert code == 0 and "subsystems" in out and "12->12288" in out


def _simulate_doubles(capsys, *extra):
    """``simulate`` on beginner with up to two mines a cell, one process."""
    return _run(capsys, "simulate", "--preset", "beginner", "--max-per-cell", "2", "--jobs", "1", *extra)


def test_generate_deals_the_variant_and_simulate_plays_it(tmp_path, capsys):
    code, out, _ = _run(
        capsys, "generate", "--preset", "beginner", "--max-per-cell", "3", "--seed", "5", "--count", "3"
    )
    assert code == 0
    for text in out.strip().split("\n\n"):
        board = parse_multi_board(text)
        assert board.max_per_cell == 3 and sum(board.mines_at(i) for i in range(81)) == 10
    layouts = tmp_path / "l.txt"
    assert _simulate_doubles(capsys, "--games", "30", "--write-layouts", str(layouts))[0] == 0
    code, out, _ = _simulate_doubles(capsys, "--layouts", str(layouts), "--json")
    dealt = json.loads(out)
    code2, out2, _ = _simulate_doubles(capsys, "--games", "30", "--json")
    assert code == code2 == 0 and json.loads(out2)["wins"] == dealt["wins"] and dealt["errors"] == 0
    assert dealt["wins"] >= 15  # 10 mines on 81 cells: most games are won


def test_a_doubled_mine_in_a_layout_file(tmp_path, capsys):
    path = tmp_path / "l.txt"
    path.write_text("80 80\n")
    per_game = tmp_path / "g.txt"
    code, _, _ = _simulate_doubles(capsys, "--layouts", str(path), "--json", "--per-game", str(per_game))
    assert code == 0 and per_game.read_text() == "won\n"
    code, _, err = _run(capsys, "simulate", "--preset", "beginner", "--layouts", str(path), "--jobs", "1")
    assert code == 2 and "at most 1" in err
