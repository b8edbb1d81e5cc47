"""Guessing which tile is which, so a user only corrects the few guesses that are wrong.

Three facts do the work without any knowledge of the skin:
- on a fresh board every cell shows the same tile: that tile is the hidden one;
- on a lost board the mines are shown, and a revealed number equals the count
  of mine-like neighbours, so trying the few small clusters as "mine-like" and
  keeping the choice under which most revealed tiles show one constant count
  names the numbers 0-8;
- among the mine-like tiles, the one that appears once per lost board is the
  exploded mine, and one also seen on boards still in play is a flag.
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import numpy as np

from autoplay.board.model import neighbour_table

#: At most this many clusters are tried together as the mine-like ones.
MAX_MINE_CLUSTERS = 3
#: Clusters tried as mine-like: those with the fewest appearances, up to this many.
MINE_CANDIDATES = 12


def hidden_cluster(boards: list[np.ndarray]) -> int:
    """The cluster filling a fresh board (one with ≥90% of cells alike), else the most common one."""
    for board in boards:
        values, counts = np.unique(board, return_counts=True)
        if counts.max() >= 0.9 * board.size:
            return int(values[np.argmax(counts)])
    values, counts = np.unique(np.concatenate([b.ravel() for b in boards]), return_counts=True)
    return int(values[np.argmax(counts)])


def _neighbour_counts(board: np.ndarray, mine_like: set[int]) -> np.ndarray:
    rows, cols = board.shape
    flat = board.ravel()
    is_mine = np.array([v in mine_like for v in flat])
    table = neighbour_table(rows, cols)
    return np.array([int(is_mine[list(n)].sum()) for n in table])


def _number_votes(boards: list[np.ndarray], mine_like: set[int], skip: set[int]) -> dict[int, Counter]:
    votes: dict[int, Counter] = {}
    for board in boards:
        if not any(v in mine_like for v in board.ravel()):
            continue
        counts = _neighbour_counts(board, mine_like)
        for value, count in zip(board.ravel(), counts):
            if value not in mine_like and value not in skip:
                votes.setdefault(int(value), Counter())[int(count)] += 1
    return votes


def _agreement(votes: dict[int, Counter]) -> int:
    """Cells agreeing with their cluster's most common non-zero count, minus those that do not.

    A count of 0 earns nothing: otherwise "no cluster is a mine" would explain
    every tile perfectly.
    """
    score = 0
    for counter in votes.values():
        count, agreeing = counter.most_common(1)[0]
        score += (2 * agreeing - sum(counter.values())) if count else 0
    return score


def propose_labels(boards: list[np.ndarray], flags_possible: bool = True) -> dict[int, str]:
    """Cluster index -> proposed cell character, for the clusters a rule could name.

    ``boards`` are the cluster indices of each screenshot's cells (rows x cols).
    ``flags_possible=False`` (screenshots of games nobody flagged in) stops a
    tile seen both in play and after the loss from being taken for a flag.
    Boards of one size are judged together (a skin drawn at another size has
    its own clusters); where sizes disagree about a cluster, the majority wins.
    """
    hidden = hidden_cluster(boards)
    by_shape: dict[tuple[int, int], list[np.ndarray]] = {}
    for board in boards:
        by_shape.setdefault(board.shape, []).append(board)
    votes: dict[int, Counter] = {}
    for group in by_shape.values():
        for cluster, label in _propose_for_one_size(group, hidden).items():
            votes.setdefault(cluster, Counter())[label] += 1
    proposals = {cluster: counter.most_common(1)[0][0] for cluster, counter in votes.items()}
    if flags_possible:
        proposals.update(_persistent_marks(boards, proposals))
    return proposals


def _persistent_marks(boards: list[np.ndarray], proposals: dict[int, str]) -> dict[int, str]:
    """Unnamed tiles seen both during play and on a lost board: flags, which survive the loss."""
    mines = {k for k, v in proposals.items() if v in "*X"}
    lost = [b for b in boards if any(v in mines for v in b.ravel())]
    playing = [b for b in boards if not any(v in mines for v in b.ravel())]
    seen_lost = {int(v) for b in lost for v in np.unique(b)}
    seen_playing = {int(v) for b in playing for v in np.unique(b)}
    return {k: "F" for k in (seen_lost & seen_playing) if k not in proposals}


def _propose_for_one_size(boards: list[np.ndarray], hidden: int) -> dict[int, str]:
    proposals = {hidden: "."}
    totals = Counter(int(v) for b in boards for v in b.ravel())
    candidates = [k for k, _ in sorted(totals.items(), key=lambda kv: kv[1]) if k != hidden][:MINE_CANDIDATES]
    best: tuple[int, set[int], dict[int, Counter]] | None = None
    for size in range(1, MAX_MINE_CLUSTERS + 1):
        for combo in combinations(candidates, size):
            mine_like = set(combo)
            votes = _number_votes(boards, mine_like, {hidden})
            if not votes:
                continue
            score = _agreement(votes)
            if best is None or score > best[0]:
                best = (score, mine_like, votes)
    if best is None:
        return proposals
    _, mine_like, votes = best
    for cluster, counter in votes.items():
        count, agreeing = counter.most_common(1)[0]
        if agreeing >= 2 and agreeing >= 0.9 * sum(counter.values()):  # one cell proves nothing
            proposals[cluster] = str(count)
    proposals.update(_name_mine_like(boards, mine_like))
    proposals.update(_exploded(boards, mine_like, proposals))
    return proposals


def _exploded(boards: list[np.ndarray], mine_like: set[int], proposals: dict[int, str]) -> dict[int, str]:
    """An unnamed tile shown exactly once on every board that shows mines, and never elsewhere: the fatal mine.

    It is often left out of the mine-like set, since a random fatal click
    rarely has revealed numbers around it to vote for it.
    """
    if "X" in proposals.values():
        return {}
    lost = [b for b in boards if any(v in mine_like for v in b.ravel())]
    playing = [b for b in boards if not any(v in mine_like for v in b.ravel())]
    if not lost:
        return {}
    unnamed = {int(v) for b in lost for v in np.unique(b)} - set(proposals)
    fatal = [
        k for k in unnamed if all(int(np.sum(b == k)) == 1 for b in lost) and not any(np.any(b == k) for b in playing)
    ]
    return {fatal[0]: "X"} if len(fatal) == 1 else {}


def _name_mine_like(boards: list[np.ndarray], mine_like: set[int]) -> dict[int, str]:
    lost = [b for b in boards if any(v in mine_like for v in b.ravel())]
    names = {}
    for cluster in mine_like:
        per_board = [int(np.sum(b == cluster)) for b in lost]
        others = mine_like - {cluster}
        # A flag also shows on boards still in play, which show no other mine-like tile; with no other
        # mine-like tile to tell those boards by, the only one must be the mine itself.
        on_fresh = bool(others) and any(
            int(np.sum(b == cluster)) for b in boards if not any(v in others for v in b.ravel())
        )
        if on_fresh:
            names[cluster] = "F"
        elif per_board and all(n <= 1 for n in per_board):
            names[cluster] = "X"
        else:
            names[cluster] = "*"
    return names
