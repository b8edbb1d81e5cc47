"""The live loop: capture, settle, decode, solve, click, verify, repeat.

``Player`` plays one game on anything that satisfies the small ``Screen`` and
``Decoder`` protocols, so the loop's logic is tested against a simulated game
and driven unchanged against real windows.

The names below are imported on first use, not with the package: ``autoplay
watch`` (:mod:`autoplay.play.watch`) lives here too and must not import the
player, which brings the mouse along.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from autoplay.play.player import GameResult, Player, PlayerSettings
    from autoplay.play.recorder import Recorder
    from autoplay.play.session import SessionSummary, play_session

__all__ = ["GameResult", "Player", "PlayerSettings", "Recorder", "SessionSummary", "play_session"]
_HOMES = {
    "GameResult": "player",
    "Player": "player",
    "PlayerSettings": "player",
    "Recorder": "recorder",
    "SessionSummary": "session",
    "play_session": "session",
}


def __getattr__(name: str) -> object:
    """``from autoplay.play import Player`` imports the player then, and only then."""
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'autoplay.play' has no attribute {name!r}")
    return getattr(importlib.import_module(f"autoplay.play.{home}"), name)
