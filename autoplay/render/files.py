"""Writing pictures to disk with one-line errors instead of OpenCV's silent ``False``."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from autoplay.errors import UsageError
from autoplay.outputs import output_file


def save_png(path: str | Path, image: np.ndarray, root: str | Path | None = None) -> Path:
    """Write ``image`` as PNG (its folder created one level deep at most, see :mod:`autoplay.outputs`);
    ``root`` is the user's output folder, below which any depth is created; any failure is a :class:`UsageError`."""
    p = Path(path)
    if p.suffix.lower() != ".png":
        raise UsageError(f"{p}: output must be a .png file")
    output_file(p, root)
    try:
        ok, encoded = cv2.imencode(".png", np.ascontiguousarray(image))
    except cv2.error as exc:
        raise UsageError(f"{p}: cannot encode image: {str(exc).strip().splitlines()[-1]}") from None
    if not ok:
        raise UsageError(f"{p}: cannot encode image")
    try:
        p.write_bytes(encoded.tobytes())
    except OSError as exc:
        raise UsageError(f"{p}: cannot write: {exc.strerror or exc}") from None
    return p
