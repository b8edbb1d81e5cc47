"""The live loop: capture, settle, decode, solve, click, verify, repeat.

``Player`` plays one game on anything that satisfies the small ``Screen`` and
``Decoder`` protocols, so the loop's logic is tested against a simulated game
and driven unchanged against real windows.
"""

from autoplay.play.player import GameResult, Player, PlayerSettings
from autoplay.play.recorder import Recorder
from autoplay.play.session import SessionSummary, play_session

__all__ = ["GameResult", "Player", "PlayerSettings", "Recorder", "SessionSummary", "play_session"]
