"""Playing one game: the capture → settle → decode → solve → click loop and its safety checks.

Policy, and why:
- All certain moves of one decision are clicked as a batch, then the screen is
  captured once: re-reading after every click would cost a settle (~40-70 ms)
  per cell instead of per batch.
- Certain mines are always flagged, under either win rule.  A right click costs
  ~1 ms plus a ~7 ms redraw, and in exchange the screen holds the whole state:
  the loop keeps no hidden memory, a recorded frame replays to the same
  decision, and xdemineur's flag-all win needs the flags anyway.
- Every batch is verified on the next frame: a cell we revealed must no longer
  be hidden, a cell we flagged must show a flag.  Cells that did not change get
  one more wait for a late redraw (a loaded machine draws a click up to ~100 ms
  late, sometimes in two steps); then, where the window system can tell, the
  game itself is asked whether it has read the clicks yet (a game starved of CPU
  for seconds has not: it is waited for, not clicked again), and a game that
  cannot be asked gets a long wait; only then are the cells clicked again, a
  bounded number of times.
- A board the solver finds contradictory, or a frame the decoder cannot read,
  is captured again after a longer settle before anything is clicked; only a
  persistent failure stops the game.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

import numpy as np

from autoplay.board.impossible import over_proven_mines
from autoplay.board.model import DIGITS, EXPLODED, FLAG, HIDDEN, MINE, Board
from autoplay.board.rules import Rules
from autoplay.board.textformat import format_board
from autoplay.control.capture import Roi, Settled, wait_settled
from autoplay.control.damage import Asked, DamageWatch
from autoplay.control.guard import BoardCovered
from autoplay.control.mouse import Button, Mouse, Target
from autoplay.errors import ContradictionError, ControlError, UnreadableBoardError
from autoplay.insight.speed import speed_figures
from autoplay.outputs import run_folder
from autoplay.play.batch_shown import shows_batch
from autoplay.play.board_place import AreaScreen, BoardLost, PressedAstray, astray, in_place, still_in_place
from autoplay.play.chords import Press, in_press_order, plan_presses
from autoplay.play.end_rhythm import EndRhythm
from autoplay.play.final_board import (
    every_safe_cell_open,
    mines_accounted,
    with_own_flags,
    won_by_batch,
    won_unread_as_mines,
)
from autoplay.play.fresh_looks import (
    changed_since_fresh,
    follow_board,
    fresh_looks,
    fresh_patches,
    is_fresh_board,
    unchanged,
    with_covered,
    with_unreadable,
)
from autoplay.play.kept_flags import split_flags, with_kept_flags
from autoplay.play.last_guess import last_guess_outcomes, read_last_guess
from autoplay.play.proven_open import KnownOpen, UnknownInPlay, known_open, proven_opened
from autoplay.play.reading import grid_may_have_slipped, in_one_line, numbers_kept
from autoplay.play.recorder import Recorder
from autoplay.play.redraw import DAMAGE_CEILING, DamageRhythm, poll_board
from autoplay.solver.decide import Decision, Move
from autoplay.solver.unknown_cells import avoid_cells, with_unknown_covered
from autoplay.vision.debug import write_debug_image
from autoplay.vision.decode import DecodedFrame
from autoplay.vision.features import cell_image
from autoplay.vision.grid import Grid
from autoplay.vision.obstruction import looks_obstructed

#: Screen rectangle ``(left, top, width, height)``.
Rect = tuple[int, int, int, int]
FINISHED = ("won", "lost")

#: The end of a game autoplay stopped playing without knowing its outcome: a guess opened a cell that shows a tile
#: the skin does not know, in a game whose state (face, message) the skin cannot read. The tile may be the exploded
#: mine, and any press after it would land on a finished game; or a number never seen, in a game still going.
UNDECIDED = "undecided"
#: Dialogs of the game's own closed from one game's end to the next's before a cover stops play (a game that
#: keeps reopening one); a game that shows its high scores after every win needs one a game.
MAX_DIALOGS_PER_GAME = 5
#: Seconds to wait before a cover not (yet) known as the game's own is looked at again.
OWNER_WAIT = 0.3
#: A game that takes longer than this to answer whether it has read its clicks was not running all along
#: (stopped, or starved of CPU): what it shows may be half drawn.
SLOW_ANSWER = 0.1
#: Seconds the background question after each batch (``ask_in_background``) waits for the game's answer; the damage
#: wait does not depend on it (it goes by the damage alone after its first wait), so this only bounds the thread.
ANSWER_WAIT = 2.0
#: Cells per game that may show no effect of clicks the game read before play stops (see ``recover``).
MAX_UNOPENED = 3
#: Times per game that flags no move of ours placed (a reveal taken as a flag) are taken off before play stops.
MAX_UNFLAGS = 5
#: Pictures of unmatched flags of ours kept per game for ``play --learn``: a few show every look.
MAX_FLAG_LOOKS = 8
#: The longest the board must stay unchanged to count as drawn, however slowly a game has been seen to draw.
MAX_QUIET = 0.3
#: The first redraws of a session after our clicks are watched until the board has been still for ``MAX_QUIET``,
#: and the longest pause inside each one (times ``RHYTHM_MARGIN``) becomes the wait: one frame for xdemineur, a
#: cascade of 16 ms frames for gnome-mines, whatever a page's script and compositor do.
RHYTHM_SAMPLES = 3
RHYTHM_MARGIN = 1.5
#: A frame with more unreadable cells than this share of the board is located afresh before it is believed.
RELOCATE_SHARE = 0.05
PHASES = ("capture", "settle", "decode", "solve", "click")


class Screen(Protocol):
    """The game window as the loop sees it: pixels plus where they are on the screen."""

    def grab(self) -> np.ndarray: ...
    def window_rect(self) -> Rect: ...
    def check(self, board: Rect | None = None) -> None: ...
    def focus(self) -> None: ...


class Decoder(Protocol):
    """Reads a window frame into a board, on the grid located before when one is given."""

    def __call__(self, frame: np.ndarray, grid: Grid | None) -> DecodedFrame: ...


class Solve(Protocol):
    """The solver as the loop asks it: the next moves for a board on which ``opened`` cells, shown covered, are
    known to be open (safe, with no number read: :func:`autoplay.solver.position.read_position`)."""

    def __call__(self, board: Board, *, opened: Collection[tuple[int, int]] = ()) -> Decision: ...


#: Share of unreadable cells above which the board is taken to be another game's, not a misread.
FOREIGN_SKIN_SHARE = 0.5


@dataclass
class PlayerSettings:
    """Tunables of the loop; the defaults suit gnome-mines and xdemineur on a shared 2-core machine."""

    settle_interval: float = 0.035  # picture unchanged this long = redraw finished
    rules: Rules = field(default_factory=Rules)  # the game's rules: when a board read afresh shows a win
    settle_timeout: float = 3.0
    change_timeout: float = 0.5  # how long a click may take to show any effect at all
    late_redraw: float = 0.3  # extra wait for cells still missing before they are clicked again
    click_retries: int = 2  # re-clicks of a cell whose click did not register
    response_timeout: float = 30.0  # how long a game that has not read its clicks yet is waited for
    unasked_wait: float = 2.0  # a game that cannot be asked: the extra wait for a change before clicking again
    reread_limit: int = 4  # re-captures of an unreadable or contradictory board
    # a block of the board hidden by something the game drew over it (a "you have won" popup that fades in
    # and out, not a window): how long to wait once for it to change before the usual re-reads
    obstruction_wait: float = 6.0
    max_decisions: int = 5000
    final_patience: float = 10.0  # the final board must stay unchanged this many settle intervals (flash, popup)
    #: ... but never longer than this in all: ten of gnome-mines' learnt redraw waits (~0.1 s) were a second a
    #: game, while the longest still spell inside an end seen, between sgt-mines' two red flashes, is ~130 ms
    final_wait: float = 0.35
    #: ... and this long for a kind of end (won, lost) seen unchanged through the long wait before, this session
    #: (:mod:`autoplay.play.end_rhythm`): four of gnome-mines' redraw waits.
    final_wait_learnt: float = 0.1
    dry_run: bool = False
    #: Whether certain flags are pressed; when not, the mines are kept in mind (:mod:`autoplay.play.kept_flags`).
    #: True here, whatever the rules; ``autoplay play`` (``--flags needed``, its default) presses them only where the
    #: win rule counts flags.
    press_flags: bool = True
    #: The button of the game's chord (a skin's ``[press] chord``): certain reveals around a shown number whose
    #: flags are all on screen are made by one press on the number (:mod:`autoplay.play.chords`); None: one each.
    chord: Button | None = None
    #: Buttons to try as the chord where ``chord`` is None (``calibrate --live`` finds a new game's chord so): the
    #: first batch a chord would shorten tries the first; its cells opening confirm it for the session
    #: (:attr:`Player.chord_found`), cells still covered once the late-redraw waits are over rule it out, and they
    #: are pressed one by one as any press the game ignored.
    chord_trials: tuple[Button, ...] = ()


@dataclass
class GameResult:
    game: int
    result: str  # "won" | "lost" | UNDECIDED
    seconds: float
    decisions: int = 0
    moves: int = 0
    clicks: int = 0
    guesses: int = 0
    retries: int = 0
    rereads: int = 0
    waits: int = 0  # late batches for which the game was asked whether it had read the clicks yet
    longest_wait: float = 0.0  # the longest time the game took to answer that question, in seconds
    rss_kib: int | None = None  # the session's resident memory after the game, its freed memory handed back
    last_was_guess: bool = False  # a loss after a certain move means a misread (or a bug), never bad luck
    timing: dict[str, float] = field(default_factory=dict)  # summed seconds per phase
    final_board: str | None = None  # the last board read, in the text format: the truth for auditing misreads
    final_shows_all_mines: bool | None = None  # False: a lost board showing only some mines is no full truth
    unknown_cells: int = 0  # most cells of one frame that matched no template and were played as covered
    dialogs_closed: int = 0  # dialogs of the game's own over the board, closed with Escape
    # cells of the final board that matched no template: their letters in final_board are best guesses, not reads
    final_unknown: list[tuple[int, int]] = field(default_factory=list)
    # the end was read from the last guess's cell among what it could show (a tile the skin had not seen so)
    end_read_among: bool = False
    #: Cells whose reading the rules refused this game (a number beside more proven mines than it says, a
    #: contradiction read twice, a number that changed by itself) or whose press never showed: played as unread,
    #: never acted on.  Each is a misread caught, a page caught mid-paint twice, or a lost press; counted so that
    #: no summary hides them.
    refused_readings: int = 0
    # For ``play --learn`` (not in to_dict): the cells played as covered, and the final frame and its grid.
    unknown_seen: set[tuple[int, int]] = field(default_factory=set, repr=False)
    # Cells this game flagged (the player flags only cells it proved mines), and how the first few of them
    # looked when no template matched: what appeared where it right-clicked is its flag, by its own action.
    flagged: set[tuple[int, int]] = field(default_factory=set, repr=False)
    flag_looks: dict[tuple[int, int], np.ndarray] = field(default_factory=dict, repr=False)
    final_frame: np.ndarray | None = field(default=None, repr=False)
    final_grid: Grid | None = field(default=None, repr=False)

    def drop_working_state(self) -> None:
        """Let go of what only the game itself and the after-game hook use (the final frame and grid, the cells
        flagged or read as nothing, the looks of flags): a long session keeps every GameResult, and these
        would grow its memory by kilobytes a game (about 5 MB over 500 expert games)."""
        self.final_frame = self.final_grid = None
        self.flagged, self.unknown_seen, self.flag_looks = set(), set(), {}

    def to_dict(self) -> dict[str, Any]:
        return {
            "result": self.result,
            "seconds": round(self.seconds, 4),
            "decisions": self.decisions,
            "moves": self.moves,
            "clicks": self.clicks,
            # 3BV, 3BV cleared, 3BV/s, efficiency: what people compare; None where the end board hides the layout
            **speed_figures(self.final_board, self.result, self.seconds, self.clicks),
            "guesses": self.guesses,
            "retries": self.retries,
            "rereads": self.rereads,
            "waits": self.waits,
            "longest_wait": round(self.longest_wait, 4),
            "rss_kib": self.rss_kib,
            "last_was_guess": self.last_was_guess,
            "timing": {k: round(v, 6) for k, v in self.timing.items()},
            "final_board": self.final_board,
            "final_shows_all_mines": self.final_shows_all_mines,
            "unknown_cells": self.unknown_cells,
            "dialogs_closed": self.dialogs_closed,
            "final_unknown": [list(cell) for cell in self.final_unknown],
            **({"end_read_among": True} if self.end_read_among else {}),
            **({"refused_readings": self.refused_readings} if self.refused_readings else {}),
        }


class _Timed:
    """Wraps the screen's grab to split the settle wait into capture time and idle time."""

    def __init__(self, grab: Callable[..., np.ndarray]) -> None:
        self._grab = grab
        self.seconds = 0.0

    def __call__(self, *area: Any) -> np.ndarray:
        t = time.perf_counter()
        try:
            return self._grab(*area)
        finally:
            self.seconds += time.perf_counter() - t


