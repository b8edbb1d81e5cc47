"""The hands: virtual displays, real game windows, screen capture and the one guarded click function.

Nothing here knows about Minesweeper rules or vision; it only finds, watches and
pokes windows, so the play loop and the tests can drive any X11 game the same way.
"""
