"""A recording made while some tiles were unknown to the skin replays to the same decisions.

The live player plays a cell that matches no template as covered and never
clicks it; replay must decode the recorded frames the same way, or every such
decision would replay as "unreadable".  Real sgt-mines frames, the skin live
calibration made for them (it has never seen a 4 or a 5), the real Player and
Recorder, then the real replay.
"""

from __future__ import annotations

from functools import partial
from pathlib import Path

import numpy as np
import pytest

from autoplay.control.mouse import Mouse
from autoplay.play.live import vision_decoder
from autoplay.play.player import Player, PlayerSettings
from autoplay.play.recorder import Recorder
from autoplay.replay.recording import read_recording
from autoplay.replay.runner import Replayer, VisionDecoder
from autoplay.replay.sources import collect_frames
from autoplay.solver import choose_move
from autoplay.vision import load_skin, read_image
from tests.play.fakes import FakeBackend, FakeTable

SGT = Path(__file__).resolve().parents[1] / "fixtures" / "sgt-mines"
SKIN_ROOT = SGT / "skin"


class StillWindow:
    """A window that always shows one real frame: enough for a dry-run decision."""

    def __init__(self, frame: np.ndarray) -> None:
        self.frame = frame

    def grab(self) -> np.ndarray:
        return self.frame.copy()

    def window_rect(self) -> tuple[int, int, int, int]:
        return (0, 0, self.frame.shape[1], self.frame.shape[0])

    def check(self, board: tuple[int, int, int, int] | None = None) -> None:
        pass

    def focus(self) -> None:
        pass


def record_decision(root: Path, frame_name: str) -> None:
    """One dry-run decision of the live player on a real frame, recorded by the real Recorder."""
    skin = load_skin("sgt-live", SKIN_ROOT)
    frame = read_image(SGT / f"{frame_name}.png")
    recorder = Recorder(root, skin.name, skin.rules, mines=99)
    solve = partial(choose_move, mines=99, rules=skin.rules, time_limit=2.0)
    settings = PlayerSettings(settle_interval=0.002, settle_timeout=1.0, dry_run=True)
    mouse = Mouse(FakeBackend(FakeTable()))  # never used: a dry run clicks nothing
    player = Player(StillWindow(frame), mouse, vision_decoder(skin, 99), solve, settings, recorder)
    result = player.play_game()
    recorder.close()
    assert result.result == "dry-run" and result.unknown_cells > 0  # the frame has tiles the skin does not know


@pytest.mark.parametrize("frame_name", ["tile20_mid", "tile20_mid_five"])
def test_a_decision_made_around_unknown_tiles_replays_the_same(tmp_path, frame_name):
    record_decision(tmp_path / "rec", frame_name)
    [recorded] = read_recording(tmp_path / "rec").decisions
    assert recorded.moves  # the live player did decide, around the unknown tiles
    replayer = Replayer(VisionDecoder("sgt-live", SKIN_ROOT), None, mines=99, time_limit=2.0)
    [outcome] = list(replayer.run(collect_frames(tmp_path / "rec").frames))
    assert outcome.status == "ok", outcome.problems
    assert {(m.action, m.row, m.col) for m in outcome.decision.moves} == {m.key for m in recorded.moves}


def test_unknown_cells_are_never_in_a_replayed_decision(tmp_path):
    record_decision(tmp_path / "rec", "tile20_mid_five")
    replayer = Replayer(VisionDecoder("sgt-live", SKIN_ROOT), None, mines=99, time_limit=2.0)
    [outcome] = list(replayer.run(collect_frames(tmp_path / "rec").frames))
    decoded = VisionDecoder("sgt-live", SKIN_ROOT).decode(read_image(SGT / "tile20_mid_five.png"), None)
    unknown = set(map(tuple, decoded.unreadable))
    assert unknown and not unknown & {(m.row, m.col) for m in outcome.decision.moves}
    # the replayed board shows them covered, as the live player saw it
    assert all(outcome.board[rc] == "." for rc in unknown)
