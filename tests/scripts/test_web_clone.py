"""benchmarks/web_clone.py, the server of the web Minesweeper used for end-to-end tests in real browsers.

The server is the harness's ground truth (it writes the events the page posts), so these tests pin what a harness
relies on: loopback only, the page is served, events land one per line in arrival order, junk is refused.  They run
without a browser; one test loads the page in headless Chromium when it is installed, and checks that it draws.
"""

from __future__ import annotations

import http.client
import json
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import pytest

REPO = Path(__file__).resolve().parents[2]
SCRIPT = REPO / "benchmarks" / "web_clone.py"
sys.path.insert(0, str(SCRIPT.parent))

import web_clone  # noqa: E402  # benchmarks/ is not a package


@pytest.fixture
def server(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    """An in-process server on a free loopback port, with its log file."""
    log = tmp_path / "events.jsonl"
    srv, url = web_clone.serve(log)
    try:
        yield url, log
    finally:
        web_clone.stop(srv)


def request(url: str, method: str, path: str, body: bytes | None = None) -> tuple[int, bytes]:
    """One HTTP request on a fresh connection: the test controls exactly when each event is sent."""
    parts = urlsplit(url)
    conn = http.client.HTTPConnection(parts.hostname or "", parts.port, timeout=10)
    try:
        headers = {"Content-Type": "application/json"} if body is not None else {}
        conn.request(method, path, body=body, headers=headers)
        resp = conn.getresponse()
        return resp.status, resp.read()
    finally:
        conn.close()


def test_binds_loopback_on_a_free_port(server: tuple[str, Path]) -> None:
    url, _ = server
    parts = urlsplit(url)
    assert parts.hostname == "127.0.0.1"
    assert parts.port and parts.port > 0
    assert url == f"http://127.0.0.1:{parts.port}/"


def test_serves_the_page_and_its_script(server: tuple[str, Path]) -> None:
    url, _ = server
    status, body = request(url, "GET", "/")
    assert status == 200
    assert b"<title>Web Mines</title>" in body
    status, body = request(url, "GET", "/mines.js")
    assert status == 200
    assert b"function drawLook" in body
    assert request(url, "GET", "/no-such-file")[0] == 404


def test_logs_posted_events_as_lines_in_order(server: tuple[str, Path]) -> None:
    url, log = server
    events = [
        {"event": "new", "game": 1, "rows": 16, "cols": 30, "mines": 99, "look": 7, "seq": 1},
        {"event": "click", "game": 1, "row": 3, "col": 4, "button": "left", "t": 1.5, "seq": 2},
        {"event": "layout", "game": 1, "rows": 16, "cols": 30, "mines": [1, 2, 3], "seq": 3},
        {"event": "end", "game": 1, "result": "lost", "mines": [1], "opened": [], "flags": [], "exploded": 1},
    ]
    for event in events:
        status, _ = request(url, "POST", "/log", json.dumps(event).encode())
        assert status == 204
    lines = log.read_text(encoding="utf-8").splitlines()
    assert [json.loads(line) for line in lines] == events


def test_concurrent_posts_stay_whole_lines(server: tuple[str, Path]) -> None:
    url, log = server
    big = {"event": "end", "opened": list(range(3000))}

    def post(k: int) -> None:
        assert request(url, "POST", "/log", json.dumps({**big, "game": k}).encode())[0] == 204

    threads = [threading.Thread(target=post, args=(k,)) for k in range(12)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    games = sorted(json.loads(line)["game"] for line in log.read_text(encoding="utf-8").splitlines())
    assert games == list(range(12))


@pytest.mark.parametrize("body", [b"not json", b"[1, 2]", b"\xff\xfe", b""])
def test_rejects_what_is_not_a_json_object(server: tuple[str, Path], body: bytes) -> None:
    url, log = server
    status, _ = request(url, "POST", "/log", body)
    assert status == 400
    assert log.read_text(encoding="utf-8") == ""


def test_post_elsewhere_is_not_found(server: tuple[str, Path]) -> None:
    url, log = server
    assert request(url, "POST", "/other", b"{}")[0] == 404
    assert log.read_text(encoding="utf-8") == ""


def test_command_line_prints_the_url_and_stops_on_sigterm(tmp_path: Path) -> None:
    log = tmp_path / "cli.jsonl"
    proc = subprocess.Popen(
        [sys.executable, str(SCRIPT), "--port", "0", "--log", str(log), "--print-url"],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stdout is not None
        url = proc.stdout.readline().strip()
        assert url.startswith("http://127.0.0.1:") and url.endswith("/")
        assert request(url, "POST", "/log", b'{"event": "new", "game": 1}')[0] == 204
        assert json.loads(log.read_text(encoding="utf-8")) == {"event": "new", "game": 1}
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=10) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


@pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed (apt-get install chromium)")
@pytest.mark.parametrize("look", [3, 4])  # one DOM look and one canvas look
def test_page_draws_in_headless_chromium(server: tuple[str, Path], look: int) -> None:
    """The page runs in a real browser: the dumped DOM shows the board built and the first events were posted.

    ``--dump-dom`` waits for the page's load and its scripts, so there is no sleep to tune; the events are posted
    from the page's start, and the browser exits only after the page is done loading, but a fetch may still be in
    flight then, so the log is only required to hold the events that did arrive, in order.
    """
    url, log = server
    assert CHROMIUM is not None
    with tempfile.TemporaryDirectory() as profile:
        proc = subprocess.run(
            [
                CHROMIUM,
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--no-first-run",
                f"--user-data-dir={profile}",
                "--virtual-time-budget=3000",
                "--dump-dom",
                f"{url}?look={look}&rows=9&cols=9&mines=10",
            ],
            capture_output=True,
            text=True,
            timeout=90,
        )
    assert proc.returncode == 0, proc.stderr[-2000:]
    dom = proc.stdout
    assert "<title>Web Mines</title>" in dom
    assert '<main id="app">' in dom  # unhidden: the script ran to the end
    assert 'class="dom"' in dom or "<canvas" in dom
    events = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    assert events, "the page posted nothing"
    assert events[0] == {"event": "new", "game": 1, "rows": 9, "cols": 9, "mines": 10, "look": look, "seq": 1}
