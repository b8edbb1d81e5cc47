"""Errors a user can cause, each carrying the exit code the CLI reports.

Everything a user can get wrong (a bad board file, an unreadable screenshot, a
missing window) raises a subclass of :class:`AutoplayError`; the CLI prints its
message on one line and exits with ``exit_code``.  Anything else is a bug and
is allowed to show a traceback.
"""

from __future__ import annotations

from enum import IntEnum


class ExitCode(IntEnum):
    """The one exit-code table of every command (README, "Command line")."""

    OK = 0
    #: a check that ran and failed: replay mismatch, misread cells, nothing to audit, aborted games
    CHECK_FAILED = 1
    #: a usage error: bad option or argument, unusable file, unknown or broken skin, bad or impossible board
    USAGE = 2
    #: an unreadable screenshot
    UNREADABLE = 3
    #: the window or the mouse cannot be driven safely
    CONTROL = 4
    #: Ctrl-C
    INTERRUPTED = 130


class AutoplayError(Exception):
    """A failure caused by input or environment, not by a bug."""

    exit_code: int = ExitCode.CHECK_FAILED

    def __str__(self) -> str:
        r"""The message on one line: a line break from the input it quotes (a key of a skin file) is shown escaped.

        >>> str(AutoplayError("x.toml: [labels] \n = 0 is not a cell character"))
        'x.toml: [labels] \\n = 0 is not a cell character'
        """
        text = super().__str__()
        return text.replace("\r", "\\r").replace("\n", "\\n") if "\n" in text or "\r" in text else text


class BoardFormatError(AutoplayError, ValueError):
    """A board text that does not follow the format (exit code 2)."""

    exit_code = ExitCode.USAGE

    def __init__(self, message: str, *, source: str = "", line: int | None = None) -> None:
        where = source or "board"
        if line is not None:
            where = f"{where}:{line}"
        super().__init__(f"{where}: {message}")
        self.line = line


class ContradictionError(AutoplayError):
    """A board that no placement of mines can explain (exit code 2).

    ``cells`` names the cells involved as ``(row, col)`` pairs so the live loop
    can treat them as probable misreads.
    """

    exit_code = ExitCode.USAGE

    def __init__(
        self, message: str, cells: list[tuple[int, int]] | None = None, debug_image: str | None = None
    ) -> None:
        self.cells = sorted(set(cells or []))
        self.debug_image = debug_image
        shown = ", ".join(f"({r},{c})" for r, c in self.cells[:12])
        if len(self.cells) > 12:
            shown += f", ... ({len(self.cells)} cells)"
        text = f"{message}: cells {shown}" if shown else message
        super().__init__(f"{text} (debug image: {debug_image})" if debug_image else text)


class UnreadableBoardError(AutoplayError):
    """A screenshot in which no board, or no readable board, was found (exit code 3)."""

    exit_code = ExitCode.UNREADABLE

    def __init__(self, message: str, debug_image: str | None = None) -> None:
        if debug_image:
            message = f"{message} (debug image: {debug_image})"
        super().__init__(message)
        self.debug_image = debug_image


class ControlError(AutoplayError):
    """The game window or the mouse could not be driven safely (exit code 4)."""

    exit_code = ExitCode.CONTROL


class UsageError(AutoplayError):
    """A command-line option, file or skin the command cannot use (exit code 2, like argparse's own errors)."""

    exit_code = ExitCode.USAGE


class CheckFailed(AutoplayError):
    """A check ran to its end and did not pass, or had nothing to check (exit code 1)."""

    exit_code = ExitCode.CHECK_FAILED
