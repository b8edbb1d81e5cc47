"""Skins: everything autoplay knows about one Minesweeper game's look and rules.

A skin is data, not code: ``calibration/NAME.toml`` plus the cell images in
``templates/NAME/``, both written by ``autoplay calibrate``, so teaching
autoplay a new game never needs a programmer.  The TOML's ``[labels]`` table
maps each template file to the cell character it shows; that table is the one
place a user corrects a wrong guess of the unsupervised calibration.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from autoplay.board.model import CELL_CHARS
from autoplay.board.rules import Rules
from autoplay.errors import AutoplayError
from autoplay.vision.counter import CounterSpec, glyph_from_image
from autoplay.vision.features import DEFAULT_INSET, DEFAULT_SIZE, crop_patch, patch_vectors
from autoplay.vision.image_io import read_image
from autoplay.vision.skin_home import skin_homes, user_home

#: A label that marks a template as not yet named (unsupervised calibration leaves these for the user).
UNNAMED = "unnamed"


def autoplay_home() -> Path:
    """The folder new skins are written to (``$AUTOPLAY_HOME`` or the per-user data folder; see ``skin_home``)."""
    return user_home()


@dataclass(frozen=True, eq=False)
class Skin:
    """One game's look: templates per cell character and the limits for trusting a match.

    ``max_distance`` is the largest RMS colour difference (0..1) to the nearest
    template that still counts as a match (``label_max_distance`` overrides it
    per label: a label drawn under a gradient varies more than a flat one); ``min_confidence`` is the smallest
    margin ``1 - d_best / d_other_label``.  Both come from calibration margins.
    """

    name: str
    rules: Rules = field(default_factory=Rules)
    templates: dict[str, list[np.ndarray]] = field(default_factory=dict)
    max_distance: float = 0.15
    label_max_distance: dict[str, float] = field(default_factory=dict)
    min_confidence: float = 0.2
    patch_size: int = DEFAULT_SIZE
    inset: float = DEFAULT_INSET
    pitch_range: tuple[float, float] | None = None
    window: dict[str, str] = field(default_factory=dict)
    new_game: dict[str, str] = field(default_factory=dict)
    state: dict[str, str] = field(default_factory=dict)
    mines_by_size: dict[tuple[int, int], int] = field(default_factory=dict)
    counter: CounterSpec | None = None

    @property
    def thresholds(self) -> dict[str, float]:
        return {
            "max_distance": self.max_distance,
            "min_confidence": self.min_confidence,
            **{f"max_distance[{k}]": v for k, v in self.label_max_distance.items()},
        }

    def template_matrix(self) -> tuple[np.ndarray, np.ndarray]:
        """All template vectors stacked (M x D) and their label characters (M), cached per skin."""
        cached = self.__dict__.get("_matrix")
        if cached is None:
            labels, vectors = [], []
            for label, images in self.templates.items():
                for img in images:
                    labels.append(label)
                    vectors.append(patch_vectors(crop_patch(img, self.patch_size, self.inset))[0])
            matrix = np.stack(vectors) if vectors else np.zeros((0, 3 * self.patch_size**2), np.float32)
            cached = (matrix, np.array(labels, dtype="<U1"))
            object.__setattr__(self, "_matrix", cached)
        return cached

    def mines_for(self, rows: int, cols: int) -> int | None:
        """Total mines of a board of this size when the game's size fixes it (its presets)."""
        return self.mines_by_size.get((rows, cols))


def list_skins(root: Path | None = None) -> list[str]:
    """Names of the skins under ``root``, or by default in every skin home (the user's and the shipped ones)."""
    homes = [Path(root)] if root is not None else skin_homes()
    return sorted({p.stem for home in homes for p in (home / "calibration").glob("*.toml")})


def load_skin(name: str, root: Path | None = None) -> Skin:
    """Read ``calibration/NAME.toml`` and ``templates/NAME/*.png`` from ``root``, or the first skin home that has it."""
    homes = [Path(root)] if root is not None else skin_homes()
    found = [home for home in homes if (home / "calibration" / f"{name}.toml").is_file()]
    if not found:
        where = " and ".join(str(home) for home in homes)
        raise AutoplayError(f"unknown skin {name!r} (available under {where}: {', '.join(list_skins(root)) or 'none'})")
    home = found[0]
    path = home / "calibration" / f"{name}.toml"
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise AutoplayError(f"{path}: not valid TOML: {exc}") from None
    return skin_from_dict(name, data, home / "templates" / name, source=str(path))


def skin_from_dict(name: str, data: dict[str, Any], template_dir: Path, source: str = "skin") -> Skin:
    """Build a skin from its parsed TOML; template files are read from ``template_dir``."""
    try:
        rules = Rules(**data.get("rules", {}))
    except (TypeError, ValueError) as exc:
        raise AutoplayError(f"{source}: [rules]: {exc}") from None
    match = data.get("match", {})
    geometry = data.get("geometry", {})
    templates: dict[str, list[np.ndarray]] = {}
    for stem, label in sorted(data.get("labels", {}).items()):
        if label == UNNAMED:
            continue
        if label not in CELL_CHARS:
            raise AutoplayError(f"{source}: [labels] {stem} = {label!r} is not a cell character (. F ? * X 0-8)")
        templates.setdefault(label, []).append(read_image(template_dir / f"{stem}.png"))
    if not templates:
        raise AutoplayError(f"{source}: the skin has no labelled templates")
    pitch = geometry.get("pitch_range")
    mines_by_size = {}
    for key, count in data.get("mines", {}).items():
        rows, _, cols = key.partition("x")
        if rows.isdigit() and cols.isdigit():
            mines_by_size[(int(rows), int(cols))] = int(count)
    return Skin(
        counter=_counter(data, template_dir, source),
        name=name,
        rules=rules,
        templates=templates,
        max_distance=float(match.get("max_distance", 0.15)),
        label_max_distance={str(k): float(v) for k, v in data.get("label_max_distance", {}).items()},
        min_confidence=float(match.get("min_confidence", 0.2)),
        patch_size=int(match.get("patch_size", DEFAULT_SIZE)),
        inset=float(match.get("inset", DEFAULT_INSET)),
        pitch_range=(float(pitch[0]), float(pitch[1])) if pitch else None,
        window={k: str(v) for k, v in data.get("window", {}).items()},
        new_game={k: str(v) for k, v in data.get("new_game", {}).items()},
        state={k: str(v) for k, v in data.get("state", {}).items()},
        mines_by_size=mines_by_size,
    )


def _counter(data: dict[str, Any], template_dir: Path, source: str) -> CounterSpec | None:
    """The ``[counter]`` table and its ``[counter_glyphs]`` images, when the skin reads a mine counter."""
    table = data.get("counter")
    if not table:
        return None
    glyphs: dict[str, list[np.ndarray]] = {}
    for stem, char in sorted(data.get("counter_glyphs", {}).items()):
        glyphs.setdefault(str(char), []).append(glyph_from_image(read_image(template_dir / f"{stem}.png")))
    try:
        x0, y0, x1, y1 = (int(v) for v in table["box"])
        return CounterSpec(str(table["anchor"]), (x0, y0, x1, y1), str(table["format"]), glyphs)
    except (KeyError, TypeError, ValueError) as exc:
        raise AutoplayError(f"{source}: [counter]: {exc}") from None
