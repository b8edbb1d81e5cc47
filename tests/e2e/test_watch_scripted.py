"""The coach judged against a scripted person: real gnome-mines and xdemineur expert games, played with xdotool by a
script with no autoplay code (tests/e2e/scripted_mines.py), while ``autoplay watch --json --record DIR`` follows
them.

The script reads the board from the theme's tile colours, plays by its own single-number rule, plants a risky
click every few moves while a certain safe cell is on offer, and logs each move with why it made it; every game
ends in a loss or a win, and the log gets the true layout from the end board.  Watch is then judged against that
log and that layout, not against its own counters:

- every move the script made is one of watch's steps, at the same cell, in the same order, and each reveal opened
  exactly the cells the true layout opens from that cell (xdemineur opens a region of each new game by itself:
  that step has no cell, and its cells must be mine-free);
- every planted risky click is called "riskier than needed" (its odds above the lowest on offer), and every move
  the rule proved (and the first click) is called "certain";
- every board watch showed agrees with the true layout (each number counts the mines around it);
- each probability watch showed equals ``autoplay analyze`` on the same board;
- the X server's RECORD stream of input requests holds xdotool's presses and none from watch's process;
- the recording watch kept holds the same steps.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from autoplay.cli.main import main
from autoplay.control.games import launch_game
from autoplay.control.xserver import VirtualDisplay
from tests.e2e.fault_harness import WITNESS, read_events, wait_ready
from tests.e2e.scripted_mines import LOOKS, Cell, Move, ScriptedPlayer, neighbours
from tests.e2e.test_watch import QUERIES, Lines, clients_of, end

pytestmark = [pytest.mark.e2e, pytest.mark.spread]  # the test starts its own display and game
ROOT = Path(__file__).resolve().parents[2]
ROWS, COLS, MINES = 16, 30, 99
#: Moves of each game made by the rule and planted risky clicks, before only risky clicks and guesses end it.
MOVES_PER_GAME = 24
#: Games are played until the moves make a test of these (a planted click is a mine one time in five, so a game
#: can end at its first), but no more than MAX_GAMES.  A gnome-mines game whose first click opens no region goes on
#: with guesses, which end it within a few moves: a CI run had 5 such games in a row (26 moves, 1 risky), so the cap
#: is well above what a game usually needs (the loop stops as soon as there are enough).
ENOUGH = {"risky": 3, "certain": 20}
MAX_GAMES = 12


def enough(kinds: list[str]) -> bool:
    """Whether the moves so far hold enough planted risky clicks and proven moves to judge watch by."""
    return all(kinds.count(kind) >= count for kind, count in ENOUGH.items())


def seen(game: int, step: dict[str, Any], move: Move) -> tuple[int, str, Cell | None]:
    """What watch saw of one move, as the player logs it. A new xdemineur game opens a region of the game's own
    choosing (logged with no cell); watch names a cell there only when the region leaves one choice (its single
    zero), and then it must be that one."""
    cell = tuple(step["cell"]) if step["cell"] else None
    if move.cell is None and cell is not None and step["candidates"] == [list(cell)]:
        cell = None
    return game, step["action"], cell


def opened_by(cell: Cell, layout: set[Cell], open_before: set[Cell]) -> set[Cell]:
    """The cells a click on ``cell`` opens on the true layout: the cell, and through every zero its neighbours."""
    if cell in layout:
        return {cell}
    out, todo = {cell}, [cell]
    while todo:
        here = todo.pop()
        around = neighbours(here, ROWS, COLS)
        if any(n in layout for n in around):
            continue
        for n in around:
            if n not in out and n not in open_before:
                out.add(n)
                todo.append(n)
    return out


def agrees_with_layout(board: list[str], layout: set[Cell]) -> list[Cell]:
    """The cells of a shown board that the true layout contradicts (a number that miscounts, a wrong flag)."""
    wrong = []
    for r, row in enumerate(board):
        for c, ch in enumerate(row):
            miscounts = ch.isdigit() and int(ch) != sum(n in layout for n in neighbours((r, c), ROWS, COLS))
            if miscounts or (ch == "F" and (r, c) not in layout):
                wrong.append((r, c))
    return wrong


def analyze_board(board: list[str], total: int, path: Path) -> dict[str, Any]:
    """``autoplay analyze --json`` on a board written in the text format: the command itself, run in this process
    (a fresh interpreter for each of ~90 boards costs minutes on a loaded machine)."""
    path.write_text("\n".join([f"mines={total}", *board]) + "\n")
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = main(["analyze", str(path), "--json"])
    assert code == 0, out.getvalue()
    return json.loads(out.getvalue())


@pytest.mark.parametrize("name", ["gnome-mines", "xdemineur"])
def test_watch_is_judged_against_a_scripted_players_log_and_the_true_layout(tmp_path, name):
    record = tmp_path / "session"
    with (
        VirtualDisplay(1280, 1024) as server,
        launch_game(name, server.name, preset="expert", workdir=tmp_path / "game") as game,
        contextlib.ExitStack() as cleanup,
    ):
        env = {**os.environ, "DISPLAY": server.name}
        inputs = tmp_path / "inputs.jsonl"
        witness = subprocess.Popen([sys.executable, str(WITNESS), "inputs", server.name, str(inputs)], env=env)
        cleanup.callback(end, witness)
        try:
            wait_ready(inputs, witness)
            watch = subprocess.Popen(
                [sys.executable, "-m", "autoplay", "watch", "--skin", name, "--json", "--record", str(record)],
                env={**env, "PYTHONPATH": str(ROOT)},
                cwd=ROOT,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
            )
            cleanup.callback(end, watch)
            lines = Lines(watch)
            lines.wait_for(1, timeout=40)  # the first position (a loaded machine starts Python slowly)
            shown = [len(lines.items)]

            def wait_shown() -> None:
                """A person's pace: the next move once watch has shown the position the last one made."""
                lines.wait_for(shown[0] + 1, timeout=20)
                shown[0] = len(lines.items)

            w = game.window
            player = ScriptedPlayer(
                server.name,
                (w.x, w.y),
                (w.width, w.height),
                ROWS,
                COLS,
                MINES,
                seed=7,
                after_move=wait_shown,
                look=LOOKS[name],
            )
            cleanup.callback(player.close)
            number = 0
            while number < MAX_GAMES and not enough([m.kind for m in player.moves]):
                number += 1
                if number > 1:
                    player.new_game(number)
                assert player.play_game(number, MOVES_PER_GAME) in ("won", "lost"), "a game did not end"
            assert clients_of(server.name, watch.pid), "the X server does not know watch's connections"
        finally:
            game.stop()  # the window closes: watch must end by itself, with exit 0
        code = watch.wait(20)
        assert code == 0, watch.stderr.read() if watch.stderr else ""

    log = tmp_path / "player.jsonl"
    log.write_text(
        "".join(json.dumps(m.to_dict()) + "\n" for m in player.moves)
        + "".join(
            json.dumps({"game": g, "layout": [list(c) for c in cells]}) + "\n" for g, cells in player.layouts.items()
        )
    )
    items = lines.items
    games_of: list[int] = []  # each line's game, counted by watch's new_game marks
    for item in items:
        games_of.append((games_of[-1] if games_of else 0) + (1 if item["new_game"] else 0))
    steps = [(games_of[i], s) for i, item in enumerate(items) for s in item["steps"]]

    # every move, at its cell, in order, in its game
    assert [seen(g, s, m) for (g, s), m in zip(steps, player.moves, strict=False)] == [
        (m.game, m.action, m.cell) for m in player.moves
    ] and len(steps) == len(player.moves), log.read_text()

    # each reveal opened exactly what the true layout opens, beside what was open in the game's first position
    # (the region xdemineur opened by itself before watch started is no step of the player's)
    opened: dict[int, set[Cell]] = {}
    for g, item in zip(games_of, items, strict=True):
        if g not in opened:
            opened[g] = {(r, c) for r, row in enumerate(item["board"]) for c, ch in enumerate(row) if ch.isdigit()}
    for (g, step), move in zip(steps, player.moves, strict=True):
        if move.action != "reveal":
            continue
        if move.cell is None:  # the region xdemineur opens by itself: which cell it chose is not known
            assert all(tuple(c) not in player.layouts[g] for c in step["opened"]), step
            opened.setdefault(g, set()).update(tuple(c) for c in step["opened"])
            continue
        layout = set(player.layouts[g])
        expected = opened_by(move.cell, layout, opened.setdefault(g, set()))
        assert {tuple(c) for c in step["opened"]} == expected, (move, step)
        opened[g] |= expected

    # the verdicts the moves deserve
    kinds = [m.kind for m in player.moves]
    assert enough(kinds), kinds
    for (_, step), move in zip(steps, player.moves, strict=True):
        if move.kind == "risky":
            assert step["verdict"] == "riskier than needed", (move, step)
            assert step["probability"] > step["lowest"], step
            if step["win_chance"] is not None:  # late in a game: what the step cost, as the endgame search knows
                win = step["win_chance"]
                assert win["after"] <= win["best"] + 1e-12 and win["after"] <= 1 - step["probability"] + 1e-12
        elif move.kind in ("first", "certain"):
            assert step["verdict"] == "certain", (move, step)

    # the boards watch showed agree with the true layout, and its odds are analyze's on each board
    positions = 0
    for number, item in zip(games_of, items, strict=True):
        assert not agrees_with_layout(item["board"], set(player.layouts[number])), item["board"]
        if item["state"] != "playing" or item["probabilities"] is None or item["approximate"]:
            continue
        if item["total_mines"] is None:  # the counter not read on this frame: no global odds to compare
            continue
        if all(ch == "." for row in item["board"] for ch in row):
            continue  # a fresh board: every cell the same density, nothing to compare but arithmetic
        position = analyze_board(item["board"], item["total_mines"], tmp_path / f"position-{positions}.txt")
        for cell in position["cells"]:
            assert item["probabilities"][cell["row"]][cell["col"]] == cell["global"], (positions, cell)
        positions += 1
    assert positions >= len(player.moves) // 2, positions
    # and a risky step's odds are those shown for the position before it
    for i, item in enumerate(items):
        for step in item["steps"]:
            if step["verdict"] == "riskier than needed":
                r, c = step["cell"]
                assert items[i - 1]["probabilities"][r][c] == step["probability"]

    # the X server's record: xdotool's presses are there, and nothing from any connection of watch
    requests = [e for e in read_events(inputs) if e["ev"] == "input"]
    assert sum(e["request"] == "XTEST:2" for e in requests) >= 2 * len(player.moves), requests[:10]
    assert any(e["pid"] is not None for e in requests), "no input request could be traced to its process"
    assert [e for e in requests if e["pid"] == watch.pid and e["request"] not in QUERIES] == []

    # the recording holds the same steps, line for line
    recorded = [json.loads(line) for line in (record / "decisions.jsonl").read_text().splitlines()]
    assert [r["steps"] for r in recorded if r["type"] == "decision"] == [item["steps"] for item in items]
