"""``autoplay watch --record DIR`` keeps the session as ``play --record`` does, and ``autoplay report DIR`` makes a
page of the person's steps, each with its verdict.

Runs watch on the saved frames of a real gnome-mines game (tests/play/watch_fakes.py), with every module that can
send input made unimportable, as tests/play/test_watch.py does.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from html import unescape
from pathlib import Path

import pytest

from autoplay.replay.recording import read_recording
from tests.play.test_watch import NO_INPUT, played_steps

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def recorded(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[dict[str, object]]]:
    """The recording folder and watch's JSON lines for the saved game."""
    folder = tmp_path_factory.mktemp("watch") / "session"
    script = NO_INPUT.replace('"--backend", "x11"]', f'"--backend", "x11", "--record", {str(folder)!r}]')
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-c", script], env=env, cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert "loaded=[]" in done.stderr  # recording brings in nothing that can click
    return folder, [json.loads(line) for line in done.stdout.splitlines()]


def test_the_recording_holds_each_position_its_frame_and_the_steps_that_led_to_it(recorded):
    folder, lines = recorded
    recording = read_recording(folder)  # the reader of play's recordings takes it as it is
    assert recording.session["kind"] == "watch" and recording.skin == "gnome-mines"
    assert len(recording.decisions) == len(lines)
    for decision, line in zip(recording.decisions, lines, strict=True):
        assert decision.frame.is_file()
        assert decision.board.row_strings() == line["board"]
        assert {(m.action, m.row, m.col) for m in decision.moves} == {
            (m["action"], m["row"], m["col"]) for m in line["moves"]
        }
    raw = [json.loads(text) for text in (folder / "decisions.jsonl").read_text().splitlines()]
    assert [r["steps"] for r in raw] == [line["steps"] for line in lines]


def test_report_makes_a_page_of_each_step_and_its_verdict(recorded, tmp_path):
    folder, lines = recorded
    page = tmp_path / "page.html"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-m", "autoplay", "report", str(folder), "--out", str(page)],
        env=env,
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert f"{len(lines)} positions: {len(lines)} reproduced" in done.stdout
    html = page.read_text()
    captions = [unescape(m) for m in re.findall(r"<div class='move'>(.*?)</div>", html)]
    steps = played_steps()
    assert len(captions) == len(steps)
    verdicts = ["certain", "certain", "certain", "riskier than needed"]
    for caption, (action, (row, col)), verdict in zip(captions, steps, verdicts, strict=True):
        assert caption.startswith(f"{action} ({row},{col})") and caption.split(": ")[-1].startswith(verdict)
    risky = next(s for line in lines for s in line["steps"] if s["verdict"] == "riskier than needed")
    shown = f"({100 * risky['probability']:.1f}% where {100 * risky['lowest']:.1f}% was on offer)"
    assert captions[-1].endswith(shown)
    assert "judged again" not in html  # the replayed frames give every step the verdict watch gave it
    assert html.count("<img src='data:image/jpeg") == len(steps)


def test_a_malformed_step_is_one_line_and_exit_2(recorded, tmp_path):
    folder, _ = recorded
    broken = tmp_path / "broken"
    shutil.copytree(folder, broken)
    log = broken / "decisions.jsonl"
    lines = [json.loads(text) for text in log.read_text().splitlines()]
    lines[2]["steps"] = [{"action": "reveal", "cell": "x"}]
    log.write_text("".join(json.dumps(line) + "\n" for line in lines))
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-m", "autoplay", "report", str(broken)], env=env, cwd=ROOT, capture_output=True, text=True
    )
    assert done.returncode == 2
    assert done.stderr.startswith(f"autoplay: error: {log}:3: a malformed step") and done.stderr.count("\n") == 1
