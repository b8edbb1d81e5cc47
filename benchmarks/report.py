"""Shared ending of every benchmark script: print the markdown and optionally append it to a file."""

from __future__ import annotations


def emit(text: str, out: str | None) -> None:
    """Print the report; with ``out``, also append it so several runs build one BENCHMARKS section."""
    print(text)
    if out:
        with open(out, "a", encoding="utf-8") as fh:
            fh.write(text + "\n")
