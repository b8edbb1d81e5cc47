"""Game simulator: measures the solver's win rate and speed without a screen."""

from autoplay.sim.game import Game
from autoplay.sim.runner import GameResult, GameSpec, Summary, play_game, run_games, summarise
from autoplay.sim.stats import percentile, wilson_interval

__all__ = [
    "Game",
    "GameResult",
    "GameSpec",
    "Summary",
    "percentile",
    "play_game",
    "run_games",
    "summarise",
    "wilson_interval",
]
