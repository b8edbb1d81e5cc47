"""``autoplay report``: a recording of real gnome-mines frames becomes one page, and a real browser shows it.

The recording is written by the live player's own Recorder (so its frames are
stored as deltas) from real window grabs, with the decisions the solver makes
on what vision reads there; the same recording rewritten with whole PNG frames
stands for recordings made before deltas existed.  The page is opened in the
real headless Chromium of the Debian package: missing Chromium fails the test.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

import cv2
import numpy as np
import pytest

from autoplay.cli.main import main
from autoplay.play.recorder import Recorder
from autoplay.replay.decide import decide_move
from autoplay.replay.recording import read_recording
from autoplay.replay.session_stats import session_stats
from autoplay.vision import decode_frame, load_skin, read_image
from autoplay.vision.frame_delta import FrameReader

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "gnome-mines"
MINES = 99
TIME_LIMIT = 60.0
#: Two games of real expert frames; the first ends lost on the board of expert_end.
GAMES = {1: ["expert_open", "expert_mid8", "expert_flags"], 2: ["expert_five", "expert_four", "expert_six"]}
CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def make_recording(root: Path) -> Path:
    skin = load_skin("gnome-mines")
    # A time limit no replay reaches, even on a loaded machine: a decision or heat map cut short by the clock
    # would differ between the two pages this test compares.
    rec = Recorder(root, skin.name, skin.rules, mines=MINES, time_limit=TIME_LIMIT)
    for game, names in GAMES.items():
        for name in names:
            image = read_image(FIXTURES / f"{name}.png")
            decoded = decode_frame(image, skin)
            board = decoded.board.with_mines(MINES)
            decision = decide_move(board, MINES, skin.rules, TIME_LIMIT)
            frame = rec.frame(image)
            timing = {"capture": 0.02, "settle": 0.06, "decode": 0.004, "solve": 0.001, "click": 0.009}
            rec.decision(
                game,
                frame,
                board,
                decoded.grid.to_dict(),
                list(decision.moves),
                decision.guess,
                decision.reason,
                "playing",
                timing,
            )
        final = (FIXTURES / "expert_end.txt").read_text() if game == 1 else None
        details = {"seconds": 5.0 + game, "timing": {"capture": 0.5, "settle": 2.0, "decode": 0.1, "solve": 0.05}}
        rec.game(game, "lost" if game == 1 else "won", final_board=final, **details)
    rec.close()
    return root


def as_old_recording(new: Path, old: Path) -> Path:
    """The same recording with every frame a whole PNG, as recorders before deltas wrote it."""
    (old / "frames").mkdir(parents=True)
    shutil.copy(new / "session.json", old / "session.json")
    reader, lines = FrameReader(), []
    for raw in (new / "decisions.jsonl").read_text().splitlines():
        line = json.loads(raw)
        if line["type"] == "decision":
            whole = line["frame"].replace(".delta.png", ".png")
            cv2.imwrite(str(old / whole), reader.read(new / line["frame"]))
            line["frame"] = whole
        lines.append(json.dumps(line))
    (old / "decisions.jsonl").write_text("\n".join(lines) + "\n")
    return old


@pytest.fixture(scope="module")
def recordings(tmp_path_factory) -> tuple[Path, Path]:
    base = tmp_path_factory.mktemp("report")
    new = make_recording(base / "new")
    return new, as_old_recording(new, base / "old")


def test_new_and_old_recordings_replay_to_the_recorded_decisions(recordings, capsys):
    new, old = recordings
    assert any(p.name.endswith(".delta.png") for p in (new / "frames").iterdir())
    for rec in (new, old):
        assert main(["replay", str(rec), "--json"]) == 0
        summary = json.loads(capsys.readouterr().out)["summary"]
        assert summary == {"frames": 6, "ok": 6, "over": 0, "mismatch": 0, "failed": 0}
        assert main(["replay", str(rec), "--audit"]) in (0, 1)  # reads the log only; works on either format
        capsys.readouterr()


def report(rec: Path, out: Path, capsys) -> tuple[str, str]:
    assert main(["report", str(rec), "--out", str(out)]) == 0
    return out.read_text(encoding="utf-8"), capsys.readouterr().out


def test_report_page_holds_summary_games_and_every_decision(recordings, tmp_path, capsys, monkeypatch):
    # the explanations' proof search has a budget of its own (50 ms a decision, as when recording live): one cut
    # short on a busy machine (CI's workers) explained a move otherwise on one of the two pages compared below
    monkeypatch.setattr("autoplay.insight.record.RECORD_BUDGET", 10.0)
    new, old = recordings
    page, printed = report(new, tmp_path / "page.html", capsys)
    assert "6 decisions: 6 reproduced, 0 not reproduced, 0 unreadable" in printed
    assert f"report: {(tmp_path / 'page.html').resolve()}" in printed
    # every picture is inside the page; nothing is fetched from anywhere
    sources = re.findall(r"<img src='([^']*)'", page)
    assert len(sources) == 6 + 1  # a thumbnail per decision and the lost game's last board
    assert all(s.startswith(("data:image/jpeg;base64,", "data:image/png;base64,")) for s in sources)
    assert "<script" not in page and "<link" not in page and "url(" not in page
    assert len(page) < 60_000 * 7, len(page)  # thumbnails, not screenshots
    assert "win rate (95% interval 9.5-90.5%)" in page and "<svg" in page
    assert page.count("class='frame'") == 6 and "decision 2 · frame 000002<" in page
    assert "id='game-1'" in page and "id='game-2'" in page
    # the old format makes the same page apart from where it lives
    old_page, _ = report(old, tmp_path / "old.html", capsys)
    assert old_page.replace(str(old.resolve()), "X") == page.replace(str(new.resolve()), "X")


def test_report_of_a_run_folder_defaults_into_it_and_mistakes_are_one_line(recordings, tmp_path, capsys):
    new, _ = recordings
    run = tmp_path / "demo-1"
    shutil.copytree(new, run / "recording")
    assert main(["report", str(run)]) == 0 and (run / "report.html").is_file()
    capsys.readouterr()
    assert main(["report", str(tmp_path / "missing")]) == 2
    assert main(["report", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 2 and "no such folder" in err and "no recording here" in err


def chromium(*args: str) -> subprocess.CompletedProcess[str]:
    binary = shutil.which("chromium")
    assert binary, "chromium is not installed (scripts/install.sh installs the Debian package)"
    with tempfile.TemporaryDirectory() as profile:
        return subprocess.run(
            [binary, *CHROMIUM_FLAGS, f"--user-data-dir={profile}", *args],
            capture_output=True,
            text=True,
            timeout=120,
        )


@pytest.mark.slow  # a real browser: 20 s
def test_the_page_renders_in_real_chromium_with_every_image_loaded(recordings, tmp_path, capsys):
    new, _ = recordings
    page, _ = report(new, tmp_path / "page.html", capsys)
    shot = tmp_path / "shot.png"
    done = chromium(f"--screenshot={shot}", "--window-size=1400,2000", (tmp_path / "page.html").as_uri())
    assert shot.is_file(), done.stderr[-2000:]
    pixels = cv2.imread(str(shot))
    assert pixels.shape[:2] == (2000, 1400)
    # not blank: the page's dark header, its text and the heat map colours are all there
    colours = np.unique(pixels.reshape(-1, 3) // 16, axis=0)
    assert len(colours) > 50, len(colours)
    assert (pixels[:40].mean(axis=(0, 1)) < 80).all()  # the header bar
    heat = (pixels[..., 2].astype(int) > 180) & (pixels[..., 1].astype(int) > 150) & (pixels[..., 0] < 110)
    assert heat.sum() > 2000  # yellow heat-map cells of the thumbnails
    # every image decoded: a probe script, added to a copy of the page, counts them once the page has loaded
    probe = tmp_path / "probe.html"
    marker = (
        "<script>addEventListener('load',()=>{const i=[...document.images];"
        "document.body.dataset.loaded=i.filter(x=>x.complete&&x.naturalWidth>0).length+'/'+i.length;});</script>"
    )
    probe.write_text(page.replace("</body>", marker + "</body>"), encoding="utf-8")
    dom = chromium("--dump-dom", "--virtual-time-budget=10000", probe.as_uri()).stdout
    assert 'data-loaded="7/7"' in dom, dom[:300]


def test_a_session_stopped_inside_a_game_is_counted_from_its_decisions(recordings, tmp_path):
    new, _ = recordings
    stopped = tmp_path / "stopped"
    shutil.copytree(new, stopped)
    log = stopped / "decisions.jsonl"
    log.write_text("".join(line + "\n" for line in log.read_text().splitlines()[:-1]))  # no game 2 line
    stats = session_stats(read_recording(stopped))
    assert [(g.number, g.result, g.decisions) for g in stats.games] == [(1, "lost", 3), (2, "unfinished", 3)]
    assert (stats.wins, stats.losses, stats.win_rate) == (0, 1, 0.0)
    assert stats.games[1].seconds is None and stats.games[1].phase_seconds["settle"] == pytest.approx(0.18)
    assert stats.ms_per_decision["decode"] == pytest.approx(1000 * (0.1 + 3 * 0.004) / 6)
