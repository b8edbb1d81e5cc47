"""``autoplay generate``: boards in the text format with the mines shown, optionally solvable without a guess."""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

from autoplay.board.rules import PRESETS
from autoplay.cli.arguments import positive_int
from autoplay.cli.grade import add_deal_options, ladder_size, opening
from autoplay.cli.simulate import max_per_cell
from autoplay.errors import AutoplayError, UsageError
from autoplay.outputs import ensure_folder


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "generate",
        help="generate boards (mines shown), e.g. ones solvable from the first click without a guess",
        description="Deal boards as the simulator does under the first-click rule and write them in the text "
        "format with every mine shown as * and the first click in a '# first click: (R,C)' comment. With "
        "--no-guess, layouts are re-dealt until the level-limited solver clears the board without a single "
        "guess; --min-level K also requires at least one move needing level K or more (1-6 numbers, 'count' "
        "or 'engine'). Prints the time each board took.",
        epilog="examples: autoplay generate --preset expert --no-guess --seed 3\n"
        "          autoplay generate --preset intermediate --no-guess --min-level 3 --count 5 --out boards/",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_deal_options(p)
    p.add_argument("--no-guess", action="store_true", help="only boards that need no guess after the first click")
    p.add_argument("--min-level", metavar="K", help="require a move of at least this level (needs --no-guess)")
    p.add_argument("--count", type=positive_int, default=1, help="number of boards (default: 1)")
    p.add_argument(
        "--max-attempts",
        type=positive_int,
        default=10_000,
        help="layouts tried per board before giving up (default: 10000)",
    )
    p.add_argument("--out", metavar="DIR", help="write board-NNN.txt files here instead of printing the boards")
    p.add_argument("--json", action="store_true", help="print one JSON object (boards as text, grades, times)")
    from autoplay.cli.simulate import add_max_per_cell

    add_max_per_cell(p)
    p.set_defaults(func=run)


def check_level(value: str | None, max_numbers: int) -> str | None:
    from autoplay.insight.proofs import level_names

    if value is None:
        return None
    names = level_names(max_numbers)
    if value not in names:
        raise UsageError(f"--min-level must be one of {', '.join(names)}, got {value!r}")
    return value


def run(args: argparse.Namespace) -> int:
    from autoplay.cli.progress import Progress
    from autoplay.insight.generate import GenerationFailed, generate
    from autoplay.sim.stats import percentile

    max_numbers = ladder_size(args)
    min_level = check_level(args.min_level, max_numbers)
    if min_level is not None and not args.no_guess:
        raise UsageError("--min-level needs --no-guess")
    out_dir = ensure_folder(args.out, "--out") if args.out else None
    preset = PRESETS[args.preset]
    rules, first = opening(args, "zero")
    if max_per_cell(args) > 1:
        if args.no_guess:
            raise UsageError("--no-guess grades with the one-mine rules; it does not take --max-per-cell above 1")
        return _run_multi(args, rules, first, out_dir)
    boards = []
    with Progress(args.count, "generate", enabled=None if args.count > 1 else False) as bar:
        for index in range(args.count):
            rng = random.Random(f"generate-{args.seed}-{index}")
            try:
                made = generate(
                    preset.rows,
                    preset.cols,
                    preset.mines,
                    rules,
                    first,
                    rng,
                    no_guess=args.no_guess,
                    min_level=min_level,
                    max_numbers=max_numbers,
                    max_attempts=args.max_attempts,
                )
            except GenerationFailed as exc:
                raise AutoplayError(f"board {index + 1}: {exc} (raise --max-attempts or lower --min-level)") from None
            kind = "no-guess board" if args.no_guess else "board"
            note = (
                f"{kind}, {args.preset}, first-click rule {rules.first_click}, seed {args.seed}, "
                f"board {index + 1}" + (f", min level {min_level}" if min_level else "")
            )
            text = made.to_text(note)
            boards.append((made, text))
            if out_dir is not None:
                (out_dir / f"board-{index + 1:03d}.txt").write_text(text, encoding="utf-8")
            elif not args.json:
                if bar.enabled:
                    bar.stream.write("\r\x1b[K")
                print(text, flush=True)
            bar.advance(suffix=f"{made.seconds:.2f} s")
    times = [made.seconds for made, _ in boards]
    if args.json:
        print(
            json.dumps(
                {
                    "boards": [
                        {
                            "text": text,
                            "seconds": round(made.seconds, 4),
                            "attempts": made.attempts,
                            "first_click": list(made.first_click),
                            "grade": made.grade.to_dict(),
                        }
                        for made, text in boards
                    ],
                    "median_seconds": round(percentile(times, 50), 4),
                }
            )
        )
    else:
        where = f" into {out_dir}" if out_dir is not None else ""
        print(
            f"{len(boards)} board(s){where}; seconds per board: median {percentile(times, 50):.3f}, "
            f"max {max(times):.3f}; attempts per board: median "
            f"{percentile([m.attempts for m, _ in boards], 50):.0f}",
            file=sys.stderr,
        )
    return 0


def _run_multi(args: argparse.Namespace, rules, first: tuple[int, int], out_dir: Path | None) -> int:
    """Layouts of the several-mines-per-cell variant, dealt as the simulator deals them, in the token form."""
    from autoplay.sim.game import Game

    preset = PRESETS[args.preset]
    k = max_per_cell(args)
    texts = []
    for index in range(args.count):
        rng = random.Random(f"generate-{args.seed}-{index}")
        try:
            game = Game(
                preset.rows, preset.cols, preset.mines, rules, random.Random(rng.getrandbits(64)), max_per_cell=k
            )
        except ValueError as exc:
            raise UsageError(str(exc)) from None
        game.reveal(*first)
        note = f"# board, {args.preset}, up to {k} mines a cell, first-click rule {rules.first_click}, seed {args.seed}"
        text = f"{note}, board {index + 1}\n# first click: ({first[0]},{first[1]})\n" + game.multi_solution().to_text()
        texts.append(text)
        if out_dir is not None:
            (out_dir / f"board-{index + 1:03d}.txt").write_text(text, encoding="utf-8")
        elif not args.json:
            print(text, flush=True)
    if args.json:
        print(json.dumps({"boards": [{"text": t, "first_click": list(first)} for t in texts]}))
    elif out_dir is not None:
        print(f"{len(texts)} board(s) into {out_dir}", file=sys.stderr)
    return 0