def board_rect_on_screen(grid: Grid, window: Rect) -> Rect:
    """The grid's bounding box moved from window pixels to screen pixels, as ``(left, top, width, height)``."""
    x0, y0, x1, y1 = grid.rect
    return window[0] + x0, window[1] + y0, x1 - x0, y1 - y0


def board_roi(grid: Grid | None) -> Roi | None:
    """Slice bounds of the board in the window frame: only the board decides whether a redraw has finished."""
    if grid is None:
        return None
    x0, y0, x1, y1 = grid.rect
    return y0, y1, x0, x1


def mines_away_from_reveals(decoded: DecodedFrame, reveals: Collection[tuple[int, int]]) -> DecodedFrame:
    """``decoded`` with the mines it shows made unreadable when the last batch's reveals prove no loss.

    A game is lost only by opening a mine, and the mine opened shows where it was clicked: when every cell the
    last batch revealed reads as a number (or covered), the game was not lost by it, and mines read elsewhere
    are something drawn over the board (a "You win" box whose colour matches the exploded tile's) or a
    misread, not the end.  With no reveal yet, or one that reads as nothing known, the board is taken as read.
    """
    board = decoded.board
    if not reveals:
        return decoded
    shows = [board.cells[r * board.cols + c] for r, c in reveals]
    unread = {(int(r), int(c)) for r, c in decoded.unreadable}
    if any(cell in (MINE, EXPLODED) for cell in shows) or any(cell in unread for cell in reveals):
        return decoded
    mines = [divmod(i, board.cols) for i, cell in enumerate(board.cells) if cell in (MINE, EXPLODED)]
    if not mines:
        return decoded
    return replace(decoded, unreadable=sorted(unread | set(mines)), state="unknown")


def looks_like_a_mine(board: Board, cells: Collection[tuple[int, int]]) -> bool:
    """Whether any of ``cells`` (unread: ``board`` holds each one's nearest template, not a reading) is nearest a
    mine's look.  Never a reason to act, only to stop acting: a guess that opened something nearest an exploded
    mine may have ended the game.

    >>> looks_like_a_mine(Board.from_rows(["1X", ".."]), [(0, 1)]), looks_like_a_mine(Board.from_rows(["1X"]), [(0, 0)])
    (True, False)
    """
    return any(board.cells[r * board.cols + c] in (MINE, EXPLODED) for r, c in cells)


def shown_state(
    decoded: DecodedFrame,
    own_flags: Collection[tuple[int, int]] = (),
    opened: Collection[tuple[int, int]] | None = None,
) -> str:
    """The decoder's game state, except that a confidently read mine ends the game even when other cells

    are unreadable: after a loss some games draw tiles (crossed-out wrong flags) a skin may not know.  And a board
    whose every cover in sight is a flag, the flags numbering the mines, is won though some cells are unread:
    ``own_flags`` are cells the player flagged (flags, whatever they look like or whatever covers them: kmines
    draws its "You have won" over the middle of the board), and ``opened`` the cells known opened this game.
    Given ``opened``, every other unread cell must be one of them: a covered tile the skin cannot read (drawn at
    a sub-pixel phase it was not taught at) is no opened cell, and taking it for one called a game won while the
    page's went on (Chromium at 125%, a skin taught at 100%).  Without it (one frame, nothing known of the
    game), unread cells are taken for opened tiles.

    >>> from types import SimpleNamespace
    >>> board = Board.from_text("mines=1\\nF1\\n1.")
    >>> frame = SimpleNamespace(state="unknown", readable=False, unreadable=[(1, 1)], board=board)
    >>> shown_state(frame), shown_state(frame, opened=[]), shown_state(frame, opened=[(1, 1)])
    ('won', 'unknown', 'won')
    """
    state = getattr(decoded, "state", "playing")
    if state in FINISHED or getattr(decoded, "readable", True):
        return state
    doubtful = set(map(tuple, getattr(decoded, "unreadable", [])))
    board = decoded.board
    for index, cell in enumerate(board.cells):
        if cell in (MINE, EXPLODED) and divmod(index, board.cols) not in doubtful:
            return "lost"
    if opened is not None and not doubtful <= set(opened) | set(own_flags):
        return state
    readable = [c for i, c in enumerate(board.cells) if divmod(i, board.cols) not in doubtful]
    flags = readable.count(FLAG) + len(doubtful & set(own_flags))
    if board.mines is not None and HIDDEN not in readable and flags == board.mines:
        return "won"
    return state


def unregistered(
    board: Board, expected: list[Move], unknown: frozenset[tuple[int, int]] | set[tuple[int, int]] = frozenset()
) -> list[Move]:
    """Moves whose effect is missing: a revealed cell still hidden, a flagged cell without a flag.

    A cell that now shows a tile the skin does not know has changed, so its move registered.
    """
    missing = []
    for move in expected:
        if (move.row, move.col) in unknown:
            continue
        cell = board.cells[move.row * board.cols + move.col]
        if (move.action == "reveal" and cell == HIDDEN) or (move.action == "flag" and cell != FLAG):
            missing.append(move)
    return missing


def flagged_instead(
    board: Board, reveals: Collection[tuple[int, int]], flagged: Collection[tuple[int, int]]
) -> list[tuple[int, int]]:
    """Cells we clicked to reveal that now show a flag the player never placed: the game took the left click
    as a flag (GTK games flag on a long press, and a dialog that opens between a press and its release leaves
    the press held).  Such a flag is no mine the player knows: it is taken off again.

    >>> from autoplay.board.textformat import parse_board
    >>> flagged_instead(parse_board("F1\\n.."), {(0, 0), (1, 1)}, set())
    [(0, 0)]
    """
    return sorted(rc for rc in reveals if board.cells[rc[0] * board.cols + rc[1]] == FLAG and rc not in flagged)


def renumbered_cells(before: Board | None, now: Board) -> list[tuple[int, int]]:
    """Cells that showed an opened number on the last board acted on and another opened number now.

    No click changes an opened number, so either reading was of a frame caught mid-paint (a browser's cascade or
    fade) or misread: such a frame is read again before anything is decided on it.

    >>> renumbered_cells(Board.from_rows(["12.", "..."]), Board.from_rows(["13.", "1.."]))
    [(0, 1)]
    """
    if before is None or (before.rows, before.cols) != (now.rows, now.cols):
        return []
    return [
        divmod(i, now.cols)
        for i, (was, is_now) in enumerate(zip(before.cells, now.cells))
        if was in DIGITS and is_now in DIGITS and was != is_now
    ]


def contradictory_moves(moves: list[Any]) -> list[tuple[int, int]]:
    """Cells a decision would both reveal and flag: the board it was made on cannot be right."""
    reveal = {(m.row, m.col) for m in moves if m.action == "reveal"}
    return sorted(reveal & {(m.row, m.col) for m in moves if m.action == "flag"})


