"""Play many simulated games with the solver and summarise them.

Each game's randomness is derived from ``(seed, game index)`` alone, so a run
gives the same games whatever the number of worker processes, and any single
game can be replayed by its index.  Given a list of layouts instead, game ``i``
plays the ``i``-th layout, so two solvers can be compared on identical games.
"""

from __future__ import annotations

import gc
import itertools
import multiprocessing
import random
import signal
import time
from collections.abc import Callable, Generator, Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Protocol

from autoplay.board.model import Board
from autoplay.board.rules import Rules
from autoplay.sim.game import Game
from autoplay.sim.stats import percentile, wilson_interval
from autoplay.solver.guess import DEFAULT_DEPTH

if TYPE_CHECKING:
    from autoplay.solver.decide import Decision


class Decider(Protocol):
    def __call__(self, board: Board, rules: Rules, rng: random.Random) -> Decision: ...


@dataclass(frozen=True)
class GameSpec:
    """One kind of game; ``first_cell`` (row, col) overrides where the solver opens, to compare start cells.

    ``max_per_cell`` above 1 is the several-mines-per-cell variant (played by :mod:`autoplay.solver.multimine`);
    ``guess_depth`` 2 turns off the guess search's third move (:mod:`autoplay.solver.deeper`).
    """

    rows: int
    cols: int
    mines: int
    rules: Rules = Rules()
    time_limit: float = 1.0
    first_cell: tuple[int, int] | None = None
    max_per_cell: int = 1
    guess_depth: int = DEFAULT_DEPTH


def start_cell(spec: GameSpec) -> tuple[int, int]:
    """Where the solver opens every game of ``spec``: the given cell, or its usual one for the rule."""
    if spec.first_cell is not None:
        return spec.first_cell
    from autoplay.solver.decide import first_move

    move = first_move(spec.rows, spec.cols, spec.rules)
    return move.row, move.col


@dataclass
class GameResult:
    index: int
    won: bool
    guesses: int
    decisions: int
    safe_revealed_pct: float
    mines_flagged_pct: float
    decision_times: list[float] = field(default_factory=list)
    error: str | None = None


def game_rng(seed: int, index: int) -> random.Random:
    """The one source of randomness for game ``index`` of a run seeded ``seed``."""
    return random.Random(f"autoplay-{seed}-{index}")


def solver_decider(time_limit: float) -> Callable[[Board, Rules, random.Random], Decision]:
    from autoplay.solver import choose_move

    def decide(board: Board, rules: Rules, rng: random.Random) -> Decision:
        return choose_move(board, board.mines, rules, time_limit=time_limit, rng=rng)

    return decide


def tracked_solver(game: Game, spec: GameSpec) -> Callable[[], Decision]:
    """The solver's decisions for ``game``, from a position kept up to date with the game's change log.

    Decides exactly as ``choose_move(game.board(), ...)`` would, without re-reading the whole board
    at every decision (see :mod:`autoplay.solver.tracker`).
    """
    from autoplay.solver.decide import Decision, Move, choose_move, decide_position
    from autoplay.solver.tracker import PositionTracker

    tracker = PositionTracker(game.rows, game.cols)
    synced = [0, 0]  # how much of the opened and flagged logs the tracker has seen
    decide_rest = decide_position
    if spec.max_per_cell > 1:
        from autoplay.solver.multimine import decide_multi

        def decide_rest(pos, mines, *, time_limit, depth):  # type: ignore[misc]
            return decide_multi(pos, mines, spec.max_per_cell, time_limit=time_limit)

    def decide() -> Decision:
        if not game.opened:
            if spec.first_cell is not None:
                start = Move("reveal", *spec.first_cell, 0.0)
                return Decision([start], spec.rules.first_click == "none", None, "first move: given start cell")
            return choose_move(game.board(), game.mines, spec.rules, time_limit=spec.time_limit)
        tracker.update([(j, game.number(j)) for j in game.opened[synced[0] :]], game.flags_placed[synced[1] :])
        synced[:] = [len(game.opened), len(game.flags_placed)]
        return decide_rest(tracker.position(), game.mines, time_limit=spec.time_limit, depth=spec.guess_depth)

    return decide


