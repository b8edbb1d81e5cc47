"""benchmarks/position_study.py: its layouts are drawn uniformly from those a position allows, and replay it."""

from __future__ import annotations

import random
import sys
from collections import Counter
from pathlib import Path

import pytest

from autoplay.board.model import Board
from autoplay.sim.runner import GameSpec
from autoplay.solver.analysis import analyze
from autoplay.solver.position import read_position

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
from position_study import LayoutDraw, play_from

BOARD = Board.from_rows(["01...", "12...", "..2..", ".....", "....."], mines=6)


def test_draws_match_the_exact_mine_probabilities() -> None:
    pos = read_position(BOARD)
    draw = LayoutDraw(pos, 6, 10_000)
    rng = random.Random(3)
    n = 20_000
    seen = Counter(j for _ in range(n) for j in draw.draw(rng))
    exact = analyze(BOARD, 6).probabilities
    for j in pos.unknown:
        p = exact[j // 5][j % 5]
        assert p is not None
        sigma = (p * (1 - p) / n) ** 0.5
        assert abs(seen[j] / n - p) < 5 * sigma + 1e-9, (divmod(j, 5), seen[j] / n, p)


def test_every_draw_reproduces_the_position() -> None:
    pos = read_position(BOARD)
    draw = LayoutDraw(pos, 6, 10_000)
    rng = random.Random(4)
    spec = GameSpec(5, 5, 6)
    for _ in range(20):
        layout = draw.draw(rng)
        assert len(set(layout)) == 6 and not {0, 1, 5, 6, 12} & set(layout)
        play_from(BOARD, spec, layout, (4, 4))  # raises SystemExit when the revealed numbers differ


def test_a_position_no_layout_fits_is_refused() -> None:
    with pytest.raises(SystemExit, match="no layout fits"):
        LayoutDraw(read_position(BOARD), 30, 10_000)
