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
from autoplay.errors import UnreadableBoardError, UsageError
from autoplay.outputs import is_plain_name
from autoplay.vision.button import ButtonPicture, NewGame
from autoplay.vision.classify import label_gaps, squared_distances
from autoplay.vision.counter import CounterSpec, glyph_from_image
from autoplay.vision.features import DEFAULT_INSET, DEFAULT_SIZE, crop_patch, patch_vectors
from autoplay.vision.image_io import read_image
from autoplay.vision.skin_home import skin_homes, user_home

#: A label that marks a template as not yet named (unsupervised calibration leaves these for the user).
UNNAMED = "unnamed"
#: An unnamed template this near (RMS) a named one is the same tile, named since (calibration's clusters are 0.05 apart).
SAME_TILE = 0.025
#: The stand-in character of unnamed templates in the template matrix: a cell nearest one of them is unreadable.
UNNAMED_MARK = "~"


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
    #: How to start a new game: ``key``, or ``click`` (``face``, or ``picture`` with the button's picture loaded).
    new_game: dict[str, str] = field(default_factory=NewGame)
    state: dict[str, str] = field(default_factory=dict)
    mines_by_size: dict[tuple[int, int], int] = field(default_factory=dict)
    counter: CounterSpec | None = None
    #: ``"live"`` for a skin written by ``calibrate --live``: ``play`` then learns its unknown tiles by default.
    origin: str = ""
    #: Tiles calibration saw but could not name.  They name nothing, but they compete: a cell that looks like
    #: one of them (a 1 when only the 0 is named) is unreadable, never the nearest named label.
    unnamed: list[np.ndarray] = field(default_factory=list)
    #: How far apart two pictures of one tile of this game may be (RMS): three times the spread live
    #: calibration measured on the fresh board (``calibrate.tilebook.fresh_radius``); None when not measured.
    #: With it, no label's limit reaches past half-way to the nearest other tile (:meth:`match_limits`).
    tile_radius: float | None = None
    #: Whether calibration located this game's boards between pixels (a page at 125%: see ``locate``): its
    #: templates were then cut from averaged samples, and its boards must be located and sampled the same way.
    subpixel: bool = False
    #: The button whose press on a number whose flags are all placed opens its other neighbours (``[press] chord``,
    #: one of :data:`CHORD_BUTTONS`); None where the game has no chord or nobody said which button makes it.
    chord: str | None = None

    @property
    def thresholds(self) -> dict[str, float]:
        return {
            "max_distance": self.max_distance,
            "min_confidence": self.min_confidence,
            **{f"max_distance[{k}]": v for k, v in self.label_max_distance.items()},
        }

    def match_limits(self) -> dict[str, float]:
        """Each label's distance limit: ``label_max_distance``, and, when the tile spread was measured, at most
        half the distance from the label's templates to the nearest template of another tile (never below
        ``tile_radius``), cached per skin.

        A tile the skin has never seen must stay unreadable, not pass as its nearest neighbour.  A fixed limit
        cannot promise that: a game drawing faint digits in one grey (19 px) has its 1, 2, 3 and 5 within 0.03
        of each other, and its unseen 6 lay 0.02 from the 5 the skin knew, inside the usual 0.04; it was read as
        5 and a move called certain lost.  An unseen tile is about as far from the known ones as they are from
        each other, so a limit of half their gap turns it away; a game whose pictures vary more than that
        (kmines draws its tiles over a photograph) keeps the room its measured radius asks for.
        """
        cached = self.__dict__.get("_limits")
        if cached is None:
            cached = dict(self.label_max_distance)
            if self.tile_radius is not None:
                for label, gap in label_gaps(*self.template_matrix()).items():
                    cached[label] = min(cached.get(label, self.max_distance), max(gap / 2.0, self.tile_radius))
            object.__setattr__(self, "_limits", cached)
        return cached

    def labelled_templates(self) -> list[tuple[str, np.ndarray]]:
        """Every template picture with its character; unnamed ones carry :data:`UNNAMED_MARK`.

        An unnamed tile that a named template all but repeats (``play --learn`` named it later, under another
        file) is that label now and is left out: it would otherwise tie with its named twin and make it unreadable.
        """
        named = [(label, img) for label, images in self.templates.items() for img in images]
        if not self.unnamed:
            return named
        vectors = np.stack([patch_vectors(crop_patch(img, self.patch_size, self.inset))[0] for _, img in named])
        unnamed = np.stack([patch_vectors(crop_patch(img, self.patch_size, self.inset))[0] for img in self.unnamed])
        nearest = np.sqrt(squared_distances(unnamed, vectors).min(axis=1))
        return named + [(UNNAMED_MARK, img) for img, d in zip(self.unnamed, nearest, strict=True) if d > SAME_TILE]

    def template_matrix(self) -> tuple[np.ndarray, np.ndarray]:
        """All template vectors stacked (M x D) and their label characters (M), cached per skin."""
        cached = self.__dict__.get("_matrix")
        if cached is None:
            patches, labels = self._patches()
            cached = (patch_vectors(patches), labels)
            object.__setattr__(self, "_matrix", cached)
        return cached

    def template_pixels(self) -> np.ndarray:
        """The templates' patches as 8-bit rows (M x D), in :meth:`template_matrix`'s order: what exact distances
        are computed from (:func:`autoplay.vision.classify.pixel_distances`)."""
        patches = self._patches()[0]
        return patches.reshape(len(patches), -1)

    def _patches(self) -> tuple[np.ndarray, np.ndarray]:
        """Every template's patch (size x size x 3, 8-bit) and its label character, cached per skin."""
        cached = self.__dict__.get("_patch_rows")
        if cached is None:
            labelled = self.labelled_templates()
            patches = [crop_patch(img, self.patch_size, self.inset) for _, img in labelled]
            size = self.patch_size
            stacked = np.stack(patches) if patches else np.zeros((0, size, size, 3), np.uint8)
            cached = (stacked, np.array([label for label, _ in labelled], dtype="<U1"))
            object.__setattr__(self, "_patch_rows", cached)
        return cached

    def mines_for(self, rows: int, cols: int) -> int | None:
        """Total mines of a board of this size when the game's size fixes it (its presets)."""
        return self.mines_by_size.get((rows, cols))


