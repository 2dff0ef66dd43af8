"""Blackfire positions the Python engine holds, decided on by the compiled core (boardlab/agents/core_agent.py,
issue 43): ``state_from_json("blackfire", ...)`` rebuilds the Python state in the core exactly (every field,
the rng, the prompt stack, the counters; legal actions in order; the states after the same actions), the core's
random and heuristic through the adapter choose exactly as Python's, ``core-ismcts`` and the web bots' ``agent_for``
decide Blackfire on the core, and a malformed document is a ``ValueError`` naming why.  The Dungeon's Jewel's
counterparts are in tests/core/test_core_agent.py."""

from __future__ import annotations

import json

import pytest

core = pytest.importorskip("boardlab_core", reason="boardlab_core (the compiled core) is not installed")
if not hasattr(core, "state_from_json"):  # pragma: no cover - an older build
    pytest.skip("this boardlab_core build has no state_from_json (rebuild crates/boardlab-core)", allow_module_level=True)

from boardlab.agents import Decision, check_spec, make_agent  # noqa: E402
from boardlab.agents.core_agent import CoreAgent, CoreISMCTSAgent, _conversion_refused, agent_for, core_game_spec  # noqa: E402
from boardlab.agents.runner import agent_seed, play_game  # noqa: E402
from boardlab.engine import make  # noqa: E402
from boardlab.engine.rng import Rng  # noqa: E402

GAME = "blackfire"
FIELDS = ("rng", "turn", "decisions", "truncated", "stack", "data")
#: Every kind of prompt Blackfire raises (an archer's target, the Speed, Teleport, Displace and Revive tokens).
PROMPTS = {"shoot", "speed", "teleport", "displace", "revive-token"}


def _game(variant: str | None = None, **options):
    return make(GAME, variant=variant, options=options)


def _fields(doc: dict) -> dict:
    return {k: doc[k] for k in FIELDS}


def _positions(game, seed: int, count: int, agents=("random", "random")):
    """Up to ``count`` positions of one game (every decision), played by ``agents``."""
    players = [make_agent(a, game, s, agent_seed(seed, s)) for s, a in enumerate(agents)]
    st = game.new_state(seed)
    out = []
    while not st.is_over() and len(out) < count:
        out.append(st.clone())
        st.apply(players[st.current_seat()].act(Decision(st)))
    out.append(st)
    return out


def _rebuild(game, doc: dict):
    return core.state_from_json(GAME, game.core_spec(), json.dumps(doc))


CASES = [
    ("final", {}, 3, ("heuristic", "random")),
    ("final", {}, 11, ("random", "random")),
    ("prototype", {}, 5, ("heuristic", "heuristic:persona=hunter")),
    ("prototype", {}, 8, ("random", "heuristic")),
    ("final", {"tokens_per_player": 0, "colours": "seat1-red"}, 4, ("heuristic:persona=collector", "random")),
    ("final", {"archer_contest": False, "push_radius": 0, "respawn_turns": 1, "teleport_table": False,
               "colours": "seat1-green"}, 6, ("random", "heuristic:persona=camper:noise=0.5")),
    ("final", {"sorcerer_kill_wins": True, "respawn": False, "speed_bonus": 5, "teleport_range": 5,
               "archer_range": 3}, 13, ("heuristic", "random")),  # an archer choosing between two targets
    ("prototype", {"token_set": "final", "max_turns": 25}, 2, ("random", "heuristic:persona=runner")),
]
#: The prompt kinds the rebuild cases met, and the cases run (the coverage check needs them all).
_SEEN: set[str] = set()
_DONE: set[int] = set()


@pytest.mark.parametrize(("variant", "options", "seed", "agents"), CASES,
                         ids=[f"{v}-{i}" for i, (v, *_rest) in enumerate(CASES)])
def test_state_from_json_rebuilds_the_python_state(variant, options, seed, agents):
    game = _game(variant, **options)
    spec = game.core_spec()
    assert _conversion_refused(game, spec) is None
    positions = _positions(game, seed, 250, agents)
    assert len(positions) > 10 and positions[-1].phase == "play"
    for i, st in enumerate(positions):
        _SEEN.update(p.kind for p in st.stack)
        doc = st.to_json()
        drops = ((), ("log", "history", "digest")) if i % 5 == 0 or st.stack else (("log",),)
        for drop in drops:  # with and without the log, history and digest
            cs = _rebuild(game, {k: v for k, v in doc.items() if k not in drop})
            assert _fields(json.loads(cs.fields_json())) == _fields(doc), (seed, st.decisions)
            assert [tuple(a) for a in cs.legal_actions()] == list(st.legal_actions())
            assert cs.current_seat() == st.current_seat() and cs.is_over() == st.is_over()
            assert (cs.turn, cs.decisions) == (st.turn, st.decisions)
            assert cs.log_len == 0  # a simulation state: the log is not carried over
        if i % 7 == 0:
            for seat in (None, 0, 1):
                assert json.loads(cs.view(seat)) == st.view(seat)
        if st.is_over():
            assert cs.results() == st.results().to_json()
            continue
        # the same action in both (the last legal one, then the Python agents' next choices): the same state
        after = st.clone()
        action = st.legal_actions()[-1]
        after.apply(action)
        cs.apply(action)
        assert _fields(json.loads(cs.fields_json())) == _fields(after.to_json()), (seed, st.decisions, action)
        assert [tuple(a) for a in cs.legal_actions()] == list(after.legal_actions())
    _DONE.add(CASES.index((variant, options, seed, agents)))


