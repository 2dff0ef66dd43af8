"""A core agent deciding on a position the Python engine holds (boardlab/agents/core_agent.py, issue 43):
``state_from_json`` rebuilds the Python state in the core exactly, the adapter answers legal actions and is
seeded, the core's random and heuristic through it choose exactly as Python's, ``core-ismcts`` is a
registered agent with ``ismcts``'s parameters, and the web bots decide with the core where it plays."""

from __future__ import annotations

import json
import time

import pytest

core = pytest.importorskip("boardlab_core", reason="boardlab_core (the compiled core) is not installed")
if not hasattr(core, "state_from_json"):  # pragma: no cover - an older build
    pytest.skip("this boardlab_core build has no state_from_json (rebuild crates/boardlab-core)", allow_module_level=True)

from boardlab.agents import Decision, check_spec, make_agent  # noqa: E402
from boardlab.agents.core_agent import CoreAgent, CoreISMCTSAgent, agent_for  # noqa: E402
from boardlab.agents.runner import agent_seed, play_game  # noqa: E402
from boardlab.engine import UnknownAgentError, make  # noqa: E402
from boardlab.engine.rng import Rng  # noqa: E402

FIELDS = ("rng", "turn", "decisions", "truncated", "stack", "data")


def _game(players: int = 2, **kw):
    return make("dungeons-jewel", players=players, **kw)


def _positions(game, seed: int, count: int, agent: str = "random"):
    """Up to ``count`` positions of one game (every decision of a random or heuristic game)."""
    agents = [make_agent(agent, game, s, agent_seed(seed, s)) for s in range(game.players)]
    st = game.new_state(seed)
    out = []
    while not st.is_over() and len(out) < count:
        out.append(st.clone())
        st.apply(agents[st.current_seat()].act(Decision(st)))
    out.append(st)
    return out


@pytest.mark.parametrize(("players", "variant", "options", "seed", "prompts"), [
    (2, None, {}, 7, {"survive", "place", "wall"}),
    (3, "concept", {}, 8, {"survive", "place", "wall"}),
    (4, "revised", {}, 9, {"survive", "place", "wall"}),
    (2, "rulebook", {"fight_steal": True}, 22, {"survive", "place", "wall", "take"}),  # a fight won: take an item
])
def test_state_from_json_rebuilds_the_python_state(players, variant, options, seed, prompts):
    game = _game(players, variant=variant, options=options)
    spec = game.core_spec()
    seen = set()
    for st in _positions(game, seed, 120, "heuristic"):
        seen |= {p.kind for p in st.stack}
        doc = st.to_json()
        for drop in ((), ("log", "history", "digest")):  # with and without the log and history
            d = {k: v for k, v in doc.items() if k not in drop}
            cs = core.state_from_json(game.id, spec, json.dumps(d))
            mine = json.loads(cs.fields_json())
            assert {k: mine[k] for k in FIELDS} == {k: doc[k] for k in FIELDS}
            assert [tuple(a) for a in cs.legal_actions()] == list(st.legal_actions())
            assert cs.current_seat() == st.current_seat() and cs.is_over() == st.is_over()
            for seat in (None, *range(players)):
                assert json.loads(cs.view(seat)) == st.view(seat)
            assert cs.log_len == 0  # a simulation state: the log is not carried over
    assert seen >= prompts  # the positions covered every kind of pending prompt


def test_a_rebuilt_state_plays_on_exactly_as_python():
    game = _game(2)
    game.record_events = False
    spec = game.core_spec()
    st = _positions(game, 9, 40)[-1]
    cs = core.state_from_json(game.id, spec, json.dumps(st.to_json()))
    agents = [make_agent("heuristic", game, s, s + 1) for s in range(2)]
    rng = Rng(3)
    while not st.is_over() and st.decisions < 400:  # random and heuristic moves, the dice from the copied rng
        legal = st.legal_actions()
        a = legal[rng.below(len(legal))] if rng.below(4) == 0 else agents[st.current_seat()].act(Decision(st))
        st.apply(a)
        cs.apply(a)
        doc = st.to_json()
        assert json.loads(cs.fields_json()) == {k: doc[k] for k in FIELDS}
    assert st.is_over() and cs.results() == st.results().to_json()