def list_skins(root: Path | None = None) -> list[str]:
    """Names of the skins under ``root``, or by default in every skin home (the user's and the shipped ones)."""
    homes = [Path(root)] if root is not None else skin_homes()
    return sorted({p.stem for home in homes for p in (home / "calibration").glob("*.toml")})


def skin_home_of(name: str, root: Path | None = None) -> Path:
    """The folder holding skin ``name``'s ``calibration/`` and ``templates/``: ``root``, or the first skin home."""
    homes = [Path(root)] if root is not None else skin_homes()
    found = [home for home in homes if is_plain_name(name) and (home / "calibration" / f"{name}.toml").is_file()]
    if not found:
        where = " and ".join(str(home) for home in homes)
        raise UsageError(f"unknown skin {name!r} (available under {where}: {', '.join(list_skins(root)) or 'none'})")
    return found[0]


def load_skin(name: str, root: Path | None = None) -> Skin:
    """Read ``calibration/NAME.toml`` and ``templates/NAME/*.png`` from ``root``, or the first skin home that has it."""
    home = skin_home_of(name, root)
    path = home / "calibration" / f"{name}.toml"
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise UsageError(f"{path}: not valid TOML: {exc}") from None
    except OSError as exc:
        raise UsageError(f"{path}: cannot read: {exc.strerror or exc}") from None
    return skin_from_dict(name, data, home / "templates" / name, source=str(path))


