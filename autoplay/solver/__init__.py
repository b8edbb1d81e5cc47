"""Exact probability solver: certain moves first, then the best guess.

``choose_move(board, ...)`` is the stateless front door; ``analyze(board)``
gives the exact probabilities behind it.
"""

from autoplay.solver.analysis import Analysis, Component, analyze
from autoplay.solver.decide import Decision, Move, choose_move, first_move

__all__ = ["Analysis", "Component", "Decision", "Move", "analyze", "choose_move", "first_move"]
