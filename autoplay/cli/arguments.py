"""Argument types and the parser class every sub-command shares.

Range checks live in the argument types, so a bad value is refused by argparse itself: one line on
stderr and exit code 2, the same for every command, before any work (or any window) is touched.
"""

from __future__ import annotations

import argparse
import sys
from typing import NoReturn

from autoplay.outputs import is_plain_name


class OneLineParser(argparse.ArgumentParser):
    """An ArgumentParser whose errors are one line (``autoplay solve: error: ...``), exit code 2.

    argparse prints the whole usage block before the error; the README promises one line on stderr for
    every user mistake, and ``--help`` still shows the usage.
    """

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message} (see --help)\n")


def _number(text: str, kind: type[int] | type[float]) -> int | float:
    try:
        return kind(text)
    except ValueError:
        what = "a whole number" if kind is int else "a number"
        raise argparse.ArgumentTypeError(f"expected {what}, got {text!r}") from None


def positive_int(text: str) -> int:
    """1 or more (counts of games, boards, worker processes)."""
    value = int(_number(text, int))
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be 1 or more, got {value}")
    return value


def non_negative_int(text: str) -> int:
    """0 or more (mine counts)."""
    value = int(_number(text, int))
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be 0 or more, got {value}")
    return value


def positive_seconds(text: str) -> float:
    """A duration above 0 and finite (time limits)."""
    value = float(_number(text, float))
    if not 0 < value < float("inf"):
        raise argparse.ArgumentTypeError(f"must be more than 0 seconds, got {text}")
    return value


def non_negative_seconds(text: str) -> float:
    """A duration of 0 or more, finite (waits that may be off)."""
    value = float(_number(text, float))
    if not 0 <= value < float("inf"):
        raise argparse.ArgumentTypeError(f"must be 0 seconds or more, got {text}")
    return value


def plain_name(text: str) -> str:
    """A name that stays inside the folder it is joined to: no path separators, no '..', not hidden."""
    if not is_plain_name(text):
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a plain name (letters, digits, '.', '-', '_'; no '/' and not starting with '.')"
        )
    return text


def stderr_line(message: str) -> None:
    """One line on stderr (newlines folded), the shape of every user-facing error and warning."""
    print(" ".join(message.split()), file=sys.stderr, flush=True)
