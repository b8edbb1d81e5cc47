"""Naming tile clusters from the rules of Minesweeper, never from their looks.

Live calibration knows what each cell *is* without knowing what it *shows*:
it clicked the cells itself, so it knows which cells are still covered, which
ones a click revealed, which one it flagged and which click ended the game.
What is unknown is only the value each revealed tile stands for.  The rules
then pin those values down:

- the fresh board is all covered, so its tiles are the hidden tile;
- the tile that appeared where we right-clicked is the flag; the tile under
  the click that lost the game is the exploded mine; tiles that appeared on
  covered cells at that click are mines;
- a revealed number counts the mines around it: at least the mines shown,
  at most the mines shown plus the covered cells (exactly the covered cells
  after a win; exactly the mines shown after a loss that shows every mine);
- a 0 opens its neighbours by itself, so a 0 never has a covered neighbour;
- a revealed cell keeps its value, so the tiles one cell showed over time
  (a skin may shade a tile by its neighbours) stand for the same value;
- all the numbers of one game describe one mine layout: the solver must find
  one.

Every assignment of values to the number clusters that passes all of these is
kept; a cluster is named only when every kept assignment gives it the same
value.  Anything the evidence leaves open stays unnamed.
"""

from __future__ import annotations

import itertools
from collections import Counter
from dataclasses import dataclass, field

import numpy as np

from autoplay.board.model import Board, neighbour_table
from autoplay.errors import ContradictionError

#: Cell status codes of a game's evidence (what the cell is, not what it shows).
COVERED, FLAGGED, REVEALED, FATAL, SHOWN_MINE, OBSTRUCTED = ".", "F", "r", "X", "*", "?"
#: Most value assignments checked against the solver; beyond it only locally forced values are named.
MAX_ASSIGNMENTS = 4000


@dataclass
class GameEvidence:
    """What one game established, cell by cell.

    ``status`` holds the codes above for the game's last known position;
    ``shown`` maps each revealed cell (flat index) to the clusters it showed.
    ``end`` is ``won``, ``lost`` or ``unfinished``; ``all_mines_shown`` says a
    lost board showed every mine it could (the covered cells left are then safe);
    ``obstructed_safe`` says the readable cells already show the whole mine count,
    so no obstructed cell (a popup over the board) hides one.
    """

    status: np.ndarray
    shown: dict[int, set[int]]
    end: str = "unfinished"
    mines: int | None = None
    all_mines_shown: bool = False
    obstructed_safe: bool = False


@dataclass
class Evidence:
    """Everything a calibration session saw: the games and the tiles tied to an action."""

    games: list[GameEvidence] = field(default_factory=list)
    roles: dict[str, Counter] = field(default_factory=dict)  # label -> clusters seen in that role

    def add_role(self, label: str, clusters: list[int] | set[int]) -> None:
        counter = self.roles.setdefault(label, Counter())
        for cluster in clusters:
            counter[int(cluster)] += 1


@dataclass(frozen=True)
class Naming:
    """The proposal: cluster -> label for the decided ones, and why the others are open."""

    labels: dict[int, str]
    open_values: dict[int, tuple[int, ...]]  # number clusters left unnamed -> values still possible
    conflicts: list[int]  # clusters seen in two roles (left unnamed)
    assignments: int  # value assignments that passed every rule
    exhaustive: bool  # False when there were too many to check them all
    #: Whether some game's evidence contradicted itself (and was left out): a tile caught mid-redraw, or one
    #: cluster holding tiles of two values (grouped with too wide a radius; ``calibrate_live`` then tightens it).
    contradicted: bool = False


def _bounds(game: GameEvidence, index: int, table: tuple[tuple[int, ...], ...]) -> tuple[int, int]:
    """Fewest and most mines the rules allow around revealed cell ``index`` of ``game``."""
    status = game.status.ravel()
    around = [status[n] for n in table[index]]
    mines = sum(s in (FATAL, SHOWN_MINE) for s in around)
    covered = sum(s == COVERED for s in around)
    flagged = sum(s == FLAGGED for s in around)
    # What covers an obstructed cell is unknown: it may be a mine unless the readable cells show them all.
    obstructed = 0 if game.obstructed_safe else sum(s == OBSTRUCTED for s in around)
    if game.end == "won":  # every cover left is a mine
        return mines + covered + flagged, mines + covered + flagged + obstructed
    low = max(mines, 1 if covered else 0)  # a 0 would have opened its covered neighbours itself
    if game.end == "lost" and game.all_mines_shown:
        return low, mines + flagged + obstructed
    return low, mines + covered + flagged + obstructed


