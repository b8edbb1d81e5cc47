"""Adding learned tiles to a skin, and taking them out again (``play --learn``, ``calibrate --forget-learned``).

Every learned template is a file ``templates/NAME/learned-*.png`` and one
``[labels]`` entry in ``calibration/NAME.toml``; each addition is also one line
of ``calibration/NAME.learned.jsonl`` (when, which file, which label, the cells
and game that showed it and how that game ended), so a user can see why a
template is there and ``--forget-learned`` can remove exactly what was added.
"""

from __future__ import annotations

import json
import os
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import tomlkit

from autoplay.calibrate.learn import LearnedTile
from autoplay.calibrate.skin_writer import LABEL_SLUGS
from autoplay.errors import UsageError

LOG_SUFFIX = ".learned.jsonl"


@dataclass(frozen=True)
class Forgotten:
    """What ``forget_learned`` took out: template stems removed, and entries whose template was already gone."""

    removed: list[str]
    missing: list[str]


def learned_log(home: Path, name: str) -> Path:
    """The log of additions beside the skin's TOML."""
    return home / "calibration" / f"{name}{LOG_SUFFIX}"


def add_learned(home: Path, name: str, tiles: list[LearnedTile], game: int, end: str) -> list[dict[str, Any]]:
    """Write each tile as a template of skin ``name`` under ``home``; return the log entries written."""
    if not tiles:
        return []
    toml_path = home / "calibration" / f"{name}.toml"
    doc = tomlkit.parse(toml_path.read_text(encoding="utf-8"))
    labels = doc.setdefault("labels", tomlkit.table())
    template_dir = home / "templates" / name
    stamp = time.strftime("%Y%m%d-%H%M%S", time.gmtime())
    entries = []
    for tile in tiles:
        stem = _free_stem(template_dir, labels, f"learned-{stamp}-{LABEL_SLUGS[tile.label]}")
        if not cv2.imwrite(str(template_dir / f"{stem}.png"), tile.crop):
            raise UsageError(f"cannot write {template_dir / stem}.png")
        labels[stem] = tile.label
        entries.append(
            {
                "time": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
                "skin": name,
                "template": f"templates/{name}/{stem}.png",
                "stem": stem,
                "label": tile.label,
                "game": game,
                "end": end,
                "cells": [list(rc) for rc in tile.cells],
            }
        )
    _write_atomically(toml_path, tomlkit.dumps(doc))
    with learned_log(home, name).open("a", encoding="utf-8") as log:
        for entry in entries:
            log.write(json.dumps(entry) + "\n")
    return entries


def forget_learned(home: Path, name: str) -> Forgotten:
    """Remove every template the log says was learned, then the log itself."""
    log = learned_log(home, name)
    if not log.is_file():
        return Forgotten([], [])
    stems = []
    for number, line in enumerate(log.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            stems.append(str(json.loads(line)["stem"]))
        except (ValueError, KeyError, TypeError):
            raise UsageError(f"{log}:{number}: not a learned-template entry") from None
    toml_path = home / "calibration" / f"{name}.toml"
    doc = tomlkit.parse(toml_path.read_text(encoding="utf-8"))
    labels = doc.get("labels", {})
    removed: list[str] = []
    missing: list[str] = []
    for stem in stems:
        picture = home / "templates" / name / f"{stem}.png"
        found = stem in labels or picture.exists()
        if stem in labels:
            del labels[stem]
        picture.unlink(missing_ok=True)
        (removed if found else missing).append(stem)
    _write_atomically(toml_path, tomlkit.dumps(doc))
    log.unlink()
    return Forgotten(removed, missing)


def _free_stem(template_dir: Path, labels: Any, base: str) -> str:
    """``base-00``, ``base-01`` ...: the first stem neither a file nor a label yet."""
    k = 0
    while f"{base}-{k:02d}" in labels or (template_dir / f"{base}-{k:02d}.png").exists():
        k += 1
    return f"{base}-{k:02d}"


def _write_atomically(path: Path, text: str) -> None:
    """Replace ``path`` in one step, so a skin is never left half written."""
    temporary = path.with_suffix(path.suffix + ".tmp")
    temporary.write_text(text, encoding="utf-8")
    os.replace(temporary, path)