def skin_from_dict(name: str, data: dict[str, Any], template_dir: Path, source: str = "skin") -> Skin:
    """Build a skin from its parsed TOML; template files are read from ``template_dir``.

    The TOML is hand-edited (its ``[labels]`` table is where a user fixes a calibration), so every value
    is checked for its type and range here: a bad one is a one-line :class:`UsageError` naming the key,
    not a traceback later in the vision code.
    """
    rules_table = _table(data, "rules", source)
    try:
        rules = Rules(**rules_table)
    except (TypeError, ValueError) as exc:
        raise UsageError(f"{source}: [rules]: {exc}") from None
    match = _table(data, "match", source)
    geometry = _table(data, "geometry", source)
    templates: dict[str, list[np.ndarray]] = {}
    unnamed: list[np.ndarray] = []
    for stem, label in sorted(_table(data, "labels", source).items()):
        if label == UNNAMED:
            unnamed.append(_template(template_dir, stem, source))
            continue
        if not isinstance(label, str) or label not in CELL_CHARS:
            raise UsageError(f"{source}: [labels] {stem} = {label!r} is not a cell character (. F ? * X 0-8)")
        templates.setdefault(label, []).append(_template(template_dir, stem, source))
    if not templates:
        raise UsageError(f"{source}: the skin has no labelled templates")
    pitch = geometry.get("pitch_range")
    if pitch is not None:
        if not (isinstance(pitch, list) and len(pitch) == 2 and all(_is_number(v) for v in pitch)):
            raise UsageError(f"{source}: [geometry] pitch_range must be [SMALLEST, LARGEST] in pixels, got {pitch!r}")
        if not 0 < pitch[0] < pitch[1]:
            raise UsageError(f"{source}: [geometry] pitch_range must be two sizes with 0 < first < second")
    mines_by_size = {}
    for key, count in _table(data, "mines", source).items():
        rows, _, cols = key.partition("x")
        if not (rows.isdigit() and cols.isdigit() and isinstance(count, int) and not isinstance(count, bool)):
            raise UsageError(f"{source}: [mines] {key} = {count!r}: expected ROWSxCOLS = N, e.g. 16x30 = 99")
        if not 0 <= count <= int(rows) * int(cols):
            raise UsageError(f"{source}: [mines] {key} = {count}: not between 0 and the number of cells")
        mines_by_size[(int(rows), int(cols))] = count
    label_max = _table(data, "label_max_distance", source)
    return Skin(
        counter=_counter(data, template_dir, source),
        name=name,
        rules=rules,
        templates=templates,
        max_distance=_bounded(match, "max_distance", 0.15, source, "match", low=0.0, high=1.0),
        label_max_distance={
            str(k): _bounded(label_max, k, 0.0, source, "label_max_distance", low=0.0, high=1.0) for k in label_max
        },
        min_confidence=_bounded(match, "min_confidence", 0.2, source, "match", low=0.0, high=1.0, low_ok=True),
        patch_size=int(_bounded(match, "patch_size", DEFAULT_SIZE, source, "match", low=2, high=64, whole=True)),
        inset=_bounded(match, "inset", DEFAULT_INSET, source, "match", low=0.0, high=0.45, low_ok=True),
        pitch_range=(float(pitch[0]), float(pitch[1])) if pitch else None,
        window=_texts(data, "window", source),
        new_game=_new_game(data, template_dir, source),
        state=_texts(data, "state", source),
        mines_by_size=mines_by_size,
        origin=str(data.get("origin", "")),
        unnamed=unnamed,
        tile_radius=(
            _bounded(match, "tile_radius", 0.0, source, "match", low=0.0, high=1.0, low_ok=True)
            if "tile_radius" in match
            else None
        ),
        subpixel=_flag(geometry, "subpixel", source),
        chord=_chord(data, source),
    )


#: The buttons a skin may name for its game's chord: xdemineur and kmines chord with the middle one, games like
#: gnome-mines with a left press on the number.
CHORD_BUTTONS: tuple[str, ...] = ("middle", "left")


def _chord(data: dict[str, Any], source: str) -> str | None:
    """The ``[press] chord`` button, or None when the table or the key is absent."""
    press = _table(data, "press", source)
    chord = press.get("chord")
    if chord is None:
        return None
    if chord not in CHORD_BUTTONS:
        raise UsageError(f"{source}: [press] chord = {chord!r}: expected one of {', '.join(CHORD_BUTTONS)}")
    return str(chord)


def _flag(table: dict[str, Any], key: str, source: str | Path) -> bool:
    """A true/false entry of ``table`` (false when absent)."""
    value = table.get(key, False)
    if not isinstance(value, bool):
        raise UsageError(f"{source}: [geometry] {key} must be true or false, got {value!r}")
    return value