def shows_all_mines(board: Board, unknown: Collection[tuple[int, int]] = ()) -> bool | None:
    """Whether a lost board shows every mine (None when the total is not known).

    Only cells read count: an ``unknown`` cell's letter is a best guess, and a mine among them would make the
    board look complete when it is not (the audit then finds one mine short).

    >>> board = Board.from_text("mines=2\\n*1\\nX1")
    >>> shows_all_mines(board), shows_all_mines(board, [(0, 0)])
    (True, False)
    """
    return None if board.mines is None else mines_accounted(board, unknown, "lost")


class Player:
    """Plays games on one screen with one mouse; ``play_game`` returns when the game shows won or lost."""

    def __init__(
        self,
        screen: Screen,
        mouse: Mouse,
        decode: Decoder,
        solve: Solve,
        settings: PlayerSettings | None = None,
        recorder: Recorder | None = None,
        on_decision: Callable[[dict[str, Any]], None] | None = None,
    ) -> None:
        self.screen = screen
        self.mouse = mouse
        self.decode = decode
        self.solve = solve
        self.settings = settings or PlayerSettings()
        self.recorder = recorder
        self.on_decision = on_decision
        self.grid: Grid | None = None
        self.in_progress: GameResult | None = None  # the game being played, for a truthful report if it stops
        self.dialogs_closed = 0  # since the last game ended
        self.relocated_for: frozenset[tuple[int, int]] = frozenset()  # unread cells a fresh location was tried for
        self.board_moved = False  # the page around the board changed: the next read locates the board afresh
        self.presses_made = 0  # presses of the last batch (a chord makes several moves with one)
        self.chord_found: Button | None = None  # a chord button tried (``chord_trials``) whose cells opened
        self.chord_failed: list[Button] = []  # chord buttons tried whose cells stayed covered
        self.last_read: np.ndarray | None = None  # the frame read last, to see the board move from frame to frame
        self.moved_at_read = False  # whether the last read found the board moved (and located it afresh)
        #: A fresh location found no better grid than this one, and the board has not moved since: the many
        #: unread cells of a page at a new zoom are looks the skin does not know yet, not a grid out of place.
        self.grid_confirmed = False
        self.last_board: Board | None = None  # the board read last, on the grid read last
        #: A frame decoded while the damage wait ran (:meth:`look_ahead`): the frame, its grid, the reading.
        self.looked: tuple[np.ndarray, Grid, DecodedFrame] | None = None
        #: The batch the board is being waited for (``settle``'s ``expected``): a look that shows it ends the wait.
        self.expecting: Sequence[Move] = ()
        #: How long the board must stay unchanged to count as drawn: the settings' interval at first, doubled each
        #: time a board taken as drawn turns out to be still changing (see ``still_drawing``).
        self.quiet = self.settings.settle_interval
        self.rhythm_samples = 0  # redraws watched with a long wait to learn the game's rhythm (RHYTHM_SAMPLES)
        #: The X server's damage reports on the game window, where the screen has them: settling without polling.
        watch = getattr(screen, "damage", None)
        self.damage = DamageRhythm(watch) if isinstance(watch, DamageWatch) else None
        self.settled_by_damage = False  # whether the last frame was taken on the damage reports' word
        #: Whether the game answers "have you read our presses?" (None: not asked yet; see ask_in_background).
        self.takes_questions: bool | None = None
        self.end_rhythm = EndRhythm(self.settings.final_wait, self.settings.final_wait_learnt)
        #: ``play --learn``'s naming of unknown tiles while a game goes on: True when it learned some and
        #: the player now reads them.
        self.learn_during_game: Callable[[UnknownInPlay], bool] | None = None

    # -- screen ---------------------------------------------------------------
    def settle(
        self,
        baseline: np.ndarray | None = None,
        patience: float = 1.0,
        change_timeout: float | None = None,
        expected: Sequence[Move] = (),
    ) -> tuple[Settled, float]:
        """Capture until the board stops changing; returns the frame and the seconds spent grabbing.

        ``expected``: the batch just pressed.  Where the damage wait reads the board ahead, a frame that already
        shows all of it drawn ends the wait (:func:`~autoplay.play.batch_shown.shows_batch`).
        """
        self.expecting = expected
        timed = _Timed(self.screen.grab)
        s = self.settings
        if change_timeout is None:
            change_timeout = s.change_timeout if baseline is not None else 0.0
        learning = baseline is not None and self.rhythm_samples < RHYTHM_SAMPLES
        roi = board_roi(self.grid)
        timeout = s.settle_timeout + change_timeout  # a long wait for the first change leaves the redraw its time
        damage = self.damage if self.damage is not None and self.damage.usable and roi is not None else None
        if damage is not None and baseline is not None and roi is not None:
            was_learning = damage.learning
            # asked only where the answer is used: to learn whether it ends redraws, and then where it does
            wanted = patience == 1.0 and (was_learning or damage.answers_end_redraws or damage.asks_again)
            asked = self.ask_in_background() if wanted else None
            look = self.look_ahead if patience == 1.0 else None
            heard = damage.settle(timed, baseline, roi, change_timeout, patience, timeout, MAX_QUIET, asked, look)
            self.settled_by_damage = heard is not None
            if heard is not None:
                settled, pause = heard
                if was_learning and settled.changed:  # the rhythm for the pixels too, where they are polled
                    self.rhythm_samples += 1
                    self.quiet = max(self.quiet, min(MAX_QUIET, RHYTHM_MARGIN * pause))
                return settled, timed.seconds
        self.settled_by_damage = False
        interval = max(self.quiet * patience, MAX_QUIET if learning else 0.0)
        if isinstance(self.screen, AreaScreen) and roi is not None:
            part = _Timed(self.screen.grab_area)
            settled = poll_board(
                timed,
                part,
                roi,
                interval,
                timeout,
                baseline=baseline,
                change_timeout=change_timeout,
                before_grab=self.damage.forget if self.damage is not None else lambda: None,
            )
            timed.seconds += part.seconds
        else:
            settled = wait_settled(timed, interval, timeout, baseline=baseline, change_timeout=change_timeout, roi=roi)
        if learning and settled.changed:
            self.rhythm_samples += 1
            self.quiet = max(self.quiet, min(MAX_QUIET, RHYTHM_MARGIN * settled.longest_pause))
        return settled, timed.seconds

    def read(self, frame: np.ndarray, size: tuple[int, int] | None = None) -> DecodedFrame:
        """Decode on the known grid; a frame it reads badly is located afresh and the better reading kept.

        A board that moved by a few pixels, or a grid first located on a board in
        play, is re-located rather than misread or given up on; so is a frame with
        unread cells not seen unread before (once per such set: a tile the skin does
        not know stays unread on any grid). ``size`` is the
        board's size in this game so far: a board does not change size mid-game, so
        a re-located grid of another size (one row and column short on a finished
        board with no covered tile at its edges, say) is not taken.
        """
        looked, self.looked = self.looked, None
        if looked is not None and looked[0] is frame and looked[1] is self.grid:
            decoded = looked[2]  # read while the quiet wait ran (``look_ahead``)
        else:
            decoded = self.decode(frame, self.grid)
        unread_cells = frozenset(tuple(cell) for cell in getattr(decoded, "unreadable", []))
        unread = len(unread_cells)
        many = self.grid is not None and unread > RELOCATE_SHARE * self.grid.rows * self.grid.cols
        if (
            many
            and size is not None
            and self.grid_confirmed
            and not grid_may_have_slipped(self.last_board, unread_cells)
        ):
            # in a game under way, located afresh already and kept, on a page that has not moved since, and the
            # unread cells are tiles opened since in looks the skin does not know yet (a page at a new zoom):
            # locating again would find the same grid, at ~0.1 s a frame
            many = False
        # A board the page moved (here: the page around it changed since the last frame read; or see
        # ``click_moves``) is located afresh whatever the old grid reads: a move by a whole number of cells could
        # read as a board, one that is not where the clicks would go.
        moved, self.board_moved = self.board_moved, False
        if self.grid is not None and self.last_read is not None and not in_place(self.last_read, frame, self.grid):
            moved = True
        self.last_read = frame
        self.moved_at_read = moved
        # A few new unread cells are worth one fresh look too when they line up: a lattice line located a pixel off
        # leaves one column unread all game (a Tk game at 17 px: its last column but one), which no share of the
        # board notices.  Scattered ones are tiles the skin does not know yet (a page at a new zoom shows a few new
        # looks a move): a fresh location cannot help them, and costs a whole-window search each time.
        fresh_set = unread_cells != self.relocated_for and in_one_line(unread_cells)
        if self.grid is not None and (moved or (unread and (many or fresh_set))):
            self.relocated_for = unread_cells
            try:
                fresh = self.decode(frame, None)
            except UnreadableBoardError as exc:
                # not where it was, and found nowhere else (scrolled partly out of view?) -- unless the old grid
                # still shows every number read there: then the page around it changed by itself (a game's end)
                if moved and many and not numbers_kept(self.last_board, decoded.board, unread_cells):
                    self.board_moved = True  # still to be found: the next frame is located afresh too
                    raise BoardLost(f"the page moved the board and it cannot be located again: {exc}") from None
                fresh = None
            same_size = fresh is not None and (size is None or (fresh.board.rows, fresh.board.cols) == size)
            fewer = fresh is not None and len(getattr(fresh, "unreadable", [])) <= unread - (0 if moved else 1)
            if fresh is not None and same_size and fewer:
                decoded = fresh
            self.grid_confirmed = decoded is not fresh
        self.last_board = decoded.board
        if getattr(decoded, "grid", None) is not None:
            self.grid = decoded.grid
        return decoded

    def look_ahead(self, frame: np.ndarray) -> bool:
        """Decode a frame grabbed while the damage wait's quiet runs on (:meth:`DamageRhythm.settle`); whether it
        already shows the whole batch just pressed, drawn to its end (then the wait need not run on).

        Decoding is a function of the pixels and the grid alone, so the reading is kept for :meth:`read` of the
        same frame on the same grid, and the wait's rest hides its cost.  A frame more drawing made stale is
        simply never read.
        """
        grid = self.grid
        self.looked = None
        if grid is None:
            return False
        try:
            decoded = self.decode(frame, grid)
        except UnreadableBoardError:
            return False
        self.looked = (frame, grid, decoded)
        return shows_batch(decoded.board, self.expecting, readable=decoded.readable, state=decoded.state)

    def ask_in_background(self) -> Asked | None:
        """Ask the game, on a thread of its own, whether it has read every press so far; None where it cannot tell.

        The answer tells the damage wait when the game has read a batch (see
        :meth:`~autoplay.control.damage.DamageWatch.wait_answered`).  A game that takes no such question is not
        asked again this session; one that does not answer in time is simply not waited for by it.
        """
        if self.takes_questions is False:
            return None
        asked = Asked()
        clock = time.perf_counter

        def ask() -> None:
            try:
                answered = self.mouse.guard.caught_up(ANSWER_WAIT)
            except Exception:  # frozen, or the window gone: the wait goes by the damage alone; play notices the rest
                asked.cannot_tell = True
                return
            if answered is None:
                self.takes_questions = False
                asked.cannot_tell = True
            else:
                asked.at = clock()

        threading.Thread(target=ask, name="autoplay-ask-game", daemon=True).start()
        return asked

    def ask_game(self) -> tuple[float, float] | None:
        """Ask the game whether it has read every click and key sent so far (it answers once it has).

        Returns the seconds the answer took and how long to wait for the redraw that follows: a game
        that took long to answer is short of CPU and draws slowly too.  None when the window system
        cannot tell; raises :class:`~autoplay.control.guard.GameNotResponding` when no answer comes.
        """
        s = self.settings
        answered = self.mouse.guard.caught_up(s.response_timeout)
        if answered is None:
            return None
        return answered, min(s.late_redraw + 4 * answered, s.response_timeout)

    def check_window(self) -> None:
        """Ask the window system (not the last frame) whether the window is in place and the board uncovered.

        A dialog of the game's own over the board (a high-score table, "start a new game?") is closed
        with Escape and the question asked again; any other cover stops play.
        """
        window = self.screen.window_rect()
        board = None if self.grid is None else board_rect_on_screen(self.grid, window)
        try:
            self.screen.check(board)
        except BoardCovered as covered:
            if not self.close_own_dialog(covered):
                raise
            self.screen.check(board)

    def end_patience(self, wait: float, state: str) -> float:
        """How many redraw waits of ``wait`` seconds the final board must stay unchanged: ``final_patience``, at
        most what the session has learnt an end of kind ``state`` needs in all (``final_wait`` at first), never
        less than one wait."""
        s = self.settings
        return max(1.0, min(s.final_patience, self.end_rhythm.wait(state) / wait)) if wait > 0 else s.final_patience

    def settle_end(self, frame: np.ndarray, state: str) -> tuple[Settled, float]:
        """The board that shows the game's end, once it has stayed unchanged for long (a flash, a popup fading in).

        Where the server reports damage, ``frame`` (the end just read) is the baseline: no report on the board
        for the patience's time means nothing was drawn since, the frame stands; a report means waiting for the
        drawing to stop as long.  Polling has no such word, so it grabs until the pixels stay unchanged as long.
        """
        damage = self.damage
        if damage is not None and damage.usable and not damage.learning and self.grid is not None:
            patience = self.end_patience(damage.quiet, state)
            settled = self.settle(frame, patience=patience, change_timeout=patience * damage.quiet)
        else:
            settled = self.settle(patience=self.end_patience(self.quiet, state))
        self.end_rhythm.heard(state, settled[0].changed)
        return settled

    def still_drawing(self) -> None:
        """The board changed after it had stayed unchanged for ``quiet`` seconds: the game draws in longer steps.

        This is how each game's redraw rhythm is learnt: a desktop game draws a click in one frame or a quick
        cascade of 16 ms frames, but a page's script may reveal a cascade ring by ring on a timer, or a busy
        browser paint late.  The wait doubles each time a board taken as drawn was not (up to ``MAX_QUIET``), so
        a game that draws in one step keeps the short wait and a slow one is waited for.
        """
        self.quiet = min(2 * self.quiet, max(MAX_QUIET, self.settings.settle_interval))
        if self.damage is not None:
            self.damage.slower(DAMAGE_CEILING)

    def caught_mid_redraw(self) -> None:
        """Cells that read as no known tile on a frame the damage reports called finished: the game draws in
        steps further apart than the quiet wait (a GTK game's next frame), so that wait doubles.  Polling, whose
        wait is learnt from the pixels, is left as it is: a tile the skin does not know is no reason to wait."""
        if self.damage is not None and self.settled_by_damage:
            self.damage.slower(DAMAGE_CEILING)

    def close_own_dialog(self, covered: BoardCovered) -> bool:
        """Close the game's own dialog named by ``covered`` (Escape, never a click); False if it is not one.

        A cover not yet known as the game's is looked at once more a moment later: a toolkit may map a new
        dialog before it has written the properties that name its owner (seen on gnome-mines under load).
        """
        if not covered.own:
            time.sleep(OWNER_WAIT)
            window = self.screen.window_rect()
            try:
                self.screen.check(None if self.grid is None else board_rect_on_screen(self.grid, window))
            except BoardCovered as again:
                covered = again
            else:
                return True  # it went by itself
        if not covered.own or self.dialogs_closed >= MAX_DIALOGS_PER_GAME:
            return False
        if not self.mouse.guard.dismiss(covered):
            raise BoardCovered(f"{covered}, a dialog of the game's own that Escape did not close", covered.cover, True)
        self.dialogs_closed += 1
        if self.in_progress is not None:
            self.in_progress.dialogs_closed += 1
        return True  # Escape moved no pointer: a hand on the mouse meanwhile is still seen at the next click

    # -- acting ---------------------------------------------------------------
    def click_moves(self, moves: list[Move], frame: np.ndarray, presses: list[Press] | None = None) -> int | None:
        """Click a batch decided on ``frame`` as one guarded batch; None if the board no longer looks like it.

        The board is grabbed once more first: a late redraw or a pause since
        ``frame`` was read means the decision is stale (then nothing is
        clicked and the caller reads again); the window guard, asked by the
        click function itself, covers what pixels cannot tell (a window that
        appears in front, a move, a close).  A page that moves its board inside
        the window (:mod:`autoplay.play.board_place`) is seen by the pixels
        around the board, before the first press and before each one after it:
        the batch then stops, and the board is located afresh on the next read.
        Returns how many of ``moves`` were clicked, in order (fewer than all
        when the board moved during the batch); :attr:`presses_made` counts the presses.
        ``presses`` (from :func:`~autoplay.play.chords.in_press_order`) makes several moves with one chord; it must
        list ``moves`` in their order, each press's moves one after the other.
        """
        self.presses_made = 0
        grid = self.grid
        if self.settings.dry_run or not moves or grid is None:
            return 0
        window = self.screen.window_rect()
        board = board_rect_on_screen(grid, window)
        x0, y0, x1, y1 = grid.rect
        if isinstance(self.screen, AreaScreen):  # the board alone: a fraction of the window's pixels
            board_now = self.screen.grab_area((x0, y0, x1 - x0, y1 - y0))
        else:
            board_now = self.screen.grab()[y0:y1, x0:x1]
        if not np.array_equal(board_now, frame[y0:y1, x0:x1]):
            now = self.screen.grab()
            self.check_window()  # a window in front or a move gets its own message
            if in_place(frame, now, grid):
                self.still_drawing()  # only cells changed: a late redraw
            else:
                self.board_moved = True  # the page around the board changed: it moved (a scroll, a zoom)
            return None
        if presses is None:
            presses = plan_presses(None, moves, None)
        targets: list[Target] = []
        for press in presses:
            cx, cy = grid.cell_center(press.row, press.col)
            targets.append((window[0] + cx, window[1] + cy, press.button))

        screen = self.screen

        def still() -> bool:
            """Before each further press: the board is where the targets were computed (a page moves by itself)."""
            if isinstance(screen, AreaScreen):
                here = still_in_place(frame, grid, screen.grab_area)
            else:
                here = in_place(frame, screen.grab(), grid)
            self.board_moved = self.board_moved or not here
            return not self.board_moved

        try:
            clicked = self.mouse.click_batch(targets, board, still)
        except BoardCovered as covered:
            if not self.close_own_dialog(covered):
                raise
            return None  # read the board again: some of the batch may have been clicked before the dialog came
        self.mouse.park(window, board)
        self.presses_made = clicked
        return sum(len(press.moves) for press in presses[:clicked])

    # -- one game -------------------------------------------------------------
    def play_game(self, number: int = 1) -> GameResult:
        """Play until the window shows won or lost (or, with dry_run, until the first decision)."""
        started = time.perf_counter()
        game = _GameInProgress(self, GameResult(number, "unknown", 0.0, timing=dict.fromkeys(PHASES, 0.0)))
        self.in_progress = game.result
        try:
            self.check_window()
            game.capture()
            while game.result.result == "unknown":
                game.step()
        finally:
            game.result.seconds = time.perf_counter() - started
            game.result.refused_readings = len(game.suspects)
        self.in_progress = None
        self.dialogs_closed = 0  # the next game (and the start of it) has a budget of its own
        return game.result

    def unreadable_error(self, frame: np.ndarray, decoded: DecodedFrame) -> UnreadableBoardError:
        """The error to stop with if re-reading does not help; the frame is kept in the recording for calibration."""
        cells = list(getattr(decoded, "unreadable", []))
        shown = ", ".join(f"({r},{c})" for r, c in cells[:6]) + (" ..." if len(cells) > 6 else "")
        grid = getattr(decoded, "grid", None)
        debug = self.keep_frame(frame, grid, cells, "unreadable")
        total = grid.rows * grid.cols if grid is not None else 0
        if total and len(cells) > total * FOREIGN_SKIN_SHARE:
            # most tiles match nothing: not a misread but another game (or theme) than the skin describes
            return UnreadableBoardError(
                f"the board on screen does not look like this skin: {len(cells)} of {total} cells match none of "
                "its templates (another game or theme? pick its --skin, or calibrate one)",
                debug_image=debug,
            )
        return UnreadableBoardError(
            f"cannot read the board: {len(cells)} unreadable cells {shown}".rstrip(), debug_image=debug
        )

    def board_lost_error(self, frame: np.ndarray, lost: BoardLost) -> BoardLost:
        """The error for a board the page moved out of reach, with the frame that showed it kept to look at."""
        debug = self.keep_frame(frame, None, [], "moved")
        return BoardLost(f"{lost} (debug image: {debug})" if debug else str(lost))

    def astray_error(self, frame: np.ndarray, cells: list[tuple[int, int]], seen: str) -> PressedAstray:
        """The error for presses the page moved off their cells (exit 4), the frame kept with the cells marked."""
        debug = self.keep_frame(frame, self.grid, cells, "astray")
        shown = ", ".join(f"({r},{c})" for r, c in cells[:4]) + (" ..." if len(cells) > 4 else "")
        message = (
            f"the page moved the board while autoplay was pressing, and a press landed off its cell ({seen}: {shown});"
            " stopping rather than play on a board it did not mean to make"
        )
        return PressedAstray(f"{message} (debug image: {debug})" if debug else message)

    def resized_error(self, frame: np.ndarray, decoded: DecodedFrame, was: tuple[int, int]) -> UnreadableBoardError:
        """The error for a board located at another size than before in the game, with the frame kept to look at."""
        debug = self.keep_frame(frame, getattr(decoded, "grid", None), [], "resized")
        rows, cols = decoded.board.rows, decoded.board.cols
        return UnreadableBoardError(
            f"the board was located as {rows}x{cols} cells, not {was[0]}x{was[1]} as before in this game",
            debug_image=debug,
        )

    def contradiction_error(self, message: str, frame: np.ndarray, cells: list[tuple[int, int]]) -> ContradictionError:
        """The error to stop with on a board no mine layout explains, its frame kept with the cells marked."""
        debug = self.keep_frame(frame, self.grid, cells, "contradiction")
        return ContradictionError(message, cells, debug)

    def keep_frame(self, frame: np.ndarray, grid: Grid | None, cells: list[tuple[int, int]], stem: str) -> str | None:
        """Keep a frame play stops on: whole in the recording (ready to calibrate on), and a copy with the grid and
        ``cells`` marked beside it (or in a new folder of its own without a recording); the copy's path."""
        if self.recorder is not None:
            self.recorder.frame(frame, "unreadable")
            folder = self.recorder.root
        else:
            folder = run_folder("unreadable")  # a folder of its own, named in the message
        return write_debug_image(folder / f"{stem}-{time.strftime('%Y%m%d-%H%M%S')}.png", frame, grid, cells)

    def log_decision(
        self,
        number: int,
        frame: np.ndarray,
        decoded: DecodedFrame,
        decision: Decision,
        state: str,
        timing: dict[str, float],
        own_flags: list[tuple[int, int]] | None = None,
        suspects: set[tuple[int, int]] | None = None,
        covered_by_look: list[tuple[int, int]] | None = None,
        opened: list[tuple[int, int]] | None = None,
        kept_flags: list[tuple[int, int]] | None = None,
    ) -> None:
        if self.recorder is None and self.on_decision is None:
            return
        grid = self.grid.to_dict() if self.grid is not None else None
        if self.recorder is not None:
            from autoplay.insight.record import explanation_record

            name = self.recorder.frame(frame)
            self.recorder.decision(
                number,
                name,
                decoded.board,
                grid,
                list(decision.moves),
                bool(decision.guess),
                decision.reason,
                state,
                timing,
                explanation_record(with_kept_flags(decoded.board, kept_flags or ()), decision),
                unknown=sorted(set(map(tuple, getattr(decoded, "unreadable", []))) | (suspects or set())),
                own_flags=own_flags,
                covered_by_look=covered_by_look,
                opened=opened,
                kept_flags=kept_flags,
            )
        if self.on_decision is not None:
            self.on_decision(
                {
                    "game": number,
                    "moves": list(decision.moves),
                    "guess": bool(decision.guess),
                    "reason": decision.reason,
                    "board": decoded.board,
                }
            )


