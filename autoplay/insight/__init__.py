"""Insight: why the solver moves as it does, how hard a board is, and boards that need no guess.

``explain_decision`` explains each move of a solver decision; ``grade_game``
replays a game with the solver limited to small sets of numbers; the
generator keeps re-laying mines until such a solver clears the board.
"""

from autoplay.insight.explain import Explanation, explain_decision, format_explanations

__all__ = ["Explanation", "explain_decision", "format_explanations"]
