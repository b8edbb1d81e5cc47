"""Recorded frames are small and come back bit for bit: key frames, XOR deltas, and the files they make."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from autoplay.board.rules import Rules
from autoplay.errors import UnreadableBoardError
from autoplay.play.recorder import Recorder
from autoplay.vision import read_image
from autoplay.vision.frame_delta import KEYFRAME_EVERY, FrameReader, base_of, xor_delta

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "gnome-mines"
#: Real window grabs of one expert game size, in an order a game could show them.
EXPERT = ["expert_open", "expert_five", "expert_four", "expert_six", "expert_mid8", "expert_flags", "expert_end"]


def grabs() -> list[np.ndarray]:
    """The fixtures as mss delivers frames (BGRA), so the alpha channel goes through the deltas too."""
    return [cv2.cvtColor(cv2.imread(str(FIXTURES / f"{n}.png")), cv2.COLOR_BGR2BGRA) for n in EXPERT]


def record(root: Path, frames: list[np.ndarray], tags: dict[int, str] | None = None) -> list[str]:
    rec = Recorder(root, "gnome-mines", Rules("zero"))
    names = [rec.frame(f, (tags or {}).get(i, "")) for i, f in enumerate(frames)]
    rec.close()
    return names


def test_frames_after_the_first_are_deltas_and_read_back_exactly(tmp_path):
    frames = grabs()
    names = record(tmp_path, frames)
    assert names[0] == "frames/000001.png" and all(n.endswith(".delta.png") for n in names[1:])
    reader = FrameReader()
    for name, frame in zip(names, frames):
        assert np.array_equal(reader.read(tmp_path / name), cv2.cvtColor(frame, cv2.COLOR_BGRA2BGR)), name
    # one frame on its own, as `autoplay decode` would read it, walks back through the chain
    assert np.array_equal(read_image(tmp_path / names[4]), cv2.cvtColor(frames[4], cv2.COLOR_BGRA2BGR))


def test_a_slightly_changed_frame_costs_little(tmp_path):
    first = grabs()[4]
    second = first.copy()
    second[200:228, 300:328] = 255  # one cell changes
    names = record(tmp_path, [first, second])
    whole, delta = ((tmp_path / n).stat().st_size for n in names)
    assert delta < whole / 5, (whole, delta)
    assert np.array_equal(FrameReader().read_raw(tmp_path / names[1]), second)


def test_tagged_frames_size_changes_and_every_nth_frame_are_key_frames(tmp_path):
    base = grabs()[0]
    frames = [base.copy() for _ in range(KEYFRAME_EVERY + 8)]
    for i, frame in enumerate(frames):
        frame[0, 0, 0] = i % 256  # every frame differs a little
    frames[2] = base[:-10].copy()  # a resized window
    names = record(tmp_path, frames, tags={5: "unreadable"})
    keys = [i for i, n in enumerate(names) if not n.endswith(".delta.png")]
    assert keys == [0, 2, 3, 5, 5 + KEYFRAME_EVERY]
    assert names[5] == "frames/000006-unreadable.png"  # kept whole: ready to calibrate on
    assert base_of(tmp_path / names[6]) == tmp_path / names[5]
    reader = FrameReader()
    for name, frame in zip(names, frames):
        assert np.array_equal(reader.read_raw(tmp_path / name), frame), name


def test_a_recording_continued_later_starts_with_a_key_frame(tmp_path):
    frames = grabs()
    first = record(tmp_path, frames[:2])
    again = record(tmp_path, frames[2:4])
    assert first == ["frames/000001.png", "frames/000002.delta.png"]
    assert again == ["frames/000003.png", "frames/000004.delta.png"]
    assert np.array_equal(FrameReader().read_raw(tmp_path / again[1]), frames[3])


def test_a_missing_or_foreign_base_is_a_one_line_unreadable_frame(tmp_path):
    names = record(tmp_path, grabs()[:3])
    (tmp_path / names[1]).unlink()
    with pytest.raises(UnreadableBoardError, match="base frame 000002 is missing"):
        FrameReader().read(tmp_path / names[2])
    odd = tmp_path / "frames" / "000009.delta.png"
    cv2.imwrite(str(odd), np.zeros((5, 5, 3), np.uint8))
    cv2.imwrite(str(tmp_path / "frames" / "000008.png"), np.zeros((6, 5, 3), np.uint8))
    with pytest.raises(UnreadableBoardError, match="does not fit its base frame"):
        FrameReader().read(odd)


def test_xor_delta_refuses_frames_of_different_shapes():
    with pytest.raises(ValueError, match="one shape"):
        xor_delta(np.zeros((2, 2, 3), np.uint8), np.zeros((2, 3, 3), np.uint8))
