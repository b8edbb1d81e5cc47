"""The insight commands end to end through ``main([...])``: explanations, grades, generated boards, user errors."""

from __future__ import annotations

import json

import pytest

from autoplay.board.model import Board
from autoplay.cli.main import main
from tests.solver.test_cli_solve import write  # the same board-file helper as the solve command's tests


def test_solve_explain_prints_the_proof(tmp_path, capsys):
    path = write(tmp_path, "mines=2\n000\n121\n...\n")
    assert main(["solve", path, "--explain"]) == 0
    out = capsys.readouterr().out
    assert "why:" in out
    assert "flag (2,0): mine by 1-2 - 2 pieces of information: (1,1)=2, (1,2)=1" in out
    assert "also certain (for later moves):\nreveal (2,1): safe by 1-2-1 - 3 pieces of information" in out


def test_solve_json_explanations_add_to_each_move_and_change_nothing_else(tmp_path, capsys):
    path = write(tmp_path, "mines=2\n000\n121\n...\n")
    assert main(["solve", path, "--json"]) == 0
    plain = json.loads(capsys.readouterr().out)
    assert main(["solve", path, "--json", "--explain"]) == 0
    explained = json.loads(capsys.readouterr().out)
    for move in explained["moves"]:
        why = move.pop("explanation")
        assert why["kind"] == "certain" and why["pieces"] == 2 and why["pattern"] == "1-2"
    explained["move"].pop("explanation")
    # the middle cell is certain too, though the pair rule's decision leaves it for later: 1-2-1, 3 numbers
    (later,) = explained.pop("also_certain")
    assert (later["action"], later["row"], later["col"]) == ("reveal", 2, 1)
    assert later["explanation"]["pattern"] == "1-2-1" and later["explanation"]["pieces"] == 3
    assert explained == plain


def test_solve_explain_of_a_guess_names_runners_up(tmp_path, capsys):
    path = write(tmp_path, "mines=5\n..F....\n14F....\n02F....\n")
    assert main(["solve", path, "--json", "--explain"]) == 0
    why = json.loads(capsys.readouterr().out)["move"]["explanation"]
    assert why["kind"] == "guess" and why["policy"] == "fifty-fifty" and why["probability"] == 0.5
    assert 2 <= len(why["runners_up"]) <= 3


def test_solve_explain_bad_board_is_one_line(tmp_path, capsys):
    path = write(tmp_path, "12\n3Z\n")
    assert main(["solve", path, "--explain"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "unknown character" in err


def test_grade_a_layout_file(tmp_path, capsys):
    path = write(tmp_path, "# first click: (0,0)\nmines=2\n000\n121\n*.*\n")
    assert main(["grade", path, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["moves_by_level"]["2"] == 2 and out["moves_by_level"]["1"] == 1
    assert out["no_guess"] and out["guesses"] == 0 and out["first_click"] == [0, 0]


def test_grade_dealt_games_text(capsys):
    assert main(["grade", "--preset", "beginner", "--seed", "2", "--games", "3"]) == 0
    out = capsys.readouterr().out
    assert "beginner 9x9/10" in out and "moves by level" in out and "of 3 games needed no guess" in out


def test_generate_prints_a_board_the_grader_reads_back(tmp_path, capsys):
    assert main(["generate", "--preset", "beginner", "--no-guess", "--seed", "4"]) == 0
    captured = capsys.readouterr()
    assert "seconds per board" in captured.err
    path = write(tmp_path, captured.out)
    assert main(["grade", path, "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["no_guess"]


def test_generate_into_a_folder_with_min_level(tmp_path, capsys):
    out_dir = tmp_path / "boards"
    assert (
        main(
            [
                "generate",
                "--preset",
                "beginner",
                "--no-guess",
                "--min-level",
                "2",
                "--count",
                "2",
                "--out",
                str(out_dir),
                "--json",
            ]
        )
        == 0
    )
    report = json.loads(capsys.readouterr().out)
    assert len(report["boards"]) == 2 and sorted(p.name for p in out_dir.iterdir()) == [
        "board-001.txt",
        "board-002.txt",
    ]
    for board in report["boards"]:
        levels = board["grade"]["moves_by_level"]
        assert any(n for level, n in levels.items() if level != "1")


@pytest.mark.parametrize(
    "argv, message",
    [
        (["generate", "--no-guess", "--min-level", "7"], "--min-level must be one of"),
        (["generate", "--min-level", "2"], "--min-level needs --no-guess"),
        (["generate", "--count", "0"], "must be 1 or more"),
        (["grade", "--max-numbers", "0"], "--max-numbers must be 1 to 6"),
        (["grade", "missing-board.txt"], "no such file"),
    ],
)
def test_bad_options_are_one_line_with_exit_2(argv, message, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and message in err


@pytest.mark.parametrize(
    "text, message",
    [
        ("mines=1\n01.\n01.\n", "shows its mines as *"),
        ("mines=1\n02*\n01.\n", "(0,1) shows 2 but 1 mine(s) touch it"),
        ("# first click: (0,2)\nmines=1\n01*\n01.\n", "first click (0,2) is on a mine"),
    ],
)
def test_bad_layouts_are_one_line_with_exit_2(tmp_path, capsys, text, message):
    assert main(["grade", write(tmp_path, text)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and message in err


def test_the_same_seed_generates_the_same_board(capsys):
    boards = []
    for _ in range(2):
        assert main(["generate", "--preset", "intermediate", "--no-guess", "--seed", "11", "--min-level", "2"]) == 0
        text = capsys.readouterr().out
        boards.append([line for line in text.splitlines() if not line.startswith("# generated in")])
    assert boards[0] == boards[1]
    assert main(["generate", "--preset", "intermediate", "--no-guess", "--seed", "12", "--min-level", "2"]) == 0
    other = Board.from_text(capsys.readouterr().out)
    assert other.cells != Board.from_text("\n".join(boards[0])).cells
