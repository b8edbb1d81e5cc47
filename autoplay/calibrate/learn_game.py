"""``play --learn``: after each finished game, name its unknown tiles by the rules and add them to the skin."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from autoplay.calibrate.learn import learn_flag_looks, learn_from_final_board
from autoplay.calibrate.learned_templates import add_learned
from autoplay.play.player import GameResult
from autoplay.vision import decode_frame
from autoplay.vision.skin import Skin


def learn_after_game(home: Path, skin: Skin, result: GameResult, mines: int | None) -> list[dict[str, Any]]:
    """The log entries of the templates learned from ``result``'s final frame (none when nothing is decided).

    The final frame is decoded again with ``skin`` as it is now, so a tile an earlier game taught is not
    learned twice.
    """
    frame, grid = result.final_frame, result.final_grid
    if result.result not in ("won", "lost") or frame is None or grid is None or not result.unknown_seen:
        return []
    decoded = decode_frame(frame, skin, grid, mines)
    tiles = learn_flag_looks(result.flag_looks)
    tiles += learn_from_final_board(
        frame, decoded.grid, decoded.board, decoded.unreadable, result.unknown_seen, result.result, result.flagged
    )
    return add_learned(home, skin.name, tiles, result.game, result.result)
