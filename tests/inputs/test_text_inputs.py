"""Files as editors save them read the same, and a broken image gives autoplay's one line on stderr, nothing else.

A board, layout or label file written by Windows Notepad starts with a UTF-8 byte-order mark and ends its lines with
CRLF; other editors leave the last newline off.  Each form must read exactly as the plain file does.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from autoplay.board.textformat import read_board
from autoplay.cli.main import main
from autoplay.insight.layout import read_layout

REPO = Path(__file__).resolve().parents[2]
GNOME = REPO / "tests" / "fixtures" / "gnome-mines"
PLAIN = "mines=10\n# a beginner game after the first click\n..1000...\n..2100...\n.........\n"
FORMS = {
    "bom": "\ufeff" + PLAIN,
    "crlf": PLAIN.replace("\n", "\r\n"),
    "bom-crlf": "\ufeff" + PLAIN.replace("\n", "\r\n"),
    "no-last-newline": PLAIN.rstrip("\n"),
}


def write(path: Path, text: str) -> Path:
    path.write_bytes(text.encode("utf-8"))  # bytes as written: no newline translation on the way
    return path


@pytest.mark.parametrize("form", sorted(FORMS))
def test_a_board_file_saved_by_any_editor_reads_and_solves_as_the_plain_one(form, tmp_path, capsys):
    plain = write(tmp_path / "plain.txt", PLAIN)
    other = write(tmp_path / f"{form}.txt", FORMS[form])
    assert read_board(other) == read_board(plain)
    answers = []
    for path in (plain, other):
        assert main(["solve", str(path), "--json"]) == 0
        answers.append(json.loads(capsys.readouterr().out))
    assert answers[0] == answers[1]


@pytest.mark.parametrize("form", ["bom", "crlf"])
def test_a_layout_file_saved_by_any_editor_reads_as_the_plain_one(form, tmp_path):
    layout = "# first click (0,0)\n..*\n...\n*..\n"
    text = ("\ufeff" if form == "bom" else "") + (layout.replace("\n", "\r\n") if form == "crlf" else layout)
    assert read_layout(write(tmp_path / "other.txt", text)) == read_layout(write(tmp_path / "plain.txt", layout))


def test_a_truncated_png_gives_exactly_one_line_on_stderr(tmp_path):
    truncated = tmp_path / "cut.png"
    truncated.write_bytes((GNOME / "expert_mid8.png").read_bytes()[:3000])
    env = {k: v for k, v in os.environ.items() if k != "OPENCV_LOG_LEVEL"}  # as a user's shell has it
    done = subprocess.run(
        [sys.executable, "-m", "autoplay", "decode", str(truncated), "--skin", "gnome-mines"],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        timeout=120,
    )
    assert done.returncode == 3
    lines = done.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("autoplay: error:"), done.stderr
