"""benchmarks/today.py, which re-measures the table at the top of BENCHMARKS.md.

The measurements themselves take minutes to hours, so these tests pin the cheap parts a wrong table would come from:
reading each benchmark's printed output, writing the rows in the table's order, skipping rows whose programs are
missing without running anything, and the row keys staying those of BENCHMARKS.md's table.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "benchmarks"))

import today  # noqa: E402  # benchmarks/ is not a package


def test_simulate_json_gives_rate_interval_and_games() -> None:
    out = json.dumps({"games": 200000, "wins": 81460, "win_rate": 0.4073, "ci95": [0.405148, 0.409455]})
    assert today.simulate_value("progress\n" + out) == "**40.73%** (40.51–40.95), 200,000 games"


def test_solver_speed_table_gives_cpu_rate_and_decision_times() -> None:
    out = (
        "Intervals: order statistics 1 and 5 of 5, which hold the median with 93.8% confidence.  \n\n"
        "| tree | solver | games won | simulator games/CPU-s, median [interval] | front door games/CPU-s | "
        "front-door decision median / p99 (CPU) | games the two paths ended differently (time limit) |\n"
        "|---|---|---|---|---|---|---|\n"
        "| this tree | compiled | 127 | **37.9** [34.4, 46.9] | 27.0 [24.5, 28.7] | 0.170 ms / 15.76 ms | 0 |\n"
    )
    values = today.parse_speed([out])
    assert values["speed-cpu"].startswith("**37.9** [34.4, 46.9] (order statistics 1 and 5 of 5: 93.8%)")
    assert values["decision-time"] == "0.170 ms / 15.76 ms"


def test_toollib_output_gives_medians_ratio_and_p99() -> None:
    out = (
        "Python 3.11.7, ms_toollib 1.5.20; 600 expert engine positions (first click safe, seed 1); ...\n\n"
        "| engine | median | p90 | p99 | max |\n|---|---|---|---|---|\n"
        "| autoplay `analyze` (cold) | 0.211 ms | 0.446 ms | 0.743 ms | 1.34 ms |\n"
        "| ms_toollib `cal_probability_onboard` | 0.348 ms | 1.363 ms | 3.142 ms | 12.38 ms |\n\n"
        "ratio autoplay / ms_toollib: median time 0.61, p99 time 0.24; per-position ratio median 0.89\n"
    )
    assert (
        today.toollib_value(out) == "**0.211 ms** vs 0.348 ms: **0.61** (p99 0.743 ms vs 3.142 ms: 0.24), 600 positions"
    )


def test_vision_output_gives_each_case_decode_median() -> None:
    out = (
        "python 3.11.7, opencv 4.10.0, ...\n"
        "case                                              locate median      p90  decode median      p90\n"
        "gnome-mines expert 30x16 (window 1060x706)           24.00 ms 32.20 ms        1.26 ms  4.30 ms\n"
        "xdemineur expert 30x16 (window 661x432)              13.30 ms 19.80 ms        1.10 ms  1.01 ms\n"
    )
    assert today.parse_vision([out]) == {"decode": "1.26 / 1.10 ms"}


def test_live_and_new_games_rows() -> None:
    live = "| xdemineur | expert | 60 | 0 | 31 | 51.7% | 39.3-63.8% | 3.14 | 4.00 | 3.0 | 95.5 | 2.35 | 0 | 1 | 0 | 0 | 0 |"
    assert today.parse_live("xdemineur")([live]) == {
        "live-xdemineur": "**3.14 s** (p90 4.00), 60 games, 31 won, 0 aborted"
    }
    beyond = (
        "Per decision beyond the game's own drawing (capture + the settle after the last redraw report + decode + "
        "solve): median 9.1 ms, p90 9.8 ms over 1021 decisions (50 with no redraw report)."
    )
    assert today.parse_live("xdemineur", per_decision=True)([live + "\n\n" + beyond])["live-per-decision"] == (
        "xdemineur **9.1 ms** (p90 9.8, 1021 decisions)"
    )
    with pytest.raises(ValueError):
        today.parse_live("xdemineur", per_decision=True)([live])
    new = "| kmines | exit 0, 7 s | 20 s | 50 | 0 | 30 | 60.0% (46.2-72.4%) | 6.00 | 0 |"
    assert today.parse_new_game("kmines")([new]) == {
        "live-kmines": "**6.00 s**, 50 games, 30 won, 0 stops",
        "flow-kmines": "calibrate exit 0, 7 s; first game played **20 s** after the start",
    }


def test_web_rows_give_per_browser_medians_and_calibrations() -> None:
    rows = [
        "| chromium | 1 | 2 | exit 0, 8 s | 3 | **0** | 1 (6-79%) | **0** | 36511 | **0** | **0** | 0 | 7.4 s |",
        "| chromium | 1 | 6 | exit 0, 11 s | 3 | **0** | 1 (6-79%) | **0** | 45216 | **0** | **0** | 0 | 18.0 s |",
        "| chromium | 1 | 9 | exit 0, 8 s | 3 | **0** | 2 (21-94%) | **0** | 63511 | **0** | **0** | 0 | 12.8 s |",
        "| firefox | 1 | 2 | exit 0, 7 s | 0 | **1** | 0 (0-0%) | **0** | 0 | **0** | **0** | 0 | - |",
    ]
    values = today.parse_web(["\n".join(rows)])
    assert values["live-chromium"] == "**12.8 s** (7.4–18.0), 3 cases, 9 games"
    assert values["live-firefox"] == "no game ended in 1 case"
    assert values["flow-browsers"] == "exit 0 in 7–11 s in 4 cases"


def test_table_keeps_the_row_order_and_six_cells() -> None:
    def result(key: str, value: str) -> today.Result:
        return today.Result(today.ROW_BY_KEY[key], value, "`cmd`", "abc1234", "2026-11-28")

    table = today.markdown([result("decode", "1 | 2 ms"), result("expert-safe", "40%")], "header")
    lines = table.splitlines()
    assert lines[0] == "header"
    assert lines[4].startswith("| `expert-safe`: ") and lines[5].startswith("| `decode`: ")
    assert all(line.count("|") == 7 for line in lines[2:])  # a | inside a value cannot add a column


def test_missing_program_skips_without_running(tmp_path: Path) -> None:
    def never(ctx: today.Context) -> list[list[str]]:
        return [["-c", "raise SystemExit(9)"]]

    def unread(outs: list[str]) -> dict[str, str]:
        raise AssertionError("nothing ran, so nothing is read")

    measurement = today.Measurement("x", ("live-xbomb",), never, unread, lambda: ("no-such-program-here",))
    filled = today.measure(measurement, today.Context(True, 1, tmp_path), timeout=10)
    assert filled["live-xbomb"].value == "skipped: no-such-program-here not installed"


def test_failed_command_is_a_row_not_a_crash(tmp_path: Path) -> None:
    def failing(ctx: today.Context) -> list[list[str]]:
        return [["-c", "import sys; print('broken', file=sys.stderr); raise SystemExit(3)"]]

    measurement = today.Measurement("x", ("decode",), failing, today.parse_vision)
    filled = today.measure(measurement, today.Context(True, 1, tmp_path), timeout=60)
    assert filled["decode"].value == "failed: exit 3: broken"


def test_unknown_row_is_one_line_and_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert today.main(["--only", "nope"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "unknown row nope" in err


def test_rows_are_those_of_the_benchmarks_table() -> None:
    text = (REPO / "BENCHMARKS.md").read_text(encoding="utf-8")
    section = text[text.index("## Today's figures") :]
    section = section[: section.index("\n## ", 1)]
    keys = [line.split("`")[1] for line in section.splitlines() if line.startswith("| `")]
    assert keys == [row.key for row in today.ROWS]
    assert {key for m in today.MEASUREMENTS for key in m.rows} == set(today.ROW_BY_KEY)  # every row is measured


def test_a_command_over_its_time_is_interrupted_and_named(tmp_path: Path) -> None:
    def slow(ctx: today.Context) -> list[list[str]]:
        return [["-c", "import time; time.sleep(60)"]]

    measurement = today.Measurement("x", ("decode",), slow, today.parse_vision)
    filled = today.measure(measurement, today.Context(True, 1, tmp_path), timeout=1)
    assert filled["decode"].value.startswith("failed: exit ") and filled["decode"].value.endswith("timed out after 1 s")


def test_sim_speed_row_is_the_commands_own_rate() -> None:
    out = "progress\n" + json.dumps({"games": 600, "wins": 259, "games_per_second": 53.41})
    assert today.parse_sim_speed([out]) == {"sim-speed": "**53.4** games/s (600 games, 259 won)"}
