"""Turning a live calibration session into a skin: templates per named tile, thresholds from their members."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from autoplay.calibrate.contact_sheet import write_contact_sheet
from autoplay.calibrate.live import Session
from autoplay.calibrate.skin_writer import LABEL_SLUGS, SkinSettings, write_skin
from autoplay.calibrate.templates import derive_margins, farthest_point_selection
from autoplay.calibrate.unsupervised import ProposalResult
from autoplay.vision.skin import UNNAMED


def write_live_skin(session: Session, name: str, root: Path, settings: SkinSettings) -> ProposalResult:
    """Write the skin: every named cluster gives a few templates, every unnamed one a single ``unnamed`` entry."""
    book = session.book
    labels = session.naming.labels if session.naming else {}
    templates: dict[str, tuple[str, np.ndarray]] = {}
    vectors: list[np.ndarray] = []
    vector_labels: list[str] = []
    chosen: list[int] = []
    for cluster in range(len(book)):
        if not book.members[cluster]:
            continue
        label = labels.get(cluster, UNNAMED)
        members = np.stack(book.members[cluster])
        picks = farthest_point_selection(members) if label != UNNAMED else [book.medoid(cluster)]
        slug = LABEL_SLUGS.get(label, "tile")
        for j, pick in enumerate(picks):
            templates[f"c{cluster:02d}-{slug}-{j:02d}"] = (label, book.crops[cluster][pick])
        if label != UNNAMED:
            start = len(vectors)
            vectors.extend(members)
            vector_labels.extend([label] * len(members))
            chosen.extend(start + p for p in picks)
    if len(set(vector_labels)) >= 2:
        margins = derive_margins(np.stack(vectors), np.array(vector_labels, dtype="<U1"), chosen)
        max_distance, min_confidence, limits = margins.max_distance, margins.min_confidence, margins.label_max_distance
    else:
        max_distance, min_confidence, limits = 0.1, 0.3, {}
    notes = "Named by live calibration from the rules of the game; unnamed tiles were not decided by the evidence."
    pitches = [g.pitch for g in session.grids]
    path = write_skin(
        root,
        name,
        templates,
        settings,
        max_distance,
        min_confidence,
        limits,
        pitches,
        notes,
        origin="live",
        tile_radius=session.book.radius,
        subpixel=any(g.subpixel for g in session.grids),
    )
    sheet = write_contact_sheet(
        root / "templates" / name / "contact-sheet.png",
        [(stem, label, crop) for stem, (label, crop) in templates.items()],
    )
    return ProposalResult(path, sheet, {stem: label for stem, (label, _) in templates.items()})
