"""The worked example of docs/architecture.md ("How to add a game"): Goofspiel, in examples/goofspiel/.

The game is registered at run time, exactly as the docs tell a designer to, and
the shared checks run over it at EVERY decision (a game is 2 x cards decisions
long): the conformance checks of ``tests/conformance`` and the
indistinguishability check of ``tests/test_indistinguishability.py``.  Then
two deliberately leaky copies, each showing the opponent something about a
pending bid, must fail those same checks: a check that passes a leak is no check.
"""

from __future__ import annotations

import json
import re
import shutil
import sys
from collections import Counter
from pathlib import Path

import pytest

from boardlab.agents import Decision, make_agent
from boardlab.agents.runner import play_game
from boardlab.engine import IllegalActionError, Rng, State, make, registry
from boardlab.render.terminal import scene_text
from tests.conformance import (
    check_apply_after_game_over,
    check_bad_actions,
    check_json_forms,
    check_no_leak,
    check_playout,
    check_tampering,
)
from tests.test_indistinguishability import check_game

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
if str(EXAMPLES) not in sys.path:  # examples/ is not a package on sys.path: the docs' way in
    sys.path.insert(0, str(EXAMPLES))

import goofspiel  # noqa: E402
from goofspiel.game import GoofspielGame, GoofspielState  # noqa: E402

VARIANTS = [v.name for v in GoofspielGame.variants]


def _leaky_games():
    """Two leaky copies of Goofspiel (registered by the fixture under their own ids).

    * ``goofspiel-shows-bid``: every view shows every pending bid (the obvious leak);
    * ``goofspiel-spends-early``: the view drops a pending bid's card from the bidder's
      unplayed cards at once, so the opponent sees which card is missing (the subtle one).
    """
    class ShowsBid(GoofspielState):
        __slots__ = ()

        def _view(self, seat):
            v = super()._view(seat)
            v["bids"] = list(self.bids)
            return v

    class SpendsEarly(GoofspielState):
        __slots__ = ()

        def _view(self, seat):
            v = super()._view(seat)
            v["hands"] = [[c for c in h if c != b] for h, b in zip(self.hands, self.bids)]
            return v

    return {gid: type("Leaky", (GoofspielGame,), {"id": gid, "state_class": state})
            for gid, state in (("goofspiel-shows-bid", ShowsBid), ("goofspiel-spends-early", SpendsEarly))}


LEAKY = _leaky_games()


@pytest.fixture(autouse=True, scope="module")
def registered():
    """Goofspiel registered the way the docs say (``goofspiel.register()``), and the leaky
    copies beside it, for this module only: other modules see the registry unchanged."""
    with pytest.MonkeyPatch.context() as mp:
        for gid in ("goofspiel", *LEAKY):
            mp.setitem(registry._extra, gid, None)  # remembered as absent, removed afterwards
            mp.setitem(registry._cache, gid, None)
        goofspiel.register()
        for gid, cls in LEAKY.items():
            registry.register(gid, cls)
        yield


def _every_decision(game, seed):
    """The states of one random playout (the start, then after each decision)."""
    state = game.new_state(seed)
    rng = Rng(seed)
    states = [state.clone()]
    while not state.is_over():
        legal = state.legal_actions()
        state.apply(legal[rng.below(len(legal))])
        states.append(state.clone())
    return states


# -- the shared checks, at every decision --------------------------------------------


def test_registered_from_the_docs_recipe():
    assert "goofspiel" in registry.game_ids() and "goofspiel" not in registry.BUILTIN
    assert registry.game_class("goofspiel") is GoofspielGame
    spec = GoofspielGame.spec()
    assert spec["hidden_information"] is True and spec["rules_doc"] == "examples/goofspiel/README.md"
    assert (EXAMPLES.parent / spec["rules_doc"]).is_file()


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_conformance_at_every_decision(variant, seed):
    final = check_playout("goofspiel", seed, variant=variant, every=1, leak_every=1)
    cards = final.game.option_values["cards"]
    assert final.decisions == 2 * cards and not final.truncated
    check_apply_after_game_over(final)