def test_the_positions_covered_every_prompt():
    """The rebuild cases above met every kind of pending prompt (this runs after them)."""
    if len(_DONE) < len(CASES):
        pytest.skip("run with every rebuild case")
    assert _SEEN >= PROMPTS, PROMPTS - _SEEN


def test_revealed_tokens_keep_their_order():
    """``revealed`` is a dict in the order the kinds were first picked up: the rebuilt state writes it back
    in that order (serde's maps would sort it)."""
    game = _game()
    for st in _positions(game, 11, 400):
        if len(st.revealed) >= 3 and list(st.revealed) != sorted(st.revealed):
            break
    else:  # pragma: no cover - the seed is chosen to reach one
        pytest.fail("no position with revealed tokens out of alphabetical order")
    cs = _rebuild(game, st.to_json())
    assert list(json.loads(cs.fields_json())["data"]["revealed"]) == list(st.revealed)
    assert json.loads(cs.to_json())["data"] == st.to_json()["data"]


@pytest.mark.parametrize(("variant", "seed"), [("final", 9), ("prototype", 4)])
def test_a_rebuilt_state_plays_on_exactly_as_python(variant, seed):
    game = _game(variant)
    game.record_events = False
    st = _positions(game, seed, 20)[-1]  # mid-placement
    cs = _rebuild(game, st.to_json())
    agents = [make_agent("heuristic", game, s, s + 1) for s in range(2)]
    rng = Rng(seed)
    while not st.is_over():  # random and heuristic moves, the dice from the copied rng
        legal = st.legal_actions()
        a = legal[rng.below(len(legal))] if rng.below(4) == 0 else agents[st.current_seat()].act(Decision(st))
        st.apply(a)
        cs.apply(a)
        assert json.loads(cs.fields_json()) == _fields(st.to_json())
    assert cs.is_over() and cs.results() == st.results().to_json()


@pytest.mark.parametrize(("variant", "agent"), [
    ("final", "random"),
    ("final", "heuristic"),
    ("prototype", "heuristic"),
    ("final", "heuristic:persona=runner:kill=2"),
    ("prototype", "heuristic:persona=camper:noise=0.5:stay=1.5"),
])
def test_random_and_heuristic_through_the_adapter_choose_exactly_as_python(variant, agent):
    game = _game(variant)
    game.record_events = False
    for seed in (1, 2):
        py = [make_agent(agent, game, s, agent_seed(seed, s)) for s in range(2)]
        co = [CoreAgent(game, s, agent_seed(seed, s), agent) for s in range(2)]
        st = game.new_state(seed)
        n = 0
        while not st.is_over() and n < 150:
            seat = st.current_seat()
            a = py[seat].act(Decision(st))
            assert co[seat].act(Decision(st)) == a, (agent, seed, st.decisions)
            st.apply(a)
            n += 1
        assert n > 20


def test_core_ismcts_plays_blackfire_on_the_core(monkeypatch):
    """``core-ismcts`` is accepted for Blackfire, decides through ``state_from_json`` (never Python's search),
    chooses legal actions and is seeded."""
    from boardlab.agents.mcts import ISMCTSAgent

    def refuse(self, decision):
        raise AssertionError("the Python search decided")

    monkeypatch.setattr(ISMCTSAgent, "act", refuse)
    calls = []
    convert = core.state_from_json

    class Counting:  # the core module with state_from_json counted
        def __getattr__(self, name):
            return getattr(core, name)

        @staticmethod
        def state_from_json(*args):
            calls.append(args[0])
            return convert(*args)

    monkeypatch.setattr("boardlab.engine.core.native", lambda: Counting())
    game = _game()
    game.record_events = False
    check_spec("core-ismcts:iterations=20:c=0.5:rollout=random:depth=4", game)
    assert core_game_spec(game, "ismcts:iterations=20") == game.core_spec()

    def run(seed: int) -> tuple[list, bool]:
        agents = [make_agent("core-ismcts:iterations=25", game, s, seed + s) for s in range(2)]
        assert all(isinstance(a, CoreISMCTSAgent) and not a.omniscient for a in agents)
        st = game.new_state(12)
        chosen = []
        while not st.is_over() and len(chosen) < 40:
            d = Decision(st)
            a = agents[st.current_seat()].act(d)
            assert a in d.legal
            assert agents[st.current_seat()].last_iterations == (25 if len(d.legal) > 1 else 0)
            chosen.append(a)
            st.apply(a)
        return chosen, st.is_over()

    first, over = run(100)
    assert run(100) == (first, over)  # same seeds, same positions: same choices
    assert len(first) == 40 or (over and len(first) > 8)  # the placement and then play
    assert calls and set(calls) == {GAME}
    # whole games through the runner, against a Python agent
    _, rec = play_game(_game(max_turns=30), ["core-ismcts:iterations=10", "heuristic"], 77)
    assert rec.decisions > 0 and (rec.truncated or len(rec.winners) == 1)


