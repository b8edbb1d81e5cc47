"""Proofs are sound (agree with brute force) and minimal (drop any cited number and the cell is free)."""

from __future__ import annotations

import random

import pytest

from autoplay.insight.proofs import ENGINE, Prover
from autoplay.insight.subsystem import MineCount, forced_cells, forces
from autoplay.solver.position import read_position
from tests.solver.brute import brute_force, random_position


def certain(board, mines):
    solutions, probabilities = brute_force(board, mines)
    assert solutions
    cols = board.cols
    safe = {r * cols + c for (r, c), p in probabilities.items() if p == 0}
    mined = {r * cols + c for (r, c), p in probabilities.items() if p == 1}
    return safe, mined


@pytest.mark.parametrize("seed", range(4))
def test_forced_cells_of_every_number_match_brute_force(seed):
    rng = random.Random(seed)
    for _ in range(40):
        board = random_position(rng, max_unknown=12, flags=rng.random() < 0.5)
        pos = read_position(board)
        local = forced_cells(pos.constraints)
        assert (set(local.safe), set(local.mines)) == certain(board, None)
        count = MineCount(board.mines - len(pos.known_mines), pos.unknown)
        global_ = forced_cells(pos.constraints, count)
        assert (set(global_.safe), set(global_.mines)) == certain(board, board.mines)


@pytest.mark.parametrize("seed", range(3))
def test_the_one_cell_question_agrees_with_full_enumeration(seed):
    rng = random.Random(50 + seed)
    for _ in range(30):
        board = random_position(rng, max_unknown=14, flags=rng.random() < 0.5)
        pos = read_position(board)
        count = MineCount(board.mines - len(pos.known_mines), pos.unknown)
        for size in range(1, min(4, len(pos.constraints)) + 1):
            subset = rng.sample(pos.constraints, size)
            for with_count in (None, count):
                found = forced_cells(subset, with_count)
                for cell in pos.unknown:
                    assert forces(subset, cell, True, with_count) == (cell in found.mines)
                    assert forces(subset, cell, False, with_count) == (cell in found.safe)


@pytest.mark.parametrize("seed", range(4))
def test_proofs_are_sound_and_minimal(seed):
    rng = random.Random(100 + seed)
    checked = 0
    while checked < 60:
        board = random_position(rng, max_unknown=14, flags=rng.random() < 0.5)
        pos = read_position(board)
        left = board.mines - len(pos.known_mines)
        safe, mined = certain(board, board.mines)
        prover = Prover(pos, left)
        for cell in sorted(safe | mined):
            is_mine = cell in mined
            proof = prover.prove(cell, is_mine)
            if proof.level == ENGINE:
                continue
            count = MineCount(left, pos.unknown) if proof.uses_count else None
            found = forced_cells(proof.numbers, count)
            assert cell in (found.mines if is_mine else found.safe)
            for k in range(len(proof.numbers)):
                fewer = proof.numbers[:k] + proof.numbers[k + 1 :]
                weaker = forced_cells(fewer, count)
                assert cell not in (weaker.mines if is_mine else weaker.safe)
            if proof.uses_count:
                assert cell not in (forced_cells(proof.numbers).mines | forced_cells(proof.numbers).safe)
            checked += 1


def test_a_cell_needing_more_numbers_than_allowed_falls_back_to_the_engine():
    from autoplay.board.model import Board

    board = Board.from_text("000\n121\n...\n")
    pos = read_position(board)
    proof = Prover(pos, None, max_numbers=2).prove(board.index(2, 1), False)
    assert proof.level == ENGINE and not proof.minimal
    assert len(proof.numbers) == 3
