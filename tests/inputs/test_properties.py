"""Attack tests: random mutations of valid inputs give a valid result or a one-line error with its code.

Never an exception that escapes as a traceback. Each property is small (tens of examples, no deadline per
example) so the whole file stays a few seconds; hypothesis keeps the failing example it finds minimal.
"""

from __future__ import annotations

import json
import shutil
import tomllib

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from autoplay.board.model import UNKNOWN_CHARS
from autoplay.board.textformat import parse_board
from autoplay.errors import AutoplayError, BoardFormatError, ContradictionError, ExitCode, UsageError
from autoplay.replay.recording import RecordingFormatError, read_recording
from autoplay.solver import choose_move
from autoplay.vision.skin import skin_from_dict
from autoplay.vision.skin_home import shipped_home

FAST = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])

VALID_BOARD = "mines=10\n# a beginner game\n..1000...\n..2100...\n.........\n"
#: the format's own characters, plus the ones a user's typo or a broken file brings
ALPHABET = ".F?*X012345678" + "9 #=\n\t-ab\x00é"


def one_line(error: AutoplayError) -> bool:
    text = str(error)
    return bool(text.strip()) and "\n" not in text


@st.composite
def mutated(draw: st.DrawFn, text: str, alphabet: str = ALPHABET) -> str:
    """``text`` with a few characters replaced, inserted or deleted, or cut short."""
    chars = list(text)
    for _ in range(draw(st.integers(1, 4))):
        op = draw(st.sampled_from(["replace", "insert", "delete", "cut"]))
        at = draw(st.integers(0, max(0, len(chars) - 1)))
        if op == "replace" and chars:
            chars[at] = draw(st.sampled_from(alphabet))
        elif op == "insert":
            chars.insert(at, draw(st.sampled_from(alphabet)))
        elif op == "delete" and chars:
            del chars[at]
        elif op == "cut":
            chars = chars[:at]
    return "".join(chars)


@FAST
@given(mutated(VALID_BOARD))
def test_board_parser_gives_a_board_or_a_one_line_format_error(text):
    try:
        board = parse_board(text, source="board.txt")
    except BoardFormatError as exc:
        assert exc.exit_code == ExitCode.USAGE and one_line(exc)
        return
    assert board.rows >= 1 and board.cols >= 1


@FAST
@given(mutated(VALID_BOARD, ".F?*X012345678\n"), st.none() | st.integers(0, 40))
def test_solver_moves_only_unknown_cells_or_refuses_in_one_line(text, mines):
    try:
        board = parse_board(text)
    except BoardFormatError:
        return
    if mines is not None:
        board = board.with_mines(mines)
    try:
        decision = choose_move(board, time_limit=0.2)
    except ContradictionError as exc:
        assert exc.exit_code == ExitCode.USAGE and one_line(exc)
        return
    for move in decision.moves:
        assert board[move.row, move.col] in UNKNOWN_CHARS, (move, board.to_text())
        assert 0.0 <= move.probability <= 1.0
    assert decision.moves or not board.unknown_cells()


GNOME = tomllib.loads((shipped_home() / "calibration" / "gnome-mines.toml").read_text(encoding="utf-8"))
TOML_VALUES = (
    st.none()
    | st.booleans()
    | st.integers(-5, 200)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=6)
    | st.lists(st.integers(-3, 50), max_size=3)
    | st.dictionaries(st.text(max_size=3), st.integers(), max_size=2)
)


@st.composite
def mutated_skin(draw: st.DrawFn) -> dict:
    """The shipped gnome-mines skin with one or two values (or whole tables) replaced by junk."""
    data = json.loads(json.dumps(GNOME))
    for _ in range(draw(st.integers(1, 2))):
        section = draw(
            st.sampled_from(["match", "geometry", "rules", "mines", "labels", "label_max_distance", "window"])
        )
        if draw(st.booleans()) and isinstance(data.get(section), dict) and data[section]:
            key = draw(st.sampled_from(sorted(data[section])))
            value = draw(TOML_VALUES)
            if value is None:
                del data[section][key]
            else:
                data[section][key] = value
        else:
            data[section] = draw(TOML_VALUES)
    return data


@settings(max_examples=40, deadline=None)
@given(mutated_skin())
def test_skin_loader_gives_a_skin_or_a_one_line_usage_error(data):
    template_dir = shipped_home() / "templates" / "gnome-mines"
    try:
        skin = skin_from_dict("gnome-mines", {k: v for k, v in data.items() if v is not None}, template_dir, "x.toml")
    except UsageError as exc:
        assert exc.exit_code == ExitCode.USAGE and one_line(exc)
        return
    assert 0 < skin.max_distance <= 1 and skin.patch_size >= 2 and 0 <= skin.inset < 0.5
    assert skin.templates  # a skin that loads can classify


RECORD_LINES = [
    {"type": "decision", "game": 1, "frame": "frames/000001.png", "board": "mines=1\n1.\n..\n",
     "moves": [{"action": "reveal", "row": 1, "col": 0, "probability": 0.0}], "guess": False, "reason": "x"},
    {"type": "game", "game": 1, "result": "won", "final_board": "mines=1\n1*\n11\n"},
]  # fmt: skip


@FAST
@given(mutated("".join(json.dumps(r) + "\n" for r in RECORD_LINES), ALPHABET + '{}[]":,'))
def test_recording_reader_gives_a_recording_or_a_one_line_format_error(tmp_path_factory, log):
    folder = tmp_path_factory.mktemp("rec")
    (folder / "session.json").write_text(json.dumps({"skin": "gnome-mines", "rules": "zero"}))
    (folder / "decisions.jsonl").write_text(log, encoding="utf-8")
    try:
        recording = read_recording(folder)
    except RecordingFormatError as exc:
        assert exc.exit_code == ExitCode.USAGE and one_line(exc)
        return
    finally:
        shutil.rmtree(folder)
    assert all(one_line(AutoplayError(w)) for w in recording.warnings)
    assert len(recording.decisions) + len(recording.games) <= len(RECORD_LINES) + 1


def test_a_recording_cut_mid_line_keeps_every_whole_line(tmp_path):
    folder = tmp_path / "rec"
    folder.mkdir()
    (folder / "session.json").write_text(json.dumps({"skin": "gnome-mines"}))
    whole = "".join(json.dumps(r) + "\n" for r in RECORD_LINES)
    (folder / "decisions.jsonl").write_text(whole + json.dumps(RECORD_LINES[0])[:40])
    recording = read_recording(folder)
    assert len(recording.decisions) == 1 and len(recording.games) == 1
    assert len(recording.warnings) == 1 and "cut short" in recording.warnings[0]
    # the same broken line with its newline is not a crash's cut but a malformed file
    (folder / "decisions.jsonl").write_text(whole + json.dumps(RECORD_LINES[0])[:40] + "\n")
    try:
        read_recording(folder)
    except RecordingFormatError as exc:
        assert "not valid JSON" in str(exc)
    else:
        raise AssertionError("a malformed middle line must be an error")


def test_a_line_break_in_a_skin_files_key_is_shown_escaped_on_the_one_line():
    """Found by the property test above in CI: a key of a skin file is the user's text, line breaks included."""
    template_dir = shipped_home() / "templates" / "gnome-mines"
    base = GNOME
    for section, table in (("label_max_distance", {"\n": 0}), ("labels", {"\n": 0}), ("rules", {"\n": 0})):
        with pytest.raises(UsageError) as caught:
            skin_from_dict("gnome-mines", {**base, section: table}, template_dir, "x.toml")
        assert one_line(caught.value) and "\\n" in str(caught.value)
