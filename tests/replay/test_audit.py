"""The misread audit: boards read during a game checked against the layout its last board reveals."""

import json
import random

import pytest

from autoplay.board.rules import Rules
from autoplay.board.textformat import format_board, parse_board
from autoplay.cli.main import main
from autoplay.replay.audit import audit_recording, truth_from_final
from autoplay.replay.recording import read_recording
from autoplay.sim.game import Game
from autoplay.solver import choose_move

from .fakes import write_recording


def play_recorded(seed: int, rows: int = 9, cols: int = 9, mines: int = 10) -> tuple[list[dict], dict]:
    """A simulated game written as a recording would hold it: one decision per board, then the game record."""
    rules = Rules(first_click="zero")
    game, rng = Game(rows, cols, mines, rules, random.Random(seed)), random.Random(seed)
    records = []
    while not game.over:
        board = game.board()
        decision = choose_move(board, rules=rules, rng=rng)
        records.append(
            {
                "type": "decision",
                "game": 1,
                "frame": f"frames/{len(records) + 1:06d}.png",
                "board": format_board(board),
                "guess": decision.guess,
                "reason": decision.reason,
                "moves": [
                    {"action": m.action, "row": m.row, "col": m.col, "probability": m.probability}
                    for m in decision.moves
                ],
            }
        )
        for move in decision.moves:
            (game.reveal if move.action == "reveal" else game.flag)(move.row, move.col)
    result = "won" if game.won else "lost"
    final = {"type": "game", "game": 1, "result": result, "final_board": format_board(game.board())}
    return records, final


@pytest.mark.parametrize("seed", range(12))
def test_faithful_recordings_audit_clean(tmp_path, seed):
    records, final = play_recorded(seed)
    report = audit_recording(read_recording(write_recording(tmp_path / "rec", {}, records + [final])))
    assert report.games == 1 and report.boards == len(records) and not report.unverifiable
    assert report.clean, report.to_dict()
    assert report.cells > 0


def first_with(records: list[dict], wanted: str) -> tuple[int, int, int]:
    """(record index, row, col) of the first recorded cell in ``wanted``."""
    for k, record in enumerate(records):
        rows = record["board"].splitlines()[1:]
        for r, line in enumerate(rows):
            for c, ch in enumerate(line):
                if ch in wanted:
                    return k, r, c
    raise AssertionError(f"no cell in {wanted!r}")


def set_cell(text: str, r: int, c: int, ch: str) -> str:
    lines = text.splitlines()
    row = list(lines[r + 1])
    row[c] = ch
    lines[r + 1] = "".join(row)
    return "\n".join(lines) + "\n"


def test_a_misread_number_and_a_wrong_flag_are_named(tmp_path):
    records, final = next(
        (r, f) for r, f in map(play_recorded, range(50)) if any("F" in x["board"] for x in r) and len(r) > 3
    )
    k, r, c = first_with(records, "12345678")
    shown = records[k]["board"].splitlines()[r + 1][c]
    records[k]["board"] = set_cell(records[k]["board"], r, c, str((int(shown) % 8) + 1))
    j, _fr, _fc = first_with(records, "F")
    k2, r2, c2 = first_with(records[j:], "12345678")
    records[j + k2]["board"] = set_cell(records[j + k2]["board"], r2, c2, "F")
    report = audit_recording(read_recording(write_recording(tmp_path / "rec", {}, records + [final])))
    named = {(m.frame, m.row, m.col) for m in report.misreads}
    assert (records[k]["frame"].split("/")[-1], r, c) in named
    assert (records[j + k2]["frame"].split("/")[-1], r2, c2) in named
    assert len(report.misreads) == 2 and not report.clean


