"""Which button makes a new game's chord: found by trying, in a game played with the skin just calibrated.

A chord (one press on a shown number whose flags are all placed opens its other covered neighbours) saves a
third of the presses of an expert game, but games differ in the button: xdemineur and kmines take the middle one,
others a left press on the number, some none.  Nothing on screen says which, so ``calibrate --live`` plays a game
with the new skin and lets the player try (:attr:`~autoplay.play.player.PlayerSettings.chord_trials`): a chord is
tried only where it opens nothing but certain reveals, so a button the game ignores costs a late-redraw wait and
the cells pressed one by one, never a wrong move.  Flags are pressed in these games whatever the win rule: a chord
needs them on screen.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from autoplay.control.mouse import Button, UserTookOver
from autoplay.errors import AutoplayError
from autoplay.play.player import GameResult, Player
from autoplay.play.session import play_session

#: The buttons tried, in order: the middle one, most games' chord, before a left press on the number.
CHORD_TRIALS: tuple[Button, ...] = ("middle", "left")


@dataclass
class ChordProbe:
    """What trying found: the button that opened its cells (None if none did), those ruled out, games played.

    >>> ChordProbe("middle", ["left"], 1).message()
    'chord: the middle button opens the cells around a number (left opened nothing)'
    """

    button: Button | None = None
    ruled_out: list[Button] = field(default_factory=list)
    games: int = 0
    stopped: str = ""  # why a game stopped before trying settled

    def settled(self) -> bool:
        """Whether there is nothing left to try: a button found, or every one ruled out."""
        return self.button is not None or len(self.ruled_out) == len(CHORD_TRIALS)

    def message(self) -> str:
        """One line for the user."""
        tried = f" ({', '.join(self.ruled_out)} opened nothing)" if self.ruled_out else ""
        if self.button is not None:
            return f"chord: the {self.button} button opens the cells around a number{tried}"
        if self.settled():
            return f"chord: none found{tried}; every cell is pressed on its own"
        if self.stopped:
            return f"chord: not found out (a game stopped: {self.stopped}){tried}; write it with --chord if known"
        return f"chord: not found out in {self.games} game(s) (no number with its flags placed came up)"


def skin_entry(button: Button) -> str:
    """The lines that give a skin file its chord (a ``[press]`` table, appended after everything else).

    >>> print(skin_entry("middle"), end="")
    <BLANKLINE>
    [press]
    chord = "middle"
    """
    return f'\n[press]\nchord = "{button}"\n'


def probe_chord(
    player: Player,
    games: int,
    start_new_game: Callable[[], None],
    first_state: str,
    on_game: Callable[[GameResult], None] | None = None,
) -> ChordProbe:
    """Play up to ``games`` games with ``player`` (its settings name :data:`CHORD_TRIALS`) until trying settles.

    A game that stops (a tile the young skin cannot read yet, say) ends the trying with what was found so far,
    named in :attr:`ChordProbe.stopped`; the user's hand on the mouse and Ctrl-C still stop everything.
    """
    probe = ChordProbe()
    state = first_state
    while probe.games < games and not probe.settled():
        try:
            play_session(player, 1, start_new_game, on_game=on_game, first_state=state)
        except UserTookOver:
            raise
        except AutoplayError as exc:
            probe.stopped = str(exc)
        probe.games += 1
        probe.button, probe.ruled_out = player.chord_found, list(player.chord_failed)
        if probe.stopped:
            break
        state = "lost"  # a game ended: the next one is started first
    return probe
