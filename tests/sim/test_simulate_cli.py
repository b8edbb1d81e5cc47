"""`autoplay simulate` with the real solver: its JSON contract and its errors."""

import json

from autoplay.cli.main import main


def test_simulate_json_contract(capsys):
    code = main(
        ["simulate", "--preset", "beginner", "--rule", "zero", "--games", "40", "--seed", "3", "--jobs", "1", "--json"]
    )
    out = json.loads(capsys.readouterr().out)
    assert code == 0
    for key in (
        "games",
        "wins",
        "win_rate",
        "ci95",
        "games_per_second",
        "mean_guesses",
        "mines_flagged_pct",
        "revealed_pct",
    ):
        assert key in out
    assert out["games"] == 40
    assert out["ci95"][0] <= out["win_rate"] <= out["ci95"][1]
    # beginner with an opening start is won ~97% of the time by a good solver; 40 games can't drop below 75%
    assert out["win_rate"] >= 0.75
    assert out["revealed_pct"] > 80


def test_simulate_is_reproducible_across_job_counts(capsys):
    args = ["simulate", "--rows", "8", "--cols", "8", "--mines", "12", "--games", "24", "--seed", "9", "--json"]
    main(args + ["--jobs", "1"])
    one = json.loads(capsys.readouterr().out)
    main(args + ["--jobs", "2"])
    two = json.loads(capsys.readouterr().out)
    assert (one["wins"], one["mean_guesses"], one["revealed_pct"]) == (
        two["wins"],
        two["mean_guesses"],
        two["revealed_pct"],
    )


def test_simulate_flag_all_flags_every_mine_in_won_games(capsys):
    main(
        [
            "simulate",
            "--preset",
            "beginner",
            "--rule",
            "zero",
            "--win-rule",
            "flag-all",
            "--games",
            "20",
            "--seed",
            "2",
            "--jobs",
            "1",
            "--json",
        ]
    )
    out = json.loads(capsys.readouterr().out)
    assert out["wins"] > 0
    # every won game flagged all its mines, so the average is at least the win share
    assert out["mines_flagged_pct"] >= 100 * out["win_rate"] - 1e-9


def test_simulate_rejects_impossible_boards(capsys):
    assert main(["simulate", "--rows", "3", "--cols", "3", "--mines", "5", "--rule", "zero", "--games", "1"]) == 2
    assert "do not fit" in capsys.readouterr().err
    assert main(["simulate", "--games", "0"]) == 2  # a usage error, like argparse's own