def test_bad_documents_are_value_errors():
    game = _game(2)
    spec = game.core_spec()
    doc = _positions(game, 4, 20)[-1].to_json()

    def broken(edit) -> str:
        d = json.loads(json.dumps(doc))
        edit(d)
        return json.dumps(d)

    cases = [
        lambda d: d["data"]["pos"].__setitem__(0, 49),  # off the 7x7 board
        lambda d: d["data"]["items"].__setitem__(0, ["no-such-item"]),
        lambda d: d["data"]["tokens"].pop(),
        lambda d: d.__setitem__("players", 3),
        lambda d: d.__setitem__("stack", [{"$r": "boardlab.engine.state.Prompt", "v": [0, "dance", 3]}]),
        lambda d: d.__setitem__("rng", -1),
        lambda d: d["data"].__setitem__("winner", 7),
    ]
    for edit in cases:
        with pytest.raises(ValueError):
            core.state_from_json(game.id, spec, broken(edit))
    with pytest.raises(ValueError):
        core.state_from_json(game.id, spec, "{not json")
    with pytest.raises(ValueError):
        core.state_from_json("blackjack", spec, json.dumps(doc))


def test_core_ismcts_is_registered_with_the_parameters_of_ismcts():
    game = _game(2)
    check_spec("core-ismcts:iterations=20:c=0.5:rollout=random:depth=4", game)
    agent = make_agent("core-ismcts:iterations=20", game, 1, 5)
    assert isinstance(agent, CoreISMCTSAgent) and agent.name == "core-ismcts:iterations=20"
    assert not agent.omniscient
    with pytest.raises(UnknownAgentError, match="no parameter 'bogus'"):
        check_spec("core-ismcts:bogus=1", game)
    with pytest.raises(UnknownAgentError, match="iterations"):
        check_spec("core-ismcts:iterations=-3", game)
    with pytest.raises(UnknownAgentError, match="compiled core"):
        check_spec("core-ismcts:iterations=5", make("toy"))  # a game the core does not have


def test_core_ismcts_decides_legal_actions_and_is_seeded():
    game = _game(2)
    game.record_events = False

    def run(seed: int) -> list:
        agents = [make_agent("core-ismcts:iterations=30", game, s, seed + s) for s in range(2)]
        st = game.new_state(12)
        chosen = []
        while not st.is_over() and len(chosen) < 60:
            d = Decision(st)
            a = agents[st.current_seat()].act(d)
            assert a in d.legal
            assert agents[st.current_seat()].last_iterations == (30 if len(d.legal) > 1 else 0)
            chosen.append(a)
            st.apply(a)
        return chosen

    first = run(100)
    assert run(100) == first  # same seeds, same positions: same choices
    assert len(first) == 60
    # and whole games through the runner, against a Python agent
    _, rec = play_game(game, ["core-ismcts:iterations=10", "heuristic"], 77)
    assert rec.decisions > 0 and (rec.truncated or len(rec.winners) == 1)


@pytest.mark.parametrize("agent", ["random", "heuristic", "heuristic:strength=3:caution=0.5"])
def test_random_and_heuristic_through_the_adapter_choose_exactly_as_python(agent):
    game = _game(3)
    game.record_events = False
    for seed in (1, 2):
        py = [make_agent(agent, game, s, agent_seed(seed, s)) for s in range(3)]
        co = [CoreAgent(game, s, agent_seed(seed, s), agent) for s in range(3)]
        st = game.new_state(seed)
        n = 0
        while not st.is_over() and n < 200:
            seat = st.current_seat()
            a = py[seat].act(Decision(st))
            assert co[seat].act(Decision(st)) == a, (agent, seed, st.decisions)
            st.apply(a)
            n += 1
        assert n > 20


