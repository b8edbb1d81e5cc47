"""Writing pictures to disk with one-line errors instead of OpenCV's silent ``False``."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from autoplay.errors import UsageError


def save_png(path: str | Path, image: np.ndarray) -> Path:
    """Write ``image`` as PNG, creating parent folders; any failure is an :class:`UsageError`."""
    p = Path(path)
    if p.suffix.lower() != ".png":
        raise UsageError(f"{p}: output must be a .png file")
    try:
        p.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UsageError(f"{p.parent}: cannot create folder: {exc.strerror or exc}") from None
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
