"""Writing a skin to disk: ``calibration/NAME.toml`` and ``templates/NAME/*.png``."""

from __future__ import annotations

import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import tomlkit

from autoplay.board.rules import Rules
from autoplay.vision.button import PICTURE_FILE, NewGame
from autoplay.vision.counter import CounterSpec, glyph_image
from autoplay.vision.features import DEFAULT_INSET, DEFAULT_SIZE

#: File-name stems for cell characters that cannot appear in file names comfortably.
LABEL_SLUGS = {
    ".": "hidden",
    "F": "flag",
    "?": "question",
    "*": "mine",
    "X": "exploded",
    **{d: f"n{d}" for d in "012345678"},
}


#: How the decoder tells the game's state unless a skin says otherwise: from the cells themselves.
BOARD_STATE = {
    "lost": "a mine shows on the board (autoplay.vision.state)",
    "won": "the win rule holds for the mine count (from [mines] or the caller)",
}


@dataclass
class SkinSettings:
    """What a user tells calibration about the game beyond its pictures."""

    rules: Rules = field(default_factory=Rules)
    window: dict[str, str] = field(default_factory=dict)
    new_game: dict[str, str] = field(default_factory=dict)
    state: dict[str, str] = field(default_factory=dict)
    mines: dict[str, int] = field(default_factory=dict)  # "ROWSxCOLS" -> total mines
    patch_size: int = DEFAULT_SIZE
    inset: float = DEFAULT_INSET
    counter: tuple[str, tuple[int, int, int, int], str] | None = None  # anchor, box, format of a mine counter
    chord: str | None = None  # the button the game chords with (``[press] chord``), where the user named it


def write_skin(
    root: Path,
    name: str,
    templates: dict[str, tuple[str, np.ndarray]],
    settings: SkinSettings,
    max_distance: float,
    min_confidence: float,
    label_max_distance: dict[str, float],
    pitches: list[tuple[float, float]],
    notes: str = "",
    counter: CounterSpec | None = None,
    origin: str = "",
    tile_radius: float | None = None,
    subpixel: bool = False,
) -> Path:
    """Replace skin ``name`` under ``root`` with ``templates`` (stem -> (label, cell image)); return the TOML path.

    ``pitches`` are the cell sizes seen during calibration; the skin accepts
    half the smallest to twice the largest, since many games scale with the window.
    ``counter`` adds the mine counter's box and glyph pictures; ``origin`` says which flow made the skin
    (``"live"``: ``play`` learns its unknown tiles by default); ``tile_radius`` how far apart two pictures of one
    tile may be, when calibration measured it (decoding then keeps each label's limit short of the next tile).
    """
    template_dir = root / "templates" / name
    if template_dir.exists():
        shutil.rmtree(template_dir)
    template_dir.mkdir(parents=True)
    for stem, (_, crop) in templates.items():
        cv2.imwrite(str(template_dir / f"{stem}.png"), crop)
    small, large = min(min(p) for p in pitches), max(max(p) for p in pitches)
    data: dict[str, Any] = {
        "name": name,
        **({"origin": origin} if origin else {}),
        "rules": {"first_click": settings.rules.first_click, "win": settings.rules.win},
        "match": {
            "max_distance": float(max_distance),
            "min_confidence": float(min_confidence),
            "patch_size": settings.patch_size,
            "inset": settings.inset,
            **({"tile_radius": round(float(tile_radius), 4)} if tile_radius is not None else {}),
        },
        "label_max_distance": dict(sorted(label_max_distance.items())),
        "geometry": {
            "pitch_range": [round(small * 0.5, 1), round(large * 2.0, 1)],
            **({"subpixel": True} if subpixel else {}),
        },
        "window": dict(settings.window),
        "new_game": new_game_table(settings.new_game, template_dir),
        "state": dict(settings.state) or dict(BOARD_STATE),
        "mines": dict(settings.mines),
        "labels": {stem: label for stem, (label, _) in templates.items()},
    }
    if settings.chord is not None:
        data["press"] = {"chord": settings.chord}
    if counter is not None:
        data["counter"] = {"anchor": counter.anchor, "box": list(counter.box), "format": counter.format}
        data["counter_glyphs"] = {}
        for char, vectors in counter.glyphs.items():
            for i, vector in enumerate(vectors):
                stem = glyph_stem(char, i)
                cv2.imwrite(str(template_dir / f"{stem}.png"), glyph_image(vector))
                data["counter_glyphs"][stem] = char
    path = root / "calibration" / f"{name}.toml"
    path.parent.mkdir(parents=True, exist_ok=True)
    header = f"Skin {name!r}, written by 'autoplay calibrate'.\n[labels] maps each templates/{name}/STEM.png to its cell character; fix wrong ones here."
    if notes:
        header += "\n" + notes
    path.write_text(skin_toml(data, header), encoding="utf-8")
    return path


def new_game_table(new_game: dict[str, str], template_dir: Path) -> dict[str, Any]:
    """The ``[new_game]`` table to write; a button picture goes beside the templates, with its pitch and offset."""
    table: dict[str, Any] = dict(new_game)
    button = new_game.button if isinstance(new_game, NewGame) else None
    if button is not None:
        picture = table.setdefault("picture", PICTURE_FILE)
        cv2.imwrite(str(template_dir / picture), button.image)
        table["pitch"] = float(button.pitch)
        table["offset"] = [float(v) for v in button.offset]
    return table


def skin_toml(data: dict[str, Any], header: str = "") -> str:
    """The text of a skin file: ``header`` as comment lines, then ``data`` (tables for the dict entries).

    tomlkit writes every string (control characters escaped) and every float exactly, so the file reads back
    through ``tomllib`` as the very values calibration measured.
    """
    doc = tomlkit.document()
    for line in header.splitlines():
        doc.add(tomlkit.comment(line))
    doc.update(data)
    return tomlkit.dumps(doc)


def numbered_stems(labels: list[str]) -> list[str]:
    """``hidden-00``, ``hidden-01``, ``n3-00`` ...: readable names in the order given."""
    seen: dict[str, int] = {}
    stems = []
    for label in labels:
        slug = LABEL_SLUGS[label]
        stems.append(f"{slug}-{seen.get(slug, 0):02d}")
        seen[slug] = seen.get(slug, 0) + 1
    return stems


def glyph_stem(char: str, index: int) -> str:
    """``glyph-7-00``, ``glyph-slash-00``: file names that survive any file system."""
    slug = char if char.isalnum() else {"/": "slash", "-": "minus", ":": "colon"}.get(char, f"u{ord(char):04x}")
    return f"glyph-{slug}-{index:02d}"
