"""Calibration from unlabelled screenshots: cluster the tiles, guess labels, let the user correct them.

Best input: one fresh board (names the hidden tile) and one or two lost
boards (their mines name the numbers).  Clusters no rule could name are
written as ``unnamed`` and left out of decoding until the user names them in
the TOML's ``[labels]`` table; the contact sheet shows which is which.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from autoplay.calibrate.cluster import leader_clusters, medoids
from autoplay.calibrate.contact_sheet import write_contact_sheet
from autoplay.calibrate.propose import propose_labels
from autoplay.calibrate.samples import Samples, cut_cells
from autoplay.calibrate.skin_writer import LABEL_SLUGS, SkinSettings, write_skin
from autoplay.calibrate.templates import derive_margins
from autoplay.vision.grid import Grid
from autoplay.vision.locate import locate_grid
from autoplay.vision.skin import UNNAMED


def _cluster_cells(
    images: list[np.ndarray], grids: list[Grid], settings: SkinSettings
) -> tuple[Samples, np.ndarray, np.ndarray]:
    """All cells of all images, their cluster per cell, and each cluster's medoid cell."""
    samples = Samples.concat(
        [
            cut_cells(image, grid, index, settings.patch_size, settings.inset)
            for index, (image, grid) in enumerate(zip(images, grids))
        ]
    )
    assignment, _ = leader_clusters(samples.vectors)
    return samples, assignment, medoids(samples.vectors, assignment)


@dataclass(frozen=True)
class ProposalResult:
    path: Path
    contact_sheet: Path
    proposed: dict[str, str]  # template stem -> label or "unnamed"


def calibrate_unsupervised(
    images: list[np.ndarray], name: str, root: Path, settings: SkinSettings | None = None, flags_possible: bool = True
) -> ProposalResult:
    """Cluster every cell of ``images``, write one template per cluster with its proposed label, and a contact sheet.

    ``flags_possible=False`` when the screenshots come from games nobody flagged in (live calibration).
    """
    settings = settings or SkinSettings()
    grids = [locate_grid(image) for image in images]
    samples, assignment, centres = _cluster_cells(images, grids, settings)
    boards, start = [], 0
    for grid in grids:
        boards.append(assignment[start : start + grid.rows * grid.cols].reshape(grid.rows, grid.cols))
        start += grid.rows * grid.cols
    proposals = propose_labels(boards, flags_possible)
    templates: dict[str, tuple[str, np.ndarray]] = {}
    for cluster, member in enumerate(centres):
        label = proposals.get(cluster, UNNAMED)
        slug = LABEL_SLUGS.get(label, "tile")
        templates[f"c{cluster:02d}-{slug}"] = (label, samples.crops[member])
    cluster_labels = np.array([label for label, _ in templates.values()])
    cell_labels = cluster_labels[assignment]
    named_cells = np.flatnonzero(cell_labels != UNNAMED)
    named_clusters = [k for k, label in enumerate(cluster_labels) if label != UNNAMED]
    if len(named_clusters) >= 2:
        # Thresholds from every cell whose cluster got a name, with the named medoids as templates.
        position = {int(cell): i for i, cell in enumerate(named_cells)}
        margins = derive_margins(
            samples.vectors[named_cells], cell_labels[named_cells], [position[int(centres[k])] for k in named_clusters]
        )
        max_distance, min_confidence = margins.max_distance, margins.min_confidence
        label_limits = margins.label_max_distance
    else:
        max_distance, min_confidence, label_limits = 0.1, 0.3, {}
    notes = "Proposed by unsupervised calibration: check the contact sheet and correct [labels]."
    path = write_skin(
        root,
        name,
        templates,
        settings,
        max_distance,
        min_confidence,
        label_limits,
        [g.pitch for g in grids],
        notes,
        subpixel=any(g.subpixel for g in grids),
    )
    sheet = write_contact_sheet(
        root / "templates" / name / "contact-sheet.png",
        [(stem, label, crop) for stem, (label, crop) in templates.items()],
    )
    return ProposalResult(path, sheet, {stem: label for stem, (label, _) in templates.items()})
