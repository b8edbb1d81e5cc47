"""The README's and the docs site's command examples run as written.

Every line of every ``sh`` block (in README.md and in every page under ``docs/``) is either run here — in a fresh folder, with ``autoplay`` on PATH as after
``source .venv/bin/activate``, and the files it names put there — or listed in ``NOT_RUN`` with the reason, so a
new example is run by default and skipping one is a visible decision.  ``SHORTENED`` lists the measurement runs
whose only change is a smaller ``--games`` (everything else as written).
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
README = REPO / "README.md"
#: The pages whose examples are run: the README and the docs site's own pages (BENCHMARKS.md is linked in, not run).
PAGES = [README, *sorted(p for p in (REPO / "docs").rglob("*.md") if not p.is_symlink())]
FIXTURES = REPO / "tests" / "fixtures"

#: Examples this test does not run, and why (each is covered elsewhere where it can be).
NOT_RUN = {
    "bash scripts/demo.sh": "installs, then plays live expert games for minutes (tests/e2e plays the same way)",
    "bash scripts/test.sh": "the whole test suite itself",
    "autoplay launch gnome-mines --xvfb": "live: stays in the foreground until the game exits (tests/e2e)",
    "autoplay launch sgt-mines --xvfb &": "live: a game on a new display, kept in the background "
    "(tests/e2e/test_new_games.py; scripts/docs_pictures.py runs the page's whole flow)",
    "autoplay launch chromium --url http://127.0.0.1:8000/ --scale 1.25 --xvfb": "live: needs a page served on port "
    "8000 and stays in the foreground until the browser exits (tests/e2e/test_browser_launch.py)",
    "autoplay play --skin gnome-mines --games 10 --record runs/session1": "live games (tests/e2e)",
    "python3 benchmarks/web_clone.py --port 8000 --log page.jsonl &": "serves the page of the browser lines below "
    "until stopped (tests/scripts/test_web_clone.py)",
    'autoplay launch chromium --url "http://127.0.0.1:8000/?look=3" --scale 1.25 &': "live: a browser on a display "
    "(tests/e2e/test_browser_games.py runs the same flow)",
    'autoplay calibrate --live --window-title "Web Mines" --name webmines --first-click zero --win reveal '
    "--new-game-key F2 --mines 16x30=99": "live: teaches the page opened above (tests/e2e/test_browser_games.py)",
    "autoplay play --skin webmines --games 10 --record runs/web1": "live: plays the page opened above "
    "(tests/e2e/test_browser_games.py)",
    "autoplay play --skin xdemineur --dry-run": "live: needs a running xdemineur window (tests/e2e)",
    "autoplay replay runs/session1 --out /tmp/annotated": "draws the live play line's recording (tests/replay)",
    "autoplay replay runs/session1": "replays the live play line's recording (tests/e2e)",
    "python benchmarks/paired.py shallow.txt ours.txt": "compares the per-game files of the two lines above "
    "(benchmarks/, run for BENCHMARKS.md)",
    "autoplay report runs/session1": "reports on the live play line's recording (tests/replay/test_report.py)",
    "autoplay replay runs/session1 --audit": "audits the live play line's recording (tests/replay, tests/e2e)",
}
#: Measurement runs: the same command with fewer games, so the suite stays quick.
SHORTENED = {"autoplay simulate": 20}

#: The screenshot each skin's examples read as ``shot.png`` (a real window grab of that game).
SHOT = {
    "gnome-mines": FIXTURES / "gnome-mines" / "expert_mid8.png",
    "xdemineur": FIXTURES / "xdemineur" / "expert_mid3.png",
    "win7": FIXTURES / "win7" / "w7_mine3.png",
}


def readme_commands() -> list[str]:
    """Every command line of the ``sh`` blocks of the README and the docs pages, comments stripped, each once."""
    blocks = [b for page in PAGES for b in re.findall(r"```sh\n(.*?)```", page.read_text(encoding="utf-8"), flags=re.S)]
    lines = [line.split("  #")[0].split(" # ")[0].strip() for block in blocks for line in block.splitlines()]
    return list(dict.fromkeys(line for line in lines if line and not line.startswith("#")))


def readme_board() -> str:
    """The README's own example board (the ``text`` block that starts with ``mines=``)."""
    for block in re.findall(r"```text\n(.*?)```", README.read_text(encoding="utf-8"), flags=re.S):
        if block.startswith("mines="):
            return block
    raise AssertionError("the README has no example board")


