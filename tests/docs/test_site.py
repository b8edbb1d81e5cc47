"""The docs site builds with warnings as errors, shows every picture it names, and the README points at real pages.

The site is MkDocs (``mkdocs.yml``); its API pages are generated from the docstrings, so a renamed function or a
docstring that no longer parses fails here rather than on the reader's screen.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
DOCS = REPO / "docs"


def mkdocs() -> list[str]:
    return [str(Path(sys.executable).parent / "mkdocs")]


def test_the_site_builds_strictly(tmp_path: Path) -> None:
    """``mkdocs build --strict``: a broken link, a missing page or picture, an API name that moved all fail it."""
    proc = subprocess.run(
        [*mkdocs(), "build", "--strict", "--site-dir", str(tmp_path / "site")],
        cwd=REPO,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    api = (tmp_path / "site" / "reference" / "api" / "index.html").read_text(encoding="utf-8")
    for name in ("parse_board", "choose_move", "analyze", "run_games", "wilson_interval"):
        assert name in api, f"the API page does not document {name}"
    teach = (tmp_path / "site" / "teach" / "index.html").read_text(encoding="utf-8")
    assert teach.count("<img") >= 4, "Teach it your game lost its pictures"


def test_every_python_example_of_the_docs_runs(tmp_path: Path) -> None:
    """The ``python`` blocks of the docs pages run as written and print something."""
    pages = sorted(DOCS.rglob("*.md"))
    blocks = [b for page in pages for b in re.findall(r"```python\n(.*?)```", page.read_text(), flags=re.S)]
    assert blocks, "the docs have no Python example"
    for code in blocks:
        proc = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, timeout=120)
        assert proc.returncode == 0 and proc.stdout.strip(), f"{code}\n{proc.stderr[-1500:]}"


def test_every_picture_a_page_names_exists() -> None:
    pages = [REPO / "README.md", *DOCS.rglob("*.md")]
    for page in pages:
        if page.is_symlink():
            continue
        for target in re.findall(r"!\[[^\]]*\]\(([^)]+)\)", page.read_text(encoding="utf-8")):
            assert (page.parent / target).is_file(), f"{page.relative_to(REPO)} shows {target}, which is missing"


def test_the_readme_names_only_pages_that_exist() -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    named = set(re.findall(r"`(docs/[\w/.-]+\.md)`", readme))
    assert named, "the README points at no docs page"
    missing = sorted(p for p in named if not (REPO / p).is_file())
    assert not missing, missing


def test_the_readme_is_a_front_door() -> None:
    """Issue 30: the README is at most 250 lines; the manual lives in docs/."""
    assert len((REPO / "README.md").read_text(encoding="utf-8").splitlines()) <= 250
