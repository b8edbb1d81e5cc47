"""A picture of every template with its label, so a user can check a calibration at a glance."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

TILE = 64
CAPTION = 18
PER_ROW = 10


def contact_sheet(entries: list[tuple[str, str, np.ndarray]]) -> np.ndarray:
    """One cell per entry: the tile enlarged, its template name and its (proposed) label below."""
    rows = max(1, (len(entries) + PER_ROW - 1) // PER_ROW)
    width, height = PER_ROW * (TILE + 8) + 8, rows * (TILE + 2 * CAPTION + 8) + 8
    sheet = np.full((height, width, 3), 255, np.uint8)
    for i, (stem, label, crop) in enumerate(entries):
        r, c = divmod(i, PER_ROW)
        x, y = 8 + c * (TILE + 8), 8 + r * (TILE + 2 * CAPTION + 8)
        sheet[y : y + TILE, x : x + TILE] = cv2.resize(crop, (TILE, TILE), interpolation=cv2.INTER_NEAREST)
        colour = (0, 0, 200) if label == "unnamed" else (0, 0, 0)
        cv2.putText(sheet, stem[-10:], (x, y + TILE + 13), cv2.FONT_HERSHEY_PLAIN, 0.8, (90, 90, 90), 1)
        cv2.putText(
            sheet,
            repr(label) if label != "unnamed" else "?unnamed",
            (x, y + TILE + CAPTION + 12),
            cv2.FONT_HERSHEY_SIMPLEX,
            0.45,
            colour,
            1,
        )
    return sheet


def write_contact_sheet(path: Path, entries: list[tuple[str, str, np.ndarray]]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    cv2.imwrite(str(path), contact_sheet(entries))
    return path
