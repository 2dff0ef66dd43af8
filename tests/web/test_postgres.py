"""The web server's persistence on a real PostgreSQL (issue 16): the docs promise it, so it is tested.

A throwaway cluster of Debian's PostgreSQL is started on loopback (``initdb`` +
``pg_ctl``, as the ``postgres`` user when the tests run as root, since
PostgreSQL refuses to run as root), each test gets its own database, and the
persistence tests run against it through ``BOARDLAB_DATABASE_URL``: kill -9 and
resume of a real server subprocess, an in-process restart, idle unloading and
reloading, and a restart with pending bot games.  ``scripts/test.sh`` installs
the ``postgresql`` package when it is missing; where it still cannot be found
or started, the tests skip and say why.
"""

from __future__ import annotations

import glob
import itertools
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

from . import test_limits, test_persistence, test_security_bot_compute
from .servers import free_port

pytestmark = pytest.mark.timeout(300)

psycopg = pytest.importorskip("psycopg", reason="the PostgreSQL driver psycopg (v3) is not installed (pip install 'psycopg[binary]')")


def _pg_bin(name: str) -> str | None:
    found = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"), key=lambda p: int(p.split("/")[4]) if p.split("/")[4].isdigit() else 0)
    return found[-1] if found else shutil.which(name)


def _as_postgres() -> list[str]:
    """The command prefix to run PostgreSQL's tools: as ``postgres`` when we are root."""
    if os.geteuid() != 0:
        return []
    try:
        import pwd

        pwd.getpwnam("postgres")
    except KeyError:
        pytest.skip("running as root and there is no 'postgres' user to run PostgreSQL as")
    runuser = shutil.which("runuser")
    if runuser is None:
        pytest.skip("running as root and 'runuser' is missing, so PostgreSQL cannot be started as 'postgres'")
    return [runuser, "-u", "postgres", "--"]


@pytest.fixture(scope="module")
def pg_server():
    initdb, pg_ctl = _pg_bin("initdb"), _pg_bin("pg_ctl")
    if initdb is None or pg_ctl is None:
        pytest.skip("PostgreSQL is not installed (scripts/test.sh installs Debian's 'postgresql' package)")
    prefix = _as_postgres()
    base = Path(tempfile.mkdtemp(prefix="boardlab-pg-"))
    data, log = base / "data", base / "log"
    if prefix:
        shutil.chown(base, user="postgres", group="postgres")
    port = free_port()
    run = lambda *cmd, **kw: subprocess.run([*prefix, *cmd], capture_output=True, text=True, timeout=120, **kw)  # noqa: E731
    try:
        r = run(initdb, "-D", str(data), "-A", "trust", "-U", "boardlab", "-E", "UTF8", "--no-sync")
        if r.returncode != 0:
            pytest.skip(f"initdb failed: {r.stderr.strip()[-300:]}")
        opts = f"-c listen_addresses=127.0.0.1 -p {port} -k {base} -c fsync=off -c full_page_writes=off"
        r = run(pg_ctl, "-D", str(data), "-l", str(log), "-o", opts, "-w", "-t", "60", "start")
        if r.returncode != 0:
            pytest.skip(f"PostgreSQL did not start: {r.stderr.strip()[-300:]} {log.read_text()[-300:] if log.exists() else ''}")
        yield f"127.0.0.1:{port}"
    finally:
        run(pg_ctl, "-D", str(data), "-m", "immediate", "-w", "-t", "30", "stop")
        shutil.rmtree(base, ignore_errors=True)


_names = itertools.count()


@pytest.fixture
def pg_url(pg_server, monkeypatch):
    """A fresh database on the throwaway cluster; ``BOARDLAB_DATABASE_URL`` points at it."""
    name = f"boardlab_{os.getpid()}_{next(_names)}"
    with psycopg.connect(f"postgresql://boardlab@{pg_server}/postgres", autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    url = f"postgresql+psycopg://boardlab@{pg_server}/{name}"
    monkeypatch.setenv("BOARDLAB_DATABASE_URL", url)
    yield url


def _count(url: str, table: str) -> int:
    with psycopg.connect(url.replace("postgresql+psycopg", "postgresql")) as conn:
        return conn.execute(f"SELECT count(*) FROM {table}").fetchone()[0]


def _no_sqlite(tmp_path: Path) -> None:
    assert not list(tmp_path.rglob("*.sqlite3")), "the server wrote SQLite instead of PostgreSQL"


def test_sigkill_then_restart_resumes_every_game_on_postgresql(pg_url, tmp_path):
    test_persistence.test_sigkill_then_restart_resumes_every_game(tmp_path)
    _no_sqlite(tmp_path)
    assert _count(pg_url, "matches") == 2 and _count(pg_url, "actions") >= 8


def test_restart_in_process_rebuilds_exactly_on_postgresql(pg_url, tmp_path):
    test_persistence.test_restart_in_process_rebuilds_exactly(tmp_path)
    _no_sqlite(tmp_path)
    assert _count(pg_url, "actions") == 6


def test_idle_matches_unload_and_reload_on_postgresql(pg_url, tmp_path):
    test_limits.test_idle_matches_are_unloaded_and_reload_on_demand(tmp_path / "data")
    test_limits.test_matches_in_memory_are_capped_and_unloaded_ones_come_back_exactly(tmp_path / "data2")
    _no_sqlite(tmp_path)
    assert _count(pg_url, "matches") == 5


def test_restart_with_pending_bots_and_sigterm_on_postgresql(pg_url, tmp_path):
    test_security_bot_compute.test_restart_with_pending_over_cap_bots_stays_up_plays_fallbacks_and_stops_on_sigterm(tmp_path)
    _no_sqlite(tmp_path)
    assert _count(pg_url, "matches") == 9  # 8 pending bot games and one human game
