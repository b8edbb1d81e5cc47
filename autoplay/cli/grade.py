"""``autoplay grade``: how many pieces of information each move of a game needs, and how many guesses."""

from __future__ import annotations

import argparse
import json
import random
import sys
from typing import TYPE_CHECKING

from autoplay.board.rules import PRESETS, Rules
from autoplay.errors import UsageError

if TYPE_CHECKING:
    from autoplay.sim.game import Game


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "grade",
        help="grade a board's difficulty: moves per level of reasoning and guesses",
        description="Play a board with the solver limited to k numbers at a time (k = 1, 2, ... --max-numbers), "
        "then the mine count, then the full engine, always using the lowest level that finds a move, and "
        "report how many moves needed each level and how many guesses were left. BOARD is a layout with the "
        "mines shown as * (a '# first click: (R,C)' comment says where to start, as 'autoplay generate' "
        "writes); without BOARD a game is dealt from --preset and --seed. A guess that hits a mine is "
        "counted and flagged, so the grade covers the whole board.",
        epilog="examples: autoplay grade --preset expert --seed 7\n"
        "          autoplay grade board.txt --json\n"
        "          autoplay grade --preset intermediate --rule zero --games 200",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("board", nargs="?", metavar="BOARD", help="layout file with the mines shown as *")
    add_deal_options(p)
    p.add_argument("--games", type=int, default=1, help="grade this many dealt games (seed, 0..N-1) and total them")
    p.add_argument("--json", action="store_true", help="print one JSON object instead of text")
    p.set_defaults(func=run)


def add_deal_options(p: argparse.ArgumentParser) -> None:
    """Options ``grade`` and ``generate`` share: how a game is dealt and how far the level ladder goes."""
    p.add_argument("--preset", choices=sorted(PRESETS), default="expert", help="board size (default: expert)")
    p.add_argument("--seed", type=int, default=1, help="seed of the deal (default: 1)")
    p.add_argument(
        "--rule",
        choices=("safe", "zero"),
        default=None,
        help="first-click rule of the deal: safe (start in a corner) or zero (the first click opens "
        "an area, start at (2,2) on boards up to 16x16, (3,3) on larger ones); default: safe for grade, "
        "zero for generate",
    )
    p.add_argument(
        "--max-numbers",
        type=int,
        default=None,
        help="largest set of numbers tried together before the mine count and the full engine (default: 4)",
    )


def ladder_size(args: argparse.Namespace) -> int:
    from autoplay.insight.proofs import MAX_NUMBERS

    value = MAX_NUMBERS if args.max_numbers is None else args.max_numbers
    if not 1 <= value <= 6:
        raise UsageError(f"--max-numbers must be 1 to 6, got {value}")
    return value


def opening(args: argparse.Namespace, default_rule: str) -> tuple[Rules, tuple[int, int]]:
    """The first-click rule and where the solver opens under it (a corner, or a cell inside when the click opens an area)."""
    from autoplay.solver.decide import first_move

    preset = PRESETS[args.preset]
    rules = Rules.from_names(args.rule or default_rule)
    move = first_move(preset.rows, preset.cols, rules)
    return rules, (move.row, move.col)


def deal(args: argparse.Namespace, index: int) -> tuple[Game, tuple[int, int], Rules]:
    """Game number ``index`` of the run, reproducible from (seed, index), with its rules and first click."""
    from autoplay.sim.game import Game

    preset = PRESETS[args.preset]
    rules, first = opening(args, "safe")
    rng = random.Random(f"grade-{args.seed}-{index}")
    return Game(preset.rows, preset.cols, preset.mines, rules, rng=rng), first, rules


def run(args: argparse.Namespace) -> int:
    from autoplay.cli.progress import Progress
    from autoplay.insight.grade import grade_game

    max_numbers = ladder_size(args)
    if args.games < 1:
        raise UsageError("--games must be at least 1")
    if args.board:
        from autoplay.insight.layout import default_first_click, layout_game, read_layout

        if args.games != 1:
            raise UsageError("--games deals games; it cannot be used with a BOARD file")
        board, named_first = read_layout(args.board)
        rules = Rules.from_names(args.rule or "safe")
        first = named_first or default_first_click(board, rules)
        grades = [grade_game(layout_game(board), first, rules, max_numbers=max_numbers)]
        title = f"{args.board}: {board.cols}x{board.rows}/{board.count('*X')}, first click ({first[0]},{first[1]})"
    else:
        grades = []
        with Progress(args.games, "grade", enabled=None if args.games > 1 else False) as bar:
            for index in range(args.games):
                game, first, rules = deal(args, index)
                grades.append(grade_game(game, first, rules, max_numbers=max_numbers))
                bar.advance()
        preset = PRESETS[args.preset]
        title = (
            f"{args.preset} {preset.cols}x{preset.rows}/{preset.mines}, first click {rules.first_click} at "
            f"({first[0]},{first[1]}), seed {args.seed}, {args.games} game(s)"
        )
    if args.json:
        print(json.dumps(_as_json(grades, title)))
    else:
        sys.stdout.write(_as_text(grades, title))
    return 0


def _totals(grades: list) -> dict:
    moves: dict[str, int] = {}
    for grade in grades:
        for level, n in grade.moves.items():
            moves[level] = moves.get(level, 0) + n
    return {
        "games": len(grades),
        "moves_by_level": moves,
        "guesses": sum(g.guesses for g in grades),
        "guesses_hit_mine": sum(g.guesses_hit for g in grades),
        "no_guess_games": sum(g.no_guess for g in grades),
    }


def _as_json(grades: list, title: str) -> dict:
    if len(grades) == 1:
        return {"board": title, **grades[0].to_dict()}
    return {"board": title, **_totals(grades), "games_detail": [g.to_dict() for g in grades]}


def _as_text(grades: list, title: str) -> str:
    if len(grades) == 1:
        return f"{title}\n{grades[0].summary()}\n"
    t = _totals(grades)
    levels = "  ".join(f"{level}: {n}" for level, n in t["moves_by_level"].items())
    return (
        f"{title}\nmoves by level  {levels}\n"
        f"guesses {t['guesses']} ({t['guesses'] / t['games']:.2f} per game, {t['guesses_hit_mine']} hit a mine); "
        f"{t['no_guess_games']} of {t['games']} games needed no guess\n"
    )