def play_out(game: Game, next_decision: Callable[[], Decision]) -> tuple[int, int, list[float], str | None]:
    """Apply decisions to ``game`` until it ends: (guesses, decisions, seconds per decision, error or None).

    A decision that makes no progress twice in a row ends the game with an error instead of looping.
    """
    guesses = decisions = stalls = 0
    times: list[float] = []
    error = None
    while not game.over:
        first = not game.opened
        started = time.perf_counter()
        decision = next_decision()
        times.append(time.perf_counter() - started)
        decisions += 1
        if decision.guess and not first:
            guesses += 1
        before = (game.safe_left, len(game.flags_placed))  # flags are never removed
        for move in decision.moves:
            if move.action == "flag":
                game.flag(move.row, move.col)
            elif not game.reveal(move.row, move.col):
                break
        if (game.safe_left, len(game.flags_placed)) == before and not game.over:
            stalls += 1
            if stalls >= 2:
                error = f"solver made no progress on decision {decisions}: {decision.moves[:3]}"
                break
        else:
            stalls = 0
    return guesses, decisions, times, error


@contextmanager
def collector_paused() -> Iterator[None]:
    """No cyclic garbage collection for the length of one game, and none over what games leave alive.

    A game allocates millions of short-lived tuples and lists (the endgame search's memo alone holds
    hundreds of thousands), and each time enough of them pile up Python walks every tracked object,
    the solver's long-lived caches included: about 12% of a simulated expert game's CPU time went there.
    Nearly all of it is freed by reference counting anyway; what is cyclic waits until the game ends.
    What a game leaves alive is mostly cache entries, which the next collection would walk only to keep:
    at the end of each game it is moved out of the collector's sight (``gc.freeze``), and every
    :data:`SWEEP_EVERY` games it is all walked once, so the few cycles a game leaves behind (about two
    objects) are still freed.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            if next(_GAMES_ENDED) % SWEEP_EVERY == 0:
                gc.unfreeze()
                gc.collect()
            gc.freeze()
            gc.enable()


#: Games between two full collections of what earlier games left alive (see :func:`collector_paused`).
SWEEP_EVERY = 200
_GAMES_ENDED = itertools.count(1)


def play_game(
    spec: GameSpec,
    seed: int,
    index: int,
    decide: Decider | None = None,
    layout: tuple[int, ...] | None = None,
    observe: Callable[[Decision], None] | None = None,
) -> GameResult:
    """Play one game to its end; a move that makes no progress twice in a row aborts it as an error.

    Without ``decide`` the solver plays through :func:`tracked_solver`.  With ``layout`` (flat mine
    indices) the game has those mines instead of the ones ``(seed, index)`` would deal.  ``observe`` sees
    every decision before it is applied (the decision-hash test pins the solver's choices with it).
    """
    rng = game_rng(seed, index)
    game_seed = random.Random(rng.getrandbits(64))
    if layout is None:
        game = Game(spec.rows, spec.cols, spec.mines, spec.rules, rng=game_seed, max_per_cell=spec.max_per_cell)
    else:
        game = Game(spec.rows, spec.cols, len(layout), spec.rules, layout=layout, max_per_cell=spec.max_per_cell)
    solver_rng = random.Random(rng.getrandbits(64))
    if decide is None:
        next_decision = tracked_solver(game, spec)
    else:
        given = decide

        def next_decision() -> Decision:
            return given(game.board(), spec.rules, solver_rng)

    if observe is not None:
        unobserved, watch = next_decision, observe

        def next_decision() -> Decision:
            decision = unobserved()
            watch(decision)
            return decision

    with collector_paused():
        guesses, decisions, times, error = play_out(game, next_decision)
    safe_total = spec.rows * spec.cols - game.occupied
    return GameResult(
        index=index,
        won=game.won,
        guesses=guesses,
        decisions=decisions,
        safe_revealed_pct=100.0 * game.safe_revealed / safe_total if safe_total else 100.0,
        mines_flagged_pct=100.0 * game.mines_flagged / game.occupied if game.occupied else 100.0,
        decision_times=times,
        error=error,
    )


def play_chunk(args: tuple[GameSpec, int, list[int], list[tuple[int, ...]] | None]) -> list[GameResult]:
    """Play a batch of games of one run; the unit of work handed to a worker process or a cluster.

    With layouts, game ``indices[k]`` plays ``layouts[k]`` instead of a dealt one.
    """
    spec, seed, indices, layouts = args
    if layouts is None:
        return [play_game(spec, seed, i) for i in indices]
    return [play_game(spec, seed, i, layout=layout) for i, layout in zip(indices, layouts)]


def run_games(
    spec: GameSpec,
    games: int,
    seed: int,
    jobs: int = 1,
    chunk: int = 8,
    layouts: list[tuple[int, ...]] | None = None,
) -> Generator[GameResult, None, None]:
    """Yield results as they finish (in no particular order when ``jobs`` > 1).

    With ``layouts``, game ``i`` plays ``layouts[i]`` (the first ``games`` of them).
    """
    chunks = [
        (
            spec,
            seed,
            list(range(start, min(start + chunk, games))),
            None if layouts is None else layouts[start : min(start + chunk, games)],
        )
        for start in range(0, games, chunk)
    ]
    if jobs <= 1:
        for item in chunks:
            yield from play_chunk(item)
        return
    with multiprocessing.get_context().Pool(jobs, initializer=_ignore_interrupts) as pool:
        for results in pool.imap_unordered(play_chunk, chunks):
            yield from results


def _ignore_interrupts() -> None:
    """Workers leave Ctrl-C to the parent, which stops the pool and prints one line (exit 130).

    A terminal's Ctrl-C reaches every process of the group; workers that handled it themselves each
    printed a traceback before the parent could stop them.
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)