def prepare_inputs(command: list[str], folder: Path) -> None:
    """Put the files an example names into ``folder``: the README's board, a screenshot of the skin it names."""
    skin = command[command.index("--skin") + 1] if "--skin" in command else "gnome-mines"
    if "board.txt" in command:
        if command[1] == "grade":  # grade reads a layout: the mines shown as *, as `generate` writes them
            layout = subprocess.run(
                [*autoplay(), "generate", "--preset", "beginner", "--seed", "3"], capture_output=True, text=True
            )
            assert layout.returncode == 0, layout.stderr
            (folder / "board.txt").write_text(layout.stdout)
        else:
            (folder / "board.txt").write_text(readme_board())
    if "shot.png" in command:
        shutil.copy(SHOT[skin], folder / "shot.png")
    if "--layouts" in command:  # the layouts file the README's --write-layouts line makes (a short one)
        path = command[command.index("--layouts") + 1]
        made = subprocess.run(
            [*autoplay(), "simulate", "--preset", "expert", "--games", "20", "--write-layouts", str(folder / path)],
            capture_output=True,
            text=True,
        )
        assert made.returncode == 0, made.stderr
    if "folder/" in command:
        (folder / "folder").mkdir()
        for name in ("w7_mine2.png", "w7_mine3.png"):
            shutil.copy(FIXTURES / skin / name, folder / "folder" / name)


def autoplay() -> list[str]:
    return [str(Path(sys.executable).parent / "autoplay")]


def shortened(command: list[str]) -> list[str]:
    for prefix, games in SHORTENED.items():
        if " ".join(command).startswith(prefix):
            command = list(command)
            if "--games" in command:
                command[command.index("--games") + 1] = str(games)
            else:
                command += ["--games", str(games)]
    return command


COMMANDS = readme_commands()
RUN = [c for c in COMMANDS if c not in NOT_RUN]


def test_the_readme_has_examples_and_every_exclusion_is_still_one() -> None:
    assert len(RUN) >= 12, RUN
    assert set(NOT_RUN) <= set(COMMANDS), set(NOT_RUN) - set(COMMANDS)


@pytest.mark.parametrize("line", RUN)
def test_readme_example_runs_as_written(line: str, tmp_path: Path) -> None:
    command = shlex.split(line)
    assert command[0] == "autoplay", f"an example that is neither autoplay nor listed in NOT_RUN: {line}"
    prepare_inputs(command, tmp_path)
    inputs = set(tmp_path.rglob("*"))
    env = {**os.environ, "PATH": os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")])}
    env.pop("PYTHONPATH", None)
    proc = subprocess.run(shortened(command), cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, f"{line}: exit {proc.returncode}: {proc.stderr.strip()[-1500:]}"
    assert proc.stdout.strip() or set(tmp_path.rglob("*")) - inputs, f"{line}: printed and wrote nothing"
    assert "Traceback" not in proc.stderr


@pytest.mark.parametrize("sub", ["solve", "analyze", "simulate", "decode", "replay", "play", "launch", "calibrate"])
def test_help_text_is_printed_as_meant(sub: str) -> None:
    proc = subprocess.run([*autoplay(), sub, "--help"], capture_output=True, text=True)
    assert proc.returncode == 0 and "%%" not in proc.stdout, proc.stdout


def test_the_exit_code_table_is_the_codes() -> None:
    """The README's exit-code table is exactly the codes the CLI can return: ``ExitCode``, which every error uses."""
    import inspect

    from autoplay import errors

    text = README.read_text(encoding="utf-8")
    table = text[text.index("**Exit codes**") :].split("\n\n")[1]
    listed = {int(code) for code in re.findall(r"^\| (\d+) \|", table, re.M)}
    raised = {
        cls.exit_code for _, cls in inspect.getmembers(errors, inspect.isclass) if issubclass(cls, errors.AutoplayError)
    }
    assert raised <= {int(code) for code in errors.ExitCode}
    assert listed == {int(code) for code in errors.ExitCode}, (listed, sorted(errors.ExitCode))
