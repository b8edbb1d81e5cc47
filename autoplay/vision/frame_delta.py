"""Recorded frames stored as differences from the frame before, exactly.

Consecutive frames of a game differ in a few cells and the clock, so a
recording keeps a whole frame now and then (a *key* frame, ``NNNNNN.png``) and
in between only ``NNNNNN.delta.png``: the bitwise XOR of that frame with frame
``NNNNNN - 1``, saved as PNG.  Unchanged pixels are zero and compress to
almost nothing (an expert gnome-mines frame: about 5 KB instead of 60 KB),
and XOR is its own inverse, so the frame comes back bit for bit and replay
decodes exactly what the player saw.

A delta's base is always the frame numbered one less, whatever its name
(``000041.png``, ``000041.delta.png`` or a tagged key frame such as
``000041-unreadable.png``); the writer numbers frames without gaps.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np

from autoplay.errors import UnreadableBoardError
from autoplay.vision.image_io import read_raw_image, to_bgr

#: File name ending of a frame stored as a difference.
DELTA_SUFFIX = ".delta.png"
#: A key frame at least this often, so one damaged file loses at most this many frames and reading one frame
#: on its own decodes at most this many files.
KEYFRAME_EVERY = 50

_NUMBERED = re.compile(r"^(\d+)(?:\.delta|-[^/]*)?\.png$")


def is_delta(path: str | Path) -> bool:
    return Path(path).name.endswith(DELTA_SUFFIX)


def xor_delta(previous: np.ndarray, current: np.ndarray) -> np.ndarray:
    """What a delta file holds; ``xor_delta(previous, delta)`` gives ``current`` back."""
    if previous.shape != current.shape or previous.dtype != current.dtype:
        raise ValueError(f"a delta needs frames of one shape: {previous.shape} and {current.shape}")
    delta: np.ndarray = np.bitwise_xor(previous, current)
    return delta


def frame_number(path: str | Path) -> int | None:
    """The capture number in a recorded frame's name, or None for a name the recorder does not write."""
    match = _NUMBERED.match(Path(path).name)
    return int(match.group(1)) if match else None


def base_of(path: str | Path) -> Path:
    """The file a delta frame was taken against: the frame numbered one less, in the same folder."""
    p = Path(path)
    match = _NUMBERED.match(p.name)
    if match is None or int(match.group(1)) < 2:
        raise UnreadableBoardError(f"{p}: a delta frame needs a numbered name after the first frame")
    stem = f"{int(match.group(1)) - 1:0{len(match.group(1))}d}"
    candidates = [p.with_name(f"{stem}.png"), p.with_name(f"{stem}{DELTA_SUFFIX}")]
    candidates += sorted(p.parent.glob(f"{stem}-*.png"))
    for candidate in candidates:
        if candidate.is_file():
            return candidate
    raise UnreadableBoardError(f"{p}: its base frame {stem} is missing from {p.parent}")


class FrameReader:
    """Reads recorded frames, resolving delta frames; remembers the last frame read.

    A replay reads frames in capture order, so with the last frame remembered
    each file is decoded once; reading one delta frame alone walks back to
    the nearest key frame (at most :data:`KEYFRAME_EVERY` files).
    """

    def __init__(self) -> None:
        self._last: tuple[Path, np.ndarray] | None = None

    def read(self, path: str | Path) -> np.ndarray:
        """The frame as BGR uint8, like :func:`autoplay.vision.read_image` reads a full screenshot.

        A copy: the remembered frame is the base of the next delta and must not change.
        """
        raw = self.read_raw(path)
        image = to_bgr(raw)
        return image.copy() if image is raw else image

    def read_raw(self, path: str | Path) -> np.ndarray:
        """The frame with the channels it was captured with (the base of the next delta)."""
        p = Path(path)
        chain = [p]
        while is_delta(chain[-1]) and not self._remembers(chain[-1]):
            if len(chain) > 10 * KEYFRAME_EVERY:
                raise UnreadableBoardError(f"{p}: no key frame before it")
            chain.append(base_of(chain[-1]))
        top = chain.pop()
        image = self._last[1] if self._remembers(top) and self._last is not None else read_raw_image(top)
        for delta_path in reversed(chain):
            delta = read_raw_image(delta_path)
            try:
                image = xor_delta(image, delta)
            except ValueError as exc:
                raise UnreadableBoardError(f"{delta_path}: does not fit its base frame: {exc}") from None
        self._last = (p, image)
        return image

    def _remembers(self, path: Path) -> bool:
        return self._last is not None and self._last[0] == path
