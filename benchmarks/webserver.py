"""Start ``boardlab serve``'s app in a subprocess on loopback, for the web benchmarks.

``--pythonpath`` lets a benchmark measure another checkout (e.g. main before a change).
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """The web app served by uvicorn in a child process on 127.0.0.1 (never another interface)."""

    def __init__(self, bot_delay: float, pythonpath: str | None = None, nice: int = 0, env: dict | None = None,
                 prelude: str = "") -> None:
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.tmp = tempfile.TemporaryDirectory(prefix="boardlab-bench-")
        # ``prelude``: benchmark-only instrumentation run in the server process first (e.g. a GC timer)
        code = (f"{prelude}\nfrom boardlab.web.server import run; run(host='127.0.0.1', port={self.port}, "
                f"data_dir={str(Path(self.tmp.name) / 'data')!r})")
        full_env = {**os.environ, "PYTHONPATH": pythonpath or str(REPO), "BOARDLAB_BOT_DELAY": str(bot_delay), **(env or {})}
        full_env.pop("BOARDLAB_DATABASE_URL", None)
        cmd = [sys.executable, "-c", code]
        if nice:
            cmd = ["nice", "-n", str(nice), *cmd]
        # cwd: the temporary dir, so that `-c` imports boardlab from PYTHONPATH, not from the current dir
        # the server's log goes to a file: a pipe nobody reads fills up (64 KiB) and blocks the writer
        self.log_path = Path(self.tmp.name) / "server.log"
        self.log_lines: list[str] = []
        self._log = open(self.log_path, "wb")
        self.proc = subprocess.Popen(cmd, env=full_env, cwd=self.tmp.name, stdout=subprocess.DEVNULL, stderr=self._log)
        deadline = time.monotonic() + 30
        while True:
            try:
                urllib.request.urlopen(self.base + "/api/games", timeout=2).read()
                break
            except OSError:
                if self.proc.poll() is not None or time.monotonic() > deadline:
                    self.stop()
                    raise RuntimeError("the server did not start")
                time.sleep(0.1)

    def cpu_seconds(self) -> float:
        """User + system CPU time of the server process so far (Linux /proc)."""
        try:
            fields = Path(f"/proc/{self.proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
            return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        except (OSError, IndexError, ValueError):
            return float("nan")

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=10)
        self._log.close()
        try:
            self.log_lines = self.log_path.read_text(errors="replace").splitlines()
        except OSError:
            pass
        self.tmp.cleanup()

    def __enter__(self) -> "Server":
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()