def test_agent_for_picks_the_core_where_it_plays_and_python_elsewhere(monkeypatch):
    game = _game(2)
    assert isinstance(agent_for("ismcts:iterations=12", game, 0, 1), CoreAgent)
    assert isinstance(agent_for("heuristic", game, 0, 1), CoreAgent)
    assert not isinstance(agent_for("hard", game, 0, 1), CoreAgent)  # a level: Python
    assert not isinstance(agent_for("ismcts:iterations=12", make("toy"), 0, 1), CoreAgent)
    monkeypatch.setenv("BOARDLAB_ENGINE", "python")
    assert not isinstance(agent_for("ismcts:iterations=12", game, 0, 1), CoreAgent)


def test_a_web_bot_decision_uses_the_core(monkeypatch):
    """What a bot worker runs (``_think``) decides with the core agent, never Python's search, unless
    ``BOARDLAB_ENGINE=python``."""
    from boardlab.agents.mcts import ISMCTSAgent
    from boardlab.web.bots import _think

    calls = []
    core_act = CoreAgent.act

    def counted(self, decision):
        calls.append(self.core_spec)
        return core_act(self, decision)

    def refuse(self, decision):
        raise AssertionError("the Python search decided a web bot's move")

    monkeypatch.setattr(CoreAgent, "act", counted)
    monkeypatch.setattr(ISMCTSAgent, "act", refuse)
    game = _game(2)
    cls = type(game)
    st = game.new_state(21)
    for _ in range(12):
        seat = st.current_seat()
        job = (game.id, f"{cls.__module__}:{cls.__qualname__}", game.players, game.variant,
               dict(game.overrides), st.to_json(), seat, "ismcts:iterations=12", 1000 + st.decisions)
        want = core_act(CoreAgent(game, seat, 1000 + st.decisions, "ismcts:iterations=12"), Decision(st.clone()))
        assert _think(job) == tuple(want)
        st.apply(want)
    assert calls == ["ismcts:iterations=12"] * 12
    monkeypatch.setenv("BOARDLAB_ENGINE", "python")
    with pytest.raises(AssertionError, match="Python search"):
        _think(job)


def test_a_web_bot_match_is_played_by_the_core(tmp_path, monkeypatch):
    """A match on the server, a person against a bot thinking in a spawned worker process: every bot move
    is the core agent's, replayed here decision by decision (the core's choices equal Python's for this
    spec, so the dispatch itself is checked in-process above; this checks the path end to end)."""
    from fastapi.testclient import TestClient

    from boardlab.engine import derive_seed
    from boardlab.web.app import create_app

    monkeypatch.setenv("BOARDLAB_CREATE_RATE", "1000000")
    monkeypatch.setenv("BOARDLAB_CREATE_BURST", "1000000")
    bot = "ismcts:iterations=8:depth=4"
    with TestClient(create_app(data_dir=tmp_path / "data", bot_delay=0)) as client:
        r = client.post("/api/matches", json={"game": "dungeons-jewel", "players": 2, "seed": 5,
                                              "seats": [{"kind": "bot", "agent": bot}, {"kind": "human"}]})
        assert r.status_code == 201, r.text
        mid, tok = r.json()["match"]["id"], r.json()["seats"][1]["token"]
        headers = {"Authorization": f"Bearer {tok}"}
        for _ in range(6000):  # until 30 decisions are played (polling while the bot thinks)
            snap = client.get(f"/api/matches/{mid}/state", params={"seat": 1}, headers=headers).json()
            if snap["over"] or snap["state_id"] >= 30:
                break
            if snap["acting"] == 1:
                body = {"seat": 1, "state_id": snap["state_id"],
                        "action": snap["actions"][snap["state_id"] % len(snap["actions"])]["action"]}
                assert client.post(f"/api/matches/{mid}/actions", json=body, headers=headers).status_code == 200
            else:
                time.sleep(0.05)
        if not snap["over"]:  # the person resigns: the record (seed and actions) opens once the game is over
            while client.get(f"/api/matches/{mid}/state", params={"seat": 1}, headers=headers).json()["acting"] != 1:
                time.sleep(0.05)
            assert client.post(f"/api/matches/{mid}/resign", json={"seat": 1}, headers=headers).status_code == 200
        rec = client.get(f"/api/matches/{mid}/record").json()
    game = _game(2)
    st = game.new_state(rec["seed"])
    bot_moves = 0
    for action in rec["actions"]:
        seat = st.current_seat()
        if seat == 0:
            seed = derive_seed(rec["seed"], 1_000_003 * (seat + 1) + st.decisions)
            want = CoreAgent(game, seat, seed, bot).act(Decision(st.clone()))
            assert list(want) == list(action), st.decisions
            bot_moves += 1
        st.apply(tuple(action))
    assert len(rec["actions"]) >= 30 and bot_moves >= 5


