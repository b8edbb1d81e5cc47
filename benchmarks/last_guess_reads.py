"""How a last guess's tile reads among what it can show, each template left out of its own skin in turn.

Usage: PYTHONPATH=. python benchmarks/last_guess_reads.py ROOT [ROOT ...] [--out F.md]

A game that ends on a guess opening the last safe cell or a mine has one witness when the skin reads no end
elsewhere: the tile the guess opened (``autoplay/play/last_guess.py``).  Live, that tile is sometimes in a look the
skin has not learnt (a page at 125% draws a tile a little otherwise at each fraction of a pixel; the exploded mine
is seen once a lost game).  This script makes that case from real skins: every skin a ``web_looks.py`` or
``new_games.py`` run made (the ``home`` folders under each ROOT), and in each, every template of a number or of the
exploded mine, read with that one template left out of the skin (a look not learnt),
and every such template moved by half a pixel (resampled), read by the whole skin (a tile at a phase not
learnt):
- by the usual reading (:func:`autoplay.vision.classify.classify` over every label), and
- among the two things a last guess's cell can show (:func:`autoplay.vision.among.read_among`): a number's
  template against that number or a mine; the exploded mine's against a mine or each number the skin knows.
A read is wrong when it names the other outcome: a won game called lost, or a lost one won.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np

from autoplay.board.model import DIGITS, EXPLODED, MINE
from autoplay.vision.among import read_among
from autoplay.vision.classify import classify
from autoplay.vision.features import crop_patch, patch_vectors
from autoplay.vision.grid import Grid
from autoplay.vision.rescaled import classify_rescaled
from autoplay.vision.skin import Skin, load_skin

#: Pixels of the tile's own edge repeated around it, so the one-pixel moves of the reading stay on the picture.
PAD = 2
LOST = MINE + EXPLODED
#: Sub-pixel moves of a whole template (the skin kept whole): a look at another phase, as a page at 125% draws.
HALF_PIXEL = ((0.5, 0.0), (0.0, 0.5), (0.5, 0.5))


def skins_under(root: Path) -> list[tuple[str, Skin]]:
    """Every skin of the run folders under ``root`` (``.../home/calibration/NAME.toml``), named by its folder."""
    found = []
    for toml in sorted(root.glob("**/home/calibration/*.toml")):
        home = toml.parent.parent
        found.append((str(home.parent.relative_to(root.parent)), load_skin(toml.stem, home)))
    return found


def without(skin: Skin, label: str, index: int) -> Skin:
    """``skin`` with its ``index``-th template of ``label`` left out (a new skin: its caches start empty)."""
    templates = {key: list(images) for key, images in skin.templates.items()}
    del templates[label][index]
    return replace(skin, templates={key: images for key, images in templates.items() if images})


def judge(skin: Skin, label: str, tile: np.ndarray) -> tuple[str, list[str]]:
    """How ``tile`` (of ``label``) reads in ``skin``: the usual reading's verdict and the size-forgiving one's
    (:func:`autoplay.vision.rescaled.classify_rescaled`, every label), and one verdict per two-way reading."""
    vectors = patch_vectors(crop_patch(tile, skin.patch_size, skin.inset))
    templates, labels = skin.template_matrix()
    usual = classify(vectors, templates, labels, skin.max_distance, skin.min_confidence, skin.match_limits())
    if not usual.readable[0]:
        usual_verdict = "unread"
    else:
        usual_verdict = "right" if str(usual.labels[0]) == label else "wrong"
    padded = cv2.copyMakeBorder(tile, PAD, PAD, PAD, PAD, cv2.BORDER_REPLICATE)
    h, w = tile.shape[:2]
    grid = Grid(np.array([PAD, PAD + w], dtype=np.float64), np.array([PAD, PAD + h], dtype=np.float64))
    forgiving = classify_rescaled(padded, grid, skin, np.array([0]))
    if not forgiving.readable[0]:
        forgiving_verdict = "unread"
    else:
        forgiving_verdict = "right" if str(forgiving.labels[0]) == label else "wrong"
    known_digits = sorted(set(skin.templates) & set(DIGITS) - {"0"})
    # The exploded mine is also read against a number the skin has never seen (the last guess's cell would show
    # that number if safe): the numbers the skin knows then stand in for it, and must not take a mine for one.
    never_seen = [d for d in DIGITS[1:] if d not in skin.templates][:1]
    pairs = [label] if label in DIGITS else known_digits + never_seen
    truth = "won" if label in DIGITS else "lost"
    verdicts = []
    for digit in pairs:
        read = read_among(padded, grid, skin, (0, 0), {"won": digit, "lost": LOST})
        verdicts.append("unsure" if read is None else "right" if read == truth else "wrong")
    return f"{usual_verdict}, forgiving {forgiving_verdict}", verdicts


def moved_half_a_pixel(tile: np.ndarray, dx: float, dy: float) -> np.ndarray:
    """``tile`` resampled ``dx``, ``dy`` pixels on (its edge pixels repeated into the uncovered strip)."""
    shift = np.float32([[1, 0, dx], [0, 1, dy]])
    return cv2.warpAffine(tile, shift, tile.shape[1::-1], flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


def cases(skin: Skin) -> list[tuple[str, str, Skin, np.ndarray]]:
    """(case, label, skin to read with, tile) for every number and exploded-mine template of ``skin``."""
    found = []
    for label in [lb for lb in skin.templates if lb in DIGITS or lb == EXPLODED]:
        kind = "number" if label in DIGITS else "exploded mine"
        for index, tile in enumerate(skin.templates[label]):
            alone = "no other look of it" if len(skin.templates[label]) == 1 else "other looks of it kept"
            found.append((f"{kind}, left out ({alone})", label, without(skin, label, index), tile))
            for dx, dy in HALF_PIXEL:
                found.append((f"{kind}, drawn half a pixel off", label, skin, moved_half_a_pixel(tile, dx, dy)))
    return found


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("roots", nargs="+", type=Path, help="record roots of web_looks.py / new_games.py runs")
    ap.add_argument("--out", type=Path, help="append the markdown tables to this file as well")
    args = ap.parse_args()
    skins = [found for root in args.roots for found in skins_under(root)]
    tiles: Counter[tuple[str, str]] = Counter()
    pairs: Counter[tuple[str, str]] = Counter()
    for number, (name, skin) in enumerate(skins, 1):
        print(f"[{number}/{len(skins)}] {name}", file=sys.stderr)
        for case, label, reader, tile in cases(skin):
            usual, verdicts = judge(reader, label, tile)
            tiles[(case, usual)] += 1
            for verdict in verdicts:
                pairs[(case, f"{verdict} ({usual.split(',')[0]})")] += 1
    names = sorted({case for case, _ in tiles})
    usual_cols = sorted({v for _, v in tiles})
    pair_cols = sorted({v for _, v in pairs})
    table = "\n".join(
        [
            "| tile | " + " | ".join(f"usual {v}" for v in usual_cols) + " |",
            "|---|" + "---|" * len(usual_cols),
            *(f"| {n} | " + " | ".join(str(tiles[(n, v)]) for v in usual_cols) + " |" for n in names),
            "",
            "| tile | " + " | ".join(f"two-way {v}" for v in pair_cols) + " |",
            "|---|" + "---|" * len(pair_cols),
            *(f"| {n} | " + " | ".join(str(pairs[(n, v)]) for v in pair_cols) + " |" for n in names),
        ]
    )
    print(f"{len(skins)} skins under {', '.join(map(str, args.roots))}\n\n{table}")
    if args.out:
        with args.out.open("a") as fh:
            fh.write(f"\n{table}\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
