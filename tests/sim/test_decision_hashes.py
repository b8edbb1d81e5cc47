"""The solver's decisions over seeded games, pinned by hash so speed work cannot change what it plays.

Every decision of every game (each move's action, cell and mine probability, and whether it was a
guess) is fed into one SHA-256 per rule set.  The pinned digests were computed on main at fb3aca9,
before the simulator was made faster (issue 14), and the three expert ones again when the endgame
search stopped telling apart positions that differ only in revealed cells that can show nothing new:
with an unbounded node budget every decision of these 590 games is the same before and after that
change, so the new digests differ only where a search now completes within its 20,000 nodes instead of
giving up.  The first two expert digests moved once more when pseudo-50/50s (:mod:`autoplay.solver.traps`)
joined the guess policy: the rule fires in about one game in forty.  Four moved again when the depth-3
search became the default (the intermediate games happen to meet no close call it decides otherwise).  A change that alters any single
decision, or the float probability reported for any move, changes the digest.  The games run with a
time limit of ``TIME_LIMIT`` seconds instead of the default one second: on a shared machine the default cut a
look-ahead or an endgame search short now and then (a decision then depends on the load, not on the
code), and no decision of these games comes near a minute.

Run as a script (``python -m tests.sim.test_decision_hashes``) to print the current digests.
"""

from __future__ import annotations

import hashlib

import pytest

from autoplay.board.rules import PRESETS, Rules
from autoplay.sim.runner import GameSpec, play_game, solver_decider
from autoplay.solver.decide import Decision

pytestmark = pytest.mark.spread  # each case plays its own games: any worker may take each

#: (preset, first-click rule, games, seed) -> digest of every decision (fb3aca9; expert re-pinned, see above).
PINNED: dict[tuple[str, str, int, int], str] = {
    ("expert", "safe", 200, 1): "ae322cea34f08fbeef53a84bfc70e25b0e357e15506f60be090fe838aecd8607",
    ("expert", "zero", 100, 2): "f611dbf59b559752a6ae1c11791758b69144ee0cf1dc21f8c4fe0c27958fdaad",
    ("expert", "safe", 40, 7): "261f8214a75e327df7e8bd368a33ac0df1e687a54f3223b958cfb4614e1043f3",
    ("intermediate", "zero", 100, 3): "6b0e0902e886e27a8ffa82d4471d16bfd88cfcd481472294aec0ef9590b86f5d",
    ("beginner", "safe", 150, 4): "2b2b0584b9f372a42d192337c4545549d38f340a3e5b3de548c5e3fdc8384872",
}
#: Seconds per decision: far above any decision's need, so no deadline changes what is played.
TIME_LIMIT = 60.0


def decision_digest(preset: str, rule: str, games: int, seed: int, front_door: bool = False) -> str:
    """SHA-256 over every decision of games ``0..games-1`` of the seeded run (simulator path by default)."""
    size = PRESETS[preset]
    spec = GameSpec(size.rows, size.cols, size.mines, Rules(rule), time_limit=TIME_LIMIT)
    digest = hashlib.sha256()

    def record(decision: Decision) -> None:
        moves = ";".join(f"{m.action},{m.row},{m.col},{m.probability!r}" for m in decision.moves)
        digest.update(f"{int(decision.guess)}|{moves}\n".encode())

    decide = solver_decider(spec.time_limit) if front_door else None
    for index in range(games):
        result = play_game(spec, seed, index, decide=decide, observe=record)
        digest.update(f"end {index} {result.won} {result.decisions}\n".encode())
    return digest.hexdigest()


@pytest.mark.parametrize("key", sorted(PINNED))
def test_simulated_decisions_are_unchanged(key):
    preset, rule, games, seed = key
    assert decision_digest(preset, rule, games, seed) == PINNED[key]


def test_the_front_door_decides_the_same_games_alike():
    """``choose_move(board)`` (live play's path) plays the first expert games exactly as pinned."""
    key = ("expert", "safe", 40, 7)
    assert decision_digest(*key, front_door=True) == PINNED[key]


if __name__ == "__main__":
    for preset, rule, games, seed in [
        ("expert", "safe", 200, 1),
        ("expert", "zero", 100, 2),
        ("expert", "safe", 40, 7),
        ("intermediate", "zero", 100, 3),
        ("beginner", "safe", 150, 4),
    ]:
        print(f'    ("{preset}", "{rule}", {games}, {seed}): "{decision_digest(preset, rule, games, seed)}",')
