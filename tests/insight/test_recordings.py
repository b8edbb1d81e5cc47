"""Live play records one explanation per move, cheaply; recordings without one still read back."""

from __future__ import annotations

import json
import random
import time

from autoplay.board.rules import PRESETS, Rules
from autoplay.insight.record import RECORD_BUDGET, explanation_lines, explanation_record
from autoplay.play.recorder import Recorder
from autoplay.play.session import play_session
from autoplay.replay.recording import read_recording
from autoplay.sim.game import Game
from autoplay.solver import choose_move
from tests.play.fakes import FakeTable
from tests.play.test_player import make_player


def test_recorded_decisions_carry_an_explanation_per_move(tmp_path):
    table = FakeTable(9, 9, 10, seed=5)
    recorder = Recorder(tmp_path / "rec", "fake", table.rules, mines=table.mines)
    player, _backend = make_player(table, recorder=recorder)
    play_session(player, 2, lambda: player.mouse.hotkey("ctrl", "r"))
    recorder.close()
    recording = read_recording(tmp_path / "rec")
    assert recording.decisions
    kinds = set()
    for decision in recording.decisions:
        assert decision.explanation is not None
        assert [(e["action"], e["row"], e["col"]) for e in decision.explanation] == [m.key for m in decision.moves]
        for item in decision.explanation:
            kinds.add(item["kind"])
            assert item["text"].startswith(f"{item['action']} ({item['row']},{item['col']})")
            if item["kind"] == "certain":
                assert item["pieces"] >= 1 and item["numbers"] is not None
    assert {"first", "certain"} <= kinds


def test_a_decision_record_without_explanation_still_reads(tmp_path):
    log = tmp_path / "decisions.jsonl"
    log.write_text(
        json.dumps({"type": "decision", "frame": "frames/000001.png", "board": "..\n..\n", "moves": []}) + "\n"
    )
    (decision,) = read_recording(tmp_path).decisions
    assert decision.explanation is None and explanation_lines(decision.explanation) == []


def test_explaining_for_the_recording_stays_within_its_budget():
    preset = PRESETS["expert"]
    rng = random.Random(3)
    game = Game(preset.rows, preset.cols, preset.mines, Rules("safe"), rng=rng)
    slowest = 0.0
    while not game.over:
        board = game.board()
        decision = choose_move(board)
        started = time.perf_counter()
        record = explanation_record(board, decision)
        slowest = max(slowest, time.perf_counter() - started)
        assert record is not None and len(record) == len(decision.moves)
        for move in decision.moves:
            if move.action == "flag":
                game.flag(move.row, move.col)
            elif not game.reveal(move.row, move.col):
                break
    # the budget bounds the proof search; building the position and naming patterns come on top
    assert slowest < RECORD_BUDGET + 0.25


def test_explanation_lines_are_capped():
    items = [{"text": f"line {k}"} for k in range(5)]
    assert explanation_lines(items, limit=2) == ["line 0", "line 1", "... and 3 more"]
