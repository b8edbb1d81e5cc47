"""A private Xvfb is handed out only once a client can connect to it."""

from __future__ import annotations

import pytest
from Xlib import display

from autoplay.control import xserver
from autoplay.control.xserver import VirtualDisplay
from autoplay.errors import ControlError

pytestmark = pytest.mark.e2e


def test_a_server_that_refuses_clients_is_replaced(monkeypatch):
    refusals = iter(["Xvfb announced :9 but refuses clients (running): cannot open X display :9"])
    real = VirtualDisplay._refusal
    monkeypatch.setattr(VirtualDisplay, "_refusal", lambda self: next(refusals, None) or real(self))
    with VirtualDisplay(320, 240) as server:
        conn = display.Display(server.name)  # the second server, which a client reaches
        assert conn.screen().width_in_pixels == 320
        conn.close()


def test_a_server_that_never_serves_is_one_error_with_its_reason(monkeypatch):
    monkeypatch.setattr(VirtualDisplay, "_refusal", lambda self: f"Xvfb announced {self.name} but refuses clients")
    started = []
    launch = VirtualDisplay._launch
    monkeypatch.setattr(VirtualDisplay, "_launch", lambda self, binary: started.append(1) or launch(self, binary))
    with pytest.raises(ControlError, match="refuses clients"):
        VirtualDisplay(320, 240).start()
    assert len(started) == xserver.START_ATTEMPTS


def test_xvfb_own_words_come_with_a_start_that_fails():
    with pytest.raises(ControlError, match=r"\(Xvfb: Unrecognized option: -no-such-option\)"):
        VirtualDisplay(320, 240, options=("-no-such-option",)).start()
