"""Rule sets that differ between Minesweeper games and move win rates by points.

Kept beside the board because the solver, the simulator and each skin all
need to agree on them, and none of them owns the others.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, cast

FirstClick = Literal["safe", "zero", "none"]
WinRule = Literal["reveal", "flag-all"]

FIRST_CLICK_RULES: tuple[str, ...] = ("safe", "zero", "none")
WIN_RULES: tuple[str, ...] = ("reveal", "flag-all")


@dataclass(frozen=True)
class Rules:
    """How a game protects the first click and what it counts as a win.

    ``first_click``: ``safe`` only the clicked cell is mine-free, ``zero`` the
    clicked cell and its neighbours are (the first click opens a region),
    ``none`` no protection.  ``win``: ``reveal`` all safe cells revealed,
    ``flag-all`` additionally every mine flagged (xdemineur, ace-minesweeper).
    """

    first_click: FirstClick = "safe"
    win: WinRule = "reveal"

    def __post_init__(self) -> None:
        if self.first_click not in FIRST_CLICK_RULES:
            raise ValueError(f"unknown first-click rule {self.first_click!r}")
        if self.win not in WIN_RULES:
            raise ValueError(f"unknown win rule {self.win!r}")

    @classmethod
    def from_names(cls, first_click: str = "safe", win: str = "reveal") -> Rules:
        """The rules named as a user types them or a file stores them; ValueError for an unknown name."""
        return cls(cast(FirstClick, first_click), cast(WinRule, win))


@dataclass(frozen=True)
class Preset:
    rows: int
    cols: int
    mines: int


PRESETS: dict[str, Preset] = {
    "beginner": Preset(9, 9, 10),
    "intermediate": Preset(16, 16, 40),
    "expert": Preset(16, 30, 99),
}