def _is_number(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _table(data: dict[str, Any], key: str, source: str) -> dict[str, Any]:
    """A TOML table (empty when absent); a key given as a plain value instead is an error."""
    value = data.get(key, {})
    if not isinstance(value, dict):
        raise UsageError(f"{source}: [{key}] must be a table, got {value!r}")
    return value


def _texts(data: dict[str, Any], key: str, source: str) -> dict[str, str]:
    table = _table(data, key, source)
    for k, v in table.items():
        if not isinstance(v, (str, int)) or isinstance(v, bool):
            raise UsageError(f"{source}: [{key}] {k} = {v!r}: expected text")
    return {k: str(v) for k, v in table.items()}


def _bounded(
    table: dict[str, Any],
    key: str,
    default: float,
    source: str,
    section: str,
    *,
    low: float,
    high: float,
    low_ok: bool = False,
    whole: bool = False,
) -> float:
    """``table[key]`` as a number in (low, high] (or [low, high] with ``low_ok``), whole when ``whole``."""
    value = table.get(key, default)
    kind = "a whole number" if whole else "a number"
    if not _is_number(value) or (whole and not isinstance(value, int)):
        raise UsageError(f"{source}: [{section}] {key} = {value!r}: expected {kind}")
    above = value >= low if low_ok else value > low
    if not (above and value <= high and value == value):
        bracket = "[" if low_ok else "("
        raise UsageError(f"{source}: [{section}] {key} = {value!r}: expected {kind} in {bracket}{low}, {high}]")
    return float(value)


def _template(template_dir: Path, stem: str, source: str) -> np.ndarray:
    """One template picture; a missing or broken file is a broken skin (usage error), not an unreadable board."""
    path = template_dir / f"{stem}.png"
    if not is_plain_name(stem):
        raise UsageError(f"{source}: [labels] {stem!r} is not a plain file name")
    try:
        return read_image(path)
    except UnreadableBoardError as exc:
        raise UsageError(f"{source}: template {exc}") from None


def _new_game(data: dict[str, Any], template_dir: Path, source: str) -> NewGame:
    """The ``[new_game]`` table; with ``click = "picture"`` also its button picture, its pitch and offset."""
    table = dict(_table(data, "new_game", source))
    if table.get("click") != "picture":
        return NewGame(_texts({"new_game": table}, "new_game", source))
    pitch, offset = table.pop("pitch", None), table.pop("offset", None)
    if not (_is_number(pitch) and pitch > 0):
        raise UsageError(f"{source}: [new_game] pitch = {pitch!r}: expected the board's pitch in pixels (> 0)")
    if not (isinstance(offset, list) and len(offset) == 2 and all(_is_number(v) for v in offset)):
        raise UsageError(f"{source}: [new_game] offset = {offset!r}: expected [X, Y] in board pitches")
    texts = _texts({"new_game": table}, "new_game", source)
    stem = texts.get("picture", "").removesuffix(".png")
    if not stem:
        raise UsageError(f'{source}: [new_game] click = "picture" needs picture = "FILE.png"')
    image = _template(template_dir, stem, source)
    return NewGame(texts, ButtonPicture(image, float(pitch), (float(offset[0]), float(offset[1]))))


def _counter(data: dict[str, Any], template_dir: Path, source: str) -> CounterSpec | None:
    """The ``[counter]`` table and its ``[counter_glyphs]`` images, when the skin reads a mine counter."""
    table = data.get("counter")
    if not table:
        return None
    if not isinstance(table, dict):
        raise UsageError(f"{source}: [counter] must be a table, got {table!r}")
    glyphs: dict[str, list[np.ndarray]] = {}
    for stem, char in sorted(_table(data, "counter_glyphs", source).items()):
        glyphs.setdefault(str(char), []).append(glyph_from_image(_template(template_dir, stem, source)))
    try:
        x0, y0, x1, y1 = (int(v) for v in table["box"])
        return CounterSpec(str(table["anchor"]), (x0, y0, x1, y1), str(table["format"]), glyphs)
    except (KeyError, TypeError, ValueError) as exc:
        raise UsageError(f"{source}: [counter]: {exc}") from None