def test_a_certain_reveal_of_a_mine_is_a_wrong_move(tmp_path):
    records, final = play_recorded(3)
    truth = truth_from_final(parse_board(final["final_board"]), final["result"])
    mine = truth.index("*")
    records[0]["guess"] = False
    records[0]["moves"] = [{"action": "reveal", "row": mine // 9, "col": mine % 9, "probability": 0.0}]
    report = audit_recording(read_recording(write_recording(tmp_path / "rec", {}, records + [final])))
    assert len(report.wrong_moves) == 1 and (report.wrong_moves[0].row, report.wrong_moves[0].col) == divmod(mine, 9)


def test_an_end_that_does_not_add_up_is_unverifiable_not_clean_by_accident(tmp_path):
    records, final = play_recorded(5)
    final["final_board"] = final["final_board"].replace("mines=10", "mines=11")
    no_final = {"type": "game", "game": 2, "result": "lost"}
    report = audit_recording(read_recording(write_recording(tmp_path / "rec", {}, records + [final, no_final])))
    assert report.games == 0 and report.boards == 0 and len(report.unverifiable) == 2
    with pytest.raises(ValueError, match="not won or lost"):
        truth_from_final(read_recording(write_recording(tmp_path / "x", {}, records)).decisions[0].board, "stopped")


def test_cli_audit_exit_codes(tmp_path, capsys):
    records, final = play_recorded(7)
    clean = write_recording(tmp_path / "clean", {"skin": "gnome-mines"}, records + [final])
    assert main(["replay", str(clean), "--audit", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["misreads"] == 0 and data["games_audited"] == 1 and data["boards"] == len(records)
    k, r, c = first_with(records, "0")
    records[k]["board"] = set_cell(records[k]["board"], r, c, "1")
    dirty = write_recording(tmp_path / "dirty", {"skin": "gnome-mines"}, records + [final])
    assert main(["replay", str(dirty), "--audit"]) == 1
    assert "1 misread cell(s)" in capsys.readouterr().out


def test_cells_no_template_matched_are_not_counted_as_reads(tmp_path):
    """The decoder's best guess for an unknown tile is recorded, but it was played as covered: not a misread."""
    records, final = next((r, f) for r, f in map(play_recorded, range(50)) if f["result"] == "won" and len(r) > 3)
    k, r, c = first_with(records, "12345678")
    shown = records[k]["board"].splitlines()[r + 1][c]
    records[k]["board"] = set_cell(records[k]["board"], r, c, str((int(shown) % 8) + 1))
    records[k]["unknown"] = [[r, c]]
    # a number of the final board no template matched: its best guess is wrong too
    fr, fc = next(
        (i, j)
        for i, line in enumerate(final["final_board"].splitlines()[1:])
        for j, ch in enumerate(line)
        if ch in "123"
    )
    true_number = final["final_board"].splitlines()[fr + 1][fc]
    final["final_board"] = set_cell(final["final_board"], fr, fc, str(int(true_number) % 3 + 1))
    final["final_unknown"] = [[fr, fc]]
    report = audit_recording(read_recording(write_recording(tmp_path / "rec", {}, records + [final])))
    assert report.games == 1 and report.clean, report.to_dict()
    # the same wrong letters without the record of them being unknown are misreads
    del records[k]["unknown"], final["final_unknown"]
    report = audit_recording(read_recording(write_recording(tmp_path / "rec2", {}, records + [final])))
    assert not report.clean


def test_an_unknown_final_cell_that_was_a_mine_makes_the_game_unverifiable(tmp_path):
    records, final = next((r, f) for r, f in map(play_recorded, range(50)) if f["result"] == "won")
    fr, fc = next(
        (i, j)
        for i, line in enumerate(final["final_board"].splitlines()[1:])
        for j, ch in enumerate(line)
        if ch in ".F"
    )
    final["final_unknown"] = [[fr, fc]]  # a covered cell (a mine) taken for an unknown number: one mine short
    report = audit_recording(read_recording(write_recording(tmp_path / "rec", {}, records + [final])))
    assert report.games == 0 and len(report.unverifiable) == 1


def test_a_malformed_unknown_list_is_a_format_error(tmp_path):
    from autoplay.replay.recording import RecordingFormatError

    records, final = play_recorded(1)
    records[0]["unknown"] = [[1, "x"]]
    with pytest.raises(RecordingFormatError, match="row, col"):
        read_recording(write_recording(tmp_path / "rec", {}, records + [final]))
