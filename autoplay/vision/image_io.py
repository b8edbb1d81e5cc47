"""Reading screenshots from disk with user-friendly failures."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from autoplay.errors import UnreadableBoardError


def read_image(path: str | Path) -> np.ndarray:
    """A BGR uint8 image; a missing file or a non-image raises :class:`UnreadableBoardError` (exit 3).

    A recorded delta frame (``NNNNNN.delta.png``) is rebuilt from the frames before it, so every command
    reads a recording's frames as the screenshots they were.
    """
    from autoplay.vision.frame_delta import FrameReader, is_delta

    if is_delta(path):
        return FrameReader().read(path)
    return to_bgr(read_raw_image(path))


def read_raw_image(path: str | Path) -> np.ndarray:
    """The image file's pixels as stored (grey, BGR or BGRA), with the same one-line failures."""
    p = Path(path)
    if not p.is_file():
        raise UnreadableBoardError(f"{p}: no such image file")
    data = np.fromfile(str(p), dtype=np.uint8)
    image = cv2.imdecode(data, cv2.IMREAD_UNCHANGED) if data.size else None
    if image is None:
        raise UnreadableBoardError(f"{p}: not an image OpenCV can read")
    return image


def to_bgr(image: np.ndarray) -> np.ndarray:
    """Normalise grey, BGRA (mss grabs, PNG with alpha) and 16-bit images to BGR uint8."""
    if image.dtype != np.uint8:
        image = (image / 257).astype(np.uint8) if image.dtype == np.uint16 else image.astype(np.uint8)
    if image.ndim == 2:
        return cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    if image.shape[2] == 4:
        return cv2.cvtColor(image, cv2.COLOR_BGRA2BGR)
    return image
