"""The insight commands end to end through ``main([...])``: explanations, grades, generated boards, user errors."""

from __future__ import annotations

import json

import pytest

from autoplay.cli.main import main


def write(tmp_path, text: str, name: str = "board.txt") -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_solve_explain_prints_the_proof(tmp_path, capsys):
    path = write(tmp_path, "mines=2\n000\n121\n...\n")
    assert main(["solve", path, "--explain"]) == 0
    out = capsys.readouterr().out
    assert "why:" in out
    assert "flag (2,0): mine by 1-2 - 2 pieces of information: (1,1)=2, (1,2)=1" in out


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