class _GameInProgress:
    """The state of one game between frames: the last frame, what the last batch should have changed,
    and how many re-reads and re-clicks are left before giving up."""

    def __init__(self, player: Player, result: GameResult) -> None:
        self.player = player
        self.settings = player.settings
        self.result = result
        self.frame: np.ndarray = np.zeros((0, 0, 3), np.uint8)  # none yet: play_game captures before any step
        self.grabbing = self.waited = 0.0
        self.drawn: float | None = None  # of ``waited``, the game's own drawing as the window system reported it
        self.expected: list[Move] = []
        self.waited_late = False
        self.waited_obstruction = False  # whether a block drawn over the board has been waited for
        self.end_wait_until: float | None = None  # how long a popup over the end board is waited for
        self.asked_game = False  # whether the game has been asked if it read the last batch
        self.retries_left = self.settings.click_retries
        self.rereads_left = self.settings.reread_limit
        self.final_checked = False
        #: The end found with cells the skin cannot read: UNDECIDED (a guess opened a tile the skin cannot read, in
        #: a game whose state it cannot read) or "won" (every safe cell known open); taken once the end is still.
        self.ends_as: str | None = None
        #: What each cell the last guess opened can show when it ended the game either way (UNDECIDED ends only).
        self.last_guess: dict[tuple[int, int], dict[str, str]] = {}
        self.known = KnownOpen()  # the unread cells known open when the last batch was decided
        self.last_proven: frozenset[tuple[int, int]] = frozenset()  # the cells of those proven open
        self.guessed: set[tuple[int, int]] = set()  # cells this game's guesses clicked (reveals not proven safe)
        self.state_read = False  # the skin read this game's state (its face said "playing") at least once
        self.last_unknown: set[tuple[int, int]] = set()
        self.last_renumbered: set[tuple[int, int]] = set()  # opened numbers last seen to change by themselves
        self.last_contradiction: set[tuple[int, int]] = set()  # the cells the solver last found contradicting
        self.own_flags: list[tuple[int, int]] = []  # unknown cells of the last frame read that we had flagged
        self.suspects: set[tuple[int, int]] = set()  # cells the rules found read wrong this game: played as unknown
        self.last_board: Board | None = None  # the board the last batch was decided on, as the solver saw it
        self.last_reveals: set[tuple[int, int]] = set()  # the cells that batch opened
        self.unopened: set[tuple[int, int]] = set()  # cells clicked and read by the game that did not change
        self.unflags_left = MAX_UNFLAGS  # how often flags our reveals turned into may be taken off this game
        self.stale_flags: set[tuple[int, int]] = set()  # flags shown when the game was found started over
        self.opened: set[tuple[int, int]] = set()  # cells read as numbers this game: they stay opened
        self.looks: dict[tuple[int, int], np.ndarray] | None = None  # the fresh board's unread cells (fresh_looks)
        self.fresh: tuple[Grid, np.ndarray] | None = None  # every cell of the fresh board, sampled (fresh_patches)
        self.covered_by_look: list[tuple[int, int]] = []  # unread cells of the last frame that look as when fresh
        self.began_fresh = False  # whether the game's first frame was a fresh board (every cell covered)
        self.last_unread: set[tuple[int, int]] = set()  # cells of the last batch's board whose look no template knew
        self.answered_since_batch = False  # whether the game has said it read the clicks of the current batch
        self.asked_before_acting = False  # whether the game was asked about unread cells since the last batch
        #: The page moved the board since the last batch was pressed: whether each press landed where it was aimed
        #: is checked on the board (``board_place.astray``) before anything else is done.
        self.in_doubt = False
        self.batch: list[Move] = []  # the moves of the last batch decided and pressed (re-clicks are of these)
        self.size: tuple[int, int] | None = None  # rows x cols of the board this game was first read as
        self.clicked: set[tuple[int, int]] = set()  # cells this game's reveals clicked
        self.learn_tried: tuple[frozenset[tuple[int, int]], int] = (frozenset(), 0)  # opened cells, numbers read
        self.kept_flags: set[tuple[int, int]] = set()  # mines proven and not flagged on screen (press_flags off)
        self.batch_kept: list[tuple[int, int]] = []  # the flags the last batch kept in mind instead of pressing
        self.chord_on_trial: tuple[Button, frozenset[tuple[int, int]]] | None = None  # a tried chord, its cells

    def capture(self, baseline: np.ndarray | None = None, **kw: Any) -> None:
        settled, self.grabbing = self.player.settle(baseline, **kw)
        self.frame, self.waited, self.drawn = settled.frame, settled.waited, settled.drawn

    def step(self) -> None:
        """Read the latest frame and do the one thing it calls for."""
        if self.result.decisions >= self.settings.max_decisions:
            raise ControlError(f"game {self.result.game} did not end after {self.result.decisions} decisions")
        frame = self.frame
        t0 = time.perf_counter()
        try:
            decoded = self.player.read(frame, self.size)
        except BoardLost as exc:  # a page mid-scroll or mid-zoom: a few more looks, then stop (exit 4)
            lost = exc
            return self.reread(lambda: self.player.board_lost_error(frame, lost))
        self.in_doubt = self.in_doubt or (self.player.moved_at_read and bool(self.batch))
        t_decode = time.perf_counter() - t0
        size = (decoded.board.rows, decoded.board.cols)
        if self.size is None:
            self.size = size
        elif size != self.size:
            # A board does not change size mid-game: a grid re-located onto part of the window (or onto something
            # else) is a misreading, and the moves expected from the last batch would not even fit it.
            was = self.size
            return self.reread(lambda: self.player.resized_error(frame, decoded, was))
        decoded = self.covered_as_when_fresh(frame, decoded)
        decoded = mines_away_from_reveals(decoded, self.last_reveals)
        # Not given the cells known opened yet: with them, kmines at 125% (its end popup over covered mines) ended
        # games on later frames whose boards the audit found misread (BENCHMARKS.md, 2026-11-29 evening).
        state = shown_state(decoded, self.our_mines())
        self.state_read = self.state_read or state == "playing"
        if state == "lost" and self.in_doubt and self.lost_astray(decoded.board):
            cells = [(m.row, m.col) for m in self.batch]
            return self.reread(lambda: self.player.astray_error(frame, cells, "the game was lost"))
        if state in FINISHED:
            return self.finish(decoded, state)
        if self.ends_as is not None:
            return self.finish(self.won_by_last_batch(decoded) or decoded, self.ends_as)
        unknown = list(getattr(decoded, "unreadable", []))
        if self.restarted(decoded.board, unknown):
            if self.in_doubt:  # a press the page moved onto the face (or a new-game button) started over
                cells = [(m.row, m.col) for m in self.batch]
                return self.reread(lambda: self.player.astray_error(frame, cells, "the game started over"))
            self.forget_game()
            # Flags on a board that started over were put there by clicks meant for the old one: no mines known.
            self.stale_flags = {divmod(i, decoded.board.cols) for i, c in enumerate(decoded.board.cells) if c == FLAG}
        if unknown and self.batch and not self.asked_before_acting and self.game_was_behind():
            return  # the game had not drawn its answer yet: the frame captured since is read instead
        covered = self.player.grid is not None and looks_obstructed(decoded.board.rows, decoded.board.cols, unknown)
        won = self.won_under_cover(decoded, unknown) if unknown and self.player.grid is not None else None
        if won is not None:
            return self.finish(won, "won")
        self.final_checked = False
        if self.player.grid is None or covered:
            # Once per game the first re-read waits long: a popup the game draws over its board goes by itself.
            wait = None if self.waited_obstruction or self.player.grid is None else self.settings.obstruction_wait
            self.waited_obstruction = self.waited_obstruction or wait is not None
            return self.reread(lambda: self.player.unreadable_error(frame, decoded), change_timeout=wait)
        if unknown and set(unknown) != self.last_unknown:
            # Read again first: a cell caught mid-redraw reads on the next frame; a tile the skin
            # does not know reads the same twice and is then played around.
            self.last_unknown = set(unknown)
            self.player.caught_mid_redraw()
            return self.reread(lambda: self.player.unreadable_error(frame, decoded))
        unknown = sorted(set(unknown) | self.suspects)
        self.own_flags = sorted(rc for rc in unknown if rc in self.result.flagged)
        self.keep_flag_looks(frame, decoded.grid, self.own_flags)
        board = self.as_played(decoded.board, unknown)
        misread = over_proven_mines(board, self.our_mines())
        if misread:  # our flags are proven mines: a number with more of them around it than it says is misread
            self.suspects |= set(misread)
            unknown = sorted(set(unknown) | self.suspects)
            board = self.as_played(decoded.board, unknown)
        renumbered = renumbered_cells(self.last_board, board)
        if renumbered:  # an opened number never changes: one of the two readings caught the page mid-paint
            won = self.won_by_last_batch(decoded)
            if won is not None:  # the numbers changed under a box the game draws at its win
                self.ends_as = "won"
                return self.finish(won, "won")
            if set(renumbered) != self.last_renumbered:
                self.last_renumbered = set(renumbered)
                self.player.still_drawing()
                return self.reread(
                    lambda: self.player.contradiction_error("opened numbers changed by themselves", frame, renumbered)
                )
            self.suspects |= set(renumbered)  # the same twice: neither reading is trusted, the cells are not used
            unknown = sorted(set(unknown) | self.suspects)
            board = self.as_played(decoded.board, unknown)
        self.result.unknown_cells = max(self.result.unknown_cells, len(unknown))
        if self.in_doubt and self.last_board is not None:
            unread = set(unknown) | self.last_unread
            # the batch as decided: the flags it kept in mind show on the board played as flags now
            decided = self.batch + [Move("flag", r, c, 1.0) for r, c in self.batch_kept]
            strays = astray(self.last_board, board, decided, unread)
            if strays:  # a late redraw is given the rereads' time; a press that went astray stays so
                return self.reread(lambda: self.player.astray_error(frame, strays, "the board shows it"))
            self.in_doubt = False
        # The last batch's reveals, though a dialog cut it short (then nothing is expected of it).
        reveals = self.last_reveals | {(m.row, m.col) for m in self.expected if m.action == "reveal"}
        misfired = flagged_instead(board, reveals | self.stale_flags, self.result.flagged)
        if misfired:
            return self.take_off_flags(misfired)
        self.opened.update(divmod(i, board.cols) for i, c in enumerate(board.cells) if c in DIGITS)
        missing = unregistered(board, self.expected, set(unknown))
        if missing:
            return self.recover(missing)
        if self.chord_on_trial is not None:  # every cell the tried chord made has opened
            self.player.chord_found, self.chord_on_trial = self.chord_on_trial[0], None
        if unknown and self.learned_now(frame, decoded, board, unknown):
            self.result.unknown_seen.update(unknown)
            return self.step()  # the same frame, read with the tiles just learned
        unread_now = {tuple(cell) for cell in getattr(decoded, "unreadable", [])}
        guessed_into = self.guessed_into(unread_now) if state == "unknown" else []
        if guessed_into and (not self.state_read or looks_like_a_mine(decoded.board, guessed_into)):
            # Read twice the same, not learnt, and the skin cannot tell a finished game from one going on: playing
            # on would act on a guess about pixels (Firefox at 125% lost a 50/50 on a look of the exploded mine the
            # skin had never seen, then pressed a finished board until it stopped). A skin that has read the game
            # as going on is trusted when it reads "unknown" for a frame with tiles it does not know, unless the
            # guessed cell's nearest look is a mine (Firefox at 125%, look 40731: a lost 50/50 whose exploded mine
            # matched no template closely enough; play pressed the other cell of the 50/50 on the finished page).
            self.ends_as = UNDECIDED
            # Open: the cells known open at the last decision, and every cell read as a number this game (kmines
            # draws its end popup over the middle of the board, whose numbers then read as nothing).
            self.last_guess = last_guess_outcomes(board, guessed_into, self.known.cells | self.opened)
            return self.finish(decoded, UNDECIDED)
        self.known = known_open(
            board,
            [rc for rc in unknown if rc not in self.own_flags],
            read_before=self.opened,
            revealed=self.clicked,
            guessed=self.guessed,
            unread_before=self.last_unread,
            last_reveals=self.last_reveals,
        )
        if state == "unknown" and every_safe_cell_open(board, self.known.cells):
            # Nothing is left to press, and the skin cannot read the end (tiles it does not know, or no face).  Open
            # by proof, the game is won; open on a guess's word, it is won if the guess was safe and lost on it if
            # not, and the tile it opened is the only witness (Chromium, look 4187: a 50/50 won onto a 6 never
            # seen; pressed on, play pressed the mine of the other cell).
            self.ends_as = UNDECIDED if self.known.on_guess else "won"
            if self.ends_as == UNDECIDED:
                self.last_guess = last_guess_outcomes(board, guessed_into, self.known.cells | self.opened)
            return self.finish(decoded, self.ends_as)
        # Cells unread while the game goes on, for play --learn: only safe cells open before the end, so each is a
        # number.  Not those of a frame that ends the game (above): a lost page shows every mine, and its mines taken
        # for numbers were all named 1 (Firefox at 150%, look 40731, with a guess read as lost on its mine).
        self.result.unknown_seen.update(unknown)
        if HIDDEN not in board.cells:
            return self.reread(lambda: UnreadableBoardError("no hidden cell left, yet the game shows no win or loss"))
        t1 = time.perf_counter()
        try:
            decision = self.player.solve(board, opened=self.known.cells)
        except ContradictionError as exc:
            won = self.won_by_last_batch(decoded)
            if won is not None:  # the last safe cells opened, and the game drew over its board (kmines at 125%)
                self.ends_as = "won"
                return self.finish(won, "won")
            foreign = [rc for rc in exc.cells if board[rc] == FLAG and rc not in self.result.flagged]
            if foreign and self.unflags_left > 0:
                # Flags no move of ours placed this game (a batch meant for the last game landing on a new one,
                # the user's own) are no proven mines: the numbers refuse them, so they come off.
                return self.take_off_flags(foreign)
            message, cells = str(exc).split(": cells ")[0], exc.cells
            numbers = {rc for rc in cells if board[rc] in DIGITS} - self.suspects
            if numbers and set(cells) == self.last_contradiction:
                # Read the same twice: one of these numbers is misread (a tile the skin never saw, taken for a
                # known one by a second look) and the rules cannot say which, so none of them is used, as a 0
                # beside a covered cell is played around; the same frame is decided again without them.
                self.suspects |= numbers
                return self.step()
            self.last_contradiction = set(cells)
            return self.reread(lambda: self.player.contradiction_error(message, frame, cells))
        clash = contradictory_moves(list(decision.moves))
        if clash:
            return self.reread(
                lambda: self.player.contradiction_error("the board calls a cell both safe and a mine", frame, clash)
            )
        if unknown:
            decision = avoid_cells(decision, board, set(unknown), self.known.cells)
            if not decision.moves:
                return self.reread(lambda: self.player.unreadable_error(frame, decoded))
        self.last_board, self.last_reveals = board, {(m.row, m.col) for m in decision.moves if m.action == "reveal"}
        self.last_proven = self.known.proven
        self.clicked |= self.last_reveals
        self.guessed |= {(m.row, m.col) for m in decision.moves if m.action == "reveal" and m.probability > 0}
        self.last_unread = {tuple(cell) for cell in getattr(decoded, "unreadable", [])}
        self.act(decoded, decision, state, t_decode, time.perf_counter() - t1)

    def our_mines(self) -> set[tuple[int, int]]:
        """The mines this game's certain moves proved: flagged on screen or kept in mind, ours alike."""
        return self.result.flagged | self.kept_flags

    def as_played(self, board: Board, unknown: Collection[tuple[int, int]]) -> Board:
        """``board`` as decided on: unread cells covered (those we flagged as flags), the mines kept in mind drawn
        in as flags."""
        return with_kept_flags(with_unknown_covered(board, unknown, self.own_flags), self.kept_flags)

    def lost_astray(self, board: Board) -> bool:
        """A loss right after the page moved: no exploded mine shown on a cell of the last batch's reveals."""
        exploded = {divmod(i, board.cols) for i, c in enumerate(board.cells) if c == EXPLODED}
        return not exploded or not exploded <= {(m.row, m.col) for m in self.batch if m.action == "reveal"}

    def learned_now(self, frame: np.ndarray, decoded: Any, board: Board, unknown: list[tuple[int, int]]) -> bool:
        """Let ``play --learn`` name unknown tiles the rules prove to be opened numbers, while the game goes on.

        Tried again only when more cells are proven opened or more numbers are read (more evidence), so a
        tile the rules cannot decide yet costs one try per new piece of evidence, not one per decision.
        """
        learn = self.player.learn_during_game
        if learn is None or decoded.grid is None:
            return False
        candidates = [rc for rc in unknown if rc not in self.suspects and rc not in self.result.flagged]
        opened = proven_opened(board, candidates, self.clicked, self.last_unread, self.last_reveals)
        evidence = (frozenset(opened), sum(c in DIGITS for c in board.cells))
        tried, numbers = self.learn_tried
        if not opened or (evidence[0] <= tried and evidence[1] <= numbers):
            return False
        self.learn_tried = evidence
        return learn(
            UnknownInPlay(self.result.game, frame, decoded.grid, decoded.board, unknown, opened, self.result.flagged)
        )

    def covered_as_when_fresh(self, frame: np.ndarray, decoded: Any) -> Any:
        """``decoded`` with the unread cells that look exactly as on this game's fresh board read as covered.

        The looks are taken from the game's first frame, before any click (see :mod:`autoplay.play.fresh_looks`).
        """
        grid = getattr(decoded, "grid", None)
        unread = [tuple(cell) for cell in getattr(decoded, "unreadable", [])]
        if grid is None:
            return decoded
        if self.looks is None and self.result.clicks == 0:
            self.began_fresh = is_fresh_board(decoded.board, unread)
            self.looks = fresh_looks(frame, grid, unread) if self.began_fresh else {}
            self.fresh = fresh_patches(frame, grid) if self.began_fresh else None
        self.covered_by_look = unchanged(frame, grid, self.looks or {}, unread) if unread else []
        decoded = with_covered(decoded, self.covered_by_look, self.settings.rules)
        if self.fresh is not None:  # the page may have moved the board: the fresh pictures move with it
            self.fresh = follow_board(self.fresh, grid, frame, decoded.board)
        if self.fresh is not None:  # read as covered, but no longer the fresh picture: opened, look unknown
            decoded = with_unreadable(decoded, changed_since_fresh(frame, self.fresh, decoded.board))
        return decoded

    def restarted(self, board: Board, unknown: list[tuple[int, int]]) -> bool:
        """Whether the game started over under us: an opened cell never shows covered again otherwise."""
        last = self.last_board
        if last is None or (last.rows, last.cols) != (board.rows, board.cols):
            return False
        unread = set(unknown)
        return any(
            c.isdigit() and board.cells[i] == HIDDEN and divmod(i, board.cols) not in unread
            for i, c in enumerate(last.cells)
        )

    def forget_game(self) -> None:
        """Drop what this game taught about its cells (our flags, cells found misread, the last batch): the
        board on screen is a new game (a new-game key or dialog answered behind our back)."""
        self.result.flagged.clear()
        self.opened.clear()
        self.suspects.clear()
        self.last_contradiction = set()
        self.unopened.clear()
        self.clicked.clear()
        self.guessed.clear()
        self.known, self.last_proven = KnownOpen(), frozenset()
        self.learn_tried = (frozenset(), 0)
        self.kept_flags.clear()
        self.last_board, self.last_reveals, self.expected = None, set(), []
        self.batch, self.batch_kept, self.in_doubt = [], [], False

    def won_under_cover(self, decoded: Any, unknown: list[tuple[int, int]]) -> Any:
        """The end board if cells the skin cannot read (a picture over the board, flags the game itself put on
        the mines at the end) hide a win, else None.

        Before the last batch the board had K cells covered or flagged (cells read as nothing counted as
        covered, so K is at most too high); the batch opened R of them, and its openings may have opened more
        (cells of the K that now read as numbers).  Cells known opened though not read are not counted either:
        cells the game read clicks on without change, and, in a game that began on a fresh board, cells whose
        look no template knew and that did not look as when fresh (a covered cell changes only when it opens
        or is flagged, and the player's own flags are flags).  When what is left equals the mine count, what is
        still covered is at most the mines, so exactly the mines: every safe cell is open, the game is won.
        Each opened cell must show it (changed, or hidden under the picture).  The end board then shows the
        covered cells under the picture as the mines they are.
        """
        board, reveals, mines = self.last_board, self.last_reveals, decoded.board.mines
        if board is None or mines is None or not reveals:
            return None
        unread = set(unknown)
        # The count below holds only if the batch's reveals were safe: a guess whose cell now reads as nothing
        # known may be the exploded mine in a look the skin has not seen (seen in Firefox at 125%: a lost 50/50
        # taken for a win).
        if self.guessed_into(unread):
            return None
        now = decoded.board.cells
        opened = self.unopened | (self.last_unread if self.began_fresh else set())
        left = [
            i
            for i, c in enumerate(board.cells)
            if c in (HIDDEN, FLAG)
            and divmod(i, board.cols) not in reveals
            and not (c == HIDDEN and divmod(i, board.cols) in opened)
            and not (now[i] in DIGITS and divmod(i, board.cols) not in unread)  # opened since, by a cascade
        ]
        hidden_now = {divmod(i, board.cols) for i, c in enumerate(decoded.board.cells) if c == HIDDEN}
        if len(left) != mines or (reveals & hidden_now - set(unknown)):
            return None
        cells = list(decoded.board.cells)
        for i in left:
            if divmod(i, board.cols) in set(unknown):
                cells[i] = FLAG
        shown = Board(board.rows, board.cols, tuple(cells), mines)
        still = [rc for rc in unknown if shown.cells[rc[0] * board.cols + rc[1]] != FLAG]
        return replace(decoded, board=shown, unreadable=still)

    def won_by_last_batch(self, decoded: Any) -> Any:
        """``decoded`` as the end board when the last batch's certain reveals opened the last safe cells, else None
        (:func:`~autoplay.play.final_board.won_by_batch`): whatever the game then draws over its board."""
        if self.last_board is None or any(m.action == "reveal" and m.probability > 0 for m in self.batch):
            return None
        unread = [(int(r), int(c)) for r, c in getattr(decoded, "unreadable", [])]
        end = won_by_batch(self.last_board, self.last_reveals, decoded.board, unread, self.last_proven)
        return None if end is None else replace(decoded, board=end[0], unreadable=end[1], state="won")

    def guessed_into(self, unread: set[tuple[int, int]]) -> list[tuple[int, int]]:
        """The cells a guess of the last batch opened that now read as a tile the skin does not know."""
        return [
            (m.row, m.col)
            for m in self.batch
            if m.action == "reveal" and m.probability > 0 and (m.row, m.col) in unread
        ]

    def keep_flag_looks(self, frame: np.ndarray, grid: Grid, cells: list[tuple[int, int]]) -> None:
        """Keep the picture of flags of ours that no template matched (a few per game), for ``play --learn``."""
        looks = self.result.flag_looks
        for row, col in cells:
            if len(looks) >= MAX_FLAG_LOOKS:
                return
            if (row, col) not in looks:
                looks[(row, col)] = cell_image(frame, grid, row, col)

    def finish(self, decoded: Any, state: str) -> None:
        """The game shows its end: take it only once it has stayed unchanged for a long settle.

        sgt-mines flashes the board red twice after a loss and some games fade
        a popup in: the frame that first showed the end may be neither.
        """
        if not self.final_checked:
            self.final_checked = True
            settled, self.grabbing = self.player.settle_end(self.frame, state)
            self.frame, self.waited, self.drawn = settled.frame, settled.waited, settled.drawn
            return
        if state == UNDECIDED:  # the settled frame read again for what the last guess's cell can show
            end, decoded = read_last_guess(decoded, self.last_guess)
            state = end or UNDECIDED
            self.result.end_read_among = end is not None
        unread = list(getattr(decoded, "unreadable", []))
        # An opened number never changes: one read otherwise at the end than on the last board acted on is a tile
        # half under something the game draws at its end (kmines at 125% fades a popup in over the board, whose edge
        # cut a 3 into a "2"), so it is no truth for the audit.
        unread += [rc for rc in renumbered_cells(self.last_board, decoded.board) if rc not in unread]
        # Under a box the game draws at its end (kmines' high-score dialog) our mines are mines, pressed or kept, and
        # the mine count closes without waiting for the box.
        board, unknown = with_own_flags(decoded.board, unread, self.our_mines())
        if state == "won" and unknown:
            board, unknown = won_unread_as_mines(board, unknown, self.opened | self.known.proven)
        covered_up = looks_obstructed(board.rows, board.cols, unread) and not mines_accounted(board, unknown, state)
        if self.end_wait_until is None and covered_up:
            self.end_wait_until = time.monotonic() + self.settings.obstruction_wait
        left = 0.0 if self.end_wait_until is None else self.end_wait_until - time.monotonic()
        if covered_up and left > 0 and not self.settings.dry_run:
            # A popup over the end board (kmines fades "You have lost" in, shows it ~3 s, fades it out) may
            # hide mines: look again at each change for up to the popup wait, then take the end as it is
            # (its truth is then marked incomplete).
            self.final_checked = False
            self.capture(self.frame, patience=4.0, change_timeout=left)
            return
        self.result.result = state
        self.result.final_board = format_board(board)
        self.result.final_unknown = unknown
        self.result.final_frame, self.result.final_grid = self.frame, getattr(decoded, "grid", None)
        if state == "lost":
            self.result.final_shows_all_mines = shows_all_mines(board, unknown)

    def reread(self, failure: Callable[[], Exception], change_timeout: float | None = None) -> None:
        """A frame that cannot be acted on: capture again after a longer settle, or give up with ``failure()``.

        ``change_timeout`` is how long to wait for the picture to change (default: the late-redraw wait).
        """
        self.player.check_window()  # a closed, moved or covered window explains an unreadable frame best
        self.rereads_left -= 1
        self.result.rereads += 1
        if self.rereads_left < 0:
            raise failure()
        self.player.screen.focus()  # gnome-mines hides its board while unfocused (paused); focus resumes it
        if self.player.grid is not None and not self.settings.dry_run:  # a hovered tile reads as unreadable
            window = self.player.screen.window_rect()
            self.player.mouse.park(window, board_rect_on_screen(self.player.grid, window))
        wait = self.settings.late_redraw if change_timeout is None else change_timeout
        self.capture(self.frame, patience=4.0, change_timeout=wait)

    def game_was_behind(self) -> bool:
        """Cells read as unknown after a batch: ask the game whether it has read that batch, before acting on them.

        A game stopped or starved of CPU in the middle of drawing its answer (half a cascade: opened 0s beside
        covered cells) shows a picture as still as a finished one, so a still picture does not prove it done.
        A game that answers at once was drawing all along and the frame stands; one slow to answer had more
        to draw, and the frame it draws next is captured (True).  Asked once per batch, so a tile the skin
        does not know costs one question, not one per frame.
        """
        self.asked_before_acting = True
        answer = self.player.ask_game()
        if answer is None or answer[0] < SLOW_ANSWER:
            return False
        self.wait_for_drawing(*answer)
        return True

    def wait_for_drawing(self, answered: float, patience: float) -> None:
        """The game answered after ``answered`` seconds that it has read the batch: count the wait, and capture
        what it draws within ``patience`` seconds (a game slow to answer draws slowly too)."""
        self.answered_since_batch = True
        self.result.waits += 1
        self.result.longest_wait = max(self.result.longest_wait, answered)
        self.capture(self.frame, change_timeout=patience)

    def recover(self, missing: list[Move]) -> None:
        """Cells of the last batch show no effect: wait for a late redraw, then for the game to read the
        clicks, and only then click them again.

        Under load a game can show a click ~100 ms late, after a first partial
        redraw, or not run at all for seconds; clicking again before it has read
        the first click would take a late flag off, and giving up would stop a
        session over a slow game.  Once the game says it has read its input, its
        effect is drawn in the next frame: the wait for it grows with how long
        the game took to answer (a starved game draws slowly too).
        """
        if not self.waited_late:
            self.waited_late = True
            self.capture(self.frame, change_timeout=self.settings.late_redraw)
            return
        if not self.asked_game:
            self.asked_game = True
            answer = self.player.ask_game()
            if answer is None:
                # No way to ask (xdemineur): a flag clicked again before its late redraw comes off, or turns
                # into a "?", so such a game is given a long wait instead.
                self.capture(self.frame, change_timeout=self.settings.unasked_wait)
                return
            return self.wait_for_drawing(*answer)
        if self.retries_left <= 0:
            if self.answered_since_batch and len(self.unopened) + len(missing) <= MAX_UNOPENED:
                # The game read every click and the cells still look as before: they do not behave as the
                # tiles they were read as (an opened tile read as covered opens nothing), so they are played
                # as unknown from now on, never clicked again.
                self.unopened |= {(m.row, m.col) for m in missing}
                self.suspects |= {(m.row, m.col) for m in missing}
                self.expected = []
                return self.capture(self.frame, change_timeout=0.0)
            raise ControlError(f"{len(missing)} click(s) did not register, e.g. {missing[0]}")
        before = self.frame
        if self.chord_on_trial is not None and self.chord_on_trial[1] & {(m.row, m.col) for m in missing}:
            self.player.chord_failed.append(self.chord_on_trial[0])  # its cells stayed covered: not the game's chord
        self.chord_on_trial = None
        reclicked = self.player.click_moves(missing, before)  # one press each: a chord the game ignored is retried so
        if reclicked is None:
            return self.reread(lambda: ControlError("the board kept changing between reading it and clicking"))
        self.result.clicks += reclicked  # a game's clicks are the presses it made, re-clicks included
        self.retries_left -= 1
        self.result.retries += 1
        missing = missing[:reclicked]  # fewer when the board moved mid-batch
        self.expected, self.waited_late, self.asked_game, self.answered_since_batch = missing, False, False, False
        self.asked_before_acting = False
        self.capture(before, patience=2.0)

    def take_off_flags(self, misfired: list[tuple[int, int]]) -> None:
        """Right-click off flags that are no mines the player knows (reveals of ours the game took as flags,
        flags of ours left on a board that started over).  The next frame finds the cells covered:
        :meth:`recover` clicks those of the expected batch again once the game has read its input, and the
        solver decides on the others afresh."""
        if self.unflags_left <= 0:
            raise ControlError(
                f"{len(misfired)} flag(s) no move of ours placed kept coming back, e.g. at {misfired[0]}"
            )
        self.unflags_left -= 1
        unflag = [Move("flag", row, col, 0.0) for row, col in misfired]
        clicked = self.player.click_moves(unflag, self.frame)
        if clicked is None:
            return self.reread(lambda: ControlError("the board kept changing between reading it and clicking"))
        self.result.clicks += clicked
        self.result.retries += 1
        before = self.frame
        self.waited_late, self.asked_game, self.answered_since_batch = False, False, False
        self.asked_before_acting = False
        self.capture(before, patience=2.0)

    def chord_to_press(self) -> tuple[Button | None, Button | None]:
        """The game's chord button if known (the skin's, or one a trial confirmed), else the next one to try."""
        chord = self.settings.chord or self.player.chord_found
        if chord is not None or self.chord_on_trial is not None:
            return chord, None
        left = [b for b in self.settings.chord_trials if b not in self.player.chord_failed]
        return None, (left[0] if left else None)

    def act(self, decoded: DecodedFrame, decision: Decision, state: str, t_decode: float, t_solve: float) -> None:
        """Click the decision's moves as one batch, account for it, and capture the result.

        Flags the game does not need are kept in mind, not pressed; a decision of such flags alone is decided on
        again at once, on the same frame with the flags drawn in (nothing was pressed, so nothing will redraw)."""
        kept_before = sorted(self.kept_flags)
        moves, kept = split_flags(decision.moves, self.settings.press_flags)
        t2 = time.perf_counter()
        chord, trial = self.chord_to_press()
        moves, presses = in_press_order(decoded.board, moves, chord or trial, self.result.flagged)
        made = self.player.click_moves(moves, self.frame, presses)
        if trial is not None and made is not None:
            chorded = [moves[i] for p in presses[: self.player.presses_made] if p.is_chord for i in p.moves]
            if chorded:
                self.chord_on_trial = (trial, frozenset((m.row, m.col) for m in chorded))
        clicks = None if made is None else self.player.presses_made
        if clicks is None:
            # Nothing pressed, nothing kept: the next frame is decided afresh.  Kept before the check, the mines of a
            # batch never pressed showed on the next board as flags no batch explained, a press gone astray (a page
            # zoomed while its board was being read: the page-move e2e test, one run in four).
            return self.reread(lambda: ControlError("the board kept changing between reading it and clicking"))
        self.kept_flags.update(kept)
        if not self.settings.dry_run and made is not None and made < len(moves):  # the board moved mid-batch
            unclicked = {(m.row, m.col) for m in moves[made:] if m.action == "reveal"}
            moves = moves[:made]
            self.last_reveals -= unclicked
            self.clicked -= unclicked
            self.guessed -= unclicked
        self.rereads_left = self.settings.reread_limit
        self.retries_left = self.settings.click_retries
        timing = {
            "capture": self.grabbing,
            "settle": max(self.waited - self.grabbing, 0.0),
            "decode": t_decode,
            "solve": t_solve,
            "click": time.perf_counter() - t2,
        }
        result = self.result
        for key, value in timing.items():
            result.timing[key] += value
        if self.drawn is not None:  # recorded, not summed: the settle beyond the game's own drawing is its rest
            timing = {**timing, "redraw": min(self.drawn, timing["settle"])}
        result.decisions += 1
        result.moves += len(moves) + len(kept)
        result.flagged.update((m.row, m.col) for m in moves if m.action == "flag")
        result.clicks += clicks
        result.guesses += int(bool(decision.guess))
        result.last_was_guess = bool(decision.guess)
        self.player.log_decision(
            result.game,
            self.frame,
            decoded,
            decision,
            state,
            timing,
            self.own_flags,
            self.suspects,
            self.covered_by_look,
            sorted(self.known.cells),
            kept_before,
        )
        if self.settings.dry_run:
            result.result = "dry-run"
            return
        if not moves:  # flags kept in mind alone: decide again on this frame, its capture already counted
            self.grabbing = self.waited = 0.0
            self.drawn = None
            self.batch, self.batch_kept, self.expected = [], kept, []
            return
        before = self.frame
        self.batch, self.batch_kept = moves, kept
        self.expected, self.waited_late, self.asked_game, self.answered_since_batch = moves, False, False, False
        self.asked_before_acting = False
        self.capture(before, expected=moves)
