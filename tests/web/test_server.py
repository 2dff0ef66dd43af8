"""``boardlab.web.server.run``: prints the address, serves, refuses a busy port."""

from __future__ import annotations

import socket
import subprocess
import sys

import pytest

from boardlab.engine.errors import BoardlabError
from boardlab.web.server import run

from .servers import REPO, free_port, wait_up

pytestmark = pytest.mark.timeout(60)  # every wait in these tests is bounded


def test_run_prints_the_address_and_serves(tmp_path):
    port = free_port()
    code = f"from boardlab.web.server import run; run(port={port}, data_dir={str(tmp_path / 'd')!r})"
    proc = subprocess.Popen([sys.executable, "-c", code], cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = proc.stdout.readline()
        assert line.strip() == f"boardlab is running at http://127.0.0.1:{port}/"
        wait_up(f"http://127.0.0.1:{port}")
        assert (tmp_path / "d" / "boardlab.sqlite3").exists()
    finally:
        proc.kill()
        proc.wait(timeout=10)
        proc.stdout.close()
        proc.stderr.close()


def test_run_refuses_a_busy_port(tmp_path):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        with pytest.raises(BoardlabError, match="cannot listen"):
            run(port=s.getsockname()[1], data_dir=str(tmp_path))
