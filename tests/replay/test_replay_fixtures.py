"""``autoplay replay`` and ``analyze IMAGE`` on real screenshots of real games, through the real vision.

The fixtures are window grabs of gnome-mines with their boards checked by eye
(tests/fixtures/gnome-mines/README.md); nothing on the screen side is faked.
"""

import json
import shutil
from pathlib import Path

import cv2

from autoplay.board import read_board
from autoplay.board.rules import Rules
from autoplay.cli.main import main
from autoplay.replay.decide import decide_move
from autoplay.vision import decode_frame, load_skin, read_image

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "gnome-mines"
EXPERT_MINES = 99


def fixture_board(name: str, mines: int):
    return read_board(FIXTURES / f"{name}.txt").with_mines(mines)


def expected_moves(name: str) -> list:
    """What the solver decides on a fixture's true board under gnome-mines' rules."""
    return decide_move(fixture_board(name, EXPERT_MINES), EXPERT_MINES, Rules(first_click="zero")).moves


def copy_frames(folder: Path, names: list[str], rename: dict[str, str] | None = None) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for name in names:
        shutil.copy(FIXTURES / f"{name}.png", folder / f"{(rename or {}).get(name, name)}.png")
    return folder


def run_json(argv: list[str], capsys) -> tuple[int, dict]:
    code = main(argv + ["--json"])
    return code, json.loads(capsys.readouterr().out)


def test_folder_of_screenshots_decodes_solves_and_annotates(tmp_path, capsys):
    shots = copy_frames(tmp_path / "shots", ["intermediate_mid3", "expert_mid8", "expert_end"])
    code, data = run_json(["replay", str(shots), "--skin", "gnome-mines"], capsys)
    assert code == 0
    frames = {f["name"]: f for f in data["frames"]}
    assert data["summary"] == {"frames": 3, "ok": 2, "over": 1, "mismatch": 0, "failed": 0}
    mid = frames["expert_mid8"]
    truth = fixture_board("expert_mid8", EXPERT_MINES)
    assert mid["board"] == truth.to_text()
    assert [(m["action"], m["row"], m["col"]) for m in mid["decision"]["moves"]] == [
        (m.action, m.row, m.col) for m in expected_moves("expert_mid8")
    ]
    assert frames["expert_end"]["status"] == "over" and frames["expert_end"]["decision"] is None
    for name in frames:
        annotated = cv2.imread(str(shots / "annotated" / f"{name}.png"))
        original = cv2.imread(str(shots / f"{name}.png"))
        h, w = original.shape[:2]
        assert annotated.shape[0] > h and annotated.shape[1] >= w
    # the annotation marks the move: the pixels of that cell changed, the window title bar did not
    annotated = cv2.imread(str(shots / "annotated" / "expert_mid8.png"))
    original = cv2.imread(str(shots / "expert_mid8.png"))
    assert (annotated[:40] == original[:40]).all()


def test_unreadable_and_broken_frames_are_reported_and_the_run_continues(tmp_path, capsys):
    shots = copy_frames(
        tmp_path / "shots",
        ["beginner_score_dialog", "intermediate_mid3"],
        rename={"beginner_score_dialog": "a_dialog", "intermediate_mid3": "c_mid"},
    )
    (shots / "b_broken.png").write_text("this is not a picture")
    code = main(["replay", str(shots), "--skin", "gnome-mines", "--out", str(tmp_path / "out")])
    out = capsys.readouterr().out.splitlines()
    assert code == 3
    assert out[0].startswith("a_dialog: FAILED: ") and "unreadable cells" in out[0]
    assert out[1].startswith("b_broken: FAILED: ") and "not an image" in out[1]
    assert out[2].startswith("c_mid: reveal ")
    assert out[3].startswith("3 frame(s): 1 ok, 0 game over, 0 mismatched, 2 failed")
    assert (tmp_path / "out" / "c_mid.png").exists()