def test_level_names_run_on_the_core_as_the_search_they_stand_for():
    """``--agents strong`` and ``--skill-check`` (whose agent is a level name) run on the core: the level
    is resolved to its concrete spec before the core is asked, and ``easy`` (the heuristic) plays the
    same games on both engines."""
    from boardlab.agents.levels import level_spec
    from boardlab.agents.runner import core_records
    from boardlab.engine.core import choose, core_agent_specs

    game = _game(2)
    choice = choose(game, ["strong", "easy"])
    assert choice.engine == "core", choice.reason
    assert core_agent_specs(game, ["strong", "easy", "random"]) == [level_spec(game, "strong"), level_spec(game, "easy"), "random"]
    assert level_spec(game, "strong").startswith("ismcts")
    seeds = [3, 4]
    by_core = core_records(game, ["easy", "easy"], seeds, choice.spec, keep_actions=True)
    by_python = [play_game(game, ["easy", "easy"], s, keep_actions=True)[1] for s in seeds]
    assert [r.actions for r in by_core] == [[list(a) for a in r.actions] for r in by_python]
    assert [r.winners for r in by_core] == [r.winners for r in by_python]
    with pytest.raises(Exception, match="core"):
        choose(_game(2), ["strong:iterations=5"], "core")  # a level takes no parameters: not the core's either


def test_a_playtest_of_level_names_plays_the_same_rows_on_both_engines(monkeypatch):
    """The lab's worker (``play_rows``) hands the core the concrete spec of a level name."""
    from boardlab.playtest.simulate import RunConfig, play_rows

    cfg = RunConfig("dungeons-jewel", 2, "", {}, ("easy", "easy"), 3, 5).to_json()
    monkeypatch.setenv("BOARDLAB_ENGINE", "core")
    on_core = play_rows(cfg, [0, 1, 2])
    monkeypatch.setenv("BOARDLAB_ENGINE", "python")
    on_python = play_rows(cfg, [0, 1, 2])
    assert on_core == on_python


@pytest.mark.parametrize("gid", ["dungeons-jewel", "blackfire"])
def test_a_lineup_of_core_ismcts_plays_whole_games_in_the_core(gid, monkeypatch):
    """``core-ismcts`` on every seat runs as whole core games (the core's own ``ismcts``), and they are the
    games the core's search plays seat by seat on Python-held positions."""
    from boardlab.agents.runner import core_records
    from boardlab.engine.core import choose, core_agent_specs

    game = make(gid, players=2)
    specs = ["core-ismcts:iterations=20"] * 2
    choice = choose(game, specs)
    assert choice.engine == "core", choice.reason
    assert core_agent_specs(game, specs) == ["ismcts:iterations=20"] * 2
    whole = core_records(game, specs, [1, 2], choice.spec, keep_actions=True)
    monkeypatch.setenv("BOARDLAB_ENGINE", "python")
    seat_by_seat = [play_game(game, specs, s, keep_actions=True)[1] for s in (1, 2)]
    assert [r.actions for r in whole] == [[list(a) for a in r.actions] for r in seat_by_seat]
