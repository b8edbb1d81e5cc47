"""A window gone before its DestroyNotify is read still ends the ping's wait as gone, not as an X error."""

from __future__ import annotations

import pytest
from Xlib.error import BadDrawable
from Xlib.protocol import event

from autoplay.control import xping


class Gone(BadDrawable):
    """python-xlib's error for a window that no longer exists (made without a server reply to parse)."""

    def __init__(self) -> None:
        Exception.__init__(self, "BadDrawable")
        self._data = {"code": 9, "resource_id": 7, "sequence_number": 0, "major_opcode": 14, "minor_opcode": 0}

    def __str__(self) -> str:
        return "BadDrawable"


class GoneWindow:
    """The game's window after a kill: it lists the ping protocol, and any look at it is a BadDrawable."""

    def get_wm_protocols(self) -> list[int]:
        return [2]

    def send_event(self, *_args: object, **_kw: object) -> None:
        pass

    def get_geometry(self) -> None:
        raise Gone()


class Root:
    def change_attributes(self, **_kw: object) -> None:
        pass


class Connection:
    def create_resource_object(self, _kind: str, _id: int) -> GoneWindow:
        return GoneWindow()

    def intern_atom(self, name: str) -> int:
        return {"WM_PROTOCOLS": 1, "_NET_WM_PING": 2}[name]

    def flush(self) -> None:
        pass

    def pending_events(self) -> int:
        return 0  # the DestroyNotify has not been read yet

    def fileno(self) -> int:
        return 0


class FakeX:
    def __init__(self, _display: str | None) -> None:
        self.conn, self.root = Connection(), Root()

    def close(self) -> None:
        pass


def test_a_window_gone_before_its_destroy_event_is_read_is_gone(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(xping, "XConnection", FakeX)
    monkeypatch.setattr(xping.select, "select", lambda *_a: ([], [], []))
    monkeypatch.setattr(xping, "LOOK_EVERY", 0.0)
    monkeypatch.setattr(event, "ClientMessage", lambda **_kw: None)  # sent to nobody: no answer comes
    with pytest.raises(xping.WindowGone):
        xping.ping(":0", 7, 5.0)
