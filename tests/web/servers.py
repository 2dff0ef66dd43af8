"""Helpers to run the web app for tests: in a subprocess (for SIGKILL) or a thread."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_up(base: str, timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(base + "/api/games", timeout=2).read()
            return
        except (urllib.error.URLError, ConnectionError, OSError):
            time.sleep(0.1)
    raise TimeoutError(f"server at {base} did not start in {timeout}s")


def wait_for(pred: Any, timeout: float, what: str = "condition", every: float = 0.05) -> Any:
    """Poll ``pred()`` until it returns something truthy (returned), for at most ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        v = pred()
        if v:
            return v
        time.sleep(every)
    raise AssertionError(f"{what} not met within {timeout}s")


def call(base: str, method: str, path: str, body: Any = None, token: str | None = None) -> tuple[int, Any]:
    data = json.dumps(body).encode() if body is not None else None
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    req = urllib.request.Request(base + path, data=data, method=method, headers=headers)
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())


class SubprocessServer:
    """``python -m tests.web.devserver`` on a free port; ``kill()`` sends SIGKILL."""

    def __init__(self, data_dir: Path, bot_delay: float = 0.0, env: dict[str, str] | None = None) -> None:
        self.data_dir = data_dir
        self.bot_delay = bot_delay
        self.env = env or {}
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.proc: subprocess.Popen | None = None

    def start(self) -> "SubprocessServer":
        env = {**os.environ, **self.env, "PYTHONPATH": str(REPO)}
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "tests.web.devserver", "--port", str(self.port),
             "--data-dir", str(self.data_dir), "--bot-delay", str(self.bot_delay)],
            cwd=REPO, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
        )
        try:
            wait_up(self.base)
        except TimeoutError:
            self.kill()
            raise
        return self

    def terminate(self, timeout: float) -> int | None:
        """Send SIGTERM and wait up to ``timeout`` seconds; the exit code, or None if still running."""
        assert self.proc is not None
        self.proc.send_signal(signal.SIGTERM)
        try:
            return self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            return None

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(timeout=10)
        if self.proc is not None and self.proc.stderr is not None:
            self.proc.stderr.close()
        self.proc = None


class ThreadServer:
    """The app served by uvicorn in a background thread of this process."""

    def __init__(self, data_dir: Path, bot_delay: float = 0.0, forwarded_allow_ips: str | None = None, **app_kw: Any) -> None:
        import uvicorn

        from boardlab.web.app import create_app
        from boardlab.web.server import uvicorn_config

        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.app = create_app(data_dir=data_dir, bot_delay=bot_delay, **app_kw)
        # the options `boardlab serve` uses: connection limits, timeouts, no forwarded headers
        config = uvicorn_config(self.app, "127.0.0.1", self.port, forwarded_allow_ips)
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def start(self) -> "ThreadServer":
        self.thread.start()
        wait_up(self.base)
        return self

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)