def make_recording(root: Path, wrong_second_move: bool) -> Path:
    """A recording as the live player writes it, from two real frames and the boards they show."""
    copy_frames(root / "frames", ["expert_open", "expert_mid8"], {"expert_open": "000001", "expert_mid8": "000002"})
    (root / "session.json").write_text(
        json.dumps({"skin": "gnome-mines", "rules": {"first_click": "zero", "win": "reveal"}})
    )
    # the live player passes the grid it found on earlier frames; frame 2 replays through that path
    second_grid = decode_frame(read_image(root / "frames" / "000002.png"), load_skin("gnome-mines")).grid.to_dict()
    lines = []
    for number, name in [(1, "expert_open"), (2, "expert_mid8")]:
        board = fixture_board(name, EXPERT_MINES)
        moves = [
            {"action": m.action, "row": m.row, "col": m.col, "probability": m.probability} for m in expected_moves(name)
        ]
        if wrong_second_move and number == 2:
            moves = [{"action": "reveal", "row": 0, "col": 0, "probability": 0.19}]
        lines.append(
            {
                "type": "decision",
                "game": 1,
                "frame": f"frames/{number:06d}.png",
                "board": board.to_text(),
                "grid": second_grid if number == 2 else None,
                "moves": moves,
                "guess": False,
                "reason": "recorded",
                "state": "playing",
                "timing": {"solve": 0.01},
            }
        )
    lines.append({"type": "game", "game": 1, "result": "lost"})
    (root / "decisions.jsonl").write_text("".join(json.dumps(line) + "\n" for line in lines))
    return root


def test_recording_replays_to_the_same_decisions(tmp_path, capsys):
    rec = make_recording(tmp_path / "rec", wrong_second_move=False)
    code, data = run_json(["replay", str(rec)], capsys)  # the recording names its skin
    assert code == 0 and data["summary"]["ok"] == 2
    # without --out a recording gets no pictures written into it (its pictures are `autoplay report`'s page)
    assert data["out"] is None and not (rec / "annotated").exists()
    code, data = run_json(["replay", str(rec), "--out", str(tmp_path / "pictures")], capsys)
    assert code == 0 and sorted(p.name for p in (tmp_path / "pictures").iterdir()) == ["000001.png", "000002.png"]


def test_recording_mismatch_is_reported_with_exit_code_1(tmp_path, capsys):
    rec = make_recording(tmp_path / "rec", wrong_second_move=True)
    code = main(["replay", str(rec)])
    out = capsys.readouterr().out
    assert code == 1
    replayed = ", ".join(
        f"{m.action} ({m.row},{m.col})"
        for m in sorted(expected_moves("expert_mid8"), key=lambda m: (m.row, m.col, m.action))
    )
    assert f"MISMATCH: decision differs: recorded reveal (0,0); replayed {replayed}" in out
    frames = [line for line in out.splitlines() if not line.startswith("    why: ")]  # explanation lines
    assert frames[1].startswith("000002: ") and "1 mismatched" in out
    assert "    why: " in out


def test_single_screenshot_goes_to_replay_out_by_default(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    copy_frames(tmp_path, ["intermediate_mid3"])
    assert main(["replay", "intermediate_mid3.png", "--skin", "gnome-mines"]) == 0
    assert (tmp_path / "replay-out" / "intermediate_mid3.png").exists()


def test_replay_user_mistakes(tmp_path, capsys):
    assert main(["replay", str(tmp_path / "nothing-here"), "--skin", "gnome-mines"]) == 2
    assert "no such file or folder" in capsys.readouterr().err
    copy_frames(tmp_path / "shots", ["expert_mid8"])
    assert main(["replay", str(tmp_path / "shots")]) == 2
    assert "--skin NAME is needed" in capsys.readouterr().err
    assert main(["replay", str(tmp_path / "shots"), "--skin", "no-such-skin"]) == 2
    assert "unknown skin 'no-such-skin'" in capsys.readouterr().err


def test_analyze_a_screenshot(tmp_path, capsys):
    out = tmp_path / "heat.png"
    code, data = run_json(
        ["analyze", str(FIXTURES / "expert_mid8.png"), "--skin", "gnome-mines", "--out", str(out)], capsys
    )
    assert code == 0
    assert data["board"] == fixture_board("expert_mid8", EXPERT_MINES).to_text() and data["mode"] == "global"
    assert cv2.imread(str(out)).shape == cv2.imread(str(FIXTURES / "expert_mid8.png")).shape
    assert main(["analyze", str(FIXTURES / "beginner_score_dialog.png"), "--skin", "gnome-mines"]) == 3
    assert "unreadable cells" in capsys.readouterr().err


def test_malformed_recorded_grid_fails_that_frame_only(tmp_path, capsys):
    rec = make_recording(tmp_path / "rec", wrong_second_move=False)
    lines = (rec / "decisions.jsonl").read_text().splitlines()
    first = json.loads(lines[0])
    first["grid"] = {"xs": [5.0], "ys": [1.0, 2.0]}
    (rec / "decisions.jsonl").write_text("\n".join([json.dumps(first)] + lines[1:]) + "\n")
    code = main(["replay", str(rec)])
    out = capsys.readouterr().out
    assert code == 3
    first = expected_moves("expert_mid8")[0]
    assert "000001: FAILED: recorded grid is malformed" in out
    assert f"000002: {first.action} ({first.row},{first.col})" in out
