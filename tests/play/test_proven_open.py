"""Unknown tiles the rules prove opened while the game goes on, and the player handing them to ``play --learn``."""

from __future__ import annotations

from autoplay.board.model import Board, neighbour_table
from autoplay.play.proven_open import proven_opened
from tests.play.fakes import FakeTable
from tests.play.test_player import make_player

BOARD = Board.from_text("mines=2\n0...\n....\n..1.\n....")


def test_a_cell_beside_a_0_is_opened_whatever_else_is_known():
    assert proven_opened(BOARD, [(1, 1), (1, 2), (3, 3)], (), (), ()) == [(1, 1)]


def test_a_clicked_cell_is_opened_once_a_later_batch_opened_a_number():
    went_on = dict(clicked={(3, 3)}, unread_before={(3, 3)}, last_reveals={(2, 2)})
    assert proven_opened(BOARD, [(3, 3)], **went_on) == [(3, 3)]
    # the later batch opened nothing readable: the game may have ended at the click (a mine the skin never saw)
    assert proven_opened(BOARD, [(3, 3)], **{**went_on, "last_reveals": {(3, 2)}}) == []
    # not yet unread when that batch was decided: the batch says nothing about the game after the cell changed
    assert proven_opened(BOARD, [(3, 3)], **{**went_on, "unread_before": set()}) == []
    # a cell the game changed by itself, never clicked and beside no 0: nothing proves it a number
    assert proven_opened(BOARD, [(3, 3)], **{**went_on, "clicked": set()}) == []


def test_the_player_hands_proven_tiles_to_the_learner_and_reads_the_frame_again_with_them():
    table = FakeTable(9, 9, 10, seed=3)
    player, _ = make_player(table)
    unknown: list[tuple[int, int]] = []
    learned: list[tuple[int, int]] = []
    calls = []

    def unknown_until_learned(frame, grid):
        decoded = table.decode(frame, grid)
        if not unknown:  # the first number beside a 0 shows a tile the skin has never seen
            cols = decoded.board.cols
            unknown.extend(
                [
                    divmod(i, cols)
                    for i, c in enumerate(decoded.board.cells)
                    if c in "12345678" and "0" in [decoded.board.cells[j] for j in neighbour_table(9, 9)[i]]
                ][:1]
            )
        shown = [rc for rc in unknown if rc not in learned]
        decoded.readable = not shown
        decoded.unreadable = shown
        return decoded

    def learn(seen):
        calls.append((list(seen.unknown), list(seen.opened)))
        learned.extend(seen.opened)
        return True

    player.decode = unknown_until_learned
    player.learn_during_game = learn
    result = player.play_game(1)
    assert result.result in ("won", "lost")
    assert calls == [(unknown, unknown)]  # proven by the 0 beside it, learned once, then read
    assert result.unknown_seen == set(unknown)
