"""Naming tiles by the rules of the game: decided values are named, undecided ones stay unnamed."""

from __future__ import annotations

import numpy as np

from autoplay.board.model import neighbour_table
from autoplay.calibrate.live import missing_labels
from autoplay.calibrate.rules_labels import REVEALED, SHOWN_MINE, Evidence, GameEvidence, name_clusters
from autoplay.vision.obstruction import largest_block

# A 6x6 layout: mines marked 1.
LAYOUT = np.array(
    [
        [0, 0, 0, 0, 0, 1],
        [0, 0, 0, 0, 0, 0],
        [0, 0, 0, 1, 0, 0],
        [0, 0, 0, 0, 0, 1],
        [1, 0, 0, 0, 0, 0],
        [0, 0, 1, 0, 0, 1],
    ]
)
HIDDEN, FLAG, EXPLODED, MINE = 20, 21, 22, 23


def numbers() -> np.ndarray:
    table = neighbour_table(6, 6)
    flat = LAYOUT.ravel()
    return np.array([sum(flat[n] for n in table[i]) for i in range(36)])


def lost_game(all_mines_shown: bool, reveal: set[int], fatal: int) -> GameEvidence:
    """Revealed cells show cluster = their number (cluster k stands for value k); mines shown or covered."""
    value = numbers()
    status = np.full(36, ".", dtype="<U1")
    shown: dict[int, set[int]] = {}
    for i in reveal:
        status[i] = "r"
        shown[i] = {int(value[i])}
    status[fatal] = "X"
    if all_mines_shown:
        for i in np.flatnonzero(LAYOUT.ravel()):
            if i != fatal:
                status[i] = "*"
    return GameEvidence(status.reshape(6, 6), shown, "lost", int(LAYOUT.sum()), all_mines_shown)


def safe_cells() -> set[int]:
    return {int(i) for i in np.flatnonzero(LAYOUT.ravel() == 0)}


def test_a_lost_board_showing_every_mine_names_every_number_it_shows():
    evidence = Evidence([lost_game(True, safe_cells() - {34, 35}, fatal=5)])
    evidence.add_role(".", [HIDDEN])
    evidence.add_role("X", [EXPLODED])
    naming = name_clusters(evidence)
    shown_values = {int(numbers()[i]) for i in safe_cells() - {34, 35}}
    for value in shown_values:
        assert naming.labels[value] == str(value)
    assert naming.labels[HIDDEN] == "." and naming.labels[EXPLODED] == "X"


def test_evidence_that_does_not_decide_leaves_the_tile_unnamed():
    # Only the two cells beside the fatal mine are revealed, nothing else shows: a "1" could be a 1 or a 2.
    evidence = Evidence([lost_game(False, {4, 11}, fatal=5)])
    naming = name_clusters(evidence)
    assert 1 not in naming.labels and len(naming.open_values[1]) > 1


def test_a_tile_seen_in_two_roles_is_not_named():
    evidence = Evidence([lost_game(True, safe_cells(), fatal=5)])
    evidence.add_role("F", [FLAG])
    evidence.add_role("*", [FLAG])
    naming = name_clusters(evidence)
    assert FLAG not in naming.labels and FLAG in naming.conflicts


def test_missing_labels_and_dialog_blocks():
    assert missing_labels({".", "0", "1", "2", "3", "X", "F"}) == []
    assert missing_labels({".", "1"}) == ["0", "2", "3", "mine", "F"]
    mask = np.zeros((6, 8), bool)
    mask[1:4, 2:6] = True
    mask[5, 0] = True
    assert largest_block(mask)[:5] == (12, 1, 2, 4, 6)


def test_evidence_that_contradicts_itself_names_no_number():
    """A number cluster no value fits (here a tile shown as 1 with no mine or covered cell around it) means
    some cell was taken for what it is not: nothing of that evidence names a number."""
    status = np.full((3, 3), REVEALED, dtype="<U1")
    status[0, 0] = SHOWN_MINE
    shown = {4: {7}, 8: {7}, 1: {8}}  # cluster 7 at the centre and a corner away from every mine
    naming = name_clusters(Evidence(games=[GameEvidence(status, shown, "lost", 1, True)]))
    assert 7 not in naming.labels and 8 not in naming.labels


def test_a_game_whose_evidence_contradicts_itself_is_left_out_and_the_others_still_name():
    bad_status = np.full((3, 3), REVEALED, dtype="<U1")
    bad_status[0, 0] = SHOWN_MINE
    bad_shown = {i: {9} for i in range(1, 9)} | {4: {7}, 8: {7}}  # cluster 7 both 1 and 0: impossible
    bad = GameEvidence(bad_status, bad_shown, "lost", 1, True)
    good_status = np.full((3, 3), REVEALED, dtype="<U1")
    good_status[2, 2] = SHOWN_MINE
    good_shown = {i: ({7} if i in (4, 5, 7) else {9}) for i in range(8)}  # 9 is a 0, 7 (beside the mine) a 1
    good = GameEvidence(good_status, good_shown, "lost", 1, True)
    naming = name_clusters(Evidence(games=[bad, good]))
    assert naming.labels == {9: "0", 7: "1"}


def test_an_obstructed_cell_may_hide_a_mine_unless_the_readable_cells_show_them_all():
    """Around the centre: one mine shown, one covered cell, one cell under a popup (obstructed), the rest opened."""
    from autoplay.calibrate.rules_labels import COVERED, OBSTRUCTED, _bounds

    status = np.full((3, 3), REVEALED, dtype="<U1")
    status[0, 0], status[0, 1], status[0, 2] = SHOWN_MINE, COVERED, OBSTRUCTED
    table = neighbour_table(3, 3)

    def bounds(end: str, all_mines_shown: bool = False, obstructed_safe: bool = False) -> tuple[int, int]:
        return _bounds(GameEvidence(status, {4: {7}}, end, 2, all_mines_shown, obstructed_safe), 4, table)

    assert bounds("won") == (2, 3)  # the covered cell is a mine; the popup may or may not hide one
    assert bounds("won", obstructed_safe=True) == (2, 2)
    assert bounds("lost") == (1, 3)
    assert bounds("lost", all_mines_shown=True) == (1, 2)  # covered cells safe, the popup's cell unknown
    assert bounds("lost", all_mines_shown=True, obstructed_safe=True) == (1, 1)


def test_a_tile_seen_as_the_mine_stepped_on_and_as_a_shown_mine_is_a_mine():
    """xbomb draws the mine stepped on as every other mine: the one tile takes both roles, and is a mine."""
    evidence = Evidence([lost_game(True, safe_cells(), fatal=5)])
    evidence.add_role("X", [MINE])
    evidence.add_role("*", [MINE])
    naming = name_clusters(evidence)
    assert naming.labels[MINE] == "*" and MINE not in naming.conflicts