@dataclass
class Summary:
    games: int
    wins: int
    win_rate: float
    ci95: tuple[float, float]
    games_per_second: float
    seconds: float
    mean_guesses: float
    mean_guesses_won: float
    mines_flagged_pct: float
    revealed_pct: float
    decision_ms_median: float
    decision_ms_p99: float
    decision_ms_max: float
    errors: int
    rows: int
    cols: int
    mines: int
    first_click: str
    win_rule: str
    seed: int
    jobs: int

    def to_dict(self) -> dict:
        d = asdict(self)
        d["ci95"] = list(self.ci95)
        return d


def summarise(spec: GameSpec, results: list[GameResult], seconds: float, seed: int, jobs: int) -> Summary:
    """The run's figures; the same games give the same figures whatever order they finished in."""
    results = sorted(results, key=lambda r: r.index)
    n = len(results)
    wins = sum(r.won for r in results)
    times = [t for r in results for t in r.decision_times]
    won = [r for r in results if r.won]
    return Summary(
        games=n,
        wins=wins,
        win_rate=wins / n if n else 0.0,
        ci95=wilson_interval(wins, n),
        games_per_second=n / seconds if seconds > 0 else 0.0,
        seconds=seconds,
        mean_guesses=sum(r.guesses for r in results) / n if n else 0.0,
        mean_guesses_won=sum(r.guesses for r in won) / len(won) if won else 0.0,
        mines_flagged_pct=sum(r.mines_flagged_pct for r in results) / n if n else 0.0,
        revealed_pct=sum(r.safe_revealed_pct for r in results) / n if n else 0.0,
        decision_ms_median=percentile(times, 50) * 1000,
        decision_ms_p99=percentile(times, 99) * 1000,
        decision_ms_max=max(times) * 1000 if times else 0.0,
        errors=sum(1 for r in results if r.error),
        rows=spec.rows,
        cols=spec.cols,
        mines=spec.mines,
        first_click=spec.rules.first_click,
        win_rule=spec.rules.win,
        seed=seed,
        jobs=jobs,
    )
