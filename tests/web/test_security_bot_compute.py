"""Issue 16, finding 2: bot compute from HTTP is bounded, runs off the event loop, and SIGTERM stops the server.

Through the real server: over-cap agent specs are refused with a 400 naming
the cap; bots decide in worker processes exactly as they did in the server
process (same seed and actions, same moves); the server answers while eight
of the strongest allowed bots think; and a real server restarted on a data
dir full of pending over-cap bot games (as an older server accepted them)
plays their moves through the per-move limit's deterministic fallback and
stops on SIGTERM within a bounded wait, its worker processes gone.
"""

from __future__ import annotations

import json
import os
import secrets
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from boardlab.agents import Decision, make_agent
from boardlab.engine import derive_seed, make
from boardlab.engine.registry import BUILTIN
from boardlab.web.app import create_app
from boardlab.web.bots import WEB_CAPS, fallback_action
from boardlab.web.db import Store, StoredMatch, database_url
from boardlab.web.limits import Limits
from boardlab.web.matches import hash_token

from .conftest import auth, create
from .servers import REPO, SubprocessServer, call, wait_for, wait_up

pytestmark = pytest.mark.timeout(240)  # every wait below is bounded; this only stops a hang

STRONGEST = f"ismcts:iterations={WEB_CAPS['iterations']:g}:time={WEB_CAPS['time']:g}"



@pytest.mark.parametrize(
    "game, spec, named",
    [
        ("dungeons-jewel", "persona:aggressive:samples=100000000", "samples"),
        ("armies", "ismcts:iterations=100000", "iterations"),
        ("armies", "mcts:iterations=10:time=3600", "time"),
        ("armies", "ismcts:iterations=100:depth=100000", "depth"),
        ("armies", "ismcts:iterations=10:time=inf", "time"),
    ],
)
def test_over_cap_agent_specs_are_refused_naming_the_cap(client, game, spec, named):
    n = make(game).players
    before = client.get("/api/matches").json()["matches"]
    r = client.post("/api/matches", json={"game": game, "seats": [{"kind": "human"}] + [{"kind": "bot", "agent": spec}] * (n - 1)})
    assert r.status_code == 400, r.text
    detail = r.json()["detail"]
    assert named in detail
    if "inf" not in spec:
        assert f"cap of {WEB_CAPS[named]:g}" in detail
    assert client.get("/api/matches").json()["matches"] == before  # nothing was created


@pytest.mark.parametrize("spec", ["ismcts:iterations=10:eval=/etc/passwd.json", "heuristic:persona=../../etc/passwd"])
def test_agent_parameters_from_http_are_never_paths(client, spec):
    r = client.post("/api/matches", json={"game": "blackfire", "seats": [{"kind": "human"}, {"kind": "bot", "agent": spec}]})
    assert r.status_code == 400, r.text
    assert "root:" not in r.text


def test_specs_within_the_caps_are_accepted(client):
    for game, spec in [("dungeons-jewel", f"persona:aggressive:samples={WEB_CAPS['samples']:g}"), ("armies", STRONGEST),
                       ("armies", "ismcts:iterations=50:eval=game:depth=auto")]:
        n = make(game).players
        create(client, game, [{"kind": "human"}] + [{"kind": "bot", "agent": spec}] * (n - 1))


def _local_moves(game_id: str, players: int, spec: str, seed: int, count: int) -> list[list]:
    """The moves the server made before bots moved to worker processes: agent per decision, same seeds."""
    game = make(game_id, players=players)
    st = game.new_state(seed)
    out = []
    while not st.is_over() and len(out) < count:
        seat = st.current_seat()
        agent = make_agent(spec, game, seat, derive_seed(seed, 1_000_003 * (seat + 1) + st.decisions))
        a = agent.act(Decision(st.clone(), seat))
        out.append(list(a))
        st.apply(a)
    return out


@pytest.mark.parametrize("game_id, spec, count", [("toy", "ismcts:iterations=40", 10_000), ("dungeons-jewel", "persona:explorer", 24)])
def test_bots_in_worker_processes_make_the_same_moves(data_dir, game_id, spec, count):
    players = make(game_id).players
    with TestClient(create_app(data_dir=data_dir, bot_delay=0, limits=Limits(bot_workers=2))) as c:
        r = create(c, game_id, [{"kind": "bot", "agent": spec}] * players, seed=77)
        mid = r["match"]["id"]
        info = wait_for(lambda: (lambda i: i if i["status"] == "over" or i["decisions"] >= count else None)(c.get(f"/api/matches/{mid}").json()),
                        60, "bot moves")
        assert c.app.state.hub.pool.timeouts == 0
        actions = c.app.state.hub.matches[mid].record.actions[:count]
        assert info["decisions"] >= min(count, 1)
    assert actions == _local_moves(game_id, players, spec, 77, len(actions))
    assert len(actions) >= min(count, 5)


def test_server_answers_while_eight_of_the_strongest_bots_think(data_dir):
    limits = Limits(bot_workers=2, bot_move_limit=60, bot_matches_per_client=100)
    with TestClient(create_app(data_dir=data_dir, bot_delay=0, limits=limits)) as c:
        pool = c.app.state.hub.pool
        for i in range(8):
            create(c, "armies", [{"kind": "bot", "agent": STRONGEST}] * 2, seed=100 + i)
        wait_for(lambda: pool.pending >= 8, 60, "eight bots thinking")
        # the probes: the lobby, a new match, a human's move in it
        assert c.get("/api/games").status_code == 200
        r = create(c, "toy", [{"kind": "human"}, {"kind": "human"}], seed=1)
        mid, tok = r["match"]["id"], r["seats"][0]["token"]
        mv = c.post(f"/api/matches/{mid}/actions", json={"seat": 0, "state_id": 0, "index": 0}, headers=auth(tok))
        assert mv.status_code == 200, mv.text
        assert pool.pending >= 1  # the bots were still thinking while all of that was answered


