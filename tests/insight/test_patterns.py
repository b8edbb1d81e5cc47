"""Each named pattern as a position from a real game: the forced cell, its verdict, piece count and name."""

from __future__ import annotations

import pytest

from autoplay.board.model import Board
from autoplay.insight.patterns import name_pattern
from autoplay.insight.proofs import Prover
from autoplay.solver import analyze
from autoplay.solver.position import read_position

# (board text, cell, is mine, pieces of information, level, pattern name)
FIXTURES = [
    ("F1.\n...\n", (1, 2), False, 1, "1", "flag reduction"),
    ("mines=1\n.10\n.10\n.10\n", (0, 0), False, 2, "2", "1-1"),
    ("mines=2\nF..\n.21\n...\n", (1, 0), False, 2, "2", "1-1 (after flag reduction)"),
    ("000\n121\n...\n", (2, 0), True, 2, "2", "1-2"),
    ("000\n121\n...\n", (2, 1), False, 3, "3", "1-2-1"),
    (".10\n.20\n.20\n.10\n", (0, 0), False, 3, "3", "1-2-2-1"),
    (".10\n.31\n...\n...\n", (2, 0), True, 3, "3", "1-3-1 corner"),
    ("mines=4\n001.\n002.\n122.\n.2..\n", (3, 3), False, 3, "3", "2-2-2 corner"),
    ("mines=3\n000000\n111111\n..1..1\n122211\n...100\n", (2, 3), False, 2, "2", "hole"),  # pocket (2,3)-(2,4)
    ("mines=2\n1..\n.21\n1..\n", (0, 1), False, 3, "3", "triangle"),
    ("...\n12.\n01.\n", (0, 2), False, 3, "3", "shared mines in regions"),
    ("mines=1\n...\n..1\n1..\n", (0, 0), False, 2, "count", "mine-count endgame"),
]


@pytest.mark.parametrize("text, cell, mine, pieces, level, name", FIXTURES, ids=[f[-1] for f in FIXTURES])
def test_named_pattern(text, cell, mine, pieces, level, name):
    board = Board.from_text(text)
    analysis = analyze(board)
    assert cell in (analysis.mines if mine else analysis.safe)  # the fixture itself is right
    pos = read_position(board)
    prover = Prover(pos, None if board.mines is None else board.mines - len(pos.known_mines))
    proof = prover.prove(board.index(*cell), mine)
    assert (proof.pieces, proof.level, proof.minimal) == (pieces, level, True)
    assert name_pattern(board, pos, proof) == name


def test_a_plain_single_number_has_no_pattern_name():
    board = Board.from_text("..1\n111\n")
    pos = read_position(board)
    proof = Prover(pos, None).prove(board.index(0, 1), True)
    assert proof.pieces == 1 and name_pattern(board, pos, proof) is None
