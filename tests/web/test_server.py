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


def test_log_lines_are_written_off_the_event_loop_and_never_block_it():
    """Issue 30: a warning written on the loop to a stderr nobody read (a full pipe) froze the server.

    The target handler blocks (like a full pipe); logging 500 lines must still return, keeping at
    most the queue's size and counting the rest, which are reported once the writer catches up.
    """
    import logging
    import threading

    from boardlab.web.server import log_off_loop

    release = threading.Event()
    got: list[str] = []

    class Stuck(logging.Handler):
        def emit(self, record):
            release.wait(30)
            got.append(record.getMessage())

    name = "boardlab-test-log-off-loop"
    logger = logging.getLogger(name)
    logger.propagate = False
    logger.addHandler(Stuck())
    writer = log_off_loop((name,), size=10)
    assert writer.daemon and writer.is_alive()

    def shout():
        for i in range(500):
            logger.warning("line %d", i)

    t = threading.Thread(target=shout)
    t.start()
    t.join(20)
    assert not t.is_alive()  # the 500 calls returned although the output is stuck
    release.set()
    for _ in range(200):
        if any("dropped" in g for g in got):
            break
        threading.Event().wait(0.05)
    assert got[0] == "line 0"  # formatted when logged
    kept = [g for g in got if g.startswith("line ")]
    assert 10 <= len(kept) <= 12  # the queue's size (and the one being written)
    assert got[-1] == f"{500 - len(kept)} log lines were dropped: the log output did not keep up"


def test_a_logger_without_handlers_gets_a_stderr_writer_off_the_loop(capsys):
    """A logger whose records would reach Python's last-resort handler (written on the caller's
    thread, so on the event loop) is given a queued stderr handler instead, at WARNING."""
    import logging
    import sys
    import threading

    from boardlab.web.server import _OffLoop, log_off_loop

    name = "boardlab-test-log-fallback"
    logger = logging.getLogger(name)
    logger.propagate = False
    assert not logger.hasHandlers()
    log_off_loop((name,), size=10)
    try:
        assert [type(h) for h in logger.handlers] == [_OffLoop]
        assert logger.handlers[0].target.stream is sys.stderr
        logger.info("not shown")
        logger.warning("shown %s", "off the loop")
        err = ""
        for _ in range(200):
            err += capsys.readouterr().err
            if "shown" in err:
                break
            threading.Event().wait(0.05)
        assert err.strip().splitlines() == ["shown off the loop"]
    finally:
        for h in list(logger.handlers):
            logger.removeHandler(h)