@pytest.mark.parametrize("variant", VARIANTS)
def test_json_bad_input_and_tampering_at_every_decision(variant):
    game = make("goofspiel", variant=variant)
    states = _every_decision(game, 7)
    assert len(states) == 2 * game.option_values["cards"] + 1
    leak_rng = Rng(7)
    for state in states:
        check_json_forms(state)
        assert check_bad_actions(state) > 0
        check_no_leak(state, leak_rng)
    assert check_tampering(states[-1]) > 0
    assert check_tampering(states[len(states) // 2 + 1]) > 0  # mid-game, a bid pending


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_indistinguishable_at_every_decision(variant, seed):
    assert check_game(make("goofspiel", variant=variant), seed, steps=10_000) == []


def test_bots_and_terminal_scene():
    game = make("goofspiel")
    final, _record = play_game(game, ["heuristic", "random"], seed=5)
    assert final.is_over() and not final.truncated and final.decisions == 12
    state = game.new_state(5)
    state.apply(("bid", 3))
    text = scene_text(game.scene(state.view(1), state.legal_actions()), [state.describe(a) for a in state.legal_actions()])
    assert text.splitlines()[0] == "Goofspiel"
    assert "made (secret)" in text and "Round 1: Player 2 to bid" in text
    spectator = scene_text(game.scene(state.view(None)))
    assert "Your bid" not in spectator and "made (secret)" in spectator


def test_players_read_no_internal_ids_by_the_label_rules():
    """tests/test_jargon.py's check on the worked example (issue 46: its "bid 4" broke label rule 6, a bare
    number naming a choice): what a designer copies from it passes the shared jargon test."""
    from tests.test_jargon import CHOICES, _configs, breaches, player_strings, report

    found = {}
    for variant, players, agent in _configs("goofspiel"):
        seen, names = player_strings("goofspiel", variant, players, agent)
        for where, strings in seen.items():
            for s in strings:
                found.update({(rule, f"{where}: {code!r}"): repr(s) for code, rule in breaches(s, names, where in CHOICES)})
    assert not found, report(found)
    state = make("goofspiel").new_state(1)
    assert state.describe(("bid", 4)) == "bid the 4 card"


def test_the_heuristic_beats_random():
    """Bidding by the prize's rank beats random bids: 100 games, at least 70 won (a fair
    coin wins 70 or more with probability 4e-5)."""
    game = make("goofspiel")
    wins = sum(play_game(game, ["heuristic", "random"], seed=seed)[0].results().winners == (0,) for seed in range(100))
    assert wins >= 70, wins


# -- the rules and the hidden bid -------------------------------------------------------


def test_a_round_secret_bid_then_reveal():
    game = make("goofspiel")
    s = game.new_state(11)
    prize = s.prize
    assert s.current_seat() == 0 and s.legal_actions() == tuple(("bid", c) for c in range(1, 7))
    s.apply(("bid", 5))
    # the pending bid: known to the bidder, unknown to the opponent and the spectator,
    # and still among the bidder's unplayed cards for everyone
    for seat in (1, None):
        v = s.view(seat)["state"]
        assert v["my_bid"] is None and v["bid_made"] == [True, False]
        assert v["hands"][0] == [1, 2, 3, 4, 5, 6]
        assert "5" not in json.dumps([e["text"] for e in s.events(seat)][-1:])
    assert s.view(0)["state"]["my_bid"] == 5
    assert s.current_seat() == 1
    s.apply(("bid", 2))
    v = s.view(None)["state"]
    assert v["rounds"] == [[prize, 5, 2]] and v["points"] == [prize, 0]
    assert v["hands"] == [[1, 2, 3, 4, 6], [1, 3, 4, 5, 6]] and v["bid_made"] == [False, False]
    assert s.events(None)[-2]["text"] == f"Player 1 bids 5, Player 2 bids 2: Player 1 wins {prize}"
    with pytest.raises(IllegalActionError):
        s.apply(("bid", 5))  # seat 0 spent its 5


def test_a_tie_discards_the_prize_and_equal_points_are_a_draw():
    game = make("goofspiel")
    s = game.new_state(3)
    while not s.is_over():  # both seats always bid the same card: every round ties
        s.apply(("bid", s.hands[0][0]))
    res = s.results()
    assert s.points == [0, 0] and all(b0 == b1 for _, b0, b1 in s.rounds)
    assert res.winners == () and res.scores == (0.5, 0.5) and not res.truncated
    assert res.reason == "a draw on 0 points each"


def test_determinize_resamples_the_pending_bid_uniformly_over_the_unplayed_cards():
    game = make("goofspiel")
    s = game.new_state(4)
    s.apply(("bid", 1))
    s.apply(("bid", 6))  # round 1 revealed: seat 0 holds 2..6
    s.apply(("bid", 4))  # seat 0's round-2 bid is pending
    counts = Counter(s.determinize(1, seed).bids[0] for seed in range(1500))
    assert set(counts) == {2, 3, 4, 5, 6}  # every unplayed card, and only those
    # uniform: each of 5 cards has probability 1/5 (300 of 1500; sd 15.5): within 4 sd
    assert all(abs(n - 300) <= 62 for n in counts.values()), counts
    # the seat's own bid and everything public are never resampled
    for seed in range(50):
        d = s.determinize(0, seed)
        assert d.bids == [4, None] and d.hands == s.hands and d.prizes == s.prizes and d.prize == s.prize


def test_determinized_copies_play_on():
    game = make("goofspiel")
    s = game.new_state(9)
    s.apply(("bid", 2))
    agents = [make_agent("random", game, k, k) for k in range(2)]
    d = s.determinize(1, 3)
    while not d.is_over():
        seat = d.current_seat()
        d.apply(agents[seat].act(Decision(d, seat)))
    assert d.results().scores in ((1.0, 0.0), (0.0, 1.0), (0.5, 0.5))
    assert State.from_json(json.loads(json.dumps(d.to_json())), game).dumps() == d.dumps()


# -- the checks catch a leak -----------------------------------------------------------


@pytest.mark.parametrize("gid", sorted(LEAKY))
def test_the_shared_checks_catch_a_leaked_pending_bid(gid):
    game = make(gid)
    # the conformance playout, views checked at every decision
    with pytest.raises(AssertionError, match="view changed under its own determinization"):
        check_playout(gid, 1, every=1, leak_every=1)
    # the indistinguishability check: two bids, one event for the opponent, two views
    found = check_game(game, 1, steps=10_000)
    assert found
    assert {q for _d, q, *_ in found} == {1, None}  # the opponent and the spectator, never the bidder
    for _decision, _q, a, b, events in found:
        assert a[0] == b[0] == "bid" and a != b and "bids a card" in events
    # the honest game passes both at the same positions
    honest = make("goofspiel")
    assert check_game(honest, 1, steps=10_000) == []
    check_playout("goofspiel", 1, every=1, leak_every=1)


def test_a_leak_hidden_by_a_lazy_determinization_is_still_caught(monkeypatch):
    """A view that leaks the bid AND a _determinize that resamples nothing passes the
    determinization check (resampling nothing changes no view), so it alone cannot see
    the leak; the indistinguishability check does."""
    shows = LEAKY["goofspiel-shows-bid"]

    class Lazy(shows.state_class):
        __slots__ = ()

        def _determinize(self, seat, rng):
            pass

    cls = type("LazyLeak", (shows,), {"id": "goofspiel-lazy-leak", "state_class": Lazy})
    monkeypatch.setitem(registry._extra, cls.id, cls)
    monkeypatch.setitem(registry._cache, cls.id, cls)
    check_playout(cls.id, 1, every=1, leak_every=1)  # passes: the determinization check is blind here
    assert check_game(make(cls.id), 1, steps=10_000)


# -- the docs show this code ------------------------------------------------------------


def _code_lines(text: str) -> set[str]:
    """Stripped lines, less trailing comments and blank or comment-only lines."""
    out = set()
    for line in text.splitlines():
        line = line.split("  #")[0].strip()
        if line and not line.startswith("#"):
            out.add(line)
    return out


def test_the_docs_walk_through_this_code():
    """Every line of every Python block in docs/architecture.md, "How to add a game", is a
    line of the example or of this test: the tutorial cannot drift from the tested code."""
    doc = (EXAMPLES.parent / "docs" / "architecture.md").read_text()
    section = doc[doc.index("## How to add a game"):]
    blocks = re.findall(r"```python\n(.*?)```", section, flags=re.S)
    assert len(blocks) >= 6
    known = set().union(*(_code_lines(f.read_text()) for f in [*(EXAMPLES / "goofspiel").glob("*.py"), Path(__file__)]))
    missing = [line for block in blocks for line in sorted(_code_lines(block)) if line not in known]
    assert not missing, missing


def test_moved_in_tree_without_a_board_it_keeps_the_import_contracts(tmp_path):
    """Goofspiel ships no board.py (the game-package contract's board layer is optional, ``"(board) : content"``):
    copied unchanged into ``boardlab/games/goofspiel`` and listed as a container, ``lint-imports`` keeps every
    contract; the same copy with its ``content.py`` (a required layer) removed is refused."""
    from tests.test_import_contracts import lint

    assert not (EXAMPLES / "goofspiel" / "board.py").exists()
    root = tmp_path / "tree"
    shutil.copytree(EXAMPLES.parent / "boardlab", root / "boardlab", ignore=shutil.ignore_patterns("__pycache__", "*.json", "*.txt", "*.deck"))
    shutil.copytree(EXAMPLES / "goofspiel", root / "boardlab" / "games" / "goofspiel", ignore=shutil.ignore_patterns("__pycache__", "*.md"))
    text = (EXAMPLES.parent / "pyproject.toml").read_text()
    assert '"boardlab.games.armies",\n' in text
    (root / "pyproject.toml").write_text(text.replace('"boardlab.games.armies",\n', '"boardlab.games.armies",\n    "boardlab.games.goofspiel",\n', 1))
    out = lint(root)
    assert out.returncode == 0 and "0 broken" in out.stdout, out.stdout + out.stderr
    (root / "boardlab" / "games" / "goofspiel" / "content.py").unlink()
    out = lint(root)
    assert out.returncode != 0 and "content" in out.stdout + out.stderr, out.stdout + out.stderr
