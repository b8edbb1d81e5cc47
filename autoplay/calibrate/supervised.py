"""Calibration from screenshots whose true boards the user provides."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from autoplay.board.model import Board
from autoplay.calibrate.counter_glyphs import calibrate_counter
from autoplay.calibrate.samples import Samples, cut_cells
from autoplay.calibrate.skin_writer import SkinSettings, numbered_stems, write_skin
from autoplay.calibrate.templates import Margins, derive_margins, select_templates
from autoplay.errors import UsageError
from autoplay.vision.grid import Grid
from autoplay.vision.locate import locate_grid


@dataclass(frozen=True)
class CalibrationResult:
    path: Path
    margins: Margins
    templates_per_label: dict[str, int]
    grids: list[Grid]


def labelled_samples(
    images: list[np.ndarray], boards: list[Board], settings: SkinSettings
) -> tuple[Samples, np.ndarray, list[Grid]]:
    """Cells of every image with the label its board gives; grid sizes must agree with the boards."""
    parts: list[Samples] = []
    labels: list[str] = []
    grids: list[Grid] = []
    for index, (image, board) in enumerate(zip(images, boards)):
        grid = locate_grid(image)
        if (grid.rows, grid.cols) != (board.rows, board.cols):
            raise UsageError(
                f"image {index + 1}: found a {grid.rows}x{grid.cols} grid but the label board is "
                f"{board.rows}x{board.cols}"
            )
        parts.append(cut_cells(image, grid, index, settings.patch_size, settings.inset))
        labels.extend(board.cells)
        grids.append(grid)
    return Samples.concat(parts), np.array(labels, dtype="<U1"), grids


def calibrate_supervised(
    images: list[np.ndarray], boards: list[Board], name: str, root: Path, settings: SkinSettings | None = None
) -> CalibrationResult:
    """Cut templates for every labelled character, derive thresholds and write the skin under ``root``."""
    settings = settings or SkinSettings()
    if not images or len(images) != len(boards):
        raise UsageError("give one label board per labelled image")
    samples, labels, grids = labelled_samples(images, boards, settings)
    chosen = select_templates(samples.vectors, labels)
    margins = derive_margins(samples.vectors, labels, chosen)
    if margins.misclassified:
        raise UsageError(
            f"{margins.misclassified} labelled cells look more like another label than their own: "
            "check the label board against the image"
        )
    chosen_labels = [str(labels[i]) for i in chosen]
    stems = numbered_stems(chosen_labels)
    templates = {stem: (label, samples.crops[i]) for stem, label, i in zip(stems, chosen_labels, chosen)}
    counter = calibrate_counter(images, boards, grids, *settings.counter).spec if settings.counter else None
    path = write_skin(
        root,
        name,
        templates,
        settings,
        margins.max_distance,
        margins.min_confidence,
        margins.label_max_distance,
        [g.pitch for g in grids],
        counter=counter,
        subpixel=any(g.subpixel for g in grids),
    )
    counts = {label: chosen_labels.count(label) for label in sorted(set(chosen_labels))}
    return CalibrationResult(path, margins, counts, grids)
