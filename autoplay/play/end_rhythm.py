"""How long a game's end must stay unchanged before it is read: watched long at first, then as long as it needs.

A game may go on drawing after its end first shows: sgt-mines flashes the board red twice, kmines fades a popup
in, a page may fade its tiles.  So the first frame that shows a win or a loss is read only once the board has
stayed unchanged for ``final_wait`` (0.35 s), which is a twelfth of a gnome-mines expert game, and gnome-mines
never draws anything after its end.  Each kind of end (won, lost, undecided) is therefore watched the long way
until it has stayed unchanged :data:`LEARN_ENDS` times this session; from then on it is waited for a short time
only, unless an end of that kind ever changed during its wait (then the long wait stays for the session).

>>> ends = EndRhythm(full=0.35, short=0.1)
>>> ends.wait("won")
0.35
>>> for _ in range(LEARN_ENDS):
...     ends.heard("won", changed=False)
>>> ends.wait("won"), ends.wait("lost")
(0.1, 0.35)
>>> ends.heard("lost", changed=True)  # a flash: losses keep the long wait
>>> ends.heard("lost", changed=False); ends.heard("lost", changed=False)
>>> ends.wait("lost")
0.35
"""

from __future__ import annotations

from dataclasses import dataclass, field

#: Ends of one kind seen unchanged through the long wait before that kind is waited for the short time.
LEARN_ENDS = 2


@dataclass
class EndRhythm:
    """The end waits of one session (see the module docstring)."""

    full: float
    short: float
    unchanged: dict[str, int] = field(default_factory=dict)
    restless: set[str] = field(default_factory=set)

    def wait(self, state: str) -> float:
        """Seconds an end of kind ``state`` must stay unchanged before it is read."""
        learnt = self.unchanged.get(state, 0) >= LEARN_ENDS and state not in self.restless
        return min(self.short, self.full) if learnt else self.full

    def heard(self, state: str, changed: bool) -> None:
        """An end of kind ``state`` was watched for the wait :meth:`wait` gave, and the board did or did not
        change meanwhile."""
        if changed:
            self.restless.add(state)
        else:
            self.unchanged[state] = self.unchanged.get(state, 0) + 1
