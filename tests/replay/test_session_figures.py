"""The session page's games table: time, 3BV, 3BV/s, clicks and efficiency from each game's recorded line."""

from __future__ import annotations

from autoplay.board.rules import Rules
from autoplay.play.recorder import Recorder
from autoplay.replay.recording import read_recording
from autoplay.replay.session_report import GAME_COLUMNS, _page_game
from autoplay.replay.session_stats import session_stats


def test_the_games_table_shows_3bv_rates_and_a_dash_where_the_layout_is_unknown(tmp_path):
    rec = Recorder(tmp_path, "gnome-mines", Rules(), mines=2)
    rec.game(1, "won", final_board="mines=1\n1*\n11", seconds=2.0, clicks=3)
    rec.game(2, "lost", final_board="mines=2\n1X\n1.", seconds=1.0, clicks=1)  # one mine of two shown
    rec.close()
    won, lost = session_stats(read_recording(tmp_path)).games
    assert won.clicks == 3 and won.figures["3bv"] == 3 and won.figures["3bv_per_second"] == 1.5
    columns = GAME_COLUMNS[:5]
    assert columns == ["seconds", "3BV", "3BV/s", "clicks", "efficiency"]
    assert _page_game(won, [], []).cells[:5] == ["2.00", "3", "1.5", "3", "1"]
    assert _page_game(lost, [], []).cells[:5] == ["1.00", "-", "-", "1", "-"]
