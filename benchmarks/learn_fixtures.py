"""Unknown cells per sgt-mines fixture frame before and after ``play --learn`` learns from the won fixture frame.

Run: ``.venv/bin/python benchmarks/learn_fixtures.py`` (works on a scratch copy of the fixture skin).
"""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

from autoplay.board.model import Board
from autoplay.calibrate.learn import learn_from_final_board
from autoplay.calibrate.learned_templates import add_learned
from autoplay.vision import decode_frame, load_skin, read_image

SGT = Path(__file__).resolve().parents[1] / "tests" / "fixtures" / "sgt-mines"
NAME = "sgt-live"


def unknown_and_misread(root: Path, names: list[str]) -> dict[str, tuple[int, int]]:
    """Per frame: cells matching no template, and readable cells that differ from the fixture's board."""
    skin = load_skin(NAME, root)
    counts = {}
    for name in names:
        decoded = decode_frame(read_image(SGT / f"{name}.png"), skin)
        truth = Board.from_text((SGT / f"{name}.txt").read_text())
        unknown = set(decoded.unreadable)
        wrong = sum(decoded.board[rc] != truth[rc] for rc in truth.coords() if rc not in unknown)
        counts[name] = (len(unknown), wrong)
    return counts


def main() -> None:
    home = Path(tempfile.mkdtemp()) / "skin"
    shutil.copytree(SGT / "skin", home)
    names = sorted(p.stem for p in SGT.glob("*.png"))
    before = unknown_and_misread(home, names)
    frame = read_image(SGT / "tile20_won.png")
    decoded = decode_frame(frame, load_skin(NAME, home), None, 99)
    tiles = learn_from_final_board(frame, decoded.grid, decoded.board, decoded.unreadable, decoded.unreadable, "won")
    for entry in add_learned(home, NAME, tiles, 1, "won"):
        print(f"learned {entry['label']!r} from {len(entry['cells'])} cells")
    after = unknown_and_misread(home, names)
    print("| frame | unknown before | unknown after | misread after |")
    for name in names:
        print(f"| {name} | {before[name][0]} | {after[name][0]} | {after[name][1]} |")


if __name__ == "__main__":
    main()