def _value_groups(games: list[GameEvidence]) -> list[set[int]]:
    """Clusters that must share a value because one revealed cell showed each of them."""
    parent: dict[int, int] = {}

    def find(x: int) -> int:
        parent.setdefault(x, x)
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for game in games:
        for clusters in game.shown.values():
            first, *rest = sorted(clusters)
            find(first)
            for other in rest:
                parent[find(other)] = find(first)
    groups: dict[int, set[int]] = {}
    for cluster in list(parent):
        groups.setdefault(find(cluster), set()).add(cluster)
    return sorted(groups.values(), key=min)


def _solver_board(game: GameEvidence, value_of: dict[int, int]) -> Board:
    """The game's position with the proposed values: mines known from the end shown as flags."""
    rows, cols = game.status.shape
    cells = []
    won = game.end == "won"
    for index, status in enumerate(game.status.ravel()):
        if status == REVEALED:
            cells.append(str(value_of[min(game.shown[index])]))
        elif status in (FATAL, SHOWN_MINE) or (won and status in (COVERED, FLAGGED)):
            cells.append("F")
        else:
            cells.append(".")
    return Board(rows, cols, tuple(cells), game.mines)


def _consistent(games: list[GameEvidence], value_of: dict[int, int]) -> bool:
    from autoplay.solver import analyze

    for game in games:
        board = _solver_board(game, value_of)
        try:
            analyze(board, mines=board.mines)
        except (ContradictionError, ValueError):
            return False
    return True


def _domains(games: list[GameEvidence], known: dict[int, int] | None) -> tuple[list[set[int]], list[set[int]]]:
    """The value groups of ``games`` and, for each, the values every revealed cell's bounds still allow."""
    groups = _value_groups(games)
    domains = [set(range(9)) for _ in groups]
    group_of = {c: k for k, group in enumerate(groups) for c in group}
    for cluster, value in (known or {}).items():
        if cluster in group_of:
            domains[group_of[cluster]] &= {value}
    for game in games:
        rows, cols = game.status.shape
        table = neighbour_table(rows, cols)
        for index, clusters in game.shown.items():
            if game.status.ravel()[index] != REVEALED:
                continue
            low, high = _bounds(game, index, table)
            k = group_of[min(clusters)]
            domains[k] &= set(range(low, high + 1))
    return groups, domains


def name_clusters(evidence: Evidence, known: dict[int, int] | None = None) -> Naming:
    """Cluster -> label for every cluster the rules decide (see the module docstring).

    ``known`` gives clusters whose value is already certain (tiles a skin reads), so they only
    constrain the others: ``play --learn`` names a game's unknown tiles against the ones it read.
    """
    games = [g for g in evidence.games if g.shown]
    number_clusters = {c for g in games for cs in g.shown.values() for c in cs}
    labels: dict[int, str] = {}
    conflicts: set[int] = set()
    for label, counter in evidence.roles.items():
        for cluster in counter:
            was = labels.get(cluster, label)
            if {was, label} == {"X", "*"}:  # the mine stepped on drawn as any other (xbomb): a mine either way
                labels[cluster] = "*"
                continue
            if cluster in number_clusters or was != label:
                conflicts.add(cluster)
            labels[cluster] = label
    for cluster in conflicts:
        labels.pop(cluster, None)
    groups, domains = _domains(games, known)
    contradicted = not all(domains)
    if contradicted:
        # Some game's evidence contradicts itself (a cell taken for revealed that was not, a tile caught
        # mid-redraw): that game is left out, and the others still name what they decide.
        games = [g for g in games if all(_domains([g], known)[1])]
        groups, domains = _domains(games, known)
    order = sorted(range(len(groups)), key=lambda k: len(domains[k]))
    sizes = [len(domains[k]) for k in order]
    total = int(np.prod(sizes)) if sizes else 1
    possible: list[set[int]] = [set() for _ in groups]
    passed = 0
    exhaustive = total <= MAX_ASSIGNMENTS and all(sizes)
    if exhaustive:
        for combo in itertools.product(*(sorted(domains[k]) for k in order)):
            value_of = {c: v for k, v in zip(order, combo) for c in groups[k]}
            if _consistent(games, value_of):
                passed += 1
                for k, v in zip(order, combo):
                    possible[k].add(v)
    elif all(sizes):
        possible = [set(d) for d in domains]
    else:  # games that fit alone contradict each other: nothing of them is trusted, no number is named
        contradicted = True
    open_values: dict[int, tuple[int, ...]] = {}
    for k, group in enumerate(groups):
        for cluster in group:
            if len(possible[k]) == 1:
                labels[cluster] = str(next(iter(possible[k])))
            else:
                open_values[cluster] = tuple(sorted(possible[k]))
    if exhaustive and not passed and groups:  # no assignment fits all the games together
        contradicted = True
    return Naming(labels, open_values, sorted(conflicts), passed, exhaustive, contradicted)
