"""Whether a decoded game is still on, won or lost, judged from the board itself.

Every supported game shows a loss on the board (mines appear, one exploded),
and a win is the moment the board's own rule is met; reading that from the
cells works for every skin alike, where faces and banners differ per game.
"""

from __future__ import annotations

from autoplay.board.model import EXPLODED, FLAG, HIDDEN, MINE, QUESTION, Board
from autoplay.board.rules import Rules

PLAYING, WON, LOST, UNKNOWN = "playing", "won", "lost", "unknown"


def game_state(board: Board, rules: Rules, readable: bool = True) -> str:
    """``lost`` once a mine shows; ``won`` when the win rule holds for the known mine count."""
    if not readable:
        return UNKNOWN
    if board.count(MINE + EXPLODED):
        return LOST
    covered = board.count(HIDDEN + QUESTION + FLAG)
    if board.mines is None:
        # Without the mine count a win is only certain for a flag-all game whose every cover is a flag.
        return PLAYING
    if rules.win == "flag-all":
        return WON if covered == board.mines and board.count(FLAG) == board.mines else PLAYING
    return WON if covered == board.mines else PLAYING