def _store_pending_bot_games(data: Path, spec: str, n: int) -> list[tuple[str, int]]:
    """Write ``n`` unfinished all-bot matches directly into the database, as an older server accepted them."""
    store = Store(database_url(data, os.environ.get("BOARDLAB_DATABASE_URL")))
    out = []
    game = make("dungeons-jewel")
    try:
        for i in range(n):
            seed = 9000 + i
            now = time.time()
            mid = secrets.token_urlsafe(9)
            seats = [{"seat": s, "kind": "bot", "name": name, "agent": spec, "token_hash": None}
                     for s, name in enumerate(game.seat_names())]
            store.create(StoredMatch(
                id=mid, game=game.id, players=game.players, variant=game.variant, options={}, seed=seed,
                seats=seats, host_hash=hash_token(secrets.token_urlsafe(24)), status="playing", results=None,
                created_at=now, updated_at=now,
            ))
            out.append((mid, seed))
    finally:
        store.close()
    return out


def _children(pid: int) -> list[int]:
    kids = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                kids.append(int(entry))
    return kids


def _alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


class CliServer(SubprocessServer):
    """The real ``boardlab serve`` (``python -m boardlab.cli serve``) with extra options."""

    def __init__(self, data_dir: Path, options: list[str], env: dict[str, str] | None = None) -> None:
        super().__init__(data_dir, env=env)
        self.options = options

    def start(self) -> "CliServer":
        env = {**os.environ, **self.env, "PYTHONPATH": str(REPO)}
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "boardlab.cli", "serve", "--port", str(self.port), "--data-dir", str(self.data_dir), *self.options],
            cwd=REPO, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        try:
            wait_up(self.base, timeout=60)
        except TimeoutError:
            self.kill()
            raise
        return self


def _post(base: str, path: str, body: dict, token: str | None = None) -> tuple[int, dict]:
    """POST with a generous timeout, so a server that never answers fails the test instead of hanging it."""
    headers = {"Content-Type": "application/json", **({"Authorization": f"Bearer {token}"} if token else {})}
    req = urllib.request.Request(base + path, data=json.dumps(body).encode(), headers=headers, method="POST")
    try:
        with urllib.request.urlopen(req, timeout=60) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc to find the worker processes")
def test_restart_with_pending_over_cap_bots_stays_up_plays_fallbacks_and_stops_on_sigterm(tmp_path):
    """On main this server never answered the human's move (the bots held every thread) and ignored SIGTERM."""
    data = tmp_path / "data"
    games = _store_pending_bot_games(data, "persona:aggressive:samples=100000000", 8)
    srv = CliServer(data, ["--bot-workers", "2", "--bot-move-limit", "1.5"], env={"BOARDLAB_BOT_DELAY": "0"}).start()
    try:
        base = srv.base
        st, body = call(base, "GET", "/api/games")
        assert st == 200 and body["games"]
        # another player's game goes on while the over-cap bots are pending
        st, r = _post(base, "/api/matches", {"game": "armies", "seats": [{"kind": "human"}, {"kind": "human"}], "seed": 5})
        assert st == 201, r
        st, snap = _post(base, f"/api/matches/{r['match']['id']}/actions", {"seat": 0, "state_id": 0, "index": 0}, r["seats"][0]["token"])
        assert st == 200 and snap["state_id"] == 1
        # the over-cap bots are stopped at the move limit and play the seeded fallback
        mid, seed = games[0]
        info = wait_for(lambda: (lambda i: i if i["decisions"] >= 2 else None)(call(base, "GET", f"/api/matches/{mid}")[1]),
                        120, "two moves in a pending over-cap game")
        st, _ = call(base, "GET", "/api/games")
        assert st == 200
        store = Store(database_url(data, os.environ.get("BOARDLAB_DATABASE_URL")))
        try:
            actions = store.load(mid).actions
        finally:
            store.close()
        state = make("dungeons-jewel").new_state(seed)
        for a in actions:
            assert a == list(fallback_action(state, state.current_seat(), seed))
            state.apply(a)
        assert len(actions) >= 2 and info["decisions"] >= 2
        workers = _children(srv.proc.pid)
        assert workers, "bots think in worker processes"
        code = srv.terminate(timeout=30)
        assert code is not None, "the server did not stop within 30 s of SIGTERM"
        wait_for(lambda: not any(_alive(p) for p in workers), 15, "worker processes gone")
    finally:
        srv.kill()


SHIPPED = sorted(BUILTIN)  # every registered built-in game


@pytest.mark.parametrize("game_id", SHIPPED)
def test_a_decision_made_from_the_state_json_is_the_in_process_decision(game_id):
    """What a worker is sent (the state's JSON) decides exactly as the live state did, in every game."""
    from boardlab.web.bots import _think

    game = make(game_id)
    persona = sorted(game.personas)[0]
    cls = type(game)
    for spec in (f"persona:{persona}", "ismcts:iterations=12", "heuristic"):
        st = game.new_state(21)
        for _ in range(10):
            if st.is_over():
                break
            seat = st.current_seat()
            seed = derive_seed(21, 1_000_003 * (seat + 1) + st.decisions)
            here = make_agent(spec, game, seat, seed).act(Decision(st.clone(), seat))
            job = (game.id, f"{cls.__module__}:{cls.__qualname__}", game.players, game.variant,
                   dict(game.overrides), st.to_json(), seat, spec, seed)
            assert _think(job) == tuple(here), (spec, st.decisions)
            st.apply(here)
