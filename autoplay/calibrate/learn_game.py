"""``play --learn``: after each finished game, name its unknown tiles by the rules and add them to the skin."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from autoplay.board.model import HIDDEN
from autoplay.calibrate.learn import learn_flag_looks, learn_from_final_board
from autoplay.calibrate.learned_templates import add_learned
from autoplay.play.player import GameResult
from autoplay.vision import decode_frame
from autoplay.vision.skin import Skin


def learn_after_game(
    home: Path, skin: Skin, result: GameResult, mines: int | None, shows_every_mine: bool = False
) -> list[dict[str, Any]]:
    """The log entries of the templates learned from ``result``'s final frame (none when nothing is decided).

    The final frame is decoded again with ``skin`` as it is now, so a tile an earlier game taught is not
    learned twice.  ``shows_every_mine``: an earlier lost game of this session showed the whole mine count
    (see :func:`~autoplay.calibrate.learn.learn_from_final_board`).
    """
    frame, grid = result.final_frame, result.final_grid
    if result.result not in ("won", "lost") or frame is None or grid is None or not result.unknown_seen:
        return []
    decoded = decode_frame(frame, skin, grid, mines)
    # Cells the looks read but a rule refused (a 0 beside a covered cell) may be covered tiles: never named.
    refused = set(decoded.refused)
    # Cells the game itself found opened though read as covered (no longer their fresh picture) are unknown too.
    opened = [(r, c) for r, c in result.final_unknown if decoded.board[(r, c)] == HIDDEN]
    unknown = sorted({*((r, c) for r, c in decoded.unreadable), *opened})
    tiles = learn_flag_looks(result.flag_looks)
    tiles += learn_from_final_board(
        frame,
        decoded.grid,
        decoded.board,
        unknown,
        set(result.unknown_seen) - refused,
        result.result,
        result.flagged,
        shows_every_mine,
    )
    return add_learned(home, skin.name, tiles, result.game, result.result)