def test_agent_for_picks_the_core_for_blackfire(monkeypatch):
    game = _game("prototype")
    for spec in ("ismcts:iterations=12", "heuristic", "heuristic:persona=hunter", "random"):
        assert isinstance(agent_for(spec, game, 0, 1), CoreAgent), spec
    assert not isinstance(agent_for("hard", game, 0, 1), CoreAgent)  # a level: Python
    monkeypatch.setenv("BOARDLAB_ENGINE", "python")
    assert not isinstance(agent_for("ismcts:iterations=12", game, 0, 1), CoreAgent)


def test_a_web_bot_decision_in_blackfire_uses_the_core(monkeypatch):
    """What a bot worker runs (``_think``) decides Blackfire with the core agent, never Python's search."""
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
    game = _game()
    cls = type(game)
    st = game.new_state(21)
    bot = "ismcts:iterations=12:depth=4"
    for _ in range(14):  # the placement and the first turns
        seat = st.current_seat()
        job = (game.id, f"{cls.__module__}:{cls.__qualname__}", game.players, game.variant,
               dict(game.overrides), st.to_json(), seat, bot, 1000 + st.decisions)
        want = core_act(CoreAgent(game, seat, 1000 + st.decisions, bot), Decision(st.clone()))
        assert _think(job) == tuple(want)
        st.apply(want)
    assert st.phase == "play" and calls == [bot] * 14
    monkeypatch.setenv("BOARDLAB_ENGINE", "python")
    with pytest.raises(AssertionError, match="Python search"):
        _think(job)


def test_bad_documents_are_value_errors():
    game = _game()
    spec = game.core_spec()
    doc = next(st for st in _positions(game, 3, 400) if st.stack).to_json()  # in play, a prompt pending
    assert _rebuild(game, doc).current_seat() is not None

    def broken(edit) -> str:
        d = json.loads(json.dumps(doc))
        edit(d)
        return json.dumps(d)

    cases = [
        (lambda d: d["data"].__setitem__("phase", "dance"), "phase"),
        (lambda d: d["data"]["units"].pop(), "6 units"),
        (lambda d: d["data"]["units"][0]["v"].__setitem__(2, 10**6), "square"),
        (lambda d: d["data"]["units"][1]["v"].__setitem__(3, "sleepy"), "stance"),
        (lambda d: d["data"]["bag"].append("no-such-token"), "token kind"),
        (lambda d: d["data"]["tokens"].__setitem__("$d", [[0, "death"], [0, "slow"]]), "two tokens"),
        (lambda d: d["data"].__setitem__("side_of_seat", [1, 1]), "different sides"),
        (lambda d: d["data"].__setitem__("orb_holder", 1), "Orb"),
        (lambda d: d["data"]["stats"].pop("rule:kill"), "stats"),
        (lambda d: d["data"]["revealed"].__setitem__("joker", 1), "joker"),
        (lambda d: d.__setitem__("players", 3), "players"),
        (lambda d: d.__setitem__("variant", "prototype"), "variant"),
        (lambda d: d.__setitem__("stack", [{"$r": "boardlab.engine.state.Prompt", "v": [0, "dance", {"unit": 0}]}]),
         "prompt kind"),
        (lambda d: d.__setitem__("stack", [{"$r": "boardlab.engine.state.Prompt", "v": [0, "shoot", {"unit": 1}]}]),
         "shoot prompt"),
        (lambda d: d.__setitem__("rng", -1), "rng"),
        (lambda d: d.pop("data"), "data"),
        (lambda d: d.__setitem__("format", "boardlab.state/0"), "boardlab.state/1"),
    ]
    for edit, why in cases:
        with pytest.raises(ValueError, match=why):
            core.state_from_json(GAME, spec, broken(edit))
    with pytest.raises(ValueError, match="not JSON"):
        core.state_from_json(GAME, spec, "{not json")
    with pytest.raises(ValueError, match="blackfire core spec"):
        core.state_from_json(GAME, "{}", json.dumps(doc))
    with pytest.raises(ValueError):  # a Dungeon's Jewel spec for a Blackfire document
        core.state_from_json("dungeons-jewel", make("dungeons-jewel", players=2).core_spec(), json.dumps(doc))
