"""The examples in the package's docstrings run, and say what the code does.

Docstrings carry examples so a reader can see a function at work; an example nobody runs drifts from the code (two
in ``play/player.py`` had stopped parsing before this test).  A module compiled by mypyc keeps no examples: its
source's are run against the compiled code, which is what ``import`` finds.
"""

from __future__ import annotations

import ast
import doctest
import importlib
from pathlib import Path
from types import ModuleType

import pytest

import autoplay

PACKAGE = Path(autoplay.__file__).parent


def _module_names() -> list[str]:
    names = []
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        if parts[-1] == "__main__":
            continue
        names.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return names


def _source_tests(module: ModuleType, path: Path) -> list[doctest.DocTest]:
    """The examples of every docstring in ``path``'s source, run in ``module``'s namespace (the compiled build)."""
    parser, tests = doctest.DocTestParser(), []
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in [tree, *ast.walk(tree)]:
        if not isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        text = ast.get_docstring(node, clean=False)
        if text and ">>>" in text:
            label = f"{module.__name__}.{getattr(node, 'name', '')}".rstrip(".")
            lineno = node.body[0].lineno if node.body else 0
            tests.append(parser.get_doctest(text, dict(vars(module)), label, str(path), lineno))
    return tests


@pytest.mark.parametrize("name", _module_names())
def test_docstring_examples_run(name: str) -> None:
    module = importlib.import_module(name)
    flags = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE
    if getattr(module, "__file__", "").endswith(".py"):
        result = doctest.testmod(module, optionflags=flags, verbose=False)
        failed, attempted = result.failed, result.attempted
    else:
        path = PACKAGE.parent.joinpath(*name.split(".")).with_suffix(".py")
        runner = doctest.DocTestRunner(optionflags=flags, verbose=False)
        for test in _source_tests(module, path):
            runner.run(test)
        failed, attempted = runner.failures, runner.tries
    assert failed == 0, f"{failed} of {attempted} docstring examples in {name} failed (above)"
