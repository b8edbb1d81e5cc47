"""Skins: everything autoplay knows about one Minesweeper game's look and rules.

A skin is data, not code: ``calibration/NAME.toml`` plus the cell images in
``templates/NAME/``, both written by ``autoplay calibrate``, so teaching
autoplay a new game never needs a programmer.  The TOML's ``[labels]`` table
maps each template file to the cell character it shows; that table is the one
place a user corrects a wrong guess of the unsupervised calibration.
"""

from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from autoplay.board.model import CELL_CHARS
from autoplay.board.rules import Rules
from autoplay.errors import UsageError
from autoplay.vision.counter import CounterSpec, glyph_from_image
from autoplay.vision.features import DEFAULT_INSET, DEFAULT_SIZE, crop_patch, patch_vectors
from autoplay.vision.image_io import read_image

HOME_ENV = "AUTOPLAY_HOME"
#: A label that marks a template as not yet named (unsupervised calibration leaves these for the user).
UNNAMED = "unnamed"


def autoplay_home() -> Path:
    """The directory holding ``calibration/`` and ``templates/``: ``$AUTOPLAY_HOME`` or the source checkout."""
    env = os.environ.get(HOME_ENV)
    return Path(env) if env else Path(__file__).resolve().parents[2]


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
    folder = (root or autoplay_home()) / "calibration"
    return sorted(p.stem for p in folder.glob("*.toml")) if folder.is_dir() else []


def load_skin(name: str, root: Path | None = None) -> Skin:
    """Read ``calibration/NAME.toml`` and ``templates/NAME/*.png`` under ``root`` (default: autoplay home)."""
    home = Path(root) if root is not None else autoplay_home()
    path = home / "calibration" / f"{name}.toml"
    if not path.is_file():
        available = ", ".join(list_skins(home)) or "none"
        raise UsageError(f"unknown skin {name!r} (available under {home}: {available})")
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise UsageError(f"{path}: not valid TOML: {exc}") from None
    return skin_from_dict(name, data, home / "templates" / name, source=str(path))


def skin_from_dict(name: str, data: dict, template_dir: Path, source: str = "skin") -> Skin:
    """Build a skin from its parsed TOML; template files are read from ``template_dir``."""
    try:
        rules = Rules(**data.get("rules", {}))
    except (TypeError, ValueError) as exc:
        raise UsageError(f"{source}: [rules]: {exc}") from None
    match = data.get("match", {})
    geometry = data.get("geometry", {})
    templates: dict[str, list[np.ndarray]] = {}
    for stem, label in sorted(data.get("labels", {}).items()):
        if label == UNNAMED:
            continue
        if label not in CELL_CHARS:
            raise UsageError(f"{source}: [labels] {stem} = {label!r} is not a cell character (. F ? * X 0-8)")
        templates.setdefault(label, []).append(read_image(template_dir / f"{stem}.png"))
    if not templates:
        raise UsageError(f"{source}: the skin has no labelled templates")
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


def _counter(data: dict, template_dir: Path, source: str) -> CounterSpec | None:
    """The ``[counter]`` table and its ``[counter_glyphs]`` images, when the skin reads a mine counter."""
    table = data.get("counter")
    if not table:
        return None
    glyphs: dict[str, list[np.ndarray]] = {}
    for stem, char in sorted(data.get("counter_glyphs", {}).items()):
        glyphs.setdefault(str(char), []).append(glyph_from_image(read_image(template_dir / f"{stem}.png")))
    try:
        return CounterSpec(str(table["anchor"]), tuple(int(v) for v in table["box"]), str(table["format"]), glyphs)
    except (KeyError, TypeError, ValueError) as exc:
        raise UsageError(f"{source}: [counter]: {exc}") from None
